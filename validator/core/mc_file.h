/*
 * A file's bytes for a reader that keeps them while it works (modelcheck
 * inspect, the byte dumps of a text report), got the way validation gets
 * them (io.c): a regular file over 64 KiB through a read-only mapping
 * guarded against the file being cut short, anything else (a small file,
 * standard input, a pipe) read into memory; never more than a limit.
 */
#ifndef MC_FILE_H
#define MC_FILE_H

#include <stddef.h>
#include <stdint.h>

typedef struct mc_file_bytes {
    const uint8_t *data; /* size bytes (never NULL once open) */
    size_t size;
    void *map;           /* the mapping, or NULL: data is a copy in memory */
    int slot;            /* the mapping's guard slot */
} mc_file_bytes;

/* The bytes of path ("-": standard input), at most max_bytes. 0, or an
 * errno: of the open or a read, EFBIG over max_bytes, ENOMEM. */
int mc_file_bytes_open(const char *path, uint64_t max_bytes, mc_file_bytes *out);
/* Releases the bytes. 1 when the file was cut short under the mapping
 * while they were read (what was read is not the file), else 0. */
int mc_file_bytes_close(mc_file_bytes *f);

#endif
