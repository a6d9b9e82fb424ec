/*
 * AEM reference loader, current upstream layout ("2025": the Specification
 * of upstream readme.md at janhsimon/aem 42bd501, restated with what real
 * files show in docs/formats/aem2025.md), written from the spec
 * independently of the validator. mcl__load_aem hands a file over when its
 * header counts add up to the file size in this layout alone.
 *
 * A 52-byte header (the readme's table leaves out the u32 padding at 48)
 * and ten sections in file order, one of them the image buffer, whose size
 * is a u64: the header fixes the file size, which is checked first
 * (overflow-checked), so afterwards every record lies inside the data.
 *
 * Mapping to the common model (mcl.h):
 *   - Meshes as in aem1: each mesh's index range with the vertices it uses
 *     compacted; tangents and bitangents dropped; no extra bone.
 *   - Skinning: 4 influences per vertex when the file has joints; a -1 slot
 *     becomes bone 0 with weight 0; the converter's filler index 0 keeps
 *     its weight 0 (on joint 0's bone).
 *   - Joints become bones with their names. The converter writes joints in
 *     the glTF skin's order, where a parent may follow its child: the
 *     loader orders them parents first (by depth, stable) and renumbers
 *     every reference; a cycle is an error.
 *   - Materials: the base colour texture as texture_data (its whole MIP
 *     chain, copied once per texture) with its size, channels, encoding and
 *     level count; normal and PBR textures and the type have no slot.
 *   - Rest pose derived from the inverse bind matrices (as aem1).
 *   - Animations: per joint up to three tracks (T, R, S; a channel without
 *     keys gets none), LINEAR, times in seconds.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aem_common.h"

enum sec {
    S_VERTICES, S_INDICES, S_IMAGE, S_TEXTURES, S_MESHES, S_MATERIALS,
    S_JOINTS, S_ANIMATIONS, S_TRACKS, S_KEYFRAMES, S_COUNT
};

#define HEADER_SIZE 52u
#define NAME_SIZE MCL_AEM_NAME_SIZE

static const uint32_t rec_size[S_COUNT] = {88, 4, 1, 32, 12, 16, 196, 132, 16, 20};
static const uint32_t count_at[S_COUNT] = {4, 8, 12, 20, 24, 28, 32, 36, 40, 44};

/* Tolerance of docs/ISSUES.md, as the aem1 loader's (the others in
 * aem_common.h). */
#define TOL_INVERTIBLE 1e-6

typedef struct file25 {
    const uint8_t *data;
    uint64_t count[S_COUNT]; /* all u32 but the image buffer's */
    uint64_t start[S_COUNT];
    uint32_t *order;         /* new bone -> joint */
    uint32_t *bone_of;       /* joint -> new bone */
} file25;

static uint64_t at(const file25 *f, enum sec s, uint64_t i)
{
    return f->start[s] + i * rec_size[s];
}

static uint32_t u32_at(const file25 *f, uint64_t off)
{
    return mc_le32(f->data + off);
}

static int32_t i32_at(const file25 *f, uint64_t off)
{
    return mcl__aem_i32(f->data + off);
}

static float f32_at(const file25 *f, uint64_t off)
{
    return mc_le_f32(f->data + off);
}

/* ---- header ---- */

static bool read_counts(const uint8_t *data, size_t size, uint64_t count[S_COUNT], uint64_t start[S_COUNT],
                        uint64_t *end)
{
    if (size < HEADER_SIZE) return false;
    *end = HEADER_SIZE;
    for (int s = 0; s < S_COUNT; s++) {
        count[s] = s == S_IMAGE ? mc_le64(data + count_at[s]) : mc_le32(data + count_at[s]);
        start[s] = *end;
        if (!mc_add_mul_u64(end, count[s], rec_size[s])) return false;
    }
    return true;
}

bool mcl__aem2025_size(const uint8_t *data, size_t size, uint64_t *implied)
{
    uint64_t count[S_COUNT], start[S_COUNT];
    return read_counts(data, size, count, start, implied);
}

