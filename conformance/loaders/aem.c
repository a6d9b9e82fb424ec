/*
 * AEM reference loader (aem.md of github.com/janhsimon/aem, docs/formats/aem.md
 * "AEM"), written from the spec independently of the validator.
 *
 * The file is nine fixed-size record arrays after a 40-byte header, so the
 * header alone fixes the file size: that is checked first, and afterwards
 * every record is read at an offset inside the data. Every index and range
 * is then checked before the model is built.
 *
 * Mapping to the common model (mcl.h):
 *   - AEM has one vertex buffer and meshes are ranges of one index buffer.
 *     Each mcl_mesh gets the vertices its range references (compacted and
 *     remapped, in first-use order) and its own indices; tangents and
 *     bitangents have no place in the common model and are dropped.
 *   - Skinning: 4 influences per vertex when the file has bones; a -1 slot
 *     becomes joint 0 with weight 0. The extra bone (mesh animation) is the
 *     mesh's rigid_bone, taken from the vertex of the mesh's first index
 *     (the spec applies one extra bone to every vertex of a mesh).
 *   - Materials: the base color texture's filename is texture_path; the
 *     normal and ORM textures have no slot in the common model.
 *   - Bones: inverse_bind as stored; the rest pose `local` is derived from
 *     the bind matrices (AEM stores no rest pose; identity where the
 *     inverse does not fit a float).
 *   - Animations: per bone three tracks (translation, rotation, scale),
 *     LINEAR, times in seconds as stored.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aem_common.h"

/* Sections in file order (aem.md, File Header: counts in this order). */
enum aem_section {
    AEM_VERTICES, AEM_INDICES, AEM_TEXTURES, AEM_MESHES, AEM_MATERIALS,
    AEM_BONES, AEM_ANIMATIONS, AEM_SEQUENCES, AEM_KEYFRAMES, AEM_SECTION_COUNT
};

#define AEM_HEADER_SIZE 40u
#define AEM_NO_TEXTURE 255 /* aem.md, Material Section */

static const uint32_t record_size[AEM_SECTION_COUNT] = {92, 4, 128, 12, 12, 80, 136, 24, 20};
static const char *const section_name[AEM_SECTION_COUNT] = {
    "vertex", "index", "texture", "mesh", "material", "bone", "animation", "sequence", "keyframe",
};

/* Tolerances of docs/ISSUES.md (Khronos glTF-Validator defaults); those
 * both layouts use in aem_common.h. */
#define TOL_UNIT 0.00674
#define TOL_AFFINE 1e-5
#define TOL_INVERTIBLE 1e-6

typedef struct aem_file {
    const uint8_t *data;
    uint32_t count[AEM_SECTION_COUNT];
    uint64_t start[AEM_SECTION_COUNT]; /* byte offset of each section */
} aem_file;

/* Offset of record i of section s; inside the data once the size matched. */
static uint64_t rec(const aem_file *f, enum aem_section s, uint64_t i)
{
    return f->start[s] + i * record_size[s];
}

static uint32_t u32_at(const aem_file *f, uint64_t off)
{
    return mc_le32(f->data + off);
}

static int32_t i32_at(const aem_file *f, uint64_t off)
{
    return mcl__aem_i32(f->data + off);
}

static float f32_at(const aem_file *f, uint64_t off)
{
    return mc_le_f32(f->data + off);
}

/* ---- header and sizes ---- */

