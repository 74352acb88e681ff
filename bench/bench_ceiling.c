/* bench_ceiling.c: the rates this GPU allows, which the other modes' figures are read against:
 *
 *   copy      cudaMemcpyAsync device to device of --n bytes (the memory-bound benchmarks'
 *             reference, bench/copy.c); GB/s counts the bytes read and written, 2 * n.
 *   read      a reduction that reads --n bytes once and writes one word a warp
 *             (ceiling_kernels.cu): the DRAM read rate; GB/s counts n.
 *   mma_sync  mma.sync m16n8k16, f16 and bf16 inputs, fp32 accumulate, operands in registers,
 *             independent accumulator chains in every warp: the tensor-core rate of the sm80
 *             tier's GEMM and attention kernels, in TFLOP/s.
 *   launch    an empty kernel: the fixed cost every call pays.
 *
 * Each is timed as the other modes time (warm-up, then reps each after an L2 flush, the median
 * of CUDA events). read and mma_sync run a few launch shapes and report the fastest; the config
 * column names it. Hook: a wgmma row for the sm90 tier goes after mma_sync (see
 * ceiling_kernels.cu). */
#include "bench.h"
#include "ceiling_kernels.h"
#include "copy.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* mma.sync a streaming multiprocessor issues in one timed launch: ~1 ms at 650 TFLOP/s on an
 * H200 (132 SMs), long enough that launch costs are noise. */
#define MMA_PER_SM ((int64_t)1 << 20)
#define MMA_FLOP (2.0 * 16 * 8 * 16)

static const struct report_col columns[] = {
    {"op", 7, 0},       {"gpu", 16, 0},      {"probe", 8, 0},     {"dtype", 5, 0},
    {"bytes", 10, 1},   {"config", 24, 0},   {"median_us", 10, 1}, {"gbps", 8, 1},
    {"tflops", 7, 1},
};
#define NCOLS ((int)(sizeof columns / sizeof columns[0]))

/* Launch shapes tried: blocks a SM, and loads in flight a thread (read) or accumulator chains a
 * warp (mma_sync). 16 chains take 80 registers a thread, so at most 3 blocks of 8 warps fit. */
static const int read_shapes[][2] = {{2, 4}, {4, 4}, {8, 4}, {2, 8}, {4, 8}, {8, 8}};
static const int mma_shapes[][2] = {{1, 8}, {1, 16}, {2, 8}, {2, 16}, {4, 8}};
#define NSHAPES(a) ((int)(sizeof a / sizeof a[0]))

struct read_call {
    const void *src;
    size_t bytes;
    int unroll, blocks;
    unsigned *out;
};

struct mma_call {
    int bf16, chains, iters, blocks;
    float *out;
};

/* bench_op_fn: one read_kernel launch. */
static int run_read(void *arg, cudaStream_t stream)
{
    const struct read_call *c = arg;
    return bench_cuda_ok((cudaError_t)ceiling_read(c->src, c->bytes, c->unroll, c->blocks,
                                                   c->out, stream),
                         "ceiling_read") ? 0 : -1;
}

/* bench_op_fn: one mma_kernel launch. */
static int run_mma(void *arg, cudaStream_t stream)
{
    const struct mma_call *c = arg;
    return bench_cuda_ok((cudaError_t)ceiling_mma(c->bf16, c->chains, c->iters, c->blocks,
                                                  c->out, stream),
                         "ceiling_mma") ? 0 : -1;
}

/* bench_op_fn: one empty kernel. */
static int run_empty(void *arg, cudaStream_t stream)
{
    (void)arg;
    return bench_cuda_ok((cudaError_t)ceiling_empty(stream), "ceiling_empty") ? 0 : -1;
}

