/* modelcheck inspect (inspect.c): the subcommand's entry, argv[0] being
 * "inspect". */
#ifndef MC_CLI_INSPECT_H
#define MC_CLI_INSPECT_H

int mc_inspect_main(int argc, char **argv);

#endif
