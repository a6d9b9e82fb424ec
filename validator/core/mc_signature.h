/* Image-file signatures of embedded textures (NLM blobs, E3D texture blocks). */
#ifndef MC_SIGNATURE_H
#define MC_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool mc_starts_with(const uint8_t *b, size_t n, const uint8_t *sig, size_t len)
{
    return n >= len && memcmp(b, sig, len) == 0;
}

/* PNG: the 8-byte file signature. */
static inline bool mc_is_png(const uint8_t *b, size_t n)
{
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    return mc_starts_with(b, n, png, sizeof png);
}

/* JPEG: the SOI marker followed by the first marker's 0xff. */
static inline bool mc_is_jpeg(const uint8_t *b, size_t n)
{
    static const uint8_t jpeg[3] = {0xff, 0xd8, 0xff};
    return mc_starts_with(b, n, jpeg, sizeof jpeg);
}

/* JPEG 2000: the JP2 signature box, or a raw codestream's SOC + SIZ markers. */
static inline bool mc_is_jpeg2000(const uint8_t *b, size_t n)
{
    static const uint8_t jp2[12] = {0, 0, 0, 0x0c, 'j', 'P', ' ', ' ', 0x0d, 0x0a, 0x87, 0x0a};
    static const uint8_t j2c[4] = {0xff, 0x4f, 0xff, 0x51};
    return mc_starts_with(b, n, jp2, sizeof jp2) || mc_starts_with(b, n, j2c, sizeof j2c);
}

#endif
