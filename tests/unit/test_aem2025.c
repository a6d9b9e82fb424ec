/*
 * AEM 2025-layout checks beyond the case table (conformance/generator/
 * aem2025_cases.c, checked by test_cases.c): the layout decision, overflow
 * of the size and MIP chain arithmetic, the folds across clean-path chunks,
 * cycles; exact codes, counts and offsets.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "aem2025_builder.h"
#include "support.h"

static aem2025b_model *m;
static mc_result *r;
static mcb_buf b;

static void setup(void)
{
    m = aem2025b_sample(AEM2025B_SKINNED_ANIMATED);
    cr_assert_not_null(m);
    r = NULL;
    memset(&b, 0, sizeof b);
}

static void teardown(void)
{
    mc_result_free(r);
    aem2025b_free(m);
    mcb_free(&b);
}

TestSuite(aem2025, .init = setup, .fini = teardown);

enum { V_NORMAL = 12, V_JOINTS = 56, V_WEIGHTS = 72 };

static uint64_t off(enum aem2025b_section s, uint64_t i, uint64_t field)
{
    return aem2025b_offset(m, s, i) + field;
}

/* Writes m into b (kept for patches), then validates b. */
static void write_model(void)
{
    mcb_free(&b);
    memset(&b, 0, sizeof b);
    aem2025b_write(m, &b);
    cr_assert(!b.oom);
}

static mc_result *validate_b(void)
{
    mc_result_free(r);
    r = validate_buf(b.data, b.size, NULL);
    return r;
}

static mc_result *validate_model(void)
{
    write_model();
    return validate_b();
}

static const char *first_message(mc_code code)
{
    const mc_issue *is = mc_result_find(r, code);
    cr_assert_not_null(is);
    cr_assert_gt(is->instance_count, 0);
    return is->instances[0].message;
}

Test(aem2025, samples_are_clean_and_named_2025)
{
    validate_model();
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_AEM);
    cr_expect_str_eq(r->layout, "2025");
    cr_expect_eq(r->info.vertices, 8);
    cr_expect_eq(r->info.triangles, 4);
    cr_expect_eq(r->info.textures, 5);
    cr_expect_eq(r->info.bones, 3);
    cr_expect_eq(r->info.animations, 2);
    cr_expect_eq(r->info.sequences, 6);
    cr_expect_eq(r->info.keyframes, 27);
    cr_expect_eq(r->info.max_influences, 2);
    aem2025b_free(m);
    m = aem2025b_sample(AEM2025B_STATIC);
    validate_model();
    expect_codes(r, -1);
    cr_expect_eq(r->info.max_influences, 0);
}

/* ---- telling the layouts apart ---- */

Test(aem2025, trailing_byte_is_reported_as_2025_with_aem1_arithmetic)
{
    write_model();
    size_t end = b.size;
    mcb_zeros(&b, 1);
    validate_b();
    expect_only(r, MC_AEM_TRAILING_BYTES, 1, end);
    cr_expect_str_eq(r->layout, "");
    cr_expect(strstr(first_message(MC_AEM_TRAILING_BYTES), "as the 2025 layout") != NULL);
    cr_expect(strstr(first_message(MC_AEM_TRAILING_BYTES), "as aem1 they imply") != NULL);
}

Test(aem2025, truncated_file_is_reported_once_at_its_end)
{
    write_model();
    b.size -= 100;
    validate_b();
    expect_only(r, MC_AEM_TRUNCATED, 1, b.size);
    cr_expect(strstr(first_message(MC_AEM_TRUNCATED), "keyframes section") != NULL);
}

Test(aem2025, aem1_file_cut_short_keeps_its_aem1_error_and_names_2025)
{
    aemb_model *old = aemb_sample(AEMB_SKINNED_ANIMATED);
    mcb_buf ob = {0};
    aemb_write(old, &ob);
    ob.size -= 7;
    mc_result_free(r);
    r = validate_buf(ob.data, ob.size, NULL);
    expect_only(r, MC_AEM_TRUNCATED, 1, ob.size);
    cr_expect(strstr(first_message(MC_AEM_TRUNCATED), "keyframes section (18 x 20") != NULL);
    cr_expect(strstr(first_message(MC_AEM_TRUNCATED), "as the 2025 layout they imply") != NULL);
    mcb_free(&ob);
    aemb_free(old);
}

Test(aem2025, both_layouts_fitting_is_one_error_at_0)
{
    for (int s = 0; s < AEM2025B_SECTIONS; s++) aem2025b_resize(m, (enum aem2025b_section)s, 0);
    aem2025b_resize(m, AEM2025B_VERTICES, 3);
    validate_model();
    cr_expect_eq(b.size, 316);
    expect_only(r, MC_AEM_LAYOUT_AMBIGUOUS, 1, 0);
}

