/* Float checks shared by the format modules. */
#ifndef MC_NUMERIC_H
#define MC_NUMERIC_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * A hot function: a clean path's chunk function (called once per chunk of
 * records), or the walk of a section that calls it, stays a function of its
 * own in the WebAssembly build. V8 runs a module first as baseline code, and
 * gives a function that turns out hot optimised code only from its next call
 * on (WebAssembly has no on-stack replacement), compiled on a background
 * thread. Inlined into one call, a 100 MB walk would run baseline code to its
 * end, two to three times slower, and V8 would spend 20 to 40 ms optimising
 * the whole format validator, called once. As small functions, the chunk
 * function is optimised after the section's first megabytes and runs
 * optimised for the rest (docs/PERFORMANCE.md, "WebAssembly").
 * web/CMakeLists.txt keeps Binaryen from inlining them back. Native builds
 * inline as they see fit.
 */
#if defined(__wasm__)
#define MC_HOT_FN __attribute__((noinline))
#else
#define MC_HOT_FN
#endif

static inline bool mc_all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static inline bool mc_all_zero(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] != 0.0f) return false;
    return true;
}

/* Euclidean length in double, so float inputs near FLT_MAX do not overflow. */
static inline double mc_length(const float *v, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += (double)v[i] * (double)v[i];
    return sqrt(s);
}

static inline bool mc_is_unit(const float *v, size_t n, double tolerance)
{
    return fabs(mc_length(v, n) - 1.0) <= tolerance;
}

/*
 * The clean path of a unit-length check (issue 16): bounds on the float sum
 * of squares, narrowed by more than its rounding error (at most 4 terms,
 * relative error < 3e-7, narrowed by 1e-6), so a vector inside them passes
 * mc_is_unit whatever the rounding, with no square root and no double. A
 * vector outside them (or zero, NaN, or overflowing) is not judged: the
 * caller runs the exact check, which alone reports. A tolerance of 0 makes
 * the bounds empty.
 */
typedef struct mc_unit_bounds {
    float lo2, hi2;
} mc_unit_bounds;

mc_unit_bounds mc_unit_bounds_make(double tolerance);

static inline bool mc_surely_unit(const float *v, size_t n, mc_unit_bounds b)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += v[i] * v[i];
    return s >= b.lo2 && s <= b.hi2;
}

/*
 * Four records side by side (issue 16). The clean paths of the vertex
 * loops judge four records at a time: mc_lanes_block loads four 32-bit
 * words of each record in place (no copy, no struct) and transposes them,
 * so that lane k of w[j] is word j of record k, and every rule becomes the
 * same comparison made on four records at once. A record of 4n + m words
 * takes its last block at word 4n + m - 4, so no byte past the fourth
 * record is read. The masks are all-ones where a lane passes. SSE2 only
 * (part of every x86-64); other targets keep the per-record clean paths,
 * which mean the same. Host byte order: callers use the lanes on
 * little-endian hosts, as the formats are. FLT_EVAL_METHOD 0: where the
 * exact checks compute in wider precision (x87), a rule that repeats
 * their double arithmetic in lanes could round otherwise, so there are no
 * lanes.
 */
#if defined(__SSE2__) && defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#include <emmintrin.h>
#define MC_LANES 1

/* w[o..o + 4) from four records at p, p + stride, p + 2 stride, p + 3
 * stride: their words o to o + 3. */
static inline void mc_lanes_block(const unsigned char *p, size_t stride, unsigned o, __m128 *w)
{
    __m128 r0 = _mm_loadu_ps((const float *)(const void *)(p + 4u * o));
    __m128 r1 = _mm_loadu_ps((const float *)(const void *)(p + stride + 4u * o));
    __m128 r2 = _mm_loadu_ps((const float *)(const void *)(p + 2 * stride + 4u * o));
    __m128 r3 = _mm_loadu_ps((const float *)(const void *)(p + 3 * stride + 4u * o));
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    w[o] = r0;
    w[o + 1] = r1;
    w[o + 2] = r2;
    w[o + 3] = r3;
}

static inline __m128i mc_lanes_i32(__m128 w)
{
    return _mm_castps_si128(w);
}

/* Finite lanes: x - x is 0 for a finite x and NaN for NaN or infinity. */
static inline __m128 mc_lanes_finite(__m128 x)
{
    return _mm_cmpeq_ps(_mm_sub_ps(x, x), _mm_setzero_ps());
}

/* Lanes where lo <= x <= hi (never for NaN). */
static inline __m128 mc_lanes_within(__m128 x, float lo, float hi)
{
    return _mm_and_ps(_mm_cmpge_ps(x, _mm_set1_ps(lo)), _mm_cmple_ps(x, _mm_set1_ps(hi)));
}

/* mc_surely_unit of (x, y, z), four lanes at once, the float sum of squares
 * added in mc_surely_unit's order; the bounds would allow for the rounding
 * of any order (three non-negative terms, relative error below 3e-7, or an
 * FMA-contracted scalar loop), so a lane inside them passes mc_is_unit. */
static inline __m128 mc_lanes_surely_unit3(__m128 x, __m128 y, __m128 z, mc_unit_bounds b)
{
    __m128 s = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    return _mm_and_ps(_mm_cmpge_ps(s, _mm_set1_ps(b.lo2)), _mm_cmple_ps(s, _mm_set1_ps(b.hi2)));
}

/* Whether every lane of a mask is set. */
static inline bool mc_lanes_all(__m128 m)
{
    return _mm_movemask_ps(m) == 0xF;
}
#endif

/*
 * Whether the 3x3 linear part of a column-major 4x4 matrix is invertible.
 * Judged relative to the column lengths (|det| / (|c0| |c1| |c2|), the sine
 * of the volume the columns span), so a uniformly tiny scale is still
 * invertible while nearly parallel columns are not.
 */
bool mc_mat4_linear_invertible(const float m[16]);

#endif
