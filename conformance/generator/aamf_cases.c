/*
 * AAMF / SAMF conformance cases: each starts from a valid sample model (SAMF
 * v2 or legacy) and changes one thing, so the file breaks exactly the rule
 * it is named after. Files whose only findings are warnings or infos are
 * valid and live in valid/, named after what they show; "writer_" names the
 * real converter's habits (docs/formats/aamf.md). The expectation of
 * each case is written here by hand, from the spec, docs/formats/aamf.md and the
 * catalog, never computed by running the validator.
 *
 * The two 1.5 MB files, samf_65536_vertices and samf_65537_vertices, are the
 * two sides of the u16 face index limit (SAMF_VERTEX_COUNT_U16).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aamf_builder.h"
#include "corpus_cases.h"

typedef struct aamf_case {
    mcg_case meta;
    enum aamfb_sample_kind base;
    int legacy;
    void (*mutate)(aamfb_model *m);
    long truncate_by; /* bytes cut from the end after writing */
    long append;      /* zero bytes appended after writing */
    mcg_at first;     /* where meta.rule first fires */
    void (*bytes)(mcb_buf *b); /* instead of a sample: writes the whole file */
} aamf_case;

static void magic_aamf(aamfb_model *m)
{
    memcpy(m->magic, "AAMF", 4);
}

static void three_roots(aamfb_model *m)
{
    m->bones[4].parent = 4;
    m->bones[9].parent = 9;
}

/* docs/formats/aamf.md: the writer leaves the old joint index in slots of weight 0. */
static void writer_stale_indices(aamfb_model *m)
{
    for (uint32_t v = 0; v < m->vertex_count; v += 3) m->skin[v].bone[1] = (uint8_t)(v % 7 + 1);
}

static void matrix_pad(aamfb_model *m)
{
    m->anims[0].keys[1].pad = 0x7fff;
}

static void translation_saturated(aamfb_model *m)
{
    m->bones[0].bind.t[0] = INT32_MAX;
}

static void keyframe_pointer(aamfb_model *m)
{
    m->anims[1].keyframe_pointer = 0x80012340;
}

static void name_empty(aamfb_model *m)
{
    memset(m->anims[0].name, 0, 8);
}

static void names_duplicate(aamfb_model *m)
{
    memcpy(m->anims[2].name, "idle\0\0\0\0", 8);
}

static void svector_pad(aamfb_model *m)
{
    m->normals[5].pad = 1;
}

static void position_saturated(aamfb_model *m)
{
    m->positions[1].x = 32767;
}

static void degenerate_face(aamfb_model *m)
{
    m->faces[10][2] = m->faces[10][0];
}

/* 65537 vertices (1.5 MB, the corpus's largest file): u16 faces cannot
 * address the last one. */
static void vertices_65537(aamfb_model *m)
{
    if (aamfb_resize_vertices(m, 65537) != 0) abort();
}

static void bones_257(aamfb_model *m)
{
    if (aamfb_resize_bones(m, 257) != 0) m->bone_count = 0;
}

/* docs/formats/aamf.md: int(w*255) after normalising: two weights of 0.5 give 254. */
static void writer_weight_sum_254(aamfb_model *m)
{
    for (uint32_t v = 1; v < m->vertex_count; v += 3) {
        m->skin[v].weight[0] = 127;
        m->skin[v].weight[1] = 127;
    }
}

static void weight_sum_200(aamfb_model *m)
{
    m->skin[3].weight[0] = 200;
}

/* docs/formats/aamf.md: skin indices are glTF joint indices, the bone table counts
 * animated nodes only. */
static void writer_bone_index_past_count(aamfb_model *m)
{
    for (uint32_t v = 0; v < m->vertex_count; v += 9) m->skin[v].bone[0] = (uint8_t)(m->bone_count + v / 9);
}

static void duplicate_skin_bone(aamfb_model *m)
{
    m->skin[2].bone[2] = m->skin[2].bone[0];
}

static void normal_short(aamfb_model *m)
{
    m->normals[2].z = 3900;
}

static void face_index_range(aamfb_model *m)
{
    m->faces[1][1] = (uint16_t)m->vertex_count;
}

