/* The E3D reference loader (conformance/loaders/e3d.c): what it builds from
 * valid files, and the status it rejects hostile ones with. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "e3d_builder.h"
#include "mcl.h"

Test(loader_e3d, empty_file_rejected)
{
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_neq(mcl_load(MCL_FORMAT_E3D, "", 0, NULL, &m, &err), MCL_OK);
    cr_assert_null(m);
    cr_assert_neq(err.reason[0], '\0');
}

/* ---- helpers ---- */

static e3db w;
static e3db_cube_map map;
static mcl_error err;

static void fresh(void)
{
    e3db_free(&w);
    memset(&w, 0, sizeof w);
}

static void cube(unsigned flags)
{
    fresh();
    e3db_cube(&w, flags, &map);
    cr_assert(!w.b.oom);
}

static mcl_status load_limits(mcl_model **m, const mcl_limits *limits)
{
    *m = NULL;
    return mcl_load(MCL_FORMAT_E3D, w.b.data, w.b.size, limits, m, &err);
}

static mcl_model *load_ok(void)
{
    mcl_model *m = NULL;
    mcl_status s = load_limits(&m, NULL);
    cr_assert_eq(s, MCL_OK, "%s at %llu: %s", mcl_status_name(s), (unsigned long long)err.offset, err.reason);
    cr_assert_eq(mcl_exercise(m), MCL_OK);
    return m;
}

static void expect_fail(mcl_status want, uint64_t offset)
{
    mcl_model *m = NULL;
    mcl_status s = load_limits(&m, NULL);
    cr_assert_eq(s, want, "got %s at %llu: %s", mcl_status_name(s), (unsigned long long)err.offset, err.reason);
    cr_assert_null(m);
    cr_assert_eq(err.offset, offset, "offset %llu (want %llu): %s", (unsigned long long)err.offset,
                 (unsigned long long)offset, err.reason);
}

static void near(float got, float want)
{
    cr_assert(fabsf(got - want) < 1e-4f, "%g vs %g", (double)got, (double)want);
}

static void fini(void) { e3db_free(&w); }

TestSuite(loader_e3d_files, .fini = fini);
TestSuite(loader_e3d_hostile, .fini = fini);

/* ---- valid files ---- */

Test(loader_e3d_files, spec_cube1)
{
    cube(0);
    mcl_model *m = load_ok();
    cr_assert_str_eq(m->layout, "e3d1");
    cr_assert_eq(m->mesh_count, 1);
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->vertex_count, 24);
    cr_assert_eq(me->index_count, 36);
    cr_assert_eq(me->indices[0], 17);
    cr_assert_eq(me->indices[35], 8);
    near(me->positions[0], -0.5f);
    near(me->positions[3 * 6 + 2], 0.5f);
    cr_assert_null(me->normals);
    /* facesMaterials names material 0: none */
    cr_assert_not_null(me->face_materials);
    cr_assert_eq(me->face_materials[11], -1);
    cr_assert_eq(me->material, -1);
    /* one mesh node: one bone at rest, placing the mesh */
    cr_assert_eq(m->bone_count, 1);
    cr_assert_eq(m->bones[0].parent, -1);
    cr_assert_eq(me->rigid_bone, 0);
    near(m->bones[0].local[0], 1);
    near(m->bones[0].local[12], 0);
    mcl_free(m);
}

Test(loader_e3d_files, normals_reference_packing)
{
    cube(E3DB_NORMALS);
    mcl_model *m = load_ok();
    const float *n = m->meshes[0].normals;
    cr_assert_not_null(n);
    near(n[2], -1.0f); /* -1 packed as -512 */
    near(n[4 * 3 + 2], 1.0f);
    near(n[9 * 3 + 0], 1.0f);
    mcl_free(m);
}

Test(loader_e3d_files, lzma_top_and_nested_match_plain)
{
    cube(E3DB_NORMALS);
    mcl_model *plain = load_ok();
    uint64_t want = mcl_walk(plain);
    mcl_free(plain);
    cube(E3DB_NORMALS | E3DB_LZMA_TOP);
    mcl_model *m = load_ok();
    cr_assert_eq(mcl_walk(m), want);
    mcl_free(m);
    cube(E3DB_NORMALS | E3DB_LZMA_MESH | E3DB_LZMA_TOP);
    m = load_ok();
    cr_assert_eq(mcl_walk(m), want);
    mcl_free(m);
}

