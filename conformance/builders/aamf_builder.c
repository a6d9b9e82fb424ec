#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aamf_builder.h"

/* docs/formats/aamf.md, embedded AMF: record sizes of F4, G4, FT4, GT4, F3, G3, FT3, GT3. */
static const uint32_t amf_record_size[8] = {64, 100, 84, 136, 52, 76, 68, 92};
/* docs/formats/aamf.md, embedded AMF: offset of the u32 texture index in FT4, GT4,
 * FT3, GT3 records; 0 for the untextured kinds. */
static const uint32_t amf_texture_field[8] = {0, 0, 40, 80, 0, 0, 32, 48};

enum { KIND_F3 = 4 };

static int16_t fx(double v)
{
    double r = floor(v * AAMFB_ONE + 0.5);
    if (r > 32767) r = 32767;
    if (r < -32768) r = -32768;
    return (int16_t)r;
}

aamfb_matrix aamfb_rotation(double ax, double ay, double az, int32_t tx, int32_t ty, int32_t tz)
{
    double cx = cos(ax), sx = sin(ax), cy = cos(ay), sy = sin(ay), cz = cos(az), sz = sin(az);
    /* R = Rz * Ry * Rx */
    double r[9] = {cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx,
                   sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx,
                   -sy,     cy * sx,                cy * cx};
    aamfb_matrix m;
    memset(&m, 0, sizeof m);
    for (int k = 0; k < 9; k++) m.m[k] = fx(r[k]);
    m.t[0] = tx;
    m.t[1] = ty;
    m.t[2] = tz;
    return m;
}

static aamfb_svector unit(double x, double y, double z)
{
    double len = sqrt(x * x + y * y + z * z);
    aamfb_svector v = {fx(x / len), fx(y / len), fx(z / len), 0};
    return v;
}

/* Vertex i of a valid mesh over bones: an 8-wide grid, a tilted normal and
 * one to three influences summing to 255, unused slots 0. */
static void fill_vertex(aamfb_model *m, uint32_t i)
{
    int32_t gx = (int32_t)(i % 8), gy = (int32_t)((i / 8) % 8);
    m->positions[i] = (aamfb_svector){(int16_t)(gx * 1024 - 4096), (int16_t)(gy * 1024 - 4096),
                                      (int16_t)(i % 5 * 100), 0};
    m->normals[i] = unit(0.1 * (double)gx, 0.1 * (double)gy, 1.0);
    aamfb_skin s;
    memset(&s, 0, sizeof s);
    uint32_t n = m->bone_count;
    uint8_t b0 = (uint8_t)(i % n), b1 = (uint8_t)((i + 1) % n), b2 = (uint8_t)((i + 5) % n);
    if (n < 3 || i % 3 == 0) {
        s.bone[0] = b0;
        s.weight[0] = 255;
    } else if (i % 3 == 1) {
        s.bone[0] = b0, s.weight[0] = 128;
        s.bone[1] = b1, s.weight[1] = 127;
    } else {
        s.bone[0] = b0, s.weight[0] = 100;
        s.bone[1] = b1, s.weight[1] = 85;
        s.bone[2] = b2, s.weight[2] = 70;
    }
    m->skin[i] = s;
}

int aamfb_resize_vertices(aamfb_model *m, uint32_t n)
{
    size_t k = n ? n : 1;
    aamfb_svector *p = realloc(m->positions, k * sizeof *p);
    if (p) m->positions = p;
    aamfb_svector *q = realloc(m->normals, k * sizeof *q);
    if (q) m->normals = q;
    aamfb_skin *s = realloc(m->skin, k * sizeof *s);
    if (s) m->skin = s;
    if (!p || !q || !s) return -1;
    for (uint32_t i = m->vertex_count; i < n; i++) fill_vertex(m, i);
    m->vertex_count = n;
    return 0;
}

int aamfb_resize_keys(aamfb_anim *a, uint32_t n)
{
    aamfb_matrix *k = realloc(a->keys, (n ? n : 1) * sizeof *k);
    if (!k) return -1;
    for (uint32_t i = a->key_count; i < n; i++) k[i] = aamfb_rotation(0, 0, 0, 0, 0, 0);
    a->keys = k;
    a->key_count = n;
    return 0;
}

