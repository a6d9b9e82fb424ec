/* libaem @42bd501's animation.c, compiled unmodified from the snapshot (found
 * on the include path, see scripts/refimpls.sh). Its animation_mixer.h names
 * `struct AEMModel` inside prototypes before any declaration of it, which C
 * scopes to each prototype (conflicting types): declared here first. */
struct AEMModel;
#include "animation.c"
