/*
 * Exporter certification: one case per bundled scene. Each case gets a
 * fresh directory under $TMPDIR holding the scene in the form asked for
 * (and the files it references); the exporter runs there (runner.c: its own
 * process group, timeout, RLIMIT_FSIZE output cap, bounded stdout/stderr),
 * then its output is validated with the target format forced, loaded by the
 * reference loader and compared with the scene's facts (faithful.c).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, O_NOFOLLOW */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mc_exporter.h"
#include "modelcheck.h"

static const char *const verdict_names[] = {
    "conforming", "refused", "failed", "invalid_output", "unfaithful",
    "crash", "hang", "no_output", "error", "skipped", "out_of_scope", "leak", "oom"};
_Static_assert(sizeof verdict_names / sizeof *verdict_names == MCX_VERDICT_COUNT, "one per verdict");
static const char *const verdict_labels[] = {
    "conforming", "refused (correct)", "refused a scene it can hold", "invalid output", "unfaithful",
    "crash", "hang", "no output", "runner error", "skipped", "out of scope", "leak", "out of memory"};
_Static_assert(sizeof verdict_labels / sizeof *verdict_labels == MCX_VERDICT_COUNT, "one per verdict");

const char *mcx_verdict_name(mcx_verdict v)
{
    return (unsigned)v < MCX_VERDICT_COUNT ? verdict_names[v] : "?";
}

const char *mcx_verdict_label(mcx_verdict v)
{
    return (unsigned)v < MCX_VERDICT_COUNT ? verdict_labels[v] : "?";
}

int mcx_verdict_passes(mcx_verdict v)
{
    return v == MCX_CONFORMING || v == MCX_REFUSED;
}

double mcx_score(const mcx_counts *c)
{
    unsigned ran = c->total - c->verdict[MCX_SKIPPED] - c->verdict[MCX_OUT_OF_SCOPE];
    if (!ran) return 100.0;
    return round(1000.0 * (c->verdict[MCX_CONFORMING] + c->verdict[MCX_REFUSED]) / ran) / 10.0;
}

int mcx_counts_pass(const mcx_counts *c)
{
    return c->verdict[MCX_CONFORMING] + c->verdict[MCX_REFUSED] + c->verdict[MCX_SKIPPED] +
               c->verdict[MCX_OUT_OF_SCOPE] ==
           c->total;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return mcc_clean_text((const unsigned char *)buf, strlen(buf));
}

/* ---- the command line -------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf;

static void put(sbuf *b, const char *s, size_t n, int quote)
{
    size_t need = b->len + (quote ? 4 * n + 2 : n) + 1;
    if (b->oom) return;
    if (need > b->cap) {
        char *p = realloc(b->p, need * 2);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p, b->cap = need * 2;
    }
    if (quote) b->p[b->len++] = '\'';
    for (size_t i = 0; i < n; i++) {
        if (quote && s[i] == '\'') memcpy(b->p + b->len, "'\\''", 4), b->len += 4;
        else b->p[b->len++] = s[i];
    }
    if (quote) b->p[b->len++] = '\'';
    b->p[b->len] = '\0';
}

/* Expands {in} {out} {stem} {dir} {format} {cwd}; quote: shell-quote the paths. */
static char *expand(const char *tmpl, const mcx_case *c, const char *stem, const char *format, int quote)
{
    sbuf b = {0};
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
    put(&b, "", 0, 0);
    for (const char *p = tmpl; *p; p++) {
        static const char *const keys[] = {"{in}", "{out}", "{stem}", "{dir}", "{format}", "{cwd}"};
        const char *vals[] = {c->in_path, c->out_path, stem, c->dir, format, cwd};
        int k = 0;
        for (; k < 6; k++)
            if (strncmp(p, keys[k], strlen(keys[k])) == 0) break;
        if (k < 6) {
            put(&b, vals[k] ? vals[k] : "", vals[k] ? strlen(vals[k]) : 0, quote && k != 2 && k != 4);
            p += strlen(keys[k]) - 1;
        } else {
            put(&b, p, 1, 0);
        }
    }
    if (b.oom) free(b.p);
    return b.oom ? NULL : b.p;
}

/* ---- cases ---------------------------------------------------------------------- */

/* Builds the case of scene i in ROOT/NN-name; 0, or -1 with why. */
/* ---- scope (--scope) ------------------------------------------------------------ */

/* The scene's kind: static (no skin, no animation), skinned (a skin, no
 * animation) or animated. */
static int scene_level(const mcs_scene *s)
{
    return s->anim_count ? 2 : s->skin_count ? 1 : 0;
}

static const char *const levels[] = {"static", "skinned", "animated", "all"};

/* Each comma-separated word of scope: a level (a level holds the ones
 * before it) or a feature group's name. */
static int scope_word(const char *w, size_t n, const mcs_scene *s, int *known)
{
    *known = 1;
    for (int l = 0; l < 4; l++)
        if (strlen(levels[l]) == n && strncmp(w, levels[l], n) == 0) return !s || scene_level(s) <= l;
    for (size_t i = 0; i < mcs_scene_count(); i++) {
        mcs_scene *g = s ? NULL : mcs_scene_build(i);
        const char *group = s ? s->group : g ? g->group : "";
        int match = strlen(group) == n && strncmp(w, group, n) == 0;
        mcs_scene_free(g);
        if (s) return match;
        if (match) return 1;
    }
    *known = 0;
    return 0;
}

int mcx_scope_check(const char *scope, char *why, size_t why_size)
{
    if (!scope) return 0;
    for (const char *p = scope;; p += strcspn(p, ",") + 1) {
        size_t n = strcspn(p, ",");
        int known;
        scope_word(p, n, NULL, &known);
        if (!n || !known)
            return snprintf(why, why_size,
                            "--scope: '%.*s' is neither static, skinned, animated, all nor a feature group "
                            "(geometry, materials, transforms, skins, skeletons, animations, names)",
                            (int)n, p), -1;
        if (!p[n]) return 0;
    }
}

static int in_scope(const char *scope, const mcs_scene *s, char *kind, size_t size)
{
    snprintf(kind, size, "a%s %s", scene_level(s) == 2 ? "n" : "", levels[scene_level(s)]);
    if (!scope) return 1;
    for (const char *p = scope;; p += strcspn(p, ",") + 1) {
        int known;
        if (scope_word(p, strcspn(p, ","), s, &known)) return 1;
        if (!p[strcspn(p, ",")]) return 0;
    }
}

