#include "semodel_builder.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned semb_index_width(uint64_t count)
{
    return count <= 0xFF ? 1u : count <= 0xFFFF ? 2u : 4u;
}

uint16_t semb_half(float f)
{
    uint16_t sign = signbit(f) ? 0x8000u : 0u;
    if (isnan(f)) return (uint16_t)(sign | 0x7E00u);
    double a = fabs((double)f);
    if (a >= 65520.0) return (uint16_t)(sign | 0x7C00u); /* rounds past 65504 */
    if (a < ldexp(1.0, -14)) /* subnormal: units of 2^-24; 0x400 is the least normal */
        return (uint16_t)(sign | (uint16_t)nearbyint(ldexp(a, 24)));
    int e;
    double fr = frexp(a, &e); /* a = fr * 2^e, fr in [0.5, 1) */
    e -= 1;
    unsigned mant = (unsigned)nearbyint((fr * 2.0 - 1.0) * 1024.0);
    if (mant == 1024) {
        mant = 0;
        e++;
    }
    return (uint16_t)(sign | (unsigned)(e + 15) << 10 | mant);
}

semb_model *semb_new(enum semb_layout layout)
{
    semb_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->layout = layout;
    memcpy(m->magic, "SEModel", 7);
    m->version = 1;
    m->header_size = layout == SEMB_2018 ? 0x14 : 0x1E;
    return m;
}

static void free_mesh(semb_mesh *s)
{
    free(s->position);
    free(s->uv);
    free(s->uv_material);
    free(s->normal);
    free(s->color);
    free(s->bone);
    free(s->weight);
    free(s->face);
    free(s->material);
}

void semb_free(semb_model *m)
{
    if (!m) return;
    for (uint32_t i = 0; i < m->meshes_allocated; i++) free_mesh(&m->meshes[i]);
    free(m->meshes);
    free(m->bones);
    free(m->materials);
    free(m->tail);
    free(m);
}

static void identity_transform(float position[3], float rotation[4])
{
    position[0] = position[1] = position[2] = 0.0f;
    rotation[0] = rotation[1] = rotation[2] = 0.0f;
    rotation[3] = 1.0f;
}

int semb_set_bones(semb_model *m, uint32_t n)
{
    semb_bone *b = realloc(m->bones, (n ? n : 1) * sizeof *b);
    if (!b) return -1;
    m->bones = b;
    for (uint32_t i = 0; i < n; i++) {
        semb_bone *x = &b[i];
        memset(x, 0, sizeof *x);
        snprintf(x->name, sizeof x->name, "bone%u", (unsigned)i);
        x->parent = (int32_t)i - 1;
        identity_transform(x->global_position, x->global_rotation);
        identity_transform(x->local_position, x->local_rotation);
        x->global_position[2] = (float)i;
        x->local_position[2] = i ? 1.0f : 0.0f;
        x->scale[0] = x->scale[1] = x->scale[2] = 1.0f;
    }
    m->nbones = m->bone_count = n;
    if (n)
        m->data_flags |= SEMB_BONE;
    else
        m->data_flags &= (uint8_t)~SEMB_BONE;
    return 0;
}

int semb_set_materials(semb_model *m, uint32_t n)
{
    semb_material *x = realloc(m->materials, (n ? n : 1) * sizeof *x);
    if (!x) return -1;
    m->materials = x;
    static const char *const kind[3] = {"diffuse", "normal", "specular"};
    for (uint32_t i = 0; i < n; i++) {
        memset(&x[i], 0, sizeof x[i]);
        snprintf(x[i].name, sizeof x[i].name, "mat%u", (unsigned)i);
        x[i].simple = 1;
        for (int k = 0; k < 3; k++)
            snprintf(x[i].map[k], sizeof x[i].map[k], "mat%u_%s.png", (unsigned)i, kind[k]);
    }
    m->nmaterials = m->mat_count = n;
    uint8_t flag = m->layout == SEMB_2018 ? SEMB_MATERIALS_2018 : SEMB_MATERIALS_DRAFT;
    if (n)
        m->data_flags |= flag;
    else
        m->data_flags &= (uint8_t)~flag;
    return 0;
}

int semb_set_tail(semb_model *m, const void *p, size_t n)
{
    uint8_t *t = realloc(m->tail, n ? n : 1);
    if (!t) return -1;
    if (n) memcpy(t, p, n);
    m->tail = t;
    m->tail_size = n;
    return 0;
}

