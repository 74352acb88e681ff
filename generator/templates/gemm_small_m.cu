// Template gemm_small_m: D = epilogue(alpha * A·op(B) + beta * C) for small M (decode, M <= 128),
// where the cost is reading B once: split-K over the SMs with fp32 partials in the caller's
// workspace, then a reduction kernel that applies the epilogue. sm80 instruction set (cp.async,
// ldmatrix, mma.sync m16n8k16); also compiled for sm_90a.
//
// Reads from the generator: elem_t; the block tile BM x BN x BK (BM 16, 32 or 64: M is padded
// to it, the wasted mma cost nothing on a memory-bound shape); WARPS warps side by side along N,
// each owning BM x (BN/WARPS), times KWARPS along K (warp group g takes the k16 steps g,
// g + KWARPS, ... of each stage; their sums meet in shared memory at the end: narrow tiles get
// many blocks over N without splitting K across blocks); STAGES shared-memory stages in flight
// (deep: bytes in flight are what a memory-bound kernel lives on); ALIGNED and LAYOUT as
// gemm_sm80.
// Uses tileops_mma.cuh, tileops_gemm.cuh and the host cost model of libops/cost_model.h
// (included by tileops_device.cuh); the fragment path is gemm_mma_frags.cuh, shared with
// gemm_sm80.
//
// Grid (n tiles, m tiles, splits): block z computes its BM x BN tile over k tiles
// [z*per, (z+1)*per). With one split it finishes D itself, as gemm_sm80 does. With more it
// writes fp32 partials to workspace[z][m][ldw] (ldw = N rounded up to 8, so rows stay 16-byte
// aligned), and `reduce` sums the splits in order (deterministic) and runs the epilogue.
// The split count is planned on the host from the shape and SM count, the same way by fit()
// (which reports the workspace) and launch() (which falls back to fewer splits when the
// workspace it is given is smaller).

constexpr int NTHREADS = WARPS * KWARPS * 32;
constexpr int WM = BM, WN = BN / WARPS;  // one warp's tile
constexpr int MI = WM / 16, NI = WN / 8; // its m16 x n8 mma tiles
constexpr int KSTEPS = BK / 16;
constexpr int JSTEPS = KSTEPS / KWARPS;  // the k16 steps of a stage one warp takes
constexpr bool B_KN = LAYOUT == LAYOUT_KN;
// fit() leaves larger M to gemm_sm80. Up to 128 rows (two m64 tiles, B read twice, the second
// time mostly from L2): at M = 128 gemm_sm80's 64x64 tiles are one 4-warp block an SM with 24
// KB in flight (128x4096x4096 in 45.8 us, 0.42 of cuBLAS); m64 n128 k64 s4 with split-K is 256
// blocks of 96 KB, two an SM: 31.4 us there (0.61), 57.8 at 128x4096x11008 (0.67; 64x64:
// 105.3). fit() weighs them (gemm_sm80's Little's-law operand term); at N = 11008 and 14336
// it keeps gemm_sm80's 128x128 (m64 n128 unmeasured there).
constexpr int MAX_M = 128;

constexpr int A_ROW_BYTES = BK * 2;
constexpr int B_ROW_BYTES = (B_KN ? BN : BK) * 2;
constexpr int A_STAGE_BYTES = BM * BK * 2;
constexpr int STAGE_BYTES = A_STAGE_BYTES + BN * BK * 2;

// Copies, as gemm_sm80; A may have fewer chunks than there are threads (BM = 16).
constexpr int A_CPR = BK / 8, A_RS = NTHREADS / A_CPR;
constexpr int A_ITERS = (BM + A_RS - 1) / A_RS;
constexpr int B_CPR = B_ROW_BYTES / 16, B_RS = NTHREADS / B_CPR;
constexpr int B_ITERS = (B_KN ? BK : BN) / B_RS;
constexpr int ROWS_STEP_BYTES = NTHREADS * 16;
// swz_off's pattern repeats every 8 rows of at least 128 bytes (rows of 64 bytes pair up):
// a thread's rows may step by RS only if RS rows are a whole number of those periods.
constexpr int swizzle_period(int row_bytes) { return 8 * (row_bytes > 128 ? row_bytes : 128); }
static_assert(A_RS * A_ROW_BYTES == ROWS_STEP_BYTES && B_RS * B_ROW_BYTES == ROWS_STEP_BYTES &&
                  ROWS_STEP_BYTES % swizzle_period(A_ROW_BYTES) == 0 &&
                  ROWS_STEP_BYTES % swizzle_period(B_ROW_BYTES) == 0,
              "copy rows step by whole swizzle periods");
