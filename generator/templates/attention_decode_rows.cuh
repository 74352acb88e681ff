// attention_decode_rows.cuh: what the decode-attention templates (attention_decode,
// attention_decode_sm70) share on the device: which (row tile, split, kv head, sequence) a block
// serves and the keys its rows see; where a key's row lives in the cache; the log2-domain score;
// the warps' results combined and written out (O, or a split's partial and log-sum-exp); the
// merge of the splits. Included inside an instance's namespace, after the template's constants:
// D, BLOCK_M, BLOCK_N, WARPS, NTHREADS, OPITCH (fp32 O rows of the warps' exchange) and elem_t.

// One block's work and its keys.
struct decode_block {
    int mt, split, hk, b; // row tile, split, kv head, sequence
    int G, sq, R;         // query heads a kv head, new queries, rows (G * sq)
    int len;              // the sequence's keys
    int m0;               // the tile's first row
    int tile_lo, tile_hi; // this split's BLOCK_N tiles of keys
};

// Block blk -> its work; row tiles fastest (they share K and V in L2). The keys the tile's rows
// may see (query t sits at position len - sq + t; its window, cut to the sequence) are whole
// BLOCK_N tiles, dealt out to the ns splits in equal runs.
static __device__ __forceinline__ decode_block decode_block_of(const tileops_attention_decode_args &p,
                                                               unsigned blk, int m_tiles, int ns)
{
    decode_block d;
    d.mt = (int)(blk % (unsigned)m_tiles);
    blk /= (unsigned)m_tiles;
    d.split = (int)(blk % (unsigned)ns);
    blk /= (unsigned)ns;
    d.hk = (int)(blk % (unsigned)p.heads_kv);
    d.b = (int)(blk / (unsigned)p.heads_kv);
    d.G = p.heads_q / p.heads_kv, d.sq = p.seqlen_q, d.R = d.G * d.sq;
    int len = p.seqlens_kv[d.b];
    d.len = len < 0 ? 0 : (int64_t)len > p.max_seqlen_kv ? (int)p.max_seqlen_kv : len;
    d.m0 = d.mt * BLOCK_M;
    const int m_last = (d.m0 + BLOCK_M < d.R ? d.m0 + BLOCK_M : d.R) - 1;
    const int wl = p.window_left, wr = p.window_right;
    const int64_t pos_first = (int64_t)d.len - d.sq + d.m0 / d.G;
    const int64_t pos_last = (int64_t)d.len - d.sq + m_last / d.G;
    int64_t lo = wl >= 0 ? pos_first - wl : 0, hi = wr >= 0 ? pos_last + wr + 1 : d.len;
    lo = lo < 0 ? 0 : lo;
    hi = hi > d.len ? d.len : hi;
    d.tile_lo = d.tile_hi = 0;
    if (hi > lo) {
        const int t0 = (int)(lo / BLOCK_N), t1 = (int)((hi + BLOCK_N - 1) / BLOCK_N);
        const int per = (t1 - t0 + ns - 1) / ns;
        d.tile_lo = t0 + d.split * per;
        d.tile_hi = d.tile_lo + per < t1 ? d.tile_lo + per : t1;
        if (d.tile_hi < d.tile_lo)
            d.tile_hi = d.tile_lo;
    }
    return d;
}

// The keys row r (of the block's sequence; r < R) sees: [*jlo, *jhi).
static __device__ __forceinline__ void decode_row_keys(const tileops_attention_decode_args &p,
                                                       const decode_block &d, int r, int *jlo,
                                                       int *jhi)
{
    const int wl = p.window_left, wr = p.window_right;
    const int64_t pos = (int64_t)d.len - d.sq + r / d.G;
    const int64_t a = wl >= 0 ? pos - wl : 0, e = wr >= 0 ? pos + wr + 1 : d.len;
    *jlo = a < 0 ? 0 : (int)a;
    *jhi = e > d.len ? d.len : e < 0 ? 0 : (int)e;
}

