#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "codename.h"
#include "modelcheck.h"

/* Code names are short; a longer name is no typo of one. */
enum { MAX_NAME = 64 };

int mcc_code_find_nocase(const char *name)
{
    for (int i = 0; i < MC_CODE_COUNT; i++)
        if (strcasecmp(mc_code_get((mc_code)i)->name, name) == 0) return i;
    return -1;
}

/* Levenshtein distance ignoring case, both strings under MAX_NAME. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t row[MAX_NAME + 1];
    for (size_t j = 0; j <= nb; j++) row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t subst = diag + (toupper((unsigned char)a[i - 1]) != toupper((unsigned char)b[j - 1]));
            size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = subst < best ? subst : best;
            diag = up;
        }
    }
    return row[nb];
}

const char *mcc_code_nearest(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= MAX_NAME) return NULL;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        const char *c = mc_code_get((mc_code)i)->name;
        size_t nc = strlen(c);
        if (nc >= MAX_NAME) continue;
        size_t d = distance(name, n, c, nc);
        if (d < best_d) best_d = d, best = c;
    }
    /* a third of the name may be wrong (AEM_WIEGHT_SUM), or its prefix
     * missing (weight_sum: the distance is then the letters added) */
    return best && (best_d <= n / 3 || best_d == strlen(best) - n) ? best : NULL;
}
