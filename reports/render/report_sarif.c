/*
 * SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), for
 * code-scanning dashboards and CI annotations. What is emitted is the subset
 * described by reports/schema/sarif.schema.json:
 *  - one result per kept instance: the folding of the JSON report carries
 *    over (properties.count is the code's count in the file, so a folded
 *    issue is still counted exactly); an issue kept with no instance
 *    (--max-issues 0) is one result at its first offset;
 *  - locations are binary: region.byteOffset, plus the structural path as a
 *    logical location; E3D offsets inside decoded LZMA data go in
 *    properties.payloadOffset (the GitHub flavour: see mc_sarif_flavour);
 *  - levels: error and warning as they are, info and hint as "note" (SARIF
 *    has no finer level); properties.severity keeps ours;
 *  - partialFingerprints: code and structural path, so that the same
 *    finding in two runs matches even when offsets moved;
 *  - written as a stream: results first (straight to the output), then the
 *    artifacts (kept in a temporary file meanwhile), then tool (with the
 *    rules that occurred), invocations (with the exit code) and properties.
 *    Key order carries no meaning in SARIF; memory stays flat in the number
 *    of files, and time is linear in files and results.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mc_report.h"

struct mc_sarif {
    FILE *out;
    FILE *artifacts;     /* a temporary file, or a memory stream without one */
    char *artifacts_mem; /* the memory stream's buffer */
    size_t artifacts_len;
    uint64_t files, results;
    mc_sarif_flavour flavour;
    int failed;          /* a write to the artifacts stream failed */
    unsigned char used[MC_CODE_COUNT];
    mc_report_view view; /* werror: settings.werror, the artifacts' valid */
};

void mc_sarif_set_view(mc_sarif *s, const mc_report_view *view)
{
    if (s && view) s->view = *view;
}

mc_sarif *mc_sarif_begin(FILE *out, mc_sarif_flavour flavour)
{
    mc_sarif *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->out = out;
    s->flavour = flavour;
    s->artifacts = tmpfile();
    if (!s->artifacts) s->artifacts = open_memstream(&s->artifacts_mem, &s->artifacts_len);
    cJSON *log = cJSON_CreateObject();
    cJSON *run = cJSON_CreateObject();
    int rc = -1;
    if (s->artifacts && log && run) {
        cJSON_AddStringToObject(log, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        cJSON_AddStringToObject(log, "version", "2.1.0");
        cJSON_AddArrayToObject(run, "results");
        cJSON *runs = cJSON_AddArrayToObject(log, "runs");
        if (runs && cJSON_AddItemToArray(runs, run)) {
            run = NULL;
            rc = mc_json_write_head(out, log);
        }
    }
    cJSON_Delete(run);
    cJSON_Delete(log);
    if (rc != 0) {
        if (s->artifacts) fclose(s->artifacts);
        free(s->artifacts_mem);
        free(s);
        return NULL;
    }
    return s;
}

/* RFC 3986: a path becomes a relative reference, or a file: URI when
 * absolute; every byte outside the unreserved set and '/' is %-encoded. */
static char *path_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t len = strlen(path);
    if (len > (SIZE_MAX - 8) / 3) return NULL;
    char *u = malloc(3 * len + 8);
    if (!u) return NULL;
    size_t n = 0;
    if (path[0] == '/') {
        memcpy(u, "file://", 7);
        n = 7;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)path[i];
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            strchr("-._~/", ch)) {
            u[n++] = (char)ch;
        } else {
            u[n++] = '%';
            u[n++] = hex[ch >> 4];
            u[n++] = hex[ch & 15];
        }
    }
    u[n] = '\0';
    return u;
}

static cJSON *artifact_location(const char *uri, uint64_t index)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "uri", uri);
    cJSON_AddNumberToObject(a, "index", (double)index);
    return a;
}

