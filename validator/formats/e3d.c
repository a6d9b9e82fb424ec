/*
 * E3D (e3d.adoc of github.com/ecere/E3D-spec, docs/formats/e3d.md): a tree of
 * typed, length-prefixed blocks (u16 type, u32 length including the 6-byte
 * header), any run of which may sit inside an LZMA block.
 *
 * This file walks the tree with an explicit stack of frames (one per open
 * container, one per decoded LZMA payload), checks framing (length >= 6,
 * fit inside the parent, exact tiling), nesting, order and the version
 * block, and decodes LZMA blocks with the LZMA SDK. e3d_blocks.c checks
 * each block type's payload and the semantics.
 *
 * LZMA (docs/formats/e3d.md): u32 uncompressed size, 5 property bytes, a raw LZMA1
 * stream without end marker. The decoded bytes are walked as children of
 * the LZMA block's parent. The output grows as the decoder produces it
 * (never allocated from the declared size alone), and the LZMA SDK decodes
 * straight into it, so no dictionary of the declared size is allocated
 * either. Limits: c->opt->max_decompressed_bytes (all LZMA blocks of a
 * file), c->opt->max_depth (block nesting, counted through LZMA hops) and
 * E3D_MAX_LZMA_DEPTH (LZMA blocks inside LZMA blocks).
 *
 * Issues inside decoded data: the instance offset is the file offset of
 * the outermost LZMA block; the payload offset is the offset inside the
 * innermost decoded payload; the path names every hop as
 * "/lzma@0x<offset of the LZMA block in the buffer that holds it>", e.g.
 * /lzma@0xc/meshes/mesh/0/attributes/interleaved. A block that may repeat
 * in its parent is named by its type and its index among the blocks of that
 * type (mesh/0, as every format names list elements: docs/INSPECT.md).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "LzmaDec.h"
#include "e3d_internal.h"
#include "mc_struct.h"
#include "mc_format.h"
#include "mc_lzma_alloc.h"

enum {
    T_VERSION = 0x0001, T_LZMA = 0x0010, T_TEXTURES = 0x9000, T_MATERIALS = 0x8000,
    T_MESHES = 0x1000, T_NODES = 0x3000, T_ANIMATIONS = 0xA000
};

#define MAPS (IN(C_MATERIAL))
#define LEAF(t, n, p, once, fixed) {t, n, p, K_LEAF, C_COUNT, once, 0, fixed}
#define BOX(t, n, p, k, once) {t, n, p, K_CONTAINER, k, once, 0, 0}

/* Every type of e3d.adoc's table plus the reference code's morph blocks;
 * parents from docs/formats/e3d.md "Nesting". Sorted by type: e3d_find bisects. */
