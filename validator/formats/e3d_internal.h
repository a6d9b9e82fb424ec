/*
 * E3D module internals shared by e3d.c (block tree walk, LZMA, references)
 * and e3d_blocks.c (per-type payload layouts and semantics). Not a public
 * header: only the two E3D sources include it.
 */
#ifndef E3D_INTERNAL_H
#define E3D_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mc_check.h"
#include "mc_reader.h"
#include "mc_struct.h"

#define E3D_HEADER 6u                /* u16 type, u32 length (length includes the header) */
#define E3D_PATH 96u                 /* = sizeof mc_instance.path */
/* LZMA blocks inside LZMA blocks: mc_options has no field for it, so this
 * fixed limit is named in the E3D_LZMA_DEPTH_LIMIT catalog clause. */
#define E3D_MAX_LZMA_DEPTH 8u
#define E3D_MAX_VERTICES 65536u      /* e3d.adoc, attributes: limit of 65,536 vertices */
#define E3D_MAX_INFLUENCES 10u       /* docs/formats/e3d.md: the reference reader's fixed array */
#define E3D_MAX_NAME 4096u           /* textureName bound (PATH_MAX) */
#define E3D_BONE_SETS 8u             /* boneWeights .. boneWeights8 */

/* The container classes a block may sit in (docs/formats/e3d.md, "Nesting"). */
enum e3d_class {
    C_TOP, C_TEXTURES, C_TEXTURE, C_MATERIALS, C_MATERIAL, C_MAP, C_MESHES, C_MESH,
    C_ATTRS, C_SKIN, C_MORPHS, C_MORPH, C_NODES, C_NODE, C_ANIMS, C_ANIM, C_TRACK,
    C_COUNT
};
#define IN(c) (1u << (c))
#define IN_ANY ((1u << C_COUNT) - 1u)

enum e3d_kind { K_LEAF, K_CONTAINER, K_LZMA, K_VERSION, K_RESERVED };

typedef struct e3d_type {
    uint16_t type;
    const char *name;
    uint32_t parents;  /* IN() mask */
    uint8_t kind;
    uint8_t klass;     /* containers: the class of their children's parent */
    uint8_t once;      /* at most one per parent */
    uint8_t section;   /* top-level section: order rank 1..5, unindexed in paths */
    uint16_t fixed;    /* leaves with a fixed payload size; 0 if variable */
} e3d_type;

extern const e3d_type e3d_types[];
extern const size_t e3d_type_count;
const e3d_type *e3d_find(uint16_t type);

/* Where a byte of a buffer is, for reports: file bytes at their offset;
 * decoded bytes at the file offset of the outermost LZMA block, with the
 * offset inside the innermost decoded payload. */
typedef struct e3d_loc {
    uint64_t offset, payload;
    bool has_payload;
    char path[E3D_PATH];
} e3d_loc;

/* One container being walked (or one decoded LZMA payload). */
typedef struct e3d_frame {
    const uint8_t *buf;  /* the buffer holding this frame's children */
    size_t buf_size;
    bool decoded;
    uint64_t anchor;     /* decoded: file offset of the outermost LZMA block */
    size_t pos, end;     /* child cursor in buf */
    size_t hdr;          /* container: its header in buf; LZMA frame: the block in the parent's buf */
    uint16_t type;
    uint8_t klass;
    bool lzma;
    const char *name;
    uint32_t index;
    bool indexed;
    uint32_t depth;      /* block depth of this container (LZMA frames: their container's) */
    uint32_t lzma_depth;
    size_t logical;      /* frame whose children these are (itself unless LZMA) */
    uint8_t *owned;      /* decoded payload freed when the frame is popped */
    uint32_t nchildren;
    uint32_t *seen;      /* children per type index (logical frames), e3d_type_count + 1 */
} e3d_frame;

/* A block being checked. */
typedef struct e3d_blk {
    size_t fi;           /* frame holding it */
    size_t pos;          /* header position in the frame's buffer */
    size_t len;
    uint16_t type;
    const e3d_type *t;
    uint32_t index;
    const uint8_t *p;    /* payload */
    size_t n;
    size_t ppos;         /* payload position in the buffer */
} e3d_blk;

typedef struct e3d_range {
    uint64_t start, end;
    uint64_t offset, payload;
    bool has_payload;
    uint32_t block;  /* the facesMaterials block's index in its mesh */
    uint32_t entry;  /* the range's entry in that block */
} e3d_range;

typedef struct e3d_set {
    uint64_t *keys;
    size_t cap, used;
} e3d_set;

