#!/usr/bin/env bash
# The source scenes of exporter certification are valid glTF 2.0 in every
# form (.gltf embedded, .gltf + .bin, .glb), by the Khronos glTF validator
# (npm, pinned in tests/npm). SKIP (exit 77) when build/npm is missing.
# usage: scenes_gltf_valid.sh MC_CORPUSGEN NPM_DIR
set -euo pipefail
gen=$1 npm=$2
if [ ! -d "$npm/node_modules/gltf-validator" ] || ! command -v node >/dev/null; then
    echo "SKIP: $npm/node_modules/gltf-validator or node missing (run scripts/setup-npm.sh)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" --scene-forms "$tmp"
node "$(dirname "$0")/gltf_validate.js" "$npm" "$tmp"
