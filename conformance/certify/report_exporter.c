/*
 * Exporter certificates (docs/CERTIFY.md, "Certify an exporter"): text,
 * JSON (reports/schema/exporter-certificate.schema.json), JUnit XML (one
 * testsuite for the format, one testcase per scene) and a self-contained
 * HTML page. Cases in scene order; reproducible bytes unless timings or a
 * timestamp are asked for.
 */
#include <math.h>
#include <string.h>

#include "mc_certify_report.h"
#include "mc_report.h"
#include "mc_exporter.h"
#include "mc_scene_json.h"

/* The group table's columns: a short name per verdict (the legend under
 * the table spells them out), only for verdicts the run has, so that the
 * table stays within 100 columns whatever happens. */
static const char *const short_names[] = {"conf",  "refus", "fail",  "inval", "unfth", "crash", "hang",
                                          "noout", "error", "skip", "scope", "leak",  "oom"};
_Static_assert(sizeof short_names / sizeof *short_names == MCX_VERDICT_COUNT, "one per verdict");

static int shown_column(const mcx_run *run, int v)
{
    return v == MCX_CONFORMING || run->total.verdict[v] > 0;
}

static void put_counts_row(FILE *out, const mcx_run *run, const char *name, const mcx_counts *c)
{
    fprintf(out, "%-12.12s %4u", name, c->total);
    for (int v = 0; v < MCX_VERDICT_COUNT; v++)
        if (shown_column(run, v)) fprintf(out, " %5u", c->verdict[v]);
    fprintf(out, " %6.1f%%\n", mcx_score(c));
}

static void put_group_table(FILE *out, const mcx_run *run)
{
    fprintf(out, "\n%-12s %4s", "group", "runs");
    for (int v = 0; v < MCX_VERDICT_COUNT; v++)
        if (shown_column(run, v)) fprintf(out, " %5s", short_names[v]);
    fprintf(out, " %7s\n", "score");
    for (size_t g = 0; g < run->group_count; g++) put_counts_row(out, run, run->groups[g].name, &run->groups[g].counts);
    put_counts_row(out, run, "total", &run->total);
    size_t col = 0;
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) {
        if (!shown_column(run, v)) continue;
        char item[48];
        int n = snprintf(item, sizeof item, "%s%s %s", col ? ", " : "(", short_names[v], mcx_verdict_label((mcx_verdict)v));
        if (col && col + (size_t)n > 96) fputs(",\n", out), col = 0, n = snprintf(item, sizeof item, " %s %s", short_names[v], mcx_verdict_label((mcx_verdict)v));
        fputs(item, out);
        col += (size_t)n;
    }
    fputs(")\n", out);
}

/* "unfaithful: 3 lost or changed fact(s): first; ..." without the first
 * finding, which the list under it shows. */
static void put_head(FILE *out, const mcx_case *c)
{
    const char *d = c->detail ? c->detail : "";
    const char *second = strstr(d, ": ");
    second = second ? strstr(second + 2, ": ") : NULL;
    if (c->verdict == MCX_UNFAITHFUL && c->findings.count && second)
        fprintf(out, "%-14s %s: %.*s:\n", mcx_verdict_name(c->verdict), c->scene, (int)(second - d), d);
    else
        fprintf(out, "%-14s %s: %s\n", mcx_verdict_name(c->verdict), c->scene, d);
}

static const char *form_text(const mcx_run *run)
{
    return mcs_form_name(run->opt.form);
}

/* The run's conventions as the certificates name them, once: the geometric
 * ones with the cases that needed them, then animations looping where that
 * is the run's reading (docs/CERTIFY.md, Conventions); "" for none. */
static void conventions_line(const mcx_run *run, char *buf, size_t size)
{
    char geo[320];
    size_t used = 0;
    buf[0] = '\0';
    mcx_convention_text(&run->convention, 0, geo, sizeof geo);
    if (geo[0])
        used = (size_t)snprintf(buf, size, "%s (%u case%s faithful only under them)", geo, run->convention_cases,
                                run->convention_cases == 1 ? "" : "s");
    if (run->loop == MCX_LOOP_WRAP && used < size)
        snprintf(buf + used, size - used,
                 "%sanimations looping, the last frame wrapping to the first (%u case%s; a runtime that does not "
                 "wrap plays them one frame short)",
                 used ? "; " : "", run->loop_cases, run->loop_cases == 1 ? "" : "s");
}

