// Template gemm_sm90: D = epilogue(alpha * A·op(B) + beta * C) with Hopper's own instructions
// (TMA, mbarrier, wgmma.mma_async, setmaxnreg), sm_90a only. Served beside gemm_sm80 and
// gemm_small_m (specs/gemm_wgmma.lua: serves = "gemm"); dispatch weighs all of them by fit().
//
// Reads from the generator: elem_t (__half or __nv_bfloat16); the block tile BM x BN x BK
// (BM = 64 * CONSUMERS, BK = 64: one 128-byte swizzle row); STAGES slots in the shared-memory
// ring; CONSUMERS consumer warpgroups; CLUSTER (CTAs a cluster, along M); KSPLIT (CTAs a
// cluster, along K); GROUP (cluster rows of tiles walked together); LAYOUT (LAYOUT_KN: B is
// [K,N]; LAYOUT_NK: B is [N,K]). Uses tileops_hopper.cuh, tileops_gemm.cuh, tensor_map.h and the
// host cost model of libops/cost_model.h (all included by tileops_device.cuh).
//
// The kernel is persistent: at most one CTA an SM; a cluster of CLUSTER CTAs takes a unit of
// CLUSTER vertically adjacent output tiles, units u, u + clusters, ..., numbered in groups of
// GROUP unit rows walked column by column (block_tile), so the CTAs running together share A
// rows and B columns in L2. The CTAs of a cluster share the unit's B tile: each loads 1/CLUSTER
// of it by TMA multicast into all of them. One CTA = 1 + CONSUMERS warpgroups:
//   - The producer warpgroup gives its registers away (setmaxnreg.dec); one thread walks the
//     same tiles and k tiles as the consumers and, for each, waits until its ring slot is empty
//     in every CTA of the cluster, announces the slot's bytes on the slot's full barrier and
//     issues the TMA copies of A [BM][BK] and its part of B. Out-of-bounds rows and the K tail
//     arrive as zeros (TMA's bounds handling), so the math needs no predicates.
//   - Consumer warpgroup c (setmaxnreg.inc) owns rows 64c .. 64c+63 of the tile: for each k
//     tile it waits on the slot's full barrier, issues BK/16 wgmma m64nBNk16 (A and B from
//     128-byte-swizzled shared memory, fp32 accumulators in registers; the tile's first with
//     scale-d = 0 instead of zeroing), commits, and once the previous k tile's group has
//     completed (wgmma.wait_group 1) releases that slot with one arrival on its empty barrier in
//     every CTA of the cluster (count CONSUMERS x CLUSTER). After the last k tile it waits for
//     everything and finishes its 64 x BN piece: alpha, beta·C, bias, activation, one rounding,
//     staged in shared memory 64 columns at a time and stored by TMA (which clips what lies
//     outside D), asynchronously. Meanwhile the producer already fills the ring with the next
//     tile's k tiles.
// Ping-pong (two consumers with BM = 64): each consumer takes whole 64 x BN tiles, the CTA's
// work items in turn (item i to consumer i % 2), so that one's epilogue runs while the other's
// k loop keeps the tensor cores busy. A ring slot then has one consumer a CTA (the empty
// barrier counts CLUSTER arrivals), and each consumer counts the other's k tiles to keep its
// place in the ring. Their k loops take turns: a consumer starts waiting on its item's slots
// only once the other has waited on all of its previous item's (named barriers 4 and 5), so no
// slot's barrier is more than one phase behind the one a consumer waits for.
// With KSPLIT > 1 (and CLUSTER = 1) the KSPLIT CTAs of a cluster share one output tile, rank r
// taking the r-th 1/KSPLIT of its k tiles, so that a few tiles (M = 128) still fill the SMs
// without a workspace or a second kernel. After the k loop the partial sums meet through
// distributed shared memory: the tile's 64 x 64 blocks (block b = consumer x BN/64 + column
// block) belong to rank b % KSPLIT; each CTA writes the blocks it does not own into its ring
// (free by then: the producer waits for the exchange before the next work item), and after a
// cluster barrier adds the others' copies of its own blocks to its accumulators and finishes
// only those.
//
// Shared memory (1024-byte aligned): STAGES slots of A [BM][64] then B, each row 128 bytes in
// the 128B swizzle (TMA writes it, wgmma's descriptors read it):
//   - A, and B as [N,K] (NK): K-major tiles, rows of 64 k; a k16 step is +32 bytes.
//   - B as [K,N] (KN): BN/64 blocks of [BK][64 n], each one TMA box of 64 columns (128 bytes,
//     the swizzle's limit) by BK rows (a cluster sharing one block: each CTA its BK/CLUSTER
//     rows, KN_ROWS): N-major, wgmma's transposed B (tnspB = 1), the blocks
//     KN_BLOCK_BYTES apart (the descriptor's leading byte offset), 8 k rows 1024 bytes apart
//     (its stride byte offset); a k16 step is +16 rows.
// Then two 64 x 64 staging blocks a consumer (the epilogue), each consumer's copy of the tile's
// bias (BN elements), then the barriers: full[STAGES], empty[STAGES].

