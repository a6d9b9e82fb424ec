/* The toy exporters' glTF reader (gltf_read.h). */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_read.h"

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) free(p), p = NULL;
    fclose(f);
    if (p) p[n] = 0, *size = (size_t)n;
    return p;
}

static unsigned char *unbase64(const char *s, size_t *size)
{
    size_t n = strlen(s);
    unsigned char *out = malloc(n / 4 * 3 + 3);
    if (!out) return NULL;
    int got = EVP_DecodeBlock(out, (const unsigned char *)s, (int)n);
    if (got < 0) return free(out), NULL;
    size_t pad = n >= 2 && s[n - 1] == '=' ? (s[n - 2] == '=' ? 2 : 1) : 0;
    *size = (size_t)got - pad;
    return out;
}

typedef struct ctx {
    cJSON *doc;
    unsigned char *bin;
    size_t bin_size;
} ctx;

static int num(const cJSON *o, const char *key, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : dflt;
}

static const cJSON *item(const ctx *c, const char *array, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c->doc, array), i);
}

/* Reads accessor i as floats (comps per element); *count set. malloc'ed. */
static float *read_floats(const ctx *c, int i, int comps, uint32_t *count)
{
    const cJSON *a = item(c, "accessors", i);
    const cJSON *v = item(c, "bufferViews", num(a, "bufferView", -1));
    if (!a || !v) return NULL;
    uint32_t n = (uint32_t)num(a, "count", 0);
    int type = num(a, "componentType", 0);
    size_t off = (size_t)num(v, "byteOffset", 0) + (size_t)num(a, "byteOffset", 0);
    size_t unit = type == 5126 || type == 5125 ? 4 : type == 5123 ? 2 : 1;
    if (off + (size_t)n * comps * unit > c->bin_size) return NULL;
    float *out = malloc((size_t)n * comps * sizeof *out + 1);
    if (!out) return NULL;
    const unsigned char *p = c->bin + off;
    for (size_t k = 0; k < (size_t)n * comps; k++) {
        if (type == 5126) memcpy(&out[k], p + 4 * k, 4);
        else if (type == 5125) out[k] = (float)(p[4 * k] | p[4 * k + 1] << 8 | p[4 * k + 2] << 16 | (uint32_t)p[4 * k + 3] << 24);
        else if (type == 5123) out[k] = (float)(p[2 * k] | p[2 * k + 1] << 8);
        else out[k] = p[k];
    }
    *count = n;
    return out;
}

static uint32_t *read_uints(const ctx *c, int i, int comps, uint32_t *count)
{
    float *f = read_floats(c, i, comps, count);
    if (!f) return NULL;
    uint32_t *u = malloc((size_t)*count * comps * sizeof *u + 1);
    for (size_t k = 0; u && k < (size_t)*count * comps; k++) u[k] = (uint32_t)f[k];
    free(f);
    return u;
}

static int load_buffer(ctx *c, const char *path, const unsigned char *glb_bin, size_t glb_size)
{
    const cJSON *b = item(c, "buffers", 0);
    if (!b) return 0;
    const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(b, "uri"));
    if (!uri) {
        c->bin = malloc(glb_size + 1);
        if (c->bin) memcpy(c->bin, glb_bin, glb_size), c->bin_size = glb_size;
        return c->bin ? 0 : -1;
    }
    const char *comma = strchr(uri, ',');
    if (strncmp(uri, "data:", 5) == 0 && comma) {
        c->bin = unbase64(comma + 1, &c->bin_size);
        return c->bin ? 0 : -1;
    }
    char full[4096];
    const char *slash = strrchr(path, '/');
    snprintf(full, sizeof full, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, uri);
    c->bin = slurp(full, &c->bin_size);
    return c->bin ? 0 : -1;
}

