/*
 * E3D block payloads (e3d.adoc of github.com/ecere/E3D-spec, "Detailed
 * description of all block types"; docs/formats/e3d.md): each type's layout,
 * the semantics of its values, IDs and references. Called by the tree walk in
 * e3d.c.
 *
 * References resolve in file order, as in the reference reader (no forward
 * references): textures, materials, meshes, nodes, animations. The one
 * exception is skinBones, whose node names name nodes that follow the
 * meshes; they are resolved when the whole file has been walked.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e3d_internal.h"
#include "mc_struct.h"
#include "mc_numeric.h"
#include "mc_signature.h"

/* ---- small readers ---- */

static unsigned parent_class(const e3d *v, const e3d_blk *b)
{
    return e3d_logical(v, b->fi)->klass;
}

static void payload_size(e3d *v, const e3d_blk *b, size_t expected)
{
    mc_instance *in = e3d_emit_blk(v, MC_E3D_PAYLOAD_SIZE, b, b->pos);
    mc_msg(in, "%s payload is %zu bytes (expected %zu)", b->t->name, b->n, expected);
}

static void count_size(e3d *v, const e3d_blk *b, const char *what)
{
    mc_instance *in = e3d_emit_blk(v, MC_E3D_COUNT_SIZE, b, b->pos);
    mc_msg(in, "%s payload is %zu bytes: %s", b->t->name, b->n, what);
}

static void not_finite(e3d *v, const e3d_blk *b, size_t pos, const char *what)
{
    mc_instance *in = e3d_emit_blk(v, MC_E3D_NOT_FINITE, b, pos);
    mc_msg(in, "%s holds NaN or infinity", what);
}

/* docs/formats/e3d.md: strings are u16 length + bytes, no NUL. */
static bool read_string(e3d *v, const e3d_blk *b, mc_reader *r, const uint8_t **s, uint16_t *len)
{
    size_t at = r->pos;
    *len = mc_read_u16(r);
    *s = mc_read_bytes(r, *len);
    if (*s) return true;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_STRING_SIZE, b, b->ppos + at);
    mc_msg(in, "string length %u does not fit the %zu bytes left in %s", *len, r->size - at,
           b->t->name);
    return false;
}

static bool whole_string(e3d *v, const e3d_blk *b, const uint8_t **s, uint16_t *len)
{
    mc_reader r = mc_reader_make(b->p, b->n);
    if (!read_string(v, b, &r, s, len)) return false;
    mc_s_str(v->c, "text", *s, *len);
    if (r.pos == b->n) return true;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_STRING_SIZE, b, b->ppos);
    mc_msg(in, "string length %u leaves %zu bytes unused in %s (expected payload %u)", *len,
           b->n - r.pos, b->t->name, *len + 2u);
    return false;
}

static void check_floats(e3d *v, const e3d_blk *b, size_t n)
{
    mc_reader r = mc_reader_make(b->p, b->n);
    for (size_t i = 0; i < n; i++) {
        float f = mc_read_f32(&r);
        if (r.fail) return;
        if (!isfinite(f)) {
            not_finite(v, b, b->ppos + 4 * i, b->t->name);
            return;
        }
    }
}

/* ---- IDs and references ---- */

static void define_id(e3d *v, const e3d_blk *b, unsigned kind, const char *what)
{
    uint32_t id = mc_le32(b->p);
    if (e3d_set_add(v, &v->ids, e3d_key_u32(kind, id))) return;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_DUPLICATE_ID, b, b->ppos);
    mc_msg(in, "%s ID %" PRIu32 " is defined twice", what, id);
}

static void reference_id(e3d *v, const e3d_blk *b, unsigned kind, mc_code code, const char *what)
{
    uint32_t id = mc_le32(b->p);
    if (e3d_set_has(&v->ids, e3d_key_u32(kind, id))) return;
    mc_instance *in = e3d_emit_blk(v, code, b, b->ppos);
    mc_msg(in, "%s ID %" PRIu32 " is not defined before this reference", what, id);
}

/* ---- texture names and blobs ---- */

static bool url_scheme(const uint8_t *s, size_t n)
{
    size_t i = 0;
    if (n == 0 || !((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z')) return false;
    while (i < n && (((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
                     s[i] == '+' || s[i] == '.' || s[i] == '-'))
        i++;
    return i + 2 < n && s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/';
}

static const char *path_problem(const uint8_t *s, size_t n)
{
    if (n && (s[0] == '/' || s[0] == '\\')) return "an absolute path";
    if (n >= 2 && s[1] == ':' && ((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z'))
        return "a drive-letter path";
    if (url_scheme(s, n)) return "a URL";
    for (size_t i = 0; i + 1 < n; i++) {
        bool start = i == 0 || s[i - 1] == '/' || s[i - 1] == '\\';
        bool stop = i + 2 == n || s[i + 2] == '/' || s[i + 2] == '\\';
        if (s[i] == '.' && s[i + 1] == '.' && start && stop) return "a '..' component";
    }
    return NULL;
}

/* docs/formats/e3d.md: a textureName can be 64 KiB; names are file names. */
static void check_texture_name(e3d *v, const e3d_blk *b, const uint8_t *s, uint16_t len)
{
    if (len > E3D_MAX_NAME) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_TEXTURE_NAME_LENGTH, b, b->ppos);
        mc_msg(in, "texture name is %u bytes (at most %u)", len, E3D_MAX_NAME);
    }
    const char *what = path_problem(s, len);
    if (what) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_TEXTURE_NAME_PATH, b, b->ppos + 2);
        mc_msg(in, "texture name \"%.*s\" is %s (expected a name relative to the model)",
               len > 60 ? 60 : (int)len, (const char *)s, what);
    }
}

static void check_blob(e3d *v, const e3d_blk *b)
{
    bool ok;
    const char *want;
    if (b->type == 0x9101) {
        ok = mc_is_png(b->p, b->n);
        want = "the PNG signature 89 50 4e 47 0d 0a 1a 0a";
    } else if (b->type == 0x9102) {
        ok = mc_is_jpeg(b->p, b->n);
        want = "the JPEG SOI marker ff d8 ff";
    } else {
        ok = mc_is_jpeg2000(b->p, b->n);
        want = "the JPEG 2000 signature box or codestream marker ff 4f ff 51";
    }
    if (ok) return;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_TEXTURE_SIGNATURE, b, b->ppos);
    mc_msg(in, "%zu-byte %s does not start with %s", b->n, b->t->name, want);
}

/* ---- attributes ---- */

static const uint16_t attr_types[] = {0x2010, 0x2011, 0x2018, 0x2020, 0x2030, 0x2031, 0x2032,
                                      0x2033, 0x2034, 0x2035, 0x2036, 0x2037, 0x2070, 0x2080,
                                      0x2081, 0x2090, 0x2091, 0x2092, 0x2093, 0x2094, 0x2095,
                                      0x2096, 0x2097};

static int attr_slot(uint16_t type)
{
    for (size_t i = 0; i < sizeof attr_types / sizeof attr_types[0]; i++)
        if (attr_types[i] == type) return (int)i;
    return -1;
}

static bool bone_weights(uint16_t type)
{
    return type >= 0x2090 && type <= 0x2097;
}

/* Element size per vertex; 0 when the layout implies it (bone weights,
 * custom attributes). */
static unsigned attr_size(uint16_t type)
{
    switch (type) {
    case 0x2010: return 12;
    case 0x2011: return 24;
    case 0x2018: return 6;
    case 0x2020: case 0x2070: case 0x2080: return 4;
    case 0x2081: return 8;
    default: return type >= 0x2030 && type <= 0x2037 ? 8 : 0;
    }
}

static const char *attr_name(uint16_t type)
{
    const e3d_type *t = e3d_find(type);
    return t ? t->name : "custom";
}

/* inspect: an attribute's bytes in a vertex as a named field (--at names
 * position, normal or weight inside interleaved vertices). */
static mc_field attr_field(uint16_t type, unsigned offset, unsigned size)
{
    mc_field f = {attr_name(type), MC_FIELD_BYTES, offset, size, 0};
    switch (type) {
    case 0x2010: f.type = MC_FIELD_F32, f.count = 3; break;
    case 0x2011: f.type = MC_FIELD_F64, f.count = 3; break;
    case 0x2018: f.type = MC_FIELD_U16, f.count = 3; break;
    case 0x2020: case 0x2080: f.type = MC_FIELD_U32, f.count = 1; break; /* packed 10:10:10 */
    case 0x2081: f.type = MC_FIELD_U32, f.count = 2; break;
    case 0x2070: f.type = MC_FIELD_U8, f.count = 4; break;
    default:
        if (type >= 0x2030 && type <= 0x2037) f.type = MC_FIELD_F32, f.count = 2;
        else if (bone_weights(type)) f.type = MC_FIELD_U8, f.count = size; /* IDs, then weights */
    }
    return f;
}

/* inspect: the per-vertex elements of one attribute array or of the
 * interleaved vertices (.../vertices/1, .../interleaved/4), their fields
 * named. */
static void sink_vertices(e3d *v, size_t pos, uint64_t count, unsigned stride, const mc_field *fields,
                          size_t field_count)
{
    const mc_field *kept = mc_sink_fields(v->c->sink, fields, field_count);
    mc_sink_array(v->c->sink, "", pos, count, stride, kept, kept ? field_count : 0);
}

static int s10(uint32_t bits)
{
    int x = (int)(bits & 0x3FFu);
    return x >= 512 ? x - 1024 : x;
}

/* e3d.adoc: -1..1 mapped to -511..511; docs/formats/e3d.md: the reference packer
 * writes -512 for -1 and decodes negatives / 512. Either mapping may hold.
 * (0, 0, 0) is no normal: counted, reported once when the mesh ends. */
static void check_normal(e3d *v, const e3d_blk *b, size_t pos, uint32_t vi, uint32_t packed)
{
    int q[3] = {s10(packed), s10(packed >> 10), s10(packed >> 20)};
    float spec[3], ref[3];
    for (int k = 0; k < 3; k++) {
        spec[k] = (float)q[k] / 511.0f;
        ref[k] = q[k] < 0 ? (float)q[k] / 512.0f : (float)q[k] / 511.0f;
    }
    /* Decoded, the normal is judged as a float one; the packer's mapping
     * gets a second chance only where the spec's says NOT_UNIT. */
    mc_normal_kind kind = mc_normal_judge(v->c, spec); /* always finite */
    if (kind == MC_NORMAL_ZERO) {
        e3d_mesh *m = &v->mesh;
        if (m->zero.count == 0) e3d_loc_blk(v, b, pos, &m->zero_loc);
        mc_zero_normals_add(&m->zero, pos, vi);
        return;
    }
    double tol = v->c->opt->unit_tolerance;
    if (kind == MC_NORMAL_UNIT || mc_is_unit(ref, 3, tol)) return;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_NORMAL_NOT_UNIT, b, pos);
    e3d_append(in, "/%" PRIu32, vi);
    mc_msg(in, "vertex %" PRIu32 ": normal (%d, %d, %d) has length %.6f (expected 1 +- %g)", vi,
           q[0], q[1], q[2], mc_length(ref, 3), tol);
}

static void extend(e3d *v, const double p[3], uint32_t vi)
{
    e3d_mesh *m = &v->mesh;
    for (int k = 0; k < 3; k++) {
        if (!m->have_ext || p[k] < m->min[k]) {
            m->min[k] = p[k];
            m->min_v[k] = vi;
        }
        if (!m->have_ext || p[k] > m->max[k]) {
            m->max[k] = p[k];
            m->max_v[k] = vi;
        }
    }
    m->have_ext = true;
}

/* Bone IDs (1..255, 0 = none) then as many weights (0..255); the IDs are
 * judged against the skin at the end of the mesh (skins follow the
 * attributes, docs/formats/e3d.md "Order"). */
static void check_weights(e3d *v, const e3d_blk *b, size_t pos, uint32_t vi, unsigned set,
                          const uint8_t *e, unsigned k)
{
    e3d_mesh *m = &v->mesh;
    unsigned sum = 0, influences = 0;
    bool any = false;
    for (unsigned j = 0; j < k; j++) {
        uint8_t id = e[j], w = e[k + j];
        sum += w;
        if (id) any = true;
        if (id && w) influences++;
        if (!id && w) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_WEIGHT_WITHOUT_BONE, b, pos + k + j);
            e3d_append(in, "/%" PRIu32, vi);
            mc_msg(in, "vertex %" PRIu32 ": slot %u has bone ID 0 (none) but weight %u", vi, j, w);
        }
        if (id > m->set_max[set]) {
            if (!m->set_used[set]) e3d_loc_blk(v, b, pos + j, &m->set_loc[set]);
            const e3d_frame *f = &v->st[b->fi];
            m->set_loc[set].offset = f->decoded ? f->anchor : pos + j;
            m->set_loc[set].payload = pos + j;
            m->set_used[set] = 1;
            m->set_max[set] = id;
            m->set_vertex[set] = vi;
        }
    }
    if (influences > v->c->info->max_influences) v->c->info->max_influences = influences;
    if ((any || sum) && sum != 255) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_WEIGHT_SUM, b, pos + k);
        e3d_append(in, "/%" PRIu32, vi);
        mc_msg(in, "vertex %" PRIu32 ": weights sum to %u (expected 255)", vi, sum);
    }
}

