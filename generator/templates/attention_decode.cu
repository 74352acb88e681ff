// Template attention_decode (specs/attention_decode.lua): decode attention over a KV cache,
// O = softmax(softcap(scale * Q·Kᵀ) + mask) · V for the few new queries of each sequence,
// split-KV, with the sm80 instruction set (cp.async, ldmatrix, mma.sync m16n8k16, fp32
// accumulate). The work is memory-bound (the cache is read once), so the sm90 tier runs it too.
//
// Reads from the generator: elem_t; HEAD_DIM (HEAD_DIM_64 … HEAD_DIM_256); BLOCK_M query rows
// per block; BLOCK_N keys per K/V tile; WARPS warps; STAGES K/V tiles in shared memory;
// SMEM_BYTES (the spec's formula). Takes tileops_attention_decode_args (libops/op_args.h),
// validated by libops/kvcache.c.
//
// One block serves one (sequence, kv head, split, row tile):
//   - Rows are the query heads that share the kv head times the new queries, packed into
//     mma's M dimension (row r: query t = r / G, head hk * G + r % G, G = heads_q / heads_kv),
//     so K and V are read once for the whole group.
//   - The keys a row tile may see (its window, cut to the sequence) are whole BLOCK_N tiles,
//     dealt out to the splits in equal runs; a split's partial (O / l, log-sum-exp) goes to the
//     workspace and a second kernel merges the splits by log-sum-exp. One split writes O
//     directly.
//   - K and V tiles stream through STAGES stages by cp.async. Paged caches: each row's page
//     comes from the block table, read into registers one tile before its copy is issued, so
//     the table's latency hides behind a tile of work.
//   - Each warp takes its own BLOCK_N / WARPS keys of every tile, with its own online softmax
//     (log2 domain, scale folded in) over all BLOCK_M rows; at the end the warps' (max, sum,
//     O) are combined through shared memory.
//   - The mask is per (row, key): every row has its own window [jlo, jhi).
// The block plan, the output, the merge kernel and the host side are attention_decode_rows.cuh's
// and attention_decode_host.cuh's (shared with attention_decode_sm70).

constexpr int D = HEAD_DIM == HEAD_DIM_64 ? 64 : HEAD_DIM == HEAD_DIM_96 ? 96
                : HEAD_DIM == HEAD_DIM_128 ? 128 : 256;
constexpr int NTHREADS = WARPS * 32;
constexpr int MI = BLOCK_M / 16;    // m16 tiles of rows (every warp holds all of them)
constexpr int KW = BLOCK_N / WARPS; // keys a warp takes of each tile
constexpr int NI = KW / 8;          // n8 tiles of S
constexpr int NK = KW / 16;         // k16 steps of P·V
constexpr int DI = D / 8;           // n8 tiles of O
constexpr int DK = D / 16;          // k16 steps of Q·Kᵀ

constexpr int ROW_BYTES = D * 2;
constexpr int CPR = D / 8;          // 16-byte chunks per row
constexpr int KV_BYTES = BLOCK_N * ROW_BYTES;
constexpr int STAGE_BYTES = 2 * KV_BYTES;
constexpr int Q_BYTES = BLOCK_M * ROW_BYTES;
// The warps' O exchange (fp32, rows padded by 8 floats against bank conflicts) reuses the
// stages once the key loop is over.
constexpr int OPITCH = D + 8;
constexpr int XCH_BYTES = WARPS * BLOCK_M * OPITCH * 4;
constexpr int PIPE_BYTES =
    ((STAGES * STAGE_BYTES > XCH_BYTES ? STAGES * STAGE_BYTES : XCH_BYTES) + 1023) / 1024 * 1024;
constexpr int Q_OFF = PIPE_BYTES;
constexpr int RED_OFF = Q_OFF + Q_BYTES;       // per warp and row: max, then sum (fp32)
constexpr int SMEM_TOTAL = RED_OFF + 2 * WARPS * BLOCK_M * 4;
static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");
static_assert(KW % 16 == 0, "a warp's keys are whole k16 steps of P·V");
static_assert(D % 32 == 0 && KV_BYTES % 1024 == 0 && Q_BYTES % 1024 == 0, "swizzle alignment");

#include "attention_decode_rows.cuh"

