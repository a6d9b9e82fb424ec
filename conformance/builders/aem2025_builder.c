#include <stdlib.h>
#include <string.h>

#include "aem2025_builder.h"

const uint32_t aem2025b_record_size[AEM2025B_SECTIONS] = {88, 4, 1, 32, 12, 16, 196, 132, 16, 20};
const uint32_t aem2025b_count_offset[AEM2025B_SECTIONS] = {4, 8, 12, 20, 24, 28, 32, 36, 40, 44};

static void **section_ptr(aem2025b_model *m, enum aem2025b_section s)
{
    switch (s) {
    case AEM2025B_VERTICES: return (void **)&m->vertices;
    case AEM2025B_INDICES: return (void **)&m->indices;
    case AEM2025B_IMAGE: return (void **)&m->image;
    case AEM2025B_TEXTURES: return (void **)&m->textures;
    case AEM2025B_MESHES: return (void **)&m->meshes;
    case AEM2025B_MATERIALS: return (void **)&m->materials;
    case AEM2025B_JOINTS: return (void **)&m->joints;
    case AEM2025B_ANIMATIONS: return (void **)&m->animations;
    case AEM2025B_TRACKS: return (void **)&m->tracks;
    case AEM2025B_KEYFRAMES: return (void **)&m->keys;
    case AEM2025B_SECTIONS: break;
    }
    return NULL;
}

static const size_t elem_size[AEM2025B_SECTIONS] = {
    sizeof(aem2025b_vertex), sizeof(uint32_t), 1, sizeof(aem2025b_texture),
    sizeof(aem2025b_mesh), sizeof(aem2025b_material), sizeof(aem2025b_joint),
    sizeof(aem2025b_animation), sizeof(aem2025b_track), sizeof(aem2025b_key)};

int aem2025b_resize(aem2025b_model *m, enum aem2025b_section s, uint64_t n)
{
    void **p = section_ptr(m, s);
    if (!p || (s != AEM2025B_IMAGE && n > UINT32_MAX)) return -1;
    if (mcb_resize(p, elem_size[s], m->count[s], n) != 0) return -1;
    m->count[s] = n;
    return 0;
}

void aem2025b_free(aem2025b_model *m)
{
    if (!m) return;
    for (int s = 0; s < AEM2025B_SECTIONS; s++) free(*section_ptr(m, (enum aem2025b_section)s));
    free(m);
}

aem2025b_model *aem2025b_new(void)
{
    aem2025b_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    memcpy(m->magic, "AEM", 3);
    m->version = 1;
    for (int s = 0; s < AEM2025B_SECTIONS; s++) {
        if (aem2025b_resize(m, (enum aem2025b_section)s, 0) != 0) {
            aem2025b_free(m);
            return NULL;
        }
    }
    return m;
}

static int mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a) return -1;
    *out = a * b;
    return 0;
}

static int level_size(uint32_t w, uint32_t h, uint32_t channels, uint32_t compression,
                      uint64_t *size)
{
    if (compression == AEM2025B_UNCOMPRESSED) {
        uint64_t texels = (uint64_t)w * h;
        return mul_u64(texels, channels, size);
    }
    if (compression != AEM2025B_BC5 && compression != AEM2025B_BC7) return -1;
    uint64_t blocks = (uint64_t)(w / 4 + (w % 4 != 0)) * (h / 4 + (h % 4 != 0));
    return mul_u64(blocks, 16, size);
}

int aem2025b_mip_chain_size(uint32_t width, uint32_t height, uint32_t channels,
                            uint32_t compression, uint64_t *size)
{
    if (width == 0 || height == 0) return -1;
    uint64_t total = 0;
    for (;;) {
        uint64_t level;
        if (level_size(width, height, channels, compression, &level) != 0) return -1;
        if (level > UINT64_MAX - total) return -1;
        total += level;
        if (width == 1 && height == 1) break;
        width = width > 1 ? width / 2 : 1;
        height = height > 1 ? height / 2 : 1;
    }
    *size = total;
    return 0;
}