static void version_3(aamfb_model *m)
{
    m->version = 3;
}

static void block_size_2(aamfb_model *m)
{
    m->anims[1].size_delta = -(int32_t)aamfb_anim_block_size(m, 1) + 2;
}

static void bone_index_mismatch(aamfb_model *m)
{
    m->bones[5].index = 6;
}

static void parent_ffff(aamfb_model *m)
{
    m->bones[3].parent = 0xffff;
}

static void parent_forward(aamfb_model *m)
{
    m->bones[3].parent = 7;
}

static void bind_scaled(aamfb_model *m)
{
    for (int k = 0; k < 9; k++) m->bones[2].bind.m[k] = (int16_t)(m->bones[2].bind.m[k] * 12 / 10);
}

static void bind_mirrored(aamfb_model *m)
{
    for (int k = 6; k < 9; k++) m->bones[6].bind.m[k] = (int16_t)-m->bones[6].bind.m[k];
}

static void keyframe_scaled(aamfb_model *m)
{
    aamfb_matrix *k = &m->anims[1].keys[5 * m->anims[1].keyframe_count + 2];
    for (int i = 0; i < 9; i++) k->m[i] = (int16_t)(k->m[i] / 2);
}

static void no_animations(aamfb_model *m)
{
    for (uint32_t a = 0; a < m->anim_count; a++) {
        free(m->anims[a].keys);
        m->anims[a].keys = NULL;
    }
    m->anim_count = 0;
}

static void anim_block_size(aamfb_model *m)
{
    m->anims[1].keyframe_count = 5; /* 4 written */
}

static void zero_keyframes(aamfb_model *m)
{
    m->anims[0].keyframe_count = 0;
    m->anims[0].key_count = 0;
}

static void name_control_byte(aamfb_model *m)
{
    memcpy(m->anims[0].name, "id\tle\0\0\0", 8);
}

static void texture_name_bytes(aamfb_model *m)
{
    m->bones[2].amf.textures[1][2] = (char)0xe9;
}

static void amf_bytes_after_chunks(aamfb_model *m)
{
    m->bones[4].amf.extra = 8;
}

static void texture_flag(aamfb_model *m)
{
    m->bones[0].amf.used_textures |= 0x80000000u;
}

static void grid_65536(aamfb_model *m)
{
    m->bones[1].amf.x = 256;
    m->bones[1].amf.z = 256;
}

/* Bone 5 has 3 texture names and 1 chunk of 2 F4, 1 FT4, 2 GT4, 1 G3,
 * 2 FT3: every textured record names index 3, one past the table. */
static void amf_texture_index_past_table(aamfb_model *m)
{
    m->bones[5].amf.chunks[0].texture = 3;
}

/* The legacy detector claims a file only when every bone_idx is its row
 * number: a mismatch must be validated with --format aamf. */
static void legacy_row_7_index_8(aamfb_model *m)
{
    m->bones[7].index = 8;
}

/* ---- edge cases (issue 7) ---- */

static void zero_vertices_zero_faces(aamfb_model *m)
{
    m->vertex_count = 0;
    m->face_count = 0;
}

static void zero_faces(aamfb_model *m)
{
    m->face_count = 0;
}

static void zero_bones(aamfb_model *m)
{
    if (aamfb_resize_bones(m, 0) != 0) abort();
}

static void zero_bones_zero_mesh(aamfb_model *m)
{
    zero_bones(m);
    zero_vertices_zero_faces(m);
}

static void amf_no_textures_no_chunks(aamfb_model *m)
{
    aamfb_amf *a = &m->bones[0].amf;
    a->texture_count = a->used_textures = 0;
    a->chunk_count = 0;
    a->x = a->z = 0;
    memset(a->bounds, 0, sizeof a->bounds);
}

static void amf_chunk_without_primitives(aamfb_model *m)
{
    memset(m->bones[0].amf.chunks[0].count, 0, sizeof m->bones[0].amf.chunks[0].count);
}

static void one_keyframe(aamfb_model *m)
{
    m->anims[0].keyframe_count = 1;
    if (aamfb_resize_keys(&m->anims[0], m->bone_count) != 0) abort();
}

