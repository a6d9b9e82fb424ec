/*
 * Watching a certification run from its loop (mcc_run_options.watch):
 *
 *   - the progress line: case n of N, elapsed time, counts by verdict (or
 *     outcome), the case running longest; redrawn in place on a terminal,
 *     at most every 200 ms and whenever a case ends;
 *   - the sanity stop: when the first MCC_SANITY_CASES cases to end all
 *     failed the same way without reading their input (a command not
 *     found, a placeholder quoted wrongly, every output missing), running
 *     the rest would only repeat it: the run stops with one message.
 *
 * "Read its input" is seen through inotify (IN_ACCESS on each case's input
 * file: a read through any descriptor, the case's standard input
 * included). Where inotify is not available, only the shell's "cannot
 * execute" and "not found" (126, 127) count as not having read it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "mc_certify.h"

#define LABELS 12

struct mcc_watcher {
    mcc_watch_options o;
    size_t count;
    int fd;                 /* inotify, -1 when not available */
    int *wd;                /* per case, -1 none */
    unsigned char *read;    /* per watch descriptor: its file was read */
    size_t read_size;
    size_t ended;           /* cases that ended so far */
    int sane;               /* 1: some of the first cases did not fail alike: no stop */
    int any_failed;         /* one of the cases ended alike so far failed */
    char first_how[256];
    char stop[1024];
    const char *labels[LABELS];
    unsigned label_count[LABELS];
    size_t nlabels;
    double last_draw;
    int drawn;
};

static double mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Every IN_ACCESS event so far. */
static void drain(mcc_watcher *w)
{
    if (w->fd < 0) return;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n <= 0) return;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)p;
            /* IN_ACCESS only: a copy's watch ends with IN_IGNORED when it is removed */
            if ((e->mask & IN_ACCESS) && e->wd >= 0 && (size_t)e->wd < w->read_size) w->read[e->wd] = 1;
            p += sizeof *e + e->len;
        }
    }
}

/* Watches case i's input (path, NULL: none) for reads; wd[i] -1 when it cannot. */
static void add_watch(mcc_watcher *w, size_t i, const char *path)
{
    if (w->fd < 0 || !path) return;
    int wd = inotify_add_watch(w->fd, path, IN_ACCESS);
    if (wd >= 0 && (size_t)wd >= w->read_size) {
        size_t size = (size_t)wd * 2 + 16;
        unsigned char *r = realloc(w->read, size);
        if (!r) return;
        memset(r + w->read_size, 0, size - w->read_size);
        w->read = r, w->read_size = size;
    }
    if (wd >= 0) w->read[wd] = 0; /* a new watch: reads before it do not count */
    w->wd[i] = wd;
}

mcc_watcher *mcc_watcher_new(const mcc_watch_options *o, size_t count)
{
    mcc_watcher *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->o = *o;
    w->count = count;
    w->fd = -1;
    w->last_draw = -1e9;
    if (!o->sanity || !o->inputs) return w;
    w->wd = malloc((count + 1) * sizeof *w->wd);
    if (!w->wd) return w;
    w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    for (size_t i = 0; i < count; i++) {
        w->wd[i] = -1;
        add_watch(w, i, o->inputs[i]);
    }
    return w;
}

void mcc_watcher_input(void *watcher, size_t index, const char *path)
{
    mcc_watcher *w = watcher;
    if (!w || !w->wd || index >= w->count) return;
    drain(w); /* the events so far belong to the old watch */
    w->wd[index] = -1;
    add_watch(w, index, path);
}

void mcc_watcher_free(mcc_watcher *w)
{
    if (!w) return;
    if (w->fd >= 0) close(w->fd);
    free(w->wd);
    free(w->read);
    free(w);
}

const char *mcc_watcher_stop_reason(const mcc_watcher *w)
{
    return w && w->stop[0] ? w->stop : NULL;
}

/* 1: the case surely did not read its input. */
static int unread(mcc_watcher *w, size_t i, const mcc_result *res)
{
    if (res->exit_code == 126 || res->exit_code == 127) return 1; /* the shell ran nothing */
    if (!w->wd || w->wd[i] < 0) return 0;
    drain(w);
    return !w->read[w->wd[i]];
}

