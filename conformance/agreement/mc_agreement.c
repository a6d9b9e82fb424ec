/* The allowlist reader and the agreement rule (see mc_agreement.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_agreement.h"

static char *next_word(char **s)
{
    while (**s && isspace((unsigned char)**s)) (*s)++;
    if (!**s) return NULL;
    char *w = *s;
    while (**s && !isspace((unsigned char)**s)) (*s)++;
    if (**s) *(*s)++ = '\0';
    return w;
}

static int parse_line(char *line, mca_entry *e, const char **problem)
{
    char *s = line;
    char *fmt = next_word(&s), *kind = next_word(&s), *what = next_word(&s);
    while (*s && isspace((unsigned char)*s)) s++;
    s[strcspn(s, "\r\n")] = '\0';
    memset(e, 0, sizeof *e);
    if (!fmt || !kind || !what || !*s) return *problem = "expected FORMAT KIND WHAT REASON", -1;
    e->format = mcl_format_from_name(fmt);
    if (e->format == MCL_FORMAT_UNKNOWN) return *problem = "unknown format", -1;
    if (strcmp(kind, "lenient") == 0) e->kind = MCA_LENIENT;
    else if (strcmp(kind, "strict") == 0) e->kind = MCA_STRICT;
    else return *problem = "kind must be lenient or strict", -1;
    if (e->kind == MCA_LENIENT && mc_code_find(what) < 0) return *problem = "unknown issue code", -1;
    snprintf(e->what, sizeof e->what, "%s", what);
    snprintf(e->reason, sizeof e->reason, "%s", s);
    return 0;
}

static int add_line(char *s, unsigned n, mca_allowlist *list, char *why, size_t why_size)
{
    while (isspace((unsigned char)*s)) s++;
    if (*s == '#' || *s == '\0') return 0;
    mca_entry e;
    const char *problem = NULL;
    if (parse_line(s, &e, &problem) != 0)
        return snprintf(why, why_size, "line %u: %s", n, problem), -1;
    mca_entry *grown = realloc(list->entries, (list->count + 1) * sizeof *grown);
    if (!grown) return snprintf(why, why_size, "out of memory"), -1;
    list->entries = grown;
    list->entries[list->count++] = e;
    return 0;
}

int mca_allowlist_parse(const char *text, mca_allowlist *list, char *why, size_t why_size)
{
    memset(list, 0, sizeof *list);
    unsigned n = 0;
    while (*text) {
        size_t len = strcspn(text, "\n");
        char line[512];
        n++;
        if (len >= sizeof line) {
            snprintf(why, why_size, "line %u: longer than %zu bytes", n, sizeof line - 1);
            mca_allowlist_free(list);
            return -1;
        }
        memcpy(line, text, len);
        line[len] = '\0';
        if (add_line(line, n, list, why, why_size) != 0) {
            mca_allowlist_free(list);
            return -1;
        }
        text += len + (text[len] == '\n');
    }
    return 0;
}

int mca_allowlist_load(const char *path, mca_allowlist *list, char *why, size_t why_size)
{
    memset(list, 0, sizeof *list);
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(why, why_size, "%s: cannot open", path), -1;
    char text[64 * 1024];
    size_t n = fread(text, 1, sizeof text - 1, f);
    int too_long = !feof(f);
    fclose(f);
    if (too_long) return snprintf(why, why_size, "%s: larger than %zu bytes", path, sizeof text - 1), -1;
    text[n] = '\0';
    char inner[200];
    if (mca_allowlist_parse(text, list, inner, sizeof inner) != 0)
        return snprintf(why, why_size, "%s: %s", path, inner), -1;
    return 0;
}

void mca_allowlist_free(mca_allowlist *list)
{
    free(list->entries);
    list->entries = NULL;
    list->count = 0;
}

static mca_entry *find(mca_allowlist *list, mcl_format f, mca_kind kind, const char *what)
{
    for (size_t i = 0; list && i < list->count; i++) {
        mca_entry *e = &list->entries[i];
        if (e->format == f && e->kind == kind && strcmp(e->what, what) == 0) return e;
    }
    return NULL;
}

/* A lenient loader is excused only when every error code is allowlisted. */
static mca_verdict excuse_lenient(const mc_result *r, mcl_format f, mca_allowlist *list)
{
    for (size_t i = 0; i < r->issue_count; i++) {
        if (r->issues[i].severity != MC_SEVERITY_ERROR) continue;
        if (!find(list, f, MCA_LENIENT, mc_code_get(r->issues[i].code)->name)) return MCA_LOADER_LENIENT;
    }
    for (size_t i = 0; i < r->issue_count; i++)
        if (r->issues[i].severity == MC_SEVERITY_ERROR)
            find(list, f, MCA_LENIENT, mc_code_get(r->issues[i].code)->name)->used++;
    return MCA_EXCUSED;
}

mca_verdict mca_compare(const mc_result *r, mcl_format f, mcl_status loader, mca_allowlist *list)
{
    int valid = mc_result_valid(r);
    if (valid == (loader == MCL_OK)) return MCA_AGREE;
    if (!valid) return excuse_lenient(r, f, list);
    mca_entry *e = find(list, f, MCA_STRICT, mcl_status_name(loader));
    if (!e) return MCA_LOADER_STRICT;
    e->used++;
    return MCA_EXCUSED;
}
