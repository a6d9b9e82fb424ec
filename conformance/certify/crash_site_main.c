/*
 * mc_crash_site: the crash site of a sanitizer report on standard input, as
 * certificates name it (crash_sites.c); used to deduplicate fuzzing findings
 * by site (scripts/refimpls.sh triage). Prints nothing when the input holds
 * no report. `mc_crash_site --exception EXIT` reads the stderr of a process
 * that exited with status EXIT (a negative one: killed by that signal) and
 * prints its managed runtime's unhandled exception site instead
 * (mcc_exception_site). Exit 0, or 2 on a bad argument, a read error or
 * when memory runs out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_certify.h"

int main(int argc, char **argv)
{
    int exception = argc == 3 && strcmp(argv[1], "--exception") == 0;
    char *end = NULL;
    long status = exception ? strtol(argv[2], &end, 10) : 0;
    if (argc != 1 && (!exception || *end || end == argv[2] || status < -64 || status > 255)) {
        fputs("usage: mc_crash_site [--exception EXIT] < REPORT\n", stderr);
        return 2;
    }
    size_t cap = 1 << 16, len = 0, n;
    unsigned char *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += n;
        if (len == cap) {
            unsigned char *more = realloc(buf, cap *= 2);
            if (!more) free(buf);
            buf = more;
        }
    }
    if (!buf || ferror(stdin)) {
        fputs("mc_crash_site: cannot read the report\n", stderr);
        free(buf);
        return 2;
    }
    char *text = mcc_clean_text(buf, len);
    free(buf);
    if (!text) return 2;
    char *site = !exception ? mcc_crash_site(text, 0)
                 : mcc_exception_site(text, status < 0 ? -1 : (int)status, status < 0 ? (int)-status : 0);
    if (site) printf("%s\n", site);
    free(site);
    free(text);
    return 0;
}
