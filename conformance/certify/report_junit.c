/*
 * JUnit XML for CI dashboards: one <testsuite> per format, one <testcase> per
 * run (classname certify.FORMAT, name = the corpus file), <failure> for a
 * verdict other than conforming (type = the verdict), <error> for a case the
 * runner could not run, <skipped> for skipped ones.
 */
#include <string.h>

#include "mc_certify_report.h"

static void put_case_body(FILE *out, const mcc_case *c, const mcc_result *res)
{
    fputs("rule: ", out);
    mcc_put_markup(out, c->rule[0] ? c->rule : "(valid file)");
    fputs("\nclause: ", out);
    mcc_put_markup(out, c->clause);
    fputs("\ndescription: ", out);
    mcc_put_markup(out, c->description);
    fputs("\nexpected error codes:", out);
    for (size_t i = 0; i < c->error_count; i++) {
        fputc(' ', out);
        mcc_put_markup(out, c->errors[i]);
    }
    if (!c->error_count) fputs(" none (valid file)", out);
    fprintf(out, "\noutcome: %s", mcc_result_outcome_name(res));
    if (res->crash_site) {
        fputs("\ncrash site: ", out);
        mcc_put_markup(out, res->crash_site);
    }
    if (res->stderr_tail && res->stderr_tail[0]) {
        fputs("\nstderr (last bytes):\n", out);
        mcc_put_markup(out, res->stderr_tail);
    }
}

static void put_case(FILE *out, const mcc_report *r, size_t i)
{
    const mcc_case *c = &r->corpus->cases[i];
    const mcc_result *res = &r->results[i];
    char what[1024];
    fprintf(out, "    <testcase classname=\"certify.%s\" name=\"", c->format);
    mcc_put_markup(out, c->file);
    fputc('"', out);
    if (r->timings) fprintf(out, " time=\"%.3f\"", res->duration_ms / 1000);
    if (res->verdict == MCC_CONFORMING) {
        fputs("/>\n", out);
        return;
    }
    mcc_describe(c, res, r->timeout_s, what, sizeof what);
    if (res->verdict == MCC_SKIPPED) {
        fputs(">\n      <skipped message=\"", out);
        mcc_put_markup(out, what);
        fputs("\"/>\n    </testcase>\n", out);
        return;
    }
    const char *tag = res->verdict == MCC_ERROR ? "error" : "failure";
    fprintf(out, ">\n      <%s type=\"%s\" message=\"", tag, mcc_verdict_name(res->verdict));
    mcc_put_markup(out, what);
    fputs("\">", out);
    put_case_body(out, c, res);
    fprintf(out, "</%s>\n    </testcase>\n", tag);
}

static void put_counts_attrs(FILE *out, const mcc_counts *c)
{
    unsigned errors = c->verdict[MCC_ERROR], skipped = c->verdict[MCC_SKIPPED];
    unsigned failures = c->total - c->verdict[MCC_CONFORMING] - errors - skipped;
    fprintf(out, " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\"", c->total, failures,
            errors, skipped);
}

void mcc_report_junit(FILE *out, const mcc_report *r)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"modelcheck certify\"", out);
    put_counts_attrs(out, &r->summary->total);
    fputs(">\n", out);
    for (int f = 0; f < MCC_FORMAT_COUNT; f++) {
        const mcc_format_summary *fs = &r->summary->formats[f];
        if (!fs->counts.total) continue;
        fprintf(out, "  <testsuite name=\"certify.%s\"", fs->format);
        put_counts_attrs(out, &fs->counts);
        if (r->timestamp) fprintf(out, " timestamp=\"%.19s\"", r->timestamp);
        fputs(">\n    <properties>\n      <property name=\"loader\" value=\"", out);
        mcc_put_markup(out, mcc_loader_text(r->loader));
        fprintf(out, "\"/>\n      <property name=\"mode\" value=\"%s\"/>\n"
                     "      <property name=\"score\" value=\"%.1f\"/>\n    </properties>\n",
                mcc_mode_name(r->loader->mode), mcc_score(&fs->counts));
        for (size_t i = 0; i < r->corpus->count; i++)
            if (strcmp(r->corpus->cases[i].format, fs->format) == 0) put_case(out, r, i);
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
}
