/*
 * AEM in the current upstream layout ("2025", docs/formats/aem2025.md): a
 * 52-byte header (u32 vertex and index counts, a u64 image buffer size,
 * seven u32 counts, a u32 padding), then ten arrays of fixed-size elements
 * in header order, the image buffer's elements bytes. The aem target's
 * mutator hands a file here when the 2025 arithmetic fits its size better
 * than aem1's (the validator's rule), so both layouts share seeds
 * (corpus/aem) and the dictionary. Each array is a group counted by its
 * header field (the image buffer by the low half of its u64), so an added
 * or removed element keeps the file framed; fields mutate by kind, names
 * as opaque words plus the bytes around their NUL.
 */
#include <stdlib.h>
#include <string.h>

#include "mc_reader.h"
#include "mcm.h"

enum { HEADER = 52, NAME = 128 };

/* Element size and shape of each section, in file order. */
static const struct {
    size_t size;
    const char *shape;
    size_t count_off;
} sections[10] = {
    {88, "ffffffffffffffiiiiffff", 4},                                                  /* vertex */
    {4, "u", 8},                                                                        /* index */
    {1, "b", 12},                                                                       /* image byte */
    {32, "uuuuuuuu", 20},                                                               /* texture: offset (2), w, h, wrap x/y, channels, compression */
    {12, "uuu", 24},                                                                    /* mesh */
    {16, "uuuu", 28},                                                                   /* material */
    {196, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxffffffffffffffffi", 32},                    /* joint: name, matrix, parent */
    {132, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxf", 36},                                    /* animation: name, duration */
    {16, "uuuu", 40},                                                                   /* track */
    {20, "fffff", 44},                                                                  /* keyframe */
};

/* The size the 2025 header's counts imply, saturating at UINT64_MAX. */
static uint64_t implied_2025(const uint8_t *d, size_t size)
{
    if (size < HEADER) return UINT64_MAX;
    uint64_t end = HEADER;
    for (unsigned s = 0; s < 10; s++) {
        uint64_t n = s == 2 ? mc_le64(d + 12) : mc_le32(d + sections[s].count_off);
        if (!mc_add_mul_u64(&end, n, sections[s].size)) return UINT64_MAX;
    }
    return end;
}

static uint64_t implied_aem1(const uint8_t *d, size_t size)
{
    static const uint32_t rec[9] = {92, 4, 128, 12, 12, 80, 136, 24, 20};
    if (size < 40) return UINT64_MAX;
    uint64_t end = 40;
    for (unsigned s = 0; s < 9; s++)
        if (!mc_add_mul_u64(&end, mc_le32(d + 4 + 4 * s), rec[s])) return UINT64_MAX;
    return end;
}

static uint64_t distance(uint64_t end, size_t size)
{
    return end > size ? end - size : size - end;
}

bool mcm_aem_is_2025(const uint8_t *data, size_t size)
{
    return size >= HEADER && distance(implied_2025(data, size), size) < distance(implied_aem1(data, size), size);
}

/* A name's NUL and the byte after it: where the terminator and trailing
 * byte rules sit (the first few records; fields are few). */
static void name_fields(mcm_layout *l, const uint8_t *d, size_t at, size_t n, size_t elem)
{
    for (size_t i = 0; i < n && i < 4; i++) {
        const uint8_t *name = d + at + i * elem;
        const uint8_t *nul = memchr(name, 0, NAME);
        size_t k = nul ? (size_t)(nul - name) : NAME - 1;
        mcm_add_field(l, at + i * elem + k, 1, 'c');
        if (k + 1 < NAME) mcm_add_field(l, at + i * elem + k + 1, 1, 'c');
    }
}

static void parse(mcm_layout *l, const uint8_t *d, size_t size, void *ctx)
{
    (void)ctx;
    mcm_add_field(l, 3, 1, 'b');   /* version */
    mcm_add_field(l, 16, 4, 'u');  /* image size, high half */
    mcm_add_field(l, 48, 4, 'u');  /* padding */
    size_t at = HEADER;
    for (unsigned s = 0; s < 10; s++) {
        size_t count_off = sections[s].count_off;
        mcm_add_field(l, count_off, 4, 'n');
        uint64_t count = s == 2 ? mc_le64(d + 12) : mc_le32(d + count_off);
        size_t room = at <= size ? (size - at) / sections[s].size : 0;
        size_t n = count < room ? (size_t)count : room; /* lenient: what is there */
        if (n == 0) {
            if (count != 0) break; /* the rest is not where the header says */
            continue;
        }
        mcm_add_group(l, at, sections[s].size, n, count_off, 4, sections[s].shape);
        if (s == 6 || s == 7) name_fields(l, d, at, n, sections[s].size);
        at += n * sections[s].size;
        if (n < count) break;
    }
}

size_t mcm_mutate_aem2025(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    if (size > max_size) size = max_size;
    if (size < HEADER || data[0] != 'A' || data[1] != 'E' || data[2] != 'M' || mcm_chance(&r, 16))
        return mcm_bytes(&r, data, size, max_size);
    return mcm_layout_run(parse, NULL, &r, data, size, max_size);
}

size_t mcm_cut_aem2025(uint8_t *data, size_t size, size_t k)
{
    return size < HEADER ? 0 : mcm_layout_cut(parse, NULL, data, size, k);
}