static void read_prim(const ctx *c, const cJSON *p, gr_prim *out)
{
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(p, "attributes");
    uint32_t n = 0, k;
    out->mode = num(p, "mode", 4);
    out->material = num(p, "material", -1);
    out->pos = read_floats(c, num(at, "POSITION", -1), 3, &n);
    out->vertex_count = n;
    if (num(at, "NORMAL", -1) >= 0) out->nrm = read_floats(c, num(at, "NORMAL", -1), 3, &k);
    if (num(at, "TANGENT", -1) >= 0) out->tan = read_floats(c, num(at, "TANGENT", -1), 4, &k);
    if (num(at, "TEXCOORD_0", -1) >= 0) out->uv = read_floats(c, num(at, "TEXCOORD_0", -1), 2, &k);
    if (num(at, "COLOR_0", -1) >= 0) out->color = read_floats(c, num(at, "COLOR_0", -1), 4, &k);
    int sets = num(at, "JOINTS_1", -1) >= 0 ? 2 : num(at, "JOINTS_0", -1) >= 0 ? 1 : 0;
    out->influences = sets * 4;
    if (sets) {
        out->joints = calloc((size_t)n * out->influences + 1, sizeof *out->joints);
        out->weights = calloc((size_t)n * out->influences + 1, sizeof *out->weights);
        for (int s = 0; s < sets && out->joints && out->weights; s++) {
            char jn[16], wn[16];
            snprintf(jn, sizeof jn, "JOINTS_%d", s & 1);
            snprintf(wn, sizeof wn, "WEIGHTS_%d", s & 1);
            uint32_t *j = read_uints(c, num(at, jn, -1), 4, &k);
            float *w = read_floats(c, num(at, wn, -1), 4, &k);
            for (uint32_t v = 0; j && w && v < n; v++)
                for (int q = 0; q < 4; q++) {
                    out->joints[(size_t)v * out->influences + (size_t)s * 4 + q] = j[v * 4 + q];
                    out->weights[(size_t)v * out->influences + (size_t)s * 4 + q] = w[v * 4 + q];
                }
            free(j), free(w);
        }
    }
    if (num(p, "indices", -1) >= 0) {
        out->indices = read_uints(c, num(p, "indices", -1), 1, &out->index_count);
    } else {
        out->indices = malloc(((size_t)n + 1) * sizeof *out->indices);
        for (uint32_t v = 0; out->indices && v < n; v++) out->indices[v] = v;
        out->index_count = n;
    }
}

static void copy_floats(const cJSON *a, float *out, int n)
{
    for (int i = 0; i < n && i < cJSON_GetArraySize(a); i++) out[i] = (float)cJSON_GetArrayItem(a, i)->valuedouble;
}

static void read_nodes(const ctx *c, gr_scene *s)
{
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(c->doc, "nodes");
    s->node_count = (uint32_t)cJSON_GetArraySize(nodes);
    s->nodes = calloc(s->node_count + 1, sizeof *s->nodes);
    for (uint32_t i = 0; s->nodes && i < s->node_count; i++) {
        const cJSON *n = cJSON_GetArrayItem(nodes, (int)i);
        gr_node *g = &s->nodes[i];
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(n, "name"));
        g->name = strdup(name ? name : "");
        g->parent = -1;
        g->mesh = num(n, "mesh", -1), g->skin = num(n, "skin", -1);
        g->r[3] = 1, g->s[0] = g->s[1] = g->s[2] = 1;
        copy_floats(cJSON_GetObjectItemCaseSensitive(n, "translation"), g->t, 3);
        copy_floats(cJSON_GetObjectItemCaseSensitive(n, "rotation"), g->r, 4);
        copy_floats(cJSON_GetObjectItemCaseSensitive(n, "scale"), g->s, 3);
        mcs_mat_compose(g->t, g->r, g->s, g->local);
    }
    for (uint32_t i = 0; s->nodes && i < s->node_count; i++) {
        const cJSON *kids = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nodes, (int)i), "children");
        for (int k = 0; k < cJSON_GetArraySize(kids); k++) {
            int child = cJSON_GetArrayItem(kids, k)->valueint;
            if (child >= 0 && (uint32_t)child < s->node_count) s->nodes[child].parent = (int)i;
        }
    }
}