void mcx_report_text(FILE *out, const mcx_report *r)
{
    const mcx_run *run = r->run;
    fputs("modelcheck certify: exporter ", out);
    mcc_put_shown(out, run->opt.command, "'");
    fprintf(out, " to %s, scenes as %s (%zu case%s)\n", run->opt.format, form_text(run), run->count, run->count == 1 ? "" : "s");
    if (r->timestamp) fprintf(out, "at %s\n", r->timestamp);
    unsigned warned = 0;
    for (size_t i = 0; i < run->count; i++) {
        const mcx_case *c = &run->cases[i];
        /* a conforming case is listed only for its validator warnings */
        if ((c->verdict == MCX_CONFORMING && !c->warning_count) || c->verdict == MCX_OUT_OF_SCOPE) continue;
        warned += c->verdict == MCX_CONFORMING;
        put_head(out, c);
        if (c->verdict == MCX_INVALID || c->verdict == MCX_UNFAITHFUL)
            for (unsigned k = 0; k < c->findings.count && k < MCX_MAX_FINDINGS; k++)
                fprintf(out, "    %s\n", c->findings.items[k]);
        if (c->findings.count > MCX_MAX_FINDINGS && (c->verdict == MCX_INVALID || c->verdict == MCX_UNFAITHFUL))
            fprintf(out, "    ... (%u in all)\n", c->findings.count);
    }
    unsigned out_of_scope = run->total.verdict[MCX_OUT_OF_SCOPE];
    if (out_of_scope) {
        fprintf(out, "out of scope (--scope %s), not run, not scored: ", run->opt.scope ? run->opt.scope : "");
        for (size_t i = 0, k = 0; i < run->count; i++)
            if (run->cases[i].verdict == MCX_OUT_OF_SCOPE) fprintf(out, "%s%s", k++ ? ", " : "", run->cases[i].scene);
        fprintf(out, " (%u scene%s)\n", out_of_scope, out_of_scope == 1 ? "" : "s");
    }
    put_group_table(out, run);
    char conv[800];
    conventions_line(run, conv, sizeof conv);
    if (conv[0]) fprintf(out, "\nconventions%s: %s", run->opt.convention ? " (demanded)" : "", conv);
    fprintf(out, "\ncertificate (%s exporter): %s, %.1f%% (%u conforming, %u correctly refused, of %u)\n",
            run->opt.format, mcx_counts_pass(&run->total) ? "CONFORMING" : "NOT CONFORMING", mcx_score(&run->total),
            run->total.verdict[MCX_CONFORMING], run->total.verdict[MCX_REFUSED],
            run->total.total - run->total.verdict[MCX_SKIPPED] - run->total.verdict[MCX_OUT_OF_SCOPE]);
    if (warned)
        fprintf(out, "%u conforming case%s with validator warnings (listed above; --werror fails them)\n", warned,
                warned == 1 ? "" : "s");
}

/* ---- JSON ------------------------------------------------------------------------ */

static void add_counts(cJSON *o, const mcx_counts *c)
{
    cJSON_AddNumberToObject(o, "runs", c->total);
    cJSON *v = cJSON_AddObjectToObject(o, "verdicts");
    for (int k = 0; k < MCX_VERDICT_COUNT; k++) cJSON_AddNumberToObject(v, mcx_verdict_name((mcx_verdict)k), c->verdict[k]);
    cJSON_AddNumberToObject(o, "score", mcx_score(c));
    cJSON_AddBoolToObject(o, "conforming", mcx_counts_pass(c));
}

static cJSON *string_list(char *const *items, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(items[i]));
    return a;
}

