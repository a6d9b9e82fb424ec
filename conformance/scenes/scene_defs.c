/*
 * The bundled source scenes (docs/CERTIFY.md lists them) and what each
 * target format can hold of them. Coordinates are multiples of 1/64 where
 * they can be, so that every format's rounding keeps them exactly.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mc_scene.h"

const mcs_caps mcs_format_caps[MCS_FORMAT_COUNT] = {
    /* AEM: float everything, 4 influences, i32 bone indices, no names for
     * bones, animation names of 127 bytes, times in seconds, u32 indices,
     * no vertex colours (aem.md's vertex has none), no zero-length
     * animation (aem.md, Animation Section: the duration is greater than 0,
     * AEM_ANIMATION_DURATION; the 2025 layout the same) */
    {"aem", 0x7FFFFFFF, 4, 0xFFFFFFFF, 0x55555555, 0, 1e-4, 1e-3, 1e-4, 1e-4, 1e-3,
     0, 1, 1, 0, 1, 0xFFFFFFFF, 127, 0, 1, 0, 1, 0, 0, 0, 0, 0},
    /* SEModel (2018): float positions and normals, up to 255 influences,
     * NUL-terminated bone names (empty is an error), no animations, vertex
     * colours as vec4_b (RGBA u8: 1/255, a writer may truncate or round) */
    {"semodel", 0xFFFFFFFF, 255, 0xFFFFFFFF, 0xFFFFFFFF, 0, 1e-4, 1e-3, 1e-4, 1e-4, 1e-3,
     0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 4, 1.01 / 255, 0, 0, 0},
    /* SAMF v2: 4.12 fixed point (saturating at +-8), u8 bone indices and
     * weights (sum 255), u16 faces, no UVs, 8-byte printable ASCII
     * animation names, times in frames, keyframes without scale (a MATRIX
     * holds a rotation; docs/formats: the writer drops scale), no vertex
     * colours; a zero-length animation is one keyframe */
    {"aamf", 256, 4, 65536, 65535, 7.99f, 1.5 / 4096, 4.0 / 4096, 0, 1.01 / 255, 6.0 / 4096,
     0, 1, 0, 0, 1, 0xFFFF, 8, 1, 0, 0, 0, 0, 0, 0, 0, 1},
    /* E3D: float attributes, u8 bone ids and weights per skin, node names;
     * bones are nested meshNode blocks, and readers (modelcheck's too)
     * stop at 64 levels of blocks; the `colors` attribute (0x2070) is RGBA
     * u8 (0..1 mapped to 0..255); a zero-length animation is one frame */
    {"e3d", 255, 8, 0xFFFFFFFF, 0xFFFFFFFF, 0, 1e-4, 2.5e-3, 1e-4, 1.01 / 255, 1e-3,
     0, 1, 1, 1, 0, 0xFFFFFFFF, 0xFFFF, 0, 0, 60, 1, 4, 1.01 / 255, 0, 0, 1},
    /* NLM: float vertices of 4 influences, bone slots of a 100-entry array,
     * line lists, no names, one animation in ticks; a float RGB colour in
     * every vertex (nlm.md: vec3, no alpha: loaders read alpha as 1), no
     * zero-length animation (nlm.md, Animation Metadata: a duration of 0
     * divides by zero, NLM_ANIMATION_DURATION) */
    {"nlm", 100, 4, 0xFFFFFFFF, 0xFFFFFFFF, 0, 1e-4, 1e-3, 1e-4, 1e-4, 1e-3,
     1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 3, 1e-4, 0, 0, 0},
};

/* binary16 keeps 11 significant bits: a value in [0.5, 1] is rounded by at
 * most 2^-12; 2^-11 leaves room for a writer that renormalises in float
 * before rounding. */
#define MCS_HALF_TOL (1.0 / 2048)

mcs_caps mcs_caps_of_layout(int f, const char *layout)
{
    mcs_caps c = mcs_format_caps[f];
    /* AEM's current layout (docs/formats/aem2025.md) adds to aem1's: joint
     * names (128-byte fields: 127 bytes kept, empty allowed) and embedded
     * textures with their MIP chains. */
    if (strcmp(c.format, "aem") == 0 && layout && strcmp(layout, "2025") == 0) {
        c.bone_names = 1;
        c.empty_names = 1;
        c.bone_name_bytes = 127;
        c.textures = 1;
    }
    if (strcmp(c.format, "semodel") == 0 && layout && strcmp(layout, "draft") == 0) {
        if (c.weight_tol < MCS_HALF_TOL) c.weight_tol = MCS_HALF_TOL;
        if (c.normal_tol < MCS_HALF_TOL) c.normal_tol = MCS_HALF_TOL;
    }
    return c;
}

/* ---- building ------------------------------------------------------------- */

static void *keep(mcs_scene *s, size_t n, size_t size)
{
    if (s->oom) return NULL;
    void *p = calloc(n ? n : 1, size);
    if (p && s->alloc_count == s->alloc_cap) {
        size_t cap = s->alloc_cap ? s->alloc_cap * 2 : 64;
        void **a = realloc(s->allocs, cap * sizeof *a);
        if (!a) free(p), p = NULL;
        else s->allocs = a, s->alloc_cap = cap;
    }
    if (!p) {
        s->oom = 1;
        return NULL;
    }
    s->allocs[s->alloc_count++] = p;
    return p;
}

static char *str(mcs_scene *s, const char *text)
{
    char *p = keep(s, strlen(text) + 1, 1);
    if (p) memcpy(p, text, strlen(text) + 1);
    return p;
}

/* Grows one of the scene's arrays by one zeroed element; index or -1. */
#define PUSH(s, arr, count, cap)                                                       \
    (((count) < (cap) || grow((s), (void **)&(arr), &(cap), sizeof *(arr))) ? (int)(count)++ : -1)

static int grow(mcs_scene *s, void **arr, uint32_t *cap, size_t size)
{
    uint32_t ncap = *cap ? *cap * 2 : 8;
    void *n = keep(s, ncap, size);
    if (!n) return 0;
    if (*arr) memcpy(n, *arr, (size_t)*cap * size);
    *arr = n; /* the old array stays in allocs until the scene is freed */
    *cap = ncap;
    return 1;
}

