# cmake -DSRC=DIR -DOUT=DEST [-DPATTERN=GLOB] -P corpus.cmake
# A directory into the npm package: the corpus (its manifest and cases,
# which `explain` validates for its example lines; the glTF scenes they
# were generated from are left out), or with PATTERN only the files
# matching it (the documents: *.md).
if(PATTERN)
  file(COPY ${SRC} DESTINATION ${OUT} FILES_MATCHING PATTERN "${PATTERN}")
else()
  file(COPY ${SRC} DESTINATION ${OUT} PATTERN scenes EXCLUDE)
endif()
