/*
 * SEModel reference loader, written from semodel.md (the 2017 draft) and
 * docs/formats/semodel.md (the 2018 layout every real tool writes). headerSize
 * tells the layout: 0x14 is 2018, 0x1E (or 0x1C from a draft-era writer) is
 * the draft.
 *
 * Model mapping:
 *   - positions, UVs (f32) and normals (f32 in 2018, binary16 in the draft)
 *     as stored; colours u8 / 255; weights as stored (draft: binary16);
 *   - 2018: one model material per material entry (texture_path = the
 *     diffuse map of a simple material); a mesh's `material` is its first
 *     material reference (UV layer 0). Draft: the material block is TODO in
 *     the spec, so nameless placeholder materials stand for the mat_t indices
 *     the vertices use; a mesh's material is vertex 0's layer-0 index, and
 *     face_materials (from each face's first vertex) when they differ;
 *   - bones: rest `local` = T(localPosition) R(localRotation) S(scale); when
 *     a file stores only global transforms, local = inverse(parent global) *
 *     global * S. `inverse_bind` inverts the stored global (the bind pose,
 *     position + rotation) or, without globals, the chained rest pose;
 *   - no animation (SEModel has none); Greyhound's SEBlend trailer is framed
 *     and checked but the common model has no blend shapes.
 * Every index and count is checked before use; the first error-level breach
 * rejects the file.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mcl_internal.h"

/* Tolerances of the project (docs/ISSUES.md, glTF-Validator defaults). */
#define SE_UNIT_TOL 0.00674
#define SE_QUAT_TOL 0.00769
#define SE_WEIGHT_TOL_F32 2e-7
/* binary16 weights: half an ulp at 1.0 per non-zero weight, the rounding a
 * writer cannot avoid. */
#define SE_WEIGHT_TOL_F16 (1.0 / 2048.0)

/* Data presence flags. */
#define SE_BONE 0x01u
#define SE_MESH 0x02u
#define SE18_MATERIALS 0x04u
#define SE18_CUSTOM 0x80u
#define SEDR_COLLISION 0x04u
#define SEDR_MATERIALS 0x08u
/* Bone presence flags (both layouts). */
#define SE_GLOBAL 0x01u
#define SE_LOCAL 0x02u
#define SE_SCALES 0x04u
/* Mesh presence flags (both layouts). */
#define SE_UVSET 0x01u
#define SE_NORMALS 0x02u
#define SE_COLOR 0x04u
#define SE_WEIGHTS 0x08u

#define SE_MAGIC_BYTES 7

typedef struct se_header {
    bool draft;
    uint8_t data_flags, bone_flags, mesh_flags;
    uint32_t bone_count, mesh_count, col_count, mat_count;
    uint8_t max_influence; /* draft: one for every mesh */
    unsigned bone_width;   /* bone_t */
    unsigned mat_width;    /* draft mat_t */
} se_header;

/* The draft's mat_t indices seen so far: placeholder materials are made for
 * 0..max_used. */
typedef struct se_state {
    se_header h;
    int64_t max_mat_used;
} se_state;

/* ---- small helpers ---- */

/* bone_t / face_t: u8 up to 0xFF, u16 up to 0xFFFF, else u32
 * (semodel.md, Basic Data Types; docs/formats/semodel.md: face_t follows the same rule). */
static unsigned index_width(uint64_t count)
{
    return count <= 0xFFu ? 1u : count <= 0xFFFFu ? 2u : 4u;
}

static uint32_t read_index(mc_reader *r, unsigned width)
{
    if (width == 1) return mc_read_u8(r);
    if (width == 2) return mc_read_u16(r);
    return mc_read_u32(r);
}

/* IEEE 754 binary16 to float, subnormals, infinities and NaN included. */
static float half_to_float(uint16_t h)
{
    unsigned sign = h >> 15, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
    float v;
    if (exp == 0) v = ldexpf((float)mant, -24);
    else if (exp == 31) v = mant ? NAN : INFINITY;
    else v = ldexpf((float)(mant | 0x400u), (int)exp - 25);
    return sign ? -v : v;
}

static bool all_finite(const float *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static double length(const float *v, unsigned n)
{
    double s = 0;
    for (unsigned i = 0; i < n; i++) s += (double)v[i] * (double)v[i];
    return sqrt(s);
}

/* Strict UTF-8 (RFC 3629): no overlongs, no surrogates, nothing past
 * U+10FFFF. Returns the offset of the first bad byte, or len when valid. */
static size_t utf8_bad_at(const uint8_t *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint8_t b = s[i];
        size_t n;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b < 0x80) {
            i++;
            continue;
        } else if (b >= 0xC2 && b <= 0xDF) n = 1;
        else if (b >= 0xE0 && b <= 0xEF) {
            n = 2;
            if (b == 0xE0) lo = 0xA0;      /* overlong */
            else if (b == 0xED) hi = 0x9F; /* surrogates */
        } else if (b >= 0xF0 && b <= 0xF4) {
            n = 3;
            if (b == 0xF0) lo = 0x90;      /* overlong */
            else if (b == 0xF4) hi = 0x8F; /* past U+10FFFF */
        } else return i;
        if (n > len - i - 1) return i;
        if (s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k <= n; k++)
            if ((s[i + k] & 0xC0) != 0x80) return i;
        i += n + 1;
    }
    return len;
}

static mcl_status truncated(mcl_ctx *c, uint64_t at, uint64_t need, uint64_t left, const char *what)
{
    return mcl__fail(c, MCL_ERR_TRUNCATED, at, "%s needs %llu bytes, %llu remain", what,
                     (unsigned long long)need, (unsigned long long)left);
}

/* A NUL-terminated UTF-8 string (semodel.md string_t; docs/formats/semodel.md: readers
 * decode UTF-8). *s and *len describe it without the NUL. */