static cJSON *case_json(const mcx_report *r, const mcx_case *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "scene", c->scene);
    cJSON_AddStringToObject(o, "group", c->group);
    cJSON_AddStringToObject(o, "feature", c->feature);
    cJSON_AddStringToObject(o, "fit", mcs_fit_name(c->fit));
    cJSON_AddStringToObject(o, "fit_note", c->note);
    cJSON_AddStringToObject(o, "verdict", mcx_verdict_name(c->verdict));
    cJSON_AddStringToObject(o, "detail", c->detail ? c->detail : "");
    if (c->verdict != MCX_SKIPPED && c->verdict != MCX_OUT_OF_SCOPE && c->verdict != MCX_ERROR && c->exit_code >= 0)
        cJSON_AddNumberToObject(o, "exit_code", c->exit_code);
    else
        cJSON_AddNullToObject(o, "exit_code");
    if (c->signal) cJSON_AddNumberToObject(o, "signal", c->signal);
    else cJSON_AddNullToObject(o, "signal");
    cJSON_AddNumberToObject(o, "output_bytes", (double)c->output_bytes);
    cJSON_AddItemToObject(o, "errors", string_list(c->errors, c->error_count));
    cJSON_AddItemToObject(o, "warnings", string_list(c->warnings, c->warning_count));
    cJSON_AddItemToObject(o, "findings", string_list(c->findings.items,
                                                     c->findings.count < MCX_MAX_FINDINGS ? c->findings.count : MCX_MAX_FINDINGS));
    cJSON_AddNumberToObject(o, "finding_count", c->findings.count);
    char conv[320] = "";
    if (c->judged && c->judgement.explained) mcx_convention_text(&c->judgement.used, c->judgement.uv_vertices, conv, sizeof conv);
    if (conv[0]) cJSON_AddStringToObject(o, "convention", conv);
    else cJSON_AddNullToObject(o, "convention");
    if (!mcx_verdict_passes(c->verdict) && c->verdict != MCX_SKIPPED && c->verdict != MCX_OUT_OF_SCOPE && c->stderr_tail)
        cJSON_AddStringToObject(o, "stderr_tail", c->stderr_tail);
    if (r->timings) cJSON_AddNumberToObject(o, "duration_ms", round(c->duration_ms * 10) / 10);
    return o;
}

static void add_conventions(cJSON *o, const mcx_run *run)
{
    static const char *const ups[MCX_UP_COUNT] = {"y", "z", "-z", "x", "-x", "-y"};
    const mcx_convention *c = &run->convention;
    char text[320];
    mcx_convention_text(c, 0, text, sizeof text);
    cJSON_AddStringToObject(o, "uv_origin", c->flip_v > 0 ? "bottom-left" : "top-left");
    cJSON_AddStringToObject(o, "up", ups[c->up >= 0 && c->up < MCX_UP_COUNT ? c->up : 0]);
    cJSON_AddNumberToObject(o, "scale", c->scale > 0 ? c->scale : 1);
    cJSON_AddStringToObject(o, "winding", c->reversed > 0 ? "cw" : "ccw");
    cJSON_AddStringToObject(o, "text", text);
    cJSON_AddBoolToObject(o, "demanded", run->opt.convention != NULL);
    cJSON_AddNumberToObject(o, "cases", run->convention_cases);
    cJSON_AddNumberToObject(o, "looping_cases", run->loop_cases);
    cJSON_AddStringToObject(o, "loop", run->loop == MCX_LOOP_WRAP  ? "looping"
                                       : run->loop == MCX_LOOP_END ? "end"
                                                                   : "either");
}

