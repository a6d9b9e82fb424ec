#!/usr/bin/python3
"""modelcheck inspect on files a real writer made (issue 27).

usage: check_refimpl_outputs.py MODELCHECK SCHEMA SCENES_DIR GOLDEN_DIR FILE...
Each FILE is a writer's output of the scene SCENES_DIR/<stem>.gltf (run by
refimpl_outputs.sh). For each: `inspect --output json` validates against the
schema and says the file is valid; the meshes' triangles, the bones and the
most influences on a vertex equal the scene's facts (<stem>.facts.json: what
the scene holds, which the writer kept: these scenes are the ones its
certificate finds conforming); the text view names the file, says it is
valid, has the sections and meshes tables with those counts, and a
skeleton of that many bones; --at on the first and last record of every
array names that record's path, and --at 0 the header. A file with a
golden text in GOLDEN_DIR (<stem>.txt: inspect and --at 0 of the file by
its base name) must equal it byte for byte; MC_GOLDEN_UPDATE=1 rewrites
those goldens.
"""
import json
import os
import re
import subprocess
import sys

import jsonschema


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    if p.returncode != 0:
        sys.exit(f"FAIL {' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8")


def nodes(n, path=""):
    """(path, node) of the tree, depth first; a node's path is its parent's
    and its name (an empty name adds nothing)."""
    here = path + ("/" + n["name"] if n["name"] else "")
    yield here, n
    for c in n.get("children", []):
        yield from nodes(c, here)


def check_golden(mc, golden, path, stem, problems):
    want = os.path.join(golden, stem + ".txt")
    if not os.path.exists(want) and os.environ.get("MC_GOLDEN_UPDATE") != "1":
        return
    got = ""
    for at in ([], ["--at", "0"]):
        p = subprocess.run([mc, "inspect"] + at + [os.path.basename(path)], capture_output=True,
                           cwd=os.path.dirname(path) or ".")
        got += p.stdout.decode("utf-8")
    if os.environ.get("MC_GOLDEN_UPDATE") == "1":
        if os.path.exists(want) or stem == "skin_1_to_4":
            os.makedirs(golden, exist_ok=True)
            with open(want, "w") as f:
                f.write(got)
        return
    with open(want) as f:
        if f.read() != got:
            problems.append(f"{stem}: inspect differs from {want}:\n{got}")


def check_file(mc, validator, scenes, golden, path, problems):
    stem = os.path.splitext(os.path.basename(path))[0]
    check_golden(mc, golden, path, stem, problems)
    with open(os.path.join(scenes, stem + ".facts.json")) as f:
        facts = json.load(f)
    doc = json.loads(run([mc, "inspect", "--output", "json", path]))
    for e in validator.iter_errors(doc):
        problems.append(f"{stem}: schema: {e.message} at {list(e.absolute_path)}")
    ins = doc["files"][0]
    if not ins["valid"] or ins["errors"] != 0:
        problems.append(f"{stem}: inspect says invalid ({ins['errors']} errors)")
    tree = list(nodes(ins["structure"]))
    meshes = [n for _, n in tree if n["kind"] == "mesh"]
    triangles = sum(m.get("attributes", {}).get("triangles", 0) for m in meshes)
    most = max([m.get("attributes", {}).get("influences_max", 0) for m in meshes] + [0])
    bones = len(facts["bones"])
    want = (facts["triangle_count"], facts["max_influences"])
    if (triangles, most) != want or not meshes:
        problems.append(f"{stem}: {len(meshes)} meshes, {triangles} triangles, at most {most} "
                        f"influences; the scene has {want[0]} triangles, at most {want[1]}")
    for m in meshes:
        a = m.get("attributes", {})
        if "bbox_min" not in a or a.get("degenerate_triangles") != 0:
            problems.append(f"{stem}: mesh {m['name']}: no box or degenerate triangles: {a}")

    text = run([mc, "inspect", path])
    head = f"{path}: {ins['format']} ({ins['layout']}), {ins['size']} bytes: valid (0 errors"
    if not text.startswith(head):
        problems.append(f"{stem}: text starts {text.splitlines()[0]!r}, expected {head!r}...")
    for table in ("  sections:\n    path", "  meshes:\n"):
        if table not in text:
            problems.append(f"{stem}: text has no {table.split(':')[0].strip()} table")
    shown = re.findall(r" triangles=(\d+)", text)
    if sum(int(t) for t in shown) != facts["triangle_count"]:
        problems.append(f"{stem}: text shows triangles {shown}, the scene has {facts['triangle_count']}")
    skeleton = re.search(r"\n  skeleton \((\d+) bones?\):\n", text)
    if (int(skeleton.group(1)) if skeleton else 0) != bones:
        problems.append(f"{stem}: text shows {skeleton.group(0).strip() if skeleton else 'no skeleton'}, "
                        f"the scene has {bones} bones")

    # --at: the header's first byte, the first and last record of each array
    want_at = [(0, "/header")]
    for p, n in tree:
        if n["kind"] == "array" and n.get("count", 0) > 0 and n.get("stride", 0) > 0 and n["space"] == 0:
            for i in sorted({0, n["count"] - 1}):
                want_at.append((n["offset"] + i * n["stride"], f"{p}/{i}"))
    args = [mc, "inspect", path]
    for off, _ in want_at:
        args += ["--at", hex(off)]
    got = re.findall(r"^  path:   (\S+)$", run(args), re.M)
    if len(got) != len(want_at):
        problems.append(f"{stem}: --at printed {len(got)} paths for {len(want_at)} offsets")
    for (off, want), g in zip(want_at, got):
        if g != want and not g.startswith(want + "/"):
            problems.append(f"{stem}: --at {hex(off)} names {g}, expected {want} or inside it")
    return len(want_at)


def main():
    mc, schema_path, scenes, golden = sys.argv[1:5]
    files = sys.argv[5:]
    with open(schema_path) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    ats = sum(check_file(mc, validator, scenes, golden, p, problems) for p in files)
    for p in problems[:60]:
        print("FAIL", p)
    names = ", ".join(os.path.basename(p) for p in files)
    print(f"{len(files)} files ({names}), {ats} --at offsets, {len(problems)} problems")
    sys.exit(1 if problems or not files else 0)


main()
