/*
 * What the two AEM reference loaders share (aem.c: the aem1 layout,
 * docs/formats/aem.md; aem2025.c: the 2025 layout, docs/formats/aem2025.md):
 * the records both layouts lay out alike (the first 88 bytes of a vertex,
 * indices, mesh ranges, 128-byte names, 20-byte keyframes), the checks
 * whose rules are the same in both, and the building of meshes and rest
 * poses. What the layouts disagree on stays in each loader.
 *
 * Every offset passed here is inside the data: each loader checks that its
 * header's counts add up to the file size before reading a record.
 *
 * Static functions in a header, so that every build listing the loader
 * sources (conformance/CMakeLists.txt, web/CMakeLists.txt) compiles them
 * with the loaders that use them.
 */
#ifndef MCL_AEM_COMMON_H
#define MCL_AEM_COMMON_H

#include <math.h>
#include <string.h>

#include "mcl_internal.h"

#define MCL_AEM_NAME_SIZE 128u
#define MCL_AEM_KEY_SIZE 20u

/* Tolerances of docs/ISSUES.md (Khronos glTF-Validator defaults). */
#define MCL_AEM_TOL_QUAT 0.00769
#define MCL_AEM_TOL_WEIGHT 2e-7 /* per non-zero weight */
#define MCL_AEM_TOL_TIME 1e-6   /* relative to the duration */

