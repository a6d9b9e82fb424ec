/*
 * AAMF / SAMF (aamf.md of github.com/kiwanowski/UnnamedHB1, docs/formats/aamf.md
 * "AAMF / SAMF"): animated PlayStation 1 models in two variants.
 *
 * SAMF v2 starts with the magic 'SAMF' ('AAMF' is accepted) and a packed
 * 16-byte header; fixed-size tables follow (bone table, bind poses,
 * positions, normals, skin weights, faces), then a chain of animation
 * blocks. Legacy AAMF has no magic: u16 bone_count, u16 anim_count, the bone
 * table, one block per bone holding an embedded AMF mesh, then the same
 * animation blocks. Every block starts with a u32 block_size that counts
 * its own 4 bytes.
 *
 * Legacy detection (no magic to go by): the file is claimed only when
 * bone_count >= 1 (a legacy file without bones has no mesh at all), every
 * bone table row i holds bone_idx == i, and the block sizes of the
 * bone_count + anim_count blocks (each >= 4) chain exactly to the end of the
 * file. Any other format's file breaks this within the first rows or the
 * first block (see the detection tests), and aamf is tried last.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_format.h"
#include "mc_reader.h"
#include "mc_struct.h"
#include "mc_rules.h"

/* Hand-written clean paths (issue 16) for SSE2, the x86-64 baseline (no
 * -march flag needed); they read the records' bytes as they are, so a
 * little-endian host. Other targets run the scalar loops, which the
 * compiler vectorises as it can. */
#if defined(__SSE2__) && MC_HOST_LE
#define AAMF_SSE2 1
#include <emmintrin.h>
#else
#define AAMF_SSE2 0
#endif

enum {
    SAMF_HEADER_SIZE = 16,
    LEGACY_HEADER_SIZE = 4,
    BONE_ROW_SIZE = 4,
    MATRIX_SIZE = 32,
    SVECTOR_SIZE = 8,
    SKIN_SIZE = 8,
    FACE_SIZE = 6,
    BLOCK_SIZE_FIELD = 4,
    ANIM_HEAD_SIZE = 20, /* block_size, name[8], keyframe_count, keyframe_pointer */
    NAME_SIZE = 8,
    AMF_HEAD_SIZE = 24,       /* used_textures, x, z, minX, minZ, maxX, maxZ */
    AMF_CHUNK_HEAD_SIZE = 48, /* 8 u16 counts, 8 u32 pointer slots */
    AMF_KINDS = 8,
    AMF_MAX_CHUNKS = 65535
};

/* 4.12 fixed point: 1.0 is 4096. */
#define FX_ONE 4096

/*
 * Orthonormality of a 4.12 rotation (catalog: AAMF_MATRIX_NOT_ORTHONORMAL).
 * The writer builds the rotation from a quaternion and converts each element
 * by rounding or truncation (Python int()), so every element is off by less
 * than one unit e = 1/4096. For unit rows a, b with errors ea, eb:
 *   |(a+ea).(b+eb) - a.b| <= |a|_1 |eb|_max + |b|_1 |ea|_max + 3 e^2
 *                         <= 2 sqrt(3) e + 3 e^2,
 * which in units of 1/4096^2 is 2 sqrt(3) 4096 + 3 = 14188.96 + 3 -> 14192.
 */
#define AAMF_ORTHO_TOLERANCE INT64_C(14192)

/*
 * Unit length of a 4.12 normal (SAMF_NORMAL_NOT_UNIT): the same per-element
 * error moves the length by at most |e|_2 < sqrt(3) units of 1/4096, so
 * | |n| - 4096 | <= sqrt(3) (about 4.23e-4 relative).
 */
#define AAMF_NORMAL_TOLERANCE 1.7320508075688772
/* The clean path of check_normals (issue 16): squared lengths one unit inside
 * (4096 -+ AAMF_NORMAL_TOLERANCE)^2 pass the exact check whatever the
 * rounding of its square root (a unit is 6e-8 of the square). */
#define NORMAL_CLEAN_MIN ((int64_t)((4096.0 - AAMF_NORMAL_TOLERANCE) * (4096.0 - AAMF_NORMAL_TOLERANCE)) + 2)
#define NORMAL_CLEAN_MAX ((int64_t)((4096.0 + AAMF_NORMAL_TOLERANCE) * (4096.0 + AAMF_NORMAL_TOLERANCE)) - 1)

/* docs/formats/aamf.md, embedded AMF: record sizes of F4, G4, FT4, GT4, F3, G3,
 * FT3, GT3, in the order of the per-chunk counts. */
static const uint32_t amf_record_size[AMF_KINDS] = {64, 100, 84, 136, 52, 76, 68, 92};
static const char *const amf_kind_name[AMF_KINDS] = {"F4", "G4", "FT4", "GT4",
                                                     "F3", "G3", "FT3", "GT3"};
/* Offset of the u32 texture index inside a textured record, 0 for none. */
static const uint32_t amf_texture_field[AMF_KINDS] = {0, 0, 40, 80, 0, 0, 32, 48};

/* Record layouts for inspect (aamf.md); names are the issue paths'. */
static const mc_field samf_header_fields[] = {
    {"magic", MC_FIELD_STRING, 0, 4, 0},      {"version", MC_FIELD_U16, 4, 1, 0},
    {"bone_count", MC_FIELD_U16, 6, 1, 0},    {"anim_count", MC_FIELD_U16, 8, 1, 0},
    {"vertex_count", MC_FIELD_U32, 10, 1, 0}, {"face_count", MC_FIELD_U16, 14, 1, 0}};
static const mc_field legacy_header_fields[] = {{"bone_count", MC_FIELD_U16, 0, 1, 0},
                                                {"anim_count", MC_FIELD_U16, 2, 1, 0}};
static const mc_field bone_row_fields[] = {{"bone_idx", MC_FIELD_U16, 0, 1, 0},
                                           {"parent_idx", MC_FIELD_U16, 2, 1, 0}};
static const mc_field matrix_fields[] = {{"m", MC_FIELD_I16, 0, 9, 0},
                                         {"pad", MC_FIELD_I16, 18, 1, 0},
                                         {"t", MC_FIELD_I32, 20, 3, 0}};
static const mc_field svector_fields[] = {{"", MC_FIELD_I16, 0, 3, 0},
                                          {"pad", MC_FIELD_I16, 6, 1, 0}};
static const mc_field skin_fields[] = {{"bone_indices", MC_FIELD_U8, 0, 4, 1},
                                       {"weights", MC_FIELD_U8, 4, 4, 0}};
static const mc_field face_fields[] = {{"", MC_FIELD_U16, 0, 3, 1}};
static const mc_field anim_fields[] = {{"block_size", MC_FIELD_U32, 0, 1, 0},
                                       {"name", MC_FIELD_STRING, 4, NAME_SIZE, 0},
                                       {"keyframe_count", MC_FIELD_U32, 12, 1, 0},
                                       {"keyframe_pointer", MC_FIELD_U32, 16, 1, 0}};
static const mc_field block_fields[] = {{"block_size", MC_FIELD_U32, 0, 1, 0}};

typedef struct aamf_file {
    bool legacy;
    uint16_t bones, anims, faces;
    uint32_t vertices;
    uint64_t bone_table;
    uint64_t bind, positions, normals, skin, face_table; /* SAMF only */
    uint64_t blocks; /* first bone block (legacy) or animation block (SAMF) */
    uint64_t anim_count_off;
} aamf_file;

/* A reader over [off, off + n) of the file; the caller checked that it fits. */
static mc_reader window(const mc_ctx *c, uint64_t off, uint64_t n)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, off);
    if (n > c->size) r.fail = true;
    return mc_read_sub(&r, (size_t)n);
}

/* ---- detection ---- */

static bool samf_magic(const uint8_t *data, size_t size)
{
    return size >= 4 && (memcmp(data, "SAMF", 4) == 0 || memcmp(data, "AAMF", 4) == 0);
}

/* Advances over one block; false when its size cannot chain. */
static bool skip_block(mc_reader *r)
{
    uint64_t start = r->pos;
    uint32_t size = mc_read_u32(r);
    if (r->fail || size < BLOCK_SIZE_FIELD) return false;
    return mc_reader_seek(r, start + size);
}

/* The legacy heuristic described at the top of the file. */
static bool legacy_structure_holds(const uint8_t *data, size_t size)
{
    mc_reader r = mc_reader_make(data, size);
    uint16_t bones = mc_read_u16(&r), anims = mc_read_u16(&r);
    if (r.fail || bones == 0) return false;
    for (uint32_t i = 0; i < bones; i++) {
        uint16_t idx = mc_read_u16(&r);
        mc_read_u16(&r);
        if (r.fail || idx != i) return false;
    }
    for (uint32_t b = 0; b < (uint32_t)bones + anims; b++)
        if (!skip_block(&r)) return false;
    return mc_reader_left(&r) == 0;
}

static bool aamf_detect(const uint8_t *data, size_t size)
{
    return samf_magic(data, size) || legacy_structure_holds(data, size);
}

/* ---- names ---- */

static bool printable(uint8_t ch)
{
    return ch >= 0x20 && ch <= 0x7e;
}

/* aamf.md: char name[8]; docs/formats/aamf.md: not necessarily NUL-terminated (a
 * real file pads with '-'). Bytes up to the first NUL must be printable.
 * Returns the key the name compares by (bytes after the NUL zeroed). */
static uint64_t name_key(const uint8_t *b, int *bad)
{
    uint64_t key = 0;
    *bad = -1;
    for (int k = 0; k < NAME_SIZE && b[k]; k++) {
        if (*bad < 0 && !printable(b[k])) *bad = k;
        key |= (uint64_t)b[k] << (8 * k);
    }
    return key;
}

/* ---- header ---- */

/* aamf.md, SAMF header (docs/formats/aamf.md: exactly 16 bytes, packed, read field by
 * field), then the fixed-size tables whose sizes the counts imply. False when
 * the layout cannot be trusted. */
