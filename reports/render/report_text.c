#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mc_report.h"

typedef struct line_ref {
    const mc_issue *issue;
    const mc_instance *instance;
} line_ref;

static int compare_lines(const void *a, const void *b)
{
    const line_ref *x = a, *y = b;
    if (x->instance->offset != y->instance->offset)
        return x->instance->offset < y->instance->offset ? -1 : 1;
    if (x->issue->code != y->issue->code) return x->issue->code < y->issue->code ? -1 : 1;
    return (x->instance > y->instance) - (x->instance < y->instance);
}

/* ANSI SGR sequences of the coloured text report; "" without colour. */
typedef struct palette {
    const char *file, *code, *reset;
    const char *severity[MC_SEVERITY_COUNT];
} palette;

static const palette plain = {"", "", "", {"", "", "", ""}};
static const palette ansi = {"\033[1m", "\033[1m", "\033[0m",
                             {"\033[1;31m", "\033[1;33m", "\033[36m", "\033[36m"}};

static const palette *palette_of(const mc_report_view *v)
{
    return v && v->color ? &ansi : &plain;
}

/* --concise: a line is at most this many columns (bytes; colours aside) */
enum { CONCISE_COLUMNS = 120 };

/* The message of a --concise line that starts with `place` columns: as it
 * is, or cut at a word to end the line at CONCISE_COLUMNS with "...". The
 * place (file, offset, code) is never cut: a line it fills has no message
 * (`modelcheck explain CODE` and the full report have it). */
static void print_fitted(FILE *out, const char *msg, int place)
{
    size_t len = strlen(msg);
    size_t room = place >= 0 && place < CONCISE_COLUMNS ? (size_t)(CONCISE_COLUMNS - place) : 0;
    int cut_short = len > room;
    if (cut_short && room < 4) { /* not even "...": the place alone */
        fputc('\n', out);
        return;
    }
    if (cut_short) {
        size_t limit = room > 3 ? room - 3 : 0, cut = limit;
        while (cut > 0 && msg[cut] != ' ') cut--;
        while (cut > 0 && (msg[cut - 1] == ' ' || msg[cut - 1] == ',' || msg[cut - 1] == ':')) cut--;
        if (cut == 0) /* one long word: cut it, not inside a UTF-8 sequence */
            for (cut = limit; cut > 0 && ((unsigned char)msg[cut] & 0xC0) == 0x80;) cut--;
        len = cut;
    }
    fprintf(out, "%.*s%s\n", (int)len, msg, cut_short ? "..." : "");
}

/* The message ending a line that starts with `place` columns. */
static void print_message(FILE *out, const char *msg, int place, const mc_report_view *v)
{
    if (v && v->concise) print_fitted(out, msg, place);
    else fprintf(out, "%s\n", msg);
}

static void print_line(FILE *out, const char *path, const line_ref *l, const mc_report_view *v)
{
    const palette *c = palette_of(v);
    const mc_instance *in = l->instance;
    mc_severity sev = l->issue->severity;
    const char *code = mc_code_get(l->issue->code)->name;
    fprintf(out, "%s%s%s:0x%" PRIx64 ": %s%s%s: %s%s%s: ", c->file, path, c->reset, in->offset, c->severity[sev],
            mc_severity_name(sev), c->reset, c->code, code, c->reset);
    if (v && v->concise) {
        int place = snprintf(NULL, 0, "%s:0x%" PRIx64 ": %s: %s: ", path, in->offset, mc_severity_name(sev), code);
        print_message(out, in->message, place, v);
        return;
    }
    fputs(in->message, out);
    if (in->has_payload_offset) fprintf(out, " (decoded offset 0x%" PRIx64 ")", in->payload_offset);
    if (in->path[0]) fprintf(out, " [%s]", in->path);
    fputc('\n', out);
}

/* An issue the view shows: severe enough. */
static int shown(const mc_issue *is, const mc_report_view *v)
{
    return !v || is->severity <= v->min_severity;
}

/* "1 error", "2 errors" */
static void counted(FILE *out, uint64_t n, const char *noun, const char *sep)
{
    fprintf(out, "%" PRIu64 " %s%s%s", n, noun, n == 1 ? "" : "s", sep);
}

static void print_counts(FILE *out, const uint64_t counts[MC_SEVERITY_COUNT])
{
    counted(out, counts[MC_SEVERITY_ERROR], "error", ", ");
    counted(out, counts[MC_SEVERITY_WARNING], "warning", ", ");
    counted(out, counts[MC_SEVERITY_INFO], "info", ", ");
    counted(out, counts[MC_SEVERITY_HINT], "hint", "\n");
}

/* --concise: "1 error, 2 warnings", the severities that occur ("no
 * issues" when none). */
static void print_counts_concise(FILE *out, const uint64_t counts[MC_SEVERITY_COUNT])
{
    static const char *const nouns[] = {"error", "warning", "info", "hint"};
    const char *sep = "";
    for (size_t i = 0; i < sizeof nouns / sizeof *nouns; i++) {
        if (!counts[i]) continue;
        fputs(sep, out);
        counted(out, counts[i], nouns[i], "");
        sep = ", ";
    }
    fputs(*sep ? "\n" : "no issues\n", out);
}

static void print_status(FILE *out, const mc_result *r, const char *path, const mc_report_view *v)
{
    const palette *c = palette_of(v);
    fprintf(out, "%s%s%s: %s", c->file, path, c->reset, mc_format_name(r->format));
    if (r->layout[0]) fprintf(out, " (%s)", r->layout);
    if (mc_report_passes(r, v)) fputs(": valid: ", out);
    else if (mc_result_valid(r)) fprintf(out, ": %sinvalid (warnings as errors)%s: ", c->severity[0], c->reset);
    else fprintf(out, ": %sinvalid%s: ", c->severity[0], c->reset);
    if (v && v->concise) print_counts_concise(out, r->counts);
    else print_counts(out, r->counts);
}

