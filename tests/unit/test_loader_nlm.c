/* The NLM reference loader (conformance/loaders/nlm.c): what it builds from
 * valid files, and the status it rejects hostile ones with. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mcl.h"
#include "nlm_builder.h"

Test(loader_nlm, empty_file_rejected)
{
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_neq(mcl_load(MCL_FORMAT_NLM, "", 0, NULL, &m, &err), MCL_OK);
    cr_assert_null(m);
    cr_assert_neq(err.reason[0], '\0');
}

/* ---- helpers ---- */

static mcb_buf write_model(const nlmb_model *nm)
{
    mcb_buf b = {0};
    nlmb_write(nm, &b);
    cr_assert(!b.oom);
    return b;
}

/* Loads (and exercises) the bytes; the model stays loaded on success. */
static mcl_status load_bytes(const uint8_t *data, size_t size, mcl_model **out, mcl_error *err)
{
    *out = NULL;
    mcl_status s = mcl_load(MCL_FORMAT_NLM, data, size, NULL, out, err);
    if (s == MCL_OK) cr_assert_eq(mcl_exercise(*out), MCL_OK);
    return s;
}

static mcl_model *load_ok(const nlmb_model *nm)
{
    mcb_buf b = write_model(nm);
    mcl_model *m;
    mcl_error err;
    mcl_status s = load_bytes(b.data, b.size, &m, &err);
    cr_assert_eq(s, MCL_OK, "rejected: %s at %llu: %s", mcl_status_name(s),
                 (unsigned long long)err.offset, err.reason);
    mcb_free(&b);
    return m;
}

/* Asserts the exact status and offset of a rejection. */
static void expect_reject_bytes(const mcb_buf *b, mcl_status want, uint64_t offset)
{
    mcl_model *m;
    mcl_error err;
    mcl_status s = load_bytes(b->data, b->size, &m, &err);
    mcl_free(m);
    cr_assert_eq(s, want, "status %s (expected %s): %s", mcl_status_name(s), mcl_status_name(want),
                 err.reason);
    cr_assert_eq(err.offset, offset, "offset %llu (expected %llu): %s",
                 (unsigned long long)err.offset, (unsigned long long)offset, err.reason);
}

static void expect_reject(const nlmb_model *nm, mcl_status want, uint64_t offset)
{
    mcb_buf b = write_model(nm);
    expect_reject_bytes(&b, want, offset);
    mcb_free(&b);
}

static void assert_near(const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        cr_assert(fabsf(got[i] - want[i]) < 1e-5f, "[%d] %g vs %g", i, (double)got[i], (double)want[i]);
}

static void set_children(nlmb_node *node, int32_t a, int32_t b, uint32_t n)
{
    const int32_t c[2] = {a, b};
    cr_assert_eq(nlmb_set_children(node, c, n), 0);
}

static nlmb_model *sample(enum nlmb_sample_kind kind)
{
    nlmb_model *nm = nlmb_sample(kind);
    cr_assert_not_null(nm);
    return nm;
}

/* ---- valid files: what the model holds ---- */

