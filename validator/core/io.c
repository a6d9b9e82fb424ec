/*
 * Reading a path: a regular file is read into memory when small and through
 * a read-only private mapping otherwise (the input is never modified);
 * standard input is read into memory for "-". Failures
 * become an IO_ issue in the result and MC_ERR_IO.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mc_file.h"
#include "mc_validate.h"

/* A result of one issue at offset 0, for what is known without validating
 * content. forced: reported even if the code is ignored (an I/O failure:
 * the file was not checked, and silence would claim it was). */
static mc_status one_issue(mc_code code, int forced, uint64_t size, const char *msg,
                           const mc_settings *opt, mc_result **out)
{
    mc_result *r = mc_result_new();
    if (!r) return MC_ERR_NOMEM;
    r->size = size;
    mc_ctx c;
    mc_info scratch;
    memset(&scratch, 0, sizeof scratch);
    mc_status st = mc_ctx_begin(&c, NULL, 0, opt, &scratch);
    if (st == MC_OK) {
        mc_settings force = *opt;
        if (forced) {
            force.severity[code] = MC_SEVERITY_ERROR;
            if (force.max_instances == 0) force.max_instances = 1;
            c.opt = &force;
        }
        mc_instance *in = mc_emit(&c, code, 0);
        mc_path(in, "/");
        mc_msg(in, "%s", msg);
        st = mc_ctx_finish(&c, r);
    }
    if (st != MC_OK) {
        mc_result_free(r);
        return st;
    }
    *out = r;
    return MC_OK;
}

static mc_status io_failure(mc_code code, const char *what, int err, const mc_settings *opt,
                            mc_result **out)
{
    char msg[200];
    snprintf(msg, sizeof msg, "%s: %s", what, err ? strerror(err) : "not a regular file");
    mc_status st = one_issue(code, 1, 0, msg, opt, out);
    return st == MC_OK ? MC_ERR_IO : st;
}

mc_status mc_result_io_error(const char *what, int err, const mc_options *options, mc_result **out)
{
    if (!what || !out) return MC_ERR_INVALID_ARG;
    *out = NULL;
    mc_settings settings;
    mc_settings_resolve(&settings, options);
    /* out of memory is no failure to open: the file was there, its bytes did
     * not fit (a caller's report of a path it got no result for) */
    return io_failure(err == ENOMEM ? MC_IO_READ_FAILED : MC_IO_OPEN_FAILED, what, err, &settings, out);
}

const char *mc_file_kind(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
                            : "a special file";
}

static mc_status not_regular(const struct stat *st, const mc_settings *opt, mc_result **out)
{
    if (S_ISDIR(st->st_mode)) return io_failure(MC_IO_NOT_REGULAR, "is a directory", EISDIR, opt, out);
    char what[64];
    snprintf(what, sizeof what, "cannot validate %s", mc_file_kind(st->st_mode));
    return io_failure(MC_IO_NOT_REGULAR, what, 0, opt, out);
}

/* The one way a path is opened for reading: only a regular file is opened,
 * since open() of a FIFO waits for a writer and opening a device can have
 * effects of its own (and reading /dev/zero never ends). O_NONBLOCK covers
 * the race of a path replaced between stat and open (it changes nothing
 * for a regular file); the caller's fstat of *fd sees what was opened.
 * 0 with *fd open; an errno of stat or open; or MC_FILE_NOT_REGULAR with
 * *st saying what the path is. */
static int open_regular(const char *path, int *fd, struct stat *st)
{
    *fd = -1;
    if (stat(path, st) == 0 && !S_ISREG(st->st_mode)) return MC_FILE_NOT_REGULAR;
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    return *fd < 0 ? errno : 0;
}

/* Reads up to size bytes (fewer only at the end of the input) into buf;
 * *got says how many. 0, or the errno of a failed read. */
static int read_full(int fd, uint8_t *buf, size_t size, size_t *got)
{
    *got = 0;
    while (*got < size) {
        ssize_t n = read(fd, buf + *got, size - *got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) break;
        *got += (size_t)n;
    }
    return 0;
}

/* Reads fd into memory to its end, or to one byte past max_bytes, never
 * further: an input with no size to check first (standard input, a pipe)
 * takes memory up to the limit plus a constant. *buf (never NULL on
 * success) holds *len bytes. 0; -1 when out of memory; or the errno of a
 * failed read. */
static int read_bounded(int fd, uint64_t max_bytes, uint8_t **buf_out, size_t *len_out)
{
    uint64_t want = max_bytes < SIZE_MAX - 1 ? max_bytes + 1 : SIZE_MAX;
    size_t cap = want < (1 << 16) ? (size_t)want : 1 << 16, len = 0;
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf) return -1;
    while (len < want) {
        if (len == cap) {
            size_t ncap = cap <= want / 2 ? cap * 2 : (size_t)want;
            uint8_t *n = realloc(buf, ncap);
            if (!n) {
                free(buf);
                return -1;
            }
            buf = n;
            cap = ncap;
        }
        size_t got = 0;
        int err = read_full(fd, buf + len, cap - len, &got);
        len += got;
        if (err) {
            free(buf);
            return err;
        }
        if (len < cap) break; /* end of input */
    }
    *buf_out = buf;
    *len_out = len;
    return 0;
}

