/*
 * inspect's geometry from what the validation walk summed (mc_s_walked):
 * meshes of more than 1024 vertices, so that the sums are used, with NaN,
 * infinity, -0 and 0 in the positions, weights of every count, degenerate
 * triangles and (AEM) meshes over runs of vertices that start and end
 * inside the walk's 64-vertex chunks. The box, the influence histogram and
 * the degenerate count of every mesh are computed here again, vertex by
 * vertex, and must be the ones mc_inspect reports (-0 and 0 told apart).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aamf_builder.h"
#include "aem_builder.h"
#include "modelcheck.h"
#include "nlm_builder.h"
#include "semodel_builder.h"

static int failures;

static uint32_t rng = 12345u;

static uint32_t next_rand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* A coordinate: mostly in [-1000, 1000), now and then -0, 0, NaN or infinity. */
static float coord(void)
{
    uint32_t r = next_rand() % 400;
    if (r == 0) return NAN;
    if (r == 1) return INFINITY;
    if (r == 2) return -0.0f;
    if (r == 3) return 0.0f;
    return (float)((int)(next_rand() % 2000000) - 1000000) / 1000.0f;
}

/* A weight: zero (also -0) or not, NaN now and then. */
static float weight(void)
{
    uint32_t r = next_rand() % 10;
    if (r < 3) return 0.0f;
    if (r == 3) return -0.0f;
    if (r == 4 && next_rand() % 50 == 0) return NAN;
    return 0.25f;
}

typedef struct expect {
    double lo[3], hi[3];
    bool boxed;
    uint64_t hist[17];
    unsigned width;
    uint64_t degenerate;
} expect;

static void expect_position(expect *e, const double x[3])
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(x[k])) return;
    for (int k = 0; k < 3; k++) {
        if (!e->boxed || x[k] < e->lo[k]) e->lo[k] = x[k];
        if (!e->boxed || x[k] > e->hi[k]) e->hi[k] = x[k];
    }
    e->boxed = true;
}

static void expect_face(expect *e, uint32_t a, uint32_t b, uint32_t c)
{
    e->degenerate += a == b || b == c || a == c;
}

static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (a == b && signbit(a) == signbit(b));
}

static void check(const char *what, const mc_node *n, const expect *e)
{
    const mc_attr *lo = mc_node_attr(n, "bbox_min"), *hi = mc_node_attr(n, "bbox_max");
    const mc_attr *h = mc_node_attr(n, "influences_histogram");
    const mc_attr *d = mc_node_attr(n, "degenerate_triangles");
    bool ok = (lo != NULL) == e->boxed && (hi != NULL) == e->boxed;
    for (int k = 0; ok && e->boxed && k < 3; k++)
        ok = same_double(lo->v[k], e->lo[k]) && same_double(hi->v[k], e->hi[k]);
    if (!ok) {
        printf("FAIL %s: box (%g %g %g)-(%g %g %g) expected (%g %g %g)-(%g %g %g)\n", what,
               lo ? lo->v[0] : 0, lo ? lo->v[1] : 0, lo ? lo->v[2] : 0, hi ? hi->v[0] : 0,
               hi ? hi->v[1] : 0, hi ? hi->v[2] : 0, e->lo[0], e->lo[1], e->lo[2], e->hi[0],
               e->hi[1], e->hi[2]);
        failures++;
    }
    if (e->width) {
        bool hok = h && h->n == e->width + 1;
        for (size_t k = 0; hok && k < h->n; k++) hok = h->list[k] == e->hist[k];
        if (!hok) {
            printf("FAIL %s: influences histogram", what);
            for (size_t k = 0; h && k < h->n; k++) printf(" %llu", (unsigned long long)h->list[k]);
            printf(", expected");
            for (unsigned k = 0; k <= e->width; k++) printf(" %llu", (unsigned long long)e->hist[k]);
            printf("\n");
            failures++;
        }
    }
    if (!d || d->u != e->degenerate) {
        printf("FAIL %s: %llu degenerate triangles, expected %llu\n", what,
               d ? (unsigned long long)d->u : 0ull, (unsigned long long)e->degenerate);
        failures++;
    }
}

/* The mesh nodes of the tree, in order (at most max). */
static size_t meshes(const mc_node *root, const mc_node **out, size_t max)
{
    size_t n = 0;
    const mc_node *x = root;
    while (x) {
        if (strcmp(x->kind, "mesh") == 0 && n < max) out[n++] = x;
        if (x->first_child) {
            x = x->first_child;
            continue;
        }
        while (x && !x->next) x = x->parent;
        if (x) x = x->next;
    }
    return n;
}

static mc_inspect *inspect(const char *what, mcb_buf *b)
{
    mc_inspect *in = NULL;
    if (b->oom || mc_inspect_memory(b->data, b->size, NULL, &in) != MC_OK) {
        printf("FAIL %s: no inspect\n", what);
        failures++;
        return NULL;
    }
    return in;
}

