#include <stdlib.h>
#include <string.h>

#include "nlm_builder.h"

const uint8_t nlmb_tiny_png[33] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89};

static const uint32_t key_size[NLMB_KEY_KINDS] = {16, 20, 16};

int nlmb_resize_meshes(nlmb_model *m, uint32_t n)
{
    for (uint32_t i = n; i < m->mesh_count; i++) {
        free(m->meshes[i].vertices);
        free(m->meshes[i].indices);
        free(m->meshes[i].texture);
    }
    if (n < m->mesh_count) m->mesh_count = n;
    if (mcb_resize((void **)&m->meshes, sizeof *m->meshes, m->mesh_count, n)) return -1;
    m->mesh_count = n;
    return 0;
}

int nlmb_resize_mesh(nlmb_mesh *mesh, uint32_t vertices, uint32_t indices)
{
    if (mcb_resize((void **)&mesh->vertices, sizeof *mesh->vertices, mesh->vertex_count, vertices) ||
        mcb_resize((void **)&mesh->indices, sizeof *mesh->indices, mesh->index_count, indices))
        return -1;
    for (uint32_t v = mesh->vertex_count; v < vertices; v++)
        for (int j = 0; j < 4; j++) mesh->vertices[v].bone[j] = -1;
    mesh->vertex_count = vertices;
    mesh->index_count = indices;
    return 0;
}

int nlmb_set_texture(nlmb_mesh *mesh, const void *bytes, uint32_t size)
{
    uint8_t *t = malloc(size ? size : 1);
    if (!t) return -1;
    if (size) memcpy(t, bytes, size);
    free(mesh->texture);
    mesh->texture = t;
    mesh->texture_size = size;
    return 0;
}

int nlmb_resize_bone_infos(nlmb_model *m, uint32_t n)
{
    if (mcb_resize((void **)&m->bone_infos, sizeof *m->bone_infos, m->bone_info_count, n)) return -1;
    m->bone_info_count = n;
    return 0;
}

int nlmb_resize_channels(nlmb_model *m, uint32_t n)
{
    for (uint32_t i = n; i < m->channel_count; i++)
        for (int k = 0; k < NLMB_KEY_KINDS; k++) free(m->channels[i].keys[k]);
    if (n < m->channel_count) m->channel_count = n;
    if (mcb_resize((void **)&m->channels, sizeof *m->channels, m->channel_count, n)) return -1;
    m->channel_count = n;
    return 0;
}

int nlmb_resize_keys(nlmb_channel *ch, int kind, uint32_t n)
{
    if (mcb_resize((void **)&ch->keys[kind], sizeof *ch->keys[kind], ch->count[kind], n)) return -1;
    ch->count[kind] = n;
    return 0;
}

int nlmb_resize_nodes(nlmb_model *m, uint32_t n)
{
    for (uint32_t i = n; i < m->node_count; i++) free(m->nodes[i].children);
    if (n < m->node_count) m->node_count = n;
    if (mcb_resize((void **)&m->nodes, sizeof *m->nodes, m->node_count, n)) return -1;
    for (uint32_t i = m->node_count; i < n; i++) {
        m->nodes[i].id = (int32_t)i;
        mcb_identity(m->nodes[i].transform);
    }
    m->node_count = n;
    return 0;
}

int nlmb_set_children(nlmb_node *node, const int32_t *children, uint32_t n)
{
    int32_t *c = malloc((n ? n : 1) * sizeof *c);
    if (!c) return -1;
    if (n) memcpy(c, children, n * sizeof *c);
    free(node->children);
    node->children = c;
    node->child_count = n;
    return 0;
}

void nlmb_free(nlmb_model *m)
{
    if (!m) return;
    nlmb_resize_meshes(m, 0);
    nlmb_resize_channels(m, 0);
    nlmb_resize_nodes(m, 0);
    free(m->meshes);
    free(m->channels);
    free(m->nodes);
    free(m->bone_infos);
    free(m);
}

/* FNV-1a, as the writer meant to hash the source file (it never did). */
static uint32_t fnv1a(const char *s)
{
    uint32_t h = 0x811C9DC5u;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 0x01000193u;
    return h;
}