static bool samf_header(mc_ctx *c, aamf_file *f)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    const uint8_t *magic = mc_read_bytes(&r, 4);
    if (magic && memcmp(magic, "AAMF", 4) == 0) {
        mc_instance *in = mc_emit(c, MC_SAMF_MAGIC_AAMF, 0);
        mc_path(in, "/header/magic");
        mc_msg(in, "magic is 'AAMF' (readers accept it; the writer writes 'SAMF')");
    }
    uint16_t version = mc_read_u16(&r);
    if (!r.fail && version != 2) {
        mc_instance *in = mc_emit(c, MC_SAMF_UNSUPPORTED_VERSION, 4);
        mc_path(in, "/header/version");
        mc_msg(in, "version is %u (expected 2)", version);
        return false;
    }
    c->layout = "samf2"; /* named even when the tables are cut short */
    if (c->size < SAMF_HEADER_SIZE) {
        mc_truncated(c, MC_AAMF_TRUNCATED, "/header",
                     "file ends inside the header: the SAMF header's fields need %d bytes, file has %zu",
                     SAMF_HEADER_SIZE, c->size);
        return false;
    }
    f->bones = mc_read_u16(&r);
    f->anims = mc_read_u16(&r);
    f->vertices = mc_read_u32(&r); /* offset 10: unaligned, as docs/formats/aamf.md says */
    f->faces = mc_read_u16(&r);
    f->anim_count_off = 8;
    f->bone_table = SAMF_HEADER_SIZE;
    uint64_t end = SAMF_HEADER_SIZE;
    mc_add_mul_u64(&end, f->bones, BONE_ROW_SIZE);
    f->bind = end;
    mc_add_mul_u64(&end, f->bones, MATRIX_SIZE);
    f->positions = end;
    mc_add_mul_u64(&end, f->vertices, SVECTOR_SIZE);
    f->normals = end;
    mc_add_mul_u64(&end, f->vertices, SVECTOR_SIZE);
    f->skin = end;
    mc_add_mul_u64(&end, f->vertices, SKIN_SIZE);
    f->face_table = end;
    mc_add_mul_u64(&end, f->faces, FACE_SIZE);
    f->blocks = end; /* all terms are < 2^40: no overflow */
    if (end <= c->size) return true;
    static const char *const names[] = {"bones", "bind_poses", "positions", "normals",
                                        "skin_weights", "faces"};
    const uint64_t starts[] = {f->bone_table, f->bind, f->positions, f->normals, f->skin,
                               f->face_table};
    int s = 5;
    while (s > 0 && starts[s] > c->size) s--;
    char path[32];
    snprintf(path, sizeof path, "/%s", names[s]);
    mc_truncated(c, MC_AAMF_TRUNCATED, path, "file ends inside the %s table (from 0x%" PRIx64
                 "): header counts (%u bones, %" PRIu32 " vertices, %u faces) imply %" PRIu64
                 " bytes before the animations, file has %zu",
                 names[s], starts[s], f->bones, f->vertices, f->faces, end, c->size);
    return false;
}

static bool legacy_header(mc_ctx *c, aamf_file *f)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    f->bones = mc_read_u16(&r);
    f->anims = mc_read_u16(&r);
    if (r.fail) {
        mc_truncated(c, MC_AAMF_TRUNCATED, "/header",
                     "file ends inside the header: bone_count and anim_count need %d bytes, file has %zu",
                     LEGACY_HEADER_SIZE, c->size);
        return false;
    }
    f->legacy = true;
    c->layout = "legacy";
    f->anim_count_off = 2;
    f->bone_table = LEGACY_HEADER_SIZE;
    f->blocks = LEGACY_HEADER_SIZE + (uint64_t)f->bones * BONE_ROW_SIZE;
    if (f->blocks > c->size) {
        mc_truncated(c, MC_AAMF_TRUNCATED, "/bones",
                     "file ends inside the bone table: %u bones need %" PRIu64 " bytes, file has %zu",
                     f->bones, f->blocks, c->size);
        return false;
    }
    return true;
}

/* ---- bone table ---- */

static void check_bone_rows(mc_ctx *c, const aamf_file *f);

/* aamf.md, Bone Parent Table; docs/formats/aamf.md: bone_idx == row, a root is its
 * own parent, parents come first (the legacy runtime asserts both). */
static void check_bone_table(mc_ctx *c, const aamf_file *f)
{
    mc_s_enter(c, "section", "bones", f->bone_table, (uint64_t)f->bones * BONE_ROW_SIZE);
    mc_s_u64(c, "count", f->bones);
    check_bone_rows(c, f);
    mc_s_leave(c);
}

static void check_bone_rows(mc_ctx *c, const aamf_file *f)
{
    mc_reader r = window(c, f->bone_table, (uint64_t)f->bones * BONE_ROW_SIZE);
    uint32_t roots = 0, first_root = 0, second_root = 0;
    for (uint32_t i = 0; i < f->bones; i++) {
        uint16_t idx = mc_read_u16(&r), parent = mc_read_u16(&r);
        if (r.fail) return;
        uint64_t off = f->bone_table + (uint64_t)i * BONE_ROW_SIZE;
        if (c->sink) {
            mc_s_enter_index(c, "bone", i, off, BONE_ROW_SIZE);
            mc_s_layout(c, MC_FIELDS(bone_row_fields));
            mc_s_i64(c, "parent", parent);
            mc_s_leave(c);
        }
        if (idx != i) {
            mc_instance *in = mc_emit(c, MC_AAMF_BONE_INDEX_MISMATCH, off);
            mc_path(in, "/bones/%" PRIu32 "/bone_idx", i);
            mc_msg(in, "row %" PRIu32 ": bone_idx is %u (expected %" PRIu32 ")", i, idx, i);
        }
        mc_parent_order order = mc_parent_order_of(parent, i, f->bones);
        if (order == MC_PARENT_BEFORE) continue;
        if (order == MC_PARENT_SELF) { /* a root */
            if (roots == 0) first_root = i;
            if (roots == 1) second_root = i;
            roots++;
            continue;
        }
        mc_code code = order == MC_PARENT_FORWARD ? MC_AAMF_BONE_PARENT_FORWARD : MC_AAMF_BONE_PARENT_RANGE;
        mc_instance *in = mc_emit(c, code, off + 2);
        mc_path(in, "/bones/%" PRIu32 "/parent_idx", i);
        mc_msg(in, "bone %" PRIu32 ": parent_idx %u (expected %" PRIu32 " for a root, or < %" PRIu32
               "; bone count %u)%s", i, parent, i, i, f->bones,
               parent == 0xFFFF ? ": roots use their own index, not 0xFFFF" : "");
    }
    if (roots > 1) {
        mc_instance *in = mc_emit(c, MC_AAMF_MULTIPLE_ROOTS,
                                  f->bone_table + (uint64_t)second_root * BONE_ROW_SIZE + 2);
        mc_path(in, "/bones/%" PRIu32 "/parent_idx", second_root);
        mc_msg(in, "%" PRIu32 " root bones (their own parent); the first two are %" PRIu32 " and %" PRIu32,
               roots, first_root, second_root);
    }
}

/* ---- matrices ---- */

typedef struct fx_matrix {
    int16_t m[9];
    int16_t pad;
    int32_t t[3];
} fx_matrix;

/* The matrix whose 32 bytes are at b. */
static fx_matrix matrix_at(const uint8_t *b)
{
    fx_matrix x;
    _Static_assert(sizeof x == MATRIX_SIZE, "fx_matrix is the 32-byte record");
    if (MC_HOST_LE) {
        memcpy(&x, b, sizeof x);
        return x;
    }
    for (int k = 0; k < 9; k++) x.m[k] = mc_le_i16(b + 2 * k);
    x.pad = mc_le_i16(b + 18);
    for (int k = 0; k < 3; k++) {
        uint32_t u = mc_le32_bits(b + 20 + 4 * k);
        memcpy(&x.t[k], &u, sizeof u); /* two's complement reinterpretation */
    }
    return x;
}

/* Where a matrix sits: a bind pose (anim < 0) or an animation key. */
typedef struct matrix_ref {
    int64_t anim;
    uint32_t keyframe, bone;
} matrix_ref;

static void matrix_describe(mc_instance *in, const matrix_ref *w, const char *field,
                            const char *fmt, ...) MC_PRINTF(4, 5);

static void matrix_describe(mc_instance *in, const matrix_ref *w, const char *field,
                            const char *fmt, ...)
{
    if (!in) return;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (w->anim < 0) {
        mc_path(in, "/bind_poses/%" PRIu32 "/%s", w->bone, field);
        mc_msg(in, "bind pose of bone %" PRIu32 ": %s", w->bone, what);
    } else {
        mc_path(in, "/animations/%" PRId64 "/keyframes/%" PRIu32 "/%" PRIu32 "/%s", w->anim,
                w->keyframe, w->bone, field);
        mc_msg(in, "animation %" PRId64 ", keyframe %" PRIu32 ", bone %" PRIu32 ": %s", w->anim,
               w->keyframe, w->bone, what);
    }
}

static int64_t row_dot(const fx_matrix *x, int i, int j)
{
    int64_t s = 0;
    for (int k = 0; k < 3; k++) s += (int64_t)x->m[3 * i + k] * x->m[3 * j + k];
    return s;
}

/* Largest deviation of M M^T from the identity, in units of 1/4096^2. */
static int64_t ortho_deviation(const fx_matrix *x)
{
    int64_t worst = 0;
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) {
            int64_t d = row_dot(x, i, j) - (i == j ? (int64_t)FX_ONE * FX_ONE : 0);
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
    return worst;
}

static int64_t determinant(const fx_matrix *x)
{
    const int16_t *m = x->m;
    return (int64_t)m[0] * ((int64_t)m[4] * m[8] - (int64_t)m[5] * m[7]) -
           (int64_t)m[1] * ((int64_t)m[3] * m[8] - (int64_t)m[5] * m[6]) +
           (int64_t)m[2] * ((int64_t)m[3] * m[7] - (int64_t)m[4] * m[6]);
}

/* aamf.md, MATRIX: a 4.12 rotation (docs/formats/aamf.md: from a quaternion, scale
 * dropped), a zero pad, an int32 4.12 translation. */
