/* util_check.c: see util_check.h. */
#include "util_check.h"

#include <stdlib.h>

int run_suite(Suite *s, enum print_output mode)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, mode);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
