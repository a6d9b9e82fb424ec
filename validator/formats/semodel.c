/*
 * SEModel (semodel.md, docs/formats/semodel.md).
 *
 * Two layouts share the magic and version 1; headerSize tells them apart:
 * 0x14 is the 2018 layout every real writer emits (arrays per attribute,
 * float normals, per-mesh UV layers and skin influence, a material table),
 * 0x1E or 0x1C the 2017 draft of semodel.md (one record per vertex, half
 * normals and weights, a global skin influence, TODO collision and material
 * blocks).
 *
 * Nothing here has a fixed size: strings, bone_t/face_t/mat_t widths and
 * attribute flags decide where everything is. So the file is walked once,
 * front to back, through one reader; before each block or mesh the bytes
 * its counts need at the least are compared with the bytes left, so a
 * lying count gives one SEMODEL_TRUNCATED before any loop or allocation,
 * and the walk stops at the first structural error.
 *
 * Where a presence flag and its count disagree the readers disagree too;
 * the validator reports it and lets the count decide (a block of zero
 * elements is empty either way).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_format.h"
#include "mc_numeric.h"
#include "mc_reader.h"
#include "mc_struct.h"
#include "mc_rules.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
    SE_PREFIX = 11,          /* magic[7], version, headerSize */
    SE_HEADER_2018 = 0x14,   /* docs/formats/semodel.md: 20 bytes counting headerSize */
    SE_HEADER_DRAFT = 0x1E,  /* semodel.md: the 30-byte SEModel_Header */
    SE_HEADER_DRAFT_28 = 0x1C /* docs/formats/semodel.md: a draft-era writer left headerSize out */
};

/* dataPresenceFlags: BONE and MESH agree; the rest moved in 2018. */
enum { D_BONE = 1, D_MESH = 2 };
enum { D18_MATERIALS = 4, D18_CUSTOM = 0x80, D18_KNOWN = 0x87 };
enum { DD_COLLISION = 4, DD_MATERIALS = 8, DD_KNOWN = 0x0F };
enum { B_GLOBAL = 1, B_LOCAL = 2, B_SCALES = 4, B_KNOWN = 0x07 };
enum { M_UVSET = 1, M_NORMALS = 2, M_COLOR = 4, M_WEIGHTS = 8, M_KNOWN = 0x0F };

/* "SEBlend\n" read as a little-endian u64 (docs/formats/semodel.md: Greyhound). */
#define SE_SEBLEND_MAGIC UINT64_C(0x0A646E656C424553)

/* Draft weights are half floats: each carries up to half an ulp (2^-12 in
 * [0.5, 1]) of rounding, so their sum gets this much slack per weight. */
#define SE_HALF_WEIGHT_TOLERANCE (1.0 / 2048.0)

typedef struct se_file {
    bool draft;
    uint8_t data_flags, bone_flags, mesh_flags;
    uint8_t max_influence;     /* draft: global maxSkinInfluence */
    uint32_t bones, meshes, cols, mats;
    unsigned bone_w, mat_w;    /* bytes per bone_t, mat_t */
    uint64_t flags_at;         /* offset of dataPresenceFlags */
    uint64_t meshes_at;        /* offset of the first mesh header */
    bool undefined_tail;       /* draft: a block without layout follows the meshes */
} se_file;

typedef struct se_mesh {
    uint32_t index;
    uint64_t at;
    uint8_t flags, layers, influence;
    uint32_t vertices, faces;
    unsigned face_w;
} se_mesh;

typedef struct se_name {
    uint64_t hash;
    size_t at;
    uint32_t len;
} se_name;

/* Record layouts for inspect (semodel.md); names are the issue paths'. */
/* a string node is named for its field (/bones/2/name): its layout adds no segment */
static const mc_field name_fields[] = {{"", MC_FIELD_STRING, 0, 0, 0}};
static const mc_field bone_fields[] = {{"flags", MC_FIELD_U8, 0, 1, 0},
                                       {"parent", MC_FIELD_I32, 1, 1, 0}};
static const mc_field mesh_fields_2018[] = {
    {"flags", MC_FIELD_U8, 0, 1, 0}, {"matReferenceCount", MC_FIELD_U8, 1, 1, 0},
    {"maxSkinInfluence", MC_FIELD_U8, 2, 1, 0}, {"vertexCount", MC_FIELD_U32, 3, 1, 0},
    {"faceCount", MC_FIELD_U32, 7, 1, 0}};
static const mc_field mesh_fields_draft[] = {
    {"flags", MC_FIELD_U8, 0, 1, 0}, {"uvSetCount", MC_FIELD_U8, 1, 1, 0},
    {"vertexCount", MC_FIELD_U32, 2, 1, 0}, {"faceCount", MC_FIELD_U32, 6, 1, 0}};
/* the 2018 mesh body: one array per attribute, each addressed as vertices */
static const mc_field position_fields[] = {{"position", MC_FIELD_F32, 0, 3, 0}};
static const mc_field uv_fields[] = {{"uv", MC_FIELD_F32, 0, 2, 0}};
static const mc_field normal_fields[] = {{"normal", MC_FIELD_F32, 0, 3, 0}};
static const mc_field color_fields[] = {{"color", MC_FIELD_U8, 0, 4, 0}};
static const mc_field face_fields[3][1] = {{{"", MC_FIELD_U8, 0, 3, 1}},
                                           {{"", MC_FIELD_U16, 0, 3, 1}},
                                           {{"", MC_FIELD_U32, 0, 3, 1}}};
static const mc_field material_index_fields[] = {{"", MC_FIELD_I32, 0, 1, 0}};

/* ---- helpers ---- */

/* semodel.md, bone_t / mat_t; docs/formats/semodel.md: face_t follows the same rule. */
static unsigned index_width(uint64_t count)
{
    return count <= 0xFF ? 1u : count <= 0xFFFF ? 2u : 4u;
}

static uint32_t read_index(mc_reader *r, unsigned width)
{
    if (width == 1) return mc_read_u8(r);
    if (width == 2) return mc_read_u16(r);
    return mc_read_u32(r);
}

static float read_half(mc_reader *r)
{
    return mc_half_to_f32(mc_read_u16(r));
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* Strings end in a NUL inside the file and are UTF-8 (docs/formats/semodel.md: the
 * Python reader decodes UTF-8). False, after one error, when the file ends
 * first: the walk cannot go on. */
static bool read_string(mc_ctx *c, mc_reader *r, const char *block, uint64_t i,
                        const char *field, se_name *out)
{
    size_t at = r->pos, left = mc_reader_left(r);
    const uint8_t *p = r->p + at;
    const uint8_t *nul = left ? memchr(p, 0, left) : NULL;
    if (!nul) {
        if (c->sink) { /* the string the reader would take: the rest of the file */
            mc_sink_enter(c->sink, "string", field, MC_NO_INDEX, at, left);
            mc_sink_layout(c->sink, name_fields, 1);
            mc_sink_leave(c->sink);
        }
        mc_instance *in = mc_emit(c, MC_SEMODEL_STRING_UNTERMINATED, at);
        mc_path(in, "/%s/%" PRIu64 "/%s", block, i, field);
        mc_msg(in, "%s %" PRIu64 " %s: no NUL terminator in the %zu bytes before the end of the file",
               block, i, field, left);
        return false;
    }
    size_t len = (size_t)(nul - p);
    size_t bad = mc_utf8_invalid_at(p, len);
    if (bad < len) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_STRING_NOT_UTF8, at + bad);
        mc_path(in, "/%s/%" PRIu64 "/%s", block, i, field);
        mc_msg(in, "%s %" PRIu64 " %s: byte %zu (0x%02x) starts no valid UTF-8 sequence", block, i,
               field, bad, p[bad]);
    }
    if (c->sink) {
        mc_sink_enter(c->sink, "string", field, MC_NO_INDEX, at, len + 1);
        mc_sink_layout(c->sink, name_fields, 1);
        mc_sink_str(c->sink, "text", p, len);
        mc_sink_leave(c->sink);
    }
    mc_reader_skip(r, len + 1);
    if (out) {
        out->at = at;
        out->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
        out->hash = fnv1a(p, len);
    }
    return true;
}

/* ---- header ---- */

static bool se_detect(const uint8_t *data, size_t size)
{
    return size >= 7 && memcmp(data, "SEModel", 7) == 0;
}

static void flag_bits(mc_ctx *c, uint64_t at, const char *field, uint8_t value, uint8_t known)
{
    if (!(value & ~known)) return;
    mc_instance *in = mc_emit(c, MC_SEMODEL_UNKNOWN_FLAG_BITS, at);
    mc_path(in, "/header/%s", field);
    mc_msg(in, "%s is 0x%02x: bits 0x%02x are reserved or unknown (expected 0)", field, value,
           (unsigned)(value & ~known));
}

static void reserved_bytes(mc_ctx *c, uint64_t at, const uint8_t *b, size_t n, const char *field)
{
    for (size_t k = 0; k < n; k++) {
        if (!b[k]) continue;
        mc_instance *in = mc_emit(c, MC_SEMODEL_RESERVED_NONZERO, at + k);
        mc_path(in, "/header/%s", field);
        mc_msg(in, "%s byte %zu is 0x%02x (expected 0)", field, k, b[k]);
        return;
    }
}

/* semodel.md, SEModel_Header: "Is 0 if (dataPresenceFlags & ...) is false";
 * docs/formats/semodel.md: readers disagree on either mismatch, so both are reported
 * under their own codes and the count decides. */
static void presence(mc_ctx *c, const se_file *f, uint8_t flag, uint64_t count_at,
                     const char *name, uint32_t count)
{
    bool set = (f->data_flags & flag) != 0;
    if (count > 0 && !set) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_COUNT_WITHOUT_FLAG, count_at);
        mc_path(in, "/header/%s", name);
        mc_msg(in, "%s is %" PRIu32 " but its presence flag 0x%02x is clear (expected 0, or the flag set)",
               name, count, flag);
    } else if (count == 0 && set) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_FLAG_WITHOUT_COUNT, f->flags_at);
        mc_path(in, "/header/dataPresenceFlags");
        mc_msg(in, "presence flag 0x%02x is set but %s is 0 (expected a count > 0, or the flag clear)",
               flag, name);
    }
}

static const char *const model_type_name[3] = {"STATIC", "DYNAMIC", "COLLISION"};

/* semodel.md, SEModel_Header and the data block TODOs. */
static void draft_header(mc_ctx *c, se_file *f, mc_reader *r)
{
    uint8_t type = mc_read_u8(r);
    mc_read_u16(r); /* modelFlags: implementation defined */
    f->data_flags = mc_read_u8(r);
    f->bone_flags = mc_read_u8(r);
    f->mesh_flags = mc_read_u8(r);
    const uint8_t *res1 = mc_read_bytes(r, 2);
    f->bones = mc_read_u32(r);
    f->meshes = mc_read_u32(r);
    f->cols = mc_read_u32(r);
    f->mats = mc_read_u32(r);
    f->max_influence = mc_read_u8(r);
    const uint8_t *res2 = mc_read_bytes(r, 3);
    if (r->fail) return;
    f->flags_at = 14;
    if (type > 2) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_MODEL_TYPE_UNKNOWN, 11);
        mc_path(in, "/header/modelType");
        mc_msg(in, "modelType is %u (recommended: 0 %s, 1 %s, 2 %s)", type, model_type_name[0],
               model_type_name[1], model_type_name[2]);
    }
    flag_bits(c, 14, "dataPresenceFlags", f->data_flags, DD_KNOWN);
    reserved_bytes(c, 17, res1, 2, "reserved1");
    reserved_bytes(c, 36, res2, 3, "reserved2");
    presence(c, f, D_BONE, 19, "boneCount", f->bones);
    presence(c, f, D_MESH, 23, "meshCount", f->meshes);
    presence(c, f, DD_COLLISION, 27, "colCount", f->cols);
    presence(c, f, DD_MATERIALS, 31, "matCount", f->mats);
    bool weights = (f->mesh_flags & M_WEIGHTS) != 0;
    if (weights && f->max_influence == 0) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_SKIN_INFLUENCE_ZERO, 35);
        mc_path(in, "/header/maxSkinInfluence");
        mc_msg(in, "WEIGHTS is set but maxSkinInfluence is 0 (expected > 0)");
    } else if (!weights && f->max_influence > 0) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_SKIN_INFLUENCE_WITHOUT_WEIGHTS, 35);
        mc_path(in, "/header/maxSkinInfluence");
        mc_msg(in, "maxSkinInfluence is %u but WEIGHTS is clear (expected 0)", f->max_influence);
    }
    static const struct { uint8_t flag; const char *block, *count; } undefined[2] = {
        {DD_COLLISION, "COLLISION", "colCount"}, {DD_MATERIALS, "MATERIALS", "matCount"}};
    for (int k = 0; k < 2; k++) {
        uint32_t count = k == 0 ? f->cols : f->mats;
        if (!(f->data_flags & undefined[k].flag) && count == 0) continue;
        f->undefined_tail = true;
        mc_instance *in = mc_emit(c, MC_SEMODEL_DRAFT_BLOCK_UNDEFINED, 14);
        mc_path(in, "/header/dataPresenceFlags");
        mc_msg(in, "%s block announced (%s %" PRIu32 "): the 2017 draft leaves its layout undefined (a TODO in the spec), so the bytes after the meshes are not checked",
               undefined[k].block, undefined[k].count, count);
    }
}

