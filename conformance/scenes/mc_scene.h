/*
 * The source scenes of exporter certification (docs/CERTIFY.md, "Certify
 * an exporter"): a small scene model (glTF 2.0's: nodes, meshes of
 * primitives, skins, animations, materials, textures), the bundled scene
 * definitions, their writers (.gltf with embedded or external buffers,
 * .glb, Wavefront OBJ) and the facts an exported file must keep.
 *
 * The corpus generator writes every scene and its facts into corpus/scenes;
 * `modelcheck certify --exporter` writes the form an exporter asks for into
 * each case's working directory from the same code, so what an exporter
 * receives is byte-identical to the corpus copy (a test checks it).
 *
 * Prefix: mcs_. No global state.
 */
#ifndef MC_SCENE_H
#define MC_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "mcb_buf.h"

#define MCS_FORMAT_COUNT 5 /* aem, semodel, aamf, e3d, nlm: mcc_format_names order */

enum mcs_mode { MCS_POINTS = 0, MCS_LINES = 1, MCS_TRIANGLES = 4 };
enum mcs_path { MCS_T = 0, MCS_R = 1, MCS_S = 2 };
enum mcs_interp { MCS_LINEAR = 0, MCS_STEP = 1, MCS_CUBIC = 2 };

typedef struct mcs_prim {
    int mode;
    uint32_t vertex_count;
    float *pos, *nrm, *tan, *uv; /* 3, 3, 4, 2 per vertex; NULL when absent */
    float *color;                /* COLOR_0: RGBA 0..1, 4 per vertex; NULL when absent */
    int influences;              /* 0, 4 or 8 */
    uint16_t *joints;            /* influences per vertex: slots of the node's skin */
    float *weights;              /* influences per vertex */
    uint32_t index_count;
    uint32_t *indices;           /* NULL: not indexed */
    int index_bits;              /* 8, 16 or 32 when indexed */
    int material;                /* -1 none */
} mcs_prim;

typedef struct mcs_mesh {
    char *name;
    mcs_prim *prims;
    uint32_t prim_count;
} mcs_mesh;

typedef struct mcs_node {
    char *name;
    int parent;                  /* -1 root; parents may follow children */
    float t[3], r[4], s[3];      /* r: x y z w */
    int mesh, skin;              /* -1 none */
} mcs_node;

typedef struct mcs_skin {
    uint32_t joint_count;
    int *joints;                 /* node indices; inverse binds undo their rest pose */
} mcs_skin;

typedef struct mcs_channel {
    int node, path, interp;
    uint32_t key_count;
    float *times;
    float *values;               /* 3 or 4 per key; cubic: in-tangent, value, out-tangent per key */
} mcs_channel;

typedef struct mcs_anim {
    char *name;
    mcs_channel *channels;
    uint32_t channel_count;
} mcs_anim;

typedef struct mcs_texture {
    char *file;                  /* external image beside the scene, or NULL: embedded */
} mcs_texture;

typedef struct mcs_material {
    char *name;
    float color[4];
    int texture;                 /* base color texture, -1 none */
} mcs_material;

/* Per target format: can it hold the scene? */
typedef enum mcs_fit {
    MCS_FITS = 0,  /* an exporter must write it faithfully */
    MCS_LOSSY,     /* it may refuse, or write what the format keeps (named in `note`) */
    MCS_NO_FIT     /* it must refuse: no file of the format holds it */
} mcs_fit;

typedef struct mcs_scene {
    const char *name, *group, *feature;
    int has_obj;                 /* a static scene: an OBJ form exists */
    const char *gltf_ignore;     /* glTF-Validator codes the scene trips on purpose ("" none) */
    mcs_node *nodes;
    uint32_t node_count, node_cap;
    mcs_mesh *meshes;
    uint32_t mesh_count, mesh_cap;
    mcs_skin *skins;
    uint32_t skin_count, skin_cap;
    mcs_anim *anims;
    uint32_t anim_count, anim_cap;
    mcs_material *materials;
    uint32_t material_count, material_cap;
    mcs_texture *textures;
    uint32_t texture_count, texture_cap;
    mcs_fit fit[MCS_FORMAT_COUNT];
    char note[MCS_FORMAT_COUNT][160];
    void **allocs;               /* every array above, freed by mcs_scene_free */
    size_t alloc_count, alloc_cap;
    int oom;
} mcs_scene;

/* ---- the bundled scenes ---------------------------------------------------- */

size_t mcs_scene_count(void);
const char *mcs_scene_name(size_t i);
/* Builds scene i (and its per-format fit); NULL on OOM. */
mcs_scene *mcs_scene_build(size_t i);
void mcs_scene_free(mcs_scene *s);

/* ---- what each target format can hold (from the specs and docs/formats) ---- */

typedef struct mcs_caps {
    const char *format;
    uint32_t max_bones;        /* bones a skin index can address */
    uint32_t max_influences;   /* per vertex */
    uint32_t max_vertices;     /* per file (addressable by faces) */
    uint32_t max_triangles;
    float max_coord;           /* largest |coordinate| stored exactly enough; 0: float */
    double position_tol;       /* absolute, after the format's rounding */
    double normal_tol, uv_tol, weight_tol, matrix_tol;
    int lines;                 /* keeps line primitives */
    int normals, uvs;          /* keeps them */
    int bone_names;            /* keeps bone names (else bones match by bind pose) */
    int empty_names;           /* an empty bone name is allowed */
    uint32_t max_animations;   /* 0: none */
    uint32_t anim_name_bytes;  /* longest animation name kept; 0: no names */
    int ascii_names;           /* animation names must be printable ASCII */
    int seconds;               /* key times in seconds (else format units: durations not compared) */
    uint32_t max_bone_depth;   /* deepest bone chain a file can nest (E3D meshNodes); 0: any */
    int anim_scale;            /* keeps animated bone scale (SAMF's MATRIX holds a rotation) */
    int colors;                /* vertex colour channels kept: 0 none, 3 RGB (alpha reads 1), 4 RGBA */
    double color_tol;          /* per channel, after the format's rounding */
    uint32_t bone_name_bytes;  /* longest bone name kept (a longer one is cut); 0: any */
    int textures;              /* embeds base colour textures with their size and a whole MIP chain */
    int zero_length_anims;     /* stores an animation of zero length (AEM and NLM: a duration must be > 0) */
} mcs_caps;