Test(loader_e3d_files, lzma_other_properties)
{
    const e3db_lzma params[] = {{0, 0, 0, 1u << 12, false}, {8, 4, 4, 1u << 20, false}, {3, 0, 2, 1u << 16, true}};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        cube(0);
        cr_assert_neq(e3db_lzma_wrap(&w, 12, &params[i]), E3DB_FAIL);
        mcl_model *m = load_ok();
        cr_assert_eq(m->meshes[0].index_count, 36);
        mcl_free(m);
    }
}

Test(loader_e3d_files, skin_maps_to_bones)
{
    cube(E3DB_NORMALS | E3DB_SKIN);
    mcl_model *m = load_ok();
    cr_assert_eq(m->bone_count, 2);
    cr_assert_str_eq(m->bones[0].name, "root");
    cr_assert_str_eq(m->bones[1].name, "tip");
    cr_assert_eq(m->bones[1].parent, 0);
    near(m->bones[1].local[13], 1.0f); /* position (0, 1, 0) */
    near(m->bones[1].inverse_bind[0], 1.0f);
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->influences, 2);
    cr_assert_eq(me->rigid_bone, -1);
    /* vertex 0 (z < 0): bones 1, 2 weights 255, 0; vertex 4 (z > 0): 128, 127 */
    cr_assert_eq(me->joints[0], 0);
    cr_assert_eq(me->joints[1], 1);
    near(me->weights[0], 1.0f);
    near(me->weights[1], 0.0f);
    near(me->weights[4 * 2 + 0], 128.0f / 255.0f);
    near(me->weights[4 * 2 + 1], 127.0f / 255.0f);
    float g[32];
    cr_assert_eq(mcl_evaluate_pose(m, UINT32_MAX, 0, g, NULL), MCL_OK);
    near(g[16 + 13], 1.0f);
    mcl_free(m);
}

Test(loader_e3d_files, animation_in_frames)
{
    cube(E3DB_NORMALS | E3DB_ANIMATION);
    mcl_model *m = load_ok();
    cr_assert_eq(m->animation_count, 1);
    const mcl_animation *a = &m->animations[0];
    cr_assert_str_eq(a->name, "spin");
    cr_assert_eq(a->duration, 10.0);
    cr_assert_eq(a->track_count, 2);
    cr_assert_eq(a->tracks[0].kind, MCL_TRACK_TRANSLATION);
    cr_assert_eq(a->tracks[1].kind, MCL_TRACK_ROTATION);
    cr_assert_eq(a->tracks[1].bone, 0);
    near(a->tracks[1].times[1], 10.0f);
    near(a->tracks[1].values[3], 1.0f); /* w of (1, 0, 0, 0) as x y z w */
    float g[16];
    /* halfway: translation (0, 0.5, 0), 45 degrees about y */
    cr_assert_eq(mcl_evaluate_pose(m, 0, 5.0, g, NULL), MCL_OK);
    near(g[13], 0.5f);
    near(g[0], 0.70710678f);
    near(g[2], -0.70710678f);
    cr_assert_eq(mcl_evaluate_pose(m, 0, 10.0, g, NULL), MCL_OK);
    near(g[0], 0.0f);
    near(g[13], 1.0f);
    mcl_free(m);
}

Test(loader_e3d_files, track_reference_layout_reads_the_same)
{
    cube(E3DB_ANIMATION | E3DB_TRACK_CODE_LAYOUT);
    mcl_model *m = load_ok();
    cr_assert_eq(m->animations[0].tracks[0].key_count, 2);
    near(m->animations[0].tracks[0].times[1], 10.0f);
    mcl_free(m);
}

