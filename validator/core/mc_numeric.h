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
 * Whether the 3x3 linear part of a column-major 4x4 matrix is invertible.
 * Judged relative to the column lengths (|det| / (|c0| |c1| |c2|), the sine
 * of the volume the columns span), so a uniformly tiny scale is still
 * invertible while nearly parallel columns are not.
 */
bool mc_mat4_linear_invertible(const float m[16]);

#endif
