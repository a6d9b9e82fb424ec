#define _POSIX_C_SOURCE 200809L
/* The driver, detection, folding, overrides, limits and the catalog. */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "mc_reader.h"
#include "mc_rules.h"
#include "support.h"

Test(core, empty_buffer)
{
    mc_result *r = validate_buf(NULL, 0, NULL);
    expect_only(r, MC_FILE_EMPTY, 1, 0);
    cr_expect_eq(r->format, MC_FORMAT_UNKNOWN);
    cr_expect_not(mc_result_valid(r));
    mc_result_free(r);
}

Test(core, unrecognised_names_the_formats_tried)
{
    static const char text[] = "hello, world";
    mc_result *r = validate_buf(text, sizeof text - 1, NULL);
    expect_only(r, MC_FILE_UNRECOGNIZED, 1, 0);
    /* every module, in detection order: magic-based first, legacy AAMF's
     * structural detector last */
    cr_expect_str_eq(r->issues[0].instances[0].message,
                     "content matches no supported format (tried: AEM, SEModel, E3D, NLM, AAMF/SAMF); "
                     "first bytes: 68 65 6c 6c 6f 2c 20 77");
    mc_result_free(r);
}

Test(core, file_too_large)
{
    aemb_model *m = aemb_sample(AEMB_SKINNED_ANIMATED);
    mc_options o;
    mc_options_init(&o);
    o.max_file_bytes = 100;
    mc_result *r = validate_aem(m, &o, 0);
    expect_only(r, MC_FILE_TOO_LARGE, 1, 0);
    cr_expect_not(r->hashed);
    mc_result_free(r);
    aemb_free(m);
}

Test(core, folding_keeps_the_first_instances_and_counts_all)
{
    aemb_model *m = aemb_sample(AEMB_STATIC);
    mc_options o;
    mc_options_init(&o);
    o.max_instances = 3;
    mc_result *r = validate_aem(m, &o, 0);
    const mc_issue *is = mc_result_find(r, MC_AEM_UNSKINNED_VERTEX);
    cr_assert_not_null(is);
    cr_expect_eq(is->count, 8);
    cr_expect_eq(is->instance_count, 3);
    cr_expect_eq(is->instances[2].offset, aemb_offset(m, AEMB_VERTICES, 2) + 56);
    cr_expect(r->truncated);
    cr_expect_eq(r->counts[MC_SEVERITY_WARNING], 8);
    mc_result_free(r);
    aemb_free(m);
}

/* ABI: a zeroed mc_options is every default (it used to make every file
 * FILE_TOO_LARGE). */
Test(core, zeroed_options_mean_the_defaults)
{
    aemb_model *m = aemb_sample(AEMB_STATIC);
    mc_options zero;
    memset(&zero, 0, sizeof zero);
    mc_result *a = validate_aem(m, &zero, 0), *b = validate_aem(m, NULL, 0);
    expect_issue(a, MC_AEM_UNSKINNED_VERTEX, 8, aemb_offset(m, AEMB_VERTICES, 0) + 56);
    cr_expect_eq(a->issues[0].instance_count, 8);
    cr_expect_eq(a->issue_count, b->issue_count);
    cr_expect(a->hashed);
    mc_options e;
    mc_options_effective(&zero, &e);
    cr_expect_eq(e.max_instances, 10);
    cr_expect_eq(e.max_file_bytes, UINT64_C(4) << 30);
    cr_expect_eq(e.weight_sum_tolerance, 2e-7);
    cr_expect_eq(mc_severity_map_get(NULL, MC_AEM_UNSKINNED_VERTEX), MC_SEVERITY_WARNING);
    cr_expect_eq(mc_severity_map_get(NULL, (mc_code)MC_CODE_COUNT), MC_SEVERITY_IGNORE);
    mc_result_free(a);
    mc_result_free(b);
    aemb_free(m);
}

Test(core, zero_instances_still_counts)
{
    aemb_model *m = aemb_sample(AEMB_STATIC);
    mc_options o;
    mc_options_init(&o);
    o.max_instances = MC_INSTANCES_NONE;
    mc_result *r = validate_aem(m, &o, 0);
    expect_issue(r, MC_AEM_UNSKINNED_VERTEX, 8, aemb_offset(m, AEMB_VERTICES, 0) + 56);
    cr_expect_eq(r->issues[0].instance_count, 0);
    mc_result_free(r);
    aemb_free(m);
}