const e3d_type e3d_types[] = {
    {T_VERSION, "version", IN(C_TOP), K_VERSION, C_COUNT, 1, 0, 6},
    {T_LZMA, "lzma", IN_ANY, K_LZMA, C_COUNT, 0, 0, 0},
    {T_MESHES, "meshes", IN(C_TOP), K_CONTAINER, C_MESHES, 0, 3, 0},
    BOX(0x1010, "mesh", IN(C_MESHES), C_MESH, 0),
    LEAF(0x1020, "meshID", IN(C_MESH) | IN(C_NODE), 1, 4),
    LEAF(0x1021, "meshBBox", IN(C_MESH), 1, 24),
    LEAF(0x1022, "meshDuplicateVertices", IN(C_MESH), 1, 0),
    LEAF(0x1030, "triFaces16", IN(C_MESH), 1, 0),
    LEAF(0x1031, "triFaces32", IN(C_MESH), 1, 0),
    LEAF(0x1040, "facesMaterials", IN(C_MESH), 0, 0),
    BOX(0x1050, "skin", IN(C_MESH), C_SKIN, 0),
    LEAF(0x1051, "skinName", IN(C_SKIN), 1, 0),
    LEAF(0x1052, "skinBindMatrix", IN(C_SKIN), 1, 64),
    LEAF(0x1053, "skinBones", IN(C_SKIN), 1, 0),
    LEAF(0x1054, "skinBoneWeights", IN(C_SKIN), 1, 1),
    LEAF(0x1060, "parts", IN(C_MESH), 1, 0),
    BOX(0x1070, "morphs", IN(C_MESH), C_MORPHS, 1),
    BOX(0x1071, "morph", IN(C_MORPHS), C_MORPH, 0),
    LEAF(0x1072, "morphID", IN(C_MORPH), 1, 4),
    LEAF(0x1073, "morphName", IN(C_MORPH), 1, 0),
    LEAF(0x1074, "morphWeight", IN(C_MORPH), 1, 4),
    BOX(0x2000, "attributes", IN(C_MESH), C_ATTRS, 1),
    LEAF(0x2010, "vertices", IN(C_ATTRS), 1, 0),
    LEAF(0x2011, "verticesDbl", IN(C_ATTRS), 1, 0),
    LEAF(0x2018, "verticesQ", IN(C_ATTRS), 1, 0),
    LEAF(0x2020, "normals", IN(C_ATTRS), 1, 0),
    LEAF(0x2030, "texCoords", IN(C_ATTRS), 1, 0),
    LEAF(0x2031, "texCoords2", IN(C_ATTRS), 1, 0),
    LEAF(0x2032, "texCoords3", IN(C_ATTRS), 1, 0),
    LEAF(0x2033, "texCoords4", IN(C_ATTRS), 1, 0),
    LEAF(0x2034, "texCoords5", IN(C_ATTRS), 1, 0),
    LEAF(0x2035, "texCoords6", IN(C_ATTRS), 1, 0),
    LEAF(0x2036, "texCoords7", IN(C_ATTRS), 1, 0),
    LEAF(0x2037, "texCoords8", IN(C_ATTRS), 1, 0),
    LEAF(0x2070, "colors", IN(C_ATTRS), 1, 0),
    LEAF(0x2080, "tangentsSign", IN(C_ATTRS), 1, 0),
    LEAF(0x2081, "tangentsBi", IN(C_ATTRS), 1, 0),
    LEAF(0x2090, "boneWeights", IN(C_ATTRS), 1, 0),
    LEAF(0x2091, "boneWeights2", IN(C_ATTRS), 1, 0),
    LEAF(0x2092, "boneWeights3", IN(C_ATTRS), 1, 0),
    LEAF(0x2093, "boneWeights4", IN(C_ATTRS), 1, 0),
    LEAF(0x2094, "boneWeights5", IN(C_ATTRS), 1, 0),
    LEAF(0x2095, "boneWeights6", IN(C_ATTRS), 1, 0),
    LEAF(0x2096, "boneWeights7", IN(C_ATTRS), 1, 0),
    LEAF(0x2097, "boneWeights8", IN(C_ATTRS), 1, 0),
    LEAF(0x2800, "interleaved", IN(C_ATTRS), 1, 0),
    {T_NODES, "nodes", IN(C_TOP), K_CONTAINER, C_NODES, 0, 4, 0},
    BOX(0x3010, "meshNode", IN(C_NODES) | IN(C_NODE), C_NODE, 0),
    {0x3011, "cameraNode", IN(C_NODES) | IN(C_NODE), K_RESERVED, C_COUNT, 0, 0, 0},
    {0x3012, "lightNode", IN(C_NODES) | IN(C_NODE), K_RESERVED, C_COUNT, 0, 0, 0},
    LEAF(0x3020, "nodeID", IN(C_NODE) | IN(C_TRACK), 1, 4),
    LEAF(0x3021, "nodeName", IN(C_NODE) | IN(C_TRACK), 1, 0),
    LEAF(0x3030, "scaling", IN(C_NODE), 1, 12),
    LEAF(0x3031, "orientation", IN(C_NODE), 1, 32),
    LEAF(0x3032, "position", IN(C_NODE), 1, 24),
    LEAF(0x3040, "skeleton", IN(C_NODE), 1, 0),
    {T_MATERIALS, "materials", IN(C_TOP), K_CONTAINER, C_MATERIALS, 0, 2, 0},
    BOX(0x8010, "material", IN(C_MATERIALS), C_MATERIAL, 0),
    LEAF(0x8011, "materialID", IN(C_MATERIAL), 1, 4),
    LEAF(0x8012, "materialName", IN(C_MATERIAL), 1, 0),
    LEAF(0x8013, "materialGroup", IN(C_MATERIAL), 1, 4),
    LEAF(0x8020, "materialFlags", IN(C_MATERIAL), 1, 4),
    LEAF(0x8021, "opacity", IN(C_MATERIAL), 1, 4),
    LEAF(0x8022, "refractionRelIndex", IN(C_MATERIAL), 1, 4),
    LEAF(0x8023, "reflectivity", IN(C_MATERIAL), 1, 4),
    LEAF(0x8024, "phongShininess", IN(C_MATERIAL), 1, 4),
    LEAF(0x8030, "diffuse", IN(C_MATERIAL), 1, 12),
    LEAF(0x8031, "specular", IN(C_MATERIAL), 1, 12),
    LEAF(0x8032, "emissive", IN(C_MATERIAL), 1, 12),
    LEAF(0x8034, "ambient", IN(C_MATERIAL), 1, 12),
    BOX(0x8100, "emissiveMap", MAPS, C_MAP, 1),
    BOX(0x8101, "normalMap", MAPS, C_MAP, 1),
    BOX(0x8102, "heightMap", MAPS, C_MAP, 1),
    BOX(0x8103, "ambientOcclusionMap", MAPS, C_MAP, 1),
    BOX(0x8200, "phongDiffuseMap", MAPS, C_MAP, 1),
    BOX(0x8201, "phongSpecularMap", MAPS, C_MAP, 1),
    BOX(0x8202, "phongAmbientMap", MAPS, C_MAP, 1),
    BOX(0x8300, "pbrRMAlbedo", MAPS, C_MAP, 1),
    BOX(0x8301, "pbrRMRoughnessMetalness", MAPS, C_MAP, 1),
    BOX(0x8400, "pbrSpecDiffuseMap", MAPS, C_MAP, 1),
    BOX(0x8401, "pbrSpecSpecularGlossMap", MAPS, C_MAP, 1),
    {T_TEXTURES, "textures", IN(C_TOP), K_CONTAINER, C_TEXTURES, 0, 1, 0},
    BOX(0x9001, "texture", IN(C_TEXTURES), C_TEXTURE, 0),
    LEAF(0x9002, "textureID", IN(C_TEXTURE) | IN(C_MAP), 1, 4),
    LEAF(0x9003, "textureName", IN(C_TEXTURE) | IN(C_MAP), 1, 0),
    LEAF(0x9101, "texturePNG", IN(C_TEXTURE), 1, 0),
    LEAF(0x9102, "textureJPG", IN(C_TEXTURE), 1, 0),
    LEAF(0x9103, "textureJPG2K", IN(C_TEXTURE), 1, 0),
    {T_ANIMATIONS, "animations", IN(C_TOP), K_CONTAINER, C_ANIMS, 0, 5, 0},
    BOX(0xA010, "animation", IN(C_ANIMS), C_ANIM, 0),
    LEAF(0xA021, "animationName", IN(C_ANIM), 1, 0),
    LEAF(0xA022, "animationFrames", IN(C_ANIM), 1, 12),
    BOX(0xA100, "animationTrack", IN(C_ANIM), C_TRACK, 0),
    LEAF(0xA110, "frameTCBEase", IN(C_TRACK), 1, 0),
    LEAF(0xA120, "ftkRotationOrder", IN(C_TRACK), 1, 0),
    LEAF(0xA210, "ftkPosition", IN(C_TRACK), 1, 0),
    LEAF(0xA220, "ftkScaling", IN(C_TRACK), 1, 0),
    LEAF(0xA230, "ftkRotation", IN(C_TRACK), 1, 0),
    LEAF(0xA240, "ftkRotationYaw", IN(C_TRACK), 1, 0),
    LEAF(0xA250, "ftkRotationPitch", IN(C_TRACK), 1, 0),
    LEAF(0xA260, "ftkRotationRoll", IN(C_TRACK), 1, 0),
    LEAF(0xA270, "ftkCameraFieldOfView", IN(C_TRACK), 1, 0),
    LEAF(0xA280, "ftkCameraRoll", IN(C_TRACK), 1, 0),
    LEAF(0xA290, "ftkLightHotSpot", IN(C_TRACK), 1, 0),
    LEAF(0xA2A0, "ftkLightFallOff", IN(C_TRACK), 1, 0),
    LEAF(0xA2B0, "ftkLightColor", IN(C_TRACK), 1, 0),
    LEAF(0xA2C0, "ftkHide", IN(C_TRACK), 1, 0),
    LEAF(0xA300, "ftkMorph", IN(C_TRACK), 0, 0),
};

