/*
 * E3D reference loader, pass 3: the common model from what the content
 * pass (e3d_content.c) read and checked. Nodes become bones (a meshNode
 * nests its children, so parents come first), skins give joints, weights
 * and inverse binds, tracks become TRS tracks keyed in frames.
 */
#include <math.h>
#include <string.h>

#include "e3d_loader.h"
#include "mc_numeric.h"

static char *name_dup(e3 *s, const uint8_t *p, uint32_t n)
{
    /* names are bytes; a NUL inside would cut the C string, so stop there */
    const uint8_t *z = n ? memchr(p, 0, n) : NULL;
    return mcl__strdup(s->c, p, z ? (size_t)(z - p) : n);
}

/* Column-major T * R * S (e3d.adoc: scaling, orientation, position). */
static void trs_matrix(const double t[3], const double qin[4], const float sc[3], float m[16])
{
    double w = qin[0], x = qin[1], y = qin[2], z = qin[3];
    double n = sqrt(w * w + x * x + y * y + z * z);
    if (!(n > 0)) w = 1, x = y = z = 0, n = 1;
    w /= n, x /= n, y /= n, z /= n;
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                   2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) m[c * 4 + row] = (float)(r[c * 3 + row] * sc[c]);
        m[c * 4 + 3] = 0;
        m[12 + c] = (float)t[c];
    }
    m[15] = 1;
}

static bool all_finite16(const float m[16]) { return mc_all_finite(m, 16); }

static mcl_status build_bones(e3 *s, mcl_model *model)
{
    e3_content *k = s->k;
    uint32_t n = k->n[O_NODE];
    mcl_bone *bones = mcl__alloc(s->c, n, sizeof *bones);
    bool *bound = mcl__scratch(s->c, n, sizeof *bound);
    mcl_status st = (bones && bound) ? MCL_OK : s->c->err->status;
    for (uint32_t i = 0; st == MCL_OK && i < n; i++) {
        const node *nd = &k->nodes[i];
        bones[i].name = name_dup(s, nd->name, nd->name_len);
        if (!bones[i].name) st = s->c->err->status;
        bones[i].parent = nd->parent; /* meshNodes nest: a parent precedes its children */
        trs_matrix(nd->t, nd->q, nd->scale, bones[i].local);
        /* e3d.adoc gives position and orientation as doubles: any finite
         * double is the spec's, but the common model is float. Beyond its
         * range is this loader's limit, not an invalid file. */
        if (!all_finite16(bones[i].local))
            st = mcl__fail(s->c, MCL_ERR_LIMIT, 0, "node %u: transform beyond the model's float range", i);
        mcl__identity(bones[i].inverse_bind);
    }
    /* e3d.adoc, skinBones: inverse bind matrices relative to the skin's bind
     * matrix; the first skin to name a node gives its inverse bind. */
    for (uint32_t j = 0; st == MCL_OK && j < k->n[O_SKIN]; j++) {
        const skin *sk = &k->skins[j];
        if (sk->bones_blk == E3_NONE) continue;
        const e3_blk *b = &s->blk[sk->bones_blk];
        for (uint32_t i = 0, pos = 1; i < sk->nbones; i++) {
            uint32_t len = mc_le16(b->p + pos);
            uint32_t ni = e3__name_slot(&k->node_names, b->p + pos + 2, len)->val;
            pos += 2 + len;
            if (!bound[ni]) {
                float ibm[16];
                for (int e = 0; e < 16; e++) ibm[e] = f32_at(b->p + pos + 4 * (size_t)e);
                mcl__mat4_mul(ibm, sk->bind, bones[ni].inverse_bind);
                if (!all_finite16(bones[ni].inverse_bind)) mcl__identity(bones[ni].inverse_bind);
                bound[ni] = true;
            }
            pos += 64;
        }
    }
    if (bound) mcl__scratch_free(s->c, bound, n, sizeof *bound);
    model->bones = bones;
    model->bone_count = st == MCL_OK ? n : 0;
    return st;
}

static void read_positions(const mesh *m, float *out)
{
    for (uint32_t v = 0; v < m->vcount; v++) {
        float *o = &out[(size_t)v * 3];
        if (m->a[A_POS].present || m->a[A_POSD].present) {
            for (int c = 0; c < 3; c++) o[c] = e3__vertex_coord(m, v, c);
        } else if (m->a[A_POSQ].present) {
            /* quantised to meshBBox: -32767..32767 spans lo..hi (no box: -1..1) */
            const uint8_t *e = m->a[A_POSQ].p + (size_t)v * m->a[A_POSQ].stride;
            for (int c = 0; c < 3; c++) {
                float q = (float)(int16_t)mc_le16(e + 2 * c) / 32767.0f;
                o[c] = m->has_bbox ? m->bbox[c] + (q + 1.0f) * 0.5f * (m->bbox[c + 3] - m->bbox[c]) : q;
            }
        }
        for (int c = 0; c < 3; c++)
            if (!isfinite(o[c])) o[c] = 0; /* a double past float range */
    }
}

