// Template flash_attention_sm90: O = softmax(scale * Q·Kᵀ + mask) · V, forward, with Hopper's
// own instructions (TMA, mbarrier, wgmma.mma_async, setmaxnreg), sm_90a only: the
// FlashAttention-3 design. Served beside flash_attention_sm80 (specs/flash_attention_wgmma.lua:
// serves = "flash_attention"); dispatch weighs both by fit().
//
// Reads from the generator: elem_t (__half or __nv_bfloat16); HEAD_DIM, one of HEAD_DIM_64,
// HEAD_DIM_96, HEAD_DIM_128, HEAD_DIM_256; BLOCK_M query rows per CTA (64 a consumer
// warpgroup), BLOCK_N keys per K/V tile, STAGES K/V tiles in the ring, CONSUMERS consumer
// warpgroups, PINGPONG (1: two consumers take turns issuing their GEMMs); SMEM_BYTES (the
// spec's formula). Takes tileops_attention_args (libops/op_args.h), validated by
// libops/attention.c. Uses tileops_hopper.cuh, tileops_attention.cuh, tensor_map.h and the host
// cost model (all included by tileops_device.cuh).
//
// A work item is BLOCK_M rows of O for one (query head, sequence) over all the keys they see.
// Up to d128 a CTA may take several items (cta_block): dense calls run a persistent grid
// where its shares are of equal work (non-causal short items; causal items in pairs of q tiles
// from both ends), varlen calls with enough items two consecutive ones a CTA (the block
// scheduler still balances their unequal work); the others run one item a CTA. CTA = one
// producer warpgroup + CONSUMERS consumer warpgroups:
//   - The producer gives its registers away (setmaxnreg.dec); one thread loads an item's Q tile
//     into one of QBUF buffers once the consumers have finished with it, then K(j), V(j) for
//     every key tile by TMA, each into its ring slot once the consumers have released it (full /
//     empty mbarriers, K and V apart, so K(j) is free as soon as S(j) is done); the ring runs on
//     across items, so the next item's first tiles and Q land under this one's last. The
//     views' strides may come in any order (tensor maps of 4 dimensions, the outer three
//     sorted by stride); TMA zero-fills rows past the tensor.
//   - Consumer warpgroup c owns query rows 64c .. 64c+63: S = Q·Kᵀ by wgmma from shared memory,
//     online softmax in fp32 on the accumulators (the scale folded into one FFMA before exp2;
//     O rescaled only when a max grows by more than 2^8, see softmax_tile), P converted in
//     place to wgmma's register-A fragments, O += P·V by wgmma (V is the N-major B operand as
//     stored). S(j+1) and P(j)·V(j) are issued together, and softmax(j+1) runs while
//     P(j)·V(j) is still in flight. The warpgroups interleave, so one's softmax runs
//     under the other's GEMMs; with PINGPONG they take turns by named barriers (FA3's
//     ping-pong), so that it always does.
//   - Causal and the sliding window (bottom-right: row i sits at i + len_kv - len_q): tiles
//     wholly outside are never loaded; tiles crossing an edge (or the sequence end) are masked.
//     Softcap, when on, turns the scores into tanh(s · scale / cap) before the mask; the
//     softmax then scales by cap.
//   - Epilogue: O / rowsum staged in the consumer's own rows of the item's Q buffer (swizzled),
//     then 16-byte stores of the rows inside the sequence; the LSE when asked; then the buffer
//     is released to the producer. A row that sees no key stores zeros and LSE -inf.
//   - Variable-length batches: the maps span the packed rows, so a tile that runs past its
//     sequence reads the next one's rows. Their scores are masked, and the last V tile's rows
//     past the sequence are zeroed before P·V, so nothing of another sequence reaches O.
// Head dim 96 runs as 128 (the maps' bounds zero-fill columns 96-127, which add 0 to S; O's
// columns past 96 are not stored).
//
// Shared memory (1024-byte aligned): QBUF Q tiles [BLOCK_M][DP], then STAGES K tiles and STAGES
// V tiles [BLOCK_N][DP], each as DP/64 blocks of 64 columns (128-byte rows, the 128B swizzle:
// one TMA box each), with P_SMEM each consumer's P tile [64][BLOCK_N], then the barriers:
// q_full[QBUF], q_empty[QBUF], k_full[STAGES], k_empty, v_full, v_empty. Hardware barriers: 1
// the consumers together, 2 + c consumer c's ping-pong turn, 4 + c its epilogue, 7 + c its P
// tile written (P_SMEM).

constexpr int D = HEAD_DIM == HEAD_DIM_64 ? 64 : HEAD_DIM == HEAD_DIM_96 ? 96
                : HEAD_DIM == HEAD_DIM_128 ? 128 : 256;
constexpr int DP = (D + 63) / 64 * 64;         // whole 64-column blocks
constexpr int DB = DP / 64;
constexpr int NTHREADS = (CONSUMERS + 1) * 128;
// Several items a CTA up to d128; at d256 the loop over work items costs the consumers 124
// bytes of spills (their 240 registers hold O, S and P).
constexpr bool PERSISTENT = D <= 128;
constexpr int SACC = BLOCK_N / 2;              // S accumulators a consumer thread
constexpr int OACC = DP / 2;                   // O accumulators a consumer thread
constexpr int Q_BLOCK_BYTES = BLOCK_M * 128;   // one 64-column block of Q
constexpr int Q_BYTES = DB * Q_BLOCK_BYTES;
constexpr int KV_BLOCK_BYTES = BLOCK_N * 128;  // one 64-column block of a K or V tile
constexpr int KV_BYTES = DB * KV_BLOCK_BYTES;
// P goes through shared memory (P·V's A from a descriptor, as FlashAttention-3's d64 192 x 192
// tile) where S, O and P together exceed a consumer's register budget (the spec's constraint,
// which decides the same): a consumer's P tile [64][BLOCK_N] as 64-key blocks of 128-byte rows.
constexpr int REG_BUDGET = CONSUMERS == 2 ? 200 : 128;
constexpr bool P_SMEM = SACC + OACC + BLOCK_N / 4 > REG_BUDGET;
constexpr int P_BYTES = P_SMEM ? BLOCK_N * 128 : 0;
constexpr int PK = P_SMEM ? 1 : BLOCK_N / 16;   // register P's k16 steps (none in shared memory)
// Two Q buffers where they fit (the next item's Q lands while this one's epilogue stages O in
// its own), else one.
constexpr int SMEM_ONE_Q = Q_BYTES + 2 * STAGES * KV_BYTES + CONSUMERS * P_BYTES + 2048; // + slack, barriers
constexpr int QBUF = PERSISTENT && SMEM_ONE_Q + Q_BYTES <= 227 * 1024 ? 2 : 1;
constexpr int SMEM_TOTAL = SMEM_ONE_Q + (QBUF - 1) * Q_BYTES;
// Whether softcapped bf16 calls take the softmax with a fixed max (see the consumers): not in
// the persistent form with one Q buffer (d128 at three stages), where both paths spill.
constexpr bool FIXED_MAX_PATH = !(PERSISTENT && QBUF == 1);
constexpr int PRODUCER_REGS = 24;
constexpr int CONSUMER_REGS = CONSUMERS == 2 ? 240 : 160;

