/*
 * AEM checks beyond the case table (conformance/generator/aem_cases.c,
 * checked by test_cases.c): each test breaks one rule of a valid sample and
 * asserts the exact code, count and offset, and paths, messages and info
 * where they matter; the valid samples stay silent.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "support.h"

static aemb_model *m;
static mc_result *r;

static void setup(void)
{
    m = aemb_sample(AEMB_SKINNED_ANIMATED);
    cr_assert_not_null(m);
    r = NULL;
}

static void teardown(void)
{
    mc_result_free(r);
    aemb_free(m);
}

TestSuite(aem, .init = setup, .fini = teardown);

/* vertex field offsets (aem.md, Vertex Section) */
enum { V_NORMAL = 12, V_TANGENT = 24, V_BITANGENT = 36, V_BONES = 56, V_WEIGHTS = 72, V_EXTRA = 88 };

Test(aem, valid_skinned_sample_is_clean)
{
    r = validate_aem(m, NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_AEM);
    cr_expect_str_eq(r->layout, "aem1");
    cr_expect_eq(r->info.vertices, 8);
    cr_expect_eq(r->info.triangles, 4);
    cr_expect_eq(r->info.bones, 3);
    cr_expect_eq(r->info.keyframes, 18);
    cr_expect_eq(r->info.max_influences, 2);
    cr_expect(mc_result_valid(r));
}

Test(aem, exporter_static_model_warns_once_per_vertex)
{
    aemb_free(m);
    m = aemb_sample(AEMB_STATIC);
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_UNSKINNED_VERTEX, 8, at(m, AEMB_VERTICES, 0, V_BONES));
    cr_expect(mc_result_valid(r));
    cr_expect_eq(r->info.max_influences, 0);
}

/* ---- header ---- */

Test(aem, bad_magic_is_not_detected)
{
    memcpy(m->magic, "AEX", 3);
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_FILE_UNRECOGNIZED, 1, 0);
    cr_expect_eq(r->format, MC_FORMAT_UNKNOWN);
}

Test(aem, version_2_stops_checks)
{
    m->version = 2;
    m->vertices[0].normal[2] = 5.0f; /* not reported: layout unknown */
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_UNSUPPORTED_VERSION, 1, 3);
}

Test(aem, truncated_by_one_byte_is_one_error)
{
    r = validate_aem(m, NULL, 1);
    size_t size = (size_t)at(m, AEMB_KEYFRAMES, 18, 0) - 1;
    expect_only(r, MC_AEM_TRUNCATED, 1, size);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/keyframes");
}

Test(aem, hundred_bytes_claiming_four_billion_vertices)
{
    unsigned char b[100] = {'A', 'E', 'M', 1, 0xff, 0xff, 0xff, 0xff};
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_AEM_TRUNCATED, 1, 100);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/vertices");
}

Test(aem, all_counts_max_do_not_overflow)
{
    unsigned char b[40] = {'A', 'E', 'M', 1};
    memset(b + 4, 0xff, 36);
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_AEM_TRUNCATED, 1, 40);
}

/* ---- vertices ---- */

Test(aem, nan_normal_is_not_finite_not_unit)
{
    m->vertices[3].normal[0] = NAN;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_VERTEX_NOT_FINITE, 1, at(m, AEMB_VERTICES, 3, V_NORMAL));
    cr_expect_str_eq(r->issues[0].instances[0].path, "/vertices/3/normal");
}

Test(aem, infinite_position)
{
    m->vertices[6].position[1] = INFINITY;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_VERTEX_NOT_FINITE, 1, at(m, AEMB_VERTICES, 6, 0));
}

/* A zero normal says "no normal": one warning for the vertex section, at
 * the first, never NOT_UNIT; anything else off unit length stays an error. */
Test(aem, zero_normals_are_one_warning)
{
    memset(m->vertices[2].normal, 0, sizeof m->vertices[2].normal);
    memset(m->vertices[5].normal, 0, sizeof m->vertices[5].normal);
    m->vertices[5].normal[1] = -0.0f;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_NORMAL_ZERO, 1, at(m, AEMB_VERTICES, 2, V_NORMAL));
    cr_expect_str_eq(r->issues[0].instances[0].path, "/vertices/2/normal");
    cr_expect(strstr(r->issues[0].instances[0].message, "2 of ") != NULL, "%s", r->issues[0].instances[0].message);
    cr_expect(mc_result_valid(r));
}

Test(aem, normal_within_tolerance_is_unit)
{
    m->vertices[2].normal[2] = 1.006f;
    r = validate_aem(m, NULL, 0);
    expect_codes(r, -1);
}