Test(core, severity_override_and_ignore)
{
    aemb_model *m = aemb_sample(AEMB_STATIC);
    mc_options o;
    mc_options_init(&o);
    mc_severity_map *map = mc_severity_map_new();
    cr_assert_not_null(map);
    o.severity = map;
    cr_assert_eq(mc_severity_map_set(map, MC_AEM_UNSKINNED_VERTEX, MC_SEVERITY_ERROR), MC_OK);
    mc_result *r = validate_aem(m, &o, 0);
    cr_expect_not(mc_result_valid(r));
    cr_expect_eq(r->counts[MC_SEVERITY_ERROR], 8);
    mc_result_free(r);
    mc_severity_map_set(map, MC_AEM_UNSKINNED_VERTEX, MC_SEVERITY_IGNORE);
    r = validate_aem(m, &o, 0);
    expect_codes(r, -1);
    mc_result_free(r);
    mc_severity_map_free(map);
    aemb_free(m);
}

Test(core, issues_sorted_by_first_offset)
{
    aemb_model *m = aemb_sample(AEMB_SKINNED_ANIMATED);
    m->keys[0].w = 1.0f;             /* keyframes: last section */
    m->vertices[1].normal[2] = 0.5f; /* vertices: first */
    m->bones[1].parent = 1;          /* bones: between */
    mc_result *r = validate_aem(m, NULL, 0);
    cr_assert_eq(r->issue_count, 3);
    cr_expect_eq(r->issues[0].code, MC_AEM_NORMAL_NOT_UNIT);
    cr_expect_eq(r->issues[1].code, MC_AEM_BONE_PARENT_SELF);
    cr_expect_eq(r->issues[2].code, MC_AEM_KEY_W_NONZERO);
    mc_result_free(r);
    aemb_free(m);
}

Test(core, sha256_of_the_bytes)
{
    mc_result *r = validate_buf("abc", 3, NULL);
    static const unsigned char abc[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    cr_expect(r->hashed);
    cr_expect_arr_eq(r->sha256, abc, 32);
    mc_result_free(r);
}

Test(core, invalid_arguments)
{
    mc_result *r = (mc_result *)1;
    cr_expect_eq(mc_validate_memory(NULL, 5, NULL, &r), MC_ERR_INVALID_ARG);
    cr_expect_eq(mc_validate_memory("x", 1, NULL, NULL), MC_ERR_INVALID_ARG);
    cr_expect_eq(mc_validate_path(NULL, NULL, &r), MC_ERR_INVALID_ARG);
    cr_expect_str_eq(mc_strerror(MC_ERR_NOMEM), "out of memory");
}

Test(core, missing_path_is_an_io_issue)
{
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path("/nonexistent/model.aem", NULL, &r), MC_ERR_IO);
    cr_assert_not_null(r);
    expect_only(r, MC_IO_OPEN_FAILED, 1, 0);
    cr_expect_str_eq(r->issues[0].instances[0].message, "cannot open: No such file or directory");
    mc_result_free(r);
}

Test(core, directory_path_is_not_regular)
{
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path("/", NULL, &r), MC_ERR_IO);
    expect_only(r, MC_IO_NOT_REGULAR, 1, 0);
    mc_result_free(r);
}

Test(core, io_failure_reported_even_when_ignored)
{
    mc_options o;
    mc_options_init(&o);
    mc_severity_map *map = mc_severity_map_new();
    cr_assert_not_null(map);
    mc_severity_map_set(map, MC_IO_OPEN_FAILED, MC_SEVERITY_IGNORE);
    o.severity = map;
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path("/nonexistent", &o, &r), MC_ERR_IO);
    expect_only(r, MC_IO_OPEN_FAILED, 1, 0);
    cr_expect_not(mc_result_valid(r));
    mc_result_free(r);
    mc_severity_map_free(map);
}

