/*
 * SARIF reportingDescriptor objects for the catalog's codes. Code-scanning
 * services need more than an id and a one-line summary: GitHub refuses
 * rules without fullDescription and help (GH2012), so both are generated
 * here from the catalog (summary, default severity, spec clause, what to
 * do), never written by hand, and stay in step with docs/ISSUES.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_report.h"

const char *mc_sarif_level(mc_severity sev)
{
    switch (sev) {
    case MC_SEVERITY_ERROR: return "error";
    case MC_SEVERITY_WARNING: return "warning";
    default: return "note";
    }
}

/* What a user can do about a code: tool-origin codes are about the
 * environment, content codes about the writer that produced the file. */
static const char *remedy(const mc_code_info *ci)
{
    if (ci->origin == MC_ORIGIN_TOOL)
        return "Check that the path exists, is a regular file and is readable by the user running "
               "modelcheck; the file itself was not checked.";
    if (strncmp(ci->name, "FILE_", 5) == 0)
        return "Check that the file is a model in one of the supported formats and was written "
               "completely; raise the limit in .modelcheck.json or on the command line if the file "
               "is legitimately that large or complex.";
    return "Fix the exporter or tool that wrote the file so that it follows the clause above, then "
           "re-export the asset. If the file is known to load correctly in every engine you ship "
           "to, lower or ignore the code for the paths concerned in .modelcheck.json "
           "(\"severity\" or \"overrides\").";
}

__attribute__((format(printf, 1, 2))) static char *text_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* SARIF 3.49.7: a readable name distinct from the opaque id:
 * AEM_NORMAL_NOT_UNIT becomes AemNormalNotUnit. */
static void camel_name(const char *id, char *out, size_t cap)
{
    size_t n = 0;
    int upper = 1;
    for (; *id && n + 1 < cap; id++) {
        if (*id == '_') {
            upper = 1;
            continue;
        }
        char ch = *id;
        if (!upper && ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        out[n++] = ch;
        upper = 0;
    }
    out[n] = '\0';
}

static void add_message(cJSON *rule, const char *key, const char *text, const char *markdown)
{
    cJSON *m = cJSON_AddObjectToObject(rule, key);
    cJSON_AddStringToObject(m, "text", text ? text : "");
    if (markdown) cJSON_AddStringToObject(m, "markdown", markdown);
}

cJSON *mc_sarif_rule_json(mc_code code)
{
    const mc_code_info *ci = mc_code_get(code);
    if (!ci) return NULL;
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "id", ci->name);
    char name[96];
    camel_name(ci->name, name, sizeof name);
    cJSON_AddStringToObject(r, "name", name);
    add_message(r, "shortDescription", ci->summary, NULL);
    const char *sev = mc_severity_name(ci->severity), *todo = remedy(ci);
    char *full = text_printf("%s. Checked against: %s. Default severity: %s.", ci->summary, ci->clause, sev);
    char *help = text_printf("%s.\nSpecification: %s.\nDefault severity: %s.\nWhat to do: %s\n"
                             "Code: %s (modelcheck --list-codes).",
                             ci->summary, ci->clause, sev, todo, ci->name);
    char *help_md = text_printf("**%s.**\n\n*Specification:* %s.\n\n*Default severity:* %s.\n\n"
                                "*What to do:* %s\n\nCode: `%s` (`modelcheck --list-codes`).",
                                ci->summary, ci->clause, sev, todo, ci->name);
    add_message(r, "fullDescription", full, NULL);
    add_message(r, "help", help, help_md);
    free(full);
    free(help);
    free(help_md);
    cJSON *conf = cJSON_AddObjectToObject(r, "defaultConfiguration");
    cJSON_AddStringToObject(conf, "level", mc_sarif_level(ci->severity));
    cJSON *props = cJSON_AddObjectToObject(r, "properties");
    cJSON_AddStringToObject(props, "severity", mc_severity_name(ci->severity));
    cJSON_AddStringToObject(props, "clause", ci->clause);
    cJSON_AddStringToObject(props, "origin", ci->origin == MC_ORIGIN_TOOL ? "tool" : "content");
    return r;
}
