/*
 * AEM (aem.md of github.com/janhsimon/aem): a 40-byte header of nine u32
 * counts, then nine arrays of fixed-size elements in header order. Each array
 * is a group counted by its header field, so an added or removed element
 * keeps the file framed; fields mutate by kind (floats, signed indices with
 * their -1 and 255 sentinels, counts, 128-byte names).
 */
#include <stdlib.h>

#include "mc_reader.h"
#include "mcm.h"

enum { AEM_HEADER = 40 };

/* Element size and shape of each section, in header order (aem.md). */
static const struct {
    size_t size;
    const char *shape;
} sections[9] = {
    {92, "ffffffffffffffiiiiffffi"},                 /* vertex */
    {4, "u"},                                        /* index */
    {128, "S"},                                      /* texture filename */
    {12, "uuu"},                                     /* mesh: first, count, material */
    {12, "iii"},                                     /* material texture indices */
    {80, "ffffffffffffffffixxx"},                    /* bone: matrix, parent, padding */
    {136, "S"},                                      /* animation (name, then duration, sequence) */
    {24, "uuuuuu"},                                  /* sequence */
    {20, "fffff"},                                   /* keyframe */
};

static void parse(mcm_layout *l, const uint8_t *d, size_t size, void *ctx)
{
    (void)ctx;
    mcm_add_field(l, 3, 1, 'b'); /* version */
    size_t at = AEM_HEADER;
    for (unsigned s = 0; s < 9; s++) {
        size_t count_off = 4 + 4 * (size_t)s;
        mcm_add_field(l, count_off, 4, 'n');
        uint32_t count = mc_le32(d + count_off);
        size_t room = at <= size ? (size - at) / sections[s].size : 0;
        size_t n = count < room ? count : room; /* lenient: what is there */
        if (n == 0) {
            if (count != 0) break; /* the rest is not where the header says */
            continue;
        }
        mcm_add_group(l, at, sections[s].size, n, count_off, 4, sections[s].shape);
        if (s == 6) /* an animation's duration and sequence index after its name */
            for (size_t i = 0; i < n && i < 16; i++) {
                mcm_add_field(l, at + i * 136 + 128, 4, 'f');
                mcm_add_field(l, at + i * 136 + 132, 4, 'u');
            }
        at += n * sections[s].size;
        if (n < count) break;
    }
}

size_t mcm_mutate_aem(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    /* the 2025 layout: its counts fit the size better (docs/formats/aem2025.md) */
    if (size <= max_size && mcm_aem_is_2025(data, size)) return mcm_mutate_aem2025(data, size, max_size, seed);
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    if (size > max_size) size = max_size;
    if (size < AEM_HEADER || data[0] != 'A' || data[1] != 'E' || data[2] != 'M' || mcm_chance(&r, 16))
        return mcm_bytes(&r, data, size, max_size);
    return mcm_layout_run(parse, NULL, &r, data, size, max_size);
}

size_t mcm_cut_aem(uint8_t *data, size_t size, size_t k)
{
    if (mcm_aem_is_2025(data, size)) return mcm_cut_aem2025(data, size, k);
    return size < AEM_HEADER ? 0 : mcm_layout_cut(parse, NULL, data, size, k);
}
