/*
 * AAMF / SAMF reference loader (aamf.md of github.com/kiwanowski/UnnamedHB1,
 * docs/formats/aamf.md), written from the spec and the field notes,
 * independent of the validator's checks.
 *
 * Two layouts share the bone table and the animation blocks:
 *   - SAMF v2 ("samf"): a 16-byte packed header with magic 'SAMF' or 'AAMF',
 *     bind poses and one skinned mesh (4 influences per vertex);
 *   - legacy AAMF ("legacy"): no magic, one embedded AMF mesh per bone,
 *     mapped to one rigid mesh per bone (mcl_mesh.rigid_bone).
 *
 * Units: PS1 4.12 fixed point (4096 = 1.0) for positions, normals, rotations
 * and translations, converted to floats by dividing by 4096. Animations are
 * MATRIX tracks in frames: key f of every track sits at time f, STEP, as the
 * C runtime's setAnimationKeyframe(frame) copies the keyframe matrix into the
 * bone's node (no interpolation). The keyframe matrices are local (relative
 * to the parent bone), stored bone-major: the matrix of bone b at frame f is
 * number b * keyframe_count + f (the runtime's indexing).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mcl_internal.h"

#define FX_ONE 4096.0
#define SAMF_HEADER 16u
#define MATRIX_BYTES 32u
#define ANIM_HEADER 20u /* block_size, name[8], keyframe_count, keyframe_pointer */

/* MATRIX rotation rows: |dot(r_i, r_j) - delta_ij * 4096^2| may reach 14192
 * from the 4.12 rounding of each element (aamf.md MATRIX; the catalog's
 * derivation: 2 sqrt(3) * 4096 + 3, in raw units). */
#define ORTHO_TOLERANCE 14192

typedef struct aamf {
    mcl_ctx *c;
    const uint8_t *d;
    size_t size;
    uint32_t bone_count, anim_count;
    mcl_model *m;
} aamf;

/* ---- small readers over bytes already known to be inside the data ---- */