static void read_anims(const ctx *c, gr_scene *s)
{
    const cJSON *anims = cJSON_GetObjectItemCaseSensitive(c->doc, "animations");
    s->anim_count = (uint32_t)cJSON_GetArraySize(anims);
    s->anims = calloc(s->anim_count + 1, sizeof *s->anims);
    for (uint32_t a = 0; s->anims && a < s->anim_count; a++) {
        const cJSON *an = cJSON_GetArrayItem(anims, (int)a);
        const cJSON *chs = cJSON_GetObjectItemCaseSensitive(an, "channels");
        const cJSON *sms = cJSON_GetObjectItemCaseSensitive(an, "samplers");
        gr_anim *g = &s->anims[a];
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(an, "name"));
        g->name = strdup(name ? name : "");
        g->channel_count = (uint32_t)cJSON_GetArraySize(chs);
        g->channels = calloc(g->channel_count + 1, sizeof *g->channels);
        for (uint32_t k = 0; g->channels && k < g->channel_count; k++) {
            const cJSON *ch = cJSON_GetArrayItem(chs, (int)k);
            const cJSON *tg = cJSON_GetObjectItemCaseSensitive(ch, "target");
            const cJSON *sm = cJSON_GetArrayItem(sms, num(ch, "sampler", 0));
            const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tg, "path"));
            const char *ip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sm, "interpolation"));
            mcs_channel *m = &g->channels[k];
            m->node = num(tg, "node", 0);
            m->path = path && !strcmp(path, "rotation") ? MCS_R : path && !strcmp(path, "scale") ? MCS_S : MCS_T;
            m->interp = ip && !strcmp(ip, "STEP") ? MCS_STEP : ip && !strcmp(ip, "CUBICSPLINE") ? MCS_CUBIC : MCS_LINEAR;
            uint32_t n = 0;
            m->times = read_floats(c, num(sm, "input", -1), 1, &m->key_count);
            m->values = read_floats(c, num(sm, "output", -1), m->path == MCS_R ? 4 : 3, &n);
            if (m->key_count && m->times[m->key_count - 1] > g->duration) g->duration = m->times[m->key_count - 1];
        }
    }
}

