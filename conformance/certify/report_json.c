/* The JSON certificate (reports/schema/certificate.schema.json). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mc_certify_report.h"
#include "mc_report.h"

/* Every string below from a manifest or a run (names, rules, codes, what a
 * loader printed) is cleaned: cJSON writes a control character as \u001b,
 * which a reader turns back into the byte, and U+202E as it is. */
static cJSON *strings(char *const *list, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++) {
        char *clean = mcc_clean_text((const unsigned char *)list[i], strlen(list[i]));
        cJSON_AddItemToArray(a, cJSON_CreateString(clean ? clean : "(not shown: out of memory)"));
        free(clean);
    }
    return a;
}

static void add_counts(cJSON *o, const mcc_counts *c)
{
    cJSON_AddNumberToObject(o, "runs", c->total);
    cJSON *v = cJSON_AddObjectToObject(o, "verdicts");
    for (int k = 0; k < MCC_VERDICT_COUNT; k++)
        cJSON_AddNumberToObject(v, mcc_verdict_name((mcc_verdict)k), c->verdict[k]);
    cJSON_AddNumberToObject(o, "score", mcc_score(c));
    cJSON_AddBoolToObject(o, "conforming", mcc_counts_conforming(c));
}

static cJSON *format_json(const mcc_format_summary *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", f->format);
    add_counts(o, &f->counts);
    cJSON *groups = cJSON_AddArrayToObject(o, "groups");
    for (size_t i = 0; i < f->group_count; i++) {
        cJSON *g = cJSON_CreateObject();
        mcc_json_add_clean(g, "group", f->groups[i].name);
        add_counts(g, &f->groups[i].counts);
        cJSON_AddItemToArray(groups, g);
    }
    return o;
}

static void add_int_or_null(cJSON *o, const char *key, int v, int present)
{
    if (present) cJSON_AddNumberToObject(o, key, v);
    else cJSON_AddNullToObject(o, key);
}

static cJSON *case_json(const mcc_report *r, size_t i)
{
    const mcc_case *c = &r->corpus->cases[i];
    const mcc_result *res = &r->results[i];
    char what[1024];
    cJSON *o = cJSON_CreateObject();
    mcc_json_add_clean(o, "file", c->file);
    cJSON_AddStringToObject(o, "format", c->format);
    mcc_json_add_clean(o, "layout", c->layout);
    mcc_json_add_clean(o, "rule", c->rule);
    mcc_json_add_clean(o, "group", c->group);
    cJSON_AddBoolToObject(o, "valid", c->valid);
    cJSON_AddItemToObject(o, "expected_errors", strings(c->errors, c->error_count));
    cJSON_AddStringToObject(o, "outcome", mcc_result_outcome_name(res));
    add_int_or_null(o, "exit_code", res->exit_code, res->exit_code >= 0);
    add_int_or_null(o, "signal", res->signal, res->signal != 0);
    if (res->sanitizer) mcc_json_add_clean(o, "sanitizer", res->sanitizer);
    else cJSON_AddNullToObject(o, "sanitizer");
    cJSON_AddStringToObject(o, "verdict", mcc_verdict_name(res->verdict));
    if (res->crash_site) mcc_json_add_clean(o, "crash_site", res->crash_site);
    else cJSON_AddNullToObject(o, "crash_site");
    cJSON_AddItemToObject(o, "missed_errors", strings(res->missed, res->missed_count));
    mcc_json_add_clean(o, "detail", mcc_describe(c, res, r->timeout_s, what, sizeof what));
    cJSON_AddNumberToObject(o, "stdout_bytes", (double)res->stdout_bytes);
    cJSON_AddNumberToObject(o, "stderr_bytes", (double)res->stderr_bytes);
    /* the tail only where someone has to look: keeps the report small */
    if (res->verdict != MCC_CONFORMING && res->verdict != MCC_SKIPPED && res->stderr_tail)
        mcc_json_add_clean(o, "stderr_tail", res->stderr_tail);
    if (r->timings) cJSON_AddNumberToObject(o, "duration_ms", round(res->duration_ms * 10) / 10);
    return o;
}

static cJSON *crash_sites_json(const mcc_report *r)
{
    cJSON *a = cJSON_CreateArray();
    mcc_crash_site_group *g;
    size_t n;
    if (!a || mcc_crash_sites(r->corpus, r->results, &g, &n) != 0) return a;
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        mcc_json_add_clean(o, "site", g[i].site);
        cJSON_AddNumberToObject(o, "runs", (double)g[i].count);
        cJSON *cases = cJSON_AddArrayToObject(o, "cases");
        for (size_t k = 0; k < g[i].count; k++) {
            const mcc_case *c = &r->corpus->cases[g[i].cases[k]];
            cJSON *ref = cJSON_CreateObject();
            mcc_json_add_clean(ref, "file", c->file);
            cJSON_AddStringToObject(ref, "format", c->format);
            cJSON_AddItemToArray(cases, ref);
        }
        cJSON_AddItemToArray(a, o);
    }
    mcc_crash_sites_free(g, n);
    return a;
}

cJSON *mcc_report_json(const mcc_report *r)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "certificate_version", "1");
    cJSON_AddStringToObject(doc, "tool", "modelcheck certify");
    cJSON_AddStringToObject(doc, "tool_version", r->version);
    if (r->timestamp) cJSON_AddStringToObject(doc, "generated_at", r->timestamp);
    cJSON *loader = cJSON_AddObjectToObject(doc, "loader");
    cJSON_AddStringToObject(loader, "mode", mcc_mode_name(r->loader->mode));
    mcc_json_add_clean(loader, "name", mcc_loader_text(r->loader));
    cJSON *corpus = cJSON_AddObjectToObject(doc, "corpus");
    mc_json_add_text(corpus, "dir", r->corpus->dir);
    mcc_json_add_clean(corpus, "generator", r->corpus->generator);
    cJSON_AddNumberToObject(corpus, "manifest_cases", (double)r->corpus->manifest_cases);
    cJSON *settings = cJSON_AddObjectToObject(doc, "settings");
    if (r->only_format) cJSON_AddStringToObject(settings, "format", r->only_format);
    else cJSON_AddNullToObject(settings, "format");
    cJSON_AddNumberToObject(settings, "timeout_s", r->timeout_s);
    if (r->isolation) cJSON_AddStringToObject(settings, "sandbox", r->isolation);
    cJSON *total = cJSON_AddObjectToObject(doc, "total");
    add_counts(total, &r->summary->total);
    cJSON *formats = cJSON_AddArrayToObject(doc, "formats");
    for (int f = 0; f < MCC_FORMAT_COUNT; f++)
        if (r->summary->formats[f].counts.total)
            cJSON_AddItemToArray(formats, format_json(&r->summary->formats[f]));
    cJSON_AddItemToObject(doc, "crash_sites", crash_sites_json(r));
    cJSON *cases = cJSON_AddArrayToObject(doc, "cases");
    for (size_t i = 0; i < r->corpus->count; i++) cJSON_AddItemToArray(cases, case_json(r, i));
    return doc;
}