static cJSON *result_json(const mc_issue *is, const mc_instance *in, const char *uri, uint64_t index,
                          mc_sarif_flavour flavour, const mc_report_view *view)
{
    uint64_t offset = in ? in->offset : is->first_offset;
    const mc_code_info *ci = mc_code_get(is->code);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "ruleId", ci->name);
    cJSON_AddStringToObject(o, "level", mc_sarif_level(mc_report_level(view, is->severity)));
    cJSON *msg = cJSON_AddObjectToObject(o, "message");
    /* Binary artifacts have no lines: a dashboard shows the file and this
     * text, so the text itself says where (README, "Use in a repository"). */
    char text[sizeof in->path + sizeof in->message + 64];
    snprintf(text, sizeof text, "at byte %" PRIu64 ", %s: %s", offset,
             in && in->path[0] ? in->path : "/", in ? in->message : ci->summary);
    cJSON_AddStringToObject(msg, "text", text);
    cJSON *loc = cJSON_CreateObject();
    cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
    cJSON_AddItemToObject(phys, "artifactLocation", artifact_location(uri, index));
    cJSON *region = cJSON_AddObjectToObject(phys, "region");
    /* GitHub: line 1 stands for the whole file (there are no lines) */
    if (flavour == MC_SARIF_GITHUB) cJSON_AddNumberToObject(region, "startLine", 1);
    else cJSON_AddNumberToObject(region, "byteOffset", (double)offset);
    if (in && in->path[0]) {
        cJSON *logical = cJSON_CreateObject();
        cJSON_AddStringToObject(logical, "fullyQualifiedName", in->path);
        cJSON *arr = cJSON_AddArrayToObject(loc, "logicalLocations");
        cJSON_AddItemToArray(arr, logical);
    }
    cJSON *locs = cJSON_AddArrayToObject(o, "locations");
    cJSON_AddItemToArray(locs, loc);
    /* Stable across runs while the offsets move: the code and the structural
     * path (a dashboard matches results of two runs by it). */
    char fp[sizeof in->path + 64];
    snprintf(fp, sizeof fp, "%s:%s", ci->name, in && in->path[0] ? in->path : "/");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "partialFingerprints"), "modelcheckPath/v1", fp);
    cJSON *props = cJSON_AddObjectToObject(o, "properties");
    cJSON_AddStringToObject(props, "severity", mc_severity_name(is->severity));
    cJSON_AddNumberToObject(props, "count", (double)is->count);
    if (in && in->has_payload_offset) cJSON_AddNumberToObject(props, "payloadOffset", (double)in->payload_offset);
    if (flavour == MC_SARIF_GITHUB) cJSON_AddNumberToObject(props, "byteOffset", (double)offset);
    return o;
}

static cJSON *artifact_json(const mc_result *r, const char *uri, mc_status status, int valid)
{
    cJSON *a = cJSON_CreateObject();
    cJSON *loc = cJSON_AddObjectToObject(a, "location");
    cJSON_AddStringToObject(loc, "uri", uri);
    cJSON_AddNumberToObject(a, "length", (double)r->size);
    if (r->hashed) {
        char hex[65];
        for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", r->sha256[i]);
        cJSON *h = cJSON_AddObjectToObject(a, "hashes");
        cJSON_AddStringToObject(h, "sha-256", hex);
    }
    cJSON *props = cJSON_AddObjectToObject(a, "properties");
    cJSON_AddStringToObject(props, "format", mc_format_name(r->format));
    cJSON_AddStringToObject(props, "layout", r->layout);
    cJSON_AddBoolToObject(props, "readable", status != MC_ERR_IO);
    cJSON_AddBoolToObject(props, "valid", valid);
    return a;
}

static int add_result(mc_sarif *s, const mc_issue *is, const mc_instance *in, const char *uri,
                      uint64_t index, cJSON *fixes)
{
    cJSON *j = result_json(is, in, uri, index, s->flavour, &s->view);
    if (!j) {
        cJSON_Delete(fixes);
        return -1;
    }
    if (fixes) cJSON_AddItemToObject(j, "fixes", fixes);
    if (s->results) fputs(", ", s->out);
    int rc = mc_json_write(s->out, j, 3, 0);
    cJSON_Delete(j);
    if (rc == 0) s->results++;
    return rc;
}

int mc_sarif_file(mc_sarif *s, const mc_result *r, const char *path, mc_status status)
{
    return mc_sarif_file_fixes(s, r, path, status, NULL, NULL);
}

int mc_sarif_file_fixes(mc_sarif *s, const mc_result *r, const char *path, mc_status status,
                        mc_sarif_fixes_fn fixes, void *arg)
{
    char *uri = path_uri(path);
    if (!uri) return -1;
    /* valid under the run's view: with --werror a warning fails the file */
    cJSON *art = artifact_json(r, uri, status, mc_report_passes(r, &s->view));
    int rc = art ? 0 : -1;
    if (rc == 0) {
        /* the index of the artifact is the count before it: no array to
         * measure (that made the log quadratic in the number of files) */
        if (s->files) fputs(", ", s->artifacts);
        rc = mc_json_write(s->artifacts, art, 3, 0);
    }
    cJSON_Delete(art);
    for (size_t i = 0; rc == 0 && i < r->issue_count; i++) {
        const mc_issue *is = &r->issues[i];
        if ((unsigned)is->code < MC_CODE_COUNT) s->used[is->code] = 1;
        /* a code's fix goes with its first result: one fix covers them all */
        cJSON *fix = fixes ? fixes(is->code, uri, arg) : NULL;
        if (is->instance_count == 0) rc = add_result(s, is, NULL, uri, s->files, fix);
        for (size_t k = 0; rc == 0 && k < is->instance_count; k++, fix = NULL)
            rc = add_result(s, is, &is->instances[k], uri, s->files, fix);
    }
    free(uri);
    if (rc == 0) s->files++;
    return rc;
}

