/* The reference loaders behind the certify loader ABI (mc_loader_abi.h):
 * load, then use the model the way a game would (walk every element, pose
 * every animation at its start, middle, end and past both ends), then free. */
#include <stdio.h>

#include "mc_loader_abi.h"
#include "mcl.h"

int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

__attribute__((visibility("default")))
int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size)
{
    if (reason && reason_size) reason[0] = '\0';
    char dummy[1];
    if (!reason || !reason_size) reason = dummy, reason_size = sizeof dummy;
    mcl_model *m = NULL;
    mcl_error err;
    mcl_status s = mcl_load(mcl_format_from_name(format), data, size, NULL, &m, &err);
    if (s != MCL_OK) {
        snprintf(reason, reason_size, "%s at byte %llu: %s", mcl_strerror(s),
                 (unsigned long long)err.offset, err.reason);
        return 1;
    }
    s = mcl_exercise(m);
    mcl_free(m);
    if (s != MCL_OK) {
        snprintf(reason, reason_size, "using the model failed: %s", mcl_strerror(s));
        return 1;
    }
    return 0;
}
