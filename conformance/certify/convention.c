/*
 * Conventions: a whole-model transform an exporter applies on purpose (a
 * bottom-left UV origin, another up axis, another unit, clockwise front
 * faces). The model is undone under a candidate convention and judged by
 * mcx_faithful as it stands; a convention explains an output when nothing
 * is lost under it. docs/CERTIFY.md, "Conventions", has the rule set.
 *
 * Undoing: positions p' = U p and normals n' = R^-1 n, with U = R^-1 / s the
 * inverse of the exporter's C = s R; V' = 1 - V; corners 1 and 2 swapped.
 * Bones get a new root bone whose rest pose is U (every former root its
 * child) and inverse binds IB C, so every global pose is U G and every
 * skinning matrix U S C: the scene's own, whatever the animation tracks
 * hold, without touching them.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_exporter.h"

static const char *const up_names[MCX_UP_COUNT] = {"y", "z", "-z", "x", "-x", "-y"};
static const char *const up_maps[MCX_UP_COUNT] = {
    "(x, y, z)", "(x, -z, y)", "(x, z, -y)", "(y, -x, z)", "(-y, x, z)", "(x, -y, -z)"};
/* the rotation undoing each (its inverse) */
static const int up_inverse[MCX_UP_COUNT] = {MCX_UP_Y, MCX_UP_NEG_Z, MCX_UP_Z, MCX_UP_NEG_X, MCX_UP_X, MCX_UP_NEG_Y};

/* output = scene * scale: powers of ten and the inch and foot, both ways */
static const double scales[] = {1,    100,   0.01,       10,         0.1,         1000,        0.001,
                                2.54, 0.0254, 0.3048, 1 / 2.54, 1 / 0.0254, 1 / 0.3048};

mcx_convention mcx_convention_none(void)
{
    return (mcx_convention){0, MCX_UP_Y, 1, 0, MCX_LOOP_EITHER};
}

mcx_convention mcx_convention_any(void)
{
    return (mcx_convention){-1, -1, 0, -1, MCX_LOOP_EITHER};
}

/* The geometric fields: the reading of animation frames is settled apart
 * (exporter.c, settle_loops), per animation and then per run. */
int mcx_convention_equal(const mcx_convention *a, const mcx_convention *b)
{
    return a->flip_v == b->flip_v && a->up == b->up && fabs(a->scale - b->scale) <= 1e-9 * fabs(b->scale) &&
           a->reversed == b->reversed;
}

int mcx_convention_is_none(const mcx_convention *c)
{
    mcx_convention n = mcx_convention_none();
    return mcx_convention_equal(c, &n);
}

/* A demand's fixed fields, the free ones as none. */
static mcx_convention fixed_or_none(const mcx_convention *want)
{
    mcx_convention c = mcx_convention_none();
    if (!want) return c;
    if (want->flip_v >= 0) c.flip_v = want->flip_v;
    if (want->up >= 0) c.up = want->up;
    if (want->scale > 0) c.scale = want->scale;
    if (want->reversed >= 0) c.reversed = want->reversed;
    c.loop = want->loop;
    return c;
}

static int allowed(const mcx_convention *want, const mcx_convention *c)
{
    return !want || ((want->flip_v < 0 || want->flip_v == c->flip_v) && (want->up < 0 || want->up == c->up) &&
                     (!(want->scale > 0) || fabs(want->scale - c->scale) <= 1e-9 * want->scale) &&
                     (want->reversed < 0 || want->reversed == c->reversed));
}

