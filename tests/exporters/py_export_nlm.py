#!/usr/bin/env python3
"""py_export_nlm.py SCENE.gltf: a small glTF-to-NLM exporter in Python, the
way a new user's converter looks (ctest exporter_certify runs it through
`modelcheck certify --exporter 'python3 py_export_nlm.py {in}'
--output-name '{stem}.nlm'`): it picks its own output name, <stem>.nlm in
the working directory, beside its input.

Static triangle meshes only (node transforms baked, normals, UVs and the RGB
of COLOR_0 kept: NLM has no alpha; white without COLOR_0);
a skinned, animated or empty scene is refused with exit 1. Test code, not
part of modelcheck.
"""
import base64
import json
import math
import os
import struct
import sys

COMPONENTS = {5121: "B", 5123: "H", 5125: "I", 5126: "f"}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def refuse(why):
    print(f"py_export_nlm: refused: {why}", file=sys.stderr)
    sys.exit(1)


def load(path):
    doc = json.load(open(path, encoding="utf-8"))
    buffers = []
    for b in doc.get("buffers", []):
        uri = b.get("uri", "")
        if uri.startswith("data:"):
            buffers.append(base64.b64decode(uri.split(",", 1)[1]))
        else:
            buffers.append(open(os.path.join(os.path.dirname(path), uri), "rb").read())
    return doc, buffers


def read(doc, buffers, index):
    """The accessor's elements as tuples."""
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    fmt, n = COMPONENTS[acc["componentType"]], WIDTH[acc["type"]]
    size = struct.calcsize("<" + fmt * n)
    stride = view.get("byteStride", size)
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    data = buffers[view["buffer"]]
    return [struct.unpack_from("<" + fmt * n, data, start + i * stride) for i in range(acc["count"])]


def local_matrix(node):
    """Column-major 4x4 as a list of 16."""
    if "matrix" in node:
        return list(node["matrix"])
    x, y, z, w = node.get("rotation", (0, 0, 0, 1))
    sx, sy, sz = node.get("scale", (1, 1, 1))
    tx, ty, tz = node.get("translation", (0, 0, 0))
    return [(1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
            2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
            2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
            tx, ty, tz, 1]


def mul(a, b):
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]


def point(m, p):
    return tuple(m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] for r in range(3))


def normal(m, n):
    """By the inverse transpose (cofactors of the 3x3), renormalised."""
    a = [[m[c * 4 + r] for c in range(3)] for r in range(3)]
    cof = [[a[(r + 1) % 3][(c + 1) % 3] * a[(r + 2) % 3][(c + 2) % 3] -
            a[(r + 1) % 3][(c + 2) % 3] * a[(r + 2) % 3][(c + 1) % 3] for c in range(3)] for r in range(3)]
    det = sum(a[0][c] * cof[0][c] for c in range(3))
    v = [sum(cof[r][c] * n[c] for c in range(3)) * (1 if det >= 0 else -1) for r in range(3)]
    length = math.sqrt(sum(x * x for x in v)) or 1
    return tuple(x / length for x in v), det < 0


def meshes(doc, buffers):
    """(vertices, indices) per primitive, in world space."""
    out = []
    scene = doc.get("scenes", [{}])[doc.get("scene", 0)] if doc.get("scenes") else {}
    stack = [(n, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) for n in scene.get("nodes", [])]
    while stack:
        index, parent = stack.pop()
        node = doc["nodes"][index]
        world = mul(parent, local_matrix(node))
        stack.extend((c, world) for c in node.get("children", []))
        for prim in doc["meshes"][node["mesh"]]["primitives"] if "mesh" in node else []:
            if prim.get("mode", 4) != 4:
                continue
            attrs = prim["attributes"]
            pos = read(doc, buffers, attrs["POSITION"])
            nrm = read(doc, buffers, attrs["NORMAL"]) if "NORMAL" in attrs else [(0, 0, 0)] * len(pos)
            uv = read(doc, buffers, attrs["TEXCOORD_0"]) if "TEXCOORD_0" in attrs else [(0, 0)] * len(pos)
            col = read(doc, buffers, attrs["COLOR_0"]) if "COLOR_0" in attrs else [(1, 1, 1)] * len(pos)
            idx = [i[0] for i in read(doc, buffers, prim["indices"])] if "indices" in prim else list(range(len(pos)))
            verts, mirrored = [], False
            for p, n, t, c in zip(pos, nrm, uv, col):
                wn, mirrored = normal(world, n)
                verts.append((point(world, p), wn if any(n) else (0, 0, 0), t, c[:3]))
            tris = [idx[i:i + 3] for i in range(0, len(idx) - 2, 3)]
            if mirrored:  # a negative scale turns the winding: keep it front facing
                tris = [(a, c, b) for a, b, c in tris]
            out.append((verts, [i for t in tris for i in t]))
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: py_export_nlm.py SCENE.gltf", file=sys.stderr)
        return 2
    doc, buffers = load(sys.argv[1])
    if doc.get("skins") or doc.get("animations"):
        refuse("this exporter writes static meshes only")
    parts = meshes(doc, buffers)
    if not parts:
        refuse("the scene holds no triangles")
    allpos = [v[0] for verts, _ in parts for v in verts]
    lo = [min(p[k] for p in allpos) for k in range(3)]
    hi = [max(p[k] for p in allpos) for k in range(3)]
    # the magic is the u32 'MODL' (0x4D4F444C), which is "LDOM" on disk
    out = bytearray(struct.pack("<IIII", 0, 0x4D4F444C, 2, 0))
    out += struct.pack("<6f", *lo, *hi)
    out += struct.pack("<I", len(parts))
    for verts, idx in parts:
        out += struct.pack("<II", len(verts), len(idx))
        for p, n, t, c in verts:
            out += struct.pack("<3f3f3f2f4i4f", *p, *c, *n, *t, -1, -1, -1, -1, 0, 0, 0, 0)
        out += struct.pack(f"<{len(idx)}I", *idx)
        out += struct.pack("<I", 0)  # no embedded texture
    stem = os.path.splitext(os.path.basename(sys.argv[1]))[0]
    with open(stem + ".nlm", "wb") as f:  # relative: the working directory, beside the input
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