/* One vertex's element of one attribute. */
static void check_element(e3d *v, const e3d_blk *b, uint16_t type, size_t pos, uint32_t vi,
                          const uint8_t *e, unsigned size)
{
    mc_reader r = mc_reader_make(e, size);
    if (type == 0x2010 || type == 0x2011) {
        double p[3];
        for (int k = 0; k < 3; k++)
            p[k] = type == 0x2010 ? (double)mc_read_f32(&r) : mc_bits_f64(mc_read_u64(&r));
        if (r.fail) return;
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_NOT_FINITE, b, pos);
            e3d_append(in, "/%" PRIu32, vi);
            mc_msg(in, "vertex %" PRIu32 ": position holds NaN or infinity", vi);
            return;
        }
        extend(v, p, vi);
    } else if (type == 0x2020) {
        uint32_t packed = mc_read_u32(&r);
        if (!r.fail) check_normal(v, b, pos, vi, packed);
    } else if (type >= 0x2030 && type <= 0x2037) {
        float uv[2];
        mc_read_f32s(&r, uv, 2);
        if (!r.fail && !mc_all_finite(uv, 2)) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_NOT_FINITE, b, pos);
            e3d_append(in, "/%" PRIu32, vi);
            mc_msg(in, "vertex %" PRIu32 ": %s holds NaN or infinity", vi, attr_name(type));
        }
    } else if (bone_weights(type) && size >= 2) {
        check_weights(v, b, pos, vi, (unsigned)(type - 0x2090), e, size / 2);
    }
}

static bool checked_attribute(uint16_t type)
{
    return type == 0x2010 || type == 0x2011 || type == 0x2020 || (type >= 0x2030 && type <= 0x2037) ||
           bone_weights(type);
}

/* docs/formats/e3d.md: the reference reader keeps at most 10 bones per vertex. */
static void check_slots(e3d *v, const e3d_blk *b, size_t pos, uint16_t type, unsigned size)
{
    if (size / 2 <= E3D_MAX_INFLUENCES) return;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_INFLUENCES_LIMIT, b, pos);
    mc_msg(in, "%s holds %u bones per vertex; the reference reader's array holds %u",
           attr_name(type), size / 2, E3D_MAX_INFLUENCES);
}

static bool note_attribute(e3d *v, const e3d_blk *b, size_t pos, uint16_t type)
{
    int slot = attr_slot(type);
    if (slot < 0) return true;
    uint64_t bit = UINT64_C(1) << slot;
    if (!(v->mesh.attr_mask & bit)) {
        v->mesh.attr_mask |= bit;
        if (type >= 0x2030 && type <= 0x2037) v->mesh.uv_sets++;
        return true;
    }
    mc_instance *in = e3d_emit_blk(v, MC_E3D_ATTRIBUTE_DUPLICATE, b, pos);
    mc_msg(in, "%s is given twice for one mesh", attr_name(type));
    return false;
}

typedef struct ientry {
    uint16_t type, offset;
    unsigned size;
    size_t at;  /* entry position in the buffer */
    bool ok;
} ientry;

/* ---- the clean path of the per-vertex checks (issue 16) ----
 *
 * Vertices are judged in chunks. Branch-light predicates decide that every
 * element of a chunk surely passes check_element: no report and no state
 * but the position extents, which are applied only once the whole chunk is
 * vouched for, and then exactly as check_element's vertex-by-vertex extend
 * would leave them. A chunk the predicates cannot vouch for runs
 * check_element vertex by vertex, attribute by attribute, as before; it
 * alone reports, so reports and their order do not change. */

#define CLEAN_CHUNK 64u

enum clean_kind { CK_EXACT, CK_POS32, CK_POS64, CK_NORMAL, CK_UV, CK_WEIGHTS };

static enum clean_kind clean_kind(uint16_t type)
{
    switch (type) {
    case 0x2010: return CK_POS32;
    case 0x2011: return CK_POS64;
    case 0x2020: return CK_NORMAL;
    default:
        if (type >= 0x2030 && type <= 0x2037) return CK_UV;
        return bone_weights(type) ? CK_WEIGHTS : CK_EXACT;
    }
}

/* Bounds on q0^2 + q1^2 + q2^2 of a packed normal's 10-bit components
 * inside which check_normal surely reports nothing: the spec's mapping
 * (q / 511, e3d.adoc) gives a length sqrt(S) / 511 within 1 +- (tolerance
 * - 1e-6). check_normal's float components are each within 2^-24
 * (relative) of q / 511 and their squares sum exactly in double, so its
 * length is within 1.2e-7 of sqrt(S) / 511 (at most 2 here), inside the
 * 1e-6 margin: mc_normal_judge says UNIT. S = 0 (no normal) is outside. */
typedef struct normal_bounds {
    int32_t lo, hi;
} normal_bounds;

