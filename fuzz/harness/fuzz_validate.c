/*
 * libFuzzer / AFL++ harness: the validator on arbitrary bytes, with content
 * detection, or forced to one format when built with
 * -DMC_FUZZ_FORMAT=MC_FORMAT_<X>. The report renderers run on the results
 * so they are fuzzed too (the JSON one on one input in 8, see below). Any
 * crash, leak, sanitizer report or abort is a finding; the validator must
 * survive every input.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_report.h"
#include "modelcheck.h"

#ifndef MC_FUZZ_FORMAT
#define MC_FUZZ_FORMAT MC_FORMAT_UNKNOWN
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Building the JSON report costs about twice the validation of a typical
 * input under ASan (a cJSON node, and so an instrumented allocation, per
 * field; docs/PERFORMANCE.md, "Fuzzing"). It runs on one input in 8, chosen
 * by the input's bytes so that a reproducer always takes the same path; the
 * text report runs on every input. The choice is (size + the bytes' sum)
 * mod 8, taken eight bytes a step: a byte loop costs two traced comparisons
 * (-fsanitize=fuzzer) a byte, a sixth of an AAMF execution. Each byte's low
 * three bits are summed by a multiply into the top byte (at most 8 * 7 = 56
 * there and below it: no carry), the same residue as the bytes' sum. */
static int render_json_for(const uint8_t *data, size_t size)
{
    uint64_t sum = size;
    size_t i = 0;
    for (; size - i >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, data + i, sizeof w);
        sum += ((w & UINT64_C(0x0707070707070707)) * UINT64_C(0x0101010101010101)) >> 56;
    }
    for (; i < size; i++) sum += data[i];
    return (sum & 7u) == 0;
}

static void render(const mc_result *r, int json)
{
    if (json) {
        cJSON *j = mc_report_file_json(r, "fuzz", MC_OK);
        char *s = j ? cJSON_PrintUnformatted(j) : NULL;
        free(s);
        cJSON_Delete(j);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        mc_report_file_text(f, r, "fuzz", 0);
        fclose(f);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.format = MC_FUZZ_FORMAT;
    opt.max_instances = 3;
    /* small limits keep each execution fast; the limits' own checks are
     * fuzzed at the same time */
    opt.max_decompressed_bytes = UINT64_C(16) << 20;
    mc_result *r = NULL;
    mc_status st = mc_validate_memory(size ? data : NULL, size, &opt, &r);
    if (st == MC_ERR_INVALID_ARG && MC_FUZZ_FORMAT != MC_FORMAT_UNKNOWN) return 0; /* format not built */
    if (st != MC_OK) abort(); /* only out-of-memory could get here: a finding */
    if (r->format != MC_FORMAT_UNKNOWN && (unsigned)r->format >= MC_FORMAT_COUNT) abort();
    render(r, render_json_for(data, size));
    mc_result_free(r);
    return 0;
}