static int16_t s16(const uint8_t *p)
{
    uint16_t u = mc_le16(p);
    int16_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static int32_t s32(const uint8_t *p)
{
    uint32_t u = mc_le32(p);
    int32_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static uint64_t left(const aamf *a, uint64_t pos)
{
    return pos <= a->size ? a->size - pos : 0;
}

/* ---- fixed point ---- */

/* MATRIX (aamf.md Data Types): int16 m[3][3] row-major, int16 pad, int32
 * t[3]; v' = m v + t. Column-major float 4x4 for the common model. */
static void matrix_to_float(const uint8_t *p, float out[16])
{
    for (int r = 0; r < 3; r++) {
        for (int col = 0; col < 3; col++)
            out[col * 4 + r] = (float)(s16(p + 2 * (r * 3 + col)) / FX_ONE);
        out[12 + r] = (float)(s32(p + 20 + 4 * r) / FX_ONE);
        out[r * 4 + 3] = 0;
    }
    out[15] = 1;
}

/* aamf.md MATRIX: "3x3 rotation matrix"; docs/formats/aamf.md: built from a
 * quaternion, scale dropped. Orthonormal within 4.12 rounding and not a
 * mirror. Exact integer arithmetic so the verdict never depends on float
 * rounding. Returns NULL, or what is wrong (in detail). */
static const char *matrix_fault(const uint8_t *p, char *detail, size_t n)
{
    int64_t m[9];
    for (int k = 0; k < 9; k++) m[k] = s16(p + 2 * k);
    for (int r = 0; r < 3; r++)
        for (int s = r; s < 3; s++) {
            int64_t dot = m[r * 3] * m[s * 3] + m[r * 3 + 1] * m[s * 3 + 1] + m[r * 3 + 2] * m[s * 3 + 2];
            int64_t dev = dot - (r == s ? (int64_t)4096 * 4096 : 0);
            if (dev < -ORTHO_TOLERANCE || dev > ORTHO_TOLERANCE) {
                snprintf(detail, n, "rotation rows %d and %d have dot product %lld/4096^2 (expected %s within "
                         "14192/4096^2: orthonormal)", r, s, (long long)dot, r == s ? "1" : "0");
                return detail;
            }
        }
    int64_t det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                  m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (det < 0) {
        snprintf(detail, n, "rotation has a negative determinant (a mirror, expected a rotation)");
        return detail;
    }
    return NULL;
}

/* aamf.md: char name[8]; docs/formats/aamf.md: not necessarily NUL-terminated.
 * Printable ASCII up to the first NUL or the end; the copy stops there. */
static mcl_status check_name(aamf *a, uint64_t off, const char *what, uint64_t i, size_t *len)
{
    const uint8_t *p = a->d + off;
    size_t n = 0;
    while (n < 8 && p[n] != 0) {
        if (p[n] < 0x20 || p[n] > 0x7e)
            return mcl__fail(a->c, MCL_ERR_VALUE, off + n,
                             "%s %llu: name byte %zu is 0x%02x (expected printable ASCII before the NUL)",
                             what, (unsigned long long)i, n, p[n]);
        n++;
    }
    *len = n;
    return MCL_OK;
}

/* ---- blocks ---- */

/* aamf.md: each bone and animation block starts with uint32 block_size,
 * which counts its own 4 bytes (docs/formats/aamf.md); the whole block lies inside the
 * file. */
static mcl_status block_at(aamf *a, uint64_t pos, const char *what, uint64_t i, uint32_t *size)
{
    if (left(a, pos) < 4)
        return mcl__fail(a->c, MCL_ERR_TRUNCATED, pos, "%s %llu: block_size field needs 4 bytes, %llu left",
                         what, (unsigned long long)i, (unsigned long long)left(a, pos));
    uint32_t bs = mc_le32(a->d + pos);
    if (bs < 4)
        return mcl__fail(a->c, MCL_ERR_SIZE, pos, "%s %llu: block_size %u (expected >= 4: it counts its own field)",
                         what, (unsigned long long)i, bs);
    if (bs > left(a, pos))
        return mcl__fail(a->c, MCL_ERR_TRUNCATED, pos, "%s %llu: block_size %u runs past the end (%llu bytes left)",
                         what, (unsigned long long)i, bs, (unsigned long long)left(a, pos));
    *size = bs;
    return MCL_OK;
}

/* ---- bone table ---- */

/* aamf.md Bone Parent Table; docs/formats/aamf.md: bone_idx is the row number, a
 * root's parent_idx is its own index, and the runtime asserts parent <= i
 * (so parents come first and no cycle can exist). */
static mcl_status read_bone_table(aamf *a, uint64_t pos)
{
    mcl_bone *bones = mcl__alloc(a->c, a->bone_count, sizeof *bones);
    if (!bones) return a->c->err->status;
    for (uint32_t i = 0; i < a->bone_count; i++, pos += 4) {
        uint32_t idx = mc_le16(a->d + pos), parent = mc_le16(a->d + pos + 2);
        if (idx != i)
            return mcl__fail(a->c, MCL_ERR_STRUCTURE, pos, "bone table row %u: bone_idx is %u (expected %u)", i, idx, i);
        if (parent >= a->bone_count)
            return mcl__fail(a->c, MCL_ERR_RANGE, pos + 2,
                             "bone %u: parent_idx %u is not a bone (count %u; a root uses its own index)",
                             i, parent, a->bone_count);
        if (parent > i)
            return mcl__fail(a->c, MCL_ERR_STRUCTURE, pos + 2,
                             "bone %u: parent_idx %u comes after it (expected <= %u)", i, parent, i);
        bones[i].name = "";
        bones[i].parent = parent == i ? -1 : (int32_t)parent;
        mcl__identity(bones[i].local);
        mcl__identity(bones[i].inverse_bind);
    }
    a->m->bones = bones;
    a->m->bone_count = a->bone_count;
    return MCL_OK;
}

/* ---- animations ---- */

static mcl_status read_animation(aamf *a, uint64_t pos, uint32_t i, uint32_t bs, mcl_animation *an)
{
    /* aamf.md Animation Data Blocks; docs/formats/aamf.md: exactly
     * 20 + 32 * bone_count * keyframe_count bytes. */
    if (bs < ANIM_HEADER)
        return mcl__fail(a->c, MCL_ERR_SIZE, pos, "animation %u: block_size %u cannot hold the 20-byte header", i, bs);
    size_t name_len = 0;
    mcl_status s = check_name(a, pos + 4, "animation", i, &name_len);
    if (s != MCL_OK) return s;
    uint32_t frames = mc_le32(a->d + pos + 12);
    if (frames == 0) /* docs/formats/aamf.md: the runtime divides by keyframe_count */
        return mcl__fail(a->c, MCL_ERR_VALUE, pos + 12, "animation %u: keyframe_count is 0", i);
    uint64_t want = ANIM_HEADER;
    if (!mc_add_mul_u64(&want, (uint64_t)a->bone_count * frames, MATRIX_BYTES) || want != bs)
        return mcl__fail(a->c, MCL_ERR_SIZE, pos,
                         "animation %u: block_size %u (expected 20 + 32 x %u bones x %u keyframes)",
                         i, bs, a->bone_count, frames);
    uint64_t keys = pos + ANIM_HEADER, n = (uint64_t)a->bone_count * frames;
    for (uint64_t k = 0; k < n; k++) {
        char detail[128];
        if (matrix_fault(a->d + keys + k * MATRIX_BYTES, detail, sizeof detail))
            return mcl__fail(a->c, MCL_ERR_VALUE, keys + k * MATRIX_BYTES, "animation %u, bone %llu, keyframe %llu: %s",
                             i, (unsigned long long)(k / frames), (unsigned long long)(k % frames), detail);
    }
    an->name = mcl__strdup(a->c, a->d + pos + 4, name_len);
    an->duration = (double)frames; /* frame f shows over [f, f + 1); then it loops */
    an->track_count = a->bone_count;
    if (!an->name) return a->c->err->status;
    if (a->bone_count == 0) return MCL_OK; /* no tracks: keyframe_count never sizes an array */
    /* Bounded by the block: bone_count * frames matrices of 32 bytes are in
     * the file, so the times (one shared array) and values are too. */
    float *times = mcl__alloc(a->c, frames, sizeof *times);
    mcl_track *tracks = mcl__alloc(a->c, a->bone_count, sizeof *tracks);
    float *values = mcl__alloc(a->c, n, 16 * sizeof *values);
    if (!times || !tracks || !values) return a->c->err->status;
    for (uint32_t f = 0; f < frames; f++) times[f] = (float)f;
    for (uint32_t b = 0; b < a->bone_count; b++) {
        mcl_track *t = &tracks[b];
        t->bone = b;
        t->kind = MCL_TRACK_MATRIX;
        t->interpolation = MCL_STEP;
        t->key_count = frames;
        t->times = times;
        t->values = &values[(uint64_t)b * frames * 16];
    }
    for (uint64_t k = 0; k < n; k++) matrix_to_float(a->d + keys + k * MATRIX_BYTES, &values[k * 16]);
    an->tracks = tracks;
    return MCL_OK;
}

/* The animation blocks end the file: no padding, nothing after them. */
static mcl_status read_animations(aamf *a, uint64_t pos)
{
    mcl_animation *anims = mcl__alloc(a->c, a->anim_count, sizeof *anims);
    if (!anims) return a->c->err->status;
    for (uint32_t i = 0; i < a->anim_count; i++) {
        uint32_t bs;
        mcl_status s = block_at(a, pos, "animation", i, &bs);
        if (s == MCL_OK) s = read_animation(a, pos, i, bs, &anims[i]);
        if (s != MCL_OK) return s;
        pos += bs;
    }
    if (pos != a->size)
        return mcl__fail(a->c, MCL_ERR_SIZE, pos, "%llu bytes follow the last animation block",
                         (unsigned long long)(a->size - pos));
    a->m->animations = anims;
    a->m->animation_count = a->anim_count;
    return MCL_OK;
}

/* ---- SAMF v2 ---- */

/* Inverse of a column-major affine 4x4 through the 3x3 adjugate, in double.
 * Bind poses are checked rotations, so the determinant is about 1. */
static void affine_inverse(const double m[16], double out[16])
{
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], k = m[10];
    double A = e * k - f * h, B = -(d * k - f * g), C = d * h - e * g;
    double det = a * A + b * B + c * C;
    double inv = det != 0 ? 1.0 / det : 0.0;
    double r[9] = {A * inv, -(b * k - c * h) * inv, (b * f - c * e) * inv,
                   B * inv, (a * k - c * g) * inv, -(a * f - c * d) * inv,
                   C * inv, -(a * h - b * g) * inv, (a * e - b * d) * inv}; /* row-major */
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++) out[col * 4 + row] = r[row * 3 + col];
        out[row * 4 + 3] = 0;
        out[12 + row] = -(r[row * 3] * m[12] + r[row * 3 + 1] * m[13] + r[row * 3 + 2] * m[14]);
    }
    out[15] = 1;
}

