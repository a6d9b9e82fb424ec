#!/usr/bin/python3
"""Reports scale with the number of files (issue 18, item 8): over 5,000 and
50,000 generated files, the time of JSON and SARIF reports grows about tenfold (a
quadratic renderer grows a hundredfold) and the peak memory hardly at all
(JSON and SARIF are written as a stream). Ratios, not seconds.

usage: scale_test.py MODELCHECK
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

SMALL, LARGE = 5000, 50000
# a 4-byte AEM: one AEM_TRUNCATED error each, so every file has a result
FILE = b"AEM\x01"


def tree(root, n):
    for i in range(n):
        d = os.path.join(root, f"{i // 1000:03d}")
        if i % 1000 == 0:
            os.mkdir(d)
        with open(os.path.join(d, f"{i:05d}.aem"), "wb") as f:
            f.write(FILE)


def measure(cmd):
    """Wall time and peak RSS (KiB) of one run, output discarded."""
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 1:
        sys.exit(f"FAIL {' '.join(cmd)}: exit {code}, expected 1")
    return time.monotonic() - t, usage.ru_maxrss


def main():
    mc = sys.argv[1]
    # ASan keeps freed blocks in a quarantine (up to 256 MiB): memory that
    # grows with what was freed, not with what is held
    os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0"
    failed = 0
    # tmpfs when there is one: 55,000 files are created in a blink there
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        small, large = os.path.join(tmp, "small"), os.path.join(tmp, "large")
        os.mkdir(small)
        os.mkdir(large)
        tree(small, SMALL)
        tree(large, LARGE)
        for kind in ["json", "sarif"]:
            cmd = [mc, "-j", "1", "--output", kind]
            t1, m1 = measure(cmd + [small])
            t2, m2 = measure(cmd + [large])
            tr, mr = t2 / max(t1, 1e-3), m2 / m1
            ok = tr < 20 and mr < 1.5
            failed += not ok
            print(f"{'ok' if ok else 'FAIL'} {kind}: {SMALL} files {t1:.2f} s {m1 // 1024} MiB, "
                  f"{LARGE} files {t2:.2f} s {m2 // 1024} MiB: time x{tr:.1f} (linear: x10, limit x20), "
                  f"memory x{mr:.2f} (limit x1.5)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
