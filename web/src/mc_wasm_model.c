/*
 * The page's 3D preview (web/app.js): a file's meshes as the reference
 * loader (conformance/loaders) builds them. The loader accepts only files
 * without errors, so a file with errors has no preview; its reason says why.
 *
 *   model = mcw_load(bytes, size, format, reason[192])   NULL when rejected
 *   mcw_mesh_count, mcw_mesh_vertex_count, mcw_mesh_positions (3 floats per
 *   vertex), mcw_mesh_index_count, mcw_mesh_indices, mcw_mesh_lines
 *   placed = mcw_mesh_placed(model, i): the positions of a mesh that a bone
 *   places whole (an E3D node's transform, an AEM extra bone), moved by that
 *   bone's rest-pose skinning matrix as certify's comparison moves them;
 *   free() them. NULL: no such bone (mcw_mesh_positions are where the mesh
 *   is), or no memory
 *   mcw_model_free(model)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten/emscripten.h>

#include "mcl.h"

mcl_model *mcw_load(const uint8_t *data, size_t size, int format, char *reason);
uint32_t mcw_mesh_count(const mcl_model *m);
uint32_t mcw_mesh_vertex_count(const mcl_model *m, uint32_t i);
const float *mcw_mesh_positions(const mcl_model *m, uint32_t i);
uint32_t mcw_mesh_index_count(const mcl_model *m, uint32_t i);
const uint32_t *mcw_mesh_indices(const mcl_model *m, uint32_t i);
int mcw_mesh_lines(const mcl_model *m, uint32_t i);
float *mcw_mesh_placed(const mcl_model *m, uint32_t i);
void mcw_model_free(mcl_model *m);

/* format: mc_format's number, which mcl_format's follows. */
EMSCRIPTEN_KEEPALIVE mcl_model *mcw_load(const uint8_t *data, size_t size, int format, char *reason)
{
    mcl_model *m = NULL;
    mcl_error err;
    memset(&err, 0, sizeof err);
    mcl_status st = format > MCL_FORMAT_UNKNOWN && format < MCL_FORMAT_COUNT
                        ? mcl_load((mcl_format)format, data, size, NULL, &m, &err)
                        : MCL_ERR_ARGUMENT;
    if (st != MCL_OK && reason)
        snprintf(reason, 192, "%s at byte %llu: %s", mcl_status_name(st), (unsigned long long)err.offset,
                 err.reason[0] ? err.reason : mcl_strerror(st));
    return st == MCL_OK ? m : NULL;
}

static const mcl_mesh *mesh(const mcl_model *m, uint32_t i)
{
    return m && i < m->mesh_count ? &m->meshes[i] : NULL;
}

EMSCRIPTEN_KEEPALIVE uint32_t mcw_mesh_count(const mcl_model *m)
{
    return m ? m->mesh_count : 0;
}

EMSCRIPTEN_KEEPALIVE uint32_t mcw_mesh_vertex_count(const mcl_model *m, uint32_t i)
{
    return mesh(m, i) ? mesh(m, i)->vertex_count : 0;
}

EMSCRIPTEN_KEEPALIVE const float *mcw_mesh_positions(const mcl_model *m, uint32_t i)
{
    return mesh(m, i) ? mesh(m, i)->positions : NULL;
}

EMSCRIPTEN_KEEPALIVE uint32_t mcw_mesh_index_count(const mcl_model *m, uint32_t i)
{
    return mesh(m, i) ? mesh(m, i)->index_count : 0;
}

EMSCRIPTEN_KEEPALIVE const uint32_t *mcw_mesh_indices(const mcl_model *m, uint32_t i)
{
    return mesh(m, i) ? mesh(m, i)->indices : NULL;
}

EMSCRIPTEN_KEEPALIVE int mcw_mesh_lines(const mcl_model *m, uint32_t i)
{
    return mesh(m, i) && mesh(m, i)->primitive == MCL_LINES;
}

EMSCRIPTEN_KEEPALIVE float *mcw_mesh_placed(const mcl_model *m, uint32_t i)
{
    const mcl_mesh *me = mesh(m, i);
    if (!me || me->rigid_bone < 0 || (uint32_t)me->rigid_bone >= m->bone_count ||
        m->bone_count > SIZE_MAX / (16 * sizeof(float)) || me->vertex_count > SIZE_MAX / (3 * sizeof(float)))
        return NULL;
    float *skin = malloc((size_t)m->bone_count * 16 * sizeof *skin);
    float *out = skin ? malloc((size_t)me->vertex_count * 3 * sizeof *out + 1) : NULL;
    if (!out || mcl_evaluate_pose(m, UINT32_MAX, 0.0, NULL, skin) != MCL_OK) {
        free(skin);
        free(out);
        return NULL;
    }
    const float *k = skin + (size_t)me->rigid_bone * 16; /* column-major */
    for (size_t v = 0; v < me->vertex_count; v++) {
        const float *p = me->positions + v * 3;
        for (int r = 0; r < 3; r++) out[v * 3 + (size_t)r] = k[r] * p[0] + k[4 + r] * p[1] + k[8 + r] * p[2] + k[12 + r];
    }
    free(skin);
    return out;
}

EMSCRIPTEN_KEEPALIVE void mcw_model_free(mcl_model *m)
{
    mcl_free(m);
}
