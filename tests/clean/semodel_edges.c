/*
 * SEModel files for the clean paths' edges (issue 16): both layouts, every
 * influence count the clean paths give a copy of (1, 2, 4, 8) and one they
 * do not (3), bone_t of 1, 2 and 4 bytes, with and without UV layers and
 * colours. Each holds a few chunks of 1,024 vertices (and a part chunk)
 * whose records sit on the edges of the exact checks: weights a few ulps
 * from the sum tolerance, -0, subnormal, above 1, negative or NaN; normals
 * just inside and outside 1 +- unit_tolerance, zero, or with an infinite,
 * NaN or subnormal half; NaN and infinite positions and UVs; bone, material
 * and face indices out of range. In the "sparse" files one record in about
 * 400 is such a record, so that most chunks hold one or none and a clean
 * path that vouches for a chunk with one in it is seen; in the "dense"
 * ones one in 25; in the "single" ones every chunk holds exactly one, of a
 * kind drawn per chunk, and nothing else on an edge. The "sparse-weights"
 * files have no normals: a draft chunk is judged field by field and stops
 * at the first field in doubt, so only there do the weights of most
 * chunks reach the weight clean path. In the "at-tolerance" ones every
 * chunk holds one weight record whose sum misses 1 by 0.3% more (most) or
 * less than the tolerance, and nothing else on an edge.
 *
 * Deterministic: a fixed seed per file.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "semodel_builder.h"
#include "semodel_edges.h"

static uint64_t edge_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15)); /* splitmix64 */
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double edge_unit(uint64_t *s)
{
    return (double)(edge_next(s) >> 11) * 0x1p-53;
}

/* A draw that picks an edge when below its share (times rate); rate 0
 * picks none. */
static double edge_draw(uint64_t *s, double rate)
{
    double u = edge_unit(s);
    return rate > 0.0 ? u / rate : 1.0;
}

static uint32_t edge_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(edge_next(s) % n);
}

/* A unit normal, or one of its edges (rate: the share of edge records). */
static void edge_normal(uint64_t *s, double rate, float n[3])
{
    double x = edge_unit(s) - 0.5, y = edge_unit(s) - 0.5, z = edge_unit(s) - 0.5;
    double len = sqrt(x * x + y * y + z * z), scale = 1.0, e = edge_draw(s, rate);
    if (len < 1e-3) x = 1.0, len = 1.0;
    if (e < 0.010)
        scale = 1.0 + 0.00674 * (1.0 + (edge_unit(s) - 0.5) * 1e-3); /* the default tolerance's edge */
    else if (e < 0.020)
        scale = 1.0 - 0.00674 * (1.0 + (edge_unit(s) - 0.5) * 1e-3);
    else if (e < 0.025)
        scale = 0.0;
    n[0] = (float)(x / len * scale), n[1] = (float)(y / len * scale), n[2] = (float)(z / len * scale);
    if (e >= 0.025 && e < 0.030) n[0] = 0.0f, n[1] = 0.0f, n[2] = -1.0f;
    else if (e >= 0.030 && e < 0.033) n[edge_below(s, 3)] = INFINITY;
    else if (e >= 0.033 && e < 0.036) n[edge_below(s, 3)] = NAN;
    else if (e >= 0.036 && e < 0.040) n[edge_below(s, 3)] = 3e-6f; /* a subnormal half in the draft */
}

/* Two non-zero weights whose exact sum misses 1 by the default sum
 * tolerance (2 x 2e-7 for floats, 2 x 1/2048 for halves) times 1 + delta:
 * w[0] just below 1 (ulps of 2^-24, or 2^-11 for halves), w[1] a small
 * weight, whose fine ulps place the sum; the exact check's double sum of
 * the two is exact. */
static void edge_at_tolerance(bool draft, unsigned inf, double delta, float *w)
{
    double ulp = draft ? 0x1p-11 : 0x1p-24, miss = (draft ? 2.0 / 2048.0 : 4e-7) * (1.0 + delta);
    double m = floor(miss / ulp) + 1.0;
    for (unsigned j = 0; j < inf; j++) w[j] = 0.0f;
    w[0] = (float)(1.0 - m * ulp);
    w[1] = (float)(m * ulp - miss);
}

/* A sum that needs its second weight's share of the tolerance, that weight
 * subnormal (a float in the 2018 layout, a half in the draft): under
 * denormals-are-zero the exact check counts one weight, not two, and
 * reports the sum. */
static void edge_subnormal_partner(bool draft, unsigned inf, float *w)
{
    for (unsigned j = 0; j < inf; j++) w[j] = 0.0f;
    w[0] = draft ? (float)(1.0 - 0x1p-10) : (float)(1.0 - 3e-7);
    w[1] = draft ? 3e-6f : 1e-40f;
}