/* Does an exporter's stated reason for refusing a scene (said: its last
 * stderr line) name one of the reasons of the scene's note for the format
 * (its "; "-separated parts)? By whole words, in any case, from a short
 * vocabulary per reason (docs/CERTIFY.md, Verdicts). */
int mcs_reason_named(const char *note, const char *said);

/* Only printable ASCII bytes. */
int mcs_ascii(const char *s);

/* aem, semodel, aamf, e3d, nlm. */
extern const mcs_caps mcs_format_caps[MCS_FORMAT_COUNT];

/* The caps of format f (an index of mcs_format_caps) for the layout an
 * output actually has (mcl_model.layout, "" or NULL when the format has
 * one): SEModel's 2017 draft stores normals and weights as binary16, so
 * its tolerances are those of half precision, not of the 2018 floats. */
mcs_caps mcs_caps_of_layout(int f, const char *layout);

/* ---- the forms an exporter reads ------------------------------------------- */

typedef enum mcs_form { MCS_GLTF = 0, MCS_GLTF_SEPARATE, MCS_GLB, MCS_OBJ } mcs_form;
const char *mcs_form_name(mcs_form f);      /* "gltf", "gltf-separate", "glb", "obj" */
int mcs_form_parse(const char *name);       /* -1 unknown */
/* Writes the scene in that form into DIR as <name>.<ext> plus the files it
 * references (external buffer, images); *main_file gets the main file's
 * name (static storage). 0, or -1 (I/O, OOM, or OBJ for a scene without). */
int mcs_write_form(const mcs_scene *s, mcs_form f, const char *dir, const char **main_file);

/* The size of texture t's image, read from the PNG the writers embed or
 * write beside the scene; 0 0 when t names no image. */
void mcs_image_size(const mcs_scene *s, int t, uint32_t *width, uint32_t *height);

/* The OBJ form alone (scene_obj.c); 0 or -1. */
int mcs_write_obj(const mcs_scene *s, const char *dir, const char *name);

/* ---- facts ------------------------------------------------------------------ */

#define MCS_MAX_INFLUENCES 8

typedef struct mcs_fvertex {
    float pos[3], nrm[3], uv[2], color[4];
    int has_nrm, has_uv, has_color;
    int influences;
    int bone[MCS_MAX_INFLUENCES];   /* fact bone index */
    float weight[MCS_MAX_INFLUENCES]; /* normalised: sum 1 */
} mcs_fvertex;

typedef struct mcs_fbone {
    const char *name;               /* the node's (owned by the scene) */
    int parent;                     /* fact bone index, -1 */
    float bind[16];                 /* model-space rest transform, column-major */
} mcs_fbone;

typedef struct mcs_fanim {
    const char *name;
    double duration;                /* seconds */
    uint32_t sample_count;
    double times[4];
    float *skin;                    /* per sample per bone: 16 floats, posed * inverse(bind) */
} mcs_fanim;

typedef struct mcs_ftexture {
    const char *material;           /* the material's name (owned by the scene) */
    uint32_t width, height;         /* of the base colour image */
} mcs_ftexture;

typedef struct mcs_facts {
    uint32_t triangle_count;        /* vertices[3 * t .. 3 * t + 2], world space, bind pose */
    mcs_fvertex *tri;
    uint32_t line_count;            /* line_pos[6 * l]: two positions */
    float *line_pos;
    uint32_t point_count;
    uint32_t bone_count;
    mcs_fbone *bones;
    uint32_t anim_count;
    mcs_fanim *anims;
    float max_abs_coord;            /* largest |coordinate| of any position */
    uint32_t max_influences;        /* most non-zero weights on one vertex */
    uint32_t texture_count;         /* the base colour textures of the materials triangles use */
    mcs_ftexture *textures;
} mcs_facts;

/* 0, or -1 on OOM. */
int mcs_facts_build(const mcs_scene *s, mcs_facts *out);
void mcs_facts_free(mcs_facts *f);

/* The global (world) transform of every node at animation `anim`, time t
 * (seconds); anim -1: the rest pose. out: node_count * 16 floats. */
void mcs_node_globals(const mcs_scene *s, int anim, double t, float *out);

/* Column-major 4x4 helpers shared with the faithfulness check. */
void mcs_mat_mul(const float a[16], const float b[16], float out[16]);
int mcs_mat_invert(const float m[16], float out[16]);
void mcs_mat_point(const float m[16], const float p[3], float out[3]);
void mcs_mat_dir(const float m[16], const float d[3], float out[3]);
/* translation, rotation (x y z w), scale -> matrix */
void mcs_mat_compose(const float t[3], const float q[4], const float s[3], float m[16]);
/* A channel's value at t seconds (clamped to its keys): 3 or 4 floats,
 * glTF 2.0 sampler rules (slerp for linear rotations, Hermite for cubic). */
void mcs_channel_sample(const mcs_channel *c, double t, float *out);

#endif