cJSON *mcx_report_json(const mcx_report *r)
{
    const mcx_run *run = r->run;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "certificate_version", "1");
    cJSON_AddStringToObject(doc, "tool", "modelcheck certify --exporter");
    cJSON_AddStringToObject(doc, "tool_version", r->version);
    if (r->timestamp) cJSON_AddStringToObject(doc, "generated_at", r->timestamp);
    cJSON *ex = cJSON_AddObjectToObject(doc, "exporter");
    mcc_json_add_clean(ex, "command", run->opt.command);
    if (run->opt.output_name) mcc_json_add_clean(ex, "output_name", run->opt.output_name);
    else cJSON_AddNullToObject(ex, "output_name");
    cJSON_AddStringToObject(ex, "format", run->opt.format);
    cJSON *settings = cJSON_AddObjectToObject(doc, "settings");
    cJSON_AddStringToObject(settings, "scene_format", form_text(run));
    cJSON_AddNumberToObject(settings, "timeout_s", run->opt.timeout_s);
    cJSON_AddNumberToObject(settings, "max_output_bytes", (double)run->opt.max_output_bytes);
    cJSON_AddBoolToObject(settings, "werror", run->opt.werror);
    if (run->opt.isolation) cJSON_AddStringToObject(settings, "sandbox", run->opt.isolation);
    if (run->opt.only_scene) cJSON_AddStringToObject(settings, "scene", run->opt.only_scene);
    else cJSON_AddNullToObject(settings, "scene");
    if (run->opt.scope) cJSON_AddStringToObject(settings, "scope", run->opt.scope);
    else cJSON_AddNullToObject(settings, "scope");
    add_conventions(cJSON_AddObjectToObject(doc, "conventions"), run);
    add_counts(cJSON_AddObjectToObject(doc, "total"), &run->total);
    cJSON *groups = cJSON_AddArrayToObject(doc, "groups");
    for (size_t g = 0; g < run->group_count; g++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "group", run->groups[g].name);
        add_counts(o, &run->groups[g].counts);
        cJSON_AddItemToArray(groups, o);
    }
    cJSON *cases = cJSON_AddArrayToObject(doc, "cases");
    for (size_t i = 0; i < run->count; i++) cJSON_AddItemToArray(cases, case_json(r, &run->cases[i]));
    return doc;
}

/* ---- JUnit ----------------------------------------------------------------------- */

static void put_findings(FILE *out, const mcx_case *c)
{
    for (unsigned k = 0; k < c->findings.count && k < MCX_MAX_FINDINGS; k++) {
        fputs("\n  ", out);
        mcc_put_markup(out, c->findings.items[k]);
    }
    if (c->findings.count > MCX_MAX_FINDINGS) fprintf(out, "\n  ... (%u in all)", c->findings.count);
}

void mcx_report_junit(FILE *out, const mcx_report *r)
{
    const mcx_run *run = r->run;
    const mcx_counts *t = &run->total;
    unsigned errors = t->verdict[MCX_ERROR], skipped = t->verdict[MCX_SKIPPED] + t->verdict[MCX_OUT_OF_SCOPE];
    unsigned failures = t->total - t->verdict[MCX_CONFORMING] - t->verdict[MCX_REFUSED] - errors - skipped;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"modelcheck certify --exporter\""
                 " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\">\n",
            t->total, failures, errors, skipped);
    fprintf(out, "  <testsuite name=\"export.%s\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\"",
            run->opt.format, t->total, failures, errors, skipped);
    if (r->timestamp) fprintf(out, " timestamp=\"%.19s\"", r->timestamp);
    fputs(">\n    <properties>\n      <property name=\"exporter\" value=\"", out);
    mcc_put_markup(out, run->opt.command);
    fprintf(out, "\"/>\n      <property name=\"scene_format\" value=\"%s\"/>\n"
                 "      <property name=\"score\" value=\"%.1f\"/>\n    </properties>\n",
            form_text(run), mcx_score(t));
    for (size_t i = 0; i < run->count; i++) {
        const mcx_case *c = &run->cases[i];
        fprintf(out, "    <testcase classname=\"export.%s.%s\" name=\"", run->opt.format, c->group);
        mcc_put_markup(out, c->scene);
        fputc('"', out);
        if (r->timings) fprintf(out, " time=\"%.3f\"", c->duration_ms / 1000);
        if (mcx_verdict_passes(c->verdict) && !c->warning_count) {
            fputs("/>\n", out);
            continue;
        }
        if (mcx_verdict_passes(c->verdict)) {
            /* passes, but its validator warnings stay visible */
            char warned[400];
            mcx_warnings_text(c, warned, sizeof warned);
            fputs(">\n      <system-out>conforming with ", out);
            mcc_put_markup(out, warned);
            fputs("</system-out>\n    </testcase>\n", out);
            continue;
        }
        if (c->verdict == MCX_SKIPPED || c->verdict == MCX_OUT_OF_SCOPE) {
            fputs(">\n      <skipped message=\"", out);
            mcc_put_markup(out, c->detail);
            fputs("\"/>\n    </testcase>\n", out);
            continue;
        }
        const char *tag = c->verdict == MCX_ERROR ? "error" : "failure";
        fprintf(out, ">\n      <%s type=\"%s\" message=\"", tag, mcx_verdict_name(c->verdict));
        mcc_put_markup(out, c->detail);
        fputs("\">scene: ", out);
        mcc_put_markup(out, c->feature);
        put_findings(out, c);
        if (c->stderr_tail && c->stderr_tail[0]) {
            fputs("\nstderr (last bytes):\n", out);
            mcc_put_markup(out, c->stderr_tail);
        }
        fprintf(out, "</%s>\n    </testcase>\n", tag);
    }
    fputs("  </testsuite>\n</testsuites>\n", out);
}