static mcl_status parse_header(mcl_ctx *c, file25 *f, const uint8_t *data, size_t size)
{
    uint64_t end = 0;
    f->data = data;
    if (!read_counts(data, size, f->count, f->start, &end))
        return mcl__fail(c, MCL_ERR_SIZE, 12, "2025 layout: section sizes overflow");
    if (end != size) /* the caller only hands over files whose sizes match */
        return mcl__fail(c, MCL_ERR_SIZE, 4, "2025 layout: counts imply %llu bytes, the file has %zu",
                         (unsigned long long)end, size);
    /* The u32 padding at 48 that the readme's table omits is not read: the
     * converter writes 0, and anything else is a warning of the validator's. */
    /* The common model indexes materials and bones with int32_t. */
    if (f->count[S_MATERIALS] > INT32_MAX || f->count[S_JOINTS] > INT32_MAX)
        return mcl__fail(c, MCL_ERR_LIMIT, f->count[S_JOINTS] > INT32_MAX ? 32 : 28, "more than 2^31 materials or joints");
    return MCL_OK;
}

/* ---- vertices and indices ---- */

/* Every float finite. The readme states no length rule for normals,
 * tangents and bitangents (a non-unit one is a warning of the validator's):
 * the common model takes them as stored. */
static mcl_status check_vertex_floats(mcl_ctx *c, const file25 *f, uint64_t o, uint32_t v)
{
    float a[14];
    return mcl__aem_vertex_floats(c, f->data, o, v, a);
}

/* Readme, Vertex Section: indices into the joint section, -1 for an unused
 * slot (weight 0.0); weights sum to 1.0, or to 0.0 for a vertex no joint
 * affects. The converter's filler index 0 with weight 0 in unused slots is
 * a deviation the validator warns about: it indexes a real joint, so it is
 * accepted here. */
static mcl_status check_vertex_skin(mcl_ctx *c, const file25 *f, uint64_t o, uint32_t v)
{
    int32_t j[4];
    float w[4] = {0}; /* set by the slots check; gcc -O2 cannot see that an error returns first */
    mcl_status s = mcl__aem_vertex_slots(c, f->data, o, v, "joint", f->count[S_JOINTS], j, w);
    return s == MCL_OK ? mcl__aem_weight_sum(c, o, v, w, false, "1 or 0") : s;
}

static mcl_status check_vertices(mcl_ctx *c, const file25 *f)
{
    for (uint64_t v = 0; v < f->count[S_VERTICES]; v++) {
        uint64_t o = at(f, S_VERTICES, v);
        mcl_status s = check_vertex_floats(c, f, o, (uint32_t)v);
        if (s == MCL_OK) s = check_vertex_skin(c, f, o, (uint32_t)v);
        if (s != MCL_OK) return s;
    }
    return MCL_OK;
}

/* ---- textures, meshes, materials ---- */

/* Bytes of a whole MIP chain: every level from w x h down to 1x1, each half
 * the previous (floor, at least 1); uncompressed w*h*channels bytes, BC5
 * and BC7 16 bytes per 4x4 block. At most 33 levels of at most 2^64 / 2
 * bytes each: overflow-checked all the same. */
