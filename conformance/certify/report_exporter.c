/*
 * Exporter certificates (docs/CERTIFY.md, "Certify an exporter"): text,
 * JSON (reports/schema/exporter-certificate.schema.json), JUnit XML (one
 * testsuite for the format, one testcase per scene) and a self-contained
 * HTML page. Cases in scene order; reproducible bytes unless timings or a
 * timestamp are asked for.
 */
#include <math.h>
#include <string.h>

#include "mc_certify_report.h"
#include "mc_report.h"
#include "mc_exporter.h"
#include "mc_scene_json.h"

static void put_counts_row(FILE *out, const char *name, const mcx_counts *c)
{
    fprintf(out, "%-12s %4u", name, c->total);
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) fprintf(out, " %*u", v == MCX_INVALID ? 14 : 10, c->verdict[v]);
    fprintf(out, " %6.1f%%\n", mcx_score(c));
}

static const char *form_text(const mcx_run *run)
{
    return mcs_form_name(run->opt.form);
}

void mcx_report_text(FILE *out, const mcx_report *r)
{
    const mcx_run *run = r->run;
    fputs("modelcheck certify: exporter ", out);
    mcc_put_shown(out, run->opt.command, "'");
    fprintf(out, " to %s, scenes as %s (%zu case%s)\n", run->opt.format, form_text(run), run->count, run->count == 1 ? "" : "s");
    if (r->timestamp) fprintf(out, "at %s\n", r->timestamp);
    unsigned warned = 0;
    for (size_t i = 0; i < run->count; i++) {
        const mcx_case *c = &run->cases[i];
        /* a conforming case is listed only for its validator warnings */
        if (c->verdict == MCX_CONFORMING && !c->warning_count) continue;
        warned += c->verdict == MCX_CONFORMING;
        fprintf(out, "%-14s %s: %s\n", mcx_verdict_name(c->verdict), c->scene, c->detail ? c->detail : "");
        if (c->verdict == MCX_INVALID || c->verdict == MCX_UNFAITHFUL)
            for (unsigned k = 0; k < c->findings.count && k < MCX_MAX_FINDINGS; k++)
                fprintf(out, "    %s\n", c->findings.items[k]);
    }
    fprintf(out, "\n%-12s %4s", "group", "runs");
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) fprintf(out, " %*s", v == MCX_INVALID ? 14 : 10, mcx_verdict_name((mcx_verdict)v));
    fprintf(out, " %7s\n", "score");
    for (size_t g = 0; g < run->group_count; g++) put_counts_row(out, run->groups[g].name, &run->groups[g].counts);
    put_counts_row(out, "total", &run->total);
    fprintf(out, "\ncertificate (%s exporter): %s, %.1f%% (%u conforming, %u correctly refused, of %u)\n",
            run->opt.format, mcx_counts_pass(&run->total) ? "CONFORMING" : "NOT CONFORMING", mcx_score(&run->total),
            run->total.verdict[MCX_CONFORMING], run->total.verdict[MCX_REFUSED],
            run->total.total - run->total.verdict[MCX_SKIPPED]);
    if (warned)
        fprintf(out, "%u conforming case%s with validator warnings (listed above; --werror fails them)\n", warned,
                warned == 1 ? "" : "s");
}

/* ---- JSON ------------------------------------------------------------------------ */

static void add_counts(cJSON *o, const mcx_counts *c)
{
    cJSON_AddNumberToObject(o, "runs", c->total);
    cJSON *v = cJSON_AddObjectToObject(o, "verdicts");
    for (int k = 0; k < MCX_VERDICT_COUNT; k++) cJSON_AddNumberToObject(v, mcx_verdict_name((mcx_verdict)k), c->verdict[k]);
    cJSON_AddNumberToObject(o, "score", mcx_score(c));
    cJSON_AddBoolToObject(o, "conforming", mcx_counts_pass(c));
}

static cJSON *string_list(char *const *items, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(items[i]));
    return a;
}

