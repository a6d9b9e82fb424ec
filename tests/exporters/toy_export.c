/*
 * toy_export --format aem|aamf|nlm|semodel|e3d [--layout 2018|draft|2025] [--loop] [--bug NAME] IN.gltf OUT
 *
 * The toy exporters of the exporter-certification tests: a glTF scene to
 * AEM (aem.md's layout, or with --layout 2025 the current upstream layout
 * that today's converter writes: docs/formats/aem2025.md), SAMF v2, NLM, SEModel (2018 layout, or with --layout draft the 2017
 * draft's half-float normals and weights) or E3D through the project's builders, written the way a careful
 * exporter would (bones parents first, weights pruned to 4 and
 * renormalised, SAMF weights rounded to sum 255, names cut at a UTF-8
 * boundary, a refusal with exit 1 where the format cannot hold the scene),
 * and broken variants reproducing the field's real exporter bugs
 * (docs/formats), chosen with --bug:
 *
 *   truncate-weights  SAMF weights as int(w * 255) (sums of 254)
 *   line-range        AEM mesh index count includes the primitive's line indices
 *   minus-one         AEM texture sentinel -1 where the spec says 255
 *   source-order      AEM bones in the skin's joint order (children may precede parents)
 *   unterminated      AEM animation names copied into 128 bytes without a NUL
 *   drop-influences   influences 5..8 dropped without renormalising
 *   crash-256         abort() on 256 bones or more
 *   hang-empty        loop forever on a scene without meshes
 *   no-output         exit 0 without writing anything
 *   joint-index       skin bone indices are the glTF joint slots, not the
 *                     bones' places in the (reordered) bone table
 *   anim-reversed     SAMF and E3D keyframes in reverse order (the last pose first)
 *   anim-rest         SAMF and E3D keyframes all the rest pose (the animation frozen)
 *   swap-rb           vertex colours written B, G, R (A): red and blue swapped
 *   decoy             AEM: an extra mesh of 100 times the scene's triangles
 *                     (its own triangles again): valid, and far too much
 *
 * and conventions an exporter applies on purpose (certify names them):
 *
 *   flip-v            a bottom-left UV origin: v' = 1 - v everywhere
 *   flip-v-some       the same in glTF mesh 0 only (a real loss elsewhere)
 *   z-up              the scene turned Z-up: (x, y, z) -> (x, -z, y)
 *   cm                the scene in centimetres: every length times 100
 *   cw                every triangle's corners in reverse order
 *   loop-some         SAMF and E3D: the frames of scenes with more than one
 *                     animation written the other way (looping without
 *                     --loop, ending on the end pose with it): two readings
 *                     in one run
 *
 * and a narrower exporter:
 *
 *   static-only       refuses every skinned or animated scene ("static meshes only")
 *   drop-still        leaves out zero-length animations (as AEM and NLM must: a
 *                     loss in SAMF and E3D, which store them)
 *
 * and for --format aem --layout 2025:
 *
 *   filler-index      unused joint slots of skinned vertices carry glTF's
 *                     filler index 0, not -1 (what the converter writes)
 *   weight-sum        skin weights scaled by 0.75 (sums of 0.75)
 *   name-garbage      joint and animation names with non-zero bytes after the NUL
 *   texture-size      source images written at twice their size (a whole chain)
 *   mip-chain         source images declared at twice their size, the first
 *                     level's bytes alone written (the chain runs short)
 *   anim-rest         every key the rest pose (the animation frozen)
 *   source-order      joints in the skin's order (parents may follow children)
 *
 * --loop is no bug: SAMF and E3D animations written as looping game
 * exporters write them, N frames over [0, T) (frame i at i * T / N, no frame
 * at T), since the runtime wraps from the last frame to the first (the
 * UnnamedHB1 runtime reads keyframe % keyframe_count); E3D tracks get the
 * loop flag. Without it the frames cover [0, T], the last one at T.
 *
 * Not part of modelcheck: test code. Exit 0 written, 1 refused, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aamf_builder.h"
#include "aem2025_builder.h"
#include "aem_builder.h"
#include "e3d_builder.h"
#include "gltf_read.h"
#include "nlm_builder.h"
#include "semodel_builder.h"

typedef struct xvert {
    float pos[3], nrm[3], tan[4], uv[2];
    float color[4]; /* RGBA; opaque white where the source has none */
    int influences;
    int bone[8];
    float w[8];
} xvert;

typedef struct xmesh {
    uint32_t first, count; /* vertices (de-indexed triangles) */
    int material;
    uint32_t line_indices;
} xmesh;

typedef struct xmodel {
    const gr_scene *s;
    const char *bug;
    int loop;              /* --loop: SAMF and E3D frames over [0, T), wrapping */
    xvert *v;
    uint32_t nv, cap;
    xmesh *meshes;
    uint32_t nmeshes;
    int *bone_node;        /* export bone -> node */
    int *node_bone;        /* node -> export bone, -1 */
    uint32_t nbones;
    int *bone_parent;
    float *ibm;            /* 16 per bone */
    int limit;             /* influences per vertex the format holds */
    float *lines;          /* 6 per segment, world space */
    uint32_t nlines;
    int colors;            /* the source has vertex colours: write them where the format keeps them */
} xmodel;

static int bug(const xmodel *x, const char *name)
{
    /* NAME, or one of a comma-separated list (a convention and a bug at once) */
    size_t n = strlen(name);
    for (const char *p = x->bug; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

static int refuse(const char *why)
{
    fprintf(stderr, "toy_export: refused: %s\n", why);
    return 1;
}

/* ---- bones ------------------------------------------------------------------- */

static int depth(const gr_scene *s, int n)
{
    int d = 0;
    while (n >= 0 && d < 100000) n = s->nodes[n].parent, d++;
    return d;
}

static int collect_bones(xmodel *x)
{
    const gr_scene *s = x->s;
    x->node_bone = malloc((s->node_count + 1) * sizeof *x->node_bone);
    x->bone_node = malloc((s->node_count + 1) * sizeof *x->bone_node);
    x->bone_parent = malloc((s->node_count + 1) * sizeof *x->bone_parent);
    x->ibm = malloc((s->node_count + 1) * 16 * sizeof *x->ibm);
    if (!x->node_bone || !x->bone_node || !x->bone_parent || !x->ibm) return -1;
    for (uint32_t i = 0; i < s->node_count; i++) x->node_bone[i] = -1;
    /* joints in skin order; the careful exporter then sorts them parents first */
    for (uint32_t k = 0; k < s->skin_count; k++)
        for (uint32_t j = 0; j < s->skins[k].joint_count; j++) {
            int n = s->skins[k].joints[j];
            if (x->node_bone[n] >= 0) continue;
            x->node_bone[n] = (int)x->nbones;
            memcpy(x->ibm + x->nbones * 16, s->skins[k].ibm + j * 16, 16 * sizeof(float));
            x->bone_node[x->nbones++] = n;
        }
    if (!bug(x, "source-order")) {
        /* stable sort by depth: every parent before its children */
        for (uint32_t i = 1; i < x->nbones; i++)
            for (uint32_t j = i; j > 0 && depth(s, x->bone_node[j]) < depth(s, x->bone_node[j - 1]); j--) {
                int t = x->bone_node[j];
                x->bone_node[j] = x->bone_node[j - 1], x->bone_node[j - 1] = t;
                float m[16];
                memcpy(m, x->ibm + j * 16, sizeof m);
                memcpy(x->ibm + j * 16, x->ibm + (j - 1) * 16, sizeof m);
                memcpy(x->ibm + (j - 1) * 16, m, sizeof m);
            }
        for (uint32_t b = 0; b < x->nbones; b++) x->node_bone[x->bone_node[b]] = (int)b;
    }
    for (uint32_t b = 0; b < x->nbones; b++) {
        int p = s->nodes[x->bone_node[b]].parent;
        x->bone_parent[b] = p >= 0 ? x->node_bone[p] : -1;
    }
    return 0;
}

/* ---- vertices ------------------------------------------------------------------ */

static void normalize(float *v)
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0) v[0] /= l, v[1] /= l, v[2] /= l;
    else v[0] = 0, v[1] = 0, v[2] = 1;
}

