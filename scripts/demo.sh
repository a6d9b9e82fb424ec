#!/usr/bin/env bash
# README command 1: set up, build, validate the bundled conformance corpus,
# show the report and the per-format conformance summary.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-debian.sh
# cJSON's sources for cmake --preset wasm (README, "In the browser and in Node")
./scripts/setup-wasm.sh || echo "demo.sh: scripts/setup-wasm.sh failed: cmake --preset wasm will say what is missing" >&2
cmake --preset default >/dev/null
cmake --build --preset default >/dev/null
mc=build/default/cli/modelcheck

echo "== modelcheck --quiet corpus/   (issues of every file; clean files are not listed)"
set +e
"$mc" --quiet corpus
rc=$?
set -e
echo "(exit code $rc: the corpus holds invalid files on purpose; 1 is expected)"
echo
echo "== conformance summary: each case's report against corpus/manifest.json"
/usr/bin/python3 tests/corpus/check_manifest.py "$mc" corpus
echo
echo "JSON report of the same: $mc --output json corpus"
[ "$rc" -eq 1 ]
