/*
 * E3D conformance cases: most start from the spec's cube (e3db_cube) and
 * change one thing, so each file breaks exactly the rule it is named after;
 * the rest are small trees written block by block. The expectation is
 * written here by hand, from the spec (e3d.adoc) and docs/formats/e3d.md,
 * never computed by running the validator. Files that do not start with a
 * valid version block header are not detected as E3D by content: the
 * version-block cases are validated with --format e3d.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "corpus_cases.h"
#include "e3d_builder.h"

/* The places an E3D row's first offset is counted from (mcg_at): blocks of
 * the builder's cube (e3db_cube_map), a cube vertex, or the file's end.
 * Rows written block by block use MCG_ABS. */
enum mcg_e3d_place {
    E3D_AT_BBOX,
    E3D_AT_INTERLEAVED,
    E3D_AT_FACES,
    E3D_AT_FACES_MATERIALS,
    E3D_AT_SKIN_BONES,
    E3D_AT_TEXTURE,
    E3D_AT_MAP,
    E3D_AT_NODES,
    E3D_AT_NODE_MESH_ID,
    E3D_AT_FRAMES,
    E3D_AT_TRACK,
    E3D_AT_ROTATION,
    E3D_AT_VERTEX,  /* cube vertex index */
    E3D_AT_WEIGHTS  /* the bone weights of cube vertex index */
};

typedef struct e3d_case {
    mcg_case meta;
    void (*write)(e3db *w);
    mcg_at first; /* where meta.rule first fires */
} e3d_case;

/* The last cube's block offsets: the rows' edits and first offsets use it. */
static e3db_cube_map m;

static void put8(e3db *w, size_t off, uint8_t v)
{
    if (off < w->b.size) w->b.data[off] = v;
}

static void put16(e3db *w, size_t off, uint16_t v)
{
    put8(w, off, (uint8_t)v);
    put8(w, off + 1, (uint8_t)(v >> 8));
}

static void put32(e3db *w, size_t off, uint32_t v)
{
    if (off + 4 <= w->b.size) mcb_put_u32(&w->b, off, v);
}

static size_t vtx(size_t i, size_t field)
{
    return e3db_vertex_offset(&m, i, field);
}

static void wrap_top(e3db *w)
{
    e3db_lzma_wrap(w, 12, &e3db_lzma_reference);
}

/* ---- valid ---- */

static void cube1(e3db *w) { e3db_cube(w, 0, &m); }
static void cube2(e3db *w) { e3db_cube(w, E3DB_NORMALS, &m); }
static void cube3(e3db *w) { e3db_cube(w, E3DB_NORMALS | E3DB_LZMA_TOP, &m); }
static void nested(e3db *w) { e3db_cube(w, E3DB_NORMALS | E3DB_LZMA_MESH | E3DB_LZMA_TOP, &m); }
static void skinned(e3db *w) { e3db_cube(w, E3DB_NORMALS | E3DB_SKIN | E3DB_LZMA_TOP, &m); }
static void textured(e3db *w) { e3db_cube(w, E3DB_UVS | E3DB_BBOX | E3DB_MATERIAL | E3DB_TEXTURE, &m); }
static void animated(e3db *w) { e3db_cube(w, E3DB_NORMALS | E3DB_ANIMATION, &m); }

static void official_habits(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS | E3DB_REPEAT_FACES_MATERIALS | E3DB_EMPTY_TEXTURES, &m);
    put32(w, vtx(4, 12), 0);
    wrap_top(w);
}

static void track_code_layout(e3db *w) { e3db_cube(w, E3DB_ANIMATION | E3DB_TRACK_CODE_LAYOUT, &m); }

static void end_marker(e3db *w)
{
    e3db_lzma p = e3db_lzma_reference;
    p.end_mark = true;
    e3db_cube(w, 0, &m);
    e3db_lzma_wrap(w, 12, &p);
}

/* Other valid parameter sets than the reference writer's (issue 7): the
 * decoder must not assume lc=4, lp=4, pb=4. */
static void lzma_params(e3db *w, unsigned lc, unsigned lp, unsigned pb, uint32_t dict)
{
    e3db_lzma p = {lc, lp, pb, dict, false};
    e3db_cube(w, 0, &m);
    e3db_lzma_wrap(w, 12, &p);
}

static void lzma_302(e3db *w) { lzma_params(w, 3, 0, 2, 1u << 16); }
static void lzma_000(e3db *w) { lzma_params(w, 0, 0, 0, 1u << 12); }
static void lzma_844(e3db *w) { lzma_params(w, 8, 4, 4, 1u << 20); }

static void unknown_block(e3db *w)
{
    e3db_cube(w, 0, &m);
    e3db_u32(w, 0x7777, 0);
}

static void morphs(e3db *w)
{
    e3db_tri_begin(w);
    e3db_begin(w, 0x1070);
    mcb_u32(&w->b, 1);
    e3db_begin(w, 0x1071);
    e3db_u32(w, 0x1072, 1);
    e3db_close(w);
}

/* The fuzzed disagreement of issue 19: one morph, two morphID blocks. */
static void morph_id_twice(e3db *w)
{
    e3db_tri_begin(w);
    e3db_begin(w, 0x1070);
    mcb_u32(&w->b, 1);
    e3db_begin(w, 0x1071);
    e3db_u32(w, 0x1072, 1);
    e3db_u32(w, 0x1072, 1);
    e3db_close(w);
}

static void morphs_twice(e3db *w)
{
    e3db_tri_begin(w);
    for (int k = 0; k < 2; k++) {
        e3db_begin(w, 0x1070);
        mcb_u32(&w->b, 1);
        e3db_begin(w, 0x1071);
        e3db_u32(w, 0x1072, (uint32_t)k + 1);
        e3db_end(w);
        e3db_end(w);
    }
    e3db_close(w);
}

/* docs/formats/e3d.md: ftkMorph holds one morph index (and a float per key), so a
 * track animating two morphs holds two. */
static void track_two_ftk_morphs(e3db *w)
{
    e3db_track_begin(w, 0);
    e3db_u32(w, 0x3020, 1);
    e3db_u32(w, 0xA300, 0);
    e3db_u32(w, 0xA300, 1);
    e3db_close(w);
}

static void camera_node(e3db *w)
{
    e3db_cube(w, 0, &m);
    e3db_begin(w, 0x3000);
    e3db_begin(w, 0x3011);
    e3db_close(w);
}

static void degenerate(e3db *w)
{
    e3db_cube(w, 0, &m);
    put16(w, m.faces + 18, 17);
}

static void texture_path(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x9000);
    e3db_begin(w, 0x9001);
    e3db_string(w, 0x9003, "../../etc/passwd");
    e3db_close(w);
}

static void dupverts_code(e3db *w)
{
    static const int32_t dup[3] = {0, 1, 2};
    e3db_tri_begin(w);
    e3db_leaf(w, 0x1022, dup, sizeof dup);
    e3db_close(w);
}

static void parts_code(e3db *w)
{
    e3db_tri_begin(w);
    e3db_begin(w, 0x1060);
    mcb_u32(&w->b, 7), mcb_u32(&w->b, 0), mcb_u32(&w->b, 0), mcb_u32(&w->b, 1);
    e3db_close(w);
}

static void version_1_1(e3db *w)
{
    e3db_cube(w, 0, &m);
    put16(w, 10, 0x0101);
}

/* ---- invalid: framing ---- */

