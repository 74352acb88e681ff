// Template flash_attention_sm80 (specs/flash_attention.lua): O = softmax(scale * Q·Kᵀ + mask)
// · V, forward, FlashAttention-2 on tensor cores with the sm80 instruction set (cp.async,
// ldmatrix, mma.sync m16n8k16, fp32 accumulate). Also compiled for sm_90a, beside the wgmma
// family (flash_attention_sm90.cu), which fit() prefers there. Its draft passed its device tests on an H200 (sm_90a) before
// it entered the build; design notes and measurements in docs/ATTENTION.md.
//
// Reads from the generator: elem_t (__half or __nv_bfloat16); HEAD_DIM, one of HEAD_DIM_64,
// HEAD_DIM_96, HEAD_DIM_128, HEAD_DIM_256 (the spec's head_dim variant); BLOCK_M query rows per
// block, BLOCK_N keys per tile; WARPS warps, each owning BLOCK_M / WARPS consecutive query rows;
// STAGES K/V tile pairs in shared memory; Q_REGS (1: Q held in registers, 0: re-read from shared
// memory); SMEM_BYTES (the spec's formula). Takes
// tileops_attention_args (libops/op_args.h), validated by libops/attention.c. Uses
// tileops_mma.cuh and the host cost model of libops/cost_model.h (tileops__gemm_cost_ns),
// both included by tileops_device.cuh.
//
// One block computes BLOCK_M rows of O for one (head, sequence) over all its keys:
//   - Q's tile is copied once (cp.async) into shared memory, then held in registers as mma A
//     fragments for the whole key loop (Q_REGS), or re-read from shared memory per K tile.
//   - K and V tiles [BLOCK_N][D] stream through STAGES shared stages, one cp.async group per tile;
//     the copy of tile j + STAGES - 1 is issued at the top of iteration j, one barrier each.
//     STAGES = 1 is FlashAttention-2's pipeline instead: one K and one V buffer, V(j) copied
//     while Q·K(j)ᵀ runs and K(j+1) while softmax and P·V(j) run, two barriers an iteration
//     (d256 m128 n64 in 128 KB, which the A100's 163 KB holds; two stages take 192 KB).
//     Rows past the sequence are zero-filled (src-size 0) and their scores masked to -inf.
//   - S = Q·Kᵀ (K stored [n][d] is mma's "col" B as is: plain ldmatrix); online softmax in fp32
//     on the raw scores, with scale·log2(e) folded into one FFMA before exp2; P stays in
//     registers: the C fragment of S tiles 2kk, 2kk+1 packed to 16-bit pairs is exactly the A
//     fragment of k16 step kk of P·V (checked by emulation in the draft's harness, see
//     docs/ATTENTION.md); V stored [n][d] is a k-major B, read with ldmatrix.trans.
//   - Causal and the sliding window (bottom-right: row i sits at i + seqlen_kv - seqlen_q; see
//     tileops_attention.cuh): tiles wholly outside are never loaded; only tiles crossing an
//     edge (or the sequence end) are masked. Softcap, when on, turns the scores into tanh(s · scale
//     / cap) before the mask (a block-uniform branch), and the softmax then scales by cap.
//   - Epilogue: O / rowsum, staged through shared memory (Q's region) to 16-byte stores; the
//     log-sum-exp (natural log, of the scaled scores) when asked. A row that sees no key has
//     rowsum 0: it stores zeros and LSE -inf.
// Shared rows are XOR-swizzled (swz_off's map, for 128-, 192-, 256- and 512-byte rows), so
// cp.async writes and ldmatrix reads are free of bank conflicts.
//
// Shared memory: STAGES stages of K[BLOCK_N][D] + V[BLOCK_N][D]. With Q_REGS, Q's tile lies at
// the start of the last stage (first written in iteration 0, after Q is in registers) and may
// run past it; otherwise Q stays in shared memory, after the stages:
//   Q_REGS = 1: SMEM_BYTES = (STAGES - 1) * 4 * BLOCK_N * D + max(4 * BLOCK_N * D, 2 * BLOCK_M * D)
//   Q_REGS = 0: SMEM_BYTES = STAGES * 4 * BLOCK_N * D + 2 * BLOCK_M * D