/* A unit quad in the z = 0 plane, normalised to +-0.5 as the writer does. */
static int sample_quad(nlmb_mesh *mesh, float z)
{
    static const float corner[4][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    if (nlmb_resize_mesh(mesh, 4, 6)) return -1;
    for (uint32_t i = 0; i < 4; i++) {
        nlmb_vertex *v = &mesh->vertices[i];
        v->position[0] = corner[i][0];
        v->position[1] = corner[i][1];
        v->position[2] = z;
        v->color[0] = v->color[1] = v->color[2] = 1.0f;
        v->normal[2] = 1.0f;
        v->uv[0] = corner[i][0] + 0.5f;
        v->uv[1] = corner[i][1] + 0.5f;
    }
    memcpy(mesh->indices, quad, sizeof quad);
    return 0;
}

static int sample_triangle(nlmb_mesh *mesh)
{
    if (nlmb_resize_mesh(mesh, 3, 3)) return -1;
    for (uint32_t i = 0; i < 3; i++) {
        nlmb_vertex *v = &mesh->vertices[i];
        v->position[0] = i == 1 ? 0.5f : -0.5f;
        v->position[1] = i == 2 ? 0.5f : -0.5f;
        v->position[2] = 0.5f;
        v->color[0] = 0.25f;
        v->color[1] = 0.5f;
        v->color[2] = 0.75f;
        v->normal[2] = -1.0f;
        mesh->indices[i] = 2 - i;
    }
    return 0;
}

/*
 * Three bones under a root: node 0 (root) -> node 1 -> nodes 2 and 3. Nodes
 * 1, 2, 3 are bones in slots 0, 1, 2; each has a channel with two keys of
 * every kind. Vertices split 0.75 / 0.25 between two bones.
 */
static int sample_skeleton(nlmb_model *m)
{
    static const int32_t root_children[1] = {1}, mid_children[2] = {2, 3};
    if (nlmb_resize_nodes(m, 4) || nlmb_resize_bone_infos(m, 3) || nlmb_resize_channels(m, 3) ||
        nlmb_set_children(&m->nodes[0], root_children, 1) ||
        nlmb_set_children(&m->nodes[1], mid_children, 2))
        return -1;
    m->duration = 2.0f;
    m->ticks_per_second = 25;
    for (uint32_t b = 0; b < 3; b++) {
        nlmb_bone_info *bi = &m->bone_infos[b];
        bi->node_id = (int32_t)b + 1;
        bi->slot = (int32_t)b;
        mcb_identity(bi->offset);
        bi->offset[13] = -(float)b * 0.25f; /* translation y */
        m->nodes[b + 1].transform[13] = 0.25f;
        nlmb_channel *ch = &m->channels[b];
        ch->node_id = (int32_t)b + 1;
        ch->bone_id = (int32_t)b;
        for (int k = 0; k < NLMB_KEY_KINDS; k++) {
            if (nlmb_resize_keys(ch, k, 2)) return -1;
            for (uint32_t t = 0; t < 2; t++) {
                nlmb_key *key = &ch->keys[k][t];
                key->time = 2.0f * (float)t;
                if (k == NLMB_ROTATION) key->v[3] = 1.0f; /* identity: x, y, z, w */
                else if (k == NLMB_SCALE) key->v[0] = key->v[1] = key->v[2] = 1.0f;
                else key->v[1] = 0.25f * (float)t;
            }
        }
    }
    nlmb_mesh *mesh = &m->meshes[0];
    for (uint32_t i = 0; i < mesh->vertex_count; i++) {
        nlmb_vertex *v = &mesh->vertices[i];
        v->bone[0] = i < 2 ? 0 : 1 + (int32_t)(i & 1);
        v->bone[1] = i < 2 ? 1 : 0;
        v->weight[0] = 0.75f;
        v->weight[1] = 0.25f;
    }
    return 0;
}

nlmb_model *nlmb_sample(enum nlmb_sample_kind kind)
{
    nlmb_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    memcpy(m->magic, "LDOM", 4);
    m->version = 2;
    int ok = 0;
    switch (kind) {
    case NLMB_STATIC_TEXTURED:
        m->hash = fnv1a("quad.gltf");
        ok = !nlmb_resize_meshes(m, 1) && !sample_quad(&m->meshes[0], 0.0f) &&
             !nlmb_set_texture(&m->meshes[0], nlmb_tiny_png, sizeof nlmb_tiny_png);
        break;
    case NLMB_STATIC_TWO_MESHES:
        m->hash = fnv1a("quad_and_triangle.obj");
        ok = !nlmb_resize_meshes(m, 2) && !sample_quad(&m->meshes[0], 0.0f) &&
             !sample_triangle(&m->meshes[1]);
        break;
    case NLMB_SKINNED_ANIMATED:
        m->hash = fnv1a("arm.fbx");
        m->animated = 1;
        m->write_animation = 1;
        ok = !nlmb_resize_meshes(m, 1) && !sample_quad(&m->meshes[0], 0.0f) && !sample_skeleton(m);
        break;
    }
    if (!ok) {
        nlmb_free(m);
        return NULL;
    }
    float lo[3] = {-0.5f, -0.5f, 0.0f}, hi[3] = {0.5f, 0.5f, kind == NLMB_STATIC_TWO_MESHES ? 0.5f : 0.0f};
    memcpy(m->aabb_min, lo, sizeof lo);
    memcpy(m->aabb_max, hi, sizeof hi);
    return m;
}

/* ---- layout ---- */

static uint64_t header_size(const nlmb_model *m)
{
    return m->hashless ? 12 : 16;
}

static uint64_t mesh_size(const nlmb_mesh *mesh)
{
    return 8 + (uint64_t)mesh->vertex_count * NLMB_VERTEX_SIZE + 4ull * mesh->index_count + 4 +
           mesh->texture_size;
}

uint64_t nlmb_mesh_offset(const nlmb_model *m, uint32_t mesh)
{
    uint64_t off = header_size(m) + 24 + 4;
    for (uint32_t i = 0; i < mesh && i < m->mesh_count; i++) off += mesh_size(&m->meshes[i]);
    return off;
}

uint64_t nlmb_vertex_offset(const nlmb_model *m, uint32_t mesh, uint64_t v)
{
    return nlmb_mesh_offset(m, mesh) + 8 + v * NLMB_VERTEX_SIZE;
}

uint64_t nlmb_index_offset(const nlmb_model *m, uint32_t mesh, uint64_t k)
{
    return nlmb_vertex_offset(m, mesh, m->meshes[mesh].vertex_count) + 4 * k;
}

uint64_t nlmb_texture_offset(const nlmb_model *m, uint32_t mesh)
{
    return nlmb_index_offset(m, mesh, m->meshes[mesh].index_count);
}

uint64_t nlmb_animation_offset(const nlmb_model *m)
{
    return nlmb_mesh_offset(m, m->mesh_count);
}

uint64_t nlmb_bone_info_offset(const nlmb_model *m, uint32_t i)
{
    return nlmb_animation_offset(m) + 8 + 4 + (uint64_t)i * NLMB_BONE_INFO_SIZE;
}

static uint64_t channel_size(const nlmb_channel *ch)
{
    uint64_t s = NLMB_CHANNEL_HEADER_SIZE;
    for (int k = 0; k < NLMB_KEY_KINDS; k++) s += (uint64_t)ch->count[k] * key_size[k];
    return s;
}

uint64_t nlmb_channel_offset(const nlmb_model *m, uint32_t i)
{
    uint64_t off = nlmb_bone_info_offset(m, m->bone_info_count) + 4;
    for (uint32_t c = 0; c < i && c < m->channel_count; c++) off += channel_size(&m->channels[c]);
    return off;
}

uint64_t nlmb_key_offset(const nlmb_model *m, uint32_t channel, int kind, uint64_t k)
{
    uint64_t off = nlmb_channel_offset(m, channel) + NLMB_CHANNEL_HEADER_SIZE;
    for (int j = 0; j < kind; j++) off += (uint64_t)m->channels[channel].count[j] * key_size[j];
    return off + k * key_size[kind];
}

uint64_t nlmb_node_count_offset(const nlmb_model *m)
{
    return nlmb_channel_offset(m, m->channel_count);
}

uint64_t nlmb_node_offset(const nlmb_model *m, uint32_t i)
{
    uint64_t off = nlmb_node_count_offset(m) + 4;
    for (uint32_t n = 0; n < i && n < m->node_count; n++)
        off += NLMB_NODE_HEADER_SIZE + 4ull * m->nodes[n].child_count;
    return off;
}

uint64_t nlmb_child_offset(const nlmb_model *m, uint32_t node, uint32_t j)
{
    return nlmb_node_offset(m, node) + NLMB_NODE_HEADER_SIZE + 4ull * j;
}

uint64_t nlmb_size(const nlmb_model *m)
{
    return m->write_animation ? nlmb_node_offset(m, m->node_count) : nlmb_animation_offset(m);
}

/* ---- writing ---- */

static void write_mesh(mcb_buf *b, const nlmb_mesh *mesh)
{
    mcb_u32(b, mesh->vertex_count);
    mcb_u32(b, mesh->index_count);
    for (uint32_t i = 0; i < mesh->vertex_count; i++) {
        const nlmb_vertex *v = &mesh->vertices[i];
        mcb_f32s(b, v->position, 3);
        mcb_f32s(b, v->color, 3);
        mcb_f32s(b, v->normal, 3);
        mcb_f32s(b, v->uv, 2);
        for (int j = 0; j < 4; j++) mcb_i32(b, v->bone[j]);
        mcb_f32s(b, v->weight, 4);
    }
    for (uint32_t k = 0; k < mesh->index_count; k++) mcb_u32(b, mesh->indices[k]);
    mcb_u32(b, mesh->texture_size);
    if (mesh->texture_size) mcb_bytes(b, mesh->texture, mesh->texture_size);
}

static void write_animation(mcb_buf *b, const nlmb_model *m)
{
    mcb_f32(b, m->duration);
    mcb_i32(b, m->ticks_per_second);
    mcb_u32(b, m->bone_info_count);
    for (uint32_t i = 0; i < m->bone_info_count; i++) {
        mcb_i32(b, m->bone_infos[i].node_id);
        mcb_f32s(b, m->bone_infos[i].offset, 16);
        mcb_i32(b, m->bone_infos[i].slot);
    }
    mcb_u32(b, m->channel_count);
    for (uint32_t i = 0; i < m->channel_count; i++) {
        const nlmb_channel *ch = &m->channels[i];
        mcb_i32(b, ch->node_id);
        mcb_i32(b, ch->bone_id);
        for (int k = 0; k < NLMB_KEY_KINDS; k++) mcb_u32(b, ch->count[k]);
        for (int k = 0; k < NLMB_KEY_KINDS; k++)
            for (uint32_t t = 0; t < ch->count[k]; t++) {
                mcb_f32(b, ch->keys[k][t].time);
                mcb_f32s(b, ch->keys[k][t].v, k == NLMB_ROTATION ? 4 : 3);
            }
    }
    mcb_u32(b, m->node_count);
    for (uint32_t i = 0; i < m->node_count; i++) {
        const nlmb_node *n = &m->nodes[i];
        mcb_i32(b, n->id);
        mcb_f32s(b, n->transform, 16);
        mcb_u32(b, n->child_count);
        for (uint32_t j = 0; j < n->child_count; j++) mcb_i32(b, n->children[j]);
    }
}

void nlmb_write(const nlmb_model *m, mcb_buf *out)
{
    if (!m->hashless) mcb_u32(out, m->hash);
    mcb_bytes(out, m->magic, 4);
    mcb_u32(out, m->version);
    mcb_u32(out, m->animated);
    mcb_f32s(out, m->aabb_min, 3);
    mcb_f32s(out, m->aabb_max, 3);
    mcb_u32(out, m->mesh_count);
    for (uint32_t i = 0; i < m->mesh_count; i++) write_mesh(out, &m->meshes[i]);
    if (m->write_animation) write_animation(out, m);
}

void nlmb_move_slot(nlmb_model *m, int32_t from, int32_t to)
{
    for (uint32_t i = 0; i < m->bone_info_count; i++)
        if (m->bone_infos[i].slot == from) m->bone_infos[i].slot = to;
    for (uint32_t i = 0; i < m->channel_count; i++)
        if (m->channels[i].bone_id == from) m->channels[i].bone_id = to;
    for (uint32_t v = 0; m->mesh_count && v < m->meshes[0].vertex_count; v++)
        for (int j = 0; j < 4; j++)
            if (m->meshes[0].vertices[v].bone[j] == from) m->meshes[0].vertices[v].bone[j] = to;
}

void nlmb_write_huge_vertex_count(mcb_buf *b)
{
    uint8_t bytes[100] = {0xc5, 0x9d, 0x1c, 0x81, 'L', 'D', 'O', 'M', 2};
    bytes[40] = 1;    /* one mesh */
    bytes[47] = 0x80; /* of 2^31 vertices */
    mcb_bytes(b, bytes, sizeof bytes);
}