Test(loader_e3d_files, material_and_texture)
{
    cube(E3DB_UVS | E3DB_BBOX | E3DB_MATERIAL | E3DB_TEXTURE);
    mcl_model *m = load_ok();
    cr_assert_eq(m->material_count, 1);
    const mcl_material *ma = &m->materials[0];
    cr_assert_str_eq(ma->name, "paint");
    near(ma->base_color[1], 0.5f);
    near(ma->base_color[3], 1.0f);
    cr_assert_eq(ma->texture_size, 16);
    cr_assert_eq(ma->texture_data[0], 0x89);
    cr_assert_str_eq(ma->texture_path, "cube.png");
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->material, 0);
    cr_assert_eq(me->face_materials[5], 0);
    cr_assert_eq(me->uv_layer_count, 1);
    near(me->uvs[1 * 2], 1.0f); /* vertex 1: x + 0.5 */
    mcl_free(m);
}

Test(loader_e3d_files, official_sample_habits)
{
    cube(E3DB_NORMALS | E3DB_REPEAT_FACES_MATERIALS | E3DB_EMPTY_TEXTURES | E3DB_LZMA_TOP);
    mcl_free(load_ok());
}

/* ---- hostile files ---- */

Test(loader_e3d_hostile, every_truncation_rejected)
{
    cube(E3DB_NORMALS | E3DB_SKIN | E3DB_ANIMATION);
    size_t full = w.b.size;
    for (size_t n = 0; n < full; n++) {
        /* the version block alone, or whole sections: still a model */
        if (n == 12 || n == map.animations) continue;
        w.b.size = n;
        mcl_model *m = NULL;
        mcl_status s = load_limits(&m, NULL);
        cr_assert_neq(s, MCL_OK, "a %zu-byte prefix loaded", n);
        /* cut at a section boundary, the skin names nodes that are gone */
        cr_assert(s == MCL_ERR_TRUNCATED || s == MCL_ERR_SIZE || s == MCL_ERR_RANGE, "prefix %zu: %s", n,
                  mcl_status_name(s));
    }
}

Test(loader_e3d_hostile, header_fields)
{
    cube(0);
    w.b.size = 5;
    expect_fail(MCL_ERR_TRUNCATED, 0); /* no 6-byte header */
    w.b.size = 11;
    expect_fail(MCL_ERR_TRUNCATED, 0); /* version block cut */
    w.b.size = 14;
    expect_fail(MCL_ERR_SIZE, 12); /* 2 bytes cannot hold a block */
    w.b.size = 20;
    expect_fail(MCL_ERR_TRUNCATED, 12); /* meshes passes the end */
    cube(0);
    w.b.data[9] = 'X';
    expect_fail(MCL_ERR_MAGIC, 6);
    cube(0);
    mcb_put_u32(&w.b, 2, 14);
    expect_fail(MCL_ERR_SIZE, 2);
}

Test(loader_e3d_hostile, huge_counts_in_a_tiny_file)
{
    cube(0);
    mcb_put_u32(&w.b, map.faces + 6, UINT32_MAX); /* triangle count */
    expect_fail(MCL_ERR_SIZE, map.faces);
    cube(0);
    mcb_put_u32(&w.b, map.attributes + 6, 65536); /* vertices */
    expect_fail(MCL_ERR_SIZE, map.interleaved);
    cube(E3DB_ANIMATION);
    mcb_put_u32(&w.b, map.track + 6, 0x40000000); /* keys */
    expect_fail(MCL_ERR_SIZE, map.track);
    cube(0);
    mcb_put_u32(&w.b, map.meshes + 2, UINT32_MAX); /* block length */
    expect_fail(MCL_ERR_TRUNCATED, map.meshes);
}

Test(loader_e3d_hostile, lzma_declared_size_bounded)
{
    cube(E3DB_LZMA_TOP);
    mcl_limits l = mcl_limits_default();
    l.max_decompressed_bytes = 100;
    mcl_model *m = NULL;
    cr_assert_eq(load_limits(&m, &l), MCL_ERR_LIMIT);
    cr_assert_eq(err.offset, 18);
    cube(E3DB_LZMA_TOP);
    mcb_put_u32(&w.b, 18, UINT32_MAX);
    expect_fail(MCL_ERR_LIMIT, 18);
    cube(E3DB_LZMA_TOP);
    w.b.data[27] ^= 0x40; /* inside the range coder's first bytes */
    mcl_status s = load_limits(&m, NULL);
    cr_assert(s == MCL_ERR_COMPRESSION || s == MCL_ERR_STRUCTURE || s == MCL_ERR_SIZE || s == MCL_ERR_TRUNCATED,
              "%s", mcl_status_name(s));
}