constexpr int D = HEAD_DIM == HEAD_DIM_64 ? 64 : HEAD_DIM == HEAD_DIM_96 ? 96
                : HEAD_DIM == HEAD_DIM_128 ? 128 : 256;
constexpr int NTHREADS = WARPS * 32;
constexpr int WM = BLOCK_M / WARPS;   // query rows per warp
constexpr int MI = WM / 16;           // its m16 tiles
constexpr int NI = BLOCK_N / 8;       // n8 tiles of S per m16 tile
constexpr int DI = D / 8;             // n8 tiles of O per m16 tile
constexpr int DK = D / 16;            // k16 steps of Q·Kᵀ
constexpr int NK = BLOCK_N / 16;      // k16 steps of P·V

constexpr int ROW_BYTES = D * 2;                  // one shared row of Q, K or V
constexpr int CPR = D / 8;                        // 16-byte chunks per row
constexpr int KV_BYTES = BLOCK_N * ROW_BYTES;     // one K (or V) tile
constexpr int STAGE_BYTES = 2 * KV_BYTES;
constexpr int Q_BYTES = BLOCK_M * ROW_BYTES;
// Q_REGS (the spec's q_regs): Q's fragments live in registers for the whole key loop (d128, 16
// rows a warp: 32 registers), or Q stays in shared memory (its own region) and is re-read with
// ldmatrix for every K tile, as FlashAttention-2 does: that frees the registers for 32 rows a
// warp (two m16 tiles of O and S) and is the only choice at d256, where Q's 64 registers do not
// fit next to O's 128.
constexpr bool Q_IN_REGS = Q_REGS != 0;
static_assert(!Q_IN_REGS || D <= 128, "Q in registers only up to d128");
// Q (and the O staging) at the start of the last stage when Q moves to registers before that
// stage is first written; else after the stages.
constexpr int Q_OFF = (Q_IN_REGS ? STAGES - 1 : STAGES) * STAGE_BYTES;
constexpr int SMEM_TOTAL =
    Q_OFF + (Q_IN_REGS && STAGE_BYTES > Q_BYTES ? STAGE_BYTES : Q_BYTES);
static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");

static_assert(HEAD_DIM >= HEAD_DIM_64 && HEAD_DIM <= HEAD_DIM_256, "unknown head_dim");
static_assert(STAGES >= 2 || !Q_IN_REGS, "one stage: Q's region cannot alias the K/V buffers");
static_assert(WM % 16 == 0 && WM * WARPS == BLOCK_M, "warps own whole m16 tiles");
static_assert(BLOCK_N % 16 == 0 && BLOCK_N >= 16, "S tiles are n16 multiples (P is a k16 A operand)");
// The swizzle needs every 8-row group to start at a multiple of 1024 bytes and 16-row steps
// to be whole 128-byte lines (see frag_off): true for any D multiple of 32 (rows of 64k bytes).
static_assert(D % 32 == 0 && KV_BYTES % 1024 == 0 && Q_OFF % 1024 == 0, "swizzle alignment");
static_assert(SMEM_TOTAL <= 227 * 1024, "more shared memory than any GPU has");

// ---- swizzled fragment addressing -----------------------------------------------------------
// A lane's ldmatrix row r has offset swz_off(r, c, ROW_BYTES) = (r * ROW_BYTES + 16c) ^ sw,
// sw = (r & 7) << 4. The lane keeps r * ROW_BYTES and sw; rows 8 or 16 further add whole
// multiples of 128 bytes, which commute with the XOR on bits 4-6. (192-byte rows are not a power
// of two: the chunk cannot be XORed into the base, so the add comes before the XOR.)
struct lane_row {
    uint32_t off; // r * ROW_BYTES
    uint32_t sw;  // (r & 7) << 4
};

