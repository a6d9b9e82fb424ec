/*
 * AAMF / SAMF checks beyond the case table (conformance/generator/
 * aamf_cases.c, checked by test_cases.c): each test breaks one rule of a
 * valid sample and asserts the exact code, count and offset, and paths,
 * messages and info where they matter; the valid samples stay silent; the
 * structural detector of legacy AAMF claims no other format's file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "aamf_builder.h"
#include "mc_format.h"
#include "support.h"

static aamfb_model *m;
static mc_result *r;

static void setup(void)
{
    m = NULL;
    r = NULL;
}

static void teardown(void)
{
    mc_result_free(r);
    aamfb_free(m);
}

TestSuite(aamf, .init = setup, .fini = teardown);

static aamfb_model *sample(enum aamfb_sample_kind kind, int legacy)
{
    aamfb_free(m);
    m = aamfb_sample(kind, legacy);
    cr_assert_not_null(m);
    return m;
}

static mcb_buf written(void)
{
    mcb_buf b = {0};
    aamfb_write(m, &b);
    cr_assert(!b.oom);
    return b;
}

/* Writes m, cuts bytes, validates (forced to aamf when force). */
static mc_result *run(size_t cut, int force)
{
    mcb_buf b = written();
    cr_assert_leq(cut, b.size);
    mc_options o;
    mc_options_init(&o);
    if (force) o.format = MC_FORMAT_AAMF;
    mc_result *res = validate_buf(b.data, b.size - cut, &o);
    mcb_free(&b);
    return res;
}

static mc_result *run_buf(const mcb_buf *b, int force)
{
    mc_options o;
    mc_options_init(&o);
    if (force) o.format = MC_FORMAT_AAMF;
    return validate_buf(b->data, b->size, &o);
}

static void put_u16(mcb_buf *b, uint64_t off, uint16_t v)
{
    cr_assert_lt(off + 1, b->size);
    b->data[off] = (uint8_t)v;
    b->data[off + 1] = (uint8_t)(v >> 8);
}

static bool claims(const void *p, size_t n)
{
    return mc_aamf_module.detect((const uint8_t *)p, n);
}

static uint64_t off(enum aamfb_section s, uint64_t i)
{
    return aamfb_offset(m, s, i);
}

/* ---- valid samples ---- */

Test(aamf, samf_one_bone_is_clean)
{
    sample(AAMFB_ONE_BONE, 0);
    r = run(0, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_AAMF);
    cr_expect_str_eq(r->layout, "samf2");
    cr_expect_eq(r->info.bones, 1);
    cr_expect_eq(r->info.vertices, 4);
    cr_expect_eq(r->info.triangles, 2);
    cr_expect_eq(r->info.animations, 1);
    cr_expect_eq(r->info.keyframes, 2);
    cr_expect_eq(r->info.max_influences, 1);
}

Test(aamf, samf_32_bones_3_animations_is_clean)
{
    sample(AAMFB_32_BONES, 0);
    r = run(0, 0);
    expect_codes(r, -1);
    cr_expect_str_eq(r->layout, "samf2");
    cr_expect_eq(r->info.bones, 32);
    cr_expect_eq(r->info.vertices, 64);
    cr_expect_eq(r->info.triangles, 98);
    cr_expect_eq(r->info.animations, 3);
    cr_expect_eq(r->info.keyframes, 8);
    cr_expect_eq(r->info.max_influences, 3);
}

Test(aamf, samf_odd_faces_three_animations_warn_each)
{
    sample(AAMFB_32_BONES, 0);
    m->face_count = 97;
    r = run(0, 0);
    expect_only(r, MC_AAMF_BLOCK_UNALIGNED, 3, off(AAMFB_ANIMS, 0));
}

Test(aamf, legacy_one_bone_is_clean)
{
    sample(AAMFB_ONE_BONE, 1);
    r = run(0, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_AAMF);
    cr_expect_str_eq(r->layout, "legacy");
    cr_expect_eq(r->info.bones, 1);
    cr_expect_eq(r->info.meshes, 1);
    cr_expect_eq(r->info.textures, 1);
    cr_expect_eq(r->info.triangles, 2);
    cr_expect_eq(r->info.keyframes, 2);
}

