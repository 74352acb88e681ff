// Template gemm_sm80: D = epilogue(alpha * A·op(B) + beta * C) on tensor cores with the sm80
// instruction set (cp.async, ldmatrix, mma.sync m16n8k16, fp32 accumulate). Also compiled for
// sm_90a, beside gemm_sm90 (which fit() prefers where TMA can describe the operands).
//
// Reads from the generator: elem_t (__half or __nv_bfloat16); the block tile BM x BN x BK;
// WARPS_M x WARPS_N warps, each owning a (BM/WARPS_M) x (BN/WARPS_N) piece of it; STAGES
// shared-memory stages in flight; ALIGNED (1: a, b, c, d, bias and every leading dimension are
// multiples of 16 bytes, tiles move as 16-byte cp.async; 0: any alignment, tiles move element
// by element through registers); LAYOUT (LAYOUT_KN: B is [K,N]; LAYOUT_NK: B is [N,K]); EPI
// (the epilogue's staging, below).
// Uses tileops_mma.cuh, tileops_gemm.cuh and the host cost model of libops/cost_model.h
// (included by tileops_device.cuh); the fragment path is gemm_mma_frags.cuh, shared with
// gemm_small_m.
//
// One block computes one BM x BN tile of D over all of K:
//   - Stage s of shared memory holds A[BM][BK] and B as [BN][BK] (NK) or [BK][BN] (KN), rows
//     XOR-swizzled (swz_off), so cp.async writes and ldmatrix reads are free of bank conflicts.
//   - The k loop keeps STAGES-1 tiles in flight. Fragments of the next k16 step are loaded
//     (ldmatrix) while the mma of this one run; the stage turn (wait + barrier) sits in the
//     last k16 step, before the next stage's first fragments are loaded: one __syncthreads()
//     per BK, and no bubble between stages.
//   - Out-of-range rows and the K tail are zero-filled by the copies (cp.async src-size), so
//     the math needs no predicates; the epilogue clips to M x N.
//   - Epilogue: EPI = 0: each warp stages one m16 slice of its fp32 accumulators in shared
//     memory at a time and reads it back as 8-column rows (code unrolled per slice, GELU out
//     of line); EPI = 1: the whole tile at once, finished in one rolled loop per activation,
//     chosen once per tile (finish_tile), inline. Either way C, bias and D move as 16-byte
//     accesses.

constexpr int NTHREADS = WARPS_M * WARPS_N * 32;
constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N; // one warp's tile
constexpr int MI = WM / 16, NI = WN / 8;            // its m16 x n8 mma tiles
constexpr int KSTEPS = BK / 16;                     // k16 steps per stage
constexpr bool B_KN = LAYOUT == LAYOUT_KN;

// Shared memory, per stage: A [BM][BK], then B. Row lengths in bytes.
constexpr int A_ROW_BYTES = BK * 2;
constexpr int B_ROW_BYTES = (B_KN ? BN : BK) * 2;
constexpr int A_STAGE_BYTES = BM * BK * 2;
constexpr int STAGE_BYTES = A_STAGE_BYTES + BN * BK * 2;

// Copies: a stage is cut into 16-byte chunks, CPR per row. Thread t always copies chunk column
// t % CPR, in rows t / CPR + j * RS, j < ITERS.
constexpr int A_CPR = BK / 8, A_RS = NTHREADS / A_CPR, A_ITERS = BM / A_RS;
constexpr int B_CPR = B_ROW_BYTES / 16, B_RS = NTHREADS / B_CPR;
constexpr int B_ITERS = (B_KN ? BK : BN) / B_RS;
// A thread's successive rows are RS rows = NTHREADS * 16 bytes apart in both tiles: a whole
// number of 1024-byte swizzle periods (NTHREADS >= 64), so the swizzled offset of row j is
// that of row 0 plus j * ROWS_STEP_BYTES.
constexpr int ROWS_STEP_BYTES = NTHREADS * 16;
// swz_off's pattern repeats every 8 rows of at least 128 bytes (rows of 64 bytes pair up):
// a thread's rows may step by RS only if RS rows are a whole number of those periods.
constexpr int swizzle_period(int row_bytes) { return 8 * (row_bytes > 128 ? row_bytes : 128); }
static_assert(A_RS * A_ROW_BYTES == ROWS_STEP_BYTES && B_RS * B_ROW_BYTES == ROWS_STEP_BYTES &&
                  ROWS_STEP_BYTES % swizzle_period(A_ROW_BYTES) == 0 &&
                  ROWS_STEP_BYTES % swizzle_period(B_ROW_BYTES) == 0,
              "copy rows step by whole swizzle periods");