static void second_version(e3db *w)
{
    e3db_cube(w, 0, &m);
    e3db_version(w);
}

static void length_zero(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.faces + 2, 0);
}

static void overrun(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.faces_materials + 2, 19);
}

static void gap(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_u32(w, 0x1020, 1);
    mcb_zeros(&w->b, 3);
    e3db_close(w);
}

static void truncated(e3db *w)
{
    e3db_cube(w, 0, &m);
    w->b.size -= 7;
}

static void trailing(e3db *w)
{
    e3db_cube(w, 0, &m);
    mcb_zeros(&w->b, 3);
}

static void misplaced(e3db *w)
{
    e3db_cube(w, 0, &m);
    e3db_u32(w, 0x1020, 1);
}

static void duplicate_block(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_u32(w, 0x1020, 1);
    e3db_u32(w, 0x1020, 2);
    e3db_close(w);
}

static void deep(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x3000);
    for (int i = 0; i < 1000; i++) e3db_begin(w, 0x3010);
    e3db_close(w);
}

static void section_order(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_end(w);
    e3db_begin(w, 0x9000);
    e3db_end(w);
}

static void mesh_order(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_begin(w, 0x1040);
    mcb_zeros(&w->b, 12);
    e3db_close(w);
}

/* ---- invalid: LZMA ---- */

static void lzma_short_block(e3db *w)
{
    static const uint8_t p[8] = {0};
    e3db_version(w);
    e3db_leaf(w, 0x0010, p, sizeof p);
}

static void lzma_props(e3db *w)
{
    e3db_cube(w, 0, &m);
    wrap_top(w);
    put8(w, 22, 225);
}

static void lzma_size_short(e3db *w)
{
    e3db_cube(w, 0, &m);
    wrap_top(w);
    put32(w, 18, 456 + 50);
}

static void lzma_size_long(e3db *w)
{
    e3db_cube(w, 0, &m);
    wrap_top(w);
    put32(w, 18, 456 - 50);
}

static void lzma_corrupt(e3db *w)
{
    e3db_cube(w, 0, &m);
    wrap_top(w);
    put8(w, 27, 1);
}

static void lzma_truncated(e3db *w)
{
    e3db_cube(w, 0, &m);
    wrap_top(w);
    w->b.size -= 10;
    put32(w, 14, (uint32_t)(w->b.size - 12));
}

static void lzma_100_deep(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_end(w);
    for (int i = 0; i < 100; i++) wrap_top(w);
}

static void lzma_4_gib(e3db *w)
{
    static const uint8_t props[5] = {0x5D, 0, 0, 1, 0};
    e3db_version(w);
    e3db_raw_header(w, 0x0010, 188);
    mcb_u32(&w->b, UINT32_MAX);
    mcb_bytes(&w->b, props, 5);
    for (int i = 0; i < 173; i++) mcb_u8(&w->b, (uint8_t)(i * 37));
}

static void nan_in_lzma(e3db *w)
{
    e3db_cube(w, 0, &m);
    mcb_put_f32(&w->b, vtx(5, 0), NAN);
    wrap_top(w);
}

/* ---- invalid: layouts and attributes ---- */

static void payload_size(e3db *w)
{
    static const uint8_t id[5] = {1, 0, 0, 0, 0};
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_leaf(w, 0x1020, id, sizeof id);
    e3db_close(w);
}

static void count_size(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.faces + 6, 13);
}

static void string_size(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x8000);
    e3db_begin(w, 0x8010);
    e3db_begin(w, 0x8012);
    mcb_u16(&w->b, 9);
    mcb_bytes(&w->b, "paint", 5);
    e3db_close(w);
}

static void vertex_limit(e3db *w)
{
    e3db_attrs_begin(w, 65537);
    e3db_close(w);
}

static void unterminated(e3db *w)
{
    e3db_attrs_begin(w, 0);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010);
    mcb_u16(&w->b, 0);
    e3db_close(w);
}

static void itype(e3db *w)
{
    e3db_cube(w, 0, &m);
    put16(w, m.interleaved + 6, 0x1020);
}

static void irange(e3db *w)
{
    e3db_cube(w, 0, &m);
    put16(w, m.interleaved + 8, 4);
}

static void ioverlap(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS, &m);
    put16(w, m.interleaved + 12, 8);
}

static void isize(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.attributes + 6, 25);
}

static void attr_twice(e3db *w)
{
    static const float v[3] = {0, 0, 0};
    e3db_attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0), mcb_u16(&w->b, 12);
    mcb_f32s(&w->b, v, 3);
    e3db_end(w);
    e3db_floats(w, 0x2010, v, 3);
    e3db_close(w);
}

/* Several zero normals in one mesh: one warning; (0, 0, 1/511) is no unit. */
static void normals_zero_many(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS, &m);
    for (size_t i = 0; i < 24; i += 3) put32(w, vtx(i, 12), 0);
}

static void normal_nearly_zero(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS, &m);
    put32(w, vtx(5, 12), 1u << 20);
}

static void normal_short(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS, &m);
    put32(w, vtx(3, 12), 256);
}

static void weights_odd(e3db *w)
{
    e3db_attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0x2090), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 15);
    mcb_zeros(&w->b, 15);
    e3db_close(w);
}

/* boneWeights and normals at one offset: the boneWeights width, implied by
 * the next offset, is 0 (found by AFL++ on diff_e3d: the reference loader
 * once accepted it) */
static void weights_zero_width(e3db *w)
{
    e3db_attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0x2090), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0x2020), mcb_u16(&w->b, 12), mcb_u16(&w->b, 0), mcb_u16(&w->b, 16);
    static const float p[3] = {0.25f, 0.5f, 0.75f};
    mcb_f32s(&w->b, p, 3);
    mcb_u32(&w->b, e3db_pack_normal((const float[3]){0.0f, 0.0f, 1.0f}));
    e3db_close(w);
}

/* a custom attribute at offset 12 of a 12-byte vertex: implied size 0 (found
 * by AFL++ on diff_e3d: the reference loader once accepted it) */
static void custom_zero_size(e3db *w)
{
    e3db_attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0x4000), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 12);
    static const float p[3] = {0.25f, 0.5f, 0.75f};
    mcb_f32s(&w->b, p, 3);
    e3db_close(w);
}

static void eleven_bones(e3db *w)
{
    e3db_attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0x2090), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 34);
    mcb_zeros(&w->b, 34);
    e3db_close(w);
}

static void bone_id(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    put8(w, vtx(7, m.weights_at), 3);
}

static void weight_sum(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    put8(w, vtx(2, m.weights_at + 2), 200);
}

static void weight_no_bone(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    put8(w, vtx(0, m.weights_at + 1), 0);
    put8(w, vtx(0, m.weights_at + 2), 200);
    put8(w, vtx(0, m.weights_at + 3), 55);
}

/* Vertex 2 with both slots empty (bone ID 0, weight 0): an unskinned vertex,
 * not a weight sum of 0 (found by the differential fuzzer: the reference
 * loader once rejected it). */
static void unweighted_vertex(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    for (unsigned k = 0; k < 4; k++) put8(w, vtx(2, m.weights_at + k), 0);
}

/* The boundary on the other side: a bone named, no weight on it. */
static void bone_without_weight(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    put8(w, vtx(2, m.weights_at + 1), 0);
    put8(w, vtx(2, m.weights_at + 2), 0);
    put8(w, vtx(2, m.weights_at + 3), 0);
}

/* ---- invalid: faces, box, references ---- */

