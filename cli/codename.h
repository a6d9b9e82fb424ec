/* Issue codes as users type them: `modelcheck explain aem_weight_sum`, and
 * the nearest code for a name that is none (a typo). */
#ifndef MCC_CODENAME_H
#define MCC_CODENAME_H

/* The code whose name equals name ignoring ASCII case, or -1. */
int mcc_code_find_nocase(const char *name);

/* The name of the code nearest to name (edit distance, ignoring case), or
 * NULL when none is near enough to be the one meant. */
const char *mcc_code_nearest(const char *name);

#endif