/* aamf.md Bind Pose Transforms: one MATRIX per bone. Read as the bone's rest
 * transform relative to its parent, like the keyframes that replace it, so
 * the rest pose chains parents and inverse_bind undoes the chained (model
 * space) bind pose: at rest every skin matrix is the identity and the mesh
 * shows as stored. */
static mcl_status read_bind_poses(aamf *a, uint64_t pos)
{
    mcl_bone *bones = (mcl_bone *)a->m->bones;
    double *global = mcl__scratch(a->c, a->bone_count, 16 * sizeof *global);
    if (!global) return a->c->err->status;
    mcl_status s = MCL_OK;
    for (uint32_t i = 0; i < a->bone_count && s == MCL_OK; i++) {
        uint64_t off = pos + (uint64_t)i * MATRIX_BYTES;
        char detail[128];
        if (matrix_fault(a->d + off, detail, sizeof detail)) {
            s = mcl__fail(a->c, MCL_ERR_VALUE, off, "bind pose of bone %u: %s", i, detail);
            break;
        }
        matrix_to_float(a->d + off, bones[i].local);
        double local[16], inv[16];
        for (int k = 0; k < 16; k++) local[k] = bones[i].local[k];
        double *g = &global[(uint64_t)i * 16];
        if (bones[i].parent >= 0) mcl__mat4_mul_d(&global[(uint64_t)bones[i].parent * 16], local, g);
        else memcpy(g, local, sizeof local);
        affine_inverse(g, inv);
        for (int k = 0; k < 16; k++) bones[i].inverse_bind[k] = (float)inv[k];
    }
    mcl__scratch_free(a->c, global, a->bone_count, 16 * sizeof *global);
    return s;
}

