/*
 * Builds AAMF/SAMF files (aamf.md of github.com/kiwanowski/UnnamedHB1) from
 * an in-memory description, in either variant: skinned SAMF v2 (unified mesh)
 * or legacy AAMF (one embedded AMF mesh per bone). Used by the unit tests and
 * the corpus generator: start from aamfb_sample(), change what a case needs,
 * write with aamfb_write(). Array lengths are the header counts; block sizes
 * are computed, with per-block deltas and extra bytes for cases that break
 * them.
 */
#ifndef AAMF_BUILDER_H
#define AAMF_BUILDER_H

#include <stdint.h>

#include "mcb_buf.h"

/* 4.12 fixed point: 1.0 is 4096. */
#define AAMFB_ONE 4096

typedef struct aamfb_matrix {
    int16_t m[9]; /* row-major 3x3 rotation, 4.12 */
    int16_t pad;
    int32_t t[3]; /* translation, 4.12 */
} aamfb_matrix;

typedef struct aamfb_svector {
    int16_t x, y, z, pad;
} aamfb_svector;

typedef struct aamfb_skin {
    uint8_t bone[4];
    uint8_t weight[4];
} aamfb_skin;

/* One AMF chunk: primitive counts F4, G4, FT4, GT4, F3, G3, FT3, GT3 (the
 * records are written as zero bytes of the spec sizes, but for the texture
 * index of the textured kinds), 8 pointer slots. */
typedef struct aamfb_chunk {
    uint16_t count[8];
    uint32_t pointer[8];
    uint32_t texture; /* the texture index of every textured record */
} aamfb_chunk;

/* The embedded AMF of a legacy bone block. texture_count names and
 * chunk_count chunk-table entries and chunks are written, whatever
 * used_textures and x * z say. */
typedef struct aamfb_amf {
    uint32_t used_textures; /* as written, bit 31 included */
    uint16_t x, z;
    int32_t bounds[4]; /* minX, minZ, maxX, maxZ */
    uint32_t texture_count;
    char (*textures)[8];
    uint32_t chunk_count;
    aamfb_chunk *chunks;
    uint32_t extra; /* zero bytes appended inside the block */
} aamfb_amf;

typedef struct aamfb_bone {
    uint16_t index, parent; /* bone table row */
    aamfb_matrix bind;      /* SAMF bind pose */
    aamfb_amf amf;          /* legacy bone block */
    int32_t size_delta;     /* added to the written block_size (legacy) */
} aamfb_bone;

typedef struct aamfb_anim {
    char name[8];
    uint32_t keyframe_count;
    uint32_t keyframe_pointer;
    uint32_t key_count;  /* matrices written: bone_count * keyframe_count by default */
    aamfb_matrix *keys;  /* bone-major, as the runtime reads: keyframe f of bone b at b * keyframe_count + f */
    uint32_t extra;      /* zero bytes appended inside the block */
    int32_t size_delta;  /* added to the written block_size */
} aamfb_anim;

typedef struct aamfb_model {
    int legacy;      /* 1: legacy AAMF, 0: SAMF v2 */
    char magic[4];   /* SAMF only */
    uint16_t version;
    uint16_t bone_count, anim_count, face_count;
    uint32_t vertex_count;
    aamfb_bone *bones;
    aamfb_svector *positions, *normals;
    aamfb_skin *skin;
    uint16_t (*faces)[3];
    aamfb_anim *anims;
} aamfb_model;

enum aamfb_sample_kind {
    AAMFB_ONE_BONE,   /* 1 bone, 4 vertices, 2 faces, 1 animation of 2 keyframes */
    AAMFB_32_BONES,   /* 32 bones (a tree), 64 vertices, 3 animations */
    AAMFB_ODD_FACES   /* AAMFB_ONE_BONE with 3 faces (legacy: 3 F3 primitives) */
};

/* A valid model of the kind; legacy selects the variant; NULL when out of
 * memory. */
aamfb_model *aamfb_sample(enum aamfb_sample_kind kind, int legacy);
void aamfb_free(aamfb_model *m);

/* Resizes the vertex arrays to n, filling new vertices validly; 0 on
 * success. */
int aamfb_resize_vertices(aamfb_model *m, uint32_t n);
/* Resizes the bone table to n bones (new ones valid: a binary tree, a
 * rotation bind pose, a one-chunk AMF) and every animation's matrices to
 * keyframe_count * n; 0 on success. */
int aamfb_resize_bones(aamfb_model *m, uint16_t n);
/* Resizes the animation's matrices to n (new ones identity); 0 on success. */
int aamfb_resize_keys(aamfb_anim *a, uint32_t n);

/* A 4.12 rotation about X, then Y, then Z by the angles in radians, rounded;
 * translation t. */
aamfb_matrix aamfb_rotation(double ax, double ay, double az, int32_t tx, int32_t ty, int32_t tz);

void aamfb_write(const aamfb_model *m, mcb_buf *out);

enum aamfb_section {
    AAMFB_BONE_TABLE, /* row i */
    AAMFB_BIND_POSES, /* SAMF: matrix i */
    AAMFB_POSITIONS,  /* SAMF: vertex i */
    AAMFB_NORMALS,
    AAMFB_SKIN,
    AAMFB_FACES,       /* SAMF: face i */
    AAMFB_BONE_BLOCKS, /* legacy: the block_size field of bone block i */
    AAMFB_ANIMS,       /* the block_size field of animation block i */
    AAMFB_END          /* the file size */
};

/* Byte offset of element i of a section in the written file. */
uint64_t aamfb_offset(const aamfb_model *m, enum aamfb_section s, uint64_t i);
/* Written block sizes (with deltas). */
uint32_t aamfb_bone_block_size(const aamfb_model *m, uint32_t bone);
uint32_t aamfb_anim_block_size(const aamfb_model *m, uint32_t anim);

/* Offsets inside an embedded AMF, from the bone block's block_size field. */
uint64_t aamfb_amf_chunk_offset(const aamfb_amf *a, uint32_t chunk);

/* A whole legacy file whose 2 bone blocks hold 16 bytes of an older AMF
 * layout (no room for the current 24-byte AMF header), then 1 animation
 * "idle" of 1 keyframe of identity matrices. The first AMF starts at
 * offset 16. */
void aamfb_write_older_amf(mcb_buf *b);

#endif
