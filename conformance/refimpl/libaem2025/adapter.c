/*
 * libaem @42bd501 (github.com/janhsimon/aem, the 2025 layout) behind the
 * certify loader ABI, used the way the viewer that ships with it (viewer/:
 * model.c, gui/skeleton.c, gui/animation_mixer.c,
 * overlay/skeleton_overlay.c, and util/texture.c for textures) uses a model,
 * so that a file is graded by what upstream's own program does with it.
 *
 * The library reads from a path: the bytes go to an in-memory file (memfd,
 * else a temporary file) whose /proc/self/fd path it opens. Then, in the
 * viewer's order:
 *   load       aem_load_model; an animation mixer of 4 channels when the
 *              model has joints (its failure fails the load, as in the
 *              viewer); aem_print_model_info (stdout, which certify drops)
 *   textures   every texture uploaded as util/texture.c does: the formats
 *              chosen by channel count and compression (its asserts kept:
 *              the upstream build has them), then each MIP level from the
 *              texture's offset, advancing by libaem's level size; the bytes
 *              a GL upload reads are read here (rows of an uncompressed level
 *              aligned to 4, GL's default; a compressed level whose size
 *              does not match its blocks, or a side over 16384, Mesa
 *              refuses and reads nothing)
 *   joints     one transform per joint, set to identity
 *   upload     the vertex and index buffers copied out with the viewer's
 *              32-bit sizes (count x 88, count x 4: glBufferData), then
 *              aem_finish_loading_model frees them
 *   GUI        animation names formatted "#%u: %s" into 256 bytes; the
 *              skeleton tree (keyframe counts of animation 0 per joint via
 *              libaem's accessors, each joint counted as a child of its
 *              parent); the skeleton overlay (each joint's parent looked up
 *              and both inverse bind matrices inverted)
 *   frames     one frame with the mixer off (bind pose), every mesh drawn
 *              (material looked up, its three texture indices used on the
 *              texture table, the draw's index range read from the uploaded
 *              index copy at the viewer's 32-bit byte offset and each
 *              index's vertex fetched from the vertex copy: what the GPU
 *              reads); then, when the model has animations (the GUI only
 *              enables the mixer then), each animation played on channel 0
 *              for 3 frames of 1/60 s and scrubbed to its middle and end
 *              (the GUI's time slider), a frame drawn after each
 *   free       the mixer, the model and the viewer's tables
 * A file is accepted when this completes, rejected when aem_load_model or
 * the mixer fails. Crashes and hangs are what they are.
 *
 * Not emulated: the vertex shader's skinning (its joint fetches go through a
 * buffer texture, which returns 0 out of range), the transparent and
 * wireframe passes (they read what the opaque pass reads).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cglm/cglm.h>

struct AEMModel;
#include <aem/animation_mixer.h>
#include <aem/model.h>

#include "mc_loader_abi.h"
#include "../path_of_bytes.h"

int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

/* What a model owns inside libaem (common.h): only what the adapter needs
 * to free after a failed load, which libaem leaks. */
#include "common.h"

enum { GL_MAX_SIDE = 16384, SCRATCH = 65536 };

static const char *result_name(enum AEMModelResult r)
{
    switch (r) {
    case AEMModelResult_Success: return "Success";
    case AEMModelResult_OutOfMemory: return "OutOfMemory";
    case AEMModelResult_FileNotFound: return "FileNotFound";
    case AEMModelResult_InvalidFileType: return "InvalidFileType";
    case AEMModelResult_InvalidVersion: return "InvalidVersion";
    }
    return "unknown AEMModelResult";
}

typedef struct node {
    uint32_t translation_keys, rotation_keys, scale_keys;
    uint32_t child_count, child_index;
    struct node **children;
} node;

/* What the viewer keeps about a loaded model. */
typedef struct viewer {
    struct AEMModel *model;
    struct AEMAnimationMixer *mixer;
    uint32_t texture_count;
    unsigned *texture_handles;
    uint32_t joint_count;
    struct AEMJoint *joints;
    mat4 *joint_transforms;
    uint32_t animation_count;
    unsigned char *gpu_vertices, *gpu_indices;
    uint32_t gpu_vertices_size, gpu_indices_size;
    char **animation_names;
    node *nodes;
    float *points;
    unsigned char *scratch; /* SCRATCH bytes: what a GL upload copies into */
} viewer;

