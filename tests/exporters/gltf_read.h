/*
 * A small glTF 2.0 reader for the toy exporters of the certification tests:
 * exactly what the bundled scenes use (.gltf with a data: URI or external
 * buffer, .glb; float, u8, u16 and u32 accessors, no sparse, no strides).
 * Not part of modelcheck: a stand-in for what a real exporter reads.
 */
#ifndef GLTF_READ_H
#define GLTF_READ_H

#include <stdint.h>

#include "mc_scene.h" /* matrices and sampling: not what is being tested */

typedef struct gr_prim {
    int mode, material;
    uint32_t vertex_count;
    float *pos, *nrm, *tan, *uv; /* NULL when absent */
    float *color;                /* COLOR_0 as float RGBA (what the scenes write), NULL when absent */
    int influences;              /* 0, 4, 8 */
    uint32_t *joints;            /* skin joint slots */
    float *weights;
    uint32_t index_count;        /* the triangle/line list: indices, or 0..n-1 when not indexed */
    uint32_t *indices;
} gr_prim;

typedef struct gr_mesh {
    gr_prim *prims;
    uint32_t prim_count;
} gr_mesh;

typedef struct gr_node {
    char *name;
    int parent, mesh, skin;
    float local[16];             /* column-major */
    float t[3], r[4], s[3];
} gr_node;

typedef struct gr_skin {
    uint32_t joint_count;
    int *joints;
    float *ibm;                  /* 16 per joint */
} gr_skin;


typedef struct gr_anim {
    char *name;
    mcs_channel *channels;
    uint32_t channel_count;
    float duration;
} gr_anim;

typedef struct gr_material {
    int texture;                 /* image index, -1 */
} gr_material;

typedef struct gr_scene {
    gr_node *nodes;
    uint32_t node_count;
    gr_mesh *meshes;
    uint32_t mesh_count;
    gr_skin *skins;
    uint32_t skin_count;
    gr_anim *anims;
    uint32_t anim_count;
    gr_material *materials;
    uint32_t material_count;
    char **images;               /* uri of each image ("" for embedded) */
    uint32_t image_count;
    uint32_t *image_size;        /* width, height per image from its PNG header; 0 0 when unknown */
} gr_scene;

/* 0, or -1 with a message on stderr. */
int gr_load(const char *path, gr_scene *out);
void gr_free(gr_scene *s);

/* World matrix of node i at rest, or at animation a, time t (a < 0: rest). */
void gr_world(const gr_scene *s, int a, float t, uint32_t i, float out[16]);
/* Local TRS of node i at animation a, time t. */
void gr_local_trs(const gr_scene *s, int a, float t, uint32_t i, float tr[3], float r[4], float sc[3]);

#endif
