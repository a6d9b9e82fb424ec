/*
 * The sandbox of the commands certify runs (loaders with --loader,
 * exporters) and of the children that load a --library (certify's own
 * binary re-executed as `modelcheck certify --library-child`, runner.c):
 * bubblewrap (Debian's bubblewrap package), which needs user
 * namespaces. Each case's /bin/sh runs with
 *
 *   --unshare-all       no network, its own PID namespace (every descendant
 *                       dies with the case: no escape by setsid), IPC, UTS
 *   --die-with-parent   when certify kills the case, the namespace goes too
 *   --new-session       no ioctl(TIOCSTI) into certify's terminal
 *   --ro-bind / /       the system read-only, the corpus included
 *   --dev, --proc       a minimal /dev, its own /proc
 *   --tmpfs /var/tmp    a private, empty temporary directory, which is also
 *                       $HOME and $TMPDIR (/tmp itself stays visible,
 *                       read-only: loaders and exporters may live there)
 *   --bind DIR DIR      the case directory, the one writable place (exporters)
 *   --clearenv          the environment reduced to mcc_sandbox_env's list
 *
 * Nothing here is certify's own security boundary: the runner's process
 * groups, timeouts, rlimits and bounded reads stay the same with or
 * without it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mc_certify.h"

/* The variables a sandboxed command sees (when certify has them), besides
 * HOME=/var/tmp and TMPDIR=/var/tmp; MCC_* ones are the documented way to hand a
 * loader its settings, LD_PRELOAD the way to run an ASan-built library in a
 * release build of modelcheck (its child re-executed in the sandbox needs it). */
static const char *const kept_env[] = {"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "LANG", "LC_ALL",
                                       "LC_CTYPE", "TZ", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
                                       "MSAN_OPTIONS", "TSAN_OPTIONS"};

int mcc_sandbox_env_kept(const char *name, size_t len)
{
    if (len > 4 && strncmp(name, "MCC_", 4) == 0) return 1;
    for (size_t i = 0; i < sizeof kept_env / sizeof *kept_env; i++)
        if (strlen(kept_env[i]) == len && strncmp(name, kept_env[i], len) == 0) return 1;
    return 0;
}

/* bwrap on PATH, into buf; 0 found. */
static int find_bwrap(char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        if (n && n + 7 < size) {
            memcpy(buf, p, n);
            memcpy(buf + n, "/bwrap", 7);
            if (access(buf, X_OK) == 0) return 0;
        }
        p += n;
        if (*p == ':') p++;
    }
    return -1;
}

int mcc_sandbox_probe(char *bwrap, size_t size, char *why, size_t why_size)
{
    if (find_bwrap(bwrap, size) != 0)
        return snprintf(why, why_size, "bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)"), -1;
    int fds[2];
    if (pipe(fds) != 0) return snprintf(why, why_size, "cannot create a pipe: %s", strerror(errno)), -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]), close(fds[1]);
        return snprintf(why, why_size, "cannot fork: %s", strerror(errno)), -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) dup2(null, 0), dup2(null, 1);
        dup2(fds[1], 2);
        close(fds[0]), close(fds[1]);
        execl(bwrap, "bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/", "/",
              "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/var/tmp", "/bin/sh", "-c", ":", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char msg[300];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof msg - 1 && ((got = read(fds[0], msg + n, sizeof msg - 1 - n)) > 0 || (got < 0 && errno == EINTR)))
        if (got > 0) n += (size_t)got;
    msg[n] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    msg[strcspn(msg, "\n")] = '\0';
    char *clean = mcc_clean_text((const unsigned char *)msg, strlen(msg));
    snprintf(why, why_size, "bubblewrap cannot create its namespaces here (user namespaces off?): %s",
             clean && *clean ? clean : "no reason given");
    free(clean);
    return -1;
}

/* argv of bwrap running tail (a NULL-terminated argv) in dir (writable when
 * writable; NULL: no --chdir), with ro_dir (or NULL) seen read-only over the
 * private /var/tmp, NULL-terminated, in a malloc'ed block; NULL on OOM. */
char **mcc_sandbox_argv_exec(const char *bwrap, const char *const *tail, const char *dir, int writable,
                             const char *ro_dir)
{
    const char *fixed[] = {bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/", "/",
                           "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/var/tmp", "--clearenv",
                           "--setenv", "HOME", "/var/tmp", "--setenv", "TMPDIR", "/var/tmp"};
    size_t nfixed = sizeof fixed / sizeof *fixed;
    extern char **environ;
    size_t nenv = 0;
    for (char **e = environ; e && *e; e++) nenv++;
    size_t ntail = 0;
    while (tail[ntail]) ntail++;
    size_t max = nfixed + 3 * nenv + 3 + 3 + 3 + 3 + ntail + 1;
    char **argv = calloc(max, sizeof *argv);
    if (!argv) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < nfixed; i++) argv[k++] = (char *)fixed[i];
#ifdef MC_COVERAGE_BUILD
    /* a coverage build only (scripts/coverage.sh): instrumented test programs
     * write their counts at exit into the build tree, read-only here, and
     * libgcov's complaint would become the case's stderr tail; their counts
     * go to the private /var/tmp instead, and are dropped with it */
    argv[k++] = "--setenv", argv[k++] = "GCOV_PREFIX", argv[k++] = "/var/tmp/gcov";
#endif
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || !mcc_sandbox_env_kept(*e, (size_t)(eq - *e))) continue;
        /* "--setenv NAME VALUE": the name is cut out of the entry itself */
        char *name = strndup(*e, (size_t)(eq - *e));
        if (!name) continue; /* dropped: the command sees less, never more */
        argv[k++] = "--setenv", argv[k++] = name, argv[k++] = (char *)(eq + 1);
    }
    if (ro_dir) argv[k++] = "--ro-bind", argv[k++] = (char *)ro_dir, argv[k++] = (char *)ro_dir;
    if (dir && writable) argv[k++] = "--bind", argv[k++] = (char *)dir, argv[k++] = (char *)dir;
    if (dir) argv[k++] = "--chdir", argv[k++] = (char *)dir;
    for (size_t i = 0; i < ntail; i++) argv[k++] = (char *)tail[i];
    argv[k] = NULL;
    return argv;
}

char **mcc_sandbox_argv(const char *bwrap, const char *command, const char *dir, int writable)
{
    const char *tail[] = {"/bin/sh", "-c", command, NULL};
    return mcc_sandbox_argv_exec(bwrap, tail, dir, writable, NULL);
}