constexpr int NTHREADS = (CONSUMERS + 1) * 128;
constexpr int CTAS = CLUSTER * KSPLIT;          // CTAs a cluster
constexpr bool B_KN = LAYOUT == LAYOUT_KN;
constexpr int KSTEPS = BK / 16;                 // wgmma k16 steps per k tile
constexpr int ACC = BN / 2;                     // fp32 accumulators a consumer thread: 64 x BN / 128
constexpr int A_TILE_BYTES = BM * BK * 2;
constexpr int A_WG_BYTES = 64 * BK * 2;         // one consumer's 64 rows of A
constexpr int B_TILE_BYTES = BN * BK * 2;
constexpr int STAGE_BYTES = A_TILE_BYTES + B_TILE_BYTES;
constexpr int RING_BYTES = STAGES * STAGE_BYTES;
constexpr int KN_BLOCK_BYTES = BK * 128;        // KN: one 64-column block of B
// KN: each CTA of a cluster loads KN_MINE of the tile's 64-column blocks, KN_ROWS k rows of
// each: whole blocks, or (one block, BN = 64) its 1/CLUSTER of the block's k rows.
constexpr int KN_MINE = BN / 64 >= CLUSTER ? BN / 64 / CLUSTER : 1;
constexpr int KN_ROWS = BN / 64 >= CLUSTER ? BK : BK / CLUSTER;
constexpr int B_PART_BYTES = B_TILE_BYTES / CLUSTER; // NK: each CTA's rows of B
// The epilogue stages each consumer's 64 x BN result 64 columns at a time (one 128-byte
// swizzled TMA store box) in two buffers, so one block's store runs while the next is written.
constexpr int EPI_BLOCK_BYTES = 64 * 128;
constexpr int EPI_BYTES = CONSUMERS * 2 * EPI_BLOCK_BYTES;
constexpr int BIAS_BYTES = CONSUMERS * BN * 2;
constexpr int SMEM_TOTAL = RING_BYTES + EPI_BYTES + BIAS_BYTES + 2048; // + alignment slack, barriers
constexpr int PRODUCER_REGS = 24, CONSUMER_REGS = 240;
// One consumer (256 threads) has 255 registers a thread without moving any; moving them would
// wait for ever if the launch allocated fewer than the budgets add up to.
constexpr bool MOVE_REGS = CONSUMERS > 1;
constexpr int JB = BN / 64;                     // 64-column blocks of a consumer's piece
constexpr int PART_BLOCK_BYTES = 64 * 64 * 4;   // one 64 x 64 fp32 block of partial sums
constexpr unsigned BAR_CONSUMERS = CONSUMERS + 1; // named barrier of every consumer (1..CONSUMERS: each one's own)
constexpr bool PINGPONG = CONSUMERS == 2 && BM == 64; // the consumers take whole tiles in turn
constexpr unsigned BAR_TURN = 4;                // + c: consumer c may start its next k loop
constexpr int SLOT_USERS = PINGPONG ? 1 : CONSUMERS; // consumers a CTA reading each slot

static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");
static_assert(LAYOUT == LAYOUT_KN || LAYOUT == LAYOUT_NK, "unknown layout");
static_assert(BM == 64 * CONSUMERS || PINGPONG, "a consumer warpgroup takes 64 rows");
static_assert(!PINGPONG || KSPLIT == 1, "ping-pong consumers take whole tiles, no K split");
static_assert(BK == 64, "BK is one 128-byte swizzle row of 2-byte elements");
static_assert(BN == 64 || BN == 128 || BN == 256, "BN is 64, 128 or 256 (one wgmma m64nBNk16)");
static_assert(CLUSTER == 1 || CLUSTER == 2, "clusters of 1 or 2 CTAs along M");
static_assert(KSPLIT == 1 || (CLUSTER == 1 && KSPLIT <= 8), "a cluster splits M or K, at most 8 CTAs");
static_assert(KSPLIT == 1 || CONSUMERS * JB * PART_BLOCK_BYTES <= RING_BYTES,
              "the partial sums exchanged through the ring fit it");
static_assert(B_PART_BYTES % 1024 == 0, "each CTA's part of B starts on a swizzle atom");
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

// The work of one launch: the output tiles, the k tiles, and the split of K (splits > 1: each
// of `splits` CTAs takes `per` k tiles of a tile, the last fewer, and writes fp32 partials to the
// workspace, [split][m][ldw]; a second kernel sums them and runs the epilogue. KSPLIT > 1: the
// cluster's CTAs take `per` k tiles each, and splits is 1).
struct plan {
    int tiles_m, tiles_n, k_tiles;
    int splits, per;
    int64_t ldw; // workspace row pitch in floats: N rounded up to 8
    size_t ws;   // workspace bytes (0 with one split)
};

// Work item w of a CTA of cluster ranks mrank (along M) and krank (along K): split w % splits
// (or krank) of unit w / splits (block_tile's order; splits and tiles_n are pl's, passed as the
// kernel holds them); the CTA's tile (tm, tn) and that split's k tiles [kt0, kt1). The producer
// and the consumers walk the same items through this.
struct work {
    int tm, tn, split, kt0, kt1;
};
static __device__ __forceinline__ work work_item(int w, const plan &pl, int splits, int units_m,
                                                 int tiles_n, int group, unsigned mrank,
                                                 unsigned krank)
{
    work wk;
    const int u = w / splits;
    wk.split = KSPLIT > 1 ? (int)krank : w - u * splits;
    int um;
    block_tile(u, units_m, tiles_n, group, um, wk.tn);
    wk.tm = um * CLUSTER + (int)mrank;
    wk.kt0 = wk.split * pl.per;
    wk.kt1 = wk.kt0 + pl.per < pl.k_tiles ? wk.kt0 + pl.per : pl.k_tiles;
    return wk;
}

// One k16 step of a consumer: acc (+)= A (64 x 16) x B (16 x BN) from the descriptors.
static __device__ __forceinline__ void mma_k16(float (&acc)[ACC], uint64_t da, uint64_t db,
                                               int scale_d)
{
    wgmma_ss<B_KN ? 1 : 0>(acc, da, db, scale_d, (const elem_t *)0);
}

