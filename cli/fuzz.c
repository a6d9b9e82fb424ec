/*
 * modelcheck fuzz --loader CMD --format F [options]: a black-box campaign
 * against any loader command (issue 34). Inputs are the bundled corpus
 * files of F, each mutated by a few stacked structure-aware mutations of
 * fuzz/mutators (mcm) and byte mutations; batches of them run through
 * certify's runner (mcc_run: the same sandbox, timeouts and --max-memory).
 * A finding is a crash (a signal, a sanitizer report, a managed runtime's
 * unhandled exception, --crash-pattern on stderr), a hang, an oom or, with
 * --diff, a verdict the validator contradicts. Findings are grouped into
 * sites by signature; each site keeps one reproducer, minimised by structure
 * then by bytes, in the findings directory, whose state.json lets a
 * campaign resume there.
 * Options and exit codes: usage_text below and docs/FUZZING.md.
 *
 * Without coverage feedback nothing evolves: input number i is a function
 * of (seed, i) only, so the same seed and the same loader give the same
 * inputs in the same order whatever --jobs, and a resumed campaign goes on
 * with the input after the last batch it finished.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cliutil.h"
#include "datadir.h"
#include "fuzz.h"
#include "mc_certify.h"
#include "mc_certify_report.h"
#include "mc_fuzz_limits.h"
#include "mcm.h"
#include "modelcheck.h"

#ifndef MCC_VERSION
#define MCC_VERSION "unknown"
#endif

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };
enum output { OUT_TEXT, OUT_JSON, OUT_HTML };
enum { DIFF_LENIENT = 1, DIFF_STRICT = 2 };
enum kind { KIND_CRASH, KIND_HANG, KIND_OOM, KIND_DISAGREEMENT, KIND_COUNT };
static const char *const kind_names[KIND_COUNT] = {"crash", "hang", "oom", "disagreement"};

/* Seeds above MAX_SEED are left out; a mutant grows by at most GROWTH bytes
 * through at most MAX_STACK mutations (as mcm_gen). A batch is BATCH_PER_JOB
 * inputs per job: the deadline is checked between batches. */
enum { MAX_SEED = 1 << 20, GROWTH = 4096, MAX_STACK = 8, BATCH_PER_JOB = 16 };
/* Minimisation runs per site: prefix bisection, then chunk cuts (blindfuzz). */
/* Minimisation runs per site: structural cuts first, then bytes (the
 * prefix's bisection, then chunks) up to MIN_RUNS in all. */
enum { MIN_CUT_RUNS = 100, MIN_BISECT_RUNS = 40, MIN_RUNS = 300 };
#define STATE_FILE "state.json"
#define PROGRESS_EVERY_S 10.0

static const char usage_text[] =
    "usage: modelcheck fuzz --loader CMD --format FMT [options]\n"
    "Runs a loader command on mutants of the bundled corpus files of FMT (structure-aware and byte\n"
    "mutations, no coverage feedback) through certify's runner, and groups what goes wrong into\n"
    "sites: crashes (signals, sanitizer reports, unhandled Python, .NET/Mono and Java exceptions),\n"
    "hangs, oom and, with --diff, verdicts the validator contradicts (docs/FUZZING.md).\n"
    "\n"
    "      --loader CMD      run by /bin/sh -c per input: {} becomes the input's quoted path,\n"
    "                        {format} its format; exit 0 = accepted, other = rejected\n"
    "  -f, --format FMT      the format the loader reads (aem, semodel, aamf, e3d, nlm)\n"
    "      --seconds N       campaign length (default: until interrupted, or --runs)\n"
    "      --runs N          stop after N inputs\n"
    "  -j, --jobs N          inputs run at once, 1 to 64 (default 1)\n"
    "      --seed S          the inputs' seed (default 1; a resumed campaign keeps its own)\n"
    "      --findings DIR    reproducers and the campaign's state (default ./fuzz-findings);\n"
    "                        a campaign found there is resumed\n"
    "  -o, --output KIND     text (default), json or html, to standard output\n"
    "      --crash-pattern RE  stderr matching this POSIX extended regex is a crash\n"
    "      --diff MODE       lenient, strict or both: accepting a file the validator finds\n"
    "                        errors in (lenient), rejecting one without (strict) is a finding\n"
    "      --no-minimise     keep each site's reproducer as found (default: crashes and\n"
    "                        disagreements minimised by structure, then by bytes, at most\n"
    "                        300 runs each)\n"
    "  -t, --timeout S       seconds per input before it counts as a hang (default 5)\n"
    "      --max-memory N    memory per input in bytes, or 512M (over it: oom); 0: none;\n"
    "                        default as certify's\n"
    "      --sandbox MODE    auto (default), on or off: each input in bubblewrap, as certify\n"
    "  -c, --corpus DIR      corpus with manifest.json (default: the installed one)\n"
    "      --progress, --no-progress  a progress line on stderr (default: redrawn on a\n"
    "                        terminal, else a line every 10 s)\n"
    "  -h, --help            print this help and exit\n"
    "\n"
    "Exit codes: 0 no finding, 1 findings, 2 usage error, bad corpus or findings directory, the\n"
    "loader could not be run, 4 a report could not be written completely.\n";

typedef struct options {
    mcc_loader loader;
    const char *format, *corpus, *findings, *sandbox, *pattern_text;
    enum output output;
    int diff;
    double seconds;          /* 0: none */
    unsigned long long runs; /* 0: none */
    unsigned long seed;
    int seed_given, max_memory_given, progress;
    int no_minimise;
    mcc_run_options run;
    regex_t pattern;
    int has_pattern;
    char bwrap[4096];
    char isolation[400];
} options;

typedef struct site {
    enum kind kind;
    char *signature;
    unsigned long long count;
    char *reproducer;        /* its file name in the findings directory */
    int minimised;           /* 1 tried (kept when smaller), 0 not yet */
} site;

typedef struct seed_file {
    uint8_t *data;
    size_t size;
} seed_file;