static mcl_status parse_header(mcl_ctx *c, aem_file *f, const uint8_t *data, size_t size)
{
    mc_reader r = mc_reader_make(data, size);
    /* aem.md, File Header: magic "AEM"; judge the bytes that exist. */
    size_t have = size < 3 ? size : 3;
    if (memcmp(data, "AEM", have) != 0)
        return mcl__fail(c, MCL_ERR_MAGIC, 0, "magic is not \"AEM\"");
    if (size < 4)
        return mcl__fail(c, MCL_ERR_TRUNCATED, size, "file of %zu bytes ends inside the 40-byte header", size);
    mc_reader_skip(&r, 3);
    uint8_t version = mc_read_u8(&r);
    if (version != 1) /* aem.md: this specification describes version 1 */
        return mcl__fail(c, MCL_ERR_VERSION, 3, "version %u (expected 1)", version);
    if (size < AEM_HEADER_SIZE)
        return mcl__fail(c, MCL_ERR_TRUNCATED, size, "file of %zu bytes ends inside the 40-byte header", size);
    for (int s = 0; s < AEM_SECTION_COUNT; s++) f->count[s] = mc_read_u32(&r);
    f->data = data;

    /* The header counts imply the exact file size (docs/formats/aem.md: other
     * layouts share version 1; a size mismatch is an error, not a guess).
     * At most 9 * 2^32 * 136 bytes: u64 cannot overflow, checked anyway. */
    uint64_t end = AEM_HEADER_SIZE;
    for (int s = 0; s < AEM_SECTION_COUNT; s++) {
        f->start[s] = end;
        if (!mc_add_mul_u64(&end, f->count[s], record_size[s]))
            return mcl__fail(c, MCL_ERR_SIZE, 4 + 4u * (unsigned)s, "%s section size overflows", section_name[s]);
        if (end > size)
            return mcl__fail(c, MCL_ERR_TRUNCATED, size,
                             "%u %s records need bytes up to %llu, file has %zu", f->count[s],
                             section_name[s], (unsigned long long)end, size);
    }
    /* The common model indexes materials and bones with int32_t: more than
     * 2^31 of them (a file of 25 GB and more) cannot be represented. */
    if (f->count[AEM_MATERIALS] > INT32_MAX || f->count[AEM_BONES] > INT32_MAX)
        return mcl__fail(c, MCL_ERR_LIMIT, f->count[AEM_BONES] > INT32_MAX ? 24 : 20,
                         "more than 2^31 materials or bones");
    if (end != size)
        return mcl__fail(c, MCL_ERR_SIZE, end, "%llu trailing bytes after the keyframe section (file %zu, expected %llu)",
                         (unsigned long long)(size - end), size, (unsigned long long)end);
    return MCL_OK;
}

/* ---- vertices (aem.md, Vertex Section) ---- */

static mcl_status check_vertex_floats(mcl_ctx *c, const aem_file *f, uint64_t o, uint32_t v)
{
    float a[14]; /* position, normal, tangent, bitangent, uv */
    mcl_status s = mcl__aem_vertex_floats(c, f->data, o, v, a);
    if (s != MCL_OK) return s;
    /* Vertex normals for lighting: unit length, or all zero (no normal: a
     * warning, as a tangent frame of zeros). */
    double n = mcl__aem_length(&a[3], 3);
    if ((a[3] != 0 || a[4] != 0 || a[5] != 0) && fabs(n - 1.0) > TOL_UNIT)
        return mcl__fail(c, MCL_ERR_VALUE, o + 12, "vertex %u: normal length %g (expected 1)", v, n);
    /* Tangent frame for normal mapping: unit, or all zero (no frame). */
    for (int t = 0; t < 2; t++) {
        const float *tv = &a[6 + 3 * t];
        double l = mcl__aem_length(tv, 3);
        if ((tv[0] != 0 || tv[1] != 0 || tv[2] != 0) && fabs(l - 1.0) > TOL_UNIT)
            return mcl__fail(c, MCL_ERR_VALUE, o + 24 + 12u * (unsigned)t, "vertex %u: %s length %g (expected 1 or 0)",
                             v, t ? "bitangent" : "tangent", l);
    }
    return MCL_OK;
}

static mcl_status check_vertex_skin(mcl_ctx *c, const aem_file *f, uint64_t o, uint32_t v)
{
    uint32_t bones = f->count[AEM_BONES];
    int32_t b[4];
    float w[4] = {0}; /* set by the slots check; gcc -O2 cannot see that an error returns first */
    /* Fewer than 4 bones: index -1 with weight 0.0. */
    mcl_status s = mcl__aem_vertex_slots(c, f->data, o, v, "bone", bones, b, w);
    if (s != MCL_OK) return s;
    bool skinned = false;
    for (unsigned k = 0; k < 4; k++) {
        if (b[k] == -1) continue;
        skinned = true;
        for (unsigned j = k + 1; j < 4; j++)
            if (b[j] == b[k])
                return mcl__fail(c, MCL_ERR_STRUCTURE, o + 56 + 4 * j, "vertex %u: bone %d in slots %u and %u",
                                 v, b[k], k + 1, j + 1);
    }
    /* The sum of all bone weights is always 1; all -1 with weight 0 is the
     * exporter's unskinned vertex (docs/formats/aem.md), a warning only. */
    s = mcl__aem_weight_sum(c, o, v, w, skinned, "1");
    if (s != MCL_OK) return s;
    /* The extra bone index indexes into the bone section, -1 for none. */
    int32_t e = i32_at(f, o + 88);
    if (e != -1 && (e < 0 || (uint32_t)e >= bones))
        return mcl__fail(c, MCL_ERR_RANGE, o + 88, "vertex %u: extra bone index %d (expected -1 or < %u)", v, e, bones);
    return MCL_OK;
}

