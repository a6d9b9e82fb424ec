/*
 * E3D reference loader, pass 2: the fields of every block the framing pass
 * recorded (e3d.c) and the cross-references between them, each checked
 * against its rule; e3d_model.c builds the common model afterwards.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "e3d_loader.h"
#include "mc_numeric.h"

/* The validator's default tolerances (modelcheck --help): a 10_10_10_2
 * normal is quantised, a quaternion is written as float or double. */
#define UNIT_TOLERANCE 0.00674
#define QUATERNION_TOLERANCE 0.00769
/* docs/formats/e3d.md: a textureName can be 64 KiB; the catalog bounds it. */
#define TEXTURE_NAME_MAX 4096
/* e3d.adoc, attributes: limit of 65,536 vertices */
#define VERTEX_LIMIT 65536u
/* docs/formats/e3d.md: more than 10 bones per vertex overflow the reference reader */
#define INFLUENCE_LIMIT 10u

/* ---- the hash map for IDs (u32) and names (bytes) ---- */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static uint64_t hash_bytes(const uint8_t *p, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return mix64(h);
}

static bool map_init(e3 *s, hmap *m, uint32_t count)
{
    uint64_t cap = 16;
    while (cap < (uint64_t)count * 2) cap *= 2;
    m->e = mcl__scratch(s->c, cap, sizeof *m->e);
    m->cap = m->e ? (uint32_t)cap : 0;
    return m->e != NULL;
}

static void map_free(e3 *s, hmap *m)
{
    if (m->e) mcl__scratch_free(s->c, m->e, m->cap, sizeof *m->e);
    m->e = NULL;
}

/* The slot holding the key, or the empty slot where it belongs. */
static entry *map_slot(const hmap *m, uint64_t hash, const uint8_t *str, uint32_t len)
{
    uint32_t mask = m->cap - 1;
    for (uint32_t i = (uint32_t)hash & mask;; i = (i + 1) & mask) {
        entry *e = &m->e[i];
        if (!e->used) return e;
        if (e->hash == hash && e->len == len && (len == 0 || memcmp(e->s, str, len) == 0)) return e;
    }
}

entry *e3__id_slot(const hmap *m, uint32_t id) { return map_slot(m, mix64(id), NULL, 0); }
entry *e3__name_slot(const hmap *m, const uint8_t *p, uint32_t n) { return map_slot(m, hash_bytes(p, n), p, n); }

static void slot_set(entry *e, uint64_t hash, const uint8_t *str, uint32_t len, uint32_t val)
{
    e->hash = hash;
    e->s = str;
    e->len = len;
    e->val = val;
    e->used = true;
}

static const size_t obj_size[7] = {sizeof(mesh), sizeof(skin), sizeof(node), sizeof(mat),
                                   sizeof(tex), sizeof(anim), sizeof(track)};

#define FAILF(s, st, b, ...) mcl__fail((s)->c, (st), (b)->off, __VA_ARGS__)

/* ---- field readers ---- */


static mcl_status need_size(e3 *s, const e3_blk *b, uint32_t want)
{
    if (b->len == want) return MCL_OK;
    return FAILF(s, MCL_ERR_SIZE, b, "block 0x%04X payload is %u bytes (expected %u)", b->type, b->len, want);
}

/* n floats at p, all finite (e3d.adoc: float fields) */
static mcl_status floats(e3 *s, const e3_blk *b, const uint8_t *p, uint32_t n, float *out)
{
    for (uint32_t i = 0; i < n; i++) {
        float f = f32_at(p + 4 * (size_t)i);
        if (!isfinite(f)) return FAILF(s, MCL_ERR_VALUE, b, "block 0x%04X: float %u is NaN or infinite", b->type, i);
        if (out) out[i] = f;
    }
    return MCL_OK;
}

static mcl_status doubles(e3 *s, const e3_blk *b, uint32_t n, double *out)
{
    for (uint32_t i = 0; i < n; i++) {
        out[i] = f64_at(b->p + 8 * (size_t)i);
        if (!isfinite(out[i])) return FAILF(s, MCL_ERR_VALUE, b, "block 0x%04X: double %u is NaN or infinite", b->type, i);
    }
    return MCL_OK;
}

/* docs/formats/e3d.md: strings are u16 length + bytes, no NUL */
static mcl_status string(e3 *s, const e3_blk *b, const uint8_t **p, uint32_t *n)
{
    if (b->len < 2 || mc_le16(b->p) != b->len - 2)
        return FAILF(s, MCL_ERR_SIZE, b, "block 0x%04X: string length %u in a %u-byte payload", b->type,
                     b->len >= 2 ? mc_le16(b->p) : 0u, b->len);
    *p = b->p + 2;
    *n = b->len - 2u;
    return MCL_OK;
}

static mcl_status u32_field(e3 *s, const e3_blk *b, uint32_t *v)
{
    mcl_status st = need_size(s, b, 4);
    if (st == MCL_OK) *v = mc_le32(b->p);
    return st;
}

/* ---- duplicates: blocks that may appear once per parent ---- */

/* One value per parent (e3d.adoc), the morph blocks of the reference code
 * (docs/formats/e3d.md) included: a morph has one ID, name and weight, a mesh one
 * morphs list. ftkMorph is not here: it carries one morph index, so a
 * track animating several morphs holds one per morph. */

static const uint16_t once_types[] = {
    E3_MESH_ID, E3_MESH_BBOX, E3_DUP_VERTICES, E3_TRI16, E3_TRI32, E3_SKIN_NAME, E3_SKIN_BIND, E3_SKIN_BONES,
    E3_SKIN_BONE_WEIGHTS, E3_PARTS, E3_MORPHS, E3_MORPH_ID, E3_MORPH_NAME, E3_MORPH_WEIGHT, E3_ATTRIBUTES, E3_VERTICES, E3_VERTICES_DBL, E3_VERTICES_Q, E3_NORMALS,
    0x2030, 0x2031, 0x2032, 0x2033, 0x2034, 0x2035, 0x2036, 0x2037, E3_COLORS, E3_TANGENTS_SIGN,
    E3_TANGENTS_BI, 0x2090, 0x2091, 0x2092, 0x2093, 0x2094, 0x2095, 0x2096, 0x2097, E3_INTERLEAVED,
    E3_NODE_ID, E3_NODE_NAME, E3_SCALING, E3_ORIENTATION, E3_POSITION, E3_SKELETON, E3_MATERIAL_ID,
    E3_MATERIAL_NAME, E3_MATERIAL_GROUP, E3_MATERIAL_FLAGS, 0x8021, 0x8022, 0x8023, 0x8024, 0x8030, 0x8031,
    0x8032, 0x8034, 0x8100, 0x8101, 0x8102, 0x8103, 0x8200, 0x8201, 0x8202, 0x8300, 0x8301, 0x8400, 0x8401,
    E3_TEXTURE_ID, E3_TEXTURE_NAME, E3_TEXTURE_PNG, E3_TEXTURE_JPG, E3_TEXTURE_JPG2K, E3_ANIMATION_NAME,
    E3_ANIMATION_FRAMES, E3_TCB, E3_ROTATION_ORDER, 0xA210, 0xA220, 0xA230, 0xA240, 0xA250, 0xA260, 0xA270,
    0xA280, 0xA290, 0xA2A0, 0xA2B0, 0xA2C0};

