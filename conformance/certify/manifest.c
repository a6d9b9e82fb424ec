/*
 * The certification cases, from the corpus manifest (reports/schema/
 * manifest.schema.json). A case of format "any" (empty file, text file) is
 * run once per format: every loader must reject it.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* realpath */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mc_certify.h"
#include "modelcheck.h"

const char *const mcc_format_names[MCC_FORMAT_COUNT] = {"aem", "semodel", "aamf", "e3d", "nlm"};

int mcc_format_index(const char *name)
{
    for (int i = 0; name && i < MCC_FORMAT_COUNT; i++)
        if (strcmp(name, mcc_format_names[i]) == 0) return i;
    return -1;
}

__attribute__((format(printf, 3, 4))) static int fail(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return -1;
}

const char *mcc_shown(const char *name, char *buf, size_t size)
{
    /* a cut falls between printable ASCII of an escape or inside a UTF-8
     * sequence: neither leaves a byte a terminal acts on */
    char *q = mc_text_quote(name);
    snprintf(buf, size, "%s", q ? q : "(name not shown: out of memory)");
    free(q);
    return buf;
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

static const char *string_of(const cJSON *o, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* The group a case scores in: its clause up to the first ':' (the spec and
 * section), so "aem.md, Vertex Section: weights sum to 1" counts under
 * "aem.md, Vertex Section". */
static char *group_of(const char *clause, int valid)
{
    if (valid) return strdup("valid files");
    if (!clause || !*clause) return strdup("(no clause)");
    const char *colon = strchr(clause, ':');
    size_t len = colon ? (size_t)(colon - clause) : strlen(clause);
    char *g = malloc(len + 1);
    if (g) memcpy(g, clause, len), g[len] = '\0';
    return g;
}

/* Why a case cannot be certified, or NULL: its args set a validator option
 * other than --format (a loader has none), e.g. --max-file-bytes. */
static char *skip_reason_of(const cJSON *args)
{
    char buf[512] = "";
    size_t used = 0;
    int n = cJSON_GetArraySize(args);
    for (int i = 0; i < n; i++) {
        const char *a = cJSON_GetStringValue(cJSON_GetArrayItem(args, i));
        if (!a) continue;
        if ((strcmp(a, "--format") == 0 || strcmp(a, "-f") == 0) && i + 1 < n) {
            i++; /* the loader is always told the case's format */
            continue;
        }
        int w = snprintf(buf + used, sizeof buf - used, "%s%s", used ? " " : "", a);
        if (w > 0 && (size_t)w < sizeof buf - used) used += (size_t)w;
    }
    if (!used) return NULL;
    size_t len = strlen(buf) + 80;
    char *why = malloc(len);
    if (why) snprintf(why, len, "needs the validator option(s) '%s', which a loader does not have", buf);
    return why;
}

static int add_errors(mcc_case *c, const cJSON *expected)
{
    int n = cJSON_GetArraySize(expected);
    c->errors = calloc((size_t)n + 1, sizeof *c->errors);
    if (!c->errors) return -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, expected) {
        const char *code = string_of(e, "code"), *sev = string_of(e, "severity");
        if (!code || !sev || strcmp(sev, "error") != 0) continue;
        if (!(c->errors[c->error_count] = strdup(code))) return -1;
        c->error_count++;
    }
    c->valid = c->error_count == 0;
    return 0;
}

static void case_free(mcc_case *c)
{
    free(c->file);
    free(c->path);
    free(c->layout);
    free(c->rule);
    free(c->clause);
    free(c->description);
    free(c->group);
    for (size_t i = 0; i < c->error_count; i++) free(c->errors[i]);
    free(c->errors);
    free(c->skip_reason);
}

static int fill_case(mcc_case *c, const cJSON *j, const char *absdir, const char *format)
{
    const char *file = string_of(j, "file");
    memset(c, 0, sizeof *c);
    c->format = format;
    size_t plen = strlen(absdir) + strlen(file) + 2;
    if (!(c->file = strdup(file)) || !(c->path = malloc(plen))) return -1;
    snprintf(c->path, plen, "%s/%s", absdir, file);
    c->layout = dup_or_empty(string_of(j, "layout"));
    c->rule = dup_or_empty(string_of(j, "rule"));
    c->clause = dup_or_empty(string_of(j, "clause"));
    c->description = dup_or_empty(string_of(j, "description"));
    if (!c->layout || !c->rule || !c->clause || !c->description) return -1;
    if (add_errors(c, cJSON_GetObjectItemCaseSensitive(j, "expected")) != 0) return -1;
    if (!(c->group = group_of(c->clause, c->valid))) return -1;
    c->skip_reason = skip_reason_of(cJSON_GetObjectItemCaseSensitive(j, "args"));
    return 0;
}

static int check_entry(const cJSON *j, const char *absdir, char *why, size_t why_size)
{
    const char *file = string_of(j, "file"), *format = string_of(j, "format");
    char shown[PATH_MAX];
    if (!file || !format || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "expected")))
        return fail(why, why_size, "a manifest case lacks file, format or expected");
    if (strcmp(format, "any") != 0 && mcc_format_index(format) < 0)
        return fail(why, why_size, "%s: unknown format '%s'", mcc_shown(file, shown, sizeof shown), format);
    if (file[0] == '/' || strstr(file, ".."))
        return fail(why, why_size, "%s: case paths must stay inside the corpus", mcc_shown(file, shown, sizeof shown));
    char path[PATH_MAX];
    struct stat st;
    int n = snprintf(path, sizeof path, "%s/%s", absdir, file);
    if (n < 0 || (size_t)n >= sizeof path) return fail(why, why_size, "%s: path too long", mcc_shown(file, shown, sizeof shown));
    if (stat(path, &st) != 0) return fail(why, why_size, "%s: %s", mcc_shown(path, shown, sizeof shown), strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail(why, why_size, "%s: not a regular file", mcc_shown(path, shown, sizeof shown));
    return 0;
}

