/* The AEM reference loader on the current upstream layout (2025,
 * conformance/loaders/aem2025.c): how a file is told from aem1, what valid
 * files become, and the status and offset hostile ones are rejected with. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aem2025_builder.h"
#include "aem_builder.h"
#include "mcl.h"
#include "support.h"

static mcb_buf write25(aem2025b_model *am)
{
    mcb_buf b = {0};
    aem2025b_write(am, &b);
    cr_assert(!b.oom);
    return b;
}

static aem2025b_model *sample25(void)
{
    aem2025b_model *am = aem2025b_sample(AEM2025B_SKINNED_ANIMATED);
    cr_assert_not_null(am);
    return am;
}

/* Loads (and exercises) the model; frees the builder model. */
static mcl_model *load25_ok(aem2025b_model *am)
{
    mcb_buf b = write25(am);
    aem2025b_free(am);
    mcl_model *m = loader_accepts(MCL_FORMAT_AEM, b.data, b.size);
    mcb_free(&b);
    return m;
}

static void expect25(const void *data, size_t size, mcl_status want, uint64_t offset)
{
    loader_rejects(MCL_FORMAT_AEM, data, size, want, offset);
}

/* Writes the model, frees it, expects a rejection at an offset. */
static void fail25(aem2025b_model *am, mcl_status want, uint64_t offset)
{
    mcb_buf b = write25(am);
    aem2025b_free(am);
    expect25(b.data, b.size, want, offset);
    mcb_free(&b);
}

static uint64_t off25(enum aem2025b_section s, uint64_t i)
{
    aem2025b_model *am = sample25();
    uint64_t o = aem2025b_offset(am, s, i);
    aem2025b_free(am);
    return o;
}

/* ---- telling the layouts apart ---- */

Test(loader_aem2025, layout_named_and_aem1_unchanged)
{
    mcl_model *m = load25_ok(sample25());
    cr_assert_str_eq(m->layout, "2025");
    mcl_free(m);
    aemb_model *old = aemb_sample(AEMB_SKINNED_ANIMATED);
    mcb_buf b = {0};
    aemb_write(old, &b);
    aemb_free(old);
    cr_assert_eq(mcl_load(MCL_FORMAT_AEM, b.data, b.size, NULL, &m, NULL), MCL_OK);
    cr_assert_str_eq(m->layout, "aem1");
    mcl_free(m);
    mcb_free(&b);
}

/* 3 vertices and nothing else: 40 + 3 x 92 = 52 + 3 x 88 = 316 bytes. */
Test(loader_aem2025, both_layouts_fit_is_ambiguous)
{
    uint8_t data[316] = {'A', 'E', 'M', 1, 3};
    expect25(data, sizeof data, MCL_ERR_STRUCTURE, 4);
}

Test(loader_aem2025, neither_layout_fits_names_both)
{
    aem2025b_model *am = sample25();
    mcb_buf b = write25(am);
    aem2025b_free(am);
    mcl_model *m = NULL;
    mcl_error err;
    /* one byte short, or one over: the 2025 reading is the nearer, its
     * error names the size the aem1 reading implies too */
    expect25(b.data, b.size - 1, MCL_ERR_TRUNCATED, b.size - 1);
    cr_assert_eq(mcl_load(MCL_FORMAT_AEM, b.data, b.size - 1, NULL, &m, &err), MCL_ERR_TRUNCATED);
    cr_assert_not_null(strstr(err.reason, "(as aem1: "), "%s", err.reason);
    mcb_u8(&b, 0);
    expect25(b.data, b.size, MCL_ERR_SIZE, b.size - 1);
    b.size--;
    /* every shorter prefix is rejected too, never read past */
    for (size_t len = 0; len < b.size; len++) cr_assert_neq(mcl_load(MCL_FORMAT_AEM, b.data, len, NULL, &m, NULL), MCL_OK);
    mcb_free(&b);
}

Test(loader_aem2025, image_size_overflow)
{
    uint8_t data[64] = {'A', 'E', 'M', 1};
    memset(&data[12], 0xff, 8); /* a 2^64 - 1 byte image buffer */
    mcl_model *m = NULL;
    cr_assert_neq(mcl_load(MCL_FORMAT_AEM, data, sizeof data, NULL, &m, NULL), MCL_OK);
    cr_assert_null(m);
}

