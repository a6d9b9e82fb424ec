/*
 * The structure sink and mc_inspect: the tree a module's walk reports
 * (mc_struct.h), the one place that maps a byte to a path (mc_inspect_at),
 * and the tree as JSON. Nothing here recurses: trees are walked through
 * their parent pointers, so a deep file costs no stack.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_reader.h"
#include "mc_struct.h"
#include "mc_validate.h"

/* Nodes kept per file: a tree larger than this is cut (and says so). */
#define SINK_MAX_NODES 200000u
#define SINK_CHUNK 65536u
#define SINK_MAX_SPACES 4096u

typedef struct chunk {
    struct chunk *next;
    size_t used;
    unsigned char data[SINK_CHUNK];
} chunk;

typedef struct inode {
    mc_node n;
    struct inode *last_child;
    mc_attr *last_attr;
} inode;

typedef struct space {
    const uint8_t *bytes;
    uint64_t size;
    const mc_node *owner;
    uint8_t *owned;
} space;

struct mc_sink {
    chunk *chunks;
    inode *root, *cur;
    uint64_t skipped; /* enters refused since the tree was full (their leaves too) */
    uint32_t nodes;
    bool truncated;
    bool nomem;
    space *spaces;
    uint32_t space_count, space_cap;
    uint32_t cur_space;
    struct walk *walks; /* what the validation walk summed as it passed (mc_sink_walked) */
    uint32_t walk_count, walk_cap, walk_last;
    struct later *later; /* mc_sink_geometry_later: made once the walk is done */
    uint32_t later_count, later_cap;
};

struct mc_inspect {
    mc_sink sink;
    mc_result *result;
    mc_location at;
};

static void *arena(mc_sink *s, size_t n)
{
    n = (n + 15u) & ~(size_t)15u;
    if (n > SINK_CHUNK) return NULL;
    if (!s->chunks || SINK_CHUNK - s->chunks->used < n) {
        chunk *c = malloc(sizeof *c);
        if (!c) {
            s->nomem = true;
            return NULL;
        }
        c->next = s->chunks;
        c->used = 0;
        s->chunks = c;
    }
    void *p = s->chunks->data + s->chunks->used;
    s->chunks->used += n;
    memset(p, 0, n);
    return p;
}

static const char *arena_str(mc_sink *s, const char *src, size_t len)
{
    if (len > 1024) len = 1024;
    char *d = arena(s, len + 1);
    if (!d) return "";
    memcpy(d, src, len);
    d[len] = '\0';
    return d;
}

/* Bytes of a file shown as a name: made UTF-8 and free of control bytes. */
static const char *arena_clean(mc_sink *s, const uint8_t *p, size_t max)
{
    const uint8_t *nul = memchr(p, 0, max);
    size_t len = nul ? (size_t)(nul - p) : max;
    if (len > 255) len = 255;
    char raw[256], clean[256 * 4 + 1];
    memcpy(raw, p, len);
    raw[len] = '\0';
    size_t n = mc_text_clean(clean, sizeof clean, raw);
    return arena_str(s, clean, n);
}

static bool sink_init(mc_sink *s, uint64_t size, const uint8_t *data)
{
    memset(s, 0, sizeof *s);
    s->root = arena(s, sizeof *s->root);
    s->spaces = calloc(4, sizeof *s->spaces);
    if (!s->root || !s->spaces) return false;
    s->space_cap = 4;
    s->space_count = 1;
    s->spaces[0].bytes = data;
    s->spaces[0].size = size;
    s->spaces[0].owner = &s->root->n;
    s->root->n.name = "";
    s->root->n.kind = "file";
    s->root->n.size = size;
    s->cur = s->root;
    s->nodes = 1;
    return true;
}

static void walks_free(mc_sink *s);

static void sink_free(mc_sink *s)
{
    walks_free(s);
    free(s->later);
    for (uint32_t i = 0; i < s->space_count; i++) free(s->spaces[i].owned);
    free(s->spaces);
    while (s->chunks) {
        chunk *n = s->chunks->next;
        free(s->chunks);
        s->chunks = n;
    }
}

static inode *add_child(mc_sink *s, const char *kind, const char *name, uint64_t index,
                        uint64_t offset, uint64_t size)
{
    if (s->skipped || s->nodes >= SINK_MAX_NODES) {
        s->truncated = true;
        return NULL;
    }
    inode *n = arena(s, sizeof *n);
    if (!n) return NULL;
    char buf[24];
    if (!name) {
        snprintf(buf, sizeof buf, "%" PRIu64, index);
        name = buf;
    }
    n->n.name = arena_str(s, name, strlen(name));
    n->n.kind = kind;
    n->n.offset = offset;
    n->n.size = size;
    n->n.space = n->n.inner_space = s->cur_space;
    n->n.parent = &s->cur->n;
    if (s->cur->last_child)
        s->cur->last_child->n.next = &n->n;
    else
        s->cur->n.first_child = &n->n;
    s->cur->last_child = n;
    s->nodes++;
    return n;
}

void mc_sink_enter(mc_sink *s, const char *kind, const char *name, uint64_t index,
                   uint64_t offset, uint64_t size)
{
    inode *n = add_child(s, kind, name, index, offset, size);
    if (!n) {
        s->skipped++;
        return;
    }
    s->cur = n;
}

void mc_sink_leave(mc_sink *s)
{
    if (s->skipped) {
        s->skipped--;
        return;
    }
    if (s->cur == s->root) return; /* an unmatched leave: keep the root */
    s->cur = (inode *)s->cur->n.parent;
    s->cur_space = s->cur->n.inner_space;
}

void mc_sink_array_enter(mc_sink *s, const char *name, uint64_t offset, uint64_t count,
                         uint64_t stride, const mc_field *fields, size_t field_count)
{
    uint64_t size;
    if (__builtin_mul_overflow(count, stride, &size)) size = UINT64_MAX;
    mc_sink_enter(s, "array", name, MC_NO_INDEX, offset, size);
    if (s->skipped) return;
    s->cur->n.count = count;
    s->cur->n.stride = stride;
    s->cur->n.fields = fields;
    s->cur->n.field_count = field_count;
}

void mc_sink_array(mc_sink *s, const char *name, uint64_t offset, uint64_t count, uint64_t stride,
                   const mc_field *fields, size_t field_count)
{
    mc_sink_array_enter(s, name, offset, count, stride, fields, field_count);
    mc_sink_leave(s);
}

void mc_sink_end(mc_sink *s, uint64_t end)
{
    if (s->skipped) return;
    mc_node *n = &s->cur->n;
    /* a walk stopped inside a child (a string running to the end of the
     * file) ends where that child ends */
    for (const mc_node *k = n->first_child; k; k = k->next)
        if (k->space == n->inner_space && k->size <= UINT64_MAX - k->offset &&
            k->offset + k->size > end)
            end = k->offset + k->size;
    n->size = end > n->offset ? end - n->offset : 0;
}

const mc_field *mc_sink_fields(mc_sink *s, const mc_field *fields, size_t count)
{
    if (!s || s->skipped || count == 0 || count > SINK_CHUNK / sizeof *fields) return NULL;
    mc_field *f = arena(s, count * sizeof *f);
    if (f) memcpy(f, fields, count * sizeof *f);
    return f;
}

