#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "walk.h"

static int push(mc_pathlist *l, char *p, int regular)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **n = realloc(l->paths, cap * sizeof *n);
        if (!n) return -1;
        l->paths = n;
        unsigned char *k = realloc(l->listed, cap);
        if (!k) return -1;
        l->listed = k;
        l->cap = cap;
    }
    l->listed[l->count] = (unsigned char)regular;
    l->paths[l->count++] = p;
    return 0;
}

static int visible(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

/* Bytewise, not strcoll: the order must not depend on the locale. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    int slash = a > 0 && dir[a - 1] != '/';
    char *p = malloc(a + (size_t)slash + b + 1);
    if (!p) return NULL;
    memcpy(p, dir, a);
    if (slash) p[a] = '/';
    memcpy(p + a + slash, name, b + 1);
    return p;
}

typedef enum entry_kind {
    ENTRY_REGULAR,     /* a regular file, not through a symbolic link */
    ENTRY_DIR,         /* a directory, not through a symbolic link: entered */
    ENTRY_LINK_TO_DIR, /* not entered (a link may lead back up the tree) */
    ENTRY_OTHER,       /* anything else, a link to a file, a dangling link or a
                          name gone since the listing: validated by path,
                          which reports what it is */
} entry_kind;

/* What an entry is. The listing's d_type says it for free on the usual
 * file systems: a directory of 10,000 files costs no system call per file
 * here (issue 16). Only a symbolic link is looked up (where it leads), and
 * every entry on a file system that gives no d_type (lstat, then stat for a
 * link). */
static entry_kind kind_of(const char *p, unsigned char type)
{
    struct stat st;
#ifdef __EMSCRIPTEN__
    /* the npm package's command (web/): emscripten's listing of Node's file
     * system calls a FIFO or a socket a regular file, which would then be
     * opened, and Node's open of a FIFO waits for a writer */
    type = DT_UNKNOWN;
#endif
    if (type == DT_UNKNOWN) {
        if (lstat(p, &st) != 0) return ENTRY_OTHER;
        type = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_FIFO;
    }
    if (type == DT_REG) return ENTRY_REGULAR;
    if (type == DT_DIR) return ENTRY_DIR;
    if (type == DT_LNK && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) return ENTRY_LINK_TO_DIR;
    return ENTRY_OTHER;
}

/* One directory being listed: its sorted entries and the next one to visit. */
typedef struct frame {
    char *dir;
    struct dirent **list;
    int n, next;
} frame;

typedef struct stack {
    frame *f;
    size_t count, cap;
} stack;

/* Lists dir onto the stack (taking dir); an unreadable directory goes to
 * err_cb and is not pushed. -1 when out of memory. */
static int enter(stack *s, char *dir, void (*err_cb)(void *, const char *, int), void *ctx)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        frame *n = realloc(s->f, cap * sizeof *n);
        if (!n) {
            free(dir);
            return -1;
        }
        s->f = n;
        s->cap = cap;
    }
    frame *f = &s->f[s->count];
    f->n = scandir(dir, &f->list, visible, by_name);
    if (f->n < 0) {
        if (err_cb) err_cb(ctx, dir, errno);
        free(dir);
        return 0;
    }
    f->dir = dir;
    f->next = 0;
    s->count++;
    return 0;
}

/* Depth first, entries in name order: the order of a recursive walk, with
 * the pending directories on the heap instead of the C stack, so that no
 * depth is too deep (a path too long to open is reported by err_cb). */
int mc_walk(const char *dir, mc_pathlist *out, void (*err_cb)(void *, const char *, int), void *ctx)
{
    stack s = {0};
    char *root = strdup(dir);
    int rc = root ? enter(&s, root, err_cb, ctx) : -1;
    while (s.count) {
        frame *f = &s.f[s.count - 1];
        if (f->next == f->n || rc != 0) {
            while (f->next < f->n) free(f->list[f->next++]);
            free(f->list);
            free(f->dir);
            s.count--;
            continue;
        }
        struct dirent *d = f->list[f->next++];
        char *p = join(f->dir, d->d_name);
        unsigned char type = d->d_type;
        free(d);
        if (!p) {
            rc = -1;
            continue;
        }
        entry_kind k = kind_of(p, type);
        if (k == ENTRY_DIR) {
            rc = enter(&s, p, err_cb, ctx);
        } else if (k == ENTRY_LINK_TO_DIR) {
            free(p);
        } else if (push(out, p, k == ENTRY_REGULAR) != 0) {
            free(p);
            rc = -1;
        }
    }
    free(s.f);
    return rc;
}

void mc_pathlist_free(mc_pathlist *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->paths[i]);
    free(l->paths);
    free(l->listed);
    l->paths = NULL;
    l->listed = NULL;
    l->count = l->cap = 0;
}
