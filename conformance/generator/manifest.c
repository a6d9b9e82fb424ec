/* Manifest entries: the expectation string parsed against the catalog,
 * which supplies each code's severity and the rule's spec clause. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus_cases.h"
#include "modelcheck.h"

int mcg_mkdir(const char *root, const char *sub)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", root, *sub ? "/" : "", sub);
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "mc_corpusgen: cannot create %s: %s\n", path, strerror(errno));
    return -1;
}

int mcg_expectation(const char *expect, size_t n, int *code, long *count)
{
    const char *p = expect;
    for (;;) {
        while (*p == ' ') p++;
        if (!*p) return 0;
        size_t len = strcspn(p, " ");
        if (n-- > 0) {
            p += len;
            continue;
        }
        char name[64];
        const char *star = memchr(p, '*', len);
        size_t nlen = star ? (size_t)(star - p) : len;
        *count = star ? strtol(star + 1, NULL, 10) : 1;
        if (nlen == 0 || nlen >= sizeof name || *count < 1) return -1;
        memcpy(name, p, nlen);
        name[nlen] = '\0';
        *code = mc_code_find(name);
        return *code < 0 ? -1 : 1;
    }
}

static cJSON *expectations(const char *expect, const char *file, int *failed)
{
    cJSON *list = cJSON_CreateArray();
    int code, rc;
    long count;
    for (size_t n = 0; (rc = mcg_expectation(expect, n, &code, &count)) != 0; n++) {
        if (rc < 0) {
            fprintf(stderr, "mc_corpusgen: %s: bad expectation %zu in '%s'\n", file, n + 1, expect);
            *failed = 1;
            continue;
        }
        const mc_code_info *info = mc_code_get((mc_code)code);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "code", info->name);
        cJSON_AddStringToObject(e, "severity", mc_severity_name(info->severity));
        cJSON_AddNumberToObject(e, "count", (double)count);
        cJSON_AddItemToArray(list, e);
    }
    return list;
}

static int has_error(const cJSON *list)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, list)
    if (strcmp(cJSON_GetObjectItem(e, "severity")->valuestring, "error") == 0) return 1;
    return 0;
}

int mcg_write_case(const char *root, const mcg_case *c, const mcb_buf *bytes, mcg_manifest *mf)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, c->file);
    if (mcb_write_file(bytes, path) != 0) {
        fprintf(stderr, "mc_corpusgen: cannot write %s\n", path);
        return -1;
    }
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "file", c->file);
    cJSON_AddStringToObject(e, "format", c->format);
    cJSON_AddStringToObject(e, "layout", c->layout);
    cJSON_AddStringToObject(e, "rule", c->rule ? c->rule : "");
    int code = c->rule ? mc_code_find(c->rule) : -1;
    if (c->rule && code < 0) {
        fprintf(stderr, "mc_corpusgen: %s: unknown rule %s\n", c->file, c->rule);
        mf->failed = 1;
    }
    cJSON_AddStringToObject(e, "clause", code >= 0 ? mc_code_get((mc_code)code)->clause : "");
    cJSON_AddStringToObject(e, "description", c->description);
    cJSON *args = cJSON_AddArrayToObject(e, "args");
    if (c->args) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", c->args);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
            cJSON_AddItemToArray(args, cJSON_CreateString(t));
    }
    cJSON *exp = expectations(c->expect, c->file, &mf->failed);
    int invalid = has_error(exp);
    cJSON_AddBoolToObject(e, "valid", !invalid);
    cJSON_AddItemToObject(e, "expected", exp);
    /* a case's directory must agree with its expectation */
    if ((strstr(c->file, "/invalid/") != NULL) != invalid) {
        fprintf(stderr, "mc_corpusgen: %s: directory disagrees with expectation\n", c->file);
        mf->failed = 1;
    }
    cJSON_AddItemToArray(mf->cases, e);
    return 0;
}

/* File-level cases that belong to no format. */
int mcg_write_any(const char *root, mcg_manifest *mf)
{
    if (mcg_mkdir(root, "any") || mcg_mkdir(root, "any/invalid")) return -1;
    static const mcg_case empty = {"any/invalid/empty.bin", "any", "", "FILE_EMPTY",
                                   "a file of 0 bytes", "FILE_EMPTY", NULL};
    static const mcg_case text = {"any/invalid/plain_text.txt", "any", "", "FILE_UNRECOGNIZED",
                                  "a text file: no format's magic or structure", "FILE_UNRECOGNIZED", NULL};
    static const mcg_case big = {"any/invalid/over_size_limit.bin", "any", "", "FILE_TOO_LARGE",
                                 "200 bytes validated with --max-file-bytes 100", "FILE_TOO_LARGE",
                                 "--max-file-bytes 100"};
    mcb_buf b = {0};
    int rc = mcg_write_case(root, &empty, &b, mf);
    mcb_bytes(&b, "modelcheck validates 3D models; this is not one.\n", 49);
    rc |= mcg_write_case(root, &text, &b, mf);
    mcb_free(&b);
    mcb_zeros(&b, 200);
    rc |= mcg_write_case(root, &big, &b, mf);
    mcb_free(&b);
    return rc ? -1 : 0;
}

int mcg_write_table(const char *root, const mcg_table *t, mcg_manifest *mf)
{
    char valid[64], invalid[64];
    snprintf(valid, sizeof valid, "%s/valid", t->format);
    snprintf(invalid, sizeof invalid, "%s/invalid", t->format);
    if (mcg_mkdir(root, t->format) || mcg_mkdir(root, valid) || mcg_mkdir(root, invalid)) return -1;
    for (size_t i = 0; i < t->count; i++) {
        mcg_built out = {0};
        int rc = mcg_table_row(t, i, &out);
        if (rc != 0)
            fprintf(stderr, "mc_corpusgen: cannot build %s\n", out.meta ? out.meta->file : t->format);
        else
            rc = mcg_write_case(root, out.meta, &out.bytes, mf);
        mcb_free(&out.bytes);
        if (rc != 0) return -1;
    }
    return 0;
}

uint64_t mcg_offset(const mcg_at *at, size_t size, mcg_place_fn place, const void *ctx)
{
    uint64_t base;
    switch (at->where) {
    case MCG_NOWHERE: return 0;
    case MCG_FILE: base = 0; break;
    case MCG_END: base = size; break;
    default: base = place(ctx, at->where - MCG_SECTION, at->index, at->sub); break;
    }
    return base + (uint64_t)at->add;
}

int mcg_table_row(const mcg_table *t, size_t i, mcg_built *out)
{
    const char *row = (const char *)t->rows + i * t->row_size;
    const mcg_at *at = (const mcg_at *)(const void *)(row + t->first_at);
    out->meta = (const mcg_case *)(const void *)row; /* every row type starts with its mcg_case */
    out->placed = at->where != MCG_NOWHERE;
    return t->build(row, &out->bytes, &out->first);
}
