/*
 * NLM (nlm.md, docs/formats/nlm.md): a 16-byte header, an AABB, a counted list
 * of variable-size meshes, and, when the header's flag says so, an animation
 * section (bone info map, bone map with keys, node hierarchy). Nothing is
 * indexed: every section starts where the previous one ends, so the file is
 * walked twice. The first walk (structure) checks that every count fits in
 * the bytes that remain and finds the exact end, reporting one NLM_TRUNCATED
 * where the file runs out; the second walk checks the elements of the
 * sections the first one found complete.
 */
#include <float.h>
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
#include "mc_signature.h"

enum {
    NLM_HEADER_SIZE = 16,
    NLM_AABB_OFFSET = 16,
    NLM_MESHES_OFFSET = 40,
    NLM_MESH_HEADER_SIZE = 8,
    NLM_MESH_MIN_SIZE = 12, /* header + texture size field */
    NLM_VERTEX_SIZE = 76,
    NLM_BONE_INFO_SIZE = 72,
    NLM_CHANNEL_HEADER_SIZE = 20,
    NLM_NODE_HEADER_SIZE = 72,
    NLM_ENGINE_BONES = 100 /* docs/formats/nlm.md: the engine's skinning array */
};

/* docs/formats/nlm.md: the u32 0x4D4F444C written little-endian. */
static const uint8_t nlm_magic[4] = {'L', 'D', 'O', 'M'};
#define NLM_FNV1A_BASIS UINT32_C(0x811C9DC5)

/* Vertex field offsets (nlm.md, Vertex Data). */
enum { V_COLOR = 12, V_NORMAL = 24, V_UV = 36, V_BONES = 44, V_WEIGHTS = 60 };

/* Key kinds of a bone map entry, in file order. */
enum { KEY_POSITION, KEY_ROTATION, KEY_SCALE, KEY_KINDS };
static const char *const key_name[KEY_KINDS] = {"position", "rotation", "scale"};
static const uint32_t key_size[KEY_KINDS] = {16, 20, 16};

typedef struct nlm_mesh {
    uint64_t off; /* mesh header */
    uint32_t vertex_count, index_count, texture_size;
    uint64_t vertices, indices, texture; /* texture: the size field */
} nlm_mesh;

typedef struct nlm_channel {
    uint64_t off;
    int32_t node, bone;
    uint32_t count[KEY_KINDS];
    uint64_t keys[KEY_KINDS]; /* first key of each kind */
} nlm_channel;

typedef struct nlm_node {
    uint64_t off;
    int32_t id;
    uint32_t child_count;
} nlm_node;

typedef struct nlm_file {
    uint32_t flag;
    bool flag_ok;
    uint32_t mesh_count, meshes_complete;
    uint64_t anim_off; /* where the meshes end */
    bool anim_ok;      /* the animation section is complete */
    float duration;
    int32_t ticks;
    uint32_t info_count, channel_count, node_count;
    uint64_t info_off, channel_off, node_off; /* first entry of each */
    uint64_t node_count_off;
} nlm_file;

static bool nlm_detect(const uint8_t *data, size_t size)
{
    if (size >= 8 && memcmp(data + 4, nlm_magic, 4) == 0) return true;
    /* the older hash-less layout: recognised so that it is named */
    if (size >= 4 && memcmp(data, nlm_magic, 4) == 0) return true;
    /* the spec's spelling 'MODL' followed by version 2: named, not guessed at */
    return size >= 12 && memcmp(data + 4, "MODL", 4) == 0 && mc_le32(data + 8) == 2;
}

/* ---- structure ---- */

/* Record layouts for inspect (nlm.md); names are the issue paths'. */
static const mc_field mesh_header_fields[] = {{"vertex_count", MC_FIELD_U32, 0, 1, 0},
                                              {"index_count", MC_FIELD_U32, 4, 1, 0}};
static const mc_field vertex_fields[] = {
    {"position", MC_FIELD_F32, 0, 3, 0}, {"color", MC_FIELD_F32, 12, 3, 0},
    {"normal", MC_FIELD_F32, 24, 3, 0},  {"uv", MC_FIELD_F32, 36, 2, 0},
    {"bone_ids", MC_FIELD_I32, 44, 4, 1}, {"weights", MC_FIELD_F32, 60, 4, 1}};
static const mc_field index_fields[] = {{"", MC_FIELD_U32, 0, 1, 0}};
static const mc_field texture_fields[] = {{"size", MC_FIELD_U32, 0, 1, 0}};

/* A mesh's positions and weights as the structure sink sees them: the
 * same views for mc_s_walked and report_mesh. */
static mc_view vertex_view(const mc_ctx *c, const nlm_mesh *m, uint64_t at, uint32_t width)
{
    uint64_t vbytes = (uint64_t)m->vertex_count * NLM_VERTEX_SIZE;
    return (mc_view){c->data + m->vertices + at, mc_view_bytes(vbytes >= at ? vbytes - at : 0), m->vertex_count,
                     NLM_VERTEX_SIZE, MC_FIELD_F32, width};
}

/* inspect: the parts of a mesh that walk_mesh found to fit; its geometry
 * once check_vertices has summed the vertices */
static void report_mesh(mc_ctx *c, const nlm_mesh *m)
{
    mc_s_layout(c, MC_FIELDS(mesh_header_fields));
    mc_s_u64(c, "vertices", m->vertex_count);
    mc_s_u64(c, "indices", m->index_count);
    mc_s_u64(c, "texture_bytes", m->texture_size);
    mc_s_array(c, "vertices", m->vertices, m->vertex_count, NLM_VERTEX_SIZE, MC_FIELDS(vertex_fields));
    mc_s_array(c, "indices", m->indices, m->index_count, 4, MC_FIELDS(index_fields));
    mc_s_enter(c, "texture", "texture", m->texture, 4u + (uint64_t)m->texture_size);
    mc_s_layout(c, MC_FIELDS(texture_fields));
    mc_s_leave(c);
    mc_geometry g = {vertex_view(c, m, 0, 3),
                     {c->data + m->indices, mc_view_bytes(4u * (uint64_t)m->index_count), m->index_count, 4,
                      MC_FIELD_U32, 1},
                     vertex_view(c, m, 60, 4),
                     3, false, false, 0};
    mc_sink_geometry_later(c->sink, &g);
}

/* nlm.md, Mesh Header .. Embedded Texture Data: reads the mesh at r's
 * cursor and moves past it. */
static bool walk_mesh(mc_ctx *c, mc_reader *r, uint32_t m, bool emit, nlm_mesh *out)
{
    char path[48];
    snprintf(path, sizeof path, "/meshes/%" PRIu32, m);
    out->off = r->pos;
    if (!mc_fits_or_truncated(c, r, 1, NLM_MESH_HEADER_SIZE, emit, MC_NLM_TRUNCATED,
                              path, "the header of mesh %" PRIu32, m))
        return false;
    out->vertex_count = mc_read_u32(r);
    out->index_count = mc_read_u32(r);
    out->vertices = r->pos;
    snprintf(path, sizeof path, "/meshes/%" PRIu32 "/vertices", m);
    if (!mc_fits_or_truncated(c, r, out->vertex_count, NLM_VERTEX_SIZE, emit, MC_NLM_TRUNCATED, path,
                              "mesh %" PRIu32 "'s %" PRIu32 " vertices (vertex count at 0x%" PRIx64 ")", m,
                              out->vertex_count, out->off))
        return false;
    mc_reader_skip(r, (size_t)out->vertex_count * NLM_VERTEX_SIZE);
    out->indices = r->pos;
    snprintf(path, sizeof path, "/meshes/%" PRIu32 "/indices", m);
    if (!mc_fits_or_truncated(c, r, out->index_count, 4, emit, MC_NLM_TRUNCATED, path,
                              "mesh %" PRIu32 "'s %" PRIu32 " indices (index count at 0x%" PRIx64 ")", m,
                              out->index_count, out->off + 4))
        return false;
    mc_reader_skip(r, (size_t)out->index_count * 4u);
    out->texture = r->pos;
    snprintf(path, sizeof path, "/meshes/%" PRIu32 "/texture", m);
    if (!mc_fits_or_truncated(c, r, 1, 4, emit, MC_NLM_TRUNCATED,
                              path, "mesh %" PRIu32 "'s texture size", m))
        return false;
    out->texture_size = mc_read_u32(r);
    if (!mc_fits_or_truncated(c, r, out->texture_size, 1, emit, MC_NLM_TRUNCATED, path,
                              "mesh %" PRIu32 "'s %" PRIu32 "-byte texture blob (size at 0x%" PRIx64 ")", m,
                              out->texture_size, out->texture))
        return false;
    mc_reader_skip(r, out->texture_size);
    return true;
}

