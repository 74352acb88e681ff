/* tensor_parallel.c: a transformer MLP block split across the GPUs of one host, as an engine
 * runs it with tensor parallelism: y = GELU(x·W1ᵀ + b1)·W2ᵀ, bf16, x [T, H], W1 [F, H],
 * W2 [H, F] (weights as engines store them: [out, in]).
 *   - W1 and b1 column-parallel: rank r holds rows r·F/N .. (r+1)·F/N - 1 of W1, its slice of
 *     b1, and computes h_r = GELU(x·W1_rᵀ + b1_r) [T, F/N] with the fused bias+GELU epilogue;
 *   - W2 row-parallel: rank r holds the matching columns of W2 and computes the partial
 *     y_r = h_r·W2_rᵀ [T, H];
 *   - an NCCL all-reduce sums the partials in place: every rank ends with y.
 * One thread a GPU, each with its own handle (tileops_create(&h, gpu)), stream and buffers;
 * the library's error messages are per thread. The result is checked against the same block
 * on GPU 0 alone, and the time per token batch printed for N GPUs.
 *   tensor_parallel [--gpus N] [--tokens T] [--iters I]   (default: every visible GPU, T 512)
 * Needs NCCL (the Makefile builds it when NCCL is found). */
#include <cuda_runtime_api.h>
#include <math.h>
#include <nccl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tileops.h"

#define MAX_GPUS 16
#define HIDDEN 4096
#define FFN 11008 /* a multiple of 8 x 8: every rank's slice keeps 16-byte rows */

struct rank {
    int gpu, n, tokens, iters;
    const uint16_t *x, *w1, *b1, *w2; /* host: the whole block (bf16 bits) */
    ncclComm_t comm;
    uint16_t *y;                      /* host: this rank's y after the all-reduce */
    double ms;                        /* per iteration */
    int ok;
    char err[256];
};

/* fp32 -> bf16 bits, round to nearest even. */
static uint16_t bf16_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static float bf16_value(uint16_t b)
{
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Uniform in [-a, a) from a 64-bit LCG: the same weights on every run. */
static void fill(uint16_t *v, size_t n, float a, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = bf16_bits(a * (2.0f * (float)(seed >> 40) / (float)(1u << 24) - 1.0f));
    }
}

#define FAIL(...)                                                                          \
    do {                                                                                   \
        snprintf(r->err, sizeof r->err, __VA_ARGS__);                                      \
        goto out;                                                                          \
    } while (0)
#define CUDA_TRY(call)                                                                     \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess)                                                             \
            FAIL("GPU %d: %s: %s", r->gpu, #call, cudaGetErrorString(e_));                 \
    } while (0)
#define TILEOPS_TRY(call)                                                                  \
    do {                                                                                   \
        tileops_status st_ = (call);                                                       \
        if (st_ != TILEOPS_SUCCESS)                                                        \
            FAIL("GPU %d: %s: %s", r->gpu, tileops_status_string(st_), tileops_last_error()); \
    } while (0)
