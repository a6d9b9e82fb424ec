/*
 * Runs the loader once per case, each in a child process that leads its own
 * process group, so that nothing a loader does (crash, hang, megabytes of
 * output, children left behind) can take the runner down or outlive its case:
 *
 *   child   setpgid(0, 0); stdin = the file or /dev/null; stdout, stderr =
 *           pipes; then exec /bin/sh -c CMD, or call the in-process entry
 *           point and exit with 0 (accepted) or 1 (rejected)
 *   parent  poll() over every running case (--jobs); stdout is counted and
 *           dropped, stderr is scanned for sanitizer reports and only its last
 *           MCC_STDERR_TAIL bytes are kept, and the first MCC_REPORT_HEAD of
 *           a sanitizer report (its stack: the crash site); at the deadline the group is
 *           SIGKILLed; when the child ends the group is SIGKILLed too (before
 *           the child is reaped, so the group id cannot have been reused), and
 *           pipes a runaway grandchild still holds are drained once and closed
 */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/magic.h> /* TMPFS_MAGIC */
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mc_certify.h"
#include "mc_exporter.h" /* mcx_remove_tree */

/* The reference loaders' entry point (conformance/loaders/certify_entry.c). */
int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

#define CHUNK 65536
#define CARRY 31                 /* >= longest marker - 1 */
#define DRAIN_LIMIT (1u << 20)   /* bytes read from a pipe after the child ended */
#define TICK_MS 10               /* how often exits and deadlines are checked */

/* What a sanitizer prints first; matched anywhere in the stderr stream. */
static const char *const markers[] = {
    "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "ERROR: MemorySanitizer",
    "runtime error:", "ThreadSanitizer",
};

/* Set by SIGINT/SIGTERM while certify runs (mcc_catch_signals) or, without
 * it, while mcc_run runs: the one piece of global state, with the sender
 * of the last signal (to tell a case's `kill $PPID` from the user's ^C). */
static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t sender;
static int caught; /* mcc_catch_signals is on: mcc_run leaves the handlers alone */
static struct sigaction saved_int, saved_term;

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)ctx;
    sender = si && si->si_code == SI_USER ? (sig_atomic_t)si->si_pid : 0;
    interrupted = 1;
}

static void catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal; /* no SA_RESTART: poll() returns at once */
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
}

void mcc_catch_signals(int on)
{
    if (on && !caught) {
        interrupted = sender = 0;
        catch_signals(&saved_int, &saved_term);
        caught = 1;
    } else if (!on && caught) {
        sigaction(SIGINT, &saved_int, NULL);
        sigaction(SIGTERM, &saved_term, NULL);
        caught = 0;
    }
}

int mcc_interrupted(void)
{
    return interrupted != 0;
}

/* Does nothing but exist: a caught SIGCHLD makes poll() return at once when
 * a case ends, instead of at the next tick. */
static void on_child(int sig)
{
    (void)sig;
}

typedef struct slot {
    int used;
    size_t index;
    pid_t pid;
    int out_fd, err_fd;
    int ans_fd;                      /* in-process modes: the child's answer, or -1 */
    size_t ans_len;
    char answer[512];                /* "L" loaded, then "A" or "R"; "E<dlerror>" or "N" (no symbol) */
    int timed_out, status;
    int over_memory;                 /* killed for its resident memory (--max-memory) */
    int over_output;                 /* killed for what it wrote in its case directory (--max-output-bytes) */
    uint64_t dir_bytes;              /* what its case directory held before it ran (its inputs) */
    double start_ms, deadline_ms;
    double sample_ms;                /* when its memory is sampled next */
    double output_ms;                /* when its case directory is measured next */
    /* in the sandbox: bubblewrap's --info-fd (read) and --block-fd (write)
     * until the namespace's network counters are open (net_fd), -1 after */
    int info_fd, block_fd;
    int net_fd[2];                   /* its /proc/net/snmp and snmp6, -1: not open */
    size_t info_len;
    char info[1024];
    /* in the sandbox: its /var/tmp ($HOME, $TMPDIR) and /dev/shm, opened
     * from outside before the command runs; they outlive the namespace
     * while open, so what the case left there is still seen after it */
    int held_fd[2];
    long sandbox_pid;                /* bubblewrap's child (our pid namespace), -1: not known */
    uint64_t out_bytes, err_bytes;
    const char *marker;
    size_t carry;                    /* stderr bytes kept at the start of win */
    size_t head_len;                 /* bytes in head: the report from its first line */
    unsigned char ring[MCC_STDERR_TAIL];
    unsigned char head[MCC_REPORT_HEAD];
    unsigned char win[CARRY + CHUNK];
    char copy[4096];                 /* the case file's private copy, "" for none */
} slot;

typedef struct runner {
    const mcc_loader *loader;
    const mcc_corpus *corpus;
    const mcc_run_options *opt;
    mcc_result *results;
    slot *slots;
    unsigned nslots;
    int probe;                       /* load the library and answer "L" only */
    char *copies;                    /* without the sandbox: where command loaders get copies */
    char **need;                     /* in the sandbox: the paths the command names (sandbox.c) */
    unsigned char sink[CHUNK];       /* stdout bytes land here and are dropped */
    size_t done;                     /* cases ended, for the watch */
    size_t finished;                 /* the index of the case that ended last, SIZE_MAX: none */
    double start_ms;
    int stopped;                     /* the watch asked to stop */
} runner;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A library loaded by certify's own binary re-executed in bubblewrap? */
static int library_sandboxed(const runner *r)
{
    return r->loader->mode == MCC_MODE_LIBRARY && r->loader->bwrap && r->loader->self;
}

/* Does each case run in bubblewrap (a command, or a library's child)? */
static int sandboxed(const runner *r)
{
    return (r->opt->bwrap && r->loader->mode == MCC_MODE_COMMAND) || library_sandboxed(r);
}

/* ---- loader entry points ------------------------------------------------ */

static int run_slots(const mcc_loader *l, const mcc_corpus *corpus, const mcc_run_options *o,
                     mcc_result *results, int probe);
static void result_free(mcc_result *res);

/* dlopen searches the library path for a bare name: "./" keeps it a file */
static void library_path(const char *library, char *path, size_t size)
{
    snprintf(path, size, "%s%s", strchr(library, '/') ? "" : "./", library);
}

/* The library is loaded in a child, as a case is (runner.c's child_main in
 * probe mode): a constructor that exits, aborts or loops ends that child,
 * never certify, and its answer comes over a pipe, not from its exit status. */
