/*
 * The shape of a format module: content detection and validation. Each
 * module lives in validator/formats/<name>.c and is listed once in
 * validate.c.
 */
#ifndef MC_FORMAT_H
#define MC_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mc_check.h"

typedef struct mc_format_module {
    mc_format format;
    const char *display_name; /* "AEM" */
    /* True when the bytes are this format's (magic or structure). */
    bool (*detect)(const uint8_t *data, size_t size);
    /* Validates c->data; records issues and fills c->info and c->layout. */
    void (*validate)(mc_ctx *c);
} mc_format_module;

extern const mc_format_module mc_aem_module;
extern const mc_format_module mc_semodel_module;
extern const mc_format_module mc_aamf_module;
extern const mc_format_module mc_e3d_module;
extern const mc_format_module mc_nlm_module;

#endif
