/*
 * What a fixer sees (validator/fix/fix_*.c): the records of the walk's
 * structure tree, found by path, their fields by the layout tables the
 * format modules report to inspect, and a working copy of the file that
 * every write goes to as a recorded edit. A fixer never computes an offset
 * of its own: it names a record pattern and a field.
 *
 * A fixer runs only when its code fired in the input's validation and the
 * caller wants it; it must write only what breaks its code's rule, by the
 * same test the validator applies, so that a fixed file gives it nothing
 * to do (idempotence) and no other check starts to fail.
 */
#ifndef MC_FIXER_H
#define MC_FIXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "modelcheck.h"

typedef struct mc_fixing mc_fixing;

/* One record: an element of an array node or a record node, in the file's
 * own bytes (space 0). */
typedef struct mc_fx_rec {
    uint64_t offset, size;
    uint64_t index;            /* element index in its array or section */
    const mc_field *fields;
    size_t field_count;
    const char *base;          /* the node's path: "/vertices", "/joints/2" */
    bool element;              /* an array element: its path is base/index */
} mc_fx_rec;

typedef void (*mc_fx_rec_fn)(mc_fixing *fx, const mc_fx_rec *rec, const void *arg);

/* Calls fn for every record whose path matches pattern: segments joined by
 * '/', "*" matching any one segment ("/meshes/ * /vertices" without the
 * spaces). An array node at the end of the pattern yields its elements. */
void mc_fx_each(mc_fixing *fx, const char *pattern, mc_fx_rec_fn fn, const void *arg);

/* The field of rec named name, or NULL (the layout has none: a fixer then
 * does nothing). */
const mc_field *mc_fx_field(const mc_fx_rec *rec, const char *name);

/* Element j of field f as a double (integers up to 2^53 exactly), read from
 * the working copy. false when f's type is not a number or j is outside. */
bool mc_fx_get(const mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, uint32_t j, double *v);

/* Writes element j of field f (one edit, path .../f/j when f is indexed). */
void mc_fx_set(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, uint32_t j, double v);

/* Writes every element of f from v[0 .. f->count) (one edit over the bytes
 * that change, path .../f, the field decoded as a vector). */
void mc_fx_set_all(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f, const double *v);

/* A string field: zeroes every byte after its first NUL (none: nothing). */
void mc_fx_zero_after_nul(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f);

/* Zeroes every byte of field f. */
void mc_fx_zero(mc_fixing *fx, const mc_fx_rec *rec, const mc_field *f);

/* The two commonest fixes, over every record pattern matches: field made
 * all zero (padding), string field zeroed after its NUL. */
void mc_fx_each_zero(mc_fixing *fx, const char *pattern, const char *field);
void mc_fx_each_zero_after_nul(mc_fixing *fx, const char *pattern, const char *field);

/* Element j of a field of the first record pattern matches (a header
 * count), or dflt when there is none. */
double mc_fx_value_of(mc_fixing *fx, const char *pattern, const char *field, uint32_t j, double dflt);

/* The info the walk counted (textures, vertices ...). */
const mc_info *mc_fx_info(const mc_fixing *fx);

/* A fixer of one code. */
typedef struct mc_fixer {
    mc_code code;
    void (*run)(mc_fixing *fx);
} mc_fixer;

typedef struct mc_fixer_table {
    const mc_fixer *fixers;
    size_t count;
} mc_fixer_table;

#define MC_FIXER_TABLE(name, table) \
    const mc_fixer_table name = {(table), sizeof(table) / sizeof((table)[0])}

/* One table per format module family (fix_aem.c ...), in the order they run. */
extern const mc_fixer_table mc_fixers_aem, mc_fixers_aem2025, mc_fixers_aamf, mc_fixers_nlm,
    mc_fixers_semodel;

/* The fixer of code in any table, or NULL (a unit test pairs it with
 * mc_fixes.def). */
const mc_fixer *mc_fixer_find(mc_code code);

#endif