/* ---- HTML ------------------------------------------------------------------------ */

static void put_row(FILE *out, const char *name, const mcx_counts *c)
{
    fprintf(out, "<tr class=\"%s\"><td>", mcx_counts_pass(c) ? "ok" : "bad");
    mcc_put_markup(out, name);
    fprintf(out, "</td><td>%u</td>", c->total);
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) fprintf(out, "<td>%u</td>", c->verdict[v]);
    fprintf(out, "<td>%.1f%%</td></tr>\n", mcx_score(c));
}

/* ---- pictures (inline SVG: no script, no external resource) ---- */

#define PANEL 170
#define INNER 156

typedef struct view_box {
    float lo[3], range;
} view_box;

static void grow(view_box *b, const float *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            float v = p[i * 3 + (size_t)k];
            if (!(v == v)) continue; /* NaN */
            if (v < b->lo[k]) b->lo[k] = v;
            if (v - b->lo[k] > b->range) b->range = v - b->lo[k];
        }
}

/* The two axes of view v: front (x right, y up), side (z right, y up), top (x right, z down). */
static const int view_axes[3][2] = {{0, 1}, {2, 1}, {0, 2}};
static const char *const view_names[3] = {"front (x, y)", "side (z, y)", "top (x, z)"};

static void put_point(FILE *out, const view_box *b, int v, const float *p, const char *cmd)
{
    int a = view_axes[v][0], c = view_axes[v][1];
    double s = b->range > 0 ? INNER / b->range : 1;
    double x = 7 + (p[a] - b->lo[a]) * s, y = v == 2 ? 7 + (p[c] - b->lo[c]) * s : 7 + INNER - (p[c] - b->lo[c]) * s;
    fprintf(out, "%s%.1f %.1f", cmd, x, y);
}

/* One path of the triangles whose flag equals want and, with key, whose
 * key is want_key. */
static void put_tris(FILE *out, const view_box *b, int v, const float *t, const unsigned char *flag, const int *key,
                     size_t n, int want, int want_key, const char *style)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if ((flag && flag[i]) != want || (key && key[i] != want_key)) continue;
        if (!any++) fprintf(out, "<path %s d=\"", style);
        put_point(out, b, v, t + i * 9, "M");
        put_point(out, b, v, t + i * 9 + 3, " L");
        put_point(out, b, v, t + i * 9 + 6, " L");
        fputs(" Z ", out);
    }
    if (any) fputs("\"/>", out);
}

static void put_bones(FILE *out, const view_box *b, int v, const float *s, size_t n)
{
    if (!n) return;
    fputs("<path fill=\"none\" stroke=\"#0055cc\" stroke-width=\"1.2\" d=\"", out);
    for (size_t i = 0; i < n; i++) {
        put_point(out, b, v, s + i * 6, "M");
        put_point(out, b, v, s + i * 6 + 3, " L");
        fputc(' ', out);
    }
    fputs("\"/>", out);
}

/* Does any triangle of either row have a skin influence? */
static int keyed(const mcx_picture *p)
{
    for (size_t i = 0; p->scene_key && i < p->scene_count; i++)
        if (p->scene_key[i] != MCX_PICTURE_NO_BONE) return 1;
    for (size_t i = 0; p->model_key && i < p->model_count; i++)
        if (p->model_key[i] != MCX_PICTURE_NO_BONE) return 1;
    return 0;
}

/* The triangles that matched, one path per key: a colour per scene bone
 * (the golden angle apart, so neighbouring indices differ), the same in
 * both rows; dark grey for a bone the scene does not have, the plain blue
 * for no influence. */
