/*
 * E3D checks beyond the case table (conformance/generator/e3d_cases.c,
 * checked by test_cases.c): valid models built by e3d_builder stay clean;
 * each other test breaks one rule and asserts the exact code, count and
 * first offset (and paths, messages, and inside LZMA data the payload
 * offset, where they matter).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>

#include "e3d_builder.h"
#include "support.h"

static e3db w;
static e3db_cube_map m;
static mc_result *r;

static void setup(void)
{
    memset(&w, 0, sizeof w);
    memset(&m, 0, sizeof m);
    r = NULL;
}

static void teardown(void)
{
    mc_result_free(r);
    e3db_free(&w);
}

TestSuite(e3d, .init = setup, .fini = teardown);

static mc_result *run(void)
{
    cr_assert(!w.b.oom);
    return validate_buf(w.b.data, w.b.size, NULL);
}

static const mc_instance *first(mc_code code)
{
    const mc_issue *is = mc_result_find(r, code);
    cr_assert_not_null(is, "%s did not fire", mc_code_get(code)->name);
    cr_assert_gt(is->instance_count, 0);
    return &is->instances[0];
}

static void expect_path(mc_code code, const char *path)
{
    cr_expect_str_eq(first(code)->path, path);
}

/* ---- valid files ---- */

Test(e3d, cube_uncompressed_is_clean)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_UVS | E3DB_BBOX | E3DB_MATERIAL | E3DB_TEXTURE, &m);
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_E3D);
    cr_expect_str_eq(r->layout, "e3d1");
    cr_expect_eq(r->info.vertices, 24);
    cr_expect_eq(r->info.triangles, 12);
    cr_expect_eq(r->info.meshes, 1);
    cr_expect_eq(r->info.materials, 1);
    cr_expect_eq(r->info.textures, 1);
    cr_expect_eq(r->info.nodes, 1);
    cr_expect_eq(r->info.uv_layers, 1);
    cr_expect_eq(r->info.compressed_blocks, 0);
}

Test(e3d, cube_one_lzma_block_at_top_is_clean)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_UVS | E3DB_MATERIAL | E3DB_LZMA_TOP, NULL);
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.compressed_blocks, 1);
    cr_expect_eq(r->info.triangles, 12);
    cr_expect_gt(r->info.decompressed_bytes, 400);
}

Test(e3d, cube_lzma_nested_two_deep_is_clean)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_LZMA_MESH | E3DB_LZMA_TOP, NULL);
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.compressed_blocks, 2);
    cr_expect_eq(r->info.vertices, 24);
}

Test(e3d, skinned_cube_is_clean)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_SKIN, &m);
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.bones, 2);
    cr_expect_eq(r->info.max_influences, 2);
    cr_expect_eq(r->info.nodes, 2);
}

Test(e3d, textured_cube_is_clean)
{
    e3db_cube(&w, E3DB_UVS | E3DB_MATERIAL | E3DB_TEXTURE | E3DB_LZMA_TOP, NULL);
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.textures, 1);
}

Test(e3d, animated_cube_is_clean)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_ANIMATION, &m);
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.animations, 1);
    cr_expect_eq(r->info.keyframes, 2);
}

Test(e3d, everything_nested_lzma_is_clean)
{
    e3db_cube(&w, 0x3FF & ~E3DB_TRACK_CODE_LAYOUT, NULL);
    r = run();
    expect_codes(r, -1);
}

/* ---- helpers ---- */

static void put8(size_t off, uint8_t v)
{
    cr_assert_lt(off, w.b.size);
    w.b.data[off] = v;
}

static void put16(size_t off, uint16_t v)
{
    put8(off, (uint8_t)v);
    put8(off + 1, (uint8_t)(v >> 8));
}

static void put32(size_t off, uint32_t v)
{
    cr_assert_leq(off + 4, w.b.size);
    mcb_put_u32(&w.b, off, v);
}

static void putf(size_t off, float f)
{
    cr_assert_leq(off + 4, w.b.size);
    mcb_put_f32(&w.b, off, f);
}

static mc_result *run_opt(const mc_options *o)
{
    cr_assert(!w.b.oom);
    return validate_buf(w.b.data, w.b.size, o);
}

static mc_result *run_forced(void)
{
    mc_options o;
    mc_options_init(&o);
    o.format = MC_FORMAT_E3D;
    return run_opt(&o);
}

static void wrap_top(void)
{
    cr_assert_neq(e3db_lzma_wrap(&w, 12, &e3db_lzma_reference), E3DB_FAIL);
}

/* Puts the children of the cube's mesh (flags 0: bytes [24, 446)) in an
 * LZMA block, then everything after the version block in another. */
static void wrap_mesh_then_top(void)
{
    cr_assert_eq(m.mesh, 18);
    size_t tail_at = m.nodes, tail_n = w.b.size - tail_at;
    uint8_t tail[64];
    cr_assert_leq(tail_n, sizeof tail);
    memcpy(tail, w.b.data + tail_at, tail_n);
    w.b.size = tail_at;
    cr_assert_neq(e3db_lzma_wrap(&w, 24, &e3db_lzma_reference), E3DB_FAIL);
    put32(14, (uint32_t)(w.b.size - 12));
    put32(20, (uint32_t)(w.b.size - 18));
    mcb_bytes(&w.b, tail, tail_n);
    wrap_top();
}

/* e3db_tri_begin: the mesh stays open from 102. */
static void tri_begin(void)
{
    e3db_tri_begin(&w);
    cr_assert_eq(w.b.size, 102);
}

static void tri_end(void)
{
    e3db_close(&w);
}

/* e3db_attrs_begin: count at 40, first child at 44; left open. */
static void attrs_begin(uint32_t count)
{
    e3db_attrs_begin(&w, count);
}

static void close_all(void)
{
    e3db_close(&w);
}

/* the interleaved data of the cube's vertex i */
static size_t vtx(size_t i, size_t field)
{
    return e3db_vertex_offset(&m, i, field);
}

/* ---- detection ---- */

Test(e3d, detected_without_forcing_and_aem_not_claimed)
{
    e3db_cube(&w, 0, &m);
    r = run();
    cr_expect_eq(r->format, MC_FORMAT_E3D);
    mc_result_free(r);
    aemb_model *a = aemb_sample(AEMB_STATIC);
    r = validate_aem(a, NULL, 0);
    aemb_free(a);
    cr_expect_eq(r->format, MC_FORMAT_AEM);
}

Test(e3d, wrong_signature_is_not_detected)
{
    e3db_cube(&w, 0, &m);
    put8(9, 'X');
    r = run();
    expect_only(r, MC_FILE_UNRECOGNIZED, 1, 0);
}

/* ---- the spec's cube files (e3d.adoc, "A simple cube example") ---- */

/* Vertex data of the byte table: BF000000 = -0.5, 3F000000 = 0.5. */
static void table_vertex(size_t i, uint32_t *x, uint32_t *y, uint32_t *z)
{
    static const uint32_t corners[8][3] = {
        {0xBF000000, 0xBF000000, 0xBF000000}, {0x3F000000, 0xBF000000, 0xBF000000},
        {0x3F000000, 0x3F000000, 0xBF000000}, {0xBF000000, 0x3F000000, 0xBF000000},
        {0xBF000000, 0xBF000000, 0x3F000000}, {0x3F000000, 0xBF000000, 0x3F000000},
        {0x3F000000, 0x3F000000, 0x3F000000}, {0xBF000000, 0x3F000000, 0x3F000000}};
    *x = corners[i % 8][0];
    *y = corners[i % 8][1];
    *z = corners[i % 8][2];
}