/* AEM: two meshes over the shared vertices, the first over [70, 3100],
 * the second over [1000, 4999] (the box of the run between a mesh's lowest
 * and highest index, the histogram of the same run). */
static void test_aem(void)
{
    enum { NV = 5001, NI = 4500 };
    aemb_model *m = aemb_sample(AEMB_SKINNED_ANIMATED);
    if (!m || aemb_resize(m, AEMB_VERTICES, NV) || aemb_resize(m, AEMB_INDICES, NI) ||
        aemb_resize(m, AEMB_MESHES, 2)) {
        printf("FAIL aem: builder\n");
        failures++;
        aemb_free(m);
        return;
    }
    aemb_vertex proto = m->vertices[0];
    for (uint32_t v = 0; v < NV; v++) {
        m->vertices[v] = proto;
        for (int k = 0; k < 3; k++) m->vertices[v].position[k] = coord();
        for (int k = 0; k < 4; k++) m->vertices[v].weight[k] = weight();
    }
    const uint32_t range[2][2] = {{70, 3100}, {1000, 4999}};
    for (uint32_t k = 0; k < NI; k++) {
        int s = k >= 3000;
        uint32_t lo = range[s][0], span = range[s][1] - lo + 1, j = k - (s ? 3000 : 0);
        m->indices[k] = j == 0 ? lo : j == 1 ? range[s][1] : lo + (j * 13u + next_rand() % 3) % span;
    }
    m->meshes[0] = (aemb_mesh){0, 3000, 0};
    m->meshes[1] = (aemb_mesh){3000, 1500, 0};
    mcb_buf b = {0};
    aemb_write(m, &b);
    mc_inspect *in = inspect("aem", &b);
    const mc_node *mesh[4];
    if (in && meshes(mc_inspect_root(in), mesh, 4) != 2) {
        printf("FAIL aem: expected 2 meshes\n");
        failures++;
    } else if (in) {
        for (int s = 0; s < 2; s++) {
            expect e = {.width = 4};
            for (uint32_t v = range[s][0]; v <= range[s][1]; v++) {
                const aemb_vertex *x = &m->vertices[v];
                double p[3] = {x->position[0], x->position[1], x->position[2]};
                expect_position(&e, p);
                unsigned k = 0;
                for (int j = 0; j < 4; j++) k += x->weight[j] != 0.0f;
                e.hist[k]++;
            }
            const aemb_mesh *me = &m->meshes[s];
            for (uint32_t t = me->first_index; t + 3 <= me->first_index + me->index_count; t += 3)
                expect_face(&e, m->indices[t], m->indices[t + 1], m->indices[t + 2]);
            check(s ? "aem mesh 1" : "aem mesh 0", mesh[s], &e);
        }
    }
    mc_inspect_free(in);
    free(b.data);
    aemb_free(m);
}

/* NLM: two meshes, each its own vertices. */
static void test_nlm(void)
{
    const uint32_t nv[2] = {3001, 1090}, ni[2] = {3000, 1089};
    nlmb_model *m = nlmb_sample(NLMB_SKINNED_ANIMATED);
    if (!m || nlmb_resize_meshes(m, 2)) {
        printf("FAIL nlm: builder\n");
        failures++;
        nlmb_free(m);
        return;
    }
    nlmb_vertex proto = m->meshes[0].vertices[0];
    for (int s = 0; s < 2; s++) {
        nlmb_mesh *me = &m->meshes[s];
        if (nlmb_resize_mesh(me, nv[s], ni[s])) {
            printf("FAIL nlm: builder\n");
            failures++;
            nlmb_free(m);
            return;
        }
        for (uint32_t v = 0; v < nv[s]; v++) {
            me->vertices[v] = proto;
            for (int k = 0; k < 3; k++) me->vertices[v].position[k] = coord();
            for (int k = 0; k < 4; k++) me->vertices[v].weight[k] = weight();
            /* mesh 1: x is 0 on the first vertex, -0 on every other (the
             * box keeps the first of equal values: 0, whatever the order
             * in which the sums are joined) */
            if (s == 1 && v == 0) me->vertices[v].position[1] = me->vertices[v].position[2] = 1.0f;
            if (s == 1 && isfinite(me->vertices[v].position[0]))
                me->vertices[v].position[0] = v == 0 ? 0.0f : -0.0f;
        }
        for (uint32_t k = 0; k < ni[s]; k++) me->indices[k] = next_rand() % nv[s];
    }
    mcb_buf b = {0};
    nlmb_write(m, &b);
    mc_inspect *in = inspect("nlm", &b);
    const mc_node *mesh[4];
    if (in && meshes(mc_inspect_root(in), mesh, 4) != 2) {
        printf("FAIL nlm: expected 2 meshes\n");
        failures++;
    } else if (in) {
        for (int s = 0; s < 2; s++) {
            const nlmb_mesh *me = &m->meshes[s];
            expect e = {.width = 4};
            for (uint32_t v = 0; v < nv[s]; v++) {
                const nlmb_vertex *x = &me->vertices[v];
                double p[3] = {x->position[0], x->position[1], x->position[2]};
                expect_position(&e, p);
                unsigned k = 0;
                for (int j = 0; j < 4; j++) k += x->weight[j] != 0.0f;
                e.hist[k]++;
            }
            for (uint32_t t = 0; t + 3 <= ni[s]; t += 3)
                expect_face(&e, me->indices[t], me->indices[t + 1], me->indices[t + 2]);
            check(s ? "nlm mesh 1" : "nlm mesh 0", mesh[s], &e);
        }
    }
    mc_inspect_free(in);
    free(b.data);
    nlmb_free(m);
}