static inline int32_t mcl__aem_i32(const uint8_t *p)
{
    uint32_t u = mc_le32(p);
    int32_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static inline double mcl__aem_length(const float *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += (double)v[i] * v[i];
    return sqrt(s);
}

/* ---- names ---- */

/* Bytes before the NUL of the 128-byte name at o, 0 when it has none (the
 * callers read names whose NUL was checked). */
static inline size_t mcl__aem_name_len(const uint8_t *data, uint64_t o)
{
    const uint8_t *nul = memchr(data + o, 0, MCL_AEM_NAME_SIZE);
    return nul ? (size_t)(nul - (data + o)) : 0;
}

/* A NUL-terminated string within its 128 bytes (`what` i names it); the
 * bytes after the NUL are the exporters' leftovers, not read. */
static inline mcl_status mcl__aem_name(mcl_ctx *c, const uint8_t *data, uint64_t o, const char *what, uint64_t i,
                                       size_t *len)
{
    const uint8_t *nul = memchr(data + o, 0, MCL_AEM_NAME_SIZE);
    if (!nul)
        return mcl__fail(c, MCL_ERR_VALUE, o, "%s %llu: name has no NUL in its 128 bytes", what, (unsigned long long)i);
    *len = (size_t)(nul - (data + o));
    return MCL_OK;
}

/* ---- vertices and indices ---- */

/* The 14 floats of vertex v at o (position, normal, tangent, bitangent,
 * uv), each finite, into a. */
static inline mcl_status mcl__aem_vertex_floats(mcl_ctx *c, const uint8_t *data, uint64_t o, uint32_t v, float a[14])
{
    for (unsigned i = 0; i < 14; i++) {
        a[i] = mc_le_f32(data + o + 4 * i);
        if (!isfinite(a[i]))
            return mcl__fail(c, MCL_ERR_VALUE, o + 4 * i, "vertex %u: float %u is %g (expected finite)", v, i, a[i]);
    }
    return MCL_OK;
}

/* The 4 influence slots of vertex v at o (indices at 56, weights at 72),
 * into b and w: each weight 0..1, an unused slot is index -1 with weight 0,
 * any other index < count of the section `what` names ("bone", "joint"). */
static inline mcl_status mcl__aem_vertex_slots(mcl_ctx *c, const uint8_t *data, uint64_t o, uint32_t v,
                                               const char *what, uint64_t count, int32_t b[4], float w[4])
{
    for (unsigned k = 0; k < 4; k++) {
        b[k] = mcl__aem_i32(data + o + 56 + 4 * k);
        w[k] = mc_le_f32(data + o + 72 + 4 * k);
        if (!(w[k] >= 0.0f && w[k] <= 1.0f)) /* also NaN */
            return mcl__fail(c, MCL_ERR_VALUE, o + 72 + 4 * k, "vertex %u: weight %u is %g (expected 0..1)", v, k + 1, w[k]);
        if (b[k] == -1 && w[k] != 0.0f)
            return mcl__fail(c, MCL_ERR_VALUE, o + 72 + 4 * k, "vertex %u: %s index %u is -1 with weight %g (expected 0)",
                             v, what, k + 1, w[k]);
        if (b[k] != -1 && (b[k] < 0 || (uint64_t)b[k] >= count))
            return mcl__fail(c, MCL_ERR_RANGE, o + 56 + 4 * k, "vertex %u: %s index %u is %d (expected -1 or < %llu)", v,
                             what, k + 1, b[k], (unsigned long long)count);
    }
    return MCL_OK;
}

/* The weights of vertex v at o sum to 1, within a rounding per non-zero
 * weight: when `required`, or else when any weight is non-zero. `expected`
 * is what the error says they should sum to. */
static inline mcl_status mcl__aem_weight_sum(mcl_ctx *c, uint64_t o, uint32_t v, const float w[4], bool required,
                                             const char *expected)
{
    double sum = 0;
    unsigned nonzero = 0;
    for (unsigned k = 0; k < 4; k++) {
        sum += w[k];
        nonzero += w[k] != 0.0f;
    }
    if ((required || nonzero) && fabs(sum - 1.0) > MCL_AEM_TOL_WEIGHT * nonzero)
        return mcl__fail(c, MCL_ERR_VALUE, o + 72, "vertex %u: weights sum to %.9g (expected %s)", v, sum, expected);
    return MCL_OK;
}

/* Every index of the index section (also those no mesh uses: an index
 * buffer is uploaded whole) names a vertex. */
static inline mcl_status mcl__aem_check_indices(mcl_ctx *c, const uint8_t *data, uint64_t start, uint64_t count,
                                                uint64_t vertices)
{
    for (uint64_t i = 0; i < count; i++) {
        uint32_t x = mc_le32(data + start + 4 * i);
        if (x >= vertices)
            return mcl__fail(c, MCL_ERR_RANGE, start + 4 * i, "index %llu is %u (expected < %llu vertices)",
                             (unsigned long long)i, x, (unsigned long long)vertices);
    }
    return MCL_OK;
}

/* Mesh records (first index, index count, material; 12 bytes): a range of
 * the index section of whole triangles, and a material that exists. */
static inline mcl_status mcl__aem_check_meshes(mcl_ctx *c, const uint8_t *data, uint64_t start, uint64_t count,
                                               uint64_t indices, uint64_t materials)
{
    for (uint64_t m = 0; m < count; m++) {
        uint64_t o = start + 12 * m;
        uint32_t first = mc_le32(data + o), n = mc_le32(data + o + 4), mat = mc_le32(data + o + 8);
        unsigned long long mi = (unsigned long long)m;
        if ((uint64_t)first + n > indices)
            return mcl__fail(c, MCL_ERR_RANGE, o, "mesh %llu: indices %u + %u pass the %llu of the index section", mi, first,
                             n, (unsigned long long)indices);
        if (n % 3 != 0)
            return mcl__fail(c, MCL_ERR_STRUCTURE, o + 4, "mesh %llu: %u indices (expected a multiple of 3)", mi, n);
        if (mat >= materials)
            return mcl__fail(c, MCL_ERR_RANGE, o + 8, "mesh %llu: material %u (expected < %llu)", mi, mat,
                             (unsigned long long)materials);
    }
    return MCL_OK;
}

/* ---- bones ---- */

/* The 16 floats of the inverse bind matrix at o of bone (or joint: `what`)
 * i, each finite, into m. */
static inline mcl_status mcl__aem_matrix(mcl_ctx *c, const uint8_t *data, uint64_t o, const char *what, uint64_t i,
                                         float m[16])
{
    for (unsigned k = 0; k < 16; k++) {
        m[k] = mc_le_f32(data + o + 4 * k);
        if (!isfinite(m[k]))
            return mcl__fail(c, MCL_ERR_VALUE, o + 4 * k, "%s %llu: inverse bind matrix element %u is %g", what,
                             (unsigned long long)i, k, m[k]);
    }
    return MCL_OK;
}

/* Determinant of the 3x3 linear part of a column-major 4x4 matrix. */
static inline double mcl__aem_det3(const double m[16])
{
    return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) +
           m[8] * (m[1] * m[6] - m[2] * m[5]);
}

