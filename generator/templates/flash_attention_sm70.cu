// Template flash_attention_sm70: O = softmax(scale * Q·Kᵀ + mask) · V, forward, FlashAttention-2
// with wmma (m16n16k16, fp16 in, fp32 accumulate): the sm70 tier (Volta/Turing, built as sm_75
// with CUDA 13; its PTX serves newer GPUs). fp16 only (a static_assert says so).
//
// Reads from the generator: elem_t (__half); HEAD_DIM (an index into HEAD_DIM_64/96/128/256);
// BLOCK_M query rows per block, 16 per warp; BLOCK_N keys per tile; WARPS; STAGES (1: one K/V
// tile in shared memory, the next one waits in registers); SMEM_BYTES. Uses tileops_device.cuh
// (max_nan, fast_exp2, pack2, store_stream, TILEOPS_LOG2E, smem_optin), the host cost model
// of libops/cost_model.h (tileops__gemm_cost_ns) and <mma.h> (included at file scope by
// tileops_gemm.cuh), and struct tileops_attention_args. Design notes: docs/ATTENTION.md.
//
// One block computes BLOCK_M rows of O for one (head, sequence) over all its keys; warp w owns
// rows [16w, 16w + 16) of the block (one m16 tile).
//   - Q's tile is copied once into shared memory; up to d128 each warp then holds its rows as
//     wmma A fragments for the whole key loop and Q's region is reused (d256: Q stays in shared
//     memory and is re-read per K tile).
//   - K and V have one shared tile each; the next tile waits in registers (no cp.async before
//     sm80). K(j+1) is loaded while S(j) is computed and V(j+1) while softmax and P·V(j) run,
//     so one tile's registers are in flight at a time; two barriers per tile:
//        S = Q·K(j) | B1 | K(j+1) regs -> sK; load V(j+1) | softmax, O += P·V(j) | B2 |
//        V(j+1) regs -> sV; load K(j+2)
//     Rows past the sequence load as zeros (a NaN in a V row past the end would survive 0·NaN).
//   - S = Q·Kᵀ (K stored [n][d] is wmma's col_major B) -> the warp's fp32 S tile in shared
//     memory. Online softmax there, in fp32: lane (r = lane % 16, part = lane / 16) takes row
//     r's half of the columns (at BLOCK_N 16 lane r takes the row, lanes 16-31 wait); a max
//     pass, then an exp pass with scale·log2(e) folded into one FFMA before exp2 that writes P
//     as fp16 over the lane's own part of S. P goes back into wmma A fragments for O += P·V
//     (V stored [n][d] is a row_major B).
//   - O stays in wmma accumulator fragments across the key loop. Their element -> (row, column)
//     map is unspecified (it differs between sm_70's HMMA.884 and sm_75+'s HMMA.1688/16816), so
//     each warp discovers it once at the start: it loads a 16x16 fp32 matrix whose element
//     (r, c) is r into an accumulator fragment, and element i of every accumulator fragment then
//     lies in the row that element holds (load_matrix_sync and mma_sync use the same layout, or
//     C inputs would not work); 4 bits a row, packed in one register. The per-row rescale
//     exp2(m_old - m_new) goes through 16 floats of the warp in shared memory:
//     o[di].x[i] *= corr[row(i)]. The final 1/rowsum likewise.
//   - Causal and the sliding window (bottom-right: row i sits at i + seqlen_kv - seqlen_q):
//     tiles wholly outside are never loaded; only tiles crossing an edge (or the sequence end)
//     are masked. Softcap, when on, turns the scores in S into tanh(s · scale / cap) as the
//     row max reads them (the softmax then scales by cap).
//     A row that sees no key keeps max -inf (exps computed against 0: all 0), rowsum 0: O = 0,
//     LSE = -inf.
//   - Epilogue: O scaled by 1/rowsum in the fragments, staged NJ fragments at a time through the
//     warp's S tile as fp32, stored as 16-byte rows of fp16; LSE (natural log, of the scaled
//     scores) by lane r of each row.
//
// Shared memory (bytes; LD = D + 8 elements, rows padded by 16 bytes against bank conflicts):
//   K tile, V tile           2 * BLOCK_N * LD * 2
//   Q tile                   BLOCK_M * LD * 2                  (up to d128: aliased with ...)
//   S/P tiles, per warp      WARPS * 16 * (BLOCK_N + 4) * 4    (... these, after Q is in regs)
//   row scales, per warp     WARPS * 16 * 4
// SMEM_BYTES = 4 * BLOCK_N * (D + 8)
//            + (D <= 128 ? max(2 * BLOCK_M * (D + 8), 64 * WARPS * (BLOCK_N + 4))
//                        : 2 * BLOCK_M * (D + 8) + 64 * WARPS * (BLOCK_N + 4))
//            + 64 * WARPS

