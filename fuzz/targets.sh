# Sourced by run.sh and afl.sh: the default targets, and the format whose
# seeds (corpus/<format>) and dictionary (fuzz/dict/<format>.dict) a target
# uses: the _sa, load_, diff_, fix_ and abi_ targets share their format's.
mc_default_targets=(auto aem semodel aamf e3d nlm)
for f in aem semodel aamf e3d nlm; do mc_default_targets+=("load_$f" "diff_$f" "fix_$f"); done
mc_default_targets+=(clean) # clean paths against exact checks, every format
mc_default_targets+=(inspect) # the inspect walk, --at and --show-bytes, every format

mc_target_format() {
    local b=${1%_sa}
    b=${b#load_}; b=${b#diff_}; b=${b#abi_}; b=${b#fix_}
    [ "$b" != clean ] || b=auto # the clean paths' oracle: every format, as auto
    [ "$b" != inspect ] || b=auto # the inspect path: every format, as auto
    echo "$b"
}

mc_target_seeds() {
    local f
    f=$(mc_target_format "$1")
    if [ "$f" = auto ] || [ ! -d "corpus/$f" ]; then echo corpus; else echo "corpus/$f"; fi
}
