/*
 * libFuzzer / AFL++ harness: one reference loader on arbitrary bytes, then
 * the model used as a game would (walked, every animation posed), built with
 * -DMC_FUZZ_LOADER=MCL_FORMAT_<X>. A crash, leak, sanitizer report or a model
 * that breaks its own invariants (abort) is a finding.
 */
#include <stdint.h>
#include <stdlib.h>

#include "mcl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mcl_limits limits = mcl_limits_default();
    limits.max_alloc_bytes = UINT64_C(256) << 20; /* keeps executions fast and under the RSS limit */
    limits.max_decompressed_bytes = UINT64_C(16) << 20;
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(MC_FUZZ_LOADER, data, size, &limits, &m, &err);
    if (s == MCL_ERR_INTERNAL || s == MCL_ERR_ARGUMENT) abort(); /* a loader bug, not a bad file */
    if (s != MCL_OK) return 0;
    if (mcl_model_check(m, NULL) != MCL_OK) abort();
    s = mcl_exercise(m);
    mcl_free(m);
    if (s != MCL_OK && s != MCL_ERR_NOMEM) abort();
    return 0;
}
