/*
 * Shared parts of the mutators: the random source, byte-level mutation (the
 * fallback), interesting values, and the layout engine of the fixed-layout
 * formats (see mcm.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mc_reader.h"
#include "mcm.h"

/* ---- random ---- */

void mcm_rng_seed(mcm_rng *r, unsigned seed, const uint8_t *data, size_t size)
{
    /* The input's length and a few bytes join the seed so that one engine
     * seed gives different streams for different inputs; still a pure
     * function of (input, seed). */
    uint64_t s = 0x9E3779B97F4A7C15u ^ ((uint64_t)seed << 17) ^ (uint64_t)size;
    for (size_t i = 0; i < size && i < 16; i++) s = (s ^ data[i]) * 0x100000001B3u;
    r->s = s ? s : 1;
    for (int i = 0; i < 4; i++) (void)mcm_next(r);
}

uint64_t mcm_next(mcm_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Du;
}

size_t mcm_below(mcm_rng *r, size_t n)
{
    return n ? (size_t)(mcm_next(r) % n) : 0;
}

bool mcm_chance(mcm_rng *r, unsigned one_in)
{
    return mcm_below(r, one_in) == 0;
}

/* ---- little-endian access ---- */

void mcm_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void mcm_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static uint32_t get_w(const uint8_t *p, unsigned w)
{
    return w == 4 ? mc_le32(p) : w == 2 ? mc_le16(p) : p[0];
}

static void put_w(uint8_t *p, unsigned w, uint32_t v)
{
    if (w == 4) mcm_put32(p, v);
    else if (w == 2) mcm_put16(p, (uint16_t)v);
    else p[0] = (uint8_t)v;
}

/* ---- values ---- */

uint32_t mcm_int_value(mcm_rng *r, uint32_t cur, unsigned width)
{
    static const uint32_t special[] = {0,          1,          2,          3,          4,    7,
                                       8,          0x7F,       0x80,       0xFF,       0x100, 0x7FFF,
                                       0x8000,     0xFFFF,     0x10000,    0x7FFFFFFF, 0x80000000,
                                       0xFFFFFFFF, 0xFFFFFFFE, 0x00FFFFFF, 65536 * 3, 100, 101};
    uint32_t v;
    switch (mcm_below(r, 6)) {
    case 0: v = cur + 1; break;
    case 1: v = cur - 1; break;
    case 2: v = cur ^ (UINT32_C(1) << mcm_below(r, 8 * width)); break;
    case 3: v = (uint32_t)mcm_below(r, 17); break;
    case 4: v = (uint32_t)mcm_next(r); break;
    default: v = special[mcm_below(r, sizeof special / sizeof special[0])]; break;
    }
    if (width == 2) v &= 0xFFFF;
    if (width == 1) v &= 0xFF;
    return v;
}

uint32_t mcm_float_value(mcm_rng *r, uint32_t cur_bits)
{
    static const uint32_t special[] = {
        0x7FC00000, /* NaN */     0xFFC00000, /* -NaN */   0x7F800000, /* +Inf */  0xFF800000, /* -Inf */
        0x00000000, /* 0 */       0x80000000, /* -0 */     0x3F800000, /* 1 */     0xBF800000, /* -1 */
        0x3F000000, /* 0.5 */     0xBF000000, /* -0.5 */   0x40000000, /* 2 */     0x7F7FFFFF, /* max */
        0xFF7FFFFF, /* -max */    0x00800000, /* min */    0x00000001, /* denormal */
        0x33D6BF95, /* 1e-7 */    0x7149F2CA, /* 1e30 */   0x47800000, /* 65536 */ 0x3F7FFFFF, /* 1-ulp */
        0x3F800001, /* 1+ulp */   0x3F3504F3, /* sqrt(.5) */
    };
    switch (mcm_below(r, 5)) {
    case 0: return cur_bits ^ 0x80000000u;                            /* negate */
    case 1: return cur_bits + (uint32_t)mcm_below(r, 9) - 4;          /* a few ulps */
    case 2: return (cur_bits & 0x807FFFFFu) | ((uint32_t)mcm_below(r, 256) << 23); /* exponent */
    default: return special[mcm_below(r, sizeof special / sizeof special[0])];
    }
}

