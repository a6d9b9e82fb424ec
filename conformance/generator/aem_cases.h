/*
 * The AEM case table (aem_cases.c): the corpus generator writes every row,
 * the unit tests build every row and check it.
 */
#ifndef MC_AEM_CASES_H
#define MC_AEM_CASES_H

#include "aem_builder.h"
#include "corpus_cases.h"

/* The places an AEM row's first offset is counted from (mcg_at): record
 * index of a section (enum aemb_section), or the final file size. */
#define AEM_AT_END AEMB_SECTIONS

typedef struct mcg_aem_case {
    mcg_case meta;
    enum aemb_sample_kind base;
    void (*mutate)(aemb_model *m);
    size_t truncate_to; /* keep only this many bytes (0: whole file) */
    size_t cut;         /* bytes cut from the end */
    size_t append;      /* zero bytes appended */
    void (*patch)(mcb_buf *b); /* byte-level change after writing (header lies) */
    mcg_at first;       /* where meta.rule first fires */
} mcg_aem_case;

extern const mcg_aem_case mcg_aem_cases[];
extern const size_t mcg_aem_case_count;

/* Writes the case's bytes into b and where its rule first fires into
 * *first (0 when the row names no place). 0, or -1 when memory ran out. */
int mcg_aem_build(const mcg_aem_case *c, mcb_buf *b, uint64_t *first);

#endif
