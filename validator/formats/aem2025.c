/*
 * AEM in the current upstream layout ("2025": readme.md of janhsimon/aem at
 * 42bd501, Specification; restated in docs/formats/aem2025.md): a 52-byte
 * header (the readme's 48 and a u32 padding) of ten counts, one of them the
 * u64 image buffer size, then ten sections in a fixed order. formats/aem.c
 * decides the layout by size arithmetic and hands over a file whose 2025
 * counts give its exact size, so every section below lies inside the file.
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
    V_SIZE = 88,
    NAME_SIZE = 128,
    TEXTURE_SIZE = 32,
    JOINT_SIZE = 196,
    ANIMATION_SIZE = 132,
    TRACK_SIZE = 16,
    KEY_SIZE = 20
};

enum section {
    SEC_VERTICES, SEC_INDICES, SEC_IMAGE, SEC_TEXTURES, SEC_MESHES, SEC_MATERIALS,
    SEC_JOINTS, SEC_ANIMATIONS, SEC_TRACKS, SEC_KEYFRAMES, SEC_COUNT
};

/* docs/formats/aem2025.md: record sizes in file order (the image buffer's
 * "records" are bytes) and where each count sits in the header. */
static const uint32_t record_size[SEC_COUNT] = {V_SIZE, 4, 1, TEXTURE_SIZE, 12, 16,
                                                JOINT_SIZE, ANIMATION_SIZE, TRACK_SIZE, KEY_SIZE};
static const char *const section_name[SEC_COUNT] = {
    "vertices", "indices", "image buffer", "textures", "meshes", "materials",
    "joints", "animations", "tracks", "keyframes"};
/* the sections' path segments (issue paths), in file order */
static const char *const section_path[SEC_COUNT] = {
    "vertices", "indices", "image_buffer", "textures", "meshes", "materials",
    "joints", "animations", "tracks", "keyframes"};
static const char *const channel_name[3] = {"translation", "rotation", "scale"};

/* Record layouts (docs/formats/aem2025.md), for inspect: field names are
 * the issue paths'. */
static const mc_field header_fields[] = {
    {"magic", MC_FIELD_STRING, 0, 3, 0},           {"version", MC_FIELD_U8, 3, 1, 0},
    {"vertex_count", MC_FIELD_U32, 4, 1, 0},       {"index_count", MC_FIELD_U32, 8, 1, 0},
    {"image_buffer_size", MC_FIELD_U64, 12, 1, 0}, {"texture_count", MC_FIELD_U32, 20, 1, 0},
    {"mesh_count", MC_FIELD_U32, 24, 1, 0},        {"material_count", MC_FIELD_U32, 28, 1, 0},
    {"joint_count", MC_FIELD_U32, 32, 1, 0},       {"animation_count", MC_FIELD_U32, 36, 1, 0},
    {"track_count", MC_FIELD_U32, 40, 1, 0},       {"keyframe_count", MC_FIELD_U32, 44, 1, 0},
    {"padding", MC_FIELD_U32, 48, 1, 0}};
static const mc_field vertex_fields[] = {
    {"position", MC_FIELD_F32, 0, 3, 0},  {"normal", MC_FIELD_F32, 12, 3, 0},
    {"tangent", MC_FIELD_F32, 24, 3, 0},  {"bitangent", MC_FIELD_F32, 36, 3, 0},
    {"uv", MC_FIELD_F32, 48, 2, 0},       {"joint_indices", MC_FIELD_I32, 56, 4, 1},
    {"weights", MC_FIELD_F32, 72, 4, 1}};
static const mc_field index_fields[] = {{"", MC_FIELD_U32, 0, 1, 0}};
static const mc_field texture_fields[] = {
    {"offset", MC_FIELD_U64, 0, 1, 0},  {"width", MC_FIELD_U32, 8, 1, 0},
    {"height", MC_FIELD_U32, 12, 1, 0}, {"wrap_x", MC_FIELD_U32, 16, 1, 0},
    {"wrap_y", MC_FIELD_U32, 20, 1, 0}, {"channels", MC_FIELD_U32, 24, 1, 0},
    {"compression", MC_FIELD_U32, 28, 1, 0}};
static const mc_field mesh_fields[] = {{"first_index", MC_FIELD_U32, 0, 1, 0},
                                       {"index_count", MC_FIELD_U32, 4, 1, 0},
                                       {"material", MC_FIELD_U32, 8, 1, 0}};
static const mc_field material_fields[] = {
    {"base_color", MC_FIELD_U32, 0, 1, 0}, {"normal", MC_FIELD_U32, 4, 1, 0},
    {"pbr", MC_FIELD_U32, 8, 1, 0},        {"type", MC_FIELD_U32, 12, 1, 0}};
static const mc_field joint_fields[] = {{"name", MC_FIELD_STRING, 0, NAME_SIZE, 0},
                                        {"inverse_bind_matrix", MC_FIELD_F32, 128, 16, 0},
                                        {"parent", MC_FIELD_I32, 192, 1, 0}};
static const mc_field animation_fields[] = {{"name", MC_FIELD_STRING, 0, NAME_SIZE, 0},
                                            {"duration", MC_FIELD_F32, 128, 1, 0}};
static const mc_field track_fields[] = {
    {"first_keyframe", MC_FIELD_U32, 0, 1, 0}, {"translation", MC_FIELD_U32, 4, 1, 0},
    {"rotation", MC_FIELD_U32, 8, 1, 0},       {"scale", MC_FIELD_U32, 12, 1, 0}};
/* a key holds a time and x, y, z, w: translation and scale keys a zero w
 * (named as aem1's keys and as the issues name them) */
static const mc_field keyframe_fields[] = {{"time", MC_FIELD_F32, 0, 1, 0},
                                           {"rotation", MC_FIELD_F32, 4, 3, 0},
                                           {"w", MC_FIELD_F32, 16, 1, 0}};

typedef struct aem_file {
    uint64_t count[SEC_COUNT]; /* all u32 but the image buffer's u64 */
    uint64_t offset[SEC_COUNT];
    uint64_t end;
} aem_file;

static void read_header(const uint8_t *data, size_t size, aem_file *f)
{
    mc_reader r = mc_reader_make(data, size);
    mc_reader_skip(&r, 4);
    uint64_t end = MC_AEM2025_HEADER_SIZE;
    for (int s = 0; s < SEC_COUNT; s++) {
        f->count[s] = s == SEC_IMAGE ? mc_read_u64(&r) : mc_read_u32(&r);
        f->offset[s] = end;
        if (!mc_add_mul_u64(&end, f->count[s], record_size[s])) end = UINT64_MAX;
    }
    f->end = end;
}

bool mc_aem2025_implied_size(const uint8_t *data, size_t size, uint64_t *end)
{
    if (size < MC_AEM2025_HEADER_SIZE) return false;
    aem_file f;
    read_header(data, size, &f);
    *end = f.end;
    return true;
}

void mc_aem2025_report_size(mc_ctx *c, uint64_t aem1_end)
{
    aem_file f;
    read_header(c->data, c->size, &f);
    if (c->size > f.end) {
        mc_instance *in = mc_emit(c, MC_AEM_TRAILING_BYTES, f.end);
        mc_path(in, "/");
        mc_msg(in, "%" PRIu64 " bytes after the last section: as the 2025 layout the header counts imply %" PRIu64
               " bytes, file has %zu (as aem1 they imply %" PRIu64 " bytes)",
               (uint64_t)c->size - f.end, f.end, c->size, aem1_end);
        return;
    }
    int s = SEC_COUNT - 1;
    while (s > 0 && f.offset[s] > c->size) s--;
    char path[32];
    snprintf(path, sizeof path, "/%s", section_path[s]);
    mc_truncated(c, MC_AEM_TRUNCATED, path,
                 "file ends inside the %s section (%" PRIu64 " x %" PRIu32 " bytes from 0x%" PRIx64
                 "): as the 2025 layout the header counts imply %" PRIu64 " bytes, file has %zu (as aem1 they imply %" PRIu64 " bytes)",
                 section_name[s], f.count[s], record_size[s], f.offset[s], f.end, c->size, aem1_end);
}

