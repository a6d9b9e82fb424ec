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
cleanup() { rm -rf "$tmp" ${peek_dir:+"$peek_dir"} ${peek_py:+"$peek_py"}; }
trap cleanup EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
read -r aem_runs _ _ aem_skipped <<<"$($check expect "$corpus" aem)"
tag="mcc-hostile-$$-$RANDOM" # unique name of our sleepers, libraries and stray files
# no_process NAME: nothing named with our tag still runs (after 5 s at most)
no_process() {
    local i
    for i in $(seq 50); do pgrep -f "$tag" >/dev/null || break; sleep 0.1; done
    if pgrep -f "$tag" >/dev/null; then fail "$1: processes left: $(pgrep -af "$tag" | head -3)"; pkill -9 -f "$tag"; else ok; fi
}
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

# --- --library: loaded and called in children only, answered over a pipe;
# with the sandbox on, each child is modelcheck re-executed in bubblewrap.
# A small corpus (3 valid, 3 invalid AEM files and the empty file) keeps it short.
mini=$tmp/mini
$py - "$corpus" "$mini" <<'PY'
import json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(src, "manifest.json")))
aem = [c for c in m["cases"] if c["format"] == "aem" and not c.get("skip")]
pick = [c for c in aem if c["valid"]][:3] + [c for c in aem if not c["valid"]][:3]
pick += [c for c in m["cases"] if c["file"] == "any/invalid/empty.bin"]
for c in pick:
    os.makedirs(os.path.dirname(os.path.join(dst, c["file"])), exist_ok=True)
    shutil.copyfile(os.path.join(src, c["file"]), os.path.join(dst, c["file"]))
