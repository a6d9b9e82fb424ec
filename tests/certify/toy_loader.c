/*
 * Deliberately broken loaders for the certify tests, one program with a mode
 * per misbehaviour. Every mode but accept/stdin answers like a perfect loader
 * (the manifest's verdict: the "oracle") on every case but its victim, so the
 * expected verdict counts do not depend on the state of the reference loaders.
 *
 *   toy_loader accept FILE                     accepts everything
 *   toy_loader stdin                           accepts a non-empty standard input
 *   toy_loader oracle CORPUS FILE              the manifest's answer
 *   toy_loader crash NAME CORPUS FILE          SIGSEGV on the file called NAME
 *   toy_loader abort NAME CORPUS FILE          abort() on NAME
 *   toy_loader hang NAME CORPUS FILE           never returns on NAME
 *   toy_loader noisy NAME CORPUS FILE          50 MB to stdout and 50 MB to stderr on NAME
 *   toy_loader sanitizer NAME CORPUS FILE      a fake ASan report on NAME (split over two
 *                                              writes), then exit 0
 *   toy_loader fork TAG CORPUS FILE            leaves `toy_loader sleeper TAG` running
 *   toy_loader escape NAME PIDFILE CORPUS FILE on NAME: a grandchild leaves the process
 *                                              group (setsid), holds stdout/stderr open for
 *                                              30 s and writes its pid to PIDFILE
 *   toy_loader sleeper TAG                     sleeps an hour
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *b = realloc(buf, cap *= 2);
        if (!b) free(buf);
        buf = b;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

static int ends_with_file(const char *path, const char *file)
{
    size_t lp = strlen(path), lf = strlen(file);
    return lp > lf && path[lp - lf - 1] == '/' && strcmp(path + lp - lf, file) == 0;
}

static int has_error(const cJSON *expected)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, expected) {
        const char *sev = cJSON_GetStringValue(cJSON_GetObjectItem(e, "severity"));
        if (sev && strcmp(sev, "error") == 0) return 1;
    }
    return 0;
}

/* 0 (accept) when the manifest expects no error for the file, else 1. */
static int oracle(const char *corpus, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.json", corpus);
    char *text = slurp(path);
    cJSON *m = text ? cJSON_Parse(text) : NULL;
    free(text);
    int rc = 3;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(m, "cases")) {
        const char *f = cJSON_GetStringValue(cJSON_GetObjectItem(c, "file"));
        if (f && ends_with_file(file, f)) {
            rc = has_error(cJSON_GetObjectItem(c, "expected"));
            break;
        }
    }
    cJSON_Delete(m);
    if (rc == 3) fprintf(stderr, "toy_loader: %s is not in the manifest\n", file);
    if (rc == 1) fprintf(stderr, "toy_loader: rejected\n");
    return rc;
}

static int is_victim(const char *file, const char *name)
{
    const char *base = strrchr(file, '/');
    return strcmp(base ? base + 1 : file, name) == 0;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

static void noise(void)
{
    static char block[1 << 16];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 800; i++) { /* 800 * 64 KiB = 50 MiB on each stream */
        write_all(1, block, sizeof block);
        write_all(2, block, sizeof block);
    }
}

static void fake_sanitizer_report(void)
{
    static char filler[5000];
    memset(filler, 'y', sizeof filler);
    write_all(2, filler, sizeof filler);
    write_all(2, "==4242==ERROR: Address", 22);
    usleep(200 * 1000); /* the runner reads the two halves separately */
    write_all(2, "Sanitizer: heap-buffer-overflow <b>&amp;\n", 41);
}

static void escape(const char *pidfile)
{
    /* The loader waits until the grandchild has left the group: a loader
     * exiting first lets the runner kill the group, grandchild included,
     * before its setsid (which made the test flaky under load). */
    int ready[2];
    if (pipe(ready) != 0) return;
    pid_t pid = fork();
    if (pid != 0) {
        char c;
        close(ready[1]);
        if (pid > 0) (void)!read(ready[0], &c, 1); /* EOF once the grandchild is ready */
        close(ready[0]);
        return;
    }
    close(ready[0]);
    setsid();
    FILE *f = fopen(pidfile, "w");
    if (f) fprintf(f, "%ld\n", (long)getpid()), fclose(f);
    close(ready[1]);
    sleep(30);
    _exit(0);
}

static void leave_sleeper(const char *self, const char *tag)
{
    if (fork() == 0) {
        execl(self, self, "sleeper", tag, (char *)NULL);
        _exit(1);
    }
}

static int usage(void)
{
    fputs("usage: toy_loader MODE ARGS... (see the top of toy_loader.c)\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    const char *mode = argv[1];
    if (strcmp(mode, "accept") == 0) return 0;
    if (strcmp(mode, "stdin") == 0) return getchar() == EOF;
    if (strcmp(mode, "sleeper") == 0) return sleep(3600), 0;
    if (strcmp(mode, "oracle") == 0 && argc == 4) return oracle(argv[2], argv[3]);
    if (strcmp(mode, "escape") == 0 && argc == 6) {
        if (is_victim(argv[5], argv[2])) escape(argv[3]);
        return oracle(argv[4], argv[5]);
    }
    if (argc != 5) return usage();
    const char *name = argv[2], *corpus = argv[3], *file = argv[4];
    int victim = is_victim(file, name);
    if (strcmp(mode, "fork") == 0) leave_sleeper(argv[0], name);
    else if (!victim) {
        if (strcmp(mode, "crash") && strcmp(mode, "abort") && strcmp(mode, "hang") &&
            strcmp(mode, "noisy") && strcmp(mode, "sanitizer"))
            return usage();
    } else if (strcmp(mode, "crash") == 0) {
        /* markup, invalid UTF-8, control characters: reports must stay well-formed */
        fputs("about to crash <b>&amp;\n\xff\xc3\x28\x01\x1b[31m\n", stderr);
        raise(SIGSEGV);
    } else if (strcmp(mode, "abort") == 0) {
        abort();
    } else if (strcmp(mode, "hang") == 0) {
        for (;;) pause();
    } else if (strcmp(mode, "noisy") == 0) {
        noise();
    } else if (strcmp(mode, "sanitizer") == 0) {
        fake_sanitizer_report();
        return 0;
    } else {
        return usage();
    }
    return oracle(corpus, file);
}
