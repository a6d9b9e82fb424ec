#!/usr/bin/python3
"""Exporter adapter for `modelcheck certify --exporter`: glTF 2.0 -> SEModel
through io_model_semodel's own writer, semodel.py (imported from its pinned
source, never copied here):

  semodel_export.py [SRC] IN OUT

SRC is the directory holding semodel.py (default: $MC_SEMODEL_SRC). IN is a
.gltf (data: URIs or files beside it) or .glb scene; OUT the .semodel written
by semodel.Model.save().

This script plays the role of the Blender add-on's exporter (export_semodel.py,
which needs bpy and is not in the snapshot): it builds the model with
semodel.py's classes as that exporter does from an armature and its meshes,
then lets semodel.py write it. It must not work around semodel.py: whatever
the file holds beyond what is built here is semodel.py's doing.

What it builds:
  - bones: every joint of every skin (one armature; a node that is a joint of
    two skins is one bone), parents before children; a bone's parent is its
    nearest ancestor node that is a joint. Global position and rotation are
    the joint's world transform in the rest pose (the nodes' TRS or matrix;
    the bundled scenes' inverse binds are its inverse), rotation with the
    scale taken out of the columns as Blender's Matrix.to_quaternion does;
    local position, rotation and scale decompose inverse(parent bone's
    world) * world, i.e. the node's own TRS when the parent node is the
    parent bone. Quaternions are (x, y, z, w), as semodel.py stores them.
  - meshes: one per triangle primitive of each mesh node of the scene (one
    material per SEModel mesh: the 2018 layout gives each UV layer one
    material reference). Vertices in world space; a skinned mesh's node
    transform is ignored (glTF 2.0 3.7.3.3: the joints place it) and its
    vertices are taken as stored, which is the bind pose. Only the vertices
    the triangles use are written. A world transform with a negative
    determinant reverses the winding, so faces keep facing out. Strips and
    fans become triangle lists.
  - per vertex: position, normal (inverse transpose, normalised), TEXCOORD_0
    as the one UV layer (glTF's top-left origin kept: the project's loaders
    read SEModel UVs that way), COLOR_0 as RGBA floats in [0, 1] (the form
    semodel.py's own reader produces), and the weights: every influence
    above 0 from all JOINTS_n/WEIGHTS_n sets, by bone index, largest first,
    divided by their sum (glTF weights should sum to 1; a renderer
    normalises anyway). SEModel's per-mesh influence count is a u8: beyond
    255 influences the smallest would be pruned and the rest renormalised
    (no bundled scene comes near; skin_8's 8 all fit).
  - materials: every glTF material, in order, as a simple material: its name
    (material<i> when it has none), the base colour texture's image as the
    diffuse map and the normal texture's as the normal map (the image's
    relative URI; an embedded image has no file: its name, else "").

What it drops or refuses, as an exporter must (SEModel cannot hold it):
  - line and point primitives are dropped (SEModel faces are triangles);
  - animations are dropped (SEModel has none);
  - a scene with neither a triangle nor a joint is refused (exit 1): there is
    nothing to write, and semodel.py would write a file with no data block;
  - an empty joint name is replaced by bone<index> (Blender has no unnamed
    bones; SEModel names are strings the importer uses as bone names).
Judgement calls: a primitive without NORMAL gets flat normals only when
another primitive of the scene has normals (SEModel's NORMALS flag is
file-wide, and semodel.py would write (0, 0, 0) for the rest); a scene
without any normal writes none. A primitive with a material but no UVs
cannot reference it (no UV layer to hang it on) and is written without.

Exit 0: written. An exception is a failure of the export (exit 1, the
exception on stderr), whether it comes from this script or from semodel.py.
"""
import base64
import json
import math
import os
import struct
import sys
import urllib.parse

COMPONENT = {5120: ('b', 1), 5121: ('B', 1), 5122: ('h', 2), 5123: ('H', 2), 5125: ('I', 4), 5126: ('f', 4)}
NORMALIZED_DIVISOR = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}
WIDTH = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT2': 4, 'MAT3': 9, 'MAT4': 16}
MAX_INFLUENCES = 255  # SEModel 2018: u8 maxSkinInfluence per mesh
IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]