constexpr int D = HEAD_DIM == HEAD_DIM_64 ? 64 : HEAD_DIM == HEAD_DIM_96 ? 96
                : HEAD_DIM == HEAD_DIM_128 ? 128 : 256;
constexpr int NTHREADS = WARPS * 32;
constexpr int DK = D / 16;        // k16 steps of Q·Kᵀ; n16 tiles (fragments) of O
constexpr int NJ = BLOCK_N / 16;  // n16 tiles of S; k16 steps of P·V

constexpr int LD = D + 8;                  // Q, K, V shared row pitch, elements
constexpr int S_LD = BLOCK_N + 4;          // S rows, fp32 elements
constexpr int P_LD = 2 * S_LD;             // P rows, fp16 elements: row r starts where S's does
// Softmax: LPR lanes per row, HN columns each. A lane writes its HN fp16 P values over the
// first half of the bytes its HN fp32 scores occupied, so P column c lies at p_col(c) of the
// row (a 16-column wmma tile never straddles two lanes' parts: HN is a multiple of 16).
constexpr int LPR = BLOCK_N >= 32 ? 2 : 1;
constexpr int HN = BLOCK_N / LPR;
static __host__ __device__ __forceinline__ int p_col(int c) { return c + c / HN * HN; }
constexpr int TILE_BYTES = BLOCK_N * LD * 2;
constexpr int Q_BYTES = BLOCK_M * LD * 2;
constexpr int SP_WARP_BYTES = 16 * S_LD * 4;
constexpr int SP_BYTES = WARPS * SP_WARP_BYTES;
// Q's fragments live in registers up to d128 (d128: 8 fragments, 64 registers, beside O's 64).
// At d256 they would take 128: Q then stays in shared memory and is re-read per K tile.
constexpr bool Q_IN_REGS = D <= 128;
static_assert(Q_REGS == Q_IN_REGS, "the spec's q_regs names this tier's fixed choice");
constexpr int K_OFF = 0;
constexpr int V_OFF = TILE_BYTES;
constexpr int Q_OFF = 2 * TILE_BYTES;
constexpr int SP_OFF = Q_IN_REGS ? Q_OFF : Q_OFF + Q_BYTES;
constexpr int ROW_OFF = Q_IN_REGS ? Q_OFF + (Q_BYTES > SP_BYTES ? Q_BYTES : SP_BYTES)
                                  : SP_OFF + SP_BYTES;
constexpr int SMEM_TOTAL = ROW_OFF + WARPS * 16 * 4;
static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");

static_assert(!elem_is_bf16((const elem_t *)0),
              "flash_attention_sm70 is fp16 only (wmma bf16 needs sm80)");
static_assert(HEAD_DIM >= HEAD_DIM_64 && HEAD_DIM <= HEAD_DIM_256, "unknown head_dim");
static_assert(STAGES == 1,
              "one K/V tile in shared memory, the next in registers (the tier's tune fixes 1)");
static_assert(BLOCK_M == 16 * WARPS, "each warp owns one m16 tile of query rows");
static_assert(BLOCK_N % 16 == 0 && BLOCK_N >= 16 && HN % 16 == 0,
              "S tiles are n16 multiples (P is a k16 A operand), whole in one softmax lane's part");
// wmma: fp16 ldm a multiple of 8 elements, fp32 ldm of 4, every fragment pointer 32-byte
// aligned (row steps of 16 rows, k16 column steps and region offsets are multiples of 32 bytes).
static_assert(LD % 8 == 0 && S_LD % 4 == 0 && P_LD % 8 == 0 && (16 * LD * 2) % 32 == 0 &&
                  TILE_BYTES % 32 == 0 && Q_BYTES % 32 == 0 && SP_WARP_BYTES % 32 == 0 &&
                  Q_OFF % 32 == 0 && SP_OFF % 32 == 0 && ROW_OFF % 32 == 0,
              "wmma alignment");
