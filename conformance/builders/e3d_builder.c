#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "LzmaEnc.h"
#include "e3d_builder.h"
#include "mc_lzma_alloc.h"

/* ---- blocks ---- */

static void push_open(e3db *w, size_t at)
{
    if (w->depth == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        size_t *n = realloc(w->open, cap * sizeof *n);
        if (!n) {
            w->b.oom = true;
            return;
        }
        w->open = n;
        w->cap = cap;
    }
    w->open[w->depth++] = at;
}

size_t e3db_begin(e3db *w, uint16_t type)
{
    size_t at = w->b.size;
    mcb_u16(&w->b, type);
    mcb_u32(&w->b, 0);
    push_open(w, at);
    return at;
}

void e3db_end(e3db *w)
{
    if (w->depth == 0 || w->b.oom) return;
    size_t at = w->open[--w->depth];
    mcb_put_u32(&w->b, at + 2, (uint32_t)(w->b.size - at));
}

void e3db_close(e3db *w)
{
    while (w->depth && !w->b.oom) e3db_end(w);
}

size_t e3db_leaf(e3db *w, uint16_t type, const void *payload, size_t n)
{
    size_t at = w->b.size;
    mcb_u16(&w->b, type);
    mcb_u32(&w->b, (uint32_t)(n + 6));
    mcb_bytes(&w->b, payload, n);
    return at;
}

size_t e3db_raw_header(e3db *w, uint16_t type, uint32_t length)
{
    size_t at = w->b.size;
    mcb_u16(&w->b, type);
    mcb_u32(&w->b, length);
    return at;
}

size_t e3db_u32(e3db *w, uint16_t type, uint32_t v)
{
    size_t at = e3db_begin(w, type);
    mcb_u32(&w->b, v);
    e3db_end(w);
    return at;
}

size_t e3db_floats(e3db *w, uint16_t type, const float *v, size_t n)
{
    size_t at = e3db_begin(w, type);
    mcb_f32s(&w->b, v, n);
    e3db_end(w);
    return at;
}

size_t e3db_doubles(e3db *w, uint16_t type, const double *v, size_t n)
{
    size_t at = e3db_begin(w, type);
    for (size_t i = 0; i < n; i++) mcb_bytes(&w->b, &v[i], 8); /* little-endian host */
    e3db_end(w);
    return at;
}

size_t e3db_string(e3db *w, uint16_t type, const char *s)
{
    size_t at = e3db_begin(w, type);
    size_t n = strlen(s);
    mcb_u16(&w->b, (uint16_t)n);
    mcb_bytes(&w->b, s, n);
    e3db_end(w);
    return at;
}

size_t e3db_version(e3db *w)
{
    static const uint8_t v[6] = {'E', '3', 'D', 'F', 0x00, 0x01};
    return e3db_leaf(w, 0x0001, v, sizeof v);
}

void e3db_free(e3db *w)
{
    mcb_free(&w->b);
    free(w->open);
    memset(w, 0, sizeof *w);
}

/* ---- LZMA ---- */

const e3db_lzma e3db_lzma_reference = {4, 4, 4, UINT32_C(1) << 26, false};

int e3db_lzma_encode(const void *in, size_t n, const e3db_lzma *p, mcb_buf *out)
{
    ISzAlloc alloc = MC_LZMA_ALLOCATOR;
    CLzmaEncProps props;
    LzmaEncProps_Init(&props);
    props.lc = (int)p->lc;
    props.lp = (int)p->lp;
    props.pb = (int)p->pb;
    props.dictSize = p->dict;
    props.reduceSize = (UInt32)n;
    props.numThreads = 1;
    SizeT cap = n + n / 2 + 1024, props_size = LZMA_PROPS_SIZE;
    uint8_t *dest = malloc(cap);
    uint8_t header[LZMA_PROPS_SIZE];
    if (!dest) return -1;
    SRes res = LzmaEncode(dest, &cap, in, n, &props, header, &props_size, p->end_mark ? 1 : 0,
                          NULL, &alloc, &alloc);
    if (res != SZ_OK) {
        free(dest);
        return -1;
    }
    for (int i = 0; i < 4; i++) header[1 + i] = (uint8_t)(p->dict >> (8 * i));
    mcb_bytes(out, header, sizeof header);
    mcb_bytes(out, dest, cap);
    free(dest);
    return out->oom ? -1 : 0;
}

