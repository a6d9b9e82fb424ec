/*
 * SEModel (semodel.md; docs/formats/semodel.md: the 2018 layout every real
 * writer uses). Magic, version, then the 2018 header (headerSize 0x14,
 * data/bone/mesh flags, bone, mesh and material counts, 3 reserved bytes);
 * bone names (NUL-terminated) and bone records; meshes (flags, UV layer
 * count, max influence, vertex and face counts, one array per attribute,
 * faces, material indices); materials (name, isSimple, three texture names).
 * Bone names and records share the bone count, a mesh's attribute arrays
 * share its vertex count, so an element more or less moves them together.
 * Strings grow or shrink without a NUL inside. The 2017 draft layout
 * (semodel.md, headerSize 0x1E or 0x1C: a 30-byte header with model type and
 * flags, collision count, one global maxSkinInfluence) has the same bones,
 * then meshes of one record per vertex (position, UV layers each with a mat_t
 * material index, half normal, colour, bone_t indices then half weights) and
 * u32 faces; its collision and material blocks have no layout (TODO in the
 * draft), so bytes after the meshes are left to byte mutation.
 */
#include <stdlib.h>
#include <string.h>

#include "mc_reader.h"
#include "mcm.h"

enum { SE_HEADER = 29, SE_DRAFT_HEADER = 39, MAX_ITEMS = 1024, MAX_SHAPE = 48 };

/* A NUL-terminated string at the cursor: a blob, and its span (with NUL). */
static bool string(mcm_layout *l, mc_reader *c, size_t *span)
{
    if (c->fail) return false;
    const uint8_t *nul = memchr(c->p + c->pos, 0, mc_reader_left(c));
    if (!nul) {
        c->fail = true;
        return false;
    }
    size_t len = (size_t)(nul - (c->p + c->pos));
    mcm_add_blob(l, c->pos, len, 0, 0);
    *span = len + 1;
    c->pos += len + 1;
    return true;
}

static void rec(mcm_group *g, size_t i, size_t off, size_t len)
{
    if (!g || i >= MCM_MAX_RECS) return;
    g->rec_off[i] = off;
    g->rec_len[i] = len;
    g->count = i + 1;
}

static unsigned index_width(uint32_t count)
{
    return count <= 0xFF ? 1 : count <= 0xFFFF ? 2 : 4;
}

static void arr(mcm_layout *l, mc_reader *c, size_t count_off, uint32_t count, size_t elem, const char *shape)
{
    if (c->fail || elem == 0) return;
    size_t room = (mc_reader_left(c)) / elem;
    size_t n = count < room ? count : room;
    if (n) mcm_add_group(l, c->pos, elem, n, count_off, 4, shape);
    c->pos += n * elem;
    if (n < count) c->fail = true;
}

static void mesh(mcm_layout *l, mc_reader *c, uint8_t flags, uint32_t bones)
{
    static const char *const face_shapes[5] = {NULL, "bbb", "hhh", NULL, "uuu"};
    if (!mc_reader_need(c, 11)) return;
    size_t h = c->pos;
    mcm_add_field(l, h, 1, 'b');
    mcm_add_field(l, h + 1, 1, 'n');
    mcm_add_field(l, h + 2, 1, 'n');
    uint32_t layers = c->p[h + 1], influence = c->p[h + 2];
    uint32_t verts = mc_le32(c->p + h + 3), faces = mc_le32(c->p + h + 7);
    c->pos += 11;
    size_t vc = h + 3;
    arr(l, c, vc, verts, 12, "fff");
    if (flags & 1) arr(l, c, vc, verts, 8 * (size_t)layers, "ff");
    if (flags & 2) arr(l, c, vc, verts, 12, "fff");
    if (flags & 4) arr(l, c, vc, verts, 4, "bbbb");
    if (flags & 8) arr(l, c, vc, verts, (size_t)influence * (index_width(bones) + 4), NULL);
    unsigned fw = index_width(verts);
    arr(l, c, h + 7, faces, 3 * (size_t)fw, face_shapes[fw]);
    if (!mc_reader_need(c, 4 * (size_t)layers)) return;
    for (uint32_t k = 0; k < layers; k++) mcm_add_field(l, c->pos + 4 * (size_t)k, 4, 'i');
    c->pos += 4 * (size_t)layers;
}