static mcl_status read_string(mcl_ctx *c, mc_reader *r, const char *what, const uint8_t **s, size_t *len)
{
    size_t at = r->pos, left = mc_reader_left(r);
    const uint8_t *p = r->p + at;
    const uint8_t *nul = left ? memchr(p, 0, left) : NULL;
    if (!nul) return mcl__fail(c, MCL_ERR_TRUNCATED, at, "%s: no NUL terminator before the end of the file", what);
    size_t n = (size_t)(nul - p);
    size_t bad = utf8_bad_at(p, n);
    if (bad != n)
        return mcl__fail(c, MCL_ERR_VALUE, at + bad, "%s: byte 0x%02x is not valid UTF-8", what, p[bad]);
    mc_reader_skip(r, n + 1);
    *s = p;
    *len = n;
    return MCL_OK;
}

static mcl_status dup_string(mcl_ctx *c, mc_reader *r, const char *what, const char **out, size_t *len_out)
{
    const uint8_t *s;
    size_t len;
    mcl_status st = read_string(c, r, what, &s, &len);
    if (st != MCL_OK) return st;
    *out = mcl__strdup(c, s, len);
    if (len_out) *len_out = len;
    return *out ? MCL_OK : c->err->status;
}

/* ---- header ---- */

static mcl_status read_magic_version(mcl_ctx *c, mc_reader *r)
{
    static const uint8_t magic[SE_MAGIC_BYTES] = {'S', 'E', 'M', 'o', 'd', 'e', 'l'};
    size_t n = r->size < SE_MAGIC_BYTES ? r->size : SE_MAGIC_BYTES;
    if (memcmp(r->p, magic, n) != 0)
        return mcl__fail(c, MCL_ERR_MAGIC, 0, "the file does not start with \"SEModel\"");
    if (n < SE_MAGIC_BYTES) return truncated(c, 0, SE_MAGIC_BYTES, r->size, "the magic");
    mc_reader_skip(r, SE_MAGIC_BYTES);
    uint16_t version = mc_read_u16(r);
    if (r->fail) return truncated(c, 7, 2, mc_reader_left(r), "the version");
    /* semodel.md: version 1 of the SEModel file format. */
    if (version != 1) return mcl__fail(c, MCL_ERR_VERSION, 7, "version %u (expected 1)", version);
    return MCL_OK;
}

/* docs/formats/semodel.md: 2018 header, 20 bytes counting headerSize. */
static void read_header_2018(mc_reader *r, se_header *h)
{
    h->data_flags = mc_read_u8(r);
    h->bone_flags = mc_read_u8(r);
    h->mesh_flags = mc_read_u8(r);
    h->bone_count = mc_read_u32(r);
    h->mesh_count = mc_read_u32(r);
    h->mat_count = mc_read_u32(r);
    mc_reader_skip(r, 3); /* reserved: non-zero is only a warning */
}

/* semodel.md SEModel_Header: 30 bytes counting headerSize. */
static void read_header_draft(mc_reader *r, se_header *h)
{
    mc_reader_skip(r, 3); /* modelType, modelFlags: implementation defined */
    h->data_flags = mc_read_u8(r);
    h->bone_flags = mc_read_u8(r);
    h->mesh_flags = mc_read_u8(r);
    mc_reader_skip(r, 2); /* reserved1 */
    h->bone_count = mc_read_u32(r);
    h->mesh_count = mc_read_u32(r);
    h->col_count = mc_read_u32(r);
    h->mat_count = mc_read_u32(r);
    h->max_influence = mc_read_u8(r);
    mc_reader_skip(r, 3); /* reserved2 */
}

static mcl_status check_flag_bits(mcl_ctx *c, uint8_t value, uint8_t known, uint64_t at, const char *name)
{
    /* semodel.md SEMODEL_*PRESENCE_FLAGS: RESERVED bits are ALWAYS FALSE;
     * docs/formats/semodel.md: the 2018 values (CUSTOM 0x80, no COLLISION). */
    if (value & (uint8_t)~known)
        return mcl__fail(c, MCL_ERR_RANGE, at, "%s 0x%02x: bits 0x%02x are reserved or unknown", name, value,
                         (unsigned)(value & (uint8_t)~known));
    return MCL_OK;
}

static mcl_status read_header(mcl_ctx *c, mc_reader *r, se_header *h)
{
    mcl_status st = read_magic_version(c, r);
    if (st != MCL_OK) return st;
    uint16_t header_size = mc_read_u16(r);
    if (r->fail) return truncated(c, 9, 2, mc_reader_left(r), "headerSize");
    /* docs/formats/semodel.md: 0x14 is the 2018 layout; 0x1E (the draft's 30 bytes) or
     * 0x1C (a draft-era writer, not counting the field) the draft. */
    if (header_size == 0x14) h->draft = false;
    else if (header_size == 0x1E || header_size == 0x1C) h->draft = true;
    else
        return mcl__fail(c, MCL_ERR_VERSION, 9, "headerSize 0x%x (expected 0x14 for 2018, 0x1E or 0x1C for the draft)",
                         header_size);
    size_t body = h->draft ? 28 : 18;
    if (mc_reader_left(r) < body) return truncated(c, 11, body, mc_reader_left(r), "the header");
    if (h->draft) read_header_draft(r, h);
    else read_header_2018(r, h);
    uint64_t flags_at = h->draft ? 14 : 11;
    uint8_t known_data = h->draft ? (uint8_t)(SE_BONE | SE_MESH | SEDR_COLLISION | SEDR_MATERIALS)
                                  : (uint8_t)(SE_BONE | SE_MESH | SE18_MATERIALS | SE18_CUSTOM);
    st = check_flag_bits(c, h->data_flags, known_data, flags_at, "dataPresenceFlags");
    if (st == MCL_OK)
        st = check_flag_bits(c, h->bone_flags, SE_GLOBAL | SE_LOCAL | SE_SCALES, flags_at + 1, "boneDataPresenceFlags");
    if (st == MCL_OK)
        st = check_flag_bits(c, h->mesh_flags, SE_UVSET | SE_NORMALS | SE_COLOR | SE_WEIGHTS, flags_at + 2,
                             "meshDataPresenceFlags");
    if (st != MCL_OK) return st;
    /* semodel.md SEModel File Structure: at least 1 data block, the custom
     * block excluded. */
    if ((h->data_flags & (uint8_t)~SE18_CUSTOM) == 0)
        return mcl__fail(c, MCL_ERR_STRUCTURE, flags_at, "dataPresenceFlags 0x%02x announces no data block",
                         h->data_flags);
    /* A count with its flag clear is read anyway (the readers disagree; the
     * validator warns and uses the count), so the counts drive the layout. */
    h->bone_width = index_width(h->bone_count);
    h->mat_width = h->mat_count <= 0xFFu ? 1u : 2u;
    return MCL_OK;
}

