/*
 * modelcheck certify: runs a model loader over the conformance corpus and
 * grades every answer against the manifest (docs/CERTIFY.md).
 *
 *   manifest.c  the cases (corpus/manifest.json; "any" cases run once per format)
 *   runner.c    one process per case: command, dlopen'ed library or reference
 *               loaders; timeouts, process groups, bounded output capture
 *   verdict.c   outcome -> verdict, scores per format and per rule group
 *   report_*.c  the certificates: text, JSON, JUnit XML, HTML (mc_certify_report.h)
 * The `modelcheck certify` command that drives them is cli/certify.c.
 *
 * Prefix: mcc_. No global state apart from the flag the runner's SIGINT and
 * SIGTERM handler sets.
 */
#ifndef MC_CERTIFY_H
#define MC_CERTIFY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mc_loader_abi.h"

#define MCC_FORMAT_COUNT 5
/* "aem", "semodel", "aamf", "e3d", "nlm": the order of every report. */
extern const char *const mcc_format_names[MCC_FORMAT_COUNT];
/* Index in mcc_format_names, -1 when unknown. */
int mcc_format_index(const char *name);

/* The stderr bytes kept per case (the last ones: where a crash report ends). */
#define MCC_STDERR_TAIL 4096
/* The bytes kept of a sanitizer report from its first line on (where its
 * stack is, which a long report pushes out of the tail). */
#define MCC_REPORT_HEAD 4096

typedef enum mcc_verdict {
    MCC_CONFORMING = 0, /* valid accepted, invalid rejected */
    MCC_TOO_LENIENT,    /* accepted a file with error-level codes */
    MCC_TOO_STRICT,     /* rejected a valid file */
    MCC_CRASH,          /* killed by a signal, or a sanitizer report on stderr */
    MCC_HANG,           /* still running at the deadline */
    MCC_ERROR,          /* the runner could not run the case */
    MCC_SKIPPED,        /* the case needs a validator option a loader lacks */
    MCC_LEAK,           /* exited after a LeakSanitizer report (counted apart from crashes) */
    MCC_OOM,            /* killed for its resident memory (--max-memory), not at the deadline */
    MCC_VERDICT_COUNT
} mcc_verdict;

typedef enum mcc_outcome {
    MCC_NOT_RUN = 0,
    MCC_ACCEPTED,       /* exit 0 */
    MCC_REJECTED,       /* any other exit status */
    MCC_CRASHED,
    MCC_TIMED_OUT,
    MCC_RUNNER_ERROR
} mcc_outcome;

/* One run of the loader: a manifest case, with "any" cases expanded. */
typedef struct mcc_case {
    char *file;         /* as in the manifest, relative to the corpus */
    char *path;         /* absolute */
    const char *format; /* one of mcc_format_names: the format it is run as */
    char *layout, *rule, *clause, *description;
    char *group;        /* clause up to its first ':'; "valid files" for valid cases */
    int valid;          /* no error-level expected code */
    char **errors;      /* the expected error-level codes */
    size_t error_count;
    char *skip_reason;  /* non-NULL: not run (validator options a loader lacks) */
    /* exporter certification (mc_exporter.h): the complete shell command and
     * its working directory; NULL for loader cases */
    const char *command;
    const char *workdir;
} mcc_case;

typedef struct mcc_corpus {
    char *dir;          /* as given */
    char *generator;    /* the manifest's "generator", "" when absent */
    size_t manifest_cases;
    mcc_case *cases;
    size_t count;
} mcc_corpus;

/* Loads DIR/manifest.json. only_format NULL or a format name (its cases and
 * the "any" cases run as it). Every case file must exist. 0, or -1 with a
 * one-line reason in why. */
int mcc_corpus_load(const char *dir, const char *only_format, mcc_corpus *out, char *why,
                    size_t why_size);
void mcc_corpus_free(mcc_corpus *c);

typedef enum mcc_mode { MCC_MODE_COMMAND, MCC_MODE_LIBRARY, MCC_MODE_REFERENCE } mcc_mode;