/* One table row; numbers < 0 print as "-". */
static int row(struct report *rep, const char *gpu, const char *probe, const char *dtype,
               double bytes, const char *config, double us, double gbps, double tflops)
{
    char s_bytes[32] = "-", s_us[32], s_gbps[32] = "-", s_tf[32] = "-";
    if (bytes >= 0)
        snprintf(s_bytes, sizeof s_bytes, "%.0f", bytes);
    snprintf(s_us, sizeof s_us, "%.2f", us);
    if (gbps >= 0)
        snprintf(s_gbps, sizeof s_gbps, "%.1f", gbps);
    if (tflops >= 0)
        snprintf(s_tf, sizeof s_tf, "%.1f", tflops);
    const char *vals[NCOLS] = {"ceiling", gpu, probe, dtype, s_bytes, config,
                               s_us, s_gbps, s_tf};
    return report_row(rep, vals);
}

/* The read probe over `bytes` of src (filled with the byte 0x3c by bench_copy_alloc): every
 * shape timed, its sums checked against what the buffer holds, the fastest reported. */
static int bench_read(const struct bench_ctx *ctx, struct report *rep, const char *gpu,
                      int sms, const void *src, size_t bytes)
{
    int max_blocks = 0;
    for (int s = 0; s < NSHAPES(read_shapes); s++)
        if (sms * read_shapes[s][0] > max_blocks)
            max_blocks = sms * read_shapes[s][0];
    const size_t nout = (size_t)max_blocks * CEILING_READ_THREADS / 32;
    unsigned *out = NULL, *host = malloc(nout * sizeof *host);
    int rc = -1, best = -1;
    double best_us = 0;
    if (!host) {
        bench_error("ceiling: out of host memory");
        return -1;
    }
    if (!bench_cuda_ok(cudaMalloc((void **)&out, nout * sizeof *out), "cudaMalloc (read sums)"))
        goto out;
    /* Every 32-bit word holds 0x3c3c3c3c and every tail byte 0x3c; the sums wrap mod 2^32. */
    const unsigned want = (unsigned)((uint64_t)(bytes / 16) * 4 * 0x3c3c3c3cu +
                                     (uint64_t)(bytes % 16) * 0x3c);
    for (int s = 0; s < NSHAPES(read_shapes); s++) {
        struct read_call c = {src, bytes, read_shapes[s][1], sms * read_shapes[s][0], out};
        struct bench_stats t;
        if (bench_timer_run(ctx->timer, ctx->opts->reps, run_read, &c, &t) != 0)
            goto out;
        const size_t n = (size_t)c.blocks * CEILING_READ_THREADS / 32;
        if (!bench_cuda_ok(cudaMemcpy(host, out, n * sizeof *host, cudaMemcpyDeviceToHost),
                           "cudaMemcpy (read sums)"))
            goto out;
        unsigned got = 0;
        for (size_t i = 0; i < n; i++)
            got += host[i];
        if (got != want) {
            bench_error("ceiling read: wrong sum 0x%08x over %zu bytes, want 0x%08x", got, bytes,
                        want);
            goto out;
        }
        if (best < 0 || t.median_us < best_us) {
            best = s;
            best_us = t.median_us;
        }
    }
    char config[64];
    snprintf(config, sizeof config, "%dx%d u%d", sms * read_shapes[best][0],
             CEILING_READ_THREADS, read_shapes[best][1]);
    rc = row(rep, gpu, "read", "-", (double)bytes, config, best_us,
             bench_gbps((double)bytes, best_us), -1);
out:
    if (out)
        cudaFree(out);
    free(host);
    return rc;
}

/* The mma_sync probe for one input type: every shape timed, the accumulators' sums checked to
 * be finite, the fastest reported. */