/* inf weights summing to 1 as floats do (a few ulps off), or an edge. */
static void edge_weights(uint64_t *s, double rate, bool draft, unsigned inf, uint32_t bones,
                         float *w, uint32_t *bone)
{
    unsigned k = 1 + edge_below(s, inf);
    double raw[8] = {0}, sum = 0.0;
    for (unsigned j = 0; j < k; j++) sum += raw[j] = edge_unit(s) + 0.01;
    for (unsigned j = 0; j < inf; j++) {
        w[j] = (float)(raw[j] / sum);
        bone[j] = edge_below(s, bones);
    }
    if (draft && edge_unit(s) < 0.3) { /* halves that sum to 1 exactly */
        unsigned a = edge_below(s, inf);
        for (unsigned j = 0; j < inf; j++) w[j] = 0.0f;
        w[a] = inf > 1 ? 0.75f : 1.0f;
        if (inf > 1) w[(a + 1) % inf] = 0.25f;
    }
    double e = edge_draw(s, rate);
    unsigned j = edge_below(s, inf);
    if (e < 0.005) w[j] = -0.0f;
    else if (e < 0.010) w[j] = 1e-6f; /* a subnormal half in the draft */
    else if (e < 0.012) w[j] = 1.0000001f;
    else if (e < 0.014) w[j] = NAN;
    else if (e < 0.016) w[j] = -0.25f;
    else if (e < 0.018) bone[j] = bones + edge_below(s, 3);
    else if (e < 0.030) for (unsigned q = 1 + edge_below(s, 10); q; q--) w[j] = nextafterf(w[j], 2.0f);
    else if (e < 0.040) for (unsigned q = 1 + edge_below(s, 10); q; q--) w[j] = nextafterf(w[j], -1.0f);
    else if (draft && e < 0.050) w[j] += (float)((edge_unit(s) - 0.5) * 0.004); /* the half tolerance */
    else if (inf >= 2 && e < 0.080) edge_at_tolerance(draft, inf, (edge_unit(s) - 0.5) * 0.02, w);
}

static void edge_vertex(uint64_t *s, double rate, bool draft, semb_mesh *m, uint32_t v,
                        unsigned inf, uint32_t bones)
{
    for (int k = 0; k < 3; k++) m->position[v][k] = (float)(edge_unit(s) * 100.0 - 50.0);
    double e = edge_draw(s, rate);
    if (e < 0.004) m->position[v][edge_below(s, 3)] = e < 0.002 ? NAN : -INFINITY;
    for (unsigned l = 0; l < m->nlayers; l++) {
        float *uv = m->uv + ((size_t)v * m->nlayers + l) * 2;
        uv[0] = (float)edge_unit(s), uv[1] = (float)edge_unit(s);
        if (edge_draw(s, rate) < 0.003) uv[edge_below(s, 2)] = INFINITY;
        if (m->uv_material) m->uv_material[(size_t)v * m->nlayers + l] = edge_draw(s, rate) < 0.003 ? 3 : edge_below(s, 3);
    }
    if (m->normal) edge_normal(s, rate, m->normal[v]);
    if (inf) edge_weights(s, rate, draft, inf, bones, m->weight + (size_t)v * inf, m->bone + (size_t)v * inf);
    uint32_t n = m->nvertices;
    m->face[v][0] = v, m->face[v][1] = (v + 1) % n, m->face[v][2] = (v + 2) % n;
    if (edge_draw(s, rate) < 0.002) m->face[v][edge_below(s, 3)] = edge_unit(s) < 0.5 ? n : m->face[v][0] + 1;
}

/* The one edge record of a chunk in the "single" files. */
static void edge_single(uint64_t *s, bool draft, semb_mesh *m, uint32_t v, unsigned inf, uint32_t bones)
{
    float *w = m->weight + (size_t)v * inf;
    unsigned j = edge_below(s, inf ? inf : 1), k = edge_below(s, 3);
    switch (edge_below(s, 15)) {
    case 0: m->position[v][k] = NAN; break;
    case 1: m->position[v][k] = INFINITY; break;
    case 2:
        if (m->nlayers) m->uv[(size_t)v * m->nlayers * 2 + edge_below(s, 2 * m->nlayers)] = -INFINITY;
        else m->position[v][k] = -INFINITY;
        break;
    case 3: for (int q = 0; q < 3; q++) m->normal[v][q] *= 1.0068f; break;
    case 4: m->normal[v][k] = INFINITY; break;
    case 5: m->normal[v][0] = m->normal[v][1] = m->normal[v][2] = 0.0f; break;
    case 6: m->normal[v][0] = 3e-6f, m->normal[v][1] = 0.0f, m->normal[v][2] = 1.0f; break;
    case 7: if (inf) w[j] = -0.0f; break;
    case 8: if (inf) w[j] = 1e-6f; break;
    case 9: for (int q = 0; q < 10 && inf; q++) w[j] = nextafterf(w[j], 2.0f); break;
    case 10: if (inf >= 2) edge_at_tolerance(draft, inf, edge_unit(s) < 0.5 ? 0.003 : -0.003, w); break;
    case 11: if (inf) m->bone[(size_t)v * inf + j] = bones; break;
    case 12: m->face[v][k] = m->nvertices; break;
    case 13: if (inf >= 2) edge_subnormal_partner(draft, inf, w); break;
    default: if (m->nlayers) m->uv_material[(size_t)v * m->nlayers] = 3; break;
    }
}

