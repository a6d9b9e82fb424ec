/* SEModel conformance cases, both layouts: each starts from a valid sample
 * and changes one thing, so the file shows exactly the issue it is named
 * after. valid/ holds files without errors (some with the warning or info
 * their name gives), invalid/ one file per error code. */
#include <stdio.h>
#include <string.h>

#include "corpus_cases.h"
#include "semodel_builder.h"

typedef int (*se_mutation)(semb_model *m);

typedef struct se_case {
    const char *dir;  /* valid or invalid */
    const char *name; /* file name: says what it is */
    enum semb_sample_kind base;
    enum semb_layout layout;
    se_mutation mutate;
    long truncate_by; /* bytes cut from the end after writing */
} se_case;

/* ---- valid ---- */

/* bone_t becomes u16; weights use the high bone indices. */
static int bones_300(semb_model *m)
{
    if (semb_set_bones(m, 300) != 0) return -1;
    semb_mesh *s = &m->meshes[0];
    for (uint32_t v = 0; v < s->nvertices; v++) s->bone[v * s->nslots] = 299 - v;
    return 0;
}

static int header_size_0x1c(semb_model *m)
{
    m->header_size = 0x1C;
    return 0;
}

static int seblend_trailer(semb_model *m)
{
    static const unsigned char t[16 + 12 + 4 * 12 * 2] = {
        'S', 'E', 'B', 'l', 'e', 'n', 'd', '\n', 2, 0, 0, 0, 0, 0, 0, 0,
        's', 'm', 'i', 'l', 'e', 0, 'b', 'l', 'i', 'n', 'k', 0};
    return semb_set_tail(m, t, sizeof t);
}

static int reserved_nonzero(semb_model *m)
{
    m->reserved[2] = 0x5A;
    return 0;
}

static int bone_count_without_flag(semb_model *m)
{
    m->data_flags &= (uint8_t)~SEMB_BONE;
    return 0;
}

static int bone_flag_without_count(semb_model *m)
{
    m->data_flags |= SEMB_BONE;
    return 0;
}

static int uv_layers_without_uvset(semb_model *m)
{
    m->mesh_flags &= (uint8_t)~SEMB_UVSET;
    return 0;
}

static int uvset_without_uv_layers(semb_model *m)
{
    m->meshes[0].layers = 0;
    return 0;
}

static int collision_block(semb_model *m)
{
    m->data_flags |= SEMB_COLLISION_DRAFT;
    m->col_count = 1;
    return 0;
}

static int custom_block(semb_model *m)
{
    m->data_flags |= SEMB_CUSTOM_2018;
    return semb_set_tail(m, "custom data", 11);
}

static int model_type_7(semb_model *m)
{
    m->model_type = 7;
    return 0;
}

static int bone_flags_set(semb_model *m)
{
    m->bones[1].flags = 1;
    return 0;
}

static int duplicate_bone_name(semb_model *m)
{
    strcpy(m->bones[2].name, "bone0");
    return 0;
}

static int degenerate_face(semb_model *m)
{
    m->meshes[0].face[1][2] = m->meshes[0].face[1][0];
    return 0;
}

static int skin_influence_zero(semb_model *m)
{
    m->meshes[0].influences = 0;
    return 0;
}

static int skin_influence_without_weights(semb_model *m)
{
    m->max_influence = 4;
    return 0;
}

static int material_simple_2(semb_model *m)
{
    m->materials[0].simple = 2;
    return 0;
}

/* ---- invalid ---- */

static int version_2(semb_model *m)
{
    m->version = 2;
    return 0;
}

static int header_size_0x18(semb_model *m)
{
    m->header_size = 0x18;
    return 0;
}

static int bone_count_max(semb_model *m)
{
    m->nbones = 0;
    m->bone_count = 0xFFFFFFFFu;
    m->nmeshes = 0; /* the header alone: 29 bytes */
    m->mesh_count = 0;
    m->data_flags = SEMB_BONE;
    return 0;
}

