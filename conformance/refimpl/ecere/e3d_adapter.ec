// e3d_adapter.ec - modelcheck's adapter over the Ecere SDK's own E3D reader
// and writer (ecere/src/gfx/3D/models/e3d.ec and e3d/e3d{Defs,Read,Write}.ec
// at the pinned commit), compiled with them by scripts/refimpls.sh
// (build_ecere_e3d) against the cached SDK build. Our code: nothing of the
// SDK is copied here; docs/REFERENCE-LOADERS.md says how it is built and run.
//
//   mc_ecere_e3d load FILE          the loader of `certify --loader`
//   mc_ecere_e3d save SCENE OUT     the writer's back end of `certify --exporter`:
//                                   SCENE is the flat text e3d_export.py makes
//                                   of a glTF scene ("-": standard input)
//
// load: Object::Load(FILE, "e3d", null), the SDK's own entry (the E3DFormat
// ObjectFormat of e3d.ec, which calls readE3D), with no DisplaySystem, as a
// headless tool loads (meshes in the SDK's software driver). Then everything
// the reader built is walked the way a renderer would use it, so that what
// the reader left half-made faults here rather than later: every node, every
// distinct mesh (each vertex, normal, UV and colour it says it has), every
// index of every primitive group (read, and checked against nothing: the
// reader's indices are used as it made them, as a draw call would), every
// material. Exit 0 when the file loaded into at least one mesh or node under
// the root; 3 when Load returned true but read nothing (only the root; the
// reader returns true whenever the file opens); 1 when Load returned false.
//
// save: builds an Object tree of the scene, one child node per mesh under a
// root, each Mesh with positions and, where the scene has them, normals, UVs
// and vertex colours, one triangle-list primitive group per material with
// 32-bit indices, and a Material per scene material (diffuse and opacity from
// the base colour factor, double-sided); then Object::Save(OUT, "e3d"), i.e.
// the SDK's E3DFormat::Save and writeE3D. Exit 0 written; 4 when Save
// returned false; 2 on a scene this program cannot parse (a bug of ours).

import "ecere"
import "e3d"

#include <stdio.h>
#include <string.h>

static double sink;   // what the walk reads goes here, so it is not optimised away

static Array<Mesh> walkedMeshes { };

static bool seen(Mesh m)
{
   int i;
   for(i = 0; i < walkedMeshes.count; i++)
      if(walkedMeshes[i] == m) return true;
   walkedMeshes.Add(m);
   return false;
}

static void touchMaterial(Material mat)
{
   if(mat)
      sink += mat.diffuse.r + mat.diffuse.g + mat.diffuse.b + mat.opacity + mat.power +
         mat.ambient.r + mat.specular.g + mat.emissive.b + (mat.baseMap ? mat.baseMap.width : 0);
}

// Every vertex attribute the mesh says it has, and every index of every group.
static void walkMesh(Mesh m)
{
   int nv = m.nVertices, i;
   PrimitiveGroup g;
   MeshFeatures f = m.flags;
   int stride = f.interleaved ? 8 : 3;   // floats per vertex when interleaved
   if(m.vertices)
   {
      float * v = (float *)m.vertices;
      for(i = 0; i < nv; i++) sink += v[i * stride] + v[i * stride + 1] + v[i * stride + 2];
   }
   if(m.normals && !f.interleaved)
      for(i = 0; i < nv; i++) sink += m.normals[i].x + m.normals[i].y + m.normals[i].z;
   if(m.texCoords && !f.interleaved)
      for(i = 0; i < nv; i++) sink += m.texCoords[i].x + m.texCoords[i].y;
   if(m.colors)
      for(i = 0; i < nv; i++) sink += m.colors[i].r + m.colors[i].a;
   if(m.indices)
      for(i = 0; i < m.nIndices; i++) sink += m.indices[i];
   for(g = m.groups.first; g; g = g.next)
   {
      PrimitiveGroupType t = g.type;
      if(!t.vertexRange)
      {
         int n = g.nIndices;
         if(t.sharedIndices)
         {
            if(m.indices)
               for(i = 0; i < n; i++) sink += m.indices[g.baseIndexMesh + i];
         }
         else if(t.indices32bit)
         {
            if(g.indices32)
               for(i = 0; i < n; i++) sink += g.indices32[i];
         }
         else if(g.indices)
            for(i = 0; i < n; i++) sink += g.indices[i];
      }
      touchMaterial(g.material);
   }
   if(m.skin)
      sink += m.skin.bones.count + m.skin.skinVerts.count;
}

