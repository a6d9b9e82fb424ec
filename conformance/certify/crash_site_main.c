/*
 * mc_crash_site: the crash site of a sanitizer report on standard input, as
 * certificates name it (crash_sites.c); used to deduplicate fuzzing findings
 * by site (scripts/refimpls.sh triage). Prints nothing when the input holds
 * no report. Exit 0, or 2 on a read error or when memory runs out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mc_certify.h"

int main(void)
{
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
    char *site = mcc_crash_site(text, 0);
    if (site) printf("%s\n", site);
    free(site);
    free(text);
    return 0;
}
