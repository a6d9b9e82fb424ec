/* The SEMODEL reference loader (conformance/loaders/semodel.c): what it builds from
 * valid files, and the status it rejects hostile ones with. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mcb_buf.h"
#include "mcl.h"
#include "semodel_builder.h"

Test(loader_semodel, empty_file_rejected)
{
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_neq(mcl_load(MCL_FORMAT_SEMODEL, "", 0, NULL, &m, &err), MCL_OK);
    cr_assert_null(m);
    cr_assert_neq(err.reason[0], '\0');
}

/* ---- helpers ---- */

static void bytes_of(semb_model *sm, mcb_buf *b)
{
    memset(b, 0, sizeof *b);
    semb_write(sm, b);
    cr_assert(!b->oom);
}

static mcl_model *load_ok(semb_model *sm)
{
    mcb_buf b;
    bytes_of(sm, &b);
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(MCL_FORMAT_SEMODEL, b.data, b.size, NULL, &m, &err);
    cr_assert_eq(s, MCL_OK, "rejected: %s at %llu: %s", mcl_status_name(s), (unsigned long long)err.offset, err.reason);
    cr_assert_eq(mcl_exercise(m), MCL_OK);
    mcb_free(&b);
    return m;
}

static mcl_model *load_sample(enum semb_sample_kind kind, enum semb_layout layout)
{
    semb_model *sm = semb_sample(kind, layout);
    cr_assert_not_null(sm);
    mcl_model *m = load_ok(sm);
    semb_free(sm);
    return m;
}

static void expect_status(const uint8_t *data, size_t size, mcl_status want, uint64_t offset)
{
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(MCL_FORMAT_SEMODEL, data, size, NULL, &m, &err);
    cr_assert_eq(s, want, "size %zu: got %s (%s), expected %s", size, mcl_status_name(s), err.reason,
                 mcl_status_name(want));
    cr_assert_null(m);
    cr_assert_eq(err.offset, offset, "size %zu: offset %llu (%s), expected %llu", size,
                 (unsigned long long)err.offset, err.reason, (unsigned long long)offset);
}

/* Writes sm and expects the status at the offset. */
static void expect_model(semb_model *sm, mcl_status want, uint64_t offset)
{
    mcb_buf b;
    bytes_of(sm, &b);
    expect_status(b.data, b.size, want, offset);
    mcb_free(&b);
}

static void assert_near(const float *got, const float *want, int n, float tol)
{
    for (int i = 0; i < n; i++)
        cr_assert(fabsf(got[i] - want[i]) <= tol, "[%d] %g vs %g", i, (double)got[i], (double)want[i]);
}

static const float identity16[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

/* Writes once so the builder records where each element lands (the *_at
 * fields an expected offset is computed from). */
static void place(semb_model *sm)
{
    mcb_buf b;
    bytes_of(sm, &b);
    mcb_free(&b);
}

static semb_model *sample(enum semb_sample_kind kind, enum semb_layout layout)
{
    semb_model *sm = semb_sample(kind, layout);
    cr_assert_not_null(sm);
    place(sm);
    return sm;
}

/* ---- what valid files become ---- */

Test(loader_semodel, static_2018_mesh_material_and_layout)
{
    mcl_model *m = load_sample(SEMB_STATIC, SEMB_2018);
    cr_assert_str_eq(m->layout, "2018");
    cr_assert_eq(m->mesh_count, 1);
    cr_assert_eq(m->bone_count, 0);
    cr_assert_eq(m->animation_count, 0);
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->vertex_count, 4);
    cr_assert_eq(me->index_count, 6);
    cr_assert_eq(me->uv_layer_count, 1);
    cr_assert_eq(me->influences, 0);
    /* vertex v sits at (v / 2, v % 2, 0); faces cycle through the vertices */
    const float v3[3] = {1, 1, 0};
    assert_near(&me->positions[3 * 3], v3, 3, 0);
    cr_assert_eq(me->indices[3], 1);
    cr_assert_eq(me->indices[5], 3);
    const float up[3] = {0, 0, 1}, white[4] = {1, 1, 1, 1}, uv2[2] = {0.5f, 0};
    assert_near(&me->normals[2 * 3], up, 3, 0);
    assert_near(&me->colors[1 * 4], white, 4, 0);
    assert_near(&me->uvs[2 * 2], uv2, 2, 0);
    cr_assert_eq(me->material, 0);
    cr_assert_eq(m->material_count, 1);
    cr_assert_str_eq(m->materials[0].name, "mat0");
    cr_assert_str_eq(m->materials[0].texture_path, "mat0_diffuse.png");
    mcl_free(m);
}