// One TMA box of B into dst: multicast to the whole cluster when there is one.
static __device__ __forceinline__ void load_b(uint32_t dst, const CUtensorMap *map, uint32_t bar,
                                              int c0, int c1)
{
    if (CLUSTER > 1)
        tma_load_2d_multicast(dst, map, bar, c0, c1, (uint16_t)((1u << CLUSTER) - 1));
    else
        tma_load_2d(dst, map, bar, c0, c1);
}

// A consumer warpgroup's release of a ring slot: one arrival on that slot's empty barrier in
// every CTA of the cluster (each CTA's producer refills the slot in both).
static __device__ __forceinline__ void release(uint32_t empty)
{
    if (CLUSTER > 1) {
#pragma unroll
        for (int r = 0; r < CLUSTER; r++)
            mbarrier_arrive_cluster(empty, (unsigned)r);
    } else {
        mbarrier_arrive(empty);
    }
}

// Two consecutive elements at q as stored (both: q is 4-byte aligned), or one (the high half 0).
static __device__ __forceinline__ uint32_t load2_bits(const elem_t *q, bool both)
{
    return both ? *(const uint32_t *)q : (uint32_t)*(const unsigned short *)q;
}

// The two elements of load2_bits widened to fp32.
static __device__ __forceinline__ void bits2_f32(uint32_t u, float &lo, float &hi)
{
    lo = bits_to_f32((unsigned short)(u & 0xffff), (const elem_t *)0);
    hi = bits_to_f32((unsigned short)(u >> 16), (const elem_t *)0);
}

// Copies the tile's bias (BN elements from tile_col, zeros past N) into buf, BN * 2 bytes,
// by cp.async from BN / 8 of the warpgroup's threads; it lands under the tile's k loop and is
// waited for when the epilogue starts (cp_async_wait, then the warpgroup's barrier).
static __device__ __forceinline__ void prefetch_bias(const tileops_gemm_args &p, int64_t tile_col,
                                                     uint32_t buf, int lt)
{
    if (lt < BN / 8) {
        const int64_t col = tile_col + 8 * lt;
        const int64_t left = p.n - col;
        const int bytes = left >= 8 ? 16 : left > 0 ? (int)left * 2 : 0;
        cp_async_16(buf + 16 * lt, (const elem_t *)p.bias + (bytes ? col : 0), bytes);
        cp_async_commit();
    }
}

// Where thread column pair q4 of n8 block jj of staged row r goes: 16-byte chunk jj of the row
// at jj ^ (r % 8) (the 128-byte swizzle the TMA store reads).
static __device__ __forceinline__ uint32_t stage_addr(uint32_t buf, uint32_t r, int jj, int q4)
{
    return buf + r * 128 + (((uint32_t)jj ^ (r & 7)) << 4) + 4 * q4;
}

// One 64-column block jb of a consumer's 64 x BN piece: D = act(alpha * acc + beta * C + bias)
// rounded once, into the staging buffer buf (64 rows of 128 bytes, 128-byte swizzle: 16-byte
// chunk q of row r at q ^ (r % 8), so the warp's stores hit distinct banks). The thread holds,
// for n8 block j, columns col0 + 8j and +1 of rows row0 and row0 + 8, staged as row srow and
// srow + 8 (the wgmma fragment layout). C is read before the block's D is stored (by TMA, after
// the warpgroup's barrier), so C may be D. Rows and columns outside D are computed and not
// stored (the TMA store clips them); C is read only inside. bias: the staged bias of the tile
// (prefetch_bias), or 0 for none. direct: the block is stored here,
// element by element with bounds checks, instead (TMA clips a row's end only to 16 bytes).
// Pairs are 4-byte accesses: c and d are 16-byte aligned with leading dimensions of 8
// elements (fit()), and col0 is even.
template <int ACT>
static __device__ __forceinline__ void finish_block(const tileops_gemm_args &p,
                                                    const float (&acc)[ACC], uint32_t bias,
                                                    int jb, int64_t row0, int64_t col0,
                                                    uint32_t buf, int srow, int q4, bool direct)
{
    const bool has_c = p.c && p.beta != 0.0f;
#pragma unroll
    for (int jj = 0; jj < 8; jj++) {
        const int j = 8 * jb + jj;
        const int64_t col = col0 + 8 * j;
        const bool in = col < p.n, both = col + 1 < p.n;
        float b0 = 0.0f, b1 = 0.0f;
        if (bias)
            bits2_f32(ld_shared_u32(bias + 16 * j + 4 * q4), b0, b1);
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int64_t row = row0 + 8 * h;
            float v0 = acc[4 * j + 2 * h] * p.alpha, v1 = acc[4 * j + 2 * h + 1] * p.alpha;
            if (has_c && in && row < p.m) {
                float c0, c1;
                bits2_f32(load2_bits((const elem_t *)p.c + row * p.ldc + col, both), c0, c1);
                v0 = fmaf(p.beta, c0, v0);
                v1 = fmaf(p.beta, c1, v1);
            }
            v0 = gemm_activate<ACT>(v0 + b0);
            v1 = gemm_activate<ACT>(v1 + b1);
            const uint32_t w = pack2(v0, v1, (const elem_t *)0);
            if (direct) {
                if (in && row < p.m) {
                    elem_t *q = (elem_t *)p.d + row * p.ldd + col;
                    if (both)
                        *(uint32_t *)q = w;
                    else
                        *(unsigned short *)q = (unsigned short)(w & 0xffff);
                }
            } else {
                st_shared_u32(stage_addr(buf, (uint32_t)(srow + 8 * h), jj, q4), w);
            }
        }
    }
}