static int node(mcs_scene *s, const char *name, int parent, float x, float y, float z)
{
    int i = PUSH(s, s->nodes, s->node_count, s->node_cap);
    if (i < 0) return 0;
    mcs_node *n = &s->nodes[i];
    n->name = str(s, name);
    n->parent = parent;
    n->t[0] = x, n->t[1] = y, n->t[2] = z;
    n->r[3] = 1;
    n->s[0] = n->s[1] = n->s[2] = 1;
    n->mesh = n->skin = -1;
    return i;
}

static int mesh(mcs_scene *s, const char *name)
{
    int i = PUSH(s, s->meshes, s->mesh_count, s->mesh_cap);
    if (i >= 0) s->meshes[i].name = str(s, name);
    return i < 0 ? 0 : i;
}

enum { P_NRM = 1, P_UV = 2, P_TAN = 4, P_COLOR = 8 };

/* A primitive of mesh m; index_bits 0 for non-indexed. */
static mcs_prim *prim(mcs_scene *s, int m, int mode, uint32_t nv, uint32_t ni, int index_bits,
                      int flags, int influences)
{
    if (s->oom) return NULL;
    mcs_mesh *me = &s->meshes[m];
    mcs_prim *np = keep(s, me->prim_count + 1, sizeof *np);
    if (!np) return NULL;
    if (me->prim_count) memcpy(np, me->prims, me->prim_count * sizeof *np);
    me->prims = np;
    mcs_prim *p = &np[me->prim_count++];
    p->mode = mode;
    p->vertex_count = nv;
    p->pos = keep(s, (size_t)nv * 3, sizeof(float));
    if (flags & P_NRM) p->nrm = keep(s, (size_t)nv * 3, sizeof(float));
    if (flags & P_UV) p->uv = keep(s, (size_t)nv * 2, sizeof(float));
    if (flags & P_TAN) p->tan = keep(s, (size_t)nv * 4, sizeof(float));
    if (flags & P_COLOR) p->color = keep(s, (size_t)nv * 4, sizeof(float));
    p->influences = influences;
    if (influences) {
        p->joints = keep(s, (size_t)nv * influences, sizeof *p->joints);
        p->weights = keep(s, (size_t)nv * influences, sizeof *p->weights);
    }
    p->index_bits = ni ? index_bits : 0;
    p->index_count = ni;
    if (ni) p->indices = keep(s, ni, sizeof *p->indices);
    p->material = -1;
    return s->oom ? NULL : p;
}

static int skin(mcs_scene *s, const int *joints, uint32_t n)
{
    int i = PUSH(s, s->skins, s->skin_count, s->skin_cap);
    if (i < 0) return 0;
    s->skins[i].joint_count = n;
    s->skins[i].joints = keep(s, n, sizeof(int));
    if (s->skins[i].joints) memcpy(s->skins[i].joints, joints, n * sizeof(int));
    return i;
}

static int anim(mcs_scene *s, const char *name)
{
    int i = PUSH(s, s->anims, s->anim_count, s->anim_cap);
    if (i >= 0) s->anims[i].name = str(s, name);
    return i < 0 ? 0 : i;
}

static void channel(mcs_scene *s, int a, int nd, int path, int interp, uint32_t keys,
                    const float *times, const float *values)
{
    mcs_anim *an = &s->anims[a];
    mcs_channel *nc = keep(s, an->channel_count + 1, sizeof *nc);
    if (!nc) return;
    if (an->channel_count) memcpy(nc, an->channels, an->channel_count * sizeof *nc);
    an->channels = nc;
    mcs_channel *c = &nc[an->channel_count++];
    size_t per = (size_t)(path == MCS_R ? 4 : 3) * (interp == MCS_CUBIC ? 3 : 1);
    c->node = nd, c->path = path, c->interp = interp, c->key_count = keys;
    c->times = keep(s, keys, sizeof(float));
    c->values = keep(s, keys * per, sizeof(float));
    if (s->oom) return;
    memcpy(c->times, times, keys * sizeof(float));
    memcpy(c->values, values, keys * per * sizeof(float));
}

static int material(mcs_scene *s, const char *name, float r, float g, float b, int texture)
{
    int i = PUSH(s, s->materials, s->material_count, s->material_cap);
    if (i < 0) return -1;
    mcs_material *m = &s->materials[i];
    m->name = str(s, name);
    m->color[0] = r, m->color[1] = g, m->color[2] = b, m->color[3] = 1;
    m->texture = texture;
    return i;
}

static int texture(mcs_scene *s, const char *file)
{
    int i = PUSH(s, s->textures, s->texture_count, s->texture_cap);
    if (i >= 0 && file) s->textures[i].file = str(s, file);
    return i;
}

static void set_mesh(mcs_scene *s, int n, int m)
{
    if (!s->oom) s->nodes[n].mesh = m;
}

static void set3(float *v, float x, float y, float z)
{
    v[0] = x, v[1] = y, v[2] = z;
}

/* A quaternion about an axis (x, y or z: 0, 1, 2) by deg degrees. */
static void quat(float *q, int axis, double deg)
{
    double h = deg * 3.14159265358979323846 / 360;
    q[0] = q[1] = q[2] = 0;
    q[axis] = (float)sin(h);
    q[3] = (float)cos(h);
}

/* ---- geometry helpers ------------------------------------------------------ */

/* A quad in the XY plane at z, facing +Z: 4 vertices, 6 indices. */
static void quad(mcs_prim *p, uint32_t v0, uint32_t i0, float x, float y, float w, float h, float z)
{
    static const float cx[4] = {0, 1, 1, 0}, cy[4] = {0, 0, 1, 1};
    for (int k = 0; k < 4; k++) {
        set3(p->pos + (v0 + k) * 3, x + cx[k] * w, y + cy[k] * h, z);
        if (p->nrm) set3(p->nrm + (v0 + k) * 3, 0, 0, 1);
        if (p->uv) p->uv[(v0 + k) * 2] = cx[k], p->uv[(v0 + k) * 2 + 1] = 1 - cy[k];
        if (p->tan) set3(p->tan + (v0 + k) * 4, 1, 0, 0), p->tan[(v0 + k) * 4 + 3] = 1;
    }
    static const uint32_t q[6] = {0, 1, 2, 0, 2, 3};
    if (p->indices)
        for (int k = 0; k < 6; k++) p->indices[i0 + k] = v0 + q[k];
}

