/* modelcheck fix's library (issue 35): the catalog of fixes against the
 * fixers, and every generator row fixed in process: each code with a fix
 * is gone from the output, nothing else is added, a second fix finds
 * nothing, and unsafe fixes wait for unsafe_fixes. */
#include <string.h>

#include <criterion/criterion.h>

#include "corpus_cases.h"
#include "mc_fixer.h"
#include "support.h"

Test(fix, catalog_and_fixers_agree)
{
    for (int c = 0; c < MC_CODE_COUNT; c++) {
        mc_fixability how = mc_code_fixability((mc_code)c);
        const char *text = mc_code_fix_text((mc_code)c);
        const char *name = mc_code_get((mc_code)c)->name;
        cr_expect(text && strlen(text) > 20, "%s: no fix line (mc_fixes.def: a fix, or why none)", name);
        if (how == MC_FIXABILITY_NONE)
            cr_expect_null(mc_fixer_find((mc_code)c), "%s has a fixer but no fix in mc_fixes.def", name);
        else
            cr_expect_not_null(mc_fixer_find((mc_code)c), "%s: a fix in mc_fixes.def but no fixer", name);
    }
    cr_expect_str_eq(mc_fixability_name(MC_FIXABILITY_UNSAFE), "unsafe");
    cr_expect_null(mc_code_fix_text(MC_CODE_COUNT));
}

static int only_samf(mc_code code, void *arg)
{
    (void)arg;
    return strncmp(mc_code_get(code)->name, "SAMF_", 5) == 0;
}

/* What a fix of row must achieve; returns the edits made. */
static size_t check_fixed(const mcg_built *row, int unsafe)
{
    mc_options o;
    mc_options_init(&o);
    if (row->meta->args) o.format = (mc_format)mc_format_parse(row->meta->args + 9);
    mc_fix_options fo = {.unsafe_fixes = unsafe};
    mc_fix *fx = NULL;
    cr_assert_eq(mc_fix_memory(row->bytes.data, row->bytes.size, &o, &fo, &fx), MC_OK, "%s", row->meta->file);
    const mc_result *b = mc_fix_before(fx), *a = mc_fix_after(fx);
    for (size_t i = 0; i < a->issue_count; i++) {
        const mc_issue *was = mc_result_find(b, a->issues[i].code);
        cr_expect(was && was->count >= a->issues[i].count, "%s: fix added %s", row->meta->file,
                  mc_code_get(a->issues[i].code)->name);
        mc_fixability how = mc_code_fixability(a->issues[i].code);
        cr_expect(how == MC_FIXABILITY_NONE || (how == MC_FIXABILITY_UNSAFE && !unsafe), "%s: %s left after its fix",
                  row->meta->file, mc_code_get(a->issues[i].code)->name);
    }
    size_t n = 0, size = 0, again_n = 0;
    mc_fix_edits(fx, &n);
    const uint8_t *out = mc_fix_output(fx, &size);
    mc_fix *again = NULL;
    cr_assert_eq(mc_fix_memory(out, size, &o, &fo, &again), MC_OK);
    mc_fix_edits(again, &again_n);
    cr_expect_eq(again_n, 0, "%s: a second fix made %zu edits", row->meta->file, again_n);
    mc_fix_free(again);
    mc_fix_free(fx);
    return n;
}

static void fix_table(const mcg_table *t)
{
    for (size_t i = 0; i < t->count; i++) {
        mcg_built row = {0};
        cr_assert_eq(mcg_table_row(t, i, &row), 0, "%s row %zu", t->format, i);
        check_fixed(&row, 0);
        check_fixed(&row, 1);
        mcb_free(&row.bytes);
    }
}

Test(fix, aem) { fix_table(&mcg_aem_table); }
Test(fix, aem2025) { fix_table(&mcg_aem2025_table); }
Test(fix, semodel) { fix_table(&mcg_semodel_table); }
Test(fix, aamf) { fix_table(&mcg_aamf_table); }
Test(fix, e3d) { fix_table(&mcg_e3d_table); }
Test(fix, nlm) { fix_table(&mcg_nlm_table); }

/* The weights of gltf2aamf.py's truncation: withheld without unsafe_fixes
 * (counted), renormalised with it; --select keeps other codes out. */
Test(fix, unsafe_withheld_and_selected)
{
    mcg_built row = {0};
    const mcg_table *t = &mcg_aamf_table;
    size_t i = 0;
    for (; i < t->count; i++) {
        cr_assert_eq(mcg_table_row(t, i, &row), 0);
        if (strcmp(row.meta->file, "aamf/invalid/samf_writer_weight_sum_254.aamf") == 0) break;
        mcb_free(&row.bytes);
    }
    cr_assert_lt(i, t->count, "the weight sum 254 row is gone");
    mc_fix *fx = NULL;
    cr_assert_eq(mc_fix_memory(row.bytes.data, row.bytes.size, NULL, NULL, &fx), MC_OK);
    size_t n = 1;
    mc_fix_edits(fx, &n);
    cr_expect_eq(n, 0);
    cr_expect_eq(mc_fix_withheld(fx), mc_result_find(mc_fix_before(fx), MC_SAMF_WEIGHT_SUM_TRUNCATED)->count);
    cr_expect_not(mc_result_valid(mc_fix_after(fx)));
    mc_fix_free(fx);
    mc_fix_options fo = {.unsafe_fixes = 1, .wanted = only_samf};
    cr_assert_eq(mc_fix_memory(row.bytes.data, row.bytes.size, NULL, &fo, &fx), MC_OK);
    const mc_edit *e = mc_fix_edits(fx, &n);
    cr_assert_gt(n, 0);
    cr_expect_eq(e[0].code, MC_SAMF_WEIGHT_SUM_TRUNCATED);
    cr_expect_eq(e[0].fixability, MC_FIXABILITY_UNSAFE);
    cr_expect_str_eq(e[0].path, "/skin_weights/1/weights");
    cr_expect_str_eq(e[0].old_value, "(127, 127, 0, 0)");
    cr_expect_str_eq(e[0].new_value, "(128, 127, 0, 0)");
    cr_expect(mc_result_valid(mc_fix_after(fx)));
    mc_fix_free(fx);
    mcb_free(&row.bytes);
}

Test(fix, arguments)
{
    mc_fix *fx = (mc_fix *)1;
    cr_expect_eq(mc_fix_memory(NULL, 4, NULL, NULL, &fx), MC_ERR_INVALID_ARG);
    cr_expect_eq(mc_fix_memory("", 0, NULL, NULL, NULL), MC_ERR_INVALID_ARG);
    cr_assert_eq(mc_fix_memory("", 0, NULL, NULL, &fx), MC_OK);
    size_t n = 1, size = 1;
    mc_fix_edits(fx, &n);
    mc_fix_output(fx, &size);
    cr_expect_eq(n, 0);
    cr_expect_eq(size, 0);
    cr_expect_not_null(mc_result_find(mc_fix_after(fx), MC_FILE_EMPTY));
    mc_fix_free(fx);
    mc_fix_free(NULL);
}
