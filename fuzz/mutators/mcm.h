/*
 * Structure-aware mutators for the five formats (issue 9, "Structure-aware
 * mutation"). One source per format behind one call:
 *
 *   size_t mcm_mutate_<fmt>(uint8_t *data, size_t size, size_t max_size, unsigned seed)
 *
 * mutates data[0..size) in place into at most max_size bytes and returns the
 * new size (0 only when max_size is 0). Every mutator is deterministic for a
 * given (input, seed), reads nothing outside data[0..size), never allocates
 * from a field of the input without a bound, and falls back to byte-level
 * mutation on input it cannot parse. The engine adapters (libfuzzer.c,
 * afl.c) and the self test (selftest.c) are the only callers.
 *
 * Fixed-layout formats (AEM, SEModel, AAMF/SAMF, NLM) describe the input as
 * a "layout" (mcm_layout below: typed fields, counted groups of elements,
 * length-prefixed blobs) found by a lenient parser; mcm_layout_mutate then
 * changes a field or adds, removes or copies an element, and fixes the count
 * and every enclosing size so the file stays framed. E3D (e3d.c) works on a
 * block tree instead.
 */
#ifndef MCM_H
#define MCM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef size_t (*mcm_mutator)(uint8_t *data, size_t size, size_t max_size, unsigned seed);

