/* Fixes of NLM (nlm.md): the writer's stale bounding box. */
#include <math.h>
#include <stdbool.h>

#include "mc_fixer.h"

typedef struct box {
    double lo[3], hi[3];
    bool any;
} box;

/* A vertex with a non-finite coordinate bounds nothing (its own code). */
static void add_vertex(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    box *b = (box *)arg;
    const mc_field *pf = mc_fx_field(rec, "position");
    double p[3];
    for (uint32_t a = 0; a < 3; a++)
        if (!pf || !mc_fx_get(fx, rec, pf, a, &p[a]) || !isfinite(p[a])) return;
    for (int a = 0; a < 3; a++) {
        if (!b->any || p[a] < b->lo[a]) b->lo[a] = p[a];
        if (!b->any || p[a] > b->hi[a]) b->hi[a] = p[a];
    }
    b->any = true;
}

static void write_box(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    const box *b = arg;
    const mc_field *lo = mc_fx_field(rec, "min"), *hi = mc_fx_field(rec, "max");
    if (lo && lo->count == 3) mc_fx_set_all(fx, rec, lo, b->lo);
    if (hi && hi->count == 3) mc_fx_set_all(fx, rec, hi, b->hi);
}

/* nlm.md, AABB: the minimum and maximum corner of the model: the box of
 * every mesh's positions (they are f32, so the box is exact). */
static void fix_aabb(mc_fixing *fx)
{
    box b = {{0}, {0}, false};
    mc_fx_each(fx, "/meshes/*/vertices", add_vertex, &b);
    if (b.any) mc_fx_each(fx, "/aabb", write_box, &b);
}

static const mc_fixer fixers[] = {
    {MC_NLM_AABB_INVERTED, fix_aabb},
    {MC_NLM_VERTEX_OUTSIDE_AABB, fix_aabb},
};

MC_FIXER_TABLE(mc_fixers_nlm, fixers);