/* The 2018 header's layout (inspect, fix); names are the issue paths'. */
static const mc_field header_2018_fields[] = {
    {"magic", MC_FIELD_STRING, 0, 7, 0},         {"version", MC_FIELD_U16, 7, 1, 0},
    {"headerSize", MC_FIELD_U16, 9, 1, 0},       {"dataPresenceFlags", MC_FIELD_U8, 11, 1, 0},
    {"bonePresenceFlags", MC_FIELD_U8, 12, 1, 0}, {"meshPresenceFlags", MC_FIELD_U8, 13, 1, 0},
    {"boneCount", MC_FIELD_U32, 14, 1, 0},       {"meshCount", MC_FIELD_U32, 18, 1, 0},
    {"matCount", MC_FIELD_U32, 22, 1, 0},        {"reserved", MC_FIELD_BYTES, 26, 3, 0}};

/* docs/formats/semodel.md, the 2018 layout: header. */
static void header_2018(mc_ctx *c, se_file *f, mc_reader *r)
{
    mc_s_layout(c, MC_FIELDS(header_2018_fields));
    f->data_flags = mc_read_u8(r);
    f->bone_flags = mc_read_u8(r);
    f->mesh_flags = mc_read_u8(r);
    f->bones = mc_read_u32(r);
    f->meshes = mc_read_u32(r);
    f->mats = mc_read_u32(r);
    const uint8_t *res = mc_read_bytes(r, 3);
    if (r->fail) return;
    f->flags_at = 11;
    flag_bits(c, 11, "dataPresenceFlags", f->data_flags, D18_KNOWN);
    reserved_bytes(c, 26, res, 3, "reserved");
    presence(c, f, D_BONE, 14, "boneCount", f->bones);
    presence(c, f, D_MESH, 18, "meshCount", f->meshes);
    presence(c, f, D18_MATERIALS, 22, "matCount", f->mats);
    if (f->data_flags & D18_CUSTOM) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_CUSTOM_BLOCK, 11);
        mc_path(in, "/header/dataPresenceFlags");
        mc_msg(in, "CUSTOM (0x80) is set: no layout defines the custom block; bytes after the materials are not checked");
    }
}

/* Magic, version 1, headerSize naming the layout; false when the rest of
 * the file cannot be read with confidence. */
static bool check_header(mc_ctx *c, se_file *f, mc_reader *r)
{
    const uint8_t *magic = mc_read_bytes(r, 7);
    if (!magic || memcmp(magic, "SEModel", 7) != 0) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_BAD_MAGIC, 0);
        mc_path(in, "/header/magic");
        uint8_t m[7] = {0};
        memcpy(m, c->data, c->size < 7 ? c->size : 7);
        mc_msg(in, "magic bytes are %02x %02x %02x %02x %02x %02x %02x (expected \"SEModel\": 53 45 4d 6f 64 65 6c)",
               m[0], m[1], m[2], m[3], m[4], m[5], m[6]);
    }
    uint16_t version = mc_read_u16(r);
    uint16_t header_size = mc_read_u16(r);
    if (r->fail) {
        mc_truncated(c, MC_SEMODEL_TRUNCATED, "/header", "file is %zu bytes; magic, version and headerSize need %d", c->size,
                  SE_PREFIX);
        return false;
    }
    if (version != 1) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_UNSUPPORTED_VERSION, 7);
        mc_path(in, "/header/version");
        mc_msg(in, "version is %u (expected 1)", version);
        return false;
    }
    if (header_size == SE_HEADER_2018) {
        c->layout = "2018";
    } else if (header_size == SE_HEADER_DRAFT || header_size == SE_HEADER_DRAFT_28) {
        c->layout = "draft";
        f->draft = true;
        if (header_size == SE_HEADER_DRAFT_28) {
            mc_instance *in = mc_emit(c, MC_SEMODEL_HEADER_SIZE_28, 9);
            mc_path(in, "/header/headerSize");
            mc_msg(in, "headerSize is 0x1c (28, the draft header without its headerSize field; semodel.md's header is 0x1e, 30 bytes)");
        }
    } else {
        mc_instance *in = mc_emit(c, MC_SEMODEL_HEADER_SIZE, 9);
        mc_path(in, "/header/headerSize");
        mc_msg(in, "headerSize is 0x%x (%u): expected 0x14 (2018 layout) or 0x1e / 0x1c (2017 draft layout, with / without the field)",
               header_size, header_size);
        return false;
    }
    size_t body = f->draft ? SE_HEADER_DRAFT - 2u : SE_HEADER_2018 - 2u;
    if (mc_reader_left(r) < body) {
        mc_truncated(c, MC_SEMODEL_TRUNCATED, "/header", "file is %zu bytes; the %s header ends at %zu", c->size, c->layout,
                  SE_PREFIX + body);
        return false;
    }
    if (f->draft)
        draft_header(c, f, r);
    else
        header_2018(c, f, r);
    flag_bits(c, f->flags_at + 1, "boneDataPresenceFlags", f->bone_flags, B_KNOWN);
    flag_bits(c, f->flags_at + 2, "meshDataPresenceFlags", f->mesh_flags, M_KNOWN);
    uint8_t blocks = (uint8_t)(f->data_flags & (f->draft ? DD_KNOWN : (D18_KNOWN & ~D18_CUSTOM)));
    if (!blocks) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_NO_DATA_BLOCK, f->flags_at);
        mc_path(in, "/header/dataPresenceFlags");
        mc_msg(in, "dataPresenceFlags is 0x%02x: no data block is present (expected at least one)",
               f->data_flags);
    }
    f->bone_w = index_width(f->bones);
    f->mat_w = f->mats <= 0xFF ? 1u : 2u; /* semodel.md: mat_t */
    return true;
}

/* ---- bones ---- */

static uint64_t bone_record_size(const se_file *f)
{
    return 5u + ((f->bone_flags & B_GLOBAL) ? 28u : 0u) + ((f->bone_flags & B_LOCAL) ? 28u : 0u) +
           ((f->bone_flags & B_SCALES) ? 12u : 0u);
}

static void element_flags(mc_ctx *c, uint64_t at, const char *block, uint32_t i, uint8_t flags)
{
    if (!flags) return;
    mc_instance *in = mc_emit(c, MC_SEMODEL_ELEMENT_FLAGS, at);
    mc_path(in, "/%s/%" PRIu32 "/flags", block, i);
    mc_msg(in, "%s %" PRIu32 ": flags byte is 0x%02x (no bit is defined)", block, i, flags);
}

static bool vec_finite(mc_ctx *c, uint64_t at, uint32_t i, const char *field, const float *v,
                       size_t n)
{
    if (mc_all_finite(v, n)) return true;
    mc_instance *in = mc_emit(c, MC_SEMODEL_BONE_NOT_FINITE, at);
    mc_path(in, "/bones/%" PRIu32 "/%s", i, field);
    mc_msg(in, "bone %" PRIu32 ": %s holds NaN or infinity", i, field);
    return false;
}

/* semodel.md: quat_t is X Y Z W (Normalized). */
static void check_transform(mc_ctx *c, mc_reader *r, uint32_t i, const char *pos_name,
                            const char *rot_name)
{
    uint64_t at = r->pos;
    float v[7];
    mc_read_f32s(r, v, 7);
    vec_finite(c, at, i, pos_name, v, 3);
    if (!vec_finite(c, at + 12, i, rot_name, v + 3, 4)) return;
    if (mc_surely_unit(v + 3, 4, c->quaternion) || mc_is_unit(v + 3, 4, c->opt->quaternion_tolerance))
        return;
    mc_instance *in = mc_emit(c, MC_SEMODEL_BONE_ROTATION_NOT_UNIT, at + 12);
    mc_path(in, "/bones/%" PRIu32 "/%s", i, rot_name);
    mc_msg(in, "bone %" PRIu32 ": %s length is %.6f (expected 1 +- %g)", i, rot_name,
           mc_length(v + 3, 4), c->opt->quaternion_tolerance);
}

static void check_bone(mc_ctx *c, const se_file *f, mc_reader *r, uint32_t i)
{
    uint64_t at = r->pos;
    element_flags(c, at, "bones", i, mc_read_u8(r));
    /* semodel.md, SEModel_BoneData: -1 for roots; docs/formats/semodel.md: the Blender
     * importer creates bones in order, so a parent comes before its child. */
    static const mc_parent_codes parent_codes = {
        MC_SEMODEL_BONE_PARENT_SELF, MC_SEMODEL_BONE_PARENT_FORWARD, MC_SEMODEL_BONE_PARENT_RANGE};
    mc_check_parent(c, at + 1, i, mc_read_i32(r), f->bones, &parent_codes);
    if (f->bone_flags & B_GLOBAL) check_transform(c, r, i, "globalPosition", "globalRotation");
    if (f->bone_flags & B_LOCAL) check_transform(c, r, i, "localPosition", "localRotation");
    if (f->bone_flags & B_SCALES) {
        uint64_t sat = r->pos;
        float s[3];
        mc_read_f32s(r, s, 3);
        if (vec_finite(c, sat, i, "scale", s, 3) && (s[0] == 0.0f || s[1] == 0.0f || s[2] == 0.0f)) {
            mc_instance *in = mc_emit(c, MC_SEMODEL_BONE_SCALE_ZERO, sat);
            mc_path(in, "/bones/%" PRIu32 "/scale", i);
            mc_msg(in, "bone %" PRIu32 ": scale is (%g, %g, %g) (expected no zero component)", i,
                   (double)s[0], (double)s[1], (double)s[2]);
        }
    }
}

/* inspect: a bone's data record, with its name (read before the data) */
static void report_bone(mc_ctx *c, const se_file *f, const mc_reader *r, uint32_t i,
                        const se_name *name)
{
    mc_reader q = *r;
    mc_read_u8(&q);
    int32_t parent = mc_read_i32(&q);
    mc_s_enter_index(c, "bone", i, r->pos, bone_record_size(f));
    mc_s_layout(c, MC_FIELDS(bone_fields));
    mc_s_i64(c, "parent", parent);
    mc_s_str(c, "name", c->data + name->at, name->len);
    mc_s_leave(c);
}

/* Names are compared through a hash table of bone indices (linear probing,
 * at most half full), so the check is linear; probes and byte compares are
 * paid from the work budget, so crafted hash collisions cannot make it
 * quadratic. */
