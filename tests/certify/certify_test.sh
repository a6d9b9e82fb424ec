#!/usr/bin/env bash
# modelcheck certify against deliberately broken toy loaders: exact verdict
# counts, process clean-up, bounded memory, reproducible reports, schema.
# usage: certify_test.sh MODELCHECK TOY_LOADER TOY_LIBRARY TOY_NOSYM CORPUS SCHEMA PYTHON SANITIZED
set -uo pipefail
mc=$1 toy=$2 toylib=$3 nosym=$4 corpus=$5 schema=$6 py=$7 sanitized=$8
here=$(cd "$(dirname "$0")" && pwd)
check="$py $here/certify_check.py"
tmp=$(mktemp -d)
tag="mcc-test-$$-$RANDOM"
cleanup() {
    [ -s "$tmp/escaped.pid" ] && kill -9 "$(cat "$tmp/escaped.pid")" 2>/dev/null
    for pid in $(pgrep -f "toy_loader sleeper $tag"); do kill -9 "$pid"; done 2>/dev/null # ours: unique tag
    rm -rf "$tmp"
}
trap cleanup EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# certify NAME WANT_EXIT ARGS...: runs certify with a JSON report in $tmp/NAME.json
certify() {
    local name=$1 want=$2; shift 2
    export MCC_ODD="${odd:-}"
    "$mc" certify --corpus "$corpus" --json "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else fail "$name: exit $got, expected $want"; head -5 "$tmp/$name.err"; fi
}
# is NAME JSONPATH VALUE: a value of $tmp/NAME.json
is() {
    local got
    got=$($check get "$tmp/$1.json" "$2" 2>&1)
    if [ "$got" = "$3" ]; then ok; else fail "$1: $2 is '$got', expected '$3'"; fi
}
no_process() { # no_process NAME PATTERN: none left, allowing 5 s for killed ones to be reaped on a loaded machine
    local i
    for i in $(seq 50); do pgrep -f "$2" >/dev/null || break; sleep 0.1; done
    if pgrep -f "$2" >/dev/null; then fail "$1: processes left behind: $(pgrep -af "$2" | head -3)"; else ok; fi
}

read -r runs valid invalid skipped <<<"$($check expect "$corpus")"
read -r aem_runs aem_valid aem_invalid aem_skipped <<<"$($check expect "$corpus" aem)"
read -r nlm_runs _ _ _ <<<"$($check expect "$corpus" nlm)"
read -r e3d_runs _ _ _ <<<"$($check expect "$corpus" e3d)"
echo "corpus: $runs runs ($valid valid, $invalid invalid, $skipped skipped); aem $aem_runs"
oracle="$toy oracle $corpus {}"

# --- usage and start-up errors: exit 2 --------------------------------------
certify usage-none 2
certify usage-two 2 --reference --loader "$oracle"
certify usage-format 2 --reference --format obj
certify usage-timeout 2 --reference --timeout 0
certify usage-jobs 2 --reference --jobs 65
certify usage-output 2 --reference --output pdf
"$mc" certify --help >"$tmp/help" && grep -q -- '--library LIB.so' "$tmp/help" && grep -q '^Exit codes' "$tmp/help" && ok || fail "certify --help"
"$mc" --help | grep -q 'modelcheck certify' && ok || fail "modelcheck --help names certify"
certify bad-corpus 2 --reference --corpus "$tmp/nowhere"
certify no-library 2 --library "$tmp/missing.so"
grep -q 'cannot load' "$tmp/no-library.err" && ok || fail "no-library message"
certify no-symbol 2 --library "$nosym"
grep -q 'does not export mc_certify_load' "$tmp/no-symbol.err" && ok || fail "no-symbol message"
certify not-found 2 --loader "$tmp/no-such-loader {}" --format aem --keep-going
is not-found total.verdicts.error "$((aem_runs - aem_skipped))"
# without --keep-going the first 5 cases failing alike, unread, stop the run: one message, exit 2,
# and the report all the same, the cases not run said so
"$mc" certify --loader "$tmp/no-such-loader {}" --format aem --corpus "$corpus" --json "$tmp/stop.json" >"$tmp/stop.out" 2>"$tmp/stop.err"
[ $? = 2 ] && [ "$(wc -l <"$tmp/stop.err")" = 1 ] && grep -q "^certificate: NOT CONFORMING" "$tmp/stop.out" &&
    grep -q "stopped after the first 5 cases, which all ended the same way without reading their input (exited 127: " "$tmp/stop.err" &&
    grep -q "the other $((aem_runs - 5)) cases were not run (--keep-going runs them anyway) (the report is partial)" "$tmp/stop.err" && ok || fail "sanity stop: $(cat "$tmp/stop.err")"
is stop total.verdicts.error "$((aem_runs - aem_skipped))"
grep -q '"runner error: not run: certify stopped early: the first cases all failed the same way' "$tmp/stop.json" && ok || fail "sanity stop: the cases not run are not said so in the report"