/* What a GL upload of LEN bytes at P reads: copied out in pieces, so the
 * sanitizer checks every byte. */
static void gl_read(viewer *v, const uint8_t *p, uint64_t len)
{
    while (len > 0) {
        size_t n = len < SCRATCH ? (size_t)len : SCRATCH;
        memcpy(v->scratch, p, n);
        p += n;
        len -= n;
    }
}

/* util/texture.c's format choice, its asserts included; returns the bytes
 * per pixel of an uncompressed texture (0: compressed). */
static uint32_t texture_format(const struct AEMTexture *t)
{
    if (t->compression == AEMTextureCompression_None) {
        assert(t->channel_count == 2 || t->channel_count == 4);
        return t->channel_count;
    }
    if (t->compression == AEMTextureCompression_BC5)
        assert(t->channel_count == 2);
    else if (t->compression == AEMTextureCompression_BC7)
        assert(t->channel_count == 4);
    else
        assert(0 && "unknown compression");
    return 0;
}

/* One glTexImage2D / glCompressedTexImage2D: what Mesa reads of LEVEL. */
static void upload_level(viewer *v, const struct AEMTexture *t, const uint8_t *level, uint32_t width,
                         uint32_t height, uint32_t level_size)
{
    uint32_t bpp = texture_format(t);
    if (width > GL_MAX_SIDE || height > GL_MAX_SIDE) return; /* GL_INVALID_VALUE */
    if (bpp) {
        uint64_t row = (uint64_t)width * bpp, stride = (row + 3) & ~(uint64_t)3;
        gl_read(v, level, stride * (height - 1) + row);
    } else {
        uint64_t blocks = (uint64_t)((width + 3) / 4) * ((height + 3) / 4);
        if (blocks * 16 != level_size) return; /* GL_INVALID_VALUE: imageSize */
        gl_read(v, level, level_size);
    }
}

static void load_texture(viewer *v, const struct AEMTexture *t)
{
    const uint8_t *data = aem_get_model_image_buffer(v->model);
    const uint8_t *level = &data[t->offset];
    const uint32_t levels = aem_get_model_texture_level_count(t->width, t->height);
    for (uint32_t i = 0; i < levels; ++i) {
        uint32_t w, h, level_size;
        aem_get_model_texture_level_data(t, i, &w, &h, &level_size);
        upload_level(v, t, level, w, h, level_size);
        level += level_size;
    }
}

static void load_textures(viewer *v)
{
    const struct AEMTexture *textures = aem_get_model_textures(v->model, &v->texture_count);
    if (v->texture_count == 0) return;
    /* the viewer's size arithmetic: 32 bits */
    const uint32_t size = (uint32_t)sizeof(unsigned) * v->texture_count;
    v->texture_handles = malloc(size);
    assert(v->texture_handles);
    for (uint32_t i = 0; i < v->texture_count; ++i) {
        load_texture(v, &textures[i]);
        v->texture_handles[i] = i + 1;
    }
}

static void load_joints(viewer *v)
{
    v->joints = aem_get_model_joints(v->model);
    v->joint_transforms = malloc(v->joint_count * sizeof(mat4));
    for (uint32_t i = 0; i < v->joint_count; ++i) glm_mat4_identity(v->joint_transforms[i]);
}

static void upload_buffers(viewer *v)
{
    v->gpu_vertices_size = aem_get_model_vertex_count(v->model) * AEM_VERTEX_SIZE;
    v->gpu_indices_size = aem_get_model_index_count(v->model) * AEM_INDEX_SIZE;
    v->gpu_vertices = malloc(v->gpu_vertices_size ? v->gpu_vertices_size : 1);
    v->gpu_indices = malloc(v->gpu_indices_size ? v->gpu_indices_size : 1);
    memcpy(v->gpu_vertices, aem_get_model_vertex_buffer(v->model), v->gpu_vertices_size);
    memcpy(v->gpu_indices, aem_get_model_index_buffer(v->model), v->gpu_indices_size);
}