typedef struct campaign {
    options *o;
    mcm_mutator mutate;
    seed_file *seeds;
    size_t nseeds;
    char tmp[4096];          /* the batch files' private directory */
    unsigned long long next;  /* the number of the next input */
    unsigned long long execs, execs_start, batch_execs;
    double seconds_before;   /* fuzzing time of the campaign's earlier runs (resumed) */
    double fuzz_ms;          /* this run's time in batches (minimisation not counted) */
    double start_ms, last_progress_ms;
    FILE *progress;
    int tty;
    size_t minimising;       /* the site being minimised (from 1), 0: none */
    site *sites;
    size_t nsites;
} campaign;

#define usage_error(...) mc_cli_complain("modelcheck fuzz", " (try --help)", __VA_ARGS__)

#define fail(...) mc_cli_complain("modelcheck fuzz", "", __VA_ARGS__)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- options ---- */

static int parse_number(const char *s, const char *opt, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v > max)
        return usage_error("%s expects a number from 0 to %llu, got '%s'", opt, max, s);
    *out = v;
    return 0;
}

static int parse_seconds(const char *s, const char *opt, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0) || v > 31536000)
        return usage_error("%s expects a positive number of seconds, got '%s'", opt, s);
    *out = v;
    return 0;
}

static int parse_diff(const char *s, int *out)
{
    if (strcmp(s, "lenient") == 0) *out = DIFF_LENIENT;
    else if (strcmp(s, "strict") == 0) *out = DIFF_STRICT;
    else if (strcmp(s, "both") == 0) *out = DIFF_LENIENT | DIFF_STRICT;
    else return usage_error("--diff expects lenient, strict or both, got '%s'", s);
    return 0;
}

static int parse_output(const char *s, enum output *out)
{
    if (strcmp(s, "text") == 0) *out = OUT_TEXT;
    else if (strcmp(s, "json") == 0) *out = OUT_JSON;
    else if (strcmp(s, "html") == 0) *out = OUT_HTML;
    else return usage_error("unknown output '%s' (text, json or html)", s);
    return 0;
}

static int parse_pattern(options *o, const char *s)
{
    if (o->has_pattern) regfree(&o->pattern);
    o->has_pattern = 0;
    int rc = regcomp(&o->pattern, s, REG_EXTENDED | REG_NEWLINE);
    if (rc != 0) {
        char why[200];
        regerror(rc, &o->pattern, why, sizeof why);
        return usage_error("--crash-pattern '%s': %s", s, why);
    }
    o->has_pattern = 1;
    o->pattern_text = s;
    return 0;
}

static int parse_memory(const char *s, options *o)
{
    uint64_t v;
    if (mc_cli_size(s, &v) != 0 || (v && v < (1u << 20)))
        return usage_error("--max-memory expects bytes (or with K, M, G), 0 or at least 1M, got '%s'", s);
    o->run.max_memory = v;
    o->max_memory_given = 1;
    return 0;
}

enum long_only { OPT_LOADER = 256, OPT_SECONDS, OPT_RUNS, OPT_SEED, OPT_FINDINGS, OPT_PATTERN, OPT_DIFF,
                 OPT_MAX_MEMORY, OPT_SANDBOX, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_NO_MINIMISE };

static int parse_option(options *o, int ch, const char *arg)
{
    unsigned long long v = 0;
    switch (ch) {
    case OPT_LOADER: o->loader.command = arg; return 0;
    case 'f':
        o->format = arg;
        return mcc_format_index(arg) < 0 ? usage_error("unknown format '%s' (aem, semodel, aamf, e3d, nlm)", arg) : 0;
    case OPT_SECONDS: return parse_seconds(arg, "--seconds", &o->seconds);
    case OPT_RUNS: return parse_number(arg, "--runs", ~0ull, &o->runs);
    case 'j':
        if (parse_number(arg, "--jobs", 64, &v) || v < 1) return usage_error("--jobs expects a number from 1 to 64, got '%s'", arg);
        o->run.jobs = (unsigned)v;
        return 0;
    case OPT_SEED:
        if (parse_number(arg, "--seed", 0xFFFFFFFFull, &v)) return EXIT_USAGE;
        o->seed = (unsigned long)v, o->seed_given = 1;
        return 0;
    case OPT_FINDINGS: o->findings = arg; return 0;
    case 'o': return parse_output(arg, &o->output);
    case OPT_PATTERN: return parse_pattern(o, arg);
    case OPT_DIFF: return parse_diff(arg, &o->diff);
    case 't': return parse_seconds(arg, "--timeout", &o->run.timeout_s);
    case OPT_MAX_MEMORY: return parse_memory(arg, o);
    case OPT_SANDBOX:
        o->sandbox = arg;
        return strcmp(arg, "auto") && strcmp(arg, "on") && strcmp(arg, "off")
                   ? usage_error("--sandbox expects auto, on or off, got '%s'", arg) : 0;
    case 'c': o->corpus = arg; return 0;
    case OPT_PROGRESS: o->progress = 1; return 0;
    case OPT_NO_PROGRESS: o->progress = 0; return 0;
    case OPT_NO_MINIMISE: o->no_minimise = 1; return 0;
    default: return EXIT_USAGE;
    }
}

