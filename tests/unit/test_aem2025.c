/*
 * AEM 2025-layout checks beyond the case table (conformance/generator/
 * aem2025_cases.c, checked by test_cases.c): the layout decision, overflow
 * of the size and MIP chain arithmetic, the folds across clean-path chunks,
 * cycles; exact codes, counts and offsets.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "aem2025_builder.h"
#include "support.h"

static aem2025b_model *m;
static mc_result *r;
static mcb_buf b;

static void setup(void)
{
    m = aem2025b_sample(AEM2025B_SKINNED_ANIMATED);
    cr_assert_not_null(m);
    r = NULL;
    memset(&b, 0, sizeof b);
}

static void teardown(void)
{
    mc_result_free(r);
    aem2025b_free(m);
    mcb_free(&b);
}

TestSuite(aem2025, .init = setup, .fini = teardown);

enum { V_NORMAL = 12, V_JOINTS = 56, V_WEIGHTS = 72 };

static uint64_t off(enum aem2025b_section s, uint64_t i, uint64_t field)
{
    return aem2025b_offset(m, s, i) + field;
}

/* Writes m into b (kept for patches), then validates b. */
static void write_model(void)
{
    mcb_free(&b);
    memset(&b, 0, sizeof b);
    aem2025b_write(m, &b);
    cr_assert(!b.oom);
}

static mc_result *validate_b(void)
{
    mc_result_free(r);
    r = validate_buf(b.data, b.size, NULL);
    return r;
}

static mc_result *validate_model(void)
{
    write_model();
    return validate_b();
}

static const char *first_message(mc_code code)
{
    const mc_issue *is = mc_result_find(r, code);
    cr_assert_not_null(is);
    cr_assert_gt(is->instance_count, 0);
    return is->instances[0].message;
}

Test(aem2025, samples_are_clean_and_named_2025)
{
    validate_model();
    expect_codes(r, -1);
    cr_expect_eq(r->format, MC_FORMAT_AEM);
    cr_expect_str_eq(r->layout, "2025");
    cr_expect_eq(r->info.vertices, 8);
    cr_expect_eq(r->info.triangles, 4);
    cr_expect_eq(r->info.textures, 5);
    cr_expect_eq(r->info.bones, 3);
    cr_expect_eq(r->info.animations, 2);
    cr_expect_eq(r->info.sequences, 6);
    cr_expect_eq(r->info.keyframes, 27);
    cr_expect_eq(r->info.max_influences, 2);
    aem2025b_free(m);
    m = aem2025b_sample(AEM2025B_STATIC);
    validate_model();
    expect_codes(r, -1);
    cr_expect_eq(r->info.max_influences, 0);
}

/* ---- telling the layouts apart ---- */

Test(aem2025, trailing_byte_is_reported_as_2025_with_aem1_arithmetic)
{
    write_model();
    size_t end = b.size;
    mcb_zeros(&b, 1);
    validate_b();
    expect_only(r, MC_AEM_TRAILING_BYTES, 1, end);
    cr_expect_str_eq(r->layout, "");
    cr_expect(strstr(first_message(MC_AEM_TRAILING_BYTES), "as the 2025 layout") != NULL);
    cr_expect(strstr(first_message(MC_AEM_TRAILING_BYTES), "as aem1 they imply") != NULL);
}

Test(aem2025, truncated_file_is_reported_once_at_its_end)
{
    write_model();
    b.size -= 100;
    validate_b();
    expect_only(r, MC_AEM_TRUNCATED, 1, b.size);
    cr_expect(strstr(first_message(MC_AEM_TRUNCATED), "keyframes section") != NULL);
}

