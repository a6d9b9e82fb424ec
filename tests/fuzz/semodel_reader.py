#!/usr/bin/env python3
"""A small SEModel header reader for the `modelcheck fuzz` test, with two
planted bugs the campaign must find (tests/fuzz/fuzz_test.sh):

- a crash: the mesh presence flags index a table of the 16 combinations of
  its four known bits, so a byte with a higher bit raises an unhandled
  IndexError (a Python traceback, exit 1);
- a hang: the vertex data is skimmed in strides made of the attributes the
  mesh presence flags announce, so a file with meshes and flags 0 never
  advances.

Everything else it cannot read is refused with one line and exit 1, and
the rest accepted with exit 0, as a loader command does for certify.
"""
import struct
import sys

MAGIC = b"SEModel"
HEADER = 29  # magic, version, headerSize, three flag bytes, three counts, 3 reserved bytes
MESH_KINDS = ["mesh flags %d" % i for i in range(16)]


def refuse(why):
    print("semodel_reader: %s" % why, file=sys.stderr)
    sys.exit(1)


def vertex_stride(flags):
    # position, UV layer, normal, colour: the 2018 layout's attribute sizes
    return 12 * (flags & 1) + 8 * (flags >> 1 & 1) + 12 * (flags >> 2 & 1) + 4 * (flags >> 3 & 1)


def skim_vertices(data, pos, stride):
    while pos < len(data):
        pos += stride  # planted: a stride of 0 never ends


def mesh_kind(flags):
    return MESH_KINDS[flags]  # planted: flags above 15 raise IndexError


def read(data):
    if len(data) < HEADER or data[:7] != MAGIC:
        refuse("not an SEModel file")
    version, header_size = struct.unpack_from("<HH", data, 7)
    if version != 1:
        refuse("unsupported version %d" % version)
    if header_size != 20:
        refuse("unsupported header size %d" % header_size)
    data_flags, mesh_flags = data[11], data[13]
    mesh_kind(mesh_flags)
    bones, meshes, materials = struct.unpack_from("<III", data, 14)
    if bones > len(data) or meshes > len(data) or materials > len(data):
        refuse("counts larger than the file")
    if data_flags & 2 and meshes:
        skim_vertices(data, HEADER, vertex_stride(mesh_flags))


def main():
    with open(sys.argv[1], "rb") as f:
        read(f.read())


main()
