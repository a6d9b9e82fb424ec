/*
 * The sandbox of the commands certify runs (loaders with --loader,
 * exporters) and of the children that load a --library (certify's own
 * binary re-executed as `modelcheck certify --library-child`, runner.c):
 * bubblewrap (Debian's bubblewrap package), which needs user
 * namespaces. Each case's /bin/sh runs with
 *
 *   --unshare-all       no network, its own PID namespace (every descendant
 *                       dies with the case: no escape by setsid), IPC, UTS
 *   --unshare-user, --cap-drop ALL, --disable-userns   no capability left,
 *                       root included (root keeps them all in bubblewrap's
 *                       namespaces otherwise, and can remount / read-write),
 *                       in a user namespace that cannot make another (mount,
 *                       ptrace of what it cannot see, module loading, kexec
 *                       and new namespaces all need a capability)
 *   --die-with-parent   when certify kills the case, the namespace goes too
 *   --new-session       no ioctl(TIOCSTI) into certify's terminal
 *   --ro-bind / /       the system read-only, the corpus included
 *   --dev, --proc       a minimal /dev (read-only once set up), its own /proc
 *   --size S --tmpfs /var/tmp, /dev/shm   the case's private places in
 *                       memory, $HOME = $TMPDIR and the shared-memory
 *                       directory, each of at most S bytes (--max-memory and
 *                       a little): certify holds them open from outside,
 *                       counts what they hold toward --max-memory and lists
 *                       what the case left in /var/tmp after it (runner.c)
 *   --tmpfs /run        the host daemons' sockets hidden (D-Bus, docker: a
 *                       read-only file system does not stop connect());
 *                       read-only, as the other hiding mounts
 *   --tmpfs /tmp, --tmpfs HOME   /tmp and the user's home directory ($HOME
 *                       as certify got it, and getpwuid's; not "/" nor one
 *                       holding the system's directories) hidden the same
 *                       way: ssh keys, an ssh agent's or an X display's
 *                       socket, other users' files
 *   --symlink, --ro-bind P P   shown again, read-only, where one of those
 *                       (or /var/tmp, /run) hides them: the directory of
 *                       every path the command names (its program, its
 *                       script and their neighbours, exporter.c's parser),
 *                       the corpus (a loader's, or certify's directory of
 *                       an exporter's cases) and the case's file, the
 *                       start directory of a loader
 *                       or of a command with {cwd}, certify's own program
 *                       and the --library, PATH's directories (with the
 *                       installation holding each: ~/.pyenv, ~/.local),
 *                       LD_LIBRARY_PATH's directories,
 *                       LD_PRELOAD's files, /tmp/.X11-unix with MCC_DISPLAY;
 *                       each link met on the way there in a hidden
 *                       directory is made again (a checkout under /tmp with
 *                       a link beside it to its data)
 *   --bind DIR DIR      the case directory, the one writable place (exporters)
 *   --remount-ro        the hiding tmpfs mounts (1 MiB each), /run and /dev
 *                       made read-only once all is bound
 *   --info-fd, --block-fd  the command waits until certify has opened the
 *                       namespace's network counters (tried the network?)
 *   --clearenv          the environment reduced to mcc_sandbox_env's list
 *
 * bubblewrap applies its mounts in order: the tmpfs mounts and binds are
 * sorted by depth (a tmpfs before a bind at the same path), so each lands
 * on what hides its parent, never under it, and a home directory inside
 * a directory shown again is still hidden.
 *
 * Nothing here is certify's own security boundary: the runner's process
 * groups, timeouts, rlimits and bounded reads stay the same with or
 * without it.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
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

#if defined(MC_COVERAGE_BUILD)
void __gcov_dump(void); /* libgcov (gcc --coverage), <gcov.h> */
void mcc_coverage_flush(void)
{
    __gcov_dump();
}
#else
void mcc_coverage_flush(void) {}
#endif

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
        /* the namespaces and the dropped capabilities of every case: where
         * they cannot be had, no case runs in a weaker sandbox */
        execl(bwrap, "bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
              "--die-with-parent", "--new-session", "--ro-bind", "/", "/", "--dev", "/dev", "--size", "65536",
              "--tmpfs", "/dev/shm", "--proc", "/proc", "--tmpfs", "/run", "--tmpfs", "/var/tmp", "--remount-ro",
              "/dev", "/bin/sh", "-c", ":", (char *)NULL);
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

/* ---- what the sandbox hides, and what it shows again ---------------------- */

