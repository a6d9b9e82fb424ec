/*
 * NLM conformance cases: each starts from a valid sample model and changes
 * one thing, so the file breaks exactly the rule it is named after. Files
 * with warnings or infos only (the real writer's habits) go to valid/. The
 * expectation is written here by hand, from nlm.md, docs/formats/nlm.md and the
 * catalog, never computed by running the validator.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "corpus_cases.h"
#include "nlm_builder.h"

/* The places an NLM row's first offset is counted from (mcg_at: index,
 * sub), located by the builder's offset functions on the row's model. */
enum mcg_nlm_place {
    NLM_AT_MESH,      /* mesh index's header */
    NLM_AT_VERTEX,    /* vertex sub of mesh index */
    NLM_AT_INDEX,     /* index sub of mesh index */
    NLM_AT_TEXTURE,   /* mesh index's texture size field */
    NLM_AT_ANIMATION, /* the duration */
    NLM_AT_BONE_INFO, /* bone info index */
    NLM_AT_CHANNEL,   /* channel index */
    NLM_AT_POSITION_KEY, /* key sub of channel index; then rotation and scale keys */
    NLM_AT_ROTATION_KEY,
    NLM_AT_SCALE_KEY,
    NLM_AT_NODE_COUNT,
    NLM_AT_NODE,      /* node index */
    NLM_AT_CHILD      /* child sub of node index */
};

typedef struct nlm_case {
    mcg_case meta;
    enum nlmb_sample_kind base;
    int (*mutate)(nlmb_model *m); /* 0 on success */
    long truncate_by; /* bytes cut from the end after writing */
    long append;      /* zero bytes added after writing */
    mcg_at first;     /* where meta.rule first fires */
    void (*bytes)(mcb_buf *b); /* instead of a sample: writes the whole file */
} nlm_case;

/* ---- the real writer's habits (docs/formats/nlm.md) ---- */

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

