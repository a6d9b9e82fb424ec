/*
 * AEM (aem.md of github.com/janhsimon/aem, docs/formats/aem.md): a 40-byte
 * header of nine counts followed by nine fixed-size record sections. The
 * exact file size follows from the counts, so it is checked first: a file of
 * another size uses another layout (the version byte stayed 1 across three),
 * and checking its records would only produce a wall of follow-on errors.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aem_layouts.h"
#include "mc_format.h"
#include "mc_numeric.h"
#include "mc_reader.h"
#include "mc_rules.h"
#include "mc_struct.h"

enum {
    AEM_HEADER_SIZE = 40,
    AEM_VERTEX_SIZE = 92,
    AEM_NAME_SIZE = 128,
    AEM_BONE_SIZE = 80,
    AEM_ANIMATION_SIZE = 136,
    AEM_SEQUENCE_SIZE = 24,
    AEM_KEYFRAME_SIZE = 20
};

enum aem_section {
    SEC_VERTICES,
    SEC_INDICES,
    SEC_TEXTURES,
    SEC_MESHES,
    SEC_MATERIALS,
    SEC_BONES,
    SEC_ANIMATIONS,
    SEC_SEQUENCES,
    SEC_KEYFRAMES,
    SEC_COUNT
};

/* aem.md: header count order, record sizes and section order agree. */
static const uint32_t record_size[SEC_COUNT] = {AEM_VERTEX_SIZE, 4, AEM_NAME_SIZE, 12, 12,
                                                AEM_BONE_SIZE, AEM_ANIMATION_SIZE,
                                                AEM_SEQUENCE_SIZE, AEM_KEYFRAME_SIZE};
static const char *const section_name[SEC_COUNT] = {
    "vertices", "indices", "textures", "meshes", "materials",
    "bones", "animations", "sequences", "keyframes"};

typedef struct aem_file {
    uint32_t count[SEC_COUNT];
    uint64_t offset[SEC_COUNT]; /* start of each section */
    uint64_t end;               /* size the counts imply */
} aem_file;

static const char *const channel_name[3] = {"position", "rotation", "scale"};

/* Record layouts (aem.md), for inspect: field names are the issue paths'. */
static const mc_field header_fields[] = {
    {"magic", MC_FIELD_STRING, 0, 3, 0},          {"version", MC_FIELD_U8, 3, 1, 0},
    {"vertex_count", MC_FIELD_U32, 4, 1, 0},      {"index_count", MC_FIELD_U32, 8, 1, 0},
    {"texture_count", MC_FIELD_U32, 12, 1, 0},    {"mesh_count", MC_FIELD_U32, 16, 1, 0},
    {"material_count", MC_FIELD_U32, 20, 1, 0},   {"bone_count", MC_FIELD_U32, 24, 1, 0},
    {"animation_count", MC_FIELD_U32, 28, 1, 0},  {"sequence_count", MC_FIELD_U32, 32, 1, 0},
    {"keyframe_count", MC_FIELD_U32, 36, 1, 0}};
static const mc_field vertex_fields[] = {
    {"position", MC_FIELD_F32, 0, 3, 0},     {"normal", MC_FIELD_F32, 12, 3, 0},
    {"tangent", MC_FIELD_F32, 24, 3, 0},     {"bitangent", MC_FIELD_F32, 36, 3, 0},
    {"uv", MC_FIELD_F32, 48, 2, 0},          {"bone_indices", MC_FIELD_I32, 56, 4, 1},
    {"weights", MC_FIELD_F32, 72, 4, 1},     {"extra_bone_index", MC_FIELD_I32, 88, 1, 0}};
static const mc_field index_fields[] = {{"", MC_FIELD_U32, 0, 1, 0}};
static const mc_field texture_fields[] = {{"filename", MC_FIELD_STRING, 0, AEM_NAME_SIZE, 0}};
static const mc_field mesh_fields[] = {{"first_index", MC_FIELD_U32, 0, 1, 0},
                                       {"index_count", MC_FIELD_U32, 4, 1, 0},
                                       {"material", MC_FIELD_U32, 8, 1, 0}};
static const mc_field material_fields[] = {{"base_color", MC_FIELD_I32, 0, 1, 0},
                                           {"normal", MC_FIELD_I32, 4, 1, 0},
                                           {"orm", MC_FIELD_I32, 8, 1, 0}};
static const mc_field bone_fields[] = {{"inverse_bind_matrix", MC_FIELD_F32, 0, 16, 0},
                                       {"parent", MC_FIELD_I32, 64, 1, 0},
                                       {"padding", MC_FIELD_BYTES, 68, 12, 0}};
static const mc_field animation_fields[] = {{"name", MC_FIELD_STRING, 0, AEM_NAME_SIZE, 0},
                                            {"duration", MC_FIELD_F32, 128, 1, 0},
                                            {"sequence_index", MC_FIELD_U32, 132, 1, 0}};
static const mc_field sequence_fields[] = {{"position", MC_FIELD_U32, 0, 2, 0},
                                           {"rotation", MC_FIELD_U32, 8, 2, 0},
                                           {"scale", MC_FIELD_U32, 16, 2, 0}};
/* position and scale keys hold x, y, z and a zero w; rotation keys x, y, z, w */
static const mc_field keyframe_fields[] = {{"time", MC_FIELD_F32, 0, 1, 0},
                                           {"rotation", MC_FIELD_F32, 4, 3, 0},
                                           {"w", MC_FIELD_F32, 16, 1, 0}};

static bool aem_detect(const uint8_t *data, size_t size)
{
    return size >= 3 && memcmp(data, "AEM", 3) == 0;
}

/* A reader over a whole section; its offset and size were validated against
 * the file size in check_header. */
static mc_reader section(const mc_ctx *c, const aem_file *f, enum aem_section s)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, f->offset[s]);
    return mc_read_sub(&r, (size_t)f->count[s] * record_size[s]);
}

static mc_reader record(const mc_ctx *c, const aem_file *f, enum aem_section s, uint64_t i)
{
    mc_reader r = section(c, f, s);
    uint64_t at = UINT64_MAX;
    if (!mc_mul_u64(i, record_size[s], &at)) r.fail = true;
    mc_reader_seek(&r, at);
    return mc_read_sub(&r, record_size[s]);
}

/* ---- header ---- */

/* The header's counts imply f->end bytes; the file has another size.
 * other: what the 2025 layout's counts imply, NULL when its header does not
 * fit (docs/formats/aem2025.md, telling the layouts apart). */
static void report_size_mismatch(mc_ctx *c, const aem_file *f, const uint64_t *other)
{
    char also[64] = "";
    if (other) snprintf(also, sizeof also, " (as the 2025 layout they imply %" PRIu64 " bytes)", *other);
    if (c->size > f->end) {
        mc_instance *in = mc_emit(c, MC_AEM_TRAILING_BYTES, f->end);
        mc_path(in, "/");
        mc_msg(in, "%" PRIu64 " bytes after the last section: header counts imply %" PRIu64
               " bytes, file has %zu%s",
               (uint64_t)c->size - f->end, f->end, c->size,
               other ? also : " (another AEM layout with version 1?)");
        return;
    }
    int s = SEC_COUNT - 1;
    while (s > 0 && f->offset[s] > c->size) s--;
    char path[32];
    snprintf(path, sizeof path, "/%s", section_name[s]);
    mc_truncated(c, MC_AEM_TRUNCATED, path, "file ends inside the %s section (%" PRIu32 " x %" PRIu32
                 " bytes from 0x%" PRIx64 "): header counts imply %" PRIu64 " bytes, file has %zu%s",
                 section_name[s], f->count[s], record_size[s], f->offset[s], f->end, c->size, also);
}