static void check_duplicate_names(mc_ctx *c, const se_name *names, uint32_t n)
{
    size_t cap = 16;
    while (cap / 2 < n) cap *= 2;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (!slot) {
        c->nomem = true;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        const se_name *a = &names[i];
        if (a->len == 0) continue; /* SEMODEL_BONE_NAME_EMPTY */
        size_t h = (size_t)a->hash & (cap - 1);
        uint64_t cost = 1;
        for (; slot[h]; h = (h + 1) & (cap - 1), cost++) {
            const se_name *b = &names[slot[h] - 1];
            if (b->hash != a->hash || b->len != a->len) continue;
            cost += b->len;
            if (memcmp(c->data + b->at, c->data + a->at, a->len) != 0) continue;
            mc_instance *in = mc_emit(c, MC_SEMODEL_BONE_NAME_DUPLICATE, a->at);
            mc_path(in, "/bones/%" PRIu32 "/name", i);
            mc_msg(in, "bone %" PRIu32 ": name \"%.*s\" is also the name of bone %" PRIu32, i,
                   (int)(a->len < 64 ? a->len : 64), (const char *)c->data + a->at, slot[h] - 1);
            break;
        }
        if (!slot[h]) slot[h] = i + 1;
        if (!mc_work(c, cost, a->at, "duplicate bone names")) break;
    }
    free(slot);
}

/* semodel.md, SEModel_File: string_t bone[boneCount] then
 * SEModel_BoneData[boneCount] (the same in 2018). */
static bool check_bones(mc_ctx *c, const se_file *f, mc_reader *r)
{
    if (f->bones == 0) return true;
    uint64_t record = bone_record_size(f);
    /* every bone takes its name's NUL and its record at the least */
    if (!mc_reader_fits(r, f->bones, record + 1)) {
        mc_truncated(c, MC_SEMODEL_TRUNCATED, "/bones", "boneCount %" PRIu32 " needs at least %" PRIu32 " x %" PRIu64
                  " bytes from 0x%zx; %zu remain", f->bones, f->bones, record + 1, r->pos,
                  mc_reader_left(r));
        return false;
    }
    se_name *names = malloc((size_t)f->bones * sizeof *names);
    if (!names) {
        c->nomem = true;
        return false;
    }
    bool ok = true;
    for (uint32_t i = 0; i < f->bones && ok; i++) {
        mc_s_enter_index(c, "bone_name", i, r->pos, 0);
        ok = read_string(c, r, "bones", i, "name", &names[i]);
        mc_s_end(c, r->pos);
        mc_s_leave(c);
        if (ok && names[i].len == 0) {
            mc_instance *in = mc_emit(c, MC_SEMODEL_BONE_NAME_EMPTY, names[i].at);
            mc_path(in, "/bones/%" PRIu32 "/name", i);
            mc_msg(in, "bone %" PRIu32 ": name is empty", i);
        }
    }
    if (ok && !mc_reader_fits(r, f->bones, record)) {
        mc_truncated(c, MC_SEMODEL_TRUNCATED, "/bones", "bone data: %" PRIu32 " x %" PRIu64 " bytes from 0x%zx; %zu remain",
                  f->bones, record, r->pos, mc_reader_left(r));
        ok = false;
    }
    if (ok) {
        for (uint32_t i = 0; i < f->bones; i++) {
            if (c->sink) report_bone(c, f, r, i, &names[i]);
            check_bone(c, f, r, i);
        }
        check_duplicate_names(c, names, f->bones);
    }
    free(names);
    return ok;
}

/* ---- meshes: checks shared by both layouts ---- */

static void vertex_not_finite(mc_ctx *c, uint64_t at, const se_mesh *m, uint32_t v,
                              const char *field)
{
    mc_instance *in = mc_emit(c, MC_SEMODEL_VERTEX_NOT_FINITE, at);
    mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu32 "/%s", m->index, v, field);
    mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu32 ": %s holds NaN or infinity", m->index, v, field);
}

static void check_position(mc_ctx *c, uint64_t at, const se_mesh *m, uint32_t v, const float p[3])
{
    if (!mc_all_finite(p, 3)) vertex_not_finite(c, at, m, v, "position");
}

static void check_uv(mc_ctx *c, uint64_t at, const se_mesh *m, uint32_t v, const float uv[2])
{
    if (!mc_all_finite(uv, 2)) vertex_not_finite(c, at, m, v, "uv");
}

/* A unit direction, or (0, 0, 0) for none: counted in zero, reported once
 * per mesh by report_zero_normals. */
static void check_normal(mc_ctx *c, uint64_t at, const se_mesh *m, uint32_t v, const float n[3],
                         mc_zero_normals *zero)
{
    switch (mc_normal_judge(c, n)) {
    case MC_NORMAL_UNIT:
        break;
    case MC_NORMAL_NOT_FINITE:
        vertex_not_finite(c, at, m, v, "normal");
        break;
    case MC_NORMAL_ZERO:
        mc_zero_normals_add(zero, at, v);
        break;
    case MC_NORMAL_NOT_UNIT: {
        mc_instance *in = mc_emit(c, MC_SEMODEL_NORMAL_NOT_UNIT, at);
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu32 "/normal", m->index, v);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu32 ": normal (%g, %g, %g) has length %g (expected 1 +- %g)",
               m->index, v, (double)n[0], (double)n[1], (double)n[2], mc_length(n, 3),
               c->opt->unit_tolerance);
        break;
    }
    }
}

static void report_zero_normals(mc_ctx *c, const se_mesh *m, const mc_zero_normals *zero)
{
    if (!zero->count) return;
    char where[24];
    snprintf(where, sizeof where, "mesh %" PRIu32, m->index);
    mc_instance *in = mc_emit(c, MC_SEMODEL_NORMAL_ZERO, zero->first_offset);
    mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/normal", m->index, zero->first_vertex);
    mc_zero_normals_msg(in, zero, where, m->vertices);
}

/* Where slot j's bone index and weight sit. */
typedef struct slot_layout {
    uint64_t bone_at, bone_step, weight_at, weight_step;
} slot_layout;

/* semodel.md, SEModel_VertexData: bone indices into the bone table; the
 * weights of a vertex sum to 1, each in [0, 1]. Returns the influences
 * (weights > 0). */
static unsigned check_weights(mc_ctx *c, const se_file *f, const se_mesh *m, uint32_t v,
                              unsigned n, const uint32_t *bone, const float *w,
                              const slot_layout *at, double per_weight)
{
    double sum = 0.0;
    unsigned nonzero = 0;
    bool finite = true;
    for (unsigned j = 0; j < n; j++) {
        if (bone[j] >= f->bones) {
            mc_instance *in = mc_emit(c, MC_SEMODEL_WEIGHT_BONE_RANGE, at->bone_at + j * at->bone_step);
            mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu32 "/bones/%u", m->index, v, j);
            mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu32 ": bone index %" PRIu32 " (expected < bone count %" PRIu32 ")",
                   m->index, v, bone[j], f->bones);
        }
        if (!isfinite(w[j]) || w[j] < 0.0f || w[j] > 1.0f) {
            mc_instance *in = mc_emit(c, MC_SEMODEL_WEIGHT_RANGE, at->weight_at + j * at->weight_step);
            mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu32 "/weights/%u", m->index, v, j);
            mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu32 ": weight %u is %g (expected within [0, 1])",
                   m->index, v, j, (double)w[j]);
        }
        finite = finite && isfinite(w[j]);
        sum += (double)w[j];
        nonzero += w[j] != 0.0f;
    }
    double tol = per_weight * (nonzero ? nonzero : 1);
    if (n && finite && fabs(sum - 1.0) > tol) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_WEIGHT_SUM, at->weight_at);
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu32 "/weights", m->index, v);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu32 ": weights sum to %.6f (expected 1 +- %g)",
               m->index, v, sum, tol);
    }
    unsigned influences = 0;
    for (unsigned j = 0; j < n; j++) influences += w[j] > 0.0f;
    return influences;
}

/* ---- meshes: clean paths (issue 16) ----
 *
 * A column of the 2018 layout is first tested a chunk of SE_CHUNK elements
 * at a time by one loop without branches (the compiler runs it on several
 * elements at once), a weight record or a draft vertex record by one
 * function without paths or messages; only a chunk or record with a doubt
 * goes through the exact checks above, which alone report. Where the clean
 * path computes what an exact check computes (weight sums, index ranges)
 * it does so the same way, so it never passes what the exact check would
 * report.
 */
enum { SE_CHUNK = 1024 };

/* The copies of a clean path per constant influence count and index width
 * are made by inlining (MC_ALWAYS_INLINE, mc_check.h). */
#define SE_INLINE MC_ALWAYS_INLINE
/* SE_INLINE, but a function of its own in the WebAssembly build, where a
 * function V8 optimises must be small and called per chunk (MC_HOT_FN):
 * inlined, draft_chunk_clean's fifteen copies of one clean path made one
 * function that V8 took 30 ms to optimise, past most of a 100 MB file. */
#if defined(__wasm__)
#define SE_CHUNK_PART static MC_HOT_FN
#else
#define SE_CHUNK_PART SE_INLINE
#endif

static uint32_t le_index(const uint8_t *b, unsigned width)
{
    return width == 1 ? b[0] : width == 2 ? mc_le16(b) : mc_le32(b);
}

/* n floats, none NaN or infinite (all exponent bits set). */
MC_HOT_FN static bool f32s_finite(const uint8_t *b, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) bad |= !mc_f32_bits_finite(mc_le32_bits(b + 4 * i));
    return !bad;
}

#if defined(__SSE2__)
/* Four records of three 32-bit fields (48 bytes) loaded as a, b, c hold
 * a0 a1 a2 | a3 b0 b1 | b2 b3 c0 | c1 c2 c3; shuffles (which move bits and
 * compute nothing) gather each field of the four into one register. */
static inline void se_transpose3(__m128 a, __m128 b, __m128 c, __m128 f[3])
{
    __m128 u = _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2)); /* b2 b2 c1 c1 */
    f[0] = _mm_shuffle_ps(a, u, _MM_SHUFFLE(2, 0, 3, 0));     /* a0 a3 b2 c1 */
    u = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1));        /* a1 a1 b0 b0 */
    __m128 v = _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3)); /* b3 b3 c2 c2 */
    f[1] = _mm_shuffle_ps(u, v, _MM_SHUFFLE(2, 0, 2, 0));     /* a1 b0 b3 c2 */
    u = _mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2));        /* a2 a2 b1 b1 */
    f[2] = _mm_shuffle_ps(u, c, _MM_SHUFFLE(3, 0, 2, 0));     /* a2 b1 c0 c3 */
}

static inline void se_load3(const uint8_t *b, __m128 f[3])
{
    se_transpose3(_mm_loadu_ps((const float *)(const void *)b),
                  _mm_loadu_ps((const float *)(const void *)(b + 16)),
                  _mm_loadu_ps((const float *)(const void *)(b + 32)), f);
}
#endif

/* n float normals, each inside the clean-path bounds (mc_surely_unit: NaN,
 * infinity and zero fall outside): check_normal reports and counts none.
 * With SSE2, four at a time: each lane computes x*x + y*y + z*z with the
 * same float operations in the same order as the scalar loop (no fused
 * multiply-add without -mfma), so both decide alike. */
MC_HOT_FN static bool normals_surely_unit(const uint8_t *b, size_t n, mc_unit_bounds u)
{
    size_t v = 0;
    unsigned bad = 0;
#if defined(__SSE2__)
    const __m128 lo = _mm_set1_ps(u.lo2), hi = _mm_set1_ps(u.hi2);
    __m128 in = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (; v + 4 <= n; v += 4) {
        __m128 f[3];
        se_load3(b + 12 * v, f);
        __m128 s = _mm_add_ps(_mm_add_ps(_mm_mul_ps(f[0], f[0]), _mm_mul_ps(f[1], f[1])),
                              _mm_mul_ps(f[2], f[2]));
        in = _mm_and_ps(in, _mm_and_ps(_mm_cmpge_ps(s, lo), _mm_cmple_ps(s, hi))); /* NaN: false */
    }
    bad = _mm_movemask_ps(in) != 0xF;
#endif
    for (; v < n; v++) {
        float x = mc_le_f32(b + 12 * v), y = mc_le_f32(b + 12 * v + 4), z = mc_le_f32(b + 12 * v + 8);
        float s = x * x + y * y + z * z;
        bad |= !((s >= u.lo2) & (s <= u.hi2));
    }
    return !bad;
}

/* n faces of width-byte indices, each below vertices and none repeated:
 * check_faces reports nothing. */
