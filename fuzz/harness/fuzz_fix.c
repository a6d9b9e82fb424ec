/*
 * libFuzzer / AFL++ harness: modelcheck fix (issue 35) on one format, built
 * with -DMC_FUZZ_FORMAT=MC_FORMAT_<X> -DMC_FUZZ_LOADER=MCL_FORMAT_<X>.
 * Every fix, safe and unsafe, is applied; then:
 *   - the edits are sorted, disjoint, inside the file, their old bytes the
 *     input's and their new bytes the output's, and the output differs
 *     from the input nowhere else;
 *   - the output has no issue the input did not have, and no code more
 *     often (fix never adds an issue);
 *   - fixing the output finds no edit (idempotence);
 *   - when the reference loader takes both, its models of input and output
 *     are equal except in the model fields the edits' codes name
 *     (mc_fix_oracle.h); when it took the input it takes the output.
 * Any breach aborts; the sanitizers catch the rest. The replay of the
 * corpus (ctest fuzz_replay_fix_<format>) is the proof on every corpus case.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_fix_oracle.h"
#include "mc_fuzz_limits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_edits(const mc_fix *fx, const uint8_t *data, size_t size)
{
    size_t n = 0, out_size = 0;
    const mc_edit *e = mc_fix_edits(fx, &n);
    const uint8_t *out = mc_fix_output(fx, &out_size);
    if (out_size != size) abort();
    uint64_t end = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].size == 0 || e[i].offset < end || e[i].offset > size || e[i].size > size - e[i].offset) abort();
        if (memcmp(out + end, data + end, (size_t)(e[i].offset - end)) != 0) abort();
        if (memcmp(e[i].old_bytes, data + e[i].offset, e[i].size) != 0) abort();
        if (memcmp(e[i].new_bytes, out + e[i].offset, e[i].size) != 0) abort();
        if (memcmp(e[i].old_bytes, e[i].new_bytes, e[i].size) == 0) abort();
        end = e[i].offset + e[i].size;
    }
    if (memcmp(out + end, data + end, (size_t)(size - end)) != 0) abort();
}

static void check_no_new_issue(const mc_result *before, const mc_result *after)
{
    for (size_t i = 0; i < after->issue_count; i++) {
        const mc_issue *b = mc_result_find(before, after->issues[i].code);
        if (!b || after->issues[i].count > b->count) {
            fprintf(stderr, "fix added %s\n", mc_code_get(after->issues[i].code)->name);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.format = MC_FUZZ_FORMAT;
    opt.max_instances = 4;
    opt.skip_sha256 = 1;
    mc_fix_options fo = {.unsafe_fixes = 1};
    mc_fix *fx = NULL;
    mc_status st = mc_fix_memory(data, size, &opt, &fo, &fx);
    if (st == MC_ERR_NOMEM) return 0;
    if (st != MC_OK || !fx) abort();
    if (mc_fuzz_validator_hit_limit(mc_fix_before(fx))) {
        mc_fix_free(fx);
        return 0;
    }
    check_edits(fx, data, size);
    check_no_new_issue(mc_fix_before(fx), mc_fix_after(fx));
    size_t out_size = 0, again_edits = 0;
    const uint8_t *out = mc_fix_output(fx, &out_size);
    mc_fix *again = NULL;
    if (mc_fix_memory(out, out_size, &opt, &fo, &again) == MC_OK) {
        mc_fix_edits(again, &again_edits);
        if (again_edits) {
            fprintf(stderr, "fix is not idempotent: %zu more edits, the first %s at %s\n", again_edits,
                    mc_code_get(mc_fix_edits(again, NULL)[0].code)->name, mc_fix_edits(again, NULL)[0].path);
            abort();
        }
    }
    mc_fix_free(again);
    char where[160];
    if (mc_fix_oracle_models(MC_FUZZ_LOADER, fx, data, size, where, sizeof where) != 0) {
        fprintf(stderr, "fix changed the loader's model outside the edited fields: %s\n", where);
        abort();
    }
    mc_fix_free(fx);
    return 0;
}
