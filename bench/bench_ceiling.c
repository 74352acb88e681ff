/* bench_ceiling.c: the rates this GPU allows, which the other modes' figures are read against:
 *
 *   copy      cudaMemcpyAsync device to device of --n bytes (the memory-bound benchmarks'
 *             reference, bench/copy.c); GB/s counts the bytes read and written, 2 * n.
 *   read      a reduction that reads --n bytes once and writes one word a warp
 *             (ceiling_kernels.cu): the DRAM read rate; GB/s counts n.
 *   mma_sync  mma.sync m16n8k16, f16 and bf16 inputs, fp32 accumulate, operands in registers,
 *             independent accumulator chains in every warp: the tensor-core rate of the sm80
 *             tier's GEMM and attention kernels, in TFLOP/s.
 *   wgmma     wgmma.mma_async m64n256k16, f16 and bf16 inputs, fp32 accumulate, A and B from
 *             128B-swizzled shared memory, one CTA of 2 or 3 warpgroups an SM issuing back to
 *             back (ceiling_wgmma.cu): the dense rate of the sm90 tier's GEMM, in TFLOP/s.
 *             Only on compute capability 9.0, with the sm90 tier built; elsewhere a note.
 *   launch    an empty kernel: the fixed cost every call pays.
 *
 * Each is timed as the other modes time (warm-up, then reps each after an L2 flush, the median
 * of CUDA events). read, mma_sync and wgmma run a few launch shapes and report the fastest; the
 * config column names it. bench_tensor_peak() runs the tensor-core probes shortened, for the
 * gemm mode's peak_frac. */
#include "bench.h"
#include "ceiling_kernels.h"
#include "copy.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* mma.sync and wgmma a streaming multiprocessor issues in one timed launch: ~1 ms at 650 and
 * ~1.1 ms at 990 TFLOP/s on an H200 (132 SMs), long enough that launch costs are noise. */
#define MMA_PER_SM ((int64_t)1 << 20)
#define MMA_FLOP (2.0 * 16 * 8 * 16)
#define WGMMA_PER_SM ((int64_t)1 << 14)
#define WGMMA_FLOP (2.0 * 64 * 256 * 16)
/* bench_tensor_peak's runs: a quarter as long (~0.3 ms a launch), 5 reps a shape: a few ms a
 * probe, which the gemm mode pays once. */
#define PEAK_SHORTEN 2
#define PEAK_REPS 5

static const struct report_col columns[] = {
    {"op", 7, 0},       {"gpu", 16, 0},      {"probe", 8, 0},     {"dtype", 5, 0},
    {"bytes", 10, 1},   {"config", 24, 0},   {"median_us", 10, 1}, {"gbps", 8, 1},
    {"tflops", 7, 1},
};
#define NCOLS ((int)(sizeof columns / sizeof columns[0]))

/* Launch shapes tried: blocks a SM, and loads in flight a thread (read), accumulator chains a
 * warp (mma_sync) or warpgroups a CTA (wgmma). 16 chains take 80 registers a thread, so at most
 * 3 blocks of 8 warps fit; a wgmma thread holds 128 accumulators (154 registers), so one CTA an
 * SM of 2 or 3 warpgroups, as gemm_sm90 runs (2 consumers and a producer). */
static const int read_shapes[][2] = {{2, 4}, {4, 4}, {8, 4}, {2, 8}, {4, 8}, {8, 8}};
static const int mma_shapes[][2] = {{1, 8}, {1, 16}, {2, 8}, {2, 16}, {4, 8}};
static const int wgmma_shapes[][2] = {{1, 2}, {1, 3}};
#define NSHAPES(a) ((int)(sizeof a / sizeof a[0]))

/* A tensor-core probe: its row name, its instruction for the config column, its launch shapes,
 * the instructions a SM issues in a full-length launch and the FLOP of one. */
struct tc_probe {
    const char *name, *inst;
    const int (*shapes)[2];
    int nshapes;
    int64_t per_sm;
    double flop;
};
enum { TC_MMA_SYNC, TC_WGMMA };
static const struct tc_probe tc_probes[] = {
    [TC_MMA_SYNC] = {"mma_sync", "m16n8k16", mma_shapes, NSHAPES(mma_shapes), MMA_PER_SM,
                     MMA_FLOP},
    [TC_WGMMA] = {"wgmma", "m64n256k16 ss", wgmma_shapes, NSHAPES(wgmma_shapes), WGMMA_PER_SM,
                  WGMMA_FLOP},
};

