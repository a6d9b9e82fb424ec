/* The text report of `modelcheck certify`: what a person reads first. */
#include <string.h>

#include "mc_certify_report.h"

static void put_counts_row(FILE *out, const char *name, const mcc_counts *c)
{
    fprintf(out, "%-8s %5u %10u %11u %10u %5u %4u %4u %4u %5u %7u %6.1f%%\n", name, c->total,
            c->verdict[MCC_CONFORMING], c->verdict[MCC_TOO_LENIENT], c->verdict[MCC_TOO_STRICT],
            c->verdict[MCC_CRASH], c->verdict[MCC_LEAK], c->verdict[MCC_HANG], c->verdict[MCC_OOM],
            c->verdict[MCC_ERROR], c->verdict[MCC_SKIPPED], mcc_score(c));
}

static void put_cases(FILE *out, const mcc_report *r)
{
    char what[1024];
    for (size_t i = 0; i < r->corpus->count; i++) {
        const mcc_case *c = &r->corpus->cases[i];
        const mcc_result *res = &r->results[i];
        if (res->verdict == MCC_CONFORMING) continue;
        fprintf(out, "%-11s ", mcc_verdict_name(res->verdict));
        mcc_put_shown(out, c->file, "");
        fprintf(out, " [%s]: ", c->format);
        mcc_put_clean(out, mcc_describe(c, res, r->timeout_s, what, sizeof what));
        fputc('\n', out);
    }
}

/* One line per distinct crash site with the runs that reach it: a bug list. */
static void put_crash_sites(FILE *out, const mcc_report *r)
{
    mcc_crash_site_group *g;
    size_t n;
    if (mcc_crash_sites(r->corpus, r->results, &g, &n) != 0 || !n) return;
    fprintf(out, "\ncrash sites (%zu distinct):\n", n);
    for (size_t i = 0; i < n; i++) {
        fputs("  ", out);
        mcc_put_clean(out, g[i].site);
        fprintf(out, ": %zu run%s:", g[i].count, g[i].count == 1 ? "" : "s");
        for (size_t k = 0; k < g[i].count; k++) {
            const mcc_case *c = &r->corpus->cases[g[i].cases[k]];
            fprintf(out, "%s ", k ? "," : "");
            mcc_put_shown(out, c->file, "");
            if (strncmp(c->file, "any/", 4) == 0) fprintf(out, " [%s]", c->format); /* run per format */
        }
        fputc('\n', out);
    }
    mcc_crash_sites_free(g, n);
}

/* Rule groups where the loader is not fully conforming: where to look first. */
static void put_weak_groups(FILE *out, const mcc_summary *s)
{
    int header = 0;
    for (int f = 0; f < MCC_FORMAT_COUNT; f++) {
        const mcc_format_summary *fs = &s->formats[f];
        for (size_t g = 0; g < fs->group_count; g++) {
            const mcc_counts *c = &fs->groups[g].counts;
            if (mcc_counts_conforming(c)) continue;
            if (!header++) fputs("\nrule groups not fully conforming:\n", out);
            fprintf(out, "  %-8s ", fs->format);
            mcc_put_clean(out, fs->groups[g].name);
            fprintf(out, ": %u of %u conforming (%.1f%%)\n", c->verdict[MCC_CONFORMING],
                    c->total - c->verdict[MCC_SKIPPED], mcc_score(c));
        }
    }
}

void mcc_report_text(FILE *out, const mcc_report *r)
{
    const mcc_summary *s = r->summary;
    /* the loader command and the corpus directory are the user's, as typed:
     * quoted when a terminal would act on them (README) */
    fprintf(out, "modelcheck certify: %s loader ", mcc_mode_name(r->loader->mode));
    mcc_put_shown(out, mcc_loader_text(r->loader), "'");
    fputs(", corpus ", out);
    mcc_put_shown(out, r->corpus->dir, "");
    fprintf(out, " (%zu cases, %zu runs)\n", r->corpus->manifest_cases, r->corpus->count);
    if (r->timestamp) fprintf(out, "at %s\n", r->timestamp);
    put_cases(out, r);
    put_crash_sites(out, r);
    fprintf(out, "\n%-8s %5s %10s %11s %10s %5s %4s %4s %4s %5s %7s %7s\n", "format", "runs", "conforming",
            "too_lenient", "too_strict", "crash", "leak", "hang", "oom", "error", "skipped", "score");
    for (int f = 0; f < MCC_FORMAT_COUNT; f++)
        if (s->formats[f].counts.total) put_counts_row(out, s->formats[f].format, &s->formats[f].counts);
    put_counts_row(out, "total", &s->total);
    put_weak_groups(out, s);
    unsigned full = 0, present = 0;
    for (int f = 0; f < MCC_FORMAT_COUNT; f++) {
        present += s->formats[f].counts.total > 0;
        full += s->formats[f].counts.total > 0 && mcc_counts_conforming(&s->formats[f].counts);
    }
    fprintf(out, "\ncertificate: %s (%u of %u formats fully conforming)\n",
            mcc_counts_conforming(&s->total) ? "CONFORMING" : "NOT CONFORMING", full, present);
}