size_t e3db_lzma_wrap(e3db *w, size_t from, const e3db_lzma *p)
{
    if (w->b.oom || from > w->b.size) return E3DB_FAIL;
    size_t n = w->b.size - from;
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) return E3DB_FAIL;
    memcpy(copy, w->b.data + from, n);
    w->b.size = from;
    size_t at = e3db_begin(w, 0x0010);
    mcb_u32(&w->b, (uint32_t)n);
    int rc = e3db_lzma_encode(copy, n, p, &w->b);
    free(copy);
    e3db_end(w);
    return rc == 0 ? at : E3DB_FAIL;
}

/* ---- the spec's cube ---- */

#define H 0.5f
const float e3db_cube_positions[24][3] = {
    {-H, -H, -H}, {H, -H, -H}, {H, H, -H}, {-H, H, -H}, {-H, -H, H}, {H, -H, H}, {H, H, H}, {-H, H, H},
    {-H, -H, -H}, {H, -H, -H}, {H, H, -H}, {-H, H, -H}, {-H, -H, H}, {H, -H, H}, {H, H, H}, {-H, H, H},
    {-H, -H, -H}, {H, -H, -H}, {H, H, -H}, {-H, H, -H}, {-H, -H, H}, {H, -H, H}, {H, H, H}, {-H, H, H}};

const uint16_t e3db_cube_faces[12][3] = {{17, 21, 20}, {17, 20, 16}, {0, 3, 2},    {0, 2, 1},
                                         {22, 18, 19}, {22, 19, 23}, {5, 6, 7},    {5, 7, 4},
                                         {9, 10, 14},  {9, 14, 13},  {12, 15, 11}, {12, 11, 8}};

const float e3db_cube_normals[24][3] = {
    {0, 0, -1}, {0, 0, -1}, {0, 0, -1}, {0, 0, -1}, {0, 0, 1},  {0, 0, 1},  {0, 0, 1},  {0, 0, 1},
    {-1, 0, 0}, {1, 0, 0},  {1, 0, 0},  {-1, 0, 0}, {-1, 0, 0}, {1, 0, 0},  {1, 0, 0},  {-1, 0, 0},
    {0, -1, 0}, {0, -1, 0}, {0, 1, 0},  {0, 1, 0},  {0, -1, 0}, {0, -1, 0}, {0, 1, 0},  {0, 1, 0}};

uint32_t e3db_pack_normal(const float n[3])
{
    uint32_t packed = 0;
    for (int k = 0; k < 3; k++) {
        long q = n[k] < 0 ? lroundf(n[k] * 512.0f) : lroundf(n[k] * 511.0f);
        if (q < -512) q = -512;
        if (q > 511) q = 511;
        packed |= ((uint32_t)q & 0x3FFu) << (10 * k);
    }
    return packed;
}

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static void write_textures(e3db *w, e3db_cube_map *m)
{
    static const uint8_t png[16] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A,
                                    0, 0, 0, 0x0D, 'I', 'H', 'D', 'R'};
    m->textures = e3db_begin(w, 0x9000);
    m->texture = e3db_begin(w, 0x9001);
    e3db_u32(w, 0x9002, 1);
    e3db_string(w, 0x9003, "cube.png");
    e3db_leaf(w, 0x9101, png, sizeof png);
    e3db_end(w);
    e3db_end(w);
}

static void write_materials(e3db *w, unsigned flags, e3db_cube_map *m)
{
    static const float diffuse[3] = {1.0f, 0.5f, 0.25f}, opacity = 1.0f;
    m->materials = e3db_begin(w, 0x8000);
    m->material = e3db_begin(w, 0x8010);
    e3db_u32(w, 0x8011, 1);
    e3db_string(w, 0x8012, "paint");
    e3db_floats(w, 0x8030, diffuse, 3);
    e3db_floats(w, 0x8021, &opacity, 1);
    if (flags & E3DB_TEXTURE) {
        m->map = e3db_begin(w, 0x8200);
        e3db_u32(w, 0x9002, 1);
        e3db_end(w);
    }
    e3db_end(w);
    e3db_end(w);
}