Test(loader_nlm, static_textured_quad)
{
    nlmb_model *nm = sample(NLMB_STATIC_TEXTURED);
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->format, MCL_FORMAT_NLM);
    cr_assert_eq(m->mesh_count, 1);
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->vertex_count, 4);
    cr_assert_eq(me->index_count, 6);
    cr_assert_eq(me->primitive, MCL_TRIANGLES);
    cr_assert_eq(me->indices[2], 2);
    cr_assert_eq(me->indices[5], 3);
    const float p2[3] = {0.5f, 0.5f, 0.0f}, n2[3] = {0, 0, 1}, c2[4] = {1, 1, 1, 1}, uv2[2] = {1, 1};
    assert_near(&me->positions[6], p2, 3);
    assert_near(&me->normals[6], n2, 3);
    assert_near(&me->colors[8], c2, 4); /* alpha 1: the file stores RGB */
    cr_assert_eq(me->uv_layer_count, 1);
    assert_near(&me->uvs[4], uv2, 2);
    cr_assert_eq(me->influences, 0); /* static: no bones */
    cr_assert_eq(m->bone_count, 0);
    cr_assert_eq(m->animation_count, 0);
    cr_assert_eq(m->material_count, 1);
    cr_assert_eq(me->material, 0);
    const mcl_material *ma = &m->materials[0];
    cr_assert_eq(ma->texture_size, sizeof nlmb_tiny_png);
    cr_assert_eq(memcmp(ma->texture_data, nlmb_tiny_png, sizeof nlmb_tiny_png), 0);
    cr_assert_null(ma->texture_path);
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, two_meshes_without_texture_have_no_material)
{
    nlmb_model *nm = sample(NLMB_STATIC_TWO_MESHES);
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->mesh_count, 2);
    cr_assert_eq(m->material_count, 0);
    cr_assert_eq(m->meshes[0].material, -1);
    cr_assert_eq(m->meshes[1].vertex_count, 3);
    cr_assert_eq(m->meshes[1].indices[0], 2);
    const float c[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    assert_near(&m->meshes[1].colors[0], c, 4);
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, line_lists)
{
    nlmb_model *nm = sample(NLMB_STATIC_TWO_MESHES);
    cr_assert_eq(nlmb_resize_mesh(&nm->meshes[1], 3, 8), 0); /* keeps the 3 vertices */
    for (uint32_t i = 0; i < 8; i++) nm->meshes[1].indices[i] = i % 3;
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->meshes[1].primitive, MCL_LINES);
    cr_assert_eq(m->meshes[1].index_count, 8);
    mcl_free(m);
    /* 7 indices (a warning): the odd last index forms no line */
    nm->meshes[1].index_count = 7;
    m = load_ok(nm);
    cr_assert_eq(m->meshes[1].primitive, MCL_LINES);
    cr_assert_eq(m->meshes[1].index_count, 6);
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, skinned_skeleton_and_weights)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->bone_count, 4); /* 4 nodes, node 0 the root */
    const int32_t parents[4] = {-1, 0, 1, 1};
    for (int i = 0; i < 4; i++) cr_assert_eq(m->bones[i].parent, parents[i], "bone %d", i);
    const float local1[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.25f, 0, 1};
    assert_near(m->bones[1].local, local1, 16);
    const float inv2[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.25f, 0, 1};
    assert_near(m->bones[2].inverse_bind, inv2, 16); /* bone info 1 is node 2 */
    const mcl_mesh *me = &m->meshes[0];
    cr_assert_eq(me->influences, 4);
    /* vertex 2: slots 1 (node 2) and 0 (node 1), 0.75 / 0.25; unused slots weight 0 */
    cr_assert_eq(me->joints[8], 2);
    cr_assert_eq(me->joints[9], 1);
    cr_assert_float_eq(me->weights[8], 0.75f, 1e-7f);
    cr_assert_float_eq(me->weights[9], 0.25f, 1e-7f);
    cr_assert_float_eq(me->weights[10], 0.0f, 0.0f);
    cr_assert_eq(me->joints[12 + 0], 3); /* vertex 3: slot 2 = node 3 */
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, animation_in_ticks_and_pose)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->animation_count, 1);
    const mcl_animation *an = &m->animations[0];
    cr_assert_float_eq(an->duration, 2.0, 1e-9); /* ticks */
    cr_assert_eq(an->track_count, 9);
    cr_assert_eq(an->tracks[0].bone, 1);
    cr_assert_eq(an->tracks[0].kind, MCL_TRACK_TRANSLATION);
    cr_assert_eq(an->tracks[1].kind, MCL_TRACK_ROTATION);
    cr_assert_eq(an->tracks[2].kind, MCL_TRACK_SCALE);
    cr_assert_eq(an->tracks[1].interpolation, MCL_LINEAR);
    cr_assert_float_eq(an->tracks[1].values[3], 1.0f, 0.0f); /* x, y, z, w */
    float g[64], s[64];
    cr_assert_eq(mcl_evaluate_pose(m, 0, 1.0, g, s), MCL_OK);
    /* every channel moves its node by 0.125 in y at t = 1 tick (keys 0 and 0.25
     * at 0 and 2), replacing the node's own 0.25 */
    cr_assert_float_eq(g[16 + 13], 0.125f, 1e-6f);
    cr_assert_float_eq(g[32 + 13], 0.25f, 1e-6f);
    cr_assert_float_eq(s[32 + 13], 0.0f, 1e-6f); /* global * offset (-0.25) */
    cr_assert_eq(mcl_evaluate_pose(m, UINT32_MAX, 0, g, NULL), MCL_OK);
    cr_assert_float_eq(g[32 + 13], 0.5f, 1e-6f); /* rest: 0.25 + 0.25 */
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, rotation_keys_are_xyzw)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    nlmb_key *k = &nm->channels[0].keys[NLMB_ROTATION][1];
    k->v[0] = k->v[1] = 0;
    k->v[2] = k->v[3] = 0.70710678f; /* 90 degrees about z at t = 2 */
    mcl_model *m = load_ok(nm);
    float g[64];
    cr_assert_eq(mcl_evaluate_pose(m, 0, 2.0, g, NULL), MCL_OK);
    const float x_to_y[3] = {0, 1, 0};
    assert_near(&g[16], x_to_y, 3); /* bone 1's x axis now points along y */
    mcl_free(m);
    nlmb_free(nm);
}

