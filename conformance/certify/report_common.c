/* Helpers shared by the certify report renderers. */
#include "mc_certify_report.h"

const char *mcc_loader_text(const mcc_loader *l)
{
    switch (l->mode) {
    case MCC_MODE_COMMAND: return l->command;
    case MCC_MODE_LIBRARY: return l->library;
    default: return "built-in reference loaders";
    }
}

void mcc_put_markup(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out); break;
        }
    }
}
