/*
 * The corpus generator's shared parts: one writer per format writes its
 * cases into corpus/<format>/{valid,invalid}/ and records each in the
 * manifest (corpus/manifest.json, schema reports/schema/manifest.schema.json).
 * The case tables (<format>_cases.h) are the unit tests' too: tests/unit/
 * test_cases.c builds every row and checks its codes, counts and the
 * offset where its rule first fires.
 */
#ifndef MC_CORPUS_CASES_H
#define MC_CORPUS_CASES_H

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
 * MCG_AT2), or `add` bytes from the start of the file (MCG_ABS). */
typedef struct mcg_at {
    int where; /* MCG_NOWHERE, MCG_FILE, or MCG_SECTION + the format's place */
    uint64_t index, sub;
    int64_t add;
} mcg_at;

enum { MCG_NOWHERE = 0, MCG_FILE = 1, MCG_SECTION = 2 };
#define MCG_AT(place, index, add) {MCG_SECTION + (int)(place), (index), 0, (add)}
#define MCG_AT2(place, index, sub, add) {MCG_SECTION + (int)(place), (index), (sub), (add)}
#define MCG_ABS(offset) {MCG_FILE, 0, 0, (offset)}
#define MCG_NOWHERE_AT {MCG_NOWHERE, 0, 0, 0}

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

#endif
