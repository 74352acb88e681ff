/* util_ref.h: fp64 CPU references that the test suites and tileops-bench share. */
#ifndef TILEOPS_TEST_UTIL_REF_H
#define TILEOPS_TEST_UTIL_REF_H

#include <stddef.h>
#include <stdint.h>

#include "tileops.h"

/* Checks one row y = softmax(x) (log: log_softmax) of `cols` elements of dtype against fp64.
 * Plain: relative error within one rounding to dtype plus 2e-5 (fp32 arithmetic); log:
 * absolute error within 1e-5 times the magnitudes involved. -inf entries must give exactly
 * 0 (log: -inf); a row with a NaN or of only -inf must be all NaN. Returns 0, or -1 with
 * the first wrong element described in msg. */
int ref_softmax_row(tileops_dtype dt, tileops_softmax_mode mode, const void *x, const void *y,
                    int64_t cols, char *msg, size_t len);

#endif
