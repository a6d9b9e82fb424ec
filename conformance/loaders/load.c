/* mcl_load: the format switch, the error record and the memory accounting
 * every loader shares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcl_internal.h"

/* Arena chunks: loaders allocate a few arrays per mesh or animation, so a
 * bump allocator in 64 KiB chunks (or one chunk per large array) keeps the
 * malloc count low and frees everything at once. */
typedef struct mcl_chunk {
    struct mcl_chunk *next;
    size_t used, cap;
    max_align_t data[];
} mcl_chunk;

struct mcl_arena {
    mcl_chunk *head;
};

#define MCL_CHUNK_BYTES ((size_t)64 * 1024)

static const char *const format_names[MCL_FORMAT_COUNT] = {
    "unknown", "aem", "semodel", "aamf", "e3d", "nlm",
};

const char *mcl_strerror(mcl_status status)
{
    switch (status) {
    case MCL_OK: return "ok";
    case MCL_ERR_ARGUMENT: return "invalid argument";
    case MCL_ERR_NOMEM: return "out of memory";
    case MCL_ERR_LIMIT: return "limit exceeded";
    case MCL_ERR_TRUNCATED: return "truncated";
    case MCL_ERR_MAGIC: return "bad magic";
    case MCL_ERR_VERSION: return "unsupported version";
    case MCL_ERR_SIZE: return "size mismatch";
    case MCL_ERR_RANGE: return "value out of range";
    case MCL_ERR_VALUE: return "invalid value";
    case MCL_ERR_STRUCTURE: return "invalid structure";
    case MCL_ERR_COMPRESSION: return "compressed data does not decode";
    case MCL_ERR_UNSUPPORTED: return "unsupported feature";
    case MCL_ERR_INTERNAL: return "loader built an inconsistent model";
    }
    return "unknown status";
}

const char *mcl_status_name(mcl_status status)
{
    static const char *const names[] = {
        "OK", "ARGUMENT", "NOMEM", "LIMIT", "TRUNCATED", "MAGIC", "VERSION", "SIZE",
        "RANGE", "VALUE", "STRUCTURE", "COMPRESSION", "UNSUPPORTED", "INTERNAL",
    };
    if ((unsigned)status >= sizeof names / sizeof names[0]) return "UNKNOWN";
    return names[status];
}

const char *mcl_format_name(mcl_format format)
{
    if ((unsigned)format >= MCL_FORMAT_COUNT) return format_names[0];
    return format_names[format];
}

mcl_format mcl_format_from_name(const char *name)
{
    if (!name) return MCL_FORMAT_UNKNOWN;
    for (int f = 1; f < MCL_FORMAT_COUNT; f++)
        if (strcmp(name, format_names[f]) == 0) return (mcl_format)f;
    return MCL_FORMAT_UNKNOWN;
}

mcl_limits mcl_limits_default(void)
{
    /* The decompression limit equals the validator's default, so the two
     * agree on files that declare more. */
    mcl_limits l = {(uint64_t)1 << 30, (uint64_t)256 << 20, 64};
    return l;
}

mcl_status mcl__fail(mcl_ctx *c, mcl_status status, uint64_t offset, const char *fmt, ...)
{
    if (c->err->status != MCL_OK) return c->err->status;
    c->err->status = status;
    c->err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->reason, sizeof c->err->reason, fmt, ap);
    va_end(ap);
    return status;
}

static bool account(mcl_ctx *c, uint64_t count, uint64_t size, uint64_t *bytes)
{
    if (size != 0 && count > UINT64_MAX / size) {
        mcl__fail(c, MCL_ERR_LIMIT, 0, "allocation of %llu x %llu bytes overflows",
                  (unsigned long long)count, (unsigned long long)size);
        return false;
    }
    *bytes = count * size;
    if (*bytes > c->limits->max_alloc_bytes - c->allocated || *bytes > SIZE_MAX / 2) {
        mcl__fail(c, MCL_ERR_LIMIT, 0, "memory limit: %llu bytes requested, %llu of %llu in use",
                  (unsigned long long)*bytes, (unsigned long long)c->allocated,
                  (unsigned long long)c->limits->max_alloc_bytes);
        return false;
    }
    return true;
}

static void *arena_take(mcl_arena *a, size_t bytes)
{
    const size_t align = sizeof(max_align_t);
    size_t rounded = (bytes + align - 1) / align * align;
    mcl_chunk *h = a->head;
    if (!h || rounded > h->cap - h->used) {
        size_t cap = rounded > MCL_CHUNK_BYTES ? rounded : MCL_CHUNK_BYTES;
        h = malloc(sizeof *h + cap);
        if (!h) return NULL;
        h->cap = cap;
        h->used = 0;
        h->next = a->head;
        a->head = h;
    }
    void *p = (unsigned char *)h->data + h->used;
    h->used += rounded;
    return p;
}