static void weights(const xmodel *x, const gr_prim *p, const gr_skin *sk, uint32_t src, xvert *v)
{
    int n = 0;
    float sum = 0;
    int slots = p->influences;
    if (bug(x, "drop-influences") && slots > 4) slots = 4; /* 5..8 dropped, not renormalised */
    for (int k = 0; k < p->influences; k++) sum += p->weights[(size_t)src * p->influences + k];
    for (int k = 0; k < slots; k++) {
        float w = p->weights[(size_t)src * p->influences + k];
        if (w <= 0) continue;
        uint32_t slot = p->joints[(size_t)src * p->influences + k];
        v->bone[n] = bug(x, "joint-index") ? (int)slot : x->node_bone[sk->joints[slot]];
        v->w[n++] = bug(x, "drop-influences") ? w : w / sum;
    }
    /* the largest 4, renormalised */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v->w[j] > v->w[j - 1]; j--) {
            float tw = v->w[j];
            int tb = v->bone[j];
            v->w[j] = v->w[j - 1], v->bone[j] = v->bone[j - 1], v->w[j - 1] = tw, v->bone[j - 1] = tb;
        }
    if (n > x->limit) {
        n = x->limit;
        float kept = 0;
        for (int k = 0; k < n; k++) kept += v->w[k];
        for (int k = 0; k < n; k++) v->w[k] /= kept;
    }
    v->influences = n;
}

static int add_triangle(xmodel *x, const gr_node *node, const float *world, const gr_prim *p, const uint32_t *idx,
                        int flip)
{
    if (x->nv + 3 > x->cap) {
        uint32_t cap = x->cap ? x->cap * 2 : 1024;
        xvert *v = realloc(x->v, cap * sizeof *v);
        if (!v) return -1;
        x->v = v, x->cap = cap;
    }
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const float *m = node->skin >= 0 ? identity : world;
    float nm[16], inv[16];
    mcs_mat_invert(m, inv);
    for (int c = 0; c < 16; c++) nm[c] = 0;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) nm[c * 4 + r] = inv[r * 4 + c];
    xvert *out = x->v + x->nv;
    for (int e = 0; e < 3; e++) {
        uint32_t src = idx[flip && e ? 3 - e : e];
        xvert *v = &out[e];
        memset(v, 0, sizeof *v);
        mcs_mat_point(m, p->pos + (size_t)src * 3, v->pos);
        if (p->nrm) {
            mcs_mat_dir(nm, p->nrm + (size_t)src * 3, v->nrm);
            normalize(v->nrm);
        }
        if (p->tan) {
            mcs_mat_dir(m, p->tan + (size_t)src * 4, v->tan);
            normalize(v->tan);
            v->tan[3] = p->tan[(size_t)src * 4 + 3];
        }
        if (p->uv) memcpy(v->uv, p->uv + (size_t)src * 2, sizeof v->uv);
        if (p->uv && (bug(x, "flip-v") || (bug(x, "flip-v-some") && node->mesh == 0)))
            v->uv[1] = 1 - v->uv[1]; /* a bottom-left UV origin (flip-v-some: glTF mesh 0 only) */
        for (int c = 0; c < 4; c++) v->color[c] = p->color ? p->color[(size_t)src * 4 + c] : 1;
        if (p->color && bug(x, "swap-rb")) {
            v->color[0] = p->color[(size_t)src * 4 + 2];
            v->color[2] = p->color[(size_t)src * 4];
        }
        x->colors |= p->color != NULL;
        if (p->influences && node->skin >= 0) weights(x, p, &x->s->skins[node->skin], src, v);
    }
    if (!p->nrm) { /* flat normals, as an exporter computes them */
        float a[3], b[3], n[3];
        for (int k = 0; k < 3; k++) a[k] = out[1].pos[k] - out[0].pos[k], b[k] = out[2].pos[k] - out[0].pos[k];
        n[0] = a[1] * b[2] - a[2] * b[1], n[1] = a[2] * b[0] - a[0] * b[2], n[2] = a[0] * b[1] - a[1] * b[0];
        normalize(n);
        for (int e = 0; e < 3; e++) memcpy(out[e].nrm, n, sizeof n);
    }
    x->nv += 3;
    return 0;
}

static int mirrored(const float *m)
{
    double det = m[0] * ((double)m[5] * m[10] - (double)m[9] * m[6]) - m[4] * ((double)m[1] * m[10] - (double)m[9] * m[2]) +
                 m[8] * ((double)m[1] * m[6] - (double)m[5] * m[2]);
    return det < 0;
}

static int collect_meshes(xmodel *x)
{
    const gr_scene *s = x->s;
    x->meshes = calloc(64 + s->node_count * 4, sizeof *x->meshes);
    if (!x->meshes) return -1;
    for (uint32_t i = 0; i < s->node_count; i++) {
        const gr_node *node = &s->nodes[i];
        if (node->mesh < 0) continue;
        float world[16];
        gr_world(s, -1, 0, i, world);
        int flip = (node->skin < 0 && mirrored(world)) ^ bug(x, "cw");
        const gr_mesh *me = &s->meshes[node->mesh];
        xmesh *cur = NULL;
        for (uint32_t q = 0; q < me->prim_count; q++) {
            const gr_prim *p = &me->prims[q];
            if (p->mode == 1) {
                if (cur) cur->line_indices += p->index_count;
                float *l = realloc(x->lines, ((size_t)x->nlines + p->index_count / 2 + 1) * 6 * sizeof *l);
                if (!l) return -1;
                x->lines = l;
                for (uint32_t k = 0; k + 1 < p->index_count; k += 2, x->nlines++)
                    for (int e = 0; e < 2; e++)
                        mcs_mat_point(world, p->pos + (size_t)p->indices[k + (uint32_t)e] * 3, l + x->nlines * 6 + e * 3);
                continue;
            }
            if (p->mode != 4) continue; /* points: no format here holds them */
            cur = &x->meshes[x->nmeshes++];
            cur->first = x->nv;
            cur->material = p->material;
            for (uint32_t k = 0; k + 2 < p->index_count; k += 3)
                if (add_triangle(x, node, world, p, p->indices + k, flip) != 0) return -1;
            cur->count = x->nv - cur->first;
        }
    }
    return 0;
}

/* Writes the file and frees the buffer; 0 or -1. */
static int save(mcb_buf *buf, const char *out)
{
    int rc = buf->oom ? -1 : mcb_write_file(buf, out);
    mcb_free(buf);
    return rc;
}

/* ---- AEM ------------------------------------------------------------------------- */