static inline bool faces_clean_w(const uint8_t *b, size_t n, uint32_t vertices, unsigned width)
{
    unsigned bad = 0;
    for (size_t t = 0; t < n; t++) {
        const uint8_t *p = b + 3 * width * t;
        uint32_t i0 = le_index(p, width), i1 = le_index(p + width, width),
                 i2 = le_index(p + 2 * width, width);
        bad |= (i0 >= vertices) | (i1 >= vertices) | (i2 >= vertices) | (i0 == i1) |
               (i1 == i2) | (i0 == i2);
    }
    return !bad;
}

/* faces_clean_w for u32 indices (draft faces, and 2018 meshes of more than
 * 65,535 vertices). With SSE2, four faces at a time: the twelve indices
 * below vertices (unsigned compared as signed once the top bit of both
 * sides is flipped), then the three pairs of each face compared for
 * equality once se_transpose3 has put its i0, i1 and i2 in one lane. */
static bool faces_clean_u32(const uint8_t *b, size_t n, uint32_t vertices)
{
    size_t t = 0;
    bool ok = true;
#if defined(__SSE2__)
    const __m128i flip = _mm_set1_epi32(INT32_MIN);
    const __m128i lim = _mm_set1_epi32((int32_t)(vertices ^ 0x80000000u)); /* modulo 2^32 */
    __m128i good = _mm_set1_epi32(-1);
    for (; t + 4 <= n; t += 4) {
        __m128 f[3];
        se_load3(b + 12 * t, f);
        __m128i i0 = _mm_castps_si128(f[0]), i1 = _mm_castps_si128(f[1]), i2 = _mm_castps_si128(f[2]);
        __m128i in = _mm_and_si128(_mm_cmplt_epi32(_mm_xor_si128(i0, flip), lim),
                                   _mm_cmplt_epi32(_mm_xor_si128(i1, flip), lim));
        in = _mm_and_si128(in, _mm_cmplt_epi32(_mm_xor_si128(i2, flip), lim));
        __m128i same = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi32(i0, i1), _mm_cmpeq_epi32(i1, i2)),
                                    _mm_cmpeq_epi32(i0, i2));
        good = _mm_and_si128(good, _mm_andnot_si128(same, in));
    }
    ok = _mm_movemask_epi8(good) == 0xFFFF;
#endif
    return ok && faces_clean_w(b + 12 * t, n - t, vertices, 4);
}

MC_HOT_FN static bool faces_clean(const uint8_t *b, size_t n, uint32_t vertices, unsigned width)
{
    /* a constant width per call, so each loop reads its indices in place */
    if (width == 1) return faces_clean_w(b, n, vertices, 1);
    if (width == 2) return faces_clean_w(b, n, vertices, 2);
    return faces_clean_u32(b, n, vertices);
}

/* check_weights' sum tolerance for k non-zero weights, computed as it does
 * (per_weight times k, or times 1 for none), once per mesh for k <= inf. */
static void weight_tolerances(double per_weight, unsigned inf, double tol[256])
{
    for (unsigned k = 0; k <= inf; k++) tol[k] = per_weight * (k ? k : 1);
}

/* n 2018 weight records (inf times a width-byte bone index then a float),
 * judged as check_weights judges them, without branches: true when it
 * reports none of them; the most influences of a record go to *most. inf
 * and width are constants in every copy below, so the loop over the
 * influences unrolls and reads in place. A float is in [0, 1] when its
 * bits are at most 0x3F800000 (1.0f) read as an unsigned integer: every
 * negative float, NaN and -0.0f are above (-0.0f is in range, but
 * declined here). Subnormal weights (bits 1 to 0x7FFFFF) are declined too:
 * a caller running with denormals-are-zero makes them 0 in check_weights'
 * float compares and sum, not here. Then w != 0 is w > 0, so the non-zero
 * count is the influence count check_weights returns. The sum is the exact check's:
 * the same double additions in the same order (it starts at w[0] instead
 * of 0.0 + w[0], which differ only in the sign of a zero, and |sum - 1|
 * does not see that sign). Bone indices are judged by their maximum. */
SE_INLINE bool weights_chunk_2018_k(const uint8_t *b, size_t n, unsigned inf,
                                    unsigned width, uint32_t bones, const double *tol,
                                    unsigned *most)
{
    size_t record = (size_t)inf * (width + 4u);
    unsigned bad = 0, top = 0, subnormal = 0;
    uint32_t top_bone = 0, top_bits = 0;
    for (size_t v = 0; v < n; v++) {
        const uint8_t *p = b + v * record;
        uint32_t bits = mc_le32_bits(p + width), bone = le_index(p, width);
        double sum = (double)mc_bits_f32(bits);
        unsigned nonzero = bits != 0;
        subnormal |= bits - 1u < 0x007FFFFFu;
        top_bits = bits > top_bits ? bits : top_bits;
        top_bone = bone > top_bone ? bone : top_bone;
        for (unsigned j = 1; j < inf; j++) {
            p += width + 4u;
            bits = mc_le32_bits(p + width);
            bone = le_index(p, width);
            sum += (double)mc_bits_f32(bits);
            nonzero += bits != 0;
            subnormal |= bits - 1u < 0x007FFFFFu;
            top_bits = bits > top_bits ? bits : top_bits;
            top_bone = bone > top_bone ? bone : top_bone;
        }
        bad |= !(fabs(sum - 1.0) <= tol[nonzero]);
        top = nonzero > top ? nonzero : top;
    }
    *most = top;
    return !bad & !subnormal & (top_bits <= 0x3F800000u) & (top_bone < bones);
}

/* The common influence counts (1, 2, 4, 8) get a copy with the count a
 * constant; any other count runs the same code with a variable. */
SE_INLINE bool weights_chunk_2018_w(const uint8_t *b, size_t n, unsigned inf,
                                    unsigned width, uint32_t bones, const double *tol,
                                    unsigned *most)
{
    switch (inf) {
    case 1: return weights_chunk_2018_k(b, n, 1, width, bones, tol, most);
    case 2: return weights_chunk_2018_k(b, n, 2, width, bones, tol, most);
    case 4: return weights_chunk_2018_k(b, n, 4, width, bones, tol, most);
    case 8: return weights_chunk_2018_k(b, n, 8, width, bones, tol, most);
    default: return weights_chunk_2018_k(b, n, inf, width, bones, tol, most);
    }
}

/* One function per index width (MC_HOT_FN): in the WebAssembly build V8
 * then optimises the file's width alone. */
MC_HOT_FN static bool weights_chunk_2018_w1(const uint8_t *b, size_t n, unsigned inf,
                                            uint32_t bones, const double *tol, unsigned *most)
{
    return weights_chunk_2018_w(b, n, inf, 1, bones, tol, most);
}

MC_HOT_FN static bool weights_chunk_2018_w2(const uint8_t *b, size_t n, unsigned inf,
                                            uint32_t bones, const double *tol, unsigned *most)
{
    return weights_chunk_2018_w(b, n, inf, 2, bones, tol, most);
}

MC_HOT_FN static bool weights_chunk_2018_w4(const uint8_t *b, size_t n, unsigned inf,
                                            uint32_t bones, const double *tol, unsigned *most)
{
    return weights_chunk_2018_w(b, n, inf, 4, bones, tol, most);
}

static bool weights_chunk_2018(const uint8_t *b, size_t n, unsigned inf, unsigned width,
                               uint32_t bones, const double *tol, unsigned *most)
{
    if (width == 1) return weights_chunk_2018_w1(b, n, inf, bones, tol, most);
    if (width == 2) return weights_chunk_2018_w2(b, n, inf, bones, tol, most);
    return weights_chunk_2018_w4(b, n, inf, bones, tol, most);
}

/* semodel.md, SEModel_FaceData: triangle lists over the mesh's vertices. */
/* Returns the faces repeating an index (inspect's degenerate triangles). */
MC_HOT_FN static uint64_t check_faces(mc_ctx *c, mc_reader *r, const se_mesh *m, unsigned width)
{
    uint64_t degenerate = 0;
    /* the clean path (issue 16): a chunk of faces in range and without
     * repeats is passed whole; any other goes through the loop below */
    uint32_t t0 = 0;
    while (t0 < m->faces) {
        uint32_t n = m->faces - t0 < 1024u ? m->faces - t0 : 1024u;
        size_t bytes = (size_t)n * 3u * width;
        if (!c->fast || r->fail || bytes > mc_reader_left(r) || !faces_clean(r->p + r->pos, n, m->vertices, width))
            break;
        r->pos += bytes;
        t0 += n;
    }
    for (uint32_t t = t0; t < m->faces; t++) {
        uint64_t at = r->pos;
        uint32_t idx[3];
        for (int k = 0; k < 3; k++) idx[k] = read_index(r, width);
        if (r->fail) return degenerate;
        for (unsigned k = 0; k < 3; k++) {
            if (idx[k] < m->vertices) continue;
            mc_instance *in = mc_emit(c, MC_SEMODEL_FACE_INDEX_RANGE, at + k * width);
            mc_path(in, "/meshes/%" PRIu32 "/faces/%" PRIu32 "/%u", m->index, t, k);
            mc_msg(in, "mesh %" PRIu32 " face %" PRIu32 ": index %" PRIu32 " (expected < vertexCount %" PRIu32 ")",
                   m->index, t, idx[k], m->vertices);
        }
        if (idx[0] == idx[1] || idx[1] == idx[2] || idx[0] == idx[2]) {
            degenerate++;
            mc_instance *in = mc_emit(c, MC_SEMODEL_FACE_DEGENERATE, at);
            mc_path(in, "/meshes/%" PRIu32 "/faces/%" PRIu32, m->index, t);
            mc_msg(in, "mesh %" PRIu32 " face %" PRIu32 ": indices (%" PRIu32 ", %" PRIu32 ", %" PRIu32 ") repeat a vertex",
                   m->index, t, idx[0], idx[1], idx[2]);
        }
    }
    return degenerate;
}

static void material_range(mc_ctx *c, const se_file *f, uint64_t at, const se_mesh *m,
                           uint32_t v, unsigned layer, int64_t index)
{
    mc_instance *in = mc_emit(c, MC_SEMODEL_MATERIAL_INDEX_RANGE, at);
    if (f->draft)
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu32 "/materials/%u", m->index, v, layer);
    else
        mc_path(in, "/meshes/%" PRIu32 "/materials/%u", m->index, layer);
    mc_msg(in, "mesh %" PRIu32 " UV layer %u: material index %" PRId64 " (expected %s< matCount %" PRIu32 ")",
           m->index, layer, index, f->draft ? "" : "-1 or ", f->mats);
}

/* The two per-mesh mismatches the readers disagree on (docs/formats/semodel.md). */
static void check_mesh_header(mc_ctx *c, const se_file *f, const se_mesh *m)
{
    element_flags(c, m->at, "meshes", m->index, m->flags);
    bool uvset = (f->mesh_flags & M_UVSET) != 0;
    if (!uvset && m->layers > 0) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_UV_LAYERS_WITHOUT_UVSET, m->at + 1);
        mc_path(in, "/meshes/%" PRIu32 "/%s", m->index, f->draft ? "uvSetCount" : "matReferenceCount");
        mc_msg(in, "mesh %" PRIu32 ": %u UV layers but UVSET is clear: no UVs are read%s", m->index,
               m->layers, f->draft ? "" : " (the material references still are)");
    } else if (uvset && m->layers == 0) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_UVSET_WITHOUT_UV_LAYERS, m->at + 1);
        mc_path(in, "/meshes/%" PRIu32 "/%s", m->index, f->draft ? "uvSetCount" : "matReferenceCount");
        mc_msg(in, "mesh %" PRIu32 ": UVSET is set (at least 1 UV layer) but the mesh has 0", m->index);
    }
    if (f->draft) return;
    bool weights = (f->mesh_flags & M_WEIGHTS) != 0;
    if (weights && m->influence == 0) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_SKIN_INFLUENCE_ZERO, m->at + 2);
        mc_path(in, "/meshes/%" PRIu32 "/maxSkinInfluence", m->index);
        mc_msg(in, "mesh %" PRIu32 ": WEIGHTS is set but maxSkinInfluence is 0 (expected > 0)", m->index);
    } else if (!weights && m->influence > 0) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_SKIN_INFLUENCE_WITHOUT_WEIGHTS, m->at + 2);
        mc_path(in, "/meshes/%" PRIu32 "/maxSkinInfluence", m->index);
        mc_msg(in, "mesh %" PRIu32 ": maxSkinInfluence is %u but WEIGHTS is clear (no weights are read)",
               m->index, m->influence);
    }
}