static mcl_status check_vertices(mcl_ctx *c, const aem_file *f)
{
    for (uint32_t v = 0; v < f->count[AEM_VERTICES]; v++) {
        uint64_t o = rec(f, AEM_VERTICES, v);
        mcl_status s = check_vertex_floats(c, f, o, v);
        if (s == MCL_OK) s = check_vertex_skin(c, f, o, v);
        if (s != MCL_OK) return s;
    }
    return MCL_OK;
}

/* ---- strings, textures, materials, meshes ---- */

static mcl_status check_textures(mcl_ctx *c, const aem_file *f)
{
    for (uint32_t t = 0; t < f->count[AEM_TEXTURES]; t++) {
        /* A null-terminated string of at most 128 bytes including the NUL;
         * bytes after the NUL are the exporter's garbage (docs/formats/aem.md). */
        size_t len = 0;
        mcl_status s = mcl__aem_name(c, f->data, rec(f, AEM_TEXTURES, t), "texture", t, &len);
        if (s != MCL_OK) return s;
        if (len == 0) /* a texture without a filename names nothing */
            return mcl__fail(c, MCL_ERR_VALUE, rec(f, AEM_TEXTURES, t), "texture %u: empty filename", t);
    }
    return MCL_OK;
}

/* 255 (spec) or -1 (the exporter, docs/formats/aem.md) mean "no texture"; with
 * more than 255 textures 255 stays the sentinel, as the spec says. */
static bool texture_undefined(int32_t t)
{
    return t == AEM_NO_TEXTURE || t == -1;
}

static mcl_status check_materials(mcl_ctx *c, const aem_file *f)
{
    for (uint32_t m = 0; m < f->count[AEM_MATERIALS]; m++) {
        for (unsigned k = 0; k < 3; k++) {
            uint64_t o = rec(f, AEM_MATERIALS, m) + 4 * k;
            int32_t t = i32_at(f, o);
            if (!texture_undefined(t) && (t < 0 || (uint32_t)t >= f->count[AEM_TEXTURES]))
                return mcl__fail(c, MCL_ERR_RANGE, o, "material %u: texture index %d (expected 255, -1 or < %u)",
                                 m, t, f->count[AEM_TEXTURES]);
        }
    }
    return MCL_OK;
}

/* ---- bones (aem.md, Bone Section) ---- */

static mcl_status check_bone_matrix(mcl_ctx *c, const aem_file *f, uint32_t b, float m[16])
{
    uint64_t o = rec(f, AEM_BONES, b);
    mcl_status s = mcl__aem_matrix(c, f->data, o, "bone", b, m);
    if (s != MCL_OK) return s;
    /* A bind transform is affine: last row 0 0 0 1 (column-major). */
    static const float last_row[4] = {0, 0, 0, 1};
    for (unsigned k = 0; k < 4; k++)
        if (fabs((double)m[4 * k + 3] - last_row[k]) > TOL_AFFINE)
            return mcl__fail(c, MCL_ERR_VALUE, o + 16 * k + 12, "bone %u: inverse bind last row element %u is %g (expected %g)",
                             b, k, m[4 * k + 3], last_row[k]);
    /* An inverse of a bind pose is itself invertible; judged relative to
     * the column lengths so a uniformly tiny scale still counts. */
    double d[16];
    for (int k = 0; k < 16; k++) d[k] = m[k];
    double cols = mcl__aem_length(&m[0], 3) * mcl__aem_length(&m[4], 3) * mcl__aem_length(&m[8], 3);
    if (!(cols > 0) || !(fabs(mcl__aem_det3(d)) / cols > TOL_INVERTIBLE))
        return mcl__fail(c, MCL_ERR_VALUE, o, "bone %u: inverse bind matrix is singular", b);
    return MCL_OK;
}

/* Parent -1 for roots, else a bone written earlier (docs/formats/aem.md: the
 * exporter writes breadth-first; the reference loader loops on cycles). */
