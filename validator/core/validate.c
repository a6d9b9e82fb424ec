/*
 * The validation driver: options, format detection, running one module and
 * folding what it recorded into an mc_result.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MC_EXTERNAL_SHA256
#include <openssl/evp.h>
#endif
#include <pthread.h>

#include "mc_format.h"
#include "mc_reader.h"
#include "mc_validate.h"

/* Every format module, in detection order: magic-based formats first, so
 * the structural detector of legacy AAMF (no magic) never claims a file
 * another format recognises by its magic. */
static const mc_format_module *const modules[] = {
    &mc_aem_module,
    &mc_semodel_module,
    &mc_e3d_module,
    &mc_nlm_module,
    &mc_aamf_module,
};

#define MODULE_COUNT (sizeof modules / sizeof modules[0])

struct mc_severity_map {
    unsigned char severity[MC_CODE_COUNT];
};

mc_severity_map *mc_severity_map_new(void)
{
    mc_severity_map *m = malloc(sizeof *m);
    if (!m) return NULL;
    for (int i = 0; i < MC_CODE_COUNT; i++)
        m->severity[i] = (unsigned char)mc_code_get((mc_code)i)->severity;
    return m;
}

mc_severity_map *mc_severity_map_copy(const mc_severity_map *map)
{
    mc_severity_map *m = mc_severity_map_new();
    if (m && map) *m = *map;
    return m;
}

void mc_severity_map_free(mc_severity_map *map)
{
    free(map);
}

mc_status mc_severity_map_set(mc_severity_map *map, mc_code code, mc_severity severity)
{
    if (!map || (unsigned)code >= MC_CODE_COUNT || (unsigned)severity > MC_SEVERITY_IGNORE)
        return MC_ERR_INVALID_ARG;
    map->severity[code] = (unsigned char)severity;
    return MC_OK;
}

mc_severity mc_severity_map_get(const mc_severity_map *map, mc_code code)
{
    if ((unsigned)code >= MC_CODE_COUNT) return MC_SEVERITY_IGNORE;
    return map ? (mc_severity)map->severity[code] : mc_code_get(code)->severity;
}

void mc_options_init(mc_options *o)
{
    memset(o, 0, sizeof *o);
}

/* Khronos glTF-Validator defaults (docs/ISSUES.md, "Tolerances") */
static double tolerance_or(double v, double def)
{
    return v == 0.0 ? def : v < 0.0 ? 0.0 : v;
}

void mc_options_effective(const mc_options *o, mc_options *out)
{
    mc_options zero;
    if (!o) {
        memset(&zero, 0, sizeof zero);
        o = &zero;
    }
    *out = *o;
    out->max_instances = o->max_instances == 0 ? 10 : o->max_instances == MC_INSTANCES_NONE ? 0 : o->max_instances;
    out->weight_sum_tolerance = tolerance_or(o->weight_sum_tolerance, 2e-7);
    out->unit_tolerance = tolerance_or(o->unit_tolerance, 0.00674);
    out->quaternion_tolerance = tolerance_or(o->quaternion_tolerance, 0.00769);
    if (!o->max_file_bytes) out->max_file_bytes = UINT64_C(4) << 30;
    if (!o->max_depth) out->max_depth = 64;
    if (!o->max_decompressed_bytes) out->max_decompressed_bytes = UINT64_C(256) << 20;
    if (!o->work_factor) out->work_factor = 16;
}

void mc_settings_resolve(mc_settings *s, const mc_options *options)
{
    mc_options e;
    mc_options_effective(options, &e);
    s->format = e.format;
    s->max_instances = e.max_instances;
    s->weight_sum_tolerance = e.weight_sum_tolerance;
    s->unit_tolerance = e.unit_tolerance;
    s->quaternion_tolerance = e.quaternion_tolerance;
    s->max_file_bytes = e.max_file_bytes;
    s->max_depth = e.max_depth;
    s->max_decompressed_bytes = e.max_decompressed_bytes;
    s->work_factor = e.work_factor;
    s->skip_sha256 = e.skip_sha256;
    s->exact_only = false;
    for (int i = 0; i < MC_CODE_COUNT; i++)
        s->severity[i] = (unsigned char)mc_severity_map_get(e.severity, (mc_code)i);
}

static const mc_format_module *module_for(mc_format f)
{
    for (size_t i = 0; i < MODULE_COUNT; i++)
        if (modules[i]->format == f) return modules[i];
    return NULL;
}

int mc_format_supported(mc_format format)
{
    return format != MC_FORMAT_UNKNOWN && module_for(format) != NULL;
}

static const mc_format_module *detect(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < MODULE_COUNT; i++)
        if (modules[i]->detect(data, size)) return modules[i];
    return NULL;
}

static void report_unrecognized(mc_ctx *c)
{
    char tried[128] = "", first[3 * 8 + 1] = "";
    size_t used = 0;
    for (size_t i = 0; i < MODULE_COUNT; i++)
        used += (size_t)snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "",
                                 modules[i]->display_name);
    size_t n = c->size < 8 ? c->size : 8;
    for (size_t i = 0, at = 0; i < n; i++)
        at += (size_t)snprintf(first + at, sizeof first - at, "%s%02x", i ? " " : "", c->data[i]);
    mc_instance *in = mc_emit(c, MC_FILE_UNRECOGNIZED, 0);
    mc_path(in, "/");
    mc_msg(in, "content matches no supported format (tried: %s); first bytes: %s", tried, first);
}