const size_t e3d_type_count = sizeof e3d_types / sizeof e3d_types[0];

const e3d_type *e3d_find(uint16_t type)
{
    size_t lo = 0, hi = e3d_type_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e3d_types[mid].type == type) return &e3d_types[mid];
        if (e3d_types[mid].type < type) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static size_t type_index(const e3d_type *t)
{
    return t ? (size_t)(t - e3d_types) : e3d_type_count;
}

/* docs/formats/e3d.md: the version block is 01 00 | 0C 00 00 00 | 'E3DF' | 00 01. */
static bool e3d_detect(const uint8_t *data, size_t size)
{
    static const uint8_t head[10] = {0x01, 0x00, 0x0C, 0x00, 0x00, 0x00, 'E', '3', 'D', 'F'};
    return size >= 12 && memcmp(data, head, sizeof head) == 0;
}

/* ---- reports ---- */

const e3d_frame *e3d_logical(const e3d *v, size_t fi)
{
    return &v->st[v->st[fi].logical];
}

void e3d_frame_path(const e3d *v, size_t fi, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 1; i <= fi && used < n; i++) {
        const e3d_frame *f = &v->st[i];
        int w;
        if (f->lzma)
            w = snprintf(out + used, n - used, "/lzma@0x%zx", f->hdr);
        else if (f->indexed)
            w = snprintf(out + used, n - used, "/%s/%" PRIu32, f->name, f->index);
        else
            w = snprintf(out + used, n - used, "/%s", f->name);
        if (w < 0) break;
        used += (size_t)w;
    }
}

void e3d_append(mc_instance *in, const char *fmt, ...)
{
    if (!in) return;
    size_t used = strlen(in->path);
    if (used + 1 >= sizeof in->path) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->path + used, sizeof in->path - used, fmt, ap);
    va_end(ap);
}

mc_instance *e3d_emit_frame(e3d *v, mc_code code, size_t fi, size_t pos)
{
    const e3d_frame *f = &v->st[fi];
    mc_instance *in = mc_emit(v->c, code, f->decoded ? f->anchor : (uint64_t)pos);
    if (!in) return NULL;
    if (f->decoded) mc_payload_offset(in, pos);
    e3d_frame_path(v, fi, in->path, sizeof in->path);
    return in;
}

/* A block's path segment, for issues and for inspect's tree alike (the
 * segment of a repeatable block is two path segments, name/index). */
static void block_segment(const e3d_blk *b, char *out, size_t n)
{
    if (!b->t)
        snprintf(out, n, "0x%04x/%" PRIu32, b->type, b->index);
    else if (b->type == T_LZMA)
        snprintf(out, n, "lzma@0x%zx", b->pos);
    else if (b->t->once || b->t->section)
        snprintf(out, n, "%s", b->t->name);
    else
        snprintf(out, n, "%s/%" PRIu32, b->t->name, b->index);
}

