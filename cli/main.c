/*
 * modelcheck [options] PATH...
 *
 * Exit codes (README, "Exit codes"):
 *   0  every file valid (no errors; no warnings either with --werror)
 *   1  some file has errors (or warnings with --werror)
 *   2  usage error (bad option or value, no PATH) or bad configuration file
 *   3  some file could not be read (missing, unreadable, not a file) or some
 *      directory could not be listed
 *   4  some output (standard output) could not be written completely
 * When several apply, the highest wins.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "certify.h"
#include "fuzz.h"
#include "cliutil.h"
#include "codename.h"
#include "completion.h"
#include "config.h"
#include "datadir.h"
#include "fix.h"
#include "inspect.h"
#include "mc_report.h"
#include "jobs.h"
#include "modelcheck.h"
#include "outputs.h"
#include "walk.h"

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_UNREADABLE = 3 };
enum output_kind { OUT_TEXT, OUT_JSON, OUT_SARIF, OUT_MARKDOWN, OUT_GITHUB, OUT_JUNIT };

typedef struct cli {
    mc_options opt;
    mc_severity_map *severity; /* opt.severity, owned */
    mcc_config_set *configs;   /* the .modelcheck.json of each file */
    mcc_config *config;        /* the first PATH's, for the report's settings; or NULL */
    const mc_options *base;    /* its options: the settings reported */
    unsigned char pinned_code[MC_CODE_COUNT]; /* set on the command line: */
    unsigned pinned;                          /* configurations leave them */
    const char *show_config;   /* --show-config FILE */
    const char *stdin_name;    /* --stdin-filename: "-" in reports and config rules */
    char **stdin_argv;         /* argv with "-" added (--stdin-filename, no PATH) */
    enum output_kind output;
    mc_report_view view; /* werror, quiet, min_severity, colour, concise */
    int skip_unrecognized; /* named files too: skipped as in a directory walk */
    int show_bytes;        /* text: the bytes under each issue line (inspect.c's walk) */
    int list_codes;
    unsigned jobs;   /* -j: files validated at once */
    mc_run_summary summary;
    mc_json_report *json; /* JSON output only */
    mc_sarif *sarif;      /* SARIF output only */
    mc_junit *junit;      /* JUnit output only */
    mc_baseline *baseline;          /* --baseline: issues accepted */
    const char *baseline_path, *write_baseline_path;
    mc_output write_baseline;       /* --write-baseline: the JSON report of */
    mc_json_report *baseline_json;  /* every issue, baselined or not */
    struct stat baseline_dest;      /* the file it replaces, when one is there */
    int baseline_dest_exists;
    char *baseline_walked;          /* a file of the run that is baseline_dest */
    mc_run_summary baseline_summary;
    mc_sarif_flavour sarif_flavour;
    mc_inputs own;        /* the run's baselines and named configuration: */
    int exit_code;        /* met in the tree, not model files skipped */
} cli;

/* Under 4096 bytes, a pipe's stdio buffer: written in one write(2) at exit,
 * so `modelcheck --help | grep -q` (ctest certify, pipefail) cannot see the
 * pipe close between two writes (exit 4). */
static const char usage_text[] =
    "usage: modelcheck [options] PATH...\n"
    "       modelcheck explain CODE...   what a code means, why it matters, what to do\n"
    "       modelcheck certify (--loader CMD | --library LIB.so | --reference) [options]\n"
    "                            grade a loader on the corpus (modelcheck certify --help)\n"
    "       modelcheck fuzz --loader CMD ...\n"
    "       modelcheck inspect [options] FILE...\n"
    "                            what is inside a file, the bytes at an offset\n"
    "                            (modelcheck inspect --help)\n"
    "Validates 3D model files (AEM, SEModel, AAMF/SAMF, E3D, NLM). PATH is a file, a directory (searched\n"
    "recursively; unrecognised files are skipped) or - for standard input.\n"
    "\n"
    "  -f, --format FMT          validate as FMT instead of detecting\n"
    "                            (aem, semodel, aamf, e3d, nlm)\n"
    "  -o, --output KIND         text (default), json, sarif (SARIF 2.1.0),\n"
    "                            sarif-github (for GitHub code scanning), github\n"
    "                            (annotations), junit; markdown for --list-codes\n"
    "  -n, --max-issues N        instances kept per issue code (default 10)\n"
    "  -s, --severity CODE=LVL   set a code's severity (error|warning|info|hint|ignore)\n"
    "  -i, --ignore CODE         drop a code (same as --severity CODE=ignore)\n"
    "  -W, --werror              warnings fail the file (exit 1; github, sarif\n"
    "                            and junit show them as errors)\n"
    "  -q, --quiet               text: print nothing for files that pass\n"
    "      --min-severity LVL    text, github, junit: hide issues below LVL (error,\n"
    "                            warning, info, hint); counts stay exact\n"
    "      --color WHEN          text: colour severity, code and file (auto: on a\n"
    "                            terminal unless NO_COLOR is set; always; never)\n"
    "      --concise             text: file:offset: severity: CODE: message, a\n"
    "                            line per issue within 120 columns\n"
    "      --weight-tolerance X  per non-zero weight (default 2e-7)\n"
    "      --unit-tolerance X    unit vectors (default 0.00674)\n"
    "      --quaternion-tolerance X  (default 0.00769)\n"
    "      --max-file-bytes N    larger files are rejected (default 4 GiB)\n"
    "      --no-sha256           do not hash files (JSON sha256 is null)\n"
    "  -j, --jobs N              validate N files at once (default: the number\n"
    "                            of online CPUs); the output does not depend on N\n"
    "      --show-bytes          text: under each issue, the bytes of the record it\n"
    "                            points at, the field marked (as modelcheck inspect --at)\n"
    "      --skip-unrecognized   skip named files no format recognises (and empty\n"
    "                            ones), as in a directory walk (pre-commit hooks)\n"
    "      --config FILE         read settings from FILE for every file instead of\n"
    "                            the .modelcheck.json nearest above each file\n"
    "      --no-config           read no configuration file\n"
    "      --baseline FILE       report (and fail on) only issues not in FILE, a\n"
    "                            JSON report of an earlier run\n"
    "      --write-baseline FILE write the JSON report of every issue to FILE\n"
    "      --stdin-filename NAME name standard input (- or no PATH) NAME in the\n"
    "                            reports and for the configuration's rules\n"
    "      --show-config FILE    print the settings that apply to FILE and where\n"
    "                            each comes from, and exit\n"
    "      --list-codes [CODE...] print the issue catalog (or explain the CODEs:\n"
    "                            text, or their catalog objects with --output json)\n"
    "      --completion SHELL    print the completion script of bash, zsh or fish\n"
    "  -V, --version             print the version and exit\n"
    "  -h, --help                print this help and exit\n"
    "\n"
    "Command-line options win over the configuration file (README, \"Use in a repository\").\n"
    "\n"
    "Exit codes: 0 valid, 1 errors found, 2 usage error or bad config file, 3 unreadable file or directory,\n"
    "4 output could not be written (the report is incomplete).\n";