static normal_bounds normal_bounds_make(double tolerance)
{
    normal_bounds nb = {1, 0}; /* empty */
    double lo = 1.0 - tolerance + 1e-6, hi = 1.0 + tolerance - 1e-6;
    if (!(lo <= hi)) return nb; /* tolerance below the margin, or NaN */
    /* 3 * 512^2 bounds S; clamping keeps the conversions in range */
    double s_lo = lo > 0.0 ? ceil(511.0 * lo * 511.0 * lo) : 1.0;
    double s_hi = hi < 2.0 ? floor(511.0 * hi * 511.0 * hi) : 3.0 * 512.0 * 512.0;
    nb.lo = s_lo < 1.0 ? 1 : (int32_t)s_lo;
    nb.hi = (int32_t)s_hi;
    return nb;
}

MC_HOT_FN static bool normals_surely_unit(const uint8_t *p, size_t stride, uint32_t n, normal_bounds nb)
{
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t packed = mc_le32(p + (size_t)i * stride);
        int32_t x = s10(packed), y = s10(packed >> 10), z = s10(packed >> 20);
        int32_t s = x * x + y * y + z * z; /* <= 3 * 512^2 */
        ok &= s >= nb.lo && s <= nb.hi;
    }
    return ok;
}

MC_HOT_FN static bool uvs_surely_finite(const uint8_t *p, size_t stride, uint32_t n)
{
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = p + (size_t)i * stride;
        ok &= mc_f32_bits_finite(mc_le32(e));
        ok &= mc_f32_bits_finite(mc_le32(e + 4));
    }
    return ok;
}

/* n vertices' boneWeights elements of k (ID, weight) pairs, IDs first
 * (e3d.adoc), on which check_weights surely reports nothing and changes
 * nothing but max_influences: no weight without a bone, a sum of 255 where
 * any ID or weight is set, and no ID above the set's largest so far (a
 * larger one moves the recorded maximum and its place: the exact path
 * does that). *influences gets the chunk's most bones with a weight, for
 * the caller to apply once the chunk is vouched for. */
MC_ALWAYS_INLINE bool weights_clean_k(const uint8_t *p, size_t stride, uint32_t n, unsigned k, uint8_t max_id,
                                       unsigned *influences)
{
    bool ok = true;
    unsigned most = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = p + (size_t)i * stride;
        unsigned sum = 0, any = 0, used = 0, stray = 0, top = 0;
        for (unsigned j = 0; j < k; j++) {
            unsigned id = e[j], w = e[k + j];
            sum += w;
            any |= id;
            used += (id != 0) & (w != 0);
            stray |= (id == 0) & (w != 0);
            top = id > top ? id : top;
        }
        ok &= !stray & ((any | sum) == 0 || sum == 255) & (top <= max_id);
        most = used > most ? used : most;
    }
    *influences = most;
    return ok;
}

/* A copy for the common bone counts, the count a constant. */
MC_HOT_FN static bool weights_surely_clean(const uint8_t *p, size_t stride, uint32_t n, unsigned k, uint8_t max_id,
                                           unsigned *influences)
{
    if (k == 2) return weights_clean_k(p, stride, n, 2, max_id, influences);
    if (k == 4) return weights_clean_k(p, stride, n, 4, max_id, influences);
    return weights_clean_k(p, stride, n, k, max_id, influences);
}

/* A chunk's position extents, values only (branch-free): the vertex
 * holding each is looked up only when it moves the mesh's extents. */
typedef struct chunk_ext {
    double min[3], max[3];
} chunk_ext;

static double position_at(const uint8_t *e, bool f64, int k, bool *finite)
{
    if (f64) {
        double d = mc_bits_f64(mc_le64(e + 8 * k));
        *finite &= isfinite(d) != 0;
        return d;
    }
    uint32_t bits = mc_le32(e + 4 * k);
    *finite &= mc_f32_bits_finite(bits);
    return (double)mc_bits_f32(bits);
}

/* False (extents meaningless) when a component is NaN or infinite. */
MC_HOT_FN static bool positions_chunk(const uint8_t *p, size_t stride, uint32_t n, bool f64, chunk_ext *x)
{
    bool finite = true;
    for (int k = 0; k < 3; k++) x->min[k] = x->max[k] = position_at(p, f64, k, &finite);
    for (uint32_t i = 1; i < n; i++) {
        const uint8_t *e = p + (size_t)i * stride;
        for (int k = 0; k < 3; k++) {
            double d = position_at(e, f64, k, &finite);
            x->min[k] = d < x->min[k] ? d : x->min[k];
            x->max[k] = d > x->max[k] ? d : x->max[k];
        }
    }
    return finite;
}

/* extend() over every vertex of a finite chunk keeps, per axis, the first
 * vertex whose value equals (==) the chunk's extreme, if that extreme is
 * strictly beyond the mesh's so far; its value is re-read from that vertex,
 * as -0 and 0 compare equal but print differently. */
static void extend_chunk(e3d *v, const uint8_t *p, size_t stride, uint32_t v0, uint32_t n, bool f64,
                         const chunk_ext *x)
{
    e3d_mesh *m = &v->mesh;
    bool finite = true; /* known */
    for (int k = 0; k < 3; k++) {
        if (!m->have_ext || x->min[k] < m->min[k]) {
            uint32_t i = 0;
            while (i + 1 < n && position_at(p + (size_t)i * stride, f64, k, &finite) != x->min[k]) i++;
            m->min[k] = position_at(p + (size_t)i * stride, f64, k, &finite);
            m->min_v[k] = v0 + i;
        }
        if (!m->have_ext || x->max[k] > m->max[k]) {
            uint32_t i = 0;
            while (i + 1 < n && position_at(p + (size_t)i * stride, f64, k, &finite) != x->max[k]) i++;
            m->max[k] = position_at(p + (size_t)i * stride, f64, k, &finite);
            m->max_v[k] = v0 + i;
        }
    }
    m->have_ext = true;
}

/* inspect: the non-zero weights per vertex of the bone-weight attributes
 * among e[0..n) (k IDs, then k u8 weights), added to the mesh's histogram */
static void sum_influences(e3d *v, const e3d_blk *b, const ientry *e, size_t n, size_t first,
                           size_t stride, uint32_t count)
{
    e3d_mesh *m = &v->mesh;
    for (size_t i = 0; i < n; i++) {
        if (!bone_weights(e[i].type) || e[i].size < 2) continue;
        unsigned k = e[i].size / 2;
        size_t at = first + e[i].offset + k;
        if (count == 0 || at >= b->n) continue;
        mc_view w = {b->p + at, b->n - at, count, stride, MC_FIELD_U8, k};
        mc_influences_add(&w, 0, m->influences);
        if (k > m->influence_width) m->influence_width = k;
        m->weight_sets++;
    }
}

/* check_element over vertices [0, count) of the attributes e[0..n), vertex
 * by vertex as before; the element of vertex vi, attribute i is at payload
 * byte first + vi * stride + e[i].offset, which the callers' size checks
 * (count * stride bytes from first) keep inside the payload. */
static void check_vertices(e3d *v, const e3d_blk *b, const ientry *e, size_t n, size_t first,
                           size_t stride, uint32_t count)
{
    normal_bounds nb = normal_bounds_make(v->c->opt->unit_tolerance);
    /* Extents of two position attributes interleave per vertex: the
     * chunk-wise merge would not keep their first vertices; exact path. */
    unsigned positions = 0;
    for (size_t i = 0; i < n; i++)
        positions += clean_kind(e[i].type) == CK_POS32 || clean_kind(e[i].type) == CK_POS64;
    bool eligible = positions <= 1;
    if (v->c->sink) sum_influences(v, b, e, n, first, stride, count);
    for (uint32_t c0 = 0; c0 < count;) {
        uint32_t len = count - c0 < CLEAN_CHUNK ? count - c0 : CLEAN_CHUNK;
        const uint8_t *base = b->p + first + (size_t)c0 * stride;
        bool clean = eligible && v->c->fast;
        const uint8_t *pos = NULL; /* the chunk's position attribute, if any */
        bool f64 = false;
        chunk_ext x = {{0}, {0}}; /* set by positions_chunk before use */
        unsigned influences = 0;
        for (size_t i = 0; i < n && clean; i++) {
            const uint8_t *p = base + e[i].offset;
            switch (clean_kind(e[i].type)) {
            case CK_POS32: case CK_POS64:
                pos = p;
                f64 = clean_kind(e[i].type) == CK_POS64;
                clean = positions_chunk(p, stride, len, f64, &x);
                break;
            case CK_NORMAL: clean = normals_surely_unit(p, stride, len, nb); break;
            case CK_UV: clean = uvs_surely_finite(p, stride, len); break;
            case CK_WEIGHTS: {
                unsigned most = 0, k = e[i].size / 2; /* check_element: none below 2 bytes */
                clean = k == 0 || weights_surely_clean(p, stride, len, k,
                                                       v->mesh.set_max[e[i].type - 0x2090], &most);
                influences = most > influences ? most : influences;
                break;
            }
            case CK_EXACT: clean = false; break;
            }
        }
        if (clean) {
            if (pos) extend_chunk(v, pos, stride, c0, len, f64, &x);
            if (influences > v->c->info->max_influences) v->c->info->max_influences = influences;
        } else {
            for (uint32_t vi = c0; vi < c0 + len; vi++)
                for (size_t i = 0; i < n; i++) {
                    size_t at = first + (size_t)vi * stride + e[i].offset;
                    check_element(v, b, e[i].type, b->ppos + at, vi, b->p + at, e[i].size);
                }
        }
        c0 += len;
    }
}

