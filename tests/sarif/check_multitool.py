"""Microsoft's SARIF multitool (pinned in tests/npm) on real modelcheck logs:
zero errors and zero warnings required (notes are advice: snippets, message
ids, rule-id style, help URIs).

- `--output sarif` (the specification's binary regions) with the SARIF,
  GitHub (Gh) and GitHub Advanced Security (Ghas) rule sets as the multitool
  ships them;
- `modelcheck fix --output-format sarif` over every corpus model file (the
  fixes' byte replacements);
- `--output sarif-github` with GitHub's ingestion rules enabled as errors
  (github.config.xml: GH1001-GH1006, SARIF2007), for relative paths (run
  from the parent directory, as the README recommends) and absolute ones.

Controls, so that a validator or a policy that checks nothing fails this
test: rule texts stripped must give GH2012; the spec log under the GitHub
policy must give GH1003 on every result (the reason sarif-github exists);
an absolute sarif-github log without its workingDirectory must give GH1006.

usage: check_multitool.py MODELCHECK CORPUS NPM_DIR   (exit 77: SKIP)
"""
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77
POLICY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "github.config.xml")


def findings(tool, log, tmp, policy=None):
    out = os.path.join(tmp, "validation.sarif")
    if os.path.exists(out):
        os.remove(out)
    cmd = [tool, "validate", "--rule-kind", "Sarif;Gh;Ghas", "--level", "Error;Warning;Note", "-o", out, log]
    if policy:
        cmd[2:2] = ["--config", policy]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if not os.path.exists(out):
        sys.exit(f"FAIL multitool wrote no output (exit {p.returncode}): {p.stdout[-2000:]}{p.stderr[-2000:]}")
    with open(out) as f:
        run = json.load(f)["runs"][0]
    notes = [n["message"]["text"] for inv in run.get("invocations", [])
             for n in inv.get("toolConfigurationNotifications", []) + inv.get("toolExecutionNotifications", [])]
    if notes:
        sys.exit(f"FAIL the multitool did not take its configuration: {notes[:3]}")
    return [(r.get("level", "warning"), r["ruleId"], r["message"].get("arguments", [""])[0])
            for r in run.get("results", [])]


def write_log(mc, kind, args, path, cwd):
    # "fix": `modelcheck fix`'s SARIF, the input's results with their fixes
    cmd = [mc, "fix", "--output-format", "sarif", "--unsafe-fixes", "--dry-run"] if kind == "fix" else [mc, "--output", kind]
    with open(path, "wb") as f:
        p = subprocess.run(cmd + args, stdout=f, stderr=subprocess.DEVNULL, cwd=cwd)
    return p.returncode


def model_files(corpus):
    """Every model file of the corpus, for fix (which takes files, not directories)."""
    return sorted(os.path.join(d, n) for d, _, names in os.walk(corpus) for n in names
                  if n.rsplit(".", 1)[-1] in ("aem", "aamf", "nlm", "semodel", "e3d"))


def count_results(log):
    with open(log) as f:
        return len(json.load(f)["runs"][0]["results"])


def main():
    mc, corpus, npm = map(os.path.abspath, sys.argv[1:4])
    tool = os.path.join(npm, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
    if not os.access(tool, os.X_OK):
        print(f"SKIP: {tool} missing (scripts/setup-npm.sh installs it)")
        return SKIP
    failed = checked = 0
    parent, rel = os.path.dirname(corpus), os.path.basename(corpus)
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty file.aem")
        open(empty, "wb").close()
        missing = os.path.join(tmp, "missing.aem")
        # (output kind, arguments, working directory, policy)
        runs = [("sarif", [corpus], tmp, None),
                ("sarif", ["-n", "0", "-s", "AEM_UNSKINNED_VERTEX=error", corpus], tmp, None),
                ("sarif", [missing, empty], tmp, None),
                ("sarif-github", [rel], parent, POLICY),
                ("sarif-github", ["-n", "0", "-s", "AEM_UNSKINNED_VERTEX=error", rel], parent, POLICY),
                ("sarif-github", [corpus], parent, POLICY),  # absolute, under the working directory
                ("sarif-github", [missing, empty], tmp, POLICY),
                ("fix", model_files(corpus), tmp, None)]
        for i, (kind, args, cwd, policy) in enumerate(runs):
            what = f"{kind} {' '.join(args)}{' (GitHub policy)' if policy else ''}"
            log = os.path.join(tmp, f"run{i}.sarif")
            rc = write_log(mc, kind, args, log, cwd)
            if rc not in (0, 1, 3):
                print(f"FAIL modelcheck {what}: exit {rc}")
                failed += 1
                continue
            found = findings(tool, log, tmp, policy)
            bad = [x for x in found if x[0] in ("error", "warning")]
            for level, rule, where in bad[:20]:
                print(f"FAIL {what}: {level} {rule} at {where}")
            if not found:
                print(f"FAIL {what}: the multitool reported nothing at all (not even notes)")
                bad = [None]
            failed += bool(bad)
            checked += 1

        def control(name, log_index, edit, policy, rule, every):
            nonlocal failed, checked
            with open(os.path.join(tmp, f"run{log_index}.sarif")) as f:
                log = json.load(f)
            edit(log)
            path = os.path.join(tmp, f"control_{name}.sarif")
            with open(path, "w") as f:
                json.dump(log, f)
            hits = sum(1 for x in findings(tool, path, tmp, policy) if x[0] == "error" and x[1] == rule)
            want = len(log["runs"][0]["results"]) if every else 1
            if hits < want:
                print(f"FAIL control {name}: {hits} {rule} errors, expected at least {want}")
                failed += 1
            checked += 1

        def strip_texts(log):
            for rule in log["runs"][0]["tool"]["driver"]["rules"]:
                rule.pop("fullDescription", None)
                rule.pop("help", None)

        def drop_working_directory(log):
            log["runs"][0]["invocations"][0].pop("workingDirectory")

        control("no-rule-texts", 0, strip_texts, None, "GH2012", False)
        control("spec-regions", 0, lambda log: None, POLICY, "GH1003", True)
        control("no-checkout-path", 5, drop_working_directory, POLICY, "GH1006", True)
        if count_results(os.path.join(tmp, "run3.sarif")) != count_results(os.path.join(tmp, "run0.sarif")):
            print("FAIL sarif-github and sarif logs of the corpus differ in their number of results")
            failed += 1
        checked += 1
    print(f"{checked - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
