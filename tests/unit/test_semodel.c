/*
 * SEModel checks beyond the case table (conformance/generator/
 * semodel_cases.c, checked by test_cases.c), both layouts: each test breaks
 * one rule of a valid sample and asserts the exact codes, count and first
 * offset, and paths, messages and info where they matter; the valid
 * samples stay silent.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "semodel_builder.h"
#include "support.h"

static semb_model *m;
static mc_result *r;

static void setup(void)
{
    m = NULL;
    r = NULL;
}

static void teardown(void)
{
    mc_result_free(r);
    semb_free(m);
}

TestSuite(semodel, .init = setup, .fini = teardown);

static semb_model *use(enum semb_sample_kind kind, enum semb_layout layout)
{
    semb_free(m);
    m = semb_sample(kind, layout);
    cr_assert_not_null(m);
    return m;
}

/* Writes m (recording its offsets), cuts bytes from the end, validates. */
static mc_result *check(const mc_options *o, size_t cut)
{
    mcb_buf b = {0};
    semb_write(m, &b);
    cr_assert(!b.oom);
    cr_assert_leq(cut, b.size);
    mc_result_free(r);
    r = validate_buf(b.data, b.size - cut, o);
    mcb_free(&b);
    return r;
}

static void expect_msg(mc_code code, const char *text)
{
    const mc_issue *is = mc_result_find(r, code);
    cr_assert_not_null(is);
    cr_assert_gt(is->instance_count, 0);
    cr_expect(strstr(is->instances[0].message, text) != NULL, "message \"%s\" lacks \"%s\"",
              is->instances[0].message, text);
}

static void expect_path(mc_code code, const char *path)
{
    const mc_issue *is = mc_result_find(r, code);
    cr_assert_not_null(is);
    cr_assert_gt(is->instance_count, 0);
    cr_expect_str_eq(is->instances[0].path, path);
}

/* ---- valid files, both layouts ---- */

Test(semodel, static_2018_is_clean)
{
    use(SEMB_STATIC, SEMB_2018);
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_SEMODEL);
    cr_expect_str_eq(r->layout, "2018");
    cr_expect_eq(r->info.meshes, 1);
    cr_expect_eq(r->info.vertices, 4);
    cr_expect_eq(r->info.triangles, 2);
    cr_expect_eq(r->info.indices, 6);
    cr_expect_eq(r->info.materials, 1);
    cr_expect_eq(r->info.uv_layers, 1);
}

Test(semodel, skinned_2018_is_clean)
{
    use(SEMB_SKINNED, SEMB_2018);
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.bones, 3);
    cr_expect_eq(r->info.max_influences, 2);
}

Test(semodel, uv_layers_2018_is_clean)
{
    use(SEMB_UV_LAYERS, SEMB_2018);
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.uv_layers, 3);
    cr_expect_eq(r->info.materials, 3);
    cr_expect_eq(r->info.meshes, 2);
}

Test(semodel, static_draft_is_clean)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_str_eq(r->layout, "draft");
    cr_expect_eq(r->info.vertices, 4);
}

Test(semodel, skinned_draft_is_clean)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.max_influences, 2);
}

/* The draft's mat_t indices need matCount > 0, so its material block is
 * announced, and the draft has no layout for it: one warning, no error. */
Test(semodel, uv_layers_draft_warns_only_about_the_material_block)
{
    use(SEMB_UV_LAYERS, SEMB_DRAFT);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_DRAFT_BLOCK_UNDEFINED, 1, 14);
    cr_expect(mc_result_valid(r));
    cr_expect_eq(r->info.uv_layers, 3);
}

static void many_bones(uint32_t n)
{
    cr_assert_eq(semb_set_bones(m, n), 0);
    semb_mesh *s = &m->meshes[0];
    for (uint32_t v = 0; v < s->nvertices; v++) s->bone[v * s->nslots] = n - 1 - v;
}

Test(semodel, skinned_300_bones_u16_bone_t_2018_is_clean)
{
    use(SEMB_SKINNED, SEMB_2018);
    many_bones(300);
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.bones, 300);
    /* 8 vertices x 2 slots x (u16 + f32) */
    cr_expect_eq(m->meshes[0].faces_at - m->meshes[0].weights_at, 8 * 2 * 6);
}

Test(semodel, skinned_300_bones_u16_bone_t_draft_is_clean)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    many_bones(300);
    check(NULL, 0);
    expect_codes(r, -1);
}

/* ---- detection ---- */

Test(semodel, detected_without_forcing)
{
    static const unsigned char b[] = "SEModel\x01\x00\x14\x00";
    r = validate_buf(b, 11, NULL);
    cr_expect_eq(r->format, MC_FORMAT_SEMODEL);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, 11);
}