m["cases"] = pick
json.dump(m, open(os.path.join(dst, "manifest.json"), "w"))
PY
read -r mini_runs mini_valid mini_invalid mini_skipped <<<"$($check expect "$mini" aem)"
mini_ran=$((mini_runs - mini_skipped))
# does this machine route to the network (what a library sees without the sandbox)?
$py -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).connect(("192.0.2.1", 9))' 2>/dev/null && net=1 || net=0
"$mc" certify --sandbox on --library "$toylib" --corpus "$mini" --format aem >/dev/null 2>&1 </dev/null
[ $? -eq 2 ] && { echo "note: library sandbox probes skipped: bubblewrap cannot run here"; modes=off; } || modes="on off"
cp "$toylib" "$tmp/lib-$tag.so" && toylib=$tmp/lib-$tag.so # every child's command line names it
lib() { local mode=$1 sb=$2; shift 2; MCC_TOY_MODE=$mode certify "lib-$mode-$sb" "$@" --sandbox "$sb" --library "$toylib" --corpus "$mini" --format aem; }
for sb in $modes; do
    lib accept $sb 1
    is lib-accept-$sb total.verdicts.too_lenient "$mini_invalid"
    is lib-accept-$sb settings.sandbox "$([ $sb = on ] && echo bubblewrap || echo 'none (--sandbox off)')"
    lib ctor_exit $sb 1
    is lib-ctor_exit-$sb total.verdicts.crash "$mini_ran"
    is lib-ctor_exit-$sb cases.0.detail "crashed while loading the library: exit 0"
    lib ctor_abort $sb 1
    is lib-ctor_abort-$sb total.verdicts.crash "$mini_ran"
    is lib-ctor_abort-$sb cases.0.detail "crashed while loading the library: SIGABRT"
    lib ctor_loop $sb 1 --timeout 1
    is lib-ctor_loop-$sb total.verdicts.crash "$mini_ran"
    has lib-ctor_loop-$sb out "crashed while loading the library (still loading at the timeout: killed)"
    # a forged answer from a constructor is the case's failure, never a runner error
    lib ctor_forge $sb 1
    is lib-ctor_forge-$sb total.verdicts.crash "$mini_ran"
    is lib-ctor_forge-$sb total.verdicts.error 0
    lib ctor_forge_error $sb 1
    is lib-ctor_forge_error-$sb total.verdicts.crash "$mini_ran"
    is lib-ctor_forge_error-$sb total.verdicts.error 0
    lib ctor_forge_on $sb 1
    is lib-ctor_forge_on-$sb total.verdicts.crash "$mini_ran"
    is lib-ctor_forge_on-$sb total.verdicts.error 0
    lib atexit_exit $sb 1 --jobs 2
    is lib-atexit_exit-$sb total.verdicts.conforming "$mini_invalid"
    is lib-atexit_exit-$sb total.verdicts.too_strict "$mini_valid"
    is lib-atexit_exit-$sb total.verdicts.crash 0
    has lib-atexit_exit-$sb out "^certificate: NOT CONFORMING"
    lib load_exit $sb 1 --jobs 2
    is lib-load_exit-$sb total.verdicts.crash "$mini_ran"
    is lib-load_exit-$sb cases.0.detail "crashed before answering (the process ended inside mc_certify_load): exit 0"
    lib load_abort $sb 1 --jobs 2
    is lib-load_abort-$sb total.verdicts.crash "$mini_ran"
    has lib-load_abort-$sb json '"crashed: SIGABRT'
    MCC_TOY_MODE=hang_empty certify "lib-hang_empty-$sb" 1 --sandbox $sb --library "$toylib" --corpus "$mini" --format aem --timeout 1
    is lib-hang_empty-$sb total.verdicts.hang 1
    # kill $PPID from the entry point: certify is not stopped (in the sandbox the
    # parent is bubblewrap's; without it, a signal from a case is ignored)
    lib kill_ppid $sb 1 --jobs 2
    is lib-kill_ppid-$sb total.verdicts.error 0
    is lib-kill_ppid-$sb total.verdicts.too_strict "$mini_valid"
    # writes outside: $HOME, /tmp and the test's own directory
    MCC_TOY_PATHS="$HOME/$tag:/tmp/$tag:$tmp/$tag" lib write_outside $sb 1
    if [ $sb = on ]; then
        is lib-write_outside-on total.verdicts.too_strict "$mini_valid"
        has lib-write_outside-on json "Read-only file system"
        [ ! -e "$HOME/$tag" ] && [ ! -e "/tmp/$tag" ] && [ ! -e "$tmp/$tag" ] && ok || fail "lib-write_outside-on: a file written outside"
    else # not isolated: documented, and cleaned up here
        is lib-write_outside-off total.verdicts.too_lenient "$mini_invalid"
        [ -e "$HOME/$tag" ] && ok || fail "lib-write_outside-off: the write did not happen (the probe is broken)"
    fi
    rm -f "$HOME/$tag" "/tmp/$tag" "$tmp/$tag"
    lib network $sb 1
    if [ $sb = on ] || [ $net = 0 ]; then
        is lib-network-$sb total.verdicts.too_lenient 0
        has lib-network-$sb json "no network: "
    else
        is lib-network-$sb total.verdicts.too_lenient "$mini_invalid"
    fi
    # what the sandbox blocked is said, per case (its namespace's counters);
    # without it nothing is claimed
    attempts=$(grep -o 'tried the network (1 attempt blocked)"' "$tmp/lib-network-$sb.json" | wc -l)
    [ "$attempts" -eq "$([ $sb = on ] && echo "$mini_ran" || echo 0)" ] && ok || fail "lib-network-$sb: $attempts cases say they tried the network"
    no_process "lib-$sb"
done

if [ "$modes" = "on off" ]; then
    # a library kept under /var/tmp (the sandbox's private one), named bare from
    # there: seen read-only in the sandbox, loaded as without it
    vt=$(mktemp -d /var/tmp/mcc-hostile-XXXXXX)
    cp "$toylib" "$vt/libtoy.so"
    cd "$vt" && certify lib-vartmp 1 --sandbox on --library libtoy.so --corpus "$mini" --format aem
    cd "$OLDPWD" || exit 1
    is lib-vartmp total.verdicts.too_lenient "$mini_invalid"
    rm -rf "$vt"
    # bubblewrap failing to start the child is a runner error (exit 2), not the library's crash
    mkdir -p "$tmp/fakebin"
    printf '#!/bin/sh\nfor a; do last=$a; done\n[ "$last" = ":" ] && exit 0\necho "bwrap: fake failure" >&2; exit 1\n' >"$tmp/fakebin/bwrap"
    chmod +x "$tmp/fakebin/bwrap"
    PATH=$tmp/fakebin:$PATH "$mc" certify --sandbox on --library "$toylib" --corpus "$mini" --format aem >/dev/null 2>"$tmp/lib-fakebwrap.err" </dev/null
    [ $? -eq 2 ] && ok || fail "lib-fakebwrap: not exit 2"
    has lib-fakebwrap err "the sandbox could not start the library's child: bwrap: fake failure"