// Epilogue staging (EPI = 0): per warp, 16 rows of WN fp32, padded by 32 bytes so that a
// fragment store (8 rows x 4 lanes x float2) falls on distinct banks within each half-warp.
// EPI = 1: the whole tile, BM rows of BN fp32, padded the same way.
constexpr int EPI_PITCH = WN * 4 + 32;
constexpr int TILE_PITCH = BN * 4 + 32;
// A thread finishes the same 8 columns in every row it visits: EPI = 0, chunk lane % CPW of
// its warp's staged rows; EPI = 1, chunk tid % CPR of the tile's rows.
constexpr int CPW = WN / 8; // 8-column chunks per staged (warp) row
constexpr int CPR = BN / 8; // 8-column chunks per tile row
static_assert(32 % CPW == 0 && NTHREADS % CPR == 0, "a thread keeps one column chunk");
constexpr int EPI_BYTES = EPI == 1 ? BM * TILE_PITCH : WARPS_M * WARPS_N * 16 * EPI_PITCH;
constexpr int PIPE_BYTES = STAGES * STAGE_BYTES;
constexpr int SMEM_TOTAL = PIPE_BYTES > EPI_BYTES ? PIPE_BYTES : EPI_BYTES;
static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");

static_assert(LAYOUT == LAYOUT_KN || LAYOUT == LAYOUT_NK, "unknown layout");
static_assert(ALIGNED == 0 || ALIGNED == 1, "ALIGNED is 0 or 1");
static_assert(EPI == 0 || EPI == 1, "EPI is 0 or 1");
static_assert(STAGES >= 2, "the pipeline needs two stages");
// Even KSTEPS: the fragment double buffer is back at buffer 0 at every stage's first step;
// KSTEPS >= 2: the stage turn must come after that stage's copies were issued (see kernel).
static_assert(BK == 32 || BK == 64 || BK == 128, "BK is 32, 64 or 128");
static_assert(BM % (16 * WARPS_M) == 0 && BN % (16 * WARPS_N) == 0, "warp tiles are m16 x n16 multiples");
// A power-of-two WN keeps a warp's B chunk columns disjoint bit fields (b_frag_off).
static_assert((WN & (WN - 1)) == 0, "BN / WARPS_N is a power of two");
static_assert(!B_KN || BN >= 64, "KN needs B rows of at least 128 bytes for its swizzle");
static_assert(NTHREADS % A_CPR == 0 && BM % A_RS == 0, "A stage splits evenly over the threads");
static_assert(NTHREADS % B_CPR == 0 && (B_KN ? BK : BN) % B_RS == 0,
              "B stage splits evenly over the threads");
static_assert(A_ITERS <= 32 && B_ITERS <= 32, "row masks are 32 bits");
static_assert(SMEM_TOTAL <= 227 * 1024, "more shared memory than any GPU has");

#include "gemm_mma_frags.cuh"

// ---- per-thread copy state ------------------------------------------------------------------

// What a thread needs to copy its chunks of the next stage. Pointers are of the first chunk
// of the next k tile and advance by one tile per stage copied.
struct copy_state {
    const elem_t *a;       // A[m0 + a_row][k]
    const elem_t *b;       // NK: B[n0 + b_row][k]; KN: B[k + b_row][n0 + 8 * b_col]
    int64_t a_step;        // elements between this thread's A rows (A_RS rows)
    int64_t b_step;        // elements between its B rows (B_RS rows)
    int64_t b_tile;        // elements from one k tile to the next in B
    int k;                 // first k of the next tile to copy
    int a_row, a_col;      // within the tile: first row, chunk column
    int b_row, b_col;
    uint32_t a_soff;       // shared offset of the first A chunk in a stage (swizzled)
    uint32_t b_soff;
    uint32_t a_ok;         // bit j: A row a_row + j*A_RS is inside M
    uint32_t b_ok;         // NK: bit j: B row inside N. KN: unused (rows are k)
    int b_n_left;          // KN: columns of B left from this thread's chunk (N - n)
    bool inside;           // every chunk of this thread lies inside M and N (K: per tile)
};

// Registers of one stage for the ALIGNED=0 path: raw 16-bit elements, packed only when stored,
// so the loads' latency is hidden behind a stage of mma.
struct stage_regs {
    unsigned short a[A_ITERS][8];
    unsigned short b[B_ITERS][8];
};

