#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_report.h"

static void add_u64(cJSON *o, const char *k, uint64_t v)
{
    cJSON_AddNumberToObject(o, k, (double)v);
}

static cJSON *tool_json(void)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", "modelcheck");
    cJSON_AddStringToObject(t, "version", MC_VERSION_STRING);
    return t;
}

static cJSON *counts_json(const uint64_t counts[MC_SEVERITY_COUNT])
{
    cJSON *o = cJSON_CreateObject();
    for (int s = 0; s < MC_SEVERITY_COUNT; s++)
        add_u64(o, mc_severity_name((mc_severity)s), counts[s]);
    return o;
}

static cJSON *info_json(const mc_info *i)
{
    cJSON *o = cJSON_CreateObject();
    add_u64(o, "vertices", i->vertices);
    add_u64(o, "indices", i->indices);
    add_u64(o, "triangles", i->triangles);
    add_u64(o, "meshes", i->meshes);
    add_u64(o, "materials", i->materials);
    add_u64(o, "textures", i->textures);
    add_u64(o, "bones", i->bones);
    add_u64(o, "animations", i->animations);
    add_u64(o, "sequences", i->sequences);
    add_u64(o, "keyframes", i->keyframes);
    add_u64(o, "nodes", i->nodes);
    add_u64(o, "uv_layers", i->uv_layers);
    add_u64(o, "blend_shapes", i->blend_shapes);
    add_u64(o, "compressed_blocks", i->compressed_blocks);
    add_u64(o, "decompressed_bytes", i->decompressed_bytes);
    add_u64(o, "max_influences", i->max_influences);
    return o;
}

static cJSON *issue_json(const mc_issue *is)
{
    const mc_code_info *ci = mc_code_get(is->code);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "code", ci->name);
    cJSON_AddStringToObject(o, "severity", mc_severity_name(is->severity));
    cJSON_AddStringToObject(o, "summary", ci->summary);
    cJSON_AddStringToObject(o, "clause", ci->clause);
    add_u64(o, "count", is->count);
    add_u64(o, "first_offset", is->first_offset);
    cJSON *arr = cJSON_AddArrayToObject(o, "instances");
    for (size_t k = 0; k < is->instance_count; k++) {
        const mc_instance *in = &is->instances[k];
        cJSON *j = cJSON_CreateObject();
        add_u64(j, "offset", in->offset);
        if (in->has_payload_offset) add_u64(j, "payload_offset", in->payload_offset);
        cJSON_AddStringToObject(j, "path", in->path);
        cJSON_AddStringToObject(j, "message", in->message);
        cJSON_AddItemToArray(arr, j);
    }
    return o;
}

int mc_json_add_text(cJSON *o, const char *key, const char *s)
{
    int escaped;
    char *text = mc_utf8_escape(s, &escaped);
    if (!text) return -1;
    int rc = cJSON_AddStringToObject(o, key, text) ? 0 : -1;
    free(text);
    if (escaped && rc == 0) {
        char flag[64];
        snprintf(flag, sizeof flag, "%s_escaped", key);
        rc = cJSON_AddTrueToObject(o, flag) ? 0 : -1;
    }
    return rc;
}

int mc_report_passes(const mc_result *r, const mc_report_view *view)
{
    if (!mc_result_valid(r)) return 0;
    return !(view && view->werror && r->counts[MC_SEVERITY_WARNING] > 0);
}

mc_severity mc_report_level(const mc_report_view *view, mc_severity sev)
{
    return view && view->werror && sev == MC_SEVERITY_WARNING ? MC_SEVERITY_ERROR : sev;
}

cJSON *mc_report_file_json(const mc_result *r, const char *path, mc_status status)
{
    return mc_report_file_json_view(r, path, status, NULL);
}

cJSON *mc_report_file_json_view(const mc_result *r, const char *path, mc_status status,
                                const mc_report_view *view)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "tool", tool_json());
    mc_json_add_text(o, "path", path);
    add_u64(o, "size", r->size);
    if (r->hashed) {
        char hex[65];
        for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", r->sha256[i]);
        cJSON_AddStringToObject(o, "sha256", hex);
    } else {
        cJSON_AddNullToObject(o, "sha256");
    }
    cJSON_AddStringToObject(o, "format", mc_format_name(r->format));
    cJSON_AddStringToObject(o, "layout", r->layout);
    cJSON_AddBoolToObject(o, "readable", status != MC_ERR_IO);
    cJSON_AddBoolToObject(o, "valid", mc_report_passes(r, view));
    cJSON_AddItemToObject(o, "counts", counts_json(r->counts));
    cJSON_AddBoolToObject(o, "truncated", r->truncated);
    cJSON *arr = cJSON_AddArrayToObject(o, "issues");
    for (size_t i = 0; i < r->issue_count; i++) cJSON_AddItemToArray(arr, issue_json(&r->issues[i]));
    cJSON_AddItemToObject(o, "info", info_json(&r->info));
    return o;
}

void mc_summary_add(mc_run_summary *s, const mc_result *r, mc_status status)
{
    mc_summary_add_view(s, r, status, NULL);
}

void mc_summary_add_view(mc_run_summary *s, const mc_result *r, mc_status status, const mc_report_view *view)
{
    s->files++;
    if (status == MC_ERR_IO) s->unreadable++;
    else if (mc_report_passes(r, view)) s->valid++;
    else s->invalid++;
    for (int k = 0; k < MC_SEVERITY_COUNT; k++) {
        s->counts[k] += r->counts[k];
        if (view && k > (int)view->min_severity && status != MC_ERR_IO) s->hidden[k] += r->counts[k];
    }
    if ((unsigned)r->format < MC_FORMAT_COUNT) s->per_format[r->format]++;
}