int aem2025b_add_texture(aem2025b_model *m, aem2025b_texture t, const void *data, uint64_t size,
                         uint32_t *index)
{
    uint64_t at = m->count[AEM2025B_IMAGE];
    uint64_t tex = m->count[AEM2025B_TEXTURES];
    if (size > UINT64_MAX - at) return -1;
    if (aem2025b_resize(m, AEM2025B_IMAGE, at + size) != 0) return -1;
    if (aem2025b_resize(m, AEM2025B_TEXTURES, tex + 1) != 0) {
        aem2025b_resize(m, AEM2025B_IMAGE, at);
        return -1;
    }
    if (size) memcpy(m->image + at, data, (size_t)size);
    t.offset = at;
    m->textures[tex] = t;
    if (index) *index = (uint32_t)tex;
    return 0;
}

/* One level down: each texel the mean of the (up to 2x2) texels it covers. */
static void downsample(const uint8_t *src, uint32_t w, uint32_t h, uint32_t c, uint8_t *dst)
{
    uint32_t dw = w > 1 ? w / 2 : 1, dh = h > 1 ? h / 2 : 1;
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++)
            for (uint32_t k = 0; k < c; k++) {
                uint32_t sum = 0, n = 0;
                for (uint32_t dy = 0; dy < 2; dy++)
                    for (uint32_t dx = 0; dx < 2; dx++) {
                        uint32_t sx = 2 * x + dx, sy = 2 * y + dy;
                        if (sx >= w || sy >= h) continue;
                        sum += src[((size_t)sy * w + sx) * c + k];
                        n++;
                    }
                dst[((size_t)y * dw + x) * c + k] = (uint8_t)((sum + n / 2) / n);
            }
}

int aem2025b_add_image(aem2025b_model *m, uint32_t width, uint32_t height, uint32_t channels,
                       const uint32_t wrap[2], const uint8_t *level0, uint32_t *index)
{
    uint64_t size;
    if (channels == 0 ||
        aem2025b_mip_chain_size(width, height, channels, AEM2025B_UNCOMPRESSED, &size) != 0 ||
        size > SIZE_MAX)
        return -1;
    uint8_t *chain = malloc((size_t)size);
    if (!chain) return -1;
    size_t first = (size_t)width * height * channels;
    memcpy(chain, level0, first);
    uint8_t *level = chain;
    uint32_t w = width, h = height;
    while (w > 1 || h > 1) {
        uint8_t *next = level + (size_t)w * h * channels;
        downsample(level, w, h, channels, next);
        level = next;
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
    aem2025b_texture t = {0, width, height, {wrap[0], wrap[1]}, channels, AEM2025B_UNCOMPRESSED};
    int rc = aem2025b_add_texture(m, t, chain, size, index);
    free(chain);
    return rc;
}

static void sample_vertices(aem2025b_model *m, int skinned)
{
    static const float corner[8][3] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0},
                                       {-1, -1, 2}, {1, -1, 2}, {1, 1, 2}, {-1, 1, 2}};
    for (uint32_t i = 0; i < 8; i++) {
        aem2025b_vertex *v = &m->vertices[i];
        memcpy(v->position, corner[i], sizeof v->position);
        v->normal[2] = 1.0f;
        v->tangent[0] = 1.0f;
        v->bitangent[1] = 1.0f;
        v->uv[0] = (float)(i & 1);
        v->uv[1] = (float)((i >> 1) & 1);
        for (int j = 0; j < 4; j++) v->joint[j] = -1;
        if (skinned) {
            /* two influences, 0.75 + 0.25: exact in binary */
            v->joint[0] = (int32_t)(i / 4 + 1);
            v->joint[1] = 0;
            v->weight[0] = 0.75f;
            v->weight[1] = 0.25f;
        }
    }
}

/* Five textures in a 32-byte image buffer: a 2x2 RGBA base colour with its
 * 1x1 level (20 bytes), a 1x1 two-channel normal map, a 1x1 RGBA PBR
 * texture, a 1x1 RGBA base colour and a second 1x1 normal map. */
static int sample_textures(aem2025b_model *m)
{
    static const uint8_t base[16] = {255, 0, 0, 255, 0, 255, 0, 255,
                                     0, 0, 255, 255, 255, 255, 255, 255};
    static const uint8_t flat_normal[2] = {128, 128};
    static const uint8_t pbr[4] = {255, 255, 0, 0};
    static const uint8_t grey[4] = {128, 128, 128, 128};
    const uint32_t repeat[2] = {AEM2025B_REPEAT, AEM2025B_REPEAT};
    const uint32_t clamp[2] = {AEM2025B_CLAMP, AEM2025B_MIRRORED_REPEAT};
    return aem2025b_add_image(m, 2, 2, 4, repeat, base, NULL) |
           aem2025b_add_image(m, 1, 1, 2, repeat, flat_normal, NULL) |
           aem2025b_add_image(m, 1, 1, 4, repeat, pbr, NULL) |
           aem2025b_add_image(m, 1, 1, 4, clamp, grey, NULL) |
           aem2025b_add_image(m, 1, 1, 2, clamp, flat_normal, NULL);
}