static void check_matrix(mc_ctx *c, uint64_t off, const fx_matrix *x, const matrix_ref *w)
{
    int64_t dev = ortho_deviation(x);
    if (dev > AAMF_ORTHO_TOLERANCE) {
        mc_instance *in = mc_emit(c, MC_AAMF_MATRIX_NOT_ORTHONORMAL, off);
        matrix_describe(in, w, "m", "rotation rows deviate from orthonormal by %.6f (expected <= %.6f, "
                        "4.12 rounding); first row %d %d %d", (double)dev / (FX_ONE * (double)FX_ONE),
                        (double)AAMF_ORTHO_TOLERANCE / (FX_ONE * (double)FX_ONE), x->m[0], x->m[1],
                        x->m[2]);
    } else if (determinant(x) < 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_MATRIX_REFLECTION, off);
        matrix_describe(in, w, "m", "rotation part has determinant %.6f (expected +1: a mirror, not a rotation)",
                        (double)determinant(x) / ((double)FX_ONE * FX_ONE * FX_ONE));
    }
    if (x->pad != 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_MATRIX_PAD, off + 18);
        matrix_describe(in, w, "pad", "pad is %d (expected 0)", x->pad);
    }
    for (int k = 0; k < 3; k++) {
        if (x->t[k] != INT32_MIN && x->t[k] != INT32_MAX) continue;
        mc_instance *in = mc_emit(c, MC_AAMF_MATRIX_TRANSLATION_SATURATED, off + 20 + 4u * (unsigned)k);
        matrix_describe(in, w, "t", "translation %c is %" PRId32 ", the int32 limit (clamped: beyond +-524288 units)",
                        "xyz"[k], x->t[k]);
        break;
    }
}

/*
 * The clean path of check_matrix (issue 16): bit k of
 * matrices_clean_bits(b, n) is set when check_matrix would report nothing
 * for the k-th matrix at b. Exact, not an estimate; it may decline a matrix
 * check_matrix would pass, never the reverse:
 *
 * - Dot products of int16 rows are summed in uint32, wrapping (each
 *   int16 x int16 product fits int32: no signed overflow; pmaddwd's one
 *   overflow, -2^15 * -2^15 twice, wraps to the same residue). A true sum S
 *   lies in [-3 * 2^30, 3 * 2^30]; the accepted windows are W = 2^24 +-
 *   AAMF_ORTHO_TOLERANCE (diagonal) and 0 +- AAMF_ORTHO_TOLERANCE; the
 *   wrapped sum lands in W when S is in W + k 2^32, and for k != 0 that
 *   lies outside S's range (2^32 - 2^24 - 14192 > 3 * 2^30).
 * - pad 0 and no translation at an int32 limit, as check_matrix tests them.
 * - The determinant as row2 . (row0 x row1), the value determinant()
 *   expands by row 0. The scalar path: each cross-product term is the
 *   difference of two int16 products, within +-(2^31 - 2^15) (int32); the
 *   dot with row2, in double, has products below 2^46 and a sum below
 *   2^48: no rounding. The SSE2 path (matrices4_clean_sse2) only decides
 *   when the three diagonal windows hold, so every element is within
 *   +-4097 (4098^2 > 2^24 + 14192): negating one is exact, the cross terms
 *   x_i are exact within +-2 * 4097^2 < 2^26, and y_i = floor(x_i / 4096)
 *   fits int16; D = sum c_i y_i is exact in int32 and
 *   det = 4096 D + sum c_i (x_i - 4096 y_i) >= 4096 (D - 3 * 4097). It
 *   vouches when D >= 2^23, so det > 0; a near-orthonormal row set has
 *   |det| >= (1 - 3 * 14192 / 2^24)^(3/2) 2^36 (Gershgorin on M M^T), so
 *   D >= 2^23 declines no rotation check_matrix passes.
 */
enum { MATRIX_BATCH = 64 };
_Static_assert(MATRIX_BATCH <= 64, "a batch's clean bits are one uint64_t");

/* The scalar clean path (other targets, and the matrices after the last
 * group of four): ok[k] for x[k], one loop without branches so that the
 * compiler can run it on several matrices at once. */
MC_HOT_FN static void matrices_surely_clean(const fx_matrix *restrict x, size_t n, bool *restrict ok)
{
    const uint32_t one = (uint32_t)FX_ONE * FX_ONE, tol = (uint32_t)AAMF_ORTHO_TOLERANCE;
    for (size_t k = 0; k < n; k++) {
        const int16_t *m = x[k].m;
        int32_t a0 = m[0], a1 = m[1], a2 = m[2], b0 = m[3], b1 = m[4], b2 = m[5];
        int32_t c0 = m[6], c1 = m[7], c2 = m[8];
        uint32_t aa = (uint32_t)(a0 * a0) + (uint32_t)(a1 * a1) + (uint32_t)(a2 * a2);
        uint32_t bb = (uint32_t)(b0 * b0) + (uint32_t)(b1 * b1) + (uint32_t)(b2 * b2);
        uint32_t cc = (uint32_t)(c0 * c0) + (uint32_t)(c1 * c1) + (uint32_t)(c2 * c2);
        uint32_t ab = (uint32_t)(a0 * b0) + (uint32_t)(a1 * b1) + (uint32_t)(a2 * b2);
        uint32_t ac = (uint32_t)(a0 * c0) + (uint32_t)(a1 * c1) + (uint32_t)(a2 * c2);
        uint32_t bc = (uint32_t)(b0 * c0) + (uint32_t)(b1 * c1) + (uint32_t)(b2 * c2);
        int32_t x0 = a1 * b2 - a2 * b1, x1 = a2 * b0 - a0 * b2, x2 = a0 * b1 - a1 * b0;
        double det = (double)c0 * x0 + (double)c1 * x1 + (double)c2 * x2;
        bool good = (aa - one + tol <= 2 * tol) & (bb - one + tol <= 2 * tol) &
                    (cc - one + tol <= 2 * tol) & (ab + tol <= 2 * tol) & (ac + tol <= 2 * tol) &
                    (bc + tol <= 2 * tol) & (det >= 0.0) & (x[k].pad == 0);
        for (int t = 0; t < 3; t++) /* INT32_MIN and INT32_MAX map to 0 and UINT32_MAX */
            good &= ((uint32_t)x[k].t[t] ^ UINT32_C(0x80000000)) - 1u < UINT32_MAX - 1u;
        ok[k] = good;
    }
}

#if AAMF_SSE2
static inline int32_t u32_as_i32(uint32_t u)
{
    int32_t i;
    memcpy(&i, &u, sizeof i);
    return i;
}

/* All ones in the lanes whose wrapped sum s lies inside centre +-
 * AAMF_ORTHO_TOLERANCE: s - centre + tol <= 2 tol as uint32 is, with the
 * sign bit flipped, a signed compare (SSE2 has no unsigned one). */
static inline __m128i inside_window(__m128i s, uint32_t centre)
{
    const uint32_t tol = (uint32_t)AAMF_ORTHO_TOLERANCE, flip = UINT32_C(0x80000000);
    __m128i u = _mm_add_epi32(s, _mm_set1_epi32(u32_as_i32(tol - centre + flip)));
    return _mm_cmplt_epi32(u, _mm_set1_epi32(u32_as_i32(flip + 2 * tol + 1)));
}

/* Two int16 rows' dot product for four matrices, from their lanes: pairs
 * (p0, p1) . (q0, q1) plus the third elements (p2, 0) . (q2, any). */
static inline __m128i dot3(__m128i p01, __m128i p2, __m128i q01, __m128i q2)
{
    return _mm_add_epi32(_mm_madd_epi16(p01, q01), _mm_madd_epi16(p2, q2));
}

/*
 * The clean path of four matrices at b (128 bytes): bits 0..3 as
 * matrices_surely_clean's ok[]. A matrix is two 16-byte rows of int32
 * lanes, (m0 m1)(m2 m3)(m4 m5)(m6 m7) and (m8 pad) t0 t1 t2; transposing
 * the four makes each lane one matrix, so pmaddwd multiplies and adds a
 * pair of elements of four matrices at once. The proof is above
 * matrices_surely_clean.
 */