static_assert(A_ITERS == 1 || BM % A_RS == 0, "A stage splits evenly over the threads");

constexpr int EPI_PITCH = WN * 4 + 32;
constexpr int EPI_BYTES = WARPS * 16 * EPI_PITCH;
// after the epilogue's staging: the accumulators of the warps along K past the first
constexpr int RED_BYTES = (KWARPS - 1) * WARPS * 32 * MI * NI * 4 * 4;
constexpr int PIPE_BYTES = STAGES * STAGE_BYTES;
constexpr int SMEM_TOTAL = PIPE_BYTES > EPI_BYTES + RED_BYTES ? PIPE_BYTES : EPI_BYTES + RED_BYTES;
static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");

static_assert(LAYOUT == LAYOUT_KN || LAYOUT == LAYOUT_NK, "unknown layout");
static_assert(ALIGNED == 0 || ALIGNED == 1, "ALIGNED is 0 or 1");
static_assert(STAGES >= 2, "the pipeline needs two stages");
static_assert(BM == 16 || BM == 32 || BM == 64, "BM is 16, 32 or 64");
static_assert(BK == 32 || BK == 64 || BK == 128 || BK == 256, "BK is 32 to 256");
// two steps a warp at least: the stage turn sits in a warp's last step, after its first
// step issued the next copy (with one step, the wait would come before that commit)
static_assert(KWARPS >= 1 && KSTEPS % KWARPS == 0 && JSTEPS >= 2,
              "the warps along K share a stage's k16 steps, two or more each");
static_assert(WN % 16 == 0 && (WN & (WN - 1)) == 0, "BN / WARPS is a power of two >= 16");
static_assert(!B_KN || BN >= 64, "KN needs B rows of at least 128 bytes for its swizzle");
static_assert(NTHREADS % A_CPR == 0 && NTHREADS % B_CPR == 0 && (B_KN ? BK : BN) % B_RS == 0,
              "stages split evenly over the threads");
static_assert(SMEM_TOTAL <= 227 * 1024, "more shared memory than any GPU has");

// ---- the split plan -----------------------------------------------------------------------------

struct plan {
    int tiles_m, tiles_n;
    int splits; // blocks along K
    int per;    // k tiles per split (the last split may have fewer)
    int64_t ldw; // workspace row pitch in floats
    size_t ws;  // workspace bytes (0 with one split)
    int64_t time; // plan_time of this plan, ns
};

// tileops__gemm_time_ns (libops/cost_model.h) of this kernel with `splits` blocks along K of `per`
// k tiles each. Padding M to BM wastes mma, not bytes; small tiles run the mma at a low rate, which
// the efficiency term says. A block streams its slice of B (BN x per*BK) from DRAM at
// tileops__gemm_stream_bw of its B rows, with STAGES-1 stages of it in flight (ALIGNED=0: one, held
// in registers); A's re-reads by the other n tiles hit L2 (counting them made narrow tiles look 50%
// dearer than they measured). DRAM: B once per m tile, A once, partials written and read back, D
// (and C) once. A split pays the reduction: 4.5 us (its launch after the last block, partials;
// fitted: n128 k64 s6 with 2-3 splits at N = 11008 and 14336 ran 2-7 us over the copy time of the
// same bytes). Waves count: at 1x14336x4096, 448 n32 blocks are 4 rounds on 132 SMs (44.9 us
// measured) where 112 n128 k128 blocks are one (39.3-40.2).
static int64_t plan_time(const tileops_gemm_args *p, int tiles_m, int tiles_n, int64_t per,
                         int64_t splits, int64_t ldw)
{
    const double inten = (double)BM * BN / (BM + BN);
    const double eff = inten / (inten + 24.0) * (ALIGNED ? 1.0 : 0.5);
    const double bytes = 2.0 * ((double)p->n * p->k * tiles_m + (double)p->m * p->k +
                                (double)p->m * p->n * (p->c && p->beta != 0.0f ? 2 : 1)) +
                         (splits > 1 ? 8.0 * splits * p->m * ldw : 0.0);
    const int64_t blocks = (int64_t)tiles_m * tiles_n * splits;
    const int per_sm = tileops__gemm_blocks_per_sm(SMEM_TOTAL, 227 * 1024, NTHREADS, 2048, 0);
    return tileops__gemm_time_ns(p->sms, blocks, per_sm, 2.0 * BM * BN * per * BK, eff,
                                 2.0 * BN * per * BK, tileops__gemm_stream_bw(B_ROW_BYTES),
                                 2.0 * (ALIGNED ? STAGES - 1 : 1) * BN * BK,
                                 tileops__cost.lat_dram_ns, bytes) +
           (splits > 1 ? 4500 : 0);
}