/* Children listed before their parents: bones come out parents first. */
Test(loader_nlm, nodes_in_any_order_are_reordered)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    set_children(&nm->nodes[0], 3, 0, 1);
    set_children(&nm->nodes[1], 0, 0, 0);
    set_children(&nm->nodes[3], 1, 2, 2);
    mcl_model *m = load_ok(nm);
    /* breadth-first from node 0: nodes 0, 3, 1, 2 */
    const int32_t parents[4] = {-1, 0, 1, 1};
    for (int i = 0; i < 4; i++) cr_assert_eq(m->bones[i].parent, parents[i], "bone %d", i);
    cr_assert_float_eq(m->bones[1].inverse_bind[13], -0.5f, 1e-7f); /* node 3's offset */
    cr_assert_eq(m->meshes[0].joints[8], 3);                        /* slot 1 = node 2 */
    cr_assert_eq(m->animations[0].tracks[6].bone, 1);               /* channel 2 = node 3 */
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, deep_chain_needs_no_recursion)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    const uint32_t n = 5000;
    cr_assert_eq(nlmb_resize_nodes(nm, n), 0);
    for (uint32_t i = 3; i + 1 < n; i++) set_children(&nm->nodes[i], (int32_t)i + 1, 0, 1);
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->bone_count, n);
    cr_assert_eq(m->bones[n - 1].parent, (int32_t)n - 2);
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, bone_info_without_node_gets_an_identity_root)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    nm->bone_infos[2].node_id = 9; /* a warning: slot 2 is never posed */
    cr_assert_eq(nlmb_resize_channels(nm, 2), 0);
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->bone_count, 5);
    cr_assert_eq(m->bones[4].parent, -1);
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    assert_near(m->bones[4].inverse_bind, id, 16);
    assert_near(m->bones[3].inverse_bind, id, 16); /* node 3 lost its entry */
    cr_assert_eq(m->meshes[0].joints[12], 4);        /* vertex 3, slot 2 */
    mcl_free(m);
    nlmb_free(nm);
}

Test(loader_nlm, second_channel_for_a_node_is_ignored)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    cr_assert_eq(nlmb_resize_channels(nm, 4), 0);
    nlmb_channel *ch = &nm->channels[3];
    ch->node_id = 1;
    ch->bone_id = 0;
    for (int k = 0; k < NLMB_KEY_KINDS; k++) {
        cr_assert_eq(nlmb_resize_keys(ch, k, 1), 0);
        for (int j = 0; j < 4; j++) ch->keys[k][0].v[j] = k == NLMB_POSITION ? 7.0f : 1.0f;
        if (k == NLMB_ROTATION) ch->keys[k][0].v[0] = ch->keys[k][0].v[1] = ch->keys[k][0].v[2] = 0;
    }
    mcl_model *m = load_ok(nm);
    cr_assert_eq(m->animations[0].track_count, 9);
    float g[64];
    cr_assert_eq(mcl_evaluate_pose(m, 0, 2.0, g, NULL), MCL_OK);
    cr_assert_float_eq(g[16 + 13], 0.25f, 1e-6f); /* the first channel, not 7 */
    mcl_free(m);
    nlmb_free(nm);
}

/* ---- header ---- */

Test(loader_nlm, header_rules)
{
    nlmb_model *nm = sample(NLMB_STATIC_TWO_MESHES);
    memcpy(nm->magic, "MODL", 4);
    expect_reject(nm, MCL_ERR_MAGIC, 4);
    memcpy(nm->magic, "LDOM", 4);
    nm->hashless = 1;
    expect_reject(nm, MCL_ERR_VERSION, 0);
    nm->hashless = 0;
    nm->version = 3;
    expect_reject(nm, MCL_ERR_VERSION, 8);
    nm->version = 2;
    nm->animated = 2;
    expect_reject(nm, MCL_ERR_RANGE, 12);
    nm->animated = 1; /* flag set, no section */
    expect_reject(nm, MCL_ERR_TRUNCATED, nlmb_animation_offset(nm));
    nlmb_free(nm);
}