/* ---- bones ---- */

typedef struct se_bone_rec {
    float gp[3], gq[4], lp[3], lq[4], s[3];
} se_bone_rec;

/* Column-major double matrices: the rest pose is chained in double so long
 * hierarchies keep their precision, then saturated into float. */
static void dm_identity(double m[16])
{
    for (int i = 0; i < 16; i++) m[i] = (i % 5 == 0) ? 1.0 : 0.0;
}

static void dm_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += a[k * 4 + row] * b[col * 4 + k];
            r[col * 4 + row] = v;
        }
    memcpy(out, r, sizeof r);
}

/* Rotation of a quaternion (x y z w) that passed the unit check, normalised
 * exactly so its transpose is its inverse. rot[col * 3 + row]. */
static void dm_rotation(const float q[4], double rot[9])
{
    double n = length(q, 4);
    double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    const double r[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
        2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
        2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y),
    };
    memcpy(rot, r, sizeof r);
}

/* T(t) R(q) S(s). */
static void dm_trs(const float t[3], const float q[4], const float s[3], double m[16])
{
    double rot[9];
    dm_rotation(q, rot);
    for (int col = 0; col < 3; col++) {
        for (int row = 0; row < 3; row++) m[col * 4 + row] = rot[col * 3 + row] * s[col];
        m[col * 4 + 3] = 0;
        m[12 + col] = t[col];
    }
    m[15] = 1;
}

/* inverse(T(t) R(q) S(s)) = S^-1 R^T T(-t); scales are non-zero (checked). */
static void dm_inverse_trs(const float t[3], const float q[4], const float s[3], double m[16])
{
    double rot[9];
    dm_rotation(q, rot);
    for (int col = 0; col < 3; col++) {
        for (int row = 0; row < 3; row++) m[col * 4 + row] = rot[row * 3 + col] / s[row];
        m[col * 4 + 3] = 0;
    }
    for (int row = 0; row < 3; row++)
        m[12 + row] = -(m[row] * t[0] + m[4 + row] * t[1] + m[8 + row] * t[2]);
    m[15] = 1;
}

/* A valid file may still chain or invert to values past float range (huge
 * positions, tiny scales): saturate so the model stays finite. */
static void dm_to_float(const double m[16], float out[16])
{
    for (int i = 0; i < 16; i++) {
        double v = m[i];
        if (isnan(v)) v = 0;
        else if (v > FLT_MAX) v = FLT_MAX;
        else if (v < -FLT_MAX) v = -FLT_MAX;
        out[i] = (float)v;
    }
}

static mcl_status check_rotation(mcl_ctx *c, const float q[4], uint64_t at, uint32_t i, const char *what)
{
    /* semodel.md Basic Data Types: quat_t X Y Z W (Normalized). */
    double n = length(q, 4);
    if (fabs(n - 1.0) > SE_QUAT_TOL)
        return mcl__fail(c, MCL_ERR_VALUE, at, "bone %u: %s length %g (expected 1 +- %g)", i, what, n, SE_QUAT_TOL);
    return MCL_OK;
}

/* One SEModel_BoneData record (semodel.md; docs/formats/semodel.md: same in 2018). */
static mcl_status read_bone_record(mcl_ctx *c, mc_reader *r, const se_header *h, uint32_t i, mcl_bone *b,
                                   se_bone_rec *rec)
{
    static const float zero3[3] = {0, 0, 0}, one3[3] = {1, 1, 1}, ident_q[4] = {0, 0, 0, 1};
    uint64_t at = r->pos;
    mc_read_u8(r); /* flags: no bit is defined */
    int32_t parent = mc_read_i32(r);
    memcpy(rec->gp, zero3, sizeof zero3);
    memcpy(rec->gq, ident_q, sizeof ident_q);
    memcpy(rec->lp, zero3, sizeof zero3);
    memcpy(rec->lq, ident_q, sizeof ident_q);
    memcpy(rec->s, one3, sizeof one3);
    uint64_t global_at = r->pos;
    if (h->bone_flags & SE_GLOBAL) {
        mc_read_f32s(r, rec->gp, 3);
        mc_read_f32s(r, rec->gq, 4);
    }
    uint64_t local_at = r->pos;
    if (h->bone_flags & SE_LOCAL) {
        mc_read_f32s(r, rec->lp, 3);
        mc_read_f32s(r, rec->lq, 4);
    }
    uint64_t scale_at = r->pos;
    if (h->bone_flags & SE_SCALES) mc_read_f32s(r, rec->s, 3);
    if (r->fail) return truncated(c, at, 5, mc_reader_left(r), "a bone record");
    /* semodel.md SEModel_BoneData: boneParent is -1 for a root, otherwise
     * the parent's index; docs/formats/semodel.md: a forward parent breaks importers that
     * create bones in order. */
    if (parent < -1 || (parent >= 0 && (uint32_t)parent >= h->bone_count))
        return mcl__fail(c, MCL_ERR_RANGE, at + 1, "bone %u: parent %d (expected -1 or < %u)", i, parent,
                         h->bone_count);
    if (parent >= 0 && (uint32_t)parent == i)
        return mcl__fail(c, MCL_ERR_STRUCTURE, at + 1, "bone %u is its own parent", i);
    if (parent >= 0 && (uint32_t)parent > i)
        return mcl__fail(c, MCL_ERR_STRUCTURE, at + 1, "bone %u: parent %d comes after it (expected < %u)", i,
                         parent, i);
    b->parent = parent;
    /* semodel.md SEModel_BoneData: vec3 and quat_t hold numbers. */
    if (!all_finite(rec->gp, 3) || !all_finite(rec->gq, 4))
        return mcl__fail(c, MCL_ERR_VALUE, global_at, "bone %u: global transform holds NaN or infinity", i);
    if (!all_finite(rec->lp, 3) || !all_finite(rec->lq, 4))
        return mcl__fail(c, MCL_ERR_VALUE, local_at, "bone %u: local transform holds NaN or infinity", i);
    if (!all_finite(rec->s, 3))
        return mcl__fail(c, MCL_ERR_VALUE, scale_at, "bone %u: scale holds NaN or infinity", i);
    mcl_status st = check_rotation(c, rec->gq, global_at + 12, i, "globalRotation");
    if (st == MCL_OK) st = check_rotation(c, rec->lq, local_at + 12, i, "localRotation");
    if (st != MCL_OK) return st;
    /* semodel.md: scale 1.0 is the default; a zero axis cannot be undone. */
    if (rec->s[0] == 0 || rec->s[1] == 0 || rec->s[2] == 0)
        return mcl__fail(c, MCL_ERR_VALUE, scale_at, "bone %u: scale (%g, %g, %g) has a zero component", i,
                         (double)rec->s[0], (double)rec->s[1], (double)rec->s[2]);
    return MCL_OK;
}

