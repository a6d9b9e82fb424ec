#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "support.h"

mc_result *validate_buf(const void *data, size_t size, const mc_options *opt)
{
    mc_result *r = NULL;
    mc_status st = mc_validate_memory(data, size, opt, &r);
    cr_assert_eq(st, MC_OK, "mc_validate_memory: %s", mc_strerror(st));
    cr_assert_not_null(r);
    return r;
}

mc_result *validate_aem(const aemb_model *m, const mc_options *opt, size_t cut)
{
    mcb_buf b = {0};
    aemb_write(m, &b);
    cr_assert(!b.oom);
    cr_assert_leq(cut, b.size);
    mc_result *r = validate_buf(b.data, b.size - cut, opt);
    mcb_free(&b);
    return r;
}

static void describe(const mc_result *r, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->issue_count && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s x%llu; ",
                                 mc_code_get(r->issues[i].code)->name,
                                 (unsigned long long)r->issues[i].count);
}

void expect_codes(const mc_result *r, ...)
{
    char got[1024];
    describe(r, got, sizeof got);
    va_list ap;
    va_start(ap, r);
    size_t n = 0;
    for (int code = va_arg(ap, int); code >= 0; code = va_arg(ap, int), n++)
        cr_expect_not_null(mc_result_find(r, (mc_code)code), "expected %s; got: %s",
                           mc_code_get((mc_code)code)->name, got);
    va_end(ap);
    cr_expect_eq(r->issue_count, n, "expected %zu codes; got: %s", n, got);
}

void expect_issue(const mc_result *r, mc_code code, uint64_t count, uint64_t first_offset)
{
    const mc_issue *is = mc_result_find(r, code);
    cr_assert_not_null(is, "%s did not fire", mc_code_get(code)->name);
    cr_expect_eq(is->count, count, "%s: count %llu, expected %llu", mc_code_get(code)->name,
                 (unsigned long long)is->count, (unsigned long long)count);
    cr_expect_eq(is->first_offset, first_offset, "%s: first offset 0x%llx, expected 0x%llx",
                 mc_code_get(code)->name, (unsigned long long)is->first_offset,
                 (unsigned long long)first_offset);
    if (is->instance_count)
        cr_expect_eq(is->instances[0].offset, first_offset);
}

void expect_only(const mc_result *r, mc_code code, uint64_t count, uint64_t first_offset)
{
    expect_codes(r, (int)code, -1);
    expect_issue(r, code, count, first_offset);
}

uint64_t at(const aemb_model *m, enum aemb_section s, uint64_t i, uint64_t field)
{
    return aemb_offset(m, s, i) + field;
}

mcl_model *loader_accepts(mcl_format format, const void *data, size_t size)
{
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(format, data, size, NULL, &m, &err);
    cr_assert_eq(s, MCL_OK, "status %s at %llu: %s", mcl_status_name(s), (unsigned long long)err.offset, err.reason);
    cr_assert_eq(mcl_exercise(m), MCL_OK);
    return m;
}

void loader_rejects(mcl_format format, const void *data, size_t size, mcl_status want, uint64_t offset)
{
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(format, data, size, NULL, &m, &err);
    cr_assert_eq(s, want, "status %s (want %s) at %llu: %s", mcl_status_name(s), mcl_status_name(want),
                 (unsigned long long)err.offset, err.reason);
    cr_assert_null(m);
    cr_assert_eq(err.offset, offset, "offset %llu (want %llu): %s", (unsigned long long)err.offset,
                 (unsigned long long)offset, err.reason);
}
