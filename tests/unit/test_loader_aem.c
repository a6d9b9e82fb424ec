/* The AEM reference loader (conformance/loaders/aem.c): what it builds from
 * valid files, and the status it rejects hostile ones with. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aem_builder.h"
#include "mcl.h"
#include "support.h"

Test(loader_aem, empty_file_rejected)
{
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_neq(mcl_load(MCL_FORMAT_AEM, "", 0, NULL, &m, &err), MCL_OK);
    cr_assert_null(m);
    cr_assert_neq(err.reason[0], '\0');
}

static mcb_buf write_model(aemb_model *am)
{
    mcb_buf b = {0};
    aemb_write(am, &b);
    cr_assert(!b.oom);
    return b;
}

/* Loads the model (freeing it) and expects success: returns the model. */
static mcl_model *load_ok(aemb_model *am)
{
    mcb_buf b = write_model(am);
    mcl_model *m = loader_accepts(MCL_FORMAT_AEM, b.data, b.size);
    mcb_free(&b);
    return m;
}

static void load_buf_expect(const void *data, size_t size, mcl_status want, uint64_t offset)
{
    loader_rejects(MCL_FORMAT_AEM, data, size, want, offset);
}

/* Writes the model, frees it, and expects a rejection at an offset. */
static void load_fail(aemb_model *am, mcl_status want, uint64_t offset)
{
    mcb_buf b = write_model(am);
    load_buf_expect(b.data, b.size, want, offset);
    mcb_free(&b);
    aemb_free(am);
}

static void assert_near(const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++) cr_assert(fabsf(got[i] - want[i]) < 1e-5f, "[%d] %g vs %g", i, got[i], want[i]);
}

static aemb_model *sample(void)
{
    aemb_model *am = aemb_sample(AEMB_SKINNED_ANIMATED);
    cr_assert_not_null(am);
    return am;
}

/* ---- what valid files become ---- */

Test(loader_aem, sample_meshes_and_materials)
{
    aemb_model *am = sample();
    mcl_model *m = load_ok(am);
    cr_assert_str_eq(m->layout, "aem1");
    cr_assert_eq(m->mesh_count, 2);
    cr_assert_eq(m->material_count, 2);
    cr_assert_eq(m->bone_count, 3);
    cr_assert_eq(m->animation_count, 1);
    /* mesh 1 uses vertices 4..7 through indices 4 5 6 4 6 7: compacted. */
    const mcl_mesh *me = &m->meshes[1];
    cr_assert_eq(me->vertex_count, 4);
    cr_assert_eq(me->index_count, 6);
    const uint32_t want_idx[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; k++) cr_assert_eq(me->indices[k], want_idx[k]);
    const float p5[3] = {1, -1, 2}; /* vertex 5 of the file is the mesh's second */
    assert_near(&me->positions[3], p5, 3);
    const float n5[3] = {0, 0, 1};
    assert_near(&me->normals[3], n5, 3);
    cr_assert_eq(me->uv_layer_count, 1);
    cr_assert_float_eq(me->uvs[2], 1.0f, 1e-6);
    cr_assert_eq(me->influences, 4);
    cr_assert_eq(me->joints[0], 2); /* bone index i / 4 + 1 */
    cr_assert_eq(me->joints[1], 0);
    cr_assert_eq(me->joints[2], 0); /* -1 slot: joint 0, weight 0 */
    cr_assert_float_eq(me->weights[0], 0.75f, 1e-6);
    cr_assert_float_eq(me->weights[2], 0.0f, 1e-6);
    cr_assert_eq(me->rigid_bone, 1); /* the extra bone */
    cr_assert_eq(me->material, 1);
    cr_assert_eq(me->primitive, MCL_TRIANGLES);
    cr_assert_str_eq(m->materials[0].texture_path, "albedo.png");
    cr_assert_null(m->materials[1].texture_path); /* 255: no texture */
    cr_assert_float_eq(m->materials[0].base_color[3], 1.0f, 1e-6);
    mcl_free(m);
    aemb_free(am);
}