/* The inverse of a rigid column-major matrix: R^T, -R^T t. */
static void dm_inverse_rigid(const double m[16], double out[16])
{
    dm_identity(out);
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++) out[col * 4 + row] = m[row * 4 + col];
    for (int row = 0; row < 3; row++)
        out[12 + row] = -(out[row] * m[12] + out[4 + row] * m[13] + out[8 + row] * m[14]);
}

/* Rest local and inverse bind of bone i, its parent (< i) done. work[i]
 * keeps the stored bind global (with GLOBAL) or the inverse of the chained
 * rest global (without). Absent transforms read as identity, scale 1. */
static void bone_matrices(const se_header *h, mcl_bone *bones, uint32_t i, const se_bone_rec *rec, double *work)
{
    static const float one3[3] = {1, 1, 1};
    double local[16], inv[16];
    double *w = &work[(size_t)i * 16];
    int32_t p = bones[i].parent;
    bool global = (h->bone_flags & SE_GLOBAL) != 0;
    if (global) {
        dm_trs(rec->gp, rec->gq, one3, w);
        dm_inverse_rigid(w, inv);
    }
    if (global && !(h->bone_flags & SE_LOCAL)) {
        /* only globals stored: local = inverse(parent global) * global * S */
        double scale[16], pinv[16];
        dm_identity(scale);
        for (int k = 0; k < 3; k++) scale[k * 5] = rec->s[k];
        dm_mul(w, scale, local);
        if (p >= 0) {
            dm_inverse_rigid(&work[(size_t)p * 16], pinv);
            dm_mul(pinv, local, local);
        }
    } else {
        dm_trs(rec->lp, rec->lq, rec->s, local);
    }
    if (!global) {
        /* inverse(parent global * local) = inverse(local) * inverse(parent global) */
        dm_inverse_trs(rec->lp, rec->lq, rec->s, inv);
        if (p >= 0) dm_mul(inv, &work[(size_t)p * 16], inv);
        memcpy(w, inv, sizeof inv);
    }
    dm_to_float(local, bones[i].local);
    dm_to_float(inv, bones[i].inverse_bind);
}

static mcl_status read_bones(mcl_ctx *c, mc_reader *r, const se_header *h)
{
    uint32_t n = h->bone_count;
    if (n == 0) return MCL_OK;
    /* Each bone needs at least its name's NUL and a 5-byte record: reject a
     * count the file cannot hold before allocating for it. */
    uint64_t record = 5 + ((h->bone_flags & SE_GLOBAL) ? 28u : 0u) + ((h->bone_flags & SE_LOCAL) ? 28u : 0u) +
                      ((h->bone_flags & SE_SCALES) ? 12u : 0u);
    uint64_t need = 0;
    if (!mc_add_mul_u64(&need, n, record + 1) || need > mc_reader_left(r))
        return truncated(c, r->pos, need, mc_reader_left(r), "the bone block");
    mcl_bone *bones = mcl__alloc(c, n, sizeof *bones);
    if (!bones) return c->err->status;
    c->model->bones = bones;
    c->model->bone_count = n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t at = r->pos;
        size_t len = 0;
        mcl_status st = dup_string(c, r, "bone name", &bones[i].name, &len);
        if (st != MCL_OK) return st;
        /* semodel.md SEModel_File: string_t bone[boneCount] names a bone. */
        if (len == 0) return mcl__fail(c, MCL_ERR_VALUE, at, "bone %u: empty name", i);
    }
    if (!mc_mul_u64(n, record, &need) || need > mc_reader_left(r))
        return truncated(c, r->pos, need, mc_reader_left(r), "the bone records");
    double *work = mcl__scratch(c, n, 16 * sizeof(double));
    if (!work) return c->err->status;
    mcl_status st = MCL_OK;
    for (uint32_t i = 0; i < n && st == MCL_OK; i++) {
        se_bone_rec rec;
        st = read_bone_record(c, r, h, i, &bones[i], &rec);
        if (st == MCL_OK) bone_matrices(h, bones, i, &rec, work);
    }
    mcl__scratch_free(c, work, n, 16 * sizeof(double));
    return st;
}

/* ---- meshes ---- */

typedef struct se_mesh_shape {
    uint64_t at;
    uint32_t vertices, faces;
    uint32_t layers;     /* UV layers stored (0 when UVSET is clear) */
    uint32_t mat_refs;   /* 2018: material references after the faces */
    uint32_t influences; /* weight slots stored per vertex */
} se_mesh_shape;

