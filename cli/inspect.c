/*
 * modelcheck inspect [options] FILE...: what is inside a file (the tree
 * mc_inspect builds from the format module's one walk), and the bytes at
 * an offset (--at). Exit codes as validation's: 0 every file inspected and
 * valid, 1 some file invalid, 2 usage, 3 some file unreadable, 4 output.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliutil.h"
#include "inspect.h"
#include "mc_file.h"
#include "mc_report.h"
#include "modelcheck.h"
#include "outputs.h"

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_UNREADABLE = 3 };

typedef struct inspect_cli {
    mc_options opt;
    int json;
    const char **at;           /* every --at, in order */
    size_t at_count;
    const char *extract;       /* --extract-block PATH, or NULL */
    const char *extract_out;   /* -O FILE */
    int first_json;
} inspect_cli;

static const char inspect_usage[] =
    "usage: modelcheck inspect [options] FILE...\n"
    "Shows what is inside each file: format and layout, the section map (E3D: the\n"
    "block tree with each LZMA block's packed and unpacked size), meshes, materials,\n"
    "textures, the skeleton as a tree, animations. Invalid files are shown as far as\n"
    "their structure can be followed, with the first error.\n"
    "\n"
    "  -o, --output KIND         text (default) or json (reports/schema/inspect.schema.json)\n"
    "  -f, --format FMT          read as FMT instead of detecting\n"
    "      --at OFFSET           the path, field, type and value at a byte (decimal or\n"
    "                            0x hex), with the record as annotated hex (repeat it\n"
    "                            for several bytes of one FILE); for a byte\n"
    "                            inside an E3D LZMA block BLOCK+OFFSET (e.g. 0xc+0x18e124,\n"
    "                            or lzma@0xc+0x18e124): BLOCK is the block's file offset\n"
    "      --extract-block OFF   write the decoded bytes of the LZMA block at file offset\n"
    "                            OFF (or its path, /lzma@0xc) to the file given by -O\n"
    "  -O, --out FILE            where --extract-block writes\n"
    "  -h, --help                this text\n";

/* "PROG: message" and a line naming --help (cliutil.c's one writer) */
#define usage_error(msg) mc_cli_complain("modelcheck inspect", "\ntry 'modelcheck inspect --help'", "%s", msg)

static int extract(mc_inspect *in, const char *name, const char *block, const char *dest)
{
    if (!dest) return usage_error("--extract-block needs -O FILE");
    char spec[80];
    snprintf(spec, sizeof spec, "%s+0", block);
    uint32_t space;
    uint64_t off;
    if (mc_inspect_parse_at(in, spec, &space, &off) != 0 || space == 0) {
        fprintf(stderr, "modelcheck inspect: %s: no decoded LZMA block at %s\n", name, block);
        return EXIT_USAGE;
    }
    uint64_t size = 0;
    const uint8_t *bytes = mc_inspect_space(in, space, &size, NULL);
    mc_output out;
    if (mc_output_open(&out, dest) != 0) {
        fprintf(stderr, "modelcheck inspect: cannot write %s: %s\n", dest, strerror(errno));
        return EXIT_UNREADABLE;
    }
    fwrite(bytes, 1, (size_t)size, out.f);
    if (mc_output_commit(&out, "modelcheck inspect", dest) != 0) return MC_EXIT_OUTPUT;
    fprintf(stderr, "modelcheck inspect: wrote %" PRIu64 " decoded bytes to %s\n", size, dest);
    return EXIT_VALID;
}