Test(core, path_validation_matches_memory_validation)
{
    aemb_model *m = aemb_sample(AEMB_SKINNED_ANIMATED);
    m->indices[3] = 99;
    mcb_buf b = {0};
    aemb_write(m, &b);
    char path[] = "/tmp/mc_test_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(mcb_write_file(&b, path), 0);
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path(path, NULL, &r), MC_OK);
    expect_only(r, MC_AEM_INDEX_RANGE, 1, aemb_offset(m, AEMB_INDICES, 3));
    cr_expect_eq(r->size, b.size);
    unlink(path);
    mc_result_free(r);
    mcb_free(&b);
    aemb_free(m);
}

Test(core, forced_format_out_of_range)
{
    mc_options o;
    mc_options_init(&o);
    o.format = MC_FORMAT_COUNT;
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_memory("AEM", 3, &o, &r), MC_ERR_INVALID_ARG);
    cr_expect_null(r);
}

/* ---- catalog ---- */

Test(catalog, names_unique_prefixed_and_described)
{
    static const char *const prefixes[] = {"IO_", "FILE_", "AEM_", "AEM2025_", "SEMODEL_", "AAMF_", "SAMF_",
                                           "E3D_", "NLM_"};
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        const mc_code_info *a = mc_code_get((mc_code)i);
        cr_assert_not_null(a);
        cr_expect_gt(strlen(a->summary), 10, "%s has no summary", a->name);
        cr_expect_gt(strlen(a->clause), 5, "%s names no clause", a->name);
        int prefixed = 0;
        for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++)
            prefixed |= strncmp(a->name, prefixes[p], strlen(prefixes[p])) == 0;
        cr_expect(prefixed, "%s has no known prefix", a->name);
        for (const char *c = a->name; *c; c++)
            cr_expect((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_',
                      "%s is not UPPER_SNAKE", a->name);
        cr_expect_eq(mc_code_find(a->name), i, "%s is not unique", a->name);
    }
    cr_expect_null(mc_code_get(MC_CODE_COUNT));
    cr_expect_eq(mc_code_find("NO_SUCH_CODE"), -1);
}

Test(catalog, severity_and_format_names_round_trip)
{
    for (int s = 0; s <= MC_SEVERITY_IGNORE; s++)
        cr_expect_eq(mc_severity_parse(mc_severity_name((mc_severity)s)), s);
    cr_expect_eq(mc_severity_parse("fatal"), -1);
    cr_expect_eq(mc_format_parse("aem"), MC_FORMAT_AEM);
    cr_expect_eq(mc_format_parse("unknown"), -1);
    cr_expect_str_eq(mc_format_name(MC_FORMAT_AEM), "aem");
}

/* ---- bounded reader ---- */

Test(reader, reads_past_the_end_fail_and_stick)
{
    static const uint8_t b[6] = {1, 2, 3, 4, 5, 6};
    mc_reader r = mc_reader_make(b, sizeof b);
    cr_expect_eq(mc_read_u32(&r), 0x04030201u);
    cr_expect_eq(mc_read_u32(&r), 0);
    cr_expect(r.fail);
    cr_expect_eq(r.pos, 4);
    cr_expect_eq(mc_read_u8(&r), 0, "sticky: even a byte that exists is refused");
}

Test(reader, sub_reader_is_bounded)
{
    static const uint8_t b[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0x80, 0x3f};
    mc_reader r = mc_reader_make(b, sizeof b);
    mc_reader s = mc_read_sub(&r, 4);
    cr_expect_eq(mc_read_i32(&s), -1);
    cr_expect_eq(mc_read_u8(&s), 0);
    cr_expect(s.fail);
    cr_expect_not(r.fail);
    cr_expect_eq(mc_read_f32(&r), 1.0f);
    mc_reader t = mc_read_sub(&r, 1);
    cr_expect(t.fail);
    cr_expect_eq(t.size, 0);
}

Test(reader, seek_and_skip_cannot_leave_the_window)
{
    static const uint8_t b[4] = {0};
    mc_reader r = mc_reader_make(b, sizeof b);
    cr_expect(mc_reader_seek(&r, 4));
    cr_expect_eq(mc_reader_left(&r), 0);
    cr_expect_not(mc_reader_seek(&r, 5));
    mc_reader q = mc_reader_make(b, sizeof b);
    cr_expect_not(mc_reader_skip(&q, SIZE_MAX));
    cr_expect_null(mc_read_bytes(&q, 1));
}

