#include <float.h>

#include "mc_numeric.h"

bool mc_mat4_linear_invertible(const float m[16])
{
    /* column-major: column j is m[4j .. 4j+2] */
    double a = m[0], b = m[4], c = m[8];
    double d = m[1], e = m[5], f = m[9];
    double g = m[2], h = m[6], i = m[10];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    double n0 = mc_length(m, 3), n1 = mc_length(m + 4, 3), n2 = mc_length(m + 8, 3);
    double scale = n0 * n1 * n2;
    if (!(scale > 0.0) || !isfinite(det)) return false;
    return fabs(det) / scale > 1e-6;
}

mc_unit_bounds mc_unit_bounds_make(double tolerance)
{
    double lo = 1.0 - tolerance, hi = 1.0 + tolerance;
    double lo2 = lo > 0.0 ? lo * lo * (1.0 + 1e-6) : 0.0, hi2 = hi * hi * (1.0 - 1e-6);
    /* never vouch for a zero (or subnormal) vector: some checks tell zero apart */
    if (lo2 < FLT_MIN) lo2 = FLT_MIN;
    /* an overflowing sum (inf) must fall outside: the exact check decides */
    if (hi2 > FLT_MAX) hi2 = FLT_MAX;
    mc_unit_bounds b = {(float)lo2, (float)hi2};
    return b;
}
