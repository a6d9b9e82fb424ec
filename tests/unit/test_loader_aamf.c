/* The AAMF reference loader (conformance/loaders/aamf.c): what it builds from
 * valid files, and the status it rejects hostile ones with. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "aamf_builder.h"
#include "mcl.h"

static aamfb_model *m;
static mcb_buf buf;
static mcl_model *model;
static mcl_error err;

static void setup(void)
{
    m = NULL;
    memset(&buf, 0, sizeof buf);
    model = NULL;
    memset(&err, 0, sizeof err);
}

static void teardown(void)
{
    mcl_free(model);
    mcb_free(&buf);
    aamfb_free(m);
}

TestSuite(loader_aamf, .init = setup, .fini = teardown);

static void sample(enum aamfb_sample_kind kind, int legacy)
{
    aamfb_free(m);
    m = aamfb_sample(kind, legacy);
    cr_assert_not_null(m);
}

static void write_model(void)
{
    mcb_free(&buf);
    memset(&buf, 0, sizeof buf);
    aamfb_write(m, &buf);
    cr_assert(!buf.oom);
}

static mcl_status load_bytes(const uint8_t *p, size_t n)
{
    mcl_free(model);
    model = NULL;
    return mcl_load(MCL_FORMAT_AAMF, p, n, NULL, &model, &err);
}

/* Writes m and loads it whole. */
static mcl_status load(void)
{
    write_model();
    return load_bytes(buf.data, buf.size);
}

static void expect(mcl_status want, uint64_t offset)
{
    mcl_status s = load_bytes(buf.data, buf.size);
    cr_assert_eq(s, want, "status %s (expected %s): %s", mcl_status_name(s), mcl_status_name(want), err.reason);
    cr_assert_eq(err.offset, offset, "offset %llu (expected %llu): %s", (unsigned long long)err.offset,
                 (unsigned long long)offset, err.reason);
    cr_assert_null(model);
    cr_assert_neq(err.reason[0], '\0');
}

static void put_u16(uint64_t off, uint16_t v)
{
    cr_assert_lt(off + 1, buf.size);
    buf.data[off] = (uint8_t)v;
    buf.data[off + 1] = (uint8_t)(v >> 8);
}

static void put_u32(uint64_t off, uint32_t v)
{
    cr_assert_lt(off + 3, buf.size);
    mcb_put_u32(&buf, (size_t)off, v);
}

static uint64_t off(enum aamfb_section s, uint64_t i)
{
    return aamfb_offset(m, s, i);
}

static void assert_near(const float *got, const float *want, int n, float tol)
{
    for (int i = 0; i < n; i++) cr_assert(fabsf(got[i] - want[i]) <= tol, "[%d] %g vs %g", i, got[i], want[i]);
}

/* The builder's matrix as the common model's column-major float 4x4. */
static void to_float(const aamfb_matrix *x, float out[16])
{
    memset(out, 0, 16 * sizeof *out);
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) out[c * 4 + r] = (float)x->m[r * 3 + c] / 4096.0f;
        out[12 + r] = (float)x->t[r] / 4096.0f;
    }
    out[15] = 1;
}

static void mul(const float a[16], const float b[16], float out[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float v = 0;
            for (int k = 0; k < 4; k++) v += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = v;
        }
}

/* ---- what valid files become ---- */

Test(loader_aamf, empty_file_rejected)
{
    mcl_model *mm = NULL;
    mcl_error e;
    cr_assert_neq(mcl_load(MCL_FORMAT_AAMF, "", 0, NULL, &mm, &e), MCL_OK);
    cr_assert_null(mm);
    cr_assert_neq(e.reason[0], '\0');
}

Test(loader_aamf, samf_one_bone_mesh)
{
    sample(AAMFB_ONE_BONE, 0);
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    cr_assert_str_eq(model->layout, "samf");
    cr_assert_eq(model->mesh_count, 1);
    cr_assert_eq(model->bone_count, 1);
    cr_assert_eq(model->animation_count, 1);
    cr_assert_eq(model->material_count, 0);
    const mcl_mesh *me = &model->meshes[0];
    cr_assert_eq(me->vertex_count, 4);
    cr_assert_eq(me->index_count, 6);
    cr_assert_eq(me->rigid_bone, -1);
    cr_assert_eq(me->influences, 4);
    const float p0[3] = {-0.5f, -0.5f, 0}, n0[3] = {0, 0, 1};
    assert_near(&me->positions[0], p0, 3, 0);
    assert_near(&me->normals[0], n0, 3, 0);
    cr_assert_eq(me->indices[3], 0);
    cr_assert_eq(me->indices[4], 2);
    cr_assert_eq(me->indices[5], 3);
    cr_assert_eq(me->joints[0], 0);
    cr_assert_float_eq(me->weights[0], 1.0f, 0);
    cr_assert_float_eq(me->weights[1], 0.0f, 0);
    cr_assert_eq(model->bones[0].parent, -1);
    cr_assert_str_eq(model->animations[0].name, "idle");
    cr_assert_float_eq(model->animations[0].duration, 2.0, 0);
}