# ---- glTF reading -------------------------------------------------------------------


def compact(tris):
    """Only the vertices the triangles use, in order of first use: their
    source indices, and the triangles renumbered to them."""
    used = {}
    for t in tris:
        for i in t:
            used.setdefault(i, len(used))
    return list(used), [tuple(used[i] for i in t) for t in tris]

def load_gltf(path):
    """The JSON document and its buffers (bytes) of a .gltf or .glb file."""
    with open(path, 'rb') as f:
        data = f.read()
    base = os.path.dirname(os.path.abspath(path))
    glb_bin = None
    if data[:4] == b'glTF':
        length = struct.unpack_from('<I', data, 8)[0]
        off, doc = 12, None
        while off + 8 <= length:
            size, kind = struct.unpack_from('<II', data, off)
            chunk = data[off + 8:off + 8 + size]
            if kind == 0x4E4F534A:
                doc = json.loads(chunk.decode('utf-8'))
            elif kind == 0x004E4942:
                glb_bin = chunk
            off += 8 + size
        if doc is None:
            raise ValueError('GLB without a JSON chunk')
    else:
        doc = json.loads(data.decode('utf-8'))
    buffers = []
    for i, b in enumerate(doc.get('buffers', [])):
        uri = b.get('uri')
        if uri is None:
            if i != 0 or glb_bin is None:
                raise ValueError(f'buffer {i} has no data')
            buffers.append(glb_bin)
        else:
            buffers.append(read_uri(base, uri))
    return doc, buffers


def read_uri(base, uri):
    if uri.startswith('data:'):
        head, _, payload = uri.partition(',')
        if not head.endswith(';base64'):
            return urllib.parse.unquote_to_bytes(payload)
        return base64.b64decode(payload)
    with open(os.path.join(base, urllib.parse.unquote(uri)), 'rb') as f:
        return f.read()


class Accessors:
    def __init__(self, doc, buffers):
        self.doc, self.buffers, self.cache = doc, buffers, {}

    def read(self, index):
        """The accessor's elements: a list of tuples (normalised integers as
        floats in [0, 1] or [-1, 1])."""
        if index in self.cache:
            return self.cache[index]
        acc = self.doc['accessors'][index]
        char, size = COMPONENT[acc['componentType']]
        width, count = WIDTH[acc['type']], acc['count']
        values = [(0,) * width] * count
        if 'bufferView' in acc:
            view = self.doc['bufferViews'][acc['bufferView']]
            data = self.buffers[view['buffer']]
            start = view.get('byteOffset', 0) + acc.get('byteOffset', 0)
            stride = view.get('byteStride') or size * width
            fmt = '<%d%s' % (width, char)
            values = [struct.unpack_from(fmt, data, start + i * stride) for i in range(count)]
        sparse = acc.get('sparse')
        if sparse:
            values = list(values)
            idx = sparse['indices']
            view = self.doc['bufferViews'][idx['bufferView']]
            ichar, isize = COMPONENT[idx['componentType']]
            at = view.get('byteOffset', 0) + idx.get('byteOffset', 0)
            where = struct.unpack_from('<%d%s' % (sparse['count'], ichar), self.buffers[view['buffer']], at)
            val = sparse['values']
            view = self.doc['bufferViews'][val['bufferView']]
            at = view.get('byteOffset', 0) + val.get('byteOffset', 0)
            for k, i in enumerate(where):
                values[i] = struct.unpack_from('<%d%s' % (width, char), self.buffers[view['buffer']],
                                               at + k * size * width)
        if acc.get('normalized') and char != 'f':
            d = NORMALIZED_DIVISOR[acc['componentType']]
            values = [tuple(max(v / d, -1.0) for v in e) for e in values]
        self.cache[index] = values
        return values


# ---- matrices (column-major 4x4, as glTF) ------------------------------------------

def mat_mul(a, b):
    out = [0.0] * 16
    for c in range(4):
        for r in range(4):
            out[c * 4 + r] = sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4))
    return out


