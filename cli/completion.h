/* Shell completions (bash, zsh, fish) of the command, generated from its
 * option table (`modelcheck --completion SHELL`; the build installs them). */
#ifndef MCC_COMPLETION_H
#define MCC_COMPLETION_H

#include <stdio.h>

typedef struct mcc_completion_opt {
    const char *name;   /* long name, without "--" */
    int short_name;     /* its letter, or 0 */
    int takes_value;
    const char *values; /* the words it takes; "@file", "@code"; NULL: any */
    const char *what;   /* one line of --help, or "" */
} mcc_completion_opt;

/* Writes the completion script of shell ("bash", "zsh" or "fish") for the
 * options and the subcommands (space-separated; `explain` completes issue
 * codes, the others files). 0; -1 for an unknown shell. */
int mcc_completion_write(FILE *out, const char *shell, const mcc_completion_opt *opts, size_t count,
                         const char *subcommands);

#endif