/* Inverse of an affine matrix (last row taken as 0 0 0 1). */
static inline void mcl__aem_affine_inverse(const double m[16], double out[16])
{
    double d = mcl__aem_det3(m);
    double inv[9] = {
        (m[5] * m[10] - m[6] * m[9]) / d, (m[2] * m[9] - m[1] * m[10]) / d, (m[1] * m[6] - m[2] * m[5]) / d,
        (m[6] * m[8] - m[4] * m[10]) / d, (m[0] * m[10] - m[2] * m[8]) / d, (m[2] * m[4] - m[0] * m[6]) / d,
        (m[4] * m[9] - m[5] * m[8]) / d, (m[1] * m[8] - m[0] * m[9]) / d, (m[0] * m[5] - m[1] * m[4]) / d,
    };
    for (int col = 0; col < 3; col++) {
        for (int row = 0; row < 3; row++) out[col * 4 + row] = inv[col * 3 + row];
        out[col * 4 + 3] = 0;
    }
    for (int row = 0; row < 3; row++)
        out[12 + row] = -(inv[row] * m[12] + inv[3 + row] * m[13] + inv[6 + row] * m[14]);
    out[15] = 1;
}

/* Determinant and inverse of a column-major 4x4 matrix (cofactors). */
static inline double mcl__aem_invert4(const double m[16], double inv[16])
{
    inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
    inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
    inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
    inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
    inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
    inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
    inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
    inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
    inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
    inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
    inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
    inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
    inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
    inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
    inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
    inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
    double det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (det != 0)
        for (int k = 0; k < 16; k++) inv[k] /= det;
    return det;
}

/* The rest pose of bone b relative to its parent, from the bind matrices:
 * local = inverse_bind(parent) x inverse(inverse_bind(self)). AEM stores no
 * rest pose and every animation drives every bone, so libaem never inverts
 * these matrices: a valid but extreme bind matrix (scale 1e-40) whose
 * inverse does not fit a float is legal. Its bone rests at identity
 * instead: the only pose the format itself never shows. `affine`: the
 * layout requires a last row of 0 0 0 1 (aem1, checked within a
 * tolerance), so the matrices are taken as exactly affine. */
static inline void mcl__aem_rest_local(mcl_bone *bones, uint32_t b, bool affine)
{
    double self[16], global[16], local[16];
    for (int k = 0; k < 16; k++) self[k] = bones[b].inverse_bind[k];
    if (affine)
        mcl__aem_affine_inverse(self, global);
    else
        mcl__aem_invert4(self, global);
    if (bones[b].parent >= 0) {
        double parent[16];
        for (int k = 0; k < 16; k++) parent[k] = bones[bones[b].parent].inverse_bind[k];
        if (affine) parent[3] = parent[7] = parent[11] = 0, parent[15] = 1;
        mcl__mat4_mul_d(parent, global, local);
    } else {
        memcpy(local, global, sizeof local);
    }
    for (int k = 0; k < 16; k++) {
        bones[b].local[k] = (float)local[k];
        if (!isfinite(bones[b].local[k])) {
            mcl__identity(bones[b].local);
            return;
        }
    }
}

/* ---- keyframes ---- */

/* How errors name the keys of one channel: "<where>: <key> <n> ...", n
 * counted from first_number, and a rotation's length "<where>:
 * <rotation_key> <n> length ...". */
typedef struct mcl_aem_key_names {
    char where[48];
    const char *key;
    const char *rotation_key;
    uint64_t first_number;
} mcl_aem_key_names;

/* Reads and checks the `count` 20-byte keys (time, x, y, z, w) at o of
 * channel ch (0 translation, 1 rotation, 2 scale) into t: every field
 * finite, times in seconds within the duration (rounding allowed) and
 * strictly increasing (libaem divides by the difference of two), W 0 for
 * translation and scale, rotations unit quaternions x y z w. */