// finish_block where there is no C and TMA stores the block: act(alpha * acc + bias) into the
// staging buffer, 8 values (two n8 blocks of both rows) at a time, GELU out of line
// (gemm_gelu8). Short code matters here: the epilogue runs cold from the instruction cache
// every tile, and finish_block with everything inline is several times longer.
template <int ACT>
static __device__ __forceinline__ void stage_block(const float (&acc)[ACC], float alpha,
                                                   uint32_t bias, int jb, uint32_t buf, int srow,
                                                   int q4)
{
#pragma unroll
    for (int jp = 0; jp < 4; jp++) {
        const int j0 = 8 * jb + 2 * jp; // n8 blocks j0 and j0 + 1: value 4u + 2h + e
        gemm_f8 x;
#pragma unroll
        for (int i = 0; i < 8; i++)
            x.v[i] = acc[4 * j0 + i] * alpha;
        if (bias) {
#pragma unroll
            for (int u = 0; u < 2; u++) {
                float b0, b1;
                bits2_f32(ld_shared_u32(bias + 16 * (j0 + u) + 4 * q4), b0, b1);
                x.v[4 * u] += b0, x.v[4 * u + 2] += b0; // both rows, column 2 q4
                x.v[4 * u + 1] += b1, x.v[4 * u + 3] += b1;
            }
        }
        if (ACT == GEMM_ACT_GELU_TANH || ACT == GEMM_ACT_GELU_ERF)
            x = gemm_gelu8(x, ACT);
        else
            x = gemm_activate8_inline<ACT>(x);
#pragma unroll
        for (int u = 0; u < 2; u++)
#pragma unroll
            for (int h = 0; h < 2; h++)
                st_shared_u32(
                    stage_addr(buf, (uint32_t)(srow + 8 * h), 2 * jp + u, q4),
                    pack2(x.v[4 * u + 2 * h], x.v[4 * u + 2 * h + 1], (const elem_t *)0));
    }
}

// Whether K-split rank krank finishes 64-column block jb of consumer c's piece (every block
// without a K split).
static __device__ __forceinline__ bool owns_block(int c, int jb, unsigned krank)
{
    return KSPLIT == 1 || (c * JB + jb) % KSPLIT == (int)krank;
}

// A consumer's whole epilogue for its 64 x BN piece at (tile_row, tile_col), the blocks it owns
// (owns_block): block by block into the two staging buffers at stage, each stored by the
// warpgroup's leader with one TMA box while the next is written; a block that ends past N where
// N is not a multiple of 8 elements is stored directly. Barrier 1 + c is the warpgroup's own.
template <int ACT>
static __device__ __forceinline__ void finish(const tileops_gemm_args &p, const float (&acc)[ACC],
                                              uint32_t bias, const CUtensorMap *tma_d, int64_t tile_row,
                                              int64_t tile_col, uint32_t stage, int c,
                                              unsigned krank, bool leader, int lt)
{
    const int w = lt / 32, l = lt % 32;
    const int srow = w * 16 + l / 4, q4 = l % 4;
    const int64_t row0 = tile_row + srow, col0 = tile_col + 2 * q4;
    const unsigned bar = 1 + c;
    const bool has_c = p.c && p.beta != 0.0f;
    cp_async_wait<0>(); // this thread's part of the bias (the first barrier below shows it all)
    int n = 0;          // blocks staged so far: they alternate between the buffers
#pragma unroll
    for (int jb = 0; jb < JB; jb++) {
        if (!owns_block(c, jb, krank))
            continue;
        const uint32_t buf = stage + (n % 2) * EPI_BLOCK_BYTES;
        const bool direct = (p.n & 7) != 0 && tile_col + 64 * (jb + 1) > p.n;
        // The store that last read buf is done with it: the one two blocks back, or, for an
        // item's first block, any the previous item left (it may have staged an odd count of
        // blocks, its last one in buffer 0: BN = 64, or a K split's share of the blocks).
        if (leader && n == 0)
            bulk_wait_read<0>();
        else if (leader)
            bulk_wait_read<1>();
        n++;
        named_barrier_sync(bar, 128);
        if (!has_c && !direct)
            stage_block<ACT>(acc, p.alpha, bias, jb, buf, srow, q4);
        else
            finish_block<ACT>(p, acc, bias, jb, row0, col0, buf, srow, q4, direct);
        fence_proxy_async(); // the staged block is read by TMA next
        named_barrier_sync(bar, 128);
        if (leader && !direct) {
            tma_store_2d(tma_d, buf, (int)(tile_col + 64 * jb), (int)tile_row);
            bulk_commit();
        }
    }
}

// A split's share of a consumer's 64 x BN piece, unscaled fp32, into the workspace slice
// `split` (8-byte pairs: ldw and col0 are even), rows and columns inside D only.
static __device__ __forceinline__ void store_partials(const tileops_gemm_args &p,
                                                      const float (&acc)[ACC], const plan &pl,
                                                      int split, int64_t tile_row,
                                                      int64_t tile_col, int lt)
{
    const int w = lt / 32, l = lt % 32;
    const int64_t row0 = tile_row + w * 16 + l / 4, col0 = tile_col + 2 * (l % 4);
    float *ws = (float *)p.workspace + (int64_t)split * p.m * pl.ldw;
#pragma unroll
    for (int j = 0; j < ACC / 4; j++) {
        const int64_t col = col0 + 8 * j;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int64_t row = row0 + 8 * h;
            if (col < p.n && row < p.m)
                *(float2 *)(ws + row * pl.ldw + col) =
                    make_float2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
        }
    }
}

