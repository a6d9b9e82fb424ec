/*
 * AEM conformance cases. Each starts from a valid sample model and changes
 * one thing, so the file breaks exactly the rule it is named after; the
 * expectation is written here by hand, from the spec, never computed by
 * running the validator.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aem_builder.h"
#include "corpus_cases.h"

typedef struct aem_case {
    mcg_case meta;
    enum aemb_sample_kind base;
    void (*mutate)(aemb_model *m);
    size_t truncate_to; /* keep only this many bytes (0: whole file) */
    size_t cut;         /* bytes cut from the end */
    size_t append;      /* zero bytes appended */
    void (*patch)(mcb_buf *b); /* byte-level change after writing (header lies) */
    mcg_at first;       /* where meta.rule first fires */
} aem_case;

/* ---- mutations: each named for what it breaks ---- */

static void zero_counts(aemb_model *m)
{
    for (int s = 0; s < AEMB_SECTIONS; s++) aemb_resize(m, (enum aemb_section)s, 0);
}
static void name_127_chars(aemb_model *m)
{
    memset(m->textures[1], 'n', 127);
    m->textures[1][127] = '\0';
}
static void name_garbage_after_nul(aemb_model *m) { memcpy(m->textures[0] + 100, "stack", 5); }
static void tangent_zero(aemb_model *m) { m->vertices[0].tangent[0] = 0.0f; }
static void extra_bone_mismatch(aemb_model *m) { m->vertices[2].extra_bone = 2; }
static void sequence_unused(aemb_model *m)
{
    aemb_resize(m, AEMB_SEQUENCES, 4);
    m->sequences[3] = m->sequences[0];
}
static void bone_padding(aemb_model *m) { m->bones[2].padding[5] = 0xcc; }
static void animation_name_empty(aemb_model *m) { memset(m->animations[0].name, 0, 128); }
static void material_minus_one(aemb_model *m) { m->materials[1].texture[2] = -1; }
static void textures(aemb_model *m, uint32_t n)
{
    aemb_resize(m, AEMB_TEXTURES, n);
    for (uint32_t t = 2; t < n; t++) snprintf(m->textures[t], 128, "texture_%u.png", t);
}
static void textures_255(aemb_model *m) { textures(m, 255); }
static void textures_256(aemb_model *m) { textures(m, 256); }
static void overlapping_meshes(aemb_model *m)
{
    aemb_resize(m, AEMB_INDICES, 3000);
    for (uint32_t k = 0; k < 3000; k++) m->indices[k] = k % 4;
    aemb_resize(m, AEMB_MESHES, 20000);
    for (uint32_t i = 0; i < 20000; i++) m->meshes[i] = (aemb_mesh){0, 3000, 0};
}
static void bad_magic(aemb_model *m) { memcpy(m->magic, "AEX", 3); }
static void version_2(aemb_model *m) { m->version = 2; }
static void vertices_4_billion(mcb_buf *b) { mcb_put_u32(b, 4, 0xffffffffu); }
static void normal_nan(aemb_model *m) { m->vertices[3].normal[0] = NAN; }
static void normal_0_9(aemb_model *m) { m->vertices[2].normal[2] = 0.9f; }

/* (0, 0, 0) says "no normal": one warning; (0.001, 0, 0) is no unit vector. */
static void normals_zero(aemb_model *m)
{
    for (uint32_t i = 0; i < m->count[AEMB_VERTICES]; i++)
        memset(m->vertices[i].normal, 0, sizeof m->vertices[i].normal);
}