Test(semodel, other_formats_not_claimed)
{
    aemb_model *a = aemb_sample(AEMB_SKINNED_ANIMATED);
    cr_assert_not_null(a);
    r = validate_aem(a, NULL, 0);
    aemb_free(a);
    cr_expect_eq(r->format, MC_FORMAT_AEM);
    mc_result_free(r);
    static const unsigned char anim[] = "SEAnim\x01\x00";
    r = validate_buf(anim, sizeof anim - 1, NULL);
    cr_expect_eq(r->format, MC_FORMAT_UNKNOWN);
    expect_only(r, MC_FILE_UNRECOGNIZED, 1, 0);
}

/* ---- header ---- */

Test(semodel, header_size_other_stops)
{
    use(SEMB_STATIC, SEMB_2018);
    m->header_size = 0x18;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_HEADER_SIZE, 1, 9);
    expect_msg(MC_SEMODEL_HEADER_SIZE, "0x18 (24)");
    expect_msg(MC_SEMODEL_HEADER_SIZE, "2017 draft");
    cr_expect_str_eq(r->layout, "");
}

Test(semodel, header_size_0x1c_is_the_draft)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->header_size = 0x1C;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_HEADER_SIZE_28, 1, 9);
    cr_expect_str_eq(r->layout, "draft");
}

Test(semodel, header_truncated_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    mcb_buf b = {0};
    semb_write(m, &b);
    r = validate_buf(b.data, 20, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, 20);
    expect_path(MC_SEMODEL_TRUNCATED, "/header");
}

Test(semodel, header_truncated_draft)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    mcb_buf b = {0};
    semb_write(m, &b);
    r = validate_buf(b.data, 38, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, 38);
}

Test(semodel, four_billion_bones_in_30_bytes, .timeout = 5)
{
    unsigned char b[30] = "SEModel\x01\x00\x14\x00\x01";
    memset(b + 14, 0xFF, 4); /* boneCount */
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, 30);
    expect_path(MC_SEMODEL_TRUNCATED, "/bones");
}

Test(semodel, four_billion_bones_draft, .timeout = 5)
{
    unsigned char b[40] = "SEModel\x01\x00\x1e\x00\x00\x00\x00\x01";
    memset(b + 19, 0xFF, 4);
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, 40);
}

Test(semodel, all_counts_max, .timeout = 5)
{
    unsigned char b[64] = "SEModel\x01\x00\x14\x00\x07\x07\x0f";
    memset(b + 14, 0xFF, 12);
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, 64);
}

Test(semodel, mesh_count_max)
{
    use(SEMB_STATIC, SEMB_2018);
    m->mesh_count = 0xFFFFFFFFu;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, m->end_at);
    expect_path(MC_SEMODEL_TRUNCATED, "/meshes");
}

Test(semodel, vertex_count_max_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    m->meshes[0].vertex_count = 0xFFFFFFFFu;
    m->nmaterials = 0;
    mcb_buf b = {0};
    semb_write(m, &b);
    b.size = m->meshes[0].positions_at + 100;
    r = validate_buf(b.data, b.size, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, m->meshes[0].positions_at + 100);
    expect_path(MC_SEMODEL_TRUNCATED, "/meshes/0");
}

Test(semodel, face_count_max_draft)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->meshes[0].face_count = 0xFFFFFFFFu;
    mcb_buf b = {0};
    semb_write(m, &b);
    b.size = m->meshes[0].faces_at + 12;
    r = validate_buf(b.data, b.size, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, m->meshes[0].faces_at + 12);
}

Test(semodel, material_count_max)
{
    use(SEMB_STATIC, SEMB_2018);
    m->mat_count = 0xFFFFFFFFu;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, m->end_at);
    expect_path(MC_SEMODEL_TRUNCATED, "/materials");
}

Test(semodel, cut_by_one_byte_is_one_error)
{
    use(SEMB_SKINNED, SEMB_2018);
    check(NULL, 1);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, m->end_at - 1);
    expect_path(MC_SEMODEL_TRUNCATED, "/meshes/0");
}

Test(semodel, cut_inside_bone_records)
{
    use(SEMB_SKINNED, SEMB_2018);
    mcb_buf b = {0};
    semb_write(m, &b);
    r = validate_buf(b.data, m->bones[2].at + 3, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, m->bones[2].at + 3);
    expect_path(MC_SEMODEL_TRUNCATED, "/bones");
}

Test(semodel, cut_in_second_mesh_header)
{
    use(SEMB_UV_LAYERS, SEMB_2018);
    mcb_buf b = {0};
    semb_write(m, &b);
    r = validate_buf(b.data, m->meshes[1].at + 5, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, m->meshes[1].at + 5);
}

Test(semodel, trailing_bytes_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_tail(m, "junk", 4), 0);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_TRAILING_BYTES, 1, m->tail_at);
}