static mc_status validate_stdin(const mc_settings *opt, mc_result **out)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int err = read_bounded(STDIN_FILENO, opt->max_file_bytes, &buf, &len);
    if (err < 0) return MC_ERR_NOMEM;
    if (err) return io_failure(MC_IO_READ_FAILED, "cannot read standard input", err, opt, out);
    if (len > opt->max_file_bytes) {
        /* its size is unknown: say what is known */
        free(buf);
        char msg[160];
        snprintf(msg, sizeof msg, "standard input is longer than the limit of %" PRIu64
                 " bytes (reading stopped at byte %zu)", opt->max_file_bytes, len);
        return one_issue(MC_FILE_TOO_LARGE, 0, len, msg, opt, out);
    }
    mc_status st = mc_validate_sized(len ? buf : NULL, len, len, opt, out);
    free(buf);
    return st;
}

/* A file that changed while it was read (cut short under the mapping or
 * the read, or a different size or modification time afterwards) is not
 * reported on: what was read is not one version of it. cut says how it was
 * seen to be cut short (NULL: it was not). */
static mc_status check_unchanged(int fd, const struct stat *before, const char *cut, mc_status st,
                                 const mc_settings *opt, mc_result **out)
{
    struct stat now;
    int same = !cut && fstat(fd, &now) == 0 && now.st_size == before->st_size &&
               now.st_mtim.tv_sec == before->st_mtim.tv_sec &&
               now.st_mtim.tv_nsec == before->st_mtim.tv_nsec;
    if (same) return st;
    mc_result_free(*out);
    *out = NULL;
    char msg[200];
    snprintf(msg, sizeof msg, "file changed while it was being read (%s; %" PRIu64 " bytes when opened)",
             cut ? cut : "new size or modification time",
             (uint64_t)before->st_size);
    mc_status s = one_issue(MC_IO_READ_FAILED, 1, (uint64_t)before->st_size, msg, opt, out);
    return s == MC_OK ? MC_ERR_IO : s;
}

/* Read into memory instead of mapped: a small file, or any file when no
 * guard slot is free. */
static mc_status validate_read(int fd, const struct stat *before, const mc_settings *opt, mc_result **out)
{
    size_t size = (size_t)before->st_size, len = 0;
    uint8_t *buf = malloc(size);
    if (!buf) return MC_ERR_NOMEM;
    int err = read_full(fd, buf, size, &len);
    if (err) {
        free(buf);
        return io_failure(MC_IO_READ_FAILED, "cannot read", err, opt, out);
    }
    if (len != size) {
        /* what was read is not the file that was opened: nothing to check */
        free(buf);
        return check_unchanged(fd, before, "shorter when read", MC_OK, opt, out);
    }
    mc_status st = mc_validate_sized(buf, size, size, opt, out);
    free(buf);
    return check_unchanged(fd, before, NULL, st, opt, out);
}

static mc_status validate_mapped(int fd, const struct stat *before, const mc_settings *opt,
                                 mc_result **out, void (*hook)(void *), void *arg)
{
    size_t size = (size_t)before->st_size;
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) return io_failure(MC_IO_READ_FAILED, "cannot map", errno, opt, out);
    int slot = mc_guard_map(map, size);
    if (slot < 0) {
        munmap(map, size);
        if (hook) hook(arg);
        return validate_read(fd, before, opt, out);
    }
    (void)posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
    if (hook) hook(arg);
    mc_status st = mc_validate_sized(map, size, size, opt, out);
    int faulted = mc_guard_unmap(slot);
    munmap(map, size);
    return check_unchanged(fd, before, faulted ? "truncated under the mapping" : NULL, st, opt, out);
}

/* Files up to this size are read, not mapped. A mapping costs three system
 * calls (mmap, madvise, munmap) and page faults, and mmap and munmap take
 * the process's address-space lock, which -j's threads then queue on: on a
 * directory of small files that made -j 2 no faster than -j 1 (issue 16).
 * One read costs one call and a copy that is cheap at this size; the
 * buffer stays below glibc's mmap threshold (128 KiB), so malloc serves it
 * from the thread's heap without a system call. A read also cannot fault:
 * a file cut short while read is a short read, seen by check_unchanged. */
#define READ_MAX_BYTES (64u << 10)

/* The opened fd of path: what it is decides how it is read. */
static mc_status validate_fd(int fd, const mc_settings *settings, mc_result **out,
                             void (*hook)(void *), void *arg)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return io_failure(MC_IO_READ_FAILED, "cannot stat", errno, settings, out);
    if (!S_ISREG(st.st_mode)) return not_regular(&st, settings, out);
    if (st.st_size == 0 || (uint64_t)st.st_size > settings->max_file_bytes ||
        (uint64_t)st.st_size > SIZE_MAX)
        /* nothing to read: the driver reports FILE_EMPTY or FILE_TOO_LARGE */
        return mc_validate_sized(NULL, 0, (uint64_t)st.st_size, settings, out);
    if (st.st_size > (off_t)READ_MAX_BYTES) return validate_mapped(fd, &st, settings, out, hook, arg);
    if (hook) hook(arg);
    return validate_read(fd, &st, settings, out);
}