/* name cut to at most n bytes at a UTF-8 boundary */
static void cut(char *dst, const char *src, size_t n)
{
    size_t len = strlen(src);
    if (len > n) {
        len = n;
        while (len > 0 && ((unsigned char)src[len] & 0xC0) == 0x80) len--;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static uint32_t sample_count(float duration)
{
    return (uint32_t)ceilf(duration * 120) + 1;
}

/* One AEM channel of a bone: the glTF keys when linear, else sampled at 120 Hz. */
static void aem_channel(const gr_scene *s, int a, int node, int path, aemb_key *keys, uint32_t *n)
{
    const mcs_channel *c = NULL;
    for (uint32_t k = 0; k < s->anims[a].channel_count; k++)
        if (s->anims[a].channels[k].node == node && s->anims[a].channels[k].path == path) c = &s->anims[a].channels[k];
    float tr[3], r[4], sc[3];
    if (!c) {
        gr_local_trs(s, -1, 0, (uint32_t)node, tr, r, sc);
        const float *v = path == MCS_T ? tr : path == MCS_R ? r : sc;
        keys[0] = (aemb_key){0, v[0], v[1], v[2], path == MCS_R ? v[3] : 0};
        *n = 1;
        return;
    }
    uint32_t count = c->interp == MCS_LINEAR ? c->key_count : sample_count(s->anims[a].duration);
    for (uint32_t k = 0; k < count; k++) {
        float t = c->interp == MCS_LINEAR ? c->times[k] : k + 1 == count ? s->anims[a].duration : (float)k / 120;
        float v[4] = {0, 0, 0, 0};
        mcs_channel_sample(c, t, v);
        keys[k] = (aemb_key){t, v[0], v[1], v[2], path == MCS_R ? v[3] : 0};
    }
    *n = count;
}

static int write_aem(xmodel *x, const char *out)
{
    const gr_scene *s = x->s;
    aemb_model *m = aemb_sample(AEMB_STATIC);
    if (!m) return -1;
    uint32_t nmat = s->material_count ? s->material_count : 1;
    uint32_t anims = 0, keys_cap = 0;
    for (uint32_t a = 0; a < s->anim_count; a++) {
        if (!(s->anims[a].duration > 0)) continue; /* AEM durations are > 0: a static pose is dropped */
        anims++;
        for (uint32_t k = 0; k < s->anims[a].channel_count; k++)
            keys_cap += s->anims[a].channels[k].key_count + sample_count(s->anims[a].duration);
        keys_cap += 3 * x->nbones;
    }
    uint32_t decoy = bug(x, "decoy") && x->nv >= 3 && x->nv < 100000 ? 100 * (x->nv - x->nv % 3) : 0;
    if (aemb_resize(m, AEMB_VERTICES, x->nv) || aemb_resize(m, AEMB_INDICES, x->nv + decoy) ||
        aemb_resize(m, AEMB_TEXTURES, s->image_count) || aemb_resize(m, AEMB_MESHES, x->nmeshes + (decoy > 0)) ||
        aemb_resize(m, AEMB_MATERIALS, nmat) || aemb_resize(m, AEMB_BONES, x->nbones) ||
        aemb_resize(m, AEMB_ANIMATIONS, anims) || aemb_resize(m, AEMB_SEQUENCES, anims * x->nbones) ||
        aemb_resize(m, AEMB_KEYFRAMES, keys_cap)) {
        aemb_free(m);
        return -1;
    }
    for (uint32_t i = 0; i < x->nv; i++) {
        aemb_vertex *v = &m->vertices[i];
        const xvert *xv = &x->v[i];
        memcpy(v->position, xv->pos, sizeof v->position);
        memcpy(v->normal, xv->nrm, sizeof v->normal);
        if (xv->tan[0] || xv->tan[1] || xv->tan[2]) {
            memcpy(v->tangent, xv->tan, sizeof v->tangent);
            const float *n = xv->nrm, *t = xv->tan;
            float b[3] = {n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]};
            for (int k = 0; k < 3; k++) v->bitangent[k] = b[k] * xv->tan[3];
        }
        memcpy(v->uv, xv->uv, sizeof v->uv);
        for (int k = 0; k < 4; k++) {
            v->bone[k] = k < xv->influences ? xv->bone[k] : -1;
            v->weight[k] = k < xv->influences ? xv->w[k] : 0;
        }
        v->extra_bone = -1;
        m->indices[i] = i;
    }
    for (uint32_t t = 0; t < s->image_count; t++) {
        char name[128];
        snprintf(name, sizeof name, "%s", s->images[t][0] ? s->images[t] : "embedded.png");
        memset(m->textures[t], 0, 128);
        memcpy(m->textures[t], name, strlen(name));
    }
    int none = bug(x, "minus-one") ? -1 : 255;
    for (uint32_t k = 0; k < nmat; k++) {
        int tex = k < s->material_count ? s->materials[k].texture : -1;
        m->materials[k].texture[0] = tex >= 0 ? tex : none;
        m->materials[k].texture[1] = m->materials[k].texture[2] = none;
    }
    for (uint32_t k = 0; k < x->nmeshes; k++) {
        m->meshes[k].first_index = x->meshes[k].first;
        m->meshes[k].index_count = x->meshes[k].count + (bug(x, "line-range") ? x->meshes[k].line_indices : 0);
        m->meshes[k].material = x->meshes[k].material >= 0 ? (uint32_t)x->meshes[k].material : 0;
    }
    if (decoy) {
        for (uint32_t i = 0; i < decoy; i++) m->indices[x->nv + i] = i % (x->nv - x->nv % 3);
        m->meshes[x->nmeshes].first_index = x->nv;
        m->meshes[x->nmeshes].index_count = decoy;
        m->meshes[x->nmeshes].material = 0;
    }
    for (uint32_t b = 0; b < x->nbones; b++) {
        memcpy(m->bones[b].inverse_bind, x->ibm + b * 16, 64);
        m->bones[b].parent = x->bone_parent[b];
    }
    uint32_t ai = 0, kn = 0;
    for (uint32_t a = 0; a < s->anim_count; a++) {
        if (!(s->anims[a].duration > 0)) continue;
        aemb_animation *an = &m->animations[ai];
        memset(an->name, 0, sizeof an->name);
        if (bug(x, "unterminated")) memcpy(an->name, s->anims[a].name, strlen(s->anims[a].name) < 128 ? strlen(s->anims[a].name) : 128);
        else cut(an->name, s->anims[a].name, 127);
        an->duration = s->anims[a].duration;
        an->sequence_index = ai * x->nbones;
        for (uint32_t b = 0; b < x->nbones; b++) {
            aemb_sequence *sq = &m->sequences[ai * x->nbones + b];
            for (int path = 0; path < 3; path++) {
                uint32_t n = 0;
                aem_channel(s, (int)a, x->bone_node[b], path, m->keys + kn, &n);
                sq->first[path] = kn, sq->count[path] = n;
                kn += n;
            }
        }
        ai++;
    }
    m->count[AEMB_KEYFRAMES] = kn;
    mcb_buf buf = {0};
    aemb_write(m, &buf);
    int rc = save(&buf, out);
    aemb_free(m);
    return rc;
}

/* ---- AEM, the current upstream layout (2025) ------------------------------------------ */

/* A bone's keys of one channel in the 2025 layout: as aem1's (aem_channel),
 * or with --bug anim-rest the rest pose alone. */
static void aem2025_channel(const xmodel *x, int a, int node, int path, aemb_key *keys, uint32_t *n)
{
    if (!bug(x, "anim-rest")) {
        aem_channel(x->s, a, node, path, keys, n);
        return;
    }
    float tr[3], r[4], sc[3];
    gr_local_trs(x->s, -1, 0, (uint32_t)node, tr, r, sc);
    const float *v = path == MCS_T ? tr : path == MCS_R ? r : sc;
    keys[0] = (aemb_key){0, v[0], v[1], v[2], path == MCS_R ? v[3] : 0};
    *n = 1;
}

/* A name field of 128 bytes: the name cut at a character within 127 bytes
 * and zeros, or with --bug name-garbage non-zero bytes after the NUL (the
 * converter's uninitialised stack). */
static void aem2025_name(const xmodel *x, char *field, const char *name)
{
    memset(field, bug(x, "name-garbage") ? 0xA5 : 0, AEM2025B_NAME_SIZE);
    cut(field, name, AEM2025B_NAME_SIZE - 1);
}

/* Textures as the converter writes them: a shared flat normal map (0), a
 * shared PBR texture (1), a white 1x1 base colour for materials without a
 * texture (2), then one per source image at its size (3 + i), last in the
 * image buffer. The texels of a source image are not decoded (a toy): its
 * levels are written white. --bug texture-size writes them at twice the
 * size with a whole chain; --bug mip-chain declares twice the size but
 * writes the first level's bytes alone. */
static int aem2025_textures(const xmodel *x, aem2025b_model *m)
{
    static const uint8_t flat[2] = {128, 128}, pbr[4] = {255, 255, 0, 0}, white[4] = {255, 255, 255, 255};
    const uint32_t repeat[2] = {AEM2025B_REPEAT, AEM2025B_REPEAT};
    int rc = aem2025b_add_image(m, 1, 1, 2, repeat, flat, NULL) | aem2025b_add_image(m, 1, 1, 4, repeat, pbr, NULL) |
             aem2025b_add_image(m, 1, 1, 4, repeat, white, NULL);
    for (uint32_t i = 0; i < x->s->image_count && rc == 0; i++) {
        uint32_t w = x->s->image_size[2 * i], h = x->s->image_size[2 * i + 1];
        if (!w || !h) return -1; /* a careful exporter does not guess */
        int bigger = bug(x, "texture-size") || bug(x, "mip-chain");
        if (bigger) w *= 2, h *= 2;
        uint8_t *level = malloc((size_t)w * h * 4);
        if (!level) return -1;
        memset(level, 255, (size_t)w * h * 4);
        if (bug(x, "mip-chain")) {
            aem2025b_texture t = {0, w, h, {AEM2025B_REPEAT, AEM2025B_REPEAT}, 4, AEM2025B_UNCOMPRESSED};
            rc = aem2025b_add_texture(m, t, level, (uint64_t)w * h * 4, NULL);
        } else {
            rc = aem2025b_add_image(m, w, h, 4, repeat, level, NULL);
        }
        free(level);
    }
    return rc;
}

static void aem2025_vertex(const xmodel *x, const xvert *xv, aem2025b_vertex *v)
{
    memcpy(v->position, xv->pos, sizeof v->position);
    memcpy(v->normal, xv->nrm, sizeof v->normal);
    /* a unit tangent frame: the source's, or (as the converter generates
     * one) any tangent perpendicular to the normal, handedness +1 */
    float t[4] = {xv->tan[0], xv->tan[1], xv->tan[2], xv->tan[3] < 0 ? -1.0f : 1.0f};
    const float *n = xv->nrm;
    if (!t[0] && !t[1] && !t[2]) {
        float axis[3] = {0, 0, 0};
        axis[fabsf(n[0]) < 0.5f ? 0 : fabsf(n[1]) < 0.5f ? 1 : 2] = 1;
        float c[3] = {axis[1] * n[2] - axis[2] * n[1], axis[2] * n[0] - axis[0] * n[2], axis[0] * n[1] - axis[1] * n[0]};
        memcpy(t, c, sizeof c);
    }
    normalize(t);
    memcpy(v->tangent, t, sizeof v->tangent);
    float b[3] = {n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]};
    normalize(b);
    for (int k = 0; k < 3; k++) v->bitangent[k] = b[k] * t[3];
    memcpy(v->uv, xv->uv, sizeof v->uv);
    /* unused slots: -1 (the readme), or glTF's filler 0 with --bug filler-index */
    int32_t unused = bug(x, "filler-index") && xv->influences ? 0 : -1;
    for (int k = 0; k < 4; k++) {
        v->joint[k] = k < xv->influences ? xv->bone[k] : unused;
        v->weight[k] = k < xv->influences ? xv->w[k] * (bug(x, "weight-sum") ? 0.75f : 1.0f) : 0;
    }
}