/* viewer/model.c load_model: false when the viewer gives up. */
static int load_model(viewer *v)
{
    v->joint_count = aem_get_model_joint_count(v->model);
    if (v->joint_count > 0 && aem_load_animation_mixer(v->joint_count, 4, &v->mixer) !=
                                  AEMAnimationMixerResult_Success)
        return 0;
    aem_print_model_info(v->model);
    load_textures(v);
    load_joints(v);
    v->animation_count = aem_get_model_animation_count(v->model);
    upload_buffers(v);
    return 1;
}

static void gui_animation_names(viewer *v)
{
    if (v->animation_count == 0) return;
    v->animation_names = malloc(sizeof(char *) * v->animation_count);
    assert(v->animation_names);
    for (uint32_t i = 0; i < v->animation_count; ++i) {
        v->animation_names[i] = malloc(sizeof(aem_string) * 2);
        assert(v->animation_names[i]);
        sprintf(v->animation_names[i], "#%u: %s", i, (const char *)aem_get_model_animation_name(v->model, i));
    }
}

static void gui_skeleton(viewer *v)
{
    if (v->joint_count == 0) return;
    const uint32_t size = (uint32_t)sizeof(node) * v->joint_count;
    v->nodes = malloc(size);
    assert(v->nodes);
    memset(v->nodes, 0, size);
    for (uint32_t i = 0; i < v->joint_count; ++i) {
        node *n = &v->nodes[i];
        n->translation_keys = aem_get_model_joint_translation_keyframe_count(v->model, 0, i);
        n->rotation_keys = aem_get_model_joint_rotation_keyframe_count(v->model, 0, i);
        n->scale_keys = aem_get_model_joint_scale_keyframe_count(v->model, 0, i);
        const int32_t parent = v->joints[i].parent_joint_index;
        if (parent >= 0) ++v->nodes[parent].child_count;
    }
    for (uint32_t i = 0; i < v->joint_count; ++i) {
        v->nodes[i].children = malloc(sizeof(node *) * v->nodes[i].child_count);
        assert(v->nodes[i].children);
    }
    for (uint32_t i = 0; i < v->joint_count; ++i) {
        const int32_t parent = v->joints[i].parent_joint_index;
        if (parent < 0) continue;
        node *p = &v->nodes[parent];
        p->children[p->child_index++] = &v->nodes[i];
    }
}

static void joint_position(const struct AEMJoint *joint, float *out)
{
    mat4 bind;
    glm_mat4_make(joint->inverse_bind_matrix, bind);
    glm_mat4_inv(bind, bind);
    glm_mat4_mulv3(bind, GLM_VEC3_ZERO, 1.0f, out);
}

static void skeleton_overlay(viewer *v)
{
    uint32_t points = 0;
    for (uint32_t i = 0; i < v->joint_count; ++i)
        if (v->joints[i].parent_joint_index >= 0) points += 2;
    /* a point: a position and a joint index, 16 bytes */
    v->points = malloc((uint32_t)(16 * points));
    assert(v->points);
    uint32_t k = 0;
    for (uint32_t i = 0; i < v->joint_count; ++i) {
        const struct AEMJoint *joint = &v->joints[i];
        if (joint->parent_joint_index < 0) continue;
        joint_position(&v->joints[joint->parent_joint_index], &v->points[4 * k++]);
        joint_position(joint, &v->points[4 * k++]);
    }
}

/* glDrawElements(GL_TRIANGLES, index_count, GL_UNSIGNED_INT, first_index * 4)
 * with the viewer's 32-bit offset: the index fetches and each vertex fetch of
 * the uploaded copies. */
static unsigned long draw_elements(const viewer *v, const struct AEMMesh *mesh)
{
    unsigned long sum = 0;
    const uint32_t offset = mesh->first_index * AEM_INDEX_SIZE;
    for (uint64_t k = 0; k < mesh->index_count; ++k) {
        uint32_t index;
        memcpy(&index, v->gpu_indices + offset + 4 * k, sizeof index);
        sum += v->gpu_vertices[(uint64_t)index * AEM_VERTEX_SIZE];
    }
    return sum;
}