Test(aem2025, image_size_near_2_64_overflows_to_one_size_error)
{
    write_model();
    aem2025b_put_u64(&b, 12, UINT64_MAX - 10);
    validate_b();
    cr_expect_eq(r->issue_count, 1);
    cr_expect(mc_result_find(r, MC_AEM_TRUNCATED) || mc_result_find(r, MC_AEM_TRAILING_BYTES));
}

Test(aem2025, header_52_bytes_is_a_valid_empty_2025_file)
{
    for (int s = 0; s < AEM2025B_SECTIONS; s++) aem2025b_resize(m, (enum aem2025b_section)s, 0);
    validate_model();
    cr_expect_eq(b.size, 52);
    expect_only(r, MC_FILE_NO_CONTENT, 1, 0);
    cr_expect_str_eq(r->layout, "2025");
}

/* ---- textures ---- */

Test(aem2025, bc7_5x3_chain_is_64_bytes)
{
    uint64_t size = 0;
    cr_assert_eq(aem2025b_mip_chain_size(5, 3, 4, AEM2025B_BC7, &size), 0);
    cr_expect_eq(size, 64); /* 2x1 blocks, then 1, then 1 */
    uint8_t blocks[64] = {0};
    aem2025b_texture t = {0, 5, 3, {0, 0}, 4, AEM2025B_BC7};
    aem2025b_add_texture(m, t, blocks, 64, NULL);
    validate_model();
    expect_codes(r, -1);
    /* one byte less: the chain ends past the buffer */
    aem2025b_resize(m, AEM2025B_IMAGE, m->count[AEM2025B_IMAGE] - 1);
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_DATA_RANGE, 1, off(AEM2025B_TEXTURES, 5, 0));
}

Test(aem2025, chain_of_2_64_bytes_or_more_is_out_of_range_not_wrapped)
{
    m->textures[4].width = m->textures[4].height = UINT32_MAX;
    m->textures[4].channels = 4;
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_DATA_RANGE, 1, off(AEM2025B_TEXTURES, 4, 0));
    cr_expect(strstr(first_message(MC_AEM2025_TEXTURE_DATA_RANGE), "2^64 or more") != NULL);
}

Test(aem2025, offset_near_2_64_is_out_of_range_not_wrapped)
{
    m->textures[4].offset = UINT64_MAX - 1;
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_DATA_RANGE, 1, off(AEM2025B_TEXTURES, 4, 0));
}

Test(aem2025, gap_between_chains_is_named_once_with_runs)
{
    /* texture 4 (2 bytes at 30) moves to 0..: bytes 30-31 uncovered, and it overlaps texture 0 */
    m->textures[4].offset = 0;
    validate_model();
    expect_codes(r, MC_AEM2025_TEXTURE_DATA_OVERLAP, MC_AEM2025_IMAGE_UNREFERENCED, -1);
    expect_issue(r, MC_AEM2025_IMAGE_UNREFERENCED, 1, off(AEM2025B_IMAGE, 30, 0));
    expect_issue(r, MC_AEM2025_TEXTURE_DATA_OVERLAP, 1, off(AEM2025B_TEXTURES, 4, 0));
}

/* ---- skinning ---- */

Test(aem2025, filler_index_without_joints_is_out_of_range)
{
    aem2025b_free(m);
    m = aem2025b_sample(AEM2025B_STATIC);
    m->vertices[2].joint[3] = 0;
    validate_model();
    expect_only(r, MC_AEM2025_JOINT_INDEX_RANGE, 1, off(AEM2025B_VERTICES, 2, V_JOINTS + 12));
}

Test(aem2025, weightless_joint_vertex_sums_to_zero_without_error)
{
    m->vertices[6].joint[0] = 1;
    m->vertices[6].joint[1] = -1;
    m->vertices[6].weight[0] = m->vertices[6].weight[1] = 0.0f;
    validate_model();
    expect_only(r, MC_AEM2025_ZERO_WEIGHT_JOINT, 1, off(AEM2025B_VERTICES, 6, V_JOINTS));
}

/* The folds count across clean-path chunks (64 vertices): the first filler
 * in vertex 150, more after it in later chunks, one warning with the sum. */