// The epilogue stages NJ fragments (16 * NJ <= BLOCK_N columns) at a time through S's tile.
static_assert(S_LD >= 16 * NJ, "epilogue staging fits the S tile");
static_assert(SMEM_TOTAL <= 96 * 1024, "sm70 tier: at most 96 KB (V100); 64 KB on Turing");
// The tile plan (attn_kv_tiles, attn_tile_masked, attn_row_span): tileops_attention.cuh.

// ---- copies through registers -----------------------------------------------------------------

// Thread t copies 16-byte chunk column t % CPR_P of rows t / CPR_P + i * RS (CPR_P: the row's
// chunks rounded up to a power of two, so d96 leaves a quarter of the threads idle rather than
// dividing by 12).
constexpr int CPR = D / 8;
constexpr int CPR_P = CPR <= 8 ? 8 : CPR <= 16 ? 16 : 32;
constexpr int RS = NTHREADS / CPR_P;
constexpr int KV_ITERS = BLOCK_N / RS; // chunks of a K or V tile per thread
static_assert(NTHREADS % CPR_P == 0 && BLOCK_N % RS == 0 && BLOCK_M % RS == 0,
              "tiles split evenly over the threads");

// Loads this thread's chunks of a [BLOCK_N][D] tile whose row 0 is at g (row stride ld
// elements); rows >= rows_left are zeros.
static __device__ __forceinline__ void fetch_tile(uint4 (&r)[KV_ITERS], const elem_t *g, int64_t ld,
                                                  int rows_left, int tid)
{
    const int c = tid % CPR_P, r0 = tid / CPR_P;
    const elem_t *q = g + r0 * ld + c * 8;
    const int64_t step = RS * ld;
#pragma unroll
    for (int i = 0; i < KV_ITERS; i++, q += step)
        r[i] = (CPR == CPR_P || c < CPR) && r0 + i * RS < rows_left ? __ldg((const uint4 *)q)
                                                                    : make_uint4(0, 0, 0, 0);
}

// Stores them into the shared tile s.
static __device__ __forceinline__ void put_tile(elem_t *s, const uint4 (&r)[KV_ITERS], int tid)
{
    const int c = tid % CPR_P, r0 = tid / CPR_P;
    if (CPR != CPR_P && c >= CPR)
        return;
#pragma unroll
    for (int i = 0; i < KV_ITERS; i++)
        *(uint4 *)(s + (r0 + i * RS) * LD + c * 8) = r[i];
}

// ---- the kernel -----------------------------------------------------------------------------

typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major>
    a_frag; // Q, P
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major>
    kt_frag; // Kᵀ from K stored [n][d]
typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::row_major>
    v_frag; // V stored [n][d]
typedef nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc_frag;
constexpr int ACC_N = acc_frag::num_elements;

static_assert(ACC_N <= 8, "the row map packs a 4-bit row per accumulator element");

// o[*].x[i] *= scale[row of element i]: one factor per row through the warp's 16 floats;
// rows: the accumulator layout's row of element i in bits 4i..4i+3.
static __device__ __forceinline__ void scale_rows(acc_frag (&o)[DK], const float *scale,
                                                  uint32_t rows)
{
#pragma unroll
    for (int i = 0; i < ACC_N; i++) {
        const float f = scale[(rows >> 4 * i) & 15];
#pragma unroll
        for (int di = 0; di < DK; di++)
            o[di].x[i] *= f;
    }
}

