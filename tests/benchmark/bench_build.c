/*
 * Large files of every format for the benchmark, built with the conformance
 * builders: many copies of each sample's first valid element, so that the
 * bulk of every file is the records a validator walks one by one.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aamf_builder.h"
#include "aem2025_builder.h"
#include "aem_builder.h"
#include "bench.h"
#include "e3d_builder.h"
#include "nlm_builder.h"
#include "semodel_builder.h"

static int write_buf(mcb_buf *b, const char *path)
{
    int rc = b->oom ? -1 : mcb_write_file(b, path);
    mcb_free(b);
    return rc;
}

/* Skin weights vary from vertex to vertex (1 or 2 bones), and the most
 * bones of the file sit on one vertex only (peak_vertex): in the last of a
 * group of four, in a late chunk. A clean path that folds max_influences
 * wrongly (a lane or a chunk left out) then reports another maximum than
 * the exact checks, which tests/clean compares. */
static uint32_t peak_vertex(uint32_t n)
{
    uint32_t v = (n / 3 * 2) | 3u;
    return v < n ? v : n - 1;
}

static unsigned influences_at(uint32_t v, uint32_t n, unsigned peak)
{
    return v == peak_vertex(n) ? peak : 1 + (v & 1);
}

/* Float weights of k bones that sum to exactly 1. */
static void float_skin(int32_t *bone, float *weight, unsigned k)
{
    static const float w[4][4] = {{1}, {0.75f, 0.25f}, {0.5f, 0.25f, 0.25f}, {0.25f, 0.25f, 0.25f, 0.25f}};
    for (unsigned j = 0; j < 4; j++) {
        bone[j] = j < k ? (int32_t)j : -1;
        weight[j] = j < k ? w[k - 1][j] : 0.0f;
    }
}

/* AEM: 97 bytes per skinned vertex (92) and index (4), keyframes besides. */
static int build_aem(uint64_t bytes, const char *path)
{
    uint32_t nv = (uint32_t)(bytes / 100), nk = nv / 22;
    aemb_model *m = aemb_sample(AEMB_SKINNED_ANIMATED);
    if (!m) return -1;
    aemb_vertex proto = m->vertices[0];
    uint32_t ni = nv / 3 * 3, per_channel = nk / 9 ? nk / 9 : 1;
    int rc = aemb_resize(m, AEMB_VERTICES, nv) || aemb_resize(m, AEMB_INDICES, ni) ||
             aemb_resize(m, AEMB_MESHES, 1) || aemb_resize(m, AEMB_KEYFRAMES, per_channel * 9);
    if (rc) {
        aemb_free(m);
        return -1;
    }
    for (uint32_t i = 0; i < nv; i++) {
        m->vertices[i] = proto;
        m->vertices[i].position[0] = (float)i;
        float_skin(m->vertices[i].bone, m->vertices[i].weight, influences_at(i, nv, 3)); /* 3 bones */
    }
    for (uint32_t k = 0; k < ni; k++) m->indices[k] = k;
    m->meshes[0] = (aemb_mesh){0, ni, 0};
    uint32_t k = 0;
    for (uint32_t s = 0; s < 3; s++)
        for (int ch = 0; ch < 3; ch++) {
            m->sequences[s].first[ch] = k;
            m->sequences[s].count[ch] = per_channel;
            for (uint32_t j = 0; j < per_channel; j++, k++) {
                m->keys[k] = (aemb_key){(float)j / (float)per_channel, 0, 0, 0, 0};
                if (ch == 1) m->keys[k].w = 1.0f;
            }
        }
    mcb_buf b = {0};
    aemb_write(m, &b);
    aemb_free(m);
    return write_buf(&b, path);
}

/* AEM 2025: 92 bytes per skinned vertex (88) and index (4), as the
 * converter writes them: odd vertices with glTF's filler joint 0 in their
 * unused slots (the folded warning), even ones with -1; keyframes besides. */
