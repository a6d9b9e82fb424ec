#include <inttypes.h>
#include <stdlib.h>

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

static void print_line(FILE *out, const char *path, const line_ref *l)
{
    const mc_instance *in = l->instance;
    fprintf(out, "%s:0x%" PRIx64 ": %s: %s: %s", path, in->offset,
            mc_severity_name(l->issue->severity), mc_code_get(l->issue->code)->name, in->message);
    if (in->has_payload_offset) fprintf(out, " (decoded offset 0x%" PRIx64 ")", in->payload_offset);
    if (in->path[0]) fprintf(out, " [%s]", in->path);
    fputc('\n', out);
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

static void print_status(FILE *out, const mc_result *r, const char *path)
{
    fprintf(out, "%s: %s", path, mc_format_name(r->format));
    if (r->layout[0]) fprintf(out, " (%s)", r->layout);
    fprintf(out, ": %s: ", mc_result_valid(r) ? "valid" : "invalid");
    print_counts(out, r->counts);
}

void mc_report_file_text(FILE *out, const mc_result *r, const char *name, int quiet)
{
    mc_report_file_text_with(out, r, name, quiet, NULL);
}

void mc_report_file_text_with(FILE *out, const mc_result *r, const char *name, int quiet,
                              mc_inspect *bytes)
{
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
            for (size_t j = 0; j < r->issues[i].instance_count; j++)
                lines[k++] = (line_ref){&r->issues[i], &r->issues[i].instances[j]};
        qsort(lines, n, sizeof *lines, compare_lines);
        for (size_t k2 = 0; k2 < n; k2++) {
            print_line(out, path, &lines[k2]);
            if (bytes) mc_report_instance_bytes(out, bytes, lines[k2].instance, "    | ");
        }
        free(lines);
    }
    for (size_t i = 0; i < r->issue_count; i++) {
        const mc_issue *is = &r->issues[i];
        if (is->count <= is->instance_count) continue;
        uint64_t more = is->count - is->instance_count;
        if (is->instance_count == 0) {
            /* --max-issues 0: no instance kept, the issue still has its
             * severity (an error must not read as a note) */
            fprintf(out, "%s:0x%" PRIx64 ": %s: %s: %s (%" PRIu64 " occurrence%s, none shown)\n", path,
                    is->first_offset, mc_severity_name(is->severity), mc_code_get(is->code)->name,
                    mc_code_get(is->code)->summary, is->count, is->count == 1 ? "" : "s");
            continue;
        }
        fprintf(out, "%s: note: %s: %" PRIu64 " more occurrence%s not shown (%" PRIu64 " in all, first at 0x%" PRIx64 ")\n",
                path, mc_code_get(is->code)->name, more, more == 1 ? "" : "s", is->count,
                is->first_offset);
    }
    if (!quiet || !mc_result_valid(r)) print_status(out, r, path);
    free(quoted);
}

void mc_report_summary_text(FILE *out, const mc_run_summary *s)
{
    fputs("modelcheck: ", out);
    /* skipped files are not among the files checked: the semicolon keeps the
     * three counts that add up to the first apart from them */
    counted(out, s->files, "file", " checked: ");
    fprintf(out, "%" PRIu64 " valid, %" PRIu64 " invalid, %" PRIu64 " unreadable; %" PRIu64
            " skipped (unrecognised); ", s->valid, s->invalid, s->unreadable, s->skipped);
    print_counts(out, s->counts);
}
