/*
 * A toy loader library for `certify --library` (the ABI of
 * conformance/certify/mc_loader_abi.h). What it does comes from the
 * environment variable MCC_TOY_MODE, which the forked child inherits:
 *   accept (default)  accepts everything
 *   crash_empty       SIGSEGV on an empty file, accepts the rest
 *   hang_empty        never returns on an empty file, accepts the rest
 *   leak              leaks 64 bytes per file and accepts it (LeakSanitizer's job)
 * and hostile ones (issue 29: none may decide certify's exit code or stop it):
 *   ctor_exit         exit(0) in a constructor, when certify loads it
 *   ctor_abort        abort() in a constructor
 *   ctor_loop         loops forever in a constructor
 *   ctor_forge        writes a forged answer ("LA": loaded, accepted) into every
 *                     pipe it inherited (certify's answer pipe among them) from a
 *                     constructor, then SIGSEGV (issue 37: the case's crash)
 *   ctor_forge_error  the same with a forged load failure ("Eforged")
 *   ctor_forge_on     the forged "LA", then goes on (the answer is out of protocol)
 *   atexit_exit       rejects everything, with an atexit handler calling _exit(0)
 *   load_exit         exit(0) inside mc_certify_load
 *   load_abort        abort() inside mc_certify_load
 *   kill_ppid         SIGTERM and SIGINT to its parent (certify, unless
 *                     sandboxed), then rejects
 *   write_outside     writes the files named in MCC_TOY_PATHS (':'-separated):
 *                     accepts when all were written, rejects naming the error
 *   network           a UDP socket "connected" to 192.0.2.1 (no packet sent):
 *                     accepts when the system had a route there, rejects if not
 * Built without TOY_EXPORT it exports nothing: the "no entry point" case.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef TOY_EXPORT
int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

/* Blocks reachable from nowhere: a real leak. LeakSanitizer scans
 * conservatively, and a stale copy of a pointer left in a dead stack slot
 * that a later frame reuses makes a block look reachable; so several blocks,
 * and the stack below us wiped afterwards. */
__attribute__((noinline)) static void leak(void)
{
    for (int i = 0; i < 8; i++) {
        volatile char *p = malloc(64);
        if (p) p[0] = 1;
    }
}

static void quit_quietly(void) { _exit(0); }

/* text into every pipe among the descriptors past stderr */
static void forge(const char *text)
{
    for (int fd = 3; fd < 256; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && write(fd, text, strlen(text)) < 0) continue;
    }
}

static int mode_is(const char *m)
{
    const char *mode = getenv("MCC_TOY_MODE");
    return mode && strcmp(mode, m) == 0;
}

__attribute__((constructor)) static void on_load(void)
{
    if (mode_is("ctor_exit")) exit(0);
    if (mode_is("ctor_abort")) abort();
    if (mode_is("ctor_loop"))
        for (volatile int spin = 1; spin;) {}
    if (mode_is("atexit_exit")) atexit(quit_quietly);
    if (mode_is("ctor_forge")) forge("LA"), raise(SIGSEGV);
    if (mode_is("ctor_forge_error")) forge("Eforged"), raise(SIGSEGV);
    if (mode_is("ctor_forge_on")) forge("LA");
}

/* 0 when every file of MCC_TOY_PATHS was written, else the error in reason */
static int write_outside(char *reason, size_t reason_size)
{
    const char *paths = getenv("MCC_TOY_PATHS");
    char path[4096];
    for (const char *p = paths ? paths : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(path, sizeof path, "%.*s", (int)n, p);
        p += n + (p[n] == ':');
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) return snprintf(reason, reason_size, "cannot write %s: %s", path, strerror(errno)), 1;
        close(fd);
    }
    return 0;
}

/* 0 when a route to the network exists (connect on UDP sends nothing) */
static int reach_network(char *reason, size_t reason_size)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(9), .sin_addr.s_addr = htonl(0xC0000201)};
    int rc = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&to, sizeof to);
    if (rc != 0) snprintf(reason, reason_size, "no network: %s", strerror(errno));
    if (fd >= 0) close(fd);
    return rc != 0;
}

__attribute__((noinline)) static void wipe_stack(void)
{
    volatile char junk[16384];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = 0;
}

__attribute__((visibility("default"))) int mc_certify_load(const char *format,
                                                           const unsigned char *data, size_t size,
                                                           char *reason, size_t reason_size)
{
    (void)format, (void)data;
    const char *mode = getenv("MCC_TOY_MODE");
    if (!mode) mode = "accept";
    if (strcmp(mode, "crash_empty") == 0 && size == 0) raise(SIGSEGV);
    if (strcmp(mode, "hang_empty") == 0 && size == 0)
        for (;;) pause();
    if (strcmp(mode, "leak") == 0) leak(), wipe_stack();
    if (strcmp(mode, "load_exit") == 0) exit(0);
    if (strcmp(mode, "load_abort") == 0) abort();
    if (strcmp(mode, "kill_ppid") == 0) {
        kill(getppid(), SIGTERM), kill(getppid(), SIGINT);
        snprintf(reason, reason_size, "rejected by the toy");
        return 1;
    }
    if (strcmp(mode, "write_outside") == 0) return write_outside(reason, reason_size);
    if (strcmp(mode, "network") == 0) return reach_network(reason, reason_size);
    if (strcmp(mode, "atexit_exit") == 0) {
        snprintf(reason, reason_size, "rejected by the toy");
        return 1;
    }
    return 0;
}
#else
int mcc_toy_nothing(void);
int mcc_toy_nothing(void) { return 0; }
#endif