size_t mcm_mutate_aem(uint8_t *data, size_t size, size_t max_size, unsigned seed);
/* AEM in the 2025 layout (mutators/aem2025.c); mcm_mutate_aem hands such files over. */
size_t mcm_mutate_aem2025(uint8_t *data, size_t size, size_t max_size, unsigned seed);
bool mcm_aem_is_2025(const uint8_t *data, size_t size);
size_t mcm_mutate_semodel(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t mcm_mutate_aamf(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t mcm_mutate_e3d(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t mcm_mutate_nlm(uint8_t *data, size_t size, size_t max_size, unsigned seed);
/* Content detection (magics), then the format's mutator; bytes otherwise. */
size_t mcm_mutate_auto(uint8_t *data, size_t size, size_t max_size, unsigned seed);

/* Mutator by target name (auto, aem, semodel, aamf, e3d, nlm), NULL if unknown. */
mcm_mutator mcm_find(const char *name);

/* Structural cuts, the minimiser's first pass (modelcheck fuzz): cut k of
 * the format's units (an element of a counted array with its count and
 * the sizes around it fixed; an E3D block with its subtree, the blocks
 * around it re-framed) applied to data in place. Returns the new size, the
 * size unchanged when cut k cannot be made, 0 when there are at most k
 * cuts. Cuts are numbered on data as it is: after a cut that was kept,
 * number them again. */
typedef size_t (*mcm_cutter)(uint8_t *data, size_t size, size_t k);
size_t mcm_cut_aem(uint8_t *data, size_t size, size_t k);
size_t mcm_cut_aem2025(uint8_t *data, size_t size, size_t k);
size_t mcm_cut_semodel(uint8_t *data, size_t size, size_t k);
size_t mcm_cut_aamf(uint8_t *data, size_t size, size_t k);
size_t mcm_cut_e3d(uint8_t *data, size_t size, size_t k);
size_t mcm_cut_nlm(uint8_t *data, size_t size, size_t k);
size_t mcm_cut_auto(uint8_t *data, size_t size, size_t k);
/* Cutter by target name, as mcm_find; NULL if unknown. */
mcm_cutter mcm_find_cut(const char *name);

/* ---- shared helpers (common.c) ---- */

/* xorshift64*: small, deterministic, no global state. */
typedef struct {
    uint64_t s;
} mcm_rng;

void mcm_rng_seed(mcm_rng *r, unsigned seed, const uint8_t *data, size_t size);
uint64_t mcm_next(mcm_rng *r);
/* Uniform in [0, n); 0 when n is 0. */
size_t mcm_below(mcm_rng *r, size_t n);
bool mcm_chance(mcm_rng *r, unsigned one_in);

void mcm_put32(uint8_t *p, uint32_t v);
void mcm_put16(uint8_t *p, uint16_t v);

/* Byte-level mutation (flip, interesting value, insert, erase, copy): the
 * fallback for input a parser refuses, and a share of every format's calls. */
size_t mcm_bytes(mcm_rng *r, uint8_t *data, size_t size, size_t max_size);

/* An interesting value for a field of the given kind; cur is its value now. */
uint32_t mcm_int_value(mcm_rng *r, uint32_t cur, unsigned width);
uint32_t mcm_float_value(mcm_rng *r, uint32_t cur_bits);

/* Replaces data[at..at+old_len) by new_len bytes (contents of the new part
 * left to the caller when new_len > old_len: they are zero). Returns false
 * (nothing changed) if the result would exceed max_size. */
bool mcm_splice(uint8_t *data, size_t *size, size_t max_size, size_t at, size_t old_len, size_t new_len);

/* ---- layouts of fixed-layout formats ---- */

/* Kinds of units in an element's shape string, one character per field:
 *   f float32, i int32 (index, -1 sentinel), u uint32 (count, index),
 *   h int16/uint16, b uint8, c char (string byte), x 4 opaque bytes. */
enum { MCM_MAX_FIELDS = 64, MCM_MAX_GROUPS = 96, MCM_MAX_BLOBS = 32, MCM_MAX_SIZES = 3, MCM_MAX_RECS = 64 };

typedef struct {
    size_t off;
    uint8_t width; /* 1, 2 or 4 */
    char kind;     /* as in the shape string; 'n' a count (changed rarely: it breaks framing) */
} mcm_field;

/* Size fields that enclose a region: all change by the same delta when the
 * region grows or shrinks (AAMF block_size, a blob's length...). */
typedef struct {
    size_t off[MCM_MAX_SIZES];
    uint8_t width[MCM_MAX_SIZES];
    unsigned n;
} mcm_sizes;

/* Counted elements: fixed-size (elem > 0: element i at off + i*elem, shape
 * describes one element) or variable (elem == 0: rec_off/rec_len list the
 * elements found, up to MCM_MAX_RECS). count_off/count_w locate the count
 * (count_w 0: the count is not stored, e.g. a derived one). Groups sharing a
 * count field (SAMF positions, normals and weights) grow and shrink
 * together. */
typedef struct {
    size_t off, elem, count;
    size_t count_off;
    uint8_t count_w;
    const char *shape;
    mcm_sizes enclosing;
    size_t rec_off[MCM_MAX_RECS];
    size_t rec_len[MCM_MAX_RECS];
} mcm_group;

/* A length-prefixed (len_w > 0) or NUL-terminated (len_w 0) byte string. */
typedef struct {
    size_t off, len;
    size_t len_off;
    uint8_t len_w;
    mcm_sizes enclosing;
} mcm_blob;

typedef struct {
    mcm_field fields[MCM_MAX_FIELDS];
    unsigned nfields;
    mcm_group groups[MCM_MAX_GROUPS];
    unsigned ngroups;
    mcm_blob blobs[MCM_MAX_BLOBS];
    unsigned nblobs;
    size_t max_count; /* largest element count seen: a source of index values */
} mcm_layout;

void mcm_layout_init(mcm_layout *l);
void mcm_add_field(mcm_layout *l, size_t off, unsigned width, char kind);
/* Returns the group (to fill rec_off/rec_len or enclosing) or NULL if full. */
mcm_group *mcm_add_group(mcm_layout *l, size_t off, size_t elem, size_t count, size_t count_off,
                         unsigned count_w, const char *shape);
mcm_blob *mcm_add_blob(mcm_layout *l, size_t off, size_t len, size_t len_off, unsigned len_w);
void mcm_sizes_add(mcm_sizes *s, size_t off, unsigned width);

/* One structure-aware mutation of data described by l (possibly a few).
 * Returns the new size; falls back to mcm_bytes when l is empty. */
size_t mcm_layout_mutate(const mcm_layout *l, mcm_rng *r, uint8_t *data, size_t size, size_t max_size);

/* The fixed-layout formats' mutation: a layout allocated and filled by
 * parse (ctx passed through), one mcm_layout_mutate, freed; byte-level
 * mutation when there is no memory for it. */
typedef void (*mcm_parse_fn)(mcm_layout *l, const uint8_t *data, size_t size, void *ctx);
size_t mcm_layout_run(mcm_parse_fn parse, void *ctx, mcm_rng *r, uint8_t *data, size_t size, size_t max_size);
/* Cut k of the layout parse finds (mcm_cutter): element i of a group whose
 * count is stored, from the last element of each group to its first. */
size_t mcm_layout_cut(mcm_parse_fn parse, void *ctx, uint8_t *data, size_t size, size_t k);

/* Shape helper for parsers: how many bytes a shape string covers. */
size_t mcm_shape_size(const char *shape);

#endif