static void put_keyed_tris(FILE *out, const view_box *b, int v, const float *t, const unsigned char *flag,
                           const int *key, size_t n)
{
    int top = MCX_PICTURE_ODD_BONE;
    for (size_t i = 0; i < n; i++)
        if (key[i] > top) top = key[i];
    for (int k = MCX_PICTURE_ODD_BONE; k <= top; k++) {
        char style[160];
        if (k == MCX_PICTURE_NO_BONE)
            snprintf(style, sizeof style, "fill=\"#88aacc\" fill-opacity=\"0.35\" stroke=\"#335577\" stroke-width=\"0.4\"");
        else if (k == MCX_PICTURE_ODD_BONE)
            snprintf(style, sizeof style, "fill=\"#555555\" fill-opacity=\"0.6\" stroke=\"#222222\" stroke-width=\"0.4\"");
        else
            snprintf(style, sizeof style, "fill=\"hsl(%d 70%% 55%%)\" fill-opacity=\"0.6\" stroke=\"#333333\" stroke-width=\"0.3\"",
                     (int)((unsigned)k * 137u % 360u));
        put_tris(out, b, v, t, flag, key, n, 0, k, style);
    }
}

/* The scene and the output side by side, three orthographic views each,
 * at one scale: what matched nothing in red; a skinned case's triangles
 * coloured by the bone weighing most on them. */
static void put_picture(FILE *out, const mcx_case *c)
{
    const mcx_picture *p = c->picture;
    if (!p) return;
    view_box b = {{INFINITY, INFINITY, INFINITY}, 0};
    grow(&b, p->scene, p->scene_count * 3);
    grow(&b, p->model, p->model_count * 3);
    grow(&b, p->scene_bones, p->scene_bone_count * 2);
    grow(&b, p->model_bones, p->model_bone_count * 2);
    for (int k = 0; k < 3; k++)
        if (b.lo[k] == INFINITY) b.lo[k] = 0;
    size_t lost = 0, extra = 0;
    for (size_t i = 0; i < p->scene_count; i++) lost += p->scene_lost[i];
    for (size_t i = 0; i < p->model_count; i++) extra += p->model_extra[i];
    fprintf(out, "<figure class=\"picture\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
            80 + 3 * PANEL, 2 * PANEL + 20, 80 + 3 * PANEL, 2 * PANEL + 20);
    mcc_put_markup(out, c->scene);
    fputs(": the scene and the exporter's output\">", out);
    for (int v = 0; v < 3; v++)
        fprintf(out, "<text x=\"%d\" y=\"13\" font-size=\"11\">%s</text>", 80 + v * PANEL + 4, view_names[v]);
    int by_bone = keyed(p);
    for (int row = 0; row < 2; row++) {
        const float *t = row ? p->model : p->scene;
        const unsigned char *flag = row ? p->model_extra : p->scene_lost;
        const int *key = row ? p->model_key : p->scene_key;
        size_t n = row ? p->model_count : p->scene_count;
        fprintf(out, "<text x=\"4\" y=\"%d\" font-size=\"12\">%s</text>", 20 + row * PANEL + PANEL / 2,
                row ? "output" : "scene");
        for (int v = 0; v < 3; v++) {
            fprintf(out, "<g transform=\"translate(%d %d)\"><rect width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                         "stroke=\"#bbbbbb\"/>",
                    80 + v * PANEL, 18 + row * PANEL, PANEL - 4, PANEL - 4);
            if (by_bone && key)
                put_keyed_tris(out, &b, v, t, flag, key, n);
            else
                put_tris(out, &b, v, t, flag, NULL, n, 0, 0,
                         "fill=\"#88aacc\" fill-opacity=\"0.35\" stroke=\"#335577\" stroke-width=\"0.4\"");
            put_tris(out, &b, v, t, flag, NULL, n, 1, 0,
                     "fill=\"#ee2200\" fill-opacity=\"0.6\" stroke=\"#aa0000\" stroke-width=\"0.8\"");
            put_bones(out, &b, v, row ? p->model_bones : p->scene_bones, row ? p->model_bone_count : p->scene_bone_count);
            fputs("</g>", out);
        }
    }
    fprintf(out, "</svg><figcaption><code>");
    mcc_put_markup(out, c->scene);
    fprintf(out, "</code>: scene %zu triangle%s, %zu lost or moved (red); output %zu drawn, %zu the scene does not hold "
                 "(red); bones as blue lines (%zu and %zu)%s%s</figcaption></figure>\n",
            p->scene_count, p->scene_count == 1 ? "" : "s", lost, p->model_count, extra, p->scene_bone_count,
            p->model_bone_count, p->model_count >= MCX_PICTURE_TRIS ? "; the output sampled" : "",
            by_bone ? "; triangles coloured by the bone weighing most on them, one colour per scene bone in both "
                      "rows (dark grey: a bone the scene does not have)"
                    : "");
}

