/* ceiling_kernels.h: the probes of tileops-bench ceiling (ceiling_kernels.cu): a read-only
 * streaming reduction, the mma.sync tensor-core rate, and an empty kernel. */
#ifndef TILEOPS_BENCH_CEILING_KERNELS_H
#define TILEOPS_BENCH_CEILING_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads of a ceiling_read block and of a ceiling_mma block (8 warps). */
#define CEILING_READ_THREADS 256
#define CEILING_MMA_THREADS 256

/* Reads `bytes` at src (16-byte aligned) once, `unroll` (4 or 8) 16-byte loads in flight a
 * thread, on `blocks` blocks of CEILING_READ_THREADS, and writes one 32-bit sum a warp to out
 * (blocks * CEILING_READ_THREADS / 32 of them). Returns the cudaError_t of the launch. */
int ceiling_read(const void *src, size_t bytes, int unroll, int blocks, unsigned *out,
                 cudaStream_t stream);

/* Issues `iters` rounds of `chains` (8 or 16) independent mma.sync.m16n8k16 (f16 inputs, or
 * bf16 when bf16 is set; fp32 accumulate) in every warp of `blocks` blocks of
 * CEILING_MMA_THREADS, and writes each thread's sum of its accumulators to out (blocks *
 * CEILING_MMA_THREADS floats). One warp's mma is 2 * 16 * 8 * 16 = 4096 FLOP. Returns the
 * cudaError_t of the launch. */
int ceiling_mma(int bf16, int chains, int iters, int blocks, float *out, cudaStream_t stream);

/* One empty block: the fixed cost of a launch. Returns the cudaError_t of the launch. */
int ceiling_empty(cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