/* 0 to go on, -1 after --help, else the exit code. */
static int parse_args(options *o, int argc, char **argv)
{
    static const struct option longs[] = {
        {"loader", required_argument, NULL, OPT_LOADER}, {"format", required_argument, NULL, 'f'},
        {"seconds", required_argument, NULL, OPT_SECONDS}, {"runs", required_argument, NULL, OPT_RUNS},
        {"jobs", required_argument, NULL, 'j'}, {"seed", required_argument, NULL, OPT_SEED},
        {"findings", required_argument, NULL, OPT_FINDINGS}, {"output", required_argument, NULL, 'o'},
        {"crash-pattern", required_argument, NULL, OPT_PATTERN}, {"diff", required_argument, NULL, OPT_DIFF},
        {"timeout", required_argument, NULL, 't'}, {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
        {"sandbox", required_argument, NULL, OPT_SANDBOX}, {"corpus", required_argument, NULL, 'c'},
        {"progress", no_argument, NULL, OPT_PROGRESS}, {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"no-minimise", no_argument, NULL, OPT_NO_MINIMISE},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    optind = 1;
    int ch, rc = 0, before;
    char refused[160];
    while (rc == 0 && (before = optind, ch = getopt_long(argc, argv, ":f:j:o:t:c:h", longs, NULL)) != -1) {
        if (ch == 'h') return fputs(usage_text, stdout), -1;
        if (ch == '?' || ch == ':') rc = usage_error("%s", mc_cli_refusal(argv, ch, before, refused, sizeof refused));
        else rc = parse_option(o, ch, optarg);
    }
    if (rc) return rc;
    if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
    if (!o->loader.command || !o->loader.command[0]) return usage_error("--loader CMD is required");
    if (!o->format) return usage_error("--format FMT is required (aem, semodel, aamf, e3d, nlm)");
    if (!o->max_memory_given) o->run.max_memory = mcc_default_max_memory(o->run.jobs);
    return 0;
}

/* --sandbox, as certify resolves it for a command loader. */
static int resolve_sandbox(options *o)
{
    char why[300];
    if (strcmp(o->sandbox, "off") == 0) {
        snprintf(o->isolation, sizeof o->isolation, "none (--sandbox off)");
        return 0;
    }
    if (mcc_sandbox_probe(o->bwrap, sizeof o->bwrap, why, sizeof why) != 0) {
        if (strcmp(o->sandbox, "on") == 0) return fail("--sandbox on: %s", why);
        snprintf(o->isolation, sizeof o->isolation, "none (%s)", why);
        fprintf(stderr, "modelcheck fuzz: not isolated: %s\n", why);
        return 0;
    }
    o->run.bwrap = o->bwrap;
    snprintf(o->isolation, sizeof o->isolation, "bubblewrap");
    return 0;
}

/* ---- seeds ---- */

static int by_path(const void *a, const void *b)
{
    return strcmp(((const mcc_case *)a)->path, ((const mcc_case *)b)->path);
}

/* The corpus files of the format (its own cases; the "any" cases are
 * other formats' files), each once, in path order. */
static int load_seeds(campaign *c)
{
    mcc_corpus corpus;
    char why[512], prefix[64];
    if (mcc_corpus_load(c->o->corpus, c->o->format, &corpus, why, sizeof why) != 0)
        return fail("bad corpus: %s", why);
    qsort(corpus.cases, corpus.count, sizeof *corpus.cases, by_path);
    snprintf(prefix, sizeof prefix, "%s/", c->o->format);
    c->seeds = calloc(corpus.count ? corpus.count : 1, sizeof *c->seeds);
    for (size_t i = 0; c->seeds && i < corpus.count; i++) {
        const mcc_case *k = &corpus.cases[i];
        if (strncmp(k->file, prefix, strlen(prefix)) != 0) continue;
        if (i && strcmp(k->path, corpus.cases[i - 1].path) == 0) continue;
        size_t size;
        uint8_t *data = mcc_read_file(k->path, &size);
        if (!data || size > MAX_SEED) {
            free(data);
            continue;
        }
        c->seeds[c->nseeds].data = data;
        c->seeds[c->nseeds++].size = size;
    }
    mcc_corpus_free(&corpus);
    if (!c->seeds) return fail("out of memory");
    if (!c->nseeds) return fail("bad corpus: no %s file under 1 MiB in %s", c->o->format, c->o->corpus);
    return 0;
}

/* ---- inputs ---- */

/* Input number i: a seed file and 1..MAX_STACK mutations, the format's
 * structure-aware mutator three times in four, byte mutation otherwise; all
 * drawn from an rng of (seed, i), so no input depends on another. */
static size_t make_input(const campaign *c, unsigned long long i, uint8_t *buf, size_t cap)
{
    uint64_t key[2] = {c->o->seed, i};
    mcm_rng rng, *r = &rng;
    mcm_rng_seed(r, (unsigned)c->o->seed, (const uint8_t *)key, sizeof key);
    const seed_file *s = &c->seeds[mcm_below(r, c->nseeds)];
    size_t size = s->size, max_size = size + GROWTH < cap ? size + GROWTH : cap;
    memcpy(buf, s->data, size);
    size_t stack = 1 + mcm_below(r, MAX_STACK);
    for (size_t k = 0; k < stack; k++) {
        if (mcm_chance(r, 4)) size = mcm_bytes(r, buf, size, max_size);
        else size = c->mutate(buf, size, max_size, (unsigned)mcm_next(r));
    }
    return size;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = size ? fwrite(data, 1, size, f) : 0;
    return (fclose(f) != 0 || n != size) ? -1 : 0;
}

static void free_cases(mcc_corpus *k)
{
    for (size_t i = 0; i < k->count; i++) free(k->cases[i].file), free(k->cases[i].path);
    free(k->cases);
    k->cases = NULL;
    k->count = 0;
}

/* One case of a private corpus: dir/name, run as the campaign's format. */
static int add_case(const campaign *c, mcc_corpus *k, const char *name)
{
    mcc_case *cs = &k->cases[k->count];
    memset(cs, 0, sizeof *cs);
    size_t len = strlen(c->tmp) + 1 + strlen(name) + 1;
    cs->file = strdup(name);
    cs->path = malloc(len);
    if (!cs->file || !cs->path) return free(cs->file), free(cs->path), -1;
    snprintf(cs->path, len, "%s/%s", c->tmp, name);
    cs->format = mcc_format_names[mcc_format_index(c->o->format)];
    cs->valid = 1;
    k->count++;
    return 0;
}

/* Writes inputs first.. first+n-1 into the private directory as a corpus. */
static int write_batch(campaign *c, unsigned long long first, size_t n, mcc_corpus *k)
{
    uint8_t *buf = malloc(MAX_SEED + GROWTH);
    memset(k, 0, sizeof *k);
    k->dir = c->tmp;
    k->cases = calloc(n, sizeof *k->cases);
    int rc = buf && k->cases ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t size = make_input(c, first + i, buf, MAX_SEED + GROWTH);
        char name[64];
        snprintf(name, sizeof name, "%llu.%s", first + i, c->o->format);
        rc = add_case(c, k, name);
        if (rc == 0) rc = write_file(k->cases[k->count - 1].path, buf, size);
    }
    free(buf);
    if (rc) free_cases(k);
    return rc;
}

/* ---- findings ---- */

/* The validator's verdict on data as the format (as fuzz_abi's --diff): 1
 * valid, 0 invalid with its first error-level code in code, -1 not
 * compared (a resource limit hit: configuration, not the specification). */
static int validator_verdict(const uint8_t *data, size_t size, const char *format, char *code, size_t n)
{
    mc_options vo;
    mc_options_init(&vo);
    vo.format = (mc_format)mc_format_parse(format);
    vo.skip_sha256 = 1;
    mc_result *res = NULL;
    code[0] = '\0';
    if (mc_validate_memory(size ? data : NULL, size, &vo, &res) != MC_OK || !res || mc_fuzz_validator_hit_limit(res))
        return mc_result_free(res), -1;
    int valid = mc_result_valid(res);
    for (size_t i = 0; i < res->issue_count && !code[0]; i++) {
        if (res->issues[i].severity != MC_SEVERITY_ERROR) continue;
        const mc_code_info *info = mc_code_get(res->issues[i].code);
        snprintf(code, n, "%s", info ? info->name : "?");
    }
    mc_result_free(res);
    return valid;
}

/* --diff: the validator's errors against the loader's answer. */
static int disagreement(const campaign *c, const mcc_case *k, const mcc_result *r, char *sig, size_t n)
{
    size_t size;
    uint8_t *data = mcc_read_file(k->path, &size);
    char code[128];
    if (!data) return 0;
    int valid = validator_verdict(data, size, c->o->format, code, sizeof code);
    free(data);
    if (r->outcome == MCC_ACCEPTED && valid == 0 && (c->o->diff & DIFF_LENIENT))
        return snprintf(sig, n, "lenient: accepted a file with %s", code[0] ? code : "errors"), 1;
    if (r->outcome == MCC_REJECTED && valid == 1 && (c->o->diff & DIFF_STRICT))
        return snprintf(sig, n, "strict: rejected a file without errors"), 1;
    return 0;
}

/* --crash-pattern on the stderr tail: the matched text is the signature
 * (a pattern matching only the stable part groups the findings). */
static int pattern_crash(const options *o, const char *tail, char *sig, size_t n)
{
    regmatch_t m;
    if (!o->has_pattern || !tail || regexec(&o->pattern, tail, 1, &m, 0) != 0) return 0;
    int len = (int)(m.rm_eo - m.rm_so);
    if (len > 200) len = 200;
    snprintf(sig, n, "stderr matched --crash-pattern: %.*s", len, tail + m.rm_so);
    return 1;
}

/* The finding of one run: its kind (and signature in sig), -1 for none,
 * -2 when the runner could not run it. */
static int finding_of(const campaign *c, const mcc_case *k, const mcc_result *r, char *sig, size_t n)
{
    char *ex;
    switch (r->outcome) {
    case MCC_CRASHED:
        snprintf(sig, n, "%s", r->crash_site ? r->crash_site : "crashed");
        return KIND_CRASH;
    case MCC_TIMED_OUT:
        if (r->over_memory) return snprintf(sig, n, "out of memory (over --max-memory)"), KIND_OOM;
        return snprintf(sig, n, "hang (still running at --timeout)"), KIND_HANG;
    case MCC_ACCEPTED:
    case MCC_REJECTED:
        if ((ex = mcc_exception_site(r->stderr_tail, r->exit_code, r->signal)) != NULL) {
            snprintf(sig, n, "%s", ex);
            free(ex);
            return KIND_CRASH;
        }
        if (pattern_crash(c->o, r->stderr_tail, sig, n)) return KIND_CRASH;
        if (c->o->diff && disagreement(c, k, r, sig, n)) return KIND_DISAGREEMENT;
        return -1;
    default: return -2;
    }
}

static site *find_site(campaign *c, int kind, const char *sig)
{
    for (size_t i = 0; i < c->nsites; i++)
        if ((int)c->sites[i].kind == kind && strcmp(c->sites[i].signature, sig) == 0) return &c->sites[i];
    return NULL;
}

static int copy_file(const char *from, const char *to)
{
    size_t size;
    uint8_t *data = mcc_read_file(from, &size);
    int rc = data ? write_file(to, data, size) : -1;
    free(data);
    return rc;
}

static char *findings_path(const campaign *c, const char *name)
{
    size_t len = strlen(c->o->findings) + 1 + strlen(name) + 1;
    char *p = malloc(len);
    if (p) snprintf(p, len, "%s/%s", c->o->findings, name);
    return p;
}

/* A new site: its reproducer (the input as found) kept as KIND-NNN.FMT. */
static int new_site(campaign *c, int kind, const char *sig, const char *input)
{
    site *more = realloc(c->sites, (c->nsites + 1) * sizeof *more);
    if (!more) return fail("out of memory");
    c->sites = more;
    site *s = &c->sites[c->nsites];
    char name[64];
    snprintf(name, sizeof name, "%s-%03zu.%s", kind_names[kind], c->nsites + 1, c->o->format);
    s->kind = (enum kind)kind;
    s->signature = strdup(sig);
    s->reproducer = strdup(name);
    s->count = 1;
    s->minimised = 0;
    char *to = findings_path(c, name);
    int rc = s->signature && s->reproducer && to && copy_file(input, to) == 0 ? 0 : -1;
    free(to);
    if (rc) return free(s->signature), free(s->reproducer), fail("cannot write the reproducer %s in %s", name, c->o->findings);
    c->nsites++;
    return 0;
}

static int record(campaign *c, const mcc_case *k, const mcc_result *r)
{
    char sig[1024];
    int kind = finding_of(c, k, r, sig, sizeof sig);
    if (kind == -2) return fail("the runner could not run %s: %s", k->file, r->error ? r->error : "?");
    if (kind < 0) return 0;
    site *s = find_site(c, kind, sig);
    if (s) return s->count++, 0;
    return new_site(c, kind, sig, k->path);
}

/* ---- state (resuming) ---- */

static int save_state(const campaign *c)
{
    cJSON *doc = cJSON_CreateObject(), *sites = cJSON_CreateArray();
    cJSON_AddNumberToObject(doc, "version", 1);
    cJSON_AddStringToObject(doc, "format", c->o->format);
    mcc_json_add_clean(doc, "loader", c->o->loader.command);
    cJSON_AddNumberToObject(doc, "seed", (double)c->o->seed);
    cJSON_AddNumberToObject(doc, "next_input", (double)c->next);
    cJSON_AddNumberToObject(doc, "executions", (double)c->execs);
    cJSON_AddNumberToObject(doc, "seconds", c->seconds_before + c->fuzz_ms / 1e3);
    for (size_t i = 0; i < c->nsites; i++) {
        const site *s = &c->sites[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", kind_names[s->kind]);
        mcc_json_add_clean(o, "signature", s->signature);
        cJSON_AddNumberToObject(o, "count", (double)s->count);
        cJSON_AddStringToObject(o, "reproducer", s->reproducer);
        cJSON_AddBoolToObject(o, "minimised", s->minimised);
        cJSON_AddItemToArray(sites, o);
    }
    cJSON_AddItemToObject(doc, "sites", sites);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    char *path = findings_path(c, STATE_FILE), *tmp = findings_path(c, STATE_FILE ".tmp");
    /* renamed into place: an interrupted write never leaves half a state */
    int rc = text && path && tmp && write_file(tmp, (const uint8_t *)text, strlen(text)) == 0 &&
             rename(tmp, path) == 0 ? 0 : -1;
    free(text), free(path), free(tmp);
    return rc ? fail("cannot write %s/%s", c->o->findings, STATE_FILE) : 0;
}

static int state_site(campaign *c, const cJSON *o)
{
    const cJSON *kind = cJSON_GetObjectItem(o, "kind"), *sig = cJSON_GetObjectItem(o, "signature"),
                *count = cJSON_GetObjectItem(o, "count"), *rep = cJSON_GetObjectItem(o, "reproducer");
    int k = -1;
    for (int i = 0; cJSON_IsString(kind) && i < KIND_COUNT; i++)
        if (strcmp(kind->valuestring, kind_names[i]) == 0) k = i;
    /* a reproducer is a plain name inside the directory, never a path */
    if (k < 0 || !cJSON_IsString(sig) || !cJSON_IsNumber(count) || count->valuedouble < 0 || !cJSON_IsString(rep) ||
        !rep->valuestring[0] || strchr(rep->valuestring, '/') || rep->valuestring[0] == '.')
        return -1;
    site *more = realloc(c->sites, (c->nsites + 1) * sizeof *more);
    if (!more) return -1;
    c->sites = more;
    site *s = &c->sites[c->nsites];
    s->kind = (enum kind)k;
    s->signature = strdup(sig->valuestring);
    s->reproducer = strdup(rep->valuestring);
    s->count = (unsigned long long)count->valuedouble;
    s->minimised = cJSON_IsTrue(cJSON_GetObjectItem(o, "minimised"));
    if (!s->signature || !s->reproducer) return free(s->signature), free(s->reproducer), -1;
    c->nsites++;
    return 0;
}

static int parse_state(campaign *c, const cJSON *doc, const char *shown)
{
    options *o = c->o;
    const cJSON *fmt = cJSON_GetObjectItem(doc, "format"), *seed = cJSON_GetObjectItem(doc, "seed"),
                *next = cJSON_GetObjectItem(doc, "next_input"), *execs = cJSON_GetObjectItem(doc, "executions"),
                *secs = cJSON_GetObjectItem(doc, "seconds"), *sites = cJSON_GetObjectItem(doc, "sites"),
                *loader = cJSON_GetObjectItem(doc, "loader");
    if (!cJSON_IsString(fmt) || !cJSON_IsNumber(seed) || !cJSON_IsNumber(next) || !cJSON_IsNumber(execs) ||
        !cJSON_IsNumber(secs) || !cJSON_IsArray(sites) || seed->valuedouble < 0 || next->valuedouble < 0 ||
        execs->valuedouble < 0 || seed->valuedouble > 0xFFFFFFFFu)
        return fail("%s is not a campaign state (delete it, or use another --findings)", shown);
    if (strcmp(fmt->valuestring, o->format) != 0)
        return fail("%s is a campaign of %s, not %s (use another --findings)", shown, fmt->valuestring, o->format);
    if (o->seed_given && (unsigned long)seed->valuedouble != o->seed)
        return fail("%s is a campaign of --seed %lu, not %lu (use another --findings)", shown,
                    (unsigned long)seed->valuedouble, o->seed);
    if (cJSON_IsString(loader) && strcmp(loader->valuestring, o->loader.command) != 0)
        fprintf(stderr, "modelcheck fuzz: resuming a campaign of another loader command (%s): its sites are kept\n",
                shown);
    o->seed = (unsigned long)seed->valuedouble;
    c->next = (unsigned long long)next->valuedouble;
    c->execs = (unsigned long long)execs->valuedouble;
    c->seconds_before = secs->valuedouble > 0 ? secs->valuedouble : 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, sites) if (state_site(c, s) != 0) return fail("%s: a site is not well formed", shown);
    return 0;
}

/* The findings directory, made if need be; a state there is resumed. */
static int open_findings(campaign *c)
{
    char shown[4096];
    const char *dir = c->o->findings;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return fail("cannot create %s: %s", mcc_shown(dir, shown, sizeof shown), strerror(errno));
    char *path = findings_path(c, STATE_FILE);
    if (!path) return fail("out of memory");
    mcc_shown(path, shown, sizeof shown);
    size_t size;
    char *text = (char *)mcc_read_file(path, &size);
    int exists = text || access(path, F_OK) == 0;
    free(path);
    if (!exists) return 0;
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!doc) return fail("%s is not a campaign state (delete it, or use another --findings)", shown);
    int rc = parse_state(c, doc, shown);
    cJSON_Delete(doc);
    if (rc == 0) fprintf(stderr, "modelcheck fuzz: resuming %s at input %llu\n", shown, c->next);
    return rc;
}