static __global__ void __launch_bounds__(NTHREADS, 1)
kernel(const __grid_constant__ tileops_attention_args p, int m_tiles)
{
    using namespace nvcuda;
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
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

    elem_t *const sK = (elem_t *)(smem + K_OFF);
    elem_t *const sV = (elem_t *)(smem + V_OFF);
    const elem_t *const sQ = (const elem_t *)(smem + Q_OFF) + warp * 16 * LD; // the warp's rows
    float *const sS = (float *)(smem + SP_OFF + warp * SP_WARP_BYTES);        // the warp's S
    elem_t *const sP = (elem_t *)sS;                                          // P over S's rows
    float *const rowf = (float *)(smem + ROW_OFF) + warp * 16;                // per-row factors

    // Prologue: Q, K(0), V(0) into shared memory; K(1) into registers.
    {
        const int c = tid % CPR_P, r0 = tid / CPR_P;
        if (CPR == CPR_P || c < CPR) {
            const elem_t *q = qg + r0 * p.q_seq + c * 8;
            const int64_t step = RS * p.q_seq;
#pragma unroll 4
            for (int i = 0; i < BLOCK_M / RS; i++, q += step) {
                const int r = r0 + i * RS;
                *(uint4 *)((elem_t *)(smem + Q_OFF) + r * LD + c * 8) =
                    r < len_q - m0 ? __ldg((const uint4 *)q) : make_uint4(0, 0, 0, 0);
            }
        }
    }
    uint4 stg[KV_ITERS]; // the tile in flight: K(j+1) during S(j), V(j+1) during P·V(j)
    if (n_tiles > 0) {
        fetch_tile(stg, kg, p.k_seq, kv_left, tid);
        put_tile(sK, stg, tid);
        fetch_tile(stg, vg, p.v_seq, kv_left, tid);
        put_tile(sV, stg, tid);
    }
    if (n_tiles > 1)
        fetch_tile(stg, kg + (int64_t)BLOCK_N * p.k_seq, p.k_seq, kv_left - BLOCK_N, tid);
    __syncthreads();

    a_frag qf[Q_IN_REGS ? DK : 1];
    if (Q_IN_REGS) {
#pragma unroll
        for (int kk = 0; kk < DK; kk++)
            wmma::load_matrix_sync(qf[Q_IN_REGS ? kk : 0], sQ + kk * 16, LD);
        __syncthreads(); // Q's region is the S tiles' from here on
    }

    // The accumulator layout: element i of any accumulator fragment lies in row
    // (rows >> 4i) & 15.
    uint32_t rows = 0;
    {
        for (int e = lane; e < 256; e += 32)
            sS[(e >> 4) * S_LD + (e & 15)] = (float)(e >> 4);
        __syncwarp();
        acc_frag rm;
        wmma::load_matrix_sync(rm, sS, S_LD, wmma::mem_row_major);
#pragma unroll
        for (int i = 0; i < ACC_N; i++)
            rows |= (uint32_t)rm.x[i] << 4 * i;
        __syncwarp(); // read before S(0) overwrites it
    }

    acc_frag o[DK];
#pragma unroll
    for (int di = 0; di < DK; di++)
        wmma::fill_fragment(o[di], 0.0f);
    // Softmax lanes: row r of the warp, columns [part * HN, (part + 1) * HN) (LPR = 1: lanes
    // 16-31 follow lanes 0-15 without writing). Running max of the raw scores (the same in the
    // row's lanes) and this lane's part of the sum.
    const int r = lane & 15, half = lane >> 4, part = LPR == 2 ? half : 0;
    const bool active = LPR == 2 || half == 0;
    const int row = m0 + warp * 16 + r; // sequence row of this lane's softmax row
    float row_max = -INFINITY, row_sum = 0.0f;
    // Softcap: the scores become tanh(s · scale / cap) before the softmax, which scales by cap.
    const bool capped = p.softcap > 0.0f;
    const float scale_over_cap = capped ? p.scale / p.softcap : 0.0f;
    const float s_scale = capped ? p.softcap : p.scale;
    const float scale_log2 = s_scale * TILEOPS_LOG2E;

    for (int j = 0; j < n_tiles; j++) {
        const int n0 = j * BLOCK_N; // from kg's first key; the sequence's key nb + n0

        // S = Q·Kᵀ into the warp's S tile.
        if (Q_IN_REGS) {
#pragma unroll
            for (int nj = 0; nj < NJ; nj++) {
                acc_frag s;
                wmma::fill_fragment(s, 0.0f);
#pragma unroll
                for (int kk = 0; kk < DK; kk++) {
                    kt_frag kb;
                    wmma::load_matrix_sync(kb, sK + nj * 16 * LD + kk * 16, LD);
                    wmma::mma_sync(s, qf[Q_IN_REGS ? kk : 0], kb, s);
                }
                wmma::store_matrix_sync(sS + nj * 16, s, S_LD, wmma::mem_row_major);
            }
        } else {
            acc_frag s[NJ];
#pragma unroll
            for (int nj = 0; nj < NJ; nj++)
                wmma::fill_fragment(s[nj], 0.0f);
#pragma unroll
            for (int kk = 0; kk < DK; kk++) {
                a_frag qa;
                wmma::load_matrix_sync(qa, sQ + kk * 16, LD);
#pragma unroll
                for (int nj = 0; nj < NJ; nj++) {
                    kt_frag kb;
                    wmma::load_matrix_sync(kb, sK + nj * 16 * LD + kk * 16, LD);
                    wmma::mma_sync(s[nj], qa, kb, s[nj]);
                }
            }
#pragma unroll
            for (int nj = 0; nj < NJ; nj++)
                wmma::store_matrix_sync(sS + nj * 16, s[nj], S_LD, wmma::mem_row_major);
        }
        __syncthreads(); // B1: every warp is done with K(j); S is visible to the warp's lanes

        if (j + 1 < n_tiles) {
            put_tile(sK, stg, tid);
            const int64_t n1 = (int64_t)n0 + BLOCK_N;
            fetch_tile(stg, vg + n1 * p.v_seq, p.v_seq, kv_left - (int)n1, tid);
        }

        // Online softmax on the lane's part of row r: mask, max (reading S), then exps and P
        // (reading S again: holding it would cost HN registers), P written over the lane's own
        // part of S, each 16 bytes after the 32 they come from were read. (LPR = 1: lanes
        // 16-31 wait; LPR = 2: all lanes take part, the shuffle included.)
        if (active) {
            float *src = sS + r * S_LD + part * HN;
            // block-uniform
            const bool masked = attn_tile_masked(nb + n0, BLOCK_N, m0, BLOCK_M, len_q, len_kv, win);
            const int col0 = nb + n0 + part * HN;
            const attn_span sp = attn_row_span(row, len_q, len_kv, win);
            float mx = row_max;
#pragma unroll
            for (int c = 0; c < HN; c += 4) {
                const float4 t4 = *(const float4 *)(src + c);
                float t[4] = {t4.x, t4.y, t4.z, t4.w};
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    if (capped)
                        t[e] = attn_softcap(t[e], scale_over_cap);
                    if (!masked || attn_sees(sp, col0 + c + e))
                        mx = max_nan(mx, t[e]);
                }
                if (capped) // the exps below read the capped scores back
                    *(float4 *)(src + c) = make_float4(t[0], t[1], t[2], t[3]);
            }
            if (LPR == 2)
                mx = max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, 16));
            // A row with no visible key yet keeps max -inf: subtract 0 instead, so that its
            // exps are exp2(-inf) = 0 rather than NaN.
            const float ms = mx == -INFINITY ? 0.0f : mx * scale_log2;
            const float corr = fast_exp2(row_max * scale_log2 - ms);
            row_max = mx;
            float sum = 0.0f;
            elem_t *dst = sP + r * P_LD + part * 2 * HN;
