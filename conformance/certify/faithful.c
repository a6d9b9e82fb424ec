/*
 * Faithfulness: does the model the reference loader made of an exporter's
 * output hold what the source scene holds? Compared, within the format's
 * precision (mcs_caps): the triangle set in bind-pose model space
 * (positions, and normals, UVs and vertex colours where the format keeps
 * them: colours per scene triangle corner, RGB alone where it has no
 * alpha), line
 * segments where it keeps lines, the bones (by name where the format keeps
 * names, else by bind position) with their parent relation, every skinned
 * vertex's weights by bone (pruned to the format's influence limit and
 * renormalised), the animations (count, names) and the skinning matrices
 * at sampled times: where the model gives its animations a time unit (AEM's
 * seconds, NLM's ticks per second) at the same times, with durations; where
 * it does not (SAMF's and E3D's frames, no rate) at the same fractions of
 * the animation's length, its frames read as covering [0, T] or, looping,
 * [0, T), without durations (compare_pose).
 *
 * Triangles are matched without regard to vertex order, index width,
 * splitting or merging of meshes: both sets are sorted by centroid x and
 * each scene triangle looks for an unused model triangle within tolerance,
 * in any rotation of its corners (a reversed one counts as flipped).
 * Degenerate scene triangles may be dropped.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_exporter.h"

void mcx_find(mcx_findings *f, const char *fmt, ...)
{
    if (f->count < MCX_MAX_FINDINGS) {
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        f->items[f->count] = mcc_clean_text((const unsigned char *)buf, strlen(buf));
    }
    f->count++;
}

void mcx_findings_free(mcx_findings *f)
{
    for (unsigned i = 0; i < f->count && i < MCX_MAX_FINDINGS; i++) free(f->items[i]);
    memset(f, 0, sizeof *f);
}

/* A name for a finding: at most 40 bytes (cut at a character), "..." after. */
static const char *shown(const char *name, char buf[48])
{
    size_t len = strlen(name);
    if (len <= 40) return name;
    len = 40;
    while (len > 0 && ((unsigned char)name[len] & 0xC0) == 0x80) len--;
    memcpy(buf, name, len);
    memcpy(buf + len, "...", 4);
    return buf;
}

/* ---- the model's side ------------------------------------------------------- */

typedef struct mvert {
    float pos[3], nrm[3], uv[2], color[4];
    int has_nrm, has_uv, has_color;
    int influences;
    int bone[8];   /* fact bone, -1 when the model bone matches none */
    float weight[8];
    uint32_t model_bone[8];
} mvert;

typedef struct mtri {
    mvert v[3];
    float cx;
    int used;
} mtri;

static int by_cx(const void *a, const void *b)
{
    float x = ((const mtri *)a)->cx, y = ((const mtri *)b)->cx;
    return x < y ? -1 : x > y;
}

static void model_vertex(const mcl_model *m, const mcl_mesh *me, uint32_t v, const float *rest_skin,
                         const int *bone_map, mvert *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->pos, me->positions + (size_t)v * 3, sizeof out->pos);
    if (me->normals) memcpy(out->nrm, me->normals + (size_t)v * 3, sizeof out->nrm), out->has_nrm = 1;
    if (me->uv_layer_count) memcpy(out->uv, me->uvs + (size_t)v * 2, sizeof out->uv), out->has_uv = 1;
    if (me->colors) memcpy(out->color, me->colors + (size_t)v * 4, sizeof out->color), out->has_color = 1;
    if (me->rigid_bone >= 0 && (uint32_t)me->rigid_bone < m->bone_count) {
        /* the rigid bone's rest skinning matrix places the mesh (identity when consistent) */
        mcs_mat_point(rest_skin + (size_t)me->rigid_bone * 16, out->pos, out->pos);
        if (out->has_nrm) mcs_mat_dir(rest_skin + (size_t)me->rigid_bone * 16, out->nrm, out->nrm);
    }
    for (uint32_t k = 0; k < me->influences && out->influences < 8; k++) {
        float w = me->weights[(size_t)v * me->influences + k];
        if (!(w > 0)) continue;
        uint32_t b = me->joints[(size_t)v * me->influences + k];
        out->model_bone[out->influences] = b;
        out->bone[out->influences] = b < m->bone_count ? bone_map[b] : -1;
        out->weight[out->influences++] = w;
    }
}

/* Every triangle of every triangle mesh; lines into *lines (6 floats each). */
static mtri *model_triangles(const mcl_model *m, const float *rest_skin, const int *bone_map,
                             size_t *count, float **lines, size_t *line_count)
{
    size_t n = 0, nl = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (m->meshes[i].primitive == MCL_TRIANGLES) n += m->meshes[i].index_count / 3;
        else nl += m->meshes[i].index_count / 2;
    }
    mtri *t = calloc(n + 1, sizeof *t);
    *lines = calloc(nl * 6 + 1, sizeof **lines);
    if (!t || !*lines) {
        free(t), free(*lines);
        *lines = NULL;
        return NULL;
    }
    size_t k = 0, l = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const mcl_mesh *me = &m->meshes[i];
        if (me->primitive == MCL_LINES) {
            for (uint32_t j = 0; j + 1 < me->index_count; j += 2, l++)
                for (int e = 0; e < 2; e++)
                    memcpy(*lines + l * 6 + e * 3, me->positions + (size_t)me->indices[j + (uint32_t)e] * 3,
                           3 * sizeof(float));
            continue;
        }
        for (uint32_t j = 0; j + 2 < me->index_count; j += 3, k++) {
            for (int e = 0; e < 3; e++)
                model_vertex(m, me, me->indices[j + (uint32_t)e], rest_skin, bone_map, &t[k].v[e]);
            t[k].cx = (t[k].v[0].pos[0] + t[k].v[1].pos[0] + t[k].v[2].pos[0]) / 3;
        }
    }
    *count = k;
    *line_count = l;
    return t;
}

/* ---- bones ------------------------------------------------------------------- */

