/*
 * AEM conformance cases in the current upstream layout ("2025",
 * docs/formats/aem2025.md). Each starts from a valid sample model and
 * changes one thing, so the file breaks exactly the rule it is named after;
 * the expectation is written here by hand, from the readme, never computed
 * by running the validator. Files go to corpus/aem/{valid,invalid} with the
 * prefix 2025_, beside the aem1 cases (the same format, the fuzz seeds of
 * the aem targets).
 */
#include <math.h>
#include <string.h>

#include "aem2025_builder.h"
#include "corpus_cases.h"

typedef struct aem2025_case {
    mcg_case meta;
    enum aem2025b_sample_kind base;
    void (*mutate)(aem2025b_model *m);
    size_t cut;                /* bytes cut from the end */
    size_t append;             /* zero bytes appended */
    void (*patch)(mcb_buf *b); /* byte-level change after writing */
    mcg_at first;              /* where meta.rule first fires */
} aem2025_case;

/* ---- mutations: each named for what it breaks ---- */

static void zero_counts(aem2025b_model *m)
{
    for (int s = 0; s < AEM2025B_SECTIONS; s++) aem2025b_resize(m, (enum aem2025b_section)s, 0);
}

/* A BC7 4x4 RGBA texture (3 levels of one 16-byte block) and a BC5 4x4
 * two-channel one (the same size), used by material 1. The block bytes
 * are arbitrary: the layout does not look inside them. */
static void compressed_textures(aem2025b_model *m)
{
    uint8_t blocks[48];
    for (size_t k = 0; k < sizeof blocks; k++) blocks[k] = (uint8_t)(k * 7);
    aem2025b_texture bc7 = {0, 4, 4, {0, 0}, 4, AEM2025B_BC7};
    aem2025b_texture bc5 = {0, 4, 4, {0, 0}, 2, AEM2025B_BC5};
    aem2025b_add_texture(m, bc7, blocks, sizeof blocks, NULL);
    aem2025b_add_texture(m, bc5, blocks, sizeof blocks, NULL);
    m->materials[1].texture[0] = 5;
    m->materials[1].texture[1] = 6;
}
static void bc5_with_4_channels(aem2025b_model *m)
{
    compressed_textures(m);
    m->textures[6].channels = 4;
}

