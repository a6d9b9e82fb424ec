/* Pose evaluation over the common model: sample each track at a time,
 * override the rest pose's components, chain parents first. Works on any
 * model that passed mcl_model_check (parents precede children). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcl_internal.h"

/* Per bone: the local transform as components, or as a whole matrix when a
 * matrix track drives it. */
typedef struct bone_state {
    float t[3], r[4], s[3];
    float matrix[16];
    unsigned char decomposed, has_matrix;
} bone_state;

static float len3(const float *v)
{
    return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* Rotation matrix (columns normalised) to quaternion, choosing the largest
 * diagonal term so the square root never sees a negative number. */
static void quat_from_basis(const float c0[3], const float c1[3], const float c2[3], float q[4])
{
    float m00 = c0[0], m11 = c1[1], m22 = c2[2], tr = m00 + m11 + m22;
    if (tr > 0) {
        float s = sqrtf(tr + 1.0f) * 2;
        q[3] = 0.25f * s;
        q[0] = (c1[2] - c2[1]) / s;
        q[1] = (c2[0] - c0[2]) / s;
        q[2] = (c0[1] - c1[0]) / s;
    } else if (m00 > m11 && m00 > m22) {
        float s = sqrtf(fmaxf(1.0f + m00 - m11 - m22, 1e-12f)) * 2;
        q[3] = (c1[2] - c2[1]) / s;
        q[0] = 0.25f * s;
        q[1] = (c1[0] + c0[1]) / s;
        q[2] = (c2[0] + c0[2]) / s;
    } else if (m11 > m22) {
        float s = sqrtf(fmaxf(1.0f + m11 - m00 - m22, 1e-12f)) * 2;
        q[3] = (c2[0] - c0[2]) / s;
        q[0] = (c1[0] + c0[1]) / s;
        q[1] = 0.25f * s;
        q[2] = (c2[1] + c1[2]) / s;
    } else {
        float s = sqrtf(fmaxf(1.0f + m22 - m00 - m11, 1e-12f)) * 2;
        q[3] = (c0[1] - c1[0]) / s;
        q[0] = (c2[0] + c0[2]) / s;
        q[1] = (c2[1] + c1[2]) / s;
        q[2] = 0.25f * s;
    }
}

static void decompose(const float m[16], bone_state *b)
{
    float c[3][3];
    for (int i = 0; i < 3; i++) {
        float l = len3(&m[i * 4]);
        b->s[i] = l;
        for (int k = 0; k < 3; k++) c[i][k] = l > 0 ? m[i * 4 + k] / l : (float)(i == k);
    }
    memcpy(b->t, &m[12], sizeof b->t);
    quat_from_basis(c[0], c[1], c[2], b->r);
    b->decomposed = 1;
}

static void compose(const bone_state *b, float m[16])
{
    float x = b->r[0], y = b->r[1], z = b->r[2], w = b->r[3];
    float n = sqrtf(x * x + y * y + z * z + w * w);
    if (!(n > 0) || !isfinite(n)) x = y = z = 0, w = n = 1;
    x /= n, y /= n, z /= n, w /= n;
    float rot[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
        2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
        2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y),
    };
    for (int c = 0; c < 3; c++) {
        for (int r = 0; r < 3; r++) m[c * 4 + r] = rot[c * 3 + r] * b->s[c];
        m[c * 4 + 3] = 0;
    }
    memcpy(&m[12], b->t, sizeof b->t);
    m[15] = 1;
}

/* The key pair around `time`: *k0 == *k1 at the ends; u in [0, 1]. */
static void find_keys(const mcl_track *t, double time, uint32_t *k0, uint32_t *k1, float *u)
{
    uint32_t n = t->key_count;
    *u = 0;
    if (!(time > t->times[0])) { /* also NaN */
        *k0 = *k1 = 0;
        return;
    }
    if (time >= t->times[n - 1]) {
        *k0 = *k1 = n - 1;
        return;
    }
    uint32_t lo = 0, hi = n - 1; /* times[lo] < time < times[hi] holds: bisect */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->times[mid] <= time) lo = mid;
        else hi = mid;
    }
    *k0 = lo;
    *k1 = hi;
    double span = (double)t->times[hi] - t->times[lo];
    *u = span > 0 ? (float)((time - t->times[lo]) / span) : 0;
    if (t->interpolation == MCL_STEP) *u = 0;
}