static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");
static_assert(HEAD_DIM >= HEAD_DIM_64 && HEAD_DIM <= HEAD_DIM_256, "unknown head_dim");
static_assert(BLOCK_M == 64 * CONSUMERS, "a consumer warpgroup takes 64 rows");
static_assert(CONSUMERS == 2 || CONSUMERS == 3, "two or three consumer warpgroups");
static_assert(BLOCK_N == 64 || BLOCK_N == 80 || BLOCK_N == 128 || BLOCK_N == 176 || BLOCK_N == 192,
              "S tiles are the m64n64 / n80 / n128 / n176 / n192 wgmma shapes");
static_assert(DP == 64 || DP == 128 || DP == 256, "O is one m64n64/128/256 wgmma");
static_assert(!P_SMEM || (BLOCK_N % 64 == 0 && SACC + OACC <= REG_BUDGET),
              "P in shared memory: whole 64-key blocks, S and O in the registers");
static_assert(STAGES >= 2 && (2 * QBUF + 4 * STAGES) * 8 <= 1024, "the barriers fit their 1024 bytes");
// setmaxnreg moves registers within what the CTA got at launch (the launch bound's count a
// thread, a multiple of 8): more would block the consumers' setmaxnreg.inc for ever.
static_assert(PRODUCER_REGS * 128 + CONSUMER_REGS * 128 * CONSUMERS <=
                  65536 / NTHREADS / 8 * 8 * NTHREADS,
              "the register budgets fit what the CTA holds");
static_assert(SMEM_TOTAL <= 227 * 1024, "more shared memory than any GPU has");
static_assert(!PINGPONG || CONSUMERS == 2, "ping-pong takes two consumer warpgroups");

// Where a view's (row, head, batch) go among the map's coordinates 1..3 (the outer dimensions
// sorted by stride on the host).
struct tma_order {
    signed char seq, head, batch;
};
struct tma_orders {
    tma_order q, k, v;
};

// ---- the kernel -----------------------------------------------------------------------------

// One 64-column box of a view at (column col, row, head, batch) into dst.
static __device__ __forceinline__ void load_box(uint32_t dst, const CUtensorMap *map,
                                                uint32_t bar, int col, int row, int head,
                                                int batch, tma_order o)
{
    const int c1 = o.seq == 1 ? row : o.head == 1 ? head : batch;
    const int c2 = o.seq == 2 ? row : o.head == 2 ? head : batch;
    const int c3 = o.seq == 3 ? row : o.head == 3 ? head : batch;
    tma_load_4d(dst, map, bar, col, c1, c2, c3);
}

// A Q, K or V tile into the buffer at dst once the consumers have released its previous
// contents (the empty barrier's phase before `round`; the first round passes at once): DB boxes
// of 64 columns, block_bytes apart, at (row, head, batch), completing on the full barrier.
// Whole boxes count, zero-filled ones too.
static __device__ __forceinline__ void load_tile(uint32_t dst, int block_bytes,
                                                 const CUtensorMap *map, uint32_t full,
                                                 uint32_t empty, unsigned round, int row,
                                                 int head, int batch, tma_order o)
{
    mbarrier_wait(empty, round ^ 1);
    mbarrier_arrive_expect_tx(full, DB * block_bytes);
#pragma unroll
    for (int kb = 0; kb < DB; kb++)
        load_box(dst + kb * block_bytes, map, full, 64 * kb, row, head, batch, o);
}

// O += one k16 step of P (registers) x V tile (N-major: tnspB; N = 2 x R).
template <int R>
static __device__ __forceinline__ void mma_o(float (&o)[R], const uint32_t (&pa)[4], uint64_t dv)
{
    if constexpr (R == 128)
        wgmma_rs_m64n256k16<1>(o, pa, dv, 1, (const elem_t *)0);
    else if constexpr (R == 64)
        wgmma_rs_m64n128k16<1>(o, pa, dv, 1, (const elem_t *)0);
    else
        wgmma_rs_m64n64k16<1>(o, pa, dv, 1, (const elem_t *)0);
}

// Issues S = Q·K(tile at sk)ᵀ: D/16 k16 steps (d96 stops at its 96 columns), each 32 bytes on
// in a 128-byte row, the next 64 columns one block on. sq: this consumer's rows of block 0.
static __device__ __forceinline__ void issue_s(float (&s)[SACC], uint32_t sq, uint32_t sk)
{
    const uint64_t dq = wgmma_desc_sw128(sq, 16, 1024), dk = wgmma_desc_sw128(sk, 16, 1024);
#pragma unroll
    for (int kk = 0; kk < D / 16; kk++) {
        const uint32_t off = (kk % 4) * 32;
        wgmma_ss<0>(s, wgmma_desc_add(dq, (kk / 4) * Q_BLOCK_BYTES + off),
                    wgmma_desc_add(dk, (kk / 4) * KV_BLOCK_BYTES + off), kk > 0,
                    (const elem_t *)0);
    }
}