static bool read_header(mc_ctx *c, aem_file *f);

enum aem_layout { LAYOUT_NONE, LAYOUT_AEM1, LAYOUT_2025 };

static enum aem_layout which_layout(mc_ctx *c, const aem_file *f);

/* aem.md, File Header: magic, version 1, then the counts fix every section's
 * place and the size they imply, and with them the layout (LAYOUT_NONE when
 * the header cannot be read or no layout fits). The header node stays
 * entered until the layout is known: a 2025 file's header is 52 bytes of
 * other fields. */
static enum aem_layout check_header(mc_ctx *c, aem_file *f)
{
    mc_s_enter(c, "header", "header", 0, c->size < AEM_HEADER_SIZE ? c->size : AEM_HEADER_SIZE);
    mc_s_layout(c, MC_FIELDS(header_fields));
    enum aem_layout layout = read_header(c, f) ? which_layout(c, f) : LAYOUT_NONE;
    if (layout == LAYOUT_2025) mc_aem2025_report_header(c);
    mc_s_leave(c);
    return layout;
}

static bool read_header(mc_ctx *c, aem_file *f)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    const uint8_t *magic = mc_read_bytes(&r, 3);
    if (!magic || memcmp(magic, "AEM", 3) != 0) {
        mc_instance *in = mc_emit(c, MC_AEM_BAD_MAGIC, 0);
        mc_path(in, "/header/magic");
        mc_msg(in, "magic bytes are %02x %02x %02x (expected \"AEM\": 41 45 4d)", c->size > 0 ? c->data[0] : 0,
               c->size > 1 ? c->data[1] : 0, c->size > 2 ? c->data[2] : 0);
    }
    uint8_t version = mc_read_u8(&r);
    if (!r.fail && version != 1) {
        mc_instance *in = mc_emit(c, MC_AEM_UNSUPPORTED_VERSION, 3);
        mc_path(in, "/header/version");
        mc_msg(in, "version is %u (expected 1)", version);
        return false;
    }
    if (c->size < AEM_HEADER_SIZE) {
        mc_truncated(c, MC_AEM_TRUNCATED, "/header", "file is %zu bytes; the header alone needs %d",
                     c->size, AEM_HEADER_SIZE);
        return false;
    }
    uint64_t end = AEM_HEADER_SIZE;
    for (int s = 0; s < SEC_COUNT; s++) {
        f->count[s] = mc_read_u32(&r);
        f->offset[s] = end;
        if (!mc_add_mul_u64(&end, f->count[s], record_size[s])) end = UINT64_MAX;
    }
    f->end = end;
    return true;
}

static uint64_t distance(uint64_t end, size_t size)
{
    return end > size ? end - size : size - end;
}

/* docs/formats/aem2025.md, telling the layouts apart: a file is in the
 * layout whose header counts give its exact size. Both, or neither: one
 * error naming both layouts' arithmetic (for neither, in the terms of the
 * nearer one, aem1 on a tie), and no record checks, which would only add a
 * wall of follow-on errors. */
static enum aem_layout which_layout(mc_ctx *c, const aem_file *f)
{
    uint64_t end2025 = 0;
    bool has2025 = mc_aem2025_implied_size(c->data, c->size, &end2025);
    bool fits1 = f->end == c->size, fits2 = has2025 && end2025 == c->size;
    if (fits1 && fits2) {
        mc_instance *in = mc_emit(c, MC_AEM_LAYOUT_AMBIGUOUS, 0);
        mc_path(in, "/header");
        mc_msg(in, "the header counts give the file size (%zu bytes) both as aem1 (40-byte header, "
               "92-byte vertices) and as the 2025 layout (52-byte header, 88-byte vertices): the layout cannot be told",
               c->size);
        return LAYOUT_NONE;
    }
    if (fits1) return LAYOUT_AEM1;
    if (fits2) return LAYOUT_2025;
    if (has2025 && distance(end2025, c->size) < distance(f->end, c->size))
        mc_aem2025_report_size(c, f->end);
    else
        report_size_mismatch(c, f, has2025 ? &end2025 : NULL);
    return LAYOUT_NONE;
}

/* ---- vertices ---- */

typedef struct aem_vertex {
    float attr[14]; /* position 3, normal 3, tangent 3, bitangent 3, uv 2 */
    int32_t bone[4];
    float weight[4];
    int32_t extra;
} aem_vertex;

static const struct {
    const char *name;
    unsigned first, n;
} vertex_attrs[] = {{"position", 0, 3}, {"normal", 3, 3}, {"tangent", 6, 3},
                    {"bitangent", 9, 3}, {"uv", 12, 2}};

static void read_vertex(mc_reader *r, aem_vertex *v)
{
    _Static_assert(sizeof *v == AEM_VERTEX_SIZE, "aem_vertex is the 92-byte record");
    if (MC_HOST_LE) {
        mc_read_record(r, v, sizeof *v);
        return;
    }
    mc_read_f32s(r, v->attr, 14);
    for (int j = 0; j < 4; j++) v->bone[j] = mc_read_i32(r);
    mc_read_f32s(r, v->weight, 4);
    v->extra = mc_read_i32(r);
}

/* A finite normal: unit length, or (0, 0, 0) for none (counted in zero,
 * reported once per mesh); mc_normal_judge decides. */
static void check_normal(mc_ctx *c, uint64_t at, uint64_t i, const float n[3],
                         mc_zero_normals *zero)
{
    switch (mc_normal_judge(c, n)) {
    case MC_NORMAL_ZERO:
        mc_zero_normals_add(zero, at, i);
        break;
    case MC_NORMAL_NOT_UNIT: {
        mc_instance *in = mc_emit(c, MC_AEM_NORMAL_NOT_UNIT, at);
        mc_path(in, "/vertices/%" PRIu64 "/normal", i);
        mc_msg(in, "vertex %" PRIu64 ": normal length is %.6f (expected 1 +- %g)", i,
               mc_length(n, 3), c->opt->unit_tolerance);
        break;
    }
    case MC_NORMAL_UNIT:
    case MC_NORMAL_NOT_FINITE: /* reported by the caller as VERTEX_NOT_FINITE */
        break;
    }
}

/* aem.md, Vertex Section: Float fields are finite; the normal is unit
 * length or, without one, all zero (counted in zero, reported once);
 * tangent and bitangent are unit length or, without a tangent frame, all
 * zero. */