static int probe_library(mcc_loader *l, char *why, size_t why_size)
{
    mcc_case c = {.file = "(loading the library)", .format = "aem"};
    mcc_corpus corpus = {.dir = "", .generator = "", .manifest_cases = 1, .cases = &c, .count = 1};
    mcc_run_options o = {.timeout_s = l->timeout_s > 0 ? l->timeout_s : 10, .jobs = 1};
    mcc_result res;
    char shown[4096];
    /* interrupted: not a failure of the library's; the run that follows
     * sees the signal at once and reports every case as not run */
    if (run_slots(l, &corpus, &o, &res, 1) != 0) {
        result_free(&res);
        return mcc_interrupted() ? 0 : (snprintf(why, why_size, "interrupted"), -1);
    }
    mcc_loader_clear_load(l);
    if (res.outcome == MCC_ACCEPTED) { /* the check's "loaded" */
    } else if (res.outcome == MCC_RUNNER_ERROR && res.error && strncmp(res.error, "no symbol", 9) == 0) {
        snprintf(why, why_size, "%s does not export %s (see mc_loader_abi.h)", mcc_shown(l->library, shown, sizeof shown),
                 MC_CERTIFY_SYMBOL);
    } else if (res.outcome == MCC_RUNNER_ERROR && res.error && strncmp(res.error, "dlopen: ", 8) == 0) {
        snprintf(why, why_size, "cannot load %s: %s", mcc_shown(l->library, shown, sizeof shown), res.error + 8);
    } else if (res.outcome == MCC_RUNNER_ERROR) {
        snprintf(why, why_size, "cannot check %s: %s", mcc_shown(l->library, shown, sizeof shown),
                 res.error ? res.error : "runner error");
    } else {
        l->load_failed = 1;
        l->load_exit = res.exit_code;
        l->load_hung = res.outcome == MCC_TIMED_OUT;
        l->load_signal = l->load_hung ? SIGKILL : res.signal;
        l->load_stderr = res.stderr_tail, res.stderr_tail = NULL;
    }
    if (l->load_failed && l->load_stderr && strstr(l->load_stderr, MCC_ASAN_NOT_FIRST)) {
        /* no case could run: certify stops with the fix instead */
        snprintf(why, why_size, "%s", MCC_ASAN_NOT_FIRST_HELP);
        mcc_loader_clear_load(l);
        result_free(&res);
        return -1;
    }
    int bad = res.outcome != MCC_ACCEPTED && !l->load_failed;
    result_free(&res);
    return bad ? -1 : 0;
}

void mcc_loader_clear_load(mcc_loader *l)
{
    free(l->load_stderr);
    l->load_stderr = NULL;
    l->load_failed = l->load_hung = 0;
}

int mcc_loader_open(mcc_loader *l, char *why, size_t why_size)
{
    if (l->mode == MCC_MODE_REFERENCE) {
        l->fn = mc_certify_load;
        return 0;
    }
    if (l->mode != MCC_MODE_LIBRARY) return 0;
    return probe_library(l, why, why_size);
}

void mcc_loader_close(mcc_loader *l)
{
    mcc_loader_clear_load(l);
    l->handle = NULL;
    l->fn = NULL;
}

/* ---- the command line of one case ---------------------------------------- */

/* Appends s to buf (grown as needed); single-quoted for the shell if quote. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, int quote)
{
    size_t need = *len + (quote ? 4 * strlen(s) + 3 : strlen(s)) + 1;
    if (need > *cap) {
        size_t ncap = need * 2;
        char *b = realloc(*buf, ncap);
        if (!b) return -1;
        *buf = b;
        *cap = ncap;
    }
    char *p = *buf + *len;
    if (quote) *p++ = '\'';
    for (; *s; s++) {
        if (quote && *s == '\'') {
            memcpy(p, "'\\''", 4); /* close, escaped quote, reopen */
            p += 4;
        } else {
            *p++ = *s;
        }
    }
    if (quote) *p++ = '\'';
    *p = '\0';
    *len = (size_t)(p - *buf);
    return 0;
}

char *mcc_command_for(const char *tmpl, const mcc_case *c, int *stdin_file)
{
    size_t len = 0, cap = 0;
    char *out = NULL;
    char one[2] = {0, 0};
    int rc = append(&out, &len, &cap, "", 0);
    *stdin_file = 1;
    for (const char *p = tmpl; *p && rc == 0; p++) {
        if (strncmp(p, "{}", 2) == 0) {
            rc = append(&out, &len, &cap, c->path, 1);
            *stdin_file = 0;
            p++;
        } else if (strncmp(p, "{format}", 8) == 0) {
            rc = append(&out, &len, &cap, c->format, 0);
            p += 7;
        } else {
            one[0] = *p;
            rc = append(&out, &len, &cap, one, 0);
        }
    }
    if (rc) {
        free(out);
        return NULL;
    }
    return out;
}

/* ---- the child ------------------------------------------------------------ */

unsigned char *mcc_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f); /* one byte kept for the NUL */
        if (n < cap - 1 || ferror(f)) break;
        unsigned char *bigger = realloc(buf, cap * 2);
        if (!bigger) free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = '\0', *size = n;
    return buf;
}

typedef struct child_args {
    const char *command;       /* command mode */
    int stdin_file;
    const char *in_path;       /* the case file as handed (a copy without the sandbox) */
    const unsigned char *data; /* in-process modes */
    size_t size;
    int out_w, err_w;
    int ans_w;                 /* in-process modes: where the answer goes */
    int info_w, block_r;       /* in the sandbox: bubblewrap's --info-fd, --block-fd; else -1 */
} child_args;

static void move_fd(int from, int to)
{
    if (from != to) {
        dup2(from, to);
        close(from);
    }
}

__attribute__((noreturn)) static void in_process_child(const runner *r, const mcc_case *c,
                                                       const child_args *a);
__attribute__((noreturn)) static void sandboxed_library_child(const runner *r, const mcc_case *c,
                                                              const child_args *a);

static void answer(int fd, const char *text);

/* The case's rlimits: output files (exporters; the pipes are bounded by the
 * parent), CPU time a little past the deadline. Memory is not an rlimit
 * (memory.c: the runner samples the case's resident memory). */
static void set_limits(const runner *r)
{
    struct rlimit lim;
    if (r->opt->max_output_bytes) {
        lim.rlim_cur = lim.rlim_max = (rlim_t)r->opt->max_output_bytes;
        setrlimit(RLIMIT_FSIZE, &lim);
    }
    lim.rlim_cur = lim.rlim_max = (rlim_t)r->opt->timeout_s + 2;
    setrlimit(RLIMIT_CPU, &lim);
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* A slot's sandbox descriptors (a child closes the other slots'). */
static void close_sandbox_fds(slot *s)
{
    close_fd(&s->info_fd);
    close_fd(&s->block_fd);
    close_fd(&s->net_fd[0]);
    close_fd(&s->net_fd[1]);
    close_fd(&s->held_fd[0]);
    close_fd(&s->held_fd[1]);
}

/* The bytes its private tmpfs mounts (/var/tmp, /dev/shm) hold, 0 when not
 * held. Written and unmapped, a file there is in no process's resident
 * memory, yet takes the machine's. */
static uint64_t held_bytes(const slot *s)
{
    uint64_t sum = 0;
    for (int i = 0; i < 2; i++) {
        struct statvfs v;
        if (s->held_fd[i] < 0 || fstatvfs(s->held_fd[i], &v) != 0 || v.f_blocks < v.f_bfree) continue;
        uint64_t blocks = (uint64_t)(v.f_blocks - v.f_bfree);
        sum += blocks > UINT64_MAX / 2 / (v.f_frsize ? v.f_frsize : 1) ? UINT64_MAX / 2 : blocks * v.f_frsize;
    }
    return sum;
}

/* The size of each private tmpfs of a case: a little over --max-memory, so
 * that one filled is over the limit; the kernel's default without one. */
static uint64_t hold_bytes(const runner *r)
{
    uint64_t m = r->opt->max_memory;
    return m && m <= UINT64_MAX - MCC_HOLD_SLACK ? m + MCC_HOLD_SLACK : 0;
}

/* bubblewrap's two descriptors survive the exec (bubblewrap closes them
 * before the command runs). */
static void hand_through(const child_args *a)
{
    if (a->info_w >= 0) fcntl(a->info_w, F_SETFD, 0);
    if (a->block_r >= 0) fcntl(a->block_r, F_SETFD, 0);
}