// Issues O += P·V(tile at sv): BLOCK_N/16 k16 steps of 16 key rows; the 64-column blocks of V
// are the descriptor's leading byte offset apart, 8 rows 1024 bytes (its stride). P from the
// registers pa, or (P_SMEM) from the consumer's P tile at sp, stepped as Q is in issue_s.
static __device__ __forceinline__ void issue_o(float (&o)[OACC], const uint32_t (&pa)[PK][4],
                                               uint32_t sv, uint32_t sp)
{
    const uint64_t dv = wgmma_desc_sw128(sv, KV_BLOCK_BYTES, 1024);
    if constexpr (P_SMEM) {
        // (through an opaque move: else the twelve descriptors are hoisted out of the key loop
        // and spilled, one local load before each wgmma)
        uint32_t spv;
        asm volatile("mov.b32 %0, %1;" : "=r"(spv) : "r"(sp));
        const uint64_t dp = wgmma_desc_sw128(spv, 16, 1024);
#pragma unroll
        for (int kk = 0; kk < BLOCK_N / 16; kk++)
            wgmma_ss<1>(o, wgmma_desc_add(dp, (kk / 4) * 64 * 128 + (kk % 4) * 32),
                        wgmma_desc_add(dv, kk * 16 * 128), 1, (const elem_t *)0);
    } else {
#pragma unroll
        for (int kk = 0; kk < BLOCK_N / 16; kk++)
            mma_o(o, pa[kk], wgmma_desc_add(dv, kk * 16 * 128));
    }
}

// Scores the rows may not see to -inf: thread rows r0 and r0 + 8 (sequence rows), keys
// n0 + 8j + 2(l%4) and +1 (the accumulator layout).
static __device__ __forceinline__ void mask_tile(float (&s)[SACC], int r0, int n0, int t,
                                                 int len_q, int len_kv, attn_win win)
{
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const attn_span sp = attn_row_span(r0 + 8 * h, len_q, len_kv, win);
#pragma unroll
        for (int j = 0; j < SACC / 4; j++)
#pragma unroll
            for (int e = 0; e < 2; e++)
                if (!attn_sees(sp, n0 + 8 * j + 2 * t + e))
                    s[4 * j + 2 * h + e] = -INFINITY;
    }
}

// Softcap of a tile's raw scores, in units of the cap: tanh(s · scale / cap).
static __device__ __forceinline__ void softcap_tile(float (&s)[SACC], float scale_over_cap)
{
#pragma unroll
    for (int i = 0; i < SACC; i++)
        s[i] = attn_softcap(s[i], scale_over_cap);
}

// The max tree's widths: M0 pairs of a row's scores, then M_k+1 = M_k - M_k / 2; five levels
// reach one from up to 32 (BLOCK_N 128: 32 16 8 4 2 1; 176: 22 11 6 3 2 1; 80: 10 5 3 2 1 1).
constexpr int M0 = SACC / 4, M1 = M0 - M0 / 2, M2 = M1 - M1 / 2, M3 = M2 - M2 / 2,
              M4 = M3 - M3 / 2, M5 = M4 - M4 / 2;
static_assert(M5 == 1, "five levels of the max tree reach one value");

// The max of the thread's row h (0 or 1) of a tile's scores, and of the running max m: a tree
// of halvings, not a chain (every exp waits for it). Each level folds the top half of the M_k
// values left (the odd one out stays), down to one; then the row's four threads.
static __device__ __forceinline__ float tile_row_max(const float (&s)[SACC], int h, float m_run)
{
    float m[M0];
#pragma unroll
    for (int j = 0; j < M0; j++)
        m[j] = max_nan(s[4 * j + 2 * h], s[4 * j + 2 * h + 1]);
    // (each level written out: as a loop over levels nvcc leaves m in local memory)
#pragma unroll
    for (int j = 0; j < M0 / 2; j++)
        m[j] = max_nan(m[j], m[j + M0 - M0 / 2]);
#pragma unroll
    for (int j = 0; j < M1 / 2; j++)
        m[j] = max_nan(m[j], m[j + M1 - M1 / 2]);
#pragma unroll
    for (int j = 0; j < M2 / 2; j++)
        m[j] = max_nan(m[j], m[j + M2 - M2 / 2]);
#pragma unroll
    for (int j = 0; j < M3 / 2; j++)
        m[j] = max_nan(m[j], m[j + M3 - M3 / 2]);
#pragma unroll
    for (int j = 0; j < M4 / 2; j++)
        m[j] = max_nan(m[j], m[j + M4 - M4 / 2]);
    float mx = max_nan(m_run, m[0]);
    mx = max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
    return max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
}

// How far (in log2 units) a row's scores may pass the max its P is taken against before O is
// rescaled: P stays below 2^8, exact enough in fp32 sums and 16-bit P.
constexpr float RESCALE_LOG2 = 8.0f;

// Online softmax of one tile for the thread's two rows. The max the exps subtract (row_max,
// of the raw scores) moves only when a score of the warp's rows passes it by RESCALE_LOG2
// (FlashAttention-4's conditional rescale): then every row of the warp takes its new max, and
// corr[h] = the factor O and the sums are rescaled by; else corr is 1 and O's rescale is
// skipped. s becomes P = exp2(s * scale_log2 - max_scaled), and the row sums (this thread's
// part) grow by P's. Returns whether O must be rescaled (the same in the whole warp).
// FIXED_MAX: the max stays at the row_max it was given (softcapped scores, see the consumers).
template <bool FIXED_MAX>
static __device__ __forceinline__ bool softmax_tile(float (&s)[SACC], float (&row_max)[2],
                                                    float (&row_sum)[2], float (&corr)[2],
                                                    float scale_log2)
{
    float mx[2] = {row_max[0], row_max[1]};
    bool rescale = false;
    if (!FIXED_MAX) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            mx[h] = tile_row_max(s, h, row_max[h]);
            // (NaN, or a first visible key after none: rescale)
            rescale |= !(mx[h] * scale_log2 <= row_max[h] * scale_log2 + RESCALE_LOG2);
        }
        rescale = __any_sync(0xffffffffu, rescale);
    }