static __host__ __device__ __forceinline__ lane_row make_lane_row(int r)
{
    lane_row l;
    l.off = (uint32_t)r * ROW_BYTES;
    l.sw = (uint32_t)(r & 7) << 4;
    return l;
}

// Offset of chunk c of the lane's row plus `rows` rows (a multiple of 8).
static __host__ __device__ __forceinline__ uint32_t frag_off(lane_row l, int c, int rows)
{
    return ((l.off + (uint32_t)c * 16) ^ l.sw) + (uint32_t)(rows * ROW_BYTES);
}

// The tile plan (attn_kv_tiles, attn_tile_masked, attn_row_span): tileops_attention.cuh.

// ---- copies -----------------------------------------------------------------------------------

// Copies: thread t copies chunk column t % CPR_P of rows t / CPR_P + i * RS (CPR_P: CPR rounded
// up to a power of two, so D = 96 leaves a quarter of the threads idle rather than needing a
// division). Rows are stepped, not recomputed: per-chunk products are loop-invariant and would
// be hoisted into registers the accumulators need.
constexpr int CPR_P = CPR <= 8 ? 8 : CPR <= 16 ? 16 : 32;
constexpr int RS = NTHREADS / CPR_P;
static_assert(NTHREADS % CPR_P == 0 && BLOCK_N % RS == 0 && BLOCK_M % RS == 0,
              "tiles split evenly over the threads");
// RS rows on, swz_off's XOR pattern repeats (RS a multiple of 8) or not (d256 with 4 warps).
constexpr bool RS_PERIODIC = RS % 8 == 0;

// Issues cp.async for a [ROWS][D] tile whose row 0 is at g (row stride `ld` elements) into the
// shared tile at s, zero-filling rows >= rows_left. g must be a valid address (row 0 is inside
// the sequence): empty chunks use it as their source.
template <int ROWS>
static __device__ __forceinline__ void copy_tile(uint32_t s, const elem_t *g, int64_t ld,
                                                 int rows_left, int tid)
{
    const int c = tid % CPR_P, r0 = tid / CPR_P;
    if (CPR != CPR_P && c >= CPR)
        return;
    const elem_t *q = g + r0 * ld + c * 8;
    const int64_t step = RS * ld;
    const uint32_t s_row0 = s + swz_off(r0, c, ROW_BYTES);
#pragma unroll
    for (int i = 0; i < ROWS / RS; i++, q += step) {
        const bool ok = r0 + i * RS < rows_left;
        const uint32_t dst = RS_PERIODIC ? s_row0 + i * RS * ROW_BYTES
                                         : s + swz_off(r0 + i * RS, c, ROW_BYTES);
        cp_async_16(dst, ok ? (const void *)q : g, ok ? 16 : 0);
    }
}

// ---- the kernel -----------------------------------------------------------------------------