/* The skin driving the mesh: the largest using the first weight set the
 * mesh has (its bone count bounds the IDs, checked above). */
static const skin *mesh_skin(const e3_content *k, const mesh *m)
{
    for (int set = 0; set < 8; set++)
        if (m->a[A_WEIGHTS + set].present && m->set_bones[set]) return &k->skins[m->set_skin[set]];
    return NULL;
}

static mcl_status build_skinning(e3 *s, const mesh *m, const skin *sk, mcl_mesh *out)
{
    const attr *a = &m->a[A_WEIGHTS + sk->set];
    uint32_t k = a->width / 2, node_of[256];
    const e3_blk *b = &s->blk[sk->bones_blk];
    for (uint32_t i = 0, pos = 1; i < sk->nbones; i++) {
        uint32_t len = mc_le16(b->p + pos);
        node_of[i] = e3__name_slot(&s->k->node_names, b->p + pos + 2, len)->val;
        pos += 2 + len + 64;
    }
    uint32_t *joints = mcl__alloc(s->c, (uint64_t)m->vcount * k, sizeof *joints);
    float *weights = mcl__alloc(s->c, (uint64_t)m->vcount * k, sizeof *weights);
    if (!joints || !weights) return s->c->err->status;
    for (uint32_t v = 0; v < m->vcount; v++) {
        const uint8_t *e = a->p + (size_t)v * a->stride;
        for (uint32_t j = 0; j < k; j++) {
            uint8_t id = e[j]; /* 1..nbones (checked); 0: no bone, weight 0 */
            joints[(size_t)v * k + j] = id ? node_of[id - 1] : node_of[0];
            weights[(size_t)v * k + j] = id ? (float)e[k + j] / 255.0f : 0.0f;
        }
    }
    out->influences = k;
    out->joints = joints;
    out->weights = weights;
    return MCL_OK;
}

static mcl_status build_mesh(e3 *s, uint32_t mi, mcl_mesh *out)
{
    e3_content *k = s->k;
    const mesh *m = &k->meshes[mi];
    uint64_t vc = m->vcount;
    if (m->tri_count > UINT32_MAX / 3)
        return mcl__fail(s->c, MCL_ERR_LIMIT, 0, "mesh %u: %llu triangles", mi, (unsigned long long)m->tri_count);
    float *pos = mcl__alloc(s->c, vc * 3, sizeof(float));
    uint32_t *idx = mcl__alloc(s->c, m->tri_count * 3, sizeof(uint32_t));
    if (!pos || !idx) return s->c->err->status;
    read_positions(m, pos);
    out->name = "";
    out->vertex_count = m->vcount;
    out->positions = pos;
    out->rigid_bone = -1;
    out->material = -1;
    out->primitive = MCL_TRIANGLES;
    if (m->a[A_NORMAL].present) {
        float *nrm = mcl__alloc(s->c, vc * 3, sizeof(float));
        if (!nrm) return s->c->err->status;
        for (uint32_t v = 0; v < m->vcount; v++) {
            int32_t f[3];
            e3__normal_fields(mc_le32(m->a[A_NORMAL].p + (size_t)v * m->a[A_NORMAL].stride), f);
            for (int c = 0; c < 3; c++) nrm[(size_t)v * 3 + c] = f[c] < 0 ? (float)f[c] / 512.0f : (float)f[c] / 511.0f;
        }
        out->normals = nrm;
    }
    uint32_t layers = 0;
    for (uint32_t l = 0; l < 8; l++)
        if (m->a[A_UV + l].present) layers = l + 1;
    if (layers) {
        float *uv = mcl__alloc(s->c, vc * 2 * layers, sizeof(float));
        if (!uv) return s->c->err->status;
        for (uint32_t l = 0; l < layers; l++)
            for (uint32_t v = 0; m->a[A_UV + l].present && v < m->vcount; v++)
                for (int c = 0; c < 2; c++)
                    uv[((size_t)l * vc + v) * 2 + (size_t)c] =
                        f32_at(m->a[A_UV + l].p + (size_t)v * m->a[A_UV + l].stride + 4 * (size_t)c);
        out->uv_layer_count = layers;
        out->uvs = uv;
    }
    if (m->a[A_COLOR].present) {
        float *col = mcl__alloc(s->c, vc * 4, sizeof(float));
        if (!col) return s->c->err->status;
        for (uint32_t v = 0; v < m->vcount; v++)
            for (int c = 0; c < 4; c++)
                col[(size_t)v * 4 + (size_t)c] = (float)m->a[A_COLOR].p[(size_t)v * m->a[A_COLOR].stride + (size_t)c] / 255.0f;
        out->colors = col;
    }
    const skin *sk = mesh_skin(k, m);
    if (sk) {
        mcl_status st = build_skinning(s, m, sk, out);
        if (st != MCL_OK) return st;
    } else if (m->instances == 1) {
        out->rigid_bone = (int32_t)m->node; /* the one node instancing it places it */
    }
    /* triFaces16 then triFaces32 blocks in file order */
    uint64_t at = 0;
    for (uint32_t t = 0; t < m->ntri_blocks; t++) {
        const e3_blk *b = &s->blk[m->tri[t]];
        uint32_t per = b->type == E3_TRI16 ? 2 : 4, n = (b->len - 4) / per;
        for (uint32_t j = 0; j < n; j++)
            idx[at++] = per == 2 ? mc_le16(b->p + 4 + 2 * (size_t)j) : mc_le32(b->p + 4 + 4 * (size_t)j);
    }
    out->index_count = (uint32_t)(m->tri_count * 3);
    out->indices = idx;
    return MCL_OK;
}

