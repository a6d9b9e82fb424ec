#!/usr/bin/env bash
# The npm package (issues 28, 36): `npm pack` of build/wasm/web/package, the
# tarball installed offline into a scratch project, then used as a user
# would: import { validate } from 'modelcheck-wasm', and the modelcheck-wasm
# bin (node_modules/.bin, npx, and npx straight from the tarball in an empty
# directory), each against the native command. SKIP without emscripten or npm.
# Usage: npm_pack_test.sh NATIVE_MODELCHECK SOURCE_DIR
set -uo pipefail
native=$(realpath "$1") src=$(realpath "$2")
command -v npm >/dev/null || { echo "SKIP: npm not installed"; exit 77; }
. "$(dirname "$0")/wasm_build.sh"
wasm_build "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export npm_config_cache=$tmp/npm-cache npm_config_update_notifier=false
(cd "$MC_WASM_DIR/package" && npm pack --pack-destination "$tmp" --silent >"$tmp/packed") ||
    { echo "FAIL: npm pack"; exit 1; }
tarball=$tmp/$(tail -1 "$tmp/packed")
[ -f "$tarball" ] || { echo "FAIL: no tarball ($(cat "$tmp/packed"))"; exit 1; }
listing=$(tar tzf "$tarball" | sort | tr '\n' ' ')
for f in package/package.json package/index.js package/index.d.ts package/modelcheck-core.mjs \
         package/modelcheck-cli.cjs package/modelcheck-cli.wasm package/share/modelcheck/corpus/manifest.json \
         package/bin/modelcheck-wasm.js package/README.md; do
    case " $listing " in *" $f "*) ;; *) echo "FAIL: $f not in the tarball: $listing"; exit 1 ;; esac
done
echo "ok   npm pack: $(basename "$tarball"), $(wc -c <"$tarball") bytes, $(tar tzf "$tarball" | wc -l) files"
mkdir "$tmp/project"
cd "$tmp/project"
echo '{"name": "scratch", "version": "1.0.0", "private": true, "type": "module"}' >package.json
npm install --offline --no-audit --no-fund --loglevel=error "$tarball" >/dev/null ||
    { echo "FAIL: npm install of the tarball"; exit 1; }
fail=0
f=$src/corpus/aem/invalid/animation_duration_zero.aem
"$native" --no-config -o json "$f" >native.json
cat >use.mjs <<'JS'
import { validate, catalog } from 'modelcheck-wasm';
import fs from 'node:fs';
const [file, nativeFile] = process.argv.slice(2);
const report = await validate(fs.readFileSync(file), { path: file });
const native = JSON.parse(fs.readFileSync(nativeFile, 'utf8'));
if (JSON.stringify(report) !== JSON.stringify(native)) throw new Error('validate() differs from the native report');
const f = report.files[0];
if (f.valid !== false || !f.issues.length || !/^[0-9a-f]{64}$/.test(f.sha256)) throw new Error('unexpected report');
// options reach the validator: every code ignored leaves the file valid
const quiet = await validate(fs.readFileSync(file), { path: file, ignore: f.issues.map((i) => i.code) });
if (quiet.files[0].valid !== true || quiet.files[0].issues.length) throw new Error('ignore had no effect');
const codes = await catalog();
if (!codes.some((c) => c.code === f.issues[0].code)) throw new Error('catalog lacks ' + f.issues[0].code);
try { await validate(new Uint8Array(4), { severity: { NO_SUCH_CODE: 'error' } }); throw new Error('accepted'); }
catch (e) { if (!/unknown issue code/.test(e.message)) throw e; }
console.log(`ok   import { validate } from 'modelcheck-wasm': ${f.issues.length} issues, as native`);const { inspect } = await import('modelcheck-wasm');
const doc = await inspect(fs.readFileSync(file), { path: file });
if (JSON.stringify(doc) !== fs.readFileSync(process.argv[4], 'utf8').trim()) throw new Error('inspect() differs from modelcheck inspect -o json');
console.log(`ok   import { inspect } from 'modelcheck-wasm': the document of modelcheck inspect -o json`);
JS
"$native" inspect -o json "$f" | node -e 'process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(0))))' >inspect.json
node use.mjs "$f" native.json inspect.json || fail=1
# the types, as a TypeScript user meets them (index.d.ts through package.json's exports)
tsc=$src/build/npm/node_modules/.bin/tsc
if [ -x "$tsc" ]; then
    cat >use.ts <<'TS'