Test(loader_e3d_hostile, out_of_range_indices)
{
    cube(0);
    w.b.data[map.faces + 10] = 24; /* index 24 of 24 vertices */
    expect_fail(MCL_ERR_RANGE, map.faces);
    cube(0);
    mcb_put_u32(&w.b, map.faces_materials + 10, 13); /* triangles [0, 13) of 12 */
    expect_fail(MCL_ERR_RANGE, map.faces_materials);
    cube(0);
    mcb_put_u32(&w.b, map.node_mesh_id + 6, 2); /* mesh 2 of {1} */
    expect_fail(MCL_ERR_RANGE, map.node_mesh_id);
    cube(E3DB_SKIN);
    w.b.data[map.vertex_data + 7 * map.stride + map.weights_at] = 3; /* bone 3 of 2 */
    expect_fail(MCL_ERR_RANGE, map.interleaved);
}

Test(loader_e3d_hostile, nesting_bounded)
{
    fresh();
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    for (int i = 0; i < 5000; i++) e3db_begin(&w, 0x3010);
    while (w.depth) e3db_end(&w);
    mcl_model *m = NULL;
    cr_assert_eq(load_limits(&m, NULL), MCL_ERR_LIMIT);
    mcl_limits l = mcl_limits_default();
    l.max_depth = 3;
    cube(0); /* meshes > mesh > attributes > interleaved: depth 4 */
    cr_assert_eq(load_limits(&m, &l), MCL_ERR_LIMIT);
    cr_assert_eq(err.offset, map.interleaved);
    /* LZMA in LZMA: 9 levels */
    cube(0);
    for (int i = 0; i < 9; i++) e3db_lzma_wrap(&w, 12, &e3db_lzma_reference);
    expect_fail(MCL_ERR_LIMIT, 12);
}

Test(loader_e3d_hostile, framing_rules)
{
    cube(0);
    mcb_put_u32(&w.b, map.faces + 2, 0); /* block length 0 */
    expect_fail(MCL_ERR_SIZE, map.faces);
    cube(0);
    mcb_put_u32(&w.b, map.faces_materials + 2, 19); /* 1 byte past its mesh */
    expect_fail(MCL_ERR_STRUCTURE, map.faces_materials);
    cube(0);
    e3db_u32(&w, 0x1020, 1); /* meshID at the top level */
    expect_fail(MCL_ERR_STRUCTURE, map.nodes + 22);
    cube(0);
    e3db_version(&w);
    expect_fail(MCL_ERR_STRUCTURE, map.nodes + 22);
    cube(0);
    e3db_u32(&w, 0x7777, 0); /* unknown: skipped */
    mcl_free(load_ok());
}

Test(loader_e3d_hostile, values)
{
    cube(0);
    mcb_put_f32(&w.b, map.vertex_data + 5 * map.stride, NAN);
    expect_fail(MCL_ERR_VALUE, map.interleaved);
    cube(E3DB_NORMALS);
    mcb_put_u32(&w.b, map.vertex_data + 3 * map.stride + map.normal_at, 256); /* length 0.5 */
    expect_fail(MCL_ERR_VALUE, map.interleaved);
    cube(E3DB_SKIN);
    w.b.data[map.vertex_data + 2 * map.stride + map.weights_at + 2] = 200; /* sum 200 */
    expect_fail(MCL_ERR_VALUE, map.interleaved);
    cube(E3DB_ANIMATION);
    mcb_put_f32(&w.b, map.rotation + 6 + 16, 0.5f); /* not unit */
    expect_fail(MCL_ERR_VALUE, map.rotation);
    cube(E3DB_ANIMATION);
    mcb_put_u32(&w.b, map.track + 6 + 8, 0); /* frames 0, 0 */
    expect_fail(MCL_ERR_VALUE, map.track);
    cube(E3DB_ANIMATION);
    w.b.data[map.track + 6 + 12] = 2; /* loop flag */
    expect_fail(MCL_ERR_RANGE, map.track);
}

