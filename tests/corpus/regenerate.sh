#!/usr/bin/env bash
# The checked-in corpus must equal the generator's output, byte for byte.
# usage: regenerate.sh MC_CORPUSGEN CORPUS_DIR
set -euo pipefail
gen=$1 corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp/corpus"
"$gen" "$tmp/again"
diff -r "$tmp/corpus" "$tmp/again" >/dev/null || { echo "generator is not deterministic"; echo "0 passed, 1 failed"; exit 1; }
if ! diff -r "$corpus" "$tmp/corpus"; then
    echo "corpus/ is stale: regenerate with mc_corpusgen corpus"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