int mcx_convention_parse(const char *text, mcx_convention *out, char *why, size_t why_size)
{
    *out = mcx_convention_any();
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, ",");
        char item[64];
        if (n == 0 || n >= sizeof item) {
            snprintf(why, why_size, "--convention: expected KEY=VALUE items separated by commas, got '%s'", text);
            return -1;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        p += n + (p[n] == ',');
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(why, why_size, "--convention: '%s' is not KEY=VALUE (uv=, up=, scale=, winding=, loop=)", item);
            return -1;
        }
        *eq = '\0';
        const char *v = eq + 1;
        int bad = 0;
        if (strcmp(item, "uv") == 0) {
            if (strcmp(v, "top-left") == 0) out->flip_v = 0;
            else if (strcmp(v, "bottom-left") == 0) out->flip_v = 1;
            else bad = 1;
        } else if (strcmp(item, "up") == 0) {
            int u = 0;
            while (u < MCX_UP_COUNT && strcmp(v, up_names[u]) != 0) u++;
            if (u == MCX_UP_COUNT) bad = 1;
            else out->up = u;
        } else if (strcmp(item, "scale") == 0) {
            char *end;
            double s = strtod(v, &end);
            if (*end || !(s > 0) || !isfinite(s)) bad = 1;
            else out->scale = s;
        } else if (strcmp(item, "winding") == 0) {
            if (strcmp(v, "ccw") == 0) out->reversed = 0;
            else if (strcmp(v, "cw") == 0) out->reversed = 1;
            else bad = 1;
        } else if (strcmp(item, "loop") == 0) {
            if (strcmp(v, "yes") == 0) out->loop = MCX_LOOP_WRAP;
            else if (strcmp(v, "no") == 0) out->loop = MCX_LOOP_END;
            else bad = 1;
        } else {
            snprintf(why, why_size, "--convention: unknown key '%s' (uv, up, scale, winding, loop)", item);
            return -1;
        }
        if (bad) {
            snprintf(why, why_size,
                     "--convention: bad value '%s' for %s (uv=top-left|bottom-left, up=y|z|-z|x|-x|-y, scale=N > 0, "
                     "winding=ccw|cw, loop=yes|no)",
                     v, item);
            return -1;
        }
    }
    return 0;
}

void mcx_convention_text(const mcx_convention *c, unsigned uv_vertices, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
#define ADD(...)                                                                                                       \
    do {                                                                                                               \
        if (used < size) {                                                                                             \
            int w_ = snprintf(buf + used, size - used, __VA_ARGS__);                                                   \
            if (w_ > 0) used += (size_t)w_;                                                                            \
        }                                                                                                              \
    } while (0)
    if (c->flip_v > 0 && uv_vertices) ADD("UV origin bottom-left: V flipped at all %u vertices", uv_vertices);
    else if (c->flip_v > 0) ADD("UV origin bottom-left (V flipped: v' = 1 - v)");
    if (c->up > 0 && c->up < MCX_UP_COUNT)
        ADD("%s%s-up: (x, y, z) -> %s", used ? "; " : "", c->up == MCX_UP_NEG_Z   ? "-Z"
                                                          : c->up == MCX_UP_Z     ? "Z"
                                                          : c->up == MCX_UP_X     ? "X"
                                                          : c->up == MCX_UP_NEG_X ? "-X"
                                                                                  : "-Y",
            up_maps[c->up]);
    if (c->scale > 0 && fabs(c->scale - 1) > 1e-12) {
        const char *unit = fabs(c->scale - 100) < 1e-9    ? " (metres to centimetres)"
                           : fabs(c->scale - 1000) < 1e-9 ? " (metres to millimetres)"
                           : fabs(c->scale - 0.01) < 1e-12 ? " (centimetres to metres)"
                           : fabs(c->scale - 1 / 0.0254) < 1e-9 ? " (metres to inches)"
                           : fabs(c->scale - 1 / 0.3048) < 1e-9 ? " (metres to feet)"
                           : fabs(c->scale - 2.54) < 1e-12     ? " (inches to centimetres)"
                                                              : "";
        ADD("%sscale %.6g%s", used ? "; " : "", c->scale, unit);
    }
    if (c->reversed > 0) ADD("%swinding clockwise (every triangle's corners reversed)", used ? "; " : "");
#undef ADD
}

const char *mcx_convention_fixed(const char *format, const mcx_convention *c)
{
    /* E3D states its coordinate system (x right, y up, z away) */
    if (format && strcmp(format, "e3d") == 0 && c->up > 0) return "e3d.adoc, Coordinate system: y is up";
    return NULL;
}

/* ---- the model undone --------------------------------------------------------------- */

static void up_apply(int up, const float in[3], float out[3])
{
    float x = in[0], y = in[1], z = in[2];
    switch (up) {
    case MCX_UP_Z: out[0] = x, out[1] = -z, out[2] = y; break;
    case MCX_UP_NEG_Z: out[0] = x, out[1] = z, out[2] = -y; break;
    case MCX_UP_X: out[0] = y, out[1] = -x, out[2] = z; break;
    case MCX_UP_NEG_X: out[0] = -y, out[1] = x, out[2] = z; break;
    case MCX_UP_NEG_Y: out[0] = x, out[1] = -y, out[2] = -z; break;
    default: out[0] = x, out[1] = y, out[2] = z; break;
    }
}

