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
    uint64_t excluded;   /* of skipped: excluded by a configuration file */
    uint64_t hidden[MC_SEVERITY_COUNT]; /* occurrences a view's min_severity hid */
    uint64_t baselined;  /* occurrences left out as known (--baseline) */
    uint64_t counts[MC_SEVERITY_COUNT];
    uint64_t per_format[MC_FORMAT_COUNT];
} mc_run_summary;

void mc_summary_add(mc_run_summary *s, const mc_result *r, mc_status status);

/* How a run's reports read (the command line's view of a result): these
 * change the verdict and what is shown, never the result itself. */
typedef struct mc_report_view {
    int werror;               /* warnings fail a file (README, "Exit codes") */
    mc_severity min_severity; /* text: instances less severe are not shown
                                 (counts stay exact); MC_SEVERITY_HINT shows all */
    int quiet;                /* text: nothing at all for a passing file */
    int color;                /* text: ANSI colours */
    int concise;              /* text: file:offset: severity: CODE: message */
    const char *const *configs; /* text summary: the configuration files used */
    size_t config_count;        /* (8 at most are named) */
} mc_report_view;

/* The verdict under a view: no error, and no warning either with werror. */
int mc_report_passes(const mc_result *r, const mc_report_view *view);
/* The level an issue of severity sev is shown at where a report has levels
 * and no verdict of its own (GitHub annotations, SARIF results): with
 * werror a warning is an error, as it fails the file. */
mc_severity mc_report_level(const mc_report_view *view, mc_severity sev);
/* mc_summary_add counting valid and invalid by that verdict. */
void mc_summary_add_view(mc_run_summary *s, const mc_result *r, mc_status status, const mc_report_view *view);

/* Adds key: s to o, s being bytes from outside (a file name, a command):
 * as they are when valid UTF-8; otherwise escaped by mc_utf8_escape and
 * flagged by KEY_escaped: true, so every JSON document stays UTF-8 and the
 * bytes can be restored (README, "Behaviour at the edges"). -1 when out of
 * memory. */
int mc_json_add_text(cJSON *o, const char *key, const char *s);

/* One file's report object (reports/schema/report.schema.json, $defs/file). */
cJSON *mc_report_file_json(const mc_result *r, const char *path, mc_status status);
/* The same, "valid" following mc_report_passes (view NULL: errors only). */
cJSON *mc_report_file_json_view(const mc_result *r, const char *path, mc_status status,
                                const mc_report_view *view);

/* The run document, written as a stream (memory does not grow with the
 * number of files): begin writes tool, settings and the opening of files;
 * each file call appends one file's object, in the order given; end writes
 * the summary and frees the writer. config (taken over; NULL for none) goes
 * into the settings as "config". The bytes are those cJSON_Print gives
 * for the whole document. begin returns NULL and the others -1 when out of
 * memory; write errors are left to the caller's ferror(out). */
typedef struct mc_json_report mc_json_report;
mc_json_report *mc_json_report_begin(FILE *out, const mc_options *opt, cJSON *config);
/* begin with a view: settings.werror, and each file's "valid" its verdict. */
mc_json_report *mc_json_report_begin_view(FILE *out, const mc_options *opt, cJSON *config,
                                          const mc_report_view *view);
int mc_json_report_file(mc_json_report *w, const mc_result *r, const char *path, mc_status status);
/* mc_json_report_file with item (taken over) added to the file's object as key. */
int mc_json_report_file_with(mc_json_report *w, const mc_result *r, const char *path, mc_status status,
                             const char *key, cJSON *item);
int mc_json_report_end(mc_json_report *w, const mc_run_summary *s);

/* Streaming pieces: item as cJSON_Print formats it at that depth (a tab
 * per level after each newline), from byte skip of its text on; and a
 * skeleton document up to the opening bracket of its last empty array. */
int mc_json_write(FILE *out, const cJSON *item, int depth, size_t skip);
int mc_json_write_head(FILE *out, const cJSON *skeleton);

/* The pieces of the run document shared with the SARIF log. */
cJSON *mc_report_settings_json(const mc_options *opt);
cJSON *mc_report_summary_json(const mc_run_summary *s);

/* SARIF 2.1.0 (reports/schema/sarif.schema.json: the subset emitted): one
 * result per kept instance, artifacts with size and sha256, the rules that
 * occur. Written as a stream like the JSON report: begin, one call per file
 * in order, end (which frees the writer). Results go straight to out; the
 * artifacts wait in a temporary file until end; run's tool, invocations and
 * properties come last, once the rules and the exit code are known. */