/* e3d.adoc: a standalone attribute array holds one element per vertex. */
static void check_array(e3d *v, const e3d_blk *b)
{
    uint32_t count = v->mesh.vertex_count;
    unsigned size = attr_size(b->type);
    if (bone_weights(b->type)) {
        /* count * k IDs + count * k weights: k from the payload */
        if (count == 0 ? b->n != 0 : (b->n % count != 0 || (b->n / count) % 2 != 0)) {
            count_size(v, b, "not a whole number of (bone IDs, weights) pairs per vertex");
            return;
        }
        size = count ? (unsigned)(b->n / count) : 0;
        if (size == 0) return;
        check_slots(v, b, b->ppos, b->type, size);
    } else if ((uint64_t)count * size != b->n) {
        char what[96];
        snprintf(what, sizeof what, "%" PRIu32 " vertices x %u bytes = %" PRIu64 " expected",
                 count, size, (uint64_t)count * size);
        count_size(v, b, what);
        return;
    }
    if (v->c->sink && size) {
        mc_field f = attr_field(b->type, 0, size);
        sink_vertices(v, b->ppos, b->n / size, size, &f, 1);
    }
    if (!note_attribute(v, b, b->pos, b->type) || !checked_attribute(b->type)) return;
    ientry one = {b->type, 0, size, b->ppos, true};
    check_vertices(v, b, &one, 1, 0, size, count);
}

static int by_offset(const void *a, const void *b)
{
    const ientry *x = a, *y = b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* Sizes of entries the type does not fix come from the next offset. */
static void size_entries(e3d *v, const e3d_blk *b, ientry *e, size_t n, uint16_t stride)
{
    for (size_t i = 0; i < n; i++) {
        if (!e[i].ok || e[i].size) continue;
        unsigned next = i + 1 < n ? e[i + 1].offset : stride;
        e[i].size = next > e[i].offset ? next - e[i].offset : 0;
        if (bone_weights(e[i].type) && (e[i].size < 2 || e[i].size % 2)) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_BONE_WEIGHTS_SIZE, b, e[i].at);
            mc_msg(in, "%s spans %u bytes per vertex (expected an even number >= 2: k bone IDs, k weights)",
                   attr_name(e[i].type), e[i].size);
            e[i].ok = false;
        }
    }
}

/* e3d.adoc, interleaved: (u16 type, u16 offset) pairs ended by type 0, then
 * the u16 size of one vertex; then count vertices of that size. */
static void check_interleaved(e3d *v, const e3d_blk *b)
{
    mc_reader r = mc_reader_make(b->p, b->n);
    size_t n = 0;
    for (;;) {
        uint16_t type = mc_read_u16(&r);
        if (r.fail || type == 0) break;
        mc_read_u16(&r);
        n++;
    }
    uint16_t stride = mc_read_u16(&r);
    if (r.fail) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_INTERLEAVED_UNTERMINATED, b, b->ppos);
        mc_msg(in, "the attribute list has no 0 terminator and vertex size within the %zu-byte payload", b->n);
        return;
    }
    size_t list = r.pos, data = b->n - list;
    uint32_t count = v->mesh.vertex_count;
    bool sized = (uint64_t)stride * count == data;
    if (!sized) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_INTERLEAVED_SIZE, b, b->ppos + list - 2);
        mc_msg(in, "%" PRIu32 " vertices x %u bytes = %" PRIu64 " (found %zu bytes of vertex data)",
               count, stride, (uint64_t)stride * count, data);
    }
    ientry *e = n ? malloc(n * sizeof *e) : NULL;
    if (n && !e) {
        v->c->nomem = true;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        e[i].type = mc_le16(b->p + 4 * i);
        e[i].offset = mc_le16(b->p + 4 * i + 2);
        e[i].at = b->ppos + 4 * i;
        e[i].size = attr_size(e[i].type);
        e[i].ok = attr_slot(e[i].type) >= 0 || (e[i].type >= 0x4000 && e[i].type <= 0x5FFF);
        if (!e[i].ok) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_INTERLEAVED_TYPE, b, e[i].at);
            mc_msg(in, "entry %zu: type 0x%04x is not a vertex attribute", i, e[i].type);
        } else if (!note_attribute(v, b, e[i].at, e[i].type)) {
            e[i].ok = false;
        }
    }
    if (n) qsort(e, n, sizeof *e, by_offset);
    size_entries(v, b, e, n, stride);
    unsigned prev_end = 0;
    size_t prev = n;
    for (size_t i = 0; i < n; i++) {
        if (!e[i].ok) continue;
        if ((unsigned)e[i].offset + e[i].size > stride || e[i].size == 0) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_INTERLEAVED_RANGE, b, e[i].at);
            mc_msg(in, "%s at offset %u, %u bytes, does not fit the %u-byte vertex",
                   attr_name(e[i].type), e[i].offset, e[i].size, stride);
            e[i].ok = false;
            continue;
        }
        if (prev < n && e[i].offset < prev_end) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_INTERLEAVED_OVERLAP, b, e[i].at);
            mc_msg(in, "%s at offset %u overlaps %s at bytes [%u, %u)", attr_name(e[i].type),
                   e[i].offset, attr_name(e[prev].type), e[prev].offset, prev_end);
            e[i].ok = false;
            continue;
        }
        prev = i;
        prev_end = (unsigned)e[i].offset + e[i].size;
        if (bone_weights(e[i].type)) check_slots(v, b, e[i].at, e[i].type, e[i].size);
    }
    if (v->c->sink && stride) { /* the fitting, non-overlapping entries name the fields */
        mc_field f[64];
        size_t nf = 0;
        for (size_t i = 0; i < n && nf < sizeof f / sizeof *f; i++)
            if (e[i].ok) f[nf++] = attr_field(e[i].type, e[i].offset, e[i].size);
        sink_vertices(v, b->ppos + list, data / stride, stride, f, nf);
    }
    /* Only the fitting, non-overlapping entries are visited per vertex: there
     * are at most `stride` of them, so the pass costs at most the vertex data
     * (every entry, per vertex, was quadratic: fuzz/regressions/auto/timeout-5208...). */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (e[i].ok && checked_attribute(e[i].type)) e[kept++] = e[i];
    if (sized && kept) check_vertices(v, b, e, kept, list, stride, count);
    free(e);
}

/* ---- faces ---- */

static void check_index(e3d *v, const e3d_blk *b, size_t pos, uint64_t t, unsigned k, uint32_t idx)
{
    e3d_mesh *m = &v->mesh;
    if (!m->have_count) {
        /* attributes come later: judged at the end of the mesh */
        if (!m->have_pending_index) e3d_loc_blk(v, b, pos, &m->pending_loc);
        if (!m->have_pending_index || idx > m->pending_index) {
            const e3d_frame *f = &v->st[b->fi];
            m->pending_index = idx;
            m->pending_loc.offset = f->decoded ? f->anchor : pos;
            m->pending_loc.payload = pos;
            m->have_pending_index = true;
        }
        return;
    }
    if (idx < m->vertex_count) return;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_INDEX_RANGE, b, pos);
    e3d_append(in, "/%" PRIu64 "/%u", t, k);
    mc_msg(in, "triangle %" PRIu64 ": index %" PRIu32 " (expected < vertex count %" PRIu32 ")", t,
           idx, m->vertex_count);
}

/* One triangle, exactly: range (or the pending index), then repeats. */
static void check_triangle(e3d *v, const e3d_blk *b, unsigned w, uint32_t t)
{
    uint32_t idx[3];
    size_t at = 4 + (size_t)t * 3 * w, pos = b->ppos + at;
    for (unsigned k = 0; k < 3; k++) {
        idx[k] = w == 2 ? mc_le16(b->p + at + k * w) : mc_le32(b->p + at + k * w);
        check_index(v, b, pos + k * w, t, k, idx[k]);
    }
    if (idx[0] == idx[1] || idx[1] == idx[2] || idx[0] == idx[2]) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_TRIANGLE_DEGENERATE, b, pos);
        e3d_append(in, "/%" PRIu32, t);
        mc_msg(in, "triangle %" PRIu32 " (%" PRIu32 ", %" PRIu32 ", %" PRIu32 ") repeats a vertex",
               t, idx[0], idx[1], idx[2]);
    }
}

/* len triangles of 3 u16 (w = 2) or u32 indices at p: true when every
 * index is below count and no triangle repeats one. */
MC_HOT_FN static bool faces_surely_clean(const uint8_t *p, unsigned w, uint32_t len, uint32_t count)
{
    bool ok = true;
    for (uint32_t t = 0; t < len; t++) {
        const uint8_t *f = p + (size_t)t * 3 * w;
        uint32_t a = w == 2 ? mc_le16(f) : mc_le32(f);
        uint32_t c = w == 2 ? mc_le16(f + 2) : mc_le32(f + 4);
        uint32_t d = w == 2 ? mc_le16(f + 4) : mc_le32(f + 8);
        ok &= (a < count) & (c < count) & (d < count) & (a != c) & (c != d) & (a != d);
    }
    return ok;
}