/* cube1.e3d (468 bytes) and cube2.e3d (568 bytes, normals added), block by
 * block from the table, with the lengths the table gives. docs/formats/e3d.md: the
 * table's own slips (vertex data [58..402], facesMaterials count "0",
 * the one-level arrows) are in the text only, the lengths are right. */
static void spec_cube(bool normals)
{
    static const uint8_t faces[36] = {0x11, 0x15, 0x14, 0x11, 0x14, 0x10, 0x00, 0x03, 0x02,
                                      0x00, 0x02, 0x01, 0x16, 0x12, 0x13, 0x16, 0x13, 0x17,
                                      0x05, 0x06, 0x07, 0x05, 0x07, 0x04, 0x09, 0x0A, 0x0E,
                                      0x09, 0x0E, 0x0D, 0x0C, 0x0F, 0x0B, 0x0C, 0x0B, 0x08};
    uint32_t extra = normals ? 100 : 0;
    mcb_buf *b = &w.b;
    mcb_u16(b, 0x0001), mcb_u32(b, 0x0C), mcb_bytes(b, "E3DF", 4), mcb_u16(b, 0x0100);
    mcb_u16(b, 0x1000), mcb_u32(b, 0x1B2 + extra);
    mcb_u16(b, 0x1010), mcb_u32(b, 0x1AC + extra);
    mcb_u16(b, 0x1020), mcb_u32(b, 0x0A), mcb_u32(b, 1);
    mcb_u16(b, 0x2000), mcb_u32(b, 0x138 + extra), mcb_u32(b, 24);
    mcb_u16(b, 0x2800), mcb_u32(b, 0x12E + extra);
    mcb_u16(b, 0x2010), mcb_u16(b, 0);
    if (normals) mcb_u16(b, 0x2020), mcb_u16(b, 12);
    mcb_u16(b, 0), mcb_u16(b, normals ? 16 : 12);
    for (size_t i = 0; i < 24; i++) {
        uint32_t x, y, z;
        table_vertex(i, &x, &y, &z);
        mcb_u32(b, x), mcb_u32(b, y), mcb_u32(b, z);
        if (normals) mcb_u32(b, e3db_pack_normal(e3db_cube_normals[i]));
    }
    mcb_u16(b, 0x1030), mcb_u32(b, 0x52), mcb_u32(b, 12);
    for (size_t i = 0; i < 36; i++) mcb_u16(b, faces[i]);
    mcb_u16(b, 0x1040), mcb_u32(b, 0x12), mcb_u32(b, 0), mcb_u32(b, 12), mcb_u32(b, 0);
    mcb_u16(b, 0x3000), mcb_u32(b, 0x16);
    mcb_u16(b, 0x3010), mcb_u32(b, 0x10);
    mcb_u16(b, 0x1020), mcb_u32(b, 0x0A), mcb_u32(b, 1);
}

Test(e3d, spec_cube1_validates_clean)
{
    spec_cube(false);
    cr_assert_eq(w.b.size, 468);
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.vertices, 24);
    cr_expect_eq(r->info.triangles, 12);
}

Test(e3d, spec_cube2_validates_clean)
{
    spec_cube(true);
    cr_assert_eq(w.b.size, 568);
    r = run();
    expect_codes(r, -1);
}

Test(e3d, spec_cube3_lzma_444_validates_clean)
{
    spec_cube(true);
    wrap_top();
    cr_expect_eq(w.b.data[22], 0xDC, "props byte (4*5+4)*9+4");
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.compressed_blocks, 1);
    cr_expect_eq(r->info.decompressed_bytes, 556);
}

Test(e3d, other_lzma_parameter_sets_are_clean)
{
    static const e3db_lzma sets[] = {{3, 0, 2, 1u << 16, false}, {0, 0, 0, 1u << 12, false},
                                     {8, 4, 4, 1u << 20, false}, {4, 0, 2, 1u << 26, false}};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        e3db_free(&w);
        e3db_cube(&w, E3DB_NORMALS | E3DB_UVS, &m);
        cr_assert_neq(e3db_lzma_wrap(&w, 12, &sets[i]), E3DB_FAIL);
        mc_result_free(r);
        r = run();
        expect_codes(r, -1);
    }
}

Test(e3d, official_sample_habits_are_warnings_only)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_REPEAT_FACES_MATERIALS | E3DB_EMPTY_TEXTURES, &m);
    put32(vtx(4, 12), 0);
    r = run();
    expect_codes(r, MC_E3D_FACES_MATERIALS_OVERLAP, MC_E3D_NORMAL_ZERO, -1);
    expect_issue(r, MC_E3D_NORMAL_ZERO, 1, vtx(4, 12));
    expect_issue(r, MC_E3D_FACES_MATERIALS_OVERLAP, 1, m.faces_materials + 18 + 6);
    cr_expect(mc_result_valid(r));
}

/* ---- version block ---- */

Test(e3d, version_missing)
{
    e3db_begin(&w, 0x1000);
    e3db_end(&w);
    r = run_forced();
    expect_only(r, MC_E3D_VERSION_MISSING, 1, 0);
}

Test(e3d, version_missing_in_a_tiny_file)
{
    mcb_bytes(&w.b, "E3D", 3);
    r = run_forced();
    expect_only(r, MC_E3D_VERSION_MISSING, 1, 0);
}

Test(e3d, version_block_size)
{
    static const uint8_t v[8] = {'E', '3', 'D', 'F', 0, 1, 0, 0};
    e3db_leaf(&w, 0x0001, v, sizeof v);
    r = run_forced();
    expect_only(r, MC_E3D_VERSION_SIZE, 1, 0);
}

Test(e3d, bad_magic_when_forced)
{
    e3db_cube(&w, 0, &m);
    put8(9, 'X');
    r = run_forced();
    expect_only(r, MC_E3D_BAD_MAGIC, 1, 6);
    expect_path(MC_E3D_BAD_MAGIC, "/version");
}

Test(e3d, version_2_0_is_reported)
{
    e3db_cube(&w, 0, &m);
    put16(10, 0x0200);
    r = run();
    expect_only(r, MC_E3D_VERSION_UNKNOWN, 1, 10);
}

/* ---- framing ---- */

/* also: FILE_NO_CONTENT stays silent beside an error (nothing parsed) */
Test(e3d, block_length_below_six)
{
    e3db_version(&w);
    e3db_raw_header(&w, 0x1000, 5);
    mcb_zeros(&w.b, 10);
    r = run();
    expect_only(r, MC_E3D_BLOCK_LENGTH_SMALL, 1, 14);
    expect_path(MC_E3D_BLOCK_LENGTH_SMALL, "/meshes");
}