static void normal_nearly_zero(aemb_model *m)
{
    memset(m->vertices[2].normal, 0, sizeof m->vertices[2].normal);
    m->vertices[2].normal[0] = 0.001f;
}
static void tangent_0_5(aemb_model *m) { m->vertices[1].tangent[0] = 0.5f; }
static void bone_index_3(aemb_model *m) { m->vertices[4].bone[1] = 3; }
static void unused_slot_weight(aemb_model *m)
{
    m->vertices[0].bone[2] = -1;
    m->vertices[0].weight[0] = 0.65f;
    m->vertices[0].weight[2] = 0.1f;
}
static void weight_1_5(aemb_model *m)
{
    m->vertices[7].weight[0] = 1.5f;
    m->vertices[7].weight[1] = -0.5f;
}
static void weights_sum_0_93(aemb_model *m) { m->vertices[5].weight[0] = 0.68f; }
static void duplicate_bone(aemb_model *m) { m->vertices[0].bone[1] = m->vertices[0].bone[0]; }
static void extra_bone_7(aemb_model *m)
{
    for (int v = 0; v < 4; v++) m->vertices[v].extra_bone = 7;
}
static void index_8(aemb_model *m) { m->indices[4] = 8; }
static void texture_unterminated(aemb_model *m) { memset(m->textures[1], 'a', 128); }
static void texture_empty(aemb_model *m) { memset(m->textures[0], 0, 128); }
static void mesh_past_indices(aemb_model *m) { m->meshes[1].first_index = 9; }
static void mesh_5_indices(aemb_model *m) { m->meshes[1].index_count = 5; }
static void mesh_material_2(aemb_model *m) { m->meshes[1].material = 2; }
static void material_texture_2(aemb_model *m) { m->materials[0].texture[1] = 2; }
static void parent_self(aemb_model *m) { m->bones[1].parent = 1; }
static void parent_forward(aemb_model *m) { m->bones[1].parent = 2; }
static void parent_3(aemb_model *m) { m->bones[2].parent = 3; }
static void matrix_inf(aemb_model *m) { m->bones[0].inverse_bind[5] = INFINITY; }
static void matrix_not_affine(aemb_model *m) { m->bones[2].inverse_bind[3] = 0.5f; }
static void matrix_singular(aemb_model *m)
{
    float *b = m->bones[1].inverse_bind;
    memcpy(b + 4, b, 3 * sizeof *b);
}
static void duration_zero(aemb_model *m) { m->animations[0].duration = 0.0f; }
static void sequence_index_1(aemb_model *m) { m->animations[0].sequence_index = 1; }
static void keys_past_end(aemb_model *m) { m->sequences[2].first[2] = 17; }
static void rotation_no_keys(aemb_model *m) { m->sequences[1].count[1] = 0; }
static void key_nan(aemb_model *m) { m->keys[3].x = NAN; }
static void key_time_1_5(aemb_model *m) { m->keys[1].time = 1.5f; }
static void key_times_equal(aemb_model *m) { m->keys[1].time = 0.0f; }
static void position_key_w(aemb_model *m) { m->keys[0].w = 1.0f; }
static void rotation_not_unit(aemb_model *m) { m->keys[2].w = 0.5f; }

/* ---- edge cases (issue 7) ---- */

/* docs/formats/aem.md: a bone without an animation channel gets one position, one
 * rotation and one scale key at t = 0 (bone 2 here; keys compacted to 15) */
static void exporter_bone_without_channel(aemb_model *m)
{
    for (int ch = 0; ch < 3; ch++) {
        m->sequences[2].first[ch] = 12 + (uint32_t)ch;
        m->sequences[2].count[ch] = 1;
        m->keys[12 + ch] = (aemb_key){0.0f, ch == 2 ? 1.0f : 0.0f, ch == 2 ? 1.0f : 0.0f,
                                      ch == 2 ? 1.0f : 0.0f, ch == 1 ? 1.0f : 0.0f};
    }
    aemb_resize(m, AEMB_KEYFRAMES, 15);
}

/* docs/formats/aem.md: the extra bone index -1 is legal */
static void extra_bone_minus_one(aemb_model *m)
{
    for (uint32_t v = 0; v < m->count[AEMB_VERTICES]; v++) m->vertices[v].extra_bone = -1;
}

/* 3 vertices, 3 indices, 1 texture, 1 mesh, 1 material, 1 bone, 1 animation,
 * 1 sequence of 1 key per channel */
