/*
 * Every kept issue of the corpus, located by mc_inspect_at (the one map
 * from a byte to a path, which inspect --at and --show-bytes print), must
 * name the issue's path, or a path inside or around it: an issue may name
 * a record where the map names its field (/vertices/5/weights and
 * /vertices/5/weights/0), or name all of a file ("/"). A path cut at the
 * 95 bytes an instance holds is compared as a prefix. Issues at the end of
 * their bytes (truncation) have no byte and are skipped. One process over
 * the corpus (issue 27).
 *
 *   mc_inspect_at_paths CORPUS_DIR
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modelcheck.h"

static unsigned long files, checked, problems;

static int agrees(const char *issue, const char *at)
{
    size_t li = strlen(issue), la = strlen(at);
    if (li == 0 || strcmp(issue, "/") == 0 || strcmp(issue, at) == 0) return 1;
    if (li >= sizeof(((mc_instance *)0)->path) - 1) return strncmp(at, issue, li) == 0;
    const char *a = li < la ? issue : at, *b = li < la ? at : issue;
    size_t n = strlen(a);
    return strncmp(a, b, n) == 0 && b[n] == '/';
}

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap ? cap * 2 : 65536);
            if (!nb) break;
            buf = nb;
            cap = cap ? cap * 2 : 65536;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *size = n;
    return buf;
}

static void check_instance(const char *path, mc_inspect *in, const mc_issue *is,
                           const mc_instance *inst)
{
    uint32_t space = 0;
    uint64_t off = inst->offset, size = 0;
    if (inst->has_payload_offset) {
        const char *at = strrchr(inst->path, '@');
        if (!at) return;
        space = mc_inspect_space_of_block(in, strtoull(at + 1, NULL, 0));
        if (!space) return; /* a block not decoded: no bytes */
        off = inst->payload_offset;
    }
    mc_inspect_space(in, space, &size, NULL);
    if (off >= size) return;
    const mc_location *l = mc_inspect_at(in, space, off);
    checked++;
    if (l && agrees(inst->path, l->path)) return;
    if (problems++ < 60)
        printf("%s: %s at 0x%" PRIx64 " [%s]: mc_inspect_at names %s\n", path,
               mc_code_get(is->code)->name, off, inst->path, l ? l->path : "(nothing)");
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    static const char *const exts[] = {".aem", ".semodel", ".aamf", ".samf", ".e3d", ".nlm"};
    const char *dot = strrchr(path, '.');
    int model = 0;
    for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++) model |= strcmp(dot, exts[i]) == 0;
    if (type != FTW_F || !model) return 0;
    size_t size = 0;
    unsigned char *data = slurp(path, &size);
    mc_inspect *in = NULL;
    if (!data || mc_inspect_memory(data, size, NULL, &in) != MC_OK) {
        printf("%s: cannot be read or inspected\n", path);
        problems++;
        free(data);
        return 0;
    }
    files++;
    const mc_result *r = mc_inspect_result(in);
    for (size_t i = 0; i < r->issue_count; i++)
        for (size_t k = 0; k < r->issues[i].instance_count; k++)
            check_instance(path, in, &r->issues[i], &r->issues[i].instances[k]);
    mc_inspect_free(in);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: mc_inspect_at_paths CORPUS_DIR\n", stderr);
        return 2;
    }
    if (nftw(argv[1], visit, 16, FTW_PHYS) != 0) {
        perror(argv[1]);
        return 1;
    }
    printf("%lu files, %lu issue offsets, %lu problems\n", files, checked, problems);
    if (files < 100 || checked < 100) {
        puts("FAIL too few files or issues: is CORPUS_DIR the corpus?");
        return 1;
    }
    return problems ? 1 : 0;
}
