/* Shim (see psxgte.h): nothing the loaders use. */
#include <stdint.h>