static void sample_geometry(aem2025b_model *m)
{
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    for (uint32_t k = 0; k < 12; k++) m->indices[k] = quad[k % 6] + (k / 6) * 4;
    m->meshes[0] = (aem2025b_mesh){0, 6, 0};
    m->meshes[1] = (aem2025b_mesh){6, 6, 1};
    m->materials[0] = (aem2025b_material){{0, 1, 2}, AEM2025B_OPAQUE};
    m->materials[1] = (aem2025b_material){{3, 4, 2}, AEM2025B_TRANSPARENT};
}

/* Keys of one track from *k on: n per channel, evenly over [0, duration]. */
static void sample_track(aem2025b_model *m, uint64_t t, uint32_t *k, uint32_t n, float duration)
{
    m->tracks[t].first_keyframe = *k;
    for (int ch = 0; ch < 3; ch++) {
        m->tracks[t].count[ch] = n;
        for (uint32_t i = 0; i < n; i++, (*k)++) {
            aem2025b_key *key = &m->keys[*k];
            key->time = n > 1 ? duration * (float)i / (float)(n - 1) : 0.0f;
            if (ch == 1) key->w = 1.0f;                        /* identity rotation */
            else if (ch == 2) key->x = key->y = key->z = 1.0f; /* unit scale */
            else key->z = (float)i;                            /* translation */
        }
    }
}

/* Three joints in a chain, root first; two animations. */
static void sample_skeleton(aem2025b_model *m)
{
    static const char *names[3] = {"root", "spine", "head"};
    for (uint32_t j = 0; j < 3; j++) {
        strcpy(m->joints[j].name, names[j]);
        mcb_identity(m->joints[j].inverse_bind);
        m->joints[j].inverse_bind[14] = -(float)j; /* translation z */
        m->joints[j].parent = (int32_t)j - 1;
    }
    strcpy(m->animations[0].name, "wave");
    m->animations[0].duration = 1.0f;
    strcpy(m->animations[1].name, "idle");
    m->animations[1].duration = 0.5f;
    uint32_t k = 0;
    for (uint32_t a = 0; a < 2; a++)
        for (uint32_t j = 0; j < 3; j++)
            sample_track(m, (uint64_t)a * 3 + j, &k, a == 0 ? 2 : 1, m->animations[a].duration);
}

aem2025b_model *aem2025b_sample(enum aem2025b_sample_kind kind)
{
    aem2025b_model *m = aem2025b_new();
    if (!m) return NULL;
    int skinned = kind == AEM2025B_SKINNED_ANIMATED;
    /* image buffer and textures come from sample_textures */
    static const uint64_t skinned_counts[AEM2025B_SECTIONS] = {8, 12, 0, 0, 2, 2, 3, 2, 6, 27};
    static const uint64_t static_counts[AEM2025B_SECTIONS] = {8, 12, 0, 0, 2, 2, 0, 0, 0, 0};
    const uint64_t *counts = skinned ? skinned_counts : static_counts;
    for (int s = 0; s < AEM2025B_SECTIONS; s++) {
        if (aem2025b_resize(m, (enum aem2025b_section)s, counts[s]) != 0) {
            aem2025b_free(m);
            return NULL;
        }
    }
    if (sample_textures(m) != 0) {
        aem2025b_free(m);
        return NULL;
    }
    sample_vertices(m, skinned);
    sample_geometry(m);
    if (skinned) sample_skeleton(m);
    return m;
}

uint64_t aem2025b_offset(const aem2025b_model *m, enum aem2025b_section s, uint64_t i)
{
    uint64_t off = AEM2025B_HEADER_SIZE;
    for (int k = 0; k < (int)s && k < AEM2025B_SECTIONS; k++)
        off += m->count[k] * aem2025b_record_size[k];
    return s < AEM2025B_SECTIONS ? off + i * aem2025b_record_size[s] : off;
}

