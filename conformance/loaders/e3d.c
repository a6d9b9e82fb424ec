/*
 * E3D reference loader (e3d.adoc; docs/formats/e3d.md).
 *
 * Written from the spec and the field notes, independently of the
 * validator's checks. Three passes:
 *   1. framing (this file): walk the block tree with an explicit stack,
 *      decode LZMA blocks with the LZMA SDK and splice their bytes in place
 *      of the LZMA block (docs/formats/e3d.md: parsed as children of its parent),
 *      and record every known block in document order (parents first);
 *   2. content (e3d_content.c): read every block's fields, resolve IDs and
 *      names through hash tables, check every count, index and value;
 *   3. model (e3d_model.c): build the common model.
 * Every error-level rule of the issue catalog rejects the file; warnings
 * (unknown blocks, the reference code's layouts, zero normals...) do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <LzmaDec.h>

#include "e3d_loader.h"

/* ---- block type table ---- */

/* The parent a known block type may have (e3d.adoc, "Detailed description
 * of all block types"; nesting from docs/formats/e3d.md: "Nesting, from the
 * reference code"). 0 means the top level. */
static bool is_map(uint16_t t)
{
    return (t >= 0x8100 && t <= 0x8103) || (t >= 0x8200 && t <= 0x8202) || t == 0x8300 ||
           t == 0x8301 || t == 0x8400 || t == 0x8401;
}

bool e3__is_attribute(uint16_t t)
{
    return t == E3_VERTICES || t == E3_VERTICES_DBL || t == E3_VERTICES_Q || t == E3_NORMALS ||
           (t >= E3_TEXCOORDS && t <= E3_TEXCOORDS + 7) || t == E3_COLORS || t == E3_TANGENTS_SIGN ||
           t == E3_TANGENTS_BI || (t >= E3_BONE_WEIGHTS && t <= E3_BONE_WEIGHTS + 7) ||
           t == E3_INTERLEAVED || (t >= 0x4000 && t <= 0x5FFF);
}

static bool is_material_property(uint16_t t)
{
    return t == E3_MATERIAL_ID || t == E3_MATERIAL_NAME || t == E3_MATERIAL_GROUP ||
           (t >= E3_MATERIAL_FLAGS && t <= 0x8024) || t == 0x8030 || t == 0x8031 || t == 0x8032 ||
           t == 0x8034 || is_map(t);
}

static bool is_track_child(uint16_t t)
{
    return t == E3_TCB || t == E3_ROTATION_ORDER || (t >= 0xA210 && t <= 0xA2C0 && (t & 0xF) == 0) ||
           t == E3_FTK_MORPH || t == E3_NODE_ID || t == E3_NODE_NAME;
}

static bool is_mesh_child(uint16_t t)
{
    return t == E3_MESH_ID || t == E3_MESH_BBOX || t == E3_DUP_VERTICES || t == E3_ATTRIBUTES ||
           t == E3_TRI16 || t == E3_TRI32 || t == E3_FACES_MATERIALS || t == E3_SKIN || t == E3_PARTS ||
           t == E3_MORPHS;
}

static bool is_node_child(uint16_t t)
{
    return t == E3_NODE_ID || t == E3_NODE_NAME || t == E3_MESH_ID || t == E3_SKELETON ||
           t == E3_SCALING || t == E3_ORIENTATION || t == E3_POSITION || t == E3_MESH_NODE;
}

/* Whether `child` may appear under a parent of type `parent` (0: top). */
static bool allowed_under(uint16_t parent, uint16_t child)
{
    switch (parent) {
    case 0:
        return child == E3_TEXTURES || child == E3_MATERIALS || child == E3_MESHES || child == E3_NODES ||
               child == E3_ANIMATIONS;
    case E3_TEXTURES: return child == E3_TEXTURE;
    case E3_TEXTURE:
        return child == E3_TEXTURE_ID || child == E3_TEXTURE_NAME || child == E3_TEXTURE_PNG ||
               child == E3_TEXTURE_JPG || child == E3_TEXTURE_JPG2K;
    case E3_MATERIALS: return child == E3_MATERIAL;
    case E3_MATERIAL: return is_material_property(child);
    case E3_MESHES: return child == E3_MESH;
    case E3_MESH: return is_mesh_child(child);
    case E3_ATTRIBUTES: return e3__is_attribute(child);
    case E3_SKIN: return child >= E3_SKIN_NAME && child <= E3_SKIN_BONE_WEIGHTS;
    case E3_MORPHS: return child == E3_MORPH;
    case E3_MORPH: return child >= E3_MORPH_ID && child <= E3_MORPH_WEIGHT;
    case E3_NODES: return child == E3_MESH_NODE;
    case E3_MESH_NODE: return is_node_child(child);
    case E3_ANIMATIONS: return child == E3_ANIMATION;
    case E3_ANIMATION: return child == E3_ANIMATION_NAME || child == E3_ANIMATION_FRAMES || child == E3_TRACK;
    case E3_TRACK: return is_track_child(child);
    default: return is_map(parent) && (child == E3_TEXTURE_ID || child == E3_TEXTURE_NAME);
    }
}

