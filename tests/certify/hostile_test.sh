#!/usr/bin/env bash
# modelcheck certify against hostile loaders, libraries and exporters (issue
# 29): each probe with its expected verdict and exit code; none may decide
# certify's exit code, stop it, or leave a process, a file outside its case
# directory or a temporary directory behind.
# usage: hostile_test.sh MODELCHECK TOY_LIBRARY TOY_EXPORT CORPUS PYTHON
set -uo pipefail
mc=$1 toylib=$2 toyx=$3 corpus=$4 py=$5
here=$(cd "$(dirname "$0")" && pwd)
check="$py $here/certify_check.py"
tmp=$(mktemp -d)
export TMPDIR=$tmp/tmpdir # certify's temporary directories: must be empty at the end
mkdir -p "$TMPDIR"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
read -r aem_runs _ _ aem_skipped <<<"$($check expect "$corpus" aem)"
aem_ran=$((aem_runs - aem_skipped))

# certify NAME WANT_EXIT ARGS...: a JSON report in $tmp/NAME.json, within 60 s
certify() {
    local name=$1 want=$2; shift 2
    local t0=$(date +%s%N); timeout -k 5 60 "$mc" certify --json "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
    local got=$?; [ -n "${MCC_TIMES:-}" ] && echo "$name $(( ($(date +%s%N) - t0) / 1000000 )) ms"
    if [ "$got" -eq "$want" ]; then ok; else fail "$name: exit $got, expected $want"; head -5 "$tmp/$name.err"; fi
    [ -s "$tmp/$name.json" ] && ok || fail "$name: no report"
}
is() {
    local got
    got=$($check get "$tmp/$1.json" "$2" 2>&1)
    if [ "$got" = "$3" ]; then ok; else fail "$1: $2 is '$got', expected '$3'"; fi
}
has() { grep -q -- "$3" "$tmp/$1.$2" && ok || fail "$1: '$3' not in $1.$2"; }

# --- --library: loaded and called in children only, answered over a pipe ----
lib() { local mode=$1; shift; MCC_TOY_MODE=$mode certify "lib-$mode" "$@" --library "$toylib" --corpus "$corpus" --format aem; }
lib ctor_exit 1
is lib-ctor_exit total.verdicts.crash "$aem_ran"
is lib-ctor_exit cases.0.detail "crashed while loading the library: exit 0"
lib ctor_abort 1
is lib-ctor_abort total.verdicts.crash "$aem_ran"
is lib-ctor_abort cases.0.detail "crashed while loading the library: SIGABRT"
lib ctor_loop 1 --timeout 1
is lib-ctor_loop total.verdicts.crash "$aem_ran"
has lib-ctor_loop out "crashed while loading the library (still loading at the timeout: killed)"
lib atexit_exit 1 --jobs 2
is lib-atexit_exit total.verdicts.conforming "$((aem_ran - $($check get "$tmp/lib-atexit_exit.json" total.verdicts.too_strict)))"
is lib-atexit_exit total.verdicts.too_lenient 0
is lib-atexit_exit total.verdicts.crash 0
has lib-atexit_exit out "^certificate: NOT CONFORMING"
lib load_exit 1 --jobs 2
is lib-load_exit total.verdicts.crash "$aem_ran"
is lib-load_exit cases.0.detail "crashed before answering (the process ended inside mc_certify_load): exit 0"

# --- text from outside: ESC, 0xFF, U+202E, a C1 control, NUL, U+FFFF in the
# command and in its stderr; every report stays valid UTF-8 with none of them
# raw, JUnit and HTML parse
nasty=$'\e[31m\xff\u202e\xc2\x85\xef\xbf\xbf'
certify nasty 1 --corpus "$corpus" --format aem --loader "printf '$nasty%s\\0z\\n' '$nasty' >&2; exit 1 # $nasty" \
    --junit "$tmp/nasty.xml" --html "$tmp/nasty.html" --text "$tmp/nasty.txt"
for f in nasty.json nasty.xml nasty.html nasty.txt nasty.out; do
    $py - "$tmp/$f" <<'PY' && ok || fail "nasty: $f"
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8")  # raises on invalid UTF-8
bad = [c for c in t if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f
       or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069
       or (ord(c) in (0xfffe, 0xffff) and not sys.argv[1].endswith((".txt", ".out")))]  # XML forbids them
if bad:
    sys.exit(f"raw {[hex(ord(c)) for c in bad[:5]]}")