static float dist3(const float *a, const float *b)
{
    float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* bone_map[model bone] = fact bone or -1; fact_of[fact bone] = model bone or -1. */
/* skins[b]: some vertex carries weight on model bone b. */
static void skinning_bones(const mcl_model *m, unsigned char *skins)
{
    memset(skins, 0, (size_t)m->bone_count + 1);
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const mcl_mesh *me = &m->meshes[i];
        for (size_t k = 0; k < (size_t)me->vertex_count * me->influences; k++)
            if (me->weights[k] > 0 && me->joints[k] < m->bone_count) skins[me->joints[k]] = 1;
    }
}

/* Does a model bone name stand for the scene's? Equal, or where the format
 * cuts names (AEM 2025's 128-byte fields) the scene's cut to the field, at
 * most 3 bytes short of it (a cut at a UTF-8 character boundary). */
static int bone_name_is(const mcs_caps *caps, const char *model, const char *scene)
{
    if (strcmp(model, scene) == 0) return 1;
    size_t len = strlen(model), field = caps->bone_name_bytes;
    return field && len <= field && len + 3 >= field && strlen(scene) > field && strncmp(model, scene, len) == 0;
}

static void match_bones(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, uint32_t skip,
                        const float *rest_global, int *bone_map, int *model_of, mcx_findings *out)
{
    for (uint32_t b = 0; b < m->bone_count; b++) bone_map[b] = -1;
    for (uint32_t k = 0; k < f->bone_count; k++) model_of[k] = -1;
    unsigned char *skins = calloc((size_t)m->bone_count + 1, 1);
    if (!skins) {
        mcx_find(out, "out of memory comparing the output with the scene");
        return;
    }
    skinning_bones(m, skins);
    double tol = caps->position_tol * 4 + 1e-4;
    for (uint32_t k = 0; k < f->bone_count; k++) {
        const mcs_fbone *fb = &f->bones[k];
        int found = -1;
        if (caps->bone_names && fb->name[0]) {
            for (uint32_t b = skip; b < m->bone_count && found < 0; b++)
                if (bone_map[b] < 0 && bone_name_is(caps, m->bones[b].name, fb->name)) found = (int)b;
        }
        if (found < 0) {
            /* the nearest; on a tie a bone that skins vertices (an exporter's
             * added roots and mesh nodes often sit where a joint does) */
            float best = (float)tol * 1.0001f;
            for (uint32_t b = skip; b < m->bone_count; b++) {
                float d = dist3(rest_global + (size_t)b * 16 + 12, fb->bind + 12);
                if (bone_map[b] >= 0 || d > best + 1e-6f) continue;
                if (found < 0 || d < best - 1e-6f || (skins[b] && !skins[found])) best = d < best ? d : best, found = (int)b;
            }
        }
        if (found < 0) {
            char nb[48];
            mcx_find(out, "bone '%s' (bind position %g %g %g) lost", shown(fb->name, nb), fb->bind[12], fb->bind[13],
                     fb->bind[14]);
            continue;
        }
        bone_map[found] = (int)k;
        model_of[k] = found;
        char na[48], nb[48];
        if (caps->bone_names && fb->name[0] && !bone_name_is(caps, m->bones[found].name, fb->name))
            mcx_find(out, "bone '%s': name changed to '%s'", shown(fb->name, na), shown(m->bones[found].name, nb));
    }
    for (uint32_t k = 0; k < f->bone_count; k++) {
        if (model_of[k] < 0) continue;
        /* the nearest model ancestor that is a scene bone: exporters may add bones */
        int p = m->bones[model_of[k]].parent;
        uint32_t guard = 0;
        while (p >= 0 && bone_map[p] < 0 && guard++ < m->bone_count) p = m->bones[p].parent;
        int got = p >= 0 ? bone_map[p] : -1, want = f->bones[k].parent;
        char na[48], nb[48], nc[48];
        if (got != want)
            mcx_find(out, "bone '%s': parent is '%s' (expected '%s')", shown(f->bones[k].name, na),
                     got >= 0 ? shown(f->bones[got].name, nb) : "(none)",
                     want >= 0 ? shown(f->bones[want].name, nc) : "(none)");
    }
    free(skins);
}

/* ---- triangles ------------------------------------------------------------------ */

static int near3(const float *a, const float *b, double tol)
{
    return fabsf(a[0] - b[0]) <= tol && fabsf(a[1] - b[1]) <= tol && fabsf(a[2] - b[2]) <= tol;
}

/* Rotation r of the model triangle's corners matching the fact's (0..2),
 * 3..5 for the reversed order, -1 none. */
static int corners_match(const mcs_fvertex *fv, const mtri *t, double tol)
{
    static const int order[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    for (int r = 0; r < 6; r++) {
        int ok = 1;
        for (int e = 0; e < 3 && ok; e++) ok = near3(fv[e].pos, t->v[order[r][e]].pos, tol);
        if (ok) return r;
    }
    return -1;
}

static int degenerate(const mcs_fvertex *v)
{
    float a[3], b[3], c[3];
    for (int k = 0; k < 3; k++) a[k] = v[1].pos[k] - v[0].pos[k], b[k] = v[2].pos[k] - v[0].pos[k];
    c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2], c[2] = a[0] * b[1] - a[1] * b[0];
    return c[0] * c[0] + c[1] * c[1] + c[2] * c[2] < 1e-12f;
}

static int model_degenerate(const mtri *t)
{
    mcs_fvertex v[3];
    for (int e = 0; e < 3; e++) memcpy(v[e].pos, t->v[e].pos, sizeof v[e].pos);
    return degenerate(v);
}

/* The expected weights of a scene vertex in a format of `limit` influences:
 * the largest `limit`, renormalised. */
