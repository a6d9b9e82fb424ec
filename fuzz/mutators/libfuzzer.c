/*
 * libFuzzer adapter: LLVMFuzzerCustomMutator for the mc_fuzz_<fmt>_sa
 * targets (the harness, fuzz_validate.c, is the same as mc_fuzz_<fmt>).
 * Built with -DMCM_MUTATE=mcm_mutate_<fmt>. A quarter of the calls go to
 * libFuzzer's own byte-level mutator (which also uses the dictionary and
 * the comparison tables), and so does any call the structure-aware mutator
 * returns nothing from.
 */
#include <stddef.h>
#include <stdint.h>

#include "mcm.h"

#ifndef MCM_MUTATE
#error "build with -DMCM_MUTATE=mcm_mutate_<format>"
#endif

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (seed % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
    size_t n = MCM_MUTATE(data, size, max_size, seed / 4);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
}