// Bytes of a 16-byte chunk that lie inside a row with `left` elements from the chunk on.
static __device__ __forceinline__ int chunk_bytes(int left)
{
    return left >= 8 ? 16 : left > 0 ? (int)left * 2 : 0;
}

// Sets up this thread's copy state for the block at (m0, n0).
static __device__ __forceinline__ void copy_init(copy_state &cs, const tileops_gemm_args &p,
                                                 int64_t m0, int64_t n0, int tid)
{
    cs.a_col = tid % A_CPR;
    cs.a_row = tid / A_CPR;
    cs.b_col = tid % B_CPR;
    cs.b_row = tid / B_CPR;
    cs.k = 0;
    cs.a_soff = swz_off(cs.a_row, cs.a_col, A_ROW_BYTES);
    cs.b_soff = swz_off(cs.b_row, cs.b_col, B_ROW_BYTES);
    cs.a = (const elem_t *)p.a + (m0 + cs.a_row) * p.lda + cs.a_col * 8;
    cs.a_step = (int64_t)A_RS * p.lda;
    cs.b_step = (int64_t)B_RS * p.ldb;
    cs.a_ok = 0;
    for (int j = 0; j < A_ITERS; j++)
        if (m0 + cs.a_row + j * A_RS < p.m)
            cs.a_ok |= 1u << j;
    cs.b_ok = 0;
    if (B_KN) {
        cs.b = (const elem_t *)p.b + cs.b_row * p.ldb + n0 + cs.b_col * 8;
        cs.b_tile = (int64_t)BK * p.ldb;
        cs.b_n_left = (int)(p.n - (n0 + cs.b_col * 8) < 8 ? p.n - (n0 + cs.b_col * 8) : 8);
    } else {
        cs.b = (const elem_t *)p.b + (n0 + cs.b_row) * p.ldb + cs.b_col * 8;
        cs.b_tile = BK;
        cs.b_n_left = 0;
        for (int j = 0; j < B_ITERS; j++)
            if (n0 + cs.b_row + j * B_RS < p.n)
                cs.b_ok |= 1u << j;
    }
    const uint32_t a_all = A_ITERS == 32 ? ~0u : (1u << A_ITERS) - 1;
    const uint32_t b_all = B_ITERS == 32 ? ~0u : (1u << B_ITERS) - 1;
    cs.inside = cs.a_ok == a_all && (B_KN ? cs.b_n_left == 8 : cs.b_ok == b_all);
}

// Moves to the next k tile.
static __device__ __forceinline__ void copy_advance(copy_state &cs)
{
    cs.a += BK;
    cs.b += cs.b_tile;
    cs.k += BK;
}

// ALIGNED=1: issues this thread's cp.async for the next k tile into the stage at sA / sB
// (shared addresses), zero-filling what lies outside M, N or K. Chunks that read nothing
// still get a valid source address (the matrix base).
static __device__ __forceinline__ void copy_async(copy_state &cs, const tileops_gemm_args &p,
                                                  uint32_t sA, uint32_t sB)
{
    // Row pointers are stepped, not computed as base + j * step: loop-invariant products
    // would be hoisted into registers the accumulators need. K fits an int (fit()): 32-bit
    // compares, half the instructions of 64-bit ones.
    const int kleft = (int)p.k - cs.k;
    const elem_t *q = cs.a;
    if (cs.inside && kleft >= BK) {
        // The whole tile lies inside A and B (every tile of an interior block but a K tail):
        // plain copies, none of the bounds work below (it was most of the ~100 instructions
        // a k tile costs beside its mma; ncu, 4096^3).
#pragma unroll
        for (int j = 0; j < A_ITERS; j++, q += cs.a_step)
            cp_async_16_full(sA + cs.a_soff + j * ROWS_STEP_BYTES, q);
        q = cs.b;
#pragma unroll
        for (int j = 0; j < B_ITERS; j++, q += cs.b_step)
            cp_async_16_full(sB + cs.b_soff + j * ROWS_STEP_BYTES, q);
        copy_advance(cs);
        return;
    }
    const int a_bytes = chunk_bytes(kleft - cs.a_col * 8);
#pragma unroll
    for (int j = 0; j < A_ITERS; j++, q += cs.a_step) {
        const int bytes = (cs.a_ok >> j) & 1 ? a_bytes : 0;
        cp_async_16(sA + cs.a_soff + j * ROWS_STEP_BYTES, bytes ? (const void *)q : p.a, bytes);
    }
    q = cs.b;
    if (B_KN) {
        const int n_bytes = cs.b_n_left > 0 ? cs.b_n_left * 2 : 0;
#pragma unroll
        for (int j = 0; j < B_ITERS; j++, q += cs.b_step) {
            const int bytes = cs.b_row + j * B_RS < kleft ? n_bytes : 0;
            cp_async_16(sB + cs.b_soff + j * ROWS_STEP_BYTES, bytes ? (const void *)q : p.b, bytes);
        }
    } else {
        const int k_bytes = chunk_bytes(kleft - cs.b_col * 8);
#pragma unroll
        for (int j = 0; j < B_ITERS; j++, q += cs.b_step) {
            const int bytes = (cs.b_ok >> j) & 1 ? k_bytes : 0;
            cp_async_16(sB + cs.b_soff + j * ROWS_STEP_BYTES, bytes ? (const void *)q : p.b, bytes);
        }
    }
    copy_advance(cs);
}

