#!/usr/bin/env bash
# The package's library (web/index.js over the WebAssembly build) reports
# what the native command reports (issue 28): run() over the whole corpus in
# every output it writes, byte for byte, with the same exit code, and with
# options; validate(), catalogText(), inspect() of every corpus file and at().
# The package's bin is the command itself and has its own test (wasm_cli).
# SKIP without emscripten or node.
# Usage: wasm_corpus_test.sh NATIVE_MODELCHECK SOURCE_DIR
set -uo pipefail
native=$(realpath "$1") src=$(realpath "$2")
. "$(dirname "$0")/wasm_build.sh"
wasm_build "$src"
lib=$MC_WASM_DIR/package/index.js
cd "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mapfile -t all < <(find corpus -type f ! -name '*.json' ! -path 'corpus/scenes/*' | LC_ALL=C sort)
[ "${#all[@]}" -gt 400 ] || { echo "FAIL: only ${#all[@]} corpus files"; exit 1; }
# compare NAME OPTIONS_JSON NATIVE_ARGS...: run(files, options) against the
# native command over the same files, named
compare() {
    local name=$1 options=$2
    shift 2
    "$native" --no-config "$@" "${all[@]}" >"$tmp/native" 2>/dev/null
    local n=$?
    node --input-type=module -e "
import { run } from '$lib';
import fs from 'node:fs';
const paths = process.argv.slice(2);
const r = await run(paths.map((p) => ({ path: p, bytes: fs.readFileSync(p) })), JSON.parse(process.argv[1]));
process.stdout.write(r.text);
process.exitCode = r.exitCode;" "$options" "${all[@]}" >"$tmp/wasm" 2>/dev/null
    local w=$?
    if [ "$n" != "$w" ]; then
        echo "FAIL $name: exit $w, native $n"
        fail=1
    elif ! cmp -s "$tmp/native" "$tmp/wasm"; then
        echo "FAIL $name: output differs from the native command's"
        diff "$tmp/native" "$tmp/wasm" | head -20
        fail=1
    else
        echo "ok   $name (exit $n, $(wc -c <"$tmp/native") bytes)"
    fi
}
for out in json text sarif sarif-github; do
    compare "run(), corpus, output $out" "{\"output\": \"$out\", \"workingDirectory\": \"$src\"}" -o "$out"
done
compare "run() with options" \
    '{"output": "json", "maxIssues": 2, "severity": {"AEM_WEIGHT_SUM": "warning"}, "ignore": ["FILE_NO_CONTENT"], "unitTolerance": 0, "weightTolerance": 1e-3, "quaternionTolerance": 0.5}' \
    -o json -n 2 --severity AEM_WEIGHT_SUM=warning -i FILE_NO_CONTENT --unit-tolerance 0 --weight-tolerance 1e-3 --quaternion-tolerance 0.5
compare "run(), -W, text" '{"output": "text", "werror": true}' -W
compare "run(), --no-sha256 --max-file-bytes" '{"output": "json", "noSha256": true, "maxFileBytes": 4096}' \
    -o json --no-sha256 --max-file-bytes 4096
if [ "$(node --input-type=module -e "import { catalogText } from '$lib'; process.stdout.write(await catalogText() + '\n');")" = \
     "$("$native" --list-codes -o json)" ]; then echo "ok   catalogText() = --list-codes -o json"
