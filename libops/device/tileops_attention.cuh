// tileops_attention.cuh: the mask and ragged-edge tile plan the attention templates share
// (flash_attention_sm90, _sm80, _sm70), host and device: which keys a block of query rows may
// see (causal, sliding window), which key tiles need the mask, which keys a row sees,
// softcap; which block computes which rows; and fit()'s common test of a call. The
// mask is bottom-right aligned: row i sits at position i + len_kv - len_q. At file scope (included by
// tileops_device.cuh), never inside an instance namespace.
#ifndef TILEOPS_ATTENTION_CUH
#define TILEOPS_ATTENTION_CUH

// The plan's functions: host and device under nvcc; plain C where the host test of the plan
// (tests/test_attention_plan.c) includes them, without the rest.
#ifdef __CUDACC__
#define ATTN_HD __host__ __device__ __forceinline__
#else
#include <stdbool.h>
#include <stdint.h>
#define ATTN_HD inline
#endif

// The window a query row sees, bottom-right aligned: row i sits at position i + len_kv - len_q
// and sees keys j with pos - left <= j <= pos + right (-1: unbounded; causal is right = 0,
// folded in by libops/attention.c).
typedef struct attn_win {
    int left, right;
} attn_win;

// Keys the rows [m0, m0 + block_m) ∩ [0, len_q) may see: [*lo, *hi); empty when *hi <= *lo.
static ATTN_HD void attn_kv_range(int m0, int block_m, int len_q, int len_kv, attn_win w, int *lo,
                                  int *hi)
{
    const int64_t off = (int64_t)len_kv - len_q;
    const int64_t last = (int64_t)(m0 + block_m < len_q ? m0 + block_m : len_q) - 1;
    int64_t e = w.right >= 0 ? last + off + w.right + 1 : len_kv;
    int64_t a = w.left >= 0 ? (int64_t)m0 + off - w.left : 0;
    e = e < 0 ? 0 : e > len_kv ? len_kv : e;
    a = a < 0 ? 0 : a > len_kv ? len_kv : a;
    *lo = (int)a, *hi = (int)e;
}

// The key tiles of BLOCK_N keys the rows [m0, m0 + block_m) visit: [*t0, *t0 + *count).
static ATTN_HD void attn_kv_tiles(int m0, int block_m, int block_n, int len_q, int len_kv,
                                  attn_win w, int *t0, int *count)
{
    int lo, hi;
    attn_kv_range(m0, block_m, len_q, len_kv, w, &lo, &hi);
    *t0 = lo / block_n;
    *count = hi > lo ? (hi + block_n - 1) / block_n - *t0 : 0;
}

// Whether key tile [n0, n0 + block_n) needs the mask for rows [m0, m0 + block_m): it runs past
// the keys, or its last key lies beyond what the first row sees (window right / causal), or its
// first key before what the last row sees (window left).
static ATTN_HD bool attn_tile_masked(int n0, int block_n, int m0, int block_m, int len_q,
                                     int len_kv, attn_win w)
{
    const int64_t off = (int64_t)len_kv - len_q;
    return n0 + block_n > len_kv ||
           (w.right >= 0 && (int64_t)n0 + (block_n - 1) > (int64_t)m0 + off + w.right) ||
           (w.left >= 0 && (int64_t)n0 < (int64_t)m0 + (block_m - 1) + off - w.left);
}

#ifdef __CUDACC__
// Softcap: the scaled score s · scale becomes cap · tanh(s · scale / cap) (cap > 0); this returns
// the tanh, the score in units of cap, and the softmax scales by cap (one multiply a score
// fewer). tanh.approx is one MUFU op (relative error 2^-10.99, so scores move by at most cap ·
// 2^-10.99); the accurate tanhf made a softcapped call 1.7x as long (H100, bf16 d128 16k).
static __device__ __forceinline__ float attn_softcap(float s, float scale_over_cap)
{
#if __CUDA_ARCH__ >= 750
    float t;
    asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(s * scale_over_cap));
    return t;
#else
    return tanhf(s * scale_over_cap);
#endif
}