Test(aem2025, aem1_file_cut_short_keeps_its_aem1_error_and_names_2025)
{
    aemb_model *old = aemb_sample(AEMB_SKINNED_ANIMATED);
    mcb_buf ob = {0};
    aemb_write(old, &ob);
    ob.size -= 7;
    mc_result_free(r);
    r = validate_buf(ob.data, ob.size, NULL);
    expect_only(r, MC_AEM_TRUNCATED, 1, ob.size);
    cr_expect(strstr(first_message(MC_AEM_TRUNCATED), "keyframes section (18 x 20") != NULL);
    cr_expect(strstr(first_message(MC_AEM_TRUNCATED), "as the 2025 layout they imply") != NULL);
    mcb_free(&ob);
    aemb_free(old);
}

Test(aem2025, both_layouts_fitting_is_one_error_at_0)
{
    for (int s = 0; s < AEM2025B_SECTIONS; s++) aem2025b_resize(m, (enum aem2025b_section)s, 0);
    aem2025b_resize(m, AEM2025B_VERTICES, 3);
    validate_model();
    cr_expect_eq(b.size, 316);
    expect_only(r, MC_AEM_LAYOUT_AMBIGUOUS, 1, 0);
}

Test(aem2025, image_size_near_2_64_overflows_to_one_size_error)
{
    write_model();
    aem2025b_put_u64(&b, 12, UINT64_MAX - 10);
    validate_b();
    cr_expect_eq(r->issue_count, 1);
    cr_expect(mc_result_find(r, MC_AEM_TRUNCATED) || mc_result_find(r, MC_AEM_TRAILING_BYTES));
}

Test(aem2025, header_52_bytes_is_a_valid_empty_2025_file)
{
    for (int s = 0; s < AEM2025B_SECTIONS; s++) aem2025b_resize(m, (enum aem2025b_section)s, 0);
    validate_model();
    cr_expect_eq(b.size, 52);
    expect_only(r, MC_FILE_NO_CONTENT, 1, 0);
    cr_expect_str_eq(r->layout, "2025");
}

/* ---- textures ---- */

Test(aem2025, bc7_5x3_chain_is_64_bytes)
{
    uint64_t size = 0;
    cr_assert_eq(aem2025b_mip_chain_size(5, 3, 4, AEM2025B_BC7, &size), 0);
    cr_expect_eq(size, 64); /* 2x1 blocks, then 1, then 1 */
    uint8_t blocks[64] = {0};
    aem2025b_texture t = {0, 5, 3, {0, 0}, 4, AEM2025B_BC7};
    aem2025b_add_texture(m, t, blocks, 64, NULL);
    validate_model();
    expect_codes(r, -1);
    /* one byte less: the chain ends past the buffer */
    aem2025b_resize(m, AEM2025B_IMAGE, m->count[AEM2025B_IMAGE] - 1);
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_DATA_RANGE, 1, off(AEM2025B_TEXTURES, 5, 0));
}

Test(aem2025, chain_of_2_64_bytes_or_more_is_out_of_range_not_wrapped)
{
    m->textures[4].width = m->textures[4].height = UINT32_MAX;
    m->textures[4].channels = 4;
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_DATA_RANGE, 1, off(AEM2025B_TEXTURES, 4, 0));
    cr_expect(strstr(first_message(MC_AEM2025_TEXTURE_DATA_RANGE), "2^64 or more") != NULL);
}

Test(aem2025, offset_near_2_64_is_out_of_range_not_wrapped)
{
    m->textures[4].offset = UINT64_MAX - 1;
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_DATA_RANGE, 1, off(AEM2025B_TEXTURES, 4, 0));
}

Test(aem2025, gap_between_chains_is_named_once_with_runs)
{
    /* texture 4 (2 bytes at 30) moves to 0..: bytes 30-31 uncovered, and it overlaps texture 0 */
    m->textures[4].offset = 0;
    validate_model();
    expect_codes(r, MC_AEM2025_TEXTURE_DATA_OVERLAP, MC_AEM2025_IMAGE_UNREFERENCED, -1);
    expect_issue(r, MC_AEM2025_IMAGE_UNREFERENCED, 1, off(AEM2025B_IMAGE, 30, 0));
    expect_issue(r, MC_AEM2025_TEXTURE_DATA_OVERLAP, 1, off(AEM2025B_TEXTURES, 4, 0));
}