static int aem2025_animations(const xmodel *x, aem2025b_model *m, uint32_t keys_cap)
{
    const gr_scene *s = x->s;
    aemb_key *keys = malloc(((size_t)keys_cap + 1) * sizeof *keys);
    if (!keys) return -1;
    uint32_t ai = 0, kn = 0;
    for (uint32_t a = 0; a < s->anim_count; a++) {
        if (!(s->anims[a].duration > 0)) continue; /* durations are > 0: a static pose is dropped */
        aem2025_name(x, m->animations[ai].name, s->anims[a].name);
        m->animations[ai].duration = s->anims[a].duration;
        for (uint32_t b = 0; b < x->nbones; b++) {
            aem2025b_track *t = &m->tracks[(uint64_t)ai * x->nbones + b];
            t->first_keyframe = kn;
            for (int path = 0; path < 3; path++) {
                uint32_t n = 0;
                aem2025_channel(x, (int)a, x->bone_node[b], path, keys + kn, &n);
                t->count[path] = n;
                kn += n;
            }
        }
        ai++;
    }
    int rc = aem2025b_resize(m, AEM2025B_KEYFRAMES, kn);
    for (uint32_t k = 0; rc == 0 && k < kn; k++)
        m->keys[k] = (aem2025b_key){keys[k].time, keys[k].x, keys[k].y, keys[k].z, keys[k].w};
    free(keys);
    return rc;
}

static int write_aem2025(xmodel *x, const char *out)
{
    const gr_scene *s = x->s;
    aem2025b_model *m = aem2025b_new();
    if (!m) return -1;
    uint32_t nmat = s->material_count ? s->material_count : 1, anims = 0, keys_cap = 0;
    for (uint32_t a = 0; a < s->anim_count; a++) {
        if (!(s->anims[a].duration > 0)) continue;
        anims++;
        for (uint32_t k = 0; k < s->anims[a].channel_count; k++)
            keys_cap += s->anims[a].channels[k].key_count + sample_count(s->anims[a].duration);
        keys_cap += 3 * x->nbones;
    }
    int rc = aem2025b_resize(m, AEM2025B_VERTICES, x->nv) | aem2025b_resize(m, AEM2025B_INDICES, x->nv) |
             aem2025b_resize(m, AEM2025B_MESHES, x->nmeshes) | aem2025b_resize(m, AEM2025B_MATERIALS, nmat) |
             aem2025b_resize(m, AEM2025B_JOINTS, x->nbones) | aem2025b_resize(m, AEM2025B_ANIMATIONS, anims) |
             aem2025b_resize(m, AEM2025B_TRACKS, (uint64_t)anims * x->nbones);
    if (rc == 0) rc = aem2025_textures(x, m);
    if (rc == 0) rc = aem2025_animations(x, m, keys_cap);
    if (rc != 0) {
        aem2025b_free(m);
        return -1;
    }
    for (uint32_t i = 0; i < x->nv; i++) {
        aem2025_vertex(x, &x->v[i], &m->vertices[i]);
        m->indices[i] = i;
    }
    for (uint32_t k = 0; k < nmat; k++) {
        int image = k < s->material_count ? s->materials[k].texture : -1;
        m->materials[k] = (aem2025b_material){{image >= 0 ? 3 + (uint32_t)image : 2, 0, 1}, AEM2025B_OPAQUE};
    }
    for (uint32_t k = 0; k < x->nmeshes; k++)
        m->meshes[k] = (aem2025b_mesh){x->meshes[k].first, x->meshes[k].count,
                                       x->meshes[k].material >= 0 ? (uint32_t)x->meshes[k].material : 0};
    for (uint32_t b = 0; b < x->nbones; b++) {
        aem2025_name(x, m->joints[b].name, s->nodes[x->bone_node[b]].name);
        memcpy(m->joints[b].inverse_bind, x->ibm + b * 16, 64);
        m->joints[b].parent = x->bone_parent[b];
    }
    mcb_buf buf = {0};
    aem2025b_write(m, &buf);
    rc = save(&buf, out);
    aem2025b_free(m);
    return rc;
}

/* ---- SAMF -------------------------------------------------------------------------- */

/* The frames of an animation of `duration` seconds at about 30 per second:
 * one more than the steps when the last frame shows the end, as many as the
 * steps when the animation loops (the first frame shows the end again). */
static uint32_t frame_count(const xmodel *x, float duration)
{
    uint32_t steps = (uint32_t)ceilf(duration * 30);
    return x->loop ? (steps ? steps : 1) : steps + 1;
}

/* The scene time of frame f of `frames` sampled at 30 per second, the last
 * frame at the animation's end, or with --loop `frames` equal steps over
 * [0, duration) (SAMF and E3D keep no rate: the frames' order is all a
 * reader knows); reversed with --bug anim-reversed. */
static float frame_time(const xmodel *x, uint32_t f, uint32_t frames, float duration)
{
    if (bug(x, "anim-reversed")) f = frames - 1 - f;
    if (x->loop) return (float)((double)f * duration / frames);
    return f + 1 == frames ? duration : (float)f / 30;
}

/* The animation whose poses a frame shows: none (the rest pose) with --bug anim-rest. */
static int posed_anim(const xmodel *x, int a)
{
    return bug(x, "anim-rest") ? -1 : a;
}

static int16_t fx16(float v)
{
    long r = lroundf(v * 4096);
    return (int16_t)(r > 32767 ? 32767 : r < -32768 ? -32768 : r);
}