/* The mounts over the read-only root, applied by bubblewrap in depth order
 * (a directory before what lies in it; at one path, a tmpfs before a bind),
 * so a bind always lands on what hides its parent, never under it. */
enum { OP_TMPFS, OP_LINK, OP_RO, OP_RW };
typedef struct mount_op {
    int kind, depth;
    char *path;
    char *target; /* OP_LINK: the link's text */
} mount_op;
typedef struct plan {
    mount_op *ops;
    size_t n, cap;
    char *roots[3]; /* hidden by a tmpfs: /tmp and the home directories */
    size_t nroots;
} plan;

static int under(const char *path, const char *root)
{
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* Hidden in the sandbox: /tmp, the home directories, /var/tmp (the case's
 * private one) and /run (a tmpfs). */
static int hidden(const plan *pl, const char *path)
{
    for (size_t i = 0; i < pl->nroots; i++)
        if (under(path, pl->roots[i])) return 1;
    return under(path, "/var/tmp") || under(path, "/run");
}

static void add_op(plan *pl, int kind, const char *path, const char *target)
{
    for (size_t i = 0; i < pl->n; i++)
        if (pl->ops[i].kind == kind && strcmp(pl->ops[i].path, path) == 0) return;
    if (pl->n == pl->cap) {
        size_t cap = pl->cap ? 2 * pl->cap : 16;
        mount_op *ops = cap < SIZE_MAX / sizeof *ops ? realloc(pl->ops, cap * sizeof *ops) : NULL;
        if (!ops) return; /* dropped: the command sees less, never more */
        pl->ops = ops, pl->cap = cap;
    }
    mount_op *op = &pl->ops[pl->n];
    op->kind = kind;
    op->path = strdup(path);
    op->target = target ? strdup(target) : NULL;
    if (!op->path || (target && !op->target)) {
        free(op->path), free(op->target);
        return;
    }
    op->depth = 0;
    for (const char *p = path; *p; p++) op->depth += *p == '/';
    pl->n++;
}

/* The absolute path resolved as the kernel would (links followed, "." and
 * ".." dropped) into real. A link met in /tmp or a home directory is made
 * again in the sandbox (or its tmpfs would cut the path: a checkout under
 * /tmp with a link beside it to its data). 0, or -1 when a part is missing. */
static int resolve(plan *pl, const char *path, char *real, size_t size)
{
    char rest[8192], cur[4096] = "", next[4096], target[4096], comp[256];
    if (path[0] != '/' || strlen(path) >= sizeof rest) return -1;
    memcpy(rest, path, strlen(path) + 1);
    for (int links = 0;;) {
        char *p = rest + strspn(rest, "/");
        size_t n = strcspn(p, "/");
        if (!n) break;
        if (n >= sizeof comp) return -1;
        memcpy(comp, p, n);
        comp[n] = '\0';
        memmove(rest, p + n, strlen(p + n) + 1);
        if (strcmp(comp, ".") == 0) continue;
        if (strcmp(comp, "..") == 0) {
            char *s = strrchr(cur, '/');
            if (s) *s = '\0';
            continue;
        }
        struct stat st;
        if ((size_t)snprintf(next, sizeof next, "%s/%s", cur, comp) >= sizeof next || lstat(next, &st) != 0) return -1;
        if (!S_ISLNK(st.st_mode)) {
            memcpy(cur, next, strlen(next) + 1);
            continue;
        }
        ssize_t t = readlink(next, target, sizeof target - 1);
        if (t <= 0 || ++links > 40) return -1;
        target[t] = '\0';
        /* not in the private /var/tmp: a directory of certify's on the host */
        if (hidden(pl, next) && !under(next, "/var/tmp")) add_op(pl, OP_LINK, next, target);
        char joined[sizeof rest];
        if ((size_t)snprintf(joined, sizeof joined, "%s%s", target, rest) >= sizeof joined) return -1;
        memcpy(rest, joined, strlen(joined) + 1);
        if (target[0] == '/') cur[0] = '\0';
    }
    return (size_t)snprintf(real, size, "%s", cur[0] ? cur : "/") < size ? 0 : -1;
}

/* /tmp, a home directory, /var/tmp or /run itself, or "" (the root). */
static int is_root(const plan *pl, const char *dir)
{
    int root = !dir[0] || strcmp(dir, "/var/tmp") == 0 || strcmp(dir, "/run") == 0;
    for (size_t i = 0; i < pl->nroots; i++) root |= strcmp(dir, pl->roots[i]) == 0;
    return root;
}

/* What the command needs (a file: its directory, or itself alone right in
 * a hidden root; through a link to a
 * file, the link's directory too, where a wrapper finds its neighbours),
 * bound back read-only when hidden. */
static void need(plan *pl, const char *path)
{
    char real[4096], dir[4096];
    struct stat st;
    if (path && path[0] != '/' && getcwd(dir, sizeof dir) && strlen(dir) + strlen(path) + 2 <= sizeof dir) {
        strcat(strcat(dir, "/"), path); /* a relative --corpus, say */
        path = dir;
    }
    if (!path || path[0] != '/' || resolve(pl, path, real, sizeof real) != 0 || stat(real, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        char *slash = strrchr(real, '/');
        *slash = '\0';
        if (is_root(pl, real)) { /* a file right in /tmp or the home directory: itself alone */
            *slash = '/';
            if (hidden(pl, real)) add_op(pl, OP_RO, real, NULL);
            return;
        }
        char parent[4096];
        if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && snprintf(parent, sizeof parent, "%s", path) < (int)sizeof parent) {
            *strrchr(parent, '/') = '\0';
            if (parent[0]) need(pl, parent);
        }
    }
    if (real[0] && hidden(pl, real)) add_op(pl, OP_RO, real, NULL);
}

/* Each entry of a list (LD_LIBRARY_PATH, LD_PRELOAD) split at seps. */
static void need_list(plan *pl, const char *list, const char *seps)
{
    char one[4096];
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, seps);
        if (n && n < sizeof one) {
            memcpy(one, p, n);
            one[n] = '\0';
            need(pl, one);
        }
        p += n;
        p += strspn(p, seps);
    }
}