/* version, meshes{mesh{meshID 1, attributes{3 vertices}, triFaces16{1}}}; left open */
static void triangle_begin(void)
{
    static const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    fresh();
    e3db_version(&w);
    e3db_begin(&w, 0x1000);
    e3db_begin(&w, 0x1010);
    e3db_u32(&w, 0x1020, 1);
    e3db_begin(&w, 0x2000);
    mcb_u32(&w.b, 3);
    e3db_floats(&w, 0x2010, v, 9);
    e3db_end(&w);
    e3db_begin(&w, 0x1030);
    mcb_u32(&w.b, 1);
    mcb_u16(&w.b, 0), mcb_u16(&w.b, 1), mcb_u16(&w.b, 2);
    e3db_end(&w);
}

static void close_all(void)
{
    while (w.depth) e3db_end(&w);
}

Test(loader_e3d_hostile, spec_and_reference_layouts)
{
    /* 48 zero bytes of parts: 4 spec parts or 3 reference-code parts */
    triangle_begin();
    size_t at = e3db_begin(&w, 0x1060);
    mcb_zeros(&w.b, 48);
    close_all();
    expect_fail(MCL_ERR_STRUCTURE, at);
    /* one 16-byte part: only the reference code's layout fits */
    triangle_begin();
    e3db_begin(&w, 0x1060);
    mcb_u32(&w.b, 7), mcb_u32(&w.b, 0), mcb_u32(&w.b, 0), mcb_u32(&w.b, 1);
    close_all();
    mcl_free(load_ok());
    /* meshDuplicateVertices as 3 int32 (reference code): accepted */
    static const int32_t dup[3] = {0, 1, 2};
    triangle_begin();
    e3db_leaf(&w, 0x1022, dup, sizeof dup);
    close_all();
    mcl_free(load_ok());
    /* spec layout naming vertex 7 of 3 */
    triangle_begin();
    at = e3db_begin(&w, 0x1022);
    mcb_u32(&w.b, 3), mcb_u16(&w.b, 0), mcb_u16(&w.b, 1), mcb_u16(&w.b, 7);
    close_all();
    expect_fail(MCL_ERR_RANGE, at);
}

Test(loader_e3d_files, yaw_track_becomes_rotation)
{
    static const float yaw[2] = {0, 90};
    fresh();
    e3db_version(&w);
    e3db_begin(&w, 0x3000);
    e3db_begin(&w, 0x3010);
    e3db_u32(&w, 0x3020, 1);
    close_all();
    e3db_begin(&w, 0xA000);
    e3db_begin(&w, 0xA010);
    e3db_begin(&w, 0xA100);
    mcb_u32(&w.b, 2), mcb_u32(&w.b, 0), mcb_u32(&w.b, 4), mcb_u8(&w.b, 0);
    e3db_floats(&w, 0xA240, yaw, 2);
    e3db_u32(&w, 0x3020, 1);
    close_all();
    mcl_model *m = load_ok();
    cr_assert_eq(m->animations[0].track_count, 1);
    cr_assert_eq(m->animations[0].tracks[0].kind, MCL_TRACK_ROTATION);
    cr_assert_eq(m->animations[0].duration, 4.0); /* no animationFrames: the last key */
    float g[16];
    cr_assert_eq(mcl_evaluate_pose(m, 0, 4.0, g, NULL), MCL_OK);
    near(g[0], 0.0f); /* 90 degrees about y: x axis to -z */
    near(g[2], -1.0f);
    mcl_free(m);
}

Test(loader_e3d_hostile, memory_limit)
{
    cube(E3DB_NORMALS | E3DB_LZMA_TOP);
    mcl_limits l = mcl_limits_default();
    l.max_alloc_bytes = 4096;
    mcl_model *m = NULL;
    cr_assert_eq(load_limits(&m, &l), MCL_ERR_LIMIT);
    cr_assert_null(m);
}
