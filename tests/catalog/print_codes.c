/* Prints "NAME NUMBER" for every issue code of the library as compiled, in
 * number order (ctest code_numbers compares it with code_numbers.txt). */
#include <stdio.h>

#include "modelcheck.h"

int main(void)
{
    for (int i = 0; i < MC_CODE_COUNT; i++) {
        const mc_code_info *ci = mc_code_get((mc_code)i);
        if (!ci || !ci->name) return 1;
        printf("%s %d\n", ci->name, i);
    }
    return 0;
}
