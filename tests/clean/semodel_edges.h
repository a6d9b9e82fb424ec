/* SEModel files on the clean paths' edges, built in memory (semodel_edges.c). */
#ifndef MC_SEMODEL_EDGES_H
#define MC_SEMODEL_EDGES_H

#include <stddef.h>
#include <stdint.h>

typedef void semodel_edge_fn(void *ctx, const char *name, const uint8_t *data, size_t size);

/* Builds each file and passes it to fn; 0 on success, -1 when one could not
 * be built (out of memory). */
int semodel_edges_each(semodel_edge_fn *fn, void *ctx);

#endif