/* nlm.md, Bone Entries: five fields, then the keys of each kind in turn. */
static bool walk_channel(mc_ctx *c, mc_reader *r, uint32_t i, bool emit, nlm_channel *out)
{
    char path[48];
    snprintf(path, sizeof path, "/animation/channels/%" PRIu32, i);
    out->off = r->pos;
    if (!mc_fits_or_truncated(c, r, 1, NLM_CHANNEL_HEADER_SIZE, emit, MC_NLM_TRUNCATED, path,
                              "the header of bone map entry %" PRIu32, i))
        return false;
    out->node = mc_read_i32(r);
    out->bone = mc_read_i32(r);
    for (int k = 0; k < KEY_KINDS; k++) out->count[k] = mc_read_u32(r);
    for (int k = 0; k < KEY_KINDS; k++) {
        out->keys[k] = r->pos;
        snprintf(path, sizeof path, "/animation/channels/%" PRIu32 "/%s_keys", i, key_name[k]);
        if (!mc_fits_or_truncated(c, r, out->count[k], key_size[k], emit, MC_NLM_TRUNCATED, path,
                                  "bone map entry %" PRIu32 "'s %" PRIu32 " %s keys (count at 0x%" PRIx64 ")", i,
                                  out->count[k], key_name[k], out->off + 8 + 4u * (unsigned)k))
            return false;
        mc_reader_skip(r, (size_t)out->count[k] * key_size[k]);
    }
    return true;
}

/* nlm.md, Animation Nodes: 72 bytes, then the child IDs. */
static bool walk_node(mc_ctx *c, mc_reader *r, uint32_t i, bool emit, nlm_node *out)
{
    char path[48];
    snprintf(path, sizeof path, "/animation/nodes/%" PRIu32, i);
    out->off = r->pos;
    if (!mc_fits_or_truncated(c, r, 1, NLM_NODE_HEADER_SIZE, emit, MC_NLM_TRUNCATED,
                              path, "the header of node %" PRIu32, i))
        return false;
    out->id = mc_read_i32(r);
    mc_reader_skip(r, 64);
    out->child_count = mc_read_u32(r);
    snprintf(path, sizeof path, "/animation/nodes/%" PRIu32 "/children", i);
    if (!mc_fits_or_truncated(c, r, out->child_count, 4, emit, MC_NLM_TRUNCATED, path,
                              "node %" PRIu32 "'s %" PRIu32 " child IDs (count at 0x%" PRIx64 ")", i,
                              out->child_count, out->off + 68))
        return false;
    mc_reader_skip(r, (size_t)out->child_count * 4u);
    return true;
}

/* Reads a u32 count and checks that count records of at least min bytes
 * fit, so a huge count stops here instead of looping to the end. */
static bool walk_count(mc_ctx *c, mc_reader *r, uint32_t *count, uint64_t min, bool emit,
                       const char *path, const char *what)
{
    uint64_t at = r->pos;
    if (!mc_fits_or_truncated(c, r, 1, 4, emit, MC_NLM_TRUNCATED, path, "the %s count", what)) return false;
    *count = mc_read_u32(r);
    return mc_fits_or_truncated(c, r, *count, min, emit, MC_NLM_TRUNCATED, path,
                                "%" PRIu32 " %s (count at 0x%" PRIx64 ", at least %" PRIu64 " bytes each)",
                                *count, what, at, min);
}

/* nlm.md, Animation Data Section. Fills the section offsets of f. */
static bool walk_animation(mc_ctx *c, mc_reader *r, bool emit, nlm_file *f)
{
    if (!mc_fits_or_truncated(c, r, 1, 8, emit, MC_NLM_TRUNCATED, "/animation",
                              "the animation metadata (duration, ticks per second)"))
        return false;
    f->duration = mc_read_f32(r);
    f->ticks = mc_read_i32(r);
    if (emit && c->sink) { /* inspect: on the /animation section */
        mc_s_f64(c, "duration", f->duration);
        mc_s_i64(c, "ticks_per_second", f->ticks);
    }
    if (!walk_count(c, r, &f->info_count, NLM_BONE_INFO_SIZE, emit, "/animation/bone_info",
                    "bone info entries"))
        return false;
    f->info_off = r->pos;
    mc_reader_skip(r, (size_t)f->info_count * NLM_BONE_INFO_SIZE);
    if (!walk_count(c, r, &f->channel_count, NLM_CHANNEL_HEADER_SIZE, emit,
                    "/animation/channels", "bone map entries"))
        return false;
    f->channel_off = r->pos;
    uint64_t keys[KEY_KINDS] = {0, 0, 0};
    for (uint32_t i = 0; i < f->channel_count; i++) {
        nlm_channel ch;
        if (!walk_channel(c, r, i, emit, &ch)) return false;
        for (int k = 0; k < KEY_KINDS; k++) keys[k] += ch.count[k];
    }
    if (emit && c->sink) {
        /* attribute keys are kept by pointer: literals */
        static const char *const attr[KEY_KINDS] = {"position_keys", "rotation_keys", "scale_keys"};
        mc_s_u64(c, "channels", f->channel_count);
        for (int k = 0; k < KEY_KINDS; k++) mc_s_u64(c, attr[k], keys[k]);
    }
    f->node_count_off = r->pos;
    if (!walk_count(c, r, &f->node_count, NLM_NODE_HEADER_SIZE, emit, "/animation/nodes",
                    "nodes"))
        return false;
    f->node_off = r->pos;
    for (uint32_t i = 0; i < f->node_count; i++) {
        nlm_node n;
        if (!walk_node(c, r, i, emit, &n)) return false;
    }
    return true;
}

/* What follows the meshes when the flag is 0: nothing; an animation section
 * (the flag is wrong) or other bytes get one error each. */
static void check_static_end(mc_ctx *c, mc_reader *r, nlm_file *f)
{
    if (mc_reader_left(r) == 0) return;
    mc_reader probe = *r;
    nlm_file g = *f;
    if (walk_animation(c, &probe, false, &g) && mc_reader_left(&probe) == 0) {
        mc_s_enter(c, "section", "animation", f->anim_off, mc_reader_left(r));
        mc_s_leave(c);
        mc_instance *in = mc_emit(c, MC_NLM_UNDECLARED_ANIMATION, f->anim_off);
        mc_path(in, "/animation");
        mc_msg(in, "the animation flag is 0 but the %zu bytes after the meshes hold an animation section "
               "(%" PRIu32 " bone info entries, %" PRIu32 " bone map entries, %" PRIu32 " nodes)",
               mc_reader_left(r), g.info_count, g.channel_count, g.node_count);
        return;
    }
    mc_instance *in = mc_emit(c, MC_NLM_TRAILING_BYTES, f->anim_off);
    mc_path(in, "/");
    mc_msg(in, "%zu bytes after the last mesh (the animation flag is 0; file has %zu bytes, "
           "the sections end at 0x%" PRIx64 ")", mc_reader_left(r), c->size, f->anim_off);
}

/* The first walk: section offsets, one NLM_TRUNCATED at most, the exact end. */
static void walk_structure(mc_ctx *c, nlm_file *f)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, NLM_AABB_OFFSET);
    if (!mc_fits_or_truncated(c, &r, 1, 24, true, MC_NLM_TRUNCATED, "/aabb", "the AABB")) return;
    mc_reader_skip(&r, 24);
    if (!walk_count(c, &r, &f->mesh_count, NLM_MESH_MIN_SIZE, true, "/meshes", "meshes")) return;
    mc_s_enter(c, "section", "meshes", r.pos, 0);
    mc_s_u64(c, "count", f->mesh_count);
    for (uint32_t m = 0; m < f->mesh_count; m++) {
        nlm_mesh mesh;
        mc_s_enter_index(c, "mesh", m, r.pos, 0);
        bool ok = walk_mesh(c, &r, m, true, &mesh);
        if (ok && c->sink) report_mesh(c, &mesh);
        mc_s_end(c, r.pos);
        mc_s_leave(c);
        if (!ok) {
            mc_s_leave(c);
            return;
        }
        f->meshes_complete++;
    }
    mc_s_end(c, r.pos);
    mc_s_leave(c);
    f->anim_off = r.pos;
    if (!f->flag_ok) return; /* NLM_ANIMATION_FLAG: what follows is unknown */
    if (f->flag == 0) {
        check_static_end(c, &r, f);
        return;
    }
    if (mc_reader_left(&r) == 0) {
        mc_truncated(c, MC_NLM_TRUNCATED, "/animation",
                     "the animation flag is 1 but the file ends after the meshes (at 0x%zx)", c->size);
        return;
    }
    mc_s_enter(c, "section", "animation", r.pos, 0);
    bool anim = walk_animation(c, &r, true, f);
    mc_s_end(c, r.pos);
    mc_s_leave(c);
    if (!anim) return;
    f->anim_ok = true;
    if (mc_reader_left(&r) != 0) {
        mc_instance *in = mc_emit(c, MC_NLM_TRAILING_BYTES, r.pos);
        mc_path(in, "/");
        mc_msg(in, "%zu bytes after the node list (file has %zu bytes, the sections end at 0x%zx)",
               mc_reader_left(&r), c->size, r.pos);
    }
}