Test(loader_semodel, static_draft_half_normals)
{
    mcl_model *m = load_sample(SEMB_STATIC, SEMB_DRAFT);
    cr_assert_str_eq(m->layout, "draft");
    cr_assert_eq(m->mesh_count, 1);
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->vertex_count, 4);
    cr_assert_eq(me->uv_layer_count, 0);
    cr_assert_eq(me->material, -1);
    cr_assert_eq(m->material_count, 0);
    const float up[3] = {0, 0, 1};
    assert_near(&me->normals[3 * 3], up, 3, 0);
    mcl_free(m);
}

/* Sample skinned bones: a chain, globals at z = i, locals at z = 1 (root 0). */
static void check_skinned(mcl_model *m)
{
    cr_assert_eq(m->bone_count, 3);
    cr_assert_str_eq(m->bones[2].name, "bone2");
    cr_assert_eq(m->bones[0].parent, -1);
    cr_assert_eq(m->bones[2].parent, 1);
    float want[16];
    memcpy(want, identity16, sizeof want);
    want[14] = 1;
    assert_near(m->bones[1].local, want, 16, 0);
    want[14] = -2; /* model space -> bone 2 at z = 2 */
    assert_near(m->bones[2].inverse_bind, want, 16, 0);
    float g[3 * 16], skin[3 * 16];
    cr_assert_eq(mcl_evaluate_pose(m, UINT32_MAX, 0, g, skin), MCL_OK);
    cr_assert_float_eq(g[2 * 16 + 14], 2.0f, 1e-6);
    for (int b = 0; b < 3; b++) assert_near(&skin[b * 16], identity16, 16, 1e-6f);
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->influences, 2);
    cr_assert_eq(me->joints[5 * 2], 2); /* vertex 5: bone v / 4 + 1 */
    cr_assert_eq(me->joints[5 * 2 + 1], 0);
    cr_assert_float_eq(me->weights[5 * 2], 0.75f, 0);
    cr_assert_float_eq(me->weights[5 * 2 + 1], 0.25f, 0);
}

Test(loader_semodel, skinned_2018_bones_and_weights)
{
    mcl_model *m = load_sample(SEMB_SKINNED, SEMB_2018);
    check_skinned(m);
    mcl_free(m);
}

Test(loader_semodel, skinned_draft_half_weights)
{
    mcl_model *m = load_sample(SEMB_SKINNED, SEMB_DRAFT);
    check_skinned(m);
    mcl_free(m);
}

static void check_300_bones(enum semb_layout layout)
{
    semb_model *sm = sample(SEMB_SKINNED, layout);
    cr_assert_eq(semb_set_bones(sm, 300), 0);
    sm->meshes[0].bone[7 * 2] = 299; /* bone_t is u16 */
    mcl_model *m = load_ok(sm);
    cr_assert_eq(m->bone_count, 300);
    cr_assert_eq(m->bones[299].parent, 298);
    cr_assert_eq(m->meshes[0].joints[7 * 2], 299);
    float *g = malloc(300 * 16 * sizeof *g);
    cr_assert_eq(mcl_evaluate_pose(m, UINT32_MAX, 0, g, NULL), MCL_OK);
    cr_assert_float_eq(g[299 * 16 + 14], 299.0f, 1e-3);
    free(g);
    mcl_free(m);
    semb_free(sm);
}

Test(loader_semodel, bone_t_u16_both_layouts)
{
    check_300_bones(SEMB_2018);
    check_300_bones(SEMB_DRAFT);
}