static mcl_status alloc_mesh_arrays(mcl_ctx *c, const se_header *h, const se_mesh_shape *s, mcl_mesh *me)
{
    uint64_t v = s->vertices;
    me->name = "";
    me->vertex_count = s->vertices;
    me->uv_layer_count = s->layers;
    me->influences = s->influences;
    me->rigid_bone = -1;
    me->material = -1;
    me->primitive = MCL_TRIANGLES;
    /* faces <= remaining bytes / 3 was checked; past 2^32 indices the model
     * cannot count them. */
    if (s->faces > UINT32_MAX / 3)
        return mcl__fail(c, MCL_ERR_LIMIT, s->at, "%u faces exceed the model's index count", s->faces);
    me->index_count = s->faces * 3;
    float *pos = mcl__alloc(c, v, 3 * sizeof(float));
    float *uvs = mcl__alloc(c, v * s->layers, 2 * sizeof(float));
    float *nrm = (h->mesh_flags & SE_NORMALS) ? mcl__alloc(c, v, 3 * sizeof(float)) : NULL;
    float *col = (h->mesh_flags & SE_COLOR) ? mcl__alloc(c, v, 4 * sizeof(float)) : NULL;
    uint32_t *joints = mcl__alloc(c, v * s->influences, sizeof(uint32_t));
    float *weights = mcl__alloc(c, v * s->influences, sizeof(float));
    uint32_t *idx = mcl__alloc(c, me->index_count, sizeof(uint32_t));
    if (c->err->status != MCL_OK) return c->err->status;
    me->positions = pos;
    me->uvs = uvs;
    me->normals = nrm;
    me->colors = col;
    me->joints = joints;
    me->weights = weights;
    me->indices = idx;
    return MCL_OK;
}

static mcl_status check_vec(mcl_ctx *c, const float *v, unsigned n, uint64_t at, uint32_t k, uint32_t vert,
                            const char *what)
{
    /* semodel.md SEModel_VertexData: positions, UVs and normals are numbers. */
    if (!all_finite(v, n))
        return mcl__fail(c, MCL_ERR_VALUE, at, "mesh %u vertex %u: %s holds NaN or infinity", k, vert, what);
    return MCL_OK;
}

static mcl_status check_normal(mcl_ctx *c, const float *n, uint64_t at, uint32_t k, uint32_t v)
{
    mcl_status st = check_vec(c, n, 3, at, k, v, "normal");
    if (st != MCL_OK) return st;
    /* semodel.md SEModel_VertexData: a vertex normal is a direction, or
     * (0, 0, 0) for none (a warning). */
    double len = length(n, 3);
    if ((n[0] != 0 || n[1] != 0 || n[2] != 0) && fabs(len - 1.0) > SE_UNIT_TOL)
        return mcl__fail(c, MCL_ERR_VALUE, at, "mesh %u vertex %u: normal length %g (expected 1 +- %g)", k, v, len,
                         SE_UNIT_TOL);
    return MCL_OK;
}

/* The weight slots of one vertex: bone in range, weight in [0, 1], sum 1
 * within the tolerance per non-zero weight (semodel.md SEModel_VertexData). */
static mcl_status check_weights(mcl_ctx *c, const se_header *h, const uint32_t *joints, const float *weights,
                                uint32_t n, double tol, uint64_t at, uint32_t k, uint32_t v)
{
    double sum = 0;
    uint32_t nonzero = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (joints[j] >= h->bone_count)
            return mcl__fail(c, MCL_ERR_RANGE, at, "mesh %u vertex %u: bone index %u (expected < %u)", k, v,
                             joints[j], h->bone_count);
        float w = weights[j];
        if (!(w >= 0.0f && w <= 1.0f))
            return mcl__fail(c, MCL_ERR_VALUE, at, "mesh %u vertex %u: weight %g (expected within [0, 1])", k, v,
                             (double)w);
        sum += w;
        nonzero += w != 0.0f;
    }
    if (n && fabs(sum - 1.0) > tol * nonzero)
        return mcl__fail(c, MCL_ERR_VALUE, at, "mesh %u vertex %u: weights sum to %g (expected 1)", k, v, sum);
    return MCL_OK;
}

static mcl_status read_faces(mcl_ctx *c, mc_reader *r, const se_mesh_shape *s, unsigned width, mcl_mesh *me,
                             uint32_t k)
{
    uint32_t *idx = (uint32_t *)me->indices;
    for (uint32_t f = 0; f < s->faces; f++) {
        uint64_t at = r->pos;
        for (int e = 0; e < 3; e++) {
            uint32_t i = read_index(r, width);
            /* semodel.md SEModel_FaceData; docs/formats/semodel.md: out-of-range face
             * indices crash readers. */
            if (i >= s->vertices)
                return mcl__fail(c, MCL_ERR_RANGE, at + (uint64_t)e * width,
                                 "mesh %u face %u: index %u (expected < vertexCount %u)", k, f, i, s->vertices);
            idx[(uint64_t)f * 3 + (unsigned)e] = i;
        }
    }
    return MCL_OK;
}

static mcl_status need_bytes(mcl_ctx *c, mc_reader *r, const se_mesh_shape *s, uint64_t per_vertex,
                             uint64_t face_bytes, uint64_t tail, uint32_t k)
{
    uint64_t need = tail;
    if (!mc_add_mul_u64(&need, s->vertices, per_vertex) || !mc_add_mul_u64(&need, s->faces, face_bytes) ||
        need > mc_reader_left(r)) {
        mcl__fail(c, MCL_ERR_TRUNCATED, s->at, "mesh %u (%u vertices, %u faces) needs %llu bytes, %llu remain", k,
                  s->vertices, s->faces, (unsigned long long)need, (unsigned long long)mc_reader_left(r));
        return MCL_ERR_TRUNCATED;
    }
    return MCL_OK;
}