static int walkNode(Object o, int depth)
{
   Object c;
   int n = 1;
   sink += o.transform.position.x + o.transform.scaling.y + o.transform.orientation.w;
   if(o.name) sink += strlen(o.name);
   if(o.mesh && !seen(o.mesh)) walkMesh(o.mesh);
   touchMaterial(o.material);
   for(c = o.firstChild; c; c = c.next)
      n += walkNode(c, depth + 1);
   return n;
}

static int load(const char * path)
{
   Object root { };
   int nodes;
   if(!root.Load(path, "e3d", null))
   {
      fprintf(stderr, "rejected: Object::Load(\"e3d\") returned false\n");
      delete root;
      return 1;
   }
   nodes = walkNode(root, 0);
   printf("%d nodes, %d meshes\n", nodes, walkedMeshes.count);
   if(nodes <= 1 && !root.mesh)
   {
      fprintf(stderr, "rejected: the reader read nothing (only the root, no mesh)\n");
      return 3;
   }
   return 0;
}

// ---- save -------------------------------------------------------------------
// The scene text (e3d_export.py): a first line "mc-e3d-scene 1", then
//   materials N           then N lines: r g b a doubleSided
//   mesh V T M hasNormals hasUVs hasColors
//                         then V lines: x y z [nx ny nz] [u v] [r g b a]
//                         then T lines: material a b c (material -1: none)
// Meshes follow one another to the end of the file.

static bool expect(FILE * in, const char * word)
{
   char w[32];
   return fscanf(in, "%31s", w) == 1 && !strcmp(w, word);
}

static bool readFloats(FILE * in, float * out, int n)
{
   int i;
   for(i = 0; i < n; i++)
      if(fscanf(in, "%f", &out[i]) != 1) return false;
   return true;
}

