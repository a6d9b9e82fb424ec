/*
 * The loader ABI of `modelcheck certify --library LIB.so`: the one C function
 * a loader library exports so certify can run it in-process (each file in a
 * fresh forked child, so a crash or hang is a verdict, not the end of the run).
 *
 *   int mc_certify_load(const char *format, const unsigned char *data,
 *                       size_t size, char *reason, size_t reason_size);
 *
 * format       "aem", "semodel", "aamf", "e3d" or "nlm" (the case's format)
 * data, size   the whole file, read-only
 * reason       a buffer of reason_size bytes (>= 1) for a NUL-terminated
 *              one-line reason when the file is rejected; may be left empty
 * returns      0 when the loader accepts the file (loaded it and its model is
 *              usable), any other value when it rejects it
 *
 * The function may allocate, but should free what it allocated; it must not
 * keep pointers into data after it returns.
 */
#ifndef MC_LOADER_ABI_H
#define MC_LOADER_ABI_H

#include <stddef.h>

#define MC_CERTIFY_SYMBOL "mc_certify_load"

typedef int (*mc_certify_load_fn)(const char *format, const unsigned char *data, size_t size,
                                  char *reason, size_t reason_size);

#endif
