#!/usr/bin/python3
"""modelcheck inspect on every corpus file (issue 27).

usage: check_inspect.py MODELCHECK SCHEMA CORPUS_DIR
- `inspect --output json` of every file validates against the schema, and
  names the same format and error count as validation;
- `inspect --at` on every kept issue instance of the corpus names a path
  that agrees with the issue's: one is the other or a prefix of it at a '/'
  (an issue may name a record, --at its field; an issue at "/" agrees with
  anything). Decoded E3D offsets are asked as BLOCK+OFFSET.
"""
import json
import os
import re
import subprocess
import sys

import jsonschema


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL {cmd}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8")


PATH_MAX = 95  # mc_instance.path holds 95 bytes: a longer path is cut


def agrees(issue, at):
    if issue in ("", "/") or issue == at:
        return True
    if len(issue.encode()) >= PATH_MAX:
        return at.startswith(issue)
    a, b = (issue, at) if len(issue) < len(at) else (at, issue)
    return b.startswith(a + "/")


def main():
    mc, schema_path, corpus = sys.argv[1:4]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(os.path.join(d, n) for d, _, ns in os.walk(corpus) for n in ns
                   if os.path.splitext(n)[1] in (".aem", ".semodel", ".aamf", ".samf", ".e3d", ".nlm"))
    if len(files) < 100:
        sys.exit(f"FAIL only {len(files)} corpus files found under {corpus}")
    problems, checked = [], 0
    for path in files:
        doc = json.loads(run([mc, "inspect", "--output", "json", path]))
        for e in validator.iter_errors(doc):
            problems.append(f"{path}: schema: {e.message} at {list(e.absolute_path)}")
        report = json.loads(run([mc, "--output", "json", "--no-config", path]))["files"][0]
        ins = doc["files"][0]
        errors = sum(i["count"] for i in report["issues"] if i["severity"] == "error")
        if ins["errors"] != errors or ins["format"] != report["format"]:
            problems.append(f"{path}: inspect says {ins['format']}, {ins['errors']} errors; "
                            f"validation {report['format']}, {errors}")
        for issue in report["issues"]:
            for inst in issue["instances"]:
                ipath = inst.get("path", "")
                if "payload_offset" in inst:
                    blocks = re.findall(r"lzma@(0x[0-9a-f]+)", ipath)
                    if not blocks:
                        continue
                    at = f"{blocks[-1]}+{inst['payload_offset']}"
                else:
                    at = str(inst["offset"])
                if inst["offset"] >= os.path.getsize(path):
                    continue  # an issue at the end of the file (truncation) has no byte
                out = run([mc, "inspect", "--at", at, path])
                m = re.search(r"^  path:   (.*)$", out, re.M)
                checked += 1
                if not m or not agrees(ipath, m.group(1)):
                    problems.append(f"{path}: {issue['code']} at {at} [{ipath}]: --at names "
                                    f"{m.group(1) if m else '(nothing)'}")
    for p in problems[:60]:
        print(p)
    print(f"{len(files)} files, {checked} issue offsets, {len(problems)} problems")
    sys.exit(1 if problems else 0)


main()
