/*
 * What every command that writes a file shares (inspect -O, certify's
 * reports, --write-baseline): an output never replaces one of the command's
 * own inputs, and it is written whole or not at all (docs: README, "Files
 * modelcheck writes").
 */
#ifndef MC_OUTPUTS_H
#define MC_OUTPUTS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* A file a command reads, known by device and inode: names compare nothing
 * (a hard link, a symbolic link, ./x and x are one file). */
typedef struct mc_input_file {
    dev_t dev;
    ino_t ino;
    char *name; /* as the command was given it, for the refusal */
} mc_input_file;

typedef struct mc_inputs {
    mc_input_file *files;
    size_t count, cap;
} mc_inputs;

/* Adds path ("-": standard input) when it is a regular file; anything else
 * (missing, a directory, a device) has no content to overwrite. 0, or -1
 * when out of memory. */
int mc_inputs_add(mc_inputs *in, const char *path);
void mc_inputs_free(mc_inputs *in);

/* 1 when a and b both exist and are one file (device and inode), else 0. */
int mc_same_file(const char *a, const char *b);

enum {
    MC_OUTPUT_FILE = 0,  /* a regular file, or a path not there yet */
    MC_OUTPUT_STREAM = 1 /* also a FIFO or a character device (/dev/null, a
                          * shell's >(cmd)), written in place */
};

/* 0 when out may be written: it is none of in's files and, when it exists,
 * a regular file (or, with MC_OUTPUT_STREAM, a FIFO or a character device).
 * Otherwise one line on stderr, "PROG: refusing to write OUT: it is the
 * input IN" or "...: it is a directory", and -1. in may be NULL. */
int mc_output_check(const mc_inputs *in, const char *prog, const char *out, int flags);

/* mc_output_check of a regular-file output against one input (a command
 * that reads one FILE and writes one file): 0, or -1 with its line on
 * stderr (also "PROG: out of memory"). */
int mc_output_check_input(const char *prog, const char *out, const char *input);

/* An output being written: to a temporary file beside its destination,
 * renamed over it once complete, so a failed write leaves no half file. */
typedef struct mc_output {
    FILE *f;
    char *tmp;  /* the temporary; NULL: a stream, written in place */
    char *dest; /* what it replaces: out, or the file a symbolic link leads to */
} mc_output;

/* Starts writing out: a new temporary in the destination's directory, its
 * name starting with '.' (a directory walk passes it by), with the mode of
 * the file it replaces (a new one: 0666 less the umask); a FIFO, a
 * character device or an existing path under /dev or /proc (/dev/stdout)
 * is opened as it is. 0, or -1 with errno set. */
int mc_output_open(mc_output *o, const char *out);
/* Finishes o->f (mc_cli_finish_output) and moves the temporary over the
 * destination. 0; or -1 with one line on stderr, the temporary removed and
 * the destination as it was. name: the output as shown. */
int mc_output_commit(mc_output *o, const char *prog, const char *name);
/* Gives up: closes and removes the temporary. */
void mc_output_abort(mc_output *o);

#endif