/* ---- progress ---- */

static void progress_line(campaign *c, int final)
{
    if (!c->progress) return;
    double t = now_ms(), s = (t - c->start_ms) / 1e3;
    if (!final && !c->tty && t - c->last_progress_ms < PROGRESS_EVERY_S * 1e3) return;
    if (!final && c->tty && t - c->last_progress_ms < 200) return;
    c->last_progress_ms = t;
    unsigned long long done = c->execs + c->batch_execs;
    size_t per[KIND_COUNT] = {0};
    for (size_t i = 0; i < c->nsites; i++) per[c->sites[i].kind]++;
    if (final && !c->tty) return;
    if (c->minimising && !final) {
        fprintf(c->progress, "%sfuzz: minimising the reproducer of site %zu of %zu%s", c->tty ? "\r" : "modelcheck ",
                c->minimising, c->nsites, c->tty ? "\033[K" : "\n");
        fflush(c->progress);
        return;
    }
    fprintf(c->progress, "%sfuzz: %llu runs, %.1f/s, %zu crash, %zu hang, %zu oom, %zu disagreement site(s), %.0f s%s",
            c->tty ? "\r" : "modelcheck ", done, s > 0 ? (double)(c->batch_execs + c->execs) / s : 0.0, per[0], per[1],
            per[2], per[3], s, c->tty ? "\033[K" : "\n");
    if (final && c->tty) fputs("\r\033[K", c->progress);
    fflush(c->progress);
}