#pragma unroll
    for (int h = 0; h < 2; h++) {
        // A row with no visible key yet keeps max -inf: subtract 0 instead, so that its exps
        // are exp2(-inf) = 0 rather than NaN.
        float ms = row_max[h] == -INFINITY ? 0.0f : row_max[h] * scale_log2;
        corr[h] = 1.0f;
        if (rescale) {
            const float ms_new = mx[h] == -INFINITY ? 0.0f : mx[h] * scale_log2;
            corr[h] = fast_exp2(row_max[h] * scale_log2 - ms_new);
            row_max[h] = mx[h];
            ms = ms_new;
        }
        float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}; // four chains, not one: shorter latency
#pragma unroll
        for (int j = 0; j < SACC / 4; j++)
#pragma unroll
            for (int e = 2 * h; e < 2 * h + 2; e++) {
                s[4 * j + e] = fast_exp2(fmaf(s[4 * j + e], scale_log2, -ms));
                sum[(2 * j + e) % 4] += s[4 * j + e];
            }
        row_sum[h] = row_sum[h] * corr[h] + ((sum[0] + sum[1]) + (sum[2] + sum[3]));
    }
    return rescale;
}

// P as the A fragments of the k16 steps of P·V: S's n8 blocks 2kk and 2kk+1, packed to pairs.
// P_SMEM: into the consumer's P tile at sp instead (chunk q of row r at q ^ (r % 8), the 128B
// swizzle, as O is staged), made visible to wgmma's async proxy and the whole warpgroup
// (hardware barrier 7 + c) before any P·V reads it.
static __device__ __forceinline__ void pack_p(const float (&s)[SACC], uint32_t (&pa)[PK][4],
                                              uint32_t sp, int c)
{
    if constexpr (P_SMEM) {
        const int lt = threadIdx.x % 128, t = lt % 4;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int r = 16 * (lt / 32) + (lt % 32) / 4 + 8 * h;
#pragma unroll
            for (int j = 0; j < SACC / 4; j++)
                st_shared_u32(sp + (j / 8) * 64 * 128 + r * 128 + (((j % 8) ^ (r % 8)) << 4) + 4 * t,
                              pack2(s[4 * j + 2 * h], s[4 * j + 2 * h + 1], (const elem_t *)0));
        }
        fence_proxy_async();
        named_barrier_sync(7 + c, 128);
    } else {
#pragma unroll
        for (int kk = 0; kk < BLOCK_N / 16; kk++)
#pragma unroll
            for (int r = 0; r < 4; r++)
                pa[kk][r] = pack2(s[8 * kk + 2 * r], s[8 * kk + 2 * r + 1], (const elem_t *)0);
    }
}

// Ping-pong: consumer c waits for its turn (hardware barrier 2 + c, which the other consumer
// arrives at) before issuing its GEMMs, and hands the turn over after.
static __device__ __forceinline__ void turn_wait(int c)
{
    if (PINGPONG)
        named_barrier_sync(2 + c, 256);
}
static __device__ __forceinline__ void turn_pass(int c)
{
    if (PINGPONG)
        named_barrier_arrive(2 + (c ^ 1), 256);
}

// O's rescaling and P's packing happen here, before the wgmma_fence that must follow them
// (left to itself the compiler sinks them to their use, past it).
static __device__ __forceinline__ void fence_regs(float (&o)[OACC], uint32_t (&pa)[PK][4])
{
    wgmma_fence_operands(o);
#pragma unroll
    for (int kk = 0; kk < (P_SMEM ? 0 : PK); kk++)
        wgmma_fence_operands(pa[kk]);
}

// One work item: q tile m_blk of query head h (KV head hk) of sequence b, where its rows and
// keys start in the maps, and its key tiles t0 .. t0 + n_tiles - 1 (causal and the window leave
// the others out). valid: the tile has rows (a shorter sequence of a varlen batch has none).
struct work_item {
    int m0, h, hk, b, batch, len_q, len_kv, q_row0, kv_row0, t0, n_tiles;
    bool valid;
};
static __device__ __forceinline__ work_item item_of(const tileops_attention_args &p,
                                                    attn_block blk)
{
    work_item x;
    x.h = blk.h, x.b = blk.b;
    x.hk = blk.h / (p.heads_q / p.heads_kv);
    if (p.cu_seqlens_q) {
        x.q_row0 = p.cu_seqlens_q[blk.b];
        x.kv_row0 = p.cu_seqlens_kv[blk.b];
        x.len_q = p.cu_seqlens_q[blk.b + 1] - x.q_row0;
        x.len_kv = p.cu_seqlens_kv[blk.b + 1] - x.kv_row0;
        x.batch = 0;
    } else {
        x.q_row0 = x.kv_row0 = 0;
        x.len_q = (int)p.seqlen_q;
        x.len_kv = (int)p.seqlen_kv;
        x.batch = blk.b;
    }
    x.m0 = blk.m_blk * BLOCK_M;
    x.valid = x.m0 < x.len_q;
    const attn_win win = {p.window_left, p.window_right};
    attn_kv_tiles(x.m0, BLOCK_M, BLOCK_N, x.len_q, x.len_kv, win, &x.t0, &x.n_tiles);
    return x;
}

// Position n in a ring of `size` buffers (the K/V tiles, or the Q tiles, this CTA has loaded
// so far over all its items): its slot and the parity of its round.
static __device__ __forceinline__ int slot_of(int n, int size)
{
    return n % size;
}
static __device__ __forceinline__ unsigned round_of(int n, int size)
{
    return (unsigned)(n / size) & 1;
}

// How launch spreads the items over the CTAs (the kernel's `sched`): one a CTA; a persistent
// grid's share, items blockIdx.x + k * gridDim.x; the same over pairs of a causal (head,
// sequence)'s q tiles, the last but k and the k-th, whose key tiles add up to the same count
// for every k (a pair's share of work is equal, as a dense non-causal item's); or two
// consecutive items a CTA.
enum { SCHED_ONE = 0, SCHED_STRIDE = 1, SCHED_PAIRS = 2, SCHED_TWO = 3 };