/* Every type the spec (or docs/formats/e3d.md, for morphs) defines somewhere. */
static bool is_known(uint16_t t)
{
    static const uint16_t parents[] = {0, E3_TEXTURES, E3_TEXTURE, E3_MATERIALS, E3_MATERIAL, E3_MESHES,
                                       E3_MESH, E3_ATTRIBUTES, E3_SKIN, E3_MORPHS, E3_MORPH, E3_NODES,
                                       E3_MESH_NODE, E3_ANIMATIONS, E3_ANIMATION, E3_TRACK, 0x8200};
    if (t == E3_VERSION || t == E3_LZMA || t == E3_CAMERA_NODE || t == E3_LIGHT_NODE) return true;
    if (t >= 0x4000 && t <= 0x5FFF) return false; /* custom: an attribute only inside attributes */
    for (size_t i = 0; i < sizeof parents / sizeof parents[0]; i++)
        if (allowed_under(parents[i], t)) return true;
    return false;
}

/* Bytes before the first child of a container block; -1 for leaves. The
 * track's fixed part depends on its key count (checked by the caller). */
static int child_prefix(uint16_t t)
{
    switch (t) {
    case E3_TEXTURES: case E3_TEXTURE: case E3_MATERIALS: case E3_MATERIAL: case E3_MESHES:
    case E3_MESH: case E3_SKIN: case E3_MORPH: case E3_NODES: case E3_MESH_NODE:
    case E3_ANIMATIONS: case E3_ANIMATION:
        return 0;
    case E3_ATTRIBUTES: case E3_MORPHS: return 4; /* u32 count (docs/formats/e3d.md) */
    case E3_TRACK: return 4;                      /* at least the key count */
    default: return is_map(t) ? 0 : -1;
    }
}

bool e3__is_map(uint16_t t) { return is_map(t); }

/* ---- growable scratch arrays ---- */

bool e3__grow(e3 *s, void **arr, uint32_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 64;
    while (ncap < need) ncap *= 2;
    if (ncap > UINT32_MAX) {
        mcl__fail(s->c, MCL_ERR_LIMIT, 0, "more than 2^32 elements");
        return false;
    }
    void *n = mcl__scratch(s->c, ncap, elem);
    if (!n) return false;
    if (*arr) {
        memcpy(n, *arr, (size_t)*cap * elem);
        mcl__scratch_free(s->c, *arr, *cap, elem);
    }
    *arr = n;
    *cap = (uint32_t)ncap;
    return true;
}

/* ---- LZMA (docs/formats/e3d.md: u32 size, 5 property bytes, raw LZMA1 stream) ---- */

typedef struct lz_alloc {
    ISzAlloc base; /* first: the SDK passes &base back to us */
    mcl_ctx *c;
} lz_alloc;

#define LZ_HEADER 16 /* keeps the SDK's probability array aligned */

static void *lz_alloc_fn(void *p, size_t size)
{
    lz_alloc *a = p;
    uint8_t *h = mcl__scratch(a->c, 1, (uint64_t)size + LZ_HEADER);
    if (!h) return NULL;
    memcpy(h, &size, sizeof size);
    return h + LZ_HEADER;
}

static void lz_free_fn(void *p, void *address)
{
    if (!address) return;
    lz_alloc *a = p;
    uint8_t *h = (uint8_t *)address - LZ_HEADER;
    size_t size;
    memcpy(&size, h, sizeof size);
    mcl__scratch_free(a->c, h, 1, (uint64_t)size + LZ_HEADER);
}

