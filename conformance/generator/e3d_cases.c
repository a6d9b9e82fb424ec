/* E3D conformance cases: not written yet. */
#include "corpus_cases.h"

int mcg_write_e3d(const char *root)
{
    (void)root;
    return 0;
}
