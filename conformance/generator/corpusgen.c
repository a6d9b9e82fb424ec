/*
 * mc_corpusgen OUTDIR: writes the conformance corpus deterministically, one
 * writer per format (generator/<format>_cases.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus_cases.h"

int mcg_mkdir(const char *root, const char *sub)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", root, *sub ? "/" : "", sub);
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "mc_corpusgen: cannot create %s: %s\n", path, strerror(errno));
    return -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: mc_corpusgen OUTDIR\n", stderr);
        return 2;
    }
    const char *root = argv[1];
    if (mcg_mkdir(root, "") != 0) return 1;
    int (*const writers[])(const char *) = {mcg_write_aem, mcg_write_semodel, mcg_write_aamf,
                                            mcg_write_e3d, mcg_write_nlm};
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
        if (writers[i](root) != 0) return 1;
    return 0;
}
