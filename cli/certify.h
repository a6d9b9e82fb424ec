/* `modelcheck certify`, the subcommand (certify.c), on top of conformance/certify. */
#ifndef MC_CLI_CERTIFY_H
#define MC_CLI_CERTIFY_H

/* `modelcheck certify ARGS` (argv[0] is "certify"). Exit codes: 0 every case
 * conforming, 1 some case not, 2 usage, bad corpus or loader not startable. */
int mcc_main(int argc, char **argv);

#endif
