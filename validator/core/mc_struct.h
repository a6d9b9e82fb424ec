/*
 * The structure sink: how a format module's one walk tells what it passes
 * (sections, records, blocks, arrays of records, decoded attributes) to
 * mc_inspect, inspect --at and --show-bytes. Validation runs with no sink
 * attached (c->sink is NULL) and every call below is then one predictable
 * branch, taken per section or record, never per element: modules only
 * call them outside their per-vertex loops (mc_s_walked: once per chunk
 * of vertices).
 *
 * Adopting it in a module (e.g. a new layout):
 *   - mc_s_enter / mc_s_leave around each section, record or block, with
 *     its offset and size in the current space and its path segment (the
 *     name, or the index for an element of a list: "/meshes/3");
 *   - mc_s_array for a run of same-size records (vertices, indices, keys):
 *     one node, the elements are addressed by arithmetic, never entered;
 *   - mc_s_layout for the fields of the current record (a static table);
 *   - mc_s_u64 / mc_s_str / ... for decoded values a person wants to see;
 *   - mc_s_space to enter decoded bytes (a compressed block): offsets of
 *     the nodes inside are offsets in those bytes;
 *   - mc_sink_geometry once per mesh, with views of its positions, indices
 *     and weights, for the bounding box, degenerate triangles and
 *     influence histogram (computed in one place, only with a sink);
 *   - mc_s_walked from the validation's own vertex loops, chunk by chunk,
 *     with the same views: the box and the influence counts are summed
 *     while the vertices are in cache, and mc_sink_geometry reads those
 *     sums instead of the vertices (a 100 MB mesh is then not read twice:
 *     issue 27's goal, inspect within 2x of validation). A mesh reported
 *     before its vertices are walked uses mc_sink_geometry_later.
 * Every enter needs its leave, also on the error paths; a node's path is
 * the path issues use (docs/INSPECT.md), so a module builds issue paths
 * from the same segments.
 */
#ifndef MC_STRUCT_H
#define MC_STRUCT_H

#include "mc_check.h"

#define MC_NO_INDEX UINT64_MAX

void mc_sink_enter(mc_sink *s, const char *kind, const char *name, uint64_t index,
                   uint64_t offset, uint64_t size);
void mc_sink_leave(mc_sink *s);
void mc_sink_array(mc_sink *s, const char *name, uint64_t offset, uint64_t count, uint64_t stride,
                   const mc_field *fields, size_t field_count);
/* A layout made while walking (E3D's interleaved vertices), copied into the
 * sink's memory for the nodes that name it (their fields must outlive the
 * walk); NULL when there is no sink or no memory. The names must be static. */
const mc_field *mc_sink_fields(mc_sink *s, const mc_field *fields, size_t count);
/* mc_sink_array that stays entered (for attributes); leave it after. */
void mc_sink_array_enter(mc_sink *s, const char *name, uint64_t offset, uint64_t count,
                         uint64_t stride, const mc_field *fields, size_t field_count);
/* The current node ends at end (its size was not known when entered). */
void mc_sink_end(mc_sink *s, uint64_t end);
void mc_sink_layout(mc_sink *s, const mc_field *fields, size_t field_count);
void mc_sink_u64(mc_sink *s, const char *key, uint64_t v);
void mc_sink_i64(mc_sink *s, const char *key, int64_t v);
void mc_sink_f64(mc_sink *s, const char *key, double v);
void mc_sink_str(mc_sink *s, const char *key, const uint8_t *p, size_t max);
void mc_sink_vec(mc_sink *s, const char *key, const double *v, size_t n);
/* The current node's children are in these decoded bytes (copied). */
void mc_sink_decoded(mc_sink *s, const uint8_t *decoded, size_t decoded_size);
void mc_sink_space(mc_sink *s, const char *kind, const char *name, uint64_t offset, uint64_t size,
                   const uint8_t *decoded, size_t decoded_size);

/* A strided run of elements of one type: count elements of width values,
 * the first at p, each stride bytes after the previous one; bytes is how
 * many bytes may be read from p (the view is cut to fit). */
typedef struct mc_view {
    const uint8_t *p;
    size_t bytes;
    uint64_t count;
    uint64_t stride;
    mc_field_type type;
    uint32_t width;
} mc_view;

/* A view's bytes from a span the format module checked lies inside the file
 * (whose size is a size_t): the conversion loses nothing on a 32-bit target
 * (the WebAssembly build). A span past that would be a module's bug: the
 * view is then empty, so nothing is read. */
static inline size_t mc_view_bytes(uint64_t n)
{
    return n <= SIZE_MAX ? (size_t)n : 0;
}

typedef struct mc_geometry {
    mc_view positions;      /* f32 x 3 (or f64, i16 ...): the bounding box */
    mc_view indices;        /* width 1: a flat list, primitive by primitive */
    mc_view weights;        /* width = influence slots per vertex; count non-zero */
    unsigned primitive;     /* 3: triangles, 2: lines (no degenerate count) */
    bool indexed_box;       /* the positions are shared: box of the referenced ones */
    bool degenerate_walked; /* the walk counted them (degenerate): not read again */
    uint64_t degenerate;
} mc_geometry;

