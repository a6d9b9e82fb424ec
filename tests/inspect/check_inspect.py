#!/usr/bin/python3
"""modelcheck inspect on every corpus file (issue 27).

usage: check_inspect.py MODELCHECK SCHEMA CORPUS_DIR
`inspect --output json` of every file (one run) validates against the
schema, in the file order given, and names the same format and error count
as validation (one run). That --at names each issue's path is checked in one
process by mc_inspect_at_paths (tests/inspect/at_paths.c), and the --at
output itself by the golden outputs (tests/inspect/golden.sh).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL {cmd}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8")


def lzma_blocks(node):
    """(file offset, decoded children) of every LZMA block of an inspect tree."""
    if node["kind"] == "lzma":
        yield node["offset"], node["children"]
    for c in node.get("children", []):
        yield from lzma_blocks(c)


def check_extract(mc, corpus, docs, files):
    """--extract-block writes the decoded bytes of a block: as many as its
    decoded children span, each child's section type (u16) at its offset;
    without -O, or at an offset that is no block, a usage error (2)."""
    problems = []
    target = os.path.join(corpus, "e3d", "valid", "cube3_spec_lzma_444.e3d")
    doc = docs[files.index(target)] if target in files else None
    blocks = list(lzma_blocks(doc["structure"])) if doc else []
    if len(blocks) != 1:
        return [f"{target}: one LZMA block expected in inspect's tree, found {len(blocks)}"]
    offset, children = blocks[0]
    out = tempfile.mkdtemp(prefix="mc_extract_")
    try:
        dest = os.path.join(out, "block.bin")
        for spec in (hex(offset), f"/lzma@{hex(offset)}"):
            p = subprocess.run([mc, "inspect", target, "--extract-block", spec, "-O", dest], capture_output=True)
            if p.returncode != 0 or not os.path.exists(dest):
                problems.append(f"--extract-block {spec}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
                continue
            data = open(dest, "rb").read()
            end = max(c["offset"] + c["size"] for c in children)
            if len(data) != end:
                problems.append(f"--extract-block {spec}: {len(data)} bytes, expected {end}")
            for c in children:
                found = int.from_bytes(data[c["offset"]:c["offset"] + 2], "little")
                if found != c["attributes"]["type"]:
                    problems.append(f"--extract-block {spec}: type {found:#x} at {c['offset']}, "
                                    f"expected {c['attributes']['type']:#x}")
            os.unlink(dest)
        for args, why in (([hex(offset)], "no -O"), (["0x0", "-O", dest], "not a block")):
            p = subprocess.run([mc, "inspect", target, "--extract-block"] + args, capture_output=True)
            if p.returncode != 2 or os.path.exists(dest):
                problems.append(f"--extract-block ({why}): exit {p.returncode}, expected 2 and no file")
    finally:
        shutil.rmtree(out)
    return problems


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
    problems = []
    docs = json.loads(run([mc, "inspect", "--output", "json"] + files))["files"]
    reports = json.loads(run([mc, "--output", "json", "--no-config", "--no-sha256"] + files))["files"]
    if len(docs) != len(files) or len(reports) != len(files):
        sys.exit("FAIL one inspect and one validation report per file expected")
    for path, ins, report in zip(files, docs, reports):
        for e in validator.iter_errors({"tool": {"name": "modelcheck", "version": "x"}, "files": [ins]}):
            problems.append(f"{path}: schema: {e.message} at {list(e.absolute_path)}")
        errors = sum(i["count"] for i in report["issues"] if i["severity"] == "error")
        if ins["path"] != path or ins["errors"] != errors or ins["format"] != report["format"]:
            problems.append(f"{path}: inspect says {ins['format']}, {ins['errors']} errors; "
                            f"validation {report['format']}, {errors}")
    problems += check_extract(mc, corpus, docs, files)
    for p in problems[:60]:
        print(p)
    print(f"{len(files)} files, {len(problems)} problems")
    sys.exit(1 if problems else 0)


main()
