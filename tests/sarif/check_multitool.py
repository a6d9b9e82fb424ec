"""Microsoft's SARIF multitool (pinned in tests/npm) on real modelcheck logs,
with the SARIF, GitHub (Gh) and GitHub Advanced Security (Ghas) rule sets:
zero errors and zero warnings required (notes are advice: snippets, message
ids, rule-id style). A control log with the rule texts stripped must fail
with GH2012, so that a validator that checks nothing fails this test.

usage: check_multitool.py MODELCHECK CORPUS NPM_DIR   (exit 77: SKIP)
"""
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77


def findings(tool, log, tmp):
    out = os.path.join(tmp, "validation.sarif")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([tool, "validate", "--rule-kind", "Sarif;Gh;Ghas", "--level", "Error;Warning;Note",
                        "-o", out, log], capture_output=True, text=True)
    if not os.path.exists(out):
        sys.exit(f"FAIL multitool wrote no output (exit {p.returncode}): {p.stdout[-2000:]}{p.stderr[-2000:]}")
    with open(out) as f:
        res = json.load(f)["runs"][0].get("results", [])
    return [(r.get("level", "warning"), r["ruleId"], r["message"].get("arguments", [""])[0]) for r in res]


def main():
    mc, corpus, npm = sys.argv[1:4]
    tool = os.path.join(npm, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
    if not os.access(tool, os.X_OK):
        print(f"SKIP: {tool} missing (scripts/setup-npm.sh installs it)")
        return SKIP
    failed = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty file.aem")
        open(empty, "wb").close()
        runs = [[corpus], ["-n", "0", "-s", "AEM_UNSKINNED_VERTEX=error", corpus],
                [os.path.join(tmp, "missing.aem"), empty]]
        for i, args in enumerate(runs):
            log = os.path.join(tmp, f"run{i}.sarif")
            with open(log, "wb") as f:
                p = subprocess.run([mc, "--output", "sarif"] + args, stdout=f, stderr=subprocess.DEVNULL)
            if p.returncode not in (0, 1, 3):
                print(f"FAIL modelcheck {' '.join(args)}: exit {p.returncode}")
                failed += 1
                continue
            found = findings(tool, log, tmp)
            bad = [x for x in found if x[0] in ("error", "warning")]
            for level, rule, where in bad[:20]:
                print(f"FAIL {' '.join(args)}: {level} {rule} at {where}")
            if not found:
                print(f"FAIL {' '.join(args)}: the multitool reported nothing at all (not even notes)")
                bad = [None]
            failed += bool(bad)
            checked += 1
        # control: the same log without the texts GitHub requires
        with open(os.path.join(tmp, "run0.sarif")) as f:
            log = json.load(f)
        for rule in log["runs"][0]["tool"]["driver"]["rules"]:
            rule.pop("fullDescription", None)
            rule.pop("help", None)
        control = os.path.join(tmp, "control.sarif")
        with open(control, "w") as f:
            json.dump(log, f)
        if not any(x[0] == "error" and x[1] == "GH2012" for x in findings(tool, control, tmp)):
            print("FAIL control: a log without fullDescription/help passed the GH rules")
            failed += 1
        checked += 1
    print(f"{checked - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