static void check_vertex_vectors(mc_ctx *c, uint64_t off, uint64_t i, const aem_vertex *v,
                                 mc_zero_normals *zero)
{
    for (size_t a = 0; a < sizeof vertex_attrs / sizeof vertex_attrs[0]; a++) {
        const float *x = v->attr + vertex_attrs[a].first;
        unsigned n = vertex_attrs[a].n;
        uint64_t at = off + 4u * vertex_attrs[a].first;
        if (!mc_all_finite(x, n)) {
            mc_instance *in = mc_emit(c, MC_AEM_VERTEX_NOT_FINITE, at);
            mc_path(in, "/vertices/%" PRIu64 "/%s", i, vertex_attrs[a].name);
            mc_msg(in, "vertex %" PRIu64 ": %s holds NaN or infinity", i, vertex_attrs[a].name);
            continue;
        }
        if (a == 0 || a == 4) continue;
        if (a == 1) {
            check_normal(c, at, i, x, zero);
            continue;
        }
        if (mc_all_zero(x, 3)) {
            mc_instance *in = mc_emit(c, MC_AEM_TANGENT_ZERO, at);
            mc_path(in, "/vertices/%" PRIu64 "/%s", i, vertex_attrs[a].name);
            mc_msg(in, "vertex %" PRIu64 ": %s is (0, 0, 0)", i, vertex_attrs[a].name);
        } else if (!mc_is_unit(x, 3, c->opt->unit_tolerance)) {
            mc_instance *in = mc_emit(c, MC_AEM_TANGENT_NOT_UNIT, at);
            mc_path(in, "/vertices/%" PRIu64 "/%s", i, vertex_attrs[a].name);
            mc_msg(in, "vertex %" PRIu64 ": %s length is %.6f (expected 1 +- %g, or all zero)", i,
                   vertex_attrs[a].name, mc_length(x, 3), c->opt->unit_tolerance);
        }
    }
}

static bool bone_in_range(int32_t b, uint32_t bones)
{
    return b >= 0 && (uint32_t)b < bones;
}

bool mc_aem_slot_weight(mc_ctx *c, const mc_aem_slot_codes *codes, uint64_t wat, uint64_t i,
                        int j, float w, int32_t b)
{
    if (!isfinite(w) || w < 0.0f || w > 1.0f) {
        mc_instance *in = mc_emit(c, codes->weight_range, wat);
        mc_path(in, "/vertices/%" PRIu64 "/weights/%d", i, j);
        mc_msg(in, "vertex %" PRIu64 ": weight %d is %g (expected within [0, 1])", i, j, (double)w);
    }
    if (b != -1) return true;
    if (w != 0.0f) {
        mc_instance *in = mc_emit(c, codes->unused_slot_weight, wat);
        mc_path(in, "/vertices/%" PRIu64 "/weights/%d", i, j);
        mc_msg(in, "vertex %" PRIu64 ": slot %d has %s index -1 but weight %g (expected 0)", i, j,
               codes->word, (double)w);
    }
    return false;
}

/* aem.md, Vertex Section: slot-wise rules for indices and weights. Returns
 * the number of influences (index set, weight > 0). */
static unsigned check_vertex_slots(mc_ctx *c, const aem_file *f, uint64_t off, uint64_t i,
                                   const aem_vertex *v)
{
    unsigned influences = 0;
    for (int j = 0; j < 4; j++) {
        float w = v->weight[j];
        int32_t b = v->bone[j];
        uint64_t wat = off + 72 + 4u * (unsigned)j, bat = off + 56 + 4u * (unsigned)j;
        static const mc_aem_slot_codes codes = {MC_AEM_WEIGHT_RANGE, MC_AEM_UNUSED_SLOT_WEIGHT, "bone"};
        if (!mc_aem_slot_weight(c, &codes, wat, i, j, w, b)) continue;
        if (!bone_in_range(b, f->count[SEC_BONES])) {
            mc_instance *in = mc_emit(c, MC_AEM_BONE_INDEX_RANGE, bat);
            mc_path(in, "/vertices/%" PRIu64 "/bone_indices/%d", i, j);
            mc_msg(in, "vertex %" PRIu64 ": bone index %" PRId32 " (expected -1 or < bone count %" PRIu32 ")",
                   i, b, f->count[SEC_BONES]);
        }
        if (w > 0.0f) influences++;
        for (int k = 0; k < j; k++) {
            if (v->bone[k] != b) continue;
            mc_instance *in = mc_emit(c, MC_AEM_DUPLICATE_BONE_INDEX, bat);
            mc_path(in, "/vertices/%" PRIu64 "/bone_indices/%d", i, j);
            mc_msg(in, "vertex %" PRIu64 ": bone %" PRId32 " appears in slots %d and %d", i, b, k, j);
            break;
        }
    }
    return influences;
}

/* aem.md, Vertex Section: "The sum of all bone weights is always 1";
 * docs/formats/aem.md: the exporter's unskinned vertex (all -1, all 0) has its own
 * code. The tolerance grows with the number of non-zero weights, as in the
 * glTF-Validator. */
static void check_vertex_weight_sum(mc_ctx *c, uint64_t off, uint64_t i, const aem_vertex *v)
{
    bool unskinned = true, finite = true;
    double sum = 0.0;
    unsigned nonzero = 0;
    for (int j = 0; j < 4; j++) {
        if (v->bone[j] != -1 || v->weight[j] != 0.0f) unskinned = false;
        if (!isfinite(v->weight[j])) finite = false;
        sum += (double)v->weight[j];
        nonzero += v->weight[j] != 0.0f;
    }
    if (unskinned) {
        mc_instance *in = mc_emit(c, MC_AEM_UNSKINNED_VERTEX, off + 56);
        mc_path(in, "/vertices/%" PRIu64 "/bone_indices", i);
        mc_msg(in, "vertex %" PRIu64 ": no bone (indices -1, weights 0): weights sum to 0, the spec says 1",
               i);
        return;
    }
    bool skinned = v->bone[0] != -1 || v->bone[1] != -1 || v->bone[2] != -1 || v->bone[3] != -1;
    if (!skinned || !finite) return; /* reported per slot already */
    double tol = c->opt->weight_sum_tolerance * (nonzero ? nonzero : 1);
    if (fabs(sum - 1.0) > tol) {
        mc_instance *in = mc_emit(c, MC_AEM_WEIGHT_SUM, off + 72);
        mc_path(in, "/vertices/%" PRIu64 "/weights", i);
        mc_msg(in, "vertex %" PRIu64 ": weights sum to %.6f (expected 1 +- %g)", i, sum, tol);
    }
}

static bool slot_bone_ok(int32_t b, const void *bones)
{
    return bone_in_range(b, *(const uint32_t *)bones);
}

/* The clean path (issue 16): true when the vertex certainly passes every
 * check above, judged in float against precomputed bounds (no square root,
 * no offsets, no paths); its influences are counted. Anything else goes
 * through the exact checks, which alone report, so verdicts and messages
 * do not depend on this shortcut. */
static bool vertex_surely_clean(const aem_vertex *v, uint32_t bones, mc_unit_bounds unit,
                                double weight_tolerance, unsigned *influences)
{
    const float *a = v->attr;
    if (!(isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]) && isfinite(a[12]) &&
          isfinite(a[13])))
        return false;
    /* normal, tangent, bitangent: unit length (zero tangents are issues) */
    if (!(mc_surely_unit(a + 3, 3, unit) && mc_surely_unit(a + 6, 3, unit) &&
          mc_surely_unit(a + 9, 3, unit)))
        return false;
    mc_slots t;
    if (!mc_slots_surely_clean(v->bone, v->weight, slot_bone_ok, &bones, &t) || !t.skinned)
        return false;
    if (!(fabs(t.sum - 1.0) <= weight_tolerance * (t.nonzero ? t.nonzero : 1))) return false;
    if (v->extra != -1 && !bone_in_range(v->extra, bones)) return false;
    *influences = t.influences;
    return true;
}

