/*
 * NLM checks beyond the case table (conformance/generator/nlm_cases.c,
 * checked by test_cases.c): each test breaks one rule of a valid sample and
 * asserts the exact codes, count and first offset, and paths, messages and
 * info where they matter; the valid samples stay silent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nlm_builder.h"
#include "support.h"

static nlmb_model *m;
static mc_result *r;

static void setup(void)
{
    m = nlmb_sample(NLMB_SKINNED_ANIMATED);
    cr_assert_not_null(m);
    r = NULL;
}

static void teardown(void)
{
    mc_result_free(r);
    nlmb_free(m);
}

TestSuite(nlm, .init = setup, .fini = teardown);

/* vertex field offsets (nlm.md, Vertex Data) */
enum { V_COLOR = 12, V_NORMAL = 24, V_UV = 36, V_BONES = 44, V_WEIGHTS = 60 };

static mc_result *validate_nlm(const nlmb_model *model, const mc_options *opt, size_t cut)
{
    mcb_buf b = {0};
    nlmb_write(model, &b);
    cr_assert(!b.oom);
    cr_assert_leq(cut, b.size);
    cr_assert_eq(b.size, nlmb_size(model));
    mc_result *res = validate_buf(b.data, b.size - cut, opt);
    mcb_free(&b);
    return res;
}

static void use_sample(enum nlmb_sample_kind kind)
{
    nlmb_free(m);
    m = nlmb_sample(kind);
    cr_assert_not_null(m);
}

static uint64_t vtx(uint32_t mesh, uint64_t v, uint64_t field)
{
    return nlmb_vertex_offset(m, mesh, v) + field;
}

static const char *first_path(const mc_result *res, mc_code code)
{
    const mc_issue *is = mc_result_find(res, code);
    cr_assert_not_null(is);
    cr_assert_gt(is->instance_count, 0);
    return is->instances[0].path;
}

static const char *first_msg(const mc_result *res, mc_code code)
{
    const mc_issue *is = mc_result_find(res, code);
    cr_assert_not_null(is);
    cr_assert_gt(is->instance_count, 0);
    return is->instances[0].message;
}

/* ---- valid samples and detection ---- */

Test(nlm, valid_skinned_animated_is_clean)
{
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_NLM);
    cr_expect_str_eq(r->layout, "v2");
    cr_expect_eq(r->info.meshes, 1);
    cr_expect_eq(r->info.vertices, 4);
    cr_expect_eq(r->info.indices, 6);
    cr_expect_eq(r->info.triangles, 2);
    cr_expect_eq(r->info.bones, 3);
    cr_expect_eq(r->info.animations, 1);
    cr_expect_eq(r->info.keyframes, 18);
    cr_expect_eq(r->info.nodes, 4);
    cr_expect_eq(r->info.max_influences, 2);
    cr_expect_eq(r->info.textures, 0);
}

Test(nlm, valid_static_with_embedded_png_is_clean)
{
    use_sample(NLMB_STATIC_TEXTURED);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_NLM);
    cr_expect_eq(r->info.textures, 1);
    cr_expect_eq(r->info.animations, 0);
    cr_expect_eq(r->info.max_influences, 0);
}

Test(nlm, valid_two_meshes_without_texture_is_clean)
{
    use_sample(NLMB_STATIC_TWO_MESHES);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.meshes, 2);
    cr_expect_eq(r->info.vertices, 7);
    cr_expect_eq(r->info.triangles, 3);
    cr_expect_eq(r->info.textures, 0);
}

Test(nlm, jpeg_texture_is_accepted)
{
    static const uint8_t jpeg[6] = {0xff, 0xd8, 0xff, 0xe0, 0, 0x10};
    cr_assert_eq(nlmb_set_texture(&m->meshes[0], jpeg, sizeof jpeg), 0);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.textures, 1);
}

Test(nlm, rotation_keys_are_x_y_z_w)
{
    /* a 90-degree turn about z stored x, y, z, w: unit either way, named so */
    m->channels[0].keys[NLMB_ROTATION][1].v[2] = 0.70710678f;
    m->channels[0].keys[NLMB_ROTATION][1].v[3] = 0.70710678f;
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, -1);
}