void mc_sink_layout(mc_sink *s, const mc_field *fields, size_t field_count)
{
    if (s->skipped) return;
    s->cur->n.fields = fields;
    s->cur->n.field_count = field_count;
}

static mc_attr *add_attr(mc_sink *s, const char *key, mc_value_type type)
{
    if (s->skipped) return NULL;
    mc_attr *a = arena(s, sizeof *a);
    if (!a) return NULL;
    a->key = key;
    a->type = type;
    if (s->cur->last_attr)
        s->cur->last_attr->next = a;
    else
        s->cur->n.attrs = a;
    s->cur->last_attr = a;
    return a;
}

void mc_sink_u64(mc_sink *s, const char *key, uint64_t v)
{
    mc_attr *a = add_attr(s, key, MC_VALUE_U64);
    if (a) a->u = v;
}

void mc_sink_i64(mc_sink *s, const char *key, int64_t v)
{
    mc_attr *a = add_attr(s, key, MC_VALUE_I64);
    if (a) a->i = v;
}

void mc_sink_f64(mc_sink *s, const char *key, double v)
{
    mc_attr *a = add_attr(s, key, MC_VALUE_F64);
    if (a) a->f = v;
}

void mc_sink_str(mc_sink *s, const char *key, const uint8_t *p, size_t max)
{
    mc_attr *a = add_attr(s, key, MC_VALUE_STRING);
    if (a) a->s = arena_clean(s, p, max);
}

void mc_sink_vec(mc_sink *s, const char *key, const double *v, size_t n)
{
    mc_attr *a = add_attr(s, key, MC_VALUE_VEC);
    if (!a) return;
    a->n = n > 4 ? 4 : n;
    memcpy(a->v, v, a->n * sizeof *v);
}

static void add_list(mc_sink *s, const char *key, const uint64_t *list, size_t n)
{
    mc_attr *a = add_attr(s, key, MC_VALUE_U64S);
    uint64_t *copy = a ? arena(s, n * sizeof *copy) : NULL;
    if (!copy) return;
    memcpy(copy, list, n * sizeof *copy);
    a->list = copy;
    a->n = n;
}

void mc_sink_decoded(mc_sink *s, const uint8_t *decoded, size_t decoded_size)
{
    if (s->skipped || s->space_count >= SINK_MAX_SPACES) return;
    if (s->space_count == s->space_cap) {
        space *n = realloc(s->spaces, 2 * s->space_cap * sizeof *n);
        if (!n) {
            s->nomem = true;
            return;
        }
        s->spaces = n;
        s->space_cap *= 2;
    }
    uint8_t *copy = malloc(decoded_size ? decoded_size : 1);
    if (!copy) {
        s->nomem = true;
        return;
    }
    if (decoded_size) memcpy(copy, decoded, decoded_size);
    space *sp = &s->spaces[s->space_count];
    sp->bytes = sp->owned = copy;
    sp->size = decoded_size;
    sp->owner = &s->cur->n;
    s->cur->n.inner_space = s->space_count++;
    s->cur_space = s->cur->n.inner_space;
}

void mc_sink_space(mc_sink *s, const char *kind, const char *name, uint64_t offset, uint64_t size,
                   const uint8_t *decoded, size_t decoded_size)
{
    mc_sink_enter(s, kind, name, MC_NO_INDEX, offset, size);
    mc_sink_decoded(s, decoded, decoded_size);
}

/* ---- geometry: box, degenerate primitives, influences ---- */

unsigned mc_field_type_size(mc_field_type t)
{
    switch (t) {
    case MC_FIELD_U16: case MC_FIELD_I16: case MC_FIELD_F16: return 2;
    case MC_FIELD_U32: case MC_FIELD_I32: case MC_FIELD_F32: return 4;
    case MC_FIELD_U64: case MC_FIELD_F64: return 8;
    default: return 1;
    }
}

const char *mc_field_type_name(mc_field_type t)
{
    static const char *const names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "u64",
                                        "f32", "f64", "bytes", "string", "f16"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* Elements of v that lie wholly inside its bytes. */
static uint64_t view_fit(const mc_view *v)
{
    uint64_t elem = (uint64_t)mc_field_type_size(v->type) * v->width;
    if (!v->p || v->count == 0 || elem > v->bytes) return 0;
    if (v->stride == 0) return v->count;
    uint64_t fit = (v->bytes - elem) / v->stride + 1;
    return fit < v->count ? fit : v->count;
}

static double value_at(const uint8_t *p, mc_field_type type)
{
    switch (type) {
    case MC_FIELD_U8: return p[0];
    case MC_FIELD_I8: return (int8_t)p[0];
    case MC_FIELD_U16: return mc_le16(p);
    case MC_FIELD_I16: return mc_le_i16(p);
    case MC_FIELD_U32: return mc_le32(p);
    case MC_FIELD_I32: return (int32_t)mc_le32(p);
    case MC_FIELD_U64: return (double)mc_le64(p);
    case MC_FIELD_F32: return mc_le_f32(p);
    case MC_FIELD_F64: return mc_bits_f64(mc_le64(p));
    case MC_FIELD_F16: return mc_half_to_f32(mc_le16(p));
    default: return 0.0;
    }
}

static double view_get(const mc_view *v, uint64_t i, uint32_t k)
{
    return value_at(v->p + i * v->stride + (uint64_t)k * mc_field_type_size(v->type), v->type);
}

static uint64_t view_index(const mc_view *v, uint64_t i)
{
    const uint8_t *p = v->p + i * v->stride;
    switch (v->type) {
    case MC_FIELD_U8: return p[0];
    case MC_FIELD_U16: return mc_le16(p);
    case MC_FIELD_U32: return mc_le32(p);
    case MC_FIELD_U64: return mc_le64(p);
    default: return UINT64_MAX;
    }
}

typedef struct box {
    double lo[3], hi[3];
    uint64_t n;
} box;

static void box_add(box *b, const double x[3])
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(x[k])) return; /* a NaN would poison the box; validation reports it */
    for (int k = 0; k < 3; k++) {
        if (b->n == 0 || x[k] < b->lo[k]) b->lo[k] = x[k];
        if (b->n == 0 || x[k] > b->hi[k]) b->hi[k] = x[k];
    }
    b->n++;
}

#define MAX_HISTOGRAM MC_INFLUENCE_SLOTS

/* A box kept in floats: exact for f32 and i16 positions. lo and hi only
 * move on a strictly smaller or larger value, so the box of a run made
 * piece by piece, in order, is the box of the whole run (-0 and 0 too). */
typedef struct fbox {
    float lo[3], hi[3];
    uint32_t seen; /* positions taken (all three coordinates finite) */
} fbox;

static void fbox_init(fbox *f)
{
    for (int k = 0; k < 3; k++) {
        f->lo[k] = INFINITY;
        f->hi[k] = -INFINITY;
    }
    f->seen = 0;
}

static void fbox_to_box(box *b, const fbox *f)
{
    if (!f->seen) return;
    double l[3] = {f->lo[0], f->lo[1], f->lo[2]}, h[3] = {f->hi[0], f->hi[1], f->hi[2]};
    box_add(b, l);
    box_add(b, h);
}

