/* NLM conformance cases: each starts from a valid sample model and changes
 * one thing, so the file breaks exactly the rule it is named after. Files
 * with warnings or infos only (the real writer's habits) go to valid/. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "corpus_cases.h"
#include "nlm_builder.h"

typedef int (*nlm_mutation)(nlmb_model *m); /* 0 on success */

typedef struct nlm_case {
    const char *dir;  /* valid or invalid */
    const char *name; /* file name: says what it is */
    enum nlmb_sample_kind base;
    nlm_mutation mutate;
    long truncate_by; /* bytes cut from the end after writing */
    long append;      /* zero bytes added after writing */
} nlm_case;

/* ---- the real writer's habits (FIELD-NOTES NLM) ---- */

static int hash_never_computed(nlmb_model *m)
{
    m->hash = 0x811C9DC5u;
    return 0;
}

static int wireframe_line_list(nlmb_model *m)
{
    static const uint32_t lines[8] = {0, 1, 1, 2, 2, 3, 3, 0};
    if (nlmb_resize_mesh(&m->meshes[0], 4, 8)) return -1;
    memcpy(m->meshes[0].indices, lines, sizeof lines);
    return 0;
}

/* The source bounds stay while the vertices are normalised to +-0.5. */
static int static_source_bounds(nlmb_model *m)
{
    static const float lo[3] = {2.0f, 0.0f, -1.0f}, hi[3] = {6.0f, 3.0f, 1.0f};
    memcpy(m->aabb_min, lo, sizeof lo);
    memcpy(m->aabb_max, hi, sizeof hi);
    return 0;
}

static int real_writer_habits(nlmb_model *m)
{
    return hash_never_computed(m) || wireframe_line_list(m) || static_source_bounds(m);
}

static int jpeg_texture(nlmb_model *m)
{
    static const uint8_t jpeg[20] = {0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00,
                                     0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00};
    return nlmb_set_texture(&m->meshes[0], jpeg, sizeof jpeg);
}

static int rotation_key_quarter_turn_xyzw(nlmb_model *m)
{
    nlmb_key *k = &m->channels[1].keys[NLMB_ROTATION][1];
    k->v[2] = 0.70710678f; /* z */
    k->v[3] = 0.70710678f; /* w, last as real files store it */
    return 0;
}

/* ---- header and structure ---- */

static int magic_spec_spelling(nlmb_model *m)
{
    memcpy(m->magic, "MODL", 4);
    return 0;
}

static int legacy_hashless(nlmb_model *m)
{
    m->hashless = 1;
    return 0;
}

static int version_3(nlmb_model *m)
{
    m->version = 3;
    return 0;
}

static int animation_flag_2(nlmb_model *m)
{
    m->animated = 2;
    return 0;
}

static int flag_without_section(nlmb_model *m)
{
    m->write_animation = 0;
    return 0;
}

static int undeclared_animation(nlmb_model *m)
{
    m->animated = 0;
    for (uint32_t i = 0; i < m->meshes[0].vertex_count; i++) {
        nlmb_vertex *v = &m->meshes[0].vertices[i];
        for (int j = 0; j < 4; j++) {
            v->bone[j] = -1;
            v->weight[j] = 0.0f;
        }
    }
    return 0;
}

/* ---- AABB and vertices ---- */

static int aabb_nan(nlmb_model *m)
{
    m->aabb_max[1] = NAN;
    return 0;
}

static int aabb_inverted(nlmb_model *m)
{
    m->aabb_min[0] = 1.0f;
    return 0;
}

static int position_nan(nlmb_model *m)
{
    m->meshes[0].vertices[1].position[0] = NAN;
    return 0;
}

static int color_1_5(nlmb_model *m)
{
    m->meshes[0].vertices[3].color[1] = 1.5f;
    return 0;
}

static int normal_length_0_9(nlmb_model *m)
{
    m->meshes[0].vertices[0].normal[2] = 0.9f;
    return 0;
}

static int bone_id_not_a_slot(nlmb_model *m)
{
    m->meshes[0].vertices[1].bone[1] = 7;
    return 0;
}

static int static_vertex_names_bone(nlmb_model *m)
{
    m->meshes[0].vertices[2].bone[0] = 0;
    return 0;
}

