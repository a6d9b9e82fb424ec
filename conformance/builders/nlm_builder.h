/* Builds NLM files (../shared/specs/nlm.md) for tests and the corpus. */
#ifndef NLM_BUILDER_H
#define NLM_BUILDER_H

#include "mcb_buf.h"

#endif