Test(loader_semodel, uv_layers_2018_planar_and_material_per_mesh)
{
    mcl_model *m = load_sample(SEMB_UV_LAYERS, SEMB_2018);
    cr_assert_eq(m->mesh_count, 2);
    cr_assert_eq(m->material_count, 3);
    const mcl_mesh *me = &m->meshes[1];
    cr_assert_eq(me->uv_layer_count, 3);
    cr_assert_eq(me->material, 1); /* mesh k's layer 0 references material k */
    /* layer 2, vertex 4: (4 / 2 * 0.5, 4 % 2) */
    const float uv[2] = {1.0f, 0};
    assert_near(&me->uvs[(2 * 6 + 4) * 2], uv, 2, 0);
    mcl_free(m);
}

Test(loader_semodel, uv_layers_draft_placeholder_materials)
{
    mcl_model *m = load_sample(SEMB_UV_LAYERS, SEMB_DRAFT);
    cr_assert_eq(m->material_count, 3); /* mat_t indices 0..2 in use */
    cr_assert_str_eq(m->materials[2].name, "");
    cr_assert_eq(m->meshes[0].material, 0);
    cr_assert_eq(m->meshes[1].material, 1);
    cr_assert_null(m->meshes[1].face_materials);
    mcl_free(m);
}

Test(loader_semodel, draft_vertex_materials_that_vary_become_face_materials)
{
    semb_model *sm = sample(SEMB_UV_LAYERS, SEMB_DRAFT);
    semb_mesh *s = &sm->meshes[0];
    s->uv_material[3 * 3] = 2; /* vertex 3, layer 0; face 3 starts at vertex 3 */
    mcl_model *m = load_ok(sm);
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_not_null(me->face_materials);
    cr_assert_eq(me->face_materials[0], 0);
    cr_assert_eq(me->face_materials[3], 2);
    mcl_free(m);
    semb_free(sm);
}

Test(loader_semodel, rotated_local_bone)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_2018);
    sm->bone_flags = SEMB_LOCAL | SEMB_SCALES;
    float h = sqrtf(0.5f);
    const float q[4] = {0, 0, h, h}; /* 90 degrees about Z */
    memcpy(sm->bones[1].local_rotation, q, sizeof q);
    sm->bones[1].scale[0] = 2;
    mcl_model *m = load_ok(sm);
    /* columns: x -> 2 * (0, 1, 0), y -> (-1, 0, 0), z, translation (0, 0, 1) */
    const float want[16] = {0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1};
    assert_near(m->bones[1].local, want, 16, 1e-6f);
    /* without globals the inverse bind undoes the chained rest pose */
    float skin[3 * 16];
    cr_assert_eq(mcl_evaluate_pose(m, UINT32_MAX, 0, NULL, skin), MCL_OK);
    for (int b = 0; b < 3; b++) assert_near(&skin[b * 16], identity16, 16, 1e-5f);
    mcl_free(m);
    semb_free(sm);
}

Test(loader_semodel, global_only_bones_derive_locals)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_2018);
    sm->bone_flags = SEMB_GLOBAL;
    float h = sqrtf(0.5f);
    const float q[4] = {0, 0, h, h};
    memcpy(sm->bones[1].global_rotation, q, sizeof q); /* bone 1 turned, at (0, 0, 1) */
    sm->bones[2].global_position[0] = 3;               /* bone 2 at (3, 0, 2), not turned */
    mcl_model *m = load_ok(sm);
    /* bone 2 relative to bone 1: offset (3, 0, 1) seen from a frame turned
     * 90 degrees about Z is (0, -3, 1), and it turns back by -90 degrees */
    const float want[16] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, -3, 1, 1};
    assert_near(m->bones[2].local, want, 16, 1e-6f);
    float g[3 * 16], skin[3 * 16];
    cr_assert_eq(mcl_evaluate_pose(m, UINT32_MAX, 0, g, skin), MCL_OK);
    cr_assert_float_eq(g[2 * 16 + 12], 3.0f, 1e-6);
    for (int b = 0; b < 3; b++) assert_near(&skin[b * 16], identity16, 16, 1e-5f);
    mcl_free(m);
    semb_free(sm);
}

Test(loader_semodel, no_bone_transforms_is_identity)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_DRAFT);
    sm->bone_flags = 0;
    mcl_model *m = load_ok(sm);
    for (int b = 0; b < 3; b++) {
        assert_near(m->bones[b].local, identity16, 16, 0);
        assert_near(m->bones[b].inverse_bind, identity16, 16, 0);
    }
    mcl_free(m);
    semb_free(sm);
}

