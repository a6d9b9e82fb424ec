/* Shim (see psxgte.h): the pad report type only. */
#ifndef MC_SHIM_PSXPAD_H
#define MC_SHIM_PSXPAD_H
#include <stdint.h>
typedef struct { uint8_t stat, len_type; uint16_t btn; uint8_t rs_x, rs_y, ls_x, ls_y; } PADTYPE;
#endif