__attribute__((noreturn)) static void child_main(const runner *r, const mcc_case *c,
                                                 const child_args *a)
{
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    signal(SIGPIPE, SIG_DFL); /* ignored by the runner (below), inherited across exec */
    /* other cases' pipes: an in-process child never execs, so FD_CLOEXEC is not enough */
    for (unsigned i = 0; i < r->nslots; i++) {
        if (!r->slots[i].used) continue;
        close(r->slots[i].out_fd);
        close(r->slots[i].err_fd);
        if (r->slots[i].ans_fd >= 0) close(r->slots[i].ans_fd);
        close_sandbox_fds(&r->slots[i]);
    }
    if (c->workdir && chdir(c->workdir) != 0) {
        /* said over the answer pipe: exit 127 would read as "command not found" */
        char msg[300];
        snprintf(msg, sizeof msg, "Ccannot enter the case directory: %s", strerror(errno));
        answer(a->ans_w, msg);
        _exit(127);
    }
    /* the limits come last, just before exec: a coverage build's counts
     * are written then, and a small RLIMIT_FSIZE would stop that */
    int in = open(a->stdin_file ? a->in_path : "/dev/null", O_RDONLY);
    if (in >= 0) move_fd(in, 0);
    move_fd(a->out_w, 1);
    move_fd(a->err_w, 2);
    if (r->loader->mode == MCC_MODE_COMMAND && r->opt->bwrap) {
        char cwd[4096], real[4096];
        const char *dir = c->workdir ? c->workdir : getcwd(cwd, sizeof cwd);
        /* bwrap binds onto a path it can create: through a symbolic link
         * (a TMPDIR that is one) it cannot; the link still leads there */
        if (dir && realpath(dir, real)) dir = real;
        /* what it names, the corpus (a loader's; an exporter's is certify's
         * directory of the cases, its own bound writable over it), the file
         * it is handed, the start directory when it says {cwd} (an
         * exporter's; a loader runs there): shown again, read-only, where
         * /tmp or the home directory hides them */
        size_t n = 0;
        while (r->need && r->need[n]) n++;
        const char **need = calloc(n + 4, sizeof *need);
        if (need) {
            memcpy(need, r->need, n * sizeof *need);
            need[n++] = r->corpus->dir;
            if (!c->command) need[n++] = c->path;
            if (c->command && strstr(r->loader->command, "{cwd}")) need[n++] = getcwd(cwd, sizeof cwd);
        }
        mcc_sandbox_spec sp = {.dir = dir, .writable = c->workdir != NULL, .need = need,
                               .hold_bytes = hold_bytes(r), .info_fd = a->info_w, .block_fd = a->block_r};
        hand_through(a);
        char **argv = mcc_sandbox_argv(r->opt->bwrap, a->command, &sp);
        mcc_coverage_flush();
        set_limits(r);
        if (argv) execv(r->opt->bwrap, argv);
        dprintf(2, "certify: cannot run %s: %s\n", r->opt->bwrap, strerror(errno));
        _exit(127);
    }
    if (r->loader->mode == MCC_MODE_COMMAND) {
        mcc_coverage_flush();
        set_limits(r);
        execl("/bin/sh", "sh", "-c", a->command, (char *)NULL);
        dprintf(2, "certify: cannot run /bin/sh: %s\n", strerror(errno));
        _exit(127);
    }
    if (library_sandboxed(r)) sandboxed_library_child(r, c, a);
    set_limits(r);
    in_process_child(r, c, a);
}

/* Writes the answer whole (a pipe write under PIPE_BUF is atomic). */
static void answer(int fd, const char *text)
{
    size_t n = strlen(text);
    while (write(fd, text, n) < 0 && errno == EINTR) {}
}

/* Calls the entry point and answers "A" or "R" after the "L" already sent. */
__attribute__((noreturn)) static void call_and_answer(mc_certify_load_fn fn, const char *format,
                                                      const unsigned char *data, size_t size, int ans_fd)
{
    char reason[512] = "";
    int rc = fn(format, data, size, reason, sizeof reason);
    reason[sizeof reason - 1] = '\0';
    answer(ans_fd, rc != 0 ? "R" : "A");
    if (rc != 0) dprintf(2, "rejected: %s\n", reason[0] ? reason : "(no reason given)");
    /* exit, not _exit: stdio is flushed and LeakSanitizer, when linked, checks
     * the loader's leaks (the runner's own memory is still reachable) */
    exit(rc != 0);
}

/* The library is opened here, in the case's child (forked, or re-executed
 * in the sandbox), never in certify: its constructors, its entry point and
 * its exit handlers can only end this process. The verdict is what was
 * written to the answer pipe, so exit(0) from a constructor, the entry point
 * or an atexit handler cannot turn into "accepted" (runner.c's
 * classify_answer). */
__attribute__((noreturn)) static void library_child(const char *library, const char *format,
                                                    const unsigned char *data, size_t size, int ans_fd, int probe)
{
    char path[4096], msg[512];
    library_path(library, path, sizeof path);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        /* dlerror begins with the path as given, raw: the reason alone */
        const char *reason = dlerror();
        size_t n = strlen(path);
        if (reason && strncmp(reason, path, n) == 0 && strncmp(reason + n, ": ", 2) == 0) reason += n + 2;
        snprintf(msg, sizeof msg, "E%s", reason ? reason : "unknown reason");
        answer(ans_fd, msg);
        _exit(125);
    }
    void *sym = dlsym(h, MC_CERTIFY_SYMBOL);
    if (!sym) answer(ans_fd, "N"), _exit(125);
    mc_certify_load_fn fn;
    memcpy(&fn, &sym, sizeof fn); /* POSIX: object to function pointer */
    answer(ans_fd, "L");
    if (probe) _exit(0);
    call_and_answer(fn, format, data, size, ans_fd);
}

__attribute__((noreturn)) static void in_process_child(const runner *r, const mcc_case *c,
                                                       const child_args *a)
{
    if (r->loader->mode == MCC_MODE_LIBRARY)
        library_child(r->loader->library, c->format, a->data, a->size, a->ans_w, r->probe);
    answer(a->ans_w, "L");
    if (r->probe) _exit(0);
    call_and_answer(r->loader->fn, c->format, a->data, a->size, a->ans_w);
}

/* Standard input whole, in a malloc'ed block (never NULL: "" for none). */
static unsigned char *read_stdin(size_t *size)
{
    size_t cap = 65536, n = 0;
    unsigned char *buf = malloc(cap);
    ssize_t got;
    while (buf && ((got = read(0, buf + n, cap - n)) > 0 || (got < 0 && errno == EINTR))) {
        if (got > 0) n += (size_t)got;
        if (n == cap) {
            unsigned char *b = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!b) free(buf);
            buf = b, cap *= 2;
        }
    }
    if (!buf) dprintf(2, "certify: the library child is out of memory reading the case\n"), _exit(125);
    *size = n;
    return buf;
}

void mcc_library_child_main(int argc, char **argv)
{
    /* argv: --library-child FD PROBE FORMAT LIBRARY */
    if (argc != 5) dprintf(2, "certify --library-child: internal use only\n"), _exit(125);
    char *end;
    long fd = strtol(argv[1], &end, 10);
    if (*end || fd < 3 || fd > 1024 || fcntl((int)fd, F_GETFD) < 0)
        dprintf(2, "certify --library-child: no answer pipe\n"), _exit(125);
    fcntl((int)fd, F_SETFD, FD_CLOEXEC); /* nothing the library starts inherits it */
    int probe = strcmp(argv[2], "1") == 0;
    answer((int)fd, "S"); /* started: what fails from here on is the library's */
    size_t size = 0;
    unsigned char *data = probe ? NULL : read_stdin(&size);
    library_child(argv[4], argv[3], data, size, (int)fd, probe);
}

