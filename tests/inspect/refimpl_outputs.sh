#!/usr/bin/env bash
# modelcheck inspect on files real writers made (issue 27): the upstream AEM
# converter (2025 layout) and semodel.py's writer, each run here on a few of
# the source scenes (corpus/scenes), built as scripts/refimpls.sh builds them
# (its cache in MC_REFIMPL_OUT). Their outputs are then checked by
# check_refimpl_outputs.py: JSON against the schema, the text view's tables
# and its counts against the scene's facts, --at on records of every array,
# and the text of skin_1_to_4 against tests/inspect/golden/IMPL/ (written
# again with MC_GOLDEN_UPDATE=1).
# The other formats have no writer here (docs/INSPECT.md).
#
# usage: refimpl_outputs.sh aem-converter|semodel-writer
# env: MC_BIN (modelcheck), MC_REFIMPL_OUT, MC_SYSTEM_PYTHON (with jsonschema)
# Exit 77 (SKIP) when the writer cannot be built here (no snapshot, no Xvfb...).
set -uo pipefail
impl=${1:?usage: refimpl_outputs.sh aem-converter|semodel-writer}
root=$(cd "$(dirname "$0")/../.." && pwd)
mc=${MC_BIN:?MC_BIN names modelcheck}
python=${MC_SYSTEM_PYTHON:-python3}
case $impl in
# scenes each writer writes faithfully (conformance/refimpl/expected/IMPL.txt)
aem-converter) scenes=(cube skin_1_to_4 chain_128) ext=aem ;;
semodel-writer) scenes=(cube skin_1_to_4 skin_8 many_vertices bones_300) ext=semodel ;;
*) echo "refimpl_outputs: unknown writer $impl" >&2; exit 2 ;;
esac

# the writer's command, {in} and {out} to fill (SKIP and failures pass through)
loader=$(bash "$root/scripts/refimpls.sh" build "$impl") || exit $?
loader=$(tail -n 1 <<< "$loader")
[ -n "$loader" ] || { echo "refimpl_outputs: $impl: no command" >&2; exit 2; }

tmp=$(mktemp -d)
xvfb=
cleanup() {
    if [ -n "$xvfb" ]; then kill "$xvfb" 2> /dev/null; wait "$xvfb" 2> /dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
# the converter needs an X server: one for all its runs (run_converter.sh
# uses MCC_DISPLAY when set)
if [ "$impl" = aem-converter ]; then
    fifo=$tmp/xvfb.fifo
    mkfifo "$fifo" || exit 2
    Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3> "$fifo" 2> /dev/null &
    xvfb=$!
    n=$(head -n 1 < "$fifo")
    [ -n "$n" ] || { echo "refimpl_outputs: Xvfb did not start" >&2; exit 2; }
    export MCC_DISPLAY=:$n
fi
mkdir -p "$tmp/in" "$tmp/out"
cp "$root/corpus/scenes"/*.gltf "$root/corpus/scenes"/*.png "$tmp/in/" 2> /dev/null
outputs=()
for s in "${scenes[@]}"; do
    cmd=${loader//\{in\}/$(printf '%q' "$tmp/in/$s.gltf")}
    cmd=${cmd//\{out\}/$(printf '%q' "$tmp/out/$s.$ext")}
    if ! (cd "$tmp" && eval "$cmd") > "$tmp/$s.log" 2>&1 < /dev/null || [ ! -s "$tmp/out/$s.$ext" ]; then
        echo "FAIL $impl wrote no $s.$ext:"
        tail -n 20 "$tmp/$s.log"
        exit 1
    fi
    outputs+=("$tmp/out/$s.$ext")
done
"$python" -B "$root/tests/inspect/check_refimpl_outputs.py" "$mc" \
    "$root/reports/schema/inspect.schema.json" "$root/corpus/scenes" \
    "$root/tests/inspect/golden/$impl" "${outputs[@]}"