Test(loader_aem, sample_skeleton_rest_pose)
{
    aemb_model *am = sample();
    mcl_model *m = load_ok(am);
    /* Inverse bind of bone b translates z by -b: the bind pose puts bone b
     * at z = b, so each child sits 1 above its parent. */
    cr_assert_eq(m->bones[0].parent, -1);
    cr_assert_eq(m->bones[2].parent, 1);
    cr_assert_str_eq(m->bones[2].name, "");
    const float local[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1};
    assert_near(m->bones[2].local, local, 16);
    cr_assert_float_eq(m->bones[2].inverse_bind[14], -2.0f, 1e-6);
    float g[48], s[48];
    cr_assert_eq(mcl_evaluate_pose(m, UINT32_MAX, 0, g, s), MCL_OK);
    cr_assert_float_eq(g[2 * 16 + 14], 2.0f, 1e-5);
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int b = 0; b < 3; b++) assert_near(&s[b * 16], id, 16); /* rest: skin = identity */
    mcl_free(m);
    aemb_free(am);
}

Test(loader_aem, sample_animation_pose_in_seconds)
{
    aemb_model *am = sample();
    mcl_model *m = load_ok(am);
    const mcl_animation *an = &m->animations[0];
    cr_assert_str_eq(an->name, "wave");
    cr_assert_float_eq(an->duration, 1.0, 1e-9);
    cr_assert_eq(an->track_count, 9);
    const mcl_track *t = &an->tracks[2 * 3 + 1]; /* bone 2, rotation */
    cr_assert_eq(t->bone, 2);
    cr_assert_eq(t->kind, MCL_TRACK_ROTATION);
    cr_assert_eq(t->interpolation, MCL_LINEAR);
    cr_assert_eq(t->key_count, 2);
    cr_assert_float_eq(t->times[1], 1.0f, 1e-6);
    cr_assert_float_eq(t->values[3], 1.0f, 1e-6);
    /* Position keys move every bone's local z from 0 (t=0) to 1 (t=1):
     * at t = 0.5 the chain stacks 0.5 per bone. */
    float g[48];
    cr_assert_eq(mcl_evaluate_pose(m, 0, 0.5, g, NULL), MCL_OK);
    cr_assert_float_eq(g[0 * 16 + 14], 0.5f, 1e-5);
    cr_assert_float_eq(g[1 * 16 + 14], 1.0f, 1e-5);
    cr_assert_float_eq(g[2 * 16 + 14], 1.5f, 1e-5);
    mcl_free(m);
    aemb_free(am);
}

Test(loader_aem, static_model_unskinned)
{
    aemb_model *am = aemb_sample(AEMB_STATIC);
    cr_assert_not_null(am);
    mcl_model *m = load_ok(am);
    cr_assert_eq(m->bone_count, 0);
    cr_assert_eq(m->animation_count, 0);
    cr_assert_eq(m->meshes[0].influences, 0);
    cr_assert_eq(m->meshes[0].rigid_bone, -1);
    mcl_free(m);
    aemb_free(am);
}

Test(loader_aem, zero_counts_header_only)
{
    aemb_model *am = sample();
    for (int s = 0; s < AEMB_SECTIONS; s++) cr_assert_eq(aemb_resize(am, (enum aemb_section)s, 0), 0);
    mcl_model *m = load_ok(am);
    cr_assert_eq(m->mesh_count + m->material_count + m->bone_count + m->animation_count, 0);
    mcl_free(m);
    aemb_free(am);
}

Test(loader_aem, exporter_sentinels_and_garbage_accepted)
{
    aemb_model *am = sample();
    am->materials[0].texture[0] = -1;  /* the exporter's sentinel */
    strcpy(am->animations[0].name, "");
    memset(am->animations[0].name + 1, 0xcc, 127); /* garbage after the NUL */
    memset(am->bones[1].padding, 0xcc, 12);
    mcl_model *m = load_ok(am);
    cr_assert_null(m->materials[0].texture_path);
    cr_assert_str_eq(m->animations[0].name, "");
    mcl_free(m);
    aemb_free(am);
}

Test(loader_aem, texture_255_stays_sentinel_with_256_textures)
{
    aemb_model *am = sample();
    cr_assert_eq(aemb_resize(am, AEMB_TEXTURES, 256), 0);
    for (int t = 2; t < 256; t++) strcpy(am->textures[t], "t.png");
    am->materials[0].texture[0] = 255;
    mcl_model *m = load_ok(am);
    cr_assert_null(m->materials[0].texture_path);
    mcl_free(m);
    aemb_free(am);
}