static void append_segment(mc_instance *in, const e3d_blk *b)
{
    char seg[64];
    block_segment(b, seg, sizeof seg);
    e3d_append(in, "/%s", seg);
}

mc_instance *e3d_emit_blk(e3d *v, mc_code code, const e3d_blk *b, size_t pos)
{
    mc_instance *in = e3d_emit_frame(v, code, b->fi, pos);
    append_segment(in, b);
    return in;
}

void e3d_loc_blk(e3d *v, const e3d_blk *b, size_t pos, e3d_loc *out)
{
    const e3d_frame *f = &v->st[b->fi];
    out->offset = f->decoded ? f->anchor : (uint64_t)pos;
    out->payload = pos;
    out->has_payload = f->decoded;
    mc_instance tmp;
    e3d_frame_path(v, b->fi, tmp.path, sizeof tmp.path);
    append_segment(&tmp, b);
    memcpy(out->path, tmp.path, sizeof out->path);
}

mc_instance *e3d_emit_loc(e3d *v, mc_code code, const e3d_loc *l)
{
    mc_instance *in = mc_emit(v->c, code, l->offset);
    if (!in) return NULL;
    if (l->has_payload) mc_payload_offset(in, l->payload);
    memcpy(in->path, l->path, sizeof in->path);
    return in;
}

/* ---- ID sets: open addressing over 64-bit keys (0 = empty) ---- */

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return h ? h : 1;
}

uint64_t e3d_key(unsigned kind, const uint8_t *p, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603) ^ kind; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(1099511628211);
    return mix(h ^ ((uint64_t)kind << 56));
}

uint64_t e3d_key_u32(unsigned kind, uint32_t id)
{
    return mix(((uint64_t)kind << 32 | id) * UINT64_C(0x9e3779b97f4a7c15));
}

bool e3d_set_has(const e3d_set *s, uint64_t key)
{
    if (!s->cap) return false;
    for (size_t i = key & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        if (s->keys[i] == key) return true;
        if (s->keys[i] == 0) return false;
    }
}

static void set_put(e3d_set *s, uint64_t key)
{
    size_t i = key & (s->cap - 1);
    while (s->keys[i] != 0 && s->keys[i] != key) i = (i + 1) & (s->cap - 1);
    if (s->keys[i] == 0) s->used++;
    s->keys[i] = key;
}

bool e3d_set_add(e3d *v, e3d_set *s, uint64_t key)
{
    if (e3d_set_has(s, key)) return false;
    if ((s->used + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint64_t *old = s->keys;
        size_t old_cap = s->cap;
        s->keys = calloc(cap, sizeof *s->keys);
        if (!s->keys) {
            s->keys = old;
            v->c->nomem = true;
            return true;
        }
        s->cap = cap;
        s->used = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i]) set_put(s, old[i]);
        free(old);
    }
    set_put(s, key);
    return true;
}

/* ---- the stack ---- */

static e3d_frame *push(e3d *v)
{
    if (v->sp == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        e3d_frame *n = realloc(v->st, cap * sizeof *n);
        if (!n) {
            v->c->nomem = true;
            return NULL;
        }
        memset(n + v->cap, 0, (cap - v->cap) * sizeof *n);
        v->st = n;
        v->cap = cap;
    }
    e3d_frame *f = &v->st[v->sp];
    uint32_t *seen = f->seen; /* kept allocated across reuse */
    memset(f, 0, sizeof *f);
    f->seen = seen;
    v->sp++;
    return f;
}

/* Logical frames count their children per type: paths index them and
 * single-instance blocks are checked against it. */
static bool init_counts(e3d *v, e3d_frame *f)
{
    if (!f->seen) f->seen = malloc((e3d_type_count + 1) * sizeof *f->seen);
    if (!f->seen) {
        v->c->nomem = true;
        return false;
    }
    memset(f->seen, 0, (e3d_type_count + 1) * sizeof *f->seen);
    return true;
}

/* ---- framing ---- */

/* Bytes left in a frame that cannot hold a block header: at the file's top
 * level the file does not end where its last block ends. */
static void report_gap(e3d *v, size_t fi)
{
    const e3d_frame *f = &v->st[fi];
    size_t left = f->end - f->pos;
    bool file_top = fi == 0;
    mc_instance *in = e3d_emit_frame(v, file_top ? MC_E3D_FILE_TRAILING_BYTES : MC_E3D_BLOCK_GAP,
                                     fi, f->pos);
    if (in && !in->path[0]) memcpy(in->path, "/", 2);
    if (file_top)
        mc_msg(in, "%zu bytes after the last block (a block header needs 6): the file should end at %zu",
               left, f->pos);
    else
        mc_msg(in, "%zu bytes left at the end of the parent cannot hold a block header (6 bytes): children must tile the parent exactly",
               left);
}

/* A block longer than what is left of its parent. At the top level that is
 * E3D_FILE_TRUNCATED, reported at the overrunning block's header, not at
 * the file's end as the other formats' mc_truncated does: E3D has no total
 * size (no header counts, only each block's own length), so the block whose
 * length runs past the end is the one place that shows the cut, and the
 * walk cannot say what else the file was meant to hold. A cut that lands
 * exactly on a block boundary leaves no overrun at all (FILE_NO_CONTENT is
 * then the only sign, as its catalog clause says). */