static bool chain_size(uint32_t w, uint32_t h, uint32_t channels, uint32_t compression, uint64_t *bytes,
                       uint32_t *levels)
{
    *bytes = 0;
    *levels = 0;
    for (;;) {
        uint64_t level;
        if (compression == 0) {
            if (!mc_mul_u64((uint64_t)w * h, channels, &level)) return false;
        } else {
            level = ((uint64_t)w + 3) / 4 * (((uint64_t)h + 3) / 4) * 16; /* < 2^62 */
        }
        if (!mc_add_u64(*bytes, level, bytes)) return false;
        (*levels)++;
        if (w == 1 && h == 1) return true;
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
}

static mcl_status check_texture(mcl_ctx *c, const file25 *f, uint64_t t)
{
    uint64_t o = at(f, S_TEXTURES, t);
    uint64_t offset = mc_le64(f->data + o);
    uint32_t w = u32_at(f, o + 8), h = u32_at(f, o + 12), channels = u32_at(f, o + 24), comp = u32_at(f, o + 28);
    unsigned long long ti = (unsigned long long)t;
    if (w == 0 || h == 0) return mcl__fail(c, MCL_ERR_VALUE, o + 8, "texture %llu: size %ux%u (expected at least 1x1)", ti, w, h);
    for (unsigned k = 0; k < 2; k++)
        if (u32_at(f, o + 16 + 4 * k) > 2) /* 0 repeat, 1 mirrored repeat, 2 clamp */
            return mcl__fail(c, MCL_ERR_RANGE, o + 16 + 4 * k, "texture %llu: wrap mode %c is %u (expected 0..2)", ti,
                             k ? 'Y' : 'X', u32_at(f, o + 16 + 4 * k));
    if (channels < 1 || channels > 4)
        return mcl__fail(c, MCL_ERR_RANGE, o + 24, "texture %llu: %u channels (expected 1..4)", ti, channels);
    if (comp > 2) /* 0 none, 1 BC5, 2 BC7 */
        return mcl__fail(c, MCL_ERR_RANGE, o + 28, "texture %llu: compression %u (expected 0..2)", ti, comp);
    uint64_t bytes, end;
    uint32_t levels;
    if (!chain_size(w, h, channels, comp, &bytes, &levels) || !mc_add_u64(offset, bytes, &end) ||
        end > f->count[S_IMAGE])
        return mcl__fail(c, MCL_ERR_RANGE, o, "texture %llu: MIP chain of %ux%u from offset %llu passes the %llu-byte image buffer",
                         ti, w, h, (unsigned long long)offset, (unsigned long long)f->count[S_IMAGE]);
    return MCL_OK;
}

static mcl_status check_textures(mcl_ctx *c, const file25 *f)
{
    mcl_status s = MCL_OK;
    for (uint64_t t = 0; t < f->count[S_TEXTURES] && s == MCL_OK; t++) s = check_texture(c, f, t);
    return s;
}

/* Readme, Material Section: every texture index exists (no sentinel);
 * type 0 opaque, 1 transparent. */
static mcl_status check_materials(mcl_ctx *c, const file25 *f)
{
    for (uint64_t m = 0; m < f->count[S_MATERIALS]; m++) {
        uint64_t o = at(f, S_MATERIALS, m);
        for (unsigned k = 0; k < 3; k++)
            if (u32_at(f, o + 4 * k) >= f->count[S_TEXTURES])
                return mcl__fail(c, MCL_ERR_RANGE, o + 4 * k, "material %llu: texture index %u (expected < %llu)",
                                 (unsigned long long)m, u32_at(f, o + 4 * k), (unsigned long long)f->count[S_TEXTURES]);
        if (u32_at(f, o + 12) > 1)
            return mcl__fail(c, MCL_ERR_RANGE, o + 12, "material %llu: type %u (expected 0 or 1)", (unsigned long long)m,
                             u32_at(f, o + 12));
    }
    return MCL_OK;
}

/* ---- names ---- */

/* Well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF). */
static bool utf8_ok(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint8_t b = s[i];
        size_t len = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
        if (!len || len > n - i || (len == 2 && b < 0xC2) || b > 0xF4) return false;
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xC0) != 0x80) return false;
        if (len == 3 && ((b == 0xE0 && s[i + 1] < 0xA0) || (b == 0xED && s[i + 1] >= 0xA0))) return false;
        if (len == 4 && ((b == 0xF0 && s[i + 1] < 0x90) || (b == 0xF4 && s[i + 1] >= 0x90))) return false;
        i += len;
    }
    return true;
}

/* A NUL-terminated UTF-8 string within its 128 bytes; the bytes after the
 * NUL are not read (the converter leaves its stack there: a warning of the
 * validator's, not an error). */
static mcl_status name_at(mcl_ctx *c, const file25 *f, uint64_t o, const char *what, uint64_t i, size_t *len)
{
    mcl_status s = mcl__aem_name(c, f->data, o, what, i, len);
    if (s == MCL_OK && !utf8_ok(f->data + o, *len))
        return mcl__fail(c, MCL_ERR_VALUE, o, "%s %llu: name is not UTF-8", what, (unsigned long long)i);
    return s;
}

/* ---- joints ---- */

/* Inverse bind matrices: finite and invertible, judged relative to the
 * column lengths so a uniformly tiny scale still counts. */
static mcl_status check_inverse_bind(mcl_ctx *c, const file25 *f, uint64_t j, float m[16])
{
    uint64_t o = at(f, S_JOINTS, j) + NAME_SIZE;
    double d[16], inv[16], cols = 1;
    mcl_status s = mcl__aem_matrix(c, f->data, o, "joint", j, m);
    if (s != MCL_OK) return s;
    for (unsigned k = 0; k < 16; k++) d[k] = m[k];
    for (int col = 0; col < 4; col++) cols *= mcl__aem_length(&m[col * 4], 4);
    if (!(cols > 0) || !(fabs(mcl__aem_invert4(d, inv)) / cols > TOL_INVERTIBLE))
        return mcl__fail(c, MCL_ERR_VALUE, o, "joint %llu: inverse bind matrix is singular", (unsigned long long)j);
    return MCL_OK;
}