typedef struct e3d_mesh {
    bool have_count, have_faces, have_bbox, have_ext, have_pending_index;
    bool attrs_seen, faces_seen; /* the blocks exist, valid or not (order checks) */
    uint32_t vertex_count;
    uint64_t faces;
    float lo[3], hi[3];
    e3d_loc bbox_loc;
    double min[3], max[3];
    uint32_t min_v[3], max_v[3];
    uint64_t pending_index; /* largest face index seen before the vertex count */
    e3d_loc pending_loc;
    uint8_t set_used[E3D_BONE_SETS];
    uint8_t set_max[E3D_BONE_SETS];   /* largest bone ID per weight set */
    uint32_t set_vertex[E3D_BONE_SETS];
    e3d_loc set_loc[E3D_BONE_SETS];
    bool skin_for_set[E3D_BONE_SETS];
    uint32_t skin_bones[E3D_BONE_SETS];
    e3d_range *fm;       /* facesMaterials ranges, for the overlap check */
    size_t fm_count, fm_cap;
    uint64_t attr_mask;  /* standard attribute types present */
    unsigned uv_sets;
    mc_zero_normals zero; /* E3D_NORMAL_ZERO, reported when the mesh ends */
    e3d_loc zero_loc;
    uint64_t degenerate; /* inspect: over the mesh's face blocks */
    /* inspect: vertices by non-zero weights, of its bone-weight attributes
     * (shown when there is one: across weight sets they would add up) */
    uint64_t influences[MC_INFLUENCE_SLOTS];
    unsigned weight_sets, influence_width;
} e3d_mesh;

typedef struct e3d_skin_state {
    uint32_t bones;
    uint8_t set;
} e3d_skin_state;

typedef struct e3d_track {
    uint32_t keys;
    bool target;
} e3d_track;

typedef struct e3d_anim {
    bool have_frames;
    uint32_t start, end;
    uint64_t tracks, keys; /* inspect: its tracks and their key frames */
} e3d_anim;

typedef struct e3d_boneref {
    uint64_t key, offset, payload;
    bool has_payload;
    uint32_t path, bone;
} e3d_boneref;

typedef struct e3d {
    mc_ctx *c;
    e3d_frame *st;
    size_t sp, cap;
    uint64_t decoded_total;
    bool version_pending; /* an LZMA block stood in the version block's place */
    unsigned section_rank;
    bool lzma_depth_reported;
    e3d_set ids;          /* mesh, node, material, texture IDs; node and texture names */
    e3d_mesh mesh;
    e3d_skin_state skin;
    e3d_track track;
    e3d_anim anim;
    bool map_has_texture;
    e3d_boneref *bonerefs;
    size_t bonerefs_count, bonerefs_cap;
    char (*paths)[E3D_PATH];
    size_t paths_count, paths_cap;
} e3d;

/* ID kinds for the set: a key mixes kind and value. */
enum e3d_id_kind { ID_MESH = 1, ID_NODE, ID_MATERIAL, ID_TEXTURE, NAME_NODE, NAME_TEXTURE };

/* e3d.c */
mc_instance *e3d_emit_frame(e3d *v, mc_code code, size_t fi, size_t pos);
mc_instance *e3d_emit_blk(e3d *v, mc_code code, const e3d_blk *b, size_t pos);
mc_instance *e3d_emit_loc(e3d *v, mc_code code, const e3d_loc *l);
void e3d_append(mc_instance *in, const char *fmt, ...) MC_PRINTF(2, 3);
void e3d_loc_blk(e3d *v, const e3d_blk *b, size_t pos, e3d_loc *out);
uint64_t e3d_key(unsigned kind, const uint8_t *p, size_t n);
uint64_t e3d_key_u32(unsigned kind, uint32_t id);
bool e3d_set_has(const e3d_set *s, uint64_t key);
/* Adds key; false if present already. Sets c->nomem on failure. */
bool e3d_set_add(e3d *v, e3d_set *s, uint64_t key);
const e3d_frame *e3d_logical(const e3d *v, size_t fi);
void e3d_frame_path(const e3d *v, size_t fi, char *out, size_t n);

/* e3d_blocks.c */
void e3d_check_leaf(e3d *v, const e3d_blk *b);
/* Checks a container's prefix; returns false to skip its children. *skip
 * is the prefix size before the first child. */
bool e3d_enter(e3d *v, const e3d_blk *b, size_t *skip);
void e3d_leave(e3d *v, size_t fi);
void e3d_finish(e3d *v);

#endif