int semb_set_seblend(semb_model *m, uint64_t count, const char *names, size_t names_size,
                     const semb_delta *deltas, size_t ndeltas)
{
    mcb_buf b = {0};
    mcb_bytes(&b, "SEBlend\n", 8);
    mcb_u32(&b, (uint32_t)count);
    mcb_u32(&b, (uint32_t)(count >> 32));
    mcb_bytes(&b, names, names_size);
    size_t d = 0;
    uint64_t vertex = 0;
    for (uint32_t k = 0; k < m->nmeshes; k++) {
        for (uint32_t v = 0; v < m->meshes[k].vertex_count; v++, vertex++) {
            size_t first = d;
            while (d < ndeltas && deltas[d].vertex == vertex) d++;
            mcb_u32(&b, (uint32_t)(d - first));
            for (size_t i = first; i < d; i++) {
                mcb_u32(&b, deltas[i].shape);
                mcb_f32s(&b, deltas[i].d, 3);
            }
        }
    }
    int rc = b.oom || d != ndeltas ? -1 : semb_set_tail(m, b.data, b.size);
    mcb_free(&b);
    return rc;
}

int semb_set_seblend_sample(semb_model *m)
{
    static const semb_delta d[4] = {{0, 0, {0.1f, 0, 0}}, {1, 0, {0, 0.1f, 0}}, {1, 1, {0, 0, 0.05f}},
                                    {3, 1, {-0.1f, 0, 0}}};
    if (semb_set_seblend(m, 2, "smile\0blink", 12, d, 4)) return -1;
    return m->tail_size == 108 ? 0 : -1;
}

void semb_tail_u32(semb_model *m, size_t at, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        if (at + (size_t)k < m->tail_size) m->tail[at + (size_t)k] = (uint8_t)(v >> (8 * k));
}

static void fill_mesh(semb_mesh *s)
{
    for (uint32_t v = 0; v < s->nvertices; v++) {
        /* a strip of unit quads in the xy plane */
        s->position[v][0] = (float)(v / 2);
        s->position[v][1] = (float)(v % 2);
        s->normal[v][2] = 1.0f;
        memset(s->color[v], 0xFF, 4);
        for (uint32_t l = 0; l < s->nlayers; l++) {
            s->uv[((size_t)v * s->nlayers + l) * 2] = (float)(v / 2) * 0.5f;
            s->uv[((size_t)v * s->nlayers + l) * 2 + 1] = (float)(v % 2);
        }
        if (s->nslots) s->weight[(size_t)v * s->nslots] = 1.0f;
    }
    for (uint32_t t = 0; t < s->nfaces; t++)
        for (uint32_t k = 0; k < 3; k++) s->face[t][k] = s->nvertices ? (t + k) % s->nvertices : 0;
}

semb_mesh *semb_add_mesh(semb_model *m, uint32_t vertices, uint32_t faces, uint8_t layers,
                         uint8_t influences)
{
    if (m->nmeshes != m->meshes_allocated) return NULL; /* a case lowered nmeshes */
    semb_mesh *x = realloc(m->meshes, (m->nmeshes + 1) * sizeof *x);
    if (!x) return NULL;
    m->meshes = x;
    semb_mesh *s = &x[m->nmeshes];
    memset(s, 0, sizeof *s);
    size_t v = vertices ? vertices : 1;
    s->position = calloc(v, sizeof *s->position);
    s->normal = calloc(v, sizeof *s->normal);
    s->color = calloc(v, sizeof *s->color);
    s->uv = calloc(v * (layers ? layers : 1u) * 2u, sizeof *s->uv);
    s->uv_material = calloc(v * (layers ? layers : 1u), sizeof *s->uv_material);
    s->bone = calloc(v * (influences ? influences : 1u), sizeof *s->bone);
    s->weight = calloc(v * (influences ? influences : 1u), sizeof *s->weight);
    s->face = calloc(faces ? faces : 1u, sizeof *s->face);
    s->material = calloc(layers ? layers : 1u, sizeof *s->material);
    if (!s->position || !s->normal || !s->color || !s->uv || !s->uv_material || !s->bone ||
        !s->weight || !s->face || !s->material) {
        free_mesh(s);
        return NULL;
    }
    s->vertex_count = s->nvertices = vertices;
    s->face_count = s->nfaces = faces;
    s->layers = (uint8_t)(s->nlayers = layers);
    s->influences = (uint8_t)(s->nslots = influences);
    fill_mesh(s);
    m->meshes_allocated++;
    m->nmeshes++;
    m->mesh_count = m->nmeshes;
    m->data_flags |= SEMB_MESH;
    return s;
}