Test(semodel, trailing_bytes_draft)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    cr_assert_eq(semb_set_tail(m, "\0", 1), 0);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_TRAILING_BYTES, 1, m->tail_at);
}

Test(semodel, reserved_nonzero_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    m->reserved[1] = 9;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_RESERVED_NONZERO, 1, 27);
}

Test(semodel, reserved_nonzero_draft)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    m->reserved[0] = 1; /* reserved1[0] */
    m->reserved[4] = 1; /* reserved2[2] */
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_RESERVED_NONZERO, 2, 17);
}

Test(semodel, unknown_flag_bits_2018)
{
    use(SEMB_SKINNED, SEMB_2018);
    m->data_flags |= 0x08;
    m->bone_flags |= 0x80;
    m->mesh_flags |= 0x10;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_UNKNOWN_FLAG_BITS, 3, 11);
}

Test(semodel, no_data_block)
{
    m = semb_new(SEMB_2018);
    cr_assert_not_null(m);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_NO_DATA_BLOCK, 1, 11);
}

/* docs/formats/semodel.md: readers disagree; the count decides. */
Test(semodel, material_count_without_flag_draft)
{
    use(SEMB_UV_LAYERS, SEMB_DRAFT);
    m->data_flags &= (uint8_t)~SEMB_MATERIALS_DRAFT;
    check(NULL, 0);
    expect_codes(r, MC_SEMODEL_COUNT_WITHOUT_FLAG, MC_SEMODEL_DRAFT_BLOCK_UNDEFINED, -1);
    expect_issue(r, MC_SEMODEL_COUNT_WITHOUT_FLAG, 1, 31);
}

Test(semodel, uv_layers_without_uvset_2018)
{
    use(SEMB_UV_LAYERS, SEMB_2018);
    m->mesh_flags &= (uint8_t)~SEMB_UVSET;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_UV_LAYERS_WITHOUT_UVSET, 2, m->meshes[0].at + 1);
    cr_expect_eq(r->info.uv_layers, 0);
}

Test(semodel, uv_layers_without_uvset_draft)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    m->meshes[0].layers = 2;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_UV_LAYERS_WITHOUT_UVSET, 1, m->meshes[0].at + 1);
}

Test(semodel, draft_collision_block_undefined)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    m->data_flags |= SEMB_COLLISION_DRAFT;
    m->col_count = 2;
    cr_assert_eq(semb_set_tail(m, "opaque", 6), 0); /* not judged */
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_DRAFT_BLOCK_UNDEFINED, 1, 14);
    expect_msg(MC_SEMODEL_DRAFT_BLOCK_UNDEFINED, "COLLISION");
}

Test(semodel, custom_block_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    m->data_flags |= SEMB_CUSTOM_2018;
    cr_assert_eq(semb_set_tail(m, "custom", 6), 0);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_CUSTOM_BLOCK, 1, 11);
}

Test(semodel, element_flags)
{
    use(SEMB_SKINNED, SEMB_2018);
    m->bones[1].flags = 1;
    m->meshes[0].flags = 4;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_ELEMENT_FLAGS, 2, m->bones[1].at);
}

/* ---- strings ---- */

Test(semodel, bone_name_runs_to_end_of_file)
{
    unsigned char b[29 + 4096];
    memset(b, 'x', sizeof b);
    memcpy(b, "SEModel\x01\x00\x14\x00\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
           29);
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_SEMODEL_STRING_UNTERMINATED, 1, 29);
    expect_path(MC_SEMODEL_STRING_UNTERMINATED, "/bones/0/name");
}

Test(semodel, material_map_runs_to_end_of_file)
{
    use(SEMB_STATIC, SEMB_2018);
    check(NULL, 1);
    const semb_material *x = &m->materials[0];
    uint64_t at = x->at + strlen(x->name) + 2 + strlen(x->map[0]) + 1 + strlen(x->map[1]) + 1;
    expect_only(r, MC_SEMODEL_STRING_UNTERMINATED, 1, at);
    expect_path(MC_SEMODEL_STRING_UNTERMINATED, "/materials/0/specularMap");
}

Test(semodel, bone_name_not_utf8)
{
    use(SEMB_SKINNED, SEMB_2018);
    strcpy(m->bones[0].name, "b\xff");
    strcpy(m->bones[1].name, "\xc0\xaf");       /* overlong '/' */
    strcpy(m->bones[2].name, "s\xed\xa0\x80"); /* surrogate */
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_STRING_NOT_UTF8, 3, m->bones[0].name_at + 1);
}

Test(semodel, utf8_names_are_fine)
{
    use(SEMB_SKINNED, SEMB_2018);
    strcpy(m->bones[0].name, "\xc3\xa9paule");           /* épaule */
    strcpy(m->bones[1].name, "\xe8\x85\x95");            /* 腕 */
    strcpy(m->bones[2].name, "\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf"); /* U+1F600 U+10FFFF */
    check(NULL, 0);
    expect_codes(r, -1);
}