# --- a perfect loader: 100% -------------------------------------------------
certify oracle 0 --loader "$oracle" --jobs 2
is oracle total.runs "$runs"
is oracle total.verdicts.conforming "$((runs - skipped))"
is oracle total.verdicts.skipped "$skipped"
is oracle total.score 100
is oracle total.conforming true
grep -q '^certificate: CONFORMING (5 of 5 formats' "$tmp/oracle.out" && ok || fail "oracle text certificate"

# --- accept_all: too lenient on exactly the invalid files -------------------
# (accept-all never reads its file: --keep-going, else the sanity stop ends it after 5 cases)
certify accept 1 --loader "$toy accept {}" --keep-going --jobs 2 --junit "$tmp/accept.xml" --html "$tmp/accept.html"
is accept total.verdicts.too_lenient "$invalid"
is accept total.verdicts.conforming "$valid"
is accept total.verdicts.crash 0
$check lenient "$tmp/accept.json" && ok || fail "accept: missed codes"
[ "$(grep -c '^too_lenient ' "$tmp/accept.out")" -eq "$invalid" ] && ok || fail "accept: text lines"
read -r jt jf je js <<<"$($check junit "$tmp/accept.xml")"
[ "$jt $jf $je $js" = "$runs $invalid 0 $skipped" ] && ok || fail "accept junit: $jt $jf $je $js"
[ "$($check html "$tmp/accept.html")" = "$invalid" ] && ok || fail "accept html failing cases"

# --- crash, abort, fake sanitizer report, crash behind a shell --------------
certify crash 1 --loader "$toy crash zero_counts.aem $corpus {}" --format aem --junit "$tmp/crash.xml" --html "$tmp/crash.html"
is crash total.verdicts.crash 1
is crash total.verdicts.conforming "$((aem_runs - aem_skipped - 1))"
grep -q '^crash .*zero_counts.aem \[aem\]: crashed: SIGSEGV' "$tmp/crash.out" && ok || fail "crash text line"
grep -qF 'about to crash &lt;b&gt;&amp;amp;' "$tmp/crash.html" && ok || fail "crash: stderr tail HTML-escaped"
grep -qF 'about to crash &lt;b&gt;&amp;amp;' "$tmp/crash.xml" && ok || fail "crash: stderr tail XML-escaped"
$check junit "$tmp/crash.xml" >/dev/null && $check html "$tmp/crash.html" >/dev/null && ok || fail "crash: junit/html well-formed"
grep -qF '\\xFF\\xC3(\\x01\\x1B[31m' "$tmp/crash.json" && ok || fail "crash: invalid UTF-8 and controls in the tail become \\xHH"
certify abort 1 --loader "$toy abort weights_sum_0_93.aem $corpus {}" --format aem
is abort total.verdicts.crash 1
grep -q 'weights_sum_0_93.aem \[aem\]: crashed: SIGABRT' "$tmp/abort.out" && ok || fail "abort text line"
certify shell-crash 1 --loader "$toy crash zero_counts.aem $corpus {}; exit \$?" --format aem
is shell-crash total.verdicts.crash 1
certify sanitizer 1 --loader "$toy sanitizer skinned_animated.aem $corpus {}" --format aem
is sanitizer total.verdicts.crash 1
grep -q 'skinned_animated.aem \[aem\]: crashed: sanitizer report (ERROR: AddressSanitizer), exit 0' "$tmp/sanitizer.out" \
    && ok || fail "sanitizer marker split over two writes"

# --- hang: exactly one, killed at the deadline -----------------------------
start=$SECONDS
certify hang 1 --loader "$toy hang cube1_spec.e3d $corpus {}" --format e3d --timeout 3
is hang total.verdicts.hang 1
is hang total.verdicts.conforming "$((e3d_runs - 1 - $($check get "$tmp/hang.json" total.verdicts.skipped)))"
[ $((SECONDS - start)) -lt 60 ] && ok || fail "hang took $((SECONDS - start)) s"
no_process hang "toy_loader hang cube1_spec.e3d $corpus"

# --- children left behind are killed with their group ----------------------
certify fork 0 --loader "$toy fork $tag $corpus {}" --format aem --jobs 3
is fork total.verdicts.conforming "$((aem_runs - aem_skipped))"
no_process fork "toy_loader sleeper $tag"
# a grandchild that leaves the group keeps the pipes open: the runner must not wait for it
# (without the sandbox, where it can leave: in it, its PID namespace dies with the case)
start=$SECONDS
certify escape 0 --sandbox off --loader "$toy escape two_meshes_no_texture.nlm $tmp/escaped.pid $corpus {}" --format nlm
[ $((SECONDS - start)) -lt 25 ] && ok || fail "escape: the runner waited $((SECONDS - start)) s for a grandchild"
[ -s "$tmp/escaped.pid" ] && ok || fail "escape: the grandchild did not start"