/* In the sandbox: certify's own binary again, as `SELF certify
 * --library-child`, given the answer pipe by number and the case on standard
 * input (the sandbox sees the corpus read-only, the file is opened here). */
__attribute__((noreturn)) static void sandboxed_library_child(const runner *r, const mcc_case *c,
                                                              const child_args *a)
{
    const mcc_loader *l = r->loader;
    int in = open(r->probe ? "/dev/null" : c->path, O_RDONLY);
    if (in < 0) dprintf(2, "certify: cannot open %s: %s\n", c->path, strerror(errno)), _exit(125);
    move_fd(in, 0);
    fcntl(a->ans_w, F_SETFD, 0); /* handed through bwrap */
    /* the library by its absolute path, and no --chdir: certify's directory
     * may be hidden in the sandbox (under /tmp, the home directory or its
     * private /var/tmp); certify's own program and the library are bound
     * read-only there with their directories (the library's own
     * dependencies may sit beside it) */
    char fd[16], lib[4096];
    snprintf(fd, sizeof fd, "%d", a->ans_w);
    const char *path = realpath(l->library, lib) ? lib : l->library;
    const char *tail[] = {l->self, "certify", "--library-child", fd, r->probe ? "1" : "0", c->format, path, NULL};
    const char *need[] = {l->self, path, NULL};
    mcc_sandbox_spec sp = {.need = need, .hold_bytes = hold_bytes(r), .info_fd = a->info_w, .block_fd = a->block_r};
    hand_through(a);
    char **argv = mcc_sandbox_argv_exec(l->bwrap, tail, &sp);
    mcc_coverage_flush();
    set_limits(r);
    if (argv) execv(l->bwrap, argv);
    dprintf(2, "certify: cannot run %s: %s\n", l->bwrap, strerror(errno));
    _exit(125);
}

/* ---- the parent ----------------------------------------------------------- */

static void runner_error(mcc_result *res, const char *what)
{
    res->outcome = MCC_RUNNER_ERROR;
    res->error = strdup(what);
}

static int make_pipe(int fds[2])
{
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    return 0;
}

static void close_pair(int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

/* Without the sandbox a command loader could rewrite or delete the corpus
 * file it is handed (and change the next run's certificate): it gets a
 * read-only copy in a directory of certify's own instead, at the same
 * relative path (COPIES/INDEX/aem/valid/x.aem: loaders may look at the
 * name, the extension or the directory). */
static int copy_case(const runner *r, size_t index, char *path, size_t size)
{
    const mcc_case *c = &r->corpus->cases[index];
    const char *rel = c->file, *base = strrchr(c->path, '/');
    if (!rel || rel[0] == '/' || strstr(rel, "..")) rel = base ? base + 1 : c->path; /* stays inside */
    if ((size_t)snprintf(path, size, "%s/%zu/%s", r->copies, index, rel) >= size) return -1;
    for (char *p = path + strlen(r->copies) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        int made = mkdir(path, 0700) == 0 || errno == EEXIST;
        *p = '/';
        if (!made) return -1;
    }
    int in = open(c->path, O_RDONLY | O_CLOEXEC), out = in < 0 ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
    char buf[65536];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) n = -1;
    int ok = in >= 0 && out >= 0 && n == 0;
    if (in >= 0) close(in);
    if (out >= 0 && close(out) != 0) ok = 0;
    if (!ok) unlink(path);
    return ok ? 0 : -1;
}

/* Starts case `index` in slot s; 0, or -1 with a runner error recorded. */
static int start_case(runner *r, slot *s, size_t index)
{
    const mcc_case *c = &r->corpus->cases[index];
    mcc_result *res = &r->results[index];
    child_args a = {0};
    char *command = NULL, copy[4096] = "";
    unsigned char *data = NULL;
    if (c->command) {
        if (!(command = strdup(c->command))) return runner_error(res, "out of memory"), -1;
        a.command = command;
    } else if (r->loader->mode == MCC_MODE_COMMAND) {
        mcc_case handed = *c;
        if (r->copies && copy_case(r, index, copy, sizeof copy) != 0)
            return runner_error(res, "cannot copy the case file for the loader"), -1;
        if (r->copies) handed.path = copy;
        if (r->copies && r->opt->watch_input) r->opt->watch_input(r->opt->watch_ctx, index, copy);
        if (!(command = mcc_command_for(r->loader->command, &handed, &a.stdin_file))) {
            if (r->copies) unlink(copy);
            return runner_error(res, "out of memory"), -1;
        }
        a.command = command;
    } else if (!r->probe && !(data = mcc_read_file(c->path, &a.size))) {
        return runner_error(res, "cannot read the case file"), -1;
    }
    a.data = data;
    a.in_path = copy[0] ? copy : c->path;
    int po[2], pe[2], pa[2] = {-1, -1};
    if (make_pipe(pa) != 0) {
        free(data);
        return runner_error(res, "cannot create a pipe"), -1;
    }
    a.ans_w = pa[1];
    if (make_pipe(po) != 0) {
        if (pa[0] >= 0) close_pair(pa);
        free(command), free(data);
        return runner_error(res, "cannot create a pipe"), -1;
    }
    if (make_pipe(pe) != 0) {
        if (pa[0] >= 0) close_pair(pa);
        close_pair(po), free(command), free(data);
        return runner_error(res, "cannot create a pipe"), -1;
    }
    a.out_w = po[1];
    a.err_w = pe[1];
    /* in the sandbox: bubblewrap's pipes (without them nothing is said of
     * the network, and the private places are not held); the block pipe's
     * read end is bubblewrap's, and blocking */
    int pi[2] = {-1, -1}, pb[2] = {-1, -1};
    if (sandboxed(r)) {
        if (make_pipe(pi) != 0) pi[0] = pi[1] = -1;
        else if (pipe(pb) != 0) close_pair(pi), pi[0] = pi[1] = pb[0] = pb[1] = -1;
        else fcntl(pb[0], F_SETFD, FD_CLOEXEC), fcntl(pb[1], F_SETFD, FD_CLOEXEC);
    }
    a.info_w = pi[1], a.block_r = pb[0];
    /* its inputs, measured before it can write */
    uint64_t dir_bytes = c->workdir && r->opt->max_output_bytes ? mcx_tree_bytes(c->workdir) : 0;
    fflush(NULL); /* or the child's exit() writes our buffered output again */
    double start = now_ms();
    pid_t pid = fork();
    if (pid == 0) child_main(r, c, &a);
    free(command);
    free(data);
    close(po[1]);
    close(pe[1]);
    if (pa[1] >= 0) close(pa[1]);
    close_fd(&pi[1]);
    close_fd(&pb[0]);
    if (pid < 0) {
        close(po[0]), close(pe[0]);
        if (pa[0] >= 0) close(pa[0]);
        close_fd(&pi[0]), close_fd(&pb[1]);
        return runner_error(res, "cannot fork"), -1;
    }
    setpgid(pid, pid); /* also here: kill(-pid) must work before the child runs */
    memset(s, 0, offsetof(slot, ring));
    s->used = 1;
    s->index = index;
    s->pid = pid;
    s->out_fd = po[0];
    s->err_fd = pe[0];
    s->ans_fd = pa[0];
    s->info_fd = pi[0], s->block_fd = pb[1];
    s->net_fd[0] = s->net_fd[1] = -1;
    s->held_fd[0] = s->held_fd[1] = -1;
    s->sandbox_pid = -1;
    s->dir_bytes = dir_bytes;
    memcpy(s->copy, copy, sizeof copy);
    s->start_ms = start;
    s->deadline_ms = start + r->opt->timeout_s * 1e3;
    s->sample_ms = start + MCC_MEMORY_TICK_MS;
    s->output_ms = start + MCC_MEMORY_TICK_MS;
    return 0;
}