/* The feature groups as stacked bars, one colour per verdict. */
static void put_bar_chart(FILE *out, const mcx_run *run)
{
    static const char *const colours[] = {"#2e8b57", "#8fd19e", "#e67e22", "#c0392b", "#e74c3c",
                                          "#8e44ad", "#34495e", "#d35400", "#7f8c8d", "#bdc3c7",
                                          "#dfe6e9", "#b03a2e", "#1a5276"};
    _Static_assert(sizeof colours / sizeof *colours == MCX_VERDICT_COUNT, "one per verdict");
    size_t rows = run->group_count + 1;
    int width = 640, bar = 380, height = (int)(rows * 22 + 44);
    fprintf(out, "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"verdicts per feature group\">",
            width, height, width, height);
    for (size_t g = 0; g < rows; g++) {
        const mcx_counts *c = g < run->group_count ? &run->groups[g].counts : &run->total;
        const char *name = g < run->group_count ? run->groups[g].name : "total";
        int y = 8 + (int)g * 22;
        fprintf(out, "<text x=\"4\" y=\"%d\" font-size=\"12\">", y + 13);
        mcc_put_markup(out, name);
        fputs("</text>", out);
        double x = 110;
        for (int v = 0; v < MCX_VERDICT_COUNT && c->total; v++) {
            if (!c->verdict[v]) continue;
            double w = (double)bar * c->verdict[v] / c->total;
            fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\"><title>%s: %u</title></rect>",
                    x, y, w, colours[v], mcx_verdict_label((mcx_verdict)v), c->verdict[v]);
            x += w;
        }
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%u runs, %.1f%%</text>", 110 + bar + 8, y + 13,
                c->total, mcx_score(c));
    }
    int lx = 4, ly = (int)rows * 22 + 24;
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) {
        if (!run->total.verdict[v]) continue;
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
                     "font-size=\"11\">%s</text>",
                lx, ly, colours[v], lx + 13, ly + 9, mcx_verdict_label((mcx_verdict)v));
        lx += 13 + 7 * (int)strlen(mcx_verdict_label((mcx_verdict)v)) + 10;
    }
    fputs("</svg><figcaption>verdicts per feature group</figcaption></figure>\n", out);
}

