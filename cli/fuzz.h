/* `modelcheck fuzz`, the subcommand (fuzz.c): a black-box, structure-aware
 * campaign against a loader command, run through certify's runner. */
#ifndef MC_CLI_FUZZ_H
#define MC_CLI_FUZZ_H

/* `modelcheck fuzz ARGS` (argv[0] is "fuzz"). Exit codes: 0 no finding,
 * 1 findings (sites), 2 usage, bad corpus or findings directory, the loader
 * cannot be run, 4 a report could not be written completely. */
int mcc_fuzz_main(int argc, char **argv);

#endif
