/*
 * Reports for CI systems without SARIF upload (issue 26): GitHub Actions
 * workflow commands (one annotation per shown instance) and JUnit XML (one
 * test case per file, for CI test tabs).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mc_report.h"

/* ---- GitHub workflow commands ---- */

/* Workflow command escaping: the message escapes '%', CR and LF; a
 * property value also ':' and ',' (they separate properties). */
static void gh_escape(FILE *out, const char *s, int property)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '%') fputs("%25", out);
        else if (ch == '\r') fputs("%0D", out);
        else if (ch == '\n') fputs("%0A", out);
        else if (property && ch == ':') fputs("%3A", out);
        else if (property && ch == ',') fputs("%2C", out);
        else fputc(ch, out);
    }
}

static const char *gh_level(mc_severity sev)
{
    return sev == MC_SEVERITY_ERROR ? "error" : sev == MC_SEVERITY_WARNING ? "warning" : "notice";
}

/* path relative to root (both as given; path made absolute against the
 * working directory), lexically; path itself when outside root. */
static char *relative_to(const char *root, const char *path)
{
    if (!root || !*root || strcmp(path, "-") == 0) return strdup(path);
    char *cwd = path[0] == '/' ? NULL : getcwd(NULL, 0);
    size_t need = (cwd ? strlen(cwd) : 0) + strlen(path) + 2;
    char *abs = malloc(need);
    if (!abs) {
        free(cwd);
        return NULL;
    }
    snprintf(abs, need, "%s%s%s", cwd ? cwd : "", cwd ? "/" : "", path);
    free(cwd);
    /* drop "." and empty segments, ".." pops one */
    char *w = abs;
    for (char *r = abs; *r;) {
        while (*r == '/') r++;
        size_t n = strcspn(r, "/");
        if (n == 0) break;
        if (n == 2 && r[0] == '.' && r[1] == '.') {
            while (w > abs && *--w != '/') {
            }
        } else if (!(n == 1 && r[0] == '.')) {
            *w++ = '/';
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = '\0';
    size_t rl = strlen(root);
    while (rl > 1 && root[rl - 1] == '/') rl--;
    const char *rel = strncmp(abs, root, rl) == 0 && abs[rl] == '/' ? abs + rl + 1 : NULL;
    char *result = strdup(rel ? rel : path);
    free(abs);
    return result;
}

void mc_report_file_github(FILE *out, const mc_result *r, const char *path, mc_status status,
                           const mc_report_view *view)
{
    const char *ws = getenv("GITHUB_WORKSPACE");
    char *cwd = ws && *ws ? NULL : getcwd(NULL, 0);
    char *rel = relative_to(ws && *ws ? ws : cwd, path);
    free(cwd);
    const char *name = rel ? rel : path;
    for (size_t i = 0; i < r->issue_count; i++) {
        const mc_issue *is = &r->issues[i];
        const char *code = mc_code_get(is->code)->name;
        /* an unreadable file is always shown: it was not checked at all */
        if (status != MC_ERR_IO && view && is->severity > view->min_severity) continue;
        for (size_t k = 0; k < is->instance_count; k++) {
            const mc_instance *in = &is->instances[k];
            fprintf(out, "::%s file=", gh_level(mc_report_level(view, is->severity)));
            gh_escape(out, name, 1);
            fputs(",title=", out);
            gh_escape(out, code, 1);
            fputs("::", out);
            gh_escape(out, in->message, 0);
            fprintf(out, " (%s at 0x%" PRIx64, code, in->offset);
            if (in->path[0]) {
                fputs(", ", out);
                gh_escape(out, in->path, 0);
            }
            fputs(")\n", out);
        }
        if (is->count > is->instance_count) {
            fprintf(out, "::%s file=", gh_level(mc_report_level(view, is->severity)));
            gh_escape(out, name, 1);
            fputs(",title=", out);
            gh_escape(out, code, 1);
            fprintf(out, "::%" PRIu64 " more occurrence%s not shown (%" PRIu64 " in all, first at 0x%" PRIx64 ")\n",
                    is->count - is->instance_count, is->count - is->instance_count == 1 ? "" : "s", is->count,
                    is->first_offset);
        }
    }
    free(rel);
}

/* ---- JUnit XML ---- */

struct mc_junit {
    FILE *out;
    FILE *cases; /* the test cases, until the totals are known */
    char *buf;
    size_t len;
    uint64_t tests, failures, errors;
    mc_report_view view;
};

/* XML 1.0 text: the five escapes; control characters XML cannot carry
 * become U+FFFD. Names that are not UTF-8 were escaped before. */
static void xml_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '&') fputs("&amp;", out);
        else if (ch == '<') fputs("&lt;", out);
        else if (ch == '>') fputs("&gt;", out);
        else if (ch == '"') fputs("&quot;", out);
        else if (ch == '\'') fputs("&apos;", out);
        else if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') fputs("\xEF\xBF\xBD", out);
        else fputc(ch, out);
    }
}