/* ---- samples ---- */

static int sample_static(semb_model *m)
{
    m->mesh_flags = SEMB_NORMALS | SEMB_COLOR;
    if (m->layout == SEMB_2018) m->mesh_flags |= SEMB_UVSET;
    uint8_t layers = m->layout == SEMB_2018 ? 1 : 0;
    if (!semb_add_mesh(m, 4, 2, layers, 0)) return -1;
    return layers ? semb_set_materials(m, 1) : 0;
}

static int sample_skinned(semb_model *m)
{
    m->bone_flags = SEMB_GLOBAL | SEMB_LOCAL | SEMB_SCALES;
    m->mesh_flags = SEMB_NORMALS | SEMB_WEIGHTS;
    m->max_influence = 2;
    if (semb_set_bones(m, 3) != 0) return -1;
    semb_mesh *s = semb_add_mesh(m, 8, 6, 0, 2);
    if (!s) return -1;
    for (uint32_t v = 0; v < 8; v++) {
        /* two influences, 0.75 + 0.25: exact in binary16 too */
        s->bone[v * 2] = v / 4 + 1;
        s->bone[v * 2 + 1] = 0;
        s->weight[v * 2] = 0.75f;
        s->weight[v * 2 + 1] = 0.25f;
    }
    return 0;
}

static int sample_uv_layers(semb_model *m)
{
    m->mesh_flags = SEMB_UVSET | SEMB_NORMALS | SEMB_COLOR;
    for (int k = 0; k < 2; k++) {
        semb_mesh *s = semb_add_mesh(m, 6, 4, 3, 0);
        if (!s) return -1;
        for (uint32_t l = 0; l < 3; l++) {
            s->material[l] = (int32_t)((l + (uint32_t)k) % 3);
            for (uint32_t v = 0; v < 6; v++) s->uv_material[v * 3 + l] = (l + (uint32_t)k) % 3;
        }
    }
    return semb_set_materials(m, 3);
}

semb_model *semb_sample(enum semb_sample_kind kind, enum semb_layout layout)
{
    semb_model *m = semb_new(layout);
    if (!m) return NULL;
    int rc = -1;
    switch (kind) {
    case SEMB_STATIC: rc = sample_static(m); break;
    case SEMB_SKINNED: rc = sample_skinned(m); break;
    case SEMB_UV_LAYERS: rc = sample_uv_layers(m); break;
    }
    if (rc != 0) {
        semb_free(m);
        return NULL;
    }
    return m;
}

/* ---- writing ---- */

/* bone_t and mat_t widths as written (a case may force the wrong one) */
static unsigned bone_width(const semb_model *m)
{
    return m->bone_width ? m->bone_width : semb_index_width(m->bone_count);
}

static unsigned mat_width(const semb_model *m)
{
    return m->mat_width ? m->mat_width : m->mat_count <= 0xFF ? 1u : 2u;
}

static void write_index(mcb_buf *b, uint32_t v, unsigned width)
{
    if (width == 1)
        mcb_u8(b, (uint8_t)v);
    else if (width == 2)
        mcb_u16(b, (uint16_t)v);
    else
        mcb_u32(b, v);
}

static void write_string(mcb_buf *b, const char *s)
{
    mcb_bytes(b, s, strlen(s) + 1);
}

static void write_header(const semb_model *m, mcb_buf *b)
{
    mcb_bytes(b, m->magic, 7);
    mcb_u16(b, m->version);
    mcb_u16(b, m->header_size);
    if (m->layout == SEMB_2018) {
        mcb_u8(b, m->data_flags);
        mcb_u8(b, m->bone_flags);
        mcb_u8(b, m->mesh_flags);
        mcb_u32(b, m->bone_count);
        mcb_u32(b, m->mesh_count);
        mcb_u32(b, m->mat_count);
        mcb_bytes(b, m->reserved, 3);
        return;
    }
    mcb_u8(b, m->model_type);
    mcb_u16(b, m->model_flags);
    mcb_u8(b, m->data_flags);
    mcb_u8(b, m->bone_flags);
    mcb_u8(b, m->mesh_flags);
    mcb_bytes(b, m->reserved, 2);
    mcb_u32(b, m->bone_count);
    mcb_u32(b, m->mesh_count);
    mcb_u32(b, m->col_count);
    mcb_u32(b, m->mat_count);
    mcb_u8(b, m->max_influence);
    mcb_bytes(b, m->reserved + 2, 3);
}