/* facesMaterials: per triangle, the model material (-1: ID 0, none);
 * overlapping ranges (docs/formats/e3d.md: official samples) resolve to the last.
 * Ranges are applied last first, each triangle once: `next` skips the
 * triangles already given (path halving), so overlaps stay linear. */
static uint32_t next_free(uint32_t *next, uint32_t t)
{
    while (next[t] != t) {
        next[t] = next[next[t]];
        t = next[t];
    }
    return t;
}

static mcl_status build_face_materials(e3 *s, mcl_model *model)
{
    e3_content *k = s->k;
    mcl_mesh *meshes = (mcl_mesh *)model->meshes;
    uint32_t **next = mcl__scratch(s->c, k->n[O_MESH], sizeof *next);
    if (!next) return s->c->err->status;
    mcl_status st = MCL_OK;
    for (uint32_t i = s->nblk; st == MCL_OK && i-- > 0;) {
        const e3_blk *b = &s->blk[i];
        if (b->type != E3_FACES_MATERIALS) continue;
        uint32_t mi = k->aux[b->parent], nt = (uint32_t)k->meshes[mi].tri_count; /* < 2^32 / 3 */
        mcl_mesh *me = &meshes[mi];
        if (!me->face_materials) {
            int32_t *fm = mcl__alloc(s->c, nt, sizeof *fm);
            next[mi] = mcl__scratch(s->c, (uint64_t)nt + 1, sizeof **next);
            if (!fm || !next[mi]) {
                st = s->c->err->status;
                break;
            }
            for (uint32_t t = 0; t < nt; t++) fm[t] = -1;
            for (uint32_t t = 0; t <= nt; t++) next[mi][t] = t;
            me->face_materials = fm;
        }
        int32_t *fm = (int32_t *)me->face_materials;
        for (uint32_t j = b->len; j >= 12; j -= 12) {
            uint32_t start = mc_le32(b->p + j - 12), count = mc_le32(b->p + j - 8), id = mc_le32(b->p + j - 4);
            int32_t mat_index = id ? (int32_t)e3__id_slot(&k->mat_ids, id)->val : -1;
            uint32_t end = start + count; /* checked <= nt */
            for (uint32_t t = next_free(next[mi], start); t < end; t = next_free(next[mi], t)) {
                fm[t] = mat_index;
                next[mi][t] = t + 1;
            }
        }
    }
    for (uint32_t mi = 0; mi < k->n[O_MESH]; mi++)
        if (next[mi]) mcl__scratch_free(s->c, next[mi], k->meshes[mi].tri_count + 1, sizeof **next);
    mcl__scratch_free(s->c, next, k->n[O_MESH], sizeof *next);
    if (st != MCL_OK) return st;
    for (uint32_t mi = 0; mi < model->mesh_count; mi++) {
        mcl_mesh *me = &meshes[mi];
        uint32_t nt = me->index_count / 3;
        if (!me->face_materials || nt == 0) continue;
        bool uniform = true;
        for (uint32_t t = 1; t < nt && uniform; t++) uniform = me->face_materials[t] == me->face_materials[0];
        if (uniform) me->material = me->face_materials[0];
    }
    return MCL_OK;
}