// The split count with the lowest plan_time; more splits must win by 3%. Bounds: at least two
// k tiles per split so the pipeline still overlaps, and partials (8 bytes per split and output
// element, written then read) under half of B's 2*N*K bytes, i.e. splits <= K / (8 M) (a quarter,
// K / (16 M), allowed M = 128 at K = 4096 only 2 splits: 128 blocks, one an SM).
// `ws_limit` caps the workspace (launch passes the caller's, fit no limit).
static plan make_plan(const tileops_gemm_args *p, size_t ws_limit)
{
    plan pl;
    pl.tiles_m = (int)((p->m + BM - 1) / BM);
    pl.tiles_n = (int)((p->n + BN - 1) / BN);
    pl.ldw = (p->n + 7) / 8 * 8;
    const int64_t kt = (p->k + BK - 1) / BK;
    const size_t per_split = (size_t)p->m * (size_t)pl.ldw * sizeof(float);
    int64_t max_s = kt / 2;
    if (max_s > p->k / (8 * p->m))
        max_s = p->k / (8 * p->m);
    if (max_s > 256)
        max_s = 256;
    if (ws_limit / per_split < (size_t)max_s)
        max_s = (int64_t)(ws_limit / per_split);
    int64_t best_s = 1, best_t = plan_time(p, pl.tiles_m, pl.tiles_n, kt, 1, pl.ldw);
    for (int64_t s = 2; s <= max_s; s++) {
        const int64_t per = (kt + s - 1) / s, real = (kt + per - 1) / per;
        const int64_t t = plan_time(p, pl.tiles_m, pl.tiles_n, per, real, pl.ldw);
        if (t * 100 < best_t * 97) {
            best_t = t;
            best_s = real;
        }
    }
    pl.per = (int)((kt + best_s - 1) / best_s);
    pl.splits = (int)((kt + pl.per - 1) / pl.per); // no empty split
    pl.ws = pl.splits > 1 ? (size_t)pl.splits * per_split : 0;
    pl.time = best_t;
    return pl;
}

#include "gemm_mma_frags.cuh"

// ---- per-thread copy state (as gemm_sm80, with the block's own K range) ------------------------

struct copy_state {
    const elem_t *a, *b;
    int64_t a_step, b_step, b_tile;
    int k, k_end;     // next k tile's first k; end of this block's K range
    int a_row, a_col, b_row, b_col;
    uint32_t a_soff, b_soff;
    uint32_t a_in;    // bit j: A chunk j exists (row inside the BM tile)
    uint32_t a_ok;    // bit j: and that row is inside M
    uint32_t b_ok;    // NK: bit j: B row inside N
    int b_n_left;     // KN: columns of B left from this thread's chunk
};

struct stage_regs {
    unsigned short a[A_ITERS][8];
    unsigned short b[B_ITERS][8];
};

static __device__ __forceinline__ int chunk_bytes(int64_t left)
{
    return left >= 8 ? 16 : left > 0 ? (int)left * 2 : 0;
}

static __device__ __forceinline__ void copy_init(copy_state &cs, const tileops_gemm_args &p,
                                                 int64_t m0, int64_t n0, int k0, int k_end, int tid)
{
    cs.a_col = tid % A_CPR;
    cs.a_row = tid / A_CPR;
    cs.b_col = tid % B_CPR;
    cs.b_row = tid / B_CPR;
    cs.k = k0;
    cs.k_end = k_end;
    cs.a_soff = swz_off(cs.a_row, cs.a_col, A_ROW_BYTES);
    cs.b_soff = swz_off(cs.b_row, cs.b_col, B_ROW_BYTES);
    cs.a = (const elem_t *)p.a + (m0 + cs.a_row) * p.lda + k0 + cs.a_col * 8;
    cs.a_step = (int64_t)A_RS * p.lda;
    cs.b_step = (int64_t)B_RS * p.ldb;
    cs.a_in = cs.a_ok = 0;
    for (int j = 0; j < A_ITERS; j++)
        if (cs.a_row + j * A_RS < BM) {
            cs.a_in |= 1u << j;
            if (m0 + cs.a_row + j * A_RS < p.m)
                cs.a_ok |= 1u << j;
        }
    cs.b_ok = 0;
    if (B_KN) {
        cs.b = (const elem_t *)p.b + ((int64_t)k0 + cs.b_row) * p.ldb + n0 + cs.b_col * 8;
        cs.b_tile = (int64_t)BK * p.ldb;
        cs.b_n_left = (int)(p.n - (n0 + cs.b_col * 8) < 8 ? p.n - (n0 + cs.b_col * 8) : 8);
    } else {
        cs.b = (const elem_t *)p.b + (n0 + cs.b_row) * p.ldb + k0 + cs.b_col * 8;
        cs.b_tile = BK;
        cs.b_n_left = 0;
        for (int j = 0; j < B_ITERS; j++)
            if (n0 + cs.b_row + j * B_RS < p.n)
                cs.b_ok |= 1u << j;
    }
}

