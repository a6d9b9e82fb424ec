/*
 * modelcheck fix [options] (-o OUT | --in-place | --dry-run) FILE...: the
 * fixes of mc_fix written to OUT or over FILE, the result validated again.
 * Exit codes as validation's, for the output: 0 no error remains, 1 some
 * error remains, 2 usage (or a refused output), 3 unreadable, 4 output.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliutil.h"
#include "fix.h"
#include "mc_file.h"
#include "mc_report.h"
#include "modelcheck.h"
#include "outputs.h"

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_UNREADABLE = 3 };
enum fix_report { REPORT_TEXT, REPORT_JSON, REPORT_SARIF };

typedef struct fix_cli {
    mc_options opt;
    mc_fix_options fix;
    unsigned char select[MC_CODE_COUNT], ignore[MC_CODE_COUNT];
    int any_select;
    const char *out;
    int in_place, diff, dry_run, exit_zero, quiet;
    enum fix_report report;
    mc_json_report *json;
    mc_sarif *sarif;
    mc_run_summary summary;
} fix_cli;

static const char fix_usage[] =
    "usage: modelcheck fix [options] (-o OUT | --in-place | --dry-run) FILE...\n"
    "Repairs what writers predictably get wrong (docs/FIX.md): each code's fix is in\n"
    "`modelcheck explain CODE`. The fixed file is validated again; the input is\n"
    "never modified unless --in-place.\n"
    "\n"
    "  -o, --out OUT             write the fixed file to OUT (one FILE); always written\n"
    "      --in-place            write each FILE over itself (a temporary file renamed\n"
    "                            over it, its mode kept), only when something changed\n"
    "      --dry-run             compute the fixes, write nothing\n"
    "      --diff                print every edit: offset, path, old -> new value\n"
    "                            (without -o or --in-place: writes nothing)\n"
    "      --unsafe-fixes        also apply fixes that change data a reader takes\n"
    "                            (weights renormalised, bounds recomputed)\n"
    "      --select CODES        fix only these codes (comma-separated; a prefix\n"
    "                            ending in _ such as SAMF_ names a family)\n"
    "      --ignore CODES        do not fix these codes\n"
    "      --exit-zero           exit 0 although errors remain (they are still\n"
    "                            reported): the pre-commit hook, which fails when\n"
    "                            it changed a file\n"
    "  -q, --quiet               text: nothing for a file without edits or issues\n"
    "      --output-format KIND  text (default), json or sarif (SARIF 2.1.0 with\n"
    "                            fixes: byte replacements)\n"
    "  -f, --format FMT          read as FMT instead of detecting\n"
    "  -h, --help                this text\n"
    "\n"
    "Exit codes: 0 no error remains, 1 errors remain (reported), 2 usage error or a\n"
    "refused output, 3 unreadable file, 4 output could not be written.\n";

/* "PROG: message" and a line naming --help (cliutil.c's one writer) */
#define usage_error(msg) mc_cli_complain("modelcheck fix", "\ntry 'modelcheck fix --help'", "%s", msg)

/* CODES: names, or prefixes ending in '_', comma-separated; every one must
 * name at least one code. */
static int parse_codes(const char *list, unsigned char *set)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy) return -1;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
        size_t len = strlen(t);
        int hits = 0;
        for (int c = 0; c < MC_CODE_COUNT; c++) {
            const char *name = mc_code_get((mc_code)c)->name;
            int match = t[len - 1] == '_' ? strncmp(name, t, len) == 0 : strcmp(name, t) == 0;
            if (match) set[c] = 1, hits++;
        }
        if (!hits) {
            fprintf(stderr, "modelcheck fix: unknown code '%s' (see modelcheck --list-codes)\n", t);
            rc = -1;
        }
    }
    free(copy);
    return rc;
}

static int wanted(mc_code code, void *arg)
{
    const fix_cli *c = arg;
    return (!c->any_select || c->select[code]) && !c->ignore[code];
}

static cJSON *sarif_fixes(mc_code code, const char *uri, void *arg)
{
    return mc_fix_sarif_fixes(arg, code, uri);
}

/* Writes the fixed bytes to dest. 0, or the exit code. */
static int write_output(const char *dest, const uint8_t *bytes, size_t size)
{
    mc_output o;
    if (mc_output_open(&o, dest) != 0) {
        char *q = mc_text_quote(dest);
        fprintf(stderr, "modelcheck fix: cannot write %s: %s\n", q ? q : "?", strerror(errno));
        free(q);
        return MC_EXIT_OUTPUT;
    }
    if (size) fwrite(bytes, 1, size, o.f);
    return mc_output_commit(&o, "modelcheck fix", dest) != 0 ? MC_EXIT_OUTPUT : 0;
}