struct read_call {
    const void *src;
    size_t bytes;
    int unroll, blocks;
    unsigned *out;
};

/* One launch of a tensor-core probe; per is chains a warp (mma_sync) or warpgroups (wgmma). */
struct tc_call {
    int probe, bf16, per, iters, blocks;
    float *out;
};

/* What a tensor-core probe's launch shape means: threads a block, and the instructions a SM
 * issues a round (one iteration of every warp or warpgroup). */
static int tc_threads(int probe, const int *shape)
{
    return probe == TC_WGMMA ? 128 * shape[1] : CEILING_MMA_THREADS;
}
static int64_t tc_per_round(int probe, const int *shape)
{
    const int64_t per_block = probe == TC_WGMMA ? (int64_t)shape[1] * CEILING_WGMMA_GROUP
                                                : (int64_t)CEILING_MMA_THREADS / 32 * shape[1];
    return shape[0] * per_block;
}

/* bench_op_fn: one read_kernel launch. */
static int run_read(void *arg, cudaStream_t stream)
{
    const struct read_call *c = arg;
    return bench_cuda_ok((cudaError_t)ceiling_read(c->src, c->bytes, c->unroll, c->blocks,
                                                   c->out, stream),
                         "ceiling_read") ? 0 : -1;
}

/* bench_op_fn: one mma_kernel or wgmma_kernel launch. */
static int run_tc(void *arg, cudaStream_t stream)
{
    const struct tc_call *c = arg;
    const int err = c->probe == TC_WGMMA
                        ? ceiling_wgmma(c->bf16, c->per, c->iters, c->blocks, c->out, stream)
                        : ceiling_mma(c->bf16, c->per, c->iters, c->blocks, c->out, stream);
    return bench_cuda_ok((cudaError_t)err,
                         c->probe == TC_WGMMA ? "ceiling_wgmma" : "ceiling_mma") ? 0 : -1;
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

/* Why this device or build cannot run tensor-core probe `probe`, into why[len]; NULL if it can.
 * The bench's own kernels are compute_80 PTX; wgmma is sm_90a machine code, built with the
 * sm90 tier, and sm_90a runs on compute capability 9.0 only. */
static const char *tc_unavailable(int probe, const struct cudaDeviceProp *prop, char *why,
                                  size_t len)
{
    if (probe == TC_MMA_SYNC && prop->major < 8)
        snprintf(why, len, "compute capability %d.%d (the probe needs 8.0)", prop->major,
                 prop->minor);
    else if (probe == TC_WGMMA && (prop->major != 9 || prop->minor != 0))
        snprintf(why, len, "compute capability %d.%d (wgmma needs 9.0)", prop->major,
                 prop->minor);
    else if (probe == TC_WGMMA && !ceiling_wgmma_built())
        snprintf(why, len, "this build has no sm_90a code (the sm90 tier is not in "
                 "TILEOPS_ARCHS)");
    else
        return NULL;
    return why;
}

/* The fastest launch shape of a tensor-core probe for one input type. */
struct tc_best {
    int shape, iters;
    double us, tflops;
};

/* Times every launch shape of `probe` for one input type, (per_sm >> shorten) instructions a
 * SM a launch, `reps` reps each; checks that the accumulators' sums are finite; the fastest
 * shape in *best. Returns 0, or -1 (message printed). */
static int tc_measure(const struct bench_ctx *ctx, int probe, int sms, int bf16, int shorten,
                      int reps, struct tc_best *best)
{
    const struct tc_probe *p = &tc_probes[probe];
    int max_threads = 0;
    for (int s = 0; s < p->nshapes; s++)
        if (sms * p->shapes[s][0] * tc_threads(probe, p->shapes[s]) > max_threads)
            max_threads = sms * p->shapes[s][0] * tc_threads(probe, p->shapes[s]);
    const size_t nout = (size_t)max_threads;
    float *out = NULL, *host = malloc(nout * sizeof *host);
    int rc = -1;
    best->shape = -1;
    if (!host) {
        bench_error("ceiling: out of host memory");
        return -1;
    }
    if (!bench_cuda_ok(cudaMalloc((void **)&out, nout * sizeof *out), "cudaMalloc (probe sums)"))
        goto out;
    for (int s = 0; s < p->nshapes; s++) {
        const int64_t per_round = tc_per_round(probe, p->shapes[s]);
        struct tc_call c = {probe, bf16, p->shapes[s][1],
                            (int)((p->per_sm >> shorten) / per_round), sms * p->shapes[s][0],
                            out};
        struct bench_stats t;
        if (bench_timer_run(ctx->timer, reps, run_tc, &c, &t) != 0)
            goto out;
        const size_t n = (size_t)c.blocks * tc_threads(probe, p->shapes[s]);
        if (!bench_cuda_ok(cudaMemcpy(host, out, n * sizeof *host, cudaMemcpyDeviceToHost),
                           "cudaMemcpy (probe sums)"))
            goto out;
        for (size_t i = 0; i < n; i++)
            if (!isfinite(host[i])) {
                bench_error("ceiling %s: thread %zu's sum is %g", p->name, i, (double)host[i]);
                goto out;
            }
        const double flop = p->flop * (double)c.iters * (double)per_round * sms;
        const double tf = t.median_us > 0 ? flop / (t.median_us * 1e6) : 0;
        if (best->shape < 0 || tf > best->tflops)
            *best = (struct tc_best){s, c.iters, t.median_us, tf};
    }
    rc = 0;
out:
    if (out)
        cudaFree(out);
    free(host);
    return rc;
}

/* The config column of a tensor-core probe's shape: instruction, grid x block, mma_sync's
 * chains, rounds. */
static void tc_config(int probe, int sms, const struct tc_best *b, char *buf, size_t len)
{
    const struct tc_probe *p = &tc_probes[probe];
    const int *shape = p->shapes[b->shape];
    const int blocks = sms * shape[0], threads = tc_threads(probe, shape);
    if (probe == TC_WGMMA)
        snprintf(buf, len, "%s %dx%d i%d", p->inst, blocks, threads, b->iters);
    else
        snprintf(buf, len, "%s %dx%d c%d i%d", p->inst, blocks, threads, shape[1], b->iters);
}

/* A tensor-core probe's row for one input type: the fastest shape at full length. */
static int bench_tc(const struct bench_ctx *ctx, struct report *rep, const char *gpu, int sms,
                    int probe, int bf16)
{
    struct tc_best b;
    char config[64];
    if (tc_measure(ctx, probe, sms, bf16, 0, ctx->opts->reps, &b) != 0)
        return -1;
    tc_config(probe, sms, &b, config, sizeof config);
    return row(rep, gpu, tc_probes[probe].name, bf16 ? "bf16" : "f16", -1, config, b.us, -1,
               b.tflops);
}

int bench_tensor_peak(const struct bench_ctx *ctx, int wgmma, int bf16, double *tflops,
                      char *config, size_t len)
{
    const int probe = wgmma ? TC_WGMMA : TC_MMA_SYNC;
    struct cudaDeviceProp prop;
    struct tc_best b;
    if (!bench_cuda_ok(cudaGetDeviceProperties(&prop, ctx->device), "cudaGetDeviceProperties"))
        return -1;
    if (tc_unavailable(probe, &prop, config, len))
        return 1;
    if (tc_measure(ctx, probe, prop.multiProcessorCount, bf16, PEAK_SHORTEN, PEAK_REPS, &b) != 0)
        return -1;
    tc_config(probe, prop.multiProcessorCount, &b, config, len);
    *tflops = b.tflops;
    return 0;
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
        bench_error("note: ceiling read, mma_sync, wgmma and launch skipped: compute capability "
                    "%d.%d (the probes need 8.0)", prop.major, prop.minor);
        rc = 0;
        goto out;
    }
    if (bench_read(ctx, &rep, prop.name, sms, copy.src, bytes) != 0 ||
        bench_tc(ctx, &rep, prop.name, sms, TC_MMA_SYNC, 0) != 0 ||
        bench_tc(ctx, &rep, prop.name, sms, TC_MMA_SYNC, 1) != 0)
        goto out;
    char why[96];
    if (tc_unavailable(TC_WGMMA, &prop, why, sizeof why))
        bench_error("note: ceiling wgmma skipped: %s", why);
    else if (bench_tc(ctx, &rep, prop.name, sms, TC_WGMMA, 0) != 0 ||
             bench_tc(ctx, &rep, prop.name, sms, TC_WGMMA, 1) != 0)
        goto out;
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