static int once_bit(uint16_t t)
{
    for (size_t i = 0; i < sizeof once_types / sizeof once_types[0]; i++)
        if (once_types[i] == t) return (int)i;
    return -1;
}

static mcl_status check_once(e3 *s, uint32_t i)
{
    const e3_blk *b = &s->blk[i];
    int bit = once_bit(b->type);
    if (b->parent == E3_NONE || bit < 0) return MCL_OK;
    uint64_t *seen = s->k->seen[b->parent], m = (uint64_t)1 << (bit % 64);
    if (seen[bit / 64] & m)
        return FAILF(s, MCL_ERR_STRUCTURE, b, "a second block 0x%04X in one block 0x%04X (at most one expected)", b->type,
                     s->blk[b->parent].type);
    seen[bit / 64] |= m;
    return MCL_OK;
}

/* ---- textures and materials ---- */

/* e3d.adoc: texturePNG, textureJPG, textureJPG2K embed those formats */
static bool signature_ok(uint16_t type, const uint8_t *p, uint32_t n)
{
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    static const uint8_t jpg[3] = {0xFF, 0xD8, 0xFF};
    static const uint8_t jp2[12] = {0, 0, 0, 0x0C, 'j', 'P', ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A};
    static const uint8_t j2k[4] = {0xFF, 0x4F, 0xFF, 0x51};
    if (type == E3_TEXTURE_PNG) return n >= 8 && memcmp(p, png, 8) == 0;
    if (type == E3_TEXTURE_JPG) return n >= 3 && memcmp(p, jpg, 3) == 0;
    return (n >= 12 && memcmp(p, jp2, 12) == 0) || (n >= 4 && memcmp(p, j2k, 4) == 0);
}

/* The maps a game shows as the base colour texture. */
static bool is_base_map(uint16_t t) { return t == 0x8200 || t == 0x8300 || t == 0x8400; }

static mcl_status texture_ref(e3 *s, uint32_t i, uint32_t t)
{
    e3_content *k = s->k;
    const e3_blk *map = &s->blk[s->blk[i].parent];
    k->mark[s->blk[i].parent] = 1;
    mat *m = &k->mats[k->aux[s->blk[i].parent]];
    if (is_base_map(map->type) && m->tex == E3_NONE) m->tex = t;
    return MCL_OK;
}

static mcl_status texture_block(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    bool in_map = e3__is_map(s->blk[b->parent].type);
    mcl_status st;
    if (b->type == E3_TEXTURE_ID) {
        uint32_t id;
        if ((st = u32_field(s, b, &id)) != MCL_OK) return st;
        entry *e = e3__id_slot(&k->tex_ids, id);
        if (in_map) {
            /* e3d.adoc, material maps: a reference to a sharable texture (defined before) */
            if (!e->used) return FAILF(s, MCL_ERR_RANGE, b, "textureID %u names no texture defined before it", id);
            return texture_ref(s, i, e->val);
        }
        if (e->used) return FAILF(s, MCL_ERR_STRUCTURE, b, "textureID %u defined twice", id);
        slot_set(e, mix64(id), NULL, 0, k->aux[b->parent]);
        return MCL_OK;
    }
    if (b->type == E3_TEXTURE_NAME) {
        const uint8_t *p = NULL;
        uint32_t n = 0;
        if ((st = string(s, b, &p, &n)) != MCL_OK) return st;
        if (n > TEXTURE_NAME_MAX)
            return FAILF(s, MCL_ERR_LIMIT, b, "textureName of %u bytes (at most %u)", n, TEXTURE_NAME_MAX);
        entry *e = e3__name_slot(&k->tex_names, p, n);
        if (in_map) {
            if (!e->used) return FAILF(s, MCL_ERR_RANGE, b, "textureName names no texture defined before it");
            return texture_ref(s, i, e->val);
        }
        tex *t = &k->texs[k->aux[b->parent]];
        t->name = p;
        t->name_len = n;
        t->has_name = true;
        if (!e->used) slot_set(e, hash_bytes(p, n), p, n, k->aux[b->parent]);
        return MCL_OK;
    }
    if (!signature_ok(b->type, b->p, b->len))
        return FAILF(s, MCL_ERR_VALUE, b, "embedded texture 0x%04X does not start with its format's signature", b->type);
    tex *t = &k->texs[k->aux[b->parent]];
    if (!t->data && b->len) {
        t->data = b->p;
        t->size = b->len;
    }
    return MCL_OK;
}

static mcl_status material_block(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    mat *m = &k->mats[k->aux[b->parent]];
    mcl_status st;
    uint32_t v;
    switch (b->type) {
    case E3_MATERIAL_ID: {
        if ((st = u32_field(s, b, &v)) != MCL_OK) return st;
        entry *e = e3__id_slot(&k->mat_ids, v);
        if (e->used) return FAILF(s, MCL_ERR_STRUCTURE, b, "materialID %u defined twice", v);
        slot_set(e, mix64(v), NULL, 0, k->aux[b->parent]);
        return MCL_OK;
    }
    case E3_MATERIAL_NAME: return string(s, b, &m->name, &m->name_len);
    case E3_MATERIAL_GROUP: case E3_MATERIAL_FLAGS: return u32_field(s, b, &v);
    case 0x8021: case 0x8022: case 0x8023: case 0x8024: {
        float f = 0;
        if ((st = need_size(s, b, 4)) != MCL_OK || (st = floats(s, b, b->p, 1, &f)) != MCL_OK) return st;
        if (b->type == E3_OPACITY) m->opacity = f;
        return MCL_OK;
    }
    default: { /* 0x8030..0x8034: r, g, b */
        float rgb[3];
        if ((st = need_size(s, b, 12)) != MCL_OK || (st = floats(s, b, b->p, 3, rgb)) != MCL_OK) return st;
        if (b->type == E3_DIFFUSE) memcpy(m->diffuse, rgb, sizeof rgb);
        return MCL_OK;
    }
    }
}

/* ---- attributes ---- */

static int attr_slot(uint16_t t)
{
    switch (t) {
    case E3_VERTICES: return A_POS;
    case E3_VERTICES_DBL: return A_POSD;
    case E3_VERTICES_Q: return A_POSQ;
    case E3_NORMALS: return A_NORMAL;
    case E3_COLORS: return A_COLOR;
    case E3_TANGENTS_SIGN: return A_TAN;
    case E3_TANGENTS_BI: return A_TANBI;
    default:
        if (t >= E3_TEXCOORDS && t <= E3_TEXCOORDS + 7) return A_UV + (t - E3_TEXCOORDS);
        if (t >= E3_BONE_WEIGHTS && t <= E3_BONE_WEIGHTS + 7) return A_WEIGHTS + (t - E3_BONE_WEIGHTS);
        return -1; /* custom: size and content unknown */
    }
}