/* A record of a section; sections lie inside the file (the size matched). */
static mc_reader record(const mc_ctx *c, const aem_file *f, enum section s, uint64_t i)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    uint64_t at = UINT64_MAX;
    if (!mc_mul_u64(i, record_size[s], &at) || !mc_add_u64(at, f->offset[s], &at)) r.fail = true;
    mc_reader_seek(&r, at);
    return mc_read_sub(&r, record_size[s]);
}

static uint64_t at(const aem_file *f, enum section s, uint64_t i)
{
    return f->offset[s] + i * record_size[s];
}

/* ---- header ---- */

/* docs/formats/aem2025.md: bytes 48-51 are a padding the converter writes
 * as 0 (the readme's table ends at 48). */
static void check_padding(mc_ctx *c)
{
    uint32_t pad = mc_le32(c->data + 48);
    if (pad == 0) return;
    mc_instance *in = mc_emit(c, MC_AEM2025_HEADER_PADDING, 48);
    mc_path(in, "/header/padding");
    mc_msg(in, "header padding is 0x%08" PRIx32 " (expected 0)", pad);
}

/* ---- vertices ---- */

typedef struct aem_vertex {
    float attr[14]; /* position 3, normal 3, tangent 3, bitangent 3, uv 2 */
    int32_t joint[4];
    float weight[4];
} aem_vertex;

static const struct {
    const char *name;
    unsigned first, n;
} vertex_attrs[] = {{"position", 0, 3}, {"normal", 3, 3}, {"tangent", 6, 3},
                    {"bitangent", 9, 3}, {"uv", 12, 2}};

static void read_vertex(mc_reader *r, aem_vertex *v)
{
    _Static_assert(sizeof *v == V_SIZE, "aem_vertex is the 88-byte record");
    if (MC_HOST_LE) {
        mc_read_record(r, v, sizeof *v);
        return;
    }
    mc_read_f32s(r, v->attr, 14);
    for (int j = 0; j < 4; j++) v->joint[j] = mc_read_i32(r);
    mc_read_f32s(r, v->weight, 4);
}

/* A folded warning: how many, and the first. */
typedef struct fold {
    uint64_t count, first_offset, first_vertex;
} fold;

static void fold_add(fold *f, uint64_t offset, uint64_t vertex)
{
    if (f->count++ == 0) {
        f->first_offset = offset;
        f->first_vertex = vertex;
    }
}

typedef struct vertex_tally {
    uint32_t max_influences;
    fold filler, zero_weight;
} vertex_tally;

/* Vertex Section: Float fields are finite; docs/formats/aem2025.md: normal,
 * tangent and bitangent are unit length (a warning: the readme states no
 * length rule). */
static void check_vertex_vectors(mc_ctx *c, uint64_t off, uint64_t i, const aem_vertex *v)
{
    for (size_t a = 0; a < sizeof vertex_attrs / sizeof vertex_attrs[0]; a++) {
        const float *x = v->attr + vertex_attrs[a].first;
        unsigned n = vertex_attrs[a].n;
        uint64_t where = off + 4u * vertex_attrs[a].first;
        if (!mc_all_finite(x, n)) {
            mc_instance *in = mc_emit(c, MC_AEM2025_VERTEX_NOT_FINITE, where);
            mc_path(in, "/vertices/%" PRIu64 "/%s", i, vertex_attrs[a].name);
            mc_msg(in, "vertex %" PRIu64 ": %s holds NaN or infinity", i, vertex_attrs[a].name);
            continue;
        }
        if (a == 0 || a == 4) continue;
        if (mc_surely_unit(x, 3, c->unit) || mc_is_unit(x, 3, c->opt->unit_tolerance)) continue;
        mc_instance *in = mc_emit(c, MC_AEM2025_VECTOR_NOT_UNIT, where);
        mc_path(in, "/vertices/%" PRIu64 "/%s", i, vertex_attrs[a].name);
        mc_msg(in, "vertex %" PRIu64 ": %s length is %.6f (expected 1 +- %g)", i,
               vertex_attrs[a].name, mc_length(x, 3), c->opt->unit_tolerance);
    }
}

/* Vertex Section: a slot is -1 with weight 0, or a joint < joint count with
 * a weight in [0, 1]; a used slot of weight 0 is a deviation of its own
 * (index 0: glTF's filler, docs/formats/aem2025.md). Returns the number of
 * influences (a joint with weight > 0). */
static unsigned check_vertex_slots(mc_ctx *c, const aem_file *f, uint64_t off, uint64_t i,
                                   const aem_vertex *v, vertex_tally *t)
{
    unsigned influences = 0;
    for (int j = 0; j < 4; j++) {
        float w = v->weight[j];
        int32_t b = v->joint[j];
        uint64_t wat = off + 72 + 4u * (unsigned)j, bat = off + 56 + 4u * (unsigned)j;
        static const mc_aem_slot_codes codes = {MC_AEM2025_WEIGHT_RANGE,
                                                MC_AEM2025_UNUSED_SLOT_WEIGHT, "joint"};
        if (!mc_aem_slot_weight(c, &codes, wat, i, j, w, b)) continue;
        if (b < 0 || (uint64_t)b >= f->count[SEC_JOINTS]) {
            mc_instance *in = mc_emit(c, MC_AEM2025_JOINT_INDEX_RANGE, bat);
            mc_path(in, "/vertices/%" PRIu64 "/joint_indices/%d", i, j);
            mc_msg(in, "vertex %" PRIu64 ": joint index %" PRId32 " (expected -1 or < joint count %" PRIu64 ")",
                   i, b, f->count[SEC_JOINTS]);
        } else if (w == 0.0f) {
            fold_add(b == 0 ? &t->filler : &t->zero_weight, bat, i);
        }
        if (w > 0.0f) influences++;
    }
    return influences;
}

/* Vertex Section: the weights sum to 1.0 when some joint affects the vertex
 * (a non-zero weight), else to 0.0 (then every weight is 0 and there is
 * nothing to sum). The tolerance is aem1's: it grows with the number of
 * non-zero weights. */
static void check_vertex_weight_sum(mc_ctx *c, uint64_t off, uint64_t i, const aem_vertex *v)
{
    double sum = 0.0;
    unsigned nonzero = 0;
    for (int j = 0; j < 4; j++) {
        if (!isfinite(v->weight[j])) return; /* AEM2025_WEIGHT_RANGE */
        sum += (double)v->weight[j];
        nonzero += v->weight[j] != 0.0f;
    }
    if (nonzero == 0) return;
    double tol = c->opt->weight_sum_tolerance * nonzero;
    if (fabs(sum - 1.0) > tol) {
        mc_instance *in = mc_emit(c, MC_AEM2025_WEIGHT_SUM, off + 72);
        mc_path(in, "/vertices/%" PRIu64 "/weights", i);
        mc_msg(in, "vertex %" PRIu64 ": weights sum to %.6f (expected 1 +- %g, or all 0)", i, sum, tol);
    }
}

/* The clean path (as aem1's, issue 16): true when the vertex certainly
 * passes every check above, judged against precomputed bounds; its
 * influences and its weight-0 slots naming a joint (the folded warnings,
 * in slot order as the exact checks add them) go to t. Anything else goes
 * through the exact checks, which alone report. */
