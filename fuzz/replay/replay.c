/*
 * Runs a fuzz harness over files and directories of inputs, with any
 * compiler and no fuzzing engine: the regression and seed corpora replay
 * under ctest (and the asan preset) this way.
 *
 *   mc_replay_<target> PATH... [--regressions DIR]
 *
 * A crash, sanitizer report or abort of the harness is a failure, as in a
 * fuzzing run. Beyond that, a folder holding an expectations.txt gives each
 * of its inputs an expected outcome, one line per input:
 *
 *   <input file name>  <valid | invalid | no-crash>  [deadline in ms]
 *
 * The verdict is what `modelcheck [--format F] INPUT` says with default
 * options, F being this target's format (none for auto); it is checked when
 * the folder is named after this target (its name without _sa: the target
 * that found the input). The deadline, in CPU time of one harness call, is
 * checked by every target: a hang is a bug wherever it shows; the line of
 * an input named timeout-* (libFuzzer's name for a hang) must give one.
 * Every input must have its line and every line its input. With
 * --regressions DIR, every folder directly under DIR that holds inputs
 * must have an expectations.txt.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "modelcheck.h"

#ifndef MC_REPLAY_TARGET
#error "build with -DMC_REPLAY_TARGET=\"<target>\" -DMC_REPLAY_FORMAT=MC_FORMAT_<X>"
#endif

#define EXPECTATIONS "expectations.txt"
/* libFuzzer's name for an input that ran past -timeout: its line must carry
 * a deadline. */
#define TIMEOUT_PREFIX "timeout-"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum verdict { V_NO_CRASH, V_VALID, V_INVALID };
static const char *const verdict_name[] = {"no-crash", "valid", "invalid"};

typedef struct expectation {
    char name[256];
    enum verdict verdict;
    long deadline_ms; /* -1: none */
    bool seen;
} expectation;

typedef struct folder {
    expectation *e;
    size_t n;
    bool own;     /* named after this target: verdicts are checked */
    bool missing; /* it needs an expectations.txt and has none */
} folder;

typedef struct replay {
    unsigned long inputs, checked, failures;
} replay;

static void fail(replay *rp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(replay *rp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("replay: FAIL ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    rp->failures++;
}

/* ---- expectations.txt ---- */

static int parse_verdict(const char *s, enum verdict *v)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(s, verdict_name[i]) == 0) {
            *v = (enum verdict)i;
            return 0;
        }
    return -1;
}

/* Reads dir/expectations.txt into f; 0 if there is none, 1 if read, -1 on
 * a malformed file (reported). */
static int read_expectations(replay *rp, const char *dir, folder *f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, EXPECTATIONS);
    FILE *in = fopen(path, "r");
    if (!in && errno == ENOENT) return 0;
    if (!in) {
        fail(rp, "%s: cannot open", path);
        return -1;
    }
    char line[1024];
    unsigned no = 0;
    int rc = 1;
    while (rc == 1 && fgets(line, sizeof line, in)) {
        no++;
        char name[256], verdict[32], deadline[32], extra[2];
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        int k = sscanf(line, "%255s %31s %31s %1s", name, verdict, deadline, extra);
        if (k <= 0) continue;
        expectation e = {.deadline_ms = -1};
        char *end = NULL;
        if (k < 2 || k > 3 || parse_verdict(verdict, &e.verdict) != 0 || strchr(name, '/') ||
            (k == 3 && ((e.deadline_ms = strtol(deadline, &end, 10)) < 0 || *end))) {
            fail(rp, "%s:%u: expected \"<input> <valid|invalid|no-crash> [deadline-ms]\"", path, no);
            rc = -1;
            break;
        }
        if (e.deadline_ms < 0 && strncmp(name, TIMEOUT_PREFIX, strlen(TIMEOUT_PREFIX)) == 0) {
            /* a hang found by the engine: without a deadline the replay
             * would only wait for it, never fail on it */
            fail(rp, "%s:%u: %s is a timeout: its line needs a deadline in ms", path, no, name);
            rc = -1;
            break;
        }
        snprintf(e.name, sizeof e.name, "%s", name);
        expectation *grown = realloc(f->e, (f->n + 1) * sizeof *grown);
        if (!grown) {
            fail(rp, "%s: out of memory", path);
            rc = -1;
            break;
        }
        f->e = grown;
        f->e[f->n++] = e;
    }
    fclose(in);
    return rc;
}

static expectation *find(folder *f, const char *name)
{
    for (size_t i = 0; f && i < f->n; i++)
        if (strcmp(f->e[i].name, name) == 0) return &f->e[i];
    return NULL;
}

/* The folder names this target: "diff_e3d", or "e3d_sa" for mc_replay_e3d. */
static bool own_folder(const char *dir)
{
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    size_t n = strlen(MC_REPLAY_TARGET);
    return strncmp(base, MC_REPLAY_TARGET, n) == 0 && (base[n] == '\0' || strcmp(base + n, "_sa") == 0);
}

/* ---- one input ---- */

static const char *current; /* the input a deadline timer interrupts */

static void deadline_passed(int sig)
{
    (void)sig;
    static const char msg[] = "replay: FAIL deadline passed (CPU time), still running: ";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    ignored = write(2, current, strlen(current));
    ignored = write(2, "\n", 1);
    (void)ignored;
    _exit(1);
}

