/*
 * Reading a path: a read-only private mapping for regular files (the input
 * is never modified), standard input read into memory for "-". Failures
 * become an IO_ issue in the result and MC_ERR_IO.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mc_validate.h"

static mc_status io_failure(mc_code code, const char *what, int err, const mc_settings *opt,
                            mc_result **out)
{
    mc_result *r = mc_result_new();
    if (!r) return MC_ERR_NOMEM;
    mc_ctx c;
    mc_info scratch;
    memset(&scratch, 0, sizeof scratch);
    mc_status st = mc_ctx_begin(&c, NULL, 0, opt, &scratch);
    if (st == MC_OK) {
        /* An I/O failure is reported even if the code is ignored: the file
         * was not checked, and silence would claim it was. */
        mc_settings forced = *opt;
        forced.severity[code] = MC_SEVERITY_ERROR;
        if (forced.max_instances == 0) forced.max_instances = 1;
        c.opt = &forced;
        mc_instance *in = mc_emit(&c, code, 0);
        mc_path(in, "/");
        mc_msg(in, "%s: %s", what, err ? strerror(err) : "not a regular file");
        st = mc_ctx_finish(&c, r);
    }
    if (st != MC_OK) {
        mc_result_free(r);
        return st;
    }
    *out = r;
    return MC_ERR_IO;
}

static mc_status validate_stdin(const mc_settings *opt, mc_result **out)
{
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) return MC_ERR_NOMEM;
    for (;;) {
        if (len == cap) {
            /* read one byte past the limit so an oversized input is seen */
            if ((uint64_t)cap > opt->max_file_bytes) break;
            size_t ncap = cap * 2;
            uint8_t *n = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!n) {
                free(buf);
                return MC_ERR_NOMEM;
            }
            buf = n;
            cap = ncap;
        }
        ssize_t got = read(STDIN_FILENO, buf + len, cap - len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int err = errno;
            free(buf);
            return io_failure(MC_IO_READ_FAILED, "cannot read standard input", err, opt, out);
        }
        if (got == 0) break;
        len += (size_t)got;
    }
    mc_status st = mc_validate_sized(len ? buf : NULL, len, len, opt, out);
    free(buf);
    return st;
}

mc_status mc_validate_path(const char *path, const mc_options *options, mc_result **out)
{
    if (!path || !out) return MC_ERR_INVALID_ARG;
    *out = NULL;
    mc_settings resolved;
    mc_settings_resolve(&resolved, options);
    const mc_settings *settings = &resolved;
    if (strcmp(path, "-") == 0) return validate_stdin(settings, out);

    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_failure(MC_IO_OPEN_FAILED, "cannot open", errno, settings, out);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return io_failure(MC_IO_READ_FAILED, "cannot stat", err, settings, out);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return io_failure(MC_IO_NOT_REGULAR, "is a directory", EISDIR, settings, out);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return io_failure(MC_IO_NOT_REGULAR, "cannot validate", 0, settings, out);
    }
    uint64_t size = (uint64_t)st.st_size;
    if (size == 0 || size > settings->max_file_bytes || size > SIZE_MAX) {
        /* nothing to map: the driver reports FILE_EMPTY or FILE_TOO_LARGE */
        close(fd);
        return mc_validate_sized(NULL, 0, size, settings, out);
    }
    void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    int err = errno;
    close(fd);
    if (map == MAP_FAILED) return io_failure(MC_IO_READ_FAILED, "cannot map", err, settings, out);
    (void)posix_madvise(map, (size_t)size, POSIX_MADV_SEQUENTIAL);
    mc_status s = mc_validate_sized(map, (size_t)size, size, settings, out);
    munmap(map, (size_t)size);
    return s;
}
