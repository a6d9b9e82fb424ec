/*
 * modelcheck certify --exporter: runs an exporter over every bundled source
 * scene (conformance/scenes) and grades each output (docs/CERTIFY.md,
 * "Certify an exporter"):
 *
 *   exporter.c         the cases (one fresh directory per scene), the run
 *                      (runner.c's process groups, timeouts, bounded
 *                      capture) and the verdict of each case
 *   faithful.c         the output, loaded by the reference loader, against
 *                      the scene's facts
 *   report_exporter.c  the certificate: text, JSON, JUnit XML, HTML
 *
 * Prefix: mcx_.
 */
#ifndef MC_EXPORTER_H
#define MC_EXPORTER_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "mc_certify.h"
#include "mc_scene.h"
#include "mcl.h"

typedef enum mcx_verdict {
    MCX_CONFORMING = 0, /* a valid, faithful output */
    MCX_REFUSED,        /* a non-zero exit on a scene the format cannot (fully) hold: correct */
    MCX_FAILED,         /* a non-zero exit on a scene the format holds */
    MCX_INVALID,        /* the output breaks the format's spec */
    MCX_UNFAITHFUL,     /* valid, but not what the scene holds */
    MCX_CRASH,
    MCX_HANG,
    MCX_NO_OUTPUT,      /* exit 0 and no output file */
    MCX_ERROR,          /* the runner could not run the case */
    MCX_SKIPPED,        /* the scene has no form the exporter reads (--scene-format obj) */
    MCX_OUT_OF_SCOPE,   /* outside what the exporter claims to write (--scope): listed, not run, not scored */
    MCX_LEAK,           /* exited after a LeakSanitizer report (counted apart from crashes) */
    MCX_OOM,            /* killed for its resident memory (--max-memory), not at the deadline */
    MCX_VERDICT_COUNT
} mcx_verdict;

const char *mcx_verdict_name(mcx_verdict v);  /* "conforming", "refused", "failed", ... */
const char *mcx_verdict_label(mcx_verdict v); /* "conforming", "refused (correct)", ... */
/* conforming and correct refusals pass */
int mcx_verdict_passes(mcx_verdict v);

typedef struct mcx_options {
    const char *command;     /* {in} {out} {stem} {dir} {format} are replaced */
    const char *output_name; /* NULL: {out} = <stem>.<format> in the case directory */
    const char *format;      /* target format, one of mcc_format_names */
    mcs_form form;           /* what {in} is */
    const char *only_scene;  /* NULL, or run this scene only */
    double timeout_s;
    unsigned jobs;
    uint64_t max_output_bytes;
    int werror;              /* warnings in the output make it invalid */
    int keep;                /* keep the case directories (their path is printed) */
    const struct mcx_convention *convention; /* demanded (--convention), NULL: any, one per run */
    const char *scope;       /* --scope: static|skinned|animated|all and/or group names, comma-separated; NULL all */
    FILE *progress;          /* the progress line goes there (a terminal), NULL: none */
    int no_sanity_stop;      /* run every case even when the first ones all fail alike */
    int pictures;            /* draw every judged case in HTML, not only the unfaithful ones */
    const char *bwrap;       /* run each case in bubblewrap (mcc_run_options.bwrap), or NULL */
    uint64_t max_memory;     /* resident memory per case (runner.c, memory.c), 0: none */
    const char *isolation;   /* what the certificate says: "bubblewrap", "none (why)"; or NULL */
} mcx_options;

/* Is --scope's text valid? 0, or -1 with the reason. */
int mcx_scope_check(const char *scope, char *why, size_t why_size);

/* An output with more than this many times the scene's triangles (plus
 * 1024) is unfaithful without being built (exporter.c, over_geometry). */
#define MCX_GEOMETRY_FACTOR 16

#define MCX_MAX_FINDINGS 12  /* lost facts listed per case (the count stays exact) */

