/* LzmaEnc.c of the LZMA SDK with the mcm_ names (mcm_lzma.h). */
#include "mcm_lzma.h"
#include "LzmaEnc.c"