/* Element size in bytes; 0 when implied by the layout (bone weights, custom). */
static uint32_t attr_width(int slot)
{
    static const uint32_t fixed[A_WEIGHTS] = {12, 24, 6, 4, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 8};
    return slot >= 0 && slot < A_WEIGHTS ? fixed[slot] : 0;
}

/* 10_10_10_2: three signed 10-bit fields */
void e3__normal_fields(uint32_t packed, int32_t v[3])
{
    for (int c = 0; c < 3; c++) {
        int32_t x = (int32_t)((packed >> (10 * c)) & 0x3FFu);
        v[c] = x >= 512 ? x - 1024 : x;
    }
}

/* e3d.adoc maps -1..1 to -511..511; the reference packs -1 as -512
 * (docs/formats/e3d.md): unit under either mapping is accepted, zero is a warning. */
static bool normal_ok(uint32_t packed)
{
    int32_t v[3];
    e3__normal_fields(packed, v);
    if (v[0] == 0 && v[1] == 0 && v[2] == 0) return true;
    float spec[3], ref[3];
    for (int c = 0; c < 3; c++) {
        spec[c] = (float)v[c] / 511.0f;
        ref[c] = v[c] < 0 ? (float)v[c] / 512.0f : (float)v[c] / 511.0f;
    }
    return mc_is_unit(spec, 3, UNIT_TOLERANCE) || mc_is_unit(ref, 3, UNIT_TOLERANCE);
}

/* e3d.adoc, boneWeights: 1..255 bone IDs (0: none), 0..1 weights as 0..255.
 * A vertex whose every slot is empty (ID 0, weight 0) is not skinned, and
 * follows its node alone; any bone or weight makes it a weighted vertex,
 * whose weights must sum to 255. */
static mcl_status check_weights(e3 *s, const e3_blk *b, const attr *a, uint32_t vcount)
{
    uint32_t k = a->width / 2;
    for (uint32_t v = 0; v < vcount; v++) {
        const uint8_t *e = a->p + (size_t)v * a->stride;
        uint32_t sum = 0;
        int bones = 0;
        for (uint32_t j = 0; j < k; j++) {
            if (e[j] == 0 && e[k + j] != 0)
                return FAILF(s, MCL_ERR_VALUE, b, "vertex %u: weight %u on bone ID 0 (no bone)", v, e[k + j]);
            sum += e[k + j];
            bones |= e[j] != 0;
        }
        if ((bones || sum) && sum != 255)
            return FAILF(s, MCL_ERR_VALUE, b, "vertex %u: weights sum to %u (expected 255)", v, sum);
    }
    return MCL_OK;
}

static mcl_status check_attr(e3 *s, const e3_blk *b, int slot, const attr *a, uint32_t vcount)
{
    uint32_t floats_per = slot == A_POS ? 3 : (slot >= A_UV && slot < A_UV + 8) ? 2 : 0;
    for (uint32_t v = 0; v < vcount; v++) {
        const uint8_t *e = a->p + (size_t)v * a->stride;
        for (uint32_t f = 0; f < floats_per; f++)
            if (!isfinite(f32_at(e + 4 * f)))
                return FAILF(s, MCL_ERR_VALUE, b, "vertex %u: attribute 0x%04X holds NaN or infinity", v, b->type);
        if (slot == A_POSD)
            for (uint32_t f = 0; f < 3; f++)
                if (!isfinite(f64_at(e + 8 * f)))
                    return FAILF(s, MCL_ERR_VALUE, b, "vertex %u: verticesDbl holds NaN or infinity", v);
        if (slot == A_NORMAL && !normal_ok(mc_le32(e)))
            return FAILF(s, MCL_ERR_VALUE, b, "vertex %u: normal 0x%08X is not unit length", v, mc_le32(e));
    }
    if (slot >= A_WEIGHTS) return check_weights(s, b, a, vcount);
    return MCL_OK;
}

/* e3d.adoc, attributes: one interleaved and/or several attribute blocks,
 * each attribute given once. */
static mcl_status set_attr(e3 *s, const e3_blk *b, mesh *m, int slot, const uint8_t *p, uint32_t stride,
                           uint32_t width)
{
    if (slot < 0) return MCL_OK;
    attr *a = &m->a[slot];
    if (a->present) return FAILF(s, MCL_ERR_STRUCTURE, b, "vertex attribute slot %d given twice for one mesh", slot);
    a->p = p;
    a->stride = stride;
    a->width = width;
    a->off = b->off;
    a->present = true;
    return check_attr(s, b, slot, a, m->vcount);
}

static mcl_status standalone_attr(e3 *s, const e3_blk *b, mesh *m)
{
    int slot = attr_slot(b->type);
    if (slot < 0) return MCL_OK; /* custom attributes: no layout to check */
    uint32_t width = attr_width(slot);
    if (slot >= A_WEIGHTS) {
        /* count vertices x (k bone IDs, k weights): k implied by the size */
        if (m->vcount == 0 ? b->len != 0 : (b->len % m->vcount != 0 || (b->len / m->vcount) % 2 != 0))
            return FAILF(s, MCL_ERR_SIZE, b, "boneWeights payload of %u bytes for %u vertices", b->len, m->vcount);
        width = m->vcount ? b->len / m->vcount : 0;
        if (width / 2 > INFLUENCE_LIMIT)
            return FAILF(s, MCL_ERR_LIMIT, b, "%u bones per vertex (at most %u)", width / 2, INFLUENCE_LIMIT);
    } else if ((uint64_t)m->vcount * width != b->len) {
        return FAILF(s, MCL_ERR_SIZE, b, "attribute 0x%04X payload is %u bytes (expected %u vertices x %u)", b->type,
                     b->len, m->vcount, width);
    }
    return set_attr(s, b, m, slot, b->p, width, width);
}

typedef struct ientry {
    uint16_t type, off;
    uint32_t width;
} ientry;

static int by_offset(const void *a, const void *b)
{
    const ientry *x = a, *y = b;
    return (x->off > y->off) - (x->off < y->off);
}

/* The interleaved list's widths, ranges and overlaps (e3d.adoc,
 * interleaved; boneWeights: "implied from next offset increment"). */