static mcs_scene *new_scene(const char *name, const char *group, const char *feature, int has_obj)
{
    mcs_scene *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->name = name, s->group = group, s->feature = feature, s->has_obj = has_obj;
    s->gltf_ignore = "";
    return s;
}

/* ---- static scenes ---------------------------------------------------------- */

static void sc_triangle(mcs_scene *s)
{
    int m = mesh(s, "triangle");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 3, 3, 16, P_NRM, 0);
    if (!p) return;
    set3(p->pos, 0, 0, 0), set3(p->pos + 3, 1, 0, 0), set3(p->pos + 6, 0, 1, 0);
    for (int k = 0; k < 3; k++) set3(p->nrm + k * 3, 0, 0, 1), p->indices[k] = (uint32_t)k;
    set_mesh(s, node(s, "triangle", -1, 0, 0, 0), m);
}

static void sc_cube(mcs_scene *s)
{
    int mat = material(s, "cube_material", 0.75f, 0.5f, 0.25f, -1);
    int m = mesh(s, "cube");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 24, 36, 16, P_NRM | P_UV | P_TAN, 0);
    if (!p) return;
    p->material = mat;
    /* six faces: normal axis, sign; u and v axes chosen so (u, v, n) is right handed */
    static const int ax[6][3] = {{0, 1, 2}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}};
    static const float sg[6] = {1, -1, 1, -1, 1, -1};
    for (int f = 0; f < 6; f++) {
        int n = ax[f][2], u = ax[f][0], v = ax[f][1];
        for (int k = 0; k < 4; k++) {
            float cu = (k == 1 || k == 2) ? 0.5f : -0.5f, cv = k >= 2 ? 0.5f : -0.5f;
            float *pos = p->pos + (f * 4 + k) * 3;
            pos[n] = 0.5f * sg[f];
            pos[u] = cu;
            pos[v] = cv;
            float *nrm = p->nrm + (f * 4 + k) * 3;
            nrm[n] = sg[f];
            float *tan = p->tan + (f * 4 + k) * 4;
            tan[u] = 1;
            tan[3] = 1;
            p->uv[(f * 4 + k) * 2] = cu + 0.5f;
            p->uv[(f * 4 + k) * 2 + 1] = 0.5f - cv;
        }
        /* winding: counter-clockwise seen from outside */
        float cross_sign = sg[f] * ((u + 1) % 3 == v ? 1.0f : -1.0f);
        static const uint32_t ccw[6] = {0, 1, 2, 0, 2, 3}, cw[6] = {0, 2, 1, 0, 3, 2};
        for (int k = 0; k < 6; k++) p->indices[f * 6 + k] = (uint32_t)f * 4 + (cross_sign > 0 ? ccw[k] : cw[k]);
        if (cross_sign < 0)
            for (int k = 0; k < 4; k++) p->tan[(f * 4 + k) * 4 + 3] = -1;
    }
    set_mesh(s, node(s, "cube", -1, 0, 0, 0), m);
}

/* A unit quad at (x, y) with normals and UVs, as a primitive of mesh m. */
static void material_quad(mcs_scene *s, int m, float x, float y, int mat)
{
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 4, 6, 16, P_NRM | P_UV, 0);
    if (!p) return;
    quad(p, 0, 0, x, y, 1, 1, 0);
    p->material = mat;
}

static void sc_materials(mcs_scene *s)
{
    int red = material(s, "red", 1, 0, 0, -1), blue = material(s, "blue", 0, 0, 1, -1);
    int green = material(s, "green", 0, 1, 0, -1);
    int a = mesh(s, "quad"), b = mesh(s, "two_materials");
    material_quad(s, a, 0, 0, red);
    material_quad(s, b, 2, 0, blue);
    material_quad(s, b, 2, 1.5f, green);
    set_mesh(s, node(s, "quad", -1, 0, 0, 0), a);
    set_mesh(s, node(s, "pair", -1, 0, 0, 0.5f), b);
}

static void sc_textures(mcs_scene *s)
{
    int embedded = texture(s, NULL), external = texture(s, "textures_checker.png");
    int a = material(s, "embedded_texture", 1, 1, 1, embedded);
    int b = material(s, "external_texture", 1, 1, 1, external);
    int m = mesh(s, "textured");
    material_quad(s, m, 0, 0, a);
    material_quad(s, m, 1.5f, 0, b);
    set_mesh(s, node(s, "textured", -1, 0, 0, 0), m);
}

/* A quad whose corners are red, green, blue and an orange, with alpha 1, 0.5,
 * 0 and 0.25: every channel takes 0 and 1 somewhere, red and blue differ at
 * three corners (a writer swapping them shows) and alpha is not constant. */
static void sc_vertex_colors(mcs_scene *s)
{
    static const float rgba[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 0.5f}, {0, 0, 1, 0}, {0.75f, 0.5f, 0.25f, 0.25f}};
    int m = mesh(s, "vertex_colors");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 4, 6, 16, P_NRM | P_UV | P_COLOR, 0);
    if (!p) return;
    quad(p, 0, 0, 0, 0, 1, 1, 0);
    memcpy(p->color, rgba, sizeof rgba);
    set_mesh(s, node(s, "vertex_colors", -1, 0, 0, 0), m);
}

static void sc_lines_points(mcs_scene *s)
{
    int m = mesh(s, "mixed");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 3, 3, 16, P_NRM, 0);
    if (!p) return;
    set3(p->pos, 0, 0, 0), set3(p->pos + 3, 1, 0, 0), set3(p->pos + 6, 0, 1, 0);
    for (int k = 0; k < 3; k++) set3(p->nrm + k * 3, 0, 0, 1), p->indices[k] = (uint32_t)k;
    p = prim(s, m, MCS_LINES, 4, 8, 16, 0, 0);
    if (!p) return;
    for (int k = 0; k < 4; k++) set3(p->pos + k * 3, (float)(2 + (k & 1)), (float)(k >> 1), 0);
    static const uint32_t li[8] = {0, 1, 1, 3, 3, 2, 2, 0};
    memcpy(p->indices, li, sizeof li);
    p = prim(s, m, MCS_POINTS, 3, 0, 0, 0, 0);
    if (!p) return;
    for (int k = 0; k < 3; k++) set3(p->pos + k * 3, 4, (float)k * 0.5f, 0);
    set_mesh(s, node(s, "mixed", -1, 0, 0, 0), m);
}