// K split: the exchange of a consumer's partial sums with the other CTAs of the cluster. Each
// thread writes the blocks it does not finish into the ring (part_addr: [consumer][column
// block][i][thread] 16-byte chunks, so a warp's stores and loads are contiguous); after the
// cluster barrier it adds every other rank's copy of the blocks it owns. The caller has made sure
// no wgmma still reads the ring (both consumers past their k loop).
static __device__ __forceinline__ uint32_t part_addr(uint32_t ring, int c, int jb, int i, int lt)
{
    return ring + (uint32_t)((((c * JB + jb) * 8 + i) * 128 + lt) * 16);
}
static __device__ __forceinline__ void exchange_partials(float (&acc)[ACC], uint32_t ring, int c,
                                                         unsigned krank, int lt)
{
#pragma unroll
    for (int jb = 0; jb < JB; jb++) {
        if (owns_block(c, jb, krank))
            continue;
#pragma unroll
        for (int i = 0; i < 8; i++)
            st_shared_f32x4(part_addr(ring, c, jb, i, lt), acc[32 * jb + 4 * i],
                            acc[32 * jb + 4 * i + 1], acc[32 * jb + 4 * i + 2],
                            acc[32 * jb + 4 * i + 3]);
    }
    fence_proxy_async(); // the ring is TMA's again after the exchange
    cluster_sync();      // every rank's partials are written (the producers meet it too)
#pragma unroll
    for (int jb = 0; jb < JB; jb++) {
        if (!owns_block(c, jb, krank))
            continue;
#pragma unroll
        for (int r = 1; r < KSPLIT; r++) {
            const unsigned src = (krank + r) % KSPLIT;
            float4 v[8];
#pragma unroll
            for (int i = 0; i < 8; i++)
                v[i] = ld_shared_cluster_f32x4(part_addr(ring, c, jb, i, lt), src);
#pragma unroll
            for (int i = 0; i < 8; i++) {
                acc[32 * jb + 4 * i] += v[i].x;
                acc[32 * jb + 4 * i + 1] += v[i].y;
                acc[32 * jb + 4 * i + 2] += v[i].z;
                acc[32 * jb + 4 * i + 3] += v[i].w;
            }
        }
    }
    cluster_sync(); // every rank has read this CTA's partials: the ring may be refilled
}

