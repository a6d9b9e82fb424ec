/*
 * Benchmark (not a test): every goal of docs/PERFORMANCE.md as a ratio
 * against a yardstick measured in the same run, interleaved, median of
 * --runs rounds. Prints one markdown table.
 *
 *   mc_bench [--quick] [--runs N] [--mb N] [--dir DIR] [--cli MODELCHECK]
 *   mc_bench --time FILE [--runs N]
 *
 * --time reads FILE into memory, validates it (no hash) --runs times in
 * this one process and prints {"first": s, "warm": s}: the first call, as
 * a command makes it, and the median of the others (the first again with
 * --runs 1). It is the native side of tests/web/wasm_bench.mjs, which times
 * the WebAssembly build's validation of the bytes in its memory the same
 * way.
 * --quick builds small files and runs each comparison once: a smoke that
 * asserts nothing about time, only that every comparison runs and that -j
 * output equals -j 1 output. Without --cli the CLI rows (hash by output
 * kind, -j) are left out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "LzmaDec.h"
#include "aamf_builder.h"
#include "aem_builder.h"
#include "bench.h"
#include "modelcheck.h"
#include "nlm_builder.h"
#include "semodel_builder.h"

#define MAX_RUNS 31

typedef struct config {
    int quick, runs;
    uint64_t bytes; /* per fixed-layout file */
    const char *dir, *cli, *time;
} config;

static const char *const format_names[BENCH_FORMATS] = {
    "AEM", "SEModel 2018", "SEModel draft", "SAMF v2", "AAMF legacy", "NLM", "E3D", "E3D skinned",
    "AEM 2025"};
static const char *const format_files[BENCH_FORMATS] = {
    "big.aem", "big2018.semodel", "bigdraft.semodel", "big.samf", "big.aamf", "big.nlm", "big.e3d",
    "bigskin.e3d", "big2025.aem"};

