/* NLM conformance cases: not written yet. */
#include "corpus_cases.h"

int mcg_write_nlm(const char *root)
{
    (void)root;
    return 0;
}
