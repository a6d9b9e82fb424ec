/*
 * From what the loader did to what it means: the verdict of each case, and
 * the scores per format and per rule group.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_certify.h"
#include "mc_check.h"
#include "mc_rules.h"

static const char *const verdict_names[] = {
    "conforming", "too_lenient", "too_strict", "crash", "hang", "error", "skipped", "leak", "oom"};
_Static_assert(sizeof verdict_names / sizeof *verdict_names == MCC_VERDICT_COUNT, "one per verdict");
static const char *const verdict_labels[] = {
    "conforming", "too lenient", "too strict", "crash", "hang", "runner error", "skipped", "leak",
    "out of memory"};
_Static_assert(sizeof verdict_labels / sizeof *verdict_labels == MCC_VERDICT_COUNT, "one per verdict");

const char *mcc_verdict_name(mcc_verdict v)
{
    return (unsigned)v < MCC_VERDICT_COUNT ? verdict_names[v] : "?";
}

const char *mcc_verdict_label(mcc_verdict v)
{
    return (unsigned)v < MCC_VERDICT_COUNT ? verdict_labels[v] : "?";
}

const char *mcc_outcome_name(mcc_outcome o)
{
    static const char *const names[] = {"not_run", "accepted", "rejected", "crashed", "timed_out",
                                        "runner_error"};
    return (unsigned)o < sizeof names / sizeof *names ? names[o] : "?";
}

const char *mcc_result_outcome_name(const mcc_result *r)
{
    return r->outcome == MCC_TIMED_OUT && r->over_memory ? "over_memory" : mcc_outcome_name(r->outcome);
}

const char *mcc_mode_name(mcc_mode m)
{
    return m == MCC_MODE_COMMAND ? "command" : m == MCC_MODE_LIBRARY ? "library" : "reference";
}

int mcc_is_leak(const mcc_result *r)
{
    /* LeakSanitizer reports at exit, and exits (23 by default): no signal;
     * or SIGABRT with abort_on_error=1 (it only runs at a normal exit, so an
     * abort after its report is its own) */
    return r->outcome == MCC_CRASHED && (!r->signal || r->signal == SIGABRT) && r->sanitizer &&
           strstr(r->sanitizer, "LeakSanitizer");
}

/* A crash with no sanitizer report that a managed runtime explained on
 * stderr (Mono's SIGABRT after "FATAL UNHANDLED EXCEPTION"): its site is
 * the exception's, not the bare signal's. */
static void exception_crash_site(mcc_result *r)
{
    if (r->report_head || !r->stderr_tail) return;
    char *site = mcc_exception_site(r->stderr_tail, r->exit_code, r->signal);
    if (!site) return;
    free(r->crash_site);
    r->crash_site = site;
}

mcc_verdict mcc_classify(const mcc_case *c, mcc_result *r)
{
    r->missed = NULL;
    r->missed_count = 0;
    switch (r->outcome) {
    case MCC_ACCEPTED:
        if (c->valid) return r->verdict = MCC_CONFORMING;
        /* accepting means none of the expected errors was noticed */
        r->missed = c->errors;
        r->missed_count = c->error_count;
        return r->verdict = MCC_TOO_LENIENT;
    case MCC_REJECTED: return r->verdict = c->valid ? MCC_TOO_STRICT : MCC_CONFORMING;
    case MCC_CRASHED:
        exception_crash_site(r);
        return r->verdict = mcc_is_leak(r) ? MCC_LEAK : MCC_CRASH;
    /* killed at --max-memory (runner.c) or at the deadline */
    case MCC_TIMED_OUT: return r->verdict = r->over_memory ? MCC_OOM : MCC_HANG;
    case MCC_NOT_RUN: return r->verdict = c->skip_reason ? MCC_SKIPPED : MCC_ERROR;
    case MCC_RUNNER_ERROR:
    default: return r->verdict = MCC_ERROR;
    }
}

double mcc_score(const mcc_counts *c)
{
    unsigned ran = c->total - c->verdict[MCC_SKIPPED];
    if (ran == 0) return 100.0;
    return round(1000.0 * c->verdict[MCC_CONFORMING] / ran) / 10.0;
}