/* One file; 0 on success. */
static int edge_file(bool draft, unsigned inf, uint32_t bones, int kind, semodel_edge_fn *fn, void *ctx)
{
    char name[96];
    snprintf(name, sizeof name, "semodel-edges-%s-inf%u-bones%u-%s", draft ? "draft" : "2018", inf, bones,
             kind == 0 ? "sparse" : kind == 1 ? "sparse-uv-color" : kind == 2 ? "dense" : kind == 3 ? "single" : kind == 4 ? "sparse-weights" : "at-tolerance");
    uint64_t seed = 0;
    for (const char *p = name; *p; p++) seed = seed * 131 + (unsigned char)*p;
    semb_model *m = semb_new(draft ? SEMB_DRAFT : SEMB_2018);
    if (!m || semb_set_bones(m, bones) != 0) {
        semb_free(m);
        return -1;
    }
    bool uv = kind == 1 || (kind == 3 && (inf & 1));
    m->mesh_flags = uv ? (SEMB_UVSET | SEMB_NORMALS | SEMB_COLOR | SEMB_WEIGHTS)
                       : kind == 4 ? SEMB_WEIGHTS : (SEMB_NORMALS | SEMB_WEIGHTS);
    uint8_t layers = uv ? 2 : 0;
    if (layers && semb_set_materials(m, 3) != 0) {
        semb_free(m);
        return -1;
    }
    if (draft) m->max_influence = (uint8_t)inf;
    uint32_t vertices = 2100 + edge_below(&seed, 200);
    semb_mesh *mesh = semb_add_mesh(m, vertices, vertices, layers, (uint8_t)inf);
    if (!mesh) {
        semb_free(m);
        return -1;
    }
    double rate = kind == 2 ? 1.0 : kind >= 3 && kind != 4 ? 0.0 : 0.06;
    for (uint32_t v = 0; v < vertices; v++) edge_vertex(&seed, rate, draft, mesh, v, inf, bones);
    for (uint32_t v0 = 0; kind == 3 && v0 < vertices; v0 += 1024)
        edge_single(&seed, draft, mesh, v0 + edge_below(&seed, vertices - v0 < 1024 ? vertices - v0 : 1024), inf, bones);
    for (uint32_t v0 = 0; kind == 5 && inf >= 2 && v0 < vertices; v0 += 1024) {
        uint32_t v = v0 + edge_below(&seed, vertices - v0 < 1024 ? vertices - v0 : 1024);
        if (v0 / 1024 % 2) /* every other chunk: the subnormal partner instead */
            edge_subnormal_partner(draft, inf, mesh->weight + (size_t)v * inf);
        else
            edge_at_tolerance(draft, inf, edge_unit(&seed) < 0.7 ? 0.003 : -0.003, mesh->weight + (size_t)v * inf);
    }
    mcb_buf b = {0};
    semb_write(m, &b);
    semb_free(m);
    int rc = b.oom ? -1 : 0;
    if (!rc) fn(ctx, name, b.data, b.size);
    mcb_free(&b);
    return rc;
}

int semodel_edges_each(semodel_edge_fn *fn, void *ctx)
{
    static const unsigned infs[] = {1, 2, 3, 4, 8};
    static const uint32_t bones[] = {3, 300};
    int rc = 0;
    for (int draft = 0; draft < 2; draft++) {
        for (size_t i = 0; i < sizeof infs / sizeof *infs; i++)
            for (size_t k = 0; k < sizeof bones / sizeof *bones; k++)
                for (int kind = 0; kind < 6; kind++)
                    if (edge_file(draft, infs[i], bones[k], kind, fn, ctx) != 0) rc = -1;
        /* u32 bone_t: more than 65,535 bones */
        if (edge_file(draft, 2, 70000, 0, fn, ctx) != 0) rc = -1;
    }
    return rc;
}