Test(aamf, legacy_32_bones_3_animations_is_clean)
{
    sample(AAMFB_32_BONES, 1);
    r = run(0, 0);
    expect_codes(r, -1);
    cr_expect_str_eq(r->layout, "legacy");
    cr_expect_eq(r->info.bones, 32);
    cr_expect_eq(r->info.meshes, 32);
    cr_expect_eq(r->info.animations, 3);
}

Test(aamf, legacy_odd_primitive_count_is_clean)
{
    sample(AAMFB_ODD_FACES, 1);
    r = run(0, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.triangles, 3);
}

Test(aamf, padded_animation_name_is_valid)
{
    sample(AAMFB_ONE_BONE, 0);
    memcpy(m->anims[0].name, "walk----", 8); /* docs/formats/aamf.md: a real file pads with '-' */
    r = run(0, 0);
    expect_codes(r, -1);
}

Test(aamf, rounded_30_degree_rotation_is_orthonormal)
{
    sample(AAMFB_ONE_BONE, 0);
    m->bones[0].bind = aamfb_rotation(0, 0, 0.5235987755982988, 0, 0, 0);
    cr_expect_eq(m->bones[0].bind.m[0], 3547); /* cos 30 = 0.866 -> 3547.2 */
    r = run(0, 0);
    expect_codes(r, -1);
}

/* ---- detection ---- */

Test(aamf, both_variants_detected_without_forcing)
{
    sample(AAMFB_32_BONES, 0);
    mcb_buf b = written();
    cr_expect(claims(b.data, b.size));
    mcb_free(&b);
    sample(AAMFB_32_BONES, 1);
    b = written();
    cr_expect(claims(b.data, b.size));
    mcb_free(&b);
}

Test(aamf, aem_files_are_not_claimed)
{
    for (int k = 0; k < 2; k++) {
        aemb_model *a = aemb_sample(k ? AEMB_STATIC : AEMB_SKINNED_ANIMATED);
        cr_assert_not_null(a);
        mcb_buf b = {0};
        aemb_write(a, &b);
        aemb_free(a);
        cr_expect(!claims(b.data, b.size));
        for (size_t cut = 1; cut < 64; cut++) cr_expect(!claims(b.data, b.size - cut));
        r = validate_buf(b.data, b.size, NULL);
        cr_expect_eq(r->format, MC_FORMAT_AEM);
        mc_result_free(r);
        r = NULL;
        mcb_free(&b);
    }
}

Test(aamf, semodel_header_is_not_claimed)
{
    unsigned char b[64] = {'S', 'E', 'M', 'o', 'd', 'e', 'l', 0x01, 0x00, 0x14, 0x00, 0x07};
    for (size_t n = 1; n <= sizeof b; n++) cr_expect(!claims(b, n));
}

Test(aamf, e3d_version_block_is_not_claimed)
{
    /* 01 00 reads as bone_count 1 and 00 00 as row 0's bone_idx 0: only
     * the block chain tells it apart */
    unsigned char b[96] = {0x01, 0x00, 0x0C, 0x00, 0x00, 0x00, 'E', '3', 'D', 'F', 0x00, 0x01};
    for (size_t n = 1; n <= sizeof b; n++) cr_expect(!claims(b, n));
    memset(b + 12, 0xAB, sizeof b - 12);
    for (size_t n = 1; n <= sizeof b; n++) cr_expect(!claims(b, n));
}

Test(aamf, nlm_header_is_not_claimed)
{
    unsigned char b[80] = {0xC5, 0x9D, 0x1C, 0x81, 'L', 'D', 'O', 'M', 2, 0, 0, 0, 1, 0, 0, 0};
    for (size_t n = 1; n <= sizeof b; n++) cr_expect(!claims(b, n));
    memset(b, 0, 4); /* a hash of 0 reads as bone_count 0 */
    for (size_t n = 1; n <= sizeof b; n++) cr_expect(!claims(b, n));
}

