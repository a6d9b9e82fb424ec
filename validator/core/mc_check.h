/*
 * What a format module sees while it validates: the bytes, the options, and
 * the calls that record issues and spend the cross-reference work budget.
 */
#ifndef MC_CHECK_H
#define MC_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mc_numeric.h"
#include "modelcheck.h"

typedef struct mc_slot {
    uint64_t count;
    uint64_t first_offset;
    size_t kept;
    size_t cap;
    mc_instance *instances;
} mc_slot;

/* The options in effect for one validation: mc_options with every default
 * filled in and the severity of every code (the public struct holds
 * neither, so that it is ABI-stable and zero means default). */
typedef struct mc_settings {
    mc_format format;
    uint32_t max_instances;
    double weight_sum_tolerance;
    double unit_tolerance;
    double quaternion_tolerance;
    uint64_t max_file_bytes;
    uint32_t max_depth;
    uint64_t max_decompressed_bytes;
    uint64_t work_factor;
    int skip_sha256;
    /* Testing only (tests/clean/clean_paths.c, fuzz/harness/fuzz_clean.c): every clean path
     * declines, so the exact checks judge every element. A clean path must
     * never change a report, and this is how that is tested. */
    bool exact_only;
    unsigned char severity[MC_CODE_COUNT];
} mc_settings;

/* The structure sink of mc_inspect (mc_struct.h); NULL while validating. */
typedef struct mc_sink mc_sink;

typedef struct mc_ctx {
    const uint8_t *data;
    size_t size;
    const mc_settings *opt;
    mc_info *info;
    const char *layout;
    mc_slot *slots;        /* MC_CODE_COUNT of them */
    uint64_t work_left;
    /* clean-path bounds of the unit and quaternion tolerances (mc_surely_unit) */
    mc_unit_bounds unit, quaternion;
    bool fast; /* clean paths allowed: !opt->exact_only */
    bool work_exhausted;
    bool nomem;
    mc_sink *sink;
} mc_ctx;

/*
 * Records one occurrence of code at a file offset. Returns the instance to
 * describe with mc_path/mc_msg, or NULL when it is not kept (ignored code,
 * max_instances reached, out of memory): both accept NULL, so formatting is
 * only paid for kept instances.
 */
mc_instance *mc_emit(mc_ctx *c, mc_code code, uint64_t offset);

#if defined(__GNUC__)
#define MC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MC_PRINTF(a, b)
#endif

/* A clean path's copies per constant (influence count, index width) are
 * made by inlining, which GCC and Clang are told to do; another compiler
 * gets the same code, perhaps with the constants as variables. */
#if defined(__GNUC__)
#define MC_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define MC_ALWAYS_INLINE static inline
#endif

void mc_path(mc_instance *in, const char *fmt, ...) MC_PRINTF(2, 3);
void mc_msg(mc_instance *in, const char *fmt, ...) MC_PRINTF(2, 3);
/* Copies src into dst (size bytes, NUL-terminated, cut before a sequence
 * that does not fit) with every control character and every byte of no
 * well-formed UTF-8 sequence written \xHH: a message quoting bytes of a
 * file stays UTF-8 for JSON and harmless on a terminal. Returns the length. */
size_t mc_text_clean(char *dst, size_t size, const char *src);

/* Records where decoded data sits relative to the file offset. */
void mc_payload_offset(mc_instance *in, uint64_t payload_offset);

/*
 * Spends n units of the work budget before a check whose cost is not linear
 * in the file size (ranges that may overlap). Returns false once the budget
 * is spent, reporting FILE_WORK_LIMIT once at offset, naming the check.
 */
bool mc_work(mc_ctx *c, uint64_t n, uint64_t offset, const char *check);

/* How often a code fired so far (0 if ignored). */
uint64_t mc_issue_count(const mc_ctx *c, mc_code code);

/*
 * Vertices of one mesh whose normal is (0, 0, 0): the field's way of saying
 * "no normal" (docs/formats/nlm.md: line-list meshes; E3D: official samples),
 * never a unit-length error. Every format folds them into one warning per
 * mesh, at the first such vertex, with the count.
 */
typedef struct mc_zero_normals {
    uint64_t count, first_offset, first_vertex;
} mc_zero_normals;

static inline void mc_zero_normals_add(mc_zero_normals *z, uint64_t offset, uint64_t vertex)
{
    if (z->count++ == 0) {
        z->first_offset = offset;
        z->first_vertex = vertex;
    }
}

/* The folded warning's message; where names the mesh ("mesh 2"). */
void mc_zero_normals_msg(mc_instance *in, const mc_zero_normals *z, const char *where,
                         uint64_t vertices);

/*
 * The one judgement of a float normal, for every format that stores them:
 * NaN or infinity in any component is NOT_FINITE; (0, 0, 0) is ZERO ("no
 * normal", folded by mc_zero_normals); a length within 1 +- unit_tolerance
 * (mc_is_unit) is UNIT; any other length is NOT_UNIT. The clean path
 * (mc_surely_unit) answers UNIT first with no square root; it never says
 * UNIT where mc_is_unit would not.
 */
typedef enum mc_normal_kind {
    MC_NORMAL_UNIT,
    MC_NORMAL_ZERO,
    MC_NORMAL_NOT_UNIT,
    MC_NORMAL_NOT_FINITE
} mc_normal_kind;

static inline mc_normal_kind mc_normal_judge(const mc_ctx *c, const float n[3])
{
    if (mc_surely_unit(n, 3, c->unit)) return MC_NORMAL_UNIT;
    if (!mc_all_finite(n, 3)) return MC_NORMAL_NOT_FINITE;
    if (mc_all_zero(n, 3)) return MC_NORMAL_ZERO;
    return mc_is_unit(n, 3, c->opt->unit_tolerance) ? MC_NORMAL_UNIT : MC_NORMAL_NOT_UNIT;
}

#endif