/* Non-zero weights per vertex: slot k counts the vertices with k (at most
 * 16 slots of a vertex are looked at). */
#define MC_INFLUENCE_SLOTS 17u

/* For a module whose mesh has its weights in a node of their own (E3D) or
 * between other fields (SEModel: a bone index before each weight): adds
 * the vertices of a weights view to hist (MC_INFLUENCE_SLOTS entries), the
 * slots of a vertex step bytes apart (0: packed); then mc_sink_influences
 * puts influences_max and the histogram (width + 1 entries) on the
 * current node, as mc_sink_geometry does. */
void mc_influences_add(const mc_view *weights, uint32_t step, uint64_t *hist);
void mc_sink_influences(mc_sink *s, const uint64_t *hist, uint32_t width);

/* Returns the degenerate triangles it counted (0 for lines or no
 * indices), for a module that sums them over the blocks of a mesh (E3D). */
uint64_t mc_sink_geometry(mc_sink *s, const mc_geometry *g);
/* mc_sink_geometry on the current node once the walk has ended (after
 * mc_s_walked has seen the vertices); g's views must stay valid till then
 * (the file's bytes, not decoded ones). */
void mc_sink_geometry_later(mc_sink *s, const mc_geometry *g);
/* mc_influences_add and mc_sink_influences of one weights view, from what
 * mc_s_walked summed of it where it did. */
void mc_sink_influences_of(mc_sink *s, const mc_view *w, uint32_t step);

/* The validation walk has just checked vertices [first, first + n) of the
 * runs pos (positions) and weights (either may be NULL; step as in
 * mc_influences_add): their box and influence counts are summed by chunk
 * of 64 vertices. Calls for a run go in order from vertex 0; views equal
 * (same p, stride, type, width, count) to the ones later given to
 * mc_sink_geometry are the ones it finds. Runs of fewer than 1024 vertices
 * are not summed (read again, in cache). */
void mc_sink_walked(mc_sink *s, const mc_view *pos, const mc_view *weights, uint32_t step,
                    uint64_t first, uint64_t n);

static inline void mc_s_walked(mc_ctx *c, const mc_view *pos, const mc_view *weights,
                               uint32_t step, uint64_t first, uint64_t n)
{
    if (c->sink) mc_sink_walked(c->sink, pos, weights, step, first, n);
}

static inline void mc_s_enter(mc_ctx *c, const char *kind, const char *name, uint64_t offset,
                              uint64_t size)
{
    if (c->sink) mc_sink_enter(c->sink, kind, name, MC_NO_INDEX, offset, size);
}

static inline void mc_s_enter_index(mc_ctx *c, const char *kind, uint64_t index, uint64_t offset,
                                    uint64_t size)
{
    if (c->sink) mc_sink_enter(c->sink, kind, NULL, index, offset, size);
}

static inline void mc_s_leave(mc_ctx *c)
{
    if (c->sink) mc_sink_leave(c->sink);
}

static inline void mc_s_array(mc_ctx *c, const char *name, uint64_t offset, uint64_t count,
                              uint64_t stride, const mc_field *fields, size_t field_count)
{
    if (c->sink) mc_sink_array(c->sink, name, offset, count, stride, fields, field_count);
}

static inline void mc_s_array_enter(mc_ctx *c, const char *name, uint64_t offset,
                                    uint64_t count, uint64_t stride, const mc_field *fields,
                                    size_t field_count)
{
    if (c->sink) mc_sink_array_enter(c->sink, name, offset, count, stride, fields, field_count);
}

static inline void mc_s_end(mc_ctx *c, uint64_t end)
{
    if (c->sink) mc_sink_end(c->sink, end);
}

static inline void mc_s_layout(mc_ctx *c, const mc_field *fields, size_t field_count)
{
    if (c->sink) mc_sink_layout(c->sink, fields, field_count);
}

static inline void mc_s_u64(mc_ctx *c, const char *key, uint64_t v)
{
    if (c->sink) mc_sink_u64(c->sink, key, v);
}

static inline void mc_s_i64(mc_ctx *c, const char *key, int64_t v)
{
    if (c->sink) mc_sink_i64(c->sink, key, v);
}

static inline void mc_s_f64(mc_ctx *c, const char *key, double v)
{
    if (c->sink) mc_sink_f64(c->sink, key, v);
}

static inline void mc_s_str(mc_ctx *c, const char *key, const uint8_t *p, size_t max)
{
    if (c->sink) mc_sink_str(c->sink, key, p, max);
}

/* The validation result of an inspection, handed over to the caller (who
 * frees it); mc_inspect_result then returns NULL. For mc_fix, whose result
 * outlives the tree. */
mc_result *mc_inspect_take_result(mc_inspect *in);

#define MC_FIELDS(table) (table), (sizeof(table) / sizeof((table)[0]))

#endif