static void write_interleaved(e3db *w, unsigned flags, e3db_cube_map *m)
{
    unsigned stride = 12;
    m->interleaved = e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010);
    mcb_u16(&w->b, 0);
    if (flags & E3DB_NORMALS) {
        m->normal_at = stride;
        mcb_u16(&w->b, 0x2020);
        mcb_u16(&w->b, (uint16_t)stride);
        stride += 4;
    }
    if (flags & E3DB_UVS) {
        m->uv_at = stride;
        mcb_u16(&w->b, 0x2030);
        mcb_u16(&w->b, (uint16_t)stride);
        stride += 8;
    }
    if (flags & E3DB_SKIN) {
        m->weights_at = stride;
        mcb_u16(&w->b, 0x2090);
        mcb_u16(&w->b, (uint16_t)stride);
        stride += 4; /* 2 bone IDs, 2 weights */
    }
    mcb_u16(&w->b, 0);
    mcb_u16(&w->b, (uint16_t)stride);
    m->stride = stride;
    m->vertex_data = w->b.size;
    for (int i = 0; i < 24; i++) {
        const float *p = e3db_cube_positions[i];
        mcb_f32s(&w->b, p, 3);
        if (flags & E3DB_NORMALS) mcb_u32(&w->b, e3db_pack_normal(e3db_cube_normals[i]));
        if (flags & E3DB_UVS) {
            mcb_f32(&w->b, p[0] + H);
            mcb_f32(&w->b, p[1] + H);
        }
        if (flags & E3DB_SKIN) {
            uint8_t bw[4] = {1, 2, 255, 0};
            if (p[2] > 0) bw[2] = 128, bw[3] = 127;
            mcb_bytes(&w->b, bw, 4);
        }
    }
    e3db_end(w);
}

size_t e3db_skin(e3db *w, const char *const *bones, uint8_t n, size_t *bones_at)
{
    size_t at = e3db_begin(w, 0x1050);
    e3db_string(w, 0x1051, "rig");
    e3db_floats(w, 0x1052, identity, 16);
    size_t list = e3db_begin(w, 0x1053);
    mcb_u8(&w->b, n);
    for (uint8_t i = 0; i < n; i++) {
        mcb_u16(&w->b, (uint16_t)strlen(bones[i]));
        mcb_bytes(&w->b, bones[i], strlen(bones[i]));
        mcb_f32s(&w->b, identity, 16);
    }
    e3db_end(w);
    uint8_t set = 0;
    e3db_leaf(w, 0x1054, &set, 1);
    e3db_end(w);
    if (bones_at) *bones_at = list;
    return at;
}

static void write_skin(e3db *w, e3db_cube_map *m)
{
    static const char *const bones[2] = {"root", "tip"};
    m->skin = e3db_skin(w, bones, 2, &m->skin_bones);
}

static void write_mesh(e3db *w, unsigned flags, e3db_cube_map *m)
{
    static const float box[6] = {-H, -H, -H, H, H, H};
    m->meshes = e3db_begin(w, 0x1000);
    m->mesh = e3db_begin(w, 0x1010);
    size_t children = w->b.size;
    m->mesh_id = e3db_u32(w, 0x1020, 1);
    if (flags & E3DB_BBOX) m->bbox = e3db_floats(w, 0x1021, box, 6);
    m->attributes = e3db_begin(w, 0x2000);
    mcb_u32(&w->b, 24);
    write_interleaved(w, flags, m);
    e3db_end(w);
    m->faces = e3db_begin(w, 0x1030);
    mcb_u32(&w->b, 12);
    for (int t = 0; t < 12; t++)
        for (int k = 0; k < 3; k++) mcb_u16(&w->b, e3db_cube_faces[t][k]);
    e3db_end(w);
    for (int i = 0; i < ((flags & E3DB_REPEAT_FACES_MATERIALS) ? 2 : 1); i++) {
        size_t at = e3db_begin(w, 0x1040);
        if (i == 0) m->faces_materials = at;
        mcb_u32(&w->b, 0);
        mcb_u32(&w->b, 12);
        mcb_u32(&w->b, (flags & E3DB_MATERIAL) ? 1 : 0);
        e3db_end(w);
    }
    if (flags & E3DB_SKIN) write_skin(w, m);
    if (flags & E3DB_LZMA_MESH) e3db_lzma_wrap(w, children, &e3db_lzma_reference);
    e3db_end(w);
    e3db_end(w);
}