static void count_mesh(mc_ctx *c, const se_mesh *m, unsigned uv_layers)
{
    c->info->vertices += m->vertices;
    c->info->triangles += m->faces;
    c->info->indices += 3u * (uint64_t)m->faces;
    if (uv_layers > c->info->uv_layers) c->info->uv_layers = uv_layers;
}

/* ---- meshes: the 2018 layout (docs/formats/semodel.md) ---- */

/* The element count of the chunk that starts at v0: SE_CHUNK, or what is
 * left. Loops step by it, so v0 ends at total and never wraps past 2^32. */
static uint32_t chunk_of(uint32_t total, uint32_t v0)
{
    return total - v0 < SE_CHUNK ? total - v0 : SE_CHUNK;
}

static bool mesh_body_size(const se_file *f, const se_mesh *m, uint64_t *size);

/* A 2018 mesh body's arrays as the structure sink sees them (the same
 * views for mc_s_walked in check_mesh_2018 and report_geometry): false
 * when the body does not fit r (at its start). */
typedef struct se_views {
    uint64_t body, faces_bytes;
    mc_view positions, weights, faces;
    uint32_t step; /* between the weights of a vertex: each follows its bone index */
} se_views;

static bool mesh_views(const se_file *f, const mc_reader *r, const se_mesh *m, se_views *out)
{
    static const mc_field_type index_type[5] = {MC_FIELD_U8, MC_FIELD_U8, MC_FIELD_U16,
                                                MC_FIELD_U8, MC_FIELD_U32};
    uint64_t body, v = m->vertices;
    if (f->draft || !mesh_body_size(f, m, &body) || body > mc_reader_left(r)) return false;
    const uint8_t *p = r->p + r->pos;
    unsigned layers = (f->mesh_flags & M_UVSET) ? m->layers : 0;
    unsigned inf = (f->mesh_flags & M_WEIGHTS) ? m->influence : 0;
    /* the body fits: each array in it does */
    uint64_t at = 12 * v + 8u * layers * v;
    if (f->mesh_flags & M_NORMALS) at += 12 * v;
    if (f->mesh_flags & M_COLOR) at += 4 * v;
    uint64_t record = (uint64_t)inf * (f->bone_w + 4u);
    out->body = body;
    out->faces_bytes = 3u * (uint64_t)m->faces * m->face_w;
    out->positions = (mc_view){p, (size_t)body, v, 12, MC_FIELD_F32, 3};
    out->weights = (mc_view){p + at + f->bone_w, v ? (size_t)(record * v - f->bone_w) : 0, v,
                             record, MC_FIELD_F32, inf};
    out->faces = (mc_view){p + (body - out->faces_bytes), (size_t)out->faces_bytes,
                           3u * (uint64_t)m->faces, m->face_w,
                           index_type[m->face_w <= 4 ? m->face_w : 0], 1};
    out->step = f->bone_w + 4u;
    return true;
}

/* Returns check_faces' degenerate triangles. */
MC_HOT_FN static uint64_t check_mesh_2018(mc_ctx *c, const se_file *f, mc_reader *r, const se_mesh *m)
{
    unsigned layers = (f->mesh_flags & M_UVSET) ? m->layers : 0;
    unsigned inf = (f->mesh_flags & M_WEIGHTS) ? m->influence : 0;
    se_views views;
    bool summed = c->sink && mesh_views(f, r, m, &views); /* while inspecting */
    /* each loop: a chunk passes its clean path, or the exact checks run
     * over it from the same position (x); the mesh was checked to fit */
    for (uint32_t v0 = 0, n; v0 < m->vertices; v0 += n) {
        n = chunk_of(m->vertices, v0);
        mc_reader x = *r;
        const uint8_t *b = mc_read_bytes(r, (size_t)n * 12u);
        if (b && summed) mc_s_walked(c, &views.positions, NULL, 0, v0, n);
        if (!b || (c->fast && f32s_finite(b, (size_t)n * 3u))) continue;
        for (uint32_t v = v0; v < v0 + n; v++) {
            uint64_t at = x.pos;
            float p[3];
            mc_read_f32s(&x, p, 3);
            check_position(c, at, m, v, p);
        }
    }
    for (uint32_t v0 = 0, n; v0 < m->vertices && layers; v0 += n) {
        n = chunk_of(m->vertices, v0);
        mc_reader x = *r;
        const uint8_t *b = mc_read_bytes(r, (size_t)n * layers * 8u);
        if (!b || (c->fast && f32s_finite(b, (size_t)n * layers * 2u))) continue;
        for (uint32_t v = v0; v < v0 + n; v++) {
            for (unsigned l = 0; l < layers; l++) {
                uint64_t at = x.pos;
                float uv[2];
                mc_read_f32s(&x, uv, 2);
                check_uv(c, at, m, v, uv);
            }
        }
    }
    if (f->mesh_flags & M_NORMALS) {
        mc_zero_normals zero = {0};
        for (uint32_t v0 = 0, n; v0 < m->vertices; v0 += n) {
            n = chunk_of(m->vertices, v0);
            mc_reader x = *r;
            const uint8_t *b = mc_read_bytes(r, (size_t)n * 12u);
            if (!b || (c->fast && normals_surely_unit(b, n, c->unit))) continue;
            for (uint32_t v = v0; v < v0 + n; v++) {
                uint64_t at = x.pos;
                float nv[3];
                mc_read_f32s(&x, nv, 3);
                check_normal(c, at, m, v, nv, &zero);
            }
        }
        report_zero_normals(c, m, &zero);
    }
    if (f->mesh_flags & M_COLOR) mc_reader_skip(r, (size_t)m->vertices * 4u);
    uint32_t bone[255];
    float w[255];
    size_t record = (size_t)inf * (f->bone_w + 4u);
    unsigned most = c->info->max_influences;
    double tol[256];
    weight_tolerances(c->opt->weight_sum_tolerance, inf, tol);
    for (uint32_t v0 = 0, n; v0 < m->vertices && inf; v0 += n) {
        n = chunk_of(m->vertices, v0);
        mc_reader x = *r;
        const uint8_t *b = mc_read_bytes(r, (size_t)n * record);
        if (!b) break; /* unreachable: the mesh was checked to fit */
        if (summed) mc_s_walked(c, NULL, &views.weights, views.step, v0, n);
        unsigned chunk_most;
        if (c->fast && weights_chunk_2018(b, n, inf, f->bone_w, f->bones, tol, &chunk_most)) {
            if (chunk_most > most) most = chunk_most;
            continue;
        }
        for (uint32_t v = v0; v < v0 + n; v++) {
            slot_layout sl = {x.pos, f->bone_w + 4u, x.pos + f->bone_w, f->bone_w + 4u};
            const uint8_t *p = mc_read_bytes(&x, record); /* inside the chunk read above */
            if (!p) break;
            for (unsigned j = 0; j < inf; j++, p += f->bone_w + 4u) {
                bone[j] = le_index(p, f->bone_w);
                w[j] = mc_bits_f32(mc_le32(p + f->bone_w));
            }
            unsigned used = check_weights(c, f, m, v, inf, bone, w, &sl, c->opt->weight_sum_tolerance);
            if (used > most) most = used;
        }
    }
    c->info->max_influences = most;
    uint64_t degenerate = check_faces(c, r, m, m->face_w);
    /* docs/formats/semodel.md: i32 materialIndex[matReferenceCount] after the faces, -1 none */
    for (unsigned l = 0; l < m->layers; l++) {
        uint64_t at = r->pos;
        int32_t mat = mc_read_i32(r);
        if (mat == -1 || (mat >= 0 && (uint32_t)mat < f->mats)) continue;
        material_range(c, f, at, m, 0, l, mat);
    }
    count_mesh(c, m, layers);
    return degenerate;
}

/* ---- meshes: the draft layout (semodel.md) ---- */

static uint64_t draft_vertex_size(const se_file *f, const se_mesh *m)
{
    uint64_t size = 12;
    if (f->mesh_flags & M_UVSET) size += (uint64_t)m->layers * (8u + f->mat_w);
    if (f->mesh_flags & M_NORMALS) size += 6;
    if (f->mesh_flags & M_COLOR) size += 4;
    if (f->mesh_flags & M_WEIGHTS) size += (uint64_t)f->max_influence * (f->bone_w + 2u);
    return size;
}

static void check_draft_vertex(mc_ctx *c, const se_file *f, mc_reader *r, const se_mesh *m,
                               uint32_t v, mc_zero_normals *zero)
{
    uint64_t at = r->pos;
    float p[3];
    mc_read_f32s(r, p, 3);
    check_position(c, at, m, v, p);
    if (f->mesh_flags & M_UVSET) {
        for (unsigned l = 0; l < m->layers; l++) {
            float uv[2];
            at = r->pos;
            mc_read_f32s(r, uv, 2);
            check_uv(c, at, m, v, uv);
        }
        for (unsigned l = 0; l < m->layers; l++) {
            at = r->pos;
            uint32_t mat = read_index(r, f->mat_w);
            if (mat < f->mats) continue;
            material_range(c, f, at, m, v, l, mat);
        }
    }
    if (f->mesh_flags & M_NORMALS) {
        at = r->pos;
        float n[3] = {read_half(r), read_half(r), read_half(r)};
        check_normal(c, at, m, v, n, zero);
    }
    if (f->mesh_flags & M_COLOR) mc_reader_skip(r, 4);
    unsigned inf = (f->mesh_flags & M_WEIGHTS) ? f->max_influence : 0;
    if (!inf) return;
    uint32_t bone[255];
    float w[255];
    slot_layout sl = {r->pos, f->bone_w, r->pos + (uint64_t)inf * f->bone_w, 2};
    for (unsigned j = 0; j < inf; j++) bone[j] = read_index(r, f->bone_w);
    for (unsigned j = 0; j < inf; j++) w[j] = read_half(r);
    double tol = c->opt->weight_sum_tolerance > SE_HALF_WEIGHT_TOLERANCE ? c->opt->weight_sum_tolerance
                                                                         : SE_HALF_WEIGHT_TOLERANCE;
    unsigned used = check_weights(c, f, m, v, inf, bone, w, &sl, tol);
    if (used > c->info->max_influences) c->info->max_influences = used;
}

/* The fields of a draft vertex record (semodel.md, SEModel_VertexData),
 * fixed per mesh, and what the clean path compares them with. */
typedef struct se_draft_layout {
    size_t record;             /* bytes per vertex */
    unsigned layers, mat_w;    /* UV layers (0 without UVSET), bytes per mat_t */
    bool normals;
    size_t weights_at;         /* where the bone indices start */
    unsigned inf, bone_w;      /* influences (0 without WEIGHTS), bytes per bone_t */
    uint32_t bones, mats;
    mc_unit_bounds unit;
    double tol[256];           /* the weight sum tolerance per non-zero count */
} se_draft_layout;

static void draft_layout_make(const mc_ctx *c, const se_file *f, const se_mesh *m,
                              se_draft_layout *d)
{
    d->record = (size_t)draft_vertex_size(f, m); /* the mesh fits the file */
    d->layers = (f->mesh_flags & M_UVSET) ? m->layers : 0;
    d->mat_w = f->mat_w;
    d->normals = (f->mesh_flags & M_NORMALS) != 0;
    d->weights_at = 12u + d->layers * (8u + d->mat_w) + (d->normals ? 6u : 0u) +
                    ((f->mesh_flags & M_COLOR) ? 4u : 0u);
    d->inf = (f->mesh_flags & M_WEIGHTS) ? f->max_influence : 0;
    d->bone_w = f->bone_w;
    d->bones = f->bones;
    d->mats = f->mats;
    d->unit = c->unit;
    double per_weight = c->opt->weight_sum_tolerance > SE_HALF_WEIGHT_TOLERANCE
                            ? c->opt->weight_sum_tolerance
                            : SE_HALF_WEIGHT_TOLERANCE;
    weight_tolerances(per_weight, d->inf, d->tol);
}

