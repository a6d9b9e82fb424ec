#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

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