Test(loader_aamf, samf_weights_and_stale_unused_slots)
{
    sample(AAMFB_32_BONES, 0);
    m->skin[0].bone[1] = 200; /* weight 0: a stale index, not used */
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    const mcl_mesh *me = &model->meshes[0];
    cr_assert_eq(me->joints[1], 0);
    cr_assert_float_eq(me->weights[1], 0.0f, 0);
    /* vertex 1: 128 on bone 1 and 127 on bone 2 */
    cr_assert_eq(me->joints[4], 1);
    cr_assert_eq(me->joints[5], 2);
    cr_assert_float_eq(me->weights[4], 128.0f / 255.0f, 1e-7f);
    cr_assert_float_eq(me->weights[5], 127.0f / 255.0f, 1e-7f);
}

Test(loader_aamf, samf_bind_pose_is_local_rest_and_skin_is_identity_at_rest)
{
    sample(AAMFB_32_BONES, 0);
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    cr_assert_eq(model->bone_count, 32);
    for (uint32_t b = 1; b < 32; b++) cr_assert_eq(model->bones[b].parent, (int32_t)((b - 1) / 2));
    float want[16];
    to_float(&m->bones[5].bind, want);
    assert_near(model->bones[5].local, want, 16, 0);
    float g[32 * 16], s[32 * 16];
    cr_assert_eq(mcl_evaluate_pose(model, UINT32_MAX, 0, g, s), MCL_OK);
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int b = 0; b < 32; b++) assert_near(&s[b * 16], id, 16, 1e-3f);
    /* bone 2's global is bone 0's bind times its own */
    float a[16], c[16], chained[16];
    to_float(&m->bones[0].bind, a);
    to_float(&m->bones[2].bind, c);
    mul(a, c, chained);
    assert_near(&g[2 * 16], chained, 16, 1e-5f);
}

/* The runtime reads the matrix of bone b at frame f as number
 * b * keyframe_count + f and copies it (no interpolation). */
Test(loader_aamf, samf_pose_steps_through_bone_major_keyframes)
{
    sample(AAMFB_32_BONES, 0);
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    const mcl_animation *an = &model->animations[1]; /* "walk----", 4 frames */
    cr_assert_str_eq(an->name, "walk----");
    cr_assert_eq(an->track_count, 32);
    cr_assert_float_eq(an->duration, 4.0, 0);
    const mcl_track *t = &an->tracks[3];
    cr_assert_eq(t->bone, 3);
    cr_assert_eq(t->kind, MCL_TRACK_MATRIX);
    cr_assert_eq(t->interpolation, MCL_STEP);
    cr_assert_eq(t->key_count, 4);
    cr_assert_float_eq(t->times[2], 2.0f, 0);
    float want[16];
    to_float(&m->anims[1].keys[3 * 4 + 2], want);
    assert_near(&t->values[2 * 16], want, 16, 0);
    float g[32 * 16];
    cr_assert_eq(mcl_evaluate_pose(model, 1, 2.7, g, NULL), MCL_OK);
    float root[16], child[16], chained[16];
    to_float(&m->anims[1].keys[0 * 4 + 2], root);
    to_float(&m->anims[1].keys[1 * 4 + 2], child);
    assert_near(&g[0], root, 16, 1e-6f);
    mul(root, child, chained);
    assert_near(&g[16], chained, 16, 1e-5f);
    cr_assert_eq(mcl_exercise(model), MCL_OK);
}

Test(loader_aamf, samf_magic_aamf_and_unaligned_blocks_accepted)
{
    sample(AAMFB_ODD_FACES, 0);
    memcpy(m->magic, "AAMF", 4);
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    cr_assert_eq(model->meshes[0].index_count, 9);
}