static int watch(void *ctx, const mcc_watch_state *st, size_t ended, const mcc_result *res)
{
    campaign *c = ctx;
    (void)res, (void)ended;
    if (!c->minimising) c->batch_execs = st->done;
    progress_line(c, 0);
    return 0;
}

/* ---- the campaign ---- */

static int run_corpus(campaign *c, const mcc_corpus *k, mcc_result *res)
{
    mcc_run_options ro = c->o->run;
    ro.watch = watch;
    ro.watch_ctx = c;
    return mcc_run(&c->o->loader, k, &ro, res);
}

static int done(const campaign *c)
{
    const options *o = c->o;
    if (mcc_interrupted()) return 1;
    if (o->seconds > 0 && now_ms() - c->start_ms >= o->seconds * 1e3) return 1;
    return o->runs && c->execs - c->execs_start >= o->runs;
}

/* One batch: written, run, its findings recorded. 0; 2 (said) on an error;
 * 1 when interrupted (the batch is not counted: a resumed campaign runs it
 * again). */
static int run_batch(campaign *c)
{
    size_t n = (size_t)BATCH_PER_JOB * c->o->run.jobs;
    unsigned long long left = c->o->runs ? c->o->runs - (c->execs - c->execs_start) : n;
    if (left < n) n = (size_t)left; /* --runs is exact */
    mcc_corpus k;
    if (write_batch(c, c->next, n, &k) != 0) return fail("cannot write the batch in %s: %s", c->tmp, strerror(errno));
    mcc_result *res = calloc(k.count, sizeof *res);
    double t0 = now_ms();
    int rc = res ? run_corpus(c, &k, res) : -3;
    c->batch_execs = 0;
    if (rc == 0) {
        c->fuzz_ms += now_ms() - t0; /* an interrupted batch's time goes with its runs */
        for (size_t i = 0; i < k.count && rc == 0; i++) rc = record(c, &k.cases[i], &res[i]);
        c->execs += k.count;
        c->next += k.count;
        if (rc == 0) rc = save_state(c);
    } else {
        rc = rc == -3 ? fail("out of memory") : 1;
    }
    for (size_t i = 0; i < k.count; i++) unlink(k.cases[i].path);
    mcc_results_free(res, k.count);
    free_cases(&k);
    return rc;
}