typedef struct mcc_loader {
    mcc_mode mode;
    const char *command;  /* MCC_MODE_COMMAND: run by /bin/sh -c, see mcc_command_for */
    const char *library;  /* MCC_MODE_LIBRARY: path of the shared library */
    mc_certify_load_fn fn; /* MCC_MODE_REFERENCE: set by mcc_loader_open */
    void *handle;          /* unused: a library is never loaded in certify's own process */
    double timeout_s;      /* for the load check of a library; 0: 10 s */
    /* set by mcc_loader_open when the library crashed, exited or hung while
     * being loaded in the check's child: every case gets that crash */
    int load_failed;
    int load_exit, load_signal;
    int load_hung;         /* it was still loading at the timeout */
    char *load_stderr;     /* the check's stderr tail, cleaned */
    /* MCC_MODE_LIBRARY in the sandbox: bwrap's path and certify's own binary,
     * re-executed there as `SELF certify --library-child`; NULL: the library
     * is loaded in a forked child of certify, not isolated */
    const char *bwrap;
    const char *self;
} mcc_loader;

/* Checks the loader can be used: for a library, a child process dlopens it
 * and looks MC_CERTIFY_SYMBOL up (its constructors run there, never in
 * certify); for the reference loaders, the built-in entry point. 0 (with
 * load_failed set when the library crashed, exited or hung while loading),
 * or -1 with the reason in why (no such library, no such symbol). */
int mcc_loader_open(mcc_loader *l, char *why, size_t why_size);
void mcc_loader_close(mcc_loader *l);
/* Forgets a load failure (frees load_stderr). */
void mcc_loader_clear_load(mcc_loader *l);

/* The shell command for one case: `{}` -> the shell-quoted absolute path,
 * `{format}` -> the format name. *stdin_file is set when the command has no
 * `{}` (the file is then given on standard input). malloc'ed, NULL on OOM. */
char *mcc_command_for(const char *tmpl, const mcc_case *c, int *stdin_file);

typedef struct mcc_result {
    mcc_outcome outcome;
    int exit_code;        /* -1 when the process did not exit normally */
    int signal;           /* 0, or the signal that ended it */
    const char *sanitizer; /* the marker seen on stderr, or NULL */
    uint64_t stdout_bytes;
    uint64_t stderr_bytes;
    char *stderr_tail;    /* last MCC_STDERR_TAIL bytes, made valid UTF-8 */
    char *report_head;    /* a sanitizer report's first MCC_REPORT_HEAD bytes, or NULL */
    char *crash_site;     /* MCC_CRASHED: mcc_crash_site of the report, or NULL */
    char *error;          /* MCC_RUNNER_ERROR: why */
    double duration_ms;
    mcc_verdict verdict;
    char **missed;        /* MCC_TOO_LENIENT: the expected error codes (borrowed from the case) */
    size_t missed_count;
    /* MCC_CRASHED of an in-process mode: "while loading the library" or
     * "before answering" (the child ended inside mc_certify_load), else NULL */
    const char *phase;
    unsigned escaped;     /* processes that left the case's process group, killed after it */
    /* MCC_TIMED_OUT: killed for using more resident memory than this
     * (--max-memory, memory.c), not at the deadline; 0 otherwise */
    uint64_t over_memory;
    /* MCC_TIMED_OUT: killed while it ran for writing more than this in its
     * case directory (--max-output-bytes, an exporter's), 0 otherwise */
    uint64_t over_output;
    /* what the sandbox saw the case try and blocked (files left in its
     * private home, network attempts), cleaned, or NULL */
    char *sandbox_note;
} mcc_result;

/* The detail of a case the sanity stop left unrun (watch.c). */
#define MCC_SANITY_NOT_RUN "certify stopped early: the first cases all failed the same way without reading their input"
/* Watching a run (watch.c: the progress line and the sanity stop). */
typedef struct mcc_watch_state {
    size_t done, total;   /* cases ended (skipped ones included), all cases */
    size_t slowest;       /* the index of the case running longest, SIZE_MAX when none runs */
    double slowest_ms;    /* how long it has run */
    double elapsed_ms;    /* since the run started */
} mcc_watch_state;
struct mcc_result;
/* Called from the run loop after each case ends (ended = its index, res its
 * result) and about every tick (ended = SIZE_MAX, res NULL). Non-zero stops
 * the run: the running cases are killed and mcc_run returns -2. */
typedef int (*mcc_watch_fn)(void *ctx, const mcc_watch_state *st, size_t ended, const struct mcc_result *res);

typedef struct mcc_run_options {
    double timeout_s;     /* per case, > 0 */
    unsigned jobs;        /* cases at once, >= 1 */
    uint64_t max_output_bytes; /* RLIMIT_FSIZE of each case, 0: none (exporters) */
    mcc_watch_fn watch;   /* NULL: none */
    /* Called before case index starts when it reads another file than its
     * corpus path (a command loader's private copy, without the sandbox), so
     * the watch sees that file read; NULL: none. */
    void (*watch_input)(void *ctx, size_t index, const char *path);
    void *watch_ctx;
    const char *bwrap;    /* commands run in bubblewrap (sandbox.c), NULL: not isolated */
    uint64_t max_memory;  /* resident memory of each case, all its processes (memory.c), 0: none */
} mcc_run_options;

