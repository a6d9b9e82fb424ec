#!/usr/bin/env python3
"""SIGINT in every phase of `certify --library` leaves a partial report
(issue 37): the load check included. The signal is sent at several delays
after certify's own start: the time a `modelcheck --version` takes here
(a sanitizer build spends some 100 ms in its runtime before main, when no
program can catch a signal yet) plus 0, 10, 50, 100 and 300 ms. Each run must
end with exit 2, say "interrupted", and leave a JSON report.
usage: sigint_test.py MODELCHECK TOY_LIBRARY CORPUS"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

mc, lib, corpus = sys.argv[1:4]


def startup():
    """the slowest of 3 runs of `modelcheck --version`, in seconds"""
    worst = 0.0
    for _ in range(3):
        t = time.monotonic()
        subprocess.run([mc, "--version"], stdout=subprocess.DEVNULL, check=True)
        worst = max(worst, time.monotonic() - t)
    return worst


def run(delay, out):
    env = dict(os.environ, MCC_TOY_MODE="hang_empty")
    p = subprocess.Popen([mc, "certify", "--library", lib, "--corpus", corpus, "--format", "aem", "--json", out,
                          "--timeout", "20"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, env=env,
                         # a background job of a shell ignores SIGINT: not so here
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    err = p.communicate(timeout=60)[1].decode(errors="replace")
    report = os.path.exists(out) and os.path.getsize(out) > 0
    if report:
        json.load(open(out))  # whole and valid
    return p.returncode, report, "interrupted" in err


base = startup()
failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for extra in (0.0, 0.01, 0.05, 0.1, 0.3):
        out = os.path.join(tmp, f"r{extra}.json")
        rc, report, said = run(base + extra, out)
        ok = rc == 2 and report and said
        failed += not ok
        print(f"{'ok' if ok else 'FAIL'}: SIGINT {extra * 1000:.0f} ms after start-up ({base * 1000:.0f} ms): "
              f"exit {rc}, report {'written' if report else 'missing'}, {'said' if said else 'not said'}")
sys.exit(1 if failed else 0)