Test(loader_semodel, huge_positions_stay_finite)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_2018);
    sm->bone_flags = SEMB_LOCAL;
    for (int b = 0; b < 3; b++) sm->bones[b].local_position[0] = 3e38f;
    mcl_model *m = load_ok(sm); /* the chained inverse saturates instead of overflowing */
    cr_assert(isfinite(m->bones[2].inverse_bind[12]));
    mcl_free(m);
    semb_free(sm);
}

Test(loader_semodel, warnings_are_accepted)
{
    semb_model *sm = sample(SEMB_UV_LAYERS, SEMB_2018);
    sm->mesh_flags &= (uint8_t)~SEMB_UVSET; /* references without UVs */
    sm->reserved[0] = 7;
    sm->materials[1].simple = 2;
    mcl_model *m = load_ok(sm);
    cr_assert_eq(m->meshes[0].uv_layer_count, 0);
    cr_assert_eq(m->meshes[1].material, 1);
    cr_assert_str_eq(m->materials[1].texture_path, "mat1_diffuse.png");
    mcl_free(m);
    semb_free(sm);
}

Test(loader_semodel, counts_drive_the_blocks_not_flags)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_2018);
    sm->data_flags &= (uint8_t)~SEMB_BONE; /* boneCount 3, flag clear: still read */
    mcl_model *m = load_ok(sm);
    cr_assert_eq(m->bone_count, 3);
    mcl_free(m);
    semb_free(sm);
}

/* docs/formats/semodel.md: per vertex a u32 delta count and its (u32 shape, float x, y,
 * z) records, to the end of the file. Tail offsets: v0's count 21, its
 * record 25; v1's count 41; v2's 45; v3's 49; 53 bytes in all. */
Test(loader_semodel, seblend_deltas_checked)
{
    static const semb_delta d = {0, 0, {0.5f, 0, 0}};
    semb_model *sm = sample(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_seblend(sm, 1, "open", 5, &d, 1), 0);
    cr_assert_eq(sm->tail_size, 53);
    mcl_free(load_ok(sm));
    mcb_buf b;
    bytes_of(sm, &b);
    size_t tail = (size_t)sm->tail_at;
    expect_status(b.data, b.size - 1, MCL_ERR_TRUNCATED, tail + 49); /* v3's count cut short */
    mcb_put_u32(&b, tail + 25, 1); /* shape 1 of 1 */
    expect_status(b.data, b.size, MCL_ERR_RANGE, tail + 25);
    mcb_put_u32(&b, tail + 25, 0);
    mcb_put_f32(&b, tail + 33, NAN);
    expect_status(b.data, b.size, MCL_ERR_VALUE, tail + 29);
    mcb_put_f32(&b, tail + 33, 0.0f);
    mcb_u32(&b, 0); /* 4 bytes over */
    expect_status(b.data, b.size, MCL_ERR_SIZE, tail + 53);
    mcb_free(&b);
    semb_free(sm);
}

Test(loader_semodel, seblend_and_custom_trailers)
{
    /* 2 names, then a delta count of 0 for each of the 4 vertices */
    static const uint8_t seblend[16 + 6 + 16] = {'S', 'E', 'B', 'l', 'e', 'n', 'd', '\n', 2, 0, 0, 0, 0, 0, 0, 0,
                                                 's', 'm', 0, 'b', 'l', 0};
    semb_model *sm = sample(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_tail(sm, seblend, sizeof seblend), 0);
    mcl_free(load_ok(sm));
    /* a name that runs to the end of the file */
    cr_assert_eq(semb_set_tail(sm, seblend, 20), 0);
    mcb_buf b;
    bytes_of(sm, &b);
    expect_status(b.data, b.size, MCL_ERR_TRUNCATED, sm->tail_at + 19);
    mcb_free(&b);
    /* CUSTOM announces bytes no layout defines */
    sm->data_flags |= SEMB_CUSTOM_2018;
    cr_assert_eq(semb_set_tail(sm, "anything", 8), 0);
    mcl_free(load_ok(sm));
    semb_free(sm);
}

