/* check.c: turns failed CUDA and tileops calls into one-line messages on stderr. Helpers
 * report and return; only main() decides the exit status. */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

tileops_status bench_use_tier(tileops_handle h, const struct bench_opts *o, tileops_tier tier,
                              const char *kernel)
{
    tileops_status st = tileops_set_tier(h, tier);
    if (st == TILEOPS_SUCCESS && kernel)
        st = tileops_set_kernel(h, kernel);
    if (st == TILEOPS_SUCCESS)
        st = tileops_set_dry_run(h, o->list_kernels);
    return st;
}

const char *const *bench_row_kernels(const struct bench_ctx *ctx, tileops_tier tier, int *n)
{
    static const char *list[BENCH_MAX_KERNELS + 1];
    const struct bench_opts *o = ctx->opts;
    ctx->timer->best_us = 0.0; /* a new case: --prune compares within it */
    *n = 1;
    list[0] = NULL;
    if (o->nkernels && !o->list_kernels) {
        *n = o->nkernels;
        return o->kernels;
    }
    if (!o->list_kernels)
        return list;
    tileops_handle h;
    if (!bench_tileops_ok(tileops_create(&h, ctx->device), "tileops_create"))
        return NULL;
    /* instance names start tileops_<spec>_ and every spec serving an operator is named after
     * it (gemm_wgmma serves gemm): a cheap first cut before each one's dry run */
    char prefix[64];
    snprintf(prefix, sizeof prefix, "tileops_%s", ctx->op_prefix);
    if (tileops_set_tier(h, tier) == TILEOPS_SUCCESS) /* else the row's note says why */
        for (int i = 0; *n <= BENCH_MAX_KERNELS && tileops_kernel_name(h, i); i++)
            if (strncmp(tileops_kernel_name(h, i), prefix, strlen(prefix)) == 0)
                list[(*n)++] = tileops_kernel_name(h, i);
    tileops_destroy(h);
    return list;
}

int bench_print_choice(tileops_handle h, const char *kernel)
{
    printf("%s %s\n", kernel ? "candidate" : "auto", tileops_last_kernel(h));
    return fflush(stdout) == 0 ? 0 : -1;
}

int bench_print_measured(tileops_handle h, const struct bench_stats *s)
{
    printf("measured %s %.3f %.3f\n", tileops_last_kernel(h), s->median_us, s->noise_us);
    return fflush(stdout) == 0 ? 0 : -1;
}

int bench_print_wrong(tileops_handle h)
{
    printf("wrong %s\n", tileops_last_kernel(h));
    return fflush(stdout) == 0 ? 0 : -1;
}

/* A handle on `tier` that dispatches by the cost model alone, or NULL (message printed). */
static tileops_handle untuned_handle(const struct bench_ctx *ctx, tileops_tier tier)
{
    /* the table is chosen when a handle is created: switch tables off for this one only */
    const char *was = getenv("TILEOPS_TUNED");
    char keep[32] = "";
    if (was)
        snprintf(keep, sizeof keep, "%s", was);
    setenv("TILEOPS_TUNED", "0", 1);
    tileops_handle h = NULL;
    tileops_status st = tileops_create(&h, ctx->device);
    if (was)
        setenv("TILEOPS_TUNED", keep, 1);
    else
        unsetenv("TILEOPS_TUNED");
    if (!bench_tileops_ok(st, "tileops_create"))
        return NULL;
    if (!bench_tileops_ok(tileops_set_tier(h, tier), "tileops_set_tier")) {
        tileops_destroy(h);
        return NULL;
    }
    return h;
}

int bench_time_untuned(const struct bench_ctx *ctx, tileops_handle *h, void **ws,
                       size_t *ws_bytes, bench_ws_query_fn query, bench_op_fn run, void *arg,
                       struct bench_stats *st)
{
    tileops_handle u = untuned_handle(ctx, tileops_get_tier(*h)), keep = *h;
    void *uws = NULL, *keep_ws = ws ? *ws : NULL;
    size_t bytes = 0, keep_bytes = ws_bytes ? *ws_bytes : 0;
    int rc = -1;
    if (u && (!query || bench_tileops_ok(query(u, arg, &bytes), "workspace size")) &&
        (!bytes || bench_cuda_ok(cudaMalloc(&uws, bytes), "cudaMalloc (workspace)"))) {
        *h = u;
        if (ws)
            *ws = uws, *ws_bytes = bytes;
        rc = bench_timer_run(ctx->timer, ctx->opts->reps, run, arg, st);
        *h = keep;
        if (ws)
            *ws = keep_ws, *ws_bytes = keep_bytes;
    }
    if (uws)
        cudaFree(uws);
    tileops_destroy(u);
    return rc;
}

void bench_tuned_columns(tileops_handle h, double median_us, const struct bench_stats *untuned,
                         char tuned[8], char us[24], char gain[24])
{
    snprintf(tuned, 8, "%s", tileops_last_kernel_tuned(h) ? "yes" : "no");
    snprintf(us, 24, untuned ? "%.2f" : "-", untuned ? untuned->median_us : 0.0);
    snprintf(gain, 24, untuned ? "%.3f" : "-",
             untuned && median_us > 0 ? untuned->median_us / median_us : 0.0);
}