#pragma unroll
            for (int c = 0; c < HN; c += 8) {
                const float4 a = *(const float4 *)(src + c), b4 = *(const float4 *)(src + c + 4);
                float t[8] = {a.x, a.y, a.z, a.w, b4.x, b4.y, b4.z, b4.w};
#pragma unroll
                for (int e = 0; e < 8; e++) {
                    const bool vis = !masked || attn_sees(sp, col0 + c + e);
                    t[e] = vis ? fast_exp2(fmaf(t[e], scale_log2, -ms)) : 0.0f;
                    sum += t[e];
                }
                *(uint4 *)(dst + c) = make_uint4(pack2(t[0], t[1], (const elem_t *)0),
                                                 pack2(t[2], t[3], (const elem_t *)0),
                                                 pack2(t[4], t[5], (const elem_t *)0),
                                                 pack2(t[6], t[7], (const elem_t *)0));
            }
            row_sum = row_sum * corr + sum;
            if (half == 0)
                rowf[r] = corr;
        }
        __syncwarp(); // P and the factors are visible to the warp

        // O = O * corr + P·V(j). (Not unrolled over kk: ptxas would hoist the V fragments of
        // later steps and run out of registers: d128 m64 n64 w4 took 255 and spilled on sm_80,
        // 221 without.)
        scale_rows(o, rowf, rows);
