/* The advice of validator/catalog/mc_advice.def, and `modelcheck explain`. */
#include <string.h>

#include "mc_report.h"

typedef struct kind_why {
    const char *kind, *why;
} kind_why;

static const kind_why kinds[] = {
#define MC_KIND_WHY(kind, why) {#kind, why},
#define MC_CODE_ADVICE(code, why, what)
#include "mc_advice.def"
#undef MC_CODE_ADVICE
#undef MC_KIND_WHY
};

typedef struct code_advice {
    mc_code code;
    const char *why, *what;
} code_advice;

static const code_advice codes[] = {
#define MC_KIND_WHY(kind, why)
#define MC_CODE_ADVICE(code, why, what) {MC_##code, why, what},
#include "mc_advice.def"
#undef MC_CODE_ADVICE
#undef MC_KIND_WHY
};

static const code_advice *own_advice(mc_code code)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].code == code) return &codes[i];
    return NULL;
}

int mc_advice_is_own(mc_code code)
{
    return own_advice(code) != NULL;
}

const char *mc_advice_kind_why(const char *kind)
{
    for (size_t i = 0; kind && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].kind, kind) == 0) return kinds[i].why;
    return NULL;
}

const char *mc_advice_why(mc_code code)
{
    const code_advice *a = own_advice(code);
    if (a && a->why) return a->why;
    const mc_code_info *ci = mc_code_get(code);
    return ci ? mc_advice_kind_why(ci->kind) : NULL;
}

const char *mc_advice_what(mc_code code, int *content_advice)
{
    const char *kind_text = mc_sarif_remedy(code, content_advice);
    const code_advice *a = own_advice(code);
    return a && a->what ? a->what : kind_text;
}

/* Length of the document name cited at s ("docs/formats/aem.md"), 0 when
 * s names none: "docs/", then path characters, ending in ".md". */
static size_t cited_doc(const char *s)
{
    if (strncmp(s, "docs/", 5) != 0) return 0;
    size_t n = 5;
    while (s[n] && (strchr("._-/", s[n]) || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
                    (s[n] >= '0' && s[n] <= '9')))
        n++;
    while (n > 5 && s[n - 1] == '.') n--;
    return n > 8 && strncmp(s + n - 3, ".md", 3) == 0 ? n : 0;
}

/* One line per distinct document the texts cite, in order of citation. */
static void print_docs(FILE *out, const char *const *texts, size_t count, const char *docdir)
{
    const char *seen[16];
    size_t seen_len[16], nseen = 0;
    for (size_t t = 0; t < count; t++) {
        for (const char *p = texts[t] ? strstr(texts[t], "docs/") : NULL; p; p = strstr(p + 1, "docs/")) {
            size_t n = cited_doc(p), k = 0;
            while (k < nseen && !(seen_len[k] == n && strncmp(seen[k], p, n) == 0)) k++;
            if (!n || k < nseen || nseen == sizeof seen / sizeof *seen) continue;
            seen[nseen] = p, seen_len[nseen++] = n;
            fprintf(out, "  Document:      %s/%.*s\n", docdir, (int)n, p);
        }
    }
}

/* The first corpus line of the code, if the caller found one. */
void mc_explain_text(FILE *out, mc_code code, const char *example)
{
    mc_explain_text_docs(out, code, example, NULL);
}

void mc_explain_text_docs(FILE *out, mc_code code, const char *example, const char *docdir)
{
    const mc_code_info *ci = mc_code_get(code);
    if (!ci) return;
    int content = 0;
    const char *what = mc_advice_what(code, &content);
    const char *why = mc_advice_why(code);
    fprintf(out, "%s (%s, %s check, kind %s)\n", ci->name, mc_severity_name(ci->severity),
            ci->origin == MC_ORIGIN_TOOL ? "tool" : "content", ci->kind);
    fprintf(out, "  Rule:          %s.\n", ci->summary);
    fprintf(out, "  Specification: %s.\n", ci->clause);
    fprintf(out, "  Why it matters: %s\n", why ? why : "(no advice recorded)");
    fprintf(out, "  What to do:    %s\n", what);
    const char *fix = mc_code_fix_text(code);
    mc_fixability how = mc_code_fixability(code);
    fprintf(out, "  Fix:           %s%s: %s.\n", mc_fixability_name(how),
            how == MC_FIXABILITY_UNSAFE ? " (modelcheck fix --unsafe-fixes)"
            : how == MC_FIXABILITY_SAFE ? " (modelcheck fix)" : "",
            fix ? fix : "no reason recorded");
    if (content)
        fprintf(out, "  If the file is known to load correctly everywhere you ship it: \"severity\": {\"%s\": "
                     "\"info\"} (or \"ignore\") in .modelcheck.json, for the paths concerned under \"overrides\".\n",
                ci->name);
    if (example) fprintf(out, "  Example:       %s\n", example);
    if (docdir) {
        const char *texts[] = {ci->clause, why, what};
        print_docs(out, texts, sizeof texts / sizeof *texts, docdir);
    }
}