/* ---- what a valid file becomes ---- */

Test(loader_aem2025, sample_meshes_skin_and_textures)
{
    mcl_model *m = load25_ok(sample25());
    cr_assert_eq(m->mesh_count, 2);
    cr_assert_eq(m->bone_count, 3);
    cr_assert_eq(m->animation_count, 2);
    const mcl_mesh *me = &m->meshes[1];
    cr_assert_eq(me->vertex_count, 4);
    cr_assert_eq(me->index_count, 6);
    cr_assert_float_eq(me->positions[2], 2.0f, 1e-6); /* vertex 4: -1 -1 2 */
    cr_assert_eq(me->influences, 4);
    cr_assert_eq(me->joints[0], 2); /* i / 4 + 1 */
    cr_assert_eq(me->joints[1], 0);
    cr_assert_float_eq(me->weights[0], 0.75f, 1e-7);
    cr_assert_float_eq(me->weights[1], 0.25f, 1e-7);
    cr_assert_eq(me->joints[2], 0); /* -1: joint 0, weight 0 */
    cr_assert_float_eq(me->weights[2], 0.0f, 0);
    cr_assert_eq(me->rigid_bone, -1);
    cr_assert_eq(me->material, 1);
    /* material 0: the 2x2 RGBA base colour and its 1x1 level */
    const mcl_material *a = &m->materials[0];
    cr_assert_eq(a->texture_texels, MCL_TEXELS_RAW);
    cr_assert_eq(a->texture_width, 2);
    cr_assert_eq(a->texture_height, 2);
    cr_assert_eq(a->texture_channels, 4);
    cr_assert_eq(a->texture_levels, 2);
    cr_assert_eq(a->texture_size, 20);
    static const uint8_t first[4] = {255, 0, 0, 255};
    cr_assert_eq(memcmp(a->texture_data, first, 4), 0);
    cr_assert_null(a->texture_path);
    /* material 1: the 1x1 grey */
    const mcl_material *b = &m->materials[1];
    cr_assert_eq(b->texture_width, 1);
    cr_assert_eq(b->texture_levels, 1);
    cr_assert_eq(b->texture_size, 4);
    cr_assert_eq(b->texture_data[0], 128);
    mcl_free(m);
}

Test(loader_aem2025, joints_names_rest_and_pose)
{
    mcl_model *m = load25_ok(sample25());
    cr_assert_str_eq(m->bones[0].name, "root");
    cr_assert_str_eq(m->bones[2].name, "head");
    cr_assert_eq(m->bones[0].parent, -1);
    cr_assert_eq(m->bones[2].parent, 1);
    cr_assert_float_eq(m->bones[1].local[14], 1.0f, 1e-6); /* joint j rests at z = j */
    cr_assert_str_eq(m->animations[0].name, "wave");
    cr_assert_float_eq(m->animations[1].duration, 0.5, 1e-9);
    cr_assert_eq(m->animations[0].track_count, 9);
    float global[48], skin[48];
    /* "wave" at 0.5 s: every joint's translation z is 0.5 (keys 0 and 1) */
    cr_assert_eq(mcl_evaluate_pose(m, 0, 0.5, global, skin), MCL_OK);
    cr_assert_float_eq(global[2 * 16 + 14], 1.5f, 1e-6);
    cr_assert_float_eq(skin[2 * 16 + 14], -0.5f, 1e-6);
    mcl_free(m);
}

Test(loader_aem2025, parents_after_children_reordered)
{
    aem2025b_model *am = sample25();
    /* the chain reversed: head (2) is the root, root (0) the leaf */
    am->joints[0].parent = 1;
    am->joints[1].parent = 2;
    am->joints[2].parent = -1;
    am->vertices[0].joint[0] = 2;
    mcl_model *m = load25_ok(am);
    cr_assert_str_eq(m->bones[0].name, "head");
    cr_assert_str_eq(m->bones[1].name, "spine");
    cr_assert_str_eq(m->bones[2].name, "root");
    cr_assert_eq(m->bones[1].parent, 0);
    cr_assert_eq(m->bones[2].parent, 1);
    cr_assert_eq(m->meshes[0].joints[0], 0); /* joint 2 is bone 0 */
    cr_assert_eq(m->meshes[0].joints[1], 2); /* joint 0 is bone 2 */
    cr_assert_eq(m->animations[0].tracks[0].bone, 0);
    mcl_free(m);
}