Test(loader_semodel, draft_undefined_blocks_accept_what_follows)
{
    semb_model *sm = sample(SEMB_STATIC, SEMB_DRAFT);
    cr_assert_eq(semb_set_tail(sm, "col", 3), 0);
    place(sm);
    expect_model(sm, MCL_ERR_SIZE, sm->end_at - 3);
    sm->data_flags |= SEMB_COLLISION_DRAFT;
    sm->col_count = 1;
    mcl_free(load_ok(sm));
    semb_free(sm);
}

/* ---- hostile inputs ---- */

Test(loader_semodel, every_truncation_is_truncated)
{
    const enum semb_layout layouts[2] = {SEMB_2018, SEMB_DRAFT};
    const enum semb_sample_kind kinds[3] = {SEMB_STATIC, SEMB_SKINNED, SEMB_UV_LAYERS};
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < 3; k++) {
            semb_model *sm = sample(kinds[k], layouts[l]);
            mcb_buf b;
            bytes_of(sm, &b);
            for (size_t n = 0; n < b.size; n++) {
                mcl_model *m = NULL;
                mcl_error err;
                mcl_status s = mcl_load(MCL_FORMAT_SEMODEL, b.data, n, NULL, &m, &err);
                cr_assert_eq(s, MCL_ERR_TRUNCATED, "layout %d kind %d size %zu: %s (%s)", l, k, n,
                             mcl_status_name(s), err.reason);
                cr_assert(err.offset <= n);
            }
            mcb_free(&b);
            semb_free(sm);
        }
}

Test(loader_semodel, header_field_truncation_offsets)
{
    semb_model *sm = sample(SEMB_STATIC, SEMB_2018);
    mcb_buf b;
    bytes_of(sm, &b);
    expect_status(b.data, 3, MCL_ERR_TRUNCATED, 0);  /* inside the magic */
    expect_status(b.data, 8, MCL_ERR_TRUNCATED, 7);  /* inside the version */
    expect_status(b.data, 10, MCL_ERR_TRUNCATED, 9); /* inside headerSize */
    expect_status(b.data, 28, MCL_ERR_TRUNCATED, 11); /* inside the 2018 header */
    mcb_free(&b);
    semb_free(sm);
}

Test(loader_semodel, magic_version_header_size)
{
    semb_model *sm = sample(SEMB_STATIC, SEMB_2018);
    sm->magic[2] = 'm';
    expect_model(sm, MCL_ERR_MAGIC, 0);
    sm->magic[2] = 'M';
    sm->version = 2;
    expect_model(sm, MCL_ERR_VERSION, 7);
    sm->version = 1;
    sm->header_size = 0x18;
    expect_model(sm, MCL_ERR_VERSION, 9);
    semb_free(sm);
}

Test(loader_semodel, flags)
{
    semb_model *sm = sample(SEMB_STATIC, SEMB_2018);
    sm->data_flags |= 0x10;
    expect_model(sm, MCL_ERR_RANGE, 11);
    sm->data_flags = 0;
    expect_model(sm, MCL_ERR_STRUCTURE, 11);
    sm->data_flags = SEMB_CUSTOM_2018; /* the custom block is no data block */
    expect_model(sm, MCL_ERR_STRUCTURE, 11);
    sm->data_flags = SEMB_MESH | SEMB_MATERIALS_2018;
    sm->mesh_flags |= 0x20;
    expect_model(sm, MCL_ERR_RANGE, 13);
    semb_free(sm);
    sm = sample(SEMB_STATIC, SEMB_DRAFT);
    sm->bone_flags = 0x08;
    expect_model(sm, MCL_ERR_RANGE, 15);
    semb_free(sm);
}