static unsigned matrices4_clean_sse2(const uint8_t *b)
{
    __m128i lo[4], hi[4];
    for (int k = 0; k < 4; k++) {
        lo[k] = _mm_loadu_si128((const __m128i *)(const void *)(b + k * MATRIX_SIZE));
        hi[k] = _mm_loadu_si128((const __m128i *)(const void *)(b + k * MATRIX_SIZE + 16));
    }
    __m128i l01 = _mm_unpacklo_epi32(lo[0], lo[1]), l23 = _mm_unpacklo_epi32(lo[2], lo[3]);
    __m128i h01 = _mm_unpackhi_epi32(lo[0], lo[1]), h23 = _mm_unpackhi_epi32(lo[2], lo[3]);
    __m128i v01 = _mm_unpacklo_epi64(l01, l23), v23 = _mm_unpackhi_epi64(l01, l23);
    __m128i v45 = _mm_unpacklo_epi64(h01, h23), v67 = _mm_unpackhi_epi64(h01, h23);
    l01 = _mm_unpacklo_epi32(hi[0], hi[1]), l23 = _mm_unpacklo_epi32(hi[2], hi[3]);
    h01 = _mm_unpackhi_epi32(hi[0], hi[1]), h23 = _mm_unpackhi_epi32(hi[2], hi[3]);
    __m128i v8p = _mm_unpacklo_epi64(l01, l23), tx = _mm_unpackhi_epi64(l01, l23);
    __m128i ty = _mm_unpacklo_epi64(h01, h23), tz = _mm_unpackhi_epi64(h01, h23);

    /* rows a = m0 m1 m2, b = m3 m4 m5, c = m6 m7 m8 as pairs and singles */
    const __m128i low = _mm_set1_epi32(0xFFFF), zero = _mm_setzero_si128();
    __m128i a2 = _mm_and_si128(v23, low), c8 = _mm_and_si128(v8p, low);
    __m128i b34 = _mm_or_si128(_mm_srli_epi32(v23, 16), _mm_slli_epi32(v45, 16));
    __m128i b5 = _mm_srli_epi32(v45, 16);
    const uint32_t one = (uint32_t)FX_ONE * FX_ONE;
    __m128i good = inside_window(dot3(v01, a2, v01, a2), one);
    good = _mm_and_si128(good, inside_window(dot3(b34, b5, b34, b5), one));
    good = _mm_and_si128(good, inside_window(dot3(v67, c8, v67, c8), one));
    good = _mm_and_si128(good, inside_window(dot3(v01, a2, b34, b5), 0));
    good = _mm_and_si128(good, inside_window(dot3(v01, a2, v67, c8), 0));
    good = _mm_and_si128(good, inside_window(dot3(b34, b5, v67, c8), 0));

    /* a x b: x0 = m1 m5 - m2 m4, x1 = m0 (-m5) + m2 m3, x2 = m0 m4 - m1 m3 */
    __m128i n23 = _mm_sub_epi16(zero, v23), n45 = _mm_sub_epi16(zero, v45);
    __m128i m12 = _mm_or_si128(_mm_srli_epi32(v01, 16), _mm_slli_epi32(v23, 16));
    __m128i m02 = _mm_or_si128(_mm_and_si128(v01, low), _mm_slli_epi32(v23, 16));
    __m128i x0 = _mm_madd_epi16(m12, _mm_or_si128(b5, _mm_slli_epi32(n45, 16)));
    __m128i x1 = _mm_madd_epi16(m02, _mm_or_si128(_mm_srli_epi32(n45, 16), _mm_andnot_si128(low, v23)));
    __m128i x2 = _mm_madd_epi16(v01, _mm_or_si128(_mm_and_si128(v45, low), _mm_andnot_si128(low, n23)));
    /* D = c . floor((a x b) / 4096) >= 2^23 vouches for det > 0 (the proof) */
    __m128i y0 = _mm_srai_epi32(x0, 12), y1 = _mm_srai_epi32(x1, 12), y2 = _mm_srai_epi32(x2, 12);
    __m128i y01 = _mm_or_si128(_mm_and_si128(y0, low), _mm_slli_epi32(y1, 16));
    __m128i d = dot3(v67, c8, y01, y2);
    good = _mm_and_si128(good, _mm_cmpgt_epi32(d, _mm_set1_epi32((1 << 23) - 1)));

    /* pad 0 (the lane is m8 alone); no translation at an int32 limit:
     * t + 1 wraps INT32_MAX and INT32_MIN to the two lowest int32 values */
    good = _mm_and_si128(good, _mm_cmpeq_epi32(v8p, c8));
    const __m128i one32 = _mm_set1_epi32(1), limit = _mm_set1_epi32(INT32_MIN + 2);
    __m128i at_limit = _mm_cmplt_epi32(_mm_add_epi32(tx, one32), limit);
    at_limit = _mm_or_si128(at_limit, _mm_cmplt_epi32(_mm_add_epi32(ty, one32), limit));
    at_limit = _mm_or_si128(at_limit, _mm_cmplt_epi32(_mm_add_epi32(tz, one32), limit));
    good = _mm_andnot_si128(at_limit, good);
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(good));
}
#endif

/* Bit k set: the k-th of the n (at most MATRIX_BATCH) matrices at b is
 * surely clean. */
MC_HOT_FN static uint64_t matrices_clean_bits(const uint8_t *b, size_t n)
{
    uint64_t bits = 0;
    size_t k0 = 0;
#if AAMF_SSE2
    for (; k0 + 4 <= n; k0 += 4) bits |= (uint64_t)matrices4_clean_sse2(b + k0 * MATRIX_SIZE) << k0;
#endif
    if (k0 == n) return bits;
    fx_matrix x[MATRIX_BATCH];
    bool ok[MATRIX_BATCH];
    for (size_t k = k0; k < n; k++) x[k - k0] = matrix_at(b + k * MATRIX_SIZE);
    matrices_surely_clean(x, n - k0, ok);
    for (size_t k = k0; k < n; k++) bits |= (uint64_t)ok[k - k0] << k;
    return bits;
}

/* Checks the n matrices at the reader's position (file offset off): those
 * of animation anim (-1: the bind poses, one key each), bone-major, keys
 * matrices a bone. The caller checked that they fit. */
MC_HOT_FN static void check_matrices(mc_ctx *c, mc_reader *r, uint64_t off, int64_t anim, uint64_t n,
                                     uint32_t keys)
{
    for (uint64_t k0 = 0; k0 < n; k0 += MATRIX_BATCH) {
        size_t batch = n - k0 < MATRIX_BATCH ? (size_t)(n - k0) : MATRIX_BATCH;
        const uint8_t *b = mc_read_bytes(r, batch * MATRIX_SIZE);
        if (!b) return;
        uint64_t all = batch == 64 ? UINT64_MAX : (UINT64_C(1) << batch) - 1; /* no shift by 64 */
        uint64_t clean = c->fast ? matrices_clean_bits(b, batch) : 0;
        if (clean == all) continue;
        for (size_t k = 0; k < batch; k++) {
            if (clean >> k & 1) continue;
            uint64_t i = k0 + k;
            matrix_ref w = {anim, (uint32_t)(i % keys), (uint32_t)(i / keys)};
            fx_matrix x = matrix_at(b + k * MATRIX_SIZE);
            check_matrix(c, off + i * MATRIX_SIZE, &x, &w);
        }
    }
}

/* ---- SAMF unified mesh ---- */

static void check_bind_poses(mc_ctx *c, const aamf_file *f)
{
    mc_reader r = window(c, f->bind, (uint64_t)f->bones * MATRIX_SIZE);
    check_matrices(c, &r, f->bind, -1, f->bones, 1);
}

static void report_pad(mc_ctx *c, uint64_t off, uint32_t v, const char *table, int16_t pad)
{
    mc_instance *in = mc_emit(c, MC_SAMF_SVECTOR_PAD, off + 6);
    mc_path(in, "/%s/%" PRIu32 "/pad", table, v);
    mc_msg(in, "vertex %" PRIu32 ": %s pad is %d (expected 0)", v, table, pad);
}

/*
 * The clean paths of the SAMF vertex tables (issue 16): a chunk of
 * VERTEX_CHUNK records is first tested in one loop without branches (the
 * compiler runs it on several records at once); only a chunk with a doubt
 * goes through the exact loop, which alone reports.
 */
enum { VERTEX_CHUNK = 1024 };

/* No component at an int16 limit, pads 0: check_positions reports nothing. */
static bool positions_clean_scalar(const uint8_t *b, size_t n)
{
    unsigned bad = 0;
    for (size_t v = 0; v < n; v++) {
        const uint8_t *p = b + v * SVECTOR_SIZE;
        for (int k = 0; k < 3; k++) {
            int16_t x = mc_le_i16(p + 2 * k);
            bad |= (x == INT16_MIN) | (x == INT16_MAX);
        }
        bad |= mc_le_i16(p + 6) != 0;
    }
    return !bad;
}

/* Squared lengths inside NORMAL_CLEAN_MIN .. MAX, pads 0: check_normals
 * reports nothing. A sum of three int16 squares is below 3 * 2^30, so it
 * fits uint32 (each square fits int32). */
static bool normals_clean_scalar(const uint8_t *b, size_t n)
{
    unsigned bad = 0;
    for (size_t v = 0; v < n; v++) {
        const uint8_t *p = b + v * SVECTOR_SIZE;
        int32_t x[4] = {mc_le_i16(p), mc_le_i16(p + 2), mc_le_i16(p + 4), mc_le_i16(p + 6)};
        uint32_t n2 = (uint32_t)(x[0] * x[0]) + (uint32_t)(x[1] * x[1]) + (uint32_t)(x[2] * x[2]);
        bad |= (n2 < (uint32_t)NORMAL_CLEAN_MIN) | (n2 > (uint32_t)NORMAL_CLEAN_MAX) | (x[3] != 0);
    }
    return !bad;
}

#if AAMF_SSE2
/* True when no lane of the accumulated test is set. */
static inline bool none_set(__m128i bad)
{
    return _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xFFFF;
}

/* positions_clean_scalar, two records a register. Each int16 lane k is
 * moved by add[k] (wrapping) so that its bad values become the top of the
 * u16 range, which a saturating add of sat[k] turns into 0xFFFF: x + 0x7FFF
 * puts INT16_MIN and INT16_MAX at 0xFFFF and 0xFFFE, everything else at or
 * below 0xFFFD (+1 saturates only those two); a pad at 1 .. 0xFFFF
 * (+0xFFFE saturates all but 0). */
static bool positions_clean_sse2(const uint8_t *b, size_t n)
{
    const __m128i add = _mm_setr_epi16(0x7FFF, 0x7FFF, 0x7FFF, 0, 0x7FFF, 0x7FFF, 0x7FFF, 0);
    const __m128i sat = _mm_setr_epi16(1, 1, 1, -2, 1, 1, 1, -2), top = _mm_set1_epi16(-1);
    __m128i bad = _mm_setzero_si128();
    for (size_t v = 0; v + 2 <= n; v += 2) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(b + v * SVECTOR_SIZE));
        x = _mm_adds_epu16(_mm_add_epi16(x, add), sat);
        bad = _mm_or_si128(bad, _mm_cmpeq_epi16(x, top));
    }
    return none_set(bad);
}

/* normals_clean_scalar, two records a register: pmaddwd squares and adds
 * (x, y) and (z, pad masked to 0), a swap adds the halves, in wrapping
 * int32: the sum is below 3 * 2^30 < 2^32, so as uint32 it is exact, and
 * n2 - MIN <= MAX - MIN as uint32 (sign bit flipped: a signed compare) is
 * MIN <= n2 <= MAX. */
static bool normals_clean_sse2(const uint8_t *b, size_t n)
{
    const __m128i xyz = _mm_setr_epi16(-1, -1, -1, 0, -1, -1, -1, 0);
    const uint32_t flip = UINT32_C(0x80000000);
    const uint32_t lo = (uint32_t)NORMAL_CLEAN_MIN, hi = (uint32_t)NORMAL_CLEAN_MAX;
    const __m128i shift = _mm_set1_epi32(u32_as_i32(flip - lo));
    const __m128i above = _mm_set1_epi32(u32_as_i32(flip + (hi - lo)));
    __m128i bad = _mm_setzero_si128();
    for (size_t v = 0; v + 2 <= n; v += 2) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(b + v * SVECTOR_SIZE));
        __m128i m = _mm_and_si128(x, xyz);
        __m128i s = _mm_madd_epi16(m, m);
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
        bad = _mm_or_si128(bad, _mm_cmpgt_epi32(_mm_add_epi32(s, shift), above));
        bad = _mm_or_si128(bad, _mm_andnot_si128(xyz, x)); /* the pads */
    }
    return none_set(bad);
}
#endif