Test(e3d, block_length_zero_inside_a_mesh)
{
    e3db_cube(&w, 0, &m);
    put32(m.faces + 2, 0);
    r = run();
    expect_only(r, MC_E3D_BLOCK_LENGTH_SMALL, 1, m.faces + 2);
    expect_path(MC_E3D_BLOCK_LENGTH_SMALL, "/meshes/mesh/0/triFaces16");
}

Test(e3d, child_overruns_its_parent)
{
    e3db_cube(&w, 0, &m);
    put32(m.faces_materials + 2, 19);
    r = run();
    expect_only(r, MC_E3D_BLOCK_OVERRUN, 1, m.faces_materials);
    expect_path(MC_E3D_BLOCK_OVERRUN, "/meshes/mesh/0/facesMaterials");
}

Test(e3d, gap_at_the_end_of_a_parent)
{
    e3db_version(&w);
    e3db_begin(&w, 0x1000);
    e3db_begin(&w, 0x1010);
    e3db_u32(&w, 0x1020, 1);
    mcb_zeros(&w.b, 3);
    close_all();
    r = run();
    expect_only(r, MC_E3D_BLOCK_GAP, 1, 34);
    expect_path(MC_E3D_BLOCK_GAP, "/meshes/mesh/0");
}

Test(e3d, file_truncated)
{
    e3db_cube(&w, 0, &m);
    w.b.size--;
    r = run();
    expect_only(r, MC_E3D_FILE_TRUNCATED, 1, m.nodes);
}

Test(e3d, unknown_block_type)
{
    e3db_cube(&w, 0, &m);
    e3db_u32(&w, 0x7777, 0);
    r = run();
    expect_only(r, MC_E3D_BLOCK_UNKNOWN, 1, 468);
    cr_expect(mc_result_valid(r));
    cr_expect(strstr(first(MC_E3D_BLOCK_UNKNOWN)->message, "0x7777") != NULL);
}

Test(e3d, custom_attribute_is_accepted)
{
    attrs_begin(0);
    e3db_leaf(&w, 0x4001, NULL, 0);
    close_all();
    r = run();
    /* attributes alone: no vertex, bone or animation */
    expect_codes(r, MC_FILE_NO_CONTENT, -1);
}

Test(e3d, misplaced_block)
{
    e3db_cube(&w, 0, &m);
    e3db_u32(&w, 0x1020, 1);
    r = run();
    expect_only(r, MC_E3D_BLOCK_MISPLACED, 1, 468);
    expect_path(MC_E3D_BLOCK_MISPLACED, "/meshID");
}

Test(e3d, morphs_from_the_reference_code)
{
    tri_begin();
    e3db_begin(&w, 0x1070);
    mcb_u32(&w.b, 1);
    e3db_begin(&w, 0x1071);
    e3db_u32(&w, 0x1072, 1);
    e3db_string(&w, 0x1073, "smile");
    close_all();
    r = run();
    expect_only(r, MC_E3D_MORPH_BLOCK, 1, 102);
    cr_expect_eq(r->info.blend_shapes, 1);
}

Test(e3d, reserved_camera_node)
{
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    e3db_begin(&w, 0x3011);
    close_all();
    r = run();
    expect_codes(r, MC_FILE_NO_CONTENT, MC_E3D_BLOCK_RESERVED, -1); /* a camera alone */
    expect_issue(r, MC_E3D_BLOCK_RESERVED, 1, 18);
}

Test(e3d, skin_before_attributes)
{
    e3db_version(&w);
    e3db_begin(&w, 0x1000);
    e3db_begin(&w, 0x1010);
    e3db_begin(&w, 0x1050);
    close_all();
    r = run();
    expect_only(r, MC_E3D_MESH_BLOCK_ORDER, 1, 24);
}

/* ---- LZMA ---- */

Test(e3d, issue_inside_lzma_names_block_and_payload)
{
    e3db_cube(&w, 0, &m);
    putf(vtx(5, 0), NAN);
    wrap_top();
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, 12);
    const mc_instance *in = first(MC_E3D_NOT_FINITE);
    cr_expect(in->has_payload_offset);
    cr_expect_eq(in->payload_offset, vtx(5, 0) - 12);
    cr_expect_str_eq(in->path, "/lzma@0xc/meshes/mesh/0/attributes/interleaved/5");
}

Test(e3d, issue_inside_nested_lzma)
{
    e3db_cube(&w, 0, &m);
    putf(vtx(5, 0), NAN);
    wrap_mesh_then_top();
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, 12);
    const mc_instance *in = first(MC_E3D_NOT_FINITE);
    cr_expect_eq(in->payload_offset, vtx(5, 0) - 24);
    cr_expect_str_eq(in->path, "/lzma@0xc/meshes/mesh/0/lzma@0xc/attributes/interleaved/5");
}

Test(e3d, lzma_size_limit_option)
{
    e3db_cube(&w, 0, &m);
    wrap_top();
    mc_options o;
    mc_options_init(&o);
    o.max_decompressed_bytes = 100;
    r = run_opt(&o);
    expect_only(r, MC_E3D_LZMA_SIZE_LIMIT, 1, 18);
}

/* ---- resource limits ---- */

static double seconds_since(clock_t t0)
{
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

Test(e3d, file_of_200_bytes_declaring_4_gib)
{
    e3db_version(&w);
    e3db_raw_header(&w, 0x0010, 188);
    mcb_u32(&w.b, UINT32_MAX);
    static const uint8_t props[5] = {0x5D, 0, 0, 1, 0};
    mcb_bytes(&w.b, props, 5);
    for (int i = 0; i < 173; i++) mcb_u8(&w.b, (uint8_t)(i * 37));
    cr_assert_eq(w.b.size, 200);
    clock_t t0 = clock();
    r = run();
    expect_only(r, MC_E3D_LZMA_SIZE_LIMIT, 1, 18);
    cr_expect_lt(seconds_since(t0), 2.0);
}

Test(e3d, declared_4_gib_without_limit_decodes_only_what_is_there)
{
    static const uint8_t zeros[100] = {0};
    e3db_version(&w);
    size_t at = e3db_begin(&w, 0x0010);
    mcb_u32(&w.b, UINT32_MAX);
    cr_assert_eq(e3db_lzma_encode(zeros, sizeof zeros, &e3db_lzma_reference, &w.b), 0);
    e3db_end(&w);
    mc_options o;
    mc_options_init(&o);
    o.max_decompressed_bytes = UINT64_MAX;
    clock_t t0 = clock();
    r = run_opt(&o);
    expect_only(r, MC_E3D_LZMA_SIZE_SHORT, 1, at + 6);
    cr_expect_lt(seconds_since(t0), 2.0);
}

Test(e3d, nesting_1000_deep)
{
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    for (int i = 0; i < 1000; i++) e3db_begin(&w, 0x3010);
    close_all();
    clock_t t0 = clock();
    r = run();
    expect_only(r, MC_E3D_DEPTH_LIMIT, 1, 12 + 6 + 6 * 63);
    cr_expect_lt(seconds_since(t0), 2.0);
}

Test(e3d, lzma_nested_100_deep)
{
    e3db_version(&w);
    e3db_begin(&w, 0x1000);
    e3db_end(&w);
    for (int i = 0; i < 100; i++) wrap_top();
    clock_t t0 = clock();
    r = run();
    expect_only(r, MC_E3D_LZMA_DEPTH_LIMIT, 1, 12);
    const mc_instance *in = first(MC_E3D_LZMA_DEPTH_LIMIT);
    cr_expect_eq(in->payload_offset, 0);
    cr_expect_str_eq(in->path, "/lzma@0xc/lzma@0x0/lzma@0x0/lzma@0x0/lzma@0x0/lzma@0x0/lzma@0x0/lzma@0x0/lzma@0x0");
    cr_expect_lt(seconds_since(t0), 2.0);
}

/* ---- layouts ---- */

Test(e3d, string_length_past_its_block)
{
    e3db_version(&w);
    e3db_begin(&w, 0x8000);
    e3db_begin(&w, 0x8010);
    e3db_u32(&w, 0x8011, 1);
    e3db_begin(&w, 0x8012);
    mcb_u16(&w.b, 9);
    mcb_bytes(&w.b, "paint", 5);
    close_all();
    r = run();
    expect_only(r, MC_E3D_STRING_SIZE, 1, 40);
}

/* ---- attributes ---- */

Test(e3d, standalone_array_wrong_size)
{
    static const float v[6] = {0};
    attrs_begin(3);
    size_t at = e3db_floats(&w, 0x2010, v, 6);
    close_all();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 1, at);
}