static void ring_put(slot *s, const unsigned char *p, size_t n)
{
    if (n > MCC_STDERR_TAIL) {
        s->err_bytes += n - MCC_STDERR_TAIL;
        p += n - MCC_STDERR_TAIL;
        n = MCC_STDERR_TAIL;
    }
    size_t at = (size_t)(s->err_bytes % MCC_STDERR_TAIL);
    size_t first = n < MCC_STDERR_TAIL - at ? n : MCC_STDERR_TAIL - at;
    memcpy(s->ring + at, p, first);
    memcpy(s->ring, p + first, n - first);
    s->err_bytes += n;
}

/* The first marker in p (and where, in *at), or NULL. */
static const char *find_marker(const unsigned char *p, size_t n, size_t *at)
{
    const char *found = NULL;
    for (size_t m = 0; m < sizeof markers / sizeof *markers; m++) {
        size_t len = strlen(markers[m]);
        for (size_t i = 0; i + len <= n; i++) {
            const unsigned char *hit = memchr(p + i, markers[m][0], n - len + 1 - i);
            if (!hit) break;
            i = (size_t)(hit - p);
            if (memcmp(hit, markers[m], len) == 0) {
                if (!found || i < *at) found = markers[m], *at = i;
                break;
            }
        }
    }
    return found;
}

static void head_put(slot *s, const unsigned char *p, size_t n)
{
    size_t room = MCC_REPORT_HEAD - s->head_len;
    if (n > room) n = room;
    memcpy(s->head + s->head_len, p, n);
    s->head_len += n;
}

/* stderr: scanned with the previous chunk's last CARRY bytes in front, so a
 * marker split across two reads is still found. The report is kept from the
 * start of the marker's line (as far back as the window reaches). */
static void take_stderr(slot *s, size_t n)
{
    ring_put(s, s->win + s->carry, n);
    size_t have = s->carry + n, at = 0;
    if (s->marker) {
        head_put(s, s->win + s->carry, n);
    } else if ((s->marker = find_marker(s->win, have, &at)) != NULL) {
        while (at > 0 && s->win[at - 1] != '\n') at--;
        head_put(s, s->win + at, have - at);
    }
    size_t keep = have < CARRY ? have : CARRY;
    memmove(s->win, s->win + have - keep, keep);
    s->carry = keep;
}

/* One read from a pipe; returns bytes read, 0 at end of stream or nothing to
 * read now (*fd is then -1 or unchanged). */
static size_t read_pipe(runner *r, slot *s, int *fd)
{
    int is_err = fd == &s->err_fd;
    unsigned char *dst = is_err ? s->win + s->carry : r->sink;
    ssize_t n = read(*fd, dst, CHUNK);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
    if (n <= 0) {
        close(*fd);
        *fd = -1;
        return 0;
    }
    if (is_err) take_stderr(s, (size_t)n);
    else s->out_bytes += (uint64_t)n;
    return (size_t)n;
}

/* After the child ended: what its group wrote is in the pipe; a grandchild
 * that escaped the group may keep it open, so read a bounded amount only. */
static void drain_and_close(runner *r, slot *s, int *fd)
{
    size_t total = 0, n;
    while (*fd >= 0 && total < DRAIN_LIMIT && (n = read_pipe(r, s, fd)) > 0) total += n;
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* One private place of the case (PLACE, its path in the sandbox) opened
 * through its first process once bubblewrap has mounted it there: a tmpfs
 * that is not certify's own at that path. -1 while not mounted yet. */
static int open_place(long pid, const char *place)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/root%s", pid, place);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct statfs f;
    struct stat in, out;
    if (fd < 0) return -1;
    if (fstatfs(fd, &f) == 0 && f.f_type == TMPFS_MAGIC && fstat(fd, &in) == 0 &&
        (stat(place, &out) != 0 || out.st_dev != in.st_dev))
        return fd;
    close(fd);
    return -1;
}

/* Lets bubblewrap's child go on (--block-fd) once its private places are
 * held, or MCC_HOLD_WAIT_MS after the case started without them (then
 * what they hold is bounded by their size only). */
static void release(slot *s, double now)
{
    static const char *const place[2] = {"/var/tmp", "/dev/shm"};
    for (int i = 0; i < 2 && s->sandbox_pid > 0; i++)
        if (s->held_fd[i] < 0) s->held_fd[i] = open_place(s->sandbox_pid, place[i]);
    int held = s->held_fd[0] >= 0 && s->held_fd[1] >= 0;
    if (!held && s->sandbox_pid > 0 && now < s->start_ms + MCC_HOLD_WAIT_MS) return;
    while (write(s->block_fd, "x", 1) < 0 && errno == EINTR) {}
    close_fd(&s->block_fd);
}

/* bubblewrap's --info-fd: once its JSON is whole (or the pipe ends), the
 * network counters of the namespace are opened through its child (blocked
 * on --block-fd: the command has not run yet, nothing of it can be in the
 * JSON), then its private places once mounted, and the child is let go. */
static void read_info(slot *s)
{
    ssize_t n = read(s->info_fd, s->info + s->info_len, sizeof s->info - 1 - s->info_len);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n > 0) s->info_len += (size_t)n;
    s->info[s->info_len] = '\0';
    if (n > 0 && !strchr(s->info, '}') && s->info_len < sizeof s->info - 1) return;
    long pid = mcc_sandbox_info_pid(s->info);
    if (pid > 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/net/snmp", pid);
        s->net_fd[0] = open(path, O_RDONLY | O_CLOEXEC);
        snprintf(path, sizeof path, "/proc/%ld/net/snmp6", pid);
        s->net_fd[1] = open(path, O_RDONLY | O_CLOEXEC);
    }
    s->sandbox_pid = pid;
    close_fd(&s->info_fd);
    release(s, now_ms());
}

static void poll_pipes(runner *r)
{
    struct pollfd pfd[3 * 64];
    slot *owner[3 * 64];
    int *which[3 * 64];
    nfds_t n = 0;
    double now = now_ms(), wait = TICK_MS;
    for (unsigned i = 0; i < r->nslots; i++) {
        slot *s = &r->slots[i];
        if (!s->used) continue;
        if (s->deadline_ms - now < wait) wait = s->deadline_ms - now;
        int *fds[3] = {&s->out_fd, &s->err_fd, &s->info_fd};
        for (int k = 0; k < 3; k++) {
            if (*fds[k] < 0) continue;
            pfd[n] = (struct pollfd){.fd = *fds[k], .events = POLLIN};
            owner[n] = s;
            which[n++] = fds[k];
        }
    }
    int timeout = wait < 0 ? 0 : (int)wait + 1;
    if (poll(pfd, n, timeout) <= 0) return; /* timeout, or EINTR: the caller checks */
    for (nfds_t k = 0; k < n; k++) {
        if (!pfd[k].revents) continue;
        if (which[k] == &owner[k]->info_fd) read_info(owner[k]);
        else read_pipe(r, owner[k], which[k]);
    }
}

/* Is the answer one the child itself writes: "L", then "A" or "R" at most;
 * or "E<reason>" or "N" alone, with exit 125? Anything else was written by
 * the library (its constructor, a thread, the entry point) into the pipe it
 * inherited, and is the case's failure. */
static int answer_well_formed(const char *a, size_t len, const mcc_result *res)
{
    if (a[0] == 'E' || a[0] == 'N')
        return res->exit_code == 125 && (a[0] == 'E' || len == 1) && !strchr(a + 1, 'L');
    return len <= 2 && (len == 0 || a[0] == 'L') && (len < 2 || a[1] == 'A' || a[1] == 'R');
}