// ALIGNED=0: loads this thread's elements of the next k tile into registers, zeros outside
// M, N or K.
static __device__ __forceinline__ void copy_fetch(copy_state &cs, const tileops_gemm_args &p,
                                                  stage_regs &r)
{
    const int a_left = (int)p.k - (cs.k + cs.a_col * 8);
#pragma unroll
    for (int j = 0; j < A_ITERS; j++)
        load_chunk(r.a[j], cs.a + j * cs.a_step, (cs.a_ok >> j) & 1 ? (int)(a_left < 8 ? a_left : 8) : 0);
    if (B_KN) {
#pragma unroll
        for (int j = 0; j < B_ITERS; j++)
            load_chunk(r.b[j], cs.b + j * cs.b_step, cs.k + cs.b_row + j * B_RS < p.k ? cs.b_n_left : 0);
    } else {
        const int k_left = (int)p.k - (cs.k + cs.b_col * 8);
#pragma unroll
        for (int j = 0; j < B_ITERS; j++)
            load_chunk(r.b[j], cs.b + j * cs.b_step, (cs.b_ok >> j) & 1 ? (int)(k_left < 8 ? k_left : 8) : 0);
    }
    copy_advance(cs);
}

// ALIGNED=0: stores the registers copy_fetch filled into the stage at sA / sB.
static __device__ __forceinline__ void copy_store(const copy_state &cs, const stage_regs &r,
                                                  uint32_t sA, uint32_t sB)
{
#pragma unroll
    for (int j = 0; j < A_ITERS; j++)
        st_shared_16(sA + cs.a_soff + j * ROWS_STEP_BYTES, pack_chunk(r.a[j]));
#pragma unroll
    for (int j = 0; j < B_ITERS; j++)
        st_shared_16(sB + cs.b_soff + j * ROWS_STEP_BYTES, pack_chunk(r.b[j]));
}

// ---- the kernel -----------------------------------------------------------------------------

// Block b's tile: blocks walk `group` tile rows at a time, down each column of tiles before the
// next, so the blocks resident together share A rows and B columns in L2.
static __device__ __forceinline__ void block_tile(int b, int tiles_m, int tiles_n, int group,
                                                  int &tm, int &tn)
{
    const int per_group = group * tiles_n;
    const int gi = b / per_group;
    const int first = gi * group;
    const int rows = tiles_m - first < group ? tiles_m - first : group;
    const int in = b - gi * per_group;
    tm = first + in % rows;
    tn = in / rows;
}

// EPI = 1's second half: with the whole tile staged (rows of BN fp32 at TILE_PITCH), this
// thread finishes the 8 columns at col in every NTHREADS/CPR-th row, in a rolled loop, with
// activation ACT inline.
template <int ACT>
static __device__ __forceinline__ void finish_tile(const tileops_gemm_args &p,
                                                   const unsigned char *smem, int64_t m0,
                                                   int64_t col, const float (&bias)[8])
{
    const int c = threadIdx.x % CPR;
#pragma unroll 2
    for (int r = threadIdx.x / CPR; r < BM; r += NTHREADS / CPR) {
        const int64_t row = m0 + r;
        if (row < p.m && col < p.n) {
            float v[8];
            load8_staged(smem + r * TILE_PITCH + c * 32, v);
            gemm_epilogue8_b<elem_t, ACT>(p, row, col, v, bias, ALIGNED);
        }
    }
}