static mcl_status read_samf_vertices(aamf *a, uint64_t pos, uint32_t vc, mcl_mesh *me)
{
    float *positions = mcl__alloc(a->c, vc, 3 * sizeof(float));
    float *normals = mcl__alloc(a->c, vc, 3 * sizeof(float));
    uint32_t *joints = mcl__alloc(a->c, vc, 4 * sizeof(uint32_t));
    float *weights = mcl__alloc(a->c, vc, 4 * sizeof(float));
    if (!positions || !normals || !joints || !weights) return a->c->err->status;
    uint64_t npos = pos + (uint64_t)vc * 8, skin = npos + (uint64_t)vc * 8;
    /* | |n| - 4096 | <= sqrt(3) in raw units (aamf.md Normals, 4.12): the
     * squared length lies strictly between these bounds (no integer sits on
     * them, sqrt(3) being irrational). */
    const double lo = (4096.0 - sqrt(3.0)) * (4096.0 - sqrt(3.0)), hi = (4096.0 + sqrt(3.0)) * (4096.0 + sqrt(3.0));
    for (uint32_t v = 0; v < vc; v++) {
        const uint8_t *p = a->d + pos + (uint64_t)v * 8, *n = a->d + npos + (uint64_t)v * 8;
        int64_t len2 = 0;
        for (int k = 0; k < 3; k++) {
            positions[(uint64_t)v * 3 + (unsigned)k] = (float)(s16(p + 2 * k) / FX_ONE);
            int64_t nk = s16(n + 2 * k);
            len2 += nk * nk;
            normals[(uint64_t)v * 3 + (unsigned)k] = (float)((double)nk / FX_ONE);
        }
        if ((double)len2 < lo || (double)len2 > hi)
            return mcl__fail(a->c, MCL_ERR_VALUE, npos + (uint64_t)v * 8,
                             "vertex %u: normal length %.6f (expected 1 within 4.12 rounding)", v, sqrt((double)len2) / FX_ONE);
        /* aamf.md Skin Weights: 4 bone indices, 4 weights summing to 255. */
        const uint8_t *sw = a->d + skin + (uint64_t)v * 8;
        unsigned sum = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint8_t bone = sw[k], w = sw[4 + k];
            sum += w;
            if (w == 0) continue; /* unused slot: its index is not used (stale ones occur) */
            if (bone >= a->bone_count)
                return mcl__fail(a->c, MCL_ERR_RANGE, skin + (uint64_t)v * 8 + k,
                                 "vertex %u: slot %u weighs bone %u (expected < bone count %u)", v, k, bone, a->bone_count);
            for (unsigned q = 0; q < k; q++)
                if (sw[4 + q] != 0 && sw[q] == bone)
                    return mcl__fail(a->c, MCL_ERR_STRUCTURE, skin + (uint64_t)v * 8 + k,
                                     "vertex %u: bone %u weighted in slots %u and %u", v, bone, q, k);
            joints[(uint64_t)v * 4 + k] = bone;
            weights[(uint64_t)v * 4 + k] = (float)(w / 255.0);
        }
        if (sum != 255)
            return mcl__fail(a->c, MCL_ERR_VALUE, skin + (uint64_t)v * 8 + 4,
                             "vertex %u: skin weights sum to %u (expected 255)", v, sum);
    }
    me->vertex_count = vc;
    me->positions = positions;
    me->normals = normals;
    me->influences = 4;
    me->joints = joints;
    me->weights = weights;
    return MCL_OK;
}

