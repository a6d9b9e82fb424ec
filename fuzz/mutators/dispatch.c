/* Mutator by target name, and content detection for the auto target. */
#include <string.h>

#include "mcm.h"

static const struct {
    const char *name;
    mcm_mutator fn;
} table[] = {
    {"auto", mcm_mutate_auto}, {"aem", mcm_mutate_aem}, {"aem2025", mcm_mutate_aem2025}, {"semodel", mcm_mutate_semodel},
    {"aamf", mcm_mutate_aamf}, {"e3d", mcm_mutate_e3d}, {"nlm", mcm_mutate_nlm},
};

mcm_mutator mcm_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
        if (strcmp(name, table[i].name) == 0) return table[i].fn;
    return NULL;
}

/* The magics of FIELD-NOTES; legacy AAMF has none, so it gets the AAMF
 * mutator only when nothing else matches and the leading u16 counts fit. */
size_t mcm_mutate_auto(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    static const uint8_t e3d[6] = {0x01, 0x00, 0x0C, 0x00, 0x00, 0x00};
    if (size >= 12 && memcmp(data, e3d, sizeof e3d) == 0) return mcm_mutate_e3d(data, size, max_size, seed);
    if (size >= 3 && memcmp(data, "AEM", 3) == 0) return mcm_mutate_aem(data, size, max_size, seed);
    if (size >= 7 && memcmp(data, "SEModel", 7) == 0) return mcm_mutate_semodel(data, size, max_size, seed);
    if (size >= 8 && memcmp(data + 4, "LDOM", 4) == 0) return mcm_mutate_nlm(data, size, max_size, seed);
    if (size >= 4 && memcmp(data + 1, "AMF", 3) == 0) return mcm_mutate_aamf(data, size, max_size, seed);
    if (size >= 4 && 4 + 4 * (size_t)(data[0] | data[1] << 8) <= size)
        return mcm_mutate_aamf(data, size, max_size, seed);
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    return mcm_bytes(&r, data, size, max_size);
}
