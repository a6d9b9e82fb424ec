/* Fixes of AEM's aem.md layout (aem1): the spring-2024 exporter's habits. */
#include "mc_fixer.h"

/* aem.md, Material Section: 255 means "not defined"; the exporter writes
 * -1. Only where 255 names no texture (at most 255 of them: else
 * AEM_MATERIAL_SENTINEL_AMBIGUOUS). */
static void minus_one_material(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    (void)arg;
    for (size_t i = 0; i < rec->field_count; i++) {
        const mc_field *f = &rec->fields[i];
        double v;
        if (mc_fx_get(fx, rec, f, 0, &v) && v == -1) mc_fx_set(fx, rec, f, 0, 255);
    }
}

static void fix_texture_minus_one(mc_fixing *fx)
{
    if (mc_fx_value_of(fx, "/header", "texture_count", 0, 256) > 255) return;
    mc_fx_each(fx, "/materials/*", minus_one_material, NULL);
}

/* docs/formats/aem.md, Strings: the exporter leaves stack bytes after the NUL. */
static void fix_string_trailing(mc_fixing *fx)
{
    mc_fx_each_zero_after_nul(fx, "/textures/*", "filename");
    mc_fx_each_zero_after_nul(fx, "/animations/*", "name");
}

/* aem.md, Bone Section: padding. */
static void fix_bone_padding(mc_fixing *fx)
{
    mc_fx_each_zero(fx, "/bones/*", "padding");
}

static const mc_fixer fixers[] = {
    {MC_AEM_MATERIAL_TEXTURE_MINUS_ONE, fix_texture_minus_one},
    {MC_AEM_STRING_TRAILING_BYTES, fix_string_trailing},
    {MC_AEM_BONE_PADDING, fix_bone_padding},
};

MC_FIXER_TABLE(mc_fixers_aem, fixers);
