/*
 * The AAMF / SAMF case table (aamf_cases.c): the corpus generator writes
 * every row, the unit tests build every row and check it.
 */
#ifndef MC_AAMF_CASES_H
#define MC_AAMF_CASES_H

#include "aamf_builder.h"
#include "corpus_cases.h"

typedef struct mcg_aamf_case {
    mcg_case meta;
    enum aamfb_sample_kind base;
    int legacy;
    void (*mutate)(aamfb_model *m);
    long truncate_by; /* bytes cut from the end after writing */
    long append;      /* zero bytes appended after writing */
    mcg_at first;     /* where meta.rule first fires; AAMFB_END is the final size */
    void (*bytes)(mcb_buf *b); /* instead of a sample: writes the whole file */
} mcg_aamf_case;

extern const mcg_aamf_case mcg_aamf_cases[];
extern const size_t mcg_aamf_case_count;

/* Writes the case's bytes into b and where its rule first fires into
 * *first (0 when the row names no place). 0, or -1 when memory ran out. */
int mcg_aamf_build(const mcg_aamf_case *c, mcb_buf *b, uint64_t *first);

#endif