/* ---- byte level ---- */

bool mcm_splice(uint8_t *data, size_t *size, size_t max_size, size_t at, size_t old_len, size_t new_len)
{
    if (at > *size || old_len > *size - at) return false;
    size_t tail = *size - at - old_len;
    if (new_len > old_len && new_len - old_len > max_size - *size) return false;
    if (*size > max_size) return false;
    memmove(data + at + new_len, data + at + old_len, tail);
    if (new_len > old_len) memset(data + at + old_len, 0, new_len - old_len);
    *size = at + new_len + tail;
    return true;
}

size_t mcm_bytes(mcm_rng *r, uint8_t *data, size_t size, size_t max_size)
{
    if (size > max_size) size = max_size;
    if (size == 0) {
        if (max_size == 0) return 0;
        data[0] = (uint8_t)mcm_next(r);
        return 1;
    }
    unsigned n = 1 + (unsigned)mcm_below(r, 4);
    for (unsigned k = 0; k < n; k++) {
        size_t at = mcm_below(r, size);
        switch (mcm_below(r, 7)) {
        case 0: data[at] ^= (uint8_t)(1u << mcm_below(r, 8)); break;
        case 1: data[at] = (uint8_t)mcm_next(r); break;
        case 2:
            if (size - at >= 4) mcm_put32(data + at, mcm_int_value(r, mc_le32(data + at), 4));
            break;
        case 3:
            if (size - at >= 2) mcm_put16(data + at, (uint16_t)mcm_int_value(r, mc_le16(data + at), 2));
            break;
        case 4: { /* insert a few bytes */
            size_t len = 1 + mcm_below(r, 8);
            if (mcm_splice(data, &size, max_size, at, 0, len))
                for (size_t i = 0; i < len; i++) data[at + i] = (uint8_t)mcm_next(r);
            break;
        }
        case 5: { /* erase a few bytes */
            size_t len = 1 + mcm_below(r, size - at < 16 ? size - at : 16);
            if (size - len > 0) (void)mcm_splice(data, &size, max_size, at, len, 0);
            break;
        }
        default: { /* copy a run inside the input */
            size_t from = mcm_below(r, size);
            size_t len = 1 + mcm_below(r, 32);
            if (len > size - from) len = size - from;
            if (len > size - at) len = size - at;
            memmove(data + at, data + from, len);
            break;
        }
        }
    }
    return size;
}

/* ---- layouts ---- */

void mcm_layout_init(mcm_layout *l)
{
    memset(l, 0, sizeof *l);
}

void mcm_add_field(mcm_layout *l, size_t off, unsigned width, char kind)
{
    if (l->nfields >= MCM_MAX_FIELDS) return;
    l->fields[l->nfields++] = (mcm_field){off, (uint8_t)width, kind};
}

mcm_group *mcm_add_group(mcm_layout *l, size_t off, size_t elem, size_t count, size_t count_off,
                         unsigned count_w, const char *shape)
{
    if (l->ngroups >= MCM_MAX_GROUPS) return NULL;
    mcm_group *g = &l->groups[l->ngroups++];
    memset(g, 0, sizeof *g);
    g->off = off;
    g->elem = elem;
    g->count = count;
    g->count_off = count_off;
    g->count_w = (uint8_t)count_w;
    g->shape = shape;
    if (count > l->max_count) l->max_count = count;
    return g;
}

mcm_blob *mcm_add_blob(mcm_layout *l, size_t off, size_t len, size_t len_off, unsigned len_w)
{
    if (l->nblobs >= MCM_MAX_BLOBS) return NULL;
    mcm_blob *b = &l->blobs[l->nblobs++];
    memset(b, 0, sizeof *b);
    b->off = off;
    b->len = len;
    b->len_off = len_off;
    b->len_w = (uint8_t)len_w;
    return b;
}

void mcm_sizes_add(mcm_sizes *s, size_t off, unsigned width)
{
    if (s->n >= MCM_MAX_SIZES) return;
    s->off[s->n] = off;
    s->width[s->n] = (uint8_t)width;
    s->n++;
}

static unsigned unit_width(char k)
{
    switch (k) {
    case 'h': return 2;
    case 'b':
    case 'c': return 1;
    default: return 4;
    }
}