static int compare_issues(const void *a, const void *b)
{
    const mc_issue *x = a, *y = b;
    if (x->first_offset != y->first_offset) return x->first_offset < y->first_offset ? -1 : 1;
    return (x->code > y->code) - (x->code < y->code);
}

mc_status mc_ctx_begin(mc_ctx *c, const uint8_t *data, size_t size, const mc_settings *opt,
                       mc_info *info)
{
    memset(c, 0, sizeof *c);
    c->data = data;
    c->size = size;
    c->opt = opt;
    c->info = info;
    c->layout = "";
    c->slots = calloc(MC_CODE_COUNT, sizeof *c->slots);
    if (!c->slots) return MC_ERR_NOMEM;
    uint64_t budget = UINT64_C(1) << 20;
    if (!mc_add_mul_u64(&budget, size, opt->work_factor)) budget = UINT64_MAX;
    c->work_left = budget;
    c->unit = mc_unit_bounds_make(opt->unit_tolerance);
    c->quaternion = mc_unit_bounds_make(opt->quaternion_tolerance);
    c->fast = !opt->exact_only;
    if (!c->fast) /* empty bounds: mc_surely_unit vouches for nothing */
        c->unit = c->quaternion = mc_unit_bounds_make(0.0);
    return MC_OK;
}

static void ctx_discard(mc_ctx *c)
{
    for (int i = 0; i < MC_CODE_COUNT; i++) free(c->slots[i].instances);
    free(c->slots);
    c->slots = NULL;
}

/* Moves the recorded issues into r and releases the context. */
mc_status mc_ctx_finish(mc_ctx *c, mc_result *r)
{
    if (c->nomem) {
        ctx_discard(c);
        return MC_ERR_NOMEM;
    }
    size_t fired = 0;
    for (int i = 0; i < MC_CODE_COUNT; i++) fired += c->slots[i].count > 0;
    r->issues = fired ? calloc(fired, sizeof *r->issues) : NULL;
    if (fired && !r->issues) {
        ctx_discard(c);
        return MC_ERR_NOMEM;
    }
    size_t k = 0;
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        mc_slot *s = &c->slots[i];
        if (s->count == 0) {
            free(s->instances);
            continue;
        }
        mc_issue *is = &r->issues[k++];
        is->code = (mc_code)i;
        is->severity = (mc_severity)c->opt->severity[i];
        is->count = s->count;
        is->first_offset = s->first_offset;
        is->instance_count = s->kept;
        is->instances = s->instances;
        if (s->kept < s->count) r->truncated = 1;
        r->counts[is->severity] += s->count;
    }
    r->issue_count = fired;
    r->layout = c->layout;
    if (fired) qsort(r->issues, fired, sizeof *r->issues, compare_issues);
    free(c->slots);
    c->slots = NULL;
    return MC_OK;
}

#ifdef MC_EXTERNAL_SHA256
/* The WebAssembly build (web/) has no OpenSSL: the platform hashes the bytes
 * (mc_validate.h, mc_platform_sha256). */
static void hash(mc_result *r, const uint8_t *data, size_t size)
{
    if (mc_platform_sha256(data, size, r->sha256) == 0) r->hashed = 1;
}
#else
static void hash(mc_result *r, const uint8_t *data, size_t size)
{
    unsigned int len = 0;
    if (EVP_Digest(data, size, r->sha256, &len, EVP_sha256(), NULL) == 1 && len == 32)
        r->hashed = 1;
}
#endif

/* SHA-256 costs about twice the checks (docs/PERFORMANCE.md): on a file large
 * enough to repay a thread's start (tens of microseconds), it runs on another
 * core over the same read-only mapping while the checks run, and the result
 * is joined before it is returned. Below the threshold, or when no thread can
 * be started, it runs inline: the digest is the same either way. */
#define HASH_THREAD_MIN_BYTES (UINT64_C(1) << 20)

typedef struct hash_job {
    mc_result *r;
    const uint8_t *data;
    size_t size;
    pthread_t thread;
    int running;
} hash_job;

static void *hash_thread(void *arg)
{
    hash_job *j = arg;
    hash(j->r, j->data, j->size);
    return NULL;
}

static void hash_start(hash_job *j, mc_result *r, const uint8_t *data, size_t size)
{
    j->r = r;
    j->data = data ? data : (const uint8_t *)"";
    j->size = size;
    j->running = size >= HASH_THREAD_MIN_BYTES &&
                 pthread_create(&j->thread, NULL, hash_thread, j) == 0;
    if (!j->running) hash(r, j->data, size);
}

static void hash_join(hash_job *j)
{
    if (j->running) pthread_join(j->thread, NULL);
    j->running = 0;
}