static __global__ void __launch_bounds__(NTHREADS, 1)
kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
       const __grid_constant__ CUtensorMap tma_d, const __grid_constant__ tileops_gemm_args p,
       const __grid_constant__ plan pl)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const uint32_t ring = (smem_addr(smem) + 1023) & ~1023u;
    const uint32_t epi = ring + RING_BYTES;        // the consumers' staging buffers
    const uint32_t bias_bufs = epi + EPI_BYTES;    // the consumers' bias of the tile
    const uint32_t bars = bias_bufs + BIAS_BYTES;  // full[s] at bars + 8s, empty[s] at bars + 8(STAGES + s)
    const int tid = threadIdx.x, wg = tid / 128;
    // A cluster takes CLUSTER vertically adjacent tiles (a unit) at once: CTA `mrank` the
    // mrank-th; past the last tile row it computes zeros and stores nothing. With a K split its
    // CTAs take the unit's one tile, CTA `krank` the krank-th share of its k tiles.
    const unsigned rank = CTAS > 1 ? cluster_ctarank() : 0;
    const unsigned mrank = CLUSTER > 1 ? rank : 0, krank = KSPLIT > 1 ? rank : 0;
    // work item w: split w % splits of unit w / splits
    const int tiles_n = pl.tiles_n, splits = pl.splits;
    const int units_m = (pl.tiles_m + CLUSTER - 1) / CLUSTER, works = units_m * tiles_n * splits;
    const int first = blockIdx.x / CTAS, step = gridDim.x / CTAS;
    const int group = units_m < GROUP ? units_m : GROUP;

    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(bars + 8 * s, 1);                                // the producer's expect_tx
            mbarrier_init(bars + 8 * (STAGES + s), SLOT_USERS * CLUSTER); // its consumers in the cluster
        }
        mbarrier_init_fence();
        tma_prefetch_map(&tma_a);
        tma_prefetch_map(&tma_b);
        tma_prefetch_map(&tma_d);
    }
    // the partner's barriers must exist before its multicasts and arrivals reach them
    if (CTAS > 1)
        cluster_sync();
    else
        __syncthreads();

    if (wg == 0) {
        // ---- producer: one thread issues every copy (with a K split, the whole warpgroup
        // meets the consumers' two cluster barriers of each work item) ----
        if (MOVE_REGS)
            setmaxnreg_dec<PRODUCER_REGS>();
        int s = 0;
        unsigned phase = 0;
        for (int w = first; w < works && (tid == 0 || KSPLIT > 1); w += step) {
            const work wk = work_item(w, pl, splits, units_m, tiles_n, group, mrank, krank);
            const int m0 = wk.tm * BM, n0 = wk.tn * BN;
            for (int kt = wk.kt0; kt < wk.kt1 && tid == 0; kt++) {
                const uint32_t full = bars + 8 * s, empty = bars + 8 * (STAGES + s);
                // every consumer of the cluster released this slot's previous contents
                // (first round: at once); the partner's B half lands here too
                mbarrier_wait(empty, phase ^ 1);
                mbarrier_arrive_expect_tx(full, STAGE_BYTES); // whole boxes, zero-filled too
                const uint32_t sa = ring + s * STAGE_BYTES, sb = sa + A_TILE_BYTES;
                const int k0 = kt * BK;
                tma_load_2d(sa, &tma_a, full, k0, m0);
                // B: this CTA's 1/CLUSTER of the tile, into every CTA of the cluster
                if (B_KN && KN_ROWS < BK) {
                    load_b(sb + mrank * KN_ROWS * 128, &tma_b, full, n0, k0 + (int)mrank * KN_ROWS);
                } else if (B_KN) {
#pragma unroll
                    for (int j = (int)mrank * KN_MINE; j < ((int)mrank + 1) * KN_MINE; j++)
                        load_b(sb + j * KN_BLOCK_BYTES, &tma_b, full, n0 + 64 * j, k0);
                } else {
                    load_b(sb + mrank * B_PART_BYTES, &tma_b, full, k0,
                           n0 + (int)mrank * (BN / CLUSTER));
                }
                if (++s == STAGES)
                    s = 0, phase ^= 1;
            }
            if (KSPLIT > 1) {
                cluster_sync(); // the partials are written
                cluster_sync(); // and read: the ring is free for the next item
            }
        }
    } else {
        // ---- consumers ----
        if (MOVE_REGS)
            setmaxnreg_inc<CONSUMER_REGS>();
        const int c = wg - 1, lt = tid % 128;
        const bool leader = lt == 0; // arrives on the empty barriers for the warpgroup
        const bool has_bias = (p.epilogue & TILEOPS_EPILOGUE_BIAS) && p.bias;
        float acc[ACC];
        int s = 0;
        unsigned phase = 0;
        for (int w = first, item = 0; w < works; w += step, item++) {
            const work wk = work_item(w, pl, splits, units_m, tiles_n, group, mrank, krank);
            const int tm = wk.tm, tn = wk.tn, split = wk.split, kt0 = wk.kt0, kt1 = wk.kt1;
            if (PINGPONG && (item & 1) != c) { // the other consumer's: pass its slots
                s += kt1 - kt0;
                phase ^= (unsigned)(s / STAGES) & 1u;
                s %= STAGES;
                continue;
            }
            if (PINGPONG && item > 0) // the other consumer has waited on its last k tile
                named_barrier_sync(BAR_TURN + c, 256);
            const uint32_t bias = has_bias && splits == 1 ? bias_bufs + c * BN * 2 : 0;
            if (bias)
                prefetch_bias(p, (int64_t)tn * BN, bias, lt);
            if (kt0 >= kt1) { // a K-split rank past the last k tile adds zeros
#pragma unroll
                for (int i = 0; i < ACC; i++)
                    acc[i] = 0.0f;
            }
            int prev = -1; // the slot whose wgmma group may still run
            for (int kt = kt0; kt < kt1; kt++) {
                mbarrier_wait(bars + 8 * s, phase);
                const uint32_t sa = ring + s * STAGE_BYTES + (PINGPONG ? 0 : c * A_WG_BYTES);
                const uint32_t sb = ring + s * STAGE_BYTES + A_TILE_BYTES;
                wgmma_fence();
#pragma unroll
                for (int kk = 0; kk < KSTEPS; kk++) {
                    const uint64_t da = wgmma_desc_sw128(sa + kk * 32, 16, 1024);
                    const uint64_t db = B_KN ? wgmma_desc_sw128(sb + kk * 16 * 128, KN_BLOCK_BYTES, 1024)
                                             : wgmma_desc_sw128(sb + kk * 32, 16, 1024);
                    mma_k16(acc, da, db, kt > kt0 || kk > 0);
                }
                wgmma_commit();
                // The previous k tile's group is done once at most this one is pending: its
                // slot can be refilled. (The accumulators are chained through both groups: the
                // hardware orders them; nothing else touches them until the final wait.)
                wgmma_wait<1>();
                if (prev >= 0 && leader)
                    release(bars + 8 * (STAGES + prev));
                prev = s;
                if (++s == STAGES)
                    s = 0, phase ^= 1;
            }
            // The next item's consumer may start its k loop. (Its first full-barrier wait is
            // then at most one phase behind only because this arrival follows this loop's last
            // wait, and because both CTAs of a cluster give item i to consumer i % 2.)
            if (PINGPONG && w + step < works)
                named_barrier_arrive(BAR_TURN + (c ^ 1), 256);
            wgmma_wait<0>();
            wgmma_fence_operands(acc);
            if (prev >= 0 && leader)
                release(bars + 8 * (STAGES + prev));

            // Epilogue: from the accumulators through shared memory, stored by TMA; or the
            // split's partials, finished by the second kernel.
            const int64_t tile_row = (int64_t)tm * BM + (PINGPONG ? 0 : c * 64);
            const int64_t tile_col = (int64_t)tn * BN;
            const uint32_t stage = epi + c * 2 * EPI_BLOCK_BYTES;
            if (splits > 1) {
                store_partials(p, acc, pl, split, tile_row, tile_col, lt);
                continue;
            }
            if (KSPLIT > 1) {
                named_barrier_sync(BAR_CONSUMERS, CONSUMERS * 128); // no wgmma reads the ring
                exchange_partials(acc, ring, c, krank, lt);
            }
            switch (gemm_act(p.epilogue)) {
            case GEMM_ACT_NONE:
                finish<GEMM_ACT_NONE>(p, acc, bias, &tma_d, tile_row, tile_col, stage, c,
                                      krank, leader, lt);
                break;
            case GEMM_ACT_RELU:
                finish<GEMM_ACT_RELU>(p, acc, bias, &tma_d, tile_row, tile_col, stage, c,
                                      krank, leader, lt);
                break;
            case GEMM_ACT_GELU_TANH:
                finish<GEMM_ACT_GELU_TANH>(p, acc, bias, &tma_d, tile_row, tile_col, stage, c,
                                           krank, leader, lt);
                break;
            default:
                finish<GEMM_ACT_GELU_ERF>(p, acc, bias, &tma_d, tile_row, tile_col, stage, c,
                                          krank, leader, lt);
            }
        }
        if (leader)
            bulk_wait<0>(); // the last stores have left shared memory and reached D
    }
    // no CTA leaves while its partners may still arrive on its barriers or read its ring
    if (CTAS > 1)
        cluster_sync();
}