fi

# --- text from outside: ESC, 0xFF, U+202E, a C1 control, NUL, U+FFFF in the
# command and in its stderr; every report stays valid UTF-8 with none of them
# raw, JUnit and HTML parse
nasty=$'\e[31m\xff\u202e\xc2\x85\xef\xbf\xbf'
certify nasty 1 --keep-going --corpus "$corpus" --format aem --loader "printf '$nasty%s\\0z\\n' '$nasty' >&2; exit 1 # $nasty" \
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
sleeper="$tmp/sleep-$tag"
cp "$(command -v sleep)" "$sleeper"
certify kill-ppid 1 --keep-going --corpus "$corpus" --format aem --jobs 2 --loader 'kill $PPID; kill -INT $PPID; exit 1 # {}'
is kill-ppid total.verdicts.error 0
is kill-ppid total.verdicts.too_lenient 0
exp kill-ppid-exporter 1 triangle 'kill $PPID; exit 0 # {out}'
is kill-ppid-exporter cases.0.verdict no_output
certify kill-ppid-off 1 --keep-going --corpus "$corpus" --format aem --sandbox off --loader 'kill $PPID; kill -INT $PPID; exit 1 # {}'
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
    # the count is of processes, not of cases: three escapees from one case
    if [ $sb = off ]; then
        exp "setsid3-$sb" 1 triangle "for i in 1 2 3; do setsid $sleeper 30 & done; exit 1 # {out}" --sandbox $sb
        no_process "setsid3-$sb"
        has setsid3-off err "3 process(es) left their case's process group"
    fi
    is "setsid-$sb" settings.sandbox "$([ $sb = on ] && echo bubblewrap || echo 'none (--sandbox off)')"
    # the corpus cannot be rewritten or deleted: read-only in the sandbox, a copy without it
    rm -rf "$tmp/corpus-copy" && cp -r "$corpus" "$tmp/corpus-copy"
    certify "rewrite-$sb" 1 --keep-going --corpus "$tmp/corpus-copy" --format aem --sandbox $sb --loader 'echo x >{}; rm -f {}; exit 1 # {}'
    diff -r "$corpus" "$tmp/corpus-copy" >/dev/null && ok || fail "rewrite-$sb: the corpus changed"
    is "rewrite-$sb" total.verdicts.error 0
    # /tmp and the home directory are hidden (a read-only tmpfs each): a
    # secret in a directory of /tmp that the command does not name, one in
    # $HOME/.ssh, and a UNIX socket in /tmp (an ssh agent's, an X display's:
    # a read-only view would not stop connect()) are out of reach; without
    # the sandbox they are reached, and nothing is claimed
    peek_home=$tmp/home-$sb && mkdir -p "$peek_home/.ssh" && echo "ssh-$tag" >"$peek_home/.ssh/id_test"
    [ -n "${peek_dir:-}" ] || peek_dir=$(mktemp -d /tmp/mcc-peek-XXXXXX)
    echo "tmp-$tag" >"$peek_dir/secret"
    rm -f "$peek_dir/sock"
    $py -c 'import socket, sys, time; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); time.sleep(30)' \
        "$peek_dir/sock" "$tag" &
    listener=$!
    for i in $(seq 100); do [ -S "$peek_dir/sock" ] && break; sleep 0.05; done
    # the script right in /tmp: shown alone, not /tmp with it
    [ -n "${peek_py:-}" ] || peek_py=$(mktemp /tmp/mcc-peek-XXXXXX.py)
    cat >"$peek_py" <<'PY'