static inline mcl_status mcl__aem_load_keys(mcl_ctx *c, const uint8_t *data, uint64_t o, uint32_t count, unsigned ch,
                                            double duration, const mcl_aem_key_names *nm, uint32_t bone, mcl_track *t)
{
    static const mcl_track_kind kinds[3] = {MCL_TRACK_TRANSLATION, MCL_TRACK_ROTATION, MCL_TRACK_SCALE};
    unsigned width = ch == 1 ? 4 : 3;
    /* allocated before reading: the work of tracks sharing keys is paid for
     * by memory the limit allowed */
    float *times = mcl__alloc(c, count, sizeof *times);
    float *values = times ? mcl__alloc(c, count, width * sizeof *values) : NULL;
    if (!values) return c->err->status;
    for (uint32_t k = 0; k < count; k++, o += MCL_AEM_KEY_SIZE) {
        unsigned long long n = nm->first_number + k;
        float v[5];
        for (unsigned i = 0; i < 5; i++) {
            v[i] = mc_le_f32(data + o + 4 * i);
            if (!isfinite(v[i]))
                return mcl__fail(c, MCL_ERR_VALUE, o + 4 * i, "%s: %s %llu field %u is %g", nm->where, nm->key, n, i, v[i]);
        }
        if (v[0] < 0 || (double)v[0] > duration * (1.0 + MCL_AEM_TOL_TIME))
            return mcl__fail(c, MCL_ERR_VALUE, o, "%s: %s %llu time %g outside 0..%g", nm->where, nm->key, n, v[0], duration);
        if (k > 0 && !(v[0] > times[k - 1]))
            return mcl__fail(c, MCL_ERR_STRUCTURE, o, "%s: %s %llu time %g not after %g", nm->where, nm->key, n, v[0],
                             times[k - 1]);
        if (ch != 1 && v[4] != 0.0f)
            return mcl__fail(c, MCL_ERR_VALUE, o + 16, "%s: %s %llu W is %g (expected 0)", nm->where, nm->key, n, v[4]);
        if (ch == 1 && fabs(mcl__aem_length(&v[1], 4) - 1.0) > MCL_AEM_TOL_QUAT)
            return mcl__fail(c, MCL_ERR_VALUE, o + 4, "%s: %s %llu length %g (expected 1)", nm->where, nm->rotation_key, n,
                             mcl__aem_length(&v[1], 4));
        times[k] = v[0];
        memcpy(&values[(uint64_t)k * width], &v[1], width * sizeof *values);
    }
    t->bone = bone;
    t->kind = kinds[ch];
    t->interpolation = MCL_LINEAR;
    t->key_count = count;
    t->times = times;
    t->values = values;
    return MCL_OK;
}

/* ---- meshes ---- */

/* Where a layout keeps what its meshes are built from. */
typedef struct mcl_aem_meshes {
    const uint8_t *data;
    uint64_t vertices, indices, meshes; /* section offsets */
    uint64_t vertex_count, mesh_count;
    uint32_t stride;                    /* vertex record bytes */
    uint32_t influences;                /* 4 when the file has bones, else 0 */
    const uint32_t *bone_of;            /* file bone -> model bone, NULL: as stored */
    bool extra_bone;                    /* aem1: a vertex's i32 at 88 moves its whole mesh */
} mcl_aem_meshes;

/* Vertex j of a mesh from the vertex record at o (both layouts place
 * position, normal, UV, joints and weights alike in the first 88 bytes). */
static inline void mcl__aem_copy_vertex(const uint8_t *o, uint32_t j, mcl_mesh *me, const uint32_t *bone_of, float *pos,
                                        float *nrm, float *uv, uint32_t *joints, float *weights)
{
    for (unsigned i = 0; i < 3; i++) {
        pos[(uint64_t)j * 3 + i] = mc_le_f32(o + 4 * i);
        nrm[(uint64_t)j * 3 + i] = mc_le_f32(o + 12 + 4 * i);
    }
    uv[(uint64_t)j * 2] = mc_le_f32(o + 48);
    uv[(uint64_t)j * 2 + 1] = mc_le_f32(o + 52);
    for (unsigned k = 0; k < me->influences; k++) {
        int32_t b = (int32_t)mc_le32(o + 56 + 4 * k);
        /* -1 carries weight 0; other indices were checked < the bone count */
        joints[(uint64_t)j * 4 + k] = b < 0 ? 0 : bone_of ? bone_of[b] : (uint32_t)b;
        weights[(uint64_t)j * 4 + k] = mc_le_f32(o + 72 + 4 * k);
    }
}