/* The clean path's reading of a half (semodel.md: normals and weights are
 * binary16) by its magnitude bits, sign dropped: the same expression as
 * mc_half_to_f32 for a normal half (bits moved into a float's place are
 * the value times 2^-112, scaled back exactly), and 0 for a zero. A
 * subnormal, infinite or NaN half is read wrong here (and a subnormal one
 * through a float subnormal, which denormals-are-zero would read as 0), so
 * the callers decline every record that holds one, by half_odd. */
SE_INLINE float half_mag_f32(uint32_t mag)
{
    return mc_bits_f32(mag << 13) * 0x1p112f;
}

/* A half's magnitude bits (h & 0x7FFF) of exponent 31 (infinity, NaN) or
 * 0 with a fraction (subnormal). */
SE_INLINE unsigned half_odd(uint32_t mag)
{
    return (mag - 1u < 0x3FFu) | (mag >= 0x7C00u);
}

#if defined(__SSE2__)
/* half_mag_f32 of four 32-bit lanes of magnitude bits. */
SE_INLINE __m128 halves_mag_f32(__m128i mag)
{
    return _mm_mul_ps(_mm_castsi128_ps(_mm_slli_epi32(mag, 13)), _mm_set1_ps(0x1p112f));
}
#endif

/* A float's bits plus, in the sign bit, whether it is NaN or infinite:
 * its exponent bits plus one exponent step carry into the sign bit exactly
 * when they are all set. Or-ed over many floats, the sign bit says whether
 * any was. */
SE_INLINE uint32_t f32_nonfinite_bit(const uint8_t *b)
{
    return (mc_le32_bits(b) & 0x7F800000u) + 0x00800000u;
}

/* The clean path of check_draft_vertex runs over a chunk of n records one
 * field at a time (a short loop body keeps many records in flight), each
 * pass true when the exact check reports nothing on that field of any
 * record. Positions and UVs: finite. */
SE_CHUNK_PART bool draft_floats_clean(const se_draft_layout *d, const uint8_t *b, size_t n)
{
    uint32_t nonfinite = 0;
    size_t v = 0;
#if defined(__SSE2__)
    /* With SSE2 a position is tested by one 16-byte load: for every record
     * but the chunk's last, those bytes lie inside the chunk (the next
     * record holds 12 bytes at least); the fourth lane is masked to 0. */
    const __m128i expo = _mm_setr_epi32(0x7F800000, 0x7F800000, 0x7F800000, 0);
    const __m128i step = _mm_set1_epi32(0x00800000);
    __m128i acc = _mm_setzero_si128();
    for (; v + 1 < n; v++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(b + v * d->record));
        acc = _mm_or_si128(acc, _mm_add_epi32(_mm_and_si128(x, expo), step));
    }
    nonfinite = _mm_movemask_ps(_mm_castsi128_ps(acc)) ? 0x80000000u : 0; /* any lane's sign */
#endif
    for (; v < n; v++) {
        const uint8_t *p = b + v * d->record;
        nonfinite |= f32_nonfinite_bit(p) | f32_nonfinite_bit(p + 4) | f32_nonfinite_bit(p + 8);
    }
    for (v = 0; v < n && d->layers; v++) {
        const uint8_t *p = b + v * d->record + 12;
        for (unsigned k = 0; k < 2u * d->layers; k++) nonfinite |= f32_nonfinite_bit(p + 4 * k);
    }
    return !(nonfinite >> 31);
}

/* The material index of every UV layer below matCount. */
MC_HOT_FN static bool draft_materials_clean(const se_draft_layout *d, const uint8_t *b, size_t n)
{
    uint32_t top = 0;
    for (size_t v = 0; v < n; v++) {
        const uint8_t *q = b + v * d->record + 12u + 8u * d->layers;
        for (unsigned l = 0; l < d->layers; l++, q += d->mat_w) {
            uint32_t mat = le_index(q, d->mat_w);
            top = mat > top ? mat : top;
        }
    }
    return top < d->mats;
}

/* The normal: mc_normal_judge's first test, mc_surely_unit's
 * x*x + y*y + z*z (float, this order) against the same bounds, over the
 * floats mc_half_to_f32 gives (the signs dropped do not change a square);
 * zero falls outside the bounds. */
SE_CHUNK_PART bool draft_normals_clean(const se_draft_layout *d, const uint8_t *b, size_t n)
{
    unsigned bad = 0;
    size_t v = 0;
    const uint8_t *q = b + 12u + d->layers * (8u + d->mat_w);
#if defined(__SSE2__)
    /* Four records at a time while the chunk has a record after them, so
     * that 8 bytes from each normal lie inside the chunk: the 16-bit x, y,
     * z (and 2 bytes beyond, dropped) of each are interleaved into x0..x3
     * y0..y3 and z0..z3; half_odd's two tests by 16-bit compares (every
     * magnitude is below 0x8000, so signed compares are unsigned ones);
     * then the magnitudes widened to 32 bits and read as half_mag_f32
     * reads them, and each lane's x*x + y*y + z*z computed with the scalar
     * loop's float operations in its order. */
    const __m128i mag = _mm_set1_epi16(0x7FFF), zero = _mm_setzero_si128();
    const __m128i zmag = _mm_setr_epi16(0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF, 0, 0, 0, 0);
    const __m128i sub_end = _mm_set1_epi16(0x0400), inf_from = _mm_set1_epi16(0x7BFF);
    const __m128 lo = _mm_set1_ps(d->unit.lo2), hi = _mm_set1_ps(d->unit.hi2);
    __m128i odd = _mm_setzero_si128();
    __m128 in = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (; v + 4 < n; v += 4, q += 4 * d->record) {
        __m128i r0 = _mm_loadl_epi64((const __m128i *)(const void *)q);
        __m128i r1 = _mm_loadl_epi64((const __m128i *)(const void *)(q + d->record));
        __m128i r2 = _mm_loadl_epi64((const __m128i *)(const void *)(q + 2 * d->record));
        __m128i r3 = _mm_loadl_epi64((const __m128i *)(const void *)(q + 3 * d->record));
        __m128i a = _mm_unpacklo_epi16(r0, r1), c = _mm_unpacklo_epi16(r2, r3); /* x x y y z z - - */
        __m128i xy = _mm_and_si128(_mm_unpacklo_epi32(a, c), mag);  /* x0..x3 y0..y3 */
        __m128i zz = _mm_and_si128(_mm_unpackhi_epi32(a, c), zmag); /* z0..z3, then 0 */
        for (int k = 0; k < 2; k++) {
            __m128i m = k ? zz : xy;
            __m128i sub = _mm_and_si128(_mm_cmpgt_epi16(m, zero), _mm_cmplt_epi16(m, sub_end));
            odd = _mm_or_si128(odd, _mm_or_si128(sub, _mm_cmpgt_epi16(m, inf_from)));
        }
        __m128 x = halves_mag_f32(_mm_unpacklo_epi16(xy, zero));
        __m128 y = halves_mag_f32(_mm_unpackhi_epi16(xy, zero));
        __m128 z = halves_mag_f32(_mm_unpacklo_epi16(zz, zero));
        __m128 s = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
        in = _mm_and_ps(in, _mm_and_ps(_mm_cmpge_ps(s, lo), _mm_cmple_ps(s, hi))); /* NaN: false */
    }
    bad = _mm_movemask_epi8(odd) != 0 || _mm_movemask_ps(in) != 0xF;
#endif
    for (; v < n; v++, q += d->record) {
        uint32_t mx = mc_le16(q) & 0x7FFFu, my = mc_le16(q + 2) & 0x7FFFu, mz = mc_le16(q + 4) & 0x7FFFu;
        float x = half_mag_f32(mx), y = half_mag_f32(my), z = half_mag_f32(mz);
        float s = x * x + y * y + z * z;
        bad |= half_odd(mx) | half_odd(my) | half_odd(mz) | !((s >= d->unit.lo2) & (s <= d->unit.hi2));
    }
    return !bad;
}

#if defined(__SSE2__)
/* draft_weights_clean's test four records at a time (SSE2), for records v
 * to v + 3 at q: the same keys, half_mag_f32 floats, double sums per
 * record in the same order (two records to a register) and tolerance:
 * per_weight times the non-zero count (or 1), the product
 * weight_tolerances computes. Bone indices are left to the caller. */
SE_INLINE bool draft_weights4_sse2(const se_draft_layout *d, const uint8_t *q, unsigned inf,
                                   unsigned width, __m128i *top)
{
    const size_t r = d->record;
    const uint8_t *h = q + inf * width;
    const __m128i zero = _mm_setzero_si128(), flip = _mm_set1_epi32(INT32_MIN);
    const __m128i key_max = _mm_set1_epi32(INT32_MIN + 0x3800);
    __m128d sum_lo = _mm_setzero_pd(), sum_hi = _mm_setzero_pd();
    __m128i nonzero = zero, bad = zero;
    for (unsigned j = 0; j < inf; j++) {
        __m128i b16 = _mm_setr_epi32(mc_le16(h + 2 * j), mc_le16(h + r + 2 * j),
                                     mc_le16(h + 2 * r + 2 * j), mc_le16(h + 3 * r + 2 * j));
        __m128i is_zero = _mm_cmpeq_epi32(b16, zero);
        __m128i key = _mm_andnot_si128(is_zero, _mm_sub_epi32(b16, _mm_set1_epi32(0x400)));
        bad = _mm_or_si128(bad, _mm_cmpgt_epi32(_mm_xor_si128(key, flip), key_max)); /* unsigned > */
        nonzero = _mm_sub_epi32(nonzero, _mm_andnot_si128(is_zero, _mm_set1_epi32(-1)));
        __m128 w = halves_mag_f32(b16); /* b16 above 0x7FFF: the key fails */
        __m128d lo = _mm_cvtps_pd(w), hi = _mm_cvtps_pd(_mm_movehl_ps(w, w));
        sum_lo = j ? _mm_add_pd(sum_lo, lo) : lo;
        sum_hi = j ? _mm_add_pd(sum_hi, hi) : hi;
    }
    *top = _mm_max_epi16(*top, nonzero); /* counts below 256: 16-bit lanes compare them */
    __m128i count = _mm_or_si128(nonzero, _mm_and_si128(_mm_cmpeq_epi32(nonzero, zero), _mm_set1_epi32(1)));
    const __m128d per = _mm_set1_pd(d->tol[1]), one = _mm_set1_pd(1.0);
    const __m128d abs = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX));
    __m128d tol_lo = _mm_mul_pd(per, _mm_cvtepi32_pd(count));
    __m128d tol_hi = _mm_mul_pd(per, _mm_cvtepi32_pd(_mm_shuffle_epi32(count, _MM_SHUFFLE(1, 0, 3, 2))));
    __m128d in_lo = _mm_cmple_pd(_mm_and_pd(_mm_sub_pd(sum_lo, one), abs), tol_lo);
    __m128d in_hi = _mm_cmple_pd(_mm_and_pd(_mm_sub_pd(sum_hi, one), abs), tol_hi);
    return !_mm_movemask_epi8(bad) && _mm_movemask_pd(_mm_and_pd(in_lo, in_hi)) == 3;
}
#endif

/* The weights, as check_weights judges them (inf and width constants in
 * each copy, so the loop over the influences unrolls): every bone index
 * below boneCount; every weight in [0, 1], which for a half is one of the
 * bits 0x0000 to 0x3C00 (1.0; -0, 0x8000, is in range too but declined
 * here, as are subnormal halves); then w != 0 is w > 0, so the non-zero
 * count is the influence count it returns, whose most goes to *most. The
 * sum is its sum: the same floats added in double in the same order (from
 * w[0] instead of 0.0 + w[0], which differ only in a zero's sign, which
 * |sum - 1| does not see), against the tolerance it computes. */