/* binary16 by its definition (IEEE 754), against the decoder */
static void expect_halves_exact(void)
{
    for (uint32_t h = 0; h <= 0xFFFFu; h++) {
        unsigned e = (h >> 10) & 0x1Fu, f = h & 0x3FFu;
        float want = e == 31 ? (f ? NAN : INFINITY)
                   : e ? ldexpf((float)(f | 0x400u), (int)e - 25) : ldexpf((float)f, -24);
        if (h & 0x8000u) want = -want;
        float got = mc_half_to_f32((uint16_t)h);
        if (isnan(want)) {
            cr_assert(isnan(got), "half 0x%04x", h);
            continue;
        }
        cr_assert(memcmp(&got, &want, sizeof got) == 0, "half 0x%04x: %a, expected %a", h, got, want);
    }
}

Test(reader, half_floats_decode_exactly)
{
    expect_halves_exact();
}

#if defined(__SSE__)
#include <xmmintrin.h>
/* A library caller may run with denormals-are-zero and flush-to-zero (code
 * built with -ffast-math sets them): half subnormals must still decode (a
 * decoder going through a float subnormal read them as 0). */
Test(reader, half_floats_decode_under_denormals_are_zero)
{
    unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u); /* FTZ | DAZ */
    expect_halves_exact();
    _mm_setcsr(csr);
}
#endif

Test(reader, fits_counts_records_without_overflow)
{
    static const uint8_t b[12] = {0};
    mc_reader r = mc_reader_make(b, sizeof b);
    mc_reader_skip(&r, 4);
    cr_expect(mc_reader_fits(&r, 2, 4));      /* 8 of 8 left */
    cr_expect_not(mc_reader_fits(&r, 3, 3));  /* 9 */
    cr_expect_not(mc_reader_fits(&r, UINT64_MAX, 2)); /* overflows */
    cr_expect(mc_reader_fits(&r, 0, UINT64_MAX));
    cr_expect_eq(r.pos, 4);
    cr_expect_not(r.fail);
    mc_read_u64(&r);
    mc_read_u8(&r); /* fails: the reader is failed from now on */
    cr_expect_not(mc_reader_fits(&r, 0, 1));
}

Test(rules, parent_order)
{
    cr_expect_eq(mc_parent_order_of(0, 1, 3), MC_PARENT_BEFORE);
    cr_expect_eq(mc_parent_order_of(1, 1, 3), MC_PARENT_SELF);
    cr_expect_eq(mc_parent_order_of(2, 1, 3), MC_PARENT_FORWARD);
    cr_expect_eq(mc_parent_order_of(3, 1, 3), MC_PARENT_RANGE);
    cr_expect_eq(mc_parent_order_of(-1, 1, 3), MC_PARENT_RANGE); /* roots are the caller's */
    cr_expect_eq(mc_parent_order_of(INT64_MIN, 0, 1), MC_PARENT_RANGE);
}

