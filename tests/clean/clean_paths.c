/*
 * The clean paths (issue 16) decide without reporting: a record they vouch
 * for is skipped, any other goes through the exact checks, which alone
 * report. So a clean path may never change a result. This program holds
 * them to it: every file is validated twice, as shipped (clean paths on)
 * and with mc_settings.exact_only (every clean path declines), and the two
 * results must be equal field by field, every kept instance included.
 *
 * Files: corpus/ and fuzz/regressions/ (each also forced through every
 * format), files of about 300 kB built by the benchmark's builders (many
 * chunks of every clean loop, which the corpus's small files do not reach),
 * SEModel files whose records sit on the edges of the exact checks
 * (semodel_edges.c: the built files are all clean, and a mutant rarely
 * lands on an edge), and byte-mutated copies of all of them
 * (deterministic: seeded by each file's bytes). A mismatch prints the
 * first difference and writes the input to the output directory.
 *
 * usage: mc_clean_paths OUTDIR DIR... [--mutants N] [--built-mutants N]
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "mc_result_diff.h"
#include "mc_validate.h"
#include "semodel_edges.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

typedef struct run {
    const char *outdir;
    unsigned mutants, built_mutants;
    unsigned long files, validations, mismatches;
} run;

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: a fixed sequence per seed on every host */
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A file's mutants are seeded by its bytes, not its path, so that every
 * checkout and build tests the same ones. */
static uint64_t content_seed(const uint8_t *data, size_t size)
{
    uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a */
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * UINT64_C(1099511628211);
    return h;
}

static void save_input(run *rn, const uint8_t *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/mismatch-%lu.bin", rn->outdir, rn->mismatches);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
    fprintf(stderr, "  input written to %s\n", path);
}

/* Validates data both ways; returns the format the clean run found. */
/* Validates data both ways and compares; *info (if not NULL) gets the
 * clean run's statistics. Returns the format the clean run found. */
static mc_format compare(run *rn, const char *name, const char *what, const uint8_t *data, size_t size,
                         mc_format format, mc_info *info)
{
    mc_options o;
    mc_options_init(&o);
    o.format = format;
    o.skip_sha256 = 1;
    o.max_instances = 100000; /* compare (almost) every instance, not the first 10 */
    mc_settings clean, exact;
    mc_settings_resolve(&clean, &o);
    exact = clean;
    exact.exact_only = true;
    mc_result *a = NULL, *b = NULL;
    mc_status sa = mc_validate_sized(data, size, size, &clean, &a);
    mc_status sb = mc_validate_sized(data, size, size, &exact, &b);
    rn->validations += 2;
    mc_format found = a ? a->format : MC_FORMAT_UNKNOWN;
    if (info && a) *info = a->info;
    char buf[1024];
    const char *diff = sa != sb ? "status" : (a && b) ? mc_result_diff(a, b, buf, sizeof buf) : NULL;
    if (diff) {
        if (rn->mismatches++ < 20) { /* the first ones say enough */
            fprintf(stderr, "MISMATCH %s (%s, format %d): %s\n", name, what, (int)format, diff);
            save_input(rn, data, size);
        }
    }
    mc_result_free(a);
    mc_result_free(b);
    return found;
}

/* 1 to 40 changes: bytes replaced by random values or by the ones that sit
 * on the clean paths' edges (float exponents, sign bits, 255 and -1
 * sentinels), and aligned 16- and 32-bit words set to the file's vertex
 * count or one off it (an index equal to the count is the first out of
 * range: random bytes almost never make it). */
static void put_word(uint8_t *p, size_t size, size_t at, unsigned width, uint64_t v)
{
    at -= at % width;
    if (width > size - at) return;
    for (unsigned k = 0; k < width; k++) p[at + k] = (uint8_t)(v >> (8 * k));
}

static void mutate(uint8_t *p, size_t size, uint64_t vertices, uint64_t *seed)
{
    static const uint8_t edges[] = {0x00, 0xFF, 0x7F, 0x80, 0x3F, 0x40, 0x01, 0xFE, 0x7E, 0xBF};
    unsigned n = 1 + (unsigned)(rng_next(seed) % 40);
    for (unsigned i = 0; i < n; i++) {
        size_t at = (size_t)(rng_next(seed) % size);
        uint64_t kind = rng_next(seed) % 5;
        if (kind == 0)
            p[at] = (uint8_t)rng_next(seed);
        else if (kind == 1)
            p[at] = edges[rng_next(seed) % sizeof edges];
        else if (kind == 2)
            p[at] = (uint8_t)(p[at] + 1);
        else if (kind == 3 || !vertices)
            p[at] = (uint8_t)(p[at] ^ (1u << (rng_next(seed) % 8)));
        else
            put_word(p, size, at, rng_next(seed) % 2 ? 4 : 2, vertices - 1 + rng_next(seed) % 3);
    }
}

static void check_file(run *rn, const char *name, const uint8_t *data, size_t size, unsigned mutants)
{
    rn->files++;
    mc_info info = {0};
    mc_format own = compare(rn, name, "as is", data, size, MC_FORMAT_UNKNOWN, &info);
    for (int f = 1; f < MC_FORMAT_COUNT; f++)
        if (mc_format_supported((mc_format)f) && (mc_format)f != own)
            compare(rn, name, "forced", data, size, (mc_format)f, NULL);
    if (!size) return;
    uint8_t *copy = malloc(size);
    if (!copy) return;
    uint64_t seed = content_seed(data, size);
    for (unsigned m = 0; m < mutants; m++) {
        memcpy(copy, data, size);
        mutate(copy, size, info.vertices, &seed);
        compare(rn, name, "mutant", copy, size, own, NULL);
    }
    free(copy);
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *grown = realloc(buf, cap);
            if (!grown) break;
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    *size = n;
    return buf ? buf : malloc(1);
}