static void raise_exit(cli *c, int code)
{
    if (code > c->exit_code) c->exit_code = code;
}

#define usage_error(...) mc_cli_complain("modelcheck", " (try --help)", __VA_ARGS__)

/* A usage error with its own hint, not --help's: one hint a line. */
static int unknown_code(const char *name)
{
    const char *near = mcc_code_nearest(name);
    if (near) fprintf(stderr, "modelcheck: unknown issue code '%s' (did you mean %s?)\n", name, near);
    else fprintf(stderr, "modelcheck: unknown issue code '%s' (see --list-codes)\n", name);
    return EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v >= 0.0) || v > 1e30) return -1;
    *out = v;
    return 0;
}

/* 0 is an exact comparison, which mc_options spells MC_TOLERANCE_EXACT
 * (its 0 means the default). */
static int parse_tolerance(const char *s, double *out)
{
    if (parse_double(s, out)) return -1;
    if (*out == 0.0) *out = MC_TOLERANCE_EXACT;
    return 0;
}

static int set_severity(cli *c, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq) return usage_error("--severity expects CODE=LEVEL, got '%s'", spec);
    char name[64];
    size_t len = (size_t)(eq - spec);
    if (len >= sizeof name) return usage_error("unknown issue code in '%s'", spec);
    memcpy(name, spec, len);
    name[len] = '\0';
    int code = mc_code_find(name);
    if (code < 0) return unknown_code(name);
    int sev = mc_severity_parse(eq + 1);
    if (sev < 0) return usage_error("unknown severity '%s' (error, warning, info, hint, ignore)", eq + 1);
    mc_severity_map_set(c->severity, (mc_code)code, (mc_severity)sev);
    c->pinned_code[code] = 1;
    return 0;
}

static int parse_output(cli *c, const char *v)
{
    if (strcmp(v, "text") == 0) c->output = OUT_TEXT;
    else if (strcmp(v, "json") == 0) c->output = OUT_JSON;
    else if (strcmp(v, "sarif") == 0) c->output = OUT_SARIF;
    else if (strcmp(v, "sarif-github") == 0) c->output = OUT_SARIF, c->sarif_flavour = MC_SARIF_GITHUB;
    else if (strcmp(v, "markdown") == 0) c->output = OUT_MARKDOWN;
    else if (strcmp(v, "github") == 0) c->output = OUT_GITHUB;
    else if (strcmp(v, "junit") == 0) c->output = OUT_JUNIT;
    else return usage_error("unknown output '%s' (text, json, sarif, sarif-github, github or junit)", v);
    return 0;
}

enum long_only { OPT_WEIGHT = 256, OPT_UNIT, OPT_QUAT, OPT_MAX_BYTES, OPT_LIST, OPT_NO_HASH, OPT_CONFIG, OPT_NO_CONFIG, OPT_SKIP_UNRECOGNIZED,
                 OPT_MIN_SEVERITY, OPT_COLOR, OPT_CONCISE, OPT_SHOW_CONFIG, OPT_BASELINE, OPT_WRITE_BASELINE,
                 OPT_SHOW_BYTES, OPT_STDIN_FILENAME, OPT_COMPLETION };

/* The option table: getopt's, and the shell completions' (--completion). */
static const struct option longs[] = {
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"max-issues", required_argument, NULL, 'n'},
    {"severity", required_argument, NULL, 's'},
    {"ignore", required_argument, NULL, 'i'},
    {"werror", no_argument, NULL, 'W'},
    {"quiet", no_argument, NULL, 'q'},
    {"weight-tolerance", required_argument, NULL, OPT_WEIGHT},
    {"unit-tolerance", required_argument, NULL, OPT_UNIT},
    {"quaternion-tolerance", required_argument, NULL, OPT_QUAT},
    {"max-file-bytes", required_argument, NULL, OPT_MAX_BYTES},
    {"list-codes", no_argument, NULL, OPT_LIST},
    {"no-sha256", no_argument, NULL, OPT_NO_HASH},
    {"skip-unrecognized", no_argument, NULL, OPT_SKIP_UNRECOGNIZED},
    {"show-bytes", no_argument, NULL, OPT_SHOW_BYTES},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"no-config", no_argument, NULL, OPT_NO_CONFIG},
    {"jobs", required_argument, NULL, 'j'},
    {"min-severity", required_argument, NULL, OPT_MIN_SEVERITY},
    {"color", required_argument, NULL, OPT_COLOR},
    {"concise", no_argument, NULL, OPT_CONCISE},
    {"show-config", required_argument, NULL, OPT_SHOW_CONFIG},
    {"stdin-filename", required_argument, NULL, OPT_STDIN_FILENAME},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"write-baseline", required_argument, NULL, OPT_WRITE_BASELINE},
    {"completion", required_argument, NULL, OPT_COMPLETION},
    {"version", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* What an option's value completes to (mcc_completion_opt.values). */
static const char *option_values(const char *name)
{
    static const struct {
        const char *name, *values;
    } known[] = {{"format", "aem semodel aamf e3d nlm"},
                 {"output", "text json sarif sarif-github github junit markdown"},
                 {"min-severity", "error warning info hint"},
                 {"color", "auto always never"},
                 {"completion", "bash zsh fish"},
                 {"ignore", "@code"},
                 {"config", "@file"},
                 {"baseline", "@file"},
                 {"write-baseline", "@file"},
                 {"show-config", "@file"},
                 {"stdin-filename", "@file"}};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(known[i].name, name) == 0) return known[i].values;
    return NULL;
}

