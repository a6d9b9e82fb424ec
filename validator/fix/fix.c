/*
 * mc_fix: one walk (mc_inspect's) over the input, the fixers of the codes
 * that fired writing through the record layouts into a copy, the edits
 * that copy differs by, and the copy validated again.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_fixer.h"
#include "mc_struct.h"
#include "modelcheck.h"

struct mc_fixing {
    const uint8_t *in;
    uint8_t *out;
    size_t size;
    const mc_node *root;
    const mc_result *before;
    mc_code code;              /* the code whose fixer runs */
    mc_fixability fixability;
    mc_edit *edits;
    size_t count, cap;
    bool nomem;
};

struct mc_fix {
    uint8_t *out;              /* NULL: no edit, the output is the input's copy */
    size_t size;
    mc_edit *edits;
    size_t count;
    uint8_t *old_block;        /* the edits' old bytes */
    mc_result *before, *after;
    uint64_t withheld;
};

/* ---- the catalog of fixes (mc_fixes.def) ---- */

typedef struct fix_entry {
    mc_code code;
    mc_fixability fixability;
    const char *text;
} fix_entry;

static const fix_entry fix_entries[] = {
#define MC_FIX(code, how, text) {MC_##code, MC_FIXABILITY_##how, text},
#define MC_KIND_NO_FIX(kind, why)
#define MC_CODE_NO_FIX(code, why) {MC_##code, MC_FIXABILITY_NONE, why},
#include "mc_fixes.def"
#undef MC_CODE_NO_FIX
#undef MC_KIND_NO_FIX
#undef MC_FIX
};

typedef struct kind_no_fix {
    const char *kind, *why;
} kind_no_fix;

static const kind_no_fix kind_reasons[] = {
#define MC_FIX(code, how, text)
#define MC_KIND_NO_FIX(kind, why) {#kind, why},
#define MC_CODE_NO_FIX(code, why)
#include "mc_fixes.def"
#undef MC_CODE_NO_FIX
#undef MC_KIND_NO_FIX
#undef MC_FIX
};

static const fix_entry *fix_entry_of(mc_code code)
{
    for (size_t i = 0; i < sizeof fix_entries / sizeof fix_entries[0]; i++)
        if (fix_entries[i].code == code) return &fix_entries[i];
    return NULL;
}

mc_fixability mc_code_fixability(mc_code code)
{
    const fix_entry *e = fix_entry_of(code);
    return e ? e->fixability : MC_FIXABILITY_NONE;
}

const char *mc_code_fix_text(mc_code code)
{
    const mc_code_info *ci = mc_code_get(code);
    if (!ci) return NULL;
    const fix_entry *e = fix_entry_of(code);
    if (e) return e->text;
    for (size_t i = 0; i < sizeof kind_reasons / sizeof kind_reasons[0]; i++)
        if (strcmp(kind_reasons[i].kind, ci->kind) == 0) return kind_reasons[i].why;
    return NULL;
}

const char *mc_fixability_name(mc_fixability fixability)
{
    switch (fixability) {
    case MC_FIXABILITY_NONE: return "none";
    case MC_FIXABILITY_SAFE: return "safe";
    case MC_FIXABILITY_UNSAFE: return "unsafe";
    }
    return "unknown";
}

/* ---- the fixers' tables ---- */

static const mc_fixer_table *const tables[] = {&mc_fixers_aem, &mc_fixers_aem2025, &mc_fixers_aamf,
                                               &mc_fixers_nlm, &mc_fixers_semodel};

const mc_fixer *mc_fixer_find(mc_code code)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (size_t i = 0; i < tables[t]->count; i++)
            if (tables[t]->fixers[i].code == code) return &tables[t]->fixers[i];
    return NULL;
}

/* ---- records ---- */

/* The pattern's next segment [*seg, *end). */
static bool next_segment(const char **p, const char **seg, size_t *len)
{
    while (**p == '/') (*p)++;
    if (!**p) return false;
    *seg = *p;
    while (**p && **p != '/') (*p)++;
    *len = (size_t)(*p - *seg);
    return true;
}

