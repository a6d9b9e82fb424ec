/*
 * .modelcheck.json: finding, reading, checking and applying the project
 * configuration (config.h). A file with any problem is refused whole, each
 * problem on one line naming the key path: no file is validated with a
 * half-read configuration.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <inttypes.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef MC_EXTERNAL_SHA256
#include "mc_validate.h" /* the WebAssembly build's SHA-256 (web/src/mc_cli_node.c) */
#else
#include <openssl/evp.h>
#endif

#include "codename.h"
#include "config.h"

#define MAX_CONFIG_BYTES (1u << 20)
#define MAX_GLOB_SEGMENTS 32
#define MAX_GLOB_STARS 8
#define MAX_OVERRIDES 64 /* a file's matches are a 64-bit mask */

/* The settings one level of the file can carry: the top level or one
 * override. Unset: severity -1, tolerance 0, has_max_issues 0. */
typedef struct rules {
    signed char severity[MC_CODE_COUNT];
    double weight, unit, quat;
    uint32_t max_issues;
    int has_max_issues;
} rules;

typedef struct globs {
    char **items;
    size_t count;
} globs;

typedef struct override {
    globs files;
    rules rules;
} override;

/* The options of one combination of matching overrides. */
typedef struct combination {
    uint64_t mask;
    mc_options options;
    mc_severity_map *severity;
    struct combination *next;
} combination;

struct mcc_config {
    char *display;       /* the path as named or found */
    char sha256[65];
    char *dir;           /* absolute directory of the file: globs are relative to it */
    char *cwd;
    rules top;
    uint64_t max_file_bytes;
    globs exclude;
    override *overrides;
    size_t override_count;
    unsigned char pinned_code[MC_CODE_COUNT];
    unsigned pinned;
    combination *combinations;
    mc_options base;           /* command line + top level (mcc_config_base) */
    mc_severity_map *base_map; /* base's severity, NULL until built */
};

/* ---- globs ---- */

static int segment_match(const char *p, size_t plen, const char *s, size_t slen)
{
    char pat[PATH_MAX], str[PATH_MAX];
    if (plen >= sizeof pat || slen >= sizeof str) return 0;
    memcpy(pat, p, plen);
    pat[plen] = '\0';
    memcpy(str, s, slen);
    str[slen] = '\0';
    return fnmatch(pat, str, 0) == 0;
}

static size_t seg_len(const char *s)
{
    const char *e = strchr(s, '/');
    return e ? (size_t)(e - s) : strlen(s);
}

static const char *next_segment(const char *s)
{
    size_t n = seg_len(s);
    return s[n] ? s + n + 1 : s + n;
}

/* Segment by segment, "**" matching any run of segments: the wildcard
 * algorithm with one backtracking point (the last "**"), so time is at most
 * (glob segments) x (path segments), whatever the glob. */
static int match_from(const char *p, const char *s)
{
    const char *star_p = NULL, *star_s = NULL;
    for (;;) {
        size_t plen = seg_len(p);
        if (*p && plen == 2 && p[0] == '*' && p[1] == '*') {
            star_p = p = next_segment(p);
            star_s = s;
            continue;
        }
        if (!*p && !*s) return 1;
        if (*p && *s && segment_match(p, plen, s, seg_len(s))) {
            p = next_segment(p);
            s = next_segment(s);
            continue;
        }
        if (!star_p || !*star_s) return 0;
        s = star_s = next_segment(star_s);
        p = star_p;
    }
}

int mcc_glob_match(const char *glob, const char *relpath)
{
    if (!strchr(glob, '/')) {
        const char *base = strrchr(relpath, '/');
        return match_from(glob, base ? base + 1 : relpath);
    }
    return match_from(glob, relpath);
}

/* NULL when the glob is usable, else why not. dirs: an exclude glob, which
 * may end with '/' (a directory only, as in .gitignore). */
static const char *glob_problem(const char *g, int dirs)
{
    if (!*g) return "empty glob";
    if (g[0] == '/') return "absolute glob (globs are relative to the config file's directory)";
    if (g[strlen(g) - 1] == '/' && !dirs) return "glob ends with '/' (write dir/** for everything under dir)";
    size_t segments = 0, stars = 0;
    for (const char *s = g; *s;) {
        size_t n = seg_len(s);
        if (n == 0) return "empty path segment ('//')";
        if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return "'.' or '..' segment";
        if (n == 2 && s[0] == '*' && s[1] == '*') stars++;
        else
            for (size_t i = 0; i + 1 < n; i++)
                if (s[i] == '*' && s[i + 1] == '*') return "'**' must be a whole path segment";
        int open = 0;
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\\' && i + 1 < n) i++;
            else if (s[i] == '[') open = 1;
            else if (s[i] == ']') open = 0;
        }
        if (open) return "unclosed '['";
        segments++;
        s += n;
        if (*s == '/') s++;
    }
    if (segments > MAX_GLOB_SEGMENTS) return "more than 32 path segments";
    if (stars > MAX_GLOB_STARS) return "more than 8 '**' segments";
    return NULL;
}