mc_status mc_validate_path(const char *path, const mc_options *options, mc_result **out)
{
    return mc_validate_path_hooked(path, options, out, NULL, NULL);
}

mc_status mc_validate_path_hooked(const char *path, const mc_options *options, mc_result **out,
                                  void (*mapped)(void *arg), void *arg)
{
    if (!path || !out) return MC_ERR_INVALID_ARG;
    *out = NULL;
    mc_settings resolved;
    mc_settings_resolve(&resolved, options);
    const mc_settings *settings = &resolved;
    if (strcmp(path, "-") == 0) return validate_stdin(settings, out);

    struct stat pre;
    int fd, err = open_regular(path, &fd, &pre);
    if (err == MC_FILE_NOT_REGULAR) return not_regular(&pre, settings, out);
    if (err) return io_failure(MC_IO_OPEN_FAILED, "cannot open", err, settings, out);
    mc_status s = validate_fd(fd, settings, out, mapped, arg);
    close(fd);
    return s;
}

mc_status mc_validate_listed_path(const char *path, const mc_options *options, mc_result **out)
{
    if (!path || !out) return MC_ERR_INVALID_ARG;
    *out = NULL;
    /* The caller's listing stands in for mc_validate_path's stat: the open
     * is of what was a regular file a moment ago. What replaced it since is
     * caught as there: a FIFO or a directory by O_NONBLOCK and the fstat, a
     * symbolic link (which could lead to a device) by O_NOFOLLOW, and that
     * one path is then taken the long way, which follows it as
     * mc_validate_path does. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0 && errno == ELOOP) return mc_validate_path(path, options, out);
    mc_settings settings;
    mc_settings_resolve(&settings, options);
    if (fd < 0) return io_failure(MC_IO_OPEN_FAILED, "cannot open", errno, &settings, out);
    mc_status s = validate_fd(fd, &settings, out, NULL, NULL);
    close(fd);
    return s;
}

/* ---- a file's bytes for a reader that keeps them (mc_file.h) ---- */

/* Reads fd into memory, at most max_bytes (else EFBIG). */
static int read_all(int fd, uint64_t max_bytes, mc_file_bytes *out)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int err = read_bounded(fd, max_bytes, &buf, &len);
    if (err) return err < 0 ? ENOMEM : err;
    if (len > max_bytes) {
        free(buf);
        return EFBIG;
    }
    out->data = buf;
    out->size = len;
    return 0;
}

/* A regular file over READ_MAX_BYTES: mapped and guarded, as validate_mapped
 * does; -1 when no guard slot is free (read it then). */
static int map_guarded(int fd, size_t size, mc_file_bytes *out)
{
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) return errno;
    int slot = mc_guard_map(map, size);
    if (slot < 0) {
        munmap(map, size);
        return -1;
    }
    out->data = map;
    out->size = size;
    out->map = map;
    out->slot = slot;
    return 0;
}

/* A regular file's bytes, never more than max_bytes of them: a file over
 * the limit is refused before any read, as validation does. */
static int regular_bytes(int fd, const struct stat *st, uint64_t max_bytes, mc_file_bytes *out)
{
    if ((uint64_t)st->st_size > max_bytes || (uint64_t)st->st_size > SIZE_MAX) return EFBIG;
    int err = st->st_size > (off_t)READ_MAX_BYTES ? map_guarded(fd, (size_t)st->st_size, out) : -1;
    return err < 0 ? read_all(fd, max_bytes, out) : err;
}

int mc_file_bytes_open(const char *path, uint64_t max_bytes, mc_file_bytes *out)
{
    memset(out, 0, sizeof *out);
    out->slot = -1;
    if (strcmp(path, "-") == 0) return read_all(STDIN_FILENO, max_bytes, out);
    struct stat st;
    int fd, err = open_regular(path, &fd, &st);
    if (err == 0) {
        /* what was opened may not be what was looked at */
        if (fstat(fd, &st) != 0) err = errno;
        else if (!S_ISREG(st.st_mode)) err = MC_FILE_NOT_REGULAR;
        else err = regular_bytes(fd, &st, max_bytes, out);
        close(fd);
    }
    if (err == MC_FILE_NOT_REGULAR) {
        out->kind = mc_file_kind(st.st_mode);
        if (S_ISDIR(st.st_mode)) err = EISDIR; /* as validation says it */
    }
    return err;
}

int mc_file_bytes_close(mc_file_bytes *f)
{
    int faulted = 0;
    if (f->map) {
        faulted = mc_guard_unmap(f->slot);
        munmap(f->map, f->size);
    } else {
        free((void *)f->data);
    }
    memset(f, 0, sizeof *f);
    f->slot = -1;
    return faulted;
}
