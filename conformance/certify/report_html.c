/*
 * The certificate as one self-contained HTML page: inline CSS, no script, no
 * external resource, so it can be mailed or archived as a CI artifact.
 */
#include <string.h>

#include "mc_certify_report.h"

const char mcc_report_css[] =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:75em}"
    "h1 .ok{color:#176f2c}h1 .bad{color:#b3261e}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right;overflow-wrap:anywhere}"
    "th:first-child,td:first-child{text-align:left}"
    /* a verdict's column is as narrow as its counts: its name reads upwards,
     * so that a table of every verdict fits a 1280-pixel screen */
    "th.v{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;text-align:left;"
    "vertical-align:bottom;padding:.6em .25em;font-weight:normal}"
    "tr.bad td{background:#fdecea}tr.ok td:last-child{color:#176f2c}"
    "code,pre{font-family:ui-monospace,monospace;font-size:.9em}"
    "pre{background:#f5f5f5;padding:.6em;overflow-x:auto;white-space:pre-wrap}"
    ".case{border-left:4px solid #b3261e;padding-left:1em;margin:1em 0}"
    ".verdict{font-weight:bold;text-transform:uppercase;font-size:.85em}"
    "details{margin:.3em 0}summary{cursor:pointer}";

static void put_text(FILE *out, const char *tag, const char *s)
{
    fprintf(out, "<%s>", tag);
    mcc_put_markup(out, s);
    fprintf(out, "</%s>", tag);
}

static void put_row(FILE *out, const char *name, const mcc_counts *c)
{
    fprintf(out, "<tr class=\"%s\"><td>", mcc_counts_conforming(c) ? "ok" : "bad");
    mcc_put_markup(out, name);
    fprintf(out, "</td><td>%u</td>", c->total);
    for (int v = 0; v < MCC_VERDICT_COUNT; v++) fprintf(out, "<td>%u</td>", c->verdict[v]);
    fprintf(out, "<td>%.1f%%</td></tr>\n", mcc_score(c));
}

static void put_table_head(FILE *out, const char *first)
{
    fprintf(out, "<table>\n<tr><th>%s</th><th>runs</th>", first);
    for (int v = 0; v < MCC_VERDICT_COUNT; v++) fprintf(out, "<th class=\"v\">%s</th>", mcc_verdict_label((mcc_verdict)v));
    fputs("<th>score</th></tr>\n", out);
}

static void put_formats(FILE *out, const mcc_summary *s)
{
    fputs("<h2>Formats</h2>\n", out);
    put_table_head(out, "format");
    for (int f = 0; f < MCC_FORMAT_COUNT; f++)
        if (s->formats[f].counts.total) put_row(out, s->formats[f].format, &s->formats[f].counts);
    put_row(out, "total", &s->total);
    fputs("</table>\n<h2>Rule groups</h2>\n", out);
    for (int f = 0; f < MCC_FORMAT_COUNT; f++) {
        const mcc_format_summary *fs = &s->formats[f];
        if (!fs->counts.total) continue;
        /* open where something failed: the page is usable without script */
        fprintf(out, "<details%s><summary>%s: %.1f%%</summary>\n",
                mcc_counts_conforming(&fs->counts) ? "" : " open", fs->format, mcc_score(&fs->counts));
        put_table_head(out, "rule group");
        for (size_t g = 0; g < fs->group_count; g++) put_row(out, fs->groups[g].name, &fs->groups[g].counts);
        fputs("</table>\n</details>\n", out);
    }
}

static void put_failure(FILE *out, const mcc_report *r, size_t i)
{
    const mcc_case *c = &r->corpus->cases[i];
    const mcc_result *res = &r->results[i];
    char what[1024];
    fputs("<div class=\"case\">\n<p><span class=\"verdict\">", out);
    mcc_put_markup(out, mcc_verdict_label(res->verdict));
    fputs("</span> ", out);
    put_text(out, "code", c->file);
    fprintf(out, " as %s", c->format);
    if (c->layout[0]) {
        fputs(" (", out);
        mcc_put_markup(out, c->layout);
        fputc(')', out);
    }
    fputs("</p>\n<p>", out);
    mcc_put_markup(out, mcc_describe(c, res, r->timeout_s, what, sizeof what));
    fputs("</p>\n<p>", out);
    mcc_put_markup(out, c->description);
    if (c->clause[0]) {
        fputs(" &mdash; ", out);
        mcc_put_markup(out, c->clause);
    }
    fputs("</p>\n<p>expected error codes: ", out);
    for (size_t k = 0; k < c->error_count; k++) {
        if (k) fputs(", ", out);
        put_text(out, "code", c->errors[k]);
    }
    if (!c->error_count) fputs("none (a valid file)", out);
    fputs("</p>\n", out);
    if (res->crash_site) {
        fputs("<p>crash site: ", out);
        put_text(out, "code", res->crash_site);
        fputs("</p>\n", out);
    }
    if (res->stderr_tail && res->stderr_tail[0]) {
        if (res->stderr_bytes > MCC_STDERR_TAIL)
            fprintf(out, "<p>stderr, the last %d of %llu bytes:</p>\n<pre>", MCC_STDERR_TAIL,
                    (unsigned long long)res->stderr_bytes);
        else
            fprintf(out, "<p>stderr (%llu bytes):</p>\n<pre>", (unsigned long long)res->stderr_bytes);
        mcc_put_markup(out, res->stderr_tail);
        fputs("</pre>\n", out);
    }
    fputs("</div>\n", out);
}