/* ---- header ---- */

/* nlm.md, Header Section, corrected by docs/formats/nlm.md: 16 bytes, hash, 'LDOM',
 * version 2, flag. False when nothing after it can be trusted. */
static bool check_header(mc_ctx *c, nlm_file *f)
{
    const uint8_t *d = c->data;
    bool v2_magic = c->size >= 8 && memcmp(d + 4, nlm_magic, 4) == 0;
    if (!v2_magic && c->size >= 4 && memcmp(d, nlm_magic, 4) == 0) {
        /* docs/formats/nlm.md: older files start with the magic; the loader rejects them */
        c->layout = "v1-hashless";
        mc_instance *in = mc_emit(c, MC_NLM_LEGACY_HASHLESS, 0);
        mc_path(in, "/header/magic");
        if (c->size >= 8)
            mc_msg(in, "the magic 'LDOM' is at offset 0: the older hash-less layout (version field %" PRIu32
                   "); the current loader expects a 16-byte header with the hash first and rejects it",
                   mc_le32(d + 4));
        else
            mc_msg(in, "the magic 'LDOM' is at offset 0: the older hash-less layout; the current "
                   "loader expects a 16-byte header with the hash first and rejects it");
        return false;
    }
    if (c->size < NLM_HEADER_SIZE) {
        mc_truncated(c, MC_NLM_TRUNCATED, "/header", "file is %zu bytes; the header alone needs %d",
                     c->size, NLM_HEADER_SIZE);
        return false;
    }
    mc_reader r = mc_reader_make(d, c->size);
    uint32_t hash = mc_read_u32(&r);
    const uint8_t *magic = mc_read_bytes(&r, 4);
    uint32_t version = mc_read_u32(&r);
    f->flag = mc_read_u32(&r);
    if (!v2_magic) {
        mc_instance *in = mc_emit(c, MC_NLM_BAD_MAGIC, 4);
        mc_path(in, "/header/magic");
        if (memcmp(magic, "MODL", 4) == 0)
            mc_msg(in, "magic bytes are 'MODL', the spec's spelling; the loader compares the u32 "
                   "0x4D4F444C, which is 'LDOM' on disk");
        else
            mc_msg(in, "magic bytes are %02x %02x %02x %02x (expected 'LDOM': 4c 44 4f 4d)", magic[0],
                   magic[1], magic[2], magic[3]);
    }
    if (version != 2) {
        mc_instance *in = mc_emit(c, MC_NLM_UNSUPPORTED_VERSION, 8);
        mc_path(in, "/header/version");
        mc_msg(in, "version is %" PRIu32 " (expected 2)", version);
        return false;
    }
    c->layout = "v2";
    if (hash == NLM_FNV1A_BASIS) {
        mc_instance *in = mc_emit(c, MC_NLM_HASH_UNCOMPUTED, 0);
        mc_path(in, "/header/hash");
        mc_msg(in, "hash is 0x811C9DC5, the FNV-1a offset basis: the writer hashed nothing");
    }
    f->flag_ok = f->flag <= 1;
    if (!f->flag_ok) {
        mc_instance *in = mc_emit(c, MC_NLM_ANIMATION_FLAG, 12);
        mc_path(in, "/header/animation_flag");
        mc_msg(in, "animation flag is %" PRIu32 " (expected 0 or 1); the animation section is not checked",
               f->flag);
    }
    return true;
}

/* ---- AABB ---- */

/* nlm.md, Axis-Aligned Bounding Box. True when it can judge vertices. */
static bool check_aabb(mc_ctx *c, float box[6])
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, NLM_AABB_OFFSET);
    mc_read_f32s(&r, box, 6);
    if (r.fail) return false;
    if (!mc_all_finite(box, 6)) {
        bool min_bad = !mc_all_finite(box, 3);
        mc_instance *in = mc_emit(c, MC_NLM_AABB_NOT_FINITE, min_bad ? NLM_AABB_OFFSET : NLM_AABB_OFFSET + 12);
        mc_path(in, "/aabb/%s", min_bad ? "min" : "max");
        mc_msg(in, "AABB %s holds NaN or infinity", min_bad ? "min" : "max");
        return false;
    }
    bool ok = true;
    for (int a = 0; a < 3; a++) {
        if (box[a] <= box[3 + a]) continue;
        mc_instance *in = mc_emit(c, MC_NLM_AABB_INVERTED, NLM_AABB_OFFSET + 4u * (unsigned)a);
        mc_path(in, "/aabb/min/%c", "xyz"[a]);
        mc_msg(in, "AABB min %c is %g, max %c is %g (expected min <= max)", "xyz"[a],
               (double)box[a], "xyz"[a], (double)box[3 + a]);
        ok = false;
    }
    return ok;
}

/* ---- the lookups the cross-references need ---- */

typedef struct nlm_pair {
    int32_t key;
    uint32_t index;
} nlm_pair;

static int compare_pairs(const void *a, const void *b)
{
    const nlm_pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The first pair with key, or NULL. */
static const nlm_pair *find_pair(const nlm_pair *p, uint32_t n, int32_t key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p[mid].key < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && p[lo].key == key ? &p[lo] : NULL;
}

/* Sorts pairs and marks, by index, each one whose key an earlier index
 * already holds. */
static void mark_duplicates(nlm_pair *p, uint32_t n, bool *dup)
{
    if (n) qsort(p, n, sizeof *p, compare_pairs);
    for (uint32_t i = 1; i < n; i++)
        if (p[i].key == p[i - 1].key) dup[p[i].index] = true;
}

typedef struct nlm_tables {
    nlm_pair *node_ids;  /* node ID -> node index, sorted */
    nlm_pair *info_ids;  /* bone info node ID -> entry index, sorted */
    nlm_pair *slots;     /* skinning slot -> entry index, sorted */
    int32_t *info_slot;  /* by entry index */
    bool *dup;           /* scratch, by element index */
    uint32_t nodes, infos;
    bool have_nodes, have_slots;
} nlm_tables;

static void free_tables(nlm_tables *t)
{
    free(t->node_ids);
    free(t->info_ids);
    free(t->slots);
    free(t->info_slot);
    free(t->dup);
}

/* ---- vertices ---- */

typedef struct nlm_vertex {
    float attr[11]; /* position 3, color 3, normal 3, uv 2 */
    int32_t bone[4];
    float weight[4];
} nlm_vertex;

static const struct {
    const char *name;
    unsigned first, n;
} vertex_attrs[] = {{"position", 0, 3}, {"color", 3, 3}, {"normal", 6, 3}, {"uv", 9, 2}};

typedef struct vertex_scope {
    const nlm_file *f;
    const nlm_tables *t;
    const float *box; /* NULL when the AABB cannot judge */
    uint32_t mesh;
    /* NLM_VERTEX_OUTSIDE_AABB, reported once */
    uint64_t outside, first_off, first_vertex, worst_vertex;
    uint32_t first_mesh;
    uint32_t worst_mesh;
    int worst_axis;
    double worst;
    uint32_t max_influences;
    mc_zero_normals zero; /* NLM_NORMAL_ZERO, once per mesh */
    /* the clean path of a chunk (chunk_surely_clean): slot_bone_ok as the
     * inclusive range [bone_lo, bone_hi], and whether skinned vertices
     * must weigh 1; fixed once for the file (plan_lanes) */
    int32_t bone_lo, bone_hi;
    bool weight_sum;
} vertex_scope;

static void read_vertex(mc_reader *r, nlm_vertex *v)
{
    _Static_assert(sizeof *v == 76, "nlm_vertex is the 76-byte record");
    if (MC_HOST_LE) {
        mc_read_record(r, v, sizeof *v);
        return;
    }
    mc_read_f32s(r, v->attr, 11);
    for (int j = 0; j < 4; j++) v->bone[j] = mc_read_i32(r);
    mc_read_f32s(r, v->weight, 4);
}

/* How far a position lies outside the box, and on which axis. */
static double excursion(const float *box, const float *p, int *axis)
{
    double worst = 0.0;
    for (int a = 0; a < 3; a++) {
        double below = (double)box[a] - (double)p[a], above = (double)p[a] - (double)box[3 + a];
        double e = below > above ? below : above;
        if (e > worst) {
            worst = e;
            *axis = a;
        }
    }
    return worst;
}

static void track_aabb(vertex_scope *s, uint64_t off, uint64_t i, const float *p)
{
    int axis = 0;
    double e = excursion(s->box, p, &axis);
    if (!(e > 0.0)) return;
    if (s->outside++ == 0) {
        s->first_off = off;
        s->first_mesh = s->mesh;
        s->first_vertex = i;
    }
    if (e > s->worst) {
        s->worst = e;
        s->worst_mesh = s->mesh;
        s->worst_vertex = i;
        s->worst_axis = axis;
    }
}

/* nlm.md, Vertex Data: finite fields, colors in [0, 1], unit normals or,
 * for none, (0, 0, 0) (docs/formats/nlm.md: line-list meshes). */
static void check_vertex_fields(mc_ctx *c, vertex_scope *s, uint64_t off, uint64_t i,
                                const nlm_vertex *v)
{
    for (size_t a = 0; a < sizeof vertex_attrs / sizeof vertex_attrs[0]; a++) {
        const float *x = v->attr + vertex_attrs[a].first;
        uint64_t at = off + 4u * vertex_attrs[a].first;
        if (!mc_all_finite(x, vertex_attrs[a].n)) {
            mc_instance *in = mc_emit(c, MC_NLM_VERTEX_NOT_FINITE, at);
            mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/%s", s->mesh, i, vertex_attrs[a].name);
            mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": %s holds NaN or infinity", s->mesh, i,
                   vertex_attrs[a].name);
            continue;
        }
        if (a == 0 && s->box) track_aabb(s, off, i, x);
        if (a == 1) {
            for (int k = 0; k < 3; k++) {
                if (x[k] >= 0.0f && x[k] <= 1.0f) continue;
                mc_instance *in = mc_emit(c, MC_NLM_COLOR_RANGE, at + 4u * (unsigned)k);
                mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/color", s->mesh, i);
                mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": color %c is %g (expected within [0, 1])",
                       s->mesh, i, "rgb"[k], (double)x[k]);
                break;
            }
        }
        if (a != 2) continue;
        mc_normal_kind k = mc_normal_judge(c, x); /* finite here */
        if (k == MC_NORMAL_ZERO) {
            mc_zero_normals_add(&s->zero, at, i); /* "no normal": a warning per mesh */
        } else if (k == MC_NORMAL_NOT_UNIT) {
            mc_instance *in = mc_emit(c, MC_NLM_NORMAL_NOT_UNIT, at);
            mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/normal", s->mesh, i);
            mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": normal length is %.6f (expected 1 +- %g)",
                   s->mesh, i, mc_length(x, 3), c->opt->unit_tolerance);
        }
    }
}