static void read_rest(const ctx *c, gr_scene *s)
{
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(c->doc, "meshes");
    s->mesh_count = (uint32_t)cJSON_GetArraySize(meshes);
    s->meshes = calloc(s->mesh_count + 1, sizeof *s->meshes);
    for (uint32_t m = 0; s->meshes && m < s->mesh_count; m++) {
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(meshes, (int)m), "primitives");
        s->meshes[m].prim_count = (uint32_t)cJSON_GetArraySize(prims);
        s->meshes[m].prims = calloc(s->meshes[m].prim_count + 1, sizeof(gr_prim));
        for (uint32_t p = 0; s->meshes[m].prims && p < s->meshes[m].prim_count; p++)
            read_prim(c, cJSON_GetArrayItem(prims, (int)p), &s->meshes[m].prims[p]);
    }
    const cJSON *skins = cJSON_GetObjectItemCaseSensitive(c->doc, "skins");
    s->skin_count = (uint32_t)cJSON_GetArraySize(skins);
    s->skins = calloc(s->skin_count + 1, sizeof *s->skins);
    for (uint32_t k = 0; s->skins && k < s->skin_count; k++) {
        const cJSON *sk = cJSON_GetArrayItem(skins, (int)k);
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(sk, "joints");
        gr_skin *g = &s->skins[k];
        g->joint_count = (uint32_t)cJSON_GetArraySize(j);
        g->joints = calloc(g->joint_count + 1, sizeof *g->joints);
        for (uint32_t q = 0; g->joints && q < g->joint_count; q++) g->joints[q] = cJSON_GetArrayItem(j, (int)q)->valueint;
        uint32_t n;
        g->ibm = read_floats(c, num(sk, "inverseBindMatrices", -1), 16, &n);
    }
    const cJSON *mats = cJSON_GetObjectItemCaseSensitive(c->doc, "materials");
    s->material_count = (uint32_t)cJSON_GetArraySize(mats);
    s->materials = calloc(s->material_count + 1, sizeof *s->materials);
    for (uint32_t m = 0; s->materials && m < s->material_count; m++) {
        const cJSON *pbr = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(mats, (int)m), "pbrMetallicRoughness");
        const cJSON *bt = cJSON_GetObjectItemCaseSensitive(pbr, "baseColorTexture");
        int tex = num(bt, "index", -1);
        s->materials[m].texture = tex >= 0 ? num(item(c, "textures", tex), "source", -1) : -1;
    }
    const cJSON *imgs = cJSON_GetObjectItemCaseSensitive(c->doc, "images");
    s->image_count = (uint32_t)cJSON_GetArraySize(imgs);
    s->images = calloc(s->image_count + 1, sizeof *s->images);
    for (uint32_t i = 0; s->images && i < s->image_count; i++) {
        const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(imgs, (int)i), "uri"));
        s->images[i] = strdup(uri && strncmp(uri, "data:", 5) != 0 ? uri : "");
    }
}

/* Width and height from a PNG's IHDR (big-endian at 16 and 20); 0 0 when
 * the bytes are no PNG. */
static void png_size(const unsigned char *p, size_t n, uint32_t *wh)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    wh[0] = wh[1] = 0;
    if (!p || n < 24 || memcmp(p, sig, 8) != 0 || memcmp(p + 12, "IHDR", 4) != 0) return;
    for (int k = 0; k < 2; k++)
        wh[k] = (uint32_t)p[16 + 4 * k] << 24 | (uint32_t)p[17 + 4 * k] << 16 | (uint32_t)p[18 + 4 * k] << 8 | p[19 + 4 * k];
}

/* Each image's size: a data: URI, a buffer view or a file beside the scene. */
static void read_image_sizes(const ctx *c, const char *path, gr_scene *s)
{
    s->image_size = calloc((size_t)s->image_count * 2 + 2, sizeof *s->image_size);
    for (uint32_t i = 0; s->image_size && i < s->image_count; i++) {
        const cJSON *img = item(c, "images", (int)i);
        const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(img, "uri"));
        size_t n = 0;
        unsigned char *bytes = NULL;
        if (uri && strncmp(uri, "data:", 5) == 0 && strchr(uri, ',')) {
            bytes = unbase64(strchr(uri, ',') + 1, &n);
        } else if (uri) {
            char full[4096];
            const char *slash = strrchr(path, '/');
            snprintf(full, sizeof full, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, uri);
            bytes = slurp(full, &n);
        } else {
            const cJSON *v = item(c, "bufferViews", num(img, "bufferView", -1));
            size_t off = (size_t)num(v, "byteOffset", 0), len = (size_t)num(v, "byteLength", 0);
            if (v && off <= c->bin_size && len <= c->bin_size - off) png_size(c->bin + off, len, &s->image_size[2 * i]);
            continue;
        }
        png_size(bytes, n, &s->image_size[2 * i]);
        free(bytes);
    }
}

