#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cliutil.h"

/* argv[optind - 1] is not always the refused option: a short one inside a
 * group (-Zq) or after an option's value (--output json -Z) is only in
 * optopt. An unknown long option has optopt 0; a long option missing its
 * value is the last argument. Long names lose their "=value". */
const char *mc_cli_bad_option(char **argv, int missing_value, char *buf, size_t size)
{
    const char *arg = argv[optind - 1];
    if ((missing_value || !optopt) && strncmp(arg, "--", 2) == 0) {
        int n = (int)strcspn(arg, "=");
        snprintf(buf, size, "%.*s", n, arg);
    } else {
        snprintf(buf, size, "-%c", optopt);
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
