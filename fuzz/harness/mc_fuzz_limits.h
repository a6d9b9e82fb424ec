/*
 * Shared by the differential harnesses: resource limits are configuration,
 * not spec, so an input on which the validator hit one is not compared.
 */
#ifndef MC_FUZZ_LIMITS_H
#define MC_FUZZ_LIMITS_H

#include <stddef.h>

#include "modelcheck.h"

static inline int mc_fuzz_validator_hit_limit(const mc_result *r)
{
    static const char *const limits[] = {"FILE_WORK_LIMIT", "E3D_LZMA_SIZE_LIMIT", "E3D_DEPTH_LIMIT",
                                         "E3D_LZMA_DEPTH_LIMIT"};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        int code = mc_code_find(limits[i]);
        if (code >= 0 && mc_result_find(r, (mc_code)code)) return 1;
    }
    return 0;
}

#endif