static cJSON *case_json(const mcx_report *r, const mcx_case *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "scene", c->scene);
    cJSON_AddStringToObject(o, "group", c->group);
    cJSON_AddStringToObject(o, "feature", c->feature);
    cJSON_AddStringToObject(o, "fit", mcs_fit_name(c->fit));
    cJSON_AddStringToObject(o, "fit_note", c->note);
    cJSON_AddStringToObject(o, "verdict", mcx_verdict_name(c->verdict));
    cJSON_AddStringToObject(o, "detail", c->detail ? c->detail : "");
    if (c->verdict != MCX_SKIPPED && c->verdict != MCX_ERROR && c->exit_code >= 0)
        cJSON_AddNumberToObject(o, "exit_code", c->exit_code);
    else
        cJSON_AddNullToObject(o, "exit_code");
    if (c->signal) cJSON_AddNumberToObject(o, "signal", c->signal);
    else cJSON_AddNullToObject(o, "signal");
    cJSON_AddNumberToObject(o, "output_bytes", (double)c->output_bytes);
    cJSON_AddItemToObject(o, "errors", string_list(c->errors, c->error_count));
    cJSON_AddItemToObject(o, "warnings", string_list(c->warnings, c->warning_count));
    cJSON_AddItemToObject(o, "findings", string_list(c->findings.items,
                                                     c->findings.count < MCX_MAX_FINDINGS ? c->findings.count : MCX_MAX_FINDINGS));
    cJSON_AddNumberToObject(o, "finding_count", c->findings.count);
    if (!mcx_verdict_passes(c->verdict) && c->verdict != MCX_SKIPPED && c->stderr_tail)
        cJSON_AddStringToObject(o, "stderr_tail", c->stderr_tail);
    if (r->timings) cJSON_AddNumberToObject(o, "duration_ms", round(c->duration_ms * 10) / 10);
    return o;
}

cJSON *mcx_report_json(const mcx_report *r)
{
    const mcx_run *run = r->run;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "certificate_version", "1");
    cJSON_AddStringToObject(doc, "tool", "modelcheck certify --exporter");
    cJSON_AddStringToObject(doc, "tool_version", r->version);
    if (r->timestamp) cJSON_AddStringToObject(doc, "generated_at", r->timestamp);
    cJSON *ex = cJSON_AddObjectToObject(doc, "exporter");
    mcc_json_add_clean(ex, "command", run->opt.command);
    if (run->opt.output_name) mcc_json_add_clean(ex, "output_name", run->opt.output_name);
    else cJSON_AddNullToObject(ex, "output_name");
    cJSON_AddStringToObject(ex, "format", run->opt.format);
    cJSON *settings = cJSON_AddObjectToObject(doc, "settings");
    cJSON_AddStringToObject(settings, "scene_format", form_text(run));
    cJSON_AddNumberToObject(settings, "timeout_s", run->opt.timeout_s);
    cJSON_AddNumberToObject(settings, "max_output_bytes", (double)run->opt.max_output_bytes);
    cJSON_AddBoolToObject(settings, "werror", run->opt.werror);
    if (run->opt.isolation) cJSON_AddStringToObject(settings, "sandbox", run->opt.isolation);
    if (run->opt.only_scene) cJSON_AddStringToObject(settings, "scene", run->opt.only_scene);
    else cJSON_AddNullToObject(settings, "scene");
    add_counts(cJSON_AddObjectToObject(doc, "total"), &run->total);
    cJSON *groups = cJSON_AddArrayToObject(doc, "groups");
    for (size_t g = 0; g < run->group_count; g++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "group", run->groups[g].name);
        add_counts(o, &run->groups[g].counts);
        cJSON_AddItemToArray(groups, o);
    }
    cJSON *cases = cJSON_AddArrayToObject(doc, "cases");
    for (size_t i = 0; i < run->count; i++) cJSON_AddItemToArray(cases, case_json(r, &run->cases[i]));
    return doc;
}

