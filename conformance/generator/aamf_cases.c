/*
 * AAMF / SAMF conformance cases: each starts from a valid sample model (SAMF
 * v2 or legacy) and changes one thing, so the file breaks exactly the rule
 * it is named after. Files whose only findings are warnings or infos are
 * valid and live in valid/, named after what they show; "writer_" names the
 * real converter's habits (FIELD-NOTES "AAMF / SAMF").
 *
 * Not in the corpus: SAMF_VERTEX_COUNT_U16 (needs 65537 vertices, 1.5 MB;
 * the unit tests build it in memory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aamf_builder.h"
#include "corpus_cases.h"

typedef void (*aamf_mutation)(aamfb_model *m);

typedef struct aamf_case {
    const char *dir;  /* valid or invalid */
    const char *name; /* file name: says what it is */
    enum aamfb_sample_kind base;
    int legacy;
    aamf_mutation mutate;
    long truncate_by; /* bytes cut from the end after writing */
    long append;      /* zero bytes appended after writing */
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

/* FIELD-NOTES: the writer leaves the old joint index in slots of weight 0. */
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

static void bones_257(aamfb_model *m)
{
    if (aamfb_resize_bones(m, 257) != 0) m->bone_count = 0;
}

/* FIELD-NOTES: int(w*255) after normalising: two weights of 0.5 give 254. */
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

/* FIELD-NOTES: skin indices are glTF joint indices, the bone table counts
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
    aamfb_matrix *k = &m->anims[1].keys[2 * m->bone_count + 5];
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

static const aamf_case aamf_cases[] = {
    {"valid", "samf_1_bone.aamf", AAMFB_ONE_BONE, 0, NULL, 0, 0},
    {"valid", "samf_32_bones_3_animations.aamf", AAMFB_32_BONES, 0, NULL, 0, 0},
    {"valid", "samf_odd_face_count_unaligned_blocks.aamf", AAMFB_ODD_FACES, 0, NULL, 0, 0},
    {"valid", "legacy_1_bone.aamf", AAMFB_ONE_BONE, 1, NULL, 0, 0},
    {"valid", "legacy_32_bones_3_animations.aamf", AAMFB_32_BONES, 1, NULL, 0, 0},
    {"valid", "legacy_odd_primitive_count.aamf", AAMFB_ODD_FACES, 1, NULL, 0, 0},
    {"valid", "samf_magic_aamf.aamf", AAMFB_ONE_BONE, 0, magic_aamf, 0, 0},
    {"valid", "samf_three_roots.aamf", AAMFB_32_BONES, 0, three_roots, 0, 0},
    {"valid", "samf_writer_stale_unused_indices.aamf", AAMFB_32_BONES, 0, writer_stale_indices, 0, 0},
    {"valid", "samf_matrix_pad_nonzero.aamf", AAMFB_ONE_BONE, 0, matrix_pad, 0, 0},
    {"valid", "samf_translation_int32_max.aamf", AAMFB_ONE_BONE, 0, translation_saturated, 0, 0},
    {"valid", "legacy_keyframe_pointer_set.aamf", AAMFB_32_BONES, 1, keyframe_pointer, 0, 0},
    {"valid", "samf_animation_name_empty.aamf", AAMFB_ONE_BONE, 0, name_empty, 0, 0},
    {"valid", "samf_duplicate_animation_names.aamf", AAMFB_32_BONES, 0, names_duplicate, 0, 0},
    {"valid", "samf_normal_pad_nonzero.aamf", AAMFB_32_BONES, 0, svector_pad, 0, 0},
    {"valid", "samf_position_saturated.aamf", AAMFB_32_BONES, 0, position_saturated, 0, 0},
    {"valid", "samf_degenerate_face.aamf", AAMFB_32_BONES, 0, degenerate_face, 0, 0},
    {"valid", "samf_257_bones.aamf", AAMFB_ONE_BONE, 0, bones_257, 0, 0},
    {"invalid", "samf_writer_weight_sum_254.aamf", AAMFB_32_BONES, 0, writer_weight_sum_254, 0, 0},
    {"invalid", "samf_weight_sum_200.aamf", AAMFB_32_BONES, 0, weight_sum_200, 0, 0},
    {"invalid", "samf_writer_bone_index_past_count.aamf", AAMFB_32_BONES, 0, writer_bone_index_past_count, 0, 0},
    {"invalid", "samf_duplicate_skin_bone.aamf", AAMFB_32_BONES, 0, duplicate_skin_bone, 0, 0},
    {"invalid", "samf_normal_length_0_97.aamf", AAMFB_32_BONES, 0, normal_short, 0, 0},
    {"invalid", "samf_face_index_out_of_range.aamf", AAMFB_ONE_BONE, 0, face_index_range, 0, 0},
    {"invalid", "samf_version_3.aamf", AAMFB_ONE_BONE, 0, version_3, 0, 0},
    {"invalid", "samf_truncated_in_faces.aamf", AAMFB_ONE_BONE, 0, NULL, 22 + 32 * 2 + 6, 0},
    {"invalid", "samf_trailing_bytes.aamf", AAMFB_ONE_BONE, 0, NULL, 0, 4},
    {"invalid", "samf_last_animation_cut.aamf", AAMFB_32_BONES, 0, NULL, 7, 0},
    {"invalid", "samf_block_size_2.aamf", AAMFB_32_BONES, 0, block_size_2, 0, 0},
    {"invalid", "samf_bone_index_mismatch.aamf", AAMFB_32_BONES, 0, bone_index_mismatch, 0, 0},
    {"invalid", "samf_root_parent_ffff.aamf", AAMFB_32_BONES, 0, parent_ffff, 0, 0},
    {"invalid", "legacy_parent_after_child.aamf", AAMFB_32_BONES, 1, parent_forward, 0, 0},
    {"invalid", "samf_bind_pose_scaled_1_2.aamf", AAMFB_32_BONES, 0, bind_scaled, 0, 0},
    {"invalid", "samf_bind_pose_mirrored.aamf", AAMFB_32_BONES, 0, bind_mirrored, 0, 0},
    {"invalid", "legacy_keyframe_scaled_0_5.aamf", AAMFB_32_BONES, 1, keyframe_scaled, 0, 0},
    {"invalid", "samf_no_animations.aamf", AAMFB_ONE_BONE, 0, no_animations, 0, 0},
    {"invalid", "legacy_no_animations.aamf", AAMFB_ONE_BONE, 1, no_animations, 0, 0},
    {"invalid", "samf_keyframe_count_vs_block_size.aamf", AAMFB_32_BONES, 0, anim_block_size, 0, 0},
    {"invalid", "samf_zero_keyframes.aamf", AAMFB_ONE_BONE, 0, zero_keyframes, 0, 0},
    {"invalid", "samf_animation_name_tab.aamf", AAMFB_ONE_BONE, 0, name_control_byte, 0, 0},
    {"invalid", "legacy_texture_name_not_ascii.aamf", AAMFB_32_BONES, 1, texture_name_bytes, 0, 0},
    {"invalid", "legacy_amf_bytes_after_last_chunk.aamf", AAMFB_32_BONES, 1, amf_bytes_after_chunks, 0, 0},
    {"invalid", "legacy_texture_relocated_flag.aamf", AAMFB_ONE_BONE, 1, texture_flag, 0, 0},
    {"invalid", "legacy_chunk_grid_65536.aamf", AAMFB_32_BONES, 1, grid_65536, 0, 0},
};

static int write_file(const char *root, const char *dir, const char *name, const mcb_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/aamf/%s/%s", root, dir, name);
    int rc = b->oom ? -1 : mcb_write_file(b, path);
    if (rc != 0) fprintf(stderr, "mc_corpusgen: cannot write %s\n", path);
    return rc;
}

static int write_aamf_case(const char *root, const aamf_case *c)
{
    aamfb_model *m = aamfb_sample(c->base, c->legacy);
    if (!m) return -1;
    if (c->mutate) c->mutate(m);
    mcb_buf b = {0};
    aamfb_write(m, &b);
    aamfb_free(m);
    if (c->truncate_by > 0 && (size_t)c->truncate_by <= b.size) b.size -= (size_t)c->truncate_by;
    if (c->append > 0) mcb_zeros(&b, (size_t)c->append);
    int rc = write_file(root, c->dir, c->name, &b);
    mcb_free(&b);
    return rc;
}

/* A legacy file whose two bone blocks hold 16 bytes of an older AMF layout
 * (no room for the current 24-byte AMF header): one AAMF_AMF_LAYOUT per
 * block, nothing else. */
