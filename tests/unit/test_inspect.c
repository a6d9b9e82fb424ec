/*
 * mc_inspect (issue 27): the tree the AEM walk reports, the one offset to
 * path mapping, and that attaching the sink changes nothing validation
 * reports (same issues, offsets and paths) on every cut of a sample.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "support.h"

static mcb_buf b;
static aemb_model *m;
static mc_inspect *in;

static void setup(void)
{
    m = aemb_sample(AEMB_SKINNED_ANIMATED);
    cr_assert_not_null(m);
    memset(&b, 0, sizeof b);
    aemb_write(m, &b);
    cr_assert(!b.oom);
    in = NULL;
}

static void teardown(void)
{
    mc_inspect_free(in);
    mcb_free(&b);
    aemb_free(m);
}

TestSuite(inspect, .init = setup, .fini = teardown);

static const mc_node *child(const mc_node *n, const char *name)
{
    for (const mc_node *k = n->first_child; k; k = k->next)
        if (strcmp(k->name, name) == 0) return k;
    return NULL;
}

Test(inspect, aem_tree_has_sections_records_and_attributes)
{
    cr_assert_eq(mc_inspect_memory(b.data, b.size, NULL, &in), MC_OK);
    const mc_node *root = mc_inspect_root(in);
    cr_expect_str_eq(root->kind, "file");
    cr_expect_eq(root->size, b.size);
    const mc_node *v = child(root, "vertices");
    cr_assert_not_null(v);
    cr_expect_eq(v->offset, aemb_offset(m, AEMB_VERTICES, 0));
    cr_expect_eq(v->count, 8);
    cr_expect_eq(v->stride, 92);
    const mc_node *meshes = child(root, "meshes");
    cr_assert_not_null(meshes);
    const mc_node *m0 = child(meshes, "0");
    cr_assert_not_null(m0);
    /* the sample's mesh 0: vertices 0..3, two influences each */
    const mc_attr *h = mc_node_attr(m0, "influences_histogram");
    cr_assert_not_null(h);
    cr_assert_eq(h->n, 5);
    cr_expect_eq(h->list[2], 4);
    cr_expect_eq(mc_node_attr(m0, "influences_max")->u, 2);
    cr_expect_eq(mc_node_attr(m0, "vertex_first")->u, 0);
    cr_expect_eq(mc_node_attr(m0, "vertex_last")->u, 3);
    cr_expect_str_eq(m0->kind, "mesh");
    cr_expect_eq(mc_node_attr(m0, "triangles")->u, 2);
    cr_expect_eq(mc_node_attr(m0, "degenerate_triangles")->u, 0);
    cr_expect_not_null(mc_node_attr(m0, "bbox_min"));
    const mc_node *bones = child(root, "bones");
    cr_assert_not_null(bones);
    cr_expect_eq(mc_node_attr(child(bones, "2"), "parent")->i, 1);
    char path[64];
    cr_expect_str_eq(mc_node_path(m0, path, sizeof path), "/meshes/0");
    cr_expect_str_eq(mc_node_path(root, path, sizeof path), "/");
    cr_expect_eq(mc_inspect_space_count(in), 1);
    cr_expect(mc_result_valid(mc_inspect_result(in)));
}

Test(inspect, at_names_element_field_and_field_element)
{
    cr_assert_eq(mc_inspect_memory(b.data, b.size, NULL, &in), MC_OK);
    uint64_t w = aemb_offset(m, AEMB_VERTICES, 3) + 72 + 4 * 2; /* vertex 3, weights[2] */
    const mc_location *l = mc_inspect_at(in, 0, w);
    cr_assert_not_null(l);
    cr_expect_str_eq(l->path, "/vertices/3/weights/2");
    cr_expect_eq(l->element, 3);
    cr_expect_str_eq(l->field->name, "weights");
    cr_expect_eq(l->field_element, 2);
    cr_expect_eq(l->record_offset, aemb_offset(m, AEMB_VERTICES, 3));
    cr_expect_eq(l->record_size, 92);
    l = mc_inspect_at(in, 0, 3);
    cr_expect_str_eq(l->path, "/header/version");
    l = mc_inspect_at(in, 0, aemb_offset(m, AEMB_MESHES, 1) + 8);
    cr_expect_str_eq(l->path, "/meshes/1/material");
    cr_expect_null(mc_inspect_at(in, 0, b.size));
    cr_expect_null(mc_inspect_at(in, 1, 0));
}

static void same_issues(const mc_result *x, const mc_result *y, size_t cut)
{
    cr_assert_eq(x->issue_count, y->issue_count, "cut %zu", cut);
    for (size_t i = 0; i < x->issue_count; i++) {
        const mc_issue *p = &x->issues[i], *q = &y->issues[i];
        cr_assert_eq(p->code, q->code, "cut %zu", cut);
        cr_assert_eq(p->count, q->count, "cut %zu", cut);
        cr_assert_eq(p->instance_count, q->instance_count, "cut %zu", cut);
        for (size_t k = 0; k < p->instance_count; k++) {
            cr_assert_eq(p->instances[k].offset, q->instances[k].offset, "cut %zu", cut);
            cr_assert_str_eq(p->instances[k].path, q->instances[k].path, "cut %zu", cut);
            cr_assert_str_eq(p->instances[k].message, q->instances[k].message, "cut %zu", cut);
        }
    }
}

/* Every prefix of the sample: inspect never fails, keeps a root, and its
 * walk reports what validation reports. */
Test(inspect, sink_changes_no_issue_on_any_cut)
{
    for (size_t n = 0; n <= b.size; n++) {
        mc_inspect *x = NULL;
        cr_assert_eq(mc_inspect_memory(b.data, n, NULL, &x), MC_OK, "cut %zu", n);
        cr_assert_not_null(mc_inspect_root(x));
        mc_result *r = validate_buf(b.data, n, NULL);
        same_issues(mc_inspect_result(x), r, n);
        char *json = mc_inspect_json(x);
        cr_assert_not_null(json);
        free(json);
        mc_result_free(r);
        mc_inspect_free(x);
    }
}

Test(inspect, null_arguments)
{
    cr_expect_eq(mc_inspect_memory(NULL, 1, NULL, &in), MC_ERR_INVALID_ARG);
    cr_expect_eq(mc_inspect_memory(b.data, b.size, NULL, NULL), MC_ERR_INVALID_ARG);
    cr_expect_null(mc_inspect_root(NULL));
    cr_expect_null(mc_inspect_at(NULL, 0, 0));
    mc_inspect_free(NULL);
}
