#!/usr/bin/python3
"""Exporter adapter for `modelcheck certify --exporter`: glTF 2.0 -> E3D
through the Ecere SDK's own writer (E3DFormat::Save, e3dWrite.ec), driven by
our eC program e3d_adapter.ec (`save`):

  e3d_export.py GLTF_PYDIR ADAPTER LIBDIR IN OUT

ADAPTER is the built mc_ecere_e3d, LIBDIR the directory of the libecere it
runs with (scripts/refimpls.sh passes both). IN is a .gltf (data: URIs or
files beside it) or .glb scene, OUT the .e3d written.

This script reads the scene (with semodel_export.py's glTF reading, beside
it in conformance/refimpl/python) and hands the adapter a flat text of it;
the adapter builds the SDK's Object, Mesh and Material instances from it and
calls Object::Save(OUT, "e3d"). Whatever the file holds beyond what is built
here is the writer's doing.

What it builds, static geometry only (scripts/refimpls.sh certifies it with
--scope static: skins, skeletons and animations are not built, so the
writer's skin and track code is not exercised):
  - one mesh per triangle primitive of each mesh node of the scene, in world
    space (the node transforms baked; a transform with a negative determinant
    reverses the winding so faces keep facing out), only the vertices the
    triangles use; strips and fans become triangle lists;
  - per vertex: position, normal (inverse transpose, normalised) where the
    primitive has NORMAL, TEXCOORD_0 where it has it (glTF's top-left origin
    kept, as the project's E3D loader reads UVs), COLOR_0 as RGBA in [0, 1];
  - every glTF material as an SDK Material: diffuse and opacity from the base
    colour factor, double-sided from doubleSided (textures are not built);
  - line and point primitives are dropped (E3D faces are triangles);
  - a scene with no triangle is refused (exit 1): nothing to export.

Exit 0: written. A non-zero exit of the adapter is passed on.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True
# the project's glTF reading (conformance/refimpl/python/semodel_export.py): its
# directory is the first argument, so that a sandbox that shows only the
# directories a command names shows it too
gl = None


def fmt(values):
    return ' '.join('%.9g' % v for v in values)


def scene_text(path):
    doc, buffers = gl.load_gltf(path)
    scene, acc = gl.Scene(doc), gl.Accessors(doc, buffers)
    materials = doc.get('materials', [])
    out = ['mc-e3d-scene 1', 'materials %d' % len(materials)]
    for mat in materials:
        factor = mat.get('pbrMetallicRoughness', {}).get('baseColorFactor', [1, 1, 1, 1])
        out.append('%s %d' % (fmt(factor), 1 if mat.get('doubleSided') else 0))
    meshes = 0
    for n in scene.order:
        node = scene.nodes[n]
        if 'mesh' not in node:
            continue
        for prim in doc['meshes'][node['mesh']]['primitives']:
            attrs = prim['attributes']
            if 'POSITION' not in attrs:
                continue
            positions = acc.read(attrs['POSITION'])
            index = [e[0] for e in acc.read(prim['indices'])] if 'indices' in prim else list(range(len(positions)))
            tris = [tuple(index[k] for k in t) for t in gl.triangles(prim, len(index))]
            if not tris:
                continue
            m = scene.world[n]
            if gl.det3(m) < 0:
                tris = [(a, c, b) for a, b, c in tris]
            src, faces = gl.compact(tris)
            normals = uvs = colors = None
            if 'NORMAL' in attrs:
                nm = gl.mat_invert(m)
                nm = [nm[0], nm[4], nm[8], 0, nm[1], nm[5], nm[9], 0, nm[2], nm[6], nm[10], 0, 0, 0, 0, 1]
                normals = acc.read(attrs['NORMAL'])
            if 'TEXCOORD_0' in attrs:
                uvs = acc.read(attrs['TEXCOORD_0'])
            if 'COLOR_0' in attrs:
                colors = acc.read(attrs['COLOR_0'])
            material = prim.get('material', -1)
            out.append('mesh %d %d %d %d %d %d' % (len(src), len(tris), len(materials),
                                                  normals is not None, uvs is not None, colors is not None))
            for i in src:
                row = list(gl.point(m, positions[i]))
                if normals is not None:
                    row += gl.normalised(gl.direction(nm, normals[i])) or (0.0, 0.0, 1.0)
                if uvs is not None:
                    row += uvs[i][:2]
                if colors is not None:
                    c = colors[i]
                    row += list(c[:3]) + [c[3] if len(c) > 3 else 1.0]
                out.append(fmt(row))
            for t in faces:
                out.append('%d %d %d %d' % (material, t[0], t[1], t[2]))
            meshes += 1
    return '\n'.join(out) + '\n', meshes


def main():
    global gl
    if len(sys.argv) != 6:
        print('usage: e3d_export.py GLTF_PYDIR ADAPTER LIBDIR IN OUT', file=sys.stderr)
        return 2
    pydir, adapter, libdir, src, dst = sys.argv[1:]
    sys.path.insert(0, pydir)
    import semodel_export
    gl = semodel_export
    text, meshes = scene_text(src)
    if not meshes:
        print('e3d_export: nothing to export (no triangle)', file=sys.stderr)
        return 1
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = libdir + (':' + env['LD_LIBRARY_PATH'] if env.get('LD_LIBRARY_PATH') else '')
    return subprocess.run([adapter, 'save', '-', dst], input=text.encode(), env=env).returncode


if __name__ == '__main__':
    sys.exit(main())