SE_INLINE bool draft_weights_clean(const se_draft_layout *d, const uint8_t *b, size_t n,
                                   unsigned inf, unsigned width, unsigned *most)
{
    unsigned bad = 0, top = 0;
    uint32_t top_bone = 0, top_key = 0;
    const uint8_t *q = b + d->weights_at;
    size_t v = 0;
    for (; v < n; v++, q += d->record)
        for (unsigned j = 0; j < inf; j++) {
            uint32_t bone = le_index(q + j * width, width);
            top_bone = bone > top_bone ? bone : top_bone;
        }
    q = b + d->weights_at;
    v = 0;
#if defined(__SSE2__)
    __m128i top4 = _mm_setzero_si128();
    for (; v + 4 <= n; v += 4, q += 4 * d->record) bad |= !draft_weights4_sse2(d, q, inf, width, &top4);
    uint32_t lanes[4];
    _mm_storeu_si128((__m128i *)(void *)lanes, top4);
    for (int k = 0; k < 4; k++) top = lanes[k] > top ? lanes[k] : top;
#endif
    for (; v < n; v++, q += d->record) {
        const uint8_t *h = q + inf * width;
        double sum = 0.0;
        unsigned nonzero = 0;
        for (unsigned j = 0; j < inf; j++) {
            uint32_t b16 = mc_le16(h + 2 * j);
            /* 0 stays 0, 0x0400 (the least normal half) to 0x3C00 (1.0)
             * become 0 to 0x3800, anything else more (unsigned) */
            uint32_t key = (b16 - 0x400u) & (0u - (uint32_t)(b16 != 0));
            sum = j ? sum + (double)half_mag_f32(b16) : (double)half_mag_f32(b16);
            nonzero += b16 != 0;
            top_key = key > top_key ? key : top_key;
        }
        bad |= !(fabs(sum - 1.0) <= d->tol[nonzero]);
        top = nonzero > top ? nonzero : top;
    }
    *most = top;
    return !bad & (top_key <= 0x3800u) & (top_bone < d->bones);
}

/* n records: true when check_draft_vertex reports none of them and counts
 * no zero normal; the most influences of a record go to *most (0 without
 * weights). */
SE_INLINE bool draft_chunk_k(const se_draft_layout *d, const uint8_t *b, size_t n,
                             unsigned inf, unsigned width, unsigned *most)
{
    *most = 0;
    if (!draft_floats_clean(d, b, n)) return false;
    if (d->layers && !draft_materials_clean(d, b, n)) return false;
    if (d->normals && !draft_normals_clean(d, b, n)) return false;
    return !inf || draft_weights_clean(d, b, n, inf, width, most);
}

SE_INLINE bool draft_chunk_w(const se_draft_layout *d, const uint8_t *b, size_t n,
                             unsigned width, unsigned *most)
{
    switch (d->inf) {
    case 1: return draft_chunk_k(d, b, n, 1, width, most);
    case 2: return draft_chunk_k(d, b, n, 2, width, most);
    case 4: return draft_chunk_k(d, b, n, 4, width, most);
    case 8: return draft_chunk_k(d, b, n, 8, width, most);
    default: return draft_chunk_k(d, b, n, d->inf, width, most);
    }
}

/* One function per index width (MC_HOT_FN): in the WebAssembly build V8
 * then optimises the file's width alone. */
MC_HOT_FN static bool draft_chunk_w1(const se_draft_layout *d, const uint8_t *b, size_t n,
                                     unsigned *most)
{
    return draft_chunk_w(d, b, n, 1, most);
}

MC_HOT_FN static bool draft_chunk_w2(const se_draft_layout *d, const uint8_t *b, size_t n,
                                     unsigned *most)
{
    return draft_chunk_w(d, b, n, 2, most);
}

MC_HOT_FN static bool draft_chunk_w4(const se_draft_layout *d, const uint8_t *b, size_t n,
                                     unsigned *most)
{
    return draft_chunk_w(d, b, n, 4, most);
}

/* draft_chunk_k with the common influence counts (1, 2, 4, 8) and each
 * index width constants in their own copy. */
static bool draft_chunk_clean(const se_draft_layout *d, const uint8_t *b, size_t n,
                              unsigned *most)
{
    if (d->inf == 0) return draft_chunk_k(d, b, n, 0, 1, most);
    if (d->bone_w == 1) return draft_chunk_w1(d, b, n, most);
    if (d->bone_w == 2) return draft_chunk_w2(d, b, n, most);
    return draft_chunk_w4(d, b, n, most);
}

/* semodel.md, SEModel_MeshData (draft): vertex records, then faces. A chunk
 * of records passes its clean path whole; in any other, each record
 * passes it alone or goes through the exact check, which alone reports. */
MC_HOT_FN static void check_mesh_draft(mc_ctx *c, const se_file *f, mc_reader *r, const se_mesh *m)
{
    se_draft_layout d;
    draft_layout_make(c, f, m, &d);
    mc_zero_normals zero = {0};
    unsigned most = c->info->max_influences;
    for (uint32_t v0 = 0, n; v0 < m->vertices; v0 += n) {
        n = chunk_of(m->vertices, v0);
        unsigned chunk_most;
        bool fits = !r->fail && (size_t)n * d.record <= mc_reader_left(r);
        if (c->fast && fits && draft_chunk_clean(&d, r->p + r->pos, n, &chunk_most)) {
            r->pos += (size_t)n * d.record;
            if (chunk_most > most) most = chunk_most;
            continue;
        }
        for (uint32_t v = v0; v < v0 + n; v++) {
            unsigned used;
            if (c->fast && fits && draft_chunk_clean(&d, r->p + r->pos, 1, &used)) {
                r->pos += d.record;
                if (used > most) most = used;
                continue;
            }
            c->info->max_influences = most;
            check_draft_vertex(c, f, r, m, v, &zero);
            most = c->info->max_influences;
        }
    }
    c->info->max_influences = most;
    report_zero_normals(c, m, &zero);
    check_faces(c, r, m, 4);
    count_mesh(c, m, (f->mesh_flags & M_UVSET) ? m->layers : 0u);
}

static void read_mesh_header(const se_file *f, mc_reader *r, se_mesh *m)
{
    m->at = r->pos;
    m->flags = mc_read_u8(r);
    m->layers = mc_read_u8(r);
    m->influence = f->draft ? 0 : mc_read_u8(r);
    m->vertices = mc_read_u32(r);
    m->faces = mc_read_u32(r);
    m->face_w = f->draft ? 4u : index_width(m->vertices);
}

/* The bytes of a mesh after its header; false when they overflow. */
static bool mesh_body_size(const se_file *f, const se_mesh *m, uint64_t *size)
{
    uint64_t need = 0, v = m->vertices;
    bool ok = true;
    if (f->draft) {
        ok = mc_add_mul_u64(&need, v, draft_vertex_size(f, m));
    } else {
        ok = mc_add_mul_u64(&need, v, 12);
        if (f->mesh_flags & M_UVSET) ok = ok && mc_add_mul_u64(&need, v, 8u * (uint64_t)m->layers);
        if (f->mesh_flags & M_NORMALS) ok = ok && mc_add_mul_u64(&need, v, 12);
        if (f->mesh_flags & M_COLOR) ok = ok && mc_add_mul_u64(&need, v, 4);
        if (f->mesh_flags & M_WEIGHTS)
            ok = ok && mc_add_mul_u64(&need, v, (uint64_t)m->influence * (f->bone_w + 4u));
        ok = ok && mc_add_u64(need, 4u * (uint64_t)m->layers, &need);
    }
    ok = ok && mc_add_mul_u64(&need, m->faces, 3u * (uint64_t)m->face_w);
    *size = need;
    return ok;
}

/* Reads one mesh header; false after one truncation error when the mesh's
 * arrays and the headers of the meshes after it (rest bytes) cannot fit
 * the bytes left. */
static bool read_mesh(mc_ctx *c, const se_file *f, mc_reader *r, se_mesh *m, uint64_t rest)
{
    read_mesh_header(f, r, m);
    if (r->fail) return false; /* the mesh headers were checked to fit */
    uint64_t need = 0, total = 0;
    bool ok = mesh_body_size(f, m, &need);
    if (ok && mc_add_u64(need, rest, &total) && mc_reader_fits(r, 1, total)) return true;
    char path[32];
    snprintf(path, sizeof path, "/meshes/%" PRIu32, m->index);
    if (!ok)
        mc_truncated(c, MC_SEMODEL_TRUNCATED, path, "mesh %" PRIu32 ": vertexCount %" PRIu32 " and faceCount %" PRIu32
                  " need more bytes than any file holds", m->index, m->vertices, m->faces);
    else if (rest)
        mc_truncated(c, MC_SEMODEL_TRUNCATED, path, "mesh %" PRIu32 ": vertexCount %" PRIu32 " and faceCount %" PRIu32
                  " need %" PRIu64 " bytes from 0x%zx, the headers of the meshes after it %" PRIu64
                  "; %zu remain", m->index, m->vertices, m->faces, need, r->pos, rest,
                  mc_reader_left(r));
    else
        mc_truncated(c, MC_SEMODEL_TRUNCATED, path, "mesh %" PRIu32 ": vertexCount %" PRIu32 " and faceCount %" PRIu32
                  " need %" PRIu64 " bytes from 0x%zx; %zu remain", m->index, m->vertices,
                  m->faces, need, r->pos, mc_reader_left(r));
    return false;
}

/* inspect: a mesh's counts and, for the 2018 layout, the arrays of its body. */
static void report_mesh(mc_ctx *c, const se_file *f, const mc_reader *r, const se_mesh *m)
{
    mc_s_u64(c, "vertices", m->vertices);
    mc_s_u64(c, "triangles", m->faces);
    mc_s_u64(c, "uv_sets", m->layers);
    if (!f->draft) mc_s_u64(c, "influences", m->influence);
    se_views views;
    if (!mesh_views(f, r, m, &views)) return;
    uint64_t at = r->pos, v = m->vertices; /* the body fits: each array below does */
    unsigned layers = (f->mesh_flags & M_UVSET) ? m->layers : 0;
    unsigned inf = (f->mesh_flags & M_WEIGHTS) ? m->influence : 0;
    mc_s_array(c, "vertices", at, v, 12, MC_FIELDS(position_fields));
    at += 12 * v;
    if (layers) {
        mc_s_array(c, "vertices", at, v, 8u * layers, MC_FIELDS(uv_fields));
        at += 8u * layers * v;
    }
    if (f->mesh_flags & M_NORMALS) {
        mc_s_array(c, "vertices", at, v, 12, MC_FIELDS(normal_fields));
        at += 12 * v;
    }
    if (f->mesh_flags & M_COLOR) {
        mc_s_array(c, "vertices", at, v, 4, MC_FIELDS(color_fields));
        at += 4 * v;
    }
    if (inf) {
        uint64_t record = (uint64_t)inf * (f->bone_w + 4u);
        mc_s_array(c, "vertices", at, v, record, NULL, 0);
        at += record * v;
    }
    unsigned fw = m->face_w == 1 ? 0 : m->face_w == 2 ? 1 : 2;
    mc_s_array(c, "faces", at, m->faces, 3u * m->face_w, face_fields[fw], 1);
    at += views.faces_bytes;
    mc_s_array(c, "materials", at, m->layers, 4, MC_FIELDS(material_index_fields));
}

/* inspect, after check_mesh_2018 (r at the body it walked): the mesh's box,
 * degenerate triangles and influences, from what the walk summed. */
static void report_geometry(mc_ctx *c, const se_file *f, const mc_reader *r, const se_mesh *m,
                            uint64_t degenerate)
{
    se_views views;
    if (!mesh_views(f, r, m, &views)) return;
    /* check_faces read the indices as the view has them (1, 2 or 4 bytes) */
    bool counted = m->face_w == 1 || m->face_w == 2 || m->face_w == 4;
    mc_geometry g = {views.positions, views.faces, {NULL, 0, 0, 0, MC_FIELD_F32, 0}, 3, false,
                     counted, degenerate};
    mc_sink_geometry(c->sink, &g);
    if (views.weights.width) mc_sink_influences_of(c->sink, &views.weights, views.step);
}

