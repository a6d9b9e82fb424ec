#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"

#ifndef MCC_DATA_FROM_BIN
#define MCC_DATA_FROM_BIN "../share/modelcheck"
#endif
#ifndef MCC_DOC_FROM_BIN
#define MCC_DOC_FROM_BIN "../share/doc/modelcheck"
#endif

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
/* The npm package's command (web/): the path of its script, beside which
 * the package keeps its data (/proc/self/exe would name node itself),
 * with / between its names on Windows too.
 * The length written, or -1 when it does not fit. */
EM_JS(int, self_path, (char *buf, int size), {
    var p = __filename.split(String.fromCharCode(92)).join("/"); /* Windows: Node takes C:/x too */
    var n = lengthBytesUTF8(p);
    if (n >= size) return -1;
    stringToUTF8(p, buf, size);
    return n;
})
#else
static int self_path(char *buf, int size)
{
    ssize_t n = readlink("/proc/self/exe", buf, (size_t)size - 1);
    return n > 0 && n < size - 1 ? (int)n : -1;
}
#endif

/* <directory of the running binary>/rel/name into buf. */
static int beside_binary(const char *rel, const char *name, char *buf, size_t size)
{
    if (size < 2 || size > INT_MAX) return -1;
    int n = self_path(buf, (int)size);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash) return -1;
    *slash = '\0';
    size_t used = (size_t)(slash - buf);
    int w = snprintf(buf + used, size - used, "/%s/%s", rel, name);
    if (w < 0 || (size_t)w >= size - used) return -1;
    /* /usr/share/modelcheck/corpus rather than /usr/bin/../share/...; as it
     * is when it does not exist (the error then names the place looked at) */
    char *real = realpath(buf, NULL);
    if (real && strlen(real) < size) strcpy(buf, real);
    free(real);
    return 0;
}

int mcc_data_path(const char *name, char *buf, size_t size)
{
    return beside_binary(MCC_DATA_FROM_BIN, name, buf, size);
}

int mcc_doc_path(const char *name, char *buf, size_t size)
{
    return beside_binary(MCC_DOC_FROM_BIN, name, buf, size);
}