Test(e3d, position_not_finite)
{
    e3db_cube(&w, 0, &m);
    putf(vtx(5, 4), INFINITY);
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, vtx(5, 0));
    expect_path(MC_E3D_NOT_FINITE, "/meshes/mesh/0/attributes/interleaved/5");
}

Test(e3d, normal_spec_mapping_is_accepted)
{
    e3db_cube(&w, E3DB_NORMALS, &m);
    put32(vtx(0, 12), (uint32_t)(1024 - 511) << 20); /* z = -511: the spec's -1 */
    r = run();
    expect_codes(r, -1);
}

Test(e3d, normal_zero_is_a_warning)
{
    e3db_cube(&w, E3DB_NORMALS, &m);
    put32(vtx(7, 12), 0);
    put32(vtx(9, 12), 0);
    r = run();
    expect_only(r, MC_E3D_NORMAL_ZERO, 1, vtx(7, 12)); /* once per mesh */
    const mc_issue *is = mc_result_find(r, MC_E3D_NORMAL_ZERO);
    cr_expect(strstr(is->instances[0].message, "2 of 24 vertices") != NULL, "%s", is->instances[0].message);
    cr_expect(strstr(is->instances[0].path, "/7") != NULL, "%s", is->instances[0].path);
    cr_expect(mc_result_valid(r));
}

Test(e3d, uv_not_finite)
{
    e3db_cube(&w, E3DB_UVS, &m);
    putf(vtx(2, 16), NAN);
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, vtx(2, 12));
}

/* ---- bone weights ---- */

Test(e3d, bone_id_past_the_skin)
{
    e3db_cube(&w, E3DB_SKIN, &m);
    put8(vtx(7, m.weights_at), 3);
    r = run();
    expect_only(r, MC_E3D_BONE_ID_RANGE, 1, vtx(7, m.weights_at));
    expect_path(MC_E3D_BONE_ID_RANGE, "/meshes/mesh/0/attributes/interleaved/7");
}

/* ---- faces ---- */

Test(e3d, index_out_of_range)
{
    e3db_cube(&w, 0, &m);
    put16(m.faces + 10, 24);
    r = run();
    expect_only(r, MC_E3D_INDEX_RANGE, 1, m.faces + 10);
    expect_path(MC_E3D_INDEX_RANGE, "/meshes/mesh/0/triFaces16/0/0");
}

Test(e3d, index_out_of_range_before_attributes)
{
    static const float v[9] = {0};
    e3db_version(&w);
    e3db_begin(&w, 0x1000);
    e3db_begin(&w, 0x1010);
    size_t at = e3db_begin(&w, 0x1031);
    mcb_u32(&w.b, 1), mcb_u32(&w.b, 0), mcb_u32(&w.b, 5), mcb_u32(&w.b, 1);
    e3db_end(&w);
    e3db_begin(&w, 0x2000);
    mcb_u32(&w.b, 3);
    e3db_floats(&w, 0x2010, v, 9);
    close_all();
    r = run();
    expect_only(r, MC_E3D_INDEX_RANGE, 1, at + 14);
}

/* ---- bounding box ---- */

/* ---- IDs and references ---- */

Test(e3d, mesh_reference_unresolved)
{
    e3db_cube(&w, 0, &m);
    put32(m.node_mesh_id + 6, 2);
    r = run();
    expect_only(r, MC_E3D_MESH_REF_UNRESOLVED, 1, m.node_mesh_id + 6);
    expect_path(MC_E3D_MESH_REF_UNRESOLVED, "/nodes/meshNode/0/meshID");
}

Test(e3d, track_node_unresolved)
{
    e3db_cube(&w, E3DB_ANIMATION, &m);
    size_t node_id = m.track + 6 + 13 + 30 + 38;
    cr_assert_eq(w.b.data[node_id], 0x20);
    put32(node_id + 6, 9);
    r = run();
    expect_only(r, MC_E3D_NODE_REF_UNRESOLVED, 1, node_id + 6);
}

Test(e3d, skin_bone_names_an_unknown_node)
{
    e3db_cube(&w, E3DB_SKIN, &m);
    size_t bone1 = m.skin_bones + 6 + 1 + 2 + 4 + 64;
    put8(bone1 + 3, 'a'); /* "tip" -> "tap" */
    r = run();
    expect_only(r, MC_E3D_NODE_REF_UNRESOLVED, 1, bone1);
    expect_path(MC_E3D_NODE_REF_UNRESOLVED, "/meshes/mesh/0/skin/0/skinBones/1");
}

Test(e3d, map_without_texture)
{
    e3db_version(&w);
    e3db_begin(&w, 0x8000);
    e3db_begin(&w, 0x8010);
    e3db_begin(&w, 0x8200);
    close_all();
    r = run();
    expect_only(r, MC_E3D_MAP_NO_TEXTURE, 1, 24);
    expect_path(MC_E3D_MAP_NO_TEXTURE, "/materials/material/0/phongDiffuseMap");
}

/* ---- spec versus reference code layouts ---- */

/* ---- skins and textures ---- */

Test(e3d, skin_weight_set_out_of_range)
{
    e3db_cube(&w, E3DB_SKIN, &m);
    size_t set = m.skin_bones + 146;
    cr_assert_eq(w.b.data[set], 0x54);
    put8(set + 6, 9);
    r = run();
    expect_only(r, MC_E3D_SKIN_WEIGHT_SET_RANGE, 1, set + 6);
}

Test(e3d, png_texture_without_signature)
{
    e3db_cube(&w, E3DB_TEXTURE, &m);
    size_t png = m.texture + 6 + 10 + 16;
    cr_assert_eq(w.b.data[png + 1], 0x91);
    put8(png + 6, 0);
    r = run();
    expect_only(r, MC_E3D_TEXTURE_SIGNATURE, 1, png + 6);
}