static void sc_non_indexed(mcs_scene *s)
{
    int m = mesh(s, "soup");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 6, 0, 0, P_NRM, 0);
    if (!p) return;
    static const float v[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    memcpy(p->pos, v, sizeof v);
    for (int k = 0; k < 6; k++) set3(p->nrm + k * 3, 0, 0, 1);
    set_mesh(s, node(s, "soup", -1, 0, 0, 0), m);
}

static void sc_index_widths(mcs_scene *s)
{
    static const int bits[3] = {8, 16, 32};
    static const char *const names[3] = {"u8", "u16", "u32"};
    for (int k = 0; k < 3; k++) {
        int m = mesh(s, names[k]);
        mcs_prim *p = prim(s, m, MCS_TRIANGLES, 4, 6, bits[k], P_NRM, 0);
        if (!p) return;
        quad(p, 0, 0, 1.5f * (float)k, 0, 1, 1, 0);
        set_mesh(s, node(s, names[k], -1, 0, 0, 0), m);
    }
}

/* 21846 separate triangles: 65538 vertices no welding can merge. */
static void sc_many_vertices(mcs_scene *s)
{
    uint32_t tris = 21846, nv = tris * 3;
    int m = mesh(s, "many");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, nv, 0, 0, 0, 0);
    if (!p) return;
    for (uint32_t t = 0; t < tris; t++) {
        float x = (float)(t % 148) / 16 - 4.5f, y = (float)(t / 148) / 16 - 4.5f;
        set3(p->pos + t * 9, x, y, 0);
        set3(p->pos + t * 9 + 3, x + 1.0f / 32, y, 0);
        set3(p->pos + t * 9 + 6, x, y + 1.0f / 32, 0);
    }
    set_mesh(s, node(s, "many", -1, 0, 0, 0), m);
}

static void sc_instances(mcs_scene *s)
{
    int m = mesh(s, "shared");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 3, 3, 16, P_NRM, 0);
    if (!p) return;
    set3(p->pos, 0, 0, 0), set3(p->pos + 3, 1, 0, 0), set3(p->pos + 6, 0, 1, 0.5f);
    for (int k = 0; k < 3; k++) set3(p->nrm + k * 3, 0, 0, 1), p->indices[k] = (uint32_t)k;
    set_mesh(s, node(s, "plain", -1, 0, 0, 0), m);
    int mirrored = node(s, "mirrored", -1, -0.5f, 0, 0);
    s->nodes[mirrored].mesh = m;
    set3(s->nodes[mirrored].s, -1, 1, 1);
    int parent = node(s, "turned", -1, 0, 2, 0);
    quat(s->nodes[parent].r, 2, 90);
    set3(s->nodes[parent].s, 2, 2, 2);
    int child = node(s, "child_of_turned", parent, 0.5f, 0, 0);
    s->nodes[child].mesh = m;
}

static void sc_degenerate(mcs_scene *s)
{
    int m = mesh(s, "degenerate");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 5, 12, 16, 0, 0);
    if (!p) return;
    quad(p, 0, 0, 0, 0, 1, 1, 0);
    set3(p->pos + 12, 2, 2, 0); /* collinear with vertex 0 and 2 */
    static const uint32_t extra[6] = {0, 0, 1, 0, 2, 4};
    memcpy(p->indices + 6, extra, sizeof extra);
    set_mesh(s, node(s, "degenerate", -1, 0, 0, 0), m);
}

static void sc_far(mcs_scene *s)
{
    int m = mesh(s, "far");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, 3, 3, 16, P_NRM, 0);
    if (!p) return;
    set3(p->pos, 20, 0, 0), set3(p->pos + 3, 21, 0, 0), set3(p->pos + 6, 20, -12, 0);
    for (int k = 0; k < 3; k++) set3(p->nrm + k * 3, 0, 0, -1), p->indices[k] = (uint32_t)k;
    set_mesh(s, node(s, "far", -1, 0, 0, 0), m);
}

static void sc_empty(mcs_scene *s)
{
    (void)s;
}

/* ---- skinned scenes ----------------------------------------------------------- */

/* A strip of 2 * rows vertices up the Y axis, skinned to the skin's joints
 * by fn(row, side, joints, weights). */
typedef void (*weigh_fn)(uint32_t row, int side, uint32_t joints, uint16_t *j, float *w);

static int strip(mcs_scene *s, const char *name, int sk, uint32_t rows, float step, float x0,
                 int influences, weigh_fn fn)
{
    int m = mesh(s, name);
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, rows * 2, (rows - 1) * 6, rows * 2 > 255 ? 16 : 8, P_NRM,
                       influences);
    if (!p) return -1;
    for (uint32_t r = 0; r < rows; r++)
        for (int side = 0; side < 2; side++) {
            uint32_t v = r * 2 + (uint32_t)side;
            set3(p->pos + v * 3, x0 + (side ? 0.25f : -0.25f), (float)r * step, 0);
            set3(p->nrm + v * 3, 0, 0, 1);
            fn(r, side, s->skins[sk].joint_count, p->joints + (size_t)v * influences,
               p->weights + (size_t)v * influences);
        }
    for (uint32_t r = 0; r + 1 < rows; r++) {
        uint32_t a = r * 2, q[6] = {a, a + 1, a + 3, a, a + 3, a + 2};
        memcpy(p->indices + r * 6, q, sizeof q);
    }
    int n = node(s, name, -1, 0, 0, 0);
    s->nodes[n].mesh = m;
    s->nodes[n].skin = sk;
    return n;
}

/* A chain of n bones up Y from (x, 0, 0), step apart; returns the first node. */
static int chain(mcs_scene *s, const char *prefix, uint32_t n, float step, float x, int parent)
{
    int first = -1, prev = parent;
    for (uint32_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%u", prefix, i);
        int b = node(s, name, prev, i == 0 ? x : 0, i == 0 ? 0 : step, 0);
        if (first < 0) first = b;
        prev = b;
    }
    return first;
}