static int expected_weights(const mcs_fvertex *v, uint32_t limit, int *bone, float *w)
{
    int idx[8], n = v->influences;
    for (int i = 0; i < n; i++) idx[i] = i;
    for (int i = 0; i < n; i++) /* a handful: insertion sort, largest first */
        for (int j = i; j > 0 && v->weight[idx[j]] > v->weight[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
    if ((uint32_t)n > limit) n = (int)limit;
    double sum = 0;
    for (int i = 0; i < n; i++) sum += v->weight[idx[i]];
    for (int i = 0; i < n; i++) bone[i] = v->bone[idx[i]], w[i] = (float)(v->weight[idx[i]] / sum);
    return n;
}

static void weights_text(const mcs_facts *f, const int *bone, const float *w, int n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        const char *name = bone[i] < 0 ? "(no scene bone)" : f->bones[bone[i]].name[0] ? f->bones[bone[i]].name : "(unnamed)";
        int wrote = snprintf(buf + used, size - used, "%s%.20s%s=%.4g", i ? " " : "", name,
                             strlen(name) > 20 ? "..." : "", w[i]);
        if (wrote < 0) break;
        used += (size_t)wrote;
    }
}

/* 0 when the model vertex carries the expected weights by bone. */
static int weights_differ(const mcs_fvertex *fv, const mvert *mv, const mcs_caps *caps, int *eb, float *ew,
                          int *en)
{
    *en = expected_weights(fv, caps->max_influences, eb, ew);
    double sum = 0;
    for (int i = 0; i < mv->influences; i++) sum += mv->weight[i];
    if (fabs(sum - 1) > caps->weight_tol * 4 + 1e-5) return 1;
    for (int i = 0; i < *en; i++) {
        double got = 0;
        for (int j = 0; j < mv->influences; j++)
            if (mv->bone[j] == eb[i]) got += mv->weight[j];
        if (fabs(got - ew[i]) > caps->weight_tol + 1e-5) return 1;
    }
    for (int j = 0; j < mv->influences; j++) {
        int known = 0;
        for (int i = 0; i < *en; i++) known |= mv->bone[j] == eb[i];
        if (!known && mv->weight[j] > caps->weight_tol + 1e-5) return 1;
    }
    return 0;
}

typedef struct attr_tally {
    unsigned flipped, normals, uvs, colors, weights, unskinned;
    char first_normal[200], first_uv[200], first_color[256], first_weight[480];
} attr_tally;

/* Only the channels the format keeps (caps->colors: 3 or 4). */
static int colors_differ(const mcs_caps *caps, const float *want, const float *got)
{
    for (int c = 0; c < caps->colors; c++)
        if (!(fabsf(want[c] - got[c]) <= caps->color_tol + 1e-6)) return 1;
    return 0;
}

/* tri, corner: the scene triangle and its corner, so a finding names them
 * (a colour, unlike a position, does not say where it belongs). */
static void compare_attrs(const mcs_facts *f, const mcs_caps *caps, uint32_t tri, int corner, const mcs_fvertex *fv,
                          const mvert *mv, attr_tally *t)
{
    if (caps->normals && fv->has_nrm) {
        if (!mv->has_nrm || !near3(fv->nrm, mv->nrm, caps->normal_tol)) {
            if (!t->normals++)
                snprintf(t->first_normal, sizeof t->first_normal,
                         "at (%g %g %g): expected (%.3g %.3g %.3g), found (%.3g %.3g %.3g)%s", fv->pos[0],
                         fv->pos[1], fv->pos[2], fv->nrm[0], fv->nrm[1], fv->nrm[2], mv->nrm[0], mv->nrm[1],
                         mv->nrm[2], mv->has_nrm ? "" : " (no normals)");
        }
    }
    if (caps->uvs && fv->has_uv) {
        if (!mv->has_uv || fabsf(fv->uv[0] - mv->uv[0]) > caps->uv_tol || fabsf(fv->uv[1] - mv->uv[1]) > caps->uv_tol) {
            if (!t->uvs++)
                snprintf(t->first_uv, sizeof t->first_uv, "at (%g %g %g): expected (%g %g), found (%g %g)%s",
                         fv->pos[0], fv->pos[1], fv->pos[2], fv->uv[0], fv->uv[1], mv->uv[0], mv->uv[1],
                         mv->has_uv ? "" : " (no UVs)");
        }
    }
    if (caps->colors && fv->has_color && (!mv->has_color || colors_differ(caps, fv->color, mv->color))) {
        if (!t->colors++) {
            /* RGB formats: the alpha the loader fills in is not the file's, so it is not shown */
            const float *c = fv->color, *m = mv->color;
            char want[64], got[64];
            snprintf(want, sizeof want, caps->colors == 4 ? "%.3g %.3g %.3g %.3g" : "%.3g %.3g %.3g", c[0], c[1], c[2], c[3]);
            if (mv->has_color)
                snprintf(got, sizeof got, caps->colors == 4 ? "(%.3g %.3g %.3g %.3g)" : "(%.3g %.3g %.3g)", m[0], m[1],
                         m[2], m[3]);
            else
                snprintf(got, sizeof got, "no colours");
            snprintf(t->first_color, sizeof t->first_color,
                     "scene triangle %u corner %d at (%g %g %g): expected %s (%s), found %s", tri, corner, fv->pos[0],
                     fv->pos[1], fv->pos[2], caps->colors == 4 ? "RGBA" : "RGB", want, got);
        }
    }
    if (fv->influences) {
        int eb[8], en;
        float ew[8];
        if (weights_differ(fv, mv, caps, eb, ew, &en) && !t->weights++) {
            char want[160], got[160];
            weights_text(f, eb, ew, en, want, sizeof want);
            weights_text(f, mv->bone, mv->weight, mv->influences, got, sizeof got);
            snprintf(t->first_weight, sizeof t->first_weight, "at (%.6g %.6g %.6g): expected %.160s, found %.160s",
                     fv->pos[0], fv->pos[1], fv->pos[2], want, got[0] ? got : "none");
        }
    }
}

static void compare_triangles(const mcs_facts *f, const mcs_caps *caps, mtri *mt, size_t mcount,
                              mcx_findings *out, unsigned char *scene_lost)
{
    double tol = caps->position_tol + 1e-6;
    qsort(mt, mcount, sizeof *mt, by_cx);
    unsigned lost = 0, extra = 0, kept = 0;
    attr_tally t;
    memset(&t, 0, sizeof t);
    char first_lost[200] = "";
    for (uint32_t i = 0; i < f->triangle_count; i++) {
        const mcs_fvertex *fv = &f->tri[(size_t)i * 3];
        float cx = (fv[0].pos[0] + fv[1].pos[0] + fv[2].pos[0]) / 3;
        size_t lo = 0, hi = mcount;
        while (lo < hi) { /* first model triangle with cx >= cx - tol */
            size_t mid = lo + (hi - lo) / 2;
            if (mt[mid].cx < cx - tol) lo = mid + 1;
            else hi = mid;
        }
        int rot = -1;
        size_t j = lo;
        for (; j < mcount && mt[j].cx <= cx + tol; j++)
            if (!mt[j].used && (rot = corners_match(fv, &mt[j], tol)) >= 0) break;
        if (rot < 0) {
            if (degenerate(fv)) continue;
            if (scene_lost) scene_lost[i] = 1;
            if (!lost++)
                snprintf(first_lost, sizeof first_lost, "(%g %g %g) (%g %g %g) (%g %g %g)", fv[0].pos[0],
                         fv[0].pos[1], fv[0].pos[2], fv[1].pos[0], fv[1].pos[1], fv[1].pos[2], fv[2].pos[0],
                         fv[2].pos[1], fv[2].pos[2]);
            continue;
        }
        static const int order[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
        mt[j].used = 1;
        kept++;
        if (rot >= 3) t.flipped++;
        for (int e = 0; e < 3; e++) compare_attrs(f, caps, i, e, &fv[e], &mt[j].v[order[rot][e]], &t);
    }
    for (size_t j = 0; j < mcount; j++) extra += !mt[j].used && !model_degenerate(&mt[j]);
    if (lost)
        mcx_find(out, "%u of %u triangles lost or moved (first: %s)", lost, f->triangle_count, first_lost);
    if (extra) mcx_find(out, "%u triangles that the scene does not hold", extra);
    if (t.flipped) mcx_find(out, "%u triangles with reversed winding (back facing)", t.flipped);
    if (t.normals) mcx_find(out, "normals changed at %u vertices (first %s)", t.normals, t.first_normal);
    if (t.uvs) mcx_find(out, "UVs changed at %u vertices (first %s)", t.uvs, t.first_uv);
    if (t.colors)
        mcx_find(out, "vertex colours changed at %u triangle corners (first %s)", t.colors, t.first_color);
    if (t.weights) mcx_find(out, "skin weights changed at %u vertices (first %s)", t.weights, t.first_weight);
    (void)kept;
}

static void compare_lines(const mcs_facts *f, const mcs_caps *caps, const float *ml, size_t mcount,
                          mcx_findings *out)
{
    if (!caps->lines || !f->line_count) return;
    unsigned char *used = calloc(mcount + 1, 1);
    unsigned lost = 0;
    for (uint32_t i = 0; used && i < f->line_count; i++) {
        const float *a = f->line_pos + (size_t)i * 6;
        size_t j = 0;
        for (; j < mcount; j++) {
            const float *b = ml + j * 6;
            if (used[j]) continue;
            if ((near3(a, b, caps->position_tol + 1e-6) && near3(a + 3, b + 3, caps->position_tol + 1e-6)) ||
                (near3(a, b + 3, caps->position_tol + 1e-6) && near3(a + 3, b, caps->position_tol + 1e-6)))
                break;
        }
        if (j < mcount) used[j] = 1;
        else lost++;
    }
    free(used);
    if (lost) mcx_find(out, "%u of %u line segments lost", lost, f->line_count);
}

/* ---- animations ------------------------------------------------------------------- */

/* Does a model animation name stand for the scene's? Equal, or the scene's
 * cut to the format's field (at a character boundary or not). */
static int name_matches(const char *model, const char *scene, uint32_t field)
{
    if (strcmp(model, scene) == 0) return 1;
    size_t len = strlen(model);
    return len > 0 && len <= field && strlen(scene) > len && strncmp(model, scene, len) == 0;
}

/* The times of the output's first and last keyframes: a format in frames
 * without a frame rate (SAMF, E3D) places the source's start and end there.
 * Not the duration: SAMF's (keyframe_count) also counts the last frame's
 * display [N - 1, N), E3D's (animationFrames' end) may hold the last pose
 * longer; the scene's duration is the time of its last key, so the last
 * key is what matches (the reference writer gltf2aamf.py copies the glTF
 * keys one for one). */
static void key_range(const mcl_animation *an, double *first, double *last)
{
    *first = *last = 0;
    for (uint32_t t = 0; t < an->track_count; t++) {
        const mcl_track *tr = &an->tracks[t];
        if (t == 0 || tr->times[0] < *first) *first = tr->times[0];
        if (t == 0 || tr->times[tr->key_count - 1] > *last) *last = tr->times[tr->key_count - 1];
    }
    if (*last > an->duration) *last = an->duration > *first ? an->duration : *first;
}

/* Does a skinning matrix scale (a column of its 3x3 off unit length)? */
static int scales(const float *m, double tol)
{
    for (int c = 0; c < 3; c++) {
        const float *v = m + c * 4;
        if (fabs(sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]) - 1) > tol) return 1;
    }
    return 0;
}