static int is_e3d(int f)
{
    return f == BENCH_E3D || f == BENCH_E3D_SKINNED;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct mapped {
    const uint8_t *p;
    size_t n;
} mapped;

static int map_file(const char *path, mapped *m)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    m->n = (size_t)st.st_size;
    void *p = mmap(NULL, m->n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return -1;
    m->p = p;
    return 0;
}

static volatile uint64_t sink;

/* The floor: map the file and read every 4-byte word once, in order. */
static double plain_pass(const char *path)
{
    double t0 = now();
    mapped m;
    if (map_file(path, &m) != 0) return -1;
    uint64_t acc = 0;
    for (size_t i = 0; i + 4 <= m.n; i += 4) {
        uint32_t v;
        memcpy(&v, m.p + i, 4);
        acc += v;
    }
    sink += acc;
    munmap((void *)m.p, m.n);
    return now() - t0;
}

/* SHA-256 alone over the mapping: what hashing adds when it is not overlapped. */
static double hash_pass(const char *path)
{
    double t0 = now();
    mapped m;
    if (map_file(path, &m) != 0) return -1;
    unsigned char md[32];
    unsigned int len = 0;
    EVP_Digest(m.p, m.n, md, &len, EVP_sha256(), NULL);
    sink += md[0];
    munmap((void *)m.p, m.n);
    return now() - t0;
}

static double validate(const char *path, int skip_sha256, int *clean)
{
    mc_options o;
    mc_options_init(&o);
    o.skip_sha256 = skip_sha256;
    mc_result *r = NULL;
    double t0 = now();
    mc_status st = mc_validate_path(path, &o, &r);
    double t = now() - t0;
    if (clean) *clean = st == MC_OK && r && r->format != MC_FORMAT_UNKNOWN && mc_result_valid(r);
    mc_result_free(r);
    return st == MC_OK ? t : -1;
}

/* mc_inspect over the mapping: the same walk with the structure sink
 * attached (issue 27: within 2x of validating). */
static double inspect_pass(const char *path)
{
    double t0 = now();
    mapped m;
    if (map_file(path, &m) != 0) return -1;
    mc_inspect *in = NULL;
    mc_status st = mc_inspect_memory(m.p, m.n, NULL, &in);
    if (in) sink += mc_inspect_root(in)->size;
    mc_inspect_free(in);
    munmap((void *)m.p, m.n);
    return st == MC_OK ? now() - t0 : -1;
}

static void *lz_alloc(void *p, size_t n)
{
    (void)p;
    return malloc(n);
}

static void lz_free(void *p, void *a)
{
    (void)p;
    free(a);
}

/* The E3D limit: decode every LZMA block of the file with the LZMA SDK into
 * a buffer of its declared size (docs/formats: u32 size, 5 property bytes,
 * raw stream), nothing else. */
static double lzma_pass(const char *path, const bench_e3d_blocks *blocks)
{
    double t0 = now();
    mapped m;
    if (map_file(path, &m) != 0) return -1;
    ISzAlloc alloc = {lz_alloc, lz_free};
    int ok = 1;
    for (size_t i = 0; i < blocks->count && ok; i++) {
        const uint8_t *b = m.p + blocks->at[i];
        uint32_t len, size;
        memcpy(&len, b + 2, 4);
        memcpy(&size, b + 6, 4);
        uint8_t *out = malloc(size ? size : 1);
        SizeT out_len = size, in_len = len - 6 - 4 - LZMA_PROPS_SIZE;
        ELzmaStatus st;
        ok = out && LzmaDecode(out, &out_len, b + 10 + LZMA_PROPS_SIZE, &in_len, b + 10,
                               LZMA_PROPS_SIZE, LZMA_FINISH_ANY, &st, &alloc) == SZ_OK &&
             out_len == size;
        if (ok) sink += out[size / 2];
        free(out);
    }
    munmap((void *)m.p, m.n);
    return ok ? now() - t0 : -1;
}

static void row(const char *work, double t, const char *yard, double ty)
{
    printf("| %s | %.4f s | %s | %.4f s | %.2fx |\n", work, t, yard, ty, t / ty);
}

static int bench_formats(const config *cfg)
{
    char path[BENCH_FORMATS][512];
    bench_e3d_blocks *blocks = calloc(BENCH_FORMATS, sizeof *blocks); /* filled for E3D */
    if (!blocks) return -1;
    for (int f = 0; f < BENCH_FORMATS; f++) {
        snprintf(path[f], sizeof path[f], "%s/%s", cfg->dir, format_files[f]);
        /* E3D's bound is the LZMA decode, not the file size: a smaller file
         * (its encoding is slow) */
        uint64_t bytes = is_e3d(f) ? cfg->bytes / 4 : cfg->bytes;
        if (bench_build((bench_format)f, bytes, path[f], &blocks[f]) != 0) {
            fprintf(stderr, "mc_bench: cannot build %s\n", path[f]);
            free(blocks);
            return -1;
        }
    }
    double plain[BENCH_FORMATS][MAX_RUNS], checks[BENCH_FORMATS][MAX_RUNS],
        hashed[BENCH_FORMATS][MAX_RUNS], sha[BENCH_FORMATS][MAX_RUNS], lz[BENCH_FORMATS][MAX_RUNS],
        insp[BENCH_FORMATS][MAX_RUNS];
    int clean[BENCH_FORMATS];
    for (int r = 0; r < cfg->runs; r++)
        for (int f = 0; f < BENCH_FORMATS; f++) {
            plain[f][r] = plain_pass(path[f]);
            checks[f][r] = validate(path[f], 1, &clean[f]);
            hashed[f][r] = validate(path[f], 0, NULL);
            sha[f][r] = hash_pass(path[f]);
            lz[f][r] = is_e3d(f) ? lzma_pass(path[f], &blocks[f]) : 0;
            insp[f][r] = inspect_pass(path[f]);
            if (plain[f][r] < 0 || checks[f][r] < 0 || hashed[f][r] < 0 || sha[f][r] < 0 || lz[f][r] < 0 ||
                insp[f][r] < 0) {
                fprintf(stderr, "mc_bench: %s: a measurement failed\n", path[f]);
                free(blocks);
                return -1;
            }
        }
    printf("| work | time | yardstick | time | ratio |\n|---|---|---|---|---|\n");
    for (int f = 0; f < BENCH_FORMATS; f++) {
        struct stat st;
        char work[160], yard[160];
        if (stat(path[f], &st) != 0) st.st_size = 0;
        snprintf(work, sizeof work, "%s, %.1f MB, checks only%s", format_names[f],
                 (double)st.st_size / 1e6, clean[f] ? "" : " (NOT CLEAN)");
        double tc = median(checks[f], cfg->runs);
        if (is_e3d(f)) {
            snprintf(yard, sizeof yard, "LZMA SDK decode of its %zu blocks", blocks[f].count);
            row(work, tc, yard, median(lz[f], cfg->runs));
        }
        row(work, tc, "plain pass over the mapping", median(plain[f], cfg->runs));
        snprintf(work, sizeof work, "%s, with SHA-256 (overlapped)", format_names[f]);
        row(work, median(hashed[f], cfg->runs), "checks only", tc);
        snprintf(work, sizeof work, "%s, SHA-256 alone", format_names[f]);
        row(work, median(sha[f], cfg->runs), "checks only", tc);
        snprintf(work, sizeof work, "%s, inspect (structure tree)", format_names[f]);
        row(work, median(insp[f], cfg->runs), "checks only", tc);
    }
    free(blocks);
    return 0;
}

/* ---- the CLI: hashing by output kind, -j ---- */

typedef struct run_stat {
    double seconds, cpu; /* wall; user + system */
    long max_rss_kb;
    int status;
} run_stat;

/* Runs argv with stdout to out_path (or /dev/null), waits, measures. */
static run_stat run(char *const argv[], const char *out_path)
{
    run_stat rs = {-1, 0, 0, -1};
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) return rs;
    if (pid == 0) {
        int fd = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0) _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) return rs;
    rs.seconds = now() - t0;
    rs.max_rss_kb = ru.ru_maxrss;
    rs.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    rs.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return rs;
}

