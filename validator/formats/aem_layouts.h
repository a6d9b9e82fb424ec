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

/* The weight rules of a vertex slot both layouts share (aem.md, Vertex
 * Section; docs/formats/aem2025.md, Vertex Section): the weight lies in
 * [0, 1], and a slot whose index is -1 has weight 0. The codes are each
 * layout's; word names the index in the messages ("bone", "joint"). wat is
 * the weight's offset, i the vertex, j the slot, b its index. Returns false
 * for an unused slot (index -1): the index rules do not apply to it. */
typedef struct mc_aem_slot_codes {
    mc_code weight_range, unused_slot_weight;
    const char *word;
} mc_aem_slot_codes;

bool mc_aem_slot_weight(mc_ctx *c, const mc_aem_slot_codes *codes, uint64_t wat, uint64_t i,
                        int j, float w, int32_t b);

/* inspect: the current node is the header of a 2025 file; give it the
 * 2025 size and fields (a no-op without a sink). */
void mc_aem2025_report_header(mc_ctx *c);

#endif
