/*
 * modelcheck reference loaders: one hardened loader per format, written from
 * the specs independently of the validator's checks. A loader turns a file
 * into an in-memory model a game could use, or rejects it with a reason.
 *
 * Contract of every loader (mcl_load):
 *   - accepts exactly the files that break no error-level rule of the spec
 *     (the validator's warnings are accepted), rejects the others;
 *   - never reads out of bounds, never allocates from an unchecked count,
 *     never recurses without a limit, never leaks;
 *   - a model it returns passed mcl_model_check(): every index in range,
 *     every array present with the length its count says, parents before
 *     children, key times sorted and finite. A game (or a fuzzer) can walk it
 *     and evaluate poses at any time without further checks.
 *
 * Units are the format's own: positions as stored, angles in quaternions,
 * times in the animation's unit (seconds for AEM, ticks for NLM, frames for
 * AAMF and E3D); `duration` uses the same unit.
 *
 * Prefix: mcl_ (public), mcl__ (shared between loader sources only).
 */
#ifndef MCL_H
#define MCL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mcl_format {
    MCL_FORMAT_UNKNOWN = 0,
    MCL_FORMAT_AEM,
    MCL_FORMAT_SEMODEL,
    MCL_FORMAT_AAMF,
    MCL_FORMAT_E3D,
    MCL_FORMAT_NLM,
    MCL_FORMAT_COUNT
} mcl_format;

typedef enum mcl_status {
    MCL_OK = 0,
    MCL_ERR_ARGUMENT,     /* NULL pointer, unknown format */
    MCL_ERR_NOMEM,        /* malloc failed */
    MCL_ERR_LIMIT,        /* a configured limit (memory, depth, decompressed bytes), or
                             a spec-valid value beyond the model's float range */
    MCL_ERR_TRUNCATED,    /* a field or block runs past the end of the data */
    MCL_ERR_MAGIC,        /* not this format */
    MCL_ERR_VERSION,      /* unknown version or layout */
    MCL_ERR_SIZE,         /* a stored size or count disagrees with the data */
    MCL_ERR_RANGE,        /* an index, enum or flag out of range */
    MCL_ERR_VALUE,        /* a value the spec forbids (NaN, non-unit quaternion, weight sum) */
    MCL_ERR_STRUCTURE,    /* order, hierarchy, cycles, duplicates, missing parts */
    MCL_ERR_COMPRESSION,  /* a compressed block does not decode */
    MCL_ERR_UNSUPPORTED,  /* a feature this loader does not implement */
    MCL_ERR_INTERNAL      /* the loader built a model that breaks mcl_model_check */
} mcl_status;

const char *mcl_strerror(mcl_status status);
/* "TRUNCATED", "LIMIT", ...: the enum name without MCL_ERR_ ("OK" for MCL_OK). */
const char *mcl_status_name(mcl_status status);

/* Why a file was rejected: the first error found, at a byte offset. */
typedef struct mcl_error {
    mcl_status status;
    uint64_t offset;
    char reason[192];
} mcl_error;

typedef struct mcl_limits {
    uint64_t max_alloc_bytes;        /* total model + scratch memory */
    uint64_t max_decompressed_bytes; /* E3D LZMA output, all blocks */
    uint32_t max_depth;              /* nesting (E3D blocks, hierarchies) */
} mcl_limits;

/* 1 GiB of memory, 256 MiB decompressed (the validator's default), depth 64. */
mcl_limits mcl_limits_default(void);

typedef enum mcl_primitive { MCL_TRIANGLES = 0, MCL_LINES = 1 } mcl_primitive;

typedef struct mcl_mesh {
    const char *name;          /* "" when the format has none */
    uint32_t vertex_count;
    const float *positions;    /* 3 per vertex */
    const float *normals;      /* 3 per vertex, or NULL */
    uint32_t uv_layer_count;
    const float *uvs;          /* 2 per vertex per layer: uvs[(layer * vertex_count + v) * 2] */
    const float *colors;       /* RGBA 0..1, 4 per vertex, or NULL */
    uint32_t influences;       /* bone influences per vertex, 0 = not skinned */
    const uint32_t *joints;    /* influences per vertex, model bone indices */
    const float *weights;      /* influences per vertex, 0 for unused slots */
    int32_t rigid_bone;        /* bone moving the whole mesh (AEM extra bone, legacy AAMF), -1 none */
    mcl_primitive primitive;
    uint32_t index_count;      /* multiple of 3 (triangles) or 2 (lines) */
    const uint32_t *indices;   /* each < vertex_count */
    int32_t material;          /* model material index, -1 none */
    const int32_t *face_materials; /* one per primitive (E3D), or NULL: `material` for all */
} mcl_mesh;

