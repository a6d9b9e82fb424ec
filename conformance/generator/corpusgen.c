/*
 * mc_corpusgen OUTDIR: writes the conformance corpus and its manifest
 * deterministically (same bytes on every run), one writer per format
 * (generator/<format>_cases.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_cases.h"
#include "modelcheck.h"

static int write_manifest(const char *root, cJSON *cases)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "generator", "mc_corpusgen " MC_VERSION_STRING);
    cJSON_AddItemToObject(doc, "cases", cases);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!text) return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.json", root);
    FILE *f = fopen(path, "wb");
    int rc = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
    if (f && fclose(f) != 0) rc = -1;
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--scene-forms") == 0)
        return mcg_mkdir(argv[2], "") || mcg_write_scenes(argv[2], "", 1) ? 1 : 0;
    if (argc != 2) {
        fputs("usage: mc_corpusgen OUTDIR | mc_corpusgen --scene-forms OUTDIR\n", stderr);
        return 2;
    }
    const char *root = argv[1];
    if (mcg_mkdir(root, "") != 0) return 1;
    mcg_manifest mf = {cJSON_CreateArray(), 0};
    static const mcg_table *const tables[] = {&mcg_aem_table, &mcg_aem2025_table, &mcg_semodel_table, &mcg_aamf_table,
                                              &mcg_e3d_table, &mcg_nlm_table};
    int rc = mcg_write_any(root, &mf);
    for (size_t i = 0; rc == 0 && i < sizeof tables / sizeof tables[0]; i++)
        rc = mcg_write_table(root, tables[i], &mf);
    if (rc == 0) rc = mcg_write_scenes(root, "scenes", 0);
    if (rc != 0) {
        cJSON_Delete(mf.cases);
        return 1;
    }
    if (mf.failed || write_manifest(root, mf.cases) != 0) return 1;
    return 0;
}