Test(aem, tangent_and_bitangent_not_unit)
{
    m->vertices[1].tangent[0] = 0.5f;
    m->vertices[4].bitangent[1] = 2.0f;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_TANGENT_NOT_UNIT, 2, at(m, AEMB_VERTICES, 1, V_TANGENT));
    cr_expect_eq(r->issues[0].instances[1].offset, at(m, AEMB_VERTICES, 4, V_BITANGENT));
}

Test(aem, bone_index_out_of_range)
{
    m->vertices[4].bone[1] = 3;
    m->vertices[5].bone[1] = -2;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_BONE_INDEX_RANGE, 2, at(m, AEMB_VERTICES, 4, V_BONES + 4));
}

Test(aem, weights_sum_0_93)
{
    m->vertices[5].weight[0] = 0.68f;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_WEIGHT_SUM, 1, at(m, AEMB_VERTICES, 5, V_WEIGHTS));
    cr_expect_str_eq(r->issues[0].instances[0].message,
                     "vertex 5: weights sum to 0.930000 (expected 1 +- 4e-07)");
    cr_expect_str_eq(r->issues[0].instances[0].path, "/vertices/5/weights");
}

Test(aem, weight_sum_tolerance_scales_with_nonzero_weights)
{
    /* 0.75 + 0.25 + 3e-7: inside 3 x 2e-7, outside with a tighter option */
    m->vertices[5].bone[2] = 1;
    m->vertices[5].weight[2] = 3e-7f;
    r = validate_aem(m, NULL, 0);
    expect_codes(r, -1);
    mc_result_free(r);
    mc_options o;
    mc_options_init(&o);
    o.weight_sum_tolerance = 5e-8;
    r = validate_aem(m, &o, 0);
    expect_only(r, MC_AEM_WEIGHT_SUM, 1, at(m, AEMB_VERTICES, 5, V_WEIGHTS));
}

Test(aem, mesh_vertices_disagree_on_extra_bone)
{
    m->vertices[2].extra_bone = 2;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_MESH_EXTRA_BONE_MISMATCH, 1, at(m, AEMB_MESHES, 0, 0));
    cr_expect_str_eq(r->issues[0].instances[0].message,
                     "mesh 0: vertex 2 has extra bone 2, vertex 0 has 0 (expected one per mesh)");
}

/* ---- indices, textures, meshes, materials ---- */

Test(aem, index_out_of_range)
{
    m->indices[5] = 8;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_INDEX_RANGE, 1, at(m, AEMB_INDICES, 5, 0));
    cr_expect_str_eq(r->issues[0].instances[0].path, "/indices/5");
}

Test(aem, name_of_127_chars_is_fine)
{
    memset(m->textures[1], 'a', 127);
    m->textures[1][127] = '\0';
    r = validate_aem(m, NULL, 0);
    expect_codes(r, -1);
}

Test(aem, garbage_after_nul_is_info)
{
    m->textures[0][100] = 'x';
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_STRING_TRAILING_BYTES, 1, at(m, AEMB_TEXTURES, 0, 100));
    cr_expect_eq(r->issues[0].severity, MC_SEVERITY_INFO);
    cr_expect(mc_result_valid(r));
}

Test(aem, empty_texture_name)
{
    m->textures[0][0] = '\0';
    r = validate_aem(m, NULL, 0);
    /* the rest of "albedo.png" now lies after the NUL */
    expect_codes(r, MC_AEM_TEXTURE_NAME_EMPTY, MC_AEM_STRING_TRAILING_BYTES, -1);
    expect_issue(r, MC_AEM_TEXTURE_NAME_EMPTY, 1, at(m, AEMB_TEXTURES, 0, 0));
}

Test(aem, animation_name_without_nul)
{
    memset(m->animations[0].name, 'w', 128);
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_STRING_UNTERMINATED, 1, at(m, AEMB_ANIMATIONS, 0, 0));
}

Test(aem, mesh_range_past_index_section)
{
    m->meshes[1].first_index = 9;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_MESH_RANGE, 1, at(m, AEMB_MESHES, 1, 0));
    cr_expect_eq(r->info.triangles, 2);
}

Test(aem, mesh_range_overflowing_u32)
{
    m->meshes[1].first_index = 0xfffffffcu;
    m->meshes[1].index_count = 6;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_MESH_RANGE, 1, at(m, AEMB_MESHES, 1, 0));
}

Test(aem, material_texture_out_of_range)
{
    m->materials[0].texture[1] = 2;
    m->materials[1].texture[0] = -5;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_MATERIAL_TEXTURE_RANGE, 2, at(m, AEMB_MATERIALS, 0, 4));
}

Test(aem, sentinel_255_ambiguous_with_256_textures)
{
    cr_assert_eq(aemb_resize(m, AEMB_TEXTURES, 256), 0);
    for (int t = 2; t < 256; t++) snprintf(m->textures[t], 128, "t%d.png", t);
    r = validate_aem(m, NULL, 0);
    /* material 0 ORM and all three slots of material 1 */
    expect_only(r, MC_AEM_MATERIAL_SENTINEL_AMBIGUOUS, 4, at(m, AEMB_MATERIALS, 0, 8));
}