import os, socket, sys
home, peek = os.environ["MCC_PEEK_HOME"], os.environ["MCC_PEEK_DIR"]
for path in (peek + "/secret", home + "/.ssh/id_test"):
    try:
        print(open(path).read().strip(), file=sys.stderr)
    except OSError as e:
        print(f"read {os.path.basename(path)}: {e.strerror}", file=sys.stderr)
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(peek + "/sock")
    print("connect: connected", file=sys.stderr)
except OSError as e:
    print(f"connect: {e.strerror}", file=sys.stderr)
sys.exit(1)
PY
    # (told where by MCC_* variables, which the sandbox hands on: the command
    # names no path of theirs, which would be shown again)
    HOME=$peek_home MCC_PEEK_HOME=$peek_home MCC_PEEK_DIR=$peek_dir exp "peek-$sb" 1 triangle "$py $peek_py # {out}" --sandbox $sb
    kill $listener 2>/dev/null; wait $listener 2>/dev/null
    if [ $sb = on ]; then
        is "peek-$sb" cases.0.stderr_tail $'read secret: No such file or directory\nread id_test: No such file or directory\nconnect: No such file or directory'
        is "peek-$sb" cases.0.detail "refused a scene the format can hold (exit 1): connect: No such file or directory"
        grep -q -e "tmp-$tag" -e "ssh-$tag" "$tmp/peek-$sb.json" && fail "peek-$sb: a secret in the report" || ok
    else
        is "peek-$sb" cases.0.stderr_tail "tmp-$tag"$'\n'"ssh-$tag"$'\nconnect: connected'
        is "peek-$sb" cases.0.detail "refused a scene the format can hold (exit 1): connect: connected"
    fi
    if [ $sb = off ]; then
        # not isolated: nothing is observed, nothing is claimed (and the
        # connect may even succeed: its exit status is not looked at)
        exp "claims-off" 1 triangle "$py -c 'import socket; socket.create_connection((\"1.1.1.1\", 80), timeout=1)' 2>/dev/null; echo x >\$HOME/.mcc-$tag-home; exit 1 # {out}" --sandbox off
        is claims-off cases.0.detail "refused a scene the format can hold (exit 1)"
        rm -f "$HOME/.mcc-$tag-home"
        continue
    fi
    # writes outside the case directory land nowhere
    exp "outside-$sb" 1 triangle "echo x >$HOME/$tag; echo x >/tmp/$tag; echo x >$tmp/$tag; echo x >{dir}/ok && exit 1 # {out}" --sandbox $sb
    [ ! -e "$HOME/$tag" ] && [ ! -e "/tmp/$tag" ] && [ ! -e "$tmp/$tag" ] && ok || fail "outside-$sb: a file written outside"
    has "outside-$sb" json 'Read-only file system'
    # what it left in its private $HOME/$TMPDIR is listed (sorted, the first 3),
    # then discarded; its writes to /tmp fail (read-only)
    exp "home-$sb" 1 triangle "echo a >\$HOME/one; mkdir -p \$HOME/.cache/d && echo b >\$HOME/.cache/d/two; echo c >\$TMPDIR/three; echo d >\$TMPDIR/four; { echo e >/tmp/$tag; } 2>/dev/null; exit 1 # {out}" --sandbox $sb
    is "home-$sb" cases.0.detail "refused a scene the format can hold (exit 1); left 4 files in its private home/temp directory (discarded): .cache/d/two, four, one, ..."
    [ ! -e "/tmp/$tag" ] && ok || fail "home-$sb: wrote /tmp"
    # the network: a TCP connect to 1.1.1.1:80, a DNS query sent to 192.0.2.53
    # by hand and (with IPv6) a connect to 2001:db8::1, each blocked and counted
    cat >"$tmp/net.py" <<'PY'