// ---- host side --------------------------------------------------------------------------------

// How many clusters of this kernel the device runs at once (per device, asked once): a
// persistent grid larger than that would run its last clusters as a second wave.
static int resident_clusters(cudaStream_t stream)
{
    static int known[64]; // by device ordinal; 0: not asked yet
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) {
        (void)cudaGetLastError();
        return 0;
    }
    int n = __atomic_load_n(&known[dev], __ATOMIC_RELAXED);
    if (n > 0)
        return n;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    cluster_launch_config(&cfg, &attr, 1, CTAS, NTHREADS, SMEM_TOTAL, stream);
    if (cudaOccupancyMaxActiveClusters(&n, (const void *)kernel, &cfg) != cudaSuccess || n < 1) {
        (void)cudaGetLastError();
        return 0;
    }
    __atomic_store_n(&known[dev], n, __ATOMIC_RELAXED);
    return n;
}

// Encodes the tensor maps (per call: ~50 ns each on the host), launches the persistent grid on
// The partials' reduction (splits > 1), with the epilogue.
static __global__ void __launch_bounds__(GEMM_REDUCE_THREADS)
reduce(const __grid_constant__ tileops_gemm_args p, int splits, int64_t ldw)
{
    gemm_reduce_splits<elem_t>(p, splits, ldw, true);
}

// The CTAs busy with `splits` splits of every unit (and the K split's CTAs).
static int64_t busy_ctas(const plan &pl, int64_t splits)
{
    return (pl.tiles_m + CLUSTER - 1) / CLUSTER * CTAS * (int64_t)pl.tiles_n * splits;
}

// Tiles and k tiles of the call, and its split of K: none while the tiles keep at least half
// the SMs busy; else as many splits as fill the SMs, each of at least 4 k tiles (the ring's
// depth: fewer leave it draining), at most 16, within ws_limit bytes of partials.
static plan make_plan(const tileops_gemm_args *p, size_t ws_limit)
{
    plan pl;
    pl.tiles_m = (int)((p->m + BM - 1) / BM);
    pl.tiles_n = (int)((p->n + BN - 1) / BN);
    pl.k_tiles = (int)((p->k + BK - 1) / BK);
    pl.ldw = (p->n + 7) / 8 * 8;
    pl.splits = 1, pl.per = pl.k_tiles, pl.ws = 0;
    if (KSPLIT > 1) { // the cluster's CTAs share each tile's k tiles; nothing in the workspace
        pl.per = (pl.k_tiles + KSPLIT - 1) / KSPLIT;
        return pl;
    }
    const int64_t busy = busy_ctas(pl, 1), sms = p->sms > 0 ? p->sms : 1;
    if (busy * 2 > sms)
        return pl;
    int64_t s = sms / busy;
    if (s > pl.k_tiles / 4)
        s = pl.k_tiles / 4;
    if (s > 16)
        s = 16;
    const size_t slice = (size_t)p->m * (size_t)pl.ldw * sizeof(float);
    if ((size_t)s > ws_limit / slice)
        s = (int64_t)(ws_limit / slice);
    if (s < 2)
        return pl;
    pl.per = (int)((pl.k_tiles + s - 1) / s);
    pl.splits = (pl.k_tiles + pl.per - 1) / pl.per; // no empty split
    pl.ws = (size_t)pl.splits * slice;
    return pl;
}

// Encodes the tensor maps (per call: ~50 ns each on the host), launches the persistent grid on
// the caller's stream (and the reduction after a split); returns the first cudaError_t as an
// int. A workspace smaller than fit() asked for gets fewer splits.
static int launch(const void *args, cudaStream_t stream)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    const int bf16 = elem_is_bf16((const elem_t *)0); // tileops_mma.cuh
    CUtensorMap ma, mb, md;
    // A [M][K]: boxes of BK x BM. B [N][K]: BK x BN/CLUSTER (each CTA's part); B [K][N]: 64
    // columns x KN_ROWS rows. D [M][N]: 64 x 64 (an epilogue block).
    err = tileops__tensor_map_2d(&ma, bf16, p->a, (uint64_t)p->k, (uint64_t)p->m,
                                 (uint64_t)p->lda * 2, BK, BM, 1);
    if (!err)
        err = B_KN ? tileops__tensor_map_2d(&mb, bf16, p->b, (uint64_t)p->n, (uint64_t)p->k,
                                            (uint64_t)p->ldb * 2, 64, KN_ROWS, 1)
                   : tileops__tensor_map_2d(&mb, bf16, p->b, (uint64_t)p->k, (uint64_t)p->n,
                                            (uint64_t)p->ldb * 2, BK, BN / CLUSTER, 1);
    if (!err)
        err = tileops__tensor_map_2d(&md, bf16, p->d, (uint64_t)p->n, (uint64_t)p->m,
                                     (uint64_t)p->ldd * 2, 64, 64, 1);
    if (err)
        return err;
    const plan pl = make_plan(p, p->workspace ? p->workspace_bytes : 0);
    const int64_t works = busy_ctas(pl, pl.splits) / CTAS;
    int64_t clusters = (p->sms > 0 ? p->sms : 1) / CTAS;
    if (CTAS > 1) {
        const int resident = resident_clusters(stream);
        if (resident > 0 && resident < clusters)
            clusters = resident;
    }
    if (clusters < 1)
        clusters = 1;
    if (works < clusters)
        clusters = works;
    if (CTAS == 1) {
        kernel<<<(unsigned)clusters, NTHREADS, SMEM_TOTAL, stream>>>(ma, mb, md, *p, pl);
        err = (int)cudaGetLastError();
    } else {
        cudaLaunchConfig_t cfg;
        cudaLaunchAttribute attr;
        cluster_launch_config(&cfg, &attr, (unsigned)clusters, CTAS, NTHREADS, SMEM_TOTAL, stream);
        err = (int)cudaLaunchKernelEx(&cfg, kernel, ma, mb, md, *p, pl);
        if (!err)
            err = (int)cudaGetLastError();
    }
    if (err || pl.splits == 1)
        return err;
    reduce<<<gemm_reduce_blocks(p->m, p->n), GEMM_REDUCE_THREADS, 0, stream>>>(*p, pl.splits,
                                                                              pl.ldw);
    return (int)cudaGetLastError();
}

