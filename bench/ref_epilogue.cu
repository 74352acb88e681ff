// ref_epilogue.cu: the "unfused" reference of tileops-bench gemm: a separate kernel that adds
// a bias and applies ReLU or GELU (tanh form) to D in place, as an engine without fused
// epilogues would run after its GEMM. Plain CUDA, compiled by nvcc into the bench only.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "ref_epilogue.h"

template <typename T> static __device__ float ld(const T *p);
template <> __device__ float ld(const __half *p) { return __half2float(*p); }
template <> __device__ float ld(const __nv_bfloat16 *p) { return __bfloat162float(*p); }
static __device__ void st(__half *p, float v) { *p = __float2half_rn(v); }
static __device__ void st(__nv_bfloat16 *p, float v) { *p = __float2bfloat16_rn(v); }

template <typename T>
static __global__ void bias_act(T *d, int64_t m, int64_t n, int64_t ldd, const T *bias, int gelu)
{
    const int64_t total = m * n;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t r = i / n, c = i % n;
        float v = ld(d + r * ldd + c) + ld(bias + c);
        if (gelu)
            v = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
        else
            v = v < 0.0f ? 0.0f : v;
        st(d + r * ldd + c, v);
    }
}

extern "C" int ref_bias_act(void *d, int bf16, int64_t m, int64_t n, int64_t ldd,
                            const void *bias, int gelu, cudaStream_t stream)
{
    const int64_t total = m * n;
    const unsigned blocks = (unsigned)(total / 256 + 1 < 65536 * 8 ? total / 256 + 1 : 65536 * 8);
    if (bf16)
        bias_act<<<blocks, 256, 0, stream>>>((__nv_bfloat16 *)d, m, n, ldd,
                                             (const __nv_bfloat16 *)bias, gelu);
    else
        bias_act<<<blocks, 256, 0, stream>>>((__half *)d, m, n, ldd, (const __half *)bias, gelu);
    return (int)cudaGetLastError();
}
