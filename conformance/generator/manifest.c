/* Manifest entries: the expectation string parsed against the catalog,
 * which supplies each code's severity and the rule's spec clause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_cases.h"
#include "modelcheck.h"

static int add_expectation(cJSON *list, const char *token, size_t len, const char *file)
{
    char name[64];
    const char *star = memchr(token, '*', len);
    size_t nlen = star ? (size_t)(star - token) : len;
    long count = star ? strtol(star + 1, NULL, 10) : 1;
    if (nlen == 0 || nlen >= sizeof name || count < 1) goto bad;
    memcpy(name, token, nlen);
    name[nlen] = '\0';
    int code = mc_code_find(name);
    if (code < 0) goto bad;
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "code", name);
    cJSON_AddStringToObject(e, "severity", mc_severity_name(mc_code_get((mc_code)code)->severity));
    cJSON_AddNumberToObject(e, "count", (double)count);
    cJSON_AddItemToArray(list, e);
    return 0;
bad:
    fprintf(stderr, "mc_corpusgen: %s: bad expectation '%.*s'\n", file, (int)len, token);
    return -1;
}

static cJSON *expectations(const char *expect, const char *file, int *failed)
{
    cJSON *list = cJSON_CreateArray();
    const char *p = expect;
    while (*p) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        if (len && add_expectation(list, p, len, file) != 0) *failed = 1;
        p += len;
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
