// tileops_softmax.cuh: the reductions, exp terms and loads that only the softmax families use
// (generator/templates/softmax_*.cu), at file scope; included by tileops_device.cuh.
#ifndef TILEOPS_SOFTMAX_CUH
#define TILEOPS_SOFTMAX_CUH

// grid.sync for the split family's cooperative launch. Without libcu++ (CG's own type
// traits): with it the header cost ~1 s of nvcc time in every generated file.
#define _CG_LIMIT_INCLUDED_DEPENDENCIES
#include <cooperative_groups.h>

// Whether every fp32 value below 2^-126 (what an .ftz instruction flushes) rounds to 0 in
// the type anyway: f16 only (its smallest subnormal is 2^-24).
static __host__ __device__ constexpr bool ftz_invisible(const float *) { return false; }
static __host__ __device__ constexpr bool ftz_invisible(const __half *) { return true; }
static __host__ __device__ constexpr bool ftz_invisible(const __nv_bfloat16 *) { return false; }

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

// f16 and bf16: pairs P (__half2, __nv_bfloat162) compared packed from sm80 on.
template <typename P, typename T>
static __device__ __forceinline__ float max_nan_of_pairs(const T *v, int n)
{
#if __CUDA_ARCH__ >= 800
    if (n % 2 == 0) {
        const P *p = (const P *)v;
        P m = p[0];
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

static __device__ __forceinline__ float max_nan_of(const __half *v, int n)
{
    return max_nan_of_pairs<__half2>(v, n);
}

static __device__ __forceinline__ float max_nan_of(const __nv_bfloat16 *v, int n)
{
    return max_nan_of_pairs<__nv_bfloat162>(v, n);
}

// ---- a split row's arrivals (acquire / release) ----------------------------------------

static __device__ __forceinline__ unsigned load_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// *p += v, ordered after this thread's earlier writes for whoever acquires *p (a release
// reduction: no MEMBAR.SC.GPU of a __threadfence first)
static __device__ __forceinline__ void add_release(unsigned *p, unsigned v)
{
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// ---- (max, sum) reductions -------------------------------------------------------------

// exp(x - m): 0 for x = -inf and m finite; NaN when both are -inf.
static __device__ __forceinline__ float exp_from(float x, float m)
{
    return fast_exp2((x - m) * TILEOPS_LOG2E);
}

// The same as one FFMA, x * log2(e) - m * log2(e) (m2 = m * TILEOPS_LOG2E), written
// differently on purpose: a write loop recomputes exp from the loaded elements instead of the
// compiler keeping every exp of a sum loop alive in registers.
static __device__ __forceinline__ float exp_scaled(float x, float m2)
{
    return fast_exp2(fmaf(x, TILEOPS_LOG2E, -m2));
}

// A thread first reduces its own elements to (max m, sum of exp(x - m)); teams then merge
// those pairs, rescaling each sum to the larger max. A pair with m = -inf (no finite element)
// carries sum 0; a NaN max makes the merged sum NaN. Merges (bm, bs) into (m, s).
static __device__ __forceinline__ void softmax_merge(float &m, float &s, float bm, float bs)
{
    const float nm = max_nan(m, bm);
    s = nm == -INFINITY ? s + bs
                        : s * fast_exp2((m - nm) * TILEOPS_LOG2E) +
                              bs * fast_exp2((bm - nm) * TILEOPS_LOG2E);
    m = nm;
}

// Folds a candidate max cm (of elements about to be summed) into a thread's running (m, s):
// where the max grows, s is rescaled to it (to 0 where m was -inf: no finite element yet,
// and exp(-inf - -inf) summed NaN), and m2 = m * TILEOPS_LOG2E follows. A NaN cm makes m and
// s NaN for good.
static __device__ __forceinline__ void softmax_fold_max(float &m, float &s, float &m2, float cm)
{
    const float nm = max_nan(m, cm);
    if (nm != m) {
        s = m == -INFINITY ? 0.0f : s * fast_exp2((m - nm) * TILEOPS_LOG2E);
        m = nm;
        m2 = m * TILEOPS_LOG2E;
    }
}

// One warp's (max, sum) pairs merged into every lane: the max over the warp first (no exp
// on the way), then each sum rescaled once to it and summed. A tree of five pair merges
// took two exps a level, one after another, on the path to the grid barrier of the split.
// s must be 0 where m is -inf (no finite element); a NaN m makes the merged s NaN.
static __device__ __forceinline__ void softmax_warp_merge(float &m, float &s)
{
    float wm = m;
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        wm = max_nan(wm, __shfl_xor_sync(0xffffffffu, wm, o));
    if (wm != -INFINITY) // else every lane is -inf with s = 0 (and -inf - -inf is NaN)
        s *= fast_exp2((m - wm) * TILEOPS_LOG2E);
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    m = wm;
}

// Partials (max, sum) rp[i], i = first, first + step, ... < np, folded into (m, s): each
// two 16-byte loads (four partials, in flight together) reduced to their max first, then each
// sum rescaled once to it, so the exps do not chain (a merge a partial, two exps each, did:
// after the split's grid barrier). np even, rp 16-byte aligned. s is 0 where m is -inf; a NaN
// max anywhere makes (m, s) NaN.
static __device__ __forceinline__ void softmax_partials_fold(const float2 *rp, int np,
                                                             int first, int step, float &m,
                                                             float &s)
{
    const float4 *r4 = (const float4 *)rp; // two partials each
    m = -INFINITY;
    s = 0.0f;
    for (int i0 = first; i0 < np / 2; i0 += 2 * step) {
        float4 q[2];
#pragma unroll
        for (int k = 0; k < 2; k++) {
            const int i = i0 + k * step;
            q[k] = i < np / 2 ? __ldcg(r4 + i) : make_float4(-INFINITY, 0.0f, -INFINITY, 0.0f);
        }
        const float nm = max_nan(max_nan(m, max_nan(q[0].x, q[0].z)), max_nan(q[1].x, q[1].z));
        if (nm != -INFINITY) {
            s = m == -INFINITY ? 0.0f : s * fast_exp2((m - nm) * TILEOPS_LOG2E);
#pragma unroll
            for (int k = 0; k < 2; k++) {
                s += q[k].x == -INFINITY ? 0.0f : q[k].y * fast_exp2((q[k].x - nm) * TILEOPS_LOG2E);
                s += q[k].z == -INFINITY ? 0.0f : q[k].w * fast_exp2((q[k].z - nm) * TILEOPS_LOG2E);
            }
        }
        m = nm;
    }
}

// Merge over a team of `warps` warps (a compile-time constant after inlining): the warp's part
// by softmax_warp_merge (faster on the H200 than a tree of pair merges: f16 4096 x 128256 570.9
// -> 564.5 us); with several warps, one team per block, warps meet through red[warps], and the
// caller puts a barrier between two uses of the same array.
static __device__ __forceinline__ void softmax_team_merge(float &m, float &s, float2 *red,
                                                          int warps)
{
    softmax_warp_merge(m, s);
    if (warps == 1)
        return;
    if (threadIdx.x % 32 == 0)
        red[threadIdx.x / 32] = make_float2(m, s);
    __syncthreads();
    m = -INFINITY;
    s = 0.0f;
#pragma unroll
    for (int w = 0; w < warps; w++)
        softmax_merge(m, s, red[w].x, red[w].y);
}

// v reduced over a team of `warps` warps into every lane (a compile-time constant after
// inlining): shuffles within each warp, then, with several warps (one team a block), through
// red[warps] and a barrier; the caller puts a barrier between two uses of the same array.
// is_max: the NaN-propagating max, else the sum.
static __device__ __forceinline__ float softmax_team_reduce(float v, float *red, int warps,
                                                            bool is_max)
{
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
        const float w = __shfl_xor_sync(0xffffffffu, v, o);
        v = is_max ? max_nan(v, w) : v + w;
    }
    if (warps == 1)
        return v;
    if (threadIdx.x % 32 == 0)
        red[threadIdx.x / 32] = v;
    __syncthreads();
    v = red[0];
#pragma unroll
    for (int w = 1; w < warps; w++)
        v = is_max ? max_nan(v, red[w]) : v + red[w];
    return v;
}

// One output element: plain exp(v - m) / s (scale = 1 / s), log (v - m) - log(s) (scale =
// log(s)).
static __device__ __forceinline__ float softmax_output(float v, float m, float m2, float scale,
                                                       bool log_mode)
{
    return log_mode ? (v - m) - scale : exp_scaled(v, m2) * scale;
}

// ---- exp terms and output vectors (the softmax templates) -------------------------------

// One term of a sum of exp(x - m), m2 = m * TILEOPS_LOG2E. scaled: one FFMA and one MUFU
// (exp_scaled); its argument is off by m's rounding times log2(e), up to |m| * 2^-23.6
// relative, the same for every term, which f16 and bf16 outputs do not see. Else exp_from,
// one instruction more and exact up to (x - m)'s own rounding, for f32.
static __device__ __forceinline__ float exp_term(float x, float m, float m2, bool scaled)
{
    return scaled ? exp_scaled(x, m2) : exp_from(x, m);
}

// Writes the outputs of one vector of inputs to y[i...] (softmax_output of each element).
// `in` is in registers: given a reference into the stage, the compiler read it an element at
// a time.
template <typename V, typename T>
static __device__ __forceinline__ void softmax_write_vec(T *y, int i, const V &in, float m,
                                                         float m2, float scale, bool log_mode)
{
    constexpr int VEC = sizeof(V) / sizeof(T);
    V o;
#pragma unroll
    for (int j = 0; j < VEC; j++)
        from_f32(softmax_output(to_f32(in.v[j]), m, m2, scale, log_mode), &o.v[j]);
    store_stream((V *)(y + i), o);
}

// ---- 16-byte loads into registers with an L2 prefetch (the softmax templates) -----------
// 16 bytes at p through the non-coherent path, not allocated in L1, with a 256-byte L2
// prefetch: ld.global.nc.L1::no_allocate.L2::256B (LDG.E.NA.LTC256B.128.CONSTANT on sm_90).
// The prefetch size needs sm_75 PTX; below that it is a plain load. The non-coherent path
// is safe for softmax in place (y == x): every element is read once, before any thread
// writes it, and nothing written in the kernel is read back by it. Raw 32-bit words: a
// vector of halves returned from here was split into 16-bit registers at once, and the f16
// kernel ran 3% behind the same loads kept as words (32768 x 4096 on the H200).
static __device__ __forceinline__ uint4 load_prefetch16(const void *p)
{
    uint4 v;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
#else
    v = *(const uint4 *)p;
#endif
    return v;
}

#endif
