/*
 * NLM (nlm.md, docs/formats/nlm.md): 16-byte header (hash, 'LDOM', version,
 * animation flag), AABB, meshes (vertex and index counts, 76-byte vertices,
 * u32 indices, a length-prefixed texture blob), then when animated: duration
 * and rate, bone infos, bone key tracks (three counted key arrays each),
 * nodes with counted child lists. Everything is sequential and counted, so
 * adding or removing an element and fixing its count keeps the file framed;
 * variable-size records (meshes, tracks, nodes) are groups too, so whole
 * records can be duplicated or dropped.
 */
#include <stdlib.h>

#include "mc_reader.h"
#include "mcm.h"

enum { NLM_HEADER = 16, NLM_MAX_RECORDS = 4096 };

/* A counted array of fixed elements at the cursor; returns false when the
 * input ends first (the part that is there is still described). */
static bool array(mcm_layout *l, mc_reader *c, size_t count_off, uint32_t count, size_t elem, const char *shape)
{
    if (c->fail) return false;
    size_t room = mc_reader_left(c) / elem;
    size_t n = count < room ? count : room;
    if (n) mcm_add_group(l, c->pos, elem, n, count_off, 4, shape);
    c->pos += n * elem;
    if (n < count) c->fail = true;
    return !c->fail;
}

static void record(mcm_group *g, size_t i, size_t off, size_t end)
{
    if (!g || i >= MCM_MAX_RECS) return;
    g->rec_off[i] = off;
    g->rec_len[i] = end - off;
}

static void parse(mcm_layout *l, const uint8_t *d, size_t size, void *ctx)
{
    (void)ctx;
    mc_reader c = mc_reader_make(d, size);
    c.pos = NLM_HEADER; /* the caller checked that the header is there */
    mcm_add_field(l, 0, 4, 'x');
    mcm_add_field(l, 8, 4, 'u');
    mcm_add_field(l, 12, 4, 'u');
    bool animated = mc_le32(d + 12) != 0;
    for (int k = 0; k < 6; k++) mcm_add_field(l, c.pos + 4 * (size_t)k, 4, 'f');
    (void)mc_reader_skip(&c, 24);
    size_t mc_off = c.pos;
    uint32_t meshes = mc_read_u32(&c);
    mcm_add_field(l, mc_off, 4, 'n');
    mcm_group *mg = mcm_add_group(l, 0, 0, 0, mc_off, 4, NULL);
    for (uint32_t m = 0; m < meshes && m < NLM_MAX_RECORDS && !c.fail; m++) {
        size_t start = c.pos, vc_off = c.pos;
        uint32_t vc = mc_read_u32(&c), ic = mc_read_u32(&c);
        array(l, &c, vc_off, vc, 76, "fffffffffffiiiiffff");
        array(l, &c, vc_off + 4, ic, 4, "u");
        size_t tex_off = c.pos;
        uint32_t tex = mc_read_u32(&c);
        if (c.fail) break;
        size_t n = tex < mc_reader_left(&c) ? tex : mc_reader_left(&c);
        (void)mcm_add_blob(l, c.pos, n, tex_off, 4);
        c.pos += n;
        if (n < tex) c.fail = true;
        if (mg) mg->count = m + 1;
        record(mg, m, start, c.pos);
    }
    if (!animated || c.fail) return;
    if (mc_reader_left(&c) < 8) return;
    mcm_add_field(l, c.pos, 4, 'f');
    mcm_add_field(l, c.pos + 4, 4, 'i');
    c.pos += 8;
    size_t bc_off = c.pos;
    array(l, &c, bc_off, mc_read_u32(&c), 72, "iffffffffffffffffi");
    size_t tc_off = c.pos;
    uint32_t tracks = mc_read_u32(&c);
    mcm_group *tg = mcm_add_group(l, 0, 0, 0, tc_off, 4, NULL);
    for (uint32_t k = 0; k < tracks && k < NLM_MAX_RECORDS && !c.fail; k++) {
        size_t start = c.pos;
        if (!mc_reader_skip(&c, 8)) break;
        mcm_add_field(l, start, 4, 'i');
        mcm_add_field(l, start + 4, 4, 'i');
        size_t counts = c.pos;
        uint32_t np = mc_read_u32(&c), nr = mc_read_u32(&c), ns = mc_read_u32(&c);
        array(l, &c, counts, np, 16, "ffff");
        array(l, &c, counts + 4, nr, 20, "fffff");
        array(l, &c, counts + 8, ns, 16, "ffff");
        if (tg) tg->count = k + 1;
        record(tg, k, start, c.pos);
    }
    size_t nc_off = c.pos;
    uint32_t nodes = mc_read_u32(&c);
    mcm_group *ng = mcm_add_group(l, 0, 0, 0, nc_off, 4, NULL);
    for (uint32_t k = 0; k < nodes && k < NLM_MAX_RECORDS && !c.fail; k++) {
        size_t start = c.pos;
        if (!mc_reader_skip(&c, 68)) break;
        mcm_add_field(l, start, 4, 'i');
        size_t cc_off = c.pos;
        array(l, &c, cc_off, mc_read_u32(&c), 4, "i");
        if (ng) ng->count = k + 1;
        record(ng, k, start, c.pos);
    }
}

size_t mcm_mutate_nlm(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    if (size > max_size) size = max_size;
    if (size < NLM_HEADER + 28 || mcm_chance(&r, 16)) return mcm_bytes(&r, data, size, max_size);
    return mcm_layout_run(parse, NULL, &r, data, size, max_size);
}

size_t mcm_cut_nlm(uint8_t *data, size_t size, size_t k)
{
    return size < NLM_HEADER + 28 ? 0 : mcm_layout_cut(parse, NULL, data, size, k);
}
