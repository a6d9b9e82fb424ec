/* nlm checks: each test breaks one rule and asserts exact code, count, offset. */
#include <criterion/criterion.h>

#include "support.h"