else echo "FAIL catalogText() differs from --list-codes -o json"; fail=1; fi
# the same bytes per file through the library entry (validate), not the bin
node --input-type=module -e "
import { validate } from '$lib';
import fs from 'node:fs';
const f = 'corpus/aem/invalid/animation_duration_zero.aem';
const r = await validate(fs.readFileSync(f), { path: f });
const n = JSON.parse(fs.readFileSync(0));
if (JSON.stringify(r) !== JSON.stringify(n)) { console.log('FAIL validate(): differs from the native report'); process.exit(1); }
console.log('ok   validate() equals the native report of ' + f);
" < <("$native" --no-config -o json corpus/aem/invalid/animation_duration_zero.aem) || fail=1
# modelcheck inspect (issue 27) through the library: openInspector()'s
# text of every corpus file, one after the other, is what the native command
# prints for them all; atText() is --at on bytes of each format (a header,
# a record field, the end, inside a decoded E3D block, past the end).
"$native" inspect "${all[@]}" >"$tmp/inspect.txt" 2>/dev/null
ats=()
for fmt in aem semodel aamf nlm; do
    f=$(find corpus/$fmt/valid -type f | LC_ALL=C sort | head -1)
    ats+=("$f" 0 0x28 $(( $(wc -c <"$f") - 1 )))
done
ats+=(corpus/e3d/valid/skinned_lzma.e3d 0xc+0 lzma@0xc+0x40 0)
for ((k = 0; k < ${#ats[@]}; k += 4)); do
    "$native" inspect --at "${ats[k+1]}" --at "${ats[k+2]}" --at "${ats[k+3]}" "${ats[k]}" >>"$tmp/at.txt" 2>/dev/null
done
node --input-type=module -e "
import { openInspector } from '$lib';
import fs from 'node:fs';
const [textFile, atFile, n, ...rest] = process.argv.slice(1);
const paths = rest.slice(0, Number(n)), ats = rest.slice(Number(n));
let text = '', at = '';
for (const p of paths) {
  const ins = await openInspector(fs.readFileSync(p), { path: p });
  text += ins.text();
  ins.close();
}
for (let k = 0; k < ats.length; k += 4) {
  const ins = await openInspector(fs.readFileSync(ats[k]), { path: ats[k] });
  for (const a of ats.slice(k + 1, k + 4)) at += ins.atText(a);
  ins.close();
}
let ok = true;
if (text !== fs.readFileSync(textFile, 'utf8')) { console.log('FAIL openInspector().text() of the corpus differs from modelcheck inspect'); ok = false; }
else console.log('ok   openInspector().text() of ' + paths.length + ' corpus files = modelcheck inspect');
if (at !== fs.readFileSync(atFile, 'utf8')) { console.log('FAIL atText() differs from modelcheck inspect --at'); ok = false; }
else console.log('ok   atText() = modelcheck inspect --at, ' + ats.length / 4 * 3 + ' bytes of ' + ats.length / 4 + ' files');
process.exit(ok ? 0 : 1);
" "$tmp/inspect.txt" "$tmp/at.txt" "${#all[@]}" "${all[@]}" "${ats[@]}" || fail=1
# inspect() of every corpus file: the native document's file object
"$native" inspect -o json "${all[@]}" >"$tmp/inspect.json" 2>/dev/null
node --input-type=module -e "
import { inspect } from '$lib';
import fs from 'node:fs';
const paths = process.argv.slice(2).filter((p) => fs.statSync(p).size > 0); // an empty file: nothing to inspect
const native = new Map(JSON.parse(fs.readFileSync('$tmp/inspect.json', 'utf8')).files.map((f) => [f.path, f]));
let same = 0, shown = 0;
for (const p of paths) {
  const doc = await inspect(fs.readFileSync(p), { path: p });
  if (JSON.stringify(doc.files[0]) === JSON.stringify(native.get(p))) same++;
  else if (shown++ < 5) console.log('  inspect() of ' + p + ' differs');
}
console.log((same === paths.length ? 'ok   ' : 'FAIL ') + 'inspect() of ' + same + '/' + paths.length + ' corpus files = modelcheck inspect -o json');
process.exit(same === paths.length ? 0 : 1);
" "${all[@]}" || fail=1
e3d=corpus/e3d/valid/skinned_lzma.e3d
# the library entry: inspect() and at() equal the native document and --at
node --input-type=module -e "
import { inspect, at } from '$lib';
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
[ $fail -eq 0 ] && echo "PASS: ${#all[@]} corpus files, the library = native" || exit 1
