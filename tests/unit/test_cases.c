/*
 * The corpus generator's case tables as unit tests: every row is built as
 * the generator builds it and validated in process; the codes and counts
 * must be exactly the row's expectation, and the row's rule must first fire
 * where the row says.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "corpus_cases.h"
#include "support.h"

/* "--format NAME" is the only option a format's rows use. */
static void options_for(const mcg_case *meta, mc_options *o)
{
    mc_options_init(o);
    if (!meta->args) return;
    cr_assert_eq(strncmp(meta->args, "--format ", 9), 0, "%s: args %s", meta->file, meta->args);
    int f = mc_format_parse(meta->args + 9);
    cr_assert_geq(f, 0, "%s: args %s", meta->file, meta->args);
    o->format = (mc_format)f;
}

static void check_row(const mcg_built *row)
{
    const mcg_case *meta = row->meta;
    mc_options o;
    options_for(meta, &o);
    mc_result *r = validate_buf(row->bytes.data, row->bytes.size, &o);
    size_t n = 0;
    int code, rc;
    long count;
    for (; (rc = mcg_expectation(meta->expect, n, &code, &count)) != 0; n++) {
        cr_assert_eq(rc, 1, "%s: bad expectation %s", meta->file, meta->expect);
        const mc_issue *is = mc_result_find(r, (mc_code)code);
        cr_expect_not_null(is, "%s: %s did not fire", meta->file, mc_code_get((mc_code)code)->name);
        if (is)
            cr_expect_eq(is->count, (uint64_t)count, "%s: %s fired %llu times, expected %ld",
                         meta->file, mc_code_get((mc_code)code)->name,
                         (unsigned long long)is->count, count);
    }
    cr_expect_eq(r->issue_count, n, "%s: %zu codes fired, expected %zu (%s)", meta->file,
                 r->issue_count, n, meta->expect);
    if (meta->rule) {
        cr_expect(row->placed, "%s: the row names no first offset", meta->file);
        const mc_issue *is = mc_result_find(r, (mc_code)mc_code_find(meta->rule));
        if (is && row->placed)
            cr_expect_eq(is->first_offset, row->first, "%s: %s first at 0x%llx, expected 0x%llx",
                         meta->file, meta->rule, (unsigned long long)is->first_offset,
                         (unsigned long long)row->first);
    }
    mc_result_free(r);
}

static void check_table(const mcg_table *t)
{
    for (size_t i = 0; i < t->count; i++) {
        mcg_built row = {0};
        int rc = mcg_table_row(t, i, &row);
        cr_assert_eq(rc, 0, "%s row %zu (%s): cannot build", t->format, i,
                     row.meta ? row.meta->file : "?");
        check_row(&row);
        mcb_free(&row.bytes);
    }
}

Test(cases, aem) { check_table(&mcg_aem_table); }
Test(cases, aem2025) { check_table(&mcg_aem2025_table); }
Test(cases, semodel) { check_table(&mcg_semodel_table); }
Test(cases, aamf) { check_table(&mcg_aamf_table); }
Test(cases, e3d) { check_table(&mcg_e3d_table); }
Test(cases, nlm) { check_table(&mcg_nlm_table); }