// The CTA's n-th item into *blk: 1, or 0 when it has no more, or 2 for none this time (the
// middle q tile of an odd count, which pairs with itself). Items in attn_block_of's order, or
// for pairs: the pairs of a (head, sequence) side by side (the CTAs running at once read the
// K and V of a few heads, from L2), query heads of one KV head next to each other.
static __device__ __forceinline__ int cta_block(const tileops_attention_args &p, int sched,
                                                int n, int items, int m_tiles, bool causal,
                                                attn_block *blk)
{
    int w = (int)blockIdx.x;
    if (sched == SCHED_PAIRS) {
        const int per = (m_tiles + 1) / 2, pair = w + (n / 2) * (int)gridDim.x;
        if (pair >= per * p.heads_q * (int)p.batch)
            return 0;
        const int k = pair % per, rest = pair / per;
        if (n % 2 == 1 && k == m_tiles - 1 - k)
            return 2;
        blk->m_blk = n % 2 == 0 ? m_tiles - 1 - k : k;
        blk->h = rest % p.heads_q, blk->b = rest / p.heads_q;
        return 1;
    }
    if (sched == SCHED_STRIDE)
        w += n * (int)gridDim.x;
    else if (sched == SCHED_TWO)
        w = 2 * w + n;
    if (w >= items || (sched == SCHED_TWO && n >= 2) || (sched == SCHED_ONE && n >= 1))
        return 0;
    *blk = attn_block_of(p, (unsigned)w, m_tiles, causal);
    return 1;
}