static mcl_status read_samf_faces(aamf *a, uint64_t pos, uint32_t fc, mcl_mesh *me)
{
    uint32_t *indices = mcl__alloc(a->c, fc, 3 * sizeof *indices);
    if (!indices) return a->c->err->status;
    for (uint64_t k = 0; k < (uint64_t)fc * 3; k++) {
        uint32_t v = mc_le16(a->d + pos + 2 * k);
        if (v >= me->vertex_count)
            return mcl__fail(a->c, MCL_ERR_RANGE, pos + 2 * k, "face %llu: vertex index %u (expected < vertex count %u)",
                             (unsigned long long)(k / 3), v, me->vertex_count);
        indices[k] = v;
    }
    me->index_count = fc * 3;
    me->indices = indices;
    return MCL_OK;
}

static mcl_status load_samf(aamf *a)
{
    if (a->size < SAMF_HEADER)
        return mcl__fail(a->c, MCL_ERR_TRUNCATED, a->size, "SAMF header needs 16 bytes, the file has %zu", a->size);
    uint32_t version = mc_le16(a->d + 4);
    if (version != 2) /* aamf.md: version 2 for the skinned format */
        return mcl__fail(a->c, MCL_ERR_VERSION, 4, "SAMF version %u (expected 2)", version);
    a->bone_count = mc_le16(a->d + 6);
    a->anim_count = mc_le16(a->d + 8);
    uint32_t vc = mc_le32(a->d + 10); /* packed: unaligned offset 10 (docs/formats/aamf.md) */
    uint32_t fc = mc_le16(a->d + 14);
    if (a->anim_count == 0) /* docs/formats/aamf.md: the runtime reads anims[0] anyway */
        return mcl__fail(a->c, MCL_ERR_STRUCTURE, 8, "anim_count is 0 (expected at least one animation)");
    /* The fixed tables, in file order; none can overflow 64 bits. */
    static const char *const names[6] = {"bone table", "bind poses", "positions", "normals", "skin weights", "faces"};
    uint64_t start[7];
    const uint64_t bytes[6] = {4ull * a->bone_count, 32ull * a->bone_count, 8ull * vc, 8ull * vc, 8ull * vc, 6ull * fc};
    start[0] = SAMF_HEADER;
    for (int t = 0; t < 6; t++) {
        start[t + 1] = start[t] + bytes[t];
        if (start[t + 1] > a->size)
            return mcl__fail(a->c, MCL_ERR_TRUNCATED, start[t] <= a->size ? start[t] : a->size,
                             "file ends inside the %s (%llu bytes from %llu, file has %zu)", names[t],
                             (unsigned long long)bytes[t], (unsigned long long)start[t], a->size);
    }
    a->m->layout = "samf";
    mcl_mesh *me = mcl__alloc(a->c, 1, sizeof *me);
    if (!me) return a->c->err->status;
    me->name = "";
    me->rigid_bone = -1;
    me->material = -1;
    me->primitive = MCL_TRIANGLES;
    mcl_status s = read_bone_table(a, start[0]);
    if (s == MCL_OK) s = read_bind_poses(a, start[1]);
    if (s == MCL_OK) s = read_samf_vertices(a, start[2], vc, me);
    if (s == MCL_OK) s = read_samf_faces(a, start[5], fc, me);
    if (s == MCL_OK) s = read_animations(a, start[6]);
    if (s != MCL_OK) return s;
    a->m->meshes = me;
    a->m->mesh_count = 1;
    return MCL_OK;
}