void aem2025b_put_u64(mcb_buf *b, size_t off, uint64_t v)
{
    mcb_put_u32(b, off, (uint32_t)v);
    mcb_put_u32(b, off + 4, (uint32_t)(v >> 32));
}

static void write_vertex(mcb_buf *b, const aem2025b_vertex *v)
{
    mcb_f32s(b, v->position, 3);
    mcb_f32s(b, v->normal, 3);
    mcb_f32s(b, v->tangent, 3);
    mcb_f32s(b, v->bitangent, 3);
    mcb_f32s(b, v->uv, 2);
    for (int j = 0; j < 4; j++) mcb_i32(b, v->joint[j]);
    mcb_f32s(b, v->weight, 4);
}

static void write_header(mcb_buf *b, const aem2025b_model *m)
{
    mcb_bytes(b, m->magic, 3);
    mcb_u8(b, m->version);
    mcb_u32(b, (uint32_t)m->count[AEM2025B_VERTICES]);
    mcb_u32(b, (uint32_t)m->count[AEM2025B_INDICES]);
    mcb_u32(b, (uint32_t)m->count[AEM2025B_IMAGE]);
    mcb_u32(b, (uint32_t)(m->count[AEM2025B_IMAGE] >> 32));
    for (int s = AEM2025B_TEXTURES; s < AEM2025B_SECTIONS; s++) mcb_u32(b, (uint32_t)m->count[s]);
    mcb_u32(b, m->header_padding);
}

static void write_materials(mcb_buf *b, const aem2025b_model *m)
{
    for (uint64_t i = 0; i < m->count[AEM2025B_TEXTURES]; i++) {
        const aem2025b_texture *t = &m->textures[i];
        mcb_u32(b, (uint32_t)t->offset);
        mcb_u32(b, (uint32_t)(t->offset >> 32));
        const uint32_t f[6] = {t->width, t->height, t->wrap[0], t->wrap[1], t->channels,
                               t->compression};
        for (int k = 0; k < 6; k++) mcb_u32(b, f[k]);
    }
    for (uint64_t i = 0; i < m->count[AEM2025B_MESHES]; i++) {
        mcb_u32(b, m->meshes[i].first_index);
        mcb_u32(b, m->meshes[i].index_count);
        mcb_u32(b, m->meshes[i].material);
    }
    for (uint64_t i = 0; i < m->count[AEM2025B_MATERIALS]; i++) {
        for (int t = 0; t < 3; t++) mcb_u32(b, m->materials[i].texture[t]);
        mcb_u32(b, m->materials[i].type);
    }
}

static void write_animation(mcb_buf *b, const aem2025b_model *m)
{
    for (uint64_t i = 0; i < m->count[AEM2025B_JOINTS]; i++) {
        mcb_bytes(b, m->joints[i].name, AEM2025B_NAME_SIZE);
        mcb_f32s(b, m->joints[i].inverse_bind, 16);
        mcb_i32(b, m->joints[i].parent);
    }
    for (uint64_t i = 0; i < m->count[AEM2025B_ANIMATIONS]; i++) {
        mcb_bytes(b, m->animations[i].name, AEM2025B_NAME_SIZE);
        mcb_f32(b, m->animations[i].duration);
    }
    for (uint64_t i = 0; i < m->count[AEM2025B_TRACKS]; i++) {
        mcb_u32(b, m->tracks[i].first_keyframe);
        for (int ch = 0; ch < 3; ch++) mcb_u32(b, m->tracks[i].count[ch]);
    }
    for (uint64_t i = 0; i < m->count[AEM2025B_KEYFRAMES]; i++) {
        const aem2025b_key *k = &m->keys[i];
        const float f[5] = {k->time, k->x, k->y, k->z, k->w};
        mcb_f32s(b, f, 5);
    }
}

void aem2025b_write(const aem2025b_model *m, mcb_buf *b)
{
    write_header(b, m);
    for (uint64_t i = 0; i < m->count[AEM2025B_VERTICES]; i++) write_vertex(b, &m->vertices[i]);
    for (uint64_t i = 0; i < m->count[AEM2025B_INDICES]; i++) mcb_u32(b, m->indices[i]);
    mcb_bytes(b, m->image, (size_t)m->count[AEM2025B_IMAGE]);
    write_materials(b, m);
    write_animation(b, m);
}