# --- megabytes of output: counted, not kept --------------------------------
rss() { # rss NAME ARGS...: the runner's peak RSS in KiB (its loaders' too; they are small)
    local name=$1; shift
    /usr/bin/time -f %M -o "$tmp/$name.rss" "$mc" certify --corpus "$corpus" --json "$tmp/$name.json" "$@" \
        >/dev/null 2>"$tmp/$name.err"
    cat "$tmp/$name.rss"
}
quiet_rss=$(rss quiet --loader "$oracle" --format nlm)
noisy_rss=$(rss noisy --loader "$toy noisy static_textured_png.nlm $corpus {}" --format nlm)
is noisy total.verdicts.conforming "$($check get "$tmp/quiet.json" total.verdicts.conforming)"
is noisy cases.0.stdout_bytes 0
n=$($py -c "import json,sys; d=json.load(open('$tmp/noisy.json')); print([c['stdout_bytes'] for c in d['cases'] if c['file'].endswith('/static_textured_png.nlm')][0])")
[ "$n" = 52428800 ] && ok || fail "noisy: stdout bytes $n"
[ "$noisy_rss" -lt $((quiet_rss + 16384)) ] && ok || fail "noisy: peak RSS $noisy_rss KiB vs $quiet_rss KiB"
echo "peak RSS: quiet $quiet_rss KiB, noisy (100 MB of output) $noisy_rss KiB"

# --- stdin mode: no {} in the command ---------------------------------------
certify stdin 1 --loader "$toy stdin" --format aem
empties=$($py -c "import json; print(sum(1 for c in json.load(open('$corpus/manifest.json'))['cases'] if c['file'] == 'any/invalid/empty.bin'))")
is stdin total.verdicts.conforming "$((aem_valid + empties))"

# --- {format}, and {} quoted for the shell ----------------------------------
certify format-sub 1 --loader "test {format} = aem" --format aem --keep-going # unread: else stopped
is format-sub total.verdicts.conforming "$aem_valid"
is format-sub total.verdicts.too_lenient "$aem_invalid"
odd="$tmp/it's a \$corpus; \"here\""
cp -r "$corpus" "$odd"
certify odd-path 0 --corpus "$odd" --loader "$toy oracle \"\$MCC_ODD\" {}" --format aem
is odd-path total.verdicts.conforming "$((aem_runs - aem_skipped))"

# --- SIGINT: the runner stops and takes its loaders with it ------------------
"$mc" certify --corpus "$corpus" --loader "$toy hang zero_counts.aem $corpus {}" --format aem \
    >/dev/null 2>"$tmp/int.err" &
runner=$!
sleep 2
kill -INT "$runner"
wait "$runner"
[ $? -eq 2 ] && grep -q interrupted "$tmp/int.err" && ok || fail "SIGINT: exit and message"
no_process sigint "toy_loader hang zero_counts.aem $corpus"

# --- --library: the ABI in a forked child -----------------------------------
# (one format: each in-process child runs LeakSanitizer at exit under ASan)
certify lib-accept 1 --library "$toylib" --format aem --jobs 2
is lib-accept total.verdicts.too_lenient "$aem_invalid"
is lib-accept total.verdicts.conforming "$aem_valid"
MCC_TOY_MODE=crash_empty certify lib-crash 1 --library "$toylib" --format aem --jobs 2
is lib-crash total.verdicts.crash 1
MCC_TOY_MODE=hang_empty certify lib-hang 1 --library "$toylib" --format aem --jobs 2 --timeout 3
is lib-hang total.verdicts.hang 1
if [ "$sanitized" = 1 ] || [ "$sanitized" = ON ] || [ "$sanitized" = TRUE ]; then
    # unsymbolized leak reports: the marker is what counts, and it is 10x faster
    MCC_TOY_MODE=leak ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}symbolize=0" \
        certify lib-leak 1 --library "$toylib" --format aem --jobs 2
    is lib-leak total.verdicts.leak "$((aem_runs - aem_skipped))"
    is lib-leak total.verdicts.crash 0
    grep -q 'ERROR: LeakSanitizer' "$tmp/lib-leak.json" && ok || fail "lib-leak: LeakSanitizer tail"
fi

# --- reproducible reports: --jobs 1 and --jobs 4 give the same bytes --------
for j in 1 4; do
    "$mc" certify --corpus "$corpus" --loader "$toy crash zero_counts.aem $corpus {}" --jobs $j \
        --report "$tmp/j$j.txt" --json "$tmp/j$j.json" --junit "$tmp/j$j.xml" --html "$tmp/j$j.html" 2>/dev/null
done
for ext in txt json xml html; do
    cmp -s "$tmp/j1.$ext" "$tmp/j4.$ext" && ok || fail "--jobs 1 and --jobs 4 differ in the $ext report"
done
certify timings 1 --loader "$toy crash zero_counts.aem $corpus {}" --format aem --timings --timestamp
grep -q '"duration_ms"' "$tmp/timings.json" && grep -q '"generated_at"' "$tmp/timings.json" && ok || fail "--timings/--timestamp"
grep -q '"duration_ms"\|"generated_at"' "$tmp/j1.json" && fail "durations or time in a default report" || ok

# --- every JSON certificate matches the schema -------------------------------
$check schema "$schema" "$tmp"/*.json && ok || fail "schema"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