static __device__ __forceinline__ void copy_advance(copy_state &cs)
{
    cs.a += BK;
    cs.b += cs.b_tile;
    cs.k += BK;
}

// cp.async of the next k tile; zero-fill outside M, N and this block's K range.
static __device__ __forceinline__ void copy_async(copy_state &cs, const tileops_gemm_args &p,
                                                  uint32_t sA, uint32_t sB)
{
    const int a_bytes = chunk_bytes(cs.k_end - (cs.k + cs.a_col * 8));
    const elem_t *q = cs.a;
#pragma unroll
    for (int j = 0; j < A_ITERS; j++, q += cs.a_step) {
        if (!((cs.a_in >> j) & 1))
            continue;
        const int bytes = (cs.a_ok >> j) & 1 ? a_bytes : 0;
        cp_async_16(sA + cs.a_soff + j * ROWS_STEP_BYTES, bytes ? (const void *)q : p.a, bytes);
    }
    q = cs.b;
    if (B_KN) {
        const int n_bytes = cs.b_n_left > 0 ? cs.b_n_left * 2 : 0;
#pragma unroll
        for (int j = 0; j < B_ITERS; j++, q += cs.b_step) {
            const int bytes = cs.k + cs.b_row + j * B_RS < cs.k_end ? n_bytes : 0;
            cp_async_16(sB + cs.b_soff + j * ROWS_STEP_BYTES, bytes ? (const void *)q : p.b, bytes);
        }
    } else {
        const int k_bytes = chunk_bytes(cs.k_end - (cs.k + cs.b_col * 8));
#pragma unroll
        for (int j = 0; j < B_ITERS; j++, q += cs.b_step) {
            const int bytes = (cs.b_ok >> j) & 1 ? k_bytes : 0;
            cp_async_16(sB + cs.b_soff + j * ROWS_STEP_BYTES, bytes ? (const void *)q : p.b, bytes);
        }
    }
    copy_advance(cs);
}

// ALIGNED=0: the next k tile into registers.
static __device__ __forceinline__ void copy_fetch(copy_state &cs, const tileops_gemm_args &p,
                                                  stage_regs &r)
{
    const int a_left = cs.k_end - (cs.k + cs.a_col * 8);
    const elem_t *q = cs.a;
#pragma unroll
    for (int j = 0; j < A_ITERS; j++, q += cs.a_step)
        load_chunk(r.a[j], q, (cs.a_ok >> j) & 1 ? (a_left < 8 ? a_left : 8) : 0);
    q = cs.b;
    if (B_KN) {
#pragma unroll
        for (int j = 0; j < B_ITERS; j++, q += cs.b_step)
            load_chunk(r.b[j], q, cs.k + cs.b_row + j * B_RS < cs.k_end ? cs.b_n_left : 0);
    } else {
        const int k_left = cs.k_end - (cs.k + cs.b_col * 8);
#pragma unroll
        for (int j = 0; j < B_ITERS; j++, q += cs.b_step)
            load_chunk(r.b[j], q, (cs.b_ok >> j) & 1 ? (k_left < 8 ? k_left : 8) : 0);
    }
    (void)p;
    copy_advance(cs);
}

static __device__ __forceinline__ void copy_store(const copy_state &cs, const stage_regs &r,
                                                  uint32_t sA, uint32_t sB)
{
#pragma unroll
    for (int j = 0; j < A_ITERS; j++)
        if ((cs.a_in >> j) & 1)
            st_shared_16(sA + cs.a_soff + j * ROWS_STEP_BYTES, pack_chunk(r.a[j]));
#pragma unroll
    for (int j = 0; j < B_ITERS; j++)
        st_shared_16(sB + cs.b_soff + j * ROWS_STEP_BYTES, pack_chunk(r.b[j]));
}

