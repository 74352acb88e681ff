// Template gemm_sm70: D = epilogue(alpha * A·op(B) + beta * C) with wmma (16x16x16, fp16 in,
// fp32 accumulate): the sm70 tier (Volta/Turing, built as sm_75 with CUDA 13). fp16 only: the
// spec must not ask this tier for bf16 (a static_assert says so).
//
// Reads from the generator: elem_t (__half); the block tile BM x BN x BK; WARPS_M x WARPS_N
// warps; ALIGNED (1: pointers and leading dimensions are multiples of 16 bytes, whole chunks
// load as 16-byte vectors; 0: any alignment, element loads); LAYOUT (LAYOUT_KN / LAYOUT_NK).
// Uses tileops_gemm.cuh, <mma.h> and the host cost model of libops/cost_model.h (included at
// file scope by tileops_device.cuh: an #include here would land inside the instance namespace).
//
// Two shared-memory stages, filled through registers (no cp.async before sm80): iteration kt
// loads tile kt+1 into registers, runs the mma of tile kt, stores the registers into the other
// stage, then one barrier. Rows are padded by 16 bytes so wmma's loads do not hit one bank.
// Out-of-range elements load as zeros; the epilogue stages each warp's accumulators as fp32
// through shared memory and finishes 8 columns per thread with 16-byte accesses.

constexpr int NTHREADS = WARPS_M * WARPS_N * 32;
constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N; // one warp's tile
constexpr int FM = WM / 16, FN = WN / 16;           // its 16x16 wmma tiles
constexpr bool B_KN = LAYOUT == LAYOUT_KN;

// Shared stage: A [BM][A_LD], B [BN][B_LD] (NK) or [BK][B_LD] (KN), in elements.
constexpr int A_LD = BK + 8;
constexpr int B_LD = (B_KN ? BN : BK) + 8;
constexpr int A_STAGE = BM * A_LD;
constexpr int B_STAGE = (B_KN ? BK : BN) * B_LD;
constexpr int STAGE = A_STAGE + B_STAGE;

// Copies: 8-element chunks; thread t takes chunk column t % CPR in rows t / CPR + j * RS.
constexpr int A_CPR = BK / 8, A_RS = NTHREADS / A_CPR, A_ITERS = BM / A_RS;
constexpr int B_CPR = (B_KN ? BN : BK) / 8, B_RS = NTHREADS / B_CPR;
constexpr int B_ITERS = (B_KN ? BK : BN) / B_RS;

// Epilogue staging: per warp, 16 rows of WN fp32 (+4 so rows start on different banks).
constexpr int EPI_LD = WN + 4;
constexpr int EPI_BYTES = WARPS_M * WARPS_N * 16 * EPI_LD * 4;
constexpr int PIPE_BYTES = 2 * STAGE * 2;
constexpr int SMEM_TOTAL = PIPE_BYTES > EPI_BYTES ? PIPE_BYTES : EPI_BYTES;
static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");

static_assert(STAGES == 2, "two stages, filled through registers (the tier's tune fixes it)");
static_assert(EPI == 0, "one epilogue: per warp, as the spec's epi = 0 (the tier's tune fixes it)");
static_assert(!elem_is_bf16((const elem_t *)0), "gemm_sm70 is fp16 only (wmma bf16 needs sm80)");
static_assert(LAYOUT == LAYOUT_KN || LAYOUT == LAYOUT_NK, "unknown layout");
static_assert(ALIGNED == 0 || ALIGNED == 1, "ALIGNED is 0 or 1");
static_assert(BK % 16 == 0 && BM % (16 * WARPS_M) == 0 && BN % (16 * WARPS_N) == 0,
              "warp tiles are 16x16 multiples");
static_assert(WN % 8 == 0 && (16 * WN / 8) % 32 == 0, "epilogue rows split over the lanes");
static_assert(NTHREADS % A_CPR == 0 && BM % A_RS == 0, "A stage splits evenly over the threads");
static_assert(NTHREADS % B_CPR == 0 && (B_KN ? BK : BN) % B_RS == 0,
              "B stage splits evenly over the threads");
