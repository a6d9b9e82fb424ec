/* Where the installed data (corpus, schemas) and documents are: beside the command, never a
 * path compiled in from the source or build tree. */
#ifndef MCC_DATADIR_H
#define MCC_DATADIR_H

#include <stddef.h>

/* Writes <directory of the running binary>/MCC_DATA_FROM_BIN/name to buf
 * (e.g. /usr/bin/../share/modelcheck/corpus); 0, or -1 when the binary's
 * place is unknown or buf is too small. In the build tree the binary is in
 * build/<preset>/cli, and build/<preset>/share/modelcheck/corpus links to
 * the source corpus (packaging/CMakeLists.txt). */
int mcc_data_path(const char *name, char *buf, size_t size);

/* The same for the documentation directory (share/doc/modelcheck, where
 * docs/ is installed as docs/: the README's links hold there too; in the
 * build tree share/doc/modelcheck/docs links to the source docs/). */
int mcc_doc_path(const char *name, char *buf, size_t size);

#endif
