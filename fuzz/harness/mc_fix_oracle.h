/*
 * The proof that a fix changed nothing a reader builds beyond what its
 * edits name (issue 35): the reference loader's models of a file and of its
 * fixed output, compared field by field, the fields named by the edits'
 * codes excepted. Shared by the fix_<format> fuzz targets and their corpus
 * replay.
 */
#ifndef MC_FIX_ORACLE_H
#define MC_FIX_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "mcl.h"
#include "modelcheck.h"

/* The first difference between the models of a and b, as a model path
 * ("meshes/0/weights") into where, skipping fields whose name is in skip
 * (NULL-terminated); 0 when equal. */
int mc_fix_model_diff(const mcl_model *a, const mcl_model *b, const char *const *skip, char *where,
                      size_t size);

/* Loads the input and fix's output with the reference loader of format:
 * 0 when the loader rejects the input, or takes both and their models
 * differ only in the fields the edits' codes name; otherwise 1 with where
 * saying what differs (or that the output was rejected). */
int mc_fix_oracle_models(mcl_format format, const mc_fix *fix, const uint8_t *data, size_t size,
                         char *where, size_t where_size);

#endif
