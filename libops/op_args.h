/* op_args.h: the argument struct each operator's launcher takes. Shared by the C runtime
 * (which fills it after validation) and the generated CUDA (which reads it). Internal. */
#ifndef TILEOPS_OP_ARGS_H
#define TILEOPS_OP_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "tileops.h"

/* vector_add: c[i] = a[i] + b[i], 0 <= i < n; validated: n >= 1, pointers non-null. */
struct tileops_vector_add_args {
    int64_t n;
    const void *a;
    const void *b;
    void *c;
};

/* softmax: y[r,:] = softmax(x[r,:]) (or log_softmax, by variant) for 0 <= r < rows; validated:
 * rows, cols >= 1, ld >= cols, pointers non-null, y == x (same ld) or no overlap, workspace
 * at least what the kernel's fit() asked for and 16-byte aligned. */
struct tileops_softmax_args {
    int64_t rows, cols;
    const void *x;
    int64_t ldx; /* elements between row starts */
    void *y;
    int64_t ldy;
    void *workspace;
    size_t workspace_bytes;
    int sms;     /* the device's multiprocessors: how many row chunks can wait for each other */
    int coop;    /* the device takes cooperative launches (a split row's grid barrier) */
};

/* gemm: D[m,n] = epilogue(alpha * A[m,k]·op(B) + beta * C[m,n]), row-major, leading
 * dimensions in elements; op(B) = B for B stored [k,n] (variant layout kn) and Bᵀ for B stored
 * [n,k] (layout nk). Validated (libops/gemm.c): m, n, k >= 1; ld >= the row width; a, b, d
 * non-null; c NULL (no C term), d itself, or not overlapping d; bias non-null when the
 * TILEOPS_EPILOGUE_BIAS flag is set (NULL otherwise); at most one activation flag.
 * beta == 0 means C is not read. workspace: workspace_bytes of device memory, at least what
 * the kernel's fit() reported, or NULL when that is 0. */
struct tileops_gemm_args {
    int64_t m, n, k;
    const void *a;
    int64_t lda;
    const void *b;
    int64_t ldb;
    const void *c; /* NULL: no C term */
    int64_t ldc;
    void *d;
    int64_t ldd;
    const void *bias; /* n elements, or NULL */
    float alpha, beta;
    int epilogue;     /* TILEOPS_EPILOGUE_* flags */
    void *workspace;
    size_t workspace_bytes;
    int sms;          /* the device's multiprocessors: waves and split-K plans */
};

/* flash_attention: O = softmax(scale * Q·Kᵀ + mask) · V for every (sequence, query head), the
 * forward pass. Tensors are [batch, seq, heads, head_dim] views with element strides and
 * head_dim contiguous; with cu_seqlens the sequences are packed along seq (row cu_seqlens[b] on)
 * and the batch strides are unused. Query head h reads key/value head h / (heads_q / heads_kv).
 * Causal is bottom-right aligned: row i sees keys j <= i + len_kv - len_q; a row that sees no
 * key gets O = 0 and LSE = -inf. Validated (libops/attention.c): batch, heads >= 1; seqlens >= 0
 * (with cu_seqlens: the longest sequence, from the host copy of the offsets); heads_q a
 * multiple of heads_kv; head_dim the instance's; q, k, v, o non-null, 16-byte aligned, strides
 * multiples of 8 elements, no view overlapping itself, o and lse overlapping no input; the
 * offsets non-decreasing from 0, the device copies the caller's promise of the same values. */
struct tileops_attention_args {
    int64_t batch;                 /* sequences */
    int64_t seqlen_q, seqlen_kv;   /* per sequence; with cu_seqlens: the longest (grid size) */
    int heads_q, heads_kv;         /* heads_q % heads_kv == 0 */
    int head_dim;                  /* equals the instance's HEAD_DIM (dispatch guarantees) */
    const void *q; int64_t q_batch, q_seq, q_head;   /* element strides; head_dim contiguous */
    const void *k; int64_t k_batch, k_seq, k_head;
    const void *v; int64_t v_batch, v_seq, v_head;
    void *o;       int64_t o_batch, o_seq, o_head;
    float *lse;                    /* [batch, heads_q, seqlen_q] ([heads_q, total_q]) or NULL */
    float scale;                   /* softmax scale (never 0 here: the API's 0 is resolved) */
    int causal;                    /* 0 or 1; bottom-right aligned */
    const int *cu_seqlens_q;       /* NULL, or batch+1 non-decreasing offsets into packed seq */
    const int *cu_seqlens_kv;      /* (both or neither; then the batch strides are 0) */
    int sms;                       /* the device's SM count */
    int64_t rows_q, rows_kv;       /* rows of the seq dimension of q and o, k and v: seqlen_q,
                                      seqlen_kv, or with cu_seqlens the totals (TMA's bounds) */
    int window_left, window_right; /* -1: unbounded (attn_win); causal is folded into
                                      window_right (0) */
    float softcap;                 /* > 0: scores become softcap * tanh(scale * s / softcap) */
};

/* attention_decode: O = softmax(softcap(scale * Q·Kᵀ) + mask) · V for seqlen_q new queries of
 * every sequence against its KV cache (contiguous, or paged through block_table), split-KV.
 * Query t of sequence b sits at position len - seqlen_q + t, len = seqlens_kv[b] clamped to
 * [0, max_seqlen_kv]; it sees keys j < len with pos - window_left <= j <= pos + window_right
 * (-1: unbounded; causal is window_right 0, folded in by libops/kvcache.c). Validated there:
 * sizes, strides and alignment as for flash_attention; page_size a power of two (page_shift its
 * log2; contiguous: block_table NULL); scale > 0 resolved; softcap >= 0 (0: none);
 * num_splits 0 (the kernel's plan) or forced; workspace_bytes of workspace (may be NULL/0). */
struct tileops_attention_decode_args {
    int64_t batch;
    int seqlen_q;
    int heads_q, heads_kv;
    int head_dim;
    const void *q; int64_t q_batch, q_seq, q_head;
    void *o;       int64_t o_batch, o_seq, o_head;
    float *lse;                    /* [batch, heads_q, seqlen_q] or NULL */
    const void *k; int64_t k_batch, k_seq, k_head; /* paged: k_batch is the page stride */
    const void *v; int64_t v_batch, v_seq, v_head;
    const int *seqlens_kv;         /* device [batch] */
    int64_t max_seqlen_kv;
    const int *block_table;        /* device [batch, bt_stride], or NULL: contiguous */
    int64_t bt_stride;
    int page_shift;                /* log2(page_size) */
    float scale, softcap;
    int window_left, window_right;
    int num_splits;                /* 0: planned from the shape and the workspace */
    void *workspace;
    size_t workspace_bytes;
    int sms;
};

/* kv_cache_append: token i's k and v rows (every head) copied to row slots[i] % block_rows of
 * block slots[i] / block_rows of the caches; slots < 0 or >= blocks * block_rows skip. Validated
 * by libops/kvcache.c: tokens >= 1, pointers 16-byte aligned, strides multiples of 8 elements,
 * head_dim a multiple of 8. */
struct tileops_kv_append_args {
    int64_t tokens;
    int heads_kv, head_dim;
    const void *k_new; int64_t k_new_token, k_new_head;
    const void *v_new; int64_t v_new_token, v_new_head;
    void *k_cache; int64_t k_block, k_row, k_head;
    void *v_cache; int64_t v_block, v_row, v_head;
    int64_t blocks, block_rows;
    const int64_t *slots;
};

#endif