/* docs/formats/e3d.md: triFaces start with a u32 triangle count. */
static void check_faces(e3d *v, const e3d_blk *b)
{
    unsigned w = b->type == 0x1030 ? 2 : 4;
    v->mesh.faces_seen = true;
    mc_reader r = mc_reader_make(b->p, b->n);
    uint32_t count = mc_read_u32(&r);
    if (r.fail || (uint64_t)count * 3 * w + 4 != b->n) {
        char what[96];
        snprintf(what, sizeof what, "triangle count %" PRIu32 " x %u bytes + 4 = %" PRIu64 " expected",
                 count, 3 * w, (uint64_t)count * 3 * w + 4);
        count_size(v, b, r.fail ? "too short for the u32 triangle count" : what);
        return;
    }
    if (v->c->sink) { /* inspect: the triangles (.../triFaces16/5/2), and repeated corners */
        static const mc_field tri[2][1] = {{{"", MC_FIELD_U16, 0, 3, 1}}, {{"", MC_FIELD_U32, 0, 3, 1}}};
        mc_sink_array(v->c->sink, "", b->ppos + 4, count, 3u * w, tri[w == 4], 1);
        mc_geometry g = {{NULL, 0, 0, 0, MC_FIELD_F32, 0},
                         {b->p + 4, b->n - 4, 3u * (uint64_t)count, w, w == 4 ? MC_FIELD_U32 : MC_FIELD_U16, 1},
                         {NULL, 0, 0, 0, MC_FIELD_F32, 0},
                         3, false, false, 0};
        v->mesh.degenerate += mc_sink_geometry(v->c->sink, &g);
    }
    v->mesh.faces += count;
    v->mesh.have_faces = true;
    v->c->info->triangles += count;
    v->c->info->indices += (uint64_t)count * 3;
    for (uint32_t t0 = 0; t0 < count;) {
        uint32_t len = count - t0 < CLEAN_CHUNK ? count - t0 : CLEAN_CHUNK;
        /* The clean path (issue 16): with the vertex count known,
         * check_index has no state, so a chunk of triangles whose indices
         * are all in range and distinct reports nothing and is skipped. */
        if (v->c->fast && v->mesh.have_count && faces_surely_clean(b->p + 4 + (size_t)t0 * 3 * w, w, len,
                                                     v->mesh.vertex_count)) {
            t0 += len;
            continue;
        }
        for (uint32_t t = t0; t < t0 + len; t++)
            check_triangle(v, b, w, t);
        t0 += len;
    }
}

static bool mesh_order(e3d *v, const e3d_blk *b, bool ok, const char *needs)
{
    if (ok) return true;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_MESH_BLOCK_ORDER, b, b->pos);
    mc_msg(in, "%s comes before %s (the reference reader needs %s first)", b->t->name, needs, needs);
    return false;
}

/* e3d.adoc: (start, count, material ID) triangle ranges; docs/formats/e3d.md:
 * official samples repeat and overlap them (warning, at the mesh's end). */
static void check_faces_materials(e3d *v, const e3d_blk *b)
{
    if (b->n == 0 || b->n % 12) {
        count_size(v, b, "not a whole number of 12-byte (start, count, material) entries");
        return;
    }
    bool faces = mesh_order(v, b, v->mesh.faces_seen, "triFaces") && v->mesh.have_faces;
    e3d_mesh *m = &v->mesh;
    mc_reader r = mc_reader_make(b->p, b->n);
    for (size_t i = 0; i < b->n / 12; i++) {
        uint32_t start = mc_read_u32(&r), count = mc_read_u32(&r), mat = mc_read_u32(&r);
        size_t pos = b->ppos + 12 * i;
        uint64_t end = (uint64_t)start + count;
        if (faces && end > m->faces) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_FACES_MATERIALS_RANGE, b, pos);
            e3d_append(in, "/%zu", i);
            mc_msg(in, "triangles [%" PRIu32 ", %" PRIu64 ") exceed the face count %" PRIu64, start,
                   end, m->faces);
        } else if (faces && count) {
            if (m->fm_count == m->fm_cap) {
                size_t cap = m->fm_cap ? m->fm_cap * 2 : 16;
                e3d_range *nr = realloc(m->fm, cap * sizeof *nr);
                if (!nr) {
                    v->c->nomem = true;
                    return;
                }
                m->fm = nr;
                m->fm_cap = cap;
            }
            const e3d_frame *f = &v->st[b->fi];
            e3d_range *g = &m->fm[m->fm_count++];
            g->start = start;
            g->end = end;
            g->offset = f->decoded ? f->anchor : pos;
            g->payload = pos;
            g->has_payload = f->decoded;
            g->block = b->index;
            g->entry = (uint32_t)i;
        }
        /* cube1: material ID 0 means none */
        if (mat != 0 && !e3d_set_has(&v->ids, e3d_key_u32(ID_MATERIAL, mat))) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_MATERIAL_REF_UNRESOLVED, b, pos + 8);
            e3d_append(in, "/%zu", i);
            mc_msg(in, "material ID %" PRIu32 " is not defined before this reference", mat);
        }
    }
}

static int by_start(const void *a, const void *b)
{
    const e3d_range *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->payload > y->payload) - (x->payload < y->payload);
}

static void check_overlaps(e3d *v, size_t fi)
{
    e3d_mesh *m = &v->mesh;
    if (m->fm_count < 2) return;
    qsort(m->fm, m->fm_count, sizeof *m->fm, by_start);
    uint64_t reach = m->fm[0].end;
    for (size_t i = 1; i < m->fm_count; i++) {
        const e3d_range *g = &m->fm[i];
        if (g->start < reach) {
            /* the ranges' own blocks may sit in freed decoded data: the
             * mesh's path and the entry's place name them */
            mc_instance *in = mc_emit(v->c, MC_E3D_FACES_MATERIALS_OVERLAP, g->offset);
            if (in && g->has_payload) mc_payload_offset(in, g->payload);
            if (in) e3d_frame_path(v, fi, in->path, sizeof in->path);
            e3d_append(in, "/facesMaterials/%" PRIu32 "/%" PRIu32, g->block, g->entry);
            if (g->start == m->fm[i - 1].start && g->end == m->fm[i - 1].end)
                mc_msg(in, "triangles [%" PRIu64 ", %" PRIu64 ") are listed twice: a duplicate of an earlier facesMaterials range",
                       g->start, g->end);
            else
                mc_msg(in, "triangles [%" PRIu64 ", %" PRIu64 ") overlap an earlier facesMaterials range (triangles up to %" PRIu64 " are taken)",
                       g->start, g->end, reach);
        }
        if (g->end > reach) reach = g->end;
    }
}

/* ---- mesh blocks ---- */

/* e3d.adoc, meshBBox: lo then hi; it bounds every vertex (judged at the end
 * of the mesh, as the attributes may follow it). */
static void check_bbox(e3d *v, const e3d_blk *b)
{
    float f[6];
    mc_reader r = mc_reader_make(b->p, b->n);
    mc_read_f32s(&r, f, 6);
    if (!mc_all_finite(f, 6)) {
        not_finite(v, b, b->ppos, "meshBBox");
        return;
    }
    for (int k = 0; k < 3; k++) {
        if (f[k] <= f[k + 3]) continue;
        mc_instance *in = e3d_emit_blk(v, MC_E3D_BBOX_INVERTED, b, b->ppos + 4u * (unsigned)k);
        mc_msg(in, "axis %c: lo %g > hi %g", "xyz"[k], (double)f[k], (double)f[k + 3]);
        return;
    }
    e3d_mesh *m = &v->mesh;
    memcpy(m->lo, f, sizeof m->lo);
    memcpy(m->hi, f + 3, sizeof m->hi);
    m->have_bbox = true;
    e3d_loc_blk(v, b, b->ppos, &m->bbox_loc);
}

static void check_bbox_contains(e3d *v)
{
    e3d_mesh *m = &v->mesh;
    if (!m->have_bbox || !m->have_ext) return;
    for (int k = 0; k < 3; k++) {
        double lo = m->lo[k], hi = m->hi[k];
        double tol = 1e-5 * fmax(1.0, fmax(fabs(lo), fabs(hi)));
        bool low = m->min[k] < lo - tol;
        if (!low && !(m->max[k] > hi + tol)) continue;
        mc_instance *in = e3d_emit_loc(v, MC_E3D_BBOX_EXCLUDES_VERTEX, &m->bbox_loc);
        mc_msg(in, "vertex %" PRIu32 " has %c = %g, outside the box [%g, %g]",
               low ? m->min_v[k] : m->max_v[k], "xyz"[k], low ? m->min[k] : m->max[k], lo, hi);
        return;
    }
}

/* Two layouts for one block type, told apart by the length and then by the
 * content; 1 = spec, 2 = reference code, 0 = neither, 3 = ambiguous. */
static int pick_layout(bool spec, bool code)
{
    return (spec ? 1 : 0) | (code ? 2 : 0);
}