/* ---- legacy AAMF: embedded AMF meshes ---- */

/* docs/formats/aamf.md, embedded AMF: per chunk, u16 counts of F4, G4, FT4, GT4, F3,
 * G3, FT3, GT3, eight u32 pointer slots, then the records in that order.
 * Each record starts with its corners (SVECTOR) and normals (one SVECTOR, or
 * one per corner for the Gouraud kinds); GT4 then holds 4 CVECTOR colours;
 * the textured kinds then hold a u32 texture index (a Texture* at run time)
 * before the GPU primitive. */
typedef struct prim_kind {
    uint32_t size, corners, normals, texture; /* texture: offset of the index, 0 = none */
} prim_kind;

static const prim_kind kinds[8] = {
    {64, 4, 1, 0}, {100, 4, 4, 0}, {84, 4, 1, 40}, {136, 4, 4, 80},
    {52, 3, 1, 0}, {76, 3, 3, 0}, {68, 3, 1, 32}, {92, 3, 3, 48},
};

#define AMF_HEADER 24u /* used_textures, x, z, minX, minZ, maxX, maxZ */
#define CHUNK_HEADER 48u

typedef struct amf_info {
    uint64_t start, end;      /* the AMF inside the bone block */
    uint32_t textures, chunks;
    uint64_t vertices, triangles;
} amf_info;

static mcl_status amf_layout(aamf *a, uint32_t bone, const char *what, uint64_t at, uint64_t need, uint64_t have)
{
    return mcl__fail(a->c, MCL_ERR_SIZE, at, "bone block %u: the AMF %s needs %llu bytes, the block holds %llu",
                     bone, what, (unsigned long long)need, (unsigned long long)have);
}

/* The embedded AMF as the game's reader parses it; its parts end exactly at
 * the end of the bone block (docs/formats/aamf.md). Counts the geometry. */
static mcl_status scan_amf(aamf *a, uint32_t bone, amf_info *in)
{
    uint64_t p = in->start, end = in->end;
    if (end - p < AMF_HEADER) return amf_layout(a, bone, "header", p, AMF_HEADER, end - p);
    uint32_t used = mc_le32(a->d + p);
    if (used & 0x80000000u) /* docs/formats/aamf.md: bit 31 is the run-time "relocated" flag */
        return mcl__fail(a->c, MCL_ERR_VALUE, p, "bone block %u: used_textures 0x%08x has bit 31 (run-time flag) set",
                         bone, used);
    uint32_t chunks = (uint32_t)mc_le16(a->d + p + 4) * mc_le16(a->d + p + 6);
    if (chunks > 65535) /* docs/formats/aamf.md: the reader's u16 chunk loop never ends */
        return mcl__fail(a->c, MCL_ERR_RANGE, p + 4, "bone block %u: chunk grid of %u chunks (expected <= 65535)",
                         bone, chunks);
    p += AMF_HEADER;
    if ((end - p) / 8 < used) return amf_layout(a, bone, "texture names", p, 8ull * used, end - p);
    for (uint32_t t = 0; t < used; t++) {
        size_t len;
        mcl_status s = check_name(a, p + 8ull * t, "texture", t, &len);
        if (s != MCL_OK) return s;
    }
    p += 8ull * used;
    if ((end - p) / 4 < chunks) return amf_layout(a, bone, "chunk table", p, 4ull * chunks, end - p);
    p += 4ull * chunks; /* chunk table: ignored by the reader */
    for (uint32_t ch = 0; ch < chunks; ch++) {
        if (end - p < CHUNK_HEADER) return amf_layout(a, bone, "chunk header", p, CHUNK_HEADER, end - p);
        uint64_t bytes = CHUNK_HEADER;
        for (int k = 0; k < 8; k++) {
            uint32_t n = mc_le16(a->d + p + 2 * (unsigned)k);
            bytes += (uint64_t)n * kinds[k].size;
            in->vertices += (uint64_t)n * kinds[k].corners;
            in->triangles += (uint64_t)n * (kinds[k].corners == 4 ? 2 : 1);
        }
        if (end - p < bytes) return amf_layout(a, bone, "chunk", p, bytes, end - p);
        p += bytes;
    }
    if (p != end)
        return mcl__fail(a->c, MCL_ERR_SIZE, p, "bone block %u: %llu bytes follow the last of %u chunks",
                         bone, (unsigned long long)(end - p), chunks);
    if (in->vertices > UINT32_MAX || in->triangles > UINT32_MAX / 3)
        return mcl__fail(a->c, MCL_ERR_LIMIT, in->start, "bone block %u: more geometry than 32-bit indices address", bone);
    in->textures = used;
    in->chunks = chunks;
    return MCL_OK;
}