#pragma unroll 1
        for (int kk = 0; kk < NJ; kk++) {
            a_frag pa;
            wmma::load_matrix_sync(pa, sP + p_col(kk * 16), P_LD);
#pragma unroll
            for (int di = 0; di < DK; di++) {
                v_frag vb;
                wmma::load_matrix_sync(vb, sV + kk * 16 * LD + di * 16, LD);
                wmma::mma_sync(o[di], pa, vb, o[di]);
                // d256 (O alone is 128 registers): a __syncwarp every 4 fragments keeps ptxas
                // from loading all 16 V fragments ahead (d256 m64 n16: 255 registers and 64
                // bytes of spills on sm_80 without, 232 with).
                if (DK > 8 && di % 4 == 3)
                    __syncwarp();
            }
        }
        __syncthreads(); // B2: every warp is done with V(j); K(j+1) is visible

        if (j + 1 < n_tiles) {
            put_tile(sV, stg, tid);
            if (j + 2 < n_tiles) {
                const int64_t n2 = (int64_t)n0 + 2 * BLOCK_N;
                fetch_tile(stg, kg + n2 * p.k_seq, p.k_seq, kv_left - (int)n2, tid);
            }
        }
    }

    // Epilogue: O / rowsum (0 for a row that saw no key) in the fragments, then NJ fragments at
    // a time through the warp's S tile (the last P·V's reads of it are done: same warp, after
    // B2) to 16-byte stores of 8 columns.
    const float l = LPR == 2 ? row_sum + __shfl_xor_sync(0xffffffffu, row_sum, 16) : row_sum;
    if (half == 0) {
        rowf[r] = l > 0.0f ? 1.0f / l : 0.0f;
        if (lse && row < len_q)
            lse[row] = l > 0.0f ? row_max * s_scale + logf(l) : -INFINITY;
    }
    __syncwarp();
    scale_rows(o, rowf, rows);
    elem_t *og = (elem_t *)p.o + seq.o_base + (int64_t)h * p.o_head +
                 (int64_t)(m0 + warp * 16) * p.o_seq; // the warp's row 0
    const int rows_left = len_q - m0 - warp * 16;
    constexpr int CH = 2 * NJ; // 8-column chunks of a row per pass
#pragma unroll
    for (int f0 = 0; f0 < DK; f0 += NJ) {
#pragma unroll
        for (int f = 0; f < NJ; f++)
            if (f0 + f < DK)
                wmma::store_matrix_sync(sS + f * 16, o[f0 + f < DK ? f0 + f : 0], S_LD,
                                        wmma::mem_row_major);
        __syncwarp();
#pragma unroll
        for (int it = 0; it < (16 * CH + 31) / 32; it++) {
            const int id = it * 32 + lane;
            const int rr = id / CH, cc = id % CH;
            if ((16 * CH) % 32 != 0 && id >= 16 * CH)
                break;
            if (f0 * 16 + cc * 8 < D && rr < rows_left) {
                const float *src = sS + rr * S_LD + cc * 8;
                const float4 a = *(const float4 *)src, c4 = *(const float4 *)(src + 4);
                const uint4 v = make_uint4(pack2(a.x, a.y, (const elem_t *)0),
                                           pack2(a.z, a.w, (const elem_t *)0),
                                           pack2(c4.x, c4.y, (const elem_t *)0),
                                           pack2(c4.z, c4.w, (const elem_t *)0));
                store_stream((uint4 *)(og + (int64_t)rr * p.o_seq + f0 * 16 + cc * 8), v);
            }
        }
        __syncwarp(); // read before the next pass overwrites the staging
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
    if (!attn_fits16(p, D)) // 16-byte vector loads and stores
        return -1;
    const int64_t m_tiles = grid_m_tiles(p);
    if (p->seqlen_q > 0x7fffffff - BLOCK_M || p->seqlen_kv > 0x7fffffff - 2 * BLOCK_N ||
        m_tiles * p->heads_q * p->batch > 0x7fffffff)
        return -1;
    // Cost: the wmma work of whole tiles (causal: about half) at an efficiency that grows with
    // BLOCK_N (S/P round trips and barriers per key) and falls when Q is re-read per tile.
    const int64_t n_pad = (p->seqlen_kv + BLOCK_N - 1) / BLOCK_N * BLOCK_N;
    double block_flops = 4.0 * BLOCK_M * (double)n_pad * D;
    if (p->causal)
        block_flops *= 0.5;
    const double eff = 0.3 * (BLOCK_N >= 64 ? 1.0 : BLOCK_N >= 32 ? 0.9 : 0.75) *
                       (Q_IN_REGS ? 1.0 : 0.85);
    const int per_sm = tileops__gemm_blocks_per_sm(SMEM_TOTAL, 64 * 1024, NTHREADS, 1024, 0);
    const double bytes = 2.0 * D * (double)p->batch *
                         (2.0 * p->heads_q * p->seqlen_q + 2.0 * p->heads_kv * p->seqlen_kv);
    return tileops__gemm_cost_ns(p->sms, m_tiles * p->heads_q * p->batch, per_sm, block_flops,
                                 eff, bytes);
}