Test(loader_aem, overlapping_meshes_share_nothing)
{
    aemb_model *am = sample();
    cr_assert_eq(aemb_resize(am, AEMB_MESHES, 50), 0);
    for (int k = 0; k < 50; k++) am->meshes[k] = (aemb_mesh){0, 12, 0};
    mcl_model *m = load_ok(am);
    cr_assert_eq(m->mesh_count, 50);
    cr_assert_eq(m->meshes[49].vertex_count, 8);
    cr_assert_eq(m->meshes[49].indices[11], 7);
    mcl_free(m);
    aemb_free(am);
}

/* A bind scale of 1e-39 is invertible but its inverse does not fit a
 * float: the bone rests at identity, the file stays valid. */
Test(loader_aem, extreme_bind_scale_rests_at_identity)
{
    aemb_model *am = sample();
    am->bones[0].inverse_bind[0] = am->bones[0].inverse_bind[5] = am->bones[0].inverse_bind[10] = 1e-39f;
    mcl_model *m = load_ok(am);
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    assert_near(m->bones[0].local, id, 16);
    mcl_free(m);
    aemb_free(am);
}

/* ---- hostile input ---- */

Test(loader_aem, truncation_at_every_header_byte)
{
    aemb_model *am = sample();
    mcb_buf b = write_model(am);
    aemb_free(am);
    for (size_t len = 0; len < 40; len++) load_buf_expect(b.data, len, MCL_ERR_TRUNCATED, len);
    /* ... and at every later byte: the counts fix the size. */
    for (size_t len = 40; len < b.size; len++) load_buf_expect(b.data, len, MCL_ERR_TRUNCATED, len);
    mcb_free(&b);
}

Test(loader_aem, magic_and_version)
{
    load_buf_expect("AEX", 3, MCL_ERR_MAGIC, 0);
    load_buf_expect("B", 1, MCL_ERR_MAGIC, 0);
    aemb_model *am = sample();
    am->version = 2;
    load_fail(am, MCL_ERR_VERSION, 3);
}

Test(loader_aem, huge_counts_in_tiny_file)
{
    uint8_t data[100] = {'A', 'E', 'M', 1};
    for (int s = 0; s < 9; s++) memset(&data[4 + 4 * s], 0xff, 4);
    load_buf_expect(data, sizeof data, MCL_ERR_TRUNCATED, 100);
    memset(&data[4], 0, 36);
    memset(&data[36], 0xff, 4); /* keyframes only: 2^32 * 20 bytes */
    load_buf_expect(data, sizeof data, MCL_ERR_TRUNCATED, 100);
}

Test(loader_aem, trailing_byte)
{
    aemb_model *am = sample();
    mcb_buf b = write_model(am);
    aemb_free(am);
    mcb_u8(&b, 0);
    load_buf_expect(b.data, b.size, MCL_ERR_SIZE, b.size - 1);
    mcb_free(&b);
}

Test(loader_aem, vertex_values)
{
    aemb_model *am = sample();
    am->vertices[3].normal[0] = NAN;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_VERTICES, 3) + 12);
    am = sample();
    am->vertices[2].normal[2] = 0.9f;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_VERTICES, 2) + 12);
    am = sample();
    am->vertices[1].tangent[0] = 0.5f;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_VERTICES, 1) + 24);
    am = sample();
    am->vertices[0].weight[0] = 0.7f; /* sum 0.95 */
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_VERTICES, 0) + 72);
    am = sample();
    am->vertices[0].weight[3] = 0.1f; /* on a -1 slot */
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_VERTICES, 0) + 84);
}

Test(loader_aem, vertex_bone_indices)
{
    aemb_model *am = sample();
    am->vertices[4].bone[2] = 3;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_VERTICES, 4) + 64);
    am = sample();
    am->vertices[0].bone[1] = am->vertices[0].bone[0];
    load_fail(am, MCL_ERR_STRUCTURE, aemb_offset(am, AEMB_VERTICES, 0) + 60);
    am = sample();
    am->vertices[0].extra_bone = INT32_MIN;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_VERTICES, 0) + 88);
}

Test(loader_aem, index_and_mesh_ranges)
{
    aemb_model *am = sample();
    am->indices[4] = 8;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_INDICES, 4));
    am = sample();
    am->meshes[1].first_index = UINT32_MAX; /* first + count wraps in 32 bits */
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_MESHES, 1));
    am = sample();
    am->meshes[1].index_count = 5;
    load_fail(am, MCL_ERR_STRUCTURE, aemb_offset(am, AEMB_MESHES, 1) + 4);
    am = sample();
    am->meshes[1].material = 2;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_MESHES, 1) + 8);
    am = sample();
    am->materials[0].texture[1] = -2;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_MATERIALS, 0) + 4);
}