#if defined(MC_LANES)
/* One position x (lanes 0-2; lane 3 is not looked at) into lo and hi: a
 * position with a non-finite coordinate becomes NaN in every lane, which
 * minps and maxps pass over (they keep their second operand). */
static inline void fbox_lane(__m128 x, __m128 *lo, __m128 *hi, __m128i *seen)
{
    __m128 m = _mm_cmpeq_ps(_mm_sub_ps(x, x), _mm_setzero_ps());
    m = _mm_and_ps(_mm_and_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(3, 0, 2, 1))),
                   _mm_shuffle_ps(m, m, _MM_SHUFFLE(3, 1, 0, 2)));
    x = _mm_or_ps(x, _mm_andnot_ps(m, _mm_castsi128_ps(_mm_set1_epi32(-1))));
    *lo = _mm_min_ps(x, *lo);
    *hi = _mm_max_ps(x, *hi);
    *seen = _mm_sub_epi32(*seen, _mm_castps_si128(m));
}
#endif

/* n f32 x 3 positions from p (stride apart) into f, NaN and infinity left
 * out; end bounds what may be read. In SSE2 lanes a position is one
 * 16-byte load (x, y, z and a word not looked at) while those 16 bytes lie
 * before end, two positions at a time: when both are finite (no coordinate
 * with every exponent bit set), the pair's own min and max (the first of
 * two equal values kept, as one at a time would) join lo and hi; a pair
 * with a NaN or an infinity goes one position at a time (fbox_lane). */
static void fbox_f32(fbox *f, const uint8_t *p, const uint8_t *end, uint64_t stride, uint64_t n)
{
    uint64_t i = 0;
#if defined(MC_LANES)
    if (MC_HOST_LE && n && end - p >= 16) {
        uint64_t lanes = (uint64_t)(end - p - 16) / stride + 1;
        if (lanes > n) lanes = n;
        __m128 lo = _mm_setr_ps(f->lo[0], f->lo[1], f->lo[2], 0.0f);
        __m128 hi = _mm_setr_ps(f->hi[0], f->hi[1], f->hi[2], 0.0f);
        const __m128i expo = _mm_set1_epi32(0x7F800000);
        __m128i seen = _mm_setzero_si128();
        uint32_t pairs = 0;
        for (; i + 2 <= lanes; i += 2, p += 2 * stride) {
            __m128 x0 = _mm_loadu_ps((const float *)(const void *)p);
            __m128 x1 = _mm_loadu_ps((const float *)(const void *)(p + stride));
            __m128i e0 = _mm_and_si128(_mm_castps_si128(x0), expo);
            __m128i e1 = _mm_and_si128(_mm_castps_si128(x1), expo);
            __m128i bad = _mm_or_si128(_mm_cmpeq_epi32(e0, expo), _mm_cmpeq_epi32(e1, expo));
            if (_mm_movemask_ps(_mm_castsi128_ps(bad)) & 7) {
                fbox_lane(x0, &lo, &hi, &seen);
                fbox_lane(x1, &lo, &hi, &seen);
                continue;
            }
            lo = _mm_min_ps(_mm_min_ps(x1, x0), lo);
            hi = _mm_max_ps(_mm_max_ps(x1, x0), hi);
            pairs++;
        }
        for (; i < lanes; i++, p += stride)
            fbox_lane(_mm_loadu_ps((const float *)(const void *)p), &lo, &hi, &seen);
        float l[4], h[4];
        _mm_storeu_ps(l, lo);
        _mm_storeu_ps(h, hi);
        memcpy(f->lo, l, sizeof f->lo);
        memcpy(f->hi, h, sizeof f->hi);
        f->seen += 2u * pairs + (uint32_t)_mm_cvtsi128_si32(seen);
    }
#else
    (void)end;
#endif
    for (; i < n; i++, p += stride) {
        float x[3];
        memcpy(x, p, sizeof x);
        bool ok = ((int)isfinite(x[0]) & (int)isfinite(x[1]) & (int)isfinite(x[2])) != 0; /* no branch */
        f->seen += ok;
        for (int k = 0; k < 3; k++) {
            float v = ok ? x[k] : f->lo[k];
            f->lo[k] = v < f->lo[k] ? v : f->lo[k];
            v = ok ? x[k] : f->hi[k];
            f->hi[k] = v > f->hi[k] ? v : f->hi[k];
        }
    }
}

