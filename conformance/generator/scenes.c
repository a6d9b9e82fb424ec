/*
 * corpus/scenes: every bundled source scene as .gltf (buffers embedded),
 * the external images it references, its facts file, and scenes.json
 * (reports/schema/scenes.schema.json). With --scene-forms the other forms
 * (gltf-separate, glb, obj) are written too, for the glTF validator test;
 * certification writes them into each case's directory from the same code.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_cases.h"
#include "mc_scene.h"
#include "mc_scene_json.h"
#include "modelcheck.h"

static int write_json(const char *dir, const char *name, cJSON *doc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = cJSON_Print(doc);
    FILE *f = text ? fopen(path, "wb") : NULL;
    int rc = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
    if (f && fclose(f) != 0) rc = -1;
    free(text);
    if (rc) fprintf(stderr, "mc_corpusgen: cannot write %s\n", path);
    return rc;
}

static int one_scene(const char *dir, size_t i, int all_forms, cJSON *list)
{
    mcs_scene *s = mcs_scene_build(i);
    mcs_facts f;
    if (!s || mcs_facts_build(s, &f) != 0) {
        mcs_scene_free(s);
        return fprintf(stderr, "mc_corpusgen: out of memory building scene %s\n", mcs_scene_name(i)), -1;
    }
    const char *main_file;
    int rc = 0;
    for (int form = 0; form <= MCS_OBJ && rc == 0; form++) {
        if (form != MCS_GLTF && (!all_forms || (form == MCS_OBJ && !s->has_obj))) continue;
        char sub[4096 + 32];
        /* --scene-forms: one directory per form (the .gltf names collide) */
        if (all_forms) snprintf(sub, sizeof sub, "%.4096s/%.16s", dir, mcs_form_name((mcs_form)form));
        else snprintf(sub, sizeof sub, "%.4096s", dir);
        if (all_forms && mcg_mkdir(dir, mcs_form_name((mcs_form)form)) != 0) return mcs_scene_free(s), mcs_facts_free(&f), -1;
        rc = mcs_write_form(s, (mcs_form)form, sub, &main_file);
        if (rc) fprintf(stderr, "mc_corpusgen: cannot write scene %s (%s)\n", s->name, mcs_form_name((mcs_form)form));
    }
    char name[300];
    snprintf(name, sizeof name, "%s.facts.json", s->name);
    cJSON *facts = mcs_facts_json(s, &f);
    if (rc == 0) rc = write_json(dir, name, facts);
    cJSON_Delete(facts);
    cJSON_AddItemToArray(list, mcs_manifest_entry(s));
    mcs_facts_free(&f);
    mcs_scene_free(s);
    return rc;
}

int mcg_write_scenes(const char *root, const char *sub, int all_forms)
{
    if (mcg_mkdir(root, sub) != 0) return -1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *sub ? "/" : "", sub);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "generator", "mc_corpusgen " MC_VERSION_STRING);
    cJSON *list = cJSON_AddArrayToObject(doc, "scenes");
    int rc = 0;
    for (size_t i = 0; i < mcs_scene_count() && rc == 0; i++) rc = one_scene(dir, i, all_forms, list);
    if (rc == 0) rc = write_json(dir, "scenes.json", doc);
    cJSON_Delete(doc);
    return rc;
}
