// ref_attention.cu: what tileops-bench attention runs beside cuBLAS: random inputs, the
// softmax step of the unfused reference (fp32 scores in, 16-bit probabilities out, causal mask
// applied), and the largest difference between two outputs. Plain CUDA, compiled by nvcc into
// the bench only (see ref_attention.h).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "ref_attention.h"

static __device__ float ld(const __half *p) { return __half2float(*p); }
static __device__ float ld(const __nv_bfloat16 *p) { return __bfloat162float(*p); }
static __device__ void st(__half *p, float v) { *p = __float2half_rn(v); }
static __device__ void st(__nv_bfloat16 *p, float v) { *p = __float2bfloat16_rn(v); }

// ---- random inputs ------------------------------------------------------------------------

// splitmix64: a well-mixed 64-bit hash of one counter.
static __device__ uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <typename T>
static __global__ void fill_normal(T *x, int64_t n, uint64_t seed)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const uint64_t h = mix(seed * 0x2545f4914f6cdd1dull + (uint64_t)i);
        float u = 0.0f;
        for (int k = 0; k < 4; k++)
            u += (float)((h >> (16 * k)) & 0xffff) * (1.0f / 65536.0f);
        st(x + i, (u - 2.0f) * 1.7320508f); // Irwin-Hall(4): mean 2, variance 1/3
    }
}

extern "C" int ref_attention_fill(void *x, int bf16, int64_t n, uint64_t seed,
                                  cudaStream_t stream)
{
    const unsigned blocks = (unsigned)(n / 256 + 1 < 65536 ? n / 256 + 1 : 65536);
    if (bf16)
        fill_normal<<<blocks, 256, 0, stream>>>((__nv_bfloat16 *)x, n, seed);
    else
        fill_normal<<<blocks, 256, 0, stream>>>((__half *)x, n, seed);
    return (int)cudaGetLastError();
}

// ---- softmax of the reference -----------------------------------------------------------

#define SOFTMAX_THREADS 256

// Online (max, sum of exp(x - max)) of two partial rows merged.
static __device__ void merge(float &m, float &l, float m2, float l2)
{
    const float mm = fmaxf(m, m2);
    if (mm == -INFINITY)
        return; // both empty
    l = l * __expf(m - mm) + l2 * __expf(m2 - mm);
    m = mm;
}

static __device__ void add(float &m, float &l, float x)
{
    if (x > m) {
        l = l * __expf(m - x) + 1.0f;
        m = x;
    } else {
        l += __expf(x - m);
    }
}

// A scaled score under softcap `cap` (0: none): cap · tanh(x / cap), accurately.
static __device__ __forceinline__ float capped(float x, float cap)
{
    return cap > 0.0f ? cap * tanhf(x / cap) : x;
}

