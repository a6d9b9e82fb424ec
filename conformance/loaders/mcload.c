/*
 * mc_load: the reference loaders as a command, for `modelcheck certify
 * --loader 'mc_load {}'` and for people.
 *
 *   mc_load [--format F] FILE|-
 *
 * Exit 0: accepted (loaded, walked, posed); 1: rejected (reason on stderr);
 * 2: usage or I/O error. Without --format the file extension names it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_loader_abi.h"
#include "mcl.h"

int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

static const char *format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot) return NULL;
    mcl_format f = mcl_format_from_name(dot + 1);
    return f == MCL_FORMAT_UNKNOWN ? NULL : mcl_format_name(f);
}

static unsigned char *slurp(FILE *f, size_t *size)
{
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        unsigned char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger) {
            free(buf);
            return NULL;
        }
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

static int usage(void)
{
    fprintf(stderr, "usage: mc_load [--format aem|semodel|aamf|e3d|nlm] FILE|-\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *format = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) format = argv[++i];
        else if (strcmp(argv[i], "--help") == 0) return usage() & 0;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') return usage();
        else if (!path) path = argv[i];
        else return usage();
    }
    if (!path) return usage();
    if (!format) format = strcmp(path, "-") ? format_from_path(path) : NULL;
    if (!format || mcl_format_from_name(format) == MCL_FORMAT_UNKNOWN) {
        fprintf(stderr, "mc_load: %s: unknown format (use --format)\n", path);
        return 2;
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        fprintf(stderr, "mc_load: %s: %s\n", path, strerror(errno));
        return 2;
    }
    size_t size = 0;
    unsigned char *data = slurp(f, &size);
    if (f != stdin) fclose(f);
    if (!data) {
        fprintf(stderr, "mc_load: %s: cannot read\n", path);
        return 2;
    }
    char reason[256];
    int rc = mc_certify_load(format, data, size, reason, sizeof reason);
    free(data);
    if (rc) {
        fprintf(stderr, "mc_load: %s: rejected: %s\n", path, reason);
        return 1;
    }
    printf("%s: accepted\n", path);
    return 0;
}