/* The first line of --help's text for --name: what follows its column. */
static void option_what(const char *name, char *buf, size_t size)
{
    size_t n = strlen(name);
    buf[0] = '\0';
    for (const char *p = strstr(usage_text, "--"); p; p = strstr(p + 2, "--")) {
        if (strncmp(p + 2, name, n) != 0 || (p[2 + n] != ' ' && p[2 + n] != '\n') || (p[-1] != ' ' && p[-1] != ','))
            continue;
        const char *col = strstr(p, "  "), *eol = strchr(p, '\n');
        if (!col || !eol || col > eol) return;
        col += strspn(col, " ");
        snprintf(buf, size, "%.*s", (int)(eol - col), col);
        return;
    }
}

/* --completion SHELL: the script, from the table above. */
static int print_completion(const char *shell)
{
    enum { COUNT = sizeof longs / sizeof *longs - 1 };
    mcc_completion_opt opts[COUNT];
    char what[COUNT][96];
    for (size_t i = 0; i < COUNT; i++) {
        option_what(longs[i].name, what[i], sizeof what[i]);
        opts[i] = (mcc_completion_opt){longs[i].name, longs[i].val < 128 ? longs[i].val : 0,
                                       longs[i].has_arg == required_argument, option_values(longs[i].name), what[i]};
    }
    if (mcc_completion_write(stdout, shell, opts, COUNT, "explain certify fuzz inspect") != 0)
        return usage_error("unknown shell '%s' for --completion (bash, zsh or fish)", shell);
    return -1;
}

/* --min-severity: what the text report shows; the counts stay exact. */
static int parse_min_severity(cli *c, const char *v)
{
    int sev = mc_severity_parse(v);
    if (sev < 0 || sev == MC_SEVERITY_IGNORE)
        return usage_error("unknown severity '%s' for --min-severity (error, warning, info, hint)", v);
    c->view.min_severity = (mc_severity)sev;
    return 0;
}