MC_HOT_FN static bool positions_surely_clean(const uint8_t *b, size_t n)
{
    size_t head = 0;
#if AAMF_SSE2
    head = n & ~(size_t)1;
    if (!positions_clean_sse2(b, head)) return false;
#endif
    return positions_clean_scalar(b + head * SVECTOR_SIZE, n - head);
}

MC_HOT_FN static bool normals_surely_clean(const uint8_t *b, size_t n)
{
    size_t head = 0;
#if AAMF_SSE2
    head = n & ~(size_t)1;
    if (!normals_clean_sse2(b, head)) return false;
#endif
    return normals_clean_scalar(b + head * SVECTOR_SIZE, n - head);
}

/* The exact loops over the n records at b of one chunk, first v0. */
typedef void svector_exact_fn(mc_ctx *c, const aamf_file *f, const uint8_t *b, uint32_t v0,
                              uint32_t n);

/* aamf.md, Vertices: SVECTOR positions; docs/formats/aamf.md: the writer saturates
 * at +-8.0, so a component at the int16 limit lost part of the shape. */
static void positions_exact(mc_ctx *c, const aamf_file *f, const uint8_t *b, uint32_t v0, uint32_t n)
{
    for (uint32_t v = v0; v < v0 + n; v++) {
        int16_t p[4];
        for (int k = 0; k < 4; k++) p[k] = mc_le_i16(b + (size_t)(v - v0) * SVECTOR_SIZE + 2 * k);
        uint64_t off = f->positions + (uint64_t)v * SVECTOR_SIZE;
        for (int k = 0; k < 3; k++) {
            if (p[k] != INT16_MIN && p[k] != INT16_MAX) continue;
            mc_instance *in = mc_emit(c, MC_SAMF_POSITION_SATURATED, off + 2u * (unsigned)k);
            mc_path(in, "/positions/%" PRIu32, v);
            mc_msg(in, "vertex %" PRIu32 ": position %c is %d, the int16 limit (clamped beyond +-8.0)",
                   v, "xyz"[k], p[k]);
            break;
        }
        if (p[3] != 0) report_pad(c, off, v, "positions", p[3]);
    }
}

/* aamf.md, Normals: 4.12 SVECTOR, unit length within the rounding bound
 * AAMF_NORMAL_TOLERANCE. */
static void normals_exact(mc_ctx *c, const aamf_file *f, const uint8_t *b, uint32_t v0, uint32_t count)
{
    for (uint32_t v = v0; v < v0 + count; v++) {
        int16_t n[4];
        for (int k = 0; k < 4; k++) n[k] = mc_le_i16(b + (size_t)(v - v0) * SVECTOR_SIZE + 2 * k);
        int64_t n2 = (int64_t)n[0] * n[0] + (int64_t)n[1] * n[1] + (int64_t)n[2] * n[2];
        if (n2 >= NORMAL_CLEAN_MIN && n2 <= NORMAL_CLEAN_MAX && n[3] == 0) continue;
        uint64_t off = f->normals + (uint64_t)v * SVECTOR_SIZE;
        double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
        if (fabs(len - FX_ONE) > AAMF_NORMAL_TOLERANCE) {
            mc_instance *in = mc_emit(c, MC_SAMF_NORMAL_NOT_UNIT, off);
            mc_path(in, "/normals/%" PRIu32, v);
            mc_msg(in, "vertex %" PRIu32 ": normal (%d, %d, %d) has length %.6f (expected 1 +- %.6f in 4.12)",
                   v, n[0], n[1], n[2], len / FX_ONE, AAMF_NORMAL_TOLERANCE / FX_ONE);
        }
        if (n[3] != 0) report_pad(c, off, v, "normals", n[3]);
    }
}

/* SAMF's positions and skin weights as the structure sink sees them: the
 * same views for mc_s_walked and report_samf (the tables lie inside the
 * file: samf_header). */
static mc_view samf_positions(const mc_ctx *c, const aamf_file *f)
{
    return (mc_view){c->data + f->positions, mc_view_bytes((uint64_t)f->vertices * SVECTOR_SIZE), f->vertices,
                     SVECTOR_SIZE, MC_FIELD_I16, 3};
}

static mc_view samf_weights(const mc_ctx *c, const aamf_file *f)
{
    uint64_t vbytes = (uint64_t)f->vertices * SVECTOR_SIZE;
    return (mc_view){c->data + f->skin + 4, mc_view_bytes(vbytes >= 4 ? vbytes - 4 : 0), f->vertices, SKIN_SIZE,
                     MC_FIELD_U8, 4};
}

/* An SVECTOR table at off, a chunk at a time: its clean path, or the exact
 * loop over the chunk. pos: the positions' view while inspecting (else
 * NULL), summed as the chunks pass. */
MC_HOT_FN static void check_svectors(mc_ctx *c, const aamf_file *f, uint64_t off, const mc_view *pos,
                                     bool (*clean)(const uint8_t *b, size_t n), svector_exact_fn *exact)
{
    mc_reader all = window(c, off, (uint64_t)f->vertices * SVECTOR_SIZE);
    for (uint32_t v0 = 0, n; v0 < f->vertices; v0 += n) {
        n = f->vertices - v0 < VERTEX_CHUNK ? f->vertices - v0 : VERTEX_CHUNK;
        const uint8_t *b = mc_read_bytes(&all, (size_t)n * SVECTOR_SIZE);
        if (!b) return;
        if (pos) mc_s_walked(c, pos, NULL, 0, v0, n);
        if (!c->fast || !clean(b, n)) exact(c, f, b, v0, n);
    }
}

/* aamf.md, Skin Weights, slot by slot: used slots (weight > 0) name a bone
 * once; unused slots hold index 0 (docs/formats/aamf.md: the writer leaves the
 * stale joint index: its own warning). Returns the influence count. */
static unsigned check_skin_slots(mc_ctx *c, const aamf_file *f, uint64_t off, uint32_t v,
                                 const uint8_t *idx, const uint8_t *w)
{
    unsigned used = 0;
    for (unsigned j = 0; j < 4; j++) {
        if (w[j] == 0) {
            if (idx[j] == 0) continue;
            mc_instance *in = mc_emit(c, MC_SAMF_SKIN_UNUSED_SLOT_INDEX, off + j);
            mc_path(in, "/skin_weights/%" PRIu32 "/bone_indices/%u", v, j);
            mc_msg(in, "vertex %" PRIu32 ": slot %u has weight 0 but bone index %u (expected 0)", v, j,
                   idx[j]);
            continue;
        }
        used++;
        if (idx[j] >= f->bones) {
            mc_instance *in = mc_emit(c, MC_SAMF_SKIN_BONE_RANGE, off + j);
            mc_path(in, "/skin_weights/%" PRIu32 "/bone_indices/%u", v, j);
            mc_msg(in, "vertex %" PRIu32 ": slot %u has weight %u on bone %u (expected < bone count %u)",
                   v, j, w[j], idx[j], f->bones);
        }
        for (unsigned k = 0; k < j; k++) {
            if (w[k] == 0 || idx[k] != idx[j]) continue;
            mc_instance *in = mc_emit(c, MC_SAMF_SKIN_DUPLICATE_BONE, off + j);
            mc_path(in, "/skin_weights/%" PRIu32 "/bone_indices/%u", v, j);
            mc_msg(in, "vertex %" PRIu32 ": bone %u has weight in slots %u and %u", v, idx[j], k, j);
            break;
        }
    }
    return used;
}

/* aamf.md, Skin Weights: "normalized to sum to 255". docs/formats/aamf.md: the
 * writer truncates each int(w*255), so n non-zero weights lose less than
 * n - 1 in all: 256 - n .. 254 is that truncation, under its own code. */
static void check_weight_sum(mc_ctx *c, uint64_t off, uint32_t v, const uint8_t *w, unsigned used)
{
    unsigned sum = (unsigned)w[0] + w[1] + w[2] + w[3];
    if (sum == 255) return;
    bool truncated = used >= 2 && sum < 255 && sum >= 256 - used;
    mc_instance *in = mc_emit(c, truncated ? MC_SAMF_WEIGHT_SUM_TRUNCATED : MC_SAMF_WEIGHT_SUM, off + 4);
    mc_path(in, "/skin_weights/%" PRIu32 "/weights", v);
    mc_msg(in, "vertex %" PRIu32 ": weights %u + %u + %u + %u sum to %u (expected 255)%s", v, w[0],
           w[1], w[2], w[3], sum, truncated ? ": the writer's int(w*255) truncation" : "");
}

/* The clean path of check_skin_slots and check_weight_sum over n records
 * (issue 16): true when neither would report for any; *max_influences
 * then holds the largest influence count seen. */
static bool skin_clean_scalar(const uint8_t *b, size_t n, uint16_t bones, unsigned *max_influences)
{
    unsigned bad = 0, most = *max_influences;
    for (size_t v = 0; v < n; v++) {
        const uint8_t *idx = b + v * SKIN_SIZE, *w = idx + 4;
        bad |= (unsigned)w[0] + w[1] + w[2] + w[3] != 255;
        unsigned on[4], used = 0;
        for (unsigned j = 0; j < 4; j++) {
            on[j] = w[j] != 0;
            used += on[j];
            /* a used slot names a bone; an unused one holds index 0 */
            bad |= (on[j] & (idx[j] >= bones)) | (!on[j] & (idx[j] != 0));
        }
        /* no bone in two used slots (the six pairs, written out so that
         * the loop has no inner loop and vectorises) */
        bad |= on[0] & on[1] & (idx[0] == idx[1]);
        bad |= on[0] & on[2] & (idx[0] == idx[2]);
        bad |= on[0] & on[3] & (idx[0] == idx[3]);
        bad |= on[1] & on[2] & (idx[1] == idx[2]);
        bad |= on[1] & on[3] & (idx[1] == idx[3]);
        bad |= on[2] & on[3] & (idx[2] == idx[3]);
        most = used > most ? used : most;
    }
    if (bad) return false;
    *max_influences = most;
    return true;
}