static int build_aem2025(uint64_t bytes, const char *path)
{
    uint32_t nv = (uint32_t)(bytes / 100), nk = nv / 22;
    aem2025b_model *m = aem2025b_sample(AEM2025B_SKINNED_ANIMATED);
    if (!m) return -1;
    aem2025b_vertex proto = m->vertices[0];
    uint32_t ni = nv / 3 * 3, per_channel = nk / 9 ? nk / 9 : 1;
    /* one animation: 3 tracks */
    int rc = aem2025b_resize(m, AEM2025B_VERTICES, nv) || aem2025b_resize(m, AEM2025B_INDICES, ni) ||
             aem2025b_resize(m, AEM2025B_MESHES, 1) || aem2025b_resize(m, AEM2025B_ANIMATIONS, 1) ||
             aem2025b_resize(m, AEM2025B_TRACKS, 3) || aem2025b_resize(m, AEM2025B_KEYFRAMES, per_channel * 9);
    if (rc) {
        aem2025b_free(m);
        return -1;
    }
    for (uint32_t i = 0; i < nv; i++) {
        m->vertices[i] = proto;
        m->vertices[i].position[0] = (float)i;
        unsigned k = influences_at(i, nv, 3); /* 3 joints */
        float_skin(m->vertices[i].joint, m->vertices[i].weight, k);
        for (unsigned j = k; (i & 1) && j < 4; j++) m->vertices[i].joint[j] = 0;
    }
    for (uint32_t k = 0; k < ni; k++) m->indices[k] = k;
    m->meshes[0] = (aem2025b_mesh){0, ni, 0};
    uint32_t k = 0;
    for (uint32_t t = 0; t < 3; t++) {
        m->tracks[t].first_keyframe = k;
        for (int ch = 0; ch < 3; ch++) {
            m->tracks[t].count[ch] = per_channel;
            for (uint32_t j = 0; j < per_channel; j++, k++) {
                m->keys[k] = (aem2025b_key){(float)j / (float)per_channel, 0, 0, 0, 0};
                if (ch == 1) m->keys[k].w = 1.0f;
            }
        }
    }
    mcb_buf b = {0};
    aem2025b_write(m, &b);
    aem2025b_free(m);
    return write_buf(&b, path);
}

/* SEModel: the skinned sample plus one mesh of about 46 bytes per vertex
 * in the 2018 layout (position, normal, two weights, a face) and 36 in the
 * draft one (half-float weights and normals), so that both files are as
 * large as asked (issue 16: at least 100 MB). */
static int build_semodel(uint64_t bytes, const char *path, enum semb_layout layout)
{
    uint32_t nv = (uint32_t)(bytes / (layout == SEMB_DRAFT ? 36 : 46));
    semb_model *m = semb_sample(SEMB_SKINNED, layout);
    if (!m) return -1;
    semb_mesh *s = semb_add_mesh(m, nv, nv, 0, 2);
    if (!s) {
        semb_free(m);
        return -1;
    }
    for (uint32_t v = 0; v < nv; v++) { /* one bone, two on the peak vertex */
        bool two = influences_at(v, nv, 2) == 2 && v == peak_vertex(nv);
        s->weight[(size_t)v * 2] = two ? 0.75f : 1.0f;
        s->weight[(size_t)v * 2 + 1] = two ? 0.25f : 0.0f;
        s->bone[(size_t)v * 2 + 1] = 1;
    }
    mcb_buf b = {0};
    semb_write(m, &b);
    semb_free(m);
    return write_buf(&b, path);
}