static mcl_status check_bone_parent(mcl_ctx *c, const aem_file *f, uint32_t b, int32_t *parent)
{
    uint64_t o = rec(f, AEM_BONES, b) + 64;
    int32_t p = i32_at(f, o);
    uint32_t n = f->count[AEM_BONES];
    *parent = p;
    if (p == -1) return MCL_OK;
    if (p < 0 || (uint32_t)p >= n)
        return mcl__fail(c, MCL_ERR_RANGE, o, "bone %u: parent %d (expected -1 or < %u)", b, p, n);
    if ((uint32_t)p == b) return mcl__fail(c, MCL_ERR_STRUCTURE, o, "bone %u is its own parent", b);
    if ((uint32_t)p > b)
        return mcl__fail(c, MCL_ERR_STRUCTURE, o, "bone %u: parent %d comes after it (expected parents first)", b, p);
    return MCL_OK;
}

static mcl_status load_bones(mcl_ctx *c, const aem_file *f, mcl_model *model)
{
    uint32_t n = f->count[AEM_BONES];
    mcl_bone *bones = mcl__alloc(c, n, sizeof *bones);
    if (!bones) return c->err->status;
    for (uint32_t b = 0; b < n; b++) {
        bones[b].name = "";
        mcl_status s = check_bone_parent(c, f, b, &bones[b].parent);
        if (s == MCL_OK) s = check_bone_matrix(c, f, b, bones[b].inverse_bind);
        if (s != MCL_OK) return s;
    }
    /* The rest pose from the bind matrices (AEM stores none), affine. */
    for (uint32_t b = 0; b < n; b++) mcl__aem_rest_local(bones, b, true);
    model->bones = bones;
    model->bone_count = n;
    return MCL_OK;
}

/* ---- animations, sequences, keyframes ---- */

static mcl_status check_animation_headers(mcl_ctx *c, const aem_file *f)
{
    for (uint32_t a = 0; a < f->count[AEM_ANIMATIONS]; a++) {
        uint64_t o = rec(f, AEM_ANIMATIONS, a);
        size_t len;
        mcl_status s = mcl__aem_name(c, f->data, o, "animation", a, &len); /* empty: a warning only */
        if (s != MCL_OK) return s;
        float d = f32_at(f, o + 128);
        if (!(isfinite(d) && d > 0)) /* duration in seconds */
            return mcl__fail(c, MCL_ERR_VALUE, o + 128, "animation %u: duration %g (expected finite, > 0)", a, d);
        /* One sequence per bone from sequence_index on (docs/formats/aem.md: the
         * reference loader reads sequences[index + bone] unchecked). */
        uint32_t first = u32_at(f, o + 132);
        if ((uint64_t)first + f->count[AEM_BONES] > f->count[AEM_SEQUENCES])
            return mcl__fail(c, MCL_ERR_RANGE, o + 132, "animation %u: sequences %u + %u bones pass the %u sequences",
                             a, first, f->count[AEM_BONES], f->count[AEM_SEQUENCES]);
    }
    return MCL_OK;
}

/* Every sequence, used or not, indexes the keyframe section with at least
 * one key per channel (docs/formats/aem.md: the exporter writes one key at
 * t = 0 for a channel without animation). */
static mcl_status check_sequences(mcl_ctx *c, const aem_file *f)
{
    static const char *const channel[3] = {"position", "rotation", "scale"};
    for (uint32_t q = 0; q < f->count[AEM_SEQUENCES]; q++) {
        for (unsigned ch = 0; ch < 3; ch++) {
            uint64_t o = rec(f, AEM_SEQUENCES, q) + 8 * ch;
            uint32_t first = u32_at(f, o), count = u32_at(f, o + 4);
            if ((uint64_t)first + count > f->count[AEM_KEYFRAMES])
                return mcl__fail(c, MCL_ERR_RANGE, o, "sequence %u: %s keys %u + %u pass the %u keyframes",
                                 q, channel[ch], first, count, f->count[AEM_KEYFRAMES]);
            if (count == 0)
                return mcl__fail(c, MCL_ERR_STRUCTURE, o + 4, "sequence %u: no %s keyframe", q, channel[ch]);
        }
    }
    return MCL_OK;
}

/* Reads and checks one channel of one sequence as used by an animation of
 * the given duration (aem.md, Keyframe Section). */