static aamfb_matrix fx_matrix(const float m[16])
{
    aamfb_matrix out;
    memset(&out, 0, sizeof out);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) out.m[r * 3 + c] = fx16(m[c * 4 + r]);
    for (int k = 0; k < 3; k++) out.t[k] = (int32_t)lroundf(m[12 + k] * 4096);
    return out;
}

/* A bone's local matrix at animation a, time t, scale dropped (SAMF has none). */
static aamfb_matrix samf_local(const gr_scene *s, int a, float t, int node)
{
    float tr[3], r[4], sc[3], one[3] = {1, 1, 1}, m[16];
    gr_local_trs(s, a, t, (uint32_t)node, tr, r, sc);
    mcs_mat_compose(tr, r, one, m);
    return fx_matrix(m);
}

/* Weights to u8 summing to 255: largest remainders get the rounding (or int(w*255)). */
static void u8_weights(const xmodel *x, const xvert *v, uint8_t *out)
{
    int sum = 0;
    float rem[8] = {0};
    for (int k = 0; k < v->influences; k++) {
        float w = v->w[k] * 255;
        out[k] = (uint8_t)w; /* int(w * 255) */
        rem[k] = w - (float)out[k];
        sum += out[k];
    }
    if (bug(x, "truncate-weights")) return;
    while (sum < 255) {
        int best = 0;
        for (int k = 1; k < v->influences; k++)
            if (rem[k] > rem[best]) best = k;
        out[best]++, rem[best] = -1, sum++;
    }
}

static void samf_weights(const xmodel *x, const xvert *v, aamfb_skin *out, int root)
{
    memset(out, 0, sizeof *out);
    if (!v->influences) {
        out->bone[0] = (uint8_t)root, out->weight[0] = 255;
        return;
    }
    for (int k = 0; k < v->influences; k++) out->bone[k] = (uint8_t)v->bone[k];
    u8_weights(x, v, out->weight);
}

static int write_samf(xmodel *x, const char *out)
{
    const gr_scene *s = x->s;
    int root = -1; /* an added root bone for static vertices */
    for (uint32_t i = 0; i < x->nv && root < 0; i++)
        if (!x->v[i].influences) root = (int)x->nbones;
    uint32_t nbones = x->nbones + (root >= 0);
    if (nbones > 256) return refuse("SAMF skin bone indices are u8: at most 256 bones");
    if (x->nv > 65536 || x->nv / 3 > 65535) return refuse("SAMF faces are u16: at most 65536 vertices");
    for (uint32_t i = 0; i < x->nv; i++)
        for (int k = 0; k < 3; k++)
            if (fabsf(x->v[i].pos[k]) >= 7.999f) return refuse("a coordinate beyond SAMF's 4.12 range (+-8)");
    aamfb_model *m = aamfb_sample(AAMFB_ONE_BONE, 0);
    if (!m) return -1;
    int rc = -1;
    if (aamfb_resize_bones(m, (uint16_t)nbones) || aamfb_resize_vertices(m, x->nv)) goto out;
    free(m->faces);
    m->face_count = (uint16_t)(x->nv / 3);
    m->faces = calloc(m->face_count + 1u, sizeof *m->faces);
    if (!m->faces) goto out;
    for (uint32_t b = 0; b < nbones; b++) {
        int node = b < x->nbones ? x->bone_node[b] : -1;
        m->bones[b].index = (uint16_t)b;
        m->bones[b].parent = (uint16_t)(b < x->nbones && x->bone_parent[b] >= 0 ? x->bone_parent[b] : (int)b);
        static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        m->bones[b].bind = node >= 0 ? samf_local(s, -1, 0, node) : fx_matrix(identity);
    }
    for (uint32_t i = 0; i < x->nv; i++) {
        const xvert *v = &x->v[i];
        m->positions[i] = (aamfb_svector){fx16(v->pos[0]), fx16(v->pos[1]), fx16(v->pos[2]), 0};
        m->normals[i] = (aamfb_svector){fx16(v->nrm[0]), fx16(v->nrm[1]), fx16(v->nrm[2]), 0};
        samf_weights(x, v, &m->skin[i], root);
    }
    for (uint32_t f = 0; f < m->face_count; f++)
        for (int e = 0; e < 3; e++) m->faces[f][e] = (uint16_t)(f * 3 + (uint32_t)e);
    /* every file holds an animation (AAMF_NO_ANIMATIONS): a static scene gets its rest pose */
    uint32_t nanims = s->anim_count ? s->anim_count : 1;
    for (uint32_t a = 0; a < m->anim_count; a++) free(m->anims[a].keys);
    free(m->anims);
    m->anims = calloc(nanims, sizeof *m->anims);
    m->anim_count = (uint16_t)nanims;
    if (!m->anims) goto out;
    for (uint32_t a = 0; a < nanims; a++) {
        aamfb_anim *an = &m->anims[a];
        int ga = s->anim_count ? (int)a : -1;
        float duration = ga >= 0 ? s->anims[ga].duration : 0;
        uint32_t frames = frame_count(x, duration);
        char name[16];
        cut(name, ga >= 0 ? s->anims[ga].name : "rest", 8);
        for (char *c = name; *c; c++) /* SAMF names are printable ASCII */
            if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7E) *c = '_';
        memcpy(an->name, name, strlen(name));
        an->keyframe_count = frames;
        if (aamfb_resize_keys(an, frames * nbones)) goto out;
        /* bone-major, as the runtime indexes them (keyframe + bone * keyframe_count,
         * docs/LOADERS.md): all frames of bone 0, then of bone 1 */
        for (uint32_t b = 0; b < nbones; b++)
            for (uint32_t f = 0; f < frames; f++)
                an->keys[b * frames + f] = b < x->nbones ? samf_local(s, posed_anim(x, ga), frame_time(x, f, frames, duration), x->bone_node[b])
                                                         : m->bones[b].bind;
    }
    mcb_buf buf = {0};
    aamfb_write(m, &buf);
    rc = save(&buf, out);
out:
    aamfb_free(m);
    return rc;
}

/* A 0..1 value as u8, rounded (SEModel vec4_b, E3D colors). */
static uint8_t unit_u8(float v)
{
    return (uint8_t)lroundf((v < 0 ? 0 : v > 1 ? 1 : v) * 255);
}

/* ---- NLM ------------------------------------------------------------------------- */

static void nlm_vertex(const xvert *xv, nlmb_vertex *v, int animated)
{
    memset(v, 0, sizeof *v);
    memcpy(v->position, xv->pos, sizeof v->position);
    memcpy(v->normal, xv->nrm, sizeof v->normal);
    memcpy(v->uv, xv->uv, sizeof v->uv);
    memcpy(v->color, xv->color, sizeof v->color); /* RGB: NLM has no alpha */
    for (int k = 0; k < 4; k++) {
        v->bone[k] = animated && k < xv->influences ? xv->bone[k] : -1;
        v->weight[k] = animated && k < xv->influences ? xv->w[k] : 0;
    }
}