static __global__ void __launch_bounds__(NTHREADS, 1)
kernel(const __grid_constant__ tileops_attention_args p, int m_tiles)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3; // mma fragment row / column pair
    const bool causal = p.causal != 0;

    const attn_block blk = attn_block_of(p, blockIdx.x, m_tiles, causal);
    const int m_blk = blk.m_blk, h = blk.h, b = blk.b;
    const int hk = h / (p.heads_q / p.heads_kv);

    const attn_seq seq = attn_seq_of(p, b, h);
    const int len_q = seq.len_q, len_kv = seq.len_kv;
    float *const lse = seq.lse;
    const int m0 = m_blk * BLOCK_M;
    if (m0 >= len_q)
        return; // the whole block: a shorter sequence of a varlen batch
    const elem_t *qg =
        (const elem_t *)p.q + seq.q_base + (int64_t)h * p.q_head + (int64_t)m0 * p.q_seq;
    const elem_t *kg = (const elem_t *)p.k + seq.k_base + (int64_t)hk * p.k_head;
    const elem_t *vg = (const elem_t *)p.v + seq.v_base + (int64_t)hk * p.v_head;
    // Key tiles t0 .. t0 + n_tiles - 1 (causal and the window leave the others out); kg and vg
    // start at tile t0, kv_left keys on from there.
    const attn_win win = {p.window_left, p.window_right};
    int t0, n_tiles;
    attn_kv_tiles(m0, BLOCK_M, BLOCK_N, len_q, len_kv, win, &t0, &n_tiles);
    const int nb = t0 * BLOCK_N, kv_left = len_kv - nb;
    kg += (int64_t)nb * p.k_seq;
    vg += (int64_t)nb * p.v_seq;

    const uint32_t s0 = smem_addr(smem);
    const uint32_t sq = s0 + Q_OFF;

    // Prologue: Q, then tiles 0 .. STAGES-2, one group each (empty groups keep the count).
    // One stage: Q and K(0) in one group.
    copy_tile<BLOCK_M>(sq, qg, p.q_seq, len_q - m0, tid);
    if (STAGES == 1 && n_tiles > 0)
        copy_tile<BLOCK_N>(s0, kg, p.k_seq, kv_left, tid);
    cp_async_commit();
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < n_tiles) {
            const int64_t n0 = (int64_t)s * BLOCK_N;
            copy_tile<BLOCK_N>(s0 + s * STAGE_BYTES, kg + n0 * p.k_seq, p.k_seq, kv_left - (int)n0, tid);
            copy_tile<BLOCK_N>(s0 + s * STAGE_BYTES + KV_BYTES, vg + n0 * p.v_seq, p.v_seq,
                               kv_left - (int)n0, tid);
        }
        cp_async_commit();
    }

    // Lane rows for ldmatrix: Q (A, row-major): row lane%16 of each m16 tile, chunk lane/16;
    // K (B "col" = [n][k]): row lane%8 + 8*(lane/16), chunk (lane/8)%2; V (B k-major, .trans):
    // row lane%8 + 8*((lane/8)%2), chunk lane/16.
    const lane_row qr = make_lane_row(warp * WM + (lane & 15));
    const lane_row kr = make_lane_row((lane & 7) + (lane >> 4) * 8);
    const lane_row vr = make_lane_row((lane & 7) + ((lane >> 3) & 1) * 8);
    const int kc = (lane >> 3) & 1, vc = lane >> 4, qc = lane >> 4;

    // Q into registers: its group is done when at most STAGES-1 are pending. The loop's first
    // barrier orders these reads before iteration 0 overwrites the last stage. (Q_IN_REGS = 0:
    // the loop's first wait covers Q's group too.)
    uint32_t qf[MI][Q_IN_REGS ? DK : 1][4];
    if (Q_IN_REGS) {
        cp_async_wait<STAGES - 1>();
        __syncthreads();
#pragma unroll
        for (int mi = 0; mi < MI; mi++)
#pragma unroll
            for (int kk = 0; kk < DK; kk++)
                ldmatrix_x4(qf[mi][Q_IN_REGS ? kk : 0], sq + frag_off(qr, 2 * kk + qc, mi * 16));
    }

    float o[MI][DI][4];
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int di = 0; di < DI; di++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                o[mi][di][e] = 0.0f;
    // Per row (mi, half hf: rows g and g + 8): running max of the raw scores and this thread's
    // part of the row sum (the quad's parts are added once, at the end).
    float row_max[MI][2], row_sum[MI][2];
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int hf = 0; hf < 2; hf++) {
            row_max[mi][hf] = -INFINITY;
            row_sum[mi][hf] = 0.0f;
        }
    // Softcap: the scores become tanh(s · scale / cap) before the softmax, which scales by cap.
    const bool capped = p.softcap > 0.0f;
    const float scale_over_cap = capped ? p.scale / p.softcap : 0.0f;
    const float s_scale = capped ? p.softcap : p.scale;
    const float scale_log2 = s_scale * TILEOPS_LOG2E;
    const int row0 = m0 + warp * WM + g; // sequence row of (mi 0, hf 0)

    for (int j = 0; j < n_tiles; j++) {
        if (STAGES == 1) {
            // K(j) (and Q) landed and every warp is done with V(j-1): V(j) may overwrite it.
            cp_async_wait<0>();
            __syncthreads();
            copy_tile<BLOCK_N>(s0 + KV_BYTES, vg + (int64_t)j * BLOCK_N * p.v_seq, p.v_seq,
                               kv_left - j * BLOCK_N, tid);
            cp_async_commit();
        } else {
            // Tile j landed: STAGES-1 + j + 1 groups after Q committed, at most STAGES-2
            // pending. Then tile j + STAGES - 1 into the stage tile j - 1 was read from (free
            // after the barrier).
            cp_async_wait<(STAGES > 1 ? STAGES - 2 : 0)>();
            __syncthreads();
            const int jn = j + STAGES - 1;
            if (jn < n_tiles) {
                const uint32_t sw = s0 + (jn % STAGES) * STAGE_BYTES;
                const int64_t n0 = (int64_t)jn * BLOCK_N;
                copy_tile<BLOCK_N>(sw, kg + n0 * p.k_seq, p.k_seq, kv_left - (int)n0, tid);
                copy_tile<BLOCK_N>(sw + KV_BYTES, vg + n0 * p.v_seq, p.v_seq, kv_left - (int)n0, tid);
            }
            cp_async_commit();
        }
        const uint32_t sk = s0 + (j % STAGES) * STAGE_BYTES, sv = sk + KV_BYTES;
        const int n0 = nb + j * BLOCK_N; // the tile's first key

        // S = Q·Kᵀ.
        float s[MI][NI][4];
#pragma unroll
        for (int mi = 0; mi < MI; mi++)
#pragma unroll
            for (int ni = 0; ni < NI; ni++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    s[mi][ni][e] = 0.0f;
#pragma unroll
        for (int kk = 0; kk < DK; kk++) {
            if (!Q_IN_REGS)
#pragma unroll
                for (int mi = 0; mi < MI; mi++)
                    ldmatrix_x4(qf[mi][0], sq + frag_off(qr, 2 * kk + qc, mi * 16));
#pragma unroll
            for (int nj = 0; nj < NI / 2; nj++) {
                uint32_t r[4];
                ldmatrix_x4(r, sk + frag_off(kr, 2 * kk + kc, nj * 16));
                const uint32_t b0[2] = {r[0], r[1]}, b1[2] = {r[2], r[3]};
#pragma unroll
                for (int mi = 0; mi < MI; mi++) {
                    mma_16816(s[mi][2 * nj], qf[mi][Q_IN_REGS ? kk : 0], b0, (const elem_t *)0);
                    mma_16816(s[mi][2 * nj + 1], qf[mi][Q_IN_REGS ? kk : 0], b1, (const elem_t *)0);
                }
            }
        }

        if (capped) // before the mask: tanh(-inf) would be -1
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
#pragma unroll
                for (int ni = 0; ni < NI; ni++)
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        s[mi][ni][e] = attn_softcap(s[mi][ni][e], scale_over_cap);

        // Mask (block-uniform branch: only tiles at the sequence end, crossing the diagonal or
        // the window's edges).
        if (attn_tile_masked(n0, BLOCK_N, m0, BLOCK_M, len_q, len_kv, win)) {
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
#pragma unroll
                for (int hf = 0; hf < 2; hf++) {
                    const attn_span sp = attn_row_span(row0 + mi * 16 + hf * 8, len_q, len_kv, win);
#pragma unroll
                    for (int ni = 0; ni < NI; ni++)
#pragma unroll
                        for (int c = 0; c < 2; c++)
                            if (!attn_sees(sp, n0 + ni * 8 + 2 * t + c))
                                s[mi][ni][2 * hf + c] = -INFINITY;
                }
        }

        if (STAGES == 1) {
            // V(j) landed and every warp is done with K(j): K(j+1) may overwrite it.
            cp_async_wait<0>();
            __syncthreads();
            if (j + 1 < n_tiles)
                copy_tile<BLOCK_N>(s0, kg + (int64_t)(j + 1) * BLOCK_N * p.k_seq, p.k_seq,
                                   kv_left - (j + 1) * BLOCK_N, tid);
            cp_async_commit();
        }

        // Online softmax: new max, rescale O and the sums, P = exp2(s * scale_log2 - max_scaled).
#pragma unroll
        for (int mi = 0; mi < MI; mi++)
#pragma unroll
            for (int hf = 0; hf < 2; hf++) {
                float mx = row_max[mi][hf];
#pragma unroll
                for (int ni = 0; ni < NI; ni++)
                    mx = max_nan(mx, max_nan(s[mi][ni][2 * hf], s[mi][ni][2 * hf + 1]));
                mx = max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
                mx = max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
                // A row with no visible key yet keeps max -inf: subtract 0 instead, so that its
                // exps are exp2(-inf) = 0 rather than NaN.
                const float ms = mx == -INFINITY ? 0.0f : mx * scale_log2;
                const float corr = fast_exp2(row_max[mi][hf] * scale_log2 - ms);
                row_max[mi][hf] = mx;
                float sum = 0.0f;
#pragma unroll
                for (int ni = 0; ni < NI; ni++)
#pragma unroll
                    for (int e = 2 * hf; e < 2 * hf + 2; e++) {
                        s[mi][ni][e] = fast_exp2(fmaf(s[mi][ni][e], scale_log2, -ms));
                        sum += s[mi][ni][e];
                    }
                row_sum[mi][hf] = row_sum[mi][hf] * corr + sum;
#pragma unroll
                for (int di = 0; di < DI; di++) {
                    o[mi][di][2 * hf] *= corr;
                    o[mi][di][2 * hf + 1] *= corr;
                }
            }

        // Tile j's V is in the same group as its K (one stage: waited for above). O += P·V,
        // P from S's registers: S tiles 2kk, 2kk+1 (rows g, g+8; columns 2t, 2t+1) are A's
        // a0..a3 of k16 step kk.
#pragma unroll
        for (int kk = 0; kk < NK; kk++) {
            uint32_t pa[MI][4];
#pragma unroll
            for (int mi = 0; mi < MI; mi++) {
                pa[mi][0] = pack2(s[mi][2 * kk][0], s[mi][2 * kk][1], (const elem_t *)0);
                pa[mi][1] = pack2(s[mi][2 * kk][2], s[mi][2 * kk][3], (const elem_t *)0);
                pa[mi][2] = pack2(s[mi][2 * kk + 1][0], s[mi][2 * kk + 1][1], (const elem_t *)0);
                pa[mi][3] = pack2(s[mi][2 * kk + 1][2], s[mi][2 * kk + 1][3], (const elem_t *)0);
            }
#pragma unroll
            for (int dj = 0; dj < DI / 2; dj++) {
                uint32_t r[4];
                ldmatrix_x4_trans(r, sv + frag_off(vr, 2 * dj + vc, kk * 16));
                const uint32_t b0[2] = {r[0], r[1]}, b1[2] = {r[2], r[3]};
#pragma unroll
                for (int mi = 0; mi < MI; mi++) {
                    mma_16816(o[mi][2 * dj], pa[mi], b0, (const elem_t *)0);
                    mma_16816(o[mi][2 * dj + 1], pa[mi], b1, (const elem_t *)0);
                }
            }
        }
    }

    // Epilogue. Q's region (with Q_REGS the last stage) is reused: no copy may still land there
    // (only empty groups remain, but say so) and every warp must be done with the last tile.
    cp_async_wait<0>();
    __syncthreads();
    const lane_row orow = make_lane_row(warp * WM + g); // S/O fragment rows g (and g + 8)
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int hf = 0; hf < 2; hf++) {
            float l = row_sum[mi][hf];
            l += __shfl_xor_sync(0xffffffffu, l, 1);
            l += __shfl_xor_sync(0xffffffffu, l, 2);
            const float inv = l > 0.0f ? 1.0f / l : 0.0f;
            // Row g + 8hf + 16mi: g's swizzle, 8 or 16 rows on; columns 2t, 2t+1 of chunk di.
#pragma unroll
            for (int di = 0; di < DI; di++)
                asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(sq + frag_off(orow, di, mi * 16 + hf * 8) + 4 * t),
                             "r"(pack2(o[mi][di][2 * hf] * inv, o[mi][di][2 * hf + 1] * inv,
                                       (const elem_t *)0))
                             : "memory");
            const int i = row0 + mi * 16 + hf * 8;
            if (lse && t == 0 && i < len_q)
                lse[i] = l > 0.0f ? row_max[mi][hf] * s_scale + logf(l) : -INFINITY;
        }
    __syncwarp(); // each warp reads back only its own rows
    elem_t *og = (elem_t *)p.o + seq.o_base + (int64_t)h * p.o_head;
    constexpr int WCHUNKS = WM * CPR;
