#!/usr/bin/env python3
"""Raw facts of files in the current upstream AEM layout (the "Specification"
of janhsimon/aem's readme at 42bd501, docs/REFERENCE-LOADERS.md): what each
header says, whether the sections add up to the file size, and each readme
rule a file breaks, with the first place it does and how often. A look at the
upstream converter's outputs, independent of modelcheck's validator; not a
validator (no limits, no folding beyond counts).

    aem2025_facts.py FILE...      one block per file
"""
import math
import struct
import sys

HEADER = 52  # on disk: the readme's table ends at 48, libaem writes 4 bytes of padding
SIZES = dict(vertex=88, index=4, texture=32, mesh=12, material=16, joint=196,
             animation=132, track=16, keyframe=20)
COUNTS = ["vertex", "index", "image", "texture", "mesh", "material", "joint",
          "animation", "track", "keyframe"]


class Facts:
    def __init__(self):
        self.rules = {}

    def broke(self, rule, where):
        first, n = self.rules.get(rule, (where, 0))
        self.rules[rule] = (first, n + 1)


def name_facts(f, raw, where, what):
    nul = raw.find(b"\0")
    if nul < 0:
        f.broke(f"{what} name has no NUL within 128 bytes", where)
        return
    if any(raw[nul + 1:]):
        f.broke(f"{what} name: non-zero bytes after its NUL (not a rule: the writer's memory)", where)
    try:
        raw[:nul].decode("utf-8")
    except UnicodeDecodeError:
        f.broke(f"{what} name is not UTF-8", where)


