/* E3D conformance cases: not written yet. */
#include "corpus_cases.h"

int mcg_write_e3d(const char *root, mcg_manifest *mf)
{
    (void)root;
    (void)mf;
    return 0;
}