Test(nlm, other_formats_are_not_claimed)
{
    aemb_model *a = aemb_sample(AEMB_SKINNED_ANIMATED);
    cr_assert_not_null(a);
    r = validate_aem(a, NULL, 0);
    aemb_free(a);
    cr_expect_eq(r->format, MC_FORMAT_AEM);
}

/* ---- header ---- */

Test(nlm, spec_spelling_modl_is_bad_magic)
{
    memcpy(m->magic, "MODL", 4);
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_BAD_MAGIC, 1, 4);
    cr_expect_eq(r->format, MC_FORMAT_NLM);
    cr_expect(strstr(first_msg(r, MC_NLM_BAD_MAGIC), "'MODL'") != NULL);
}

Test(nlm, bad_magic_when_forced)
{
    memcpy(m->magic, "XXXX", 4);
    mc_options o;
    mc_options_init(&o);
    o.format = MC_FORMAT_NLM;
    r = validate_nlm(m, &o, 0);
    expect_only(r, MC_NLM_BAD_MAGIC, 1, 4);
}

Test(nlm, bad_magic_is_not_detected)
{
    memcpy(m->magic, "XXXX", 4);
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_FILE_UNRECOGNIZED, 1, 0);
}

Test(nlm, hashless_layout_is_one_issue)
{
    m->hashless = 1;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_LEGACY_HASHLESS, 1, 0);
    cr_expect_eq(r->format, MC_FORMAT_NLM);
    cr_expect_str_eq(r->layout, "v1-hashless");
}

Test(nlm, hashless_four_bytes)
{
    r = validate_buf("LDOM", 4, NULL);
    expect_only(r, MC_NLM_LEGACY_HASHLESS, 1, 0);
}

Test(nlm, version_3_stops_checks)
{
    m->version = 3;
    m->meshes[0].vertices[0].normal[2] = 5.0f; /* not reported: layout unknown */
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_UNSUPPORTED_VERSION, 1, 8);
}

Test(nlm, fnv_basis_hash_is_info)
{
    m->hash = 0x811C9DC5u;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_HASH_UNCOMPUTED, 1, 0);
    cr_expect(mc_result_valid(r));
    cr_expect_eq(r->issues[0].severity, MC_SEVERITY_INFO);
}

/* ---- structure ---- */

Test(nlm, header_shorter_than_16_bytes)
{
    static const uint8_t b[10] = {1, 2, 3, 4, 'L', 'D', 'O', 'M', 2, 0};
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_NLM_TRUNCATED, 1, 10);
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/header");
}

Test(nlm, truncated_inside_aabb)
{
    r = validate_nlm(m, NULL, nlmb_size(m) - 30);
    expect_only(r, MC_NLM_TRUNCATED, 1, 30);
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/aabb");
}

Test(nlm, truncated_by_one_byte_is_one_error)
{
    r = validate_nlm(m, NULL, 1);
    expect_only(r, MC_NLM_TRUNCATED, 1, nlmb_size(m) - 1);
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/animation/nodes/3");
}

Test(nlm, truncated_in_vertices_checks_nothing_else)
{
    use_sample(NLMB_STATIC_TWO_MESHES);
    m->meshes[1].vertices[0].normal[2] = 5.0f; /* inside the cut mesh: not reported */
    size_t size = (size_t)vtx(1, 1, 10);
    r = validate_nlm(m, NULL, nlmb_size(m) - size);
    expect_only(r, MC_NLM_TRUNCATED, 1, size);
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/meshes/1/vertices");
}

Test(nlm, hundred_bytes_claiming_2_pow_31_vertices)
{
    mcb_buf b = {0};
    nlmb_write_huge_vertex_count(&b);
    r = validate_buf(b.data, b.size, NULL);
    mcb_free(&b);
    expect_codes(r, MC_NLM_HASH_UNCOMPUTED, MC_NLM_TRUNCATED, -1);
    expect_issue(r, MC_NLM_TRUNCATED, 1, 100);
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/meshes/0/vertices");
}