Test(aamf, random_and_degenerate_data_are_not_claimed)
{
    uint8_t b[512];
    uint32_t s = 12345;
    for (int round = 0; round < 2000; round++) {
        size_t n = 1 + (size_t)round % sizeof b;
        for (size_t i = 0; i < n; i++) {
            s = s * 1103515245u + 12345u;
            b[i] = (uint8_t)(s >> 16);
        }
        cr_expect(!claims(b, n), "round %d claimed", round);
    }
    memset(b, 0, sizeof b);
    for (size_t n = 1; n <= sizeof b; n++) cr_expect(!claims(b, n));
    memset(b, 0xff, sizeof b);
    for (size_t n = 1; n <= sizeof b; n++) cr_expect(!claims(b, n));
    static const char text[] = "just text\n";
    cr_expect(!claims(text, sizeof text - 1));
}

Test(aamf, legacy_with_broken_chain_is_left_unrecognised)
{
    sample(AAMFB_ONE_BONE, 1);
    mcb_buf b = written();
    mcb_u8(&b, 0);
    cr_expect(!claims(b.data, b.size));
    r = run_buf(&b, 0);
    mcb_free(&b);
    expect_only(r, MC_FILE_UNRECOGNIZED, 1, 0);
}

Test(aamf, legacy_bone_table_must_match_rows_to_be_claimed)
{
    sample(AAMFB_32_BONES, 1);
    m->bones[7].index = 8;
    mcb_buf b = written();
    cr_expect(!claims(b.data, b.size));
    r = run_buf(&b, 1);
    mcb_free(&b);
    expect_only(r, MC_AAMF_BONE_INDEX_MISMATCH, 1, off(AAMFB_BONE_TABLE, 7));
    cr_expect_str_eq(r->layout, "legacy");
}

/* ---- header and structure ---- */

Test(aamf, samf_version_3_stops_checks)
{
    sample(AAMFB_ONE_BONE, 0);
    m->version = 3;
    m->normals[0].z = 100; /* not reported: layout unknown */
    r = run(0, 0);
    expect_only(r, MC_SAMF_UNSUPPORTED_VERSION, 1, 4);
    cr_expect_str_eq(r->layout, "");
}

Test(aamf, samf_header_cut_short)
{
    static const unsigned char b[10] = {'S', 'A', 'M', 'F', 2, 0, 1, 0, 1, 0};
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_AAMF_TRUNCATED, 1, 10);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/header");
}

Test(aamf, samf_cut_inside_faces_is_one_error)
{
    sample(AAMFB_32_BONES, 0);
    mcb_buf b = written();
    size_t size = (size_t)off(AAMFB_FACES, 50);
    mc_options o;
    mc_options_init(&o);
    r = validate_buf(b.data, size, &o);
    mcb_free(&b);
    expect_only(r, MC_AAMF_TRUNCATED, 1, size);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/faces");
    cr_expect_str_eq(r->layout, "samf2");
}

