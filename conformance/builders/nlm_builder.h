/*
 * Builds NLM files (nlm.md as corrected by docs/formats/nlm.md: 16-byte header,
 * magic bytes 'LDOM', rotation keys x, y, z, w) from an in-memory
 * description. Used by the unit tests and the corpus generator: start from
 * nlmb_sample(), change what a case needs, write with nlmb_write(). Counts
 * are written from the description, so a case that needs a lying count
 * patches the written bytes (nlmb offsets say where).
 */
#ifndef NLM_BUILDER_H
#define NLM_BUILDER_H

#include <stdint.h>

#include "mcb_buf.h"

typedef struct nlmb_vertex {
    float position[3], color[3], normal[3], uv[2];
    int32_t bone[4];
    float weight[4];
} nlmb_vertex;

typedef struct nlmb_mesh {
    uint32_t vertex_count, index_count, texture_size;
    nlmb_vertex *vertices;
    uint32_t *indices;
    uint8_t *texture;
} nlmb_mesh;

typedef struct nlmb_bone_info {
    int32_t node_id;
    float offset[16]; /* column-major */
    int32_t slot;     /* the bone info ID */
} nlmb_bone_info;

/* Position and scale keys use v[0..2]; rotation keys are x, y, z, w. */
typedef struct nlmb_key {
    float time, v[4];
} nlmb_key;

enum { NLMB_POSITION, NLMB_ROTATION, NLMB_SCALE, NLMB_KEY_KINDS };

typedef struct nlmb_channel {
    int32_t node_id, bone_id;
    uint32_t count[NLMB_KEY_KINDS];
    nlmb_key *keys[NLMB_KEY_KINDS];
} nlmb_channel;

typedef struct nlmb_node {
    int32_t id;
    float transform[16]; /* column-major */
    uint32_t child_count;
    int32_t *children;
} nlmb_node;

typedef struct nlmb_model {
    int hashless;     /* write the older layout: magic first, no hash */
    uint32_t hash;
    uint8_t magic[4]; /* 'L','D','O','M' */
    uint32_t version;
    uint32_t animated; /* the header flag, written as is */
    int write_animation; /* write the animation section (default: animated == 1) */
    float aabb_min[3], aabb_max[3];
    uint32_t mesh_count;
    nlmb_mesh *meshes;
    float duration;
    int32_t ticks_per_second;
    uint32_t bone_info_count;
    nlmb_bone_info *bone_infos;
    uint32_t channel_count;
    nlmb_channel *channels;
    uint32_t node_count;
    nlmb_node *nodes;
} nlmb_model;

enum nlmb_sample_kind {
    NLMB_STATIC_TEXTURED, /* one quad mesh with an embedded PNG, no animation */
    NLMB_STATIC_TWO_MESHES, /* a quad and a triangle, no texture, no animation */
    NLMB_SKINNED_ANIMATED /* one skinned mesh, 3 bones, 4 nodes in 3 levels */
};

/* A valid model; NULL when out of memory. */
nlmb_model *nlmb_sample(enum nlmb_sample_kind kind);
void nlmb_free(nlmb_model *m);

/* Resizers: new elements are zeroed (new nodes get an identity transform
 * and ID = index); 0 on success. */
int nlmb_resize_meshes(nlmb_model *m, uint32_t n);
int nlmb_resize_mesh(nlmb_mesh *mesh, uint32_t vertices, uint32_t indices);
int nlmb_set_texture(nlmb_mesh *mesh, const void *bytes, uint32_t size);
int nlmb_resize_bone_infos(nlmb_model *m, uint32_t n);
int nlmb_resize_channels(nlmb_model *m, uint32_t n);
int nlmb_resize_keys(nlmb_channel *ch, int kind, uint32_t n);
int nlmb_resize_nodes(nlmb_model *m, uint32_t n);
int nlmb_set_children(nlmb_node *node, const int32_t *children, uint32_t n);

/* Appends the file. */
void nlmb_write(const nlmb_model *m, mcb_buf *out);

/* Moves skinning slot `from` to `to` everywhere it is named: bone infos,
 * channels and the vertices of mesh 0. */
void nlmb_move_slot(nlmb_model *m, int32_t from, int32_t to);

/* A whole 100-byte file whose one mesh claims 2^31 vertices (the loader
 * would allocate 163 GB); its hash is the FNV basis (c5 9d 1c 81). */
void nlmb_write_huge_vertex_count(mcb_buf *b);

/* Byte offsets in the written file. */
uint64_t nlmb_mesh_offset(const nlmb_model *m, uint32_t mesh);            /* mesh header */
uint64_t nlmb_vertex_offset(const nlmb_model *m, uint32_t mesh, uint64_t v);
uint64_t nlmb_index_offset(const nlmb_model *m, uint32_t mesh, uint64_t k);
uint64_t nlmb_texture_offset(const nlmb_model *m, uint32_t mesh);         /* the size field */
uint64_t nlmb_animation_offset(const nlmb_model *m);                      /* duration */
uint64_t nlmb_bone_info_offset(const nlmb_model *m, uint32_t i);
uint64_t nlmb_channel_offset(const nlmb_model *m, uint32_t i);
uint64_t nlmb_key_offset(const nlmb_model *m, uint32_t channel, int kind, uint64_t k);
uint64_t nlmb_node_count_offset(const nlmb_model *m);
uint64_t nlmb_node_offset(const nlmb_model *m, uint32_t i);
uint64_t nlmb_child_offset(const nlmb_model *m, uint32_t node, uint32_t j);
uint64_t nlmb_size(const nlmb_model *m);

/* The record sizes of the format. */
enum { NLMB_VERTEX_SIZE = 76, NLMB_BONE_INFO_SIZE = 72, NLMB_CHANNEL_HEADER_SIZE = 20,
       NLMB_NODE_HEADER_SIZE = 72 };

/* A minimal valid PNG start (signature + IHDR of a 1x1 image), 33 bytes. */
extern const uint8_t nlmb_tiny_png[33];

#endif