/* Bone names, then one record per bone (both layouts); false when the
 * count is too large to follow. */
static bool bones_block(mcm_layout *l, mc_reader *c, size_t count_off, uint32_t bones, uint8_t bone_flags)
{
    mcm_group *names = mcm_add_group(l, 0, 0, 0, count_off, 4, NULL);
    for (uint32_t b = 0; b < bones && b < MAX_ITEMS && !c->fail; b++) {
        size_t at = c->pos, span;
        if (string(l, c, &span)) rec(names, b, at, span);
    }
    size_t elem = 5 + ((bone_flags & 1) ? 28 : 0) + ((bone_flags & 2) ? 28 : 0) + ((bone_flags & 4) ? 12 : 0);
    /* u8 flags, i32 parent, then 7 floats per transform, 3 for scale */
    static const char *const shapes[8] = {"bi",           "bifffffff",    "bifffffff",
                                          "biffffffffffffff", "bifff",    "biffffffffff",
                                          "biffffffffff", "bifffffffffffffffff"};
    if (bones && !c->fail) arr(l, c, count_off, bones, elem, shapes[bone_flags & 7]);
    return bones <= MAX_ITEMS;
}

/* One draft vertex record's shape, or NULL (opaque) when it does not fit. */
static const char *draft_vertex_shape(char *buf, uint8_t flags, uint32_t layers, uint32_t influence,
                                      char mat_kind, char bone_kind)
{
    size_t n = 0;
    const size_t cap = MAX_SHAPE - 1;
#define PUT(str)                                                                                           \
    do {                                                                                                   \
        size_t len_ = strlen(str);                                                                         \
        if (len_ > cap - n) return NULL;                                                                   \
        memcpy(buf + n, str, len_);                                                                        \
        n += len_;                                                                                         \
    } while (0)
    char mat[2] = {mat_kind, 0}, bone[2] = {bone_kind, 0};
    PUT("fff");
    for (uint32_t k = 0; (flags & 1) && k < layers; k++) PUT("ff");
    for (uint32_t k = 0; (flags & 1) && k < layers; k++) PUT(mat);
    if (flags & 2) PUT("hhh");
    if (flags & 4) PUT("bbbb");
    for (uint32_t k = 0; (flags & 8) && k < influence; k++) PUT(bone);
    for (uint32_t k = 0; (flags & 8) && k < influence; k++) PUT("h");
#undef PUT
    buf[n] = '\0';
    return buf;
}

static char width_kind(unsigned width)
{
    return width == 1 ? 'b' : width == 2 ? 'h' : 'u';
}

/* semodel.md: SEModel_Header (30 bytes at 9), bones, SEModel_MeshData. */
static void parse_draft(mcm_layout *l, const uint8_t *d, size_t size, char (*shapes)[MAX_SHAPE])
{
    if (size < SE_DRAFT_HEADER) return;
    mcm_add_field(l, 11, 1, 'b');  /* modelType */
    mcm_add_field(l, 12, 2, 'h');  /* modelFlags */
    for (size_t k = 14; k < 19; k++) mcm_add_field(l, k, 1, 'b');
    for (size_t k = 19; k < 35; k += 4) mcm_add_field(l, k, 4, 'n');
    mcm_add_field(l, 35, 1, 'n'); /* maxSkinInfluence */
    for (size_t k = 36; k < 39; k++) mcm_add_field(l, k, 1, 'b');
    uint8_t data_flags = d[14], bone_flags = d[15], mesh_flags = d[16], influence = d[35];
    uint32_t bones = mc_le32(d + 19), meshes = mc_le32(d + 23), mats = mc_le32(d + 31);
    mc_reader c = mc_reader_make(d, size);
    c.pos = SE_DRAFT_HEADER; /* checked above */
    if ((data_flags & 1) && !bones_block(l, &c, 19, bones, bone_flags)) return;
    if (!(data_flags & 2)) return;
    mcm_group *mg = mcm_add_group(l, 0, 0, 0, 23, 4, NULL);
    char mat_kind = mats <= 0xFF ? 'b' : 'h', bone_kind = width_kind(index_width(bones));
    for (uint32_t m = 0; m < meshes && m < MAX_ITEMS && !c.fail; m++) {
        if (!mc_reader_need(&c, 10)) break;
        size_t h = c.pos;
        mcm_add_field(l, h, 1, 'b');
        mcm_add_field(l, h + 1, 1, 'n'); /* uvSetCount */
        uint32_t layers = d[h + 1], verts = mc_le32(d + h + 2), faces = mc_le32(d + h + 6);
        c.pos += 10;
        size_t elem = 12;
        if (mesh_flags & 1) elem += (size_t)layers * (8 + (mat_kind == 'b' ? 1 : 2));
        if (mesh_flags & 2) elem += 6;
        if (mesh_flags & 4) elem += 4;
        if (mesh_flags & 8) elem += (size_t)influence * ((size_t)index_width(bones) + 2);
        const char *shape = m < MCM_MAX_RECS
                                ? draft_vertex_shape(shapes[m], mesh_flags, layers, influence, mat_kind, bone_kind)
                                : NULL;
        arr(l, &c, h + 2, verts, elem, shape);
        arr(l, &c, h + 6, faces, 12, "uuu");
        if (!c.fail) rec(mg, m, h, c.pos - h);
    }
}

