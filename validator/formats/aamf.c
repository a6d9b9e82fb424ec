/*
 * AAMF/SAMF: not implemented yet. The module is listed in validate.c with a NULL
 * detect function, so it is neither tried nor named until it is.
 */
#include "mc_format.h"

const mc_format_module mc_aamf_module = {MC_FORMAT_AAMF, "AAMF/SAMF", NULL, NULL};
