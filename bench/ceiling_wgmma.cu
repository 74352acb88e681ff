// ceiling_wgmma.cu: the wgmma probe of tileops-bench ceiling: wgmma.mma_async m64n256k16, A and
// B from 128B-swizzled shared memory through matrix descriptors, fp32 accumulators in
// registers, issued back to back by every warpgroup of one CTA an SM, as gemm_sm90's consumers
// issue them: the dense tensor-core rate the sm90 tier runs under.
//
// wgmma exists only on sm_90a, which no other GPU runs (not even through PTX), so the Makefile
// builds this file apart from ceiling_kernels.cu: sm_90a machine code with
// CEILING_WGMMA_SM90A defined when the sm90 tier is built, and otherwise a host stub whose
// launches fail (ceiling_wgmma_built() says which).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "ceiling_kernels.h"
#include "tileops_hopper.cuh"

#ifdef CEILING_WGMMA_SM90A

// A tile a warpgroup, [64 m][64 k], and one B tile all warpgroups read, [256 n][64 k]: K-major
// rows of 128 bytes in the 128B swizzle (gemm_sm90's A and NK-layout B, one k tile of 64), so
// the CEILING_WGMMA_GROUP = 4 k16 steps of a group start 32 bytes apart in each row.
constexpr int A_BYTES = 64 * 64 * 2;
constexpr int B_BYTES = 256 * 64 * 2;
constexpr int ACC = 64 * 256 / 128; // fp32 accumulators a thread
static_assert(CEILING_WGMMA_GROUP == 4, "a group is the four k16 steps of one 128-byte row");

// WGS warpgroups each run `iters` groups of CEILING_WGMMA_GROUP wgmma into their own ACC
// accumulators, at most two groups pending (wait_group 1), as gemm_sm90's main loop; the
// shared tiles are filled once with values below 1.0 (exponent field masked: no inf or NaN) so
// the sums stay finite. Every thread writes the sum of its accumulators, so no wgmma is dead.
template <int WGS, typename T>
static __global__ void __launch_bounds__(WGS * 128, 1)
wgmma_kernel(int iters, unsigned seed, float *out)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    // the swizzle atom is 1024 bytes: the tiles start on one (the launch adds 1024 of slack)
    unsigned char *tiles = smem + ((1024 - (__cvta_generic_to_shared(smem) & 1023)) & 1023);
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(tiles);
    for (int i = threadIdx.x; i < (WGS * A_BYTES + B_BYTES) / 4; i += blockDim.x)
        ((uint32_t *)tiles)[i] = (seed * (i + 1u)) & 0x3bff3bffu;
    fence_proxy_async(); // st.shared before wgmma's async-proxy reads
    __syncthreads();

    const uint32_t sa = base + (threadIdx.x / 128) * A_BYTES, sb = base + WGS * A_BYTES;
    float acc[ACC];
#pragma unroll
    for (int i = 0; i < ACC; i++)
        acc[i] = 0.0f;
    for (int it = 0; it < iters; it++) {
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < CEILING_WGMMA_GROUP; kk++)
            wgmma_m64n256k16<0>(acc, wgmma_desc_sw128(sa + kk * 32, 16, 1024),
                                wgmma_desc_sw128(sb + kk * 32, 16, 1024), 1, (const T *)0);
        wgmma_commit();
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    wgmma_fence_operands(acc);
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < ACC; i++)
        s += acc[i];
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// One launch of wgmma_kernel<WGS, T>, after raising its shared-memory limit past the default
// 48 KB (idempotent; a host call of a few microseconds against a launch of about a millisecond).
template <int WGS, typename T>
static int launch(int iters, int blocks, float *out, cudaStream_t stream)
{
    const int smem = WGS * A_BYTES + B_BYTES + 1024;
    cudaError_t e = cudaFuncSetAttribute(wgmma_kernel<WGS, T>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess)
        return (int)e;
    wgmma_kernel<WGS, T><<<blocks, WGS * 128, smem, stream>>>(iters, 0x9e3779b9u, out);
    return (int)cudaGetLastError();
}

extern "C" int ceiling_wgmma_built(void)
{
    return 1;
}

extern "C" int ceiling_wgmma(int bf16, int warpgroups, int iters, int blocks, float *out,
                             cudaStream_t stream)
{
    if (blocks < 1 || iters < 1)
        return (int)cudaErrorInvalidValue;
    if (warpgroups == 2)
        return bf16 ? launch<2, __nv_bfloat16>(iters, blocks, out, stream)
                    : launch<2, __half>(iters, blocks, out, stream);
    if (warpgroups == 3)
        return bf16 ? launch<3, __nv_bfloat16>(iters, blocks, out, stream)
                    : launch<3, __half>(iters, blocks, out, stream);
    return (int)cudaErrorInvalidValue;
}

#else // no sm_90a pass: the entry points exist, the kernel does not

extern "C" int ceiling_wgmma_built(void)
{
    return 0;
}

extern "C" int ceiling_wgmma(int bf16, int warpgroups, int iters, int blocks, float *out,
                             cudaStream_t stream)
{
    (void)bf16, (void)warpgroups, (void)iters, (void)blocks, (void)out, (void)stream;
    return (int)cudaErrorNoKernelImageForDevice;
}

#endif
