// Template gemm_sm90: D = epilogue(alpha * A·op(B) + beta * C) with Hopper's own instructions
// (TMA, mbarrier, wgmma.mma_async, setmaxnreg), sm_90a only. Served beside gemm_sm80 and
// gemm_small_m (specs/gemm_wgmma.lua: serves = "gemm"); dispatch weighs all of them by fit().
//
// Reads from the generator: elem_t (__half or __nv_bfloat16); the block tile BM x BN x BK
// (BM = 64 * CONSUMERS, BK = 64: one 128-byte swizzle row); STAGES slots in the shared-memory
// ring; CONSUMERS consumer warpgroups; GROUP (tile rows walked together); LAYOUT (LAYOUT_KN: B
// is [K,N]; LAYOUT_NK: B is [N,K]). Uses tileops_hopper.cuh, tileops_gemm.cuh, tensor_map.h and
// the host cost model of libops/cost_model.h (all included by tileops_device.cuh).
//
// The kernel is persistent: min(tiles, SMs) CTAs, CTA b takes output tiles b, b + grid, ...,
// numbered in groups of GROUP tile rows walked column by column (block_tile), so the CTAs
// running together share A rows and B columns in L2. One CTA = 1 + CONSUMERS warpgroups:
//   - The producer warpgroup gives its registers away (setmaxnreg.dec 40); one thread walks
//     the same tiles and k tiles as the consumers and, for each, waits until its ring slot is
//     empty, announces the slot's bytes on the slot's full barrier and issues the TMA copies
//     of A [BM][BK] and B into it. Out-of-bounds rows and the K tail arrive as zeros (TMA's
//     bounds handling), so the math needs no predicates.
//   - Consumer warpgroup c (setmaxnreg.inc 232) owns rows 64c .. 64c+63 of the tile: for each
//     k tile it waits on the slot's full barrier, issues BK/16 wgmma m64nBNk16 (A and B from
//     128-byte-swizzled shared memory, fp32 accumulators in registers; the tile's first with
//     scale-d = 0 instead of zeroing), commits, and once the previous k tile's group has
//     completed (wgmma.wait_group 1) releases that slot with one arrival on its empty barrier
//     (count CONSUMERS). After the last k tile it waits for everything and finishes its 64 x BN
//     piece from registers: alpha, beta·C, bias, activation, one rounding, stored with bounds
//     checks. Meanwhile the producer already fills the ring with the next tile's k tiles.
//
// Shared memory (1024-byte aligned): STAGES slots of A [BM][64] then B, each row 128 bytes in
// the 128B swizzle (TMA writes it, wgmma's descriptors read it):
//   - A, and B as [N,K] (NK): K-major tiles, rows of 64 k; a k16 step is +32 bytes.
//   - B as [K,N] (KN): BN/64 blocks of [BK][64 n], each one TMA box of 64 columns (128 bytes,
//     the swizzle's limit) by BK rows: N-major, wgmma's transposed B (tnspB = 1), the blocks
//     KN_BLOCK_BYTES apart (the descriptor's leading byte offset), 8 k rows 1024 bytes apart
//     (its stride byte offset); a k16 step is +16 rows.
// Then the barriers: full[STAGES], empty[STAGES].

constexpr int NTHREADS = (CONSUMERS + 1) * 128;
constexpr bool B_KN = LAYOUT == LAYOUT_KN;
constexpr int KSTEPS = BK / 16;                 // wgmma k16 steps per k tile
constexpr int ACC = BN / 2;                     // fp32 accumulators a consumer thread: 64 x BN / 128
constexpr int A_TILE_BYTES = BM * BK * 2;
constexpr int A_WG_BYTES = 64 * BK * 2;         // one consumer's 64 rows of A
constexpr int B_TILE_BYTES = BN * BK * 2;
constexpr int STAGE_BYTES = A_TILE_BYTES + B_TILE_BYTES;
constexpr int RING_BYTES = STAGES * STAGE_BYTES;
constexpr int KN_BLOCK_BYTES = BK * 128;        // KN: one 64-column block of B
constexpr int SMEM_TOTAL = RING_BYTES + 2048;   // + alignment slack + barriers
constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;

static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");
static_assert(LAYOUT == LAYOUT_KN || LAYOUT == LAYOUT_NK, "unknown layout");
static_assert(BM == 64 * CONSUMERS, "a consumer warpgroup takes 64 rows");
static_assert(BK == 64, "BK is one 128-byte swizzle row of 2-byte elements");
static_assert(BN == 128 || BN == 256, "BN is 128 or 256 (the wgmma shapes tileops_hopper.cuh has)");
static_assert(STAGES >= 2 && 2 * STAGES * 8 <= 1024, "the ring's barriers fit their 1024 bytes");
static_assert(A_TILE_BYTES % 1024 == 0 && B_TILE_BYTES % 1024 == 0,
              "slots stay aligned to the 1024-byte swizzle atom");
