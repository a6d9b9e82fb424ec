/* Fixes of SAMF (aamf.md): gltf2aamf.py's habits. */
#include <math.h>

#include "mc_fixer.h"

/* aamf.md, Skin Weights: unused slots filled with 0; the writer leaves the
 * stale joint index with weight 0. */
static void unused_slots(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    (void)arg;
    const mc_field *bf = mc_fx_field(rec, "bone_indices"), *wf = mc_fx_field(rec, "weights");
    double b[4], w;
    if (!bf || !wf || bf->count != 4) return;
    for (uint32_t j = 0; j < 4; j++) {
        if (!mc_fx_get(fx, rec, bf, j, &b[j]) || !mc_fx_get(fx, rec, wf, j, &w)) return;
        if (w == 0) b[j] = 0;
    }
    mc_fx_set_all(fx, rec, bf, b); /* one edit per vertex */
}

static void fix_unused_slot_index(mc_fixing *fx)
{
    mc_fx_each(fx, "/skin_weights", unused_slots, NULL);
}

enum { SLOTS = 4, TOTAL = 255 };

/* The slot with the largest key among those allowed (the first on a tie). */
static int largest(const double *key, const bool *allowed)
{
    int best = -1;
    for (int j = 0; j < SLOTS; j++)
        if (allowed[j] && (best < 0 || key[j] > key[best])) best = j;
    return best;
}

/* w scaled to sum to 255: each floor(w * 255 / sum), a non-zero weight at
 * least 1 (its slot stays used), the units left over given to the largest
 * remainders, any excess taken from the largest weights. */
static void renormalise(double *w, unsigned sum)
{
    double rem[SLOTS];
    bool used[SLOTS];
    unsigned total = 0;
    for (int j = 0; j < SLOTS; j++) {
        used[j] = w[j] > 0;
        double exact = w[j] * TOTAL / sum;
        double v = floor(exact);
        if (used[j] && v < 1) v = 1;
        rem[j] = exact - v;
        w[j] = v;
        total += (unsigned)v;
    }
    while (total < TOTAL) {
        int j = largest(rem, used);
        w[j] += 1;
        rem[j] -= 1;
        total++;
    }
    while (total > TOTAL) {
        bool can[SLOTS];
        for (int j = 0; j < SLOTS; j++) can[j] = w[j] > 1;
        int j = largest(w, can);
        w[j] -= 1;
        total--;
    }
}

/* Which vertices each code names: the validator's split (aamf.md's sum of
 * 255; 256 - n .. 254 for n weights is the writer's truncation). */
static void weight_sums(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    const int *truncated_only = arg;
    const mc_field *wf = mc_fx_field(rec, "weights");
    double w[SLOTS];
    if (!wf || wf->count != SLOTS) return;
    unsigned sum = 0, used = 0;
    for (uint32_t j = 0; j < SLOTS; j++) {
        if (!mc_fx_get(fx, rec, wf, j, &w[j])) return;
        sum += (unsigned)w[j];
        used += w[j] != 0;
    }
    if (sum == TOTAL || sum == 0) return;
    bool truncated = used >= 2 && sum < TOTAL && sum >= 256 - used;
    if (truncated != (*truncated_only != 0)) return;
    renormalise(w, sum);
    mc_fx_set_all(fx, rec, wf, w);
}

static void fix_weight_sum_truncated(mc_fixing *fx)
{
    static const int truncated = 1;
    mc_fx_each(fx, "/skin_weights", weight_sums, &truncated);
}

static void fix_weight_sum(mc_fixing *fx)
{
    static const int other = 0;
    mc_fx_each(fx, "/skin_weights", weight_sums, &other);
}

/* aamf.md, SVECTOR: int16_t pad. */
static void fix_svector_pad(mc_fixing *fx)
{
    mc_fx_each_zero(fx, "/positions", "pad");
    mc_fx_each_zero(fx, "/normals", "pad");
}

static const mc_fixer fixers[] = {
    {MC_SAMF_SKIN_UNUSED_SLOT_INDEX, fix_unused_slot_index},
    {MC_SAMF_WEIGHT_SUM_TRUNCATED, fix_weight_sum_truncated},
    {MC_SAMF_WEIGHT_SUM, fix_weight_sum},
    {MC_SAMF_SVECTOR_PAD, fix_svector_pad},
};

MC_FIXER_TABLE(mc_fixers_aamf, fixers);
