/*
 * SEModel conformance cases, both layouts: each starts from a valid sample
 * and changes one thing, so the file shows exactly the issue it is named
 * after. valid/ holds files without errors (some with the warning or info
 * their name gives), invalid/ at least one file per error code. The
 * expectation is written here by hand, from semodel.md and docs/formats/semodel.md
 * "SEModel", never computed by running the validator.
 */
#include <stdio.h>
#include <string.h>

#include "corpus_cases.h"
#include "semodel_builder.h"

/* The places an SEModel row's first offset is counted from (mcg_at: index,
 * sub), as semb_write recorded them in the row's model. */
enum mcg_semodel_place {
    SE_AT_BONE_NAME,    /* bone index's name */
    SE_AT_BONE,         /* bone index's record */
    SE_AT_MESH,         /* mesh index's header */
    SE_AT_NORMALS,      /* 2018: mesh index's normals */
    SE_AT_WEIGHTS,      /* 2018: mesh index's weights */
    SE_AT_FACES,        /* mesh index's faces */
    SE_AT_MATERIALS,    /* 2018: mesh index's material references */
    SE_AT_MATERIAL,     /* material index */
    SE_AT_DRAFT_NORMAL, /* draft: vertex sub of mesh index, its normal */
    SE_AT_DRAFT_WEIGHTS,
    SE_AT_DRAFT_MAT,
    SE_AT_TAIL          /* the bytes after the last block */
};

typedef struct semodel_case {
    mcg_case meta;
    enum semb_sample_kind base;
    enum semb_layout layout;
    int (*mutate)(semb_model *m); /* 0 on success */
    long truncate_by; /* bytes cut from the end after writing */
    mcg_at first;     /* where meta.rule first fires */
    int from_empty;   /* mutate fills semb_new(layout) instead of a sample */
} semodel_case;

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

/* Greyhound's SEBlend block as the Wraith/Greyhound writer lays it out
 * (docs/formats/semodel.md); its offsets are listed at semb_set_seblend_sample. */
static int seblend_trailer(semb_model *m)
{
    return semb_set_seblend_sample(m);
}

/* Every vertex of every mesh in file order: a delta on mesh 1's vertex 0. */
static int seblend_two_meshes(semb_model *m)
{
    semb_delta d = {m->meshes[0].vertex_count, 0, {0, 0, 0.25f}};
    return semb_set_seblend(m, 1, "open", 5, &d, 1);
}

static int seblend_count_zero(semb_model *m)
{
    return semb_set_seblend(m, 0, "", 0, NULL, 0);
}

static int seblend_count_zero_no_deltas(semb_model *m)
{
    if (seblend_count_zero(m)) return -1;
    m->tail_size = 16;
    return 0;
}

static int seblend_cut_short(semb_model *m)
{
    if (seblend_trailer(m)) return -1;
    m->tail_size -= 4;
    return 0;
}

static int seblend_padded(semb_model *m)
{
    uint8_t t[112] = {0};
    if (seblend_trailer(m) || m->tail_size + 4 != sizeof t) return -1;
    memcpy(t, m->tail, m->tail_size);
    return semb_set_tail(m, t, sizeof t);
}

static int seblend_shape_2_of_2(semb_model *m)
{
    if (seblend_trailer(m)) return -1;
    semb_tail_u32(m, 32, 2);
    return 0;
}

static int seblend_delta_nan(semb_model *m)
{
    if (seblend_trailer(m)) return -1;
    semb_tail_u32(m, 36, 0x7FC00000u);
    return 0;
}