static void one_of_everything(aemb_model *m)
{
    aemb_resize(m, AEMB_VERTICES, 3);
    for (uint32_t v = 0; v < 3; v++) {
        aemb_vertex *x = &m->vertices[v];
        for (int j = 0; j < 4; j++) {
            x->bone[j] = j ? -1 : 0;
            x->weight[j] = j ? 0.0f : 1.0f;
        }
        x->extra_bone = 0;
    }
    aemb_resize(m, AEMB_INDICES, 3);
    aemb_resize(m, AEMB_TEXTURES, 1);
    aemb_resize(m, AEMB_MESHES, 1);
    m->meshes[0] = (aemb_mesh){0, 3, 0};
    aemb_resize(m, AEMB_MATERIALS, 1);
    m->materials[0] = (aemb_material){{0, 255, 255}};
    aemb_resize(m, AEMB_BONES, 1);
    aemb_resize(m, AEMB_SEQUENCES, 1);
    aemb_resize(m, AEMB_KEYFRAMES, 3);
    for (int ch = 0; ch < 3; ch++) {
        m->sequences[0].first[ch] = (uint32_t)ch;
        m->sequences[0].count[ch] = 1;
        m->keys[ch] = (aemb_key){0.0f, ch == 2 ? 1.0f : 0.0f, ch == 2 ? 1.0f : 0.0f,
                                 ch == 2 ? 1.0f : 0.0f, ch == 1 ? 1.0f : 0.0f};
    }
}

#define AT(place, index, add) MCG_AT(place, index, add)
#define NOWHERE MCG_NOWHERE_AT
/* vertex field offsets (aem.md, Vertex Section) */
enum { V_NORMAL = 12, V_TANGENT = 24, V_BONES = 56, V_WEIGHTS = 72, V_EXTRA = 88 };
#define SKIN AEMB_SKINNED_ANIMATED
#define CASE(dir, file, rule, desc, expect) {"aem/" dir "/" file, "aem", "aem1", rule, desc, expect, NULL}