static void fbox_i16(fbox *f, const uint8_t *p, const uint8_t *end, uint64_t stride, uint64_t n)
{
    int16_t lo[3] = {INT16_MAX, INT16_MAX, INT16_MAX}, hi[3] = {INT16_MIN, INT16_MIN, INT16_MIN};
    uint64_t i = 0;
#if defined(MC_LANES)
    /* a position in one 8-byte load while those bytes lie before end */
    if (MC_HOST_LE && n && end - p >= 8) {
        uint64_t lanes = (uint64_t)(end - p - 8) / stride + 1;
        if (lanes > n) lanes = n;
        __m128i l = _mm_set1_epi16(INT16_MAX), h = _mm_set1_epi16(INT16_MIN);
        for (; i < lanes; i++, p += stride) {
            __m128i x = _mm_loadl_epi64((const __m128i *)(const void *)p);
            l = _mm_min_epi16(l, x);
            h = _mm_max_epi16(h, x);
        }
        int16_t a[8], b[8];
        _mm_storeu_si128((__m128i *)(void *)a, l);
        _mm_storeu_si128((__m128i *)(void *)b, h);
        memcpy(lo, a, sizeof lo);
        memcpy(hi, b, sizeof hi);
    }
#else
    (void)end;
#endif
    for (; i < n; i++, p += stride) {
        int16_t x[3];
        memcpy(x, p, sizeof x);
        for (int k = 0; k < 3; k++) {
            lo[k] = x[k] < lo[k] ? x[k] : lo[k];
            hi[k] = x[k] > hi[k] ? x[k] : hi[k];
        }
    }
    if (!n) return;
    for (int k = 0; k < 3; k++) {
        f->lo[k] = (float)lo[k] < f->lo[k] ? (float)lo[k] : f->lo[k];
        f->hi[k] = (float)hi[k] > f->hi[k] ? (float)hi[k] : f->hi[k];
    }
    f->seen += n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

static bool fbox_type(const mc_view *pos)
{
    return MC_HOST_LE && pos->width >= 3 &&
           (pos->type == MC_FIELD_F32 || pos->type == MC_FIELD_I16);
}

/* The positions [i, i + n) of pos (they fit: view_fit) into f. */
static void fbox_run(fbox *f, const mc_view *pos, uint64_t i, uint64_t n)
{
    const uint8_t *p = pos->p + i * pos->stride;
    if (pos->type == MC_FIELD_F32)
        fbox_f32(f, p, pos->p + pos->bytes, pos->stride, n);
    else
        fbox_i16(f, p, pos->p + pos->bytes, pos->stride, n);
}

/* The box of positions [i, i + n) of pos, any type. */
static void box_direct(box *b, const mc_view *pos, uint64_t i, uint64_t n)
{
    if (!n) return;
    if (fbox_type(pos)) {
        fbox f;
        fbox_init(&f);
        fbox_run(&f, pos, i, n);
        fbox_to_box(b, &f);
        return;
    }
    for (uint64_t e = i + n; i < e; i++) {
        double x[3];
        for (uint32_t k = 0; k < 3; k++) x[k] = view_get(pos, i, k);
        box_add(b, x);
    }
}

/* Non-zero weights per vertex, four histograms in turn: consecutive
 * vertices usually have the same count, and one counter would make each
 * increment wait for the last. */
static void weights_hist(const mc_view *w, uint64_t first, uint64_t n, uint32_t width,
                         uint64_t *hist)
{
    uint64_t h4[4][MAX_HISTOGRAM];
    memset(h4, 0, sizeof h4);
    const uint8_t *p = w->p + first * w->stride;
    uint64_t st = w->stride;
    if (w->type == MC_FIELD_F32 && MC_HOST_LE && width == 4) {
#if defined(MC_LANES)
        /* the four weights of a vertex in one load: a 4-bit mask of the
         * non-zero ones (NaN counts, as != does), then its bits counted */
        static const uint8_t bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
        const __m128 zero = _mm_setzero_ps();
        for (uint64_t i = 0; i < n; i++, p += st)
            h4[i & 3][bits[_mm_movemask_ps(
                _mm_cmpneq_ps(_mm_loadu_ps((const float *)(const void *)p), zero))]]++;
#else
        for (uint64_t i = 0; i < n; i++, p += st) {
            float v[4];
            memcpy(v, p, sizeof v);
            h4[i & 3][(v[0] != 0.0f) + (v[1] != 0.0f) + (v[2] != 0.0f) + (v[3] != 0.0f)]++;
        }
#endif
    } else if (w->type == MC_FIELD_U8 && width == 4) {
        for (uint64_t i = 0; i < n; i++, p += st)
            h4[i & 3][(p[0] != 0) + (p[1] != 0) + (p[2] != 0) + (p[3] != 0)]++;
    } else {
        for (uint64_t i = 0; i < n; i++) {
            uint32_t k = 0;
            for (uint32_t j = 0; j < width; j++) k += view_get(w, first + i, j) != 0.0;
            h4[i & 3][k]++;
        }
    }
    for (uint32_t k = 0; k < MAX_HISTOGRAM; k++)
        hist[k] += h4[0][k] + h4[1][k] + h4[2][k] + h4[3][k];
}

static uint32_t hist_width(const mc_view *w)
{
    return w->width < MAX_HISTOGRAM - 1 ? w->width : MAX_HISTOGRAM - 1;
}

/* Vertices of w whose slots lie step bytes apart (0: packed) that fit. */
static uint64_t weights_fit(const mc_view *w, uint32_t step)
{
    uint64_t es = mc_field_type_size(w->type);
    uint32_t width = hist_width(w);
    if (step <= es) return width ? view_fit(w) : 0;
    if (!w->p || !w->count || !width) return 0;
    /* a vertex spans (width - 1) steps and one value */
    uint64_t span = (uint64_t)(width - 1) * step + es;
    if (span > w->bytes) return 0;
    uint64_t n = w->stride ? (w->bytes - span) / w->stride + 1 : w->count;
    return n < w->count ? n : w->count;
}

/* The vertices [first, first + n) of w (they fit: weights_fit) into hist. */
static void hist_direct(const mc_view *w, uint32_t step, uint64_t first, uint64_t n,
                        uint64_t *hist)
{
    uint32_t width = hist_width(w);
    uint64_t es = mc_field_type_size(w->type);
    if (step <= es) {
        weights_hist(w, first, n, width, hist);
        return;
    }
    /* four histograms in turn, as weights_hist; f32 read in place */
    uint64_t h4[4][MAX_HISTOGRAM];
    memset(h4, 0, sizeof h4);
    bool f32 = w->type == MC_FIELD_F32 && MC_HOST_LE;
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *p = w->p + (first + i) * w->stride;
        uint32_t k = 0;
        for (uint32_t j = 0; j < width; j++, p += step) {
            float f = 0.0f;
            if (f32) memcpy(&f, p, sizeof f);
            k += f32 ? f != 0.0f : value_at(p, w->type) != 0.0;
        }
        h4[i & 3][k]++;
    }
    for (uint32_t k = 0; k < MAX_HISTOGRAM; k++)
        hist[k] += h4[0][k] + h4[1][k] + h4[2][k] + h4[3][k];
}

/* ---- what the walk sums as it passes (mc_sink_walked) ---- */

/* Elements per summary: at most 64 vertices, so a count fits a byte. */
#define WALK_CHUNK 64u
/* Runs shorter than this are read again by the geometry (they are in cache
 * or cheap); so are runs past WALK_MAX. */
#define WALK_MIN 1024u
#define WALK_MAX 4096u

typedef struct walk {
    mc_view v;     /* the run as the module described it: the key */
    uint32_t step; /* weights: bytes between the slots of a vertex (0: packed) */
    bool weights;  /* else positions */
    bool broken;   /* a call out of order: the summary is not used */
    uint64_t count, next; /* elements that fit; summed so far, from 0 */
    fbox *box;            /* positions: one per chunk */
    uint8_t (*hist)[MAX_HISTOGRAM]; /* weights: one per chunk */
} walk;

typedef struct later {
    inode *node;
    mc_geometry g;
} later;

static void walks_free(mc_sink *s)
{
    for (uint32_t i = 0; i < s->walk_count; i++) {
        free(s->walks[i].box);
        free(s->walks[i].hist);
    }
    free(s->walks);
}

static bool same_run(const walk *w, const mc_view *v, uint32_t step, bool weights)
{
    return w->weights == weights && w->v.p == v->p && w->v.stride == v->stride &&
           w->v.type == v->type && w->v.width == v->width && w->v.count == v->count &&
           w->step == step;
}

static walk *find_walk(mc_sink *s, const mc_view *v, uint32_t step, bool weights)
{
    /* runs are summed and used in file order: search on from the last one */
    for (uint32_t k = 0; k < s->walk_count; k++) {
        uint32_t i = (s->walk_last + k) % s->walk_count;
        if (same_run(&s->walks[i], v, step, weights)) {
            s->walk_last = i;
            return &s->walks[i];
        }
    }
    return NULL;
}

/* A new run's summary, or NULL (too short, too many, an unsupported type,
 * no memory: the geometry then reads the run itself). */
static walk *new_walk(mc_sink *s, const mc_view *v, uint32_t step, bool weights)
{
    uint64_t count = weights ? weights_fit(v, step) : fbox_type(v) ? view_fit(v) : 0;
    if (count < WALK_MIN || s->walk_count >= WALK_MAX) return NULL;
    if (s->walk_count == s->walk_cap) {
        uint32_t cap = s->walk_cap ? s->walk_cap * 2 : 8;
        walk *grown = realloc(s->walks, cap * sizeof *grown);
        if (!grown) return NULL;
        s->walks = grown;
        s->walk_cap = cap;
    }
    /* count fits the view, whose bytes are the file's: chunks fits a size_t
     * unless the view is wrong, which then walks nothing */
    uint64_t chunks = (count + WALK_CHUNK - 1) / WALK_CHUNK;
    if (chunks > SIZE_MAX) return NULL;
    walk *w = &s->walks[s->walk_count];
    memset(w, 0, sizeof *w);
    if (weights)
        w->hist = calloc((size_t)chunks, sizeof *w->hist);
    else
        w->box = calloc((size_t)chunks, sizeof *w->box);
    if (!w->hist && !w->box) return NULL;
    w->v = *v;
    w->step = step;
    w->weights = weights;
    w->count = count;
    s->walk_last = s->walk_count++;
    return w;
}