static int same_file(const char *a, const char *b)
{
    mapped x, y;
    if (map_file(a, &x) != 0) return 0;
    if (map_file(b, &y) != 0) {
        munmap((void *)x.p, x.n);
        return 0;
    }
    int same = x.n == y.n && memcmp(x.p, y.p, x.n) == 0;
    munmap((void *)x.p, x.n);
    munmap((void *)y.p, y.n);
    return same;
}

static int bench_cli_hash(const config *cfg)
{
    char file[512];
    snprintf(file, sizeof file, "%s/%s", cfg->dir, format_files[BENCH_AEM]);
    char *text[] = {(char *)cfg->cli, "-q", file, NULL};
    char *text_nohash[] = {(char *)cfg->cli, "-q", "--no-sha256", file, NULL};
    char *json[] = {(char *)cfg->cli, "-o", "json", file, NULL};
    char *json_nohash[] = {(char *)cfg->cli, "-o", "json", "--no-sha256", file, NULL};
    char *sarif[] = {(char *)cfg->cli, "-o", "sarif", file, NULL};
    char *sarif_nohash[] = {(char *)cfg->cli, "-o", "sarif", "--no-sha256", file, NULL};
    double t[6][MAX_RUNS];
    for (int r = 0; r < cfg->runs; r++) {
        run_stat s[6] = {run(text, NULL),  run(text_nohash, NULL),  run(json, NULL),
                         run(json_nohash, NULL), run(sarif, NULL), run(sarif_nohash, NULL)};
        for (int k = 0; k < 6; k++) {
            if (s[k].status != 0) {
                fprintf(stderr, "mc_bench: %s exited %d\n", cfg->cli, s[k].status);
                return -1;
            }
            t[k][r] = s[k].seconds;
        }
    }
    row("CLI, AEM, default (text)", median(t[0], cfg->runs), "`--no-sha256`", median(t[1], cfg->runs));
    row("CLI, AEM, `--output json`", median(t[2], cfg->runs), "`--output json --no-sha256`",
        median(t[3], cfg->runs));
    row("CLI, AEM, `--output sarif`", median(t[4], cfg->runs), "`--output sarif --no-sha256`",
        median(t[5], cfg->runs));
    return 0;
}

static int write_buf(mcb_buf *b, const char *path)
{
    int rc = b->oom ? -1 : mcb_write_file(b, path);
    mcb_free(b);
    return rc;
}

/* One sample file of kind k (of 7): small valid models of every format. */
static int write_sample(int k, const char *path)
{
    mcb_buf b = {0};
    switch (k % 7) {
    case 0: {
        aemb_model *m = aemb_sample(AEMB_SKINNED_ANIMATED);
        if (!m) return -1;
        aemb_write(m, &b);
        aemb_free(m);
        break;
    }
    case 1:
    case 2: {
        semb_model *m = semb_sample(SEMB_SKINNED, k % 7 == 1 ? SEMB_2018 : SEMB_DRAFT);
        if (!m) return -1;
        semb_write(m, &b);
        semb_free(m);
        break;
    }
    case 3:
    case 4: {
        aamfb_model *m = aamfb_sample(AAMFB_32_BONES, k % 7 == 4);
        if (!m) return -1;
        aamfb_write(m, &b);
        aamfb_free(m);
        break;
    }
    default: {
        nlmb_model *m = nlmb_sample(k % 7 == 5 ? NLMB_SKINNED_ANIMATED : NLMB_STATIC_TEXTURED);
        if (!m) return -1;
        nlmb_write(m, &b);
        nlmb_free(m);
        break;
    }
    }
    return write_buf(&b, path);
}