/* ---- loading ---- */

typedef struct loader {
    const char *display;
    FILE *err;
    int problems;
} loader;

__attribute__((format(printf, 3, 4))) static void bad(loader *ld, const char *key, const char *fmt, ...)
{
    va_list ap;
    fprintf(ld->err, "modelcheck: %s: %s%s", ld->display, key, *key ? ": " : "");
    va_start(ap, fmt);
    vfprintf(ld->err, fmt, ap);
    va_end(ap);
    fputc('\n', ld->err);
    ld->problems++;
}

static void rules_clear(rules *r)
{
    memset(r, 0, sizeof *r);
    memset(r->severity, -1, sizeof r->severity);
}

static int code_of(loader *ld, const char *key, const char *name)
{
    int code = mc_code_find(name);
    const char *near = code < 0 ? mcc_code_nearest(name) : NULL;
    if (code < 0 && near) bad(ld, key, "unknown issue code '%s' (did you mean %s?)", name, near);
    else if (code < 0) bad(ld, key, "unknown issue code '%s' (see modelcheck --list-codes)", name);
    return code;
}

static void read_severity(loader *ld, const char *key, const cJSON *v, rules *r)
{
    if (!cJSON_IsObject(v)) {
        bad(ld, key, "expected an object of CODE: severity");
        return;
    }
    char sub[256];
    for (const cJSON *e = v->child; e; e = e->next) {
        snprintf(sub, sizeof sub, "%s.%s", key, e->string);
        int code = code_of(ld, sub, e->string);
        int sev = cJSON_IsString(e) ? mc_severity_parse(e->valuestring) : -1;
        if (sev < 0) bad(ld, sub, "expected one of \"error\", \"warning\", \"info\", \"hint\", \"ignore\"");
        if (code >= 0 && sev >= 0) r->severity[code] = (signed char)sev;
    }
}

static void read_ignore(loader *ld, const char *key, const cJSON *v, rules *r)
{
    if (!cJSON_IsArray(v)) {
        bad(ld, key, "expected an array of issue codes");
        return;
    }
    char sub[256];
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        snprintf(sub, sizeof sub, "%s[%d]", key, i);
        if (!cJSON_IsString(e)) {
            bad(ld, sub, "expected an issue code (a string)");
            continue;
        }
        int code = code_of(ld, sub, e->valuestring);
        if (code >= 0) r->severity[code] = MC_SEVERITY_IGNORE;
    }
}

/* A tolerance of 0 is an exact comparison (mc_options spells it
 * MC_TOLERANCE_EXACT). */
static void read_tolerances(loader *ld, const char *key, const cJSON *v, rules *r)
{
    static const struct {
        const char *name;
        size_t offset;
    } fields[] = {{"weight_sum", offsetof(rules, weight)},
                  {"unit", offsetof(rules, unit)},
                  {"quaternion", offsetof(rules, quat)}};
    if (!cJSON_IsObject(v)) {
        bad(ld, key, "expected an object with weight_sum, unit, quaternion");
        return;
    }
    char sub[256];
    for (const cJSON *e = v->child; e; e = e->next) {
        snprintf(sub, sizeof sub, "%s.%s", key, e->string);
        size_t k = 0;
        while (k < sizeof fields / sizeof fields[0] && strcmp(fields[k].name, e->string) != 0) k++;
        if (k == sizeof fields / sizeof fields[0]) {
            bad(ld, sub, "unknown key (expected weight_sum, unit or quaternion)");
            continue;
        }
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0.0) || e->valuedouble > 1e30) {
            bad(ld, sub, "expected a number from 0 to 1e30");
            continue;
        }
        double t = e->valuedouble == 0.0 ? MC_TOLERANCE_EXACT : e->valuedouble;
        memcpy((char *)r + fields[k].offset, &t, sizeof t);
    }
}

static int read_count(loader *ld, const char *key, const cJSON *v, double lo, double hi, uint64_t *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi) {
        bad(ld, key, "expected an integer from %.0f to %.0f", lo, hi);
        return -1;
    }
    *out = (uint64_t)v->valuedouble;
    return 0;
}

