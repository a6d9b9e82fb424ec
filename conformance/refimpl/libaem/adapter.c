/*
 * libaem @1a273aa (github.com/janhsimon/aem) behind the certify loader ABI,
 * used the way its viewer (viewer/model.c) uses a model, so a file is graded
 * by what the program that ships with the library does with it.
 *
 * The library reads from a path: the bytes go to an in-memory file
 * (memfd, else a temporary file) whose /proc/self/fd path it opens.
 * Then, in the viewer's order:
 *   load        aem_load_model; the viewer prints the header counts
 *   textures    one texture slot per name, the name formatted as "<dir>/<name>"
 *               into a 128-byte buffer as the viewer does (textures are not
 *               read from disk: every slot is treated as loaded)
 *   bones       a transform per bone, set to identity
 *   animations  names copied, durations read
 *   upload      vertex and index buffers copied out (the viewer's GPU upload),
 *               then aem_finish_loading_model frees them
 *   frames      bind pose and every animation evaluated at its start, middle
 *               and end (aem_evaluate_model_animation), the bone overlay
 *               after each; every mesh drawn once (without the shader's
 *               skinning the draw does not depend on the pose): its
 *               material looked up, each texture index used when >= 0 (the
 *               viewer's test), the draw's index range and vertex indices read
 *               from the uploaded copies (what the GPU would fetch); the
 *               overlay reads each bone's parent and inverts both matrices
 *   free        aem_free_model
 * A file is accepted when this completes, rejected when aem_load_model
 * fails. Crashes and hangs are what they are.
 *
 * MCC_LIBAEM_TEXTURE_CHECK=bounded in the environment: a texture index is
 * also checked against the texture count (the viewer's one fix), so the rest
 * of libaem can be certified past that bug.
 *
 * Not emulated: the vertex shader's skinning reads (its source is not in
 * the snapshot).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <aem/aem.h>

#include "cglm_compat.h"
#include "mc_loader_abi.h"
#include "../path_of_bytes.h"

int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

void glm_vec3_make(const float *src, vec3 dest)
{
    memcpy(dest, src, 3 * sizeof(float));
}

void glm_quat_make(const float *src, versor dest)
{
    memcpy(dest, src, 4 * sizeof(float));
}

void glm_mat4_make(const float *src, mat4 dest)
{
    memcpy(dest, src, 16 * sizeof(float));
}

static const char *result_name(enum AEMResult r)
{
    switch (r) {
    case AEMResult_Success: return "Success";
    case AEMResult_OutOfMemory: return "OutOfMemory";
    case AEMResult_FileNotFound: return "FileNotFound";
    case AEMResult_InvalidFileType: return "InvalidFileType";
    case AEMResult_InvalidVersion: return "InvalidVersion";
    }
    return "unknown AEMResult";
}

/* What the viewer keeps about a loaded model. */
typedef struct viewer {
    struct AEMModel *model;
    uint32_t texture_count;
    unsigned *textures;
    uint32_t bone_count;
    struct AEMBone *bones;
    mat4 *bone_transforms;
    uint32_t animation_count;
    unsigned char *gpu_vertices, *gpu_indices;
    uint32_t gpu_vertices_size, gpu_indices_size;
    int bounded_textures;
} viewer;

static void viewer_load_textures(viewer *v)
{
    const aem_string *names = aem_get_model_textures(v->model, &v->texture_count);
    /* the viewer's size arithmetic: 32 bits, no check of malloc */
    const uint32_t size = v->texture_count * (uint32_t)sizeof(unsigned);
    v->textures = malloc(size);
    memset(v->textures, 0, size);
    for (uint32_t i = 0; i < v->texture_count; ++i) {
        char filepath[128];
        sprintf(filepath, "%s/%s", ".", (const char *)names[i]);
        v->textures[i] = i + 1; /* "loaded" */
    }
}

static void viewer_load_bones(viewer *v)
{
    v->bones = aem_get_model_bones(v->model, &v->bone_count);
    v->bone_transforms = malloc(v->bone_count * sizeof(mat4));
    for (uint32_t i = 0; i < v->bone_count; ++i) glm_mat4_identity(v->bone_transforms[i]);
}

static void viewer_upload(viewer *v)
{
    v->gpu_vertices_size = aem_get_model_vertices_size(v->model);
    v->gpu_indices_size = aem_get_model_indices_size(v->model);
    v->gpu_vertices = malloc(v->gpu_vertices_size ? v->gpu_vertices_size : 1);
    v->gpu_indices = malloc(v->gpu_indices_size ? v->gpu_indices_size : 1);
    memcpy(v->gpu_vertices, aem_get_model_vertices(v->model), v->gpu_vertices_size);
    memcpy(v->gpu_indices, aem_get_model_indices(v->model), v->gpu_indices_size);
}

