/* The catalog table compiled from mc_catalog.def, and the name lookups. */
#include <string.h>

#include "modelcheck.h"

/* Indexed by number, filled in catalog order: a catalog code without a
 * number is an undeclared MC_ name, and equal counts (below) leave no number
 * without a catalog entry (a name twice in either file is a redeclaration). */
enum mc_kind_id {
#define MC_KIND(id) MC_KIND_##id,
#include "mc_kinds.def"
#undef MC_KIND
};

static const mc_code_info catalog[MC_CODE_COUNT] = {
#define MC_CODE(name, sev, origin, kind, summary, clause) \
    [MC_##name] = {#name, MC_SEVERITY_##sev, MC_ORIGIN_##origin, summary, clause, #kind},
#include "mc_catalog.def"
#undef MC_CODE
};

enum catalog_position {
#define MC_CODE(name, sev, origin, kind, summary, clause) MC_CATALOG_POSITION_##name,
#include "mc_catalog.def"
#undef MC_CODE
    MC_CATALOG_SIZE
};
/* A kind the catalog names but mc_kinds.def does not is an undeclared
 * identifier here. */
enum catalog_kind {
#define MC_CODE(name, sev, origin, kind, summary, clause) MC_CATALOG_KIND_##name = MC_KIND_##kind,
#include "mc_catalog.def"
#undef MC_CODE
};

_Static_assert((int)MC_CATALOG_SIZE == (int)MC_CODE_COUNT,
               "mc_catalog.def and mc_code_numbers.def must name the same codes (append new numbers at the end)");


const mc_code_info *mc_code_get(mc_code code)
{
    if ((unsigned)code >= MC_CODE_COUNT) return NULL;
    return &catalog[code];
}

int mc_code_find(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < MC_CODE_COUNT; i++)
        if (strcmp(catalog[i].name, name) == 0) return i;
    return -1;
}

static const char *const severity_names[] = {"error", "warning", "info", "hint", "ignore"};

const char *mc_severity_name(mc_severity severity)
{
    if ((unsigned)severity > MC_SEVERITY_IGNORE) return "unknown";
    return severity_names[severity];
}

int mc_severity_parse(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i <= MC_SEVERITY_IGNORE; i++)
        if (strcmp(severity_names[i], name) == 0) return i;
    return -1;
}

static const char *const format_names[MC_FORMAT_COUNT] = {"unknown", "aem", "semodel", "aamf",
                                                          "e3d", "nlm"};

const char *mc_format_name(mc_format format)
{
    if ((unsigned)format >= MC_FORMAT_COUNT) return "unknown";
    return format_names[format];
}

int mc_format_parse(const char *name)
{
    if (!name) return -1;
    for (int i = 1; i < MC_FORMAT_COUNT; i++)
        if (strcmp(format_names[i], name) == 0) return i;
    return -1;
}

const char *mc_strerror(mc_status status)
{
    switch (status) {
    case MC_OK: return "success";
    case MC_ERR_NOMEM: return "out of memory";
    case MC_ERR_INVALID_ARG: return "invalid argument";
    case MC_ERR_IO: return "the file could not be read";
    }
    return "unknown status";
}