/* A bone ID that is not -1: static models name none (docs/formats/nlm.md: -1 with
 * weight 0); animated ones name a skinning slot of the bone info map. */
static void check_vertex_bone(mc_ctx *c, const vertex_scope *s, uint64_t at, uint64_t i, int j,
                              int32_t b)
{
    if (s->f->flag == 0) {
        mc_instance *in = mc_emit(c, MC_NLM_STATIC_VERTEX_SKINNED, at);
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/bone_ids/%d", s->mesh, i, j);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": bone ID %" PRId32
               " in a model without animation (expected -1)", s->mesh, i, b);
    } else if (s->t->have_slots && !find_pair(s->t->slots, s->t->infos, b)) {
        mc_instance *in = mc_emit(c, MC_NLM_BONE_ID_UNDEFINED, at);
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/bone_ids/%d", s->mesh, i, j);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": bone ID %" PRId32
               " is neither -1 nor a skinning slot of the %" PRIu32 " bone info entries",
               s->mesh, i, b, s->t->infos);
    }
}

/* Slot-wise rules for bone IDs and weights; returns the influences. */
static unsigned check_vertex_slots(mc_ctx *c, const vertex_scope *s, uint64_t off, uint64_t i,
                                   const nlm_vertex *v)
{
    unsigned influences = 0;
    for (int j = 0; j < 4; j++) {
        float w = v->weight[j];
        int32_t b = v->bone[j];
        uint64_t wat = off + V_WEIGHTS + 4u * (unsigned)j, bat = off + V_BONES + 4u * (unsigned)j;
        if (!isfinite(w) || w < 0.0f || w > 1.0f) {
            mc_instance *in = mc_emit(c, MC_NLM_WEIGHT_RANGE, wat);
            mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/weights/%d", s->mesh, i, j);
            mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": weight %d is %g (expected within [0, 1])",
                   s->mesh, i, j, (double)w);
        }
        if (b == -1) {
            if (w != 0.0f) {
                mc_instance *in = mc_emit(c, MC_NLM_UNUSED_SLOT_WEIGHT, wat);
                mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/weights/%d", s->mesh, i, j);
                mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": slot %d has bone ID -1 but weight %g (expected 0)",
                       s->mesh, i, j, (double)w);
            }
            continue;
        }
        if (s->f->flag_ok) check_vertex_bone(c, s, bat, i, j, b);
        if (w > 0.0f) influences++;
        for (int k = 0; k < j; k++) {
            if (v->bone[k] != b) continue;
            mc_instance *in = mc_emit(c, MC_NLM_DUPLICATE_BONE_ID, bat);
            mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/bone_ids/%d", s->mesh, i, j);
            mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": bone ID %" PRId32 " appears in slots %d and %d",
                   s->mesh, i, b, k, j);
            break;
        }
    }
    return influences;
}

/* docs/formats/nlm.md: weights sum to about 1 on skinned vertices; the tolerance
 * grows with the number of non-zero weights, as in the glTF-Validator. */
static void check_vertex_weight_sum(mc_ctx *c, const vertex_scope *s, uint64_t off, uint64_t i,
                                    const nlm_vertex *v)
{
    bool skinned = false, finite = true;
    double sum = 0.0;
    unsigned nonzero = 0;
    for (int j = 0; j < 4; j++) {
        skinned |= v->bone[j] != -1;
        finite &= isfinite(v->weight[j]) != 0;
        sum += (double)v->weight[j];
        nonzero += v->weight[j] != 0.0f;
    }
    if (s->f->flag != 1 || !s->f->flag_ok) return; /* static: NLM_STATIC_VERTEX_SKINNED */
    if (!skinned) {
        mc_instance *in = mc_emit(c, MC_NLM_UNSKINNED_VERTEX, off + V_BONES);
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/bone_ids", s->mesh, i);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": no bone (IDs all -1) in an animated model: "
               "skinning scales it to the origin", s->mesh, i);
        return;
    }
    if (!finite) return; /* NLM_WEIGHT_RANGE */
    double tol = c->opt->weight_sum_tolerance * (nonzero ? nonzero : 1);
    if (fabs(sum - 1.0) > tol) {
        mc_instance *in = mc_emit(c, MC_NLM_WEIGHT_SUM, off + V_WEIGHTS);
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/weights", s->mesh, i);
        mc_msg(in, "mesh %" PRIu32 " vertex %" PRIu64 ": weights sum to %.6f (expected 1 +- %g)",
               s->mesh, i, sum, tol);
    }
}

/* A used slot's bone: defined by a bone info, unless the animation flag is
 * in doubt (its own issue). */
static bool slot_bone_ok(int32_t b, const void *scope)
{
    const vertex_scope *s = scope;
    const nlm_file *f = s->f;
    return !(f->flag_ok && (f->flag == 0 || (s->t->have_slots && !find_pair(s->t->slots, s->t->infos, b))));
}

/* The clean path (issue 16): true when the vertex certainly passes every
 * check above, judged with plain comparisons and float squared lengths (no
 * offsets, no paths); its influences are counted. Anything else goes
 * through the exact checks, which alone report. */
static bool vertex_surely_clean(const mc_ctx *c, const vertex_scope *s, const nlm_vertex *v,
                                unsigned *influences)
{
    const float *a = v->attr;
    for (int k = 0; k < 11; k++)
        if (!isfinite(a[k])) return false;
    if (s->box)
        for (int k = 0; k < 3; k++)
            if (!(a[k] >= s->box[k] && a[k] <= s->box[3 + k])) return false;
    for (int k = 3; k < 6; k++)
        if (!(a[k] >= 0.0f && a[k] <= 1.0f)) return false;
    if (!mc_surely_unit(a + 6, 3, c->unit)) return false;
    const nlm_file *f = s->f;
    mc_slots t;
    if (!mc_slots_surely_clean(v->bone, v->weight, slot_bone_ok, s, &t)) return false;
    if (f->flag == 1 && f->flag_ok &&
        (!t.skinned || !(fabs(t.sum - 1.0) <= c->opt->weight_sum_tolerance * (t.nonzero ? t.nonzero : 1))))
        return false;
    *influences = t.influences;
    return true;
}

/* One vertex at off: the clean path, else the exact checks, which alone
 * report. */
MC_HOT_FN static void check_vertex(mc_ctx *c, vertex_scope *s, uint64_t off, uint64_t i)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, off);
    nlm_vertex v;
    read_vertex(&r, &v);
    if (r.fail) return; /* unreachable after walk_mesh; never read garbage */
    unsigned fast;
    if (c->fast && vertex_surely_clean(c, s, &v, &fast)) {
        if (fast > s->max_influences) s->max_influences = fast;
        return;
    }
    check_vertex_fields(c, s, off, i, &v);
    unsigned inf = check_vertex_slots(c, s, off, i, &v);
    if (inf > s->max_influences) s->max_influences = inf;
    check_vertex_weight_sum(c, s, off, i, &v);
}