typedef struct mc_sarif mc_sarif;
/* MC_SARIF_SPEC follows the specification: a result in a binary artifact
 * has a binary region (byteOffset) and never a line (3.30.1).
 * MC_SARIF_GITHUB is for GitHub code scanning, which needs
 * region.startLine (its rule GH1003) and a checkout path for absolute URIs
 * (GH1006): the region is {"startLine": 1}, the offset moves to
 * properties.byteOffset, and the invocation names the working directory.
 * Everything else is byte for byte the same. */
typedef enum mc_sarif_flavour { MC_SARIF_SPEC, MC_SARIF_GITHUB } mc_sarif_flavour;
mc_sarif *mc_sarif_begin(FILE *out, mc_sarif_flavour flavour);
/* The view of the run: settings.werror and each artifact's properties.valid
 * follow its werror (default: off). */
void mc_sarif_set_view(mc_sarif *s, const mc_report_view *view);
/* 0, or -1 when out of memory (the writer stays usable). */
int mc_sarif_file(mc_sarif *s, const mc_result *r, const char *path, mc_status status);
/* mc_sarif_file whose first result of each code carries fixes(code, uri,
 * arg), a "fixes" array (NULL: none; taken over). */
typedef cJSON *(*mc_sarif_fixes_fn)(mc_code code, const char *uri, void *arg);
int mc_sarif_file_fixes(mc_sarif *s, const mc_result *r, const char *path, mc_status status,
                        mc_sarif_fixes_fn fixes, void *arg);
int mc_sarif_end(mc_sarif *s, const mc_run_summary *sum, const mc_options *opt, cJSON *config, int exit_code);

/* The i-th code of mc_catalog.def, in the catalog's (and the docs') order;
 * NULL past the end. The enum's numbers are another order (append only). */
const mc_code_info *mc_catalog_entry(size_t i);

/* SARIF's level for a severity: error, warning, or note (info, hint). */
const char *mc_sarif_level(mc_severity sev);
/* The reportingDescriptor of a code: id, short and full description, help
 * (text and markdown: summary, spec clause, default severity, what to do),
 * default level; generated from the catalog. NULL for an unknown code. */
cJSON *mc_sarif_rule_json(mc_code code);
/* The help's "what to do" for a code, by the kind of check (sarif_rules.c);
 * *content_advice is set when the help goes on with how to lower the code
 * in .modelcheck.json. NULL for an unknown code. */
const char *mc_sarif_remedy(mc_code code, int *content_advice);
/* Whether a remedy is the generic text no kind matched (a unit test keeps
 * every catalog code out of it). */
int mc_sarif_remedy_is_generic(const char *text);

/* Compiler-style lines for one file: every kept instance, fold notes, and
 * (unless quiet) a status line naming format and layout. */
void mc_report_file_text(FILE *out, const mc_result *r, const char *path, int quiet);
void mc_report_summary_text(FILE *out, const mc_run_summary *s);
/* The same under a view: the verdict with werror ("invalid (warnings as
 * errors)"), hidden severities, colour, the concise form. The summary says
 * how many instances the view hid. */
void mc_report_file_text_view(FILE *out, const mc_result *r, const char *path, const mc_report_view *view);
void mc_report_summary_text_view(FILE *out, const mc_run_summary *s, const mc_report_view *view);

/* GitHub Actions workflow commands (::error file=F,title=CODE::message):
 * one annotation per shown instance (view's min_severity; info and hint are
 * notices) and one per fold; F relative to $GITHUB_WORKSPACE, else to the
 * working directory. */
void mc_report_file_github(FILE *out, const mc_result *r, const char *path, mc_status status,
                           const mc_report_view *view);

/* JUnit XML: a test case per file (failure: it does not pass under the
 * view; error: unreadable), its shown lines as the text report's. The cases
 * wait in memory until end writes the totals and frees the writer. */
typedef struct mc_junit mc_junit;
mc_junit *mc_junit_begin(FILE *out, const mc_report_view *view);
int mc_junit_file(mc_junit *j, const mc_result *r, const char *path, mc_status status);
int mc_junit_end(mc_junit *j, const mc_run_summary *s);

/* Advice (validator/catalog/mc_advice.def): why a code matters (its own
 * text, else its kind's), and what to do (its own, else mc_sarif_remedy's;
 * *content_advice as there). NULL when none is recorded. */
