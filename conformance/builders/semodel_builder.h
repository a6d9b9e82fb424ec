/*
 * Builds SEModel files (semodel.md, docs/formats/semodel.md) in either layout
 * from an in-memory description. Used by the unit tests and the conformance
 * corpus generator: start from semb_sample(), change what a case needs, write
 * with semb_write(), which also records where each element landed (the *_at
 * fields) for tests asserting offsets.
 *
 * Header counts and flags are written as given; the element arrays (nbones,
 * nmeshes, nmaterials records) are written as they are, so a case can make
 * the two disagree. bone_t and face_t/mat_t widths follow the header counts
 * and each mesh's vertex_count, as a reader computes them.
 */
#ifndef SEMODEL_BUILDER_H
#define SEMODEL_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "mcb_buf.h"

enum semb_layout { SEMB_2018, SEMB_DRAFT };

/* dataPresenceFlags of each layout */
enum {
    SEMB_BONE = 1, SEMB_MESH = 2,
    SEMB_MATERIALS_2018 = 4, SEMB_CUSTOM_2018 = 0x80,
    SEMB_COLLISION_DRAFT = 4, SEMB_MATERIALS_DRAFT = 8
};
enum { SEMB_GLOBAL = 1, SEMB_LOCAL = 2, SEMB_SCALES = 4 };
enum { SEMB_UVSET = 1, SEMB_NORMALS = 2, SEMB_COLOR = 4, SEMB_WEIGHTS = 8 };

#define SEMB_NAME_MAX 320 /* room for the 300-byte names of the exporter scenes */

typedef struct semb_bone {
    char name[SEMB_NAME_MAX]; /* written up to its NUL */
    uint8_t flags;
    int32_t parent;
    float global_position[3], global_rotation[4];
    float local_position[3], local_rotation[4];
    float scale[3];
    uint64_t name_at, at; /* set by semb_write */
} semb_bone;

typedef struct semb_mesh {
    uint8_t flags;
    uint8_t layers;     /* 2018 matReferenceCount / draft uvSetCount (written as is) */
    uint8_t influences; /* 2018 maxSkinInfluence (written as is); weight slots per vertex */
    uint32_t vertex_count, face_count; /* written as is */
    /* arrays, allocated for the counts semb_add_mesh was given */
    uint32_t nvertices, nfaces, nlayers, nslots;
    float (*position)[3];
    float *uv;            /* [vertex][layer][2] */
    uint32_t *uv_material;/* draft: [vertex][layer] mat_t */
    float (*normal)[3];
    uint8_t (*color)[4];
    uint32_t *bone;       /* [vertex][slot] */
    float *weight;        /* [vertex][slot] */
    uint32_t (*face)[3];
    int32_t *material;    /* 2018: [layer] */
    uint8_t face_width;   /* face_t bytes written; 0: by vertex_count, as a reader computes it */
    /* set by semb_write (2018: array starts; draft: vertices_at and faces_at) */
    uint64_t at, positions_at, uvs_at, normals_at, colors_at, weights_at, faces_at,
        materials_at, vertices_at;
} semb_mesh;

typedef struct semb_material {
    char name[SEMB_NAME_MAX];
    uint8_t simple;
    char map[3][SEMB_NAME_MAX]; /* diffuse, normal, specular (when simple) */
    uint64_t at;
} semb_material;

typedef struct semb_model {
    enum semb_layout layout;
    char magic[7];
    uint16_t version, header_size;
    uint8_t model_type;   /* draft */
    uint16_t model_flags; /* draft */
    uint8_t data_flags, bone_flags, mesh_flags;
    uint8_t reserved[5];  /* 2018: 3 bytes; draft: reserved1[2], reserved2[3] */
    uint32_t bone_count, mesh_count, col_count, mat_count; /* header, written as is */
    uint8_t max_influence; /* draft header */
    uint8_t bone_width, mat_width; /* bone_t / mat_t bytes written; 0: by the header counts */
    uint32_t nbones, nmeshes, nmaterials; /* records written (may be lowered by a case) */
    uint32_t meshes_allocated;            /* owned by the builder */
    semb_bone *bones;
    semb_mesh *meshes;
    semb_material *materials;
    uint8_t *tail; /* appended after the last block */
    size_t tail_size;
    uint64_t bones_at, meshes_at, materials_at, tail_at, end_at; /* set by semb_write */
} semb_model;

