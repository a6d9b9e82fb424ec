/*
 * E3D conformance cases: most start from the spec's cube (e3db_cube) and
 * change one thing, so each file breaks exactly the rule it is named after;
 * the rest are small trees written block by block. Files that do not start
 * with a valid version block header are not detected as E3D by content, so
 * the version-block codes (E3D_VERSION_MISSING, E3D_LZMA_AS_VERSION,
 * E3D_VERSION_SIZE, E3D_BAD_MAGIC) are covered by the unit tests only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "corpus_cases.h"
#include "e3d_builder.h"

typedef void (*e3d_case_fn)(e3db *w);

typedef struct e3d_case {
    const char *dir;
    const char *name;
    e3d_case_fn write;
} e3d_case;

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
    return m.vertex_data + i * m.stride + field;
}

static void close_all(e3db *w)
{
    while (w->depth) e3db_end(w);
}

static void wrap_top(e3db *w)
{
    e3db_lzma_wrap(w, 12, &e3db_lzma_reference);
}

/* version, meshes{mesh{meshID, attributes{3 vertices}, triFaces16{1}}}; open */
static void tri_begin(e3db *w)
{
    static const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_u32(w, 0x1020, 1);
    e3db_begin(w, 0x2000);
    mcb_u32(&w->b, 3);
    e3db_floats(w, 0x2010, v, 9);
    e3db_end(w);
    e3db_begin(w, 0x1030);
    mcb_u32(&w->b, 1);
    mcb_u16(&w->b, 0);
    mcb_u16(&w->b, 1);
    mcb_u16(&w->b, 2);
    e3db_end(w);
}

/* version, nodes{meshNode{nodeID 1}}, animations{animation{track{0 keys}; open */
static void track_begin(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x3000);
    e3db_begin(w, 0x3010);
    e3db_u32(w, 0x3020, 1);
    close_all(w);
    e3db_begin(w, 0xA000);
    e3db_begin(w, 0xA010);
    e3db_begin(w, 0xA100);
    mcb_u32(&w->b, 0);
    mcb_u8(&w->b, 0);
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

static void unknown_block(e3db *w)
{
    e3db_cube(w, 0, &m);
    e3db_u32(w, 0x7777, 0);
}

static void morphs(e3db *w)
{
    tri_begin(w);
    e3db_begin(w, 0x1070);
    mcb_u32(&w->b, 1);
    e3db_begin(w, 0x1071);
    e3db_u32(w, 0x1072, 1);
    close_all(w);
}

static void camera_node(e3db *w)
{
    e3db_cube(w, 0, &m);
    e3db_begin(w, 0x3000);
    e3db_begin(w, 0x3011);
    close_all(w);
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
    close_all(w);
}

static void dupverts_code(e3db *w)
{
    static const int32_t dup[3] = {0, 1, 2};
    tri_begin(w);
    e3db_leaf(w, 0x1022, dup, sizeof dup);
    close_all(w);
}

static void parts_code(e3db *w)
{
    tri_begin(w);
    e3db_begin(w, 0x1060);
    mcb_u32(&w->b, 7), mcb_u32(&w->b, 0), mcb_u32(&w->b, 0), mcb_u32(&w->b, 1);
    close_all(w);
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
    close_all(w);
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
    close_all(w);
}

static void deep(e3db *w)
{
    e3db_version(w);
    e3db_begin(w, 0x3000);
    for (int i = 0; i < 1000; i++) e3db_begin(w, 0x3010);
    close_all(w);
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
    close_all(w);
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
    close_all(w);
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
    close_all(w);
}

static void attrs_begin(e3db *w, uint32_t count)
{
    e3db_version(w);
    e3db_begin(w, 0x1000);
    e3db_begin(w, 0x1010);
    e3db_u32(w, 0x1020, 1);
    e3db_begin(w, 0x2000);
    mcb_u32(&w->b, count);
}

static void vertex_limit(e3db *w)
{
    attrs_begin(w, 65537);
    close_all(w);
}

static void unterminated(e3db *w)
{
    attrs_begin(w, 0);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010);
    mcb_u16(&w->b, 0);
    close_all(w);
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
    attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0), mcb_u16(&w->b, 12);
    mcb_f32s(&w->b, v, 3);
    e3db_end(w);
    e3db_floats(w, 0x2010, v, 3);
    close_all(w);
}

