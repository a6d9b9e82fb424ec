/*
 * modelcheck certify (--loader CMD | --library LIB.so | --reference) [options]
 * Options and exit codes: usage_text below and docs/CERTIFY.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "certify.h"
#include "cliutil.h"
#include "datadir.h"
#include "mc_certify.h"
#include "mc_certify_report.h"
#include "mc_exporter.h"
#include "outputs.h"

#ifndef MCC_VERSION
#define MCC_VERSION "unknown"
#endif

enum { EXIT_CONFORMING = 0, EXIT_NOT_CONFORMING = 1, EXIT_USAGE = 2 };
enum kind { KIND_TEXT, KIND_JSON, KIND_JUNIT, KIND_HTML, KIND_COUNT };

static const char usage_text[] =
    "usage: modelcheck certify (--loader CMD | --library LIB.so | --reference) [options]\n"
    "       modelcheck certify --exporter CMD --format FMT [options]\n"
    "Runs a model loader over every case of the conformance corpus and grades it against the\n"
    "manifest: conforming, too lenient, too strict, crash, hang or oom; or runs an exporter over\n"
    "every bundled source scene and grades each output: conforming, refused, failed, invalid\n"
    "output, unfaithful, crash, hang, oom or no output (docs/CERTIFY.md).\n"
    "\n"
    "Loader (exactly one):\n"
    "      --loader CMD      a command run by /bin/sh -c per case: {} becomes the case file's\n"
    "                        quoted absolute path, {format} its format; without {} the file\n"
    "                        is on standard input. Exit 0 = accepted, other = rejected.\n"
    "      --library LIB.so  a shared library exporting mc_certify_load (mc_loader_abi.h),\n"
    "                        called in a child per case (in bubblewrap with the sandbox)\n"
    "      --reference       modelcheck's own reference loaders, in a forked child per case\n"
    "Exporter (with --format, the format it writes):\n"
    "      --exporter CMD    a command run by /bin/sh -c per scene, in a fresh directory holding\n"
    "                        the scene: {in} the scene's absolute path, {out} the path to write,\n"
    "                        {stem} the scene's name, {dir} the case directory, {format},\n"
    "                        {cwd} the directory certify started in (a relative program or\n"
    "                        script is made absolute; other files of yours: {cwd}/file)\n"
    "      --output-name T   where the exporter writes, relative to the case directory ({stem},\n"
    "                        {format} replaced; default {stem}.FMT)\n"
    "      --scene-format F  the form of {in}: gltf (default, buffers embedded), gltf-separate,\n"
    "                        glb or obj (scenes without an OBJ form are skipped)\n"
    "      --scene NAME      only that scene\n"
    "      --max-output-bytes N  output size cap per case (default 268435456; 256M: K, M, G suffixes)\n"
    "      --werror          validator warnings make an output invalid\n"
    "      --keep            keep the case directories (their root is printed on stderr)\n"
    "      --convention C    demand conventions (uv=top-left|bottom-left,up=y|z|..,scale=N,\n"
    "                        winding=ccw|cw,loop=yes|no); default: found per run, named\n"
    "      --scope S         what it writes: static, skinned, animated, all, or group names\n"
    "      --pictures        HTML: draw every output beside its scene, not only unfaithful ones\n"
    "Options:\n"
    "  -f, --format FMT      only FMT's cases (aem, semodel, aamf, e3d, nlm); the exporter's format\n"
    "  -c, --corpus DIR      corpus with manifest.json (default: the installed one,\n"
    "                        ../share/modelcheck/corpus beside the modelcheck binary)\n"
    "  -t, --timeout S       seconds per case before it counts as a hang (default 10)\n"
    "  -j, --jobs N          cases run at once, 1 to 64 (default 1); reports do not change\n"
    "  -o, --output KIND     text (default), json, junit or html, to standard output\n"
    "      --report FILE     write that report to FILE instead\n"
    "      --json FILE, --junit FILE, --html FILE, --text FILE\n"
    "                        also write that report to FILE (any number of them)\n"
    "      --sandbox MODE    auto (default), on or off: each case in bubblewrap, no network,\n"
    "                        the case directory the one writable place; on fails without it\n"
    "      --max-memory N    memory per case in bytes (or 512M, 4G), all its processes together\n"
    "                        (sampled; over it: killed, verdict oom); 0: none; default: half\n"
    "                        of RAM shared by --jobs, at least 512 MiB (here ";
/* after the default --max-memory */
static const char usage_rest[] =
    ")\n"
    "      --timings         add per-case durations (reports are no longer reproducible)\n"
    "      --timestamp       add the time of the run\n"
    "      --progress, --no-progress  a progress line on stderr (default: on a terminal)\n"
    "      --keep-going      run every case even when the first 5 all fail the same way\n"
    "                        without reading their input (default: stop, exit 2)\n"
    "  -h, --help            print this help and exit\n"
    "\n"
    "Exit codes: 0 every case conforming (skipped cases and correct refusals aside), 1 some\n"
    "case not conforming, 2 usage error, bad corpus, loader cannot be started, a case could\n"
    "not be run, or interrupted, 4 a report could not be written completely.\n";

