#!/usr/bin/env python3
"""Every dependency between the project's folders points one way (README, Tree):
validator/ (the library) < reports/ < conformance/ < cli/. A source file may
include headers of its own layer and of the layers below, never above; fuzz/
and tests/ sit on top and may use everything. The check reads the #include
lines of every C source and the target_link_libraries lines of every
CMakeLists.txt; it prints each edge that points up and fails on any."""
import os
import re
import sys

LAYERS = ["validator", "reports", "conformance", "cli"]
root = sys.argv[1]


def layer_of(rel):
    top = rel.split(os.sep, 1)[0]
    return LAYERS.index(top) if top in LAYERS else None


headers = {}   # header name -> layers that hold one of that name
targets = {}   # CMake target -> layer that defines it
sources = []
for top in LAYERS:
    for d, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), root)
            if f.endswith(".h"):
                headers.setdefault(f, set()).add(layer_of(rel))
            if f.endswith((".c", ".h")):
                sources.append(rel)
            if f == "CMakeLists.txt":
                text = open(os.path.join(root, rel)).read()
                for m in re.finditer(r"add_(?:library|executable)\((\w+)", text):
                    targets[m.group(1)] = layer_of(rel)

bad = []
for rel in sources:
    mine = layer_of(rel)
    for n, line in enumerate(open(os.path.join(root, rel), errors="replace"), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        name = os.path.basename(m.group(1))
        found = headers.get(name)
        if found and min(found) > mine:
            bad.append(f"{rel}:{n}: includes {name} from {LAYERS[min(found)]}/ "
                       f"(a {LAYERS[mine]}/ file may not depend on a layer above it)")
for top in LAYERS:
    for d, _, files in os.walk(os.path.join(root, top)):
        if "CMakeLists.txt" not in files:
            continue
        rel = os.path.relpath(os.path.join(d, "CMakeLists.txt"), root)
        mine = layer_of(rel)
        text = open(os.path.join(root, rel)).read()
        for m in re.finditer(r"target_link_libraries\((\w+)([^)]*)\)", text):
            for dep in m.group(2).split():
                if dep in targets and targets[dep] > mine:
                    bad.append(f"{rel}: {m.group(1)} links {dep} from {LAYERS[targets[dep]]}/")

for b in bad:
    print(b)
print(f"layers: {len(sources)} sources checked, {len(bad)} upward dependencies")
sys.exit(1 if bad else 0)
