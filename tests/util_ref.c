/* util_ref.c: see util_ref.h. */
#include "util_ref.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "util_host.h"

int ref_softmax_row(tileops_dtype dt, tileops_softmax_mode mode, const void *x, const void *y,
                    int64_t cols, char *msg, size_t len)
{
    double m = -INFINITY, s = 0;
    int nan = 0;
    for (int64_t j = 0; j < cols; j++) {
        const double v = get_elem(x, dt, (size_t)j);
        nan |= isnan(v);
        m = v > m ? v : m;
    }
    for (int64_t j = 0; j < cols && m > -INFINITY; j++)
        s += exp(get_elem(x, dt, (size_t)j) - m);
    const double logs = log(s);
    const double rel = dtype_rel_bound(dt) + 2e-5, tiny = dtype_abs_bound(dt);
    for (int64_t j = 0; j < cols; j++) {
        const double v = get_elem(x, dt, (size_t)j), got = get_elem(y, dt, (size_t)j);
        if (nan || m == -INFINITY) {
            if (isnan(got))
                continue;
            snprintf(msg, len, "y[%" PRId64 "] = %g, expected NaN (the row %s)", j, got,
                     nan ? "has a NaN" : "is all -inf");
            return -1;
        }
        double ref, tol;
        if (mode == TILEOPS_SOFTMAX_PLAIN) {
            ref = exp(v - m) / s;
            tol = rel * ref + tiny;
        } else {
            ref = (v - m) - logs;
            tol = dtype_rel_bound(dt) * fabs(ref) + 1e-5 * (1 + fabs(v - m) + fabs(logs));
        }
        const int ok = v == -INFINITY ? got == (mode == TILEOPS_SOFTMAX_PLAIN ? 0 : -INFINITY)
                                      : fabs(got - ref) <= tol;
        if (!ok) {
            snprintf(msg, len, "y[%" PRId64 "] = %.9g, reference %.9g (x %.9g, row max %.9g)",
                     j, got, ref, v, m);
            return -1;
        }
    }
    return 0;
}
