#!/usr/bin/env bash
# certify's sandbox against hostile probes (issue 37), as root and as nobody
# when run as root (else as the current user only, and said): every line of
# docs/CERTIFY.md's "What a case can reach" is a probe (sandbox_probe.py);
# each must hold, nothing outside the case may change (a file named with this
# run's tag anywhere on the host but where the test put it is a failure), and
# the limits of what a case can write end the case by name. The same probes
# without the sandbox must escape where an unprivileged process can (the test
# can fail).
# usage: sandbox_test.sh MODELCHECK CORPUS PYTHON
set -uo pipefail
mc=$(realpath "$1") corpus=$(realpath "$2") py=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v bwrap >/dev/null || { echo "SKIP: no bubblewrap (apt-get install bubblewrap)"; exit 77; }
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tag="mcc-sandbox-$$-$RANDOM"
# everything the runs need, readable by nobody: a copy of modelcheck would
# not do (it must be the binary under test), so only the corpus and the
# probe are copied; the build tree is world-readable
work=$(mktemp -d /var/tmp/mcc-sandbox.XXXXXX)
chmod 755 "$work"
markers=(/tmp/"$tag" /run/"$tag" "$HOME/$tag")
cleanup() { rm -rf "$work"; rm -f "${markers[@]}"; find / /dev/shm /run /tmp -xdev -name "$tag" -delete 2>/dev/null; }
trap cleanup EXIT
for m in "${markers[@]}"; do echo secret > "$m"; done
mkdir -p "$work/corpus/aem/valid"
"$py" - "$corpus" "$work/corpus" <<'PY'
import json, shutil, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
c = [x for x in m["cases"] if x["format"] == "aem" and x["valid"] and not x.get("skip")][:1]
shutil.copyfile(sys.argv[1] + "/" + c[0]["file"], sys.argv[2] + "/" + c[0]["file"])
m["cases"] = c
json.dump(m, open(sys.argv[2] + "/manifest.json", "w"))
PY
cp "$here/sandbox_probe.py" "$work/probe.py"
chmod -R a+rX "$work"