static int seblend_delta_count_huge(semb_model *m)
{
    if (seblend_trailer(m)) return -1;
    semb_tail_u32(m, 84, 0xFFFFFFFFu);
    return 0;
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

static int bad_magic(semb_model *m)
{
    memcpy(m->magic, "SEMODEL", 7);
    return 0;
}

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

/* (0, 0, 0) says "no normal": one warning per mesh. */
static int normals_zero(semb_model *m)
{
    for (uint32_t v = 0; v < m->meshes[0].vertex_count; v++)
        memset(m->meshes[0].normal[v], 0, sizeof m->meshes[0].normal[v]);
    return 0;
}

static int normal_nearly_zero(semb_model *m)
{
    memset(m->meshes[0].normal[1], 0, sizeof m->meshes[0].normal[1]);
    m->meshes[0].normal[1][1] = 0.001f;
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

#define AT(place, index, add) MCG_AT(place, index, add)
#define AT2(place, index, sub, add) MCG_AT2(place, index, sub, add)
#define NOWHERE MCG_NOWHERE_AT
#define S18 SEMB_2018
#define SDR SEMB_DRAFT
#define CASE(dir, file, layout, rule, desc, expect) \
    {"semodel/" dir "/" file, "semodel", layout, rule, desc, expect, NULL}


/* ---- edge cases (issue 7): built from an empty model, not a sample ---- */

static int zero_vertices_zero_faces(semb_model *m)
{
    return semb_add_mesh(m, 0, 0, 0, 0) ? 0 : -1;
}

static int zero_faces(semb_model *m)
{
    m->mesh_flags = SEMB_NORMALS | SEMB_COLOR;
    return semb_add_mesh(m, 4, 0, 0, 0) ? 0 : -1;
}

static int bones_only(semb_model *m)
{
    m->bone_flags = SEMB_GLOBAL | SEMB_LOCAL | SEMB_SCALES;
    return semb_set_bones(m, 3);
}

static int materials_only(semb_model *m)
{
    return semb_set_materials(m, 1);
}

/* 1 bone, 1 mesh of 3 vertices and 1 face, 1 UV layer, 1 influence, 1 material */
static int one_of_everything(semb_model *m)
{
    m->bone_flags = SEMB_GLOBAL | SEMB_LOCAL | SEMB_SCALES;
    m->mesh_flags = SEMB_UVSET | SEMB_NORMALS | SEMB_COLOR | SEMB_WEIGHTS;
    m->max_influence = 1;
    if (semb_set_bones(m, 1) != 0 || !semb_add_mesh(m, 3, 1, 1, 1)) return -1;
    return semb_set_materials(m, 1);
}

/* positions only (the smallest vertex the format allows) and one face
 * naming the first, a middle and the last vertex */
static int faces_spanning(semb_model *m, uint32_t n, uint8_t width)
{
    semb_mesh *s = semb_add_mesh(m, n, 1, 0, 0);
    if (!s) return -1;
    s->face[0][0] = 0;
    s->face[0][1] = n / 2;
    s->face[0][2] = n - 1;
    s->face_width = width;
    return 0;
}

static int faces_255(semb_model *m) { return faces_spanning(m, 255, 0); }
static int faces_256(semb_model *m) { return faces_spanning(m, 256, 0); }
static int faces_65535(semb_model *m) { return faces_spanning(m, 65535, 0); }
static int faces_65536(semb_model *m) { return faces_spanning(m, 65536, 0); }
static int faces_u8_256(semb_model *m) { return faces_spanning(m, 256, 1); }

/* u16 face (253, 254, 252): bytes FD 00 FE 00 FC 00; read as u8 the face is
 * (253, 0, 254) and 00 FC 00 is left over */
static int faces_u16_255(semb_model *m)
{
    if (faces_spanning(m, 255, 2) != 0) return -1;
    m->meshes[0].face[0][0] = 253;
    m->meshes[0].face[0][1] = 254;
    m->meshes[0].face[0][2] = 252;
    return 0;
}

/* n bones without transforms; a mesh of 3 weighted vertices, the last on
 * bone n - 1 */
static int bones_weighted(semb_model *m, uint32_t n)
{
    m->mesh_flags = SEMB_WEIGHTS;
    m->max_influence = 1;
    if (semb_set_bones(m, n) != 0) return -1;
    semb_mesh *s = semb_add_mesh(m, 3, 1, 0, 1);
    if (!s) return -1;
    s->bone[2] = n - 1;
    return 0;
}

static int bones_255(semb_model *m) { return bones_weighted(m, 255); }
static int bones_256(semb_model *m) { return bones_weighted(m, 256); }

/* 256 bones, one vertex weighted to bone 255 written as a u8 bone_t: the
 * mesh (1 vertex, 0 faces, the file's last bytes) is 1 byte short */
static int bones_256_u8(semb_model *m)
{
    m->mesh_flags = SEMB_WEIGHTS;
    if (semb_set_bones(m, 256) != 0) return -1;
    semb_mesh *s = semb_add_mesh(m, 1, 0, 0, 1);
    if (!s) return -1;
    s->bone[0] = 255;
    m->bone_width = 1;
    return 0;
}

/* draft: n materials (the block itself is TODO in the draft); a mesh of 3
 * vertices with 1 UV layer, the last vertex on material n - 1 */
static int materials_mat_t(semb_model *m, uint32_t n)
{
    m->mesh_flags = SEMB_UVSET;
    semb_mesh *s = semb_add_mesh(m, 3, 1, 1, 0);
    if (!s) return -1;
    s->uv_material[2] = n - 1;
    return semb_set_materials(m, n);
}

static int mat_t_255(semb_model *m) { return materials_mat_t(m, 255); }
static int mat_t_256(semb_model *m) { return materials_mat_t(m, 256); }

/* 256 materials, one vertex (0 faces) whose mat_t 255 is written as u8 */
static int mat_t_256_u8(semb_model *m)
{
    m->mesh_flags = SEMB_UVSET;
    semb_mesh *s = semb_add_mesh(m, 1, 0, 1, 0);
    if (!s) return -1;
    s->uv_material[0] = 255;
    m->mat_width = 1;
    return semb_set_materials(m, 256);
}

#define EDGE(dir, file, layout, rule, desc, expect) \
    {"semodel/" dir "/" file, "semodel", layout, rule, desc, expect, NULL}


static const semodel_case semodel_cases[] = {
    /* valid: no errors; warnings and infos only where named */
    {CASE("valid", "static_2018.semodel", "2018", NULL, "1 mesh (4 vertices, 2 faces, 1 UV layer, normals, colors), 1 material", ""), SEMB_STATIC, S18, NULL, 0, NOWHERE, 0},
    {CASE("valid", "skinned_2018.semodel", "2018", NULL, "3 bones (global, local, scales), 1 mesh of 8 vertices with 2 weights each", ""), SEMB_SKINNED, S18, NULL, 0, NOWHERE, 0},
    {CASE("valid", "skinned_300_bones_u16_2018.semodel", "2018", NULL, "300 bones: bone_t is u16, weights name bones up to 299", ""), SEMB_SKINNED, S18, bones_300, 0, NOWHERE, 0},
    {CASE("valid", "uv_layers_materials_2018.semodel", "2018", NULL, "2 meshes with 3 UV layers each, 3 materials", ""), SEMB_UV_LAYERS, S18, NULL, 0, NOWHERE, 0},
    {CASE("valid", "static_draft.semodel", "draft", NULL, "the draft's static mesh: half normals, colors, no UV", ""), SEMB_STATIC, SDR, NULL, 0, NOWHERE, 0},
    {CASE("valid", "skinned_draft.semodel", "draft", NULL, "3 bones, 1 mesh of 8 vertices, maxSkinInfluence 2 in the header", ""), SEMB_SKINNED, SDR, NULL, 0, NOWHERE, 0},
    {CASE("valid", "skinned_300_bones_u16_draft.semodel", "draft", NULL, "300 bones: bone_t is u16 in the vertex records", ""), SEMB_SKINNED, SDR, bones_300, 0, NOWHERE, 0},
    {CASE("valid", "uv_layers_materials_draft_block_undefined.semodel", "draft", "SEMODEL_DRAFT_BLOCK_UNDEFINED", "3 UV layers with mat_t indices; the MATERIALS flag announces a block the draft leaves TODO", "SEMODEL_DRAFT_BLOCK_UNDEFINED"), SEMB_UV_LAYERS, SDR, NULL, 0, MCG_ABS(14), 0},
    {CASE("valid", "header_size_0x1c_draft.semodel", "draft", "SEMODEL_HEADER_SIZE_28", "draft headerSize 0x1C (the header without its own field): still the draft layout", "SEMODEL_HEADER_SIZE_28"), SEMB_SKINNED, SDR, header_size_0x1c, 0, MCG_ABS(9), 0},
    {CASE("valid", "seblend_greyhound_2018.semodel", "2018", "SEMODEL_SEBLEND_TRAILER", "Greyhound's SEBlend block after the materials, in the writer's layout: 2 shapes, per vertex a delta count (1, 2, 0, 1) and its records", "SEMODEL_SEBLEND_TRAILER"), SEMB_STATIC, S18, seblend_trailer, 0, AT(SE_AT_TAIL, 0, 0), 0},
    {CASE("valid", "seblend_two_meshes_2018.semodel", "2018", "SEMODEL_SEBLEND_TRAILER", "an SEBlend block over 2 meshes: a delta count for every vertex of mesh 0, then of mesh 1 (whose vertex 0 has 1 delta)", "SEMODEL_SEBLEND_TRAILER"), SEMB_UV_LAYERS, S18, seblend_two_meshes, 0, AT(SE_AT_TAIL, 0, 0), 0},
    {CASE("valid", "seblend_count_zero_2018.semodel", "2018", "SEMODEL_SEBLEND_TRAILER", "an SEBlend block of 0 shapes: still a delta count of 0 for each of the 4 vertices", "SEMODEL_SEBLEND_TRAILER"), SEMB_STATIC, S18, seblend_count_zero, 0, AT(SE_AT_TAIL, 0, 0), 0},
    {CASE("valid", "reserved_byte_nonzero_2018.semodel", "2018", "SEMODEL_RESERVED_NONZERO", "the third reserved header byte is 0x5A", "SEMODEL_RESERVED_NONZERO"), SEMB_STATIC, S18, reserved_nonzero, 0, MCG_ABS(26 + 2), 0},
    {CASE("valid", "bone_count_without_flag_2018.semodel", "2018", "SEMODEL_COUNT_WITHOUT_FLAG", "boneCount 3 with the BONE flag clear; the bones are there and the count is used", "SEMODEL_COUNT_WITHOUT_FLAG"), SEMB_SKINNED, S18, bone_count_without_flag, 0, MCG_ABS(14), 0},
    {CASE("valid", "bone_flag_without_count_2018.semodel", "2018", "SEMODEL_FLAG_WITHOUT_COUNT", "the BONE flag set with boneCount 0", "SEMODEL_FLAG_WITHOUT_COUNT"), SEMB_STATIC, S18, bone_flag_without_count, 0, MCG_ABS(11), 0},
    {CASE("valid", "uv_layers_without_uvset_2018.semodel", "2018", "SEMODEL_UV_LAYERS_WITHOUT_UVSET", "both meshes have matReferenceCount 3 while UVSET is clear (no UVs stored)", "SEMODEL_UV_LAYERS_WITHOUT_UVSET*2"), SEMB_UV_LAYERS, S18, uv_layers_without_uvset, 0, AT(SE_AT_MESH, 0, 1), 0},
    {CASE("valid", "uvset_without_uv_layers_2018.semodel", "2018", "SEMODEL_UVSET_WITHOUT_UV_LAYERS", "UVSET set but the mesh has 0 UV layers", "SEMODEL_UVSET_WITHOUT_UV_LAYERS"), SEMB_STATIC, S18, uvset_without_uv_layers, 0, AT(SE_AT_MESH, 0, 1), 0},
    {CASE("valid", "collision_block_draft.semodel", "draft", "SEMODEL_DRAFT_BLOCK_UNDEFINED", "the COLLISION flag with colCount 1: the draft defines no collision layout", "SEMODEL_DRAFT_BLOCK_UNDEFINED"), SEMB_STATIC, SDR, collision_block, 0, MCG_ABS(14), 0},
    {CASE("valid", "custom_block_2018.semodel", "2018", "SEMODEL_CUSTOM_BLOCK", "the CUSTOM flag and 11 bytes after the materials", "SEMODEL_CUSTOM_BLOCK"), SEMB_STATIC, S18, custom_block, 0, MCG_ABS(11), 0},
    {CASE("valid", "model_type_7_draft.semodel", "draft", "SEMODEL_MODEL_TYPE_UNKNOWN", "draft modelType 7, not one of the recommended 0-2", "SEMODEL_MODEL_TYPE_UNKNOWN"), SEMB_STATIC, SDR, model_type_7, 0, MCG_ABS(11), 0},
    {CASE("valid", "bone_flags_set_2018.semodel", "2018", "SEMODEL_ELEMENT_FLAGS", "bone 1's flags byte is 1 (no bit is defined)", "SEMODEL_ELEMENT_FLAGS"), SEMB_SKINNED, S18, bone_flags_set, 0, AT(SE_AT_BONE, 1, 0), 0},
    {CASE("valid", "duplicate_bone_name_2018.semodel", "2018", "SEMODEL_BONE_NAME_DUPLICATE", "bone 2 is named bone0 like bone 0", "SEMODEL_BONE_NAME_DUPLICATE"), SEMB_SKINNED, S18, duplicate_bone_name, 0, AT(SE_AT_BONE_NAME, 2, 0), 0},
    {CASE("valid", "degenerate_face_2018.semodel", "2018", "SEMODEL_FACE_DEGENERATE", "face 1 is (1, 2, 1)", "SEMODEL_FACE_DEGENERATE"), SEMB_STATIC, S18, degenerate_face, 0, AT(SE_AT_FACES, 0, 3), 0},
    {CASE("valid", "skin_influence_zero_2018.semodel", "2018", "SEMODEL_SKIN_INFLUENCE_ZERO", "WEIGHTS set, the mesh's maxSkinInfluence 0: no weight stored", "SEMODEL_SKIN_INFLUENCE_ZERO"), SEMB_SKINNED, S18, skin_influence_zero, 0, AT(SE_AT_MESH, 0, 2), 0},
    {CASE("valid", "skin_influence_without_weights_draft.semodel", "draft", "SEMODEL_SKIN_INFLUENCE_WITHOUT_WEIGHTS", "header maxSkinInfluence 4 with WEIGHTS clear", "SEMODEL_SKIN_INFLUENCE_WITHOUT_WEIGHTS"), SEMB_STATIC, SDR, skin_influence_without_weights, 0, MCG_ABS(35), 0},
    {CASE("valid", "material_simple_2_2018.semodel", "2018", "SEMODEL_MATERIAL_SIMPLE_FLAG", "isSimple 2, read as true: the three maps follow", "SEMODEL_MATERIAL_SIMPLE_FLAG"), SEMB_STATIC, S18, material_simple_2, 0, AT(SE_AT_MATERIAL, 0, 5), 0},

    /* invalid: each breaks one rule */
    {{"semodel/invalid/bad_magic_forced.semodel", "semodel", "2018", "SEMODEL_BAD_MAGIC", "magic SEMODEL, validated with --format semodel: nothing after it is read", "SEMODEL_BAD_MAGIC", "--format semodel"}, SEMB_STATIC, S18, bad_magic, 0, MCG_ABS(0), 0},
    {CASE("invalid", "version_2.semodel", "2018", "SEMODEL_UNSUPPORTED_VERSION", "version 2: layout unknown, no further checks", "SEMODEL_UNSUPPORTED_VERSION"), SEMB_STATIC, S18, version_2, 0, MCG_ABS(7), 0},
    {CASE("invalid", "header_size_0x18.semodel", "2018", "SEMODEL_HEADER_SIZE", "headerSize 0x18: neither layout, no further checks", "SEMODEL_HEADER_SIZE"), SEMB_STATIC, S18, header_size_0x18, 0, MCG_ABS(9), 0},
    {CASE("invalid", "truncated_in_faces_2018.semodel", "2018", "SEMODEL_TRUNCATED", "the last face index (u8) missing", "SEMODEL_TRUNCATED"), SEMB_SKINNED, S18, NULL, 1, MCG_END_AT(0), 0},
    {CASE("invalid", "truncated_in_faces_draft.semodel", "draft", "SEMODEL_TRUNCATED", "5 bytes of the u32 face indices missing", "SEMODEL_TRUNCATED"), SEMB_SKINNED, SDR, NULL, 5, MCG_END_AT(0), 0},
    {CASE("invalid", "bone_count_4294967295_header_only.semodel", "2018", "SEMODEL_TRUNCATED", "the 29-byte header alone, claiming 2^32-1 bones", "SEMODEL_TRUNCATED"), SEMB_SKINNED, S18, bone_count_max, 0, MCG_END_AT(0), 0},
    {CASE("invalid", "vertex_count_4294967295_draft.semodel", "draft", "SEMODEL_TRUNCATED", "a mesh claiming 2^32-1 vertices with 4 stored", "SEMODEL_TRUNCATED"), SEMB_STATIC, SDR, vertex_count_max, 0, MCG_END_AT(0), 0},
    {CASE("invalid", "trailing_bytes_2018.semodel", "2018", "SEMODEL_TRAILING_BYTES", "4 zero bytes after the materials", "SEMODEL_TRAILING_BYTES"), SEMB_STATIC, S18, trailing_bytes, 0, AT(SE_AT_TAIL, 0, 0), 0},
    {CASE("invalid", "trailing_bytes_draft.semodel", "draft", "SEMODEL_TRAILING_BYTES", "4 zero bytes after the last mesh", "SEMODEL_TRAILING_BYTES"), SEMB_SKINNED, SDR, trailing_bytes, 0, AT(SE_AT_TAIL, 0, 0), 0},
    {CASE("invalid", "reserved_presence_bit_draft.semodel", "draft", "SEMODEL_UNKNOWN_FLAG_BITS", "dataPresenceFlags has RESERVED_0 (0x10) set", "SEMODEL_UNKNOWN_FLAG_BITS"), SEMB_STATIC, SDR, unknown_flag_bit, 0, MCG_ABS(14), 0},
    {CASE("invalid", "no_data_block_2018.semodel", "2018", "SEMODEL_NO_DATA_BLOCK", "dataPresenceFlags 0 and every count 0: the header alone", "SEMODEL_NO_DATA_BLOCK"), SEMB_STATIC, S18, no_data_block, 0, MCG_ABS(11), 0},
    {CASE("invalid", "bone_name_runs_to_end_of_file.semodel", "2018", "SEMODEL_STRING_UNTERMINATED", "the file ends inside bone 2's name (its NUL and the bone records cut)", "SEMODEL_STRING_UNTERMINATED"), SEMB_SKINNED, S18, unterminated_name, 3 * 5 + 1, AT(SE_AT_BONE_NAME, 2, 0), 0},
    {CASE("invalid", "material_map_runs_to_end_of_file.semodel", "2018", "SEMODEL_STRING_UNTERMINATED", "the NUL of material 0's specular map cut", "SEMODEL_STRING_UNTERMINATED"), SEMB_STATIC, S18, NULL, 1, MCG_END_AT(-17), 0},
    {CASE("invalid", "bone_name_not_utf8.semodel", "2018", "SEMODEL_STRING_NOT_UTF8", "bone 1's name is \"arm\" and byte 0xFF", "SEMODEL_STRING_NOT_UTF8"), SEMB_SKINNED, S18, name_not_utf8, 0, AT(SE_AT_BONE_NAME, 1, 3), 0},
    {CASE("invalid", "bone_name_empty_draft.semodel", "draft", "SEMODEL_BONE_NAME_EMPTY", "bone 2's name is empty", "SEMODEL_BONE_NAME_EMPTY"), SEMB_SKINNED, SDR, name_empty, 0, AT(SE_AT_BONE_NAME, 2, 0), 0},
    {CASE("invalid", "bone_parent_self.semodel", "2018", "SEMODEL_BONE_PARENT_SELF", "bone 1 is its own parent", "SEMODEL_BONE_PARENT_SELF"), SEMB_SKINNED, S18, parent_self, 0, AT(SE_AT_BONE, 1, 1), 0},
    {CASE("invalid", "bone_parent_forward.semodel", "2018", "SEMODEL_BONE_PARENT_FORWARD", "bone 0's parent is bone 2", "SEMODEL_BONE_PARENT_FORWARD"), SEMB_SKINNED, S18, parent_forward, 0, AT(SE_AT_BONE, 0, 1), 0},
    {CASE("invalid", "bone_parent_out_of_range_draft.semodel", "draft", "SEMODEL_BONE_PARENT_RANGE", "bone 2's parent is bone 3 of 3", "SEMODEL_BONE_PARENT_RANGE"), SEMB_SKINNED, SDR, parent_range, 0, AT(SE_AT_BONE, 2, 1), 0},
    {CASE("invalid", "bone_position_nan.semodel", "2018", "SEMODEL_BONE_NOT_FINITE", "a NaN in bone 1's global position", "SEMODEL_BONE_NOT_FINITE"), SEMB_SKINNED, S18, bone_position_nan, 0, AT(SE_AT_BONE, 1, 5), 0},
    {CASE("invalid", "bone_rotation_not_unit.semodel", "2018", "SEMODEL_BONE_ROTATION_NOT_UNIT", "bone 2's local rotation is (0, 0, 0, 0.5)", "SEMODEL_BONE_ROTATION_NOT_UNIT"), SEMB_SKINNED, S18, bone_rotation_not_unit, 0, AT(SE_AT_BONE, 2, 5 + 28 + 12), 0},
    {CASE("invalid", "bone_scale_zero_draft.semodel", "draft", "SEMODEL_BONE_SCALE_ZERO", "bone 1's scale is (0, 1, 1)", "SEMODEL_BONE_SCALE_ZERO"), SEMB_SKINNED, SDR, bone_scale_zero, 0, AT(SE_AT_BONE, 1, 5 + 56), 0},
    {CASE("invalid", "half_normal_infinite_draft.semodel", "draft", "SEMODEL_VERTEX_NOT_FINITE", "vertex 2's half normal has z = +infinity (0x7C00)", "SEMODEL_VERTEX_NOT_FINITE"), SEMB_STATIC, SDR, half_normal_infinite, 0, AT2(SE_AT_DRAFT_NORMAL, 0, 2, 0), 0},
    {CASE("valid", "normals_zero_2018.semodel", "2018", "SEMODEL_NORMAL_ZERO", "every normal of mesh 0 is (0, 0, 0), no normals: reported once", "SEMODEL_NORMAL_ZERO"), SEMB_STATIC, S18, normals_zero, 0, AT(SE_AT_NORMALS, 0, 0), 0},
    {CASE("valid", "normals_zero_draft.semodel", "draft", "SEMODEL_NORMAL_ZERO", "every half normal of mesh 0 is (0, 0, 0): reported once", "SEMODEL_NORMAL_ZERO"), SEMB_STATIC, SDR, normals_zero, 0, AT2(SE_AT_DRAFT_NORMAL, 0, 0, 0), 0},
    {CASE("invalid", "normal_nearly_zero_2018.semodel", "2018", "SEMODEL_NORMAL_NOT_UNIT", "vertex 1's normal is (0, 0.001, 0): not zero, not unit", "SEMODEL_NORMAL_NOT_UNIT"), SEMB_STATIC, S18, normal_nearly_zero, 0, AT(SE_AT_NORMALS, 0, 12), 0},
    {CASE("invalid", "normal_length_0_9_2018.semodel", "2018", "SEMODEL_NORMAL_NOT_UNIT", "vertex 1's normal is (0, 0, 0.9)", "SEMODEL_NORMAL_NOT_UNIT"), SEMB_STATIC, S18, normal_length_0_9, 0, AT(SE_AT_NORMALS, 0, 12), 0},
    {CASE("invalid", "normal_length_0_9_draft.semodel", "draft", "SEMODEL_NORMAL_NOT_UNIT", "vertex 1's half normal is (0, 0, 0.9): not zero, not unit", "SEMODEL_NORMAL_NOT_UNIT"), SEMB_STATIC, SDR, normal_length_0_9, 0, AT2(SE_AT_DRAFT_NORMAL, 0, 1, 0), 0},
    {CASE("invalid", "face_index_out_of_range_2018.semodel", "2018", "SEMODEL_FACE_INDEX_RANGE", "face 3 names vertex 8 of 8 (u8 face_t)", "SEMODEL_FACE_INDEX_RANGE"), SEMB_SKINNED, S18, face_index_out_of_range, 0, AT(SE_AT_FACES, 0, 3 * 3 + 1), 0},
    {CASE("invalid", "face_index_out_of_range_draft.semodel", "draft", "SEMODEL_FACE_INDEX_RANGE", "face 3 names vertex 8 of 8", "SEMODEL_FACE_INDEX_RANGE"), SEMB_SKINNED, SDR, face_index_out_of_range, 0, AT(SE_AT_FACES, 0, 3 * 12 + 4), 0},
    {CASE("invalid", "weight_bone_out_of_range_2018.semodel", "2018", "SEMODEL_WEIGHT_BONE_RANGE", "vertex 5's first weight names bone 3 of 3", "SEMODEL_WEIGHT_BONE_RANGE"), SEMB_SKINNED, S18, weight_bone_out_of_range, 0, AT(SE_AT_WEIGHTS, 0, 5 * 2 * 5), 0},
    {CASE("invalid", "weights_1_5_and_minus_0_5_2018.semodel", "2018", "SEMODEL_WEIGHT_RANGE", "vertex 2's weights 1.5 and -0.5 (sum 1)", "SEMODEL_WEIGHT_RANGE*2"), SEMB_SKINNED, S18, weight_1_5, 0, AT(SE_AT_WEIGHTS, 0, 2 * 2 * 5 + 1), 0},
    {CASE("invalid", "weights_sum_0_95_draft.semodel", "draft", "SEMODEL_WEIGHT_SUM", "vertex 4's half weights 0.7 and 0.25 sum to 0.95", "SEMODEL_WEIGHT_SUM"), SEMB_SKINNED, SDR, weights_sum_0_95, 0, AT2(SE_AT_DRAFT_WEIGHTS, 0, 4, 0), 0},
    {CASE("invalid", "material_index_out_of_range_2018.semodel", "2018", "SEMODEL_MATERIAL_INDEX_RANGE", "mesh 1's third material index is 3 of 3", "SEMODEL_MATERIAL_INDEX_RANGE"), SEMB_UV_LAYERS, S18, material_index_out_of_range, 0, AT(SE_AT_MATERIALS, 1, 2 * 4), 0},
    {CASE("invalid", "mat_t_out_of_range_draft.semodel", "draft", "SEMODEL_MATERIAL_INDEX_RANGE", "vertex 2 of mesh 0 names material 3 of 3 (mat_t); the MATERIALS block is undefined", "SEMODEL_MATERIAL_INDEX_RANGE SEMODEL_DRAFT_BLOCK_UNDEFINED"), SEMB_UV_LAYERS, SDR, mat_t_out_of_range, 0, AT2(SE_AT_DRAFT_MAT, 0, 2, 1), 0},
    {CASE("invalid", "seblend_count_zero_no_deltas_2018.semodel", "2018", "SEMODEL_SEBLEND_FRAMING", "an SEBlend block ending after its count of 0: the 4 vertices' delta counts are missing", "SEMODEL_SEBLEND_TRAILER SEMODEL_SEBLEND_FRAMING"), SEMB_STATIC, S18, seblend_count_zero_no_deltas, 0, AT(SE_AT_TAIL, 0, 16), 0},
    {CASE("invalid", "seblend_deltas_cut_short_2018.semodel", "2018", "SEMODEL_SEBLEND_FRAMING", "the SEBlend block without its last 4 bytes: vertex 3's record ends past the file", "SEMODEL_SEBLEND_TRAILER SEMODEL_SEBLEND_FRAMING"), SEMB_STATIC, S18, seblend_cut_short, 0, AT(SE_AT_TAIL, 0, 88), 0},
    {CASE("invalid", "seblend_padded_2018.semodel", "2018", "SEMODEL_SEBLEND_FRAMING", "4 zero bytes after the SEBlend block's last record", "SEMODEL_SEBLEND_TRAILER SEMODEL_SEBLEND_FRAMING"), SEMB_STATIC, S18, seblend_padded, 0, AT(SE_AT_TAIL, 0, 108), 0},
    {CASE("invalid", "seblend_delta_count_huge_2018.semodel", "2018", "SEMODEL_SEBLEND_FRAMING", "vertex 2 claims 2^32-1 deltas in a 108-byte block", "SEMODEL_SEBLEND_TRAILER SEMODEL_SEBLEND_FRAMING"), SEMB_STATIC, S18, seblend_delta_count_huge, 0, AT(SE_AT_TAIL, 0, 84), 0},
    {CASE("invalid", "seblend_shape_2_of_2_2018.semodel", "2018", "SEMODEL_SEBLEND_SHAPE_RANGE", "vertex 0's delta names shape 2 of a block of 2", "SEMODEL_SEBLEND_TRAILER SEMODEL_SEBLEND_SHAPE_RANGE"), SEMB_STATIC, S18, seblend_shape_2_of_2, 0, AT(SE_AT_TAIL, 0, 32), 0},
    {CASE("invalid", "seblend_delta_nan_2018.semodel", "2018", "SEMODEL_SEBLEND_DELTA_NOT_FINITE", "vertex 0's delta has x = NaN", "SEMODEL_SEBLEND_TRAILER SEMODEL_SEBLEND_DELTA_NOT_FINITE"), SEMB_STATIC, S18, seblend_delta_nan, 0, AT(SE_AT_TAIL, 0, 36), 0},
    {CASE("invalid", "seblend_count_too_large.semodel", "2018", "SEMODEL_SEBLEND_FRAMING", "an SEBlend block claiming 2^32-1 shapes with 2 names and no deltas", "SEMODEL_SEBLEND_FRAMING"), SEMB_STATIC, S18, seblend_count_too_large, 0, AT(SE_AT_TAIL, 0, 8), 0},
    /* zero counts */
    {EDGE("valid", "zero_vertices_zero_faces_2018.semodel", "2018", NULL, "one mesh of 0 vertices and 0 faces, no bones, no materials", "FILE_NO_CONTENT"), SEMB_STATIC, S18, zero_vertices_zero_faces, 0, NOWHERE, 1},
    {EDGE("valid", "zero_vertices_zero_faces_draft.semodel", "draft", NULL, "one mesh of 0 vertices and 0 faces, no bones", "FILE_NO_CONTENT"), SEMB_STATIC, SDR, zero_vertices_zero_faces, 0, NOWHERE, 1},
    {EDGE("valid", "zero_faces_2018.semodel", "2018", NULL, "one mesh of 4 vertices (normals, colors) and 0 faces", ""), SEMB_STATIC, S18, zero_faces, 0, NOWHERE, 1},
    {EDGE("valid", "zero_faces_draft.semodel", "draft", NULL, "one mesh of 4 vertices (half normals, colors) and 0 faces", ""), SEMB_STATIC, SDR, zero_faces, 0, NOWHERE, 1},
    {EDGE("valid", "zero_meshes_bones_only_2018.semodel", "2018", NULL, "3 bones and nothing else: the bone block is the one data block", ""), SEMB_STATIC, S18, bones_only, 0, NOWHERE, 1},
    {EDGE("valid", "zero_meshes_bones_only_draft.semodel", "draft", NULL, "3 bones and nothing else: the bone block is the one data block", ""), SEMB_STATIC, SDR, bones_only, 0, NOWHERE, 1},
    {EDGE("valid", "zero_meshes_materials_only_2018.semodel", "2018", NULL, "1 material and nothing else: the material block is the one data block", "FILE_NO_CONTENT"), SEMB_STATIC, S18, materials_only, 0, NOWHERE, 1},
    /* one of everything */
    {EDGE("valid", "one_of_everything_2018.semodel", "2018", NULL, "1 bone (global, local, scale), 1 mesh of 3 vertices and 1 face, 1 UV layer, normals, colors, 1 influence, 1 material", ""), SEMB_STATIC, S18, one_of_everything, 0, NOWHERE, 1},
    {EDGE("valid", "one_of_everything_draft.semodel", "draft", "SEMODEL_DRAFT_BLOCK_UNDEFINED", "1 bone, 1 mesh of 3 vertices and 1 face, 1 UV layer (mat_t 0), normals, colors, 1 influence; matCount 1 announces the draft's TODO material block", "SEMODEL_DRAFT_BLOCK_UNDEFINED"), SEMB_STATIC, SDR, one_of_everything, 0, MCG_ABS(14), 1},
    /* width thresholds: face_t (2018), bone_t, mat_t (draft) */
    {EDGE("valid", "faces_u8_255_vertices_2018.semodel", "2018", NULL, "255 vertices (positions only): u8 face_t, face (0, 127, 254)", ""), SEMB_STATIC, S18, faces_255, 0, NOWHERE, 1},
    {EDGE("valid", "faces_u16_256_vertices_2018.semodel", "2018", NULL, "256 vertices (positions only): u16 face_t, face (0, 128, 255)", ""), SEMB_STATIC, S18, faces_256, 0, NOWHERE, 1},
    {EDGE("valid", "faces_u16_65535_vertices_2018.semodel", "2018", NULL, "65535 vertices (positions only): u16 face_t, face (0, 32767, 65534)", ""), SEMB_STATIC, S18, faces_65535, 0, NOWHERE, 1},
    {EDGE("valid", "faces_u32_65536_vertices_2018.semodel", "2018", NULL, "65536 vertices (positions only): u32 face_t, face (0, 32768, 65535)", ""), SEMB_STATIC, S18, faces_65536, 0, NOWHERE, 1},
    {EDGE("valid", "bones_u8_255_2018.semodel", "2018", NULL, "255 bones: u8 bone_t, a weight on bone 254", ""), SEMB_STATIC, S18, bones_255, 0, NOWHERE, 1},
    {EDGE("valid", "bones_u16_256_2018.semodel", "2018", NULL, "256 bones: u16 bone_t, a weight on bone 255", ""), SEMB_STATIC, S18, bones_256, 0, NOWHERE, 1},
    {EDGE("valid", "bones_u8_255_draft.semodel", "draft", NULL, "255 bones: u8 bone_t in the vertex records, a weight on bone 254", ""), SEMB_STATIC, SDR, bones_255, 0, NOWHERE, 1},
    {EDGE("valid", "bones_u16_256_draft.semodel", "draft", NULL, "256 bones: u16 bone_t in the vertex records, a weight on bone 255", ""), SEMB_STATIC, SDR, bones_256, 0, NOWHERE, 1},
    {EDGE("valid", "mat_t_u8_255_materials_draft.semodel", "draft", "SEMODEL_DRAFT_BLOCK_UNDEFINED", "matCount 255: u8 mat_t, a vertex on material 254 (the material block is TODO)", "SEMODEL_DRAFT_BLOCK_UNDEFINED"), SEMB_STATIC, SDR, mat_t_255, 0, MCG_ABS(14), 1},
    {EDGE("valid", "mat_t_u16_256_materials_draft.semodel", "draft", "SEMODEL_DRAFT_BLOCK_UNDEFINED", "matCount 256: u16 mat_t, a vertex on material 255 (the material block is TODO)", "SEMODEL_DRAFT_BLOCK_UNDEFINED"), SEMB_STATIC, SDR, mat_t_256, 0, MCG_ABS(14), 1},
    {EDGE("invalid", "faces_u8_with_256_vertices_2018.semodel", "2018", "SEMODEL_TRUNCATED", "256 vertices but the face written as u8: the file ends 3 bytes early", "SEMODEL_TRUNCATED"), SEMB_STATIC, S18, faces_u8_256, 0, MCG_END_AT(0), 1},
    {EDGE("invalid", "faces_u16_with_255_vertices_2018.semodel", "2018", "SEMODEL_TRAILING_BYTES", "255 vertices but the face (253, 254, 252) written as u16: read as u8 it is (253, 0, 254) and 3 bytes are left", "SEMODEL_TRAILING_BYTES"), SEMB_STATIC, S18, faces_u16_255, 0, MCG_END_AT(-3), 1},
    {EDGE("invalid", "bone_t_u8_with_256_bones_2018.semodel", "2018", "SEMODEL_TRUNCATED", "256 bones but the last mesh's one weight names bone 255 in a u8: 1 byte short", "SEMODEL_TRUNCATED"), SEMB_STATIC, S18, bones_256_u8, 0, MCG_END_AT(0), 1},
    {EDGE("invalid", "mat_t_u8_with_256_materials_draft.semodel", "draft", "SEMODEL_TRUNCATED", "matCount 256 but the one vertex's mat_t written as u8: 1 byte short (the material block is TODO)", "SEMODEL_TRUNCATED SEMODEL_DRAFT_BLOCK_UNDEFINED"), SEMB_STATIC, SDR, mat_t_256_u8, 0, MCG_END_AT(0), 1},
};

const size_t mcg_semodel_case_count = sizeof semodel_cases / sizeof semodel_cases[0];

static uint64_t place(const void *model, int p, uint64_t i, uint64_t sub)
{
    const semb_model *m = model;
    switch (p) {
    case SE_AT_BONE_NAME: return m->bones[i].name_at;
    case SE_AT_BONE: return m->bones[i].at;
    case SE_AT_MESH: return m->meshes[i].at;
    case SE_AT_NORMALS: return m->meshes[i].normals_at;
    case SE_AT_WEIGHTS: return m->meshes[i].weights_at;
    case SE_AT_FACES: return m->meshes[i].faces_at;
    case SE_AT_MATERIALS: return m->meshes[i].materials_at;
    case SE_AT_MATERIAL: return m->materials[i].at;
    case SE_AT_DRAFT_NORMAL: return semb_draft_at(m, (uint32_t)i, (uint32_t)sub, SEMB_F_NORMAL);
    case SE_AT_DRAFT_WEIGHTS: return semb_draft_at(m, (uint32_t)i, (uint32_t)sub, SEMB_F_WEIGHTS);
    case SE_AT_DRAFT_MAT: return semb_draft_at(m, (uint32_t)i, (uint32_t)sub, SEMB_F_MAT);
    case SE_AT_TAIL: return m->tail_at;
    default: return 0;
    }
}

static int build(const void *row, mcb_buf *b, uint64_t *first)
{
    const semodel_case *c = row;
    *first = 0;
    semb_model *m = c->from_empty ? semb_new(c->layout) : semb_sample(c->base, c->layout);
    if (!m) return -1;
    if (c->mutate && c->mutate(m) != 0) {
        semb_free(m);
        return -1;
    }
    semb_write(m, b);
    if (c->truncate_by > 0 && (size_t)c->truncate_by <= b->size) b->size -= (size_t)c->truncate_by;
    *first = mcg_offset(&c->first, b->size, place, m);
    semb_free(m);
    return b->oom ? -1 : 0;
}

const mcg_table mcg_semodel_table = MCG_TABLE("semodel", semodel_cases, semodel_case, build);
