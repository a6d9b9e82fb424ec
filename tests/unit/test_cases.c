/*
 * The corpus generator's case tables as unit tests: every row is built as
 * the generator builds it and validated in process; the codes and counts
 * must be exactly the row's expectation, and the row's rule must first fire
 * where the row says.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "aamf_cases.h"
#include "aem_cases.h"
#include "e3d_cases.h"
#include "nlm_cases.h"
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

static void check_case(const mcg_case *meta, const mcb_buf *b, const mcg_at *at, uint64_t first)
{
    mc_options o;
    options_for(meta, &o);
    mc_result *r = validate_buf(b->data, b->size, &o);
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
        cr_expect_neq(at->where, MCG_NOWHERE, "%s: the row names no first offset", meta->file);
        const mc_issue *is = mc_result_find(r, (mc_code)mc_code_find(meta->rule));
        if (is && at->where != MCG_NOWHERE)
            cr_expect_eq(is->first_offset, first, "%s: %s first at 0x%llx, expected 0x%llx",
                         meta->file, meta->rule, (unsigned long long)is->first_offset,
                         (unsigned long long)first);
    }
    mc_result_free(r);
}

Test(cases, aem)
{
    for (size_t i = 0; i < mcg_aem_case_count; i++) {
        const mcg_aem_case *c = &mcg_aem_cases[i];
        mcb_buf b = {0};
        uint64_t first;
        cr_assert_eq(mcg_aem_build(c, &b, &first), 0, "%s: out of memory", c->meta.file);
        check_case(&c->meta, &b, &c->first, first);
        mcb_free(&b);
    }
}

Test(cases, aamf)
{
    for (size_t i = 0; i < mcg_aamf_case_count; i++) {
        const mcg_aamf_case *c = &mcg_aamf_cases[i];
        mcb_buf b = {0};
        uint64_t first;
        cr_assert_eq(mcg_aamf_build(c, &b, &first), 0, "%s: out of memory", c->meta.file);
        check_case(&c->meta, &b, &c->first, first);
        mcb_free(&b);
    }
}

Test(cases, nlm)
{
    for (size_t i = 0; i < mcg_nlm_case_count; i++) {
        const mcg_nlm_case *c = &mcg_nlm_cases[i];
        mcb_buf b = {0};
        uint64_t first;
        cr_assert_eq(mcg_nlm_build(c, &b, &first), 0, "%s: cannot build", c->meta.file);
        check_case(&c->meta, &b, &c->first, first);
        mcb_free(&b);
    }
}

Test(cases, e3d)
{
    for (size_t i = 0; i < mcg_e3d_case_count; i++) {
        const mcg_e3d_case *c = &mcg_e3d_cases[i];
        e3db w;
        memset(&w, 0, sizeof w);
        uint64_t first;
        cr_assert_eq(mcg_e3d_build(c, &w, &first), 0, "%s: out of memory", c->meta.file);
        check_case(&c->meta, &w.b, &c->first, first);
        e3db_free(&w);
    }
}
