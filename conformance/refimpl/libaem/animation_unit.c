/* libaem's animation.c, compiled unmodified from the snapshot (found on the
 * include path, see scripts/refimpls.sh) with the cglm functions it needs
 * declared first. */
#include "cglm_compat.h"
#include "animation.c"
