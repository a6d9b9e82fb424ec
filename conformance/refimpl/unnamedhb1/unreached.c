/*
 * The console SDK's GTE/GPU routines and the game's renderer hooks that the
 * runtime's drawing code calls. The adapter never draws, so none is reached:
 * each aborts if it ever is. (Own code: names only, from the link errors.)
 */
#include <stdio.h>
#include <stdlib.h>

#define UNREACHED(name)                                                        \
    void name(void);                                                           \
    void name(void)                                                            \
    {                                                                          \
        fprintf(stderr, "unreached SDK routine %s called\n", #name);          \
        abort();                                                               \
    }

UNREACHED(CompMatrixLV) UNREACHED(MulMatrix0) UNREACHED(ScaleMatrix)
UNREACHED(gte_SetLightMatrix) UNREACHED(gte_SetRotMatrix) UNREACHED(gte_SetTransMatrix)
UNREACHED(gte_avsz3) UNREACHED(gte_avsz4) UNREACHED(gte_dpcs) UNREACHED(gte_dpct)
UNREACHED(gte_lddp) UNREACHED(gte_ldrgb) UNREACHED(gte_ldrgb3) UNREACHED(gte_ldv0)
UNREACHED(gte_ldv3c) UNREACHED(gte_nclip) UNREACHED(gte_rtps) UNREACHED(gte_rtpt)
UNREACHED(gte_stopz) UNREACHED(gte_stotz) UNREACHED(gte_strgb) UNREACHED(gte_strgb3)
UNREACHED(gte_stsxy) UNREACHED(gte_stsxy3c) UNREACHED(gte_stsz) UNREACHED(gte_stsz3c)
UNREACHED(new_primitive) UNREACHED(new_primitive_reserved) UNREACHED(push_primitive)
UNREACHED(push_primitive_pre) UNREACHED(quad_clip) UNREACHED(tri_clip)
UNREACHED(setPolyF3) UNREACHED(setPolyFT4) UNREACHED(setPolyG4) UNREACHED(setPolyGT4)
UNREACHED(setRGB0) UNREACHED(setRGB1) UNREACHED(setRGB2) UNREACHED(setRGB3)
UNREACHED(setSemiTrans) UNREACHED(setUV4) UNREACHED(setXY3) UNREACHED(setXY4)
UNREACHED(sincos_t)
