#!/usr/bin/env bash
# The web page in Debian's headless chromium, driven by puppeteer-core from
# build/npm (scripts/setup-npm.sh; no browser download): page_test.mjs or
# single_page_test.mjs.
# SKIP (never pass) without emscripten, node, chromium or puppeteer-core.
# Usage: page_test.sh NATIVE_MODELCHECK SOURCE_DIR BINARY_DIR [SCRIPT]
# SCRIPT: page_test.mjs (index.html), or single_page_test.mjs (modelcheck.html)
set -uo pipefail
native=$(realpath "$1") src=$(realpath "$2") out=$3 script=${4:-page_test.mjs}
chromium=${MC_CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "SKIP: no chromium at $chromium (scripts/setup-debian.sh)"; exit 77; }
[ -d "$src/build/npm/node_modules/puppeteer-core" ] ||
    { echo "SKIP: puppeteer-core not installed (scripts/setup-npm.sh)"; exit 77; }
. "$(dirname "$0")/wasm_build.sh"
wasm_build "$src"
mkdir -p "$out"
node "$(dirname "$0")/$script" "$native" "$src" "$MC_WASM_DIR" "$chromium" "$out"
