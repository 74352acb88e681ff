/* bench_vector_add.c: tileops_vector_add against a device-to-device copy of the same bytes.
 *
 * Vector add is memory-bound: per element it reads a and b and writes c, 3 * n * elem bytes.
 * The best it can do is move those bytes as fast as cudaMemcpy moves them, so each row
 * reports the add's bandwidth, the bandwidth of a copy of 1.5 * n * elem bytes (which also
 * reads and writes 3 * n * elem in total), timed in the same run under the same L2 flushing,
 * and their ratio: near 1.0 means the kernel is at the copy roofline. */
#include "bench.h"
#include "copy.h"
#include "data.h"
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Elements read back and checked at each end of c: the vector body and the scalar tail. */
#define CHECK_ELEMS 1024

static const struct report_col columns[] = {
    {"op", 10, 0},        {"dtype", 5, 0},     {"tier", 4, 0},
    {"n", 10, 1},         {"kernel", 40, 0},   {"median_us", 10, 1},
    {"add_gbps", 9, 1},   {"copy_gbps", 9, 1}, {"ratio", 6, 1},
};
#define NCOLS ((int)(sizeof columns / sizeof columns[0]))

/* The device buffers of one dtype, shared by all of its tier rows. */
struct buffers {
    void *alloc[3];            /* what cudaMalloc gave for a, b and c */
    void *a, *b, *c;           /* n elements each, `offset` elements into their allocation */
    size_t bytes;              /* n * elem */
    struct bench_copy copy;    /* 1.5 * n * elem bytes (exact: elem is even) */
};

/* Arguments of one timed tileops_vector_add call. */
struct add_call {
    tileops_handle h;
    tileops_dtype dtype;
    int64_t n;
    const struct buffers *buf;
};

/* bench_op_fn: one tileops_vector_add. */
static int run_add(void *arg, cudaStream_t stream)
{
    const struct add_call *call = arg;
    tileops_status st = tileops_vector_add(call->h, call->dtype, call->n, call->buf->a,
                                           call->buf->b, call->buf->c, stream);
    return bench_tileops_ok(st, "tileops_vector_add") ? 0 : -1;
}

/* Frees whatever alloc_buffers allocated. */
static void free_buffers(struct buffers *buf)
{
    void *p[] = {buf->alloc[0], buf->alloc[1], buf->alloc[2]};
    bench_copy_free(&buf->copy);
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (p[i])
            cudaFree(p[i]);
    memset(buf, 0, sizeof *buf);
}

/* Allocates the buffers for n elements of dtype and fills a and b with random values.
 * cudaMalloc's 256-byte alignment puts every call on the library's vectorized path unless
 * `offset` moves the operands off it. */
static int alloc_buffers(struct buffers *buf, tileops_dtype dtype, int64_t n, int offset,
                         cudaStream_t stream)
{
    memset(buf, 0, sizeof *buf);
    const size_t elem = bench_dtype_size(dtype), skip = (size_t)offset * elem;
    buf->bytes = (size_t)n * elem;
    if (!bench_cuda_ok(cudaMalloc(&buf->alloc[0], buf->bytes + skip), "cudaMalloc (a)") ||
        !bench_cuda_ok(cudaMalloc(&buf->alloc[1], buf->bytes + skip), "cudaMalloc (b)") ||
        !bench_cuda_ok(cudaMalloc(&buf->alloc[2], buf->bytes + skip), "cudaMalloc (c)") ||
        bench_copy_alloc(&buf->copy, buf->bytes / 2 * 3, stream) != 0)
        goto fail;
    buf->a = (char *)buf->alloc[0] + skip;
    buf->b = (char *)buf->alloc[1] + skip;
    buf->c = (char *)buf->alloc[2] + skip;
    if (data_fill_random(buf->a, dtype, n, 1, stream) != 0 ||
        data_fill_random(buf->b, dtype, n, 2, stream) != 0)
        goto fail;
    return 0;
fail:
    free_buffers(buf);
    return -1;
}

/* Copies elements [first, first + count) of a, b and c to the host and checks c = a + b,
 * allowing the rounding of the result to dtype. */
static int check_range(const struct buffers *buf, tileops_dtype dtype, int64_t first,
                       int64_t count, const char *label)
{
    static unsigned char ha[CHECK_ELEMS * 4], hb[CHECK_ELEMS * 4], hc[CHECK_ELEMS * 4];
    size_t elem = bench_dtype_size(dtype), off = (size_t)first * elem;
    size_t len = (size_t)count * elem;
    if (!bench_cuda_ok(cudaMemcpy(ha, (char *)buf->a + off, len, cudaMemcpyDeviceToHost),
                       "cudaMemcpy (check a)") ||
        !bench_cuda_ok(cudaMemcpy(hb, (char *)buf->b + off, len, cudaMemcpyDeviceToHost),
                       "cudaMemcpy (check b)") ||
        !bench_cuda_ok(cudaMemcpy(hc, (char *)buf->c + off, len, cudaMemcpyDeviceToHost),
                       "cudaMemcpy (check c)"))
        return -1;
    /* One rounding of the exact sum to dtype: the tests' bound (tests/util_host.h). */
    const double rel = dtype_rel_bound(dtype), abs_ = dtype_abs_bound(dtype);
    for (int64_t i = 0; i < count; i++) {
        double a = get_elem(ha, dtype, (size_t)i), b = get_elem(hb, dtype, (size_t)i);
        double c = get_elem(hc, dtype, (size_t)i), want = a + b;
        if (!(fabs(c - want) <= rel * fabs(want) + abs_)) {
            bench_error("vector_add %s: wrong result: c[%" PRId64 "] = %g, want %g + %g = %g",
                        label, first + i, c, a, b, want);
            return -1;
        }
    }
    return 0;
}

