/* The rules several format modules share (mc_rules.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "mc_rules.h"

void mc_truncated(mc_ctx *c, mc_code code, const char *path, const char *fmt, ...)
{
    mc_instance *in = mc_emit(c, code, c->size);
    if (!in) return;
    mc_path(in, "%s", path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->message, sizeof in->message, fmt, ap);
    va_end(ap);
}

bool mc_fits_or_truncated(mc_ctx *c, const mc_reader *r, uint64_t count, uint64_t size, bool report,
                          mc_code code, const char *path, const char *what, ...)
{
    if (mc_reader_fits(r, count, size)) return true;
    if (!report) return false;
    char desc[128];
    va_list ap;
    va_start(ap, what);
    vsnprintf(desc, sizeof desc, what, ap);
    va_end(ap);
    uint64_t need;
    if (mc_mul_u64(count, size, &need))
        mc_truncated(c, code, path, "file ends inside %s: %" PRIu64 " bytes needed from 0x%zx, %zu present",
                     desc, need, r->pos, mc_reader_left(r));
    else
        mc_truncated(c, code, path, "file ends inside %s: %" PRIu64 " x %" PRIu64
                     " bytes from 0x%zx overflow, %zu present", desc, count, size, r->pos,
                     mc_reader_left(r));
    return false;
}

mc_parent_order mc_parent_order_of(int64_t parent, uint64_t i, uint64_t bones)
{
    if (parent < 0 || (uint64_t)parent >= bones) return MC_PARENT_RANGE;
    if ((uint64_t)parent < i) return MC_PARENT_BEFORE;
    return (uint64_t)parent == i ? MC_PARENT_SELF : MC_PARENT_FORWARD;
}

void mc_check_parent(mc_ctx *c, uint64_t at, uint64_t i, int64_t parent, uint64_t bones,
                     const mc_parent_codes *codes)
{
    if (parent == -1) return;
    mc_code code;
    const char *why;
    switch (mc_parent_order_of(parent, i, bones)) {
    case MC_PARENT_BEFORE: return;
    case MC_PARENT_SELF: code = codes->self, why = "a bone cannot be its own parent"; break;
    case MC_PARENT_FORWARD: code = codes->forward, why = "parents come before their children"; break;
    default: code = codes->range, why = "no such bone"; break;
    }
    mc_instance *in = mc_emit(c, code, at);
    mc_path(in, "/bones/%" PRIu64 "/parent", i);
    /* bone 0 can only be a root: "< 0" would read as a typo */
    if (i == 0)
        mc_msg(in, "bone 0: parent %" PRId64 " (expected -1: %s, and bone 0 has none before it; bone count %" PRIu64 ")",
               parent, why, bones);
    else if (i == 1)
        mc_msg(in, "bone 1: parent %" PRId64 " (expected -1 or bone 0: %s; bone count %" PRIu64 ")", parent, why, bones);
    else
        mc_msg(in, "bone %" PRIu64 ": parent %" PRId64 " (expected -1 or an earlier bone, 0 to %" PRIu64 ": %s; bone count %" PRIu64 ")",
               i, parent, i - 1, why, bones);
}

size_t mc_utf8_sequence_length(const uint8_t *s, size_t n)
{
    uint8_t b = s[0];
    if (b < 0x80) return 1;
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
        len = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        len = 3;
        if (b == 0xE0) lo = 0xA0; /* overlong */
        if (b == 0xED) hi = 0x9F; /* surrogates */
    } else if (b >= 0xF0 && b <= 0xF4) {
        len = 4;
        if (b == 0xF0) lo = 0x90; /* overlong */
        if (b == 0xF4) hi = 0x8F; /* above U+10FFFF */
    } else {
        return 0;
    }
    if (len > n || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    return len;
}

size_t mc_utf8_invalid_at(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t len = mc_utf8_sequence_length(s + i, n - i);
        if (len == 0) return i;
        i += len;
    }
    return n;
}