static int make_small_dir(const char *dir, int files)
{
    char path[600];
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
    for (int i = 0; i < files; i++) {
        if (i % 1000 == 0) {
            snprintf(path, sizeof path, "%s/%03d", dir, i / 1000);
            if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
        }
        snprintf(path, sizeof path, "%s/%03d/m%05d", dir, i / 1000, i);
        if (write_sample(i, path) != 0) return -1;
    }
    return 0;
}

static int make_large_dir(const char *dir, int files, uint64_t bytes)
{
    static const bench_format kinds[] = {BENCH_AEM, BENCH_NLM, BENCH_SEMODEL_2018, BENCH_SAMF};
    char path[600];
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
    for (int i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/f%02d", dir, i);
        if (bench_build(kinds[i % 4], bytes, path, NULL) != 0) return -1;
    }
    return 0;
}

/* The first field of /proc/loadavg: how busy the machine was. */
static const char *load_average(void)
{
    static char buf[32];
    snprintf(buf, sizeof buf, "?");
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%31s", buf) != 1) snprintf(buf, sizeof buf, "?");
        fclose(f);
    }
    return buf;
}

/* -j 1 against -j N on a directory: time, peak RSS, identical output. */
static int bench_jobs(const config *cfg, const char *label, const char *dir)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char jn[32], out1[600], outn[600];
    snprintf(jn, sizeof jn, "-j%ld", cpus > 1 ? cpus : 2);
    snprintf(out1, sizeof out1, "%s.j1.json", dir);
    snprintf(outn, sizeof outn, "%s.jn.json", dir);
    char *one[] = {(char *)cfg->cli, "-q", "-j1", (char *)dir, NULL};
    char *many[] = {(char *)cfg->cli, "-q", jn, (char *)dir, NULL};
    char *one_json[] = {(char *)cfg->cli, "-o", "json", "-j1", (char *)dir, NULL};
    char *many_json[] = {(char *)cfg->cli, "-o", "json", jn, (char *)dir, NULL};
    run_stat a = run(one_json, out1), b = run(many_json, outn);
    if (a.status != 0 || b.status != 0 || !same_file(out1, outn)) {
        fprintf(stderr, "mc_bench: %s: %s output differs from -j1 (or a run failed: %d, %d)\n",
                dir, jn, a.status, b.status);
        return -1;
    }
    double t1[MAX_RUNS], tn[MAX_RUNS], c1[MAX_RUNS], cn[MAX_RUNS];
    long rss1 = 0, rssn = 0;
    for (int r = 0; r < cfg->runs; r++) {
        run_stat s1 = run(one, NULL), sn = run(many, NULL);
        if (s1.status != 0 || sn.status != 0) return -1;
        t1[r] = s1.seconds;
        tn[r] = sn.seconds;
        c1[r] = s1.cpu;
        cn[r] = sn.cpu;
        if (s1.max_rss_kb > rss1) rss1 = s1.max_rss_kb;
        if (sn.max_rss_kb > rssn) rssn = sn.max_rss_kb;
    }
    char work[200], yard[200];
    printf("| load average before the runs | | | | %s |\n", load_average());
    snprintf(work, sizeof work, "CLI `%s`, %s (peak RSS %ld kB, CPU %.3f s)", jn, label, rssn,
             median(cn, cfg->runs));
    snprintf(yard, sizeof yard, "`-j1` (peak RSS %ld kB, CPU %.3f s)", rss1, median(c1, cfg->runs));
    double m1 = median(t1, cfg->runs), mn = median(tn, cfg->runs);
    row(work, mn, yard, m1);
    printf("|   speed-up %s | | | | %.2fx |\n", jn, m1 / mn);
    return 0;
}

