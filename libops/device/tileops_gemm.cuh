// tileops_gemm.cuh: what the GEMM templates (sm70, sm80, small-M) share: the fused epilogue on
// 8 consecutive columns of one output row, and fit()'s alignment test. Their cost model is host
// code in the library (libops/cost_model.h). Included at file scope after the
// tileops_gemm_args definition (op_args.h) and tileops_mma.cuh, never inside an instance
// namespace.
//   D[r][c] = act(alpha * acc + beta * C[r][c] + bias[c])
// with fp32 arithmetic and one rounding to the element type at the end.
#ifndef TILEOPS_GEMM_CUH
#define TILEOPS_GEMM_CUH

#include <mma.h> // wmma, for gemm_sm70

// 1/x in one MUFU.RCP (rel. error ~1 ulp; 0 for |x| past 2^126, inf at 0). __frcp_rn, the
// correctly rounded one, is a software sequence that made the GELU epilogue cost 26%.
static __device__ __forceinline__ float fast_rcp(float x)
{
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

// GELU, erf form: x * Phi(x), Phi(x) = 1 - erfc(x/sqrt2)/2 for x >= 0, erfc(|x|/sqrt2)/2
// below, with erfc(z) = t·poly(t)·e^(-z^2), t = 1/(1 + p·z) (Abramowitz & Stegun 7.1.26,
// absolute error under 1.5e-7; no cancellation on the negative side). A third of erff's
// instructions and no branches: the epilogue is not overlapped with any main loop.
static __device__ __forceinline__ float gelu_erf(float x)
{
    const float z = fabsf(x) * 0.70710678118654752f;
    const float t = fast_rcp(fmaf(0.3275911f, z, 1.0f));
    float poly = fmaf(1.061405429f, t, -1.453152027f);
    poly = fmaf(poly, t, 1.421413741f);
    poly = fmaf(poly, t, -0.284496736f);
    poly = fmaf(poly, t, 0.254829592f);
    const float half_erfc = 0.5f * t * poly * fast_exp2(-z * z * TILEOPS_LOG2E);
    return x * (x >= 0.0f ? 1.0f - half_erfc : half_erfc);
}

// GELU, tanh approximation (as in GPT-2 / PyTorch approximate='tanh'):
// 0.5·x·(1 + tanh(u)) = x / (1 + e^(-2u)), u = sqrt(2/pi)·(x + 0.044715·x^3): one ex2 and
// one reciprocal, accurate where 1 + tanh(u) is tiny.
static __device__ __forceinline__ float gelu_tanh(float x)
{
    const float two_u = 1.5957691216057308f * fmaf(0.044715f * x, x * x, x);
    return x * fast_rcp(1.0f + fast_exp2(-two_u * TILEOPS_LOG2E));
}

// The activation of an epilogue's flags (validation allows at most one; if several were set
// the order here decides: GELU erf, GELU tanh, ReLU). GEMM_ACT_FLAGS: read from the flags at
// each use (a caller with one code path for all of them).
enum { GEMM_ACT_FLAGS = -1, GEMM_ACT_NONE, GEMM_ACT_RELU, GEMM_ACT_GELU_TANH, GEMM_ACT_GELU_ERF };
static __device__ __forceinline__ int gemm_act(unsigned flags)
{
    return flags & TILEOPS_EPILOGUE_GELU_ERF    ? GEMM_ACT_GELU_ERF
           : flags & TILEOPS_EPILOGUE_GELU_TANH ? GEMM_ACT_GELU_TANH
           : flags & TILEOPS_EPILOGUE_RELU      ? GEMM_ACT_RELU
                                                : GEMM_ACT_NONE;
}

// Activation ACT (not GEMM_ACT_FLAGS) on one value.
template <int ACT> static __device__ __forceinline__ float gemm_activate(float x)
{
    return ACT == GEMM_ACT_GELU_ERF    ? gelu_erf(x)
           : ACT == GEMM_ACT_GELU_TANH ? gelu_tanh(x)
           : ACT == GEMM_ACT_RELU      ? (x < 0.0f ? 0.0f : x) // NaN stays NaN
                                       : x;
}

// Activation ACT (not GEMM_ACT_FLAGS) on 8 values.
struct gemm_f8 {
    float v[8];
};
template <int ACT>
static __device__ __forceinline__ gemm_f8 gemm_activate8_inline(gemm_f8 x)
{
#pragma unroll
    for (int i = 0; i < 8; i++)
        x.v[i] = gemm_activate<ACT>(x.v[i]);
    return x;
}
// GELU out of line, for the epilogues that are unrolled 16 times a thread: with both GELU
// bodies inlined in each copy the 128x256 kernel's epilogue took 245 of 600 us at 4096^3 on the
// H200, for ReLU as much as for GELU (the code the warps walk through no longer fit the
// instruction cache). ReLU, one instruction a value, stays inline.
static __device__ __noinline__ gemm_f8 gemm_gelu8(gemm_f8 x, int act)
{
    return act == GEMM_ACT_GELU_ERF ? gemm_activate8_inline<GEMM_ACT_GELU_ERF>(x)
                                    : gemm_activate8_inline<GEMM_ACT_GELU_TANH>(x);
}

// v[0..cnt) = p[0..cnt) widened to fp32 (cnt in 1..8); the rest of v is left as it was.
// vec: one 16-byte load (p 16-byte aligned and cnt == 8).
template <typename T>
static __device__ __forceinline__ void load8_f32(const T *p, int cnt, bool vec, float (&v)[8])
{
    if (vec) {
        const uint4 u = *(const uint4 *)p;
        const uint32_t w[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
        for (int i = 0; i < 4; i++) {
            v[2 * i] = bits_to_f32((unsigned short)(w[i] & 0xffff), p);
            v[2 * i + 1] = bits_to_f32((unsigned short)(w[i] >> 16), p);
        }
    } else {
        const unsigned short *q = (const unsigned short *)p;
#pragma unroll
        for (int i = 0; i < 8; i++)
            if (i < cnt)
                v[i] = bits_to_f32(q[i], p);
    }
}

// p[0..cnt) = v rounded to T. vec: one 16-byte store (p 16-byte aligned and cnt == 8).
template <typename T>
static __device__ __forceinline__ void store8_f32(T *p, int cnt, bool vec, const float (&v)[8])
{
    uint32_t w[4];
#pragma unroll
    for (int i = 0; i < 4; i++)
        w[i] = pack2(v[2 * i], v[2 * i + 1], (const T *)0);
    if (vec) {
        *(uint4 *)p = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
        unsigned short *q = (unsigned short *)p;
#pragma unroll
        for (int i = 0; i < 8; i++)
            if (i < cnt)
                q[i] = (unsigned short)(w[i / 2] >> (16 * (i % 2)));
    }
}

// The epilogues' staging in shared memory (gemm_sm80, gemm_small_m). One m16 x n8 accumulator
// fragment: c[0..1] at row g (q, this lane's two columns), c[2..3] at row g + 8.
static __device__ __forceinline__ void stage_frag_f32(unsigned char *q, int pitch,
                                                      const float (&c)[4])
{
    *(float2 *)q = make_float2(c[0], c[1]);
    *(float2 *)(q + 8 * pitch) = make_float2(c[2], c[3]);
}

// 8 staged fp32 (32 bytes at src, 16-byte aligned) into v.
static __device__ __forceinline__ void load8_staged(const unsigned char *src, float (&v)[8])
{
    const float4 lo = *(const float4 *)src, hi = *(const float4 *)(src + 16);
    v[0] = lo.x, v[1] = lo.y, v[2] = lo.z, v[3] = lo.w;
    v[4] = hi.x, v[5] = hi.y, v[6] = hi.z, v[7] = hi.w;
}

// bias[col .. col+8) widened to fp32 (clipped at N), zeros where there is none or no bias
// flag. A block's epilogue visits the same columns in every row it finishes: loaded once, ahead
// of the accumulators' staging, its latency no longer stalls each row (bias + ReLU cost 2.8%
// at 4096^3 with a load per row).
template <typename T>
static __device__ __forceinline__ void gemm_bias8(const tileops_gemm_args &p, int64_t col,
                                                  bool aligned, float (&b)[8])
{
#pragma unroll
    for (int i = 0; i < 8; i++)
        b[i] = 0.0f;
    const int64_t left = p.n - col;
    if ((p.epilogue & TILEOPS_EPILOGUE_BIAS) && p.bias && left > 0) {
        const int cnt = left < 8 ? (int)left : 8;
        load8_f32((const T *)p.bias + col, cnt, aligned && cnt == 8, b);
    }
}

// Finishes D[row][col .. col+8) (clipped at N) from v = the raw accumulators of those columns
// and b = gemm_bias8 of them: scale, add beta*C and bias, activate, round, store. aligned: the
// instance's 16-byte alignment guarantee holds (c, d, bias and their leading dimensions), so
// full chunks use 16-byte accesses. C is read before D is written, by this thread, so C may
// alias D exactly. row < M and col < N are the caller's to check. ACT: GEMM_ACT_FLAGS (the
// activation read from the flags; GELU out of line), or the activation itself, inline, for a
// caller that chose it once outside a rolled loop (one copy of the code per activation).
template <typename T, int ACT = GEMM_ACT_FLAGS>
static __device__ __forceinline__ void gemm_epilogue8_b(const tileops_gemm_args &p, int64_t row,
                                                        int64_t col, float (&v)[8],
                                                        const float (&b)[8], bool aligned)
{
    const int64_t left = p.n - col;
    const int cnt = left < 8 ? (int)left : 8;
    const bool vec = aligned && cnt == 8;
#pragma unroll
    for (int i = 0; i < 8; i++)
        v[i] *= p.alpha;
    if (p.c && p.beta != 0.0f) {
        float c[8];
        load8_f32((const T *)p.c + row * p.ldc + col, cnt, vec, c);
#pragma unroll
        for (int i = 0; i < 8; i++)
            if (i < cnt)
                v[i] = fmaf(p.beta, c[i], v[i]);
    }
#pragma unroll
    for (int i = 0; i < 8; i++)
        v[i] += b[i];
    const int act = ACT == GEMM_ACT_FLAGS ? gemm_act(p.epilogue) : ACT;
    if (act != GEMM_ACT_NONE) {
        gemm_f8 x;
#pragma unroll
        for (int i = 0; i < 8; i++)
            x.v[i] = v[i];
        if (ACT != GEMM_ACT_FLAGS)
            x = gemm_activate8_inline<ACT>(x);
        else if (act == GEMM_ACT_RELU)
            x = gemm_activate8_inline<GEMM_ACT_RELU>(x);
        else
            x = gemm_gelu8(x, act);
#pragma unroll
        for (int i = 0; i < 8; i++)
            v[i] = x.v[i];
    }
    store8_f32((T *)p.d + row * p.ldd + col, cnt, vec, v);
}

// gemm_epilogue8_b with the bias loaded here, for callers that visit a column chunk once.
template <typename T>
static __device__ __forceinline__ void gemm_epilogue8(const tileops_gemm_args &p, int64_t row,
                                                      int64_t col, float (&v)[8], bool aligned)
{
    float b[8];
    gemm_bias8<T>(p, col, aligned, b);
    gemm_epilogue8_b<T>(p, row, col, v, b, aligned);
}

// ---- split-K -----------------------------------------------------------------------------------

// The second kernel of a split-K GEMM: sums the splits' fp32 partials (workspace[split][m][ldw],
// ldw a multiple of 8) of 8 columns of one row per thread, in split order (deterministic), and
// finishes them with the epilogue. Launched with GEMM_REDUCE_THREADS threads a block, any grid.
constexpr int GEMM_REDUCE_THREADS = 256;
template <typename T>
static __device__ __forceinline__ void gemm_reduce_splits(const tileops_gemm_args &p, int splits,
                                                          int64_t ldw, bool aligned)
{
    const int64_t chunks_per_row = (p.n + 7) / 8;
    const int64_t total = p.m * chunks_per_row;
    const int64_t slice = p.m * ldw; // floats per split
    for (int64_t i = (int64_t)blockIdx.x * GEMM_REDUCE_THREADS + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * GEMM_REDUCE_THREADS) {
        const int64_t row = i / chunks_per_row, col = (i % chunks_per_row) * 8;
        const float *w = (const float *)p.workspace + row * ldw + col;
        float v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        const int cnt = p.n - col < 8 ? (int)(p.n - col) : 8; // columns past N were not written
        int s = 0;
        if (cnt == 8) {
            // four splits' loads in flight before their sums (one at a time, the kernel waited
            // on each load: 7.9 us for 4 splits of 128 x 4096 on the H200)
            for (; s + 4 <= splits; s += 4, w += 4 * slice) {
                float4 lo[4], hi[4];
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    lo[u] = *(const float4 *)(w + u * slice);
                    hi[u] = *(const float4 *)(w + u * slice + 4);
                }
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    v[0] += lo[u].x; v[1] += lo[u].y; v[2] += lo[u].z; v[3] += lo[u].w;
                    v[4] += hi[u].x; v[5] += hi[u].y; v[6] += hi[u].z; v[7] += hi[u].w;
                }
            }
        }
        for (; s < splits; s++, w += slice) {
            if (cnt == 8) {
                const float4 lo = *(const float4 *)w, hi = *(const float4 *)(w + 4);
                v[0] += lo.x; v[1] += lo.y; v[2] += lo.z; v[3] += lo.w;
                v[4] += hi.x; v[5] += hi.y; v[6] += hi.z; v[7] += hi.w;
            } else {
                for (int j = 0; j < cnt; j++)
                    v[j] += w[j];
            }
        }
        gemm_epilogue8<T>(p, row, col, v, aligned);
    }
}

