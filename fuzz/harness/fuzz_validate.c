/*
 * libFuzzer / AFL++ harness: the validator on arbitrary bytes, with content
 * detection, or forced to one format when built with
 * -DMC_FUZZ_FORMAT=MC_FORMAT_<X>. Both report renderers run on every result
 * so they are fuzzed too. Any crash, leak, sanitizer report or abort is a
 * finding; the validator must survive every input.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mc_report.h"
#include "modelcheck.h"

#ifndef MC_FUZZ_FORMAT
#define MC_FUZZ_FORMAT MC_FORMAT_UNKNOWN
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render(const mc_result *r)
{
    cJSON *j = mc_report_file_json(r, "fuzz", MC_OK);
    char *s = j ? cJSON_PrintUnformatted(j) : NULL;
    free(s);
    cJSON_Delete(j);
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
    render(r);
    mc_result_free(r);
    return 0;
}