static int32_t vertex_extra(const mc_ctx *c, const aem_file *f, uint32_t v)
{
    mc_reader r = record(c, f, SEC_VERTICES, v);
    mc_reader_skip(&r, 88);
    return mc_read_i32(&r);
}

/* What the vertex loop leaves behind besides its issues. */
typedef struct vertex_tally {
    uint32_t max_influences;
    mc_zero_normals zero;
    int32_t extra0;  /* vertex 0's extra bone */
    bool extra_same; /* every vertex so far has extra0 (starts false without clean paths) */
} vertex_tally;

/* One vertex: the clean path, else the exact checks, which alone report. */
MC_HOT_FN static void check_vertex(mc_ctx *c, const aem_file *f, uint64_t i, vertex_tally *t)
{
    uint32_t bones = f->count[SEC_BONES];
    mc_reader r = record(c, f, SEC_VERTICES, i);
    aem_vertex v;
    read_vertex(&r, &v);
    if (r.fail) return; /* unreachable after check_size; never read garbage */
    t->extra_same &= v.extra == t->extra0;
    unsigned fast;
    if (c->fast && vertex_surely_clean(&v, bones, c->unit, c->opt->weight_sum_tolerance, &fast)) {
        if (fast > t->max_influences) t->max_influences = fast;
        return;
    }
    uint64_t off = f->offset[SEC_VERTICES] + i * AEM_VERTEX_SIZE;
    check_vertex_vectors(c, off, i, &v, &t->zero);
    unsigned inf = check_vertex_slots(c, f, off, i, &v);
    if (inf > t->max_influences) t->max_influences = inf;
    check_vertex_weight_sum(c, off, i, &v);
    if (v.extra != -1 && !bone_in_range(v.extra, bones)) {
        mc_instance *in = mc_emit(c, MC_AEM_EXTRA_BONE_RANGE, off + 88);
        mc_path(in, "/vertices/%" PRIu64 "/extra_bone_index", i);
        mc_msg(in, "vertex %" PRIu64 ": extra bone index %" PRId32 " (expected -1 or < bone count %" PRIu32 ")",
               i, v.extra, bones);
    }
}

/* Vertices judged together by the clean path: one decision per chunk. */
enum { AEM_CHUNK = 64 };

#if defined(MC_LANES)
/*
 * The clean path of a chunk (issue 16): vertex_surely_clean of n vertices
 * (a multiple of four) at p, four at a time in lanes (mc_numeric.h), read
 * in place. True when every one of them passes every vertex check; then
 * their influences are folded into t, and whether their extra bones all
 * equal extra0. False at any doubt, with t untouched: the chunk goes
 * vertex by vertex (check_vertex). The rules, lane by lane, are those of
 * vertex_surely_clean: finite position and uv, surely unit normal, tangent
 * and bitangent (words 3-11), the slot rules with bones in [0, bones), a
 * skinned vertex whose weights sum to 1 (the exact double rule), an extra
 * bone of -1 or in range.
 */
MC_HOT_FN static bool chunk_surely_clean(const mc_ctx *c, const uint8_t *p, uint64_t n, uint32_t bones,
                                         vertex_tally *t)
{
    /* bone_in_range as a signed range; a count past INT32_MAX (no file has
     * one) only declines more */
    int32_t bone_hi = bones > INT32_MAX ? INT32_MAX : (int32_t)bones - 1;
    const __m128i extra0 = _mm_set1_epi32(t->extra0), none = _mm_set1_epi32(-1);
    __m128 ok = _mm_castsi128_ps(none);
    __m128i influences = _mm_setzero_si128(), differ = _mm_setzero_si128();
    for (uint64_t i = 0; i < n; i += 4, p += 4 * AEM_VERTEX_SIZE) {
        /* block by block (words 0-3, 4-7, ...; the last at 19-22), each
         * judged as soon as it is loaded */
        __m128 w[AEM_VERTEX_SIZE / 4];
        mc_lanes_block(p, AEM_VERTEX_SIZE, 0, w);
        __m128 v = _mm_and_ps(_mm_and_ps(mc_lanes_finite(w[0]), mc_lanes_finite(w[1])),
                              mc_lanes_finite(w[2]));
        mc_lanes_block(p, AEM_VERTEX_SIZE, 4, w);
        v = _mm_and_ps(v, mc_lanes_surely_unit3(w[3], w[4], w[5], c->unit));
        mc_lanes_block(p, AEM_VERTEX_SIZE, 8, w);
        v = _mm_and_ps(v, mc_lanes_surely_unit3(w[6], w[7], w[8], c->unit));
        v = _mm_and_ps(v, mc_lanes_surely_unit3(w[9], w[10], w[11], c->unit));
        mc_lanes_block(p, AEM_VERTEX_SIZE, 12, w);
        v = _mm_and_ps(v, _mm_and_ps(mc_lanes_finite(w[12]), mc_lanes_finite(w[13])));
        mc_lanes_block(p, AEM_VERTEX_SIZE, 16, w);
        mc_lanes_block(p, AEM_VERTEX_SIZE, 19, w);
        mc_lanes_slots s = mc_lanes_slots_judge(w + 14, w + 18, 0, bone_hi);
        v = _mm_and_ps(v, _mm_and_ps(s.ok, s.skinned));
        v = _mm_and_ps(v, mc_lanes_weight_sum_ok(w + 18, c->opt->weight_sum_tolerance));
        __m128i e = mc_lanes_i32(w[22]);
        __m128i e_ok = _mm_or_si128(_mm_cmpeq_epi32(e, none),
                                    _mm_andnot_si128(_mm_cmpgt_epi32(e, _mm_set1_epi32(bone_hi)),
                                                     _mm_cmpgt_epi32(e, none)));
        ok = _mm_and_ps(ok, _mm_and_ps(v, _mm_castsi128_ps(e_ok)));
        influences = mc_lanes_max_count(influences, s.influences);
        differ = _mm_or_si128(differ, _mm_xor_si128(e, extra0));
    }
    if (!mc_lanes_all(ok)) return false;
    t->max_influences = mc_lanes_fold_max(influences, t->max_influences);
    t->extra_same &= _mm_movemask_epi8(_mm_cmpeq_epi32(differ, _mm_setzero_si128())) == 0xFFFF;
    return true;
}
#endif

/* The vertex section's positions and weights as the structure sink sees
 * them: the same views for mc_s_walked and report_mesh. */
static mc_view vertex_view(const mc_ctx *c, const aem_file *f, uint64_t at, mc_field_type type,
                           uint32_t width)
{
    uint64_t vbytes = (uint64_t)f->count[SEC_VERTICES] * AEM_VERTEX_SIZE;
    return (mc_view){c->data + f->offset[SEC_VERTICES] + at, mc_view_bytes(vbytes >= at ? vbytes - at : 0),
                     f->count[SEC_VERTICES], AEM_VERTEX_SIZE, type, width};
}

/* Returns whether every vertex has the same extra bone, as far as the
 * clean paths know (false when they are off): the meshes' extra-bone
 * consistency then holds without a walk. */