/* ---- memory (memory.c) ---- */

/* How often the runner samples each case's resident memory. */
#define MCC_MEMORY_TICK_MS 50
/* The default --max-memory never goes below this. */
#define MCC_MEMORY_FLOOR ((uint64_t)512 << 20)
/* Resident memory (RssAnon + RssShmem) of pid and every descendant found
 * from it (at most 4096 processes), in bytes. */
uint64_t mcc_tree_rss(long pid);
/* MemTotal, or the memory limit of certify's cgroup when lower; 0 unknown. */
uint64_t mcc_physical_memory(void);
/* The default --max-memory: half of mcc_physical_memory shared by the jobs
 * run at once, at least MCC_MEMORY_FLOOR; 0 (none) when RAM is unknown. */
uint64_t mcc_default_max_memory(unsigned jobs);

/* The sandbox (sandbox.c): bwrap found on PATH and able to create its
 * namespaces here (its path in bwrap), or -1 with why. */
/* Coverage builds: a case's child builds the sandbox's command line after
 * fork and then execs bubblewrap or the shell, and exec drops the counts
 * libgcov would write at exit; they are written first here. A no-op
 * otherwise. */
void mcc_coverage_flush(void);
int mcc_sandbox_probe(char *bwrap, size_t size, char *why, size_t why_size);
/* How a command runs in the sandbox. */
typedef struct mcc_sandbox_spec {
    const char *dir;      /* --chdir there, NULL: none */
    int writable;         /* dir is bound writable (an exporter's case directory) */
    /* NULL-terminated paths the command needs (a file: its directory), each
     * bound back read-only where a hidden root (/tmp, the home directory,
     * /var/tmp, /run) hides it; NULL: none. sandbox.c adds LD_LIBRARY_PATH's
     * directories, LD_PRELOAD's files and, with MCC_DISPLAY, /tmp/.X11-unix. */
    const char *const *need;
    uint64_t hold_bytes;  /* the size of each private tmpfs (/var/tmp, /dev/shm), 0: the kernel's default */
    int info_fd, block_fd; /* bubblewrap's --info-fd and --block-fd, -1: none */
} mcc_sandbox_spec;
/* The size of the tmpfs mounts that hide /tmp, the home directory and /run
 * (read-only: they hold only mount points). */
#define MCC_HIDING_TMPFS "1048576"
/* What a case's private places may hold past --max-memory: filled, they
 * are over it (runner.c), so the case ends as out of memory. */
#define MCC_HOLD_SLACK ((uint64_t)1 << 16)
/* How long certify waits for bubblewrap to mount a case's private places
 * before it lets the case run without holding them. */
#define MCC_HOLD_WAIT_MS 2000
/* The paths a shell command names (exporter.c's parser of the program and
 * script words): each plain word naming an existing file or directory
 * (relative ones against the current directory, made absolute), and a bare
 * program name as found in PATH; NULL-terminated, malloc'ed (free with
 * mcc_free_paths), NULL on OOM. */
char **mcc_command_paths(const char *cmd);
void mcc_free_paths(char **paths);
/* The argv running `/bin/sh -c command` in the sandbox; NULL on OOM. For a
 * child about to exec. */
char **mcc_sandbox_argv(const char *bwrap, const char *command, const mcc_sandbox_spec *sp);
/* The same running the NULL-terminated argv tail instead of a shell. */
char **mcc_sandbox_argv_exec(const char *bwrap, const char *const *tail, const mcc_sandbox_spec *sp);
/* The child pid in bubblewrap's --info-fd JSON, -1 when none. */
long mcc_sandbox_info_pid(const char *info);
/* Network attempts the sandbox blocked: a connect or send to an address
 * off the loopback fails with no route, which the namespace counts
 * (OutNoRoutes of /proc/net/snmp and Ip6OutNoRoutes of snmp6, opened
 * from one of its processes as snmp_fd, snmp6_fd: read again here, after
 * the case). -1 when neither can be read. */
long long mcc_sandbox_net_attempts(int snmp_fd, int snmp6_fd);
/* Coverage builds: where in the private /var/tmp the counts go (not reported). */
#define MCC_GCOV_DIR "gcov"