Test(loader_aamf, samf_without_bones_holds_keyframe_count_without_arrays)
{
    sample(AAMFB_ONE_BONE, 0);
    cr_assert_eq(aamfb_resize_vertices(m, 0), 0);
    m->face_count = 0;
    cr_assert_eq(aamfb_resize_bones(m, 0), 0);
    m->anims[0].keyframe_count = 0xFFFFFFFFu; /* 20 + 32 x 0 x n = 20: the block is right */
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    cr_assert_eq(model->animations[0].track_count, 0);
    cr_assert_eq(mcl_exercise(model), MCL_OK);
}

Test(loader_aamf, legacy_one_bone_rigid_mesh)
{
    sample(AAMFB_ONE_BONE, 1);
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    cr_assert_str_eq(model->layout, "legacy");
    cr_assert_eq(model->mesh_count, 1);
    const mcl_mesh *me = &model->meshes[0];
    cr_assert_eq(me->rigid_bone, 0);
    cr_assert_eq(me->influences, 0);
    cr_assert_eq(me->vertex_count, 6); /* 2 F3: corners are vertices of their own */
    cr_assert_eq(me->index_count, 6);
    cr_assert_eq(me->indices[5], 5);
    cr_assert_eq(me->face_materials[1], -1); /* F3 is not textured */
    cr_assert_eq(model->material_count, 1);
    cr_assert_str_eq(model->materials[0].name, "SKIN");
    cr_assert_str_eq(model->materials[0].texture_path, "SKIN");
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    assert_near(model->bones[0].local, id, 16, 0);
    assert_near(model->bones[0].inverse_bind, id, 16, 0);
}

/* A textured quad: its 4 corners, its normal on each, the Z-ordered split
 * and its texture index as the face material. */
Test(loader_aamf, legacy_textured_quad)
{
    sample(AAMFB_ONE_BONE, 1);
    aamfb_chunk *ch = &m->bones[0].amf.chunks[0];
    memset(ch->count, 0, sizeof ch->count);
    ch->count[2] = 1; /* FT4 */
    write_model();
    uint64_t rec = off(AAMFB_BONE_BLOCKS, 0) + aamfb_amf_chunk_offset(&m->bones[0].amf, 0) + 48;
    for (int q = 0; q < 4; q++) {
        put_u16(rec + 8 * (unsigned)q, (uint16_t)(q * 1024));
        put_u16(rec + 8 * (unsigned)q + 4, (uint16_t)(-2048));
    }
    put_u16(rec + 32 + 2, 4096); /* normal (0, 1, 0) */
    cr_assert_eq(load_bytes(buf.data, buf.size), MCL_OK, "%s", err.reason);
    const mcl_mesh *me = &model->meshes[0];
    cr_assert_eq(me->vertex_count, 4);
    const uint32_t idx[6] = {0, 1, 2, 1, 3, 2};
    for (int k = 0; k < 6; k++) cr_assert_eq(me->indices[k], idx[k]);
    const float p3[3] = {0.75f, 0, -0.5f}, n3[3] = {0, 1, 0};
    assert_near(&me->positions[9], p3, 3, 0);
    assert_near(&me->normals[9], n3, 3, 0);
    cr_assert_eq(me->face_materials[0], 0);
    cr_assert_eq(me->face_materials[1], 0);
    /* an index past the names: the game indexes its table unchecked */
    put_u32(rec + 40, 1);
    expect(MCL_ERR_RANGE, rec + 40);
}

Test(loader_aamf, legacy_32_bones_one_mesh_per_bone)
{
    sample(AAMFB_32_BONES, 1);
    cr_assert_eq(load(), MCL_OK, "%s", err.reason);
    cr_assert_eq(model->mesh_count, 32);
    uint32_t materials = 0;
    for (uint32_t b = 0; b < 32; b++) {
        cr_assert_eq(model->meshes[b].rigid_bone, (int32_t)b);
        materials += 1 + b % 3;
    }
    cr_assert_eq(model->material_count, materials);
    cr_assert_eq(model->animation_count, 3);
    float g[32 * 16];
    cr_assert_eq(mcl_evaluate_pose(model, 2, 1.0, g, NULL), MCL_OK);
    float want[16];
    to_float(&m->anims[2].keys[0 * 3 + 1], want);
    assert_near(&g[0], want, 16, 1e-6f);
    cr_assert_eq(mcl_exercise(model), MCL_OK);
}

/* ---- hostile inputs ---- */

