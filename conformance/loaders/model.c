/* The invariants every returned model keeps, and the walk that proves a
 * model is usable: both independent of the format, so a loader bug that
 * would hand a game a dangling index is caught here, not in the game. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mcl_internal.h"

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static mcl_status broken(mcl_error *err, const char *fmt, ...)
{
    if (err) {
        err->status = MCL_ERR_INTERNAL;
        err->offset = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->reason, sizeof err->reason, fmt, ap);
        va_end(ap);
    }
    return MCL_ERR_INTERNAL;
}

static bool finite_all(const float *v, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static bool index_ok(int32_t i, uint32_t count)
{
    return i == -1 || (i >= 0 && (uint32_t)i < count);
}

static mcl_status check_mesh(const mcl_model *m, uint32_t i, mcl_error *err)
{
    const mcl_mesh *me = &m->meshes[i];
    uint32_t per = me->primitive == MCL_LINES ? 2 : 3;
    if (me->primitive != MCL_TRIANGLES && me->primitive != MCL_LINES)
        return broken(err, "mesh %u: primitive %u", i, (unsigned)me->primitive);
    if (!me->name) return broken(err, "mesh %u: name NULL", i);
    if (me->vertex_count && !me->positions) return broken(err, "mesh %u: positions NULL", i);
    if (me->uv_layer_count && !me->uvs) return broken(err, "mesh %u: uvs NULL", i);
    if (me->influences && (!me->joints || !me->weights))
        return broken(err, "mesh %u: joints/weights NULL", i);
    if (me->index_count % per) return broken(err, "mesh %u: index count %u", i, me->index_count);
    if (me->index_count && !me->indices) return broken(err, "mesh %u: indices NULL", i);
    for (uint32_t k = 0; k < me->index_count; k++)
        if (me->indices[k] >= me->vertex_count) return broken(err, "mesh %u: index %u out of range", i, k);
    uint64_t slots = (uint64_t)me->vertex_count * me->influences;
    for (uint64_t k = 0; k < slots; k++)
        if (me->joints[k] >= m->bone_count) return broken(err, "mesh %u: joint slot %u out of range", i, (unsigned)k);
    if (!index_ok(me->rigid_bone, m->bone_count)) return broken(err, "mesh %u: rigid bone %u", i, (unsigned)me->rigid_bone);
    if (!index_ok(me->material, m->material_count)) return broken(err, "mesh %u: material %u", i, (unsigned)me->material);
    if (me->face_materials)
        for (uint32_t k = 0; k < me->index_count / per; k++)
            if (!index_ok(me->face_materials[k], m->material_count))
                return broken(err, "mesh %u: face %u material out of range", i, k);
    return MCL_OK;
}

static mcl_status check_bones(const mcl_model *m, mcl_error *err)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const mcl_bone *b = &m->bones[i];
        if (!b->name) return broken(err, "bone %u: name NULL", i);
        if (b->parent < -1 || (b->parent >= 0 && (uint32_t)b->parent >= i))
            return broken(err, "bone %u: parent %u not before it", i, (unsigned)b->parent);
        if (!finite_all(b->local, 16) || !finite_all(b->inverse_bind, 16))
            return broken(err, "bone %u: non-finite matrix", i);
    }
    return MCL_OK;
}

static uint32_t track_width(mcl_track_kind kind)
{
    switch (kind) {
    case MCL_TRACK_TRANSLATION: case MCL_TRACK_SCALE: return 3;
    case MCL_TRACK_ROTATION: return 4;
    case MCL_TRACK_MATRIX: return 16;
    }
    return 0;
}

static mcl_status check_track(const mcl_model *m, uint32_t a, const mcl_track *t, mcl_error *err)
{
    uint32_t w = track_width(t->kind);
    if (!w || (t->interpolation != MCL_STEP && t->interpolation != MCL_LINEAR))
        return broken(err, "animation %u: track kind %u", a, (unsigned)t->kind);
    if (t->bone >= m->bone_count) return broken(err, "animation %u: track bone %u", a, t->bone);
    if (t->key_count == 0 || !t->times || !t->values) return broken(err, "animation %u: empty track", a);
    for (uint32_t k = 0; k < t->key_count; k++)
        if (!isfinite(t->times[k]) || (k && t->times[k] < t->times[k - 1]))
            return broken(err, "animation %u: key %u time unsorted or not finite", a, k);
    if (!finite_all(t->values, (uint64_t)t->key_count * w))
        return broken(err, "animation %u: non-finite key value", a);
    return MCL_OK;
}

static mcl_status check_animations(const mcl_model *m, mcl_error *err)
{
    for (uint32_t a = 0; a < m->animation_count; a++) {
        const mcl_animation *an = &m->animations[a];
        if (!an->name || !isfinite(an->duration) || an->duration < 0)
            return broken(err, "animation %u: name or duration", a);
        if (an->track_count && !an->tracks) return broken(err, "animation %u: tracks NULL", a);
        for (uint32_t t = 0; t < an->track_count; t++) {
            mcl_status s = check_track(m, a, &an->tracks[t], err);
            if (s != MCL_OK) return s;
        }
    }
    return MCL_OK;
}

static mcl_status check_materials(const mcl_model *m, mcl_error *err)
{
    for (uint32_t i = 0; i < m->material_count; i++) {
        const mcl_material *ma = &m->materials[i];
        if (!ma->name || (!ma->texture_data) != (ma->texture_size == 0))
            return broken(err, "material %u: name or texture", i);
    }
    return MCL_OK;
}

mcl_status mcl_model_check(const mcl_model *m, mcl_error *err)
{
    if (!m || !m->layout) return broken(err, "no model");
    if ((m->mesh_count && !m->meshes) || (m->material_count && !m->materials) ||
        (m->bone_count && !m->bones) || (m->animation_count && !m->animations))
        return broken(err, "array NULL with a non-zero count");
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        mcl_status s = check_mesh(m, i, err);
        if (s != MCL_OK) return s;
    }
    mcl_status s = check_bones(m, err);
    if (s == MCL_OK) s = check_materials(m, err);
    if (s == MCL_OK) s = check_animations(m, err);
    return s;
}

/* FNV-1a over the bytes of every element. */
static uint64_t fold(uint64_t h, const void *p, uint64_t n)
{
    const unsigned char *b = p;
    for (uint64_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t fold_str(uint64_t h, const char *s)
{
    return s ? fold(h, s, strlen(s)) : h;
}

static uint64_t walk_mesh(uint64_t h, const mcl_mesh *me)
{
    uint64_t v = me->vertex_count;
    uint32_t per = me->primitive == MCL_LINES ? 2 : 3;
    h = fold_str(h, me->name);
    h = fold(h, me->positions, v * 3 * sizeof(float));
    if (me->normals) h = fold(h, me->normals, v * 3 * sizeof(float));
    h = fold(h, me->uvs, v * 2 * me->uv_layer_count * sizeof(float));
    if (me->colors) h = fold(h, me->colors, v * 4 * sizeof(float));
    h = fold(h, me->joints, v * me->influences * sizeof(uint32_t));
    h = fold(h, me->weights, v * me->influences * sizeof(float));
    h = fold(h, me->indices, (uint64_t)me->index_count * sizeof(uint32_t));
    if (me->face_materials) h = fold(h, me->face_materials, (uint64_t)(me->index_count / per) * sizeof(int32_t));
    return fold(h, &me->material, sizeof me->material);
}

uint64_t mcl_walk(const mcl_model *m)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    if (!m) return h;
    for (uint32_t i = 0; i < m->mesh_count; i++) h = walk_mesh(h, &m->meshes[i]);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const mcl_material *ma = &m->materials[i];
        h = fold_str(fold_str(h, ma->name), ma->texture_path);
        h = fold(h, ma->texture_data, ma->texture_size);
        h = fold(h, ma->base_color, sizeof ma->base_color);
    }
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const mcl_bone *b = &m->bones[i];
        h = fold_str(h, b->name);
        h = fold(h, &b->parent, sizeof b->parent);
        h = fold(h, b->local, sizeof b->local);
        h = fold(h, b->inverse_bind, sizeof b->inverse_bind);
    }
    for (uint32_t a = 0; a < m->animation_count; a++) {
        const mcl_animation *an = &m->animations[a];
        h = fold_str(h, an->name);
        for (uint32_t t = 0; t < an->track_count; t++) {
            const mcl_track *tr = &an->tracks[t];
            h = fold(h, tr->times, (uint64_t)tr->key_count * sizeof(float));
            h = fold(h, tr->values, (uint64_t)tr->key_count * track_width(tr->kind) * sizeof(float));
        }
    }
    return h;
}