// ---- kernels ------------------------------------------------------------------------------------

static __global__ void __launch_bounds__(NTHREADS)
kernel(const __grid_constant__ tileops_gemm_args p, int per, int64_t ldw)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wn = warp % WARPS, wk = warp / WARPS;
    const int64_t m0 = (int64_t)blockIdx.y * BM, n0 = (int64_t)blockIdx.x * BN;
    const int split = blockIdx.z, splits = gridDim.z;
    const int k0 = split * per * BK;
    const int k_end = split + 1 == splits ? (int)p.k : k0 + per * BK;
    const int KT = (k_end - k0 + BK - 1) / BK;

    copy_state cs;
    copy_init(cs, p, m0, n0, k0, k_end, tid);
    stage_regs regs;
    const uint32_t s0 = smem_addr(smem);

#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < KT) {
            if (ALIGNED) {
                copy_async(cs, p, s0 + s * STAGE_BYTES, s0 + s * STAGE_BYTES + A_STAGE_BYTES);
            } else {
                copy_fetch(cs, p, regs);
                copy_store(cs, regs, s0 + s * STAGE_BYTES, s0 + s * STAGE_BYTES + A_STAGE_BYTES);
            }
        }
        if (ALIGNED)
            cp_async_commit();
    }

    float acc[MI][NI][4];
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int ni = 0; ni < NI; ni++)
#pragma unroll
            for (int i = 0; i < 4; i++)
                acc[mi][ni][i] = 0.0f;

    uint32_t a_base, b_base;
    frag_bases(lane, 0, wn, a_base, b_base);
    uint32_t af[2][MI][4], bf[2][NI][2];

    if (ALIGNED)
        cp_async_wait<STAGES - 2>();
    __syncthreads();
    int rs = 0, ws = STAGES - 1;
    load_frags(af[0], bf[0], s0, s0 + A_STAGE_BYTES, a_base, b_base, wk);

    // The pipeline of gemm_sm80 (see there for the hazard argument), over this warp's k16
    // steps kk = j * KWARPS + wk of each stage.
    for (int kt = 0; kt < KT; kt++) {
        const uint32_t sw = s0 + ws * STAGE_BYTES;
#pragma unroll
        for (int kk = 0; kk < JSTEPS; kk++) {
            if (kk == JSTEPS - 1) {
                if (!ALIGNED && kt + STAGES - 1 < KT)
                    copy_store(cs, regs, sw, sw + A_STAGE_BYTES);
                if (ALIGNED)
                    cp_async_wait<STAGES - 2>();
                __syncthreads();
                rs = rs + 1 == STAGES ? 0 : rs + 1;
            }
            const uint32_t sr = s0 + rs * STAGE_BYTES;
            load_frags(af[(kk + 1) % 2], bf[(kk + 1) % 2], sr, sr + A_STAGE_BYTES, a_base, b_base,
                       (kk + 1) % JSTEPS * KWARPS + wk);
            mma_step(acc, af[kk % 2], bf[kk % 2]);
            if (kk == 0) {
                if (kt + STAGES - 1 < KT) {
                    if (ALIGNED)
                        copy_async(cs, p, sw, sw + A_STAGE_BYTES);
                    else
                        copy_fetch(cs, p, regs);
                }
                if (ALIGNED)
                    cp_async_commit();
            }
        }
        ws = ws + 1 == STAGES ? 0 : ws + 1;
    }
    if (ALIGNED)
        cp_async_wait<0>();

    if (KWARPS > 1) {
        // The warps along K add their sums into the first's, through shared memory past the
        // epilogue's staging (every warp is done with the pipeline's stages first).
        __syncthreads();
        float *red = (float *)(smem + EPI_BYTES);
        if (wk > 0) {
            float *r = red + ((wk - 1) * WARPS + wn) * 32 * MI * NI * 4 + lane * 4;
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
#pragma unroll
                for (int ni = 0; ni < NI; ni++)
                    *(float4 *)(r + (mi * NI + ni) * 32 * 4) =
                        make_float4(acc[mi][ni][0], acc[mi][ni][1], acc[mi][ni][2], acc[mi][ni][3]);
        }
        __syncthreads();
        if (wk > 0)
            return; // no barrier follows for KWARPS > 1
#pragma unroll 1
        for (int g2 = 0; g2 < KWARPS - 1; g2++) {
            const float *r = red + (g2 * WARPS + wn) * 32 * MI * NI * 4 + lane * 4;
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
#pragma unroll
                for (int ni = 0; ni < NI; ni++) {
                    const float4 x = *(const float4 *)(r + (mi * NI + ni) * 32 * 4);
                    acc[mi][ni][0] += x.x;
                    acc[mi][ni][1] += x.y;
                    acc[mi][ni][2] += x.z;
                    acc[mi][ni][3] += x.w;
                }
        }
    }

    const int g = lane >> 2, t = lane & 3;
    if (splits > 1) {
        // Partials straight from the fragments: a quad writes 32 contiguous bytes per row.
        // Columns up to ldw exist, so a float2 starting at an even col < N is in bounds.
        float *w = (float *)p.workspace + (int64_t)split * p.m * ldw;
#pragma unroll
        for (int mi = 0; mi < MI; mi++)
#pragma unroll
            for (int ni = 0; ni < NI; ni++) {
                const int64_t col = n0 + wn * WN + ni * 8 + 2 * t;
                const int64_t row = m0 + mi * 16 + g;
                if (col < p.n) {
                    if (row < p.m)
                        *(float2 *)(w + row * ldw + col) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
                    if (row + 8 < p.m)
                        *(float2 *)(w + (row + 8) * ldw + col) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
                }
            }
        return;
    }

    // One split: the epilogue of gemm_sm80 (with warps along K, the barrier above already
    // separated the pipeline's last reads from the staging writes).
    if (KWARPS == 1)
        __syncthreads();
    unsigned char *stage = smem + wn * 16 * EPI_PITCH;
    constexpr int CPW = WN / 8;
