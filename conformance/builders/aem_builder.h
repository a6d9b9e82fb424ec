/*
 * Builds AEM files (aem.md of github.com/janhsimon/aem) from an in-memory
 * description. Used by the unit tests and the conformance corpus generator:
 * start from aemb_sample(), change what a case needs, write with
 * aemb_write().
 */
#ifndef AEM_BUILDER_H
#define AEM_BUILDER_H

#include <stdint.h>

#include "mcb_buf.h"

typedef struct aemb_vertex {
    float position[3], normal[3], tangent[3], bitangent[3], uv[2];
    int32_t bone[4];
    float weight[4];
    int32_t extra_bone;
} aemb_vertex;

typedef struct aemb_mesh {
    uint32_t first_index, index_count, material;
} aemb_mesh;

typedef struct aemb_material {
    int32_t texture[3]; /* base color, normal, ORM */
} aemb_material;

typedef struct aemb_bone {
    float inverse_bind[16]; /* column-major */
    int32_t parent;
    uint8_t padding[12];
} aemb_bone;

typedef struct aemb_animation {
    char name[128];
    float duration;
    uint32_t sequence_index;
} aemb_animation;

typedef struct aemb_sequence {
    uint32_t first[3], count[3]; /* position, rotation, scale */
} aemb_sequence;

typedef struct aemb_key {
    float time, x, y, z, w;
} aemb_key;

enum aemb_section {
    AEMB_VERTICES, AEMB_INDICES, AEMB_TEXTURES, AEMB_MESHES, AEMB_MATERIALS,
    AEMB_BONES, AEMB_ANIMATIONS, AEMB_SEQUENCES, AEMB_KEYFRAMES, AEMB_SECTIONS
};

typedef struct aemb_model {
    char magic[3];
    uint8_t version;
    uint32_t count[AEMB_SECTIONS];
    aemb_vertex *vertices;
    uint32_t *indices;
    char (*textures)[128];
    aemb_mesh *meshes;
    aemb_material *materials;
    aemb_bone *bones;
    aemb_animation *animations;
    aemb_sequence *sequences;
    aemb_key *keys;
} aemb_model;

enum aemb_sample_kind {
    AEMB_SKINNED_ANIMATED, /* 8 vertices, 2 meshes, 2 textures, 3 bones, 1 animation */
    AEMB_STATIC            /* no bones: vertices carry the exporter's -1 / 0 skin */
};

/* A valid model; NULL when out of memory. */
aemb_model *aemb_sample(enum aemb_sample_kind kind);
/* Resizes a section to n records (new records zeroed); 0 on success. */
int aemb_resize(aemb_model *m, enum aemb_section s, uint32_t n);
void aemb_free(aemb_model *m);

/* Appends the file; header counts come from m->count. */
void aemb_write(const aemb_model *m, mcb_buf *out);

/* Byte offset of record i of a section in the written file. */
uint64_t aemb_offset(const aemb_model *m, enum aemb_section s, uint64_t i);

/* Record sizes from the spec, for tests computing field offsets. */
extern const uint32_t aemb_record_size[AEMB_SECTIONS];

#endif