// Items as cta_block gives them (sched as launch chose it). Without PERSISTENT each role's
// loop ends after its first item, so nothing is carried round it (the loop's counters cost the
// d256 consumers spills). (The two roles' loop heads as one helper returning the next item cost
// the consumers 32-380 bytes of spills.)
static __global__ void __launch_bounds__(NTHREADS, 1)
kernel(const __grid_constant__ CUtensorMap tma_q, const __grid_constant__ CUtensorMap tma_k,
       const __grid_constant__ CUtensorMap tma_v, const __grid_constant__ tileops_attention_args p,
       const __grid_constant__ tma_orders ord, int m_tiles, int items, int sched)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const uint32_t sq0 = (smem_addr(smem) + 1023) & ~1023u; // QBUF Q tiles
    const uint32_t sk0 = sq0 + QBUF * Q_BYTES, sv0 = sk0 + STAGES * KV_BYTES;
    const uint32_t sp0 = sv0 + STAGES * KV_BYTES; // the consumers' P tiles (P_SMEM)
    const uint32_t bars = sp0 + CONSUMERS * P_BYTES;
    // q_full[QBUF], q_empty[QBUF], k_full[STAGES], k_empty, v_full, v_empty: 8 bytes each
    const uint32_t q_full = bars, q_empty = q_full + 8 * QBUF, k_full = q_empty + 8 * QBUF;
    const uint32_t k_empty = k_full + 8 * STAGES, v_full = k_empty + 8 * STAGES;
    const uint32_t v_empty = v_full + 8 * STAGES;
    const int tid = threadIdx.x, wg = tid / 128;
    const bool causal = p.causal != 0;

    if (tid == 0) {
        for (int i = 0; i < QBUF; i++) {
            mbarrier_init(q_full + 8 * i, 1);
            mbarrier_init(q_empty + 8 * i, CONSUMERS);
        }
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(k_full + 8 * s, 1);
            mbarrier_init(k_empty + 8 * s, CONSUMERS);
            mbarrier_init(v_full + 8 * s, 1);
            mbarrier_init(v_empty + 8 * s, CONSUMERS);
        }
        mbarrier_init_fence();
        tma_prefetch_map(&tma_q);
        if (p.rows_kv > 0) {
            tma_prefetch_map(&tma_k);
            tma_prefetch_map(&tma_v);
        }
    }
    __syncthreads();

    if (wg == 0) {
        // ---- producer: one thread issues every copy, an item's Q as soon as its buffer is
        // free (the consumers' epilogue two items back), then its K and V tiles ----
        setmaxnreg_dec<PRODUCER_REGS>();
        if (tid == 0) {
            int kv = 0, it = 0;
            for (int n = 0; PERSISTENT || n < 1; n++) {
                attn_block blk;
                const int got = cta_block(p, sched, n, items, m_tiles, causal, &blk);
                if (got == 0)
                    break;
                if (got == 2)
                    continue;
                const work_item x = item_of(p, blk);
                if (!x.valid)
                    continue;
                const int qb = slot_of(it, QBUF);
                load_tile(sq0 + qb * Q_BYTES, Q_BLOCK_BYTES, &tma_q, q_full + 8 * qb,
                          q_empty + 8 * qb, round_of(it, QBUF), x.q_row0 + x.m0, x.h, x.batch,
                          ord.q);
                it++;
                for (int j = 0; j < x.n_tiles; j++, kv++) {
                    const int s = slot_of(kv, STAGES), row = x.kv_row0 + (x.t0 + j) * BLOCK_N;
                    load_tile(sk0 + s * KV_BYTES, KV_BLOCK_BYTES, &tma_k, k_full + 8 * s,
                              k_empty + 8 * s, round_of(kv, STAGES), row, x.hk, x.batch, ord.k);
                    load_tile(sv0 + s * KV_BYTES, KV_BLOCK_BYTES, &tma_v, v_full + 8 * s,
                              v_empty + 8 * s, round_of(kv, STAGES), row, x.hk, x.batch, ord.v);
                }
            }
        }
        return;
    }

    // ---- consumers ----
    setmaxnreg_inc<CONSUMER_REGS>();
    const int c = wg - 1, lt = tid % 128, warp = lt / 32, lane = lt % 32;
    const int t = lane % 4;
    const bool leader = lt == 0; // arrives on the empty barriers for the warpgroup
    // Softcap: the scores become tanh(s · scale / cap) before the softmax, which scales by cap.
    const bool capped = p.softcap > 0.0f;
    const float scale_over_cap = capped ? p.scale / p.softcap : 0.0f;
    const float s_scale = capped ? p.softcap : p.scale;
    const float scale_log2 = s_scale * TILEOPS_LOG2E;
    // Softcapped scores lie within ±cap: in bf16 with cap <= 50 the softmax subtracts a fixed
    // cap / 2 instead of the running max (P within e^-75 .. e^25: normal in fp32 and bf16, the
    // sums of 2^31 keys far from fp32's limit), which drops the max and its latency (O's
    // rescale is by 1).
    const bool fixed_max =
        FIXED_MAX_PATH && capped && elem_is_bf16((const elem_t *)0) && p.softcap <= 50.0f;
    const attn_win win = {p.window_left, p.window_right};

    float o[OACC];
    float s[SACC];
    uint32_t pa[PK][4];
    const uint32_t spc = sp0 + c * P_BYTES; // this consumer's P tile (P_SMEM)
    int kv = 0, it = 0; // as the producer counts them
    bool turned = false; // whether this consumer has had a turn
    for (int n = 0; PERSISTENT || n < 1; n++) {
        attn_block blk;
        const int got = cta_block(p, sched, n, items, m_tiles, causal, &blk);
        if (got == 0)
            break;
        if (got == 2)
            continue;
        const work_item x = item_of(p, blk);
        if (!x.valid)
            continue;
        const int n_tiles = x.n_tiles, t0 = x.t0, len_q = x.len_q, len_kv = x.len_kv;
        const int qb = slot_of(it, QBUF);
        const unsigned q_round = round_of(it, QBUF);
        it++;
        const uint32_t sqc = sq0 + qb * Q_BYTES + c * 64 * 128; // this consumer's rows of block 0
        const int mc = x.m0 + 64 * c;             // its first row
        const int r0 = mc + 16 * warp + lane / 4; // sequence row of the thread's first accumulator row
#pragma unroll
        for (int i = 0; i < OACC; i++)
            o[i] = 0.0f;
        const float max0 = fixed_max ? 0.5f : -INFINITY; // in units of cap, as the scores
        float row_max[2] = {max0, max0}, row_sum[2] = {0.0f, 0.0f}, corr[2];
        mbarrier_wait(q_full + 8 * qb, q_round); // also when there is no key: the buffer is reused

        // Ping-pong: consumer 0 issues first. Each consumer has n_tiles + 1 turns an item and
        // hands over after each, so that consumer 0 starts the next item while consumer 1
        // finishes this one (its last P·V and epilogue). Consumer 0's first turn needs no wait;
        // after its loop it takes consumer 1's last hand-over: every wait meets one arrival.
        // Tile 0: S, its softmax and P (O is still 0: nothing to rescale).
        if (n_tiles > 0) {
            const int s0 = slot_of(kv, STAGES);
            mbarrier_wait(k_full + 8 * s0, round_of(kv, STAGES));
            if (c == 1 || turned)
                turn_wait(c);
            turned = true;
            wgmma_fence();
            issue_s(s, sqc, sk0 + s0 * KV_BYTES);
            wgmma_commit();
            turn_pass(c);
            wgmma_wait<0>();
            wgmma_fence_operands(s);
            if (leader)
                mbarrier_arrive(k_empty + 8 * s0); // K(0) is free
            if (capped) // before the mask: tanh(-inf) would be -1
                softcap_tile(s, scale_over_cap);
            if (attn_tile_masked(t0 * BLOCK_N, BLOCK_N, mc, 64, len_q, len_kv, win))
                mask_tile(s, r0, t0 * BLOCK_N, t, len_q, len_kv, win);
            if (fixed_max)
                softmax_tile<true>(s, row_max, row_sum, corr, scale_log2);
            else
                softmax_tile<false>(s, row_max, row_sum, corr, scale_log2);
            pack_p(s, pa, spc, c);
        }
        // Tile j: S(j) and P(j-1)·V(j-1) issued together; softmax(j) once S(j) is done, while
        // P(j-1)·V(j-1) still runs; then O rescaled to tile j's max.
        for (int j = 1; j < n_tiles; j++) {
            // tile j's slot, tile j-1's
            const int st = slot_of(kv + j, STAGES), sp = slot_of(kv + j - 1, STAGES);
            // (both waits before the wgmma: a wait's loop between them would make ptxas fence again)
            mbarrier_wait(k_full + 8 * st, round_of(kv + j, STAGES));
            mbarrier_wait(v_full + 8 * sp, round_of(kv + j - 1, STAGES));
            fence_regs(o, pa);
            turn_wait(c);
            wgmma_fence();
            issue_s(s, sqc, sk0 + st * KV_BYTES);
            wgmma_commit();
            issue_o(o, pa, sv0 + sp * KV_BYTES, spc);
            wgmma_commit();
            turn_pass(c);
            wgmma_wait<1>();
            wgmma_fence_operands(s);
            if (leader)
                mbarrier_arrive(k_empty + 8 * st); // K(j) is free
            const int n0 = (t0 + j) * BLOCK_N;
            if (capped)
                softcap_tile(s, scale_over_cap);
            if (attn_tile_masked(n0, BLOCK_N, mc, 64, len_q, len_kv, win))
                mask_tile(s, r0, n0, t, len_q, len_kv, win);
            const bool rescale = fixed_max
                                     ? softmax_tile<true>(s, row_max, row_sum, corr, scale_log2)
                                     : softmax_tile<false>(s, row_max, row_sum, corr, scale_log2);
            wgmma_wait<0>();
            wgmma_fence_operands(o);
            if (leader)
                mbarrier_arrive(v_empty + 8 * sp); // V(j-1) is free
            if (rescale)
#pragma unroll
                for (int i = 0; i < OACC; i++)
                    o[i] *= corr[(i >> 1) & 1];
            pack_p(s, pa, spc, c);
        }
        if (n_tiles > 0) {
            const int j = n_tiles - 1, sp = slot_of(kv + j, STAGES);
            const uint32_t sv = sv0 + sp * KV_BYTES;
            mbarrier_wait(v_full + 8 * sp, round_of(kv + j, STAGES));
            const int left = len_kv - (t0 + j) * BLOCK_N;
            if (p.cu_seqlens_kv && left < BLOCK_N) {
                // V's rows past the sequence are the next sequence's: zero them (P is 0 there,
                // but 0 x inf would not be), then every consumer waits for every other's zeros
                const int chunks = (BLOCK_N - left) * DB * 8;
                for (int i = c * 128 + lt; i < chunks; i += CONSUMERS * 128) {
                    const int r = left + i / (DB * 8), kb = (i / 8) % DB, q = i % 8;
                    asm volatile("st.shared.v4.b32 [%0], {%1, %1, %1, %1};" ::"r"(
                                     sv + kb * KV_BLOCK_BYTES + r * 128 + q * 16),
                                 "r"(0)
                                 : "memory");
                }
                fence_proxy_async();
                named_barrier_sync(1, CONSUMERS * 128);
            }
            fence_regs(o, pa);
            turn_wait(c);
            wgmma_fence();
            issue_o(o, pa, sv, spc);
            wgmma_commit();
            turn_pass(c);
            wgmma_wait<0>();
            wgmma_fence_operands(o);
            if (leader)
                mbarrier_arrive(v_empty + 8 * sp);
        }
        kv += n_tiles;

        // ---- epilogue: O / rowsum into this consumer's own rows of the item's Q buffer, then
        // stored; the buffer is the producer's again after (the next item but one's Q) ----
        float *lse = p.lse;
        if (lse)
            lse += p.cu_seqlens_q ? (int64_t)x.h * p.rows_q + x.q_row0
                                  : ((int64_t)x.b * p.heads_q + x.h) * p.seqlen_q;
#pragma unroll
        for (int hf = 0; hf < 2; hf++) {
            float l = row_sum[hf];
            l += __shfl_xor_sync(0xffffffffu, l, 1);
            l += __shfl_xor_sync(0xffffffffu, l, 2);
            const float inv = l > 0.0f ? 1.0f / l : 0.0f;
            const int rr = 16 * warp + lane / 4 + 8 * hf; // row within the consumer's 64
#pragma unroll
            for (int j = 0; j < OACC / 4; j++) {
                // columns 8j + 2t, +1: block j / 8, 16-byte chunk j % 8 of the row, swizzled
                const uint32_t a = sqc + (j / 8) * Q_BLOCK_BYTES + rr * 128 +
                                   (((j % 8) ^ (rr % 8)) * 16) + 4 * t;
                st_shared_u32(a, pack2(o[4 * j + 2 * hf] * inv, o[4 * j + 2 * hf + 1] * inv,
                                       (const elem_t *)0));
            }
            const int i = r0 + 8 * hf;
            if (lse && t == 0 && i < len_q)
                lse[i] = l > 0.0f ? row_max[hf] * s_scale + logf(l) : -INFINITY;
        }
        named_barrier_sync(4 + c, 128);
        constexpr int CPR = D / 8; // 16-byte chunks of a row of O
        elem_t *og = (elem_t *)p.o + (p.cu_seqlens_q ? 0 : (int64_t)x.b * p.o_batch) +
                     (int64_t)x.h * p.o_head;
#pragma unroll
        for (int i2 = 0; i2 < 64 * CPR / 128; i2++) {
            const int id = i2 * 128 + lt, r = id / CPR, ch = id % CPR;
            uint4 v;
            asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];\n"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "r"(sqc + (ch / 8) * Q_BLOCK_BYTES + r * 128 + (((ch % 8) ^ (r % 8)) * 16))
                         : "memory");
            if (mc + r < len_q)
                store_stream((uint4 *)(og + (int64_t)(x.q_row0 + mc + r) * p.o_seq + ch * 8), v);
        }
        // every thread's accesses of the buffer precede the TMA that refills it
        fence_proxy_async();
        named_barrier_sync(4 + c, 128);
        if (leader)
            mbarrier_arrive(q_empty + 8 * qb);
    }
    if (PINGPONG && c == 0 && turned)
        turn_wait(c);
}