/* How far one skinning matrix lies outside the range two others span,
 * element by element. Translations get a tolerance growing with the lever
 * arm: readers interpolate rotations by slerp or nlerp, and both are
 * faithful. */
static double matrix_gap(const float *want, const float *a, const float *c)
{
    double arm = 1 + sqrt((double)want[12] * want[12] + (double)want[13] * want[13] + (double)want[14] * want[14]);
    double worst = 0;
    for (int e = 0; e < 16; e++) {
        double low = a[e] < c[e] ? a[e] : c[e], high = a[e] < c[e] ? c[e] : a[e];
        double d = (want[e] < low ? low - want[e] : want[e] > high ? want[e] - high : 0) / (e >= 12 && e < 15 ? arm : 1);
        if (d > worst) worst = d;
    }
    return worst;
}

/* A bone the scene scales at that moment (itself or through a parent) is
 * not compared where the format keeps no scale (SAMF, fit_format calls
 * those scenes lossy): its pose, and its children's positions, cannot be
 * what the scene's are. */
static int scale_lost(const mcs_caps *caps, const float *want)
{
    return !caps->anim_scale && scales(want, caps->matrix_tol);
}

/* How far the scene's skinning matrices lie outside the range the model's
 * two poses span (lo and hi may be the same pose); *bone gets the worst
 * fact bone. */
