/* Shim (see psxgte.h): GTE macros are left undeclared; never run. */
#include "psxgte.h"