static mcl_status check_joint(mcl_ctx *c, const file25 *f, uint64_t j)
{
    uint64_t o = at(f, S_JOINTS, j);
    size_t len;
    float m[16];
    mcl_status s = name_at(c, f, o, "joint", j, &len);
    if (s == MCL_OK) s = check_inverse_bind(c, f, j, m);
    if (s != MCL_OK) return s;
    int32_t p = i32_at(f, o + 192);
    if (p != -1 && (p < 0 || (uint64_t)p >= f->count[S_JOINTS]))
        return mcl__fail(c, MCL_ERR_RANGE, o + 192, "joint %llu: parent %d (expected -1 or < %llu)", (unsigned long long)j, p,
                         (unsigned long long)f->count[S_JOINTS]);
    return MCL_OK;
}

/* Orders joints parents first: depth of every joint in one pass (each
 * joint's chain is walked until a joint of known depth, so the work is
 * linear), then a stable counting sort by depth. A chain that comes back to
 * a joint being walked is a cycle. */
static mcl_status order_joints(mcl_ctx *c, file25 *f)
{
    uint64_t n = f->count[S_JOINTS];
    uint32_t *depth = mcl__scratch(c, n, sizeof *depth), *chain = depth ? mcl__scratch(c, n, sizeof *chain) : NULL;
    uint32_t *start = chain ? mcl__scratch(c, n + 1, sizeof *start) : NULL;
    f->order = start ? mcl__alloc(c, n, sizeof *f->order) : NULL;
    f->bone_of = f->order ? mcl__alloc(c, n, sizeof *f->bone_of) : NULL;
    mcl_status s = f->bone_of ? MCL_OK : c->err->status;
    const uint32_t unknown = UINT32_MAX, walking = UINT32_MAX - 1;
    for (uint64_t j = 0; j < n && s == MCL_OK; j++) depth[j] = unknown;
    for (uint64_t j = 0; j < n && s == MCL_OK; j++) {
        uint64_t len = 0, k = j;
        while (depth[k] == unknown) { /* at most n steps: each marks a joint */
            depth[k] = walking;
            chain[len++] = (uint32_t)k;
            int32_t p = i32_at(f, at(f, S_JOINTS, k) + 192);
            if (p < 0) break;
            k = (uint32_t)p;
        }
        if (depth[k] == walking && i32_at(f, at(f, S_JOINTS, k) + 192) >= 0) {
            s = mcl__fail(c, MCL_ERR_STRUCTURE, at(f, S_JOINTS, k) + 192, "joint %llu: its parent chain is a cycle",
                          (unsigned long long)k);
            break;
        }
        /* chain[len - 1] is a root (depth 0) or its parent's depth is known */
        uint32_t d = 0;
        if (depth[k] != walking) d = depth[k] + 1;
        while (len > 0) depth[chain[--len]] = d++;
    }
    if (s == MCL_OK) {
        for (uint64_t j = 0; j < n; j++) start[depth[j] + 1]++;
        for (uint64_t d = 0; d < n; d++) start[d + 1] += start[d];
        for (uint64_t j = 0; j < n; j++) {
            uint32_t b = start[depth[j]]++;
            f->order[b] = (uint32_t)j;
            f->bone_of[j] = b;
        }
    }
    mcl__scratch_free(c, start, n + 1, sizeof *start);
    mcl__scratch_free(c, chain, n, sizeof *chain);
    mcl__scratch_free(c, depth, n, sizeof *depth);
    return s;
}

static mcl_status load_joints(mcl_ctx *c, file25 *f, mcl_model *model)
{
    uint64_t n = f->count[S_JOINTS];
    for (uint64_t j = 0; j < n; j++) {
        mcl_status s = check_joint(c, f, j);
        if (s != MCL_OK) return s;
    }
    mcl_status s = order_joints(c, f);
    mcl_bone *bones = s == MCL_OK ? mcl__alloc(c, n, sizeof *bones) : NULL;
    if (!bones) return c->err->status;
    for (uint32_t b = 0; b < n; b++) {
        uint32_t j = f->order[b];
        uint64_t o = at(f, S_JOINTS, j);
        bones[b].name = mcl__strdup(c, f->data + o, mcl__aem_name_len(f->data, o));
        if (!bones[b].name) return c->err->status;
        int32_t p = i32_at(f, o + 192);
        bones[b].parent = p < 0 ? -1 : (int32_t)f->bone_of[p];
        for (unsigned k = 0; k < 16; k++) bones[b].inverse_bind[k] = f32_at(f, o + NAME_SIZE + 4 * k);
    }
    /* The rest pose from the bind matrices, which need not be affine. */
    for (uint32_t b = 0; b < n; b++) mcl__aem_rest_local(bones, b, false);
    model->bones = bones;
    model->bone_count = (uint32_t)n;
    return MCL_OK;
}

