/*
 * E3D checks: valid models built by e3d_builder stay clean; each other test
 * breaks one rule and asserts the exact code, count and first offset (and,
 * inside LZMA data, the payload offset and path).
 */
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

/* ---- framing ---- */

Test(e3d, block_length_below_six)
{
    e3db_version(&w);
    e3db_raw_header(&w, 0x1000, 5);
    mcb_zeros(&w.b, 10);
    r = run();
    expect_only(r, MC_E3D_BLOCK_LENGTH_SMALL, 1, 14);
    expect_path(MC_E3D_BLOCK_LENGTH_SMALL, "/meshes");
}