static void svector_to_float(const uint8_t *p, float *out)
{
    for (int k = 0; k < 3; k++) out[k] = (float)(s16(p + 2 * k) / FX_ONE);
}

/* Corners become vertices of their own (flat normals, per-primitive
 * textures); a quad is the PS1 GPU's Z-ordered v0 v1 v2 v3, split into
 * (v0, v1, v2) and (v1, v3, v2). The game's reader does not check texture
 * indices (docs/formats/aamf.md), so one past the bone's names is rejected here. */
static mcl_status fill_amf(aamf *a, uint32_t bone, const amf_info *in, int32_t first_material, mcl_mesh *me)
{
    float *positions = mcl__alloc(a->c, in->vertices, 3 * sizeof(float));
    float *normals = mcl__alloc(a->c, in->vertices, 3 * sizeof(float));
    uint32_t *indices = mcl__alloc(a->c, in->triangles, 3 * sizeof(uint32_t));
    int32_t *face_materials = mcl__alloc(a->c, in->triangles, sizeof(int32_t));
    if (!positions || !normals || !indices || !face_materials) return a->c->err->status;
    uint64_t p = in->start + AMF_HEADER + 8ull * in->textures + 4ull * in->chunks;
    uint32_t v = 0, t = 0;
    for (uint32_t ch = 0; ch < in->chunks; ch++) {
        uint16_t count[8];
        for (int k = 0; k < 8; k++) count[k] = mc_le16(a->d + p + 2 * (unsigned)k);
        p += CHUNK_HEADER;
        for (int k = 0; k < 8; k++) {
            const prim_kind *pk = &kinds[k];
            for (uint32_t r = 0; r < count[k]; r++, p += pk->size) {
                const uint8_t *rec = a->d + p;
                int32_t mat = -1;
                if (pk->texture) {
                    uint32_t tex = mc_le32(rec + pk->texture);
                    if (tex >= in->textures) /* docs/formats/aamf.md: the game indexes its table unchecked */
                        return mcl__fail(a->c, MCL_ERR_RANGE, p + pk->texture,
                                         "bone block %u: texture index %u (expected < used_textures %u)", bone,
                                         tex, in->textures);
                    mat = first_material + (int32_t)tex;
                }
                for (uint32_t q = 0; q < pk->corners; q++) {
                    svector_to_float(rec + 8 * q, &positions[(uint64_t)(v + q) * 3]);
                    uint32_t nq = pk->normals == 1 ? 0 : q;
                    svector_to_float(rec + 8 * (pk->corners + nq), &normals[(uint64_t)(v + q) * 3]);
                }
                static const uint32_t tri[2][3] = {{0, 1, 2}, {1, 3, 2}};
                for (uint32_t h = 0; h < (pk->corners == 4 ? 2u : 1u); h++, t++) {
                    for (int q = 0; q < 3; q++) indices[(uint64_t)t * 3 + (unsigned)q] = v + tri[h][q];
                    face_materials[t] = mat;
                }
                v += pk->corners;
            }
        }
    }
    me->name = "";
    me->vertex_count = (uint32_t)in->vertices;
    me->positions = positions;
    me->normals = normals;
    me->rigid_bone = (int32_t)bone;
    me->primitive = MCL_TRIANGLES;
    me->index_count = (uint32_t)in->triangles * 3;
    me->indices = indices;
    me->material = -1;
    me->face_materials = face_materials;
    return MCL_OK;
}