static bool segment_matches(const mc_node *n, const char *seg, size_t len)
{
    if (len == 1 && seg[0] == '*') return true;
    return strlen(n->name) == len && memcmp(n->name, seg, len) == 0;
}

/* A record inside the file's bytes: fixers read and write nothing else. */
static bool record_in_file(const mc_fixing *fx, uint64_t off, uint64_t size)
{
    return off <= fx->size && size <= fx->size - off;
}

static void yield_node(mc_fixing *fx, const mc_node *n, mc_fx_rec_fn fn, const void *arg)
{
    if (n->space != 0 || !n->fields || !n->field_count) return;
    mc_fx_rec r;
    memset(&r, 0, sizeof r);
    r.fields = n->fields;
    r.field_count = n->field_count;
    char base[80];
    mc_node_path(n, base, sizeof base);
    r.base = base;
    if (n->stride && strcmp(n->kind, "array") == 0) {
        for (uint64_t i = 0; i < n->count && !fx->nomem; i++) {
            r.offset = n->offset + i * n->stride;
            r.size = n->stride;
            r.index = i;
            if (!record_in_file(fx, r.offset, r.size)) return;
            r.element = true;
            fn(fx, &r, arg);
        }
        return;
    }
    r.offset = n->offset;
    r.size = n->size;
    r.index = strtoull(n->name, NULL, 10);
    if (!record_in_file(fx, r.offset, r.size)) return;
    fn(fx, &r, arg);
}

/* Depth-first over the tree along pattern: depth is bounded by the
 * pattern's segments, not by the file. */
static void each_below(mc_fixing *fx, const mc_node *n, const char *pattern, mc_fx_rec_fn fn,
                       const void *arg)
{
    const char *p = pattern, *seg;
    size_t len;
    if (!next_segment(&p, &seg, &len)) {
        yield_node(fx, n, fn, arg);
        return;
    }
    for (const mc_node *ch = n->first_child; ch && !fx->nomem; ch = ch->next)
        if (segment_matches(ch, seg, len)) each_below(fx, ch, p, fn, arg);
}

void mc_fx_each(mc_fixing *fx, const char *pattern, mc_fx_rec_fn fn, const void *arg)
{
    if (fx->root) each_below(fx, fx->root, pattern, fn, arg);
}

const mc_field *mc_fx_field(const mc_fx_rec *rec, const char *name)
{
    for (size_t i = 0; i < rec->field_count; i++)
        if (strcmp(rec->fields[i].name, name) == 0) return &rec->fields[i];
    return NULL;
}

const mc_info *mc_fx_info(const mc_fixing *fx)
{
    return &fx->before->info;
}

/* ---- fields ---- */

static bool numeric(mc_field_type t)
{
    return t <= MC_FIELD_F64;
}