/* In-process modes: the answer pipe decides, not the exit status (a
 * constructor, the entry point or an atexit handler may call exit(0)). The
 * library shares the child's process, so it can write into that pipe too:
 * an answer out of protocol, a load failure after the load check passed, or
 * a crash after any answer are the case's, never the runner's. */
static void classify_answer(const runner *r, const slot *s, mcc_result *res)
{
    const char *a = s->answer;
    size_t len = s->ans_len;
    if (library_sandboxed(r) && !s->timed_out && !s->over_memory && a[0] != 'S') {
        /* the re-executed child never started: bubblewrap's failure (its
         * message on stderr), not the library's, which was not loaded yet */
        char why[600];
        const char *tail = res->stderr_tail ? res->stderr_tail : "";
        snprintf(why, sizeof why, "the sandbox could not start the library's child: %.*s", (int)strcspn(tail, "\n"),
                 *tail ? tail : "no reason given");
        runner_error(res, why);
        return;
    }
    if (library_sandboxed(r) && a[0] == 'S') a++, len--;
    if (s->over_memory) {
        res->outcome = MCC_TIMED_OUT, res->over_memory = r->opt->max_memory, res->signal = 0;
    } else if (s->timed_out) {
        res->outcome = MCC_TIMED_OUT;
    } else if (res->signal || s->marker) {
        res->outcome = MCC_CRASHED;
    } else if (!answer_well_formed(a, len, res)) {
        res->outcome = MCC_CRASHED;
        res->phase = "with an answer out of protocol (something in the library wrote into certify's answer pipe)";
    } else if ((a[0] == 'E' || a[0] == 'N') && r->probe) {
        /* the load check's findings: certify stops with them (probe_library) */
        char why[600];
        snprintf(why, sizeof why, "%s%.*s", a[0] == 'N' ? "no symbol " MC_CERTIFY_SYMBOL : "dlopen: ",
                 (int)len - 1, a + 1);
        runner_error(res, why);
    } else if (a[0] == 'E' || a[0] == 'N') {
        res->outcome = MCC_CRASHED;
        res->phase = "while loading the library, which the load check had loaded";
    } else if (a[0] != 'L') {
        res->outcome = MCC_CRASHED;
        res->phase = "while loading the library";
    } else if (r->probe) {
        res->outcome = MCC_ACCEPTED; /* loaded */
    } else if (len < 2) {
        res->outcome = MCC_CRASHED;
        res->phase = "before answering (the process ended inside " MC_CERTIFY_SYMBOL ")";
    } else {
        res->outcome = a[1] == 'A' ? MCC_ACCEPTED : MCC_REJECTED;
    }
    if (s->marker && res->outcome != MCC_TIMED_OUT && res->outcome != MCC_RUNNER_ERROR)
        res->outcome = MCC_CRASHED;
}

static void classify_status(const runner *r, const slot *s, mcc_result *res)
{
    int st = s->status;
    res->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    res->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    int code = res->exit_code, shell = r->loader->mode == MCC_MODE_COMMAND;
    if (library_sandboxed(r) && code > 128 && code <= 128 + 64) {
        /* bwrap reports its command's death by a signal as 128 + signal (a
         * library that calls exit(134) is taken for SIGABRT: a crash either way) */
        res->signal = code - 128;
        res->exit_code = -1;
    }
    if (!shell) {
        classify_answer(r, s, res);
        return;
    }
    if (s->answer[0] == 'C') {
        runner_error(res, s->answer + 1); /* the child could not enter the case directory */
    } else if (s->over_memory) {
        res->outcome = MCC_TIMED_OUT, res->over_memory = r->opt->max_memory, res->signal = 0;
    } else if (s->over_output) {
        res->outcome = MCC_TIMED_OUT, res->over_output = r->opt->max_output_bytes, res->signal = 0;
    } else if (s->timed_out) {
        res->outcome = MCC_TIMED_OUT;
    } else if (res->signal) {
        res->outcome = MCC_CRASHED;
    } else if (shell && (code == 126 || code == 127)) {
        /* the shell's own "cannot execute" and "not found" */
        runner_error(res, code == 127 ? "the shell could not find the loader command (exit 127)"
                                      : "the shell could not execute the loader command (exit 126)");
    } else if (shell && code > 128 && code <= 128 + 64) {
        /* a shell that did not exec the loader reports its death as 128 + signal */
        res->outcome = MCC_CRASHED;
        res->signal = code - 128;
    } else if (s->marker) {
        res->outcome = MCC_CRASHED;
    } else {
        res->outcome = code == 0 ? MCC_ACCEPTED : MCC_REJECTED;
    }
    if (s->marker && res->outcome != MCC_TIMED_OUT && res->outcome != MCC_RUNNER_ERROR)
        res->outcome = MCC_CRASHED;
}

static char *stderr_tail(const slot *s)
{
    if (s->err_bytes <= MCC_STDERR_TAIL) return mcc_clean_text(s->ring, (size_t)s->err_bytes);
    unsigned char lin[MCC_STDERR_TAIL];
    size_t at = (size_t)(s->err_bytes % MCC_STDERR_TAIL);
    memcpy(lin, s->ring + at, MCC_STDERR_TAIL - at);
    memcpy(lin + MCC_STDERR_TAIL - at, s->ring, at);
    return mcc_clean_text(lin, MCC_STDERR_TAIL);
}

/* The answer is a few bytes written before the child ended: in the pipe
 * now, read without waiting (a grandchild may hold the pipe open). */
static void read_answer(slot *s)
{
    s->ans_len = 0;
    s->answer[0] = '\0';
    if (s->ans_fd < 0) return;
    ssize_t n;
    while (s->ans_len < sizeof s->answer - 1 &&
           ((n = read(s->ans_fd, s->answer + s->ans_len, sizeof s->answer - 1 - s->ans_len)) > 0 ||
            (n < 0 && errno == EINTR)))
        if (n > 0) s->ans_len += (size_t)n;
    s->answer[s->ans_len] = '\0';
    close(s->ans_fd);
    s->ans_fd = -1;
}

static void forgive(const runner *r);

/* text with every mention of the copy's path replaced by the original's, so
 * that what a loader printed does not depend on the temporary directory
 * (reports are reproducible). Takes ownership; NULL stays NULL. */
static char *as_original(char *text, const char *copy, const char *original)
{
    size_t nc = strlen(copy), no = strlen(original), hits = 0;
    if (!text || !nc) return text;
    for (const char *p = strstr(text, copy); p; p = strstr(p + nc, copy)) hits++;
    if (!hits || (no > nc && hits > (SIZE_MAX - strlen(text) - 1) / (no - nc))) return text;
    char *out = malloc(strlen(text) + hits * (no > nc ? no - nc : 0) + 1), *o = out;
    if (!out) return text;
    const char *p = text;
    for (const char *q = strstr(p, copy); q; p = q + nc, q = strstr(p, copy)) {
        memcpy(o, p, (size_t)(q - p)), o += q - p;
        memcpy(o, original, no), o += no;
    }
    memcpy(o, p, strlen(p) + 1);
    free(text);
    return out;
}

/* Is pid a running case's own process (not yet reaped)? */
static int is_case(const runner *r, pid_t pid)
{
    for (unsigned i = 0; i < r->nslots; i++)
        if (r->slots[i].used && r->slots[i].pid == pid) return 1;
    return 0;
}

