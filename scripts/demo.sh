#!/usr/bin/env bash
# README command 1: install what validating needs (no browser, emscripten or
# fuzzer: scripts/setup-debian.sh --minimal), build the command without the
# tests, validate the bundled conformance corpus and show the report, then
# the per-format conformance summary when python3 is there.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-debian.sh --minimal
build=build/demo
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMC_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target modelcheck_cli >/dev/null
mc=$build/cli/modelcheck

echo "== modelcheck --quiet corpus/   (issues of every file; clean files are not listed)"
set +e
"$mc" --quiet corpus
rc=$?
set -e
echo "(exit code $rc: the corpus holds invalid files on purpose; 1 is expected)"
echo
if [ -x /usr/bin/python3 ]; then
    echo "== conformance summary: each case's report against corpus/manifest.json"
    /usr/bin/python3 tests/corpus/check_manifest.py "$mc" corpus
    echo
fi
echo "JSON report of the same: $mc --output json corpus"
echo "What a code means: $mc explain AEM_WEIGHT_SUM"
[ "$rc" -eq 1 ]
