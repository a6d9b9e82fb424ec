#!/usr/bin/env bash
# The npm package's bin is the native command (issue 36): cli/ compiled for
# Node (web/CMakeLists.txt, modelcheck_node_cli). Each case runs the native
# `modelcheck` of this build and `node modelcheck-wasm.js` with the same
# arguments in the same directory, and asserts the same standard output,
# standard error and exit code, byte for byte: every output kind over the
# whole corpus and over the files outside it (fuzz/external), the view
# options, explain of every code, the catalog, inspect, configuration files
# found and named, baselines written and read, standard input, and the
# refusals (missing files, devices, FIFOs: under a timeout, so that a hang
# fails). Nothing here names an expected output: what native prints is the
# expectation, so the cases keep holding as the command changes.
# SKIP without emscripten or node.
# Usage: wasm_cli_test.sh NATIVE_MODELCHECK SOURCE_DIR
set -uo pipefail
native=$(realpath "$1") src=$(realpath "$2")
. "$(dirname "$0")/wasm_build.sh"
wasm_build "$src"
bin=$MC_WASM_DIR/package/bin/modelcheck-wasm.js
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 cases=0

# compare NAME ARGS...: both commands in the current directory, standard
# input from $stdin (default /dev/null), at most 120 s each (124: a hang).
stdin=/dev/null
compare() {
    local name=$1
    shift
    cases=$((cases + 1))
    timeout 120 "$native" "$@" <"$stdin" >"$tmp/n.out" 2>"$tmp/n.err"
    local n=$?
    timeout 120 node "$bin" "$@" <"$stdin" >"$tmp/w.out" 2>"$tmp/w.err"
    local w=$?
    # explain names the documents where each command has them installed
    # (the build tree's share/doc, the package's): the same below docs/
    sed -i 's#^\( *Document: *\)/.*/docs/#\1<docs>/#' "$tmp/n.out" "$tmp/w.out"
    if [ "$n" = 124 ] || [ "$w" = 124 ]; then
        echo "FAIL $name: a hang (native exit $n, npm bin exit $w)"
        fail=1
    elif [ "$n" != "$w" ]; then
        echo "FAIL $name: exit $w, native $n"
        head -3 "$tmp/w.err"
        fail=1
    elif ! cmp -s "$tmp/n.out" "$tmp/w.out"; then
        echo "FAIL $name: standard output differs"
        diff "$tmp/n.out" "$tmp/w.out" | head -10
        fail=1
    elif ! cmp -s "$tmp/n.err" "$tmp/w.err"; then
        echo "FAIL $name: standard error differs"
        diff "$tmp/n.err" "$tmp/w.err" | head -10
        fail=1
    else
        echo "ok   $name (exit $n, $(wc -c <"$tmp/n.out") + $(wc -c <"$tmp/n.err") bytes)"
    fi
}

cd "$src"
[ "$(find corpus -type f ! -name '*.json' | wc -l)" -gt 400 ] || { echo "FAIL: the corpus is missing"; exit 1; }
# files from outside the corpus: what fuzzing the real loaders found,
# checked in under fuzz/external (crashes and hangs of real readers)
real=(fuzz/external)

for out in text json sarif sarif-github github junit; do
    compare "corpus -o $out" --no-config -o "$out" corpus
    compare "files outside the corpus -o $out" --no-config -o "$out" "${real[@]}"
done
compare "--list-codes" --list-codes
compare "--list-codes -o json" --list-codes -o json
compare "--list-codes -o markdown" --list-codes -o markdown
compare "--help" --help
compare "--version" --version

# the view and the options, in the outputs they touch
for out in text github junit; do
    compare "--min-severity warning -o $out" --no-config --min-severity warning -o "$out" corpus/aem corpus/nlm
    compare "--min-severity error -W -o $out" --no-config --min-severity error -W -o "$out" corpus/semodel
done
compare "--concise" --no-config --concise corpus
compare "--concise --min-severity info -q" --no-config --concise --min-severity info -q corpus/e3d corpus/aamf
compare "--show-bytes" --no-config --show-bytes corpus/aem/invalid corpus/e3d/invalid
compare "--color always" --no-config --color always corpus/nlm
compare "-W -o sarif" --no-config -W -o sarif corpus/aem/valid
compare "options" --no-config -o json -n 2 --severity AEM_WEIGHT_SUM=warning -i FILE_NO_CONTENT \
    --unit-tolerance 0 --weight-tolerance 1e-3 --quaternion-tolerance 0.5 corpus/aem corpus/semodel