static void read_max_issues(loader *ld, const char *key, const cJSON *v, rules *r)
{
    uint64_t n;
    if (read_count(ld, key, v, 0, 1000000, &n) == 0) {
        r->max_issues = n ? (uint32_t)n : MC_INSTANCES_NONE;
        r->has_max_issues = 1;
    }
}

static void read_globs(loader *ld, const char *key, const cJSON *v, int dirs, globs *out)
{
    const cJSON *one = cJSON_IsString(v) ? v : NULL;
    if (!one && !cJSON_IsArray(v)) {
        bad(ld, key, "expected a glob or an array of globs");
        return;
    }
    size_t n = one ? 1 : (size_t)cJSON_GetArraySize(v);
    out->items = calloc(n ? n : 1, sizeof *out->items);
    if (!out->items) {
        bad(ld, key, "out of memory");
        return;
    }
    char sub[256];
    size_t i = 0;
    for (const cJSON *e = one ? one : v->child; e && i < n; e = one ? NULL : e->next, i++) {
        if (one) snprintf(sub, sizeof sub, "%s", key);
        else snprintf(sub, sizeof sub, "%s[%zu]", key, i);
        const char *why = cJSON_IsString(e) ? glob_problem(e->valuestring, dirs) : "expected a glob (a string)";
        if (why) {
            bad(ld, sub, "%s", why);
            continue;
        }
        if (!(out->items[out->count] = strdup(e->valuestring))) bad(ld, sub, "out of memory");
        else out->count++;
    }
}

static void globs_free(globs *g)
{
    for (size_t i = 0; i < g->count; i++) free(g->items[i]);
    free(g->items);
}

/* The keys a level may hold: the top level has all of them, an override
 * the per-file ones ("files" required). */
static int read_rule_key(loader *ld, const char *key, const cJSON *e, rules *r)
{
    if (strcmp(e->string, "severity") == 0) read_severity(ld, key, e, r);
    else if (strcmp(e->string, "ignore") == 0) read_ignore(ld, key, e, r);
    else if (strcmp(e->string, "tolerances") == 0) read_tolerances(ld, key, e, r);
    else if (strcmp(e->string, "max_issues") == 0) read_max_issues(ld, key, e, r);
    else return 0;
    return 1;
}

static void read_override(loader *ld, const char *key, const cJSON *v, override *o)
{
    rules_clear(&o->rules);
    if (!cJSON_IsObject(v)) {
        bad(ld, key, "expected an object with \"files\" and severity, ignore, tolerances or max_issues");
        return;
    }
    char sub[256];
    for (const cJSON *e = v->child; e; e = e->next) {
        snprintf(sub, sizeof sub, "%s.%s", key, e->string);
        if (strcmp(e->string, "files") == 0) read_globs(ld, sub, e, 0, &o->files);
        else if (!read_rule_key(ld, sub, e, &o->rules))
            bad(ld, sub, "unknown key (expected files, severity, ignore, tolerances or max_issues)");
    }
    if (!cJSON_GetObjectItemCaseSensitive(v, "files")) bad(ld, key, "missing \"files\"");
}

static void read_overrides(loader *ld, const cJSON *v, mcc_config *cfg)
{
    if (!cJSON_IsArray(v)) {
        bad(ld, "overrides", "expected an array of objects");
        return;
    }
    size_t n = (size_t)cJSON_GetArraySize(v);
    if (n > MAX_OVERRIDES) {
        bad(ld, "overrides", "more than %d overrides", MAX_OVERRIDES);
        return;
    }
    if (!(cfg->overrides = calloc(n ? n : 1, sizeof *cfg->overrides))) {
        bad(ld, "overrides", "out of memory");
        return;
    }
    char key[64];
    for (const cJSON *e = v->child; e && cfg->override_count < n; e = e->next) {
        snprintf(key, sizeof key, "overrides[%zu]", cfg->override_count);
        read_override(ld, key, e, &cfg->overrides[cfg->override_count++]);
    }
}

static void read_document(loader *ld, const cJSON *doc, mcc_config *cfg)
{
    if (!cJSON_IsObject(doc)) {
        bad(ld, "", "expected a JSON object at the top level");
        return;
    }
    for (const cJSON *e = doc->child; e; e = e->next) {
        const char *k = e->string;
        if (read_rule_key(ld, k, e, &cfg->top)) continue;
        if (strcmp(k, "$schema") == 0) {
            if (!cJSON_IsString(e)) bad(ld, k, "expected a string");
        } else if (strcmp(k, "max_file_bytes") == 0) {
            read_count(ld, k, e, 1, 9007199254740992.0, &cfg->max_file_bytes);
        } else if (strcmp(k, "exclude") == 0) {
            read_globs(ld, k, e, 1, &cfg->exclude);
        } else if (strcmp(k, "overrides") == 0) {
            read_overrides(ld, e, cfg);
        } else {
            bad(ld, k, "unknown key (expected severity, ignore, tolerances, max_issues, max_file_bytes, "
                       "exclude, overrides or $schema)");
        }
    }
}