static void index_range(e3db *w)
{
    e3db_cube(w, 0, &m);
    put16(w, m.faces + 10, 24);
}

static void fm_range(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.faces_materials + 10, 13);
}

static void bbox_inverted(e3db *w)
{
    e3db_cube(w, E3DB_BBOX, &m);
    mcb_put_f32(&w->b, m.bbox + 10, 1.0f);
}

static void bbox_small(e3db *w)
{
    e3db_cube(w, E3DB_BBOX, &m);
    mcb_put_f32(&w->b, m.bbox + 18, 0.25f);
}

static void duplicate_id(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x9000);
    for (int i = 0; i < 2; i++) {
        e3db_begin(w, 0x9001);
        e3db_u32(w, 0x9002, 1);
        e3db_end(w);
    }
    e3db_close(w);
}

static void mesh_ref(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.node_mesh_id + 6, 2);
}

static void material_ref(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.faces_materials + 14, 5);
}

static void texture_ref(e3db *w)
{
    e3db_cube(w, E3DB_MATERIAL | E3DB_TEXTURE, &m);
    put32(w, m.map + 12, 9);
}

static void node_ref(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    put8(w, m.skin_bones + 6 + 1 + 2 + 4 + 64 + 3, 'a');
}

static void map_empty(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x8000);
    e3db_begin(w, 0x8010);
    e3db_begin(w, 0x8200);
    e3db_close(w);
}

static void parts_ambiguous(e3db *w)
{
    e3db_tri_begin(w);
    e3db_begin(w, 0x1060);
    mcb_zeros(&w->b, 48);
    e3db_close(w);
}

static void dupverts_range(e3db *w)
{
    e3db_tri_begin(w);
    e3db_begin(w, 0x1022);
    mcb_u32(&w->b, 3), mcb_u16(&w->b, 0), mcb_u16(&w->b, 1), mcb_u16(&w->b, 7);
    e3db_close(w);
}

static void parts_range(e3db *w)
{
    e3db_tri_begin(w);
    e3db_begin(w, 0x1060);
    mcb_u32(&w->b, 1), mcb_u32(&w->b, 0), mcb_u32(&w->b, 2);
    e3db_close(w);
}

static void weight_set(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    put8(w, m.skin_bones + 146 + 6, 9);
}

static void png_signature(e3db *w)
{
    e3db_cube(w, E3DB_TEXTURE, &m);
    put8(w, m.texture + 6 + 10 + 16 + 6, 0);
}

static void long_name(e3db *w)
{
    static char name[5001];
    memset(name, 'a', 5000);
    e3db_version(w);
    e3db_begin(w, 0x9000);
    e3db_begin(w, 0x9001);
    e3db_string(w, 0x9003, name);
    e3db_close(w);
}

static void orientation(e3db *w)
{
    static const double q[4] = {2, 0, 0, 0};
    e3db_version(w);
    e3db_begin(w, 0x3000);
    e3db_begin(w, 0x3010);
    e3db_doubles(w, 0x3031, q, 4);
    e3db_close(w);
}

static void frames_order(e3db *w)
{
    e3db_cube(w, E3DB_ANIMATION, &m);
    put32(w, m.frames + 6 + 8, 11);
}

static void key_order(e3db *w)
{
    e3db_cube(w, E3DB_ANIMATION, &m);
    put32(w, m.track + 6 + 8, 0);
}

static void key_rotation(e3db *w)
{
    e3db_cube(w, E3DB_ANIMATION, &m);
    mcb_put_f32(&w->b, m.rotation + 6 + 16, 0.5f);
}

static void loop_flag(e3db *w)
{
    e3db_cube(w, E3DB_ANIMATION, &m);
    put8(w, m.track + 6 + 12, 2);
}

static void no_target(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0xA000);
    e3db_begin(w, 0xA010);
    e3db_begin(w, 0xA100);
    mcb_u32(&w->b, 0);
    mcb_u8(&w->b, 0);
    e3db_close(w);
}

static void rotation_order(e3db *w)
{
    uint8_t order = 7;
    e3db_track_begin(w, 0);
    e3db_leaf(w, 0xA120, &order, 1);
    e3db_u32(w, 0x3020, 1);
    e3db_close(w);
}


/* ---- valid: official-sample habits one at a time ---- */

static void normal_zero(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS, &m);
    put32(w, vtx(4, 12), 0);
}

static void fm_overlap(e3db *w) { e3db_cube(w, E3DB_REPEAT_FACES_MATERIALS, &m); }

/* ---- invalid: the version block (not detected by content) ---- */

/* the spec's cube without its first 12 bytes */
static void no_version(e3db *w)
{
    e3db_cube(w, 0, &m);
    memmove(w->b.data, w->b.data + 12, w->b.size - 12);
    w->b.size -= 12;
}

static void lzma_first(e3db *w)
{
    e3db_cube(w, 0, &m);
    e3db_lzma_wrap(w, 0, &e3db_lzma_reference);
}

/* a 14-byte version block (2 extra zero bytes) before the cube's blocks */
static void version_14(e3db *w)
{
    static const uint8_t v[8] = {'E', '3', 'D', 'F', 0x00, 0x01, 0, 0};
    e3db tail;
    memset(&tail, 0, sizeof tail);
    e3db_cube(&tail, 0, &m);
    e3db_leaf(w, 0x0001, v, sizeof v);
    if (tail.b.oom) w->b.oom = true;
    else mcb_bytes(&w->b, tail.b.data + 12, tail.b.size - 12);
    e3db_free(&tail);
}

static void magic_e3dx(e3db *w)
{
    e3db_cube(w, 0, &m);
    put8(w, 9, 'X');
}

/* ---- edge cases (issue 7): zero counts, one of everything, limits ---- */

static void version_only(e3db *w) { e3db_version(w); }

static void empty_sections(e3db *w)
{
    static const uint16_t sections[5] = {0x9000, 0x8000, 0x1000, 0x3000, 0xA000};
    e3db_version(w);
    for (int i = 0; i < 5; i++) {
        e3db_begin(w, sections[i]);
        e3db_end(w);
    }
}

/* version, meshes{mesh{meshID 1, attributes{n, vertices}, triFaces16{0}}} */
static void mesh_without_triangles(e3db *w, uint32_t n)
{
    static const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    e3db_attrs_begin(w, n);
    e3db_floats(w, 0x2010, v, 3 * n);
    e3db_end(w);
    e3db_u32(w, 0x1030, 0);
    e3db_close(w);
}

static void zero_vertices_zero_triangles(e3db *w) { mesh_without_triangles(w, 0); }
static void zero_triangles(e3db *w) { mesh_without_triangles(w, 3); }

static void faces_materials_zero_count(e3db *w)
{
    e3db_cube(w, 0, &m);
    put32(w, m.faces_materials + 10, 0);
}

static void track_zero_keys(e3db *w)
{
    e3db_track_begin(w, 0);
    e3db_u32(w, 0x3020, 1);
    e3db_close(w);
}

/* Closes the open mesh with a skin of one bone "one" (identity inverse
 * bind), then a node "one" (ID 1) using mesh 1: the tail of the one-bone
 * skinned cases. */
static void one_bone_skin_and_node(e3db *w)
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    e3db_begin(w, 0x1050);
    e3db_begin(w, 0x1053);
    mcb_u8(&w->b, 1);
    mcb_u16(&w->b, 3);
    mcb_bytes(&w->b, "one", 3);
    mcb_f32s(&w->b, identity, 16);
    e3db_close(w);
    e3db_begin(w, 0x3000);
    e3db_begin(w, 0x3010);
    e3db_u32(w, 0x3020, 1);
    e3db_string(w, 0x3021, "one");
    e3db_u32(w, 0x1020, 1);
    e3db_close(w);
}