typedef struct options {
    mcc_loader loader;
    int loader_modes;
    const char *format, *corpus, *report;
    int corpus_given;
    const char *extra[KIND_COUNT];
    enum kind output;
    mcc_run_options run;
    int timings, timestamp;
    const char *sandbox;   /* "auto", "on", "off" */
    char bwrap[4096];
    char self[4096];       /* certify's own program, for --library children in the sandbox */
    char isolation[400];   /* what the reports say about it */
    mcx_options exporter;  /* exporter.command set: --exporter */
    mcx_convention convention; /* --convention */
    int convention_given;
    int progress;          /* --progress 1, --no-progress 0, -1: on a terminal */
    int keep_going;        /* --keep-going: no sanity stop */
    int max_memory_given;  /* --max-memory: else the default (mcc_default_max_memory) */
} options;

#define usage_error(...) mc_cli_complain("modelcheck certify", " (try --help)", __VA_ARGS__)

static int parse_kind(const char *s, enum kind *out)
{
    static const char *const names[KIND_COUNT] = {"text", "json", "junit", "html"};
    for (int k = 0; k < KIND_COUNT; k++)
        if (strcmp(s, names[k]) == 0) return *out = (enum kind)k, 0;
    return usage_error("unknown output '%s' (text, json, junit or html)", s);
}

static int parse_timeout(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0) || v > 86400)
        return usage_error("--timeout expects seconds between 0 and 86400, got '%s'", s);
    *out = v;
    return 0;
}

static int parse_jobs(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 64)
        return usage_error("--jobs expects a number from 1 to 64, got '%s'", s);
    *out = (unsigned)v;
    return 0;
}

static void set_loader(options *o, mcc_mode mode, const char *arg)
{
    o->loader_modes++;
    o->loader.mode = mode;
    if (mode == MCC_MODE_COMMAND) o->loader.command = arg;
    if (mode == MCC_MODE_LIBRARY) o->loader.library = arg;
}

/* ---- exporter certification (mc_exporter.h) ---- */

static int parse_bytes(const char *s, uint64_t *out)
{
    uint64_t v;
    if (mc_cli_size(s, &v) != 0 || v == 0)
        return usage_error("--max-output-bytes expects a positive number of bytes (or with K, M, G), got '%s'", s);
    *out = v;
    return 0;
}

static int parse_memory(const char *s, uint64_t *out)
{
    uint64_t v;
    if (mc_cli_size(s, &v) != 0 || (v && v < (1u << 20)))
        return usage_error("--max-memory expects bytes (or with K, M, G), 0 or at least 1M, got '%s'", s);
    *out = v;
    return 0;
}

/* --sandbox: bwrap's path in o->bwrap when commands are isolated, and what
 * the reports say in o->isolation. 0, or the exit code (on, and unusable). */
