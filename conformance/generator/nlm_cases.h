/*
 * The NLM case table (nlm_cases.c): the corpus generator writes every row,
 * the unit tests build every row and check it.
 */
#ifndef MC_NLM_CASES_H
#define MC_NLM_CASES_H

#include "corpus_cases.h"
#include "nlm_builder.h"

/* The places an NLM row's first offset is counted from (mcg_at: index,
 * sub), located by the builder's offset functions on the row's model. */
enum mcg_nlm_place {
    NLM_AT_MESH,      /* mesh index's header */
    NLM_AT_VERTEX,    /* vertex sub of mesh index */
    NLM_AT_INDEX,     /* index sub of mesh index */
    NLM_AT_TEXTURE,   /* mesh index's texture size field */
    NLM_AT_ANIMATION, /* the duration */
    NLM_AT_BONE_INFO, /* bone info index */
    NLM_AT_CHANNEL,   /* channel index */
    NLM_AT_POSITION_KEY, /* key sub of channel index; then rotation and scale keys */
    NLM_AT_ROTATION_KEY,
    NLM_AT_SCALE_KEY,
    NLM_AT_NODE_COUNT,
    NLM_AT_NODE,      /* node index */
    NLM_AT_CHILD,     /* child sub of node index */
    NLM_AT_END        /* the final file size */
};

typedef struct mcg_nlm_case {
    mcg_case meta;
    enum nlmb_sample_kind base;
    int (*mutate)(nlmb_model *m); /* 0 on success */
    long truncate_by; /* bytes cut from the end after writing */
    long append;      /* zero bytes added after writing */
    mcg_at first;     /* where meta.rule first fires */
    void (*bytes)(mcb_buf *b); /* instead of a sample: writes the whole file */
} mcg_nlm_case;

extern const mcg_nlm_case mcg_nlm_cases[];
extern const size_t mcg_nlm_case_count;

/* Writes the case's bytes into b and where its rule first fires into
 * *first (0 when the row names no place). 0, or -1 on failure. */
int mcg_nlm_build(const mcg_nlm_case *c, mcb_buf *b, uint64_t *first);

#endif