static int minus_one_slot_with_weight(nlmb_model *m)
{
    m->meshes[0].vertices[0].weight[0] = 0.65f;
    m->meshes[0].vertices[0].weight[2] = 0.1f;
    return 0;
}

static int weight_1_5(nlmb_model *m)
{
    m->meshes[0].vertices[3].weight[0] = 1.5f;
    m->meshes[0].vertices[3].weight[1] = -0.5f;
    return 0;
}

static int weights_sum_0_75(nlmb_model *m)
{
    m->meshes[0].vertices[2].weight[0] = 0.5f;
    return 0;
}

static int duplicate_bone_id_in_vertex(nlmb_model *m)
{
    m->meshes[0].vertices[1].bone[1] = 0;
    return 0;
}

static int unskinned_vertex_in_animated_model(nlmb_model *m)
{
    nlmb_vertex *v = &m->meshes[0].vertices[2];
    for (int j = 0; j < 4; j++) {
        v->bone[j] = -1;
        v->weight[j] = 0.0f;
    }
    return 0;
}

/* ---- indices and textures ---- */

static int index_out_of_range(nlmb_model *m)
{
    m->meshes[0].indices[4] = 4;
    return 0;
}

static int degenerate_triangle(nlmb_model *m)
{
    m->meshes[0].indices[4] = 0;
    return 0;
}

static int texture_gif(nlmb_model *m)
{
    return nlmb_set_texture(&m->meshes[0], "GIF89a\1\0\1\0", 10);
}

/* ---- animation ---- */

static int duration_zero(nlmb_model *m)
{
    m->duration = 0.0f;
    return 0;
}

static int ticks_per_second_zero(nlmb_model *m)
{
    m->ticks_per_second = 0;
    return 0;
}

static int bone_info_node_id_twice(nlmb_model *m)
{
    m->bone_infos[2].node_id = 2;
    return 0;
}

static int skinning_slot_twice(nlmb_model *m)
{
    m->bone_infos[2].slot = 1;
    m->channels[2].bone_id = 1;
    m->meshes[0].vertices[3].bone[0] = 1;
    return 0;
}

static void move_slot(nlmb_model *m, int32_t from, int32_t to)
{
    for (uint32_t i = 0; i < m->bone_info_count; i++)
        if (m->bone_infos[i].slot == from) m->bone_infos[i].slot = to;
    for (uint32_t i = 0; i < m->channel_count; i++)
        if (m->channels[i].bone_id == from) m->channels[i].bone_id = to;
    for (uint32_t v = 0; v < m->meshes[0].vertex_count; v++)
        for (int j = 0; j < 4; j++)
            if (m->meshes[0].vertices[v].bone[j] == from) m->meshes[0].vertices[v].bone[j] = to;
}

static int skinning_slot_100(nlmb_model *m)
{
    move_slot(m, 2, 100);
    return 0;
}

static int skinning_slot_negative(nlmb_model *m)
{
    move_slot(m, 2, -5);
    return 0;
}

static int offset_matrix_nan(nlmb_model *m)
{
    m->bone_infos[1].offset[5] = NAN;
    return 0;
}

static int offset_matrix_singular(nlmb_model *m)
{
    m->bone_infos[0].offset[10] = 0.0f;
    return 0;
}

static int bone_info_for_missing_node(nlmb_model *m)
{
    if (nlmb_resize_bone_infos(m, 4)) return -1;
    nlmb_bone_info *b = &m->bone_infos[3];
    b->node_id = 9;
    b->slot = 3;
    b->offset[0] = b->offset[5] = b->offset[10] = b->offset[15] = 1.0f;
    return 0;
}

static int channel_node_missing(nlmb_model *m)
{
    m->channels[2].node_id = 9;
    return 0;
}

static int channel_bone_mismatch(nlmb_model *m)
{
    m->channels[1].bone_id = 2;
    return 0;
}

static int channel_no_rotation_keys(nlmb_model *m)
{
    return nlmb_resize_keys(&m->channels[1], NLMB_ROTATION, 0);
}

static int key_nan(nlmb_model *m)
{
    m->channels[0].keys[NLMB_POSITION][1].v[0] = NAN;
    return 0;
}