static int sample_amf(aamfb_amf *a, uint32_t bone, int kind)
{
    static const char *const names[3] = {"SKIN", "CLOTH", "METAL_01"};
    a->texture_count = kind == AAMFB_32_BONES ? 1 + bone % 3 : 1;
    a->used_textures = a->texture_count;
    a->textures = calloc(a->texture_count, sizeof *a->textures);
    a->chunk_count = kind == AAMFB_32_BONES && bone % 4 == 0 ? 2 : 1;
    a->x = (uint16_t)a->chunk_count;
    a->z = 1;
    a->chunks = calloc(a->chunk_count, sizeof *a->chunks);
    if (!a->textures || !a->chunks) return -1;
    for (uint32_t t = 0; t < a->texture_count; t++)
        memcpy(a->textures[t], names[t], strlen(names[t]) < 8 ? strlen(names[t]) : 8);
    a->bounds[0] = a->bounds[1] = -2048 * (int32_t)a->chunk_count;
    a->bounds[2] = a->bounds[3] = 2048 * (int32_t)a->chunk_count;
    for (uint32_t c = 0; c < a->chunk_count; c++) {
        aamfb_chunk *ch = &a->chunks[c];
        if (kind == AAMFB_32_BONES) {
            for (int k = 0; k < 8; k++) ch->count[k] = (uint16_t)((bone + c + (uint32_t)k) % 3);
        } else {
            ch->count[KIND_F3] = kind == AAMFB_ODD_FACES ? 3 : 2;
        }
    }
    return 0;
}

static int sample_anims(aamfb_model *m, int kind)
{
    static const char *const names[3] = {"idle", "walk----", "run"};
    static const uint32_t frames_one[1] = {2}, frames_32[3] = {1, 4, 3};
    const uint32_t *frames = kind == AAMFB_32_BONES ? frames_32 : frames_one;
    m->anims = calloc(m->anim_count, sizeof *m->anims);
    if (!m->anims) return -1;
    for (uint32_t a = 0; a < m->anim_count; a++) {
        aamfb_anim *an = &m->anims[a];
        memcpy(an->name, names[a], strlen(names[a]));
        an->keyframe_count = frames[a];
        if (aamfb_resize_keys(an, frames[a] * m->bone_count) != 0) return -1;
        for (uint32_t k = 0; k < an->key_count; k++) {
            uint32_t f = k % an->keyframe_count, b = k / an->keyframe_count;
            an->keys[k] = aamfb_rotation(0.3 * f + 0.01 * b, 0.2 * a, 0.5236 * f,
                                         (int32_t)(f * 4096), (int32_t)(b * 2048), -(int32_t)a * 100);
        }
    }
    return 0;
}

int aamfb_resize_bones(aamfb_model *m, uint16_t n)
{
    aamfb_bone *bones = realloc(m->bones, (n ? n : 1) * sizeof *bones);
    if (!bones) return -1;
    m->bones = bones;
    for (uint32_t b = n; b < m->bone_count; b++) {
        free(bones[b].amf.textures);
        free(bones[b].amf.chunks);
    }
    for (uint32_t b = m->bone_count; b < n; b++) {
        aamfb_bone *bone = &bones[b];
        memset(bone, 0, sizeof *bone);
        bone->index = (uint16_t)b;
        bone->parent = (uint16_t)(b == 0 ? 0 : (b - 1) / 2);
        bone->bind = aamfb_rotation(0.1 * b, 0.05 * b, 0.2 * b, 0, (int32_t)(b * 512), 0);
        m->bone_count = (uint16_t)(b + 1);
        if (sample_amf(&bone->amf, b, AAMFB_ONE_BONE) != 0) return -1;
    }
    m->bone_count = n;
    for (uint32_t a = 0; a < m->anim_count; a++)
        if (aamfb_resize_keys(&m->anims[a], m->anims[a].keyframe_count * n) != 0) return -1;
    return 0;
}

aamfb_model *aamfb_sample(enum aamfb_sample_kind kind, int legacy)
{
    aamfb_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->legacy = legacy;
    memcpy(m->magic, "SAMF", 4);
    m->version = 2;
    int many = kind == AAMFB_32_BONES;
    m->bone_count = many ? 32 : 1;
    m->anim_count = many ? 3 : 1;
    m->bones = calloc(m->bone_count, sizeof *m->bones);
    if (!m->bones) goto fail;
    for (uint32_t b = 0; b < m->bone_count; b++) {
        aamfb_bone *bone = &m->bones[b];
        bone->index = (uint16_t)b;
        bone->parent = (uint16_t)(b == 0 ? 0 : (b - 1) / 2); /* a binary tree, parents first */
        bone->bind = aamfb_rotation(0.1 * b, 0.05 * b, 0.2 * b, 0, (int32_t)(b * 512), 0);
        if (sample_amf(&bone->amf, b, (int)kind) != 0) goto fail;
    }
    if (aamfb_resize_vertices(m, many ? 64 : 4) != 0) goto fail;
    if (!many) {
        static const int16_t quad[4][2] = {{-2048, -2048}, {2048, -2048}, {2048, 2048}, {-2048, 2048}};
        for (uint32_t i = 0; i < 4; i++) {
            m->positions[i] = (aamfb_svector){quad[i][0], quad[i][1], 0, 0};
            m->normals[i] = (aamfb_svector){0, 0, AAMFB_ONE, 0};
        }
    }
    m->face_count = many ? 98 : kind == AAMFB_ODD_FACES ? 3 : 2;
    m->faces = calloc(m->face_count, sizeof *m->faces);
    if (!m->faces) goto fail;
    if (many) {
        uint16_t f = 0;
        for (uint16_t y = 0; y < 7; y++)
            for (uint16_t x = 0; x < 7; x++) {
                uint16_t v = (uint16_t)(y * 8 + x);
                m->faces[f][0] = v, m->faces[f][1] = (uint16_t)(v + 1), m->faces[f][2] = (uint16_t)(v + 9);
                f++;
                m->faces[f][0] = v, m->faces[f][1] = (uint16_t)(v + 9), m->faces[f][2] = (uint16_t)(v + 8);
                f++;
            }
    } else {
        static const uint16_t tris[3][3] = {{0, 1, 2}, {0, 2, 3}, {1, 3, 0}};
        memcpy(m->faces, tris, m->face_count * sizeof *m->faces);
    }
    if (sample_anims(m, (int)kind) != 0) goto fail;
    return m;
fail:
    aamfb_free(m);
    return NULL;
}