/* A file that parses but holds nothing to load: a truncated or empty
 * export (E3D cut at a top-level block boundary is otherwise valid: it has
 * no total size). Not beside an issue that is an error by default (whatever
 * severity it was given): the counts of a file that did not parse describe
 * nothing, and that issue already says enough. */
static void check_has_content(mc_ctx *c)
{
    const mc_info *i = c->info;
    if (i->vertices || i->triangles || i->bones || i->animations || i->sequences || i->keyframes)
        return;
    for (int k = 0; k < MC_CODE_COUNT; k++)
        if (c->slots[k].count && mc_code_get((mc_code)k)->severity == MC_SEVERITY_ERROR) return;
    mc_instance *in = mc_emit(c, MC_FILE_NO_CONTENT, 0);
    mc_path(in, "/");
    mc_msg(in, "no vertex, no bone and no animation in %" PRIu64 " bytes (%" PRIu64
           " meshes, %" PRIu64 " nodes, %" PRIu64 " materials, %" PRIu64 " textures)",
           (uint64_t)c->size, i->meshes, i->nodes, i->materials, i->textures);
}

/* A format forced (-f) on a file detection gives to another: the first
 * issue (the magic, nearly always) says so, or the user reads only that
 * the magic is wrong. */
static void note_forced_format(mc_ctx *c, const mc_format_module *forced)
{
    const mc_format_module *found = detect(c->data, c->size);
    if (!found || found == forced) return;
    mc_slot *first = NULL;
    for (int k = 0; k < MC_CODE_COUNT; k++)
        if (c->slots[k].kept && (!first || c->slots[k].first_offset < first->first_offset)) first = &c->slots[k];
    if (!first) return;
    mc_instance *in = &first->instances[0];
    size_t len = strlen(in->message);
    snprintf(in->message + len, sizeof in->message - len, "; detection says %s: check without -f %s",
             mc_format_name(found->format), mc_format_name(forced->format));
}

static void run_checks(mc_ctx *c, mc_result *r, uint64_t file_size)
{
    if (file_size > c->opt->max_file_bytes) {
        mc_instance *in = mc_emit(c, MC_FILE_TOO_LARGE, 0);
        mc_path(in, "/");
        mc_msg(in, "file is %" PRIu64 " bytes (limit %" PRIu64 ")", file_size,
               c->opt->max_file_bytes);
        return;
    }
    if (c->size == 0) {
        mc_instance *in = mc_emit(c, MC_FILE_EMPTY, 0);
        mc_path(in, "/");
        mc_msg(in, "file is empty (0 bytes)");
        return;
    }
    const mc_format_module *m = c->opt->format != MC_FORMAT_UNKNOWN
                                    ? module_for(c->opt->format)
                                    : detect(c->data, c->size);
    if (!m) {
        report_unrecognized(c);
        return;
    }
    r->format = m->format;
    m->validate(c);
    check_has_content(c);
    if (c->opt->format != MC_FORMAT_UNKNOWN) note_forced_format(c, m);
}

mc_result *mc_result_new(void)
{
    mc_result *r = calloc(1, sizeof *r);
    if (r) r->layout = "";
    return r;
}

mc_status mc_validate_sized(const uint8_t *data, size_t size, uint64_t file_size,
                            const mc_settings *options, mc_result **out)
{
    return mc_validate_sink(data, size, file_size, options, NULL, out);
}

mc_status mc_validate_sink(const uint8_t *data, size_t size, uint64_t file_size,
                           const mc_settings *options, mc_sink *sink, mc_result **out)
{
    if (!out || (!data && size)) return MC_ERR_INVALID_ARG;
    *out = NULL;
    if (options->format >= MC_FORMAT_COUNT ||
        (options->format != MC_FORMAT_UNKNOWN && !module_for(options->format)))
        return MC_ERR_INVALID_ARG;
    mc_result *r = mc_result_new();
    if (!r) return MC_ERR_NOMEM;
    r->size = file_size;
    mc_ctx c;
    mc_status st = mc_ctx_begin(&c, data, size, options, &r->info);
    c.sink = sink;
    if (st == MC_OK) {
        hash_job hj = {0};
        if (file_size <= options->max_file_bytes && !options->skip_sha256)
            hash_start(&hj, r, data, size);
        run_checks(&c, r, file_size);
        hash_join(&hj);
        st = mc_ctx_finish(&c, r);
    }
    if (st != MC_OK) {
        mc_result_free(r);
        return st;
    }
    *out = r;
    return MC_OK;
}

mc_status mc_validate_memory(const void *data, size_t size, const mc_options *options,
                             mc_result **out)
{
    mc_settings s;
    mc_settings_resolve(&s, options);
    return mc_validate_sized(data, size, size, &s, out);
}

void mc_result_free(mc_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->issue_count; i++) free(r->issues[i].instances);
    free(r->issues);
    free(r);
}

int mc_result_valid(const mc_result *r)
{
    return r && r->counts[MC_SEVERITY_ERROR] == 0;
}

const mc_issue *mc_result_find(const mc_result *r, mc_code code)
{
    if (!r) return NULL;
    for (size_t i = 0; i < r->issue_count; i++)
        if (r->issues[i].code == code) return &r->issues[i];
    return NULL;
}
