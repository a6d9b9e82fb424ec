#define _POSIX_C_SOURCE 200809L
/*
 * Crash sites: what a sanitizer report says about where a loader crashed,
 * reduced to a key that is the same for every input reaching the same bug,
 * so that a certificate reads as a bug list rather than fifty copies of one
 * report (docs/CERTIFY.md, "Crash sites").
 *
 * A site is "KIND in FILE:FUNCTION < FILE:FUNCTION": the report's kind
 * (heap-buffer-overflow, SEGV, misaligned load, memory leak...) and the
 * first MCC_SITE_FRAMES frames of its first stack that are the loader's own
 * code: sanitizer runtime, C library and system header frames (/usr/...,
 * e.g. an inlined SSE intrinsic of a math library) are skipped, and frames past
 * the ABI entry point (mc_certify_load) or main are the caller's. File names
 * lose their directories, lines are dropped (a site is a function, so an
 * edit elsewhere in the file does not split a group).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_certify.h"

#define MCC_SITE_FRAMES 2

/* The line holding the report's first marker, copied without its end. */
static const char *find_line(const char *text, const char *needle, char *line, size_t size)
{
    const char *hit = strstr(text, needle);
    if (!hit) return NULL;
    const char *end = strchr(hit, '\n');
    size_t n = end ? (size_t)(end - hit) : strlen(hit);
    if (n >= size) n = size - 1;
    memcpy(line, hit, n);
    line[n] = '\0';
    return line;
}

/* Up to five words of a UBSan message, stopping at the first that carries a
 * value (a digit or a quote): "load of misaligned address", "division by zero". */
static void ubsan_kind(const char *msg, char *kind, size_t size)
{
    size_t k = 0;
    int words = 0;
    while (*msg && words < 5) {
        while (*msg == ' ') msg++;
        const char *w = msg;
        while (*msg && *msg != ' ') msg++;
        int value = 0;
        for (const char *p = w; p < msg; p++) value |= isdigit((unsigned char)*p) || *p == '\'';
        if (value || msg == w) break;
        size_t n = (size_t)(msg - w);
        if (w[n - 1] == ':') n--;
        if (k + n + 2 > size) break;
        if (k) kind[k++] = ' ';
        memcpy(kind + k, w, n);
        k += n;
        words++;
    }
    kind[k] = '\0';
}

/* 0 when the text holds no report this knows. */
static int report_kind(const char *report, char *kind, size_t size)
{
    char line[512];
    if (find_line(report, "ERROR: AddressSanitizer: ", line, sizeof line)) {
        /* "heap-buffer-overflow on address ...", but "allocator is out of memory ..." */
        const char *w = line + strlen("ERROR: AddressSanitizer: ");
        size_t n = strcspn(w, " ");
        int word = memchr(w, '-', n) != NULL; /* heap-buffer-overflow, use-after-free */
        for (size_t i = 0; !word && i < n && isupper((unsigned char)w[i]); i++)
            word = i + 1 == n; /* SEGV, BUS, FPE */
        if (word) snprintf(kind, size, "%.*s", (int)n, w);
        else ubsan_kind(w, kind, size);
    } else if (find_line(report, "ERROR: libFuzzer: ", line, sizeof line)) {
        /* a fuzzing finding replayed: timeout, out-of-memory, deadly signal */
        const char *w = line + strlen("ERROR: libFuzzer: ");
        size_t n = strcspn(w, " ");
        snprintf(kind, size, "%.*s", (int)n, w);
    } else if (strstr(report, "ERROR: LeakSanitizer")) {
        snprintf(kind, size, "memory leak");
    } else if (find_line(report, "runtime error: ", line, sizeof line)) {
        ubsan_kind(line + strlen("runtime error: "), kind, size);
    } else {
        return 0;
    }
    return 1;
}

static int runtime_frame(const char *func, const char *path)
{
    static const char *const funcs[] = {"__interceptor_", "__asan", "__ubsan", "__sanitizer",
                                        "__lsan", "__libc_", "_start", "__GI_", "raise", "abort",
                                        "fuzzer::"};
    /* the runtime's sources, or its object files when it has no debug information */
    static const char *const files[] = {"libsanitizer", "sanitizer_common", "compiler-rt", "sysdeps/",
                                        "csu/", "asan_", "ubsan_", ".cpp.o"};
    for (size_t i = 0; i < sizeof funcs / sizeof *funcs; i++)
        if (strncmp(func, funcs[i], strlen(funcs[i])) == 0) return 1;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (strstr(path, files[i])) return 1;
    return strncmp(path, "/usr/", 5) == 0;
}

