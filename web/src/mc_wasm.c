/*
 * The WebAssembly entry of modelcheck (web/, cmake --preset wasm): a run of
 * the command line's report over files whose bytes the caller hands in.
 *
 *   run = mcw_begin(options_json)      the CLI's main options, as JSON
 *   mcw_file(run, bytes, size, path, sha256, from_walk)   once per file, in order
 *     (or mcw_file_check(run, bytes, size), then mcw_file_report(run, path,
 *     sha256, from_walk): the hash computed while the file is validated)
 *   mcw_unreadable(run, path, errno_name)                 a file JS could not read
 *   text = mcw_end(run)                the very document the CLI writes
 *   mcw_exit_code(run), mcw_free(run)
 *
 * The report is written by reports/render (JSON, SARIF, text) exactly as
 * cli/main.c drives it, so that a file's JSON here and from `modelcheck
 * --output json` are the same bytes. SHA-256 is the platform's (WebCrypto in
 * a browser, node:crypto in Node): the caller hashes and passes the 32 bytes,
 * or NULL for none (the report's sha256 is then null, as with --no-sha256).
 * The file walk, the configuration file and -j stay in JS or out.
 *
 * Inspection (modelcheck inspect), over one file's bytes held in the module:
 *   in = mcw_inspect_open(data, size, format)   data from malloc, now owned by in
 *   text = mcw_inspect_report(in, path, kind, first)  0 text, 1 a JSON file object
 *   mcw_inspect_frame(0|1)             the JSON document's head and tail
 *   text = mcw_inspect_at_text(in, path, at)   --at AT; mcw_inspect_err for refusals
 *   json = mcw_inspect_at_json(in, at)          the same facts as an object
 *   mcw_inspect_free(in)
 * The reports are reports/render/report_inspect.c's, as the CLI prints them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <emscripten/emscripten.h>

#include "mc_report.h"
#include "mc_validate.h"
#include "modelcheck.h"

typedef struct mcw_run mcw_run;
/* The exports (web/index.js and web/app.js call them): */
mcw_run *mcw_begin(const char *options_json);
const char *mcw_error(const mcw_run *r);
int mcw_file(mcw_run *r, const uint8_t *data, size_t size, const char *path, const uint8_t *sha256,
             int from_walk);
int mcw_file_check(mcw_run *r, const uint8_t *data, size_t size);
int mcw_file_report(mcw_run *r, const char *path, const uint8_t *sha256, int from_walk);
int mcw_unreadable(mcw_run *r, const char *path, const char *errno_name);
const char *mcw_end(mcw_run *r);
int mcw_exit_code(const mcw_run *r);
double mcw_summary(const mcw_run *r, int which);
void mcw_free(mcw_run *r);
char *mcw_catalog(void);
typedef struct mcw_inspect mcw_inspect;
mcw_inspect *mcw_inspect_open(uint8_t *data, size_t size, const char *format);
int mcw_inspect_status(const mcw_inspect *w);
int mcw_inspect_valid(const mcw_inspect *w);
const char *mcw_inspect_report(mcw_inspect *w, const char *path, int kind, int first);
const char *mcw_inspect_frame(int end);
const char *mcw_inspect_at_text(mcw_inspect *w, const char *path, const char *at);
const char *mcw_inspect_err(const mcw_inspect *w);
const char *mcw_inspect_at_json(mcw_inspect *w, const char *at);
void mcw_inspect_free(mcw_inspect *w);

/* The library's SHA-256 hook (mc_validate.h): the page hashes in JS
 * (WebCrypto is asynchronous) and hands the digest to mcw_file_report. */
int mc_platform_sha256(const uint8_t *data, size_t size, unsigned char out[32])
{
    (void)data, (void)size, (void)out;
    return -1;
}

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_UNREADABLE = 3 };
enum output_kind { OUT_TEXT, OUT_JSON, OUT_SARIF };

