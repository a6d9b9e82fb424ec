/* AAMF/SAMF conformance cases: not written yet. */
#include "corpus_cases.h"

int mcg_write_aamf(const char *root, mcg_manifest *mf)
{
    (void)root;
    (void)mf;
    return 0;
}