/* One texture, material, mesh (3 vertices with a normal, a UV and one bone
 * weight each; 1 triangle; 1 facesMaterials; a skin of 1 bone), node,
 * animation, track and key. */
static void one_of_everything(e3db *w)
{
    static const uint8_t png[16] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A,
                                    0, 0, 0, 0x0D, 'I', 'H', 'D', 'R'};
    static const float tri[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    static const float up[3] = {0, 0, 1}, box[6] = {0, 0, 0, 1, 1, 0};
    static const float pos[3] = {0, 0, 0};
    static const uint32_t frames[3] = {0, 0, 0};
    e3db_version(w);
    e3db_begin(w, 0x9000);
    e3db_begin(w, 0x9001);
    e3db_u32(w, 0x9002, 1);
    e3db_leaf(w, 0x9101, png, sizeof png);
    e3db_close(w);
    e3db_begin(w, 0x8000);
    e3db_begin(w, 0x8010);
    e3db_u32(w, 0x8011, 1);
    e3db_string(w, 0x8012, "one");
    e3db_begin(w, 0x8200);
    e3db_u32(w, 0x9002, 1);
    e3db_close(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_u32(w, 0x1020, 1);
    e3db_floats(w, 0x1021, box, 6);
    e3db_begin(w, 0x2000);
    mcb_u32(&w->b, 3);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0);
    mcb_u16(&w->b, 0x2020), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0x2030), mcb_u16(&w->b, 16);
    mcb_u16(&w->b, 0x2090), mcb_u16(&w->b, 24);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 26);
    for (int i = 0; i < 3; i++) {
        mcb_f32s(&w->b, tri[i], 3);
        mcb_u32(&w->b, e3db_pack_normal(up));
        mcb_f32s(&w->b, tri[i], 2);
        mcb_u8(&w->b, 1);   /* bone 1 */
        mcb_u8(&w->b, 255); /* weight 1 */
    }
    e3db_end(w);
    e3db_end(w);
    e3db_begin(w, 0x1030);
    mcb_u32(&w->b, 1);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 1), mcb_u16(&w->b, 2);
    e3db_end(w);
    e3db_begin(w, 0x1040);
    mcb_u32(&w->b, 0), mcb_u32(&w->b, 1), mcb_u32(&w->b, 1);
    e3db_end(w);
    one_bone_skin_and_node(w);
    e3db_begin(w, 0xA000);
    e3db_begin(w, 0xA010);
    e3db_string(w, 0xA021, "one");
    e3db_leaf(w, 0xA022, frames, sizeof frames);
    e3db_begin(w, 0xA100);
    mcb_u32(&w->b, 1);
    mcb_u32(&w->b, 0);
    mcb_u8(&w->b, 0);
    e3db_floats(w, 0xA210, pos, 3);
    e3db_u32(w, 0x3020, 1);
    e3db_close(w);
}

/* 65536 vertices, the attributes limit, and a triFaces16 triangle naming
 * vertex 65535, the last a 16-bit index reaches; all in one LZMA block
 * (the 786 KB of mostly zero positions compress to a few hundred bytes). */
static void vertices_65536(e3db *w)
{
    static const float one[3] = {1, 0, 0}, up[3] = {0, 1, 0};
    e3db_attrs_begin(w, 65536);
    e3db_begin(w, 0x2010);
    mcb_zeros(&w->b, 12);
    mcb_f32s(&w->b, one, 3);
    mcb_zeros(&w->b, 12 * 65533);
    mcb_f32s(&w->b, up, 3);
    e3db_end(w);
    e3db_end(w);
    e3db_begin(w, 0x1030);
    mcb_u32(&w->b, 1);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 1), mcb_u16(&w->b, 65535);
    e3db_close(w);
    wrap_top(w);
}

static void texture_name_of(e3db *w, size_t n)
{
    static char name[4098];
    memset(name, 't', n);
    name[n] = '\0';
    e3db_version(w);
    e3db_begin(w, 0x9000);
    e3db_begin(w, 0x9001);
    e3db_string(w, 0x9003, name);
    e3db_close(w);
}

static void texture_name_4096(e3db *w) { texture_name_of(w, 4096); }
static void texture_name_4097(e3db *w) { texture_name_of(w, 4097); }

/* the longest string a u16 length can give */
static void material_name_65535(e3db *w)
{
    static char name[65536];
    memset(name, 'm', 65535);
    e3db_version(w);
    e3db_begin(w, 0x8000);
    e3db_begin(w, 0x8010);
    e3db_u32(w, 0x8011, 1);
    e3db_string(w, 0x8012, name);
    e3db_close(w);
}

/* cube2 with the spec's packing: -1 is -511, not the reference's -512 */
static void normals_spec_511(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS, &m);
    for (size_t i = 0; i < 24; i++) {
        uint32_t packed = 0;
        for (int k = 0; k < 3; k++) {
            long q = lroundf(e3db_cube_normals[i][k] * 511.0f);
            packed |= ((uint32_t)q & 0x3FFu) << (10 * k);
        }
        put32(w, vtx(i, m.normal_at), packed);
    }
}

/* boneWeights of 20 bytes: 10 slots, the most the reference reader's array
 * holds (docs/formats/e3d.md); slot 0 is bone 1 at weight 255 */
static void ten_bone_slots(e3db *w)
{
    e3db_attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0x2090), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 32);
    mcb_zeros(&w->b, 12);
    mcb_u8(&w->b, 1);
    mcb_zeros(&w->b, 9);
    mcb_u8(&w->b, 255);
    mcb_zeros(&w->b, 9);
    e3db_end(w);
    e3db_end(w);
    one_bone_skin_and_node(w);
}

/* the skinned cube's weights as boneWeights8 (0x2097) and skinBoneWeights 7,
 * the last set the spec allows */
static void weight_set_7(e3db *w)
{
    e3db_cube(w, E3DB_SKIN, &m);
    put16(w, m.interleaved + 10, 0x2097);
    put8(w, m.skin_bones + 146 + 6, 7);
}

#define AT(place, index, add) MCG_AT(place, index, add)
#define NOWHERE MCG_NOWHERE_AT
#define CASE(dir, file, rule, desc, expect) {"e3d/" dir "/" file, "e3d", "e3d1", rule, desc, expect, NULL}
#define FORCED(file, rule, desc, expect) {"e3d/invalid/" file, "e3d", "e3d1", rule, desc, expect, "--format e3d"}