struct mcw_run {
    mc_options opt;
    mc_severity_map *severity;
    enum output_kind output;
    mc_sarif_flavour sarif_flavour;
    mc_report_view view; /* werror and quiet, as the CLI's (no colour, no config) */
    int skip_unrecognized;
    FILE *out; /* open_memstream over text/len */
    char *text;
    size_t len;
    mc_json_report *json;
    mc_sarif *sarif;
    mc_run_summary summary;
    int exit_code;
    mc_result *pending; /* mcw_file_check's result, until mcw_file_report */
    mc_status pending_status;
    char error[256]; /* why mcw_begin refused the options */
};

static void raise_exit(mcw_run *r, int code)
{
    if (code > r->exit_code) r->exit_code = code;
}

static int refuse(mcw_run *r, const char *what, const char *value)
{
    snprintf(r->error, sizeof r->error, "%s '%s'", what, value ? value : "");
    return -1;
}

/* A number option, range-checked as the CLI checks its text. */
static int get_number(const cJSON *o, const char *key, double lo, double hi, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) return 0;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo) || v->valuedouble > hi) return -1;
    *out = v->valuedouble;
    return 1;
}

static int get_flag(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static int parse_output(mcw_run *r, const char *v)
{
    if (strcmp(v, "text") == 0) r->output = OUT_TEXT;
    else if (strcmp(v, "json") == 0) r->output = OUT_JSON;
    else if (strcmp(v, "sarif") == 0) r->output = OUT_SARIF;
    else if (strcmp(v, "sarif-github") == 0) r->output = OUT_SARIF, r->sarif_flavour = MC_SARIF_GITHUB;
    else return refuse(r, "unknown output", v);
    return 0;
}

/* 0 is an exact comparison, which mc_options spells MC_TOLERANCE_EXACT. */
static int parse_tolerance(mcw_run *r, const cJSON *o, const char *key, double *field)
{
    double v;
    int got = get_number(o, key, 0.0, 1e30, &v);
    if (got < 0) return refuse(r, "bad tolerance for", key);
    if (got) *field = v == 0.0 ? MC_TOLERANCE_EXACT : v;
    return 0;
}

/* "severity": {"CODE": "level"}, "ignore": ["CODE"] */
static int parse_severities(mcw_run *r, const cJSON *o)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o, "severity")) {
        int code = mc_code_find(item->string);
        if (code < 0) return refuse(r, "unknown issue code", item->string);
        int sev = cJSON_IsString(item) ? mc_severity_parse(item->valuestring) : -1;
        if (sev < 0) return refuse(r, "unknown severity for", item->string);
        mc_severity_map_set(r->severity, (mc_code)code, (mc_severity)sev);
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o, "ignore")) {
        int code = cJSON_IsString(item) ? mc_code_find(item->valuestring) : -1;
        if (code < 0) return refuse(r, "unknown issue code", cJSON_IsString(item) ? item->valuestring : "");
        mc_severity_map_set(r->severity, (mc_code)code, MC_SEVERITY_IGNORE);
    }
    return 0;
}

/* "working_directory": the caller's (Node's process.cwd()), made and
 * entered in the module's in-memory file system, for SARIF's
 * invocation.workingDirectory (sarif-github) to name it as the CLI does. */
static int enter_directory(mcw_run *r, const char *dir)
{
    char path[4096];
    size_t n = strlen(dir);
    if (dir[0] != '/' || n >= sizeof path) return refuse(r, "working_directory must be an absolute path:", dir);
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0') continue;
        char c = path[i];
        path[i] = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return refuse(r, "cannot make directory", path);
        path[i] = c;
    }
    return chdir(path) == 0 ? 0 : refuse(r, "cannot enter directory", path);
}