def mip_chain_bytes(w, h, channels, compression):
    total, level = 0, 0
    while True:
        lw, lh = max(1, w >> level), max(1, h >> level)
        if compression == 0:
            total += lw * lh * channels
        else:
            total += ((lw + 3) // 4) * ((lh + 3) // 4) * 16
        if lw == 1 and lh == 1:
            return total
        level += 1


def facts(path):
    data = open(path, "rb").read()
    f = Facts()
    out = [f"{path}: {len(data)} bytes"]
    if len(data) < HEADER or data[:3] != b"AEM":
        out.append("  not an AEM file of this layout (short, or no magic)")
        return out
    vc, ic, image, tc, mc, matc, jc, ac, trc, kc, pad = struct.unpack_from("<IIQIIIIIIII", data, 4)
    counts = dict(zip(COUNTS, (vc, ic, image, tc, mc, matc, jc, ac, trc, kc)))
    out.append(f"  version {data[3]}; " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; padding {pad}")
    off, sections = HEADER, {}
    for k in COUNTS:
        n = counts[k] if k == "image" else counts[k] * SIZES[k]
        sections[k] = (off, n)
        off += n
    readme = off - 4
    out.append(f"  sections end at {off} (the readme's 48-byte header: {readme}); file {len(data)}: "
               + ("adds up" if off == len(data) else ("adds up with a 48-byte header" if readme == len(data) else "does NOT add up")))
    if off != len(data):
        return out
    if pad:
        f.broke("header padding not 0", 48)

    vo = sections["vertex"][0]
    for v in range(vc):
        o = vo + 88 * v
        joints = struct.unpack_from("<4i", data, o + 56)
        weights = struct.unpack_from("<4f", data, o + 72)
        used = 0
        for j, w in zip(joints, weights):
            if j == -1:
                if w != 0:
                    f.broke("joint index -1 with a non-zero weight", o + 56)
            elif j < 0 or j >= jc:
                f.broke("joint index out of range", o + 56)
            elif w == 0 and j == 0:
                f.broke("unused slot: joint index 0 with weight 0 (the readme says -1)", o + 56)
            else:
                used += 1
        s = sum(weights)
        if not math.isfinite(s) or (abs(s - 1) > 1e-3 and abs(s) > 1e-6):
            f.broke("weights sum to neither 1 nor 0", o + 72)
        if used == 0 and abs(s) > 1e-6:
            f.broke("weights without a joint", o + 72)
    io = sections["index"][0]
    for i in range(ic):
        if struct.unpack_from("<I", data, io + 4 * i)[0] >= vc:
            f.broke("index >= vertex count", io + 4 * i)
    to = sections["texture"][0]
    spans = []
    for t in range(tc):
        o = to + 32 * t
        toff, w, h, wx, wy, ch, comp = struct.unpack_from("<QIIIIII", data, o)
        if wx > 2 or wy > 2:
            f.broke("texture wrap mode not 0..2", o + 16)
        if comp > 2:
            f.broke("texture compression not 0..2", o + 28)
        if w == 0 or h == 0:
            f.broke("texture of width or height 0", o + 8)
            continue
        n = mip_chain_bytes(w, h, ch, comp)
        if toff + n > image:
            f.broke("texture MIP chain past the image buffer", o)
        spans.append((toff, toff + n))
        out.append(f"  texture {t}: {w}x{h}, {ch} channels, compression {comp}, wrap {wx}/{wy}, "
                   f"offset {toff}, MIP chain {n} bytes")
    covered = sum(b - a for a, b in sorted(set(spans)))
    if spans and covered < image:
        f.broke(f"image bytes no texture uses ({image - covered} of {image})", sections["image"][0])
    mo = sections["mesh"][0]
    for m in range(mc):
        first, count, mat = struct.unpack_from("<III", data, mo + 12 * m)
        if first + count > ic:
            f.broke("mesh index range past the index section", mo + 12 * m)
        if mat >= matc:
            f.broke("mesh material index out of range", mo + 12 * m + 8)
    ma = sections["material"][0]
    for m in range(matc):
        b, nrm, pbr, typ = struct.unpack_from("<IIII", data, ma + 16 * m)
        if max(b, nrm, pbr) >= tc:
            f.broke("material texture index >= texture count", ma + 16 * m)
        if typ > 1:
            f.broke("material type not 0/1", ma + 16 * m + 12)
    jo = sections["joint"][0]
    parents = []
    for j in range(jc):
        o = jo + 196 * j
        name_facts(f, data[o:o + 128], o, "joint")
        m = struct.unpack_from("<16f", data, o + 128)
        if not all(math.isfinite(x) for x in m):
            f.broke("inverse bind matrix not finite", o + 128)
        p = struct.unpack_from("<i", data, o + 192)[0]
        if p != -1 and not 0 <= p < jc:
            f.broke("parent joint index out of range", o + 192)
        elif p > j:
            f.broke("parent after its child (not a rule)", o + 192)
        parents.append(p)
    for j in range(jc):
        seen, p = set(), j
        while 0 <= p < jc and p not in seen:
            seen.add(p)
            p = parents[p]
        if p in seen:
            f.broke("parent chain with a cycle", jo + 196 * j + 192)
    ao = sections["animation"][0]
    durations = []
    for a in range(ac):
        o = ao + 132 * a
        name_facts(f, data[o:o + 128], o, "animation")
        d = struct.unpack_from("<f", data, o + 128)[0]
        if not (math.isfinite(d) and d > 0):
            f.broke("animation duration not finite and positive", o + 128)
        durations.append(d)
    if trc != jc * ac:
        f.broke(f"track count {trc} != joints x animations {jc * ac}", 40)
    tro, ko = sections["track"][0], sections["keyframe"][0]
    for t in range(min(trc, jc * ac)):
        o = tro + 16 * t
        first, nt, nr, ns = struct.unpack_from("<IIII", data, o)
        if first + nt + nr + ns > kc:
            f.broke("track keyframes past the keyframe section", o)
            continue
        d = durations[t // jc] if jc else 0
        for kind, start, n in (("T", first, nt), ("R", first + nt, nr), ("S", first + nt + nr, ns)):
            prev = None
            for k in range(start, start + n):
                time, x, y, z, w = struct.unpack_from("<5f", data, ko + 20 * k)
                if not math.isfinite(time) or time < 0 or time > d * (1 + 1e-6):
                    f.broke("key time not within [0, duration]", ko + 20 * k)
                if prev is not None and time <= prev:
                    f.broke("key times not increasing", ko + 20 * k)
                prev = time
                if kind in "TS" and w != 0:
                    f.broke("translation/scale key with W != 0", ko + 20 * k + 16)
                if kind == "R" and abs(math.sqrt(x * x + y * y + z * z + w * w) - 1) > 1e-3:
                    f.broke("rotation key not a unit quaternion", ko + 20 * k + 4)
    for rule, (first, n) in sorted(f.rules.items(), key=lambda r: r[1][0]):
        out.append(f"  {rule}: {n}x, first at byte {first}")
    if not f.rules:
        out.append("  no readme rule broken")
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for p in sys.argv[1:]:
        print("\n".join(facts(p)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