// Where key rows live: the cache's row offsets (elements) for sequence b's keys.
struct kv_rows {
    const elem_t *k, *v;     // kv head hk of the cache (page 0, or sequence b's row 0)
    const int *table;        // sequence b's block-table row, or NULL (contiguous)
    int64_t k_page, v_page;  // paged: page strides
    int64_t k_seq, v_seq;
    int shift;               // log2(page size)
};

static __device__ __forceinline__ kv_rows kv_rows_of(const tileops_attention_decode_args &p,
                                                     const decode_block &d)
{
    kv_rows c;
    c.table = p.block_table ? p.block_table + (int64_t)d.b * p.bt_stride : nullptr;
    c.k = (const elem_t *)p.k + (int64_t)d.hk * p.k_head + (c.table ? 0 : (int64_t)d.b * p.k_batch);
    c.v = (const elem_t *)p.v + (int64_t)d.hk * p.v_head + (c.table ? 0 : (int64_t)d.b * p.v_batch);
    c.k_page = p.k_batch, c.v_page = p.v_batch, c.k_seq = p.k_seq, c.v_seq = p.v_seq;
    c.shift = p.page_shift;
    return c;
}

// Element offsets of key `key` in K and V, given its page (paged) or ignoring it.
static __device__ __forceinline__ void row_offsets(const kv_rows &c, int key, int page,
                                                   int64_t *ko, int64_t *vo)
{
    if (c.table) {
        const int64_t in = key & ((1 << c.shift) - 1);
        *ko = (int64_t)page * c.k_page + in * c.k_seq;
        *vo = (int64_t)page * c.v_page + in * c.v_seq;
    } else {
        *ko = (int64_t)key * c.k_seq;
        *vo = (int64_t)key * c.v_seq;
    }
}

// The log2-domain score of a raw q·k: scale folded in, softcap (when on) applied.
static __device__ __forceinline__ float score2(float s, float scale_log2, float cap_log2,
                                               float scale_over_cap)
{
    return cap_log2 > 0.0f ? cap_log2 * tanhf(s * scale_over_cap) : s * scale_log2;
}

// The block's rows out, once every warp has put its row max and sum in red ([2][WARPS][BLOCK_M],
// log2 domain) and its O, scaled to the rows' common max, in xch ([WARPS][BLOCK_M][OPITCH]):
// O / sum to o (one split), or to the workspace with the log-sum-exp.
static __device__ __forceinline__ void write_rows(const tileops_attention_decode_args &p,
                                                  const decode_block &d, int ns, const float *red,
                                                  const float *xch, int tid)
{
    const int64_t rows_all = p.batch * p.heads_q * d.sq;
    float *ws_o = (float *)p.workspace, *ws_lse = ws_o + (int64_t)ns * rows_all * D;
    constexpr int C4 = D / 4;
    for (int id = tid; id < BLOCK_M * C4; id += NTHREADS) {
        const int r = id / C4, c4 = id % C4, gr = d.m0 + r;
        if (gr >= d.R)
            continue;
        float m = -INFINITY, l = 0.0f;
#pragma unroll
        for (int w = 0; w < WARPS; w++)
            m = fmaxf(m, red[w * BLOCK_M + r]);
#pragma unroll
        for (int w = 0; w < WARPS; w++) {
            const float mw = red[w * BLOCK_M + r];
            if (mw != -INFINITY)
                l += red[(WARPS + w) * BLOCK_M + r] * fast_exp2(mw - m);
        }
        float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
        for (int w = 0; w < WARPS; w++) {
            const float4 x = *(const float4 *)(xch + (w * BLOCK_M + r) * OPITCH + c4 * 4);
            acc.x += x.x, acc.y += x.y, acc.z += x.z, acc.w += x.w;
        }
        const float inv = l > 0.0f ? 1.0f / l : 0.0f;
        acc.x *= inv, acc.y *= inv, acc.z *= inv, acc.w *= inv;
        const float lse = l > 0.0f ? (m + log2f(l)) * 0.6931471805599453f : -INFINITY;
        const int tq = gr / d.G, h = d.hk * d.G + gr % d.G;
        const int64_t row = ((int64_t)d.b * p.heads_q + h) * d.sq + tq;
        if (ns == 1) {
            elem_t *dst = (elem_t *)p.o + (int64_t)d.b * p.o_batch + (int64_t)tq * p.o_seq +
                          (int64_t)h * p.o_head + c4 * 4;
            uint2 v;
            v.x = pack2(acc.x, acc.y, (const elem_t *)0);
            v.y = pack2(acc.z, acc.w, (const elem_t *)0);
            *(uint2 *)dst = v;
            if (p.lse && c4 == 0)
                p.lse[row] = lse;
        } else {
            *(float4 *)(ws_o + ((int64_t)d.split * rows_all + row) * D + c4 * 4) = acc;
            if (c4 == 0)
                ws_lse[(int64_t)d.split * rows_all + row] = lse;
        }
    }
}

