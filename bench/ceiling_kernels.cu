// ceiling_kernels.cu: the probes of tileops-bench ceiling, the rates this GPU allows the
// library's kernels: a streaming read that writes almost nothing (the DRAM read rate a
// reduction or a small-M GEMM's weights run under), and mma.sync m16n8k16 with operands in
// registers and no memory traffic (the tensor-core rate the sm80 tier runs under). Plain CUDA,
// compiled by nvcc into the bench only (compute_80 PTX, as bench/ref_*.cu are).
//
// The sm90 tier's wgmma peak needs sm_90a machine code, not this file's compute_80 PTX: it is
// its own file, ceiling_wgmma.cu.
#include <cuda_runtime.h>
#include <stdint.h>

#include "ceiling_kernels.h"

// Reads [p, p + n16) as 16-byte words, UNROLL loads issued a thread before any is summed
// (grid-stride, so each of the UNROLL loads of a warp is one coalesced 512-byte line), then the
// `ntail` bytes past them one a thread; writes one 32-bit sum a warp. Streaming loads (evict
// first): the buffer is read once.
template <int UNROLL>
static __global__ void __launch_bounds__(CEILING_READ_THREADS)
read_kernel(const uint4 *p, size_t n16, const unsigned char *tail, int ntail, unsigned *out)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    size_t i = tid;
    for (; i + (UNROLL - 1) * stride < n16; i += UNROLL * stride) {
        uint4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            v[u] = __ldcs(p + i + u * stride);
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    for (; i < n16; i += stride) {
        const uint4 v = __ldcs(p + i);
        acc += v.x + v.y + v.z + v.w;
    }
    if (tid < (size_t)ntail)
        acc += tail[tid];
    for (int o = 16; o > 0; o /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (threadIdx.x % 32 == 0)
        out[tid / 32] = acc;
}

// c += a * b, one m16n8k16 tile of a warp: A 16x16 (4 registers of two 16-bit values a lane),
// B 16x8 (2), C 16x8 fp32 (4).
template <bool BF16>
static __device__ __forceinline__ void mma16816(float *c, const unsigned *a, const unsigned *b)
{
    if constexpr (BF16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// CHAINS accumulators a warp, each its own dependency chain, so that CHAINS mma are
// independent at every step; nothing but the mma in the loop. Operands come from the thread
// index and a runtime seed, kept below 1.0 (exponent field masked) so the sums stay finite;
// every thread writes the sum of all its accumulators, so no mma is dead code.
template <int CHAINS, bool BF16>
static __global__ void __launch_bounds__(CEILING_MMA_THREADS)
mma_kernel(int iters, unsigned seed, float *out)
{
    unsigned a[4], b[2][2];
    for (int j = 0; j < 4; j++)
        a[j] = (seed * (threadIdx.x + 4u * j + 1u)) & 0x3bff3bffu;
    for (int j = 0; j < 2; j++) {
        b[j][0] = (seed * (threadIdx.x + 2u * j + 7u)) & 0x3bff3bffu;
        b[j][1] = (seed * (threadIdx.x + 2u * j + 8u)) & 0x3bff3bffu;
    }
    float c[CHAINS][4];
#pragma unroll
    for (int k = 0; k < CHAINS; k++)
        c[k][0] = c[k][1] = c[k][2] = c[k][3] = 0.0f;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            mma16816<BF16>(c[k], a, b[k % 2]);
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < CHAINS; k++)
        s += (c[k][0] + c[k][1]) + (c[k][2] + c[k][3]);
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static __global__ void empty_kernel() {}

extern "C" int ceiling_read(const void *src, size_t bytes, int unroll, int blocks,
                            unsigned *out, cudaStream_t stream)
{
    const uint4 *p = (const uint4 *)src;
    const size_t n16 = bytes / 16;
    const unsigned char *tail = (const unsigned char *)src + n16 * 16;
    const int ntail = (int)(bytes % 16);
    if (blocks < 1)
        return (int)cudaErrorInvalidValue;
    if (unroll == 4)
        read_kernel<4><<<blocks, CEILING_READ_THREADS, 0, stream>>>(p, n16, tail, ntail, out);
    else if (unroll == 8)
        read_kernel<8><<<blocks, CEILING_READ_THREADS, 0, stream>>>(p, n16, tail, ntail, out);
    else
        return (int)cudaErrorInvalidValue;
    return (int)cudaGetLastError();
}

extern "C" int ceiling_mma(int bf16, int chains, int iters, int blocks, float *out,
                           cudaStream_t stream)
{
    const unsigned seed = 0x9e3779b9u;
    if (blocks < 1 || iters < 1)
        return (int)cudaErrorInvalidValue;
    if (chains == 8 && bf16)
        mma_kernel<8, true><<<blocks, CEILING_MMA_THREADS, 0, stream>>>(iters, seed, out);
    else if (chains == 8)
        mma_kernel<8, false><<<blocks, CEILING_MMA_THREADS, 0, stream>>>(iters, seed, out);
    else if (chains == 16 && bf16)
        mma_kernel<16, true><<<blocks, CEILING_MMA_THREADS, 0, stream>>>(iters, seed, out);
    else if (chains == 16)
        mma_kernel<16, false><<<blocks, CEILING_MMA_THREADS, 0, stream>>>(iters, seed, out);
    else
        return (int)cudaErrorInvalidValue;
    return (int)cudaGetLastError();
}

extern "C" int ceiling_empty(cudaStream_t stream)
{
    empty_kernel<<<1, 32, 0, stream>>>();
    return (int)cudaGetLastError();
}