/* out = s R, column-major 4x4. */
static void matrix_of(int up, double s, float out[16])
{
    memset(out, 0, 16 * sizeof *out);
    for (int c = 0; c < 3; c++) {
        float e[3] = {c == 0, c == 1, c == 2}, r[3];
        up_apply(up, e, r);
        for (int k = 0; k < 3; k++) out[c * 4 + k] = (float)(r[k] * s);
    }
    out[15] = 1;
}

typedef struct undone {
    mcl_model m;
    void *owned[8];
    size_t nowned;
    void **mesh_arrays; /* per mesh: positions, normals, uvs, indices, joints */
    size_t narrays;
    uint32_t skip;
} undone;

static void *own(undone *u, size_t n, size_t size)
{
    if (u->nowned == sizeof u->owned / sizeof *u->owned) return NULL;
    void *p = calloc(n ? n : 1, size);
    if (p) u->owned[u->nowned++] = p;
    return p;
}

static void undone_free(undone *u)
{
    for (size_t i = 0; i < u->narrays; i++) free(u->mesh_arrays[i]);
    for (size_t i = 0; i < u->nowned; i++) free(u->owned[i]);
    memset(u, 0, sizeof *u);
}

static void *copy_of(undone *u, const void *src, size_t n, size_t size)
{
    void *p = malloc(n ? n * size : 1);
    if (!p) return NULL;
    if (n) memcpy(p, src, n * size);
    u->mesh_arrays[u->narrays++] = p;
    return p;
}

/* The mesh undone; 0 or -1 (OOM). */
static int undo_mesh(undone *u, const mcx_convention *c, int root, const mcl_mesh *in, mcl_mesh *out)
{
    *out = *in;
    size_t vc = in->vertex_count;
    int inv = up_inverse[c->up];
    float *pos = copy_of(u, in->positions, vc * 3, sizeof *pos);
    if (!pos) return -1;
    for (size_t v = 0; v < vc; v++) {
        float r[3];
        up_apply(inv, pos + v * 3, r);
        for (int k = 0; k < 3; k++) pos[v * 3 + k] = (float)(r[k] / c->scale);
    }
    out->positions = pos;
    if (in->normals) {
        float *nrm = copy_of(u, in->normals, vc * 3, sizeof *nrm);
        if (!nrm) return -1;
        for (size_t v = 0; v < vc; v++) up_apply(inv, in->normals + v * 3, nrm + v * 3);
        out->normals = nrm;
    }
    if (in->uv_layer_count && c->flip_v > 0) {
        size_t n = vc * in->uv_layer_count;
        float *uv = copy_of(u, in->uvs, n * 2, sizeof *uv);
        if (!uv) return -1;
        for (size_t k = 0; k < n; k++) uv[k * 2 + 1] = 1 - uv[k * 2 + 1];
        out->uvs = uv;
    }
    if (c->reversed > 0 && in->primitive == MCL_TRIANGLES) {
        uint32_t *idx = copy_of(u, in->indices, in->index_count, sizeof *idx);
        if (!idx) return -1;
        for (size_t k = 0; k + 2 < in->index_count; k += 3) {
            uint32_t t = idx[k + 1];
            idx[k + 1] = idx[k + 2], idx[k + 2] = t;
        }
        out->indices = idx;
    }
    if (root) {
        size_t n = vc * in->influences;
        uint32_t *j = copy_of(u, in->joints, n, sizeof *j);
        if (!j) return -1;
        for (size_t k = 0; k < n; k++) j[k]++;
        out->joints = j;
        if (out->rigid_bone >= 0) out->rigid_bone++;
    }
    return 0;
}