void mc_report_file_text(FILE *out, const mc_result *r, const char *name, int quiet)
{
    mc_report_view v = {.min_severity = MC_SEVERITY_HINT, .quiet = quiet};
    mc_report_file_text_view(out, r, name, &v);
}

void mc_report_file_text_view(FILE *out, const mc_result *r, const char *name, const mc_report_view *v)
{
    mc_report_file_text_with(out, r, name, v, NULL);
}

void mc_report_file_text_with(FILE *out, const mc_result *r, const char *name, const mc_report_view *v,
                              mc_inspect *bytes)
{
    /* --quiet: a passing file prints nothing, its issues neither */
    if (v->quiet && mc_report_passes(r, v)) return;
    /* a newline or an escape sequence in a file name must not split a line
     * or reach the terminal */
    char *quoted = mc_text_quote(name);
    const char *path = quoted ? quoted : "(name not shown: out of memory)";
    size_t n = 0;
    for (size_t i = 0; i < r->issue_count; i++) n += r->issues[i].instance_count;
    line_ref *lines = n ? malloc(n * sizeof *lines) : NULL;
    if (lines) {
        size_t k = 0;
        for (size_t i = 0; i < r->issue_count; i++)
            for (size_t j = 0; j < r->issues[i].instance_count && shown(&r->issues[i], v); j++)
                lines[k++] = (line_ref){&r->issues[i], &r->issues[i].instances[j]};
        qsort(lines, k, sizeof *lines, compare_lines);
        for (size_t k2 = 0; k2 < k; k2++) {
            print_line(out, path, &lines[k2], v);
            if (bytes) mc_report_instance_bytes(out, bytes, lines[k2].instance, "    | ");
        }
        free(lines);
    }
    for (size_t i = 0; i < r->issue_count; i++) {
        const mc_issue *is = &r->issues[i];
        if (is->count <= is->instance_count || !shown(is, v)) continue;
        uint64_t more = is->count - is->instance_count;
        const char *code = mc_code_get(is->code)->name;
        char msg[512];
        int place;
        if (is->instance_count == 0) {
            /* --max-issues 0: no instance kept, the issue still has its
             * severity (an error must not read as a note) */
            place = fprintf(out, "%s:0x%" PRIx64 ": %s: %s: ", path, is->first_offset,
                            mc_severity_name(is->severity), code);
            snprintf(msg, sizeof msg, "%s (%" PRIu64 " occurrence%s, none shown)", mc_code_get(is->code)->summary,
                     is->count, is->count == 1 ? "" : "s");
        } else {
            place = fprintf(out, "%s: note: %s: ", path, code);
            snprintf(msg, sizeof msg,
                     "%" PRIu64 " more occurrence%s not shown (%" PRIu64 " in all, first at 0x%" PRIx64 ")", more,
                     more == 1 ? "" : "s", is->count, is->first_offset);
        }
        print_message(out, msg, place, v);
    }
    print_status(out, r, path, v);
    free(quoted);
}

void mc_report_summary_text(FILE *out, const mc_run_summary *s)
{
    mc_report_view v = {.min_severity = MC_SEVERITY_HINT};
    mc_report_summary_text_view(out, s, &v);
}

/* "; 23 infos hidden (shown with --min-severity info)" when the view hid some. */
static void print_hidden(FILE *out, const mc_run_summary *s)
{
    static const char *const nouns[MC_SEVERITY_COUNT] = {"error", "warning", "info", "hint"};
    int any = 0, least = -1;
    for (int k = 0; k < MC_SEVERITY_COUNT; k++) {
        if (!s->hidden[k]) continue;
        fputs(any ? ", " : "; not shown: ", out);
        counted(out, s->hidden[k], nouns[k], "");
        any = 1;
        least = k;
    }
    if (any) fprintf(out, " (--min-severity %s shows them)", nouns[least]);
}

void mc_report_summary_text_view(FILE *out, const mc_run_summary *s, const mc_report_view *v)
{
    fputs("modelcheck: ", out);
    /* skipped files are not among the files checked: the semicolon keeps the
     * three counts that add up to the first apart from them */
    counted(out, s->files, "file", " checked: ");
    fprintf(out, "%" PRIu64 " valid, %" PRIu64 " invalid, %" PRIu64 " unreadable; ", s->valid, s->invalid,
            s->unreadable);
    if (s->excluded)
        fprintf(out, "%" PRIu64 " skipped (%" PRIu64 " unrecognised, %" PRIu64 " excluded by configuration); ",
                s->skipped, s->skipped - s->excluded, s->excluded);
    else
        fprintf(out, "%" PRIu64 " skipped (unrecognised); ", s->skipped);
    counted(out, s->counts[MC_SEVERITY_ERROR], "error", ", ");
    counted(out, s->counts[MC_SEVERITY_WARNING], "warning", ", ");
    counted(out, s->counts[MC_SEVERITY_INFO], "info", ", ");
    counted(out, s->counts[MC_SEVERITY_HINT], "hint", "");
    print_hidden(out, s);
    if (s->baselined) fprintf(out, "; %" PRIu64 " known (in the baseline) not reported", s->baselined);
    for (size_t i = 0; v && i < v->config_count; i++) {
        char *q = mc_text_quote(v->configs[i]);
        fprintf(out, "%s%s", i ? ", " : "; config: ", q ? q : "(name not shown: out of memory)");
        free(q);
    }
    if (v && v->config_count == 8) fputs(", ...", out);
    fputc('\n', out);
}