static double pose_distance(const mcs_facts *f, const mcs_caps *caps, const int *model_of, const float *want_pose,
                            const float *lo, const float *hi, int *bone)
{
    double worst = 0;
    *bone = -1;
    for (uint32_t b = 0; b < f->bone_count; b++) {
        const float *want = want_pose + (size_t)b * 16;
        if (model_of[b] < 0 || scale_lost(caps, want)) continue;
        double d = matrix_gap(want, lo + (size_t)model_of[b] * 16, hi + (size_t)model_of[b] * 16);
        if (d > worst) worst = d, *bone = (int)b;
    }
    return worst;
}

/* Does the scene's animation end in the pose it starts with (within the
 * format's precision)? Only then can a looping export, whose frame after
 * the last is the first, hold the end pose. */
static int ends_at_start(const mcs_facts *f, const mcs_caps *caps, const mcs_fanim *fa)
{
    if (fa->sample_count < 2) return 1;
    const float *start = fa->skin, *end = fa->skin + (size_t)(fa->sample_count - 1) * f->bone_count * 16;
    for (uint32_t b = 0; b < f->bone_count; b++) {
        const float *want = end + (size_t)b * 16;
        if (!scale_lost(caps, want) && matrix_gap(want, start + (size_t)b * 16, start + (size_t)b * 16) >
                                           caps->matrix_tol + 1e-4)
            return 0;
    }
    return 1;
}

/* The keys of the track with the most: the frames of an animation without a
 * time unit (SAMF's keyframe_count; E3D's keys per track). */
static uint32_t most_keys(const mcl_animation *an)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < an->track_count; t++)
        if (an->tracks[t].key_count > n) n = an->tracks[t].key_count;
    return n;
}

/* How an output's frames stand for the scene's time. With a time unit, the
 * same time. Without one, two readings are correct, and exporters write
 * both: inclusive, N frames over [0, T], the last frame the pose at T; and
 * looping, N frames over [0, T), frame i at i * T / N, because the runtime
 * wraps from the last frame to the first (the UnnamedHB1 runtime,
 * framework/anim_model.c, setAnimationKeyframe and
 * setAnimationKeyframeSkinned: keyframe = keyframe % keyframeamount). */
typedef enum reading { BY_TIME, INCLUSIVE, LOOPING } reading;

/* Where a reading puts a scene sample: the frames (or times) around it. */
typedef struct placing {
    double at, lo, hi; /* lo == hi: one pose */
    int seam;          /* looping, past the last frame: between it and the first */
} placing;

/* The model's frames, first key to last key (key_range), and how far the
 * looping reading's frames are apart (0: a single frame, no loop to read). */
typedef struct frame_span {
    double unit, first, last, step;
} frame_span;

static frame_span span_of(const mcs_caps *caps, const mcl_animation *an)
{
    frame_span sp = {caps->seconds ? 1 : an->units_per_second, 0, 0, 0};
    key_range(an, &sp.first, &sp.last);
    uint32_t n = most_keys(an);
    /* SAMF's keys are frames 0..N-1; E3D's name their frames: the mean spacing */
    if (n > 1 && sp.last > sp.first) sp.step = (sp.last - sp.first) / (n - 1);
    return sp;
}

/* The reading's place for the scene time t of an animation of duration d.
 * Inclusive: the fraction t / d of first..last. Looping: the same fraction
 * of first..last + step (frame N of frames 0..N-1), and past the last frame
 * the pose moves on to the first, which the loader's pose evaluation would
 * not do (it holds the last key, mcl_evaluate_pose): so the wrap names frame
 * `first` itself. */
static placing place(const frame_span *sp, reading r, double t, double d)
{
    placing p = {0, 0, 0, 0};
    if (r == BY_TIME) {
        p.at = p.lo = p.hi = t * sp->unit;
        return p;
    }
    double span = sp->last - sp->first + (r == LOOPING ? sp->step : 0);
    p.at = sp->first + (d > 0 ? t / d * span : 0);
    if (r == LOOPING && p.at > sp->last) {
        p.lo = sp->last, p.hi = sp->first, p.seam = 1;
        return p;
    }
    p.lo = floor(p.at);
    p.hi = p.lo < p.at ? p.lo + 1 : p.lo;
    return p;
}

/* The first sample of an animation that a reading poses differently. */
typedef struct miss {
    uint32_t sample; /* fa->sample_count: none */
    int bone;
    double worst;
    placing where;
} miss;

/* Compares every sample under one reading; -1 when the model cannot be
 * posed (out of memory), else 0 with *out the first miss, if any. A clip
 * that does not end where it starts has, exported looping, no pose between
 * its last frame and the wrap to the first (the runtime jumps): samples
 * there are not compared under that reading. */
static int judge(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, uint32_t ma, const mcs_fanim *fa,
                 const int *model_of, const frame_span *sp, reading r, float *skin, float *skin2, miss *out)
{
    int cyclic = r != LOOPING || ends_at_start(f, caps, fa);
    out->sample = fa->sample_count;
    for (uint32_t k = 0; k < fa->sample_count; k++) {
        placing p = place(sp, r, fa->times[k], fa->duration);
        if (p.seam && !cyclic) continue;
        if (mcl_evaluate_pose(m, ma, p.lo, NULL, skin) != MCL_OK ||
            (p.hi != p.lo && mcl_evaluate_pose(m, ma, p.hi, NULL, skin2) != MCL_OK))
            return -1;
        int bone;
        double worst = pose_distance(f, caps, model_of, fa->skin + (size_t)k * f->bone_count * 16, skin,
                                     p.hi != p.lo ? skin2 : skin, &bone);
        if (worst > caps->matrix_tol + 1e-4) {
            *out = (miss){k, bone, worst, p};
            return 0;
        }
    }
    return 0;
}

/* The finding of an animation that no reading matches: the time's or the
 * inclusive reading's first miss (the one the findings always named), then
 * the looping reading's, when it was tried. */
