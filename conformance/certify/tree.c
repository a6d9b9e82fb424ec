/*
 * Case directories after an exporter ran: what they hold (for the per-case
 * output cap) and their removal. Iterative, one directory descriptor open at
 * a time and the names of the path on the heap, so a tree thousands of
 * levels deep (deeper than PATH_MAX, more levels than open files allowed) is
 * walked and removed; symbolic links are never followed (O_NOFOLLOW on every
 * step down); a directory the exporter made unreadable is made readable
 * first. Failures are counted, never silent.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mc_exporter.h"

typedef struct path_stack {
    char **names;
    size_t depth, cap;
} path_stack;

static int push(path_stack *p, const char *name)
{
    if (p->depth == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        char **n = realloc(p->names, cap * sizeof *n);
        if (!n) return -1;
        p->names = n, p->cap = cap;
    }
    if (!(p->names[p->depth] = strdup(name))) return -1;
    p->depth++;
    return 0;
}

static int open_dir_at(int at, const char *name)
{
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EACCES && fchmodat(at, name, 0700, 0) == 0)
        fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return fd;
}

typedef struct walker {
    int remove;
    uint64_t bytes;
    unsigned failures;
    const path_stack *path; /* the directories from the root down to the one scanned */
    mcx_listing *list;      /* removing: what is removed besides directories, or NULL */
} walker;

/* Keeps the MCX_LISTED smallest paths (byte order: the same on every file
 * system, whatever order readdir gives). */
static void keep_name(mcx_listing *l, const path_stack *p, const char *name)
{
    if (p->depth && l->skip_top && strcmp(p->names[0], l->skip_top) == 0) return;
    l->count++;
    size_t len = strlen(name) + 1;
    for (size_t i = 0; i < p->depth; i++) len += strlen(p->names[i]) + 1;
    char *rel = malloc(len);
    if (!rel) return;
    rel[0] = '\0';
    for (size_t i = 0; i < p->depth; i++) strcat(strcat(rel, p->names[i]), "/");
    strcat(rel, name);
    size_t k = MCX_LISTED;
    while (k > 0 && (!l->first[k - 1] || strcmp(rel, l->first[k - 1]) < 0)) k--;
    if (k == MCX_LISTED) {
        free(rel);
        return;
    }
    free(l->first[MCX_LISTED - 1]);
    memmove(&l->first[k + 1], &l->first[k], (MCX_LISTED - 1 - k) * sizeof *l->first);
    l->first[k] = rel;
}

/* One pass over dir fd: every entry that is not a directory is removed or
 * counted; the first directory past the first `skip` ones is named in
 * name. 0 a directory found, 1 none left, -1 error. */
static int scan(walker *w, int fd, size_t skip, char *name, size_t size)
{
    int dup_fd = dup(fd);
    if (dup_fd < 0) return -1;
    DIR *d = fdopendir(dup_fd);
    if (!d) return close(dup_fd), -1;
    rewinddir(d);
    struct dirent *e;
    struct stat st;
    int rc = 1;
    size_t dirs = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            w->failures++;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (dirs++ < skip || rc == 0 || strlen(e->d_name) >= size) continue;
            strcpy(name, e->d_name);
            rc = 0; /* and on: every file of this directory is handled in this pass */
            continue;
        }
        if (!w->remove) {
            if (S_ISREG(st.st_mode) && skip == 0) w->bytes += (uint64_t)st.st_size; /* first pass only */
        } else if (unlinkat(fd, e->d_name, 0) != 0) {
            w->failures++;
        } else if (w->list) {
            keep_name(w->list, w->path, e->d_name);
        }
    }
    closedir(d);
    return rc;
}

/* Removes or counts everything under root (and root itself when removing),
 * depth first, iteratively. skips[k]: subdirectories of level k done. */
static void walk_fd(walker *w, int fd);

static void walk(walker *w, const char *root)
{
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT) w->failures++;
        return;
    }
    walk_fd(w, fd);
    if (w->remove && rmdir(root) != 0 && errno != ENOENT) w->failures++;
}

/* What is under the directory fd (closed here), the directory itself left. */
static void walk_fd(walker *w, int fd)
{
    path_stack p = {0};
    w->path = &p;
    size_t *skips = NULL, skip_cap = 0, skip = 0;
    char name[256];
    for (;;) {
        int rc = scan(w, fd, skip, name, sizeof name);
        if (rc == 0) {
            int sub = open_dir_at(fd, name);
            if (p.depth + 1 > skip_cap) {
                size_t cap = skip_cap ? skip_cap * 2 : 64;
                size_t *n = realloc(skips, cap * sizeof *n);
                if (n) skips = n, skip_cap = cap;
            }
            if (sub < 0 || p.depth + 1 > skip_cap || push(&p, name) != 0) {
                if (sub >= 0) close(sub);
                w->failures++;
                skip++; /* passed over: it stays */
                continue;
            }
            skips[p.depth - 1] = skip;
            close(fd);
            fd = sub;
            skip = 0;
            continue;
        }
        if (rc < 0) w->failures++;
        if (p.depth == 0) break; /* root done */
        int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        fd = up;
        p.depth--;
        skip = skips[p.depth];
        if (fd < 0) {
            w->failures++;
            free(p.names[p.depth]);
            break;
        }
        /* counted, or removed (else it stays and is passed over) */
        if (!w->remove || unlinkat(fd, p.names[p.depth], AT_REMOVEDIR) != 0) skip++;
        if (w->remove && skip > skips[p.depth]) w->failures++;
        free(p.names[p.depth]);
    }
    if (fd >= 0) close(fd);
    while (p.depth) free(p.names[--p.depth]);
    free(p.names);
    free(skips);
}

unsigned mcx_remove_tree(const char *root)
{
    walker w = {.remove = 1};
    if (root) walk(&w, root);
    return w.failures;
}

unsigned mcx_remove_tree_listing(const char *root, mcx_listing *list)
{
    const char *skip_top = list->skip_top;
    memset(list, 0, sizeof *list);
    list->skip_top = skip_top;
    walker w = {.remove = 1, .list = list};
    if (root) walk(&w, root);
    return w.failures;
}

unsigned mcx_empty_dir_listing(int dir_fd, mcx_listing *list)
{
    const char *skip_top = list->skip_top;
    memset(list, 0, sizeof *list);
    list->skip_top = skip_top;
    walker w = {.remove = 1, .list = list};
    int fd = dir_fd >= 0 ? openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) walk_fd(&w, fd);
    return w.failures + (dir_fd >= 0 && fd < 0);
}

void mcx_listing_free(mcx_listing *list)
{
    for (size_t i = 0; i < MCX_LISTED; i++) free(list->first[i]), list->first[i] = NULL;
}

uint64_t mcx_tree_bytes(const char *root)
{
    walker w = {0};
    if (root) walk(&w, root);
    return w.bytes;
}