static void report_overrun(e3d *v, size_t fi, uint16_t type, uint32_t len)
{
    const e3d_frame *f = &v->st[fi];
    size_t left = f->end - f->pos;
    bool file_top = fi == 0;
    mc_instance *in = e3d_emit_frame(v, file_top ? MC_E3D_FILE_TRUNCATED : MC_E3D_BLOCK_OVERRUN,
                                     fi, f->pos);
    const e3d_type *t = e3d_find(type);
    e3d_append(in, "/%s", t ? t->name : "?");
    if (file_top)
        mc_msg(in, "block 0x%04x declares %" PRIu32 " bytes but the file has only %zu left", type,
               len, left);
    else
        mc_msg(in, "block 0x%04x declares %" PRIu32 " bytes but only %zu remain in its parent%s",
               type, len, left, f->decoded ? " (decoded data)" : "");
}

/* ---- version block ---- */

/* docs/formats/e3d.md: 12 bytes, 'E3DF', u16 0x0100 (major 1 high, minor 0 low). */
static void check_version(e3d *v, const e3d_blk *b)
{
    if (b->len != 12) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_VERSION_SIZE, b, b->pos);
        mc_msg(in, "version block is %zu bytes (expected 12)", b->len);
        return;
    }
    mc_reader r = mc_reader_make(b->p, b->n);
    const uint8_t *magic = mc_read_bytes(&r, 4);
    uint16_t ver = mc_read_u16(&r);
    if (!magic || memcmp(magic, "E3DF", 4) != 0) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_BAD_MAGIC, b, b->ppos);
        mc_msg(in, "signature is %02x %02x %02x %02x (expected \"E3DF\")", magic ? magic[0] : 0,
               magic ? magic[1] : 0, magic ? magic[2] : 0, magic ? magic[3] : 0);
    }
    if (ver != 0x0100) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_VERSION_UNKNOWN, b, b->ppos + 4);
        mc_msg(in, "version %u.%u (expected 1.0)", ver >> 8, ver & 0xFFu);
    }
}

/* ---- LZMA ---- */

enum lz_result { LZ_OK, LZ_END_MARK, LZ_SHORT, LZ_LONG, LZ_CORRUPT, LZ_TRUNCATED, LZ_NOMEM };

typedef struct lz_out {
    uint8_t *buf;
    size_t size;    /* bytes decoded */
    size_t used_in; /* compressed bytes consumed */
} lz_out;

/* Decodes a raw LZMA1 stream of `declared` bytes straight into a linear
 * output buffer that doubles as the decoder's dictionary: it grows as
 * output appears, so a small stream claiming a huge size costs only what
 * it really decodes. */
static enum lz_result lz_decode(const uint8_t props[5], const uint8_t *src, size_t src_len,
                                size_t declared, lz_out *out)
{
    ISzAlloc alloc = MC_LZMA_ALLOCATOR;
    CLzmaDec d;
    LzmaDec_Construct(&d);
    if (LzmaDec_AllocateProbs(&d, props, LZMA_PROPS_SIZE, &alloc) != SZ_OK) return LZ_NOMEM;
    size_t cap = declared < 65536 ? declared : 65536;
    uint8_t *buf = malloc(cap ? cap : 1);
    enum lz_result res = LZ_OK;
    size_t in_pos = 0;
    if (!buf) {
        LzmaDec_FreeProbs(&d, &alloc);
        return LZ_NOMEM;
    }
    d.dic = buf;
    d.dicBufSize = cap;
    LzmaDec_Init(&d);
    while (d.dicPos < declared) {
        if (d.dicPos == cap) {
            size_t ncap = cap > declared / 2 ? declared : cap * 2;
            uint8_t *n = realloc(buf, ncap);
            if (!n) {
                res = LZ_NOMEM;
                break;
            }
            buf = n;
            cap = ncap;
            d.dic = buf;
            d.dicBufSize = cap;
        }
        SizeT in_len = src_len - in_pos;
        size_t before = d.dicPos;
        ELzmaStatus st;
        SRes sr = LzmaDec_DecodeToDic(&d, cap, src + in_pos, &in_len, LZMA_FINISH_ANY, &st);
        in_pos += in_len;
        if (sr != SZ_OK) {
            res = LZ_CORRUPT;
            break;
        }
        if (d.dicPos >= declared) break;
        if (st == LZMA_STATUS_FINISHED_WITH_MARK) {
            res = LZ_SHORT; /* an end marker before the declared size */
            break;
        }
        if (st == LZMA_STATUS_NEEDS_MORE_INPUT || (in_len == 0 && d.dicPos == before)) {
            /* Out of input: a stream whose range coder is at rest (code 0,
             * nothing buffered) ended cleanly, only too early. */
            res = d.code == 0 && d.tempBufSize == 0 && d.remainLen == 0 ? LZ_SHORT : LZ_TRUNCATED;
            break;
        }
    }
    if (res == LZ_OK) {
        /* At the declared size the stream must be finished: the coder at
         * rest with every byte used, or an end marker right there. */
        SizeT in_len = src_len - in_pos;
        ELzmaStatus st;
        SRes sr = LzmaDec_DecodeToDic(&d, d.dicPos, src + in_pos, &in_len, LZMA_FINISH_END, &st);
        in_pos += in_len;
        if (sr != SZ_OK || in_pos != src_len)
            res = LZ_LONG;
        else if (st == LZMA_STATUS_FINISHED_WITH_MARK)
            res = LZ_END_MARK;
        else if (st != LZMA_STATUS_MAYBE_FINISHED_WITHOUT_MARK)
            res = LZ_LONG;
    }
    out->size = d.dicPos;
    out->used_in = in_pos;
    LzmaDec_FreeProbs(&d, &alloc);
    if (res == LZ_NOMEM || res == LZ_CORRUPT || res == LZ_SHORT || res == LZ_TRUNCATED ||
        res == LZ_LONG) {
        free(buf);
        out->buf = NULL;
    } else {
        out->buf = buf;
    }
    return res;
}