Test(rules, utf8_first_invalid_byte)
{
    static const struct {
        const char *s;
        size_t bad;
    } cases[] = {
        {"plain", 5},
        {"\xc3\xa9t\xc3\xa9", 5},      /* two-byte sequences */
        {"\xf0\x9f\x98\x80", 4},       /* U+1F600 */
        {"a\xc0\xaf", 1},             /* overlong '/' */
        {"ab\xed\xa0\x80", 2},        /* a surrogate */
        {"\xf4\x90\x80\x80", 0},       /* above U+10FFFF */
        {"ok\xe2\x82", 2},            /* cut short */
        {"\xff", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint8_t *p = (const uint8_t *)cases[i].s;
        cr_expect_eq(mc_utf8_invalid_at(p, strlen(cases[i].s)), cases[i].bad, "case %zu", i);
    }
}

Test(reader, checked_arithmetic)
{
    uint64_t v = 7;
    cr_expect_not(mc_mul_u64(UINT64_MAX, 2, &v));
    cr_expect_eq(v, 7);
    cr_expect_not(mc_add_u64(UINT64_MAX, 1, &v));
    cr_expect(mc_add_mul_u64(&v, 3, 4));
    cr_expect_eq(v, 19);
    cr_expect_not(mc_add_mul_u64(&v, UINT64_MAX, 2));
}

/* ---- coverage: status strings, the issue counter, standard input ---- */

#include <fcntl.h>

#include "mc_validate.h"

Test(core, every_status_has_a_message)
{
    cr_expect_str_eq(mc_strerror(MC_OK), "success");
    cr_expect_str_eq(mc_strerror(MC_ERR_NOMEM), "out of memory");
    cr_expect_str_eq(mc_strerror(MC_ERR_INVALID_ARG), "invalid argument");
    cr_expect_str_eq(mc_strerror(MC_ERR_IO), "the file could not be read");
    cr_expect_str_eq(mc_strerror((mc_status)99), "unknown status");
}

Test(core, issue_count_counts_emits_and_not_ignored_or_unknown_codes)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.max_instances = 1;
    mc_severity_map *map = mc_severity_map_new();
    cr_assert_not_null(map);
    mc_severity_map_set(map, MC_AEM_INDEX_RANGE, MC_SEVERITY_IGNORE);
    opt.severity = map;
    mc_settings o;
    mc_settings_resolve(&o, &opt);
    mc_severity_map_free(map);
    mc_info info;
    memset(&info, 0, sizeof info);
    mc_ctx c;
    cr_assert_eq(mc_ctx_begin(&c, (const uint8_t *)"x", 1, &o, &info), MC_OK);
    cr_expect_not_null(mc_emit(&c, MC_AEM_WEIGHT_SUM, 4));
    cr_expect_null(mc_emit(&c, MC_AEM_WEIGHT_SUM, 8)); /* counted, not kept */
    cr_expect_null(mc_emit(&c, MC_AEM_INDEX_RANGE, 4));
    cr_expect_null(mc_emit(&c, MC_CODE_COUNT, 4));
    cr_expect_eq(mc_issue_count(&c, MC_AEM_WEIGHT_SUM), 2);
    cr_expect_eq(mc_issue_count(&c, MC_AEM_INDEX_RANGE), 0);
    cr_expect_eq(mc_issue_count(&c, MC_CODE_COUNT), 0);
    mc_result *r = mc_result_new();
    cr_assert_not_null(r);
    cr_assert_eq(mc_ctx_finish(&c, r), MC_OK);
    expect_only(r, MC_AEM_WEIGHT_SUM, 2, 4);
    mc_result_free(r);
}

/* Makes fd 0 read n bytes of b (n > 64 KiB: the pipe would block). */
static void stdin_from(const mcb_buf *b)
{
    char path[] = "/tmp/mc_stdin_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(mcb_write_file(b, path), 0);
    fd = open(path, O_RDONLY);
    cr_assert_geq(fd, 0);
    unlink(path);
    cr_assert_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
    close(fd);
}

Test(core, standard_input_larger_than_the_first_buffer)
{
    mcb_buf b = {0};
    mcb_zeros(&b, 200000);
    stdin_from(&b);
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path("-", NULL, &r), MC_OK);
    cr_assert_not_null(r);
    cr_expect_eq(r->size, 200000);
    cr_expect(r->hashed);
    mc_result_free(r);
    mcb_free(&b);
}

Test(core, standard_input_stops_one_byte_past_the_limit)
{
    mcb_buf b = {0};
    mcb_zeros(&b, 200000);
    stdin_from(&b);
    mc_options o;
    mc_options_init(&o);
    o.max_file_bytes = 1000;
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path("-", &o, &r), MC_OK);
    cr_assert_not_null(r);
    expect_only(r, MC_FILE_TOO_LARGE, 1, 0);
    /* memory stays at the limit: not a doubling further (issue 18) */
    cr_expect_eq(r->size, 1001, "read stops one byte past the limit");
    cr_expect_str_eq(r->issues[0].instances[0].message,
                     "standard input is longer than the limit of 1000 bytes (reading stopped at byte 1001)");
    mc_result_free(r);
    mcb_free(&b);
}

Test(core, standard_input_closed_is_a_read_failure)
{
    close(STDIN_FILENO);
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path("-", NULL, &r), MC_ERR_IO);
    cr_assert_not_null(r);
    expect_only(r, MC_IO_READ_FAILED, 1, 0);
    cr_expect_str_eq(r->issues[0].instances[0].message, "cannot read standard input: Bad file descriptor");
    mc_result_free(r);
}