static void arm(long ms)
{
    struct itimerval t = {{0, 0}, {ms / 1000, (ms % 1000) * 1000}};
    setitimer(ITIMER_PROF, &t, NULL);
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, got;
    uint8_t *buf = malloc(cap);
    *len = 0;
    while (buf && (got = fread(buf + *len, 1, cap - *len, f)) > 0) {
        *len += got;
        if (*len < cap) continue;
        uint8_t *n = realloc(buf, cap * 2);
        if (!n) free(buf);
        buf = n;
        cap *= 2;
    }
    fclose(f);
    return buf;
}

static enum verdict validator_verdict(const uint8_t *data, size_t len)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.format = MC_REPLAY_FORMAT;
    opt.skip_sha256 = 1;
    mc_result *r = NULL;
    if (mc_validate_memory(len ? data : NULL, len, &opt, &r) != MC_OK) return V_NO_CRASH;
    enum verdict v = mc_result_valid(r) ? V_VALID : V_INVALID;
    mc_result_free(r);
    return v;
}

static int replay_file(replay *rp, const char *path, folder *f, const char *name)
{
    size_t len;
    uint8_t *buf = slurp(path, &len);
    if (!buf) {
        fail(rp, "%s: cannot read", path);
        return -1;
    }
    expectation *e = find(f, name);
    if (f && !e)
        fail(rp, "%s: no line in %s (what must it give?)%s", path, EXPECTATIONS,
             f->missing ? "; the folder has no " EXPECTATIONS : "");
    if (e) e->seen = true;
    long deadline = e ? e->deadline_ms : -1;
    current = path;
    if (deadline > 0) arm(deadline);
    double t0 = cpu_ms();
    LLVMFuzzerTestOneInput(buf, len);
    double spent = cpu_ms() - t0;
    if (deadline > 0) arm(0);
    rp->inputs++;
    if (deadline >= 0 && spent > (double)deadline)
        fail(rp, "%s: took %.3f ms of CPU time (deadline %ld ms)", path, spent, deadline);
    if (e && f->own && e->verdict != V_NO_CRASH) {
        enum verdict got = validator_verdict(buf, len);
        rp->checked++;
        if (got != e->verdict)
            fail(rp, "%s: expected %s, the validator says %s", path, verdict_name[e->verdict],
                 verdict_name[got]);
    }
    free(buf);
    return 0;
}

/* ---- folders ---- */

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static bool skipped(const char *name)
{
    size_t len = strlen(name);
    return name[0] == '.' || (len > 3 && strcmp(name + len - 3, ".md") == 0) || /* folder READMEs */
           strcmp(name, EXPECTATIONS) == 0;
}

/* Inputs are kept at most a few levels deep (corpus/<format>/<set>/). */
static int replay_path(replay *rp, const char *path, int depth, bool need_expectations, folder *parent,
                       const char *name)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fail(rp, "%s: cannot stat", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) return replay_file(rp, path, parent, name);
    if (depth > 8) return 0;
    folder f = {.own = own_folder(path)};
    int have = read_expectations(rp, path, &f);
    if (have < 0) return -1;
    f.missing = !have && need_expectations; /* an empty folder needs none */
    bool checked = have || f.missing;
    struct dirent **list;
    int n = scandir(path, &list, NULL, by_name);
    if (n < 0) {
        free(f.e);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *entry = list[i]->d_name;
        if (!skipped(entry) && rc == 0) {
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, entry);
            rc = replay_path(rp, sub, depth + 1, false, checked ? &f : NULL, entry);
        }
        free(list[i]);
    }
    free(list);
    for (size_t i = 0; i < f.n; i++)
        if (!f.e[i].seen) fail(rp, "%s/%s: named in %s but not there", path, f.e[i].name, EXPECTATIONS);
    free(f.e);
    return rc;
}

/* DIR/<target>/...: every target folder must carry its expectations. */
static int replay_regressions(replay *rp, const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, by_name);
    if (n < 0) {
        fail(rp, "%s: cannot list", dir);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *entry = list[i]->d_name;
        if (!skipped(entry) && rc == 0) {
            char sub[4096];
            struct stat st;
            snprintf(sub, sizeof sub, "%s/%s", dir, entry);
            bool is_dir = stat(sub, &st) == 0 && S_ISDIR(st.st_mode);
            rc = replay_path(rp, sub, 1, is_dir, NULL, entry);
        }
        free(list[i]);
    }
    free(list);
    return rc;
}

int main(int argc, char **argv)
{
    replay rp = {0};
    int rc = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = deadline_passed;
    sigaction(SIGPROF, &sa, NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--regressions") == 0 && i + 1 < argc) {
            if (replay_regressions(&rp, argv[++i]) != 0) rc = 1;
        } else {
            const char *base = strrchr(argv[i], '/');
            if (replay_path(&rp, argv[i], 0, false, NULL, base ? base + 1 : argv[i]) != 0) rc = 1;
        }
    }
    printf("replayed %lu inputs, %lu verdicts checked, %lu failures\n", rp.inputs, rp.checked, rp.failures);
    return rc || rp.failures ? 1 : 0;
}