Test(nlm, mesh_count_max_stops_at_once)
{
    uint8_t b[64] = {1, 0, 0, 0, 'L', 'D', 'O', 'M', 2};
    memset(b + 40, 0xff, 4);
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_NLM_TRUNCATED, 1, 64);
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/meshes");
}

Test(nlm, count_fields_max_do_not_overflow)
{
    mcb_buf b = {0};
    nlmb_write(m, &b);
    mcb_put_u32(&b, (size_t)nlmb_key_offset(m, 0, NLMB_POSITION, 0) - 12, 0xffffffffu);
    r = validate_buf(b.data, b.size, NULL);
    mcb_free(&b);
    expect_only(r, MC_NLM_TRUNCATED, 1, nlmb_size(m));
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/animation/channels/0/position_keys");
}

Test(nlm, animation_flag_without_section)
{
    m->write_animation = 0;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_TRUNCATED, 1, nlmb_animation_offset(m));
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/animation");
}

Test(nlm, trailing_byte_after_nodes)
{
    mcb_buf b = {0};
    nlmb_write(m, &b);
    mcb_u8(&b, 0);
    r = validate_buf(b.data, b.size, NULL);
    mcb_free(&b);
    expect_only(r, MC_NLM_TRAILING_BYTES, 1, nlmb_size(m));
}

Test(nlm, trailing_bytes_after_static_meshes)
{
    use_sample(NLMB_STATIC_TEXTURED);
    mcb_buf b = {0};
    nlmb_write(m, &b);
    mcb_u32(&b, 7);
    r = validate_buf(b.data, b.size, NULL);
    mcb_free(&b);
    expect_only(r, MC_NLM_TRAILING_BYTES, 1, nlmb_size(m));
}

/* ---- AABB ---- */

Test(nlm, aabb_not_finite)
{
    m->aabb_max[1] = NAN;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_AABB_NOT_FINITE, 1, 28);
}

Test(nlm, aabb_inverted)
{
    m->aabb_min[0] = 1.0f;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_AABB_INVERTED, 1, 16);
}

Test(nlm, static_source_bounds_warn_once_with_largest_excursion)
{
    use_sample(NLMB_STATIC_TWO_MESHES);
    m->aabb_max[0] = 0.25f;
    m->aabb_max[2] = 0.125f; /* the triangle sits at z 0.5: excursion 0.375 */
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_VERTEX_OUTSIDE_AABB, 1, vtx(0, 1, 0));
    cr_expect(mc_result_valid(r));
    const char *msg = first_msg(r, MC_NLM_VERTEX_OUTSIDE_AABB);
    cr_expect(strstr(msg, "5 of 7 vertices") != NULL, "%s", msg);
    cr_expect(strstr(msg, "largest excursion 0.375 on z (mesh 1 vertex 0)") != NULL, "%s", msg);
}

/* ---- vertices ---- */

Test(nlm, uv_not_finite)
{
    m->meshes[0].vertices[2].uv[1] = INFINITY;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_VERTEX_NOT_FINITE, 1, vtx(0, 2, V_UV));
    cr_expect_str_eq(first_path(r, MC_NLM_VERTEX_NOT_FINITE), "/meshes/0/vertices/2/uv");
}

Test(nlm, nan_position_is_not_judged_against_aabb)
{
    m->meshes[0].vertices[1].position[0] = NAN;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_VERTEX_NOT_FINITE, 1, vtx(0, 1, 0));
}

/* docs/formats/nlm.md: line-list meshes carry (0, 0, 0) normals: one warning
 * per mesh, at the first, never NOT_UNIT. */
Test(nlm, zero_normals_are_one_warning_per_mesh)
{
    use_sample(NLMB_STATIC_TWO_MESHES);
    for (uint32_t v = 0; v < m->meshes[0].vertex_count; v++)
        memset(m->meshes[0].vertices[v].normal, 0, sizeof m->meshes[0].vertices[v].normal);
    memset(m->meshes[1].vertices[2].normal, 0, sizeof m->meshes[1].vertices[2].normal);
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_NORMAL_ZERO, 2, vtx(0, 0, V_NORMAL));
    cr_expect_str_eq(first_path(r, MC_NLM_NORMAL_ZERO), "/meshes/0/vertices/0/normal");
    cr_expect(strstr(first_msg(r, MC_NLM_NORMAL_ZERO), "mesh 0: 4 of 4 vertices") != NULL, "%s",
              first_msg(r, MC_NLM_NORMAL_ZERO));
    const mc_issue *is = mc_result_find(r, MC_NLM_NORMAL_ZERO);
    cr_assert_eq(is->instance_count, 2);
    cr_expect_eq(is->instances[1].offset, vtx(1, 2, V_NORMAL));
    cr_expect(mc_result_valid(r));
}

