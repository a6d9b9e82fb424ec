/*
 * Scene transforms, animation sampling (glTF 2.0 section 3.11: linear,
 * step and cubic-spline samplers, rotations by normalised lerp of the
 * quaternions as the spec allows for linear) and the facts an exported
 * file must keep.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mc_scene.h"

void mcs_mat_mul(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += (double)a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = (float)v;
        }
    memcpy(out, r, sizeof r);
}

int mcs_mat_invert(const float m[16], float out[16])
{
    /* affine: invert the 3x3 part, then the translation */
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if (!(fabs(det) > 1e-20)) return -1;
    double inv[9] = {(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
                     (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
                     (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det};
    /* inv is row-major */
    float r[16] = {0};
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) r[col * 4 + row] = (float)inv[row * 3 + col];
    for (int row = 0; row < 3; row++)
        r[12 + row] = (float)-(inv[row * 3] * m[12] + inv[row * 3 + 1] * m[13] + inv[row * 3 + 2] * m[14]);
    r[15] = 1;
    memcpy(out, r, sizeof r);
    return 0;
}

void mcs_mat_point(const float m[16], const float p[3], float out[3])
{
    float r[3];
    for (int k = 0; k < 3; k++) r[k] = m[k] * p[0] + m[4 + k] * p[1] + m[8 + k] * p[2] + m[12 + k];
    memcpy(out, r, sizeof r);
}

void mcs_mat_dir(const float m[16], const float d[3], float out[3])
{
    float r[3];
    for (int k = 0; k < 3; k++) r[k] = m[k] * d[0] + m[4 + k] * d[1] + m[8 + k] * d[2];
    memcpy(out, r, sizeof r);
}

void mcs_mat_compose(const float t[3], const float q[4], const float s[3], float m[16])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float rot[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    memset(m, 0, 16 * sizeof *m);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) m[c * 4 + r] = rot[c * 3 + r] * s[c];
    m[12] = t[0], m[13] = t[1], m[14] = t[2], m[15] = 1;
}

static void normalize4(float q[4])
{
    float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (l > 0)
        for (int k = 0; k < 4; k++) q[k] /= l;
}

/* glTF 2.0 Appendix C: linear rotation keys are spherically interpolated,
 * the short way round. */
static void slerp(const float *a, const float *b, double u, float *out)
{
    double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
    double sb = d < 0 ? -1 : 1, wa = 1 - u, wb = u;
    d = fabs(d);
    if (d < 0.9995) {
        double th = acos(d), st = sin(th);
        wa = sin((1 - u) * th) / st;
        wb = sin(u * th) / st;
    }
    for (int i = 0; i < 4; i++) out[i] = (float)(wa * a[i] + sb * wb * b[i]);
    normalize4(out);
}

