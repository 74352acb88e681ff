/* attention_args.h (draft; a copy of drafts/attention/attention_args.h, used by build.sh only
 * while libops/op_args.h does not define the struct yet): the flash_attention argument struct.
 * O = softmax(scale * Q·Kᵀ + mask) · V, forward. Layout [batch, seq, heads, head_dim] with
 * element strides; head_dim contiguous. */
#ifndef TILEOPS_ATTENTION_ARGS_H
#define TILEOPS_ATTENTION_ARGS_H

#include <stdint.h>

struct tileops_attention_args {
    int64_t batch;                 /* sequences */
    int64_t seqlen_q, seqlen_kv;   /* per sequence; with cu_seqlens: the longest (grid size) */
    int heads_q, heads_kv;         /* heads_q % heads_kv == 0 */
    int head_dim;                  /* equals the instance's HEAD_DIM (dispatch guarantees) */
    const void *q; int64_t q_batch, q_seq, q_head;   /* element strides; head_dim contiguous */
    const void *k; int64_t k_batch, k_seq, k_head;
    const void *v; int64_t v_batch, v_seq, v_head;
    void *o;       int64_t o_batch, o_seq, o_head;
    float *lse;                    /* [batch, heads_q, seqlen_q] (packed: [heads_q, total_q]) or NULL */
    float scale;                   /* softmax scale */
    int causal;                    /* bottom-right aligned */
    const int *cu_seqlens_q;       /* NULL, or batch+1 increasing offsets into the packed seq dim */
    const int *cu_seqlens_kv;      /* (then the batch strides are unused) */
    int sms;                       /* the device's SM count */
};

#endif