// wmma pointers must be 32-byte aligned: rows of 16 (A, B NK) or k16 steps (B KN) times the
// padded pitch, and stage sizes, are multiples of 32 bytes.
static_assert((16 * A_LD * 2) % 32 == 0 && (16 * B_LD * 2) % 32 == 0 && (STAGE * 2) % 32 == 0 &&
              (A_STAGE * 2) % 32 == 0, "wmma alignment");
static_assert(SMEM_TOTAL <= 96 * 1024, "sm70 tier: at most 96 KB (V100); 64 KB on Turing");

// One stage of this thread's chunks in registers.
struct stage_regs {
    uint4 a[A_ITERS];
    uint4 b[B_ITERS];
};

// 8 elements from q, of which the first n (<= 8) exist; zeros after. A 16-byte load when the
// instance is ALIGNED and the chunk is whole.
static __device__ __forceinline__ uint4 load_chunk(const elem_t *q, int n)
{
    if (ALIGNED && n >= 8)
        return __ldg((const uint4 *)q);
    const unsigned short *u = (const unsigned short *)q;
    uint32_t w[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const uint32_t lo = 2 * i < n ? __ldg(u + 2 * i) : 0;
        const uint32_t hi = 2 * i + 1 < n ? __ldg(u + 2 * i + 1) : 0;
        w[i] = lo | hi << 16;
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// Loads this thread's chunks of k tile kt.
static __device__ __forceinline__ void fetch(const tileops_gemm_args &p, int64_t m0, int64_t n0,
                                             int64_t k0, int tid, stage_regs &r)
{
    const elem_t *A = (const elem_t *)p.a, *B = (const elem_t *)p.b;
    {
        const int col = tid % A_CPR, row = tid / A_CPR;
        const int64_t k = k0 + col * 8;
        const int kn = p.k - k >= 8 ? 8 : (int)(p.k - k);
#pragma unroll
        for (int j = 0; j < A_ITERS; j++) {
            const int64_t m = m0 + row + j * A_RS;
            r.a[j] = load_chunk(A + (m < p.m ? m : 0) * p.lda + k, m < p.m ? kn : 0);
        }
    }
    const int col = tid % B_CPR, row = tid / B_CPR;
    if (B_KN) {
        const int64_t n = n0 + col * 8;
        const int nn = p.n - n >= 8 ? 8 : (int)(p.n - n);
#pragma unroll
        for (int j = 0; j < B_ITERS; j++) {
            const int64_t k = k0 + row + j * B_RS;
            r.b[j] = load_chunk(B + (k < p.k ? k : 0) * p.ldb + n, k < p.k ? nn : 0);
        }
    } else {
        const int64_t k = k0 + col * 8;
        const int kn = p.k - k >= 8 ? 8 : (int)(p.k - k);
#pragma unroll
        for (int j = 0; j < B_ITERS; j++) {
            const int64_t n = n0 + row + j * B_RS;
            r.b[j] = load_chunk(B + (n < p.n ? n : 0) * p.ldb + k, n < p.n ? kn : 0);
        }
    }
}

// Stores the registers into a stage.
static __device__ __forceinline__ void store(elem_t *sA, elem_t *sB, int tid, const stage_regs &r)
{
#pragma unroll
    for (int j = 0; j < A_ITERS; j++)
        *(uint4 *)(sA + (tid / A_CPR + j * A_RS) * A_LD + (tid % A_CPR) * 8) = r.a[j];
#pragma unroll
    for (int j = 0; j < B_ITERS; j++)
        *(uint4 *)(sB + (tid / B_CPR + j * B_RS) * B_LD + (tid % B_CPR) * 8) = r.b[j];
}

// Block b's tile, grouped as in gemm_sm80 for L2 reuse.
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

static __global__ void __launch_bounds__(NTHREADS)
kernel(const __grid_constant__ tileops_gemm_args p, int tiles_m, int tiles_n, int group)
{
    using namespace nvcuda;
    typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_nk_frag;
    typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_kn_frag;
    extern __shared__ __align__(128) unsigned char smem[];
    elem_t *sm = (elem_t *)smem;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    int tm, tn;
    block_tile(blockIdx.x, tiles_m, tiles_n, group, tm, tn);
    const int64_t m0 = (int64_t)tm * BM, n0 = (int64_t)tn * BN;
    const int KT = (int)((p.k + BK - 1) / BK);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    stage_regs regs;
    fetch(p, m0, n0, 0, tid, regs);
    store(sm, sm + A_STAGE, tid, regs);
    __syncthreads();

    for (int kt = 0; kt < KT; kt++) {
        const elem_t *sA = sm + (kt % 2) * STAGE, *sB = sA + A_STAGE;
        const bool more = kt + 1 < KT;
        if (more)
            fetch(p, m0, n0, (int64_t)(kt + 1) * BK, tid, regs);
#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            // All B fragments of the step, then one A fragment at a time: FN + 1 fragments live
            // instead of FM + 1 (FM = 4 is the larger: that keeps sm_75 under 128 registers).
            b_kn_frag bkn[B_KN ? FN : 1];
            b_nk_frag bnk[B_KN ? 1 : FN];
#pragma unroll
            for (int j = 0; j < FN; j++) {
                if (B_KN)
                    wmma::load_matrix_sync(bkn[j], sB + kk * 16 * B_LD + wn * WN + j * 16, B_LD);
                else
                    wmma::load_matrix_sync(bnk[j], sB + (wn * WN + j * 16) * B_LD + kk * 16, B_LD);
            }
#pragma unroll
            for (int i = 0; i < FM; i++) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> af;
                wmma::load_matrix_sync(af, sA + (wm * WM + i * 16) * A_LD + kk * 16, A_LD);
#pragma unroll
                for (int j = 0; j < FN; j++) {
                    if (B_KN)
                        wmma::mma_sync(acc[i][j], af, bkn[j], acc[i][j]);
                    else
                        wmma::mma_sync(acc[i][j], af, bnk[j], acc[i][j]);
                }
            }
        }
        // The other stage was last read in iteration kt-1, before its closing barrier.
        if (more)
            store(sm + ((kt + 1) % 2) * STAGE, sm + ((kt + 1) % 2) * STAGE + A_STAGE, tid, regs);
        __syncthreads();
    }

    // Epilogue: the loop's last barrier freed the stages.
    float *stage = (float *)smem + warp * 16 * EPI_LD;
    constexpr int CPW = WN / 8;
#pragma unroll
    for (int i = 0; i < FM; i++) {
#pragma unroll
        for (int j = 0; j < FN; j++)
            wmma::store_matrix_sync(stage + j * 16, acc[i][j], EPI_LD, wmma::mem_row_major);
        __syncwarp();
#pragma unroll
        for (int it = 0; it < 16 * CPW / 32; it++) {
            const int idx = it * 32 + lane;
            const int r = idx / CPW, c = idx % CPW;
            const int64_t row = m0 + wm * WM + i * 16 + r;
            const int64_t col = n0 + wn * WN + c * 8;
            if (row < p.m && col < p.n) {
                float v[8];
#pragma unroll
                for (int e = 0; e < 8; e++)
                    v[e] = stage[r * EPI_LD + c * 8 + e];
                gemm_epilogue8<elem_t>(p, row, col, v, ALIGNED);
            }
        }
        __syncwarp();
    }
}

// ---- host side ----------------------------------------------------------------------------------

static int launch(const void *args, cudaStream_t stream)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    static unsigned long long smem_done;
    const int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    const int tiles_m = (int)((p->m + BM - 1) / BM), tiles_n = (int)((p->n + BN - 1) / BN);
    const int group = tiles_m < 8 ? tiles_m : 8;
    kernel<<<tiles_m * tiles_n, NTHREADS, SMEM_TOTAL, stream>>>(*p, tiles_m, tiles_n, group);
    return (int)cudaGetLastError();
}

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
    const double eff = tileops__gemm_tile_eff(BM, BN) * (ALIGNED ? 0.3 : 0.18); // wmma, no cp.async
    const int per_sm = tileops__gemm_blocks_per_sm(SMEM_TOTAL, 64 * 1024, NTHREADS, 1024, 0);
    const double bytes = 2.0 * ((double)p->m * p->k + (double)p->n * p->k +
                                (double)p->m * p->n * (p->c && p->beta != 0.0f ? 2 : 1));
    return tileops__gemm_time_ns(p->sms, tiles_m * tiles_n, per_sm, 2.0 * BM * BN * kp, eff, 0.0,
                                 0.0, 0.0, 0.0, bytes);
}