static unsigned long draw_model_opaque(const viewer *v)
{
    unsigned long sum = 0;
    const uint32_t mesh_count = aem_get_model_mesh_count(v->model);
    for (uint32_t i = 0; i < mesh_count; ++i) {
        const struct AEMMesh *mesh = aem_get_model_mesh(v->model, i);
        const struct AEMMaterial *material = aem_get_model_material(v->model, mesh->material_index);
        sum += v->texture_handles[material->base_color_texture_index];
        sum += v->texture_handles[material->normal_texture_index];
        sum += v->texture_handles[material->pbr_texture_index];
        sum += draw_elements(v, mesh);
    }
    return sum;
}

static void frame(viewer *v, float delta_time)
{
    if (v->mixer) aem_update_animation(v->model, v->mixer, delta_time, (float *)v->joint_transforms);
    volatile unsigned long drawn = draw_model_opaque(v);
    (void)drawn;
}

/* The GUI's play button on channel 0, three frames, then its time slider
 * to the middle and the end. */
static void play_animations(viewer *v)
{
    if (!v->mixer || !v->animation_names) return;
    aem_set_animation_mixer_enabled(v->mixer, true);
    struct AEMAnimationChannel *channel = aem_get_animation_mixer_channel(v->mixer, 0);
    for (uint32_t a = 0; a < v->animation_count; ++a) {
        channel->animation_index = a;
        channel->time = 0.0f;
        channel->is_playing = true;
        for (int f = 0; f < 3; ++f) frame(v, 1.0f / 60.0f);
        const float d = aem_get_model_animation_duration(v->model, a);
        channel->is_playing = false;
        channel->time = d * 0.5f;
        frame(v, 0.0f);
        channel->time = d;
        frame(v, 0.0f);
    }
}

static void free_viewer(viewer *v)
{
    if (v->mixer) aem_free_animation_mixer(v->mixer);
    aem_free_model(v->model);
    free(v->texture_handles);
    free(v->joint_transforms);
    free(v->gpu_vertices);
    free(v->gpu_indices);
    for (uint32_t i = 0; v->animation_names && i < v->animation_count; ++i) free(v->animation_names[i]);
    free(v->animation_names);
    for (uint32_t i = 0; v->nodes && i < v->joint_count; ++i) free(v->nodes[i].children);
    free(v->nodes);
    free(v->points);
    free(v->scratch);
}

/* libaem leaks on a failed load (the model, and after an allocation failure
 * its first buffer); the viewer exits then. Freed here so that rejections
 * are not all reported as leaks. */
static void free_failed(struct AEMModel *model, enum AEMModelResult r)
{
    if (!model) return;
    if (r == AEMModelResult_OutOfMemory) free(model->load_time_data);
    free(model);
}

/* A mixer whose allocation failed half way, which libaem leaks (the viewer
 * gives up then): its channels when the transforms were what failed (the
 * transforms are unset when the channels failed). */
static void free_failed_mixer(struct AEMAnimationMixer *mixer)
{
    if (!mixer) return;
    free(mixer->channels);
    free(mixer);
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
    enum AEMModelResult r = aem_load_model(path, &v.model);
    close(fd);
    if (r != AEMModelResult_Success) {
        snprintf(reason, reason_size, "aem_load_model: AEMModelResult_%s", result_name(r));
        free_failed(v.model, r);
        return 1;
    }
    v.scratch = malloc(SCRATCH);
    if (!v.scratch || !load_model(&v)) {
        snprintf(reason, reason_size, "aem_load_animation_mixer: OutOfMemory");
        aem_finish_loading_model(v.model);
        free_failed_mixer(v.mixer);
        v.mixer = NULL;
        free_viewer(&v);
        return 1;
    }
    aem_finish_loading_model(v.model);
    gui_animation_names(&v);
    gui_skeleton(&v);
    skeleton_overlay(&v);
    frame(&v, 1.0f / 60.0f);
    play_animations(&v);
    free_viewer(&v);
    return 0;
}
