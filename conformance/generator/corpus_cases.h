/*
 * The corpus generator's shared parts: one writer per format writes its
 * cases into corpus/<format>/{valid,invalid}/ and records each in the
 * manifest (corpus/manifest.json, schema reports/schema/manifest.schema.json).
 * The case tables (mcg_table) are the unit tests' too: tests/unit/
 * test_cases.c builds every row and checks its codes, counts and the
 * offset where its rule first fires.
 */
#ifndef MC_CORPUS_CASES_H
#define MC_CORPUS_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "mcb_buf.h"

/* One conformance case. The expectation is written by hand from the spec. */
typedef struct mcg_case {
    const char *file;        /* relative to the corpus root: "aem/invalid/x.aem" */
    const char *format;      /* "aem", or "any" for file-level cases */
    const char *layout;      /* the layout the file is written in ("" if none) */
    const char *rule;        /* the code the case targets; NULL for a clean case */
    const char *description; /* one line */
    const char *expect;      /* "CODE CODE*3 ...": codes and counts (default 1); "" for none */
    const char *args;        /* extra modelcheck options ("--format aem"), or NULL */
} mcg_case;

/* Where a case's rule first fires, written by hand beside the case: `add`
 * bytes past element `index` (and `sub` inside it, such as a mesh's
 * vertex) of one of the places the format's builder can locate (MCG_AT,
 * MCG_AT2), `add` bytes from the start of the file (MCG_ABS) or from its
 * end (MCG_END_AT: the size after the row's cuts and appends). */
typedef struct mcg_at {
    int where; /* MCG_NOWHERE, MCG_FILE, MCG_END or MCG_SECTION + the format's place */
    uint64_t index, sub;
    int64_t add;
} mcg_at;

enum { MCG_NOWHERE, MCG_FILE, MCG_END, MCG_SECTION };
#define MCG_AT(place, index, add) {MCG_SECTION + (int)(place), (index), 0, (add)}
#define MCG_AT2(place, index, sub, add) {MCG_SECTION + (int)(place), (index), (sub), (add)}
#define MCG_ABS(offset) {MCG_FILE, 0, 0, (offset)}
#define MCG_END_AT(add) {MCG_END, 0, 0, (add)}
#define MCG_NOWHERE_AT {MCG_NOWHERE, 0, 0, 0}

/* Locates a format's place (MCG_AT) in the written file; ctx is the
 * format's model. */
typedef uint64_t (*mcg_place_fn)(const void *ctx, int place, uint64_t index, uint64_t sub);

/* The offset `at` names in a written file of `size` bytes (0 for
 * MCG_NOWHERE). */
uint64_t mcg_offset(const mcg_at *at, size_t size, mcg_place_fn place, const void *ctx);

/* The n-th "CODE" or "CODE*count" of an expectation string: its catalog
 * code and count. 1 when found, 0 past the last one, -1 when malformed or
 * naming an unknown code. */
int mcg_expectation(const char *expect, size_t n, int *code, long *count);

typedef struct mcg_manifest {
    cJSON *cases;
    int failed; /* a case named an unknown code: the generator fails */
} mcg_manifest;

/* Creates root/sub (one level); 0 on success. */
int mcg_mkdir(const char *root, const char *sub);

/* Writes the case's bytes under root and adds its manifest entry. */
int mcg_write_case(const char *root, const mcg_case *c, const mcb_buf *bytes, mcg_manifest *mf);

int mcg_write_any(const char *root, mcg_manifest *mf);
/* ROOT/SUB: the exporter certification scenes, their facts and scenes.json;
 * all_forms: also the gltf-separate, glb and obj forms (generator/scenes.c). */
int mcg_write_scenes(const char *root, const char *sub, int all_forms);
int mcg_write_aem(const char *root, mcg_manifest *mf);
int mcg_write_semodel(const char *root, mcg_manifest *mf);
int mcg_write_aamf(const char *root, mcg_manifest *mf);
int mcg_write_e3d(const char *root, mcg_manifest *mf);
int mcg_write_nlm(const char *root, mcg_manifest *mf);

/* One built row of a case table. */
typedef struct mcg_built {
    const mcg_case *meta;
    mcb_buf bytes;  /* the file; mcb_free after use */
    bool placed;    /* the row names where its rule first fires: */
    uint64_t first; /* that offset in bytes */
} mcg_built;

/* A format's case table (<format>_cases.c): rows of the format's own type,
 * each starting with its mcg_case and holding an mcg_at. */
typedef struct mcg_table {
    const char *format; /* the corpus directory: "aem" */
    const void *rows;
    size_t count, row_size, first_at; /* first_at: offsetof the row's mcg_at */
    /* Writes the row's bytes into b and the offset its mcg_at names into
     * *first. 0, or -1 on failure. */
    int (*build)(const void *row, mcb_buf *b, uint64_t *first);
} mcg_table;

#define MCG_TABLE(format, rows, type, build) \
    {format, rows, sizeof rows / sizeof rows[0], sizeof rows[0], offsetof(type, first), build}

/* Builds row i of t into *out (zeroed by the caller). 0, or -1 on failure
 * (out->meta is still set). */
int mcg_table_row(const mcg_table *t, size_t i, mcg_built *out);

extern const mcg_table mcg_aem_table, mcg_aem2025_table, mcg_semodel_table, mcg_aamf_table, mcg_e3d_table,
    mcg_nlm_table;

/* Writes every row of t under root/<format>/{valid,invalid}. */
int mcg_write_table(const char *root, const mcg_table *t, mcg_manifest *mf);

#endif