void mcs_channel_sample(const mcs_channel *c, double t, float *out)
{
    int n = c->path == MCS_R ? 4 : 3;
    int stride = c->interp == MCS_CUBIC ? 3 * n : n;
    int at = c->interp == MCS_CUBIC ? n : 0; /* the value inside a cubic key */
    uint32_t k = 0;
    if (t <= c->times[0] || c->key_count == 1) {
        memcpy(out, c->values + at, (size_t)n * sizeof *out);
        return;
    }
    if (t >= c->times[c->key_count - 1]) {
        memcpy(out, c->values + (size_t)(c->key_count - 1) * stride + at, (size_t)n * sizeof *out);
        return;
    }
    while (k + 1 < c->key_count && c->times[k + 1] <= t) k++;
    const float *a = c->values + (size_t)k * stride, *b = a + stride;
    double td = c->times[k + 1] - c->times[k], u = (t - c->times[k]) / td;
    if (n == 4 && c->interp == MCS_LINEAR) {
        slerp(a, b, u, out);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (c->interp == MCS_STEP) out[i] = a[i];
        else if (c->interp == MCS_LINEAR) out[i] = (float)(a[i] + (b[i] - a[i]) * u);
        else {
            double u2 = u * u, u3 = u2 * u;
            double p0 = a[n + i], m0 = td * a[2 * n + i], p1 = b[n + i], m1 = td * b[i];
            out[i] = (float)((2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * m0 +
                             (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * m1);
        }
    }
    if (n == 4) normalize4(out);
}

void mcs_node_globals(const mcs_scene *s, int anim, double t, float *out)
{
    uint32_t n = s->node_count;
    float *local = malloc((size_t)n * 16 * sizeof *local);
    unsigned char *done = calloc(n ? n : 1, 1);
    if (!local || !done) {
        free(local), free(done);
        for (uint32_t i = 0; i < n; i++) memset(out + i * 16, 0, 16 * sizeof *out);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        float tr[3], r[4], sc[3];
        memcpy(tr, s->nodes[i].t, sizeof tr);
        memcpy(r, s->nodes[i].r, sizeof r);
        memcpy(sc, s->nodes[i].s, sizeof sc);
        if (anim >= 0)
            for (uint32_t c = 0; c < s->anims[anim].channel_count; c++) {
                const mcs_channel *ch = &s->anims[anim].channels[c];
                if (ch->node != (int)i) continue;
                mcs_channel_sample(ch, t, ch->path == MCS_T ? tr : ch->path == MCS_R ? r : sc);
            }
        mcs_mat_compose(tr, r, sc, local + i * 16);
    }
    /* parents may follow children: resolve in passes, depth bounded by n */
    for (uint32_t pass = 0; pass <= n; pass++) {
        int progress = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (done[i]) continue;
            int p = s->nodes[i].parent;
            if (p < 0) memcpy(out + i * 16, local + i * 16, 16 * sizeof *out);
            else if (done[p]) mcs_mat_mul(out + (size_t)p * 16, local + i * 16, out + i * 16);
            else continue;
            done[i] = 1;
            progress = 1;
        }
        if (!progress) break;
    }
    free(local);
    free(done);
}

/* ---- facts -------------------------------------------------------------------- */

/* Fact bone of a node, -1 when the node is no joint. */
static int bone_of(const mcs_facts *f, const int *node_bone, int node)
{
    (void)f;
    return node >= 0 ? node_bone[node] : -1;
}

static int collect_bones(const mcs_scene *s, mcs_facts *f, int *node_bone, const float *rest)
{
    for (uint32_t i = 0; i < s->node_count; i++) node_bone[i] = -1;
    f->bones = calloc(s->node_count ? s->node_count : 1, sizeof *f->bones);
    if (!f->bones) return -1;
    /* bone order: node order (the scene's); parents resolved below */
    for (uint32_t k = 0; k < s->skin_count; k++)
        for (uint32_t j = 0; j < s->skins[k].joint_count; j++) node_bone[s->skins[k].joints[j]] = 0;
    for (uint32_t i = 0; i < s->node_count; i++) {
        if (node_bone[i] < 0) continue;
        node_bone[i] = (int)f->bone_count;
        mcs_fbone *b = &f->bones[f->bone_count++];
        b->name = s->nodes[i].name;
        memcpy(b->bind, rest + i * 16, sizeof b->bind);
    }
    for (uint32_t i = 0; i < s->node_count; i++) {
        if (node_bone[i] < 0) continue;
        int p = s->nodes[i].parent;
        uint32_t guard = 0;
        while (p >= 0 && node_bone[p] < 0 && guard++ < s->node_count) p = s->nodes[p].parent;
        f->bones[node_bone[i]].parent = bone_of(f, node_bone, p);
    }
    return 0;
}

static void skin_vertex(const mcs_scene *s, const mcs_node *node, const mcs_prim *p, uint32_t v,
                        const int *node_bone, mcs_fvertex *out)
{
    double sum = 0;
    for (int k = 0; k < p->influences; k++) sum += p->weights[(size_t)v * p->influences + k];
    out->influences = 0;
    for (int k = 0; k < p->influences && sum > 0; k++) {
        float w = p->weights[(size_t)v * p->influences + k];
        if (w <= 0) continue;
        int joint = s->skins[node->skin].joints[p->joints[(size_t)v * p->influences + k]];
        out->bone[out->influences] = node_bone[joint];
        out->weight[out->influences++] = (float)(w / sum);
    }
}

static void fact_vertex(const mcs_scene *s, const mcs_node *node, const float *world,
                        const mcs_prim *p, uint32_t v, const int *node_bone, mcs_fvertex *out)
{
    memset(out, 0, sizeof *out);
    /* skinned meshes: the node transform is ignored (glTF 3.7.3.3); inverse
     * binds undo the joints' rest pose, so the bind pose is the mesh as stored */
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const float *m = node->skin >= 0 ? identity : world;
    mcs_mat_point(m, p->pos + (size_t)v * 3, out->pos);
    if (p->nrm) {
        float n[3], inv[16], nm[16];
        /* normals transform by the inverse transpose */
        if (mcs_mat_invert(m, inv) == 0) {
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 3; r++) nm[c * 4 + r] = inv[r * 4 + c];
            nm[3] = nm[7] = nm[11] = nm[12] = nm[13] = nm[14] = 0, nm[15] = 1;
            mcs_mat_dir(nm, p->nrm + (size_t)v * 3, n);
            float l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            for (int k = 0; k < 3 && l > 0; k++) out->nrm[k] = n[k] / l;
            out->has_nrm = 1;
        }
    }
    if (p->uv) {
        memcpy(out->uv, p->uv + (size_t)v * 2, sizeof out->uv);
        out->has_uv = 1;
    }
    if (p->color) {
        memcpy(out->color, p->color + (size_t)v * 4, sizeof out->color);
        out->has_color = 1;
    }
    if (p->influences && node->skin >= 0) skin_vertex(s, node, p, v, node_bone, out);
}

