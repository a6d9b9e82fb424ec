/*
 * Bounded little-endian reading and overflow-checked size arithmetic: the
 * only way format modules touch file bytes.
 *
 * A reader is a window [p, p + size) with a cursor. Every read checks that
 * the bytes exist (subtracting on the safe side, never adding to the cursor
 * first); a failed read returns 0, leaves the cursor where it was and sets
 * the sticky `fail` flag, so a record can be read field by field and tested
 * once at the end.
 */
#ifndef MC_READER_H
#define MC_READER_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A little-endian host reads the file's numbers by copying their bytes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MC_HOST_LE 1
#else
#define MC_HOST_LE 0
#endif

typedef struct mc_reader {
    const uint8_t *p;
    size_t size;
    size_t pos;
    bool fail;
} mc_reader;

static inline mc_reader mc_reader_make(const uint8_t *p, size_t size)
{
    mc_reader r = {p, size, 0, false};
    return r;
}

static inline size_t mc_reader_left(const mc_reader *r)
{
    return r->size - r->pos;
}

/* True when n more bytes can be read; otherwise marks the reader failed. */
static inline bool mc_reader_need(mc_reader *r, size_t n)
{
    if (r->fail || n > r->size - r->pos) {
        r->fail = true;
        return false;
    }
    return true;
}

/* True when count records of size bytes remain (false on overflow, or when
 * the reader has failed); the reader is left as it is. */
static inline bool mc_reader_fits(const mc_reader *r, uint64_t count, uint64_t size)
{
    uint64_t need;
    if (r->fail || __builtin_mul_overflow(count, size, &need)) return false;
    return need <= r->size - r->pos;
}

static inline uint16_t mc_le16(const uint8_t *b)
{
    return (uint16_t)(b[0] | (unsigned)b[1] << 8);
}

static inline uint32_t mc_le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t mc_le64(const uint8_t *b)
{
    return (uint64_t)mc_le32(b) | (uint64_t)mc_le32(b + 4) << 32;
}

static inline float mc_bits_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* The int16 and the float at b, little-endian: one load on a little-endian
 * host, which keeps the clean paths' loops vectorisable. */
static inline int16_t mc_le_i16(const uint8_t *b)
{
    uint16_t u = MC_HOST_LE ? 0 : mc_le16(b);
    if (MC_HOST_LE) memcpy(&u, b, sizeof u);
    int16_t v;
    memcpy(&v, &u, sizeof v); /* two's complement reinterpretation, no UB */
    return v;
}

static inline uint32_t mc_le32_bits(const uint8_t *b)
{
    uint32_t u = MC_HOST_LE ? 0 : mc_le32(b);
    if (MC_HOST_LE) memcpy(&u, b, sizeof u);
    return u;
}

static inline float mc_le_f32(const uint8_t *b)
{
    return mc_bits_f32(mc_le32_bits(b));
}

/* A float's bits: not NaN or infinite (not all exponent bits set). */
static inline bool mc_f32_bits_finite(uint32_t bits)
{
    return (bits & UINT32_C(0x7F800000)) != UINT32_C(0x7F800000);
}

static inline double mc_bits_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* IEEE 754 binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits;
 * exponent 0 holds zero and subnormals, 31 infinity and NaN. Exact in float. */
static inline float mc_half_to_f32(uint16_t h)
{
    unsigned exponent = (h >> 10) & 0x1Fu, fraction = h & 0x3FFu;
    float v;
    if (exponent == 31)
        v = fraction ? NAN : INFINITY;
    else if (exponent) /* a normal's bits moved into a float's place are the
                        * value times 2^-112; the power-of-two scale is exact
                        * and no libm call is needed (issue 16) */
        v = mc_bits_f32((uint32_t)(h & 0x7FFFu) << 13) * 0x1p112f;
    else /* a subnormal, built as a normal float: a float subnormal would
          * read as 0 in a caller running with denormals-are-zero */
        v = (float)fraction * 0x1p-24f;
    return (h & 0x8000u) ? -v : v;
}

static inline uint8_t mc_read_u8(mc_reader *r)
{
    if (!mc_reader_need(r, 1)) return 0;
    return r->p[r->pos++];
}

static inline uint16_t mc_read_u16(mc_reader *r)
{
    if (!mc_reader_need(r, 2)) return 0;
    uint16_t v = mc_le16(r->p + r->pos);
    r->pos += 2;
    return v;
}