static mcl_status interleaved_layout(e3 *s, const e3_blk *b, ientry *e, uint32_t n, uint32_t stride)
{
    qsort(e, n, sizeof *e, by_offset);
    /* the next larger offset of each entry, in one backward sweep */
    for (uint32_t i = n, next = stride; i-- > 0;) {
        e[i].width = next > e[i].off ? next - e[i].off : 0;
        if (i && e[i - 1].off < e[i].off) next = e[i].off;
    }
    for (uint32_t i = 0; i < n; i++) {
        int slot = attr_slot(e[i].type);
        if (attr_width(slot)) e[i].width = attr_width(slot);
        if ((uint32_t)e[i].off + e[i].width > stride)
            return FAILF(s, MCL_ERR_RANGE, b, "interleaved attribute 0x%04X at offset %u + %u bytes passes the %u-byte vertex",
                         e[i].type, e[i].off, e[i].width, stride);
        /* a custom entry whose implied width is 0 (at the vertex size, or
         * sharing its offset) holds no byte (E3D_INTERLEAVED_RANGE);
         * boneWeights has its own rule below */
        if (e[i].width == 0 && slot < A_WEIGHTS)
            return FAILF(s, MCL_ERR_RANGE, b, "interleaved attribute 0x%04X at offset %u holds no byte of the %u-byte vertex",
                         e[i].type, e[i].off, stride);
        if (i && (uint32_t)e[i - 1].off + e[i - 1].width > e[i].off)
            return FAILF(s, MCL_ERR_STRUCTURE, b, "interleaved attributes 0x%04X and 0x%04X overlap", e[i - 1].type,
                         e[i].type);
        if (slot >= A_WEIGHTS) {
            /* the width comes from the next offset: 0 is two entries at one
             * offset, a list with no bone slot in it (E3D_BONE_WEIGHTS_SIZE) */
            if (e[i].width == 0 || e[i].width % 2)
                return FAILF(s, MCL_ERR_SIZE, b, "boneWeights spans %u bytes (k >= 1 IDs need k weights)", e[i].width);
            if (e[i].width / 2 > INFLUENCE_LIMIT)
                return FAILF(s, MCL_ERR_LIMIT, b, "%u bones per vertex (at most %u)", e[i].width / 2, INFLUENCE_LIMIT);
        }
    }
    return MCL_OK;
}

static mcl_status interleaved(e3 *s, const e3_blk *b, mesh *m)
{
    /* the list: (u16 type, u16 offset)..., u16 0, u16 stride */
    uint32_t n = 0, pos = 0;
    for (;;) {
        if (b->len - pos < 2 || (mc_le16(b->p + pos) != 0 && b->len - pos < 4))
            return FAILF(s, MCL_ERR_SIZE, b, "interleaved list has no 0 terminator and vertex size");
        uint16_t t = mc_le16(b->p + pos);
        if (t == 0) break;
        if (!e3__is_attribute(t) || t == E3_INTERLEAVED)
            return FAILF(s, MCL_ERR_RANGE, b, "interleaved list names type 0x%04X, not a vertex attribute", t);
        pos += 4;
        n++;
    }
    if (b->len - pos < 4) return FAILF(s, MCL_ERR_SIZE, b, "interleaved list has no vertex size after its 0 terminator");
    uint32_t stride = mc_le16(b->p + pos + 2), data = pos + 4;
    ientry *e = mcl__scratch(s->c, n, sizeof *e);
    uint8_t *types = mcl__scratch(s->c, 0x10000 / 8, 1);
    mcl_status st = (e && types) ? MCL_OK : s->c->err->status;
    for (uint32_t i = 0; st == MCL_OK && i < n; i++) {
        e[i].type = mc_le16(b->p + 4 * (size_t)i);
        e[i].off = mc_le16(b->p + 4 * (size_t)i + 2);
        if (types[e[i].type / 8] & (1u << (e[i].type % 8)))
            st = FAILF(s, MCL_ERR_STRUCTURE, b, "interleaved list names 0x%04X twice", e[i].type);
        types[e[i].type / 8] |= (uint8_t)(1u << (e[i].type % 8));
    }
    if (st == MCL_OK) st = interleaved_layout(s, b, e, n, stride);
    if (st == MCL_OK && (uint64_t)m->vcount * stride != (uint64_t)b->len - data)
        st = FAILF(s, MCL_ERR_SIZE, b, "interleaved data is %u bytes (expected %u vertices x %u)", b->len - data,
                   m->vcount, stride);
    for (uint32_t i = 0; st == MCL_OK && i < n; i++)
        st = set_attr(s, b, m, attr_slot(e[i].type), b->p + data + e[i].off, stride, e[i].width);
    if (types) mcl__scratch_free(s->c, types, 0x10000 / 8, 1);
    if (e) mcl__scratch_free(s->c, e, n, sizeof *e);
    return st;
}

/* ---- meshes ---- */

/* meshDuplicateVertices: the spec's u32 count + u16 indices, or the
 * reference code's int32 indices (docs/formats/e3d.md). A payload that fits both
 * is read the way whose indices are in range; ambiguous otherwise. */
static mcl_status dup_vertices(e3 *s, const e3_blk *b, const mesh *m)
{
    uint32_t len = b->len, vc = m->vcount;
    bool spec_fit = len >= 4 && (uint64_t)mc_le32(b->p) * 2 + 4 == len, code_fit = len % 4 == 0;
    bool spec_ok = spec_fit, code_ok = code_fit;
    for (uint32_t i = 4; spec_fit && i + 2 <= len; i += 2)
        if (mc_le16(b->p + i) >= vc) spec_ok = false;
    for (uint32_t i = 0; code_fit && i + 4 <= len; i += 4)
        if (mc_le32(b->p + i) >= vc) code_ok = false; /* negative int32 too */
    if (spec_fit && code_fit && len != 4 && spec_ok == code_ok)
        return FAILF(s, MCL_ERR_STRUCTURE, b, "%u-byte meshDuplicateVertices fits both the spec's and the reference code's layout", len);
    if (!spec_fit && !code_fit)
        return FAILF(s, MCL_ERR_SIZE, b, "meshDuplicateVertices payload of %u bytes fits no layout", len);
    bool spec = spec_fit && (len == 4 || !code_fit || spec_ok);
    if (spec ? !spec_ok : !code_ok)
        return FAILF(s, MCL_ERR_RANGE, b, "meshDuplicateVertices names a vertex not below the vertex count %u", vc);
    return MCL_OK;
}

/* parts: the spec's 12 bytes per part or the reference code's 16 (u64
 * ID); decided like meshDuplicateVertices, against the triangles so far. */
static bool parts_ok(const e3_blk *b, uint32_t size, uint64_t tris)
{
    for (uint32_t i = 0; i + size <= b->len; i += size) {
        uint64_t start = mc_le32(b->p + i + size - 8), count = mc_le32(b->p + i + size - 4);
        if (start + count > tris) return false;
    }
    return true;
}

static mcl_status parts(e3 *s, const e3_blk *b, const mesh *m)
{
    bool spec_fit = b->len % 12 == 0, code_fit = b->len % 16 == 0;
    if (b->len == 0) return MCL_OK;
    if (!spec_fit && !code_fit) return FAILF(s, MCL_ERR_SIZE, b, "parts payload of %u bytes fits no layout", b->len);
    bool spec_ok = spec_fit && parts_ok(b, 12, m->tri_count), code_ok = code_fit && parts_ok(b, 16, m->tri_count);
    if (spec_fit && code_fit && spec_ok == code_ok)
        return FAILF(s, MCL_ERR_STRUCTURE, b, "%u-byte parts fits both the spec's and the reference code's layout", b->len);
    if (!spec_ok && !code_ok)
        return FAILF(s, MCL_ERR_RANGE, b, "a part's triangle range passes the face count %llu",
                     (unsigned long long)m->tri_count);
    return MCL_OK;
}