static void w_one_to_four(uint32_t row, int side, uint32_t joints, uint16_t *j, float *w)
{
    /* rows 0..3 have 1..4 influences */
    uint32_t n = row % 4 + 1;
    if (n > joints) n = joints;
    static const float table[4][4] = {{1, 0, 0, 0}, {0.75f, 0.25f, 0, 0}, {0.5f, 0.25f, 0.25f, 0},
                                      {0.375f, 0.25f, 0.25f, 0.125f}};
    for (uint32_t k = 0; k < 4; k++) {
        j[k] = (uint16_t)(k < n ? (row + k + (uint32_t)side) % joints : 0);
        w[k] = table[n - 1][k];
    }
}

static void w_eight(uint32_t row, int side, uint32_t joints, uint16_t *j, float *w)
{
    static const float table[8] = {0.3f, 0.2f, 0.15f, 0.11f, 0.09f, 0.07f, 0.05f, 0.03f};
    for (uint32_t k = 0; k < 8; k++) {
        j[k] = (uint16_t)((row + k + (uint32_t)side) % joints);
        w[k] = table[k];
    }
}

static void w_unnormalised(uint32_t row, int side, uint32_t joints, uint16_t *j, float *w)
{
    /* sums 0.5, 1.5 and 0.8: the exporter must normalise */
    static const float sums[3][2] = {{0.25f, 0.25f}, {1.0f, 0.5f}, {0.5f, 0.3f}};
    j[0] = (uint16_t)(row % joints), j[1] = (uint16_t)((row + 1) % joints), j[2] = j[3] = 0;
    w[0] = sums[row % 3][0], w[1] = sums[row % 3][1], w[2] = w[3] = 0;
    (void)side;
}

static void w_own_bone(uint32_t row, int side, uint32_t joints, uint16_t *j, float *w)
{
    (void)side;
    j[0] = (uint16_t)(row < joints ? row : joints - 1), j[1] = j[2] = j[3] = 0;
    w[0] = 1, w[1] = w[2] = w[3] = 0;
}

static int chain_skin(mcs_scene *s, int first, uint32_t n)
{
    int *j = malloc(n * sizeof *j);
    if (!j) return s->oom = 1, 0;
    for (uint32_t i = 0; i < n; i++) j[i] = first + (int)i;
    int k = skin(s, j, n);
    free(j);
    return k;
}

/* Rotates bones of a chain about Z: linear, 3 keys over 1 s. */
static void wave(mcs_scene *s, int a, int bone, float seconds)
{
    float t[3] = {0, seconds / 2, seconds}, r[12];
    quat(r, 2, 0), quat(r + 4, 2, 30), quat(r + 8, 2, 0);
    channel(s, a, bone, MCS_R, MCS_LINEAR, 3, t, r);
}

static void sc_skin4(mcs_scene *s)
{
    int first = chain(s, "bone", 4, 0.5f, 0, -1);
    int sk = chain_skin(s, first, 4);
    strip(s, "skinned", sk, 8, 0.25f, 0, 4, w_one_to_four);
    int a = anim(s, "bend");
    wave(s, a, first + 1, 1);
    wave(s, a, first + 2, 1);
}

static void sc_skin8(mcs_scene *s)
{
    int first = chain(s, "bone", 8, 0.25f, 0, -1);
    int sk = chain_skin(s, first, 8);
    strip(s, "skinned8", sk, 8, 0.25f, 0, 8, w_eight);
}

static void sc_unnormalised(mcs_scene *s)
{
    int first = chain(s, "bone", 3, 0.5f, 0, -1);
    int sk = chain_skin(s, first, 3);
    strip(s, "unnormalised", sk, 6, 0.25f, 0, 4, w_unnormalised);
    s->gltf_ignore = "ACCESSOR_WEIGHTS_NON_NORMALIZED";
}

/* n bones on a grid (distinct bind positions): a root, 19 children of it,
 * then every bone i >= 20 a child of bone i / 20 (a tree 3 levels deep). */
static void grid_at(uint32_t i, float *xy)
{
    xy[0] = (float)(i % 20) * 0.25f - 2.5f;
    xy[1] = (float)(i / 20) * 0.25f - 2.0f;
}

static void many_bones(mcs_scene *s, uint32_t n)
{
    float at[2], up[2];
    grid_at(0, at);
    int root = node(s, "root", -1, at[0], at[1], 0);
    int *j = malloc(n * sizeof *j);
    if (!j) {
        s->oom = 1;
        return;
    }
    j[0] = root;
    for (uint32_t i = 1; i < n; i++) {
        char name[32];
        uint32_t parent = i >= 20 ? i / 20 : 0;
        snprintf(name, sizeof name, "b%03u", i);
        grid_at(i, at);
        grid_at(parent, up);
        j[i] = node(s, name, j[parent], at[0] - up[0], at[1] - up[1], 0);
    }
    int sk = skin(s, j, n);
    free(j);
    /* one triangle per bone, at the bone, weighted to it */
    int m = mesh(s, "bones");
    mcs_prim *p = prim(s, m, MCS_TRIANGLES, n * 3, 0, 0, 0, 4);
    float *rest = malloc(((size_t)s->node_count + 1) * 16 * sizeof *rest);
    if (!p || !rest) {
        free(rest);
        s->oom = 1;
        return;
    }
    mcs_node_globals(s, -1, 0, rest);
    for (uint32_t i = 0; i < n; i++) {
        const float *g = rest + (size_t)s->skins[sk].joints[i] * 16;
        set3(p->pos + i * 9, g[12], g[13], 0.25f);
        set3(p->pos + i * 9 + 3, g[12] + 0.125f, g[13], 0.25f);
        set3(p->pos + i * 9 + 6, g[12], g[13] + 0.125f, 0.25f);
        for (int v = 0; v < 3; v++) p->joints[(i * 3 + (uint32_t)v) * 4] = (uint16_t)i, p->weights[(i * 3 + (uint32_t)v) * 4] = 1;
    }
    free(rest);
    int mn = node(s, "bones_mesh", -1, 0, 0, 0);
    s->nodes[mn].mesh = m;
    s->nodes[mn].skin = sk;
}

static void sc_bones255(mcs_scene *s) { many_bones(s, 255); }
static void sc_bones256(mcs_scene *s) { many_bones(s, 256); }
static void sc_bones300(mcs_scene *s) { many_bones(s, 300); }

static void sc_chain128(mcs_scene *s)
{
    int first = chain(s, "link", 128, 0.046875f, 0, -1);
    int sk = chain_skin(s, first, 128);
    strip(s, "chain", sk, 128, 0.046875f, 0, 4, w_own_bone);
    int a = anim(s, "curl");
    wave(s, a, first + 64, 2);
}

