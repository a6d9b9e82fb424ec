/*
 * libaem @1a273aa calls three cglm functions that Debian 12's cglm 0.8.8
 * lacks (newer cglm has them). Force-included before libaem's sources so
 * its calls are declared; defined in adapter.c. Each copies 3, 4 or 16
 * floats from an array into a cglm vector, quaternion or matrix.
 */
#ifndef MC_REFIMPL_CGLM_COMPAT_H
#define MC_REFIMPL_CGLM_COMPAT_H

#include <cglm/cglm.h>

void glm_vec3_make(const float *src, vec3 dest);
void glm_quat_make(const float *src, versor dest);
void glm_mat4_make(const float *src, mat4 dest);

#endif