/* Bones and animations under a new root bone holding U; 0 or -1. */
static int undo_bones(undone *u, const mcx_convention *c, const mcl_model *in)
{
    float cm[16], um[16];
    matrix_of(c->up, c->scale, cm);
    matrix_of(up_inverse[c->up], 1 / c->scale, um);
    mcl_bone *b = own(u, (size_t)in->bone_count + 1, sizeof *b);
    if (!b) return -1;
    b[0] = (mcl_bone){.name = "", .parent = -1};
    memcpy(b[0].local, um, sizeof um);
    memcpy(b[0].inverse_bind, cm, sizeof cm);
    for (uint32_t i = 0; i < in->bone_count; i++) {
        b[i + 1] = in->bones[i];
        b[i + 1].parent = in->bones[i].parent + 1;
        mcs_mat_mul(in->bones[i].inverse_bind, cm, b[i + 1].inverse_bind);
    }
    size_t tracks = 0;
    for (uint32_t a = 0; a < in->animation_count; a++) tracks += in->animations[a].track_count;
    mcl_animation *an = own(u, in->animation_count, sizeof *an);
    mcl_track *tr = own(u, tracks, sizeof *tr);
    if (!an || !tr) return -1;
    size_t k = 0;
    for (uint32_t a = 0; a < in->animation_count; a++) {
        an[a] = in->animations[a];
        an[a].tracks = tr + k;
        for (uint32_t t = 0; t < in->animations[a].track_count; t++, k++) {
            tr[k] = in->animations[a].tracks[t];
            tr[k].bone++;
        }
    }
    u->m.bones = b;
    u->m.bone_count = in->bone_count + 1;
    u->m.animations = an;
    u->skip = 1;
    return 0;
}

static int undo(const mcl_model *in, const mcx_convention *c, undone *u)
{
    memset(u, 0, sizeof *u);
    u->m = *in;
    u->m.arena = NULL;
    int root = in->bone_count > 0 && in->bone_count < UINT32_MAX - 1 && (c->up != MCX_UP_Y || c->scale != 1);
    mcl_mesh *meshes = own(u, in->mesh_count, sizeof *meshes);
    u->mesh_arrays = own(u, (size_t)in->mesh_count * 5, sizeof *u->mesh_arrays);
    if (!meshes || !u->mesh_arrays) return -1;
    for (uint32_t i = 0; i < in->mesh_count; i++)
        if (undo_mesh(u, c, root, &in->meshes[i], &meshes[i]) != 0) return -1;
    u->m.meshes = meshes;
    return root ? undo_bones(u, c, in) : 0;
}

/* ---- the search ------------------------------------------------------------------- */

static void judge_under(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, const mcx_convention *c,
                        mcx_findings *out, mcx_loops *loops)
{
    if (mcx_convention_is_none(c)) {
        mcx_faithful_pic(f, caps, m, 0, c->loop, out, loops, NULL);
        return;
    }
    undone u;
    mcs_caps k = *caps;
    /* the format's precision is in its own units: a smaller unit widens it in the scene's */
    if (c->scale < 1) k.position_tol = caps->position_tol / c->scale;
    if (undo(m, c, &u) != 0) {
        memset(loops, 0, sizeof *loops);
        mcx_find(out, "out of memory comparing the output with the scene");
    } else {
        mcx_faithful_pic(f, &k, &u.m, u.skip, c->loop, out, loops, NULL);
    }
    undone_free(&u);
}

/* The bounding box of the scene's triangles and of the output's (in its own
 * space); 0 when either has none or a mesh rides a rigid bone (then every
 * candidate is tried). */
static int boxes(const mcs_facts *f, const mcl_model *m, float sbox[6], float mbox[6])
{
    for (int k = 0; k < 3; k++) sbox[k] = mbox[k] = INFINITY, sbox[k + 3] = mbox[k + 3] = -INFINITY;
    for (size_t i = 0; i < (size_t)f->triangle_count * 3; i++)
        for (int k = 0; k < 3; k++)
            sbox[k] = fminf(sbox[k], f->tri[i].pos[k]), sbox[k + 3] = fmaxf(sbox[k + 3], f->tri[i].pos[k]);
    size_t n = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const mcl_mesh *me = &m->meshes[i];
        if (me->primitive != MCL_TRIANGLES) continue;
        if (me->rigid_bone >= 0) return 0;
        for (uint32_t j = 0; j < me->index_count; j++, n++)
            for (int k = 0; k < 3; k++) {
                float v = me->positions[(size_t)me->indices[j] * 3 + (size_t)k];
                mbox[k] = fminf(mbox[k], v), mbox[k + 3] = fmaxf(mbox[k + 3], v);
            }
    }
    return f->triangle_count > 0 && n > 0;
}

/* Could the output's box be the scene's under up and scale? */
static int box_fits(const float sbox[6], const float mbox[6], int up, double s, double tol)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int corner = 0; corner < 8; corner++) {
        float p[3] = {sbox[(corner & 1) ? 3 : 0], sbox[(corner & 2) ? 4 : 1], sbox[(corner & 4) ? 5 : 2]}, r[3];
        up_apply(up, p, r);
        for (int k = 0; k < 3; k++) {
            float v = (float)(r[k] * s);
            lo[k] = fminf(lo[k], v), hi[k] = fmaxf(hi[k], v);
        }
    }
    for (int k = 0; k < 3; k++)
        if (fabsf(lo[k] - mbox[k]) > tol || fabsf(hi[k] - mbox[k + 3]) > tol) return 0;
    return 1;
}