/* The bug list: one row per distinct crash site, with the runs reaching it. */
static void put_crash_sites(FILE *out, const mcc_report *r)
{
    mcc_crash_site_group *g;
    size_t n;
    if (mcc_crash_sites(r->corpus, r->results, &g, &n) != 0 || !n) return;
    fprintf(out, "<h2>Crash sites (%zu distinct)</h2>\n<table>\n<tr><th>site</th><th>runs</th>"
                 "<th>cases</th></tr>\n", n);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr><td>", out);
        put_text(out, "code", g[i].site);
        fprintf(out, "</td><td>%zu</td><td>", g[i].count);
        for (size_t k = 0; k < g[i].count; k++) {
            const mcc_case *c = &r->corpus->cases[g[i].cases[k]];
            if (k) fputs(", ", out);
            put_text(out, "code", c->file);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    mcc_crash_sites_free(g, n);
}

static void put_cases(FILE *out, const mcc_report *r)
{
    unsigned failing = 0, skipped = 0;
    for (size_t i = 0; i < r->corpus->count; i++) {
        mcc_verdict v = r->results[i].verdict;
        failing += v != MCC_CONFORMING && v != MCC_SKIPPED;
        skipped += v == MCC_SKIPPED;
    }
    fprintf(out, "<h2>Failing cases (%u)</h2>\n", failing);
    if (!failing) fputs("<p>None.</p>\n", out);
    for (size_t i = 0; i < r->corpus->count; i++) {
        mcc_verdict v = r->results[i].verdict;
        if (v != MCC_CONFORMING && v != MCC_SKIPPED) put_failure(out, r, i);
    }
    if (!skipped) return;
    fprintf(out, "<h2>Skipped cases (%u)</h2>\n<ul>\n", skipped);
    for (size_t i = 0; i < r->corpus->count; i++) {
        const mcc_case *c = &r->corpus->cases[i];
        if (r->results[i].verdict != MCC_SKIPPED) continue;
        fputs("<li>", out);
        put_text(out, "code", c->file);
        fprintf(out, " as %s: ", c->format);
        mcc_put_markup(out, c->skip_reason);
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

void mcc_report_html(FILE *out, const mcc_report *r)
{
    int ok = mcc_counts_conforming(&r->summary->total);
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<title>modelcheck certify: %s</title>\n<style>%s</style>\n</head>\n<body>\n",
            ok ? "conforming" : "not conforming", mcc_report_css);
    fprintf(out, "<h1>Loader certificate: <span class=\"%s\">%s</span></h1>\n", ok ? "ok" : "bad",
            ok ? "conforming" : "not conforming");
    fprintf(out, "<p>%s loader <code>", mcc_mode_name(r->loader->mode));
    mcc_put_markup(out, mcc_loader_text(r->loader));
    fputs("</code><br>corpus <code>", out);
    mcc_put_markup(out, r->corpus->dir);
    fprintf(out, "</code> (%zu cases, %zu runs", r->corpus->manifest_cases, r->corpus->count);
    if (r->only_format) fprintf(out, ", format %s only", r->only_format);
    fprintf(out, "), timeout %g s per case<br>modelcheck %s", r->timeout_s, r->version);
    if (r->timestamp) fprintf(out, ", %s", r->timestamp);
    fprintf(out, "<br>score %.1f%%: %u of %u runs conforming</p>\n", mcc_score(&r->summary->total),
            r->summary->total.verdict[MCC_CONFORMING],
            r->summary->total.total - r->summary->total.verdict[MCC_SKIPPED]);
    put_formats(out, r->summary);
    put_crash_sites(out, r);
    put_cases(out, r);
    fputs("</body>\n</html>\n", out);
}