// ---- swizzled fragment addressing (as flash_attention_sm80) ---------------------------------
struct lane_row {
    uint32_t off; // r * ROW_BYTES
    uint32_t sw;  // (r & 7) << 4
};

static __device__ __forceinline__ lane_row make_lane_row(int r)
{
    lane_row l;
    l.off = (uint32_t)r * ROW_BYTES;
    l.sw = (uint32_t)(r & 7) << 4;
    return l;
}

// Offset of chunk c of the lane's row plus `rows` rows (a multiple of 8).
static __device__ __forceinline__ uint32_t frag_off(lane_row l, int c, int rows)
{
    return ((l.off + (uint32_t)c * 16) ^ l.sw) + (uint32_t)(rows * ROW_BYTES);
}

// ---- copies ---------------------------------------------------------------------------------
// Thread t copies chunk column t % CPR_P of rows t / CPR_P + i * RS (CPR_P: CPR rounded up to a
// power of two; d96 leaves a quarter of the threads idle).
constexpr int CPR_P = CPR <= 8 ? 8 : CPR <= 16 ? 16 : 32;
constexpr int RS = NTHREADS / CPR_P;
constexpr int KV_ROWS_T = BLOCK_N / RS; // K/V rows a thread copies per tile
constexpr int Q_ROWS_T = (BLOCK_M + RS - 1) / RS;
static_assert(NTHREADS % CPR_P == 0 && BLOCK_N % RS == 0, "tiles split evenly over the threads");

// The pages of the rows this thread copies of the tile starting at key n0 (keys at or past
// len: not looked up).
static __device__ __forceinline__ void lookup_pages(const kv_rows &c, int n0, int len, int tid,
                                                    int (&pg)[KV_ROWS_T])
{
    if (!c.table)
        return;
    const int r0 = tid / CPR_P;
#pragma unroll
    for (int i = 0; i < KV_ROWS_T; i++) {
        const int key = n0 + r0 + i * RS;
        pg[i] = key < len ? __ldg(c.table + (key >> c.shift)) : 0;
    }
}

// Issues the cp.async of the K and V tile starting at key n0 into stage s; keys at or past len
// are zero-filled (their scores are masked).
static __device__ __forceinline__ void copy_kv(uint32_t s, const kv_rows &c, int n0, int len,
                                               int tid, const int (&pg)[KV_ROWS_T])
{
    const int ch = tid % CPR_P, r0 = tid / CPR_P;
    if (CPR != CPR_P && ch >= CPR)
        return;
#pragma unroll
    for (int i = 0; i < KV_ROWS_T; i++) {
        const int r = r0 + i * RS, key = n0 + r;
        const bool ok = key < len;
        int64_t ko = 0, vo = 0;
        if (ok)
            row_offsets(c, key, pg[i], &ko, &vo);
        const uint32_t dst = swz_off(r, ch, ROW_BYTES);
        cp_async_16(s + dst, c.k + ko + ch * 8, ok ? 16 : 0);
        cp_async_16(s + KV_BYTES + dst, c.v + vo + ch * 8, ok ? 16 : 0);
    }
}

// ---- the split kernel -----------------------------------------------------------------------

static __global__ void __launch_bounds__(NTHREADS)
kernel(const __grid_constant__ tileops_attention_decode_args p, int m_tiles, int ns)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t4 = lane & 3;

    const decode_block d = decode_block_of(p, blockIdx.x, m_tiles, ns);
    const int G = d.G, R = d.R, len = d.len, m0 = d.m0, b = d.b, hk = d.hk;
    const int tile_lo = d.tile_lo, tile_hi = d.tile_hi;
    const int n_tiles = tile_hi - tile_lo;

    const uint32_t s0 = smem_addr(smem), sq_s = s0 + Q_OFF;
    float *red = (float *)(smem + RED_OFF); // [2][WARPS][BLOCK_M]

    // Q: row r of the tile is query (m0 + r) / G of head hk * G + (m0 + r) % G.
    {
        const int ch = tid % CPR_P, r0 = tid / CPR_P;
        if (CPR == CPR_P || ch < CPR)
#pragma unroll
            for (int i = 0; i < Q_ROWS_T; i++) {
                const int r = r0 + i * RS;
                if (r >= BLOCK_M)
                    break;
                const int gr = m0 + r;
                const bool ok = gr < R;
                const elem_t *src = (const elem_t *)p.q;
                if (ok)
                    src += (int64_t)b * p.q_batch + (int64_t)(gr / G) * p.q_seq +
                           (int64_t)(hk * G + gr % G) * p.q_head + ch * 8;
                cp_async_16(sq_s + swz_off(r, ch, ROW_BYTES), src, ok ? 16 : 0);
            }
    }
    cp_async_commit();

    const kv_rows c = kv_rows_of(p, d);

    // Prologue: tiles 0 .. STAGES-2, one group each; then the pages of tile STAGES-1.
    int pg[KV_ROWS_T];
