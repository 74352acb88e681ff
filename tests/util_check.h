/* util_check.h: running a Check suite the same way in every test binary. */
#ifndef TILEOPS_TEST_UTIL_CHECK_H
#define TILEOPS_TEST_UTIL_CHECK_H

#include <check.h>

/* Runs every case of s, prints Check's report and returns the exit status for main. */
int run_suite(Suite *s, enum print_output mode);

#endif