/* Joints and nodes listed children first: the root is the last node. */
static void sc_reversed(mcs_scene *s)
{
    int n3 = node(s, "tip", -1, 0, 0.5f, 0);
    int n2 = node(s, "middle", -1, 0, 0.5f, 0);
    int n1 = node(s, "root", -1, 0, 0, 0);
    s->nodes[n3].parent = n2;
    s->nodes[n2].parent = n1;
    int j[3] = {n3, n2, n1};
    int sk = skin(s, j, 3);
    strip(s, "reversed", sk, 3, 0.5f, 0, 4, w_own_bone);
    /* w_own_bone gives row r joint slot r: row 0 -> tip; make the rows match the bones */
    mcs_prim *p = &s->meshes[s->mesh_count - 1].prims[0];
    for (uint32_t v = 0; v < 6; v++) p->joints[v * 4] = (uint16_t)(2 - v / 2);
    int a = anim(s, "swing");
    wave(s, a, n2, 1);
}

static void sc_two_skins(mcs_scene *s)
{
    int a0 = chain(s, "left", 3, 0.5f, -1, -1);
    int b0 = chain(s, "right", 2, 0.5f, 1, -1);
    int ka = chain_skin(s, a0, 3), kb = chain_skin(s, b0, 2);
    strip(s, "left_strip", ka, 3, 0.5f, -1, 4, w_own_bone);
    strip(s, "right_strip", kb, 2, 0.5f, 1, 4, w_own_bone);
    int a = anim(s, "both");
    wave(s, a, a0 + 1, 1);
    wave(s, a, b0 + 1, 1);
}

static void sc_interpolation(mcs_scene *s)
{
    int first = chain(s, "bone", 4, 0.5f, 0, -1);
    int sk = chain_skin(s, first, 4);
    strip(s, "animated", sk, 8, 0.25f, 0, 4, w_one_to_four);
    int a = anim(s, "three_samplers");
    float t2[2] = {0, 1}, t4[4] = {0, 0.25f, 0.5f, 1};
    float tr[6] = {0, 0, 0, 0.25f, 0, 0};
    channel(s, a, first, MCS_T, MCS_LINEAR, 2, t2, tr);
    float st[12];
    quat(st, 2, 0), quat(st + 4, 2, 20), quat(st + 8, 2, -20);
    float t3[3] = {0, 0.5f, 1};
    channel(s, a, first + 1, MCS_R, MCS_STEP, 3, t3, st);
    /* cubic: in-tangent, value, out-tangent per key, scale */
    float cs[36] = {0};
    for (int k = 0; k < 4; k++) {
        float v = 1 + 0.125f * (float)(k % 2);
        set3(cs + k * 9 + 3, v, v, v);
        set3(cs + k * 9, 0.25f, 0.25f, 0.25f);
        set3(cs + k * 9 + 6, -0.25f, -0.25f, -0.25f);
    }
    channel(s, a, first + 2, MCS_S, MCS_CUBIC, 4, t4, cs);
    /* bone 3 has no channel */
}

static void sc_animations(mcs_scene *s)
{
    int first = chain(s, "bone", 3, 0.5f, 0, -1);
    int sk = chain_skin(s, first, 3);
    strip(s, "animated", sk, 6, 0.25f, 0, 4, w_one_to_four);
    int a = anim(s, "walk");
    wave(s, a, first + 1, 2);
    float t5[5] = {0, 0.5f, 1, 1.5f, 2}, tr[15] = {0, 0, 0, 0, 0.125f, 0, 0, 0.25f, 0, 0, 0.125f, 0, 0, 0, 0};
    channel(s, a, first, MCS_T, MCS_LINEAR, 5, t5, tr);
    a = anim(s, "idle");
    wave(s, a, first + 2, 1);
    a = anim(s, "pose");
    float t0[1] = {0}, r0[4];
    quat(r0, 2, 45);
    channel(s, a, first + 1, MCS_R, MCS_LINEAR, 1, t0, r0);
}

static void sc_names(mcs_scene *s)
{
    char n127[128], n128[129], n300[301];
    memset(n127, 'a', 127), n127[127] = 0;
    memset(n128, 'b', 128), n128[128] = 0;
    memset(n300, 'c', 300), n300[300] = 0;
    const char *names[5] = {"", n127, n128, n300, "os_\xc3\xa9paule_\xe9\xaa\xa8_\xf0\x9f\xa6\xb4"};
    int prev = -1, first = -1;
    for (int i = 0; i < 5; i++) {
        prev = node(s, names[i], prev, 0, i ? 0.25f : 0, 0);
        if (first < 0) first = prev;
    }
    int sk = chain_skin(s, first, 5);
    int n = strip(s, "", sk, 5, 0.25f, 0, 4, w_own_bone);
    (void)n;
    const char *anims[5] = {"", n127, n128, n300, "\xc3\xa9l\xc3\xa1n_\xe8\xb7\xb3"};
    for (int i = 0; i < 5; i++) {
        int a = anim(s, anims[i]);
        wave(s, a, first + 1, 1);
    }
}

/* ---- the list ------------------------------------------------------------------ */

typedef struct def {
    const char *name, *group, *feature;
    int has_obj;
    void (*build)(mcs_scene *s);
} def;

