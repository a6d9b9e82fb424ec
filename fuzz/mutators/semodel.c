/*
 * SEModel (../shared/specs/semodel.md; FIELD-NOTES "SEModel": the 2018
 * layout every real writer uses). Magic, version, then the 2018 header
 * (headerSize 0x14, data/bone/mesh flags, bone, mesh and material counts,
 * 3 reserved bytes); bone names (NUL-terminated) and bone records; meshes
 * (flags, UV layer count, max influence, vertex and face counts, one array
 * per attribute, faces, material indices); materials (name, isSimple, three
 * texture names). Bone names and records share the bone count, a mesh's
 * attribute arrays share its vertex count, so an element more or less moves
 * them together. Strings grow or shrink without a NUL inside. A draft-layout
 * header (headerSize 0x1C or 30) gets header-field edits only.
 */
#include <stdlib.h>
#include <string.h>

#include "mcm.h"

enum { SE_HEADER = 29, MAX_ITEMS = 1024 };

typedef struct {
    const uint8_t *d;
    size_t size, at;
    bool fail;
} cursor;

static bool need(cursor *c, size_t n)
{
    if (c->fail || c->size - c->at < n) c->fail = true;
    return !c->fail;
}

/* A NUL-terminated string at the cursor: a blob, and its span (with NUL). */
static bool string(mcm_layout *l, cursor *c, size_t *span)
{
    if (c->fail) return false;
    const uint8_t *nul = memchr(c->d + c->at, 0, c->size - c->at);
    if (!nul) {
        c->fail = true;
        return false;
    }
    size_t len = (size_t)(nul - (c->d + c->at));
    mcm_add_blob(l, c->at, len, 0, 0);
    *span = len + 1;
    c->at += len + 1;
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

static void arr(mcm_layout *l, cursor *c, size_t count_off, uint32_t count, size_t elem, const char *shape)
{
    if (c->fail || elem == 0) return;
    size_t room = (c->size - c->at) / elem;
    size_t n = count < room ? count : room;
    if (n) mcm_add_group(l, c->at, elem, n, count_off, 4, shape);
    c->at += n * elem;
    if (n < count) c->fail = true;
}

static void mesh(mcm_layout *l, cursor *c, uint8_t flags, uint32_t bones)
{
    static const char *const face_shapes[5] = {NULL, "bbb", "hhh", NULL, "uuu"};
    if (!need(c, 11)) return;
    size_t h = c->at;
    mcm_add_field(l, h, 1, 'b');
    mcm_add_field(l, h + 1, 1, 'n');
    mcm_add_field(l, h + 2, 1, 'n');
    uint32_t layers = c->d[h + 1], influence = c->d[h + 2];
    uint32_t verts = mcm_le32(c->d + h + 3), faces = mcm_le32(c->d + h + 7);
    c->at += 11;
    size_t vc = h + 3;
    arr(l, c, vc, verts, 12, "fff");
    if (flags & 1) arr(l, c, vc, verts, 8 * (size_t)layers, "ff");
    if (flags & 2) arr(l, c, vc, verts, 12, "fff");
    if (flags & 4) arr(l, c, vc, verts, 4, "bbbb");
    if (flags & 8) arr(l, c, vc, verts, (size_t)influence * (index_width(bones) + 4), NULL);
    unsigned fw = index_width(verts);
    arr(l, c, h + 7, faces, 3 * (size_t)fw, face_shapes[fw]);
    if (!need(c, 4 * (size_t)layers)) return;
    for (uint32_t k = 0; k < layers; k++) mcm_add_field(l, c->at + 4 * (size_t)k, 4, 'i');
    c->at += 4 * (size_t)layers;
}

static void parse(mcm_layout *l, const uint8_t *d, size_t size)
{
    mcm_add_field(l, 7, 2, 'h');
    mcm_add_field(l, 9, 2, 'n');
    for (size_t k = 11; k < 14; k++) mcm_add_field(l, k, 1, 'b');
    for (size_t k = 14; k < 26; k += 4) mcm_add_field(l, k, 4, 'n');
    if (mcm_le16(d + 9) != 0x14) return; /* draft layout: header fields only */
    uint8_t data_flags = d[11], bone_flags = d[12], mesh_flags = d[13];
    uint32_t bones = mcm_le32(d + 14), meshes = mcm_le32(d + 18), mats = mcm_le32(d + 22);
    cursor c = {d, size, SE_HEADER, false};
    if (data_flags & 1) {
        mcm_group *names = mcm_add_group(l, 0, 0, 0, 14, 4, NULL);
        for (uint32_t b = 0; b < bones && b < MAX_ITEMS && !c.fail; b++) {
            size_t at = c.at, span;
            if (string(l, &c, &span)) rec(names, b, at, span);
        }
        size_t elem = 5 + ((bone_flags & 1) ? 28 : 0) + ((bone_flags & 2) ? 28 : 0) + ((bone_flags & 4) ? 12 : 0);
        /* u8 flags, i32 parent, then 7 floats per transform, 3 for scale */
        static const char *const shapes[8] = {"bi",           "bifffffff",    "bifffffff",
                                              "biffffffffffffff", "bifff",    "biffffffffff",
                                              "biffffffffff", "bifffffffffffffffff"};
        if (bones && !c.fail) arr(l, &c, 14, bones, elem, shapes[bone_flags & 7]);
        if (bones > MAX_ITEMS) return;
    }
    if (data_flags & 2) {
        mcm_group *mg = mcm_add_group(l, 0, 0, 0, 18, 4, NULL);
        for (uint32_t m = 0; m < meshes && m < MAX_ITEMS && !c.fail; m++) {
            size_t at = c.at;
            mesh(l, &c, mesh_flags, bones);
            if (!c.fail) rec(mg, m, at, c.at - at);
        }
    }
    if (data_flags & 4) {
        mcm_group *tg = mcm_add_group(l, 0, 0, 0, 22, 4, NULL);
        for (uint32_t m = 0; m < mats && m < MAX_ITEMS && !c.fail; m++) {
            size_t at = c.at, span;
            if (!string(l, &c, &span) || !need(&c, 1)) break;
            mcm_add_field(l, c.at, 1, 'b');
            bool simple = d[c.at] != 0;
            c.at++;
            for (int k = 0; simple && k < 3 && !c.fail; k++) (void)string(l, &c, &span);
            if (!c.fail) rec(tg, m, at, c.at - at);
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
    mcm_layout *l = malloc(sizeof *l);
    if (!l) return mcm_bytes(&r, data, size, max_size);
    mcm_layout_init(l);
    parse(l, data, size);
    size = mcm_layout_mutate(l, &r, data, size, max_size);
    free(l);
    return size;
}
