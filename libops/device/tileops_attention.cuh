// tileops_attention.cuh: the causal and ragged-edge tile plan the attention templates share
// (flash_attention_sm90, _sm80, _sm70), host and device: which keys a block of query rows may
// see, which key tiles need the mask, which (row, key) pairs are visible; which block computes
// which rows; and fit()'s common test of a call. Causal is
// bottom-right aligned: row i sees keys j <= i + len_kv - len_q. At file scope (included by
// tileops_device.cuh), never inside an instance namespace.
#ifndef TILEOPS_ATTENTION_CUH
#define TILEOPS_ATTENTION_CUH

// Keys the rows [m0, m0 + block_m) ∩ [0, len_q) may see: [0, n_end); <= 0: none.
static __host__ __device__ __forceinline__ int attn_kv_end(int m0, int block_m, int len_q,
                                                           int len_kv, bool causal)
{
    if (!causal)
        return len_kv;
    const int last = (m0 + block_m < len_q ? m0 + block_m : len_q) - 1;
    const int64_t e = (int64_t)last + (len_kv - len_q) + 1; // keys j <= last + offset
    return e < len_kv ? (int)(e > 0 ? e : 0) : len_kv;
}

// Whether key tile [n0, n0 + block_n) needs the mask for rows from m0 on: it runs past the
// keys, or (causal) its last key lies beyond what the block's first row sees.
static __host__ __device__ __forceinline__ bool attn_tile_masked(int n0, int block_n, int m0,
                                                                 int len_q, int len_kv,
                                                                 bool causal)
{
    return n0 + block_n > len_kv ||
           (causal && (int64_t)n0 + (block_n - 1) > (int64_t)m0 + (len_kv - len_q));
}

// Block blk of a grid of m_tiles x p.heads_q x p.batch -> q tile m_blk, query head h, sequence b.
// Causal: q tiles slowest and the last (longest) first, so the blocks with the most keys start
// first and the tail is short ones. Non-causal (equal work): q tiles fastest, so resident
// blocks share a head's K and V in L2.
struct attn_block {
    int m_blk, h, b;
};
static __device__ __forceinline__ attn_block attn_block_of(const tileops_attention_args &p,
                                                           unsigned blk, int m_tiles, bool causal)
{
    const int bh = p.heads_q * (int)p.batch;
    int rest;
    attn_block a;
    if (causal) {
        a.m_blk = m_tiles - 1 - (int)(blk / bh);
        rest = (int)(blk % bh);
    } else {
        a.m_blk = (int)(blk % m_tiles);
        rest = (int)(blk / m_tiles);
    }
    a.h = rest % p.heads_q, a.b = rest / p.heads_q;
    return a;
}

// fit()'s common test: head dim d, heads and sizes valid, and views that 16-byte copies can
// move (every template's need): pointers 16-byte aligned, every stride in use a multiple of 8
// elements (the batch strides only without cu_seqlens). Host.
static inline bool attn_fits16(const tileops_attention_args *p, int d)
{
    if (p->head_dim != d || p->heads_q < 1 || p->heads_kv < 1 || p->heads_q % p->heads_kv ||
        p->batch < 0 || p->seqlen_q < 0 || p->seqlen_kv < 0)
        return false;
    const uintptr_t ptrs = (uintptr_t)p->q | (uintptr_t)p->k | (uintptr_t)p->v | (uintptr_t)p->o;
    int64_t strides = p->q_seq | p->q_head | p->k_seq | p->k_head | p->v_seq | p->v_head |
                      p->o_seq | p->o_head;
    if (!p->cu_seqlens_q)
        strides |= p->q_batch | p->k_batch | p->v_batch | p->o_batch;
    return (ptrs & 15) == 0 && (strides & 7) == 0;
}

// Whether key j is visible to query row i (both inside their sequences).
static __host__ __device__ __forceinline__ bool attn_visible(int i, int j, int len_q, int len_kv,
                                                             bool causal)
{
    return j < len_kv && (!causal || (int64_t)j <= (int64_t)i + (len_kv - len_q));
}

#endif
