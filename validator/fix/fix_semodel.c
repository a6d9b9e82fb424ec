/* Fixes of SEModel (semodel.md). */
#include "mc_fixer.h"

/* semodel.md, SEModel_Header: reserved fields should be set to 0. */
static void fix_reserved(mc_fixing *fx)
{
    mc_fx_each_zero(fx, "/header", "reserved");
}

static const mc_fixer fixers[] = {
    {MC_SEMODEL_RESERVED_NONZERO, fix_reserved},
};

MC_FIXER_TABLE(mc_fixers_semodel, fixers);