void *mcl__alloc(mcl_ctx *c, uint64_t count, uint64_t size)
{
    uint64_t bytes;
    if (!account(c, count, size, &bytes)) return NULL;
    void *p = arena_take(c->model->arena, (size_t)bytes);
    if (!p) {
        mcl__fail(c, MCL_ERR_NOMEM, 0, "out of memory (%llu bytes)", (unsigned long long)bytes);
        return NULL;
    }
    c->allocated += bytes;
    memset(p, 0, (size_t)bytes);
    return p;
}

char *mcl__strdup(mcl_ctx *c, const uint8_t *s, size_t len)
{
    char *d = mcl__alloc(c, (uint64_t)len + 1, 1);
    if (d && len) memcpy(d, s, len);
    return d;
}

void *mcl__scratch(mcl_ctx *c, uint64_t count, uint64_t size)
{
    uint64_t bytes;
    if (!account(c, count, size, &bytes)) return NULL;
    void *p = calloc(1, bytes ? (size_t)bytes : 1);
    if (!p) {
        mcl__fail(c, MCL_ERR_NOMEM, 0, "out of memory (%llu bytes)", (unsigned long long)bytes);
        return NULL;
    }
    c->allocated += bytes;
    return p;
}

void mcl__scratch_free(mcl_ctx *c, void *p, uint64_t count, uint64_t size)
{
    if (!p) return;
    free(p);
    c->allocated -= count * size; /* the same product was accounted without overflow */
}

void mcl__arena_free(mcl_arena *arena)
{
    if (!arena) return;
    for (mcl_chunk *h = arena->head; h;) {
        mcl_chunk *next = h->next;
        free(h);
        h = next;
    }
    free(arena);
}

void mcl__identity(float m[16])
{
    for (int i = 0; i < 16; i++) m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
}

void mcl__mat4_mul(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float v = 0;
            for (int k = 0; k < 4; k++) v += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = v;
        }
    memcpy(out, r, sizeof r);
}

void mcl__mat4_mul_d(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = v;
        }
    memcpy(out, r, sizeof r);
}

void mcl_free(mcl_model *model)
{
    if (!model) return;
    mcl__arena_free(model->arena);
    free(model);
}

typedef mcl_status (*mcl_loader_fn)(mcl_ctx *, const uint8_t *, size_t);

static mcl_loader_fn loader_for(mcl_format format)
{
    switch (format) {
    case MCL_FORMAT_AEM: return mcl__load_aem;
    case MCL_FORMAT_SEMODEL: return mcl__load_semodel;
    case MCL_FORMAT_AAMF: return mcl__load_aamf;
    case MCL_FORMAT_E3D: return mcl__load_e3d;
    case MCL_FORMAT_NLM: return mcl__load_nlm;
    default: return NULL;
    }
}

mcl_status mcl_load(mcl_format format, const void *data, size_t size,
                    const mcl_limits *limits, mcl_model **out, mcl_error *err)
{
    mcl_error local_err;
    if (!err) err = &local_err;
    memset(err, 0, sizeof *err);
    mcl_loader_fn load = loader_for(format);
    if (!out || (!data && size) || !load) {
        err->status = MCL_ERR_ARGUMENT;
        snprintf(err->reason, sizeof err->reason, "%s", !load ? "unknown format" : "NULL argument");
        return MCL_ERR_ARGUMENT;
    }
    *out = NULL;
    mcl_limits defaults = mcl_limits_default();
    mcl_model *m = calloc(1, sizeof *m);
    mcl_arena *arena = calloc(1, sizeof *arena);
    if (!m || !arena) {
        free(m);
        free(arena);
        err->status = MCL_ERR_NOMEM;
        snprintf(err->reason, sizeof err->reason, "out of memory");
        return MCL_ERR_NOMEM;
    }
    m->format = format;
    m->layout = "";
    m->arena = arena;
    mcl_ctx c = {limits ? limits : &defaults, m, err, 0};
    static const uint8_t empty[1] = {0};
    mcl_status s = load(&c, data ? (const uint8_t *)data : empty, size);
    if (s == MCL_OK && err->status != MCL_OK) s = err->status; /* a recorded failure wins */
    if (s == MCL_OK) s = mcl_model_check(m, err);
    if (s != MCL_OK) {
        if (err->status == MCL_OK) mcl__fail(&c, s, 0, "%s", mcl_strerror(s));
        mcl_free(m);
        return s;
    }
    *out = m;
    return MCL_OK;
}
