// tileops_device.cuh: what every generated kernel file includes: the CUDA headers, the
// operators' argument structs, the host cost model's declarations and the small device helpers
// the templates share.
#ifndef TILEOPS_DEVICE_CUH
#define TILEOPS_DEVICE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cost_model.h" // the host cost model fit() calls (libops/cost_model.c, in the library)
#include "op_args.h"
#include "tensor_map.h" // tensor maps for TMA (libops/tensor_map.c, in the library)

// ---- element conversions: every dtype is loaded as fp32 and stored back rounded ----------
static __device__ __forceinline__ float to_f32(float x) { return x; }
static __device__ __forceinline__ float to_f32(__half x) { return __half2float(x); }
static __device__ __forceinline__ float to_f32(__nv_bfloat16 x) { return __bfloat162float(x); }

static __device__ __forceinline__ void from_f32(float x, float *out) { *out = x; }
static __device__ __forceinline__ void from_f32(float x, __half *out) { *out = __float2half_rn(x); }
static __device__ __forceinline__ void from_f32(float x, __nv_bfloat16 *out)
{
    *out = __float2bfloat16_rn(x);
}

// ---- fp32 arithmetic for softmax-like reductions ----------------------------------------

// max that returns NaN if either input is NaN (fmaxf would drop it), so that a NaN reaches
// whatever the max feeds.
static __device__ __forceinline__ float max_nan(float a, float b)
{
#if __CUDA_ARCH__ >= 800
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return a != a ? a : b != b ? b : fmaxf(a, b);
#endif
}

// 2^x in one MUFU instruction; results below 2^-126 flush to 0.
static __device__ __forceinline__ float fast_exp2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

// log2(e): exp(x) = exp2(x * TILEOPS_LOG2E), one MUFU with the scale folded in.
constexpr float TILEOPS_LOG2E = 1.4426950408889634f;

// ---- stores and launches ----------------------------------------------------------------

// Stores v, evict-first: for data written once and not read again by this kernel, so that it
// does not push the kernel's inputs out of L2.
template <typename V> static __device__ __forceinline__ void store_stream(V *p, const V &v)
{
    if (sizeof(V) == 16)
        __stcs((float4 *)p, *(const float4 *)&v);
    else if (sizeof(V) == 8)
        __stcs((float2 *)p, *(const float2 *)&v);
    else
        *p = v;
}

// Raises a kernel's dynamic shared memory limit to `bytes` (the attribute is per device), once
// per device and kernel: *done is the kernel's own bit mask of devices already set (an
// instance-local static). Devices beyond 63 are set on every call. Returns the cudaError_t as
// an int.
static inline int smem_optin(const void *func, int bytes, unsigned long long *done)
{
    int dev = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return (int)err;
    const unsigned long long bit = dev >= 0 && dev < 64 ? 1ull << dev : 0;
    if (bit && (__atomic_load_n(done, __ATOMIC_RELAXED) & bit))
        return 0;
    err = cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (err != cudaSuccess)
        return (int)err;
    if (bit)
        __atomic_fetch_or(done, bit, __ATOMIC_RELAXED);
    return 0;
}

// Grid size for `units` units of work, one per block, within gridDim.x's limit; kernels
// stride over the rest.
static inline unsigned grid_for(int64_t units)
{
    const int64_t max_blocks = 0x7fffffff;
    return (unsigned)(units < 1 ? 1 : units > max_blocks ? max_blocks : units);
}

// The launch of `clusters` clusters of `cluster` blocks (1-D) of `threads` threads with `smem`
// bytes of dynamic shared memory on `stream` (cudaLaunchKernelEx, the occupancy queries):
// *cfg, pointing at *attr.
static inline void cluster_launch_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr,
                                         unsigned clusters, unsigned cluster, unsigned threads,
                                         size_t smem, cudaStream_t stream)
{
    *cfg = cudaLaunchConfig_t{};
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = cluster, attr->val.clusterDim.y = 1, attr->val.clusterDim.z = 1;
    cfg->gridDim = dim3(clusters * cluster), cfg->blockDim = dim3(threads);
    cfg->dynamicSmemBytes = smem, cfg->stream = stream;
    cfg->attrs = attr, cfg->numAttrs = 1;
}

// The matrix primitives (cp.async, ldmatrix, mma.sync), the GEMM epilogue, the attention
// tile plan and the softmax reductions, at file scope: an #include inside an instance's
// namespace would put them there once and nowhere else.
#include "tileops_mma.cuh"
#include "tileops_hopper.cuh"
#include "tileops_gemm.cuh"
#include "tileops_attention.cuh"
#include "tileops_softmax.cuh"

#endif