static inline uint32_t mc_read_u32(mc_reader *r)
{
    if (!mc_reader_need(r, 4)) return 0;
    uint32_t v = mc_le32(r->p + r->pos);
    r->pos += 4;
    return v;
}

static inline uint64_t mc_read_u64(mc_reader *r)
{
    if (!mc_reader_need(r, 8)) return 0;
    uint64_t v = mc_le64(r->p + r->pos);
    r->pos += 8;
    return v;
}

static inline int16_t mc_read_i16(mc_reader *r)
{
    uint16_t u = mc_read_u16(r);
    int16_t v;
    memcpy(&v, &u, sizeof v); /* two's complement reinterpretation, no UB */
    return v;
}

static inline int32_t mc_read_i32(mc_reader *r)
{
    uint32_t u = mc_read_u32(r);
    int32_t v;
    memcpy(&v, &u, sizeof v); /* two's complement reinterpretation, no UB */
    return v;
}

static inline float mc_read_f32(mc_reader *r)
{
    return mc_bits_f32(mc_read_u32(r));
}

/* Reads n floats; all 0 on failure. */
static inline void mc_read_f32s(mc_reader *r, float *out, size_t n)
{
    /* little-endian host: the bytes are the floats; one bounds check and one
     * copy (a short window falls through to the field-by-field reads) */
    if (MC_HOST_LE && !r->fail && n <= (r->size - r->pos) / 4) {
        memcpy(out, r->p + r->pos, 4 * n);
        r->pos += 4 * n;
        return;
    }
    for (size_t i = 0; i < n; i++) out[i] = mc_read_f32(r);
}

/* Reads n int16 values; a short window reads as far as it goes, then 0s. */
static inline void mc_read_i16s(mc_reader *r, int16_t *out, size_t n)
{
    if (MC_HOST_LE && !r->fail && n <= (r->size - r->pos) / 2) { /* as mc_read_f32s */
        memcpy(out, r->p + r->pos, 2 * n);
        r->pos += 2 * n;
        return;
    }
    for (size_t i = 0; i < n; i++) out[i] = mc_read_i16(r);
}

/* A pointer to the next n bytes, advancing past them; NULL on failure. */
static inline const uint8_t *mc_read_bytes(mc_reader *r, size_t n)
{
    if (!mc_reader_need(r, n)) return NULL;
    const uint8_t *b = r->p + r->pos;
    r->pos += n;
    return b;
}

/* Copies the next n bytes into a struct with the record's layout (for a
 * little-endian host only: MC_HOST_LE); all 0 when they are not there. One
 * bounds check and one copy per record in the hot loops (issue 16). */
static inline void mc_read_record(mc_reader *r, void *out, size_t n)
{
    const uint8_t *b = mc_read_bytes(r, n);
    if (b) memcpy(out, b, n);
    else memset(out, 0, n);
}

/* A reader over the next n bytes, advancing past them; a failed (empty)
 * reader on failure. */
static inline mc_reader mc_read_sub(mc_reader *r, size_t n)
{
    const uint8_t *b = mc_read_bytes(r, n);
    mc_reader sub = {b, b ? n : 0, 0, b == NULL};
    return sub;
}

/* Moves the cursor to pos, which must lie inside the window. */
static inline bool mc_reader_seek(mc_reader *r, uint64_t pos)
{
    if (r->fail || pos > r->size) {
        r->fail = true;
        return false;
    }
    r->pos = (size_t)pos;
    return true;
}

static inline bool mc_reader_skip(mc_reader *r, size_t n)
{
    return mc_read_bytes(r, n) != NULL;
}

/* Checked arithmetic: false on overflow, *out untouched. */
static inline bool mc_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    uint64_t v;
    if (__builtin_mul_overflow(a, b, &v)) return false;
    *out = v;
    return true;
}

static inline bool mc_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    uint64_t v;
    if (__builtin_add_overflow(a, b, &v)) return false;
    *out = v;
    return true;
}

/* *acc += count * size, false on overflow. */
static inline bool mc_add_mul_u64(uint64_t *acc, uint64_t count, uint64_t size)
{
    uint64_t bytes;
    return mc_mul_u64(count, size, &bytes) && mc_add_u64(*acc, bytes, acc);
}

#endif
