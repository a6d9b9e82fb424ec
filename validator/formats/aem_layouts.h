/*
 * The AEM module's two layouts (docs/formats/aem2025.md, "Telling the
 * layouts apart"): aem1 (aem.md, formats/aem.c) and 2025 (upstream
 * readme.md at janhsimon/aem 42bd501, formats/aem2025.c). Both start with
 * "AEM" and version 1; formats/aem.c computes the size each layout's
 * header counts imply and hands a file whose 2025 arithmetic alone gives
 * its size to this layout.
 */
#ifndef MC_AEM_LAYOUTS_H
#define MC_AEM_LAYOUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mc_check.h"

/* The 2025 layout's header size: the readme's 48 bytes and a u32 padding. */
#define MC_AEM2025_HEADER_SIZE 52u

/* The file size the 2025 layout's header counts imply (UINT64_MAX on
 * overflow). False when the file is too short for that header. */
bool mc_aem2025_implied_size(const uint8_t *data, size_t size, uint64_t *end);

/* Neither layout fits and the 2025 layout's arithmetic is the nearer:
 * reports the one AEM_TRUNCATED or AEM_TRAILING_BYTES in its terms,
 * naming what the aem1 layout's counts imply (aem1_end). */
void mc_aem2025_report_size(mc_ctx *c, uint64_t aem1_end);

/* Validates a file whose 2025 arithmetic gives its size (magic and version
 * already checked); sets c->layout to "2025". */
void mc_aem2025_validate(mc_ctx *c);

/* inspect: the current node is the header of a 2025 file; give it the
 * 2025 size and fields (a no-op without a sink). */
void mc_aem2025_report_header(mc_ctx *c);

#endif