if sys.argv[1].endswith(".xml"):
    import xml.etree.ElementTree as ET
    ET.parse(sys.argv[1])
PY
done
grep -qF '\\x1B[31m\\xFF\\u202E\\xC2\\x85\\uFFFF' "$tmp/nasty.json" && ok || fail "nasty: escapes in the JSON stderr tail"
$check html "$tmp/nasty.html" >/dev/null && ok || fail "nasty: html"

# --- the grader: regular files only, bounded, its own failures not charged ---
# exp NAME WANT_EXIT SCENE 'COMMAND' [ARGS...]: one scene, exporter to AEM
exp() { local name=$1 want=$2 scene=$3 cmd=$4; shift 4; certify "$name" "$want" --exporter "$cmd" --format aem --scene "$scene" "$@"; }
exp link-passwd 1 triangle 'ln -s /etc/passwd {out}'
is link-passwd cases.0.verdict no_output
is link-passwd cases.0.detail "exit 0 but the output triangle.aem is a symbolic link, not a file (certify reads regular files only)"
grep -q 'root:' "$tmp/link-passwd.json" "$tmp/link-passwd.out" && fail "link-passwd: /etc/passwd in the report" || ok
exp link-fifo 1 triangle 'mkfifo {dir}/pipe && ln -s {dir}/pipe {out}'
is link-fifo cases.0.detail "exit 0 but the output triangle.aem is a symbolic link, not a file (certify reads regular files only)"
exp fifo 1 triangle 'mkfifo {out}'
is fifo cases.0.detail "exit 0 but the output triangle.aem is a FIFO, not a file (certify reads regular files only)"
exp decoy 1 many_vertices "$toyx --format aem --bug decoy {in} {out}"
is decoy cases.0.verdict unfaithful
is decoy cases.0.detail "unfaithful: 101 times the geometry (2206446 triangles for the scene's 21846): not built"
exp many-files 1 triangle 'for i in 1 2 3; do head -c 900 /dev/zero >{dir}/junk$i; done; '"$toyx"' --format aem {in} {out}' \
    --max-output-bytes 2000
is many-files cases.0.verdict failed
has many-files json "over the 2000-byte cap per case (--max-output-bytes)"
# a tree deeper than PATH_MAX and than the open files allowed: removed all the same
# (in memory when /dev/shm is there: removing 3000 levels costs ~10 s on a disk mounted with discard)
shm=$(mktemp -d /dev/shm/mcc-hostile-XXXXXX 2>/dev/null) || shm=$TMPDIR
TMPDIR=$shm exp deep-tree 1 triangle 'p=$(printf "d/%.0s" $(seq 500)); for i in 1 2 3 4 5 6; do mkdir -p $p && cd $p || exit 3; done; exit 1 # {out}'
is deep-tree cases.0.verdict failed
grep -q 'could not be removed' "$tmp/deep-tree.err" && fail "deep-tree: cleanup failed" || ok
[ -z "$(ls -A "$shm")" ] && ok || fail "deep-tree: left $(ls "$shm")"
[ "$shm" = "$TMPDIR" ] || rmdir "$shm"

# a case directory that cannot be entered is said so, not "command not found"
# (without the sandbox: in it, an exporter cannot touch another case's directory)
certify chdir 2 --exporter 'rm -rf {dir}/../*-cube; exit 1 # {out}' --format aem --sandbox off
is chdir cases.1.scene cube
is chdir cases.1.detail "runner error: cannot enter the case directory: No such file or directory"
certify chdir-on 1 --exporter 'rm -rf {dir}/../*-cube; exit 1 # {out}' --format aem --sandbox on
is chdir-on cases.1.verdict failed