// ---- the merge kernel: one warp per (sequence, head, query) row -----------------------------

// The lanes read the splits' log-sum-exps side by side and keep each split's weight in shared
// memory, so the O loop's loads do not wait on one another (a split at a time was a chain of
// dependent loads: about 0.6 us a split on the H200).
static __global__ void __launch_bounds__(128)
merge(const __grid_constant__ tileops_attention_decode_args p, int ns)
{
    __shared__ float weight[4][TILEOPS_KVCACHE_MAX_SPLITS];
    const int64_t rows_all = p.batch * p.heads_q * p.seqlen_q;
    const int64_t row = (int64_t)blockIdx.x * 4 + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows_all)
        return;
    const float *ws_o = (const float *)p.workspace, *ws_lse = ws_o + (int64_t)ns * rows_all * D;
    float *w = weight[threadIdx.x >> 5];
    float m = -INFINITY;
    for (int s = lane; s < ns; s += 32) {
        w[s] = ws_lse[s * rows_all + row]; // read once: the weights replace it below
        m = fmaxf(m, w[s]);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    // a split that saw no key (-inf) weighs 0; a NaN one makes the row NaN
    float l = 0.0f;
    for (int s = lane; s < ns; s += 32) {
        const float ls = w[s];
        w[s] = m == -INFINITY || ls == -INFINITY ? 0.0f : __expf(ls - m);
        l += w[s];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        l += __shfl_xor_sync(0xffffffffu, l, o);
    __syncwarp();
    constexpr int C4 = D / 4, PER = (C4 + 31) / 32;
    float4 acc[PER];
#pragma unroll
    for (int i = 0; i < PER; i++)
        acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 4
    for (int s = 0; s < ns; s++) {
        // no branch around the loads, so they need not wait on one another: a zero weight
        // selects the partial out (it may be NaN: a split that saw no key), and lanes past the
        // row's end (D < 128) read a column inside it and leave their sums unwritten
        const float ws = w[s];
        const bool on = ws != 0.0f;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            const int c4 = (lane + 32 * i) % C4;
            const float4 x = *(const float4 *)(ws_o + (s * rows_all + row) * D + c4 * 4);
            acc[i].x = fmaf(ws, on ? x.x : 0.0f, acc[i].x);
            acc[i].y = fmaf(ws, on ? x.y : 0.0f, acc[i].y);
            acc[i].z = fmaf(ws, on ? x.z : 0.0f, acc[i].z);
            acc[i].w = fmaf(ws, on ? x.w : 0.0f, acc[i].w);
        }
    }
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    const int sq = p.seqlen_q;
    const int tq = (int)(row % sq), h = (int)(row / sq % p.heads_q);
    const int64_t b = row / sq / p.heads_q;
    elem_t *dst = (elem_t *)p.o + b * p.o_batch + (int64_t)tq * p.o_seq + (int64_t)h * p.o_head;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        const int c4 = lane + 32 * i;
        if (c4 < C4) {
            uint2 v;
            v.x = pack2(acc[i].x * inv, acc[i].y * inv, (const elem_t *)0);
            v.y = pack2(acc[i].z * inv, acc[i].w * inv, (const elem_t *)0);
            *(uint2 *)(dst + c4 * 4) = v;
        }
    }
    if (p.lse && lane == 0)
        p.lse[row] = l > 0.0f ? m + logf(l) : -INFINITY;
}