static int report(fix_cli *c, const mc_fix *fx, const char *name, const char *dest, int written)
{
    const mc_result *after = mc_fix_after(fx);
    mc_summary_add(&c->summary, after, MC_OK);
    switch (c->report) {
    case REPORT_JSON:
        return mc_json_report_file_with(c->json, after, name, MC_OK, "fix", mc_fix_report_json(fx, dest, written));
    case REPORT_SARIF:
        /* the input's results, the first of each fixed code with its fix */
        return mc_sarif_file_fixes(c->sarif, mc_fix_before(fx), name, MC_OK, sarif_fixes, (void *)fx);
    case REPORT_TEXT: break;
    }
    size_t edits = 0;
    mc_fix_edits(fx, &edits);
    if (c->quiet && !edits && !after->issue_count && !mc_fix_withheld(fx)) return 0;
    mc_fix_report_summary(stdout, fx, name, dest, written);
    if (c->diff) mc_fix_report_diff(stdout, fx);
    mc_report_view view = {.min_severity = MC_SEVERITY_HINT};
    mc_report_file_text_view(stdout, after, name, &view);
    return 0;
}

static void unreadable(const char *name, int err, const char *kind)
{
    char *q = mc_text_quote(name);
    if (err == MC_FILE_NOT_REGULAR)
        fprintf(stderr, "modelcheck fix: %s: cannot fix %s: not a regular file\n", q ? q : "?", kind);
    else
        fprintf(stderr, "modelcheck fix: %s: %s\n", q ? q : "?", strerror(err));
    free(q);
}

/* A file that could not be read is in the JSON and SARIF reports as
 * validation reports it (its IO_ issue, readable false). */
static void report_unreadable(fix_cli *c, const char *name)
{
    if (c->report == REPORT_TEXT) return;
    mc_result *r = NULL;
    mc_status st = mc_validate_path(name, &c->opt, &r);
    if (!r) return;
    mc_summary_add(&c->summary, r, st);
    if (c->report == REPORT_JSON) mc_json_report_file(c->json, r, name, st);
    else mc_sarif_file(c->sarif, r, name, st);
    mc_result_free(r);
}

static int fix_one(fix_cli *c, const char *name)
{
    mc_file_bytes file;
    uint64_t limit = c->opt.max_file_bytes ? c->opt.max_file_bytes : UINT64_C(4) << 30;
    int err = mc_file_bytes_open(name, limit, &file);
    if (err) {
        unreadable(name, err, file.kind);
        report_unreadable(c, name);
        return EXIT_UNREADABLE;
    }
    mc_fix *fx = NULL;
    mc_status st = mc_fix_memory(file.data, file.size, &c->opt, &c->fix, &fx);
    int cut = mc_file_bytes_close(&file);
    if (st != MC_OK || cut) {
        fprintf(stderr, "modelcheck fix: %s: %s\n", name, cut ? "file cut short while it was being read" : mc_strerror(st));
        mc_fix_free(fx);
        return EXIT_UNREADABLE;
    }
    size_t edits = 0, size = 0;
    mc_fix_edits(fx, &edits);
    const uint8_t *bytes = mc_fix_output(fx, &size);
    const char *dest = c->dry_run ? NULL : c->in_place ? name : c->out;
    int rc = 0, written = 0;
    /* -o always writes; --in-place only a file that changed (pre-commit
     * then sees exactly the files fixed) */
    if (dest && (c->out || edits)) {
        rc = write_output(dest, bytes, size);
        written = rc == 0;
    }
    if (report(c, fx, name, dest, written) != 0 && !rc) rc = MC_EXIT_OUTPUT;
    if (!rc) rc = c->exit_zero || mc_result_valid(mc_fix_after(fx)) ? EXIT_VALID : EXIT_INVALID;
    mc_fix_free(fx);
    return rc;
}

static int check_modes(fix_cli *c, int n, char **files)
{
    if (n < 1) return usage_error("no FILE");
    if (c->diff && !c->out && !c->in_place) c->dry_run = 1;
    if (!!c->out + c->in_place + c->dry_run != 1)
        return usage_error("give one of -o OUT, --in-place and --dry-run (or --diff alone)");
    if (c->out && n != 1) return usage_error("-o OUT takes one FILE (--in-place fixes several)");
    for (int i = 0; c->in_place && i < n; i++)
        if (strcmp(files[i], "-") == 0) return usage_error("--in-place cannot write standard input");
    /* -o is checked before FILE is read: not FILE itself, not a directory,
     * a FIFO or a device */
    if (c->out && mc_output_check_input("modelcheck fix", c->out, files[0]) != 0) return EXIT_USAGE;
    return 0;
}

