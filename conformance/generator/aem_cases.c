/* AEM conformance cases: each starts from a valid sample model and changes
 * one thing, so the file breaks exactly the rule it is named after. */
#include <stdio.h>

#include "aem_builder.h"
#include "corpus_cases.h"

typedef void (*aem_mutation)(aemb_model *m);

typedef struct aem_case {
    const char *dir;  /* valid or invalid */
    const char *name; /* file name: says what it is */
    enum aemb_sample_kind base;
    aem_mutation mutate;
    long truncate_by; /* bytes cut from the end after writing */
} aem_case;

static void weights_sum_0_93(aemb_model *m)
{
    m->vertices[5].weight[0] = 0.68f;
}

static void index_out_of_range(aemb_model *m)
{
    m->indices[4] = 8;
}

static void bone_parent_self(aemb_model *m)
{
    m->bones[1].parent = 1;
}

static void bone_parent_forward(aemb_model *m)
{
    m->bones[1].parent = 2;
}

static void texture_index_minus_one(aemb_model *m)
{
    m->materials[1].texture[2] = -1;
}

static void mesh_range_past_indices(aemb_model *m)
{
    m->meshes[1].first_index = 9;
}

static void key_times_equal(aemb_model *m)
{
    m->keys[1].time = 0.0f;
}

static void sequence_index_past_end(aemb_model *m)
{
    m->animations[0].sequence_index = 1;
}

static void normal_not_unit(aemb_model *m)
{
    m->vertices[2].normal[2] = 0.9f;
}

static void duration_zero(aemb_model *m)
{
    m->animations[0].duration = 0.0f;
}

static const aem_case aem_cases[] = {
    {"valid", "skinned_animated.aem", AEMB_SKINNED_ANIMATED, NULL, 0},
    {"valid", "static_exporter_unskinned.aem", AEMB_STATIC, NULL, 0},
    {"valid", "texture_index_minus_one.aem", AEMB_SKINNED_ANIMATED, texture_index_minus_one, 0},
    {"invalid", "weights_sum_0_93.aem", AEMB_SKINNED_ANIMATED, weights_sum_0_93, 0},
    {"invalid", "index_out_of_range.aem", AEMB_SKINNED_ANIMATED, index_out_of_range, 0},
    {"invalid", "bone_parent_self.aem", AEMB_SKINNED_ANIMATED, bone_parent_self, 0},
    {"invalid", "bone_parent_forward.aem", AEMB_SKINNED_ANIMATED, bone_parent_forward, 0},
    {"invalid", "mesh_range_past_indices.aem", AEMB_SKINNED_ANIMATED, mesh_range_past_indices, 0},
    {"invalid", "key_times_equal.aem", AEMB_SKINNED_ANIMATED, key_times_equal, 0},
    {"invalid", "sequence_index_past_end.aem", AEMB_SKINNED_ANIMATED, sequence_index_past_end, 0},
    {"invalid", "normal_length_0_9.aem", AEMB_SKINNED_ANIMATED, normal_not_unit, 0},
    {"invalid", "animation_duration_zero.aem", AEMB_SKINNED_ANIMATED, duration_zero, 0},
    {"invalid", "truncated_in_keyframes.aem", AEMB_SKINNED_ANIMATED, NULL, 7},
};

static int write_aem_case(const char *root, const aem_case *c)
{
    char path[4096];
    aemb_model *m = aemb_sample(c->base);
    if (!m) return -1;
    if (c->mutate) c->mutate(m);
    mcb_buf b = {0};
    aemb_write(m, &b);
    aemb_free(m);
    if (c->truncate_by > 0 && (size_t)c->truncate_by <= b.size) b.size -= (size_t)c->truncate_by;
    snprintf(path, sizeof path, "%s/aem/%s/%s", root, c->dir, c->name);
    int rc = mcb_write_file(&b, path);
    if (rc != 0) fprintf(stderr, "mc_corpusgen: cannot write %s\n", path);
    mcb_free(&b);
    return rc;
}

int mcg_write_aem(const char *root)
{
    if (mcg_mkdir(root, "aem") || mcg_mkdir(root, "aem/valid") || mcg_mkdir(root, "aem/invalid"))
        return -1;
    for (size_t i = 0; i < sizeof aem_cases / sizeof aem_cases[0]; i++)
        if (write_aem_case(root, &aem_cases[i]) != 0) return -1;
    return 0;
}