Test(loader_aem2025, field_deviations_accepted)
{
    aem2025b_model *am = sample25();
    am->vertices[1].joint[2] = 0; /* the converter's filler index, weight 0 */
    am->vertices[1].joint[3] = 0;
    memcpy(am->joints[1].name + 6, "\x90\xff\x12", 3); /* bytes after the NUL */
    am->animations[1].name[0] = '\0';                  /* an empty name */
    mcl_model *m = load25_ok(am);
    cr_assert_str_eq(m->bones[1].name, "spine");
    cr_assert_str_eq(m->animations[1].name, "");
    cr_assert_eq(m->meshes[0].joints[2], 0);
    mcl_free(m);
    /* a static file: joints -1 x 4 with weights 0 */
    am = aem2025b_sample(AEM2025B_STATIC);
    m = load25_ok(am);
    cr_assert_eq(m->bone_count, 0);
    cr_assert_eq(m->meshes[0].influences, 0);
    mcl_free(m);
}

/* ---- rejections ---- */

/* The validator warns about these (AEM2025_HEADER_PADDING,
 * AEM2025_VECTOR_NOT_UNIT): accepted, taken as stored. */
Test(loader_aem2025, padding_and_vector_lengths_accepted)
{
    aem2025b_model *am = sample25();
    am->header_padding = 1;
    am->vertices[2].bitangent[1] = 0.5f;
    am->vertices[0].normal[2] = 2.0f;
    mcl_model *m = load25_ok(am);
    cr_assert_float_eq(m->meshes[0].normals[2], 2.0f, 0);
    mcl_free(m);
}

Test(loader_aem2025, vertex_values_and_skin)
{
    aem2025b_model *am = sample25();
    am->vertices[3].position[1] = INFINITY;
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_VERTICES, 3) + 4);
    am = sample25();
    am->vertices[0].weight[0] = 0.7f; /* sum 0.95 */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_VERTICES, 0) + 72);
    am = sample25();
    am->vertices[0].weight[3] = 0.1f; /* on a -1 slot */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_VERTICES, 0) + 84);
    am = sample25();
    am->vertices[5].joint[1] = 3; /* 3 joints */
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_VERTICES, 5) + 60);
    am = sample25();
    am->vertices[5].joint[3] = -2;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_VERTICES, 5) + 68);
    am = aem2025b_sample(AEM2025B_STATIC);
    am->vertices[0].joint[0] = 0; /* the filler where there are no joints */
    mcb_buf b = write25(am);
    uint64_t o = aem2025b_offset(am, AEM2025B_VERTICES, 0) + 56;
    aem2025b_free(am);
    expect25(b.data, b.size, MCL_ERR_RANGE, o);
    mcb_free(&b);
}

Test(loader_aem2025, indices_and_meshes)
{
    aem2025b_model *am = sample25();
    am->indices[7] = 8;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_INDICES, 7));
    am = sample25();
    am->meshes[1].index_count = 9; /* 6 + 9 > 12 */
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_MESHES, 1));
    am = sample25();
    am->meshes[0].index_count = 5;
    fail25(am, MCL_ERR_STRUCTURE, off25(AEM2025B_MESHES, 0) + 4);
    am = sample25();
    am->meshes[0].material = 2;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_MESHES, 0) + 8);
}

Test(loader_aem2025, textures_and_materials)
{
    aem2025b_model *am = sample25();
    am->textures[1].wrap[1] = 3;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_TEXTURES, 1) + 20);
    am = sample25();
    am->textures[2].compression = 3;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_TEXTURES, 2) + 28);
    am = sample25();
    am->textures[2].channels = 0;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_TEXTURES, 2) + 24);
    am = sample25();
    am->textures[3].height = 0;
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_TEXTURES, 3) + 8);
    /* the last texture's chain (2 bytes at 30) fits exactly; 4x1 needs 8 + 4 + 2 */
    am = sample25();
    am->textures[4].width = 4;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_TEXTURES, 4));
    am = sample25();
    am->textures[0].offset = UINT64_MAX - 4; /* offset + chain overflows */
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_TEXTURES, 0));
    /* BC7 2x2: one 16-byte block and the 1x1 level's block, 32 bytes: the whole buffer */
    am = sample25();
    am->textures[0].compression = 2;
    mcl_model *m = load25_ok(am);
    cr_assert_eq(m->materials[0].texture_texels, MCL_TEXELS_BC7);
    cr_assert_eq(m->materials[0].texture_size, 32);
    mcl_free(m);
    am = sample25();
    am->textures[0].compression = 1;
    am->textures[0].offset = 1; /* 32 bytes from 1 pass the 32-byte buffer */
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_TEXTURES, 0));
    am = sample25();
    am->materials[1].texture[1] = 5;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_MATERIALS, 1) + 4);
    am = sample25();
    am->materials[0].type = 2;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_MATERIALS, 0) + 12);
}

