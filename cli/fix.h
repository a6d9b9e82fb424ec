/* modelcheck fix (fix.c): the subcommand's entry, argv[0] being "fix". */
#ifndef MC_CLI_FIX_H
#define MC_CLI_FIX_H

int mc_fix_main(int argc, char **argv);

#endif