static int resolve_sandbox(options *o, int commands)
{
    char why[300];
    o->run.bwrap = NULL;
    if (strcmp(o->sandbox, "off") == 0) {
        snprintf(o->isolation, sizeof o->isolation, "none (--sandbox off)");
        return 0;
    }
    if (!commands && strcmp(o->sandbox, "on") == 0)
        return usage_error("--sandbox on: --reference runs certify's own loaders in its children, without "
                           "bubblewrap (use --sandbox off or auto)");
    if (!commands) {
        snprintf(o->isolation, sizeof o->isolation, "none (the reference loaders run in certify's children)");
        return 0;
    }
    /* a library is loaded by certify's own binary re-executed in the sandbox */
    ssize_t n = o->loader.mode == MCC_MODE_LIBRARY ? readlink("/proc/self/exe", o->self, sizeof o->self - 1) : 0;
    if (n < 0 || (size_t)n >= sizeof o->self - 1) {
        snprintf(why, sizeof why, "cannot find certify's own program (/proc/self/exe): %s",
                 n < 0 ? strerror(errno) : "path too long");
        if (strcmp(o->sandbox, "on") == 0) {
            fprintf(stderr, "modelcheck certify: --sandbox on: %s\n", why);
            return EXIT_USAGE;
        }
        snprintf(o->isolation, sizeof o->isolation, "none (%s)", why);
        fprintf(stderr, "modelcheck certify: not isolated: %s\n", why);
        return 0;
    }
    o->self[n] = '\0';
    if (mcc_sandbox_probe(o->bwrap, sizeof o->bwrap, why, sizeof why) != 0) {
        if (strcmp(o->sandbox, "on") == 0) {
            fprintf(stderr, "modelcheck certify: --sandbox on: %s\n", why);
            return EXIT_USAGE;
        }
        snprintf(o->isolation, sizeof o->isolation, "none (%s)", why);
        fprintf(stderr, "modelcheck certify: not isolated: %s\n", why);
        return 0;
    }
    o->run.bwrap = o->bwrap;
    if (o->loader.mode == MCC_MODE_LIBRARY) o->loader.bwrap = o->bwrap, o->loader.self = o->self;
    snprintf(o->isolation, sizeof o->isolation, "bubblewrap");
    return 0;
}

/* Processes that left their case's process group and were killed after it
 * (the runner's sub-reaper): said, since the sandbox would have stopped them. */
static void say_escaped(const char *what, unsigned count, const char *first)
{
    char shown[512];
    if (count)
        fprintf(stderr, "modelcheck certify: %u process(es) left their case's process group and were killed "
                "afterwards (first: %s %s)\n", count, what, mcc_shown(first, shown, sizeof shown));
}

static int parse_exporter_option(options *o, int ch, const char *arg);

/* The help, with the default --max-memory of this machine and --jobs. */
static void print_usage(const options *o)
{
    uint64_t mem = mcc_default_max_memory(o->run.jobs);
    fputs(usage_text, stdout);
    if (mem) printf("%llu MiB with --jobs %u", (unsigned long long)(mem >> 20), o->run.jobs);
    else fputs("none: the RAM size is unknown", stdout);
    fputs(usage_rest, stdout);
}

static int parse_convention(options *o, const char *arg)
{
    char why[256];
    if (mcx_convention_parse(arg, &o->convention, why, sizeof why) != 0) return usage_error("%s", why);
    o->convention_given = 1;
    return 0;
}
static int check_exporter_options(const options *o);

enum long_only { OPT_LOADER = 256, OPT_LIBRARY, OPT_REFERENCE, OPT_REPORT, OPT_JSON, OPT_JUNIT,
                 OPT_HTML, OPT_TEXT, OPT_TIMINGS, OPT_TIMESTAMP, OPT_EXPORTER, OPT_OUTPUT_NAME,
                 OPT_SCENE_FORMAT, OPT_SCENE, OPT_MAX_OUTPUT, OPT_WERROR, OPT_KEEP, OPT_CONVENTION, OPT_SCOPE,
                 OPT_PROGRESS, OPT_NO_PROGRESS, OPT_KEEP_GOING, OPT_PICTURES, OPT_SANDBOX, OPT_MAX_MEMORY };

