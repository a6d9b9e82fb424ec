#!/usr/bin/python3
"""Validates real modelcheck JSON reports against reports/schema/report.schema.json.

usage: check_reports.py MODELCHECK SCHEMA CORPUS_DIR
Runs modelcheck over the corpus, a missing file, an empty file and stdin, so
every branch of the report (valid, invalid, unreadable, skipped) is exercised.
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    if p.returncode not in (0, 1, 3):
        sys.exit(f"FAIL {cmd}: exit {p.returncode}: {p.stderr.decode()}")
    return json.loads(p.stdout)


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
        ]
    checked = failed = 0
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