Test(loader_nlm, bytes_after_the_sections)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    mcb_buf b = write_model(nm);
    mcb_u32(&b, 0);
    expect_reject_bytes(&b, MCL_ERR_SIZE, nlmb_size(nm));
    mcb_free(&b);
    nlmb_free(nm);
    nm = sample(NLMB_STATIC_TWO_MESHES);
    nm->write_animation = 1; /* a section written, flag 0 */
    expect_reject(nm, MCL_ERR_SIZE, nlmb_animation_offset(nm));
    nlmb_free(nm);
}

/* ---- hostile sizes ---- */

/* Every cut of a valid file is TRUNCATED at or before the cut. */
Test(loader_nlm, truncation_at_every_length)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    cr_assert_eq(nlmb_set_texture(&nm->meshes[0], nlmb_tiny_png, sizeof nlmb_tiny_png), 0);
    mcb_buf b = write_model(nm);
    for (size_t cut = 0; cut < b.size; cut++) {
        mcl_model *m;
        mcl_error err;
        mcl_status s = load_bytes(b.data, cut, &m, &err);
        cr_assert_eq(s, MCL_ERR_TRUNCATED, "cut %zu: %s %s", cut, mcl_status_name(s), err.reason);
        cr_assert_leq(err.offset, cut, "cut %zu", cut);
    }
    /* the field whose record is cut is named: header at 0, mesh count at 40 */
    const size_t cuts[] = {3, 15, 20, 41};
    const uint64_t at[] = {0, 0, 16, 40};
    for (size_t i = 0; i < 4; i++) {
        mcl_model *m;
        mcl_error err;
        cr_assert_eq(load_bytes(b.data, cuts[i], &m, &err), MCL_ERR_TRUNCATED);
        cr_assert_eq(err.offset, at[i], "cut %zu: offset %llu", cuts[i], (unsigned long long)err.offset);
    }
    mcb_free(&b);
    nlmb_free(nm);
}

Test(loader_nlm, huge_counts_in_a_tiny_file)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    mcb_buf b = write_model(nm);
    struct {
        uint64_t at;
        uint32_t value;
        uint64_t error_at;
    } cases[] = {
        {40, 0xFFFFFFFFu, 40},                                                  /* mesh count */
        {nlmb_mesh_offset(nm, 0), 0x80000000u, nlmb_mesh_offset(nm, 0)},        /* vertices */
        {nlmb_mesh_offset(nm, 0) + 4, 0xFFFFFFFFu, nlmb_mesh_offset(nm, 0) + 4}, /* indices */
        {nlmb_texture_offset(nm, 0), 0xFFFFFFF0u, nlmb_texture_offset(nm, 0)},  /* texture */
        {nlmb_bone_info_offset(nm, 0) - 4, 0x10000000u, nlmb_bone_info_offset(nm, 0) - 4},
        {nlmb_channel_offset(nm, 0) - 4, 0xFFFFFFFFu, nlmb_channel_offset(nm, 0) - 4},
        {nlmb_channel_offset(nm, 1) + 12, 0xFFFFFFFFu, nlmb_channel_offset(nm, 1) + 8},
        {nlmb_node_count_offset(nm), 0x7FFFFFFFu, nlmb_node_count_offset(nm)},
        {nlmb_node_offset(nm, 1) + 68, 0xFFFFFFFFu, nlmb_node_offset(nm, 1) + 68},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mcb_buf w = write_model(nm);
        mcb_put_u32(&w, (size_t)cases[i].at, cases[i].value);
        mcl_model *m;
        mcl_error err;
        cr_assert_eq(load_bytes(w.data, w.size, &m, &err), MCL_ERR_TRUNCATED, "case %zu: %s", i, err.reason);
        cr_assert_eq(err.offset, cases[i].error_at, "case %zu: offset %llu", i, (unsigned long long)err.offset);
        mcb_free(&w);
    }
    mcb_free(&b);
    nlmb_free(nm);
}

Test(loader_nlm, memory_limit_is_respected)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    mcb_buf b = write_model(nm);
    mcl_limits lim = mcl_limits_default();
    lim.max_alloc_bytes = 256;
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_eq(mcl_load(MCL_FORMAT_NLM, b.data, b.size, &lim, &m, &err), MCL_ERR_LIMIT);
    cr_assert_null(m);
    mcb_free(&b);
    nlmb_free(nm);
}

