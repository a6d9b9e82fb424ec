/*
 * Wavefront OBJ form of a static scene: one `o` per mesh node, positions
 * and normals in world space (node transforms baked, winding kept front
 * facing under mirroring), `vt` with v flipped (OBJ's origin is bottom
 * left, glTF's top left), `l` for lines, `p` for points; no .mtl.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_scene.h"

static void normal_matrix(const float *m, float nm[16])
{
    float inv[16];
    memset(nm, 0, 16 * sizeof *nm);
    nm[15] = 1;
    if (mcs_mat_invert(m, inv) != 0) return;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) nm[c * 4 + r] = inv[r * 4 + c];
}

static int mirrored(const float *m)
{
    double det = m[0] * ((double)m[5] * m[10] - (double)m[9] * m[6]) -
                 m[4] * ((double)m[1] * m[10] - (double)m[9] * m[2]) +
                 m[8] * ((double)m[1] * m[6] - (double)m[5] * m[2]);
    return det < 0;
}

static void put_prim(FILE *f, const mcs_prim *p, const float *m, unsigned long base[3])
{
    float nm[16];
    normal_matrix(m, nm);
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        float q[3];
        mcs_mat_point(m, p->pos + (size_t)v * 3, q);
        fprintf(f, "v %.9g %.9g %.9g\n", q[0], q[1], q[2]);
        if (p->uv) fprintf(f, "vt %.9g %.9g\n", p->uv[v * 2], 1.0 - p->uv[v * 2 + 1]);
        if (p->nrm) {
            mcs_mat_dir(nm, p->nrm + (size_t)v * 3, q);
            float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
            if (l > 0) q[0] /= l, q[1] /= l, q[2] /= l;
            fprintf(f, "vn %.9g %.9g %.9g\n", q[0], q[1], q[2]);
        }
    }
    uint32_t n = p->indices ? p->index_count : p->vertex_count;
    int per = p->mode == MCS_TRIANGLES ? 3 : p->mode == MCS_LINES ? 2 : 1;
    int flip = per == 3 && mirrored(m);
    for (uint32_t k = 0; k + (uint32_t)per <= n; k += (uint32_t)per) {
        fputs(per == 3 ? "f" : per == 2 ? "l" : "p", f);
        for (int e = 0; e < per; e++) {
            int src = flip ? (e == 0 ? 0 : 3 - e) : e;
            unsigned long at = (p->indices ? p->indices[k + (uint32_t)src] : k + (uint32_t)src) + 1;
            unsigned long i = base[0] + at, t = base[1] + at, nn = base[2] + at;
            if (per == 3 && p->uv && p->nrm) fprintf(f, " %lu/%lu/%lu", i, t, nn);
            else if (per == 3 && p->nrm) fprintf(f, " %lu//%lu", i, nn);
            else if (per == 3 && p->uv) fprintf(f, " %lu/%lu", i, t);
            else fprintf(f, " %lu", i);
        }
        fputc('\n', f);
    }
    base[0] += p->vertex_count;
    if (p->uv) base[1] += p->vertex_count;
    if (p->nrm) base[2] += p->vertex_count;
}

int mcs_write_obj(const mcs_scene *s, const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    float *g = malloc(((size_t)s->node_count + 1) * 16 * sizeof *g);
    FILE *f = g ? fopen(path, "wb") : NULL;
    if (!f) return free(g), -1;
    mcs_node_globals(s, -1, 0, g);
    fprintf(f, "# %s: %s (modelcheck scenes)\n", s->name, s->feature);
    unsigned long base[3] = {0, 0, 0};
    for (uint32_t i = 0; i < s->node_count; i++) {
        if (s->nodes[i].mesh < 0) continue;
        const mcs_mesh *mesh = &s->meshes[s->nodes[i].mesh];
        fprintf(f, "o %s\n", s->nodes[i].name[0] ? s->nodes[i].name : "unnamed");
        for (uint32_t p = 0; p < mesh->prim_count; p++) put_prim(f, &mesh->prims[p], g + i * 16, base);
    }
    free(g);
    int rc = ferror(f) ? -1 : 0;
    if (fclose(f) != 0) rc = -1;
    return rc;
}
