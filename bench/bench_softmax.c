/* bench_softmax.c: tileops_softmax against a device-to-device copy of the same bytes.
 *
 * Softmax is memory-bound: it reads x once and writes y once, 2 * rows * cols * elem bytes
 * (more only when a row is too long for the device to hold: then x is read twice, and the
 * row's bytes are still counted once). The roofline is a copy of rows * cols * elem bytes,
 * which moves as many, timed in the same run under the same L2 flushing; each row reports
 * both bandwidths and their ratio. */
#include "bench.h"
#include "copy.h"
#include "data.h"
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/util_ref.h"

static const struct report_col columns[] = {
    {"op", 7, 0},           {"mode", 5, 0},     {"dtype", 5, 0},      {"tier", 4, 0},
    {"rows", 6, 1},         {"cols", 8, 1},     {"offset", 6, 1},     {"kernel", 52, 0},
    {"median_us", 10, 1},
    {"softmax_gbps", 12, 1}, {"copy_gbps", 9, 1}, {"ratio", 6, 1},
    BENCH_TUNED_COLUMNS,
};
#define NCOLS ((int)(sizeof columns / sizeof columns[0]))

/* The shapes: attention-sized rows, vocabularies (two of odd length: their rows
 * start anywhere in a vector), and a few very long rows. */
static const int64_t default_shapes[][2] = {
    {4096, 4096},   {32768, 4096}, {8192, 32000}, {4096, 128256},
    {65536, 1024},  {4, 1048576},  {4096, 32001}, {2048, 100003},
};

/* One timed call. */
struct softmax_call {
    tileops_handle h;
    tileops_dtype dtype;
    tileops_softmax_mode mode;
    int64_t rows, cols;
    void *x, *y, *ws; /* x and y `offset` elements into their allocations */
    size_t ws_bytes;
};

/* bench_op_fn: one tileops_softmax. */
static int run_softmax(void *arg, cudaStream_t stream)
{
    const struct softmax_call *c = arg;
    tileops_status st = tileops_softmax(c->h, c->dtype, c->mode, c->rows, c->cols, c->x,
                                        c->cols, c->y, c->cols, c->ws, c->ws_bytes, stream);
    return bench_tileops_ok(st, "tileops_softmax") ? 0 : -1;
}

/* Checks rows 0 and rows - 1 of the first call's output against fp64 (tests/util_ref.h). */
static int check_rows(const struct softmax_call *c, const char *label)
{
    const size_t esz = bench_dtype_size(c->dtype), bytes = (size_t)c->cols * esz;
    char *hx = malloc(bytes), *hy = malloc(bytes), msg[256];
    int rc = hx && hy ? 0 : -1;
    if (rc)
        bench_error("softmax %s: out of host memory", label);
    const int64_t rows[2] = {0, c->rows - 1};
    for (int i = 0; i < 2 && rc == 0; i++) {
        const size_t off = (size_t)rows[i] * bytes;
        if (!bench_cuda_ok(cudaMemcpy(hx, (char *)c->x + off, bytes, cudaMemcpyDeviceToHost),
                           "cudaMemcpy (check x)") ||
            !bench_cuda_ok(cudaMemcpy(hy, (char *)c->y + off, bytes, cudaMemcpyDeviceToHost),
                           "cudaMemcpy (check y)")) {
            rc = -1;
        } else if (ref_softmax_row(c->dtype, c->mode, hx, hy, c->cols, msg, sizeof msg) != 0) {
            bench_error("softmax %s: wrong result in row %" PRId64 ": %s", label, rows[i], msg);
            rc = -1;
        }
    }
    free(hx);
    free(hy);
    return rc;
}

/* bench_ws_query_fn: the call's workspace on handle h. */
static tileops_status softmax_ws(tileops_handle h, void *arg, size_t *bytes)
{
    const struct softmax_call *c = arg;
    return tileops_softmax_workspace_size(h, c->dtype, c->mode, c->rows, c->cols, c->x, c->cols,
                                          c->y, c->cols, bytes);
}

/* One row of the report: a handle forced to `tier`, one checked call, then softmax and the
 * copy timed. Returns 0, 1 if the tier is not supported here (note printed), or -1. */