static void report_miss(const mcs_facts *f, const mcs_fanim *fa, const frame_span *sp, const miss *first,
                        const miss *loop, mcx_findings *out)
{
    char na[48], nb[48], nc[48], as_loop[160] = "";
    if (sp->unit > 0) {
        mcx_find(out, "animation '%s' at %.3g s: bone '%s' posed differently (largest matrix difference %.3g)",
                 shown(fa->name, na), fa->times[first->sample], shown(f->bones[first->bone].name, nb), first->worst);
        return;
    }
    if (loop->sample < fa->sample_count)
        snprintf(as_loop, sizeof as_loop,
                 "; read as a loop (frame %.4g of %.4g..%.4g, wrapping): at %.0f%%, bone '%s' (%.3g)", loop->where.at,
                 sp->first, sp->last + sp->step, fa->duration > 0 ? fa->times[loop->sample] / fa->duration * 100 : 0,
                 shown(f->bones[loop->bone].name, nc), loop->worst);
    mcx_find(out,
             "animation '%s' at %.0f%% of its length (%.3g s; frame %.4g of %.4g..%.4g): bone '%s' "
             "posed differently (largest matrix difference %.3g)%s",
             shown(fa->name, na), fa->duration > 0 ? fa->times[first->sample] / fa->duration * 100 : 0,
             fa->times[first->sample], first->where.at, sp->first, sp->last, shown(f->bones[first->bone].name, nb),
             first->worst, as_loop);
}

/* The finding of an animation held to one reading (the run's, or a
 * demanded one: MCX_LOOP_*) that misses under it: that reading's first
 * miss, and whether the other one matches (then the reading, not the
 * poses, is what differs from the run's other animations). */
static void report_held(const mcs_facts *f, const mcs_fanim *fa, const frame_span *sp, int held, const miss *m,
                        int other_matches, mcx_findings *out)
{
    char na[48], nb[48];
    const char *other = !other_matches ? ""
                        : held == MCX_LOOP_WRAP ? "; it matches with its last frame at the end of the clip"
                                                : "; it matches read as a loop (the last frame wrapping to the first)";
    mcx_find(out,
             "animation '%s'%s at %.0f%% of its length (%.3g s; frame %.4g of %.4g..%.4g%s): bone '%s' posed "
             "differently (largest matrix difference %.3g)%s",
             shown(fa->name, na), held == MCX_LOOP_WRAP ? " read as a loop" : "",
             fa->duration > 0 ? fa->times[m->sample] / fa->duration * 100 : 0, fa->times[m->sample], m->where.at,
             sp->first, held == MCX_LOOP_WRAP ? sp->last + sp->step : sp->last, held == MCX_LOOP_WRAP ? ", wrapping" : "",
             shown(f->bones[m->bone].name, nb), m->worst, other);
}

/* The skinning matrices of every bone at the scene's sample times. With a
 * time unit (AEM's seconds, NLM's ticks per second) the model is posed at
 * the same time. Without one (SAMF's frames, E3D's frames: neither spec nor
 * file states a frame rate) it is posed at the same fraction of its length,
 * which needs no rate and still tells a frozen, reversed, scrambled or
 * shortened animation; the length is read two ways (reading), and an
 * animation is faithful when every sample of every bone matches under one
 * of them: mixing them per sample would let an off-by-one-frame export pass.
 * Both readings are tried whenever both can be read, so that the run can
 * hold every animation to the same one (exporter.c, settle_loops).
 *
 * A fraction seldom lands on a frame (0.37 of 30 frames is frame 11.1), and
 * between frames formats disagree: SAMF holds each frame (step), E3D's
 * loader interpolates linearly, while the source may be step, linear or a
 * cubic spline. So the scene's pose must lie within the range of the two
 * frames around that point, element by element (within the format's
 * matrix tolerance): a correct export's frames are the source sampled on
 * either side of the sample time, and the source moves from one to the
 * other (a step lands on one of them). A wrong pose lies outside unless the
 * two frames differ as much as the error, which a broken exporter does not
 * get on all four samples of every bone.
 *
 * Returns how the frames matched: MCX_LOOP_EITHER when both readings match
 * or only one can be read (a time unit, a single frame), MCX_LOOP_WRAP when
 * only read as a loop, MCX_LOOP_END only with the last frame at the end; or
 * MISSED when the reading it is held to (`held`, MCX_LOOP_EITHER: any)
 * misses, the finding made. */
enum { MISSED = -2 };
static int compare_pose(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, uint32_t ma,
                        const mcs_fanim *fa, const int *model_of, int held, float *skin, float *skin2,
                        mcx_findings *out)
{
    frame_span sp = span_of(caps, &m->animations[ma]);
    miss first, loop = {fa->sample_count, -1, 0, {0, 0, 0, 0}};
    if (judge(f, caps, m, ma, fa, model_of, &sp, sp.unit > 0 ? BY_TIME : INCLUSIVE, skin, skin2, &first) != 0)
        return MCX_LOOP_EITHER;
    int two = sp.unit <= 0 && sp.step > 0; /* a looping reading to tell apart */
    if (two && judge(f, caps, m, ma, fa, model_of, &sp, LOOPING, skin, skin2, &loop) != 0) return MCX_LOOP_EITHER;
    int end_ok = first.sample == fa->sample_count, wrap_ok = two && loop.sample == fa->sample_count;
    int how = end_ok && !wrap_ok && two ? MCX_LOOP_END : wrap_ok && !end_ok ? MCX_LOOP_WRAP : MCX_LOOP_EITHER;
    if (!two || held == MCX_LOOP_EITHER) {
        if (end_ok || wrap_ok) return how;
        report_miss(f, fa, &sp, &first, &loop, out);
        return MISSED;
    }
    if (held == MCX_LOOP_WRAP ? wrap_ok : end_ok) return how;
    report_held(f, fa, &sp, held, held == MCX_LOOP_WRAP ? &loop : &first, held == MCX_LOOP_WRAP ? end_ok : wrap_ok,
                out);
    return MISSED;
}

/* Counts how an animation's frames matched (compare_pose) into loops. */
static void count_reading(mcx_loops *loops, int how, const char *name)
{
    if (how == MCX_LOOP_WRAP && !loops->count++) snprintf(loops->first, sizeof loops->first, "%s", name);
    if (how == MCX_LOOP_END) loops->ends++;
    if ((how == MCX_LOOP_WRAP || how == MCX_LOOP_END) && !loops->first_reading) loops->first_reading = how + 1;
}

