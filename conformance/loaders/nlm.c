/*
 * NLM reference loader, written from nlm.md as corrected by docs/formats/nlm.md
 * "NLM" (16-byte header with the hash first, magic bytes 'L','D','O','M',
 * rotation keys x, y, z, w, column-major matrices, child IDs are indices,
 * node 0 is the root). Error-level rules are the NLM_* errors of the issue
 * catalog; its warnings (colour range, line lists, vertices outside the
 * AABB, slots >= 100, node IDs that differ from indices, ...) are accepted.
 *
 * The file is read front to back once. Vertex bone IDs name skinning slots
 * that the animation section defines after the meshes, so they are kept raw
 * and resolved to model bones once the whole file is read.
 *
 * Model mapping:
 *   - one mcl_mesh per mesh; 4 influences per vertex in an animated model
 *     (none in a static one); colour alpha 1; one UV layer; an index count
 *     that is a multiple of 3 is a triangle list, any other a line list
 *     (a trailing odd index is not drawn, as GL_LINES would not draw it);
 *   - one material per mesh with an embedded texture (bytes copied);
 *   - bones are the animation nodes in breadth-first order from node 0
 *     (parents first, whatever the file order); local = the node's
 *     transformation; inverse_bind = the offset matrix of the bone info
 *     entry keyed by the node's ID (identity when none). A bone info entry
 *     whose node is missing (a warning) gets an extra root bone with
 *     identity matrices: the engine never poses its slot, so vertices bound
 *     to it stay where they are;
 *   - one animation, times and duration in ticks; each bone map entry gives
 *     a LINEAR translation, rotation (x, y, z, w) and scale track. The engine
 *     replaces the node's transformation by T * R * S of the keys, which is
 *     what three full tracks do in mcl_evaluate_pose.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mc_numeric.h"
#include "mcl_internal.h"

/* Record sizes (nlm.md, Summary; docs/formats/nlm.md: header 16 bytes, no padding). */
enum {
    NLM_HEADER_SIZE = 16,
    NLM_AABB_SIZE = 24,
    NLM_MESH_MIN_SIZE = 12, /* vertex count, index count, texture size */
    NLM_VERTEX_SIZE = 76,
    NLM_VERTEX_BONES_AT = 44, /* position, colour, normal, UV come first */
    NLM_VERTEX_WEIGHTS_AT = 60,
    NLM_INFO_SIZE = 72,
    NLM_CHANNEL_HEADER_SIZE = 20,
    NLM_NODE_HEADER_SIZE = 72,
    NLM_INFLUENCES = 4,
    NLM_MAX_SCRATCH = 12
};

/* docs/ISSUES.md "Tolerances": the defaults every rule is judged with. */
#define NLM_UNIT_TOLERANCE 0.00674
#define NLM_QUATERNION_TOLERANCE 0.00769
#define NLM_WEIGHT_TOLERANCE 2e-7 /* per non-zero weight */
#define NLM_INVERTIBLE_TOLERANCE 1e-6
#define NLM_TIME_TOLERANCE 1e-6 /* relative to the duration */

static const uint8_t nlm_magic[4] = {'L', 'D', 'O', 'M'};

enum { KEY_POSITION, KEY_ROTATION, KEY_SCALE, KEY_KINDS };
static const char *const key_kind_name[KEY_KINDS] = {"position", "rotation", "scale"};
static const uint32_t key_size[KEY_KINDS] = {16, 20, 16};

typedef struct nlm_info {
    int32_t node_id, slot;
    float offset[16];
    uint64_t at;
    uint32_t bone; /* model bone, set when linked */
} nlm_info;

typedef struct nlm_channel {
    int32_t node_id, bone_id;
    uint64_t at;
} nlm_channel;

typedef struct nlm_node {
    int32_t id;
    uint32_t child_count;
    uint64_t at;
    size_t children; /* file offset of the child IDs, already bounds-checked */
    float transform[16];
} nlm_node;

/* An ID with the entry holding it, sorted for duplicate checks and lookups. */
typedef struct nlm_ref {
    int32_t id;
    uint32_t index;
} nlm_ref;

typedef struct nlm_scratch {
    void *p;
    uint64_t count, size;
} nlm_scratch;

typedef struct nlm_loader {
    mcl_ctx *c;
    const uint8_t *data;
    size_t size;
    mc_reader r;
    bool animated;

    uint32_t mesh_count;
    mcl_mesh *meshes;
    uint64_t *vertex_at; /* file offset of each mesh's first vertex */

    float duration;
    int32_t ticks_per_second;
    uint32_t info_count, channel_count, node_count;
    nlm_info *infos;
    nlm_channel *channels;
    mcl_track *tracks; /* 3 per channel, bone set when linked */
    nlm_node *nodes;
    nlm_ref *node_ids, *info_nodes, *info_slots; /* sorted by id */
    uint32_t *node_bone; /* node index -> model bone */
    int32_t *node_parent; /* node index -> parent node index, -1 */

    nlm_scratch scratch[NLM_MAX_SCRATCH];
    uint32_t scratch_used;
} nlm_loader;

/* ---- plumbing ---- */

static mcl_status failed(nlm_loader *L)
{
    /* mcl__alloc records NOMEM or LIMIT itself */
    return L->c->err->status != MCL_OK ? L->c->err->status
                                       : mcl__fail(L->c, MCL_ERR_NOMEM, 0, "out of memory");
}

