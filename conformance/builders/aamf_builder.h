/* Builds AAMF/SAMF files (../shared/specs/aamf.md) for tests and the corpus. */
#ifndef AAMF_BUILDER_H
#define AAMF_BUILDER_H

#include "mcb_buf.h"

#endif
