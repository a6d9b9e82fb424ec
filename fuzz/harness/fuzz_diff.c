/*
 * Differential libFuzzer / AFL++ harness (ktx validate's cross-check, for
 * models): the validator (format forced) and the reference loader of the
 * same format judge the same bytes; the harness aborts when one finds the
 * file valid and the other does not, unless the allowlist the corpus
 * agreement test reads (embedded at build time) excuses it. Built with
 * -DMC_FUZZ_LOADER=MCL_FORMAT_<X>.
 *
 * Resource limits are configuration, not spec: inputs on which either side
 * hit one (work budget, decompression or memory limit) are not compared.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_agreement.h"
#include "mc_fuzz_limits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern const char mc_allowlist_text[];

#define LIMIT_BYTES (UINT64_C(16) << 20)

static void disagree(const char *what, const mc_result *r, const mcl_error *err)
{
    fprintf(stderr, "differential: %s\n  validator errors:", what);
    for (size_t i = 0; i < r->issue_count; i++)
        if (r->issues[i].severity == MC_SEVERITY_ERROR)
            fprintf(stderr, " %s@%llu", mc_code_get(r->issues[i].code)->name,
                    (unsigned long long)r->issues[i].first_offset);
    fprintf(stderr, "\n  loader: %s at %llu: %s\n", mcl_status_name(err->status),
            (unsigned long long)err->offset, err->reason);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mca_allowlist list; /* parsed once: read-only afterwards */
    static int parsed;
    if (!parsed) {
        char why[256];
        if (mca_allowlist_parse(mc_allowlist_text, &list, why, sizeof why) != 0) {
            fprintf(stderr, "allowlist: %s\n", why);
            abort();
        }
        parsed = 1;
    }
    mc_options opt;
    mc_options_init(&opt);
    opt.format = (mc_format)MC_FUZZ_LOADER;
    opt.max_instances = 1;
    opt.skip_sha256 = 1;
    opt.max_decompressed_bytes = LIMIT_BYTES;
    mc_result *r = NULL;
    if (mc_validate_memory(size ? data : NULL, size, &opt, &r) != MC_OK) abort();

    mcl_limits limits = mcl_limits_default();
    limits.max_alloc_bytes = UINT64_C(256) << 20;
    limits.max_decompressed_bytes = LIMIT_BYTES;
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(MC_FUZZ_LOADER, data, size, &limits, &m, &err);
    if (s == MCL_OK) s = mcl_exercise(m);
    mcl_free(m);
    if (s == MCL_ERR_INTERNAL) disagree("the loader built an inconsistent model", r, &err);
    int limited = mc_fuzz_validator_hit_limit(r) || s == MCL_ERR_LIMIT || s == MCL_ERR_NOMEM;
    if (!limited) {
        mca_verdict v = mca_compare(r, MC_FUZZ_LOADER, s, &list);
        if (v == MCA_LOADER_LENIENT) disagree("the loader accepts a file the validator finds errors in", r, &err);
        if (v == MCA_LOADER_STRICT) disagree("the loader rejects a file the validator finds valid", r, &err);
    }
    mc_result_free(r);
    return 0;
}