/* slot_bone_ok as a range of bone IDs, for the lanes: every ID without an
 * animation flag to trust (or without a bone info map to look in), none
 * in a static model, the skinning slots when they are every ID from the
 * first to the last. Other slot sets give an empty range: a vertex that
 * uses a slot then goes vertex by vertex, through find_pair. */
static void plan_lanes(vertex_scope *s)
{
    const nlm_file *f = s->f;
    const nlm_tables *t = s->t;
    s->bone_lo = INT32_MIN;
    s->bone_hi = INT32_MAX;
    s->weight_sum = f->flag == 1 && f->flag_ok;
    if (!f->flag_ok || (f->flag != 0 && !t->have_slots)) return;
    s->bone_lo = 1;
    s->bone_hi = 0;
    if (f->flag == 0 || t->infos == 0) return;
    for (uint32_t k = 1; k < t->infos; k++) /* sorted: steps of 0 or 1 */
        if ((int64_t)t->slots[k].key - t->slots[k - 1].key > 1) return;
    s->bone_lo = t->slots[0].key;
    s->bone_hi = t->slots[t->infos - 1].key;
}

/* Vertices judged together by the clean path: one decision per chunk. */
enum { NLM_CHUNK = 64 };

#if defined(MC_LANES)
/*
 * The clean path of a chunk (issue 16): vertex_surely_clean of n vertices
 * (a multiple of four) at p, four at a time in lanes (mc_numeric.h), read
 * in place. True when every one of them passes every vertex check; then
 * their influences are folded into s. False at any doubt, with s
 * untouched: the chunk goes vertex by vertex (check_vertex). Lane by lane
 * the rules are vertex_surely_clean's: finite fields (words 0-10), the
 * position inside the AABB when it can judge, colors in [0, 1], a surely
 * unit normal, the slot rules with bone IDs in [bone_lo, bone_hi], and in
 * an animated model a skinned vertex whose weights sum to 1 (the exact
 * double rule). A vertex vouched for is inside the box and has a unit
 * normal, so the AABB and zero-normal tallies have nothing to add.
 */
MC_HOT_FN static bool chunk_surely_clean(const mc_ctx *c, vertex_scope *s, const uint8_t *p,
                                         uint64_t n)
{
    /* within [-FLT_MAX, FLT_MAX] is finite; a box to judge by is finite */
    float box[6] = {-FLT_MAX, -FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX};
    if (s->box) memcpy(box, s->box, sizeof box);
    __m128 ok = _mm_castsi128_ps(_mm_set1_epi32(-1));
    __m128i influences = _mm_setzero_si128();
    for (uint64_t i = 0; i < n; i += 4, p += 4 * NLM_VERTEX_SIZE) {
        /* block by block (words 0-3, 4-7, ...; the last at 15-18), each
         * judged as soon as it is loaded. Finite fields: each comparison
         * fails for NaN and infinity (a surely unit normal has a finite sum
         * of squares). */
        __m128 w[NLM_VERTEX_SIZE / 4];
        mc_lanes_block(p, NLM_VERTEX_SIZE, 0, w);
        __m128 v = mc_lanes_within(w[3], 0.0f, 1.0f);
        for (int k = 0; k < 3; k++) v = _mm_and_ps(v, mc_lanes_within(w[k], box[k], box[3 + k]));
        mc_lanes_block(p, NLM_VERTEX_SIZE, 4, w);
        v = _mm_and_ps(v, _mm_and_ps(mc_lanes_within(w[4], 0.0f, 1.0f),
                                     mc_lanes_within(w[5], 0.0f, 1.0f)));
        mc_lanes_block(p, NLM_VERTEX_SIZE, 8, w);
        v = _mm_and_ps(v, mc_lanes_surely_unit3(w[6], w[7], w[8], c->unit));
        v = _mm_and_ps(v, _mm_and_ps(mc_lanes_within(w[9], -FLT_MAX, FLT_MAX),
                                     mc_lanes_within(w[10], -FLT_MAX, FLT_MAX)));
        mc_lanes_block(p, NLM_VERTEX_SIZE, 12, w);
        mc_lanes_block(p, NLM_VERTEX_SIZE, 15, w);
        mc_lanes_slots t = mc_lanes_slots_judge(w + 11, w + 15, s->bone_lo, s->bone_hi);
        v = _mm_and_ps(v, t.ok);
        if (s->weight_sum) {
            v = _mm_and_ps(v, t.skinned);
            v = _mm_and_ps(v, mc_lanes_weight_sum_ok(w + 15, c->opt->weight_sum_tolerance));
        }
        ok = _mm_and_ps(ok, v);
        influences = mc_lanes_max_count(influences, t.influences);
    }
    if (!mc_lanes_all(ok)) return false;
    s->max_influences = mc_lanes_fold_max(influences, s->max_influences);
    return true;
}
#endif

MC_HOT_FN static void check_vertices(mc_ctx *c, vertex_scope *s, const nlm_mesh *m)
{
    s->zero = (mc_zero_normals){0};
    uint64_t n = m->vertex_count;
    mc_view pos = {0}, weights = {0};
    if (c->sink) { /* the mesh's geometry, summed as the chunks pass */
        pos = vertex_view(c, m, 0, 3);
        weights = vertex_view(c, m, 60, 4);
    }
    for (uint64_t i = 0; i < n;) {
        uint64_t end = n - i > NLM_CHUNK ? i + NLM_CHUNK : n;
#if defined(MC_LANES)
        /* in place: the vertices lie inside the file (walk_mesh) */
        const uint8_t *p = c->data + m->vertices + i * NLM_VERTEX_SIZE;
        if (c->fast && MC_HOST_LE && (end - i) % 4 == 0 && chunk_surely_clean(c, s, p, end - i)) {
            mc_s_walked(c, &pos, &weights, 0, i, end - i);
            i = end;
            continue;
        }
#endif
        uint64_t i0 = i;
        for (; i < end; i++) check_vertex(c, s, m->vertices + i * NLM_VERTEX_SIZE, i);
        mc_s_walked(c, &pos, &weights, 0, i0, end - i0); /* in cache now */
    }
    if (s->zero.count) {
        char where[24];
        snprintf(where, sizeof where, "mesh %" PRIu32, s->mesh);
        mc_instance *in = mc_emit(c, MC_NLM_NORMAL_ZERO, s->zero.first_offset);
        mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/normal", s->mesh, s->zero.first_vertex);
        mc_zero_normals_msg(in, &s->zero, where, m->vertex_count);
    }
}

static void report_outside_aabb(mc_ctx *c, const vertex_scope *s, uint64_t vertices)
{
    if (s->outside == 0) return;
    /* the path names the byte the offset points at: the first vertex outside */
    mc_instance *in = mc_emit(c, MC_NLM_VERTEX_OUTSIDE_AABB, s->first_off);
    mc_path(in, "/meshes/%" PRIu32 "/vertices/%" PRIu64 "/position", s->first_mesh, s->first_vertex);
    mc_msg(in, "%" PRIu64 " of %" PRIu64 " vertices lie outside the AABB; largest excursion %g on %c "
           "(mesh %" PRIu32 " vertex %" PRIu64 ")", s->outside, vertices, s->worst,
           "xyz"[s->worst_axis], s->worst_mesh, s->worst_vertex);
}

/* ---- indices and textures ---- */

/* Indices judged together by the clean path: whole triangles, one decision
 * per chunk. */
enum { NLM_INDEX_CHUNK = 3 * 64 };

/* The clean path of check_indices (issue 16): true when the chunk's
 * indices at p all name one of the mesh's vertices and, in a triangle
 * list, no triangle repeats a vertex. Branch-free, read in place; any
 * doubt and the chunk is checked index by index. */
MC_HOT_FN static bool indices_surely_clean(const uint8_t *p, uint32_t vertices, bool triangles)
{
    uint32_t bad = 0;
    for (int k = 0; k < NLM_INDEX_CHUNK; k += 3, p += 12) {
        uint32_t a = mc_le32(p), b = mc_le32(p + 4), d = mc_le32(p + 8);
        bad |= (uint32_t)(a >= vertices) | (uint32_t)(b >= vertices) | (uint32_t)(d >= vertices);
        bad |= (uint32_t)triangles & ((uint32_t)(a == b) | (uint32_t)(b == d) | (uint32_t)(a == d));
    }
    return bad == 0;
}

/* An even index count of at least 6 whose every triangle repeats a vertex:
 * a wireframe line list (pairs), whose count is a multiple of 3 by chance.
 * Stops at the first proper triangle, so a triangle mesh costs one. */
static bool is_line_list(const mc_ctx *c, const nlm_mesh *m)
{
    if (m->index_count < 6 || m->index_count % 6 != 0) return false;
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, m->indices);
    for (uint64_t k = 0; k < m->index_count; k += 3) {
        uint32_t a = mc_read_u32(&r), b = mc_read_u32(&r), d = mc_read_u32(&r);
        if (r.fail) return false;
        if (a != b && b != d && a != d) return false;
    }
    return true;
}