/* ---- skinning ---- */

Test(aem2025, filler_index_without_joints_is_out_of_range)
{
    aem2025b_free(m);
    m = aem2025b_sample(AEM2025B_STATIC);
    m->vertices[2].joint[3] = 0;
    validate_model();
    expect_only(r, MC_AEM2025_JOINT_INDEX_RANGE, 1, off(AEM2025B_VERTICES, 2, V_JOINTS + 12));
}

Test(aem2025, weightless_joint_vertex_sums_to_zero_without_error)
{
    m->vertices[6].joint[0] = 1;
    m->vertices[6].joint[1] = -1;
    m->vertices[6].weight[0] = m->vertices[6].weight[1] = 0.0f;
    validate_model();
    expect_only(r, MC_AEM2025_ZERO_WEIGHT_JOINT, 1, off(AEM2025B_VERTICES, 6, V_JOINTS));
}

/* The folds count across clean-path chunks (64 vertices): the first filler
 * in vertex 150, more after it in later chunks, one warning with the sum. */
Test(aem2025, filler_fold_counts_every_chunk_and_names_the_first)
{
    aem2025b_vertex proto = m->vertices[0];
    cr_assert_eq(aem2025b_resize(m, AEM2025B_VERTICES, 400), 0);
    for (uint32_t i = 0; i < 400; i++) m->vertices[i] = proto;
    uint64_t expect = 0;
    for (uint32_t i = 150; i < 400; i += 7) {
        m->vertices[i].joint[2] = m->vertices[i].joint[3] = 0;
        expect += 2;
    }
    m->vertices[399].joint[2] = 2; /* not a filler vertex: one weight-0 slot naming joint 2 */
    validate_model();
    expect_codes(r, MC_AEM2025_FILLER_JOINT_INDEX, MC_AEM2025_ZERO_WEIGHT_JOINT, -1);
    const mc_issue *is = mc_result_find(r, MC_AEM2025_FILLER_JOINT_INDEX);
    cr_assert_not_null(is);
    cr_expect_eq(is->first_offset, off(AEM2025B_VERTICES, 150, V_JOINTS + 8));
    char want[64];
    snprintf(want, sizeof want, "%llu joint slots", (unsigned long long)expect);
    cr_expect(strstr(first_message(MC_AEM2025_FILLER_JOINT_INDEX), want) != NULL, "%s",
              first_message(MC_AEM2025_FILLER_JOINT_INDEX));
    expect_issue(r, MC_AEM2025_ZERO_WEIGHT_JOINT, 1, off(AEM2025B_VERTICES, 399, V_JOINTS + 8));
}

Test(aem2025, error_in_a_late_chunk_is_found_at_its_offset)
{
    aem2025b_vertex proto = m->vertices[0];
    cr_assert_eq(aem2025b_resize(m, AEM2025B_VERTICES, 256), 0);
    for (uint32_t i = 0; i < 256; i++) m->vertices[i] = proto;
    m->vertices[201].normal[1] = NAN;
    m->vertices[255].weight[0] = 0.5f;
    validate_model();
    expect_codes(r, MC_AEM2025_VERTEX_NOT_FINITE, MC_AEM2025_WEIGHT_SUM, -1);
    expect_issue(r, MC_AEM2025_VERTEX_NOT_FINITE, 1, off(AEM2025B_VERTICES, 201, V_NORMAL));
    expect_issue(r, MC_AEM2025_WEIGHT_SUM, 1, off(AEM2025B_VERTICES, 255, V_WEIGHTS));
}

/* ---- joints ---- */