/* docs/formats/semodel.md 2018 mesh: a header, then one array per attribute, the faces
 * (face_t sized by vertexCount) and the material references. */
static mcl_status read_mesh_2018(mcl_ctx *c, mc_reader *r, const se_header *h, uint32_t k, mcl_mesh *me)
{
    se_mesh_shape s = {r->pos, 0, 0, 0, 0, 0};
    mc_read_u8(r); /* flags: no bit is defined */
    uint8_t refs = mc_read_u8(r), influences = mc_read_u8(r);
    s.vertices = mc_read_u32(r);
    s.faces = mc_read_u32(r);
    if (r->fail) return truncated(c, s.at, 11, mc_reader_left(r), "a mesh header");
    s.mat_refs = refs;
    /* UVSET clear with references: no UVs stored, the references still are
     * (a warning). WEIGHTS clear: maxSkinInfluence is ignored. */
    s.layers = (h->mesh_flags & SE_UVSET) ? refs : 0;
    s.influences = (h->mesh_flags & SE_WEIGHTS) ? influences : 0;
    unsigned fw = index_width(s.vertices);
    uint64_t per = 12 + (uint64_t)s.layers * 8 + ((h->mesh_flags & SE_NORMALS) ? 12u : 0u) +
                   ((h->mesh_flags & SE_COLOR) ? 4u : 0u) + (uint64_t)s.influences * (h->bone_width + 4u);
    mcl_status st = need_bytes(c, r, &s, per, 3u * fw, (uint64_t)s.mat_refs * 4, k);
    if (st == MCL_OK) st = alloc_mesh_arrays(c, h, &s, me);
    if (st != MCL_OK) return st;
    uint64_t v = s.vertices;
    float *pos = (float *)me->positions;
    for (uint64_t i = 0; i < v && st == MCL_OK; i++) {
        uint64_t at = r->pos;
        mc_read_f32s(r, &pos[i * 3], 3);
        st = check_vec(c, &pos[i * 3], 3, at, k, (uint32_t)i, "position");
    }
    float *uvs = (float *)me->uvs;
    for (uint64_t i = 0; i < v && st == MCL_OK; i++)
        for (uint32_t l = 0; l < s.layers && st == MCL_OK; l++) {
            uint64_t at = r->pos;
            float *uv = &uvs[(l * v + i) * 2];
            mc_read_f32s(r, uv, 2);
            st = check_vec(c, uv, 2, at, k, (uint32_t)i, "uv");
        }
    float *nrm = (float *)me->normals;
    for (uint64_t i = 0; nrm && i < v && st == MCL_OK; i++) {
        uint64_t at = r->pos;
        mc_read_f32s(r, &nrm[i * 3], 3);
        st = check_normal(c, &nrm[i * 3], at, k, (uint32_t)i);
    }
    float *col = (float *)me->colors;
    for (uint64_t i = 0; col && i < v * 4; i++) col[i] = (float)mc_read_u8(r) / 255.0f;
    uint32_t *joints = (uint32_t *)me->joints;
    float *weights = (float *)me->weights;
    uint32_t n = s.influences;
    for (uint64_t i = 0; n && i < v && st == MCL_OK; i++) {
        uint64_t at = r->pos;
        for (uint32_t j = 0; j < n; j++) { /* docs/formats/semodel.md: (bone_t, f32) pairs, interleaved */
            joints[i * n + j] = read_index(r, h->bone_width);
            weights[i * n + j] = mc_read_f32(r);
        }
        st = check_weights(c, h, &joints[i * n], &weights[i * n], n, SE_WEIGHT_TOL_F32, at, k, (uint32_t)i);
    }
    if (st == MCL_OK) st = read_faces(c, r, &s, fw, me, k);
    for (uint32_t l = 0; l < s.mat_refs && st == MCL_OK; l++) {
        uint64_t at = r->pos;
        int32_t m = mc_read_i32(r);
        /* docs/formats/semodel.md: materialIndex, -1 meaning none. */
        if (m < -1 || (m >= 0 && (uint32_t)m >= h->mat_count))
            st = mcl__fail(c, MCL_ERR_RANGE, at, "mesh %u material reference %u: %d (expected -1 or < matCount %u)",
                           k, l, m, h->mat_count);
        else if (l == 0)
            me->material = m;
    }
    return st;
}

/* The draft's per-vertex material indices, one per UV layer: the mesh takes
 * vertex 0's layer-0 index, and each face its first vertex's when they vary. */
static mcl_status draft_materials(mcl_ctx *c, const se_mesh_shape *s, const uint32_t *layer0, mcl_mesh *me)
{
    if (s->layers == 0 || s->vertices == 0) return MCL_OK;
    me->material = (int32_t)layer0[0];
    bool uniform = true;
    for (uint32_t i = 1; i < s->vertices && uniform; i++) uniform = layer0[i] == layer0[0];
    if (uniform) return MCL_OK;
    int32_t *fm = mcl__alloc(c, s->faces, sizeof(int32_t));
    if (!fm) return c->err->status;
    for (uint32_t f = 0; f < s->faces; f++) fm[f] = (int32_t)layer0[me->indices[(uint64_t)f * 3]];
    me->face_materials = fm;
    return MCL_OK;
}