/* "    #3 0x55d0 in func /path/file.c:12:5": 1 with func and the file's
 * path, 0 for a frame without source (a library offset) or another line. */
static int parse_frame(const char *line, size_t len, char *func, size_t fsize, char *file,
                       size_t lsize)
{
    char buf[1024];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, line, len);
    buf[len] = '\0';
    char *id = strstr(buf, " (BuildId: "); /* clang's symbolizer appends it */
    if (id) *id = '\0';
    char *p = buf;
    while (*p == ' ') p++;
    if (*p != '#' || !isdigit((unsigned char)p[1])) return 0;
    char *in = strstr(p, " in ");
    if (!in) return 0;
    /* the path is the last word: a C++ name ("f(void*, char const*)") has spaces */
    char *f = in + 4;
    char *sp = strrchr(f, ' ');
    if (!sp || sp == f || sp[1] == '(' || sp[1] == '\0') return 0;
    *sp = '\0';
    char *path = sp + 1;
    path[strcspn(path, ":")] = '\0';
    f[strcspn(f, "(")] = '\0'; /* the parameter list */
    snprintf(func, fsize, "%s", f);
    snprintf(file, lsize, "%s", path);
    return 1;
}

char *mcc_crash_site(const char *report, int signal)
{
    char site[512], kind[128];
    if (!report || !report_kind(report, kind, sizeof kind)) {
        if (!signal) return NULL;
        const char *name = mcc_signal_name(signal);
        snprintf(site, sizeof site, "%s%s (no sanitizer report)", name ? "" : "signal ",
                 name ? name : "?");
        if (!name) snprintf(site, sizeof site, "signal %d (no sanitizer report)", signal);
        return strdup(site);
    }
    size_t k = (size_t)snprintf(site, sizeof site, "%s", kind);
    int frames = 0, in_stack = 0;
    for (const char *line = report; *line && frames < MCC_SITE_FRAMES;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char func[256], file[1024];
        const char *p = line;
        while (p < line + len && *p == ' ') p++;
        int is_frame = p < line + len && *p == '#';
        if (in_stack && !is_frame) break; /* the first stack only, not "allocated by" */
        in_stack |= is_frame;
        if (is_frame && parse_frame(line, len, func, sizeof func, file, sizeof file) &&
            !runtime_frame(func, file)) {
            if (strcmp(func, "main") == 0) break;
            const char *base = strrchr(file, '/');
            if (k < sizeof site)
                k += (size_t)snprintf(site + k, sizeof site - k, "%s%s:%s", frames ? " < " : " in ",
                                      base ? base + 1 : file, func);
            frames++;
            if (strcmp(func, MC_CERTIFY_SYMBOL) == 0) break; /* beyond it: the caller's */
        }
        line = end ? end + 1 : line + len;
    }
    return strdup(site);
}

static int site_order(const void *a, const void *b)
{
    const mcc_crash_site_group *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->site, y->site);
}

int mcc_crash_sites(const mcc_corpus *c, const mcc_result *r, mcc_crash_site_group **out,
                    size_t *count)
{
    *out = NULL;
    *count = 0;
    mcc_crash_site_group *g = NULL;
    size_t n = 0;
    for (size_t i = 0; i < c->count; i++) {
        if ((r[i].verdict != MCC_CRASH && r[i].verdict != MCC_LEAK) || !r[i].crash_site) continue;
        size_t j = 0;
        while (j < n && strcmp(g[j].site, r[i].crash_site) != 0) j++;
        if (j == n) {
            mcc_crash_site_group *more = realloc(g, (n + 1) * sizeof *g);
            if (!more) goto oom;
            g = more;
            g[n].site = r[i].crash_site;
            g[n].cases = NULL;
            g[n].count = 0;
            n++;
        }
        size_t *cases = realloc(g[j].cases, (g[j].count + 1) * sizeof *cases);
        if (!cases) goto oom;
        g[j].cases = cases;
        g[j].cases[g[j].count++] = i;
    }
    if (n) qsort(g, n, sizeof *g, site_order);
    *out = g;
    *count = n;
    return 0;
oom:
    mcc_crash_sites_free(g, n);
    return -1;
}

void mcc_crash_sites_free(mcc_crash_site_group *g, size_t count)
{
    for (size_t i = 0; g && i < count; i++) free(g[i].cases);
    free(g);
}