static int vertex_count_max(semb_model *m)
{
    m->meshes[0].vertex_count = 0xFFFFFFFFu;
    return 0;
}

static int trailing_bytes(semb_model *m)
{
    return semb_set_tail(m, "\0\0\0\0", 4);
}

static int unknown_flag_bit(semb_model *m)
{
    m->data_flags |= 0x10;
    return 0;
}

static int no_data_block(semb_model *m)
{
    m->data_flags = 0;
    m->nmeshes = 0;
    m->mesh_count = 0;
    m->nmaterials = 0;
    m->mat_count = 0;
    return 0;
}

/* Small bone records and a long last name, so the bytes left pass the
 * minimum-size check and the file ends inside the name (records cut). */
static int unterminated_name(semb_model *m)
{
    m->nmeshes = 0;
    m->mesh_count = 0;
    m->data_flags = SEMB_BONE;
    m->bone_flags = 0;
    strcpy(m->bones[2].name, "bone2_whose_name_runs_to_the_end_of_the_file");
    return 0;
}

static int name_not_utf8(semb_model *m)
{
    strcpy(m->bones[1].name, "arm\xff");
    return 0;
}

static int name_empty(semb_model *m)
{
    m->bones[2].name[0] = '\0';
    return 0;
}

static int parent_self(semb_model *m)
{
    m->bones[1].parent = 1;
    return 0;
}

static int parent_forward(semb_model *m)
{
    m->bones[0].parent = 2;
    return 0;
}

static int parent_range(semb_model *m)
{
    m->bones[2].parent = 3;
    return 0;
}

static int bone_position_nan(semb_model *m)
{
    m->bones[1].global_position[1] = 0.0f / 0.0f;
    return 0;
}

static int bone_rotation_not_unit(semb_model *m)
{
    m->bones[2].local_rotation[3] = 0.5f;
    return 0;
}

static int bone_scale_zero(semb_model *m)
{
    m->bones[1].scale[0] = 0.0f;
    return 0;
}

static int half_normal_infinite(semb_model *m)
{
    m->meshes[0].normal[2][2] = 1.0f / 0.0f;
    return 0;
}

static int normal_length_0_9(semb_model *m)
{
    m->meshes[0].normal[1][2] = 0.9f;
    return 0;
}

static int face_index_out_of_range(semb_model *m)
{
    m->meshes[0].face[3][1] = m->meshes[0].vertex_count;
    return 0;
}

static int weight_bone_out_of_range(semb_model *m)
{
    m->meshes[0].bone[5 * 2] = 3;
    return 0;
}

/* 1.5 and -0.5 still sum to 1: only the range is wrong */
static int weight_1_5(semb_model *m)
{
    m->meshes[0].weight[2 * 2] = 1.5f;
    m->meshes[0].weight[2 * 2 + 1] = -0.5f;
    return 0;
}

static int weights_sum_0_95(semb_model *m)
{
    m->meshes[0].weight[4 * 2] = 0.7f;
    return 0;
}

static int material_index_out_of_range(semb_model *m)
{
    m->meshes[1].material[2] = 3;
    return 0;
}

static int mat_t_out_of_range(semb_model *m)
{
    m->meshes[0].uv_material[2 * 3 + 1] = 3;
    return 0;
}

static int seblend_count_too_large(semb_model *m)
{
    static const unsigned char t[20] = {'S', 'E', 'B', 'l', 'e', 'n', 'd', '\n',
                                        0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 'a', 0, 'b', 0};
    return semb_set_tail(m, t, sizeof t);
}