#if AAMF_SSE2
/* Each record's four bytes (a 32-bit lane) turned by one and by two slots:
 * slot j meets j + 1 and j + 2 (mod 4), which are the six pairs. */
static inline __m128i slots_turned1(__m128i x)
{
    return _mm_or_si128(_mm_srli_epi32(x, 8), _mm_slli_epi32(x, 24));
}

static inline __m128i slots_turned2(__m128i x)
{
    return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, _MM_SHUFFLE(2, 3, 0, 1)), _MM_SHUFFLE(2, 3, 0, 1));
}

/* skin_clean_scalar for n a multiple of 4 and bones >= 1, four records at
 * a time: the 32 bytes hold (indices, weights) lanes of records 0 1 2 3,
 * unpacked into one register of indices and one of weights (records in the
 * order 0 2 1 3 in both), so that every byte lane is one slot. */
static bool skin_clean_sse2(const uint8_t *b, size_t n, uint16_t bones, unsigned *max_influences)
{
    const __m128i zero = _mm_setzero_si128(), low8 = _mm_set1_epi16(0xFF);
    /* a used slot's index above bones - 1 (at most 255) saturates */
    const __m128i top = _mm_set1_epi8((char)(uint8_t)(bones > 256 ? 255 : bones - 1));
    __m128i bad = zero, most = zero;
    for (size_t v = 0; v + 4 <= n; v += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(const void *)(b + v * SKIN_SIZE));
        __m128i q = _mm_loadu_si128((const __m128i *)(const void *)(b + v * SKIN_SIZE + 16));
        __m128i lo = _mm_unpacklo_epi32(p, q), hi = _mm_unpackhi_epi32(p, q);
        __m128i idx = _mm_unpacklo_epi64(lo, hi), w = _mm_unpackhi_epi64(lo, hi);
        __m128i off = _mm_cmpeq_epi8(w, zero); /* unused slots */
        bad = _mm_or_si128(bad, _mm_andnot_si128(_mm_cmpeq_epi8(idx, zero), off));
        bad = _mm_or_si128(bad, _mm_andnot_si128(off, _mm_subs_epu8(idx, top)));
        /* the weight sum: byte pairs into 16 bits, then pmaddwd into 32 */
        __m128i s = _mm_add_epi16(_mm_and_si128(w, low8), _mm_srli_epi16(w, 8));
        s = _mm_madd_epi16(s, _mm_set1_epi16(1));
        bad = _mm_or_si128(bad, _mm_xor_si128(s, _mm_set1_epi32(255)));
        /* no bone in two used slots */
        __m128i same = _mm_andnot_si128(_mm_or_si128(off, slots_turned1(off)),
                                        _mm_cmpeq_epi8(idx, slots_turned1(idx)));
        same = _mm_or_si128(same, _mm_andnot_si128(_mm_or_si128(off, slots_turned2(off)),
                                                   _mm_cmpeq_epi8(idx, slots_turned2(idx))));
        bad = _mm_or_si128(bad, same);
        /* influences: 4 minus the unused slots, summed into each lane's low byte */
        __m128i u = _mm_and_si128(off, _mm_set1_epi8(1));
        u = _mm_add_epi8(u, _mm_srli_epi32(u, 16));
        u = _mm_and_si128(_mm_add_epi8(u, _mm_srli_epi32(u, 8)), _mm_set1_epi32(0xFF));
        most = _mm_max_epi16(most, _mm_sub_epi32(_mm_set1_epi32(4), u));
    }
    if (!none_set(bad)) return false;
    most = _mm_max_epi16(most, _mm_srli_si128(most, 8));
    most = _mm_max_epi16(most, _mm_srli_si128(most, 4));
    unsigned m = (unsigned)_mm_cvtsi128_si32(most) & 0xFFu;
    if (m > *max_influences) *max_influences = m;
    return true;
}
#endif

MC_HOT_FN static bool skin_surely_clean(const uint8_t *b, size_t n, uint16_t bones, unsigned *max_influences)
{
    size_t head = 0;
    unsigned most = *max_influences;
#if AAMF_SSE2
    /* bones 0: every used slot is out of range; the scalar loop says so */
    head = bones ? n & ~(size_t)3 : 0;
    if (!skin_clean_sse2(b, head, bones, &most)) return false;
#endif
    if (!skin_clean_scalar(b + head * SKIN_SIZE, n - head, bones, &most)) return false;
    *max_influences = most;
    return true;
}

MC_HOT_FN static void check_skin(mc_ctx *c, const aamf_file *f)
{
    mc_reader all = window(c, f->skin, (uint64_t)f->vertices * SKIN_SIZE);
    unsigned max_influences = 0;
    mc_view weights = c->sink ? samf_weights(c, f) : (mc_view){0};
    for (uint32_t v0 = 0, n; v0 < f->vertices; v0 += n) {
        n = f->vertices - v0 < VERTEX_CHUNK ? f->vertices - v0 : VERTEX_CHUNK;
        const uint8_t *b = mc_read_bytes(&all, (size_t)n * SKIN_SIZE);
        if (!b) return;
        mc_s_walked(c, NULL, &weights, 0, v0, n);
        if (c->fast && skin_surely_clean(b, n, f->bones, &max_influences)) continue;
        for (uint32_t v = v0; v < v0 + n; v++) {
            const uint8_t *s = b + (size_t)(v - v0) * SKIN_SIZE;
            uint64_t off = f->skin + (uint64_t)v * SKIN_SIZE;
            unsigned used = check_skin_slots(c, f, off, v, s, s + 4);
            if (used > max_influences) max_influences = used;
            check_weight_sum(c, off, v, s + 4, used);
        }
    }
    c->info->max_influences = max_influences;
}

/* aamf.md, Faces: u16 indices into the vertices; docs/formats/aamf.md: u16 cannot
 * address more than 65536 vertices. */
MC_HOT_FN static void check_faces(mc_ctx *c, const aamf_file *f)
{
    mc_reader r = window(c, f->face_table, (uint64_t)f->faces * FACE_SIZE);
    for (uint32_t i = 0; i < f->faces; i++) {
        uint16_t t[3];
        for (int k = 0; k < 3; k++) t[k] = mc_read_u16(&r);
        if (r.fail) return;
        uint64_t off = f->face_table + (uint64_t)i * FACE_SIZE;
        for (unsigned k = 0; k < 3; k++) {
            if (t[k] < f->vertices) continue;
            mc_instance *in = mc_emit(c, MC_SAMF_FACE_INDEX_RANGE, off + 2 * k);
            mc_path(in, "/faces/%" PRIu32 "/%u", i, k);
            mc_msg(in, "face %" PRIu32 ": vertex index %u (expected < vertex count %" PRIu32 ")", i,
                   t[k], f->vertices);
        }
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
            mc_instance *in = mc_emit(c, MC_SAMF_FACE_DEGENERATE, off);
            mc_path(in, "/faces/%" PRIu32, i);
            mc_msg(in, "face %" PRIu32 ": (%u, %u, %u) uses a vertex twice", i, t[0], t[1], t[2]);
        }
    }
}

static void check_samf_counts(mc_ctx *c, const aamf_file *f)
{
    if (f->vertices > 65536) {
        mc_instance *in = mc_emit(c, MC_SAMF_VERTEX_COUNT_U16, 10);
        mc_path(in, "/header/vertex_count");
        mc_msg(in, "vertex_count %" PRIu32 ": u16 face indices reach only the first 65536", f->vertices);
    }
    if (f->bones > 256) {
        mc_instance *in = mc_emit(c, MC_SAMF_BONE_COUNT_U8, 6);
        mc_path(in, "/header/bone_count");
        mc_msg(in, "bone_count %u: u8 skin bone indices reach only the first 256", f->bones);
    }
}

/* ---- blocks ---- */

/* The head of a block at *pos: its size is checked against the file. False
 * (one error, the chain stops) when the block cannot be trusted. */
static bool block_head(mc_ctx *c, uint64_t pos, const char *kind, uint32_t i, uint32_t *size)
{
    if (pos % 4 != 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_BLOCK_UNALIGNED, pos);
        mc_path(in, "/%s/%" PRIu32, kind, i);
        mc_msg(in, "block starts at 0x%" PRIx64 " (%" PRIu64 " mod 4): the R3000 cannot read its u32 block_size in place",
               pos, pos % 4);
    }
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, pos);
    *size = mc_read_u32(&r);
    if (r.fail) {
        mc_instance *in = mc_emit(c, MC_AAMF_BLOCK_TRUNCATED, pos);
        mc_path(in, "/%s/%" PRIu32 "/block_size", kind, i);
        mc_msg(in, "file ends before the block_size of %s block %" PRIu32 " (%zu bytes left)", kind,
               i, (size_t)(c->size - pos));
        return false;
    }
    if (*size < BLOCK_SIZE_FIELD) {
        mc_instance *in = mc_emit(c, MC_AAMF_BLOCK_SIZE_TOO_SMALL, pos);
        mc_path(in, "/%s/%" PRIu32 "/block_size", kind, i);
        mc_msg(in, "block_size is %" PRIu32 " (expected >= 4: it counts its own field)", *size);
        return false;
    }
    if (*size > c->size - pos) {
        mc_instance *in = mc_emit(c, MC_AAMF_BLOCK_TRUNCATED, pos);
        mc_path(in, "/%s/%" PRIu32 "/block_size", kind, i);
        mc_msg(in, "block_size %" PRIu32 " runs %" PRIu64 " bytes past the end of the file (%" PRIu64
               " bytes left)", *size, (uint64_t)*size - (c->size - pos), (uint64_t)(c->size - pos));
        return false;
    }
    return true;
}

/* ---- legacy bone blocks: embedded AMF ---- */

typedef struct amf_scope {
    uint32_t bone;
    uint64_t block; /* offset of the block_size field */
    uint32_t size;  /* block_size */
} amf_scope;

static void report_amf_layout(mc_ctx *c, const amf_scope *s, uint64_t off, const char *fmt, ...)
    MC_PRINTF(4, 5);

