/*
 * The page's 3D preview (web/app.js): a file's meshes as the reference
 * loader (conformance/loaders) builds them. The loader accepts only files
 * without errors, so a file with errors has no preview; its reason says why.
 *
 *   model = mcw_load(bytes, size, format, reason[192])   NULL when rejected
 *   mcw_mesh_count, mcw_mesh_vertex_count, mcw_mesh_positions (3 floats per
 *   vertex), mcw_mesh_index_count, mcw_mesh_indices, mcw_mesh_lines
 *   mcw_model_free(model)
 */
#include <stdio.h>
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

EMSCRIPTEN_KEEPALIVE void mcw_model_free(mcl_model *m)
{
    mcl_free(m);
}