static int inspect_one(inspect_cli *c, const char *name)
{
    /* the file stays open (mapped or in memory) while it is inspected:
     * the report's offsets and byte dumps point into it */
    mc_file_bytes file;
    uint64_t limit = c->opt.max_file_bytes ? c->opt.max_file_bytes : UINT64_C(4) << 30;
    int err = mc_file_bytes_open(name, limit, &file);
    if (err) {
        /* a FIFO or a device is refused as validation refuses it */
        char *q = mc_text_quote(name);
        if (err == MC_FILE_NOT_REGULAR)
            fprintf(stderr, "modelcheck inspect: %s: cannot inspect %s: not a regular file\n", q ? q : "?", file.kind);
        else
            fprintf(stderr, "modelcheck inspect: %s: %s\n", q ? q : "?", strerror(err));
        free(q);
        return EXIT_UNREADABLE;
    }
    mc_inspect *in = NULL;
    mc_status st = mc_inspect_memory(file.data, file.size, &c->opt, &in);
    int rc;
    if (st != MC_OK) {
        fprintf(stderr, "modelcheck inspect: %s\n", mc_strerror(st));
        rc = EXIT_UNREADABLE;
    } else if (c->at_count) {
        rc = EXIT_VALID;
        for (size_t i = 0; i < c->at_count && rc == EXIT_VALID; i++)
            rc = mc_inspect_report_at(stdout, stderr, in, name, c->at[i]);
    } else if (c->extract) {
        rc = extract(in, name, c->extract, c->extract_out);
    } else {
        if (c->json) {
            if (mc_inspect_report_json(stdout, in, name, c->first_json) != 0) fputs("null", stdout);
            c->first_json = 0;
        } else {
            mc_inspect_report_text(stdout, in, name);
        }
        rc = mc_result_valid(mc_inspect_result(in)) ? EXIT_VALID : EXIT_INVALID;
    }
    mc_inspect_free(in);
    if (mc_file_bytes_close(&file)) {
        char *q = mc_text_quote(name);
        fprintf(stderr, "modelcheck inspect: %s: file cut short while it was being read\n", q ? q : "?");
        free(q);
        rc = EXIT_UNREADABLE;
    }
    return rc;
}

static int inspect_files(inspect_cli *c, int n, char **files);

int mc_inspect_main(int argc, char **argv)
{
    inspect_cli c;
    memset(&c, 0, sizeof c);
    mc_options_init(&c.opt);
    c.first_json = 1;
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'}, {"format", required_argument, NULL, 'f'},
        {"at", required_argument, NULL, 'a'},     {"extract-block", required_argument, NULL, 'x'},
        {"out", required_argument, NULL, 'O'},    {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int ch, before;
    char refused[160];
    optind = 1;
    opterr = 0;
    while ((before = optind, ch = getopt_long(argc, argv, ":o:f:O:h", longs, NULL)) != -1) {
        switch (ch) {
        case 'o':
            if (strcmp(optarg, "json") == 0) c.json = 1;
            else if (strcmp(optarg, "text") == 0) c.json = 0;
            else return usage_error("--output is text or json");
            break;
        case 'f': {
            int f = mc_format_parse(optarg);
            if (f <= 0) return usage_error("unknown --format");
            c.opt.format = (mc_format)f;
            break;
        }
        case 'a': {
            const char **n = realloc(c.at, (c.at_count + 1) * sizeof *n);
            if (!n) {
                free(c.at);
                fputs("modelcheck inspect: out of memory\n", stderr);
                return EXIT_UNREADABLE;
            }
            c.at = n;
            c.at[c.at_count++] = optarg;
            break;
        }
        case 'x': c.extract = optarg; break;
        case 'O': c.extract_out = optarg; break;
        case 'h': free(c.at); fputs(inspect_usage, stdout); return EXIT_VALID;
        default:
            free(c.at);
            return usage_error(mc_cli_refusal(argv, ch, before, refused, sizeof refused));
        }
    }
    int rc = inspect_files(&c, argc - optind, argv + optind);
    free(c.at);
    return rc;
}

static int inspect_files(inspect_cli *c, int n, char **files)
{
    if (n < 1) return usage_error("no FILE");
    if ((c->at_count || c->extract) && n != 1)
        return usage_error("--at and --extract-block take one FILE");
    /* -O is checked before FILE is read: a regular file (or a new one) that
     * is not FILE itself */
    if (c->extract && c->extract_out && mc_output_check_input("modelcheck inspect", c->extract_out, files[0]) != 0)
        return EXIT_USAGE;
    int rc = EXIT_VALID;
    int document = c->json && !c->at_count && !c->extract;
    if (document)
        mc_inspect_report_begin(stdout);
    for (int i = 0; i < n; i++) {
        int r = inspect_one(c, files[i]);
        if (r > rc) rc = r;
    }
    if (document) mc_inspect_report_end(stdout);
    return rc;
}
