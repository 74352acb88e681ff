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

// NaN-propagating max of n (a compile-time constant after inlining) elements; f16 and bf16
// pairs are compared packed from sm80 on, converting only the winners.
static __device__ __forceinline__ float max_nan_of(const float *v, int n)
{
    float m = v[0];
#pragma unroll
    for (int j = 1; j < n; j++)
        m = max_nan(m, v[j]);
    return m;
}

static __device__ __forceinline__ float max_nan_of(const __half *v, int n)
{
#if __CUDA_ARCH__ >= 800
    if (n % 2 == 0) {
        const __half2 *p = (const __half2 *)v;
        __half2 m = p[0];
#pragma unroll
        for (int j = 1; j < n / 2; j++)
            m = __hmax2_nan(m, p[j]);
        return max_nan(__low2float(m), __high2float(m));
    }
#endif
    float m = to_f32(v[0]);
#pragma unroll
    for (int j = 1; j < n; j++)
        m = max_nan(m, to_f32(v[j]));
    return m;
}

static __device__ __forceinline__ float max_nan_of(const __nv_bfloat16 *v, int n)
{
#if __CUDA_ARCH__ >= 800
    if (n % 2 == 0) {
        const __nv_bfloat162 *p = (const __nv_bfloat162 *)v;
        __nv_bfloat162 m = p[0];
#pragma unroll
        for (int j = 1; j < n / 2; j++)
            m = __hmax2_nan(m, p[j]);
        return max_nan(__low2float(m), __high2float(m));
    }
#endif
    float m = to_f32(v[0]);
#pragma unroll
    for (int j = 1; j < n; j++)
        m = max_nan(m, to_f32(v[j]));
    return m;
}

// Grid size for `units` units of work, one per block, within gridDim.x's limit; kernels
// stride over the rest.
static inline unsigned grid_for(int64_t units)
{
    const int64_t max_blocks = 0x7fffffff;
    return (unsigned)(units < 1 ? 1 : units > max_blocks ? max_blocks : units);
}

// The matrix primitives (cp.async, ldmatrix, mma.sync) and the GEMM epilogue, at file scope:
// an #include inside an instance's namespace would put them there once and nowhere else.
#include "tileops_mma.cuh"
#include "tileops_gemm.cuh"

#endif