/* Every bone block is framed and its AMF checked before any geometry is
 * allocated, so the material list (one per texture name) is known. */
static mcl_status read_bone_blocks(aamf *a, uint64_t *pos, amf_info *info)
{
    uint64_t materials = 0;
    for (uint32_t b = 0; b < a->bone_count; b++) {
        uint32_t bs;
        mcl_status s = block_at(a, *pos, "bone block", b, &bs);
        if (s != MCL_OK) return s;
        info[b].start = *pos + 4;
        info[b].end = *pos + bs;
        s = scan_amf(a, b, &info[b]);
        if (s != MCL_OK) return s;
        materials += info[b].textures;
        *pos += bs;
    }
    if (materials > INT32_MAX)
        return mcl__fail(a->c, MCL_ERR_LIMIT, *pos, "%llu texture names (more than material indices hold)",
                         (unsigned long long)materials);
    mcl_material *mats = mcl__alloc(a->c, materials, sizeof *mats);
    mcl_mesh *meshes = mcl__alloc(a->c, a->bone_count, sizeof *meshes);
    if (!mats || !meshes) return a->c->err->status;
    uint32_t mi = 0;
    for (uint32_t b = 0; b < a->bone_count; b++) {
        int32_t first = (int32_t)mi;
        for (uint32_t t = 0; t < info[b].textures; t++, mi++) {
            const uint8_t *name = a->d + info[b].start + AMF_HEADER + 8ull * t;
            size_t len = 0;
            while (len < 8 && name[len]) len++;
            char *s = mcl__strdup(a->c, name, len);
            if (!s) return a->c->err->status;
            mats[mi].name = s;
            mats[mi].texture_path = s; /* the game looks textures up by this name */
            for (int k = 0; k < 4; k++) mats[mi].base_color[k] = 1;
        }
        mcl_status s = fill_amf(a, b, &info[b], first, &meshes[b]);
        if (s != MCL_OK) return s;
    }
    a->m->materials = mats;
    a->m->material_count = (uint32_t)materials;
    a->m->meshes = meshes;
    a->m->mesh_count = a->bone_count;
    return MCL_OK;
}

static mcl_status load_legacy(aamf *a)
{
    if (a->size < 4) return mcl__fail(a->c, MCL_ERR_TRUNCATED, a->size, "legacy AAMF header needs 4 bytes, the file has %zu", a->size);
    a->bone_count = mc_le16(a->d);
    a->anim_count = mc_le16(a->d + 2);
    if (a->anim_count == 0)
        return mcl__fail(a->c, MCL_ERR_STRUCTURE, 2, "anim_count is 0 (expected at least one animation)");
    if (left(a, 4) < 4ull * a->bone_count)
        return mcl__fail(a->c, MCL_ERR_TRUNCATED, 4, "file ends inside the bone table (%u bones need %llu bytes, %llu left)",
                         a->bone_count, 4ull * a->bone_count, (unsigned long long)left(a, 4));
    a->m->layout = "legacy";
    mcl_status s = read_bone_table(a, 4);
    if (s != MCL_OK) return s;
    uint64_t pos = 4 + 4ull * a->bone_count;
    amf_info *info = mcl__scratch(a->c, a->bone_count, sizeof *info);
    if (!info) return a->c->err->status;
    s = read_bone_blocks(a, &pos, info);
    mcl__scratch_free(a->c, info, a->bone_count, sizeof *info);
    if (s == MCL_OK) s = read_animations(a, pos);
    return s;
}

/* aamf.md: SAMF starts with 'SAMF' or 'AAMF'; legacy AAMF has no magic (its
 * first bytes are bone_count and anim_count). */
mcl_status mcl__load_aamf(mcl_ctx *c, const uint8_t *data, size_t size)
{
    aamf a = {c, data, size, 0, 0, c->model};
    if (size == 0) return mcl__fail(c, MCL_ERR_TRUNCATED, 0, "empty file");
    if (size >= 4 && (memcmp(data, "SAMF", 4) == 0 || memcmp(data, "AAMF", 4) == 0)) return load_samf(&a);
    return load_legacy(&a);
}
