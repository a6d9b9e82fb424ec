/*
 * Validator versus reference loader: the rule both the corpus agreement test
 * and the differential fuzz targets apply. A loader agrees with the validator
 * when it accepts exactly the files with no error-level issue; the allowlist
 * (conformance/loaders/allowlist.txt) names the accepted exceptions.
 */
#ifndef MC_AGREEMENT_H
#define MC_AGREEMENT_H

#include <stddef.h>

#include "mcl.h"
#include "modelcheck.h"

typedef enum mca_kind { MCA_LENIENT = 0, MCA_STRICT = 1 } mca_kind;

typedef struct mca_entry {
    mcl_format format;
    mca_kind kind;
    char what[64];   /* code name (lenient) or mcl status name (strict) */
    char reason[160];
    unsigned used;   /* cases it excused */
} mca_entry;

typedef struct mca_allowlist {
    mca_entry *entries;
    size_t count;
} mca_allowlist;

/* Parses the allowlist file; on a malformed line returns -1 and writes the
 * line number and problem to why. */
int mca_allowlist_load(const char *path, mca_allowlist *list, char *why, size_t why_size);
/* The same from the file's text (the differential fuzz targets embed it). */
int mca_allowlist_parse(const char *text, mca_allowlist *list, char *why, size_t why_size);
void mca_allowlist_free(mca_allowlist *list);

typedef enum mca_verdict {
    MCA_AGREE = 0,
    MCA_EXCUSED,          /* a disagreement the allowlist names */
    MCA_LOADER_LENIENT,   /* loader accepts, validator finds errors */
    MCA_LOADER_STRICT     /* loader rejects, validator finds none */
} mca_verdict;

/* Compares one file's validator result (default options, format forced)
 * with the loader's status; marks the allowlist entries used. */
mca_verdict mca_compare(const mc_result *validator, mcl_format format, mcl_status loader,
                        mca_allowlist *list);

#endif