int mcc_counts_conforming(const mcc_counts *c)
{
    return c->verdict[MCC_CONFORMING] + c->verdict[MCC_SKIPPED] == c->total;
}

static void count(mcc_counts *c, mcc_verdict v)
{
    c->total++;
    c->verdict[v]++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const mcc_group *)a)->name, ((const mcc_group *)b)->name);
}

/* The group of that name in f, added when new; NULL on OOM. Linear: a
 * format has a few dozen groups. */
static mcc_group *group_in(mcc_format_summary *f, const char *name, size_t *cap)
{
    for (size_t i = 0; i < f->group_count; i++)
        if (strcmp(f->groups[i].name, name) == 0) return &f->groups[i];
    if (f->group_count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        mcc_group *g = realloc(f->groups, ncap * sizeof *g);
        if (!g) return NULL;
        f->groups = g;
        *cap = ncap;
    }
    mcc_group *g = &f->groups[f->group_count];
    memset(g, 0, sizeof *g);
    if (!(g->name = strdup(name))) return NULL;
    f->group_count++;
    return g;
}

int mcc_summarize(const mcc_corpus *c, const mcc_result *r, mcc_summary *out)
{
    size_t caps[MCC_FORMAT_COUNT] = {0};
    memset(out, 0, sizeof *out);
    for (int f = 0; f < MCC_FORMAT_COUNT; f++) out->formats[f].format = mcc_format_names[f];
    for (size_t i = 0; i < c->count; i++) {
        mcc_format_summary *f = &out->formats[mcc_format_index(c->cases[i].format)];
        mcc_group *g = group_in(f, c->cases[i].group, &caps[f - out->formats]);
        if (!g) {
            mcc_summary_free(out);
            return -1;
        }
        count(&out->total, r[i].verdict);
        count(&f->counts, r[i].verdict);
        count(&g->counts, r[i].verdict);
    }
    for (int f = 0; f < MCC_FORMAT_COUNT; f++)
        if (out->formats[f].group_count)
            qsort(out->formats[f].groups, out->formats[f].group_count, sizeof(mcc_group), by_name);
    return 0;
}

void mcc_summary_free(mcc_summary *s)
{
    for (int f = 0; f < MCC_FORMAT_COUNT; f++) {
        for (size_t i = 0; i < s->formats[f].group_count; i++) free(s->formats[f].groups[i].name);
        free(s->formats[f].groups);
    }
    memset(s, 0, sizeof *s);
}

/* Where the run of bytes that mc_text_clean can take whole ends: before a
 * newline or tab (kept), a NUL (it ends its strings) or U+FFFE / U+FFFF
 * (valid UTF-8 that XML forbids). */
static size_t segment_end(const unsigned char *p, size_t i, size_t len)
{
    for (; i < len; i++) {
        if (p[i] == '\n' || p[i] == '\t' || p[i] == 0) break;
        if (p[i] == 0xEF && len - i >= 3 && p[i + 1] == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF)) break;
    }
    return i;
}

/* The one cleaning of text from outside (stderr, commands, paths, what an
 * exporter wrote): the validator's mc_text_clean (C0 and C1 controls, DEL
 * and bytes of no well-formed UTF-8 sequence as \xHH, bidi controls as
 * \u20XX), with newlines and tabs kept and NUL, U+FFFE and U+FFFF escaped,
 * so that the result is valid UTF-8, valid XML character data once markup
 * is escaped, and harmless on a terminal. At most 4 bytes out for one in. */