/* SAMF: 1 bone, 3 vertices, 1 face, 1 animation of 1 keyframe */
static void samf_one_of_everything(aamfb_model *m)
{
    if (aamfb_resize_vertices(m, 3) != 0) abort();
    m->face_count = 1;
    one_keyframe(m);
}

/* legacy: 1 bone whose AMF has 1 texture and 1 chunk holding 1 primitive of
 * each of the 8 kinds; 1 animation of 1 keyframe */
static void legacy_one_of_everything(aamfb_model *m)
{
    for (int k = 0; k < 8; k++) m->bones[0].amf.chunks[0].count[k] = 1;
    one_keyframe(m);
}

/* 65536 vertices: the last one u16 faces can address, named by face 1 */
static void vertices_65536(aamfb_model *m)
{
    if (aamfb_resize_vertices(m, 65536) != 0) abort();
    m->faces[1][2] = 65535;
}

/* 256 bones: the last one a u8 skin index can name, used by vertex 2 */
static void bones_256(aamfb_model *m)
{
    if (aamfb_resize_bones(m, 256) != 0) abort();
    m->skin[2].bone[0] = 255;
}

static void name_8_chars(aamfb_model *m)
{
    memcpy(m->anims[0].name, "walkloop", 8);
}

static void name_7_chars(aamfb_model *m)
{
    memcpy(m->anims[0].name, "walking", 8);
}

static void texture_name_8_chars(aamfb_model *m)
{
    memcpy(m->bones[0].amf.textures[0], "BRICKS01", 8);
}

#define AT(section, index, add) MCG_AT(section, index, add)
#define NOWHERE MCG_NOWHERE_AT
#define ONE AAMFB_ONE_BONE
#define MANY AAMFB_32_BONES
#define ODD AAMFB_ODD_FACES
#define SAMF(dir, file, rule, desc, expect) {"aamf/" dir "/" file, "aamf", "samf2", rule, desc, expect, NULL}
#define LEGACY(dir, file, rule, desc, expect) {"aamf/" dir "/" file, "aamf", "legacy", rule, desc, expect, NULL}
#define LEGACY_FORCED(dir, file, rule, desc, expect) \
    {"aamf/" dir "/" file, "aamf", "legacy", rule, desc, expect, "--format aamf"}

/* ONE: 1 bone, 4 vertices, 2 faces, 1 animation "idle" of 2 keyframes.
 * MANY: 32 bones (binary tree), 64 vertices (v % 3 == 0: one weight 255;
 * 1: 128 + 127; 2: 100 + 85 + 70), 98 faces, animations idle / walk---- /
 * run of 1 / 4 / 3 keyframes; legacy: bone b has 1 + b % 3 textures and
 * 2 chunks when b % 4 == 0, else 1. ODD: ONE with 3 faces (3 F3 records). */
