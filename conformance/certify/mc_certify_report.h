/*
 * Reports of `modelcheck certify` (docs/CERTIFY.md): text, JSON
 * (reports/schema/certificate.schema.json), JUnit XML and a self-contained
 * HTML page. Every report lists cases in manifest order ("any" cases once per
 * format, in format order) and is byte-for-byte reproducible: no time of day
 * unless `timestamp` is set, no durations unless `timings` is.
 */
#ifndef MC_CERTIFY_REPORT_H
#define MC_CERTIFY_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "mc_certify.h"

typedef struct mcc_report {
    const mcc_loader *loader;
    const mcc_corpus *corpus;
    const mcc_result *results;   /* corpus->count of them */
    const mcc_summary *summary;
    const char *only_format;     /* --format, or NULL */
    double timeout_s;
    int timings;                 /* add per-case durations */
    const char *timestamp;       /* ISO 8601 UTC, or NULL */
    const char *version;         /* modelcheck's */
    const char *isolation;       /* "bubblewrap", "none (why)"; NULL: not said */
} mcc_report;

/* One line per case that is not conforming, then a per-format table. */
void mcc_report_text(FILE *out, const mcc_report *r);
cJSON *mcc_report_json(const mcc_report *r);
void mcc_report_junit(FILE *out, const mcc_report *r);
void mcc_report_html(FILE *out, const mcc_report *r);

/* Shared by the renderers (certify_common.c). */
const char *mcc_loader_text(const mcc_loader *l); /* the command, library path or "reference" */
void mcc_put_markup(FILE *out, const char *s);    /* cleaned (mcc_clean_text), escaped for XML and HTML */
void mcc_put_clean(FILE *out, const char *s);     /* cleaned (mcc_clean_text), for the text report */
/* s cleaned (mcc_clean_text) as a JSON string member; 0, or -1 on OOM. */
int mcc_json_add_clean(cJSON *o, const char *key, const char *s);
/* s for the text report: between the plain quotes given ("'" or "") when it
 * needs no quoting, otherwise in its double-quoted form alone (mcc_shown) */
void mcc_put_shown(FILE *out, const char *s, const char *plain_quote);
extern const char mcc_report_css[];               /* the HTML certificates' style sheet */

#endif