Test(e3d, texture_name_climbs_out)
{
    e3db_version(&w);
    e3db_begin(&w, 0x9000);
    e3db_begin(&w, 0x9001);
    e3db_string(&w, 0x9003, "maps/../../secret.png");
    e3db_end(&w);
    e3db_begin(&w, 0x9001);
    e3db_string(&w, 0x9003, "https://example.com/x.png");
    e3db_end(&w);
    e3db_begin(&w, 0x9001);
    e3db_string(&w, 0x9003, "textures/..hidden.png");
    close_all();
    r = run();
    expect_codes(r, MC_FILE_NO_CONTENT, MC_E3D_TEXTURE_NAME_PATH, -1); /* textures alone */
    expect_issue(r, MC_E3D_TEXTURE_NAME_PATH, 2, 32);
}

/* ---- nodes and animations ---- */

Test(e3d, key_track_wrong_size)
{
    static const float pos[3] = {0};
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    e3db_begin(&w, 0x3010);
    e3db_u32(&w, 0x3020, 1);
    close_all();
    e3db_begin(&w, 0xA000);
    e3db_begin(&w, 0xA010);
    e3db_begin(&w, 0xA100);
    mcb_u32(&w.b, 0);
    mcb_u8(&w.b, 0);
    e3db_floats(&w, 0xA210, pos, 3);
    e3db_u32(&w, 0x3020, 1);
    close_all();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 1, 57);
}

/* ---- coverage: payload layouts of the remaining block types ---- */

Test(e3d, material_colour_not_finite)
{
    static const float diffuse[3] = {1.0f, INFINITY, 0.0f};
    e3db_version(&w);
    e3db_begin(&w, 0x8000);
    e3db_begin(&w, 0x8010);
    e3db_floats(&w, 0x8030, diffuse, 3);
    close_all();
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, 24 + 6 + 4);
    expect_path(MC_E3D_NOT_FINITE, "/materials/material/0/diffuse");
}

Test(e3d, material_opacity_not_finite)
{
    static const float opacity = NAN;
    e3db_version(&w);
    e3db_begin(&w, 0x8000);
    e3db_begin(&w, 0x8010);
    e3db_floats(&w, 0x8021, &opacity, 1);
    close_all();
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, 30);
}

Test(e3d, string_shorter_than_its_block)
{
    e3db_version(&w);
    e3db_begin(&w, 0x8000);
    e3db_begin(&w, 0x8010);
    e3db_begin(&w, 0x8012);
    mcb_u16(&w.b, 3);
    mcb_bytes(&w.b, "abc", 3);
    mcb_zeros(&w.b, 2);
    close_all();
    r = run();
    expect_only(r, MC_E3D_STRING_SIZE, 1, 30);
    cr_expect(strstr(first(MC_E3D_STRING_SIZE)->message, "leaves 2 bytes unused") != NULL);
}

Test(e3d, texture_name_with_a_drive_letter)
{
    e3db_version(&w);
    e3db_begin(&w, 0x9000);
    e3db_begin(&w, 0x9001);
    e3db_string(&w, 0x9003, "c:maps\\wood.png");
    close_all();
    r = run();
    expect_codes(r, MC_FILE_NO_CONTENT, MC_E3D_TEXTURE_NAME_PATH, -1); /* a texture alone */
    expect_issue(r, MC_E3D_TEXTURE_NAME_PATH, 1, 32);
    cr_expect(strstr(first(MC_E3D_TEXTURE_NAME_PATH)->message, "a drive-letter path") != NULL);
}

/* One texture holding one image blob. */
static void texture_blob(uint16_t type, const uint8_t *p, size_t n)
{
    e3db_begin(&w, 0x9001);
    e3db_leaf(&w, type, p, n);
    e3db_end(&w);
}

Test(e3d, jpeg_and_jpeg2000_signatures)
{
    static const uint8_t bad_jpg[4] = {0xff, 0xd8, 0x00, 0xe0};
    static const uint8_t jpg[4] = {0xff, 0xd8, 0xff, 0xe0};
    static const uint8_t j2c[6] = {0xff, 0x4f, 0xff, 0x51, 0, 0};
    static const uint8_t jp2[12] = {0, 0, 0, 0x0c, 'j', 'P', ' ', ' ', 0x0d, 0x0a, 0x87, 0x0a};
    static const uint8_t bad_jp2[12] = {0, 0, 0, 0x0c, 'j', 'P', ' ', ' ', 0x0d, 0x0a, 0x87, 0x0b};
    e3db_version(&w);
    e3db_begin(&w, 0x9000);
    texture_blob(0x9102, bad_jpg, sizeof bad_jpg); /* texture 18, blob 24 */
    texture_blob(0x9102, jpg, sizeof jpg);
    texture_blob(0x9103, j2c, sizeof j2c);
    texture_blob(0x9103, jp2, sizeof jp2);
    size_t last = w.b.size;
    texture_blob(0x9103, bad_jp2, sizeof bad_jp2);
    close_all();
    r = run();
    expect_only(r, MC_E3D_TEXTURE_SIGNATURE, 2, 30);
    const mc_issue *is = mc_result_find(r, MC_E3D_TEXTURE_SIGNATURE);
    cr_assert_eq(is->instance_count, 2);
    cr_expect_eq(is->instances[1].offset, last + 6 + 6);
    cr_expect(strstr(is->instances[0].message, "JPEG SOI") != NULL);
    cr_expect(strstr(is->instances[1].message, "JPEG 2000") != NULL);
    cr_expect_eq(r->info.textures, 5);
}

Test(e3d, standalone_double_position_not_finite)
{
    double v[6] = {0, 0, 0, 1, NAN, 0};
    static const uint8_t q[12] = {0};
    static const uint32_t tangents[4] = {0, 0, 0, 0};
    attrs_begin(2);
    size_t at = e3db_doubles(&w, 0x2011, v, 6); /* 44 */
    e3db_leaf(&w, 0x2018, q, sizeof q);
    e3db_leaf(&w, 0x2081, tangents, sizeof tangents);
    e3db_leaf(&w, 0x2080, tangents, 8);
    e3db_leaf(&w, 0x2070, tangents, 8);
    close_all();
    cr_assert_eq(at, 44);
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, 50 + 24);
    expect_path(MC_E3D_NOT_FINITE, "/meshes/mesh/0/attributes/verticesDbl/1");
}

Test(e3d, standalone_attribute_sizes_per_type)
{
    static const uint8_t z[64] = {0};
    attrs_begin(2);
    size_t q = e3db_leaf(&w, 0x2018, z, 6);     /* verticesQ: 6 bytes each */
    size_t bi = e3db_leaf(&w, 0x2081, z, 8);    /* tangentsBi: 8 */
    size_t dbl = e3db_leaf(&w, 0x2011, z, 24);  /* verticesDbl: 24 */
    close_all();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 3, q);
    const mc_issue *is = mc_result_find(r, MC_E3D_COUNT_SIZE);
    cr_assert_eq(is->instance_count, 3);
    cr_expect_eq(is->instances[1].offset, bi);
    cr_expect_eq(is->instances[2].offset, dbl);
    cr_expect(strstr(is->instances[0].message, "2 vertices x 6 bytes = 12 expected") != NULL);
    cr_expect(strstr(is->instances[1].message, "2 vertices x 8 bytes = 16 expected") != NULL);
    cr_expect(strstr(is->instances[2].message, "2 vertices x 24 bytes = 48 expected") != NULL);
}