/* nlm.md, Index Data: indices name vertices of the same mesh and, three by
 * three, triangles; docs/formats/nlm.md: wireframe meshes hold line lists. */
MC_HOT_FN static void check_indices(mc_ctx *c, uint32_t mi, const nlm_mesh *m)
{
    /* a line list is one finding whatever its count: not one per
     * "triangle" when the count happens to be a multiple of 3 */
    bool lines = is_line_list(c, m);
    if (m->index_count % 3 != 0 || lines) {
        mc_instance *in = mc_emit(c, MC_NLM_MESH_NOT_TRIANGLES, m->off + 4);
        mc_path(in, "/meshes/%" PRIu32 "/index_count", mi);
        if (lines)
            mc_msg(in, "mesh %" PRIu32 ": %" PRIu32 " indices read as triangles all repeat a vertex: a line list, "
                   "not triangles (triangles not checked)", mi, m->index_count);
        else
            mc_msg(in, "mesh %" PRIu32 ": %" PRIu32 " indices is not a multiple of 3 (%s)", mi,
                   m->index_count, m->index_count % 2 == 0 ? "a line list?" : "not triangles nor lines");
    }
    bool triangles = m->index_count % 3 == 0 && !lines;
    uint32_t tri[3] = {0, 0, 0};
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, m->indices);
    for (uint64_t k = 0; k < m->index_count; k++) {
        /* the clean path (issue 16); a chunk starts at a triangle, so tri
         * needs nothing from the chunks before */
        if (c->fast && k % NLM_INDEX_CHUNK == 0 && m->index_count - k >= NLM_INDEX_CHUNK &&
            indices_surely_clean(r.p + r.pos, m->vertex_count, triangles)) {
            mc_reader_skip(&r, 4 * NLM_INDEX_CHUNK);
            k += NLM_INDEX_CHUNK - 1;
            continue;
        }
        uint64_t off = r.pos;
        uint32_t idx = mc_read_u32(&r);
        if (r.fail) return;
        tri[k % 3] = idx;
        if (idx >= m->vertex_count) {
            mc_instance *in = mc_emit(c, MC_NLM_INDEX_RANGE, off);
            mc_path(in, "/meshes/%" PRIu32 "/indices/%" PRIu64, mi, k);
            mc_msg(in, "mesh %" PRIu32 ": index %" PRIu32 " (expected < vertex count %" PRIu32 ")", mi,
                   idx, m->vertex_count);
        }
        if (!triangles || k % 3 != 2) continue;
        if (tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2]) continue;
        mc_instance *in = mc_emit(c, MC_NLM_DEGENERATE_TRIANGLE, off - 8);
        mc_path(in, "/meshes/%" PRIu32 "/indices/%" PRIu64, mi, k - 2);
        mc_msg(in, "mesh %" PRIu32 " triangle %" PRIu64 ": indices %" PRIu32 ", %" PRIu32 ", %" PRIu32
               " repeat a vertex", mi, k / 3, tri[0], tri[1], tri[2]);
    }
}

/* docs/formats/nlm.md: the blob is the raw bytes of an embedded image file. Returns
 * whether the mesh has one. */
static bool check_texture(mc_ctx *c, uint32_t mi, const nlm_mesh *m)
{
    if (m->texture_size == 0) return false;
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, m->texture + 4);
    const uint8_t *b = mc_read_bytes(&r, m->texture_size);
    if (!b) return true;
    size_t n = m->texture_size;
    if (mc_is_png(b, n) || mc_is_jpeg(b, n)) return true;
    char first[3 * 8 + 1] = "";
    for (size_t i = 0, at = 0; i < n && i < 8; i++)
        at += (size_t)snprintf(first + at, sizeof first - at, "%s%02x", i ? " " : "", b[i]);
    mc_instance *in = mc_emit(c, MC_NLM_TEXTURE_SIGNATURE, m->texture + 4);
    mc_path(in, "/meshes/%" PRIu32 "/texture", mi);
    mc_msg(in, "mesh %" PRIu32 ": %zu-byte texture blob starts with %s (expected the PNG "
           "89 50 4e 47 0d 0a 1a 0a or JPEG ff d8 ff signature)", mi, n, first);
    return true;
}

static void check_meshes(mc_ctx *c, const nlm_file *f, const nlm_tables *t, const float *box)
{
    vertex_scope s;
    memset(&s, 0, sizeof s);
    s.f = f;
    s.t = t;
    s.box = box;
    plan_lanes(&s);
    mc_info *info = c->info;
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, NLM_MESHES_OFFSET + 4);
    for (uint32_t mi = 0; mi < f->meshes_complete; mi++) {
        nlm_mesh m;
        if (!walk_mesh(c, &r, mi, false, &m)) break;
        s.mesh = mi;
        check_vertices(c, &s, &m);
        check_indices(c, mi, &m);
        info->textures += check_texture(c, mi, &m);
        info->vertices += m.vertex_count;
        info->indices += m.index_count;
        if (m.index_count % 3 == 0) info->triangles += m.index_count / 3;
    }
    report_outside_aabb(c, &s, info->vertices);
    info->max_influences = s.max_influences;
}

/* ---- animation ---- */

static void check_animation_metadata(mc_ctx *c, const nlm_file *f)
{
    if (!isfinite(f->duration) || !(f->duration > 0.0f)) {
        mc_instance *in = mc_emit(c, MC_NLM_ANIMATION_DURATION, f->anim_off);
        mc_path(in, "/animation/duration");
        mc_msg(in, "duration is %g (expected finite and > 0; the engine divides by it)",
               (double)f->duration);
    }
    if (f->ticks <= 0) {
        mc_instance *in = mc_emit(c, MC_NLM_TICKS_PER_SECOND, f->anim_off + 4);
        mc_path(in, "/animation/ticks_per_second");
        mc_msg(in, "ticks per second is %" PRId32 " (expected > 0)", f->ticks);
    }
}

/* The sorted lookups; false when out of memory. Counts were checked
 * against the file size in walk_animation: at least 72 bytes each. */
static bool build_tables(mc_ctx *c, const nlm_file *f, nlm_tables *t)
{
    uint32_t n = f->node_count, b = f->info_count;
    size_t scratch = n > b ? n : b;
    t->nodes = n;
    t->infos = b;
    t->node_ids = malloc((n ? n : 1) * sizeof *t->node_ids);
    t->info_ids = malloc((b ? b : 1) * sizeof *t->info_ids);
    t->slots = malloc((b ? b : 1) * sizeof *t->slots);
    t->info_slot = malloc((b ? b : 1) * sizeof *t->info_slot);
    t->dup = malloc(scratch ? scratch : 1);
    if (!t->node_ids || !t->info_ids || !t->slots || !t->info_slot || !t->dup) {
        c->nomem = true;
        return false;
    }
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, f->node_off);
    for (uint32_t i = 0; i < n; i++) {
        nlm_node node;
        walk_node(c, &r, i, false, &node);
        t->node_ids[i] = (nlm_pair){node.id, i};
    }
    mc_reader_seek(&r, f->info_off);
    for (uint32_t i = 0; i < b; i++) {
        int32_t node = mc_read_i32(&r);
        mc_reader_skip(&r, 64);
        int32_t slot = mc_read_i32(&r);
        t->info_ids[i] = (nlm_pair){node, i};
        t->slots[i] = (nlm_pair){slot, i};
        t->info_slot[i] = slot;
    }
    return !r.fail;
}

static void report_duplicates(mc_ctx *c, const nlm_file *f, nlm_tables *t)
{
    memset(t->dup, 0, t->nodes);
    mark_duplicates(t->node_ids, t->nodes, t->dup);
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, f->node_off);
    for (uint32_t i = 0; i < t->nodes; i++) {
        nlm_node node;
        walk_node(c, &r, i, false, &node);
        if (!t->dup[i]) continue;
        mc_instance *in = mc_emit(c, MC_NLM_NODE_DUPLICATE_ID, node.off);
        mc_path(in, "/animation/nodes/%" PRIu32 "/id", i);
        mc_msg(in, "node %" PRIu32 ": ID %" PRId32 " is already used by an earlier node", i, node.id);
    }
    memset(t->dup, 0, t->infos);
    mark_duplicates(t->info_ids, t->infos, t->dup);
    for (uint32_t i = 0; i < t->infos; i++) {
        if (!t->dup[i]) continue;
        mc_instance *in = mc_emit(c, MC_NLM_BONE_INFO_DUPLICATE_ID, f->info_off + (uint64_t)i * NLM_BONE_INFO_SIZE);
        mc_path(in, "/animation/bone_info/%" PRIu32 "/bone_id", i);
        mc_msg(in, "bone info %" PRIu32 ": bone (node) ID is already used by an earlier entry", i);
    }
    memset(t->dup, 0, t->infos);
    mark_duplicates(t->slots, t->infos, t->dup);
    for (uint32_t i = 0; i < t->infos; i++) {
        if (!t->dup[i]) continue;
        mc_instance *in = mc_emit(c, MC_NLM_BONE_SLOT_DUPLICATE, f->info_off + (uint64_t)i * NLM_BONE_INFO_SIZE + 68);
        mc_path(in, "/animation/bone_info/%" PRIu32 "/info_id", i);
        mc_msg(in, "bone info %" PRIu32 ": skinning slot %" PRId32 " is already used by an earlier entry",
               i, t->info_slot[i]);
    }
    t->have_nodes = t->nodes > 0; /* an empty list is NLM_NODE_LIST_EMPTY, once */
    t->have_slots = true;
}

