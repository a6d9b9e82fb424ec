/*
 * AFL++ custom mutator library (AFL_CUSTOM_MUTATOR_LIBRARY): afl_custom_init,
 * afl_custom_fuzz, afl_custom_deinit. The format is the library's build
 * default (-DMCM_DEFAULT_FORMAT=e3d, one library per format) unless the
 * environment variable MCM_FORMAT names another (auto, aem, semodel, aamf,
 * e3d, nlm). The library owns its output buffer, as the API asks.
 * Compiled without AFL instrumentation: it runs inside afl-fuzz, not in the
 * target.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcm.h"

#ifndef MCM_DEFAULT_FORMAT
#define MCM_DEFAULT_FORMAT auto
#endif
#define MCM_STR2(x) #x
#define MCM_STR(x) MCM_STR2(x)

typedef struct {
    mcm_mutator fn;
    uint8_t *buf;
    size_t cap;
    unsigned seed;
} mcm_afl;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    mcm_afl *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    const char *name = getenv("MCM_FORMAT");
    m->fn = mcm_find(name && *name ? name : MCM_STR(MCM_DEFAULT_FORMAT));
    if (!m->fn) m->fn = mcm_mutate_auto;
    m->seed = seed;
    return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size)
{
    (void)add_buf;
    (void)add_buf_size;
    mcm_afl *m = data;
    size_t cap = max_size > buf_size ? max_size : buf_size;
    if (cap > m->cap) {
        uint8_t *b = realloc(m->buf, cap ? cap : 1);
        if (!b) {
            *out_buf = buf; /* unchanged input: afl-fuzz moves on */
            return buf_size;
        }
        m->buf = b;
        m->cap = cap;
    }
    if (buf_size) memcpy(m->buf, buf, buf_size);
    size_t n = m->fn(m->buf, buf_size < max_size ? buf_size : max_size, max_size, m->seed++);
    *out_buf = m->buf;
    return n;
}

void afl_custom_deinit(void *data)
{
    mcm_afl *m = data;
    if (!m) return;
    free(m->buf);
    free(m);
}
