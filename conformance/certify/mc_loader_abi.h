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
 *
 * How certify calls it (docs/CERTIFY.md, "Library loaders: the ABI"):
 *   - the library is never dlopen'ed in certify's own process: a first child
 *     dlopens it (RTLD_NOW | RTLD_LOCAL) and looks MC_CERTIFY_SYMBOL up; a
 *     missing library or symbol makes certify exit 2 before any case runs, a
 *     constructor that exits, crashes or hangs makes every case a crash
 *     "while loading the library";
 *   - for each case certify forks; the child, leader of its own process
 *     group, with stdout and stderr on pipes and stdin on /dev/null, dlopens
 *     the library, calls the function once, writes its answer to a pipe,
 *     prints the reason to stderr on rejection, and exits with exit(), so
 *     atexit handlers and, in sanitizer builds, LeakSanitizer run; the answer,
 *     not the exit status, is the verdict (a child that ends before answering
 *     crashed); a signal, a sanitizer report on stderr or the --timeout
 *     deadline decide the case as crash or hang instead;
 *   - the environment is certify's: settings may be passed through it. State
 *     the function leaves behind dies with the child.
 */
#ifndef MC_LOADER_ABI_H
#define MC_LOADER_ABI_H

#include <stddef.h>

#define MC_CERTIFY_SYMBOL "mc_certify_load"

typedef int (*mc_certify_load_fn)(const char *format, const unsigned char *data, size_t size,
                                  char *reason, size_t reason_size);

#endif