static const def defs[] = {
    {"triangle", "geometry", "one triangle", 1, sc_triangle},
    {"cube", "geometry", "a cube with normals, UVs and tangents, one material", 1, sc_cube},
    {"materials", "materials", "several meshes and materials, a mesh with two primitives", 1, sc_materials},
    {"textures", "materials", "textures: one embedded (data: URI), one external file", 1, sc_textures},
    /* no OBJ form: OBJ has no vertex colour, and the colours are facts (as
     * skins are, whose scenes have none either) */
    {"vertex_colors", "materials", "vertex colours (COLOR_0, float RGBA) differing at every corner", 0, sc_vertex_colors},
    {"lines_points", "geometry", "a triangle, line and point primitives", 1, sc_lines_points},
    {"non_indexed", "geometry", "non-indexed triangles", 1, sc_non_indexed},
    {"index_widths", "geometry", "8-, 16- and 32-bit indices", 1, sc_index_widths},
    {"many_vertices", "geometry", "65,538 vertices (more than 16-bit indices address)", 1, sc_many_vertices},
    {"instances", "transforms", "one mesh instanced by 3 nodes: negative scale, rotated and scaled parent", 1, sc_instances},
    {"degenerate", "geometry", "degenerate triangles (repeated index, collinear)", 1, sc_degenerate},
    {"far_coordinates", "geometry", "coordinates beyond SAMF's 4.12 fixed-point range", 1, sc_far},
    {"empty", "geometry", "an empty scene: no node, no mesh", 0, sc_empty},
    {"skin_1_to_4", "skins", "a skin with 1 to 4 influences per vertex, one animation", 0, sc_skin4},
    {"skin_8", "skins", "8 influences per vertex (prune to the format's limit and renormalise, or refuse)", 0, sc_skin8},
    {"skin_unnormalised", "skins", "skin weights that do not sum to 1 in the source", 0, sc_unnormalised},
    {"bones_255", "skeletons", "255 bones", 0, sc_bones255},
    {"bones_256", "skeletons", "256 bones", 0, sc_bones256},
    {"bones_300", "skeletons", "300 bones", 0, sc_bones300},
    {"chain_128", "skeletons", "a 128-deep bone chain", 0, sc_chain128},
    {"joints_reversed", "skeletons", "joints and nodes listed children before parents", 0, sc_reversed},
    {"two_skins", "skeletons", "two skins (two skeletons)", 0, sc_two_skins},
    {"interpolation", "animations", "linear, step and cubic-spline samplers, different key counts, a bone without channels", 0, sc_interpolation},
    {"animations", "animations", "three animations, one of zero length", 0, sc_animations},
    {"names", "names", "names empty, 127, 128 and 300 bytes long, non-ASCII UTF-8", 0, sc_names},
};

size_t mcs_scene_count(void)
{
    return sizeof defs / sizeof *defs;
}

const char *mcs_scene_name(size_t i)
{
    return i < mcs_scene_count() ? defs[i].name : NULL;
}

/* ---- what fits where -------------------------------------------------------------- */

/* Why a format cannot (fully) hold a scene: the note scenes.json and the
 * certificates show, and the words an exporter's refusal may use to say so
 * (mcs_reason_named; docs/CERTIFY.md, Verdicts, lists them). A word ending
 * in '*' takes any ending (vert* for vertex, vertices, verts). */
enum {
    R_BONES, R_COORDS, R_VERTICES, R_TRIANGLES, R_CHAIN, R_INFLUENCES, R_LINES, R_POINTS, R_UVS, R_COLOURS,
    R_ALPHA, R_MORE_ANIMS, R_NO_ANIMS, R_ANIM_SCALE, R_ZERO_LENGTH, R_ANIM_NAMES, R_ASCII_NAMES, R_EMPTY_NAME,
    R_NOTHING, R_COUNT
};
static const struct {
    const char *note, *words;
} reasons[R_COUNT] = {
    [R_BONES] = {"more bones than the format addresses", "bone*|joint*|skeleton*|skeletal"},
    [R_COORDS] = {"coordinates beyond the fixed-point range",
                  "coordinate*|range*|position*|fixed-point|fixed point|4.12|overflow*|too large|too big"},
    [R_VERTICES] = {"more vertices than the faces address", "vert*|index|indices|indexes|16-bit|u16"},
    [R_TRIANGLES] = {"more triangles than the format holds", "triangle*|face*|polygon*|index|indices|indexes"},
    [R_CHAIN] = {"a bone chain deeper than the 64 block levels readers nest",
                 "chain*|deep*|depth*|nest*|level*|hierarch*"},
    [R_INFLUENCES] = {"more influences per vertex: prune and renormalise", "influence*|weight*"},
    [R_LINES] = {"line primitives are dropped", "line|lines|segment*|primitive*"},
    [R_POINTS] = {"point primitives are dropped", "point|points|primitive*"},
    [R_UVS] = {"UVs are dropped", "uv|uvs|texcoord*|texture coord*"},
    [R_COLOURS] = {"vertex colours are dropped", "colour*|color*"},
    [R_ALPHA] = {"vertex colour alpha is dropped", "alpha|colour*|color*|transparen*|opacity"},
    [R_MORE_ANIMS] = {"more animations than the format holds", "animation*|clip*"},
    [R_NO_ANIMS] = {"animations are dropped", "animation*|clip*"},
    [R_ANIM_SCALE] = {"animated bone scale is dropped", "scale*|scaling"},
    [R_ZERO_LENGTH] = {"a zero-length animation cannot be stored (its duration must be > 0)",
                       "zero*|length*|duration*|instant*"},
    [R_ANIM_NAMES] = {"animation names are cut to the format's field", "name*"},
    [R_ASCII_NAMES] = {"non-ASCII animation names must be replaced", "name*|ascii|utf*|unicode"},
    [R_EMPTY_NAME] = {"an empty bone name must be replaced", "name*"},
    [R_NOTHING] = {"nothing to export",
                   "empty|nothing|no mesh*|no triangle*|no geometry|no node*|no primitive*"},
};

static void note(mcs_scene *s, int f, mcs_fit fit, int why)
{
    if (fit > s->fit[f]) s->fit[f] = fit;
    size_t used = strlen(s->note[f]);
    snprintf(s->note[f] + used, sizeof s->note[f] - used, "%s%s", used ? "; " : "", reasons[why].note);
}

static int alnum(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* A word starts (or, before p[i], ends) at i: after no letter or digit, or
 * where a lower-case letter meets an upper-case one (TooManyBones). */
static int boundary(const char *p, size_t i)
{
    return i == 0 || !alnum((unsigned char)p[i - 1]) || !alnum((unsigned char)p[i]) ||
           (p[i - 1] >= 'a' && p[i - 1] <= 'z' && p[i] >= 'A' && p[i] <= 'Z');
}

/* Does text hold the word w (n bytes, any case; a trailing '*': any
 * ending) as a whole word? */
static int has_word(const char *text, const char *w, size_t n)
{
    int stem = n > 0 && w[n - 1] == '*';
    n -= (size_t)stem;
    size_t len = strlen(text);
    for (size_t i = 0; n && i + n <= len; i++) {
        if (!boundary(text, i) || strncasecmp(text + i, w, n) != 0) continue;
        if (stem || i + n == len || boundary(text, i + n)) return 1;
    }
    return 0;
}

int mcs_reason_named(const char *note, const char *said)
{
    for (int r = 0; r < R_COUNT; r++) {
        if (!strstr(note, reasons[r].note)) continue;
        for (const char *w = reasons[r].words; *w; w += strcspn(w, "|") + (w[strcspn(w, "|")] == '|'))
            if (has_word(said, w, strcspn(w, "|"))) return 1;
    }
    return 0;
}

int mcs_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7E) return 0;
    return 1;
}

