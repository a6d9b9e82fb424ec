/*
 * Issue collection and folding: every occurrence is counted, only the first
 * max_instances of each code are kept, so memory is bounded by the catalog
 * size whatever the file holds.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mc_check.h"

static bool slot_grow(mc_slot *s, size_t limit)
{
    size_t cap = s->cap ? s->cap * 2 : 4;
    if (cap > limit) cap = limit;
    mc_instance *n = realloc(s->instances, cap * sizeof *n);
    if (!n) return false;
    s->instances = n;
    s->cap = cap;
    return true;
}

mc_instance *mc_emit(mc_ctx *c, mc_code code, uint64_t offset)
{
    if ((unsigned)code >= MC_CODE_COUNT) return NULL;
    if (c->opt->severity[code] == MC_SEVERITY_IGNORE) return NULL;
    mc_slot *s = &c->slots[code];
    if (s->count == 0) s->first_offset = offset;
    s->count++;
    if (s->kept >= c->opt->max_instances) return NULL;
    if (s->kept == s->cap && !slot_grow(s, c->opt->max_instances)) {
        c->nomem = true;
        return NULL;
    }
    mc_instance *in = &s->instances[s->kept++];
    in->offset = offset;
    in->payload_offset = 0;
    in->has_payload_offset = 0;
    in->path[0] = '\0';
    in->message[0] = '\0';
    return in;
}

void mc_path(mc_instance *in, const char *fmt, ...)
{
    if (!in) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->path, sizeof in->path, fmt, ap);
    va_end(ap);
}

void mc_msg(mc_instance *in, const char *fmt, ...)
{
    if (!in) return;
    va_list ap;
    char raw[sizeof in->message];
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* names quoted from a model are bytes of the file */
    mc_text_clean(in->message, sizeof in->message, raw);
}

void mc_payload_offset(mc_instance *in, uint64_t payload_offset)
{
    if (!in) return;
    in->payload_offset = payload_offset;
    in->has_payload_offset = 1;
}

bool mc_work(mc_ctx *c, uint64_t n, uint64_t offset, const char *check)
{
    if (c->work_exhausted) return false;
    if (n <= c->work_left) {
        c->work_left -= n;
        return true;
    }
    c->work_exhausted = true;
    mc_instance *in = mc_emit(c, MC_FILE_WORK_LIMIT, offset);
    mc_path(in, "/");
    mc_msg(in, "%s stopped at the work limit (%" PRIu64 " element visits per file byte); later checks of this kind were skipped",
           check, c->opt->work_factor);
    return false;
}

void mc_zero_normals_msg(mc_instance *in, const mc_zero_normals *z, const char *where,
                         uint64_t vertices)
{
    mc_msg(in, "%s: %" PRIu64 " of %" PRIu64 " vertices have normal (0, 0, 0), the first vertex %" PRIu64
           " (no normal: not judged for unit length)", where, z->count, vertices, z->first_vertex);
}

uint64_t mc_issue_count(const mc_ctx *c, mc_code code)
{
    if ((unsigned)code >= MC_CODE_COUNT) return 0;
    return c->slots[code].count;
}