static void *scratch(nlm_loader *L, uint64_t count, uint64_t size)
{
    if (L->scratch_used == NLM_MAX_SCRATCH) {
        mcl__fail(L->c, MCL_ERR_INTERNAL, 0, "NLM loader: too many scratch arrays");
        return NULL;
    }
    void *p = mcl__scratch(L->c, count, size);
    if (p) L->scratch[L->scratch_used++] = (nlm_scratch){p, count, size};
    return p;
}

static void scratch_release(nlm_loader *L)
{
    while (L->scratch_used) {
        nlm_scratch *s = &L->scratch[--L->scratch_used];
        mcl__scratch_free(L->c, s->p, s->count, s->size);
    }
}

/* The next n bytes exist; otherwise TRUNCATED naming what was being read. */
static mcl_status need(nlm_loader *L, uint64_t n, const char *what, uint32_t index)
{
    uint64_t left = mc_reader_left(&L->r);
    if (n <= left) return MCL_OK;
    return mcl__fail(L->c, MCL_ERR_TRUNCATED, L->r.pos,
                     "file ends inside %s %u: %llu bytes needed from 0x%llx, %llu present", what,
                     index, (unsigned long long)n, (unsigned long long)L->r.pos,
                     (unsigned long long)left);
}

/* count records of `unit` bytes fit in what is left: checked before any
 * allocation sized by the count (nlm.md gives every count a byte size). */
static mcl_status need_records(nlm_loader *L, uint64_t count, uint64_t unit, const char *what,
                               uint64_t count_at)
{
    uint64_t bytes, left = mc_reader_left(&L->r);
    if (mc_mul_u64(count, unit, &bytes) && bytes <= left) return MCL_OK;
    return mcl__fail(L->c, MCL_ERR_TRUNCATED, count_at,
                     "%llu %s of %llu bytes each announced at 0x%llx, only %llu bytes left",
                     (unsigned long long)count, what, (unsigned long long)unit,
                     (unsigned long long)count_at, (unsigned long long)left);
}

static void read_mat4(mc_reader *r, float m[16])
{
    mc_read_f32s(r, m, 16); /* column-major on disk (docs/formats/nlm.md), as mcl wants */
}

/* |det| / (product of column lengths) of the 3x3 linear part, the
 * invertibility rule of docs/ISSUES.md "Tolerances". */
static bool linear_part_invertible(const float m[16])
{
    double c[3][3];
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) c[j][i] = m[j * 4 + i];
    double det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) -
                 c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1]) +
                 c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1]);
    double lengths = mc_length(&m[0], 3) * mc_length(&m[4], 3) * mc_length(&m[8], 3);
    if (!(lengths > 0) || !isfinite(det) || !isfinite(lengths)) return false;
    return fabs(det) / lengths > NLM_INVERTIBLE_TOLERANCE;
}

