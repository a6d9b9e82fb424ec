/* E3D reference loader (not written yet: rejects every file). */
#include "mcl_internal.h"

mcl_status mcl__load_e3d(mcl_ctx *c, const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return mcl__fail(c, MCL_ERR_UNSUPPORTED, 0, "the E3D reference loader is not written yet");
}