/* docs/formats/nlm.md: line-list meshes carry all-zero normals (no shading data). */
static int wireframe_zero_normals(nlmb_model *m)
{
    if (wireframe_line_list(m)) return -1;
    for (uint32_t v = 0; v < m->meshes[0].vertex_count; v++)
        memset(m->meshes[0].vertices[v].normal, 0, sizeof m->meshes[0].vertices[v].normal);
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

static int normal_nearly_zero(nlmb_model *m)
{
    memset(m->meshes[0].vertices[1].normal, 0, sizeof m->meshes[0].vertices[1].normal);
    m->meshes[0].vertices[1].normal[2] = 0.001f;
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

static int skinning_slot_100(nlmb_model *m)
{
    nlmb_move_slot(m, 2, 100);
    return 0;
}

static int skinning_slot_negative(nlmb_model *m)
{
    nlmb_move_slot(m, 2, -5);
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

/* ---- edge cases (issue 7): zero counts, one of everything, slot 99 ---- */

static int zero_meshes(nlmb_model *m)
{
    return nlmb_resize_meshes(m, 0);
}

static int mesh_zero_vertices_zero_indices(nlmb_model *m)
{
    return nlmb_resize_mesh(&m->meshes[1], 0, 0);
}

static int mesh_zero_indices(nlmb_model *m)
{
    return nlmb_resize_mesh(&m->meshes[0], 4, 0);
}

static int animated_zero_channels(nlmb_model *m)
{
    return nlmb_resize_channels(m, 0);
}

static int animated_nothing_but_nodes(nlmb_model *m)
{
    return nlmb_resize_meshes(m, 0) || nlmb_resize_bone_infos(m, 0) || nlmb_resize_channels(m, 0);
}

/* 1 mesh (3 vertices, 3 indices, a PNG), 1 bone info, 1 channel with 1 key
 * of each kind, 1 node: the root is the bone (slot 0) */
static int one_of_everything(nlmb_model *m)
{
    nlmb_mesh *mesh = &m->meshes[0];
    if (nlmb_resize_mesh(mesh, 3, 3) || nlmb_set_texture(mesh, nlmb_tiny_png, sizeof nlmb_tiny_png) ||
        nlmb_resize_bone_infos(m, 1) || nlmb_resize_channels(m, 1) || nlmb_resize_nodes(m, 1) ||
        nlmb_set_children(&m->nodes[0], NULL, 0))
        return -1;
    for (uint32_t i = 0; i < 3; i++) {
        nlmb_vertex *v = &mesh->vertices[i];
        for (int j = 0; j < 4; j++) {
            v->bone[j] = j ? -1 : 0;
            v->weight[j] = j ? 0.0f : 1.0f;
        }
    }
    m->bone_infos[0].node_id = 0;
    m->channels[0].node_id = 0;
    for (int k = 0; k < NLMB_KEY_KINDS; k++)
        if (nlmb_resize_keys(&m->channels[0], k, 1)) return -1;
    return 0;
}

static int skinning_slot_99(nlmb_model *m)
{
    nlmb_move_slot(m, 2, 99);
    return 0;
}

static int channel_no_position_keys(nlmb_model *m)
{
    return nlmb_resize_keys(&m->channels[0], NLMB_POSITION, 0);
}

static int channel_no_scale_keys(nlmb_model *m)
{
    return nlmb_resize_keys(&m->channels[2], NLMB_SCALE, 0);
}

#define AT(place, index, add) MCG_AT(place, index, add)
#define AT2(place, index, sub, add) MCG_AT2(place, index, sub, add)
#define NOWHERE MCG_NOWHERE_AT
/* vertex field offsets (nlm.md, Vertex Data) */
enum { V_COLOR = 12, V_NORMAL = 24, V_UV = 36, V_BONES = 44, V_WEIGHTS = 60 };
#define STAT NLMB_STATIC_TEXTURED
#define TWO NLMB_STATIC_TWO_MESHES
#define SKIN NLMB_SKINNED_ANIMATED
#define CASE(dir, file, rule, desc, expect) {"nlm/" dir "/" file, "nlm", "v2", rule, desc, expect, NULL}

static const nlm_case nlm_cases[] = {
    /* valid: no errors; warnings and infos only where named */
    {CASE("valid", "static_textured_png.nlm", NULL, "one textured quad with an embedded PNG, no animation", ""), STAT, NULL, 0, 0, NOWHERE, NULL},
    {CASE("valid", "two_meshes_no_texture.nlm", NULL, "a quad and a triangle, no texture, no animation", ""), TWO, NULL, 0, 0, NOWHERE, NULL},
    {CASE("valid", "skinned_animated_3_levels.nlm", NULL, "3 bones under a root node, 2 keys of every kind per channel", ""), SKIN, NULL, 0, 0, NOWHERE, NULL},
    {CASE("valid", "hash_never_computed.nlm", "NLM_HASH_UNCOMPUTED", "hash 0x811C9DC5, the FNV-1a basis: the writer hashed nothing", "NLM_HASH_UNCOMPUTED"), STAT, hash_never_computed, 0, 0, MCG_ABS(0), NULL},
    {CASE("valid", "wireframe_line_list.nlm", "NLM_MESH_NOT_TRIANGLES", "mesh 0 is a line list of 8 indices, as real wireframe meshes", "NLM_MESH_NOT_TRIANGLES"), TWO, wireframe_line_list, 0, 0, AT(NLM_AT_MESH, 0, 4), NULL},
    {CASE("valid", "wireframe_zero_normals.nlm", "NLM_NORMAL_ZERO", "mesh 0 is a line list whose 4 vertices have normal (0, 0, 0), as real wireframe meshes: reported once", "NLM_MESH_NOT_TRIANGLES NLM_NORMAL_ZERO"), TWO, wireframe_zero_normals, 0, 0, AT2(NLM_AT_VERTEX, 0, 0, V_NORMAL), NULL},
    {CASE("valid", "static_aabb_source_bounds.nlm", "NLM_VERTEX_OUTSIDE_AABB", "static model keeps the source AABB while its 7 vertices are normalised to +-0.5: reported once", "NLM_VERTEX_OUTSIDE_AABB"), TWO, static_source_bounds, 0, 0, AT2(NLM_AT_VERTEX, 0, 0, 0), NULL},
    {CASE("valid", "real_writer_habits.nlm", "NLM_VERTEX_OUTSIDE_AABB", "the real writer's habits together: FNV basis hash, line-list mesh, source AABB", "NLM_HASH_UNCOMPUTED NLM_MESH_NOT_TRIANGLES NLM_VERTEX_OUTSIDE_AABB"), STAT, real_writer_habits, 0, 0, AT2(NLM_AT_VERTEX, 0, 0, 0), NULL},
    {CASE("valid", "jpeg_texture.nlm", NULL, "an embedded texture starting with the JPEG signature", ""), STAT, jpeg_texture, 0, 0, NOWHERE, NULL},
    {CASE("valid", "rotation_key_quarter_turn_xyzw.nlm", NULL, "a 90-degree turn about z stored x, y, z, w: unit", ""), SKIN, rotation_key_quarter_turn_xyzw, 0, 0, NOWHERE, NULL},
    {CASE("valid", "color_1_5.nlm", "NLM_COLOR_RANGE", "vertex 3's green is 1.5", "NLM_COLOR_RANGE"), SKIN, color_1_5, 0, 0, AT2(NLM_AT_VERTEX, 0, 3, V_COLOR + 4), NULL},
    {CASE("valid", "unskinned_vertex_in_animated_model.nlm", "NLM_UNSKINNED_VERTEX", "vertex 2 of an animated model names no bone (all -1, weights 0)", "NLM_UNSKINNED_VERTEX"), SKIN, unskinned_vertex_in_animated_model, 0, 0, AT2(NLM_AT_VERTEX, 0, 2, V_BONES), NULL},
    {CASE("valid", "degenerate_triangle.nlm", "NLM_DEGENERATE_TRIANGLE", "triangle 1 is 0, 0, 3", "NLM_DEGENERATE_TRIANGLE"), SKIN, degenerate_triangle, 0, 0, AT2(NLM_AT_INDEX, 0, 3, 0), NULL},
    {CASE("valid", "texture_gif.nlm", "NLM_TEXTURE_SIGNATURE", "an embedded texture starting GIF89a: neither PNG nor JPEG", "NLM_TEXTURE_SIGNATURE"), STAT, texture_gif, 0, 0, AT(NLM_AT_TEXTURE, 0, 4), NULL},
    {CASE("valid", "skinning_slot_100.nlm", "NLM_BONE_SLOT_RANGE", "bone 2's skinning slot is 100 (vertices and channel follow): past the engine's 100-entry array", "NLM_BONE_SLOT_RANGE"), SKIN, skinning_slot_100, 0, 0, AT(NLM_AT_BONE_INFO, 2, 68), NULL},
    {CASE("valid", "bone_info_for_missing_node.nlm", "NLM_BONE_INFO_NODE_MISSING", "a fourth bone info for node 9 of 4 nodes: its slot is never posed", "NLM_BONE_INFO_NODE_MISSING"), SKIN, bone_info_for_missing_node, 0, 0, AT(NLM_AT_BONE_INFO, 3, 0), NULL},
    {CASE("valid", "node_id_not_index.nlm", "NLM_NODE_ID_NOT_INDEX", "node 3 has ID 7 (its bone info and channel follow); child links stay indices", "NLM_NODE_ID_NOT_INDEX"), SKIN, node_id_not_index, 0, 0, AT(NLM_AT_NODE, 3, 0), NULL},

    /* invalid: each breaks one rule */
    {CASE("invalid", "magic_spec_spelling_modl.nlm", "NLM_BAD_MAGIC", "magic bytes 'MODL' as the spec spells them; files hold 'LDOM'", "NLM_BAD_MAGIC"), SKIN, magic_spec_spelling, 0, 0, MCG_ABS(4), NULL},
    {{"nlm/invalid/legacy_hashless.nlm", "nlm", "v1-hashless", "NLM_LEGACY_HASHLESS", "the older layout: magic at offset 0, no hash; one issue, no further checks", "NLM_LEGACY_HASHLESS", NULL}, STAT, legacy_hashless, 0, 0, MCG_ABS(0), NULL},
    {CASE("invalid", "version_3.nlm", "NLM_UNSUPPORTED_VERSION", "version 3: layout unknown, no further checks", "NLM_UNSUPPORTED_VERSION"), STAT, version_3, 0, 0, MCG_ABS(8), NULL},
    {CASE("invalid", "animation_flag_2.nlm", "NLM_ANIMATION_FLAG", "animation flag 2 in a static model", "NLM_ANIMATION_FLAG"), TWO, animation_flag_2, 0, 0, MCG_ABS(12), NULL},
    {CASE("invalid", "truncated_in_nodes.nlm", "NLM_TRUNCATED", "the last byte of the last node is missing", "NLM_TRUNCATED"), SKIN, NULL, 1, 0, MCG_END_AT(0), NULL},
    {CASE("invalid", "animation_flag_without_section.nlm", "NLM_TRUNCATED", "flag 1 but the file ends after the meshes", "NLM_TRUNCATED"), SKIN, flag_without_section, 0, 0, MCG_END_AT(0), NULL},
    {CASE("invalid", "trailing_bytes.nlm", "NLM_TRAILING_BYTES", "4 zero bytes after the last node", "NLM_TRAILING_BYTES"), SKIN, NULL, 0, 4, MCG_END_AT(-4), NULL},
    {CASE("invalid", "undeclared_animation.nlm", "NLM_UNDECLARED_ANIMATION", "flag 0 (vertices unskinned) but an animation section follows the meshes", "NLM_UNDECLARED_ANIMATION"), SKIN, undeclared_animation, 0, 0, AT(NLM_AT_ANIMATION, 0, 0), NULL},
    {CASE("invalid", "aabb_nan.nlm", "NLM_AABB_NOT_FINITE", "the AABB maximum's y is NaN", "NLM_AABB_NOT_FINITE"), TWO, aabb_nan, 0, 0, MCG_ABS(28), NULL},
    {CASE("invalid", "aabb_inverted.nlm", "NLM_AABB_INVERTED", "AABB min x 1 above max x 0.5: vertices are not judged against it", "NLM_AABB_INVERTED"), TWO, aabb_inverted, 0, 0, MCG_ABS(16), NULL},
    {CASE("invalid", "position_nan.nlm", "NLM_VERTEX_NOT_FINITE", "vertex 1's x is NaN (not judged against the AABB)", "NLM_VERTEX_NOT_FINITE"), STAT, position_nan, 0, 0, AT2(NLM_AT_VERTEX, 0, 1, 0), NULL},
    {CASE("invalid", "normal_nearly_zero.nlm", "NLM_NORMAL_NOT_UNIT", "vertex 1's normal is (0, 0, 0.001): not zero, not unit", "NLM_NORMAL_NOT_UNIT"), SKIN, normal_nearly_zero, 0, 0, AT2(NLM_AT_VERTEX, 0, 1, V_NORMAL), NULL},
    {CASE("invalid", "normal_length_0_9.nlm", "NLM_NORMAL_NOT_UNIT", "vertex 0's normal has length 0.9", "NLM_NORMAL_NOT_UNIT"), SKIN, normal_length_0_9, 0, 0, AT2(NLM_AT_VERTEX, 0, 0, V_NORMAL), NULL},
    {CASE("invalid", "bone_id_not_a_slot.nlm", "NLM_BONE_ID_UNDEFINED", "vertex 1 names bone 7; the slots are 0, 1, 2", "NLM_BONE_ID_UNDEFINED"), SKIN, bone_id_not_a_slot, 0, 0, AT2(NLM_AT_VERTEX, 0, 1, V_BONES + 4), NULL},
    {CASE("invalid", "static_vertex_names_bone.nlm", "NLM_STATIC_VERTEX_SKINNED", "vertex 2 of a model without animation names bone 0", "NLM_STATIC_VERTEX_SKINNED"), STAT, static_vertex_names_bone, 0, 0, AT2(NLM_AT_VERTEX, 0, 2, V_BONES), NULL},
    {CASE("invalid", "minus_one_slot_with_weight.nlm", "NLM_UNUSED_SLOT_WEIGHT", "a -1 slot of vertex 0 carries weight 0.1 (sum still 1)", "NLM_UNUSED_SLOT_WEIGHT"), SKIN, minus_one_slot_with_weight, 0, 0, AT2(NLM_AT_VERTEX, 0, 0, V_WEIGHTS + 8), NULL},
    {CASE("invalid", "weight_1_5.nlm", "NLM_WEIGHT_RANGE", "vertex 3's weights are 1.5 and -0.5 (sum 1)", "NLM_WEIGHT_RANGE*2"), SKIN, weight_1_5, 0, 0, AT2(NLM_AT_VERTEX, 0, 3, V_WEIGHTS), NULL},
    {CASE("invalid", "weights_sum_0_75.nlm", "NLM_WEIGHT_SUM", "vertex 2's weights sum to 0.75", "NLM_WEIGHT_SUM"), SKIN, weights_sum_0_75, 0, 0, AT2(NLM_AT_VERTEX, 0, 2, V_WEIGHTS), NULL},
    {CASE("invalid", "duplicate_bone_id_in_vertex.nlm", "NLM_DUPLICATE_BONE_ID", "vertex 1 names bone 0 in two slots", "NLM_DUPLICATE_BONE_ID"), SKIN, duplicate_bone_id_in_vertex, 0, 0, AT2(NLM_AT_VERTEX, 0, 1, V_BONES + 4), NULL},
    {CASE("invalid", "index_out_of_range.nlm", "NLM_INDEX_RANGE", "index 4 in a mesh of 4 vertices", "NLM_INDEX_RANGE"), SKIN, index_out_of_range, 0, 0, AT2(NLM_AT_INDEX, 0, 4, 0), NULL},
    {CASE("invalid", "duration_zero.nlm", "NLM_ANIMATION_DURATION", "an animation lasting 0 ticks (key times are not judged against it)", "NLM_ANIMATION_DURATION"), SKIN, duration_zero, 0, 0, AT(NLM_AT_ANIMATION, 0, 0), NULL},
    {CASE("invalid", "ticks_per_second_zero.nlm", "NLM_TICKS_PER_SECOND", "0 ticks per second", "NLM_TICKS_PER_SECOND"), SKIN, ticks_per_second_zero, 0, 0, AT(NLM_AT_ANIMATION, 0, 4), NULL},
    {CASE("invalid", "bone_info_node_id_twice.nlm", "NLM_BONE_INFO_DUPLICATE_ID", "bone infos 1 and 2 both name node 2; node 3's channel is left without its bone info", "NLM_BONE_INFO_DUPLICATE_ID NLM_CHANNEL_BONE_MISMATCH"), SKIN, bone_info_node_id_twice, 0, 0, AT(NLM_AT_BONE_INFO, 2, 0), NULL},
    {CASE("invalid", "skinning_slot_twice.nlm", "NLM_BONE_SLOT_DUPLICATE", "bones of nodes 2 and 3 share skinning slot 1", "NLM_BONE_SLOT_DUPLICATE"), SKIN, skinning_slot_twice, 0, 0, AT(NLM_AT_BONE_INFO, 2, 68), NULL},
    {CASE("invalid", "skinning_slot_negative.nlm", "NLM_BONE_SLOT_NEGATIVE", "bone 2's skinning slot is -5 (vertices and channel follow)", "NLM_BONE_SLOT_NEGATIVE"), SKIN, skinning_slot_negative, 0, 0, AT(NLM_AT_BONE_INFO, 2, 68), NULL},
    {CASE("invalid", "offset_matrix_nan.nlm", "NLM_BONE_MATRIX_NOT_FINITE", "a NaN in bone info 1's offset matrix", "NLM_BONE_MATRIX_NOT_FINITE"), SKIN, offset_matrix_nan, 0, 0, AT(NLM_AT_BONE_INFO, 1, 4), NULL},
    {CASE("invalid", "offset_matrix_singular.nlm", "NLM_BONE_MATRIX_SINGULAR", "bone info 0's offset matrix scales z by 0", "NLM_BONE_MATRIX_SINGULAR"), SKIN, offset_matrix_singular, 0, 0, AT(NLM_AT_BONE_INFO, 0, 4), NULL},
    {CASE("invalid", "channel_node_missing.nlm", "NLM_CHANNEL_NODE_MISSING", "channel 2 names node 9 of 4, which has no bone info either", "NLM_CHANNEL_NODE_MISSING NLM_CHANNEL_BONE_MISMATCH"), SKIN, channel_node_missing, 0, 0, AT(NLM_AT_CHANNEL, 2, 0), NULL},
    {CASE("invalid", "channel_bone_mismatch.nlm", "NLM_CHANNEL_BONE_MISMATCH", "channel 1 (node 2, info ID 1) says bone 2", "NLM_CHANNEL_BONE_MISMATCH"), SKIN, channel_bone_mismatch, 0, 0, AT(NLM_AT_CHANNEL, 1, 4), NULL},
    {CASE("invalid", "channel_no_rotation_keys.nlm", "NLM_CHANNEL_NO_KEYS", "channel 1 has 0 rotation keys", "NLM_CHANNEL_NO_KEYS"), SKIN, channel_no_rotation_keys, 0, 0, AT(NLM_AT_CHANNEL, 1, 12), NULL},
    {CASE("invalid", "key_nan.nlm", "NLM_KEY_NOT_FINITE", "a NaN in channel 0's second position key", "NLM_KEY_NOT_FINITE"), SKIN, key_nan, 0, 0, AT2(NLM_AT_POSITION_KEY, 0, 1, 0), NULL},
    {CASE("invalid", "key_times_equal.nlm", "NLM_KEY_TIME_ORDER", "channel 2's two scale keys both at t = 0", "NLM_KEY_TIME_ORDER"), SKIN, key_times_equal, 0, 0, AT2(NLM_AT_SCALE_KEY, 2, 1, 0), NULL},
    {CASE("invalid", "key_time_past_duration.nlm", "NLM_KEY_TIME_RANGE", "a position key at 3 ticks in a 2-tick animation", "NLM_KEY_TIME_RANGE"), SKIN, key_time_past_duration, 0, 0, AT2(NLM_AT_POSITION_KEY, 1, 1, 0), NULL},
    {CASE("invalid", "rotation_key_not_unit.nlm", "NLM_KEY_ROTATION_NOT_UNIT", "the identity rotation with w halved: length 0.5", "NLM_KEY_ROTATION_NOT_UNIT"), SKIN, rotation_key_not_unit, 0, 0, AT2(NLM_AT_ROTATION_KEY, 0, 0, 4), NULL},
    {CASE("invalid", "scale_key_zero.nlm", "NLM_KEY_SCALE_ZERO", "a scale key with y = 0", "NLM_KEY_SCALE_ZERO"), SKIN, scale_key_zero, 0, 0, AT2(NLM_AT_SCALE_KEY, 2, 0, 4), NULL},
    {CASE("invalid", "no_nodes.nlm", "NLM_NODE_LIST_EMPTY", "an animated model with 0 nodes (node references are not judged against an empty list)", "NLM_NODE_LIST_EMPTY"), SKIN, no_nodes, 0, 0, AT(NLM_AT_NODE_COUNT, 0, 0), NULL},
    {CASE("invalid", "node_id_twice.nlm", "NLM_NODE_DUPLICATE_ID", "node 3 has ID 2: no node has ID 3, which node 3's bone info and channel name", "NLM_NODE_DUPLICATE_ID NLM_NODE_ID_NOT_INDEX NLM_BONE_INFO_NODE_MISSING NLM_CHANNEL_NODE_MISSING"), SKIN, node_id_twice, 0, 0, AT(NLM_AT_NODE, 3, 0), NULL},
    {CASE("invalid", "child_id_out_of_range.nlm", "NLM_NODE_CHILD_RANGE", "node 3's child is 4 of 4 nodes", "NLM_NODE_CHILD_RANGE"), SKIN, child_id_out_of_range, 0, 0, AT2(NLM_AT_CHILD, 3, 0, 0), NULL},
    {CASE("invalid", "node_two_parents.nlm", "NLM_NODE_MULTIPLE_PARENTS", "node 3 is a child of nodes 1 and 2", "NLM_NODE_MULTIPLE_PARENTS"), SKIN, node_two_parents, 0, 0, AT2(NLM_AT_CHILD, 2, 0, 0), NULL},
    {CASE("invalid", "node_cycle_1000.nlm", "NLM_NODE_CYCLE", "1000 nodes in one ring through node 0: the engine recurses forever", "NLM_NODE_CYCLE NLM_NODE_ROOT_HAS_PARENT"), SKIN, node_cycle_1000, 0, 0, AT2(NLM_AT_CHILD, 999, 0, 0), NULL},
    {CASE("invalid", "root_listed_as_child.nlm", "NLM_NODE_ROOT_HAS_PARENT", "node 2's child is node 0, the root: 0 -> 1 -> 2 -> 0", "NLM_NODE_ROOT_HAS_PARENT NLM_NODE_CYCLE"), SKIN, root_listed_as_child, 0, 0, AT2(NLM_AT_CHILD, 2, 0, 0), NULL},
    {CASE("invalid", "second_root.nlm", "NLM_NODE_UNREACHABLE", "node 1 drops child 3: node 3 is a second root", "NLM_NODE_UNREACHABLE"), SKIN, second_root, 0, 0, AT(NLM_AT_NODE, 3, 0), NULL},
    {CASE("invalid", "node_transform_inf.nlm", "NLM_NODE_TRANSFORM_NOT_FINITE", "an infinity in node 2's transformation", "NLM_NODE_TRANSFORM_NOT_FINITE"), SKIN, node_transform_inf, 0, 0, AT(NLM_AT_NODE, 2, 4), NULL},
    /* edge cases (issue 7) */
    {CASE("valid", "zero_meshes.nlm", NULL, "a static model of 0 meshes: header, AABB and a mesh count of 0", "FILE_NO_CONTENT"), TWO, zero_meshes, 0, 0, NOWHERE, NULL},
    {CASE("valid", "mesh_zero_vertices_zero_indices.nlm", NULL, "the second mesh has 0 vertices, 0 indices and no texture", ""), TWO, mesh_zero_vertices_zero_indices, 0, 0, NOWHERE, NULL},
    {CASE("valid", "mesh_zero_indices.nlm", NULL, "a textured mesh of 4 vertices and 0 indices", ""), STAT, mesh_zero_indices, 0, 0, NOWHERE, NULL},
    {CASE("valid", "animated_zero_channels.nlm", NULL, "3 bones, a bone map of 0 entries: nothing is animated", ""), SKIN, animated_zero_channels, 0, 0, NOWHERE, NULL},
    {CASE("valid", "animated_zero_meshes_bones_channels.nlm", NULL, "animation flag 1 with 0 meshes, 0 bone infos and 0 channels: only the 4 nodes", ""), SKIN, animated_nothing_but_nodes, 0, 0, NOWHERE, NULL},
    {CASE("valid", "one_of_everything.nlm", NULL, "1 mesh (3 vertices, 3 indices, a PNG), 1 bone info, 1 channel of 1 key of each kind, 1 node", ""), SKIN, one_of_everything, 0, 0, NOWHERE, NULL},
    {CASE("valid", "skinning_slot_99.nlm", NULL, "bone 2's skinning slot is 99 (vertices and channel follow): the last entry of the engine's array", ""), SKIN, skinning_slot_99, 0, 0, NOWHERE, NULL},
    {CASE("invalid", "channel_no_position_keys.nlm", "NLM_CHANNEL_NO_KEYS", "channel 0 has 0 position keys", "NLM_CHANNEL_NO_KEYS"), SKIN, channel_no_position_keys, 0, 0, AT(NLM_AT_CHANNEL, 0, 8), NULL},
    {CASE("invalid", "channel_no_scale_keys.nlm", "NLM_CHANNEL_NO_KEYS", "channel 2 has 0 scale keys", "NLM_CHANNEL_NO_KEYS"), SKIN, channel_no_scale_keys, 0, 0, AT(NLM_AT_CHANNEL, 2, 16), NULL},
    {{"nlm/invalid/mesh_claims_2_pow_31_vertices.nlm", "nlm", "v2", "NLM_TRUNCATED", "a 100-byte file whose one mesh claims 2^31 vertices; its hash is the FNV basis", "NLM_HASH_UNCOMPUTED NLM_TRUNCATED", NULL}, SKIN, NULL, 0, 0, MCG_ABS(100), nlmb_write_huge_vertex_count},
};

const size_t mcg_nlm_case_count = sizeof nlm_cases / sizeof nlm_cases[0];

static uint64_t place(const void *model, int p, uint64_t i, uint64_t sub)
{
    const nlmb_model *m = model;
    switch (p) {
    case NLM_AT_MESH: return nlmb_mesh_offset(m, (uint32_t)i);
    case NLM_AT_VERTEX: return nlmb_vertex_offset(m, (uint32_t)i, sub);
    case NLM_AT_INDEX: return nlmb_index_offset(m, (uint32_t)i, sub);
    case NLM_AT_TEXTURE: return nlmb_texture_offset(m, (uint32_t)i);
    case NLM_AT_ANIMATION: return nlmb_animation_offset(m);
    case NLM_AT_BONE_INFO: return nlmb_bone_info_offset(m, (uint32_t)i);
    case NLM_AT_CHANNEL: return nlmb_channel_offset(m, (uint32_t)i);
    case NLM_AT_POSITION_KEY:
    case NLM_AT_ROTATION_KEY:
    case NLM_AT_SCALE_KEY:
        return nlmb_key_offset(m, (uint32_t)i, NLMB_POSITION + (int)(p - NLM_AT_POSITION_KEY), sub);
    case NLM_AT_NODE_COUNT: return nlmb_node_count_offset(m);
    case NLM_AT_NODE: return nlmb_node_offset(m, (uint32_t)i);
    case NLM_AT_CHILD: return nlmb_child_offset(m, (uint32_t)i, (uint32_t)sub);
    default: return 0;
    }
}

static int build(const void *row, mcb_buf *b, uint64_t *first)
{
    const nlm_case *c = row;
    *first = 0;
    if (c->bytes) {
        c->bytes(b);
        *first = mcg_offset(&c->first, b->size, place, NULL);
        return b->oom ? -1 : 0;
    }
    nlmb_model *m = nlmb_sample(c->base);
    if (!m) return -1;
    if (c->mutate && c->mutate(m) != 0) {
        nlmb_free(m);
        return -1;
    }
    nlmb_write(m, b);
    if (c->truncate_by > 0 && (size_t)c->truncate_by <= b->size) b->size -= (size_t)c->truncate_by;
    if (c->append > 0) mcb_zeros(b, (size_t)c->append);
    *first = mcg_offset(&c->first, b->size, place, m);
    nlmb_free(m);
    return b->oom ? -1 : 0;
}

const mcg_table mcg_nlm_table = MCG_TABLE("nlm", nlm_cases, nlm_case, build);