def mat_trs(t, q, s):
    x, y, z, w = q
    rot = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
           2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
           2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    m = [0.0] * 16
    for c in range(3):
        for r in range(3):
            m[c * 4 + r] = rot[c * 3 + r] * s[c]
    m[12], m[13], m[14], m[15] = t[0], t[1], t[2], 1.0
    return m


def det3(m):
    return (m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
            + m[8] * (m[1] * m[6] - m[5] * m[2]))


def mat_invert(m):
    """Inverse of an affine matrix (last row 0 0 0 1)."""
    d = det3(m)
    if d == 0:
        raise ValueError('singular transform')
    a = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]]  # columns
    inv = [0.0] * 16
    # 3x3 inverse = adjugate / det (cofactors of the column-major 3x3)
    cof = [a[4] * a[8] - a[5] * a[7], a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
           a[5] * a[6] - a[3] * a[8], a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
           a[3] * a[7] - a[4] * a[6], a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3]]
    for c in range(3):
        for r in range(3):
            inv[c * 4 + r] = cof[c * 3 + r] / d
    for r in range(3):
        inv[12 + r] = -sum(inv[k * 4 + r] * m[12 + k] for k in range(3))
    inv[15] = 1.0
    return inv


def point(m, p):
    return tuple(m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] for r in range(3))


def direction(m, v):
    return tuple(m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] for r in range(3))


def normalised(v):
    length = math.sqrt(sum(c * c for c in v))
    return tuple(c / length for c in v) if length > 0 else None