#pragma unroll
    for (int mi = 0; mi < MI; mi++) {
#pragma unroll
        for (int ni = 0; ni < NI; ni++)
            stage_frag_f32(stage + g * EPI_PITCH + (ni * 8 + 2 * t) * 4, EPI_PITCH, acc[mi][ni]);
        __syncwarp();
#pragma unroll
        for (int it = 0; it < 16 * CPW / 32; it++) {
            const int idx = it * 32 + lane;
            const int r = idx / CPW, c = idx % CPW;
            const int64_t row = m0 + mi * 16 + r;
            const int64_t col = n0 + wn * WN + c * 8;
            if (row < p.m && col < p.n) {
                float v[8];
                load8_staged(stage + r * EPI_PITCH + c * 32, v);
                gemm_epilogue8<elem_t>(p, row, col, v, ALIGNED);
            }
        }
        __syncwarp();
    }
}

// Sums the splits' partials and finishes them with the epilogue (tileops_gemm.cuh).
constexpr int REDUCE_THREADS = GEMM_REDUCE_THREADS;
static __global__ void __launch_bounds__(REDUCE_THREADS)
reduce(const __grid_constant__ tileops_gemm_args p, int splits, int64_t ldw)
{
    gemm_reduce_splits<elem_t>(p, splits, ldw, ALIGNED);
}

// ---- host side ----------------------------------------------------------------------------------

static int launch(const void *args, cudaStream_t stream)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    static unsigned long long smem_done;
    const int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    const plan pl = make_plan(p, p->workspace ? p->workspace_bytes : 0);
    const dim3 grid(pl.tiles_n, pl.tiles_m, pl.splits);
    kernel<<<grid, NTHREADS, SMEM_TOTAL, stream>>>(*p, pl.per, pl.ldw);
    if (pl.splits == 1)
        return (int)cudaGetLastError();
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return (int)e;
    reduce<<<gemm_reduce_blocks(p->m, p->n), REDUCE_THREADS, 0, stream>>>(*p, pl.splits, pl.ldw);
    return (int)cudaGetLastError();
}

// -1 past MAX_M rows (gemm_sm80's ground) or without the alignment an ALIGNED instance needs;
// else a cost in ns; *workspace_bytes = the partials' size (0 with one split).
static int64_t fit(const void *args, size_t *workspace_bytes)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    if (workspace_bytes)
        *workspace_bytes = 0;
    if (p->m < 1 || p->n < 1 || p->k < 1 || p->m > MAX_M)
        return -1;
    if (ALIGNED && !gemm_aligned16(p))
        return -1;
    if ((p->n + BN - 1) / BN > 0x7fffffff || p->k > 0x7fffffff - BK)
        return -1;
    const plan pl = make_plan(p, (size_t)-1);
    if (workspace_bytes)
        *workspace_bytes = pl.ws;
    // With the whole workspace the plan is the cheapest split; launch() may be given less.
    return pl.time;
}
