/* Fixes of AEM's current upstream layout (2025): today's converter's habits. */
#include "mc_fixer.h"

/* The readme's Vertex Section: an unused slot is -1 with weight 0. The
 * converter copies glTF's JOINTS_0, whose unused slots name joint 0 (the
 * filler) or a stale joint, with weight 0: the validator's rule, slot by
 * slot (a joint in range, weight exactly 0). */
static void weightless_joints(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    const double *ctx = arg; /* joint count, filler (1) or other joints (0) */
    const mc_field *jf = mc_fx_field(rec, "joint_indices"), *wf = mc_fx_field(rec, "weights");
    double b[4], w;
    if (!jf || !wf || jf->count != 4) return;
    for (uint32_t j = 0; j < 4; j++) {
        if (!mc_fx_get(fx, rec, jf, j, &b[j]) || !mc_fx_get(fx, rec, wf, j, &w)) return;
        if (w == 0 && b[j] >= 0 && b[j] < ctx[0] && (b[j] == 0) == (ctx[1] != 0)) b[j] = -1;
    }
    mc_fx_set_all(fx, rec, jf, b); /* one edit per vertex */
}

static void fix_joints(mc_fixing *fx, int filler)
{
    double ctx[2] = {mc_fx_value_of(fx, "/header", "joint_count", 0, 0), filler};
    mc_fx_each(fx, "/vertices", weightless_joints, ctx);
}

static void fix_filler_joint(mc_fixing *fx)
{
    fix_joints(fx, 1);
}

static void fix_zero_weight_joint(mc_fixing *fx)
{
    fix_joints(fx, 0);
}

/* docs/formats/aem2025.md: the converter writes its stack after each NUL. */
static void fix_name_trailing(mc_fixing *fx)
{
    mc_fx_each_zero_after_nul(fx, "/joints/*", "name");
    mc_fx_each_zero_after_nul(fx, "/animations/*", "name");
}

static void fix_header_padding(mc_fixing *fx)
{
    mc_fx_each_zero(fx, "/header", "padding");
}

static const mc_fixer fixers[] = {
    {MC_AEM2025_HEADER_PADDING, fix_header_padding},
    {MC_AEM2025_FILLER_JOINT_INDEX, fix_filler_joint},
    {MC_AEM2025_ZERO_WEIGHT_JOINT, fix_zero_weight_joint},
    {MC_AEM2025_NAME_TRAILING_BYTES, fix_name_trailing},
};

MC_FIXER_TABLE(mc_fixers_aem2025, fixers);