static uint32_t prim_index(const mcs_prim *p, uint32_t k)
{
    return p->indices ? p->indices[k] : k;
}

static int det_negative(const float *m)
{
    double det = m[0] * ((double)m[5] * m[10] - (double)m[9] * m[6]) -
                 m[4] * ((double)m[1] * m[10] - (double)m[9] * m[2]) +
                 m[8] * ((double)m[1] * m[6] - (double)m[5] * m[2]);
    return det < 0;
}

/* Counts (pass 0) or fills (pass 1) the triangles and lines of every mesh node. */
static void walk_prims(const mcs_scene *s, mcs_facts *f, const float *rest, const int *node_bone,
                       int fill)
{
    uint32_t t = 0, l = 0;
    for (uint32_t i = 0; i < s->node_count; i++) {
        const mcs_node *node = &s->nodes[i];
        if (node->mesh < 0) continue;
        const float *world = rest + i * 16;
        /* a mirroring transform flips the winding; facts keep front faces front */
        int flip = node->skin < 0 && det_negative(world);
        const mcs_mesh *mesh = &s->meshes[node->mesh];
        for (uint32_t q = 0; q < mesh->prim_count; q++) {
            const mcs_prim *p = &mesh->prims[q];
            uint32_t count = p->indices ? p->index_count : p->vertex_count;
            if (p->mode == MCS_POINTS) {
                if (fill) f->point_count += count;
            } else if (p->mode == MCS_LINES) {
                for (uint32_t k = 0; k + 1 < count; k += 2, l++) {
                    if (!fill) continue;
                    for (int e = 0; e < 2; e++) {
                        mcs_fvertex v;
                        fact_vertex(s, node, world, p, prim_index(p, k + e), node_bone, &v);
                        memcpy(f->line_pos + (size_t)l * 6 + e * 3, v.pos, sizeof v.pos);
                    }
                }
            } else {
                for (uint32_t k = 0; k + 2 < count; k += 3, t++) {
                    if (!fill) continue;
                    for (int e = 0; e < 3; e++) {
                        int src = flip ? (e == 0 ? 0 : 3 - e) : e;
                        fact_vertex(s, node, world, p, prim_index(p, k + (uint32_t)src), node_bone,
                                    &f->tri[(size_t)t * 3 + e]);
                    }
                }
            }
        }
    }
    f->triangle_count = t;
    f->line_count = l;
}

static double anim_duration(const mcs_anim *a)
{
    double d = 0;
    for (uint32_t c = 0; c < a->channel_count; c++)
        if (a->channels[c].key_count && a->channels[c].times[a->channels[c].key_count - 1] > d)
            d = a->channels[c].times[a->channels[c].key_count - 1];
    return d;
}