/* --color: auto colours a terminal unless NO_COLOR is set (no-color.org). */
enum color_choice { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

static int parse_color(int *choice, const char *v)
{
    if (strcmp(v, "auto") == 0) *choice = COLOR_AUTO;
    else if (strcmp(v, "always") == 0) *choice = COLOR_ALWAYS;
    else if (strcmp(v, "never") == 0) *choice = COLOR_NEVER;
    else return usage_error("unknown --color '%s' (auto, always or never)", v);
    return 0;
}

static int use_color(int choice)
{
    if (choice != COLOR_AUTO) return choice == COLOR_ALWAYS;
    const char *no = getenv("NO_COLOR");
    return !(no && *no) && isatty(fileno(stdout));
}

static int parse_args(cli *c, int argc, char **argv)
{

    opterr = 0;
    int ch, rc = 0, color = COLOR_AUTO;
    char refused[160];
    int before;
    uint64_t u;
    while (rc == 0 && (before = optind, ch = getopt_long(argc, argv, ":f:o:n:s:i:Wqj:Vh", longs, NULL)) != -1) {
        switch (ch) {
        case 'f': {
            int f = mc_format_parse(optarg);
            if (f < 0 || !mc_format_supported((mc_format)f))
                rc = usage_error("unknown or unsupported format '%s'", optarg);
            else c->opt.format = (mc_format)f;
            break;
        }
        case 'o': rc = parse_output(c, optarg); break;
        case 'n':
            if (parse_u64(optarg, &u) != 0 || u > 1000000)
                rc = usage_error("--max-issues expects a number from 0 to 1000000, got '%s'", optarg);
            else c->opt.max_instances = u ? (uint32_t)u : MC_INSTANCES_NONE;
            c->pinned |= MCC_PIN_MAX_ISSUES;
            break;
        case 's': rc = set_severity(c, optarg); break;
        case 'i':
            if (mc_code_find(optarg) < 0) rc = unknown_code(optarg);
            else {
                mc_severity_map_set(c->severity, (mc_code)mc_code_find(optarg), MC_SEVERITY_IGNORE);
                c->pinned_code[mc_code_find(optarg)] = 1;
            }
            break;
        case 'W': c->view.werror = 1; break;
        case 'j':
            if (parse_u64(optarg, &u) != 0 || u < 1 || u > 1024)
                rc = usage_error("--jobs expects a number from 1 to 1024, got '%s'", optarg);
            else c->jobs = (unsigned)u;
            break;
        case 'q': c->view.quiet = 1; break;
        case OPT_WEIGHT:
            if (parse_tolerance(optarg, &c->opt.weight_sum_tolerance)) rc = usage_error("bad tolerance '%s'", optarg);
            c->pinned |= MCC_PIN_WEIGHT;
            break;
        case OPT_UNIT:
            if (parse_tolerance(optarg, &c->opt.unit_tolerance)) rc = usage_error("bad tolerance '%s'", optarg);
            c->pinned |= MCC_PIN_UNIT;
            break;
        case OPT_QUAT:
            if (parse_tolerance(optarg, &c->opt.quaternion_tolerance)) rc = usage_error("bad tolerance '%s'", optarg);
            c->pinned |= MCC_PIN_QUAT;
            break;
        case OPT_MAX_BYTES:
            if (parse_u64(optarg, &c->opt.max_file_bytes) || c->opt.max_file_bytes == 0)
                rc = usage_error("--max-file-bytes expects a positive byte count, got '%s'", optarg);
            c->pinned |= MCC_PIN_MAX_BYTES;
            break;
        case OPT_LIST: c->list_codes = 1; break;
        case OPT_NO_HASH: c->opt.skip_sha256 = 1; break;
        case OPT_SKIP_UNRECOGNIZED: c->skip_unrecognized = 1; break;
        case OPT_MIN_SEVERITY: rc = parse_min_severity(c, optarg); break;
        case OPT_COLOR: rc = parse_color(&color, optarg); break;
        case OPT_CONCISE: c->view.concise = 1; break;
        case OPT_SHOW_CONFIG: c->show_config = optarg; break;
        case OPT_STDIN_FILENAME:
            if (!*optarg || strcmp(optarg, "-") == 0) rc = usage_error("--stdin-filename expects a file name, got '%s'", optarg);
            else c->stdin_name = optarg;
            break;
        case OPT_BASELINE: c->baseline_path = optarg; break;
        case OPT_WRITE_BASELINE: c->write_baseline_path = optarg; break;
        case OPT_SHOW_BYTES: c->show_bytes = 1; break;
        case OPT_CONFIG:
        case OPT_NO_CONFIG: break; /* read by load_configs */
        case OPT_COMPLETION: return print_completion(optarg);
        case 'V': printf("modelcheck %s\n", MC_VERSION_STRING); return -1;
        case 'h': fputs(usage_text, stdout); return -1;
        default: rc = usage_error("%s", mc_cli_refusal(argv, ch, before, refused, sizeof refused)); break;
        }
    }
    c->view.color = use_color(color);
    if (rc == 0 && c->output == OUT_MARKDOWN && !c->list_codes)
        rc = usage_error("%s is only for --list-codes", "--output markdown");
    return rc;
}

/* "modelcheck: PATH: what" on stderr, the path quoted if it holds bytes a
 * terminal would act on (README, "Behaviour at the edges"). */
__attribute__((format(printf, 2, 3))) static void path_error(const char *path, const char *fmt, ...)
{
    char *shown = mc_text_quote(path);
    fprintf(stderr, "modelcheck: %s: ", shown ? shown : "(out of memory)");
    free(shown);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void print_io_error(const char *path, const mc_result *r)
{
    const char *msg = r && r->issue_count && r->issues[0].instance_count
                          ? r->issues[0].instances[0].message
                          : "cannot read";
    path_error(path, "%s", msg);
}

/* A path that has no result (out of memory before one existed): the summary
 * must not read as if it had never been named. */
static void report_file(cli *c, const char *path, int from_walk, const mc_result *r, mc_status st);

static void report_no_result(cli *c, const char *path, mc_status st)
{
    /* the reports list it as unreadable, as any path they count (issue 29:
     * `-o json -` out of memory gave "files": [] with a summary of 1); the
     * library's buffer is freed by now, so this small result usually fits */
    mc_result *r = NULL;
    if (st == MC_ERR_NOMEM && mc_result_io_error("cannot read", ENOMEM, &c->opt, &r) == MC_ERR_IO && r) {
        report_file(c, path, 0, r, MC_ERR_IO);
        mc_result_free(r);
        return;
    }
    path_error(path, "%s", mc_strerror(st));
    c->summary.files++;
    c->summary.unreadable++;
    raise_exit(c, EXIT_UNREADABLE);
}

/* --write-baseline gets every issue of r; with --baseline, *fresh is r
 * without the accepted ones (to free with mc_baseline_filtered_free).
 * 0 when out of memory. */
static int baseline_file(cli *c, const char *path, const mc_result *r, mc_status st, mc_result **fresh)
{
    if (c->baseline_json) {
        /* a file met in a walked directory (named ones were refused before
         * the run): the baseline will not replace it */
        struct stat fs;
        if (c->baseline_dest_exists && !c->baseline_walked && stat(path, &fs) == 0 &&
            fs.st_dev == c->baseline_dest.st_dev && fs.st_ino == c->baseline_dest.st_ino)
            c->baseline_walked = strdup(path);
        mc_summary_add_view(&c->baseline_summary, r, st, &c->view);
        if (mc_json_report_file(c->baseline_json, r, path, st) != 0) return 0;
    }
    if (!c->baseline) return 1;
    uint64_t known = 0;
    if (!(*fresh = mc_baseline_filter(c->baseline, path, r, &known))) return 0;
    c->summary.baselined += known;
    return 1;
}

/* --write-baseline must not replace a file the run reads: a named model
 * file, standard input, a configuration. The --baseline it reads may be the
 * one it rewrites: that file is read whole before the run, and replaced
 * only at its end. 0, or EXIT_USAGE after the refusal. */
static int check_write_baseline(cli *c, char **paths, int count)
{
    mc_inputs in = {0};
    const char *configs[64];
    size_t nconfig = mcc_config_set_used(c->configs, configs, sizeof configs / sizeof *configs);
    int rc = 0;
    for (int i = 0; rc == 0 && i < count; i++) rc = mc_inputs_add(&in, paths[i]);
    for (size_t i = 0; rc == 0 && i < nconfig; i++) rc = mc_inputs_add(&in, configs[i]);
    if (rc != 0) fputs("modelcheck: out of memory\n", stderr);
    /* a stream: --write-baseline /dev/stdout */
    else rc = mc_output_check(&in, "modelcheck", c->write_baseline_path, MC_OUTPUT_STREAM);
    mc_inputs_free(&in);
    return rc ? EXIT_USAGE : 0;
}

/* --baseline is read and --write-baseline's file begun before any file
 * is validated. */
static int open_baselines(cli *c)
{
    if (c->baseline_path && mc_baseline_load(c->baseline_path, &c->baseline, stderr) != 0) return EXIT_USAGE;
    if (!c->write_baseline_path) return 0;
    c->baseline_dest_exists = stat(c->write_baseline_path, &c->baseline_dest) == 0;
    if (mc_output_open(&c->write_baseline, c->write_baseline_path) != 0) {
        path_error(c->write_baseline_path, "cannot create the baseline: %s", strerror(errno));
        return MC_EXIT_OUTPUT;
    }
    mc_report_view all = c->view;
    all.min_severity = MC_SEVERITY_HINT;
    if (!(c->baseline_json = mc_json_report_begin_view(c->write_baseline.f, c->base, mcc_config_json(c->config), &all)))
        return EXIT_UNREADABLE;
    return 0;
}

static void close_baselines(cli *c)
{
    mc_baseline_free(c->baseline);
    if (!c->write_baseline.f) return;
    int rc = c->baseline_json ? mc_json_report_end(c->baseline_json, &c->baseline_summary) : -1;
    if (c->baseline_walked) {
        mc_output_abort(&c->write_baseline);
        char *out = mc_text_quote(c->write_baseline_path), *in = mc_text_quote(c->baseline_walked);
        fprintf(stderr, "modelcheck: refusing to write %s: it is the input %s (a file of the checked tree); no baseline written\n",
                out ? out : "the baseline", in ? in : "");
        free(out), free(in);
        free(c->baseline_walked);
        raise_exit(c, EXIT_USAGE);
        return;
    }
    if (rc != 0) {
        mc_output_abort(&c->write_baseline);
        path_error(c->write_baseline_path, "the baseline could not be written completely");
        raise_exit(c, MC_EXIT_OUTPUT);
        return;
    }
    char *shown = mc_text_quote(c->write_baseline_path);
    if (mc_output_commit(&c->write_baseline, "modelcheck", shown ? shown : "the baseline") != 0)
        raise_exit(c, MC_EXIT_OUTPUT);
    free(shown);
}

/* Standard input is named NAME with --stdin-filename NAME: in the reports,
 * and for the configuration (found from NAME's directory, its exclude and
 * overrides matched against NAME), as ruff and eslint do for editors. */
static const char *shown_name(const cli *c, const char *path)
{
    return c->stdin_name && strcmp(path, "-") == 0 ? c->stdin_name : path;
}

/* 1 when path is the run's --baseline, --write-baseline or --config file. */
static int own_file(const cli *c, const char *path)
{
    struct stat st;
    if (c->own.count == 0 || stat(path, &st) != 0) return 0;
    for (size_t i = 0; i < c->own.count; i++)
        if (c->own.files[i].dev == st.st_dev && c->own.files[i].ino == st.st_ino) return 1;
    return 0;
}

/* Reports one file's result (the caller frees it); when walking a
 * directory, unrecognised files are skipped and only counted (the run's
 * own baseline and configuration files not even that). */
static void report_file(cli *c, const char *path, int from_walk, const mc_result *r, mc_status st)
{
    path = shown_name(c, path);
    if (!r) {
        report_no_result(c, path, st);
        return;
    }
    if ((from_walk || c->skip_unrecognized) && st == MC_OK && r->format == MC_FORMAT_UNKNOWN &&
        (mc_result_find(r, MC_FILE_UNRECOGNIZED) || mc_result_find(r, MC_FILE_EMPTY))) {
        if (!own_file(c, path)) c->summary.skipped++;
        return;
    }
    mc_result *fresh = NULL;
    if (!baseline_file(c, path, r, st, &fresh)) {
        path_error(path, "out of memory writing the report");
        raise_exit(c, EXIT_UNREADABLE);
        return;
    }
    if (fresh) r = fresh;
    mc_summary_add_view(&c->summary, r, st, &c->view);
    if (st == MC_ERR_IO) {
        raise_exit(c, EXIT_UNREADABLE);
        print_io_error(path, r);
    } else if (!mc_report_passes(r, &c->view)) {
        raise_exit(c, EXIT_INVALID);
    }
    int rc = 0;
    if (c->output == OUT_JSON) rc = mc_json_report_file(c->json, r, path, st);
    else if (c->output == OUT_SARIF) rc = mc_sarif_file(c->sarif, r, path, st);
    else if (c->output == OUT_JUNIT) rc = mc_junit_file(c->junit, r, path, st);
    else if (c->output == OUT_GITHUB) mc_report_file_github(stdout, r, path, st, &c->view);
    else if (st != MC_ERR_IO && c->show_bytes) mc_report_file_text_bytes(stdout, r, path, &c->view, &c->opt);
    else if (st != MC_ERR_IO) mc_report_file_text_view(stdout, r, path, &c->view);
    mc_baseline_filtered_free(fresh);
    if (rc != 0) {
        path_error(path, "out of memory writing the report");
        raise_exit(c, EXIT_UNREADABLE);
    }
}

typedef struct batch {
    cli *c;
    const char *const *paths;
    int from_walk;
} batch;

static void deliver(void *ctx, size_t index, mc_result *r, mc_status st)
{
    const batch *b = ctx;
    report_file(b->c, b->paths[index], b->from_walk, r, st);
}

/* Validates paths (-j of them at once) and reports them in list order.
 * The configuration's excluded paths are skipped, and each file gets the
 * options of the per-path overrides it matches. listed: see mc_jobs_validate. */
static void check_files(cli *c, const char *const *paths, const unsigned char *listed, size_t count,
                        int from_walk)
{
    size_t cap = count ? count : 1;
    const char **kept = cap <= SIZE_MAX / sizeof *kept ? malloc(cap * sizeof *kept) : NULL;
    const mc_options **opts = kept ? malloc(cap * sizeof *opts) : NULL;
    unsigned char *kept_listed = opts && listed ? malloc(cap) : NULL;
    if (!opts || (listed && !kept_listed)) {
        free(kept);
        free(opts);
        fputs("modelcheck: out of memory\n", stderr);
        raise_exit(c, EXIT_UNREADABLE);
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        mcc_config *cfg;
        const char *name = shown_name(c, paths[i]);
        int found = mcc_config_set_lookup(c->configs, name, 0, stderr, &cfg);
        if (found == -1) {
            /* a refused configuration met in a walk: its files are not
             * checked with half of it (its problems are on stderr) */
            c->summary.skipped++;
            raise_exit(c, EXIT_USAGE);
            continue;
        }
        if (mcc_config_excluded(cfg, name)) {
            c->summary.skipped++;
            c->summary.excluded++;
            continue;
        }
        const mc_options *base = found == 0 ? mcc_config_base(cfg, &c->opt) : NULL;
        if (!base || !(opts[n] = mcc_config_options_for(cfg, name, base))) {
            report_file(c, paths[i], from_walk, NULL, MC_ERR_NOMEM);
            continue;
        }
        if (kept_listed) kept_listed[n] = listed[i];
        kept[n++] = paths[i];
    }
    batch b = {c, kept, from_walk};
    mc_jobs_validate(kept, kept_listed, n, opts, c->jobs, deliver, &b);
    free(kept);
    free(opts);
    free(kept_listed);
}

/* A directory that cannot be listed hides files from the check: the run
 * cannot say they are valid, so it is an unreadable entry of its own in the
 * report (exit 3), counted like any unreadable file. */
static void walk_error(void *ctx, const char *path, int err)
{
    cli *c = ctx;
    mc_result *r = NULL;
    mc_status st = mc_result_io_error("cannot list directory", err, &c->opt, &r);
    report_file(c, path, 0, r, st);
    mc_result_free(r);
}

static void check_directory(cli *c, const char *dir)
{
    mc_pathlist list = {0};
    uint64_t before_files = c->summary.files, before_skipped = c->summary.skipped;
    if (mc_walk(dir, &list, walk_error, c) != 0) {
        path_error(dir, "out of memory listing the directory");
        raise_exit(c, EXIT_UNREADABLE);
    }
    check_files(c, (const char *const *)list.paths, list.listed, list.count, 1);
    if (c->summary.files == before_files)
        path_error(dir, "no model files found (%" PRIu64 " skipped)",
                c->summary.skipped - before_skipped);
    mc_pathlist_free(&list);
}

static int is_directory(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Each directory in turn; each run of consecutive file arguments as one
 * list, so that `modelcheck *.aem` is validated in parallel too; standard
 * input on its own. */
static void check_paths(cli *c, char **paths, int count)
{
    for (int i = 0; i < count;) {
        if (is_directory(paths[i])) {
            check_directory(c, paths[i++]);
            continue;
        }
        /* standard input alone: two "-" read by two threads would split it */
        int end = i + 1;
        if (strcmp(paths[i], "-") != 0)
            while (end < count && !is_directory(paths[end]) && strcmp(paths[end], "-") != 0) end++;
        check_files(c, (const char *const *)(paths + i), NULL, (size_t)(end - i), 0);
        i = end;
    }
}

/* The corpus case of a code, validated: its first line for the code, as
 * the text report prints it (NULL when the corpus is not installed or has
 * no case). */
static char *example_line(mc_code code)
{
    char dir[4096], file[4096 + 256];
    if (mcc_data_path("corpus", dir, sizeof dir) != 0) return NULL;
    snprintf(file, sizeof file, "%s/manifest.json", dir);
    FILE *f = fopen(file, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t cap = 0, len = 0;
    FILE *m = open_memstream(&text, &cap);
    for (int ch; m && (ch = fgetc(f)) != EOF;) fputc(ch, m);
    fclose(f);
    if (!m) return NULL;
    fclose(m);
    len = cap;
    cJSON *doc = cJSON_ParseWithLength(text, len);
    free(text);
    const char *name = mc_code_get(code)->name;
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    char *line = NULL;
    for (const cJSON *k = cJSON_IsArray(cases) ? cases->child : NULL; k && !line; k = k->next) {
        const cJSON *rule = cJSON_GetObjectItemCaseSensitive(k, "rule");
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(k, "file");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(k, "args");
        if (!cJSON_IsString(rule) || strcmp(rule->valuestring, name) != 0 || !cJSON_IsString(path)) continue;
        mc_options o;
        mc_options_init(&o);
        o.skip_sha256 = 1;
        for (const cJSON *a = cJSON_IsArray(args) ? args->child : NULL; a && a->next; a = a->next->next) {
            if (!cJSON_IsString(a) || !cJSON_IsString(a->next)) break;
            if (strcmp(a->valuestring, "--format") == 0 && mc_format_parse(a->next->valuestring) > 0)
                o.format = (mc_format)mc_format_parse(a->next->valuestring);
            else if (strcmp(a->valuestring, "--max-file-bytes") == 0)
                o.max_file_bytes = strtoull(a->next->valuestring, NULL, 10);
        }
        snprintf(file, sizeof file, "%s/%s", dir, path->valuestring);
        mc_result *r = NULL;
        mc_validate_path(file, &o, &r);
        const mc_issue *is = r ? mc_result_find(r, code) : NULL;
        if (is && is->instance_count) {
            char *out = NULL;
            size_t n = 0;
            FILE *s = open_memstream(&out, &n);
            if (s) {
                const mc_instance *in = &is->instances[0];
                fprintf(s, "corpus/%s:0x%" PRIx64 ": %s: %s: %s", path->valuestring, in->offset,
                        mc_severity_name(is->severity), name, in->message);
                if (in->path[0]) fprintf(s, " [%s]", in->path);
                fclose(s);
                line = out;
            }
        }
        mc_result_free(r);
    }
    cJSON_Delete(doc);
    return line;
}

/* `modelcheck explain CODE...` and `--list-codes CODE...` in text. */
static int explain_codes(char **names, int count)
{
    if (count == 1 && (strcmp(names[0], "-h") == 0 || strcmp(names[0], "--help") == 0)) {
        fputs("usage: modelcheck explain CODE...\n"
              "For each issue code: severity, kind, rule, specification clause, why it matters,\n"
              "what to do, and an example line from the bundled corpus (see --list-codes).\n", stdout);
        return EXIT_VALID;
    }
    /* as typed: any case (aem_weight_sum) */
    for (int i = 0; i < count; i++) {
        if (mcc_code_find_nocase(names[i]) < 0) return unknown_code(names[i]);
    }
    /* the installed documents the clauses cite (share/doc/modelcheck) */
    char docdir[4096], docs[4096 + 8];
    struct stat st;
    int has_docs = mcc_doc_path(".", docdir, sizeof docdir) == 0 &&
                   snprintf(docs, sizeof docs, "%s/docs", docdir) < (int)sizeof docs && stat(docs, &st) == 0 &&
                   S_ISDIR(st.st_mode);
    for (int i = 0; i < count; i++) {
        mc_code code = (mc_code)mcc_code_find_nocase(names[i]);
        char *example = example_line(code);
        if (i) putchar('\n');
        mc_explain_text_docs(stdout, code, example, has_docs ? docdir : NULL);
        free(example);
    }
    return EXIT_VALID;
}

static int list_codes(const cli *c, char **names, int count)
{
    if (count && c->output == OUT_JSON) {
        /* the catalog's objects of the codes named, in the order named */
        cJSON *all = mc_catalog_json(), *picked = cJSON_CreateArray();
        for (int i = 0; i < count; i++) {
            int code = mcc_code_find_nocase(names[i]);
            if (code < 0) {
                cJSON_Delete(all);
                cJSON_Delete(picked);
                return unknown_code(names[i]);
            }
            for (const cJSON *o = all->child; o; o = o->next)
                if (strcmp(cJSON_GetObjectItemCaseSensitive(o, "code")->valuestring, mc_code_get((mc_code)code)->name) == 0)
                    cJSON_AddItemToArray(picked, cJSON_Duplicate(o, 1));
        }
        char *s = cJSON_Print(picked);
        if (s) puts(s);
        free(s);
        cJSON_Delete(all);
        cJSON_Delete(picked);
        return EXIT_VALID;
    }
    if (count) return explain_codes(names, count);
    if (c->output == OUT_MARKDOWN) {
        mc_options d;
        mc_options_init(&d);
        mc_catalog_markdown(stdout, &d);
    } else if (c->output == OUT_JSON) {
        cJSON *j = mc_catalog_json();
        char *s = cJSON_Print(j);
        if (s) puts(s);
        free(s);
        cJSON_Delete(j);
    } else {
        mc_catalog_text(stdout);
    }
    return EXIT_VALID;
}

/* --config FILE and --no-config (the last of them counts) choose how
 * each file finds its configuration. The configurations of the PATH
 * arguments are read before anything is validated, so that a bad one stops
 * the run before any report; the first PATH's gives the report's settings. */
static int load_configs(cli *c, int argc, char **argv)
{
    const char *path = NULL;
    int none = 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--no-config") == 0) none = 1, path = NULL;
        else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) path = argv[++i], none = 0;
        else if (strncmp(argv[i], "--config=", 9) == 0) path = argv[i] + 9, none = 0;
    }
    int mode = none ? MCC_NONE : path ? MCC_EXPLICIT : MCC_DISCOVER;
    if (!(c->configs = mcc_config_set_new(mode, path, c->pinned_code, c->pinned))) return EXIT_UNREADABLE;
    int bad = 0;
    c->base = &c->opt;
    for (int i = c->show_config ? optind - 1 : optind; i < argc; i++) {
        const char *arg = i < optind ? c->show_config : shown_name(c, argv[i]);
        mcc_config *cfg;
        int rc = mcc_config_set_lookup(c->configs, arg, is_directory(arg), stderr, &cfg);
        if (rc == -2) return EXIT_UNREADABLE;
        if (rc == -1) bad = 1;
        if (rc == 0 && i == (c->show_config ? optind - 1 : optind)) c->config = cfg;
    }
    /* no PATH (--list-codes, a usage error to come): the working directory's */
    if (optind >= argc && !c->show_config && mode != MCC_NONE) {
        mcc_config *cfg;
        if (mcc_config_set_lookup(c->configs, ".", 1, stderr, &cfg) == -1) bad = 1;
        else c->config = cfg;
    }
    if (bad) return EXIT_USAGE;
    if (!(c->base = mcc_config_base(c->config, &c->opt))) return EXIT_UNREADABLE;
    return 0;
}

/* The files a walk may meet that belong to the run, not to the models. */
static int note_own_files(cli *c)
{
    const char *configs[64];
    size_t nconfig = mcc_config_set_used(c->configs, configs, sizeof configs / sizeof *configs);
    int rc = 0;
    if (c->baseline_path) rc |= mc_inputs_add(&c->own, c->baseline_path);
    if (c->write_baseline_path) rc |= mc_inputs_add(&c->own, c->write_baseline_path);
    for (size_t i = 0; i < nconfig; i++) rc |= mc_inputs_add(&c->own, configs[i]);
    return rc;
}

static int show_config(cli *c)
{
    if (mcc_config_show(c->config, c->show_config, &c->opt, stdout) != 0) {
        fputs("modelcheck: out of memory\n", stderr);
        return EXIT_UNREADABLE;
    }
    return EXIT_VALID;
}

static int run(cli *c, int argc, char **argv)
{
    int rc = parse_args(c, argc, argv);
    if (rc < 0) return EXIT_VALID;
    if (rc > 0) return rc;
    if (c->list_codes) return list_codes(c, argv + optind, argc - optind);
    if (optind >= argc && c->stdin_name && !c->show_config) {
        /* --stdin-filename NAME and no PATH: standard input is the PATH */
        static char dash[] = "-";
        if (!(c->stdin_argv = calloc((size_t)argc + 2, sizeof *argv))) {
            fputs("modelcheck: out of memory\n", stderr);
            return EXIT_UNREADABLE;
        }
        memcpy(c->stdin_argv, argv, (size_t)argc * sizeof *argv);
        c->stdin_argv[argc++] = dash;
        argv = c->stdin_argv;
    }
    if ((rc = load_configs(c, argc, argv)) != 0) return rc;
    if (c->show_config) return show_config(c);
    if (optind >= argc) return usage_error("%s", "no PATH given");
    /* the text report prints no digest: do not compute one (issue 16) */
    /* a baseline matches a moved file by its digest */
    if ((c->output == OUT_TEXT || c->output == OUT_GITHUB || c->output == OUT_JUNIT) && !c->baseline_path &&
        !c->write_baseline_path)
        c->opt.skip_sha256 = 1;
    if (c->write_baseline_path && (rc = check_write_baseline(c, argv + optind, argc - optind)) != 0) return rc;
    if ((rc = open_baselines(c)) != 0) {
        close_baselines(c);
        return rc;
    }
    if (note_own_files(c) != 0) {
        close_baselines(c);
        fputs("modelcheck: out of memory\n", stderr);
        return EXIT_UNREADABLE;
    }

    /* JSON and SARIF are written as each file is reported: memory does not
     * grow with the number of files. The settings say which configuration
     * file was used. */
    if ((c->output == OUT_JSON &&
         !(c->json = mc_json_report_begin_view(stdout, c->base, mcc_config_json(c->config), &c->view))) ||
        (c->output == OUT_SARIF && !(c->sarif = mc_sarif_begin(stdout, c->sarif_flavour))) ||
        (c->output == OUT_JUNIT && !(c->junit = mc_junit_begin(stdout, &c->view)))) {
        fputs("modelcheck: out of memory\n", stderr);
        return EXIT_UNREADABLE;
    }
    mc_sarif_set_view(c->sarif, &c->view);
    check_paths(c, argv + optind, argc - optind);
    close_baselines(c);

    if (c->output == OUT_JSON || c->output == OUT_SARIF || c->output == OUT_JUNIT) {
        int end = c->output == OUT_JSON    ? mc_json_report_end(c->json, &c->summary)
                  : c->output == OUT_JUNIT ? mc_junit_end(c->junit, &c->summary)
                                           : mc_sarif_end(c->sarif, &c->summary, c->base, mcc_config_json(c->config), c->exit_code);
        if (end != 0) {
            fputs("modelcheck: out of memory writing the report\n", stderr);
            raise_exit(c, EXIT_UNREADABLE);
        }
    } else if (!c->view.quiet || c->summary.files > 1) {
        const char *used[8];
        c->view.configs = used;
        c->view.config_count = mcc_config_set_used(c->configs, used, 8);
        mc_report_summary_text_view(stdout, &c->summary, &c->view);
    }
    return c->exit_code;
}

static int validate(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    mc_options_init(&c.opt);
    c.jobs = mc_jobs_default();
    c.view.min_severity = MC_SEVERITY_HINT;
    if (!(c.severity = mc_severity_map_new())) {
        fputs("modelcheck: out of memory\n", stderr);
        return EXIT_UNREADABLE;
    }
    c.opt.severity = c.severity;
    int rc = run(&c, argc, argv);
    mc_severity_map_free(c.severity);
    mcc_config_set_free(c.configs);
    mc_inputs_free(&c.own);
    free(c.stdin_argv);
    return rc;
}

int main(int argc, char **argv)
{
    mc_cli_hold_std_fds();
    int certify = argc > 1 && strcmp(argv[1], "certify") == 0;
    int explain = argc > 1 && strcmp(argv[1], "explain") == 0;
    int inspect = argc > 1 && strcmp(argv[1], "inspect") == 0;
    int fuzz = argc > 1 && strcmp(argv[1], "fuzz") == 0;
    int fix = argc > 1 && strcmp(argv[1], "fix") == 0;
    int rc = certify ? mcc_main(argc - 1, argv + 1)
             : fix ? mc_fix_main(argc - 1, argv + 1)
             : fuzz ? mcc_fuzz_main(argc - 1, argv + 1)
             : inspect ? mc_inspect_main(argc - 1, argv + 1)
             : explain ? (argc > 2 ? explain_codes(argv + 2, argc - 2)
                                   : usage_error("%s", "explain needs an issue code (see --list-codes)"))
                       : validate(argc, argv);
    /* exit 4 comes with its line already (certify finishes its own reports,
     * standard output among them): one line, not a second "incomplete" */
    if (rc != MC_EXIT_OUTPUT &&
        mc_cli_finish_output(stdout, certify ? "modelcheck certify" : fuzz ? "modelcheck fuzz" : "modelcheck",
                             "standard output") != 0)
        rc = MC_EXIT_OUTPUT;
    return rc;
}
