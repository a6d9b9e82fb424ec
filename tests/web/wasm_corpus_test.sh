#!/usr/bin/env bash
# The WebAssembly build reports what the native command reports (issue 28):
# the whole corpus through modelcheck-wasm (Node) and the native CLI, in
# every output, byte for byte, with the same exit code; then a few option
# sets. SKIP without emscripten or node.
# Usage: wasm_corpus_test.sh NATIVE_MODELCHECK SOURCE_DIR
set -uo pipefail
native=$(realpath "$1") src=$(realpath "$2")
. "$(dirname "$0")/wasm_build.sh"
wasm_build "$src"
bin=$MC_WASM_DIR/package/bin/modelcheck-wasm.js
cd "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
compare() { # name, then the arguments for both
    local name=$1
    shift
    "$native" --no-config "$@" >"$tmp/native" 2>/dev/null
    local n=$?
    node "$bin" "$@" >"$tmp/wasm" 2>/dev/null
    local w=$?
    if [ "$n" != "$w" ]; then
        echo "FAIL $name: exit $w, native $n"
        fail=1
    elif ! cmp -s "$tmp/native" "$tmp/wasm"; then
        echo "FAIL $name: output differs from the native command's"
        diff "$tmp/native" "$tmp/wasm" | head -20
        fail=1
    elif [ ! -s "$tmp/native" ]; then
        echo "FAIL $name: no output"
        fail=1
    else
        echo "ok   $name (exit $n, $(wc -c <"$tmp/native") bytes)"
    fi
}
files=$(find corpus -type f ! -name '*.json' | wc -l)
[ "$files" -gt 400 ] || { echo "FAIL: only $files corpus files"; exit 1; }
for out in json text sarif sarif-github; do
    compare "corpus -o $out" -o "$out" corpus
done
compare "options" -o json -n 2 --severity AEM_WEIGHT_SUM=warning -i FILE_NO_CONTENT --unit-tolerance 0 \
    --weight-tolerance 1e-3 --quaternion-tolerance 0.5 corpus/aem corpus/semodel
compare "--format --max-file-bytes --no-sha256 -W" -o json -f e3d --max-file-bytes 4096 --no-sha256 -W corpus/e3d
compare "-W, text" -W corpus/aem/valid
compare "-W, sarif" -W -o sarif corpus/aem/valid
compare "named files, one missing" -o json corpus/nlm/valid "$src/corpus/does-not-exist.aem" corpus/any
compare "--list-codes" --list-codes -o json
# usage errors: exit 2, nothing on standard output, as natively
for args in "-n 1.5" "-n 1000001" "--severity NO_SUCH_CODE=error" "--severity AEM_WEIGHT_SUM=fatal" \
            "-i NO_SUCH_CODE" "--unit-tolerance -1" "--max-file-bytes 0" "-o nope" "-f nope" "--nope"; do
    # shellcheck disable=SC2086
    "$native" --no-config $args corpus/any >"$tmp/native" 2>/dev/null
    n=$?
    # shellcheck disable=SC2086
    node "$bin" $args corpus/any >"$tmp/wasm" 2>/dev/null
    w=$?
    if [ "$n" = 2 ] && [ "$w" = 2 ] && [ ! -s "$tmp/wasm" ]; then echo "ok   usage error $args: exit 2"
    else echo "FAIL usage error $args: exit $w, native $n"; fail=1; fi
