/*
 * Builds AEM files in the current upstream layout (layout name "2025",
 * docs/formats/aem2025.md) from an in-memory description. Used by the unit
 * tests, the conformance corpus generator and the toy exporter: start from
 * aem2025b_sample() (or aem2025b_new() for an empty model), change what a
 * case needs, write with aem2025b_write(). The writer writes what the model
 * holds, valid or not, so a case breaks a single field by setting it;
 * header lies are patched into the written bytes (aem2025b_count_offset,
 * aem2025b_put_u64).
 *
 * File order: 52-byte header (magic, version, u32 vertex and index counts,
 * u64 image buffer size, u32 texture, mesh, material, joint, animation,
 * track and keyframe counts, u32 padding), then the sections in the order
 * of enum aem2025b_section.
 */
#ifndef AEM2025_BUILDER_H
#define AEM2025_BUILDER_H

#include <stdint.h>

#include "mcb_buf.h"

#define AEM2025B_HEADER_SIZE 52u
#define AEM2025B_PADDING_OFFSET 48u
#define AEM2025B_NAME_SIZE 128u

typedef struct aem2025b_vertex {
    float position[3], normal[3], tangent[3], bitangent[3], uv[2];
    int32_t joint[4]; /* -1: unused slot */
    float weight[4];
} aem2025b_vertex;

enum { AEM2025B_UNCOMPRESSED = 0, AEM2025B_BC5 = 1, AEM2025B_BC7 = 2 };
enum { AEM2025B_REPEAT = 0, AEM2025B_MIRRORED_REPEAT = 1, AEM2025B_CLAMP = 2 };

typedef struct aem2025b_texture {
    uint64_t offset; /* into the image buffer: the first MIP level */
    uint32_t width, height;
    uint32_t wrap[2]; /* x, y */
    uint32_t channels, compression;
} aem2025b_texture;

typedef struct aem2025b_mesh {
    uint32_t first_index, index_count, material;
} aem2025b_mesh;

enum { AEM2025B_OPAQUE = 0, AEM2025B_TRANSPARENT = 1 };

typedef struct aem2025b_material {
    uint32_t texture[3]; /* base colour, normal, PBR */
    uint32_t type;
} aem2025b_material;

typedef struct aem2025b_joint {
    char name[AEM2025B_NAME_SIZE]; /* written as all 128 bytes */
    float inverse_bind[16];        /* column-major */
    int32_t parent;                /* -1: root */
} aem2025b_joint;

typedef struct aem2025b_animation {
    char name[AEM2025B_NAME_SIZE];
    float duration; /* seconds */
} aem2025b_animation;

typedef struct aem2025b_track {
    uint32_t first_keyframe;
    uint32_t count[3]; /* translation, rotation, scale keys, contiguous */
} aem2025b_track;

typedef struct aem2025b_key {
    float time, x, y, z, w;
} aem2025b_key;

/* Sections in file order. AEM2025B_IMAGE is the image buffer: its "records"
 * are bytes and its count is the header's u64 image buffer size. */
enum aem2025b_section {
    AEM2025B_VERTICES, AEM2025B_INDICES, AEM2025B_IMAGE, AEM2025B_TEXTURES, AEM2025B_MESHES,
    AEM2025B_MATERIALS, AEM2025B_JOINTS, AEM2025B_ANIMATIONS, AEM2025B_TRACKS,
    AEM2025B_KEYFRAMES, AEM2025B_SECTIONS
};

typedef struct aem2025b_model {
    char magic[3];
    uint8_t version;
    uint32_t header_padding; /* written at offset 48; 0 in a valid file */
    /* Records per section; all but AEM2025B_IMAGE are at most UINT32_MAX. */
    uint64_t count[AEM2025B_SECTIONS];
    aem2025b_vertex *vertices;
    uint32_t *indices;
    uint8_t *image;
    aem2025b_texture *textures;
    aem2025b_mesh *meshes;
    aem2025b_material *materials;
    aem2025b_joint *joints;
    aem2025b_animation *animations;
    aem2025b_track *tracks;
    aem2025b_key *keys;
} aem2025b_model;

enum aem2025b_sample_kind {
    /* 8 vertices (two quads, skinned to 2 joints each, unused slots -1),
     * 12 indices, 2 meshes, 2 materials (opaque, transparent), 5 textures
     * (2x2 RGBA with its MIP chain, 1x1 ones) in a 32-byte image buffer,
     * 3 joints in a chain (root first), 2 animations ("wave": 2 keys per
     * channel over 1 s; "idle": 1 rest key per channel, 0.5 s), 6 tracks,
     * 27 keyframes. */
    AEM2025B_SKINNED_ANIMATED,
    /* the same geometry and materials; no joints or animations: every
     * vertex carries joints -1 x4 and weights 0, as the converter writes */
    AEM2025B_STATIC
};

/* A valid model; NULL when out of memory. */
aem2025b_model *aem2025b_sample(enum aem2025b_sample_kind kind);
/* An empty model (magic "AEM", version 1, every count 0); NULL when out of
 * memory. */
aem2025b_model *aem2025b_new(void);
/* Resizes a section to n records (new records zeroed); 0 on success, -1 when
 * out of memory or n does not fit the section's header field. */
int aem2025b_resize(aem2025b_model *m, enum aem2025b_section s, uint64_t n);
void aem2025b_free(aem2025b_model *m);

/* Size in bytes of one MIP chain (width x height down to 1x1, each level
 * half the previous, floor, at least 1; uncompressed levels hold
 * w*h*channels bytes, BC5 and BC7 levels 16 bytes per 4x4 block). 0 on
 * success; -1 on overflow, an unknown compression or a zero dimension. */
int aem2025b_mip_chain_size(uint32_t width, uint32_t height, uint32_t channels,
                            uint32_t compression, uint64_t *size);

/* Appends `size` bytes to the image buffer and a texture record `t` whose
 * offset is set to where they start; stores the texture's index in *index
 * (may be NULL). The bytes are taken as they are (a case may pass a chain
 * of the wrong size). 0 on success. */
int aem2025b_add_texture(aem2025b_model *m, aem2025b_texture t, const void *data, uint64_t size,
                         uint32_t *index);

/* Appends an uncompressed texture from its first level (width*height*
 * channels bytes, row-major): the rest of the MIP chain is computed by
 * averaging each level's 2x2 (or fewer, at an odd edge) texels. 0 on
 * success. */
int aem2025b_add_image(aem2025b_model *m, uint32_t width, uint32_t height, uint32_t channels,
                       const uint32_t wrap[2], const uint8_t *level0, uint32_t *index);

/* Appends the file; header counts come from m->count. */
void aem2025b_write(const aem2025b_model *m, mcb_buf *out);

/* Byte offset of record i of a section in the written file (byte i for
 * AEM2025B_IMAGE); s = AEM2025B_SECTIONS gives the file's size. */
uint64_t aem2025b_offset(const aem2025b_model *m, enum aem2025b_section s, uint64_t i);

/* Record sizes from the spec (1 for the image buffer) and the header offset
 * of each section's count (the image buffer's is a u64). */
extern const uint32_t aem2025b_record_size[AEM2025B_SECTIONS];
extern const uint32_t aem2025b_count_offset[AEM2025B_SECTIONS];

/* Overwrites 8 bytes at off (must lie inside the buffer), little-endian. */
void aem2025b_put_u64(mcb_buf *b, size_t off, uint64_t v);

#endif