static const aem_case aem_cases[] = {
    /* valid: no errors; warnings and infos only where named */
    {CASE("valid", "skinned_animated.aem", NULL, "3 bones, 2 meshes, 2 textures, 1 animation: every section used", ""), SKIN, NULL, 0, 0, 0, NULL, NOWHERE},
    {CASE("valid", "zero_counts.aem", NULL, "header only: every count 0", "FILE_NO_CONTENT"), SKIN, zero_counts, 0, 0, 0, NULL, NOWHERE},
    {CASE("valid", "name_127_chars.aem", NULL, "texture filename of 127 characters + NUL, the longest allowed", ""), SKIN, name_127_chars, 0, 0, 0, NULL, NOWHERE},
    {CASE("valid", "textures_255_sentinel_unambiguous.aem", NULL, "255 textures: index 255 is still the sentinel", ""), SKIN, textures_255, 0, 0, 0, NULL, NOWHERE},
    {CASE("valid", "static_exporter_unskinned.aem", "AEM_UNSKINNED_VERTEX", "the exporter's static model: indices -1, weights 0 (sum 0)", "AEM_UNSKINNED_VERTEX*8"), AEMB_STATIC, NULL, 0, 0, 0, NULL, AT(AEMB_VERTICES, 0, V_BONES)},
    {CASE("valid", "material_texture_minus_one.aem", "AEM_MATERIAL_TEXTURE_MINUS_ONE", "the exporter's -1 texture sentinel", "AEM_MATERIAL_TEXTURE_MINUS_ONE"), SKIN, material_minus_one, 0, 0, 0, NULL, AT(AEMB_MATERIALS, 1, 8)},
    {CASE("valid", "name_garbage_after_nul.aem", "AEM_STRING_TRAILING_BYTES", "the exporter's stack garbage after a filename's NUL", "AEM_STRING_TRAILING_BYTES"), SKIN, name_garbage_after_nul, 0, 0, 0, NULL, AT(AEMB_TEXTURES, 0, 100)},
    {CASE("valid", "tangent_zero.aem", "AEM_TANGENT_ZERO", "a vertex without tangent frame", "AEM_TANGENT_ZERO"), SKIN, tangent_zero, 0, 0, 0, NULL, AT(AEMB_VERTICES, 0, V_TANGENT)},
    {CASE("valid", "mesh_extra_bone_mismatch.aem", "AEM_MESH_EXTRA_BONE_MISMATCH", "one vertex of mesh 0 names another extra bone", "AEM_MESH_EXTRA_BONE_MISMATCH"), SKIN, extra_bone_mismatch, 0, 0, 0, NULL, AT(AEMB_MESHES, 0, 0)},
    {CASE("valid", "sequence_unused.aem", "AEM_SEQUENCE_UNUSED", "a fourth sequence no animation covers", "AEM_SEQUENCE_UNUSED"), SKIN, sequence_unused, 0, 0, 0, NULL, AT(AEMB_SEQUENCES, 3, 0)},
    {CASE("valid", "bone_padding_not_zero.aem", "AEM_BONE_PADDING", "a bone's padding holds 0xcc", "AEM_BONE_PADDING"), SKIN, bone_padding, 0, 0, 0, NULL, AT(AEMB_BONES, 2, 68)},
    {CASE("valid", "animation_name_empty.aem", "AEM_ANIMATION_NAME_EMPTY", "an animation without a name", "AEM_ANIMATION_NAME_EMPTY"), SKIN, animation_name_empty, 0, 0, 0, NULL, AT(AEMB_ANIMATIONS, 0, 0)},
    {CASE("valid", "textures_256_sentinel_ambiguous.aem", "AEM_MATERIAL_SENTINEL_AMBIGUOUS", "256 textures: 255 is both a texture and the sentinel", "AEM_MATERIAL_SENTINEL_AMBIGUOUS*4"), SKIN, textures_256, 0, 0, 0, NULL, AT(AEMB_MATERIALS, 0, 8)},
    {CASE("valid", "meshes_overlapping_20000.aem", "FILE_WORK_LIMIT", "20000 meshes over the same 3000 indices: the extra-bone check stops at the work limit", "FILE_WORK_LIMIT"), SKIN, overlapping_meshes, 0, 0, 0, NULL, AT(AEMB_MESHES, 1703, 0)}, /* budget 2^20 + 16 x 253864 bytes: meshes 0..1702 of 3000 visits fit */

    /* invalid: each breaks one rule */
    {{"aem/invalid/bad_magic_forced.aem", "aem", "aem1", "AEM_BAD_MAGIC", "magic AEX, validated with --format aem", "AEM_BAD_MAGIC", "--format aem"}, SKIN, bad_magic, 0, 0, 0, NULL, MCG_ABS(0)},
    {CASE("invalid", "version_2.aem", "AEM_UNSUPPORTED_VERSION", "version byte 2: layout unknown, no further checks", "AEM_UNSUPPORTED_VERSION"), SKIN, version_2, 0, 0, 0, NULL, MCG_ABS(3)},
    {CASE("invalid", "truncated_header_4_bytes.aem", "AEM_TRUNCATED", "magic and version only", "AEM_TRUNCATED"), SKIN, NULL, 4, 0, 0, NULL, MCG_END_AT(0)},
    {CASE("invalid", "truncated_in_keyframes.aem", "AEM_TRUNCATED", "7 bytes missing at the end", "AEM_TRUNCATED"), SKIN, NULL, 0, 7, 0, NULL, MCG_END_AT(0)},
    {CASE("invalid", "vertices_4_billion_in_100_bytes.aem", "AEM_TRUNCATED", "a 100-byte file whose header claims 2^32-1 vertices", "AEM_TRUNCATED"), SKIN, NULL, 100, 0, 0, vertices_4_billion, MCG_END_AT(0)},
    {CASE("invalid", "trailing_byte.aem", "AEM_TRAILING_BYTES", "one byte after the last keyframe", "AEM_TRAILING_BYTES"), SKIN, NULL, 0, 0, 1, NULL, MCG_END_AT(-1)},
    {CASE("invalid", "normal_nan.aem", "AEM_VERTEX_NOT_FINITE", "a NaN in vertex 3's normal", "AEM_VERTEX_NOT_FINITE"), SKIN, normal_nan, 0, 0, 0, NULL, AT(AEMB_VERTICES, 3, V_NORMAL)},
    {CASE("valid", "normals_zero.aem", "AEM_NORMAL_ZERO", "every vertex's normal is (0, 0, 0), no normals: reported once", "AEM_NORMAL_ZERO"), SKIN, normals_zero, 0, 0, 0, NULL, AT(AEMB_VERTICES, 0, V_NORMAL)},
    {CASE("invalid", "normal_nearly_zero.aem", "AEM_NORMAL_NOT_UNIT", "vertex 2's normal is (0.001, 0, 0): not zero, not unit", "AEM_NORMAL_NOT_UNIT"), SKIN, normal_nearly_zero, 0, 0, 0, NULL, AT(AEMB_VERTICES, 2, V_NORMAL)},
    {CASE("invalid", "normal_length_0_9.aem", "AEM_NORMAL_NOT_UNIT", "vertex 2's normal has length 0.9", "AEM_NORMAL_NOT_UNIT"), SKIN, normal_0_9, 0, 0, 0, NULL, AT(AEMB_VERTICES, 2, V_NORMAL)},
    {CASE("invalid", "tangent_length_0_5.aem", "AEM_TANGENT_NOT_UNIT", "vertex 1's tangent has length 0.5", "AEM_TANGENT_NOT_UNIT"), SKIN, tangent_0_5, 0, 0, 0, NULL, AT(AEMB_VERTICES, 1, V_TANGENT)},
    {CASE("invalid", "bone_index_3_of_3.aem", "AEM_BONE_INDEX_RANGE", "vertex 4 names bone 3 of 3", "AEM_BONE_INDEX_RANGE"), SKIN, bone_index_3, 0, 0, 0, NULL, AT(AEMB_VERTICES, 4, V_BONES + 4)},
    {CASE("invalid", "minus_one_slot_weight_0_1.aem", "AEM_UNUSED_SLOT_WEIGHT", "a -1 slot carries weight 0.1 (sum still 1)", "AEM_UNUSED_SLOT_WEIGHT"), SKIN, unused_slot_weight, 0, 0, 0, NULL, AT(AEMB_VERTICES, 0, V_WEIGHTS + 8)},
    {CASE("invalid", "weights_1_5_and_minus_0_5.aem", "AEM_WEIGHT_RANGE", "weights 1.5 and -0.5 (sum 1)", "AEM_WEIGHT_RANGE*2"), SKIN, weight_1_5, 0, 0, 0, NULL, AT(AEMB_VERTICES, 7, V_WEIGHTS)},
    {CASE("invalid", "weights_sum_0_93.aem", "AEM_WEIGHT_SUM", "vertex 5's weights sum to 0.93", "AEM_WEIGHT_SUM"), SKIN, weights_sum_0_93, 0, 0, 0, NULL, AT(AEMB_VERTICES, 5, V_WEIGHTS)},
    {CASE("invalid", "duplicate_bone_in_vertex.aem", "AEM_DUPLICATE_BONE_INDEX", "vertex 0 names bone 1 twice", "AEM_DUPLICATE_BONE_INDEX"), SKIN, duplicate_bone, 0, 0, 0, NULL, AT(AEMB_VERTICES, 0, V_BONES + 4)},
    {CASE("invalid", "extra_bone_7_of_3.aem", "AEM_EXTRA_BONE_RANGE", "mesh 0's vertices carry extra bone 7 of 3", "AEM_EXTRA_BONE_RANGE*4"), SKIN, extra_bone_7, 0, 0, 0, NULL, AT(AEMB_VERTICES, 0, V_EXTRA)},
    {CASE("invalid", "index_out_of_range.aem", "AEM_INDEX_RANGE", "index 8 with 8 vertices", "AEM_INDEX_RANGE"), SKIN, index_8, 0, 0, 0, NULL, AT(AEMB_INDICES, 4, 0)},
    {CASE("invalid", "texture_name_unterminated.aem", "AEM_STRING_UNTERMINATED", "128 bytes of 'a', no NUL", "AEM_STRING_UNTERMINATED"), SKIN, texture_unterminated, 0, 0, 0, NULL, AT(AEMB_TEXTURES, 1, 0)},
    {CASE("invalid", "texture_name_empty.aem", "AEM_TEXTURE_NAME_EMPTY", "an empty texture filename", "AEM_TEXTURE_NAME_EMPTY"), SKIN, texture_empty, 0, 0, 0, NULL, AT(AEMB_TEXTURES, 0, 0)},
    {CASE("invalid", "mesh_range_past_indices.aem", "AEM_MESH_RANGE", "mesh 1 spans indices [9, 15) of 12: the exporter's bug", "AEM_MESH_RANGE"), SKIN, mesh_past_indices, 0, 0, 0, NULL, AT(AEMB_MESHES, 1, 0)},
    {CASE("invalid", "mesh_5_indices.aem", "AEM_MESH_NOT_TRIANGLES", "mesh 1 has 5 indices", "AEM_MESH_NOT_TRIANGLES"), SKIN, mesh_5_indices, 0, 0, 0, NULL, AT(AEMB_MESHES, 1, 4)},
    {CASE("invalid", "mesh_material_2_of_2.aem", "AEM_MESH_MATERIAL_RANGE", "mesh 1 uses material 2 of 2", "AEM_MESH_MATERIAL_RANGE"), SKIN, mesh_material_2, 0, 0, 0, NULL, AT(AEMB_MESHES, 1, 8)},
    {CASE("invalid", "material_texture_2_of_2.aem", "AEM_MATERIAL_TEXTURE_RANGE", "material 0's normal map is texture 2 of 2", "AEM_MATERIAL_TEXTURE_RANGE"), SKIN, material_texture_2, 0, 0, 0, NULL, AT(AEMB_MATERIALS, 0, 4)},
    {CASE("invalid", "bone_parent_self.aem", "AEM_BONE_PARENT_SELF", "bone 1 is its own parent", "AEM_BONE_PARENT_SELF"), SKIN, parent_self, 0, 0, 0, NULL, AT(AEMB_BONES, 1, 64)},
    {CASE("invalid", "bone_parent_forward.aem", "AEM_BONE_PARENT_FORWARD", "bone 1's parent is bone 2", "AEM_BONE_PARENT_FORWARD"), SKIN, parent_forward, 0, 0, 0, NULL, AT(AEMB_BONES, 1, 64)},
    {CASE("invalid", "bone_parent_3_of_3.aem", "AEM_BONE_PARENT_RANGE", "bone 2's parent is bone 3 of 3", "AEM_BONE_PARENT_RANGE"), SKIN, parent_3, 0, 0, 0, NULL, AT(AEMB_BONES, 2, 64)},
    {CASE("invalid", "bone_matrix_infinite.aem", "AEM_BONE_MATRIX_NOT_FINITE", "an infinity in bone 0's inverse bind matrix", "AEM_BONE_MATRIX_NOT_FINITE"), SKIN, matrix_inf, 0, 0, 0, NULL, AT(AEMB_BONES, 0, 0)},
    {CASE("invalid", "bone_matrix_not_affine.aem", "AEM_BONE_MATRIX_NOT_AFFINE", "bone 2's matrix has 0.5 in its last row", "AEM_BONE_MATRIX_NOT_AFFINE"), SKIN, matrix_not_affine, 0, 0, 0, NULL, AT(AEMB_BONES, 2, 0)},
    {CASE("invalid", "bone_matrix_singular.aem", "AEM_BONE_MATRIX_SINGULAR", "bone 1's matrix has two equal columns", "AEM_BONE_MATRIX_SINGULAR"), SKIN, matrix_singular, 0, 0, 0, NULL, AT(AEMB_BONES, 1, 0)},
    {CASE("invalid", "animation_duration_zero.aem", "AEM_ANIMATION_DURATION", "an animation lasting 0 seconds", "AEM_ANIMATION_DURATION"), SKIN, duration_zero, 0, 0, 0, NULL, AT(AEMB_ANIMATIONS, 0, 128)},
    {CASE("invalid", "sequence_index_past_end.aem", "AEM_ANIMATION_SEQUENCE_RANGE", "sequences [1, 4) of 3; none is then used", "AEM_ANIMATION_SEQUENCE_RANGE AEM_SEQUENCE_UNUSED*3"), SKIN, sequence_index_1, 0, 0, 0, NULL, AT(AEMB_ANIMATIONS, 0, 132)},
    {CASE("invalid", "sequence_keys_past_end.aem", "AEM_SEQUENCE_KEY_RANGE", "scale keys [17, 19) of 18", "AEM_SEQUENCE_KEY_RANGE"), SKIN, keys_past_end, 0, 0, 0, NULL, AT(AEMB_SEQUENCES, 2, 16)},
    {CASE("invalid", "sequence_rotation_no_keys.aem", "AEM_SEQUENCE_NO_KEYS", "a rotation channel with 0 keys", "AEM_SEQUENCE_NO_KEYS"), SKIN, rotation_no_keys, 0, 0, 0, NULL, AT(AEMB_SEQUENCES, 1, 12)},
    {CASE("invalid", "key_nan.aem", "AEM_KEY_NOT_FINITE", "a NaN in keyframe 3", "AEM_KEY_NOT_FINITE"), SKIN, key_nan, 0, 0, 0, NULL, AT(AEMB_KEYFRAMES, 3, 0)},
    {CASE("invalid", "key_time_past_duration.aem", "AEM_KEY_TIME_RANGE", "a key at 1.5 s in a 1 s animation", "AEM_KEY_TIME_RANGE"), SKIN, key_time_1_5, 0, 0, 0, NULL, AT(AEMB_KEYFRAMES, 1, 0)},
    {CASE("invalid", "key_times_equal.aem", "AEM_KEY_TIME_ORDER", "two keys at t = 0 (the loader divides by zero)", "AEM_KEY_TIME_ORDER"), SKIN, key_times_equal, 0, 0, 0, NULL, AT(AEMB_KEYFRAMES, 1, 0)},
    {CASE("invalid", "position_key_w_1.aem", "AEM_KEY_W_NONZERO", "a position key with W = 1", "AEM_KEY_W_NONZERO"), SKIN, position_key_w, 0, 0, 0, NULL, AT(AEMB_KEYFRAMES, 0, 16)},
    {CASE("invalid", "rotation_key_not_unit.aem", "AEM_KEY_ROTATION_NOT_UNIT", "a rotation key of length 0.5", "AEM_KEY_ROTATION_NOT_UNIT"), SKIN, rotation_not_unit, 0, 0, 0, NULL, AT(AEMB_KEYFRAMES, 2, 4)},

    /* edge cases (issue 7) */
    {CASE("valid", "one_of_everything.aem", NULL, "3 vertices, 3 indices, 1 texture, 1 mesh, 1 material, 1 bone, 1 animation, 1 sequence of 1 key per channel", ""), SKIN, one_of_everything, 0, 0, 0, NULL, NOWHERE},
    {CASE("valid", "exporter_bone_without_channel.aem", NULL, "the exporter's default for a bone without a channel: bone 2 has 1 position, 1 rotation and 1 scale key at t = 0", ""), SKIN, exporter_bone_without_channel, 0, 0, 0, NULL, NOWHERE},
    {CASE("valid", "extra_bone_minus_one.aem", NULL, "every vertex's extra bone index is -1 (legal; the exporter gives each mesh a bone)", ""), SKIN, extra_bone_minus_one, 0, 0, 0, NULL, NOWHERE},
};

const size_t mcg_aem_case_count = sizeof aem_cases / sizeof aem_cases[0];

/* An AEM row's places (mcg_at) are the sections of enum aemb_section. */
static uint64_t place(const void *model, int section, uint64_t index, uint64_t sub)
{
    (void)sub;
    return aemb_offset(model, (enum aemb_section)section, index);
}

static int build(const void *row, mcb_buf *b, uint64_t *first)
{
    const aem_case *c = row;
    *first = 0;
    aemb_model *m = aemb_sample(c->base);
    if (!m) return -1;
    if (c->mutate) c->mutate(m);
    aemb_write(m, b);
    if (c->truncate_to && c->truncate_to < b->size) b->size = c->truncate_to;
    if (c->cut && c->cut <= b->size) b->size -= c->cut;
    mcb_zeros(b, c->append);
    if (c->patch) c->patch(b);
    *first = mcg_offset(&c->first, b->size, place, m);
    aemb_free(m);
    return b->oom ? -1 : 0;
}

const mcg_table mcg_aem_table = MCG_TABLE("aem", aem_cases, aem_case, build);