static int write_older_amf(const char *root)
{
    mcb_buf b = {0};
    mcb_u16(&b, 2);
    mcb_u16(&b, 1);
    for (uint16_t i = 0; i < 2; i++) {
        mcb_u16(&b, i);
        mcb_u16(&b, 0);
    }
    for (int i = 0; i < 2; i++) {
        mcb_u32(&b, 20);
        mcb_u32(&b, 0x00010003);
        mcb_zeros(&b, 12);
    }
    aamfb_matrix id = aamfb_rotation(0, 0, 0, 0, 0, 0);
    mcb_u32(&b, 20 + 2 * 32);
    mcb_bytes(&b, "idle\0\0\0\0", 8);
    mcb_u32(&b, 1);
    mcb_u32(&b, 0);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 9; i++) mcb_u16(&b, (uint16_t)id.m[i]);
        mcb_zeros(&b, 14);
    }
    int rc = write_file(root, "invalid", "legacy_older_amf_layout.aamf", &b);
    mcb_free(&b);
    return rc;
}

/* The cases are not in the manifest yet (tests/corpus/uncovered.txt). */
int mcg_write_aamf(const char *root, mcg_manifest *mf)
{
    (void)mf;
    if (mcg_mkdir(root, "aamf") || mcg_mkdir(root, "aamf/valid") || mcg_mkdir(root, "aamf/invalid"))
        return -1;
    for (size_t i = 0; i < sizeof aamf_cases / sizeof aamf_cases[0]; i++)
        if (write_aamf_case(root, &aamf_cases[i]) != 0) return -1;
    return write_older_amf(root);
}