/* ---- meshes ---- */

Test(loader_nlm, vertex_rules)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    uint64_t v1 = nlmb_vertex_offset(nm, 0, 1);
    nlmb_vertex *v = &nm->meshes[0].vertices[1];
    nlmb_vertex keep = *v;
    v->position[1] = NAN;
    expect_reject(nm, MCL_ERR_VALUE, v1);
    *v = keep;
    v->normal[2] = 0.9f;
    expect_reject(nm, MCL_ERR_VALUE, v1 + 24);
    *v = keep;
    v->weight[0] = 1.5f;
    expect_reject(nm, MCL_ERR_VALUE, v1 + 60);
    *v = keep;
    v->weight[2] = 0.1f; /* ID -1 with a weight */
    expect_reject(nm, MCL_ERR_VALUE, v1 + 68);
    *v = keep;
    v->weight[0] = 0.5f; /* sum 0.75 */
    expect_reject(nm, MCL_ERR_VALUE, v1 + 60);
    *v = keep;
    v->bone[1] = v->bone[0];
    expect_reject(nm, MCL_ERR_STRUCTURE, v1 + 48);
    *v = keep;
    v->bone[1] = 7; /* no such slot */
    expect_reject(nm, MCL_ERR_RANGE, v1 + 48);
    *v = keep;
    v->color[0] = 1.5f; /* a warning only */
    mcl_free(load_ok(nm));
    nlmb_free(nm);
}

Test(loader_nlm, static_vertex_must_not_name_a_bone)
{
    nlmb_model *nm = sample(NLMB_STATIC_TWO_MESHES);
    nm->meshes[0].vertices[2].bone[0] = 0;
    nm->meshes[0].vertices[2].weight[0] = 1.0f;
    expect_reject(nm, MCL_ERR_RANGE, nlmb_vertex_offset(nm, 0, 2) + 44);
    nlmb_free(nm);
}

Test(loader_nlm, index_out_of_range)
{
    nlmb_model *nm = sample(NLMB_STATIC_TWO_MESHES);
    nm->meshes[1].indices[2] = 3;
    expect_reject(nm, MCL_ERR_RANGE, nlmb_index_offset(nm, 1, 2));
    nlmb_free(nm);
}

Test(loader_nlm, aabb_rules)
{
    nlmb_model *nm = sample(NLMB_STATIC_TWO_MESHES);
    nm->aabb_max[1] = INFINITY;
    expect_reject(nm, MCL_ERR_VALUE, 16);
    nm->aabb_max[1] = -1.0f;
    expect_reject(nm, MCL_ERR_VALUE, 20);
    nlmb_free(nm);
}

/* ---- animation ---- */

Test(loader_nlm, metadata_and_bone_info_rules)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    uint64_t a = nlmb_animation_offset(nm);
    nm->duration = 0;
    expect_reject(nm, MCL_ERR_VALUE, a);
    nm->duration = 2;
    nm->ticks_per_second = -1;
    expect_reject(nm, MCL_ERR_VALUE, a + 4);
    nm->ticks_per_second = 25;
    uint64_t b1 = nlmb_bone_info_offset(nm, 1), b2 = nlmb_bone_info_offset(nm, 2);
    nm->bone_infos[1].offset[5] = 0; /* singular */
    expect_reject(nm, MCL_ERR_VALUE, b1 + 4);
    nm->bone_infos[1].offset[5] = NAN;
    expect_reject(nm, MCL_ERR_VALUE, b1 + 4);
    nm->bone_infos[1].offset[5] = 1;
    nm->bone_infos[2].slot = -5;
    expect_reject(nm, MCL_ERR_RANGE, b2 + 68);
    nm->bone_infos[2].slot = 1;
    expect_reject(nm, MCL_ERR_STRUCTURE, b2 + 68);
    nm->bone_infos[2].slot = 2;
    nm->bone_infos[2].node_id = 1;
    expect_reject(nm, MCL_ERR_STRUCTURE, b2);
    nm->bone_infos[2].node_id = 3;
    nm->bone_infos[2].slot = 100; /* a warning: past the engine's array */
    nm->channels[2].bone_id = 100;
    for (uint32_t i = 0; i < nm->meshes[0].vertex_count; i++)
        for (int k = 0; k < 4; k++)
            if (nm->meshes[0].vertices[i].bone[k] == 2) nm->meshes[0].vertices[i].bone[k] = 100;
    mcl_free(load_ok(nm));
    nlmb_free(nm);
}

