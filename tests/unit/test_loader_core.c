/* The format-independent half of the reference loaders: pose evaluation,
 * the model invariants, names. Models are built by hand here. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mcl.h"

#define IDENTITY {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

static void assert_near(const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++) cr_assert(fabsf(got[i] - want[i]) < 1e-5f, "[%d] %g vs %g", i, got[i], want[i]);
}

/* Two bones: a root translated by (1,0,0) and a child at (0,2,0); one
 * animation rotates the root 90 degrees about Z between t=0 and t=2. */
static const float root_times[2] = {0, 2};
static const float root_rot[8] = {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f};
static mcl_track root_track = {0, MCL_TRACK_ROTATION, MCL_LINEAR, 2, root_times, root_rot};
static mcl_animation anim = {"turn", 2.0, 1, &root_track, 0, 0};

static void two_bones(mcl_bone b[2], mcl_model *m)
{
    const float id[16] = IDENTITY;
    memset(m, 0, sizeof *m);
    for (int i = 0; i < 2; i++) {
        b[i].name = i ? "child" : "root";
        b[i].parent = i - 1;
        memcpy(b[i].local, id, sizeof id);
        memcpy(b[i].inverse_bind, id, sizeof id);
    }
    b[0].local[12] = 1;
    b[1].local[13] = 2;
    m->layout = "";
    m->bone_count = 2;
    m->bones = b;
    m->animation_count = 1;
    m->animations = &anim;
}

Test(loader_pose, rest_pose_chains_parents)
{
    mcl_bone b[2];
    mcl_model m;
    two_bones(b, &m);
    cr_assert_eq(mcl_model_check(&m, NULL), MCL_OK);
    float g[32];
    cr_assert_eq(mcl_evaluate_pose(&m, UINT32_MAX, 0, g, NULL), MCL_OK);
    const float child[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 0, 1};
    assert_near(&g[16], child, 16);
}

Test(loader_pose, end_rotation_moves_child)
{
    mcl_bone b[2];
    mcl_model m;
    two_bones(b, &m);
    float g[32], s[32];
    cr_assert_eq(mcl_evaluate_pose(&m, 0, 2.0, g, s), MCL_OK);
    /* root turned 90 degrees about Z: the child's (0,2,0) offset becomes (-2,0,0) */
    cr_assert(fabsf(g[16 + 12] - (1 - 2)) < 1e-5f && fabsf(g[16 + 13]) < 1e-5f);
    assert_near(s, g, 32); /* identity inverse bind */
}

Test(loader_pose, halfway_is_45_degrees_and_clamped_outside)
{
    mcl_bone b[2];
    mcl_model m;
    two_bones(b, &m);
    float g[32], late[32], end[32];
    cr_assert_eq(mcl_evaluate_pose(&m, 0, 1.0, g, NULL), MCL_OK);
    float c = cosf(0.78539816f);
    cr_assert(fabsf(g[0] - c) < 1e-4f && fabsf(g[1] - c) < 1e-4f, "%g %g", g[0], g[1]);
    cr_assert_eq(mcl_evaluate_pose(&m, 0, 50.0, late, NULL), MCL_OK);
    cr_assert_eq(mcl_evaluate_pose(&m, 0, 2.0, end, NULL), MCL_OK);
    assert_near(late, end, 32);
}

Test(loader_pose, unknown_animation_is_an_argument_error)
{
    mcl_bone b[2];
    mcl_model m;
    two_bones(b, &m);
    float g[32];
    cr_assert_eq(mcl_evaluate_pose(&m, 1, 0, g, NULL), MCL_ERR_ARGUMENT);
}

Test(loader_check, parent_after_child_is_internal_error)
{
    mcl_bone b[2];
    mcl_model m;
    two_bones(b, &m);
    b[0].parent = 1;
    mcl_error err;
    cr_assert_eq(mcl_model_check(&m, &err), MCL_ERR_INTERNAL);
    cr_assert(strstr(err.reason, "bone 0") != NULL, "%s", err.reason);
}

Test(loader_check, index_out_of_range_is_internal_error)
{
    const float pos[6] = {0};
    const uint32_t idx[3] = {0, 1, 2};
    mcl_mesh mesh = {"", 2, pos, NULL, 0, NULL, NULL, 0, NULL, NULL, -1, MCL_TRIANGLES, 3, idx, -1, NULL};
    mcl_model m = {0};
    m.layout = "";
    m.mesh_count = 1;
    m.meshes = &mesh;
    mcl_error err;
    cr_assert_eq(mcl_model_check(&m, &err), MCL_ERR_INTERNAL);
    cr_assert(strstr(err.reason, "index 2") != NULL, "%s", err.reason);
}

Test(loader_names, formats_and_statuses_round_trip)
{
    for (int f = 1; f < MCL_FORMAT_COUNT; f++)
        cr_assert_eq(mcl_format_from_name(mcl_format_name((mcl_format)f)), f);
    cr_assert_eq(mcl_format_from_name("gltf"), MCL_FORMAT_UNKNOWN);
    cr_assert_str_eq(mcl_status_name(MCL_ERR_TRUNCATED), "TRUNCATED");
    cr_assert_eq(mcl_load(MCL_FORMAT_UNKNOWN, "", 0, NULL, &(mcl_model *){NULL}, NULL), MCL_ERR_ARGUMENT);
}
