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
if [ "$mode" = --update ]; then
    mkdir -p "$golden"
    cp "$tmp/report.txt" "$tmp/report.json" "$golden/"
    echo "updated $golden/report.txt and $golden/report.json"
    exit 0
fi
passed=0 failed=0
for f in report.txt report.json; do
    if cmp -s "$golden/$f" "$tmp/$f"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $golden/$f differs from the current report (first differing lines):"
        diff -u "$golden/$f" "$tmp/$f" | head -n 40 || true
        echo "(a deliberate change: tests/corpus/golden.sh build/default/cli/modelcheck . --update)"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