static int bench_mma(const struct bench_ctx *ctx, struct report *rep, const char *gpu, int sms,
                     int bf16)
{
    int max_blocks = 0;
    for (int s = 0; s < NSHAPES(mma_shapes); s++)
        if (sms * mma_shapes[s][0] > max_blocks)
            max_blocks = sms * mma_shapes[s][0];
    const size_t nout = (size_t)max_blocks * CEILING_MMA_THREADS;
    float *out = NULL, *host = malloc(nout * sizeof *host);
    int rc = -1, best = -1;
    double best_tf = 0, best_us = 0;
    if (!host) {
        bench_error("ceiling: out of host memory");
        return -1;
    }
    if (!bench_cuda_ok(cudaMalloc((void **)&out, nout * sizeof *out), "cudaMalloc (mma sums)"))
        goto out;
    for (int s = 0; s < NSHAPES(mma_shapes); s++) {
        const int warps = mma_shapes[s][0] * CEILING_MMA_THREADS / 32, chains = mma_shapes[s][1];
        struct mma_call c = {bf16, chains, (int)(MMA_PER_SM / ((int64_t)warps * chains)),
                             sms * mma_shapes[s][0], out};
        struct bench_stats t;
        if (bench_timer_run(ctx->timer, ctx->opts->reps, run_mma, &c, &t) != 0)
            goto out;
        const size_t n = (size_t)c.blocks * CEILING_MMA_THREADS;
        if (!bench_cuda_ok(cudaMemcpy(host, out, n * sizeof *host, cudaMemcpyDeviceToHost),
                           "cudaMemcpy (mma sums)"))
            goto out;
        for (size_t i = 0; i < n; i++)
            if (!isfinite(host[i])) {
                bench_error("ceiling mma_sync: thread %zu's sum is %g", i, (double)host[i]);
                goto out;
            }
        const double flop = MMA_FLOP * (double)c.iters * chains * warps * sms;
        const double tf = t.median_us > 0 ? flop / (t.median_us * 1e6) : 0;
        if (best < 0 || tf > best_tf) {
            best = s;
            best_tf = tf;
            best_us = t.median_us;
        }
    }
    const int warps = mma_shapes[best][0] * CEILING_MMA_THREADS / 32;
    char config[64];
    snprintf(config, sizeof config, "m16n8k16 %dx%d c%d i%d", sms * mma_shapes[best][0],
             CEILING_MMA_THREADS, mma_shapes[best][1],
             (int)(MMA_PER_SM / ((int64_t)warps * mma_shapes[best][1])));
    rc = row(rep, gpu, "mma_sync", bf16 ? "bf16" : "f16", -1, config, best_us, -1, best_tf);
out:
    if (out)
        cudaFree(out);
    free(host);
    return rc;
}

int bench_ceiling(const struct bench_ctx *ctx)
{
    const struct bench_opts *o = ctx->opts;
    const size_t bytes = (size_t)o->n;
    struct cudaDeviceProp prop;
    if (!bench_cuda_ok(cudaGetDeviceProperties(&prop, ctx->device), "cudaGetDeviceProperties"))
        return -1;
    const int sms = prop.multiProcessorCount;
    /* The bench's kernels are compute_80 PTX: older GPUs get the copy and nothing else. */
    const int probes = prop.major >= 8;

    struct bench_copy copy;
    if (bench_copy_alloc(&copy, bytes, ctx->stream) != 0)
        return -1;
    struct report rep;
    if (report_open(&rep, columns, NCOLS, o->csv) != 0) {
        bench_copy_free(&copy);
        return -1;
    }
    int rc = -1;
    struct bench_stats t;
    if (bench_timer_run(ctx->timer, o->reps, bench_copy_run, &copy, &t) != 0 ||
        row(&rep, prop.name, "copy", "-", 2.0 * (double)bytes, "cudaMemcpyAsync", t.median_us,
            bench_gbps(2.0 * (double)bytes, t.median_us), -1) != 0)
        goto out;
    if (!probes) {
        bench_error("note: ceiling read, mma_sync and launch skipped: compute capability %d.%d "
                    "(the probes need 8.0)", prop.major, prop.minor);
        rc = 0;
        goto out;
    }
    if (bench_read(ctx, &rep, prop.name, sms, copy.src, bytes) != 0 ||
        bench_mma(ctx, &rep, prop.name, sms, 0) != 0 ||
        bench_mma(ctx, &rep, prop.name, sms, 1) != 0)
        goto out;
    /* wgmma (sm90 tier): a row here once the sm90 template has landed. */
    if (bench_timer_run(ctx->timer, o->reps, run_empty, NULL, &t) != 0 ||
        row(&rep, prop.name, "launch", "-", -1, "empty 1x32", t.median_us, -1, -1) != 0)
        goto out;
    rc = 0;
out:
    if (report_close(&rep) != 0)
        rc = -1;
    bench_copy_free(&copy);
    return rc;
}
