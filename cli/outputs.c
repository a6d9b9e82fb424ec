#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cliutil.h"
#include "mc_file.h"
#include "modelcheck.h"
#include "outputs.h"

int mc_inputs_add(mc_inputs *in, const char *path)
{
    struct stat st;
    int stdin_ = strcmp(path, "-") == 0;
    if ((stdin_ ? fstat(STDIN_FILENO, &st) : stat(path, &st)) != 0 || !S_ISREG(st.st_mode)) return 0;
    if (in->count == in->cap) {
        size_t cap = in->cap ? in->cap * 2 : 16;
        mc_input_file *n = cap <= SIZE_MAX / sizeof *n ? realloc(in->files, cap * sizeof *n) : NULL;
        if (!n) return -1;
        in->files = n;
        in->cap = cap;
    }
    char *name = strdup(stdin_ ? "- (standard input)" : path);
    if (!name) return -1;
    in->files[in->count++] = (mc_input_file){st.st_dev, st.st_ino, name};
    return 0;
}

void mc_inputs_free(mc_inputs *in)
{
    for (size_t i = 0; i < in->count; i++) free(in->files[i].name);
    free(in->files);
    memset(in, 0, sizeof *in);
}

int mc_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* "PROG: refusing to write OUT: why", one line. -1. */
__attribute__((format(printf, 3, 4))) static int refuse(const char *prog, const char *out, const char *fmt, ...)
{
    char *q = mc_text_quote(out);
    fprintf(stderr, "%s: refusing to write %s: ", prog, q ? q : "(name not shown: out of memory)");
    free(q);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

int mc_output_check(const mc_inputs *in, const char *prog, const char *out, int flags)
{
    struct stat st;
    /* stat follows a symbolic link: a link to an input is that input */
    if (stat(out, &st) != 0) return 0; /* not there: nothing to overwrite (opening says the rest) */
    int stream = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
    if (!S_ISREG(st.st_mode) && !(stream && (flags & MC_OUTPUT_STREAM)))
        return refuse(prog, out, "it is %s, not a regular file", mc_file_kind(st.st_mode));
    for (size_t i = 0; in && i < in->count; i++) {
        if (in->files[i].dev != st.st_dev || in->files[i].ino != st.st_ino) continue;
        char *q = mc_text_quote(in->files[i].name);
        refuse(prog, out, "it is the input %s (the same file)", q ? q : "(name not shown: out of memory)");
        free(q);
        return -1;
    }
    return 0;
}

int mc_output_check_input(const char *prog, const char *out, const char *input)
{
    mc_inputs in = {0};
    int refused = mc_inputs_add(&in, input) != 0;
    if (refused) fprintf(stderr, "%s: out of memory\n", prog);
    else refused = mc_output_check(&in, prog, out, MC_OUTPUT_FILE) != 0;
    mc_inputs_free(&in);
    return refused ? -1 : 0;
}

/* Where the bytes for out go: the file a symbolic link leads to (the link
 * stays a link), else out itself. malloc'd, or NULL. */
static char *destination(const char *out)
{
    struct stat st;
    if (lstat(out, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *real = realpath(out, NULL);
        if (real) return real;
        /* a dangling link: replaced, as writing could not follow it */
    }
    return strdup(out);
}

/* A new file beside dest, ".NAME.PID-N.tmp": exclusive, so neither another
 * run nor a file already there is ever written through. */
static int create_beside(const char *dest, mode_t mode, char **tmp_out)
{
    const char *slash = strrchr(dest, '/');
    int dir_len = slash ? (int)(slash - dest + 1) : 0;
    const char *base = slash ? slash + 1 : dest;
    size_t size = strlen(dest) + 48;
    char *tmp = malloc(size);
    if (!tmp) return errno = ENOMEM, -1;
    for (unsigned n = 0; n < 100; n++) {
        snprintf(tmp, size, "%.*s.%s.%ld-%u.tmp", dir_len, dest, base, (long)getpid(), n);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0) {
            *tmp_out = tmp;
            return fd;
        }
        if (errno != EEXIST) break;
    }
    int err = errno;
    free(tmp);
    errno = err;
    return -1;
}

int mc_output_open(mc_output *o, const char *out)
{
    memset(o, 0, sizeof *o);
    if (!(o->dest = destination(out))) return errno = ENOMEM, -1;
    struct stat st;
    int exists = stat(o->dest, &st) == 0;
    /* /dev/stdout or /dev/fd/N onto a regular file is the descriptor the
     * shell opened: a rename would put the report beside it, not in it */
    int in_place = strncmp(out, "/dev/", 5) == 0 || strncmp(out, "/proc/", 6) == 0;
    if (exists && (in_place || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        /* a stream has no content to keep: nothing to replace it with */
        if ((o->f = fopen(o->dest, "w"))) return 0;
    } else {
        int fd = create_beside(o->dest, 0666, &o->tmp);
        /* the replaced file's permissions, not the umask's */
        if (fd >= 0 && exists && fchmod(fd, st.st_mode & 07777) != 0) {
            close(fd);
            fd = -1;
        }
        if (fd >= 0 && (o->f = fdopen(fd, "w"))) return 0;
        if (fd >= 0) close(fd);
    }
    int err = errno;
    mc_output_abort(o);
    errno = err;
    return -1;
}

int mc_output_commit(mc_output *o, const char *prog, const char *name)
{
    int rc = mc_cli_finish_output(o->f, prog, name);
    o->f = NULL;
    if (rc == 0 && o->tmp && rename(o->tmp, o->dest) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", prog, name, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && o->tmp) {
        free(o->tmp);
        o->tmp = NULL;
    }
    mc_output_abort(o);
    return rc;
}

void mc_output_abort(mc_output *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp) unlink(o->tmp);
    free(o->tmp);
    free(o->dest);
    memset(o, 0, sizeof *o);
}