static mcl_status load_track(mcl_ctx *c, const aem_file *f, uint64_t seq_off, unsigned ch, uint32_t bone,
                             double duration, uint32_t a, mcl_track *t)
{
    uint32_t first = u32_at(f, seq_off + 8 * ch), count = u32_at(f, seq_off + 8 * ch + 4);
    mcl_aem_key_names names = {.key = "keyframe", .rotation_key = "rotation keyframe", .first_number = first};
    snprintf(names.where, sizeof names.where, "animation %u bone %u", a, bone);
    return mcl__aem_load_keys(c, f->data, rec(f, AEM_KEYFRAMES, first), count, ch, duration, &names, bone, t);
}

static mcl_status load_animations(mcl_ctx *c, const aem_file *f, mcl_model *model)
{
    uint32_t n = f->count[AEM_ANIMATIONS], bones = f->count[AEM_BONES];
    mcl_animation *anims = mcl__alloc(c, n, sizeof *anims);
    if (!anims) return c->err->status;
    for (uint32_t a = 0; a < n; a++) {
        uint64_t o = rec(f, AEM_ANIMATIONS, a);
        anims[a].name = mcl__strdup(c, f->data + o, mcl__aem_name_len(f->data, o)); /* NUL checked before */
        anims[a].duration = f32_at(f, o + 128);
        /* Tracks are allocated before their keys are read, so the work of
         * animations sharing sequences is bounded by the memory limit. */
        mcl_track *tracks = anims[a].name ? mcl__alloc(c, (uint64_t)bones * 3, sizeof *tracks) : NULL;
        if (!tracks) return c->err->status;
        uint32_t seq = u32_at(f, o + 132);
        for (uint32_t b = 0; b < bones; b++) {
            uint64_t so = rec(f, AEM_SEQUENCES, (uint64_t)seq + b);
            for (unsigned ch = 0; ch < 3; ch++) {
                mcl_status s = load_track(c, f, so, ch, b, anims[a].duration, a, &tracks[(uint64_t)b * 3 + ch]);
                if (s != MCL_OK) return s;
            }
        }
        anims[a].tracks = tracks;
        anims[a].track_count = bones * 3;
    }
    model->animations = anims;
    model->animation_count = n;
    return MCL_OK;
}

/* ---- building meshes and materials ---- */

/* Meshes with their extra bone (aem.md: one extra bone moves every vertex
 * of a mesh). */
static mcl_status build_meshes(mcl_ctx *c, const aem_file *f, mcl_model *model)
{
    mcl_aem_meshes src = {
        .data = f->data,
        .vertices = f->start[AEM_VERTICES],
        .indices = f->start[AEM_INDICES],
        .meshes = f->start[AEM_MESHES],
        .vertex_count = f->count[AEM_VERTICES],
        .mesh_count = f->count[AEM_MESHES],
        .stride = record_size[AEM_VERTICES],
        .influences = f->count[AEM_BONES] ? 4 : 0,
        .extra_bone = true,
    };
    return mcl__aem_build_meshes(c, &src, model);
}

static mcl_status build_materials(mcl_ctx *c, const aem_file *f, mcl_model *model)
{
    uint32_t n = f->count[AEM_MATERIALS];
    mcl_material *mats = mcl__alloc(c, n, sizeof *mats);
    if (!mats) return c->err->status;
    for (uint32_t m = 0; m < n; m++) {
        mats[m].name = "";
        for (int k = 0; k < 4; k++) mats[m].base_color[k] = 1.0f;
        int32_t t = i32_at(f, rec(f, AEM_MATERIALS, m)); /* base color texture */
        if (texture_undefined(t)) continue;
        uint64_t to = rec(f, AEM_TEXTURES, (uint32_t)t);
        mats[m].texture_path = mcl__strdup(c, f->data + to, mcl__aem_name_len(f->data, to)); /* NUL checked */
        if (!mats[m].texture_path) return c->err->status;
    }
    model->materials = mats;
    model->material_count = n;
    return MCL_OK;
}

/* The size the aem1 header counts imply; false when the file is shorter
 * than the header (the sum of 9 u32 x record products cannot overflow). */
