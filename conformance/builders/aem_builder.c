#include <stdlib.h>
#include <string.h>

#include "aem_builder.h"

const uint32_t aemb_record_size[AEMB_SECTIONS] = {92, 4, 128, 12, 12, 80, 136, 24, 20};

static void **section_ptr(aemb_model *m, enum aemb_section s)
{
    switch (s) {
    case AEMB_VERTICES: return (void **)&m->vertices;
    case AEMB_INDICES: return (void **)&m->indices;
    case AEMB_TEXTURES: return (void **)&m->textures;
    case AEMB_MESHES: return (void **)&m->meshes;
    case AEMB_MATERIALS: return (void **)&m->materials;
    case AEMB_BONES: return (void **)&m->bones;
    case AEMB_ANIMATIONS: return (void **)&m->animations;
    case AEMB_SEQUENCES: return (void **)&m->sequences;
    case AEMB_KEYFRAMES: return (void **)&m->keys;
    case AEMB_SECTIONS: break;
    }
    return NULL;
}

static const size_t elem_size[AEMB_SECTIONS] = {
    sizeof(aemb_vertex), sizeof(uint32_t), 128, sizeof(aemb_mesh), sizeof(aemb_material),
    sizeof(aemb_bone), sizeof(aemb_animation), sizeof(aemb_sequence), sizeof(aemb_key)};

int aemb_resize(aemb_model *m, enum aemb_section s, uint32_t n)
{
    void **p = section_ptr(m, s);
    if (!p || mcb_resize(p, elem_size[s], m->count[s], n) != 0) return -1;
    m->count[s] = n;
    return 0;
}

void aemb_free(aemb_model *m)
{
    if (!m) return;
    for (int s = 0; s < AEMB_SECTIONS; s++) free(*section_ptr(m, (enum aemb_section)s));
    free(m);
}

static void sample_vertices(aemb_model *m, int skinned)
{
    static const float corner[8][3] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0},
                                       {-1, -1, 2}, {1, -1, 2}, {1, 1, 2}, {-1, 1, 2}};
    for (uint32_t i = 0; i < 8; i++) {
        aemb_vertex *v = &m->vertices[i];
        memcpy(v->position, corner[i], sizeof v->position);
        v->normal[2] = 1.0f;
        v->tangent[0] = 1.0f;
        v->bitangent[1] = 1.0f;
        v->uv[0] = (float)(i & 1);
        v->uv[1] = (float)((i >> 1) & 1);
        for (int j = 0; j < 4; j++) v->bone[j] = -1;
        if (skinned) {
            /* two influences, 0.75 + 0.25: exact in binary */
            v->bone[0] = (int32_t)(i / 4 + 1);
            v->bone[1] = 0;
            v->weight[0] = 0.75f;
            v->weight[1] = 0.25f;
            v->extra_bone = (int32_t)(i / 4); /* one per mesh, as the exporter does */
        } else {
            v->extra_bone = -1;
        }
    }
}

static void sample_geometry(aemb_model *m)
{
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    for (uint32_t k = 0; k < 12; k++) m->indices[k] = quad[k % 6] + (k / 6) * 4;
    strcpy(m->textures[0], "albedo.png");
    strcpy(m->textures[1], "normal.png");
    m->meshes[0] = (aemb_mesh){0, 6, 0};
    m->meshes[1] = (aemb_mesh){6, 6, 1};
    m->materials[0] = (aemb_material){{0, 1, 255}};
    m->materials[1] = (aemb_material){{255, 255, 255}};
}

/* Three bones in a chain, one animation with two keys per channel. */
static void sample_skeleton(aemb_model *m)
{
    for (uint32_t b = 0; b < 3; b++) {
        mcb_identity(m->bones[b].inverse_bind);
        m->bones[b].inverse_bind[14] = -(float)b; /* translation z */
        m->bones[b].parent = (int32_t)b - 1;
    }
    strcpy(m->animations[0].name, "wave");
    m->animations[0].duration = 1.0f;
    m->animations[0].sequence_index = 0;
    uint32_t k = 0;
    for (uint32_t s = 0; s < 3; s++) {
        for (int ch = 0; ch < 3; ch++) {
            m->sequences[s].first[ch] = k;
            m->sequences[s].count[ch] = 2;
            for (int t = 0; t < 2; t++, k++) {
                aemb_key *key = &m->keys[k];
                key->time = (float)t;
                if (ch == 1) key->w = 1.0f;                  /* identity rotation */
                else if (ch == 2) key->x = key->y = key->z = 1.0f; /* unit scale */
                else key->z = (float)t;                      /* position */
            }
        }
    }
}