mc_junit *mc_junit_begin(FILE *out, const mc_report_view *view)
{
    mc_junit *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->out = out;
    if (view) j->view = *view;
    if (!(j->cases = open_memstream(&j->buf, &j->len))) {
        free(j);
        return NULL;
    }
    return j;
}

/* The shown instances as the text report's lines, escaped. */
static void junit_lines(FILE *f, const mc_result *r, const char *name, const mc_report_view *view)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return;
    mc_report_view plain = *view;
    plain.quiet = 0;
    plain.color = 0;
    plain.config_count = 0;
    mc_report_file_text_view(m, r, name, &plain);
    fclose(m);
    xml_escape(f, text);
    free(text);
}

int mc_junit_file(mc_junit *j, const mc_result *r, const char *path, mc_status status)
{
    int escaped;
    char *name = mc_utf8_escape(path, &escaped);
    if (!name) return -1;
    FILE *f = j->cases;
    j->tests++;
    fputs("\t\t<testcase classname=\"modelcheck.", f);
    xml_escape(f, mc_format_name(r->format));
    fputs("\" name=\"", f);
    xml_escape(f, name);
    fputs("\">\n", f);
    if (status == MC_ERR_IO) {
        j->errors++;
        const char *msg = r->issue_count && r->issues[0].instance_count ? r->issues[0].instances[0].message
                                                                         : "cannot read";
        fputs("\t\t\t<error type=\"", f);
        xml_escape(f, r->issue_count ? mc_code_get(r->issues[0].code)->name : "IO");
        fputs("\" message=\"", f);
        xml_escape(f, msg);
        fputs("\"/>\n", f);
    } else {
        int pass = mc_report_passes(r, &j->view);
        uint64_t e = r->counts[MC_SEVERITY_ERROR], w = r->counts[MC_SEVERITY_WARNING];
        char counts[160];
        snprintf(counts, sizeof counts, "%" PRIu64 " error%s, %" PRIu64 " warning%s%s", e, e == 1 ? "" : "s", w,
                 w == 1 ? "" : "s", mc_result_valid(r) ? " (warnings as errors)" : "");
        if (!pass) {
            j->failures++;
            const char *first = "";
            for (size_t i = 0; i < r->issue_count && !*first; i++)
                if (r->issues[i].severity <= MC_SEVERITY_WARNING) first = mc_code_get(r->issues[i].code)->name;
            fputs("\t\t\t<failure type=\"", f);
            xml_escape(f, first);
            fputs("\" message=\"invalid: ", f);
            xml_escape(f, counts);
            fputs("\">", f);
            junit_lines(f, r, name, &j->view);
            fputs("</failure>\n", f);
        } else if (r->issue_count) {
            fputs("\t\t\t<system-out>", f);
            junit_lines(f, r, name, &j->view);
            fputs("</system-out>\n", f);
        }
    }
    fputs("\t\t</testcase>\n", f);
    free(name);
    return 0;
}

int mc_junit_end(mc_junit *j, const mc_run_summary *s)
{
    (void)s;
    int rc = fclose(j->cases) == 0 ? 0 : -1;
    fprintf(j->out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"modelcheck\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"%" PRIu64 "\">\n"
            "\t<testsuite name=\"modelcheck\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"%" PRIu64
            "\" skipped=\"0\">\n",
            j->tests, j->failures, j->errors, j->tests, j->failures, j->errors);
    if (j->buf) fwrite(j->buf, 1, j->len, j->out);
    fputs("\t</testsuite>\n</testsuites>\n", j->out);
    free(j->buf);
    free(j);
    return rc;
}