static int parse_options(mcw_run *r, const cJSON *o)
{
    const cJSON *cwd = cJSON_GetObjectItemCaseSensitive(o, "working_directory");
    if (cJSON_IsString(cwd) && enter_directory(r, cwd->valuestring)) return -1;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "format");
    if (cJSON_IsString(v)) {
        int f = mc_format_parse(v->valuestring);
        if (f < 0 || !mc_format_supported((mc_format)f)) return refuse(r, "unknown or unsupported format", v->valuestring);
        r->opt.format = (mc_format)f;
    }
    v = cJSON_GetObjectItemCaseSensitive(o, "output");
    if (cJSON_IsString(v) && parse_output(r, v->valuestring)) return -1;
    double d;
    int got = get_number(o, "max_issues", 0, 1000000, &d);
    if (got < 0) return refuse(r, "max_issues expects a number from 0 to 1000000, got", "");
    if (got) r->opt.max_instances = d >= 1 ? (uint32_t)d : MC_INSTANCES_NONE;
    if (parse_tolerance(r, o, "weight_tolerance", &r->opt.weight_sum_tolerance) ||
        parse_tolerance(r, o, "unit_tolerance", &r->opt.unit_tolerance) ||
        parse_tolerance(r, o, "quaternion_tolerance", &r->opt.quaternion_tolerance))
        return -1;
    got = get_number(o, "max_file_bytes", 1, 18446744073709551616.0, &d);
    if (got < 0) return refuse(r, "max_file_bytes expects a positive byte count", "");
    /* 2^64 itself does not convert: the largest count is UINT64_MAX */
    if (got) r->opt.max_file_bytes = d < 18446744073709551616.0 ? (uint64_t)d : UINT64_MAX;
    r->opt.skip_sha256 = get_flag(o, "no_sha256");
    r->view.werror = get_flag(o, "werror");
    r->view.quiet = get_flag(o, "quiet");
    r->skip_unrecognized = get_flag(o, "skip_unrecognized");
    return parse_severities(r, o);
}

static int start_report(mcw_run *r)
{
    if (!(r->out = open_memstream(&r->text, &r->len))) return -1;
    if (r->output == OUT_JSON)
        return (r->json = mc_json_report_begin_view(r->out, &r->opt, cJSON_CreateNull(), &r->view)) ? 0 : -1;
    if (r->output == OUT_SARIF) {
        if (!(r->sarif = mc_sarif_begin(r->out, r->sarif_flavour))) return -1;
        mc_sarif_set_view(r->sarif, &r->view);
    }
    return 0;
}

/* NULL when out of memory; otherwise a run, whose mcw_error is non-empty
 * when the options were refused (a usage error: exit 2). */
EMSCRIPTEN_KEEPALIVE mcw_run *mcw_begin(const char *options_json)
{
    mcw_run *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    mc_options_init(&r->opt);
    r->output = OUT_JSON;
    r->view.min_severity = MC_SEVERITY_HINT;
    if (!(r->severity = mc_severity_map_new())) {
        free(r);
        return NULL;
    }
    r->opt.severity = r->severity;
    cJSON *o = cJSON_Parse(options_json ? options_json : "{}");
    if (!cJSON_IsObject(o)) refuse(r, "options are not a JSON object:", options_json);
    else if (parse_options(r, o) == 0 && start_report(r) != 0) refuse(r, "out of memory", "");
    cJSON_Delete(o);
    if (r->error[0]) r->exit_code = EXIT_USAGE;
    return r;
}

EMSCRIPTEN_KEEPALIVE const char *mcw_error(const mcw_run *r)
{
    return r->error;
}