static const e3d_case e3d_cases[] = {
    /* valid: no errors; warnings and infos only where named */
    {CASE("valid", "cube1_spec.e3d", NULL, "the spec's cube1: 24 vertices, 12 triangles, one mesh node", ""), cube1, NOWHERE},
    {CASE("valid", "cube2_spec_normals.e3d", NULL, "cube2: normals packed as the reference does (-1 as -512)", ""), cube2, NOWHERE},
    {CASE("valid", "cube3_spec_lzma_444.e3d", NULL, "cube3: everything after the version block in one LZMA block, lc=lp=pb=4", ""), cube3, NOWHERE},
    {CASE("valid", "lzma_302_64k_dict.e3d", NULL, "the cube in one LZMA block with lc=3, lp=0, pb=2 (the .lzma default), 64 KiB dictionary", ""), lzma_302, NOWHERE},
    {CASE("valid", "lzma_000_4k_dict.e3d", NULL, "the cube in one LZMA block with lc=0, lp=0, pb=0, 4 KiB dictionary", ""), lzma_000, NOWHERE},
    {CASE("valid", "lzma_844_1m_dict.e3d", NULL, "the cube in one LZMA block with the largest properties, lc=8, lp=4, pb=4", ""), lzma_844, NOWHERE},
    {CASE("valid", "lzma_nested_two_deep.e3d", NULL, "the mesh's children in an LZMA block inside the top LZMA block", ""), nested, NOWHERE},
    {CASE("valid", "skinned_lzma.e3d", NULL, "boneWeights, a skin of 2 bones naming 2 nodes, compressed", ""), skinned, NOWHERE},
    {CASE("valid", "textured_png.e3d", NULL, "texCoords, meshBBox, a material whose diffuse map uses an embedded PNG texture", ""), textured, NOWHERE},
    {CASE("valid", "animated.e3d", NULL, "one animation, one track of 2 keys (position, rotation) on node 1", ""), animated, NOWHERE},
    {CASE("valid", "official_sample_habits.e3d", NULL, "the official samples' habits: repeated facesMaterials, a zero normal, an empty textures block, compressed",
          "E3D_NORMAL_ZERO E3D_FACES_MATERIALS_OVERLAP"), official_habits, NOWHERE},
    {CASE("valid", "track_loop_flag_first_reference_layout.e3d", "E3D_TRACK_REFERENCE_LAYOUT", "the track's loop flag before its frames, as the reference code writes it",
          "E3D_TRACK_REFERENCE_LAYOUT"), track_code_layout, AT(E3D_AT_TRACK, 0, 10)},
    {CASE("valid", "duplicate_vertices_reference_layout.e3d", "E3D_DUPVERTS_REFERENCE_LAYOUT", "meshDuplicateVertices as 3 int32 indices with no count (reference code)",
          "E3D_DUPVERTS_REFERENCE_LAYOUT"), dupverts_code, MCG_ABS(102)},
    {CASE("valid", "parts_reference_layout.e3d", "E3D_PARTS_REFERENCE_LAYOUT", "one 16-byte part (u64 ID) as the reference code writes it",
          "E3D_PARTS_REFERENCE_LAYOUT"), parts_code, MCG_ABS(102)},
    {CASE("valid", "lzma_end_marker.e3d", "E3D_LZMA_END_MARKER", "the top LZMA stream ends with an end marker", "E3D_LZMA_END_MARKER"), end_marker, MCG_ABS(27)},
    {CASE("valid", "unknown_block_type.e3d", "E3D_BLOCK_UNKNOWN", "a top-level block of type 0x7777 after the cube", "E3D_BLOCK_UNKNOWN"), unknown_block, MCG_END_AT(-10)},
    {CASE("valid", "morphs_reference_code.e3d", "E3D_MORPH_BLOCK", "a morphs block (0x1070) with one morph, from the reference code", "E3D_MORPH_BLOCK"), morphs, MCG_ABS(102)},
    {CASE("valid", "track_two_ftk_morphs.e3d", NULL, "a track of 0 keys with two ftkMorph blocks (morph indices 0 and 1): one per morph", ""), track_two_ftk_morphs, NOWHERE},
    {CASE("invalid", "morph_id_twice.e3d", "E3D_BLOCK_DUPLICATE", "one morph holds two morphID blocks (found by diff_e3d, issue 19)", "E3D_MORPH_BLOCK E3D_BLOCK_DUPLICATE"), morph_id_twice, MCG_ABS(128)},
    {CASE("invalid", "morphs_twice_in_mesh.e3d", "E3D_BLOCK_DUPLICATE", "one mesh holds two morphs blocks; the second is skipped", "E3D_MORPH_BLOCK E3D_BLOCK_DUPLICATE"), morphs_twice, MCG_ABS(128)},
    {CASE("valid", "camera_node_reserved.e3d", "E3D_BLOCK_RESERVED", "a second nodes section holding an empty cameraNode", "E3D_BLOCK_RESERVED"), camera_node, MCG_END_AT(-6)},
    {CASE("valid", "degenerate_triangle.e3d", "E3D_TRIANGLE_DEGENERATE", "triangle 1 is (17, 17, 16)", "E3D_TRIANGLE_DEGENERATE"), degenerate, AT(E3D_AT_FACES, 0, 10 + 6)},
    {CASE("valid", "texture_name_path_traversal.e3d", "E3D_TEXTURE_NAME_PATH", "a texture named ../../etc/passwd (no geometry)", "FILE_NO_CONTENT E3D_TEXTURE_NAME_PATH"), texture_path, MCG_ABS(32)},
    {CASE("valid", "version_1_1.e3d", "E3D_VERSION_UNKNOWN", "version 1.1 (u16 0x0101)", "E3D_VERSION_UNKNOWN"), version_1_1, MCG_ABS(10)},
    {CASE("valid", "normal_zero_length.e3d", "E3D_NORMAL_ZERO", "cube2 with vertex 4's normal (0, 0, 0)", "E3D_NORMAL_ZERO"), normal_zero, AT(E3D_AT_VERTEX, 4, 12)},
    {CASE("valid", "normals_zero_8_vertices.e3d", "E3D_NORMAL_ZERO", "cube2 with the normals of vertices 0, 3, ..., 21 (0, 0, 0): reported once for the mesh", "E3D_NORMAL_ZERO"), normals_zero_many, AT(E3D_AT_VERTEX, 0, 12)},
    {CASE("valid", "faces_materials_repeated.e3d", "E3D_FACES_MATERIALS_OVERLAP", "the facesMaterials block twice: triangles [0, 12) listed twice", "E3D_FACES_MATERIALS_OVERLAP"), fm_overlap, AT(E3D_AT_FACES_MATERIALS, 0, 18 + 6)},

    /* invalid: each breaks one rule */
    {FORCED("version_block_missing.e3d", "E3D_VERSION_MISSING", "the spec's cube without its version block, validated with --format e3d", "E3D_VERSION_MISSING"), no_version, MCG_ABS(0)},
    {FORCED("lzma_in_place_of_version.e3d", "E3D_LZMA_AS_VERSION", "the whole cube, version block included, in one LZMA block; --format e3d", "E3D_LZMA_AS_VERSION"), lzma_first, MCG_ABS(0)},
    {FORCED("version_block_14_bytes.e3d", "E3D_VERSION_SIZE", "a 14-byte version block before the cube's blocks; --format e3d", "E3D_VERSION_SIZE"), version_14, MCG_ABS(0)},
    {FORCED("magic_e3dx.e3d", "E3D_BAD_MAGIC", "signature E3DX, validated with --format e3d", "E3D_BAD_MAGIC"), magic_e3dx, MCG_ABS(6)},
    {CASE("invalid", "second_version_block.e3d", "E3D_VERSION_MISPLACED", "a second version block after the cube", "E3D_VERSION_MISPLACED"), second_version, MCG_END_AT(-12)},
    {CASE("invalid", "block_length_zero.e3d", "E3D_BLOCK_LENGTH_SMALL", "triFaces16's length is 0: the rest of the mesh cannot be walked", "E3D_BLOCK_LENGTH_SMALL"), length_zero, AT(E3D_AT_FACES, 0, 2)},
    {CASE("invalid", "child_overruns_parent.e3d", "E3D_BLOCK_OVERRUN", "facesMaterials is 1 byte longer than what is left of its mesh", "E3D_BLOCK_OVERRUN"), overrun, AT(E3D_AT_FACES_MATERIALS, 0, 0)},
    {CASE("invalid", "gap_in_parent.e3d", "E3D_BLOCK_GAP", "3 zero bytes after a mesh's meshID", "E3D_BLOCK_GAP"), gap, MCG_ABS(34)},
    {CASE("invalid", "truncated.e3d", "E3D_FILE_TRUNCATED", "the cube without its last 7 bytes: the nodes block passes the end", "E3D_FILE_TRUNCATED"), truncated, AT(E3D_AT_NODES, 0, 0)},
    {CASE("invalid", "trailing_bytes.e3d", "E3D_FILE_TRAILING_BYTES", "3 zero bytes after the last block", "E3D_FILE_TRAILING_BYTES"), trailing, MCG_END_AT(-3)},
    {CASE("invalid", "mesh_id_at_top_level.e3d", "E3D_BLOCK_MISPLACED", "a meshID block at the top level", "E3D_BLOCK_MISPLACED"), misplaced, MCG_END_AT(-10)},
    {CASE("invalid", "two_mesh_ids.e3d", "E3D_BLOCK_DUPLICATE", "a mesh with meshID 1 and then meshID 2", "E3D_BLOCK_DUPLICATE"), duplicate_block, MCG_ABS(34)},
    {CASE("invalid", "mesh_nodes_1000_deep.e3d", "E3D_DEPTH_LIMIT", "1000 nested meshNode blocks (max_depth 64)", "E3D_DEPTH_LIMIT"), deep, MCG_ABS(12 + 6 + 6 * 63)},
    {CASE("invalid", "textures_after_meshes.e3d", "E3D_SECTION_ORDER", "an empty textures section after an empty meshes section", "E3D_SECTION_ORDER"), section_order, MCG_ABS(18)},
    {CASE("invalid", "faces_materials_before_faces.e3d", "E3D_MESH_BLOCK_ORDER", "a mesh whose only child is facesMaterials, no triFaces before it", "E3D_MESH_BLOCK_ORDER"), mesh_order, MCG_ABS(24)},
    {CASE("invalid", "lzma_block_8_bytes.e3d", "E3D_LZMA_TOO_SHORT", "an LZMA block with an 8-byte payload", "E3D_LZMA_TOO_SHORT"), lzma_short_block, MCG_ABS(12)},
    {CASE("invalid", "lzma_properties_225.e3d", "E3D_LZMA_BAD_PROPERTIES", "the top LZMA block's properties byte is 225 (> 224)", "E3D_LZMA_BAD_PROPERTIES"), lzma_props, MCG_ABS(22)},
    {CASE("invalid", "lzma_declares_50_more.e3d", "E3D_LZMA_SIZE_SHORT", "the stream decodes 456 bytes; the block declares 506", "E3D_LZMA_SIZE_SHORT"), lzma_size_short, MCG_ABS(18)},
    {CASE("invalid", "lzma_declares_50_less.e3d", "E3D_LZMA_SIZE_LONG", "the stream decodes 456 bytes; the block declares 406", "E3D_LZMA_SIZE_LONG"), lzma_size_long, MCG_ABS(18)},
    {CASE("invalid", "lzma_corrupt.e3d", "E3D_LZMA_CORRUPT", "the stream's first byte is 1 (a range-coder stream starts with 0)", "E3D_LZMA_CORRUPT"), lzma_corrupt, MCG_ABS(27)},
    {CASE("invalid", "lzma_truncated.e3d", "E3D_LZMA_TRUNCATED", "the top LZMA stream without its last 10 bytes", "E3D_LZMA_TRUNCATED"), lzma_truncated, MCG_ABS(27)},
    {CASE("invalid", "lzma_nested_100_deep.e3d", "E3D_LZMA_DEPTH_LIMIT", "an empty meshes section in 100 nested LZMA blocks (limit 8)", "E3D_LZMA_DEPTH_LIMIT"), lzma_100_deep, MCG_ABS(12)},
    {CASE("invalid", "lzma_200_bytes_declaring_4_gib.e3d", "E3D_LZMA_SIZE_LIMIT", "a 188-byte LZMA block declaring 2^32-1 decoded bytes (max_decompressed_bytes 256 MiB)", "E3D_LZMA_SIZE_LIMIT"), lzma_4_gib, MCG_ABS(18)},
    {CASE("invalid", "nan_position_in_lzma.e3d", "E3D_NOT_FINITE", "vertex 5's x is NaN, inside the top LZMA block", "E3D_NOT_FINITE"), nan_in_lzma, MCG_ABS(12)},
    {CASE("invalid", "mesh_id_5_bytes.e3d", "E3D_PAYLOAD_SIZE", "a meshID with a 5-byte payload", "E3D_PAYLOAD_SIZE"), payload_size, MCG_ABS(24)},
    {CASE("invalid", "triangle_count_13_for_12.e3d", "E3D_COUNT_SIZE", "triFaces16 counts 13 triangles in the bytes of 12", "E3D_COUNT_SIZE"), count_size, AT(E3D_AT_FACES, 0, 0)},
    {CASE("invalid", "string_length_past_block.e3d", "E3D_STRING_SIZE", "a materialName of length 9 with 5 bytes", "E3D_STRING_SIZE"), string_size, MCG_ABS(30)},
    {CASE("invalid", "vertex_count_65537.e3d", "E3D_VERTEX_COUNT_LIMIT", "an attributes block counting 65537 vertices", "E3D_VERTEX_COUNT_LIMIT"), vertex_limit, MCG_ABS(40)},
    {CASE("invalid", "interleaved_unterminated.e3d", "E3D_INTERLEAVED_UNTERMINATED", "an interleaved list of one entry with no 0 terminator or vertex size", "E3D_INTERLEAVED_UNTERMINATED"), unterminated, MCG_ABS(50)},
    {CASE("invalid", "interleaved_type_mesh_id.e3d", "E3D_INTERLEAVED_TYPE", "the interleaved list names type 0x1020 (meshID) instead of vertices", "E3D_INTERLEAVED_TYPE"), itype, AT(E3D_AT_INTERLEAVED, 0, 6)},
    {CASE("invalid", "interleaved_past_stride.e3d", "E3D_INTERLEAVED_RANGE", "vertices at offset 4 in a 12-byte vertex", "E3D_INTERLEAVED_RANGE"), irange, AT(E3D_AT_INTERLEAVED, 0, 6)},
    {CASE("invalid", "interleaved_overlap.e3d", "E3D_INTERLEAVED_OVERLAP", "normals at offset 8, inside the vertices [0, 12)", "E3D_INTERLEAVED_OVERLAP"), ioverlap, AT(E3D_AT_INTERLEAVED, 0, 10)},
    {CASE("invalid", "interleaved_count_25_for_24.e3d", "E3D_INTERLEAVED_SIZE", "attributes count 25 vertices; the interleaved data holds 24", "E3D_INTERLEAVED_SIZE"), isize, AT(E3D_AT_INTERLEAVED, 0, 6 + 6)},
    {CASE("invalid", "vertices_twice.e3d", "E3D_ATTRIBUTE_DUPLICATE", "vertices interleaved and again as a standalone block", "E3D_ATTRIBUTE_DUPLICATE"), attr_twice, MCG_ABS(70)},
    {CASE("invalid", "normal_nearly_zero.e3d", "E3D_NORMAL_NOT_UNIT", "vertex 5's normal is (0, 0, 1) in 10-bit units: not zero, length about 0.002", "E3D_NORMAL_NOT_UNIT"), normal_nearly_zero, AT(E3D_AT_VERTEX, 5, 12)},
    {CASE("invalid", "normal_length_0_5.e3d", "E3D_NORMAL_NOT_UNIT", "vertex 3's normal is (256, 0, 0): length about 0.5", "E3D_NORMAL_NOT_UNIT"), normal_short, AT(E3D_AT_VERTEX, 3, 12)},
    {CASE("invalid", "bone_weights_odd_width.e3d", "E3D_BONE_WEIGHTS_SIZE", "interleaved boneWeights spanning 3 bytes per vertex", "E3D_BONE_WEIGHTS_SIZE"), weights_odd, MCG_ABS(54)},
    {CASE("invalid", "interleaved_custom_zero_size.e3d", "E3D_INTERLEAVED_RANGE", "a custom attribute (0x4000) at offset 12 of a 12-byte vertex: its implied size is 0", "E3D_INTERLEAVED_RANGE"), custom_zero_size, MCG_ABS(54)},
    {CASE("invalid", "bone_weights_zero_width.e3d", "E3D_BONE_WEIGHTS_SIZE", "interleaved boneWeights and normals at offset 12: boneWeights spans 0 bytes per vertex", "E3D_BONE_WEIGHTS_SIZE"), weights_zero_width, MCG_ABS(54)},
    {CASE("invalid", "eleven_bones_per_vertex.e3d", "E3D_INFLUENCES_LIMIT", "interleaved boneWeights of 22 bytes: 11 bones per vertex", "E3D_INFLUENCES_LIMIT"), eleven_bones, MCG_ABS(54)},
    {CASE("invalid", "bone_id_3_of_2.e3d", "E3D_BONE_ID_RANGE", "vertex 7 names bone 3 of a 2-bone skin", "E3D_BONE_ID_RANGE"), bone_id, AT(E3D_AT_WEIGHTS, 7, 0)},
    {CASE("invalid", "weights_sum_200.e3d", "E3D_WEIGHT_SUM", "vertex 2's weights sum to 200", "E3D_WEIGHT_SUM"), weight_sum, AT(E3D_AT_WEIGHTS, 2, 2)},
    {CASE("invalid", "weights_sum_0_with_bone.e3d", "E3D_WEIGHT_SUM", "vertex 2 names bone 1 with weight 0 and nothing else: a weighted vertex summing to 0", "E3D_WEIGHT_SUM"), bone_without_weight, AT(E3D_AT_WEIGHTS, 2, 2)},
    {CASE("invalid", "weight_without_bone.e3d", "E3D_WEIGHT_WITHOUT_BONE", "vertex 0's second slot has bone 0 and weight 55 (sum still 255)", "E3D_WEIGHT_WITHOUT_BONE"), weight_no_bone, AT(E3D_AT_WEIGHTS, 0, 3)},
    {CASE("invalid", "index_out_of_range.e3d", "E3D_INDEX_RANGE", "triangle 0 uses index 24 of 24 vertices", "E3D_INDEX_RANGE"), index_range, AT(E3D_AT_FACES, 0, 10)},
    {CASE("invalid", "faces_materials_past_faces.e3d", "E3D_FACES_MATERIALS_RANGE", "facesMaterials covers triangles [0, 13) of 12", "E3D_FACES_MATERIALS_RANGE"), fm_range, AT(E3D_AT_FACES_MATERIALS, 0, 6)},
    {CASE("invalid", "bbox_inverted.e3d", "E3D_BBOX_INVERTED", "meshBBox with loY 1 > hiY 0.5", "E3D_BBOX_INVERTED"), bbox_inverted, AT(E3D_AT_BBOX, 0, 10)},
    {CASE("invalid", "bbox_excludes_vertex.e3d", "E3D_BBOX_EXCLUDES_VERTEX", "meshBBox with hiX 0.25; vertices reach x = 0.5", "E3D_BBOX_EXCLUDES_VERTEX"), bbox_small, AT(E3D_AT_BBOX, 0, 6)},
    {CASE("invalid", "texture_id_twice.e3d", "E3D_DUPLICATE_ID", "two textures with textureID 1", "E3D_DUPLICATE_ID"), duplicate_id, MCG_ABS(46)},
    {CASE("invalid", "mesh_node_unknown_mesh.e3d", "E3D_MESH_REF_UNRESOLVED", "the mesh node names mesh 2; only mesh 1 exists", "E3D_MESH_REF_UNRESOLVED"), mesh_ref, AT(E3D_AT_NODE_MESH_ID, 0, 6)},
    {CASE("invalid", "faces_materials_unknown_material.e3d", "E3D_MATERIAL_REF_UNRESOLVED", "facesMaterials names material 5; there are no materials", "E3D_MATERIAL_REF_UNRESOLVED"), material_ref, AT(E3D_AT_FACES_MATERIALS, 0, 14)},
    {CASE("invalid", "map_unknown_texture.e3d", "E3D_TEXTURE_REF_UNRESOLVED", "the diffuse map names texture 9; only texture 1 exists", "E3D_TEXTURE_REF_UNRESOLVED"), texture_ref, AT(E3D_AT_MAP, 0, 12)},
    {CASE("invalid", "skin_bone_unknown_node.e3d", "E3D_NODE_REF_UNRESOLVED", "skin bone 1 names node \"tia\"; the nodes are root and tip", "E3D_NODE_REF_UNRESOLVED"), node_ref, AT(E3D_AT_SKIN_BONES, 0, 6 + 1 + 2 + 4 + 64)},
    {CASE("invalid", "map_without_texture.e3d", "E3D_MAP_NO_TEXTURE", "an empty phongDiffuseMap", "E3D_MAP_NO_TEXTURE"), map_empty, MCG_ABS(24)},
    {CASE("invalid", "parts_ambiguous_layout.e3d", "E3D_LAYOUT_AMBIGUOUS", "48 zero bytes of parts: 4 spec parts or 3 reference-code parts", "E3D_LAYOUT_AMBIGUOUS"), parts_ambiguous, MCG_ABS(102)},
    {CASE("invalid", "duplicate_vertex_out_of_range.e3d", "E3D_DUPVERTS_RANGE", "meshDuplicateVertices (spec layout) names vertex 7 of 3", "E3D_DUPVERTS_RANGE"), dupverts_range, MCG_ABS(102 + 6 + 4 + 4)},
    {CASE("invalid", "part_past_faces.e3d", "E3D_PARTS_RANGE", "a part (ID 1) covering triangles [0, 2) of 1", "E3D_PARTS_RANGE"), parts_range, MCG_ABS(102 + 6 + 4)},
    {CASE("invalid", "skin_weight_set_9.e3d", "E3D_SKIN_WEIGHT_SET_RANGE", "skinBoneWeights names weight set 9", "E3D_SKIN_WEIGHT_SET_RANGE"), weight_set, AT(E3D_AT_SKIN_BONES, 0, 146 + 6)},
    {CASE("invalid", "png_without_signature.e3d", "E3D_TEXTURE_SIGNATURE", "texturePNG whose first byte is 0, not 0x89", "E3D_TEXTURE_SIGNATURE"), png_signature, AT(E3D_AT_TEXTURE, 0, 6 + 10 + 16 + 6)},
    {CASE("invalid", "texture_name_5000_bytes.e3d", "E3D_TEXTURE_NAME_LENGTH", "a texture name of 5000 bytes (at most 4096)", "E3D_TEXTURE_NAME_LENGTH"), long_name, MCG_ABS(30)},
    {CASE("invalid", "orientation_length_2.e3d", "E3D_NODE_ORIENTATION_NOT_UNIT", "a node orientation quaternion (2, 0, 0, 0)", "E3D_NODE_ORIENTATION_NOT_UNIT"), orientation, MCG_ABS(30)},
    {CASE("invalid", "animation_default_after_end.e3d", "E3D_ANIMATION_FRAMES_ORDER", "animationFrames start 0, end 10, default 11", "E3D_ANIMATION_FRAMES_ORDER"), frames_order, AT(E3D_AT_FRAMES, 0, 6)},
    {CASE("invalid", "key_frames_equal.e3d", "E3D_KEY_FRAMES_ORDER", "a track's two keys both at frame 0", "E3D_KEY_FRAMES_ORDER"), key_order, AT(E3D_AT_TRACK, 0, 6 + 8)},
    {CASE("invalid", "rotation_key_not_unit.e3d", "E3D_KEY_ROTATION_NOT_UNIT", "rotation key 1 is (0.5, 0, 0.707, 0)", "E3D_KEY_ROTATION_NOT_UNIT"), key_rotation, AT(E3D_AT_ROTATION, 0, 6 + 16)},
    {CASE("invalid", "loop_flag_2.e3d", "E3D_TRACK_LOOP_FLAG", "a track's loop flag is 2", "E3D_TRACK_LOOP_FLAG"), loop_flag, AT(E3D_AT_TRACK, 0, 6 + 12)},
    {CASE("invalid", "track_without_node.e3d", "E3D_TRACK_NO_TARGET", "an animation track with neither nodeID nor nodeName", "E3D_TRACK_NO_TARGET"), no_target, MCG_ABS(24)},
    {CASE("invalid", "rotation_order_7.e3d", "E3D_ROTATION_ORDER_RANGE", "ftkRotationOrder 7 (0..5)", "E3D_ROTATION_ORDER_RANGE"), rotation_order, MCG_ABS(63)},
    /* edge cases (issue 7) */
    {CASE("valid", "version_only.e3d", "FILE_NO_CONTENT", "the version block and nothing else: valid, but a cut export looks the same (E3D has no total size)", "FILE_NO_CONTENT"), version_only, MCG_ABS(0)},
    {CASE("valid", "empty_sections.e3d", NULL, "empty textures, materials, meshes, nodes and animations sections, in order", "FILE_NO_CONTENT"), empty_sections, NOWHERE},
    {CASE("valid", "mesh_zero_vertices_zero_triangles.e3d", NULL, "a mesh whose attributes count 0 vertices (an empty vertices block) and whose triFaces16 counts 0", "FILE_NO_CONTENT"), zero_vertices_zero_triangles, NOWHERE},
    {CASE("valid", "mesh_zero_triangles.e3d", NULL, "a mesh of 3 vertices whose triFaces16 counts 0 triangles", ""), zero_triangles, NOWHERE},
    {CASE("valid", "faces_materials_zero_count.e3d", NULL, "the cube with facesMaterials (0, 0, 0), as the spec's cube1 table prints it", ""), faces_materials_zero_count, NOWHERE},
    {CASE("valid", "track_zero_keys.e3d", NULL, "an animation track of 0 keys on node 1 (both track layouts read the same bytes)", ""), track_zero_keys, NOWHERE},
    {CASE("valid", "one_of_everything.e3d", NULL, "1 texture, 1 material, 1 mesh (3 vertices: normal, UV, 1 bone weight; 1 triangle; a skin of 1 bone), 1 node, 1 animation of 1 track of 1 key", ""), one_of_everything, NOWHERE},
    {CASE("valid", "vertices_65536_faces16_last_index.e3d", NULL, "65536 vertices (the attributes limit), a triFaces16 triangle naming vertex 65535; in LZMA", ""), vertices_65536, NOWHERE},
    {CASE("valid", "texture_name_4096_bytes.e3d", NULL, "a texture name of 4096 bytes, the longest accepted (no geometry)", "FILE_NO_CONTENT"), texture_name_4096, NOWHERE},
    {CASE("valid", "material_name_65535_bytes.e3d", NULL, "a material name of 65535 bytes, the longest a u16 length gives (no geometry)", "FILE_NO_CONTENT"), material_name_65535, NOWHERE},
    {CASE("valid", "normals_spec_packing_511.e3d", NULL, "cube2 with -1 packed as -511 as the spec says (the reference packs -512)", ""), normals_spec_511, NOWHERE},
    {CASE("valid", "bone_weights_10_slots.e3d", NULL, "a vertex with 10 boneWeights slots (20 bytes), the most the reference reader holds; bone 1 at 255", ""), ten_bone_slots, NOWHERE},
    {CASE("valid", "skin_weight_set_7.e3d", NULL, "the skinned cube's weights in boneWeights8 (0x2097), selected by skinBoneWeights 7", ""), weight_set_7, NOWHERE},
    {CASE("valid", "unweighted_vertex.e3d", NULL, "the skinned cube with vertex 2's slots all empty (bone ID 0, weight 0): an unskinned vertex, not a weight sum of 0", ""), unweighted_vertex, NOWHERE},
    {CASE("invalid", "texture_name_4097_bytes.e3d", "E3D_TEXTURE_NAME_LENGTH", "a texture name of 4097 bytes, one past the longest accepted", "E3D_TEXTURE_NAME_LENGTH"), texture_name_4097, MCG_ABS(30)},
};