static bool skipped_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] == '.' || (n > 5 && strcmp(name + n - 5, ".json") == 0) ||
           (n > 3 && strcmp(name + n - 3, ".md") == 0) || (n > 3 && strcmp(name + n - 3, ".sh") == 0);
}

/* The trees are the project's own (a few levels): depth is bounded anyway. */
static int walk(run *rn, const char *dir, int depth)
{
    if (depth > 16) return 0;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "mc_clean_paths: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (skipped_name(e->d_name)) continue;
        char **grown = realloc(names, (count + 1) * sizeof *names);
        if (!grown) break;
        names = grown;
        names[count++] = strdup(e->d_name);
    }
    closedir(d);
    /* sorted, so that the order of the report does not depend on the file system */
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    int rc = 0;
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        free(names[i]);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (walk(rn, path, depth + 1) != 0) rc = -1;
        } else if (S_ISREG(st.st_mode)) {
            size_t size = 0;
            uint8_t *data = read_all(path, &size);
            if (!data) {
                rc = -1;
                continue;
            }
            check_file(rn, path, data, size, rn->mutants);
            free(data);
        }
    }
    free(names);
    return rc;
}

/* Builds one file (e3d: 0 for bench_build's formats, 1 and 2 for the
 * uncompressed E3D files, unskinned and skinned) and checks it. */
static int check_one_built(run *rn, int f, int e3d, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/built-%s.bin", rn->outdir, name);
    bench_e3d_blocks *blocks = malloc(sizeof *blocks);
    int rc = !blocks ? -1
             : e3d   ? bench_build_e3d(300000, path, e3d == 2, false, blocks)
                     : bench_build((bench_format)f, 300000, path, blocks);
    free(blocks);
    if (rc != 0) {
        fprintf(stderr, "mc_clean_paths: could not build %s\n", path);
        return -1;
    }
    size_t size = 0;
    uint8_t *data = read_all(path, &size);
    if (!data) return -1;
    check_file(rn, path, data, size, rn->built_mutants);
    free(data);
    remove(path);
    return 0;
}

/* Files of about 300 kB: many chunks of every clean loop. The compressed
 * E3D files' mutants mostly break their LZMA streams; the uncompressed ones
 * put the mutations in the vertex data. */
static int check_built(run *rn)
{
    static const char *names[BENCH_FORMATS] = {"aem", "semodel-2018", "semodel-draft", "samf",
                                               "aamf-legacy", "nlm", "e3d", "e3d-skinned",
                                               "aem2025"};
    for (int f = 0; f < BENCH_FORMATS; f++)
        if (check_one_built(rn, f, 0, names[f]) != 0) return -1;
    if (check_one_built(rn, 0, 1, "e3d-plain") != 0 || check_one_built(rn, 0, 2, "e3d-plain-skinned") != 0)
        return -1;
    return 0;
}

static void check_edge_file(void *ctx, const char *name, const uint8_t *data, size_t size)
{
    run *rn = ctx;
    check_file(rn, name, data, size, 4);
}

/* The library runs in its caller's process, and a caller (a game engine,
 * an audio plug-in) may run with denormals-are-zero and flush-to-zero: the
 * exact checks then see a subnormal float as 0, and a clean path that reads
 * a float's bits must decline it rather than decide otherwise. So the edge
 * files and the trees are checked again in that mode (x86 SSE only). */
static int daz_pass(run *rn, const char *const *dirs, int ndirs)
{
#if defined(__SSE2__)
    unsigned saved = _mm_getcsr(), mutants = rn->mutants;
    _mm_setcsr(saved | 0x8040u); /* DAZ | FTZ */
    rn->mutants = mutants < 4 ? mutants : 4;
    int rc = semodel_edges_each(check_edge_file, rn);
    for (int i = 0; i < ndirs; i++)
        if (walk(rn, dirs[i], 0) != 0) rc = -1;
    rn->mutants = mutants;
    _mm_setcsr(saved);
    return rc;
#else
    (void)rn, (void)dirs, (void)ndirs;
    return 0;
#endif
}

int main(int argc, char **argv)
{
    run rn = {NULL, 24, 150, 0, 0, 0};
    const char *dirs[16];
    int ndirs = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--mutants") == 0 && i + 1 < argc)
            rn.mutants = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--built-mutants") == 0 && i + 1 < argc)
            rn.built_mutants = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!rn.outdir)
            rn.outdir = argv[i];
        else if (ndirs < 16)
            dirs[ndirs++] = argv[i];
    }
    if (!rn.outdir) {
        fprintf(stderr, "usage: mc_clean_paths OUTDIR DIR... [--mutants N] [--built-mutants N]\n");
        return 2;
    }
    mkdir(rn.outdir, 0777);
    int rc = check_built(&rn);
    if (semodel_edges_each(check_edge_file, &rn) != 0) rc = -1;
    for (int i = 0; i < ndirs; i++)
        if (walk(&rn, dirs[i], 0) != 0) rc = -1;
    if (daz_pass(&rn, dirs, ndirs) != 0) rc = -1;
    printf("clean paths: %lu files, %lu validations, %lu mismatches\n", rn.files, rn.validations, rn.mismatches);
    if (rc != 0) return 2;
    return rn.mismatches ? 1 : 0;
}