static bool vertex_surely_clean(const mc_ctx *c, const aem_vertex *v, uint64_t joints,
                                uint64_t off, uint64_t i, vertex_tally *t)
{
    const float *a = v->attr;
    if (!(isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]) && isfinite(a[12]) &&
          isfinite(a[13])))
        return false;
    if (!(mc_surely_unit(a + 3, 3, c->unit) && mc_surely_unit(a + 6, 3, c->unit) &&
          mc_surely_unit(a + 9, 3, c->unit)))
        return false;
    double sum = 0.0;
    unsigned nonzero = 0, influences = 0, weightless = 0; /* bit j: slot j names a joint, weight 0 */
    for (int j = 0; j < 4; j++) {
        float w = v->weight[j];
        int32_t b = v->joint[j];
        if (!(w >= 0.0f && w <= 1.0f)) return false;
        if (b == -1) {
            if (w != 0.0f) return false;
        } else if (!(b >= 0 && (uint64_t)b < joints)) {
            return false;
        } else if (w > 0.0f) {
            influences++;
        } else {
            weightless |= 1u << j;
        }
        sum += (double)w;
        nonzero += w != 0.0f;
    }
    if (nonzero && !(fabs(sum - 1.0) <= c->opt->weight_sum_tolerance * nonzero)) return false;
    if (influences > t->max_influences) t->max_influences = influences;
    for (int j = 0; weightless && j < 4; j++)
        if (weightless & (1u << j))
            fold_add(v->joint[j] == 0 ? &t->filler : &t->zero_weight, off + 56 + 4u * (unsigned)j, i);
    return true;
}

MC_HOT_FN static void check_vertex(mc_ctx *c, const aem_file *f, uint64_t i, vertex_tally *t)
{
    mc_reader r = record(c, f, SEC_VERTICES, i);
    aem_vertex v;
    read_vertex(&r, &v);
    if (r.fail) return;
    uint64_t off = at(f, SEC_VERTICES, i);
    if (c->fast && vertex_surely_clean(c, &v, f->count[SEC_JOINTS], off, i, t)) return;
    check_vertex_vectors(c, off, i, &v);
    unsigned inf = check_vertex_slots(c, f, off, i, &v, t);
    if (inf > t->max_influences) t->max_influences = inf;
    check_vertex_weight_sum(c, off, i, &v);
}

static void report_fold(mc_ctx *c, mc_code code, const fold *f, uint64_t vertices,
                        const char *what)
{
    if (!f->count) return;
    mc_instance *in = mc_emit(c, code, f->first_offset);
    mc_path(in, "/vertices/%" PRIu64 "/joint_indices", f->first_vertex);
    mc_msg(in, "%" PRIu64 " joint slots of weight 0 in the vertex section (%" PRIu64
           " vertices) %s instead of -1; the first in vertex %" PRIu64,
           f->count, vertices, what, f->first_vertex);
}

/* Vertices judged together by the clean path: one decision per chunk. */
enum { CHUNK = 64 };

#if defined(MC_LANES)
static uint32_t lanes_sum(__m128i v)
{
    uint32_t x[4];
    _mm_storeu_si128((__m128i *)(void *)x, v);
    return x[0] + x[1] + x[2] + x[3];
}

/*
 * vertex_surely_clean of n vertices (a multiple of four) at p, four at a
 * time in lanes (mc_numeric.h), read in place, with the same rules lane by
 * lane. True when every one passes; then their influences and weight-0
 * slots go to t. A weight-0 slot is only counted here when its fold
 * already has its first instance: otherwise the chunk declines, and the
 * per-vertex path records where the first one is. False at any doubt,
 * with t untouched.
 */
MC_HOT_FN static bool chunk_surely_clean(const mc_ctx *c, const uint8_t *p, uint64_t n, uint64_t joints,
                                         vertex_tally *t)
{
    int32_t hi = joints > INT32_MAX ? INT32_MAX : (int32_t)joints - 1;
    const __m128i none = _mm_set1_epi32(-1), zero_i = _mm_setzero_si128(),
                  lo_m1 = _mm_set1_epi32(-1), hi_v = _mm_set1_epi32(hi);
    const __m128 zero = _mm_setzero_ps();
    __m128 ok = _mm_castsi128_ps(none);
    __m128i influences = zero_i, fillers = zero_i, others = zero_i;
    for (uint64_t i = 0; i < n; i += 4, p += 4 * V_SIZE) {
        __m128 w[V_SIZE / 4];
        mc_lanes_block(p, V_SIZE, 0, w);
        __m128 v = _mm_and_ps(_mm_and_ps(mc_lanes_finite(w[0]), mc_lanes_finite(w[1])),
                              mc_lanes_finite(w[2]));
        mc_lanes_block(p, V_SIZE, 4, w);
        v = _mm_and_ps(v, mc_lanes_surely_unit3(w[3], w[4], w[5], c->unit));
        mc_lanes_block(p, V_SIZE, 8, w);
        v = _mm_and_ps(v, mc_lanes_surely_unit3(w[6], w[7], w[8], c->unit));
        v = _mm_and_ps(v, mc_lanes_surely_unit3(w[9], w[10], w[11], c->unit));
        mc_lanes_block(p, V_SIZE, 12, w);
        v = _mm_and_ps(v, _mm_and_ps(mc_lanes_finite(w[12]), mc_lanes_finite(w[13])));
        mc_lanes_block(p, V_SIZE, 16, w); /* words 16-19 */
        mc_lanes_block(p, V_SIZE, 18, w); /* words 18-21: the weights */
        __m128 all_zero = _mm_castsi128_ps(none);
        __m128i used_count = zero_i;
        for (int j = 0; j < 4; j++) {
            __m128i b = mc_lanes_i32(w[14 + j]);
            __m128 wt = w[18 + j];
            __m128 unused = _mm_castsi128_ps(_mm_cmpeq_epi32(b, none));
            __m128 in_range = _mm_castsi128_ps(
                _mm_andnot_si128(_mm_cmpgt_epi32(b, hi_v), _mm_cmpgt_epi32(b, lo_m1)));
            __m128 wzero = _mm_cmpeq_ps(wt, zero);
            __m128 slot = _mm_or_ps(_mm_and_ps(unused, wzero), in_range);
            v = _mm_and_ps(v, _mm_and_ps(slot, mc_lanes_within(wt, 0.0f, 1.0f)));
            all_zero = _mm_and_ps(all_zero, wzero);
            __m128i weightless = _mm_castps_si128(_mm_and_ps(in_range, wzero));
            __m128i filler = _mm_and_si128(weightless, _mm_cmpeq_epi32(b, zero_i));
            fillers = _mm_sub_epi32(fillers, filler);
            others = _mm_sub_epi32(others, _mm_andnot_si128(filler, weightless));
            used_count = _mm_sub_epi32(used_count,
                                       _mm_castps_si128(_mm_and_ps(in_range, _mm_cmpgt_ps(wt, zero))));
        }
        v = _mm_and_ps(v, _mm_or_ps(all_zero, mc_lanes_weight_sum_ok(w + 18, c->opt->weight_sum_tolerance)));
        ok = _mm_and_ps(ok, v);
        influences = _mm_max_epi16(influences, used_count);
    }
    if (!mc_lanes_all(ok)) return false;
    uint32_t nf = lanes_sum(fillers), no = lanes_sum(others);
    if ((nf && !t->filler.count) || (no && !t->zero_weight.count)) return false;
    t->filler.count += nf;
    t->zero_weight.count += no;
    uint32_t m[4];
    _mm_storeu_si128((__m128i *)(void *)m, influences);
    for (int k = 0; k < 4; k++)
        if (m[k] > t->max_influences) t->max_influences = m[k];
    return true;
}
#endif

/* The vertex section's positions and weights as the structure sink sees
 * them: the same views for mc_s_walked and report_mesh (the sections lie
 * inside the file: the size matched). */
