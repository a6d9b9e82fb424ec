/*
 * NLM (../shared/specs/nlm.md, FIELD-NOTES "NLM"): 16-byte header (hash,
 * 'LDOM', version, animation flag), AABB, meshes (vertex and index counts,
 * 76-byte vertices, u32 indices, a length-prefixed texture blob), then when
 * animated: duration and rate, bone infos, bone key tracks (three counted
 * key arrays each), nodes with counted child lists. Everything is sequential
 * and counted, so adding or removing an element and fixing its count keeps
 * the file framed; variable-size records (meshes, tracks, nodes) are groups
 * too, so whole records can be duplicated or dropped.
 */
#include <stdlib.h>

#include "mcm.h"

enum { NLM_HEADER = 16, NLM_MAX_RECORDS = 4096 };

typedef struct {
    const uint8_t *d;
    size_t size, at;
    bool fail;
} cursor;

static bool skip(cursor *c, size_t n)
{
    if (c->fail || c->size - c->at < n) c->fail = true;
    else c->at += n;
    return !c->fail;
}

static uint32_t take32(cursor *c)
{
    if (c->fail || c->size - c->at < 4) {
        c->fail = true;
        return 0;
    }
    uint32_t v = mcm_le32(c->d + c->at);
    c->at += 4;
    return v;
}

/* A counted array of fixed elements at the cursor; returns false when the
 * input ends first (the part that is there is still described). */
static bool array(mcm_layout *l, cursor *c, size_t count_off, uint32_t count, size_t elem, const char *shape)
{
    if (c->fail) return false;
    size_t room = (c->size - c->at) / elem;
    size_t n = count < room ? count : room;
    if (n) mcm_add_group(l, c->at, elem, n, count_off, 4, shape);
    c->at += n * elem;
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
    cursor c = {d, size, NLM_HEADER, false};
    mcm_add_field(l, 0, 4, 'x');
    mcm_add_field(l, 8, 4, 'u');
    mcm_add_field(l, 12, 4, 'u');
    bool animated = mcm_le32(d + 12) != 0;
    for (int k = 0; k < 6; k++) mcm_add_field(l, c.at + 4 * (size_t)k, 4, 'f');
    (void)skip(&c, 24);
    size_t mc_off = c.at;
    uint32_t meshes = take32(&c);
    mcm_add_field(l, mc_off, 4, 'n');
    mcm_group *mg = mcm_add_group(l, 0, 0, 0, mc_off, 4, NULL);
    for (uint32_t m = 0; m < meshes && m < NLM_MAX_RECORDS && !c.fail; m++) {
        size_t start = c.at, vc_off = c.at;
        uint32_t vc = take32(&c), ic = take32(&c);
        array(l, &c, vc_off, vc, 76, "fffffffffffiiiiffff");
        array(l, &c, vc_off + 4, ic, 4, "u");
        size_t tex_off = c.at;
        uint32_t tex = take32(&c);
        if (c.fail) break;
        size_t n = tex < c.size - c.at ? tex : c.size - c.at;
        (void)mcm_add_blob(l, c.at, n, tex_off, 4);
        c.at += n;
        if (n < tex) c.fail = true;
        if (mg) mg->count = m + 1;
        record(mg, m, start, c.at);
    }
    if (!animated || c.fail) return;
    if (c.size - c.at < 8) return;
    mcm_add_field(l, c.at, 4, 'f');
    mcm_add_field(l, c.at + 4, 4, 'i');
    c.at += 8;
    size_t bc_off = c.at;
    array(l, &c, bc_off, take32(&c), 72, "iffffffffffffffffi");
    size_t tc_off = c.at;
    uint32_t tracks = take32(&c);
    mcm_group *tg = mcm_add_group(l, 0, 0, 0, tc_off, 4, NULL);
    for (uint32_t k = 0; k < tracks && k < NLM_MAX_RECORDS && !c.fail; k++) {
        size_t start = c.at;
        if (!skip(&c, 8)) break;
        mcm_add_field(l, start, 4, 'i');
        mcm_add_field(l, start + 4, 4, 'i');
        size_t counts = c.at;
        uint32_t np = take32(&c), nr = take32(&c), ns = take32(&c);
        array(l, &c, counts, np, 16, "ffff");
        array(l, &c, counts + 4, nr, 20, "fffff");
        array(l, &c, counts + 8, ns, 16, "ffff");
        if (tg) tg->count = k + 1;
        record(tg, k, start, c.at);
    }
    size_t nc_off = c.at;
    uint32_t nodes = take32(&c);
    mcm_group *ng = mcm_add_group(l, 0, 0, 0, nc_off, 4, NULL);
    for (uint32_t k = 0; k < nodes && k < NLM_MAX_RECORDS && !c.fail; k++) {
        size_t start = c.at;
        if (!skip(&c, 68)) break;
        mcm_add_field(l, start, 4, 'i');
        size_t cc_off = c.at;
        array(l, &c, cc_off, take32(&c), 4, "i");
        if (ng) ng->count = k + 1;
        record(ng, k, start, c.at);
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