static void report_amf_layout(mc_ctx *c, const amf_scope *s, uint64_t off, const char *fmt, ...)
{
    mc_instance *in = mc_emit(c, MC_AAMF_AMF_LAYOUT, off);
    if (!in) return;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    mc_path(in, "/bone_blocks/%" PRIu32 "/amf", s->bone);
    mc_msg(in, "bone block %" PRIu32 " (%" PRIu32 " bytes at 0x%" PRIx64 "): %s", s->bone, s->size,
           s->block, what);
}

static void check_amf_texture_names(mc_ctx *c, const amf_scope *s, mc_reader *r, uint64_t base,
                                    uint32_t textures)
{
    for (uint32_t t = 0; t < textures; t++) {
        uint64_t off = base + r->pos;
        const uint8_t *b = mc_read_bytes(r, NAME_SIZE);
        if (!b) return;
        int bad;
        name_key(b, &bad);
        if (bad < 0) continue;
        mc_instance *in = mc_emit(c, MC_AAMF_NAME_NOT_PRINTABLE, off + (uint64_t)bad);
        mc_path(in, "/bone_blocks/%" PRIu32 "/amf/textures/%" PRIu32, s->bone, t);
        mc_msg(in, "texture name %" PRIu32 ": byte %d is 0x%02x (expected printable ASCII 0x20..0x7e before the NUL)",
               t, bad, b[bad]);
    }
}

/* docs/formats/aamf.md, embedded AMF: the reader uses texture indices
 * unchecked, so each textured record's index must name one of the block's
 * used_textures names. The caller checked that the chunk's records fit. */
static void check_amf_texture_indices(mc_ctx *c, const amf_scope *s, const mc_reader *r, uint64_t base,
                                      uint64_t chunk, const uint16_t count[AMF_KINDS], uint32_t textures)
{
    mc_reader rec = *r;
    for (int k = 0; k < AMF_KINDS; k++) {
        for (uint32_t i = 0; i < count[k]; i++) {
            uint64_t off = base + rec.pos;
            const uint8_t *b = mc_read_bytes(&rec, amf_record_size[k]);
            if (!b) return;
            if (!amf_texture_field[k]) continue;
            uint32_t tex = mc_le32(b + amf_texture_field[k]);
            if (tex < textures) continue;
            mc_instance *in = mc_emit(c, MC_AAMF_AMF_TEXTURE_INDEX_RANGE, off + amf_texture_field[k]);
            mc_path(in, "/bone_blocks/%" PRIu32 "/amf/chunks/%" PRIu64 "/%s/%" PRIu32 "/texture", s->bone, chunk,
                    amf_kind_name[k], i);
            mc_msg(in, "%s %" PRIu32 " of chunk %" PRIu64 ": texture index %" PRIu32
                   " (expected < used_textures %" PRIu32 ")", amf_kind_name[k], i, chunk, tex, textures);
        }
    }
}

/* The chunks: per chunk 8 primitive counts, 8 pointer slots, then the
 * records; they must end exactly at the block end. Returns false with one
 * AAMF_AMF_LAYOUT when they do not. */
static bool check_amf_chunks(mc_ctx *c, const amf_scope *s, mc_reader *r, uint64_t base,
                             uint64_t chunks, uint32_t textures, uint64_t *triangles)
{
    uint64_t tris = 0;
    for (uint64_t k = 0; k < chunks; k++) {
        uint64_t off = base + r->pos;
        uint16_t count[AMF_KINDS];
        for (int i = 0; i < AMF_KINDS; i++) count[i] = mc_read_u16(r);
        mc_reader_skip(r, 32);
        if (r->fail) {
            report_amf_layout(c, s, off, "chunk %" PRIu64 " of %" PRIu64 ": its 48-byte header passes the block end",
                              k, chunks);
            return false;
        }
        uint64_t bytes = 0;
        for (int i = 0; i < AMF_KINDS; i++) {
            mc_add_mul_u64(&bytes, count[i], amf_record_size[i]); /* < 2^24 */
            tris += (uint64_t)count[i] * (i < 4 ? 2 : 1);
        }
        if (bytes > mc_reader_left(r)) {
            int big = 0;
            for (int i = 1; i < AMF_KINDS; i++)
                if (count[i] > count[big]) big = i;
            report_amf_layout(c, s, off, "chunk %" PRIu64 ": primitive records need %" PRIu64
                              " bytes (most: %u %s), %zu left in the block", k, bytes, count[big],
                              amf_kind_name[big], mc_reader_left(r));
            return false;
        }
        check_amf_texture_indices(c, s, r, base, k, count, textures);
        mc_reader_skip(r, (size_t)bytes);
    }
    if (mc_reader_left(r) != 0) {
        report_amf_layout(c, s, base + r->pos, "%zu bytes follow the last of %" PRIu64
                          " chunks (expected the chunks to end at the block end)", mc_reader_left(r), chunks);
        return false;
    }
    *triangles += tris;
    return true;
}

/* docs/formats/aamf.md, embedded AMF as the game's reader parses it. One issue per
 * block when the layout does not hold (an older AMF layout would otherwise
 * give a cascade). */
static void check_amf(mc_ctx *c, const amf_scope *s, uint64_t *textures_total, uint64_t *triangles)
{
    uint64_t base = s->block + BLOCK_SIZE_FIELD;
    mc_reader r = window(c, base, s->size - BLOCK_SIZE_FIELD);
    uint32_t used = mc_read_u32(&r);
    uint16_t x = mc_read_u16(&r), z = mc_read_u16(&r);
    mc_reader_skip(&r, 16); /* minX, minZ, maxX, maxZ */
    if (r.fail) {
        report_amf_layout(c, s, base, "the AMF header needs %d bytes, the block holds %" PRIu32,
                          AMF_HEAD_SIZE, s->size - BLOCK_SIZE_FIELD);
        return;
    }
    if (used & UINT32_C(0x80000000)) {
        mc_instance *in = mc_emit(c, MC_AAMF_AMF_TEXTURE_FLAG, base);
        mc_path(in, "/bone_blocks/%" PRIu32 "/amf/used_textures", s->bone);
        mc_msg(in, "used_textures is 0x%08" PRIx32 ": bit 31 is the run-time \"relocated\" flag (expected clear in a file)",
               used);
    }
    uint32_t textures = used & UINT32_C(0x7fffffff);
    uint64_t chunks = (uint64_t)x * z;
    if (chunks > AMF_MAX_CHUNKS) {
        mc_instance *in = mc_emit(c, MC_AAMF_AMF_GRID_TOO_LARGE, base + 4);
        mc_path(in, "/bone_blocks/%" PRIu32 "/amf/grid", s->bone);
        mc_msg(in, "chunk grid %u x %u = %" PRIu64 " chunks (expected <= 65535: the reader's u16 loop never ends)",
               x, z, chunks);
        return;
    }
    if ((uint64_t)textures * NAME_SIZE > mc_reader_left(&r)) {
        report_amf_layout(c, s, base, "%" PRIu32 " texture names need %" PRIu64 " bytes, %zu left in the block",
                          textures, (uint64_t)textures * NAME_SIZE, mc_reader_left(&r));
        return;
    }
    *textures_total += textures;
    check_amf_texture_names(c, s, &r, base, textures);
    if (chunks * 4 > mc_reader_left(&r)) {
        report_amf_layout(c, s, base + r.pos, "the chunk table of %u x %u entries needs %" PRIu64
                          " bytes, %zu left in the block", x, z, chunks * 4, mc_reader_left(&r));
        return;
    }
    mc_reader_skip(&r, (size_t)chunks * 4); /* ignored by the reader */
    check_amf_chunks(c, s, &r, base, chunks, textures, triangles);
}

/* aamf.md, Bone Data Blocks. False when the chain breaks. */
static bool check_bone_blocks(mc_ctx *c, aamf_file *f)
{
    uint64_t pos = f->blocks, textures = 0, triangles = 0;
    mc_s_enter(c, "section", "bone_blocks", pos, c->size - pos);
    for (uint32_t b = 0; b < f->bones; b++) {
        uint32_t size;
        if (!block_head(c, pos, "bone_blocks", b, &size)) {
            mc_s_leave(c);
            return false;
        }
        mc_s_enter_index(c, "block", b, pos, size);
        mc_s_layout(c, MC_FIELDS(block_fields));
        mc_s_enter(c, "mesh", "amf", pos + BLOCK_SIZE_FIELD, size - BLOCK_SIZE_FIELD);
        uint64_t t0 = triangles;
        amf_scope s = {b, pos, size};
        check_amf(c, &s, &textures, &triangles);
        mc_s_u64(c, "triangles", triangles - t0);
        mc_s_leave(c);
        mc_s_leave(c);
        pos += size;
    }
    mc_s_end(c, pos);
    mc_s_leave(c);
    f->blocks = pos;
    c->info->textures = textures;
    c->info->triangles = triangles;
    return true;
}

/* ---- animation blocks ---- */

typedef struct anim_name {
    uint64_t key;
    uint64_t off;
    uint32_t index;
} anim_name;

static int compare_names(const void *a, const void *b)
{
    const anim_name *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Activation is by name: a later animation of the same name is unreachable. */
static void check_duplicate_names(mc_ctx *c, anim_name *names, size_t n)
{
    if (n < 2) return;
    qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 1; i < n; i++) {
        if (names[i].key != names[i - 1].key) continue;
        size_t first = i - 1;
        while (first > 0 && names[first - 1].key == names[i].key) first--;
        char text[NAME_SIZE + 1];
        for (int k = 0; k < NAME_SIZE; k++) text[k] = (char)(names[i].key >> (8 * k));
        text[NAME_SIZE] = '\0';
        mc_instance *in = mc_emit(c, MC_AAMF_ANIM_NAME_DUPLICATE, names[i].off);
        mc_path(in, "/animations/%" PRIu32 "/name", names[i].index);
        mc_msg(in, "animation %" PRIu32 " is named \"%s\" like animation %" PRIu32, names[i].index, text,
               names[first].index);
    }
}