size_t mcm_shape_size(const char *shape)
{
    size_t n = 0;
    for (const char *s = shape; *s; s++) n += unit_width(*s);
    return n;
}

/* An index-like value: around some element count of the file, where the
 * validator's range checks sit. */
static uint32_t index_value(const mcm_layout *l, mcm_rng *r, uint32_t cur, unsigned width)
{
    if (l->ngroups && mcm_chance(r, 2)) {
        const mcm_group *g = &l->groups[mcm_below(r, l->ngroups)];
        uint32_t c = (uint32_t)g->count;
        switch (mcm_below(r, 4)) {
        case 0: return c;
        case 1: return c - 1;
        case 2: return c + 1;
        default: return c ? (uint32_t)mcm_below(r, c) : 0;
        }
    }
    return mcm_int_value(r, cur, width);
}

static void mutate_unit(const mcm_layout *l, mcm_rng *r, uint8_t *p, unsigned w, char kind)
{
    uint32_t cur = get_w(p, w);
    switch (kind) {
    case 'f': put_w(p, 4, mcm_float_value(r, cur)); break;
    case 'i':
    case 'u':
    case 'h':
    case 'n': put_w(p, w, index_value(l, r, cur, w)); break;
    case 'c': p[0] = mcm_chance(r, 2) ? 0 : (uint8_t)"/.\\:\xff\xc3" "A%\n"[mcm_below(r, 9)]; break;
    default: put_w(p, w, mcm_int_value(r, cur, w)); break;
    }
}

/* A fixed string element (shape "S"): NUL moved, removed, garbage after it,
 * non-UTF-8, a path. */
static void mutate_cstring(mcm_rng *r, uint8_t *p, size_t n)
{
    static const char *const words[] = {"../../etc/passwd", "C:\\tex.png", "", "a.png", "\xff\xfe", "\xc3("};
    switch (mcm_below(r, 4)) {
    case 0: memset(p, 'A', n); break; /* no terminator */
    case 1: p[mcm_below(r, n)] = 0; break;
    case 2: {
        const char *w = words[mcm_below(r, sizeof words / sizeof words[0])];
        size_t len = strlen(w);
        if (len + 1 <= n) memcpy(p, w, len + 1);
        break;
    }
    default: p[mcm_below(r, n)] = (uint8_t)mcm_next(r); break;
    }
}

static void mutate_element(const mcm_layout *l, mcm_rng *r, uint8_t *e, size_t elem, const char *shape)
{
    if (!shape || !*shape) {
        size_t at = mcm_below(r, elem);
        e[at] ^= (uint8_t)(1u << mcm_below(r, 8));
        return;
    }
    if (shape[0] == 'S') {
        mutate_cstring(r, e, elem);
        return;
    }
    /* pick a unit of the shape; mutate it, sometimes its neighbours too */
    size_t nunits = strlen(shape);
    size_t u = mcm_below(r, nunits), off = 0;
    for (size_t i = 0; i < u; i++) off += unit_width(shape[i]);
    unsigned w = unit_width(shape[u]);
    if (off + w > elem) return;
    mutate_unit(l, r, e + off, w, shape[u]);
}

static bool adjust(uint8_t *data, size_t size, size_t off, unsigned w, int64_t delta)
{
    if (w == 0) return true;
    if (off + w > size) return false;
    put_w(data + off, w, (uint32_t)((int64_t)get_w(data + off, w) + delta));
    return true;
}

static void adjust_sizes(uint8_t *data, size_t size, const mcm_sizes *s, int64_t delta)
{
    for (unsigned i = 0; i < s->n; i++) (void)adjust(data, size, s->off[i], s->width[i], delta);
}

static bool group_elem(const mcm_group *g, size_t i, size_t *off, size_t *len)
{
    if (g->elem) {
        *off = g->off + i * g->elem;
        *len = g->elem;
        return true;
    }
    if (i >= MCM_MAX_RECS) return false;
    *off = g->rec_off[i];
    *len = g->rec_len[i];
    return true;
}

static size_t group_count(const mcm_group *g)
{
    return g->elem ? g->count : (g->count < MCM_MAX_RECS ? g->count : MCM_MAX_RECS);
}