Test(e3d, standalone_bone_weights_not_in_pairs)
{
    static const uint8_t z[6] = {0};
    attrs_begin(2);
    e3db_leaf(&w, 0x2090, z, 6); /* 3 bytes per vertex */
    close_all();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 1, 44);
}

Test(e3d, standalone_bone_weights_with_no_vertices)
{
    static const uint8_t z[2] = {0};
    attrs_begin(0);
    e3db_leaf(&w, 0x2090, NULL, 0); /* nothing for nothing: fine */
    e3db_leaf(&w, 0x2091, z, 2);    /* bytes for no vertex */
    close_all();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 1, 50);
}

Test(e3d, standalone_bone_weights_too_many_slots)
{
    static const uint8_t z[24] = {0};
    attrs_begin(1);
    e3db_leaf(&w, 0x2090, z, sizeof z); /* 12 bone IDs, 12 weights */
    close_all();
    r = run();
    expect_only(r, MC_E3D_INFLUENCES_LIMIT, 1, 50);
}

Test(e3d, standalone_bone_weights_without_a_skin)
{
    static const uint8_t bw[8] = {1, 0, 255, 0, 1, 2, 100, 155};
    attrs_begin(2);
    e3db_leaf(&w, 0x2091, bw, sizeof bw); /* 2 IDs, 2 weights per vertex */
    close_all();
    r = run();
    expect_only(r, MC_E3D_BONE_ID_RANGE, 1, 50 + 4 + 1);
    expect_path(MC_E3D_BONE_ID_RANGE, "/meshes/mesh/0/attributes/boneWeights2/1");
    cr_expect(strstr(first(MC_E3D_BONE_ID_RANGE)->message, "bone ID 2 in weight set 1") != NULL);
    cr_expect_eq(r->info.max_influences, 2);
}

Test(e3d, interleaved_lists_an_attribute_twice)
{
    static const float v[3] = {0, 0, 0};
    attrs_begin(1);
    e3db_begin(&w, 0x2800);
    mcb_u16(&w.b, 0x2010), mcb_u16(&w.b, 0), mcb_u16(&w.b, 0x2010), mcb_u16(&w.b, 0);
    mcb_u16(&w.b, 0), mcb_u16(&w.b, 12);
    mcb_f32s(&w.b, v, 3);
    close_all();
    r = run();
    expect_only(r, MC_E3D_ATTRIBUTE_DUPLICATE, 1, 54);
}

Test(e3d, attributes_too_short_for_the_count)
{
    static const uint8_t two[2] = {0};
    e3db_version(&w);
    e3db_begin(&w, 0x1000);
    e3db_begin(&w, 0x1010);
    e3db_leaf(&w, 0x2000, two, sizeof two);
    close_all();
    r = run();
    expect_only(r, MC_E3D_PAYLOAD_SIZE, 1, 24);
}

/* ---- coverage: mesh blocks ---- */

Test(e3d, faces_materials_not_whole_entries)
{
    static const uint8_t z[11] = {0};
    tri_begin();
    e3db_leaf(&w, 0x1040, z, sizeof z);
    size_t empty = e3db_leaf(&w, 0x1040, NULL, 0);
    tri_end();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 2, 102);
    cr_expect_eq(mc_result_find(r, MC_E3D_COUNT_SIZE)->instances[1].offset, empty);
}

Test(e3d, bbox_not_finite)
{
    e3db_cube(&w, E3DB_BBOX, &m);
    putf(m.bbox + 6 + 20, NAN);
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, m.bbox + 6);
    cr_expect(strstr(first(MC_E3D_NOT_FINITE)->message, "meshBBox") != NULL);
}

Test(e3d, parts_fit_neither_layout)
{
    static const uint8_t z[13] = {0};
    tri_begin();
    e3db_leaf(&w, 0x1060, z, sizeof z);
    tri_end();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 1, 102);
    cr_expect(strstr(first(MC_E3D_COUNT_SIZE)->message, "fits neither") != NULL);
}

Test(e3d, duplicate_vertices_fit_neither_layout)
{
    static const uint8_t z[5] = {0};
    tri_begin();
    e3db_leaf(&w, 0x1022, z, sizeof z);
    tri_end();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 1, 102);
}

Test(e3d, duplicate_vertices_lone_zero_count_is_spec)
{
    tri_begin();
    e3db_u32(&w, 0x1022, 0);
    tri_end();
    r = run();
    expect_codes(r, -1);
}

Test(e3d, duplicate_vertices_told_apart_by_content)
{
    tri_begin();
    e3db_begin(&w, 0x1022);
    mcb_u32(&w.b, 2), mcb_u16(&w.b, 1), mcb_u16(&w.b, 2); /* as int32: 2, 0x20001 */
    tri_end();
    r = run();
    expect_codes(r, -1);
}

Test(e3d, duplicate_vertices_layout_ambiguous)
{
    tri_begin();
    e3db_begin(&w, 0x1022);
    mcb_u32(&w.b, 2), mcb_u16(&w.b, 1), mcb_u16(&w.b, 0); /* as int32: 2, 1 */
    tri_end();
    r = run();
    expect_only(r, MC_E3D_LAYOUT_AMBIGUOUS, 1, 102);
}

Test(e3d, skin_bones_with_bytes_left_over)
{
    tri_begin();
    e3db_begin(&w, 0x1050);
    e3db_begin(&w, 0x1053);
    mcb_u8(&w.b, 0);
    mcb_zeros(&w.b, 3);
    tri_end();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 1, 108);
    cr_expect(strstr(first(MC_E3D_COUNT_SIZE)->message, "0 bones") != NULL);
    cr_expect_eq(r->info.bones, 0);
}

Test(e3d, morphs_too_short_for_the_count)
{
    static const uint8_t two[2] = {0};
    tri_begin();
    e3db_leaf(&w, 0x1070, two, sizeof two);
    tri_end();
    r = run();
    expect_codes(r, MC_E3D_MORPH_BLOCK, MC_E3D_PAYLOAD_SIZE, -1);
    expect_issue(r, MC_E3D_PAYLOAD_SIZE, 1, 102);
    expect_issue(r, MC_E3D_MORPH_BLOCK, 1, 102);
}

/* ---- coverage: nodes, textures by name, animations ---- */

Test(e3d, orientation_not_finite)
{
    static const double q[4] = {NAN, 0, 0, 0};
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    e3db_begin(&w, 0x3010);
    e3db_doubles(&w, 0x3031, q, 4);
    close_all();
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, 30);
    cr_expect(strstr(first(MC_E3D_NOT_FINITE)->message, "orientation") != NULL);
}

Test(e3d, position_not_finite_names_the_component)
{
    static const double p[3] = {0, INFINITY, 0};
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    e3db_begin(&w, 0x3010);
    e3db_doubles(&w, 0x3032, p, 3);
    close_all();
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, 30 + 8);
    expect_path(MC_E3D_NOT_FINITE, "/nodes/meshNode/0/position");
}

