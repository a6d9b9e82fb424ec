/* Shared by e3d.c (framing, LZMA) and e3d_content.c (fields, checks,
 * model) of the E3D reference loader only. */
#ifndef E3D_LOADER_H
#define E3D_LOADER_H

#include <string.h>

#include "mcl_internal.h"

/* Block types (e3d.adoc, "Detailed description of all block types"). */
enum {
    E3_VERSION = 0x0001, E3_LZMA = 0x0010,
    E3_MESHES = 0x1000, E3_MESH = 0x1010, E3_MESH_ID = 0x1020, E3_MESH_BBOX = 0x1021,
    E3_DUP_VERTICES = 0x1022, E3_TRI16 = 0x1030, E3_TRI32 = 0x1031, E3_FACES_MATERIALS = 0x1040,
    E3_SKIN = 0x1050, E3_SKIN_NAME = 0x1051, E3_SKIN_BIND = 0x1052, E3_SKIN_BONES = 0x1053,
    E3_SKIN_BONE_WEIGHTS = 0x1054, E3_PARTS = 0x1060, E3_MORPHS = 0x1070, E3_MORPH = 0x1071,
    E3_MORPH_ID = 0x1072, E3_MORPH_NAME = 0x1073, E3_MORPH_WEIGHT = 0x1074,
    E3_ATTRIBUTES = 0x2000, E3_VERTICES = 0x2010, E3_VERTICES_DBL = 0x2011, E3_VERTICES_Q = 0x2018,
    E3_NORMALS = 0x2020, E3_TEXCOORDS = 0x2030, E3_COLORS = 0x2070, E3_TANGENTS_SIGN = 0x2080,
    E3_TANGENTS_BI = 0x2081, E3_BONE_WEIGHTS = 0x2090, E3_INTERLEAVED = 0x2800,
    E3_NODES = 0x3000, E3_MESH_NODE = 0x3010, E3_CAMERA_NODE = 0x3011, E3_LIGHT_NODE = 0x3012,
    E3_NODE_ID = 0x3020, E3_NODE_NAME = 0x3021, E3_SCALING = 0x3030, E3_ORIENTATION = 0x3031,
    E3_POSITION = 0x3032, E3_SKELETON = 0x3040,
    E3_MATERIALS = 0x8000, E3_MATERIAL = 0x8010, E3_MATERIAL_ID = 0x8011, E3_MATERIAL_NAME = 0x8012,
    E3_MATERIAL_GROUP = 0x8013, E3_MATERIAL_FLAGS = 0x8020, E3_OPACITY = 0x8021, E3_DIFFUSE = 0x8030,
    E3_TEXTURES = 0x9000, E3_TEXTURE = 0x9001, E3_TEXTURE_ID = 0x9002, E3_TEXTURE_NAME = 0x9003,
    E3_TEXTURE_PNG = 0x9101, E3_TEXTURE_JPG = 0x9102, E3_TEXTURE_JPG2K = 0x9103,
    E3_ANIMATIONS = 0xA000, E3_ANIMATION = 0xA010, E3_ANIMATION_NAME = 0xA021,
    E3_ANIMATION_FRAMES = 0xA022, E3_TRACK = 0xA100, E3_TCB = 0xA110, E3_ROTATION_ORDER = 0xA120,
    E3_FTK_POSITION = 0xA210, E3_FTK_SCALING = 0xA220, E3_FTK_ROTATION = 0xA230,
    E3_FTK_YAW = 0xA240, E3_FTK_PITCH = 0xA250, E3_FTK_ROLL = 0xA260, E3_FTK_LIGHT_COLOR = 0xA2B0,
    E3_FTK_HIDE = 0xA2C0, E3_FTK_MORPH = 0xA300
};

#define E3_NONE UINT32_MAX
#define E3_MAX_LZMA_DEPTH 8u /* LZMA inside LZMA: the catalog's fixed limit */

/* One known block, in document order (a parent before its children). For
 * blocks inside decoded LZMA data, `off` is the file offset of the
 * outermost LZMA block holding them. */
typedef struct e3_blk {
    const uint8_t *p; /* payload, after the 6-byte header */
    uint32_t len;
    uint32_t parent;  /* block index, E3_NONE at the top level */
    uint64_t off;
    uint16_t type;
} e3_blk;

typedef struct e3_buf {
    uint8_t *p;
    uint64_t size;
} e3_buf;