static void report_layout(e3d *v, const e3d_blk *b, int layout, mc_code ref_code, const char *spec_desc,
                          const char *code_desc)
{
    if (layout == 3) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LAYOUT_AMBIGUOUS, b, b->pos);
        mc_msg(in, "%zu-byte %s fits both the spec's layout (%s) and the reference code's (%s)",
               b->n, b->t->name, spec_desc, code_desc);
    } else if (layout == 2) {
        mc_instance *in = e3d_emit_blk(v, ref_code, b, b->pos);
        mc_msg(in, "%s uses the reference code's layout (%s), not the spec's (%s)", b->t->name,
               code_desc, spec_desc);
    } else if (layout == 0) {
        char what[160];
        snprintf(what, sizeof what, "fits neither the spec's layout (%s) nor the reference code's (%s)",
                 spec_desc, code_desc);
        count_size(v, b, what);
    }
}

static bool dup_indices_ok(const e3d_blk *b, size_t first, size_t width, uint32_t vertices)
{
    for (size_t at = first; at + width <= b->n; at += width) {
        uint32_t idx = width == 2 ? mc_le16(b->p + at) : mc_le32(b->p + at);
        if (idx >= vertices) return false;
    }
    return true;
}

/* e3d.adoc: u32 count + count u16 indices; docs/formats/e3d.md: the code writes
 * (length - 6) / 4 int32 indices and no count. */
static void check_dup_vertices(e3d *v, const e3d_blk *b)
{
    if (!mesh_order(v, b, v->mesh.attrs_seen, "attributes") || !v->mesh.have_count) return;
    uint32_t vc = v->mesh.vertex_count;
    bool spec = b->n >= 4 && (uint64_t)mc_le32(b->p) * 2 + 4 == b->n;
    bool code = b->n % 4 == 0;
    if (spec && code && b->n > 4) {
        bool s_ok = dup_indices_ok(b, 4, 2, vc), c_ok = dup_indices_ok(b, 0, 4, vc);
        if (s_ok != c_ok) spec = s_ok, code = c_ok;
    } else if (spec && code) {
        code = false; /* a lone zero count reads the same either way */
    }
    int layout = pick_layout(spec, code);
    report_layout(v, b, layout, MC_E3D_DUPVERTS_REFERENCE_LAYOUT, "u32 count + u16 indices",
                  "int32 indices, no count");
    if (layout != 1 && layout != 2) return;
    size_t first = layout == 1 ? 4 : 0, width = layout == 1 ? 2 : 4;
    for (size_t at = first, i = 0; at + width <= b->n; at += width, i++) {
        uint32_t idx = width == 2 ? mc_le16(b->p + at) : mc_le32(b->p + at);
        if (idx < vc) continue;
        mc_instance *in = e3d_emit_blk(v, MC_E3D_DUPVERTS_RANGE, b, b->ppos + at);
        e3d_append(in, "/%zu", i);
        mc_msg(in, "duplicate %zu names original vertex %" PRIu32 " (expected < %" PRIu32 ")", i,
               idx, vc);
    }
}

static bool parts_ok(const e3d_blk *b, size_t width, uint64_t faces)
{
    for (size_t at = 0; at + width <= b->n; at += width) {
        uint64_t start = mc_le32(b->p + at + width - 8), count = mc_le32(b->p + at + width - 4);
        if (start + count > faces) return false;
    }
    return true;
}

/* e3d.adoc: (u32 id, u32 start, u32 count) per part; docs/formats/e3d.md: the code
 * writes (u64 id, u32 start, u32 count). */
static void check_parts(e3d *v, const e3d_blk *b)
{
    bool faces = mesh_order(v, b, v->mesh.faces_seen, "triFaces") && v->mesh.have_faces;
    bool spec = b->n % 12 == 0, code = b->n % 16 == 0;
    if (b->n == 0) code = false;
    if (spec && code && faces) {
        bool s_ok = parts_ok(b, 12, v->mesh.faces), c_ok = parts_ok(b, 16, v->mesh.faces);
        if (s_ok != c_ok) spec = s_ok, code = c_ok;
    }
    int layout = pick_layout(spec, code);
    report_layout(v, b, layout, MC_E3D_PARTS_REFERENCE_LAYOUT, "12 bytes per part",
                  "16 bytes per part, u64 ID");
    if ((layout != 1 && layout != 2) || !faces) return;
    size_t width = layout == 1 ? 12 : 16;
    for (size_t at = 0, i = 0; at + width <= b->n; at += width, i++) {
        uint64_t start = mc_le32(b->p + at + width - 8), count = mc_le32(b->p + at + width - 4);
        if (start + count <= v->mesh.faces) continue;
        mc_instance *in = e3d_emit_blk(v, MC_E3D_PARTS_RANGE, b, b->ppos + at + width - 8);
        e3d_append(in, "/%zu", i);
        mc_msg(in, "part %zu: triangles [%" PRIu64 ", %" PRIu64 ") exceed the face count %" PRIu64,
               i, start, start + count, v->mesh.faces);
    }
}

static bool add_boneref(e3d *v, uint64_t key, const e3d_loc *l, uint32_t path, uint32_t bone)
{
    if (v->bonerefs_count == v->bonerefs_cap) {
        size_t cap = v->bonerefs_cap ? v->bonerefs_cap * 2 : 32;
        e3d_boneref *n = realloc(v->bonerefs, cap * sizeof *n);
        if (!n) return false;
        v->bonerefs = n;
        v->bonerefs_cap = cap;
    }
    e3d_boneref *r = &v->bonerefs[v->bonerefs_count++];
    r->key = key;
    r->offset = l->offset;
    r->payload = l->payload;
    r->has_payload = l->has_payload;
    r->path = path;
    r->bone = bone;
    return true;
}

static bool add_path(e3d *v, const char *path)
{
    if (v->paths_count == v->paths_cap) {
        size_t cap = v->paths_cap ? v->paths_cap * 2 : 8;
        char(*n)[E3D_PATH] = realloc(v->paths, cap * sizeof *n);
        if (!n) return false;
        v->paths = n;
        v->paths_cap = cap;
    }
    memcpy(v->paths[v->paths_count++], path, E3D_PATH);
    return true;
}

/* docs/formats/e3d.md: u8 count, then per bone a string (node name) and 16 floats.
 * The names resolve against the nodes, which follow: kept for the end. */
static void check_skin_bones(e3d *v, const e3d_blk *b)
{
    mc_reader r = mc_reader_make(b->p, b->n);
    uint8_t count = mc_read_u8(&r);
    e3d_loc l;
    e3d_loc_blk(v, b, b->ppos, &l);
    uint32_t path = (uint32_t)v->paths_count;
    if (!add_path(v, l.path)) {
        v->c->nomem = true;
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        size_t at = r.pos;
        const uint8_t *s;
        uint16_t len;
        if (r.fail || !read_string(v, b, &r, &s, &len)) return;
        float m[16];
        mc_read_f32s(&r, m, 16);
        if (r.fail) break;
        if (!mc_all_finite(m, 16)) not_finite(v, b, b->ppos + at + 2 + len, "inverse bind matrix");
        const e3d_frame *f = &v->st[b->fi];
        l.offset = f->decoded ? f->anchor : b->ppos + at;
        l.payload = b->ppos + at;
        if (!add_boneref(v, e3d_key(NAME_NODE, s, len), &l, path, i)) {
            v->c->nomem = true;
            return;
        }
    }
    if (r.fail || r.pos != b->n) {
        char what[96];
        snprintf(what, sizeof what, "%u bones (string + 64 bytes each) do not fill it exactly", count);
        count_size(v, b, what);
        return;
    }
    v->skin.bones = count;
    v->c->info->bones += count;
}

/* ---- nodes and animations ---- */

static void check_orientation(e3d *v, const e3d_blk *b)
{
    double q[4];
    mc_reader r = mc_reader_make(b->p, b->n);
    for (int k = 0; k < 4; k++) q[k] = mc_bits_f64(mc_read_u64(&r));
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!isfinite(len)) {
        not_finite(v, b, b->ppos, "orientation");
        return;
    }
    if (fabs(len - 1.0) <= v->c->opt->quaternion_tolerance) return;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_NODE_ORIENTATION_NOT_UNIT, b, b->ppos);
    mc_msg(in, "orientation quaternion (%g, %g, %g, %g) has length %.6f (expected 1 +- %g)", q[0],
           q[1], q[2], q[3], len, v->c->opt->quaternion_tolerance);
}

static void check_doubles(e3d *v, const e3d_blk *b, size_t n)
{
    mc_reader r = mc_reader_make(b->p, b->n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(mc_bits_f64(mc_read_u64(&r)))) {
            not_finite(v, b, b->ppos + 8 * i, b->t->name);
            return;
        }
}

/* e3d.adoc: start, end and default frame. */
static void check_frames(e3d *v, const e3d_blk *b)
{
    uint32_t start = mc_le32(b->p), end = mc_le32(b->p + 4), def = mc_le32(b->p + 8);
    v->anim.have_frames = true;
    v->anim.start = start;
    v->anim.end = end;
    if (start <= def && def <= end) return;
    mc_instance *in = e3d_emit_blk(v, MC_E3D_ANIMATION_FRAMES_ORDER, b, b->ppos);
    mc_msg(in, "start %" PRIu32 ", end %" PRIu32 ", default %" PRIu32 " (expected start <= default <= end)",
           start, end, def);
}