Test(e3d, skeleton_blocks)
{
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    e3db_begin(&w, 0x3010); /* 18: a valid skeleton */
    e3db_begin(&w, 0x3040);
    mcb_u32(&w.b, 1), mcb_u16(&w.b, 3), mcb_bytes(&w.b, "rig", 3);
    e3db_end(&w);
    e3db_end(&w);
    size_t short_at = e3db_begin(&w, 0x3010) + 6; /* too short for the u32 */
    mcb_u16(&w.b, 0x3040), mcb_u32(&w.b, 8), mcb_u16(&w.b, 0);
    e3db_end(&w);
    size_t long_at = e3db_begin(&w, 0x3010) + 6; /* a byte after the name */
    e3db_begin(&w, 0x3040);
    mcb_u32(&w.b, 1), mcb_u16(&w.b, 3), mcb_bytes(&w.b, "rig", 3), mcb_u8(&w.b, 0);
    close_all();
    cr_assert_eq(short_at, 45);
    cr_assert_eq(long_at, 59);
    r = run();
    expect_codes(r, MC_E3D_PAYLOAD_SIZE, MC_E3D_STRING_SIZE, -1);
    expect_issue(r, MC_E3D_PAYLOAD_SIZE, 1, 45);
    expect_issue(r, MC_E3D_STRING_SIZE, 1, 59 + 6 + 4);
    cr_expect(strstr(first(MC_E3D_STRING_SIZE)->message, "skeleton name length 3 leaves 1 bytes unused") != NULL);
}

Test(e3d, map_texture_by_name)
{
    e3db_version(&w);
    e3db_begin(&w, 0x9000);
    e3db_begin(&w, 0x9001);
    e3db_string(&w, 0x9003, "a.png"); /* 24..37 */
    e3db_end(&w);
    e3db_end(&w);
    e3db_begin(&w, 0x8000);             /* 37 */
    e3db_begin(&w, 0x8010);             /* 43 */
    e3db_begin(&w, 0x8200);             /* 49 */
    e3db_string(&w, 0x9003, "a.png");   /* 55: resolves */
    e3db_end(&w);
    e3db_begin(&w, 0x8201);             /* 68 */
    e3db_string(&w, 0x9003, "b.png");   /* 74: does not */
    close_all();
    r = run();
    expect_only(r, MC_E3D_TEXTURE_REF_UNRESOLVED, 1, 80);
    expect_path(MC_E3D_TEXTURE_REF_UNRESOLVED, "/materials/material/0/phongSpecularMap/textureName");
    cr_expect(strstr(first(MC_E3D_TEXTURE_REF_UNRESOLVED)->message, "\"b.png\"") != NULL);
}

/* nodes (12) / meshNode (18) / nodeID 1 (24..34); animations 34, animation
 * 40, animationTrack 46 with `keys` frames 0, 1, ... and loop flag 0; its
 * first child at 56 + 4 * keys. Left open. */
static void track_begin(uint32_t keys)
{
    e3db_track_begin(&w, keys);
    cr_assert_eq(w.b.size, 57 + 4 * (size_t)keys);
}

Test(e3d, track_by_node_name)
{
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    e3db_begin(&w, 0x3010);
    e3db_string(&w, 0x3021, "root"); /* 24..36 */
    close_all();
    e3db_begin(&w, 0xA000);          /* 36 */
    e3db_begin(&w, 0xA010);          /* 42 */
    e3db_begin(&w, 0xA100);          /* 48 */
    mcb_u32(&w.b, 0), mcb_u8(&w.b, 0);
    e3db_string(&w, 0x3021, "root"); /* 59: resolves */
    e3db_end(&w);
    e3db_begin(&w, 0xA100);          /* 71 */
    mcb_u32(&w.b, 0), mcb_u8(&w.b, 0);
    e3db_string(&w, 0x3021, "tail"); /* 82: does not */
    close_all();
    r = run();
    expect_only(r, MC_E3D_NODE_REF_UNRESOLVED, 1, 88);
    expect_path(MC_E3D_NODE_REF_UNRESOLVED, "/animations/animation/0/animationTrack/1/nodeName");
}

Test(e3d, key_blocks_of_every_size_are_clean)
{
    static const float tcb[10] = {0};
    static const float four[2] = {0, 0};
    static const float color[6] = {1, 1, 1, 0, 0, 0};
    static const uint8_t hide[2] = {0, 1};
    static const uint32_t morph[3] = {0, 0, 0};
    track_begin(2);
    e3db_floats(&w, 0xA110, tcb, 10);     /* 20 bytes per key */
    e3db_floats(&w, 0xA240, four, 2);     /* 4 */
    e3db_floats(&w, 0xA270, four, 2);
    e3db_floats(&w, 0xA2B0, color, 6);    /* 12 */
    e3db_leaf(&w, 0xA2C0, hide, 2);       /* 1 */
    e3db_leaf(&w, 0xA300, morph, 12);     /* morph index + 4 per key */
    e3db_u32(&w, 0x3020, 1);
    close_all();
    r = run();
    expect_codes(r, -1);
    cr_expect_eq(r->info.keyframes, 2);
}

Test(e3d, key_blocks_wrong_sizes)
{
    static const uint8_t z[8] = {0};
    track_begin(2);
    size_t hide = e3db_leaf(&w, 0xA2C0, z, 3);  /* 65 */
    size_t morph = e3db_leaf(&w, 0xA300, z, 8);
    e3db_u32(&w, 0x3020, 1);
    close_all();
    cr_assert_eq(hide, 65);
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 2, 65);
    const mc_issue *is = mc_result_find(r, MC_E3D_COUNT_SIZE);
    cr_expect_eq(is->instances[1].offset, morph);
    cr_expect(strstr(is->instances[0].message, "2 keys x 1 bytes = 2 expected") != NULL);
    cr_expect(strstr(is->instances[1].message, "2 keys x 4 bytes + 4 = 12 expected") != NULL);
}

Test(e3d, key_not_finite)
{
    static const float scale[6] = {1, 1, 1, 1, NAN, 1};
    track_begin(2);
    size_t at = e3db_floats(&w, 0xA220, scale, 6);
    e3db_u32(&w, 0x3020, 1);
    close_all();
    r = run();
    expect_only(r, MC_E3D_NOT_FINITE, 1, at + 6 + 12);
    expect_path(MC_E3D_NOT_FINITE, "/animations/animation/0/animationTrack/0/ftkScaling/1");
}

Test(e3d, rotation_order_as_u32_and_wrong_size)
{
    static const uint8_t two[2] = {1, 0};
    track_begin(0);
    e3db_u32(&w, 0xA120, 5);               /* 57: u32 order 5 is fine */
    e3db_end(&w);
    e3db_begin(&w, 0xA100);                /* 67 */
    mcb_u32(&w.b, 0), mcb_u8(&w.b, 0);
    e3db_leaf(&w, 0xA120, two, sizeof two); /* 78 */
    e3db_u32(&w, 0x3020, 1);
    e3db_end(&w);
    close_all();
    r = run();
    expect_codes(r, MC_E3D_PAYLOAD_SIZE, MC_E3D_TRACK_NO_TARGET, -1);
    expect_issue(r, MC_E3D_PAYLOAD_SIZE, 1, 78);
    expect_issue(r, MC_E3D_TRACK_NO_TARGET, 1, 46);
}