/* docs/formats/e3d.md: u32 uncompressed size, 5 property bytes ((pb*5+lp)*9+lc,
 * u32 dictionary size), raw stream. Pushes a frame over the decoded bytes. */
static void open_lzma(e3d *v, const e3d_blk *b)
{
    const e3d_frame *f = &v->st[b->fi];
    if (b->n < 9) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LZMA_TOO_SHORT, b, b->pos);
        mc_msg(in, "LZMA block is %zu bytes; its header fields need 15 (6 + u32 size + 5 property bytes)",
               b->len);
        return;
    }
    if (f->lzma_depth >= E3D_MAX_LZMA_DEPTH) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LZMA_DEPTH_LIMIT, b, b->pos);
        mc_msg(in, "LZMA block nested %u deep inside LZMA blocks (limit %u); not decoded",
               f->lzma_depth + 1, E3D_MAX_LZMA_DEPTH);
        return;
    }
    mc_reader r = mc_reader_make(b->p, b->n);
    uint32_t declared = mc_read_u32(&r);
    const uint8_t *props = mc_read_bytes(&r, 5);
    if (!props) return;
    if (props[0] >= 9 * 5 * 5) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LZMA_BAD_PROPERTIES, b, b->ppos + 4);
        mc_msg(in, "properties byte 0x%02x is not (pb*5+lp)*9+lc with lc <= 8, lp <= 4, pb <= 4",
               props[0]);
        return;
    }
    uint64_t limit = v->c->opt->max_decompressed_bytes;
    uint64_t left = limit > v->decoded_total ? limit - v->decoded_total : 0;
    if (declared > left) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LZMA_SIZE_LIMIT, b, b->ppos);
        mc_msg(in, "LZMA block declares %" PRIu32 " decoded bytes; with %" PRIu64
               " already decoded that passes the limit of %" PRIu64 " per file; not decoded",
               declared, v->decoded_total, limit);
        return;
    }
    lz_out out = {NULL, 0, 0};
    size_t stream = b->ppos + 9;
    enum lz_result res = lz_decode(props, b->p + 9, b->n - 9, declared, &out);
    v->decoded_total += out.size;
    if (res == LZ_NOMEM) {
        v->c->nomem = true;
        return;
    }
    mc_code code = MC_E3D_LZMA_CORRUPT;
    switch (res) {
    case LZ_SHORT: code = MC_E3D_LZMA_SIZE_SHORT; break;
    case LZ_LONG: code = MC_E3D_LZMA_SIZE_LONG; break;
    case LZ_TRUNCATED: code = MC_E3D_LZMA_TRUNCATED; break;
    case LZ_CORRUPT: code = MC_E3D_LZMA_CORRUPT; break;
    case LZ_OK: case LZ_END_MARK: case LZ_NOMEM: code = MC_CODE_COUNT; break;
    }
    if (code != MC_CODE_COUNT) {
        /* size mismatches point at the declared size, stream faults at the stream */
        bool size = code == MC_E3D_LZMA_SIZE_SHORT || code == MC_E3D_LZMA_SIZE_LONG;
        mc_instance *in = e3d_emit_blk(v, code, b, size ? b->ppos : stream);
        if (code == MC_E3D_LZMA_SIZE_SHORT)
            mc_msg(in, "the stream ends after %zu decoded bytes; the block declares %" PRIu32, out.size, declared);
        else if (code == MC_E3D_LZMA_SIZE_LONG)
            mc_msg(in, "the stream goes on after the declared %" PRIu32 " bytes (%zu of %zu compressed bytes used to get there)",
                   declared, out.used_in, b->n - 9);
        else if (code == MC_E3D_LZMA_TRUNCATED)
            mc_msg(in, "the stream needs more than its %zu compressed bytes: it stopped after %zu of %" PRIu32 " decoded bytes",
                   b->n - 9, out.size, declared);
        else
            mc_msg(in, "the stream is corrupt (LZMA data error after %zu of %" PRIu32 " decoded bytes, %zu compressed bytes read)",
                   out.size, declared, out.used_in);
        return;
    }
    if (res == LZ_END_MARK) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LZMA_END_MARKER, b, stream);
        mc_msg(in, "the stream ends with an end marker (the reference writer writes none)");
    }
    v->c->info->compressed_blocks++;
    v->c->info->decompressed_bytes += out.size;
    size_t parent = b->fi;
    e3d_frame *nf = push(v);
    if (!nf) {
        free(out.buf);
        return;
    }
    if (v->c->sink) mc_sink_decoded(v->c->sink, out.buf, out.size);
    const e3d_frame *pf = &v->st[parent];
    nf->buf = out.buf;
    nf->buf_size = out.size;
    nf->decoded = true;
    nf->anchor = pf->decoded ? pf->anchor : b->pos;
    nf->pos = 0;
    nf->end = out.size;
    nf->hdr = b->pos;
    nf->type = T_LZMA;
    nf->klass = pf->klass;
    nf->lzma = true;
    nf->name = "lzma";
    nf->depth = pf->depth;
    nf->lzma_depth = pf->lzma_depth + 1;
    nf->logical = pf->logical;
    nf->owned = out.buf;
}