/* SAMF: 24 bytes per vertex, plus one animation of 32-byte matrices. */
static int build_samf(uint64_t bytes, const char *path)
{
    aamfb_model *m = aamfb_sample(AAMFB_32_BONES, 0);
    if (!m) return -1;
    uint32_t nv = (uint32_t)(bytes / 2 / 24);
    int rc = aamfb_resize_vertices(m, nv);
    if (!rc) { /* the builder gives 1 to 3 bones; 4 on the peak vertex */
        static const uint8_t w4[4] = {64, 64, 64, 63};
        aamfb_skin *k = &m->skin[peak_vertex(nv)];
        for (int j = 0; j < 4; j++) k->bone[j] = (uint8_t)(j + 4), k->weight[j] = w4[j];
    }
    aamfb_anim *a = &m->anims[0];
    uint32_t frames = (uint32_t)(bytes / 2 / 32 / m->bone_count);
    a->keyframe_count = frames;
    rc = rc || aamfb_resize_keys(a, frames * m->bone_count);
    mcb_buf b = {0};
    if (!rc) aamfb_write(m, &b);
    aamfb_free(m);
    return rc ? -1 : write_buf(&b, path);
}

/* Legacy AAMF: the bulk is animation matrices (the embedded AMF meshes hold
 * primitives the format leaves unchecked). */
static int build_aamf_legacy(uint64_t bytes, const char *path)
{
    aamfb_model *m = aamfb_sample(AAMFB_32_BONES, 1);
    if (!m) return -1;
    aamfb_anim *a = &m->anims[0];
    uint32_t frames = (uint32_t)(bytes / 32 / m->bone_count);
    a->keyframe_count = frames;
    int rc = aamfb_resize_keys(a, frames * m->bone_count);
    mcb_buf b = {0};
    if (!rc) aamfb_write(m, &b);
    aamfb_free(m);
    return rc ? -1 : write_buf(&b, path);
}

/* NLM: one skinned mesh, 76 bytes per vertex and 4 per index. */
static int build_nlm(uint64_t bytes, const char *path)
{
    nlmb_model *m = nlmb_sample(NLMB_SKINNED_ANIMATED);
    if (!m) return -1;
    nlmb_mesh *mesh = &m->meshes[0];
    nlmb_vertex proto = mesh->vertices[0];
    uint32_t nv = (uint32_t)(bytes / 80), ni = nv / 3 * 3;
    if (nlmb_resize_mesh(mesh, nv, ni) != 0) {
        nlmb_free(m);
        return -1;
    }
    for (uint32_t v = 0; v < nv; v++) {
        mesh->vertices[v] = proto;
        float_skin(mesh->vertices[v].bone, mesh->vertices[v].weight, influences_at(v, nv, 3));
    }
    for (uint32_t k = 0; k < ni; k++) mesh->indices[k] = k;
    mcb_buf b = {0};
    nlmb_write(m, &b);
    nlmb_free(m);
    return write_buf(&b, path);
}

/* E3D: meshes of 65,536 vertices (16-bit faces) whose children are each one
 * LZMA block, as the reference writer compresses them. The vertices vary
 * (positions along a line) so the streams are not trivially short. A
 * skinned file's vertices also carry boneWeights (two bones of a skin named
 * after two nodes, weights w and 255 - w), as a game's characters do. */
static const char *const e3d_bones[2] = {"root", "tip"};