#pragma unroll
    for (int it = 0; it < (WCHUNKS + 31) / 32; it++) {
        const int id = it * 32 + lane;
        if (WCHUNKS % 32 != 0 && id >= WCHUNKS)
            break;
        const int r = warp * WM + id / CPR, c = id % CPR;
        uint4 v;
        asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "r"(sq + swz_off(r, c, ROW_BYTES))
                     : "memory");
        if (m0 + r < len_q)
            store_stream((uint4 *)(og + (int64_t)(m0 + r) * p.o_seq + c * 8), v);
    }
}

// ---- host side --------------------------------------------------------------------------------

// q tiles of the grid: of the longest sequence.
static inline int64_t grid_m_tiles(const tileops_attention_args *p)
{
    return (p->seqlen_q + BLOCK_M - 1) / BLOCK_M;
}

// Launches on the caller's stream; returns the first cudaError_t as an int.
static int launch(const void *args, cudaStream_t stream)
{
    const tileops_attention_args *p = (const tileops_attention_args *)args;
    const int64_t m_tiles = grid_m_tiles(p);
    const int64_t blocks = m_tiles * p->heads_q * p->batch;
    if (blocks <= 0)
        return 0; // nothing to compute
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    const int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    kernel<<<(unsigned)blocks, NTHREADS, SMEM_TOTAL, stream>>>(*p, (int)m_tiles);
    return (int)cudaGetLastError();
}

