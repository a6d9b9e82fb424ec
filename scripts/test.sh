#!/usr/bin/env bash
# README command 2: set up, build with ASan + UBSan and -Werror, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-debian.sh
./scripts/setup-npm.sh
# cJSON's sources for the WebAssembly build (cmake --preset wasm, built by its ctests).
./scripts/setup-wasm.sh || echo "test.sh: scripts/setup-wasm.sh failed: the wasm tests will fail" >&2
# Warnings are errors here (CI); the optimised build must compile clean too.
cmake --preset default -DMC_WERROR=ON >/dev/null
cmake --build --preset default
cmake --preset asan -DMC_WERROR=ON >/dev/null
cmake --build --preset asan
ctest --preset asan
# Fuzzing smoke: every libFuzzer target for a few seconds from the corpus.
fuzz/run.sh --smoke
# Coverage of the whole suite; fails below the threshold (scripts/coverage.sh).
./scripts/coverage.sh
