/*
 * libFuzzer / AFL++ harness: the clean paths' oracle. Every format's hot
 * loops have a clean path that only vouches for records (issue 16); what it
 * cannot vouch for goes to the exact checks, which alone report. So the
 * result with the clean paths must equal the result without them
 * (mc_settings.exact_only), field by field: the harness aborts on any
 * difference. tests/clean/clean_paths.c checks the same over the corpus and
 * fixed mutants; this lets a fuzzer look for the input that breaks it.
 * Content detection picks the format (target `clean`, seeds: corpus/).
 * One input in two (by its last byte, so a reproducer takes the same path)
 * runs with denormals-are-zero and flush-to-zero, as a caller may: a clean
 * path reading a float's bits must then decline a subnormal the exact
 * checks see as 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mc_result_diff.h"
#include "mc_validate.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.max_instances = 3; /* counts stay exact: a different decision shows in them */
    opt.skip_sha256 = 1;
    opt.max_decompressed_bytes = UINT64_C(16) << 20; /* as the validator targets */
    mc_settings clean, exact;
    mc_settings_resolve(&clean, &opt);
    exact = clean;
    exact.exact_only = true;
    mc_result *a = NULL, *b = NULL;
    const uint8_t *p = size ? data : NULL;
#if defined(__SSE2__)
    unsigned csr = _mm_getcsr();
    if (size && (data[size - 1] & 1)) _mm_setcsr(csr | 0x8040u); /* DAZ | FTZ */
#endif
    mc_status sa = mc_validate_sized(p, size, size, &clean, &a);
    mc_status sb = mc_validate_sized(p, size, size, &exact, &b);
#if defined(__SSE2__)
    _mm_setcsr(csr); /* the fuzzer's own arithmetic runs as it expects */
#endif
    if (sa != MC_OK || sb != MC_OK) abort(); /* only out of memory could get here: a finding */
    char buf[1024];
    const char *diff = mc_result_diff(a, b, buf, sizeof buf);
    if (diff) {
        fprintf(stderr, "clean path and exact checks differ: %s\n", diff);
        abort();
    }
    mc_result_free(a);
    mc_result_free(b);
    return 0;
}
