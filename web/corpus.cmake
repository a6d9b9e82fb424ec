# cmake -DSRC=corpus -DOUT=package/share/modelcheck -P corpus.cmake
# The npm package's corpus: the manifest and its cases, which `explain`
# validates for its example lines; the glTF scenes they were generated from
# are left out.
file(COPY ${SRC} DESTINATION ${OUT} PATTERN scenes EXCLUDE)