MC_HOT_FN static bool check_vertices(mc_ctx *c, const aem_file *f)
{
    uint64_t n = f->count[SEC_VERTICES];
    vertex_tally t = {0, {0}, n ? vertex_extra(c, f, 0) : -1, c->fast};
    mc_view pos = {0}, weights = {0};
    if (c->sink) { /* the meshes' geometry, summed as the chunks pass */
        pos = vertex_view(c, f, 0, MC_FIELD_F32, 3);
        weights = vertex_view(c, f, 72, MC_FIELD_F32, 4);
    }
    for (uint64_t i = 0; i < n;) {
        uint64_t end = n - i > AEM_CHUNK ? i + AEM_CHUNK : n;
#if defined(MC_LANES)
        /* in place: the section lies inside the file (check_header) */
        const uint8_t *p = c->data + f->offset[SEC_VERTICES] + i * AEM_VERTEX_SIZE;
        if (c->fast && MC_HOST_LE && (end - i) % 4 == 0 &&
            chunk_surely_clean(c, p, end - i, f->count[SEC_BONES], &t)) {
            mc_s_walked(c, &pos, &weights, 0, i, end - i);
            i = end;
            continue;
        }
#endif
        uint64_t i0 = i;
        for (; i < end; i++) check_vertex(c, f, i, &t);
        mc_s_walked(c, &pos, &weights, 0, i0, end - i0); /* in cache now */
    }
    c->info->max_influences = t.max_influences;
    if (t.zero.count) { /* the vertex section is every mesh's: one warning */
        mc_instance *in = mc_emit(c, MC_AEM_NORMAL_ZERO, t.zero.first_offset);
        mc_path(in, "/vertices/%" PRIu64 "/normal", t.zero.first_vertex);
        mc_zero_normals_msg(in, &t.zero, "vertex section", f->count[SEC_VERTICES]);
    }
    return t.extra_same;
}

/* ---- indices ---- */

/* Indices judged together by the clean path: one decision per chunk. */
enum { AEM_INDEX_CHUNK = 256 };

/* aem.md, Index Section: indices index into the vertex section. */
MC_HOT_FN static void check_indices(mc_ctx *c, const aem_file *f)
{
    mc_reader r = section(c, f, SEC_INDICES);
    uint64_t n = f->count[SEC_INDICES];
    for (uint64_t k = 0; k < n; k++) {
        /* the clean path (issue 16): a chunk with every index in range */
        if (c->fast && k % AEM_INDEX_CHUNK == 0 && n - k >= AEM_INDEX_CHUNK &&
            mc_u32s_surely_below(r.p + r.pos, AEM_INDEX_CHUNK, f->count[SEC_VERTICES])) {
            mc_reader_skip(&r, 4 * AEM_INDEX_CHUNK);
            k += AEM_INDEX_CHUNK - 1;
            continue;
        }
        uint32_t idx = mc_read_u32(&r);
        if (r.fail) return;
        if (idx < f->count[SEC_VERTICES]) continue;
        mc_instance *in = mc_emit(c, MC_AEM_INDEX_RANGE, f->offset[SEC_INDICES] + 4 * k);
        mc_path(in, "/indices/%" PRIu64, k);
        mc_msg(in, "index %" PRIu32 " (expected < vertex count %" PRIu32 ")", idx,
               f->count[SEC_VERTICES]);
    }
}

/* ---- names ---- */

/* aem.md: names are NUL-terminated within 128 bytes; docs/formats/aem.md: bytes
 * after the NUL are not zeroed by the exporter (info only). Returns the
 * length, or -1 when unterminated. */
static int check_name(mc_ctx *c, uint64_t off, const uint8_t *b, const char *path_prefix,
                      uint64_t i, const char *field)
{
    const uint8_t *nul = memchr(b, 0, AEM_NAME_SIZE);
    if (!nul) {
        mc_instance *in = mc_emit(c, MC_AEM_STRING_UNTERMINATED, off);
        mc_path(in, "/%s/%" PRIu64 "/%s", path_prefix, i, field);
        mc_msg(in, "no NUL terminator within the %d-byte %s field", AEM_NAME_SIZE, field);
        return -1;
    }
    int len = (int)(nul - b);
    for (int k = len + 1; k < AEM_NAME_SIZE; k++) {
        if (b[k] == 0) continue;
        mc_instance *in = mc_emit(c, MC_AEM_STRING_TRAILING_BYTES, off + (uint64_t)k);
        mc_path(in, "/%s/%" PRIu64 "/%s", path_prefix, i, field);
        mc_msg(in, "byte %d after the terminator at %d is 0x%02x (expected 0)", k, len, b[k]);
        break;
    }
    return len;
}

static void check_textures(mc_ctx *c, const aem_file *f)
{
    for (uint64_t i = 0; i < f->count[SEC_TEXTURES]; i++) {
        mc_reader r = record(c, f, SEC_TEXTURES, i);
        const uint8_t *b = mc_read_bytes(&r, AEM_NAME_SIZE);
        if (!b) return;
        uint64_t off = f->offset[SEC_TEXTURES] + i * AEM_NAME_SIZE;
        mc_s_enter_index(c, "texture", i, off, AEM_NAME_SIZE);
        mc_s_layout(c, MC_FIELDS(texture_fields));
        mc_s_str(c, "filename", b, AEM_NAME_SIZE);
        mc_s_leave(c);
        if (check_name(c, off, b, "textures", i, "filename") == 0) {
            mc_instance *in = mc_emit(c, MC_AEM_TEXTURE_NAME_EMPTY, off);
            mc_path(in, "/textures/%" PRIu64 "/filename", i);
            mc_msg(in, "texture %" PRIu64 ": filename is empty", i);
        }
    }
}

/* ---- meshes ---- */

/* aem.md, Vertex Section: the extra bone applies to all vertices of a mesh,
 * so every vertex the mesh references should carry the same one. Meshes may
 * overlap, so the visits are paid from the work budget. */
static void check_mesh_extra_bone(mc_ctx *c, const aem_file *f, uint64_t m, uint64_t moff,
                                  uint32_t first, uint32_t count, bool extra_same)
{
    if (count == 0 || !mc_work(c, count, moff, "mesh extra-bone consistency")) return;
    /* the clean path saw one extra bone in every vertex: no mismatch can be
     * found, and the walk would read every referenced vertex again */
    if (extra_same) return;
    mc_reader r = section(c, f, SEC_INDICES);
    mc_reader_skip(&r, (size_t)first * 4u);
    int32_t expect = 0;
    uint32_t expect_vertex = 0;
    bool have = false;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t v = mc_read_u32(&r);
        if (r.fail) return;
        if (v >= f->count[SEC_VERTICES]) continue; /* AEM_INDEX_RANGE */
        int32_t e = vertex_extra(c, f, v);
        if (!have) {
            expect = e;
            expect_vertex = v;
            have = true;
        } else if (e != expect) {
            mc_instance *in = mc_emit(c, MC_AEM_MESH_EXTRA_BONE_MISMATCH, moff);
            mc_path(in, "/meshes/%" PRIu64, m);
            mc_msg(in, "mesh %" PRIu64 ": vertex %" PRIu32 " has extra bone %" PRId32
                   ", vertex %" PRIu32 " has %" PRId32 " (expected one per mesh)",
                   m, v, e, expect_vertex, expect);
            return;
        }
    }
}

/* inspect: one mesh record, its counts and geometry (the vertices summed
 * by check_vertices) */