static int save(const char * scenePath, const char * outPath)
{
   FILE * in = strcmp(scenePath, "-") ? fopen(scenePath, "r") : stdin;
   Object root { };
   Array<Material> mats { };
   int nMats = 0, version = 0, i, meshCount = 0;
   bool ok = true;

   if(!in) { fprintf(stderr, "e3d_adapter: cannot read %s\n", scenePath); return 2; }
   root.transform.orientation = { 1, 0, 0, 0 };
   root.transform.scaling = { 1, 1, 1 };
   if(!expect(in, "mc-e3d-scene") || fscanf(in, "%d", &version) != 1 || version != 1 ||
      !expect(in, "materials") || fscanf(in, "%d", &nMats) != 1 || nMats < 0)
      ok = false;
   for(i = 0; ok && i < nMats; i++)
   {
      float c[4];
      int doubleSided = 0;
      Material mat { };
      if(!readFloats(in, c, 4) || fscanf(in, "%d", &doubleSided) != 1) { ok = false; delete mat; break; }
      mat.diffuse = { c[0], c[1], c[2] };
      mat.ambient = mat.diffuse;
      mat.opacity = c[3];
      mat.flags = { doubleSided = doubleSided != 0, translucent = c[3] < 1 };
      mats.Add(mat);
   }
   while(ok)
   {
      int nv = 0, nt = 0, nm = 0, hasN = 0, hasUV = 0, hasC = 0, k;
      MeshFeatures feat { vertices = true };
      Mesh mesh;
      Object node;
      char w[32];
      int r = fscanf(in, "%31s", w);
      if(r != 1) break;   // the end of the scene
      if(strcmp(w, "mesh") || fscanf(in, "%d %d %d %d %d %d", &nv, &nt, &nm, &hasN, &hasUV, &hasC) != 6 ||
         nv <= 0 || nt <= 0 || nm < 0)
      {
         ok = false;
         break;
      }
      if(hasN) feat.normals = true;
      if(hasUV) feat.texCoords1 = true;
      if(hasC) feat.colors = true;
      mesh = Mesh { };
      if(!mesh.Allocate(feat, nv, null)) { fprintf(stderr, "e3d_adapter: Mesh::Allocate failed\n"); ok = false; delete mesh; break; }
      for(k = 0; ok && k < nv; k++)
      {
         float a[12];
         int n = 3 + (hasN ? 3 : 0) + (hasUV ? 2 : 0) + (hasC ? 4 : 0), at = 3;
         if(!readFloats(in, a, n)) { ok = false; break; }
         mesh.vertices[k] = { a[0], a[1], a[2] };
         if(hasN) { mesh.normals[k] = { a[at], a[at + 1], a[at + 2] }; at += 3; }
         if(hasUV) { mesh.texCoords[k] = { a[at], a[at + 1] }; at += 2; }
         if(hasC) mesh.colors[k] = { a[at], a[at + 1], a[at + 2], a[at + 3] };
      }
      // one group per material, in the order the triangles name them
      if(ok)
      {
         int * tri = new int[4 * nt];
         int m;
         for(k = 0; ok && k < nt; k++)
            if(fscanf(in, "%d %d %d %d", &tri[4*k], &tri[4*k+1], &tri[4*k+2], &tri[4*k+3]) != 4 ||
               tri[4*k] < -1 || tri[4*k] >= nMats)
               ok = false;
         for(m = -1; ok && m < nMats; m++)
         {
            int count = 0, j = 0;
            PrimitiveGroup g;
            for(k = 0; k < nt; k++) if(tri[4*k] == m) count++;
            if(!count) continue;
            g = mesh.AddPrimitiveGroup({ triangles, indices32bit = true }, 3 * count);
            if(!g) { fprintf(stderr, "e3d_adapter: Mesh::AddPrimitiveGroup failed\n"); ok = false; break; }
            for(k = 0; k < nt; k++)
               if(tri[4*k] == m)
               {
                  g.indices32[j++] = tri[4*k+1];
                  g.indices32[j++] = tri[4*k+2];
                  g.indices32[j++] = tri[4*k+3];
               }
            mesh.UnlockPrimitiveGroup(g);
            g.material = m >= 0 ? mats[m] : null;
         }
         delete tri;
      }
      mesh.Unlock(0);
      node = Object { };
      node.transform.orientation = { 1, 0, 0, 0 };
      node.transform.scaling = { 1, 1, 1 };
      root.Add(node);
      node.mesh = mesh;
      node.flags.mesh = true;
      node.flags.ownMesh = true;
      meshCount++;
   }
   if(in != stdin) fclose(in);
   if(!ok)
   {
      fprintf(stderr, "e3d_adapter: %s is not a scene this adapter wrote\n", scenePath);
      return 2;
   }
   if(!root.Save(outPath, "e3d"))
   {
      fprintf(stderr, "e3d_adapter: Object::Save(\"e3d\") returned false\n");
      return 4;
   }
   printf("%d meshes, %d materials written\n", meshCount, nMats);
   return 0;
}

class E3DAdapter : Application
{
   void Main()
   {
      if(argc == 3 && !strcmp(argv[1], "load"))
         exitCode = load(argv[2]);
      else if(argc == 4 && !strcmp(argv[1], "save"))
         exitCode = save(argv[2], argv[3]);
      else
      {
         fprintf(stderr, "usage: %s load FILE | save SCENE OUT\n", argv[0]);
         exitCode = 64;
      }
   }
}