/* The vertices of a mesh: its `count` indices (u32 at `indices`, each < the
 * vertex count: checked) with the vertices they use compacted in first-use
 * order. remap (vertex count entries, all UINT32_MAX) is left as found. The
 * indices are allocated first, so the passes over them are paid for by
 * memory the limit allowed. Sets every field but name, material, primitive
 * and rigid_bone. */
static inline mcl_status mcl__aem_mesh_vertices(mcl_ctx *c, const mcl_aem_meshes *src, const uint8_t *indices,
                                                uint32_t count, uint32_t *remap, mcl_mesh *me)
{
    uint32_t *idx = mcl__alloc(c, count, sizeof *idx);
    if (!idx) return c->err->status;
    uint32_t used = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t v = mc_le32(indices + 4 * (uint64_t)k);
        if (remap[v] == UINT32_MAX) remap[v] = used++;
        idx[k] = remap[v];
    }
    uint32_t influences = src->influences;
    me->influences = influences;
    float *pos = mcl__alloc(c, used, 3 * sizeof(float));
    float *nrm = pos ? mcl__alloc(c, used, 3 * sizeof(float)) : NULL;
    float *uv = nrm ? mcl__alloc(c, used, 2 * sizeof(float)) : NULL;
    uint32_t *joints = uv ? mcl__alloc(c, used, influences * sizeof(uint32_t)) : NULL;
    float *weights = joints ? mcl__alloc(c, used, influences * sizeof(float)) : NULL;
    const uint8_t *vertices = src->data + src->vertices;
    for (uint32_t k = 0; k < count; k++) { /* fills each vertex once and resets remap */
        uint32_t v = mc_le32(indices + 4 * (uint64_t)k);
        if (remap[v] == UINT32_MAX) continue;
        if (weights)
            mcl__aem_copy_vertex(vertices + (uint64_t)v * src->stride, remap[v], me, src->bone_of, pos, nrm, uv, joints,
                                 weights);
        remap[v] = UINT32_MAX;
    }
    if (!weights) return c->err->status;
    me->vertex_count = used;
    me->positions = pos;
    me->normals = nrm;
    me->uv_layer_count = 1;
    me->uvs = uv;
    me->joints = joints;
    me->weights = weights;
    me->index_count = count;
    me->indices = idx;
    return MCL_OK;
}

/* Mesh m: its index range (checked inside the index section) with the
 * vertices it uses. The extra bone of aem1 applies to every vertex of a
 * mesh: the rigid bone is that of the vertex of its first index. */
static inline mcl_status mcl__aem_build_mesh(mcl_ctx *c, const mcl_aem_meshes *src, uint64_t m, uint32_t *remap,
                                             mcl_mesh *me)
{
    const uint8_t *o = src->data + src->meshes + 12 * m;
    uint32_t first = mc_le32(o), count = mc_le32(o + 4);
    const uint8_t *indices = src->data + src->indices + 4 * (uint64_t)first;
    me->name = "";
    me->material = (int32_t)mc_le32(o + 8); /* < material count, checked */
    me->primitive = MCL_TRIANGLES;
    me->rigid_bone = -1;
    if (src->extra_bone && count)
        me->rigid_bone = mcl__aem_i32(src->data + src->vertices + (uint64_t)mc_le32(indices) * src->stride + 88);
    return mcl__aem_mesh_vertices(c, src, indices, count, remap, me);
}

static inline mcl_status mcl__aem_build_meshes(mcl_ctx *c, const mcl_aem_meshes *src, mcl_model *model)
{
    uint64_t n = src->mesh_count, nv = src->vertex_count;
    mcl_mesh *meshes = mcl__alloc(c, n, sizeof *meshes);
    uint32_t *remap = meshes ? mcl__scratch(c, nv, sizeof *remap) : NULL;
    if (!remap) return c->err->status;
    memset(remap, 0xff, (size_t)nv * sizeof *remap);
    mcl_status s = MCL_OK;
    for (uint64_t m = 0; m < n && s == MCL_OK; m++) s = mcl__aem_build_mesh(c, src, m, remap, &meshes[m]);
    mcl__scratch_free(c, remap, nv, sizeof *remap);
    if (s != MCL_OK) return s;
    model->meshes = meshes;
    model->mesh_count = (uint32_t)n;
    return MCL_OK;
}

#endif