static int nlm_skeleton(const xmodel *x, nlmb_model *m)
{
    const gr_scene *s = x->s;
    /* node 0: a root; node b + 1: bone b (parents first) */
    if (nlmb_resize_nodes(m, x->nbones + 1) || nlmb_resize_bone_infos(m, x->nbones) ||
        nlmb_resize_channels(m, x->nbones))
        return -1;
    for (uint32_t n = 0; n <= x->nbones; n++) {
        int32_t kids[512];
        uint32_t nk = 0;
        for (uint32_t b = 0; b < x->nbones && nk < 512; b++)
            if (x->bone_parent[b] + 1 == (int)n) kids[nk++] = (int32_t)b + 1;
        if (nlmb_set_children(&m->nodes[n], kids, nk)) return -1;
        if (n) {
            float tr[3], r[4], sc[3];
            gr_local_trs(s, -1, 0, (uint32_t)x->bone_node[n - 1], tr, r, sc);
            mcs_mat_compose(tr, r, sc, m->nodes[n].transform);
        }
    }
    const int a = s->anim_count ? 0 : -1; /* NLM holds one animation: the first */
    float duration = a >= 0 && s->anims[0].duration > 0 ? s->anims[0].duration : 1.0f / 120;
    uint32_t keys = sample_count(duration);
    m->ticks_per_second = 1000;
    m->duration = duration * 1000;
    for (uint32_t b = 0; b < x->nbones; b++) {
        m->bone_infos[b] = (nlmb_bone_info){(int32_t)b + 1, {0}, (int32_t)b};
        memcpy(m->bone_infos[b].offset, x->ibm + b * 16, 64);
        nlmb_channel *ch = &m->channels[b];
        ch->node_id = (int32_t)b + 1;
        ch->bone_id = (int32_t)b;
        for (int k = 0; k < NLMB_KEY_KINDS; k++)
            if (nlmb_resize_keys(ch, k, keys)) return -1;
        for (uint32_t q = 0; q < keys; q++) {
            float t = q + 1 == keys ? duration : (float)q / 120, tr[3], r[4], sc[3];
            gr_local_trs(s, a, t, (uint32_t)x->bone_node[b], tr, r, sc);
            ch->keys[NLMB_POSITION][q] = (nlmb_key){t * 1000, {tr[0], tr[1], tr[2], 0}};
            ch->keys[NLMB_ROTATION][q] = (nlmb_key){t * 1000, {r[0], r[1], r[2], r[3]}};
            ch->keys[NLMB_SCALE][q] = (nlmb_key){t * 1000, {sc[0], sc[1], sc[2], 0}};
        }
    }
    return 0;
}

static int write_nlm(xmodel *x, const char *out)
{
    if (x->nbones > 100) return refuse("NLM skinning slots live in a 100-entry array: at most 100 bones");
    int animated = x->nbones > 0;
    nlmb_model *m = nlmb_sample(animated ? NLMB_SKINNED_ANIMATED : NLMB_STATIC_TWO_MESHES);
    if (!m) return -1;
    int rc = -1;
    uint32_t nm = x->nmeshes + (x->nlines > 0);
    if (nlmb_resize_meshes(m, nm)) goto out;
    for (uint32_t k = 0; k < x->nmeshes; k++) {
        nlmb_mesh *me = &m->meshes[k];
        if (nlmb_resize_mesh(me, x->meshes[k].count, x->meshes[k].count) || nlmb_set_texture(me, NULL, 0)) goto out;
        for (uint32_t i = 0; i < x->meshes[k].count; i++) {
            nlm_vertex(&x->v[x->meshes[k].first + i], &me->vertices[i], animated);
            me->indices[i] = i;
        }
    }
    if (x->nlines) { /* a line list: an index count that is no multiple of 3 */
        nlmb_mesh *me = &m->meshes[x->nmeshes];
        uint32_t n = x->nlines * 2, ni = n % 3 ? n : n + 1; /* a trailing odd index is not drawn */
        if (nlmb_resize_mesh(me, n, ni) || nlmb_set_texture(me, NULL, 0)) goto out;
        for (uint32_t i = 0; i < n; i++) {
            xvert v;
            memset(&v, 0, sizeof v);
            memcpy(v.pos, x->lines + (size_t)i * 3, sizeof v.pos);
            v.color[0] = v.color[1] = v.color[2] = v.color[3] = 1;
            nlm_vertex(&v, &me->vertices[i], 0);
            me->indices[i] = i;
        }
        if (ni > n) me->indices[n] = 0;
    }
    for (int k = 0; k < 3; k++) m->aabb_min[k] = 1e30f, m->aabb_max[k] = -1e30f;
    for (uint32_t i = 0; i < x->nv; i++)
        for (int k = 0; k < 3; k++) {
            if (x->v[i].pos[k] < m->aabb_min[k]) m->aabb_min[k] = x->v[i].pos[k];
            if (x->v[i].pos[k] > m->aabb_max[k]) m->aabb_max[k] = x->v[i].pos[k];
        }
    if (animated && nlm_skeleton(x, m)) goto out;
    mcb_buf buf = {0};
    nlmb_write(m, &buf);
    rc = save(&buf, out);
out:
    nlmb_free(m);
    return rc;
}

/* ---- SEModel ------------------------------------------------------------------------ */

static void quat_mul(const float a[4], const float b[4], float out[4])
{
    float r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

/* ---- conventions (--bug z-up, cm): the whole scene under C = sc R ---------------- */

/* What a Z-up or centimetre exporter does on purpose, consistently: every
 * root node (and its animation channels) under C, skinned vertices under C
 * and inverse binds under C^-1, so the model is the scene transformed. */
static void apply_convention(gr_scene *s, const float q[4], float sc)
{
    static const float zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
    float c[16], r[16], cinv[16];
    const float scale[3] = {sc, sc, sc};
    mcs_mat_compose(zero, q, scale, c);
    mcs_mat_compose(zero, q, one, r);
    mcs_mat_invert(c, cinv);
    for (uint32_t i = 0; i < s->node_count; i++) {
        gr_node *n = &s->nodes[i];
        if (n->parent >= 0) continue;
        float t[3];
        mcs_mat_dir(c, n->t, t);
        memcpy(n->t, t, sizeof t);
        quat_mul(q, n->r, n->r);
        for (int k = 0; k < 3; k++) n->s[k] *= sc;
        mcs_mat_compose(n->t, n->r, n->s, n->local);
        for (uint32_t a = 0; a < s->anim_count; a++)
            for (uint32_t k = 0; k < s->anims[a].channel_count; k++) {
                mcs_channel *ch = &s->anims[a].channels[k];
                if (ch->node != (int)i) continue;
                size_t values = (size_t)ch->key_count * (ch->interp == MCS_CUBIC ? 3 : 1);
                for (size_t v = 0; v < values; v++) {
                    float *val = ch->values + v * (ch->path == MCS_R ? 4 : 3);
                    if (ch->path == MCS_T) mcs_mat_dir(c, val, t), memcpy(val, t, sizeof t);
                    else if (ch->path == MCS_R) quat_mul(q, val, val);
                    else for (int e = 0; e < 3; e++) val[e] *= sc;
                }
            }
    }
    for (uint32_t k = 0; k < s->skin_count; k++)
        for (uint32_t j = 0; j < s->skins[k].joint_count; j++)
            mcs_mat_mul(s->skins[k].ibm + (size_t)j * 16, cinv, s->skins[k].ibm + (size_t)j * 16);
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        int skinned = 0;
        for (uint32_t i = 0; i < s->node_count; i++) skinned |= s->nodes[i].mesh == (int)m && s->nodes[i].skin >= 0;
        if (!skinned) continue;
        for (uint32_t p = 0; p < s->meshes[m].prim_count; p++) {
            gr_prim *pr = &s->meshes[m].prims[p];
            for (uint32_t v = 0; v < pr->vertex_count; v++) {
                float o[3];
                mcs_mat_point(c, pr->pos + (size_t)v * 3, o), memcpy(pr->pos + (size_t)v * 3, o, sizeof o);
                if (pr->nrm) mcs_mat_dir(r, pr->nrm + (size_t)v * 3, o), memcpy(pr->nrm + (size_t)v * 3, o, sizeof o);
                if (pr->tan) mcs_mat_dir(r, pr->tan + (size_t)v * 4, o), memcpy(pr->tan + (size_t)v * 4, o, sizeof o);
            }
        }
    }
}

static void semodel_bone(const xmodel *x, uint32_t b, semb_bone *o)
{
    const gr_scene *s = x->s;
    int node = x->bone_node[b];
    float world[16], q[4], tr[3], r[4], sc[3];
    gr_world(s, -1, 0, (uint32_t)node, world);
    gr_local_trs(s, -1, 0, (uint32_t)node, tr, r, sc);
    memcpy(q, r, sizeof q);
    uint32_t guard = 0;
    for (int p = s->nodes[node].parent; p >= 0 && guard++ < s->node_count; p = s->nodes[p].parent) {
        float pt[3], pr[4], ps[3];
        gr_local_trs(s, -1, 0, (uint32_t)p, pt, pr, ps);
        quat_mul(pr, q, q);
    }
    memset(o->name, 0, sizeof o->name);
    if (s->nodes[node].name[0]) cut(o->name, s->nodes[node].name, SEMB_NAME_MAX - 1);
    else snprintf(o->name, sizeof o->name, "bone%u", (unsigned)b); /* SEModel names are never empty */
    o->parent = x->bone_parent[b];
    memcpy(o->global_position, world + 12, sizeof o->global_position);
    memcpy(o->global_rotation, q, sizeof o->global_rotation);
    memcpy(o->local_position, tr, sizeof o->local_position);
    memcpy(o->local_rotation, r, sizeof o->local_rotation);
    memcpy(o->scale, sc, sizeof o->scale);
}