/* ---- animations, tracks, keyframes ---- */

static mcl_status check_animations(mcl_ctx *c, const file25 *f)
{
    for (uint64_t a = 0; a < f->count[S_ANIMATIONS]; a++) {
        uint64_t o = at(f, S_ANIMATIONS, a);
        size_t len;
        mcl_status s = name_at(c, f, o, "animation", a, &len);
        if (s != MCL_OK) return s;
        float d = f32_at(f, o + NAME_SIZE);
        if (!(isfinite(d) && d > 0)) /* seconds */
            return mcl__fail(c, MCL_ERR_VALUE, o + NAME_SIZE, "animation %llu: duration %g (expected finite, > 0)",
                             (unsigned long long)a, d);
    }
    /* Readme, Track Section: one track per joint per animation. */
    uint64_t want = f->count[S_JOINTS] * f->count[S_ANIMATIONS]; /* both < 2^32 */
    if (f->count[S_TRACKS] != want)
        return mcl__fail(c, MCL_ERR_SIZE, count_at[S_TRACKS], "%llu tracks (expected %llu joints x %llu animations)",
                         (unsigned long long)f->count[S_TRACKS], (unsigned long long)f->count[S_JOINTS],
                         (unsigned long long)f->count[S_ANIMATIONS]);
    for (uint64_t t = 0; t < f->count[S_TRACKS]; t++) {
        uint64_t o = at(f, S_TRACKS, t), end = u32_at(f, o);
        for (unsigned k = 1; k < 4; k++) end += u32_at(f, o + 4 * k); /* < 2^34 */
        if (end > f->count[S_KEYFRAMES])
            return mcl__fail(c, MCL_ERR_RANGE, o, "track %llu: keyframes %u + %u + %u + %u pass the %llu keyframes",
                             (unsigned long long)t, u32_at(f, o), u32_at(f, o + 4), u32_at(f, o + 8), u32_at(f, o + 12),
                             (unsigned long long)f->count[S_KEYFRAMES]);
    }
    return MCL_OK;
}

/* Reads and checks one channel's keys (readme, Keyframe Section). */
static mcl_status load_channel(mcl_ctx *c, const file25 *f, uint64_t first, uint32_t count, unsigned ch, double duration,
                               uint64_t track, uint32_t bone, mcl_track *t)
{
    static const char *const keys[3] = {"translation key", "rotation key", "scale key"};
    mcl_aem_key_names names = {.key = keys[ch], .rotation_key = "rotation key", .first_number = 0};
    snprintf(names.where, sizeof names.where, "track %llu", (unsigned long long)track);
    return mcl__aem_load_keys(c, f->data, at(f, S_KEYFRAMES, first), count, ch, duration, &names, bone, t);
}

static mcl_status load_animation(mcl_ctx *c, const file25 *f, uint64_t a, mcl_animation *an)
{
    uint64_t o = at(f, S_ANIMATIONS, a), joints = f->count[S_JOINTS];
    an->name = mcl__strdup(c, f->data + o, mcl__aem_name_len(f->data, o));
    an->duration = f32_at(f, o + NAME_SIZE);
    mcl_track *tracks = an->name ? mcl__alloc(c, joints * 3, sizeof *tracks) : NULL;
    if (!tracks) return c->err->status;
    uint32_t n = 0;
    for (uint32_t b = 0; b < joints; b++) { /* in bone order: tracks of a bone together */
        uint64_t track = a * joints + f->order[b];
        uint64_t to = at(f, S_TRACKS, track), first = u32_at(f, to);
        for (unsigned ch = 0; ch < 3; ch++) {
            uint32_t count = u32_at(f, to + 4 + 4 * ch);
            if (count) {
                mcl_status s = load_channel(c, f, first, count, ch, an->duration, track, b, &tracks[n++]);
                if (s != MCL_OK) return s;
            }
            first += count;
        }
    }
    an->tracks = tracks;
    an->track_count = n;
    return MCL_OK;
}

static mcl_status load_animations(mcl_ctx *c, const file25 *f, mcl_model *model)
{
    uint64_t n = f->count[S_ANIMATIONS];
    mcl_animation *anims = mcl__alloc(c, n, sizeof *anims);
    if (!anims) return c->err->status;
    for (uint64_t a = 0; a < n; a++) {
        mcl_status s = load_animation(c, f, a, &anims[a]);
        if (s != MCL_OK) return s;
    }
    model->animations = anims;
    model->animation_count = (uint32_t)n;
    return MCL_OK;
}