// ---- host side --------------------------------------------------------------------------------

// q tiles of the grid: of the longest sequence.
static inline int64_t grid_m_tiles(const tileops_attention_args *p)
{
    return (p->seqlen_q + BLOCK_M - 1) / BLOCK_M;
}

// The tensor map of a [batch, rows, heads, D] view (element strides; a stride of a dimension of
// size 1 is unused, 0): dimension 0 the head dim, 1-3 the others in increasing stride (those of
// size 1 last), so that each step spans the ones before it as the driver expects; *o says
// where each went. Boxes of 64 columns x box_rows rows, 128-byte swizzle.
static int encode_view(CUtensorMap *map, const void *base, int64_t batch, int64_t rows,
                       int64_t heads, int64_t s_batch, int64_t s_seq, int64_t s_head,
                       int box_rows, tma_order *o)
{
    struct outer {
        int64_t n, stride;
        int what; // 0 seq, 1 head, 2 batch
    } d[3] = {{rows, s_seq, 0}, {heads, s_head, 1}, {batch, s_batch, 2}};
    for (int i = 1; i < 3; i++) // insertion sort by (size 1 last, stride)
        for (int k = i; k > 0; k--) {
            const bool later = d[k - 1].n <= 1 && d[k].n > 1;
            const bool larger = (d[k - 1].n > 1) == (d[k].n > 1) && d[k - 1].stride > d[k].stride;
            if (!later && !larger)
                break;
            const outer tmp = d[k];
            d[k] = d[k - 1], d[k - 1] = tmp;
        }
    uint64_t dims[4] = {(uint64_t)D, 0, 0, 0}, strides[3];
    uint32_t box[4] = {64, 1, 1, 1}; // 64 columns of box_rows rows (of one head, one sequence)
    uint64_t span = (uint64_t)D * 2; // bytes the dimensions so far cover
    for (int i = 0; i < 3; i++) {
        dims[i + 1] = (uint64_t)d[i].n;
        if (d[i].what == 0)
            box[i + 1] = (uint32_t)box_rows;
        strides[i] = d[i].n > 1 ? (uint64_t)d[i].stride * 2 : span; // unused when n is 1
        span = strides[i] * (uint64_t)d[i].n;
        signed char *pos = d[i].what == 0 ? &o->seq : d[i].what == 1 ? &o->head : &o->batch;
        *pos = (signed char)(i + 1);
    }
    return tileops__tensor_map(map, elem_is_bf16((const elem_t *)0), base, 4, dims, strides, box,
                               1);
}