# --- signals: a case's `kill $PPID` is ignored; the user's SIGTERM/SIGINT in
# any phase kills every case, removes the temporary directory and writes the
# partial report (exit 2)
tag="mcc-hostile-$$-$RANDOM" # our sleepers' unique name
sleeper="$tmp/sleep-$tag"
cp "$(command -v sleep)" "$sleeper"
no_process() {
    local i
    for i in $(seq 50); do pgrep -f "$tag" >/dev/null || break; sleep 0.1; done
    if pgrep -f "$tag" >/dev/null; then fail "$1: processes left: $(pgrep -af "$tag" | head -3)"; pkill -9 -f "$tag"; else ok; fi
}
certify kill-ppid 1 --corpus "$corpus" --format aem --jobs 2 --loader 'kill $PPID; kill -INT $PPID; exit 1 # {}'
is kill-ppid total.verdicts.error 0
is kill-ppid total.verdicts.too_lenient 0
exp kill-ppid-exporter 1 triangle 'kill $PPID; exit 0 # {out}'
is kill-ppid-exporter cases.0.verdict no_output
certify kill-ppid-off 1 --corpus "$corpus" --format aem --sandbox off --loader 'kill $PPID; kill -INT $PPID; exit 1 # {}'
is kill-ppid-off total.verdicts.error 0
# signal NAME SIG WANT_EXIT ARGS...: certify in the background, SIG after 1.5 s
signal() {
    local name=$1 sig=$2 want=$3; shift 3
    "$mc" certify --json "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null &
    local pid=$!
    sleep 1.5
    kill -"$sig" "$pid"
    wait "$pid"
    local got=$?
    [ "$got" -eq "$want" ] && ok || fail "$name: exit $got, expected $want"
    [ -s "$tmp/$name.json" ] && ok || fail "$name: no partial report"
    grep -q 'interrupted' "$tmp/$name.err" && ok || fail "$name: not said"
    no_process "$name"
}
signal term-loader TERM 2 --corpus "$corpus" --format aem --jobs 2 --loader "$sleeper 30 # {}"
is term-loader cases.0.detail "runner error: not run: certify was interrupted (SIGINT or SIGTERM)"
signal int-exporter INT 2 --exporter "$sleeper 30; : {out}" --format aem --jobs 2
is int-exporter cases.0.detail "runner error: not run or not graded: certify was interrupted (SIGINT or SIGTERM)"
MCC_TOY_MODE=hang_empty signal term-library TERM 2 --library "$toylib" --corpus "$corpus" --format aem --timeout 20
is term-library total.verdicts.error "$aem_ran"

# --- the sandbox (bubblewrap) and, without it, the sub-reaper ----------------
# setsid escapee: killed with its case either way (sandbox: its PID namespace;
# off: found as certify's child once its parent died), and said when off
for sb in on off; do
    "$mc" certify --sandbox "$sb" --exporter ': {out}' --format aem --scene triangle >/dev/null 2>&1 </dev/null
    if [ $? -eq 2 ]; then
        echo "note: sandbox probes skipped: bubblewrap cannot run here"; continue
    fi
    exp "setsid-$sb" 1 triangle "setsid $sleeper 30 & exit 1 # {out}" --sandbox $sb
    no_process "setsid-$sb"
    if [ $sb = off ]; then has setsid-off err "1 process(es) left their case's process group"; fi
    is "setsid-$sb" settings.sandbox "$([ $sb = on ] && echo bubblewrap || echo 'none (--sandbox off)')"
    # the corpus cannot be rewritten or deleted: read-only in the sandbox, a copy without it
    rm -rf "$tmp/corpus-copy" && cp -r "$corpus" "$tmp/corpus-copy"
    certify "rewrite-$sb" 1 --corpus "$tmp/corpus-copy" --format aem --sandbox $sb --loader 'echo x >{}; rm -f {}; exit 1 # {}'
    diff -r "$corpus" "$tmp/corpus-copy" >/dev/null && ok || fail "rewrite-$sb: the corpus changed"
    is "rewrite-$sb" total.verdicts.error 0
    [ $sb = off ] && continue
    # writes outside the case directory land nowhere
    exp "outside-$sb" 1 triangle "echo x >$HOME/$tag; echo x >/tmp/$tag; echo x >$tmp/$tag; echo x >{dir}/ok && exit 1 # {out}" --sandbox $sb
    [ ! -e "$HOME/$tag" ] && [ ! -e "/tmp/$tag" ] && [ ! -e "$tmp/$tag" ] && ok || fail "outside-$sb: a file written outside"
    has "outside-$sb" json 'Read-only file system'
    # no network: only the loopback device, down
    certify "network-$sb" 1 --corpus "$corpus" --format aem --sandbox $sb \
        --loader 'cat /proc/net/dev | tail -n +3 | grep -v "^ *lo:" | grep -q . && exit 0; exit 1 # {}'
    is "network-$sb" total.verdicts.too_lenient 0
done

[ -z "$(ls -A "$TMPDIR")" ] && ok || fail "temporary files left: $(ls "$TMPDIR" | head -3)"
echo "hostile: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