/* ---- one block ---- */

static void open_container(e3d *v, const e3d_blk *b)
{
    size_t skip = 0;
    if (!e3d_enter(v, b, &skip)) return;
    size_t parent = b->fi;
    e3d_frame *nf = push(v);
    if (!nf) return;
    const e3d_frame *pf = &v->st[parent];
    nf->buf = pf->buf;
    nf->buf_size = pf->buf_size;
    nf->decoded = pf->decoded;
    nf->anchor = pf->anchor;
    nf->pos = b->ppos + skip;
    nf->end = b->pos + b->len;
    nf->hdr = b->pos;
    nf->type = b->type;
    nf->klass = b->t->klass;
    nf->name = b->t->name;
    nf->index = b->index;
    nf->indexed = !b->t->once && !b->t->section;
    nf->depth = pf->depth + 1;
    nf->lzma_depth = pf->lzma_depth;
    nf->logical = v->sp - 1;
    if (!init_counts(v, nf)) v->sp--;
}

/* Top-level sections in the reference reader's order, which has no
 * forward references (docs/formats/e3d.md "Order"). */
static void check_section_order(e3d *v, const e3d_blk *b)
{
    static const char *const rank_name[6] = {"", "textures", "materials", "meshes", "nodes", "animations"};
    unsigned rank = b->t->section;
    if (rank >= v->section_rank) {
        v->section_rank = rank;
        return;
    }
    mc_instance *in = e3d_emit_blk(v, MC_E3D_SECTION_ORDER, b, b->pos);
    mc_msg(in, "%s section after a %s section (the reference reader needs textures, materials, meshes, nodes, animations in that order)",
           b->t->name, rank_name[v->section_rank]);
}

/* docs/formats/e3d.md: the version block first, an LZMA block never in its place. */
static bool check_first(e3d *v, const e3d_blk *b, const e3d_frame *lf)
{
    bool first = lf->klass == C_TOP && lf->nchildren == 0 && v->sp > 0 && b->fi == 0;
    if (b->type == T_VERSION) {
        if (first || (v->version_pending && lf->klass == C_TOP)) {
            v->version_pending = false;
            check_version(v, b);
            return true;
        }
        mc_instance *in = e3d_emit_blk(v, MC_E3D_VERSION_MISPLACED, b, b->pos);
        mc_msg(in, "a version block may only be the first block of the file");
        return false;
    }
    if (!first) return true;
    if (b->type == T_LZMA) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LZMA_AS_VERSION, b, b->pos);
        mc_msg(in, "the file starts with an LZMA block; the version block must come first, uncompressed");
        v->version_pending = true;
    } else {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_VERSION_MISSING, b, b->pos);
        mc_msg(in, "the first block is 0x%04x, not the version block 0x0001", b->type);
    }
    return true;
}

/* True for custom attribute types (e3d.adoc: 0x4000:0x5FFF). */
static bool custom_attribute(uint16_t type)
{
    return type >= 0x4000 && type <= 0x5FFF;
}

static void check_block(e3d *v, e3d_blk *b)
{
    e3d_frame *f = &v->st[b->fi];
    e3d_frame *lf = &v->st[f->logical];
    bool ok = check_first(v, b, lf);
    lf->nchildren++;
    if (!ok || b->type == T_VERSION) return;
    if (f->depth + 1 > v->c->opt->max_depth) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_DEPTH_LIMIT, b, b->pos);
        mc_msg(in, "block nested %" PRIu32 " deep (limit max_depth = %" PRIu32 "); its contents were not checked",
               f->depth + 1, v->c->opt->max_depth);
        return;
    }
    if (!b->t) {
        if (lf->klass == C_ATTRS && custom_attribute(b->type)) return; /* opaque by design */
        mc_instance *in = e3d_emit_blk(v, MC_E3D_BLOCK_UNKNOWN, b, b->pos);
        mc_msg(in, "unknown block type 0x%04x (%zu bytes) skipped", b->type, b->len);
        return;
    }
    if (!(b->t->parents & IN(lf->klass))) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_BLOCK_MISPLACED, b, b->pos);
        mc_msg(in, "%s (0x%04x) may not appear in %s; skipped", b->t->name, b->type,
               lf->klass == C_TOP ? "the top level" : lf->name);
        return;
    }
    if (b->t->once && b->index > 0) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_BLOCK_DUPLICATE, b, b->pos);
        mc_msg(in, "second %s block in one %s (at most one expected); skipped", b->t->name,
               lf->klass == C_TOP ? "file" : lf->name);
        return;
    }
    if (b->t->section) check_section_order(v, b);
    switch (b->t->kind) {
    case K_LZMA: open_lzma(v, b); break;
    case K_CONTAINER: open_container(v, b); break;
    case K_RESERVED: {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_BLOCK_RESERVED, b, b->pos);
        mc_msg(in, "%s (0x%04x) is reserved by the spec; its %zu bytes were skipped", b->t->name,
               b->type, b->len);
        break;
    }
    default: e3d_check_leaf(v, b); break;
    }
}

