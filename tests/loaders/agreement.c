/*
 * The agreement test of the reference loaders (ctest loaders_agree): over the
 * whole corpus, each loader accepts exactly the files the validator finds
 * free of errors (format forced to the case's, default options), apart from
 * the documented exceptions of the allowlist. Accepted models are exercised
 * (walked and posed) so ASan sees every pointer a game would follow.
 *
 *   mc_agree CORPUS_DIR ALLOWLIST [--format F] [--verbose]
 *
 * Exit 0 when everything agrees and no allowlist entry is stale; 1 otherwise;
 * 2 on bad input.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_agreement.h"

typedef struct tally {
    unsigned cases, accepted, rejected, excused, disagree;
} tally;

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = '\0', *size = (size_t)n;
    return buf;
}

static void print_errors(const mc_result *r)
{
    for (size_t i = 0; i < r->issue_count; i++)
        if (r->issues[i].severity == MC_SEVERITY_ERROR)
            printf(" %s", mc_code_get(r->issues[i].code)->name);
}

static int run_one(const char *file, const unsigned char *data, size_t size, mcl_format f,
                   mca_allowlist *list, tally *t, int verbose)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.format = (mc_format)f; /* the enums share their order: checked in main */
    opt.skip_sha256 = 1;
    mc_result *r = NULL;
    if (mc_validate_memory(data, size, &opt, &r) != MC_OK) {
        mc_result_free(r);
        fprintf(stderr, "mc_agree: %s: validator failed\n", file);
        return 2;
    }
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(f, data, size, NULL, &m, &err);
    if (s == MCL_OK) s = mcl_exercise(m);
    mcl_free(m);
    mca_verdict v = mca_compare(r, f, s, list);
    t->cases++;
    if (s == MCL_OK) t->accepted++;
    else t->rejected++;
    if (v == MCA_EXCUSED) t->excused++;
    if (v == MCA_LOADER_LENIENT || v == MCA_LOADER_STRICT) t->disagree++;
    if (v == MCA_LOADER_LENIENT || v == MCA_LOADER_STRICT || verbose) {
        printf("%s %s [%s]: validator errors:", v == MCA_AGREE ? "agree" : v == MCA_EXCUSED ? "excused" : "DISAGREE",
               file, mcl_format_name(f));
        print_errors(r);
        if (s == MCL_OK) printf("; loader accepted\n");
        else printf("; loader rejected: %s at %llu: %s\n", mcl_status_name(s), (unsigned long long)err.offset, err.reason);
    }
    mc_result_free(r);
    return 0;
}

static int run_case(const char *corpus, const cJSON *c, mcl_format only, mca_allowlist *list,
                    tally *tallies, int verbose)
{
    const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(c, "file"));
    const char *format = cJSON_GetStringValue(cJSON_GetObjectItem(c, "format"));
    if (!file || !format) return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", corpus, file);
    size_t size = 0;
    char *data = slurp(path, &size);
    if (!data) {
        fprintf(stderr, "mc_agree: %s: cannot read\n", path);
        return 2;
    }
    int rc = 0;
    mcl_format f = mcl_format_from_name(format);
    for (int g = 1; g < MCL_FORMAT_COUNT && rc == 0; g++) { /* "any" cases: every loader */
        if ((f != MCL_FORMAT_UNKNOWN && g != (int)f) || (only && g != (int)only)) continue;
        rc = run_one(file, (const unsigned char *)data, size, (mcl_format)g, list, &tallies[g], verbose);
    }
    free(data);
    return rc;
}

static int report(const tally *tallies, const mca_allowlist *list, mcl_format only)
{
    int bad = 0;
    for (int g = 1; g < MCL_FORMAT_COUNT; g++) {
        const tally *t = &tallies[g];
        if (!t->cases) continue;
        printf("%-8s %3u cases: loader accepted %u, rejected %u; excused %u; disagreements %u\n",
               mcl_format_name((mcl_format)g), t->cases, t->accepted, t->rejected, t->excused, t->disagree);
        bad |= t->disagree != 0;
    }
    for (size_t i = 0; i < list->count; i++) {
        const mca_entry *e = &list->entries[i];
        if (e->used || (only && e->format != only)) continue;
        printf("STALE allowlist entry: %s %s %s (excuses no corpus case)\n", mcl_format_name(e->format),
               e->kind == MCA_LENIENT ? "lenient" : "strict", e->what);
        bad = 1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mc_agree CORPUS_DIR ALLOWLIST [--format F] [--verbose]\n");
        return 2;
    }
    mcl_format only = MCL_FORMAT_UNKNOWN;
    int verbose = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0) verbose = 1;
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) only = mcl_format_from_name(argv[++i]);
        else return fprintf(stderr, "mc_agree: bad option %s\n", argv[i]), 2;
    }
    for (int g = 1; g < MCL_FORMAT_COUNT; g++)
        if (strcmp(mc_format_name((mc_format)g), mcl_format_name((mcl_format)g)) != 0)
            return fprintf(stderr, "mc_agree: format enums differ at %d\n", g), 2;
    char why[256], path[4096];
    mca_allowlist list;
    if (mca_allowlist_load(argv[2], &list, why, sizeof why) != 0)
        return fprintf(stderr, "mc_agree: %s\n", why), 2;
    snprintf(path, sizeof path, "%s/manifest.json", argv[1]);
    size_t size = 0;
    char *text = slurp(path, &size);
    cJSON *manifest = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *cases = cJSON_GetObjectItem(manifest, "cases");
    if (!cJSON_IsArray(cases)) {
        cJSON_Delete(manifest);
        mca_allowlist_free(&list);
        return fprintf(stderr, "mc_agree: %s: no cases\n", path), 2;
    }
    tally tallies[MCL_FORMAT_COUNT] = {{0}};
    int rc = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cases) {
        rc = run_case(argv[1], c, only, &list, tallies, verbose);
        if (rc) break;
    }
    if (rc == 0) rc = report(tallies, &list, only);
    cJSON_Delete(manifest);
    mca_allowlist_free(&list);
    return rc;
}
