#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cliutil.h"

/* What getopt_long just refused is not always argv[optind - 1]: a short
 * option inside a group (-Zq) leaves optind where it was, on the element
 * before, which may even be a long option (--output=json -Zq); only optopt
 * names it. A long option always moves optind past itself, so the refused
 * element is a long one when optind moved and it starts with "--". Its
 * optopt is 0 when unknown and its value otherwise (a value given to an
 * option that takes none, or one missing); the name is shown as typed,
 * without its "=value". */
const char *mc_cli_refusal(char **argv, int ch, int optind_before, char *buf, size_t size)
{
    const char *arg = argv[optind - 1];
    if (optind != optind_before && strncmp(arg, "--", 2) == 0) {
        int n = (int)strcspn(arg, "=");
        if (ch == ':') snprintf(buf, size, "option '%.*s' needs a value", n, arg);
        else if (optopt && arg[n] == '=') snprintf(buf, size, "option '%.*s' takes no value", n, arg);
        else snprintf(buf, size, "unknown option '%.*s'", n, arg);
    } else if (ch == ':') {
        snprintf(buf, size, "option '-%c' needs a value", optopt);
    } else {
        snprintf(buf, size, "unknown option '-%c'", optopt);
    }
    return buf;
}

void mc_cli_hold_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        /* the wrong direction: reading a held stdin or writing a held
         * stdout fails with EBADF, as it would closed */
        int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got >= 0 && got != fd) close(got); /* a lower one was free: held by now */
    }
}

int mc_cli_finish_output(FILE *f, const char *prog, const char *name)
{
    errno = 0;
    int failed = fflush(f) != 0;
    int err = errno;
    failed |= ferror(f) != 0;
    if (f != stdout && fclose(f) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (!failed) return 0;
    /* an earlier failed write has set the error flag without leaving errno */
    fprintf(stderr, "%s: cannot write %s: %s\n", prog, name, err ? strerror(err) : "output incomplete");
    return -1;
}

/* A size in bytes, or with a binary suffix K, M, G or T (512M is 512 MiB);
 * 0, or -1 when it is no such number or does not fit in 64 bits. */
int mc_cli_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (s[0] < '0' || s[0] > '9') return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return -1;
    static const char suffixes[] = "KMGT";
    const char *at = *end ? strchr(suffixes, *end) : NULL;
    if (*end && (!at || end[1])) return -1;
    unsigned shift = at ? 10u * (unsigned)(at - suffixes + 1) : 0;
    if (shift && v > (UINT64_MAX >> shift)) return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

int mc_cli_complain(const char *prog, const char *tail, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", tail);
    return MC_EXIT_USAGE;
}
