/* check.c: turns failed CUDA and tileops calls into one-line messages on stderr. Helpers
 * report and return; only main() decides the exit status. */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>

void bench_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tileops-bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int bench_cuda_ok(cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return 1;
    bench_error("%s: %s (%s)", what, cudaGetErrorString(err), cudaGetErrorName(err));
    return 0;
}

int bench_tileops_ok(tileops_status st, const char *what)
{
    if (st == TILEOPS_SUCCESS)
        return 1;
    /* The detail message already starts with the failing function's name and says which
     * argument or CUDA call was at fault; `what` and the status string are the fallback if
     * a call failed without recording one. */
    const char *detail = tileops_last_error();
    if (*detail)
        bench_error("%s", detail);
    else
        bench_error("%s: %s", what, tileops_status_string(st));
    return 0;
}

tileops_status bench_use_tier(tileops_handle h, const struct bench_opts *o, tileops_tier tier)
{
    tileops_status st = tileops_set_tier(h, tier);
    if (st == TILEOPS_SUCCESS && o->kernel)
        st = tileops_set_kernel(h, o->kernel);
    return st;
}
