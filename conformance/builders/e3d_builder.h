/* Builds E3D files (../shared/specs/e3d.adoc) for tests and the corpus. */
#ifndef E3D_BUILDER_H
#define E3D_BUILDER_H

#include "mcb_buf.h"

#endif
