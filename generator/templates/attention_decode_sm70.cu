// Template attention_decode_sm70 (specs/attention_decode.lua, tier sm70): decode attention over
// a KV cache, O = softmax(softcap(scale * Q·Kᵀ) + mask) · V, with fp32 math on the CUDA cores
// (sm70 has neither mma.sync m16n8k16, cp.async nor ldmatrix; decode is memory-bound, so the
// FMAs hide under the cache's reads). The problem, the block plan (row tile, split, kv head,
// sequence), the output, the merge of the splits and the host side are attention_decode's
// (attention_decode_rows.cuh, attention_decode_host.cuh).
//
// Reads from the generator: elem_t; HEAD_DIM; BLOCK_M rows per block; BLOCK_N keys per step of
// the block (32 a warp: one a lane); WARPS warps; SMEM_BYTES (the spec's formula).
//
// A block's keys are dealt to its warps in chunks of 32, one key a lane:
//   - S: each lane computes its key's scores for all BLOCK_M rows, reading the key's row in
//     16-byte pieces (a paged key's page from the block table) against Q, held in shared memory
//     as fp32 and read as broadcasts.
//   - Online softmax per row over the chunk (the warp's max by shuffles; log2 domain); each
//     lane keeps its own part of the row sums; P goes to the warp's rows in shared memory.
//   - O += P·V: a lane owns columns 2·lane + 64·i; the chunk's V rows are read coalesced, each
//     row's offset passed from the lane that owns the key.
//   - At the end the warps' (max, sum, O) are combined through shared memory.

constexpr int D = HEAD_DIM == HEAD_DIM_64 ? 64 : HEAD_DIM == HEAD_DIM_96 ? 96
                : HEAD_DIM == HEAD_DIM_128 ? 128 : 256;
constexpr int NTHREADS = WARPS * 32;
constexpr int CI = (D + 63) / 64; // column pairs a lane holds of O: 2·lane + 64·i
constexpr int OPITCH = D + 8;     // fp32 O rows of the warps' exchange
constexpr int Q_BYTES = BLOCK_M * D * 4;
constexpr int P_BYTES = WARPS * BLOCK_M * 32 * 4;
constexpr int XCH_BYTES = WARPS * BLOCK_M * OPITCH * 4;
// The exchange reuses Q's and P's region once the key loop is over.
constexpr int MAIN_BYTES = Q_BYTES + P_BYTES > XCH_BYTES ? Q_BYTES + P_BYTES : XCH_BYTES;
constexpr int RED_OFF = MAIN_BYTES;           // per warp and row: max, then sum (fp32)
constexpr int SMEM_TOTAL = RED_OFF + 2 * WARPS * BLOCK_M * 4;
static_assert(SMEM_BYTES == SMEM_TOTAL, "the spec's smem formula agrees with the template");
static_assert(BLOCK_N == 32 * WARPS, "a step of the block is one 32-key chunk a warp");
static_assert(STAGES == 1, "keys are read straight from the cache: no shared-memory stages");

#include "attention_decode_rows.cuh"

static __device__ __forceinline__ float2 unpack2(uint32_t v)
{
    return make_float2(bits_to_f32((unsigned short)(v & 0xffffu), (const elem_t *)0),
                       bits_to_f32((unsigned short)(v >> 16), (const elem_t *)0));
}

static __global__ void __launch_bounds__(NTHREADS)
kernel(const __grid_constant__ tileops_attention_decode_args p, int m_tiles, int ns)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const decode_block d = decode_block_of(p, blockIdx.x, m_tiles, ns);
    float *const sq = (float *)smem;                                   // [BLOCK_M][D]
    float *const sp = (float *)(smem + Q_BYTES) + warp * BLOCK_M * 32; // [BLOCK_M][32]
    float *const red = (float *)(smem + RED_OFF);                      // [2][WARPS][BLOCK_M]

    // Q as fp32: row r of the tile is query (m0 + r) / G of head hk * G + (m0 + r) % G.
    for (int id = tid; id < BLOCK_M * (D / 2); id += NTHREADS) {
        const int r = id / (D / 2), c2 = id % (D / 2), gr = d.m0 + r;
        float2 x = make_float2(0.0f, 0.0f);
        if (gr < d.R)
            x = unpack2(*(const uint32_t *)((const elem_t *)p.q + (int64_t)d.b * p.q_batch +
                                            (int64_t)(gr / d.G) * p.q_seq +
                                            (int64_t)(d.hk * d.G + gr % d.G) * p.q_head + 2 * c2));
        *(float2 *)(sq + r * D + 2 * c2) = x;
    }
    __syncthreads();

    int jlo[BLOCK_M], jhi[BLOCK_M];
#pragma unroll
    for (int r = 0; r < BLOCK_M; r++) {
        jlo[r] = jhi[r] = 0;
        if (d.m0 + r < d.R)
            decode_row_keys(p, d, d.m0 + r, &jlo[r], &jhi[r]);
    }
    const kv_rows c = kv_rows_of(p, d);
    const float scale_log2 = p.scale * TILEOPS_LOG2E;
    const float cap_log2 = p.softcap > 0.0f ? p.softcap * TILEOPS_LOG2E : 0.0f;
    const float scale_over_cap = p.softcap > 0.0f ? p.scale / p.softcap : 0.0f;

    float o[BLOCK_M][CI][2], row_max[BLOCK_M], row_sum[BLOCK_M]; // row_sum: this lane's part