static bool keep_buffer(e3 *s, uint8_t *buf, uint64_t size)
{
    if (!e3__grow(s, (void **)&s->bufs, &s->buf_cap, (uint64_t)s->nbufs + 1, sizeof *s->bufs)) {
        mcl__scratch_free(s->c, buf, size ? size : 1, 1);
        return false;
    }
    s->bufs[s->nbufs].p = buf;
    s->bufs[s->nbufs].size = size ? size : 1;
    s->nbufs++;
    return true;
}

/* Decodes one LZMA block's payload into a new scratch buffer. */
static mcl_status lzma_decode(e3 *s, const uint8_t *p, uint32_t len, uint64_t off, const uint8_t **out,
                              uint64_t *out_size)
{
    mcl_ctx *c = s->c;
    /* u32 size + 5 property bytes: shorter blocks underflow the reference reader */
    if (len < 9)
        return mcl__fail(c, MCL_ERR_SIZE, off, "LZMA block payload of %u bytes (expected at least 9: u32 size, 5 property bytes)", len);
    uint32_t declared = mc_le32(p);
    if (p[4] >= 9 * 5 * 5)
        return mcl__fail(c, MCL_ERR_COMPRESSION, off + 10,
                         "LZMA properties byte %u (expected (pb*5+lp)*9+lc <= 224)", p[4]);
    /* the reference reader allocates any declared size: bound the total */
    if (declared > c->limits->max_decompressed_bytes - s->decoded_total)
        return mcl__fail(c, MCL_ERR_LIMIT, off + 6,
                         "LZMA block declares %u bytes; the file's decoded bytes would pass max_decompressed_bytes (%llu)",
                         declared, (unsigned long long)c->limits->max_decompressed_bytes);
    s->decoded_total += declared;
    uint8_t *buf = mcl__scratch(c, declared ? declared : 1, 1);
    if (!buf) return c->err->status;
    if (!keep_buffer(s, buf, declared)) return c->err->status;
    lz_alloc alloc = {{lz_alloc_fn, lz_free_fn}, c};
    SizeT out_len = declared, in_len = len - 9;
    ELzmaStatus st = LZMA_STATUS_NOT_SPECIFIED;
    SRes r = LzmaDecode(buf, &out_len, p + 9, &in_len, p + 4, LZMA_PROPS_SIZE, LZMA_FINISH_END, &st, &alloc.base);
    if (c->err->status != MCL_OK) return c->err->status; /* allocation failed */
    if (r == SZ_ERROR_INPUT_EOF || st == LZMA_STATUS_NEEDS_MORE_INPUT)
        return mcl__fail(c, MCL_ERR_COMPRESSION, off, "LZMA stream cut off after %zu of %u decoded bytes",
                         (size_t)out_len, declared);
    if (r == SZ_ERROR_DATA && out_len == declared)
        return mcl__fail(c, MCL_ERR_COMPRESSION, off, "LZMA stream goes on past its declared %u bytes", declared);
    if (r != SZ_OK) return mcl__fail(c, MCL_ERR_COMPRESSION, off, "LZMA stream corrupt (SDK error %d)", (int)r);
    if (out_len < declared)
        return mcl__fail(c, MCL_ERR_COMPRESSION, off, "LZMA stream ends after %zu bytes; the block declares %u",
                         (size_t)out_len, declared);
    if (st == LZMA_STATUS_NOT_FINISHED || in_len != (SizeT)(len - 9))
        return mcl__fail(c, MCL_ERR_COMPRESSION, off,
                         "LZMA stream goes on past its declared %u bytes (%zu compressed bytes unused)", declared,
                         (size_t)(len - 9 - in_len));
    *out = buf;
    *out_size = declared;
    return MCL_OK;
}

/* ---- pass 1: framing ---- */

/* A byte range whose blocks are children of `parent`. */
typedef struct range {
    const uint8_t *base;
    uint64_t pos, end;
    uint32_t parent;     /* block index, E3_NONE at the top level */
    uint32_t depth;      /* depth of the blocks in this range, top level 1 */
    uint32_t lzma_depth; /* LZMA blocks this range is nested in */
    uint64_t file_off;   /* file offset of base[0] (raw ranges) */
    uint64_t lzma_off;   /* file offset of the outermost LZMA block (decoded ranges) */
    bool decoded;
} range;

typedef struct walker {
    range *stack;
    uint32_t n, cap;
} walker;

static bool push(e3 *s, walker *w, range r)
{
    if (!e3__grow(s, (void **)&w->stack, &w->cap, (uint64_t)w->n + 1, sizeof *w->stack)) return false;
    w->stack[w->n++] = r;
    return true;
}