Test(aem2025, two_cycles_are_two_errors_and_a_chain_none)
{
    aem2025b_track walk = m->tracks[0], rest = m->tracks[3];
    cr_assert_eq(aem2025b_resize(m, AEM2025B_JOINTS, 7), 0);
    cr_assert_eq(aem2025b_resize(m, AEM2025B_TRACKS, 14), 0);
    for (uint32_t j = 3; j < 7; j++) m->joints[j] = m->joints[0];
    for (uint32_t t = 0; t < 14; t++) m->tracks[t] = t < 7 ? walk : rest; /* shared keys */
    m->joints[3].parent = 4; /* 3 <-> 4 */
    m->joints[4].parent = 3;
    m->joints[5].parent = 6; /* 5 <-> 6 */
    m->joints[6].parent = 5;
    validate_model();
    expect_codes(r, MC_AEM2025_JOINT_CYCLE, MC_AEM2025_JOINT_PARENT_AFTER_CHILD, -1);
    expect_issue(r, MC_AEM2025_JOINT_CYCLE, 2, off(AEM2025B_JOINTS, 4, 192));
    expect_issue(r, MC_AEM2025_JOINT_PARENT_AFTER_CHILD, 1, off(AEM2025B_JOINTS, 3, 192));
}

Test(aem2025, matrix_with_zero_last_row_is_singular)
{
    for (int k = 3; k < 16; k += 4) m->joints[2].inverse_bind[k] = 0.0f;
    validate_model();
    expect_only(r, MC_AEM2025_JOINT_MATRIX_SINGULAR, 1, off(AEM2025B_JOINTS, 2, 128));
}

/* ---- animations ---- */

Test(aem2025, keys_of_animation_1_are_judged_against_its_own_duration)
{
    /* animation 1 lasts 0.5 s; its joint 2 translation key at 0.75 s */
    m->keys[18 + 2 * 3].time = 0.75f;
    validate_model();
    expect_only(r, MC_AEM2025_KEY_TIME_RANGE, 1, off(AEM2025B_KEYFRAMES, 24, 0));
}

Test(aem2025, track_count_not_joints_x_animations)
{
    aem2025b_resize(m, AEM2025B_TRACKS, 7); /* a seventh track, all zero */
    validate_model();
    expect_codes(r, MC_AEM2025_TRACK_COUNT, MC_AEM2025_TRACK_CHANNEL_EMPTY, -1);
    expect_issue(r, MC_AEM2025_TRACK_COUNT, 1, 40);
    expect_issue(r, MC_AEM2025_TRACK_CHANNEL_EMPTY, 3, off(AEM2025B_TRACKS, 6, 4));
}

Test(aem2025, bc7_with_0_channels_is_one_channel_error)
{
    uint8_t blocks[48] = {0};
    aem2025b_texture t = {0, 4, 4, {0, 0}, 0, AEM2025B_BC7};
    aem2025b_add_texture(m, t, blocks, sizeof blocks, NULL);
    validate_model();
    expect_only(r, MC_AEM2025_TEXTURE_CHANNELS, 1, off(AEM2025B_TEXTURES, 5, 24));
}

/* ---- inspect (issue 27): the structure the 2025 walk reports ---- */

static const mc_node *child(const mc_node *n, const char *name)
{
    for (const mc_node *k = n ? n->first_child : NULL; k; k = k->next)
        if (strcmp(k->name, name) == 0) return k;
    return NULL;
}

static mc_inspect *inspect_model(void)
{
    write_model();
    mc_inspect *in = NULL;
    cr_assert_eq(mc_inspect_memory(b.data, b.size, NULL, &in), MC_OK);
    return in;
}