/* certify is a sub-reaper (PR_SET_CHILD_SUBREAPER) while it runs cases: a
 * process that left its case's group (setsid, setpgid) becomes certify's
 * child when its parent dies, and is found here, among certify's children
 * that are no case, killed and reaped; its own children follow it, hence
 * the passes. Returns how many. Cases in the sandbox cannot escape (their
 * PID namespace dies with them), so this is for --sandbox off and the
 * in-process modes. */
static unsigned kill_escapees(const runner *r)
{
    char path[64], buf[4096];
    unsigned killed = 0;
    snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)getpid());
    for (int pass = 0; pass < 64; pass++) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return killed;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) return killed;
        buf[n] = '\0';
        unsigned found = 0;
        for (char *p = buf, *end; *p; p = end) {
            long pid = strtol(p, &end, 10);
            if (end == p) break;
            if (pid <= 0 || is_case(r, (pid_t)pid)) continue;
            kill((pid_t)pid, SIGKILL);
            while (waitpid((pid_t)pid, NULL, 0) < 0 && errno == EINTR) {}
            found++;
        }
        killed += found;
        if (!found) break;
    }
    return killed;
}

/* What the sandbox saw the case try, once it ended: the network attempts
 * its namespace counted, and the files it left in its private $HOME (which
 * is removed here); cleaned, or NULL for nothing. Nothing is said when the
 * counters could not be read. */
static char *sandbox_note(slot *s)
{
    char text[1600] = "";
    size_t used = 0;
    long long net = mcc_sandbox_net_attempts(s->net_fd[0], s->net_fd[1]);
    if (net > 0)
        used += (size_t)snprintf(text, sizeof text, "tried the network (%lld attempt%s blocked)", net,
                                 net == 1 ? "" : "s");
    if (s->held_fd[0] >= 0) {
        mcx_listing left = {0};
#ifdef MC_COVERAGE_BUILD
        left.skip_top = MCC_GCOV_DIR; /* the instrumented programs' counts (sandbox.c) */
#endif
        /* emptied too: nothing of it outlives the descriptor (a tmpfs) */
        mcx_empty_dir_listing(s->held_fd[0], &left);
        if (left.count && used < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, "%sleft %llu file%s in its private "
                                     "home/temp directory (discarded):", used ? "; " : "",
                                     (unsigned long long)left.count, left.count == 1 ? "" : "s");
        for (size_t i = 0; i < MCX_LISTED && left.first[i] && used < sizeof text; i++)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s %.200s", i ? "," : "", left.first[i]);
        if (left.count > MCX_LISTED && used < sizeof text) snprintf(text + used, sizeof text - used, ", ...");
        mcx_listing_free(&left);
    }
    close_sandbox_fds(s);
    return text[0] ? mcc_clean_text((const unsigned char *)text, strlen(text)) : NULL;
}

static void finish(runner *r, slot *s)
{
    forgive(r); /* before the case is gone: it may be the sender */
    kill(-s->pid, SIGKILL); /* children it left behind; the zombie leader still holds the id */
    if (s->timed_out || s->over_memory || s->over_output) kill(s->pid, SIGKILL); /* in case it moved itself to another group */
    while (waitpid(s->pid, &s->status, 0) < 0 && errno == EINTR) {}
    /* what its private places still hold once it ended counts too: one
     * filled just before the end is over the limit all the same */
    if (r->opt->max_memory && !s->timed_out && held_bytes(s) > r->opt->max_memory) s->over_memory = 1;
    drain_and_close(r, s, &s->out_fd);
    drain_and_close(r, s, &s->err_fd);
    read_answer(s);
    mcc_result *res = &r->results[s->index];
    res->escaped = kill_escapees(r);
    if ((r->opt->bwrap && r->loader->mode == MCC_MODE_COMMAND) || library_sandboxed(r))
        res->escaped = 0; /* bwrap's own namespace process (its own session): not the command's */
    r->finished = s->index;
    res->duration_ms = now_ms() - s->start_ms;
    res->stdout_bytes = s->out_bytes;
    res->stderr_bytes = s->err_bytes;
    res->sanitizer = s->marker;
    res->stderr_tail = stderr_tail(s);
    if (s->copy[0]) res->stderr_tail = as_original(res->stderr_tail, s->copy, r->corpus->cases[s->index].path);
    if (s->head_len) res->report_head = mcc_clean_text(s->head, s->head_len);
    res->sandbox_note = sandbox_note(s);
    classify_status(r, s, res);
    if (res->outcome == MCC_CRASHED) res->crash_site = mcc_crash_site(res->report_head, res->signal);
    mcc_classify(&r->corpus->cases[s->index], res);
    if (s->copy[0]) unlink(s->copy);
    s->used = 0;
}

/* Has the child ended? Asked without reaping it (WNOWAIT), so its process
 * group id stays reserved until finish() has killed the group. */
static int has_ended(const slot *s)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
    return si.si_pid == s->pid;
}

/* Tells the watch (mcc_run_options.watch) how the run stands. */
static void watch(runner *r, size_t ended)
{
    if (!r->opt->watch || r->stopped) return;
    double now = now_ms();
    mcc_watch_state st = {r->done, r->corpus->count, SIZE_MAX, 0, now - r->start_ms};
    for (unsigned i = 0; i < r->nslots; i++)
        if (r->slots[i].used && now - r->slots[i].start_ms >= st.slowest_ms)
            st.slowest = r->slots[i].index, st.slowest_ms = now - r->slots[i].start_ms;
    if (r->opt->watch(r->opt->watch_ctx, &st, ended, ended == SIZE_MAX ? NULL : &r->results[ended]))
        r->stopped = 1;
}

/* Is the case over --max-memory (sampled every MCC_MEMORY_TICK_MS)? Then
 * it is marked, to be killed as at its deadline. */
static int over_memory(const runner *r, slot *s, double now)
{
    if (!r->opt->max_memory || now < s->sample_ms) return 0;
    s->sample_ms = now + MCC_MEMORY_TICK_MS;
    uint64_t rss = mcc_tree_rss((long)s->pid), held = held_bytes(s);
    if (rss <= r->opt->max_memory && held <= r->opt->max_memory - rss) return 0;
    s->over_memory = 1;
    return 1;
}

/* Has the case written more than --max-output-bytes in its case directory
 * (an exporter's; sampled as memory is)? RLIMIT_FSIZE stops one file at
 * the cap, this many files under it, while it runs. */
static int over_output(const runner *r, slot *s, double now)
{
    const char *dir = r->corpus->cases[s->index].workdir;
    if (!dir || !r->opt->max_output_bytes || now < s->output_ms) return 0;
    s->output_ms = now + MCC_MEMORY_TICK_MS;
    uint64_t held = mcx_tree_bytes(dir);
    if (held <= s->dir_bytes || held - s->dir_bytes <= r->opt->max_output_bytes) return 0;
    s->over_output = 1;
    return 1;
}

/* Finishes every slot whose child ended, whose deadline passed or that
 * used more memory than allowed. */
static unsigned reap(runner *r)
{
    unsigned done = 0;
    double now = now_ms();
    for (unsigned i = 0; i < r->nslots; i++) {
        slot *s = &r->slots[i];
        if (!s->used) continue;
        if (s->block_fd >= 0 && s->info_fd < 0) release(s, now); /* still waiting for its places */
        if (!has_ended(s)) {
            if (now >= s->deadline_ms) {
                s->timed_out = 1;
            } else if (!over_memory(r, s, now) && !over_output(r, s, now)) {
                continue;
            }
        }
        size_t index = s->index;
        finish(r, s);
        done++;
        r->done++;
        watch(r, index);
    }
    return done;
}