static int bench_row(const struct bench_ctx *ctx, struct report *rep, struct softmax_call *c,
                     const struct bench_copy *copy, tileops_tier tier, const char *kernel)
{
    const struct bench_opts *o = ctx->opts;
    char label[64];
    snprintf(label, sizeof label, "%s %s %" PRId64 "x%" PRId64, bench_dtype_name(c->dtype),
             bench_tier_name(tier), c->rows, c->cols);
    if (!bench_tileops_ok(tileops_create(&c->h, ctx->device), "tileops_create"))
        return -1;
    int rc = -1;
    c->ws = NULL;
    tileops_status st = bench_use_tier(c->h, o, tier, kernel);
    if (st == TILEOPS_SUCCESS)
        st = tileops_softmax_workspace_size(c->h, c->dtype, c->mode, c->rows, c->cols, c->x,
                                            c->cols, c->y, c->cols, &c->ws_bytes);
    if (st == TILEOPS_ERROR_NOT_SUPPORTED) {
        if (!o->list_kernels) /* most of a tier's kernels serve no given case */
            bench_error("note: softmax %s skipped: %s", label, tileops_last_error());
        rc = 1;
        goto out;
    }
    if (!bench_tileops_ok(st, "tileops_softmax_workspace_size") ||
        (c->ws_bytes && !bench_cuda_ok(cudaMalloc(&c->ws, c->ws_bytes), "cudaMalloc (workspace)")) ||
        /* poisoned (NaN), so that a kernel that skips rows cannot pass on the last one's */
        !bench_cuda_ok(cudaMemsetAsync(c->y, 0xff, (size_t)(c->rows * c->cols) *
                                       bench_dtype_size(c->dtype), ctx->stream),
                       "cudaMemsetAsync (poison y)") ||
        run_softmax(c, ctx->stream) != 0)
        goto out;
    if (o->list_kernels) {
        rc = bench_print_choice(c->h, kernel);
        goto out;
    }
    if (!bench_cuda_ok(cudaStreamSynchronize(ctx->stream), "softmax (first call)"))
        goto out;
    if (check_rows(c, label) != 0) {
        if (o->measure) /* tileops-tune rejects the kernel and goes on */
            rc = bench_print_wrong(c->h);
        goto out;
    }

    struct bench_stats sm_t, copy_t;
    if (bench_timer_run(ctx->timer, o->reps, run_softmax, c, &sm_t) != 0)
        goto out;
    if (o->measure) {
        rc = bench_print_measured(c->h, &sm_t);
        goto out;
    }
    if (bench_timer_run(ctx->timer, o->reps, bench_copy_run, (void *)copy, &copy_t) != 0)
        goto out;
    char s_tuned[8], s_uus[24], s_gain[24];
    struct bench_stats un_t;
    if (o->untuned && bench_time_untuned(ctx, &c->h, &c->ws, &c->ws_bytes, softmax_ws,
                                         run_softmax, c, &un_t) != 0)
        goto out;
    bench_tuned_columns(c->h, sm_t.median_us, o->untuned ? &un_t : NULL, s_tuned, s_uus, s_gain);
    const double moved = 2.0 * (double)copy->bytes;
    const double sm_bw = bench_gbps(moved, sm_t.median_us);
    const double copy_bw = bench_gbps(moved, copy_t.median_us);
    char s_rows[24], s_cols[24], s_off[24], s_med[24], s_sm[24], s_copy[24], s_ratio[24];
    snprintf(s_rows, sizeof s_rows, "%" PRId64, c->rows);
    snprintf(s_off, sizeof s_off, "%d", ctx->opts->offset);
    snprintf(s_cols, sizeof s_cols, "%" PRId64, c->cols);
    snprintf(s_med, sizeof s_med, "%.2f", sm_t.median_us);
    snprintf(s_sm, sizeof s_sm, "%.1f", sm_bw);
    snprintf(s_copy, sizeof s_copy, "%.1f", copy_bw);
    snprintf(s_ratio, sizeof s_ratio, "%.3f", copy_bw > 0 ? sm_bw / copy_bw : 0.0);
    const char *vals[NCOLS] = {"softmax", c->mode == TILEOPS_SOFTMAX_LOG ? "log" : "plain",
                               bench_dtype_name(c->dtype), bench_tier_name(tileops_get_tier(c->h)),
                               s_rows, s_cols, s_off, tileops_last_kernel(c->h), s_med, s_sm, s_copy,
                               s_ratio, s_tuned, s_uus, s_gain};
    rc = report_row(rep, vals);
out:
    if (c->ws)
        cudaFree(c->ws);
    tileops_destroy(c->h);
    return rc;
}

/* Every (dtype, shape, tier): x filled once per (dtype, shape), y and the copy beside it. */
int bench_softmax(const struct bench_ctx *ctx)
{
    const struct bench_opts *o = ctx->opts;
    int64_t shapes[8][2];
    int nshapes = 0;
    if (o->shape_dims == 3) {
        bench_error("softmax: --shape takes ROWSxCOLS");
        return -1;
    }
    if (o->shape_dims == 2) {
        shapes[0][0] = o->shape[0];
        shapes[0][1] = o->shape[1];
        nshapes = 1;
    } else {
        nshapes = (int)(sizeof default_shapes / sizeof default_shapes[0]);
        memcpy(shapes, default_shapes, sizeof default_shapes);
    }
    struct report rep;
    if (report_open(&rep, columns, NCOLS, o->csv) != 0)
        return -1;
    int rc = 0;
    for (int d = 0; d < o->ndtypes && rc == 0; d++) {
        for (int s = 0; s < nshapes && rc == 0; s++) {
            struct softmax_call c = {NULL, o->dtypes[d], o->log ? TILEOPS_SOFTMAX_LOG
                                                               : TILEOPS_SOFTMAX_PLAIN,
                                     shapes[s][0], shapes[s][1], NULL, NULL, NULL, 0};
            const size_t esz = bench_dtype_size(c.dtype), bytes = (size_t)(c.rows * c.cols) * esz;
            const size_t skip = (size_t)o->offset * esz; /* --offset: a view one or more in */
            char *xa = NULL, *ya = NULL;
            struct bench_copy copy;
            if (!bench_cuda_ok(cudaMalloc((void **)&xa, bytes + skip), "cudaMalloc (x)") ||
                !bench_cuda_ok(cudaMalloc((void **)&ya, bytes + skip), "cudaMalloc (y)") ||
                (c.x = xa + skip, c.y = ya + skip,
                 data_fill_random(c.x, c.dtype, c.rows * c.cols, 7, ctx->stream) != 0) ||
                bench_copy_alloc(&copy, bytes, ctx->stream) != 0) {
                rc = -1;
            } else {
                for (int t = 0; t < o->ntiers && rc == 0; t++) {
                    int nk;
                    const char *const *ks = bench_row_kernels(ctx, o->tiers[t], &nk);
                    for (int q = 0; q < nk && rc == 0; q++)
                        if (!ks || bench_row(ctx, &rep, &c, &copy, o->tiers[t], ks[q]) < 0)
                            rc = -1;
                }
                bench_copy_free(&copy);
            }
            if (xa)
                cudaFree(xa);
            if (ya)
                cudaFree(ya);
        }
    }
    if (report_close(&rep) != 0)
        rc = -1;
    return rc;
}
