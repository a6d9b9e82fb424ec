/* Mutator by target name, and content detection for the auto target. */
#include <string.h>

#include "mcm.h"

static const struct {
    const char *name;
    mcm_mutator fn;
    mcm_cutter cut;
} table[] = {
    {"auto", mcm_mutate_auto, mcm_cut_auto},          {"aem", mcm_mutate_aem, mcm_cut_aem},
    {"aem2025", mcm_mutate_aem2025, mcm_cut_aem2025}, {"semodel", mcm_mutate_semodel, mcm_cut_semodel},
    {"aamf", mcm_mutate_aamf, mcm_cut_aamf},          {"e3d", mcm_mutate_e3d, mcm_cut_e3d},
    {"nlm", mcm_mutate_nlm, mcm_cut_nlm},
};

static size_t entry(const char *name)
{
    for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
        if (strcmp(name, table[i].name) == 0) return i;
    return sizeof table / sizeof table[0];
}

mcm_mutator mcm_find(const char *name)
{
    size_t i = entry(name);
    return i < sizeof table / sizeof table[0] ? table[i].fn : NULL;
}

mcm_cutter mcm_find_cut(const char *name)
{
    size_t i = entry(name);
    return i < sizeof table / sizeof table[0] ? table[i].cut : NULL;
}

/* The magics of docs/formats; legacy AAMF has none, so it is AAMF only
 * when nothing else matches and the leading u16 counts fit. NULL: none. */
static const char *detect(const uint8_t *data, size_t size)
{
    static const uint8_t e3d[6] = {0x01, 0x00, 0x0C, 0x00, 0x00, 0x00};
    if (size >= 12 && memcmp(data, e3d, sizeof e3d) == 0) return "e3d";
    if (size >= 3 && memcmp(data, "AEM", 3) == 0) return "aem";
    if (size >= 7 && memcmp(data, "SEModel", 7) == 0) return "semodel";
    if (size >= 8 && memcmp(data + 4, "LDOM", 4) == 0) return "nlm";
    if (size >= 4 && memcmp(data + 1, "AMF", 3) == 0) return "aamf";
    if (size >= 4 && 4 + 4 * (size_t)(data[0] | data[1] << 8) <= size) return "aamf";
    return NULL;
}

size_t mcm_mutate_auto(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    const char *name = detect(data, size);
    if (name) return mcm_find(name)(data, size, max_size, seed);
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    return mcm_bytes(&r, data, size, max_size);
}

size_t mcm_cut_auto(uint8_t *data, size_t size, size_t k)
{
    const char *name = detect(data, size);
    return name ? mcm_find_cut(name)(data, size, k) : 0;
}