char *mcc_clean_text(const unsigned char *bytes, size_t len)
{
    if (len > (SIZE_MAX - 1) / 4) return NULL;
    size_t cap = 4 * len + 1, o = 0;
    char *out = malloc(cap), *seg = malloc(len + 1);
    if (!out || !seg) {
        free(out), free(seg);
        return NULL;
    }
    for (size_t i = 0; i < len;) {
        size_t end = segment_end(bytes, i, len);
        if (end > i) {
            memcpy(seg, bytes + i, end - i);
            seg[end - i] = '\0';
            o += mc_text_clean(out + o, cap - o, seg);
            i = end;
            continue;
        }
        if (bytes[i] == '\n' || bytes[i] == '\t') {
            out[o++] = (char)bytes[i++];
        } else if (bytes[i] == 0) {
            memcpy(out + o, "\\x00", 4), o += 4, i++;
        } else { /* EF BF BE / EF BF BF */
            memcpy(out + o, bytes[i + 2] == 0xBE ? "\\uFFFE" : "\\uFFFF", 6), o += 6, i += 3;
        }
    }
    out[o] = '\0';
    free(seg);
    return out;
}

const char *mcc_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGPIPE: return "SIGPIPE";
    default: return NULL;
    }
}

/* The last non-empty line of text, at most max bytes of it (cut at a UTF-8
 * character boundary), into buf. */
static const char *last_line(const char *text, char *buf, size_t size, size_t max)
{
    size_t end = text ? strlen(text) : 0;
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) end--;
    size_t start = end;
    while (start > 0 && text[start - 1] != '\n') start--;
    size_t len = end - start;
    if (len > max) len = max;
    if (len >= size) len = size - 1;
    while (len > 0 && len < end - start && ((unsigned char)text[start + len] & 0xC0) == 0x80) len--;
    if (len) memcpy(buf, text + start, len);
    buf[len] = '\0';
    return buf;
}

static void how_it_ended(const mcc_result *r, char *buf, size_t size)
{
    const char *sig = mcc_signal_name(r->signal);
    if (r->signal && sig) snprintf(buf, size, "%s", sig);
    else if (r->signal) snprintf(buf, size, "signal %d", r->signal);
    else snprintf(buf, size, "exit %d", r->exit_code);
}

char *mcc_describe(const mcc_case *c, const mcc_result *r, double timeout_s, char *buf, size_t size)
{
    char line[200], end[32];
    size_t used = 0;
    last_line(r->stderr_tail, line, sizeof line, 160);
    how_it_ended(r, end, sizeof end);
    switch (r->verdict) {
    case MCC_CONFORMING:
        snprintf(buf, size, "%s", c->valid ? "accepted" : "rejected");
        break;
    case MCC_TOO_LENIENT:
        used = (size_t)snprintf(buf, size, "accepted a file with errors; missed");
        for (size_t i = 0; i < r->missed_count && used < size; i++)
            used += (size_t)snprintf(buf + used, size - used, " %s", r->missed[i]);
        break;
    case MCC_TOO_STRICT:
        snprintf(buf, size, "rejected a valid file (%s)%s%s", end, line[0] ? ": " : "", line);
        break;
    case MCC_CRASH:
        if (r->phase)
            snprintf(buf, size, "crashed %s: %s%s%s", r->phase, end, line[0] ? ": " : "", line);
        else if (r->sanitizer)
            snprintf(buf, size, "crashed: sanitizer report (%s), %s", r->sanitizer, end);
        else
            snprintf(buf, size, "crashed: %s%s%s", end, line[0] ? ": " : "", line);
        break;
    case MCC_LEAK:
        snprintf(buf, size, "leaked memory: LeakSanitizer report, %s", end);
        break;
    case MCC_OOM:
        snprintf(buf, size, MCC_OOM_DETAIL, (unsigned long long)(r->over_memory >> 20));
        break;
    case MCC_HANG:
        snprintf(buf, size, "no answer within %g s: killed", timeout_s);
        break;
    case MCC_SKIPPED:
        snprintf(buf, size, "skipped: %s", c->skip_reason ? c->skip_reason : "");
        break;
    case MCC_ERROR:
    default:
        snprintf(buf, size, "runner error: %s", r->error ? r->error : "not run");
        break;
    }
    used = strlen(buf);
    if (r->sandbox_note && used + 2 < size) /* what the sandbox saw it try (runner.c) */
        snprintf(buf + used, size - used, "; %s", r->sandbox_note);
    return buf;
}