static void normal_short(e3db *w)
{
    e3db_cube(w, E3DB_NORMALS, &m);
    put32(w, vtx(3, 12), 256);
}

static void weights_odd(e3db *w)
{
    attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0x2090), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 15);
    mcb_zeros(&w->b, 15);
    close_all(w);
}

static void eleven_bones(e3db *w)
{
    attrs_begin(w, 1);
    e3db_begin(w, 0x2800);
    mcb_u16(&w->b, 0x2010), mcb_u16(&w->b, 0), mcb_u16(&w->b, 0x2090), mcb_u16(&w->b, 12);
    mcb_u16(&w->b, 0), mcb_u16(&w->b, 34);
    mcb_zeros(&w->b, 34);
    close_all(w);
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
    close_all(w);
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
    close_all(w);
}

static void parts_ambiguous(e3db *w)
{
    tri_begin(w);
    e3db_begin(w, 0x1060);
    mcb_zeros(&w->b, 48);
    close_all(w);
}

static void dupverts_range(e3db *w)
{
    tri_begin(w);
    e3db_begin(w, 0x1022);
    mcb_u32(&w->b, 3), mcb_u16(&w->b, 0), mcb_u16(&w->b, 1), mcb_u16(&w->b, 7);
    close_all(w);
}

static void parts_range(e3db *w)
{
    tri_begin(w);
    e3db_begin(w, 0x1060);
    mcb_u32(&w->b, 1), mcb_u32(&w->b, 0), mcb_u32(&w->b, 2);
    close_all(w);
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
    close_all(w);
}

static void orientation(e3db *w)
{
    static const double q[4] = {2, 0, 0, 0};
    e3db_version(w);
    e3db_begin(w, 0x3000);
    e3db_begin(w, 0x3010);
    e3db_doubles(w, 0x3031, q, 4);
    close_all(w);
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
    close_all(w);
}

static void rotation_order(e3db *w)
{
    uint8_t order = 7;
    track_begin(w);
    e3db_leaf(w, 0xA120, &order, 1);
    e3db_u32(w, 0x3020, 1);
    close_all(w);
}