static_assert(PRODUCER_REGS * 128 + CONSUMER_REGS * 128 * CONSUMERS <= 65536,
              "the register budgets fit the SM's 64K registers");
static_assert(SMEM_TOTAL <= 227 * 1024, "more shared memory than any GPU has");

// ---- the kernel -----------------------------------------------------------------------------

// Tile t's coordinates: tiles are numbered `group` tile rows at a time, down each column of
// tiles before the next, so the CTAs working at once share A rows and B columns in L2.
static __device__ __forceinline__ void block_tile(int t, int tiles_m, int tiles_n, int group,
                                                  int &tm, int &tn)
{
    const int per_group = group * tiles_n;
    const int gi = t / per_group;
    const int first = gi * group;
    const int rows = tiles_m - first < group ? tiles_m - first : group;
    const int in = t - gi * per_group;
    tm = first + in % rows;
    tn = in / rows;
}

// One k16 step of a consumer: acc (+)= A (64 x 16) x B (16 x BN) from the descriptors.
template <int N>
static __device__ __forceinline__ void mma_k16(float (&acc)[N], uint64_t da, uint64_t db,
                                               int scale_d)
{
    if constexpr (N == 128)
        wgmma_m64n256k16<B_KN ? 1 : 0>(acc, da, db, scale_d, (const elem_t *)0);
    else
        wgmma_m64n128k16<B_KN ? 1 : 0>(acc, da, db, scale_d, (const elem_t *)0);
}

// The activation ACT (GEMM_ACT_*) on one value; ReLU keeps NaN.
template <int ACT> static __device__ __forceinline__ float activate(float x)
{
    return ACT == GEMM_ACT_GELU_ERF    ? gelu_erf(x)
           : ACT == GEMM_ACT_GELU_TANH ? gelu_tanh(x)
           : ACT == GEMM_ACT_RELU      ? (x < 0.0f ? 0.0f : x)
                                       : x;
}

// Two consecutive elements at q widened to fp32 (both: q is 4-byte aligned), or one.
static __device__ __forceinline__ void load2_f32(const elem_t *q, bool both, float &lo, float &hi)
{
    if (both) {
        const uint32_t u = *(const uint32_t *)q;
        lo = bits_to_f32((unsigned short)(u & 0xffff), q);
        hi = bits_to_f32((unsigned short)(u >> 16), q);
    } else {
        lo = bits_to_f32(*(const unsigned short *)q, q);
        hi = 0.0f;
    }
}

// Finishes a consumer's 64 x BN piece from its accumulators: D = act(alpha * acc + beta * C +
// bias), rounded once. The thread holds, for n8 block j, columns col0 + 8j and +1 of rows row0
// and row0 + 8 (the wgmma fragment layout). C is read before D is written, by the same thread,
// so C may be D. Pairs are 4-byte accesses: d, c and bias 16-byte aligned with leading
// dimensions of 8 elements (fit()), and col0 is even.
template <int ACT>
static __device__ __forceinline__ void finish(const tileops_gemm_args &p, const float (&acc)[ACC],
                                              int64_t row0, int64_t col0)
{
    const bool has_c = p.c && p.beta != 0.0f;
    const bool has_bias = (p.epilogue & TILEOPS_EPILOGUE_BIAS) && p.bias;
#pragma unroll
    for (int j = 0; j < ACC / 4; j++) {
        const int64_t col = col0 + 8 * j;
        if (col < p.n) {
            const bool both = col + 1 < p.n;
            float b0 = 0.0f, b1 = 0.0f;
            if (has_bias)
                load2_f32((const elem_t *)p.bias + col, both, b0, b1);
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t row = row0 + 8 * h;
                if (row < p.m) {
                    float v0 = acc[4 * j + 2 * h] * p.alpha, v1 = acc[4 * j + 2 * h + 1] * p.alpha;
                    if (has_c) {
                        float c0, c1;
                        load2_f32((const elem_t *)p.c + row * p.ldc + col, both, c0, c1);
                        v0 = fmaf(p.beta, c0, v0);
                        v1 = fmaf(p.beta, c1, v1);
                    }
                    v0 = activate<ACT>(v0 + b0);
                    v1 = activate<ACT>(v1 + b1);
                    const uint32_t w = pack2(v0, v1, (const elem_t *)0);
                    elem_t *q = (elem_t *)p.d + row * p.ldd + col;
                    if (both)
                        *(uint32_t *)q = w;
                    else
                        *(unsigned short *)q = (unsigned short)(w & 0xffff);
                }
            }
        }
    }
}