compare "-f e3d --max-file-bytes --no-sha256" --no-config -o json -f e3d --max-file-bytes 4096 --no-sha256 corpus/e3d
compare "--skip-unrecognized on named files" --no-config --skip-unrecognized corpus/any/invalid/* README.md
compare "-j 1 and -j 4" --no-config -j 4 -o json corpus/aamf
compare "named files, one missing" --no-config -o json corpus/nlm/valid corpus/does-not-exist.aem corpus/any

# explain: every code of the catalog in one run, then the refusals
mapfile -t codes < <("$native" --list-codes -o json | node -e \
    'for (const c of JSON.parse(require("fs").readFileSync(0))) console.log(c.code)')
[ "${#codes[@]}" -gt 100 ] || { echo "FAIL: only ${#codes[@]} codes in the catalog"; fail=1; }
compare "explain, all ${#codes[@]} codes" explain "${codes[@]}"
compare "--list-codes CODE -o json" --list-codes -o json "${codes[0]}" "${codes[-1]}"
compare "explain lower case" explain "$(printf '%s' "${codes[0]}" | tr 'A-Z' 'a-z')"
compare "explain an unknown code" explain NO_SUCH_CODE
compare "explain, no code" explain
compare "explain --help" explain --help

# fix (issue 35): what it would change, every edit, in each report kind;
# nothing written (--dry-run)
fixable=(corpus/aamf/invalid/samf_writer_weight_sum_254.aamf corpus/aamf/valid/samf_normal_pad_nonzero.aamf)
compare "fix --dry-run --diff" fix --dry-run --diff --unsafe-fixes "${fixable[@]}"
compare "fix --dry-run -o json" fix --dry-run --output-format json --unsafe-fixes "${fixable[@]}"
compare "fix --dry-run sarif" fix --dry-run --output-format sarif "${fixable[@]}"
compare "fix --help" fix --help

# inspect: every corpus file, text and JSON, and --at
mapfile -t all < <(find corpus -type f ! -name '*.json' | LC_ALL=C sort)
compare "inspect, every corpus file" inspect "${all[@]}"
compare "inspect -o json, every corpus file" inspect -o json "${all[@]}"
e3d=corpus/e3d/valid/skinned_lzma.e3d
compare "inspect --at" inspect --at 0 --at 0x28 --at 0xc+0 --at lzma@0xc+0x40 --at 99999999 "$e3d"
compare "inspect --at refused" inspect --at 0xnope "$e3d"
compare "inspect --help" inspect --help
compare "inspect, no FILE" inspect -o json
compare "inspect --extract-block, no -O" inspect --extract-block 0xc "$e3d"

# standard input
stdin=corpus/aem/invalid/animation_duration_zero.aem
compare "- (standard input), text" --no-config -
compare "- (standard input), json" --no-config -o json -
compare "inspect -" inspect -
stdin=/dev/null
compare "- (empty standard input)" --no-config -

# a repository with configuration files: discovered (nested, excluded,
# overrides), named (--config), shown (--show-config) and refused
repo=$tmp/repo
mkdir -p "$repo/.git" "$repo/assets/legacy" "$repo/assets/third_party" "$repo/other"
cp corpus/aem/invalid/*.aem "$repo/assets/legacy/"
cp corpus/nlm/invalid/*.nlm "$repo/assets/third_party/"
cp corpus/semodel/invalid/*.semodel "$repo/other/"
cat >"$repo/.modelcheck.json" <<'JSON'
{
  "severity": {"AEM_WEIGHT_SUM": "info"},
  "max_issues": 3,
  "exclude": ["third_party/**"],
  "overrides": [{"files": "legacy/**/*.aem", "ignore": ["AEM_MATERIAL_TEXTURE_MINUS_ONE"]}]
}
JSON
printf '{"max_issues": 1}\n' >"$repo/other/.modelcheck.json"
printf '{"max_issues": "ten", "nope": 1}\n' >"$tmp/bad.json"
cd "$repo"
compare "config discovered" .
compare "config discovered -o json" -o json assets other
compare "config discovered -o sarif" -o sarif assets
compare "config from a subdirectory" other
compare "--config FILE" --config other/.modelcheck.json -o json assets
compare "--show-config" --show-config assets/legacy/"$(ls assets/legacy | head -1)"
compare "a bad --config" --config "$tmp/bad.json" assets
compare "--no-config over --config" --config "$tmp/bad.json" --no-config -o junit assets