/* ---- minimisation ---- */

static int at_site(const campaign *c, const site *s, const mcc_case *k, const mcc_result *r)
{
    char sig[1024];
    return finding_of(c, k, r, sig, sizeof sig) == (int)s->kind && strcmp(sig, s->signature) == 0;
}

/* Runs n candidates at once (--jobs of them in parallel): the index of the
 * first that still gives site s, n when none does. */
static size_t first_at_site(campaign *c, const site *s, uint8_t *const *data, const size_t *size, size_t n)
{
    mcc_corpus k = {.dir = c->tmp};
    k.cases = calloc(n, sizeof *k.cases);
    mcc_result *r = k.cases ? calloc(n, sizeof *r) : NULL;
    int ok = r != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "min-%zu.%s", i, c->o->format);
        ok = add_case(c, &k, name) == 0 && write_file(k.cases[i].path, data[i], size[i]) == 0;
    }
    size_t hit = n;
    if (ok && run_corpus(c, &k, r) == 0)
        for (size_t i = 0; i < n && hit == n; i++)
            if (at_site(c, s, &k.cases[i], &r[i])) hit = i;
    for (size_t i = 0; i < k.count; i++) unlink(k.cases[i].path);
    mcc_results_free(r, n);
    free_cases(&k);
    return hit;
}

static int same_site(campaign *c, const site *s, uint8_t *data, size_t size)
{
    return first_at_site(c, s, &data, &size, 1) == 0;
}

/* Structural cuts first (mcm_cut_<format>: an array element with its
 * count and enclosing sizes, an E3D block with its subtree): the next
 * --jobs cuts that shrink the file are tried at once and the first that
 * keeps the site is taken, as cut_chunks does with bytes; the cuts are then
 * numbered again on the smaller file, from the one taken. */
static size_t cut_structure(campaign *c, const site *s, uint8_t *data, size_t size, unsigned *runs)
{
    mcm_cutter cut = mcm_find_cut(c->o->format);
    size_t jobs = c->o->run.jobs, k = 0;
    uint8_t **cand = calloc(jobs, sizeof *cand);
    size_t *sizes = calloc(jobs, sizeof *sizes), *ks = calloc(jobs, sizeof *ks);
    uint8_t *room = malloc(jobs * (size ? size : 1)); /* a cut never grows the file */
    int end = !cut || !cand || !sizes || !ks || !room;
    while (!end && *runs < MIN_CUT_RUNS && !mcc_interrupted()) {
        size_t n = 0;
        while (n < jobs && n < MIN_CUT_RUNS - *runs && !end) {
            cand[n] = room + n * size;
            memcpy(cand[n], data, size);
            size_t got = cut(cand[n], size, k);
            if (got == 0) end = 1;
            else if (got < size) sizes[n] = got, ks[n++] = k;
            k++; /* a cut that cannot be made costs no run */
        }
        if (n == 0) break;
        size_t hit = first_at_site(c, s, cand, sizes, n);
        *runs += (unsigned)(hit < n ? hit + 1 : n);
        if (hit < n) {
            memcpy(data, cand[hit], sizes[hit]);
            size = sizes[hit];
            k = ks[hit];
            end = 0;
        }
    }
    free(cand), free(sizes), free(ks), free(room);
    return size;
}

