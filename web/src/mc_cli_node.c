/*
 * What the command line (cli/, compiled for Node: the npm package's bin)
 * takes from the platform instead of the native build's libraries: SHA-256
 * from node:crypto (no OpenSSL), its streams as the native system calls
 * behave, and an answer for the two subcommands that
 * run other programs in a sandbox (fork, bubblewrap), which Node's
 * WebAssembly cannot do.
 */
#include <stdio.h>
#include <stdint.h>
#include <unistd.h>

#include <emscripten/emscripten.h>

#include "certify.h"
#include "fuzz.h"
#include "mc_validate.h"

/* node:crypto reads the bytes where they are in the module's memory. */
EM_JS(int, node_sha256, (const uint8_t *data, size_t size, unsigned char *out), {
    var d = require('crypto').createHash('sha256').update(HEAPU8.subarray(data >>> 0, (data >>> 0) + (size >>> 0))).digest();
    HEAPU8.set(d, out >>> 0);
    return 0;
})

int mc_platform_sha256(const uint8_t *data, size_t size, unsigned char out[32])
{
    return node_sha256(data, size, out);
}

/* Node's raw file system (NODERAWFS) as emscripten 3.1.6 sets it up, made
 * to behave as the native command's system calls, before main() runs:
 * - it takes standard input, output and error for terminals whatever they
 *   are: isatty() would colour a report written to a file (--color auto)
 *   and stdio would flush it line by line. They are what Node says.
 *   Standard output not a terminal is then fully buffered from its first
 *   byte, as glibc's is (musl's writes its first line at once), so that a
 *   write that fails (a full disk) fails again at the final flush and its
 *   error is the one the native command names;
 * - it reads every file it opens at an offset (pread), which a pipe
 *   refuses (ESPIPE): a configuration or a baseline given as <(...) could
 *   not be read. What is not a regular file is read in sequence. */
EM_JS(void, node_streams, (void), {
    var tty = require('tty'), fs = require('fs');
    for (var fd = 0; fd < 3; fd++) FS.streams[fd].tty = tty.isatty(fd);
    var open = FS.open;
    FS.open = function() {
        var stream = open.apply(this, arguments);
        if (stream.nfd !== undefined && !fs.fstatSync(stream.nfd).isFile()) stream.seekable = false;
        return stream;
    };
})

__attribute__((constructor)) static void node_as_native(void)
{
    node_streams();
    if (!isatty(STDOUT_FILENO)) setvbuf(stdout, NULL, _IOFBF, 0);
}

static int native_only(const char *sub)
{
    fprintf(stderr, "modelcheck %s: needs the native build (it runs loaders in a sandbox, which "
                    "WebAssembly cannot): build modelcheck from source (README, \"Build\")\n", sub);
    return 2;
}

int mcc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    return native_only("certify");
}

int mcc_fuzz_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    return native_only("fuzz");
}
