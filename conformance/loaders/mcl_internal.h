/*
 * Shared by the loader sources only: the load context, arena allocation
 * counted against the limits, and the first-error record. Bytes are read
 * through the core's bounded reader (validator/core/mc_reader.h): a shared
 * mechanic, not a check, so the loaders stay independent of the validator's
 * rules while never touching memory outside the data.
 */
#ifndef MCL_INTERNAL_H
#define MCL_INTERNAL_H

#include <stdbool.h>

#include "mcl.h"
#include "mc_reader.h"

typedef struct mcl_ctx {
    const mcl_limits *limits;
    mcl_model *model;      /* being built; its arena owns every allocation */
    mcl_error *err;        /* never NULL inside a loader */
    uint64_t allocated;    /* arena + scratch bytes, against limits->max_alloc_bytes */
} mcl_ctx;

/* Records the first failure (later ones are consequences) and returns its
 * status, so a loader can `return mcl__fail(...)`. */
mcl_status mcl__fail(mcl_ctx *c, mcl_status status, uint64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* count * size zeroed bytes from the model's arena, overflow-checked and
 * counted against the memory limit; NULL after recording NOMEM or LIMIT.
 * count 0 returns a valid non-NULL pointer. */
void *mcl__alloc(mcl_ctx *c, uint64_t count, uint64_t size);

/* A NUL-terminated copy of len bytes (which must not contain the NUL). */
char *mcl__strdup(mcl_ctx *c, const uint8_t *s, size_t len);

/* Scratch memory outside the model (freed by the loader with
 * mcl__scratch_free), counted against the same limit while it lives. */
void *mcl__scratch(mcl_ctx *c, uint64_t count, uint64_t size);
void mcl__scratch_free(mcl_ctx *c, void *p, uint64_t count, uint64_t size);

/* One loader per format: fills c->model (meshes, materials, bones,
 * animations, layout) or returns the first failure through mcl__fail. */
mcl_status mcl__load_aem(mcl_ctx *c, const uint8_t *data, size_t size);
/* The current upstream AEM layout ("2025", aem2025.c); mcl__load_aem hands
 * a file over when its header counts add up to the file size in that layout
 * alone. mcl__aem2025_size reports the size the counts imply (false when
 * the file is shorter than the header or the sum overflows). */
mcl_status mcl__load_aem2025(mcl_ctx *c, const uint8_t *data, size_t size);
bool mcl__aem2025_size(const uint8_t *data, size_t size, uint64_t *implied);
mcl_status mcl__load_semodel(mcl_ctx *c, const uint8_t *data, size_t size);
mcl_status mcl__load_aamf(mcl_ctx *c, const uint8_t *data, size_t size);
mcl_status mcl__load_e3d(mcl_ctx *c, const uint8_t *data, size_t size);
mcl_status mcl__load_nlm(mcl_ctx *c, const uint8_t *data, size_t size);

void mcl__arena_free(mcl_arena *arena);

/* Column-major 4x4 identity, for bones whose format stores no bind data. */
void mcl__identity(float m[16]);
/* out = a x b, column-major; out may be a or b. */
void mcl__mat4_mul(const float a[16], const float b[16], float out[16]);
void mcl__mat4_mul_d(const double a[16], const double b[16], double out[16]);

#endif
