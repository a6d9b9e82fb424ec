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
#include <sys/types.h>

typedef struct mc_file_bytes {
    const uint8_t *data; /* size bytes (never NULL once open) */
    size_t size;
    void *map;           /* the mapping, or NULL: data is a copy in memory */
    int slot;            /* the mapping's guard slot */
    const char *kind;    /* refused as MC_FILE_NOT_REGULAR or EISDIR: what it is */
} mc_file_bytes;

/* mc_file_bytes_open's answer for a FIFO, a device or a socket: never an
 * errno (they are positive). */
#define MC_FILE_NOT_REGULAR (-1)

/* What a file of that mode is, as the refusals name it: "a FIFO", "a
 * character device", "a directory"... */
const char *mc_file_kind(mode_t mode);

/* The bytes of path ("-": standard input), at most max_bytes, read the way
 * validation reads them: a path that is no regular file is refused before
 * it is opened (a FIFO's open would wait for a writer, /dev/zero's read
 * never ends), a regular file over max_bytes before it is read. 0, or
 * MC_FILE_NOT_REGULAR (out->kind says what it is), or an errno: of the
 * open or a read, EISDIR (out->kind set), EFBIG over max_bytes, ENOMEM. */
int mc_file_bytes_open(const char *path, uint64_t max_bytes, mc_file_bytes *out);
/* Releases the bytes. 1 when the file was cut short under the mapping
 * while they were read (what was read is not the file), else 0. */
int mc_file_bytes_close(mc_file_bytes *f);

#endif
