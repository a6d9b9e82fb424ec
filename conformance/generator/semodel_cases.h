/*
 * The SEModel case table (semodel_cases.c): the corpus generator writes
 * every row, the unit tests build every row and check it.
 */
#ifndef MC_SEMODEL_CASES_H
#define MC_SEMODEL_CASES_H

#include "corpus_cases.h"
#include "semodel_builder.h"

/* The places an SEModel row's first offset is counted from (mcg_at: index,
 * sub), as semb_write recorded them in the row's model. */
enum mcg_semodel_place {
    SE_AT_BONE_NAME,    /* bone index's name */
    SE_AT_BONE,         /* bone index's record */
    SE_AT_MESH,         /* mesh index's header */
    SE_AT_NORMALS,      /* 2018: mesh index's normals */
    SE_AT_WEIGHTS,      /* 2018: mesh index's weights */
    SE_AT_FACES,        /* mesh index's faces */
    SE_AT_MATERIALS,    /* 2018: mesh index's material references */
    SE_AT_MATERIAL,     /* material index */
    SE_AT_DRAFT_NORMAL, /* draft: vertex sub of mesh index, its normal */
    SE_AT_DRAFT_WEIGHTS,
    SE_AT_DRAFT_MAT,
    SE_AT_TAIL,         /* the bytes after the last block */
    SE_AT_END           /* the final file size */
};

typedef struct mcg_semodel_case {
    mcg_case meta;
    enum semb_sample_kind base;
    enum semb_layout layout;
    int (*mutate)(semb_model *m); /* 0 on success */
    long truncate_by; /* bytes cut from the end after writing */
    mcg_at first;     /* where meta.rule first fires */
    int from_empty;   /* mutate fills semb_new(layout) instead of a sample */
} mcg_semodel_case;

extern const mcg_semodel_case mcg_semodel_cases[];
extern const size_t mcg_semodel_case_count;

/* Writes the case's bytes into b and where its rule first fires into
 * *first (0 when the row names no place). 0, or -1 on failure. */
int mcg_semodel_build(const mcg_semodel_case *c, mcb_buf *b, uint64_t *first);

#endif