static __global__ void __launch_bounds__(NTHREADS, 1)
kernel(const __grid_constant__ tileops_gemm_args p, int tiles_m, int tiles_n, int group)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    int tm, tn;
    block_tile(blockIdx.x, tiles_m, tiles_n, group, tm, tn);
    const int64_t m0 = (int64_t)tm * BM, n0 = (int64_t)tn * BN;
    const int KT = (int)((p.k + BK - 1) / BK);

    copy_state cs;
    copy_init(cs, p, m0, n0, tid);
    stage_regs regs; // ALIGNED=0 only; dead code otherwise
    const uint32_t s0 = smem_addr(smem);

    // Prologue: tiles 0 .. STAGES-2 into stages 0 .. STAGES-2, one commit group per tile
    // (empty groups past K keep the count the waits below rely on).
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
    frag_bases(lane, wm, wn, a_base, b_base);
    uint32_t af[2][MI][4], bf[2][NI][2];

    if (ALIGNED)
        cp_async_wait<STAGES - 2>(); // tile 0 landed (this thread's part)
    __syncthreads();                 // ... and everyone's
    int rs = 0;                      // stage read now
    int ws = STAGES - 1;             // stage written this iteration
    load_frags(af[0], bf[0], s0, s0 + A_STAGE_BYTES, a_base, b_base, 0);

    // Iteration kt computes tile kt from stage rs and copies tile kt + STAGES - 1 into stage
    // ws, the one tile kt - 1 was read from. Hazards, with one barrier per iteration:
    //   - ws is free: its last fragments (tile kt-1) were loaded before iteration kt-1's barrier.
    //   - tile kt+1 is ready at iteration kt's barrier: groups committed by then are
    //     STAGES-1 + kt+1, wait_group(STAGES-2) leaves at most STAGES-2 of them pending, so
    //     tiles 0 .. kt+1 have landed. (That needs this iteration's copies issued before its
    //     barrier: kk == 0 comes before kk == KSTEPS-1 since KSTEPS >= 2.)
    //   - ALIGNED=0 stores its registers to ws just before that barrier; the tile is read
    //     STAGES-2 >= 0 barriers later.
    for (int kt = 0; kt < KT; kt++) {
        const uint32_t sw = s0 + ws * STAGE_BYTES;
#pragma unroll
        for (int kk = 0; kk < KSTEPS; kk++) {
            if (kk == KSTEPS - 1) {
                if (!ALIGNED && kt + STAGES - 1 < KT)
                    copy_store(cs, regs, sw, sw + A_STAGE_BYTES);
                if (ALIGNED)
                    cp_async_wait<STAGES - 2>();
                __syncthreads();
                rs = rs + 1 == STAGES ? 0 : rs + 1;
            }
            // Next step's fragments (after the last step: the next stage's first; past the
            // last tile they are unused).
            const uint32_t sr = s0 + rs * STAGE_BYTES;
            load_frags(af[(kk + 1) % 2], bf[(kk + 1) % 2], sr, sr + A_STAGE_BYTES, a_base, b_base,
                       (kk + 1) % KSTEPS);
            mma_step(acc, af[kk % 2], bf[kk % 2]);
            // The copies go after step 0's mma, when its fragments are dead: issuing them
            // earlier costs registers the 128x256x64 tile does not have. (Without the branch,
            // copies past K zero-filling an unread stage, ptxas interleaved them with the
            // HMMAs: 246 registers and 4096^3 fell from 410 to 354 TFLOP/s on the H200.)
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

    // Epilogue. A thread finishes the same 8 columns in every row it visits (CPW, CPR): their
    // bias is loaded once, before the wait below, so its latency overlaps it.
    const int64_t col = EPI ? n0 + (tid % CPR) * 8 : n0 + wn * WN + (lane % CPW) * 8;
    float bias[8];
    gemm_bias8<elem_t>(p, col, ALIGNED, bias);
    // The pipeline's shared memory is reused: no copy may still be landing (only empty groups
    // can remain, but say so) and every warp must be done reading.
    if (ALIGNED)
        cp_async_wait<0>();
    __syncthreads();
    const int g = lane >> 2, t = lane & 3;
    if (EPI == 1) {
        // The whole tile: every accumulator to shared memory (rows of BN fp32, TILE_PITCH), one
        // barrier, then each thread finishes a chunk of every NTHREADS/CPR-th row in a rolled
        // loop (finish_tile): one copy of the code per activation, inline (no call per chunk).
        unsigned char *tile = smem + (wm * WM) * TILE_PITCH + (wn * WN) * 4;
#pragma unroll
        for (int mi = 0; mi < MI; mi++)
#pragma unroll
            for (int ni = 0; ni < NI; ni++)
                stage_frag_f32(tile + (mi * 16 + g) * TILE_PITCH + (ni * 8 + 2 * t) * 4,
                               TILE_PITCH, acc[mi][ni]);
        __syncthreads();
        switch (gemm_act(p.epilogue)) {
        case GEMM_ACT_NONE:
            finish_tile<GEMM_ACT_NONE>(p, smem, m0, col, bias);
            break;
        case GEMM_ACT_RELU:
            finish_tile<GEMM_ACT_RELU>(p, smem, m0, col, bias);
            break;
        case GEMM_ACT_GELU_TANH:
            finish_tile<GEMM_ACT_GELU_TANH>(p, smem, m0, col, bias);
            break;
        default:
            finish_tile<GEMM_ACT_GELU_ERF>(p, smem, m0, col, bias);
        }
        return;
    }
    unsigned char *stage = smem + warp * 16 * EPI_PITCH;
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
            const int64_t row = m0 + wm * WM + mi * 16 + r;
            if (row < p.m && col < p.n) {
                float v[8];
                load8_staged(stage + r * EPI_PITCH + c * 32, v);
                gemm_epilogue8_b<elem_t>(p, row, col, v, bias, ALIGNED);
            }
        }
        __syncwarp();
    }
}

