// Loader adapter for `modelcheck certify --loader`: SELib's SEModel reader
// (SELib.SEModel.Read, compiled unmodified from the pinned source) run on one
// file, then the lookups a tool makes with what it returns. Ours, not SELib's.
//
//   mono selib_load.exe FILE
//
// Exit 0: SELib returned a model and every lookup held. Exit 1: SELib refused
// the file the ways it documents ("throws an error" on a bad file): the
// System.Exception it throws on a bad magic, or the EndOfStreamException its
// BinaryReader throws when the data runs out; one line on stderr. Any other
// exception (an index out of range, a decoder error, out of memory) is a
// crash: Crash.Die prints it and the process dies by SIGABRT.
//
// The lookups are what importers built on SELib do (ModelMerger, the Maya and
// Blender plug-ins): parent bone by index, face corners by vertex index,
// weights by bone index, material references by material index, and, built
// with -define:SEBLEND (ModelMerger's fork), shape deltas by shape index. The
// reader validates none of them, so a bad index reaches the caller as a List
// ArgumentOutOfRangeException in its own code: the crash a tool shows.
using System;
using System.IO;
using SELib;

static class Load
{
    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: selib_load.exe FILE");
            return 2;
        }
        SEModel model;
        try
        {
            model = SEModel.Read(args[0]);
        }
        catch (Exception e) when (e.GetType() == typeof(Exception) || e is EndOfStreamException)
        {
            Console.Error.WriteLine("rejected: " + e.GetType().FullName + ": " + e.Message);
            return 1;
        }
        catch (Exception e)
        {
            return Crash.Die(e);
        }
        try
        {
            Walk(model);
        }
        catch (Exception e)
        {
            return Crash.Die(e);
        }
        return 0;
    }

    static void Walk(SEModel model)
    {
        long touched = model.BoneCount + model.MeshCount + model.MaterialCount;
        foreach (var bone in model.Bones)
        {
            touched += bone.BoneName.Length;
            if (!bone.RootBone)
                touched += model.Bones[bone.BoneParent].BoneName.Length;
        }
        foreach (var mesh in model.Meshes)
        {
            foreach (var face in mesh.Faces)
            {
                touched += (long)mesh.Verticies[(int)face.FaceIndex1].Position.X;
                touched += (long)mesh.Verticies[(int)face.FaceIndex2].Position.X;
                touched += (long)mesh.Verticies[(int)face.FaceIndex3].Position.X;
            }
            foreach (var vertex in mesh.Verticies)
            {
                foreach (var weight in vertex.Weights)
                    touched += model.Bones[(int)weight.BoneIndex].BoneName.Length;
#if SEBLEND
                foreach (var shape in vertex.Shapes)
                    touched += model.Shapes[(int)shape.ShapeIndex].Length;
#endif
            }
            foreach (var index in mesh.MaterialReferenceIndicies)
                if (index > -1)
                    touched += model.Materials[index].Name.Length;
        }
        foreach (var material in model.Materials)
        {
            touched += material.Name.Length;
            var simple = material.MaterialData as SEModelSimpleMaterial;
            if (simple != null)
                touched += simple.DiffuseMap.Length + simple.NormalMap.Length + simple.SpecularMap.Length;
        }
        GC.KeepAlive(touched);
    }
}