/* ---- building meshes and materials ---- */

/* Meshes as aem1's, without its extra bone, joints renumbered parents
 * first. */
static mcl_status build_meshes(mcl_ctx *c, const file25 *f, mcl_model *model)
{
    mcl_aem_meshes src = {
        .data = f->data,
        .vertices = f->start[S_VERTICES],
        .indices = f->start[S_INDICES],
        .meshes = f->start[S_MESHES],
        .vertex_count = f->count[S_VERTICES],
        .mesh_count = f->count[S_MESHES],
        .stride = rec_size[S_VERTICES],
        .influences = f->count[S_JOINTS] ? 4 : 0,
        .bone_of = f->bone_of,
        .extra_bone = false,
    };
    return mcl__aem_build_meshes(c, &src, model);
}

/* The base colour texture of a material: its chain copied once per texture
 * (copies[t], shared by the materials using it). */
static mcl_status base_texture(mcl_ctx *c, const file25 *f, uint32_t t, const uint8_t **copies, mcl_material *ma)
{
    uint64_t o = at(f, S_TEXTURES, t), bytes;
    uint32_t w = u32_at(f, o + 8), h = u32_at(f, o + 12), channels = u32_at(f, o + 24), comp = u32_at(f, o + 28), levels;
    chain_size(w, h, channels, comp, &bytes, &levels); /* fits the image buffer: checked */
    if (!copies[t]) {
        uint8_t *p = mcl__alloc(c, bytes, 1);
        if (!p) return c->err->status;
        memcpy(p, f->data + f->start[S_IMAGE] + mc_le64(f->data + o), (size_t)bytes);
        copies[t] = p;
    }
    static const mcl_texels texels[3] = {MCL_TEXELS_RAW, MCL_TEXELS_BC5, MCL_TEXELS_BC7};
    ma->texture_data = copies[t];
    ma->texture_size = bytes;
    ma->texture_texels = texels[comp];
    ma->texture_width = w;
    ma->texture_height = h;
    ma->texture_channels = channels;
    ma->texture_levels = levels;
    return MCL_OK;
}

static mcl_status build_materials(mcl_ctx *c, const file25 *f, mcl_model *model)
{
    uint64_t n = f->count[S_MATERIALS], nt = f->count[S_TEXTURES];
    mcl_material *mats = mcl__alloc(c, n, sizeof *mats);
    const uint8_t **copies = mats ? mcl__scratch(c, nt, sizeof *copies) : NULL;
    if (!copies) return c->err->status;
    mcl_status s = MCL_OK;
    for (uint64_t m = 0; m < n && s == MCL_OK; m++) {
        mats[m].name = "";
        for (int k = 0; k < 4; k++) mats[m].base_color[k] = 1.0f;
        s = base_texture(c, f, u32_at(f, at(f, S_MATERIALS, m)), copies, &mats[m]);
    }
    mcl__scratch_free(c, (void *)copies, nt, sizeof *copies);
    if (s != MCL_OK) return s;
    model->materials = mats;
    model->material_count = (uint32_t)n;
    return MCL_OK;
}

mcl_status mcl__load_aem2025(mcl_ctx *c, const uint8_t *data, size_t size)
{
    file25 f;
    memset(&f, 0, sizeof f);
    mcl_status s = parse_header(c, &f, data, size);
    if (s == MCL_OK) s = check_vertices(c, &f);
    if (s == MCL_OK) s = mcl__aem_check_indices(c, data, f.start[S_INDICES], f.count[S_INDICES], f.count[S_VERTICES]);
    if (s == MCL_OK) s = check_textures(c, &f);
    if (s == MCL_OK)
        s = mcl__aem_check_meshes(c, data, f.start[S_MESHES], f.count[S_MESHES], f.count[S_INDICES], f.count[S_MATERIALS]);
    if (s == MCL_OK) s = check_materials(c, &f);
    if (s == MCL_OK) s = load_joints(c, &f, c->model);
    if (s == MCL_OK) s = check_animations(c, &f);
    if (s == MCL_OK) s = load_animations(c, &f, c->model);
    if (s == MCL_OK) s = build_materials(c, &f, c->model);
    if (s == MCL_OK) s = build_meshes(c, &f, c->model);
    if (s == MCL_OK) c->model->layout = "2025";
    return s;
}