/* 0 to go on, -1 after --help, else the exit code. */
static int parse_args(options *o, int argc, char **argv)
{
    static const struct option longs[] = {
        {"loader", required_argument, NULL, OPT_LOADER},
        {"library", required_argument, NULL, OPT_LIBRARY},
        {"reference", no_argument, NULL, OPT_REFERENCE},
        {"format", required_argument, NULL, 'f'},
        {"corpus", required_argument, NULL, 'c'},
        {"timeout", required_argument, NULL, 't'},
        {"jobs", required_argument, NULL, 'j'},
        {"output", required_argument, NULL, 'o'},
        {"report", required_argument, NULL, OPT_REPORT},
        {"json", required_argument, NULL, OPT_JSON},
        {"junit", required_argument, NULL, OPT_JUNIT},
        {"html", required_argument, NULL, OPT_HTML},
        {"text", required_argument, NULL, OPT_TEXT},
        {"timings", no_argument, NULL, OPT_TIMINGS},
        {"timestamp", no_argument, NULL, OPT_TIMESTAMP},
        {"exporter", required_argument, NULL, OPT_EXPORTER},
        {"output-name", required_argument, NULL, OPT_OUTPUT_NAME},
        {"scene-format", required_argument, NULL, OPT_SCENE_FORMAT},
        {"scene", required_argument, NULL, OPT_SCENE},
        {"max-output-bytes", required_argument, NULL, OPT_MAX_OUTPUT},
        {"werror", no_argument, NULL, OPT_WERROR},
        {"keep", no_argument, NULL, OPT_KEEP},
        {"convention", required_argument, NULL, OPT_CONVENTION},
        {"scope", required_argument, NULL, OPT_SCOPE},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"keep-going", no_argument, NULL, OPT_KEEP_GOING},
        {"pictures", no_argument, NULL, OPT_PICTURES},
        {"sandbox", required_argument, NULL, OPT_SANDBOX},
        {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    opterr = 0;
    optind = 1;
    int ch, rc = 0;
    char refused[160];
    int before;
    while (rc == 0 && (before = optind, ch = getopt_long(argc, argv, ":f:c:t:j:o:h", longs, NULL)) != -1) {
        switch (ch) {
        case OPT_LOADER: set_loader(o, MCC_MODE_COMMAND, optarg); break;
        case OPT_LIBRARY: set_loader(o, MCC_MODE_LIBRARY, optarg); break;
        case OPT_REFERENCE: set_loader(o, MCC_MODE_REFERENCE, NULL); break;
        case 'f':
            if (mcc_format_index(optarg) < 0)
                rc = usage_error("unknown format '%s' (aem, semodel, aamf, e3d, nlm)", optarg);
            o->format = optarg;
            break;
        case 'c': o->corpus = optarg, o->corpus_given = 1; break;
        case 't': rc = parse_timeout(optarg, &o->run.timeout_s); break;
        case 'j': rc = parse_jobs(optarg, &o->run.jobs); break;
        case 'o': rc = parse_kind(optarg, &o->output); break;
        case OPT_REPORT: o->report = optarg; break;
        case OPT_JSON: o->extra[KIND_JSON] = optarg; break;
        case OPT_JUNIT: o->extra[KIND_JUNIT] = optarg; break;
        case OPT_HTML: o->extra[KIND_HTML] = optarg; break;
        case OPT_TEXT: o->extra[KIND_TEXT] = optarg; break;
        case OPT_TIMINGS: o->timings = 1; break;
        case OPT_TIMESTAMP: o->timestamp = 1; break;
        case OPT_SANDBOX:
            if (strcmp(optarg, "auto") && strcmp(optarg, "on") && strcmp(optarg, "off"))
                rc = usage_error("--sandbox expects auto, on or off, got '%s'", optarg);
            o->sandbox = optarg;
            break;
        case OPT_MAX_MEMORY: rc = parse_memory(optarg, &o->run.max_memory), o->max_memory_given = 1; break;
        case OPT_EXPORTER:
        case OPT_OUTPUT_NAME:
        case OPT_SCENE_FORMAT:
        case OPT_SCENE:
        case OPT_MAX_OUTPUT:
        case OPT_WERROR:
        case OPT_KEEP: rc = parse_exporter_option(o, ch, optarg); break;
        case OPT_CONVENTION: rc = parse_convention(o, optarg); break;
        case OPT_SCOPE: o->exporter.scope = optarg; break;
        case OPT_PROGRESS: o->progress = 1; break;
        case OPT_NO_PROGRESS: o->progress = 0; break;
        case OPT_KEEP_GOING: o->keep_going = 1; break;
        case OPT_PICTURES: o->exporter.pictures = 1; break;
        case 'h': print_usage(o); return -1;
        default: rc = usage_error("%s", mc_cli_refusal(argv, ch, before, refused, sizeof refused)); break;
        }
    }
    if (rc) return rc;
    if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
    if (!o->max_memory_given) o->run.max_memory = mcc_default_max_memory(o->run.jobs);
    if (o->exporter.command) return check_exporter_options(o);
    if (o->exporter.output_name || o->exporter.only_scene || o->exporter.werror || o->exporter.keep ||
        o->convention_given || o->exporter.scope)
        return usage_error("--output-name, --scene-format, --scene, --max-output-bytes, --werror, --keep, "
                           "--convention and --scope go with --exporter");
    if (o->loader_modes != 1)
        return usage_error("give exactly one of --loader CMD, --library LIB.so, --reference, --exporter CMD");
    if (o->loader.mode == MCC_MODE_COMMAND && !o->loader.command[0])
        return usage_error("--loader needs a command");
    return 0;
}

static int parse_exporter_option(options *o, int ch, const char *arg)
{
    int form;
    switch (ch) {
    case OPT_EXPORTER: o->exporter.command = arg; break;
    case OPT_OUTPUT_NAME: o->exporter.output_name = arg; break;
    case OPT_SCENE_FORMAT:
        if ((form = mcs_form_parse(arg)) < 0)
            return usage_error("unknown scene format '%s' (gltf, gltf-separate, glb, obj)", arg);
        o->exporter.form = (mcs_form)form;
        break;
    case OPT_SCENE: o->exporter.only_scene = arg; break;
    case OPT_MAX_OUTPUT: return parse_bytes(arg, &o->exporter.max_output_bytes);
    case OPT_WERROR: o->exporter.werror = 1; break;
    default: o->exporter.keep = 1; break;
    }
    return 0;
}

static int check_exporter_options(const options *o)
{
    if (o->loader_modes)
        return usage_error("--exporter certifies an exporter: not with --loader, --library or --reference");
    if (!o->exporter.command[0]) return usage_error("--exporter needs a command");
    if (!o->format) return usage_error("--exporter needs --format, the format the exporter writes");
    if (o->corpus_given) return usage_error("--corpus does not apply to --exporter (the scenes are built in)");
    return 0;
}

/* What a report is rendered from: a loader's run or an exporter's. */
typedef struct report_of {
    const mcc_report *loader;
    const mcx_report *exporter;
} report_of;
static int write_reports(const options *o, const report_of *r);

static FILE *progress_stream(const options *o)
{
    return o->progress == 1 || (o->progress < 0 && isatty(STDERR_FILENO)) ? stderr : NULL;
}

/* A loader case, ended: its verdict for the progress line; how it failed,
 * alike for cases that failed alike (the case's path replaced by {}). */
static const char *classify_loader(void *ctx, size_t index, const mcc_result *res, int *failed, char *how,
                                   size_t how_size)
{
    const mcc_corpus *corpus = ctx;
    const char *path = corpus->cases[index].path, *tail = res->stderr_tail ? res->stderr_tail : "";
    size_t end = strlen(tail);
    while (end > 0 && (tail[end - 1] == '\n' || tail[end - 1] == ' ')) end--;
    size_t start = end;
    while (start > 0 && tail[start - 1] != '\n') start--;
    char line[200] = "";
    size_t used = 0, plen = path ? strlen(path) : 0;
    for (size_t i = start; i < end && used + 3 < sizeof line; i++) {
        if (plen && end - i >= plen && strncmp(tail + i, path, plen) == 0) {
            memcpy(line + used, "{}", 2), used += 2, i += plen - 1;
            continue;
        }
        line[used++] = tail[i];
    }
    line[used] = '\0';
    *failed = res->verdict != MCC_CONFORMING;
    if (res->outcome == MCC_CRASHED) snprintf(how, how_size, "crashed");
    else if (res->outcome == MCC_TIMED_OUT && res->over_memory) snprintf(how, how_size, "used too much memory");
    else if (res->outcome == MCC_TIMED_OUT) snprintf(how, how_size, "hung");
    else snprintf(how, how_size, "exited %d%s%s", res->exit_code, line[0] ? ": " : "", line);
    return mcc_verdict_name(res->verdict);
}

static int run_exporter(options *o)
{
    mcx_options *x = &o->exporter;
    x->format = o->format;
    x->timeout_s = o->run.timeout_s;
    x->jobs = o->run.jobs;
    x->progress = progress_stream(o);
    x->no_sanity_stop = o->keep_going;
    if (o->convention_given) x->convention = &o->convention;
    x->bwrap = o->run.bwrap;
    x->max_memory = o->run.max_memory;
    x->isolation = o->isolation;
    if (!x->max_output_bytes) x->max_output_bytes = (uint64_t)256 << 20;
    mcx_run run;
    char why[512];
    int status = mcx_certify(x, &run, why, sizeof why);
    if (status < 0) {
        fprintf(stderr, "modelcheck certify: %s\n", why);
        if (run.cleanup_failures)
            fprintf(stderr, "modelcheck certify: %u entr%s of the temporary directory could not be removed\n",
                    run.cleanup_failures, run.cleanup_failures == 1 ? "y" : "ies");
        mcx_run_free(&run);
        return EXIT_USAGE;
    }
    char shown[4096];
    if (run.cleanup_failures)
        fprintf(stderr, "modelcheck certify: %u entr%s of %s could not be removed\n", run.cleanup_failures,
                run.cleanup_failures == 1 ? "y" : "ies", mcc_shown(run.root, shown, sizeof shown));
    if (x->keep) fprintf(stderr, "modelcheck certify: case directories kept in %s\n", mcc_shown(run.root, shown, sizeof shown));
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    if (o->timestamp && gmtime_r(&now, &tm)) strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    mcx_report r = {.run = &run, .version = MCC_VERSION, .timestamp = o->timestamp ? stamp : NULL,
                    .timings = o->timings};
    int rc = mcx_counts_pass(&run.total) ? EXIT_CONFORMING : EXIT_NOT_CONFORMING;
    if (status > 0) {
        fprintf(stderr, "modelcheck certify: %s\n", why);
        rc = EXIT_USAGE;
    } else if (run.total.verdict[MCX_ERROR]) {
        fprintf(stderr, "modelcheck certify: %u case(s) could not be run (runner errors)\n",
                run.total.verdict[MCX_ERROR]);
        rc = EXIT_USAGE;
    }
    unsigned escaped = 0;
    const char *first = NULL;
    for (size_t i = 0; i < run.count; i++) {
        if (run.cases[i].escaped && !first) first = run.cases[i].scene;
        escaped += run.cases[i].escaped;
    }
    say_escaped("scene", escaped, first ? first : "");
    report_of of = {.exporter = &r};
    if (write_reports(o, &of) != 0) rc = MC_EXIT_OUTPUT;
    mcx_run_free(&run);
    return rc;
}

static int render(FILE *out, enum kind k, const report_of *of)
{
    const mcc_report *r = of->loader;
    const mcx_report *x = of->exporter;
    if (k == KIND_TEXT) x ? mcx_report_text(out, x) : mcc_report_text(out, r);
    else if (k == KIND_JUNIT) x ? mcx_report_junit(out, x) : mcc_report_junit(out, r);
    else if (k == KIND_HTML) x ? mcx_report_html(out, x) : mcc_report_html(out, r);
    else {
        cJSON *doc = x ? mcx_report_json(x) : mcc_report_json(r);
        char *s = doc ? cJSON_Print(doc) : NULL;
        cJSON_Delete(doc);
        if (!s) return -1;
        fputs(s, out);
        fputc('\n', out);
        free(s);
    }
    return ferror(out) ? -1 : 0;
}

static int render_to(const char *path, enum kind k, const report_of *r)
{
    char name[4096];
    mcc_shown(path ? path : "standard output", name, sizeof name);
    mc_output out = {.f = stdout};
    if (path && mc_output_open(&out, path) != 0) {
        fprintf(stderr, "modelcheck certify: cannot write %s: %s\n", name, strerror(errno));
        return -1;
    }
    if (render(out.f, k, r) != 0 && !ferror(out.f)) {
        if (path) mc_output_abort(&out);
        fprintf(stderr, "modelcheck certify: out of memory writing %s\n", name);
        return -1;
    }
    return path ? mc_output_commit(&out, "modelcheck certify", name)
                : mc_cli_finish_output(stdout, "modelcheck certify", name);
}

static int write_reports(const options *o, const report_of *r)
{
    int rc = render_to(o->report, o->output, r);
    for (int k = 0; k < KIND_COUNT; k++)
        if (o->extra[k] && render_to(o->extra[k], (enum kind)k, r) != 0) rc = -1;
    return rc;
}

static int run_and_report(options *o, const mcc_corpus *corpus)
{
    mcc_result *results = calloc(corpus->count, sizeof *results);
    mcc_summary summary;
    if (!results) return fputs("modelcheck certify: out of memory\n", stderr), EXIT_USAGE;
    const char **names = calloc(corpus->count + 1, sizeof *names), **inputs = calloc(corpus->count + 1, sizeof *inputs);
    for (size_t i = 0; names && inputs && i < corpus->count; i++)
        names[i] = corpus->cases[i].file, inputs[i] = corpus->cases[i].path;
    /* the sanity stop is for commands: an in-process loader is handed the bytes */
    mcc_watch_options wo = {.progress = progress_stream(o),
                            .sanity = o->loader.mode == MCC_MODE_COMMAND && !o->keep_going,
                            .names = names, .inputs = inputs, .classify = classify_loader, .ctx = (void *)corpus};
    mcc_watcher *w = names && inputs ? mcc_watcher_new(&wo, corpus->count) : NULL;
    if (w) o->run.watch = mcc_watcher_fn, o->run.watch_input = mcc_watcher_input, o->run.watch_ctx = w;
    int ran = mcc_run(&o->loader, corpus, &o->run, results);
    mcc_watcher_finish(w);
    /* stopped by the watch: said, and the report written all the same, the
     * cases it left "not run"; exit 2 as when interrupted */
    int stopped = ran == -2;
    if (stopped) {
        fprintf(stderr, "modelcheck certify: %s (the report is partial)\n",
                mcc_watcher_stop_reason(w) ? mcc_watcher_stop_reason(w) : "stopped");
        for (size_t i = 0; i < corpus->count; i++) {
            if (results[i].outcome != MCC_NOT_RUN || corpus->cases[i].skip_reason) continue;
            results[i].outcome = MCC_RUNNER_ERROR;
            results[i].error = strdup("not run: " MCC_SANITY_NOT_RUN);
            mcc_classify(&corpus->cases[i], &results[i]);
        }
    }
    mcc_watcher_free(w);
    free(names), free(inputs);
    /* interrupted: every loader process was killed; the report is written
     * all the same, the unfinished cases "not run", and the exit code is 2 */
    int interrupted = ran != 0 && !stopped;
    if (mcc_summarize(corpus, results, &summary) != 0) {
        mcc_results_free(results, corpus->count);
        return fputs("modelcheck certify: out of memory\n", stderr), EXIT_USAGE;
    }
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    if (o->timestamp && gmtime_r(&now, &tm)) strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    mcc_report r = {.loader = &o->loader, .corpus = corpus, .results = results, .summary = &summary,
                    .only_format = o->format, .timeout_s = o->run.timeout_s, .timings = o->timings,
                    .timestamp = o->timestamp ? stamp : NULL, .version = MCC_VERSION,
                    .isolation = o->isolation};
    int rc = mcc_counts_conforming(&summary.total) ? EXIT_CONFORMING : EXIT_NOT_CONFORMING;
    if (summary.total.verdict[MCC_ERROR] && !interrupted && !stopped) {
        fprintf(stderr, "modelcheck certify: %u case(s) could not be run (runner errors)\n",
                summary.total.verdict[MCC_ERROR]);
        rc = EXIT_USAGE;
    }
    if (interrupted) {
        fputs("modelcheck certify: interrupted (every loader process was killed; the report is partial)\n", stderr);
        rc = EXIT_USAGE;
    }
    if (stopped) rc = EXIT_USAGE;
    unsigned escaped = 0;
    const char *first = NULL;
    for (size_t i = 0; i < corpus->count; i++) {
        if (results[i].escaped && !first) first = corpus->cases[i].file;
        escaped += results[i].escaped;
    }
    say_escaped("case", escaped, first ? first : "");
    report_of of = {.loader = &r};
    if (write_reports(o, &of) != 0) rc = MC_EXIT_OUTPUT;
    mcc_summary_free(&summary);
    mcc_results_free(results, corpus->count);
    return rc;
}

static int run_certify(options *o);

/* What a loader's run reads: the manifest, every case file of the corpus
 * (those --format leaves out too: a report must not replace any of them)
 * and a --library. 0, or -1 when out of memory. */
static int add_corpus_inputs(mc_inputs *in, const options *o, const mcc_corpus *corpus)
{
    char manifest[4096], why[512];
    snprintf(manifest, sizeof manifest, "%s/manifest.json", o->corpus);
    mcc_corpus all;
    const mcc_corpus *every = corpus;
    if (o->format && mcc_corpus_load(o->corpus, NULL, &all, why, sizeof why) == 0) every = &all;
    int rc = mc_inputs_add(in, manifest);
    for (size_t i = 0; rc == 0 && i < every->count; i++) rc = mc_inputs_add(in, every->cases[i].path);
    if (rc == 0 && o->loader.mode == MCC_MODE_LIBRARY) rc = mc_inputs_add(in, o->loader.library);
    if (every == &all) mcc_corpus_free(&all);
    return rc;
}

/* Every report file is checked before anything runs: none may replace an
 * input (corpus NULL: an exporter's run, whose scenes are built in). 0, or
 * -1 with the refusal on stderr. */
static int check_outputs(const options *o, const mcc_corpus *corpus)
{
    mc_inputs in = {0};
    if (corpus && add_corpus_inputs(&in, o, corpus) != 0) {
        mc_inputs_free(&in);
        fputs("modelcheck certify: out of memory\n", stderr);
        return -1;
    }
    /* /dev/null, /dev/full and a shell's >(cmd) are fine places for a report */
    int rc = o->report ? mc_output_check(&in, "modelcheck certify", o->report, MC_OUTPUT_STREAM) : 0;
    for (int k = 0; rc == 0 && k < KIND_COUNT; k++)
        if (o->extra[k]) rc = mc_output_check(&in, "modelcheck certify", o->extra[k], MC_OUTPUT_STREAM);
    mc_inputs_free(&in);
    return rc;
}

int mcc_main(int argc, char **argv)
{
    /* internal: a --library case's child, re-executed in the sandbox */
    if (argc > 1 && strcmp(argv[1], "--library-child") == 0) mcc_library_child_main(argc - 1, argv + 1);
    options o;
    memset(&o, 0, sizeof o);
    char installed[4096];
    o.corpus = mcc_data_path("corpus", installed, sizeof installed) == 0 ? installed : "corpus";
    o.run.timeout_s = 10;
    o.run.jobs = 1;
    o.progress = -1;
    o.sandbox = "auto";
    int rc = parse_args(&o, argc, argv);
    if (rc < 0) return EXIT_CONFORMING;
    if (rc > 0) return rc;
    mcc_catch_signals(1); /* every phase: a signal ends the run with a partial report */
    rc = run_certify(&o);
    mcc_catch_signals(0);
    return rc;
}

static int run_certify(options *o_)
{
    options o = *o_;
    if (o.exporter.command && check_outputs(&o, NULL) != 0) return EXIT_USAGE;
    int rc = resolve_sandbox(&o, o.exporter.command || o.loader.mode != MCC_MODE_REFERENCE);
    if (rc) return rc;
    if (o.exporter.command) return run_exporter(&o);
    char why[512];
    mcc_corpus corpus;
    if (mcc_corpus_load(o.corpus, o.format, &corpus, why, sizeof why) != 0) {
        fprintf(stderr, "modelcheck certify: bad corpus: %s\n", why);
        return EXIT_USAGE;
    }
    if (check_outputs(&o, &corpus) != 0) {
        mcc_corpus_free(&corpus);
        return EXIT_USAGE;
    }
    o.loader.timeout_s = o.run.timeout_s;
    if (mcc_loader_open(&o.loader, why, sizeof why) != 0) {
        fprintf(stderr, "modelcheck certify: %s\n", why);
        mcc_corpus_free(&corpus);
        return EXIT_USAGE;
    }
    rc = run_and_report(&o, &corpus);
    mcc_loader_close(&o.loader);
    mcc_corpus_free(&corpus);
    return rc;
}