Test(loader_nlm, channel_and_key_rules)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    uint64_t c1 = nlmb_channel_offset(nm, 1);
    nm->channels[1].node_id = 9;
    expect_reject(nm, MCL_ERR_STRUCTURE, c1);
    nm->channels[1].node_id = 2;
    nm->channels[1].bone_id = 2;
    expect_reject(nm, MCL_ERR_STRUCTURE, c1 + 4);
    nm->channels[1].bone_id = 1;
    cr_assert_eq(nlmb_resize_keys(&nm->channels[1], NLMB_ROTATION, 0), 0);
    expect_reject(nm, MCL_ERR_STRUCTURE, c1 + 12);
    cr_assert_eq(nlmb_resize_keys(&nm->channels[1], NLMB_ROTATION, 1), 0);
    nm->channels[1].keys[NLMB_ROTATION][0].v[3] = 1;

    nlmb_key *k = &nm->channels[1].keys[NLMB_POSITION][1];
    uint64_t at = nlmb_key_offset(nm, 1, NLMB_POSITION, 1);
    k->v[0] = INFINITY;
    expect_reject(nm, MCL_ERR_VALUE, at);
    k->v[0] = 0;
    k->time = 0; /* equal to key 0 */
    expect_reject(nm, MCL_ERR_STRUCTURE, at);
    k->time = 3; /* past the duration 2 */
    expect_reject(nm, MCL_ERR_RANGE, at);
    k->time = 2;
    nlmb_key *r = &nm->channels[1].keys[NLMB_ROTATION][0];
    r->v[3] = 0.5f;
    expect_reject(nm, MCL_ERR_VALUE, nlmb_key_offset(nm, 1, NLMB_ROTATION, 0) + 4);
    r->v[3] = 1;
    nm->channels[1].keys[NLMB_SCALE][0].v[1] = 0;
    expect_reject(nm, MCL_ERR_VALUE, nlmb_key_offset(nm, 1, NLMB_SCALE, 0) + 4);
    nlmb_free(nm);
}

/* ---- hierarchy ---- */

Test(loader_nlm, hierarchy_rules)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    nm->nodes[2].transform[0] = INFINITY;
    expect_reject(nm, MCL_ERR_VALUE, nlmb_node_offset(nm, 2) + 4);
    nm->nodes[2].transform[0] = 1;
    nm->nodes[3].id = 2;
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_node_offset(nm, 3));
    nm->nodes[3].id = 3;

    set_children(&nm->nodes[3], 4, 0, 1); /* index past the node list */
    expect_reject(nm, MCL_ERR_RANGE, nlmb_child_offset(nm, 3, 0));
    set_children(&nm->nodes[3], -1, 0, 1);
    expect_reject(nm, MCL_ERR_RANGE, nlmb_child_offset(nm, 3, 0));
    set_children(&nm->nodes[3], 0, 0, 1); /* the root as a child: a cycle */
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_child_offset(nm, 3, 0));
    set_children(&nm->nodes[3], 2, 0, 1); /* node 2 has parent 1 already */
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_child_offset(nm, 3, 0));
    set_children(&nm->nodes[3], 3, 0, 1); /* itself */
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_child_offset(nm, 3, 0));
    set_children(&nm->nodes[3], 0, 0, 0);

    set_children(&nm->nodes[1], 2, 0, 1); /* node 3 loses its parent: a second root */
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_node_offset(nm, 3));
    set_children(&nm->nodes[1], 0, 0, 0); /* nodes 2 and 3 form a detached cycle */
    set_children(&nm->nodes[2], 3, 0, 1);
    set_children(&nm->nodes[3], 2, 0, 1);
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_node_offset(nm, 2));
    nlmb_free(nm);
}

Test(loader_nlm, long_cycle_through_the_root)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    const uint32_t n = 1000;
    cr_assert_eq(nlmb_resize_nodes(nm, n), 0);
    for (uint32_t i = 3; i < n; i++) set_children(&nm->nodes[i], (int32_t)((i + 1) % n), 0, 1);
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_child_offset(nm, n - 1, 0));
    nlmb_free(nm);
}

Test(loader_nlm, animated_model_needs_a_node)
{
    nlmb_model *nm = sample(NLMB_SKINNED_ANIMATED);
    cr_assert_eq(nlmb_resize_nodes(nm, 0), 0);
    expect_reject(nm, MCL_ERR_STRUCTURE, nlmb_node_count_offset(nm));
    nlmb_free(nm);
}