static void compare_anims(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, const int *model_of,
                          int held, mcx_findings *out, mcx_loops *loops)
{
    if (!caps->max_animations || !f->anim_count) return;
    uint32_t want = f->anim_count < caps->max_animations ? f->anim_count : caps->max_animations;
    /* a zero-length animation may be dropped only where the format cannot
     * store one (AEM, NLM: a duration must be > 0) */
    uint32_t zero = 0;
    for (uint32_t a = 0; a < f->anim_count && !caps->zero_length_anims; a++) zero += !(f->anims[a].duration > 0);
    if (m->animation_count != want && !(m->animation_count + zero == want))
        mcx_find(out, "%u animations (expected %u)", m->animation_count, want);
    /* two poses: the frames on either side of a sample (compare_pose) */
    float *skin = malloc(((size_t)m->bone_count + 1) * 32 * sizeof *skin);
    unsigned char *used = calloc(m->animation_count + 1, 1);
    for (uint32_t a = 0; skin && used && a < f->anim_count; a++) {
        const mcs_fanim *fa = &f->anims[a];
        uint32_t found = UINT32_MAX;
        for (uint32_t k = 0; k < m->animation_count && found == UINT32_MAX; k++)
            if (!used[k] && fa->name[0] && name_matches(m->animations[k].name, fa->name, caps->anim_name_bytes))
                found = k;
        if (found == UINT32_MAX && a < m->animation_count && !used[a]) found = a; /* by order */
        if (found == UINT32_MAX) {
            char na[48];
            if (caps->max_animations > a && (fa->duration > 0 || caps->zero_length_anims))
                mcx_find(out, "animation '%s' lost", shown(fa->name, na));
            continue;
        }
        used[found] = 1;
        const mcl_animation *ma = &m->animations[found];
        char cut[48], got[48], quoted[52];
        shown(fa->name, cut);
        if (strlen(fa->name) <= 40) snprintf(cut, sizeof cut, "%s", fa->name);
        int replaceable = caps->ascii_names && !mcs_ascii(fa->name); /* the format cannot spell it */
        if (caps->anim_name_bytes && !replaceable && !name_matches(ma->name, fa->name, caps->anim_name_bytes) &&
            fa->name[0])
            mcx_find(out, "animation '%s': name changed to '%s'", cut, shown(ma->name, got));
        double unit = caps->seconds ? 1 : ma->units_per_second;
        if (unit > 0 && fa->duration > 0 && fabs(ma->duration / unit - fa->duration) > 1e-3)
            mcx_find(out, "animation '%s': duration %.4g s (expected %.4g s)", cut, ma->duration / unit, fa->duration);
        snprintf(quoted, sizeof quoted, fa->name[0] ? "'%s'" : "(unnamed)", cut);
        count_reading(loops, compare_pose(f, caps, m, found, fa, model_of, held, skin,
                                          skin + ((size_t)m->bone_count + 1) * 16, out),
                      quoted);
    }
    free(skin);
    free(used);
}

/* ---- textures ------------------------------------------------------------------ */

/* MIP levels of a whole chain: w x h halving (floor, at least 1) to 1x1. */
static uint32_t chain_levels(uint32_t w, uint32_t h)
{
    uint32_t n = 1;
    while (w > 1 || h > 1) w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1, n++;
    return n;
}

/* Where the format embeds textures (AEM 2025): every base colour texture
 * of the scene's materials is some material's base colour texture, at the
 * image's size, with its whole MIP chain. Which triangles use it is not
 * compared (the format may merge or add materials), nor are texels (colour
 * space and compression: docs/CERTIFY.md calls them lossy). */
static void compare_textures(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, mcx_findings *out)
{
    if (!caps->textures || !f->texture_count) return;
    unsigned char *used = calloc((size_t)m->material_count + 1, 1);
    if (!used) {
        mcx_find(out, "out of memory comparing the output with the scene");
        return;
    }
    for (uint32_t k = 0; k < f->texture_count; k++) {
        const mcs_ftexture *ft = &f->textures[k];
        uint32_t found = UINT32_MAX, other = UINT32_MAX;
        for (uint32_t i = 0; i < m->material_count && found == UINT32_MAX; i++) {
            const mcl_material *ma = &m->materials[i];
            if (used[i] || !ma->texture_data) continue;
            if (ma->texture_width == ft->width && ma->texture_height == ft->height) found = i;
            else if (other == UINT32_MAX && (ma->texture_width > 1 || ma->texture_height > 1)) other = i;
        }
        char na[48];
        if (found == UINT32_MAX) {
            if (other != UINT32_MAX)
                mcx_find(out, "material '%s': base colour texture of %ux%u lost (the output has %ux%u)",
                         shown(ft->material, na), ft->width, ft->height, m->materials[other].texture_width,
                         m->materials[other].texture_height);
            else
                mcx_find(out, "material '%s': base colour texture of %ux%u lost", shown(ft->material, na), ft->width,
                         ft->height);
            continue;
        }
        used[found] = 1;
        uint32_t want = chain_levels(ft->width, ft->height);
        if (m->materials[found].texture_levels != want)
            mcx_find(out, "material '%s': base colour texture has %u MIP levels (expected %u, %ux%u down to 1x1)",
                     shown(ft->material, na), m->materials[found].texture_levels, want, ft->width, ft->height);
    }
    free(used);
}

void mcx_faithful(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, mcx_findings *out, mcx_loops *loops)
{
    mcx_faithful_pic(f, caps, m, 0, MCX_LOOP_EITHER, out, loops, NULL);
}

/* The influences of a triangle's corners summed per bone: the key a
 * picture colours it by, so that a weight or joint slip shows as a patch
 * of another colour. */
typedef struct tally {
    int bone[3 * MCS_MAX_INFLUENCES];
    float sum[3 * MCS_MAX_INFLUENCES];
    int n;
} tally;

static void tally_add(tally *t, int influences, const int *bone, const float *weight)
{
    for (int i = 0; i < influences && i < MCS_MAX_INFLUENCES; i++) {
        if (!(weight[i] > 0)) continue;
        int k = 0;
        while (k < t->n && t->bone[k] != bone[i]) k++;
        if (k == t->n) t->bone[t->n] = bone[i], t->sum[t->n++] = 0;
        t->sum[k] += weight[i];
    }
}

/* The bone weighing most (the first of equals): a fact bone index, or a
 * model bone matching none of them (bone -1 in an mvert). */