const size_t mcg_e3d_case_count = sizeof e3d_cases / sizeof e3d_cases[0];

static uint64_t place(const void *unused, int p, uint64_t i, uint64_t sub)
{
    (void)unused;
    (void)sub;
    switch (p) {
    case E3D_AT_BBOX: return m.bbox;
    case E3D_AT_INTERLEAVED: return m.interleaved;
    case E3D_AT_FACES: return m.faces;
    case E3D_AT_FACES_MATERIALS: return m.faces_materials;
    case E3D_AT_SKIN_BONES: return m.skin_bones;
    case E3D_AT_TEXTURE: return m.texture;
    case E3D_AT_MAP: return m.map;
    case E3D_AT_NODES: return m.nodes;
    case E3D_AT_NODE_MESH_ID: return m.node_mesh_id;
    case E3D_AT_FRAMES: return m.frames;
    case E3D_AT_TRACK: return m.track;
    case E3D_AT_ROTATION: return m.rotation;
    case E3D_AT_VERTEX: return vtx((size_t)i, 0);
    case E3D_AT_WEIGHTS: return vtx((size_t)i, m.weights_at);
    default: return 0;
    }
}

static int build(const void *row, mcb_buf *b, uint64_t *first)
{
    const e3d_case *c = row;
    e3db w;
    memset(&w, 0, sizeof w);
    memset(&m, 0, sizeof m);
    c->write(&w);
    *first = mcg_offset(&c->first, w.b.size, place, NULL);
    *b = w.b; /* the buffer moves to the caller */
    memset(&w.b, 0, sizeof w.b);
    e3db_free(&w);
    return b->oom ? -1 : 0;
}

const mcg_table mcg_e3d_table = MCG_TABLE("e3d", e3d_cases, e3d_case, build);
