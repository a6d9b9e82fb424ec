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

int mc_walk(const char *dir, int max_depth, mc_pathlist *out,
            void (*err_cb)(void *, const char *, int), void *ctx)
{
    struct dirent **list;
    int n = scandir(dir, &list, visible, by_name);
    if (n < 0) {
        if (err_cb) err_cb(ctx, dir, errno);
        return 0;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *p = rc == 0 ? join(dir, list[i]->d_name) : NULL;
        free(list[i]);
        if (!p) {
            rc = -1;
            continue;
        }
        struct stat lst, st;
        int is_link = lstat(p, &lst) == 0 && S_ISLNK(lst.st_mode);
        int ok = stat(p, &st) == 0;
        if (ok && S_ISDIR(st.st_mode)) {
            if (!is_link && max_depth > 0) rc = mc_walk(p, max_depth - 1, out, err_cb, ctx);
            free(p);
        } else if (push(out, p) != 0) {
            free(p);
            rc = -1;
        }
    }
    free(list);
    return rc;
}

void mc_pathlist_free(mc_pathlist *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->paths[i]);
    free(l->paths);
    l->paths = NULL;
    l->count = l->cap = 0;
}
