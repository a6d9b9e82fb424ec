#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script. Honours $CC, $CFLAGS,
# $LIB_FUZZING_ENGINE, $SRC and $OUT; writes every target with its seed
# corpus zip, dictionary and options file into $OUT.
# Local test:  CC=clang CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out SRC=.. fuzz/build.sh
here=$(cd "$(dirname "$0")/.." && pwd)
build=${WORK:-/tmp}/modelcheck-ossfuzz-build
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_C_FLAGS="$CFLAGS" -DMC_TESTS=OFF -DMC_FUZZ=ON -DMC_FUZZ_OWN_FLAGS=OFF \
    -DMC_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
    -DMC_FUZZ_SA="$([ "${FUZZING_ENGINE:-libfuzzer}" = libfuzzer ] && echo ON || echo OFF)" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
mkdir -p "$OUT"
for t in auto aem semodel aamf e3d nlm; do
    cp "$build/fuzz/mc_fuzz_$t" "$OUT/"
    cp "$here/fuzz/dict/$t.dict" "$OUT/mc_fuzz_$t.dict"
    cp "$here/fuzz/options/mc_fuzz_$t.options" "$OUT/"
    seeds=$here/corpus
    [ "$t" = auto ] || [ ! -d "$here/corpus/$t" ] || seeds=$here/corpus/$t
    rm -f "$OUT/mc_fuzz_${t}_seed_corpus.zip"
    (cd "$seeds" && find . -type f ! -name '*.json' ! -name '*.md' | sort | zip -q -X -@ "$OUT/mc_fuzz_${t}_seed_corpus.zip")
    # structure-aware twin (fuzz/mutators; libFuzzer engines only): same seeds, dictionary, options
    if [ -x "$build/fuzz/mc_fuzz_${t}_sa" ]; then
        cp "$build/fuzz/mc_fuzz_${t}_sa" "$OUT/"
        cp "$OUT/mc_fuzz_$t.dict" "$OUT/mc_fuzz_${t}_sa.dict"
        cp "$OUT/mc_fuzz_$t.options" "$OUT/mc_fuzz_${t}_sa.options"
        cp "$OUT/mc_fuzz_${t}_seed_corpus.zip" "$OUT/mc_fuzz_${t}_sa_seed_corpus.zip"
    fi
done
# reference-loader and differential targets: their format's seeds, dictionary, options
for f in aem semodel aamf e3d nlm; do
    for kind in load diff fix; do
        t=${kind}_$f
        cp "$build/fuzz/mc_fuzz_$t" "$OUT/"
        cp "$OUT/mc_fuzz_$f.dict" "$OUT/mc_fuzz_$t.dict"
        cp "$OUT/mc_fuzz_$f.options" "$OUT/mc_fuzz_$t.options"
        cp "$OUT/mc_fuzz_${f}_seed_corpus.zip" "$OUT/mc_fuzz_${t}_seed_corpus.zip"
    done
done
# the clean paths' oracle: every format, by content, as auto
cp "$build/fuzz/mc_fuzz_clean" "$OUT/"
for x in dict options; do cp "$OUT/mc_fuzz_auto.$x" "$OUT/mc_fuzz_clean.$x"; done
cp "$OUT/mc_fuzz_auto_seed_corpus.zip" "$OUT/mc_fuzz_clean_seed_corpus.zip"
# the inspect path: every format, by content, as auto
cp "$build/fuzz/mc_fuzz_inspect" "$OUT/"
for x in dict options; do cp "$OUT/mc_fuzz_auto.$x" "$OUT/mc_fuzz_inspect.$x"; done
cp "$OUT/mc_fuzz_auto_seed_corpus.zip" "$OUT/mc_fuzz_inspect_seed_corpus.zip"