/* ---- bones ---- */

Test(aem, bone_parent_out_of_range)
{
    m->bones[2].parent = 3;
    m->bones[1].parent = -2;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_BONE_PARENT_RANGE, 2, at(m, AEMB_BONES, 1, 64));
}

Test(aem, tiny_uniform_scale_is_invertible)
{
    float *b = m->bones[1].inverse_bind;
    b[0] = b[5] = b[10] = 1e-4f;
    r = validate_aem(m, NULL, 0);
    expect_codes(r, -1);
}

Test(aem, bone_padding_not_zero)
{
    m->bones[2].padding[5] = 1;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_BONE_PADDING, 1, at(m, AEMB_BONES, 2, 68));
}

/* ---- animations, sequences, keyframes ---- */

Test(aem, duration_nan)
{
    m->animations[0].duration = NAN;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_ANIMATION_DURATION, 1, at(m, AEMB_ANIMATIONS, 0, 128));
}

Test(aem, sequence_index_past_end)
{
    m->animations[0].sequence_index = 1;
    r = validate_aem(m, NULL, 0);
    expect_codes(r, MC_AEM_ANIMATION_SEQUENCE_RANGE, MC_AEM_SEQUENCE_UNUSED, -1);
    expect_issue(r, MC_AEM_ANIMATION_SEQUENCE_RANGE, 1, at(m, AEMB_ANIMATIONS, 0, 132));
    expect_issue(r, MC_AEM_SEQUENCE_UNUSED, 3, at(m, AEMB_SEQUENCES, 0, 0));
}

Test(aem, sequence_index_overflowing_u32)
{
    m->animations[0].sequence_index = 0xffffffffu;
    r = validate_aem(m, NULL, 0);
    expect_codes(r, MC_AEM_ANIMATION_SEQUENCE_RANGE, MC_AEM_SEQUENCE_UNUSED, -1);
}

Test(aem, key_time_negative)
{
    m->keys[0].time = -0.5f;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_KEY_TIME_RANGE, 1, at(m, AEMB_KEYFRAMES, 0, 0));
}

Test(aem, scale_key_w_not_zero)
{
    m->keys[5].w = 0.25f;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_KEY_W_NONZERO, 1, at(m, AEMB_KEYFRAMES, 5, 16));
}

/* ---- resource limits ---- */

Test(aem, overlapping_meshes_hit_the_work_limit)
{
    /* 20000 meshes each spanning all 3000 indices: 6e7 visits */
    cr_assert_eq(aemb_resize(m, AEMB_INDICES, 3000), 0);
    for (uint32_t k = 0; k < 3000; k++) m->indices[k] = k % 4;
    cr_assert_eq(aemb_resize(m, AEMB_MESHES, 20000), 0);
    for (uint32_t i = 0; i < 20000; i++) m->meshes[i] = (aemb_mesh){0, 3000, 0};
    r = validate_aem(m, NULL, 0);
    expect_codes(r, MC_FILE_WORK_LIMIT, -1);
    const mc_issue *is = mc_result_find(r, MC_FILE_WORK_LIMIT);
    cr_expect_eq(is->count, 1);
    /* the mesh whose visits would exceed the budget */
    uint64_t off = is->first_offset;
    cr_expect_gt(off, at(m, AEMB_MESHES, 0, 0));
    cr_expect_lt(off, at(m, AEMB_MESHES, 20000, 0));
    cr_expect_eq((off - at(m, AEMB_MESHES, 0, 0)) % 12, 0);
    cr_expect(mc_result_valid(r));
}

/* ---- coverage ---- */

/* Animations listed out of sequence order: the coverage of the sequences is
 * computed over sorted starts (animation 0 at 6, animation 1 at 0). */
Test(aem, sequences_covered_by_animations_out_of_order)
{
    cr_assert_eq(aemb_resize(m, AEMB_SEQUENCES, 9), 0);
    for (int s = 3; s < 9; s++) m->sequences[s] = m->sequences[s % 3];
    cr_assert_eq(aemb_resize(m, AEMB_ANIMATIONS, 2), 0);
    m->animations[1] = m->animations[0];
    m->animations[0].sequence_index = 6;
    r = validate_aem(m, NULL, 0);
    expect_only(r, MC_AEM_SEQUENCE_UNUSED, 3, at(m, AEMB_SEQUENCES, 3, 0));
    const mc_issue *is = mc_result_find(r, MC_AEM_SEQUENCE_UNUSED);
    cr_assert_eq(is->instance_count, 3);
    cr_expect_str_eq(is->instances[2].path, "/sequences/5");
}
