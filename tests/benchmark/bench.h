/* The benchmark's file builders (bench_build.c). */
#ifndef MC_BENCH_H
#define MC_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum bench_format {
    BENCH_AEM,
    BENCH_SEMODEL_2018,
    BENCH_SEMODEL_DRAFT,
    BENCH_SAMF,
    BENCH_AAMF_LEGACY,
    BENCH_NLM,
    BENCH_E3D,
    BENCH_E3D_SKINNED, /* the same with boneWeights on every vertex */
    BENCH_AEM2025,     /* AEM in the current upstream layout (docs/formats/aem2025.md) */
    BENCH_FORMATS
} bench_format;

#define BENCH_MAX_BLOCKS 4096

/* Offsets of the LZMA blocks (type 0x0010) of a built E3D file. */
typedef struct bench_e3d_blocks {
    size_t at[BENCH_MAX_BLOCKS];
    size_t count;
} bench_e3d_blocks;

/* Writes a valid file of about `bytes` bytes (E3D: decoded bytes); blocks
 * is filled for E3D only. 0 on success. */
int bench_build(bench_format f, uint64_t bytes, const char *path, bench_e3d_blocks *blocks);
/* The E3D files, skinned or not; uncompressed ones (no LZMA blocks) let a
 * byte mutation reach the vertex data (tests/clean). */
int bench_build_e3d(uint64_t bytes, const char *path, bool skinned, bool compressed, bench_e3d_blocks *blocks);

#endif