import { validate, run, catalog, inspect, at, openInspector, type Report, type Options, type InspectDocument,
  type Location } from 'modelcheck-wasm';
const options: Options = { maxIssues: 3, severity: { AEM_WEIGHT_SUM: 'ignore' }, ignore: ['FILE_NO_CONTENT'] };
export async function check(bytes: Uint8Array): Promise<boolean> {
  const report: Report = await validate(bytes, { ...options, path: 'hero.aem' });
  const { text, exitCode } = await run([{ path: 'a.aem', bytes }, { path: 'b.aem', error: 'ENOENT' }], { output: 'sarif' });
  const codes = await catalog();
  return report.files[0].valid && report.files[0].issues.every((i) => i.instances.every((x) => x.offset >= 0)) &&
    exitCode === 0 && text.length > 0 && codes[0].code.length > 0;
}export async function look(bytes: Uint8Array): Promise<string> {
  const doc: InspectDocument = await inspect(bytes, { path: 'hero.e3d', format: 'e3d' });
  const l: Location | null = await at(bytes, '0xc+0x40');
  const ins = await openInspector(bytes);
  const field = ins.at(12)?.field?.name ?? '';
  ins.close();
  return doc.files[0].structure.children.map((c) => c.kind).join() + (l ? l.path : '') + field;
}
TS
    cat >bad.ts <<'TS'
import { validate } from 'modelcheck-wasm';
validate(new Uint8Array(1), { maxIssues: 'ten' });
TS
    if "$tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 use.ts >tsc.log 2>&1 &&
       ! "$tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 bad.ts >/dev/null 2>&1; then
        echo "ok   index.d.ts: a typed use compiles (tsc --strict), a mistyped option does not"
    else
        echo "FAIL: index.d.ts"; cat tsc.log; fail=1
    fi
else
    echo "note: no TypeScript in build/npm (scripts/setup-npm.sh): the types are not checked"
fi
bin=node_modules/.bin/modelcheck-wasm
[ -x "$bin" ] || { echo "FAIL: no executable $bin"; exit 1; }
# same_as_native NAME COMMAND... -- ARGS...: COMMAND ARGS against the
# native command's ARGS: standard output, standard error, exit code
same_as_native() {
    local name=$1 cmd=()
    shift
    while [ "$1" != "--" ]; do cmd+=("$1"); shift; done
    shift
    "$native" "$@" >"$tmp/n.out" 2>"$tmp/n.err"
    local n=$?
    "${cmd[@]}" "$@" >"$tmp/w.out" 2>"$tmp/w.err"
    local w=$?
    if [ "$n" = "$w" ] && cmp -s "$tmp/n.out" "$tmp/w.out" && cmp -s "$tmp/n.err" "$tmp/w.err" &&
       [ -s "$tmp/n.out" -o -s "$tmp/n.err" ]; then
        echo "ok   $name: exit $n, the native command's output"
    else
        echo "FAIL $name: exit $w (native $n), or the output differs"; diff "$tmp/n.out" "$tmp/w.out" | head -5; head -3 "$tmp/w.err"; fail=1
    fi
}
same_as_native "$bin -o json" "$bin" -- -o json "$f"
same_as_native "$bin -q, a valid folder" "$bin" -- -q "$src/corpus/nlm/valid"
same_as_native "$bin, a usage error" "$bin" -- --no-such-option x
same_as_native "$bin -o github" "$bin" -- -o github "$src/corpus/aem"
# npx as a user runs it: from the project, then with nothing installed, in an
# empty directory, straight from the tarball (offline: npm's cache is empty)
same_as_native "npx modelcheck-wasm explain" npx --offline modelcheck-wasm -- explain AEM_WEIGHT_SUM FILE_EMPTY
mkdir "$tmp/empty"
cd "$tmp/empty"
same_as_native "npx --package TARBALL modelcheck-wasm, in an empty directory" \
    npx --yes --offline --package "$tarball" modelcheck-wasm -- -o junit "$src/corpus/semodel"
[ -z "$(ls -A)" ] || { echo "FAIL: npx left files in the directory: $(ls -A)"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: npm package" || exit 1