// ---- host side --------------------------------------------------------------------------------

// Launches on the caller's stream; returns the first cudaError_t as an int.
static int launch(const void *args, cudaStream_t stream)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    const int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    const int tiles_m = (int)((p->m + BM - 1) / BM), tiles_n = (int)((p->n + BN - 1) / BN);
    const int group = tiles_m < 8 ? tiles_m : 8;
    kernel<<<tiles_m * tiles_n, NTHREADS, SMEM_TOTAL, stream>>>(*p, tiles_m, tiles_n, group);
    return (int)cudaGetLastError();
}

// -1 if this instance cannot serve the call (alignment, or a grid or K beyond its int
// indexing); else a cost estimate in ns. No workspace.
static int64_t fit(const void *args, size_t *workspace_bytes)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    if (workspace_bytes)
        *workspace_bytes = 0;
    if (p->m < 1 || p->n < 1 || p->k < 1)
        return -1;
    if (ALIGNED && !gemm_aligned16(p))
        return -1;
    const int64_t tiles_m = (p->m + BM - 1) / BM, tiles_n = (p->n + BN - 1) / BN;
    if (tiles_m > 0x7fffffff || tiles_n > 0x7fffffff || tiles_m * tiles_n > 0x7fffffff ||
        p->k > 0x7fffffff - BK)
        return -1;
    const int64_t kp = (p->k + BK - 1) / BK * BK;
    // The ALIGNED=0 path loses about half its mma rate to its register round trip. Registers
    // (about 40 + 1.6 a thread per fp32 accumulator: 230 measured for 64x64 warp tiles, 95
    // for 32x32) keep the 128x256 tiles at one block an SM whatever their shared memory.
    const double eff = tileops__gemm_tile_eff(BM, BN) * (ALIGNED ? 1.0 : 0.5);
    const int acc = WM * WN / 32, regs = (40 + acc * 8 / 5 + (ALIGNED ? 0 : 40) + 7) / 8 * 8;
    const int per_sm = tileops__gemm_blocks_per_sm(SMEM_TOTAL, 227 * 1024, NTHREADS, 2048,
                                                   regs < 255 ? regs : 255);
    const double bytes = 2.0 * ((double)p->m * p->k + (double)p->n * p->k +
                                (double)p->m * p->n * (p->c && p->beta != 0.0f ? 2 : 1));
    // Operands: a block streams its A and B panels ((BM + BN) x K) through STAGES-1 stages in
    // flight (ALIGNED=0: one, in registers), at Little's law's rate with the tiled latency; it
    // binds where few blocks share an SM's bytes in flight (64x64 at M = 128: 45.8 us at
    // 128x4096x4096, where the mma alone would take 18) and nowhere near 4096^3.
    return tileops__gemm_time_ns(p->sms, tiles_m * tiles_n, per_sm, 2.0 * BM * BN * kp, eff,
                                 2.0 * (BM + BN) * kp, 0.0,
                                 (ALIGNED ? STAGES - 1.0 : 1.0) * STAGE_BYTES,
                                 tileops__cost.lat_tiled_ns, bytes);
}