cJSON *mc_report_settings_json(const mc_options *opt)
{
    mc_options e;
    mc_options_effective(opt, &e);
    opt = &e;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", opt->format ? mc_format_name(opt->format) : "auto");
    add_u64(o, "max_instances", opt->max_instances);
    cJSON_AddNumberToObject(o, "weight_sum_tolerance", opt->weight_sum_tolerance);
    cJSON_AddNumberToObject(o, "unit_tolerance", opt->unit_tolerance);
    cJSON_AddNumberToObject(o, "quaternion_tolerance", opt->quaternion_tolerance);
    add_u64(o, "max_file_bytes", opt->max_file_bytes);
    add_u64(o, "max_depth", opt->max_depth);
    add_u64(o, "max_decompressed_bytes", opt->max_decompressed_bytes);
    add_u64(o, "work_factor", opt->work_factor);
    cJSON *ov = cJSON_AddObjectToObject(o, "severity_overrides");
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        const mc_code_info *ci = mc_code_get((mc_code)i);
        mc_severity sev = mc_severity_map_get(opt->severity, (mc_code)i);
        if (sev != ci->severity) cJSON_AddStringToObject(ov, ci->name, mc_severity_name(sev));
    }
    return o;
}

int mc_json_write(FILE *out, const cJSON *item, int depth, size_t skip)
{
    char *text = cJSON_Print(item);
    if (!text) return -1;
    size_t len = strlen(text);
    /* cJSON escapes newlines inside strings: every newline here is layout */
    for (size_t i = skip < len ? skip : len, start = i; i <= len; i++) {
        if (i < len && text[i] != '\n') continue;
        fwrite(text + start, 1, i - start, out);
        if (i < len) {
            fputc('\n', out);
            for (int d = 0; d < depth; d++) fputc('\t', out);
        }
        start = i + 1;
    }
    free(text);
    return 0;
}

int mc_json_write_head(FILE *out, const cJSON *skeleton)
{
    char *text = cJSON_Print(skeleton);
    if (!text) return -1;
    char *open = NULL;
    for (char *p = strstr(text, "[]"); p; p = strstr(p + 1, "[]")) open = p;
    if (open) fwrite(text, 1, (size_t)(open - text) + 1, out);
    free(text);
    return open ? 0 : -1;
}

struct mc_json_report {
    FILE *out;
    uint64_t files;
    mc_report_view view;
};

mc_json_report *mc_json_report_begin(FILE *out, const mc_options *opt, cJSON *config)
{
    mc_report_view all = {.min_severity = MC_SEVERITY_HINT};
    return mc_json_report_begin_view(out, opt, config, &all);
}

mc_json_report *mc_json_report_begin_view(FILE *out, const mc_options *opt, cJSON *config,
                                          const mc_report_view *view)
{
    mc_json_report *w = calloc(1, sizeof *w);
    cJSON *o = cJSON_CreateObject();
    int rc = -1;
    if (w && o) {
        w->out = out;
        w->view = *view;
        cJSON_AddItemToObject(o, "tool", tool_json());
        cJSON *settings = mc_report_settings_json(opt);
        if (settings) cJSON_AddBoolToObject(settings, "werror", view->werror != 0);
        if (settings && config) cJSON_AddItemToObject(settings, "config", config), config = NULL;
        cJSON_AddItemToObject(o, "settings", settings);
        cJSON_AddArrayToObject(o, "files");
        rc = mc_json_write_head(out, o);
    }
    cJSON_Delete(o);
    cJSON_Delete(config);
    if (rc != 0) {
        free(w);
        return NULL;
    }
    return w;
}

int mc_json_report_file(mc_json_report *w, const mc_result *r, const char *path, mc_status status)
{
    return mc_json_report_file_with(w, r, path, status, NULL, NULL);
}

int mc_json_report_file_with(mc_json_report *w, const mc_result *r, const char *path, mc_status status,
                             const char *key, cJSON *item)
{
    cJSON *o = mc_report_file_json_view(r, path, status, &w->view);
    if (!o) {
        cJSON_Delete(item);
        return -1;
    }
    if (item) cJSON_AddItemToObject(o, key, item);
    if (w->files) fputs(", ", w->out);
    int rc = mc_json_write(w->out, o, 2, 0);
    cJSON_Delete(o);
    if (rc == 0) w->files++;
    return rc;
}

int mc_json_report_end(mc_json_report *w, const mc_run_summary *s)
{
    cJSON *sum = mc_report_summary_json(s);
    fputs("],\n\t\"summary\":\t", w->out);
    int rc = sum ? mc_json_write(w->out, sum, 1, 0) : -1;
    fputs("\n}\n", w->out);
    cJSON_Delete(sum);
    free(w);
    return rc;
}

cJSON *mc_report_summary_json(const mc_run_summary *s)
{
    cJSON *sum = cJSON_CreateObject();
    add_u64(sum, "files", s->files);
    add_u64(sum, "valid", s->valid);
    add_u64(sum, "invalid", s->invalid);
    add_u64(sum, "unreadable", s->unreadable);
    add_u64(sum, "skipped", s->skipped);
    if (s->baselined) add_u64(sum, "baselined", s->baselined);
    cJSON_AddItemToObject(sum, "counts", counts_json(s->counts));
    cJSON *pf = cJSON_AddObjectToObject(sum, "formats");
    for (int f = 0; f < MC_FORMAT_COUNT; f++)
        add_u64(pf, mc_format_name((mc_format)f), s->per_format[f]);
    return sum;
}