static void write_bones(semb_model *m, mcb_buf *b)
{
    m->bones_at = b->size;
    for (uint32_t i = 0; i < m->nbones; i++) {
        m->bones[i].name_at = b->size;
        write_string(b, m->bones[i].name);
    }
    for (uint32_t i = 0; i < m->nbones; i++) {
        semb_bone *x = &m->bones[i];
        x->at = b->size;
        mcb_u8(b, x->flags);
        mcb_i32(b, x->parent);
        if (m->bone_flags & SEMB_GLOBAL) {
            mcb_f32s(b, x->global_position, 3);
            mcb_f32s(b, x->global_rotation, 4);
        }
        if (m->bone_flags & SEMB_LOCAL) {
            mcb_f32s(b, x->local_position, 3);
            mcb_f32s(b, x->local_rotation, 4);
        }
        if (m->bone_flags & SEMB_SCALES) mcb_f32s(b, x->scale, 3);
    }
}

/* Array values past what was allocated are written as 0. */
static float uv_at(const semb_mesh *s, uint32_t v, uint32_t l, int k)
{
    return v < s->nvertices && l < s->nlayers ? s->uv[((size_t)v * s->nlayers + l) * 2 + (size_t)k] : 0.0f;
}

static uint32_t slot_bone(const semb_mesh *s, uint32_t v, uint32_t j)
{
    return v < s->nvertices && j < s->nslots ? s->bone[(size_t)v * s->nslots + j] : 0;
}

static float slot_weight(const semb_mesh *s, uint32_t v, uint32_t j)
{
    return v < s->nvertices && j < s->nslots ? s->weight[(size_t)v * s->nslots + j] : 0.0f;
}

static const float zero3[3];

static const float *vec3_at(const float (*a)[3], uint32_t n, uint32_t v)
{
    return v < n ? a[v] : zero3;
}

/* A header count larger than the arrays writes only the arrays, so a lying
 * count makes a short file, not a huge one. */
static uint32_t written(uint32_t count, uint32_t allocated)
{
    return count < allocated ? count : allocated;
}

static void write_faces(const semb_mesh *s, mcb_buf *b, unsigned width)
{
    for (uint32_t t = 0; t < written(s->face_count, s->nfaces); t++)
        for (int k = 0; k < 3; k++) write_index(b, s->face[t][k], width);
}

static void write_mesh_2018(const semb_model *m, semb_mesh *s, mcb_buf *b)
{
    unsigned bw = bone_width(m);
    mcb_u8(b, s->flags);
    mcb_u8(b, s->layers);
    mcb_u8(b, s->influences);
    mcb_u32(b, s->vertex_count);
    mcb_u32(b, s->face_count);
    s->positions_at = b->size;
    for (uint32_t v = 0; v < written(s->vertex_count, s->nvertices); v++)
        mcb_f32s(b, vec3_at((const float (*)[3])s->position, s->nvertices, v), 3);
    s->uvs_at = b->size;
    if (m->mesh_flags & SEMB_UVSET)
        for (uint32_t v = 0; v < written(s->vertex_count, s->nvertices); v++)
            for (uint32_t l = 0; l < s->layers; l++) {
                mcb_f32(b, uv_at(s, v, l, 0));
                mcb_f32(b, uv_at(s, v, l, 1));
            }
    s->normals_at = b->size;
    if (m->mesh_flags & SEMB_NORMALS)
        for (uint32_t v = 0; v < written(s->vertex_count, s->nvertices); v++)
            mcb_f32s(b, vec3_at((const float (*)[3])s->normal, s->nvertices, v), 3);
    s->colors_at = b->size;
    if (m->mesh_flags & SEMB_COLOR)
        for (uint32_t v = 0; v < written(s->vertex_count, s->nvertices); v++) {
            static const uint8_t none[4];
            mcb_bytes(b, v < s->nvertices ? s->color[v] : none, 4);
        }
    s->weights_at = b->size;
    if (m->mesh_flags & SEMB_WEIGHTS)
        for (uint32_t v = 0; v < written(s->vertex_count, s->nvertices); v++)
            for (uint32_t j = 0; j < s->influences; j++) {
                write_index(b, slot_bone(s, v, j), bw);
                mcb_f32(b, slot_weight(s, v, j));
            }
    s->faces_at = b->size;
    write_faces(s, b, s->face_width ? s->face_width : semb_index_width(s->vertex_count));
    s->materials_at = b->size;
    for (uint32_t l = 0; l < s->layers; l++) mcb_i32(b, l < s->nlayers ? s->material[l] : -1);
}