static void viewer_animation_names(viewer *v)
{
    for (uint32_t i = 0; i < v->animation_count; ++i) {
        char *name = malloc(sizeof(aem_string));
        memcpy(name, aem_get_model_animation_name(v->model, i), sizeof(aem_string));
        free(name);
    }
}

static int texture_present(const viewer *v, int32_t index)
{
    if (v->bounded_textures && (index < 0 || (uint32_t)index >= v->texture_count)) return 0;
    return index >= 0 && v->textures[index];
}

/* glDrawElements(GL_TRIANGLES, index_count, GL_UNSIGNED_INT, first_index * 4):
 * the index fetch and each vertex fetch of the uploaded buffers. */
static unsigned long viewer_draw_elements(const viewer *v, const struct AEMMesh *mesh)
{
    unsigned long sum = 0;
    const uint32_t *indices = (const uint32_t *)(const void *)v->gpu_indices;
    for (uint64_t k = 0; k < mesh->index_count; ++k) {
        uint32_t index = indices[(uint64_t)mesh->first_index + k];
        sum += v->gpu_vertices[(uint64_t)index * AEM_VERTEX_SIZE];
    }
    return sum;
}

static unsigned long viewer_draw_model(const viewer *v)
{
    unsigned long sum = 0;
    for (uint32_t i = 0; i < aem_get_model_mesh_count(v->model); ++i) {
        const struct AEMMesh *mesh = aem_get_model_mesh(v->model, i);
        const struct AEMMaterial *material = aem_get_model_material(v->model, mesh->material_index);
        sum += (unsigned long)texture_present(v, material->base_color_tex_index);
        sum += (unsigned long)texture_present(v, material->normal_tex_index);
        sum += (unsigned long)texture_present(v, material->orm_tex_index);
        sum += viewer_draw_elements(v, mesh);
    }
    return sum;
}

static float viewer_draw_bone_overlay(const viewer *v)
{
    float sum = 0;
    for (uint32_t i = 0; i < v->bone_count; ++i) {
        const struct AEMBone *bone = &v->bones[i];
        if (bone->parent_bone_index < 0) continue;
        mat4 ibm, child, parent;
        glm_mat4_make(bone->inverse_bind_matrix, ibm);
        glm_mat4_inv(ibm, child);
        glm_mat4_mul(v->bone_transforms[i], child, child);
        const struct AEMBone *parent_bone = &v->bones[bone->parent_bone_index];
        glm_mat4_make(parent_bone->inverse_bind_matrix, ibm);
        glm_mat4_inv(ibm, parent);
        glm_mat4_mul(v->bone_transforms[bone->parent_bone_index], parent, parent);
        sum += glm_vec3_distance(child[3], parent[3]);
    }
    return sum;
}

/* The viewer draws every frame; what the draw reads does not depend on the
 * pose here (skinning is the shader's), so one draw stands for all. */
static void viewer_frames(viewer *v)
{
    aem_evaluate_model_animation(v->model, -1, 0.0f, (float *)v->bone_transforms);
    volatile unsigned long drawn = viewer_draw_model(v);
    volatile float overlay = viewer_draw_bone_overlay(v);
    for (uint32_t a = 0; a < v->animation_count; ++a) {
        float d = aem_get_model_animation_duration(v->model, a);
        const float times[3] = {0.0f, d * 0.5f, d};
        for (int t = 0; t < 3; ++t) {
            aem_evaluate_model_animation(v->model, (int32_t)a, times[t], (float *)v->bone_transforms);
            overlay = viewer_draw_bone_overlay(v);
        }
    }
    (void)drawn;
    (void)overlay;
}

int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size)
{
    if (strcmp(format, "aem") != 0) {
        snprintf(reason, reason_size, "libaem reads AEM only, not %s", format);
        return 1;
    }
    char path[64];
    int fd = file_of(data, size, path, sizeof path);
    if (fd < 0) {
        snprintf(reason, reason_size, "adapter: cannot stage the file");
        return 1;
    }
    viewer v = {0};
    const char *check = getenv("MCC_LIBAEM_TEXTURE_CHECK");
    v.bounded_textures = check && strcmp(check, "bounded") == 0;
    enum AEMResult r = aem_load_model(path, &v.model);
    close(fd);
    if (r != AEMResult_Success) {
        snprintf(reason, reason_size, "aem_load_model: AEMResult_%s", result_name(r));
        /* libaem leaks the model struct on failure (and on FileNotFound its
         * FILE); the viewer exits then. Freed here so that rejections are
         * not all reported as leaks. */
        free(v.model);
        return 1;
    }
    viewer_load_textures(&v);
    viewer_load_bones(&v);
    v.animation_count = aem_get_model_animation_count(v.model);
    viewer_animation_names(&v);
    viewer_upload(&v);
    aem_finish_loading_model(v.model);
    viewer_frames(&v);
    aem_free_model(v.model);
    free(v.textures);
    free(v.bone_transforms);
    free(v.gpu_vertices);
    free(v.gpu_indices);
    return 0;
}
