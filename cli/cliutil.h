/* What main.c and certify.c share: naming a refused option, and making sure
 * output that cannot be written is never mistaken for a report. */
#ifndef MC_CLI_UTIL_H
#define MC_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Why getopt_long just refused an option (ch is what it returned, ':' or
 * '?'; optind_before is optind before that call), written into buf:
 * "unknown option '-Z'", "option '--format' needs a value", "option
 * '--quiet' takes no value". Options are named as typed, "=value" left out. */
const char *mc_cli_refusal(char **argv, int ch, int optind_before, char *buf, size_t size);

/* Exit code when some output (standard output, a report file) could not be
 * written completely: above every other, so a CI job never takes a partial
 * report for a report (README, "Exit codes"). */
enum { MC_EXIT_OUTPUT = 4 };

/* Exit code of a usage error: unknown option, bad value, an output that is
 * an input (README, "Exit codes"). */
enum { MC_EXIT_USAGE = 2 };

/* One line on stderr, "PROG: message TAIL" (tail: "" or a hint such as
 * " (try --help)"), and MC_EXIT_USAGE: every subcommand's usage errors and
 * refusals read alike. */
__attribute__((format(printf, 3, 4)))
int mc_cli_complain(const char *prog, const char *tail, const char *fmt, ...);

/* Puts /dev/null, opened in the other direction, on whichever of descriptors
 * 0, 1 and 2 is closed: files opened later cannot take their numbers (report
 * text would land in them), and reading a closed standard input or writing a
 * closed standard output still fails (EBADF). */
void mc_cli_hold_std_fds(void);

/* A size in bytes, or with a binary suffix K, M, G or T (512M is 512
 * MiB), into out: 0, or -1 when it is no such number or past 64 bits. */
int mc_cli_size(const char *s, uint64_t *out);

/* Flushes f and, unless it is stdout, closes it. 0 when everything written
 * to it arrived; otherwise one line "PROG: cannot write NAME: reason" on
 * stderr and -1. */
int mc_cli_finish_output(FILE *f, const char *prog, const char *name);

#endif
