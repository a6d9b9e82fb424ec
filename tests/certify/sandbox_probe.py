#!/usr/bin/env python3
"""A hostile loader for certify's sandbox test (sandbox_test.sh): run as
`sandbox_probe.py PROBE FILE`, it tries one way out of the sandbox and says
on stderr what happened, one line `PROBE: held` or `PROBE: ESCAPED ...`;
exit 0 when it held (the valid file is accepted), 1 when it escaped (the
case is then "too strict" and its stderr tail in the report), 3 on a probe
this script does not know.

Every probe is a line of docs/CERTIFY.md's list of what a case can and
cannot reach ("What a case can reach"); sandbox_test.sh runs each one as
root and as nobody."""
import ctypes
import errno
import os
import socket
import subprocess
import sys

libc = ctypes.CDLL(None, use_errno=True)


ESCAPED = []


def say(probe, escaped, why=""):
    print(f"{probe}: {'ESCAPED' if escaped else 'held'}{' ' + why if why else ''}", file=sys.stderr, flush=True)
    if escaped:
        ESCAPED.append(probe)


def run(argv):
    """exit status of argv, its output dropped (127: no such program)"""
    try:
        return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20).returncode
    except FileNotFoundError:
        return 127


def caps():
    for line in open("/proc/self/status"):
        if line.startswith("CapEff:"):
            return int(line.split()[1], 16)
    return -1


def write_everywhere(tag):
    """a file named tag in every directory of the system it can see (not
    /proc, /sys): where it could, said; the private places are expected"""
    private = ("/var/tmp", "/dev/shm")
    wrote = []
    for top, dirs, _ in os.walk("/", onerror=lambda e: None):
        if top in ("/proc", "/sys"):
            dirs[:] = []
            continue
        try:
            fd = os.open(os.path.join(top, tag), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError:
            continue
        os.close(fd)
        if not top.startswith(private):
            wrote.append(top)
    return wrote


def main():
    probe, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:  # read: the sanity stop must not take it for a broken command
        f.read(16)
    tag = os.environ.get("MCC_PROBE_TAG", "mcc-probe")
    if probe == "caps":
        c = caps()
        say(probe, c != 0, f"CapEff={c:x}")
    elif probe == "remount":
        rc = run(["mount", "-o", "remount,rw,bind", "/"])
        wrote = False
        if rc == 0:
            try:
                open(f"/opt/{tag}", "w").close()
                wrote = True
            except OSError:
                pass
        say(probe, rc == 0 or wrote, f"mount exit {rc}")
    elif probe == "mount":
        rc = run(["mount", "-t", "tmpfs", "none", "/mnt"])
        say(probe, rc == 0, f"mount exit {rc}")
    elif probe == "umount":
        # the hiding mounts: under them, the host's /tmp, home and /run
        got = [p for p in ("/tmp", "/run", "/root", os.environ.get("MCC_PROBE_HOME", "/root"))
               if run(["umount", "-l", p]) == 0]
        say(probe, bool(got), "unmounted " + ",".join(got) if got else "")
    elif probe == "userns":
        got = [f for f in ("-U", "-m", "-n", "-p", "-Ur") if run(["unshare", f, "true"]) == 0]
        say(probe, bool(got), "unshare " + " ".join(got) if got else "")
    elif probe == "ptrace":
        pid = int(os.environ.get("MCC_PROBE_PID", "0"))
        PTRACE_ATTACH = 16
        rc = libc.ptrace(PTRACE_ATTACH, pid, None, None) if pid > 0 else -1
        err = ctypes.get_errno()
        seen = pid > 0 and os.path.exists(f"/proc/{pid}/cmdline") and \
            b"certify" in open(f"/proc/{pid}/cmdline", "rb").read()
        say(probe, rc == 0 or seen, f"ptrace {errno.errorcode.get(err, err)}, certify seen: {seen}")
    elif probe == "write":
        wrote = write_everywhere(tag)
        say(probe, bool(wrote), ("wrote in " + ",".join(wrote[:5])) if wrote else "")
    elif probe == "hidden":
        # /tmp, the home directory and /run are empty (what is shown again aside)
        home = os.environ.get("MCC_PROBE_HOME", "")
        seen = [p for p in ("/tmp", "/run", home) if p and os.access(p, os.R_OK | os.X_OK) and
                tag in os.listdir(p)]
        say(probe, bool(seen), "saw the host's files in " + ",".join(seen) if seen else "")
    elif probe == "readonly":
        ro = [p for p in ("/run", "/tmp", "/dev") if os.access(p, os.W_OK) and touch(p, tag)]
        say(probe, bool(ro), "wrote in " + ",".join(ro) if ro else "")
    elif probe == "network":
        try:
            s = socket.create_connection(("192.0.2.1", 80), timeout=2)
            s.close()
            say(probe, True, "connected")
        except OSError as e:
            say(probe, False, errno.errorcode.get(e.errno, str(e.errno)) if e.errno else str(e))
    elif probe == "env":
        # certify's environment has SANDBOX_PROBE_SECRET (no MCC_ prefix: not kept)
        leaked = [k for k in os.environ if k.startswith("SANDBOX_PROBE_SECRET")]
        say(probe, bool(leaked) or os.environ.get("HOME") != "/var/tmp", ",".join(leaked))
    else:
        print(f"unknown probe {probe}", file=sys.stderr)
        return 3
    return 1 if ESCAPED else 0


def touch(d, tag):
    try:
        open(os.path.join(d, tag), "w").close()
        return True
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