Test(aem2025, inspect_reports_header_sections_and_records)
{
    mc_inspect *in = inspect_model();
    const mc_node *root = mc_inspect_root(in);
    const mc_node *h = child(root, "header");
    cr_assert_not_null(h);
    cr_expect_eq(h->size, 52);
    const mc_node *v = child(root, "vertices");
    cr_assert_not_null(v);
    cr_expect_eq(v->offset, off(AEM2025B_VERTICES, 0, 0));
    cr_expect_eq(v->stride, 88);
    cr_expect_eq(v->count, 8);
    const mc_node *img = child(root, "image_buffer");
    cr_assert_not_null(img);
    cr_expect_eq(img->offset, off(AEM2025B_IMAGE, 0, 0));
    cr_expect_eq(img->size, 32);
    static const struct {
        const char *name;
        enum aem2025b_section s;
        uint64_t stride;
    } arrays[] = {{"tracks", AEM2025B_TRACKS, 16}, {"keyframes", AEM2025B_KEYFRAMES, 20}};
    for (size_t k = 0; k < 2; k++) {
        const mc_node *a = child(root, arrays[k].name);
        cr_assert_not_null(a);
        cr_expect_eq(a->offset, off(arrays[k].s, 0, 0));
        cr_expect_eq(a->stride, arrays[k].stride);
        cr_expect_eq(a->count, m->count[arrays[k].s]);
    }
    /* joints are the skeleton's bones: name and parent */
    const mc_node *j2 = child(child(root, "joints"), "2");
    cr_assert_not_null(j2);
    cr_expect_str_eq(j2->kind, "bone");
    cr_expect_eq(j2->size, 196);
    cr_expect_str_eq(mc_node_attr(j2, "name")->s, m->joints[2].name);
    cr_expect_eq(mc_node_attr(j2, "parent")->i, 1);
    const mc_node *a1 = child(child(root, "animations"), "1");
    cr_assert_not_null(a1);
    cr_expect_str_eq(mc_node_attr(a1, "name")->s, "idle");
    cr_expect_eq(mc_node_attr(a1, "duration")->f, 0.5);
    cr_expect_eq(mc_node_attr(a1, "keyframes")->u, 9);
    cr_expect_eq(mc_node_attr(a1, "rotation_keys")->u, 3);
    const mc_node *mat1 = child(child(root, "materials"), "1");
    cr_expect_eq(mc_node_attr(mat1, "type")->u, AEM2025B_TRANSPARENT);
    cr_expect_eq(mc_node_attr(mat1, "pbr")->u, m->materials[1].texture[2]);
    mc_inspect_free(in);
}

Test(aem2025, inspect_texture_has_levels_compression_and_chain_range)
{
    uint8_t blocks[64] = {0};
    aem2025b_texture t = {0, 5, 3, {0, 0}, 4, AEM2025B_BC7};
    aem2025b_add_texture(m, t, blocks, 64, NULL); /* texture 5, bytes 32..96 */
    m->textures[4].compression = 3;
    mc_inspect *in = inspect_model();
    const mc_node *tex = child(mc_inspect_root(in), "textures");
    const mc_node *t5 = child(tex, "5");
    cr_assert_not_null(t5);
    cr_expect_eq(mc_node_attr(t5, "width")->u, 5);
    cr_expect_eq(mc_node_attr(t5, "height")->u, 3);
    cr_expect_eq(mc_node_attr(t5, "mip_levels")->u, 3); /* 5x3, 2x1, 1x1 */
    cr_expect_str_eq(mc_node_attr(t5, "compression")->s, "BC7");
    cr_expect_eq(mc_node_attr(t5, "chain_start")->u, 32);
    cr_expect_eq(mc_node_attr(t5, "chain_end")->u, 96);
    /* an unknown compression: its number, and no chain */
    const mc_node *t4 = child(tex, "4");
    cr_expect_eq(mc_node_attr(t4, "compression")->u, 3);
    cr_expect_null(mc_node_attr(t4, "chain_start"));
    cr_expect_null(mc_node_attr(t4, "mip_levels"));
    mc_inspect_free(in);
}

