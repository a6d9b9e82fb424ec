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

/* ---- unhandled exceptions of managed runtimes ---- */

/* The line starting at p, without its end, into buf (cut to size). */
static const char *line_at(const char *p, char *buf, size_t size)
{
    size_t n = strcspn(p, "\n");
    if (n >= size) n = size - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

static const char *next_line(const char *p)
{
    const char *end = strchr(p, '\n');
    return end ? end + 1 : p + strlen(p);
}

/* A dotted name at the start of s ("IndexError", "struct.error",
 * "System.IndexOutOfRangeException"): its length, 0 when there is none. */
static size_t type_name(const char *s)
{
    size_t n = 0;
    if (!isalpha((unsigned char)s[0]) && s[0] != '_') return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.' || s[n] == '$') n++;
    return n;
}

/* Python: the last traceback's innermost frame of the loader's own code
 * (`  File "x/reader.py", line 9, in f`; the interpreter's library under
 * /usr/ is skipped unless nothing else is there, as crash sites skip the C
 * library) and the unindented `Type: message` (or bare `Type`) that ends
 * it. The traceback's header may have been pushed out of the stderr tail:
 * its frames and last line are what identify it. */
static int python_site(const char *text, char *site, size_t size)
{
    char file[512] = "", func[256] = "", line[1024];
    int found = 0, own = 0;
    for (const char *p = text; *p; p = next_line(p)) {
        line_at(p, line, sizeof line);
        const char *q;
        if (strncmp(line, "  File \"", 8) == 0 && (q = strstr(line + 8, "\", line ")) != NULL) {
            int system = strncmp(line + 8, "/usr/", 5) == 0 || line[8] == '<'; /* <frozen ...> */
            if (system && own) continue;
            own = !system;
            const char *in = strstr(q, ", in ");
            const char *base = line + 8;
            for (const char *c = base; c < q; c++)
                if (*c == '/') base = c + 1;
            snprintf(file, sizeof file, "%.*s", (int)(q - base), base);
            snprintf(func, sizeof func, "%s", in ? in + 5 : "?");
            continue;
        }
        size_t t = type_name(line);
        if (file[0] && t && (line[t] == ':' || line[t] == '\0')) {
            snprintf(site, size, "Python %.*s in %s:%s", (int)t, line, file, func);
            found = 1;
            file[0] = '\0'; /* a later traceback (chained, or another) replaces it */
            own = 0;
        }
    }
    return found;
}

/* The method of a frame line ("   at Ns.Reader.Read (System.IO.Stream s)
 * [0x0001] in <id>:0", "\tat java.base/java.util.Objects.checkIndex(...)"):
 * its name up to the parameter list, without a Java module. 0 when the
 * line is no frame. */
static int frame_method(const char *line, char *out, size_t size)
{
    while (*line == ' ' || *line == '\t') line++;
    if (strncmp(line, "at ", 3) != 0) return 0;
    line += 3;
    size_t n = strcspn(line, " (");
    const char *slash = memchr(line, '/', n);
    if (slash) n -= (size_t)(slash + 1 - line), line = slash + 1;
    if (n == 0) return 0;
    snprintf(out, size, "%.*s", (int)n, line);
    return 1;
}

/* The runtime's own frames (List`1.get_Item, Objects.checkIndex): the
 * site is the loader's frame that called them. */
static int runtime_method(const char *m)
{
    static const char *const prefixes[] = {"System.", "Microsoft.", "Mono.", "java.", "javax.", "jdk.", "sun."};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(m, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    return 0;
}

/* .NET and Mono ("Unhandled Exception:" then the type line, "Unhandled
 * exception. System.X: ...", "[ERROR] FATAL UNHANDLED EXCEPTION: System.X:
 * ...") and the JVM ("Exception in thread "main" java.lang.X: ..."): the
 * exception's type and the first `at` frame after it. */
static int vm_site(const char *text, char *site, size_t size)
{
    static const struct {
        const char *marker, *runtime;
    } markers[] = {{"[ERROR] FATAL UNHANDLED EXCEPTION: ", ".NET"},
                   {"Unhandled exception. ", ".NET"},
                   {"Unhandled Exception:\n", ".NET"},
                   {"Unhandled Exception: ", ".NET"},
                   {"Exception in thread \"", "Java"}};
    for (size_t i = 0; i < sizeof markers / sizeof *markers; i++) {
        const char *hit = strstr(text, markers[i].marker);
        if (!hit) continue;
        const char *p = hit + strlen(markers[i].marker);
        if (markers[i].runtime[0] == 'J') { /* past the thread's name */
            const char *q = strstr(p, "\" ");
            if (!q || q > next_line(p)) continue;
            p = q + 2;
        }
        while (*p == ' ' || *p == '\n') p++;
        size_t t = type_name(p);
        if (!t) continue;
        char type[256], line[1024], method[512] = "", frame[512];
        snprintf(type, sizeof type, "%.*s", (int)t, p);
        int in_stack = 0;
        for (const char *l = next_line(p); *l; l = next_line(l)) {
            int is_frame = frame_method(line_at(l, line, sizeof line), frame, sizeof frame);
            if (in_stack && !is_frame) break; /* the first stack only */
            in_stack |= is_frame;
            if (is_frame && !method[0]) snprintf(method, sizeof method, "%s", frame); /* the fallback */
            if (is_frame && !runtime_method(frame)) {
                snprintf(method, sizeof method, "%s", frame);
                break;
            }
        }
        if (method[0]) snprintf(site, size, "%s %s in %s", markers[i].runtime, type, method);
        else snprintf(site, size, "%s %s", markers[i].runtime, type);
        return 1;
    }
    return 0;
}

char *mcc_exception_site(const char *stderr_text, int exit_code, int signal)
{
    char site[1024];
    if (!stderr_text) return NULL;
    /* Python exits 1 after printing the traceback */
    if (exit_code == 1 && python_site(stderr_text, site, sizeof site)) return strdup(site);
    /* .NET aborts (SIGABRT, or exit 134 through a shell), Mono and the JVM exit 1 */
    if ((exit_code > 0 || signal) && vm_site(stderr_text, site, sizeof site)) return strdup(site);
    return NULL;
}
