#!/usr/bin/python3
"""UnnamedHB1's tools/amf2gltf.py and tools/amf2obj.py run on AMF meshes.

  amf_tools.py SRC CORPUS OUT

Those tools convert standalone AMF files, which the corpus does not have, so
`certify` has no cases for them. Legacy AAMF embeds the same AMF layout in
every bone block (aamf.md, Legacy AAMF: u16 bone_count, u16 anim_count, the
4-byte bone rows, then per bone a u32 block_size that counts itself and the
AMF after it), so this splits each legacy file of CORPUS (as the manifest
names them) at its bone blocks, keeps the distinct blocks in OUT, and runs
each through both tools the way their main() is run: amf2gltf.py to .glb and
to .gltf, amf2obj.py to .obj, from the pinned source SRC (never copied here).
Each run: 10 s, address space capped (MC_REFIMPL_AS_MB, default 2048). A
block that runs past its file is cut at the file's end, as a reader would
find it.

Prints one line per block and command (converted, exception NAME, hang,
crash SIGNAL), then a table per command. Exit 0 when it ran, whatever the
tools did.
"""
import hashlib
import json
import os
import resource
import signal
import struct
import subprocess
import sys

COMMANDS = (("amf2gltf.py to .glb", "amf2gltf.py", ".glb"),
            ("amf2gltf.py to .gltf", "amf2gltf.py", ".gltf"),
            ("amf2obj.py", "amf2obj.py", ".obj"))


def bone_blocks(data):
    """The embedded AMF of each bone block, cut at the file's end."""
    if len(data) < 4:
        return []
    bones = struct.unpack_from("<H", data, 0)[0]
    pos = 4 + 4 * bones
    blocks = []
    for _ in range(bones):
        if pos + 4 > len(data):
            break
        size = struct.unpack_from("<I", data, pos)[0]
        if size < 4:  # counts itself: a smaller one cannot be followed
            break
        blocks.append(data[pos + 4:min(pos + size, len(data))])
        pos += size
    return blocks


def limit_memory():
    mb = int(os.environ.get("MC_REFIMPL_AS_MB", "2048"))
    resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))


def run_tool(tool, src, out):
    try:
        p = subprocess.run([sys.executable, "-B", tool, src, out], capture_output=True,
                           timeout=10, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return "hang"
    if p.returncode < 0:
        return "crash " + signal.Signals(-p.returncode).name
    if p.returncode != 0 or b"Traceback" in p.stderr:
        lines = p.stderr.decode("utf-8", "replace").strip().splitlines()
        return "exception " + (lines[-1].split(":")[0] if lines else "exit %d" % p.returncode)
    return "converted"


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: amf_tools.py SRC CORPUS OUT")
    src, corpus, out = sys.argv[1:]
    with open(os.path.join(corpus, "manifest.json"), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    files = sorted(c["file"] for c in cases if c.get("format") == "aamf" and c.get("layout") == "legacy")
    os.makedirs(out, exist_ok=True)
    seen = {}  # digest -> first file holding the block
    nblocks = 0
    for name in files:
        with open(os.path.join(corpus, name), "rb") as f:
            for block in bone_blocks(f.read()):
                nblocks += 1
                seen.setdefault(hashlib.sha256(block).hexdigest(), (name, block))
    print("amf_tools: %d legacy files, %d bone blocks, %d distinct" % (len(files), nblocks, len(seen)))
    tally = {label: {} for label, _, _ in COMMANDS}
    for digest, (name, block) in sorted(seen.items(), key=lambda kv: (kv[1][0], kv[0])):
        path = os.path.join(out, digest[:16] + ".amf")
        with open(path, "wb") as f:
            f.write(block)
        for label, tool, ext in COMMANDS:
            got = run_tool(os.path.join(src, "tools", tool), path, path + ext)
            kind = got.split()[0]
            tally[label][kind] = tally[label].get(kind, 0) + 1
            print("%s\t%s (%d bytes, from %s)\t%s" % (label, digest[:16], len(block), name, got))
    print("\n| command | converted | exception | hang | crash |\n|---|---:|---:|---:|---:|")
    for label, _, _ in COMMANDS:
        t = tally[label]
        print("| `%s` | %d | %d | %d | %d |" % (label, t.get("converted", 0), t.get("exception", 0),
                                               t.get("hang", 0), t.get("crash", 0)))


if __name__ == "__main__":
    main()
