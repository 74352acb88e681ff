// tileops_attention.cuh: the causal and ragged-edge tile plan the attention templates share
// (flash_attention_sm80, flash_attention_sm70), host and device: which keys a block of query
// rows may see, which key tiles need the mask, which (row, key) pairs are visible. Causal is
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

// Whether key j is visible to query row i (both inside their sequences).
static __host__ __device__ __forceinline__ bool attn_visible(int i, int j, int len_q, int len_kv,
                                                             bool causal)
{
    return j < len_kv && (!causal || (int64_t)j <= (int64_t)i + (len_kv - len_q));
}

#endif
