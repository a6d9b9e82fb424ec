/* Shim (see psxgte.h): GPU primitive types with the console's field order. */
#ifndef MC_SHIM_PSXGPU_H
#define MC_SHIM_PSXGPU_H

#include <stddef.h>
#include <stdint.h>

typedef struct { int16_t x, y, w, h; } RECT;
typedef struct { RECT disp; RECT screen; uint8_t isinter, isrgb24, reverse, pad; } DISPENV;
typedef struct { RECT clip; int16_t ofs[2]; RECT tw; uint16_t tpage; uint8_t dtd, dfe, isbg, r0, g0, b0; int dr_env[16]; } DRAWENV;

typedef struct { uint32_t tag; uint8_t r0, g0, b0, code; int16_t x0, y0, x1, y1, x2, y2; } POLY_F3;
typedef struct { uint32_t tag; uint8_t r0, g0, b0, code; int16_t x0, y0, x1, y1, x2, y2, x3, y3; } POLY_F4;
typedef struct {
    uint32_t tag; uint8_t r0, g0, b0, code;
    int16_t x0, y0; uint8_t u0, v0; uint16_t clut;
    int16_t x1, y1; uint8_t u1, v1; uint16_t tpage;
    int16_t x2, y2; uint8_t u2, v2; uint16_t pad;
} POLY_FT3;
typedef struct {
    uint32_t tag; uint8_t r0, g0, b0, code;
    int16_t x0, y0; uint8_t u0, v0; uint16_t clut;
    int16_t x1, y1; uint8_t u1, v1; uint16_t tpage;
    int16_t x2, y2; uint8_t u2, v2; uint16_t pad0;
    int16_t x3, y3; uint8_t u3, v3; uint16_t pad1;
} POLY_FT4;
typedef struct {
    uint32_t tag; uint8_t r0, g0, b0, code; int16_t x0, y0;
    uint8_t r1, g1, b1, pad1; int16_t x1, y1;
    uint8_t r2, g2, b2, pad2; int16_t x2, y2;
} POLY_G3;
typedef struct {
    uint32_t tag; uint8_t r0, g0, b0, code; int16_t x0, y0;
    uint8_t r1, g1, b1, pad1; int16_t x1, y1;
    uint8_t r2, g2, b2, pad2; int16_t x2, y2;
    uint8_t r3, g3, b3, pad3; int16_t x3, y3;
} POLY_G4;
typedef struct {
    uint32_t tag; uint8_t r0, g0, b0, code;
    int16_t x0, y0; uint8_t u0, v0; uint16_t clut;
    uint8_t r1, g1, b1, p1; int16_t x1, y1; uint8_t u1, v1; uint16_t tpage;
    uint8_t r2, g2, b2, p2; int16_t x2, y2; uint8_t u2, v2; uint16_t pad2;
} POLY_GT3;
typedef struct {
    uint32_t tag; uint8_t r0, g0, b0, code;
    int16_t x0, y0; uint8_t u0, v0; uint16_t clut;
    uint8_t r1, g1, b1, p1; int16_t x1, y1; uint8_t u1, v1; uint16_t tpage;
    uint8_t r2, g2, b2, p2; int16_t x2, y2; uint8_t u2, v2; uint16_t pad2;
    uint8_t r3, g3, b3, p3; int16_t x3, y3; uint8_t u3, v3; uint16_t pad3;
} POLY_GT4;

#endif
