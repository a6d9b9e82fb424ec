/* A growable little-endian byte buffer for writing model files, and the
 * mechanics every builder of a model description shares. */
#ifndef MCB_BUF_H
#define MCB_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mcb_buf {
    uint8_t *data;
    size_t size, cap;
    bool oom; /* sticky: a failed append leaves the buffer short */
} mcb_buf;

void mcb_bytes(mcb_buf *b, const void *p, size_t n);
void mcb_zeros(mcb_buf *b, size_t n);
void mcb_u8(mcb_buf *b, uint8_t v);
void mcb_u16(mcb_buf *b, uint16_t v);
void mcb_u32(mcb_buf *b, uint32_t v);
void mcb_i32(mcb_buf *b, int32_t v);
void mcb_f32(mcb_buf *b, float v);
void mcb_f32s(mcb_buf *b, const float *v, size_t n);
/* Overwrites 4 bytes at off (must lie inside the buffer). */
void mcb_put_u32(mcb_buf *b, size_t off, uint32_t v);
void mcb_put_f32(mcb_buf *b, size_t off, float v);
void mcb_free(mcb_buf *b);
/* Writes the buffer to path; 0 on success. */
int mcb_write_file(const mcb_buf *b, const char *path);

/* Grows or shrinks the array *p of `old` elements of `elem` bytes to n,
 * zeroing new ones (n 0 keeps a valid pointer); 0 on success, -1 when out
 * of memory or n elements do not fit a size_t (*p is then unchanged). */
int mcb_resize(void **p, size_t elem, uint64_t old, uint64_t n);
/* Column-major 4x4 identity. */
void mcb_identity(float m[16]);

#endif