/* Adds (dup) or removes element i of g and of every group sharing its count
 * field, later groups first so earlier offsets stay valid; then fixes the
 * count and the enclosing sizes once per group. */
static size_t resize_element(const mcm_layout *l, const mcm_group *g, size_t i, bool dup, uint8_t *data,
                             size_t size, size_t max_size)
{
    const mcm_group *set[8];
    unsigned n = 0;
    if (!g->count_w) return size; /* no count to fix: resizing would break the framing */
    /* every group counted by the same field (SAMF positions, normals and
     * weights; SEModel bone names and bone records) */
    for (unsigned k = 0; k < l->ngroups && n < 8; k++) {
        const mcm_group *o = &l->groups[k];
        if (o->count_w == g->count_w && o->count_off == g->count_off && group_count(o) > i) set[n++] = o;
    }
    /* all must fit first */
    size_t grow = 0;
    for (unsigned k = 0; k < n; k++) {
        size_t off = 0, len = 0;
        if (!group_elem(set[k], i, &off, &len) || off > size || len > size - off) return size;
        grow += len;
    }
    if (dup && grow > max_size - size) return size;
    /* descending element offsets */
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = a + 1; b < n; b++) {
            size_t oa = 0, ob = 0, la = 0, lb = 0;
            (void)group_elem(set[a], i, &oa, &la);
            (void)group_elem(set[b], i, &ob, &lb);
            if (ob > oa) {
                const mcm_group *t = set[a];
                set[a] = set[b];
                set[b] = t;
            }
        }
    for (unsigned k = 0; k < n; k++) {
        size_t off = 0, len = 0;
        (void)group_elem(set[k], i, &off, &len);
        if (dup) {
            if (!mcm_splice(data, &size, max_size, off + len, 0, len)) return size;
            memcpy(data + off + len, data + off, len);
        } else if (!mcm_splice(data, &size, max_size, off, len, 0)) {
            return size;
        }
        adjust_sizes(data, size, &set[k]->enclosing, dup ? (int64_t)len : -(int64_t)len);
    }
    (void)adjust(data, size, g->count_off, g->count_w, dup ? 1 : -1);
    return size;
}

static size_t mutate_blob(const mcm_blob *b, mcm_rng *r, uint8_t *data, size_t size, size_t max_size)
{
    if (b->off > size || b->len > size - b->off) return size;
    size_t new_len;
    switch (mcm_below(r, 4)) {
    case 0: new_len = 0; break;
    case 1: new_len = b->len / 2; break;
    case 2: new_len = b->len + 1 + mcm_below(r, 64); break;
    default: new_len = b->len; break;
    }
    if (new_len == b->len) {
        if (b->len) {
            size_t at = b->off + mcm_below(r, b->len);
            data[at] = mcm_chance(r, 3) ? (uint8_t)"\xff\xc3/.\\"[mcm_below(r, 5)] : (uint8_t)mcm_next(r);
            if (b->len_w == 0 && data[at] == 0) data[at] = 'x'; /* a NUL would end the string early */
        }
        return size;
    }
    if (!mcm_splice(data, &size, max_size, b->off, b->len, new_len)) return size;
    for (size_t k = b->len; k < new_len; k++) data[b->off + k] = (uint8_t)(mcm_next(r) | (b->len_w ? 0 : 1));
    int64_t delta = (int64_t)new_len - (int64_t)b->len;
    (void)adjust(data, size, b->len_off, b->len_w, delta);
    adjust_sizes(data, size, &b->enclosing, delta);
    return size;
}

/* Mutates one field-level thing in place (sizes unchanged). */
static void mutate_in_place(const mcm_layout *l, mcm_rng *r, uint8_t *data, size_t size)
{
    if (l->nfields && (l->ngroups == 0 || mcm_chance(r, 4))) {
        const mcm_field *f = &l->fields[mcm_below(r, l->nfields)];
        if (f->off + f->width > size) return;
        /* counts break the framing on purpose only now and then */
        if (f->kind == 'n' && !mcm_chance(r, 4)) return;
        mutate_unit(l, r, data + f->off, f->width, f->kind);
        return;
    }
    if (!l->ngroups) return;
    const mcm_group *g = &l->groups[mcm_below(r, l->ngroups)];
    size_t c = group_count(g);
    if (!c) return;
    size_t i = mcm_below(r, c), off, len;
    if (!group_elem(g, i, &off, &len) || off > size || len > size - off || !len) return;
    if (g->elem && c > 1 && mcm_chance(r, 6)) { /* copy another element over it */
        size_t j = mcm_below(r, c);
        memmove(data + off, data + g->off + j * g->elem, len);
        return;
    }
    mutate_element(l, r, data + off, len, g->elem ? g->shape : NULL);
}