static void e3d_mesh(e3db *w, uint32_t id, uint32_t nv, bool skinned, bool compressed, bench_e3d_blocks *blocks)
{
    const uint32_t NV = nv, NF = nv - 2;
    e3db_begin(w, 0x1010);
    size_t children = w->b.size;
    e3db_u32(w, 0x1020, id);
    e3db_begin(w, 0x2000);
    mcb_u32(&w->b, NV);
    e3db_begin(w, 0x2800);
    const uint16_t layout[] = {0x2010, 0, 0x2020, 12, 0x2030, 16, 0x2090, 24};
    size_t entries = skinned ? 8 : 6;
    for (size_t i = 0; i < entries; i++) mcb_u16(&w->b, layout[i]);
    mcb_u16(&w->b, 0);
    mcb_u16(&w->b, skinned ? 28 : 24);
    static const float up[3] = {0, 1, 0};
    uint32_t normal = e3db_pack_normal(up);
    for (uint32_t v = 0; v < NV; v++) {
        float p[3] = {(float)(v / 256), (float)(v % 256), (float)id};
        mcb_f32s(&w->b, p, 3);
        mcb_u32(&w->b, normal);
        mcb_f32(&w->b, (float)(v % 256) / 256.0f);
        mcb_f32(&w->b, (float)(v / 256) / 256.0f);
        if (skinned) { /* one bone, two on the peak vertex */
            bool two = v == peak_vertex(NV);
            uint8_t bw[4] = {1, 2, two ? 128 : 255, two ? 127 : 0};
            mcb_bytes(&w->b, bw, 4);
        }
    }
    e3db_end(w);
    e3db_end(w);
    e3db_begin(w, 0x1030);
    mcb_u32(&w->b, NF);
    for (uint32_t t = 0; t < NF; t++)
        for (uint32_t k = 0; k < 3; k++) mcb_u16(&w->b, (uint16_t)(t + k));
    e3db_end(w);
    e3db_begin(w, 0x1040);
    mcb_u32(&w->b, 0);
    mcb_u32(&w->b, NF);
    mcb_u32(&w->b, 0);
    e3db_end(w);
    if (skinned) e3db_skin(w, e3d_bones, 2, NULL);
    if (compressed) {
        size_t at = e3db_lzma_wrap(w, children, &e3db_lzma_reference);
        if (at != E3DB_FAIL && blocks->count < BENCH_MAX_BLOCKS) blocks->at[blocks->count++] = at;
    }
    e3db_end(w);
}

int bench_build_e3d(uint64_t bytes, const char *path, bool skinned, bool compressed, bench_e3d_blocks *blocks)
{
    /* about 2.0 MB decoded per mesh; one smaller mesh for a small file */
    uint32_t meshes = (uint32_t)(bytes / 2000000u), nv = 65536;
    if (meshes == 0) {
        meshes = 1;
        nv = bytes / 32 < 256 ? 256 : (uint32_t)(bytes / 32);
    }
    e3db w = {0};
    e3db_version(&w);
    blocks->count = 0;
    e3db_begin(&w, 0x1000);
    for (uint32_t i = 0; i < meshes; i++) e3d_mesh(&w, i + 1, nv, skinned, compressed, blocks);
    e3db_end(&w);
    e3db_begin(&w, 0x3000);
    for (uint32_t i = 0; i < meshes; i++) {
        e3db_begin(&w, 0x3010);
        e3db_u32(&w, 0x1020, i + 1);
        e3db_end(&w);
    }
    for (uint32_t i = 0; skinned && i < 2; i++) { /* the nodes the skins' bones name */
        e3db_begin(&w, 0x3010);
        e3db_u32(&w, 0x3020, i + 1);
        e3db_string(&w, 0x3021, e3d_bones[i]);
        e3db_end(&w);
    }
    e3db_end(&w);
    int rc = w.b.oom ? -1 : mcb_write_file(&w.b, path);
    e3db_free(&w);
    return rc;
}

int bench_build(bench_format f, uint64_t bytes, const char *path, bench_e3d_blocks *blocks)
{
    switch (f) {
    case BENCH_AEM: return build_aem(bytes, path);
    case BENCH_SEMODEL_2018: return build_semodel(bytes, path, SEMB_2018);
    case BENCH_SEMODEL_DRAFT: return build_semodel(bytes, path, SEMB_DRAFT);
    case BENCH_SAMF: return build_samf(bytes, path);
    case BENCH_AAMF_LEGACY: return build_aamf_legacy(bytes, path);
    case BENCH_NLM: return build_nlm(bytes, path);
    case BENCH_E3D: return bench_build_e3d(bytes, path, false, true, blocks);
    case BENCH_E3D_SKINNED: return bench_build_e3d(bytes, path, true, true, blocks);
    case BENCH_AEM2025: return build_aem2025(bytes, path);
    default: return -1;
    }
}