int gr_load(const char *path, gr_scene *out)
{
    memset(out, 0, sizeof *out);
    size_t size;
    unsigned char *file = slurp(path, &size);
    if (!file) return fprintf(stderr, "cannot read %s\n", path), -1;
    ctx c = {0};
    const unsigned char *glb_bin = NULL;
    size_t glb_size = 0;
    if (size >= 20 && memcmp(file, "glTF", 4) == 0) {
        uint32_t jlen = file[12] | file[13] << 8 | file[14] << 16 | (uint32_t)file[15] << 24;
        if (20 + (size_t)jlen > size) return free(file), fprintf(stderr, "bad glb\n"), -1;
        c.doc = cJSON_ParseWithLength((const char *)file + 20, jlen);
        if (20 + (size_t)jlen + 8 <= size) {
            const unsigned char *h = file + 20 + jlen;
            glb_size = h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
            glb_bin = h + 8;
            if (glb_size > size - (20 + jlen + 8)) glb_size = size - (20 + jlen + 8);
        }
    } else {
        c.doc = cJSON_Parse((const char *)file);
    }
    int rc = c.doc && load_buffer(&c, path, glb_bin, glb_size) == 0 ? 0 : -1;
    if (rc == 0) {
        read_nodes(&c, out);
        read_rest(&c, out);
        read_anims(&c, out);
        read_image_sizes(&c, path, out);
    } else {
        fprintf(stderr, "%s: not glTF this reader understands\n", path);
    }
    free(file);
    free(c.bin);
    cJSON_Delete(c.doc);
    return rc;
}

void gr_local_trs(const gr_scene *s, int a, float t, uint32_t i, float tr[3], float r[4], float sc[3])
{
    memcpy(tr, s->nodes[i].t, 3 * sizeof *tr);
    memcpy(r, s->nodes[i].r, 4 * sizeof *r);
    memcpy(sc, s->nodes[i].s, 3 * sizeof *sc);
    if (a < 0) return;
    for (uint32_t k = 0; k < s->anims[a].channel_count; k++) {
        const mcs_channel *c = &s->anims[a].channels[k];
        if (c->node == (int)i) mcs_channel_sample(c, t, c->path == MCS_T ? tr : c->path == MCS_R ? r : sc);
    }
}

void gr_world(const gr_scene *s, int a, float t, uint32_t i, float out[16])
{
    float tr[3], r[4], sc[3], m[16];
    gr_local_trs(s, a, t, i, tr, r, sc);
    mcs_mat_compose(tr, r, sc, out);
    uint32_t guard = 0;
    for (int p = s->nodes[i].parent; p >= 0 && guard++ < s->node_count; p = s->nodes[p].parent) {
        gr_local_trs(s, a, t, (uint32_t)p, tr, r, sc);
        mcs_mat_compose(tr, r, sc, m);
        mcs_mat_mul(m, out, out);
    }
}

void gr_free(gr_scene *s)
{
    for (uint32_t i = 0; s->nodes && i < s->node_count; i++) free(s->nodes[i].name);
    for (uint32_t m = 0; s->meshes && m < s->mesh_count; m++) {
        for (uint32_t p = 0; s->meshes[m].prims && p < s->meshes[m].prim_count; p++) {
            gr_prim *q = &s->meshes[m].prims[p];
            free(q->pos), free(q->nrm), free(q->tan), free(q->uv), free(q->color), free(q->joints), free(q->weights), free(q->indices);
        }
        free(s->meshes[m].prims);
    }
    for (uint32_t k = 0; s->skins && k < s->skin_count; k++) free(s->skins[k].joints), free(s->skins[k].ibm);
    for (uint32_t a = 0; s->anims && a < s->anim_count; a++) {
        for (uint32_t k = 0; s->anims[a].channels && k < s->anims[a].channel_count; k++)
            free(s->anims[a].channels[k].times), free(s->anims[a].channels[k].values);
        free(s->anims[a].channels), free(s->anims[a].name);
    }
    for (uint32_t i = 0; s->images && i < s->image_count; i++) free(s->images[i]);
    free(s->nodes), free(s->meshes), free(s->skins), free(s->anims), free(s->materials), free(s->images);
    free(s->image_size);
    memset(s, 0, sizeof *s);
}