static mcl_status faces(e3 *s, uint32_t i, mesh *m)
{
    const e3_blk *b = &s->blk[i];
    uint32_t per = b->type == E3_TRI16 ? 6 : 12;
    if (b->len < 4) return FAILF(s, MCL_ERR_SIZE, b, "triFaces payload of %u bytes has no count", b->len);
    uint32_t count = mc_le32(b->p);
    if ((uint64_t)count * per != (uint64_t)b->len - 4)
        return FAILF(s, MCL_ERR_SIZE, b, "triFaces counts %u triangles in %u bytes", count, b->len - 4);
    m->tri[m->ntri_blocks++] = i;
    m->tri_count += count;
    m->has_faces = true;
    return MCL_OK;
}

static mcl_status faces_materials(e3 *s, const e3_blk *b, const mesh *m)
{
    if (b->len == 0 || b->len % 12)
        return FAILF(s, MCL_ERR_SIZE, b, "facesMaterials payload of %u bytes (12-byte entries expected)", b->len);
    for (uint32_t i = 0; i < b->len; i += 12) {
        uint32_t id = mc_le32(b->p + i + 8);
        if (id != 0 && !e3__id_slot(&s->k->mat_ids, id)->used)
            return FAILF(s, MCL_ERR_RANGE, b, "facesMaterials names material %u, not defined before it", id);
        /* the triangles given so far (triFaces come first, docs/formats/e3d.md) */
        if ((uint64_t)mc_le32(b->p + i) + mc_le32(b->p + i + 4) > m->tri_count)
            return FAILF(s, MCL_ERR_RANGE, b, "facesMaterials range [%u, +%u) passes the face count %llu",
                         mc_le32(b->p + i), mc_le32(b->p + i + 4), (unsigned long long)m->tri_count);
    }
    return MCL_OK;
}

static mcl_status skin_bones(e3 *s, const e3_blk *b, skin *sk)
{
    /* u8 count; per bone: u16 name length, name, 16 floats (docs/formats/e3d.md) */
    if (b->len < 1) return FAILF(s, MCL_ERR_SIZE, b, "skinBones has no count");
    uint32_t n = b->p[0], pos = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (b->len - pos < 2 || b->len - pos - 2 < (uint32_t)mc_le16(b->p + pos) + 64u)
            return FAILF(s, MCL_ERR_SIZE, b, "skinBones: bone %u passes the block", i);
        pos += 2u + mc_le16(b->p + pos);
        mcl_status st = floats(s, b, b->p + pos, 16, NULL);
        if (st != MCL_OK) return st;
        pos += 64;
    }
    if (pos != b->len) return FAILF(s, MCL_ERR_SIZE, b, "skinBones: %u bytes after its %u bones", b->len - pos, n);
    sk->nbones = n;
    sk->bones_blk = (uint32_t)(b - s->blk);
    return MCL_OK;
}

static mcl_status order_check(e3 *s, const e3_blk *b, bool ok, const char *what)
{
    if (ok) return MCL_OK;
    return FAILF(s, MCL_ERR_STRUCTURE, b, "block 0x%04X comes before %s in its mesh", b->type, what);
}

static mcl_status mesh_block(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    mesh *m = &k->meshes[k->aux[b->parent]];
    mcl_status st;
    switch (b->type) {
    case E3_MESH_ID: {
        uint32_t id;
        if ((st = u32_field(s, b, &id)) != MCL_OK) return st;
        entry *e = e3__id_slot(&k->mesh_ids, id);
        if (e->used) return FAILF(s, MCL_ERR_STRUCTURE, b, "meshID %u defined twice", id);
        slot_set(e, mix64(id), NULL, 0, k->aux[b->parent]);
        return MCL_OK;
    }
    case E3_MESH_BBOX:
        if ((st = need_size(s, b, 24)) != MCL_OK || (st = floats(s, b, b->p, 6, m->bbox)) != MCL_OK) return st;
        for (int a = 0; a < 3; a++)
            if (m->bbox[a] > m->bbox[a + 3]) return FAILF(s, MCL_ERR_VALUE, b, "meshBBox lo > hi on axis %d", a);
        m->has_bbox = true;
        m->bbox_off = b->off;
        return MCL_OK;
    case E3_ATTRIBUTES: {
        uint32_t count = mc_le32(b->p);
        if (count > VERTEX_LIMIT)
            return FAILF(s, MCL_ERR_LIMIT, b, "attributes count %u vertices (at most %u)", count, VERTEX_LIMIT);
        m->vcount = count;
        m->has_attrs = true;
        k->aux[i] = k->aux[b->parent];
        return MCL_OK;
    }
    case E3_DUP_VERTICES:
        if ((st = order_check(s, b, m->has_attrs, "attributes")) != MCL_OK) return st;
        return dup_vertices(s, b, m);
    case E3_TRI16: case E3_TRI32: return faces(s, i, m);
    case E3_FACES_MATERIALS:
        if ((st = order_check(s, b, m->has_faces, "triFaces")) != MCL_OK) return st;
        return faces_materials(s, b, m);
    case E3_PARTS:
        if ((st = order_check(s, b, m->has_faces, "triFaces")) != MCL_OK) return st;
        return parts(s, b, m);
    case E3_SKIN:
        if ((st = order_check(s, b, m->has_attrs, "attributes")) != MCL_OK) return st;
        k->aux[i] = k->n[O_SKIN];
        k->skins[k->n[O_SKIN]].mesh = k->aux[b->parent];
        k->skins[k->n[O_SKIN]].bones_blk = E3_NONE;
        mcl__identity(k->skins[k->n[O_SKIN]++].bind);
        return MCL_OK;
    default: return MCL_OK; /* morphs (docs/formats/e3d.md): not part of the spec's model */
    }
}

static mcl_status skin_block(e3 *s, uint32_t i)
{
    const e3_blk *b = &s->blk[i];
    skin *sk = &s->k->skins[s->k->aux[b->parent]];
    const uint8_t *p = NULL;
    uint32_t n = 0;
    mcl_status st;
    switch (b->type) {
    case E3_SKIN_NAME: return string(s, b, &p, &n);
    case E3_SKIN_BIND:
        if ((st = need_size(s, b, 64)) != MCL_OK) return st;
        return floats(s, b, b->p, 16, sk->bind);
    case E3_SKIN_BONES: return skin_bones(s, b, sk);
    default: /* skinBoneWeights: byte 0..7 */
        if ((st = need_size(s, b, 1)) != MCL_OK) return st;
        if (b->p[0] > 7) return FAILF(s, MCL_ERR_RANGE, b, "skinBoneWeights names weight set %u (0..7)", b->p[0]);
        sk->set = b->p[0];
        return MCL_OK;
    }
}

/* ---- nodes ---- */

