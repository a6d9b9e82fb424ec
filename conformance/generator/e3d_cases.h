/*
 * The E3D case table (e3d_cases.c): the corpus generator writes every row,
 * the unit tests build every row and check it.
 */
#ifndef MC_E3D_CASES_H
#define MC_E3D_CASES_H

#include "corpus_cases.h"
#include "e3d_builder.h"

/* The places an E3D row's first offset is counted from (mcg_at): blocks of
 * the builder's cube (e3db_cube_map), a cube vertex, or the file's end.
 * Rows written block by block use MCG_ABS. */
enum mcg_e3d_place {
    E3D_AT_BBOX,
    E3D_AT_INTERLEAVED,
    E3D_AT_FACES,
    E3D_AT_FACES_MATERIALS,
    E3D_AT_SKIN_BONES,
    E3D_AT_TEXTURE,
    E3D_AT_MAP,
    E3D_AT_NODES,
    E3D_AT_NODE_MESH_ID,
    E3D_AT_FRAMES,
    E3D_AT_TRACK,
    E3D_AT_ROTATION,
    E3D_AT_VERTEX,  /* cube vertex index */
    E3D_AT_WEIGHTS, /* the bone weights of cube vertex index */
    E3D_AT_END      /* the final file size */
};

typedef struct mcg_e3d_case {
    mcg_case meta;
    void (*write)(e3db *w);
    mcg_at first; /* where meta.rule first fires */
} mcg_e3d_case;

extern const mcg_e3d_case mcg_e3d_cases[];
extern const size_t mcg_e3d_case_count;

/* Writes the case's bytes into w (zeroed by the caller; e3db_free after)
 * and where its rule first fires into *first (0 when the row names no
 * place). 0, or -1 when memory ran out. */
int mcg_e3d_build(const mcg_e3d_case *c, e3db *w, uint64_t *first);

#endif