// -1 if this instance cannot serve the call: M <= 64, anything TMA cannot describe (a pointer
// not 16-byte aligned, a leading dimension not a multiple of 8 elements), or sizes beyond its
// 32-bit coordinates; else a cost estimate in ns; *workspace_bytes = the partials' size of the
// split plan (0 without one).
static int64_t fit(const void *args, size_t *workspace_bytes)
{
    const tileops_gemm_args *p = (const tileops_gemm_args *)args;
    if (workspace_bytes)
        *workspace_bytes = 0;
    // Rows up to 64 (decode) are the small-M family's: it streams B at 0.98-1.09x cuBLAS there,
    // where a 128-row tile would spend most of its MMA on padding.
    if (p->m <= 64 || p->n < 1 || p->k < 1 || !gemm_aligned16(p))
        return -1;
    // TMA coordinates are int32 (and the box may start up to a tile past the end); global
    // strides below 2^40 bytes.
    const int64_t lim = 0x7fffffff - 256;
    if (p->m > lim || p->n > lim || p->k > lim || p->lda >= (1ll << 39) ||
        p->ldb >= (1ll << 39) || p->ldd >= (1ll << 39))
        return -1;
    const int64_t tiles_m = (p->m + BM - 1) / BM, tiles_n = (p->n + BN - 1) / BN;
    const int64_t units_m = (tiles_m + CLUSTER - 1) / CLUSTER;
    if (units_m * CLUSTER * tiles_n * 16 > 0x7fffffff)
        return -1;
    const plan pl = make_plan(p, (size_t)-1);
    if (workspace_bytes)
        *workspace_bytes = pl.ws;
    // wgmma's dense rate is about 989 TFLOP/s on 132 SMs: 7.5 TFLOP/s an SM against the model's
    // nominal mma.sync 4.0, times the tile efficiency 1 - 16 / intensity (128x256: 0.81,
    // 128x128: 0.75; the H200 ran 128x256 at 0.72-0.77 of 989 on 4096^3).
    const double inten = (double)BM * BN / (BM + BN);
    const double eff = 7.5e3 / tileops__cost.sm_flop_ns * (1.0 - 16.0 / inten);
    const double bytes = 2.0 * ((double)p->m * p->k + (double)p->n * p->k +
                                (double)p->m * p->n * (p->c && p->beta != 0.0f ? 2 : 1));
    // One CTA an SM (a cluster's CTAs run together: a ragged last unit still takes CLUSTER
    // SMs). Operands: a work item streams its A and B panels ((BM + BN) x its K) through the
    // ring's STAGES - 1 slots in flight at the tiled latency (Little's law), and no faster than
    // an SM streams from DRAM (the small-M family's measured rate for 128-byte rows, which the
    // TMA boxes are, times TMA_STREAM) times the tile rows that share each B panel fetched (the grouped order:
    // up to GROUP units). Either binds only where few tile rows share B (M <= 256). A split
    // pays its partials' bytes (written, then read by the reduction) on top, and the
    // reduction's launch; a K split in the cluster pays 2.5 us a round of work items for its
    // exchange and the producer's wait for it (fitted to the H100's 128 x 4096 x 4096: 29.1 us
    // with 2 ranks, 30.0 with 4 workspace splits; 256 x 4096 x 4096: 32.2 against 35.5; two
    // rounds at 128 x 11008 x 4096: 57.0 against 47.5 unsplit). The fixed 4 us (tensor maps, cluster launch, the ring's first fill,
    // the last tile's drain) is fitted to the H200: 1024^3 took 21.7 us, 2048^3 38.3.
    const double kp = (double)pl.per * BK;
    // TMA streams a tile's panels 3x as fast as small-M's cp.async rows (fitted to the H200's
    // M = 128 rows: 128x4096x4096 with 4 splits of 128x128 tiles took 27.4 us, 128x11008x4096
    // unsplit 38.6)
    const double TMA_STREAM = 3.0;
    const double partials = pl.splits > 1 ? 8.0 * pl.splits * p->m * pl.ldw : 0.0;
    const double share = (double)(tiles_m < GROUP * CLUSTER ? tiles_m : GROUP * CLUSTER);
    const int64_t sms = p->sms > 0 ? p->sms : 1, rounds = (busy_ctas(pl, 1) + sms - 1) / sms;
    return tileops__gemm_time_ns(p->sms, busy_ctas(pl, pl.splits), 1, 2.0 * BM * BN * kp, eff,
                                 2.0 * (BM + BN) * kp, TMA_STREAM * tileops__gemm_stream_bw(128) * share,
                                 (STAGES - 1.0) * STAGE_BYTES, tileops__cost.lat_tiled_ns, bytes) +
           4000 + (int64_t)(partials / tileops__cost.dram_bytes_ns) +
           (pl.splits > 1 ? 2000 : 0) + (KSPLIT > 1 ? 2500 * rounds : 0);
}
