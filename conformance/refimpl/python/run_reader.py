#!/usr/bin/python3
"""Command adapter for `modelcheck certify --loader`: one Python reference
reader, imported from its pinned source (never copied here), run on FILE the
way its own program uses it:

  run_reader.py semodel   SRC FILE   semodel.Model(FILE), then what the Blender
                                     add-on's importer looks up: each bone's
                                     parent, each face's vertices, each weight's
                                     bone, each material reference
  run_reader.py aamf2gltf SRC FILE   tools/aamf2gltf.py's main(): AAMFParser
                                     over the bytes, then export_gltf (into a
                                     temporary directory, removed afterwards)

Exit 0: accepted. An uncaught exception is a rejection (exit 1, the exception
on stderr): it is what the user of the tool sees. A hang or an interpreter
crash is what it is. The process's address space is capped (MC_REFIMPL_AS_MB,
default 2048): a reader allocating from header counts then fails with
MemoryError instead of taking the machine's memory.
"""
import os
import resource
import sys
import tempfile
import traceback


def walk_semodel(model):
    """The importer's lookups (io_model_semodel's import_semodel.py builds
    an armature from parents, meshes from faces, vertex groups from weights
    and materials from references)."""
    bones = model.bones
    for bone in bones:
        if bone.boneParent > -1:
            bones[bone.boneParent].name
    for mesh in model.meshes:
        for face in mesh.faces:
            for index in face.indices:
                mesh.vertices[index].position
        for vertex in mesh.vertices:
            for bone_index, _ in vertex.weights:
                bones[bone_index].name
        for ref in mesh.materialReferences:
            if ref > -1:
                model.materials[ref].name


def run(reader, src, path):
    if reader == "semodel":
        sys.path.insert(0, src)
        import semodel
        walk_semodel(semodel.Model(path))
    elif reader == "aamf2gltf":
        sys.path.insert(0, os.path.join(src, "tools"))
        import aamf2gltf
        with open(path, "rb") as f:
            data = f.read()
        parser = aamf2gltf.AAMFParser(data)
        parser.parse()
        with tempfile.TemporaryDirectory(prefix="mc_refimpl_") as out:
            parser.export_gltf(os.path.join(out, "model.gltf"))
    else:
        print(f"run_reader.py: unknown reader {reader}", file=sys.stderr)
        sys.exit(2)


def main():
    if len(sys.argv) != 4:
        print("usage: run_reader.py semodel|aamf2gltf SRC FILE", file=sys.stderr)
        sys.exit(2)
    limit = int(os.environ.get("MC_REFIMPL_AS_MB", "2048")) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.stdout = open(os.devnull, "w")  # the readers' progress messages
    try:
        run(*sys.argv[1:])
    except Exception as e:  # noqa: BLE001 - any exception is the reader refusing the file
        tb = traceback.extract_tb(e.__traceback__)[-1]
        print(f"rejected: {type(e).__name__}: {str(e)[:200]} "
              f"({os.path.basename(tb.filename)}:{tb.lineno} in {tb.name})", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
