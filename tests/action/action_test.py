#!/usr/bin/python3
"""The GitHub Action (action.yml, issue 36) run here as a runner runs it.

action.yml is read with a small parser of the subset it is written in (no
yaml module here: a line it does not understand fails the test, so the file
stays within what is checked). Each `run` step is executed with bash, its
`env` expressions resolved from the inputs (their defaults, or the case's),
with GITHUB_ACTION_PATH, GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_PATH,
GITHUB_STEP_SUMMARY and RUNNER_TEMP set, and the command under test first on
PATH (the install step takes it: install auto). The `uses` step is checked,
not run (it uploads to GitHub): its action and its inputs.

usage: action_test.py MODELCHECK SOURCE_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def parse_action(text):
    """inputs {name: default}, steps [{key: value, env: {}, with: {}}]."""
    inputs, steps, section, cur, sub, name = {}, [], None, None, None, None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        m = re.match(r"^(\s*)(- )?([A-Za-z_-]+):\s*(.*)$", line)
        if not m:
            raise ValueError(f"action.yml:{n}: not understood: {line!r}")
        key, value = m.group(3), m.group(4)
        if indent == 0:
            section = key
        elif section == "inputs" and indent == 2:
            name = key
            inputs[name] = ""
        elif section == "inputs" and indent == 4 and key == "default":
            inputs[name] = value.strip('"')
        elif section == "runs" and m.group(2) and indent == 4:
            cur, sub = {"env": {}, "with": {}}, None
            steps.append(cur)
            cur[key] = value
        elif section == "runs" and cur is not None and indent == 6:
            sub = key if key in ("env", "with") else None
            if not sub:
                cur[key] = value
        elif section == "runs" and sub and indent == 8:
            cur[sub][key] = value
        elif section in ("runs", "outputs", "branding", "inputs") or indent == 0:
            continue
        else:
            raise ValueError(f"action.yml:{n}: not understood: {line!r}")
    return inputs, steps


def resolve(value, inputs):
    def one(m):
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        raise ValueError(f"expression not resolvable here: {expr}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def run_action(src, steps, inputs, workspace, tmp, bindir):
    files = {k: os.path.join(tmp, k) for k in ("output", "path", "summary")}
    for f in files.values():
        open(f, "w").close()
    env = dict(os.environ, GITHUB_ACTION_PATH=src, GITHUB_WORKSPACE=workspace, GITHUB_OUTPUT=files["output"],
               GITHUB_PATH=files["path"], GITHUB_STEP_SUMMARY=files["summary"], RUNNER_TEMP=tmp,
               GITHUB_ACTIONS="true", PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    results = []
    for step in steps:
        if "run" not in step:
            continue
        cmd = step["run"].strip("'")
        step_env = dict(env, **{k: resolve(v, inputs) for k, v in step["env"].items()})
        p = subprocess.run(["bash", "-e", "-c", cmd], cwd=tmp, env=step_env, capture_output=True, text=True,
                           timeout=120)
        results.append((step.get("name"), p))
        if p.returncode != 0:
            break
    outputs = dict(line.split("=", 1) for line in open(files["output"]).read().splitlines() if "=" in line)
    return results, outputs, open(files["summary"]).read()


def main():
    mc, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    inputs, steps = parse_action(open(os.path.join(src, "action.yml")).read())
    check(set(inputs) >= {"paths", "args", "sarif", "upload-sarif", "install"}, f"inputs: {sorted(inputs)}")
    runs = [s for s in steps if "run" in s]
    check(runs and all("scripts/action.sh" in s["run"] and s.get("shell") == "bash" for s in runs),
          f"every run step is scripts/action.sh in bash: {runs}")
    upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    check(len(upload) == 1 and upload[0]["with"].get("sarif_file") == "${{ steps.run.outputs.sarif }}"
          and "steps.run.outputs.sarif != ''" in upload[0].get("if", "")
          and "inputs.upload-sarif == 'true'" in upload[0].get("if", ""),
          f"the upload step: {upload}")
    check(any(s.get("id") == "run" for s in steps), "a step with id run (its outputs feed the upload)")

    tmp = tempfile.mkdtemp()
    try:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(mc, os.path.join(bindir, "modelcheck"))
        ws = os.path.join(tmp, "ws")
        os.makedirs(os.path.join(ws, "assets"))
        os.makedirs(os.path.join(ws, ".git"))
        corpus = os.path.join(src, "corpus", "aem")
        shutil.copy(os.path.join(corpus, "invalid", "weights_sum_0_93.aem"), os.path.join(ws, "assets", "bad.aem"))
        shutil.copy(os.path.join(corpus, "valid", "skinned_animated.aem"), os.path.join(ws, "assets", "ok.aem"))

        # defaults: the whole workspace, annotations, no SARIF
        results, outputs, summary = run_action(src, steps, dict(inputs), ws, tmp, bindir)
        names = [n for n, _ in results]
        check(len(results) == len(runs), f"defaults: every run step ran: {names}")
        install, run = results[0][1], results[-1][1]
        check(install.returncode == 0 and "modelcheck: " + os.path.join(bindir, "modelcheck") in install.stdout,
              f"install auto takes the modelcheck on PATH: {install.stdout!r} {install.stderr!r}")
        check(run.returncode == 1, f"run: exit {run.returncode}, expected 1 (assets/bad.aem)")
        check("::error file=assets/bad.aem,title=AEM_WEIGHT_SUM::vertex 5: weights sum to 0.930000" in run.stdout,
              f"run: the annotation, relative to the workspace: {run.stdout[:400]!r}")
        check(outputs == {"exit-code": "1", "sarif": ""}, f"outputs: {outputs}")
        check("### modelcheck" in summary and "modelcheck: 2 files checked: 1 valid, 1 invalid" in summary,
              f"step summary: {summary!r}")

        # a SARIF log, options and paths
        case = dict(inputs, paths="assets/ok.aem assets/bad.aem", args="--werror --ignore AEM_WEIGHT_SUM",
                    sarif="modelcheck.sarif")
        shutil.copy(os.path.join(corpus, "valid", "static_exporter_unskinned.aem"), os.path.join(ws, "assets", "ok.aem"))
        results, outputs, summary = run_action(src, steps, case, ws, tmp, bindir)
        run = results[-1][1]
        check(run.returncode == 1 and "::error file=assets/ok.aem,title=AEM_UNSKINNED_VERTEX::" in run.stdout
              and "AEM_WEIGHT_SUM" not in run.stdout,
              f"args: --werror raises the warning, --ignore drops the code: exit {run.returncode}, {run.stdout[:400]!r}")
        check(outputs == {"exit-code": "1", "sarif": "modelcheck.sarif"}, f"outputs with sarif: {outputs}")
        try:
            log = json.load(open(os.path.join(ws, "modelcheck.sarif")))
            res = log["runs"][0]["results"]
            check(res and all(r["level"] == "error" for r in res)
                  and {r["ruleId"] for r in res} == {"AEM_UNSKINNED_VERTEX"}
                  and all(r["locations"][0]["physicalLocation"]["region"] == {"startLine": 1} for r in res),
                  f"SARIF: sarif-github flavour, warnings as errors: {res[:2]}")
        except (OSError, ValueError, KeyError) as e:
            check(False, f"SARIF log: {e}")

        # a bad input: the step fails with modelcheck's code, the outputs say it
        results, outputs, _ = run_action(src, steps, dict(inputs, paths="assets/missing.aem"), ws, tmp, bindir)
        check(results[-1][1].returncode == 3 and outputs.get("exit-code") == "3",
              f"missing file: exit {results[-1][1].returncode}, outputs {outputs}")
        results, _, _ = run_action(src, steps, dict(inputs, install="sometimes"), ws, tmp, bindir)
        check(len(results) == 1 and results[0][1].returncode == 2 and "::error" in results[0][1].stdout,
              f"install: a bad value fails the first step: {[(n, p.returncode) for n, p in results]}")
        empty = os.path.join(tmp, "emptybin")
        os.makedirs(empty)
        results, _, _ = run_action(src, steps, dict(inputs, install="never"), ws, tmp, empty)
        check(results[0][1].returncode != 0 or shutil.which("modelcheck"),
              "install never without modelcheck on PATH fails")
    finally:
        shutil.rmtree(tmp)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