typedef struct mcx_findings {
    unsigned count;
    char *items[MCX_MAX_FINDINGS];
} mcx_findings;

/* Adds one finding (printf-style); counted also when not kept. */
void mcx_find(mcx_findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mcx_findings_free(mcx_findings *f);

/* How an animation's frames stand for the scene's time in a format without
 * a time unit (SAMF, E3D; docs/CERTIFY.md, "Faithfulness"): either reading,
 * per animation; N frames over [0, T], the last frame the end pose; or N
 * frames over [0, T), looping, the last frame wrapping to the first. */
#define MCX_LOOP_EITHER (-1)
#define MCX_LOOP_END 0
#define MCX_LOOP_WRAP 1

/* How the animations' frames matched the scene: those that matched only
 * read as a loop (correct, and worth saying, since a runtime that does not
 * wrap shows them one frame short) and those that matched only with the
 * last frame at the end. An exporter writes one or the other throughout:
 * the run holds every animation to the reading most cases need. */
typedef struct mcx_loops {
    unsigned count;    /* matched only as loops */
    char first[52];    /* the first one's name quoted (cut at 40 bytes), or "(unnamed)" */
    unsigned ends;     /* matched only with the last frame at the end */
    int first_reading; /* the first animation matched by one reading only: MCX_LOOP_* + 1, or 0 */
} mcx_loops;

/* The facts of the scene that the model lost or changed, for a format of
 * those capabilities. Order-independent: vertex order, index width, mesh
 * splitting and merging and baked node transforms do not matter. */
void mcx_faithful(const mcs_facts *facts, const mcs_caps *caps, const mcl_model *m,
                  mcx_findings *out, mcx_loops *loops);

/* ---- conventions (convention.c, docs/CERTIFY.md "Conventions") -------------
 * A whole-model transform an exporter applies on purpose: the UV origin
 * (V flipped), the up axis, the unit, the front-face winding. Where one
 * explains every vertex, the output is judged under it and the certificate
 * names it. As a demand (--convention) a field may be free: -1 (scale 0). */
typedef enum mcx_up {
    MCX_UP_Y = 0,  /* glTF's: identity */
    MCX_UP_Z,      /* (x, y, z) -> (x, -z, y) */
    MCX_UP_NEG_Z,  /* (x, y, z) -> (x, z, -y) */
    MCX_UP_X,      /* (x, y, z) -> (y, -x, z) */
    MCX_UP_NEG_X,  /* (x, y, z) -> (-y, x, z) */
    MCX_UP_NEG_Y,  /* (x, y, z) -> (x, -y, -z) */
    MCX_UP_COUNT
} mcx_up;

typedef struct mcx_convention {
    int flip_v;    /* 1: v' = 1 - v (a bottom-left UV origin) */
    int up;        /* mcx_up */
    double scale;  /* output = scene * scale */
    int reversed;  /* 1: every triangle's corners in reverse order */
    int loop;      /* the reading of animation frames (MCX_LOOP_*): held apart from the
                    * geometric fields, which alone mcx_convention_equal compares */
} mcx_convention;

/* glTF's own: top-left UVs, Y up, scale 1, counter-clockwise; frames read
 * either way. */
mcx_convention mcx_convention_none(void);
/* Every field free. */
mcx_convention mcx_convention_any(void);
int mcx_convention_is_none(const mcx_convention *c);
int mcx_convention_equal(const mcx_convention *a, const mcx_convention *b);
/* "uv=top-left|bottom-left,up=y|z|-z|x|-x|-y,scale=N,winding=ccw|cw,loop=yes|no"
 * (any subset) into a demand; 0, or -1 with the reason. */
int mcx_convention_parse(const char *text, mcx_convention *out, char *why, size_t why_size);
/* "UV origin bottom-left: V flipped at all 36 vertices; Z-up: (x, y, z) ->
 * (x, -z, y)", "" for none (uv_vertices 0: no count). */
void mcx_convention_text(const mcx_convention *c, unsigned uv_vertices, char *buf, size_t size);
/* The spec clause a convention departs from in that format, NULL when the
 * spec leaves it open (E3D fixes y up). */
const char *mcx_convention_fixed(const char *format, const mcx_convention *c);

typedef struct mcx_judgement {
    mcx_convention used;    /* the convention the case was judged under */
    int explained;          /* 1: a convention other than none explained every fact */
    unsigned uv_vertices;   /* triangle corners with UVs in the output (for "V flipped at all N") */
} mcx_judgement;

/* mcx_faithful under conventions. search 0: under `want` (free fields as
 * none). search 1: under none first (when `want` allows it), then every
 * candidate `want` allows, the first with no finding winning; without one,
 * the findings are those under none (or `want`'s fixed fields). */
void mcx_judge(const mcs_facts *facts, const mcs_caps *caps, const mcl_model *m, const mcx_convention *want,
               int search, mcx_judgement *j, mcx_findings *out, mcx_loops *loops);
/* The triangles and bones the HTML certificate draws (faithful.c). */
#define MCX_PICTURE_TRIS 3000
typedef struct mcx_picture {
    uint32_t skip;
    size_t scene_count, model_count;        /* triangles */
    float *scene, *model;                   /* 9 floats each: the output's with conventions undone */
    unsigned char *scene_lost, *model_extra; /* matched nothing */
    size_t scene_bone_count, model_bone_count;
    float *scene_bones, *model_bones;       /* 6 floats each: a bone and its parent */
    int *scene_key, *model_key;             /* per triangle: the scene bone weighing most on
                                             * it, MCX_PICTURE_NO_BONE or MCX_PICTURE_ODD_BONE */
} mcx_picture;
/* A triangle's key without influences, or whose strongest bone is one the
 * scene does not have. */
enum { MCX_PICTURE_NO_BONE = -1, MCX_PICTURE_ODD_BONE = -2 };
void mcx_picture_free(mcx_picture *p);
/* mcx_faithful_skip with every animation's frames held to one reading
 * (loop: MCX_LOOP_*, MCX_LOOP_EITHER for none) that also fills pic (NULL:
 * none). */
void mcx_faithful_pic(const mcs_facts *facts, const mcs_caps *caps, const mcl_model *m, uint32_t skip, int loop,
                      mcx_findings *out, mcx_loops *loops, mcx_picture *pic);
/* The picture of the model under convention c (convention.c); 0 or -1. */
int mcx_picture_build(const mcs_facts *facts, const mcs_caps *caps, const mcl_model *m, const mcx_convention *c,
                      mcx_picture *pic);

/* mcx_faithful with the model's first `skip` bones left out of matching
 * (an added root that carries a convention). */
void mcx_faithful_skip(const mcs_facts *facts, const mcs_caps *caps, const mcl_model *m, uint32_t skip,
                       mcx_findings *out, mcx_loops *loops);

typedef struct mcx_case {
    const char *scene, *group, *feature; /* the scene's (static strings) */
    mcs_fit fit;
    char note[160];           /* what the format cannot keep */
    char *dir;                /* the case's working directory */
    char *in_path, *out_path; /* absolute */
    mcx_verdict verdict;
    char *detail;             /* one line */
    mcx_findings findings;    /* lost facts, validator codes or refusal reason */
    char **errors;            /* validator error codes with first offsets, "CODE@0x1c" */
    size_t error_count;
    char **warnings;          /* validator warning codes */
    uint64_t *warning_at;     /* the first offset of each */
    size_t warning_count;
    uint64_t output_bytes;
    uint64_t input_bytes;     /* what the case directory held before the run (the scene) */
    int exit_code, signal;
    char *stderr_tail;
    double duration_ms;
    int judged;               /* 1: a valid output was compared with the scene */
    mcx_judgement judgement;  /* the conventions it was compared under */
    unsigned loops;           /* animations that matched only read as loops */
    unsigned loop_ends;       /* animations that matched only with the last frame at the end */
    int loop_first;           /* the reading of its first animation matched by one only (MCX_LOOP_* + 1), or 0 */
    mcx_picture *picture;     /* what the HTML certificate draws (unfaithful cases, or all with --pictures), or NULL */
    unsigned escaped;         /* processes that left its process group, killed */
} mcx_case;

typedef struct mcx_counts {
    unsigned total;
    unsigned verdict[MCX_VERDICT_COUNT];
} mcx_counts;

typedef struct mcx_group {
    const char *name;
    mcx_counts counts;
} mcx_group;

typedef struct mcx_run {
    mcx_options opt;
    char *root;               /* the temporary directory of all cases */
    mcx_case *cases;
    size_t count;
    mcx_counts total;
    mcx_group groups[16];     /* by scene group, in first-seen order */
    size_t group_count;
    mcx_convention convention; /* the run's conventions (none, the demanded, or found) */
    unsigned convention_cases; /* cases that needed them */
    unsigned loop_cases;       /* conforming cases whose animations matched only as loops */
    int loop;                  /* the run's reading of animation frames (MCX_LOOP_*): demanded, or the one most
                                * cases need, MCX_LOOP_EITHER when no animation told them apart */
    unsigned cleanup_failures; /* entries of root that could not be removed */
} mcx_run;

/* Runs every case; 0, 1 when interrupted (SIGINT/SIGTERM, see
 * mcc_catch_signals: every exporter process killed, the cases not graded
 * are errors, the run is complete enough for a partial report; why says
 * so), or -1 with a one-line reason in why (bad options, cannot create
 * directories). The temporary directory is removed in every case (unless
 * keep), its failures counted in cleanup_failures. */
int mcx_certify(const mcx_options *o, mcx_run *out, char *why, size_t why_size);
void mcx_run_free(mcx_run *r);

/* "1 warning: CODE at 0x1c" or "2 warnings: A at 0x10, B at 0x2c" (the
 * first few); "" without warnings. */
void mcx_warnings_text(const mcx_case *c, char *buf, size_t size);

/* Case directories (tree.c): removal and the bytes of the regular files
 * they hold, both iterative (any depth), never following a link.
 * mcx_remove_tree returns the number of entries it could not remove. */
unsigned mcx_remove_tree(const char *root);
uint64_t mcx_tree_bytes(const char *root);

/* What a removed tree held besides directories: how many entries, and the
 * first MCX_LISTED relative paths in byte order (malloc'ed, raw bytes). */
#define MCX_LISTED 3
typedef struct mcx_listing {
    uint64_t count;
    char *first[MCX_LISTED];
    const char *skip_top; /* a top-level directory left out of it, or NULL */
} mcx_listing;
/* mcx_remove_tree, listing what it removes into *list (zeroed first but for
 * skip_top); free the names with mcx_listing_free. */
unsigned mcx_remove_tree_listing(const char *root, mcx_listing *list);
/* The same for what is under an open directory (a tmpfs held from
 * outside a sandbox), the directory itself kept; dir_fd stays open. */
unsigned mcx_empty_dir_listing(int dir_fd, mcx_listing *list);
void mcx_listing_free(mcx_listing *list);

/* passes / (total - skipped), percent rounded to 0.1; 100 when nothing ran */
double mcx_score(const mcx_counts *c);
int mcx_counts_pass(const mcx_counts *c);

/* Certificates (report_exporter.c). */
typedef struct mcx_report {
    const mcx_run *run;
    const char *version;
    const char *timestamp;    /* or NULL */
    int timings;
} mcx_report;

void mcx_report_text(FILE *out, const mcx_report *r);
cJSON *mcx_report_json(const mcx_report *r);
void mcx_report_junit(FILE *out, const mcx_report *r);
void mcx_report_html(FILE *out, const mcx_report *r);

#endif
