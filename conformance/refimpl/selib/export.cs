// Exporter adapter for `modelcheck certify --exporter`: glTF 2.0 -> SEModel
// through SELib's writer (SELib.SEModel.Write, compiled unmodified from the
// pinned source). Ours, not SELib's.
//
//   mono selib_export.exe IN OUT
//
// IN is a .gltf (data: URIs or files beside it) or .glb scene; OUT the
// .semodel SEModel.Write(OUT) writes. This program plays a tool's part: it
// builds an SEModel with SELib's public API (AddBone, SEModelMesh,
// SEModelVertex, SEModelWeight, SEModelMaterial + SEModelSimpleMaterial) and
// lets SELib decide every byte. It builds the same model as the project's
// semodel.py adapter (python/semodel_export.py), so the two writers are
// compared on equal input:
//   - bones: every joint of every skin, parents first, parented to the
//     nearest joint ancestor; global position/rotation from the joint's rest
//     world transform, local position/rotation/scale from
//     inverse(parent bone's world) * world; an empty name becomes bone<i>;
//   - one mesh per triangle primitive of each mesh node: world-space
//     vertices (a skinned mesh as stored, glTF 3.7.3.3), normals by the
//     inverse transpose, winding reversed under a mirroring transform,
//     strips and fans as lists, only the vertices the faces use; TEXCOORD_0
//     as the one UV layer carrying the primitive's material reference;
//     COLOR_0 as bytes (SELib's Color is 4 bytes: round(c * 255));
//   - weights: every influence above 0, by bone, largest first, divided by
//     their sum, at most 255 (SEModel's u8 count);
//   - materials: each glTF material as a simple material, its base colour
//     and normal textures' image URIs as the diffuse and normal maps.
// Optional data is set only when the scene has it: SELib's writer decides
// whether to write normals and colours by comparing each vertex's object
// with its static defaults (Vector3.Zero, Color.White) by reference, so a
// vertex left at its defaults is what "none" means to it.
// Dropped or refused, as an exporter must: lines, points and animations
// (SEModel holds none); a scene with neither triangle nor joint is refused
// (exit 1): nothing to write. Exit 0: written; exit 1: the export failed
// (our reading of the scene, e.g. sparse accessors, which no bundled scene
// has). SELib's own exceptions are crashes (Crash.Die): Write documents none.
using System;
using System.Collections.Generic;
using System.IO;
using System.Json;
using System.Linq;
using System.Text;
using SELib;
using SELib.Utilities;