static uint32_t longest_anim_name(const mcs_scene *s)
{
    size_t n = 0;
    for (uint32_t a = 0; a < s->anim_count; a++)
        if (strlen(s->anims[a].name) > n) n = strlen(s->anims[a].name);
    return (uint32_t)n;
}

/* Does animation a change a node's scale (a channel holding the node's rest
 * scale, with flat tangents, changes no pose)? */
static int animates_scale(const mcs_scene *s, const mcs_anim *a)
{
    for (uint32_t c = 0; c < a->channel_count; c++) {
        const mcs_channel *ch = &a->channels[c];
        if (ch->path != MCS_S) continue;
        int cubic = ch->interp == MCS_CUBIC;
        for (uint32_t k = 0; k < ch->key_count * (cubic ? 3u : 1u); k++) {
            const float *v = ch->values + (size_t)k * 3;
            int tangent = cubic && k % 3 != 1;
            for (int e = 0; e < 3; e++)
                if (v[e] != (tangent ? 0.0f : s->nodes[ch->node].s[e])) return 1;
        }
    }
    return 0;
}

/* An animation of no length: every key at time 0 (or none). */
static int zero_length(const mcs_anim *a)
{
    for (uint32_t c = 0; c < a->channel_count; c++)
        for (uint32_t k = 0; k < a->channels[c].key_count; k++)
            if (a->channels[c].times[k] > 0) return 0;
    return 1;
}

static void fit_format(mcs_scene *s, const mcs_facts *f, int k)
{
    const mcs_caps *c = &mcs_format_caps[k];
    uint32_t vertices = 0, uvs = 0, colors = 0, alpha = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        for (uint32_t p = 0; p < s->meshes[m].prim_count; p++) {
            vertices += s->meshes[m].prims[p].vertex_count;
            uvs += s->meshes[m].prims[p].uv != NULL;
            colors += s->meshes[m].prims[p].color != NULL;
        }
    for (uint32_t t = 0; t < f->triangle_count * 3; t++) alpha += f->tri[t].has_color && f->tri[t].color[3] != 1;
    if (f->bone_count > c->max_bones) note(s, k, MCS_NO_FIT, R_BONES);
    if (c->max_coord > 0 && f->max_abs_coord > c->max_coord)
        note(s, k, MCS_NO_FIT, R_COORDS);
    if (f->triangle_count * 3 > c->max_vertices && f->triangle_count > 0 && vertices > c->max_vertices)
        note(s, k, MCS_NO_FIT, R_VERTICES);
    if (f->triangle_count > c->max_triangles) note(s, k, MCS_NO_FIT, R_TRIANGLES);
    for (uint32_t b = 0; b < f->bone_count && c->max_bone_depth; b++) {
        uint32_t d = 1;
        for (int p = f->bones[b].parent; p >= 0 && d <= f->bone_count; p = f->bones[p].parent) d++;
        if (d > c->max_bone_depth) {
            note(s, k, MCS_NO_FIT, R_CHAIN);
            break;
        }
    }
    if (f->max_influences > c->max_influences) note(s, k, MCS_LOSSY, R_INFLUENCES);
    if (f->line_count && !c->lines) note(s, k, MCS_LOSSY, R_LINES);
    if (f->point_count) note(s, k, MCS_LOSSY, R_POINTS);
    if (uvs && !c->uvs) note(s, k, MCS_LOSSY, R_UVS);
    if (colors && !c->colors) note(s, k, MCS_LOSSY, R_COLOURS);
    else if (alpha && c->colors < 4) note(s, k, MCS_LOSSY, R_ALPHA);
    if (s->anim_count > c->max_animations)
        note(s, k, MCS_LOSSY, c->max_animations ? R_MORE_ANIMS : R_NO_ANIMS);
    for (uint32_t a = 0; a < s->anim_count && c->max_animations && !c->anim_scale; a++)
        if (animates_scale(s, &s->anims[a])) {
            note(s, k, MCS_LOSSY, R_ANIM_SCALE);
            break;
        }
    for (uint32_t a = 0; a < s->anim_count && a < c->max_animations && !c->zero_length_anims; a++)
        if (zero_length(&s->anims[a])) {
            note(s, k, MCS_LOSSY, R_ZERO_LENGTH);
            break;
        }
    if (s->anim_count && c->anim_name_bytes && longest_anim_name(s) > c->anim_name_bytes)
        note(s, k, MCS_LOSSY, R_ANIM_NAMES);
    for (uint32_t a = 0; a < s->anim_count && c->ascii_names && c->max_animations; a++)
        if (!mcs_ascii(s->anims[a].name)) {
            note(s, k, MCS_LOSSY, R_ASCII_NAMES);
            break;
        }
    for (uint32_t b = 0; b < f->bone_count && c->bone_names && !c->empty_names; b++)
        if (!f->bones[b].name[0]) {
            note(s, k, MCS_LOSSY, R_EMPTY_NAME);
            break;
        }
    if (!f->triangle_count && !f->line_count) note(s, k, MCS_LOSSY, R_NOTHING);
}

mcs_scene *mcs_scene_build(size_t i)
{
    if (i >= mcs_scene_count()) return NULL;
    mcs_scene *s = new_scene(defs[i].name, defs[i].group, defs[i].feature, defs[i].has_obj);
    if (!s) return NULL;
    defs[i].build(s);
    mcs_facts f;
    if (s->oom || mcs_facts_build(s, &f) != 0) {
        mcs_scene_free(s);
        return NULL;
    }
    for (int k = 0; k < MCS_FORMAT_COUNT; k++) fit_format(s, &f, k);
    mcs_facts_free(&f);
    return s;
}

void mcs_scene_free(mcs_scene *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->alloc_count; i++) free(s->allocs[i]);
    free(s->allocs);
    free(s);
}