/* The shortest prefix still at the site (bisection: a guess, since reading
 * past a cut can fail elsewhere). */
static size_t shortest_prefix(campaign *c, const site *s, uint8_t *data, size_t size, unsigned *runs)
{
    size_t lo = 0, hi = size;
    while (hi - lo > 1 && *runs < MIN_BISECT_RUNS && !mcc_interrupted()) {
        size_t mid = lo + (hi - lo) / 2;
        ++*runs;
        if (same_site(c, s, data, mid)) hi = mid;
        else lo = mid;
    }
    return hi;
}

/* Chunks cut out, halving. The cuts at the next --jobs offsets are tried
 * at once and the first that keeps the site is taken, which is the one a
 * run at a time would take; runs are counted as that would count them, so
 * the result does not depend on --jobs. */
static size_t cut_chunks(campaign *c, const site *s, uint8_t *data, size_t size, unsigned *runs)
{
    size_t jobs = c->o->run.jobs;
    uint8_t **cand = calloc(jobs, sizeof *cand);
    size_t *sizes = calloc(jobs, sizeof *sizes);
    uint8_t *room = malloc(jobs * (size ? size : 1)); /* size <= MAX_SEED + GROWTH: no overflow */
    for (size_t chunk = size / 2; cand && sizes && room && chunk >= 1 && *runs < MIN_RUNS; chunk /= 2) {
        for (size_t off = 0; chunk <= size && off <= size - chunk && *runs < MIN_RUNS && !mcc_interrupted();) {
            size_t n = 0;
            for (size_t o = off; n < jobs && n < MIN_RUNS - *runs && o <= size - chunk; o += chunk, n++) {
                cand[n] = room + n * size;
                memcpy(cand[n], data, o);
                memcpy(cand[n] + o, data + o + chunk, size - o - chunk);
                sizes[n] = size - chunk;
            }
            size_t hit = first_at_site(c, s, cand, sizes, n);
            *runs += (unsigned)(hit < n ? hit + 1 : n);
            if (hit < n) {
                memcpy(data, cand[hit], size - chunk);
                size -= chunk;
                off += hit * chunk;
            } else {
                off += n * chunk;
            }
        }
    }
    free(cand), free(sizes), free(room);
    return size;
}

/* Each site not minimised yet: its reproducer made smaller (structural
 * cuts, then by bytes: prefix, then cut chunks, as blindfuzz) and run again
 * to confirm the signature; kept as found when the smaller one does not. A
 * hang or an oom is not minimised (each try costs the whole --timeout). */
static void minimise_sites(campaign *c)
{
    for (size_t i = 0; i < c->nsites && !c->o->no_minimise && !mcc_interrupted(); i++) {
        site *s = &c->sites[i];
        if (s->minimised) continue;
        if (s->kind == KIND_HANG || s->kind == KIND_OOM) {
            s->minimised = 1;
            continue;
        }
        c->minimising = i + 1;
        progress_line(c, 0);
        char *path = findings_path(c, s->reproducer);
        size_t size, small;
        unsigned runs = 0;
        uint8_t *data = path ? mcc_read_file(path, &size) : NULL;
        if (data) {
            small = cut_structure(c, s, data, size, &runs);
            unsigned bisect = 0;
            small = shortest_prefix(c, s, data, small, &bisect);
            runs += bisect;
            small = cut_chunks(c, s, data, small, &runs);
            if (small < size && same_site(c, s, data, small)) write_file(path, data, small);
        }
        s->minimised = !mcc_interrupted(); /* interrupted: tried again on resume */
        free(data);
        free(path);
    }
    c->minimising = 0;
}

/* ---- reports ---- */

/* Reports keep a tenth of a second. */
static double tenths(double v)
{
    return (double)(long long)(v * 10 + 0.5) / 10;
}

/* The campaign's fuzzing time, its earlier runs' included. */
static double total_seconds(const campaign *c)
{
    return c->seconds_before + c->fuzz_ms / 1e3;
}

static void report_text(FILE *out, const campaign *c)
{
    double s = total_seconds(c);
    char shown[4096];
    fprintf(out, "modelcheck fuzz: %s on %s, seed %lu, isolation %s\n", mcc_shown(c->o->loader.command, shown, sizeof shown),
            c->o->format, c->o->seed, c->o->isolation);
    fprintf(out, "%llu runs in %.1f s (%.1f/s), %zu site(s)\n", c->execs, s, s > 0 ? (double)c->execs / s : 0.0,
            c->nsites);
    if (!c->nsites) return;
    fprintf(out, "\n%-12s %8s  %-40s  %s\n", "kind", "count", "reproducer", "signature");
    for (size_t i = 0; i < c->nsites; i++) {
        const site *t = &c->sites[i];
        char *path = findings_path(c, t->reproducer);
        fprintf(out, "%-12s %8llu  %-40s  %s\n", kind_names[t->kind], t->count,
                mcc_shown(path ? path : t->reproducer, shown, sizeof shown), t->signature);
        free(path);
    }
}

