/* Validating an ordered list of files on several threads (-j). */
#ifndef MC_JOBS_H
#define MC_JOBS_H

#include <stddef.h>

#include "modelcheck.h"

/* Receives the result of paths[index] on the calling thread, in list order.
 * result may be NULL (see mc_validate_path); it is freed when the callback
 * returns, so the callback must not keep it. */
typedef void (*mc_jobs_deliver)(void *ctx, size_t index, mc_result *result, mc_status status);

/* Validates paths[0..count), paths[i] with options[i], on up to `workers`
 * threads (the calling thread is one of them) and delivers each result in list order, so what the
 * callback writes does not depend on `workers`. At most `workers` files are
 * being validated (read or mapped) at once and at most max(2 x workers, 256)
 * results wait for delivery: memory is bounded by the number of workers,
 * not by count. With
 * workers <= 1, or when no thread can be started, the files are validated
 * one by one on the calling thread. listed (NULL: none) marks the paths a
 * directory listing showed as regular files (mc_validate_listed_path). */
void mc_jobs_validate(const char *const *paths, const unsigned char *listed, size_t count,
                      const mc_options *const *options, unsigned workers,
                      mc_jobs_deliver deliver, void *ctx);

/* The default for -j: the number of online CPUs (1 if unknown). */
unsigned mc_jobs_default(void);

#endif
