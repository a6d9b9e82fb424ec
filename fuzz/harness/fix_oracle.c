/* mc_fix_oracle.h: models compared field by field. */
#include <stdio.h>
#include <string.h>

#include "mc_fix_oracle.h"

/* The model fields an edit of a code may change: a fix that rewrites
 * weights may change the model's weights, one that rewrites unused slots
 * its joints; every other fix (names after their NUL, padding, sentinels,
 * bounds the model does not hold) none. */
typedef struct code_fields {
    const char *code;
    const char *field;
} code_fields;

static const code_fields named[] = {
    {"SAMF_WEIGHT_SUM", "weights"},
    {"SAMF_WEIGHT_SUM_TRUNCATED", "weights"},
    {"SAMF_SKIN_UNUSED_SLOT_INDEX", "joints"},
    {"AEM2025_FILLER_JOINT_INDEX", "joints"},
    {"AEM2025_ZERO_WEIGHT_JOINT", "joints"},
};

#define NAMED_COUNT (sizeof named / sizeof named[0])

typedef struct differ {
    const char *const *skip;
    char *where;
    size_t size;
    int found;
} differ;

static int skipped(const differ *d, const char *field)
{
    for (size_t i = 0; d->skip && d->skip[i]; i++)
        if (strcmp(d->skip[i], field) == 0) return 1;
    return 0;
}

/* n bytes at a and b (either NULL: both must be), under prefix/i/field. */
static void bytes(differ *d, const char *prefix, unsigned i, const char *field, const void *a, const void *b,
                  size_t n)
{
    if (d->found || skipped(d, field)) return;
    int differ_ = (!a) != (!b) || (a && n && memcmp(a, b, n) != 0);
    if (!differ_) return;
    snprintf(d->where, d->size, "%s/%u/%s", prefix, i, field);
    d->found = 1;
}

static void text(differ *d, const char *prefix, unsigned i, const char *field, const char *a, const char *b)
{
    if (a && b) bytes(d, prefix, i, field, a, b, strlen(a) + 1 > strlen(b) + 1 ? strlen(a) + 1 : strlen(b) + 1);
    else bytes(d, prefix, i, field, a, b, 0);
}

#define SAME(d, prefix, i, field, x, y) bytes(d, prefix, i, field, &(x), &(y), sizeof(x))

static void meshes(differ *d, const mcl_model *a, const mcl_model *b)
{
    for (unsigned i = 0; i < a->mesh_count && !d->found; i++) {
        const mcl_mesh *x = &a->meshes[i], *y = &b->meshes[i];
        text(d, "meshes", i, "name", x->name, y->name);
        SAME(d, "meshes", i, "vertex_count", x->vertex_count, y->vertex_count);
        SAME(d, "meshes", i, "uv_layer_count", x->uv_layer_count, y->uv_layer_count);
        SAME(d, "meshes", i, "influences", x->influences, y->influences);
        SAME(d, "meshes", i, "index_count", x->index_count, y->index_count);
        SAME(d, "meshes", i, "primitive", x->primitive, y->primitive);
        if (d->found) return;
        size_t v = x->vertex_count, inf = (size_t)x->influences * v, prims = x->index_count / (x->primitive == MCL_LINES ? 2 : 3);
        bytes(d, "meshes", i, "positions", x->positions, y->positions, 3 * v * sizeof(float));
        bytes(d, "meshes", i, "normals", x->normals, y->normals, 3 * v * sizeof(float));
        bytes(d, "meshes", i, "uvs", x->uvs, y->uvs, 2 * v * x->uv_layer_count * sizeof(float));
        bytes(d, "meshes", i, "colors", x->colors, y->colors, 4 * v * sizeof(float));
        bytes(d, "meshes", i, "joints", x->joints, y->joints, inf * sizeof(uint32_t));
        bytes(d, "meshes", i, "weights", x->weights, y->weights, inf * sizeof(float));
        SAME(d, "meshes", i, "rigid_bone", x->rigid_bone, y->rigid_bone);
        bytes(d, "meshes", i, "indices", x->indices, y->indices, x->index_count * sizeof(uint32_t));
        SAME(d, "meshes", i, "material", x->material, y->material);
        bytes(d, "meshes", i, "face_materials", x->face_materials, y->face_materials, prims * sizeof(int32_t));
    }
}

static void materials(differ *d, const mcl_model *a, const mcl_model *b)
{
    for (unsigned i = 0; i < a->material_count && !d->found; i++) {
        const mcl_material *x = &a->materials[i], *y = &b->materials[i];
        text(d, "materials", i, "name", x->name, y->name);
        text(d, "materials", i, "texture_path", x->texture_path, y->texture_path);
        SAME(d, "materials", i, "texture_size", x->texture_size, y->texture_size);
        if (d->found) return;
        bytes(d, "materials", i, "texture_data", x->texture_data, y->texture_data, (size_t)x->texture_size);
        SAME(d, "materials", i, "base_color", x->base_color, y->base_color);
        SAME(d, "materials", i, "texture_texels", x->texture_texels, y->texture_texels);
        SAME(d, "materials", i, "texture_width", x->texture_width, y->texture_width);
        SAME(d, "materials", i, "texture_height", x->texture_height, y->texture_height);
        SAME(d, "materials", i, "texture_channels", x->texture_channels, y->texture_channels);
        SAME(d, "materials", i, "texture_levels", x->texture_levels, y->texture_levels);
    }
}