/* ---- JUnit ----------------------------------------------------------------------- */

static void put_findings(FILE *out, const mcx_case *c)
{
    for (unsigned k = 0; k < c->findings.count && k < MCX_MAX_FINDINGS; k++) {
        fputs("\n  ", out);
        mcc_put_markup(out, c->findings.items[k]);
    }
    if (c->findings.count > MCX_MAX_FINDINGS) fprintf(out, "\n  ... (%u in all)", c->findings.count);
}

void mcx_report_junit(FILE *out, const mcx_report *r)
{
    const mcx_run *run = r->run;
    const mcx_counts *t = &run->total;
    unsigned errors = t->verdict[MCX_ERROR], skipped = t->verdict[MCX_SKIPPED];
    unsigned failures = t->total - t->verdict[MCX_CONFORMING] - t->verdict[MCX_REFUSED] - errors - skipped;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"modelcheck certify --exporter\""
                 " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\">\n",
            t->total, failures, errors, skipped);
    fprintf(out, "  <testsuite name=\"export.%s\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\"",
            run->opt.format, t->total, failures, errors, skipped);
    if (r->timestamp) fprintf(out, " timestamp=\"%.19s\"", r->timestamp);
    fputs(">\n    <properties>\n      <property name=\"exporter\" value=\"", out);
    mcc_put_markup(out, run->opt.command);
    fprintf(out, "\"/>\n      <property name=\"scene_format\" value=\"%s\"/>\n"
                 "      <property name=\"score\" value=\"%.1f\"/>\n    </properties>\n",
            form_text(run), mcx_score(t));
    for (size_t i = 0; i < run->count; i++) {
        const mcx_case *c = &run->cases[i];
        fprintf(out, "    <testcase classname=\"export.%s.%s\" name=\"", run->opt.format, c->group);
        mcc_put_markup(out, c->scene);
        fputc('"', out);
        if (r->timings) fprintf(out, " time=\"%.3f\"", c->duration_ms / 1000);
        if (mcx_verdict_passes(c->verdict) && !c->warning_count) {
            fputs("/>\n", out);
            continue;
        }
        if (mcx_verdict_passes(c->verdict)) {
            /* passes, but its validator warnings stay visible */
            char warned[400];
            mcx_warnings_text(c, warned, sizeof warned);
            fputs(">\n      <system-out>conforming with ", out);
            mcc_put_markup(out, warned);
            fputs("</system-out>\n    </testcase>\n", out);
            continue;
        }
        if (c->verdict == MCX_SKIPPED) {
            fputs(">\n      <skipped message=\"", out);
            mcc_put_markup(out, c->detail);
            fputs("\"/>\n    </testcase>\n", out);
            continue;
        }
        const char *tag = c->verdict == MCX_ERROR ? "error" : "failure";
        fprintf(out, ">\n      <%s type=\"%s\" message=\"", tag, mcx_verdict_name(c->verdict));
        mcc_put_markup(out, c->detail);
        fputs("\">scene: ", out);
        mcc_put_markup(out, c->feature);
        put_findings(out, c);
        if (c->stderr_tail && c->stderr_tail[0]) {
            fputs("\nstderr (last bytes):\n", out);
            mcc_put_markup(out, c->stderr_tail);
        }
        fprintf(out, "</%s>\n    </testcase>\n", tag);
    }
    fputs("  </testsuite>\n</testsuites>\n", out);
}

/* ---- HTML ------------------------------------------------------------------------ */

static void put_row(FILE *out, const char *name, const mcx_counts *c)
{
    fprintf(out, "<tr class=\"%s\"><td>", mcx_counts_pass(c) ? "ok" : "bad");
    mcc_put_markup(out, name);
    fprintf(out, "</td><td>%u</td>", c->total);
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) fprintf(out, "<td>%u</td>", c->verdict[v]);
    fprintf(out, "<td>%.1f%%</td></tr>\n", mcx_score(c));
}