/* Non-zero weights of vertex p (f32 slots step bytes apart). */
static inline unsigned nonzero_f32(const uint8_t *p, uint32_t width, uint32_t step)
{
    unsigned k = 0;
    for (uint32_t j = 0; j < width; j++, p += step) {
        uint32_t b;
        memcpy(&b, p, sizeof b);
        k += (b & 0x7FFFFFFFu) != 0; /* != 0.0f: -0 is zero, NaN is not */
    }
    return k;
}

#if defined(MC_LANES)
/* Two vertices' increments of hist_chunk's packed bins, indexed by the zero
 * bytes of their four u8 weights (bits 0-3: the first, 4-7: the second). */
#define ZEROS4(z) (((z) & 1) + (((z) >> 1) & 1) + (((z) >> 2) & 1) + (((z) >> 3) & 1))
#define BIN(z) (1ull << (8u * (4u - ZEROS4(z))))
#define PAIR(m) (BIN((m) & 15) + BIN((m) >> 4))
#define PAIR4(m) PAIR(m), PAIR((m) + 1), PAIR((m) + 2), PAIR((m) + 3)
#define PAIR16(m) PAIR4(m), PAIR4((m) + 4), PAIR4((m) + 8), PAIR4((m) + 12)
#define PAIR64(m) PAIR16(m), PAIR16((m) + 16), PAIR16((m) + 32), PAIR16((m) + 48)
static const uint64_t u8_pair_hist[256] = {PAIR64(0), PAIR64(64), PAIR64(128), PAIR64(192)};
#undef PAIR64
#undef PAIR16
#undef PAIR4
#undef PAIR
#undef BIN
#undef ZEROS4
#endif

/* The histogram of n <= WALK_CHUNK vertices of w from first into out, for
 * the common layouts without a store per vertex: counts of at most 64 fit
 * a byte, and the eight bytes of one register count the bins 0 to 7. */
static void hist_chunk(const mc_view *w, uint32_t step, uint64_t first, uint64_t n, uint8_t *out)
{
    uint32_t width = hist_width(w);
    const uint8_t *p = w->p + first * w->stride;
    uint64_t st = w->stride, acc = 0;
    bool packed = step <= mc_field_type_size(w->type);
    if (!MC_HOST_LE || width > 7) {
        uint64_t h[MAX_HISTOGRAM] = {0};
        hist_direct(w, step, first, n, h);
        for (uint32_t j = 0; j < MAX_HISTOGRAM; j++) out[j] += (uint8_t)h[j];
        return;
    }
    if (w->type == MC_FIELD_F32 && packed && width == 4) {
#if defined(MC_LANES)
        static const uint8_t bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
        const __m128 zero = _mm_setzero_ps();
        for (uint64_t i = 0; i < n; i++, p += st)
            acc += 1ull << (8u * bits[_mm_movemask_ps(
                _mm_cmpneq_ps(_mm_loadu_ps((const float *)(const void *)p), zero))]);
#else
        for (uint64_t i = 0; i < n; i++, p += st) acc += 1ull << (8u * nonzero_f32(p, 4, 4));
#endif
    } else if (w->type == MC_FIELD_F32) {
        uint32_t sp = packed ? 4u : step;
        for (uint64_t i = 0; i < n; i++, p += st) acc += 1ull << (8u * nonzero_f32(p, width, sp));
    } else if (w->type == MC_FIELD_U8 && packed && width == 4) {
        uint64_t i = 0;
#if defined(MC_LANES)
        if (st == 8) {
            /* two vertices (SAMF's 8-byte skin records) in one 16-byte load
             * while it lies before the view's end: the zero bytes of both
             * weight groups (bits 0-3 and 8-11 of the mask) index a table
             * of the two vertices' increments */
            const uint8_t *end = w->p + w->bytes;
            const __m128i zero = _mm_setzero_si128();
            for (; i + 2 <= n && end - p >= 16; i += 2, p += 16) {
                int m = _mm_movemask_epi8(
                    _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), zero));
                acc += u8_pair_hist[(m & 0xF) | ((m >> 4) & 0xF0)];
            }
        }
#endif
        for (; i < n; i++, p += st) {
            uint32_t x;
            memcpy(&x, p, sizeof x);
            /* the top bit of each non-zero byte, then the four summed */
            uint32_t y = (((x & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | x) & 0x80808080u;
            acc += 1ull << (8u * (((y >> 7) * 0x01010101u) >> 24));
        }
    } else {
        uint64_t h[MAX_HISTOGRAM] = {0};
        hist_direct(w, step, first, n, h);
        for (uint32_t j = 0; j < MAX_HISTOGRAM; j++) out[j] += (uint8_t)h[j];
        return;
    }
    for (uint32_t j = 0; j < 8; j++) out[j] += (uint8_t)(acc >> (8u * j));
}

static void walk_add(walk *w, uint64_t first, uint64_t n)
{
    if (w->broken || first != w->next || first > w->count) {
        w->broken = true;
        return;
    }
    uint64_t end = n < w->count - first ? first + n : w->count;
    for (uint64_t i = first; i < end;) {
        uint64_t k = i / WALK_CHUNK, e = (k + 1) * WALK_CHUNK;
        if (e > end) e = end;
        if (w->weights) {
            hist_chunk(&w->v, w->step, i, e - i, w->hist[k]);
        } else {
            if (i == k * WALK_CHUNK) fbox_init(&w->box[k]);
            fbox_run(&w->box[k], &w->v, i, e - i);
        }
        i = e;
    }
    w->next = end;
}

void mc_sink_walked(mc_sink *s, const mc_view *pos, const mc_view *weights, uint32_t step,
                    uint64_t first, uint64_t n)
{
    const mc_view *v[2] = {pos, weights};
    for (int k = 0; k < 2; k++) {
        if (!v[k]) continue;
        uint32_t st = k ? step : 0;
        walk *w = find_walk(s, v[k], st, k == 1);
        if (!w && first == 0) w = new_walk(s, v[k], st, k == 1);
        if (w) walk_add(w, first, n);
    }
}

/* The summary of a run the walk went through whole, or NULL. */
static const walk *walked(mc_sink *s, const mc_view *v, uint32_t step, bool weights)
{
    if (!s->walk_count) return NULL;
    const walk *w = find_walk(s, v, step, weights);
    return w && !w->broken && w->next == w->count ? w : NULL;
}

/* A piece of a range of elements cut at the walk's chunk bounds: chunk k
 * whole (what the walk summed) or a part of one (read directly). */