Test(nlm, nearly_zero_normal_is_not_unit)
{
    memset(m->meshes[0].vertices[1].normal, 0, sizeof m->meshes[0].vertices[1].normal);
    m->meshes[0].vertices[1].normal[2] = -1e-3f;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_NORMAL_NOT_UNIT, 1, vtx(0, 1, V_NORMAL));
}

Test(nlm, bone_id_not_a_slot)
{
    m->meshes[0].vertices[1].bone[1] = 7;
    m->meshes[0].vertices[2].bone[1] = -2;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_BONE_ID_UNDEFINED, 2, vtx(0, 1, V_BONES + 4));
}

/* ---- indices and textures ---- */

Test(nlm, line_list_mesh_is_a_warning)
{
    static const uint32_t lines[8] = {0, 1, 1, 2, 2, 3, 3, 0};
    use_sample(NLMB_STATIC_TWO_MESHES);
    cr_assert_eq(nlmb_resize_mesh(&m->meshes[0], 4, 8), 0);
    memcpy(m->meshes[0].indices, lines, sizeof lines);
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_MESH_NOT_TRIANGLES, 1, nlmb_mesh_offset(m, 0) + 4);
    cr_expect(mc_result_valid(r));
    cr_expect_eq(r->info.triangles, 1);
}

/* issue 26: a line list whose count is a multiple of 3 is the same one
 * finding, not a degenerate-triangle warning per "triangle" */
Test(nlm, line_list_of_12_indices_is_one_finding)
{
    static const uint32_t lines[12] = {0, 1, 1, 2, 2, 3, 3, 0, 0, 2, 2, 1};
    use_sample(NLMB_STATIC_TWO_MESHES);
    cr_assert_eq(nlmb_resize_mesh(&m->meshes[0], 4, 12), 0);
    memcpy(m->meshes[0].indices, lines, sizeof lines);
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_MESH_NOT_TRIANGLES, 1, nlmb_mesh_offset(m, 0) + 4);
    cr_expect_str_eq(r->issues[0].instances[0].message,
                     "mesh 0: 12 indices read as triangles all repeat a vertex: a line list, not triangles "
                     "(triangles not checked)");
}

/* one proper triangle among them: triangles after all, each bad one reported */
Test(nlm, triangles_with_some_degenerate_stay_triangles)
{
    static const uint32_t tris[6] = {0, 1, 2, 2, 2, 3};
    use_sample(NLMB_STATIC_TWO_MESHES);
    cr_assert_eq(nlmb_resize_mesh(&m->meshes[0], 4, 6), 0);
    memcpy(m->meshes[0].indices, tris, sizeof tris);
    r = validate_nlm(m, NULL, 0);
    cr_assert_eq(r->issue_count, 1);
    cr_expect_eq(r->issues[0].code, MC_NLM_DEGENERATE_TRIANGLE);
    cr_expect_eq(r->issues[0].count, 1);
}

Test(nlm, texture_that_is_not_png_or_jpeg)
{
    use_sample(NLMB_STATIC_TEXTURED);
    cr_assert_eq(nlmb_set_texture(&m->meshes[0], "GIF89a\1\0", 8), 0);
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_TEXTURE_SIGNATURE, 1, nlmb_texture_offset(m, 0) + 4);
    cr_expect(strstr(first_msg(r, MC_NLM_TEXTURE_SIGNATURE), "47 49 46 38 39 61 01 00") != NULL);
}