Test(aem2025, inspect_mesh_geometry_counts_degenerate_and_influences)
{
    m->indices[1] = m->indices[0]; /* mesh 0's first triangle repeats a corner */
    m->vertices[0].joint[2] = 2;   /* vertex 0: three influences */
    m->vertices[0].weight[0] = 0.5f;
    m->vertices[0].weight[1] = 0.25f;
    m->vertices[0].weight[2] = 0.25f;
    m->vertices[5].position[2] = 7.0f;
    mc_inspect *in = inspect_model();
    const mc_node *meshes = child(mc_inspect_root(in), "meshes");
    const mc_node *m0 = child(meshes, "0"), *m1 = child(meshes, "1");
    cr_assert_not_null(m0);
    cr_assert_not_null(m1);
    cr_expect_eq(mc_node_attr(m0, "degenerate_triangles")->u, 1);
    cr_expect_eq(mc_node_attr(m1, "degenerate_triangles")->u, 0);
    const mc_attr *h = mc_node_attr(m0, "influences_histogram");
    cr_assert_not_null(h);
    cr_assert_eq(h->n, 5);
    cr_expect_eq(h->list[2], 3);
    cr_expect_eq(h->list[3], 1);
    cr_expect_eq(mc_node_attr(m0, "influences_max")->u, 3);
    const mc_attr *hi = mc_node_attr(m1, "bbox_max");
    cr_assert_not_null(hi);
    cr_expect_eq(hi->v[2], 7.0);
    mc_inspect_free(in);
}

Test(aem2025, inspect_at_names_header_and_record_fields)
{
    mc_inspect *in = inspect_model();
    static const struct {
        enum aem2025b_section s;
        uint64_t i, field;
        const char *path;
    } cases[] = {{AEM2025B_VERTICES, 0, 40, "/header/track_count"},
                 {AEM2025B_VERTICES, 0, 48, "/header/padding"},
                 {AEM2025B_VERTICES, 3, V_JOINTS + 4, "/vertices/3/joint_indices/1"},
                 {AEM2025B_IMAGE, 7, 0, "/image_buffer"},
                 {AEM2025B_TEXTURES, 2, 28, "/textures/2/compression"},
                 {AEM2025B_MATERIALS, 1, 12, "/materials/1/type"},
                 {AEM2025B_JOINTS, 1, 192, "/joints/1/parent"},
                 {AEM2025B_ANIMATIONS, 0, 128, "/animations/0/duration"},
                 {AEM2025B_TRACKS, 4, 8, "/tracks/4/rotation"},
                 {AEM2025B_KEYFRAMES, 3, 16, "/keyframes/3/w"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        /* the header cases count from the file's start */
        uint64_t o = cases[k].path[1] == 'h' ? cases[k].field : off(cases[k].s, cases[k].i, cases[k].field);
        const mc_location *l = mc_inspect_at(in, 0, o);
        cr_assert_not_null(l, "%s", cases[k].path);
        cr_expect_str_eq(l->path, cases[k].path);
    }
    mc_inspect_free(in);
}

/* The sink changes nothing validation reports: the sample with each byte
 * flipped in turn (same size, so most stay 2025 files with one damaged
 * field) gives the same issues inspected as validated. */
Test(aem2025, inspect_changes_no_issue_on_any_flipped_byte)
{
    write_model();
    for (size_t i = 0; i < b.size; i++) {
        b.data[i] ^= 0x81;
        mc_inspect *in = NULL;
        cr_assert_eq(mc_inspect_memory(b.data, b.size, NULL, &in), MC_OK, "byte %zu", i);
        mc_result *v = validate_buf(b.data, b.size, NULL);
        const mc_result *x = mc_inspect_result(in);
        cr_assert_eq(x->issue_count, v->issue_count, "byte %zu", i);
        for (size_t k = 0; k < x->issue_count; k++) {
            const mc_issue *p = &x->issues[k], *q = &v->issues[k];
            cr_assert_eq(p->code, q->code, "byte %zu", i);
            cr_assert_eq(p->count, q->count, "byte %zu", i);
            for (size_t n = 0; n < p->instance_count && n < q->instance_count; n++) {
                cr_assert_eq(p->instances[n].offset, q->instances[n].offset, "byte %zu", i);
                cr_assert_str_eq(p->instances[n].path, q->instances[n].path, "byte %zu", i);
            }
        }
        mc_result_free(v);
        mc_inspect_free(in);
        b.data[i] ^= 0x81;
    }
}