/* ---- duplicate keys ---- */

/* RFC 8259 leaves duplicate names undefined and cJSON keeps them all as
 * siblings, so which one "wins" would depend on who reads the file: a
 * duplicate is refused like any other bad key. Sorting the names of one
 * object finds them in n log n (a 1 MiB file can hold ~10^5 keys). */
typedef struct named {
    const char *name;
    size_t pos;
} named;

static int named_cmp(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static void check_duplicates(loader *ld, const char *key, const cJSON *v);

/* Marks in dup[] each member of the object that repeats an earlier name. */
static int mark_duplicates(const cJSON *obj, size_t n, unsigned char *dup)
{
    named *names = malloc(n * sizeof *names);
    if (!names) return -1;
    size_t i = 0;
    for (const cJSON *e = obj->child; e && i < n; e = e->next, i++) names[i] = (named){e->string, i};
    qsort(names, n, sizeof *names, named_cmp);
    for (i = 1; i < n; i++)
        if (strcmp(names[i - 1].name, names[i].name) == 0) dup[names[i].pos] = 1;
    free(names);
    return 0;
}

static void check_object_keys(loader *ld, const char *key, const cJSON *obj)
{
    size_t n = (size_t)cJSON_GetArraySize(obj), i = 0;
    unsigned char *dup = calloc(n ? n : 1, 1);
    if (!dup || mark_duplicates(obj, n, dup) != 0) {
        free(dup);
        bad(ld, key, "out of memory");
        return;
    }
    char sub[256];
    for (const cJSON *e = obj->child; e && i < n; e = e->next, i++) {
        snprintf(sub, sizeof sub, "%s%s%s", key, *key ? "." : "", e->string);
        if (dup[i]) bad(ld, sub, "duplicate key (each key may appear once in an object)");
        else check_duplicates(ld, sub, e);
    }
    free(dup);
}

static void check_duplicates(loader *ld, const char *key, const cJSON *v)
{
    if (cJSON_IsObject(v)) {
        check_object_keys(ld, key, v);
    } else if (cJSON_IsArray(v)) {
        char sub[256];
        size_t i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", key, i);
            check_duplicates(ld, sub, e);
        }
    }
}

static char *find_config_from(const char *start);

/* The first .modelcheck.json from the working directory upwards. */
static char *find_config(void)
{
    return find_config_from(NULL);
}

/* The first .modelcheck.json from start (absolute; NULL: the working
 * directory) upwards, stopping after the repository root (a directory
 * holding .git). */
static char *find_config_from(const char *start)
{
    char dir[PATH_MAX], file[PATH_MAX + sizeof "/" MCC_CONFIG_NAME];
    if (start) {
        if (strlen(start) >= sizeof dir || start[0] != '/') return NULL;
        strcpy(dir, start);
    } else if (!getcwd(dir, sizeof dir)) {
        return NULL;
    }
    for (;;) {
        struct stat st;
        snprintf(file, sizeof file, "%s/%s", strcmp(dir, "/") ? dir : "", MCC_CONFIG_NAME);
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode)) return strdup(file);
        snprintf(file, sizeof file, "%s/.git", strcmp(dir, "/") ? dir : "");
        if (lstat(file, &st) == 0 || strcmp(dir, "/") == 0) return NULL;
        char *slash = strrchr(dir, '/');
        if (slash == dir) dir[1] = '\0';
        else *slash = '\0';
    }
}

static char *read_all(loader *ld, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        bad(ld, "", "cannot open: %s", strerror(errno));
        return NULL;
    }
    char *buf = malloc(MAX_CONFIG_BYTES + 1);
    size_t n = buf ? fread(buf, 1, MAX_CONFIG_BYTES + 1, f) : 0;
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed || n > MAX_CONFIG_BYTES) {
        bad(ld, "", failed ? "cannot read" : "larger than 1 MiB");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void sha256_hex(const char *data, size_t len, char out[65])
{
    unsigned char md[32];
    out[0] = '\0';
#ifdef MC_EXTERNAL_SHA256
    if (mc_platform_sha256((const uint8_t *)data, len, md) != 0) return;
#else
    unsigned int mdlen = 0;
    if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1 || mdlen != 32) return;
#endif
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
}