static size_t layout_once(const mcm_layout *l, mcm_rng *r, uint8_t *data, size_t size, size_t max_size)
{
    /* A few in-place edits, then at most one edit that moves bytes (the
     * layout's offsets are stale after it). */
    unsigned edits = (unsigned)mcm_below(r, 3);
    for (unsigned k = 0; k < edits; k++) mutate_in_place(l, r, data, size);
    switch (mcm_below(r, 8)) {
    case 0:
    case 1: { /* an element more or less */
        if (!l->ngroups) break;
        const mcm_group *g = &l->groups[mcm_below(r, l->ngroups)];
        size_t c = group_count(g);
        if (!c) break;
        return resize_element(l, g, mcm_below(r, c), mcm_chance(r, 2), data, size, max_size);
    }
    case 2:
        if (l->nblobs) return mutate_blob(&l->blobs[mcm_below(r, l->nblobs)], r, data, size, max_size);
        break;
    case 3:
        if (mcm_chance(r, 3)) return mcm_bytes(r, data, size, max_size);
        break;
    default: break;
    }
    mutate_in_place(l, r, data, size);
    return size;
}

size_t mcm_layout_mutate(const mcm_layout *l, mcm_rng *r, uint8_t *data, size_t size, size_t max_size)
{
    if (l->nfields == 0 && l->ngroups == 0 && l->nblobs == 0) return mcm_bytes(r, data, size, max_size);
    /* An edit can leave the input as it was (a value already there, an
     * element that does not fit): try again, since an unchanged input is a
     * wasted execution; the layout is still valid while nothing changed. */
    uint8_t *orig = malloc(size ? size : 1);
    if (!orig) return layout_once(l, r, data, size, max_size);
    memcpy(orig, data, size);
    size_t n = size;
    bool same = true;
    for (int attempt = 0; attempt < 4 && same; attempt++) {
        n = layout_once(l, r, data, size, max_size);
        same = n == size && memcmp(data, orig, n) == 0;
    }
    free(orig);
    return same ? mcm_bytes(r, data, size, max_size) : n;
}

/* Groups counted by a field an earlier group shares lose their elements
 * with it (resize_element): their cuts are that group's. */
static bool counted_before(const mcm_layout *l, unsigned gi)
{
    const mcm_group *g = &l->groups[gi];
    for (unsigned k = 0; k < gi; k++)
        if (l->groups[k].count_w == g->count_w && l->groups[k].count_off == g->count_off) return true;
    return false;
}

size_t mcm_layout_cut(mcm_parse_fn parse, void *ctx, uint8_t *data, size_t size, size_t k)
{
    mcm_layout *l = malloc(sizeof *l);
    if (!l) return size;
    mcm_layout_init(l);
    parse(l, data, size, ctx);
    size_t result = 0;
    for (unsigned gi = 0; gi < l->ngroups; gi++) {
        const mcm_group *g = &l->groups[gi];
        if (!g->count_w || counted_before(l, gi)) continue;
        size_t n = group_count(g);
        if (k < n) {
            result = resize_element(l, g, n - 1 - k, false, data, size, size);
            break;
        }
        k -= n;
    }
    free(l);
    return result;
}

size_t mcm_layout_run(mcm_parse_fn parse, void *ctx, mcm_rng *r, uint8_t *data, size_t size, size_t max_size)
{
    mcm_layout *l = malloc(sizeof *l);
    if (!l) return mcm_bytes(r, data, size, max_size);
    mcm_layout_init(l);
    parse(l, data, size, ctx);
    size = mcm_layout_mutate(l, r, data, size, max_size);
    free(l);
    return size;
}