static void report_mesh(mc_ctx *c, const aem_file *f, uint64_t m, uint32_t first,
                        uint32_t count, uint32_t material, bool in_range)
{
    mc_s_enter_index(c, "mesh", m, f->offset[SEC_MESHES] + m * 12, 12);
    mc_s_layout(c, MC_FIELDS(mesh_fields));
    mc_s_u64(c, "indices", count);
    mc_s_u64(c, "triangles", count / 3);
    mc_s_u64(c, "material", material);
    if (in_range) {
        mc_geometry g = {
            vertex_view(c, f, 0, MC_FIELD_F32, 3),
            {c->data + f->offset[SEC_INDICES] + 4u * (uint64_t)first, mc_view_bytes(4u * (uint64_t)count), count, 4,
             MC_FIELD_U32, 1},
            vertex_view(c, f, 72, MC_FIELD_F32, 4),
            3, true, false, 0};
        mc_sink_geometry(c->sink, &g);
    }
    mc_s_leave(c);
}

static void check_meshes(mc_ctx *c, const aem_file *f, bool extra_same)
{
    uint64_t triangles = 0;
    for (uint64_t m = 0; m < f->count[SEC_MESHES]; m++) {
        mc_reader r = record(c, f, SEC_MESHES, m);
        uint32_t first = mc_read_u32(&r), count = mc_read_u32(&r), material = mc_read_u32(&r);
        if (r.fail) return;
        uint64_t off = f->offset[SEC_MESHES] + m * 12;
        bool in_range = (uint64_t)first + count <= f->count[SEC_INDICES];
        if (!in_range) {
            mc_instance *in = mc_emit(c, MC_AEM_MESH_RANGE, off);
            mc_path(in, "/meshes/%" PRIu64 "/first_index", m);
            mc_msg(in, "mesh %" PRIu64 ": indices [%" PRIu32 ", %" PRIu64 ") exceed the index count %" PRIu32,
                   m, first, (uint64_t)first + count, f->count[SEC_INDICES]);
        }
        if (count % 3 != 0) {
            mc_instance *in = mc_emit(c, MC_AEM_MESH_NOT_TRIANGLES, off + 4);
            mc_path(in, "/meshes/%" PRIu64 "/index_count", m);
            mc_msg(in, "mesh %" PRIu64 ": %" PRIu32 " indices is not a multiple of 3", m, count);
        }
        if (material >= f->count[SEC_MATERIALS]) {
            mc_instance *in = mc_emit(c, MC_AEM_MESH_MATERIAL_RANGE, off + 8);
            mc_path(in, "/meshes/%" PRIu64 "/material", m);
            mc_msg(in, "mesh %" PRIu64 ": material %" PRIu32 " (expected < material count %" PRIu32 ")",
                   m, material, f->count[SEC_MATERIALS]);
        }
        if (in_range) {
            triangles += count / 3;
            check_mesh_extra_bone(c, f, m, off, first, count, extra_same);
        }
        if (c->sink) report_mesh(c, f, m, first, count, material, in_range);
    }
    c->info->triangles = triangles;
}

/* ---- materials ---- */

/* aem.md, Material Section: 255 means "not defined"; docs/formats/aem.md: the
 * exporter writes -1 instead. Anything else must name a texture. */
static void check_materials(mc_ctx *c, const aem_file *f)
{
    static const char *const slot[3] = {"base_color", "normal", "orm"};
    uint32_t textures = f->count[SEC_TEXTURES];
    for (uint64_t m = 0; m < f->count[SEC_MATERIALS]; m++) {
        mc_reader r = record(c, f, SEC_MATERIALS, m);
        if (c->sink) {
            mc_s_enter_index(c, "material", m, f->offset[SEC_MATERIALS] + m * 12, 12);
            mc_s_layout(c, MC_FIELDS(material_fields));
            mc_reader q = r;
            for (int k = 0; k < 3; k++) mc_s_i64(c, slot[k], mc_read_i32(&q));
            mc_s_leave(c);
        }
        for (int s = 0; s < 3; s++) {
            int32_t t = mc_read_i32(&r);
            if (r.fail) return;
            uint64_t off = f->offset[SEC_MATERIALS] + m * 12 + 4u * (unsigned)s;
            mc_code code;
            if (t == 255 && textures > 255)
                code = MC_AEM_MATERIAL_SENTINEL_AMBIGUOUS;
            else if (t == 255 || (t >= 0 && (uint32_t)t < textures))
                continue;
            else if (t == -1)
                code = MC_AEM_MATERIAL_TEXTURE_MINUS_ONE;
            else
                code = MC_AEM_MATERIAL_TEXTURE_RANGE;
            mc_instance *in = mc_emit(c, code, off);
            mc_path(in, "/materials/%" PRIu64 "/%s", m, slot[s]);
            mc_msg(in, "material %" PRIu64 ": %s texture index %" PRId32
                   " (expected 255 for none, or < texture count %" PRIu32 ")",
                   m, slot[s], t, textures);
        }
    }
}

/* ---- bones ---- */

/* The last row of an affine matrix is exactly (0, 0, 0, 1) up to the
 * rounding of the exporter's float inverse. */
#define AEM_AFFINE_TOLERANCE 1e-5

static void check_bone_matrix(mc_ctx *c, uint64_t off, uint64_t i, const float m[16])
{
    mc_code code;
    const char *what;
    if (!mc_all_finite(m, 16)) {
        code = MC_AEM_BONE_MATRIX_NOT_FINITE;
        what = "holds NaN or infinity";
    } else if (fabs(m[3]) > AEM_AFFINE_TOLERANCE || fabs(m[7]) > AEM_AFFINE_TOLERANCE ||
               fabs(m[11]) > AEM_AFFINE_TOLERANCE || fabs(m[15] - 1.0) > AEM_AFFINE_TOLERANCE) {
        code = MC_AEM_BONE_MATRIX_NOT_AFFINE;
        what = "last row is not (0, 0, 0, 1)";
    } else if (!mc_mat4_linear_invertible(m)) {
        code = MC_AEM_BONE_MATRIX_SINGULAR;
        what = "is singular (its 3x3 part has no inverse)";
    } else {
        return;
    }
    mc_instance *in = mc_emit(c, code, off);
    mc_path(in, "/bones/%" PRIu64 "/inverse_bind_matrix", i);
    if (code == MC_AEM_BONE_MATRIX_NOT_AFFINE)
        mc_msg(in, "bone %" PRIu64 ": inverse bind matrix %s: (%g, %g, %g, %g)", i, what,
               (double)m[3], (double)m[7], (double)m[11], (double)m[15]);
    else
        mc_msg(in, "bone %" PRIu64 ": inverse bind matrix %s", i, what);
}

static void check_bones(mc_ctx *c, const aem_file *f)
{
    static const uint8_t zero[12];
    for (uint64_t i = 0; i < f->count[SEC_BONES]; i++) {
        mc_reader r = record(c, f, SEC_BONES, i);
        float m[16];
        mc_read_f32s(&r, m, 16);
        int32_t parent = mc_read_i32(&r);
        const uint8_t *pad = mc_read_bytes(&r, 12);
        if (r.fail) return;
        uint64_t off = f->offset[SEC_BONES] + i * AEM_BONE_SIZE;
        mc_s_enter_index(c, "bone", i, off, AEM_BONE_SIZE);
        mc_s_layout(c, MC_FIELDS(bone_fields));
        mc_s_i64(c, "parent", parent);
        mc_s_leave(c);
        check_bone_matrix(c, off, i, m);
        /* aem.md, Bone Section; docs/formats/aem.md: parents come first (the loader
         * walks parents unbounded: self or forward parents loop, large ones
         * crash). */
        static const mc_parent_codes parent_codes = {
            MC_AEM_BONE_PARENT_SELF, MC_AEM_BONE_PARENT_FORWARD, MC_AEM_BONE_PARENT_RANGE};
        mc_check_parent(c, off + 64, i, parent, f->count[SEC_BONES], &parent_codes);
        if (memcmp(pad, zero, sizeof zero) != 0) {
            mc_instance *in = mc_emit(c, MC_AEM_BONE_PADDING, off + 68);
            mc_path(in, "/bones/%" PRIu64 "/padding", i);
            mc_msg(in, "bone %" PRIu64 ": padding bytes are not zero", i);
        }
    }
}