#pragma unroll
    for (int r = 0; r < BLOCK_M; r++) {
        row_max[r] = -INFINITY, row_sum[r] = 0.0f;
#pragma unroll
        for (int i = 0; i < CI; i++)
            o[r][i][0] = o[r][i][1] = 0.0f;
    }

    const int k_end = d.tile_hi * BLOCK_N < d.len ? d.tile_hi * BLOCK_N : d.len;
    for (int base = d.tile_lo * BLOCK_N + warp * 32; base < k_end; base += BLOCK_N) {
        const int key = base + lane;
        const bool in = key < k_end;
        int64_t ko = 0, vo = 0;
        if (in)
            row_offsets(c, key, c.table ? __ldg(c.table + (key >> c.shift)) : 0, &ko, &vo);

        // S for the lane's key, every row
        float s[BLOCK_M];
#pragma unroll
        for (int r = 0; r < BLOCK_M; r++)
            s[r] = 0.0f;
        if (in) {
            const uint4 *kr = (const uint4 *)(c.k + ko);
#pragma unroll 2
            for (int ch = 0; ch < D / 8; ch++) {
                const uint4 kv = __ldg(kr + ch);
                const float2 k0 = unpack2(kv.x), k1 = unpack2(kv.y), k2 = unpack2(kv.z),
                             k3 = unpack2(kv.w);
#pragma unroll
                for (int r = 0; r < BLOCK_M; r++) {
                    const float4 a = *(const float4 *)(sq + r * D + ch * 8);
                    const float4 b4 = *(const float4 *)(sq + r * D + ch * 8 + 4);
                    s[r] += a.x * k0.x + a.y * k0.y + a.z * k1.x + a.w * k1.y + b4.x * k2.x +
                            b4.y * k2.y + b4.z * k3.x + b4.w * k3.y;
                }
            }
        }

        // Online softmax per row over the chunk; P to the warp's rows.
#pragma unroll
        for (int r = 0; r < BLOCK_M; r++) {
            float x = score2(s[r], scale_log2, cap_log2, scale_over_cap);
            x = in && key >= jlo[r] && key < jhi[r] ? x : -INFINITY;
            float mx = x;
#pragma unroll
            for (int off = 16; off > 0; off >>= 1)
                mx = max_nan(mx, __shfl_xor_sync(0xffffffffu, mx, off));
            mx = max_nan(mx, row_max[r]);
            // A row with no visible key yet keeps max -inf: subtract 0, so that its exps are
            // exp2(-inf) = 0 rather than NaN.
            const float ms = mx == -INFINITY ? 0.0f : mx;
            const float corr = fast_exp2(row_max[r] - ms);
            row_max[r] = mx;
            const float pv = fast_exp2(x - ms);
            row_sum[r] = row_sum[r] * corr + pv;
#pragma unroll
            for (int i = 0; i < CI; i++)
                o[r][i][0] *= corr, o[r][i][1] *= corr;
            sp[r * 32 + lane] = pv;
        }
        __syncwarp();

        // O += P·V over the chunk's keys (keys past the end are not read: their P is 0).
        const int nk = k_end - base < 32 ? k_end - base : 32;
#pragma unroll 4
        for (int j = 0; j < nk; j++) {
            const int64_t vj = __shfl_sync(0xffffffffu, vo, j);
            const elem_t *vr = c.v + vj;
#pragma unroll
            for (int i = 0; i < CI; i++) {
                const int col = 2 * lane + 64 * i;
                if (D % 64 == 0 || col < D) {
                    const float2 v = unpack2(__ldg((const uint32_t *)(vr + col)));
#pragma unroll
                    for (int r = 0; r < BLOCK_M; r++) {
                        const float pr = sp[r * 32 + j];
                        o[r][i][0] += pr * v.x;
                        o[r][i][1] += pr * v.y;
                    }
                }
            }
        }
        __syncwarp(); // P is rewritten by the next chunk
    }

    // The warps' results: max and sum per row, then each warp's O scaled to the common max.
    __syncthreads(); // every warp is done with Q and P: the exchange may overwrite them
#pragma unroll
    for (int r = 0; r < BLOCK_M; r++) {
        float l = row_sum[r];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            l += __shfl_xor_sync(0xffffffffu, l, off);
        if (lane == 0) {
            red[warp * BLOCK_M + r] = row_max[r];
            red[(WARPS + warp) * BLOCK_M + r] = l;
        }
    }
    __syncthreads();
    float *const xch = (float *)smem;
#pragma unroll
    for (int r = 0; r < BLOCK_M; r++) {
        float m = -INFINITY;
#pragma unroll
        for (int w = 0; w < WARPS; w++)
            m = fmaxf(m, red[w * BLOCK_M + r]);
        const float f = row_max[r] == -INFINITY ? 0.0f : fast_exp2(row_max[r] - m);
#pragma unroll
        for (int i = 0; i < CI; i++) {
            const int col = 2 * lane + 64 * i;
            if (D % 64 == 0 || col < D)
                *(float2 *)(xch + (warp * BLOCK_M + r) * OPITCH + col) =
                    make_float2(o[r][i][0] * f, o[r][i][1] * f);
        }
    }
    __syncthreads();
    write_rows(p, d, ns, red, xch, tid);
}

#include "attention_decode_host.cuh"
