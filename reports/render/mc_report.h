/*
 * Report renderers. The JSON shapes are defined by the files in reports/schema/;
 * every report is deterministic (same input, same bytes).
 */
#ifndef MC_REPORT_H
#define MC_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "modelcheck.h"

/* Totals over a run of many files. */
typedef struct mc_run_summary {
    uint64_t files;      /* validated (readable or not), skipped excluded */
    uint64_t valid;
    uint64_t invalid;
    uint64_t unreadable;
    uint64_t skipped;    /* unrecognised files met while walking directories */
    uint64_t counts[MC_SEVERITY_COUNT];
    uint64_t per_format[MC_FORMAT_COUNT];
} mc_run_summary;

void mc_summary_add(mc_run_summary *s, const mc_result *r, mc_status status);

/* One file's report object (reports/schema/report.schema.json, $defs/file). */
cJSON *mc_report_file_json(const mc_result *r, const char *path, mc_status status);

/* The run document: tool, settings, files (taken over), summary. */
cJSON *mc_report_run_json(cJSON *files, const mc_run_summary *s, const mc_options *opt);

/* The pieces of the run document shared with the SARIF log. */
cJSON *mc_report_settings_json(const mc_options *opt);
cJSON *mc_report_summary_json(const mc_run_summary *s);

/* SARIF 2.1.0 (reports/schema/sarif.schema.json: the subset emitted): one
 * result per kept instance, artifacts with size and sha256, the rules that
 * occur. Files are added in order; finishing takes the builder. */
typedef struct mc_sarif mc_sarif;
mc_sarif *mc_sarif_new(void);
/* 0, or -1 when out of memory (the builder stays usable). */
int mc_sarif_add_file(mc_sarif *s, const mc_result *r, const char *path, mc_status status);
/* The log; NULL when out of memory. Frees the builder either way. */
cJSON *mc_sarif_finish(mc_sarif *s, const mc_run_summary *sum, const mc_options *opt, int exit_code);

/* SARIF's level for a severity: error, warning, or note (info, hint). */
const char *mc_sarif_level(mc_severity sev);
/* The reportingDescriptor of a code: id, short and full description, help
 * (text and markdown: summary, spec clause, default severity, what to do),
 * default level; generated from the catalog. NULL for an unknown code. */
cJSON *mc_sarif_rule_json(mc_code code);

/* Compiler-style lines for one file: every kept instance, fold notes, and
 * (unless quiet) a status line naming format and layout. */
void mc_report_file_text(FILE *out, const mc_result *r, const char *path, int quiet);
void mc_report_summary_text(FILE *out, const mc_run_summary *s);

/* The issue catalog as a text table, a JSON array, or docs/ISSUES.md. */
void mc_catalog_text(FILE *out);
cJSON *mc_catalog_json(void);
void mc_catalog_markdown(FILE *out, const mc_options *defaults);

#endif
