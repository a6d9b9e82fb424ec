/* The SEMODEL reference loader (conformance/loaders/semodel.c): what it builds from
 * valid files, and the status it rejects hostile ones with. */
#include <criterion/criterion.h>

#include "mcl.h"

Test(loader_semodel, empty_file_rejected)
{
    mcl_model *m = NULL;
    mcl_error err;
    cr_assert_neq(mcl_load(MCL_FORMAT_SEMODEL, "", 0, NULL, &m, &err), MCL_OK);
    cr_assert_null(m);
    cr_assert_neq(err.reason[0], '\0');
}
