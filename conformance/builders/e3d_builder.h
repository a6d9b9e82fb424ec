/*
 * Builds E3D files (e3d.adoc of github.com/ecere/E3D-spec) for tests and the
 * corpus.
 *
 * A block writer: e3db_begin() opens a block and e3db_end() fixes its
 * length, so any tree (valid or not) can be written by hand; every writer
 * returns the offset of the block header it wrote. e3db_lzma_wrap() turns
 * the bytes written since an offset into one LZMA block with the LZMA SDK
 * encoder (docs/formats/e3d.md: u32 size, 5 property bytes, raw stream). e3db_cube()
 * writes complete models built on the spec's cube.
 */
#ifndef E3D_BUILDER_H
#define E3D_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcb_buf.h"

typedef struct e3db {
    mcb_buf b;
    size_t *open; /* header offsets of the open blocks */
    size_t depth, cap;
} e3db;

#define E3DB_FAIL ((size_t)-1)

size_t e3db_begin(e3db *w, uint16_t type);
/* Closes the innermost open block: its length becomes what was written. */
void e3db_end(e3db *w);
size_t e3db_leaf(e3db *w, uint16_t type, const void *payload, size_t n);
size_t e3db_u32(e3db *w, uint16_t type, uint32_t v);
size_t e3db_floats(e3db *w, uint16_t type, const float *v, size_t n);
size_t e3db_doubles(e3db *w, uint16_t type, const double *v, size_t n);
/* u16 length + bytes, no NUL (docs/formats/e3d.md) */
size_t e3db_string(e3db *w, uint16_t type, const char *s);
/* 01 00 | 0C 00 00 00 | E3DF | 00 01 */
size_t e3db_version(e3db *w);
/* A header with an arbitrary length field (for broken files). */
size_t e3db_raw_header(e3db *w, uint16_t type, uint32_t length);
/* Closes every open block. */
void e3db_close(e3db *w);
void e3db_free(e3db *w);

/* Small trees the tests and the corpus share, left open for more children:
 * tri: version 0, meshes 12, mesh 18, meshID 1 at 24, attributes 34 (3
 * vertices at 50), triFaces16 86 (one triangle); the mesh's next child at 102.
 * attrs: version 0, meshes 12, mesh 18, meshID 1 at 24, attributes 34 with
 * `count` at 40; its first child at 44.
 * track: nodes 12 / meshNode 18 / nodeID 1 (24..34); animations 34,
 * animation 40, animationTrack 46 with `keys` frames 0, 1, ... and loop flag
 * 0; its first child at 57 + 4 * keys. */
void e3db_tri_begin(e3db *w);
void e3db_attrs_begin(e3db *w, uint32_t count);
void e3db_track_begin(e3db *w, uint32_t keys);

typedef struct e3db_lzma {
    unsigned lc, lp, pb;
    uint32_t dict;   /* announced dictionary size */
    bool end_mark;   /* the reference writer writes none */
} e3db_lzma;

/* lc=4, lp=4, pb=4, 2^26 dictionary: what the reference writer uses. */
extern const e3db_lzma e3db_lzma_reference;

/* Appends 5 property bytes and the raw stream of n bytes; 0 on success.
 * The encoder's window is reduced to the input (the SDK's reduceSize),
 * which does not change the stream's validity; the properties announce
 * p->dict as the reference writer does. */
int e3db_lzma_encode(const void *in, size_t n, const e3db_lzma *p, mcb_buf *out);

/* Replaces the bytes written since offset `from` with one LZMA block that
 * holds them (0x0010, u32 size, properties, stream); returns its offset.
 * Blocks still open before `from` keep working. */
size_t e3db_lzma_wrap(e3db *w, size_t from, const e3db_lzma *p);

/* A skin block (0x1050) named "rig": identity matrices, n bones named as
 * given (the nodes they name must exist), weight set 0. Returns its
 * offset; *bones_at (if not NULL) gets the bone list's (0x1053). */
size_t e3db_skin(e3db *w, const char *const *bones, uint8_t n, size_t *bones_at);

/* Features of the cube model (the spec's 24-vertex, 12-triangle cube). */
enum e3db_cube_flags {
    E3DB_NORMALS = 1 << 0,
    E3DB_UVS = 1 << 1,
    E3DB_BBOX = 1 << 2,
    E3DB_MATERIAL = 1 << 3,
    E3DB_TEXTURE = 1 << 4,   /* with E3DB_MATERIAL: a phongDiffuseMap */
    E3DB_SKIN = 1 << 5,      /* boneWeights, skin of 2 bones, 2 named nodes */
    E3DB_ANIMATION = 1 << 6, /* one animation, one track on node 1 */
    E3DB_LZMA_TOP = 1 << 7,  /* everything after the version block in one LZMA block */
    E3DB_LZMA_MESH = 1 << 8, /* the mesh's children in an LZMA block */
    E3DB_TRACK_CODE_LAYOUT = 1 << 9, /* loop flag before the frames */
    /* habits of the official samples (docs/formats/e3d.md) */
    E3DB_REPEAT_FACES_MATERIALS = 1 << 10, /* the facesMaterials block twice */
    E3DB_EMPTY_TEXTURES = 1 << 11          /* an empty textures block */
};

/* Offsets of interesting blocks in the last e3db_cube() output (uncompressed
 * files only; 0 where absent). */
typedef struct e3db_cube_map {
    size_t meshes, mesh, mesh_id, bbox, attributes, interleaved, faces, faces_materials;
    size_t skin, skin_bones, textures, texture, materials, material, map, nodes, node;
    size_t node_mesh_id, animations, animation, frames, track, rotation;
    size_t vertex_data; /* first vertex in the interleaved data */
    unsigned stride;
    unsigned normal_at, uv_at, weights_at; /* offsets in a vertex */
} e3db_cube_map;

void e3db_cube(e3db *w, unsigned flags, e3db_cube_map *map);
/* Offset of field `field` of the cube's vertex i. */
size_t e3db_vertex_offset(const e3db_cube_map *map, size_t i, size_t field);

/* The spec's cube vertices, faces and (cube2) normals. */
extern const float e3db_cube_positions[24][3];
extern const uint16_t e3db_cube_faces[12][3];
extern const float e3db_cube_normals[24][3];
/* 10_10_10_2 as the reference packer does it: -1 -> -512, +1 -> 511. */
uint32_t e3db_pack_normal(const float n[3]);

#endif
