/* Helpers shared by the certify report renderers. */
#include <stdlib.h>
#include <string.h>

#include "mc_certify_report.h"
#include "modelcheck.h"

const char *mcc_loader_text(const mcc_loader *l)
{
    switch (l->mode) {
    case MCC_MODE_COMMAND: return l->command;
    case MCC_MODE_LIBRARY: return l->library;
    default: return "built-in reference loaders";
    }
}

void mcc_put_shown(FILE *out, const char *s, const char *plain_quote)
{
    char *q = mc_text_quote(s);
    if (!q) fputs("(name not shown: out of memory)", out);
    else if (strcmp(q, s) == 0) fprintf(out, "%s%s%s", plain_quote, q, plain_quote);
    else fputs(q, out); /* its own double quotes, which say where it ends */
    free(q);
}

void mcc_put_clean(FILE *out, const char *raw)
{
    char *clean = mcc_clean_text((const unsigned char *)raw, strlen(raw));
    fputs(clean ? clean : "(text not shown: out of memory)", out);
    free(clean);
}

void mcc_put_markup(FILE *out, const char *raw)
{
    /* XML and HTML: valid UTF-8, no control characters (XML 1.0 forbids them) */
    char *clean = raw ? mcc_clean_text((const unsigned char *)raw, strlen(raw)) : NULL;
    if (raw && !clean) {
        fputs("(text not shown: out of memory)", out);
        return;
    }
    for (const char *s = clean; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out); break;
        }
    }
    free(clean);
}

int mcc_json_add_clean(cJSON *o, const char *key, const char *s)
{
    char *clean = mcc_clean_text((const unsigned char *)s, strlen(s));
    int rc = clean && cJSON_AddStringToObject(o, key, clean) ? 0 : -1;
    free(clean);
    return rc;
}
