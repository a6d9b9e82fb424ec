/* Float checks shared by the format modules. */
#ifndef MC_NUMERIC_H
#define MC_NUMERIC_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

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
 * Whether the 3x3 linear part of a column-major 4x4 matrix is invertible.
 * Judged relative to the column lengths (|det| / (|c0| |c1| |c2|), the sine
 * of the volume the columns span), so a uniformly tiny scale is still
 * invertible while nearly parallel columns are not.
 */
bool mc_mat4_linear_invertible(const float m[16]);

#endif