import socket
tries = [(socket.AF_INET, socket.SOCK_STREAM, ("1.1.1.1", 80)),
         (socket.AF_INET, socket.SOCK_DGRAM, ("192.0.2.53", 53)),
         (socket.AF_INET6, socket.SOCK_STREAM, ("2001:db8::1", 80))]
for family, kind, to in tries:
    try:
        s = socket.socket(family, kind)
    except OSError:
        continue  # no IPv6 here
    try:
        if kind == socket.SOCK_DGRAM:
            s.sendto(b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x07example\x03com\x00\x00\x01\x00\x01", to)
        else:
            s.connect(to)
    except OSError:
        pass
PY
    want=3; [ -e /proc/net/snmp6 ] || want=2
    exp "net-$sb" 1 triangle "$py $tmp/net.py; exit 1 # {out}" --sandbox $sb
    is "net-$sb" cases.0.detail "refused a scene the format can hold (exit 1); tried the network ($want attempts blocked)"
    # a name looked up through the system's resolver: counted when its
    # nameserver is off the loopback (one query or more: resolv.conf decides)
    if grep -Eq '^hosts:.* dns' /etc/nsswitch.conf 2>/dev/null && grep -Eq '^nameserver +([0-9.]+|[0-9a-f:]+)' /etc/resolv.conf &&
        ! grep -Eq '^nameserver +(127\.|::1)' /etc/resolv.conf; then
        exp "resolve-$sb" 1 triangle "$py -c 'import socket; socket.getaddrinfo(\"example.com\", 80)'; exit 1 # {out}" --sandbox $sb
        has "resolve-$sb" json 'tried the network ([0-9]* attempts\? blocked)'
    else
        echo "note: resolver probe skipped: no DNS lookup to a nameserver off the loopback here (nsswitch.conf, resolv.conf)"
    fi
    # no network: only the loopback device, down
    certify "network-$sb" 1 --keep-going --corpus "$corpus" --format aem --sandbox $sb \
        --loader 'cat /proc/net/dev | tail -n +3 | grep -v "^ *lo:" | grep -q . && exit 0; exit 1 # {}'
    is "network-$sb" total.verdicts.too_lenient 0
done

# a write lease on the output, held by a process that left the case: grading
# must not wait for the lease break (45 s by default); the holder is killed with
# its case (sandbox: its PID namespace; off: the sub-reaper), or, should it
# still hold the lease, the non-blocking open fails at once
cat >"$tmp/lease.py" <<'PY'
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY)
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
open(sys.argv[2], "w").close()
time.sleep(60)
PY
if $py -c 'import fcntl, os, sys; fcntl.fcntl(os.open(sys.argv[1], os.O_WRONLY), fcntl.F_SETLEASE, fcntl.F_WRLCK)' "$tmp/lease.py" 2>/dev/null; then
    for sb in $modes; do
        t0=$(date +%s)
        timeout -k 5 60 "$mc" certify --json "$tmp/lease-$sb.json" --format aem --scene triangle --sandbox $sb \
            --exporter "$toyx --format aem {in} {out} && { setsid $py $tmp/lease.py {out} {dir}/leased-$tag & i=0; while [ ! -e {dir}/leased-$tag ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i + 1)); done; [ -e {dir}/leased-$tag ]; }" \
            >"$tmp/lease-$sb.out" 2>"$tmp/lease-$sb.err" </dev/null
        got=$? secs=$(($(date +%s) - t0))
        [ $secs -lt 30 ] && ok || fail "lease-$sb: took $secs s (stalled on the lease?)"
        verdict=$($check get "$tmp/lease-$sb.json" cases.0.verdict 2>&1)
        detail=$($check get "$tmp/lease-$sb.json" cases.0.detail 2>&1)
        # conforming (exit 0) once the holder is gone; else no output (exit 1), at once
        case "$got:$verdict:$detail" in
            0:conforming:*|"1:no_output:exit 0 but the output triangle.aem cannot be opened: Resource temporarily unavailable") ok ;;
            *) fail "lease-$sb: exit $got, $verdict: $detail" ;;
        esac
        no_process "lease-$sb"
    done
    # the same lease held by a process certify cannot kill (the test's own,
    # outside every case): the grader's non-blocking open fails at once
    # (EAGAIN, the lease break starts), "no output", no wait for the break
    cat >"$tmp/holder.py" <<'PY'