enum semb_sample_kind {
    SEMB_STATIC,   /* 1 mesh (4 vertices, 2 faces, normals, colors); 2018: 1 UV layer + 1 material */
    SEMB_SKINNED,  /* 3 bones (global, local, scales), 1 mesh of 8 vertices, 2 weights each */
    SEMB_UV_LAYERS /* 2 meshes with 3 UV layers each, 3 materials (draft: mat_t per vertex) */
};

/* A valid model of the layout; NULL when out of memory. */
semb_model *semb_sample(enum semb_sample_kind kind, enum semb_layout layout);
/* An empty model: magic, version 1, the layout's headerSize. */
semb_model *semb_new(enum semb_layout layout);
void semb_free(semb_model *m);

/* Sets n bones named "bone<i>", a chain (bone i's parent is i - 1), identity
 * transforms; boneCount = n and the BONE flag follow. 0 on success. */
int semb_set_bones(semb_model *m, uint32_t n);
/* Appends a valid mesh of the given shape (faces cycle through the
 * vertices, weights on bone 0, material refs 0); meshCount and MESH follow.
 * Returns the mesh or NULL. */
semb_mesh *semb_add_mesh(semb_model *m, uint32_t vertices, uint32_t faces, uint8_t layers,
                         uint8_t influences);
/* Sets n materials "mat<i>", simple, with three maps; matCount and the
 * MATERIALS flag of the layout follow. 0 on success. */
int semb_set_materials(semb_model *m, uint32_t n);
/* Copies bytes to append after the last block. 0 on success. */
int semb_set_tail(semb_model *m, const void *p, size_t n);

/* One blend-shape delta of Greyhound's SEBlend block. */
typedef struct semb_delta {
    uint32_t vertex; /* counted over the meshes in file order */
    uint32_t shape;
    float d[3];
} semb_delta;

/* Sets the tail to an SEBlend block as the Wraith/Greyhound writer lays it
 * out (docs/formats/semodel.md): "SEBlend\n", u64 count, names_size bytes of
 * NUL-terminated names, then for every vertex of every mesh (the meshes'
 * vertex_count, in file order) a u32 delta count and its (u32 shape,
 * float x, y, z) records. deltas are sorted by vertex. 0 on success. */
int semb_set_seblend(semb_model *m, uint64_t count, const char *names, size_t names_size,
                     const semb_delta *deltas, size_t ndeltas);

/* The writer's layout on the 4 vertices of the static sample (the corpus's
 * seblend_greyhound case): 2 shapes "smile", "blink", then per vertex a
 * delta count and its records: v0 1 delta, v1 2, v2 none, v3 1. Offsets in
 * the tail: names at 16, v0's count at 28, its record at 32 (x at 36), v1's
 * count at 48, v2's at 84, v3's at 88, its record at 92; 108 bytes in all.
 * 0 on success, -1 when the model has not 4 vertices in all. */
int semb_set_seblend_sample(semb_model *m);
/* Overwrites the u32 at tail offset at (the bytes of it inside the tail). */
void semb_tail_u32(semb_model *m, size_t at, uint32_t v);

/* Appends the file and records the offsets. */
void semb_write(semb_model *m, mcb_buf *out);

/* IEEE 754 binary16 nearest to f (ties to even; NaN stays NaN). */
uint16_t semb_half(float f);

/* Draft: bytes per vertex record, and the offset of a field of vertex v of
 * mesh k in the written file. */
enum semb_draft_field { SEMB_F_POSITION, SEMB_F_UV, SEMB_F_MAT, SEMB_F_NORMAL, SEMB_F_COLOR,
                        SEMB_F_BONES, SEMB_F_WEIGHTS };
uint64_t semb_draft_vertex_size(const semb_model *m, const semb_mesh *mesh);
uint64_t semb_draft_at(const semb_model *m, uint32_t k, uint32_t v, enum semb_draft_field f);

/* bone_t / face_t width for a count (1, 2 or 4 bytes). */
unsigned semb_index_width(uint64_t count);

#endif