Test(semodel, material_name_not_utf8)
{
    use(SEMB_STATIC, SEMB_2018);
    strcpy(m->materials[0].map[1], "n\xf4\x90\x80\x80"); /* above U+10FFFF */
    check(NULL, 0);
    const semb_material *x = &m->materials[0];
    expect_only(r, MC_SEMODEL_STRING_NOT_UTF8, 1,
                x->at + strlen(x->name) + 2 + strlen(x->map[0]) + 1 + 1);
}

Test(semodel, bone_name_empty)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->bones[1].name[0] = '\0';
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_NAME_EMPTY, 1, m->bones[1].name_at);
}

Test(semodel, bone_name_duplicate)
{
    use(SEMB_SKINNED, SEMB_2018);
    strcpy(m->bones[2].name, "bone0");
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_NAME_DUPLICATE, 1, m->bones[2].name_at);
    expect_msg(MC_SEMODEL_BONE_NAME_DUPLICATE, "bone 0");
}

Test(semodel, many_duplicate_bone_names_linear, .timeout = 20)
{
    use(SEMB_SKINNED, SEMB_2018);
    cr_assert_eq(semb_set_bones(m, 70000), 0);
    for (uint32_t i = 0; i < 70000; i++) strcpy(m->bones[i].name, "same");
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_NAME_DUPLICATE, 69999, m->bones[1].name_at);
}

/* ---- bones ---- */

Test(semodel, bone_parent_forward)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->bones[0].parent = 2;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_PARENT_FORWARD, 1, m->bones[0].at + 1);
}

Test(semodel, bone_parent_range)
{
    use(SEMB_SKINNED, SEMB_2018);
    m->bones[1].parent = 3;
    m->bones[2].parent = -2;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_PARENT_RANGE, 2, m->bones[1].at + 1);
}

Test(semodel, bone_not_finite)
{
    use(SEMB_SKINNED, SEMB_2018);
    m->bones[2].global_position[0] = NAN;
    m->bones[2].scale[2] = INFINITY;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_NOT_FINITE, 2, m->bones[2].at + 5);
}

Test(semodel, bone_rotation_not_unit)
{
    use(SEMB_SKINNED, SEMB_2018);
    m->bones[0].local_rotation[3] = 0.5f;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_ROTATION_NOT_UNIT, 1, m->bones[0].at + 5 + 28 + 12);
}

Test(semodel, bone_scale_zero)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->bones[1].scale[1] = 0.0f;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_BONE_SCALE_ZERO, 1, m->bones[1].at + 5 + 56);
}

/* ---- vertices ---- */

Test(semodel, position_not_finite_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    m->meshes[0].position[3][1] = INFINITY;
    m->meshes[0].uv[2 * 2 + 1] = NAN;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_VERTEX_NOT_FINITE, 2, m->meshes[0].positions_at + 36);
    const mc_issue *is = mc_result_find(r, MC_SEMODEL_VERTEX_NOT_FINITE);
    cr_expect_eq(is->instances[1].offset, m->meshes[0].uvs_at + 2 * 8);
}

Test(semodel, normal_not_unit_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    m->meshes[0].normal[2][2] = 0.9f;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_NORMAL_NOT_UNIT, 1, m->meshes[0].normals_at + 24);
}

/* A zero normal says "no normal": one warning per mesh, at the first. */
Test(semodel, zero_normals_2018_are_one_warning)
{
    use(SEMB_STATIC, SEMB_2018);
    memset(m->meshes[0].normal[1], 0, sizeof m->meshes[0].normal[1]);
    memset(m->meshes[0].normal[3], 0, sizeof m->meshes[0].normal[3]);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_NORMAL_ZERO, 1, m->meshes[0].normals_at + 12);
    expect_path(MC_SEMODEL_NORMAL_ZERO, "/meshes/0/vertices/1/normal");
    expect_msg(MC_SEMODEL_NORMAL_ZERO, "mesh 0: 2 of 4 vertices");
    cr_expect(mc_result_valid(r));
}

Test(semodel, draft_half_zero_normal_is_a_warning)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    memset(m->meshes[0].normal[2], 0, sizeof m->meshes[0].normal[2]);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_NORMAL_ZERO, 1, semb_draft_at(m, 0, 2, SEMB_F_NORMAL));
}

Test(semodel, draft_half_normals_near_unit_are_fine)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    for (uint32_t v = 0; v < 4; v++) {
        m->meshes[0].normal[v][0] = 0.0f;
        m->meshes[0].normal[v][1] = 0.6f; /* 0x38CD: 0.60009765625 */
        m->meshes[0].normal[v][2] = -0.8f;
    }
    check(NULL, 0);
    expect_codes(r, -1);
}