void aamfb_free(aamfb_model *m)
{
    if (!m) return;
    for (uint32_t b = 0; m->bones && b < m->bone_count; b++) {
        free(m->bones[b].amf.textures);
        free(m->bones[b].amf.chunks);
    }
    for (uint32_t a = 0; m->anims && a < m->anim_count; a++) free(m->anims[a].keys);
    free(m->bones);
    free(m->positions);
    free(m->normals);
    free(m->skin);
    free(m->faces);
    free(m->anims);
    free(m);
}

/* ---- sizes and offsets ---- */

static uint32_t chunk_bytes(const aamfb_chunk *c)
{
    uint32_t n = 48;
    for (int k = 0; k < 8; k++) n += (uint32_t)c->count[k] * amf_record_size[k];
    return n;
}

uint64_t aamfb_amf_chunk_offset(const aamfb_amf *a, uint32_t chunk)
{
    uint64_t off = 4 + 24 + 8 * (uint64_t)a->texture_count + 4 * (uint64_t)a->chunk_count;
    for (uint32_t c = 0; c < chunk && c < a->chunk_count; c++) off += chunk_bytes(&a->chunks[c]);
    return off;
}

uint32_t aamfb_bone_block_size(const aamfb_model *m, uint32_t bone)
{
    const aamfb_bone *b = &m->bones[bone];
    uint64_t n = aamfb_amf_chunk_offset(&b->amf, b->amf.chunk_count) + b->amf.extra;
    return (uint32_t)((int64_t)n + b->size_delta);
}

static uint64_t anim_bytes(const aamfb_anim *a)
{
    return 20 + 32 * (uint64_t)a->key_count + a->extra;
}

uint32_t aamfb_anim_block_size(const aamfb_model *m, uint32_t anim)
{
    const aamfb_anim *a = &m->anims[anim];
    return (uint32_t)((int64_t)anim_bytes(a) + a->size_delta);
}

static uint64_t bone_block_bytes(const aamfb_model *m, uint32_t bone)
{
    const aamfb_amf *a = &m->bones[bone].amf;
    return aamfb_amf_chunk_offset(a, a->chunk_count) + a->extra;
}

uint64_t aamfb_offset(const aamfb_model *m, enum aamfb_section s, uint64_t i)
{
    uint64_t off = m->legacy ? 4 : 16;
    if (s == AAMFB_BONE_TABLE) return off + 4 * i;
    off += 4 * (uint64_t)m->bone_count;
    if (m->legacy) {
        if (s == AAMFB_BONE_BLOCKS || s < AAMFB_BONE_BLOCKS) {
            for (uint32_t b = 0; b < i && b < m->bone_count; b++) off += bone_block_bytes(m, b);
            return off;
        }
        for (uint32_t b = 0; b < m->bone_count; b++) off += bone_block_bytes(m, b);
    } else {
        static const uint32_t size[] = {0, 32, 8, 8, 8, 6};
        for (int k = AAMFB_BIND_POSES; k <= AAMFB_FACES; k++) {
            uint64_t n = k == AAMFB_BIND_POSES ? m->bone_count
                         : k == AAMFB_FACES    ? m->face_count
                                               : m->vertex_count;
            if ((int)s == k) return off + size[k] * i;
            off += size[k] * n;
        }
        if (s == AAMFB_BONE_BLOCKS) return off;
    }
    uint64_t limit = s == AAMFB_ANIMS ? i : m->anim_count;
    for (uint32_t a = 0; a < limit && a < m->anim_count; a++) off += anim_bytes(&m->anims[a]);
    return off;
}

/* ---- writing ---- */

static void put_i16(mcb_buf *b, int16_t v)
{
    mcb_u16(b, (uint16_t)v);
}

