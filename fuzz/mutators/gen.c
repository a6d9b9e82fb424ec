/*
 * mcm_gen: a batch of mutated inputs for readers no fuzzing engine can
 * drive (scripts/refimpls.sh blindfuzz: the 32-bit UnnamedHB1 runtime, for
 * which Debian has no i386 libFuzzer or AFL++ runtime). Each output is a
 * seed file with a few stacked structure-aware mutations; without coverage
 * feedback nothing evolves, so stacking is what reaches past one change.
 * Deterministic: the same SEED and seed files give the same outputs.
 *
 *   mcm_gen FORMAT SEED COUNT OUTDIR SEEDFILE...
 *
 * writes OUTDIR/<SEED>-<i>.<FORMAT> for i in [0, COUNT). Exit 0, or 2 with
 * a one-line error (bad arguments, unreadable seed, write failure, memory).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcm.h"

/* Seeds above this are skipped; outputs grow by at most GROWTH bytes. */
enum { MAX_SEED = 1 << 20, GROWTH = 4096, MAX_STACK = 8 };

typedef struct {
    uint8_t *data;
    size_t size;
} seed_file;

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "mcm_gen: %s %s%s%s\n", what, path, errno ? ": " : "", errno ? strerror(errno) : "");
    return 2;
}

/* Reads path into s; s->data is NULL (and 0 returned) for a file over MAX_SEED. */
static int read_seed(const char *path, seed_file *s)
{
    FILE *f = fopen(path, "rb");
    s->data = NULL;
    s->size = 0;
    if (!f) return fail("cannot open", path);
    uint8_t *buf = malloc(MAX_SEED + 1);
    size_t n = buf ? fread(buf, 1, MAX_SEED + 1, f) : 0;
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return fail("cannot read", path);
    }
    if (n > MAX_SEED) {
        free(buf);
        return 0;
    }
    s->data = buf;
    s->size = n;
    return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
    errno = 0;
    FILE *f = fopen(path, "wb");
    if (!f) return fail("cannot create", path);
    size_t n = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || n != size) return fail("cannot write", path);
    return 0;
}

/* One output: a seed chosen by rng, 1..MAX_STACK mutations applied in turn. */
static size_t mutate_one(mcm_mutator fn, mcm_rng *r, const seed_file *seeds, size_t nseeds, uint8_t *buf,
                         size_t cap)
{
    const seed_file *s = &seeds[mcm_below(r, nseeds)];
    size_t size = s->size;
    memcpy(buf, s->data, size);
    size_t max_size = size + GROWTH;
    if (max_size > cap) max_size = cap;
    size_t stack = 1 + mcm_below(r, MAX_STACK);
    for (size_t k = 0; k < stack; k++) size = fn(buf, size, max_size, (unsigned)mcm_next(r));
    return size;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fputs("usage: mcm_gen FORMAT SEED COUNT OUTDIR SEEDFILE...\n", stderr);
        return 2;
    }
    mcm_mutator fn = mcm_find(argv[1]);
    char *end;
    errno = 0;
    unsigned long seed = strtoul(argv[2], &end, 10);
    int bad_seed = errno || *end || end == argv[2];
    unsigned long count = strtoul(argv[3], &end, 10);
    if (!fn || bad_seed || errno || *end || end == argv[3]) {
        fprintf(stderr, "mcm_gen: bad FORMAT, SEED or COUNT (%s %s %s)\n", argv[1], argv[2], argv[3]);
        return 2;
    }
    size_t nargs = (size_t)argc - 5, nseeds = 0;
    seed_file *seeds = calloc(nargs, sizeof *seeds);
    uint8_t *buf = malloc(MAX_SEED + GROWTH);
    int rc = !seeds || !buf ? fail("out of memory", "") : 0;
    for (size_t i = 0; i < nargs && rc == 0; i++) {
        errno = 0;
        rc = read_seed(argv[5 + i], &seeds[nseeds]);
        nseeds += seeds[nseeds].data != NULL;
    }
    if (rc == 0 && nseeds == 0) rc = fail("no seed file under 1 MiB among", argv[5]);
    mcm_rng r;
    mcm_rng_seed(&r, (unsigned)seed, NULL, 0);
    for (unsigned long i = 0; i < count && rc == 0; i++) {
        size_t size = mutate_one(fn, &r, seeds, nseeds, buf, MAX_SEED + GROWTH);
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%lu-%06lu.%s", argv[4], seed, i, argv[1]) >= (int)sizeof path) {
            errno = 0;
            rc = fail("path too long:", argv[4]);
        } else {
            rc = write_file(path, buf, size);
        }
    }
    for (size_t i = 0; i < nseeds; i++) free(seeds[i].data);
    free(seeds);
    free(buf);
    return rc;
}