static int make_case(const mcx_options *o, const char *root, size_t i, mcx_case *c, mcc_case *rc,
                     char *why, size_t why_size)
{
    int fi = mcc_format_index(o->format);
    mcs_scene *s = mcs_scene_build(i);
    if (!s) return snprintf(why, why_size, "out of memory building scene %s", mcs_scene_name(i)), -1;
    c->scene = mcs_scene_name(i);
    c->group = s->group;
    c->feature = s->feature;
    c->fit = s->fit[fi];
    snprintf(c->note, sizeof c->note, "%s", s->note[fi]);
    c->dir = fmt("%s/%02zu-%s", root, i, c->scene);
    if (!c->dir || mkdir(c->dir, 0700) != 0) {
        mcs_scene_free(s);
        char shown[4096];
        return snprintf(why, why_size, "cannot create %s: %s", mcc_shown(c->dir ? c->dir : root, shown, sizeof shown),
                        strerror(errno)), -1;
    }
    memset(rc, 0, sizeof *rc);
    rc->format = mcc_format_names[fi];
    char kind[48];
    if (!in_scope(o->scope, s, kind, sizeof kind)) {
        c->verdict = MCX_OUT_OF_SCOPE;
        c->detail = fmt("out of scope (--scope %s): %s scene", o->scope, kind);
        rc->skip_reason = c->detail;
        mcs_scene_free(s);
        return 0;
    }
    if (o->form == MCS_OBJ && !s->has_obj) {
        c->verdict = MCX_SKIPPED;
        c->detail = fmt("skipped: the scene has no OBJ form (OBJ holds static meshes: no skin, no animation, no vertex colour, no empty scene)");
        rc->skip_reason = c->detail;
        mcs_scene_free(s);
        return 0;
    }
    const char *main_file;
    if (mcs_write_form(s, o->form, c->dir, &main_file) != 0) {
        mcs_scene_free(s);
        char shown[4096];
        return snprintf(why, why_size, "cannot write scene %s into %s", c->scene, mcc_shown(c->dir, shown, sizeof shown)), -1;
    }
    mcs_scene_free(s);
    c->input_bytes = mcx_tree_bytes(c->dir);
    c->in_path = fmt("%s/%s", c->dir, main_file);
    char *name = o->output_name ? expand(o->output_name, c, c->scene, o->format, 0)
                                : fmt("%s.%s", c->scene, o->format);
    c->out_path = name ? (name[0] == '/' ? strdup(name) : fmt("%s/%s", c->dir, name)) : NULL;
    free(name);
    char *cmd = c->out_path ? expand(o->command, c, c->scene, o->format, 1) : NULL;
    if (!c->in_path || !cmd) {
        free(cmd);
        return snprintf(why, why_size, "out of memory"), -1;
    }
    rc->file = (char *)c->scene;
    rc->path = c->in_path;
    rc->command = cmd;
    rc->workdir = c->dir;
    return 0;
}

/* ---- grading --------------------------------------------------------------------- */

static void add_code(char ***list, size_t *n, const char *text)
{
    char **l = realloc(*list, (*n + 1) * sizeof *l);
    if (!l) return;
    *list = l;
    if ((l[*n] = strdup(text))) (*n)++;
}

static const char *code_name(mc_code code)
{
    const mc_code_info *info = mc_code_get(code);
    return info ? info->name : "?";
}

/* Validator issues of the output: error codes (with first offsets) and
 * warnings, and its triangle count; -1 when the validator ran out of memory. */
static int validate(const mcx_options *o, const unsigned char *data, size_t size, mcx_case *c,
                    uint64_t *triangles)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.format = (mc_format)mc_format_parse(o->format);
    opt.skip_sha256 = 1;
    mc_result *res = NULL;
    mc_validate_memory(data, size, &opt, &res);
    for (size_t i = 0; res && i < res->issue_count; i++) {
        const mc_issue *is = &res->issues[i];
        char text[160];
        if (is->severity == MC_SEVERITY_ERROR) {
            snprintf(text, sizeof text, "%s@0x%llx", code_name(is->code), (unsigned long long)is->first_offset);
            add_code(&c->errors, &c->error_count, text);
            if (is->instance_count)
                mcx_find(&c->findings, "%s at 0x%llx %s: %s", code_name(is->code),
                         (unsigned long long)is->first_offset, is->instances[0].path, is->instances[0].message);
        } else if (is->severity == MC_SEVERITY_WARNING) {
            uint64_t *at = realloc(c->warning_at, (c->warning_count + 1) * sizeof *at);
            if (!at) continue;
            c->warning_at = at;
            at[c->warning_count] = is->first_offset;
            add_code(&c->warnings, &c->warning_count, code_name(is->code));
        }
    }
    if (res) *triangles = res->info.triangles;
    mc_result_free(res);
    return res ? 0 : -1;
}

void mcx_warnings_text(const mcx_case *c, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    if (!c->warning_count) return;
    used = (size_t)snprintf(buf, size, "%zu warning%s:", c->warning_count, c->warning_count == 1 ? "" : "s");
    for (size_t i = 0; i < c->warning_count && i < 4 && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s %s at 0x%llx", i ? "," : "", c->warnings[i],
                                 (unsigned long long)c->warning_at[i]);
    if (c->warning_count > 4 && used < size) snprintf(buf + used, size - used, ", ...");
}

/* "; ..." naming the animations that matched only as loops, "" for none:
 * a certificate says which reading of the frames it accepted. */
static void loops_text(const mcx_loops *l, char *buf, size_t size)
{
    buf[0] = '\0';
    if (l->count == 1)
        snprintf(buf, size, "; animation %s read as a loop (last frame wrapping to the first)", l->first);
    else if (l->count > 1)
        snprintf(buf, size, "; %u animations read as loops (last frame wrapping to the first; first %s)", l->count,
                 l->first);
}

static void judge_output(const mcx_options *o, mcx_case *c, unsigned char *data, size_t size,
                         const mcx_convention *want, int search, const char *note);
static char *stable_text(char *text, const mcx_case *c, const char *root, int cut);