static int has_uvs(const mcl_model *m)
{
    for (uint32_t i = 0; i < m->mesh_count; i++)
        if (m->meshes[i].uv_layer_count && m->meshes[i].primitive == MCL_TRIANGLES) return 1;
    return 0;
}

static unsigned uv_corners(const mcl_model *m)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        if (m->meshes[i].uv_layer_count && m->meshes[i].primitive == MCL_TRIANGLES) n += m->meshes[i].vertex_count;
    return n;
}

static int scene_has_uvs(const mcs_facts *f)
{
    for (size_t i = 0; i < (size_t)f->triangle_count * 3; i++)
        if (f->tri[i].has_uv) return 1;
    return 0;
}

/* Faithful with no convention at all: then a convention (the run's, or a
 * demanded one) explains nothing in this case and is not named for it (a
 * scene without UVs says nothing of V's origin; an AEM output always has
 * a UV layer). */
static int faithful_without(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, int loop)
{
    mcx_findings tmp;
    mcx_loops tl;
    memset(&tmp, 0, sizeof tmp);
    mcx_convention none = mcx_convention_none();
    none.loop = loop;
    judge_under(f, caps, m, &none, &tmp, &tl);
    int faithful = tmp.count == 0;
    mcx_findings_free(&tmp);
    return faithful;
}

void mcx_judge(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, const mcx_convention *want,
               int search, mcx_judgement *j, mcx_findings *out, mcx_loops *loops)
{
    mcx_convention base = fixed_or_none(want);
    judge_under(f, caps, m, &base, out, loops);
    j->used = base;
    j->explained = 0;
    j->uv_vertices = scene_has_uvs(f) ? uv_corners(m) : 0;
    if (!search || out->count == 0) {
        j->explained = out->count == 0 && !mcx_convention_is_none(&base) && !faithful_without(f, caps, m, base.loop);
        return;
    }
    float sbox[6], mbox[6];
    int filter = boxes(f, m, sbox, mbox);
    double extent = 0;
    for (int k = 0; filter && k < 3; k++) extent = fmax(extent, fmax(fabsf(mbox[k]), fabsf(mbox[k + 3])));
    double tol = extent * 1e-3 + caps->position_tol * 4 + 1e-4;
    int uvs = has_uvs(m);
    for (size_t s = 0; s < sizeof scales / sizeof *scales; s++)
        for (int up = 0; up < MCX_UP_COUNT; up++) {
            if (filter && !box_fits(sbox, mbox, up, scales[s], tol)) continue;
            for (int variant = 0; variant < 4; variant++) {
                mcx_convention c = {variant & 1, up, scales[s], variant >> 1, base.loop};
                if (c.flip_v && !uvs) continue; /* the same judgement as without */
                if (!allowed(want, &c) || mcx_convention_equal(&c, &base)) continue;
                mcx_findings tmp;
                mcx_loops tl;
                memset(&tmp, 0, sizeof tmp);
                judge_under(f, caps, m, &c, &tmp, &tl);
                if (tmp.count == 0) {
                    mcx_findings_free(out);
                    *loops = tl;
                    j->used = c;
                    j->explained = !mcx_convention_is_none(&c);
                    return;
                }
                mcx_findings_free(&tmp);
            }
        }
}

int mcx_picture_build(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, const mcx_convention *c,
                      mcx_picture *pic)
{
    memset(pic, 0, sizeof *pic);
    mcx_findings scratch;
    mcx_loops loops;
    memset(&scratch, 0, sizeof scratch);
    undone u;
    int none = mcx_convention_is_none(c);
    if (!none && undo(m, c, &u) != 0) {
        undone_free(&u);
        return -1;
    }
    mcs_caps k = *caps;
    if (c->scale < 1) k.position_tol = caps->position_tol / c->scale;
    mcx_faithful_pic(f, &k, none ? m : &u.m, none ? 0 : u.skip, c->loop, &scratch, &loops, pic);
    mcx_findings_free(&scratch);
    if (!none) undone_free(&u);
    return 0;
}