static int fix_files(fix_cli *c, int n, char **files)
{
    int rc = check_modes(c, n, files);
    if (rc) return rc;
    /* fix reads no configuration file: settings.config is null */
    if (c->report == REPORT_JSON && !(c->json = mc_json_report_begin(stdout, &c->opt, cJSON_CreateNull())))
        return EXIT_UNREADABLE;
    if (c->report == REPORT_SARIF && !(c->sarif = mc_sarif_begin(stdout, MC_SARIF_SPEC))) return EXIT_UNREADABLE;
    for (int i = 0; i < n; i++) {
        int r = fix_one(c, files[i]);
        if (r > rc) rc = r;
    }
    if (c->json && mc_json_report_end(c->json, &c->summary) != 0 && rc < MC_EXIT_OUTPUT) rc = MC_EXIT_OUTPUT;
    if (c->sarif && mc_sarif_end(c->sarif, &c->summary, &c->opt, cJSON_CreateNull(), rc) != 0 && rc < MC_EXIT_OUTPUT)
        rc = MC_EXIT_OUTPUT;
    if (c->report == REPORT_TEXT && n > 1 && !c->quiet) mc_report_summary_text(stdout, &c->summary);
    return rc;
}

static int parse_report(fix_cli *c, const char *kind)
{
    if (strcmp(kind, "text") == 0) c->report = REPORT_TEXT;
    else if (strcmp(kind, "json") == 0) c->report = REPORT_JSON;
    else if (strcmp(kind, "sarif") == 0) c->report = REPORT_SARIF;
    else return usage_error("--output-format is text, json or sarif");
    return 0;
}

int mc_fix_main(int argc, char **argv)
{
    fix_cli *c = calloc(1, sizeof *c);
    if (!c) {
        fputs("modelcheck fix: out of memory\n", stderr);
        return EXIT_UNREADABLE;
    }
    mc_options_init(&c->opt);
    c->fix.wanted = wanted;
    c->fix.arg = c;
    enum { UNSAFE = 256, SELECT, IGNORE, IN_PLACE, DIFF, DRY_RUN, REPORT, EXIT_ZERO };
    static const struct option longs[] = {
        {"out", required_argument, NULL, 'o'},        {"format", required_argument, NULL, 'f'},
        {"unsafe-fixes", no_argument, NULL, UNSAFE},  {"select", required_argument, NULL, SELECT},
        {"ignore", required_argument, NULL, IGNORE},  {"in-place", no_argument, NULL, IN_PLACE},
        {"diff", no_argument, NULL, DIFF},            {"dry-run", no_argument, NULL, DRY_RUN},
        {"output-format", required_argument, NULL, REPORT}, {"help", no_argument, NULL, 'h'},
        {"exit-zero", no_argument, NULL, EXIT_ZERO},  {"quiet", no_argument, NULL, 'q'},
        {NULL, 0, NULL, 0}};
    int ch, before, rc = -1;
    char refused[160];
    optind = 1;
    opterr = 0;
    while (rc < 0 && (before = optind, ch = getopt_long(argc, argv, ":o:f:qh", longs, NULL)) != -1) {
        switch (ch) {
        case 'o': c->out = optarg; break;
        case 'f': {
            int f = mc_format_parse(optarg);
            if (f <= 0) rc = usage_error("unknown --format");
            else c->opt.format = (mc_format)f;
            break;
        }
        case UNSAFE: c->fix.unsafe_fixes = 1; break;
        case SELECT:
            c->any_select = 1;
            if (parse_codes(optarg, c->select) != 0) rc = EXIT_USAGE;
            break;
        case IGNORE:
            if (parse_codes(optarg, c->ignore) != 0) rc = EXIT_USAGE;
            break;
        case IN_PLACE: c->in_place = 1; break;
        case EXIT_ZERO: c->exit_zero = 1; break;
        case 'q': c->quiet = 1; break;
        case DIFF: c->diff = 1; break;
        case DRY_RUN: c->dry_run = 1; break;
        case REPORT:
            if (parse_report(c, optarg) != 0) rc = EXIT_USAGE;
            break;
        case 'h': fputs(fix_usage, stdout); rc = EXIT_VALID; break;
        default: rc = usage_error(mc_cli_refusal(argv, ch, before, refused, sizeof refused));
        }
    }
    if (rc < 0) rc = fix_files(c, argc - optind, argv + optind);
    free(c);
    return rc;
}