static const char *file_kind(mode_t m)
{
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

/* The output, read the only way the grader reads what an exporter left: a
 * regular file (O_NOFOLLOW: a link to /etc/passwd or a 2 GB file is not
 * followed; fstat: no FIFO, device or directory), opened O_NONBLOCK (a lease
 * held by an escaped process makes the open fail, not wait) and never more
 * than the cap. NULL with the verdict and detail set. */
static unsigned char *read_output(const mcx_options *o, mcx_case *c, const char *shown, size_t *size)
{
    struct stat st;
    int fd = open(c->out_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && (errno == ELOOP || errno == ENXIO) && lstat(c->out_path, &st) == 0) {
        c->verdict = MCX_NO_OUTPUT;
        c->detail = fmt("exit 0 but the output %s is %s, not a file (certify reads regular files only)", shown,
                        file_kind(st.st_mode));
        return NULL;
    }
    if (fd < 0) {
        c->verdict = MCX_NO_OUTPUT;
        c->detail = errno == ENOENT ? fmt("exit 0 but no output: %s not found in the case directory", shown)
                                    : fmt("exit 0 but the output %s cannot be opened: %s", shown, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        c->verdict = MCX_NO_OUTPUT;
        c->detail = fmt("exit 0 but the output %s is %s, not a file (certify reads regular files only)", shown,
                        file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    c->output_bytes = (uint64_t)st.st_size;
    if (o->max_output_bytes && (uint64_t)st.st_size > o->max_output_bytes) {
        c->verdict = MCX_FAILED;
        c->detail = fmt("the output %s has %llu bytes, over the %llu-byte cap (--max-output-bytes)", shown,
                        (unsigned long long)st.st_size, (unsigned long long)o->max_output_bytes);
        close(fd);
        return NULL;
    }
    size_t want = (size_t)st.st_size, n = 0;
    unsigned char *data = malloc(want + 1);
    while (data && n < want) {
        ssize_t got = read(fd, data + n, want - n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break; /* shrunk, or an error: what was read is graded */
        n += (size_t)got;
    }
    close(fd);
    if (!data) {
        c->verdict = MCX_ERROR;
        c->detail = fmt("runner error: out of memory reading the %llu-byte output", (unsigned long long)want);
        return NULL;
    }
    data[n] = '\0';
    *size = n;
    return data;
}

/* The scene's geometry budget: an output with many times the scene's
 * triangles is unfaithful whatever else it holds, and is not built (a decoy
 * of millions of triangles would cost the grader gigabytes). 1 when it is
 * over (verdict set). */
static int over_geometry(mcx_case *c, uint64_t out_triangles)
{
    mcs_scene *s = NULL;
    mcs_facts f;
    for (size_t i = 0; i < mcs_scene_count() && !s; i++)
        if (strcmp(mcs_scene_name(i), c->scene) == 0) s = mcs_scene_build(i);
    if (!s || mcs_facts_build(s, &f) != 0) {
        mcs_scene_free(s);
        return 0; /* the grading that follows reports it */
    }
    uint64_t scene = (uint64_t)f.triangle_count + f.line_count;
    mcs_facts_free(&f);
    mcs_scene_free(s);
    /* merging, splitting and triangulating stay far below this */
    uint64_t budget = MCX_GEOMETRY_FACTOR * scene + 1024;
    if (out_triangles <= budget) return 0;
    c->verdict = MCX_UNFAITHFUL;
    c->detail = fmt("unfaithful: %llu times the geometry (%llu triangles for the scene's %llu): not built",
                    (unsigned long long)(out_triangles / (scene ? scene : 1)), (unsigned long long)out_triangles,
                    (unsigned long long)scene);
    return 1;
}

static void grade_output(const mcx_options *o, mcx_case *c)
{
    /* relative to the case directory: the report must not depend on the temporary root */
    size_t root = strlen(c->dir);
    const char *shown = strncmp(c->out_path, c->dir, root) == 0 && c->out_path[root] == '/' ? c->out_path + root + 1
                                                                                              : c->out_path;
    size_t size;
    unsigned char *data = read_output(o, c, shown, &size);
    if (!data) return;
    uint64_t triangles = 0;
    if (validate(o, data, size, c, &triangles) != 0) {
        free(data);
        c->verdict = MCX_ERROR;
        c->detail = fmt("runner error: the validator ran out of memory on the %zu-byte output", size);
        return;
    }
    if (c->error_count || (o->werror && c->warning_count)) {
        c->verdict = MCX_INVALID;
        char list[600] = "";
        size_t used = 0;
        char **codes = c->error_count ? c->errors : c->warnings;
        size_t n = c->error_count ? c->error_count : c->warning_count;
        for (size_t i = 0; i < n && i < 8 && used < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, " %s", codes[i]);
        c->detail = fmt("invalid output: %zu %s:%s%s", n, c->error_count ? "error code(s)" : "warning code(s) (--werror)",
                        list, n > 8 ? " ..." : "");
        free(data);
        return;
    }
    if (over_geometry(c, triangles)) {
        free(data);
        return;
    }
    judge_output(o, c, data, size, o->convention, 1, NULL);
}

/* note as the first finding (the count stays exact). */
static void prepend(mcx_findings *f, const char *note)
{
    mcx_findings n;
    memset(&n, 0, sizeof n);
    mcx_find(&n, "%s", note);
    for (unsigned i = 0; i < f->count && i < MCX_MAX_FINDINGS; i++) {
        if (i + 1 < MCX_MAX_FINDINGS) n.items[i + 1] = f->items[i];
        else free(f->items[i]);
    }
    n.count = f->count + 1;
    *f = n;
}

/* The verdict and detail of a valid output compared with the scene under
 * conventions (want, or found with search); note: a first finding, or NULL.
 * Frees data. */
static void judge_output(const mcx_options *o, mcx_case *c, unsigned char *data, size_t size,
                         const mcx_convention *want, int search, const char *note)
{
    mcl_model *m = NULL;
    mcl_error err;
    memset(&err, 0, sizeof err);
    mcl_status st2 = mcl_load(mcl_format_from_name(o->format), data, size, NULL, &m, &err);
    free(data);
    if (st2 == MCL_ERR_NOMEM || st2 == MCL_ERR_LIMIT) {
        /* the grader's own limit: not the exporter's fault */
        c->verdict = MCX_ERROR;
        c->detail = fmt("runner error: the reference loader ran out of memory or hit a limit on the output: %s",
                        err.reason);
        return;
    }
    if (st2 != MCL_OK) {
        /* the validator found no error: a reference loader limit, or a disagreement to report */
        c->verdict = MCX_INVALID;
        c->detail = fmt("invalid output: the reference loader rejects it at 0x%llx: %s",
                        (unsigned long long)err.offset, err.reason);
        return;
    }
    mcs_scene *s = NULL;
    mcs_facts f;
    for (size_t i = 0; i < mcs_scene_count() && !s; i++)
        if (strcmp(mcs_scene_name(i), c->scene) == 0) s = mcs_scene_build(i);
    if (!s || mcs_facts_build(s, &f) != 0) {
        mcs_scene_free(s);
        mcl_free(m);
        c->verdict = MCX_ERROR;
        c->detail = fmt("runner error: out of memory building the scene's facts");
        return;
    }
    /* the precision of the layout the output has, not the format's best */
    mcs_caps caps = mcs_caps_of_layout(mcc_format_index(o->format), m->layout);
    mcx_loops loops;
    mcx_findings_free(&c->findings);
    mcx_judge(&f, &caps, m, want, search, &c->judgement, &c->findings, &loops);
    c->loops = loops.count;
    c->loop_ends = loops.ends;
    c->loop_first = loops.first_reading;
    int unfaithful = c->findings.count > 0;
    if (note && c->findings.count) prepend(&c->findings, note);
    c->judged = 1;
    const char *clause = c->judgement.explained ? mcx_convention_fixed(o->format, &c->judgement.used) : NULL;
    char conv[320] = "";
    mcx_convention_text(&c->judgement.used, c->judgement.uv_vertices, conv, sizeof conv);
    if (clause) /* the spec fixes it: a departure is a change, not a convention */
        mcx_find(&c->findings, "%s at every vertex, where the spec fixes the axes (%s)", conv, clause);
    if (c->picture) mcx_picture_free(c->picture), free(c->picture), c->picture = NULL;
    if (unfaithful || o->pictures) {
        c->picture = calloc(1, sizeof *c->picture);
        if (c->picture && mcx_picture_build(&f, &caps, m, &c->judgement.used, c->picture) != 0)
            free(c->picture), c->picture = NULL;
    }
    mcs_facts_free(&f);
    mcs_scene_free(s);
    mcl_free(m);
    free(c->detail);
    c->detail = NULL;
    if (c->findings.count) {
        c->verdict = MCX_UNFAITHFUL;
        c->detail = fmt("unfaithful: %u lost or changed fact(s): %s%s", c->findings.count, c->findings.items[0],
                        c->findings.count > 1 ? "; ..." : "");
    } else {
        /* warnings do not fail a case (without --werror), but a conforming
         * case must not hide them: every report shows this detail */
        char warned[400], looped[192] = "", under[360] = "";
        mcx_warnings_text(c, warned, sizeof warned);
        loops_text(&loops, looped, sizeof looped);
        if (conv[0] && c->judgement.explained) /* named only where it was needed */
            snprintf(under, sizeof under, " under the exporter's convention (%s)", conv);
        c->verdict = MCX_CONFORMING;
        if (c->fit == MCS_FITS)
            c->detail = fmt("valid and faithful%s%s%s%s", under, looped, warned[0] ? "; " : "", warned);
        else
            c->detail = fmt("valid and faithful to what the format keeps (%s)%s%s%s%s", c->note, under, looped,
                            warned[0] ? "; " : "", warned);
    }
}

/* The case judged again under `want` (no search), its output read again as
 * the grader reads it (a regular file, bounded); note: the first finding
 * when it is unfaithful. The verdict and detail stay those of the first
 * grading when the output cannot be read again. */
static void rejudge(const mcx_options *o, mcx_case *c, const char *root, const mcx_convention *want,
                    const char *note)
{
    mcx_verdict was = c->verdict;
    char *detail = c->detail;
    size_t size;
    c->detail = NULL;
    unsigned char *data = read_output(o, c, "", &size);
    if (!data) {
        free(c->detail);
        c->verdict = was, c->detail = detail;
        return;
    }
    c->detail = detail;
    judge_output(o, c, data, size, want, 0, note);
    c->detail = stable_text(c->detail, c, root, 0);
}

/* The run's geometric conventions: the demanded ones, else those that
 * explained the most cases (the first on a tie); SIZE_MAX when none did. */
static size_t run_convention(mcx_run *r)
{
    size_t best = SIZE_MAX;
    unsigned best_n = 0;
    for (size_t i = 0; i < r->count; i++) {
        const mcx_case *c = &r->cases[i];
        if (!c->judged || !c->judgement.explained) continue;
        unsigned n = 0;
        for (size_t k = 0; k < r->count; k++)
            n += r->cases[k].judged && r->cases[k].judgement.explained &&
                 mcx_convention_equal(&r->cases[k].judgement.used, &c->judgement.used);
        if (n > best_n) best = i, best_n = n;
    }
    r->convention = best == SIZE_MAX ? mcx_convention_none() : r->cases[best].judgement.used;
    return best;
}

/* The run's reading of animation frames: the demanded one, else the one
 * the most conforming cases needed (an animation matched under it alone),
 * on a tie that of the first such animation; MCX_LOOP_EITHER when no
 * animation told them apart. *agree: the cases that needed it. */
static int run_loop(const mcx_options *o, const mcx_run *r, unsigned *agree)
{
    *agree = 0;
    if (o->convention && o->convention->loop != MCX_LOOP_EITHER) return o->convention->loop;
    unsigned wrap = 0, end = 0;
    int first = 0;
    for (size_t i = 0; i < r->count; i++) {
        const mcx_case *c = &r->cases[i];
        if (!c->judged || c->verdict != MCX_CONFORMING) continue;
        wrap += c->loops > 0, end += c->loop_ends > 0;
        if (!first) first = c->loop_first;
    }
    if (!wrap && !end) return MCX_LOOP_EITHER;
    int loop = wrap > end ? MCX_LOOP_WRAP : end > wrap ? MCX_LOOP_END : first - 1;
    *agree = loop == MCX_LOOP_WRAP ? wrap : end;
    return loop;
}

/* Why a case is judged again: its geometric conventions (own: the case's,
 * "" for none) are not the run's, and/or its animations' frames needed the
 * other reading. */
static void settle_note(const mcx_case *c, const char *own, const char *run_text, int geo, int loop, int reading,
                        unsigned agree, char *note, size_t size)
{
    size_t used = 0;
    note[0] = '\0';
    if (geo && own[0])
        used = (size_t)snprintf(note, size,
                                "explained only by another convention (%s) than the run's other scenes (%s): a "
                                "convention holds for every scene",
                                own, run_text);
    else if (geo && c->verdict == MCX_CONFORMING)
        used = (size_t)snprintf(note, size, "faithful only without the convention of the run's other scenes (%s)",
                                run_text);
    if (loop && used < size)
        snprintf(note + used, size - used,
                 reading == MCX_LOOP_WRAP ? "%sanimation frames written with the last frame at the end of the clip, where "
                                            "the run's other scenes loop (the last frame wrapping to the first: %u "
                                            "scene%s): one reading holds for every scene"
                                          : "%sanimation frames written as a loop (the last frame wrapping to the "
                                            "first), where the run's other scenes end on the last frame (%u scene%s): "
                                            "one reading holds for every scene",
                 used ? "; " : "", agree, agree == 1 ? "" : "s");
}

/* One set of conventions for the whole run (run_convention, run_loop). A
 * case judged under other geometric ones (or under none where the run has
 * some), or with an animation that matched only under the other reading of
 * its frames, is judged again under the run's, every animation held to the
 * run's reading: an exporter that flips V in one scene and not in another,
 * or loops one scene's clips and ends another's on the end pose, is
 * unfaithful in the odd one out. */
static void settle_conventions(const mcx_options *o, mcx_run *r, const char *root)
{
    size_t best = run_convention(r);
    unsigned agree;
    r->loop = run_loop(o, r, &agree);
    r->convention_cases = 0;
    char run_text[320];
    mcx_convention_text(&r->convention, 0, run_text, sizeof run_text);
    for (size_t i = 0; i < r->count; i++) {
        mcx_case *c = &r->cases[i];
        if (!c->judged) continue;
        int geo = best != SIZE_MAX && !mcx_convention_equal(&c->judgement.used, &r->convention);
        int loop = r->loop == MCX_LOOP_WRAP ? c->loop_ends > 0 : r->loop == MCX_LOOP_END ? c->loops > 0 : 0;
        if (!geo && !loop) {
            r->convention_cases += c->judgement.explained;
            continue;
        }
        char note[1200], own[320] = "";
        if (geo && c->judgement.explained) mcx_convention_text(&c->judgement.used, 0, own, sizeof own);
        settle_note(c, own, run_text, geo, loop, r->loop, agree, note, sizeof note);
        mcx_convention want = geo ? r->convention : c->judgement.used;
        want.loop = r->loop;
        rejudge(o, c, root, &want, note[0] ? note : NULL);
        r->convention_cases += c->verdict == MCX_CONFORMING && c->judgement.explained;
    }
}

/* ---- stable text ------------------------------------------------------------------- */

/* Replaces every occurrence of `from` in text with `to`; a new string (text
 * itself when from does not occur), NULL on OOM. */
static char *replace_all(char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), hits = 0;
    if (!text || !nf) return text;
    for (const char *p = strstr(text, from); p; p = strstr(p + nf, from)) hits++;
    if (!hits) return text;
    size_t len = strlen(text);
    char *out = malloc(len - hits * nf + hits * nt + 1), *o = out;
    if (!out) {
        free(text); /* owned, as on success */
        return NULL;
    }
    const char *p = text;
    for (const char *q = strstr(p, from); q; p = q + nf, q = strstr(p, from)) {
        memcpy(o, p, (size_t)(q - p)), o += q - p;
        memcpy(o, to, nt), o += nt;
    }
    memcpy(o, p, strlen(p) + 1);
    free(text);
    return out;
}

/* What the exporter printed or a detail, without the temporary paths that
 * change from run to run: the case directory becomes {dir}, the root of all
 * cases {root} (both as given and as resolved, /tmp may be a link). A tail
 * cut by the runner's bound may begin inside a path: that partial first
 * line is dropped. Takes ownership of text; NULL stays NULL. */
static char *stable_text(char *text, const mcx_case *c, const char *root, int cut)
{
    if (!text) return NULL;
    if (cut) {
        const char *nl = strchr(text, '\n'), *from = nl ? nl + 1 : "";
        char *rest = malloc(strlen(from) + 5);
        if (rest) memcpy(rest, "...\n", 4), memcpy(rest + 4, from, strlen(from) + 1);
        free(text);
        if (!(text = rest)) return NULL;
    }
    char real_dir[4096], real_root[4096];
    const char *paths[4][2] = {{c->dir, "{dir}"}, {root, "{root}"}, {NULL, "{dir}"}, {NULL, "{root}"}};
    if (c->dir && realpath(c->dir, real_dir) && strcmp(real_dir, c->dir) != 0) paths[2][0] = real_dir;
    if (root && realpath(root, real_root) && strcmp(real_root, root) != 0) paths[3][0] = real_root;
    /* resolved forms first: the given one may be a prefix of it (/tmp in /tmp.real) */
    static const int order[4] = {2, 0, 3, 1};
    for (int k = 0; k < 4 && text; k++)
        if (paths[order[k]][0]) text = replace_all(text, paths[order[k]][0], paths[order[k]][1]);
    return text;
}

/* The last non-empty stderr line, for refusals. */
static void last_line(const char *text, char *buf, size_t size)
{
    size_t end = text ? strlen(text) : 0;
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) end--;
    size_t start = end;
    while (start > 0 && text[start - 1] != '\n') start--;
    size_t len = end - start < size - 1 ? end - start : size - 1;
    memcpy(buf, text ? text + start : "", len);
    buf[len] = '\0';
}

/* --max-output-bytes bounds the case, all its files together: RLIMIT_FSIZE
 * stops one file at the cap, this catches many files under it. */
static int over_case_cap(const mcx_options *o, mcx_case *c, const mcc_result *r)
{
    if (!o->max_output_bytes || r->outcome == MCC_RUNNER_ERROR) return 0;
    if (r->over_output) {
        c->verdict = MCX_FAILED;
        c->detail = fmt("wrote too much in its case directory, over the %llu-byte cap per case (--max-output-bytes): "
                        "killed while it ran", (unsigned long long)r->over_output);
        return 1;
    }
    uint64_t now = mcx_tree_bytes(c->dir), wrote = now > c->input_bytes ? now - c->input_bytes : 0;
    if (wrote <= o->max_output_bytes) return 0;
    c->verdict = MCX_FAILED;
    c->detail = fmt("wrote %llu bytes in its case directory, over the %llu-byte cap per case (--max-output-bytes)",
                    (unsigned long long)wrote, (unsigned long long)o->max_output_bytes);
    return 1;
}

static void grade(const mcx_options *o, const char *root, mcx_case *c, const mcc_result *r)
{
    char line[200], sig[32];
    c->exit_code = r->exit_code;
    c->signal = r->signal;
    c->duration_ms = r->duration_ms;
    c->escaped = r->escaped;
    /* the runner keeps the last MCC_STDERR_TAIL bytes of what it counted */
    int cut = r->stderr_bytes > MCC_STDERR_TAIL;
    c->stderr_tail = stable_text(r->stderr_tail ? strdup(r->stderr_tail) : NULL, c, root, cut);
    last_line(c->stderr_tail, line, sizeof line);
    const char *name = mcc_signal_name(r->signal);
    if (name) snprintf(sig, sizeof sig, "%s", name);
    else snprintf(sig, sizeof sig, "signal %d", r->signal);
    if (over_case_cap(o, c, r)) {
        c->detail = stable_text(c->detail, c, root, 0);
        return;
    }
    switch (r->outcome) {
    case MCC_ACCEPTED: grade_output(o, c); break;
    case MCC_REJECTED: {
        /* a program that ignores SIGXFSZ sees EFBIG and exits: say why */
        struct stat st;
        if (o->max_output_bytes && lstat(c->out_path, &st) == 0 && (uint64_t)st.st_size >= o->max_output_bytes) {
            c->verdict = MCX_FAILED;
            c->detail = fmt("exit %d after its output reached the %llu-byte cap (--max-output-bytes)", r->exit_code,
                            (unsigned long long)o->max_output_bytes);
            break;
        }
        c->verdict = c->fit == MCS_FITS ? MCX_FAILED : MCX_REFUSED;
        if (c->verdict == MCX_REFUSED && line[0] && !mcs_reason_named(c->note, line)) {
            /* credited only for the format's reason: "static meshes only" on 300 bones is not it */
            c->verdict = MCX_FAILED;
            c->detail = fmt("refused for another reason than the format's (%s): it said: %s", c->note, line);
            break;
        }
        if (c->fit == MCS_FITS)
            c->detail = fmt("refused a scene the format can hold (exit %d)%s%s", r->exit_code, line[0] ? ": " : "", line);
        else
            c->detail = fmt("refused (exit %d), correctly: %s%s%s", r->exit_code, c->note, line[0] ? "; it said: " : "", line);
        break;
    }
    case MCC_CRASHED:
        if (mcc_is_leak(r)) {
            c->verdict = MCX_LEAK;
            c->detail = r->signal ? fmt("leaked memory: LeakSanitizer report (%s, abort_on_error); the output was not graded", sig)
                                  : fmt("leaked memory: LeakSanitizer report (exit %d); the output was not graded", r->exit_code);
            break;
        }
        c->verdict = MCX_CRASH;
        if (r->signal == SIGXFSZ)
            c->detail = fmt("crashed: SIGXFSZ: the output passed the %llu-byte cap", (unsigned long long)o->max_output_bytes);
        else if (r->sanitizer)
            c->detail = fmt("crashed: sanitizer report (%s)", r->sanitizer);
        else
            c->detail = fmt("crashed: %s%s%s", sig, line[0] ? ": " : "", line);
        break;
    case MCC_TIMED_OUT:
        if (r->over_memory) { /* killed at --max-memory, not at the deadline */
            c->verdict = MCX_OOM;
            c->detail = fmt(MCC_OOM_DETAIL, (unsigned long long)(r->over_memory >> 20));
        } else {
            c->verdict = MCX_HANG;
            c->detail = fmt("no exit within %g s: killed", o->timeout_s);
        }
        break;
    default:
        c->verdict = MCX_ERROR;
        if ((r->exit_code == 127 || r->exit_code == 126) && !(r->error && strncmp(r->error, "cannot enter", 12) == 0))
            /* the command runs in the case directory: a relative path no longer resolves */
            c->detail = fmt("runner error: the shell could not %s the exporter command (exit %d) in the case "
                            "directory: give absolute paths or start them with {cwd}%s%s",
                            r->exit_code == 127 ? "find" : "execute", r->exit_code, line[0] ? "; " : "", line);
        else
            c->detail = fmt("runner error: %s", r->error ? r->error : "not run");
        break;
    }
    c->detail = stable_text(c->detail, c, root, 0);
}

/* ---- the run ----------------------------------------------------------------------- */

static void tally(mcx_run *r)
{
    for (size_t i = 0; i < r->count; i++) {
        const mcx_case *c = &r->cases[i];
        r->loop_cases += c->verdict == MCX_CONFORMING && c->loops > 0;
        r->total.total++;
        r->total.verdict[c->verdict]++;
        size_t g = 0;
        while (g < r->group_count && strcmp(r->groups[g].name, c->group) != 0) g++;
        if (g == r->group_count && g < sizeof r->groups / sizeof *r->groups) r->groups[r->group_count++].name = c->group;
        if (g < r->group_count) r->groups[g].counts.total++, r->groups[g].counts.verdict[c->verdict]++;
    }
}

/* ---- relative paths in the command ---------------------------------------------------- */

/* The shell word w (n bytes) without one pair of enclosing quotes, into buf;
 * 0 when it is something other than a plain name (expansions, globs,
 * redirections, inner quotes, placeholders), which is never rewritten. */
static int plain_word(const char *w, size_t n, char *buf, size_t size)
{
    if (n >= 2 && (w[0] == '\'' || w[0] == '"') && w[n - 1] == w[0]) w++, n -= 2;
    if (!n || n >= size) return 0;
    for (size_t i = 0; i < n; i++)
        if (strchr("'\"\\$`*?[~<>;&|(){}", w[i])) return 0;
    memcpy(buf, w, n);
    buf[n] = '\0';
    return 1;
}

/* A relative path naming a regular file of the directory certify started in. */
static int local_file(const char *path)
{
    struct stat st;
    return path[0] != '/' && path[0] != '-' && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int separator(const char *w, size_t n)
{
    static const char *const seps[] = {";", "&&", "||", "|", "(", "!"};
    for (size_t i = 0; i < sizeof seps / sizeof *seps; i++)
        if (n == strlen(seps[i]) && strncmp(w, seps[i], n) == 0) return 1;
    return 0;
}

typedef struct path_list {
    char **v;
    size_t n, cap;
    int oom;
} path_list;

static void add_path(path_list *l, const char *dir, const char *name)
{
    if (l->oom) return;
    if (l->n + 2 > l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->oom = 1;
            return;
        }
        l->v = v, l->cap = cap;
    }
    if (!(l->v[l->n] = dir ? fmt("%s/%s", dir, name) : strdup(name))) {
        l->oom = 1;
        return;
    }
    l->v[++l->n] = NULL;
}

/* For the sandbox: what a plain word names, a file or directory (relative
 * to cwd) or, in a NAME=value or --option=value word, its value; a bare
 * program name as the shell finds it in PATH. */
static void collect(path_list *l, const char *word, int program, const char *cwd)
{
    const char *eq = strchr(word, '='), *v = eq && !memchr(word, '/', (size_t)(eq - word)) ? eq + 1 : word;
    struct stat st;
    if (program && v == word && !strchr(word, '/')) {
        const char *path = getenv("PATH");
        char buf[4096];
        for (const char *p = path ? path : ""; *p;) {
            size_t n = strcspn(p, ":");
            if (n && p[0] == '/' && (size_t)snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, word) < sizeof buf &&
                access(buf, X_OK) == 0) {
                add_path(l, NULL, buf);
                return;
            }
            p += n + (p[n] == ':');
        }
        return;
    }
    if (!*v || stat(v, &st) != 0) return;
    if (v[0] == '/') add_path(l, NULL, v);
    else if (cwd[0]) add_path(l, cwd, v);
}

/* For the sandbox: the absolute paths inside a word that is no plain name,
 * each where it starts after a quote, '=', '(' or ':' and up to the next
 * quote or shell character: python3 -c 'ctypes.CDLL("/opt/x.so")'. */
static void collect_inner(path_list *l, const char *w, size_t n)
{
    static const char stop[] = " \t\n'\"`$;&|()<>*?[]{}\\";
    char path[4096];
    struct stat st;
    for (size_t i = 0; i < n; i++) {
        if (w[i] != '/' || (i && !strchr(stop, w[i - 1]) && w[i - 1] != '=' && w[i - 1] != ':')) continue;
        size_t k = i;
        while (k < n && !strchr(stop, w[k])) k++;
        if (k - i < sizeof path) {
            memcpy(path, w + i, k - i);
            path[k - i] = '\0';
            if (stat(path, &st) == 0) add_path(l, NULL, path);
        }
        i = k;
    }
}

static char *walk_command(const char *cmd, path_list *paths, char *why, size_t why_size);

static char *resolve_command(const char *cmd, char *why, size_t why_size)
{
    return walk_command(cmd, NULL, why, why_size);
}

void mcc_free_paths(char **paths)
{
    for (char **p = paths; p && *p; p++) free(*p);
    free(paths);
}

char **mcc_command_paths(const char *cmd)
{
    path_list l = {0};
    char why[512];
    free(walk_command(cmd, &l, why, sizeof why));
    if (!l.oom && !l.v) l.v = calloc(1, sizeof *l.v);
    if (l.oom) mcc_free_paths(l.v);
    return l.oom ? NULL : l.v;
}

/* Every case runs in its own directory, so a relative path in the command
 * would look there. The program of each simple command (a relative path
 * with a '/': a bare name is looked up in PATH) and, after a program that
 * is not such a file (an interpreter), its first word that is no option
 * (the script: python3 tool.py, blender -b -P export.py) are made absolute
 * when they name a file of the start directory. Any other word naming such
 * a file is refused: it may be an input the exporter needs or a name it
 * writes, and guessing wrong would read or overwrite the user's file. The
 * result (shell-quoted absolute paths) is what runs; reports show the
 * command as given. NULL with why on a refusal or OOM. With paths, the
 * words are only collected, for the sandbox (mcc_command_paths): nothing is
 * refused or rewritten. */
static char *walk_command(const char *cmd, path_list *paths, char *why, size_t why_size)
{
    char cwd[4096], word[1024];
    if (!getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
    sbuf b = {0};
    put(&b, "", 0, 0);
    enum { PROGRAM, SCRIPT, ARGS } at = PROGRAM;
    for (const char *p = cmd; *p;) {
        size_t gap = strspn(p, " \t\n");
        put(&b, p, gap, 0);
        p += gap;
        size_t n = strcspn(p, " \t\n");
        if (!n) break;
        int plain = plain_word(p, n, word, sizeof word), file = plain && cwd[0] && local_file(word);
        if (!plain) word[0] = '\0';
        int rewrite = !paths && file && ((at == PROGRAM && strchr(word, '/')) || at == SCRIPT);
        if (paths) { /* a word cut by ; & | ( ) without blanks counts too: `tool.py; exit 1` */
            size_t a = strspn(p, "("), m = n;
            char bare[1024];
            while (m > a && strchr(";&|)", p[m - 1])) m--;
            if (m > a && plain_word(p + a, m - a, bare, sizeof bare))
                collect(paths, bare, at == PROGRAM && !strchr(bare, '='), cwd);
            else
                collect_inner(paths, p, n);
        }
        if (file && !rewrite && !paths) {
            char shown[2048], rel_shown[2048];
            mcc_shown(word, shown, sizeof shown);
            mcc_shown(strncmp(word, "./", 2) == 0 ? word + 2 : word, rel_shown, sizeof rel_shown);
            free(b.p);
            if (at == PROGRAM)
                snprintf(why, why_size, "the exporter command's program '%s' is a file of the directory certify "
                         "started in, but the shell looks a bare name up in PATH: write ./%s", shown, shown);
            else
                snprintf(why, why_size, "the exporter command names '%s', a file of the directory certify started "
                         "in, by a relative path, but every case runs in its own directory (only the program and "
                         "an interpreter's script are made absolute): write {cwd}/%s for that file, or {dir}/%s "
                         "for one in the case directory", shown, rel_shown, rel_shown);
            return NULL;
        }
        if (rewrite) {
            const char *rel = strncmp(word, "./", 2) == 0 ? word + 2 : word;
            char abs[sizeof cwd + sizeof word + 1];
            snprintf(abs, sizeof abs, "%s/%s", cwd, rel);
            put(&b, abs, strlen(abs), 1);
        } else {
            put(&b, p, n, 0);
        }
        if (separator(p, n)) at = PROGRAM;
        else if (at == PROGRAM && !(strchr(word, '=') && !strchr(word, '/')))
            at = rewrite || !plain ? ARGS : SCRIPT; /* NAME=value prefixes keep the program to come */
        else if (at == SCRIPT && word[0] != '-') at = ARGS; /* the script, or no plain word: done */
        p += n;
    }
    if (b.oom) {
        free(b.p);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    return b.p;
}

static int check_options(const mcx_options *o, char *why, size_t why_size)
{
    char shown[2048];
    if (mcc_format_index(o->format) < 0)
        return snprintf(why, why_size, "--exporter needs --format (aem, semodel, aamf, e3d, nlm)"), -1;
    if (!strstr(o->command, "{out}") && !o->output_name)
        return snprintf(why, why_size, "the exporter command has no {out}: give --output-name to say where it writes"), -1;
    if (o->only_scene) {
        size_t i = 0;
        while (i < mcs_scene_count() && strcmp(mcs_scene_name(i), o->only_scene) != 0) i++;
        if (i == mcs_scene_count()) return snprintf(why, why_size, "no scene named '%s'", mcc_shown(o->only_scene, shown, sizeof shown)), -1;
    }
    return mcx_scope_check(o->scope, why, why_size);
}

/* ---- watching the run (watch.c) -------------------------------------------------- */

/* How an ended case went, before grading: a label for the progress line,
 * and whether (and how) it failed, in words equal for cases that failed
 * alike (the case's directory and scene name replaced). */
static const char *classify_ended(void *ctx, size_t index, const mcc_result *res, int *failed, char *how,
                                  size_t how_size)
{
    const mcx_run *run = ctx;
    const mcx_case *c = &run->cases[index];
    char line[200];
    char *tail = stable_text(res->stderr_tail ? strdup(res->stderr_tail) : NULL, c, run->root, 0);
    tail = replace_all(tail, c->scene, "{stem}");
    last_line(tail, line, sizeof line);
    free(tail);
    const char *said = line[0] ? ": " : "";
    *failed = 1;
    switch (res->outcome) {
    case MCC_ACCEPTED: {
        struct stat st;
        if (stat(c->out_path, &st) == 0) {
            *failed = 0;
            return "written";
        }
        snprintf(how, how_size, "exited 0 without writing its output ({out} or --output-name)%s%s", said, line);
        return "no output";
    }
    case MCC_REJECTED:
        *failed = c->fit == MCS_FITS;
        snprintf(how, how_size, "exited %d%s%s", res->exit_code, said, line);
        return res->exit_code == 126 || res->exit_code == 127 ? "not run" : "refused";
    case MCC_CRASHED:
        if (mcc_is_leak(res)) {
            snprintf(how, how_size, "leaked memory");
            return "leak";
        }
        snprintf(how, how_size, "crashed (%s)", res->sanitizer ? res->sanitizer : mcc_signal_name(res->signal) ? mcc_signal_name(res->signal) : "signal");
        return "crash";
    case MCC_TIMED_OUT:
        if (res->over_memory) {
            snprintf(how, how_size, "used more than %llu MiB of memory", (unsigned long long)(res->over_memory >> 20));
            return "oom";
        }
        if (res->over_output) {
            snprintf(how, how_size, "wrote more than %llu bytes", (unsigned long long)res->over_output);
            return "failed";
        }
        snprintf(how, how_size, "hung");
        return "hang";
    default:
        snprintf(how, how_size, "could not be run%s%s", res->error ? ": " : "", res->error ? res->error : "");
        return "error";
    }
}

int mcx_certify(const mcx_options *o, mcx_run *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->opt = *o;
    if (check_options(o, why, why_size) != 0) return -1;
    mcx_options run_opt = *o; /* what runs: relative program and script paths made absolute */
    char *command = resolve_command(o->command, why, why_size);
    if (!command) return -1;
    run_opt.command = command;
    const char *tmp = getenv("TMPDIR");
    out->root = fmt("%s/mc-certify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!out->root || !mkdtemp(out->root)) {
        free(command);
        return snprintf(why, why_size, "cannot create a temporary directory: %s", strerror(errno)), -1;
    }
    size_t n = mcs_scene_count();
    out->cases = calloc(n, sizeof *out->cases);
    mcc_case *rc = calloc(n, sizeof *rc);
    mcc_result *res = calloc(n, sizeof *res);
    int status = out->cases && rc && res ? 0 : -1;
    if (status) snprintf(why, why_size, "out of memory");
    size_t *scene_of = calloc(n, sizeof *scene_of);
    char *stopped = NULL;
    for (size_t i = 0; status == 0 && i < n; i++) {
        if (o->only_scene && strcmp(mcs_scene_name(i), o->only_scene) != 0) continue;
        scene_of[out->count] = i;
        status = make_case(&run_opt, out->root, i, &out->cases[out->count], &rc[out->count], why, why_size);
        out->count++;
    }
    if (status == 0) {
        mcc_corpus corpus = {.dir = out->root, .generator = "", .manifest_cases = out->count, .cases = rc,
                             .count = out->count};
        mcc_loader loader = {.mode = MCC_MODE_COMMAND, .command = command};
        mcc_run_options ro = {.timeout_s = o->timeout_s, .jobs = o->jobs, .max_output_bytes = o->max_output_bytes,
                              .bwrap = o->bwrap, .max_memory = o->max_memory};
        const char **names = calloc(out->count + 1, sizeof *names), **inputs = calloc(out->count + 1, sizeof *inputs);
        for (size_t i = 0; names && inputs && i < out->count; i++)
            names[i] = out->cases[i].scene, inputs[i] = out->cases[i].in_path;
        mcc_watch_options wo = {.progress = o->progress, .sanity = !o->no_sanity_stop, .names = names,
                                .inputs = inputs, .classify = classify_ended, .ctx = out};
        mcc_watcher *w = names && inputs ? mcc_watcher_new(&wo, out->count) : NULL;
        if (w) ro.watch = mcc_watcher_fn, ro.watch_input = mcc_watcher_input, ro.watch_ctx = w;
        int ran = mcc_run(&loader, &corpus, &ro, res);
        mcc_watcher_finish(w);
        if (ran == -2) /* the watch stopped it: what ran is graded, the rest said not run */
            stopped = strdup(mcc_watcher_stop_reason(w) ? mcc_watcher_stop_reason(w) : "stopped");
        mcc_watcher_free(w);
        free(names), free(inputs);
    }
    /* a SIGINT or SIGTERM, during the run or the grading: the cases not
     * graded are errors, the report is partial (status 1) */
    for (size_t i = 0; status == 0 && i < out->count; i++) {
        mcx_case *c = &out->cases[i];
        if (c->verdict == MCX_SKIPPED || c->verdict == MCX_OUT_OF_SCOPE) continue;
        if (stopped && res[i].outcome == MCC_NOT_RUN) {
            free(c->detail);
            c->verdict = MCX_ERROR;
            c->detail = fmt("runner error: not run: " MCC_SANITY_NOT_RUN);
            continue;
        }
        if (!mcc_interrupted()) {
            grade(o, out->root, c, &res[i]);
            continue;
        }
        free(c->detail);
        c->verdict = MCX_ERROR;
        c->detail = fmt("runner error: not run or not graded: certify was interrupted (SIGINT or SIGTERM)");
    }
    /* conventions are settled over the graded cases only: an interrupted
     * run's errors are not judged again */
    if (status == 0 && !mcc_interrupted() && !stopped) settle_conventions(o, out, out->root);
    /* what the sandbox saw each case try, after its verdict's own detail */
    for (size_t i = 0; status == 0 && i < out->count; i++) {
        mcx_case *c = &out->cases[i];
        if (!res[i].sandbox_note || !c->detail) continue;
        char *both = fmt("%s; %s", c->detail, res[i].sandbox_note);
        if (both) free(c->detail), c->detail = both;
    }
    if (status == 0) tally(out);
    if (status == 0 && mcc_interrupted()) {
        snprintf(why, why_size, "interrupted (every exporter process was killed; the report is partial)");
        status = 1;
    } else if (status == 0 && stopped) {
        snprintf(why, why_size, "%s (the report is partial)", stopped);
        status = 1;
    }
    free(stopped);
    for (size_t i = 0; rc && i < out->count; i++) free((char *)rc[i].command);
    mcc_results_free(res, res ? out->count : 0);
    free(rc);
    free(scene_of);
    free(command);
    if (!o->keep) out->cleanup_failures = mcx_remove_tree(out->root);
    return status;
}

void mcx_run_free(mcx_run *r)
{
    for (size_t i = 0; r->cases && i < r->count; i++) {
        mcx_case *c = &r->cases[i];
        free(c->dir), free(c->in_path), free(c->out_path), free(c->detail), free(c->stderr_tail);
        mcx_findings_free(&c->findings);
        if (c->picture) mcx_picture_free(c->picture), free(c->picture);
        for (size_t k = 0; k < c->error_count; k++) free(c->errors[k]);
        for (size_t k = 0; k < c->warning_count; k++) free(c->warnings[k]);
        free(c->errors), free(c->warnings), free(c->warning_at);
    }
    free(r->cases);
    free(r->root);
    memset(r, 0, sizeof *r);
}