static void report_json_error(loader *ld, const char *text, size_t len)
{
    const char *at = cJSON_GetErrorPtr();
    size_t line = 1, col = 1;
    if (at && at >= text && at <= text + len)
        for (const char *p = text; p < at; p++) {
            if (*p == '\n') line++, col = 1;
            else col++;
        }
    if (memchr(text, '\0', len)) bad(ld, "", "not JSON text (NUL byte)");
    else bad(ld, "", "invalid JSON near line %zu, column %zu", line, col);
}

static char *directory_of(const char *path)
{
    char *copy = strdup(path);
    if (!copy) return NULL;
    char *slash = strrchr(copy, '/');
    if (!slash) strcpy(copy, ".");
    else if (slash == copy) copy[1] = '\0';
    else *slash = '\0';
    char *abs = realpath(copy, NULL);
    free(copy);
    return abs;
}

int mcc_config_load(const char *path, mcc_config **out, FILE *err)
{
    *out = NULL;
    char *found = path ? NULL : find_config();
    if (!path && !found) return 0;
    loader ld = {path ? path : found, err, 0};
    mcc_config *cfg = calloc(1, sizeof *cfg);
    size_t len = 0;
    char *text = cfg ? read_all(&ld, ld.display, &len) : NULL;
    if (!cfg) bad(&ld, "", "out of memory");
    cJSON *doc = NULL;
    if (text) {
        doc = cJSON_ParseWithLength(text, len);
        if (!doc) report_json_error(&ld, text, len);
    }
    if (doc) {
        rules_clear(&cfg->top);
        /* with a duplicate, reading would apply both copies (or leak the
         * first "overrides"): the duplicates are all that is reported */
        check_duplicates(&ld, "", doc);
        if (!ld.problems) read_document(&ld, doc, cfg);
        sha256_hex(text, len, cfg->sha256);
        cfg->display = strdup(ld.display);
        cfg->dir = directory_of(ld.display);
        cfg->cwd = getcwd(NULL, 0);
        if (!cfg->display || !cfg->dir || !cfg->cwd) bad(&ld, "", "cannot resolve the file's directory");
    }
    cJSON_Delete(doc);
    free(text);
    free(found);
    if (ld.problems) {
        mcc_config_free(cfg);
        return -1;
    }
    *out = cfg;
    return 0;
}

void mcc_config_free(mcc_config *cfg)
{
    if (!cfg) return;
    for (combination *k = cfg->combinations, *next; k; k = next) {
        next = k->next;
        mc_severity_map_free(k->severity);
        free(k);
    }
    for (size_t i = 0; i < cfg->override_count; i++) globs_free(&cfg->overrides[i].files);
    free(cfg->overrides);
    globs_free(&cfg->exclude);
    mc_severity_map_free(cfg->base_map);
    free(cfg->display);
    free(cfg->dir);
    free(cfg->cwd);
    free(cfg);
}

/* ---- applying ---- */

/* Applies r to options and map, skipping what the command line pinned
 * (pinned NULL: nothing is). */
static void apply_rules(const rules *r, mc_options *o, mc_severity_map *map, const mcc_config *pinned)
{
    for (int i = 0; i < MC_CODE_COUNT; i++)
        if (r->severity[i] >= 0 && !(pinned && pinned->pinned_code[i]))
            mc_severity_map_set(map, (mc_code)i, (mc_severity)r->severity[i]);
    unsigned pin = pinned ? pinned->pinned : 0;
    if (r->weight != 0.0 && !(pin & MCC_PIN_WEIGHT)) o->weight_sum_tolerance = r->weight;
    if (r->unit != 0.0 && !(pin & MCC_PIN_UNIT)) o->unit_tolerance = r->unit;
    if (r->quat != 0.0 && !(pin & MCC_PIN_QUAT)) o->quaternion_tolerance = r->quat;
    if (r->has_max_issues && !(pin & MCC_PIN_MAX_ISSUES)) o->max_instances = r->max_issues;
}

void mcc_config_apply(const mcc_config *cfg, mc_options *options, mc_severity_map *map)
{
    if (!cfg) return;
    apply_rules(&cfg->top, options, map, cfg);
    if (cfg->max_file_bytes && !(cfg->pinned & MCC_PIN_MAX_BYTES)) options->max_file_bytes = cfg->max_file_bytes;
}

const mc_options *mcc_config_base(mcc_config *cfg, const mc_options *cli)
{
    if (!cfg) return cli;
    if (!cfg->base_map) {
        if (!(cfg->base_map = mc_severity_map_copy(cli->severity))) return NULL;
        cfg->base = *cli;
        cfg->base.severity = cfg->base_map;
        mcc_config_apply(cfg, &cfg->base, cfg->base_map);
    }
    return &cfg->base;
}