Test(loader_aem2025, joints)
{
    aem2025b_model *am = sample25();
    memset(am->joints[2].name, 'x', 128); /* no NUL */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_JOINTS, 2));
    am = sample25();
    memcpy(am->joints[1].name, "\xc0\xaf", 3); /* an overlong '/' */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_JOINTS, 1));
    am = sample25();
    am->joints[1].inverse_bind[5] = NAN;
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_JOINTS, 1) + 128 + 20);
    am = sample25();
    memset(am->joints[0].inverse_bind, 0, 64);
    am->joints[0].inverse_bind[15] = 1; /* singular */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_JOINTS, 0) + 128);
    am = sample25();
    am->joints[2].parent = 3;
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_JOINTS, 2) + 192);
    am = sample25();
    am->joints[1].parent = 1; /* its own parent */
    fail25(am, MCL_ERR_STRUCTURE, off25(AEM2025B_JOINTS, 1) + 192);
    am = sample25();
    am->joints[0].parent = 2; /* 0 -> 2 -> 1 -> 0 */
    fail25(am, MCL_ERR_STRUCTURE, off25(AEM2025B_JOINTS, 0) + 192);
}

Test(loader_aem2025, animations_tracks_and_keys)
{
    aem2025b_model *am = sample25();
    am->animations[0].duration = 0;
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_ANIMATIONS, 0) + 128);
    am = sample25();
    cr_assert_eq(aem2025b_resize(am, AEM2025B_TRACKS, 5), 0); /* 3 joints x 2 animations */
    fail25(am, MCL_ERR_SIZE, 40);
    am = sample25();
    am->tracks[5].count[2] = 2; /* keys 24 + 1 + 1 + 2 pass 27 */
    fail25(am, MCL_ERR_RANGE, off25(AEM2025B_TRACKS, 5));
    /* animation 0, joint 0: keys 0-1 translation, 2-3 rotation, 4-5 scale */
    am = sample25();
    am->keys[1].time = 1.5f; /* past the 1 s duration */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_KEYFRAMES, 1));
    am = sample25();
    am->keys[0].time = 0.75f;
    am->keys[1].time = 0.25f;
    fail25(am, MCL_ERR_STRUCTURE, off25(AEM2025B_KEYFRAMES, 1));
    am = sample25();
    am->keys[1].time = 0.0f; /* equal times: not strictly increasing */
    fail25(am, MCL_ERR_STRUCTURE, off25(AEM2025B_KEYFRAMES, 1));
    am = sample25();
    am->keys[4].w = 1; /* a scale key's W */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_KEYFRAMES, 4) + 16);
    am = sample25();
    am->keys[3].w = 0.5f; /* not a unit quaternion */
    fail25(am, MCL_ERR_VALUE, off25(AEM2025B_KEYFRAMES, 3) + 4);
    /* a channel without keys: no track for it, the joint keeps its rest */
    am = sample25();
    am->tracks[0].count[0] = 0;
    am->tracks[0].first_keyframe = 2;
    mcl_model *m = load25_ok(am);
    cr_assert_eq(m->animations[0].track_count, 8);
    cr_assert_eq(m->animations[0].tracks[0].kind, MCL_TRACK_ROTATION);
    mcl_free(m);
}

Test(loader_aem2025, memory_limit)
{
    aem2025b_model *am = sample25();
    mcb_buf b = write25(am);
    aem2025b_free(am);
    mcl_limits lim = mcl_limits_default();
    lim.max_alloc_bytes = 256;
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_eq(mcl_load(MCL_FORMAT_AEM, b.data, b.size, &lim, &m, &err), MCL_ERR_LIMIT);
    cr_assert_null(m);
    mcb_free(&b);
}
