/* timing.c: CUDA-event timing with an L2 flush before each rep (see timing.h). */
#include "timing.h"

#include "bench.h"

#include <stdlib.h>
#include <string.h>

int bench_timer_init(struct bench_timer *t, cudaStream_t stream, int max_reps)
{
    memset(t, 0, sizeof *t);
    t->stream = stream;
    if (max_reps < 1) {
        bench_error("bench_timer_init: max_reps is %d (must be >= 1)", max_reps);
        return -1;
    }
    t->start = calloc((size_t)max_reps, sizeof *t->start);
    t->stop = calloc((size_t)max_reps, sizeof *t->stop);
    t->ms = calloc((size_t)max_reps, sizeof *t->ms);
    if (!t->start || !t->stop || !t->ms) {
        bench_error("bench_timer_init: out of host memory");
        goto fail;
    }
    if (!bench_cuda_ok(cudaMalloc(&t->flush, BENCH_FLUSH_BYTES), "cudaMalloc (L2 flush buffer)"))
        goto fail;
    /* Count events as they are created so that destroy frees exactly those. */
    for (; t->max_reps < max_reps; t->max_reps++) {
        int i = t->max_reps;
        if (!bench_cuda_ok(cudaEventCreate(&t->start[i]), "cudaEventCreate"))
            goto fail;
        if (!bench_cuda_ok(cudaEventCreate(&t->stop[i]), "cudaEventCreate")) {
            cudaEventDestroy(t->start[i]);
            goto fail;
        }
    }
    return 0;
fail:
    bench_timer_destroy(t);
    return -1;
}

void bench_timer_destroy(struct bench_timer *t)
{
    for (int i = 0; i < t->max_reps; i++) {
        cudaEventDestroy(t->start[i]);
        cudaEventDestroy(t->stop[i]);
    }
    if (t->flush)
        cudaFree(t->flush);
    free(t->start);
    free(t->stop);
    free(t->ms);
    memset(t, 0, sizeof *t);
}

/* Overwrites the flush buffer. The byte changes every time so that no layer (driver,
 * compressible memory) can treat the memset as already done. */
static int flush_l2(struct bench_timer *t)
{
    int value = (int)(++t->flush_count & 0xffu);
    return bench_cuda_ok(cudaMemsetAsync(t->flush, value, BENCH_FLUSH_BYTES, t->stream),
                         "cudaMemsetAsync (L2 flush)") ? 0 : -1;
}

/* qsort comparator for floats, ascending. */
static int cmp_float(const void *pa, const void *pb)
{
    float a = *(const float *)pa, b = *(const float *)pb;
    return (a > b) - (a < b);
}

/* Enqueues reps [from, to) and waits for them; their times land in t->ms[from, to). */
static int timed_reps(struct bench_timer *t, int from, int to, bench_op_fn op, void *arg)
{
    /* Everything is enqueued before waiting once: the events time the GPU's own timeline,
     * and host launch overhead between reps hides behind the previous rep's flush. */
    for (int i = from; i < to; i++) {
        if (flush_l2(t) != 0)
            return -1;
        if (!bench_cuda_ok(cudaEventRecord(t->start[i], t->stream), "cudaEventRecord"))
            return -1;
        if (op(arg, t->stream) != 0)
            return -1;
        if (!bench_cuda_ok(cudaEventRecord(t->stop[i], t->stream), "cudaEventRecord"))
            return -1;
    }
    /* A failed kernel surfaces here, as a sticky error, not at launch. */
    if (!bench_cuda_ok(cudaEventSynchronize(t->stop[to - 1]), "cudaEventSynchronize"))
        return -1;
    for (int i = from; i < to; i++)
        if (!bench_cuda_ok(cudaEventElapsedTime(&t->ms[i], t->start[i], t->stop[i]),
                           "cudaEventElapsedTime"))
            return -1;
    return 0;
}

/* The q-quantile (0..1) of the n sorted times, in microseconds, interpolated. */
static double quantile_us(const float *ms, int n, double q)
{
    const double at = q * (n - 1);
    const int i = (int)at;
    const double f = at - i;
    return 1e3 * (i + 1 < n ? (1 - f) * ms[i] + f * ms[i + 1] : (double)ms[i]);
}

int bench_timer_run(struct bench_timer *t, int reps, bench_op_fn op, void *arg,
                    struct bench_stats *out)
{
    if (reps < 1 || reps > t->max_reps) {
        bench_error("bench_timer_run: reps is %d (must be 1..%d)", reps, t->max_reps);
        return -1;
    }
    for (int i = 0; i < BENCH_WARMUP_REPS; i++)
        if (flush_l2(t) != 0 || op(arg, t->stream) != 0)
            return -1;
    int done = reps;
    if (t->prune > 0 && t->best_us > 0 && reps > BENCH_PRUNE_REPS) {
        if (timed_reps(t, 0, BENCH_PRUNE_REPS, op, arg) != 0)
            return -1;
        qsort(t->ms, BENCH_PRUNE_REPS, sizeof *t->ms, cmp_float);
        done = quantile_us(t->ms, BENCH_PRUNE_REPS, 0.5) > t->prune * t->best_us
                   ? BENCH_PRUNE_REPS
                   : reps;
        if (done > BENCH_PRUNE_REPS && timed_reps(t, BENCH_PRUNE_REPS, reps, op, arg) != 0)
            return -1;
    } else if (timed_reps(t, 0, reps, op, arg) != 0) {
        return -1;
    }
    qsort(t->ms, (size_t)done, sizeof *t->ms, cmp_float);
    out->median_us = quantile_us(t->ms, done, 0.5);
    out->min_us = 1e3 * (double)t->ms[0];
    out->noise_us = 0.5 * (quantile_us(t->ms, done, 0.75) - quantile_us(t->ms, done, 0.25));
    out->reps = done;
    if (done == reps && (t->best_us <= 0 || out->median_us < t->best_us))
        t->best_us = out->median_us;
    return 0;
}