static mcl_status build_materials(e3 *s, mcl_model *model)
{
    e3_content *k = s->k;
    mcl_material *mats = mcl__alloc(s->c, k->n[O_MAT], sizeof *mats);
    if (!mats) return s->c->err->status;
    for (uint32_t i = 0; i < k->n[O_MAT]; i++) {
        const mat *m = &k->mats[i];
        mats[i].name = name_dup(s, m->name, m->name_len);
        if (!mats[i].name) return s->c->err->status;
        memcpy(mats[i].base_color, m->diffuse, sizeof m->diffuse);
        mats[i].base_color[3] = m->opacity;
        if (m->tex != E3_NONE) {
            const tex *t = &k->texs[m->tex];
            if (t->data) {
                uint8_t *copy = mcl__alloc(s->c, t->size, 1);
                if (!copy) return s->c->err->status;
                memcpy(copy, t->data, t->size);
                mats[i].texture_data = copy;
                mats[i].texture_size = t->size;
            }
            if (t->has_name && !(mats[i].texture_path = name_dup(s, t->name, t->name_len))) return s->c->err->status;
        }
    }
    model->materials = mats;
    model->material_count = k->n[O_MAT];
    return MCL_OK;
}

/* Degrees about x (pitch), y (yaw), z (roll) combined in `order`
 * (e3d.adoc, ftkRotationOrder: 0 xyz ... 5 zyx) into x y z w. */
static void euler_quat(float yaw, float pitch, float roll, uint32_t order, float q[4])
{
    static const char *const orders[6] = {"xyz", "xzy", "yxz", "yzx", "zxy", "zyx"};
    const double deg = 3.14159265358979323846 / 180.0;
    double angle[3] = {pitch * deg, yaw * deg, roll * deg};
    double r[4] = {0, 0, 0, 1};
    for (int i = 0; i < 3; i++) {
        int axis = orders[order][i] - 'x';
        double h = angle[axis] / 2, a[4] = {0, 0, 0, cos(h)};
        a[axis] = sin(h);
        /* r = a * r: the first axis of the order applies first */
        double n[4] = {a[3] * r[0] + a[0] * r[3] + a[1] * r[2] - a[2] * r[1],
                       a[3] * r[1] - a[0] * r[2] + a[1] * r[3] + a[2] * r[0],
                       a[3] * r[2] + a[0] * r[1] - a[1] * r[0] + a[2] * r[3],
                       a[3] * r[3] - a[0] * r[0] - a[1] * r[1] - a[2] * r[2]};
        memcpy(r, n, sizeof r);
    }
    for (int i = 0; i < 4; i++) q[i] = (float)r[i];
}

static float key_float(const e3 *s, uint32_t blk, uint32_t key)
{
    return blk == E3_NONE ? 0.0f : f32_at(s->blk[blk].p + 4 * (size_t)key);
}

/* One mcl_track from a key block: position and scaling as x y z, rotation
 * from w x y z to x y z w, or yaw/pitch/roll combined into quaternions. */
static mcl_status build_track(e3 *s, const track *t, uint32_t bone, int kind, mcl_track *out)
{
    uint32_t w = kind == K_ROT ? 4 : 3, n = t->keys;
    float *times = mcl__alloc(s->c, n, sizeof *times);
    float *vals = mcl__alloc(s->c, (uint64_t)n * w, sizeof *vals);
    if (!times || !vals) return s->c->err->status;
    for (uint32_t key = 0; key < n; key++) {
        times[key] = (float)mc_le32(t->frames + 4 * (size_t)key); /* frames: the time unit */
        float *v = &vals[(size_t)key * w];
        if (kind == K_ROT && t->ftk[K_ROT] != E3_NONE) {
            const uint8_t *p = s->blk[t->ftk[K_ROT]].p + 16 * (size_t)key;
            v[3] = f32_at(p);
            for (int c = 0; c < 3; c++) v[c] = f32_at(p + 4 + 4 * c);
        } else if (kind == K_ROT) {
            euler_quat(key_float(s, t->ftk[K_YAW], key), key_float(s, t->ftk[K_PITCH], key),
                       key_float(s, t->ftk[K_ROLL], key), t->order, v);
        } else {
            for (int c = 0; c < 3; c++) v[c] = f32_at(s->blk[t->ftk[kind]].p + 12 * (size_t)key + 4 * (size_t)c);
        }
    }
    out->bone = bone;
    out->kind = kind == K_POS ? MCL_TRACK_TRANSLATION : kind == K_SCALE ? MCL_TRACK_SCALE : MCL_TRACK_ROTATION;
    out->interpolation = MCL_LINEAR; /* TCB keys approximated by linear */
    out->key_count = n;
    out->times = times;
    out->values = vals;
    return MCL_OK;
}

