/* The reports of `modelcheck fix`: the edits as JSON, as SARIF fixes, as a
 * diff, and the one-line summary. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mc_report.h"

static void hex(char *out, const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", p[i]);
    out[2 * (size_t)n] = '\0';
}

static cJSON *edit_json(const mc_edit *e)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddNumberToObject(o, "offset", (double)e->offset);
    cJSON_AddNumberToObject(o, "size", e->size);
    cJSON_AddStringToObject(o, "code", mc_code_get(e->code)->name);
    cJSON_AddStringToObject(o, "fix", mc_fixability_name(e->fixability));
    cJSON_AddStringToObject(o, "path", e->path);
    mc_json_add_text(o, "old", e->old_value);
    mc_json_add_text(o, "new", e->new_value);
    char *h = malloc(2 * (size_t)e->size + 1);
    if (h) {
        hex(h, e->old_bytes, e->size);
        cJSON_AddStringToObject(o, "old_bytes", h);
        hex(h, e->new_bytes, e->size);
        cJSON_AddStringToObject(o, "new_bytes", h);
        free(h);
    }
    return o;
}

/* Per code that had an issue before: its count before and after, and the
 * edits made for it. */
static cJSON *codes_json(const mc_fix *fix)
{
    const mc_result *b = mc_fix_before(fix), *a = mc_fix_after(fix);
    size_t n = 0;
    const mc_edit *edits = mc_fix_edits(fix, &n);
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < b->issue_count; i++) {
        mc_code code = b->issues[i].code;
        mc_fixability how = mc_code_fixability(code);
        if (how == MC_FIXABILITY_NONE) continue;
        uint64_t count = 0;
        for (size_t k = 0; k < n; k++) count += edits[k].code == code;
        const mc_issue *after = mc_result_find(a, code);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "code", mc_code_get(code)->name);
        cJSON_AddStringToObject(o, "fix", mc_fixability_name(how));
        cJSON_AddNumberToObject(o, "before", (double)b->issues[i].count);
        cJSON_AddNumberToObject(o, "after", after ? (double)after->count : 0);
        cJSON_AddNumberToObject(o, "edits", (double)count);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

cJSON *mc_fix_report_json(const mc_fix *fix, const char *output, int written)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    if (output) mc_json_add_text(o, "output", output);
    else cJSON_AddNullToObject(o, "output");
    cJSON_AddBoolToObject(o, "written", written != 0);
    cJSON_AddNumberToObject(o, "withheld_unsafe", (double)mc_fix_withheld(fix));
    cJSON_AddItemToObject(o, "codes", codes_json(fix));
    size_t n = 0;
    const mc_edit *edits = mc_fix_edits(fix, &n);
    cJSON *arr = cJSON_AddArrayToObject(o, "edits");
    for (size_t i = 0; arr && i < n; i++) cJSON_AddItemToArray(arr, edit_json(&edits[i]));
    return o;
}

/* RFC 4648 base64 of n bytes into out (4 * ceil(n / 3) + 1 bytes). Written
 * here rather than taken from OpenSSL: the WebAssembly builds (the page, the
 * npm command) have no OpenSSL, and their SARIF must be the native bytes. */
static void base64(char *out, const uint8_t *p, size_t n)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? digits[v & 63] : '=';
    }
    out[o] = '\0';
}

/* SARIF 2.1.0, 3.57 replacement: a binary deletedRegion and the bytes that
 * take its place as base64 (3.3.3 artifactContent.binary). */
static cJSON *replacement_json(const mc_edit *e)
{
    cJSON *r = cJSON_CreateObject();
    cJSON *del = cJSON_AddObjectToObject(r, "deletedRegion");
    cJSON_AddNumberToObject(del, "byteOffset", (double)e->offset);
    cJSON_AddNumberToObject(del, "byteLength", e->size);
    char *b64 = malloc(4 * (((size_t)e->size + 2) / 3) + 1);
    if (b64) {
        base64(b64, e->new_bytes, e->size);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "insertedContent"), "binary", b64);
        free(b64);
    }
    return r;
}

cJSON *mc_fix_sarif_fixes(const mc_fix *fix, mc_code code, const char *uri)
{
    size_t n = 0;
    const mc_edit *edits = mc_fix_edits(fix, &n);
    cJSON *reps = NULL;
    for (size_t i = 0; i < n; i++) {
        if (edits[i].code != code) continue;
        if (!reps && !(reps = cJSON_CreateArray())) return NULL;
        cJSON_AddItemToArray(reps, replacement_json(&edits[i]));
    }
    if (!reps) return NULL;
    cJSON *f = cJSON_CreateObject();
    char text[320];
    snprintf(text, sizeof text, "%s (%s fix).", mc_code_fix_text(code), mc_fixability_name(mc_code_fixability(code)));
    cJSON_AddStringToObject(cJSON_AddObjectToObject(f, "description"), "text", text);
    cJSON *change = cJSON_CreateObject();
    cJSON_AddStringToObject(cJSON_AddObjectToObject(change, "artifactLocation"), "uri", uri);
    cJSON_AddItemToObject(change, "replacements", reps);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(f, "artifactChanges"), change);
    cJSON *fixes = cJSON_CreateArray();
    cJSON_AddItemToArray(fixes, f);
    return fixes;
}

void mc_fix_report_diff(FILE *out, const mc_fix *fix)
{
    size_t n = 0;
    const mc_edit *edits = mc_fix_edits(fix, &n);
    for (size_t i = 0; i < n; i++) {
        const mc_edit *e = &edits[i];
        char *path = mc_text_quote(e->path), *ov = mc_text_quote(e->old_value), *nv = mc_text_quote(e->new_value);
        fprintf(out, "  @0x%" PRIx64 " %s: %s -> %s  (%s, %s", e->offset, path ? path : "?", ov ? ov : "?",
                nv ? nv : "?", mc_code_get(e->code)->name, mc_fixability_name(e->fixability));
        if (e->size <= 8) {
            char a[17], b[17];
            hex(a, e->old_bytes, e->size);
            hex(b, e->new_bytes, e->size);
            fprintf(out, "; %s -> %s", a, b);
        } else {
            fprintf(out, "; %" PRIu32 " bytes", e->size);
        }
        fputs(")\n", out);
        free(path);
        free(ov);
        free(nv);
    }
}

void mc_fix_report_summary(FILE *out, const mc_fix *fix, const char *name, const char *output, int written)
{
    size_t n = 0;
    mc_fix_edits(fix, &n);
    char *q = mc_text_quote(name), *o = output ? mc_text_quote(output) : NULL;
    fprintf(out, "%s: %zu edit%s", q ? q : "?", n, n == 1 ? "" : "s");
    if (written) fprintf(out, ", written to %s", o ? o : "?");
    else if (output) fputs(", nothing written", out);
    uint64_t withheld = mc_fix_withheld(fix);
    if (withheld)
        fprintf(out, "; %" PRIu64 " issue%s with an unsafe fix left (--unsafe-fixes)", withheld,
                withheld == 1 ? "" : "s");
    fputc('\n', out);
    free(q);
    free(o);
}