Test(semodel, draft_half_normal_not_unit)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    m->meshes[0].normal[1][2] = 0.5f;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_NORMAL_NOT_UNIT, 1, semb_draft_at(m, 0, 1, SEMB_F_NORMAL));
    expect_msg(MC_SEMODEL_NORMAL_NOT_UNIT, "(0, 0, 0.5)");
}

/* binary16 subnormals: 0x0001 is 2^-24, 0x03FF is 1023 x 2^-24. */
Test(semodel, draft_half_subnormals_decode)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    float tiny = ldexpf(1.0f, -24), largest = ldexpf(1023.0f, -24);
    cr_assert_eq(semb_half(tiny), 0x0001);
    cr_assert_eq(semb_half(largest), 0x03FF);
    float *n = m->meshes[0].normal[0];
    n[0] = tiny;
    n[1] = 0.0f;
    n[2] = 0.0f;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_NORMAL_NOT_UNIT, 1, semb_draft_at(m, 0, 0, SEMB_F_NORMAL));
    expect_msg(MC_SEMODEL_NORMAL_NOT_UNIT, "(5.96046e-08, 0, 0)");
    n[0] = -largest;
    check(NULL, 0);
    expect_msg(MC_SEMODEL_NORMAL_NOT_UNIT, "(-6.09756e-05, 0, 0)");
}

Test(semodel, draft_half_largest_normal_decodes)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    m->meshes[0].normal[0][2] = 65504.0f;
    cr_assert_eq(semb_half(65504.0f), 0x7BFF);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_NORMAL_NOT_UNIT, 1, semb_draft_at(m, 0, 0, SEMB_F_NORMAL));
    expect_msg(MC_SEMODEL_NORMAL_NOT_UNIT, "(0, 0, 65504)");
}

Test(semodel, draft_half_inf_and_nan_are_not_finite)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    cr_assert_eq(semb_half(INFINITY), 0x7C00);
    cr_assert_eq(semb_half(-INFINITY), 0xFC00);
    cr_assert_eq(semb_half(NAN) & 0x7E00, 0x7E00);
    m->meshes[0].normal[1][0] = INFINITY;
    m->meshes[0].normal[2][1] = -INFINITY;
    m->meshes[0].normal[3][2] = NAN;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_VERTEX_NOT_FINITE, 3, semb_draft_at(m, 0, 1, SEMB_F_NORMAL));
    expect_path(MC_SEMODEL_VERTEX_NOT_FINITE, "/meshes/0/vertices/1/normal");
}

/* ---- faces and the face_t width (2018) ---- */

Test(semodel, face_index_range)
{
    use(SEMB_SKINNED, SEMB_2018);
    m->meshes[0].face[1][2] = 8;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_FACE_INDEX_RANGE, 1, m->meshes[0].faces_at + 3 + 2);
}

Test(semodel, face_index_range_draft)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->meshes[0].face[5][0] = 0xFFFFFFFFu;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_FACE_INDEX_RANGE, 1, m->meshes[0].faces_at + 5 * 12);
}

Test(semodel, face_degenerate)
{
    use(SEMB_STATIC, SEMB_2018);
    m->meshes[0].face[1][0] = 1;
    m->meshes[0].face[1][1] = 2;
    m->meshes[0].face[1][2] = 1;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_FACE_DEGENERATE, 1, m->meshes[0].faces_at + 3);
}

/* A mesh of `vertices`: the last face's last index is vertexCount, so the
 * error's offset proves the width the validator used. */
static void face_width_case(uint32_t vertices, unsigned width)
{
    m = semb_new(SEMB_2018);
    cr_assert_not_null(m);
    semb_mesh *s = semb_add_mesh(m, vertices, 2, 0, 0);
    cr_assert_not_null(s);
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(s->materials_at - s->faces_at, 2 * 3 * width);
    s->face[1][2] = vertices;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_FACE_INDEX_RANGE, 1, s->faces_at + 5 * width);
}

Test(semodel, face_t_u8_at_255_vertices) { face_width_case(255, 1); }
Test(semodel, face_t_u16_at_256_vertices) { face_width_case(256, 2); }
Test(semodel, face_t_u16_at_65535_vertices) { face_width_case(65535, 2); }
Test(semodel, face_t_u32_at_65536_vertices) { face_width_case(65536, 4); }

/* ---- weights and the bone_t width ---- */