static int key_times_equal(nlmb_model *m)
{
    m->channels[2].keys[NLMB_SCALE][1].time = 0.0f;
    return 0;
}

static int key_time_past_duration(nlmb_model *m)
{
    m->channels[1].keys[NLMB_POSITION][1].time = 3.0f;
    return 0;
}

/* identity with w halved: length 0.5 */
static int rotation_key_not_unit(nlmb_model *m)
{
    m->channels[0].keys[NLMB_ROTATION][0].v[3] = 0.5f;
    return 0;
}

static int scale_key_zero(nlmb_model *m)
{
    m->channels[2].keys[NLMB_SCALE][0].v[1] = 0.0f;
    return 0;
}

/* ---- node hierarchy ---- */

static int no_nodes(nlmb_model *m)
{
    return nlmb_resize_nodes(m, 0);
}

static int node_id_twice(nlmb_model *m)
{
    m->nodes[3].id = 2;
    return 0;
}

static int node_id_not_index(nlmb_model *m)
{
    m->nodes[3].id = 7;
    m->bone_infos[2].node_id = 7;
    m->channels[2].node_id = 7;
    return 0;
}

static int set_child(nlmb_model *m, uint32_t node, int32_t child)
{
    return nlmb_set_children(&m->nodes[node], &child, 1);
}

static int child_id_out_of_range(nlmb_model *m)
{
    return set_child(m, 3, 4);
}

static int node_two_parents(nlmb_model *m)
{
    return set_child(m, 2, 3);
}

static int root_listed_as_child(nlmb_model *m)
{
    return set_child(m, 2, 0);
}

static int second_root(nlmb_model *m)
{
    return set_child(m, 1, 2);
}

/* Node k's child is k + 1 and node 999's is node 0: the engine recurses forever. */
static int node_cycle_1000(nlmb_model *m)
{
    if (nlmb_resize_nodes(m, 1000)) return -1;
    for (uint32_t k = 0; k < 1000; k++)
        if (set_child(m, k, (int32_t)((k + 1) % 1000))) return -1;
    return 0;
}

static int node_transform_inf(nlmb_model *m)
{
    m->nodes[2].transform[12] = INFINITY;
    return 0;
}