#pragma unroll
    for (int i = 0; i < KV_ROWS_T; i++)
        pg[i] = 0;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < n_tiles) {
            const int n0 = (tile_lo + s) * BLOCK_N;
            lookup_pages(c, n0, len, tid, pg);
            copy_kv(s0 + s * STAGE_BYTES, c, n0, len, tid, pg);
        }
        cp_async_commit();
    }
    if (STAGES - 1 < n_tiles)
        lookup_pages(c, (tile_lo + STAGES - 1) * BLOCK_N, len, tid, pg);

    // Each thread's rows (mi, hf: g and g + 8): the keys they see, [jlo, jhi).
    int jlo[MI][2], jhi[MI][2];
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int hf = 0; hf < 2; hf++) {
            const int r = m0 + mi * 16 + hf * 8 + g;
            if (r >= R) {
                jlo[mi][hf] = 0, jhi[mi][hf] = 0;
                continue;
            }
            decode_row_keys(p, d, r, &jlo[mi][hf], &jhi[mi][hf]);
        }

    const lane_row qr = make_lane_row(lane & 15);
    const lane_row kr = make_lane_row((lane & 7) + (lane >> 4) * 8);
    const lane_row vr = make_lane_row((lane & 7) + ((lane >> 3) & 1) * 8);
    const int kc = (lane >> 3) & 1, vc = lane >> 4, qc = lane >> 4;
    const int kw0 = warp * KW;

    const float scale_log2 = p.scale * TILEOPS_LOG2E;
    const float cap_log2 = p.softcap > 0.0f ? p.softcap * TILEOPS_LOG2E : 0.0f;
    const float scale_over_cap = p.softcap > 0.0f ? p.scale / p.softcap : 0.0f;

    float o[MI][DI][4];
    float row_max[MI][2], row_sum[MI][2]; // log2 domain; this thread's part of the sum