Test(aem2025, filler_fold_counts_every_chunk_and_names_the_first)
{
    aem2025b_vertex proto = m->vertices[0];
    cr_assert_eq(aem2025b_resize(m, AEM2025B_VERTICES, 400), 0);
    for (uint32_t i = 0; i < 400; i++) m->vertices[i] = proto;
    uint64_t expect = 0;
    for (uint32_t i = 150; i < 400; i += 7) {
        m->vertices[i].joint[2] = m->vertices[i].joint[3] = 0;
        expect += 2;
    }
    m->vertices[399].joint[2] = 2; /* not a filler vertex: one weight-0 slot naming joint 2 */
    validate_model();
    expect_codes(r, MC_AEM2025_FILLER_JOINT_INDEX, MC_AEM2025_ZERO_WEIGHT_JOINT, -1);
    const mc_issue *is = mc_result_find(r, MC_AEM2025_FILLER_JOINT_INDEX);
    cr_assert_not_null(is);
    cr_expect_eq(is->first_offset, off(AEM2025B_VERTICES, 150, V_JOINTS + 8));
    char want[64];
    snprintf(want, sizeof want, "%llu joint slots", (unsigned long long)expect);
    cr_expect(strstr(first_message(MC_AEM2025_FILLER_JOINT_INDEX), want) != NULL, "%s",
              first_message(MC_AEM2025_FILLER_JOINT_INDEX));
    expect_issue(r, MC_AEM2025_ZERO_WEIGHT_JOINT, 1, off(AEM2025B_VERTICES, 399, V_JOINTS + 8));
}

Test(aem2025, error_in_a_late_chunk_is_found_at_its_offset)
{
    aem2025b_vertex proto = m->vertices[0];
    cr_assert_eq(aem2025b_resize(m, AEM2025B_VERTICES, 256), 0);
    for (uint32_t i = 0; i < 256; i++) m->vertices[i] = proto;
    m->vertices[201].normal[1] = NAN;
    m->vertices[255].weight[0] = 0.5f;
    validate_model();
    expect_codes(r, MC_AEM2025_VERTEX_NOT_FINITE, MC_AEM2025_WEIGHT_SUM, -1);
    expect_issue(r, MC_AEM2025_VERTEX_NOT_FINITE, 1, off(AEM2025B_VERTICES, 201, V_NORMAL));
    expect_issue(r, MC_AEM2025_WEIGHT_SUM, 1, off(AEM2025B_VERTICES, 255, V_WEIGHTS));
}

/* ---- joints ---- */

Test(aem2025, two_cycles_are_two_errors_and_a_chain_none)
{
    aem2025b_track walk = m->tracks[0], rest = m->tracks[3];
    cr_assert_eq(aem2025b_resize(m, AEM2025B_JOINTS, 7), 0);
    cr_assert_eq(aem2025b_resize(m, AEM2025B_TRACKS, 14), 0);
    for (uint32_t j = 3; j < 7; j++) m->joints[j] = m->joints[0];
    for (uint32_t t = 0; t < 14; t++) m->tracks[t] = t < 7 ? walk : rest; /* shared keys */
    m->joints[3].parent = 4; /* 3 <-> 4 */
    m->joints[4].parent = 3;
    m->joints[5].parent = 6; /* 5 <-> 6 */
    m->joints[6].parent = 5;
    validate_model();
    expect_codes(r, MC_AEM2025_JOINT_CYCLE, MC_AEM2025_JOINT_PARENT_AFTER_CHILD, -1);
    expect_issue(r, MC_AEM2025_JOINT_CYCLE, 2, off(AEM2025B_JOINTS, 4, 192));
    expect_issue(r, MC_AEM2025_JOINT_PARENT_AFTER_CHILD, 1, off(AEM2025B_JOINTS, 3, 192));
}

Test(aem2025, matrix_with_zero_last_row_is_singular)
{
    for (int k = 3; k < 16; k += 4) m->joints[2].inverse_bind[k] = 0.0f;
    validate_model();
    expect_only(r, MC_AEM2025_JOINT_MATRIX_SINGULAR, 1, off(AEM2025B_JOINTS, 2, 128));
}

/* ---- animations ---- */

Test(aem2025, keys_of_animation_1_are_judged_against_its_own_duration)
{
    /* animation 1 lasts 0.5 s; its joint 2 translation key at 0.75 s */
    m->keys[18 + 2 * 3].time = 0.75f;
    validate_model();
    expect_only(r, MC_AEM2025_KEY_TIME_RANGE, 1, off(AEM2025B_KEYFRAMES, 24, 0));
}

Test(aem2025, track_count_not_joints_x_animations)
{
    aem2025b_resize(m, AEM2025B_TRACKS, 7); /* a seventh track, all zero */
    validate_model();
    expect_codes(r, MC_AEM2025_TRACK_COUNT, MC_AEM2025_TRACK_CHANNEL_EMPTY, -1);
    expect_issue(r, MC_AEM2025_TRACK_COUNT, 1, 40);
    expect_issue(r, MC_AEM2025_TRACK_CHANNEL_EMPTY, 3, off(AEM2025B_TRACKS, 6, 4));
}

Test(aem2025, bc7_with_0_channels_is_one_channel_error)
{
    uint8_t blocks[48] = {0};
    aem2025b_texture t = {0, 4, 4, {0, 0}, 0, AEM2025B_BC7};
    aem2025b_add_texture(m, t, blocks, sizeof blocks, NULL);
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_CHANNELS, 1, off(AEM2025B_TEXTURES, 5, 24));
}