// Encodes the tensor maps (per call, on the host) and launches on the caller's stream; returns
// the first cudaError_t as an int.
static int launch(const void *args, cudaStream_t stream)
{
    const tileops_attention_args *p = (const tileops_attention_args *)args;
    const int64_t m_tiles = grid_m_tiles(p);
    const int64_t blocks = m_tiles * p->heads_q * p->batch;
    if (blocks <= 0 || p->rows_q <= 0)
        return 0; // nothing to compute
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    const int64_t nb = p->cu_seqlens_q ? 1 : p->batch;
    CUtensorMap mq, mk = {}, mv = {};
    tma_orders ord = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
    err = encode_view(&mq, p->q, nb, p->rows_q, p->heads_q, p->q_batch, p->q_seq, p->q_head,
                      BLOCK_M, &ord.q);
    // Without keys no CTA loads K or V (and the driver takes no empty dimension).
    if (!err && p->rows_kv > 0)
        err = encode_view(&mk, p->k, nb, p->rows_kv, p->heads_kv, p->k_batch, p->k_seq,
                          p->k_head, BLOCK_N, &ord.k);
    if (!err && p->rows_kv > 0)
        err = encode_view(&mv, p->v, nb, p->rows_kv, p->heads_kv, p->v_batch, p->v_seq,
                          p->v_head, BLOCK_N, &ord.v);
    if (err)
        return err;
    // Several items a CTA, so that an item's Q and first K/V tiles land under the previous
    // item's last tiles and epilogue. Items of equal work: a persistent grid, one CTA an SM,
    // for dense non-causal calls with short items (at most 16 key tiles: long ones gain nothing
    // by it) and, in pairs of equal work, dense causal calls without a left window. Varlen
    // items, of unequal work: two consecutive ones a CTA where that leaves 2 waves of CTAs or
    // more, so that the block scheduler still balances them.
    int sched = SCHED_ONE;
    int64_t grid = blocks;
    const int64_t pairs = (m_tiles + 1) / 2 * p->heads_q * p->batch;
    if (PERSISTENT && p->sms > 0 && !p->causal && !p->cu_seqlens_q &&
        p->seqlen_kv <= 16 * BLOCK_N) {
        sched = SCHED_STRIDE;
        grid = blocks > p->sms ? p->sms : blocks;
    } else if (PERSISTENT && p->sms > 0 && p->causal && !p->cu_seqlens_q && p->window_left < 0) {
        sched = SCHED_PAIRS;
        grid = pairs > p->sms ? p->sms : pairs;
    } else if (PERSISTENT && p->sms > 0 && p->cu_seqlens_q && blocks >= 4 * p->sms) {
        sched = SCHED_TWO;
        grid = (blocks + 1) / 2;
    }
    kernel<<<(unsigned)grid, NTHREADS, SMEM_TOTAL, stream>>>(mq, mk, mv, *p, ord, (int)m_tiles,
                                                           (int)blocks, sched);
    return (int)cudaGetLastError();
}

// -1 if this instance cannot serve the call (head dim, what TMA cannot describe: a pointer not
// 16-byte aligned or a stride not a multiple of 8 elements, a grid or sequence beyond its int
// coordinates); else a cost estimate in ns. No workspace.
static int64_t fit(const void *args, size_t *workspace_bytes)
{
    const tileops_attention_args *p = (const tileops_attention_args *)args;
    if (workspace_bytes)
        *workspace_bytes = 0;
    if (!attn_fits16(p, D))
        return -1;
    // TMA's global strides: below 2^40 bytes
    const int64_t strides[12] = {p->q_seq, p->q_head, p->k_seq, p->k_head, p->v_seq, p->v_head,
                                 p->o_seq, p->o_head, p->q_batch, p->k_batch, p->v_batch,
                                 p->o_batch};
    for (int i = 0; i < (p->cu_seqlens_q ? 8 : 12); i++)
        if (strides[i] < 0 || strides[i] >= (1ll << 38))
            return -1;
    const int64_t m_tiles = grid_m_tiles(p);
    if (p->seqlen_q > 0x7fffffff - BLOCK_M || p->seqlen_kv > 0x7fffffff - BLOCK_N ||
        p->rows_q > 0x7fffffff - BLOCK_M || p->rows_kv > 0x7fffffff - BLOCK_N ||
        m_tiles * p->heads_q * p->batch > 0x7fffffff)
        return -1;
    // Cost: the MMA work of whole tiles (causal: about half) at wgmma's rate (7.5 TFLOP/s an SM,
    // against the model's nominal mma.sync 4.0) times the share FlashAttention-3's design keeps
    // busy (~0.6: exp and the row bookkeeping between the GEMMs); d96 computes O as d128.
    // A key tile also costs a fixed ~0.3 us beyond its MMAs (waits, the row reductions, O's
    // rescale; fitted on d64 n128 against n192), counted against 128-key tiles, whose share the
    // efficiency already holds: about 1.3 MFLOP at this rate.
    const int64_t n_pad = (p->seqlen_kv + BLOCK_N - 1) / BLOCK_N * BLOCK_N;
    double block_flops = 2.0 * BLOCK_M * (double)n_pad * (D + DP) +
                         ((double)n_pad / BLOCK_N - (double)n_pad / 128) * 1.3e6;
    if (p->causal)
        block_flops *= 0.5;
    const double eff = 7.5e3 / tileops__cost.sm_flop_ns * 0.6;
    const double bytes = 2.0 * D * (double)p->batch *
                         (2.0 * p->heads_q * p->seqlen_q + 2.0 * p->heads_kv * p->seqlen_kv);
    return tileops__gemm_cost_ns(p->sms, m_tiles * p->heads_q * p->batch, 1, block_flops, eff,
                                 bytes);
}
