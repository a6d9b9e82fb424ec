/* The SARIF rules' help (issue 15): "what to do" is chosen by the kind of
 * check, from the catalog entry, and fits the code it is shown for. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mc_report.h"

static char *help_text(mc_code code, const char *key)
{
    cJSON *rule = mc_sarif_rule_json(code);
    cr_assert_not_null(rule);
    const cJSON *help = cJSON_GetObjectItemCaseSensitive(rule, "help");
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(help, key);
    cr_assert(cJSON_IsString(text));
    char *copy = strdup(text->valuestring);
    cJSON_Delete(rule);
    return copy;
}

static int contains_word_ci(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == word[i]) i++;
        if (i == n) return 1;
    }
    return 0;
}

Test(sarif_rules, no_content_help_does_not_talk_of_limits)
{
    for (int k = 0; k < 2; k++) {
        char *h = help_text(MC_FILE_NO_CONTENT, k ? "markdown" : "text");
        cr_expect(!contains_word_ci(h, "limit"), "FILE_NO_CONTENT help mentions a limit: %s", h);
        cr_expect(!contains_word_ci(h, "max_file_bytes"), "%s", h);
        cr_expect(!contains_word_ci(h, "large"), "%s", h);
        cr_expect(contains_word_ci(h, "re-export"), "%s", h);
        free(h);
    }
}

Test(sarif_rules, size_limit_help_names_the_setting)
{
    char *h = help_text(MC_FILE_TOO_LARGE, "text");
    cr_expect(strstr(h, "max_file_bytes") && strstr(h, "--max-file-bytes"), "%s", h);
    free(h);
}

Test(sarif_rules, every_code_has_advice_of_its_kind)
{
    size_t generic = 0;
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        int content = -1;
        const char *r = mc_sarif_remedy((mc_code)i, &content);
        cr_assert_not_null(r);
        if (mc_sarif_remedy_is_generic(r)) {
            cr_log_error("%s (kind %s) has only the generic advice: give the kind a text in remedies[] in "
                         "reports/render/sarif_rules.c", mc_code_get((mc_code)i)->name, mc_code_get((mc_code)i)->kind);
            generic++;
        }
        /* the code's own advice (mc_advice.def) where it has one, else its kind's */
        int own;
        const char *shown = mc_advice_what((mc_code)i, &own);
        char *h = help_text((mc_code)i, "text");
        cr_expect(strstr(h, shown), "%s: the help does not carry its advice", mc_code_get((mc_code)i)->name);
        /* tool codes are about the environment: no config advice for the file */
        int tool = mc_code_get((mc_code)i)->origin == MC_ORIGIN_TOOL;
        cr_expect_eq(strstr(h, ".modelcheck.json") != NULL, !tool, "%s: %s", mc_code_get((mc_code)i)->name, h);
        free(h);
    }
    cr_expect_eq(generic, 0);
    int c;
    cr_expect_null(mc_sarif_remedy((mc_code)MC_CODE_COUNT, &c));
}

Test(sarif_rules, advice_differs_by_kind)
{
    const char *seen[64];
    size_t distinct = 0;
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        int c;
        const char *r = mc_sarif_remedy((mc_code)i, &c);
        size_t k = 0;
        while (k < distinct && seen[k] != r) k++;
        if (k == distinct && distinct < 64) seen[distinct++] = r;
    }
    /* one text per kind: io, info, five file-level, 28 content kinds, the
     * resource limits; fewer means kinds collapsed into one sentence */
    cr_expect_geq(distinct, 30, "only %zu distinct texts", distinct);
    char *a = help_text(MC_AEM_WEIGHT_SUM, "text"), *b = help_text(MC_E3D_LZMA_CORRUPT, "text");
    cr_expect(strstr(a, "weight") && !strstr(a, "LZMA"), "%s", a);
    cr_expect(strstr(b, "LZMA") && !strstr(b, "weight"), "%s", b);
    free(a);
    free(b);
}

/* Every kind mc_kinds.def declares is some code's kind (no dead kind), and
 * every code's kind is one it declares (catalog.c would not compile
 * otherwise; this checks the names as reports show them). */
Test(sarif_rules, every_declared_kind_is_used)
{
    static const char *const kinds[] = {
#define MC_KIND(id) #id,
#include "mc_kinds.def"
#undef MC_KIND
    };
    size_t n = sizeof kinds / sizeof kinds[0];
    for (size_t k = 0; k < n; k++) {
        int used = 0;
        for (int i = 0; i < MC_CODE_COUNT && !used; i++) used = strcmp(mc_code_get((mc_code)i)->kind, kinds[k]) == 0;
        cr_expect(used, "kind %s is declared but no code has it", kinds[k]);
    }
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        size_t k = 0;
        while (k < n && strcmp(mc_code_get((mc_code)i)->kind, kinds[k]) != 0) k++;
        cr_expect_lt(k, n, "%s: kind %s", mc_code_get((mc_code)i)->name, mc_code_get((mc_code)i)->kind);
    }
}

Test(sarif_rules, kinds_land_where_they_belong)
{
    static const struct {
        mc_code code;
        const char *word;
    } cases[] = {
        {MC_SAMF_WEIGHT_SUM_TRUNCATED, "Normalise the skin weights"}, /* not the truncation kind */
        {MC_E3D_ROTATION_ORDER_RANGE, "animation value"},             /* not the order kind */
        {MC_E3D_BONE_WEIGHTS_SIZE, "sizes do not add up"},
        {MC_E3D_LZMA_AS_VERSION, "order or place"},
        {MC_E3D_LZMA_SIZE_LIMIT, "bound the memory"},
        {MC_E3D_INFLUENCES_LIMIT, "limit of the format"},
        {MC_AEM_MATERIAL_TEXTURE_MINUS_ONE, "sentinel"},
        {MC_SEMODEL_DRAFT_BLOCK_UNDEFINED, "block or layout"},
        {MC_E3D_LZMA_END_MARKER, "Nothing here stops a conforming reader"},
        {MC_IO_OPEN_FAILED, "readable"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int c;
        const char *r = mc_sarif_remedy(cases[i].code, &c);
        cr_expect(strstr(r, cases[i].word), "%s: %s", mc_code_get(cases[i].code)->name, r);
    }
}

/* issue 26: every code has advice (mc_advice.def): why it matters, from its
 * own entry or its kind's, and what to do; the SARIF help carries both */
Test(sarif_rules, every_code_has_why_and_what)
{
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        const char *why = mc_advice_why((mc_code)i);
        int content = 0;
        const char *what = mc_advice_what((mc_code)i, &content);
        cr_expect(why && *why, "%s has no \"why it matters\" (add its kind to mc_advice.def)",
                  mc_code_get((mc_code)i)->name);
        cr_expect(what && *what, "%s has no \"what to do\"", mc_code_get((mc_code)i)->name);
    }
    char *h = help_text(MC_AEM_BONE_PARENT_FORWARD, "text");
    cr_expect(strstr(h, "Why it matters: The AEM loader walks from each bone to its parent without a bound"), "%s", h);
    cr_expect(strstr(h, "What to do: Export bones parents first"), "%s", h);
    free(h);
}