/* Each directory of PATH that is hidden, with the one holding it where
 * that is no hidden root itself: the installation a program found there
 * belongs to (~/.local, ~/.pyenv with its shims and versions, ~/.cargo),
 * never the whole home directory (~/bin alone). */
static void need_path(plan *pl, const char *list)
{
    char one[4096], real[4096];
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ":");
        if (n && n < sizeof one && p[0] == '/') {
            memcpy(one, p, n);
            one[n] = '\0';
            if (resolve(pl, one, real, sizeof real) == 0 && hidden(pl, real)) {
                *strrchr(real, '/') = '\0';
                if (!is_root(pl, real) && hidden(pl, real)) need(pl, real);
                else need(pl, one);
            }
        }
        p += n;
        p += strspn(p, ":");
    }
}

/* A home directory, hidden by a tmpfs; not "/" nor one holding the system's
 * own directories. */
static void hide_home(plan *pl, const char *home)
{
    static const char *const system[] = {"/tmp", "/var/tmp", "/run", "/dev", "/proc", "/usr", "/etc", "/bin", "/lib"};
    char real[4096];
    struct stat st;
    if (!home || home[0] != '/' || !realpath(home, real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) return;
    for (size_t i = 0; i < sizeof system / sizeof *system; i++)
        if (under(system[i], real)) return;
    for (size_t i = 0; i < pl->nroots; i++)
        if (strcmp(pl->roots[i], real) == 0) return;
    if (pl->nroots < sizeof pl->roots / sizeof *pl->roots && (pl->roots[pl->nroots] = strdup(real))) pl->nroots++;
    add_op(pl, OP_TMPFS, real, NULL);
}

static int by_depth(const void *a, const void *b)
{
    const mount_op *x = a, *y = b;
    if (x->depth != y->depth) return x->depth < y->depth ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* A link is made again only where a tmpfs, not a bind, is what shows its
 * directory (bubblewrap will not make one where the real one is). */
static int link_needed(const plan *pl, const mount_op *l)
{
    const mount_op *cover = NULL;
    for (size_t i = 0; i < pl->n; i++) {
        const mount_op *o = &pl->ops[i];
        if (o->kind != OP_LINK && o->depth < l->depth && under(l->path, o->path) && (!cover || o->depth > cover->depth))
            cover = o;
    }
    return cover && cover->kind == OP_TMPFS;
}

static void build_plan(plan *pl, const mcc_sandbox_spec *sp)
{
    char tmp[4096];
    if (realpath("/tmp", tmp) && strcmp(tmp, "/") != 0 && (pl->roots[0] = strdup(tmp))) {
        pl->nroots = 1;
        add_op(pl, OP_TMPFS, tmp, NULL);
    }
    hide_home(pl, getenv("HOME"));
    struct passwd *pw = getpwuid(getuid());
    if (pw) hide_home(pl, pw->pw_dir);
    for (const char *const *p = sp->need; p && *p; p++) need(pl, *p);
    need_path(pl, getenv("PATH"));
    need_list(pl, getenv("LD_LIBRARY_PATH"), ":;");
    need_list(pl, getenv("LD_PRELOAD"), ": ");
    const char *display = getenv("MCC_DISPLAY");
    if (display && *display) need(pl, "/tmp/.X11-unix");
    if (sp->dir && sp->writable) add_op(pl, OP_RW, sp->dir, NULL);
    else if (sp->dir) need(pl, sp->dir);
    size_t k = 0;
    for (size_t i = 0; i < pl->n; i++)
        if (pl->ops[i].kind != OP_LINK || link_needed(pl, &pl->ops[i])) pl->ops[k++] = pl->ops[i];
    pl->n = k;
    if (pl->n) qsort(pl->ops, pl->n, sizeof *pl->ops, by_depth);
}

/* argv of bwrap running tail (a NULL-terminated argv) as sp says,
 * NULL-terminated, in a malloc'ed block; NULL on OOM. */
char **mcc_sandbox_argv_exec(const char *bwrap, const char *const *tail, const mcc_sandbox_spec *sp)
{
    /* root keeps every capability in bubblewrap's namespaces unless told
     * otherwise (and could remount / read-write): none for anyone, in a user
     * namespace of its own that cannot make another */
    const char *fixed[] = {bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
                           "--die-with-parent", "--new-session", "--ro-bind", "/", "/", "--dev", "/dev",
                           "--proc", "/proc", "--clearenv",
                           "--setenv", "HOME", "/var/tmp", "--setenv", "TMPDIR", "/var/tmp"};
    size_t nfixed = sizeof fixed / sizeof *fixed;
    extern char **environ;
    size_t nenv = 0;
    for (char **e = environ; e && *e; e++) nenv++;
    size_t ntail = 0;
    while (tail[ntail]) ntail++;
    plan pl = {0};
    build_plan(&pl, sp);
    size_t max = nfixed + 3 * nenv + 3 * 8 + 7 * pl.n + ntail + 24;
    char **argv = calloc(max, sizeof *argv);
    char *fds = malloc(64); /* two descriptors, then the private places' size */
    if (!argv || !fds) return free(argv), free(fds), NULL;
    size_t k = 0;
    for (size_t i = 0; i < nfixed; i++) argv[k++] = (char *)fixed[i];
    /* The places a case can write in memory: $HOME = $TMPDIR (/var/tmp) and
     * /dev/shm, each a tmpfs of at most hold_bytes, held open by certify
     * from outside (runner.c) so that what they hold counts toward
     * --max-memory, during the case and after it; /run and /dev themselves
     * are read-only (remounted below) */
    char *size = fds + 32;
    snprintf(size, 32, "%llu", (unsigned long long)sp->hold_bytes);
    if (sp->hold_bytes) argv[k++] = "--size", argv[k++] = size;
    argv[k++] = "--tmpfs", argv[k++] = "/var/tmp";
    if (sp->hold_bytes) argv[k++] = "--size", argv[k++] = size;
    argv[k++] = "--perms", argv[k++] = "1777", argv[k++] = "--tmpfs", argv[k++] = "/dev/shm";
    /* the hiding tmpfs mounts hold only the mount points of what is shown again */
    argv[k++] = "--size", argv[k++] = MCC_HIDING_TMPFS, argv[k++] = "--tmpfs", argv[k++] = "/run";
    if (sp->info_fd >= 0 && sp->block_fd >= 0) {
        /* bubblewrap says its child's pid on info_fd, then waits on block_fd
         * before the command runs: certify opens the namespace's network
         * counters and its private places in between (runner.c) */
        snprintf(fds, 16, "%d", sp->info_fd);
        snprintf(fds + 16, 16, "%d", sp->block_fd);
        argv[k++] = "--info-fd", argv[k++] = fds, argv[k++] = "--block-fd", argv[k++] = fds + 16;
    }
#ifdef MC_COVERAGE_BUILD
    /* a coverage build only (scripts/coverage.sh): instrumented test programs
     * write their counts at exit into the build tree, read-only here, and
     * libgcov's complaint would become the case's stderr tail; their counts
     * go to the private /var/tmp instead, and are dropped with it */
    argv[k++] = "--setenv", argv[k++] = "GCOV_PREFIX", argv[k++] = "/var/tmp/" MCC_GCOV_DIR;
#endif
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || !mcc_sandbox_env_kept(*e, (size_t)(eq - *e))) continue;
        /* "--setenv NAME VALUE": the name is cut out of the entry itself */
        char *name = strndup(*e, (size_t)(eq - *e));
        if (!name) continue; /* dropped: the command sees less, never more */
        argv[k++] = "--setenv", argv[k++] = name, argv[k++] = (char *)(eq + 1);
    }
    static const char *const verb[] = {"--tmpfs", "--symlink", "--ro-bind", "--bind"};
    for (size_t i = 0; i < pl.n; i++) {
        const mount_op *o = &pl.ops[i];
        if (o->kind == OP_TMPFS) argv[k++] = "--size", argv[k++] = MCC_HIDING_TMPFS;
        argv[k++] = (char *)verb[o->kind];
        if (o->kind != OP_TMPFS) argv[k++] = o->kind == OP_LINK ? o->target : o->path;
        argv[k++] = o->path;
    }
    /* the tmpfs roots read-only once everything is bound in them (the
     * binds keep their own modes): the case directory stays the one
     * writable place */
    for (size_t i = 0; i < pl.n; i++)
        if (pl.ops[i].kind == OP_TMPFS) argv[k++] = "--remount-ro", argv[k++] = pl.ops[i].path;
    argv[k++] = "--remount-ro", argv[k++] = "/run", argv[k++] = "--remount-ro", argv[k++] = "/dev";
    if (sp->dir) argv[k++] = "--chdir", argv[k++] = (char *)sp->dir;
    for (size_t i = 0; i < ntail; i++) argv[k++] = (char *)tail[i];
    argv[k] = NULL;
    return argv;
}

