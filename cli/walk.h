/* Collecting the files under a directory, in a deterministic order. */
#ifndef MC_WALK_H
#define MC_WALK_H

#include <stddef.h>

typedef struct mc_pathlist {
    char **paths;
    /* listed[i]: the directory listing said paths[i] is a regular file, so
     * it may be opened without a stat first (mc_validate_listed_path) */
    unsigned char *listed;
    size_t count, cap;
} mc_pathlist;

/* Appends every file under dir (at any depth, depth first, sorted bytewise
 * per directory). Entries whose names start with '.' and symbolic links to
 * directories are not entered. Returns 0, or -1 when out of memory;
 * directories that cannot be listed (unreadable, path too long) are reported
 * to err_cb (with ctx) and the walk goes on. */
int mc_walk(const char *dir, mc_pathlist *out,
            void (*err_cb)(void *ctx, const char *path, int err), void *ctx);
void mc_pathlist_free(mc_pathlist *l);

#endif
