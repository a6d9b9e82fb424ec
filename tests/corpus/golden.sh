#!/usr/bin/env bash
# The text and JSON reports of modelcheck over corpus/ must equal the checked-in
# golden reports byte for byte: a refactor that changes any report line fails here.
# usage: golden.sh MODELCHECK SOURCE_DIR [--update]
#   --update rewrites tests/corpus/golden/ from the current build (a deliberate
#   report change; review the diff before committing it).
# Settings are fixed so the output depends only on the corpus and the code: no
# configuration file, every instance kept (-n), hashes on (the JSON names each
# file's sha256), a fixed job count (the order does not depend on it anyway).
set -euo pipefail
mc=$(realpath "$1") src=$2 mode=${3:-check}
. "$(dirname "$0")/../golden_compare.sh"
cd "$src"
golden=tests/corpus/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opts=(--no-config -j 2 -n 1000000)
report() {  # KIND OUT: the corpus report; exit code 1 (invalid files on purpose)
    local rc=0
    "$mc" "${opts[@]}" -o "$1" corpus >"$2" || rc=$?
    if [ "$rc" -ne 1 ]; then
        echo "FAIL modelcheck -o $1 corpus exited $rc (expected 1)"
        echo "0 passed, 1 failed"
        exit 1
    fi
}
report text "$tmp/report.txt"
report json "$tmp/report.json"
golden_compare "$golden" "$tmp" "$mode" "tests/corpus/golden.sh build/default/cli/modelcheck . --update" \
    report.txt report.json