char **mcc_sandbox_argv(const char *bwrap, const char *command, const mcc_sandbox_spec *sp)
{
    const char *tail[] = {"/bin/sh", "-c", command, NULL};
    return mcc_sandbox_argv_exec(bwrap, tail, sp);
}

/* The first number after key in text (key found as a whole word), or -1. */
static long long field_after(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
        const char *q = p + n;
        if (p != text && p[-1] != '\n' && p[-1] != ' ' && p[-1] != '"') continue;
        while (*q == ' ' || *q == '\t' || *q == '"' || *q == ':') q++;
        if (*q < '0' || *q > '9') continue;
        return strtoll(q, NULL, 10);
    }
    return -1;
}

long mcc_sandbox_info_pid(const char *info)
{
    long long pid = field_after(info, "child-pid");
    return pid > 0 && pid < (1LL << 31) ? (long)pid : -1;
}

/* Reads an open /proc seq file again from its start into buf. */
static int reread(int fd, char *buf, size_t size)
{
    if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0) return -1;
    size_t n = 0;
    ssize_t got;
    while (n < size - 1 && ((got = read(fd, buf + n, size - 1 - n)) > 0 || (got < 0 && errno == EINTR)))
        if (got > 0) n += (size_t)got;
    buf[n] = '\0';
    return n ? 0 : -1;
}

