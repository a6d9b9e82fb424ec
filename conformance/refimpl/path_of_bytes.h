/*
 * For the adapters of C readers that only open paths (libaem/adapter.c,
 * libaem2025/adapter.c): the bytes under certification as a file with a
 * path, an in-memory file (memfd) where the kernel has them, else an
 * unlinked temporary file in $TMPDIR (or /tmp). Included by the adapter
 * (a static function: the adapters are built by scripts/refimpls.sh from
 * their own source lists), after _GNU_SOURCE and <sys/mman.h>.
 */
#ifndef MC_REFIMPL_PATH_OF_BYTES_H
#define MC_REFIMPL_PATH_OF_BYTES_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* An fd holding the bytes, and its /proc/self/fd path in path; -1 on
 * failure. The caller closes the fd when done. */
static int file_of(const unsigned char *data, size_t size, char *path, size_t path_size)
{
    int fd = memfd_create("mc_refimpl", 0);
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        char tmpl[4096];
        snprintf(tmpl, sizeof tmpl, "%s/mc_refimpl_XXXXXX", dir && *dir ? dir : "/tmp");
        fd = mkstemp(tmpl);
        if (fd < 0) return -1;
        unlink(tmpl);
    }
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    snprintf(path, path_size, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