Test(loader_aem, strings)
{
    aemb_model *am = sample();
    memset(am->textures[1], 'x', 128);
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_TEXTURES, 1));
    am = sample();
    am->textures[0][0] = '\0';
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_TEXTURES, 0));
    am = sample();
    memset(am->animations[0].name, 'a', 128);
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_ANIMATIONS, 0));
}

Test(loader_aem, bone_hierarchy_cycles_and_ranges)
{
    aemb_model *am = sample();
    am->bones[1].parent = 1; /* a self-loop: libaem walks it forever */
    load_fail(am, MCL_ERR_STRUCTURE, aemb_offset(am, AEMB_BONES, 1) + 64);
    am = sample();
    am->bones[0].parent = 1; /* with bone 1 -> 0: a two-bone cycle */
    load_fail(am, MCL_ERR_STRUCTURE, aemb_offset(am, AEMB_BONES, 0) + 64);
    am = sample();
    am->bones[2].parent = 3;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_BONES, 2) + 64);
    am = sample();
    am->bones[2].parent = -2;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_BONES, 2) + 64);
}

Test(loader_aem, bone_matrices)
{
    aemb_model *am = sample();
    am->bones[0].inverse_bind[5] = INFINITY;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_BONES, 0) + 20);
    am = sample();
    am->bones[2].inverse_bind[3] = 0.5f;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_BONES, 2) + 12);
    am = sample();
    am->bones[1].inverse_bind[10] = 0; /* z axis collapsed */
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_BONES, 1));
}

Test(loader_aem, animations_and_sequences)
{
    aemb_model *am = sample();
    am->animations[0].duration = 0;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_ANIMATIONS, 0) + 128);
    am = sample();
    am->animations[0].sequence_index = UINT32_MAX; /* + 3 bones wraps in 32 bits */
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_ANIMATIONS, 0) + 132);
    am = sample();
    am->sequences[2].first[2] = 17;
    load_fail(am, MCL_ERR_RANGE, aemb_offset(am, AEMB_SEQUENCES, 2) + 16);
    am = sample();
    am->sequences[1].count[1] = 0;
    load_fail(am, MCL_ERR_STRUCTURE, aemb_offset(am, AEMB_SEQUENCES, 1) + 12);
}

Test(loader_aem, keyframes)
{
    aemb_model *am = sample();
    am->keys[3].x = NAN;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_KEYFRAMES, 3) + 4);
    am = sample();
    am->keys[1].time = 1.5f; /* duration 1 */
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_KEYFRAMES, 1));
    am = sample();
    am->keys[1].time = 0; /* equal times divide by zero in libaem */
    load_fail(am, MCL_ERR_STRUCTURE, aemb_offset(am, AEMB_KEYFRAMES, 1));
    am = sample();
    am->keys[0].w = 1;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_KEYFRAMES, 0) + 16);
    am = sample();
    am->keys[2].w = 0.5f;
    load_fail(am, MCL_ERR_VALUE, aemb_offset(am, AEMB_KEYFRAMES, 2) + 4);
}

/* Animations sharing sequences multiply the tracks: the memory limit
 * bounds them before any key is read. */
Test(loader_aem, memory_limit_respected)
{
    aemb_model *am = sample();
    cr_assert_eq(aemb_resize(am, AEMB_ANIMATIONS, 2000), 0);
    for (int a = 1; a < 2000; a++) am->animations[a] = am->animations[0];
    mcb_buf b = write_model(am);
    aemb_free(am);
    mcl_limits lim = mcl_limits_default();
    lim.max_alloc_bytes = 64 * 1024;
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_eq(mcl_load(MCL_FORMAT_AEM, b.data, b.size, &lim, &m, &err), MCL_ERR_LIMIT);
    cr_assert_null(m);
    cr_assert_eq(mcl_load(MCL_FORMAT_AEM, b.data, b.size, NULL, &m, &err), MCL_OK);
    cr_assert_eq(m->animation_count, 2000);
    mcl_free(m);
    mcb_free(&b);
}