/* 3x5 RGBA: levels 3x5, 1x2, 1x1 (60 + 8 + 4 bytes) */
static void odd_size_texture(aem2025b_model *m)
{
    uint8_t texels[60];
    for (size_t k = 0; k < sizeof texels; k++) texels[k] = (uint8_t)(k * 3);
    const uint32_t wrap[2] = {AEM2025B_MIRRORED_REPEAT, AEM2025B_CLAMP};
    aem2025b_add_image(m, 3, 5, 4, wrap, texels, NULL);
    m->materials[0].texture[0] = 5;
}
static void name_127_chars(aem2025b_model *m)
{
    memset(m->joints[2].name, 'n', 127);
    m->joints[2].name[127] = '\0';
}
static void name_utf8(aem2025b_model *m) { strcpy(m->joints[1].name, "\xc3\xa9paule_\xe6\x89\x8b"); }
static void parent_after_child(aem2025b_model *m)
{
    /* joint 0 hangs from joint 2, the root: 2 -> 0 -> 1 */
    m->joints[0].parent = 2;
    m->joints[1].parent = 0;
    m->joints[2].parent = -1;
}
/* the converter's skinned vertex: glTF's JOINTS_0 copied, unused slots 0 */
static void filler_joint_index(aem2025b_model *m)
{
    for (uint64_t v = 0; v < m->count[AEM2025B_VERTICES]; v++) m->vertices[v].joint[2] = m->vertices[v].joint[3] = 0;
}
static void zero_weight_joint(aem2025b_model *m) { m->vertices[3].joint[2] = 2; }
static void name_garbage_after_nul(aem2025b_model *m) { memcpy(m->joints[1].name + 100, "stack", 5); }
static void header_padding(aem2025b_model *m) { m->header_padding = 0xcdcdcdcdu; }
static void tangent_0_5(aem2025b_model *m) { m->vertices[1].tangent[0] = 0.5f; }
static void pbr_two_channels(aem2025b_model *m) { m->materials[0].texture[2] = 1; }
/* a sixth texture record over texture 0's chain */
static void texture_alias(aem2025b_model *m)
{
    aem2025b_resize(m, AEM2025B_TEXTURES, 6);
    m->textures[5] = m->textures[0];
}
static void image_8_spare_bytes(aem2025b_model *m) { aem2025b_resize(m, AEM2025B_IMAGE, 40); }
static void track_no_scale(aem2025b_model *m) { m->tracks[3].count[2] = 0; }
static void ambiguous(aem2025b_model *m)
{
    /* 3 zero vertices and nothing else: 40 + 3 x 92 = 52 + 3 x 88 = 316 */
    zero_counts(m);
    aem2025b_resize(m, AEM2025B_VERTICES, 3);
}
static void normal_nan(aem2025b_model *m) { m->vertices[3].normal[0] = NAN; }
static void joint_index_3(aem2025b_model *m) { m->vertices[4].joint[1] = 3; }
static void unused_slot_weight(aem2025b_model *m)
{
    m->vertices[0].weight[0] = 0.65f;
    m->vertices[0].weight[2] = 0.1f;
}
static void weight_1_5(aem2025b_model *m)
{
    m->vertices[7].weight[0] = 1.5f;
    m->vertices[7].weight[1] = -0.5f;
}
static void weights_sum_0_93(aem2025b_model *m) { m->vertices[5].weight[0] = 0.68f; }
static void index_8(aem2025b_model *m) { m->indices[4] = 8; }
static void wrap_3(aem2025b_model *m) { m->textures[2].wrap[1] = 3; }
static void compression_3(aem2025b_model *m) { m->textures[2].compression = 3; }
static void width_0(aem2025b_model *m) { m->textures[3].width = 0; }
static void channels_0(aem2025b_model *m) { m->textures[1].channels = 0; }
static void chain_past_buffer(aem2025b_model *m) { m->textures[4].offset = 31; }
static void mesh_past_indices(aem2025b_model *m) { m->meshes[1].first_index = 9; }
static void mesh_5_indices(aem2025b_model *m) { m->meshes[1].index_count = 5; }
static void mesh_material_2(aem2025b_model *m) { m->meshes[1].material = 2; }
static void material_texture_5(aem2025b_model *m) { m->materials[0].texture[1] = 5; }
static void material_type_2(aem2025b_model *m) { m->materials[1].type = 2; }
static void name_unterminated(aem2025b_model *m) { memset(m->joints[1].name, 'a', 128); }
static void name_not_utf8(aem2025b_model *m) { memcpy(m->animations[0].name, "wa\xff", 3); }
static void matrix_inf(aem2025b_model *m) { m->joints[0].inverse_bind[5] = INFINITY; }
static void matrix_singular(aem2025b_model *m)
{
    float *b = m->joints[1].inverse_bind;
    memcpy(b + 4, b, 4 * sizeof *b);
}
static void parent_3(aem2025b_model *m) { m->joints[2].parent = 3; }
static void parent_self(aem2025b_model *m) { m->joints[1].parent = 1; }
static void cycle_of_3(aem2025b_model *m) { m->joints[0].parent = 2; }
static void duration_zero(aem2025b_model *m) { m->animations[0].duration = 0.0f; }
static void tracks_5(aem2025b_model *m) { aem2025b_resize(m, AEM2025B_TRACKS, 5); }
static void track_keys_past_end(aem2025b_model *m) { m->tracks[5].first_keyframe = 25; }
static void key_nan(aem2025b_model *m) { m->keys[3].x = NAN; }
static void key_time_1_5(aem2025b_model *m) { m->keys[1].time = 1.5f; }
static void key_times_equal(aem2025b_model *m) { m->keys[1].time = 0.0f; }
static void translation_key_w(aem2025b_model *m) { m->keys[0].w = 1.0f; }
static void rotation_not_unit(aem2025b_model *m) { m->keys[2].w = 0.5f; }

#define AT(place, index, add) MCG_AT(place, index, add)
#define NOWHERE MCG_NOWHERE_AT
/* vertex field offsets (readme, Vertex Section) */
enum { V_NORMAL = 12, V_TANGENT = 24, V_JOINTS = 56, V_WEIGHTS = 72 };
#define SKIN AEM2025B_SKINNED_ANIMATED
#define CASE(dir, file, rule, desc, expect) {"aem/" dir "/2025_" file, "aem", "2025", rule, desc, expect, NULL}

