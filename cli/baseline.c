/* --baseline: a previous JSON report's issues accepted (baseline.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "baseline.h"

#define MAX_BASELINE_BYTES (UINT64_C(1) << 31)

typedef struct file_entry {
    const char *path;
    const char *sha256; /* "" when the report had none */
    const cJSON *issues;
} file_entry;

struct mc_baseline {
    cJSON *doc;
    file_entry *by_path, *by_sha;
    size_t count;
};

static int by_path_cmp(const void *a, const void *b)
{
    return strcmp(((const file_entry *)a)->path, ((const file_entry *)b)->path);
}

static int by_sha_cmp(const void *a, const void *b)
{
    return strcmp(((const file_entry *)a)->sha256, ((const file_entry *)b)->sha256);
}

static char *read_file(const char *file, size_t *len, FILE *err)
{
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(err, "modelcheck: %s: cannot open the baseline: %s\n", file, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || ferror(f)) break;
        char *grown = cap <= MAX_BASELINE_BYTES / 2 ? realloc(buf, cap * 2) : NULL;
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed) {
        fprintf(err, "modelcheck: %s: cannot read the baseline (or it is larger than 2 GiB)\n", file);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static const char *string_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int mc_baseline_load(const char *file, mc_baseline **out, FILE *err)
{
    *out = NULL;
    size_t len = 0;
    char *text = read_file(file, &len, err);
    if (!text) return -1;
    cJSON *doc = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(doc, "files");
    if (!cJSON_IsArray(files)) {
        fprintf(err, "modelcheck: %s: not a modelcheck JSON report (no \"files\" array)\n", file);
        cJSON_Delete(doc);
        return -1;
    }
    mc_baseline *b = calloc(1, sizeof *b);
    size_t n = (size_t)cJSON_GetArraySize(files);
    if (b && n) {
        b->by_path = calloc(n, sizeof *b->by_path);
        b->by_sha = calloc(n, sizeof *b->by_sha);
    }
    if (!b || (n && (!b->by_path || !b->by_sha))) {
        fprintf(err, "modelcheck: %s: out of memory reading the baseline\n", file);
        if (b) free(b->by_path), free(b->by_sha);
        free(b);
        cJSON_Delete(doc);
        return -1;
    }
    b->doc = doc;
    size_t i = 0;
    for (const cJSON *f = files->child; f && i < n; f = f->next) {
        const char *path = string_of(f, "path");
        const cJSON *issues = cJSON_GetObjectItemCaseSensitive(f, "issues");
        if (!path || !cJSON_IsArray(issues)) {
            fprintf(err, "modelcheck: %s: files[%zu]: expected \"path\" and \"issues\"\n", file, i);
            mc_baseline_free(b);
            return -1;
        }
        const char *sha = string_of(f, "sha256");
        b->by_path[i] = (file_entry){path, sha ? sha : "", issues};
        b->by_sha[i] = b->by_path[i];
        i++;
    }
    b->count = i;
    qsort(b->by_path, b->count, sizeof *b->by_path, by_path_cmp);
    qsort(b->by_sha, b->count, sizeof *b->by_sha, by_sha_cmp);
    *out = b;
    return 0;
}

void mc_baseline_free(mc_baseline *b)
{
    if (!b) return;
    free(b->by_path);
    free(b->by_sha);
    cJSON_Delete(b->doc);
    free(b);
}

/* The baseline's entry for a file: by path, else (a file moved since) by
 * its content. */
static const file_entry *entry_of(const mc_baseline *b, const char *path, const mc_result *r)
{
    if (!b->count) return NULL;
    file_entry key = {path, "", NULL};
    const file_entry *e = bsearch(&key, b->by_path, b->count, sizeof key, by_path_cmp);
    if (e || !r->hashed) return e;
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", r->sha256[i]);
    key.sha256 = hex;
    return bsearch(&key, b->by_sha, b->count, sizeof key, by_sha_cmp);
}

static const cJSON *issue_of(const file_entry *e, const char *code)
{
    if (!e) return NULL;
    for (const cJSON *is = e->issues->child; is; is = is->next) {
        const char *c = string_of(is, "code");
        if (c && strcmp(c, code) == 0) return is;
    }
    return NULL;
}

/* Keeps the instances of one issue that the baseline does not accept;
 * returns how many of its occurrences are new. */
static uint64_t new_instances(const cJSON *old, const mc_issue *is, mc_instance *kept, size_t *kept_count)
{
    *kept_count = 0;
    const cJSON *olds = cJSON_GetObjectItemCaseSensitive(old, "instances");
    size_t n_old = old && cJSON_IsArray(olds) ? (size_t)cJSON_GetArraySize(olds) : 0;
    unsigned char *used = n_old ? calloc(n_old, 1) : NULL;
    for (size_t k = 0; k < is->instance_count; k++) {
        int matched = 0;
        size_t j = 0;
        for (const cJSON *o = n_old && used ? olds->child : NULL; o && !matched; o = o->next, j++) {
            const char *p = string_of(o, "path");
            if (!used[j] && p && strcmp(p, is->instances[k].path) == 0) used[j] = 1, matched = 1;
        }
        if (!matched) kept[(*kept_count)++] = is->instances[k];
    }
    free(used);
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(old, "count");
    uint64_t old_count = cJSON_IsNumber(count) && count->valuedouble > 0 ? (uint64_t)count->valuedouble : 0;
    uint64_t by_count = is->count > old_count ? is->count - old_count : 0;
    return *kept_count > by_count ? *kept_count : by_count;
}

void mc_baseline_filtered_free(mc_result *copy)
{
    if (!copy) return;
    for (size_t i = 0; i < copy->issue_count; i++) free(copy->issues[i].instances);
    free(copy->issues);
    free(copy);
}

mc_result *mc_baseline_filter(const mc_baseline *b, const char *path, const mc_result *r, uint64_t *known)
{
    *known = 0;
    mc_result *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *r;
    c->issue_count = 0;
    c->truncated = 0;
    memset(c->counts, 0, sizeof c->counts);
    c->issues = r->issue_count ? calloc(r->issue_count, sizeof *c->issues) : NULL;
    if (r->issue_count && !c->issues) {
        free(c);
        return NULL;
    }
    const file_entry *e = entry_of(b, path, r);
    for (size_t i = 0; i < r->issue_count; i++) {
        const mc_issue *is = &r->issues[i];
        mc_issue *out = &c->issues[c->issue_count];
        *out = *is;
        out->instances = is->instance_count ? malloc(is->instance_count * sizeof *out->instances) : NULL;
        if (is->instance_count && !out->instances) {
            mc_baseline_filtered_free(c);
            return NULL;
        }
        /* an unreadable file is always reported: it was not checked */
        const cJSON *old = strncmp(mc_code_get(is->code)->name, "IO_", 3) == 0
                               ? NULL
                               : issue_of(e, mc_code_get(is->code)->name);
        uint64_t fresh = new_instances(old, is, out->instances, &out->instance_count);
        *known += is->count - fresh;
        if (fresh == 0) {
            free(out->instances);
            continue;
        }
        out->count = fresh;
        if (out->instance_count) out->first_offset = out->instances[0].offset;
        if (out->count > out->instance_count) c->truncated = 1;
        if ((unsigned)out->severity < MC_SEVERITY_COUNT) c->counts[out->severity] += fresh;
        c->issue_count++;
    }
    return c;
}