Test(loader_semodel, huge_counts_in_a_tiny_file)
{
    semb_model *sm = semb_new(SEMB_2018);
    sm->data_flags = SEMB_BONE;
    sm->bone_count = 0xFFFFFFFFu;
    expect_model(sm, MCL_ERR_TRUNCATED, 29);
    sm->data_flags = SEMB_MESH;
    sm->bone_count = 0;
    sm->mesh_count = 0xFFFFFFFFu;
    expect_model(sm, MCL_ERR_TRUNCATED, 29);
    sm->data_flags = SEMB_MATERIALS_2018;
    sm->mesh_count = 0;
    sm->mat_count = 0x80000000u;
    expect_model(sm, MCL_ERR_TRUNCATED, 29);
    semb_free(sm);
    sm = sample(SEMB_STATIC, SEMB_DRAFT);
    sm->meshes[0].vertex_count = 0xFFFFFFFFu;
    expect_model(sm, MCL_ERR_TRUNCATED, sm->meshes[0].at);
    semb_free(sm);
    sm = sample(SEMB_STATIC, SEMB_2018);
    sm->meshes[0].face_count = 0x7FFFFFFFu;
    expect_model(sm, MCL_ERR_TRUNCATED, sm->meshes[0].at);
    static const uint8_t seblend[20] = {'S', 'E', 'B', 'l', 'e', 'n', 'd', '\n', 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                        0xFF, 0xFF, 'a', 0, 'b', 0};
    sm->meshes[0].face_count = 2;
    cr_assert_eq(semb_set_tail(sm, seblend, sizeof seblend), 0);
    place(sm);
    expect_model(sm, MCL_ERR_TRUNCATED, sm->tail_at + 8);
    semb_free(sm);
}

Test(loader_semodel, memory_limit)
{
    semb_model *sm = sample(SEMB_UV_LAYERS, SEMB_2018);
    mcb_buf b;
    bytes_of(sm, &b);
    mcl_limits lim = mcl_limits_default();
    lim.max_alloc_bytes = 256;
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_eq(mcl_load(MCL_FORMAT_SEMODEL, b.data, b.size, &lim, &m, &err), MCL_ERR_LIMIT);
    cr_assert_null(m);
    mcb_free(&b);
    semb_free(sm);
}

Test(loader_semodel, bone_hierarchy)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_2018);
    sm->bones[1].parent = 1; /* a one-bone cycle */
    expect_model(sm, MCL_ERR_STRUCTURE, sm->bones[1].at + 1);
    sm->bones[1].parent = 0;
    sm->bones[0].parent = 2; /* forward: 0 -> 2 -> 1 -> 0 would be a cycle */
    expect_model(sm, MCL_ERR_STRUCTURE, sm->bones[0].at + 1);
    sm->bones[0].parent = 3;
    expect_model(sm, MCL_ERR_RANGE, sm->bones[0].at + 1);
    sm->bones[0].parent = -2;
    expect_model(sm, MCL_ERR_RANGE, sm->bones[0].at + 1);
    semb_free(sm);
}

Test(loader_semodel, bone_values)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_DRAFT);
    sm->bones[1].global_position[0] = NAN;
    expect_model(sm, MCL_ERR_VALUE, sm->bones[1].at + 5);
    sm->bones[1].global_position[0] = 0;
    sm->bones[2].local_rotation[3] = 0.5f;
    expect_model(sm, MCL_ERR_VALUE, sm->bones[2].at + 5 + 28 + 12);
    sm->bones[2].local_rotation[3] = 1;
    sm->bones[1].scale[1] = 0;
    expect_model(sm, MCL_ERR_VALUE, sm->bones[1].at + 5 + 56);
    sm->bones[1].scale[1] = 1;
    strcpy(sm->bones[2].name, "");
    expect_model(sm, MCL_ERR_VALUE, sm->bones[2].name_at);
    strcpy(sm->bones[2].name, "b\xC0\x80"); /* overlong NUL */
    expect_model(sm, MCL_ERR_VALUE, sm->bones[2].name_at + 1);
    strcpy(sm->bones[2].name, "b\xED\xA0\x80"); /* a surrogate */
    expect_model(sm, MCL_ERR_VALUE, sm->bones[2].name_at + 1);
    strcpy(sm->bones[2].name, "b\xF0\x9F\x98\x80"); /* U+1F600 is fine */
    mcl_free(load_ok(sm));
    semb_free(sm);
}

