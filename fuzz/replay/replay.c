/*
 * Runs a fuzz harness over files and directories of inputs, with any
 * compiler and no fuzzing engine: the regression and seed corpora replay
 * under ctest (and the asan preset) this way.
 *
 *   mc_replay_<target> PATH...
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path, unsigned long *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *n = realloc(buf, cap * 2);
            if (!n) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = n;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) return -1;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    (*count)++;
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Inputs are kept at most a few levels deep (corpus/<format>/<set>/). */
static int replay_path(const char *path, int depth, unsigned long *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: cannot stat %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) return replay_file(path, count);
    if (depth > 8) return 0;
    struct dirent **list;
    int n = scandir(path, &list, NULL, by_name);
    if (n < 0) return -1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        size_t len = strlen(name);
        int notes = len > 3 && strcmp(name + len - 3, ".md") == 0; /* folder READMEs */
        if (name[0] != '.' && !notes && rc == 0) {
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, name);
            rc = replay_path(sub, depth + 1, count);
        }
        free(list[i]);
    }
    free(list);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long count = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (replay_path(argv[i], 0, &count) != 0) rc = 1;
    printf("replayed %lu inputs\n", count);
    return rc;
}