static void put_case(FILE *out, const mcx_case *c)
{
    fputs("<div class=\"case\">\n<p><span class=\"verdict\">", out);
    mcc_put_markup(out, mcx_verdict_label(c->verdict));
    fputs("</span> <code>", out);
    mcc_put_markup(out, c->scene);
    fputs("</code>: ", out);
    mcc_put_markup(out, c->feature);
    fputs("</p>\n<p>", out);
    mcc_put_markup(out, c->detail);
    fputs("</p>\n", out);
    if (c->findings.count) {
        fputs("<ul>\n", out);
        for (unsigned k = 0; k < c->findings.count && k < MCX_MAX_FINDINGS; k++) {
            fputs("<li>", out);
            mcc_put_markup(out, c->findings.items[k]);
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    put_picture(out, c);
    if (!mcx_verdict_passes(c->verdict) && c->stderr_tail && c->stderr_tail[0]) {
        fputs("<p>stderr (last bytes):</p>\n<pre>", out);
        mcc_put_markup(out, c->stderr_tail);
        fputs("</pre>\n", out);
    }
    fputs("</div>\n", out);
}

void mcx_report_html(FILE *out, const mcx_report *r)
{
    const mcx_run *run = r->run;
    int ok = mcx_counts_pass(&run->total);
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<title>modelcheck certify --exporter: %s</title>\n<style>%s</style>\n</head>\n<body>\n",
            ok ? "conforming" : "not conforming", mcc_report_css);
    fprintf(out, "<h1>Exporter certificate (%s): <span class=\"%s\">%s</span></h1>\n<p>exporter <code>",
            run->opt.format, ok ? "ok" : "bad", ok ? "conforming" : "not conforming");
    mcc_put_markup(out, run->opt.command);
    fprintf(out, "</code><br>%zu scenes as %s, timeout %g s per case<br>modelcheck %s", run->count, form_text(run),
            run->opt.timeout_s, r->version);
    if (r->timestamp) fprintf(out, ", %s", r->timestamp);
    fprintf(out, "<br>score %.1f%%: %u conforming and %u correctly refused of %u</p>\n", mcx_score(&run->total),
            run->total.verdict[MCX_CONFORMING], run->total.verdict[MCX_REFUSED],
            run->total.total - run->total.verdict[MCX_SKIPPED] - run->total.verdict[MCX_OUT_OF_SCOPE]);
    char conv[800];
    conventions_line(run, conv, sizeof conv);
    if (conv[0]) {
        fprintf(out, "<p class=\"conventions\">conventions%s: ", run->opt.convention ? " (demanded)" : "");
        mcc_put_markup(out, conv);
        fputs("</p>\n", out);
    }
    fputs("<h2>Feature groups</h2>\n<table>\n<tr><th>group</th><th>runs</th>", out);
    for (int v = 0; v < MCX_VERDICT_COUNT; v++) fprintf(out, "<th class=\"v\">%s</th>", mcx_verdict_label((mcx_verdict)v));
    fputs("<th>score</th></tr>\n", out);
    for (size_t g = 0; g < run->group_count; g++) put_row(out, run->groups[g].name, &run->groups[g].counts);
    put_row(out, "total", &run->total);
    fputs("</table>\n", out);
    put_bar_chart(out, run);
    fputs("<h2>Cases that did not pass</h2>\n", out);
    unsigned shown = 0;
    for (size_t i = 0; i < run->count; i++)
        if (!mcx_verdict_passes(run->cases[i].verdict) && run->cases[i].verdict != MCX_OUT_OF_SCOPE)
            put_case(out, &run->cases[i]), shown++;
    if (!shown) fputs("<p>None.</p>\n", out);
    shown = 0;
    for (size_t i = 0; i < run->count; i++) {
        if (run->cases[i].verdict != MCX_CONFORMING || !run->cases[i].warning_count) continue;
        if (!shown++) fputs("<h2>Conforming cases with validator warnings</h2>\n", out);
        put_case(out, &run->cases[i]);
    }
    if (run->total.verdict[MCX_OUT_OF_SCOPE]) {
        fputs("<h2>Out of scope (not run, not scored)</h2>\n<p>--scope ", out);
        mcc_put_markup(out, run->opt.scope ? run->opt.scope : "");
        fputs(":", out);
        for (size_t i = 0, k = 0; i < run->count; i++)
            if (run->cases[i].verdict == MCX_OUT_OF_SCOPE) {
                fputs(k++ ? ", <code>" : " <code>", out);
                mcc_put_markup(out, run->cases[i].scene);
                fputs("</code>", out);
            }
        fputs("</p>\n", out);
    }
    shown = 0;
    for (size_t i = 0; i < run->count; i++) {
        const mcx_case *c = &run->cases[i];
        /* --pictures: the passing cases' too (the failing ones are drawn above) */
        if (!c->picture || !mcx_verdict_passes(c->verdict)) continue;
        if (!shown++) fputs("<h2>Every output drawn (--pictures)</h2>\n", out);
        put_picture(out, c);
    }
    fputs("<h2>Every case</h2>\n<table>\n<tr><th>scene</th><th>verdict</th><th>detail</th></tr>\n", out);
    for (size_t i = 0; i < run->count; i++) {
        const mcx_case *c = &run->cases[i];
        fprintf(out, "<tr class=\"%s\"><td>", mcx_verdict_passes(c->verdict) ? "ok" : "bad");
        mcc_put_markup(out, c->scene);
        fprintf(out, "</td><td>%s</td><td style=\"text-align:left\">", mcx_verdict_label(c->verdict));
        mcc_put_markup(out, c->detail);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n</body>\n</html>\n", out);
}