done
# the same bytes per file through the library entry (validate), not the bin
node --input-type=module -e "
import { validate } from '$MC_WASM_DIR/package/index.js';
import fs from 'node:fs';
const f = 'corpus/aem/invalid/animation_duration_zero.aem';
const r = await validate(fs.readFileSync(f), { path: f });
const n = JSON.parse(fs.readFileSync(0));
if (JSON.stringify(r) !== JSON.stringify(n)) { console.log('FAIL validate(): differs from the native report'); process.exit(1); }
console.log('ok   validate() equals the native report of ' + f);
" < <("$native" --no-config -o json corpus/aem/invalid/animation_duration_zero.aem) || fail=1
# modelcheck inspect (issue 27) through the wasm build: the JSON document
# and the text of every corpus file in one run each, byte for byte, then
# --at on bytes of each format (a header, a record field, the end, past the
# end, inside a decoded E3D block, a refused spec).
compare_inspect() { # name, then inspect's arguments for both
    local name=$1
    shift
    "$native" inspect "$@" >"$tmp/native" 2>/dev/null
    local n=$?
    node "$bin" inspect "$@" >"$tmp/wasm" 2>/dev/null
    local w=$?
    if [ "$n" != "$w" ]; then
        echo "FAIL inspect $name: exit $w, native $n"
        fail=1
    elif ! cmp -s "$tmp/native" "$tmp/wasm"; then
        echo "FAIL inspect $name: output differs from the native command's"
        diff "$tmp/native" "$tmp/wasm" | head -20
        fail=1
    else
        echo "ok   inspect $name (exit $n, $(wc -c <"$tmp/native") bytes)"
    fi
}
mapfile -t all < <(find corpus -type f ! -name '*.json' | LC_ALL=C sort)
compare_inspect "-o json, every corpus file" -o json "${all[@]}"
trees=$(grep -o '"structure":{"name":"","kind":"file"' "$tmp/native" | wc -l)
[ "$trees" -ge "${#all[@]}" ] || { echo "FAIL inspect: $trees trees for ${#all[@]} files"; fail=1; }
compare_inspect "text, every corpus file" "${all[@]}"
for fmt in aem semodel aamf nlm; do
    f=$(find corpus/$fmt/valid -type f | LC_ALL=C sort | head -1)
    compare_inspect "--at $f" --at 0 --at 0x28 --at $(( $(wc -c <"$f") - 1 )) "$f"
done
e3d=corpus/e3d/valid/skinned_lzma.e3d
compare_inspect "--at in a decoded block" --at 0xc+0 --at lzma@0xc+0x40 --at 0 "$e3d"
compare_inspect "--at past the end" --at 99999999 "$e3d"
compare_inspect "--at refused" --at 0xnope "$e3d"
compare_inspect "-f aem on an e3d file" -o json -f aem "$e3d"
compare_inspect "usage: no FILE" -o json
# the library entry: inspect() and at() equal the native document and --at
node --input-type=module -e "
import { inspect, at } from '$MC_WASM_DIR/package/index.js';
import fs from 'node:fs';
const f = '$e3d';
const doc = await inspect(fs.readFileSync(f), { path: f });
const n = JSON.parse(fs.readFileSync(0));
if (JSON.stringify(doc) !== JSON.stringify(n)) { console.log('FAIL inspect(): differs from the native document'); process.exit(1); }
const l = await at(fs.readFileSync(f), '0xc+0x40');
if (!l || l.space !== 1 || !l.path.startsWith('/lzma@0xc/')) { console.log('FAIL at(): ' + JSON.stringify(l)); process.exit(1); }
if (await at(fs.readFileSync(f), 99999999) !== null) { console.log('FAIL at(): a byte past the end'); process.exit(1); }
console.log('ok   inspect() equals the native document of ' + f + '; at(0xc+0x40) is ' + l.path);
" < <("$native" inspect -o json "$e3d") || fail=1
# the benchmark's WebAssembly timer (docs/PERFORMANCE.md, "WebAssembly"), so that
# it does not rot: one line of two positive times, and a file it cannot read refused
t=$(node "$src/tests/web/wasm_bench.mjs" --time "$MC_WASM_DIR" 2 "$e3d" 2>/dev/null)
if node -e 'const t = JSON.parse(process.argv[1]); process.exit(t.first > 0 && t.warm > 0 && Object.keys(t).length === 2 ? 0 : 1)' "$t" 2>/dev/null; then
    echo "ok   wasm_bench.mjs --time: $t"
else
    echo "FAIL wasm_bench.mjs --time: '$t'"
    fail=1
fi
if node "$src/tests/web/wasm_bench.mjs" --time "$MC_WASM_DIR" 2 "$tmp/no-such-file" >/dev/null 2>&1; then
    echo "FAIL wasm_bench.mjs --time on a missing file: exit 0"
    fail=1
fi
[ $fail -eq 0 ] && echo "PASS: $files corpus files, wasm = native" || exit 1