/* Checks the first and the last CHECK_ELEMS elements of c. */
static int check_result(const struct buffers *buf, tileops_dtype dtype, int64_t n,
                        const char *label)
{
    int64_t count = n < CHECK_ELEMS ? n : CHECK_ELEMS;
    if (check_range(buf, dtype, 0, count, label) != 0)
        return -1;
    return n > count ? check_range(buf, dtype, n - count, count, label) : 0;
}

/* One row: a handle forced to `tier`, one untimed call (its kernel names the row, its result
 * is checked), then the add and the copy timed. Returns 0, 1 if the tier or the case is not
 * supported here (a note is printed), or -1 on failure. */
static int bench_row(const struct bench_ctx *ctx, struct report *rep,
                     const struct buffers *buf, tileops_dtype dtype, tileops_tier tier,
                     const char *kernel_name)
{
    const struct bench_opts *o = ctx->opts;
    const int64_t n = ctx->opts->n;
    char label[32];
    snprintf(label, sizeof label, "%s %s", bench_dtype_name(dtype), bench_tier_name(tier));

    tileops_handle h = NULL;
    if (!bench_tileops_ok(tileops_create(&h, ctx->device), "tileops_create"))
        return -1;
    int rc = -1;
    tileops_status st = bench_use_tier(h, o, tier, kernel_name);
    /* poisoned (NaN), so that a kernel that skips elements cannot pass on the last one's */
    if (st == TILEOPS_SUCCESS &&
        !bench_cuda_ok(cudaMemsetAsync(buf->c, 0xff, buf->bytes, ctx->stream), "cudaMemsetAsync"))
        goto out;
    if (st == TILEOPS_SUCCESS)
        st = tileops_vector_add(h, dtype, n, buf->a, buf->b, buf->c, ctx->stream);
    if (st == TILEOPS_ERROR_NOT_SUPPORTED) {
        if (!o->list_kernels) /* most of a tier's kernels serve no given case */
            bench_error("note: vector_add %s skipped: %s", label, tileops_last_error());
        rc = 1;
        goto out;
    }
    if (!bench_tileops_ok(st, "tileops_vector_add (first call)"))
        goto out;
    if (o->list_kernels) {
        rc = bench_print_choice(h, kernel_name);
        goto out;
    }
    if (!bench_cuda_ok(cudaStreamSynchronize(ctx->stream), "vector_add (first call)"))
        goto out;
    if (check_result(buf, dtype, n, label) != 0) {
        if (o->measure) /* tileops-tune rejects the kernel and goes on */
            rc = bench_print_wrong(h);
        goto out;
    }
    const char *kernel = tileops_last_kernel(h);
    /* For --tier auto, report the tier that auto resolved to. */
    tileops_tier used = tileops_get_tier(h);

    struct add_call add = {h, dtype, n, buf};
    struct bench_stats add_t, copy_t;
    if (bench_timer_run(ctx->timer, o->reps, run_add, &add, &add_t) != 0)
        goto out;
    if (o->measure) {
        rc = bench_print_measured(h, &add_t);
        goto out;
    }
    if (bench_timer_run(ctx->timer, o->reps, bench_copy_run, (void *)&buf->copy, &copy_t) != 0)
        goto out;

    /* Both move 3 * n * elem bytes: the add reads 2 and writes 1 buffer of n elements; the
     * copy reads and writes copy_bytes = 1.5 * n * elem each. */
    double moved = 3.0 * (double)buf->bytes;
    double add_bw = bench_gbps(moved, add_t.median_us);
    double copy_bw = bench_gbps(moved, copy_t.median_us);
    char s_n[24], s_med[24], s_add[24], s_copy[24], s_ratio[24];
    snprintf(s_n, sizeof s_n, "%" PRId64, n);
    snprintf(s_med, sizeof s_med, "%.2f", add_t.median_us);
    snprintf(s_add, sizeof s_add, "%.1f", add_bw);
    snprintf(s_copy, sizeof s_copy, "%.1f", copy_bw);
    snprintf(s_ratio, sizeof s_ratio, "%.3f", copy_bw > 0 ? add_bw / copy_bw : 0.0);
    const char *vals[NCOLS] = {"vector_add", bench_dtype_name(dtype), bench_tier_name(used),
                               s_n, kernel, s_med, s_add, s_copy, s_ratio};
    rc = report_row(rep, vals);
out:
    tileops_destroy(h);
    return rc;
}

int bench_vector_add(const struct bench_ctx *ctx)
{
    const struct bench_opts *o = ctx->opts;
    struct report rep;
    if (report_open(&rep, columns, NCOLS, o->csv) != 0)
        return -1;
    int rc = 0;
    for (int d = 0; d < o->ndtypes && rc == 0; d++) {
        struct buffers buf;
        if (alloc_buffers(&buf, o->dtypes[d], o->n, o->offset, ctx->stream) != 0) {
            rc = -1;
            break;
        }
        for (int t = 0; t < o->ntiers && rc == 0; t++) {
            int nk;
            const char *const *ks = bench_row_kernels(ctx, o->tiers[t], &nk);
            for (int q = 0; q < nk && rc == 0; q++)
                if (!ks || bench_row(ctx, &rep, &buf, o->dtypes[d], o->tiers[t], ks[q]) < 0)
                    rc = -1;
        }
        free_buffers(&buf);
    }
    if (report_close(&rep) != 0)
        rc = -1;
    return rc;
}