Test(nlm, texture_size_past_end)
{
    use_sample(NLMB_STATIC_TEXTURED);
    mcb_buf b = {0};
    nlmb_write(m, &b);
    mcb_put_u32(&b, (size_t)nlmb_texture_offset(m, 0), 34);
    r = validate_buf(b.data, b.size, NULL);
    mcb_free(&b);
    expect_only(r, MC_NLM_TRUNCATED, 1, nlmb_size(m));
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), "/meshes/0/texture");
}

/* ---- animation metadata and bone info ---- */

Test(nlm, bone_info_node_id_twice)
{
    m->bone_infos[2].node_id = 2;
    r = validate_nlm(m, NULL, 0);
    /* node 3's channel now has no bone info of its own */
    expect_codes(r, MC_NLM_BONE_INFO_DUPLICATE_ID, MC_NLM_CHANNEL_BONE_MISMATCH, -1);
    expect_issue(r, MC_NLM_BONE_INFO_DUPLICATE_ID, 1, nlmb_bone_info_offset(m, 2));
    expect_issue(r, MC_NLM_CHANNEL_BONE_MISMATCH, 1, nlmb_channel_offset(m, 2) + 4);
}

/* ---- bone map and keys ---- */

Test(nlm, channel_without_rotation_keys)
{
    cr_assert_eq(nlmb_resize_keys(&m->channels[1], NLMB_ROTATION, 0), 0);
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_CHANNEL_NO_KEYS, 1, nlmb_channel_offset(m, 1) + 12);
    cr_expect_eq(r->info.keyframes, 16);
}

Test(nlm, rotation_key_not_unit)
{
    m->channels[0].keys[NLMB_ROTATION][0].v[3] = 0.5f;
    r = validate_nlm(m, NULL, 0);
    expect_only(r, MC_NLM_KEY_ROTATION_NOT_UNIT, 1, nlmb_key_offset(m, 0, NLMB_ROTATION, 0) + 4);
    cr_expect(strstr(first_msg(r, MC_NLM_KEY_ROTATION_NOT_UNIT), "w 0.5") != NULL);
}

/* ---- node hierarchy ---- */

Test(nlm, node_id_twice)
{
    m->nodes[3].id = 2;
    r = validate_nlm(m, NULL, 0);
    /* no node has ID 3 any more: node 3's bone info and channel lose it */
    expect_codes(r, MC_NLM_NODE_DUPLICATE_ID, MC_NLM_NODE_ID_NOT_INDEX, MC_NLM_BONE_INFO_NODE_MISSING,
                 MC_NLM_CHANNEL_NODE_MISSING, -1);
    expect_issue(r, MC_NLM_NODE_DUPLICATE_ID, 1, nlmb_node_offset(m, 3));
    expect_issue(r, MC_NLM_NODE_ID_NOT_INDEX, 1, nlmb_node_offset(m, 3));
}

Test(nlm, child_links_back_to_its_ancestor)
{
    static const int32_t children[1] = {1};
    cr_assert_eq(nlmb_set_children(&m->nodes[3], children, 1), 0);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, MC_NLM_NODE_MULTIPLE_PARENTS, MC_NLM_NODE_CYCLE, -1);
    expect_issue(r, MC_NLM_NODE_CYCLE, 1, nlmb_child_offset(m, 3, 0));
    expect_issue(r, MC_NLM_NODE_MULTIPLE_PARENTS, 1, nlmb_child_offset(m, 3, 0));
}

Test(nlm, node_is_its_own_child)
{
    static const int32_t children[1] = {2};
    cr_assert_eq(nlmb_set_children(&m->nodes[2], children, 1), 0);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, MC_NLM_NODE_MULTIPLE_PARENTS, MC_NLM_NODE_CYCLE, -1);
    expect_issue(r, MC_NLM_NODE_CYCLE, 1, nlmb_child_offset(m, 2, 0));
}

Test(nlm, root_listed_as_a_child)
{
    static const int32_t children[1] = {0};
    cr_assert_eq(nlmb_set_children(&m->nodes[2], children, 1), 0);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, MC_NLM_NODE_ROOT_HAS_PARENT, MC_NLM_NODE_CYCLE, -1);
    expect_issue(r, MC_NLM_NODE_ROOT_HAS_PARENT, 1, nlmb_child_offset(m, 2, 0));
    expect_issue(r, MC_NLM_NODE_CYCLE, 1, nlmb_child_offset(m, 2, 0));
}