static void write_nodes(e3db *w, unsigned flags, e3db_cube_map *m)
{
    bool named = flags & (E3DB_SKIN | E3DB_ANIMATION);
    m->nodes = e3db_begin(w, 0x3000);
    m->node = e3db_begin(w, 0x3010);
    if (named) {
        e3db_u32(w, 0x3020, 1);
        e3db_string(w, 0x3021, "root");
    }
    m->node_mesh_id = e3db_u32(w, 0x1020, 1);
    if (flags & E3DB_SKIN) {
        e3db_begin(w, 0x3010);
        e3db_u32(w, 0x3020, 2);
        e3db_string(w, 0x3021, "tip");
        static const double position[3] = {0, 1, 0};
        e3db_doubles(w, 0x3032, position, 3);
        e3db_end(w);
    }
    e3db_end(w);
    e3db_end(w);
}

static void write_animations(e3db *w, unsigned flags, e3db_cube_map *m)
{
    static const float pos[6] = {0, 0, 0, 0, 1, 0};
    static const float rot[8] = {1, 0, 0, 0, 0.70710678f, 0, 0.70710678f, 0};
    static const uint32_t frames[3] = {0, 10, 0};
    m->animations = e3db_begin(w, 0xA000);
    m->animation = e3db_begin(w, 0xA010);
    e3db_string(w, 0xA021, "spin");
    m->frames = e3db_leaf(w, 0xA022, frames, sizeof frames);
    m->track = e3db_begin(w, 0xA100);
    mcb_u32(&w->b, 2);
    if (flags & E3DB_TRACK_CODE_LAYOUT) mcb_u8(&w->b, 1);
    mcb_u32(&w->b, 0);
    mcb_u32(&w->b, 10);
    if (!(flags & E3DB_TRACK_CODE_LAYOUT)) mcb_u8(&w->b, 1);
    e3db_floats(w, 0xA210, pos, 6);
    m->rotation = e3db_floats(w, 0xA230, rot, 8);
    e3db_u32(w, 0x3020, 1);
    e3db_end(w);
    e3db_end(w);
    e3db_end(w);
}

void e3db_cube(e3db *w, unsigned flags, e3db_cube_map *map)
{
    e3db_cube_map local;
    e3db_cube_map *m = map ? map : &local;
    memset(m, 0, sizeof *m);
    e3db_version(w);
    size_t body = w->b.size;
    if (flags & E3DB_TEXTURE) write_textures(w, m);
    if (flags & E3DB_EMPTY_TEXTURES) {
        e3db_begin(w, 0x9000);
        e3db_end(w);
    }
    if (flags & E3DB_MATERIAL) write_materials(w, flags, m);
    write_mesh(w, flags, m);
    write_nodes(w, flags, m);
    if (flags & E3DB_ANIMATION) write_animations(w, flags, m);
    if (flags & E3DB_LZMA_TOP) e3db_lzma_wrap(w, body, &e3db_lzma_reference);
}

size_t e3db_vertex_offset(const e3db_cube_map *map, size_t i, size_t field)
{
    return map->vertex_data + i * map->stride + field;
}

void e3db_tri_begin(e3db *w)
{
    static const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    e3db_attrs_begin(w, 3);
    e3db_floats(w, 0x2010, v, 9);
    e3db_end(w);
    e3db_begin(w, 0x1030);
    mcb_u32(&w->b, 1);
    mcb_u16(&w->b, 0);
    mcb_u16(&w->b, 1);
    mcb_u16(&w->b, 2);
    e3db_end(w);
}

void e3db_attrs_begin(e3db *w, uint32_t count)
{
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_u32(w, 0x1020, 1);
    e3db_begin(w, 0x2000);
    mcb_u32(&w->b, count);
}

void e3db_track_begin(e3db *w, uint32_t keys)
{
    e3db_version(w);
    e3db_begin(w, 0x3000);
    e3db_begin(w, 0x3010);
    e3db_u32(w, 0x3020, 1);
    e3db_close(w);
    e3db_begin(w, 0xA000);
    e3db_begin(w, 0xA010);
    e3db_begin(w, 0xA100);
    mcb_u32(&w->b, keys);
    for (uint32_t k = 0; k < keys; k++) mcb_u32(&w->b, k);
    mcb_u8(&w->b, 0);
}
