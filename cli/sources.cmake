# The command's sources: cli/CMakeLists.txt builds them into `modelcheck`,
# web/CMakeLists.txt compiles them for Node as the npm package's bin (less
# certify.c and fuzz.c, which run other programs in a sandbox).
set(MC_CLI_SOURCES main.c baseline.c fix.c inspect.c walk.c jobs.c certify.c fuzz.c config.c codename.c
    completion.c datadir.c cliutil.c outputs.c)