typedef struct piece {
    uint64_t first, n, k;
    bool whole;
} piece;

/* The next piece of [*i, end), which lies within the walk's count; false at
 * the end. */
static bool next_piece(const walk *w, uint64_t *i, uint64_t end, piece *p)
{
    if (*i >= end) return false;
    uint64_t k = *i / WALK_CHUNK, cs = k * WALK_CHUNK;
    uint64_t ce = cs + WALK_CHUNK < w->count ? cs + WALK_CHUNK : w->count;
    uint64_t e = ce < end ? ce : end;
    *p = (piece){*i, e - *i, k, *i == cs && e == ce};
    *i = e;
    return true;
}

/* Whether [first, first + n) lies within what walk w summed. */
static bool walk_covers(const walk *w, uint64_t first, uint64_t n)
{
    return w && first <= w->count && n <= w->count - first; /* subtract: no wrap */
}

/* The box of positions [first, first + n): the chunks the walk summed that
 * lie wholly inside, the vertices at either end read. */
static void box_range(mc_sink *s, box *b, const mc_view *pos, uint64_t first, uint64_t n)
{
    const walk *w = walked(s, pos, 0, false);
    if (!walk_covers(w, first, n)) {
        box_direct(b, pos, first, n);
        return;
    }
    piece p;
    for (uint64_t i = first; next_piece(w, &i, first + n, &p);) {
        if (p.whole)
            fbox_to_box(b, &w->box[p.k]);
        else
            box_direct(b, pos, p.first, p.n);
    }
}

/* The histogram of the weights of vertices [first, first + n), as box_range. */
static void hist_range(mc_sink *s, const mc_view *wv, uint32_t step, uint64_t first, uint64_t n,
                       uint64_t *hist)
{
    const walk *w = walked(s, wv, step, true);
    if (!walk_covers(w, first, n)) {
        hist_direct(wv, step, first, n, hist);
        return;
    }
    piece p;
    for (uint64_t i = first; next_piece(w, &i, first + n, &p);) {
        if (p.whole)
            for (uint32_t j = 0; j < MAX_HISTOGRAM; j++) hist[j] += w->hist[p.k][j];
        else
            hist_direct(wv, step, p.first, p.n, hist);
    }
}

/* box_f32 and weights_hist over records holding both (AEM, NLM) that no
 * walk summed: one pass over the records, not two. */
static void box_weights_f32(box *b, const uint8_t *p, const uint8_t *w, uint64_t stride,
                            uint64_t n, uint64_t *hist)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    uint64_t seen = 0, h4[4][5];
    memset(h4, 0, sizeof h4);
    for (uint64_t i = 0; i < n; i++, p += stride, w += stride) {
        float x[3], v[4];
        memcpy(x, p, sizeof x);
        memcpy(v, w, sizeof v);
        h4[i & 3][(v[0] != 0.0f) + (v[1] != 0.0f) + (v[2] != 0.0f) + (v[3] != 0.0f)]++;
        bool ok = ((int)isfinite(x[0]) & (int)isfinite(x[1]) & (int)isfinite(x[2])) != 0; /* no branch */
        seen += ok;
        for (int k = 0; k < 3; k++) {
            float y = ok ? x[k] : lo[k];
            lo[k] = y < lo[k] ? y : lo[k];
            y = ok ? x[k] : hi[k];
            hi[k] = y > hi[k] ? y : hi[k];
        }
    }
    for (int k = 0; k < 5; k++) hist[k] += h4[0][k] + h4[1][k] + h4[2][k] + h4[3][k];
    if (!seen) return;
    double l[3] = {lo[0], lo[1], lo[2]}, h[3] = {hi[0], hi[1], hi[2]};
    box_add(b, l);
    box_add(b, h);
}

/* The vertices [first, first + n): the box of the positions and the
 * histogram of non-zero weights, from what the walk summed where it did
 * (inspect stays within a small factor of validation on large files:
 * mc_bench), else read here. */
static void vertex_pass(mc_sink *s, const mc_view *pos, uint64_t npos, const mc_view *w,
                        uint64_t nw, uint64_t first, uint64_t n, box *b, uint64_t *hist,
                        uint32_t width)
{
    uint64_t np = first < npos ? (npos - first < n ? npos - first : n) : 0;
    uint64_t nwv = first < nw ? (nw - first < n ? nw - first : n) : 0;
    bool summed = (np && walked(s, pos, 0, false)) || (nwv && width && walked(s, w, 0, true));
    if (!summed && np && np == nwv && width == 4 && pos->type == MC_FIELD_F32 &&
        w->type == MC_FIELD_F32 && pos->stride == w->stride && MC_HOST_LE) {
        box_weights_f32(b, pos->p + first * pos->stride, w->p + first * w->stride, pos->stride,
                        np, hist);
        return;
    }
    if (np) box_range(s, b, pos, first, np);
    if (nwv && width) hist_range(s, w, 0, first, nwv, hist);
}

/* One pass over the indices: the lowest and highest, and the primitives
 * repeating an index (a triangle with two equal corners has no area). */
static uint64_t index_pass(const mc_view *idx, uint64_t n, unsigned primitive, uint64_t *lo,
                           uint64_t *hi)
{
    uint64_t bad = 0, l = UINT64_MAX, h = 0;
    const uint8_t *p = idx->p;
    uint64_t st = idx->stride;
    /* a fast loop per common index width, the general one otherwise */
#define INDEX_LOOP(T)                                                                    \
    for (uint64_t i = 0; i + 3 <= n; i += 3) {                                           \
        T a, b, c;                                                                       \
        memcpy(&a, p + i * st, sizeof a);                                                \
        memcpy(&b, p + (i + 1) * st, sizeof b);                                          \
        memcpy(&c, p + (i + 2) * st, sizeof c);                                          \
        bad += (a == b) | (b == c) | (a == c);                                           \
        T mn = a < b ? a : b, mx = a > b ? a : b;                                         \
        mn = c < mn ? c : mn;                                                            \
        mx = c > mx ? c : mx;                                                            \
        l = mn < l ? mn : l;                                                             \
        h = mx > h ? mx : h;                                                             \
    }                                                                                    \
    for (uint64_t i = n / 3 * 3; i < n; i++) {                                           \
        T v;                                                                             \
        memcpy(&v, p + i * st, sizeof v);                                                \
        l = v < l ? v : l;                                                               \
        h = v > h ? v : h;                                                               \
    }
    if (idx->type == MC_FIELD_U32 && MC_HOST_LE) {
        INDEX_LOOP(uint32_t)
    } else if (idx->type == MC_FIELD_U16 && MC_HOST_LE) {
        INDEX_LOOP(uint16_t)
    } else {
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = view_index(idx, i);
            l = v < l ? v : l;
            h = v > h ? v : h;
        }
        if (primitive == 3)
            for (uint64_t i = 0; i + 3 <= n; i += 3) {
                uint64_t a = view_index(idx, i), b = view_index(idx, i + 1),
                         c = view_index(idx, i + 2);
                bad += a == b || b == c || a == c;
            }
    }
#undef INDEX_LOOP
    *lo = l;
    *hi = h;
    return bad;
}