/* `modelcheck certify --library-child FD PROBE FORMAT LIBRARY` (argv from
 * "--library-child" on, argc counting it): the library's child re-executed
 * in the sandbox; dlopens LIBRARY, answers on FD as a forked child does,
 * the case's bytes on standard input. Never returns. */
__attribute__((noreturn)) void mcc_library_child_main(int argc, char **argv);
/* Is the environment variable name (len bytes) handed to sandboxed commands? */
int mcc_sandbox_env_kept(const char *name, size_t len);

/* Runs every case not skipped; results[i] belongs to corpus->cases[i] whatever
 * the order of completion. Verdicts are filled in. 0, or -1 when interrupted
 * (SIGINT/SIGTERM: every started process group has been killed; the cases
 * that had not finished are runner errors "not run", the others keep their
 * verdicts, for a partial report). A SIGTERM or SIGINT sent by a running
 * case's own process group (a loader's `kill $PPID`) is ignored. -2 when the
 * watch stopped it (killed the same, without the "not run" errors). */
int mcc_run(const mcc_loader *l, const mcc_corpus *corpus, const mcc_run_options *o,
            mcc_result *results);
void mcc_results_free(mcc_result *results, size_t count);

/* ---- watching a run (watch.c) ---- */

#define MCC_SANITY_CASES 5

typedef struct mcc_watch_options {
    FILE *progress;            /* draw the progress line there, NULL: none */
    int sanity;                /* stop when the first MCC_SANITY_CASES cases to end all failed
                                  the same way without reading their input */
    const char *const *names;  /* per case, what the progress line calls it; NULL */
    const char *const *inputs; /* per case, the file a case reads (its input), NULL entries: none */
    /* per ended case: a short label counted on the line ("conforming",
     * "exit 0"), *failed, and how (equal texts: failed the same way) */
    const char *(*classify)(void *ctx, size_t index, const mcc_result *res, int *failed, char *how,
                            size_t how_size);
    void *ctx;
} mcc_watch_options;

/* What the ASan runtime prints when a library built with it is loaded
 * into a process that did not start with it, and what certify says then. */
#define MCC_ASAN_NOT_FIRST "ASan runtime does not come first"
#define MCC_ASAN_NOT_FIRST_HELP                                                                                        \
    "the loader was built with AddressSanitizer, but the ASan runtime was not the first library of the "          \
    "process, so it refused to start. Run certify with the runtime preloaded, LD_PRELOAD=\"$(gcc "                 \
    "-print-file-name=libasan.so)\" modelcheck certify ..., or use an ASan build of modelcheck (cmake "            \
    "--preset asan); docs/CERTIFY.md, \"Certifying an ASan-built loader\""

/* (mcc_loader_open checks for it: the library is loaded in a child.) */

typedef struct mcc_watcher mcc_watcher;
mcc_watcher *mcc_watcher_new(const mcc_watch_options *o, size_t count); /* NULL on OOM */
/* The mcc_watch_fn: pass the watcher as watch_ctx. */
int mcc_watcher_fn(void *watcher, const mcc_watch_state *st, size_t ended, const mcc_result *res);
/* The watch_input hook: case index reads path instead of its input. */
void mcc_watcher_input(void *watcher, size_t index, const char *path);
/* Why it stopped the run, NULL when it did not. */
const char *mcc_watcher_stop_reason(const mcc_watcher *w);
/* Clears the progress line. */
void mcc_watcher_finish(mcc_watcher *w);
void mcc_watcher_free(mcc_watcher *w);
/* From on to off, SIGINT and SIGTERM only set the interrupted flag (every
 * phase: loading, running, grading, reporting), which mcc_run and the
 * exporter's grading check; mcc_interrupted reads it. */
void mcc_catch_signals(int on);
int mcc_interrupted(void);

/* "SIGSEGV", "SIGABRT", ... or NULL for a signal without a short name here. */
const char *mcc_signal_name(int sig);

/* One line saying what happened, e.g. "accepted it; missed AEM_WEIGHT_SUM",
 * "rejected a valid file (exit 1): <last stderr line>", "crashed: SIGSEGV".
 * timeout_s is the one the run used. Returns buf. */
char *mcc_describe(const mcc_case *c, const mcc_result *r, double timeout_s, char *buf,
                   size_t size);