static mcl_status read_draft_vertex(mcl_ctx *c, mc_reader *r, se_state *S, const se_mesh_shape *s, mcl_mesh *me,
                                    uint32_t k, uint64_t i, uint32_t *layer0)
{
    const se_header *h = &S->h;
    uint64_t v = s->vertices, at = r->pos;
    float *pos = (float *)me->positions;
    mc_read_f32s(r, &pos[i * 3], 3);
    mcl_status st = check_vec(c, &pos[i * 3], 3, at, k, (uint32_t)i, "position");
    float *uvs = (float *)me->uvs;
    for (uint32_t l = 0; l < s->layers && st == MCL_OK; l++) {
        float *uv = &uvs[(l * v + i) * 2];
        at = r->pos;
        mc_read_f32s(r, uv, 2);
        st = check_vec(c, uv, 2, at, k, (uint32_t)i, "uv");
    }
    for (uint32_t l = 0; l < s->layers && st == MCL_OK; l++) {
        at = r->pos;
        uint32_t m = read_index(r, h->mat_width);
        /* semodel.md SEModel_VertexData: mat_t uvMaterialIndicies < matCount */
        if (m >= h->mat_count)
            return mcl__fail(c, MCL_ERR_RANGE, at, "mesh %u vertex %u layer %u: material %u (expected < matCount %u)",
                             k, (uint32_t)i, l, m, h->mat_count);
        if ((int64_t)m > S->max_mat_used) S->max_mat_used = m;
        if (l == 0) layer0[i] = m;
    }
    float *nrm = (float *)me->normals;
    if (nrm && st == MCL_OK) {
        at = r->pos;
        for (int e = 0; e < 3; e++) nrm[i * 3 + (unsigned)e] = half_to_float(mc_read_u16(r));
        st = check_normal(c, &nrm[i * 3], at, k, (uint32_t)i);
    }
    float *col = (float *)me->colors;
    for (int e = 0; col && e < 4 && st == MCL_OK; e++) col[i * 4 + (unsigned)e] = (float)mc_read_u8(r) / 255.0f;
    uint32_t n = s->influences;
    if (n && st == MCL_OK) {
        uint32_t *joints = (uint32_t *)me->joints + i * n;
        float *weights = (float *)me->weights + i * n;
        at = r->pos;
        for (uint32_t j = 0; j < n; j++) joints[j] = read_index(r, h->bone_width);
        for (uint32_t j = 0; j < n; j++) weights[j] = half_to_float(mc_read_u16(r));
        st = check_weights(c, h, joints, weights, n, SE_WEIGHT_TOL_F16, at, k, (uint32_t)i);
    }
    return st;
}

/* semodel.md SEModel_MeshData: per-vertex records, then u32 face indices. */
static mcl_status read_mesh_draft(mcl_ctx *c, mc_reader *r, se_state *S, uint32_t k, mcl_mesh *me)
{
    const se_header *h = &S->h;
    se_mesh_shape s = {r->pos, 0, 0, 0, 0, 0};
    mc_read_u8(r); /* flags */
    uint8_t uv_sets = mc_read_u8(r);
    s.vertices = mc_read_u32(r);
    s.faces = mc_read_u32(r);
    if (r->fail) return truncated(c, s.at, 10, mc_reader_left(r), "a mesh header");
    s.layers = (h->mesh_flags & SE_UVSET) ? uv_sets : 0;
    s.influences = (h->mesh_flags & SE_WEIGHTS) ? h->max_influence : 0;
    uint64_t per = 12 + (uint64_t)s.layers * (8u + h->mat_width) + ((h->mesh_flags & SE_NORMALS) ? 6u : 0u) +
                   ((h->mesh_flags & SE_COLOR) ? 4u : 0u) + (uint64_t)s.influences * (h->bone_width + 2u);
    mcl_status st = need_bytes(c, r, &s, per, 12, 0, k);
    if (st == MCL_OK) st = alloc_mesh_arrays(c, h, &s, me);
    if (st != MCL_OK) return st;
    uint32_t *layer0 = s.layers ? mcl__scratch(c, s.vertices, sizeof(uint32_t)) : NULL;
    if (s.layers && !layer0) return c->err->status;
    for (uint64_t i = 0; i < s.vertices && st == MCL_OK; i++) st = read_draft_vertex(c, r, S, &s, me, k, i, layer0);
    if (st == MCL_OK) st = read_faces(c, r, &s, 4, me, k);
    if (st == MCL_OK) st = draft_materials(c, &s, layer0, me);
    if (layer0) mcl__scratch_free(c, layer0, s.vertices, sizeof(uint32_t));
    return st;
}

static mcl_status read_meshes(mcl_ctx *c, mc_reader *r, se_state *S)
{
    uint32_t n = S->h.mesh_count;
    if (n == 0) return MCL_OK;
    uint64_t need = 0, header = S->h.draft ? 10 : 11;
    if (!mc_mul_u64(n, header, &need) || need > mc_reader_left(r))
        return truncated(c, r->pos, need, mc_reader_left(r), "the mesh block");
    mcl_mesh *meshes = mcl__alloc(c, n, sizeof *meshes);
    if (!meshes) return c->err->status;
    c->model->meshes = meshes;
    c->model->mesh_count = n;
    mcl_status st = MCL_OK;
    for (uint32_t k = 0; k < n && st == MCL_OK; k++) {
        meshes[k].name = "";
        meshes[k].rigid_bone = meshes[k].material = -1;
        st = S->h.draft ? read_mesh_draft(c, r, S, k, &meshes[k]) : read_mesh_2018(c, r, &S->h, k, &meshes[k]);
    }
    return st;
}

/* ---- materials and what follows ---- */

static void default_material(mcl_material *m)
{
    m->name = "";
    for (int i = 0; i < 4; i++) m->base_color[i] = 1.0f;
}

/* docs/formats/semodel.md 2018 materials: name, u8 isSimple, then (when set) the
 * diffuse, normal and specular map names. */
static mcl_status read_materials_2018(mcl_ctx *c, mc_reader *r, const se_header *h)
{
    uint32_t n = h->mat_count;
    if (n == 0) return MCL_OK;
    uint64_t need = 0;
    if (!mc_mul_u64(n, 2, &need) || need > mc_reader_left(r))
        return truncated(c, r->pos, need, mc_reader_left(r), "the material block");
    mcl_material *mats = mcl__alloc(c, n, sizeof *mats);
    if (!mats) return c->err->status;
    c->model->materials = mats;
    c->model->material_count = n;
    for (uint32_t i = 0; i < n; i++) {
        default_material(&mats[i]);
        mcl_status st = dup_string(c, r, "material name", &mats[i].name, NULL);
        if (st != MCL_OK) return st;
        uint64_t at = r->pos;
        uint8_t simple = mc_read_u8(r);
        if (r->fail) return truncated(c, at, 1, 0, "isSimple");
        if (!simple) continue;
        /* isSimple other than 1 is read as true (a warning) */
        for (int m = 0; m < 3; m++) {
            const uint8_t *s;
            size_t len;
            st = read_string(c, r, "material map", &s, &len);
            if (st != MCL_OK) return st;
            if (m == 0 && len) {
                mats[i].texture_path = mcl__strdup(c, s, len);
                if (!mats[i].texture_path) return c->err->status;
            }
        }
    }
    return MCL_OK;
}

