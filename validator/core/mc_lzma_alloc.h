/*
 * The LZMA SDK's allocator interface over malloc and free, for every user
 * of the SDK in the project (the validator's E3D decoder, the E3D builder's
 * encoder, the fuzz mutators' re-encoder). Include after the SDK's
 * 7zTypes.h (LzmaDec.h or LzmaEnc.h).
 */
#ifndef MC_LZMA_ALLOC_H
#define MC_LZMA_ALLOC_H

#include <stdlib.h>

static inline void *mc_lzma_alloc(void *p, size_t size)
{
    (void)p;
    return size ? malloc(size) : NULL;
}

static inline void mc_lzma_free(void *p, void *address)
{
    (void)p;
    free(address);
}

/* ISzAlloc alloc = MC_LZMA_ALLOCATOR; */
#define MC_LZMA_ALLOCATOR {mc_lzma_alloc, mc_lzma_free}

#endif