static int parse_args(int argc, char **argv, config *c)
{
    c->runs = 7;
    c->bytes = UINT64_C(120) << 20;
    c->dir = "/tmp/mc_bench";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) {
            c->quick = 1;
        } else if (strcmp(a, "--runs") == 0 && v) {
            c->runs = atoi(v), i++;
        } else if (strcmp(a, "--mb") == 0 && v) {
            c->bytes = strtoull(v, NULL, 10) << 20, i++;
        } else if (strcmp(a, "--dir") == 0 && v) {
            c->dir = v, i++;
        } else if (strcmp(a, "--cli") == 0 && v) {
            c->cli = v, i++;
        } else if (strcmp(a, "--time") == 0 && v) {
            c->time = v, i++;
        } else {
            fprintf(stderr, "usage: mc_bench [--quick] [--runs N] [--mb N] [--dir DIR] [--cli MODELCHECK]\n"
                            "       mc_bench --time FILE [--runs N]\n");
            return -1;
        }
    }
    if (c->quick) {
        c->runs = 1;
        c->bytes = UINT64_C(1) << 20;
    }
    if (c->runs < 1 || c->runs > MAX_RUNS || c->bytes == 0) {
        fprintf(stderr, "mc_bench: --runs 1..%d, --mb > 0\n", MAX_RUNS);
        return -1;
    }
    return 0;
}

/* FILE's bytes copied into memory of their own, as the WebAssembly side
 * holds them (not the mapping). */
static uint8_t *read_whole(const char *path, size_t *n)
{
    mapped m;
    if (map_file(path, &m) != 0) return NULL;
    uint8_t *b = malloc(m.n);
    if (b) memcpy(b, m.p, m.n);
    *n = m.n;
    munmap((void *)m.p, m.n);
    return b;
}

/* --time: the validation of one file's bytes in memory (mc_validate_memory,
 * no hash), first call and later ones: the work wasm_bench.mjs times in
 * the WebAssembly build, on the same footing. */
static int time_file(const config *cfg)
{
    size_t n = 0;
    uint8_t *b = read_whole(cfg->time, &n);
    if (!b) {
        fprintf(stderr, "mc_bench: cannot validate %s\n", cfg->time);
        return 1;
    }
    mc_options o;
    mc_options_init(&o);
    o.skip_sha256 = 1;
    double t[MAX_RUNS];
    int rc = 0;
    for (int i = 0; i < cfg->runs && rc == 0; i++) {
        mc_result *r = NULL;
        double t0 = now();
        if (mc_validate_memory(b, n, &o, &r) != MC_OK) rc = 1;
        t[i] = now() - t0;
        mc_result_free(r);
    }
    free(b);
    if (rc) {
        fprintf(stderr, "mc_bench: cannot validate %s\n", cfg->time);
        return 1;
    }
    double warm = cfg->runs > 1 ? median(t + 1, cfg->runs - 1) : t[0];
    printf("{\"first\": %.6f, \"warm\": %.6f}\n", t[0], warm);
    return 0;
}

int main(int argc, char **argv)
{
    config cfg = {0};
    if (parse_args(argc, argv, &cfg) != 0) return 2;
    if (cfg.time) return time_file(&cfg);
    if (mkdir(cfg.dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "mc_bench: cannot create %s: %s\n", cfg.dir, strerror(errno));
        return 1;
    }
    printf("mc_bench: %d run(s) per measurement, medians, %ld online CPUs\n\n", cfg.runs,
           sysconf(_SC_NPROCESSORS_ONLN));
    if (bench_formats(&cfg) != 0) return 1;
    if (!cfg.cli) return 0;
    char small[512], large[512];
    snprintf(small, sizeof small, "%s/small", cfg.dir);
    snprintf(large, sizeof large, "%s/large", cfg.dir);
    int small_files = cfg.quick ? 70 : 10000, large_files = cfg.quick ? 4 : 20;
    uint64_t large_bytes = cfg.quick ? UINT64_C(1) << 20 : UINT64_C(50) << 20;
    if (make_small_dir(small, small_files) != 0 || make_large_dir(large, large_files, large_bytes) != 0) {
        fprintf(stderr, "mc_bench: cannot build the directories under %s\n", cfg.dir);
        return 1;
    }
    char label_small[64], label_large[64];
    snprintf(label_small, sizeof label_small, "%d small files", small_files);
    snprintf(label_large, sizeof label_large, "%d files of %" PRIu64 " MB", large_files,
             large_bytes >> 20);
    if (bench_cli_hash(&cfg) != 0 || bench_jobs(&cfg, label_small, small) != 0 ||
        bench_jobs(&cfg, label_large, large) != 0)
        return 1;
    return 0;
}