uint64_t semb_draft_vertex_size(const semb_model *m, const semb_mesh *s)
{
    uint64_t size = 12;
    unsigned mw = mat_width(m);
    if (m->mesh_flags & SEMB_UVSET) size += (uint64_t)s->layers * (8u + mw);
    if (m->mesh_flags & SEMB_NORMALS) size += 6;
    if (m->mesh_flags & SEMB_COLOR) size += 4;
    if (m->mesh_flags & SEMB_WEIGHTS)
        size += (uint64_t)m->max_influence * (bone_width(m) + 2u);
    return size;
}

uint64_t semb_draft_at(const semb_model *m, uint32_t k, uint32_t v, enum semb_draft_field f)
{
    const semb_mesh *s = &m->meshes[k];
    uint64_t at = s->vertices_at + v * semb_draft_vertex_size(m, s);
    unsigned mw = mat_width(m);
    unsigned bw = bone_width(m);
    bool uv = (m->mesh_flags & SEMB_UVSET) != 0;
    if (f == SEMB_F_POSITION) return at;
    at += 12;
    if (f == SEMB_F_UV) return at;
    if (uv) at += 8u * s->layers;
    if (f == SEMB_F_MAT) return at;
    if (uv) at += (uint64_t)mw * s->layers;
    if (f == SEMB_F_NORMAL) return at;
    if (m->mesh_flags & SEMB_NORMALS) at += 6;
    if (f == SEMB_F_COLOR) return at;
    if (m->mesh_flags & SEMB_COLOR) at += 4;
    if (f == SEMB_F_BONES) return at;
    return at + (uint64_t)m->max_influence * bw;
}

static void write_mesh_draft(const semb_model *m, semb_mesh *s, mcb_buf *b)
{
    unsigned bw = bone_width(m);
    unsigned mw = mat_width(m);
    mcb_u8(b, s->flags);
    mcb_u8(b, s->layers);
    mcb_u32(b, s->vertex_count);
    mcb_u32(b, s->face_count);
    s->vertices_at = b->size;
    for (uint32_t v = 0; v < written(s->vertex_count, s->nvertices); v++) {
        mcb_f32s(b, vec3_at((const float (*)[3])s->position, s->nvertices, v), 3);
        if (m->mesh_flags & SEMB_UVSET) {
            for (uint32_t l = 0; l < s->layers; l++) {
                mcb_f32(b, uv_at(s, v, l, 0));
                mcb_f32(b, uv_at(s, v, l, 1));
            }
            for (uint32_t l = 0; l < s->layers; l++)
                write_index(b, v < s->nvertices && l < s->nlayers
                                   ? s->uv_material[(size_t)v * s->nlayers + l] : 0, mw);
        }
        if (m->mesh_flags & SEMB_NORMALS) {
            const float *n = vec3_at((const float (*)[3])s->normal, s->nvertices, v);
            for (int k = 0; k < 3; k++) mcb_u16(b, semb_half(n[k]));
        }
        if (m->mesh_flags & SEMB_COLOR) {
            static const uint8_t none[4];
            mcb_bytes(b, v < s->nvertices ? s->color[v] : none, 4);
        }
        if (m->mesh_flags & SEMB_WEIGHTS) {
            for (uint32_t j = 0; j < m->max_influence; j++) write_index(b, slot_bone(s, v, j), bw);
            for (uint32_t j = 0; j < m->max_influence; j++) mcb_u16(b, semb_half(slot_weight(s, v, j)));
        }
    }
    s->faces_at = b->size;
    write_faces(s, b, 4);
}

void semb_write(semb_model *m, mcb_buf *b)
{
    write_header(m, b);
    write_bones(m, b);
    m->meshes_at = b->size;
    for (uint32_t i = 0; i < m->nmeshes; i++) {
        m->meshes[i].at = b->size;
        if (m->layout == SEMB_2018)
            write_mesh_2018(m, &m->meshes[i], b);
        else
            write_mesh_draft(m, &m->meshes[i], b);
    }
    m->materials_at = b->size;
    if (m->layout == SEMB_2018)
        for (uint32_t i = 0; i < m->nmaterials; i++) {
            semb_material *x = &m->materials[i];
            x->at = b->size;
            write_string(b, x->name);
            mcb_u8(b, x->simple);
            for (int k = 0; k < 3 && x->simple; k++) write_string(b, x->map[k]);
        }
    m->tail_at = b->size;
    if (m->tail_size) mcb_bytes(b, m->tail, m->tail_size);
    m->end_at = b->size;
}