#pragma unroll
    for (int mi = 0; mi < MI; mi++) {
#pragma unroll
        for (int di = 0; di < DI; di++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                o[mi][di][e] = 0.0f;
#pragma unroll
        for (int hf = 0; hf < 2; hf++)
            row_max[mi][hf] = -INFINITY, row_sum[mi][hf] = 0.0f;
    }

    for (int j = 0; j < n_tiles; j++) {
        // Tile j landed (with Q): at most STAGES-2 groups pending. Then tile j + STAGES - 1
        // into the stage tile j - 1 was read from, and the pages of the tile after it.
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        const int jn = j + STAGES - 1;
        if (jn < n_tiles)
            copy_kv(s0 + (jn % STAGES) * STAGE_BYTES, c, (tile_lo + jn) * BLOCK_N, len, tid, pg);
        cp_async_commit();
        if (jn + 1 < n_tiles)
            lookup_pages(c, (tile_lo + jn + 1) * BLOCK_N, len, tid, pg);

        const uint32_t sk = s0 + (j % STAGES) * STAGE_BYTES, sv = sk + KV_BYTES;
        const int n0 = (tile_lo + j) * BLOCK_N + kw0;

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
            uint32_t qf[MI][4];
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
                ldmatrix_x4(qf[mi], sq_s + frag_off(qr, 2 * kk + qc, mi * 16));
#pragma unroll
            for (int nj = 0; nj < NI / 2; nj++) {
                uint32_t r[4];
                ldmatrix_x4(r, sk + frag_off(kr, 2 * kk + kc, kw0 + nj * 16));
                const uint32_t b0[2] = {r[0], r[1]}, b1[2] = {r[2], r[3]};
#pragma unroll
                for (int mi = 0; mi < MI; mi++) {
                    mma_16816(s[mi][2 * nj], qf[mi], b0, (const elem_t *)0);
                    mma_16816(s[mi][2 * nj + 1], qf[mi], b1, (const elem_t *)0);
                }
            }
        }

        // Scores (log2 domain), masked per row; online softmax; O += P·V.
#pragma unroll
        for (int mi = 0; mi < MI; mi++)
#pragma unroll
            for (int hf = 0; hf < 2; hf++) {
                float mx = row_max[mi][hf];
#pragma unroll
                for (int ni = 0; ni < NI; ni++)
#pragma unroll
                    for (int e = 2 * hf; e < 2 * hf + 2; e++) {
                        const int key = n0 + ni * 8 + 2 * t4 + (e & 1);
                        const float x = score2(s[mi][ni][e], scale_log2, cap_log2, scale_over_cap);
                        s[mi][ni][e] = key >= jlo[mi][hf] && key < jhi[mi][hf] ? x : -INFINITY;
                        mx = max_nan(mx, s[mi][ni][e]);
                    }
                mx = max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
                mx = max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
                // A row with no visible key yet keeps max -inf: subtract 0, so that its exps
                // are exp2(-inf) = 0 rather than NaN.
                const float ms = mx == -INFINITY ? 0.0f : mx;
                const float corr = fast_exp2(row_max[mi][hf] - ms);
                row_max[mi][hf] = mx;
                float sum = 0.0f;
#pragma unroll
                for (int ni = 0; ni < NI; ni++)
#pragma unroll
                    for (int e = 2 * hf; e < 2 * hf + 2; e++) {
                        s[mi][ni][e] = fast_exp2(s[mi][ni][e] - ms);
                        sum += s[mi][ni][e];
                    }
                row_sum[mi][hf] = row_sum[mi][hf] * corr + sum;
#pragma unroll
                for (int di = 0; di < DI; di++) {
                    o[mi][di][2 * hf] *= corr;
                    o[mi][di][2 * hf + 1] *= corr;
                }
            }
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
                ldmatrix_x4_trans(r, sv + frag_off(vr, 2 * dj + vc, kw0 + kk * 16));
                const uint32_t b0[2] = {r[0], r[1]}, b1[2] = {r[2], r[3]};
#pragma unroll
                for (int mi = 0; mi < MI; mi++) {
                    mma_16816(o[mi][2 * dj], pa[mi], b0, (const elem_t *)0);
                    mma_16816(o[mi][2 * dj + 1], pa[mi], b1, (const elem_t *)0);
                }
            }
        }
    }

    // The warps' results: max and sum per row, then each warp's O scaled to the common max.
    cp_async_wait<0>();
    __syncthreads(); // every warp is done with the stages: the exchange may overwrite them
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int hf = 0; hf < 2; hf++) {
            float l = row_sum[mi][hf];
            l += __shfl_xor_sync(0xffffffffu, l, 1);
            l += __shfl_xor_sync(0xffffffffu, l, 2);
            if (t4 == 0) {
                const int r = mi * 16 + hf * 8 + g;
                red[warp * BLOCK_M + r] = row_max[mi][hf];
                red[(WARPS + warp) * BLOCK_M + r] = l;
            }
        }
    __syncthreads();
    float *xch = (float *)smem;
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int hf = 0; hf < 2; hf++) {
            const int r = mi * 16 + hf * 8 + g;
            float m = -INFINITY;
#pragma unroll
            for (int w = 0; w < WARPS; w++)
                m = fmaxf(m, red[w * BLOCK_M + r]);
            const float f = row_max[mi][hf] == -INFINITY ? 0.0f : fast_exp2(row_max[mi][hf] - m);
            float *dst = xch + (warp * BLOCK_M + r) * OPITCH + 2 * t4;
#pragma unroll
            for (int di = 0; di < DI; di++)
                *(float2 *)(dst + di * 8) = make_float2(o[mi][di][2 * hf] * f, o[mi][di][2 * hf + 1] * f);
        }
    __syncthreads();

    write_rows(p, d, ns, red, xch, tid);
}

#include "attention_decode_host.cuh"
