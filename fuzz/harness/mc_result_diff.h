/*
 * Where two results of the same bytes differ, field by field, every kept
 * instance included: the clean paths' oracle (tests/clean/clean_paths.c and
 * the fuzz target `clean`), which compares a validation with the clean paths
 * on to one with mc_settings.exact_only.
 */
#ifndef MC_RESULT_DIFF_H
#define MC_RESULT_DIFF_H

#include <stdio.h>
#include <string.h>

#include "modelcheck.h"

static inline int mc_instances_equal(const mc_instance *a, const mc_instance *b)
{
    return a->offset == b->offset && a->has_payload_offset == b->has_payload_offset &&
           (!a->has_payload_offset || a->payload_offset == b->payload_offset) && strcmp(a->path, b->path) == 0 &&
           strcmp(a->message, b->message) == 0;
}

/* The first difference between a and b, written into buf; NULL if none. */
static inline const char *mc_result_diff(const mc_result *a, const mc_result *b, char *buf, size_t cap)
{
    if (a->format != b->format || strcmp(a->layout, b->layout) != 0) return "format or layout";
    if (memcmp(&a->info, &b->info, sizeof a->info) != 0) return "model statistics (mc_info)";
    if (memcmp(a->counts, b->counts, sizeof a->counts) != 0 || a->truncated != b->truncated)
        return "severity counts";
    if (a->issue_count != b->issue_count) return "number of issue codes";
    for (size_t i = 0; i < a->issue_count; i++) {
        const mc_issue *x = &a->issues[i], *y = &b->issues[i];
        const char *name = mc_code_get(x->code) ? mc_code_get(x->code)->name : "?";
        if (x->code != y->code || x->severity != y->severity || x->count != y->count ||
            x->first_offset != y->first_offset || x->instance_count != y->instance_count) {
            snprintf(buf, cap, "issue %zu (%s): code, count or first offset", i, name);
            return buf;
        }
        for (size_t k = 0; k < x->instance_count; k++)
            if (!mc_instances_equal(&x->instances[k], &y->instances[k])) {
                snprintf(buf, cap, "issue %s, instance %zu: '%s' '%s' against '%s' '%s'", name, k,
                         x->instances[k].path, x->instances[k].message, y->instances[k].path,
                         y->instances[k].message);
                return buf;
            }
    }
    return NULL;
}

#endif