static void sample(const mcl_track *t, double time, uint32_t width, float *out)
{
    uint32_t k0, k1;
    float u;
    find_keys(t, time, &k0, &k1, &u);
    const float *a = &t->values[(uint64_t)k0 * width], *b = &t->values[(uint64_t)k1 * width];
    float sign = 1;
    if (t->kind == MCL_TRACK_ROTATION) { /* shortest arc */
        float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        if (dot < 0) sign = -1;
    }
    for (uint32_t i = 0; i < width; i++) out[i] = a[i] + (sign * b[i] - a[i]) * u;
}

static void apply_track(const mcl_model *m, const mcl_track *t, double time, bone_state *st)
{
    bone_state *b = &st[t->bone];
    if (t->kind == MCL_TRACK_MATRIX) {
        sample(t, time, 16, b->matrix);
        b->has_matrix = 1;
        return;
    }
    if (!b->decomposed) decompose(m->bones[t->bone].local, b);
    if (t->kind == MCL_TRACK_TRANSLATION) sample(t, time, 3, b->t);
    else if (t->kind == MCL_TRACK_ROTATION) sample(t, time, 4, b->r);
    else sample(t, time, 3, b->s);
}

static void local_of(const mcl_model *m, const bone_state *st, uint32_t i, float out[16])
{
    if (st && st[i].has_matrix) memcpy(out, st[i].matrix, sizeof st[i].matrix);
    else if (st && st[i].decomposed) compose(&st[i], out);
    else memcpy(out, m->bones[i].local, sizeof m->bones[i].local);
}

mcl_status mcl_evaluate_pose(const mcl_model *m, uint32_t animation, double time,
                             float *global, float *skin)
{
    if (!m || (animation != UINT32_MAX && animation >= m->animation_count)) return MCL_ERR_ARGUMENT;
    if (m->bone_count == 0 || (!global && !skin)) return MCL_OK;
    bone_state *st = NULL;
    float *g = global;
    if (animation != UINT32_MAX) {
        st = calloc(m->bone_count, sizeof *st);
        if (!st) return MCL_ERR_NOMEM;
        const mcl_animation *an = &m->animations[animation];
        for (uint32_t t = 0; t < an->track_count; t++) apply_track(m, &an->tracks[t], time, st);
    }
    if (!g) g = malloc((size_t)m->bone_count * 16 * sizeof *g);
    if (!g) {
        free(st);
        return MCL_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < m->bone_count; i++) {
        float local[16];
        local_of(m, st, i, local);
        int32_t p = m->bones[i].parent; /* p < i: its global is final */
        if (p >= 0) mcl__mat4_mul(&g[(size_t)p * 16], local, &g[(size_t)i * 16]);
        else memcpy(&g[(size_t)i * 16], local, sizeof local);
    }
    if (skin)
        for (uint32_t i = 0; i < m->bone_count; i++)
            mcl__mat4_mul(&g[(size_t)i * 16], m->bones[i].inverse_bind, &skin[(size_t)i * 16]);
    if (g != global) free(g);
    free(st);
    return MCL_OK;
}

mcl_status mcl_exercise(const mcl_model *m)
{
    if (!m) return MCL_ERR_ARGUMENT;
    volatile uint64_t sink = mcl_walk(m); /* the reads are the point */
    (void)sink;
    if (m->bone_count == 0) return MCL_OK;
    float *global = calloc(m->bone_count, 16 * sizeof *global);
    float *skin = calloc(m->bone_count, 16 * sizeof *skin);
    mcl_status s = (global && skin) ? MCL_OK : MCL_ERR_NOMEM;
    if (s == MCL_OK) s = mcl_evaluate_pose(m, UINT32_MAX, 0, global, skin);
    for (uint32_t a = 0; s == MCL_OK && a < m->animation_count; a++) {
        double d = m->animations[a].duration;
        const double times[] = {-1.0, 0.0, d * 0.37, d * 0.5, d, d + 1.0};
        for (size_t k = 0; s == MCL_OK && k < sizeof times / sizeof times[0]; k++)
            s = mcl_evaluate_pose(m, a, times[k], global, skin);
    }
    free(global);
    free(skin);
    return s;
}
