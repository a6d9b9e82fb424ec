/*
 * Self test of the mutators (ctest: mutators_selftest, under ASan in the
 * asan build): every format's mutator, ITERATIONS times spread over the
 * seeds in CORPUS/<format>/ (and the auto mutator over all of them), output
 * fed back as the next input so garbage gets mutated too. Checks: the result
 * fits max_size (max_size is sometimes below the input size), the same
 * (input, seed) gives the same output, and no call is slow. Then its
 * structural cuts over every seed: each makes the file smaller or leaves it
 * as it was, is the same when made twice, and cuts made one after another
 * (cut 0 until none shrinks the file) end (the first MAX_CUTS of each); a format whose seeds give no cut
 * at all fails.
 *
 *   mcm_selftest ITERATIONS CORPUS [FORMAT...]
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcm.h"

/* MAX_CUTS: the first cuts of each seed are checked (an array of 60,000
 * vertices has as many), and at most as many made one after another. */
enum { MAX_SEEDS = 1024, MAX_SEED_SIZE = 1 << 20, MAX_CUTS = 12 };

static struct {
    uint8_t *data;
    size_t size;
} seeds[MAX_SEEDS];
static size_t nseeds;

static int add_seed(const char *path, const struct stat *st, int kind, struct FTW *ftw)
{
    (void)ftw;
    size_t len = strlen(path);
    if (kind != FTW_F || nseeds >= MAX_SEEDS || st->st_size > MAX_SEED_SIZE) return 0;
    if (len > 5 && (strcmp(path + len - 5, ".json") == 0 || strcmp(path + len - 3, ".md") == 0)) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint8_t *d = malloc((size_t)st->st_size + 1);
    size_t n = d ? fread(d, 1, (size_t)st->st_size, f) : 0;
    fclose(f);
    if (!d) return 0;
    seeds[nseeds].data = d;
    seeds[nseeds].size = n;
    nseeds++;
    return 0;
}