const char *mcc_config_path(const mcc_config *cfg)
{
    return cfg ? cfg->display : NULL;
}

void mcc_config_pin_code(mcc_config *cfg, mc_code code)
{
    if (cfg && (unsigned)code < MC_CODE_COUNT) cfg->pinned_code[code] = 1;
}

void mcc_config_pin(mcc_config *cfg, unsigned what)
{
    if (cfg) cfg->pinned |= what;
}

/* path relative to the config's directory, lexically ("a/./b/../c" is
 * "a/c"); NULL when path is outside it. */
static char *relative_path(const mcc_config *cfg, const char *path)
{
    size_t need = strlen(cfg->cwd) + strlen(path) + 2;
    char *abs = malloc(need);
    if (!abs) return NULL;
    if (path[0] == '/') snprintf(abs, need, "%s", path);
    else snprintf(abs, need, "%s/%s", cfg->cwd, path);
    /* normalise in place: drop "." and empty segments, ".." pops one */
    char *w = abs;
    for (char *r = abs; *r;) {
        while (*r == '/') r++;
        size_t n = seg_len(r);
        if (n == 0) break;
        if (n == 1 && r[0] == '.') {
        } else if (n == 2 && r[0] == '.' && r[1] == '.') {
            while (w > abs && *--w != '/') {
            }
        } else {
            *w++ = '/';
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = '\0';
    size_t dl = strlen(cfg->dir);
    const char *rel = NULL;
    if (strcmp(cfg->dir, "/") == 0) rel = abs[0] ? abs + 1 : abs;
    else if (strncmp(abs, cfg->dir, dl) == 0 && abs[dl] == '/') rel = abs + dl + 1;
    char *result = rel ? strdup(rel) : NULL;
    free(abs);
    return result;
}

static int any_match(const globs *g, const char *rel)
{
    for (size_t i = 0; i < g->count; i++)
        if (mcc_glob_match(g->items[i], rel)) return 1;
    return 0;
}

/* An exclude glob against rel, a file (dir 0) or one of its directories, as
 * .gitignore matches: "name/" names a directory only, and "name/" or
 * "name" without another '/' names one at any depth. */
static int exclude_match(const char *glob, const char *rel, int dir)
{
    size_t n = strlen(glob);
    if (glob[n - 1] != '/') return mcc_glob_match(glob, rel);
    if (!dir || n > PATH_MAX) return 0;
    char bare[PATH_MAX];
    memcpy(bare, glob, n - 1);
    bare[n - 1] = '\0';
    return mcc_glob_match(bare, rel);
}

/* rel or one of the directories on its way (rel is cut at each '/' in
 * turn, and restored): a directory excluded excludes all below it. */
static int excluded_rel(const globs *g, char *rel)
{
    for (char *slash = rel;; slash++) {
        slash = strchr(slash, '/');
        if (slash) *slash = '\0';
        int hit = 0;
        for (size_t i = 0; i < g->count && !hit; i++) hit = exclude_match(g->items[i], rel, slash != NULL);
        if (slash) *slash = '/';
        if (hit) return 1;
        if (!slash) return 0;
    }
}

int mcc_config_excluded(const mcc_config *cfg, const char *path)
{
    if (!cfg || !cfg->exclude.count || strcmp(path, "-") == 0) return 0;
    char *rel = relative_path(cfg, path);
    int hit = rel && excluded_rel(&cfg->exclude, rel);
    free(rel);
    return hit;
}

static const mc_options *combination_for(mcc_config *cfg, uint64_t mask, const mc_options *base)
{
    for (combination *k = cfg->combinations; k; k = k->next)
        if (k->mask == mask) return &k->options;
    combination *k = calloc(1, sizeof *k);
    if (!k || !(k->severity = mc_severity_map_copy(base->severity))) {
        free(k);
        return NULL;
    }
    k->mask = mask;
    k->options = *base;
    k->options.severity = k->severity;
    for (size_t i = 0; i < cfg->override_count; i++)
        if (mask >> i & 1) apply_rules(&cfg->overrides[i].rules, &k->options, k->severity, cfg);
    k->next = cfg->combinations;
    cfg->combinations = k;
    return &k->options;
}

const mc_options *mcc_config_options_for(mcc_config *cfg, const char *path, const mc_options *base)
{
    if (!cfg || !cfg->override_count || strcmp(path, "-") == 0) return base;
    char *rel = relative_path(cfg, path);
    if (!rel) return base;
    uint64_t mask = 0;
    for (size_t i = 0; i < cfg->override_count; i++)
        if (any_match(&cfg->overrides[i].files, rel)) mask |= UINT64_C(1) << i;
    free(rel);
    return mask ? combination_for(cfg, mask, base) : base;
}

cJSON *mcc_config_json(const mcc_config *cfg)
{
    if (!cfg) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", cfg->display);
    cJSON_AddStringToObject(o, "sha256", cfg->sha256);
    return o;
}

/* ---- one configuration per file (issue 26) ---- */

typedef struct entry {
    char *found;       /* the file's absolute path */
    mcc_config *cfg;   /* NULL when it was refused */
    int used;
} entry;

struct mcc_config_set {
    int mode;          /* MCC_DISCOVER, MCC_EXPLICIT, MCC_NONE */
    char *explicit_path;
    const unsigned char *pinned_code;
    unsigned pinned;
    entry *entries;
    size_t count;
    char *last_dir;    /* the directory looked up last, and its entry */
    entry *last;       /* NULL: no configuration there */
    uint64_t order;
};

mcc_config_set *mcc_config_set_new(int mode, const char *explicit_path, const unsigned char *pinned_code,
                                   unsigned pinned)
{
    mcc_config_set *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->mode = mode;
    s->pinned_code = pinned_code;
    s->pinned = pinned;
    if (explicit_path && !(s->explicit_path = strdup(explicit_path))) {
        free(s);
        return NULL;
    }
    return s;
}

void mcc_config_set_free(mcc_config_set *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->count; i++) {
        free(s->entries[i].found);
        mcc_config_free(s->entries[i].cfg);
    }
    free(s->entries);
    free(s->explicit_path);
    free(s->last_dir);
    free(s);
}

/* The entry of a configuration file, loading it the first time (its
 * problems go to err then, once). */
static entry *entry_for(mcc_config_set *s, const char *found, FILE *err)
{
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->entries[i].found, found) == 0) return &s->entries[i];
    if (s->count == SIZE_MAX / sizeof *s->entries) return NULL;
    entry *grown = realloc(s->entries, (s->count + 1) * sizeof *grown);
    if (!grown) return NULL;
    s->entries = grown;
    /* the last lookup's pointer moved with the array */
    s->last = NULL;
    free(s->last_dir);
    s->last_dir = NULL;
    entry *e = &s->entries[s->count];
    memset(e, 0, sizeof *e);
    if (!(e->found = strdup(found))) return NULL;
    s->count++;
    if (mcc_config_load(found, &e->cfg, err) != 0) e->cfg = NULL;
    if (e->cfg) {
        for (int i = 0; i < MC_CODE_COUNT; i++)
            if (s->pinned_code && s->pinned_code[i]) mcc_config_pin_code(e->cfg, (mc_code)i);
        mcc_config_pin(e->cfg, s->pinned);
    }
    return e;
}