static void bones(differ *d, const mcl_model *a, const mcl_model *b)
{
    for (unsigned i = 0; i < a->bone_count && !d->found; i++) {
        const mcl_bone *x = &a->bones[i], *y = &b->bones[i];
        text(d, "bones", i, "name", x->name, y->name);
        SAME(d, "bones", i, "parent", x->parent, y->parent);
        SAME(d, "bones", i, "local", x->local, y->local);
        SAME(d, "bones", i, "inverse_bind", x->inverse_bind, y->inverse_bind);
    }
}

static const unsigned key_width[] = {3, 4, 3, 16};

static void animations(differ *d, const mcl_model *a, const mcl_model *b)
{
    for (unsigned i = 0; i < a->animation_count && !d->found; i++) {
        const mcl_animation *x = &a->animations[i], *y = &b->animations[i];
        text(d, "animations", i, "name", x->name, y->name);
        SAME(d, "animations", i, "duration", x->duration, y->duration);
        SAME(d, "animations", i, "units_per_second", x->units_per_second, y->units_per_second);
        SAME(d, "animations", i, "looping", x->looping, y->looping);
        SAME(d, "animations", i, "track_count", x->track_count, y->track_count);
        for (unsigned t = 0; t < x->track_count && !d->found; t++) {
            const mcl_track *p = &x->tracks[t], *q = &y->tracks[t];
            SAME(d, "animations", i, "tracks/bone", p->bone, q->bone);
            SAME(d, "animations", i, "tracks/kind", p->kind, q->kind);
            SAME(d, "animations", i, "tracks/interpolation", p->interpolation, q->interpolation);
            SAME(d, "animations", i, "tracks/key_count", p->key_count, q->key_count);
            if (d->found || (unsigned)p->kind > MCL_TRACK_MATRIX) return;
            bytes(d, "animations", i, "tracks/times", p->times, q->times, p->key_count * sizeof(float));
            bytes(d, "animations", i, "tracks/values", p->values, q->values,
                  (size_t)p->key_count * key_width[p->kind] * sizeof(float));
        }
    }
}

int mc_fix_model_diff(const mcl_model *a, const mcl_model *b, const char *const *skip, char *where, size_t size)
{
    differ d = {skip, where, size, 0};
    if (a->mesh_count != b->mesh_count || a->material_count != b->material_count ||
        a->bone_count != b->bone_count || a->animation_count != b->animation_count ||
        strcmp(a->layout, b->layout) != 0) {
        snprintf(where, size, "counts or layout");
        return 1;
    }
    meshes(&d, a, b);
    materials(&d, a, b);
    bones(&d, a, b);
    animations(&d, a, b);
    return d.found;
}

/* The model fields the fix's edits name, NULL-terminated in out. */
static void named_fields(const mc_fix *fix, const char **out)
{
    size_t n = 0, k = 0;
    const mc_edit *e = mc_fix_edits(fix, &n);
    for (size_t c = 0; c < NAMED_COUNT; c++) {
        int code = mc_code_find(named[c].code);
        for (size_t i = 0; i < n; i++)
            if ((int)e[i].code == code) {
                out[k++] = named[c].field;
                break;
            }
    }
    out[k] = NULL;
}

int mc_fix_oracle_models(mcl_format format, const mc_fix *fix, const uint8_t *data, size_t size,
                         char *where, size_t where_size)
{
    mcl_limits limits = mcl_limits_default();
    limits.max_alloc_bytes = UINT64_C(256) << 20;
    limits.max_decompressed_bytes = UINT64_C(16) << 20;
    mcl_model *a = NULL, *b = NULL;
    if (mcl_load(format, data, size, &limits, &a, NULL) != MCL_OK) return 0;
    size_t out_size = 0;
    const uint8_t *out = mc_fix_output(fix, &out_size);
    mcl_error err;
    int rc = 0;
    if (mcl_load(format, out, out_size, &limits, &b, &err) != MCL_OK) {
        snprintf(where, where_size, "the output is rejected: %s", err.reason);
        rc = err.status != MCL_ERR_NOMEM && err.status != MCL_ERR_LIMIT;
    } else {
        const char *skip[NAMED_COUNT + 1];
        named_fields(fix, skip);
        rc = mc_fix_model_diff(a, b, skip, where, where_size);
    }
    mcl_free(a);
    mcl_free(b);
    return rc;
}