static bool aem1_size(const uint8_t *data, size_t size, uint64_t *implied)
{
    if (size < AEM_HEADER_SIZE) return false;
    uint64_t end = AEM_HEADER_SIZE;
    for (int s = 0; s < AEM_SECTION_COUNT; s++)
        if (!mc_add_mul_u64(&end, mc_le32(data + 4 + 4 * s), record_size[s])) return false;
    *implied = end;
    return true;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

/* Two layouts share the magic and version 1 (docs/formats/aem2025.md): a
 * file is in the one whose header counts add up to its size. Both: an
 * ambiguous file, rejected. Only files with the magic and version get here;
 * *current tells the 2025 layout, *other_size (0: none) the size the 2025
 * counts imply when neither layout fits, for the aem1 error to name. */
static mcl_status pick_layout(mcl_ctx *c, const uint8_t *data, size_t size, bool *current, uint64_t *other_size)
{
    uint64_t old_size = 0, new_size = 0;
    bool old_fits = aem1_size(data, size, &old_size) && old_size == size;
    if (!mcl__aem2025_size(data, size, &new_size)) new_size = 0; /* shorter than its header, or overflowing */
    bool new_fits = new_size == size;
    *current = new_fits && !old_fits;
    *other_size = !old_fits && !new_fits ? new_size : 0;
    if (old_fits && new_fits)
        return mcl__fail(c, MCL_ERR_STRUCTURE, 4,
                         "header counts add up to the file size (%zu) in both the aem1 and the 2025 layout", size);
    /* Neither: the error is the nearer layout's (a file cut short or grown
     * is nearer its own layout), naming the other's size too. */
    if (*other_size && size >= AEM_HEADER_SIZE && distance(new_size, size) < distance(old_size, size)) {
        if (new_size > size)
            return mcl__fail(c, MCL_ERR_TRUNCATED, size, "2025 layout: counts imply %llu bytes, the file has %zu (as aem1: %llu)",
                             (unsigned long long)new_size, size, (unsigned long long)old_size);
        return mcl__fail(c, MCL_ERR_SIZE, new_size, "2025 layout: %llu trailing bytes after the keyframe section (as aem1: %llu bytes)",
                         (unsigned long long)(size - new_size), (unsigned long long)old_size);
    }
    return MCL_OK;
}

/* Appends what the 2025 layout's counts imply to an aem1 size error. */
static void name_other_layout(mcl_ctx *c, uint64_t other_size)
{
    size_t used = strlen(c->err->reason);
    if (other_size && used < sizeof c->err->reason)
        snprintf(c->err->reason + used, sizeof c->err->reason - used, " (as the 2025 layout: %llu bytes)",
                 (unsigned long long)other_size);
}

mcl_status mcl__load_aem(mcl_ctx *c, const uint8_t *data, size_t size)
{
    aem_file f;
    memset(&f, 0, sizeof f);
    bool current = false;
    uint64_t other_size = 0;
    if (size >= 4 && memcmp(data, "AEM", 3) == 0 && data[3] == 1) {
        mcl_status s = pick_layout(c, data, size, &current, &other_size);
        if (s != MCL_OK) return s;
    }
    if (current) return mcl__load_aem2025(c, data, size);
    mcl_status s = parse_header(c, &f, data, size);
    if (s != MCL_OK) name_other_layout(c, other_size);
    if (s == MCL_OK) s = check_vertices(c, &f);
    /* aem.md, Index Section: indices index into the vertex section. */
    if (s == MCL_OK)
        s = mcl__aem_check_indices(c, data, f.start[AEM_INDICES], f.count[AEM_INDICES], f.count[AEM_VERTICES]);
    if (s == MCL_OK) s = check_textures(c, &f);
    /* aem.md, Mesh Section: a range of the index section (the exporter
     * writes ranges past the end for non-triangle meshes: docs/formats/aem.md). */
    if (s == MCL_OK)
        s = mcl__aem_check_meshes(c, data, f.start[AEM_MESHES], f.count[AEM_MESHES], f.count[AEM_INDICES],
                                  f.count[AEM_MATERIALS]);
    if (s == MCL_OK) s = check_materials(c, &f);
    if (s == MCL_OK) s = load_bones(c, &f, c->model);
    if (s == MCL_OK) s = check_animation_headers(c, &f);
    if (s == MCL_OK) s = check_sequences(c, &f);
    if (s == MCL_OK) s = load_animations(c, &f, c->model);
    if (s == MCL_OK) s = build_materials(c, &f, c->model);
    if (s == MCL_OK) s = build_meshes(c, &f, c->model);
    if (s == MCL_OK) c->model->layout = "aem1";
    return s;
}