/* The bytes of element j of f, when inside rec and the file. */
static uint8_t *element(const mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, uint32_t j)
{
    unsigned w = mc_field_type_size(f->type);
    if (j >= f->count || (uint64_t)f->offset + (uint64_t)(j + 1) * w > rec->size) return NULL;
    return fx->out + rec->offset + f->offset + (uint64_t)j * w;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put_le(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static double decode(const uint8_t *p, mc_field_type t)
{
    uint64_t u = le(p, mc_field_type_size(t));
    switch (t) {
    case MC_FIELD_I8: return (int8_t)u;
    case MC_FIELD_I16: return (int16_t)u;
    case MC_FIELD_I32: return (int32_t)u;
    case MC_FIELD_F32: {
        uint32_t b = (uint32_t)u;
        float f;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    case MC_FIELD_F64: {
        double d;
        memcpy(&d, &u, sizeof d);
        return d;
    }
    default: return (double)u;
    }
}

/* v in t's bytes: fixers only write values their type holds. */
static void encode(uint8_t *p, mc_field_type t, double v)
{
    unsigned n = mc_field_type_size(t);
    switch (t) {
    case MC_FIELD_I8:
    case MC_FIELD_I16:
    case MC_FIELD_I32: put_le(p, n, (uint64_t)(int64_t)v); return;
    case MC_FIELD_F32: {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        put_le(p, 4, b);
        return;
    }
    case MC_FIELD_F64: {
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        put_le(p, 8, b);
        return;
    }
    default: put_le(p, n, (uint64_t)v); return;
    }
}

bool mc_fx_get(const mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, uint32_t j, double *v)
{
    const uint8_t *p = numeric(f->type) ? element(fx, rec, f, j) : NULL;
    if (!p) return false;
    *v = decode(p, f->type);
    return true;
}

static void format_value(char *out, size_t size, mc_field_type t, double v)
{
    if (t == MC_FIELD_F32) snprintf(out, size, "%.9g", v);
    else if (t == MC_FIELD_F64) snprintf(out, size, "%.17g", v);
    /* integers (exact in a double up to 2^53): without the float formatter
     * where the value fits, as nearly all do */
    else if (v >= -9.0e18 && v <= 9.0e18) snprintf(out, size, "%lld", (long long)v);
    else snprintf(out, size, "%.0f", v);
}

/* The field's elements decoded, "(a, b, c)" or "a". */
static void format_field(char *out, size_t size, const uint8_t *p, const mc_field *f)
{
    unsigned w = mc_field_type_size(f->type);
    size_t used = 0;
    out[0] = '\0';
    for (uint32_t j = 0; j < f->count && used + 1 < size; j++) {
        char one[32];
        format_value(one, sizeof one, f->type, decode(p + (uint64_t)j * w, f->type));
        int n = snprintf(out + used, size - used, "%s%s%s", j ? ", " : f->count > 1 ? "(" : "", one,
                         j + 1 == f->count && f->count > 1 ? ")" : "");
        if (n < 0) break;
        used += (size_t)n;
    }
}

static bool grow(mc_fixing *fx)
{
    if (fx->count < fx->cap) return true;
    size_t cap = fx->cap ? fx->cap * 2 : 64;
    if (cap > SIZE_MAX / sizeof *fx->edits) return false;
    mc_edit *e = realloc(fx->edits, cap * sizeof *e);
    if (!e) return false;
    fx->edits = e;
    fx->cap = cap;
    return true;
}

/* src cut to fit size bytes (a path or value too long for an edit). */
static void copy_text(char *dst, size_t size, const char *src)
{
    const char *end = memchr(src, '\0', size - 1);
    size_t n = end ? (size_t)(end - src) : size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Records an edit of n bytes at off to bytes nb and applies it to the
 * working copy. The bytes themselves are filled in when the list is final
 * (finish_edits). */
static void add_edit(mc_fixing *fx, uint64_t off, uint32_t n, const uint8_t *nb, const char *path,
                     const char *old_value, const char *new_value)
{
    if (fx->nomem || n == 0 || memcmp(fx->out + off, nb, n) == 0) return;
    if (!grow(fx)) {
        fx->nomem = true;
        return;
    }
    mc_edit *e = &fx->edits[fx->count++];
    memset(e, 0, sizeof *e);
    e->offset = off;
    e->size = n;
    e->code = fx->code;
    e->fixability = fx->fixability;
    copy_text(e->path, sizeof e->path, path);
    copy_text(e->old_value, sizeof e->old_value, old_value);
    copy_text(e->new_value, sizeof e->new_value, new_value);
    memmove(fx->out + off, nb, n);
}

static void field_path(char *out, size_t size, const mc_fx_rec *rec, const mc_field *f)
{
    /* built only for an edit: most records visited are left alone */
    const char *base = strcmp(rec->base, "/") == 0 ? "" : rec->base;
    if (rec->element)
        snprintf(out, size, "%s/%" PRIu64 "%s%s", base, rec->index, *f->name ? "/" : "", f->name);
    else
        snprintf(out, size, "%s%s%s", base, *f->name ? "/" : "", f->name);
}

void mc_fx_set(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, uint32_t j, double v)
{
    uint8_t *p = numeric(f->type) ? element(fx, rec, f, j) : NULL;
    if (!p) return;
    uint8_t nb[8];
    unsigned w = mc_field_type_size(f->type);
    encode(nb, f->type, v);
    char path[160], ov[32], nv[32];
    field_path(path, sizeof path, rec, f);
    if (f->indexed || f->count > 1) {
        size_t l = strlen(path);
        snprintf(path + l, sizeof path - l, "/%" PRIu32, j);
    }
    format_value(ov, sizeof ov, f->type, decode(p, f->type));
    format_value(nv, sizeof nv, f->type, decode(nb, f->type));
    add_edit(fx, (uint64_t)(p - fx->out), w, nb, path, ov, nv);
}

void mc_fx_set_all(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, const double *v)
{
    uint8_t *p = numeric(f->type) && f->count ? element(fx, rec, f, f->count - 1) : NULL;
    if (!p) return;
    unsigned w = mc_field_type_size(f->type);
    p = element(fx, rec, f, 0);
    uint8_t nb[64];
    if ((uint64_t)f->count * w > sizeof nb) return;
    for (uint32_t j = 0; j < f->count; j++) encode(nb + (size_t)j * w, f->type, v[j]);
    size_t n = (size_t)f->count * w, a = 0, b = n;
    while (a < n && p[a] == nb[a]) a++;
    while (b > a && p[b - 1] == nb[b - 1]) b--;
    if (a == b) return;
    char path[160], ov[96], nv[96];
    field_path(path, sizeof path, rec, f);
    format_field(ov, sizeof ov, p, f);
    format_field(nv, sizeof nv, nb, f);
    add_edit(fx, (uint64_t)(p - fx->out) + a, (uint32_t)(b - a), nb + a, path, ov, nv);
}

/* Bytes [from, count) of a field made zero: one edit over the non-zero run. */
static void zero_from(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, uint32_t from,
                      const char *old_value, const char *new_value)
{
    unsigned w = mc_field_type_size(f->type);
    uint64_t n = (uint64_t)f->count * w;
    if ((uint64_t)f->offset + n > rec->size) return;
    uint8_t *p = fx->out + rec->offset + f->offset;
    uint64_t a = from, b = n;
    while (a < b && p[a] == 0) a++;
    while (b > a && p[b - 1] == 0) b--;
    if (a == b) return;
    uint8_t *zeros = calloc(1, (size_t)(b - a));
    if (!zeros) {
        fx->nomem = true;
        return;
    }
    char path[160];
    field_path(path, sizeof path, rec, f);
    add_edit(fx, (uint64_t)(p - fx->out) + a, (uint32_t)(b - a), zeros, path, old_value, new_value);
    free(zeros);
}

void mc_fx_zero(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f)
{
    unsigned w = mc_field_type_size(f->type);
    if ((uint64_t)f->offset + (uint64_t)f->count * w > rec->size) return;
    char ov[96] = "";
    if (numeric(f->type) && (uint64_t)f->count * w <= 64)
        format_field(ov, sizeof ov, fx->out + rec->offset + f->offset, f);
    else
        snprintf(ov, sizeof ov, "%" PRIu32 " bytes, not all 0", f->count * w);
    zero_from(fx, rec, f, 0, ov, numeric(f->type) ? "0" : "all 0");
}

/* The name as a reader takes it (up to its NUL), quoted and shortened to
 * leave room for tail, into out. */
static void format_name(char *out, size_t size, const uint8_t *p, size_t len, const char *tail)
{
    size_t room = size > strlen(tail) + 8 ? size - strlen(tail) - 8 : 0, k = 0;
    out[k++] = '"';
    for (size_t i = 0; i < len && k + 4 < room; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\') out[k++] = (char)p[i];
        else k += (size_t)snprintf(out + k, 5, "\\x%02x", p[i]);
    }
    out[k++] = '"';
    out[k] = '\0';
    if (k + strlen(tail) < size) memcpy(out + k, tail, strlen(tail) + 1);
}

void mc_fx_zero_after_nul(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f)
{
    if (f->type != MC_FIELD_STRING || (uint64_t)f->offset + f->count > rec->size) return;
    const uint8_t *p = fx->out + rec->offset + f->offset;
    const uint8_t *nul = memchr(p, 0, f->count);
    if (!nul) return;
    uint32_t len = (uint32_t)(nul - p), after = 0;
    for (uint32_t i = len + 1; i < f->count; i++) after += p[i] != 0;
    char ov[96], nv[96], tail[48];
    snprintf(tail, sizeof tail, " + %" PRIu32 " non-zero bytes after its NUL", after);
    format_name(ov, sizeof ov, p, len, tail);
    format_name(nv, sizeof nv, p, len, " + zeros");
    zero_from(fx, rec, f, len + 1, ov, nv);
}

static void zero_field(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    const mc_field *f = mc_fx_field(rec, arg);
    if (f) mc_fx_zero(fx, rec, f);
}

static void zero_after_nul(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    const mc_field *f = mc_fx_field(rec, arg);
    if (f) mc_fx_zero_after_nul(fx, rec, f);
}

void mc_fx_each_zero(mc_fixing *fx, const char *pattern, const char *field)
{
    mc_fx_each(fx, pattern, zero_field, field);
}

void mc_fx_each_zero_after_nul(mc_fixing *fx, const char *pattern, const char *field)
{
    mc_fx_each(fx, pattern, zero_after_nul, field);
}

typedef struct value_query {
    const char *field;
    uint32_t j;
    bool found;
    double v;
} value_query;

static void first_value(mc_fixing *fx, const mc_fx_rec *rec, const void *arg)
{
    value_query *q = (value_query *)arg;
    const mc_field *f = mc_fx_field(rec, q->field);
    if (!q->found && f && mc_fx_get(fx, rec, f, q->j, &q->v)) q->found = true;
}

double mc_fx_value_of(mc_fixing *fx, const char *pattern, const char *field, uint32_t j, double dflt)
{
    value_query q = {field, j, false, 0};
    mc_fx_each(fx, pattern, first_value, &q);
    return q.found ? q.v : dflt;
}

/* ---- the edit list ---- */

static int by_offset(const void *a, const void *b)
{
    const mc_edit *x = *(const mc_edit *const *)a, *y = *(const mc_edit *const *)b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    return x < y ? -1 : x > y; /* stable: the order they were made in */
}

/* The edits by offset. Each fixer makes them in file order, so the list is
 * usually sorted already; otherwise pointers are sorted (an edit is a few
 * hundred bytes) and the edits moved once. */
static bool sort_edits(mc_fixing *fx)
{
    size_t i = 1;
    while (i < fx->count && by_offset(&(const mc_edit *){&fx->edits[i - 1]}, &(const mc_edit *){&fx->edits[i]}) <= 0) i++;
    if (i >= fx->count) return true;
    const mc_edit **order = malloc(fx->count * sizeof *order);
    mc_edit *sorted = malloc(fx->count * sizeof *sorted);
    if (!order || !sorted) {
        free(order);
        free(sorted);
        return false;
    }
    for (i = 0; i < fx->count; i++) order[i] = &fx->edits[i];
    qsort(order, fx->count, sizeof *order, by_offset);
    for (i = 0; i < fx->count; i++) sorted[i] = *order[i];
    free(order);
    free(fx->edits);
    fx->edits = sorted;
    fx->cap = fx->count;
    return true;
}

/* Sorted, overlapping edits merged (two fixers writing one byte), and
 * every edit's bytes taken from the input and the working copy: the list
 * then says exactly how the output differs from the input. */
static bool finish_edits(mc_fixing *fx, mc_fix *f)
{
    if (!sort_edits(fx)) return false;
    size_t n = 0;
    for (size_t i = 0; i < fx->count; i++) {
        mc_edit *e = &fx->edits[i];
        if (n && e->offset < fx->edits[n - 1].offset + fx->edits[n - 1].size) {
            mc_edit *m = &fx->edits[n - 1];
            uint64_t end = e->offset + e->size > m->offset + m->size ? e->offset + e->size : m->offset + m->size;
            m->size = (uint32_t)(end - m->offset);
            continue;
        }
        fx->edits[n++] = *e;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        mc_edit *e = &fx->edits[i];
        if (memcmp(fx->in + e->offset, fx->out + e->offset, e->size) == 0) continue;
        fx->edits[kept++] = *e;
    }
    f->edits = fx->edits;
    f->count = kept;
    fx->edits = NULL;
    for (size_t i = 0; i < kept; i++) {
        f->edits[i].old_bytes = fx->in + f->edits[i].offset;
        f->edits[i].new_bytes = fx->out + f->edits[i].offset;
    }
    return true;
}

/* old_bytes point into the input, which the caller keeps only for the
 * call: they are copied beside the output. */
static bool keep_old_bytes(mc_fix *f)
{
    uint64_t total = 0;
    for (size_t i = 0; i < f->count; i++) total += f->edits[i].size;
    if (!total) return true;
    uint8_t *old = malloc((size_t)total);
    if (!old) return false;
    uint8_t *p = old;
    for (size_t i = 0; i < f->count; i++) {
        memcpy(p, f->edits[i].old_bytes, f->edits[i].size);
        f->edits[i].old_bytes = p;
        p += f->edits[i].size;
    }
    f->old_block = old;
    return true;
}

/* ---- mc_fix ---- */

static bool wanted(const mc_fix_options *o, mc_code code)
{
    return !o || !o->wanted || o->wanted(code, o->arg);
}

/* Each fixer whose code fired, in table order (a later fixer reads what an
 * earlier one wrote). */
static void run_fixers(mc_fixing *fx, const mc_fix_options *o, uint64_t *withheld)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (size_t i = 0; i < tables[t]->count && !fx->nomem; i++) {
            const mc_fixer *fixer = &tables[t]->fixers[i];
            const mc_issue *is = mc_result_find(fx->before, fixer->code);
            if (!is || !wanted(o, fixer->code)) continue;
            mc_fixability how = mc_code_fixability(fixer->code);
            if (how == MC_FIXABILITY_NONE) continue;
            if (how == MC_FIXABILITY_UNSAFE && !(o && o->unsafe_fixes)) {
                *withheld += is->count;
                continue;
            }
            fx->code = fixer->code;
            fx->fixability = how;
            fixer->run(fx);
        }
}

mc_status mc_fix_memory(const void *data, size_t size, const mc_options *options,
                        const mc_fix_options *fix, mc_fix **out)
{
    if (!out || (!data && size)) return MC_ERR_INVALID_ARG;
    *out = NULL;
    mc_fix *f = calloc(1, sizeof *f);
    if (!f) return MC_ERR_NOMEM;
    mc_inspect *ins = NULL;
    mc_status st = mc_inspect_memory(data, size, options, &ins);
    if (st != MC_OK) {
        free(f);
        return st;
    }
    mc_fixing fx;
    memset(&fx, 0, sizeof fx);
    fx.in = data;
    fx.size = size;
    fx.root = mc_inspect_root(ins);
    f->before = mc_inspect_take_result(ins);
    fx.before = f->before;
    f->size = size;
    f->out = malloc(size ? size : 1);
    if (!f->out || !f->before) fx.nomem = true;
    else {
        if (size) memcpy(f->out, data, size);
        fx.out = f->out;
        run_fixers(&fx, fix, &f->withheld);
    }
    if (!fx.nomem && !finish_edits(&fx, f)) fx.nomem = true;
    free(fx.edits);
    mc_inspect_free(ins);
    if (fx.nomem || !keep_old_bytes(f)) {
        mc_fix_free(f);
        return MC_ERR_NOMEM;
    }
    st = mc_validate_memory(f->out, f->size, options, &f->after);
    if (st != MC_OK) {
        mc_fix_free(f);
        return st;
    }
    *out = f;
    return MC_OK;
}

void mc_fix_free(mc_fix *f)
{
    if (!f) return;
    free(f->out);
    free(f->edits);
    free(f->old_block);
    mc_result_free(f->before);
    mc_result_free(f->after);
    free(f);
}

const mc_edit *mc_fix_edits(const mc_fix *f, size_t *count)
{
    if (count) *count = f ? f->count : 0;
    return f ? f->edits : NULL;
}

const uint8_t *mc_fix_output(const mc_fix *f, size_t *size)
{
    if (size) *size = f ? f->size : 0;
    return f ? f->out : NULL;
}

const mc_result *mc_fix_before(const mc_fix *f)
{
    return f ? f->before : NULL;
}

const mc_result *mc_fix_after(const mc_fix *f)
{
    return f ? f->after : NULL;
}

uint64_t mc_fix_withheld(const mc_fix *f)
{
    return f ? f->withheld : 0;
}