/* The draft has no material data: nameless placeholders for the indices the
 * vertices use (each < matCount, checked). */
static mcl_status draft_placeholders(mcl_ctx *c, const se_state *S)
{
    if (S->max_mat_used < 0) return MCL_OK;
    uint32_t n = (uint32_t)S->max_mat_used + 1;
    mcl_material *mats = mcl__alloc(c, n, sizeof *mats);
    if (!mats) return c->err->status;
    for (uint32_t i = 0; i < n; i++) default_material(&mats[i]);
    c->model->materials = mats;
    c->model->material_count = n;
    return MCL_OK;
}

/* SEBlend deltas (docs/formats/semodel.md, the Wraith/Greyhound writer): for every
 * mesh in file order and every vertex, a u32 delta count (written even when
 * 0) and that many (u32 shape index, float x, y, z) records; the block then
 * ends with the file. The common model has no blend shapes: checked only. */
static mcl_status read_seblend_deltas(mcl_ctx *c, mc_reader *r, uint64_t count)
{
    const mcl_model *mo = c->model;
    for (uint32_t k = 0; k < mo->mesh_count; k++) {
        for (uint32_t v = 0; v < mo->meshes[k].vertex_count; v++) {
            uint64_t at = r->pos;
            uint32_t n = mc_read_u32(r);
            if (r->fail) return truncated(c, at, 4, mc_reader_left(r), "an SEBlend delta count");
            if ((uint64_t)n * 16u > mc_reader_left(r))
                return truncated(c, at + 4, (uint64_t)n * 16u, mc_reader_left(r), "SEBlend deltas");
            for (uint32_t i = 0; i < n; i++) {
                uint64_t rec = r->pos;
                uint32_t shape = mc_read_u32(r);
                float d[3];
                mc_read_f32s(r, d, 3);
                if (shape >= count)
                    return mcl__fail(c, MCL_ERR_RANGE, rec, "mesh %u vertex %u: SEBlend shape %u (expected < %llu)",
                                     k, v, shape, (unsigned long long)count);
                if (!all_finite(d, 3))
                    return mcl__fail(c, MCL_ERR_VALUE, rec + 4, "mesh %u vertex %u: SEBlend delta holds NaN or infinity",
                                     k, v);
            }
        }
    }
    if (mc_reader_left(r) == 0) return MCL_OK;
    return mcl__fail(c, MCL_ERR_SIZE, r->pos, "%llu bytes after the SEBlend block (file size %llu)",
                     (unsigned long long)mc_reader_left(r), (unsigned long long)r->size);
}

/* Greyhound's SEBlend block (docs/formats/semodel.md): "SEBlend\n", u64 count, count
 * names, then the deltas. */
static mcl_status read_seblend(mcl_ctx *c, mc_reader *r)
{
    uint64_t at = r->pos;
    mc_reader_skip(r, 8);
    uint64_t count = mc_read_u64(r);
    if (r->fail) return truncated(c, at + 8, 8, mc_reader_left(r), "the SEBlend count");
    /* every name takes at least its NUL */
    if (count > mc_reader_left(r))
        return mcl__fail(c, MCL_ERR_TRUNCATED, at + 8, "SEBlend count %llu: only %llu bytes remain",
                         (unsigned long long)count, (unsigned long long)mc_reader_left(r));
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *s;
        size_t len;
        mcl_status st = read_string(c, r, "SEBlend name", &s, &len);
        if (st != MCL_OK) return st;
    }
    return read_seblend_deltas(c, r, count);
}

static mcl_status read_tail(mcl_ctx *c, mc_reader *r, const se_header *h)
{
    size_t left = mc_reader_left(r);
    if (left == 0) return MCL_OK;
    if (h->draft) {
        /* semodel.md: COLLISION and MATERIALS are TODO; once announced (flag
         * or count), what follows the meshes has no layout to hold it to. */
        if ((h->data_flags & (SEDR_COLLISION | SEDR_MATERIALS)) || h->col_count || h->mat_count) return MCL_OK;
    } else {
        /* docs/formats/semodel.md: CUSTOM (0x80) announces bytes no layout defines. */
        if (h->data_flags & SE18_CUSTOM) return MCL_OK;
        if (left >= 8 && memcmp(r->p + r->pos, "SEBlend\n", 8) == 0) {
            return read_seblend(c, r);
        }
    }
    /* semodel.md SEModel_File: the file is its blocks, in order. */
    return mcl__fail(c, MCL_ERR_SIZE, r->pos, "%llu bytes after the last block (file size %llu)",
                     (unsigned long long)left, (unsigned long long)r->size);
}

mcl_status mcl__load_semodel(mcl_ctx *c, const uint8_t *data, size_t size)
{
    se_state S;
    memset(&S, 0, sizeof S);
    S.max_mat_used = -1;
    mc_reader r = mc_reader_make(data, size);
    mcl_status st = read_header(c, &r, &S.h);
    if (st != MCL_OK) return st;
    c->model->layout = S.h.draft ? "draft" : "2018";
    st = read_bones(c, &r, &S.h);
    if (st == MCL_OK) st = read_meshes(c, &r, &S);
    if (st == MCL_OK) st = S.h.draft ? draft_placeholders(c, &S) : read_materials_2018(c, &r, &S.h);
    if (st == MCL_OK) st = read_tail(c, &r, &S.h);
    return st;
}