static uint32_t track_node(const e3_content *k, const track *t)
{
    if (t->has_id) return e3__id_slot(&k->node_ids, t->node_id)->val;
    return e3__name_slot(&k->node_names, t->name, t->name_len)->val;
}

static mcl_status build_animations(e3 *s, mcl_model *model)
{
    e3_content *k = s->k;
    mcl_animation *anims = mcl__alloc(s->c, k->n[O_ANIM], sizeof *anims);
    uint32_t *per = mcl__scratch(s->c, k->n[O_ANIM], sizeof *per);
    mcl_status st = (anims && per) ? MCL_OK : s->c->err->status;
    for (uint32_t i = 0; st == MCL_OK && i < k->n[O_TRACK]; i++) /* mcl tracks per animation */
        for (int kind = 0; kind <= K_ROT && k->tracks[i].keys; kind++)
            if (k->tracks[i].ftk[kind] != E3_NONE || (kind == K_ROT && (k->tracks[i].ftk[K_YAW] != E3_NONE ||
                                                                        k->tracks[i].ftk[K_PITCH] != E3_NONE ||
                                                                        k->tracks[i].ftk[K_ROLL] != E3_NONE)))
                per[k->tracks[i].anim]++;
    for (uint32_t a = 0; st == MCL_OK && a < k->n[O_ANIM]; a++) {
        anims[a].name = name_dup(s, k->anims[a].name, k->anims[a].name_len);
        anims[a].tracks = mcl__alloc(s->c, per[a], sizeof(mcl_track));
        if (!anims[a].name || !anims[a].tracks) st = s->c->err->status;
        if (k->anims[a].has_frames) anims[a].duration = k->anims[a].frames[1];
    }
    for (uint32_t i = 0; st == MCL_OK && i < k->n[O_TRACK]; i++) {
        const track *t = &k->tracks[i];
        mcl_animation *an = &anims[t->anim];
        for (int kind = 0; st == MCL_OK && kind <= K_ROT && t->keys; kind++) {
            bool has = t->ftk[kind] != E3_NONE ||
                       (kind == K_ROT && (t->ftk[K_YAW] != E3_NONE || t->ftk[K_PITCH] != E3_NONE || t->ftk[K_ROLL] != E3_NONE));
            if (!has) continue;
            st = build_track(s, t, track_node(k, t), kind, (mcl_track *)&an->tracks[an->track_count]);
            if (st == MCL_OK) an->track_count++;
        }
        /* without animationFrames, the animation lasts until its last key */
        double last = t->keys ? (double)mc_le32(t->frames + 4 * (size_t)(t->keys - 1)) : 0;
        if (!k->anims[t->anim].has_frames && last > an->duration) an->duration = last;
    }
    if (per) mcl__scratch_free(s->c, per, k->n[O_ANIM], sizeof *per);
    model->animations = anims;
    model->animation_count = st == MCL_OK ? k->n[O_ANIM] : 0;
    return st;
}

mcl_status e3__build(e3 *s)
{
    e3_content *k = s->k;
    mcl_model *model = s->c->model;
    for (uint32_t i = 0; i < k->n[O_NODE]; i++) {
        uint32_t mi = k->nodes[i].mesh;
        if (mi == E3_NONE) continue;
        if (k->meshes[mi].instances++ == 0) k->meshes[mi].node = i;
    }
    mcl_status st = build_bones(s, model);
    if (st == MCL_OK) st = build_materials(s, model);
    mcl_mesh *meshes = st == MCL_OK ? mcl__alloc(s->c, k->n[O_MESH], sizeof *meshes) : NULL;
    if (st == MCL_OK && !meshes) st = s->c->err->status;
    for (uint32_t i = 0; st == MCL_OK && i < k->n[O_MESH]; i++) st = build_mesh(s, i, &meshes[i]);
    if (st == MCL_OK) {
        model->meshes = meshes;
        model->mesh_count = k->n[O_MESH];
        st = build_face_materials(s, model);
    }
    if (st == MCL_OK) st = build_animations(s, model);
    return st;
}