/* SAMF: i16 positions, u8 weights. */
static void test_samf(void)
{
    enum { NV = 3001 };
    aamfb_model *m = aamfb_sample(AAMFB_32_BONES, 0);
    if (!m || aamfb_resize_vertices(m, NV)) {
        printf("FAIL samf: builder\n");
        failures++;
        aamfb_free(m);
        return;
    }
    expect e = {.width = 4};
    for (uint32_t v = 0; v < NV; v++) {
        aamfb_svector *p = &m->positions[v];
        p->x = (int16_t)(next_rand() % 65536 - 32768);
        p->y = (int16_t)(next_rand() % 65536 - 32768);
        p->z = (int16_t)(next_rand() % 2001 - 1000);
        unsigned k = 0;
        for (int j = 0; j < 4; j++) {
            m->skin[v].weight[j] = next_rand() % 3 ? 0 : (uint8_t)(1 + next_rand() % 255);
            k += m->skin[v].weight[j] != 0;
        }
        e.hist[k]++;
        double x[3] = {p->x, p->y, p->z};
        expect_position(&e, x);
    }
    for (uint32_t t = 0; t < m->face_count; t++)
        expect_face(&e, m->faces[t][0], m->faces[t][1], m->faces[t][2]);
    mcb_buf b = {0};
    aamfb_write(m, &b);
    mc_inspect *in = inspect("samf", &b);
    const mc_node *mesh[2];
    if (in && meshes(mc_inspect_root(in), mesh, 2) != 1) {
        printf("FAIL samf: expected 1 mesh\n");
        failures++;
    } else if (in) {
        check("samf mesh", mesh[0], &e);
    }
    mc_inspect_free(in);
    free(b.data);
    aamfb_free(m);
}

/* SEModel 2018: three weight slots per vertex, each after its bone index;
 * degenerate faces (counted by the validation's face loop). */
static void test_semodel(void)
{
    enum { NV = 2500, NF = 2000 };
    semb_model *m = semb_sample(SEMB_SKINNED, SEMB_2018);
    semb_mesh *s = m ? semb_add_mesh(m, NV, NF, 0, 3) : NULL;
    if (!s) {
        printf("FAIL semodel: builder\n");
        failures++;
        semb_free(m);
        return;
    }
    expect e = {.width = 3};
    for (uint32_t v = 0; v < NV; v++) {
        for (int k = 0; k < 3; k++) s->position[v][k] = coord();
        unsigned n = 0;
        for (int j = 0; j < 3; j++) {
            s->weight[v * 3 + j] = weight();
            n += s->weight[v * 3 + j] != 0.0f;
        }
        e.hist[n]++;
        double x[3] = {s->position[v][0], s->position[v][1], s->position[v][2]};
        expect_position(&e, x);
    }
    for (uint32_t t = 0; t < NF; t++) {
        if (t % 97 == 5) s->face[t][2] = s->face[t][0];
        expect_face(&e, s->face[t][0], s->face[t][1], s->face[t][2]);
    }
    mcb_buf b = {0};
    semb_write(m, &b);
    mc_inspect *in = inspect("semodel", &b);
    const mc_node *mesh[8];
    size_t n = in ? meshes(mc_inspect_root(in), mesh, 8) : 0;
    if (in && n == 0) {
        printf("FAIL semodel: no mesh\n");
        failures++;
    } else if (in) {
        check("semodel mesh", mesh[n - 1], &e);
    }
    mc_inspect_free(in);
    free(b.data);
    semb_free(m);
}

int main(void)
{
    test_aem();
    test_nlm();
    test_samf();
    test_semodel();
    if (failures) return 1;
    printf("inspect_walked: AEM, NLM, SAMF, SEModel geometry equal to a vertex-by-vertex count\n");
    return 0;
}
