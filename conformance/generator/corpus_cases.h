/*
 * The corpus generator's shared parts: one writer per format writes its
 * cases into corpus/<format>/{valid,invalid}/ and records each in the
 * manifest (corpus/manifest.json, schema reports/schema/manifest.schema.json).
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