// One block per row of `heads` [sq, skv] score matrices, each score under softcap `cap`
// first. VEC: skv % 4 == 0, rows read as float4 and written 4 elements at a time.
template <typename T, bool VEC>
static __global__ void __launch_bounds__(SOFTMAX_THREADS)
softmax_rows(const float *s, T *p, int64_t sq, int64_t skv, int causal, float cap)
{
    const int64_t row = blockIdx.x, i = row % sq;
    const float *x = s + row * skv;
    T *y = p + row * skv;
    int64_t n = skv; // keys this row sees
    if (causal) {
        n = i + skv - sq + 1;
        n = n < 0 ? 0 : n > skv ? skv : n;
    }
    float m = -INFINITY, l = 0.0f;
    if (VEC) {
        const int64_t n4 = n / 4;
        for (int64_t j = threadIdx.x; j < n4; j += SOFTMAX_THREADS) {
            const float4 v = reinterpret_cast<const float4 *>(x)[j];
            add(m, l, capped(v.x, cap));
            add(m, l, capped(v.y, cap));
            add(m, l, capped(v.z, cap));
            add(m, l, capped(v.w, cap));
        }
        for (int64_t j = n4 * 4 + threadIdx.x; j < n; j += SOFTMAX_THREADS)
            add(m, l, capped(x[j], cap));
    } else {
        for (int64_t j = threadIdx.x; j < n; j += SOFTMAX_THREADS)
            add(m, l, capped(x[j], cap));
    }
    for (int off = 16; off > 0; off >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, off);
        const float l2 = __shfl_xor_sync(0xffffffffu, l, off);
        merge(m, l, m2, l2);
    }
    __shared__ float sm[SOFTMAX_THREADS / 32], sl[SOFTMAX_THREADS / 32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        sm[warp] = m;
        sl[warp] = l;
    }
    __syncthreads();
    m = sm[0];
    l = sl[0];
    for (int w = 1; w < SOFTMAX_THREADS / 32; w++)
        merge(m, l, sm[w], sl[w]);
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    if (VEC) {
        for (int64_t j = threadIdx.x; j < skv / 4; j += SOFTMAX_THREADS) {
            const float4 v = reinterpret_cast<const float4 *>(x)[j];
            const float e[4] = {v.x, v.y, v.z, v.w};
            for (int k = 0; k < 4; k++)
                st(y + 4 * j + k, 4 * j + k < n ? __expf(capped(e[k], cap) - m) * inv : 0.0f);
        }
    } else {
        for (int64_t j = threadIdx.x; j < skv; j += SOFTMAX_THREADS)
            st(y + j, j < n ? __expf(capped(x[j], cap) - m) * inv : 0.0f);
    }
}

template <typename T>
static void launch_softmax(const float *s, void *p, int64_t rows, int64_t sq, int64_t skv,
                           int causal, float cap, cudaStream_t stream)
{
    if (skv % 4 == 0)
        softmax_rows<T, true><<<(unsigned)rows, SOFTMAX_THREADS, 0, stream>>>(s, (T *)p, sq, skv,
                                                                              causal, cap);
    else
        softmax_rows<T, false><<<(unsigned)rows, SOFTMAX_THREADS, 0, stream>>>(s, (T *)p, sq,
                                                                               skv, causal, cap);
}

extern "C" int ref_attention_softmax(const float *s, void *p, int bf16, int64_t heads,
                                     int64_t seqlen_q, int64_t seqlen_kv, int causal,
                                     float softcap, cudaStream_t stream)
{
    const int64_t rows = heads * seqlen_q;
    if (rows < 1 || rows > INT32_MAX || seqlen_kv < 1)
        return (int)cudaErrorInvalidValue;
    if (bf16)
        launch_softmax<__nv_bfloat16>(s, p, rows, seqlen_q, seqlen_kv, causal, softcap, stream);
    else
        launch_softmax<__half>(s, p, rows, seqlen_q, seqlen_kv, causal, softcap, stream);
    return (int)cudaGetLastError();
}

// ---- the largest difference ---------------------------------------------------------------

template <typename T>
static __global__ void max_diff(const T *a, const T *b, int64_t n, float *out)
{
    float worst = 0.0f;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const float d = fabsf(ld(a + i) - ld(b + i));
        worst = d != d ? INFINITY : fmaxf(worst, d);
    }
    for (int off = 16; off > 0; off >>= 1)
        worst = fmaxf(worst, __shfl_xor_sync(0xffffffffu, worst, off));
    // non-negative floats order as their bit patterns
    if (threadIdx.x % 32 == 0)
        atomicMax(reinterpret_cast<unsigned int *>(out), __float_as_uint(worst));
}

extern "C" int ref_attention_max_diff(const void *a, const void *b, int bf16, int64_t n,
                                      float *out, cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(out, 0, sizeof(float), stream);
    if (e != cudaSuccess)
        return (int)e;
    const unsigned blocks = (unsigned)(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096);
    if (bf16)
        max_diff<<<blocks, 256, 0, stream>>>((const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b,
                                             n, out);
    else
        max_diff<<<blocks, 256, 0, stream>>>((const __half *)a, (const __half *)b, n, out);
    return (int)cudaGetLastError();
}