static uint64_t off_in(const range *r, uint64_t pos)
{
    return r->decoded ? r->lzma_off : r->file_off + pos;
}

static mcl_status record(e3 *s, uint16_t type, const uint8_t *p, uint32_t len, uint32_t parent, uint64_t off,
                         uint32_t *index)
{
    if (!e3__grow(s, (void **)&s->blk, &s->blk_cap, (uint64_t)s->nblk + 1, sizeof *s->blk)) return s->c->err->status;
    e3_blk *b = &s->blk[s->nblk];
    b->type = type;
    b->p = p;
    b->len = len;
    b->parent = parent;
    b->off = off;
    *index = s->nblk++;
    return MCL_OK;
}

/* The track's fixed part: u32 key count, count u32 frames, u8 loop flag
 * (in either order, docs/formats/e3d.md); its sub-blocks follow. */
static mcl_status track_prefix(e3 *s, const uint8_t *p, uint32_t len, uint64_t off, uint32_t *prefix)
{
    uint32_t keys = mc_le32(p);
    if ((uint64_t)keys > ((uint64_t)len - 5) / 4 || len < 5)
        return mcl__fail(s->c, MCL_ERR_SIZE, off, "animationTrack of %u bytes cannot hold %u key frames and a loop flag",
                         len, keys);
    *prefix = 4 + keys * 4 + 1;
    return MCL_OK;
}

static mcl_status walk_block(e3 *s, walker *w, range *rp)
{
    mcl_ctx *c = s->c;
    range cur = *rp, *r = &cur; /* a push may move the stack: work on a copy */
    uint64_t left = r->end - r->pos, at = off_in(r, r->pos);
    bool top_raw = r->parent == E3_NONE && !r->decoded;
    if (left < 6) {
        if (top_raw)
            return mcl__fail(c, MCL_ERR_SIZE, at, "%llu bytes after the last block (expected the file to end there)",
                             (unsigned long long)left);
        return mcl__fail(c, MCL_ERR_STRUCTURE, at, "%llu bytes at the end of a %s cannot hold a block",
                         (unsigned long long)left, r->decoded ? "decoded LZMA block or its parent" : "parent block");
    }
    const uint8_t *h = r->base + r->pos;
    uint16_t type = mc_le16(h);
    uint32_t length = mc_le32(h + 2);
    if (length < 6)
        return mcl__fail(c, MCL_ERR_SIZE, at, "block 0x%04X has length %u (expected at least its 6-byte header)", type,
                         length);
    if (length > left) {
        if (top_raw)
            return mcl__fail(c, MCL_ERR_TRUNCATED, at, "block 0x%04X of %u bytes passes the end of the file (%llu left)",
                             type, length, (unsigned long long)left);
        return mcl__fail(c, MCL_ERR_STRUCTURE, at, "block 0x%04X of %u bytes passes the end of its parent (%llu left)",
                         type, length, (unsigned long long)left);
    }
    rp->pos += length; /* before any push */
    const uint8_t *p = h + 6;
    uint32_t plen = length - 6;
    uint16_t parent_type = r->parent == E3_NONE ? 0 : s->blk[r->parent].type;
    /* any block past max_depth, known or not: the reference reader recurses */
    if (r->depth > c->limits->max_depth)
        return mcl__fail(c, MCL_ERR_LIMIT, at, "block nested %u deep (max_depth %u)", r->depth, c->limits->max_depth);
    if (type == E3_VERSION)
        return mcl__fail(c, MCL_ERR_STRUCTURE, at, "a version block after the first block (expected only at offset 0)");
    if (type == E3_LZMA) {
        /* e3d.adoc, Compression: any series of blocks can be compressed */
        if (r->lzma_depth >= E3_MAX_LZMA_DEPTH)
            return mcl__fail(c, MCL_ERR_LIMIT, at, "LZMA blocks nested more than %u deep", E3_MAX_LZMA_DEPTH);
        const uint8_t *out = NULL;
        uint64_t out_size = 0;
        mcl_status st = lzma_decode(s, p, plen, at, &out, &out_size);
        if (st != MCL_OK) return st;
        range d = {out, 0, out_size, r->parent, r->depth, r->lzma_depth + 1, 0, r->decoded ? r->lzma_off : at, true};
        return push(s, w, d) ? MCL_OK : c->err->status;
    }
    if (type == E3_CAMERA_NODE || type == E3_LIGHT_NODE) {
        if (parent_type == E3_NODES || parent_type == E3_MESH_NODE) return MCL_OK; /* reserved: skipped */
        return mcl__fail(c, MCL_ERR_STRUCTURE, at, "block 0x%04X under block 0x%04X", type, parent_type);
    }
    if (!allowed_under(parent_type, type)) {
        if (!is_known(type)) return MCL_OK; /* e3d.adoc defines no such type: skipped by its length */
        return mcl__fail(c, MCL_ERR_STRUCTURE, at, "block 0x%04X may not appear %s 0x%04X", type,
                         parent_type ? "under block" : "at the top level", parent_type);
    }
    uint32_t index = 0;
    mcl_status st = record(s, type, p, plen, r->parent, at, &index);
    if (st != MCL_OK) return st;
    int prefix = child_prefix(type);
    if (prefix < 0) return MCL_OK;
    uint32_t skip = (uint32_t)prefix;
    if (plen < skip)
        return mcl__fail(c, MCL_ERR_SIZE, at, "block 0x%04X payload of %u bytes (expected at least %u)", type, plen, skip);
    if (type == E3_TRACK && (st = track_prefix(s, p, plen, at, &skip)) != MCL_OK) return st;
    uint64_t base_off = r->decoded ? 0 : (uint64_t)(p + skip - r->base) + r->file_off;
    range child = {p + skip, 0, plen - skip, index, r->depth + 1, r->lzma_depth, base_off, r->lzma_off, r->decoded};
    return push(s, w, child) ? MCL_OK : c->err->status;
}