static const aem2025_case cases[] = {
    /* valid: no errors; warnings and infos only where named */
    {CASE("valid", "skinned_animated.aem", NULL, "3 joints, 2 animations, 2 meshes, 5 textures with MIP chains: every section used", ""), SKIN, NULL, 0, 0, NULL, NOWHERE},
    {CASE("valid", "static.aem", NULL, "no joints or animations: every vertex -1 x4 with weights 0, as the converter writes", ""), AEM2025B_STATIC, NULL, 0, 0, NULL, NOWHERE},
    {CASE("valid", "zero_counts.aem", NULL, "the 52-byte header alone: every count 0", "FILE_NO_CONTENT"), SKIN, zero_counts, 0, 0, NULL, NOWHERE},
    {CASE("valid", "bc7_and_bc5_textures.aem", NULL, "a BC7 and a BC5 4x4 texture: 3 levels of one 16-byte block each", ""), SKIN, compressed_textures, 0, 0, NULL, NOWHERE},
    {CASE("valid", "texture_3x5_mip_chain.aem", NULL, "a 3x5 RGBA texture: levels 3x5, 1x2, 1x1 (72 bytes)", ""), SKIN, odd_size_texture, 0, 0, NULL, NOWHERE},
    {CASE("valid", "name_127_chars.aem", NULL, "a joint name of 127 characters + NUL, the longest allowed", ""), SKIN, name_127_chars, 0, 0, NULL, NOWHERE},
    {CASE("valid", "name_utf8.aem", NULL, "a joint name with 2- and 3-byte UTF-8 sequences", ""), SKIN, name_utf8, 0, 0, NULL, NOWHERE},
    {CASE("valid", "joint_parent_after_child.aem", "AEM2025_JOINT_PARENT_AFTER_CHILD", "joint 0's parent is joint 2 (allowed; an info)", "AEM2025_JOINT_PARENT_AFTER_CHILD"), SKIN, parent_after_child, 0, 0, NULL, AT(AEM2025B_JOINTS, 0, 192)},
    {CASE("valid", "filler_joint_index.aem", "AEM2025_FILLER_JOINT_INDEX", "the converter's skinned vertices: unused slots hold glTF's filler joint 0 (16 slots, one warning)", "AEM2025_FILLER_JOINT_INDEX"), SKIN, filler_joint_index, 0, 0, NULL, AT(AEM2025B_VERTICES, 0, V_JOINTS + 8)},
    {CASE("valid", "zero_weight_joint.aem", "AEM2025_ZERO_WEIGHT_JOINT", "vertex 3's slot 2 names joint 2 with weight 0", "AEM2025_ZERO_WEIGHT_JOINT"), SKIN, zero_weight_joint, 0, 0, NULL, AT(AEM2025B_VERTICES, 3, V_JOINTS + 8)},
    {CASE("valid", "name_garbage_after_nul.aem", "AEM2025_NAME_TRAILING_BYTES", "the converter's stack bytes after joint 1's NUL", "AEM2025_NAME_TRAILING_BYTES"), SKIN, name_garbage_after_nul, 0, 0, NULL, AT(AEM2025B_JOINTS, 1, 100)},
    {CASE("valid", "header_padding.aem", "AEM2025_HEADER_PADDING", "header bytes 48-51 hold 0xcdcdcdcd", "AEM2025_HEADER_PADDING"), SKIN, header_padding, 0, 0, NULL, MCG_ABS(48)},
    {CASE("valid", "tangent_length_0_5.aem", "AEM2025_VECTOR_NOT_UNIT", "vertex 1's tangent has length 0.5", "AEM2025_VECTOR_NOT_UNIT"), SKIN, tangent_0_5, 0, 0, NULL, AT(AEM2025B_VERTICES, 1, V_TANGENT)},
    {CASE("valid", "bc5_with_4_channels.aem", "AEM2025_TEXTURE_CHANNELS_COMPRESSION", "a BC5 texture declaring 4 channels", "AEM2025_TEXTURE_CHANNELS_COMPRESSION"), SKIN, bc5_with_4_channels, 0, 0, NULL, AT(AEM2025B_TEXTURES, 6, 24)},
    {CASE("valid", "pbr_texture_2_channels.aem", "AEM2025_TEXTURE_CHANNELS_FOR_USE", "material 0's PBR texture is the 2-channel normal map", "AEM2025_TEXTURE_CHANNELS_FOR_USE"), SKIN, pbr_two_channels, 0, 0, NULL, AT(AEM2025B_MATERIALS, 0, 8)},
    {CASE("valid", "texture_chain_shared.aem", "AEM2025_TEXTURE_DATA_OVERLAP", "a sixth texture record over texture 0's chain", "AEM2025_TEXTURE_DATA_OVERLAP"), SKIN, texture_alias, 0, 0, NULL, AT(AEM2025B_TEXTURES, 5, 0)},
    {CASE("valid", "image_8_spare_bytes.aem", "AEM2025_IMAGE_UNREFERENCED", "8 image buffer bytes after the last chain", "AEM2025_IMAGE_UNREFERENCED"), SKIN, image_8_spare_bytes, 0, 0, NULL, AT(AEM2025B_IMAGE, 32, 0)},
    {CASE("valid", "track_no_scale_key.aem", "AEM2025_TRACK_CHANNEL_EMPTY", "track 3 has no scale key", "AEM2025_TRACK_CHANNEL_EMPTY"), SKIN, track_no_scale, 0, 0, NULL, AT(AEM2025B_TRACKS, 3, 12)},

    /* invalid: each breaks one rule */
    {{"aem/invalid/2025_layout_ambiguous.aem", "aem", "", "AEM_LAYOUT_AMBIGUOUS", "316 bytes: 3 vertices and nothing else fit both layouts", "AEM_LAYOUT_AMBIGUOUS", NULL}, SKIN, ambiguous, 0, 0, NULL, MCG_ABS(0)},
    {CASE("invalid", "truncated_in_keyframes.aem", "AEM_TRUNCATED", "7 bytes missing at the end", "AEM_TRUNCATED"), SKIN, NULL, 7, 0, NULL, MCG_END_AT(0)},
    {CASE("invalid", "trailing_byte.aem", "AEM_TRAILING_BYTES", "one byte after the last keyframe", "AEM_TRAILING_BYTES"), SKIN, NULL, 0, 1, NULL, MCG_END_AT(-1)},
    {CASE("invalid", "normal_nan.aem", "AEM2025_VERTEX_NOT_FINITE", "a NaN in vertex 3's normal", "AEM2025_VERTEX_NOT_FINITE"), SKIN, normal_nan, 0, 0, NULL, AT(AEM2025B_VERTICES, 3, V_NORMAL)},
    {CASE("invalid", "joint_index_3_of_3.aem", "AEM2025_JOINT_INDEX_RANGE", "vertex 4 names joint 3 of 3", "AEM2025_JOINT_INDEX_RANGE"), SKIN, joint_index_3, 0, 0, NULL, AT(AEM2025B_VERTICES, 4, V_JOINTS + 4)},
    {CASE("invalid", "minus_one_slot_weight_0_1.aem", "AEM2025_UNUSED_SLOT_WEIGHT", "a -1 slot carries weight 0.1 (sum still 1)", "AEM2025_UNUSED_SLOT_WEIGHT"), SKIN, unused_slot_weight, 0, 0, NULL, AT(AEM2025B_VERTICES, 0, V_WEIGHTS + 8)},
    {CASE("invalid", "weights_1_5_and_minus_0_5.aem", "AEM2025_WEIGHT_RANGE", "weights 1.5 and -0.5 (sum 1)", "AEM2025_WEIGHT_RANGE*2"), SKIN, weight_1_5, 0, 0, NULL, AT(AEM2025B_VERTICES, 7, V_WEIGHTS)},
    {CASE("invalid", "weights_sum_0_93.aem", "AEM2025_WEIGHT_SUM", "vertex 5's weights sum to 0.93", "AEM2025_WEIGHT_SUM"), SKIN, weights_sum_0_93, 0, 0, NULL, AT(AEM2025B_VERTICES, 5, V_WEIGHTS)},
    {CASE("invalid", "index_out_of_range.aem", "AEM2025_INDEX_RANGE", "index 8 with 8 vertices", "AEM2025_INDEX_RANGE"), SKIN, index_8, 0, 0, NULL, AT(AEM2025B_INDICES, 4, 0)},
    {CASE("invalid", "texture_wrap_3.aem", "AEM2025_TEXTURE_WRAP", "texture 2's wrap mode Y is 3", "AEM2025_TEXTURE_WRAP"), SKIN, wrap_3, 0, 0, NULL, AT(AEM2025B_TEXTURES, 2, 20)},
    {CASE("invalid", "texture_compression_3.aem", "AEM2025_TEXTURE_COMPRESSION", "texture 2's compression is 3", "AEM2025_TEXTURE_COMPRESSION"), SKIN, compression_3, 0, 0, NULL, AT(AEM2025B_TEXTURES, 2, 28)},
    {CASE("invalid", "texture_width_0.aem", "AEM2025_TEXTURE_SIZE_ZERO", "texture 3 is 0 texels wide", "AEM2025_TEXTURE_SIZE_ZERO"), SKIN, width_0, 0, 0, NULL, AT(AEM2025B_TEXTURES, 3, 8)},
    {CASE("invalid", "texture_channels_0.aem", "AEM2025_TEXTURE_CHANNELS", "texture 1 has 0 channels", "AEM2025_TEXTURE_CHANNELS"), SKIN, channels_0, 0, 0, NULL, AT(AEM2025B_TEXTURES, 1, 24)},
    {CASE("invalid", "texture_chain_past_buffer.aem", "AEM2025_TEXTURE_DATA_RANGE", "texture 4's 2-byte chain starts at byte 31 of 32", "AEM2025_TEXTURE_DATA_RANGE"), SKIN, chain_past_buffer, 0, 0, NULL, AT(AEM2025B_TEXTURES, 4, 0)},
    {CASE("invalid", "mesh_range_past_indices.aem", "AEM2025_MESH_RANGE", "mesh 1 spans indices [9, 15) of 12", "AEM2025_MESH_RANGE"), SKIN, mesh_past_indices, 0, 0, NULL, AT(AEM2025B_MESHES, 1, 0)},
    {CASE("invalid", "mesh_5_indices.aem", "AEM2025_MESH_NOT_TRIANGLES", "mesh 1 has 5 indices", "AEM2025_MESH_NOT_TRIANGLES"), SKIN, mesh_5_indices, 0, 0, NULL, AT(AEM2025B_MESHES, 1, 4)},
    {CASE("invalid", "mesh_material_2_of_2.aem", "AEM2025_MESH_MATERIAL_RANGE", "mesh 1 uses material 2 of 2", "AEM2025_MESH_MATERIAL_RANGE"), SKIN, mesh_material_2, 0, 0, NULL, AT(AEM2025B_MESHES, 1, 8)},
    {CASE("invalid", "material_texture_5_of_5.aem", "AEM2025_MATERIAL_TEXTURE_RANGE", "material 0's normal texture is 5 of 5", "AEM2025_MATERIAL_TEXTURE_RANGE"), SKIN, material_texture_5, 0, 0, NULL, AT(AEM2025B_MATERIALS, 0, 4)},
    {CASE("invalid", "material_type_2.aem", "AEM2025_MATERIAL_TYPE", "material 1's type is 2", "AEM2025_MATERIAL_TYPE"), SKIN, material_type_2, 0, 0, NULL, AT(AEM2025B_MATERIALS, 1, 12)},
    {CASE("invalid", "joint_name_unterminated.aem", "AEM2025_NAME_UNTERMINATED", "128 bytes of 'a', no NUL", "AEM2025_NAME_UNTERMINATED"), SKIN, name_unterminated, 0, 0, NULL, AT(AEM2025B_JOINTS, 1, 0)},
    {CASE("invalid", "animation_name_not_utf8.aem", "AEM2025_NAME_NOT_UTF8", "byte 0xff in animation 0's name", "AEM2025_NAME_NOT_UTF8"), SKIN, name_not_utf8, 0, 0, NULL, AT(AEM2025B_ANIMATIONS, 0, 2)},
    {CASE("invalid", "joint_matrix_infinite.aem", "AEM2025_JOINT_MATRIX_NOT_FINITE", "an infinity in joint 0's inverse bind matrix", "AEM2025_JOINT_MATRIX_NOT_FINITE"), SKIN, matrix_inf, 0, 0, NULL, AT(AEM2025B_JOINTS, 0, 128)},
    {CASE("invalid", "joint_matrix_singular.aem", "AEM2025_JOINT_MATRIX_SINGULAR", "joint 1's matrix has two equal columns", "AEM2025_JOINT_MATRIX_SINGULAR"), SKIN, matrix_singular, 0, 0, NULL, AT(AEM2025B_JOINTS, 1, 128)},
    {CASE("invalid", "joint_parent_3_of_3.aem", "AEM2025_JOINT_PARENT_RANGE", "joint 2's parent is joint 3 of 3", "AEM2025_JOINT_PARENT_RANGE"), SKIN, parent_3, 0, 0, NULL, AT(AEM2025B_JOINTS, 2, 192)},
    {CASE("invalid", "joint_parent_self.aem", "AEM2025_JOINT_CYCLE", "joint 1 is its own parent", "AEM2025_JOINT_CYCLE"), SKIN, parent_self, 0, 0, NULL, AT(AEM2025B_JOINTS, 1, 192)},
    {CASE("invalid", "joint_cycle_of_3.aem", "AEM2025_JOINT_CYCLE", "joints 0 -> 2 -> 1 -> 0 (joint 0 also comes before its parent)", "AEM2025_JOINT_CYCLE AEM2025_JOINT_PARENT_AFTER_CHILD"), SKIN, cycle_of_3, 0, 0, NULL, AT(AEM2025B_JOINTS, 1, 192)},
    {CASE("invalid", "animation_duration_zero.aem", "AEM2025_ANIMATION_DURATION", "an animation lasting 0 seconds", "AEM2025_ANIMATION_DURATION"), SKIN, duration_zero, 0, 0, NULL, AT(AEM2025B_ANIMATIONS, 0, 128)},
    {CASE("invalid", "tracks_5_of_6.aem", "AEM2025_TRACK_COUNT", "5 tracks for 3 joints x 2 animations", "AEM2025_TRACK_COUNT"), SKIN, tracks_5, 0, 0, NULL, MCG_ABS(40)},
    {CASE("invalid", "track_keys_past_end.aem", "AEM2025_TRACK_KEY_RANGE", "track 5's keys [25, 28) of 27", "AEM2025_TRACK_KEY_RANGE"), SKIN, track_keys_past_end, 0, 0, NULL, AT(AEM2025B_TRACKS, 5, 0)},
    {CASE("invalid", "key_nan.aem", "AEM2025_KEY_NOT_FINITE", "a NaN in keyframe 3", "AEM2025_KEY_NOT_FINITE"), SKIN, key_nan, 0, 0, NULL, AT(AEM2025B_KEYFRAMES, 3, 0)},
    {CASE("invalid", "key_time_past_duration.aem", "AEM2025_KEY_TIME_RANGE", "a key at 1.5 s in a 1 s animation", "AEM2025_KEY_TIME_RANGE"), SKIN, key_time_1_5, 0, 0, NULL, AT(AEM2025B_KEYFRAMES, 1, 0)},
    {CASE("invalid", "key_times_equal.aem", "AEM2025_KEY_TIME_ORDER", "two translation keys at t = 0 (libaem divides by their difference)", "AEM2025_KEY_TIME_ORDER"), SKIN, key_times_equal, 0, 0, NULL, AT(AEM2025B_KEYFRAMES, 1, 0)},
    {CASE("invalid", "translation_key_w_1.aem", "AEM2025_KEY_W_NONZERO", "a translation key with W = 1", "AEM2025_KEY_W_NONZERO"), SKIN, translation_key_w, 0, 0, NULL, AT(AEM2025B_KEYFRAMES, 0, 16)},
    {CASE("invalid", "rotation_key_not_unit.aem", "AEM2025_KEY_ROTATION_NOT_UNIT", "a rotation key of length 0.5", "AEM2025_KEY_ROTATION_NOT_UNIT"), SKIN, rotation_not_unit, 0, 0, NULL, AT(AEM2025B_KEYFRAMES, 2, 4)},
};

/* A row's places (mcg_at) are the sections of enum aem2025b_section. */
static uint64_t place(const void *model, int section, uint64_t index, uint64_t sub)
{
    (void)sub;
    return aem2025b_offset(model, (enum aem2025b_section)section, index);
}

static int build(const void *row, mcb_buf *b, uint64_t *first)
{
    const aem2025_case *c = row;
    *first = 0;
    aem2025b_model *m = aem2025b_sample(c->base);
    if (!m) return -1;
    if (c->mutate) c->mutate(m);
    aem2025b_write(m, b);
    if (c->cut && c->cut <= b->size) b->size -= c->cut;
    mcb_zeros(b, c->append);
    if (c->patch) c->patch(b);
    *first = mcg_offset(&c->first, b->size, place, m);
    aem2025b_free(m);
    return b->oom ? -1 : 0;
}

const mcg_table mcg_aem2025_table = MCG_TABLE("aem", cases, aem2025_case, build);