static int tally_key(const tally *t)
{
    int best = -1;
    for (int k = 0; k < t->n; k++)
        if (best < 0 || t->sum[k] > t->sum[best]) best = k;
    if (best < 0) return MCX_PICTURE_NO_BONE;
    return t->bone[best] < 0 ? MCX_PICTURE_ODD_BONE : t->bone[best];
}

/* What the HTML certificate draws: both triangle sets (the output's in the
 * scene's space, conventions undone) with what did not match, both
 * skeletons as segments from each bone to its parent. At most
 * MCX_PICTURE_TRIS triangles a side (every k-th beyond), so a page stays small. */
static void picture_of(const mcs_facts *f, const mcl_model *m, const float *rest_global, const mtri *mt,
                       size_t mcount, mcx_picture *pic)
{
    size_t step = mcount / MCX_PICTURE_TRIS + 1;
    pic->model = malloc((mcount / step + 1) * 9 * sizeof *pic->model);
    pic->model_extra = malloc(mcount / step + 1);
    pic->model_key = malloc((mcount / step + 1) * sizeof *pic->model_key);
    for (size_t j = 0; pic->model && pic->model_extra && pic->model_key && j < mcount; j += step) {
        tally t = {.n = 0};
        for (int e = 0; e < 3; e++) {
            memcpy(pic->model + pic->model_count * 9 + e * 3, mt[j].v[e].pos, 3 * sizeof(float));
            tally_add(&t, mt[j].v[e].influences, mt[j].v[e].bone, mt[j].v[e].weight);
        }
        pic->model_key[pic->model_count] = tally_key(&t);
        pic->model_extra[pic->model_count++] = !mt[j].used && !model_degenerate(&mt[j]);
    }
    pic->model_bones = malloc(((size_t)m->bone_count + 1) * 6 * sizeof *pic->model_bones);
    for (uint32_t b = pic->skip; pic->model_bones && b < m->bone_count; b++) {
        int p = m->bones[b].parent;
        if (p < (int)pic->skip) continue;
        memcpy(pic->model_bones + pic->model_bone_count * 6, rest_global + (size_t)b * 16 + 12, 3 * sizeof(float));
        memcpy(pic->model_bones + pic->model_bone_count * 6 + 3, rest_global + (size_t)p * 16 + 12, 3 * sizeof(float));
        pic->model_bone_count++;
    }
    pic->scene_bones = malloc(((size_t)f->bone_count + 1) * 6 * sizeof *pic->scene_bones);
    for (uint32_t b = 0; pic->scene_bones && b < f->bone_count; b++) {
        if (f->bones[b].parent < 0) continue;
        memcpy(pic->scene_bones + pic->scene_bone_count * 6, f->bones[b].bind + 12, 3 * sizeof(float));
        memcpy(pic->scene_bones + pic->scene_bone_count * 6 + 3, f->bones[f->bones[b].parent].bind + 12, 3 * sizeof(float));
        pic->scene_bone_count++;
    }
}

void mcx_picture_free(mcx_picture *p)
{
    if (!p) return;
    free(p->scene), free(p->scene_lost), free(p->model), free(p->model_extra), free(p->scene_bones), free(p->model_bones);
    free(p->scene_key), free(p->model_key);
    memset(p, 0, sizeof *p);
}

void mcx_faithful_skip(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, uint32_t skip,
                       mcx_findings *out, mcx_loops *loops)
{
    mcx_faithful_pic(f, caps, m, skip, MCX_LOOP_EITHER, out, loops, NULL);
}

void mcx_faithful_pic(const mcs_facts *f, const mcs_caps *caps, const mcl_model *m, uint32_t skip, int loop,
                      mcx_findings *out, mcx_loops *loops, mcx_picture *pic)
{
    memset(loops, 0, sizeof *loops);
    size_t nb = (size_t)m->bone_count + 1;
    float *rest_global = malloc(nb * 16 * sizeof(float)), *rest_skin = malloc(nb * 16 * sizeof(float));
    int *bone_map = malloc(nb * sizeof(int)), *model_of = malloc(((size_t)f->bone_count + 1) * sizeof(int));
    size_t mcount = 0, lcount = 0;
    float *lines = NULL;
    mtri *mt = NULL;
    if (!rest_global || !rest_skin || !bone_map || !model_of ||
        mcl_evaluate_pose(m, UINT32_MAX, 0, rest_global, rest_skin) != MCL_OK) {
        mcx_find(out, "out of memory comparing the output with the scene");
        goto done;
    }
    match_bones(f, caps, m, skip, rest_global, bone_map, model_of, out);
    if (pic) {
        pic->skip = skip;
        pic->scene_lost = calloc((size_t)f->triangle_count + 1, 1);
        pic->scene = malloc(((size_t)f->triangle_count * 9 + 1) * sizeof *pic->scene);
        pic->scene_key = malloc(((size_t)f->triangle_count + 1) * sizeof *pic->scene_key);
        for (uint32_t t = 0; pic->scene && pic->scene_key && t < f->triangle_count; t++) {
            tally k = {.n = 0};
            for (int e = 0; e < 3; e++) {
                const mcs_fvertex *v = &f->tri[(size_t)t * 3 + e];
                memcpy(pic->scene + (size_t)t * 9 + e * 3, v->pos, 3 * sizeof(float));
                tally_add(&k, v->influences, v->bone, v->weight);
            }
            pic->scene_key[t] = tally_key(&k);
        }
        pic->scene_count = pic->scene && pic->scene_key ? f->triangle_count : 0;
    }
    mt = model_triangles(m, rest_skin, bone_map, &mcount, &lines, &lcount);
    if (!mt) {
        mcx_find(out, "out of memory comparing the output with the scene");
        goto done;
    }
    compare_triangles(f, caps, mt, mcount, out, pic ? pic->scene_lost : NULL);
    if (pic) picture_of(f, m, rest_global, mt, mcount, pic);
    compare_lines(f, caps, lines, lcount, out);
    compare_anims(f, caps, m, model_of, loop, out, loops);
    compare_textures(f, caps, m, out);
done:
    free(mt);
    free(lines);
    free(rest_global);
    free(rest_skin);
    free(bone_map);
    free(model_of);
}
