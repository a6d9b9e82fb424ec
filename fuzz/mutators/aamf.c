/*
 * AAMF / SAMF (aamf.md of github.com/kiwanowski/UnnamedHB1, docs/formats/aamf.md
 * "AAMF / SAMF").
 *
 * SAMF v2: 16-byte packed header ('SAMF' or 'AAMF', u16 version, u16 bones,
 * u16 animations, u32 vertices at offset 10, u16 faces), bone table and bind
 * poses (both counted by the bone count: they grow together), positions,
 * normals and skin weights (all three counted by the vertex count), u16
 * faces. Legacy: u16 bones, u16 animations, bone table, one block per bone
 * (u32 block_size counting itself, then an embedded AMF mesh whose chunk
 * primitive counts become groups inside the block). Both end with animation
 * blocks: u32 block_size, name[8], u32 key frames, u32 pointer, then
 * bones x key frames 32-byte MATRIX records; a key frame more or less is one
 * row of bone_count matrices, with block_size fixed.
 */
#include <stdlib.h>

#include "mc_reader.h"
#include "mcm.h"

enum { MAX_BLOCKS = 256, MAX_CHUNKS = 16 };

static const char *const matrix = "hhhhhhhhhhiii"; /* 9 x 4.12, pad, 3 x int32 */

/* Animation blocks from at; anim_count at count_off (u16). */
static void animations(mcm_layout *l, const uint8_t *d, size_t size, size_t at, size_t count_off, uint32_t anims,
                       uint32_t bones)
{
    mcm_group *ag = mcm_add_group(l, 0, 0, 0, count_off, 2, NULL);
    for (uint32_t a = 0; a < anims && a < MAX_BLOCKS; a++) {
        if (size - at < 20) return;
        uint32_t bs = mc_le32(d + at);
        if (bs < 20 || bs > size - at) return;
        mcm_add_field(l, at + 4, 1, 'c');
        mcm_add_field(l, at + 12, 4, 'n');
        mcm_add_field(l, at + 16, 4, 'u');
        uint32_t keys = mc_le32(d + at + 12);
        size_t rows = bones ? (bs - 20) / (32 * (size_t)bones) : 0;
        if (rows > keys) rows = keys;
        if (rows) {
            mcm_group *kg = mcm_add_group(l, at + 20, 32 * (size_t)bones, rows, at + 12, 4, NULL);
            if (kg) mcm_sizes_add(&kg->enclosing, at, 4);
            mcm_add_group(l, at + 20, 32, rows * bones, 0, 0, matrix); /* field edits only */
        }
        if (ag && a < MCM_MAX_RECS) {
            ag->rec_off[a] = at;
            ag->rec_len[a] = bs;
            ag->count = a + 1;
        }
        at += bs;
    }
}

static void samf(mcm_layout *l, const uint8_t *d, size_t size)
{
    mcm_add_field(l, 0, 1, 'b');
    mcm_add_field(l, 4, 2, 'h');
    mcm_add_field(l, 6, 2, 'n');
    mcm_add_field(l, 8, 2, 'n');
    mcm_add_field(l, 10, 4, 'n');
    mcm_add_field(l, 14, 2, 'n');
    uint32_t bones = mc_le16(d + 6), anims = mc_le16(d + 8), verts = mc_le32(d + 10), faces = mc_le16(d + 14);
    size_t at = 16;
    struct {
        size_t count_off;
        unsigned w;
        uint32_t count;
        size_t elem;
        const char *shape;
    } arrays[6] = {{6, 2, bones, 4, "hh"},          {6, 2, bones, 32, matrix},
                   {10, 4, verts, 8, "hhhh"},       {10, 4, verts, 8, "hhhh"},
                   {10, 4, verts, 8, "bbbbbbbb"},   {14, 2, faces, 6, "hhh"}};
    for (int k = 0; k < 6; k++) {
        size_t room = (size - at) / arrays[k].elem;
        size_t n = arrays[k].count < room ? arrays[k].count : room;
        if (n) mcm_add_group(l, at, arrays[k].elem, n, arrays[k].count_off, arrays[k].w, arrays[k].shape);
        at += n * arrays[k].elem;
        if (n < arrays[k].count) return;
    }
    animations(l, d, size, at, 8, anims, bones);
}

/* Embedded AMF of a legacy bone block (docs/formats/aamf.md): header fields, then
 * per chunk eight u16 primitive counts and eight u32 pointers, then the
 * primitives; each primitive list is a group inside the block. */
static void amf(mcm_layout *l, const uint8_t *d, size_t at, size_t end, size_t block_off)
{
    static const size_t prim[8] = {64, 100, 84, 136, 52, 76, 68, 92};
    if (end - at < 24) return;
    mcm_add_field(l, at, 4, 'u');
    mcm_add_field(l, at + 4, 2, 'h');
    mcm_add_field(l, at + 6, 2, 'h');
    uint32_t tex = mc_le32(d + at) & 0x7FFFFFFFu, x = mc_le16(d + at + 4), z = mc_le16(d + at + 6);
    at += 24;
    if (tex > (end - at) / 8) return;
    at += 8 * (size_t)tex;
    uint64_t chunks = (uint64_t)x * z;
    if (chunks > (end - at) / 4) return;
    at += 4 * (size_t)chunks;
    for (uint64_t c = 0; c < chunks && c < MAX_CHUNKS; c++) {
        if (end - at < 48) return;
        size_t counts = at;
        at += 48;
        for (int k = 0; k < 8; k++) {
            uint32_t n = mc_le16(d + counts + 2 * (size_t)k);
            if (n > (end - at) / prim[k]) return;
            if (n) {
                mcm_group *g = mcm_add_group(l, at, prim[k], n, counts + 2 * (size_t)k, 2, NULL);
                if (g) mcm_sizes_add(&g->enclosing, block_off, 4);
            }
            at += n * prim[k];
        }
    }
}

static void legacy(mcm_layout *l, const uint8_t *d, size_t size)
{
    mcm_add_field(l, 0, 2, 'n');
    mcm_add_field(l, 2, 2, 'n');
    uint32_t bones = mc_le16(d), anims = mc_le16(d + 2);
    size_t at = 4;
    if (bones > (size - at) / 4) return;
    if (bones) mcm_add_group(l, at, 4, bones, 0, 0, "hh"); /* rows tie to the bone blocks: no resize */
    at += 4 * (size_t)bones;
    for (uint32_t b = 0; b < bones; b++) {
        if (size - at < 4) return;
        uint32_t bs = mc_le32(d + at);
        if (bs < 4 || bs > size - at) return;
        if (b < MAX_BLOCKS) amf(l, d, at + 4, at + bs, at);
        at += bs;
    }
    animations(l, d, size, at, 2, anims, bones);
}

/* SAMF by its magic, else the legacy layout */
static void parse(mcm_layout *l, const uint8_t *data, size_t size, void *ctx)
{
    (void)ctx;
    bool magic = (data[0] == 'S' || data[0] == 'A') && data[1] == 'A' && data[2] == 'M' && data[3] == 'F';
    if (magic) samf(l, data, size);
    else legacy(l, data, size);
}

size_t mcm_mutate_aamf(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    if (size > max_size) size = max_size;
    if (size < 16 || mcm_chance(&r, 16)) return mcm_bytes(&r, data, size, max_size);
    return mcm_layout_run(parse, NULL, &r, data, size, max_size);
}

size_t mcm_cut_aamf(uint8_t *data, size_t size, size_t k)
{
    return size < 16 ? 0 : mcm_layout_cut(parse, NULL, data, size, k);
}
