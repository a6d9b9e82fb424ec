#!/usr/bin/python3
"""Helpers of certify_test.sh (system python3 with Debian's python3-jsonschema).

  certify_check.py expect CORPUS [FORMAT]     runs valid invalid skipped, from the manifest
  certify_check.py get REPORT.json PATH       a value of the report, PATH like total.verdicts.crash
  certify_check.py schema SCHEMA REPORT.json...   validates certificates
  certify_check.py lenient REPORT.json        every too_lenient case lists exactly its expected errors
  certify_check.py junit FILE                 well-formed; prints "testcases failures errors skipped"
  certify_check.py html FILE                  well-formed enough, self-contained; prints the failing count
  certify_check.py layout REPORT.json FORMAT LAYOUT   the certificate ran cases of that layout, all conforming;
                                              prints their count
"""
import json
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

FORMATS = ["aem", "semodel", "aamf", "e3d", "nlm"]


def expect(corpus, only=None):
    with open(f"{corpus}/manifest.json") as f:
        cases = json.load(f)["cases"]
    runs = valid = invalid = skipped = 0
    for c in cases:
        for fmt in FORMATS:
            if c["format"] not in ("any", fmt) or (only and fmt != only):
                continue
            runs += 1
            args = [a for a in c["args"]]
            if "--format" in args:
                i = args.index("--format")
                del args[i:i + 2]
            if args:
                skipped += 1
            elif any(e["severity"] == "error" for e in c["expected"]):
                invalid += 1
            else:
                valid += 1
    print(runs, valid, invalid, skipped)


def get(path, key):
    with open(path) as f:
        v = json.load(f)
    for k in key.split("."):
        v = v[int(k)] if isinstance(v, list) else v[k]
    print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)


def schema(schema_path, reports):
    import jsonschema
    with open(schema_path) as f:
        s = json.load(f)
    jsonschema.Draft202012Validator.check_schema(s)
    v = jsonschema.Draft202012Validator(s)
    bad = 0
    for r in reports:
        with open(r) as f:
            doc = json.load(f)
        for e in sorted(v.iter_errors(doc), key=lambda e: list(e.path)):
            print(f"{r}: {'/'.join(map(str, e.path))}: {e.message}")
            bad += 1
    sys.exit(1 if bad else 0)


def lenient(path):
    with open(path) as f:
        doc = json.load(f)
    bad = [c["file"] for c in doc["cases"] if c["verdict"] == "too_lenient"
           and (c["missed_errors"] != c["expected_errors"] or not c["missed_errors"])]
    if bad:
        sys.exit(f"missed_errors differ from expected_errors: {bad[:5]}")


def junit(path):
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", root.tag
    cases = root.findall("./testsuite/testcase")
    counts = [len(cases)] + [sum(1 for c in cases if c.find(t) is not None)
                             for t in ("failure", "error", "skipped")]
    assert int(root.get("tests")) == counts[0]
    assert int(root.get("failures")) == counts[1], (root.get("failures"), counts)
    print(*counts)


class Page(HTMLParser):
    VOID = {"meta", "br", "link", "img", "hr", "input"}

    def __init__(self):
        super().__init__()
        self.stack, self.problems, self.failing = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "link", "img", "iframe"):
            self.problems.append(f"<{tag}> in a self-contained page")
        for k, v in attrs:
            if k in ("src", "href") or (v and "url(" in v):
                self.problems.append(f"external reference {k}={v}")
            if k == "class" and v == "case":
                self.failing += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(f"misnested </{tag}>")


def html(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p.feed(text)
    if "url(" in text or "@import" in text:
        p.problems.append("external reference in CSS")
    if p.stack:
        p.problems.append(f"unclosed {p.stack}")
    if p.problems:
        sys.exit("; ".join(p.problems))
    print(p.failing)


def layout(path, fmt, name):
    with open(path) as f:
        cases = [c for c in json.load(f)["cases"] if c["format"] == fmt and c["layout"] == name]
    bad = [f"{c['file']}: {c['verdict']}" for c in cases if c["verdict"] != "conforming"]
    if not cases or bad:
        sys.exit(f"{path}: {len(cases)} {fmt} {name} cases; not conforming: {bad}")
    print(len(cases))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    commands = {"expect": expect, "get": get, "lenient": lenient, "junit": junit, "html": html, "layout": layout,
                "schema": lambda s, *reports: schema(s, reports)}
    if cmd not in commands:
        sys.exit(__doc__)
    commands[cmd](*args)


if __name__ == "__main__":
    main()