static void bone_width_case(enum semb_layout layout, uint32_t bones, unsigned width)
{
    use(SEMB_SKINNED, layout);
    cr_assert_eq(semb_set_bones(m, bones), 0);
    m->bone_flags = 0;
    semb_mesh *s = &m->meshes[0];
    s->bone[0] = bones - 1;
    check(NULL, 0);
    expect_codes(r, -1);
    s->bone[7 * 2 + 1] = bones; /* vertex 7, slot 1 */
    check(NULL, 0);
    uint64_t at = layout == SEMB_2018 ? s->weights_at + (7 * 2 + 1) * (width + 4)
                                      : semb_draft_at(m, 0, 7, SEMB_F_BONES) + width;
    expect_only(r, MC_SEMODEL_WEIGHT_BONE_RANGE, 1, at);
}

Test(semodel, bone_t_u8_at_255_bones) { bone_width_case(SEMB_2018, 255, 1); }
Test(semodel, bone_t_u16_at_256_bones) { bone_width_case(SEMB_2018, 256, 2); }
Test(semodel, bone_t_u16_at_65535_bones) { bone_width_case(SEMB_2018, 65535, 2); }
Test(semodel, bone_t_u32_at_65536_bones) { bone_width_case(SEMB_2018, 65536, 4); }
Test(semodel, draft_bone_t_u8_at_255_bones) { bone_width_case(SEMB_DRAFT, 255, 1); }
Test(semodel, draft_bone_t_u16_at_256_bones) { bone_width_case(SEMB_DRAFT, 256, 2); }
Test(semodel, draft_bone_t_u16_at_65535_bones) { bone_width_case(SEMB_DRAFT, 65535, 2); }
Test(semodel, draft_bone_t_u32_at_65536_bones) { bone_width_case(SEMB_DRAFT, 65536, 4); }

Test(semodel, weight_nan_draft)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->meshes[0].weight[3 * 2 + 1] = NAN;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_WEIGHT_RANGE, 1, semb_draft_at(m, 0, 3, SEMB_F_WEIGHTS) + 2);
}

Test(semodel, weight_sum)
{
    use(SEMB_SKINNED, SEMB_2018);
    semb_mesh *s = &m->meshes[0];
    s->weight[5 * 2] = 0.7f;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_WEIGHT_SUM, 1, s->weights_at + 5 * 2 * 5 + 1);
    expect_msg(MC_SEMODEL_WEIGHT_SUM, "0.950000");
}

/* Thirds in binary16 sum to 0.99976: within the half-float slack. */
Test(semodel, draft_half_weights_thirds_are_fine)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    semb_free(m);
    m = semb_new(SEMB_DRAFT);
    cr_assert_not_null(m);
    m->mesh_flags = SEMB_WEIGHTS;
    m->max_influence = 3;
    cr_assert_eq(semb_set_bones(m, 3), 0);
    semb_mesh *s = semb_add_mesh(m, 3, 1, 0, 3);
    cr_assert_not_null(s);
    for (uint32_t v = 0; v < 3; v++)
        for (uint32_t j = 0; j < 3; j++) {
            s->bone[v * 3 + j] = j;
            s->weight[v * 3 + j] = 1.0f / 3.0f;
        }
    check(NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.max_influences, 3);
}

Test(semodel, skin_influence_zero_draft)
{
    use(SEMB_SKINNED, SEMB_DRAFT);
    m->max_influence = 0;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_SKIN_INFLUENCE_ZERO, 1, 35);
}

Test(semodel, skin_influence_without_weights_2018)
{
    use(SEMB_STATIC, SEMB_2018);
    m->meshes[0].influences = 4;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_SKIN_INFLUENCE_WITHOUT_WEIGHTS, 1, m->meshes[0].at + 2);
}

Test(semodel, skin_influence_without_weights_draft)
{
    use(SEMB_STATIC, SEMB_DRAFT);
    m->max_influence = 2;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_SKIN_INFLUENCE_WITHOUT_WEIGHTS, 1, 35);
}

/* ---- materials ---- */

Test(semodel, material_reference_range_2018)
{
    use(SEMB_UV_LAYERS, SEMB_2018);
    m->meshes[1].material[1] = 3;
    m->meshes[1].material[2] = -1; /* none: fine */
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_MATERIAL_INDEX_RANGE, 1, m->meshes[1].materials_at + 4);
}

Test(semodel, material_reference_minus_two_2018)
{
    use(SEMB_UV_LAYERS, SEMB_2018);
    m->meshes[0].material[0] = -2;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_MATERIAL_INDEX_RANGE, 1, m->meshes[0].materials_at);
}

static void mat_width_case(uint32_t mats, unsigned width)
{
    use(SEMB_UV_LAYERS, SEMB_DRAFT);
    m->mat_count = mats;
    m->meshes[0].uv_material[4 * 3 + 2] = mats; /* vertex 4, layer 2 */
    check(NULL, 0);
    expect_codes(r, MC_SEMODEL_MATERIAL_INDEX_RANGE, MC_SEMODEL_DRAFT_BLOCK_UNDEFINED, -1);
    expect_issue(r, MC_SEMODEL_MATERIAL_INDEX_RANGE, 1,
                 semb_draft_at(m, 0, 4, SEMB_F_MAT) + 2 * width);
    expect_path(MC_SEMODEL_MATERIAL_INDEX_RANGE, "/meshes/0/vertices/4/materials/2");
}