static unsigned key_size(uint16_t type)
{
    switch (type) {
    case 0xA110: return 20;
    case 0xA210: case 0xA220: case 0xA2B0: return 12;
    case 0xA230: return 16;
    case 0xA2C0: return 1;
    default: return 4;
    }
}

/* e3d.adoc: frame track key blocks hold one value per key of the track. */
static void check_keys(e3d *v, const e3d_blk *b)
{
    uint64_t keys = v->track.keys;
    if (b->type == 0xA120) {
        if (b->n != 1 && b->n != 4) {
            payload_size(v, b, 1);
            return;
        }
        uint32_t order = b->n == 1 ? b->p[0] : mc_le32(b->p);
        if (order > 5) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_ROTATION_ORDER_RANGE, b, b->ppos);
            mc_msg(in, "rotation order %" PRIu32 " (expected 0..5)", order);
        }
        return;
    }
    uint64_t head = b->type == 0xA300 ? 4 : 0; /* docs/formats/e3d.md: int morph index */
    unsigned size = key_size(b->type);
    if (keys * size + head != b->n) {
        char what[96];
        snprintf(what, sizeof what, "%" PRIu64 " keys x %u bytes%s = %" PRIu64 " expected", keys,
                 size, head ? " + 4" : "", keys * size + head);
        count_size(v, b, what);
        return;
    }
    if (b->type == 0xA2C0) return;
    /* keys * size + head == b->n: every position below fits a size_t */
    mc_reader r = mc_reader_make(b->p + head, (size_t)(b->n - head));
    for (uint64_t k = 0; k < keys; k++) {
        float f[5];
        size_t nf = size / 4;
        mc_read_f32s(&r, f, nf);
        size_t pos = b->ppos + (size_t)(head + k * size);
        if (!mc_all_finite(f, nf)) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_NOT_FINITE, b, pos);
            e3d_append(in, "/%" PRIu64, k);
            mc_msg(in, "key %" PRIu64 ": %s holds NaN or infinity", k, b->t->name);
        } else if (b->type == 0xA230 && !mc_surely_unit(f, 4, v->c->quaternion) &&
                   !mc_is_unit(f, 4, v->c->opt->quaternion_tolerance)) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_KEY_ROTATION_NOT_UNIT, b, pos);
            e3d_append(in, "/%" PRIu64, k);
            mc_msg(in, "key %" PRIu64 ": quaternion length %.6f (expected 1 +- %g)", k,
                   mc_length(f, 4), v->c->opt->quaternion_tolerance);
        }
    }
}

static bool frames_valid(const e3d *v, const uint8_t *p, uint32_t keys)
{
    for (uint32_t k = 0; k < keys; k++) {
        uint32_t f = mc_le32(p + 4 * (size_t)k);
        if (k && f <= mc_le32(p + 4 * (size_t)(k - 1))) return false;
        if (v->anim.have_frames && (f < v->anim.start || f > v->anim.end)) return false;
    }
    return true;
}

/* e3d.adoc: u32 keys, keys x u32 frames, u8 loop flag; docs/formats/e3d.md: the
 * code writes the loop flag before the frames. Same size: told apart by
 * which reading gives a 0/1 flag and increasing frames. */
static bool enter_track(e3d *v, const e3d_blk *b, size_t *skip)
{
    mc_reader r = mc_reader_make(b->p, b->n);
    uint32_t keys = mc_read_u32(&r);
    uint64_t prefix = 5 + (uint64_t)keys * 4;
    if (r.fail || prefix > b->n) {
        char what[96];
        snprintf(what, sizeof what, "too short for %" PRIu32 " key frames and the loop flag (%" PRIu64 " bytes)",
                 keys, prefix);
        count_size(v, b, r.fail ? "too short for the u32 key count" : what);
        return false;
    }
    v->track.keys = keys;
    v->track.target = false;
    v->c->info->keyframes += keys;
    v->anim.tracks++;
    v->anim.keys += keys;
    *skip = (size_t)prefix;
    const uint8_t *spec_frames = b->p + 4, *code_frames = b->p + 5;
    uint8_t spec_loop = b->p[4 + 4 * (size_t)keys], code_loop = b->p[4];
    int layout = 1;
    if (keys > 0 && memcmp(spec_frames, code_frames, 4 * (size_t)keys) != 0) {
        bool spec = spec_loop <= 1 && frames_valid(v, spec_frames, keys);
        bool code = code_loop <= 1 && frames_valid(v, code_frames, keys);
        layout = spec || !code ? (code ? 3 : 1) : 2;
    }
    if (layout == 3) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_LAYOUT_AMBIGUOUS, b, b->pos);
        mc_msg(in, "animationTrack key frames read as valid with the loop flag after them (spec) and before them (reference code)");
        layout = 1;
    } else if (layout == 2) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_TRACK_REFERENCE_LAYOUT, b, b->ppos + 4);
        mc_msg(in, "the loop flag comes before the key frames (reference code), not after them (spec)");
    }
    const uint8_t *frames = layout == 2 ? code_frames : spec_frames;
    size_t fpos = b->ppos + (layout == 2 ? 5 : 4);
    uint8_t loop = layout == 2 ? code_loop : spec_loop;
    if (loop > 1) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_TRACK_LOOP_FLAG, b, b->ppos + (layout == 2 ? 4 : 4 + 4 * (size_t)keys));
        mc_msg(in, "loop flag is %u (expected 0 or 1)", loop);
    }
    for (uint32_t k = 1; k < keys; k++) {
        uint32_t a = mc_le32(frames + 4 * (size_t)(k - 1)), c = mc_le32(frames + 4 * (size_t)k);
        if (c > a) continue;
        mc_instance *in = e3d_emit_blk(v, MC_E3D_KEY_FRAMES_ORDER, b, fpos + 4 * (size_t)k);
        e3d_append(in, "/frames/%" PRIu32, k);
        mc_msg(in, "key %" PRIu32 ": frame %" PRIu32 " follows %" PRIu32 " (expected strictly increasing)",
               k, c, a);
    }
    return true;
}

/* ---- leaves ---- */

static void check_string_block(e3d *v, const e3d_blk *b, unsigned klass)
{
    const uint8_t *s;
    uint16_t len;
    if (!whole_string(v, b, &s, &len)) return;
    if (b->type == 0x9003) {
        check_texture_name(v, b, s, len);
        if (klass == C_TEXTURE) {
            e3d_set_add(v, &v->ids, e3d_key(NAME_TEXTURE, s, len));
        } else {
            v->map_has_texture = true;
            if (!e3d_set_has(&v->ids, e3d_key(NAME_TEXTURE, s, len))) {
                mc_instance *in = e3d_emit_blk(v, MC_E3D_TEXTURE_REF_UNRESOLVED, b, b->ppos);
                mc_msg(in, "texture name \"%.*s\" is not defined before this reference",
                       len > 60 ? 60 : (int)len, (const char *)s);
            }
        }
    } else if (b->type == 0x3021) {
        if (klass == C_NODE) {
            e3d_set_add(v, &v->ids, e3d_key(NAME_NODE, s, len));
        } else {
            v->track.target = true;
            if (!e3d_set_has(&v->ids, e3d_key(NAME_NODE, s, len))) {
                mc_instance *in = e3d_emit_blk(v, MC_E3D_NODE_REF_UNRESOLVED, b, b->ppos);
                mc_msg(in, "node name \"%.*s\" is not defined before this reference",
                       len > 60 ? 60 : (int)len, (const char *)s);
            }
        }
    }
}

static void check_ids(e3d *v, const e3d_blk *b, unsigned klass)
{
    switch (b->type) {
    case 0x1020:
        if (klass == C_MESH) define_id(v, b, ID_MESH, "mesh");
        else reference_id(v, b, ID_MESH, MC_E3D_MESH_REF_UNRESOLVED, "mesh");
        break;
    case 0x9002:
        if (klass == C_TEXTURE) {
            define_id(v, b, ID_TEXTURE, "texture");
        } else {
            v->map_has_texture = true;
            reference_id(v, b, ID_TEXTURE, MC_E3D_TEXTURE_REF_UNRESOLVED, "texture");
        }
        break;
    case 0x8011: define_id(v, b, ID_MATERIAL, "material"); break;
    case 0x3020:
        if (klass == C_NODE) {
            define_id(v, b, ID_NODE, "node");
        } else {
            v->track.target = true;
            reference_id(v, b, ID_NODE, MC_E3D_NODE_REF_UNRESOLVED, "node");
        }
        break;
    default: break;
    }
}

static void check_skeleton(e3d *v, const e3d_blk *b)
{
    mc_reader r = mc_reader_make(b->p, b->n);
    mc_read_u32(&r);
    const uint8_t *s;
    uint16_t len;
    if (r.fail) {
        payload_size(v, b, 6);
        return;
    }
    if (read_string(v, b, &r, &s, &len) && r.pos != b->n) {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_STRING_SIZE, b, b->ppos + 4);
        mc_msg(in, "skeleton name length %u leaves %zu bytes unused", len, b->n - r.pos);
    }
}