/* inspect: what a block is in the tree */
static const char *block_kind(const e3d_blk *b)
{
    if (!b->t) return "block";
    if (b->type == T_LZMA) return "lzma";
    if (b->t->kind != K_CONTAINER) return "block";
    switch (b->t->klass) {
    case C_MESH: return "mesh";
    case C_MATERIAL: return "material";
    case C_TEXTURE: return "texture";
    case C_NODE: return "node";
    case C_ANIM: return "animation";
    case C_TRACK: return "track";
    default: return "section";
    }
}

/* One block: its node stays entered while its frame is on the stack (a
 * container or a decoded LZMA block), and is left by pop. */
static void process_block(e3d *v, e3d_blk *b)
{
    e3d_frame *lf = &v->st[v->st[b->fi].logical];
    b->t = e3d_find(b->type);
    b->index = lf->seen[type_index(b->t)]++;
    if (!v->c->sink) {
        check_block(v, b);
        return;
    }
    char seg[64];
    block_segment(b, seg, sizeof seg);
    size_t sp = v->sp;
    mc_sink_enter(v->c->sink, block_kind(b), seg, MC_NO_INDEX, b->pos, b->len);
    static const mc_field header_fields[] = {{"type", MC_FIELD_U16, 0, 1, 0},
                                             {"length", MC_FIELD_U32, 2, 1, 0}};
    mc_sink_layout(v->c->sink, MC_FIELDS(header_fields));
    if (b->t) mc_sink_u64(v->c->sink, "type", b->type);
    check_block(v, b);
    if (v->sp == sp) mc_sink_leave(v->c->sink);
}

static void pop(e3d *v)
{
    size_t fi = v->sp - 1;
    e3d_frame *f = &v->st[fi];
    if (!f->lzma && fi > 0) e3d_leave(v, fi);
    if (fi > 0) mc_s_leave(v->c);
    free(f->owned);
    f->owned = NULL;
    v->sp--;
}

/* One step: the next child of the top frame, or the end of the frame. */
static void step(e3d *v)
{
    size_t fi = v->sp - 1;
    e3d_frame *f = &v->st[fi];
    if (f->pos >= f->end) {
        pop(v);
        return;
    }
    size_t left = f->end - f->pos;
    if (left < E3D_HEADER) {
        if (fi == 0 && f->nchildren == 0) {
            mc_instance *in = e3d_emit_frame(v, MC_E3D_VERSION_MISSING, 0, 0);
            mc_path(in, "/");
            mc_msg(in, "the file is %zu bytes: too short for the 12-byte version block", left);
        } else {
            report_gap(v, fi);
        }
        pop(v);
        return;
    }
    mc_reader r = mc_reader_make(f->buf + f->pos, left);
    uint16_t type = mc_read_u16(&r);
    uint32_t len = mc_read_u32(&r);
    if (len < E3D_HEADER) {
        mc_instance *in = e3d_emit_frame(v, MC_E3D_BLOCK_LENGTH_SMALL, fi, f->pos + 2);
        const e3d_type *t = e3d_find(type);
        e3d_append(in, "/%s", t ? t->name : "?");
        mc_msg(in, "block 0x%04x has length %" PRIu32 " (at least 6: its own header); the rest of the parent cannot be walked",
               type, len);
        f->pos = f->end;
        return;
    }
    if (len > left) {
        if (v->c->sink) { /* the block as far as its parent goes, named as the issue names it */
            const e3d_type *t = e3d_find(type);
            mc_sink_enter(v->c->sink, "block", t ? t->name : "?", MC_NO_INDEX, f->pos, left);
            mc_sink_leave(v->c->sink);
        }
        report_overrun(v, fi, type, len);
        f->pos = f->end;
        return;
    }
    e3d_blk b;
    memset(&b, 0, sizeof b);
    b.fi = fi;
    b.pos = f->pos;
    b.len = len;
    b.type = type;
    b.p = f->buf + f->pos + E3D_HEADER;
    b.n = len - E3D_HEADER;
    b.ppos = f->pos + E3D_HEADER;
    f->pos += len;
    process_block(v, &b);
}

static void e3d_validate(mc_ctx *c)
{
    e3d v;
    memset(&v, 0, sizeof v);
    v.c = c;
    c->layout = "e3d1";
    e3d_frame *top = push(&v);
    if (top) {
        top->buf = c->data;
        top->buf_size = c->size;
        top->end = c->size;
        top->klass = C_TOP;
        top->name = "";
        if (!init_counts(&v, top)) v.sp = 0;
    }
    while (v.sp > 0 && !c->nomem) step(&v);
    while (v.sp > 0) {
        free(v.st[v.sp - 1].owned);
        v.sp--;
    }
    if (!c->nomem) e3d_finish(&v);
    for (size_t i = 0; i < v.cap; i++) free(v.st[i].seen);
    free(v.st);
    free(v.ids.keys);
    free(v.mesh.fm);
    free(v.bonerefs);
    free(v.paths);
}

const mc_format_module mc_e3d_module = {MC_FORMAT_E3D, "E3D", e3d_detect, e3d_validate};
