/* Driver internals shared by validate.c and io.c. */
#ifndef MC_VALIDATE_H
#define MC_VALIDATE_H

#include "mc_check.h"

/* Fills s from options (NULL: every default). */
void mc_settings_resolve(mc_settings *s, const mc_options *options);
mc_status mc_ctx_begin(mc_ctx *c, const uint8_t *data, size_t size, const mc_settings *opt,
                       mc_info *info);
mc_status mc_ctx_finish(mc_ctx *c, mc_result *r);
mc_result *mc_result_new(void);
/* Validates size bytes of a file_size-byte file; file_size > size only for
 * a file too large to map, which is reported without reading it. */
mc_status mc_validate_sized(const uint8_t *data, size_t size, uint64_t file_size,
                            const mc_settings *settings, mc_result **out);

#endif