/* Whatever their verdicts: a loader that rejects every file without
 * reading it is "right" on each invalid case and still broken (a mistyped
 * script name: `python3` exits 2 on all of them). The stop waits for one
 * failed case among them (a valid file rejected, an output missing), so a
 * loader that refuses the first invalid files by their name alone is not
 * taken for broken; and for the same ending, word for word. */
static void sanity(mcc_watcher *w, size_t i, const mcc_result *res, int failed, const char *how)
{
    if (w->sane || !w->o.sanity) return;
    if (!unread(w, i, res)) {
        w->sane = 1;
        return;
    }
    if (w->ended == 1) snprintf(w->first_how, sizeof w->first_how, "%s", how);
    else if (strcmp(w->first_how, how) != 0) {
        w->sane = 1;
        return;
    }
    w->any_failed |= failed;
    if (w->ended >= MCC_SANITY_CASES && w->any_failed && w->count > w->ended && !w->stop[0])
        snprintf(w->stop, sizeof w->stop,
                 "stopped after the first %d cases, which all ended the same way without reading their "
                 "input (%s): the command is likely broken (a path, a placeholder quoted wrongly); the other "
                 "%zu cases were not run (--keep-going runs them anyway)",
                 (int)w->ended, how, w->count - w->ended);
}

static void count_label(mcc_watcher *w, const char *label)
{
    size_t k = 0;
    while (k < w->nlabels && strcmp(w->labels[k], label) != 0) k++;
    if (k == w->nlabels) {
        if (k == LABELS) return;
        w->labels[w->nlabels++] = label;
    }
    w->label_count[k]++;
}

static void draw(mcc_watcher *w, const mcc_watch_state *st)
{
    char line[512];
    size_t used = 0;
#define PUT(...)                                                                                                       \
    do {                                                                                                               \
        int n_ = snprintf(line + used, sizeof line - used, __VA_ARGS__);                                               \
        if (n_ > 0) used = used + (size_t)n_ < sizeof line ? used + (size_t)n_ : sizeof line - 1;                     \
    } while (0)
    PUT("certify: %zu/%zu, %.1f s", st->done, st->total, st->elapsed_ms / 1000);
    for (size_t k = 0; k < w->nlabels; k++) PUT("%s %u %s", k ? "," : ";", w->label_count[k], w->labels[k]);
    char shown[256];
    if (st->slowest != SIZE_MAX && w->o.names) /* a corpus's names are outside text: shown cleaned */
        PUT("; running %s (%.1f s)", mcc_shown(w->o.names[st->slowest], shown, sizeof shown), st->slowest_ms / 1000);
#undef PUT
    struct winsize ws;
    size_t cols = 100;
    if (ioctl(fileno(w->o.progress), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) cols = ws.ws_col;
    if (used > cols - 1) used = cols - 1; /* one line: a wrapped line cannot be redrawn in place */
    fprintf(w->o.progress, "\r%.*s\033[K", (int)used, line);
    fflush(w->o.progress);
    w->drawn = 1;
}

int mcc_watcher_fn(void *ctx, const mcc_watch_state *st, size_t ended, const mcc_result *res)
{
    mcc_watcher *w = ctx;
    if (ended != SIZE_MAX && res && res->stderr_tail && strstr(res->stderr_tail, MCC_ASAN_NOT_FIRST)) {
        /* no case can run: say why in plain words, whatever the other options */
        snprintf(w->stop, sizeof w->stop, "%s", MCC_ASAN_NOT_FIRST_HELP);
        return 1;
    }
    if (ended != SIZE_MAX && res) {
        w->ended++;
        int failed = 0;
        char how[256] = "";
        const char *label = w->o.classify(w->o.ctx, ended, res, &failed, how, sizeof how);
        if (label) count_label(w, label);
        sanity(w, ended, res, failed, how);
    }
    double now = mono_ms();
    if (w->o.progress && (ended != SIZE_MAX || now - w->last_draw >= 200)) {
        draw(w, st);
        w->last_draw = now;
    }
    return w->stop[0] != 0;
}

void mcc_watcher_finish(mcc_watcher *w)
{
    if (w && w->drawn && w->o.progress) {
        fputs("\r\033[K", w->o.progress);
        fflush(w->o.progress);
    }
}
