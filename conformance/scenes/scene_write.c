/*
 * The forms of a scene an exporter reads: glTF 2.0 JSON with the buffer
 * embedded as a data: URI or beside it (<name>.bin), binary glTF (.glb),
 * and Wavefront OBJ for static scenes. One buffer, one bufferView per
 * accessor (4-byte aligned), deterministic bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_scene.h"

enum { BYTE = 5121, SHORT_U = 5123, INT_U = 5125, FLOAT = 5126 };

/* A 1x1 RGBA PNG: what every texture of the scenes shows. */
static const unsigned char tiny_png[] = {
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82};

void mcs_image_size(const mcs_scene *s, int t, uint32_t *width, uint32_t *height)
{
    *width = *height = 0;
    if (t < 0 || (uint32_t)t >= s->texture_count) return;
    /* every image is tiny_png (embedded or beside the scene): its IHDR,
     * big-endian width and height at bytes 16 and 20 */
    const unsigned char *p = tiny_png + 16;
    *width = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    *height = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
}

static const char *const form_names[] = {"gltf", "gltf-separate", "glb", "obj"};

const char *mcs_form_name(mcs_form f)
{
    return (unsigned)f < 4 ? form_names[f] : "?";
}

int mcs_form_parse(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, form_names[i]) == 0) return i;
    return -1;
}

typedef struct writer {
    const mcs_scene *s;
    cJSON *root, *views, *accessors;
    mcb_buf bin;
} writer;

static void align4(mcb_buf *b)
{
    while (b->size % 4) mcb_u8(b, 0);
}

/* Appends data as one bufferView; returns its index. */
static int add_view(writer *w, const void *data, size_t n, int target)
{
    align4(&w->bin);
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)w->bin.size);
    cJSON_AddNumberToObject(v, "byteLength", (double)n);
    if (target) cJSON_AddNumberToObject(v, "target", target);
    mcb_bytes(&w->bin, data, n);
    cJSON_AddItemToArray(w->views, v);
    return cJSON_GetArraySize(w->views) - 1;
}