/* semodel.md, SEModel_MeshData (draft); docs/formats/semodel.md (2018). */
static bool check_meshes(mc_ctx *c, const se_file *f, mc_reader *r)
{
    if (f->meshes == 0) return true;
    uint64_t head = f->draft ? 10 : 11;
    if (!mc_reader_fits(r, f->meshes, head)) {
        mc_truncated(c, MC_SEMODEL_TRUNCATED, "/meshes", "meshCount %" PRIu32 " needs at least %" PRIu32 " x %" PRIu64
                  " bytes from 0x%zx; %zu remain", f->meshes, f->meshes, head, r->pos,
                  mc_reader_left(r));
        return false;
    }
    for (uint32_t i = 0; i < f->meshes; i++) {
        se_mesh m = {.index = i};
        mc_s_enter_index(c, "mesh", i, r->pos, head);
        if (f->draft)
            mc_s_layout(c, MC_FIELDS(mesh_fields_draft));
        else
            mc_s_layout(c, MC_FIELDS(mesh_fields_2018));
        if (!read_mesh(c, f, r, &m, (uint64_t)(f->meshes - i - 1) * head)) {
            mc_s_leave(c);
            return false;
        }
        check_mesh_header(c, f, &m);
        mc_reader body = *r;
        if (c->sink) report_mesh(c, f, r, &m);
        if (f->draft) {
            check_mesh_draft(c, f, r, &m);
        } else {
            uint64_t degenerate = check_mesh_2018(c, f, r, &m);
            if (c->sink) report_geometry(c, f, &body, &m, degenerate);
        }
        mc_s_end(c, r->pos);
        mc_s_leave(c);
        if (r->fail) return false; /* unreachable: the mesh was checked to fit */
    }
    return true;
}

/* ---- materials (2018, docs/formats/semodel.md) ---- */

static bool check_material(mc_ctx *c, mc_reader *r, uint32_t i);

static bool check_materials(mc_ctx *c, const se_file *f, mc_reader *r)
{
    if (f->mats == 0) return true;
    if (!mc_reader_fits(r, f->mats, 2)) {
        mc_truncated(c, MC_SEMODEL_TRUNCATED, "/materials", "matCount %" PRIu32 " needs at least %" PRIu32
                  " x 2 bytes from 0x%zx; %zu remain", f->mats, f->mats, r->pos, mc_reader_left(r));
        return false;
    }
    for (uint32_t i = 0; i < f->mats; i++) {
        mc_s_enter_index(c, "material", i, r->pos, 0);
        bool ok = check_material(c, r, i);
        mc_s_end(c, r->pos);
        mc_s_leave(c);
        if (!ok) return false;
    }
    return true;
}

static bool check_material(mc_ctx *c, mc_reader *r, uint32_t i)
{
    static const char *const map[3] = {"diffuseMap", "normalMap", "specularMap"};
    {
        if (!read_string(c, r, "materials", i, "name", NULL)) return false;
        uint64_t at = r->pos;
        uint8_t simple = mc_read_u8(r);
        if (r->fail) {
            mc_truncated(c, MC_SEMODEL_TRUNCATED, "/materials", "material %" PRIu32 ": file ends before isSimpleMaterial at 0x%" PRIx64,
                      i, at);
            return false;
        }
        if (simple > 1) {
            mc_instance *in = mc_emit(c, MC_SEMODEL_MATERIAL_SIMPLE_FLAG, at);
            mc_path(in, "/materials/%" PRIu32 "/isSimpleMaterial", i);
            mc_msg(in, "material %" PRIu32 ": isSimpleMaterial is %u (expected 0 or 1; read as true)", i,
                   simple);
        }
        for (int k = 0; k < 3 && simple; k++)
            if (!read_string(c, r, "materials", i, map[k], NULL)) return false;
    }
    return true;
}

/* ---- end of file ---- */

/* ---- Greyhound's SEBlend block (docs/formats/semodel.md) ---- */

static void seblend_framing(mc_ctx *c, uint64_t at, const char *path, const char *fmt, ...)
    MC_PRINTF(4, 5);
static void seblend_framing(mc_ctx *c, uint64_t at, const char *path, const char *fmt, ...)
{
    mc_instance *in = mc_emit(c, MC_SEMODEL_SEBLEND_FRAMING, at);
    mc_path(in, "%s", path);
    if (!in) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->message, sizeof in->message, fmt, ap);
    va_end(ap);
}

/* One (u32 shape index, float x, y, z) record: the index names one of the
 * count shapes, the delta is finite. */
static void check_delta(mc_ctx *c, mc_reader *r, const se_mesh *m, uint32_t v, uint32_t i,
                        uint64_t count)
{
    uint64_t at = r->pos;
    uint32_t shape = mc_read_u32(r);
    float d[3];
    mc_read_f32s(r, d, 3);
    if (shape >= count) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_SEBLEND_SHAPE_RANGE, at);
        mc_path(in, "/seblend/deltas/%" PRIu32 "/%" PRIu32 "/%" PRIu32 "/shape", m->index, v, i);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu32 " delta %" PRIu32 ": shape index %" PRIu32
               " (expected < the block's count %" PRIu64 ")", m->index, v, i, shape, count);
    }
    if (!mc_all_finite(d, 3)) {
        mc_instance *in = mc_emit(c, MC_SEMODEL_SEBLEND_DELTA_NOT_FINITE, at + 4);
        mc_path(in, "/seblend/deltas/%" PRIu32 "/%" PRIu32 "/%" PRIu32 "/delta", m->index, v, i);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu32 " delta %" PRIu32 ": (%g, %g, %g) holds NaN or infinity",
               m->index, v, i, (double)d[0], (double)d[1], (double)d[2]);
    }
}

/* For every mesh in file order and every vertex: a u32 delta count, written
 * even when it is 0, and that many records. The mesh headers are read
 * again (each was checked to fit) to follow the vertex counts. Returns the
 * number of deltas, or -1 after a framing error. */
static int64_t check_seblend_deltas(mc_ctx *c, const se_file *f, mc_reader *r, uint64_t count)
{
    mc_reader mr = mc_reader_make(c->data, c->size);
    mc_reader_seek(&mr, f->meshes_at);
    int64_t total = 0;
    for (uint32_t k = 0; k < f->meshes; k++) {
        se_mesh m = {.index = k};
        uint64_t body = 0;
        read_mesh_header(f, &mr, &m);
        mesh_body_size(f, &m, &body);
        mc_reader_skip(&mr, (size_t)body);
        for (uint32_t v = 0; v < m.vertices; v++) {
            char path[64];
            uint64_t at = r->pos;
            uint32_t n = mc_read_u32(r);
            snprintf(path, sizeof path, "/seblend/deltas/%" PRIu32 "/%" PRIu32, k, v);
            if (r->fail) {
                seblend_framing(c, at, path, "SEBlend block ends at 0x%" PRIx64 ", before the delta count of mesh %"
                                PRIu32 " vertex %" PRIu32 " (one per vertex, even for 0 deltas)", at, k, v);
                return -1;
            }
            if ((uint64_t)n * 16u > mc_reader_left(r)) {
                seblend_framing(c, at, path, "mesh %" PRIu32 " vertex %" PRIu32 ": %" PRIu32 " deltas need %" PRIu64
                                " bytes, %zu remain", k, v, n, (uint64_t)n * 16u, mc_reader_left(r));
                return -1;
            }
            for (uint32_t i = 0; i < n; i++) check_delta(c, r, &m, v, i, count);
            total += n;
        }
    }
    if (mc_reader_left(r) == 0) return total;
    seblend_framing(c, r->pos, "/seblend", "%zu bytes after the SEBlend block, which ends at 0x%zx after the deltas "
                    "of %" PRIu64 " vertices (the file has %zu bytes)", mc_reader_left(r), r->pos,
                    c->info->vertices, c->size);
    return -1;
}

/* docs/formats/semodel.md: Greyhound's "SEBlend\n" block: u64 magic, u64 count, count
 * NUL-terminated names, then the per-vertex deltas; its size is fully
 * determined, so it must end exactly at the end of the file. */
static void check_seblend(mc_ctx *c, const se_file *f, mc_reader *r)
{
    uint64_t at = r->pos;
    mc_read_u64(r);
    uint64_t count_at = r->pos;
    uint64_t count = mc_read_u64(r);
    if (r->fail) {
        seblend_framing(c, count_at, "/seblend/count",
                        "SEBlend block at 0x%" PRIx64 ": the file ends before its u64 count", at);
        return;
    }
    if (count > mc_reader_left(r)) {
        seblend_framing(c, count_at, "/seblend/count",
                        "SEBlend count %" PRIu64 " cannot fit: its names need at least %" PRIu64 " bytes, %zu remain",
                        count, count, mc_reader_left(r));
        return;
    }
    for (uint64_t i = 0; i < count; i++) {
        size_t left = mc_reader_left(r);
        if (left && memchr(r->p + r->pos, 0, left)) {
            read_string(c, r, "seblend", i, "name", NULL);
            continue;
        }
        char path[48];
        snprintf(path, sizeof path, "/seblend/%" PRIu64 "/name", i);
        seblend_framing(c, r->pos, path, "SEBlend name %" PRIu64 " of %" PRIu64
                        ": no NUL terminator before the end of the file", i, count);
        return;
    }
    c->info->blend_shapes = count;
    int64_t deltas = check_seblend_deltas(c, f, r, count);
    mc_instance *in = mc_emit(c, MC_SEMODEL_SEBLEND_TRAILER, at);
    mc_path(in, "/seblend");
    if (deltas >= 0)
        mc_msg(in, "Greyhound SEBlend block (not part of the layout, no flag announces it): %" PRIu64
               " blend shapes, %" PRId64 " deltas over %" PRIu64 " vertices", count, deltas, c->info->vertices);
    else
        mc_msg(in, "Greyhound SEBlend block (not part of the layout, no flag announces it): %" PRIu64
               " blend shapes; its deltas do not fit the file", count);
}

/* semodel.md, SEModel_File: the file ends where the last block ends. */
static void check_end(mc_ctx *c, const se_file *f, mc_reader *r)
{
    size_t left = mc_reader_left(r);
    if (f->draft ? f->undefined_tail : (f->data_flags & D18_CUSTOM) != 0) return;
    if (!f->draft && left >= 8 && mc_le64(r->p + r->pos) == SE_SEBLEND_MAGIC) {
        static const mc_field seblend_fields[] = {{"magic", MC_FIELD_U64, 0, 1, 0},
                                                  {"count", MC_FIELD_U64, 8, 1, 0}};
        mc_s_enter(c, "section", "seblend", r->pos, left);
        mc_s_layout(c, MC_FIELDS(seblend_fields));
        check_seblend(c, f, r);
        mc_s_leave(c);
        return;
    }
    if (left == 0) return;
    mc_instance *in = mc_emit(c, MC_SEMODEL_TRAILING_BYTES, r->pos);
    mc_path(in, "/");
    mc_msg(in, "%zu bytes after the last block (which ends at 0x%zx; the file has %zu bytes)", left,
           r->pos, c->size);
}

static void se_validate(mc_ctx *c)
{
    se_file f;
    memset(&f, 0, sizeof f);
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_s_enter(c, "header", "header", 0, 0);
    bool ok = check_header(c, &f, &r);
    mc_s_end(c, r.pos);
    mc_s_leave(c);
    if (!ok) return;
    c->info->bones = f.bones;
    c->info->meshes = f.meshes;
    c->info->materials = f.mats;
    mc_s_enter(c, "section", "bones", r.pos, 0);
    mc_s_u64(c, "count", f.bones);
    ok = check_bones(c, &f, &r);
    mc_s_end(c, r.pos);
    mc_s_leave(c);
    if (!ok) return;
    f.meshes_at = r.pos;
    mc_s_enter(c, "section", "meshes", r.pos, 0);
    mc_s_u64(c, "count", f.meshes);
    ok = check_meshes(c, &f, &r);
    mc_s_end(c, r.pos);
    mc_s_leave(c);
    if (!ok) return;
    if (!f.draft) {
        mc_s_enter(c, "section", "materials", r.pos, 0);
        mc_s_u64(c, "count", f.mats);
        ok = check_materials(c, &f, &r);
        mc_s_end(c, r.pos);
        mc_s_leave(c);
        if (!ok) return;
    }
    check_end(c, &f, &r);
}

const mc_format_module mc_semodel_module = {MC_FORMAT_SEMODEL, "SEModel", se_detect, se_validate};