uint64_t mc_sink_geometry(mc_sink *s, const mc_geometry *g)
{
    if (s->skipped) return 0;
    uint64_t npos = g->positions.width >= 3 ? view_fit(&g->positions) : 0;
    uint64_t nw = view_fit(&g->weights);
    uint64_t nidx = view_fit(&g->indices);
    uint32_t width = hist_width(&g->weights);
    uint64_t first = 0, count = npos > nw ? npos : nw, bad = 0;
    if (nidx) {
        uint64_t lo = 0, hi = 0;
        if (g->degenerate_walked && !g->indexed_box)
            bad = g->degenerate;
        else
            bad = index_pass(&g->indices, nidx, g->primitive, &lo, &hi);
        if (g->primitive == 3) mc_sink_u64(s, "degenerate_triangles", bad);
        if (g->indexed_box) {
            /* shared vertices: the run from the lowest to the highest index
             * the mesh uses (one sequential pass, not a gather) */
            mc_sink_u64(s, "vertex_first", lo);
            mc_sink_u64(s, "vertex_last", hi);
            first = lo;
            count = hi >= lo && hi < count ? hi - lo + 1 : lo < count ? count - lo : 0;
        }
    }
    box b = {{0}, {0}, 0};
    uint64_t hist[MAX_HISTOGRAM] = {0};
    vertex_pass(s, &g->positions, npos, &g->weights, nw, first, count, &b, hist, width);
    if (b.n) {
        mc_sink_vec(s, "bbox_min", b.lo, 3);
        mc_sink_vec(s, "bbox_max", b.hi, 3);
    }
    if (nw && width) mc_sink_influences(s, hist, width);
    return g->primitive == 3 ? bad : 0;
}

void mc_sink_geometry_later(mc_sink *s, const mc_geometry *g)
{
    if (s->skipped) return;
    if (s->later_count == s->later_cap) {
        uint32_t cap = s->later_cap ? s->later_cap * 2 : 8;
        later *grown = cap > s->later_cap ? realloc(s->later, cap * sizeof *grown) : NULL;
        if (!grown) {
            mc_sink_geometry(s, g); /* now, reading the vertices again */
            return;
        }
        s->later = grown;
        s->later_cap = cap;
    }
    s->later[s->later_count++] = (later){s->cur, *g};
}

/* After the walk: the geometry put off by mc_sink_geometry_later, each on
 * its node, from what the walk summed. */
static void sink_finish(mc_sink *s)
{
    inode *cur = s->cur;
    uint64_t skipped = s->skipped;
    s->skipped = 0;
    for (uint32_t i = 0; i < s->later_count; i++) {
        s->cur = s->later[i].node;
        mc_sink_geometry(s, &s->later[i].g);
    }
    s->cur = cur;
    s->skipped = skipped;
}

void mc_influences_add(const mc_view *w, uint32_t step, uint64_t *hist)
{
    uint64_t n = weights_fit(w, step);
    if (n) hist_direct(w, step, 0, n, hist);
}

void mc_sink_influences_of(mc_sink *s, const mc_view *w, uint32_t step)
{
    if (s->skipped) return;
    uint64_t hist[MAX_HISTOGRAM] = {0};
    uint64_t n = weights_fit(w, step);
    if (n) hist_range(s, w, step, 0, n, hist);
    mc_sink_influences(s, hist, w->width);
}

void mc_sink_influences(mc_sink *s, const uint64_t *hist, uint32_t width)
{
    if (s->skipped) return;
    if (width > MC_INFLUENCE_SLOTS - 1) width = MC_INFLUENCE_SLOTS - 1;
    uint32_t max = 0;
    for (uint32_t k = 0; k <= width; k++)
        if (hist[k]) max = k;
    mc_sink_u64(s, "influences_max", max);
    add_list(s, "influences_histogram", hist, width + 1);
}

/* ---- mc_inspect ---- */

mc_status mc_inspect_memory(const void *data, size_t size, const mc_options *options,
                            mc_inspect **out)
{
    if (!out || (!data && size)) return MC_ERR_INVALID_ARG;
    *out = NULL;
    mc_inspect *in = calloc(1, sizeof *in);
    if (!in) return MC_ERR_NOMEM;
    if (!sink_init(&in->sink, size, data)) {
        sink_free(&in->sink);
        free(in);
        return MC_ERR_NOMEM;
    }
    mc_settings st;
    mc_settings_resolve(&st, options);
    st.skip_sha256 = 1;
    mc_status s = mc_validate_sink(data, size, size, &st, &in->sink, &in->result);
    if (s == MC_OK) sink_finish(&in->sink);
    if (s == MC_OK && in->sink.nomem) s = MC_ERR_NOMEM;
    if (s != MC_OK) {
        mc_inspect_free(in);
        return s;
    }
    /* a walk stopped by a fault has left nodes open: the tree is still whole */
    *out = in;
    return MC_OK;
}

void mc_inspect_free(mc_inspect *in)
{
    if (!in) return;
    sink_free(&in->sink);
    mc_result_free(in->result);
    free(in);
}

const mc_node *mc_inspect_root(const mc_inspect *in)
{
    return in ? &in->sink.root->n : NULL;
}

const mc_result *mc_inspect_result(const mc_inspect *in)
{
    return in ? in->result : NULL;
}

mc_result *mc_inspect_take_result(mc_inspect *in)
{
    mc_result *r = in ? in->result : NULL;
    if (in) in->result = NULL;
    return r;
}

int mc_inspect_truncated(const mc_inspect *in)
{
    return in && in->sink.truncated;
}

uint32_t mc_inspect_space_count(const mc_inspect *in)
{
    return in ? in->sink.space_count : 0;
}

uint32_t mc_inspect_space_of_block(const mc_inspect *in, uint64_t block_offset)
{
    uint32_t found = 0;
    for (uint32_t k = 1; in && k < in->sink.space_count; k++)
        if (in->sink.spaces[k].owner->offset == block_offset) found = k;
    return found;
}

const uint8_t *mc_inspect_space(const mc_inspect *in, uint32_t sp, uint64_t *size,
                                const mc_node **owner)
{
    if (!in || sp >= in->sink.space_count) return NULL;
    const space *s = &in->sink.spaces[sp];
    if (size) *size = s->size;
    if (owner) *owner = s->owner;
    return s->bytes ? s->bytes : (const uint8_t *)"";
}

const mc_attr *mc_node_attr(const mc_node *n, const char *key)
{
    for (const mc_attr *a = n ? n->attrs : NULL; a; a = a->next)
        if (strcmp(a->key, key) == 0) return a;
    return NULL;
}

char *mc_node_path(const mc_node *node, char *out, size_t size)
{
    if (!size) return out;
    out[0] = '\0';
    const mc_node *seg[256];
    size_t n = 0;
    for (const mc_node *p = node; p && p->parent; p = p->parent) {
        if (!p->name[0]) continue; /* an unnamed node (a run of elements) adds no segment */
        if (n == sizeof seg / sizeof seg[0]) {
            /* deeper than a path can show: keep the innermost segments */
            memmove(seg, seg + 1, (n - 1) * sizeof seg[0]);
            n--;
        }
        seg[n++] = p;
    }
    size_t used = 0;
    if (n == 0) snprintf(out, size, "/");
    while (n > 0 && used + 1 < size) {
        int w = snprintf(out + used, size - used, "/%s", seg[--n]->name);
        if (w < 0) break;
        used += (size_t)w;
    }
    return out;
}