/* nlm.md, Bone Info Entries; docs/formats/nlm.md: keyed by node ID, the info ID is
 * the slot of a 100-entry array. */
static void check_bone_infos(mc_ctx *c, const nlm_file *f, const nlm_tables *t)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, f->info_off);
    for (uint32_t i = 0; i < f->info_count; i++) {
        uint64_t off = r.pos;
        int32_t node = mc_read_i32(&r);
        float m[16];
        mc_read_f32s(&r, m, 16);
        int32_t slot = mc_read_i32(&r);
        if (r.fail) return;
        if (slot < 0 || slot >= NLM_ENGINE_BONES) {
            mc_instance *in = mc_emit(c, slot < 0 ? MC_NLM_BONE_SLOT_NEGATIVE : MC_NLM_BONE_SLOT_RANGE, off + 68);
            mc_path(in, "/animation/bone_info/%" PRIu32 "/info_id", i);
            mc_msg(in, "bone info %" PRIu32 ": skinning slot %" PRId32 " (the engine's array holds slots 0 to %d)",
                   i, slot, NLM_ENGINE_BONES - 1);
        }
        if (!mc_all_finite(m, 16) || !mc_mat4_linear_invertible(m)) {
            bool finite = mc_all_finite(m, 16);
            mc_instance *in = mc_emit(c, finite ? MC_NLM_BONE_MATRIX_SINGULAR : MC_NLM_BONE_MATRIX_NOT_FINITE, off + 4);
            mc_path(in, "/animation/bone_info/%" PRIu32 "/offset_matrix", i);
            mc_msg(in, "bone info %" PRIu32 ": offset matrix %s", i,
                   finite ? "is singular (its 3x3 part has no inverse)" : "holds NaN or infinity");
        }
        if (t->have_nodes && !find_pair(t->node_ids, t->nodes, node)) {
            mc_instance *in = mc_emit(c, MC_NLM_BONE_INFO_NODE_MISSING, off);
            mc_path(in, "/animation/bone_info/%" PRIu32 "/bone_id", i);
            mc_msg(in, "bone info %" PRIu32 ": node ID %" PRId32 " is not in the node list; slot %" PRId32
                   " is never posed", i, node, slot);
        }
    }
}

typedef struct key_scope {
    uint32_t channel;
    int kind;
    float duration;
    bool duration_ok;
} key_scope;

static void report_key(mc_ctx *c, mc_code code, uint64_t off, uint64_t k, const key_scope *s,
                       const char *what)
{
    mc_instance *in = mc_emit(c, code, off);
    mc_path(in, "/animation/channels/%" PRIu32 "/%s_keys/%" PRIu64, s->channel, key_name[s->kind], k);
    mc_msg(in, "bone map entry %" PRIu32 " %s key %" PRIu64 ": %s", s->channel, key_name[s->kind], k, what);
}

/* nlm.md, Keyframe Structures: finite; times in [0, duration] and strictly
 * increasing; docs/formats/nlm.md: rotations stored x, y, z, w (the unit check does
 * not depend on the order); scales non-zero. */
static void check_keys(mc_ctx *c, uint64_t first, uint32_t count, const key_scope *s)
{
    char what[128];
    float prev = 0.0f;
    bool have_prev = false;
    unsigned nv = s->kind == KEY_ROTATION ? 4 : 3;
    double limit = (double)s->duration * (1.0 + 1e-6);
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, first);
    for (uint64_t k = 0; k < count; k++) {
        uint64_t off = r.pos;
        float key[5];
        mc_read_f32s(&r, key, 1 + nv);
        if (r.fail) return;
        if (!mc_all_finite(key, 1 + nv)) {
            report_key(c, MC_NLM_KEY_NOT_FINITE, off, k, s, "holds NaN or infinity");
            have_prev = false;
            continue;
        }
        float t = key[0];
        if (t < 0.0f || (s->duration_ok && (double)t > limit)) {
            snprintf(what, sizeof what, "time %g outside [0, %g]", (double)t, (double)s->duration);
            report_key(c, MC_NLM_KEY_TIME_RANGE, off, k, s, what);
        }
        if (have_prev && !(t > prev)) {
            snprintf(what, sizeof what, "time %g follows %g (expected strictly increasing)",
                     (double)t, (double)prev);
            report_key(c, MC_NLM_KEY_TIME_ORDER, off, k, s, what);
        }
        prev = t;
        have_prev = true;
        if (s->kind == KEY_ROTATION && !mc_surely_unit(key + 1, 4, c->quaternion) &&
            !mc_is_unit(key + 1, 4, c->opt->quaternion_tolerance)) {
            snprintf(what, sizeof what, "quaternion (x %g, y %g, z %g, w %g) has length %.6f (expected 1 +- %g)",
                     (double)key[1], (double)key[2], (double)key[3], (double)key[4],
                     mc_length(key + 1, 4), c->opt->quaternion_tolerance);
            report_key(c, MC_NLM_KEY_ROTATION_NOT_UNIT, off + 4, k, s, what);
        } else if (s->kind == KEY_SCALE && (key[1] == 0.0f || key[2] == 0.0f || key[3] == 0.0f)) {
            snprintf(what, sizeof what, "scale (%g, %g, %g) has a zero component", (double)key[1],
                     (double)key[2], (double)key[3]);
            report_key(c, MC_NLM_KEY_SCALE_ZERO, off + 4, k, s, what);
        }
    }
}

/* nlm.md, Bone Entries: the node exists, the bone ID is the info ID of that
 * node (docs/formats/nlm.md), every kind has a key (0 keys: out-of-bounds reads). */
static void check_channel(mc_ctx *c, const nlm_file *f, const nlm_tables *t, uint32_t i,
                          const nlm_channel *ch)
{
    if (t->have_nodes && !find_pair(t->node_ids, t->nodes, ch->node)) {
        mc_instance *in = mc_emit(c, MC_NLM_CHANNEL_NODE_MISSING, ch->off);
        mc_path(in, "/animation/channels/%" PRIu32 "/node_id", i);
        mc_msg(in, "bone map entry %" PRIu32 ": node ID %" PRId32 " is not in the node list", i, ch->node);
    }
    const nlm_pair *info = t->have_slots ? find_pair(t->info_ids, t->infos, ch->node) : NULL;
    if (t->have_slots && (!info || t->info_slot[info->index] != ch->bone)) {
        mc_instance *in = mc_emit(c, MC_NLM_CHANNEL_BONE_MISMATCH, ch->off + 4);
        mc_path(in, "/animation/channels/%" PRIu32 "/bone_id", i);
        if (info)
            mc_msg(in, "bone map entry %" PRIu32 ": bone ID %" PRId32 ", but node %" PRId32
                   "'s bone info ID is %" PRId32, i, ch->bone, ch->node, t->info_slot[info->index]);
        else
            mc_msg(in, "bone map entry %" PRIu32 ": bone ID %" PRId32 ", but node %" PRId32
                   " has no bone info entry", i, ch->bone, ch->node);
    }
    for (int k = 0; k < KEY_KINDS; k++) {
        c->info->keyframes += ch->count[k];
        if (ch->count[k] == 0) {
            mc_instance *in = mc_emit(c, MC_NLM_CHANNEL_NO_KEYS, ch->off + 8 + 4u * (unsigned)k);
            mc_path(in, "/animation/channels/%" PRIu32 "/%s_key_count", i, key_name[k]);
            mc_msg(in, "bone map entry %" PRIu32 ": no %s key (expected at least 1; the engine reads "
                   "keys 0 and 1)", i, key_name[k]);
            continue;
        }
        key_scope s = {i, k, f->duration, isfinite(f->duration) && f->duration > 0.0f};
        check_keys(c, ch->keys[k], ch->count[k], &s);
    }
}

static void check_channels(mc_ctx *c, const nlm_file *f, const nlm_tables *t)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, f->channel_off);
    for (uint32_t i = 0; i < f->channel_count; i++) {
        nlm_channel ch;
        if (!walk_channel(c, &r, i, false, &ch)) return;
        check_channel(c, f, t, i, &ch);
    }
}

/* ---- node hierarchy ---- */

typedef struct nlm_graph {
    uint64_t *off;        /* node header offsets */
    uint32_t *child_count;
    uint32_t *parent;     /* first parent, UINT32_MAX for none */
    uint8_t *state;       /* depth-first search: 0 new, 1 on the stack, 2 done */
    uint32_t *stack_node, *stack_next;
    uint32_t n;
} nlm_graph;