static void kill_all(runner *r)
{
    for (unsigned i = 0; i < r->nslots; i++) {
        slot *s = &r->slots[i];
        if (!s->used) continue;
        kill(-s->pid, SIGKILL);
        while (waitpid(s->pid, &s->status, 0) < 0 && errno == EINTR) {}
        close(s->out_fd);
        close(s->err_fd);
        if (s->ans_fd >= 0) close(s->ans_fd);
        close_sandbox_fds(s);
        if (s->copy[0]) unlink(s->copy);
        s->used = 0;
    }
}

/* Did the last SIGINT/SIGTERM come from a running case's process group
 * (a loader's `kill $PPID`)? Its sender is then ignored. */
static int from_a_case(const runner *r)
{
    pid_t pid = (pid_t)sender;
    if (pid <= 0) return 0;
    pid_t group = getpgid(pid);
    for (unsigned i = 0; i < r->nslots; i++)
        if (r->slots[i].used && (r->slots[i].pid == pid || r->slots[i].pid == group)) return 1;
    return 0;
}

/* A case's `kill $PPID` is not the user's ^C: forgotten while the case is
 * still there to be recognised (before it is reaped); its group dies with it. */
static void forgive(const runner *r)
{
    if (interrupted && from_a_case(r)) interrupted = sender = 0;
}

/* Interrupted: the cases still running (killed) and those not started are
 * "not run", so the partial report says so; finished ones keep their verdict. */
static void interrupt_rest(runner *r)
{
    for (size_t i = 0; i < r->corpus->count; i++) {
        mcc_result *res = &r->results[i];
        if (res->outcome != MCC_NOT_RUN || r->corpus->cases[i].skip_reason) continue;
        runner_error(res, "not run: certify was interrupted (SIGINT or SIGTERM)");
        mcc_classify(&r->corpus->cases[i], res);
    }
}

static slot *free_slot(runner *r)
{
    for (unsigned i = 0; i < r->nslots; i++)
        if (!r->slots[i].used) return &r->slots[i];
    return NULL;
}

static int run_all(runner *r)
{
    size_t next = 0, count = r->corpus->count;
    unsigned active = 0;
    while (next < count || active > 0) {
        forgive(r);
        if (interrupted) {
            kill_all(r);
            interrupt_rest(r);
            return -1;
        }
        if (r->stopped) {
            kill_all(r);
            return -2;
        }
        while (active < r->nslots && next < count) {
            size_t i = next++;
            if (r->corpus->cases[i].skip_reason) {
                mcc_classify(&r->corpus->cases[i], &r->results[i]);
                r->done++;
            } else if (start_case(r, free_slot(r), i) == 0) {
                active++;
            } else {
                mcc_classify(&r->corpus->cases[i], &r->results[i]);
                r->done++;
                watch(r, i);
            }
        }
        if (active == 0) continue;
        poll_pipes(r);
        forgive(r);
        active -= reap(r);
        watch(r, SIZE_MAX);
    }
    return 0;
}

/* The library crashed, exited or hung while the load check loaded it: every
 * case would, so each gets that crash without running (a looping
 * constructor would otherwise cost the timeout per case). */
static void load_failed(const mcc_loader *l, const mcc_corpus *corpus, mcc_result *results)
{
    for (size_t i = 0; i < corpus->count; i++) {
        mcc_result *res = &results[i];
        if (!corpus->cases[i].skip_reason) {
            res->outcome = MCC_CRASHED;
            res->phase = l->load_hung ? "while loading the library (still loading at the timeout: killed)"
                                      : "while loading the library";
            res->exit_code = l->load_exit;
            res->signal = l->load_signal;
            res->stderr_tail = l->load_stderr ? strdup(l->load_stderr) : NULL;
            res->crash_site = mcc_crash_site(NULL, res->signal);
        }
        mcc_classify(&corpus->cases[i], res);
    }
}

int mcc_run(const mcc_loader *l, const mcc_corpus *corpus, const mcc_run_options *o,
            mcc_result *results)
{
    return run_slots(l, corpus, o, results, 0);
}

static int run_slots(const mcc_loader *l, const mcc_corpus *corpus, const mcc_run_options *o,
                     mcc_result *results, int probe)
{
    for (size_t i = 0; i < corpus->count; i++) {
        memset(&results[i], 0, sizeof results[i]);
        results[i].exit_code = -1;
    }
    if (l->load_failed && !probe) {
        load_failed(l, corpus, results);
        return 0;
    }
    runner *r = calloc(1, sizeof *r);
    unsigned jobs = o->jobs < 1 ? 1 : o->jobs > 64 ? 64 : o->jobs;
    if (!r || !(r->slots = calloc(jobs, sizeof *r->slots))) {
        free(r);
        return -1;
    }
    r->loader = l;
    r->corpus = corpus;
    r->opt = o;
    r->results = results;
    r->nslots = jobs;
    r->probe = probe;
    r->finished = SIZE_MAX;
    /* an exporter's cases carry their own commands (out-of-scope ones none) */
    int own_commands = 0;
    for (size_t i = 0; i < corpus->count && !own_commands; i++) own_commands = corpus->cases[i].command != NULL;
    if (!o->bwrap && l->mode == MCC_MODE_COMMAND && !probe && corpus->count && !own_commands) {
        const char *tmp = getenv("TMPDIR");
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/mc-certify-corpus-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(dir) && !(r->copies = strdup(dir))) rmdir(dir);
        if (!r->copies) { /* the cases become runner errors rather than run on the originals */
            free(r->slots), free(r);
            for (size_t i = 0; i < corpus->count; i++) {
                if (!corpus->cases[i].skip_reason)
                    runner_error(&results[i], "cannot create a directory for the case files' copies");
                mcc_classify(&corpus->cases[i], &results[i]);
            }
            return 0;
        }
    }
    /* NULL (out of memory): less is shown, never more */
    if (sandboxed(r) && corpus->count && l->mode == MCC_MODE_COMMAND) r->need = mcc_command_paths(l->command);
    int was_reaper = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &was_reaper);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    r->start_ms = now_ms();
    struct sigaction sa, old_int, old_term, old_chld, old_pipe;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    int own = !caught;
    if (own) {
        interrupted = sender = 0;
        catch_signals(&old_int, &old_term);
    }
    sa.sa_handler = on_child;
    sa.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, &old_chld);
    /* a bubblewrap that ended before reading its --block-fd: EPIPE, not death */
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = 0;
    sigaction(SIGPIPE, &sa, &old_pipe);
    int rc = interrupted ? (interrupt_rest(r), -1) : run_all(r);
    if (own) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    sigaction(SIGCHLD, &old_chld, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    /* none should be left, and none may outlive the run; one reparented to
     * certify only after its case was finished is that case's (the last
     * one to finish: the best guess), so that the count is exact */
    unsigned late = kill_escapees(r);
    if (late && r->finished < corpus->count && !sandboxed(r)) results[r->finished].escaped += late;
    prctl(PR_SET_CHILD_SUBREAPER, was_reaper);
    if (r->copies && mcx_remove_tree(r->copies) != 0)
        fprintf(stderr, "modelcheck certify: cannot remove all of %s\n", r->copies);
    free(r->copies);
    mcc_free_paths(r->need);
    free(r->slots);
    free(r);
    return rc;
}

static void result_free(mcc_result *res)
{
    free(res->stderr_tail);
    free(res->report_head);
    free(res->crash_site);
    free(res->error);
    free(res->sandbox_note);
}

void mcc_results_free(mcc_result *results, size_t count)
{
    for (size_t i = 0; results && i < count; i++) result_free(&results[i]);
    free(results);
}
