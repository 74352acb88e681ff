/* ceiling_kernels.h: the probes of tileops-bench ceiling: a read-only streaming reduction, the
 * mma.sync tensor-core rate and an empty kernel (ceiling_kernels.cu), and the wgmma rate of the
 * sm90 tier (ceiling_wgmma.cu, sm_90a only). */
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

/* wgmma a warpgroup issues between two commits (the k16 steps of one 64-wide k tile). */
#define CEILING_WGMMA_GROUP 4

/* 1 if this build holds the wgmma probe (ceiling_wgmma.cu compiled for sm_90a, which the
 * Makefile does with the sm90 tier), 0 if only its stub. */
int ceiling_wgmma_built(void);

/* On a compute capability 9.0 device: every warpgroup of `blocks` CTAs of `warpgroups` (2 or 3)
 * warpgroups issues `iters` commit groups of CEILING_WGMMA_GROUP wgmma.mma_async m64n256k16
 * (f16 inputs, or bf16 when bf16 is set; fp32 accumulate), A and B from 128B-swizzled shared
 * memory, at most two groups pending; writes each thread's sum of its 128 accumulators to out
 * (blocks * warpgroups * 128 floats). One wgmma is 2 * 64 * 256 * 16 = 524288 FLOP. Returns the
 * cudaError_t of the launch: cudaErrorNoKernelImageForDevice if !ceiling_wgmma_built(). */
int ceiling_wgmma(int bf16, int warpgroups, int iters, int blocks, float *out,
                  cudaStream_t stream);

/* One empty block: the fixed cost of a launch. Returns the cudaError_t of the launch. */
int ceiling_empty(cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
