/*
 * The scenes manifest entry and facts file of a scene (corpus/scenes,
 * reports/schema/scenes.schema.json). Numbers are rounded to 6 significant
 * digits: the files are for people and other tools; certification compares
 * against the facts computed in memory from the same scene.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_scene.h"
#include "mc_scene_json.h"

#define FACT_TRIANGLES_MAX 2048 /* larger scenes list counts only */

static cJSON *num(double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", v);
    return cJSON_CreateNumber(strtod(buf, NULL));
}

static cJSON *nums(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, num(v[i]));
    return a;
}

const char *mcs_fit_name(mcs_fit f)
{
    return f == MCS_FITS ? "fits" : f == MCS_LOSSY ? "lossy" : "no";
}

static cJSON *vertex_json(const mcs_facts *f, const mcs_fvertex *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "position", nums(v->pos, 3));
    if (v->has_nrm) cJSON_AddItemToObject(o, "normal", nums(v->nrm, 3));
    if (v->has_uv) cJSON_AddItemToObject(o, "uv", nums(v->uv, 2));
    if (v->has_color) cJSON_AddItemToObject(o, "color", nums(v->color, 4));
    if (v->influences) {
        cJSON *w = cJSON_AddObjectToObject(o, "weights");
        for (int k = 0; k < v->influences; k++) {
            const char *name = f->bones[v->bone[k]].name;
            if (!cJSON_GetObjectItemCaseSensitive(w, name)) cJSON_AddItemToObject(w, name, num(v->weight[k]));
        }
    }
    return o;
}

cJSON *mcs_facts_json(const mcs_scene *s, const mcs_facts *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "scene", s->name);
    cJSON_AddStringToObject(o, "space", "world space, bind pose, glTF units (metres), Y up");
    cJSON_AddNumberToObject(o, "triangle_count", f->triangle_count);
    cJSON_AddNumberToObject(o, "line_count", f->line_count);
    cJSON_AddNumberToObject(o, "point_count", f->point_count);
    cJSON_AddNumberToObject(o, "max_influences", f->max_influences);
    cJSON *bones = cJSON_AddArrayToObject(o, "bones");
    for (uint32_t b = 0; b < f->bone_count; b++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", f->bones[b].name);
        if (f->bones[b].parent >= 0) cJSON_AddStringToObject(x, "parent", f->bones[f->bones[b].parent].name);
        else cJSON_AddNullToObject(x, "parent");
        cJSON_AddItemToObject(x, "bind_position", nums(f->bones[b].bind + 12, 3));
        cJSON_AddItemToArray(bones, x);
    }
    cJSON *anims = cJSON_AddArrayToObject(o, "animations");
    for (uint32_t a = 0; a < f->anim_count; a++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", f->anims[a].name);
        cJSON_AddItemToObject(x, "duration_s", num(f->anims[a].duration));
        cJSON *t = cJSON_AddArrayToObject(x, "sampled_at_s");
        for (uint32_t k = 0; k < f->anims[a].sample_count; k++) cJSON_AddItemToArray(t, num(f->anims[a].times[k]));
        cJSON_AddItemToArray(anims, x);
    }
    if (f->triangle_count <= FACT_TRIANGLES_MAX) {
        cJSON *tris = cJSON_AddArrayToObject(o, "triangles");
        for (uint32_t t = 0; t < f->triangle_count; t++) {
            cJSON *tri = cJSON_CreateArray();
            for (int e = 0; e < 3; e++) cJSON_AddItemToArray(tri, vertex_json(f, &f->tri[t * 3 + e]));
            cJSON_AddItemToArray(tris, tri);
        }
        cJSON *lines = cJSON_AddArrayToObject(o, "lines");
        for (uint32_t l = 0; l < f->line_count; l++) cJSON_AddItemToArray(lines, nums(f->line_pos + l * 6, 6));
    }
    return o;
}

cJSON *mcs_manifest_entry(const mcs_scene *s)
{
    cJSON *o = cJSON_CreateObject();
    char file[300];
    cJSON_AddStringToObject(o, "name", s->name);
    cJSON_AddStringToObject(o, "group", s->group);
    cJSON_AddStringToObject(o, "feature", s->feature);
    snprintf(file, sizeof file, "%s.gltf", s->name);
    cJSON_AddStringToObject(o, "file", file);
    snprintf(file, sizeof file, "%s.facts.json", s->name);
    cJSON_AddStringToObject(o, "facts", file);
    cJSON *forms = cJSON_AddArrayToObject(o, "forms");
    for (int f = 0; f <= MCS_OBJ; f++)
        if (f != MCS_OBJ || s->has_obj) cJSON_AddItemToArray(forms, cJSON_CreateString(mcs_form_name((mcs_form)f)));
    cJSON *ign = cJSON_AddArrayToObject(o, "gltf_validator_expected");
    if (s->gltf_ignore[0]) cJSON_AddItemToArray(ign, cJSON_CreateString(s->gltf_ignore));
    cJSON *formats = cJSON_AddObjectToObject(o, "formats");
    for (int k = 0; k < MCS_FORMAT_COUNT; k++) {
        cJSON *x = cJSON_AddObjectToObject(formats, mcs_format_caps[k].format);
        cJSON_AddStringToObject(x, "fit", mcs_fit_name(s->fit[k]));
        cJSON_AddStringToObject(x, "note", s->note[k]);
    }
    return o;
}