static void parse(mcm_layout *l, const uint8_t *d, size_t size, void *ctx)
{
    char(*shapes)[MAX_SHAPE] = ctx;
    mcm_add_field(l, 7, 2, 'h');
    mcm_add_field(l, 9, 2, 'n');
    uint16_t header_size = mc_le16(d + 9);
    if (header_size == 0x1E || header_size == 0x1C) {
        parse_draft(l, d, size, shapes);
        return;
    }
    for (size_t k = 11; k < 14; k++) mcm_add_field(l, k, 1, 'b');
    for (size_t k = 14; k < 26; k += 4) mcm_add_field(l, k, 4, 'n');
    if (header_size != 0x14) return; /* neither layout: header fields only */
    uint8_t data_flags = d[11], bone_flags = d[12], mesh_flags = d[13];
    uint32_t bones = mc_le32(d + 14), meshes = mc_le32(d + 18), mats = mc_le32(d + 22);
    mc_reader c = mc_reader_make(d, size);
    c.pos = SE_HEADER; /* the caller checked that the header is there */
    if ((data_flags & 1) && !bones_block(l, &c, 14, bones, bone_flags)) return;
    if (data_flags & 2) {
        mcm_group *mg = mcm_add_group(l, 0, 0, 0, 18, 4, NULL);
        for (uint32_t m = 0; m < meshes && m < MAX_ITEMS && !c.fail; m++) {
            size_t at = c.pos;
            mesh(l, &c, mesh_flags, bones);
            if (!c.fail) rec(mg, m, at, c.pos - at);
        }
    }
    if (data_flags & 4) {
        mcm_group *tg = mcm_add_group(l, 0, 0, 0, 22, 4, NULL);
        for (uint32_t m = 0; m < mats && m < MAX_ITEMS && !c.fail; m++) {
            size_t at = c.pos, span;
            if (!string(l, &c, &span) || !mc_reader_need(&c, 1)) break;
            mcm_add_field(l, c.pos, 1, 'b');
            bool simple = d[c.pos] != 0;
            c.pos++;
            for (int k = 0; simple && k < 3 && !c.fail; k++) (void)string(l, &c, &span);
            if (!c.fail) rec(tg, m, at, c.pos - at);
        }
    }
}

size_t mcm_mutate_semodel(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    if (size > max_size) size = max_size;
    if (size < SE_HEADER || memcmp(data, "SEModel", 7) != 0 || mcm_chance(&r, 16))
        return mcm_bytes(&r, data, size, max_size);
    char shapes[MCM_MAX_RECS][MAX_SHAPE]; /* draft vertex shapes, alive while the layout is */
    return mcm_layout_run(parse, shapes, &r, data, size, max_size);
}

size_t mcm_cut_semodel(uint8_t *data, size_t size, size_t k)
{
    if (size < SE_HEADER || memcmp(data, "SEModel", 7) != 0) return 0;
    char shapes[MCM_MAX_RECS][MAX_SHAPE];
    return mcm_layout_cut(parse, shapes, data, size, k);
}