Test(semodel, draft_mat_t_u8_at_255_materials) { mat_width_case(255, 1); }
Test(semodel, draft_mat_t_u16_at_256_materials) { mat_width_case(256, 2); }

Test(semodel, material_simple_flag)
{
    use(SEMB_STATIC, SEMB_2018);
    m->materials[0].simple = 2;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_MATERIAL_SIMPLE_FLAG, 1,
                m->materials[0].at + strlen(m->materials[0].name) + 1);
}

Test(semodel, material_not_simple_has_no_maps)
{
    use(SEMB_UV_LAYERS, SEMB_2018);
    m->materials[1].simple = 0;
    check(NULL, 0);
    expect_codes(r, -1);
}

/* ---- Greyhound's SEBlend block ----
 * The case table (conformance/generator/semodel_cases.c, run row by row by
 * test_cases.c) holds the valid layouts and every framing, shape-range and
 * finiteness row with its codes, counts and first offset. These tests add
 * what no row checks: messages, paths, the last valid shape index, and
 * files no row holds. All are built with the builder's SEBlend writer. */

#define FRAMING MC_SEMODEL_SEBLEND_FRAMING

Test(semodel, seblend_trailer_message)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend_sample(m), 0);
    check(NULL, 0);
    expect_msg(MC_SEMODEL_SEBLEND_TRAILER, "2 blend shapes, 4 deltas over 4 vertices");
    expect_path(MC_SEMODEL_SEBLEND_TRAILER, "/seblend");
    cr_expect_eq(r->info.blend_shapes, 2);
}

/* Each framing message names the vertex whose count or records overrun. */
Test(semodel, seblend_framing_messages_and_paths)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend(m, 0, "", 0, NULL, 0), 0);
    m->tail_size = 16; /* ends after the count of 0 */
    check(NULL, 0);
    expect_path(FRAMING, "/seblend/deltas/0/0");
    expect_msg(FRAMING, "before the delta count of mesh 0 vertex 0 (one per vertex, even for 0 deltas)");

    cr_assert_eq(semb_set_seblend_sample(m), 0);
    check(NULL, 4); /* inside vertex 3's one record */
    expect_path(FRAMING, "/seblend/deltas/0/3");
    expect_msg(FRAMING, "mesh 0 vertex 3: 1 deltas need 16 bytes, 12 remain");

    semb_tail_u32(m, 84, 0xFFFFFFFFu); /* vertex 2's count: no loop of 2^32 records */
    check(NULL, 0);
    expect_path(FRAMING, "/seblend/deltas/0/2");
    expect_msg(FRAMING, "mesh 0 vertex 2: 4294967295 deltas need 68719476720 bytes, 20 remain");
}

/* Shape indices run below the block's count: count - 1 is the last valid. */
Test(semodel, seblend_shape_index_range_bound)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend_sample(m), 0);
    semb_tail_u32(m, 32, 2); /* vertex 0's record */
    semb_tail_u32(m, 92, 7); /* vertex 3's record */
    check(NULL, 0);
    expect_issue(r, MC_SEMODEL_SEBLEND_SHAPE_RANGE, 2, m->tail_at + 32);
    expect_path(MC_SEMODEL_SEBLEND_SHAPE_RANGE, "/seblend/deltas/0/0/0/shape");
    expect_msg(MC_SEMODEL_SEBLEND_SHAPE_RANGE, "mesh 0 vertex 0 delta 0: shape index 2 (expected < the block's count 2)");
    semb_tail_u32(m, 32, 1);
    semb_tail_u32(m, 92, 0);
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_SEBLEND_TRAILER, 1, m->tail_at);
}

Test(semodel, seblend_delta_infinite_path)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend_sample(m), 0);
    semb_tail_u32(m, 92 + 8, 0x7F800000u); /* vertex 3's y = +infinity */
    check(NULL, 0);
    expect_issue(r, MC_SEMODEL_SEBLEND_DELTA_NOT_FINITE, 1, m->tail_at + 96);
    expect_path(MC_SEMODEL_SEBLEND_DELTA_NOT_FINITE, "/seblend/deltas/0/3/0/delta");
    expect_msg(MC_SEMODEL_SEBLEND_DELTA_NOT_FINITE, "mesh 0 vertex 3 delta 0: (-0.1, inf, 0) holds NaN or infinity");
}