// -1 if this instance cannot serve the call (head dim, 16-byte alignment of the tiles' rows, a
// grid or sequence beyond its int indexing); else a cost estimate in ns. No workspace.
static int64_t fit(const void *args, size_t *workspace_bytes)
{
    const tileops_attention_args *p = (const tileops_attention_args *)args;
    if (workspace_bytes)
        *workspace_bytes = 0;
    if (!attn_fits16(p, D)) // cp.async moves 16-byte chunks
        return -1;
    const int64_t m_tiles = grid_m_tiles(p);
    if (p->seqlen_q > 0x7fffffff - BLOCK_M || p->seqlen_kv > 0x7fffffff - BLOCK_N ||
        m_tiles * p->heads_q * p->batch > 0x7fffffff)
        return -1;
    // Cost: the mma work of whole tiles (causal: about half) at an efficiency that grows with
    // the tile (smem traffic per mma falls with rows per warp and BLOCK_N).
    const int64_t n_pad = (p->seqlen_kv + BLOCK_N - 1) / BLOCK_N * BLOCK_N;
    double block_flops = 4.0 * BLOCK_M * (double)n_pad * D;
    if (p->causal)
        block_flops *= 0.5;
    const double eff = 0.55 * (MI >= 2 ? 1.0 : 0.85) *
                       (BLOCK_N >= 128 ? 1.0 : BLOCK_N >= 64 ? 0.95 : 0.88);
    // Blocks per SM: shared memory, threads, and registers (up to 255 a thread at one block).
    const int per_sm = tileops__gemm_blocks_per_sm(SMEM_TOTAL, 227 * 1024, NTHREADS, 2048, 256);
    const double bytes = 2.0 * D * (double)p->batch *
                         (2.0 * p->heads_q * p->seqlen_q + 2.0 * p->heads_kv * p->seqlen_kv);
    return tileops__gemm_cost_ns(p->sms, m_tiles * p->heads_q * p->batch, per_sm, block_flops,
                                 eff, bytes);
}
