// tileops_gemm.cuh: what the GEMM templates (sm70, sm80, small-M) share: the fused epilogue on
// 8 consecutive columns of one output row, and the host side of launch() and fit() (alignment
// test, shared-memory opt-in, cost model). Included at file scope after the
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

// Activation ACT (not GEMM_ACT_FLAGS) on 8 values.
struct gemm_f8 {
    float v[8];
};
template <int ACT>
static __device__ __forceinline__ gemm_f8 gemm_activate8_inline(gemm_f8 x)
{
#pragma unroll
    for (int i = 0; i < 8; i++)
        x.v[i] = ACT == GEMM_ACT_GELU_ERF    ? gelu_erf(x.v[i])
                 : ACT == GEMM_ACT_GELU_TANH ? gelu_tanh(x.v[i])
                 : ACT == GEMM_ACT_RELU      ? (x.v[i] < 0.0f ? 0.0f : x.v[i]) // NaN stays NaN
                                             : x.v[i];
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

// Rough run time in ns of `blocks` blocks of `block_flops` each on `sms` SMs (the handle's
// device), `per_sm` resident per SM, a
// block of this tile shape reaching `tile_eff` (0..1) of an SM's nominal mma.sync rate,
// against `bytes` of compulsory DRAM traffic. Only ranks candidates until the tuned tables
// exist; nominal figures are an H100/H200 (4 TFLOP/s per SM with mma.sync, 3.3 TB/s).
// The attention templates' fit() use it; the GEMM templates use gemm_time_ns below, which
// charges a block that has an SM to itself at the SM's full rate (this one charges per_sm
// block-times a wave even when there are fewer blocks than SMs).
static inline int64_t gemm_cost_ns(int sms, int64_t blocks, int per_sm, double block_flops,
                                   double tile_eff, double bytes)
{
    const int64_t slots = (int64_t)sms * (per_sm < 1 ? 1 : per_sm);
    const int64_t waves = (blocks + slots - 1) / slots;
    // Blocks sharing an SM share its rate: a wave of per_sm blocks takes per_sm block-times.
    const double compute = (double)waves * (per_sm < 1 ? 1 : per_sm) * block_flops / (4000.0 * tile_eff);
    const double memory = bytes / 3300.0;
    return (int64_t)((compute > memory ? compute : memory) + 3000.0);
}

// ---- the GEMM cost model (fit() of gemm_sm80, gemm_small_m, gemm_sm70) -------------------------
//
// Time of the busiest SM, which holds nb = ceil(blocks / sms) blocks (up to per_sm at once,
// sharing its rate; a block alone has the whole SM):
//   max(nb * block_flops / (4 TFLOP/s * tile_eff),  nb * block_bytes / bw)
//   + ceil(nb / per_sm) * 2.5 us   (a block's start: pipeline fill, epilogue; overlapped by
//                                   the other resident blocks)
// where block_bytes is what a block streams through its pipeline (small-M: its slice of B, from
// DRAM; tiled: its A and B panels, (BM+BN)*K*2, mostly from L2) and bw = min(sm_bw, bytes in
// flight on the SM / latency_ns) (Little's law; inflight = one block's bytes in flight,
// STAGES-1 stages of B (small-M) or of A and B (tiled), resident blocks add theirs; sm_bw =
// gemm_stream_bw below for small-M, no cap (0) for the tiled kernels; latency: GEMM_LAT_DRAM_NS
// for small-M, GEMM_LAT_TILED_NS tiled). Floor: dram_bytes at 4.0 TB/s. Plus 6.5 us (launch,
// first fill).
// Calibrated on the H200 (bf16, B as [N,K], L2 flushed; tileops-bench or drafts/gemm_sweep,
// bench/RESULTS.md; model in brackets): 128x256x32 s6 at 4096^3 336-342 us (352); 128x256 at
// 128x4096x4096, 16 blocks, ~90 us (93); 64x64 at 16x128256x4096 ~296 us (303); 64x64 s4 at
// 128x4096x4096 45.8 (45.3), 128x4096x11008 105.3 (106.5), 128x11008x4096 59.8 (62.7), 1024^3
// 15.5 (18.1); 128x128 s4 at 128x11008x4096 62.3-62.8 (54.7), 128x14336x4096 65.4 (54.7: the
// model is 13-16% short for one 128x128 block an SM; not refitted, nothing measured beside it
// at N = 14336); small-M (all B as [N,K]): n32 k256 kw4 s8 (one split) at 1x4096x4096
// 15.9-17.2 (15.9), 16x4096x4096 17.2 (15.9), 1x11008x4096 35.2-35.3 (34.7), 16x11008x4096
// 35.6 (34.7), 1x14336x4096 44.4-44.9 (44.1: 448 blocks, 4 rounds), 16x4096x11008 32.6 (29.2);
// n128 k128 s4 (one split, 112 blocks) at 1x14336x4096 39.3-40.2 (41.3), 16x14336x4096 40.5
// (41.3); n128 k64 s6 at 1x11008x4096 with 3 splits 37.9 (35.7), 1x14336x4096 with 2 splits
// 45.4 (45.8), 16x4096x4096 with 8 splits 19.3-20.7 (21.6), 1x128256x4096 one split
// 254.4-263.1 (274.6), 16x128256x4096 257.6 (274.6); m64 n128 k64 s4 (pinned) at 128x4096x4096
// with 4 splits 31.4 (32.5), 128x4096x11008 57.8 (61.2). The split-K reduction's cost
// (gemm_small_m: 4.5 us) is fitted on the same rows.
// GEMM_LAT_TILED_NS: fitted to the two 64x64 rows at M = 128 (one block an SM, 24 KB in flight:
// 1 MB and 2.8 MB a block in 45.8 and 105.3 us, less starts and launch, give 862 and 840 ns).
// It leaves every other tiled row above compute-bound (128x256 s6 at 4096^3: 87 us of operand
// streaming under 336 of mma). GEMM_LAT_DRAM_NS: small-M's, fitted with gemm_stream_bw.
static constexpr double GEMM_LAT_DRAM_NS = 3000.0, GEMM_LAT_TILED_NS = 850.0;
static inline int64_t gemm_time_ns(int sms, int64_t blocks, int per_sm, double block_flops,
                                   double tile_eff, double block_bytes, double sm_bw,
                                   double inflight, double latency_ns, double dram_bytes)
{
    if (sms < 1)
        sms = 1;
    if (per_sm < 1)
        per_sm = 1;
    const int64_t nb = (blocks + sms - 1) / sms;
    const int64_t resident = nb < per_sm ? nb : per_sm;
    const int64_t starts = (nb + per_sm - 1) / per_sm;
    double bw = sm_bw > 0.0 ? sm_bw : 1e30; // bytes per ns; 0: only Little's law bounds it
    if (inflight > 0.0 && latency_ns > 0.0 && resident * inflight / latency_ns < bw)
        bw = resident * inflight / latency_ns;
    const double compute = (double)nb * block_flops / (4000.0 * tile_eff);
    const double stream = block_bytes > 0.0 ? (double)nb * block_bytes / bw : 0.0;
    const double busiest = (compute > stream ? compute : stream) + 2500.0 * (double)starts;
    const double dram = dram_bytes / 4000.0;
    return (int64_t)((busiest > dram ? busiest : dram) + 6500.0);
}

// The rate (bytes per ns) at which one SM streams B from DRAM, by the contiguous bytes of a B
// row one stage copies (BK * 2 as [N,K], BN * 2 as [K,N]). Fitted, not derived: rows of 512
// bytes (n32 k256 kw4) measured 38-40 GB/s an SM at N = 4096, 11008 and 14336; rows of 128 and
// 256 bytes (n128 k64 s6; n128 k128 s4) 31-35, and a second resident block did not raise it
// (n128 k64 s6, two blocks an SM: 1 MB an SM in 33 us at 1x14336x4096). The three kernels
// also differ in warps (8 vs 4): the row length is the best guess of the cause, not a finding.
static inline double gemm_stream_bw(int row_bytes)
{
    return row_bytes >= 512 ? 38.0 : 32.5;
}

// The mma.sync rate a bm x bn block tile reaches, as a fraction of the nominal: its operand
// bytes per flop fall as 1/intensity, intensity = bm*bn/(bm+bn). 1 - 17/intensity matches
// 128x256 (0.80: 3.2 TFLOP/s a SM, 4096^3 in 336 us) and 64x64 (0.47: 16x128256x4096 in
// 296 us, 16 blocks an SM); 128x128 gets 0.73 (the sweep: within 4% of 128x256 at 4096^3).
static inline double gemm_tile_eff(int bm, int bn)
{
    const double inten = (double)bm * bn / (bm + bn);
    const double e = 1.0 - 17.0 / inten;
    return e > 0.1 ? e : 0.1;
}

// Blocks of `threads` threads and `smem` bytes of shared memory resident on one SM of
// `smem_sm` bytes and `max_threads` threads, with about `regs` registers a thread (of 64K).
static inline int gemm_blocks_per_sm(int smem, int smem_sm, int threads, int max_threads, int regs)
{
    int n = smem > 0 ? smem_sm / smem : max_threads / threads;
    if (max_threads / threads < n)
        n = max_threads / threads;
    if (regs > 0 && 65536 / (regs * threads) < n)
        n = 65536 / (regs * threads);
    return n > 0 ? n : 1;
}

#endif