def quat_of(cols):
    """Unit quaternion (x, y, z, w) of a 3x3 rotation given as 3 columns."""
    (m00, m10, m20), (m01, m11, m21), (m02, m12, m22) = cols
    tr = m00 + m11 + m22
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = ((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s)
    elif m00 > m11 and m00 > m22:
        s = math.sqrt(1.0 + m00 - m11 - m22) * 2
        q = (0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
    elif m11 > m22:
        s = math.sqrt(1.0 + m11 - m00 - m22) * 2
        q = ((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
    else:
        s = math.sqrt(1.0 + m22 - m00 - m11) * 2
        q = ((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)
    if q[3] < 0:
        q = tuple(-c for c in q)
    return normalised(q)


def decompose(m):
    """Translation, rotation (x, y, z, w) and scale of an affine matrix; a
    negative determinant is put on the x scale."""
    cols = [m[0:3], m[4:7], m[8:11]]
    scale = [math.sqrt(sum(c * c for c in col)) for col in cols]
    if det3(m) < 0:
        scale[0] = -scale[0]
    unit = [tuple(c / scale[k] for c in cols[k]) if scale[k] else (0.0, 0.0, 0.0) for k in range(3)]
    return (m[12], m[13], m[14]), quat_of(unit), tuple(scale)


# ---- the scene ----------------------------------------------------------------------

def local_matrix(node):
    if 'matrix' in node:
        return [float(v) for v in node['matrix']]
    return mat_trs(node.get('translation', (0, 0, 0)), node.get('rotation', (0, 0, 0, 1)),
                   node.get('scale', (1, 1, 1)))


class Scene:
    def __init__(self, doc):
        nodes = doc.get('nodes', [])
        self.doc, self.nodes = doc, nodes
        self.parent = [-1] * len(nodes)
        for i, n in enumerate(nodes):
            for c in n.get('children', []):
                self.parent[c] = i
        if doc.get('scenes'):
            roots = doc['scenes'][doc.get('scene', 0)].get('nodes', [])
        else:
            roots = [i for i in range(len(nodes)) if self.parent[i] < 0]
        self.world = [None] * len(nodes)
        self.order = []  # the scene's nodes, parents first
        stack = [(r, IDENTITY) for r in reversed(roots)]
        while stack:
            i, parent_world = stack.pop()
            self.world[i] = mat_mul(parent_world, local_matrix(nodes[i]))
            self.order.append(i)
            stack.extend((c, self.world[i]) for c in reversed(nodes[i].get('children', [])))


# ---- building the semodel.Model ----------------------------------------------------

def build_bones(semodel, scene):
    """semodel.Bone list, parents first; returns (bones, bone index of node)."""
    joints = []
    for skin in scene.doc.get('skins', []):
        for j in skin['joints']:
            if j not in joints and scene.world[j] is not None:
                joints.append(j)
    joint_set = set(joints)
    # parents first: the scene's depth-first order restricted to joints
    ordered = [i for i in scene.order if i in joint_set]
    bone_of = {n: b for b, n in enumerate(ordered)}
    taken = {scene.nodes[n].get('name', '') for n in ordered}
    bones = []
    for b, n in enumerate(ordered):
        bone = semodel.Bone()
        name = scene.nodes[n].get('name', '')
        if not name:
            name = f'bone{b}'
            while name in taken:
                name += '_'
            taken.add(name)
        bone.name = name
        p = scene.parent[n]
        while p >= 0 and p not in bone_of:
            p = scene.parent[p]
        bone.boneParent = bone_of[p] if p >= 0 else -1
        world = scene.world[n]
        gpos, grot, _ = decompose(world)
        rel = mat_mul(mat_invert(scene.world[p]), world) if p >= 0 else world
        lpos, lrot, lscale = decompose(rel)
        bone.globalPosition, bone.globalRotation = gpos, grot
        bone.localPosition, bone.localRotation, bone.scale = lpos, lrot, lscale
        bones.append(bone)
    return bones, bone_of


def triangles(prim, count):
    """Index triples of a triangle list, strip or fan primitive."""
    mode = prim.get('mode', 4)
    if mode == 4:
        return [(k, k + 1, k + 2) for k in range(0, count - 2, 3)]
    if mode == 5:
        return [(k, k + 1, k + 2) if k % 2 == 0 else (k + 1, k, k + 2) for k in range(count - 2)]
    if mode == 6:
        return [(0, k, k + 1) for k in range(1, count - 1)]
    return []  # points (0) and lines (1, 2, 3): SEModel has no such faces: dropped


def influences(prim, acc, skin, bone_of):
    """Per vertex, [(bone, weight)] largest first, normalised; None unskinned."""
    sets, k = [], 0
    while f'JOINTS_{k}' in prim['attributes'] and f'WEIGHTS_{k}' in prim['attributes']:
        sets.append((acc.read(prim['attributes'][f'JOINTS_{k}']), acc.read(prim['attributes'][f'WEIGHTS_{k}'])))
        k += 1
    if not sets:
        return None
    out = []
    for v in range(len(sets[0][0])):
        inf = {}
        for joints, weights in sets:
            for j, w in zip(joints[v], weights[v]):
                if w > 0:
                    bone = bone_of[skin['joints'][j]]
                    inf[bone] = inf.get(bone, 0.0) + w
        pairs = sorted(inf.items(), key=lambda bw: -bw[1])[:MAX_INFLUENCES]
        total = sum(w for _, w in pairs)
        out.append([(b, w / total) for b, w in pairs] if total > 0 else [])
    return out


def flat_normals(positions, faces):
    normals = [None] * len(positions)
    for a, b, c in faces:
        pa, pb, pc = positions[a], positions[b], positions[c]
        u = [pb[k] - pa[k] for k in range(3)]
        w = [pc[k] - pa[k] for k in range(3)]
        n = normalised((u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]))
        for i in (a, b, c):
            if normals[i] is None and n is not None:
                normals[i] = n
    return [n or (0.0, 0.0, 1.0) for n in normals]


def build_mesh(semodel, scene, acc, node_index, prim, bone_of, want_normals):
    node = scene.nodes[node_index]
    attrs = prim['attributes']
    if 'POSITION' not in attrs:
        return None
    positions = acc.read(attrs['POSITION'])
    index = [e[0] for e in acc.read(prim['indices'])] if 'indices' in prim else list(range(len(positions)))
    tris = [tuple(index[k] for k in t) for t in triangles(prim, len(index))]
    if not tris:
        return None
    skin = scene.doc['skins'][node['skin']] if 'skin' in node else None
    m = IDENTITY if skin is not None else scene.world[node_index]
    flip = det3(m) < 0
    if flip:
        tris = [(a, c, b) for a, b, c in tris]
    src, faces = compact(tris)
    pos = [point(m, positions[i]) for i in src]
    normals = None
    if 'NORMAL' in attrs:
        nm = mat_invert(m)
        nm = [nm[0], nm[4], nm[8], 0, nm[1], nm[5], nm[9], 0, nm[2], nm[6], nm[10], 0, 0, 0, 0, 1]  # transpose
        src_n = acc.read(attrs['NORMAL'])
        normals = [normalised(direction(nm, src_n[i])) or (0.0, 0.0, 1.0) for i in src]
    elif want_normals:
        normals = flat_normals(pos, faces)
    uvs = acc.read(attrs['TEXCOORD_0']) if 'TEXCOORD_0' in attrs else None
    colors = acc.read(attrs['COLOR_0']) if 'COLOR_0' in attrs else None
    weights = influences(prim, acc, skin, bone_of) if skin is not None else None

    mesh = semodel.Mesh()
    for k, i in enumerate(src):
        v = semodel.Vertex(uvSetCount=1 if uvs else 0)
        v.position = pos[k]
        if normals:
            v.normal = normals[k]
        if uvs:
            v.uvLayers[0] = (uvs[i][0], uvs[i][1])
        if colors:
            c = colors[i]
            v.color = (c[0], c[1], c[2], c[3] if len(c) > 3 else 1.0)
        if weights:
            v.weights = weights[i]
        mesh.vertices.append(v)
    mesh.faces = [semodel.Face(indices=f) for f in faces]
    if uvs and 'material' in prim:
        mesh.materialReferences = [prim['material']]
    return mesh


def image_path(doc, texture_info):
    if not texture_info:
        return ''
    tex = doc['textures'][texture_info['index']]
    if 'source' not in tex:
        return ''
    image = doc['images'][tex['source']]
    uri = image.get('uri', '')
    if uri and not uri.startswith('data:'):
        return urllib.parse.unquote(uri)
    return image.get('name', '')


def build_materials(semodel, doc):
    out = []
    for i, mat in enumerate(doc.get('materials', [])):
        m = semodel.Material()
        m.name = mat.get('name') or f'material{i}'
        m.isSimpleMaterial = True
        m.inputData.diffuseMap = image_path(doc, mat.get('pbrMetallicRoughness', {}).get('baseColorTexture'))
        m.inputData.normalMap = image_path(doc, mat.get('normalTexture'))
        out.append(m)
    return out


def export(semodel, src_path, out_path):
    doc, buffers = load_gltf(src_path)
    scene, acc = Scene(doc), Accessors(doc, buffers)
    model = semodel.Model()
    model.bones, bone_of = build_bones(semodel, scene)
    prims = [(n, p) for n in scene.order if 'mesh' in scene.nodes[n]
             for p in doc['meshes'][scene.nodes[n]['mesh']]['primitives']]
    want_normals = any('NORMAL' in p['attributes'] and p.get('mode', 4) in (4, 5, 6) for _, p in prims)
    for n, p in prims:
        mesh = build_mesh(semodel, scene, acc, n, p, bone_of, want_normals)
        if mesh is not None:
            model.meshes.append(mesh)
    if not model.meshes and not model.bones:
        print('semodel_export: nothing to export (no triangle, no joint)', file=sys.stderr)
        return 1
    model.materials = build_materials(semodel, doc)
    model.save(out_path)
    return 0


def main():
    args = sys.argv[1:]
    if len(args) == 3:
        src = args.pop(0)
    else:
        src = os.environ.get('MC_SEMODEL_SRC', '')
    if len(args) != 2 or not src:
        print('usage: semodel_export.py [SRC] IN OUT (SRC: the directory of semodel.py, '
              'or $MC_SEMODEL_SRC)', file=sys.stderr)
        return 2
    sys.dont_write_bytecode = True  # nothing written into the snapshot
    sys.path.insert(0, src)
    import semodel
    return export(semodel, args[0], args[1])


if __name__ == '__main__':
    sys.exit(main())