/* Meshes in file order: mesh 1's vertices follow all of mesh 0's. */
Test(semodel, seblend_deltas_follow_the_meshes_in_order)
{
    use(SEMB_UV_LAYERS, SEMB_2018);
    cr_assert_eq(m->nmeshes, 2);
    semb_delta d = {m->meshes[0].vertex_count, 3, {0, 0, 1}};
    cr_assert_eq(semb_set_seblend(m, 1, "open", 5, &d, 1), 0);
    check(NULL, 0);
    expect_codes(r, MC_SEMODEL_SEBLEND_TRAILER, MC_SEMODEL_SEBLEND_SHAPE_RANGE, -1);
    expect_issue(r, MC_SEMODEL_SEBLEND_SHAPE_RANGE, 1, m->tail_at + 21 + 4 * (uint64_t)m->meshes[0].vertex_count + 4);
    expect_path(MC_SEMODEL_SEBLEND_SHAPE_RANGE, "/seblend/deltas/1/0/0/shape");
}

Test(semodel, seblend_count_too_large_message)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend(m, UINT64_MAX, "a", 2, NULL, 0), 0);
    check(NULL, 0);
    expect_only(r, FRAMING, 1, m->tail_at + 8);
    expect_path(FRAMING, "/seblend/count");
    expect_msg(FRAMING, "SEBlend count 18446744073709551615 cannot fit");
}

Test(semodel, seblend_name_unterminated)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend(m, 2, "smile\0blink", 11, NULL, 0), 0);
    m->tail_size = 16 + 11; /* the file ends inside "blink" */
    check(NULL, 0);
    expect_only(r, FRAMING, 1, m->tail_at + 16 + 6);
    expect_path(FRAMING, "/seblend/1/name");
    expect_msg(FRAMING, "SEBlend name 1 of 2: no NUL terminator before the end of the file");
}

Test(semodel, seblend_without_count)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend(m, 0, "", 0, NULL, 0), 0);
    m->tail_size = 10; /* the magic and 2 bytes of the u64 count */
    check(NULL, 0);
    expect_only(r, FRAMING, 1, m->tail_at + 8);
    expect_path(FRAMING, "/seblend/count");
}

/* 7 bytes cannot hold the u64 magic: trailing bytes, not an SEBlend block. */
Test(semodel, seblend_prefix_is_trailing_bytes)
{
    use(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend(m, 0, "", 0, NULL, 0), 0);
    m->tail_size = 7;
    check(NULL, 0);
    expect_only(r, MC_SEMODEL_TRAILING_BYTES, 1, m->tail_at);
}

#undef FRAMING

/* ---- info ---- */

Test(semodel, work_options_respected)
{
    use(SEMB_SKINNED, SEMB_2018);
    mc_options o;
    mc_options_init(&o);
    mc_severity_map *map = mc_severity_map_new();
    cr_assert_not_null(map);
    mc_severity_map_set(map, MC_SEMODEL_WEIGHT_SUM, MC_SEVERITY_IGNORE);
    o.severity = map;
    m->meshes[0].weight[0] = 0.1f;
    check(&o, 0);
    mc_severity_map_free(map);
    expect_codes(r, -1);
}

/* ---- coverage: truncation after the names ---- */

/* All bone names fit, and so does boneCount x (record + 1), but not the
 * records after the names. */
Test(semodel, truncated_in_the_bone_records_after_the_names)
{
    use(SEMB_SKINNED, SEMB_2018);
    mcb_buf b = {0};
    semb_write(m, &b);
    cr_assert_eq(m->bone_count, 3);
    uint64_t record = m->bones[2].at - m->bones[1].at;
    uint64_t names = m->bones[0].at - m->bones_at;
    cr_assert_gt(names, 3);
    uint64_t size = m->bones_at + 3 * (record + 1) + 1;
    cr_assert_lt(size, m->bones_at + names + 3 * record);
    r = validate_buf(b.data, (size_t)size, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, size);
    expect_path(MC_SEMODEL_TRUNCATED, "/bones");
    expect_msg(MC_SEMODEL_TRUNCATED, "bone data: 3 x");
}

Test(semodel, truncated_before_is_simple_material)
{
    use(SEMB_STATIC, SEMB_2018);
    mcb_buf b = {0};
    semb_write(m, &b);
    cr_assert_eq(m->nmaterials, 1);
    uint64_t size = m->materials[0].at + strlen(m->materials[0].name) + 1;
    cr_assert_lt(size, b.size);
    r = validate_buf(b.data, (size_t)size, NULL);
    mcb_free(&b);
    expect_only(r, MC_SEMODEL_TRUNCATED, 1, size);
    expect_path(MC_SEMODEL_TRUNCATED, "/materials");
    char text[96];
    snprintf(text, sizeof text, "material 0: file ends before isSimpleMaterial at 0x%llx",
             (unsigned long long)size);
    expect_msg(MC_SEMODEL_TRUNCATED, text);
}