/* The version block (e3d.adoc, cube example: offset 0, 12 bytes,
 * "E3DF" 0x0100), then every block after it. */
static mcl_status frame(e3 *s, const uint8_t *data, size_t size)
{
    mcl_ctx *c = s->c;
    if (size < 6) return mcl__fail(c, MCL_ERR_TRUNCATED, 0, "%zu bytes (expected at least a 6-byte block header)", size);
    uint16_t type = mc_le16(data);
    uint32_t length = mc_le32(data + 2);
    if (type == E3_LZMA)
        return mcl__fail(c, MCL_ERR_MAGIC, 0, "the file starts with an LZMA block (expected the uncompressed version block)");
    if (type != E3_VERSION)
        return mcl__fail(c, MCL_ERR_MAGIC, 0, "the first block has type 0x%04X (expected the version block 0x0001)", type);
    if (length != 12)
        return mcl__fail(c, MCL_ERR_SIZE, 2, "the version block is %u bytes (expected 12)", length);
    if (size < 12) return mcl__fail(c, MCL_ERR_TRUNCATED, 0, "the version block passes the end of the file");
    if (memcmp(data + 6, "E3DF", 4) != 0)
        return mcl__fail(c, MCL_ERR_MAGIC, 6, "the version signature is not \"E3DF\"");
    /* any version number is only a warning: the layout is read as 1.0 */
    walker w = {NULL, 0, 0};
    range top = {data, 12, size, E3_NONE, 1, 0, 0, 0, false};
    mcl_status st = push(s, &w, top) ? MCL_OK : c->err->status;
    while (st == MCL_OK && w.n) {
        range *r = &w.stack[w.n - 1];
        if (r->pos == r->end) {
            w.n--;
            continue;
        }
        st = walk_block(s, &w, r);
    }
    if (w.stack) mcl__scratch_free(c, w.stack, w.cap, sizeof *w.stack);
    return st;
}

static void release(e3 *s)
{
    mcl_ctx *c = s->c;
    for (uint32_t i = 0; i < s->nbufs; i++) mcl__scratch_free(c, s->bufs[i].p, s->bufs[i].size, 1);
    if (s->bufs) mcl__scratch_free(c, s->bufs, s->buf_cap, sizeof *s->bufs);
    if (s->blk) mcl__scratch_free(c, s->blk, s->blk_cap, sizeof *s->blk);
    e3__content_release(s);
}

mcl_status mcl__load_e3d(mcl_ctx *c, const uint8_t *data, size_t size)
{
    e3 s;
    memset(&s, 0, sizeof s);
    s.c = c;
    c->model->layout = "e3d1";
    mcl_status st = frame(&s, data, size);
    if (st == MCL_OK) st = e3__content(&s);
    if (st == MCL_OK) st = e3__build(&s);
    release(&s);
    return st;
}