static __global__ void __launch_bounds__(NTHREADS, 1)
kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
       const __grid_constant__ tileops_gemm_args p, int tiles_m, int tiles_n, int k_tiles)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const uint32_t ring = (smem_addr(smem) + 1023) & ~1023u;
    const uint32_t bars = ring + RING_BYTES; // full[s] at bars + 8s, empty[s] at bars + 8(STAGES + s)
    const int tid = threadIdx.x, wg = tid / 128;
    const int tiles = tiles_m * tiles_n;
    const int group = tiles_m < GROUP ? tiles_m : GROUP;

    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(bars + 8 * s, 1);                      // the producer's expect_tx
            mbarrier_init(bars + 8 * (STAGES + s), CONSUMERS);   // one arrival a consumer
        }
        mbarrier_init_fence();
        tma_prefetch_map(&tma_a);
        tma_prefetch_map(&tma_b);
    }
    __syncthreads();

    if (wg == 0) {
        // ---- producer: one thread issues every copy ----
        setmaxnreg_dec<PRODUCER_REGS>();
        if (tid == 0) {
            int s = 0;
            unsigned phase = 0;
            for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
                int tm, tn;
                block_tile(t, tiles_m, tiles_n, group, tm, tn);
                const int m0 = tm * BM, n0 = tn * BN;
                for (int kt = 0; kt < k_tiles; kt++) {
                    const uint32_t full = bars + 8 * s, empty = bars + 8 * (STAGES + s);
                    // the consumers released this slot's previous contents (first round: at once)
                    mbarrier_wait(empty, phase ^ 1);
                    mbarrier_arrive_expect_tx(full, STAGE_BYTES); // whole boxes, zero-filled too
                    const uint32_t sa = ring + s * STAGE_BYTES, sb = sa + A_TILE_BYTES;
                    const int k0 = kt * BK;
                    tma_load_2d(sa, &tma_a, full, k0, m0);
                    if (B_KN) {
#pragma unroll
                        for (int j = 0; j < BN / 64; j++)
                            tma_load_2d(sb + j * KN_BLOCK_BYTES, &tma_b, full, n0 + 64 * j, k0);
                    } else {
                        tma_load_2d(sb, &tma_b, full, k0, n0);
                    }
                    if (++s == STAGES)
                        s = 0, phase ^= 1;
                }
            }
        }
        return;
    }

    // ---- consumers ----
    setmaxnreg_inc<CONSUMER_REGS>();
    const int c = wg - 1, lt = tid % 128;
    const bool leader = lt == 0; // arrives on the empty barriers for the warpgroup
    float acc[ACC];
    int s = 0;
    unsigned phase = 0;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        int tm, tn;
        block_tile(t, tiles_m, tiles_n, group, tm, tn);
        int prev = -1; // the slot whose wgmma group may still run
        for (int kt = 0; kt < k_tiles; kt++) {
            mbarrier_wait(bars + 8 * s, phase);
            const uint32_t sa = ring + s * STAGE_BYTES + c * A_WG_BYTES;
            const uint32_t sb = ring + s * STAGE_BYTES + A_TILE_BYTES;
            wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < KSTEPS; kk++) {
                const uint64_t da = wgmma_desc_sw128(sa + kk * 32, 16, 1024);
                const uint64_t db = B_KN ? wgmma_desc_sw128(sb + kk * 16 * 128, KN_BLOCK_BYTES, 1024)
                                         : wgmma_desc_sw128(sb + kk * 32, 16, 1024);
                mma_k16(acc, da, db, kt > 0 || kk > 0);
            }
            wgmma_commit();
            // The previous k tile's group is done once at most this one is pending: its slot
            // can be refilled. (The accumulators are chained through both groups: the hardware
            // orders them; nothing else touches them until the final wait.)
            wgmma_wait<1>();
            if (prev >= 0 && leader)
                mbarrier_arrive(bars + 8 * (STAGES + prev));
            prev = s;
            if (++s == STAGES)
                s = 0, phase ^= 1;
        }
        wgmma_wait<0>();
        wgmma_fence_operands(acc);
        if (leader)
            mbarrier_arrive(bars + 8 * (STAGES + prev));

        // Epilogue from registers: this thread's rows and first column (the fragment layout).
        const int w = lt / 32, l = lt % 32;
        const int64_t row0 = (int64_t)tm * BM + c * 64 + w * 16 + l / 4;
        const int64_t col0 = (int64_t)tn * BN + 2 * (l % 4);
        switch (gemm_act(p.epilogue)) {
        case GEMM_ACT_NONE:
            finish<GEMM_ACT_NONE>(p, acc, row0, col0);
            break;
        case GEMM_ACT_RELU:
            finish<GEMM_ACT_RELU>(p, acc, row0, col0);
            break;
        case GEMM_ACT_GELU_TANH:
            finish<GEMM_ACT_GELU_TANH>(p, acc, row0, col0);
            break;
        default:
            finish<GEMM_ACT_GELU_ERF>(p, acc, row0, col0);
        }
    }
}