static const aamf_case aamf_cases[] = {
    /* valid: no errors; warnings and infos only where named */
    {SAMF("valid", "samf_1_bone.aamf", NULL, "SAMF v2: 1 bone, 4 vertices, 2 faces, 1 animation of 2 keyframes", ""), ONE, 0, NULL, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_32_bones_3_animations.aamf", NULL, "SAMF v2: 32 bones, 64 vertices of 1 to 3 influences, 98 faces, 3 animations", ""), MANY, 0, NULL, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_odd_face_count_unaligned_blocks.aamf", "AAMF_BLOCK_UNALIGNED", "3 faces: the only animation block starts at 166, 2 mod 4", "AAMF_BLOCK_UNALIGNED"), ODD, 0, NULL, 0, 0, AT(AAMFB_ANIMS, 0, 0), NULL},
    {LEGACY("valid", "legacy_1_bone.aamf", NULL, "legacy: 1 bone whose AMF holds 2 F3 primitives, 1 animation", ""), ONE, 1, NULL, 0, 0, NOWHERE, NULL},
    {LEGACY("valid", "legacy_32_bones_3_animations.aamf", NULL, "legacy: 32 bones, 1 to 3 textures and 1 or 2 chunks of every primitive kind, 3 animations", ""), MANY, 1, NULL, 0, 0, NOWHERE, NULL},
    {LEGACY("valid", "legacy_odd_primitive_count.aamf", NULL, "legacy: 3 F3 records (every record size is a multiple of 4: blocks stay aligned)", ""), ODD, 1, NULL, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_magic_aamf.aamf", "SAMF_MAGIC_AAMF", "magic 'AAMF', which readers accept", "SAMF_MAGIC_AAMF"), ONE, 0, magic_aamf, 0, 0, MCG_ABS(0), NULL},
    {SAMF("valid", "samf_three_roots.aamf", "AAMF_MULTIPLE_ROOTS", "bones 4 and 9 are their own parents besides bone 0: one finding for the file", "AAMF_MULTIPLE_ROOTS"), MANY, 0, three_roots, 0, 0, AT(AAMFB_BONE_TABLE, 4, 2), NULL},
    {SAMF("valid", "samf_writer_stale_unused_indices.aamf", "SAMF_SKIN_UNUSED_SLOT_INDEX", "the writer's stale joint index in slot 1 (weight 0) of the 22 one-weight vertices 0, 3, ..., 63", "SAMF_SKIN_UNUSED_SLOT_INDEX*22"), MANY, 0, writer_stale_indices, 0, 0, AT(AAMFB_SKIN, 0, 1), NULL},
    {SAMF("valid", "samf_matrix_pad_nonzero.aamf", "AAMF_MATRIX_PAD", "keyframe 1's MATRIX pad is 0x7fff", "AAMF_MATRIX_PAD"), ONE, 0, matrix_pad, 0, 0, AT(AAMFB_ANIMS, 0, 20 + 32 + 18), NULL},
    {SAMF("valid", "samf_translation_int32_max.aamf", "AAMF_MATRIX_TRANSLATION_SATURATED", "bone 0's bind pose translation x is INT32_MAX (clamped)", "AAMF_MATRIX_TRANSLATION_SATURATED"), ONE, 0, translation_saturated, 0, 0, AT(AAMFB_BIND_POSES, 0, 20), NULL},
    {LEGACY("valid", "legacy_keyframe_pointer_set.aamf", "AAMF_ANIM_KEYFRAME_POINTER", "animation 1's run-time keyframe_pointer 0x80012340 left in the file", "AAMF_ANIM_KEYFRAME_POINTER"), MANY, 1, keyframe_pointer, 0, 0, AT(AAMFB_ANIMS, 1, 16), NULL},
    {SAMF("valid", "samf_animation_name_empty.aamf", "AAMF_ANIM_NAME_EMPTY", "the only animation's name is 8 NULs", "AAMF_ANIM_NAME_EMPTY"), ONE, 0, name_empty, 0, 0, AT(AAMFB_ANIMS, 0, 4), NULL},
    {SAMF("valid", "samf_duplicate_animation_names.aamf", "AAMF_ANIM_NAME_DUPLICATE", "animations 0 and 2 are both 'idle'", "AAMF_ANIM_NAME_DUPLICATE"), MANY, 0, names_duplicate, 0, 0, AT(AAMFB_ANIMS, 2, 4), NULL},
    {SAMF("valid", "samf_normal_pad_nonzero.aamf", "SAMF_SVECTOR_PAD", "normal 5's SVECTOR pad is 1", "SAMF_SVECTOR_PAD"), MANY, 0, svector_pad, 0, 0, AT(AAMFB_NORMALS, 5, 6), NULL},
    {SAMF("valid", "samf_position_saturated.aamf", "SAMF_POSITION_SATURATED", "vertex 1's x is 32767 (clamped at +8.0)", "SAMF_POSITION_SATURATED"), MANY, 0, position_saturated, 0, 0, AT(AAMFB_POSITIONS, 1, 0), NULL},
    {SAMF("valid", "samf_degenerate_face.aamf", "SAMF_FACE_DEGENERATE", "face 10 uses its first vertex twice", "SAMF_FACE_DEGENERATE"), MANY, 0, degenerate_face, 0, 0, AT(AAMFB_FACES, 10, 0), NULL},
    {SAMF("valid", "samf_65537_vertices.aamf", "SAMF_VERTEX_COUNT_U16", "65537 vertices: u16 face indices cannot reach vertex 65536", "SAMF_VERTEX_COUNT_U16"), ONE, 0, vertices_65537, 0, 0, MCG_ABS(10), NULL},
    {SAMF("valid", "samf_257_bones.aamf", "SAMF_BONE_COUNT_U8", "257 bones: u8 skin indices cannot reach bone 256", "SAMF_BONE_COUNT_U8"), ONE, 0, bones_257, 0, 0, MCG_ABS(6), NULL},

    /* invalid: each breaks one rule */
    {SAMF("invalid", "samf_writer_weight_sum_254.aamf", "SAMF_WEIGHT_SUM_TRUNCATED", "the writer's int(w*255): the 21 two-weight vertices 1, 4, ..., 61 weigh 127 + 127 = 254", "SAMF_WEIGHT_SUM_TRUNCATED*21"), MANY, 0, writer_weight_sum_254, 0, 0, AT(AAMFB_SKIN, 1, 4), NULL},
    {SAMF("invalid", "samf_weight_sum_200.aamf", "SAMF_WEIGHT_SUM", "vertex 3's single weight is 200", "SAMF_WEIGHT_SUM"), MANY, 0, weight_sum_200, 0, 0, AT(AAMFB_SKIN, 3, 4), NULL},
    {SAMF("invalid", "samf_writer_bone_index_past_count.aamf", "SAMF_SKIN_BONE_RANGE", "the writer's glTF joint indices: vertices 0, 9, ..., 63 name bones 32 to 39 of 32 in slot 0", "SAMF_SKIN_BONE_RANGE*8"), MANY, 0, writer_bone_index_past_count, 0, 0, AT(AAMFB_SKIN, 0, 0), NULL},
    {SAMF("invalid", "samf_duplicate_skin_bone.aamf", "SAMF_SKIN_DUPLICATE_BONE", "vertex 2 names bone 2 in slots 0 and 2, both weighted", "SAMF_SKIN_DUPLICATE_BONE"), MANY, 0, duplicate_skin_bone, 0, 0, AT(AAMFB_SKIN, 2, 2), NULL},
    {SAMF("invalid", "samf_normal_length_0_97.aamf", "SAMF_NORMAL_NOT_UNIT", "normal 2 is (803, 0, 3900): length 0.97", "SAMF_NORMAL_NOT_UNIT"), MANY, 0, normal_short, 0, 0, AT(AAMFB_NORMALS, 2, 0), NULL},
    {SAMF("invalid", "samf_face_index_out_of_range.aamf", "SAMF_FACE_INDEX_RANGE", "face 1 names vertex 4 of 4", "SAMF_FACE_INDEX_RANGE"), ONE, 0, face_index_range, 0, 0, AT(AAMFB_FACES, 1, 2), NULL},
    {SAMF("invalid", "samf_version_3.aamf", "SAMF_UNSUPPORTED_VERSION", "version 3: layout unknown, no further checks", "SAMF_UNSUPPORTED_VERSION"), ONE, 0, version_3, 0, 0, MCG_ABS(4), NULL},
    {SAMF("invalid", "samf_truncated_in_faces.aamf", "AAMF_TRUNCATED", "the animation block and 8 of the 12 face bytes cut off", "AAMF_TRUNCATED"), ONE, 0, NULL, 22 + 32 * 2 + 6, 0, MCG_END_AT(0), NULL},
    {SAMF("invalid", "samf_trailing_bytes.aamf", "AAMF_TRAILING_BYTES", "4 zero bytes after the last animation block", "AAMF_TRAILING_BYTES"), ONE, 0, NULL, 0, 4, MCG_END_AT(-4), NULL},
    {SAMF("invalid", "samf_last_animation_cut.aamf", "AAMF_BLOCK_TRUNCATED", "the last animation block lacks its last 7 bytes", "AAMF_BLOCK_TRUNCATED"), MANY, 0, NULL, 7, 0, AT(AAMFB_ANIMS, 2, 0), NULL},
    {SAMF("invalid", "samf_block_size_2.aamf", "AAMF_BLOCK_SIZE_TOO_SMALL", "animation 1's block_size is 2: the chain stops there", "AAMF_BLOCK_SIZE_TOO_SMALL"), MANY, 0, block_size_2, 0, 0, AT(AAMFB_ANIMS, 1, 0), NULL},
    {SAMF("invalid", "samf_bone_index_mismatch.aamf", "AAMF_BONE_INDEX_MISMATCH", "row 5 of the bone table says bone 6", "AAMF_BONE_INDEX_MISMATCH"), MANY, 0, bone_index_mismatch, 0, 0, AT(AAMFB_BONE_TABLE, 5, 0), NULL},
    {SAMF("invalid", "samf_root_parent_ffff.aamf", "AAMF_BONE_PARENT_RANGE", "bone 3's parent is 0xFFFF (roots use their own index)", "AAMF_BONE_PARENT_RANGE"), MANY, 0, parent_ffff, 0, 0, AT(AAMFB_BONE_TABLE, 3, 2), NULL},
    {LEGACY("invalid", "legacy_parent_after_child.aamf", "AAMF_BONE_PARENT_FORWARD", "bone 3's parent is bone 7 (the runtime asserts parent <= i)", "AAMF_BONE_PARENT_FORWARD"), MANY, 1, parent_forward, 0, 0, AT(AAMFB_BONE_TABLE, 3, 2), NULL},
    {SAMF("invalid", "samf_bind_pose_scaled_1_2.aamf", "AAMF_MATRIX_NOT_ORTHONORMAL", "bone 2's bind rotation scaled by 1.2", "AAMF_MATRIX_NOT_ORTHONORMAL"), MANY, 0, bind_scaled, 0, 0, AT(AAMFB_BIND_POSES, 2, 0), NULL},
    {SAMF("invalid", "samf_bind_pose_mirrored.aamf", "AAMF_MATRIX_REFLECTION", "bone 6's bind rotation with its third row negated: orthonormal, determinant -1", "AAMF_MATRIX_REFLECTION"), MANY, 0, bind_mirrored, 0, 0, AT(AAMFB_BIND_POSES, 6, 0), NULL},
    {LEGACY("invalid", "legacy_keyframe_scaled_0_5.aamf", "AAMF_MATRIX_NOT_ORTHONORMAL", "animation 1, keyframe 2, bone 5: rotation scaled by 0.5", "AAMF_MATRIX_NOT_ORTHONORMAL"), MANY, 1, keyframe_scaled, 0, 0, AT(AAMFB_ANIMS, 1, 20 + (5 * 4 + 2) * 32), NULL},
    {SAMF("invalid", "samf_no_animations.aamf", "AAMF_NO_ANIMATIONS", "anim_count 0", "AAMF_NO_ANIMATIONS"), ONE, 0, no_animations, 0, 0, MCG_ABS(8), NULL},
    {LEGACY("invalid", "legacy_no_animations.aamf", "AAMF_NO_ANIMATIONS", "anim_count 0", "AAMF_NO_ANIMATIONS"), ONE, 1, no_animations, 0, 0, MCG_ABS(2), NULL},
    {SAMF("invalid", "samf_keyframe_count_vs_block_size.aamf", "AAMF_ANIM_BLOCK_SIZE", "animation 1 says 5 keyframes, its block holds 4", "AAMF_ANIM_BLOCK_SIZE"), MANY, 0, anim_block_size, 0, 0, AT(AAMFB_ANIMS, 1, 0), NULL},
    {SAMF("invalid", "samf_zero_keyframes.aamf", "AAMF_ANIM_NO_KEYFRAMES", "an animation of 0 keyframes (block_size 20, consistent)", "AAMF_ANIM_NO_KEYFRAMES"), ONE, 0, zero_keyframes, 0, 0, AT(AAMFB_ANIMS, 0, 12), NULL},
    {SAMF("invalid", "samf_animation_name_tab.aamf", "AAMF_NAME_NOT_PRINTABLE", "animation name 'id\\tle': a tab before the NUL", "AAMF_NAME_NOT_PRINTABLE"), ONE, 0, name_control_byte, 0, 0, AT(AAMFB_ANIMS, 0, 4 + 2), NULL},
    {LEGACY("invalid", "legacy_texture_name_not_ascii.aamf", "AAMF_NAME_NOT_PRINTABLE", "bone 2's texture name 1 holds byte 0xE9", "AAMF_NAME_NOT_PRINTABLE"), MANY, 1, texture_name_bytes, 0, 0, AT(AAMFB_BONE_BLOCKS, 2, 4 + 24 + 8 + 2), NULL},
    {LEGACY("invalid", "legacy_amf_bytes_after_last_chunk.aamf", "AAMF_AMF_LAYOUT", "bone 4's block holds 8 bytes after its last chunk", "AAMF_AMF_LAYOUT"), MANY, 1, amf_bytes_after_chunks, 0, 0, AT(AAMFB_BONE_BLOCKS, 5, -8), NULL},
    {LEGACY("invalid", "legacy_texture_relocated_flag.aamf", "AAMF_AMF_TEXTURE_FLAG", "used_textures has the run-time bit 31 set", "AAMF_AMF_TEXTURE_FLAG"), ONE, 1, texture_flag, 0, 0, AT(AAMFB_BONE_BLOCKS, 0, 4), NULL},
    {LEGACY("invalid", "legacy_chunk_grid_65536.aamf", "AAMF_AMF_GRID_TOO_LARGE", "bone 1's chunk grid is 256 x 256: the reader's u16 loop never ends, the chunks are not parsed", "AAMF_AMF_GRID_TOO_LARGE"), MANY, 1, grid_65536, 0, 0, AT(AAMFB_BONE_BLOCKS, 1, 8), NULL},
    /* bone 5: block_size 4, AMF header 24, 3 names, 1 chunk-table entry, chunk header 48, 2 F4 of 64: FT4 0's index at +40 */
    {LEGACY("invalid", "legacy_amf_texture_index_past_table.aamf", "AAMF_AMF_TEXTURE_INDEX_RANGE", "bone 5's 5 textured primitives (FT4, GT4, FT3) name texture 3 of its 3 (the game indexes its table unchecked)", "AAMF_AMF_TEXTURE_INDEX_RANGE*5"), MANY, 1, amf_texture_index_past_table, 0, 0, AT(AAMFB_BONE_BLOCKS, 5, 4 + 24 + 3 * 8 + 4 + 48 + 2 * 64 + 40), NULL},
    {LEGACY_FORCED("invalid", "legacy_bone_index_mismatch_forced.aamf", "AAMF_BONE_INDEX_MISMATCH", "row 7 says bone 8: not claimed by the detector, validated with --format aamf", "AAMF_BONE_INDEX_MISMATCH"), MANY, 1, legacy_row_7_index_8, 0, 0, AT(AAMFB_BONE_TABLE, 7, 0), NULL},
    {LEGACY_FORCED("invalid", "legacy_trailing_bytes_forced.aamf", "AAMF_TRAILING_BYTES", "4 zero bytes after the last animation block: the block chain does not end at the file's end, so the detector leaves it; validated with --format aamf", "AAMF_TRAILING_BYTES"), ONE, 1, NULL, 0, 4, MCG_END_AT(-4), NULL},
    /* edge cases (issue 7): zero counts, one of everything, u16 / u8 limits, 8-byte names */
    {SAMF("valid", "samf_zero_vertices_zero_faces.aamf", NULL, "1 bone, 0 vertices, 0 faces, 1 animation", ""), ONE, 0, zero_vertices_zero_faces, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_zero_faces.aamf", NULL, "1 bone, 4 skinned vertices, 0 faces", ""), ONE, 0, zero_faces, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_zero_bones_zero_vertices.aamf", NULL, "0 bones, 0 vertices, 0 faces; 1 animation of 2 keyframes of 0 matrices (block_size 20)", ""), ONE, 0, zero_bones_zero_mesh, 0, 0, NOWHERE, NULL},
    {LEGACY_FORCED("valid", "legacy_zero_bones_forced.aamf", NULL, "0 bones, 1 animation block of 20 bytes; the detector wants a bone, validated with --format aamf", ""), ONE, 1, zero_bones, 0, 0, NOWHERE, NULL},
    {LEGACY("valid", "legacy_amf_no_textures_no_chunks.aamf", NULL, "the bone's AMF has 0 textures and a 0 x 0 chunk grid: its header only", ""), ONE, 1, amf_no_textures_no_chunks, 0, 0, NOWHERE, NULL},
    {LEGACY("valid", "legacy_amf_chunk_without_primitives.aamf", NULL, "the bone's one chunk counts 0 primitives of every kind", ""), ONE, 1, amf_chunk_without_primitives, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_one_of_everything.aamf", "AAMF_BLOCK_UNALIGNED", "1 bone, 3 vertices, 1 face, 1 animation of 1 keyframe; the odd face count puts the block at 130, 2 mod 4", "AAMF_BLOCK_UNALIGNED"), ONE, 0, samf_one_of_everything, 0, 0, AT(AAMFB_ANIMS, 0, 0), NULL},
    {LEGACY("valid", "legacy_one_of_everything.aamf", NULL, "1 bone, 1 texture, 1 chunk with 1 primitive of each of the 8 kinds, 1 animation of 1 keyframe", ""), ONE, 1, legacy_one_of_everything, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_65536_vertices.aamf", NULL, "65536 vertices: face 1 names vertex 65535, the last a u16 index reaches", ""), ONE, 0, vertices_65536, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_256_bones.aamf", NULL, "256 bones: vertex 2 is skinned to bone 255, the last a u8 index reaches", ""), ONE, 0, bones_256, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_animation_name_8_chars_no_nul.aamf", NULL, "animation name 'walkloop': 8 characters, no NUL", ""), ONE, 0, name_8_chars, 0, 0, NOWHERE, NULL},
    {SAMF("valid", "samf_animation_name_7_chars_nul.aamf", NULL, "animation name 'walking' and its NUL", ""), ONE, 0, name_7_chars, 0, 0, NOWHERE, NULL},
    {LEGACY("valid", "legacy_texture_name_8_chars_no_nul.aamf", NULL, "texture name 'BRICKS01': 8 characters, no NUL", ""), ONE, 1, texture_name_8_chars, 0, 0, NOWHERE, NULL},
    {SAMF("invalid", "samf_zero_bones_skinned_vertices.aamf", "SAMF_SKIN_BONE_RANGE", "0 bones while the 4 vertices carry weight 255 on bone 0", "SAMF_SKIN_BONE_RANGE*4"), ONE, 0, zero_bones, 0, 0, AT(AAMFB_SKIN, 0, 0), NULL},
    {LEGACY("invalid", "legacy_older_amf_layout.aamf", "AAMF_AMF_LAYOUT", "2 bone blocks of 16 bytes in an older AMF layout (no room for the 24-byte header)", "AAMF_AMF_LAYOUT*2"), ONE, 1, NULL, 0, 0, MCG_ABS(16), aamfb_write_older_amf},
};

const size_t mcg_aamf_case_count = sizeof aamf_cases / sizeof aamf_cases[0];

static uint64_t place(const void *model, int section, uint64_t index, uint64_t sub)
{
    (void)sub;
    return aamfb_offset(model, (enum aamfb_section)section, index);
}

static int build(const void *row, mcb_buf *b, uint64_t *first)
{
    const aamf_case *c = row;
    *first = 0;
    if (c->bytes) {
        c->bytes(b);
        *first = mcg_offset(&c->first, b->size, place, NULL);
        return b->oom ? -1 : 0;
    }
    aamfb_model *m = aamfb_sample(c->base, c->legacy);
    if (!m) return -1;
    if (c->mutate) c->mutate(m);
    aamfb_write(m, b);
    if (c->truncate_by > 0 && (size_t)c->truncate_by <= b->size) b->size -= (size_t)c->truncate_by;
    if (c->append > 0) mcb_zeros(b, (size_t)c->append);
    *first = mcg_offset(&c->first, b->size, place, m);
    aamfb_free(m);
    return b->oom ? -1 : 0;
}

const mcg_table mcg_aamf_table = MCG_TABLE("aamf", aamf_cases, aamf_case, build);