const char *mc_advice_why(mc_code code);
const char *mc_advice_kind_why(const char *kind);
int mc_advice_is_own(mc_code code); /* the code has an entry of its own */
const char *mc_advice_what(mc_code code, int *content_advice);
/* `modelcheck explain CODE`: rule, clause, severity, why, what to do, and
 * an example line (NULL: none). */
void mc_explain_text(FILE *out, mc_code code, const char *example);
/* The same, then a "Document:" line per document its clause and advice cite
 * (docs/formats/aem.md), named docdir/docs/formats/aem.md (NULL: no line). */
void mc_explain_text_docs(FILE *out, mc_code code, const char *example, const char *docdir);

/* The issue catalog as a text table, a JSON array, or docs/ISSUES.md. */
void mc_catalog_text(FILE *out);
cJSON *mc_catalog_json(void);
void mc_catalog_markdown(FILE *out, const mc_options *defaults);

/* ---- The bytes behind a location (report_bytes.c) ---- */

/* The decoded value of field f whose bytes start at p (avail readable):
 * "0.25", "(1, 0, 0)", "\"name\"". */
void mc_report_field_value(char *out, size_t size, const mc_field *f, const uint8_t *p,
                           uint64_t avail);

/* The record of l as annotated hex, one line per field, the field holding
 * target marked '>' and the byte '^'; bytes/size are the space's bytes. */
void mc_report_bytes(FILE *out, const mc_location *l, const uint8_t *bytes, uint64_t size,
                     uint64_t target, const char *indent);

/* The bytes an issue instance points at (its record, annotated), from an
 * inspection of the same file with the same options. */
void mc_report_instance_bytes(FILE *out, mc_inspect *in, const mc_instance *inst,
                              const char *indent);

/* The text report of mc_report_file_text with, under each issue line, the
 * bytes it points at (--show-bytes). name is read again (not "-"); when it
 * cannot be, the lines come without bytes. */
void mc_report_file_text_bytes(FILE *out, const mc_result *r, const char *name, const mc_report_view *view,
                               const mc_options *opt);
/* mc_report_file_text, with each line's bytes from bytes when not NULL. */
void mc_report_file_text_with(FILE *out, const mc_result *r, const char *name, const mc_report_view *view,
                              mc_inspect *bytes);


/* ---- modelcheck fix's reports (report_fix.c) ---- */

/* The "fix" object of a file in the JSON report (reports/schema/report.schema.json):
 * output (NULL: none), written, the edits, what was fixed and withheld. */
cJSON *mc_fix_report_json(const mc_fix *fix, const char *output, int written);
/* A SARIF "fixes" array: one fix of every edit of code (byte replacements
 * in the artifact uri), or NULL when code has no edit. */
cJSON *mc_fix_sarif_fixes(const mc_fix *fix, mc_code code, const char *uri);
/* --diff: one line per edit, "  @0x2c /path: old -> new  [bytes]  CODE (safe)". */
void mc_fix_report_diff(FILE *out, const mc_fix *fix);
/* One line: what was fixed, what was withheld, where it went. */
void mc_fix_report_summary(FILE *out, const mc_fix *fix, const char *name, const char *output, int written);

/* ---- modelcheck inspect's reports (report_inspect.c) ---- */

/* --at's OFFSET or BLOCK+OFFSET (BLOCK: an LZMA block's file offset, as
 * lzma@0xc or a whole path ending in it): 0, -1 not a number, -2 no
 * decoded block there. */
int mc_inspect_parse_at(const mc_inspect *in, const char *s, uint32_t *space, uint64_t *off);
/* The text view of one file (the section map, meshes, materials, ...). */
void mc_inspect_report_text(FILE *out, const mc_inspect *in, const char *name);
/* The JSON document (reports/schema/inspect.schema.json): begin, one
 * object per file (first: the first file), end. -1 when out of memory. */
void mc_inspect_report_begin(FILE *out);
int mc_inspect_report_json(FILE *out, const mc_inspect *in, const char *name, int first);
void mc_inspect_report_end(FILE *out);
/* --at AT: the byte's path, node, field, value and the record as annotated
 * hex; 0, or 2 (a usage error) with the reason written on err. */
int mc_inspect_report_at(FILE *out, FILE *err, mc_inspect *in, const char *name, const char *at);
/* The same facts as an object (null when off is outside the space). */
cJSON *mc_inspect_at_json(mc_inspect *in, uint32_t space, uint64_t off);

#endif
