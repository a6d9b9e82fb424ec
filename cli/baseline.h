/*
 * --baseline FILE (issue 26; README, "Adopting the check on existing
 * assets"): a previous JSON report whose issues are accepted, so that a run
 * reports, and fails on, new ones only.
 *
 * An issue instance of a file is known when the baseline's entry for the
 * same path (or, for a file moved since, the entry with the same SHA-256)
 * holds an instance of the same code at the same structural path
 * (/vertices/17/weights): byte offsets are not compared, so an edit
 * elsewhere in the file does not make old issues new. Each baseline
 * instance accepts one instance. Occurrences beyond the kept instances
 * (--max-issues) are matched by count: a code with more occurrences than
 * the baseline recorded has at least the difference new.
 */
#ifndef MC_BASELINE_H
#define MC_BASELINE_H

#include <stdio.h>

#include "modelcheck.h"

typedef struct mc_baseline mc_baseline;

/* Reads a report written by --output json or --write-baseline. Problems
 * are written to err as one line naming the file; -1 then. */
int mc_baseline_load(const char *file, mc_baseline **out, FILE *err);
void mc_baseline_free(mc_baseline *b);

/* r without its known issues: a copy sharing nothing with r, to free with
 * mc_baseline_filtered_free (never mc_result_free); counts are those of
 * the new issues. *known: the occurrences left out. NULL when out of
 * memory. */
mc_result *mc_baseline_filter(const mc_baseline *b, const char *path, const mc_result *r, uint64_t *known);
void mc_baseline_filtered_free(mc_result *copy);

#endif