/* How texture_data stores its texels. */
typedef enum mcl_texels {
    MCL_TEXELS_FILE = 0,  /* an image file (PNG, JPEG, ...) or none: not decoded */
    MCL_TEXELS_RAW = 1,   /* texture_channels bytes per texel, rows top first, MIP levels after each other */
    MCL_TEXELS_BC5 = 2,   /* 4x4 blocks of 16 bytes, MIP levels after each other */
    MCL_TEXELS_BC7 = 3
} mcl_texels;

typedef struct mcl_material {
    const char *name;              /* "" when none */
    const char *texture_path;      /* NULL when none */
    const uint8_t *texture_data;   /* embedded image bytes (copied), NULL when none */
    uint64_t texture_size;
    float base_color[4];           /* RGBA, 1 1 1 1 when the format has none */
    /* What the format states of the embedded texture's texels (AEM 2025);
     * all 0 (MCL_TEXELS_FILE) when it states nothing. texture_levels counts
     * the MIP levels in texture_data, width x height down to 1x1 halving
     * (floor, at least 1) when the format stores a whole chain. */
    mcl_texels texture_texels;
    uint32_t texture_width, texture_height, texture_channels, texture_levels;
} mcl_material;

typedef struct mcl_bone {
    const char *name;          /* "" when none */
    int32_t parent;            /* < own index, -1 for a root */
    float local[16];           /* rest pose, relative to the parent, column-major */
    float inverse_bind[16];    /* model space -> bone space at rest; identity if the format has none */
} mcl_bone;

typedef enum mcl_track_kind {
    MCL_TRACK_TRANSLATION = 0, /* 3 floats per key */
    MCL_TRACK_ROTATION = 1,    /* 4 floats per key: x y z w, unit */
    MCL_TRACK_SCALE = 2,       /* 3 floats per key */
    MCL_TRACK_MATRIX = 3       /* 16 floats per key, column-major local transform */
} mcl_track_kind;

typedef enum mcl_interpolation { MCL_STEP = 0, MCL_LINEAR = 1 } mcl_interpolation;

typedef struct mcl_track {
    uint32_t bone;
    mcl_track_kind kind;
    mcl_interpolation interpolation;
    uint32_t key_count;        /* >= 1 */
    const float *times;        /* key_count, finite, non-decreasing */
    const float *values;       /* key_count * (3, 4 or 16) */
} mcl_track;

typedef struct mcl_animation {
    const char *name;
    double duration;           /* finite, >= 0 */
    uint32_t track_count;
    const mcl_track *tracks;
    double units_per_second;   /* time units per second (NLM ticks/s, AAMF/E3D frame rate); 0 when unknown or when the unit is seconds */
    int looping;               /* 1 when the format says the animation repeats; mcl_evaluate_pose still clamps: wrap the time yourself */
} mcl_animation;

typedef struct mcl_arena mcl_arena;

typedef struct mcl_model {
    mcl_format format;
    const char *layout;        /* variant, e.g. "2018", "samf", "" when one */
    uint32_t mesh_count;
    const mcl_mesh *meshes;
    uint32_t material_count;
    const mcl_material *materials;
    uint32_t bone_count;
    const mcl_bone *bones;
    uint32_t animation_count;
    const mcl_animation *animations;
    mcl_arena *arena;          /* owns everything above */
} mcl_model;

/* Loads a model of the given format from memory (the data is not kept).
 * limits may be NULL (defaults); err may be NULL. On failure *out is NULL. */
mcl_status mcl_load(mcl_format format, const void *data, size_t size,
                    const mcl_limits *limits, mcl_model **out, mcl_error *err);

void mcl_free(mcl_model *model);

/* The invariants every returned model satisfies (see the top of this file);
 * MCL_OK or MCL_ERR_INTERNAL with the broken one in err. */
mcl_status mcl_model_check(const mcl_model *model, mcl_error *err);

/* Evaluates animation `animation` at `time` (clamped to each track's keys):
 * for every bone, `global` (model-space transform, bone_count * 16 floats) and
 * `skin` (global * inverse_bind, what a vertex shader multiplies by). Either
 * output may be NULL. Bones without tracks keep their rest pose. With
 * animation == UINT32_MAX the rest pose is evaluated. */
mcl_status mcl_evaluate_pose(const mcl_model *model, uint32_t animation, double time,
                             float *global, float *skin);

/* Reads every element of the model once and folds it into a checksum: a
 * fuzzer's way of proving every pointer and count is usable. */
uint64_t mcl_walk(const mcl_model *model);

/* Uses a model the way a game would: walks it, evaluates the rest pose and
 * every animation at -1, 0, 37%, 50%, 100% of its duration and past its end.
 * MCL_OK, or the failing status (MCL_ERR_NOMEM). */
mcl_status mcl_exercise(const mcl_model *model);

const char *mcl_format_name(mcl_format format);   /* "aem", "semodel", ... */
mcl_format mcl_format_from_name(const char *name); /* UNKNOWN when unknown */

#ifdef __cplusplus
}
#endif
#endif
