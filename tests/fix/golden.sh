#!/usr/bin/env bash
# Every corpus case that `modelcheck fix --unsafe-fixes` changes has a golden
# fixed file (NAME.fixed) and a golden edit list (NAME.edits: the --diff
# report, with what remains); both must equal the current output byte for
# byte, index.txt must name exactly the cases fix changes (found by one
# --dry-run over the whole corpus), no input may change and fixing the fixed
# file must find nothing to do.
# usage: golden.sh MODELCHECK SOURCE_DIR [--update]
#   NAME is the corpus path with '/' as '.': aem.valid.2025_header_padding.aem
set -euo pipefail
mc=$(realpath "$1") src=$2 mode=${3:-check}
. "$(dirname "$0")/../golden_compare.sh"
cd "$src"
golden=tests/fix/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
names=()
mapfile -t all < <(find corpus -type f \( -name '*.aem' -o -name '*.aamf' -o -name '*.nlm' -o -name '*.semodel' -o -name '*.e3d' \) | LC_ALL=C sort)
sha256sum "${all[@]}" >"$tmp/sums"
# one process finds the cases fix changes; each is then fixed on its own
rc=0
"$mc" fix --unsafe-fixes --dry-run --output-format json "${all[@]}" >"$tmp/all.json" || rc=$?
[ "$rc" -le 1 ] || fail "fix --dry-run over the corpus exited $rc"
mapfile -t changed < <(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    if f["fix"]["edits"]: print(f["path"])' "$tmp/all.json")
for f in "${changed[@]}"; do
    name=${f#corpus/}; name=${name//\//.}
    rc=0
    "$mc" fix --unsafe-fixes --diff -o "$tmp/$name.fixed" "$f" >"$tmp/out" 2>&1 || rc=$?
    [ "$rc" -le 1 ] || { fail "$f: fix exited $rc"; cat "$tmp/out"; continue; }
    sed "s|, written to $tmp/$name.fixed||" "$tmp/out" >"$tmp/$name.edits"
    again=$("$mc" fix --unsafe-fixes --dry-run "$tmp/$name.fixed" | head -n 1)
    case $again in *": 0 edits"*) ;; *) fail "$f: fixing the fixed file: $again" ;; esac
    names+=("$name")
done
sha256sum --quiet -c "$tmp/sums" || fail "fix modified an input"
printf '%s\n' "${names[@]}" >"$tmp/index.txt"
files=(index.txt)
for n in "${names[@]}"; do files+=("$n.fixed" "$n.edits"); done
if [ "$mode" != --update ]; then
    for g in "$golden"/*; do
        b=$(basename "$g")
        [ -e "$tmp/$b" ] || fail "$g: no corpus case gives it any more (tests/fix/golden.sh MODELCHECK . --update)"
    done
fi
[ "$mode" != --update ] || rm -rf "$golden"
rc=0
golden_compare "$golden" "$tmp" "$mode" "tests/fix/golden.sh build/asan/cli/modelcheck . --update" "${files[@]}" || rc=1
[ "$failed" -eq 0 ] || { echo "$failed other failures"; rc=1; }
exit $rc