/* Only the rules that occur, in catalog order: the log stays small. */
static cJSON *rules_json(const mc_sarif *s)
{
    cJSON *rules = cJSON_CreateArray();
    const mc_code_info *ci;
    for (size_t i = 0; (ci = mc_catalog_entry(i)) != NULL; i++) {
        int code = mc_code_find(ci->name);
        if (code < 0 || !s->used[code]) continue;
        cJSON_AddItemToArray(rules, mc_sarif_rule_json((mc_code)code));
    }
    return rules;
}

/* The artifacts, copied from where they waited. */
static int copy_artifacts(mc_sarif *s)
{
    if (fflush(s->artifacts) != 0 || ferror(s->artifacts)) return -1;
    if (s->artifacts_mem) return fwrite(s->artifacts_mem, 1, s->artifacts_len, s->out) == s->artifacts_len ? 0 : -1;
    rewind(s->artifacts);
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, s->artifacts)) > 0) fwrite(buf, 1, n, s->out);
    return ferror(s->artifacts) ? -1 : 0;
}

/* GitHub maps absolute file: URIs to the repository through the checkout
 * path, which it reads from here (GH1006); a directory URI ends with '/'. */
static void add_working_directory(cJSON *inv)
{
    char *cwd = getcwd(NULL, 0);
    size_t len = cwd ? strlen(cwd) : 0;
    char *dir = cwd ? malloc(len + 2) : NULL;
    if (dir) {
        memcpy(dir, cwd, len);
        /* a directory URI ends in '/'; getcwd gives one only for the root */
        if (!len || cwd[len - 1] != '/') dir[len++] = '/';
        dir[len] = '\0';
    }
    char *uri = dir && dir[0] == '/' ? path_uri(dir) : NULL;
    if (uri) cJSON_AddStringToObject(cJSON_AddObjectToObject(inv, "workingDirectory"), "uri", uri);
    free(uri);
    free(dir);
    free(cwd);
}

/* What ends the run, once rules and exit code are known: tool, invocations
 * and properties, written as the rest of the run object. */
static cJSON *run_tail(const mc_sarif *s, const mc_run_summary *sum, const mc_options *opt, cJSON *config,
                       int exit_code)
{
    cJSON *run = cJSON_CreateObject();
    if (!run) return NULL;
    cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
    cJSON_AddStringToObject(driver, "name", "modelcheck");
    cJSON_AddStringToObject(driver, "version", MC_VERSION_STRING);
    cJSON_AddStringToObject(driver, "semanticVersion", MC_VERSION_STRING);
    cJSON_AddStringToObject(driver, "informationUri", MC_INFORMATION_URI);
    cJSON_AddItemToObject(driver, "rules", rules_json(s));
    cJSON *inv = cJSON_CreateObject();
    /* exit 3: some file could not be read, so the run did not do its job */
    cJSON_AddBoolToObject(inv, "executionSuccessful", exit_code != 3);
    cJSON_AddNumberToObject(inv, "exitCode", exit_code);
    if (s->flavour == MC_SARIF_GITHUB) add_working_directory(inv);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), inv);
    cJSON *props = cJSON_AddObjectToObject(run, "properties");
    cJSON *settings = mc_report_settings_json(opt);
    if (settings) cJSON_AddBoolToObject(settings, "werror", s->view.werror != 0);
    if (settings && config) cJSON_AddItemToObject(settings, "config", config), config = NULL;
    cJSON_Delete(config);
    cJSON_AddItemToObject(props, "settings", settings);
    cJSON_AddItemToObject(props, "summary", mc_report_summary_json(sum));
    return run;
}

int mc_sarif_end(mc_sarif *s, const mc_run_summary *sum, const mc_options *opt, cJSON *config, int exit_code)
{
    if (!s) {
        cJSON_Delete(config);
        return -1;
    }
    fputs("],\n\t\t\t\"artifacts\":\t[", s->out);
    int rc = copy_artifacts(s);
    fputs("]", s->out);
    cJSON *tail = run_tail(s, sum, opt, config, exit_code);
    /* "{" opens the tail object: a comma continues the run object instead */
    fputs(",", s->out);
    if (rc == 0) rc = tail ? mc_json_write(s->out, tail, 2, 1) : -1;
    fputs("]\n}\n", s->out);
    cJSON_Delete(tail);
    fclose(s->artifacts);
    free(s->artifacts_mem);
    free(s);
    return rc;
}