// Blocks for gemm_reduce_splits over an m x n result (a grid-stride loop past 65535).
static inline unsigned gemm_reduce_blocks(int64_t m, int64_t n)
{
    const int64_t chunks = m * ((n + 7) / 8);
    const int64_t blocks = (chunks + GEMM_REDUCE_THREADS - 1) / GEMM_REDUCE_THREADS;
    return (unsigned)(blocks < 65535 ? blocks : 65535);
}

// ---- host side --------------------------------------------------------------------------------

// Whether the call meets an ALIGNED=1 instance's requirement: every pointer it touches 16-byte
// aligned and every leading dimension a multiple of 8 elements (16 bytes).
static inline bool gemm_aligned16(const tileops_gemm_args *p)
{
    uintptr_t ptrs = (uintptr_t)p->a | (uintptr_t)p->b | (uintptr_t)p->d;
    int64_t lds = p->lda | p->ldb | p->ldd;
    if (p->c && p->beta != 0.0f) {
        ptrs |= (uintptr_t)p->c;
        lds |= p->ldc;
    }
    if ((p->epilogue & TILEOPS_EPILOGUE_BIAS) && p->bias)
        ptrs |= (uintptr_t)p->bias;
    return (ptrs & 15) == 0 && (lds & 7) == 0;
}

#endif