static void put_case(FILE *out, const mcx_case *c)
{
    fputs("<div class=\"case\">\n<p><span class=\"verdict\">", out);
    mcc_put_markup(out, mcx_verdict_label(c->verdict));
    fputs("</span> <code>", out);
    mcc_put_markup(out, c->scene);
    fputs("</code>: ", out);
    mcc_put_markup(out, c->feature);
    fputs("</p>\n<p>", out);
    mcc_put_markup(out, c->detail);
    fputs("</p>\n", out);
    if (c->findings.count) {
        fputs("<ul>\n", out);
        for (unsigned k = 0; k < c->findings.count && k < MCX_MAX_FINDINGS; k++) {
            fputs("<li>", out);
            mcc_put_markup(out, c->findings.items[k]);
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    if (!mcx_verdict_passes(c->verdict) && c->stderr_tail && c->stderr_tail[0]) {
        fputs("<p>stderr (last bytes):</p>\n<pre>", out);
        mcc_put_markup(out, c->stderr_tail);
        fputs("</pre>\n", out);
    }
    fputs("</div>\n", out);
}

void mcx_report_html(FILE *out, const mcx_report *r)
{
    const mcx_run *run = r->run;
    int ok = mcx_counts_pass(&run->total);
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<title>modelcheck certify --exporter: %s</title>\n<style>%s</style>\n</head>\n<body>\n",
            ok ? "conforming" : "not conforming", mcc_report_css);
    fprintf(out, "<h1>Exporter certificate (%s): <span class=\"%s\">%s</span></h1>\n<p>exporter <code>",
            run->opt.format, ok ? "ok" : "bad", ok ? "conforming" : "not conforming");
    mcc_put_markup(out, run->opt.command);
    fprintf(out, "</code><br>%zu scenes as %s, timeout %g s per case<br>modelcheck %s", run->count, form_text(run),
            run->opt.timeout_s, r->version);
    if (r->timestamp) fprintf(out, ", %s", r->timestamp);
    fprintf(out, "<br>score %.1f%%: %u conforming and %u correctly refused of %u</p>\n", mcx_score(&run->total),
            run->total.verdict[MCX_CONFORMING], run->total.verdict[MCX_REFUSED],
            run->total.total - run->total.verdict[MCX_SKIPPED]);
    fputs("<h2>Feature groups</h2>\n<table>\n<tr><th>group</th><th>runs</th>", out);
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) fprintf(out, "<th>%s</th>", mcx_verdict_label((mcx_verdict)v));
    fputs("<th>score</th></tr>\n", out);
    for (size_t g = 0; g < run->group_count; g++) put_row(out, run->groups[g].name, &run->groups[g].counts);
    put_row(out, "total", &run->total);
    fputs("</table>\n<h2>Cases that did not pass</h2>\n", out);
    unsigned shown = 0;
    for (size_t i = 0; i < run->count; i++)
        if (!mcx_verdict_passes(run->cases[i].verdict)) put_case(out, &run->cases[i]), shown++;
    if (!shown) fputs("<p>None.</p>\n", out);
    shown = 0;
    for (size_t i = 0; i < run->count; i++) {
        if (run->cases[i].verdict != MCX_CONFORMING || !run->cases[i].warning_count) continue;
        if (!shown++) fputs("<h2>Conforming cases with validator warnings</h2>\n", out);
        put_case(out, &run->cases[i]);
    }
    fputs("<h2>Every case</h2>\n<table>\n<tr><th>scene</th><th>verdict</th><th>detail</th></tr>\n", out);
    for (size_t i = 0; i < run->count; i++) {
        const mcx_case *c = &run->cases[i];
        fprintf(out, "<tr class=\"%s\"><td>", mcx_verdict_passes(c->verdict) ? "ok" : "bad");
        mcc_put_markup(out, c->scene);
        fprintf(out, "</td><td>%s</td><td style=\"text-align:left\">", mcx_verdict_label(c->verdict));
        mcc_put_markup(out, c->detail);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n</body>\n</html>\n", out);
}
