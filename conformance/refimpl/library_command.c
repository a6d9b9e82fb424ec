/*
 * A loader library of the certify ABI (mc_loader_abi.h) as a command, for
 * whatever takes a loader command and not a library (`modelcheck fuzz
 * --loader`, or a person at a shell):
 *
 *   mc_library_command LIBRARY FORMAT FILE
 *
 * loads LIBRARY, reads FILE whole and calls its mc_certify_load once.
 * Exit 0: accepted; 1: rejected (the reason on stderr); 2: usage, the
 * file or the library could not be had. A crash is the library's own.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_loader_abi.h"

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || ferror(f)) break;
        unsigned char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger) free(buf);
        buf = bigger, cap *= 2;
    }
    if (buf && ferror(f)) free(buf), buf = NULL;
    fclose(f);
    *size = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 4) return fprintf(stderr, "usage: %s LIBRARY FORMAT FILE\n", argv[0]), 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) return fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror()), 2;
    void *sym = dlsym(h, MC_CERTIFY_SYMBOL);
    if (!sym) return fprintf(stderr, "%s does not export %s\n", argv[1], MC_CERTIFY_SYMBOL), 2;
    mc_certify_load_fn fn;
    memcpy(&fn, &sym, sizeof fn); /* POSIX: object to function pointer */
    size_t size = 0;
    unsigned char *data = read_all(argv[3], &size);
    if (!data) return fprintf(stderr, "cannot read %s\n", argv[3]), 2;
    char reason[512] = "";
    int rc = fn(argv[2], data, size, reason, sizeof reason);
    reason[sizeof reason - 1] = '\0';
    if (rc != 0) fprintf(stderr, "rejected: %s\n", reason[0] ? reason : "(no reason given)");
    free(data);
    return rc != 0;
}
