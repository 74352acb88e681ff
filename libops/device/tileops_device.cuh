// tileops_device.cuh: what every generated kernel file includes: the CUDA headers, the
// operators' argument structs and the small device helpers the templates share.
#ifndef TILEOPS_DEVICE_CUH
#define TILEOPS_DEVICE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "op_args.h"

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

// ---- cp.async (sm80 and up): global to shared memory without passing through registers ---
// Compiled to a trap below sm80: templates that use them are not instantiated for such tiers
// (the specs' constraints), but the code is still compiled there.
static __device__ __forceinline__ void cp_async_16(void *smem, const void *gmem)
{
#if __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
#else
    (void)smem, (void)gmem;
    __trap();
#endif
}

static __device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Waits for every cp.async this thread issued; a barrier then makes them visible to all.
static __device__ __forceinline__ void cp_async_wait_all()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

// Grid size for `units` units of work, one per block, within gridDim.x's limit; kernels
// stride over the rest.
static inline unsigned grid_for(int64_t units)
{
    const int64_t max_blocks = 0x7fffffff;
    return (unsigned)(units < 1 ? 1 : units > max_blocks ? max_blocks : units);
}

#endif
