#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcb_buf.h"

static uint8_t *reserve(mcb_buf *b, size_t n)
{
    if (b->oom) return NULL;
    if (n > b->cap - b->size) {
        size_t cap = b->cap ? b->cap : 256;
        while (n > cap - b->size) {
            if (cap > SIZE_MAX / 2) {
                b->oom = true;
                return NULL;
            }
            cap *= 2;
        }
        uint8_t *d = realloc(b->data, cap);
        if (!d) {
            b->oom = true;
            return NULL;
        }
        b->data = d;
        b->cap = cap;
    }
    uint8_t *p = b->data + b->size;
    b->size += n;
    return p;
}

void mcb_bytes(mcb_buf *b, const void *p, size_t n)
{
    uint8_t *d = reserve(b, n);
    if (d && n) memcpy(d, p, n);
}

void mcb_zeros(mcb_buf *b, size_t n)
{
    uint8_t *d = reserve(b, n);
    if (d && n) memset(d, 0, n);
}

void mcb_u8(mcb_buf *b, uint8_t v)
{
    mcb_bytes(b, &v, 1);
}

void mcb_u16(mcb_buf *b, uint16_t v)
{
    uint8_t le[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    mcb_bytes(b, le, 2);
}

static void le32(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)v;
    d[1] = (uint8_t)(v >> 8);
    d[2] = (uint8_t)(v >> 16);
    d[3] = (uint8_t)(v >> 24);
}

void mcb_u32(mcb_buf *b, uint32_t v)
{
    uint8_t le[4];
    le32(le, v);
    mcb_bytes(b, le, 4);
}

void mcb_i32(mcb_buf *b, int32_t v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    mcb_u32(b, u);
}

void mcb_f32(mcb_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    mcb_u32(b, u);
}

void mcb_f32s(mcb_buf *b, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) mcb_f32(b, v[i]);
}

void mcb_put_u32(mcb_buf *b, size_t off, uint32_t v)
{
    if (off <= b->size && 4 <= b->size - off) le32(b->data + off, v);
}

void mcb_put_f32(mcb_buf *b, size_t off, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    mcb_put_u32(b, off, u);
}

void mcb_free(mcb_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

int mcb_write_file(const mcb_buf *b, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = b->size ? fwrite(b->data, 1, b->size, f) : 0;
    int rc = fclose(f);
    return (w == b->size && rc == 0 && !b->oom) ? 0 : -1;
}

int mcb_resize(void **p, size_t elem, uint64_t old, uint64_t n)
{
    if (n > (SIZE_MAX - 1) / elem) return -1;
    void *q = realloc(*p, (size_t)(n ? n : 1) * elem);
    if (!q) return -1;
    if (n > old) memset((char *)q + old * elem, 0, (size_t)(n - old) * elem);
    *p = q;
    return 0;
}

void mcb_identity(float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}