static const se_case se_cases[] = {
    {"valid", "static_2018.semodel", SEMB_STATIC, SEMB_2018, NULL, 0},
    {"valid", "skinned_2018.semodel", SEMB_SKINNED, SEMB_2018, NULL, 0},
    {"valid", "skinned_300_bones_u16_2018.semodel", SEMB_SKINNED, SEMB_2018, bones_300, 0},
    {"valid", "uv_layers_materials_2018.semodel", SEMB_UV_LAYERS, SEMB_2018, NULL, 0},
    {"valid", "static_draft.semodel", SEMB_STATIC, SEMB_DRAFT, NULL, 0},
    {"valid", "skinned_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, NULL, 0},
    {"valid", "skinned_300_bones_u16_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, bones_300, 0},
    {"valid", "uv_layers_materials_draft_block_undefined.semodel", SEMB_UV_LAYERS, SEMB_DRAFT, NULL, 0},
    {"valid", "header_size_0x1c_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, header_size_0x1c, 0},
    {"valid", "seblend_greyhound_2018.semodel", SEMB_STATIC, SEMB_2018, seblend_trailer, 0},
    {"valid", "reserved_byte_nonzero_2018.semodel", SEMB_STATIC, SEMB_2018, reserved_nonzero, 0},
    {"valid", "bone_count_without_flag_2018.semodel", SEMB_SKINNED, SEMB_2018, bone_count_without_flag, 0},
    {"valid", "bone_flag_without_count_2018.semodel", SEMB_STATIC, SEMB_2018, bone_flag_without_count, 0},
    {"valid", "uv_layers_without_uvset_2018.semodel", SEMB_UV_LAYERS, SEMB_2018, uv_layers_without_uvset, 0},
    {"valid", "uvset_without_uv_layers_2018.semodel", SEMB_STATIC, SEMB_2018, uvset_without_uv_layers, 0},
    {"valid", "collision_block_draft.semodel", SEMB_STATIC, SEMB_DRAFT, collision_block, 0},
    {"valid", "custom_block_2018.semodel", SEMB_STATIC, SEMB_2018, custom_block, 0},
    {"valid", "model_type_7_draft.semodel", SEMB_STATIC, SEMB_DRAFT, model_type_7, 0},
    {"valid", "bone_flags_set_2018.semodel", SEMB_SKINNED, SEMB_2018, bone_flags_set, 0},
    {"valid", "duplicate_bone_name_2018.semodel", SEMB_SKINNED, SEMB_2018, duplicate_bone_name, 0},
    {"valid", "degenerate_face_2018.semodel", SEMB_STATIC, SEMB_2018, degenerate_face, 0},
    {"valid", "skin_influence_zero_2018.semodel", SEMB_SKINNED, SEMB_2018, skin_influence_zero, 0},
    {"valid", "skin_influence_without_weights_draft.semodel", SEMB_STATIC, SEMB_DRAFT,
     skin_influence_without_weights, 0},
    {"valid", "material_simple_2_2018.semodel", SEMB_STATIC, SEMB_2018, material_simple_2, 0},
    {"invalid", "version_2.semodel", SEMB_STATIC, SEMB_2018, version_2, 0},
    {"invalid", "header_size_0x18.semodel", SEMB_STATIC, SEMB_2018, header_size_0x18, 0},
    {"invalid", "truncated_in_faces_2018.semodel", SEMB_SKINNED, SEMB_2018, NULL, 1},
    {"invalid", "truncated_in_faces_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, NULL, 5},
    {"invalid", "bone_count_4294967295_header_only.semodel", SEMB_SKINNED, SEMB_2018, bone_count_max, 0},
    {"invalid", "vertex_count_4294967295_draft.semodel", SEMB_STATIC, SEMB_DRAFT, vertex_count_max, 0},
    {"invalid", "trailing_bytes_2018.semodel", SEMB_STATIC, SEMB_2018, trailing_bytes, 0},
    {"invalid", "trailing_bytes_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, trailing_bytes, 0},
    {"invalid", "reserved_presence_bit_draft.semodel", SEMB_STATIC, SEMB_DRAFT, unknown_flag_bit, 0},
    {"invalid", "no_data_block_2018.semodel", SEMB_STATIC, SEMB_2018, no_data_block, 0},
    {"invalid", "bone_name_runs_to_end_of_file.semodel", SEMB_SKINNED, SEMB_2018, unterminated_name, 3 * 5 + 1},
    {"invalid", "material_map_runs_to_end_of_file.semodel", SEMB_STATIC, SEMB_2018, NULL, 1},
    {"invalid", "bone_name_not_utf8.semodel", SEMB_SKINNED, SEMB_2018, name_not_utf8, 0},
    {"invalid", "bone_name_empty_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, name_empty, 0},
    {"invalid", "bone_parent_self.semodel", SEMB_SKINNED, SEMB_2018, parent_self, 0},
    {"invalid", "bone_parent_forward.semodel", SEMB_SKINNED, SEMB_2018, parent_forward, 0},
    {"invalid", "bone_parent_out_of_range_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, parent_range, 0},
    {"invalid", "bone_position_nan.semodel", SEMB_SKINNED, SEMB_2018, bone_position_nan, 0},
    {"invalid", "bone_rotation_not_unit.semodel", SEMB_SKINNED, SEMB_2018, bone_rotation_not_unit, 0},
    {"invalid", "bone_scale_zero_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, bone_scale_zero, 0},
    {"invalid", "half_normal_infinite_draft.semodel", SEMB_STATIC, SEMB_DRAFT, half_normal_infinite, 0},
    {"invalid", "normal_length_0_9_2018.semodel", SEMB_STATIC, SEMB_2018, normal_length_0_9, 0},
    {"invalid", "face_index_out_of_range_2018.semodel", SEMB_SKINNED, SEMB_2018, face_index_out_of_range, 0},
    {"invalid", "face_index_out_of_range_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, face_index_out_of_range, 0},
    {"invalid", "weight_bone_out_of_range_2018.semodel", SEMB_SKINNED, SEMB_2018, weight_bone_out_of_range, 0},
    {"invalid", "weights_1_5_and_minus_0_5_2018.semodel", SEMB_SKINNED, SEMB_2018, weight_1_5, 0},
    {"invalid", "weights_sum_0_95_draft.semodel", SEMB_SKINNED, SEMB_DRAFT, weights_sum_0_95, 0},
    {"invalid", "material_index_out_of_range_2018.semodel", SEMB_UV_LAYERS, SEMB_2018, material_index_out_of_range, 0},
    {"invalid", "mat_t_out_of_range_draft.semodel", SEMB_UV_LAYERS, SEMB_DRAFT, mat_t_out_of_range, 0},
    {"invalid", "seblend_count_too_large.semodel", SEMB_STATIC, SEMB_2018, seblend_count_too_large, 0},
};

static int write_se_case(const char *root, const se_case *c)
{
    char path[4096];
    semb_model *m = semb_sample(c->base, c->layout);
    if (!m) return -1;
    if (c->mutate && c->mutate(m) != 0) {
        semb_free(m);
        return -1;
    }
    mcb_buf b = {0};
    semb_write(m, &b);
    semb_free(m);
    if (c->truncate_by > 0 && (size_t)c->truncate_by <= b.size) b.size -= (size_t)c->truncate_by;
    snprintf(path, sizeof path, "%s/semodel/%s/%s", root, c->dir, c->name);
    int rc = mcb_write_file(&b, path);
    if (rc != 0) fprintf(stderr, "mc_corpusgen: cannot write %s\n", path);
    mcb_free(&b);
    return rc;
}

/* The cases are not in the manifest yet (tests/corpus/uncovered.txt). */
int mcg_write_semodel(const char *root, mcg_manifest *mf)
{
    (void)mf;
    if (mcg_mkdir(root, "semodel") || mcg_mkdir(root, "semodel/valid") ||
        mcg_mkdir(root, "semodel/invalid"))
        return -1;
    for (size_t i = 0; i < sizeof se_cases / sizeof se_cases[0]; i++)
        if (write_se_case(root, &se_cases[i]) != 0) return -1;
    return 0;
}