# baselines: written (the files compared too), then read
compare "--write-baseline" -o json --write-baseline "$tmp/base.json" assets other
# and what each writes
"$native" --write-baseline "$tmp/base.n.json" assets other >/dev/null 2>&1
node "$bin" --write-baseline "$tmp/base.w.json" assets other >/dev/null 2>&1
if cmp -s "$tmp/base.n.json" "$tmp/base.w.json"; then echo "ok   the baselines written are the same bytes"
else echo "FAIL: the baselines written differ"; fail=1; fi
cp "$src"/corpus/aem/invalid/animation_duration_zero.aem assets/new.aem
for out in text json sarif github junit; do
    compare "--baseline -o $out" --baseline "$tmp/base.n.json" -o "$out" assets other
done
compare "--baseline missing" --baseline "$tmp/no-such-baseline.json" assets
compare "--baseline not JSON" --baseline "$src/README.md" assets
compare "--write-baseline over an input" --write-baseline assets/new.aem assets/new.aem
# a pipe is read once: each command gets its own
"$native" --baseline <(cat "$tmp/base.n.json") -o json assets >"$tmp/n.out" 2>&1
n=$?
node "$bin" --baseline <(cat "$tmp/base.n.json") -o json assets >"$tmp/w.out" 2>&1
w=$?
if [ "$n" = "$w" ] && cmp -s "$tmp/n.out" "$tmp/w.out"; then echo "ok   --baseline through a pipe (exit $n)"
else echo "FAIL --baseline through a pipe: exit $w, native $n"; diff "$tmp/n.out" "$tmp/w.out" | head -5; fail=1; fi

# refusals: devices and FIFOs, named and walked, each under the timeout
# (a FIFO named as the configuration or the baseline is read, as natively:
# a pipe is how a shell passes one, <(...))
mkfifo "$tmp/fifo" "$repo/assets/pipe.aem"
cd "$src"
compare "a missing file" --no-config corpus/nope.aem
compare "/dev/zero" --no-config /dev/zero
compare "/dev/null -o json" --no-config -o json /dev/null
compare "a FIFO" --no-config "$tmp/fifo"
compare "a FIFO in a walked directory" --no-config -o json "$repo/assets"
compare "inspect /dev/zero" inspect /dev/zero
compare "inspect a FIFO" inspect "$tmp/fifo"
compare "inspect -o json /dev/zero" inspect -o json /dev/zero
compare "--config /dev/zero" --config /dev/zero corpus/nlm
compare "--baseline /dev/null" --no-config --baseline /dev/null corpus/nlm

# usage errors
for args in "-n 1.5" "-n 1000001" "--severity NO_SUCH_CODE=error" "--severity AEM_WEIGHT_SUM=fatal" \
            "-i NO_SUCH_CODE" "--unit-tolerance -1" "--max-file-bytes 0" "-o nope" "-f nope" "--nope" \
            "-Zq" "--output=json -Zq" "--output" "--werror=yes" "--min-severity ignore" "--color sometimes" \
            "-j 0"; do
    # shellcheck disable=SC2086
    compare "usage error $args" --no-config $args corpus/any
done
compare "usage error: no PATH" --no-config

# a report that cannot be written: exit 4 and its line
n=$("$native" --no-config -o json corpus/nlm 2>"$tmp/n.full" >/dev/full; echo $?)
w=$(node "$bin" --no-config -o json corpus/nlm 2>"$tmp/w.full" >/dev/full; echo $?)
if [ "$n" = "$w" ] && cmp -s "$tmp/n.full" "$tmp/w.full"; then echo "ok   a full disk: exit $n, the same line"
else echo "FAIL a full disk: exit $w, native $n"; cat "$tmp/w.full"; fail=1; fi

# what needs the native build says so, in one line, with exit 2
for sub in certify fuzz; do
    node "$bin" "$sub" --reference >"$tmp/w.out" 2>"$tmp/w.err"
    rc=$?
    if [ "$rc" = 2 ] && [ ! -s "$tmp/w.out" ] && [ "$(wc -l <"$tmp/w.err")" = 1 ] &&
       grep -q "^modelcheck $sub: needs the native build" "$tmp/w.err"; then
        echo "ok   $sub: exit 2, $(cat "$tmp/w.err")"
    else
        echo "FAIL $sub: exit $rc, $(cat "$tmp/w.err")"
        fail=1
    fi
done

[ $fail -eq 0 ] && echo "PASS: $cases cases, the npm bin = the native command" || exit 1