static mcl_status node_block(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    node *nd = &k->nodes[k->aux[b->parent]];
    mcl_status st;
    switch (b->type) {
    case E3_NODE_ID: {
        uint32_t id;
        if ((st = u32_field(s, b, &id)) != MCL_OK) return st;
        entry *e = e3__id_slot(&k->node_ids, id);
        if (e->used) return FAILF(s, MCL_ERR_STRUCTURE, b, "nodeID %u defined twice", id);
        slot_set(e, mix64(id), NULL, 0, k->aux[b->parent]);
        return MCL_OK;
    }
    case E3_NODE_NAME: {
        if ((st = string(s, b, &nd->name, &nd->name_len)) != MCL_OK) return st;
        entry *e = e3__name_slot(&k->node_names, nd->name, nd->name_len);
        if (!e->used) slot_set(e, hash_bytes(nd->name, nd->name_len), nd->name, nd->name_len, k->aux[b->parent]);
        return MCL_OK;
    }
    case E3_MESH_ID: { /* a reference (e3d.adoc, meshID: refers to, within meshNode) */
        uint32_t id;
        if ((st = u32_field(s, b, &id)) != MCL_OK) return st;
        entry *e = e3__id_slot(&k->mesh_ids, id);
        if (!e->used) return FAILF(s, MCL_ERR_RANGE, b, "meshNode names mesh %u, not defined before it", id);
        nd->mesh = e->val;
        return MCL_OK;
    }
    case E3_SCALING:
        if ((st = need_size(s, b, 12)) != MCL_OK) return st;
        return floats(s, b, b->p, 3, nd->scale);
    case E3_ORIENTATION: {
        if ((st = need_size(s, b, 32)) != MCL_OK || (st = doubles(s, b, 4, nd->q)) != MCL_OK) return st;
        double l = sqrt(nd->q[0] * nd->q[0] + nd->q[1] * nd->q[1] + nd->q[2] * nd->q[2] + nd->q[3] * nd->q[3]);
        if (fabs(l - 1.0) > QUATERNION_TOLERANCE)
            return FAILF(s, MCL_ERR_VALUE, b, "orientation quaternion of length %g (expected 1)", l);
        return MCL_OK;
    }
    case E3_POSITION:
        if ((st = need_size(s, b, 24)) != MCL_OK) return st;
        return doubles(s, b, 3, nd->t);
    default: /* skeleton: u32 root node ID, then a string (e3d.adoc) */
        if (b->len < 6 || mc_le16(b->p + 4) != b->len - 6u)
            return FAILF(s, MCL_ERR_SIZE, b, "skeleton payload of %u bytes is not a u32 and a string", b->len);
        return MCL_OK;
    }
}

/* ---- animations ---- */

static bool frames_valid(const uint8_t *f, uint32_t n, uint8_t loop, const anim *a)
{
    if (loop > 1) return false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = mc_le32(f + 4 * (size_t)i);
        if (i && v <= mc_le32(f + 4 * (size_t)i - 4)) return false;
        if (a->has_frames && (v < a->frames[0] || v > a->frames[1])) return false;
    }
    return true;
}

/* animationTrack: u32 keys, then the frames and the loop flag in the
 * spec's order (frames first) or the reference code's (flag first,
 * docs/formats/e3d.md). The reading that is valid (flag 0/1, frames increasing
 * and, when animationFrames came first, within them) wins; two valid
 * different readings are ambiguous; with none, the spec's is judged. */
static mcl_status track_header(e3 *s, uint32_t i, track *t, const anim *a)
{
    const e3_blk *b = &s->blk[i];
    uint32_t n = mc_le32(b->p); /* the framing pass checked 4 + 4n + 1 <= len */
    const uint8_t *spec_f = b->p + 4, *code_f = b->p + 5;
    uint8_t spec_loop = b->p[4 + 4 * (size_t)n], code_loop = b->p[4];
    bool spec_ok = frames_valid(spec_f, n, spec_loop, a), code_ok = frames_valid(code_f, n, code_loop, a);
    bool same = spec_loop == code_loop && memcmp(spec_f, code_f, 4 * (size_t)n) == 0;
    if (spec_ok && code_ok && !same)
        return FAILF(s, MCL_ERR_STRUCTURE, b, "animationTrack frames read as valid with the loop flag after them and before them");
    bool code = code_ok && !spec_ok;
    const uint8_t *f = code ? code_f : spec_f;
    uint8_t loop = code ? code_loop : spec_loop;
    if (loop > 1) return FAILF(s, MCL_ERR_RANGE, b, "animationTrack loop flag %u (expected 0 or 1)", loop);
    for (uint32_t k = 1; k < n; k++)
        if (mc_le32(f + 4 * (size_t)k) <= mc_le32(f + 4 * (size_t)k - 4))
            return FAILF(s, MCL_ERR_VALUE, b, "animationTrack key %u: frame %u follows %u (expected increasing)", k,
                         mc_le32(f + 4 * (size_t)k), mc_le32(f + 4 * (size_t)k - 4));
    t->keys = n;
    t->frames = f;
    return MCL_OK;
}

static uint32_t ftk_width(uint16_t t)
{
    switch (t) {
    case 0xA210: case 0xA220: case 0xA2B0: return 12;
    case 0xA230: return 16;
    case 0xA2C0: return 1;
    case E3_FTK_MORPH: return 0; /* docs/formats/e3d.md: int morph index + float per key */
    default: return 4;           /* one float per key */
    }
}

static int ftk_kind(uint16_t t)
{
    switch (t) {
    case E3_FTK_POSITION: return K_POS;
    case E3_FTK_SCALING: return K_SCALE;
    case E3_FTK_ROTATION: return K_ROT;
    case E3_FTK_YAW: return K_YAW;
    case E3_FTK_PITCH: return K_PITCH;
    case E3_FTK_ROLL: return K_ROLL;
    default: return -1;
    }
}

static mcl_status track_block(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    track *t = &k->tracks[k->aux[b->parent]];
    mcl_status st;
    switch (b->type) {
    case E3_NODE_ID:
        t->has_id = true;
        return u32_field(s, b, &t->node_id);
    case E3_NODE_NAME:
        t->has_name = true;
        return string(s, b, &t->name, &t->name_len);
    case E3_ROTATION_ORDER: /* one byte (a u32 is accepted as well) */
        if (b->len != 1 && b->len != 4) return need_size(s, b, 1);
        t->order = b->len == 1 ? b->p[0] : mc_le32(b->p);
        if (t->order > 5) return FAILF(s, MCL_ERR_RANGE, b, "ftkRotationOrder %u (0..5)", t->order);
        return MCL_OK;
    case E3_TCB:
        if ((uint64_t)t->keys * 20 != b->len)
            return FAILF(s, MCL_ERR_SIZE, b, "frameTCBEase of %u bytes for %u keys x 20", b->len, t->keys);
        return floats(s, b, b->p, t->keys * 5, NULL);
    default: {
        uint32_t w = ftk_width(b->type);
        if (w == 0) {
            if ((uint64_t)t->keys * 4 + 4 != b->len)
                return FAILF(s, MCL_ERR_SIZE, b, "ftkMorph of %u bytes for a morph index and %u keys", b->len, t->keys);
            return floats(s, b, b->p + 4, t->keys, NULL);
        }
        if ((uint64_t)t->keys * w != b->len)
            return FAILF(s, MCL_ERR_SIZE, b, "key track 0x%04X of %u bytes for %u keys x %u", b->type, b->len, t->keys, w);
        if (w == 1) return MCL_OK;
        if ((st = floats(s, b, b->p, b->len / 4, NULL)) != MCL_OK) return st;
        if (b->type == E3_FTK_ROTATION)
            for (uint32_t key = 0; key < t->keys; key++) {
                float q[4] = {0, 0, 0, 0};
                floats(s, b, b->p + 16 * (size_t)key, 4, q);
                if (!mc_is_unit(q, 4, QUATERNION_TOLERANCE))
                    return FAILF(s, MCL_ERR_VALUE, b, "ftkRotation key %u is not a unit quaternion", key);
            }
        int kind = ftk_kind(b->type);
        if (kind >= 0) t->ftk[kind] = i;
        return MCL_OK;
    }
    }
}