# as USER (root or nobody): certify ARGS... > $work/USER.NAME.json; prints its exit status
as_user() {
    local user=$1; shift
    if [ "$user" = "$(id -un)" ]; then "$@"; else setpriv --reuid="$user" --regid="$(id -gn "$user" 2>/dev/null || echo nogroup)" --clear-groups -- "$@"; fi
}
certify() { # USER NAME ARGS...
    local user=$1 name=$2; shift 2
    mkdir -p "$work/tmp-$user" "$work/out" && chmod 1777 "$work/tmp-$user" "$work/out"
    as_user "$user" env TMPDIR="$work/tmp-$user" HOME="$HOME" MCC_PROBE_TAG="$tag" MCC_PROBE_HOME="$HOME" \
        MCC_PROBE_PID="$$" SANDBOX_PROBE_SECRET=1 \
        timeout -k 5 120 "$mc" certify --json "$work/out/$user.$name.json" --corpus "$work/corpus" --format aem "$@" \
        > "$work/out/$user.$name.out" 2> "$work/out/$user.$name.err" < /dev/null
}
# the probe's line (from the case's stderr tail) and verdict
line_of() { "$py" - "$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
tail = [l for l in (c.get("stderr_tail") or "").splitlines() if ": held" in l or ": ESCAPED" in l]
print(tail[-1] if tail else "(no line: " + c["verdict"] + " " + (c.get("detail") or "") + ")")
PY
}
field() { "$py" -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"][0]; print(c.get(sys.argv[2]) or "")' "$1" "$2"; }
# nothing named with the tag on the host but the markers
no_trace() { # WHAT
    local found
    found=$(find / /dev/shm /run /tmp -xdev -name "$tag" 2>/dev/null | grep -v -x -F -e "/tmp/$tag" -e "/run/$tag" -e "$HOME/$tag" | head -5)
    if [ -n "$found" ]; then fail "$1: the case wrote outside its places: $found"; find / /dev/shm /run /tmp -xdev -name "$tag" 2>/dev/null | grep -v -x -F -e "/tmp/$tag" -e "/run/$tag" -e "$HOME/$tag" | xargs -r rm -rf; else ok; fi
}

# a machine where bubblewrap cannot make its namespaces has no sandbox to probe
if ! "$mc" certify --sandbox on --loader 'true {}' --corpus "$work/corpus" --format aem >/dev/null 2>"$work/probe.err" </dev/null &&
   grep -q "sandbox\|bubblewrap" "$work/probe.err"; then
    echo "SKIP: no sandbox here: $(head -1 "$work/probe.err")"; exit 77
fi
users=("$(id -un)")
if [ "$(id -u)" -eq 0 ]; then
    if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then users+=(nobody)
    else echo "note: no user nobody or no setpriv: as root only"; fi
else
    echo "note: not root: the probes run as $(id -un) only (the root half needs root)"
fi

# A probe that held exits 0: the valid file is accepted (conforming).
probes=(caps remount mount umount userns ptrace write hidden readonly network env)
for user in "${users[@]}"; do
    for p in "${probes[@]}"; do
        certify "$user" "$p" --sandbox on --loader "python3 -B $work/probe.py $p {}"
        rc=$?
        [ "$rc" -le 1 ] || { fail "$user $p: certify exit $rc: $(head -2 "$work/out/$user.$p.err")"; continue; }
        v=$(field "$work/out/$user.$p.json" verdict)
        [ "$v" = conforming ] && ok || fail "$user $p: $(line_of "$work/out/$user.$p.json" 2>&1)"
        no_trace "$user $p"
    done
    # Limits: 2 GiB into /dev/shm or $HOME under --max-memory 512 MiB ends as
    # oom; /run is read-only
    for place in /dev/shm /var/tmp; do
        certify "$user" "fill${place//\//_}" --sandbox on --max-memory 512M \
            --loader "sh -c 'head -c 2G /dev/zero > $place/x; exit 0' {}"
        v=$(field "$work/out/$user.fill${place//\//_}.json" verdict)
        [ "$v" = oom ] && ok || fail "$user: 2 GiB into $place under --max-memory 512M: verdict '$v', expected oom"
    done
    certify "$user" fill_run --sandbox on --max-memory 512M \
        --loader "sh -c 'head -c 2G /dev/zero > /run/x && exit 0; exit 1' {}"
    v=$(field "$work/out/$user.fill_run.json" verdict)
    [ "$v" = too_strict ] && ok || fail "$user: a write to /run was not refused (verdict '$v')"
    # an exporter writing 8 files of 250 MB stops at --max-output-bytes while it runs
    as_user "$user" env TMPDIR="$work/tmp-$user" timeout -k 5 120 "$mc" certify --sandbox on --format aem --scene cube \
        --json "$work/out/$user.output.json" \
        --exporter 'sh -c "for i in 1 2 3 4 5 6 7 8; do head -c 250M /dev/zero > {dir}/f\$i; done; exit 0" {out}' \
        > "$work/out/$user.output.out" 2>&1 < /dev/null
    d=$(field "$work/out/$user.output.json" detail)
    case $d in
    *"(--max-output-bytes): killed while it ran"*) ok ;;
    *) fail "$user: 2 GB exporter: detail '$d'" ;;
    esac
    du=$(du -sb "$work/tmp-$user" | cut -f1)
    [ "$du" -lt $((64 << 20)) ] && ok || fail "$user: $du bytes left in certify's temporary directory"
done

# The same probes without the sandbox: those an unprivileged process can do
# must escape (else the probes prove nothing).
for p in write hidden env; do
    certify "${users[-1]}" "off-$p" --sandbox off --loader "python3 -B $work/probe.py $p {}"
    got=$(line_of "$work/out/${users[-1]}.off-$p.json" 2>/dev/null)
    case $got in
    "$p: ESCAPED"*) ok ;;
    *) fail "without the sandbox, probe $p did not escape: $got (the probe cannot fail)" ;;
    esac
done
find / /dev/shm /run /tmp -xdev -name "$tag" 2>/dev/null | grep -v -x -F -e "/tmp/$tag" -e "/run/$tag" -e "$HOME/$tag" | xargs -r rm -rf

echo "sandbox_test: $passed passed, $failed failed (as ${users[*]})"
[ "$failed" -eq 0 ]