static const nlm_case nlm_cases[] = {
    {"valid", "static_textured_png.nlm", NLMB_STATIC_TEXTURED, NULL, 0, 0},
    {"valid", "two_meshes_no_texture.nlm", NLMB_STATIC_TWO_MESHES, NULL, 0, 0},
    {"valid", "skinned_animated_3_levels.nlm", NLMB_SKINNED_ANIMATED, NULL, 0, 0},
    {"valid", "hash_never_computed.nlm", NLMB_STATIC_TEXTURED, hash_never_computed, 0, 0},
    {"valid", "wireframe_line_list.nlm", NLMB_STATIC_TWO_MESHES, wireframe_line_list, 0, 0},
    {"valid", "static_aabb_source_bounds.nlm", NLMB_STATIC_TWO_MESHES, static_source_bounds, 0, 0},
    {"valid", "real_writer_habits.nlm", NLMB_STATIC_TEXTURED, real_writer_habits, 0, 0},
    {"valid", "jpeg_texture.nlm", NLMB_STATIC_TEXTURED, jpeg_texture, 0, 0},
    {"valid", "rotation_key_quarter_turn_xyzw.nlm", NLMB_SKINNED_ANIMATED, rotation_key_quarter_turn_xyzw, 0, 0},
    {"valid", "color_1_5.nlm", NLMB_SKINNED_ANIMATED, color_1_5, 0, 0},
    {"valid", "unskinned_vertex_in_animated_model.nlm", NLMB_SKINNED_ANIMATED, unskinned_vertex_in_animated_model, 0, 0},
    {"valid", "degenerate_triangle.nlm", NLMB_SKINNED_ANIMATED, degenerate_triangle, 0, 0},
    {"valid", "texture_gif.nlm", NLMB_STATIC_TEXTURED, texture_gif, 0, 0},
    {"valid", "skinning_slot_100.nlm", NLMB_SKINNED_ANIMATED, skinning_slot_100, 0, 0},
    {"valid", "bone_info_for_missing_node.nlm", NLMB_SKINNED_ANIMATED, bone_info_for_missing_node, 0, 0},
    {"valid", "node_id_not_index.nlm", NLMB_SKINNED_ANIMATED, node_id_not_index, 0, 0},
    {"invalid", "magic_spec_spelling_modl.nlm", NLMB_SKINNED_ANIMATED, magic_spec_spelling, 0, 0},
    {"invalid", "legacy_hashless.nlm", NLMB_STATIC_TEXTURED, legacy_hashless, 0, 0},
    {"invalid", "version_3.nlm", NLMB_STATIC_TEXTURED, version_3, 0, 0},
    {"invalid", "animation_flag_2.nlm", NLMB_STATIC_TWO_MESHES, animation_flag_2, 0, 0},
    {"invalid", "truncated_in_nodes.nlm", NLMB_SKINNED_ANIMATED, NULL, 1, 0},
    {"invalid", "animation_flag_without_section.nlm", NLMB_SKINNED_ANIMATED, flag_without_section, 0, 0},
    {"invalid", "trailing_bytes.nlm", NLMB_SKINNED_ANIMATED, NULL, 0, 4},
    {"invalid", "undeclared_animation.nlm", NLMB_SKINNED_ANIMATED, undeclared_animation, 0, 0},
    {"invalid", "aabb_nan.nlm", NLMB_STATIC_TWO_MESHES, aabb_nan, 0, 0},
    {"invalid", "aabb_inverted.nlm", NLMB_STATIC_TWO_MESHES, aabb_inverted, 0, 0},
    {"invalid", "position_nan.nlm", NLMB_STATIC_TEXTURED, position_nan, 0, 0},
    {"invalid", "normal_length_0_9.nlm", NLMB_SKINNED_ANIMATED, normal_length_0_9, 0, 0},
    {"invalid", "bone_id_not_a_slot.nlm", NLMB_SKINNED_ANIMATED, bone_id_not_a_slot, 0, 0},
    {"invalid", "static_vertex_names_bone.nlm", NLMB_STATIC_TEXTURED, static_vertex_names_bone, 0, 0},
    {"invalid", "minus_one_slot_with_weight.nlm", NLMB_SKINNED_ANIMATED, minus_one_slot_with_weight, 0, 0},
    {"invalid", "weight_1_5.nlm", NLMB_SKINNED_ANIMATED, weight_1_5, 0, 0},
    {"invalid", "weights_sum_0_75.nlm", NLMB_SKINNED_ANIMATED, weights_sum_0_75, 0, 0},
    {"invalid", "duplicate_bone_id_in_vertex.nlm", NLMB_SKINNED_ANIMATED, duplicate_bone_id_in_vertex, 0, 0},
    {"invalid", "index_out_of_range.nlm", NLMB_SKINNED_ANIMATED, index_out_of_range, 0, 0},
    {"invalid", "duration_zero.nlm", NLMB_SKINNED_ANIMATED, duration_zero, 0, 0},
    {"invalid", "ticks_per_second_zero.nlm", NLMB_SKINNED_ANIMATED, ticks_per_second_zero, 0, 0},
    {"invalid", "bone_info_node_id_twice.nlm", NLMB_SKINNED_ANIMATED, bone_info_node_id_twice, 0, 0},
    {"invalid", "skinning_slot_twice.nlm", NLMB_SKINNED_ANIMATED, skinning_slot_twice, 0, 0},
    {"invalid", "skinning_slot_negative.nlm", NLMB_SKINNED_ANIMATED, skinning_slot_negative, 0, 0},
    {"invalid", "offset_matrix_nan.nlm", NLMB_SKINNED_ANIMATED, offset_matrix_nan, 0, 0},
    {"invalid", "offset_matrix_singular.nlm", NLMB_SKINNED_ANIMATED, offset_matrix_singular, 0, 0},
    {"invalid", "channel_node_missing.nlm", NLMB_SKINNED_ANIMATED, channel_node_missing, 0, 0},
    {"invalid", "channel_bone_mismatch.nlm", NLMB_SKINNED_ANIMATED, channel_bone_mismatch, 0, 0},
    {"invalid", "channel_no_rotation_keys.nlm", NLMB_SKINNED_ANIMATED, channel_no_rotation_keys, 0, 0},
    {"invalid", "key_nan.nlm", NLMB_SKINNED_ANIMATED, key_nan, 0, 0},
    {"invalid", "key_times_equal.nlm", NLMB_SKINNED_ANIMATED, key_times_equal, 0, 0},
    {"invalid", "key_time_past_duration.nlm", NLMB_SKINNED_ANIMATED, key_time_past_duration, 0, 0},
    {"invalid", "rotation_key_not_unit.nlm", NLMB_SKINNED_ANIMATED, rotation_key_not_unit, 0, 0},
    {"invalid", "scale_key_zero.nlm", NLMB_SKINNED_ANIMATED, scale_key_zero, 0, 0},
    {"invalid", "no_nodes.nlm", NLMB_SKINNED_ANIMATED, no_nodes, 0, 0},
    {"invalid", "node_id_twice.nlm", NLMB_SKINNED_ANIMATED, node_id_twice, 0, 0},
    {"invalid", "child_id_out_of_range.nlm", NLMB_SKINNED_ANIMATED, child_id_out_of_range, 0, 0},
    {"invalid", "node_two_parents.nlm", NLMB_SKINNED_ANIMATED, node_two_parents, 0, 0},
    {"invalid", "node_cycle_1000.nlm", NLMB_SKINNED_ANIMATED, node_cycle_1000, 0, 0},
    {"invalid", "root_listed_as_child.nlm", NLMB_SKINNED_ANIMATED, root_listed_as_child, 0, 0},
    {"invalid", "second_root.nlm", NLMB_SKINNED_ANIMATED, second_root, 0, 0},
    {"invalid", "node_transform_inf.nlm", NLMB_SKINNED_ANIMATED, node_transform_inf, 0, 0},
};