/* ---- animations, sequences, keyframes ---- */

typedef struct aem_animation {
    float duration;
    uint32_t sequence_index;
    bool duration_ok;
    bool range_ok;
} aem_animation;

static aem_animation read_animation(mc_reader *r)
{
    aem_animation a;
    mc_reader_skip(r, AEM_NAME_SIZE);
    a.duration = mc_read_f32(r);
    a.sequence_index = mc_read_u32(r);
    a.duration_ok = isfinite(a.duration) && a.duration > 0.0f;
    a.range_ok = false;
    return a;
}

static void check_animation(mc_ctx *c, const aem_file *f, uint64_t i, aem_animation *a)
{
    uint64_t off = f->offset[SEC_ANIMATIONS] + i * AEM_ANIMATION_SIZE;
    mc_reader r = record(c, f, SEC_ANIMATIONS, i);
    const uint8_t *name = mc_read_bytes(&r, AEM_NAME_SIZE);
    if (c->sink && name) {
        mc_s_enter_index(c, "animation", i, off, AEM_ANIMATION_SIZE);
        mc_s_layout(c, MC_FIELDS(animation_fields));
        mc_s_str(c, "name", name, AEM_NAME_SIZE);
        mc_s_f64(c, "duration", a->duration);
        mc_s_u64(c, "sequence_index", a->sequence_index);
        mc_s_u64(c, "channels", 3u * (uint64_t)f->count[SEC_BONES]);
        mc_s_leave(c);
    }
    if (name && check_name(c, off, name, "animations", i, "name") == 0) {
        mc_instance *in = mc_emit(c, MC_AEM_ANIMATION_NAME_EMPTY, off);
        mc_path(in, "/animations/%" PRIu64 "/name", i);
        mc_msg(in, "animation %" PRIu64 ": name is empty", i);
    }
    if (!a->duration_ok) {
        mc_instance *in = mc_emit(c, MC_AEM_ANIMATION_DURATION, off + 128);
        mc_path(in, "/animations/%" PRIu64 "/duration", i);
        mc_msg(in, "animation %" PRIu64 ": duration is %g (expected finite and > 0)", i,
               (double)a->duration);
    }
    uint64_t last = (uint64_t)a->sequence_index + f->count[SEC_BONES];
    a->range_ok = last <= f->count[SEC_SEQUENCES];
    if (!a->range_ok) {
        mc_instance *in = mc_emit(c, MC_AEM_ANIMATION_SEQUENCE_RANGE, off + 132);
        mc_path(in, "/animations/%" PRIu64 "/sequence_index", i);
        mc_msg(in, "animation %" PRIu64 ": sequences [%" PRIu32 ", %" PRIu64
               ") for %" PRIu32 " bones exceed the sequence count %" PRIu32,
               i, a->sequence_index, last, f->count[SEC_BONES], f->count[SEC_SEQUENCES]);
    }
}

typedef struct aem_channel {
    uint32_t first, count;
} aem_channel;

static void read_sequence(const mc_ctx *c, const aem_file *f, uint64_t s, aem_channel ch[3])
{
    mc_reader r = record(c, f, SEC_SEQUENCES, s);
    for (int k = 0; k < 3; k++) {
        ch[k].first = mc_read_u32(&r);
        ch[k].count = mc_read_u32(&r);
    }
}

static bool channel_in_range(const aem_file *f, aem_channel ch)
{
    return (uint64_t)ch.first + ch.count <= f->count[SEC_KEYFRAMES];
}

/* aem.md, Sequence Section: ranges lie in the keyframe section;
 * docs/formats/aem.md: every channel holds at least one key. */
static void check_sequences(mc_ctx *c, const aem_file *f)
{
    for (uint64_t s = 0; s < f->count[SEC_SEQUENCES]; s++) {
        aem_channel ch[3];
        read_sequence(c, f, s, ch);
        uint64_t off = f->offset[SEC_SEQUENCES] + s * AEM_SEQUENCE_SIZE;
        for (int k = 0; k < 3; k++) {
            if (ch[k].count == 0) {
                mc_instance *in = mc_emit(c, MC_AEM_SEQUENCE_NO_KEYS, off + 8u * (unsigned)k + 4);
                mc_path(in, "/sequences/%" PRIu64 "/%s", s, channel_name[k]);
                mc_msg(in, "sequence %" PRIu64 ": no %s keyframe (expected at least 1)", s,
                       channel_name[k]);
            } else if (!channel_in_range(f, ch[k])) {
                mc_instance *in = mc_emit(c, MC_AEM_SEQUENCE_KEY_RANGE, off + 8u * (unsigned)k);
                mc_path(in, "/sequences/%" PRIu64 "/%s", s, channel_name[k]);
                mc_msg(in, "sequence %" PRIu64 ": %s keyframes [%" PRIu32 ", %" PRIu64
                       ") exceed the keyframe count %" PRIu32,
                       s, channel_name[k], ch[k].first, (uint64_t)ch[k].first + ch[k].count,
                       f->count[SEC_KEYFRAMES]);
            }
        }
    }
}

typedef struct key_scope {
    uint64_t animation, bone;
    const aem_animation *a;
    int channel;
} key_scope;

static void report_key(mc_ctx *c, mc_code code, uint64_t off, uint64_t k, const char *field,
                       const key_scope *s, const char *what)
{
    mc_instance *in = mc_emit(c, code, off);
    mc_path(in, "/keyframes/%" PRIu64 "/%s", k, field);
    mc_msg(in, "keyframe %" PRIu64 " (animation %" PRIu64 ", bone %" PRIu64 ", %s): %s", k,
           s->animation, s->bone, channel_name[s->channel], what);
}

/* aem.md, Keyframe Section: finite values; times inside the animation and
 * strictly increasing (equal times divide by zero in the loader); W = 0
 * for position and scale; rotations are unit quaternions. */