static void put_matrix(mcb_buf *b, const aamfb_matrix *x)
{
    for (int k = 0; k < 9; k++) put_i16(b, x->m[k]);
    put_i16(b, x->pad);
    for (int k = 0; k < 3; k++) mcb_i32(b, x->t[k]);
}

static void put_svector(mcb_buf *b, const aamfb_svector *v)
{
    put_i16(b, v->x);
    put_i16(b, v->y);
    put_i16(b, v->z);
    put_i16(b, v->pad);
}

static void put_amf(mcb_buf *b, const aamfb_amf *a)
{
    mcb_u32(b, a->used_textures);
    mcb_u16(b, a->x);
    mcb_u16(b, a->z);
    for (int k = 0; k < 4; k++) mcb_i32(b, a->bounds[k]);
    for (uint32_t t = 0; t < a->texture_count; t++) mcb_bytes(b, a->textures[t], 8);
    for (uint32_t c = 0; c < a->chunk_count; c++) mcb_u32(b, 0);
    for (uint32_t c = 0; c < a->chunk_count; c++) {
        const aamfb_chunk *ch = &a->chunks[c];
        for (int k = 0; k < 8; k++) mcb_u16(b, ch->count[k]);
        for (int k = 0; k < 8; k++) mcb_u32(b, ch->pointer[k]);
        for (int k = 0; k < 8; k++) {
            uint32_t at = amf_texture_field[k];
            for (uint32_t r = 0; r < ch->count[k]; r++) {
                if (!at) {
                    mcb_zeros(b, amf_record_size[k]);
                    continue;
                }
                mcb_zeros(b, at);
                mcb_u32(b, ch->texture);
                mcb_zeros(b, amf_record_size[k] - at - 4);
            }
        }
    }
    mcb_zeros(b, a->extra);
}

static void put_anims(mcb_buf *b, const aamfb_model *m)
{
    for (uint32_t i = 0; i < m->anim_count; i++) {
        const aamfb_anim *a = &m->anims[i];
        mcb_u32(b, aamfb_anim_block_size(m, i));
        mcb_bytes(b, a->name, 8);
        mcb_u32(b, a->keyframe_count);
        mcb_u32(b, a->keyframe_pointer);
        for (uint32_t k = 0; k < a->key_count; k++) put_matrix(b, &a->keys[k]);
        mcb_zeros(b, a->extra);
    }
}

void aamfb_write(const aamfb_model *m, mcb_buf *b)
{
    if (!m->legacy) {
        mcb_bytes(b, m->magic, 4);
        mcb_u16(b, m->version);
    }
    mcb_u16(b, m->bone_count);
    mcb_u16(b, m->anim_count);
    if (!m->legacy) {
        mcb_u32(b, m->vertex_count); /* offset 10: the packed header */
        mcb_u16(b, m->face_count);
    }
    for (uint32_t i = 0; i < m->bone_count; i++) {
        mcb_u16(b, m->bones[i].index);
        mcb_u16(b, m->bones[i].parent);
    }
    if (m->legacy) {
        for (uint32_t i = 0; i < m->bone_count; i++) {
            mcb_u32(b, aamfb_bone_block_size(m, i));
            put_amf(b, &m->bones[i].amf);
        }
    } else {
        for (uint32_t i = 0; i < m->bone_count; i++) put_matrix(b, &m->bones[i].bind);
        for (uint32_t i = 0; i < m->vertex_count; i++) put_svector(b, &m->positions[i]);
        for (uint32_t i = 0; i < m->vertex_count; i++) put_svector(b, &m->normals[i]);
        for (uint32_t i = 0; i < m->vertex_count; i++) {
            mcb_bytes(b, m->skin[i].bone, 4);
            mcb_bytes(b, m->skin[i].weight, 4);
        }
        for (uint32_t i = 0; i < m->face_count; i++)
            for (int k = 0; k < 3; k++) mcb_u16(b, m->faces[i][k]);
    }
    put_anims(b, m);
}

void aamfb_write_older_amf(mcb_buf *b)
{
    mcb_u16(b, 2);
    mcb_u16(b, 1);
    for (uint16_t i = 0; i < 2; i++) {
        mcb_u16(b, i);
        mcb_u16(b, 0);
    }
    for (int i = 0; i < 2; i++) {
        mcb_u32(b, 20);
        mcb_u32(b, 0x00010003);
        mcb_zeros(b, 12);
    }
    aamfb_matrix id = aamfb_rotation(0, 0, 0, 0, 0, 0);
    mcb_u32(b, 20 + 2 * 32);
    mcb_bytes(b, "idle\0\0\0\0", 8);
    mcb_u32(b, 1);
    mcb_u32(b, 0);
    for (int k = 0; k < 2; k++) put_matrix(b, &id);
}