static cJSON *report_json(const campaign *c)
{
    double s = total_seconds(c);
    cJSON *doc = cJSON_CreateObject(), *sites = cJSON_CreateArray();
    cJSON_AddStringToObject(doc, "tool", "modelcheck fuzz");
    cJSON_AddStringToObject(doc, "version", MCC_VERSION);
    mcc_json_add_clean(doc, "loader", c->o->loader.command);
    cJSON_AddStringToObject(doc, "format", c->o->format);
    cJSON_AddNumberToObject(doc, "seed", (double)c->o->seed);
    cJSON_AddStringToObject(doc, "isolation", c->o->isolation);
    mcc_json_add_clean(doc, "findings", c->o->findings);
    cJSON_AddNumberToObject(doc, "executions", (double)c->execs);
    cJSON_AddNumberToObject(doc, "seconds", tenths(s));
    cJSON_AddNumberToObject(doc, "execs_per_second", tenths(s > 0 ? (double)c->execs / s : 0));
    for (size_t i = 0; i < c->nsites; i++) {
        const site *t = &c->sites[i];
        cJSON *o = cJSON_CreateObject();
        char *path = findings_path(c, t->reproducer);
        cJSON_AddStringToObject(o, "kind", kind_names[t->kind]);
        mcc_json_add_clean(o, "signature", t->signature);
        cJSON_AddNumberToObject(o, "count", (double)t->count);
        mcc_json_add_clean(o, "reproducer", path ? path : t->reproducer);
        cJSON_AddBoolToObject(o, "minimised", t->minimised && t->kind != KIND_HANG && t->kind != KIND_OOM);
        cJSON_AddItemToArray(sites, o);
        free(path);
    }
    cJSON_AddItemToObject(doc, "sites", sites);
    return doc;
}

static void report_html(FILE *out, const campaign *c)
{
    double s = total_seconds(c);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>modelcheck fuzz</title>\n"
          "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}code{font-size:90%}</style></head><body>\n"
          "<h1>modelcheck fuzz</h1>\n<p>Loader <code>", out);
    mcc_put_markup(out, c->o->loader.command);
    fprintf(out, "</code> on %s, seed %lu, isolation ", c->o->format, c->o->seed);
    mcc_put_markup(out, c->o->isolation);
    fprintf(out, ".</p>\n<p>%llu runs in %.1f s (%.1f/s), %zu site(s).</p>\n", c->execs, s,
            s > 0 ? (double)c->execs / s : 0.0, c->nsites);
    if (c->nsites) fputs("<table><tr><th>kind</th><th>count</th><th>signature</th><th>reproducer</th></tr>\n", out);
    for (size_t i = 0; i < c->nsites; i++) {
        const site *t = &c->sites[i];
        char *path = findings_path(c, t->reproducer);
        fprintf(out, "<tr><td>%s</td><td>%llu</td><td><code>", kind_names[t->kind], t->count);
        mcc_put_markup(out, t->signature);
        fputs("</code></td><td><code>", out);
        mcc_put_markup(out, path ? path : t->reproducer);
        fputs("</code></td></tr>\n", out);
        free(path);
    }
    if (c->nsites) fputs("</table>\n", out);
    fputs("</body></html>\n", out);
}

static int write_report(const campaign *c)
{
    if (c->o->output == OUT_TEXT) report_text(stdout, c);
    else if (c->o->output == OUT_HTML) report_html(stdout, c);
    else {
        cJSON *doc = report_json(c);
        char *s = doc ? cJSON_Print(doc) : NULL;
        cJSON_Delete(doc);
        if (!s) return fail("out of memory writing the report");
        puts(s);
        free(s);
    }
    return mc_cli_finish_output(stdout, "modelcheck fuzz", "standard output") == 0 ? 0 : MC_EXIT_OUTPUT;
}

/* ---- main ---- */

static int make_tmp(campaign *c)
{
    const char *base = getenv("TMPDIR");
    if (!base || !base[0]) base = "/tmp";
    if (snprintf(c->tmp, sizeof c->tmp, "%s/modelcheck-fuzz-XXXXXX", base) >= (int)sizeof c->tmp || !mkdtemp(c->tmp))
        return fail("cannot create a temporary directory in %s: %s", base, strerror(errno));
    return 0;
}

static int campaign_run(campaign *c)
{
    int rc = 0;
    while (rc == 0 && !done(c)) rc = run_batch(c); /* 1: interrupted, the report still due */
    if (rc > 1) return rc;
    progress_line(c, 1);
    minimise_sites(c);
    if (save_state(c) != 0) return EXIT_USAGE;
    int out = write_report(c);
    if (out) return out;
    return c->nsites ? EXIT_FINDINGS : EXIT_CLEAN;
}

static void campaign_free(campaign *c)
{
    for (size_t i = 0; i < c->nseeds; i++) free(c->seeds[i].data);
    free(c->seeds);
    for (size_t i = 0; i < c->nsites; i++) free(c->sites[i].signature), free(c->sites[i].reproducer);
    free(c->sites);
    if (c->tmp[0]) rmdir(c->tmp);
}

static int fuzz(options *o)
{
    campaign c;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.mutate = mcm_find(o->format);
    int tty = isatty(STDERR_FILENO);
    c.progress = o->progress == 0 ? NULL : stderr;
    c.tty = tty && o->progress != 0;
    int rc = resolve_sandbox(o);
    char why[512];
    o->loader.mode = MCC_MODE_COMMAND;
    o->loader.timeout_s = o->run.timeout_s;
    if (rc == 0 && mcc_loader_open(&o->loader, why, sizeof why) != 0) rc = fail("%s", why);
    if (rc == 0) rc = load_seeds(&c);
    if (rc == 0) rc = open_findings(&c);
    c.execs_start = c.execs;
    if (rc == 0) rc = make_tmp(&c);
    c.start_ms = now_ms();
    c.last_progress_ms = c.start_ms;
    if (rc == 0) rc = campaign_run(&c);
    mcc_loader_close(&o->loader);
    campaign_free(&c);
    return rc;
}

int mcc_fuzz_main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    char installed[4096];
    o.corpus = mcc_data_path("corpus", installed, sizeof installed) == 0 ? installed : "corpus";
    o.findings = "fuzz-findings";
    o.sandbox = "auto";
    o.seed = 1;
    o.progress = -1;
    o.run.timeout_s = 5;
    o.run.jobs = 1;
    int rc = parse_args(&o, argc, argv);
    if (rc == 0) {
        mcc_catch_signals(1); /* a signal ends the campaign with its report */
        rc = fuzz(&o);
        mcc_catch_signals(0);
    }
    if (o.has_pattern) regfree(&o.pattern);
    return rc < 0 ? EXIT_CLEAN : rc;
}