static cJSON *numbers(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

/* A float accessor of count elements of `comps` components; min/max when asked. */
static int add_floats(writer *w, const float *v, uint32_t count, int comps, int minmax, int target)
{
    static const char *const types[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    int view = add_view(w, v, (size_t)count * comps * sizeof *v, target);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", view);
    cJSON_AddNumberToObject(a, "componentType", FLOAT);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", comps == 16 ? "MAT4" : types[comps]);
    if (minmax && count) {
        float lo[4], hi[4];
        for (int k = 0; k < comps; k++) lo[k] = hi[k] = v[k];
        for (uint32_t i = 1; i < count; i++)
            for (int k = 0; k < comps; k++) {
                float x = v[(size_t)i * comps + k];
                if (x < lo[k]) lo[k] = x;
                if (x > hi[k]) hi[k] = x;
            }
        cJSON_AddItemToObject(a, "min", numbers(lo, comps));
        cJSON_AddItemToObject(a, "max", numbers(hi, comps));
    }
    cJSON_AddItemToArray(w->accessors, a);
    return cJSON_GetArraySize(w->accessors) - 1;
}

/* An unsigned integer accessor: indices (SCALAR) or joints (VEC4). */
static int add_uints(writer *w, const uint32_t *v, uint32_t count, int bits, int comps, int target)
{
    size_t n = (size_t)count * comps, unit = (size_t)bits / 8;
    unsigned char *tmp = calloc(n * unit + 1, 1); /* calloc: count 0 writes nothing */
    if (!tmp) return -1;
    for (size_t i = 0; i < n; i++) {
        if (unit == 1) tmp[i] = (unsigned char)v[i];
        else if (unit == 2) tmp[2 * i] = (unsigned char)v[i], tmp[2 * i + 1] = (unsigned char)(v[i] >> 8);
        else
            for (int b = 0; b < 4; b++) tmp[4 * i + b] = (unsigned char)(v[i] >> (8 * b));
    }
    int view = add_view(w, tmp, n * unit, target);
    free(tmp);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", view);
    cJSON_AddNumberToObject(a, "componentType", unit == 1 ? BYTE : unit == 2 ? SHORT_U : INT_U);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", comps == 4 ? "VEC4" : "SCALAR");
    cJSON_AddItemToArray(w->accessors, a);
    return cJSON_GetArraySize(w->accessors) - 1;
}

/* JOINTS_n / WEIGHTS_n pairs, 4 influences each. */
static int add_skin_sets(writer *w, cJSON *attrs, const mcs_prim *p)
{
    int sets = p->influences / 4;
    uint32_t *j = malloc((size_t)p->vertex_count * 4 * sizeof *j + 1);
    float *wt = malloc((size_t)p->vertex_count * 4 * sizeof *wt + 1);
    if (!j || !wt) return free(j), free(wt), -1;
    for (int set = 0; set < sets; set++) {
        for (uint32_t v = 0; v < p->vertex_count; v++)
            for (int k = 0; k < 4; k++) {
                size_t src = (size_t)v * p->influences + (size_t)set * 4 + k;
                j[v * 4 + k] = p->joints[src];
                wt[v * 4 + k] = p->weights[src];
            }
        char name[32];
        snprintf(name, sizeof name, "JOINTS_%d", set & 7);
        int bits = 8;
        for (size_t k = 0; k < (size_t)p->vertex_count * 4; k++)
            if (j[k] > 255) bits = 16;
        cJSON_AddNumberToObject(attrs, name, add_uints(w, j, p->vertex_count, bits, 4, 34962));
        snprintf(name, sizeof name, "WEIGHTS_%d", set & 7);
        cJSON_AddNumberToObject(attrs, name, add_floats(w, wt, p->vertex_count, 4, 0, 34962));
    }
    free(j);
    free(wt);
    return 0;
}

static cJSON *prim_json(writer *w, const mcs_prim *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *attrs = cJSON_AddObjectToObject(o, "attributes");
    cJSON_AddNumberToObject(attrs, "POSITION", add_floats(w, p->pos, p->vertex_count, 3, 1, 34962));
    if (p->nrm) cJSON_AddNumberToObject(attrs, "NORMAL", add_floats(w, p->nrm, p->vertex_count, 3, 0, 34962));
    if (p->tan) cJSON_AddNumberToObject(attrs, "TANGENT", add_floats(w, p->tan, p->vertex_count, 4, 0, 34962));
    if (p->uv) cJSON_AddNumberToObject(attrs, "TEXCOORD_0", add_floats(w, p->uv, p->vertex_count, 2, 0, 34962));
    if (p->color) cJSON_AddNumberToObject(attrs, "COLOR_0", add_floats(w, p->color, p->vertex_count, 4, 0, 34962));
    if (p->influences) add_skin_sets(w, attrs, p);
    if (p->indices)
        cJSON_AddNumberToObject(o, "indices", add_uints(w, p->indices, p->index_count, p->index_bits, 1, 34963));
    if (p->material >= 0) cJSON_AddNumberToObject(o, "material", p->material);
    cJSON_AddNumberToObject(o, "mode", p->mode);
    return o;
}

static int is_default(const float *v, const float *d, int n)
{
    return memcmp(v, d, (size_t)n * sizeof *v) == 0;
}

static cJSON *node_json(const mcs_scene *s, uint32_t i)
{
    static const float zero[3] = {0, 0, 0}, one[3] = {1, 1, 1}, unit_q[4] = {0, 0, 0, 1};
    const mcs_node *n = &s->nodes[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", n->name);
    cJSON *kids = NULL;
    for (uint32_t k = 0; k < s->node_count; k++) {
        if (s->nodes[k].parent != (int)i) continue;
        if (!kids) kids = cJSON_AddArrayToObject(o, "children");
        cJSON_AddItemToArray(kids, cJSON_CreateNumber(k));
    }
    if (!is_default(n->t, zero, 3)) cJSON_AddItemToObject(o, "translation", numbers(n->t, 3));
    if (!is_default(n->r, unit_q, 4)) cJSON_AddItemToObject(o, "rotation", numbers(n->r, 4));
    if (!is_default(n->s, one, 3)) cJSON_AddItemToObject(o, "scale", numbers(n->s, 3));
    if (n->mesh >= 0) cJSON_AddNumberToObject(o, "mesh", n->mesh);
    if (n->skin >= 0) cJSON_AddNumberToObject(o, "skin", n->skin);
    return o;
}

static void add_skins(writer *w, const float *rest)
{
    if (!w->s->skin_count) return;
    cJSON *skins = cJSON_AddArrayToObject(w->root, "skins");
    for (uint32_t k = 0; k < w->s->skin_count; k++) {
        const mcs_skin *sk = &w->s->skins[k];
        float *ibm = malloc((size_t)sk->joint_count * 16 * sizeof *ibm + 1);
        if (!ibm) return;
        cJSON *o = cJSON_CreateObject(), *joints = cJSON_AddArrayToObject(o, "joints");
        for (uint32_t j = 0; j < sk->joint_count; j++) {
            cJSON_AddItemToArray(joints, cJSON_CreateNumber(sk->joints[j]));
            mcs_mat_invert(rest + (size_t)sk->joints[j] * 16, ibm + (size_t)j * 16);
        }
        cJSON_AddNumberToObject(o, "inverseBindMatrices", add_floats(w, ibm, sk->joint_count, 16, 0, 0));
        free(ibm);
        cJSON_AddItemToArray(skins, o);
    }
}

static void add_anims(writer *w)
{
    static const char *const paths[] = {"translation", "rotation", "scale"};
    static const char *const interps[] = {"LINEAR", "STEP", "CUBICSPLINE"};
    if (!w->s->anim_count) return;
    cJSON *anims = cJSON_AddArrayToObject(w->root, "animations");
    for (uint32_t a = 0; a < w->s->anim_count; a++) {
        const mcs_anim *an = &w->s->anims[a];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", an->name);
        cJSON *ch = cJSON_AddArrayToObject(o, "channels"), *sa = cJSON_AddArrayToObject(o, "samplers");
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const mcs_channel *cc = &an->channels[c];
            int comps = cc->path == MCS_R ? 4 : 3, per = cc->interp == MCS_CUBIC ? 3 : 1;
            cJSON *smp = cJSON_CreateObject();
            cJSON_AddNumberToObject(smp, "input", add_floats(w, cc->times, cc->key_count, 1, 1, 0));
            cJSON_AddStringToObject(smp, "interpolation", interps[cc->interp]);
            cJSON_AddNumberToObject(smp, "output",
                                    add_floats(w, cc->values, cc->key_count * per, comps, 0, 0));
            cJSON_AddItemToArray(sa, smp);
            cJSON *chan = cJSON_CreateObject();
            cJSON_AddNumberToObject(chan, "sampler", c);
            cJSON *target = cJSON_AddObjectToObject(chan, "target");
            cJSON_AddNumberToObject(target, "node", cc->node);
            cJSON_AddStringToObject(target, "path", paths[cc->path]);
            cJSON_AddItemToArray(ch, chan);
        }
        cJSON_AddItemToArray(anims, o);
    }
}

static char *base64(const unsigned char *p, size_t n, const char *prefix)
{
    size_t plen = strlen(prefix), len = 4 * ((n + 2) / 3);
    char *out = malloc(plen + len + 1);
    if (!out) return NULL;
    memcpy(out, prefix, plen);
    size_t done = 0, o = plen;
    while (done < n) { /* EVP_EncodeBlock takes an int length */
        size_t chunk = n - done < (1u << 24) ? n - done : (1u << 24);
        o += (size_t)EVP_EncodeBlock((unsigned char *)out + o, p + done, (int)chunk);
        done += chunk;
    }
    out[o] = '\0';
    return out;
}

static void add_materials(writer *w, mcs_form form)
{
    const mcs_scene *s = w->s;
    if (s->material_count) {
        cJSON *mats = cJSON_AddArrayToObject(w->root, "materials");
        for (uint32_t m = 0; m < s->material_count; m++) {
            cJSON *o = cJSON_CreateObject(), *pbr = cJSON_AddObjectToObject(o, "pbrMetallicRoughness");
            cJSON_AddStringToObject(o, "name", s->materials[m].name);
            cJSON_AddItemToObject(pbr, "baseColorFactor", numbers(s->materials[m].color, 4));
            if (s->materials[m].texture >= 0) {
                cJSON *t = cJSON_AddObjectToObject(pbr, "baseColorTexture");
                cJSON_AddNumberToObject(t, "index", s->materials[m].texture);
            }
            cJSON_AddItemToArray(mats, o);
        }
    }
    if (!s->texture_count) return;
    cJSON *texs = cJSON_AddArrayToObject(w->root, "textures");
    cJSON *imgs = cJSON_AddArrayToObject(w->root, "images");
    for (uint32_t t = 0; t < s->texture_count; t++) {
        cJSON *tex = cJSON_CreateObject(), *img = cJSON_CreateObject();
        cJSON_AddNumberToObject(tex, "source", t);
        cJSON_AddItemToArray(texs, tex);
        if (s->textures[t].file) {
            cJSON_AddStringToObject(img, "uri", s->textures[t].file);
        } else if (form == MCS_GLB) {
            cJSON_AddNumberToObject(img, "bufferView", add_view(w, tiny_png, sizeof tiny_png, 0));
            cJSON_AddStringToObject(img, "mimeType", "image/png");
        } else {
            char *uri = base64(tiny_png, sizeof tiny_png, "data:image/png;base64,");
            if (uri) cJSON_AddStringToObject(img, "uri", uri);
            free(uri);
        }
        cJSON_AddItemToArray(imgs, img);
    }
}

static cJSON *scene_json(writer *w, mcs_form form)
{
    const mcs_scene *s = w->s;
    cJSON *root = w->root = cJSON_CreateObject();
    cJSON *asset = cJSON_AddObjectToObject(root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "modelcheck scenes");
    cJSON_AddNumberToObject(root, "scene", 0);
    cJSON *scenes = cJSON_AddArrayToObject(root, "scenes"), *sc = cJSON_CreateObject();
    cJSON_AddStringToObject(sc, "name", s->name);
    cJSON *roots = s->node_count ? cJSON_AddArrayToObject(sc, "nodes") : NULL;
    for (uint32_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent < 0) cJSON_AddItemToArray(roots, cJSON_CreateNumber(i));
    cJSON_AddItemToArray(scenes, sc);
    if (s->node_count) {
        cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
        for (uint32_t i = 0; i < s->node_count; i++) cJSON_AddItemToArray(nodes, node_json(s, i));
    }
    w->views = cJSON_CreateArray();
    w->accessors = cJSON_CreateArray();
    if (s->mesh_count) {
        cJSON *meshes = cJSON_AddArrayToObject(root, "meshes");
        for (uint32_t m = 0; m < s->mesh_count; m++) {
            cJSON *o = cJSON_CreateObject(), *prims = cJSON_AddArrayToObject(o, "primitives");
            cJSON_AddStringToObject(o, "name", s->meshes[m].name);
            for (uint32_t p = 0; p < s->meshes[m].prim_count; p++)
                cJSON_AddItemToArray(prims, prim_json(w, &s->meshes[m].prims[p]));
            cJSON_AddItemToArray(meshes, o);
        }
    }
    float *rest = malloc(((size_t)s->node_count + 1) * 16 * sizeof *rest);
    if (rest) {
        mcs_node_globals(s, -1, 0, rest);
        add_skins(w, rest);
    }
    free(rest);
    add_anims(w);
    add_materials(w, form);
    if (w->bin.size) {
        align4(&w->bin);
        cJSON *bufs = cJSON_AddArrayToObject(root, "buffers"), *b = cJSON_CreateObject();
        cJSON_AddNumberToObject(b, "byteLength", (double)w->bin.size);
        if (form == MCS_GLTF_SEPARATE) {
            char uri[256];
            snprintf(uri, sizeof uri, "%s.bin", s->name);
            cJSON_AddStringToObject(b, "uri", uri);
        } else if (form == MCS_GLTF) {
            char *uri = base64(w->bin.data, w->bin.size, "data:application/octet-stream;base64,");
            if (uri) cJSON_AddStringToObject(b, "uri", uri);
            free(uri);
        }
        cJSON_AddItemToArray(bufs, b);
        cJSON_AddItemToObject(root, "bufferViews", w->views);
        cJSON_AddItemToObject(root, "accessors", w->accessors);
    } else {
        cJSON_Delete(w->views);
        cJSON_Delete(w->accessors);
    }
    return root;
}

static int write_bytes(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int rc = fwrite(p, 1, n, f) == n ? 0 : -1;
    if (fclose(f) != 0) rc = -1;
    return rc;
}

static int write_glb(const char *dir, const char *name, const char *json, const mcb_buf *bin)
{
    mcb_buf out = {0};
    size_t jlen = strlen(json), jpad = (4 - jlen % 4) % 4;
    size_t total = 12 + 8 + jlen + jpad + (bin->size ? 8 + bin->size : 0);
    mcb_u32(&out, 0x46546C67); /* "glTF" */
    mcb_u32(&out, 2);
    mcb_u32(&out, (uint32_t)total);
    mcb_u32(&out, (uint32_t)(jlen + jpad));
    mcb_u32(&out, 0x4E4F534A); /* JSON */
    mcb_bytes(&out, json, jlen);
    for (size_t i = 0; i < jpad; i++) mcb_u8(&out, ' ');
    if (bin->size) {
        mcb_u32(&out, (uint32_t)bin->size);
        mcb_u32(&out, 0x004E4942); /* BIN */
        mcb_bytes(&out, bin->data, bin->size);
    }
    int rc = out.oom ? -1 : write_bytes(dir, name, out.data, out.size);
    mcb_free(&out);
    return rc;
}

static int write_images(const mcs_scene *s, const char *dir)
{
    for (uint32_t t = 0; t < s->texture_count; t++)
        if (s->textures[t].file && write_bytes(dir, s->textures[t].file, tiny_png, sizeof tiny_png))
            return -1;
    return 0;
}

int mcs_write_form(const mcs_scene *s, mcs_form form, const char *dir, const char **main_file)
{
    static _Thread_local char file[300];
    static const char *const ext[] = {"gltf", "gltf", "glb", "obj"};
    if ((unsigned)form > MCS_OBJ) return -1;
    snprintf(file, sizeof file, "%s.%s", s->name, ext[form]);
    *main_file = file;
    if (form == MCS_OBJ) return s->has_obj ? mcs_write_obj(s, dir, file) : -1;
    writer w = {.s = s};
    cJSON *root = scene_json(&w, form);
    char *json = form == MCS_GLB ? cJSON_PrintUnformatted(root) : cJSON_Print(root);
    cJSON_Delete(root);
    int rc = json && !w.bin.oom ? 0 : -1;
    if (rc == 0 && form == MCS_GLB) rc = write_glb(dir, file, json, &w.bin);
    else if (rc == 0) {
        size_t n = strlen(json);
        json[n] = '\n'; /* cJSON leaves room: overwrite the NUL, write n + 1 bytes */
        rc = write_bytes(dir, file, json, n + 1);
        json[n] = '\0';
    }
    if (rc == 0 && form == MCS_GLTF_SEPARATE && w.bin.size) {
        char bin[300];
        snprintf(bin, sizeof bin, "%s.bin", s->name);
        rc = write_bytes(dir, bin, w.bin.data, w.bin.size);
    }
    if (rc == 0) rc = write_images(s, dir);
    free(json);
    mcb_free(&w.bin);
    return rc;
}
