/* Builds SEModel files (../shared/specs/semodel.md) for tests and the corpus. */
#ifndef SEMODEL_BUILDER_H
#define SEMODEL_BUILDER_H

#include "mcb_buf.h"

#endif