#define NCCL_TRY(call)                                                                     \
    do {                                                                                   \
        ncclResult_t e_ = (call);                                                          \
        if (e_ != ncclSuccess)                                                             \
            FAIL("GPU %d: %s: %s", r->gpu, #call, ncclGetErrorString(e_));                 \
    } while (0)

/* One GEMM of the block: d [m, n] = epilogue(a [m, k] · b[n, k]ᵀ (+ bias)). */
static tileops_gemm_params gemm(int64_t m, int64_t n, int64_t k, const void *a, const void *b,
                                void *d, const void *bias)
{
    tileops_gemm_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.dtype = TILEOPS_BF16;
    p.b_layout = TILEOPS_B_NK;
    p.m = m, p.n = n, p.k = k;
    p.a = a, p.lda = k;
    p.b = b, p.ldb = k;
    p.d = d, p.ldd = n;
    p.bias = bias;
    p.alpha = 1.0f, p.beta = 0.0f;
    p.epilogue = bias ? TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_TANH : TILEOPS_EPILOGUE_NONE;
    return p;
}

/* Rank r's part of the block on its GPU: its slices up, `iters` timed steps (two GEMMs and the
 * all-reduce; with comm NULL, the whole block on one GPU and no collective), y back. */
static void *run_rank(void *arg)
{
    struct rank *r = arg;
    const int64_t T = r->tokens, H = HIDDEN, FS = FFN / r->n, f0 = (int64_t)r->gpu * FS;
    tileops_handle h = NULL;
    cudaStream_t s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    void *x = NULL, *w1 = NULL, *b1 = NULL, *w2 = NULL, *hid = NULL, *y = NULL, *ws = NULL;
    uint16_t *w2s = malloc((size_t)(H * FS) * 2);
    if (!w2s)
        FAIL("out of host memory");
    CUDA_TRY(cudaSetDevice(r->gpu)); /* every call below goes to this thread's GPU */
    TILEOPS_TRY(tileops_create(&h, r->gpu));
    CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_TRY(cudaEventCreate(&e0));
    CUDA_TRY(cudaEventCreate(&e1));
    CUDA_TRY(cudaMalloc(&x, (size_t)(T * H) * 2));
    CUDA_TRY(cudaMalloc(&w1, (size_t)(FS * H) * 2));
    CUDA_TRY(cudaMalloc(&b1, (size_t)FS * 2));
    CUDA_TRY(cudaMalloc(&w2, (size_t)(H * FS) * 2));
    CUDA_TRY(cudaMalloc(&hid, (size_t)(T * FS) * 2));
    CUDA_TRY(cudaMalloc(&y, (size_t)(T * H) * 2));
    /* W1's rows f0.. are contiguous; W2's columns f0.. are gathered into [H, FS] */
    for (int64_t i = 0; i < H; i++)
        memcpy(w2s + i * FS, r->w2 + i * FFN + f0, (size_t)FS * 2);
    CUDA_TRY(cudaMemcpy(x, r->x, (size_t)(T * H) * 2, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(w1, r->w1 + f0 * H, (size_t)(FS * H) * 2, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(b1, r->b1 + f0, (size_t)FS * 2, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(w2, w2s, (size_t)(H * FS) * 2, cudaMemcpyHostToDevice));

    const tileops_gemm_params up = gemm(T, FS, H, x, w1, hid, b1);
    const tileops_gemm_params down = gemm(T, H, FS, hid, w2, y, NULL);
    size_t ws1 = 0, ws2 = 0;
    TILEOPS_TRY(tileops_gemm_workspace_size(h, &up, &ws1));
    TILEOPS_TRY(tileops_gemm_workspace_size(h, &down, &ws2));
    const size_t wsb = ws1 > ws2 ? ws1 : ws2;
    if (wsb)
        CUDA_TRY(cudaMalloc(&ws, wsb));
    for (int it = -2; it < r->iters; it++) { /* two untimed warm-up steps */
        if (it == 0)
            CUDA_TRY(cudaEventRecord(e0, s));
        TILEOPS_TRY(tileops_gemm(h, &up, ws, wsb, s));
        TILEOPS_TRY(tileops_gemm(h, &down, ws, wsb, s));
        if (r->comm)
            NCCL_TRY(ncclAllReduce(y, y, (size_t)(T * H), ncclBfloat16, ncclSum, r->comm, s));
    }
    CUDA_TRY(cudaEventRecord(e1, s));
    CUDA_TRY(cudaEventSynchronize(e1));
    float ms = 0.0f;
    CUDA_TRY(cudaEventElapsedTime(&ms, e0, e1));
    r->ms = ms / r->iters;
    CUDA_TRY(cudaMemcpy(r->y, y, (size_t)(T * H) * 2, cudaMemcpyDeviceToHost));
    r->ok = 1;
out:
    cudaFree(x), cudaFree(w1), cudaFree(b1), cudaFree(w2), cudaFree(hid), cudaFree(y);
    cudaFree(ws);
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    if (s)
        cudaStreamDestroy(s);
    tileops_destroy(h);
    free(w2s);
    return NULL;
}

int main(int argc, char **argv)
{
    int gpus = 0, tokens = 512, iters = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const int v = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--gpus"))
            gpus = v;
        else if (!strcmp(argv[i], "--tokens"))
            tokens = v;
        else if (!strcmp(argv[i], "--iters"))
            iters = v;
        else
            gpus = -1;
    }
    if (argc % 2 == 0 || gpus < 0 || tokens < 1 || iters < 1) {
        fprintf(stderr, "usage: tensor_parallel [--gpus N] [--tokens T] [--iters I]\n");
        return 2;
    }
    int visible = 0;
    if (cudaGetDeviceCount(&visible) != cudaSuccess || visible < 1) {
        fprintf(stderr, "tensor_parallel: no CUDA device\n");
        return 1;
    }
    if (!gpus)
        gpus = visible < MAX_GPUS ? visible : MAX_GPUS;
    if (gpus > visible || gpus > MAX_GPUS || FFN % (8 * gpus)) {
        fprintf(stderr, "tensor_parallel: --gpus %d: %d visible; F = %d must split into "
                        "slices of a multiple of 8\n", gpus, visible, FFN);
        return 2;
    }
    const size_t nx = (size_t)tokens * HIDDEN, nw = (size_t)FFN * HIDDEN;
    uint16_t *x = malloc(nx * 2), *w1 = malloc(nw * 2), *b1 = malloc((size_t)FFN * 2),
             *w2 = malloc(nw * 2), *ys = malloc(nx * 2 * (size_t)(gpus + 1));
    struct rank *ranks = calloc((size_t)gpus + 1, sizeof *ranks);
    ncclComm_t comms[MAX_GPUS];
    int devs[MAX_GPUS], rc = 1, have_comms = 0;
    if (!x || !w1 || !b1 || !w2 || !ys || !ranks) {
        fprintf(stderr, "tensor_parallel: out of host memory\n");
        goto done;
    }
    /* scales keep h and y near 1: |x| < 1, |W1| < 2/sqrt(H), |W2| < 2/sqrt(F) */
    fill(x, nx, 1.0f, 1);
    fill(w1, nw, 2.0f / sqrtf((float)HIDDEN), 2);
    fill(b1, FFN, 0.5f, 3);
    fill(w2, nw, 2.0f / sqrtf((float)FFN), 4);
    for (int g = 0; g < gpus; g++)
        devs[g] = g;
    ncclResult_t nr = ncclCommInitAll(comms, gpus, devs);
    if (nr != ncclSuccess) {
        fprintf(stderr, "tensor_parallel: ncclCommInitAll: %s\n", ncclGetErrorString(nr));
        goto done;
    }
    have_comms = 1;

    /* ranks[0 .. gpus-1]: the split block, all at once; ranks[gpus]: the whole block on GPU 0 */
    pthread_t th[MAX_GPUS];
    for (int g = 0; g <= gpus; g++) {
        ranks[g] = (struct rank){.gpu = g < gpus ? g : 0, .n = g < gpus ? gpus : 1,
                                 .tokens = tokens, .iters = iters, .x = x, .w1 = w1, .b1 = b1,
                                 .w2 = w2, .comm = g < gpus ? comms[g] : NULL,
                                 .y = ys + nx * (size_t)g};
    }
    for (int g = 0; g < gpus; g++)
        if (pthread_create(&th[g], NULL, run_rank, &ranks[g]) != 0) {
            fprintf(stderr, "tensor_parallel: pthread_create failed\n");
            for (int j = 0; j < g; j++)
                pthread_join(th[j], NULL);
            goto done;
        }
    for (int g = 0; g < gpus; g++)
        pthread_join(th[g], NULL);
    run_rank(&ranks[gpus]); /* the reference, alone on GPU 0 */
    for (int g = 0; g <= gpus; g++)
        if (!ranks[g].ok) {
            fprintf(stderr, "tensor_parallel: %s\n", ranks[g].err);
            goto done;
        }

    /* Every rank holds the same y (one all-reduce); against the one-GPU block, the partials'
     * bf16 roundings and the sum's order differ: allow 2^-6 of the largest |y|. */
    const uint16_t *ref = ranks[gpus].y;
    double ymax = 0.0, err = 0.0;
    int same = 1;
    for (size_t i = 0; i < nx; i++) {
        const double v = bf16_value(ref[i]), t = bf16_value(ranks[0].y[i]);
        ymax = fabs(v) > ymax ? fabs(v) : ymax;
        if (t != t || fabs(t - v) > err)
            err = t != t ? INFINITY : fabs(t - v);
        for (int g = 1; g < gpus; g++)
            same &= ranks[g].y[i] == ranks[0].y[i];
    }
    const double bound = ldexp(ymax, -6);
    double slowest = 0.0;
    for (int g = 0; g < gpus; g++)
        slowest = ranks[g].ms > slowest ? ranks[g].ms : slowest;
    printf("MLP block T=%d H=%d F=%d bf16: %d GPU%s %.3f ms a token batch, 1 GPU %.3f ms "
           "(%.2fx); max |y - y_1gpu| = %.3g (bound %.3g, max |y| %.3g); ranks %s\n",
           tokens, HIDDEN, FFN, gpus, gpus > 1 ? "s" : "", slowest, ranks[gpus].ms,
           ranks[gpus].ms / slowest, err, bound, ymax, same ? "agree" : "DIFFER");
    rc = err <= bound && same && ymax > 0.0 ? 0 : 1;
    if (rc)
        fprintf(stderr, "tensor_parallel: the split block does not match the one-GPU block\n");
done:
    for (int g = 0; have_comms && g < gpus; g++)
        ncclCommDestroy(comms[g]);
    free(x), free(w1), free(b1), free(w2), free(ys), free(ranks);
    return rc;
}
