/* JSON of the scenes: manifest entries and facts files (corpus/scenes). */
#ifndef MC_SCENE_JSON_H
#define MC_SCENE_JSON_H

#include <cjson/cJSON.h>

#include "mc_scene.h"

const char *mcs_fit_name(mcs_fit f); /* "fits", "lossy", "no" */
cJSON *mcs_facts_json(const mcs_scene *s, const mcs_facts *f);
cJSON *mcs_manifest_entry(const mcs_scene *s);

#endif