Test(nlm, detached_cycle_is_unreachable_and_a_cycle)
{
    static const int32_t none[1] = {0}, to3[1] = {3}, to2[1] = {2};
    cr_assert_eq(nlmb_set_children(&m->nodes[1], none, 0), 0);
    cr_assert_eq(nlmb_set_children(&m->nodes[2], to3, 1), 0);
    cr_assert_eq(nlmb_set_children(&m->nodes[3], to2, 1), 0);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, MC_NLM_NODE_UNREACHABLE, MC_NLM_NODE_CYCLE, -1);
    expect_issue(r, MC_NLM_NODE_UNREACHABLE, 2, nlmb_node_offset(m, 2));
    expect_issue(r, MC_NLM_NODE_CYCLE, 1, nlmb_child_offset(m, 3, 0));
}

/* ---- resources ---- */

/* Node k's only child is k + 1; the last node's is `last`. */
static void chain(uint32_t n, int32_t last)
{
    cr_assert_eq(nlmb_resize_nodes(m, n), 0);
    for (uint32_t k = 0; k < n; k++) {
        int32_t child = k + 1 < n ? (int32_t)k + 1 : last;
        cr_assert_eq(nlmb_set_children(&m->nodes[k], &child, 1), 0);
    }
}

Test(nlm, cycle_of_1000_nodes_is_caught)
{
    chain(1000, 0);
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, MC_NLM_NODE_ROOT_HAS_PARENT, MC_NLM_NODE_CYCLE, -1);
    expect_issue(r, MC_NLM_NODE_CYCLE, 1, nlmb_child_offset(m, 999, 0));
    expect_issue(r, MC_NLM_NODE_ROOT_HAS_PARENT, 1, nlmb_child_offset(m, 999, 0));
    cr_expect_eq(r->info.nodes, 1000);
}

Test(nlm, chain_of_200000_nodes_needs_no_recursion)
{
    /* deeper than any C stack would allow a recursive walk under ASan */
    chain(200000, -1);
    m->nodes[199999].child_count = 0;
    r = validate_nlm(m, NULL, 0);
    expect_codes(r, -1);
}

/* ---- coverage: truncation inside each counted part ---- */

/* Writes the model, keeps its first `size` bytes: one NLM_TRUNCATED at the
 * file's end, naming the part that does not fit. */
static void expect_cut(uint64_t size, const char *path)
{
    cr_assert_lt(size, nlmb_size(m));
    mc_result_free(r);
    r = validate_nlm(m, NULL, (size_t)(nlmb_size(m) - size));
    expect_only(r, MC_NLM_TRUNCATED, 1, size);
    cr_expect_str_eq(first_path(r, MC_NLM_TRUNCATED), path, "cut at %llu", (unsigned long long)size);
}

Test(nlm, truncated_in_each_counted_part)
{
    cr_assert_geq(m->channel_count, 2);
    expect_cut(nlmb_index_offset(m, 0, 1) + 2, "/meshes/0/indices");
    expect_cut(nlmb_bone_info_offset(m, 1) + 10, "/animation/bone_info");
    expect_cut(nlmb_channel_offset(m, 0) + 10, "/animation/channels");
    expect_cut(nlmb_channel_offset(m, 1) + 10, "/animation/channels/1");
    expect_cut(nlmb_node_offset(m, 0) + 10, "/animation/nodes");
}

Test(nlm, truncated_in_the_children_of_the_last_node)
{
    static const int32_t kids[20] = {0};
    uint32_t last = m->node_count - 1;
    cr_assert_eq(nlmb_set_children(&m->nodes[last], kids, 20), 0);
    expect_cut(nlmb_child_offset(m, last, 10) + 2, "/animation/nodes/3/children");
    cr_expect(strstr(first_msg(r, MC_NLM_TRUNCATED), "node 3's 20 child IDs") != NULL);
}

Test(nlm, truncated_in_the_header_of_the_second_mesh)
{
    use_sample(NLMB_STATIC_TWO_MESHES);
    expect_cut(nlmb_mesh_offset(m, 1) + 4, "/meshes/1");
}