Test(aamf, samf_four_billion_vertices_in_100_bytes)
{
    unsigned char b[100] = {'S', 'A', 'M', 'F', 2, 0, 1, 0, 1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    r = validate_buf(b, sizeof b, NULL);
    expect_only(r, MC_AAMF_TRUNCATED, 1, 100);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/positions");
}

Test(aamf, legacy_forced_header_and_table_truncated)
{
    static const unsigned char three[3] = {1, 0, 1};
    mc_options o;
    mc_options_init(&o);
    o.format = MC_FORMAT_AAMF;
    r = validate_buf(three, sizeof three, &o);
    expect_only(r, MC_AAMF_TRUNCATED, 1, 3);
    mc_result_free(r);
    static const unsigned char many[12] = {0xff, 0xff, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    r = validate_buf(many, sizeof many, &o);
    expect_only(r, MC_AAMF_TRUNCATED, 1, 12);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/bones");
}

Test(aamf, trailing_byte_after_last_animation)
{
    sample(AAMFB_ONE_BONE, 0);
    mcb_buf b = written();
    size_t end = b.size;
    mcb_u8(&b, 0);
    r = run_buf(&b, 0);
    mcb_free(&b);
    expect_only(r, MC_AAMF_TRAILING_BYTES, 1, end);
}

Test(aamf, last_animation_cut_by_one_byte)
{
    sample(AAMFB_32_BONES, 0);
    r = run(1, 0);
    expect_only(r, MC_AAMF_BLOCK_TRUNCATED, 1, off(AAMFB_ANIMS, 2));
}

Test(aamf, block_size_field_cut)
{
    sample(AAMFB_ONE_BONE, 0);
    m->anims[0].key_count = 0;
    m->anims[0].keyframe_count = 1;
    mcb_buf b = written();
    b.size = (size_t)off(AAMFB_ANIMS, 0) + 2;
    r = run_buf(&b, 0);
    mcb_free(&b);
    expect_only(r, MC_AAMF_BLOCK_TRUNCATED, 1, off(AAMFB_ANIMS, 0));
}

Test(aamf, huge_anim_count_without_blocks)
{
    sample(AAMFB_ONE_BONE, 0);
    m->anims[0].key_count = 0;
    mcb_buf b = written();
    b.size = (size_t)off(AAMFB_ANIMS, 0);
    put_u16(&b, 8, 0xffff);
    r = run_buf(&b, 0);
    mcb_free(&b);
    expect_only(r, MC_AAMF_BLOCK_TRUNCATED, 1, off(AAMFB_ANIMS, 0));
}

Test(aamf, block_size_too_small_stops_the_chain)
{
    sample(AAMFB_32_BONES, 0);
    m->anims[1].size_delta = -(int32_t)aamfb_anim_block_size(m, 1) + 3;
    r = run(0, 0);
    expect_only(r, MC_AAMF_BLOCK_SIZE_TOO_SMALL, 1, off(AAMFB_ANIMS, 1));
}

Test(aamf, legacy_bone_block_past_end_forced)
{
    sample(AAMFB_32_BONES, 1);
    m->bones[3].size_delta = 0x7fffffff;
    r = run(0, 1);
    expect_only(r, MC_AAMF_BLOCK_TRUNCATED, 1, off(AAMFB_BONE_BLOCKS, 3));
}

/* ---- bone table ---- */

/* ---- matrices ---- */

static aamfb_matrix identity(void)
{
    return aamfb_rotation(0, 0, 0, 0, 0, 0);
}

Test(aamf, diagonal_off_by_one_unit_is_rounding)
{
    sample(AAMFB_ONE_BONE, 0);
    m->bones[0].bind = identity();
    m->bones[0].bind.m[0] = 4097; /* 8193 / 4096^2 <= tolerance */
    r = run(0, 0);
    expect_codes(r, -1);
}

Test(aamf, diagonal_off_by_two_units_is_not_orthonormal)
{
    sample(AAMFB_32_BONES, 0);
    m->bones[2].bind = identity();
    m->bones[2].bind.m[4] = 4098; /* 16388 / 4096^2 > 14192 / 4096^2 */
    r = run(0, 0);
    expect_only(r, MC_AAMF_MATRIX_NOT_ORTHONORMAL, 1, off(AAMFB_BIND_POSES, 2));
}

Test(aamf, scaled_keyframe_is_not_orthonormal)
{
    sample(AAMFB_32_BONES, 1);
    aamfb_matrix *k = &m->anims[1].keys[5 * 4 + 2]; /* bone 5, keyframe 2 of 4 */
    for (int i = 0; i < 9; i++) k->m[i] = (int16_t)(k->m[i] * 11 / 10);
    r = run(0, 0);
    expect_only(r, MC_AAMF_MATRIX_NOT_ORTHONORMAL, 1, off(AAMFB_ANIMS, 1) + 20 + (5 * 4 + 2) * 32);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/animations/1/keyframes/2/5/m");
}

Test(aamf, mirrored_bind_pose_is_a_reflection)
{
    sample(AAMFB_32_BONES, 0);
    m->bones[6].bind = identity();
    m->bones[6].bind.m[8] = -4096;
    r = run(0, 0);
    expect_only(r, MC_AAMF_MATRIX_REFLECTION, 1, off(AAMFB_BIND_POSES, 6));
}

Test(aamf, matrix_pad_nonzero)
{
    sample(AAMFB_32_BONES, 0);
    m->anims[1].keys[3].pad = 1;
    m->bones[0].bind.pad = -1;
    r = run(0, 0);
    expect_only(r, MC_AAMF_MATRIX_PAD, 2, off(AAMFB_BIND_POSES, 0) + 18);
}

Test(aamf, translation_at_int32_limit)
{
    sample(AAMFB_ONE_BONE, 0);
    m->bones[0].bind.t[1] = INT32_MAX;
    m->anims[0].keys[1].t[2] = INT32_MIN;
    r = run(0, 0);
    expect_only(r, MC_AAMF_MATRIX_TRANSLATION_SATURATED, 2, off(AAMFB_BIND_POSES, 0) + 24);
}

/* ---- animation blocks ---- */

Test(aamf, keyframe_count_disagrees_with_block_size)
{
    sample(AAMFB_32_BONES, 0);
    m->anims[1].keyframe_count = 5; /* 4 keyframes written */
    m->anims[1].keys[0].pad = 9;    /* not checked: the block cannot be trusted */
    r = run(0, 0);
    expect_only(r, MC_AAMF_ANIM_BLOCK_SIZE, 1, off(AAMFB_ANIMS, 1));
}

Test(aamf, extra_bytes_inside_animation_block)
{
    sample(AAMFB_ONE_BONE, 1);
    m->anims[0].extra = 4;
    r = run(0, 0);
    expect_only(r, MC_AAMF_ANIM_BLOCK_SIZE, 1, off(AAMFB_ANIMS, 0));
}

Test(aamf, block_too_small_for_animation_head)
{
    sample(AAMFB_32_BONES, 0);
    /* block_size 12: the chain goes on at its keyframe_count field */
    m->anims[1].key_count = 0;
    m->anims[1].keyframe_count = 0x7fffffff; /* read as the next block_size */
    m->anims[1].size_delta = -8;
    r = run(0, 0);
    expect_codes(r, MC_AAMF_ANIM_BLOCK_SIZE, MC_AAMF_BLOCK_TRUNCATED, -1);
    expect_issue(r, MC_AAMF_ANIM_BLOCK_SIZE, 1, off(AAMFB_ANIMS, 1));
    expect_issue(r, MC_AAMF_BLOCK_TRUNCATED, 1, off(AAMFB_ANIMS, 1) + 12);
}

Test(aamf, keyframe_pointer_set)
{
    sample(AAMFB_32_BONES, 1);
    m->anims[2].keyframe_pointer = 0x80012340;
    r = run(0, 0);
    expect_only(r, MC_AAMF_ANIM_KEYFRAME_POINTER, 1, off(AAMFB_ANIMS, 2) + 16);
}

Test(aamf, control_byte_in_animation_name)
{
    sample(AAMFB_ONE_BONE, 0);
    memcpy(m->anims[0].name, "wa\x01k\0\0\0\0", 8);
    r = run(0, 0);
    expect_only(r, MC_AAMF_NAME_NOT_PRINTABLE, 1, off(AAMFB_ANIMS, 0) + 4 + 2);
}

Test(aamf, bytes_after_nul_are_ignored)
{
    sample(AAMFB_ONE_BONE, 0);
    memcpy(m->anims[0].name, "idle\0\x7f\x80\x01", 8);
    r = run(0, 0);
    expect_codes(r, -1);
}

Test(aamf, duplicate_animation_names)
{
    sample(AAMFB_32_BONES, 0);
    memcpy(m->anims[2].name, "idle\0\0\0\0", 8);
    r = run(0, 0);
    expect_only(r, MC_AAMF_ANIM_NAME_DUPLICATE, 1, off(AAMFB_ANIMS, 2) + 4);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/animations/2/name");
}

Test(aamf, padded_name_differs_from_short_name)
{
    sample(AAMFB_32_BONES, 0);
    memcpy(m->anims[2].name, "walk\0\0\0\0", 8); /* anims[1] is "walk----" */
    r = run(0, 0);
    expect_codes(r, -1);
}

/* ---- legacy embedded AMF ---- */

Test(aamf, texture_name_not_printable)
{
    sample(AAMFB_32_BONES, 1);
    m->bones[2].amf.textures[1][0] = (char)0x80; /* bone 2: 3 textures */
    r = run(0, 0);
    expect_only(r, MC_AAMF_NAME_NOT_PRINTABLE, 1, off(AAMFB_BONE_BLOCKS, 2) + 4 + 24 + 8);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/bone_blocks/2/amf/textures/1");
}

Test(aamf, primitive_records_overrun_block)
{
    sample(AAMFB_ONE_BONE, 1);
    mcb_buf b = written();
    uint64_t chunk = off(AAMFB_BONE_BLOCKS, 0) + aamfb_amf_chunk_offset(&m->bones[0].amf, 0);
    put_u16(&b, chunk + 2 * 4, 3); /* F3: 3 records, 2 written */
    r = run_buf(&b, 0);
    mcb_free(&b);
    expect_only(r, MC_AAMF_AMF_LAYOUT, 1, chunk);
}

Test(aamf, grid_larger_than_chunks_written)
{
    sample(AAMFB_ONE_BONE, 1);
    m->bones[0].amf.x = 40;
    r = run(0, 0);
    expect_only(r, MC_AAMF_AMF_LAYOUT, 1, off(AAMFB_BONE_BLOCKS, 0) + 4 + 24 + 8);
}

Test(aamf, texture_count_past_block)
{
    sample(AAMFB_ONE_BONE, 1);
    m->bones[0].amf.used_textures = 50;
    r = run(0, 0);
    expect_only(r, MC_AAMF_AMF_LAYOUT, 1, off(AAMFB_BONE_BLOCKS, 0) + 4);
}

/* docs/formats/aamf.md, embedded AMF: texture indices are used unchecked. Bone
 * 4 has 2 names and 2 chunks; chunk 1 holds 2 F4, 1 FT4, 2 GT4, 1 G3, 2 FT3. */
Test(aamf, texture_index_past_table)
{
    sample(AAMFB_32_BONES, 1);
    m->bones[4].amf.chunks[1].texture = 2;
    r = run(0, 0);
    uint64_t chunk = off(AAMFB_BONE_BLOCKS, 4) + aamfb_amf_chunk_offset(&m->bones[4].amf, 1);
    expect_only(r, MC_AAMF_AMF_TEXTURE_INDEX_RANGE, 5, chunk + 48 + 2 * 64 + 40);
    cr_expect_str_eq(r->issues[0].instances[0].path, "/bone_blocks/4/amf/chunks/1/FT4/0/texture");
    cr_expect(strstr(r->issues[0].instances[0].message, "texture index 2 (expected < used_textures 2)"));
}

Test(aamf, last_texture_index_is_clean)
{
    sample(AAMFB_32_BONES, 1);
    m->bones[4].amf.chunks[1].texture = 1;
    r = run(0, 0);
    expect_codes(r, -1);
}

/* ---- SAMF vertices ---- */

Test(aamf, svector_pads)
{
    sample(AAMFB_32_BONES, 0);
    m->positions[1].pad = 7;
    m->normals[2].pad = -1;
    r = run(0, 0);
    expect_only(r, MC_SAMF_SVECTOR_PAD, 2, off(AAMFB_POSITIONS, 1) + 6);
}

Test(aamf, saturated_position)
{
    sample(AAMFB_ONE_BONE, 0);
    m->positions[2].y = 32767;
    m->positions[3].x = -32768;
    r = run(0, 0);
    expect_only(r, MC_SAMF_POSITION_SATURATED, 2, off(AAMFB_POSITIONS, 2) + 2);
}

Test(aamf, normal_one_unit_short_is_rounding)
{
    sample(AAMFB_ONE_BONE, 0);
    m->normals[1].z = 4095;
    r = run(0, 0);
    expect_codes(r, -1);
}

Test(aamf, normal_two_units_off_is_not_unit)
{
    sample(AAMFB_ONE_BONE, 0);
    m->normals[1].z = 4094;
    m->normals[3].z = 4098;
    r = run(0, 0);
    expect_only(r, MC_SAMF_NORMAL_NOT_UNIT, 2, off(AAMFB_NORMALS, 1));
}

Test(aamf, zero_normal)
{
    sample(AAMFB_32_BONES, 0);
    m->normals[10] = (aamfb_svector){0, 0, 0, 0};
    r = run(0, 0);
    expect_only(r, MC_SAMF_NORMAL_NOT_UNIT, 1, off(AAMFB_NORMALS, 10));
}

/* ---- SAMF skin weights ---- */

Test(aamf, weight_sum_254_is_the_writers_truncation)
{
    sample(AAMFB_32_BONES, 0);
    m->skin[1].weight[1] = 126; /* 128 + 126 */
    m->skin[2].weight[2] = 68;  /* 100 + 85 + 68 = 253: 3 weights */
    r = run(0, 0);
    expect_only(r, MC_SAMF_WEIGHT_SUM_TRUNCATED, 2, off(AAMFB_SKIN, 1) + 4);
    cr_expect(strstr(r->issues[0].instances[0].message, "sum to 254") != NULL);
}

Test(aamf, weight_sum_wrong)
{
    sample(AAMFB_32_BONES, 0);
    m->skin[0].weight[0] = 254; /* one weight: truncation cannot lose 1 */
    m->skin[1].weight[1] = 100; /* 228 */
    m->skin[4].weight[0] = 200; /* 200 + 127 = 327 */
    memset(m->skin[7].weight, 0, 4);
    memset(m->skin[7].bone, 0, 4);
    r = run(0, 0);
    expect_only(r, MC_SAMF_WEIGHT_SUM, 4, off(AAMFB_SKIN, 0) + 4);
}

Test(aamf, skin_bone_index_past_bone_count)
{
    sample(AAMFB_32_BONES, 0);
    m->skin[4].bone[1] = 40; /* the writer's glTF joint index */
    r = run(0, 0);
    expect_only(r, MC_SAMF_SKIN_BONE_RANGE, 1, off(AAMFB_SKIN, 4) + 1);
}

Test(aamf, stale_index_in_unused_slot)
{
    sample(AAMFB_32_BONES, 0);
    m->skin[0].bone[3] = 5;
    m->skin[3].bone[1] = 200; /* weight 0: stale, not out of range */
    r = run(0, 0);
    expect_only(r, MC_SAMF_SKIN_UNUSED_SLOT_INDEX, 2, off(AAMFB_SKIN, 0) + 3);
}

Test(aamf, same_bone_in_two_used_slots)
{
    sample(AAMFB_32_BONES, 0);
    m->skin[1].bone[1] = m->skin[1].bone[0];
    r = run(0, 0);
    expect_only(r, MC_SAMF_SKIN_DUPLICATE_BONE, 1, off(AAMFB_SKIN, 1) + 1);
}

Test(aamf, unused_zero_slots_are_not_duplicates_of_bone_0)
{
    sample(AAMFB_32_BONES, 0);
    /* vertex 0 is [255 on bone 0] with three unused slots of index 0 */
    cr_assert_eq(m->skin[0].bone[0], 0);
    r = run(0, 0);
    expect_codes(r, -1);
}

/* ---- SAMF faces and counts ---- */

Test(aamf, face_index_past_vertex_count)
{
    sample(AAMFB_ONE_BONE, 0);
    m->faces[1][2] = 4;
    r = run(0, 0);
    expect_only(r, MC_SAMF_FACE_INDEX_RANGE, 1, off(AAMFB_FACES, 1) + 4);
}

Test(aamf, degenerate_face)
{
    sample(AAMFB_ONE_BONE, 0);
    m->faces[0][1] = 0;
    r = run(0, 0);
    expect_only(r, MC_SAMF_FACE_DEGENERATE, 1, off(AAMFB_FACES, 0));
}

Test(aamf, exactly_65536_vertices_are_addressable)
{
    sample(AAMFB_ONE_BONE, 0);
    cr_assert_eq(aamfb_resize_vertices(m, 65536), 0);
    r = run(0, 0);
    expect_codes(r, -1);
}

Test(aamf, legacy_with_257_bones_is_clean)
{
    sample(AAMFB_ONE_BONE, 1);
    cr_assert_eq(aamfb_resize_bones(m, 257), 0);
    r = run(0, 0);
    expect_codes(r, -1);
    cr_expect_eq(r->info.bones, 257);
}

/* ---- coverage ---- */

Test(aamf, chunk_header_passes_the_block_end)
{
    sample(AAMFB_ONE_BONE, 1);
    aamfb_amf *a = &m->bones[0].amf;
    a->chunk_count = 0; /* the 1 x 1 grid's table entry and 20 of 48 header bytes */
    a->extra = 4 + 20;
    r = run(0, 0);
    expect_only(r, MC_AAMF_AMF_LAYOUT, 1, off(AAMFB_BONE_BLOCKS, 0) + aamfb_amf_chunk_offset(a, 0) + 4);
    cr_expect(strstr(r->issues[0].instances[0].message,
                     "chunk 0 of 1: its 48-byte header passes the block end") != NULL);
}
