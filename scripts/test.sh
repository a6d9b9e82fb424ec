#!/usr/bin/env bash
# README command 2: set up, build with ASan + UBSan and -Werror, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's duration on stderr at its end, so a slow CI run says where
# its time went (CI must stay well under 30 minutes).
phase_start=$SECONDS phase_name=setup
phase() {
    echo "test.sh: $phase_name took $((SECONDS - phase_start)) s (total $SECONDS s)" >&2
    phase_start=$SECONDS phase_name=$1
}
trap 'rc=$?; phase end; exit $rc' EXIT
./scripts/setup-debian.sh
./scripts/setup-npm.sh
# cJSON's sources for the WebAssembly build (cmake --preset wasm, built by its ctests).
./scripts/setup-wasm.sh || echo "test.sh: scripts/setup-wasm.sh failed: the wasm tests will fail" >&2
# Warnings are errors here (CI); the optimised build must compile clean too.
phase "release build"
cmake --preset default -DMC_WERROR=ON >/dev/null
cmake --build --preset default
phase "asan build"
cmake --preset asan -DMC_WERROR=ON >/dev/null
cmake --build --preset asan
phase "ctest (asan)"
ctest --preset asan
# Fuzzing smoke: every libFuzzer target for a few seconds from the corpus.
phase "fuzz smoke"
fuzz/run.sh --smoke
# Coverage, less the long end-to-end suites the ASan run has just run
# (scripts/coverage.sh --ci); fails below the thresholds.
phase coverage
./scripts/coverage.sh --ci