static void check_channel_keys(mc_ctx *c, const aem_file *f, aem_channel ch, const key_scope *s)
{
    char what[128];
    float prev = 0.0f;
    bool have_prev = false;
    double limit = (double)s->a->duration * (1.0 + 1e-6);
    for (uint64_t k = ch.first; k < (uint64_t)ch.first + ch.count; k++) {
        mc_reader r = record(c, f, SEC_KEYFRAMES, k);
        float key[5];
        mc_read_f32s(&r, key, 5);
        if (r.fail) return;
        uint64_t off = f->offset[SEC_KEYFRAMES] + k * AEM_KEYFRAME_SIZE;
        if (!mc_all_finite(key, 5)) {
            report_key(c, MC_AEM_KEY_NOT_FINITE, off, k, "time", s, "holds NaN or infinity");
            have_prev = false;
            continue;
        }
        float t = key[0];
        if (t < 0.0f || (s->a->duration_ok && (double)t > limit)) {
            snprintf(what, sizeof what, "time %g outside [0, %g]", (double)t, (double)s->a->duration);
            report_key(c, MC_AEM_KEY_TIME_RANGE, off, k, "time", s, what);
        }
        if (have_prev && !(t > prev)) {
            snprintf(what, sizeof what, "time %g follows %g (expected strictly increasing)",
                     (double)t, (double)prev);
            report_key(c, MC_AEM_KEY_TIME_ORDER, off, k, "time", s, what);
        }
        prev = t;
        have_prev = true;
        if (s->channel != 1 && key[4] != 0.0f) {
            snprintf(what, sizeof what, "W is %g (expected 0)", (double)key[4]);
            report_key(c, MC_AEM_KEY_W_NONZERO, off + 16, k, "w", s, what);
        } else if (s->channel == 1 && !mc_surely_unit(key + 1, 4, c->quaternion) &&
                   !mc_is_unit(key + 1, 4, c->opt->quaternion_tolerance)) {
            snprintf(what, sizeof what, "quaternion length %.6f (expected 1 +- %g)",
                     mc_length(key + 1, 4), c->opt->quaternion_tolerance);
            report_key(c, MC_AEM_KEY_ROTATION_NOT_UNIT, off + 4, k, "rotation", s, what);
        }
    }
}

/* Keys are judged through the animations that use them: only there is the
 * channel kind and the duration known. Sequences may be shared and ranges
 * may overlap, so the visits are paid from the work budget. */
static void check_animation_keys(mc_ctx *c, const aem_file *f, uint64_t i, const aem_animation *a)
{
    uint64_t off = f->offset[SEC_ANIMATIONS] + i * AEM_ANIMATION_SIZE;
    for (uint64_t b = 0; b < f->count[SEC_BONES]; b++) {
        aem_channel ch[3];
        read_sequence(c, f, a->sequence_index + b, ch);
        for (int k = 0; k < 3; k++) {
            if (!channel_in_range(f, ch[k])) continue; /* AEM_SEQUENCE_KEY_RANGE */
            if (!mc_work(c, ch[k].count + 1u, off, "keyframe checks")) return;
            key_scope s = {i, b, a, k};
            check_channel_keys(c, f, ch[k], &s);
        }
    }
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* docs/formats/aem.md: sequence_count = animations x bones, so every sequence
 * belongs to some animation; report those that none covers. starts holds
 * the sequence_index of each animation whose range fits. */
static void check_unused_sequences(mc_ctx *c, const aem_file *f, uint32_t *starts, size_t n)
{
    if (n) qsort(starts, n, sizeof *starts, compare_u32);
    uint64_t bones = f->count[SEC_BONES], covered_to = 0;
    size_t next = 0;
    for (uint64_t s = 0; s < f->count[SEC_SEQUENCES]; s++) {
        while (next < n && starts[next] <= s) {
            uint64_t end = (uint64_t)starts[next] + bones;
            if (end > covered_to) covered_to = end;
            next++;
        }
        if (s < covered_to) continue;
        mc_instance *in = mc_emit(c, MC_AEM_SEQUENCE_UNUSED, f->offset[SEC_SEQUENCES] + s * AEM_SEQUENCE_SIZE);
        mc_path(in, "/sequences/%" PRIu64, s);
        mc_msg(in, "sequence %" PRIu64 " is used by no animation", s);
    }
}

static void check_animations(mc_ctx *c, const aem_file *f)
{
    uint32_t n = f->count[SEC_ANIMATIONS];
    /* n is bounded by the file size (136 bytes each), checked in check_size */
    uint32_t *starts = n ? malloc((size_t)n * sizeof *starts) : NULL;
    if (n && !starts) {
        c->nomem = true;
        return;
    }
    size_t fitting = 0;
    for (uint64_t i = 0; i < n; i++) {
        mc_reader r = record(c, f, SEC_ANIMATIONS, i);
        aem_animation a = read_animation(&r);
        if (r.fail) break;
        check_animation(c, f, i, &a);
        if (a.range_ok) {
            starts[fitting++] = a.sequence_index;
            check_animation_keys(c, f, i, &a);
        }
    }
    check_sequences(c, f);
    check_unused_sequences(c, f, starts, fitting);
    free(starts);
}

static void fill_info(mc_ctx *c, const aem_file *f)
{
    mc_info *i = c->info;
    i->vertices = f->count[SEC_VERTICES];
    i->indices = f->count[SEC_INDICES];
    i->textures = f->count[SEC_TEXTURES];
    i->meshes = f->count[SEC_MESHES];
    i->materials = f->count[SEC_MATERIALS];
    i->bones = f->count[SEC_BONES];
    i->animations = f->count[SEC_ANIMATIONS];
    i->sequences = f->count[SEC_SEQUENCES];
    i->keyframes = f->count[SEC_KEYFRAMES];
}

/* inspect: a section of records entered one by one by its check */
static void enter_section(mc_ctx *c, const aem_file *f, enum aem_section s)
{
    mc_s_enter(c, "section", section_name[s], f->offset[s],
               (uint64_t)f->count[s] * record_size[s]);
    mc_s_u64(c, "count", f->count[s]);
}

/* inspect: the sections of plain records (their checks have no record
 * scope of their own: they run per element or through the animations) */
static void report_arrays(mc_ctx *c, const aem_file *f, size_t from, size_t to)
{
    static const struct {
        enum aem_section s;
        const mc_field *fields;
        size_t n;
    } arrays[] = {{SEC_VERTICES, MC_FIELDS(vertex_fields)},
                  {SEC_INDICES, MC_FIELDS(index_fields)},
                  {SEC_SEQUENCES, MC_FIELDS(sequence_fields)},
                  {SEC_KEYFRAMES, MC_FIELDS(keyframe_fields)}};
    for (size_t k = from; k < to; k++) {
        enum aem_section s = arrays[k].s;
        /* the geometry is the meshes' (report_mesh): one pass over the vertices */
        mc_s_array(c, section_name[s], f->offset[s], f->count[s], record_size[s], arrays[k].fields,
                   arrays[k].n);
    }
}

static void aem_validate(mc_ctx *c)
{
    aem_file f;
    memset(&f, 0, sizeof f);
    enum aem_layout layout = check_header(c, &f);
    if (layout == LAYOUT_2025) mc_aem2025_validate(c);
    if (layout != LAYOUT_AEM1) return;
    c->layout = "aem1";
    fill_info(c, &f);
    bool extra_same = check_vertices(c, &f);
    check_indices(c, &f);
    if (c->sink) report_arrays(c, &f, 0, 2);
    enter_section(c, &f, SEC_TEXTURES);
    check_textures(c, &f);
    mc_s_leave(c);
    enter_section(c, &f, SEC_MESHES);
    check_meshes(c, &f, extra_same);
    mc_s_leave(c);
    enter_section(c, &f, SEC_MATERIALS);
    check_materials(c, &f);
    mc_s_leave(c);
    enter_section(c, &f, SEC_BONES);
    check_bones(c, &f);
    mc_s_leave(c);
    enter_section(c, &f, SEC_ANIMATIONS);
    check_animations(c, &f);
    mc_s_leave(c);
    if (c->sink) report_arrays(c, &f, 2, 4);
}

const mc_format_module mc_aem_module = {MC_FORMAT_AEM, "AEM", aem_detect, aem_validate};