/* cli/main.c's report_file: a file named or met in a folder walk. */
static void report(mcw_run *r, const char *path, int from_walk, const mc_result *res, mc_status st)
{
    if ((from_walk || r->skip_unrecognized) && st == MC_OK && res->format == MC_FORMAT_UNKNOWN &&
        (mc_result_find(res, MC_FILE_UNRECOGNIZED) || mc_result_find(res, MC_FILE_EMPTY))) {
        r->summary.skipped++;
        return;
    }
    mc_summary_add_view(&r->summary, res, st, &r->view);
    if (st == MC_ERR_IO) raise_exit(r, EXIT_UNREADABLE);
    else if (!mc_report_passes(res, &r->view)) raise_exit(r, EXIT_INVALID);
    int rc = 0;
    if (r->output == OUT_JSON) rc = mc_json_report_file(r->json, res, path, st);
    else if (r->output == OUT_SARIF) rc = mc_sarif_file(r->sarif, res, path, st);
    else if (st != MC_ERR_IO) mc_report_file_text_view(r->out, res, path, &r->view);
    if (rc != 0) raise_exit(r, EXIT_UNREADABLE);
}

/* One file in two steps, for the platform's hash to run while the file is
 * validated (as the command hashes on a second thread): mcw_file_check
 * validates and keeps the result; mcw_file_report adds the hash (32 bytes,
 * or NULL) and reports it under path. check returns the verdict: 0 valid,
 * 1 invalid, -1 out of memory or a run that refused its options (nothing
 * to report then). */
EMSCRIPTEN_KEEPALIVE int mcw_file_check(mcw_run *r, const uint8_t *data, size_t size)
{
    if (r->error[0]) return -1;
    mc_result_free(r->pending);
    r->pending = NULL;
    mc_options opt = r->opt;
    /* the library has no hash of its own here: it comes from the caller */
    opt.skip_sha256 = 1;
    r->pending_status = mc_validate_memory(data, size, &opt, &r->pending);
    if (!r->pending) {
        raise_exit(r, EXIT_UNREADABLE);
        return -1;
    }
    return mc_result_valid(r->pending) ? 0 : 1;
}

EMSCRIPTEN_KEEPALIVE int mcw_file_report(mcw_run *r, const char *path, const uint8_t *sha256, int from_walk)
{
    mc_result *res = r->pending;
    if (!res) return -1;
    r->pending = NULL;
    mc_options eff;
    mc_options_effective(&r->opt, &eff);
    /* as the library hashes: not a file refused for its size */
    if (sha256 && !r->opt.skip_sha256 && r->output != OUT_TEXT && res->size <= eff.max_file_bytes) {
        memcpy(res->sha256, sha256, sizeof res->sha256);
        res->hashed = 1;
    }
    report(r, path, from_walk, res, r->pending_status);
    mc_result_free(res);
    return 0;
}

/* Both steps, the hash known beforehand. */
EMSCRIPTEN_KEEPALIVE int mcw_file(mcw_run *r, const uint8_t *data, size_t size, const char *path,
                                  const uint8_t *sha256, int from_walk)
{
    int verdict = mcw_file_check(r, data, size);
    if (verdict >= 0) mcw_file_report(r, path, sha256, from_walk);
    return verdict;
}