// ---- host side --------------------------------------------------------------------------------

// Encodes the tensor maps (per call: ~50 ns each on the host), launches the persistent grid on
// the caller's stream; returns the first cudaError_t as an int.
static int launch(const void *args, cudaStream_t stream)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    const int bf16 = elem_is_bf16((const elem_t *)0); // tileops_mma.cuh
    CUtensorMap ma, mb;
    // A [M][K]: boxes of BK x BM. B [N][K]: BK x BN; B [K][N]: 64 columns x BK rows.
    err = tileops__tensor_map_2d(&ma, bf16, p->a, (uint64_t)p->k, (uint64_t)p->m,
                                 (uint64_t)p->lda * 2, BK, BM, 1);
    if (!err)
        err = B_KN ? tileops__tensor_map_2d(&mb, bf16, p->b, (uint64_t)p->n, (uint64_t)p->k,
                                            (uint64_t)p->ldb * 2, 64, BK, 1)
                   : tileops__tensor_map_2d(&mb, bf16, p->b, (uint64_t)p->k, (uint64_t)p->n,
                                            (uint64_t)p->ldb * 2, BK, BN, 1);
    if (err)
        return err;
    const int tiles_m = (int)((p->m + BM - 1) / BM), tiles_n = (int)((p->n + BN - 1) / BN);
    const int k_tiles = (int)((p->k + BK - 1) / BK);
    const int tiles = tiles_m * tiles_n;
    const int sms = p->sms > 0 ? p->sms : 1;
    const int grid = tiles < sms ? tiles : sms;
    kernel<<<grid, NTHREADS, SMEM_TOTAL, stream>>>(ma, mb, *p, tiles_m, tiles_n, k_tiles);
    return (int)cudaGetLastError();
}

// -1 if this instance cannot serve the call: anything TMA cannot describe (a pointer not
// 16-byte aligned, a leading dimension not a multiple of 8 elements), or sizes beyond its
// 32-bit coordinates; else a cost estimate in ns. No workspace.
static int64_t fit(const void *args, size_t *workspace_bytes)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    if (workspace_bytes)
        *workspace_bytes = 0;
    if (p->m < 1 || p->n < 1 || p->k < 1 || !gemm_aligned16(p))
        return -1;
    // TMA coordinates are int32 (and the box may start up to a tile past the end); global
    // strides below 2^40 bytes.
    const int64_t lim = 0x7fffffff - 256;
    if (p->m > lim || p->n > lim || p->k > lim || p->lda >= (1ll << 39) ||
        p->ldb >= (1ll << 39))
        return -1;
    const int64_t tiles_m = (p->m + BM - 1) / BM, tiles_n = (p->n + BN - 1) / BN;
    if (tiles_m * tiles_n > 0x7fffffff)
        return -1;
    const int64_t kp = (p->k + BK - 1) / BK * BK;
    // wgmma's dense rate is about 989 TFLOP/s on 132 SMs: 7.5 TFLOP/s an SM against the model's
    // nominal mma.sync 4.0. The tile efficiency 1 - 16 / intensity (128x256: 0.81, 128x128:
    // 0.75) is a guess until measured: the public kernels of this design reach 0.75-0.8 of the
    // dense rate at 128x256 (../shared/HOPPER-KERNELS.md).
    const double inten = (double)BM * BN / (BM + BN);
    const double eff = 7.5e3 / tileops__cost.sm_flop_ns * (1.0 - 16.0 / inten);
    const double bytes = 2.0 * ((double)p->m * p->k + (double)p->n * p->k +
                                (double)p->m * p->n * (p->c && p->beta != 0.0f ? 2 : 1));
    // One CTA an SM. Operands: a tile streams its A and B panels ((BM + BN) x K) through the
    // ring's STAGES - 1 slots in flight at the tiled latency (Little's law), and no faster than
    // an SM streams from DRAM (the small-M family's measured rate for 128-byte rows, which the
    // TMA boxes are) times the tile rows that share each B panel fetched (the grouped order:
    // up to GROUP). Either binds only where few tile rows share B: M <= 128 (decode and M = 128
    // stay with small-M and gemm_sm80 until split-K / stream-K land here), not large shapes.
    const double share = (double)(tiles_m < GROUP ? tiles_m : GROUP);
    return tileops__gemm_time_ns(p->sms, tiles_m * tiles_n, 1, 2.0 * BM * BN * kp, eff,
                                 2.0 * (BM + BN) * kp, tileops__gemm_stream_bw(128) * share,
                                 (STAGES - 1.0) * STAGE_BYTES, tileops__cost.lat_tiled_ns, bytes);
}
