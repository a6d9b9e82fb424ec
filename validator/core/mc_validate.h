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
/* mc_validate_sized with a structure sink attached (mc_inspect). */
mc_status mc_validate_sink(const uint8_t *data, size_t size, uint64_t file_size,
                           const mc_settings *settings, mc_sink *sink, mc_result **out);

/* Guarded mappings (guard.c): registers size bytes mapped at base, so that
 * a SIGBUS inside them (the file was truncated) is survived. Returns the
 * slot, or -1 when none is free or no handler could be installed (do not
 * map then). mc_guard_unmap frees the slot before munmap and returns 1 when
 * a fault happened (the bytes read are not the file's). */
int mc_guard_map(void *base, size_t size);
int mc_guard_unmap(int slot);

#ifdef MC_EXTERNAL_SHA256
/* The SHA-256 of a file's bytes where the library has no OpenSSL (the
 * WebAssembly build, web/): defined by the program it is linked into. 0 with
 * the digest in out, or -1 when that program hashes the bytes itself and
 * fills the result in later (the page: WebCrypto is asynchronous). */
int mc_platform_sha256(const uint8_t *data, size_t size, unsigned char out[32]);
#endif

/* mc_validate_path with a hook called once the file is open and mapped (or,
 * when small, about to be read into memory), before it is read: tests
 * truncate the file there. */
mc_status mc_validate_path_hooked(const char *path, const mc_options *options, mc_result **out,
                                  void (*mapped)(void *arg), void *arg);

#endif
