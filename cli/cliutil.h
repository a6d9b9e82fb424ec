/* What main.c and certify.c share: naming a refused option, and making sure
 * output that cannot be written is never mistaken for a report. */
#ifndef MC_CLI_UTIL_H
#define MC_CLI_UTIL_H

#include <stddef.h>

/* The option getopt_long just refused (call it for ':' with missing_value 1,
 * for '?' with 0), written into buf: "-Z", "--bogus". */
const char *mc_cli_bad_option(char **argv, int missing_value, char *buf, size_t size);

#endif