struct e3_content; /* e3d_content.c */

typedef struct e3 {
    mcl_ctx *c;
    e3_blk *blk;
    uint32_t nblk, blk_cap;
    e3_buf *bufs; /* decoded LZMA data, alive until the model is built */
    uint32_t nbufs, buf_cap;
    uint64_t decoded_total;
    struct e3_content *k;
} e3;

bool e3__grow(e3 *s, void **arr, uint32_t *cap, uint64_t need, size_t elem);
bool e3__is_attribute(uint16_t t);
bool e3__is_map(uint16_t t);

/* ---- shared by e3d_content.c (reads and checks) and e3d_model.c ---- */

/* ---- a hash map for IDs (u32) and names (bytes) ---- */

typedef struct entry {
    uint64_t hash;
    const uint8_t *s; /* NULL for IDs */
    uint32_t len;
    uint32_t val;
    bool used;
} entry;

typedef struct hmap {
    entry *e;
    uint32_t cap; /* power of two, at least twice the entries */
} hmap;

/* ---- the objects ---- */

enum { A_POS, A_POSD, A_POSQ, A_NORMAL, A_UV, A_COLOR = A_UV + 8, A_TAN, A_TANBI, A_WEIGHTS, A_COUNT = A_WEIGHTS + 8 };

typedef struct attr {
    const uint8_t *p; /* first vertex's element */
    uint32_t stride, width;
    uint64_t off;
    bool present;
} attr;

typedef struct mesh {
    uint32_t blk, id, vcount, ntri_blocks, tri[4];
    bool has_id, has_attrs, has_bbox, has_faces;
    attr a[A_COUNT];
    float bbox[6];
    uint64_t bbox_off, tri_count;
    uint32_t node, instances; /* nodes instancing it */
    uint32_t set_bones[8], set_skin[8]; /* per weight set: the largest skin using it */
} mesh;

typedef struct skin {
    uint32_t mesh, bones_blk, nbones;
    float bind[16];
    uint8_t set;
} skin;

typedef struct node {
    const uint8_t *name;
    uint32_t name_len, mesh;
    int32_t parent;
    float scale[3];
    double q[4]; /* w, x, y, z */
    double t[3];
} node;

typedef struct mat {
    const uint8_t *name;
    uint32_t name_len, tex;
    float diffuse[3], opacity;
} mat;

typedef struct tex {
    const uint8_t *name, *data;
    uint32_t name_len, size;
    bool has_name;
} tex;

typedef struct anim {
    const uint8_t *name;
    uint32_t name_len, frames[3];
    bool has_frames;
} anim;

enum { K_POS, K_SCALE, K_ROT, K_YAW, K_PITCH, K_ROLL, K_COUNT };

typedef struct track {
    uint32_t anim, blk, keys, node_id, name_len, order;
    const uint8_t *frames, *name; /* frames: keys u32 */
    uint32_t ftk[K_COUNT];        /* block index or E3_NONE */
    bool has_id, has_name;
} track;

typedef struct e3_content {
    uint32_t *aux;       /* per block: its object's index */
    uint64_t (*seen)[2]; /* per block: once-only children already seen */
    uint8_t *mark;       /* per map block: holds a texture reference */
    mesh *meshes;
    skin *skins;
    node *nodes;
    mat *mats;
    tex *texs;
    anim *anims;
    track *tracks;
    uint32_t n[7], cap[7]; /* counts and allocated sizes, in the order above */
    hmap mesh_ids, node_ids, node_names, mat_ids, tex_ids, tex_names;
    int rank; /* the last top-level section's rank */
} e3_content;

enum { O_MESH, O_SKIN, O_NODE, O_MAT, O_TEX, O_ANIM, O_TRACK };

static inline float f32_at(const uint8_t *p) { return mc_bits_f32(mc_le32(p)); }

static inline double f64_at(const uint8_t *p)
{
    uint64_t bits = mc_le64(p);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

entry *e3__id_slot(const hmap *m, uint32_t id);
entry *e3__name_slot(const hmap *m, const uint8_t *p, uint32_t n);
void e3__normal_fields(uint32_t packed, int32_t v[3]);
float e3__vertex_coord(const mesh *m, uint32_t v, int c);

mcl_status e3__content(e3 *s);
mcl_status e3__build(e3 *s);
void e3__content_release(e3 *s);

#endif