static mc_view vertex_view(const mc_ctx *c, const aem_file *f, uint64_t at, mc_field_type type,
                           uint32_t width)
{
    uint64_t n = f->count[SEC_VERTICES], vbytes = n * V_SIZE;
    return (mc_view){c->data + f->offset[SEC_VERTICES] + at, mc_view_bytes(vbytes >= at ? vbytes - at : 0), n,
                     V_SIZE, type, width};
}

MC_HOT_FN static void check_vertices(mc_ctx *c, const aem_file *f)
{
    vertex_tally t = {0, {0, 0, 0}, {0, 0, 0}};
    uint64_t n = f->count[SEC_VERTICES];
    mc_view pos = {0}, weights = {0};
    if (c->sink) { /* the meshes' geometry, summed as the chunks pass */
        pos = vertex_view(c, f, 0, MC_FIELD_F32, 3);
        weights = vertex_view(c, f, 72, MC_FIELD_F32, 4);
    }
    for (uint64_t i = 0; i < n;) {
        uint64_t end = n - i > CHUNK ? i + CHUNK : n;
#if defined(MC_LANES)
        /* in place: the section lies inside the file (the size matched) */
        const uint8_t *p = c->data + f->offset[SEC_VERTICES] + i * V_SIZE;
        if (c->fast && MC_HOST_LE && (end - i) % 4 == 0 &&
            chunk_surely_clean(c, p, end - i, f->count[SEC_JOINTS], &t)) {
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
    report_fold(c, MC_AEM2025_FILLER_JOINT_INDEX, &t.filler, n, "name joint 0 (glTF's filler)");
    report_fold(c, MC_AEM2025_ZERO_WEIGHT_JOINT, &t.zero_weight, n, "name a joint");
}

/* ---- indices ---- */

enum { INDEX_CHUNK = 256 };

/* Index Section: indices index into the vertex section. */
MC_HOT_FN static void check_indices(mc_ctx *c, const aem_file *f)
{
    uint64_t n = f->count[SEC_INDICES], vertices = f->count[SEC_VERTICES];
    uint32_t limit = vertices > UINT32_MAX ? UINT32_MAX : (uint32_t)vertices;
    const uint8_t *p = c->data + f->offset[SEC_INDICES];
    for (uint64_t k = 0; k < n; k++) {
        /* the clean path: a chunk with every index in range */
        if (c->fast && k % INDEX_CHUNK == 0 && n - k >= INDEX_CHUNK &&
            mc_u32s_surely_below(p + 4 * k, INDEX_CHUNK, limit)) {
            k += INDEX_CHUNK - 1;
            continue;
        }
        uint32_t idx = mc_le32(p + 4 * k);
        if (idx < vertices) continue;
        mc_instance *in = mc_emit(c, MC_AEM2025_INDEX_RANGE, f->offset[SEC_INDICES] + 4 * k);
        mc_path(in, "/indices/%" PRIu64, k);
        mc_msg(in, "index %" PRIu32 " (expected < vertex count %" PRIu64 ")", idx, vertices);
    }
}

/* ---- textures ---- */

typedef struct aem_texture {
    uint64_t offset;
    uint32_t width, height, wrap[2], channels, compression;
} aem_texture;

static aem_texture read_texture(const mc_ctx *c, const aem_file *f, uint64_t i)
{
    mc_reader r = record(c, f, SEC_TEXTURES, i);
    aem_texture t;
    t.offset = mc_read_u64(&r);
    t.width = mc_read_u32(&r);
    t.height = mc_read_u32(&r);
    t.wrap[0] = mc_read_u32(&r);
    t.wrap[1] = mc_read_u32(&r);
    t.channels = mc_read_u32(&r);
    t.compression = mc_read_u32(&r);
    return t;
}

/* docs/formats/aem2025.md, MIP chains: levels from width x height down to
 * 1x1, each half the previous (floor, at least 1); an uncompressed level is
 * w x h x channels bytes, a BC5 or BC7 level 16 bytes per 4x4 block. False
 * on overflow. At most 64 levels: each halves the larger side. */
static bool mip_chain_size(const aem_texture *t, uint64_t *size, unsigned *levels)
{
    uint64_t w = t->width, h = t->height, total = 0;
    for (*levels = 1;; ++*levels) {
        uint64_t level;
        if (t->compression == 0) {
            if (!mc_mul_u64(w * h, t->channels, &level)) return false; /* w*h < 2^64 */
        } else {
            level = ((w + 3) / 4) * ((h + 3) / 4);
            if (!mc_mul_u64(level, 16, &level)) return false;
        }
        if (!mc_add_u64(total, level, &total)) return false;
        if (w == 1 && h == 1) break;
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
    *size = total;
    return true;
}

/* A texture's chain in the image buffer, for the overlap walk. */
typedef struct extent {
    uint64_t start, end, texture;
} extent;

static void texture_issue(mc_ctx *c, mc_code code, uint64_t off, uint64_t i, const char *field,
                          const char *what, uint32_t value)
{
    mc_instance *in = mc_emit(c, code, off);
    mc_path(in, "/textures/%" PRIu64 "/%s", i, field);
    mc_msg(in, "texture %" PRIu64 ": %s is %" PRIu32 " (%s)", i, field, value, what);
}

/* Texture Section: the fields' ranges and the MIP chain inside the image
 * buffer. Returns whether the chain's extent is known and inside (*e). */
static bool check_texture(mc_ctx *c, const aem_file *f, uint64_t i, extent *e)
{
    static const char *const wrap_field[2] = {"wrap_x", "wrap_y"};
    aem_texture t = read_texture(c, f, i);
    uint64_t off = at(f, SEC_TEXTURES, i);
    for (int k = 0; k < 2; k++)
        if (t.wrap[k] > 2)
            texture_issue(c, MC_AEM2025_TEXTURE_WRAP, off + 16 + 4u * (unsigned)k, i, wrap_field[k],
                          "expected 0 repeat, 1 mirrored repeat or 2 clamp", t.wrap[k]);
    bool channels_ok = t.channels >= 1 && t.channels <= 4;
    if (!channels_ok)
        texture_issue(c, MC_AEM2025_TEXTURE_CHANNELS, off + 24, i, "channels", "expected 1 to 4",
                      t.channels);
    bool compression_ok = t.compression <= 2;
    if (!compression_ok)
        texture_issue(c, MC_AEM2025_TEXTURE_COMPRESSION, off + 28, i, "compression",
                      "expected 0 none, 1 BC5 or 2 BC7", t.compression);
    else if (channels_ok && ((t.compression == 1 && t.channels != 2) || (t.compression == 2 && t.channels != 4)))
        texture_issue(c, MC_AEM2025_TEXTURE_CHANNELS_COMPRESSION, off + 24, i, "channels",
                      t.compression == 1 ? "BC5 holds 2" : "BC7 holds 4", t.channels);
    if (t.width == 0 || t.height == 0) {
        texture_issue(c, MC_AEM2025_TEXTURE_SIZE_ZERO, off + (t.width == 0 ? 8 : 12), i,
                      t.width == 0 ? "width" : "height", "expected at least 1", 0);
        return false;
    }
    if (!compression_ok || (t.compression == 0 && !channels_ok)) return false;
    uint64_t size = 0, end;
    unsigned levels;
    bool sized = mip_chain_size(&t, &size, &levels);
    if (!sized || !mc_add_u64(t.offset, size, &end) || end > f->count[SEC_IMAGE]) {
        char bytes[32];
        if (sized) snprintf(bytes, sizeof bytes, "%" PRIu64, size);
        else snprintf(bytes, sizeof bytes, "2^64 or more");
        mc_instance *in = mc_emit(c, MC_AEM2025_TEXTURE_DATA_RANGE, off);
        mc_path(in, "/textures/%" PRIu64 "/offset", i);
        mc_msg(in, "texture %" PRIu64 ": %" PRIu32 "x%" PRIu32 " MIP chain of %s bytes from offset %" PRIu64
               " exceeds the image buffer of %" PRIu64 " bytes",
               i, t.width, t.height, bytes, t.offset, f->count[SEC_IMAGE]);
        return false;
    }
    *e = (extent){t.offset, end, i};
    return true;
}

/* inspect: one texture, its size, MIP levels, compression and, when it
 * can be computed, the byte range of its chain in the image buffer */
static void report_texture(mc_ctx *c, const aem_file *f, uint64_t i)
{
    static const char *const compression[3] = {"none", "BC5", "BC7"};
    aem_texture t = read_texture(c, f, i);
    mc_s_enter_index(c, "texture", i, at(f, SEC_TEXTURES, i), TEXTURE_SIZE);
    mc_s_layout(c, MC_FIELDS(texture_fields));
    mc_s_u64(c, "width", t.width);
    mc_s_u64(c, "height", t.height);
    mc_s_u64(c, "channels", t.channels);
    if (t.compression <= 2) {
        const char *name = compression[t.compression];
        mc_s_str(c, "compression", (const uint8_t *)name, strlen(name));
    } else {
        mc_s_u64(c, "compression", t.compression);
    }
    uint64_t size, end;
    unsigned levels;
    bool sizable = t.width && t.height && t.compression <= 2 &&
                   (t.compression != 0 || (t.channels >= 1 && t.channels <= 4));
    if (sizable && mip_chain_size(&t, &size, &levels)) {
        mc_s_u64(c, "mip_levels", levels);
        mc_s_u64(c, "chain_start", t.offset);
        if (mc_add_u64(t.offset, size, &end)) mc_s_u64(c, "chain_end", end);
    }
    mc_s_leave(c);
}

static int compare_extent(const void *a, const void *b)
{
    const extent *x = a, *y = b;
    if (x->start != y->start) return (x->start > y->start) - (x->start < y->start);
    return (x->texture > y->texture) - (x->texture < y->texture);
}

/* docs/formats/aem2025.md, MIP chains: one chain per texture, back to back;
 * shared and uncovered bytes are named. */
static void check_image_coverage(mc_ctx *c, const aem_file *f, extent *e, size_t n)
{
    if (n) qsort(e, n, sizeof *e, compare_extent);
    uint64_t covered = 0, gap_bytes = 0, first_gap = UINT64_MAX, gaps = 0;
    for (size_t k = 0; k < n; k++) {
        if (e[k].start > covered) {
            if (first_gap == UINT64_MAX) first_gap = covered;
            gap_bytes += e[k].start - covered;
            gaps++;
        } else if (e[k].start < covered && e[k].end > e[k].start) {
            mc_instance *in = mc_emit(c, MC_AEM2025_TEXTURE_DATA_OVERLAP, at(f, SEC_TEXTURES, e[k].texture));
            mc_path(in, "/textures/%" PRIu64 "/offset", e[k].texture);
            mc_msg(in, "texture %" PRIu64 ": MIP chain [%" PRIu64 ", %" PRIu64
                   ") shares image bytes with an earlier chain (covered up to %" PRIu64 ")",
                   e[k].texture, e[k].start, e[k].end, covered);
        }
        if (e[k].end > covered) covered = e[k].end;
    }
    if (covered < f->count[SEC_IMAGE]) {
        if (first_gap == UINT64_MAX) first_gap = covered;
        gap_bytes += f->count[SEC_IMAGE] - covered;
        gaps++;
    }
    if (!gap_bytes) return;
    mc_instance *in = mc_emit(c, MC_AEM2025_IMAGE_UNREFERENCED, f->offset[SEC_IMAGE] + first_gap);
    mc_path(in, "/image_buffer");
    mc_msg(in, "%" PRIu64 " of %" PRIu64 " image buffer bytes (%" PRIu64
           " runs, the first at buffer offset %" PRIu64 ") belong to no texture's MIP chain",
           gap_bytes, f->count[SEC_IMAGE], gaps, first_gap);
}

static void check_textures(mc_ctx *c, const aem_file *f)
{
    uint64_t n = f->count[SEC_TEXTURES];
    /* n is bounded by the file size (32 bytes each) */
    extent *e = n ? malloc((size_t)n * sizeof *e) : NULL;
    if (n && !e) {
        c->nomem = true;
        return;
    }
    size_t fitting = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (check_texture(c, f, i, &e[fitting])) fitting++;
        if (c->sink) report_texture(c, f, i);
    }
    /* a chain that does not fit is reported; with one, coverage means little */
    if (fitting == n) check_image_coverage(c, f, e, fitting);
    free(e);
}

/* ---- meshes and materials ---- */

/* inspect: one mesh record, its counts and geometry (the box of the run of
 * shared vertices it uses, its degenerate triangles, its influences) */
static void report_mesh(mc_ctx *c, const aem_file *f, uint64_t m, uint32_t first,
                        uint32_t count, uint32_t material, bool in_range)
{
    mc_s_enter_index(c, "mesh", m, at(f, SEC_MESHES, m), 12);
    mc_s_layout(c, MC_FIELDS(mesh_fields));
    mc_s_u64(c, "indices", count);
    mc_s_u64(c, "triangles", count / 3);
    mc_s_u64(c, "material", material);
    if (in_range) {
        /* the vertices were summed by check_vertices */
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

static void check_meshes(mc_ctx *c, const aem_file *f)
{
    uint64_t triangles = 0;
    for (uint64_t m = 0; m < f->count[SEC_MESHES]; m++) {
        mc_reader r = record(c, f, SEC_MESHES, m);
        uint32_t first = mc_read_u32(&r), count = mc_read_u32(&r), material = mc_read_u32(&r);
        if (r.fail) return;
        uint64_t off = at(f, SEC_MESHES, m);
        bool in_range = (uint64_t)first + count <= f->count[SEC_INDICES];
        if (c->sink) report_mesh(c, f, m, first, count, material, in_range);
        /* Mesh Section: a range of indices in the index section */
        if (!in_range) {
            mc_instance *in = mc_emit(c, MC_AEM2025_MESH_RANGE, off);
            mc_path(in, "/meshes/%" PRIu64 "/first_index", m);
            mc_msg(in, "mesh %" PRIu64 ": indices [%" PRIu32 ", %" PRIu64 ") exceed the index count %" PRIu64,
                   m, first, (uint64_t)first + count, f->count[SEC_INDICES]);
        } else {
            triangles += count / 3;
        }
        /* docs/formats/aem2025.md: meshes are triangle lists */
        if (count % 3 != 0) {
            mc_instance *in = mc_emit(c, MC_AEM2025_MESH_NOT_TRIANGLES, off + 4);
            mc_path(in, "/meshes/%" PRIu64 "/index_count", m);
            mc_msg(in, "mesh %" PRIu64 ": %" PRIu32 " indices is not a multiple of 3", m, count);
        }
        /* Mesh Section: each mesh is guaranteed to have a valid material */
        if (material >= f->count[SEC_MATERIALS]) {
            mc_instance *in = mc_emit(c, MC_AEM2025_MESH_MATERIAL_RANGE, off + 8);
            mc_path(in, "/meshes/%" PRIu64 "/material", m);
            mc_msg(in, "mesh %" PRIu64 ": material %" PRIu32 " (expected < material count %" PRIu64 ")",
                   m, material, f->count[SEC_MATERIALS]);
        }
    }
    c->info->triangles = triangles;
}

/* docs/formats/aem2025.md, textures by use: the channels a slot reads. */
static void check_texture_use(mc_ctx *c, const aem_file *f, uint64_t m, int slot, uint32_t t,
                              uint32_t type, uint64_t off)
{
    static const char *const use[3] = {"base colour", "normal", "PBR"};
    aem_texture tex = read_texture(c, f, t);
    uint32_t need = slot == 0 ? (type == 1 ? 4 : 3) : slot == 1 ? 2 : 4;
    if (tex.channels >= need || tex.channels == 0 || tex.channels > 4) return;
    mc_instance *in = mc_emit(c, MC_AEM2025_TEXTURE_CHANNELS_FOR_USE, off);
    mc_path(in, "/materials/%" PRIu64 "/%s", m, slot == 0 ? "base_color" : slot == 1 ? "normal" : "pbr");
    mc_msg(in, "material %" PRIu64 ": %s texture %" PRIu32 " has %" PRIu32
           " channels (a %s%s texture needs %" PRIu32 ")",
           m, use[slot], t, tex.channels, type == 1 && slot == 0 ? "transparent " : "", use[slot], need);
}

/* Material Section: texture indices name textures (no sentinel), type 0
 * opaque or 1 transparent. */
static void check_materials(mc_ctx *c, const aem_file *f)
{
    static const char *const slot[3] = {"base_color", "normal", "pbr"};
    for (uint64_t m = 0; m < f->count[SEC_MATERIALS]; m++) {
        mc_reader r = record(c, f, SEC_MATERIALS, m);
        uint32_t tex[3];
        for (int s = 0; s < 3; s++) tex[s] = mc_read_u32(&r);
        uint32_t type = mc_read_u32(&r);
        if (r.fail) return;
        uint64_t off = at(f, SEC_MATERIALS, m);
        if (c->sink) {
            mc_s_enter_index(c, "material", m, off, 16);
            mc_s_layout(c, MC_FIELDS(material_fields));
            for (int s = 0; s < 3; s++) mc_s_u64(c, slot[s], tex[s]);
            mc_s_u64(c, "type", type);
            mc_s_leave(c);
        }
        for (int s = 0; s < 3; s++) {
            uint64_t soff = off + 4u * (unsigned)s;
            if (tex[s] < f->count[SEC_TEXTURES]) {
                check_texture_use(c, f, m, s, tex[s], type, soff);
                continue;
            }
            mc_instance *in = mc_emit(c, MC_AEM2025_MATERIAL_TEXTURE_RANGE, soff);
            mc_path(in, "/materials/%" PRIu64 "/%s", m, slot[s]);
            mc_msg(in, "material %" PRIu64 ": %s texture index %" PRIu32 " (expected < texture count %" PRIu64 ")",
                   m, slot[s], tex[s], f->count[SEC_TEXTURES]);
        }
        if (type > 1) {
            mc_instance *in = mc_emit(c, MC_AEM2025_MATERIAL_TYPE, off + 12);
            mc_path(in, "/materials/%" PRIu64 "/type", m);
            mc_msg(in, "material %" PRIu64 ": type is %" PRIu32 " (expected 0 opaque or 1 transparent)", m, type);
        }
    }
}

/* ---- names ---- */

/* Joint and Animation Sections: a NUL within 128 bytes; the name UTF-8;
 * docs/formats/aem2025.md: bytes after the NUL are the writer's memory. */
static void check_name(mc_ctx *c, uint64_t off, const uint8_t *b, const char *section, uint64_t i)
{
    const uint8_t *nul = memchr(b, 0, NAME_SIZE);
    if (!nul) {
        mc_instance *in = mc_emit(c, MC_AEM2025_NAME_UNTERMINATED, off);
        mc_path(in, "/%s/%" PRIu64 "/name", section, i);
        mc_msg(in, "no NUL terminator within the %d-byte name", NAME_SIZE);
        return;
    }
    size_t len = (size_t)(nul - b), bad = mc_utf8_invalid_at(b, len);
    if (bad < len) {
        mc_instance *in = mc_emit(c, MC_AEM2025_NAME_NOT_UTF8, off + bad);
        mc_path(in, "/%s/%" PRIu64 "/name", section, i);
        mc_msg(in, "byte %zu of the name (0x%02x) starts no UTF-8 sequence", bad, b[bad]);
    }
    for (size_t k = len + 1; k < NAME_SIZE; k++) {
        if (b[k] == 0) continue;
        mc_instance *in = mc_emit(c, MC_AEM2025_NAME_TRAILING_BYTES, off + k);
        mc_path(in, "/%s/%" PRIu64 "/name", section, i);
        mc_msg(in, "byte %zu after the terminator at %zu is 0x%02x (expected 0)", k, len, b[k]);
        break;
    }
}

/* ---- joints ---- */

/* |det| against the product of the column lengths (Hadamard's bound), as
 * mc_mat4_linear_invertible judges its 3x3 part: the whole 4x4 here, as
 * the readme fixes no last row. */
static bool mat4_invertible(const float m[16])
{
    double a[16];
    for (int k = 0; k < 16; k++) a[k] = m[k];
    /* cofactor expansion by 2x2 minors of the first two columns and the last two */
    double s0 = a[0] * a[5] - a[1] * a[4], s1 = a[0] * a[6] - a[2] * a[4];
    double s2 = a[0] * a[7] - a[3] * a[4], s3 = a[1] * a[6] - a[2] * a[5];
    double s4 = a[1] * a[7] - a[3] * a[5], s5 = a[2] * a[7] - a[3] * a[6];
    double c5 = a[10] * a[15] - a[11] * a[14], c4 = a[9] * a[15] - a[11] * a[13];
    double c3 = a[9] * a[14] - a[10] * a[13], c2 = a[8] * a[15] - a[11] * a[12];
    double c1 = a[8] * a[14] - a[10] * a[12], c0 = a[8] * a[13] - a[9] * a[12];
    double det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    double scale = 1.0;
    for (int j = 0; j < 4; j++) scale *= mc_length(m + 4 * j, 4);
    if (!(scale > 0.0) || !isfinite(det) || !isfinite(scale)) return false;
    return fabs(det) / scale > 1e-6;
}

static void check_joint_matrix(mc_ctx *c, uint64_t off, uint64_t i, const float m[16])
{
    mc_code code;
    if (!mc_all_finite(m, 16))
        code = MC_AEM2025_JOINT_MATRIX_NOT_FINITE;
    else if (!mat4_invertible(m))
        code = MC_AEM2025_JOINT_MATRIX_SINGULAR;
    else
        return;
    mc_instance *in = mc_emit(c, code, off);
    mc_path(in, "/joints/%" PRIu64 "/inverse_bind_matrix", i);
    mc_msg(in, "joint %" PRIu64 ": inverse bind matrix %s", i,
           code == MC_AEM2025_JOINT_MATRIX_NOT_FINITE ? "holds NaN or infinity"
                                                    : "is singular (no inverse)");
}

/* Joint Section: parents are -1 or joints. A chain that returns to a joint
 * it passed is a cycle (libaem's walk to the root never ends); each cycle
 * is reported once, at the parent field of the joint where the walk that
 * found it closed it. mark[j] is 1 + the walk that reached j first: a walk
 * stops at any joint an earlier walk reached, so the whole is linear. A
 * parent after its child is allowed (docs/formats/aem2025.md): one info. */
static void check_hierarchy(mc_ctx *c, const aem_file *f, const int32_t *parent, uint64_t *mark)
{
    uint64_t n = f->count[SEC_JOINTS], after = 0, first_after = 0;
    for (uint64_t i = 0; i < n; i++) {
        int32_t p = parent[i];
        uint64_t off = at(f, SEC_JOINTS, i) + 192;
        if (p != -1 && (p < 0 || (uint64_t)p >= n)) {
            mc_instance *in = mc_emit(c, MC_AEM2025_JOINT_PARENT_RANGE, off);
            mc_path(in, "/joints/%" PRIu64 "/parent", i);
            mc_msg(in, "joint %" PRIu64 ": parent %" PRId32 " (expected -1 or < joint count %" PRIu64 ")",
                   i, p, n);
        } else if (p > 0 && (uint64_t)p > i && after++ == 0) {
            first_after = i;
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t j = i;
        while (mark[j] == 0) {
            mark[j] = i + 1;
            int32_t p = parent[j];
            if (p < 0 || (uint64_t)p >= n) break;
            if (mark[p] == i + 1) {
                mc_instance *in = mc_emit(c, MC_AEM2025_JOINT_CYCLE, at(f, SEC_JOINTS, j) + 192);
                mc_path(in, "/joints/%" PRIu64 "/parent", j);
                mc_msg(in, "joint %" PRIu64 ": parent %" PRId32 " closes a cycle (joint %" PRId32
                       " is among its own ancestors)", j, p, p);
                break;
            }
            j = (uint64_t)p;
        }
    }
    if (!after) return;
    mc_instance *in = mc_emit(c, MC_AEM2025_JOINT_PARENT_AFTER_CHILD, at(f, SEC_JOINTS, first_after) + 192);
    mc_path(in, "/joints/%" PRIu64 "/parent", first_after);
    mc_msg(in, "%" PRIu64 " of %" PRIu64 " joints come before their parent, the first joint %" PRIu64
           " (parent %" PRId32 "): allowed, but a reader posing joints in file order must sort them",
           after, n, first_after, parent[first_after]);
}

static void check_joints(mc_ctx *c, const aem_file *f)
{
    uint64_t n = f->count[SEC_JOINTS];
    if (!n) return;
    /* n is bounded by the file size (196 bytes each) */
    int32_t *parent = malloc((size_t)n * sizeof *parent);
    uint64_t *mark = calloc((size_t)n, sizeof *mark);
    if (!parent || !mark) {
        free(parent);
        free(mark);
        c->nomem = true;
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        mc_reader r = record(c, f, SEC_JOINTS, i);
        const uint8_t *name = mc_read_bytes(&r, NAME_SIZE);
        float m[16];
        mc_read_f32s(&r, m, 16);
        parent[i] = mc_read_i32(&r);
        if (r.fail || !name) break; /* unreachable: the section lies in the file */
        uint64_t off = at(f, SEC_JOINTS, i);
        /* inspect: a joint is a bone of the skeleton tree */
        mc_s_enter_index(c, "bone", i, off, JOINT_SIZE);
        mc_s_layout(c, MC_FIELDS(joint_fields));
        mc_s_str(c, "name", name, NAME_SIZE);
        mc_s_i64(c, "parent", parent[i]);
        mc_s_leave(c);
        check_name(c, off, name, "joints", i);
        check_joint_matrix(c, off + 128, i, m);
    }
    check_hierarchy(c, f, parent, mark);
    free(parent);
    free(mark);
}

/* ---- animations, tracks, keyframes ---- */

typedef struct key_scope {
    uint64_t animation, joint;
    float duration;
    bool duration_ok;
    int channel;
} key_scope;

static void report_key(mc_ctx *c, mc_code code, uint64_t off, uint64_t k, const char *field,
                       const key_scope *s, const char *what)
{
    mc_instance *in = mc_emit(c, code, off);
    mc_path(in, "/keyframes/%" PRIu64 "/%s", k, field);
    mc_msg(in, "keyframe %" PRIu64 " (animation %" PRIu64 ", joint %" PRIu64 ", %s): %s", k,
           s->animation, s->joint, channel_name[s->channel], what);
}

/* Keyframe Section: finite values; times inside [0, duration] and strictly
 * increasing (libaem finds the pair around a time in file order and divides
 * by their difference); W = 0 for translation and scale; rotations are
 * unit quaternions. */
static void check_channel_keys(mc_ctx *c, const aem_file *f, uint64_t first, uint32_t count,
                               const key_scope *s)
{
    char what[128];
    float prev = 0.0f;
    bool have_prev = false;
    double limit = (double)s->duration * (1.0 + 1e-6);
    for (uint64_t k = first; k < first + count; k++) {
        mc_reader r = record(c, f, SEC_KEYFRAMES, k);
        float key[5];
        mc_read_f32s(&r, key, 5);
        if (r.fail) return;
        uint64_t off = at(f, SEC_KEYFRAMES, k);
        if (!mc_all_finite(key, 5)) {
            report_key(c, MC_AEM2025_KEY_NOT_FINITE, off, k, "time", s, "holds NaN or infinity");
            have_prev = false;
            continue;
        }
        float t = key[0];
        if (t < 0.0f || (s->duration_ok && (double)t > limit)) {
            snprintf(what, sizeof what, "time %g outside [0, %g]", (double)t, (double)s->duration);
            report_key(c, MC_AEM2025_KEY_TIME_RANGE, off, k, "time", s, what);
        }
        if (have_prev && !(t > prev)) {
            snprintf(what, sizeof what, "time %g follows %g (expected strictly increasing)",
                     (double)t, (double)prev);
            report_key(c, MC_AEM2025_KEY_TIME_ORDER, off, k, "time", s, what);
        }
        prev = t;
        have_prev = true;
        if (s->channel != 1 && key[4] != 0.0f) {
            snprintf(what, sizeof what, "W is %g (expected 0)", (double)key[4]);
            report_key(c, MC_AEM2025_KEY_W_NONZERO, off + 16, k, "w", s, what);
        } else if (s->channel == 1 && !mc_surely_unit(key + 1, 4, c->quaternion) &&
                   !mc_is_unit(key + 1, 4, c->opt->quaternion_tolerance)) {
            snprintf(what, sizeof what, "quaternion length %.6f (expected 1 +- %g)",
                     mc_length(key + 1, 4), c->opt->quaternion_tolerance);
            report_key(c, MC_AEM2025_KEY_ROTATION_NOT_UNIT, off + 4, k, "rotation", s, what);
        }
    }
}

typedef struct aem_track {
    uint32_t first, count[3];
} aem_track;

static aem_track read_track(const mc_ctx *c, const aem_file *f, uint64_t t)
{
    mc_reader r = record(c, f, SEC_TRACKS, t);
    aem_track k;
    k.first = mc_read_u32(&r);
    for (int ch = 0; ch < 3; ch++) k.count[ch] = mc_read_u32(&r);
    return k;
}

static bool track_in_range(const aem_file *f, const aem_track *k)
{
    return (uint64_t)k->first + k->count[0] + k->count[1] + k->count[2] <= f->count[SEC_KEYFRAMES];
}

/* Track Section: keyframes T, then R, then S, from the first; every
 * channel with a key (docs/formats/aem2025.md: libaem falls back to 0,
 * identity or 1, not the rest pose). */
static void check_tracks(mc_ctx *c, const aem_file *f)
{
    for (uint64_t t = 0; t < f->count[SEC_TRACKS]; t++) {
        aem_track k = read_track(c, f, t);
        uint64_t off = at(f, SEC_TRACKS, t);
        if (!track_in_range(f, &k)) {
            mc_instance *in = mc_emit(c, MC_AEM2025_TRACK_KEY_RANGE, off);
            mc_path(in, "/tracks/%" PRIu64 "/first_keyframe", t);
            mc_msg(in, "track %" PRIu64 ": keyframes [%" PRIu32 ", %" PRIu64 ") exceed the keyframe count %" PRIu64,
                   t, k.first, (uint64_t)k.first + k.count[0] + k.count[1] + k.count[2],
                   f->count[SEC_KEYFRAMES]);
        }
        for (int ch = 0; ch < 3; ch++) {
            if (k.count[ch]) continue;
            mc_instance *in = mc_emit(c, MC_AEM2025_TRACK_CHANNEL_EMPTY, off + 4 + 4u * (unsigned)ch);
            mc_path(in, "/tracks/%" PRIu64 "/%s", t, channel_name[ch]);
            mc_msg(in, "track %" PRIu64 ": no %s keyframe", t, channel_name[ch]);
        }
    }
}

/* Keys are judged through the animation and joint whose track uses them:
 * only there are the channel kind and the duration known. Tracks may share
 * or overlap keys, so the visits are paid from the work budget. */
static void check_animation_keys(mc_ctx *c, const aem_file *f, uint64_t a, const key_scope *base)
{
    uint64_t joints = f->count[SEC_JOINTS], off = at(f, SEC_ANIMATIONS, a);
    for (uint64_t j = 0; j < joints; j++) {
        uint64_t t = a * joints + j; /* < track count: checked by the caller */
        aem_track k = read_track(c, f, t);
        if (!track_in_range(f, &k)) continue; /* AEM2025_TRACK_KEY_RANGE */
        uint64_t first = k.first;
        for (int ch = 0; ch < 3; ch++) {
            if (!mc_work(c, (uint64_t)k.count[ch] + 1u, off, "keyframe checks")) return;
            key_scope s = *base;
            s.joint = j;
            s.channel = ch;
            check_channel_keys(c, f, first, k.count[ch], &s);
            first += k.count[ch];
        }
    }
}

/* inspect: one animation, its duration and, when the track count lets
 * its tracks be found (joints x animations), its keys per channel */
static void report_animation(mc_ctx *c, const aem_file *f, uint64_t a, const uint8_t *name,
                             float duration, bool tracks_ok)
{
    uint64_t joints = f->count[SEC_JOINTS];
    mc_s_enter_index(c, "animation", a, at(f, SEC_ANIMATIONS, a), ANIMATION_SIZE);
    mc_s_layout(c, MC_FIELDS(animation_fields));
    mc_s_str(c, "name", name, NAME_SIZE);
    mc_s_f64(c, "duration", duration);
    mc_s_u64(c, "channels", 3u * joints);
    if (tracks_ok) {
        uint64_t keys[3] = {0, 0, 0};
        for (uint64_t j = 0; j < joints; j++) {
            aem_track k = read_track(c, f, a * joints + j);
            for (int ch = 0; ch < 3; ch++) keys[ch] += k.count[ch];
        }
        /* attribute keys are kept by pointer: literals */
        static const char *const key_name[3] = {"translation_keys", "rotation_keys", "scale_keys"};
        mc_s_u64(c, "keyframes", keys[0] + keys[1] + keys[2]);
        for (int ch = 0; ch < 3; ch++) mc_s_u64(c, key_name[ch], keys[ch]);
    }
    mc_s_leave(c);
}

static void check_animations(mc_ctx *c, const aem_file *f)
{
    uint64_t joints = f->count[SEC_JOINTS], anims = f->count[SEC_ANIMATIONS], expect;
    bool tracks_ok = mc_mul_u64(joints, anims, &expect) && expect == f->count[SEC_TRACKS];
    if (!tracks_ok) {
        mc_instance *in = mc_emit(c, MC_AEM2025_TRACK_COUNT, 40);
        mc_path(in, "/header/track_count");
        mc_msg(in, "track count is %" PRIu64 " (expected joints x animations = %" PRIu64 " x %" PRIu64 ")",
               f->count[SEC_TRACKS], joints, anims);
    }
    for (uint64_t a = 0; a < anims; a++) {
        mc_reader r = record(c, f, SEC_ANIMATIONS, a);
        const uint8_t *name = mc_read_bytes(&r, NAME_SIZE);
        float duration = mc_read_f32(&r);
        if (r.fail || !name) return;
        uint64_t off = at(f, SEC_ANIMATIONS, a);
        if (c->sink) report_animation(c, f, a, name, duration, tracks_ok);
        check_name(c, off, name, "animations", a);
        key_scope s = {a, 0, duration, isfinite(duration) && duration > 0.0f, 0};
        if (!s.duration_ok) {
            mc_instance *in = mc_emit(c, MC_AEM2025_ANIMATION_DURATION, off + 128);
            mc_path(in, "/animations/%" PRIu64 "/duration", a);
            mc_msg(in, "animation %" PRIu64 ": duration is %g (expected finite and > 0)", a,
                   (double)duration);
        }
        /* which track is whose holds only with the right count */
        if (tracks_ok) check_animation_keys(c, f, a, &s);
    }
    check_tracks(c, f);
}

static void fill_info(mc_ctx *c, const aem_file *f)
{
    mc_info *i = c->info;
    i->vertices = f->count[SEC_VERTICES];
    i->indices = f->count[SEC_INDICES];
    i->textures = f->count[SEC_TEXTURES];
    i->meshes = f->count[SEC_MESHES];
    i->materials = f->count[SEC_MATERIALS];
    i->bones = f->count[SEC_JOINTS];
    i->animations = f->count[SEC_ANIMATIONS];
    i->sequences = f->count[SEC_TRACKS];
    i->keyframes = f->count[SEC_KEYFRAMES];
}

/* inspect: a section of records entered one by one by its check */
static void enter_section(mc_ctx *c, const aem_file *f, enum section s)
{
    mc_s_enter(c, "section", section_path[s], f->offset[s], f->count[s] * record_size[s]);
    mc_s_u64(c, "count", f->count[s]);
}

/* inspect: the sections checked element by element or through others
 * (vertices, indices, the image bytes through the textures, tracks and
 * keyframes through the animations): one node each, no record entered */
static void report_arrays(mc_ctx *c, const aem_file *f, size_t from, size_t to)
{
    static const struct {
        enum section s;
        const mc_field *fields;
        size_t n;
    } arrays[] = {{SEC_VERTICES, MC_FIELDS(vertex_fields)},
                  {SEC_INDICES, MC_FIELDS(index_fields)},
                  {SEC_IMAGE, NULL, 0},
                  {SEC_TRACKS, MC_FIELDS(track_fields)},
                  {SEC_KEYFRAMES, MC_FIELDS(keyframe_fields)}};
    for (size_t k = from; k < to; k++) {
        enum section s = arrays[k].s;
        if (s == SEC_IMAGE) {
            /* bytes, not records: the textures' chains say whose they are */
            mc_s_enter(c, "section", section_path[s], f->offset[s], f->count[s]);
            mc_s_leave(c);
            continue;
        }
        mc_s_array(c, section_path[s], f->offset[s], f->count[s], record_size[s], arrays[k].fields,
                   arrays[k].n);
    }
}

void mc_aem2025_validate(mc_ctx *c)
{
    aem_file f;
    read_header(c->data, c->size, &f);
    if (f.end != c->size) return; /* the caller decides layouts by this */
    c->layout = "2025";
    fill_info(c, &f);
    check_padding(c);
    check_vertices(c, &f);
    check_indices(c, &f);
    if (c->sink) report_arrays(c, &f, 0, 3);
    enter_section(c, &f, SEC_TEXTURES);
    check_textures(c, &f);
    mc_s_leave(c);
    enter_section(c, &f, SEC_MESHES);
    check_meshes(c, &f);
    mc_s_leave(c);
    enter_section(c, &f, SEC_MATERIALS);
    check_materials(c, &f);
    mc_s_leave(c);
    enter_section(c, &f, SEC_JOINTS);
    check_joints(c, &f);
    mc_s_leave(c);
    enter_section(c, &f, SEC_ANIMATIONS);
    check_animations(c, &f);
    mc_s_leave(c);
    if (c->sink) report_arrays(c, &f, 3, 5);
}

void mc_aem2025_report_header(mc_ctx *c)
{
    if (!c->sink) return;
    mc_sink_end(c->sink, MC_AEM2025_HEADER_SIZE);
    mc_sink_layout(c->sink, MC_FIELDS(header_fields));
}