void e3d_check_leaf(e3d *v, const e3d_blk *b)
{
    unsigned klass = parent_class(v, b);
    if (b->t->fixed && b->n != b->t->fixed) {
        payload_size(v, b, b->t->fixed);
        return;
    }
    if (b->type >= 0x2010 && b->type <= 0x2097) {
        check_array(v, b);
        return;
    }
    switch (b->type) {
    case 0x1020: case 0x9002: case 0x8011: case 0x3020: check_ids(v, b, klass); break;
    case 0x9003: case 0x3021: check_string_block(v, b, klass); break;
    case 0x8012: case 0x1051: case 0x1073: case 0xA021: {
        const uint8_t *s;
        uint16_t len;
        whole_string(v, b, &s, &len);
        break;
    }
    case 0x9101: case 0x9102: case 0x9103: check_blob(v, b); break;
    case 0x8021: case 0x8022: case 0x8023: case 0x8024: case 0x1074: check_floats(v, b, 1); break;
    case 0x8030: case 0x8031: case 0x8032: case 0x8034: case 0x3030: check_floats(v, b, 3); break;
    case 0x1052: check_floats(v, b, 16); break;
    case 0x1021: check_bbox(v, b); break;
    case 0x1022: check_dup_vertices(v, b); break;
    case 0x2800: check_interleaved(v, b); break;
    case 0x1030: case 0x1031: check_faces(v, b); break;
    case 0x1040: check_faces_materials(v, b); break;
    case 0x1053: check_skin_bones(v, b); break;
    case 0x1054:
        if (b->p[0] < E3D_BONE_SETS) {
            v->skin.set = b->p[0];
        } else {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_SKIN_WEIGHT_SET_RANGE, b, b->ppos);
            mc_msg(in, "bone weight set %u (expected 0..7)", b->p[0]);
        }
        break;
    case 0x1060: check_parts(v, b); break;
    case 0x3031: check_orientation(v, b); break;
    case 0x3032: check_doubles(v, b, 3); break;
    case 0x3040: check_skeleton(v, b); break;
    case 0xA022: check_frames(v, b); break;
    default:
        if (b->type >= 0xA110 && b->type <= 0xA300) check_keys(v, b);
        break;
    }
}

/* ---- containers ---- */

bool e3d_enter(e3d *v, const e3d_blk *b, size_t *skip)
{
    *skip = 0;
    switch (b->t->klass) {
    case C_MESH: {
        e3d_range *fm = v->mesh.fm;
        size_t cap = v->mesh.fm_cap;
        memset(&v->mesh, 0, sizeof v->mesh);
        v->mesh.fm = fm;
        v->mesh.fm_cap = cap;
        v->c->info->meshes++;
        break;
    }
    case C_ATTRS: {
        v->mesh.attrs_seen = true;
        if (b->n < 4) {
            payload_size(v, b, 4);
            return false;
        }
        uint32_t count = mc_le32(b->p);
        *skip = 4;
        if (count > E3D_MAX_VERTICES) {
            mc_instance *in = e3d_emit_blk(v, MC_E3D_VERTEX_COUNT_LIMIT, b, b->ppos);
            mc_msg(in, "%" PRIu32 " vertices (at most %u per mesh)", count, E3D_MAX_VERTICES);
        }
        v->mesh.have_count = true;
        v->mesh.vertex_count = count;
        v->c->info->vertices += count;
        break;
    }
    case C_SKIN:
        if (!mesh_order(v, b, v->mesh.attrs_seen, "attributes")) return false;
        memset(&v->skin, 0, sizeof v->skin);
        break;
    case C_MORPHS: {
        mc_instance *in = e3d_emit_blk(v, MC_E3D_MORPH_BLOCK, b, b->pos);
        mc_msg(in, "morphs (0x1070) come from the reference code; the spec does not define them");
        if (b->n < 4) {
            payload_size(v, b, 4);
            return false;
        }
        *skip = 4;
        break;
    }
    case C_MORPH: v->c->info->blend_shapes++; break;
    case C_MAP: v->map_has_texture = false; break;
    case C_TEXTURE: v->c->info->textures++; break;
    case C_MATERIAL: v->c->info->materials++; break;
    case C_NODE: v->c->info->nodes++; break;
    case C_ANIM:
        memset(&v->anim, 0, sizeof v->anim);
        v->c->info->animations++;
        break;
    case C_TRACK: return enter_track(v, b, skip);
    default: break;
    }
    return true;
}

static void leave_mesh(e3d *v, size_t fi)
{
    e3d_mesh *m = &v->mesh;
    if (m->have_pending_index && m->pending_index >= m->vertex_count) {
        mc_instance *in = e3d_emit_loc(v, MC_E3D_INDEX_RANGE, &m->pending_loc);
        mc_msg(in, "index %" PRIu64 " (expected < vertex count %" PRIu32 ", given after the faces)",
               m->pending_index, m->vertex_count);
    }
    check_bbox_contains(v);
    for (unsigned s = 0; s < E3D_BONE_SETS; s++) {
        if (!m->set_used[s]) continue;
        uint32_t bones = m->skin_for_set[s] ? m->skin_bones[s] : 0;
        if (m->set_max[s] <= bones) continue;
        mc_instance *in = e3d_emit_loc(v, MC_E3D_BONE_ID_RANGE, &m->set_loc[s]);
        e3d_append(in, "/%" PRIu32, m->set_vertex[s]);
        mc_msg(in, "vertex %" PRIu32 ": bone ID %u in weight set %u (expected <= %" PRIu32 ", the bone count of %s)",
               m->set_vertex[s], m->set_max[s], s, bones,
               m->skin_for_set[s] ? "the skin using it" : "no skin: none uses this set");
    }
    check_overlaps(v, fi);
    if (m->zero.count) {
        char where[32]; /* meshes are counted as they open: this is the last */
        snprintf(where, sizeof where, "mesh %" PRIu64, v->c->info->meshes - 1);
        mc_instance *in = e3d_emit_loc(v, MC_E3D_NORMAL_ZERO, &m->zero_loc);
        e3d_append(in, "/%" PRIu64, m->zero.first_vertex);
        mc_zero_normals_msg(in, &m->zero, where, m->vertex_count);
    }
    if (m->uv_sets > v->c->info->uv_layers) v->c->info->uv_layers = m->uv_sets;
    if (v->c->sink) {
        mc_s_u64(v->c, "vertices", m->vertex_count);
        mc_s_u64(v->c, "faces", m->faces);
        mc_s_u64(v->c, "uv_sets", m->uv_sets);
        if (m->have_faces) mc_s_u64(v->c, "degenerate_triangles", m->degenerate);
        if (m->have_ext) {
            mc_sink_vec(v->c->sink, "bbox_min", m->min, 3);
            mc_sink_vec(v->c->sink, "bbox_max", m->max, 3);
        }
        if (m->weight_sets == 1) mc_sink_influences(v->c->sink, m->influences, m->influence_width);
    }
}

void e3d_leave(e3d *v, size_t fi)
{
    const e3d_frame *f = &v->st[fi];
    switch (f->klass) {
    case C_MESH: leave_mesh(v, fi); break;
    case C_SKIN: {
        e3d_mesh *m = &v->mesh;
        unsigned s = v->skin.set;
        if (!m->skin_for_set[s] || v->skin.bones > m->skin_bones[s]) m->skin_bones[s] = v->skin.bones;
        m->skin_for_set[s] = true;
        break;
    }
    case C_MAP:
        if (!v->map_has_texture) {
            mc_instance *in = e3d_emit_frame(v, MC_E3D_MAP_NO_TEXTURE, fi, f->hdr);
            mc_msg(in, "%s holds neither a textureID nor a textureName", f->name);
        }
        break;
    case C_TRACK:
        if (!v->track.target) {
            mc_instance *in = e3d_emit_frame(v, MC_E3D_TRACK_NO_TARGET, fi, f->hdr);
            mc_msg(in, "animationTrack names no node (no nodeID or nodeName block)");
        }
        break;
    case C_ANIM:
        if (v->c->sink) { /* inspect: its frame range, tracks and keys */
            if (v->anim.have_frames) {
                mc_s_u64(v->c, "start_frame", v->anim.start);
                mc_s_u64(v->c, "end_frame", v->anim.end);
                if (v->anim.end >= v->anim.start)
                    mc_s_u64(v->c, "duration_frames", (uint64_t)v->anim.end - v->anim.start);
            }
            mc_s_u64(v->c, "tracks", v->anim.tracks);
            mc_s_u64(v->c, "keyframes", v->anim.keys);
        }
        break;
    default: break;
    }
}

/* skinBones name nodes that follow the meshes: resolved at the end. */
void e3d_finish(e3d *v)
{
    for (size_t i = 0; i < v->bonerefs_count; i++) {
        const e3d_boneref *r = &v->bonerefs[i];
        if (e3d_set_has(&v->ids, r->key)) continue;
        mc_instance *in = mc_emit(v->c, MC_E3D_NODE_REF_UNRESOLVED, r->offset);
        if (!in) continue;
        if (r->has_payload) mc_payload_offset(in, r->payload);
        memcpy(in->path, v->paths[r->path], sizeof in->path);
        e3d_append(in, "/%" PRIu32, r->bone);
        mc_msg(in, "skin bone %" PRIu32 " names a node that the file does not define", r->bone);
    }
}
