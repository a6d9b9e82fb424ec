/*
 * Shim of the PSn00bSDK headers the UnnamedHB1 runtime includes, written for
 * modelcheck from the SDK's documented types (not copied from the SDK), so
 * its loaders build on Linux. Only what the loaders touch is real: the
 * vector, matrix and primitive types with the PlayStation's field widths and
 * order (a 32-bit build gives them the console's sizes, which the file
 * layouts depend on). GTE and GPU calls are declared as functions the
 * adapter never reaches (the drawing code is compiled, not run).
 */
#ifndef MC_SHIM_PSXGTE_H
#define MC_SHIM_PSXGTE_H

#include <stdint.h>

#define ONE 4096

typedef struct { int32_t vx, vy, vz, pad; } VECTOR;
typedef struct { int16_t vx, vy, vz, pad; } SVECTOR;
typedef struct { uint8_t r, g, b, cd; } CVECTOR;
typedef struct { int16_t vx, vy; } DVECTOR;
typedef struct { int16_t m[3][3]; int32_t t[3]; } MATRIX;

#define setVector(v, x, y, z) ((v)->vx = (x), (v)->vy = (y), (v)->vz = (z))

MATRIX *TransMatrix(MATRIX *m, VECTOR *v);
MATRIX *CompMatrixLV(MATRIX *a, MATRIX *b, MATRIX *out);
MATRIX *MulMatrix0(MATRIX *a, MATRIX *b, MATRIX *out);
MATRIX *RotMatrix(SVECTOR *r, MATRIX *m);
MATRIX *ScaleMatrix(MATRIX *m, VECTOR *s);
MATRIX *ScaleMatrixL(MATRIX *m, VECTOR *s);
MATRIX *MulMatrix(MATRIX *a, MATRIX *b);
void ApplyMatrixLV(MATRIX *m, VECTOR *v, VECTOR *out);
void PushMatrix(void);
void PopMatrix(void);
void InitGeom(void);

#endif
