#!/usr/bin/env python3
"""A strict E3D block-tree reader for the `modelcheck fuzz` test of
structural minimisation (tests/fuzz/fuzz_test.sh), with one planted bug:
a triFaces16 block inside a mesh raises an unhandled RuntimeError (a
Python traceback, exit 1).

Everything else must be framed exactly: the version block first, every
block at least its 6-byte header, the blocks of a container tiling it to
the byte and the top-level blocks tiling the file. Anything else is refused
with one line and exit 1. So a cut of bytes almost never keeps the crash,
while a cut of whole blocks (their parents re-framed) does: the minimised
reproducer must be the version block and the path down to the triFaces16.

  e3d_reader.py FILE          load FILE (as a loader command)
  e3d_reader.py --tree FILE   print the block tree, one type per line
"""
import struct
import sys

CONTAINERS = {0x1000: "meshes", 0x1010: "mesh", 0x3000: "nodes"}
TRI_FACES16 = 0x1030


def refuse(why):
    print("e3d_reader: %s" % why, file=sys.stderr)
    sys.exit(1)


def walk(data, start, end, parent, depth, out):
    pos = start
    while pos < end:
        if end - pos < 6:
            refuse("%d bytes left at %d, no block header" % (end - pos, pos))
        kind, size = struct.unpack_from("<HI", data, pos)
        if size < 6 or size > end - pos:
            refuse("block 0x%04x at %d: size %d does not fit" % (kind, pos, size))
        out.append("  " * depth + "0x%04x" % kind)
        if kind == TRI_FACES16 and parent == 0x1010:
            raise RuntimeError("planted: triFaces16 at %d" % pos)
        if kind in CONTAINERS:
            walk(data, pos + 6, pos + size, kind, depth + 1, out)
        pos += size


def main():
    tree = sys.argv[1] == "--tree"
    data = open(sys.argv[-1], "rb").read()
    if data[:6] != b"\x01\x00\x0c\x00\x00\x00":
        refuse("no version block")
    out = []
    try:
        walk(data, 0, len(data), None, 0, out)
    except RuntimeError:
        if not tree:
            raise
    print("\n".join(out) if tree else "e3d_reader: %d blocks" % len(out))


main()