static int compare_refs(const void *a, const void *b)
{
    const nlm_ref *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts refs by ID (then entry); returns the smallest entry index that
 * repeats an earlier entry's ID, or UINT32_MAX when all IDs are distinct. */
static uint32_t sort_refs(nlm_ref *refs, uint32_t n)
{
    if (n > 1) qsort(refs, n, sizeof *refs, compare_refs);
    uint32_t dup = UINT32_MAX;
    for (uint32_t i = 1; i < n; i++)
        if (refs[i].id == refs[i - 1].id && refs[i].index < dup) dup = refs[i].index;
    return dup;
}

/* The entry holding id (the first one), or UINT32_MAX. */
static uint32_t find_ref(const nlm_ref *refs, uint32_t n, int32_t id)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (refs[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && refs[lo].id == id ? refs[lo].index : UINT32_MAX;
}

/* ---- header and AABB ---- */

static mcl_status read_header(nlm_loader *L)
{
    /* docs/formats/nlm.md: older files put the magic at offset 0 (no hash) and
     * the current loader rejects them; name that layout rather than the magic. */
    if (L->size >= 8 && memcmp(L->data + 4, nlm_magic, 4) != 0) {
        if (memcmp(L->data, nlm_magic, 4) == 0)
            return mcl__fail(L->c, MCL_ERR_VERSION, 0,
                             "the magic 'LDOM' is at offset 0: the older layout without a hash "
                             "(expected a 16-byte header with the hash first)");
        return mcl__fail(L->c, MCL_ERR_MAGIC, 4,
                         "magic bytes %02x %02x %02x %02x (expected 'LDOM', the u32 0x4D4F444C)",
                         L->data[4], L->data[5], L->data[6], L->data[7]);
    }
    mcl_status s = need(L, NLM_HEADER_SIZE, "the header", 0);
    if (s != MCL_OK) return s;
    (void)mc_read_u32(&L->r); /* hash: docs/formats/nlm.md: never computed, ignored */
    (void)mc_read_u32(&L->r); /* magic, compared above */
    uint32_t version = mc_read_u32(&L->r);
    uint32_t flag = mc_read_u32(&L->r);
    if (version != 2) /* nlm.md, Header Section: Version (2) */
        return mcl__fail(L->c, MCL_ERR_VERSION, 8, "version %u (expected 2)", version);
    if (flag > 1) /* nlm.md, Header Section: 1 if animation data is present, 0 otherwise */
        return mcl__fail(L->c, MCL_ERR_RANGE, 12, "animation flag %u (expected 0 or 1)", flag);
    L->animated = flag == 1;
    return MCL_OK;
}

static mcl_status read_aabb(nlm_loader *L)
{
    mcl_status s = need(L, NLM_AABB_SIZE, "the AABB", 0);
    if (s != MCL_OK) return s;
    uint64_t at = L->r.pos;
    float box[6];
    mc_read_f32s(&L->r, box, 6);
    if (!mc_all_finite(box, 6)) /* nlm.md, AABB */
        return mcl__fail(L->c, MCL_ERR_VALUE, at, "the AABB holds NaN or infinity");
    for (int i = 0; i < 3; i++) /* nlm.md, AABB: minimum and maximum corner */
        if (box[i] > box[3 + i])
            return mcl__fail(L->c, MCL_ERR_VALUE, at + 4u * (unsigned)i,
                             "AABB min %c is %g, max %g (expected min <= max)", "xyz"[i],
                             (double)box[i], (double)box[3 + i]);
    return MCL_OK; /* vertices outside it are only a warning (source bounds kept) */
}

/* ---- meshes ---- */

/* nlm.md, Vertex Data: position, colour, normal, UV as floats. */
static mcl_status check_vertex_floats(nlm_loader *L, uint32_t mesh, uint32_t v, uint64_t at,
                                      const float f[11])
{
    if (!mc_all_finite(f, 11))
        return mcl__fail(L->c, MCL_ERR_VALUE, at,
                         "mesh %u vertex %u: position, colour, normal or UV holds NaN or infinity",
                         mesh, v);
    double len = mc_length(&f[6], 3);
    /* a normal is a unit vector; (0, 0, 0) says "no normal" (docs/formats/nlm.md
     * NLM: line-list meshes), a warning */
    if (!mc_all_zero(&f[6], 3) && fabs(len - 1.0) > NLM_UNIT_TOLERANCE)
        return mcl__fail(L->c, MCL_ERR_VALUE, at + 24,
                         "mesh %u vertex %u: normal length %f (expected 1 +- %g)", mesh, v, len,
                         NLM_UNIT_TOLERANCE);
    return MCL_OK; /* colours outside [0, 1] are only a warning */
}

/*
 * nlm.md, Vertex Data: up to 4 bone IDs with weights. docs/formats/nlm.md:
 * unused slots are ID -1 with weight 0; weights sum to about 1. A static
 * model has no bones, so every ID must be -1. Whether an ID names a
 * skinning slot is known only after the bone info map (resolve_vertices).
 */
static mcl_status check_vertex_bones(nlm_loader *L, uint32_t mesh, uint32_t v, uint64_t at,
                                     const int32_t id[4], const float w[4])
{
    uint64_t wat = at + NLM_VERTEX_WEIGHTS_AT, iat = at + NLM_VERTEX_BONES_AT;
    double sum = 0;
    int nonzero = 0;
    bool skinned = false;
    for (int k = 0; k < NLM_INFLUENCES; k++) {
        if (!isfinite(w[k]) || w[k] < 0.0f || w[k] > 1.0f)
            return mcl__fail(L->c, MCL_ERR_VALUE, wat + 4u * (unsigned)k,
                             "mesh %u vertex %u: weight %d is %g (expected within [0, 1])", mesh, v,
                             k, (double)w[k]);
        if (id[k] == -1) {
            if (w[k] != 0.0f)
                return mcl__fail(L->c, MCL_ERR_VALUE, wat + 4u * (unsigned)k,
                                 "mesh %u vertex %u: slot %d has bone ID -1 but weight %g "
                                 "(expected 0)", mesh, v, k, (double)w[k]);
            continue;
        }
        if (!L->animated)
            return mcl__fail(L->c, MCL_ERR_RANGE, iat + 4u * (unsigned)k,
                             "mesh %u vertex %u: bone ID %d in a model without animation "
                             "(expected -1)", mesh, v, (int)id[k]);
        for (int j = 0; j < k; j++)
            if (id[j] == id[k])
                return mcl__fail(L->c, MCL_ERR_STRUCTURE, iat + 4u * (unsigned)k,
                                 "mesh %u vertex %u: bone ID %d appears in slots %d and %d", mesh,
                                 v, (int)id[k], j, k);
        skinned = true;
        sum += w[k];
        nonzero += w[k] != 0.0f;
    }
    /* A vertex naming no bone in an animated model is only a warning. */
    if (skinned && fabs(sum - 1.0) > NLM_WEIGHT_TOLERANCE * nonzero)
        return mcl__fail(L->c, MCL_ERR_VALUE, wat,
                         "mesh %u vertex %u: weights sum to %f (expected 1 +- %g)", mesh, v, sum,
                         NLM_WEIGHT_TOLERANCE * nonzero);
    return MCL_OK;
}

static mcl_status read_vertices(nlm_loader *L, uint32_t i, mcl_mesh *me)
{
    uint64_t n = me->vertex_count;
    float *pos = mcl__alloc(L->c, n, 3 * sizeof(float));
    float *nrm = mcl__alloc(L->c, n, 3 * sizeof(float));
    float *uv = mcl__alloc(L->c, n, 2 * sizeof(float));
    float *col = mcl__alloc(L->c, n, 4 * sizeof(float));
    uint32_t *joints = NULL;
    float *weights = NULL;
    if (L->animated) {
        joints = mcl__alloc(L->c, n, NLM_INFLUENCES * sizeof(uint32_t));
        weights = mcl__alloc(L->c, n, NLM_INFLUENCES * sizeof(float));
        if (!joints || !weights) return failed(L);
    }
    if (!pos || !nrm || !uv || !col) return failed(L);
    for (uint32_t v = 0; v < me->vertex_count; v++) {
        uint64_t at = L->r.pos;
        float f[11]; /* position, colour, normal, UV */
        int32_t id[4];
        float w[4];
        mc_read_f32s(&L->r, f, 11);
        for (int k = 0; k < 4; k++) id[k] = mc_read_i32(&L->r);
        mc_read_f32s(&L->r, w, 4);
        mcl_status s = check_vertex_floats(L, i, v, at, f);
        if (s == MCL_OK) s = check_vertex_bones(L, i, v, at, id, w);
        if (s != MCL_OK) return s;
        memcpy(&pos[v * 3u], &f[0], 3 * sizeof(float));
        memcpy(&col[v * 4u], &f[3], 3 * sizeof(float));
        col[v * 4u + 3] = 1.0f; /* RGB on disk */
        memcpy(&nrm[v * 3u], &f[6], 3 * sizeof(float));
        memcpy(&uv[v * 2u], &f[9], 2 * sizeof(float));
        if (L->animated)
            for (int k = 0; k < NLM_INFLUENCES; k++) {
                /* raw ID for now: resolve_vertices maps it to a model bone */
                memcpy(&joints[v * 4u + (unsigned)k], &id[k], sizeof id[k]);
                weights[v * 4u + (unsigned)k] = w[k];
            }
    }
    me->positions = pos;
    me->normals = nrm;
    me->uv_layer_count = 1;
    me->uvs = uv;
    me->colors = col;
    me->influences = L->animated ? NLM_INFLUENCES : 0;
    me->joints = joints;
    me->weights = weights;
    return MCL_OK;
}

static mcl_status read_indices(nlm_loader *L, uint32_t i, mcl_mesh *me, uint32_t count,
                               uint64_t count_at)
{
    mcl_status s = need_records(L, count, 4, "indices", count_at);
    if (s != MCL_OK) return s;
    uint32_t *idx = mcl__alloc(L->c, count, sizeof(uint32_t));
    if (!idx) return failed(L);
    for (uint32_t k = 0; k < count; k++) {
        uint64_t at = L->r.pos;
        idx[k] = mc_read_u32(&L->r);
        if (idx[k] >= me->vertex_count) /* nlm.md, Index Data */
            return mcl__fail(L->c, MCL_ERR_RANGE, at,
                             "mesh %u: index %u is %u (expected < vertex count %u)", i, k, idx[k],
                             me->vertex_count);
    }
    /* nlm.md says triangles; docs/formats/nlm.md: wireframe meshes hold line
     * lists (a warning). A count that is no multiple of 3 is drawn as lines;
     * an odd last index forms no line. */
    me->indices = idx;
    if (count % 3 == 0) {
        me->primitive = MCL_TRIANGLES;
        me->index_count = count;
    } else {
        me->primitive = MCL_LINES;
        me->index_count = count & ~1u;
    }
    return MCL_OK;
}

static mcl_status read_texture(nlm_loader *L, uint32_t i, mcl_mesh *me)
{
    mcl_status s = need(L, 4, "the texture size of mesh", i);
    if (s != MCL_OK) return s;
    uint64_t at = L->r.pos;
    uint32_t n = mc_read_u32(&L->r);
    if (n == 0) return MCL_OK; /* nlm.md: 0 means no texture */
    s = need_records(L, n, 1, "texture bytes", at);
    if (s != MCL_OK) return s;
    /* The blob is an image file's bytes (any signature is only a warning). */
    uint8_t *copy = mcl__alloc(L->c, n, 1);
    if (!copy) return failed(L);
    memcpy(copy, mc_read_bytes(&L->r, n), n);
    mcl_material *ma = (mcl_material *)&L->c->model->materials[L->c->model->material_count];
    ma->name = "";
    ma->texture_data = copy;
    ma->texture_size = n;
    for (int k = 0; k < 4; k++) ma->base_color[k] = 1.0f;
    me->material = (int32_t)L->c->model->material_count++;
    return MCL_OK;
}

static mcl_status read_mesh(nlm_loader *L, uint32_t i)
{
    mcl_mesh *me = &L->meshes[i];
    me->name = "";
    me->material = -1;
    me->rigid_bone = -1;
    mcl_status s = need(L, 8, "the header of mesh", i);
    if (s != MCL_OK) return s;
    uint64_t at = L->r.pos;
    me->vertex_count = mc_read_u32(&L->r);
    uint32_t index_count = mc_read_u32(&L->r);
    s = need_records(L, me->vertex_count, NLM_VERTEX_SIZE, "vertices", at);
    if (s != MCL_OK) return s;
    L->vertex_at[i] = L->r.pos;
    s = read_vertices(L, i, me);
    if (s == MCL_OK) s = read_indices(L, i, me, index_count, at + 4);
    if (s == MCL_OK) s = read_texture(L, i, me);
    return s;
}

static mcl_status read_meshes(nlm_loader *L)
{
    mcl_status s = need(L, 4, "the mesh count", 0);
    if (s != MCL_OK) return s;
    uint64_t at = L->r.pos;
    L->mesh_count = mc_read_u32(&L->r);
    s = need_records(L, L->mesh_count, NLM_MESH_MIN_SIZE, "meshes", at);
    if (s != MCL_OK) return s;
    L->meshes = mcl__alloc(L->c, L->mesh_count, sizeof(mcl_mesh));
    /* at most one material per mesh: the textured ones */
    L->c->model->materials = mcl__alloc(L->c, L->mesh_count, sizeof(mcl_material));
    L->vertex_at = scratch(L, L->mesh_count, sizeof(uint64_t));
    if (!L->meshes || !L->c->model->materials || !L->vertex_at) return failed(L);
    L->c->model->meshes = L->meshes;
    L->c->model->mesh_count = L->mesh_count;
    for (uint32_t i = 0; i < L->mesh_count; i++) {
        s = read_mesh(L, i);
        if (s != MCL_OK) return s;
    }
    return MCL_OK;
}

/* ---- animation section ---- */

static mcl_status read_metadata(nlm_loader *L)
{
    uint64_t at = L->r.pos;
    if (mc_reader_left(&L->r) == 0) /* the flag promised a section */
        return mcl__fail(L->c, MCL_ERR_TRUNCATED, at,
                         "the animation flag is 1 but the file ends after the meshes (at 0x%llx)",
                         (unsigned long long)at);
    mcl_status s = need(L, 8, "the animation metadata", 0);
    if (s != MCL_OK) return s;
    L->duration = mc_read_f32(&L->r);
    int32_t ticks = mc_read_i32(&L->r);
    L->ticks_per_second = ticks;
    /* nlm.md, Animation Metadata; docs/formats/nlm.md: a duration of 0 gives NaN */
    if (!isfinite(L->duration) || !(L->duration > 0.0f))
        return mcl__fail(L->c, MCL_ERR_VALUE, at, "duration %g ticks (expected finite and > 0)",
                         (double)L->duration);
    if (ticks <= 0)
        return mcl__fail(L->c, MCL_ERR_VALUE, at + 4, "ticks per second %d (expected > 0)",
                         (int)ticks);
    return MCL_OK;
}

/* nlm.md, Bone Info Entries: node ID, offset matrix, bone info ID (the
 * skinning slot, docs/formats/nlm.md). */
static mcl_status read_bone_infos(nlm_loader *L)
{
    mcl_status s = need(L, 4, "the bone info count", 0);
    if (s != MCL_OK) return s;
    uint64_t at = L->r.pos;
    L->info_count = mc_read_u32(&L->r);
    s = need_records(L, L->info_count, NLM_INFO_SIZE, "bone info entries", at);
    if (s != MCL_OK) return s;
    L->infos = scratch(L, L->info_count, sizeof(nlm_info));
    L->info_nodes = scratch(L, L->info_count, sizeof(nlm_ref));
    L->info_slots = scratch(L, L->info_count, sizeof(nlm_ref));
    if (!L->infos || !L->info_nodes || !L->info_slots) return failed(L);
    for (uint32_t i = 0; i < L->info_count; i++) {
        nlm_info *b = &L->infos[i];
        b->at = L->r.pos;
        b->node_id = mc_read_i32(&L->r);
        read_mat4(&L->r, b->offset);
        b->slot = mc_read_i32(&L->r);
        if (!mc_all_finite(b->offset, 16))
            return mcl__fail(L->c, MCL_ERR_VALUE, b->at + 4,
                             "bone info %u: offset matrix holds NaN or infinity", i);
        if (!linear_part_invertible(b->offset)) /* an inverse bind matrix must invert */
            return mcl__fail(L->c, MCL_ERR_VALUE, b->at + 4,
                             "bone info %u: offset matrix is singular (its 3x3 part has no inverse)",
                             i);
        if (b->slot < 0) /* slots index the engine's bone matrix array */
            return mcl__fail(L->c, MCL_ERR_RANGE, b->at + 68,
                             "bone info %u: skinning slot %d (expected >= 0)", i, (int)b->slot);
        L->info_nodes[i] = (nlm_ref){b->node_id, i};
        L->info_slots[i] = (nlm_ref){b->slot, i};
    }
    /* nlm.md: a unique bone ID; the slot identifies the entry for vertices */
    uint32_t dup = sort_refs(L->info_nodes, L->info_count);
    if (dup != UINT32_MAX)
        return mcl__fail(L->c, MCL_ERR_STRUCTURE, L->infos[dup].at,
                         "bone info %u: node ID %d is already used by an earlier entry", dup,
                         (int)L->infos[dup].node_id);
    dup = sort_refs(L->info_slots, L->info_count);
    if (dup != UINT32_MAX)
        return mcl__fail(L->c, MCL_ERR_STRUCTURE, L->infos[dup].at + 68,
                         "bone info %u: skinning slot %d is already used by an earlier entry", dup,
                         (int)L->infos[dup].slot);
    return MCL_OK;
}

/* One key kind of a channel: times strictly increasing within [0, duration]
 * (nlm.md, Keyframe Structures; Animation Metadata), values finite, rotations
 * unit x, y, z, w (docs/formats/nlm.md), scales without a zero component. */
static mcl_status read_keys(nlm_loader *L, uint32_t ch, int kind, uint32_t n, mcl_track *t)
{
    uint32_t width = kind == KEY_ROTATION ? 4 : 3;
    float *times = mcl__alloc(L->c, n, sizeof(float));
    float *values = mcl__alloc(L->c, n, (uint64_t)width * sizeof(float));
    if (!times || !values) return failed(L);
    double limit = (double)L->duration * (1.0 + NLM_TIME_TOLERANCE);
    const char *name = key_kind_name[kind];
    for (uint32_t k = 0; k < n; k++) {
        uint64_t at = L->r.pos;
        float *v = &values[(uint64_t)k * width];
        times[k] = mc_read_f32(&L->r);
        mc_read_f32s(&L->r, v, width);
        if (!isfinite(times[k]) || !mc_all_finite(v, width))
            return mcl__fail(L->c, MCL_ERR_VALUE, at,
                             "bone map entry %u %s key %u holds NaN or infinity", ch, name, k);
        if (k > 0 && !(times[k] > times[k - 1]))
            return mcl__fail(L->c, MCL_ERR_STRUCTURE, at,
                             "bone map entry %u %s key %u: time %g follows %g (expected strictly "
                             "increasing)", ch, name, k, (double)times[k], (double)times[k - 1]);
        if (times[k] < 0.0f || (double)times[k] > limit)
            return mcl__fail(L->c, MCL_ERR_RANGE, at,
                             "bone map entry %u %s key %u: time %g outside [0, %g]", ch, name, k,
                             (double)times[k], (double)L->duration);
        if (kind == KEY_ROTATION && fabs(mc_length(v, 4) - 1.0) > NLM_QUATERNION_TOLERANCE)
            return mcl__fail(L->c, MCL_ERR_VALUE, at + 4,
                             "bone map entry %u rotation key %u: quaternion length %f (expected "
                             "1 +- %g)", ch, k, mc_length(v, 4), NLM_QUATERNION_TOLERANCE);
        if (kind == KEY_SCALE && (v[0] == 0.0f || v[1] == 0.0f || v[2] == 0.0f))
            return mcl__fail(L->c, MCL_ERR_VALUE, at + 4,
                             "bone map entry %u scale key %u: scale (%g, %g, %g) has a zero "
                             "component", ch, k, (double)v[0], (double)v[1], (double)v[2]);
    }
    static const mcl_track_kind kinds[KEY_KINDS] = {MCL_TRACK_TRANSLATION, MCL_TRACK_ROTATION,
                                                     MCL_TRACK_SCALE};
    t->kind = kinds[kind];
    t->interpolation = MCL_LINEAR;
    t->key_count = n;
    t->times = times;
    t->values = values;
    return MCL_OK;
}

/* nlm.md, Bone Entries: node ID, bone ID, three key counts, the keys. */
static mcl_status read_channel(nlm_loader *L, uint32_t i)
{
    nlm_channel *ch = &L->channels[i];
    mcl_status s = need(L, NLM_CHANNEL_HEADER_SIZE, "the header of bone map entry", i);
    if (s != MCL_OK) return s;
    ch->at = L->r.pos;
    ch->node_id = mc_read_i32(&L->r);
    ch->bone_id = mc_read_i32(&L->r);
    uint32_t count[KEY_KINDS];
    uint64_t bytes = 0;
    for (int k = 0; k < KEY_KINDS; k++) {
        count[k] = mc_read_u32(&L->r);
        (void)mc_add_mul_u64(&bytes, count[k], key_size[k]); /* < 2^38: no overflow */
    }
    for (int k = 0; k < KEY_KINDS; k++)
        if (count[k] == 0) /* docs/formats/nlm.md: the engine reads keys [0] and [1] */
            return mcl__fail(L->c, MCL_ERR_STRUCTURE, ch->at + 8 + 4u * (unsigned)k,
                             "bone map entry %u: no %s key (expected at least 1)", i,
                             key_kind_name[k]);
    s = need_records(L, bytes, 1, "key bytes", ch->at + 8);
    for (int k = 0; s == MCL_OK && k < KEY_KINDS; k++)
        s = read_keys(L, i, k, count[k], &L->tracks[(uint64_t)i * KEY_KINDS + (unsigned)k]);
    return s;
}

static mcl_status read_channels(nlm_loader *L)
{
    mcl_status s = need(L, 4, "the bone map count", 0);
    if (s != MCL_OK) return s;
    uint64_t at = L->r.pos;
    L->channel_count = mc_read_u32(&L->r);
    s = need_records(L, L->channel_count, NLM_CHANNEL_HEADER_SIZE, "bone map entries", at);
    if (s != MCL_OK) return s;
    L->channels = scratch(L, L->channel_count, sizeof(nlm_channel));
    L->tracks = mcl__alloc(L->c, L->channel_count, KEY_KINDS * sizeof(mcl_track));
    if (!L->channels || !L->tracks) return failed(L);
    for (uint32_t i = 0; i < L->channel_count; i++) {
        s = read_channel(L, i);
        if (s != MCL_OK) return s;
    }
    return MCL_OK;
}

/* nlm.md, Animation Nodes: ID, transformation, child IDs. The children are
 * only located here; build_hierarchy reads them. */
static mcl_status read_nodes(nlm_loader *L)
{
    mcl_status s = need(L, 4, "the node count", 0);
    if (s != MCL_OK) return s;
    uint64_t at = L->r.pos;
    L->node_count = mc_read_u32(&L->r);
    if (L->node_count == 0) /* docs/formats/nlm.md: the engine starts at node 0 */
        return mcl__fail(L->c, MCL_ERR_STRUCTURE, at,
                         "the animated model has no node (the engine starts at node 0)");
    s = need_records(L, L->node_count, NLM_NODE_HEADER_SIZE, "nodes", at);
    if (s != MCL_OK) return s;
    L->nodes = scratch(L, L->node_count, sizeof(nlm_node));
    L->node_ids = scratch(L, L->node_count, sizeof(nlm_ref));
    if (!L->nodes || !L->node_ids) return failed(L);
    for (uint32_t i = 0; i < L->node_count; i++) {
        nlm_node *n = &L->nodes[i];
        s = need(L, NLM_NODE_HEADER_SIZE, "the header of node", i);
        if (s != MCL_OK) return s;
        n->at = L->r.pos;
        n->id = mc_read_i32(&L->r);
        read_mat4(&L->r, n->transform);
        n->child_count = mc_read_u32(&L->r);
        if (!mc_all_finite(n->transform, 16))
            return mcl__fail(L->c, MCL_ERR_VALUE, n->at + 4,
                             "node %u: transformation holds NaN or infinity", i);
        s = need_records(L, n->child_count, 4, "child IDs", n->at + 68);
        if (s != MCL_OK) return s;
        n->children = L->r.pos;
        mc_reader_skip(&L->r, (size_t)n->child_count * 4);
        L->node_ids[i] = (nlm_ref){n->id, i};
    }
    /* nlm.md, Animation Nodes: a unique ID (IDs other than the index are a warning) */
    uint32_t dup = sort_refs(L->node_ids, L->node_count);
    if (dup != UINT32_MAX)
        return mcl__fail(L->c, MCL_ERR_STRUCTURE, L->nodes[dup].at,
                         "node %u: ID %d is already used by an earlier node", dup,
                         (int)L->nodes[dup].id);
    return MCL_OK;
}

static int32_t child_id(const nlm_loader *L, const nlm_node *n, uint32_t j)
{
    int32_t v;
    uint32_t u = mc_le32(L->data + n->children + 4u * (size_t)j);
    memcpy(&v, &u, sizeof v);
    return v;
}

/*
 * docs/formats/nlm.md: child IDs index the node array and node 0 is the root.
 * One parent per node and none for the root; then a breadth-first walk
 * from node 0 with an explicit queue (no recursion, however deep) orders the
 * nodes parents first. A node the walk misses is a second root or sits on a
 * cycle (every node of a cycle has its parent inside the cycle, so none is
 * reachable from the root).
 */
static mcl_status build_hierarchy(nlm_loader *L)
{
    uint32_t n = L->node_count;
    int32_t *parent = scratch(L, n, sizeof(int32_t));
    uint32_t *queue = scratch(L, n, sizeof(uint32_t));
    L->node_bone = scratch(L, n, sizeof(uint32_t));
    if (!parent || !queue || !L->node_bone) return failed(L);
    L->node_parent = parent;
    for (uint32_t i = 0; i < n; i++) parent[i] = -1, L->node_bone[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        const nlm_node *nd = &L->nodes[i];
        for (uint32_t j = 0; j < nd->child_count; j++) {
            int32_t c = child_id(L, nd, j);
            uint64_t at = nd->children + 4u * (uint64_t)j;
            if (c < 0 || (uint32_t)c >= n)
                return mcl__fail(L->c, MCL_ERR_RANGE, at,
                                 "node %u: child ID %d (expected an index < node count %u)", i,
                                 (int)c, n);
            if (c == 0)
                return mcl__fail(L->c, MCL_ERR_STRUCTURE, at,
                                 "node %u lists node 0, the root, as its child", i);
            if (parent[c] != -1)
                return mcl__fail(L->c, MCL_ERR_STRUCTURE, at,
                                 "node %u lists node %d as its child; node %d already did", i,
                                 (int)c, (int)parent[c]);
            parent[c] = (int32_t)i;
        }
    }
    uint32_t head = 0, tail = 0;
    queue[tail++] = 0;
    L->node_bone[0] = 0;
    while (head < tail) {
        const nlm_node *nd = &L->nodes[queue[head++]];
        for (uint32_t j = 0; j < nd->child_count; j++) {
            uint32_t c = (uint32_t)child_id(L, nd, j);
            if (L->node_bone[c] != UINT32_MAX) continue; /* cannot happen: one parent each */
            L->node_bone[c] = tail;
            queue[tail++] = c;
        }
    }
    if (tail == n) return MCL_OK;
    for (uint32_t i = 0; i < n; i++)
        if (L->node_bone[i] == UINT32_MAX && parent[i] == -1)
            return mcl__fail(L->c, MCL_ERR_STRUCTURE, L->nodes[i].at,
                             "node %u has no parent and is not node 0: a second root the engine "
                             "never visits", i);
    uint32_t i = 0;
    while (L->node_bone[i] != UINT32_MAX) i++;
    for (uint32_t step = 0; step < n; step++) i = (uint32_t)parent[i]; /* now on the cycle */
    return mcl__fail(L->c, MCL_ERR_STRUCTURE, L->nodes[i].at,
                     "node %u is on a cycle of child links (node %d lists it as a child and is "
                     "its descendant)", i, (int)parent[i]);
}

/* Bones: the nodes in walk order, then one extra root per bone info entry
 * whose node is missing (a warning: the slot is never posed). */
static mcl_status build_bones(nlm_loader *L)
{
    uint32_t orphans = 0;
    for (uint32_t i = 0; i < L->info_count; i++)
        if (find_ref(L->node_ids, L->node_count, L->infos[i].node_id) == UINT32_MAX) orphans++;
    uint64_t count = (uint64_t)L->node_count + orphans; /* both bounded by the file size */
    mcl_bone *bones = mcl__alloc(L->c, count, sizeof(mcl_bone));
    if (!bones) return failed(L);
    for (uint32_t i = 0; i < L->node_count; i++) {
        mcl_bone *b = &bones[L->node_bone[i]];
        b->name = "";
        int32_t p = L->node_parent[i];
        b->parent = p < 0 ? -1 : (int32_t)L->node_bone[p];
        memcpy(b->local, L->nodes[i].transform, sizeof b->local);
        mcl__identity(b->inverse_bind);
    }
    uint32_t next = L->node_count;
    for (uint32_t i = 0; i < L->info_count; i++) {
        nlm_info *in = &L->infos[i];
        uint32_t node = find_ref(L->node_ids, L->node_count, in->node_id);
        if (node != UINT32_MAX) {
            in->bone = L->node_bone[node];
            memcpy(bones[in->bone].inverse_bind, in->offset, sizeof in->offset);
            continue;
        }
        in->bone = next++;
        mcl_bone *b = &bones[in->bone];
        b->name = "";
        b->parent = -1;
        mcl__identity(b->local);
        mcl__identity(b->inverse_bind);
    }
    L->c->model->bones = bones;
    L->c->model->bone_count = (uint32_t)count;
    return MCL_OK;
}

/* nlm.md, Bone Entries: the node must exist and its bone info ID must be
 * the entry's bone ID. A second entry for the same node is dropped: the
 * engine finds the first one. */
static mcl_status link_channels(nlm_loader *L)
{
    uint8_t *seen = scratch(L, L->node_count, 1);
    if (!seen) return failed(L);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < L->channel_count; i++) {
        const nlm_channel *ch = &L->channels[i];
        uint32_t node = find_ref(L->node_ids, L->node_count, ch->node_id);
        if (node == UINT32_MAX)
            return mcl__fail(L->c, MCL_ERR_STRUCTURE, ch->at,
                             "bone map entry %u: node ID %d is not in the node list", i,
                             (int)ch->node_id);
        uint32_t info = find_ref(L->info_nodes, L->info_count, ch->node_id);
        if (info == UINT32_MAX)
            return mcl__fail(L->c, MCL_ERR_STRUCTURE, ch->at + 4,
                             "bone map entry %u: bone ID %d, but node %d has no bone info entry", i,
                             (int)ch->bone_id, (int)ch->node_id);
        if (L->infos[info].slot != ch->bone_id)
            return mcl__fail(L->c, MCL_ERR_STRUCTURE, ch->at + 4,
                             "bone map entry %u: bone ID %d, but node %d's bone info ID is %d", i,
                             (int)ch->bone_id, (int)ch->node_id, (int)L->infos[info].slot);
        if (seen[node]) continue;
        seen[node] = 1;
        for (unsigned k = 0; k < KEY_KINDS; k++) {
            mcl_track t = L->tracks[(uint64_t)i * KEY_KINDS + k];
            t.bone = L->node_bone[node];
            L->tracks[(uint64_t)kept * KEY_KINDS + k] = t;
        }
        kept++;
    }
    mcl_animation *an = mcl__alloc(L->c, 1, sizeof(mcl_animation));
    if (!an) return failed(L);
    an->name = "";
    an->duration = L->duration; /* ticks, like the key times */
    an->units_per_second = L->ticks_per_second;
    an->track_count = kept * KEY_KINDS;
    an->tracks = L->tracks;
    L->c->model->animations = an;
    L->c->model->animation_count = 1;
    return MCL_OK;
}

/* docs/formats/nlm.md: a vertex bone ID is a skinning slot (bone info ID). */
static mcl_status resolve_vertices(nlm_loader *L)
{
    for (uint32_t i = 0; i < L->mesh_count; i++) {
        mcl_mesh *me = &L->meshes[i];
        uint32_t *joints = (uint32_t *)me->joints;
        uint64_t slots = (uint64_t)me->vertex_count * NLM_INFLUENCES;
        for (uint64_t k = 0; k < slots; k++) {
            int32_t id;
            memcpy(&id, &joints[k], sizeof id);
            if (id == -1) {
                joints[k] = 0; /* weight 0 */
                continue;
            }
            uint32_t info = find_ref(L->info_slots, L->info_count, id);
            if (info == UINT32_MAX)
                return mcl__fail(L->c, MCL_ERR_RANGE,
                                 L->vertex_at[i] + k / 4 * NLM_VERTEX_SIZE + NLM_VERTEX_BONES_AT +
                                     k % 4 * 4,
                                 "mesh %u vertex %llu: bone ID %d is neither -1 nor a skinning slot "
                                 "of the %u bone info entries", i, (unsigned long long)(k / 4),
                                 (int)id, L->info_count);
            joints[k] = L->infos[info].bone;
        }
    }
    return MCL_OK;
}

static mcl_status read_animation(nlm_loader *L)
{
    mcl_status s = read_metadata(L);
    if (s == MCL_OK) s = read_bone_infos(L);
    if (s == MCL_OK) s = read_channels(L);
    if (s == MCL_OK) s = read_nodes(L);
    return s;
}

static mcl_status check_end(nlm_loader *L)
{
    size_t left = mc_reader_left(&L->r);
    if (left == 0) return MCL_OK;
    if (!L->animated) /* nlm.md: the section is included only if the flag is 1 */
        return mcl__fail(L->c, MCL_ERR_SIZE, L->r.pos,
                         "%zu bytes follow the meshes but the animation flag is 0 (an undeclared "
                         "animation section, or trailing bytes)", left);
    return mcl__fail(L->c, MCL_ERR_SIZE, L->r.pos,
                     "%zu bytes after the node list (the file ends with its last section)", left);
}

static mcl_status load(nlm_loader *L)
{
    mcl_status s = read_header(L);
    if (s == MCL_OK) s = read_aabb(L);
    if (s == MCL_OK) s = read_meshes(L);
    if (s == MCL_OK && L->animated) s = read_animation(L);
    if (s == MCL_OK) s = check_end(L);
    if (s != MCL_OK || !L->animated) return s;
    s = build_hierarchy(L);
    if (s == MCL_OK) s = build_bones(L);
    if (s == MCL_OK) s = link_channels(L);
    if (s == MCL_OK) s = resolve_vertices(L);
    return s;
}

mcl_status mcl__load_nlm(mcl_ctx *c, const uint8_t *data, size_t size)
{
    nlm_loader L;
    memset(&L, 0, sizeof L);
    L.c = c;
    L.data = data;
    L.size = size;
    L.r = mc_reader_make(data, size);
    c->model->layout = "";
    mcl_status s = load(&L);
    scratch_release(&L);
    return s;
}