static mcl_status animation_block(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    uint32_t ai = k->aux[b->parent];
    anim *a = &k->anims[ai];
    mcl_status st;
    if (b->type == E3_ANIMATION_NAME) return string(s, b, &a->name, &a->name_len);
    if (b->type == E3_ANIMATION_FRAMES) {
        if ((st = need_size(s, b, 12)) != MCL_OK) return st;
        for (int f = 0; f < 3; f++) a->frames[f] = mc_le32(b->p + 4 * f);
        /* e3d.adoc, animationFrames: start, end and default frame */
        if (a->frames[0] > a->frames[2] || a->frames[2] > a->frames[1])
            return FAILF(s, MCL_ERR_VALUE, b, "animationFrames start %u, end %u, default %u (expected start <= default <= end)",
                         a->frames[0], a->frames[1], a->frames[2]);
        a->has_frames = true;
        return MCL_OK;
    }
    /* a track */
    uint32_t ti = k->n[O_TRACK]++;
    track *t = &k->tracks[ti];
    k->aux[i] = ti;
    t->anim = ai;
    t->blk = i;
    for (int f = 0; f < K_COUNT; f++) t->ftk[f] = E3_NONE;
    t->order = 4; /* e3d.adoc: default zxy */
    return track_header(s, i, t, a);
}

/* ---- the content pass ---- */

static int section_rank(uint16_t t)
{
    switch (t) {
    case E3_TEXTURES: return 1;
    case E3_MATERIALS: return 2;
    case E3_MESHES: return 3;
    case E3_NODES: return 4;
    default: return 5;
    }
}

static uint32_t new_object(e3 *s, uint32_t i, int kind)
{
    e3_content *k = s->k;
    uint32_t o = k->n[kind]++;
    k->aux[i] = o;
    return o;
}

static mcl_status visit(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    uint16_t pt = b->parent == E3_NONE ? 0 : s->blk[b->parent].type;
    mcl_status st = check_once(s, i);
    if (st != MCL_OK) return st;
    if (pt == 0) {
        /* docs/formats/e3d.md: textures, materials, meshes, nodes, animations: no forward references */
        int r = section_rank(b->type);
        if (r < k->rank) return FAILF(s, MCL_ERR_STRUCTURE, b, "section 0x%04X after a later section", b->type);
        k->rank = r;
        return MCL_OK;
    }
    switch (b->type) {
    case E3_TEXTURE: new_object(s, i, O_TEX); return MCL_OK;
    case E3_MATERIAL: {
        mat *m = &k->mats[new_object(s, i, O_MAT)];
        m->diffuse[0] = m->diffuse[1] = m->diffuse[2] = m->opacity = 1.0f;
        m->tex = E3_NONE;
        return MCL_OK;
    }
    case E3_MESH: {
        mesh *m = &k->meshes[new_object(s, i, O_MESH)];
        m->blk = i;
        m->node = E3_NONE;
        return MCL_OK;
    }
    case E3_MESH_NODE: {
        node *n = &k->nodes[new_object(s, i, O_NODE)];
        n->parent = pt == E3_MESH_NODE ? (int32_t)k->aux[b->parent] : -1;
        n->mesh = E3_NONE;
        n->scale[0] = n->scale[1] = n->scale[2] = 1.0f;
        n->q[0] = 1.0;
        return MCL_OK;
    }
    case E3_ANIMATION: new_object(s, i, O_ANIM); return MCL_OK;
    default: break;
    }
    if (pt == E3_TEXTURE || e3__is_map(pt)) return texture_block(s, i);
    if (pt == E3_MATERIAL) {
        if (e3__is_map(b->type)) {
            k->aux[i] = k->aux[b->parent];
            return MCL_OK;
        }
        return material_block(s, i);
    }
    if (pt == E3_MESH) return mesh_block(s, i);
    if (pt == E3_ATTRIBUTES) {
        mesh *m = &k->meshes[k->aux[b->parent]];
        return b->type == E3_INTERLEAVED ? interleaved(s, b, m) : standalone_attr(s, b, m);
    }
    if (pt == E3_SKIN) return skin_block(s, i);
    if (pt == E3_MESH_NODE) return node_block(s, i);
    if (pt == E3_ANIMATION) return animation_block(s, i);
    if (pt == E3_TRACK) return track_block(s, i);
    return MCL_OK; /* morph internals */
}

static mcl_status alloc_content(e3 *s)
{
    e3_content *k = mcl__scratch(s->c, 1, sizeof *k);
    if (!k) return s->c->err->status;
    s->k = k;
    uint32_t count[7] = {0};
    for (uint32_t i = 0; i < s->nblk; i++) {
        switch (s->blk[i].type) {
        case E3_MESH: count[O_MESH]++; break;
        case E3_SKIN: count[O_SKIN]++; break;
        case E3_MESH_NODE: count[O_NODE]++; break;
        case E3_MATERIAL: count[O_MAT]++; break;
        case E3_TEXTURE: count[O_TEX]++; break;
        case E3_ANIMATION: count[O_ANIM]++; break;
        case E3_TRACK: count[O_TRACK]++; break;
        default: break;
        }
    }
    void **arrays[7] = {(void **)&k->meshes, (void **)&k->skins, (void **)&k->nodes, (void **)&k->mats,
                        (void **)&k->texs, (void **)&k->anims, (void **)&k->tracks};
    for (int o = 0; o < 7; o++) {
        *arrays[o] = mcl__scratch(s->c, count[o], obj_size[o]);
        if (!*arrays[o]) return s->c->err->status;
        k->cap[o] = count[o];
    }
    k->aux = mcl__scratch(s->c, s->nblk, sizeof *k->aux);
    k->seen = mcl__scratch(s->c, s->nblk, sizeof *k->seen);
    k->mark = mcl__scratch(s->c, s->nblk, 1);
    if (!k->aux || !k->seen || !k->mark) return s->c->err->status;
    if (!map_init(s, &k->mesh_ids, count[O_MESH]) || !map_init(s, &k->node_ids, count[O_NODE]) ||
        !map_init(s, &k->node_names, count[O_NODE]) || !map_init(s, &k->mat_ids, count[O_MAT]) ||
        !map_init(s, &k->tex_ids, count[O_TEX]) || !map_init(s, &k->tex_names, count[O_TEX]))
        return s->c->err->status;
    return MCL_OK;
}