/* Every proper prefix of either layout ends inside a header, a table or a
 * block: TRUNCATED, never a crash. */
Test(loader_aamf, every_truncation_rejected)
{
    for (int legacy = 0; legacy < 2; legacy++) {
        sample(AAMFB_ONE_BONE, legacy);
        write_model();
        for (size_t n = 0; n < buf.size; n++) {
            mcl_status s = load_bytes(buf.data, n);
            cr_assert_eq(s, MCL_ERR_TRUNCATED, "legacy %d, %zu bytes: %s: %s", legacy, n, mcl_status_name(s), err.reason);
            cr_assert_null(model);
        }
    }
}

Test(loader_aamf, samf_header_fields_cut)
{
    sample(AAMFB_ONE_BONE, 0);
    write_model();
    for (size_t n = 4; n < 16; n++) {
        cr_assert_eq(load_bytes(buf.data, n), MCL_ERR_TRUNCATED);
        cr_assert_eq(err.offset, n);
    }
}

Test(loader_aamf, huge_counts_in_a_tiny_file)
{
    sample(AAMFB_ONE_BONE, 0);
    write_model();
    put_u32(10, 0xFFFFFFFFu); /* vertex_count */
    expect(MCL_ERR_TRUNCATED, 16 + 4 + 32); /* the positions table */
    mcb_free(&buf);
    memset(&buf, 0, sizeof buf);
    const uint8_t legacy[8] = {0xFF, 0xFF, 1, 0, 0, 0, 0, 0}; /* 65535 bones */
    mcb_bytes(&buf, legacy, sizeof legacy);
    expect(MCL_ERR_TRUNCATED, 4);
}

Test(loader_aamf, memory_limit)
{
    sample(AAMFB_32_BONES, 0);
    write_model();
    mcl_limits l = mcl_limits_default();
    l.max_alloc_bytes = 4096;
    cr_assert_eq(mcl_load(MCL_FORMAT_AAMF, buf.data, buf.size, &l, &model, &err), MCL_ERR_LIMIT);
    cr_assert_null(model);
}

Test(loader_aamf, version_and_animation_count)
{
    sample(AAMFB_ONE_BONE, 0);
    m->version = 3;
    write_model();
    expect(MCL_ERR_VERSION, 4);
    m->version = 2;
    write_model();
    put_u16(8, 0);
    expect(MCL_ERR_STRUCTURE, 8);
    sample(AAMFB_ONE_BONE, 1);
    write_model();
    put_u16(2, 0);
    expect(MCL_ERR_STRUCTURE, 2);
}

Test(loader_aamf, bone_table_rules)
{
    sample(AAMFB_32_BONES, 0);
    m->bones[5].index = 6;
    write_model();
    expect(MCL_ERR_STRUCTURE, off(AAMFB_BONE_TABLE, 5));
    m->bones[5].index = 5;
    m->bones[3].parent = 0xFFFF;
    write_model();
    expect(MCL_ERR_RANGE, off(AAMFB_BONE_TABLE, 3) + 2);
    /* a cycle 1 -> 2 -> 1 needs a parent after its child */
    m->bones[3].parent = 1;
    m->bones[1].parent = 2;
    m->bones[2].parent = 1;
    write_model();
    expect(MCL_ERR_STRUCTURE, off(AAMFB_BONE_TABLE, 1) + 2);
}

Test(loader_aamf, matrices_must_be_rotations)
{
    sample(AAMFB_32_BONES, 0);
    aamfb_matrix *x = &m->bones[2].bind;
    for (int k = 0; k < 9; k++) x->m[k] = (int16_t)(x->m[k] * 6 / 5);
    write_model();
    expect(MCL_ERR_VALUE, off(AAMFB_BIND_POSES, 2));
    sample(AAMFB_32_BONES, 0);
    x = &m->bones[6].bind;
    for (int k = 0; k < 3; k++) x->m[k] = (int16_t)-x->m[k]; /* mirror the first row */
    write_model();
    expect(MCL_ERR_VALUE, off(AAMFB_BIND_POSES, 6));
    sample(AAMFB_ONE_BONE, 1);
    m->anims[0].keys[1].m[0] = 2048;
    write_model();
    expect(MCL_ERR_VALUE, off(AAMFB_ANIMS, 0) + 20 + 32);
}