/* OutNoRoutes of /proc/net/snmp: the value under its name in the second
 * "Ip:" line; -1 when not found. */
static long long snmp_no_routes(const char *text)
{
    const char *head = strstr(text, "Ip: "), *vals = head ? strstr(head + 4, "\nIp: ") : NULL;
    if (!vals) return -1;
    vals += 5;
    head += 4;
    while (*head && *head != '\n' && *vals && *vals != '\n') {
        size_t hn = strcspn(head, " \n"), vn = strcspn(vals, " \n");
        if (hn == 11 && strncmp(head, "OutNoRoutes", 11) == 0) return strtoll(vals, NULL, 10);
        head += hn, vals += vn;
        while (*head == ' ') head++;
        while (*vals == ' ') vals++;
    }
    return -1;
}

long long mcc_sandbox_net_attempts(int snmp_fd, int snmp6_fd)
{
    char buf[8192];
    long long v4 = reread(snmp_fd, buf, sizeof buf) == 0 ? snmp_no_routes(buf) : -1;
    long long v6 = reread(snmp6_fd, buf, sizeof buf) == 0 ? field_after(buf, "Ip6OutNoRoutes") : -1;
    if (v4 < 0 && v6 < 0) return -1;
    return (v4 > 0 ? v4 : 0) + (v6 > 0 ? v6 : 0);
}