/* The absolute directory whose configuration governs path: path itself
 * when it is a directory, else the one holding it; NULL when it cannot be
 * resolved (a missing file's directory may still be). */
static char *governing_dir(const char *path, int is_dir)
{
    if (is_dir) return realpath(path, NULL);
    return directory_of(path);
}

int mcc_config_set_lookup(mcc_config_set *s, const char *path, int is_dir, FILE *err, mcc_config **out)
{
    *out = NULL;
    if (!s || s->mode == MCC_NONE) return 0;
    entry *e = NULL;
    if (s->mode == MCC_EXPLICIT) {
        if (!(e = entry_for(s, s->explicit_path, err))) return -2;
    } else {
        char *dir = strcmp(path, "-") == 0 ? getcwd(NULL, 0) : governing_dir(path, is_dir);
        if (!dir) dir = getcwd(NULL, 0);
        if (!dir) return -2;
        if (s->last_dir && strcmp(s->last_dir, dir) == 0) {
            e = s->last;
            free(dir);
        } else {
            char *found = find_config_from(dir);
            e = found ? entry_for(s, found, err) : NULL;
            int nomem = found && !e;
            free(found);
            if (nomem) {
                free(dir);
                return -2;
            }
            free(s->last_dir);
            s->last_dir = dir;
            s->last = e;
        }
    }
    if (!e) return 0;
    if (!e->cfg) return -1;
    if (!e->used) e->used = (int)++s->order;
    *out = e->cfg;
    return 0;
}

size_t mcc_config_set_used(const mcc_config_set *s, const char **paths, size_t max)
{
    size_t n = 0;
    if (!s) return 0;
    /* in the order of first use */
    for (uint64_t k = 1; k <= s->order && n < max; k++)
        for (size_t i = 0; i < s->count; i++)
            if (s->entries[i].cfg && (uint64_t)s->entries[i].used == k) paths[n++] = s->entries[i].found;
    return n;
}

