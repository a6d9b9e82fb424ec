#!/usr/bin/env bash
# README command 1: set up, build, validate the bundled corpus, show the report.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-debian.sh
cmake --preset default >/dev/null
cmake --build --preset default >/dev/null
mc=build/default/validator/modelcheck

echo "== modelcheck corpus/aem/valid (expected: exit 0, warnings allowed)"
set +e
"$mc" corpus/aem/valid; valid_rc=$?
echo
echo "== modelcheck corpus/aem/invalid (expected: exit 1, each file breaks one rule)"
"$mc" corpus/aem/invalid; invalid_rc=$?
set -e
echo
echo "exit codes: valid set $valid_rc (expected 0), invalid set $invalid_rc (expected 1)"
echo "JSON report of the same: $mc --output json corpus"
[ "$valid_rc" -eq 0 ] && [ "$invalid_rc" -eq 1 ]
