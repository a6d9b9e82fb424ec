/*
 * The memory a case uses, and the default --max-memory.
 *
 * The limit is on resident memory, sampled: every MCC_MEMORY_TICK_MS the
 * runner adds up the anonymous and shared-memory resident pages (RssAnon +
 * RssShmem of /proc/PID/status) of every process of the case, found from its
 * first process down (/proc/PID/task/TID/children), and kills the case
 * when the sum is over the limit. Not RLIMIT_AS: a program built with
 * AddressSanitizer reserves terabytes of address space it never touches
 * and would not even start under it; resident memory is what it uses.
 * Pages of files (the program and its libraries) are not counted: they are
 * shared with every other process and can be dropped by the kernel.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mc_certify.h"

/* At most this many processes of one case are looked at per sample (a fork
 * bomb past it is not counted whole; the timeout and RLIMIT_CPU still end it). */
#define MAX_PROCS 4096

/* Small /proc file into buf (NUL-terminated); bytes read, 0 on failure. */
static size_t read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    size_t n = 0;
    ssize_t got;
    while (n < size - 1 && (got = read(fd, buf + n, size - 1 - n)) > 0) n += (size_t)got;
    close(fd);
    buf[n] = '\0';
    return n;
}

/* "Key:   123 kB" in a status text, in bytes; 0 when absent. */
static uint64_t status_kb(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p) return 0;
    unsigned long long kb = strtoull(p + strlen(key), NULL, 10);
    return kb > UINT64_MAX / 1024 ? UINT64_MAX : (uint64_t)kb * 1024;
}

static uint64_t process_rss(long pid)
{
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    if (!read_small(path, text, sizeof text)) return 0; /* gone: uses nothing now */
    return status_kb(text, "\nRssAnon:") + status_kb(text, "\nRssShmem:");
}

/* Appends the children of every thread of pid to list (up to max). */
static void add_children(long pid, long *list, size_t *n, size_t max)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%ld/task", pid);
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    while (*n < max && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%ld/task/%.20s/children", pid, e->d_name);
        if (!read_small(path, buf, sizeof buf)) continue;
        for (char *p = buf, *end; *n < max; p = end) {
            long child = strtol(p, &end, 10);
            if (end == p) break;
            if (child > 0) list[(*n)++] = child;
        }
    }
    closedir(d);
}

uint64_t mcc_tree_rss(long root)
{
    long *list = malloc(MAX_PROCS * sizeof *list);
    if (!list) return 0;
    size_t n = 0;
    list[n++] = root;
    uint64_t sum = 0;
    /* breadth first over a flat list: no recursion, bounded */
    for (size_t i = 0; i < n; i++) {
        uint64_t rss = process_rss(list[i]);
        sum = rss > UINT64_MAX - sum ? UINT64_MAX : sum + rss;
        add_children(list[i], list, &n, MAX_PROCS);
    }
    free(list);
    return sum;
}

/* The limit of the cgroup certify runs in (v2 memory.max, v1
 * memory.limit_in_bytes), UINT64_MAX when none is found. */
static uint64_t cgroup_limit(void)
{
    char text[4096];
    uint64_t best = UINT64_MAX;
    const char *own_v2 = NULL, *own_v1 = NULL;
    if (read_small("/proc/self/cgroup", text, sizeof text)) {
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            if (strncmp(line, "0::", 3) == 0) own_v2 = line + 3;
            char *m = strstr(line, ":memory:");
            if (m) own_v1 = m + 8;
        }
    }
    char cand[4][4400];
    size_t k = 0;
    if (own_v2) snprintf(cand[k++], sizeof cand[0], "/sys/fs/cgroup%s/memory.max", own_v2);
    snprintf(cand[k++], sizeof cand[0], "/sys/fs/cgroup/memory.max");
    if (own_v1) snprintf(cand[k++], sizeof cand[0], "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", own_v1);
    snprintf(cand[k++], sizeof cand[0], "/sys/fs/cgroup/memory/memory.limit_in_bytes");
    for (size_t i = 0; i < k; i++) {
        char v[64];
        if (!read_small(cand[i], v, sizeof v) || v[0] < '0' || v[0] > '9') continue; /* "max": none */
        unsigned long long b = strtoull(v, NULL, 10);
        if (b && b < best) best = b;
    }
    return best;
}

uint64_t mcc_physical_memory(void)
{
    char text[4096];
    uint64_t total = read_small("/proc/meminfo", text, sizeof text) ? status_kb(text, "MemTotal:") : 0;
    uint64_t cg = cgroup_limit();
    if (!total || cg < total) total = cg == UINT64_MAX ? 0 : cg;
    return total;
}

uint64_t mcc_default_max_memory(unsigned jobs)
{
    uint64_t ram = mcc_physical_memory();
    if (!ram) return 0; /* unknown: no limit */
    uint64_t each = ram / 2 / (jobs ? jobs : 1);
    return each < MCC_MEMORY_FLOOR ? MCC_MEMORY_FLOOR : each;
}