/* ---- --show-config ---- */

static const char *layer_name(const mcc_config *cfg, int layer, char *buf, size_t size)
{
    if (layer == -2) return "command line";
    if (layer == -3) return "default";
    if (layer == -1) snprintf(buf, size, "%s: top level", cfg->display);
    else snprintf(buf, size, "%s: overrides[%d]", cfg->display, layer);
    return buf;
}

/* Which layer set a value last: an override (its index), the top level
 * (-1), the command line (-2) or none (-3). */
static int origin_of(const mcc_config *cfg, uint64_t mask, int pinned, int (*set)(const rules *, int), int arg)
{
    if (pinned) return -2;
    if (!cfg) return -3;
    for (size_t i = cfg->override_count; i-- > 0;)
        if ((mask >> i & 1) && set(&cfg->overrides[i].rules, arg)) return (int)i;
    return set(&cfg->top, arg) ? -1 : -3;
}

static int sets_severity(const rules *r, int code) { return r->severity[code] >= 0; }
static int sets_weight(const rules *r, int unused) { (void)unused; return r->weight != 0.0; }
static int sets_unit(const rules *r, int unused) { (void)unused; return r->unit != 0.0; }
static int sets_quat(const rules *r, int unused) { (void)unused; return r->quat != 0.0; }
static int sets_max_issues(const rules *r, int unused) { (void)unused; return r->has_max_issues; }

static uint64_t match_mask(const mcc_config *cfg, const char *path)
{
    uint64_t mask = 0;
    if (!cfg || strcmp(path, "-") == 0) return 0;
    char *rel = relative_path(cfg, path);
    for (size_t i = 0; rel && i < cfg->override_count; i++)
        if (any_match(&cfg->overrides[i].files, rel)) mask |= UINT64_C(1) << i;
    free(rel);
    return mask;
}

int mcc_config_show(mcc_config *cfg, const char *path, const mc_options *cli, FILE *out)
{
    const mc_options *base = mcc_config_base(cfg, cli);
    const mc_options *o = base ? mcc_config_options_for(cfg, path, base) : NULL;
    if (!o) return -1;
    mc_options e;
    mc_options_effective(o, &e);
    uint64_t mask = match_mask(cfg, path);
    unsigned pin = cfg ? cfg->pinned : 0;
    char buf[PATH_MAX + 64];
    fprintf(out, "file: %s\n", path);
    if (cfg) fprintf(out, "config: %s (sha256 %s)\n", cfg->display, cfg->sha256);
    else fputs("config: none\n", out);
    fprintf(out, "excluded: %s\n", mcc_config_excluded(cfg, path) ? "yes (exclude)" : "no");
    fprintf(out, "max_issues: %" PRIu32 " (%s)\n", e.max_instances,
            layer_name(cfg, origin_of(cfg, mask, pin & MCC_PIN_MAX_ISSUES, sets_max_issues, 0), buf, sizeof buf));
    fprintf(out, "tolerances.weight_sum: %g (%s)\n", e.weight_sum_tolerance,
            layer_name(cfg, origin_of(cfg, mask, pin & MCC_PIN_WEIGHT, sets_weight, 0), buf, sizeof buf));
    fprintf(out, "tolerances.unit: %g (%s)\n", e.unit_tolerance,
            layer_name(cfg, origin_of(cfg, mask, pin & MCC_PIN_UNIT, sets_unit, 0), buf, sizeof buf));
    fprintf(out, "tolerances.quaternion: %g (%s)\n", e.quaternion_tolerance,
            layer_name(cfg, origin_of(cfg, mask, pin & MCC_PIN_QUAT, sets_quat, 0), buf, sizeof buf));
    int from_file = cfg && cfg->max_file_bytes && !(pin & MCC_PIN_MAX_BYTES);
    fprintf(out, "max_file_bytes: %" PRIu64 " (%s)\n", e.max_file_bytes,
            pin & MCC_PIN_MAX_BYTES ? "command line" : from_file ? layer_name(cfg, -1, buf, sizeof buf) : "default");
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        const mc_code_info *ci = mc_code_get((mc_code)i);
        mc_severity sev = mc_severity_map_get(o->severity, (mc_code)i);
        int layer = origin_of(cfg, mask, cfg && cfg->pinned_code[i], sets_severity, i);
        if (sev == ci->severity && layer == -3) continue;
        fprintf(out, "severity.%s: %s (%s; catalog default %s)\n", ci->name, mc_severity_name(sev),
                layer_name(cfg, layer, buf, sizeof buf), mc_severity_name(ci->severity));
    }
    return 0;
}