Test(loader_semodel, out_of_range_indices)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_2018);
    sm->meshes[0].face[3][1] = 8;
    expect_model(sm, MCL_ERR_RANGE, sm->meshes[0].faces_at + 3 * 3 + 1);
    sm->meshes[0].face[3][1] = 4;
    sm->meshes[0].bone[5 * 2 + 1] = 3; /* weight 0.25 on bone 3 of 3 */
    expect_model(sm, MCL_ERR_RANGE, sm->meshes[0].weights_at + 5 * 2 * 5);
    semb_free(sm);
    sm = sample(SEMB_UV_LAYERS, SEMB_2018);
    sm->meshes[1].material[2] = 3;
    expect_model(sm, MCL_ERR_RANGE, sm->meshes[1].materials_at + 8);
    sm->meshes[1].material[2] = -1; /* none */
    mcl_free(load_ok(sm));
    semb_free(sm);
    sm = sample(SEMB_UV_LAYERS, SEMB_DRAFT);
    sm->meshes[0].uv_material[2 * 3 + 1] = 3;
    expect_model(sm, MCL_ERR_RANGE, semb_draft_at(sm, 0, 2, SEMB_F_MAT) + 1);
    semb_free(sm);
}

Test(loader_semodel, vertex_values)
{
    semb_model *sm = sample(SEMB_STATIC, SEMB_DRAFT);
    sm->meshes[0].normal[2][2] = INFINITY; /* binary16 0x7C00 */
    expect_model(sm, MCL_ERR_VALUE, semb_draft_at(sm, 0, 2, SEMB_F_NORMAL));
    sm->meshes[0].normal[2][2] = 5.96e-8f; /* the least subnormal: not unit */
    expect_model(sm, MCL_ERR_VALUE, semb_draft_at(sm, 0, 2, SEMB_F_NORMAL));
    semb_free(sm);
    sm = sample(SEMB_STATIC, SEMB_2018);
    sm->meshes[0].normal[1][2] = 0.9f;
    expect_model(sm, MCL_ERR_VALUE, sm->meshes[0].normals_at + 12);
    sm->meshes[0].normal[1][2] = 1;
    sm->meshes[0].position[3][0] = -INFINITY;
    expect_model(sm, MCL_ERR_VALUE, sm->meshes[0].positions_at + 36);
    semb_free(sm);
}

Test(loader_semodel, weights)
{
    semb_model *sm = sample(SEMB_SKINNED, SEMB_2018);
    sm->meshes[0].weight[2 * 2] = 1.5f;
    sm->meshes[0].weight[2 * 2 + 1] = -0.5f;
    expect_model(sm, MCL_ERR_VALUE, sm->meshes[0].weights_at + 2 * 2 * 5);
    sm->meshes[0].weight[2 * 2] = 0.7f;
    sm->meshes[0].weight[2 * 2 + 1] = 0.25f;
    expect_model(sm, MCL_ERR_VALUE, sm->meshes[0].weights_at + 2 * 2 * 5);
    semb_free(sm);
    /* binary16 weights: 0.7 + 0.3 round to 1.00012, within the half tolerance */
    sm = sample(SEMB_SKINNED, SEMB_DRAFT);
    sm->meshes[0].weight[4 * 2] = 0.7f;
    sm->meshes[0].weight[4 * 2 + 1] = 0.3f;
    mcl_free(load_ok(sm));
    sm->meshes[0].weight[4 * 2 + 1] = 0.25f;
    expect_model(sm, MCL_ERR_VALUE, semb_draft_at(sm, 0, 4, SEMB_F_BONES));
    semb_free(sm);
}

Test(loader_semodel, trailing_bytes)
{
    semb_model *sm = sample(SEMB_STATIC, SEMB_2018);
    cr_assert_eq(semb_set_tail(sm, "\0\0\0\0", 4), 0);
    place(sm);
    expect_model(sm, MCL_ERR_SIZE, sm->tail_at);
    cr_assert_eq(semb_set_tail(sm, "SEBle", 5), 0); /* too short to be SEBlend */
    expect_model(sm, MCL_ERR_SIZE, sm->tail_at);
    semb_free(sm);
}

Test(loader_semodel, unterminated_strings)
{
    semb_model *sm = sample(SEMB_STATIC, SEMB_2018);
    mcb_buf b;
    bytes_of(sm, &b);
    /* cut the NUL of material 0's specular map: the last byte */
    expect_status(b.data, b.size - 1, MCL_ERR_TRUNCATED, b.size - 1 - strlen("mat0_specular.png"));
    mcb_free(&b);
    semb_free(sm);
}