/* Appends the runs of one manifest entry: one, or one per format for "any". */
static int add_entry(mcc_corpus *c, const cJSON *j, const char *absdir, int only)
{
    const char *format = string_of(j, "format");
    int fi = mcc_format_index(format);
    for (int g = 0; g < MCC_FORMAT_COUNT; g++) {
        if ((fi >= 0 && g != fi) || (only >= 0 && g != only)) continue;
        if (fill_case(&c->cases[c->count], j, absdir, mcc_format_names[g]) != 0) {
            case_free(&c->cases[c->count]);
            return -1;
        }
        c->count++;
    }
    return 0;
}

int mcc_corpus_load(const char *dir, const char *only_format, mcc_corpus *out, char *why,
                    size_t why_size)
{
    memset(out, 0, sizeof *out);
    int only = only_format ? mcc_format_index(only_format) : -1;
    if (only_format && only < 0) return fail(why, why_size, "unknown format '%s'", only_format);
    char absdir[PATH_MAX], path[PATH_MAX + 16], shown[PATH_MAX];
    if (!realpath(dir, absdir)) return fail(why, why_size, "%s: %s", mcc_shown(dir, shown, sizeof shown), strerror(errno));
    snprintf(path, sizeof path, "%s/manifest.json", absdir);
    size_t size = 0;
    char *text = (char *)mcc_read_file(path, &size);
    if (!text) return fail(why, why_size, "%s: cannot read", mcc_shown(path, shown, sizeof shown));
    cJSON *m = cJSON_Parse(text);
    free(text);
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(m, "cases");
    if (!cJSON_IsArray(cases)) {
        cJSON_Delete(m);
        return fail(why, why_size, "%s: not a corpus manifest (no \"cases\" array)", mcc_shown(path, shown, sizeof shown));
    }
    size_t n = (size_t)cJSON_GetArraySize(cases);
    out->cases = calloc(n * MCC_FORMAT_COUNT + 1, sizeof *out->cases);
    out->dir = strdup(dir);
    out->generator = dup_or_empty(string_of(m, "generator"));
    out->manifest_cases = n;
    int rc = out->cases && out->dir && out->generator ? 0 : fail(why, why_size, "out of memory");
    const cJSON *j;
    cJSON_ArrayForEach(j, cases) {
        if (rc) break;
        rc = check_entry(j, absdir, why, why_size);
        if (!rc && add_entry(out, j, absdir, only) != 0) rc = fail(why, why_size, "out of memory");
    }
    cJSON_Delete(m);
    if (!rc && out->count == 0) rc = fail(why, why_size, "%s: no case to run", mcc_shown(path, shown, sizeof shown));
    if (rc) mcc_corpus_free(out);
    return rc;
}

void mcc_corpus_free(mcc_corpus *c)
{
    for (size_t i = 0; i < c->count; i++) case_free(&c->cases[i]);
    free(c->cases);
    free(c->dir);
    free(c->generator);
    memset(c, 0, sizeof *c);
}