static const e3d_case e3d_cases[] = {
    {"valid", "cube1_spec.e3d", cube1},
    {"valid", "cube2_spec_normals.e3d", cube2},
    {"valid", "cube3_spec_lzma_444.e3d", cube3},
    {"valid", "lzma_nested_two_deep.e3d", nested},
    {"valid", "skinned_lzma.e3d", skinned},
    {"valid", "textured_png.e3d", textured},
    {"valid", "animated.e3d", animated},
    {"valid", "official_sample_habits.e3d", official_habits},
    {"valid", "track_loop_flag_first_reference_layout.e3d", track_code_layout},
    {"valid", "duplicate_vertices_reference_layout.e3d", dupverts_code},
    {"valid", "parts_reference_layout.e3d", parts_code},
    {"valid", "lzma_end_marker.e3d", end_marker},
    {"valid", "unknown_block_type.e3d", unknown_block},
    {"valid", "morphs_reference_code.e3d", morphs},
    {"valid", "camera_node_reserved.e3d", camera_node},
    {"valid", "degenerate_triangle.e3d", degenerate},
    {"valid", "texture_name_path_traversal.e3d", texture_path},
    {"valid", "version_1_1.e3d", version_1_1},
    {"invalid", "second_version_block.e3d", second_version},
    {"invalid", "block_length_zero.e3d", length_zero},
    {"invalid", "child_overruns_parent.e3d", overrun},
    {"invalid", "gap_in_parent.e3d", gap},
    {"invalid", "truncated.e3d", truncated},
    {"invalid", "trailing_bytes.e3d", trailing},
    {"invalid", "mesh_id_at_top_level.e3d", misplaced},
    {"invalid", "two_mesh_ids.e3d", duplicate_block},
    {"invalid", "mesh_nodes_1000_deep.e3d", deep},
    {"invalid", "textures_after_meshes.e3d", section_order},
    {"invalid", "faces_materials_before_faces.e3d", mesh_order},
    {"invalid", "lzma_block_8_bytes.e3d", lzma_short_block},
    {"invalid", "lzma_properties_225.e3d", lzma_props},
    {"invalid", "lzma_declares_50_more.e3d", lzma_size_short},
    {"invalid", "lzma_declares_50_less.e3d", lzma_size_long},
    {"invalid", "lzma_corrupt.e3d", lzma_corrupt},
    {"invalid", "lzma_truncated.e3d", lzma_truncated},
    {"invalid", "lzma_nested_100_deep.e3d", lzma_100_deep},
    {"invalid", "lzma_200_bytes_declaring_4_gib.e3d", lzma_4_gib},
    {"invalid", "nan_position_in_lzma.e3d", nan_in_lzma},
    {"invalid", "mesh_id_5_bytes.e3d", payload_size},
    {"invalid", "triangle_count_13_for_12.e3d", count_size},
    {"invalid", "string_length_past_block.e3d", string_size},
    {"invalid", "vertex_count_65537.e3d", vertex_limit},
    {"invalid", "interleaved_unterminated.e3d", unterminated},
    {"invalid", "interleaved_type_mesh_id.e3d", itype},
    {"invalid", "interleaved_past_stride.e3d", irange},
    {"invalid", "interleaved_overlap.e3d", ioverlap},
    {"invalid", "interleaved_count_25_for_24.e3d", isize},
    {"invalid", "vertices_twice.e3d", attr_twice},
    {"invalid", "normal_length_0_5.e3d", normal_short},
    {"invalid", "bone_weights_odd_width.e3d", weights_odd},
    {"invalid", "eleven_bones_per_vertex.e3d", eleven_bones},
    {"invalid", "bone_id_3_of_2.e3d", bone_id},
    {"invalid", "weights_sum_200.e3d", weight_sum},
    {"invalid", "weight_without_bone.e3d", weight_no_bone},
    {"invalid", "index_out_of_range.e3d", index_range},
    {"invalid", "faces_materials_past_faces.e3d", fm_range},
    {"invalid", "bbox_inverted.e3d", bbox_inverted},
    {"invalid", "bbox_excludes_vertex.e3d", bbox_small},
    {"invalid", "texture_id_twice.e3d", duplicate_id},
    {"invalid", "mesh_node_unknown_mesh.e3d", mesh_ref},
    {"invalid", "faces_materials_unknown_material.e3d", material_ref},
    {"invalid", "map_unknown_texture.e3d", texture_ref},
    {"invalid", "skin_bone_unknown_node.e3d", node_ref},
    {"invalid", "map_without_texture.e3d", map_empty},
    {"invalid", "parts_ambiguous_layout.e3d", parts_ambiguous},
    {"invalid", "duplicate_vertex_out_of_range.e3d", dupverts_range},
    {"invalid", "part_past_faces.e3d", parts_range},
    {"invalid", "skin_weight_set_9.e3d", weight_set},
    {"invalid", "png_without_signature.e3d", png_signature},
    {"invalid", "texture_name_5000_bytes.e3d", long_name},
    {"invalid", "orientation_length_2.e3d", orientation},
    {"invalid", "animation_default_after_end.e3d", frames_order},
    {"invalid", "key_frames_equal.e3d", key_order},
    {"invalid", "rotation_key_not_unit.e3d", key_rotation},
    {"invalid", "loop_flag_2.e3d", loop_flag},
    {"invalid", "track_without_node.e3d", no_target},
    {"invalid", "rotation_order_7.e3d", rotation_order},
};

static int write_e3d_case(const char *root, const e3d_case *c)
{
    char path[4096];
    e3db w;
    memset(&w, 0, sizeof w);
    c->write(&w);
    snprintf(path, sizeof path, "%s/e3d/%s/%s", root, c->dir, c->name);
    int rc = w.b.oom ? -1 : mcb_write_file(&w.b, path);
    if (rc != 0) fprintf(stderr, "mc_corpusgen: cannot write %s\n", path);
    e3db_free(&w);
    return rc;
}

/* The cases are not in the manifest yet (tests/corpus/uncovered.txt). */
int mcg_write_e3d(const char *root, mcg_manifest *mf)
{
    (void)mf;
    if (mcg_mkdir(root, "e3d") || mcg_mkdir(root, "e3d/valid") || mcg_mkdir(root, "e3d/invalid"))
        return -1;
    for (size_t i = 0; i < sizeof e3d_cases / sizeof e3d_cases[0]; i++)
        if (write_e3d_case(root, &e3d_cases[i]) != 0) return -1;
    return 0;
}
