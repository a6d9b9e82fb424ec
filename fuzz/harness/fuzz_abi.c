/*
 * libFuzzer / AFL++ harness for YOUR loader: any code exporting the certify
 * loader ABI (conformance/certify/mc_loader_abi.h, mc_certify_load) is
 * linked in, compiled with the fuzzing flags so its own coverage guides the
 * engine, and fed the inputs of one format (-DMC_FUZZ_ABI_FORMAT="e3d").
 * The _sa build adds the structure-aware mutator, so inputs keep their
 * framing and reach deep into the loader. Without a loader of yours, the
 * reference loaders are linked (docs/FUZZING.md, "Fuzzing your loader").
 *
 * Findings: a crash, hang, leak or sanitizer report in the loader; and, when
 * MC_ABI_DIFF is set in the environment, a verdict the validator (format
 * forced) contradicts:
 *   MC_ABI_DIFF=lenient   abort when the loader accepts a file with errors
 *   MC_ABI_DIFF=strict    abort when it rejects a file without errors
 *   MC_ABI_DIFF=both      either
 * Inputs on which the validator hit a resource limit are not compared.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_fuzz_limits.h"
#include "mc_loader_abi.h"
#include "modelcheck.h"

#ifndef MC_FUZZ_ABI_FORMAT
#error "build with -DMC_FUZZ_ABI_FORMAT=\"<format>\""
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

enum { DIFF_LENIENT = 1, DIFF_STRICT = 2 };

/* Read once, before any input: the mode is fixed for the whole run. */
static unsigned diff_mode;
static mc_format format;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *m = getenv("MC_ABI_DIFF");
    if (!m || !*m) diff_mode = 0;
    else if (strcmp(m, "lenient") == 0) diff_mode = DIFF_LENIENT;
    else if (strcmp(m, "strict") == 0) diff_mode = DIFF_STRICT;
    else if (strcmp(m, "both") == 0) diff_mode = DIFF_LENIENT | DIFF_STRICT;
    else {
        fprintf(stderr, "MC_ABI_DIFF: '%s' is not lenient, strict or both\n", m);
        exit(2);
    }
    int f = mc_format_parse(MC_FUZZ_ABI_FORMAT);
    if (f < 0) abort();
    format = (mc_format)f;
    return 0;
}

static void contradict(const char *what, const mc_result *r, const char *reason)
{
    fprintf(stderr, "loader contradicted (MC_ABI_DIFF): %s\n  validator errors:", what);
    for (size_t i = 0; i < r->issue_count; i++)
        if (r->issues[i].severity == MC_SEVERITY_ERROR && r->issues[i].instance_count)
            fprintf(stderr, "\n    %s at %llu: %s", mc_code_get(r->issues[i].code)->name,
                    (unsigned long long)r->issues[i].instances[0].offset, r->issues[i].instances[0].message);
    fprintf(stderr, "\n  loader: %s\n", reason[0] ? reason : "(accepted)");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (format == MC_FORMAT_UNKNOWN) LLVMFuzzerInitialize(NULL, NULL); /* replay driver, AFL++ */
    char reason[512] = "";
    int accepted = mc_certify_load(MC_FUZZ_ABI_FORMAT, data, size, reason, sizeof reason) == 0;
    if (!diff_mode) return 0;
    mc_options opt;
    mc_options_init(&opt);
    opt.format = format;
    opt.max_instances = 1;
    opt.skip_sha256 = 1;
    opt.max_decompressed_bytes = UINT64_C(16) << 20;
    mc_result *r = NULL;
    if (mc_validate_memory(size ? data : NULL, size, &opt, &r) != MC_OK) abort();
    if (!mc_fuzz_validator_hit_limit(r)) {
        int valid = mc_result_valid(r);
        if ((diff_mode & DIFF_LENIENT) && accepted && !valid)
            contradict("it accepts a file the validator finds errors in", r, reason);
        if ((diff_mode & DIFF_STRICT) && !accepted && valid)
            contradict("it rejects a file the validator finds valid", r, reason);
    }
    mc_result_free(r);
    return 0;
}