static void check_anim_name(mc_ctx *c, uint64_t off, uint32_t a, const uint8_t *b, anim_name *slot)
{
    int bad;
    slot->key = name_key(b, &bad);
    slot->off = off;
    slot->index = a;
    if (b[0] == 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_ANIM_NAME_EMPTY, off);
        mc_path(in, "/animations/%" PRIu32 "/name", a);
        mc_msg(in, "animation %" PRIu32 ": name is empty", a);
    } else if (bad >= 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_NAME_NOT_PRINTABLE, off + (uint64_t)bad);
        mc_path(in, "/animations/%" PRIu32 "/name", a);
        mc_msg(in, "animation %" PRIu32 ": byte %d of the name is 0x%02x (expected printable ASCII 0x20..0x7e before the NUL)",
               a, bad, b[bad]);
    }
}

static void check_keyframes(mc_ctx *c, const aamf_file *f, uint64_t pos, uint32_t a, uint32_t keys)
{
    uint64_t n = (uint64_t)keys * f->bones;
    mc_reader r = window(c, pos + ANIM_HEAD_SIZE, n * MATRIX_SIZE);
    /* bone-major, as the runtime reads them (keyframe f of bone b at
     * b * keyframe_count + f, setAnimationKeyframe): aamf.md's
     * "bone_count * keyframe_count" leaves the order open */
    if (keys) check_matrices(c, &r, pos + ANIM_HEAD_SIZE, a, n, keys);
}

/* One animation block at pos whose size fits the file (aamf.md, Animation
 * Data Blocks; docs/formats/aamf.md: exact size, keyframe_count >= 1, pointer 0). */
static void check_anim_block(mc_ctx *c, const aamf_file *f, uint64_t pos, uint32_t a,
                             uint32_t size, anim_name *slot, uint64_t *keyframes)
{
    if (size < ANIM_HEAD_SIZE) {
        mc_instance *in = mc_emit(c, MC_AAMF_ANIM_BLOCK_SIZE, pos);
        mc_path(in, "/animations/%" PRIu32 "/block_size", a);
        mc_msg(in, "animation %" PRIu32 ": block_size %" PRIu32 " cannot hold the 20-byte animation head", a, size);
        return;
    }
    mc_reader r = window(c, pos + BLOCK_SIZE_FIELD, ANIM_HEAD_SIZE - BLOCK_SIZE_FIELD);
    const uint8_t *name = mc_read_bytes(&r, NAME_SIZE);
    uint32_t keys = mc_read_u32(&r), pointer = mc_read_u32(&r);
    if (r.fail) return;
    check_anim_name(c, pos + 4, a, name, slot);
    *keyframes += keys;
    if (keys == 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_ANIM_NO_KEYFRAMES, pos + 12);
        mc_path(in, "/animations/%" PRIu32 "/keyframe_count", a);
        mc_msg(in, "animation %" PRIu32 ": keyframe_count is 0 (the C runtime divides by it)", a);
    }
    if (pointer != 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_ANIM_KEYFRAME_POINTER, pos + 16);
        mc_path(in, "/animations/%" PRIu32 "/keyframe_pointer", a);
        mc_msg(in, "animation %" PRIu32 ": keyframe_pointer is 0x%08" PRIx32 " (expected 0: run-time only)",
               a, pointer);
    }
    uint64_t expect = ANIM_HEAD_SIZE;
    mc_add_mul_u64(&expect, (uint64_t)keys * f->bones, MATRIX_SIZE); /* < 2^54 */
    if (size != expect) {
        mc_instance *in = mc_emit(c, MC_AAMF_ANIM_BLOCK_SIZE, pos);
        mc_path(in, "/animations/%" PRIu32 "/block_size", a);
        mc_msg(in, "animation %" PRIu32 ": block_size %" PRIu32 " (expected 20 + 32 x %u bones x %" PRIu32
               " keyframes = %" PRIu64 ")", a, size, f->bones, keys, expect);
        return;
    }
    check_keyframes(c, f, pos, a, keys);
}

/* inspect: one animation block whose size fits the file (block_head) */
static void report_anim(mc_ctx *c, const aamf_file *f, uint64_t pos, uint32_t a, uint32_t size)
{
    mc_s_enter_index(c, "animation", a, pos, size);
    mc_s_layout(c, MC_FIELDS(anim_fields));
    if (size >= ANIM_HEAD_SIZE) {
        mc_s_str(c, "name", c->data + pos + 4, NAME_SIZE);
        uint32_t keys = mc_le32(c->data + pos + 12);
        mc_s_u64(c, "keyframes", keys);
        mc_s_u64(c, "channels", f->bones);
    }
    mc_s_leave(c);
}

static void check_animations(mc_ctx *c, const aamf_file *f)
{
    if (f->anims == 0) {
        mc_instance *in = mc_emit(c, MC_AAMF_NO_ANIMATIONS, f->anim_count_off);
        mc_path(in, "/header/anim_count");
        mc_msg(in, "anim_count is 0 (the C runtime reads anims[0] anyway)");
    }
    /* names are kept only for blocks that hold one: at most one per 20 bytes */
    size_t cap = (c->size - (size_t)f->blocks) / ANIM_HEAD_SIZE;
    if (cap > f->anims) cap = f->anims;
    anim_name *names = cap ? malloc(cap * sizeof *names) : NULL;
    if (cap && !names) {
        c->nomem = true;
        return;
    }
    size_t named = 0;
    uint64_t pos = f->blocks, keyframes = 0;
    bool whole = true;
    mc_s_enter(c, "section", "animations", pos, c->size - pos);
    mc_s_u64(c, "count", f->anims);
    for (uint32_t a = 0; a < f->anims; a++) {
        uint32_t size;
        if (!block_head(c, pos, "animations", a, &size)) {
            mc_s_enter_index(c, "animation", a, pos, c->size - pos); /* what is left of it */
            mc_s_layout(c, MC_FIELDS(anim_fields));
            mc_s_leave(c);
            whole = false;
            break;
        }
        anim_name slot = {0, 0, 0};
        if (c->sink) report_anim(c, f, pos, a, size);
        check_anim_block(c, f, pos, a, size, &slot, &keyframes);
        if (slot.key != 0 && named < cap) names[named++] = slot;
        pos += size;
    }
    mc_s_end(c, pos);
    mc_s_leave(c);
    c->info->keyframes = keyframes;
    check_duplicate_names(c, names, named);
    free(names);
    if (whole && pos < c->size) {
        mc_instance *in = mc_emit(c, MC_AAMF_TRAILING_BYTES, pos);
        mc_path(in, "/");
        mc_msg(in, "%" PRIu64 " bytes follow the last animation block (file has %zu bytes, blocks end at %" PRIu64 ")",
               (uint64_t)c->size - pos, c->size, pos);
    }
}

/* ---- driver ---- */

static void fill_info(mc_ctx *c, const aamf_file *f)
{
    mc_info *i = c->info;
    i->bones = f->bones;
    i->animations = f->anims;
    if (f->legacy) {
        i->meshes = f->bones; /* one AMF mesh per bone */
        return;
    }
    i->meshes = 1;
    i->vertices = f->vertices;
    i->indices = (uint64_t)f->faces * 3;
    i->triangles = f->faces;
}

/* inspect: SAMF's fixed tables (the header placed them) and its mesh */
static void report_samf(mc_ctx *c, const aamf_file *f)
{
    const struct {
        const char *name;
        uint64_t at, count, stride;
        const mc_field *fields;
        size_t n;
    } t[] = {{"bind_poses", f->bind, f->bones, MATRIX_SIZE, MC_FIELDS(matrix_fields)},
             {"positions", f->positions, f->vertices, SVECTOR_SIZE, MC_FIELDS(svector_fields)},
             {"normals", f->normals, f->vertices, SVECTOR_SIZE, MC_FIELDS(svector_fields)},
             {"skin_weights", f->skin, f->vertices, SKIN_SIZE, MC_FIELDS(skin_fields)},
             {"faces", f->face_table, f->faces, FACE_SIZE, MC_FIELDS(face_fields)}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        mc_s_array(c, t[i].name, t[i].at, t[i].count, t[i].stride, t[i].fields, t[i].n);
    /* the one mesh: the tables lie inside the file (samf_header); its
     * geometry once the checks below have summed the vertices */
    mc_s_enter(c, "mesh", "mesh", f->positions, f->blocks - f->positions);
    mc_s_u64(c, "vertices", f->vertices);
    mc_s_u64(c, "triangles", f->faces);
    mc_geometry g = {samf_positions(c, f),
                     {c->data + f->face_table, mc_view_bytes((uint64_t)f->faces * FACE_SIZE), 3u * (uint64_t)f->faces,
                      2, MC_FIELD_U16, 1},
                     samf_weights(c, f),
                     3, false, false, 0};
    mc_sink_geometry_later(c->sink, &g);
    mc_s_leave(c);
}

static void aamf_validate(mc_ctx *c)
{
    aamf_file f;
    memset(&f, 0, sizeof f);
    if (samf_magic(c->data, c->size)) {
        mc_s_enter(c, "header", "header", 0, c->size < SAMF_HEADER_SIZE ? c->size : SAMF_HEADER_SIZE);
        mc_s_layout(c, MC_FIELDS(samf_header_fields));
        bool ok = samf_header(c, &f);
        mc_s_leave(c);
        if (!ok) return;
        fill_info(c, &f);
        check_samf_counts(c, &f);
        check_bone_table(c, &f);
        if (c->sink) report_samf(c, &f);
        check_bind_poses(c, &f);
        mc_view pos = c->sink ? samf_positions(c, &f) : (mc_view){0};
        check_svectors(c, &f, f.positions, c->sink ? &pos : NULL, positions_surely_clean,
                       positions_exact);
        check_svectors(c, &f, f.normals, NULL, normals_surely_clean, normals_exact);
        check_skin(c, &f);
        check_faces(c, &f);
        check_animations(c, &f);
        return;
    }
    mc_s_enter(c, "header", "header", 0, c->size < LEGACY_HEADER_SIZE ? c->size : LEGACY_HEADER_SIZE);
    mc_s_layout(c, MC_FIELDS(legacy_header_fields));
    bool ok = legacy_header(c, &f);
    mc_s_leave(c);
    if (!ok) return;
    fill_info(c, &f);
    check_bone_table(c, &f);
    if (!check_bone_blocks(c, &f)) return;
    check_animations(c, &f);
}

const mc_format_module mc_aamf_module = {MC_FORMAT_AAMF, "AAMF/SAMF", aamf_detect, aamf_validate};