static int write_bytes(const char *root, const char *dir, const char *name, const mcb_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/nlm/%s/%s", root, dir, name);
    int rc = b->oom ? -1 : mcb_write_file(b, path);
    if (rc != 0) fprintf(stderr, "mc_corpusgen: cannot write %s\n", path);
    return rc;
}

static int write_nlm_case(const char *root, const nlm_case *c)
{
    nlmb_model *m = nlmb_sample(c->base);
    if (!m) return -1;
    if (c->mutate && c->mutate(m) != 0) {
        nlmb_free(m);
        return -1;
    }
    mcb_buf b = {0};
    nlmb_write(m, &b);
    nlmb_free(m);
    if (c->truncate_by > 0 && (size_t)c->truncate_by <= b.size) b.size -= (size_t)c->truncate_by;
    if (c->append > 0) mcb_zeros(&b, (size_t)c->append);
    int rc = write_bytes(root, c->dir, c->name, &b);
    mcb_free(&b);
    return rc;
}

/* 100 bytes whose one mesh claims 2^31 vertices: the loader would allocate
 * 163 GB; the validator reports one NLM_TRUNCATED. */
static int write_huge_vertex_count(const char *root)
{
    uint8_t bytes[100] = {0xc5, 0x9d, 0x1c, 0x81, 'L', 'D', 'O', 'M', 2};
    bytes[40] = 1;
    bytes[47] = 0x80;
    mcb_buf b = {0};
    mcb_bytes(&b, bytes, sizeof bytes);
    int rc = write_bytes(root, "invalid", "mesh_claims_2_pow_31_vertices.nlm", &b);
    mcb_free(&b);
    return rc;
}

/* The cases are not in the manifest yet (tests/corpus/uncovered.txt). */
int mcg_write_nlm(const char *root, mcg_manifest *mf)
{
    (void)mf;
    if (mcg_mkdir(root, "nlm") || mcg_mkdir(root, "nlm/valid") || mcg_mkdir(root, "nlm/invalid"))
        return -1;
    for (size_t i = 0; i < sizeof nlm_cases / sizeof nlm_cases[0]; i++)
        if (write_nlm_case(root, &nlm_cases[i]) != 0) return -1;
    return write_huge_vertex_count(root);
}
