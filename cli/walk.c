#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "walk.h"

static int push(mc_pathlist *l, char *p)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **n = realloc(l->paths, cap * sizeof *n);
        if (!n) return -1;
        l->paths = n;
        l->cap = cap;
    }
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
        free(d);
        if (!p) {
            rc = -1;
            continue;
        }
        struct stat lst, st;
        int is_link = lstat(p, &lst) == 0 && S_ISLNK(lst.st_mode);
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (is_link) free(p);
            else rc = enter(&s, p, err_cb, ctx);
        } else if (push(out, p) != 0) {
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
    l->paths = NULL;
    l->count = l->cap = 0;
}
