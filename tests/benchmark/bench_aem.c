/*
 * Benchmark (not a test): validates a generated AEM with N vertices and K
 * keyframes through the library's mapped-file path, against a plain
 * sequential pass over the same mapped bytes, and prints the ratio and the
 * heap the validator used. See docs/PERFORMANCE.md.
 *
 *   mc_bench_aem [vertices [keyframes [file]]]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aem_builder.h"
#include "modelcheck.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int build(uint32_t nv, uint32_t nk, const char *path)
{
    aemb_model *m = aemb_sample(AEMB_SKINNED_ANIMATED);
    if (!m) return -1;
    aemb_vertex proto = m->vertices[0];
    uint32_t ni = nv / 3 * 3;
    uint32_t per_channel = nk / 9 ? nk / 9 : 1;
    if (aemb_resize(m, AEMB_VERTICES, nv) || aemb_resize(m, AEMB_INDICES, ni) ||
        aemb_resize(m, AEMB_MESHES, 1) || aemb_resize(m, AEMB_KEYFRAMES, per_channel * 9))
        return -1;
    for (uint32_t i = 0; i < nv; i++) {
        m->vertices[i] = proto;
        m->vertices[i].position[0] = (float)i;
    }
    for (uint32_t k = 0; k < ni; k++) m->indices[k] = k;
    m->meshes[0] = (aemb_mesh){0, ni, 0};
    uint32_t k = 0;
    for (uint32_t s = 0; s < 3; s++)
        for (int ch = 0; ch < 3; ch++) {
            m->sequences[s].first[ch] = k;
            m->sequences[s].count[ch] = per_channel;
            for (uint32_t j = 0; j < per_channel; j++, k++) {
                m->keys[k] = (aemb_key){(float)j / (float)per_channel, 0, 0, 0, 0};
                if (ch == 1) m->keys[k].w = 1.0f;
            }
        }
    mcb_buf b = {0};
    aemb_write(m, &b);
    aemb_free(m);
    int rc = mcb_write_file(&b, path);
    mcb_free(&b);
    return rc;
}

/* The floor: touch every byte of the mapping once, as a reader must. */
static double plain_pass(const char *path, uint64_t *sink)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) return -1;
    size_t n = (size_t)st.st_size;
    const uint8_t *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return -1;
    double t0 = now();
    uint64_t acc = 0;
    for (size_t i = 0; i + 4 <= n; i += 4) {
        uint32_t v;
        memcpy(&v, p + i, 4);
        acc += v;
    }
    double t = now() - t0;
    *sink += acc;
    munmap((void *)p, n);
    return t;
}

int main(int argc, char **argv)
{
    uint32_t nv = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 2000000u;
    uint32_t nk = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 90000u;
    const char *path = argc > 3 ? argv[3] : "/tmp/mc_bench.aem";
    if (build(nv, nk, path) != 0) {
        fprintf(stderr, "mc_bench_aem: cannot build %s\n", path);
        return 1;
    }
    uint64_t sink = 0;
    double best_plain = 1e9, best_mc = 1e9, best_nohash = 1e9;
    mc_options nohash;
    mc_options_init(&nohash);
    nohash.skip_sha256 = 1;
    size_t heap_before = mallinfo2().uordblks, heap_result = 0;
    uint64_t size = 0;
    int valid = 0;
    for (int rep = 0; rep < 5; rep++) {
        double tp = plain_pass(path, &sink);
        if (tp >= 0 && tp < best_plain) best_plain = tp;
        mc_result *r = NULL;
        double t0 = now();
        mc_status st = mc_validate_path(path, NULL, &r);
        double t = now() - t0;
        if (st != MC_OK || !r) return 1;
        if (t < best_mc) best_mc = t;
        heap_result = mallinfo2().uordblks - heap_before;
        mc_result *r2 = NULL;
        t0 = now();
        if (mc_validate_path(path, &nohash, &r2) != MC_OK) return 1;
        t = now() - t0;
        if (t < best_nohash) best_nohash = t;
        mc_result_free(r2);
        size = r->size;
        valid = mc_result_valid(r) && r->issue_count == 0;
        mc_result_free(r);
    }
    printf("file: %s, %" PRIu64 " bytes, %" PRIu32 " vertices, %" PRIu32 " keyframes, clean: %s\n",
           path, size, nv, nk / 9 * 9, valid ? "yes" : "NO");
    printf("plain sequential pass: %.4f s (%.0f MB/s)\n", best_plain, (double)size / best_plain / 1e6);
    printf("modelcheck (map + sha256 + all checks): %.4f s (%.0f MB/s)\n", best_mc,
           (double)size / best_mc / 1e6);
    printf("modelcheck --no-sha256 (map + all checks): %.4f s (%.0f MB/s)\n", best_nohash,
           (double)size / best_nohash / 1e6);
    printf("ratio modelcheck / plain: %.2f (checks only: %.2f)\n", best_mc / best_plain,
           best_nohash / best_plain);
    printf("heap held by the result: %zu bytes\n", heap_result);
    return sink == 42 ? 2 : 0; /* keep the plain pass from being optimised away */
}