static bool holds(const mc_node *n, uint32_t sp, uint64_t off)
{
    return n->space == sp && off >= n->offset && off - n->offset < n->size;
}

static void path_append(char *path, size_t size, const char *fmt, ...) MC_PRINTF(3, 4);

static void path_append(char *path, size_t size, const char *fmt, ...)
{
    size_t used = strlen(path);
    if (used + 1 >= size) return;
    if (used == 1 && path[0] == '/') used = 0; /* the root's "/" is its own path */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path + used, size - used, fmt, ap);
    va_end(ap);
}

/* Within one record: the field holding byte rel. */
static void locate_field(mc_location *l, const mc_node *n, uint64_t rel)
{
    for (size_t i = 0; i < n->field_count; i++) {
        const mc_field *f = &n->fields[i];
        uint64_t es = mc_field_type_size(f->type), len = es * (f->count ? f->count : 1);
        /* a string of count 0 runs to the end of its record */
        if (f->count == 0 && f->type == MC_FIELD_STRING)
            len = l->record_size > f->offset ? l->record_size - f->offset : 0;
        if (rel < f->offset || rel - f->offset >= len) continue;
        l->field = f;
        l->field_element = (uint32_t)((rel - f->offset) / es);
        if (f->name[0]) path_append(l->path, sizeof l->path, "/%s", f->name);
        if (f->indexed) path_append(l->path, sizeof l->path, "/%" PRIu32, l->field_element);
        return;
    }
}

const mc_location *mc_inspect_at(mc_inspect *in, uint32_t sp, uint64_t off)
{
    if (!in || sp >= in->sink.space_count || off >= in->sink.spaces[sp].size) return NULL;
    const mc_node *n = in->sink.spaces[sp].owner;
    for (;;) {
        const mc_node *hit = NULL;
        for (const mc_node *k = n->first_child; k; k = k->next)
            if (holds(k, sp, off)) {
                hit = k;
                break;
            }
        if (!hit) break;
        n = hit;
    }
    mc_location *l = &in->at;
    memset(l, 0, sizeof *l);
    l->node = n;
    mc_node_path(n, l->path, sizeof l->path);
    if (n->space != sp) { /* the space's owner, no child holding the byte */
        l->record_offset = 0;
        l->record_size = in->sink.spaces[sp].size;
        return l;
    }
    if (n->stride && n->count) {
        l->has_element = 1;
        l->element = (off - n->offset) / n->stride;
        l->record_offset = n->offset + l->element * n->stride;
        l->record_size = n->stride;
        path_append(l->path, sizeof l->path, "/%" PRIu64, l->element);
    } else {
        l->record_offset = n->offset;
        l->record_size = n->size;
    }
    locate_field(l, n, off - l->record_offset);
    return l;
}

/* ---- JSON ---- */

typedef struct jbuf {
    char *p;
    size_t len, cap;
    bool fail;
} jbuf;

static void jput(jbuf *b, const char *s, size_t n)
{
    if (b->fail) return;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n + 1) {
            if (cap > SIZE_MAX / 2) {
                b->fail = true;
                return;
            }
            cap *= 2;
        }
        char *np = realloc(b->p, cap);
        if (!np) {
            b->fail = true;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

/* a string literal */
#define JL(b, lit) jput((b), (lit), sizeof(lit) - 1)

static void jf(jbuf *b, const char *fmt, ...) MC_PRINTF(2, 3);

static void jf(jbuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) jput(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void jstr(jbuf *b, const char *s)
{
    JL(b, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            char e[2] = {'\\', (char)ch};
            jput(b, e, 2);
        } else if (ch < 0x20) {
            jf(b, "\\u%04x", ch);
        } else {
            jput(b, (const char *)&ch, 1);
        }
    }
    JL(b, "\"");
}

static void jnum(jbuf *b, double v)
{
    if (isfinite(v))
        jf(b, "%.9g", v);
    else
        JL(b, "null");
}

static void json_attrs(jbuf *b, const mc_node *n)
{
    JL(b, ",\"attributes\":{");
    for (const mc_attr *a = n->attrs; a; a = a->next) {
        jstr(b, a->key);
        JL(b, ":");
        switch (a->type) {
        case MC_VALUE_U64: jf(b, "%" PRIu64, a->u); break;
        case MC_VALUE_I64: jf(b, "%" PRId64, a->i); break;
        case MC_VALUE_F64: jnum(b, a->f); break;
        case MC_VALUE_STRING: jstr(b, a->s); break;
        case MC_VALUE_VEC:
        case MC_VALUE_U64S:
            JL(b, "[");
            for (size_t i = 0; i < a->n; i++) {
                if (i) JL(b, ",");
                if (a->type == MC_VALUE_VEC)
                    jnum(b, a->v[i]);
                else
                    jf(b, "%" PRIu64, a->list[i]);
            }
            JL(b, "]");
            break;
        }
        if (a->next) JL(b, ",");
    }
    JL(b, "}");
}

static void json_open(jbuf *b, const mc_node *n)
{
    JL(b, "{\"name\":");
    jstr(b, n->name);
    JL(b, ",\"kind\":");
    jstr(b, n->kind);
    jf(b, ",\"offset\":%" PRIu64 ",\"size\":%" PRIu64 ",\"space\":%" PRIu32, n->offset, n->size,
       n->space);
    if (n->inner_space != n->space) jf(b, ",\"inner_space\":%" PRIu32, n->inner_space);
    if (n->stride) jf(b, ",\"count\":%" PRIu64 ",\"stride\":%" PRIu64, n->count, n->stride);
    if (n->field_count) {
        JL(b, ",\"fields\":[");
        for (size_t i = 0; i < n->field_count; i++) {
            const mc_field *f = &n->fields[i];
            if (i) JL(b, ",");
            JL(b, "{\"name\":");
            jstr(b, f->name);
            jf(b, ",\"type\":\"%s\",\"offset\":%" PRIu32 ",\"count\":%" PRIu32 "}",
               mc_field_type_name(f->type), f->offset, f->count ? f->count : 1);
        }
        JL(b, "]");
    }
    if (n->attrs) json_attrs(b, n);
    JL(b, ",\"children\":[");
}

char *mc_inspect_json(const mc_inspect *in)
{
    if (!in) return NULL;
    jbuf b = {NULL, 0, 0, false};
    const mc_node *root = &in->sink.root->n, *n = root;
    json_open(&b, n);
    /* depth first through the parent pointers: no recursion */
    while (n) {
        if (n->first_child) {
            n = n->first_child;
            json_open(&b, n);
            continue;
        }
        for (;;) {
            JL(&b, "]}");
            if (n == root) {
                n = NULL;
                break;
            }
            if (n->next) {
                n = n->next;
                JL(&b, ",");
                json_open(&b, n);
                break;
            }
            n = n->parent;
        }
    }
    jput(&b, "", 1); /* the terminating NUL */
    if (b.fail) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