/* Verdicts and scores. */
mcc_verdict mcc_classify(const mcc_case *c, mcc_result *r);
/* A LeakSanitizer report at exit (not a crash): the leak verdict. */
int mcc_is_leak(const mcc_result *r);
const char *mcc_verdict_name(mcc_verdict v);  /* "conforming", "too_lenient", ... */
const char *mcc_verdict_label(mcc_verdict v); /* "conforming", "too lenient", ... */
const char *mcc_outcome_name(mcc_outcome o);  /* "accepted", "rejected", ... */
/* The detail of a case killed at --max-memory (MCC_OOM, MCX_OOM); its
 * argument is the limit in MiB, as unsigned long long. */
#define MCC_OOM_DETAIL "used more than %llu MiB of memory (--max-memory): killed"
/* The result's outcome as reports name it: "over_memory" for a case killed
 * at --max-memory (MCC_TIMED_OUT inside), else mcc_outcome_name. */
const char *mcc_result_outcome_name(const mcc_result *r);
const char *mcc_mode_name(mcc_mode m);        /* "command", "library", "reference" */

typedef struct mcc_counts {
    unsigned total;
    unsigned verdict[MCC_VERDICT_COUNT];
} mcc_counts;

/* conforming / (total - skipped) in percent, rounded to 0.1; 100 when nothing ran. */
double mcc_score(const mcc_counts *c);
/* every case that ran conformed (skipped cases aside) */
int mcc_counts_conforming(const mcc_counts *c);

typedef struct mcc_group {
    char *name;
    mcc_counts counts;
} mcc_group;

typedef struct mcc_format_summary {
    const char *format;
    mcc_counts counts;
    mcc_group *groups;     /* sorted by name (byte order) */
    size_t group_count;
} mcc_format_summary;

typedef struct mcc_summary {
    mcc_counts total;
    mcc_format_summary formats[MCC_FORMAT_COUNT]; /* mcc_format_names order; empty ones have total 0 */
} mcc_summary;

int mcc_summarize(const mcc_corpus *c, const mcc_result *r, mcc_summary *out);
void mcc_summary_free(mcc_summary *s);

/* Crash sites (crash_sites.c): "KIND in FILE:FUNC < FILE:FUNC", the report's
 * kind and its first stack's top frames in the loader's own code; without a
 * report "SIGSEGV (no sanitizer report)", or NULL when signal is 0 too.
 * malloc'ed. */
char *mcc_crash_site(const char *report, int signal);

/* The unhandled exception of a managed runtime in a process's stderr,
 * recognised by the runtime's exit status and the shape of its report:
 * "Python IndexError in reader.py:read_faces" (a traceback, exit 1),
 * ".NET System.IndexOutOfRangeException in Reader.ReadFaces" (Mono's and
 * .NET's reports, a non-zero exit or a signal), "Java
 * java.lang.ArrayIndexOutOfBoundsException in pkg.Reader.read" (exit 1):
 * the exception's type and its innermost frame in the loader's own code
 * (the runtime's library frames skipped when there are others). NULL when
 * there is none.
 * malloc'ed. */
char *mcc_exception_site(const char *stderr_text, int exit_code, int signal);

typedef struct mcc_crash_site_group {
    const char *site;     /* borrowed from a result */
    size_t *cases;        /* indices of the crashed runs that reach it, in corpus order */
    size_t count;
} mcc_crash_site_group;

/* The distinct sites of the crashed runs, most cases first (then by name).
 * 0, or -1 when memory runs out. */
int mcc_crash_sites(const mcc_corpus *c, const mcc_result *r, mcc_crash_site_group **out,
                    size_t *count);
void mcc_crash_sites_free(mcc_crash_site_group *g, size_t count);

/* The one cleaning of every text from outside (stderr, commands, paths):
 * a NUL-terminated string of valid UTF-8 with C0 controls other than \n
 * and \t, DEL, C1 controls, NUL and bytes of no well-formed sequence
 * written \xHH, bidi controls \u20XX, U+FFFE and U+FFFF \uFFFE and
 * \uFFFF. Reports embed it in JSON, XML and HTML (markup escaped) and on a
 * terminal as is. NULL when out of memory. */
char *mcc_clean_text(const unsigned char *bytes, size_t len);

/* name (a path, a command) as text output shows it: quoted as git quotes
 * paths when it holds a control or bidi character, '"' or '\\'
 * (mc_text_quote), written into buf and cut to its size. Returns buf. */
const char *mcc_shown(const char *name, char *buf, size_t size);

/* The whole file, NUL-terminated (the terminator not counted in *size);
 * NULL when it cannot be read or memory runs out. */
unsigned char *mcc_read_file(const char *path, size_t *size);

#endif