Test(loader_aamf, samf_vertex_rules)
{
    sample(AAMFB_32_BONES, 0);
    m->normals[2] = (aamfb_svector){803, 0, 3900, 0};
    write_model();
    expect(MCL_ERR_VALUE, off(AAMFB_NORMALS, 2));
    sample(AAMFB_32_BONES, 0);
    m->skin[3].weight[0] = 200;
    write_model();
    expect(MCL_ERR_VALUE, off(AAMFB_SKIN, 3) + 4);
    sample(AAMFB_32_BONES, 0);
    m->skin[0].bone[0] = 32;
    write_model();
    expect(MCL_ERR_RANGE, off(AAMFB_SKIN, 0));
    sample(AAMFB_32_BONES, 0);
    m->skin[2].bone[2] = m->skin[2].bone[0];
    write_model();
    expect(MCL_ERR_STRUCTURE, off(AAMFB_SKIN, 2) + 2);
    sample(AAMFB_ONE_BONE, 0);
    m->faces[1][1] = 4;
    write_model();
    expect(MCL_ERR_RANGE, off(AAMFB_FACES, 1) + 2);
}

Test(loader_aamf, block_rules)
{
    sample(AAMFB_32_BONES, 0);
    write_model();
    put_u32(off(AAMFB_ANIMS, 1), 2);
    expect(MCL_ERR_SIZE, off(AAMFB_ANIMS, 1));
    put_u32(off(AAMFB_ANIMS, 1), 0xFFFFFFF0u);
    expect(MCL_ERR_TRUNCATED, off(AAMFB_ANIMS, 1));
    write_model();
    put_u32(off(AAMFB_ANIMS, 1) + 12, 5); /* keyframe_count against block_size */
    expect(MCL_ERR_SIZE, off(AAMFB_ANIMS, 1));
    put_u32(off(AAMFB_ANIMS, 1) + 12, 0);
    expect(MCL_ERR_VALUE, off(AAMFB_ANIMS, 1) + 12);
    write_model();
    buf.data[off(AAMFB_ANIMS, 0) + 6] = '\t';
    expect(MCL_ERR_VALUE, off(AAMFB_ANIMS, 0) + 6);
    write_model();
    mcb_zeros(&buf, 4);
    expect(MCL_ERR_SIZE, off(AAMFB_END, 0));
}

Test(loader_aamf, embedded_amf_rules)
{
    sample(AAMFB_32_BONES, 1);
    m->bones[4].amf.extra = 8;
    write_model();
    uint64_t b4 = off(AAMFB_BONE_BLOCKS, 4);
    expect(MCL_ERR_SIZE, b4 + aamfb_amf_chunk_offset(&m->bones[4].amf, m->bones[4].amf.chunk_count));
    sample(AAMFB_ONE_BONE, 1);
    m->bones[0].amf.used_textures |= 0x80000000u;
    write_model();
    expect(MCL_ERR_VALUE, off(AAMFB_BONE_BLOCKS, 0) + 4);
    m->bones[0].amf.used_textures = 0x10000000u; /* names far past the block */
    write_model();
    expect(MCL_ERR_SIZE, off(AAMFB_BONE_BLOCKS, 0) + 4 + 24);
    m->bones[0].amf.used_textures = 1;
    m->bones[0].amf.x = 256;
    m->bones[0].amf.z = 256;
    write_model();
    expect(MCL_ERR_RANGE, off(AAMFB_BONE_BLOCKS, 0) + 8);
    m->bones[0].amf.x = 1;
    m->bones[0].amf.z = 1;
    m->bones[0].amf.textures[0][2] = (char)0xE9;
    write_model();
    expect(MCL_ERR_VALUE, off(AAMFB_BONE_BLOCKS, 0) + 4 + 24 + 2);
    m->bones[0].amf.textures[0][2] = 'I';
    write_model();
    uint64_t chunk = off(AAMFB_BONE_BLOCKS, 0) + aamfb_amf_chunk_offset(&m->bones[0].amf, 0);
    put_u16(chunk + 2 * 3, 0xFFFF); /* 65535 GT4 in a 200-byte block */
    expect(MCL_ERR_SIZE, off(AAMFB_BONE_BLOCKS, 0) + aamfb_amf_chunk_offset(&m->bones[0].amf, 0));
    write_model();
    put_u32(off(AAMFB_BONE_BLOCKS, 0), 20); /* an older AMF: no room for the header */
    expect(MCL_ERR_SIZE, off(AAMFB_BONE_BLOCKS, 0) + 4);
}