static class Export
{
    static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: selib_export.exe IN OUT");
            return 2;
        }
        SEModel model;
        try
        {
            model = Build(args[0]);
        }
        catch (Exception e)
        {
            Console.Error.WriteLine("selib_export: cannot read the scene: " + e.GetType().FullName + ": " + e.Message);
            return 1;
        }
        if (model == null)
        {
            Console.Error.WriteLine("selib_export: nothing to export (no triangle, no joint)");
            return 1;
        }
        try
        {
            model.Write(args[1]);
        }
        catch (Exception e)
        {
            return Crash.Die(e);
        }
        return 0;
    }

    // ---- glTF reading --------------------------------------------------------

    static JsonValue doc;
    static List<byte[]> buffers = new List<byte[]>();
    static readonly double[] Identity = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

    static bool Has(JsonValue o, string k) { return o != null && o.JsonType == JsonType.Object && o.ContainsKey(k); }
    static JsonValue Get(JsonValue o, string k) { return Has(o, k) ? o[k] : null; }
    static int Int(JsonValue o, string k, int dflt) { return Has(o, k) ? (int)o[k] : dflt; }
    static string Str(JsonValue o, string k) { return Has(o, k) ? (string)o[k] : ""; }
    static int Count(JsonValue a) { return a == null ? 0 : a.Count; }

    static void Load(string path)
    {
        byte[] data = File.ReadAllBytes(path);
        string dir = Path.GetDirectoryName(Path.GetFullPath(path));
        byte[] glbBin = null;
        if (data.Length >= 12 && Encoding.ASCII.GetString(data, 0, 4) == "glTF")
        {
            int length = BitConverter.ToInt32(data, 8), off = 12;
            while (off + 8 <= length)
            {
                int size = BitConverter.ToInt32(data, off), kind = BitConverter.ToInt32(data, off + 4);
                if (kind == 0x4E4F534A) doc = JsonValue.Parse(Encoding.UTF8.GetString(data, off + 8, size));
                else if (kind == 0x004E4942) { glbBin = new byte[size]; Array.Copy(data, off + 8, glbBin, 0, size); }
                off += 8 + size;
            }
            if (doc == null) throw new InvalidDataException("GLB without a JSON chunk");
        }
        else
        {
            doc = JsonValue.Parse(Encoding.UTF8.GetString(data));
        }
        var list = Get(doc, "buffers");
        for (int i = 0; i < Count(list); i++)
        {
            string uri = Str(list[i], "uri");
            if (uri == "")
                buffers.Add(glbBin ?? throw new InvalidDataException("buffer " + i + " has no data"));
            else if (uri.StartsWith("data:"))
                buffers.Add(Convert.FromBase64String(uri.Substring(uri.IndexOf(',') + 1)));
            else
                buffers.Add(File.ReadAllBytes(Path.Combine(dir, Uri.UnescapeDataString(uri))));
        }
    }

    // An accessor's elements as doubles (normalised integers scaled).
    static Dictionary<int, double[][]> cache = new Dictionary<int, double[][]>();
    static double[][] Read(int index)
    {
        if (cache.ContainsKey(index)) return cache[index];
        var acc = doc["accessors"][index];
        if (Has(acc, "sparse")) throw new NotSupportedException("sparse accessors");
        int type = (int)acc["componentType"], count = (int)acc["count"];
        int width = new Dictionary<string, int> { { "SCALAR", 1 }, { "VEC2", 2 }, { "VEC3", 3 }, { "VEC4", 4 }, { "MAT4", 16 } }[(string)acc["type"]];
        int size = type == 5126 || type == 5125 ? 4 : type == 5122 || type == 5123 ? 2 : 1;
        bool norm = Has(acc, "normalized") && (bool)acc["normalized"];
        var values = new double[count][];
        JsonValue view = Has(acc, "bufferView") ? doc["bufferViews"][(int)acc["bufferView"]] : null;
        byte[] data = view != null ? buffers[(int)view["buffer"]] : null;
        int start = view != null ? Int(view, "byteOffset", 0) + Int(acc, "byteOffset", 0) : 0;
        int stride = view != null ? Int(view, "byteStride", 0) : 0;
        if (stride == 0) stride = size * width;
        for (int i = 0; i < count; i++)
        {
            values[i] = new double[width];
            for (int k = 0; data != null && k < width; k++)
            {
                int at = start + i * stride + k * size;
                double v;
                switch (type)
                {
                case 5120: v = (sbyte)data[at]; if (norm) v = Math.Max(v / 127.0, -1); break;
                case 5121: v = data[at]; if (norm) v /= 255.0; break;
                case 5122: v = BitConverter.ToInt16(data, at); if (norm) v = Math.Max(v / 32767.0, -1); break;
                case 5123: v = BitConverter.ToUInt16(data, at); if (norm) v /= 65535.0; break;
                case 5125: v = BitConverter.ToUInt32(data, at); break;
                default: v = BitConverter.ToSingle(data, at); break;
                }
                values[i][k] = v;
            }
        }
        return cache[index] = values;
    }

    // ---- matrices (column-major 4x4, as glTF) --------------------------------

    static double[] Mul(double[] a, double[] b)
    {
        var o = new double[16];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                for (int k = 0; k < 4; k++)
                    o[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
        return o;
    }

    static double[] Trs(double[] t, double[] q, double[] s)
    {
        double x = q[0], y = q[1], z = q[2], w = q[3];
        double[] rot = { 1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                         2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                         2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y) };
        var m = new double[16];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                m[c * 4 + r] = rot[c * 3 + r] * s[c];
        m[12] = t[0]; m[13] = t[1]; m[14] = t[2]; m[15] = 1;
        return m;
    }

    static double Det3(double[] m)
    {
        return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
             + m[8] * (m[1] * m[6] - m[5] * m[2]);
    }

    static double[] Invert(double[] m) // affine
    {
        double d = Det3(m);
        if (d == 0) throw new InvalidDataException("singular transform");
        double[] a = { m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10] };
        double[] cof = { a[4] * a[8] - a[5] * a[7], a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
                         a[5] * a[6] - a[3] * a[8], a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
                         a[3] * a[7] - a[4] * a[6], a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3] };
        var inv = new double[16];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                inv[c * 4 + r] = cof[c * 3 + r] / d;
        for (int r = 0; r < 3; r++)
            inv[12 + r] = -(inv[r] * m[12] + inv[4 + r] * m[13] + inv[8 + r] * m[14]);
        inv[15] = 1;
        return inv;
    }

    static double[] Point(double[] m, double[] p)
    {
        var o = new double[3];
        for (int r = 0; r < 3; r++) o[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
        return o;
    }

    static double[] Normalised(double[] v)
    {
        double l = Math.Sqrt(v.Sum(c => c * c));
        return l > 0 ? v.Select(c => c / l).ToArray() : null;
    }

    // Unit quaternion (x, y, z, w) of a rotation given as 3 unit columns.
    static double[] QuatOf(double[][] cols)
    {
        double m00 = cols[0][0], m10 = cols[0][1], m20 = cols[0][2], m01 = cols[1][0], m11 = cols[1][1],
               m21 = cols[1][2], m02 = cols[2][0], m12 = cols[2][1], m22 = cols[2][2], s;
        double[] q;
        double tr = m00 + m11 + m22;
        if (tr > 0) { s = Math.Sqrt(tr + 1) * 2; q = new[] { (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s }; }
        else if (m00 > m11 && m00 > m22) { s = Math.Sqrt(1 + m00 - m11 - m22) * 2; q = new[] { 0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s }; }
        else if (m11 > m22) { s = Math.Sqrt(1 + m11 - m00 - m22) * 2; q = new[] { (m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s }; }
        else { s = Math.Sqrt(1 + m22 - m00 - m11) * 2; q = new[] { (m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s }; }
        if (q[3] < 0) q = q.Select(c => -c).ToArray();
        return Normalised(q);
    }

    // Translation, rotation and scale (a negative determinant on x's scale).
    static void Decompose(double[] m, out double[] t, out double[] q, out double[] s)
    {
        var cols = new[] { new[] { m[0], m[1], m[2] }, new[] { m[4], m[5], m[6] }, new[] { m[8], m[9], m[10] } };
        s = cols.Select(c => Math.Sqrt(c.Sum(v => v * v))).ToArray();
        if (Det3(m) < 0) s[0] = -s[0];
        var sc = s;
        var unit = Enumerable.Range(0, 3).Select(k => sc[k] != 0 ? cols[k].Select(v => v / sc[k]).ToArray() : new double[3]).ToArray();
        t = new[] { m[12], m[13], m[14] };
        q = QuatOf(unit);
    }

    static Vector3 V3(double[] v) { return new Vector3((float)v[0], (float)v[1], (float)v[2]); }
    static Quaternion Q(double[] q) { return new Quaternion((float)q[0], (float)q[1], (float)q[2], (float)q[3]); }

    // ---- the scene -------------------------------------------------------------

    static JsonValue nodes;
    static int[] parent;
    static double[][] world;
    static List<int> order = new List<int>(); // parents first

    static double[] Nums(JsonValue a) { return Enumerable.Range(0, a.Count).Select(i => (double)a[i]).ToArray(); }

    static double[] LocalMatrix(JsonValue node)
    {
        if (Has(node, "matrix")) return Nums(node["matrix"]);
        return Trs(Has(node, "translation") ? Nums(node["translation"]) : new double[3],
                   Has(node, "rotation") ? Nums(node["rotation"]) : new double[] { 0, 0, 0, 1 },
                   Has(node, "scale") ? Nums(node["scale"]) : new double[] { 1, 1, 1 });
    }

    static void Walk()
    {
        nodes = Get(doc, "nodes");
        int n = Count(nodes);
        parent = Enumerable.Repeat(-1, n).ToArray();
        world = new double[n][];
        for (int i = 0; i < n; i++)
            foreach (JsonValue c in Get(nodes[i], "children") ?? new JsonArray())
                parent[(int)c] = i;
        var roots = new List<int>();
        if (Count(Get(doc, "scenes")) > 0)
            foreach (JsonValue r in Get(doc["scenes"][Int(doc, "scene", 0)], "nodes") ?? new JsonArray()) roots.Add((int)r);
        else
            roots.AddRange(Enumerable.Range(0, n).Where(i => parent[i] < 0));
        var stack = new Stack<KeyValuePair<int, double[]>>();
        for (int k = roots.Count - 1; k >= 0; k--) stack.Push(new KeyValuePair<int, double[]>(roots[k], Identity));
        while (stack.Count > 0)
        {
            var top = stack.Pop();
            int i = top.Key;
            world[i] = Mul(top.Value, LocalMatrix(nodes[i]));
            order.Add(i);
            var children = Get(nodes[i], "children");
            for (int k = Count(children) - 1; k >= 0; k--)
                stack.Push(new KeyValuePair<int, double[]>((int)children[k], world[i]));
        }
    }

    // ---- building the SEModel --------------------------------------------------

    static Dictionary<int, int> boneOf = new Dictionary<int, int>(); // node -> bone

    static void BuildBones(SEModel model)
    {
        var joints = new HashSet<int>();
        foreach (JsonValue skin in Get(doc, "skins") ?? new JsonArray())
            foreach (JsonValue j in skin["joints"])
                if (world[(int)j] != null) joints.Add((int)j);
        var ordered = order.Where(joints.Contains).ToList();
        for (int b = 0; b < ordered.Count; b++) boneOf[ordered[b]] = b;
        var taken = new HashSet<string>(ordered.Select(i => Str(nodes[i], "name")));
        for (int b = 0; b < ordered.Count; b++)
        {
            int i = ordered[b];
            string name = Str(nodes[i], "name");
            if (name == "")
            {
                name = "bone" + b;
                while (taken.Contains(name)) name += "_";
                taken.Add(name);
            }
            int p = parent[i];
            while (p >= 0 && !boneOf.ContainsKey(p)) p = parent[p];
            double[] gt, gq, gs, lt, lq, ls;
            Decompose(world[i], out gt, out gq, out gs);
            Decompose(p >= 0 ? Mul(Invert(world[p]), world[i]) : world[i], out lt, out lq, out ls);
            model.AddBone(name, p >= 0 ? boneOf[p] : -1, V3(gt), Q(gq), V3(lt), Q(lq), V3(ls));
        }
    }

    static List<int[]> Triangles(int mode, int count)
    {
        var t = new List<int[]>();
        if (mode == 4) for (int k = 0; k + 2 < count; k += 3) t.Add(new[] { k, k + 1, k + 2 });
        if (mode == 5) for (int k = 0; k + 2 < count; k++) t.Add(k % 2 == 0 ? new[] { k, k + 1, k + 2 } : new[] { k + 1, k, k + 2 });
        if (mode == 6) for (int k = 1; k + 1 < count; k++) t.Add(new[] { 0, k, k + 1 });
        return t; // points and lines: no SEModel faces
    }

    static List<KeyValuePair<int, double>>[] Influences(JsonValue attrs, JsonValue skin)
    {
        var sets = new List<double[][][]>();
        for (int k = 0; Has(attrs, "JOINTS_" + k) && Has(attrs, "WEIGHTS_" + k); k++)
            sets.Add(new[] { Read((int)attrs["JOINTS_" + k]), Read((int)attrs["WEIGHTS_" + k]) });
        if (sets.Count == 0) return null;
        var o = new List<KeyValuePair<int, double>>[sets[0][0].Length];
        for (int v = 0; v < o.Length; v++)
        {
            var inf = new Dictionary<int, double>();
            foreach (var set in sets)
                for (int k = 0; k < set[0][v].Length; k++)
                    if (set[1][v][k] > 0)
                    {
                        int bone = boneOf[(int)skin["joints"][(int)set[0][v][k]]];
                        inf[bone] = (inf.ContainsKey(bone) ? inf[bone] : 0) + set[1][v][k];
                    }
            var pairs = inf.OrderByDescending(p => p.Value).Take(255).ToList(); // stable: ties keep bone order
            double total = pairs.Sum(p => p.Value);
            o[v] = total > 0 ? pairs.Select(p => new KeyValuePair<int, double>(p.Key, p.Value / total)).ToList()
                             : new List<KeyValuePair<int, double>>();
        }
        return o;
    }

    static double[][] FlatNormals(double[][] pos, List<int[]> faces)
    {
        var n = new double[pos.Length][];
        foreach (var f in faces)
        {
            double[] a = pos[f[0]], b = pos[f[1]], c = pos[f[2]];
            double[] u = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, w = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
            var fn = Normalised(new[] { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] });
            foreach (int i in f) if (n[i] == null && fn != null) n[i] = fn;
        }
        return n.Select(v => v ?? new double[] { 0, 0, 1 }).ToArray();
    }

    static SEModelMesh BuildMesh(int nodeIndex, JsonValue prim, bool wantNormals)
    {
        var node = nodes[nodeIndex];
        var attrs = prim["attributes"];
        if (!Has(attrs, "POSITION")) return null;
        var positions = Read((int)attrs["POSITION"]);
        int[] index = Has(prim, "indices") ? Read((int)prim["indices"]).Select(e => (int)e[0]).ToArray()
                                            : Enumerable.Range(0, positions.Length).ToArray();
        var tris = Triangles(Int(prim, "mode", 4), index.Length).Select(t => t.Select(k => index[k]).ToArray()).ToList();
        if (tris.Count == 0) return null;
        JsonValue skin = Has(node, "skin") ? doc["skins"][(int)node["skin"]] : null;
        double[] m = skin != null ? Identity : world[nodeIndex];
        if (Det3(m) < 0) tris = tris.Select(t => new[] { t[0], t[2], t[1] }).ToList();
        var used = new Dictionary<int, int>(); // first use order
        var src = new List<int>();
        foreach (var t in tris)
            foreach (int i in t)
                if (!used.ContainsKey(i)) { used[i] = src.Count; src.Add(i); }
        var faces = tris.Select(t => t.Select(i => used[i]).ToArray()).ToList();
        var pos = src.Select(i => Point(m, positions[i])).ToArray();
        double[][] normals = null;
        if (Has(attrs, "NORMAL"))
        {
            var inv = Invert(m);
            var sn = Read((int)attrs["NORMAL"]);
            normals = src.Select(i => Normalised(Enumerable.Range(0, 3).Select(r =>
                inv[r * 4] * sn[i][0] + inv[r * 4 + 1] * sn[i][1] + inv[r * 4 + 2] * sn[i][2]).ToArray())
                ?? new double[] { 0, 0, 1 }).ToArray(); // the inverse's transpose
        }
        else if (wantNormals)
        {
            normals = FlatNormals(pos, faces);
        }
        var uvs = Has(attrs, "TEXCOORD_0") ? Read((int)attrs["TEXCOORD_0"]) : null;
        var colors = Has(attrs, "COLOR_0") ? Read((int)attrs["COLOR_0"]) : null;
        var weights = skin != null ? Influences(attrs, skin) : null;

        var mesh = new SEModelMesh();
        for (int k = 0; k < src.Count; k++)
        {
            int i = src[k];
            var v = new SEModelVertex { Position = V3(pos[k]) };
            if (normals != null) v.VertexNormal = V3(normals[k]);
            if (uvs != null) v.UVSets.Add(new Vector2((float)uvs[i][0], (float)uvs[i][1]));
            if (colors != null)
            {
                Func<int, byte> ch = c => (byte)Math.Round(Math.Min(Math.Max(c < colors[i].Length ? colors[i][c] : 1.0, 0), 1) * 255);
                v.VertexColor = new Color(ch(0), ch(1), ch(2), ch(3));
            }
            if (weights != null)
                foreach (var w in weights[i])
                    v.Weights.Add(new SEModelWeight { BoneIndex = (uint)w.Key, BoneWeight = (float)w.Value });
            mesh.AddVertex(v);
        }
        foreach (var f in faces) mesh.AddFace((uint)f[0], (uint)f[1], (uint)f[2]);
        if (uvs != null && Has(prim, "material")) mesh.AddMaterialIndex((int)prim["material"]);
        return mesh;
    }

    static string ImagePath(JsonValue info)
    {
        if (info == null) return "";
        var tex = doc["textures"][(int)info["index"]];
        if (!Has(tex, "source")) return "";
        var image = doc["images"][(int)tex["source"]];
        string uri = Str(image, "uri");
        if (uri != "" && !uri.StartsWith("data:")) return Uri.UnescapeDataString(uri);
        return Str(image, "name");
    }

    static SEModel Build(string path)
    {
        Load(path);
        Walk();
        var model = new SEModel();
        BuildBones(model);
        var prims = new List<KeyValuePair<int, JsonValue>>();
        foreach (int n in order)
            if (Has(nodes[n], "mesh"))
                foreach (JsonValue p in doc["meshes"][(int)nodes[n]["mesh"]]["primitives"])
                    prims.Add(new KeyValuePair<int, JsonValue>(n, p));
        bool wantNormals = prims.Any(p => Has(p.Value["attributes"], "NORMAL") && Int(p.Value, "mode", 4) >= 4);
        foreach (var p in prims)
        {
            var mesh = BuildMesh(p.Key, p.Value, wantNormals);
            if (mesh != null) model.AddMesh(mesh);
        }
        if (model.MeshCount == 0 && model.BoneCount == 0) return null;
        var materials = Get(doc, "materials");
        for (int i = 0; i < Count(materials); i++)
        {
            var mat = materials[i];
            string name = Str(mat, "name");
            model.AddMaterial(new SEModelMaterial
            {
                Name = name != "" ? name : "material" + i,
                MaterialData = new SEModelSimpleMaterial
                {
                    DiffuseMap = ImagePath(Get(Get(mat, "pbrMetallicRoughness"), "baseColorTexture")),
                    NormalMap = ImagePath(Get(mat, "normalTexture")),
                    SpecularMap = "",
                },
            });
        }
        return model;
    }
}