static void free_seeds(void)
{
    for (size_t i = 0; i < nseeds; i++) free(seeds[i].data);
    nseeds = 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run(const char *name, mcm_mutator fn, unsigned long iterations)
{
    size_t cap = 2 * MAX_SEED_SIZE;
    uint8_t *cur = malloc(cap), *a = malloc(cap), *b = malloc(cap);
    int bad = 0;
    size_t cur_size = 0, changed = 0, grew = 0, shrank = 0;
    double slowest = 0;
    if (!cur || !a || !b) return 1;
    for (unsigned long i = 0; i < iterations && nseeds && !bad; i++) {
        if (i % 16 == 0) { /* back to a seed now and then */
            const size_t s = i / 16 % nseeds;
            memcpy(cur, seeds[s].data, seeds[s].size);
            cur_size = seeds[s].size;
        }
        static const size_t extra[] = {0, 1, 64, 4096, 65536};
        size_t max_size = cur_size + extra[i % 5];
        if (i % 7 == 3) max_size = cur_size / 2; /* smaller than the input */
        if (max_size > cap) max_size = cap;
        size_t in = cur_size < max_size ? cur_size : max_size;
        unsigned seed = (unsigned)(i * 2654435761u);
        memcpy(a, cur, in);
        double t0 = now();
        size_t na = fn(a, in, max_size, seed);
        double dt = now() - t0;
        if (dt > slowest) slowest = dt;
        if (na > max_size) {
            fprintf(stderr, "%s: iteration %lu: %zu bytes out, max_size %zu\n", name, i, na, max_size);
            bad = 1;
        }
        if (i % 4 == 0) {
            memcpy(b, cur, in);
            size_t nb = fn(b, in, max_size, seed);
            if (nb != na || memcmp(a, b, na) != 0) {
                fprintf(stderr, "%s: iteration %lu: not deterministic\n", name, i);
                bad = 1;
            }
        }
        changed += na != in || memcmp(a, cur, na) != 0;
        grew += na > in;
        shrank += na < in;
        memcpy(cur, a, na);
        cur_size = na;
    }
    printf("%s: %lu iterations over %zu seeds: %zu changed, %zu grew, %zu shrank, slowest call %.1f ms\n", name,
           iterations, nseeds, changed, grew, shrank, slowest * 1e3);
    if (slowest > 5.0) { /* generous: ASan on a shared machine */
        fprintf(stderr, "%s: a call took %.1f s\n", name, slowest);
        bad = 1;
    }
    if (nseeds && changed < iterations / 2) {
        fprintf(stderr, "%s: only %zu of %lu calls changed the input\n", name, changed, iterations);
        bad = 1;
    }
    free(cur);
    free(a);
    free(b);
    return bad;
}

/* Cut 0 of the file, again and again, as the minimiser would when every
 * cut keeps its site: returns the cuts made, each checked to shrink. */
static size_t cut_down(const char *name, mcm_cutter cut, uint8_t *a, size_t size, int *bad)
{
    size_t made = 0;
    for (size_t k = 0; !*bad && made < MAX_CUTS && k < MAX_CUTS;) {
        size_t n = cut(a, size, k);
        if (n == 0) break;
        if (n > size) {
            fprintf(stderr, "%s: cut %zu grew the file from %zu to %zu bytes\n", name, k, size, n);
            *bad = 1;
        }
        if (n < size) made++, size = n; /* cuts are numbered again on the new file */
        else k++;
    }
    return made;
}

static int cuts(const char *name, mcm_cutter cut)
{
    uint8_t *a = malloc(MAX_SEED_SIZE), *b = malloc(MAX_SEED_SIZE);
    int bad = !a || !b;
    size_t total = 0, made = 0;
    for (size_t s = 0; s < nseeds && !bad; s++) {
        for (size_t k = 0; !bad && k < MAX_CUTS; k++) {
            memcpy(a, seeds[s].data, seeds[s].size);
            memcpy(b, seeds[s].data, seeds[s].size);
            size_t na = cut(a, seeds[s].size, k), nb = cut(b, seeds[s].size, k);
            if (na == 0) break;
            total++;
            if (na != nb || memcmp(a, b, na) != 0) {
                fprintf(stderr, "%s: seed %zu: cut %zu not deterministic\n", name, s, k);
                bad = 1;
            }
        }
        memcpy(a, seeds[s].data, seeds[s].size);
        made += cut_down(name, cut, a, seeds[s].size, &bad);
    }
    printf("%s: %zu structural cuts over %zu seeds, %zu made one after another\n", name, total, nseeds, made);
    if (nseeds && made == 0) {
        fprintf(stderr, "%s: no structural cut shrank any seed\n", name);
        bad = 1;
    }
    free(a);
    free(b);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mcm_selftest ITERATIONS CORPUS [FORMAT...]\n");
        return 2;
    }
    unsigned long iterations = strtoul(argv[1], NULL, 10);
    static const char *const all[] = {"aem", "semodel", "aamf", "e3d", "nlm", "auto"};
    const char *const *formats = argc > 3 ? (const char *const *)argv + 3 : all;
    int nformats = argc > 3 ? argc - 3 : 6;
    int bad = 0;
    for (int f = 0; f < nformats; f++) {
        mcm_mutator fn = mcm_find(formats[f]);
        if (!fn) {
            fprintf(stderr, "unknown format %s\n", formats[f]);
            return 2;
        }
        char dir[4096];
        if (strcmp(formats[f], "auto") == 0) snprintf(dir, sizeof dir, "%s", argv[2]);
        else snprintf(dir, sizeof dir, "%s/%s", argv[2], formats[f]);
        if (nftw(dir, add_seed, 16, FTW_PHYS) != 0) {
            fprintf(stderr, "cannot read %s\n", dir);
            bad = 1;
        }
        bad |= run(formats[f], fn, iterations);
        bad |= cuts(formats[f], mcm_find_cut(formats[f]));
        free_seeds();
    }
    return bad;
}