/* The most influences of a vertex of mesh k (at least 1). */
static int mesh_influences(const xmodel *x, uint32_t k)
{
    const xmesh *xm = &x->meshes[k];
    int influences = 1;
    for (uint32_t i = 0; i < xm->count; i++)
        if (x->v[xm->first + i].influences > influences) influences = x->v[xm->first + i].influences;
    return influences;
}

/* The 2018 layout, or with draft the 2017 draft of semodel.md: binary16
 * normals and weights, one influence count for the file in the header, a
 * material index per vertex and UV layer (and no material block: the draft
 * leaves it TODO). */
static int write_semodel(xmodel *x, const char *out, int draft)
{
    const gr_scene *s = x->s;
    semb_model *m = semb_new(draft ? SEMB_DRAFT : SEMB_2018);
    if (!m) return -1;
    int rc = -1, file_influences = 1;
    m->bone_flags = SEMB_GLOBAL | SEMB_LOCAL | SEMB_SCALES;
    m->mesh_flags = SEMB_UVSET | SEMB_NORMALS | (x->colors ? SEMB_COLOR : 0) | (x->nbones ? SEMB_WEIGHTS : 0);
    /* the draft's per-vertex material indices need a material to point at */
    uint32_t materials = draft && !s->material_count ? 1 : s->material_count;
    if (semb_set_bones(m, x->nbones) || semb_set_materials(m, materials)) goto out;
    for (uint32_t b = 0; b < x->nbones; b++) semodel_bone(x, b, &m->bones[b]);
    for (uint32_t k = 0; draft && k < x->nmeshes; k++)
        if (mesh_influences(x, k) > file_influences) file_influences = mesh_influences(x, k);
    if (draft) m->max_influence = (uint8_t)(x->nbones ? file_influences : 0);
    for (uint32_t k = 0; k < x->nmeshes; k++) {
        const xmesh *xm = &x->meshes[k];
        int influences = draft ? file_influences : mesh_influences(x, k);
        semb_mesh *me = semb_add_mesh(m, xm->count, xm->count / 3, 1, (uint8_t)(x->nbones ? influences : 0));
        if (!me) goto out;
        for (uint32_t i = 0; i < xm->count; i++) {
            const xvert *v = &x->v[xm->first + i];
            memcpy(me->position[i], v->pos, sizeof me->position[i]);
            memcpy(me->normal[i], v->nrm, sizeof me->normal[i]);
            memcpy(me->uv + (size_t)i * 2, v->uv, 2 * sizeof(float));
            for (int c = 0; x->colors && c < 4; c++) me->color[i][c] = unit_u8(v->color[c]);
            me->uv_material[i] = xm->material >= 0 ? (uint32_t)xm->material : 0;
            for (int q = 0; x->nbones && q < influences; q++) {
                me->bone[(size_t)i * influences + q] = q < v->influences ? (uint32_t)v->bone[q] : 0;
                me->weight[(size_t)i * influences + q] = q < v->influences ? v->w[q] : 0;
            }
        }
        for (uint32_t f = 0; f < xm->count / 3; f++)
            for (int e = 0; e < 3; e++) me->face[f][e] = f * 3 + (uint32_t)e;
        me->material[0] = xm->material;
        me->flags = m->mesh_flags;
    }
    mcb_buf buf = {0};
    semb_write(m, &buf);
    rc = save(&buf, out);
out:
    semb_free(m);
    return rc;
}

/* ---- E3D --------------------------------------------------------------------------- */

/* Bone b's meshNode, its children nested inside (e3d.adoc: meshNode nests). */
static void e3d_node(const xmodel *x, e3db *w, uint32_t b, uint32_t depth)
{
    const gr_scene *s = x->s;
    int node = x->bone_node[b];
    float tr[3], r[4], sc[3];
    gr_local_trs(s, -1, 0, (uint32_t)node, tr, r, sc);
    char name[320];
    if (s->nodes[node].name[0]) cut(name, s->nodes[node].name, 300);
    else snprintf(name, sizeof name, "bone%u", (unsigned)b); /* a skin names its bones */
    e3db_begin(w, 0x3010);
    e3db_u32(w, 0x3020, b + 1);
    e3db_string(w, 0x3021, name);
    double pos[3] = {tr[0], tr[1], tr[2]}, q[4] = {r[3], r[0], r[1], r[2]}; /* w x y z */
    e3db_floats(w, 0x3030, sc, 3);
    e3db_doubles(w, 0x3031, q, 4);
    e3db_doubles(w, 0x3032, pos, 3);
    for (uint32_t c = 0; c < x->nbones && depth < 200; c++)
        if (x->bone_parent[c] == (int)b) e3d_node(x, w, c, depth + 1);
    e3db_end(w);
}

/* One E3D mesh of `count` vertices from x->v[first]: at most 65,536 (e3d.adoc, attributes). */
static void e3d_mesh(const xmodel *x, e3db *w, uint32_t k, uint32_t first, uint32_t count)
{
    const xmesh part = {first, count, 0, 0}, *xm = &part;
    int skinned = x->nbones > 0;
    e3db_begin(w, 0x1010);
    e3db_u32(w, 0x1020, k + 1);
    e3db_begin(w, 0x2000);
    mcb_u32(&w->b, xm->count);
    e3db_begin(w, 0x2800);
    /* position, normal, UV, then RGBA u8 colours when the source has them, then 8 bone IDs, 8 weights */
    unsigned colors = x->colors ? 4 : 0, stride = 12 + 4 + 8 + colors + (skinned ? 16 : 0);
    const uint16_t layout[5][2] = {{0x2010, 0}, {0x2020, 12}, {0x2030, 16}, {0x2070, 24}, {0x2090, (uint16_t)(24 + colors)}};
    for (int e = 0; e < 5; e++)
        if ((e != 3 || colors) && (e != 4 || skinned)) mcb_u16(&w->b, layout[e][0]), mcb_u16(&w->b, layout[e][1]);
    mcb_u16(&w->b, 0);
    mcb_u16(&w->b, (uint16_t)stride);
    for (uint32_t i = 0; i < xm->count; i++) {
        const xvert *v = &x->v[xm->first + i];
        mcb_f32s(&w->b, v->pos, 3);
        mcb_u32(&w->b, e3db_pack_normal(v->nrm));
        mcb_f32s(&w->b, v->uv, 2);
        for (unsigned c = 0; c < colors; c++) mcb_u8(&w->b, unit_u8(v->color[c]));
        if (!skinned) continue;
        uint8_t u8[8] = {0};
        u8_weights(x, v, u8);
        for (int q = 0; q < 8; q++) mcb_u8(&w->b, q < v->influences ? (uint8_t)(v->bone[q] + 1) : 0);
        for (int q = 0; q < 8; q++) mcb_u8(&w->b, q < v->influences ? u8[q] : 0);
    }
    e3db_end(w);
    e3db_end(w);
    int wide = xm->count > 65535;
    e3db_begin(w, wide ? 0x1031 : 0x1030);
    mcb_u32(&w->b, xm->count / 3);
    for (uint32_t i = 0; i < xm->count / 3 * 3; i++) {
        if (wide) mcb_u32(&w->b, i);
        else mcb_u16(&w->b, (uint16_t)i);
    }
    e3db_end(w);
    if (skinned) {
        static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        e3db_begin(w, 0x1050);
        e3db_floats(w, 0x1052, identity, 16);
        e3db_begin(w, 0x1053);
        mcb_u8(&w->b, (uint8_t)x->nbones);
        for (uint32_t b = 0; b < x->nbones; b++) {
            char name[320];
            int node = x->bone_node[b];
            if (x->s->nodes[node].name[0]) cut(name, x->s->nodes[node].name, 300);
            else snprintf(name, sizeof name, "bone%u", (unsigned)b);
            mcb_u16(&w->b, (uint16_t)strlen(name));
            mcb_bytes(&w->b, name, strlen(name));
            mcb_f32s(&w->b, x->ibm + b * 16, 16);
        }
        e3db_end(w);
        uint8_t set = 0;
        e3db_leaf(w, 0x1054, &set, 1);
        e3db_end(w);
    }
    e3db_end(w);
}