// Block blk of a grid of m_tiles x p.heads_q x p.batch -> q tile m_blk, query head h, sequence b.
// Non-causal (equal work): q tiles fastest, so resident blocks share a head's K and V in L2.
// Causal: the (sequence, head) pairs in sections whose K and V fit ATTN_L2_SECTION bytes
// together (query heads that share a KV head side by side), and within a section the q tiles
// slowest, the last (longest) first: the blocks with the most keys start first and the tail is
// short ones, while the blocks running at once read the K and V of a few heads, from L2. (All
// heads longest-first put one block of each head on the GPU at a time: nothing shared in L2.)
struct attn_block {
    int m_blk, h, b;
};
#define ATTN_L2_SECTION (32ll << 20)
static __device__ __forceinline__ attn_block attn_block_of(const tileops_attention_args &p,
                                                           unsigned blk, int m_tiles, bool causal)
{
    const int bh = p.heads_q * (int)p.batch;
    int rest;
    attn_block a;
    if (causal) {
        const int64_t kv_head = 4 * (p.seqlen_kv > 0 ? p.seqlen_kv : 1) * p.head_dim; // K and V
        const int64_t kv_heads = ATTN_L2_SECTION / kv_head > 0 ? ATTN_L2_SECTION / kv_head : 1;
        const int64_t sec = kv_heads * (p.heads_q / p.heads_kv); // (sequence, head) pairs
        const int per = sec < bh ? (int)sec : bh;
        const int s = (int)(blk / ((unsigned)per * (unsigned)m_tiles));
        const int in = (int)(blk - (unsigned)s * (unsigned)per * (unsigned)m_tiles);
        const int n = bh - s * per < per ? bh - s * per : per; // pairs in this section
        a.m_blk = m_tiles - 1 - in / n;
        rest = s * per + in % n;
    } else {
        a.m_blk = (int)(blk % m_tiles);
        rest = (int)(blk / m_tiles);
    }
    a.h = rest % p.heads_q, a.b = rest / p.heads_q;
    return a;
}

// Sequence b's lengths and the element offsets of its row 0 in q, k, v and o (cu_seqlens or the
// batch strides), and where query head h's log-sum-exp rows start (0 without lse).
struct attn_seq {
    int len_q, len_kv;
    int64_t q_base, k_base, v_base, o_base;
    float *lse;
};
static __device__ __forceinline__ attn_seq attn_seq_of(const tileops_attention_args &p, int b, int h)
{
    attn_seq s;
    s.lse = p.lse;
    if (p.cu_seqlens_q) {
        const int qs = p.cu_seqlens_q[b], ks = p.cu_seqlens_kv[b];
        s.len_q = p.cu_seqlens_q[b + 1] - qs;
        s.len_kv = p.cu_seqlens_kv[b + 1] - ks;
        s.q_base = (int64_t)qs * p.q_seq;
        s.o_base = (int64_t)qs * p.o_seq;
        s.k_base = (int64_t)ks * p.k_seq;
        s.v_base = (int64_t)ks * p.v_seq;
        if (s.lse)
            s.lse += (int64_t)h * p.cu_seqlens_q[p.batch] + qs;
    } else {
        s.len_q = (int)p.seqlen_q;
        s.len_kv = (int)p.seqlen_kv;
        s.q_base = b * p.q_batch;
        s.o_base = b * p.o_batch;
        s.k_base = b * p.k_batch;
        s.v_base = b * p.v_batch;
        if (s.lse)
            s.lse += ((int64_t)b * p.heads_q + h) * p.seqlen_q;
    }
    return s;
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

#endif

// The keys query row i (inside its sequence) sees, as a span: key j is visible when
// attn_sees(span, j). Once a row, then one unsigned compare a key (a 64-bit test a key cost a
// dozen operations and branches, as long as the softmax of the tile itself).
typedef struct attn_span {
    int lo;
    unsigned width;
} attn_span;
static ATTN_HD attn_span attn_row_span(int i, int len_q, int len_kv, attn_win w)
{
    int lo, hi;
    attn_kv_range(i, 1, len_q, len_kv, w, &lo, &hi);
    const attn_span r = {lo, hi > lo ? (unsigned)(hi - lo) : 0u};
    return r;
}
static ATTN_HD bool attn_sees(attn_span r, int j)
{
    return (unsigned)(j - r.lo) < r.width;
}

#endif
