#!/usr/bin/python3
"""Validates real modelcheck JSON reports against reports/schema/report.schema.json,
and SARIF logs against reports/schema/sarif.schema.json and their JSON twins.

usage: check_reports.py MODELCHECK SCHEMA CORPUS_DIR
Runs modelcheck over the corpus, a missing file, an empty file and stdin, so
every branch of the report (valid, invalid, unreadable, skipped) is exercised.
"""
import json
import os
import subprocess
import sys
import tempfile
from urllib.parse import quote, unquote_to_bytes

import jsonschema


def run(cmd, stdin=None, raw=False):
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    if p.returncode not in (0, 1, 3):
        sys.exit(f"FAIL {cmd}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    # strict: every JSON we emit is UTF-8, whatever the file names hold
    return p.stdout if raw else json.loads(p.stdout.decode("utf-8"))


def hostile_tree(tmp, corpus):
    """Copies of corpus files under names that are not UTF-8, hold control
    characters or a '%' (issue 18)."""
    d = os.path.join(tmp.encode(), b"names")
    os.mkdir(d)
    src = os.path.join(corpus, "aem", "invalid", "weights_sum_0_93.aem")
    for name in [b"caf\xe9.aem", b"new\nline.aem", b"esc\x1b[2J.aem", b"100%.aem", b"\xff\xfe%41.aem"]:
        with open(src, "rb") as f, open(os.path.join(d, name), "wb") as g:
            g.write(f.read())
    return d


def sarif_against_json(sarif, report):
    """What the SARIF log must say, given the JSON report of the same run."""
    problems = []
    r = sarif["runs"][0]
    arts, results = r["artifacts"], r["results"]
    if [unquote_to_bytes(a["location"]["uri"].removeprefix("file://")) for a in arts] != \
            [unquote_to_bytes(f["path"]) if f.get("path_escaped") else f["path"].encode()
             for f in report["files"]]:
        problems.append("artifacts are not the files of the JSON report, in order")
    want = sum(max(len(i["instances"]), 1) for f in report["files"] for i in f["issues"])
    if len(results) != want:
        problems.append(f"{len(results)} results, expected {want} (kept instances)")
    rules = [x["id"] for x in r["tool"]["driver"]["rules"]]
    if sorted(set(rules)) != sorted({x["ruleId"] for x in results}):
        problems.append("rules are not exactly the codes of the results")
    for x in results:
        loc = x["locations"][0]["physicalLocation"]["artifactLocation"]
        if arts[loc["index"]]["location"]["uri"] != loc["uri"]:
            problems.append(f"result {x['ruleId']} points to the wrong artifact")
            break
    if r["properties"]["summary"] != report["summary"]:
        problems.append("summary differs from the JSON report's")
    if r["invocations"][0]["exitCode"] == 3 and r["invocations"][0]["executionSuccessful"]:
        problems.append("exit 3 reported as a successful execution")
    return problems


def github_against_spec(gh, spec):
    """sarif-github is the sarif log with three edits: each region becomes
    {startLine: 1} with its byteOffset in the result's properties, and the
    invocation names the working directory (a file: URI ending in '/')."""
    problems = []
    wd = gh["runs"][0]["invocations"][0].pop("workingDirectory", {}).get("uri")
    if wd != "file://" + quote(os.getcwd().rstrip("/") + "/", safe="/-._~"):
        problems.append(f"workingDirectory {wd!r} is not the working directory")
    for res in gh["runs"][0]["results"]:
        region = res["locations"][0]["physicalLocation"]["region"]
        if region != {"startLine": 1}:
            problems.append(f"region {region}, expected startLine 1 only")
            break
        region.pop("startLine")
        region["byteOffset"] = res["properties"].pop("byteOffset", None)
    if gh != spec:
        problems.append("differs from the sarif log in more than regions and workingDirectory")
    return problems


def model_files(corpus):
    """Every model file of the corpus, for fix (which takes files, not directories)."""
    return sorted(os.path.join(d, n) for d, _, names in os.walk(corpus) for n in names
                  if n.rsplit(".", 1)[-1] in ("aem", "aamf", "nlm", "semodel", "e3d"))


def main():
    mc, schema_path, corpus = sys.argv[1:4]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.aem")
        open(empty, "wb").close()
        docs = [
            run([mc, "--output", "json", corpus]),
            run([mc, "--output", "json", "-n", "1", "--severity", "AEM_UNSKINNED_VERTEX=error", corpus]),
            run([mc, "--output", "json", os.path.join(tmp, "missing.aem"), empty]),
            run([mc, "--output", "json", "-"], stdin=b"AEM\x01"),
            run([mc, "--output", "json", hostile_tree(tmp, corpus)]),
            # modelcheck fix: each file's "fix" object (issue 35)
            run([mc, "fix", "--output-format", "json", "--unsafe-fixes", "--dry-run"] + model_files(corpus)),
        ]
    checked = failed = 0
    # SARIF: the schema of the subset, and agreement with the JSON report of the same run
    with open(os.path.join(os.path.dirname(schema_path), "sarif.schema.json")) as f:
        sschema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(sschema)
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty file.aem")  # a space: %-encoded in the URI
        open(empty, "wb").close()
        runs = [[corpus], ["-n", "0", corpus], ["-n", "1", os.path.join(tmp, "missing.aem"), empty],
                [hostile_tree(tmp, corpus)]]
        for args in runs:
            raw = run([mc, "--output", "sarif"] + args, raw=True)
            again = run([mc, "--output", "sarif"] + args, raw=True)
            sarif, twin = json.loads(raw), run([mc, "--output", "json"] + args)
            problems = [f"{'/'.join(map(str, e.path))}: {e.message}"
                        for e in jsonschema.Draft202012Validator(sschema).iter_errors(sarif)]
            problems += sarif_against_json(sarif, twin)
            if raw != again:
                problems.append("two runs gave different bytes")
            props = sarif["runs"][0]["properties"]
            mirror = {"tool": twin["tool"], "settings": props["settings"], "files": [], "summary": props["summary"]}
            problems += [f"properties: {e.message}" for e in validator.iter_errors(mirror)]
            if any(" " in a["location"]["uri"] for a in sarif["runs"][0]["artifacts"]):
                problems.append("a space left unencoded in an artifact URI")
            if any("startLine" in x["locations"][0]["physicalLocation"]["region"]
                   for x in sarif["runs"][0]["results"]):
                problems.append("sarif: a line in a binary artifact (3.30.1 forbids text regions there)")
            gh = json.loads(run([mc, "--output", "sarif-github"] + args, raw=True))
            problems += [f"sarif-github: {'/'.join(map(str, e.path))}: {e.message}"
                         for e in jsonschema.Draft202012Validator(sschema).iter_errors(gh)]
            problems += [f"sarif-github: {p}" for p in github_against_spec(gh, sarif)]
            for p in problems:
                print(f"FAIL sarif {' '.join(args)}: {p}")
            failed += bool(problems)
            checked += 1
    # modelcheck fix's SARIF: the input's results, the fixes on the first of each code
    fixed = run([mc, "fix", "--output-format", "sarif", "--unsafe-fixes", "--dry-run"] + model_files(corpus))
    problems = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in jsonschema.Draft202012Validator(sschema).iter_errors(fixed)]
    if not any("fixes" in r for r in fixed["runs"][0]["results"]):
        problems.append("no result carries fixes")
    for p in problems:
        print(f"FAIL fix sarif: {p}")
    failed += bool(problems)
    checked += 1
    # the corpus manifest has a schema of its own
    with open(os.path.join(os.path.dirname(schema_path), "manifest.schema.json")) as f:
        mschema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(mschema)
    with open(os.path.join(corpus, "manifest.json")) as f:
        for e in jsonschema.Draft202012Validator(mschema).iter_errors(json.load(f)):
            print(f"FAIL manifest {'/'.join(map(str, e.path))}: {e.message}")
            failed += 1
    for doc in docs:
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors:
            print(f"FAIL {'/'.join(map(str, e.path))}: {e.message}")
        failed += bool(errors)
        checked += 1
    files = sum(len(d["files"]) for d in docs)
    if files < 5:
        print(f"FAIL only {files} file reports produced")
        failed += 1
    print(f"{checked - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