void e3__content_release(e3 *s)
{
    e3_content *k = s->k;
    if (!k) return;
    void *arrays[7] = {k->meshes, k->skins, k->nodes, k->mats, k->texs, k->anims, k->tracks};
    for (int o = 0; o < 7; o++)
        if (arrays[o]) mcl__scratch_free(s->c, arrays[o], k->cap[o], obj_size[o]);
    if (k->aux) mcl__scratch_free(s->c, k->aux, s->nblk, sizeof *k->aux);
    if (k->seen) mcl__scratch_free(s->c, k->seen, s->nblk, sizeof *k->seen);
    if (k->mark) mcl__scratch_free(s->c, k->mark, s->nblk, 1);
    hmap *maps[6] = {&k->mesh_ids, &k->node_ids, &k->node_names, &k->mat_ids, &k->tex_ids, &k->tex_names};
    for (int m = 0; m < 6; m++) map_free(s, maps[m]);
    mcl__scratch_free(s->c, k, 1, sizeof *k);
    s->k = NULL;
}

/* ---- checks that need a whole mesh, or the nodes after the meshes ---- */

float e3__vertex_coord(const mesh *m, uint32_t v, int c)
{
    const attr *a = m->a[A_POS].present ? &m->a[A_POS] : &m->a[A_POSD];
    const uint8_t *e = a->p + (size_t)v * a->stride;
    return m->a[A_POS].present ? f32_at(e + 4 * c) : (float)f64_at(e + 8 * c);
}

static mcl_status mesh_post(e3 *s, mesh *m)
{
    /* e3d.adoc, triFaces: indices into the attributes */
    for (uint32_t t = 0; t < m->ntri_blocks; t++) {
        const e3_blk *b = &s->blk[m->tri[t]];
        uint32_t per = b->type == E3_TRI16 ? 2 : 4, n = (b->len - 4) / per;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t v = per == 2 ? mc_le16(b->p + 4 + 2 * (size_t)j) : mc_le32(b->p + 4 + 4 * (size_t)j);
            if (v >= m->vcount)
                return FAILF(s, MCL_ERR_RANGE, b, "triangle index %u (expected < vertex count %u)", v, m->vcount);
        }
    }
    /* e3d.adoc, meshBBox: the mesh's box, within the catalog's tolerance for
     * E3D_BBOX_EXCLUDES_VERTEX: 1e-5 x the box's largest magnitude on that
     * axis (at least 1e-5), on both sides; verticesDbl compared as doubles */
    if (m->has_bbox && (m->a[A_POS].present || m->a[A_POSD].present))
        for (int c = 0; c < 3; c++) {
            double lo = m->bbox[c], hi = m->bbox[c + 3];
            double tol = 1e-5 * fmax(1.0, fmax(fabs(lo), fabs(hi)));
            for (uint32_t v = 0; v < m->vcount; v++) {
                const attr *a = m->a[A_POS].present ? &m->a[A_POS] : &m->a[A_POSD];
                const uint8_t *e = a->p + (size_t)v * a->stride;
                double x = m->a[A_POS].present ? (double)f32_at(e + 4 * c) : f64_at(e + 8 * c);
                if (x < lo - tol || x > hi + tol)
                    return mcl__fail(s->c, MCL_ERR_VALUE, m->bbox_off, "vertex %u lies outside meshBBox on axis %d", v, c);
            }
        }
    return MCL_OK;
}

/* e3d.adoc, boneWeights and skinBoneWeights: a weight set's bone IDs
 * index the bones of the skin using that set (none: 0 bones); several
 * skins may share a set, the largest bounds the IDs. One pass over the
 * skins, then one over each mesh's weights: linear. */
static void skin_sets(e3_content *k)
{
    for (uint32_t j = 0; j < k->n[O_SKIN]; j++) {
        const skin *sk = &k->skins[j];
        mesh *m = &k->meshes[sk->mesh];
        if (sk->nbones > m->set_bones[sk->set]) {
            m->set_bones[sk->set] = sk->nbones;
            m->set_skin[sk->set] = j;
        }
    }
}

static mcl_status bone_ids(e3 *s, const mesh *m)
{
    for (int set = 0; set < 8; set++) {
        const attr *a = &m->a[A_WEIGHTS + set];
        uint32_t nb = m->set_bones[set];
        for (uint32_t v = 0; a->present && v < m->vcount; v++)
            for (uint32_t j = 0; j < a->width / 2; j++)
                if (a->p[(size_t)v * a->stride + j] > nb)
                    return mcl__fail(s->c, MCL_ERR_RANGE, a->off, "vertex %u: bone ID %u in weight set %d of a %u-bone skin", v,
                                     a->p[(size_t)v * a->stride + j], set, nb);
    }
    return MCL_OK;
}

static mcl_status block_post(e3 *s, uint32_t i)
{
    e3_content *k = s->k;
    const e3_blk *b = &s->blk[i];
    if (e3__is_map(b->type) && !k->mark[i])
        return FAILF(s, MCL_ERR_STRUCTURE, b, "material map 0x%04X holds neither textureID nor textureName", b->type);
    return MCL_OK;
}

/* The node a skin bone or track names (e3d.adoc: nodeName referencing a node). */
static mcl_status skin_post(e3 *s, const skin *sk)
{
    if (sk->bones_blk == E3_NONE) return MCL_OK;
    const e3_blk *b = &s->blk[sk->bones_blk];
    for (uint32_t i = 0, pos = 1; i < sk->nbones; i++) {
        uint32_t n = mc_le16(b->p + pos);
        if (!e3__name_slot(&s->k->node_names, b->p + pos + 2, n)->used)
            return FAILF(s, MCL_ERR_RANGE, b, "skin bone %u names no node", i);
        pos += 2 + n + 64;
    }
    return MCL_OK;
}

static mcl_status track_post(e3 *s, const track *t)
{
    const e3_blk *b = &s->blk[t->blk];
    if (!t->has_id && !t->has_name)
        return FAILF(s, MCL_ERR_STRUCTURE, b, "animationTrack has neither nodeID nor nodeName");
    if (t->has_id && !e3__id_slot(&s->k->node_ids, t->node_id)->used)
        return FAILF(s, MCL_ERR_RANGE, b, "animationTrack names node ID %u, which no node has", t->node_id);
    if (t->has_name && !e3__name_slot(&s->k->node_names, t->name, t->name_len)->used)
        return FAILF(s, MCL_ERR_RANGE, b, "animationTrack names a node name no node has");
    return MCL_OK;
}

mcl_status e3__content(e3 *s)
{
    mcl_status st = alloc_content(s);
    for (uint32_t i = 0; st == MCL_OK && i < s->nblk; i++) st = visit(s, i);
    for (uint32_t i = 0; st == MCL_OK && i < s->nblk; i++) st = block_post(s, i);
    e3_content *k = s->k;
    for (uint32_t i = 0; st == MCL_OK && i < k->n[O_MESH]; i++) st = mesh_post(s, &k->meshes[i]);
    if (st == MCL_OK) skin_sets(k);
    for (uint32_t i = 0; st == MCL_OK && i < k->n[O_MESH]; i++) st = bone_ids(s, &k->meshes[i]);
    for (uint32_t i = 0; st == MCL_OK && i < k->n[O_SKIN]; i++) st = skin_post(s, &k->skins[i]);
    for (uint32_t i = 0; st == MCL_OK && i < k->n[O_TRACK]; i++) st = track_post(s, &k->tracks[i]);
    return st;
}