#define NO_PARENT UINT32_MAX

static void free_graph(nlm_graph *g)
{
    free(g->off);
    free(g->child_count);
    free(g->parent);
    free(g->state);
    free(g->stack_node);
    free(g->stack_next);
}

/* Child j of node i, or -1 when it is not a valid index (reported). */
static int64_t child_index(const mc_ctx *c, const nlm_graph *g, uint32_t i, uint32_t j)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, g->off[i] + NLM_NODE_HEADER_SIZE + 4u * (uint64_t)j);
    int32_t id = mc_read_i32(&r);
    if (r.fail || id < 0 || (uint32_t)id >= g->n) return -1;
    return id;
}

/* nlm.md, Animation Nodes: ID, finite transform, children; docs/formats/nlm.md:
 * IDs equal indices, child IDs index the node array, node 0 is the root. */
static void check_node_links(mc_ctx *c, nlm_graph *g)
{
    mc_reader r = mc_reader_make(c->data, c->size);
    for (uint32_t i = 0; i < g->n; i++) {
        mc_reader_seek(&r, g->off[i]);
        int32_t id = mc_read_i32(&r);
        float m[16];
        mc_read_f32s(&r, m, 16);
        mc_reader_skip(&r, 4);
        if (r.fail) return;
        if (id < 0 || (uint32_t)id != i) {
            mc_instance *in = mc_emit(c, MC_NLM_NODE_ID_NOT_INDEX, g->off[i]);
            mc_path(in, "/animation/nodes/%" PRIu32 "/id", i);
            mc_msg(in, "node %" PRIu32 " has ID %" PRId32 "; the engine indexes nodes by child ID", i, id);
        }
        if (!mc_all_finite(m, 16)) {
            mc_instance *in = mc_emit(c, MC_NLM_NODE_TRANSFORM_NOT_FINITE, g->off[i] + 4);
            mc_path(in, "/animation/nodes/%" PRIu32 "/transformation", i);
            mc_msg(in, "node %" PRIu32 ": transformation holds NaN or infinity", i);
        }
        for (uint32_t j = 0; j < g->child_count[i]; j++) {
            uint64_t at = r.pos;
            int32_t child = mc_read_i32(&r);
            if (r.fail) return;
            mc_code code;
            if (child < 0 || (uint32_t)child >= g->n) {
                code = MC_NLM_NODE_CHILD_RANGE;
            } else if (child == 0) {
                code = MC_NLM_NODE_ROOT_HAS_PARENT;
            } else if (g->parent[child] != NO_PARENT) {
                code = MC_NLM_NODE_MULTIPLE_PARENTS;
            } else {
                g->parent[child] = i;
                continue;
            }
            mc_instance *in = mc_emit(c, code, at);
            mc_path(in, "/animation/nodes/%" PRIu32 "/children/%" PRIu32, i, j);
            if (code == MC_NLM_NODE_CHILD_RANGE)
                mc_msg(in, "node %" PRIu32 ": child ID %" PRId32 " (expected an index < node count %" PRIu32 ")",
                       i, child, g->n);
            else if (code == MC_NLM_NODE_ROOT_HAS_PARENT)
                mc_msg(in, "node %" PRIu32 " lists node 0, the root, as its child", i);
            else
                mc_msg(in, "node %" PRIu32 " lists node %" PRId32 " as its child; node %" PRIu32
                       " already did", i, child, g->parent[child]);
        }
    }
}

/*
 * Depth-first search over every child link from start, with an explicit
 * stack (no recursion: the engine's own recursion is what a cycle breaks).
 * A link to a node still on the stack closes a cycle.
 */
static void search_from(mc_ctx *c, nlm_graph *g, uint32_t start)
{
    uint32_t top = 0;
    g->stack_node[top] = start;
    g->stack_next[top++] = 0;
    g->state[start] = 1;
    while (top > 0) {
        uint32_t i = g->stack_node[top - 1], j = g->stack_next[top - 1];
        if (j == g->child_count[i]) {
            g->state[i] = 2;
            top--;
            continue;
        }
        g->stack_next[top - 1] = j + 1;
        int64_t child = child_index(c, g, i, j);
        if (child < 0) continue; /* NLM_NODE_CHILD_RANGE */
        uint32_t k = (uint32_t)child;
        if (g->state[k] == 1) {
            mc_instance *in = mc_emit(c, MC_NLM_NODE_CYCLE, g->off[i] + NLM_NODE_HEADER_SIZE + 4u * (uint64_t)j);
            mc_path(in, "/animation/nodes/%" PRIu32 "/children/%" PRIu32, i, j);
            mc_msg(in, "node %" PRIu32 " lists node %" PRIu32 " as its child, which is its own ancestor "
                   "(a cycle; the engine recurses forever)", i, k);
        } else if (g->state[k] == 0) {
            g->state[k] = 1;
            g->stack_node[top] = k;
            g->stack_next[top++] = 0;
        }
    }
}

static void check_reachability(mc_ctx *c, nlm_graph *g)
{
    search_from(c, g, 0);
    for (uint32_t i = 1; i < g->n; i++) {
        if (g->state[i] != 0) continue;
        mc_instance *in = mc_emit(c, MC_NLM_NODE_UNREACHABLE, g->off[i]);
        mc_path(in, "/animation/nodes/%" PRIu32, i);
        if (g->parent[i] == NO_PARENT)
            mc_msg(in, "node %" PRIu32 " has no parent and is not node 0: a second root the engine never visits", i);
        else
            mc_msg(in, "node %" PRIu32 " cannot be reached from node 0; the engine never visits it", i);
    }
    /* cycles among the nodes node 0 does not reach */
    for (uint32_t i = 1; i < g->n; i++)
        if (g->state[i] == 0) search_from(c, g, i);
}

static void check_nodes(mc_ctx *c, const nlm_file *f)
{
    uint32_t n = f->node_count;
    if (n == 0) {
        mc_instance *in = mc_emit(c, MC_NLM_NODE_LIST_EMPTY, f->node_count_off);
        mc_path(in, "/animation/nodes");
        mc_msg(in, "the animated model has no node (the engine starts at node 0)");
        return;
    }
    /* n was checked against the file size in walk_animation: 72 bytes each */
    nlm_graph g = {malloc(n * sizeof *g.off), malloc(n * sizeof *g.child_count),
                   malloc(n * sizeof *g.parent), calloc(n, 1),
                   malloc(n * sizeof *g.stack_node), malloc(n * sizeof *g.stack_next), n};
    if (!g.off || !g.child_count || !g.parent || !g.state || !g.stack_node || !g.stack_next) {
        c->nomem = true;
        free_graph(&g);
        return;
    }
    mc_reader r = mc_reader_make(c->data, c->size);
    mc_reader_seek(&r, f->node_off);
    for (uint32_t i = 0; i < n; i++) {
        nlm_node node;
        walk_node(c, &r, i, false, &node);
        g.off[i] = node.off;
        g.child_count[i] = node.child_count;
        g.parent[i] = NO_PARENT;
    }
    if (!r.fail) {
        check_node_links(c, &g);
        check_reachability(c, &g);
    }
    free_graph(&g);
}

static void check_animation(mc_ctx *c, const nlm_file *f, nlm_tables *t)
{
    check_animation_metadata(c, f);
    if (!build_tables(c, f, t)) return;
    report_duplicates(c, f, t);
    check_bone_infos(c, f, t);
    check_channels(c, f, t);
    check_nodes(c, f);
}

static void nlm_validate(mc_ctx *c)
{
    nlm_file f;
    memset(&f, 0, sizeof f);
    mc_s_enter(c, "header", "header", 0, c->size < NLM_AABB_OFFSET ? c->size : NLM_AABB_OFFSET);
    bool ok = check_header(c, &f);
    mc_s_leave(c);
    if (!ok) return;
    if (c->sink && c->size >= NLM_AABB_OFFSET + 24) {
        static const mc_field aabb_fields[] = {{"min", MC_FIELD_F32, 0, 3, 0},
                                               {"max", MC_FIELD_F32, 12, 3, 0}};
        mc_s_enter(c, "section", "aabb", NLM_AABB_OFFSET, 24);
        mc_s_layout(c, MC_FIELDS(aabb_fields));
        mc_s_leave(c);
    }
    float box[6];
    bool box_ok = check_aabb(c, box);
    walk_structure(c, &f);
    nlm_tables t;
    memset(&t, 0, sizeof t);
    if (f.anim_ok) check_animation(c, &f, &t);
    check_meshes(c, &f, &t, box_ok ? box : NULL);
    free_tables(&t);
    mc_info *info = c->info;
    info->meshes = f.mesh_count;
    info->uv_layers = f.meshes_complete ? 1 : 0;
    if (f.anim_ok) {
        info->animations = 1;
        info->bones = f.info_count;
        info->nodes = f.node_count;
    }
}

const mc_format_module mc_nlm_module = {MC_FORMAT_NLM, "NLM", nlm_detect, nlm_validate};