static int build_anims(const mcs_scene *s, mcs_facts *f, const int *node_bone, const float *rest)
{
    if (!s->anim_count) return 0;
    f->anims = calloc(s->anim_count, sizeof *f->anims);
    float *g = malloc(((size_t)s->node_count + 1) * 16 * sizeof *g);
    if (!f->anims || !g) return free(g), -1;
    f->anim_count = s->anim_count;
    /* fractions of the duration, between the keys of every scene */
    static const double at[4] = {0, 0.37, 0.62, 1};
    for (uint32_t a = 0; a < s->anim_count; a++) {
        mcs_fanim *fa = &f->anims[a];
        fa->name = s->anims[a].name;
        fa->duration = anim_duration(&s->anims[a]);
        fa->sample_count = fa->duration > 0 ? 4 : 1;
        fa->skin = malloc((size_t)fa->sample_count * (f->bone_count ? f->bone_count : 1) * 16 *
                          sizeof *fa->skin);
        if (!fa->skin) return free(g), -1;
        for (uint32_t k = 0; k < fa->sample_count; k++) {
            fa->times[k] = at[k] * fa->duration;
            mcs_node_globals(s, (int)a, fa->times[k], g);
            for (uint32_t i = 0; i < s->node_count; i++) {
                if (node_bone[i] < 0) continue;
                float inv[16];
                if (mcs_mat_invert(rest + i * 16, inv) != 0) memset(inv, 0, sizeof inv);
                mcs_mat_mul(g + i * 16, inv,
                            fa->skin + ((size_t)k * f->bone_count + (size_t)node_bone[i]) * 16);
            }
        }
    }
    free(g);
    return 0;
}

/* The base colour textures of the materials some triangle primitive uses,
 * in material order. 0, or -1 on OOM. */
static int collect_textures(const mcs_scene *s, mcs_facts *f)
{
    f->textures = calloc((size_t)s->material_count + 1, sizeof *f->textures);
    if (!f->textures) return -1;
    for (uint32_t m = 0; m < s->material_count; m++) {
        int used = 0;
        for (uint32_t i = 0; i < s->mesh_count && !used; i++)
            for (uint32_t p = 0; p < s->meshes[i].prim_count; p++)
                used |= s->meshes[i].prims[p].material == (int)m && s->meshes[i].prims[p].mode == MCS_TRIANGLES;
        if (!used || s->materials[m].texture < 0) continue;
        mcs_ftexture *t = &f->textures[f->texture_count++];
        t->material = s->materials[m].name ? s->materials[m].name : "";
        mcs_image_size(s, s->materials[m].texture, &t->width, &t->height);
    }
    return 0;
}

int mcs_facts_build(const mcs_scene *s, mcs_facts *f)
{
    memset(f, 0, sizeof *f);
    float *rest = malloc(((size_t)s->node_count + 1) * 16 * sizeof *rest);
    int *node_bone = malloc(((size_t)s->node_count + 1) * sizeof *node_bone);
    int rc = -1;
    if (!rest || !node_bone) goto out;
    mcs_node_globals(s, -1, 0, rest);
    if (collect_bones(s, f, node_bone, rest) != 0) goto out;
    walk_prims(s, f, rest, node_bone, 0);
    f->tri = calloc((size_t)f->triangle_count * 3 + 1, sizeof *f->tri);
    f->line_pos = calloc((size_t)f->line_count * 6 + 1, sizeof *f->line_pos);
    if (!f->tri || !f->line_pos) goto out;
    walk_prims(s, f, rest, node_bone, 1);
    for (size_t v = 0; v < (size_t)f->triangle_count * 3; v++) {
        for (int k = 0; k < 3; k++)
            if (fabsf(f->tri[v].pos[k]) > f->max_abs_coord) f->max_abs_coord = fabsf(f->tri[v].pos[k]);
        if ((uint32_t)f->tri[v].influences > f->max_influences) f->max_influences = (uint32_t)f->tri[v].influences;
    }
    rc = build_anims(s, f, node_bone, rest);
    if (rc == 0) rc = collect_textures(s, f);
out:
    free(rest);
    free(node_bone);
    if (rc) mcs_facts_free(f);
    return rc;
}

void mcs_facts_free(mcs_facts *f)
{
    free(f->tri);
    free(f->line_pos);
    free(f->bones);
    for (uint32_t a = 0; a < f->anim_count; a++) free(f->anims[a].skin);
    free(f->anims);
    free(f->textures);
    memset(f, 0, sizeof *f);
}