aemb_model *aemb_sample(enum aemb_sample_kind kind)
{
    aemb_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    memcpy(m->magic, "AEM", 3);
    m->version = 1;
    int skinned = kind == AEMB_SKINNED_ANIMATED;
    static const uint32_t skinned_counts[AEMB_SECTIONS] = {8, 12, 2, 2, 2, 3, 1, 3, 18};
    static const uint32_t static_counts[AEMB_SECTIONS] = {8, 12, 2, 2, 2, 0, 0, 0, 0};
    const uint32_t *counts = skinned ? skinned_counts : static_counts;
    for (int s = 0; s < AEMB_SECTIONS; s++) {
        if (aemb_resize(m, (enum aemb_section)s, counts[s]) != 0) {
            aemb_free(m);
            return NULL;
        }
    }
    sample_vertices(m, skinned);
    sample_geometry(m);
    if (skinned) sample_skeleton(m);
    return m;
}

uint64_t aemb_offset(const aemb_model *m, enum aemb_section s, uint64_t i)
{
    uint64_t off = 40;
    for (int k = 0; k < (int)s; k++) off += (uint64_t)m->count[k] * aemb_record_size[k];
    return off + i * aemb_record_size[s];
}

static void write_vertex(mcb_buf *b, const aemb_vertex *v)
{
    mcb_f32s(b, v->position, 3);
    mcb_f32s(b, v->normal, 3);
    mcb_f32s(b, v->tangent, 3);
    mcb_f32s(b, v->bitangent, 3);
    mcb_f32s(b, v->uv, 2);
    for (int j = 0; j < 4; j++) mcb_i32(b, v->bone[j]);
    mcb_f32s(b, v->weight, 4);
    mcb_i32(b, v->extra_bone);
}

static void write_skeleton(mcb_buf *b, const aemb_model *m)
{
    for (uint32_t i = 0; i < m->count[AEMB_BONES]; i++) {
        mcb_f32s(b, m->bones[i].inverse_bind, 16);
        mcb_i32(b, m->bones[i].parent);
        mcb_bytes(b, m->bones[i].padding, 12);
    }
    for (uint32_t i = 0; i < m->count[AEMB_ANIMATIONS]; i++) {
        mcb_bytes(b, m->animations[i].name, 128);
        mcb_f32(b, m->animations[i].duration);
        mcb_u32(b, m->animations[i].sequence_index);
    }
    for (uint32_t i = 0; i < m->count[AEMB_SEQUENCES]; i++)
        for (int ch = 0; ch < 3; ch++) {
            mcb_u32(b, m->sequences[i].first[ch]);
            mcb_u32(b, m->sequences[i].count[ch]);
        }
    for (uint32_t i = 0; i < m->count[AEMB_KEYFRAMES]; i++) {
        const aemb_key *k = &m->keys[i];
        const float f[5] = {k->time, k->x, k->y, k->z, k->w};
        mcb_f32s(b, f, 5);
    }
}

void aemb_write(const aemb_model *m, mcb_buf *b)
{
    mcb_bytes(b, m->magic, 3);
    mcb_u8(b, m->version);
    for (int s = 0; s < AEMB_SECTIONS; s++) mcb_u32(b, m->count[s]);
    for (uint32_t i = 0; i < m->count[AEMB_VERTICES]; i++) write_vertex(b, &m->vertices[i]);
    for (uint32_t i = 0; i < m->count[AEMB_INDICES]; i++) mcb_u32(b, m->indices[i]);
    for (uint32_t i = 0; i < m->count[AEMB_TEXTURES]; i++) mcb_bytes(b, m->textures[i], 128);
    for (uint32_t i = 0; i < m->count[AEMB_MESHES]; i++) {
        mcb_u32(b, m->meshes[i].first_index);
        mcb_u32(b, m->meshes[i].index_count);
        mcb_u32(b, m->meshes[i].material);
    }
    for (uint32_t i = 0; i < m->count[AEMB_MATERIALS]; i++)
        for (int t = 0; t < 3; t++) mcb_i32(b, m->materials[i].texture[t]);
    write_skeleton(b, m);
}