/* errno's name from Node (err.code): the library's own message for it. */
static int errno_from_name(const char *name)
{
    static const struct { const char *name; int value; } names[] = {
        {"ENOENT", ENOENT}, {"EACCES", EACCES}, {"EPERM", EPERM}, {"EISDIR", EISDIR},
        {"ENOTDIR", ENOTDIR}, {"ELOOP", ELOOP}, {"ENAMETOOLONG", ENAMETOOLONG}, {"EMFILE", EMFILE},
        {"EFBIG", EFBIG}, {"ENOMEM", ENOMEM}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (name && strcmp(name, names[i].name) == 0) return names[i].value;
    return EIO;
}

/* A file JS could not open or read ("cannot open: <strerror>", as the CLI). */
EMSCRIPTEN_KEEPALIVE int mcw_unreadable(mcw_run *r, const char *path, const char *errno_name)
{
    if (r->error[0]) return -1;
    mc_result *res = NULL;
    mc_status st = mc_result_io_error("cannot open", errno_from_name(errno_name), &r->opt, &res);
    if (!res) {
        raise_exit(r, EXIT_UNREADABLE);
        return -1;
    }
    report(r, path, 0, res, st);
    mc_result_free(res);
    return 0;
}

/* The whole document, NUL-terminated, owned by the run (valid until
 * mcw_free); NULL when out of memory or after refused options. */
EMSCRIPTEN_KEEPALIVE const char *mcw_end(mcw_run *r)
{
    if (r->error[0] || !r->out) return NULL;
    int rc = 0;
    if (r->output == OUT_JSON) rc = mc_json_report_end(r->json, &r->summary);
    else if (r->output == OUT_SARIF)
        rc = mc_sarif_end(r->sarif, &r->summary, &r->opt, cJSON_CreateNull(), r->exit_code);
    else if (!r->view.quiet || r->summary.files > 1) mc_report_summary_text_view(r->out, &r->summary, &r->view);
    r->json = NULL;
    r->sarif = NULL;
    if (rc != 0) raise_exit(r, EXIT_UNREADABLE);
    int bad = ferror(r->out);
    fclose(r->out);
    r->out = NULL;
    return bad ? NULL : r->text;
}

EMSCRIPTEN_KEEPALIVE int mcw_exit_code(const mcw_run *r)
{
    return r->exit_code;
}

/* Counts of the run so far: files, valid, invalid, unreadable, skipped. */
EMSCRIPTEN_KEEPALIVE double mcw_summary(const mcw_run *r, int which)
{
    const uint64_t v[] = {r->summary.files, r->summary.valid, r->summary.invalid, r->summary.unreadable,
                          r->summary.skipped};
    return which >= 0 && which < 5 ? (double)v[which] : -1.0;
}

EMSCRIPTEN_KEEPALIVE void mcw_free(mcw_run *r)
{
    if (!r) return;
    if (r->out) {
        /* a run never ended: the writers still own their state */
        if (r->json) mc_json_report_end(r->json, &r->summary);
        if (r->sarif) mc_sarif_end(r->sarif, &r->summary, &r->opt, NULL, r->exit_code);
        fclose(r->out);
    }
    free(r->text);
    mc_result_free(r->pending);
    mc_severity_map_free(r->severity);
    free(r);
}

/* The issue catalog as JSON (modelcheck --list-codes --output json): the
 * page's explanations. Free with free(). */
EMSCRIPTEN_KEEPALIVE char *mcw_catalog(void)
{
    cJSON *j = mc_catalog_json();
    char *s = j ? cJSON_Print(j) : NULL;
    cJSON_Delete(j);
    return s;
}

/* ---- inspection ---- */

struct mcw_inspect {
    uint8_t *data; /* the file's bytes: mc_inspect reads them until freed */
    mc_inspect *in;
    mc_status status;
    char *text, *err; /* the last report and its refusal, NUL-terminated */
};

/* format: "" or NULL to detect, else a name as --format takes. NULL when
 * out of memory or for an unknown format; data is freed then too. */
EMSCRIPTEN_KEEPALIVE mcw_inspect *mcw_inspect_open(uint8_t *data, size_t size, const char *format)
{
    mcw_inspect *w = calloc(1, sizeof *w);
    mc_options opt;
    mc_options_init(&opt);
    if (format && format[0]) {
        int f = mc_format_parse(format);
        if (f <= 0) {
            free(w);
            w = NULL;
        } else {
            opt.format = (mc_format)f;
        }
    }
    if (!w) {
        free(data);
        return NULL;
    }
    w->data = data;
    w->status = mc_inspect_memory(data, size, &opt, &w->in);
    return w;
}

/* 0 (MC_OK) when the file could be inspected; otherwise the tree is empty
 * and the CLI says mc_strerror's text. */
EMSCRIPTEN_KEEPALIVE int mcw_inspect_status(const mcw_inspect *w)
{
    return w->in ? (int)w->status : (int)MC_ERR_NOMEM;
}

EMSCRIPTEN_KEEPALIVE int mcw_inspect_valid(const mcw_inspect *w)
{
    return w->in && mc_result_valid(mc_inspect_result(w->in));
}

/* Runs write into fresh memory text, kept as w->text (and err as w->err). */
static const char *capture(mcw_inspect *w, int (*write)(FILE *out, FILE *err, mcw_inspect *w, const void *arg),
                           const void *arg, int *rc)
{
    free(w->text);
    free(w->err);
    w->text = w->err = NULL;
    size_t n = 0, en = 0;
    FILE *out = open_memstream(&w->text, &n);
    FILE *err = open_memstream(&w->err, &en);
    if (!out || !err) {
        if (out) fclose(out);
        if (err) fclose(err);
        return NULL;
    }
    *rc = write(out, err, w, arg);
    int bad = ferror(out) | ferror(err);
    fclose(out);
    fclose(err);
    return bad ? NULL : w->text;
}

struct report_args {
    const char *path;
    int kind, first;
};

static int write_report(FILE *out, FILE *err, mcw_inspect *w, const void *arg)
{
    (void)err;
    const struct report_args *a = arg;
    if (a->kind == 0) {
        mc_inspect_report_text(out, w->in, a->path);
        return 0;
    }
    if (mc_inspect_report_json(out, w->in, a->path, a->first) != 0) fputs("null", out);
    return 0;
}

/* One file's report as the CLI prints it: kind 0 the text view, 1 the
 * file's JSON object (after "\n", or ",\n" when not first). Owned by w. */
EMSCRIPTEN_KEEPALIVE const char *mcw_inspect_report(mcw_inspect *w, const char *path, int kind, int first)
{
    if (!w->in) return NULL;
    struct report_args a = {path, kind, first};
    int rc = 0;
    return capture(w, write_report, &a, &rc);
}

/* The JSON document's head (end 0) and tail (end 1). Static storage. */
EMSCRIPTEN_KEEPALIVE const char *mcw_inspect_frame(int end)
{
    static char frame[2][128];
    char *buf = frame[end ? 1 : 0];
    FILE *f = fmemopen(buf, sizeof frame[0], "w");
    if (!f) return NULL;
    if (end) mc_inspect_report_end(f);
    else mc_inspect_report_begin(f);
    fclose(f);
    return buf;
}

struct at_args {
    const char *path, *at;
};

static int write_at(FILE *out, FILE *err, mcw_inspect *w, const void *arg)
{
    const struct at_args *a = arg;
    return mc_inspect_report_at(out, err, w->in, a->path, a->at);
}

/* --at AT: the text, or NULL after a refusal (mcw_inspect_err says why). */
EMSCRIPTEN_KEEPALIVE const char *mcw_inspect_at_text(mcw_inspect *w, const char *path, const char *at)
{
    if (!w->in) return NULL;
    struct at_args a = {path, at};
    int rc = 0;
    const char *t = capture(w, write_at, &a, &rc);
    return rc == 0 ? t : NULL;
}

EMSCRIPTEN_KEEPALIVE const char *mcw_inspect_err(const mcw_inspect *w)
{
    return w->err ? w->err : "";
}

/* AT as --at takes it: an object (path, node, field, value, record), or
 * "null" for a byte outside its space or AT that names no byte. */
EMSCRIPTEN_KEEPALIVE const char *mcw_inspect_at_json(mcw_inspect *w, const char *at)
{
    if (!w->in) return NULL;
    uint32_t space;
    uint64_t off;
    cJSON *j = mc_inspect_parse_at(w->in, at, &space, &off) == 0 ? mc_inspect_at_json(w->in, space, off)
                                                                  : cJSON_CreateNull();
    free(w->text);
    w->text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return w->text;
}

EMSCRIPTEN_KEEPALIVE void mcw_inspect_free(mcw_inspect *w)
{
    if (!w) return;
    mc_inspect_free(w->in);
    free(w->data);
    free(w->text);
    free(w->err);
    free(w);
}
