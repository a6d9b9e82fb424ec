#!/usr/bin/env bash
# modelcheck inspect's text and JSON on a few corpus files (one or two per
# format and layout, valid and invalid, E3D with LZMA) must equal the checked-in golden
# outputs byte for byte (issue 27).
# usage: golden.sh MODELCHECK SOURCE_DIR [--update]
set -euo pipefail
mc=$(realpath "$1") src=$2 mode=${3:-check}
. "$(dirname "$0")/../golden_compare.sh"
cd "$src"
golden=tests/inspect/golden
files=(
    corpus/aem/valid/skinned_animated.aem
    corpus/aem/invalid/weights_sum_0_93.aem
    corpus/aem/valid/2025_bc7_and_bc5_textures.aem
    corpus/semodel/valid/bone_flags_set_2018.semodel
    corpus/semodel/invalid/bone_name_runs_to_end_of_file.semodel
    corpus/aamf/valid/samf_1_bone.aamf
    corpus/aamf/valid/legacy_1_bone.aamf
    corpus/e3d/valid/cube3_spec_lzma_444.e3d
    corpus/e3d/invalid/truncated.e3d
    corpus/e3d/valid/animated.e3d
    corpus/nlm/valid/animated_zero_channels.nlm
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${files[@]}"; do
    [ -f "$f" ] || { echo "FAIL $f is missing"; echo "0 passed, 1 failed"; exit 1; }
done
# exit 1 is an invalid file among them (on purpose); anything else is a failure
run() { local rc=0; "$mc" inspect "$@" >>"$out" || rc=$?; [ "$rc" -le 1 ] || { echo "FAIL inspect $* exited $rc"; exit 1; }; }
out=$tmp/inspect.txt; for f in "${files[@]}"; do run "$f"; done
out=$tmp/inspect.json; run --output json "${files[@]}"
out=$tmp/at.txt
run --at 0x23c --at 3 corpus/aem/invalid/weights_sum_0_93.aem
run --at 0x28 --at 0x3a0 corpus/aem/invalid/2025_texture_compression_3.aem
run --at 0xc+0x100 corpus/e3d/valid/cube3_spec_lzma_444.e3d
golden_compare "$golden" "$tmp" "$mode" "tests/inspect/golden.sh build/default/cli/modelcheck . --update" \
    inspect.txt inspect.json at.txt