Test(e3d, track_too_short_for_its_header)
{
    static const uint8_t two[2] = {0};
    static const uint8_t five_keys[9] = {5, 0, 0, 0, 0, 0, 0, 0, 0};
    e3db_version(&w);
    e3db_begin(&w, 0xA000);
    e3db_begin(&w, 0xA010);
    e3db_leaf(&w, 0xA100, two, sizeof two);          /* 24 */
    size_t at = e3db_leaf(&w, 0xA100, five_keys, sizeof five_keys);
    close_all();
    r = run();
    expect_only(r, MC_E3D_COUNT_SIZE, 2, 24);
    const mc_issue *is = mc_result_find(r, MC_E3D_COUNT_SIZE);
    cr_expect_eq(is->instances[1].offset, at);
    cr_expect(strstr(is->instances[0].message, "too short for the u32 key count") != NULL);
    cr_expect(strstr(is->instances[1].message, "too short for 5 key frames and the loop flag (25 bytes)") != NULL);
}

Test(e3d, track_layout_ambiguous)
{
    track_begin(0);
    w.b.size -= 5;
    mcb_u32(&w.b, 1);
    mcb_u8(&w.b, 1), mcb_u32(&w.b, 0); /* spec: frame 1, loop 0; code: loop 1, frame 0 */
    e3db_u32(&w, 0x3020, 1);
    close_all();
    r = run();
    expect_only(r, MC_E3D_LAYOUT_AMBIGUOUS, 1, 46);
}

/* ---- coverage: the ID set and the LZMA decoder ---- */

Test(e3d, forty_texture_ids_then_a_duplicate)
{
    e3db_version(&w);
    e3db_begin(&w, 0x9000);
    for (uint32_t i = 1; i <= 41; i++) {
        e3db_begin(&w, 0x9001);
        e3db_u32(&w, 0x9002, i <= 40 ? i : 1); /* the set grows past 32 keys */
        e3db_end(&w);
    }
    close_all();
    r = run();
    expect_only(r, MC_E3D_DUPLICATE_ID, 1, 30 + 16 * 40);
    cr_expect_eq(r->info.textures, 41);
}

Test(e3d, lzma_output_larger_than_64_kib)
{
    static uint8_t png[100000];
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    memcpy(png, sig, sizeof sig);
    e3db_version(&w);
    e3db_begin(&w, 0x9000);
    e3db_begin(&w, 0x9001);
    e3db_u32(&w, 0x9002, 1);
    e3db_leaf(&w, 0x9101, png, sizeof png);
    close_all();
    size_t plain = w.b.size - 12;
    wrap_top();
    r = run();
    expect_codes(r, MC_FILE_NO_CONTENT, -1); /* a texture alone */
    cr_expect_eq(r->info.decompressed_bytes, plain);
    cr_expect_eq(r->info.textures, 1);
}

Test(e3d, lzma_end_marker_before_the_declared_size)
{
    e3db_lzma p = e3db_lzma_reference;
    p.end_mark = true;
    e3db_cube(&w, 0, &m);
    cr_assert_neq(e3db_lzma_wrap(&w, 12, &p), E3DB_FAIL);
    put32(18, 456 + 50);
    r = run();
    expect_only(r, MC_E3D_LZMA_SIZE_SHORT, 1, 18);
    cr_expect(strstr(first(MC_E3D_LZMA_SIZE_SHORT)->message, "after 456 decoded bytes") != NULL);
}

Test(e3d, lzma_end_marker_cut_short)
{
    e3db_lzma p = e3db_lzma_reference;
    p.end_mark = true;
    e3db_cube(&w, 0, &m);
    cr_assert_neq(e3db_lzma_wrap(&w, 12, &p), E3DB_FAIL);
    w.b.size -= 1;
    put32(14, (uint32_t)(w.b.size - 12));
    r = run();
    expect_only(r, MC_E3D_LZMA_SIZE_LONG, 1, 18);
}

/* ---- nothing to load (issue 18): E3D has no total size, so a file cut at
 * a top-level block boundary is only seen by what it lacks ---- */

Test(e3d, version_block_alone_has_no_content)
{
    e3db_version(&w);
    r = run();
    expect_only(r, MC_FILE_NO_CONTENT, 1, 0);
    cr_expect(mc_result_valid(r)); /* a warning: it cannot be proven cut */
    cr_expect_str_eq(first(MC_FILE_NO_CONTENT)->message,
                     "no vertex, no bone and no animation in 12 bytes (0 meshes, 0 nodes, 0 materials, 0 textures)");
}

Test(e3d, cube_cut_after_its_mesh_is_silent)
{
    e3db_cube(&w, 0, &m);
    r = run();
    expect_codes(r, -1);
}

/* ---- inspect (issue 27): what the mesh and animation lines carry ---- */

static const mc_node *first_kind(const mc_node *n, const char *kind)
{
    for (const mc_node *k = n->first_child; k; k = k->next) {
        if (strcmp(k->kind, kind) == 0) return k;
        const mc_node *d = first_kind(k, kind);
        if (d) return d;
    }
    return NULL;
}

Test(e3d, inspect_mesh_line_has_degenerate_triangles_and_influences)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_SKIN, &m);
    cr_assert(!w.b.oom);
    w.b.data[m.faces + 18] = 17; /* triangle 1 becomes (17, 17, 16) */
    w.b.data[m.faces + 19] = 0;
    mc_inspect *in = NULL;
    cr_assert_eq(mc_inspect_memory(w.b.data, w.b.size, NULL, &in), MC_OK);
    const mc_node *mesh = first_kind(mc_inspect_root(in), "mesh");
    cr_assert_not_null(mesh);
    cr_expect_eq(mc_node_attr(mesh, "degenerate_triangles")->u, 1);
    /* the builder's weights: (255, 0) below z = 0, (128, 127) above */
    const mc_attr *h = mc_node_attr(mesh, "influences_histogram");
    cr_assert_not_null(h);
    cr_assert_eq(h->n, 3);
    cr_expect_eq(h->list[0], 0);
    cr_expect_eq(h->list[1], 12);
    cr_expect_eq(h->list[2], 12);
    cr_expect_eq(mc_node_attr(mesh, "influences_max")->u, 2);
    mc_inspect_free(in);
}

Test(e3d, inspect_animation_has_frames_tracks_and_keys)
{
    e3db_cube(&w, E3DB_NORMALS | E3DB_ANIMATION, &m);
    cr_assert(!w.b.oom);
    mc_inspect *in = NULL;
    cr_assert_eq(mc_inspect_memory(w.b.data, w.b.size, NULL, &in), MC_OK);
    const mc_node *a = first_kind(mc_inspect_root(in), "animation");
    cr_assert_not_null(a);
    cr_expect_eq(mc_node_attr(a, "start_frame")->u, 0);
    cr_expect_eq(mc_node_attr(a, "end_frame")->u, 10);
    cr_expect_eq(mc_node_attr(a, "duration_frames")->u, 10);
    cr_expect_eq(mc_node_attr(a, "tracks")->u, 1);
    cr_expect_eq(mc_node_attr(a, "keyframes")->u, 2);
    mc_inspect_free(in);
}