static void e3d_animation(const xmodel *x, e3db *w, int a)
{
    const gr_scene *s = x->s;
    uint32_t frames = frame_count(x, s->anims[a].duration);
    e3db_begin(w, 0xA010);
    if (s->anims[a].name[0]) e3db_string(w, 0xA021, s->anims[a].name);
    uint32_t range[3] = {0, frames - 1, 0};
    e3db_leaf(w, 0xA022, range, sizeof range); /* before the tracks: their frames read one way only */
    float *buf = malloc((size_t)frames * 4 * sizeof *buf + 1);
    for (uint32_t b = 0; buf && b < x->nbones; b++) {
        e3db_begin(w, 0xA100);
        mcb_u32(&w->b, frames);
        for (uint32_t f = 0; f < frames; f++) mcb_u32(&w->b, f);
        mcb_u8(&w->b, (uint8_t)x->loop); /* loop flag after the frames (e3d.adoc) */
        for (int path = 0; path < 3; path++) {
            int n = path == MCS_R ? 4 : 3;
            for (uint32_t f = 0; f < frames; f++) {
                float tr[3], r[4], sc[3];
                gr_local_trs(s, posed_anim(x, a), frame_time(x, f, frames, s->anims[a].duration),
                             (uint32_t)x->bone_node[b], tr, r, sc);
                float *o = buf + (size_t)f * n;
                if (path == MCS_T) memcpy(o, tr, sizeof tr);
                else if (path == MCS_S) memcpy(o, sc, sizeof sc);
                else o[0] = r[3], o[1] = r[0], o[2] = r[1], o[3] = r[2];
            }
            e3db_floats(w, path == MCS_T ? 0xA210 : path == MCS_R ? 0xA230 : 0xA220, buf, (size_t)frames * n);
        }
        e3db_u32(w, 0x3020, b + 1);
        e3db_end(w);
    }
    free(buf);
    e3db_end(w);
}

static int bone_depth(const xmodel *x, uint32_t b)
{
    int d = 1;
    for (int p = x->bone_parent[b]; p >= 0 && d < 100000; p = x->bone_parent[p]) d++;
    return d;
}

static int write_e3d(xmodel *x, const char *out)
{
    if (x->nbones > 255) return refuse("E3D skins address 255 bones (u8 IDs)");
    for (uint32_t b = 0; b < x->nbones; b++)
        if (bone_depth(x, b) > 60) return refuse("a bone chain nests meshNodes deeper than readers' 64 levels");
    e3db w;
    memset(&w, 0, sizeof w);
    e3db_version(&w);
    e3db_begin(&w, 0x1000);
    uint32_t nparts = 0;
    for (uint32_t k = 0; k < x->nmeshes; k++)
        for (uint32_t at = 0; at < x->meshes[k].count; at += 65535) {
            uint32_t n = x->meshes[k].count - at < 65535 ? x->meshes[k].count - at : 65535;
            e3d_mesh(x, &w, nparts++, x->meshes[k].first + at, n);
        }
    e3db_end(&w);
    e3db_begin(&w, 0x3000);
    for (uint32_t b = 0; b < x->nbones; b++)
        if (x->bone_parent[b] < 0) e3d_node(x, &w, b, 0);
    for (uint32_t k = 0; k < nparts; k++) { /* the meshes, placed at the origin (vertices are baked) */
        char name[32];
        snprintf(name, sizeof name, "mesh node %u", (unsigned)k);
        e3db_begin(&w, 0x3010);
        e3db_u32(&w, 0x3020, x->nbones + 1 + k);
        e3db_string(&w, 0x3021, name);
        e3db_u32(&w, 0x1020, k + 1);
        e3db_end(&w);
    }
    e3db_end(&w);
    if (x->nbones && x->s->anim_count) {
        e3db_begin(&w, 0xA000);
        for (uint32_t a = 0; a < x->s->anim_count; a++) e3d_animation(x, &w, (int)a);
        e3db_end(&w);
    }
    int rc = w.b.oom ? -1 : mcb_write_file(&w.b, out);
    e3db_free(&w); /* owns its buffer */
    return rc;
}

int main(int argc, char **argv)
{
    const char *format = NULL, *bugname = NULL, *layout = "2018";
    int i = 1, loop = 0;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "--loop") == 0) {
            loop = 1, i--; /* a flag: no value */
            continue;
        }
        if (strcmp(argv[i], "--format") == 0) format = argv[i + 1];
        else if (strcmp(argv[i], "--bug") == 0) bugname = argv[i + 1];
        else if (strcmp(argv[i], "--layout") == 0) layout = argv[i + 1];
        else break;
    }
    int draft = strcmp(layout, "draft") == 0;
    static const char *const formats[5] = {"aem", "aamf", "nlm", "semodel", "e3d"};
    int f = 0;
    while (format && f < 5 && strcmp(format, formats[f]) != 0) f++;
    int aem2025 = f == 0 && strcmp(layout, "2025") == 0;
    if (!format || argc - i != 2 || f == 5 || (!draft && !aem2025 && strcmp(layout, "2018") != 0) || (draft && f != 3)) {
        fputs("usage: toy_export --format aem|aamf|nlm|semodel|e3d [--layout 2018|draft (semodel) | 2025 (aem)] [--loop] "
              "[--bug NAME] IN OUT\n",
              stderr);
        return 2;
    }
    gr_scene s;
    if (gr_load(argv[i], &s) != 0) return 1;
    xmodel x = {.s = &s, .bug = bugname, .loop = loop, .limit = f >= 3 ? 8 : 4};
    uint32_t all_anims = s.anim_count;
    if (bug(&x, "drop-still")) { /* zero-length animations moved past the end (gr_free still frees them) */
        uint32_t k = 0;
        for (uint32_t a = 0; a < s.anim_count; a++)
            if (s.anims[a].duration > 0) {
                gr_anim t = s.anims[k];
                s.anims[k++] = s.anims[a], s.anims[a] = t;
            }
        s.anim_count = k;
    }
    if (bug(&x, "loop-some") && s.anim_count > 1) x.loop = !x.loop;
    if (bug(&x, "z-up")) apply_convention(&s, (const float[4]){0.70710678f, 0, 0, 0.70710678f}, 1);
    if (bug(&x, "cm")) apply_convention(&s, (const float[4]){0, 0, 0, 1}, 100);
    int rc = 0;
    if (x.bug && strcmp(x.bug, "no-output") == 0) goto done;
    if (bug(&x, "hang-empty") && s.mesh_count == 0)
        for (;;) pause();
    if (collect_bones(&x) != 0 || collect_meshes(&x) != 0) {
        rc = refuse("out of memory");
        goto done;
    }
    if (bug(&x, "crash-256") && x.nbones >= 256) abort();
    if (bug(&x, "static-only") && (s.skin_count || s.anim_count)) {
        rc = refuse("this exporter writes static meshes only");
        goto done;
    }
    if (!x.nmeshes) {
        rc = refuse("the scene holds no triangles");
        goto done;
    }
    rc = aem2025 ? write_aem2025(&x, argv[i + 1]) : f == 0 ? write_aem(&x, argv[i + 1]) : f == 1 ? write_samf(&x, argv[i + 1])
         : f == 2 ? write_nlm(&x, argv[i + 1]) : f == 3 ? write_semodel(&x, argv[i + 1], draft) : write_e3d(&x, argv[i + 1]);
    if (rc < 0) rc = refuse("cannot write the output");
done:
    s.anim_count = all_anims;
    free(x.v), free(x.meshes), free(x.lines), free(x.bone_node), free(x.node_bone), free(x.bone_parent), free(x.ibm);
    gr_free(&s);
    return rc;
}