import fcntl, glob, os, sys, time
pattern, tag = sys.argv[1], sys.argv[2]
end = time.time() + 40
while time.time() < end:
    for ask in glob.glob(pattern):
        case = os.path.dirname(ask)
        fd = os.open(os.path.join(case, "triangle.aem"), os.O_WRONLY)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
        os.unlink(ask)
        open(os.path.join(case, "leased-" + tag), "w").close()
        time.sleep(30)  # holds it (SIGIO at the lease break ends it sooner)
        sys.exit(0)
    time.sleep(0.02)
PY
    for sb in $modes; do
        $py "$tmp/holder.py" "$TMPDIR/mc-certify-*/*-triangle/lease-please" "$tag" &
        holder=$!
        t0=$(date +%s)
        exp "lease-held-$sb" 1 triangle "$toyx --format aem {in} {out} && : >{dir}/lease-please && i=0 && while [ ! -e {dir}/leased-$tag ] && [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done; [ -e {dir}/leased-$tag ]" --sandbox $sb
        secs=$(($(date +%s) - t0))
        [ $secs -lt 20 ] && ok || fail "lease-held-$sb: took $secs s (stalled on the lease?)"
        is "lease-held-$sb" cases.0.verdict no_output
        is "lease-held-$sb" cases.0.detail "exit 0 but the output triangle.aem cannot be opened: Resource temporarily unavailable"
        kill $holder 2>/dev/null; wait $holder 2>/dev/null
    done
else
    echo "note: lease probe skipped: no write lease can be taken here (F_SETLEASE)"
fi

# --- memory: --max-memory bounds each case's resident memory (all its
# processes, sampled), killed over it with verdict oom (outcome over_memory) and a
# detail that names it, never a crash or a hang;
# the default (half of RAM shared by --jobs) lets an ASan build run
printf 'import time\nb = b"x" * (200 << 20)\ntime.sleep(0.5)\n' >"$tmp/hog.py"
hog="$py $tmp/hog.py"
for sb in $modes; do
    exp "memory-$sb" 1 triangle "$hog; $toyx --format aem {in} {out}" --max-memory $((64 << 20)) --sandbox $sb
    is "memory-$sb" cases.0.verdict oom
    is "memory-$sb" total.verdicts.hang 0
    is "memory-$sb" cases.0.detail "used more than 64 MiB of memory (--max-memory): killed"
    exp "memory-none-$sb" 0 triangle "$hog; $toyx --format aem {in} {out}" --max-memory 0 --sandbox $sb
    is "memory-none-$sb" cases.0.verdict conforming
done
certify memory-loader 1 --corpus "$mini" --format aem --keep-going --max-memory $((64 << 20)) --loader "$hog; exit 1 # {}"
is memory-loader total.verdicts.oom "$mini_ran"
is memory-loader total.verdicts.hang 0
is memory-loader total.verdicts.crash 0
is memory-loader cases.0.verdict oom
is memory-loader cases.0.detail "used more than 64 MiB of memory (--max-memory): killed"
is memory-loader cases.0.outcome over_memory
no_process memory
# the default is shown, and an ASan-built exporter runs under it
"$mc" certify --jobs 2 --help >"$tmp/help"
grep -Eq '^ +of RAM shared by --jobs, at least 512 MiB \(here [0-9]+ MiB with --jobs 2\)$' "$tmp/help" \
    && ok || fail "memory: the default --max-memory is not shown in --help"
if ldd "$toyx" 2>/dev/null | grep -q libasan; then
    exp memory-asan 0 triangle "$toyx --format aem {in} {out}"
    is memory-asan cases.0.verdict conforming
else
    echo "note: the toy exporter is not an ASan build here: the default memory limit under ASan is not checked"
fi

[ -z "$(ls -A "$TMPDIR")" ] && ok || fail "temporary files left: $(ls "$TMPDIR" | head -3)"
echo "hostile: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
