/* attention.c: tileops_flash_attention: check every argument (the host copy of the varlen
 * offsets included), let the kernels' fit() pick one, launch it on the caller's stream. */
#include "internal.h"
#include "op_args.h"
#include "variants.h"

#include <math.h>
#include <stdint.h>

/* The longest sequence the kernels index with int, less a tile (their fit() refuses more). */
#define MAX_SEQLEN ((int64_t)INT32_MAX - 256)

static const char *const dim_names[3] = {"batch", "seq", "head"};

/* Checks the host copy of one side's offsets: batch + 1 of them, from 0, non-decreasing;
 * gives the total and the longest sequence. */
static tileops_status check_offsets(const char *fn, const char *name, const int *cu,
                                    int64_t batch, int64_t *total, int64_t *longest)
{
    if (cu[0] != 0)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s_host[0] is %d (the offsets "
                             "start at 0)", fn, name, cu[0]);
    *longest = 0;
    for (int64_t b = 0; b < batch; b++) {
        if (cu[b + 1] < cu[b])
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s_host[%lld] = %d is less "
                                 "than %s_host[%lld] = %d", fn, name, (long long)(b + 1),
                                 cu[b + 1], name, (long long)b, cu[b]);
        if (cu[b + 1] - cu[b] > *longest)
            *longest = cu[b + 1] - cu[b];
    }
    *total = cu[batch];
    return TILEOPS_SUCCESS;
}

/* The registry's code of a supported head dim, or -1. */
static int head_dim_code(int d)
{
    switch (d) {
    case 64: return TILEOPS_FLASH_ATTENTION_HEAD_DIM_64;
    case 96: return TILEOPS_FLASH_ATTENTION_HEAD_DIM_96;
    case 128: return TILEOPS_FLASH_ATTENTION_HEAD_DIM_128;
    case 256: return TILEOPS_FLASH_ATTENTION_HEAD_DIM_256;
    default: return -1;
    }
}

/* NOT_SUPPORTED, saying so, when the handle's tier has no attention kernel at all, none of
 * this dtype or none of this head dim (the sm70 tier has no bf16 one: wmma there is fp16). */
static tileops_status check_tier(const char *fn, tileops_handle h, int dtype, int variant,
                                 int head_dim)
{
    const struct tileops_tier_table *t = h->tier;
    int any = 0, of_dtype = 0, of_dim = 0;
    for (int i = 0; i < *t->count; i++) {
        const struct tileops_kernel *k = &t->kernels[i];
        if (k->op != TILEOPS_OP_FLASH_ATTENTION)
            continue;
        any = 1;
        of_dtype |= k->dtype == dtype;
        of_dim |= k->dtype == dtype && k->variant == variant;
    }
    if (!any)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: the sm%d tier has no attention "
                             "kernel yet", fn, t->tier);
    if (!of_dtype)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: the sm%d tier has no %s attention "
                             "kernel", fn, t->tier, tileops__dtype_name((tileops_dtype)dtype));
    if (!of_dim)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: the sm%d tier has no %s attention "
                             "kernel for head_dim %d", fn, t->tier,
                             tileops__dtype_name((tileops_dtype)dtype), head_dim);
    return TILEOPS_SUCCESS;
}

tileops_status tileops_flash_attention(tileops_handle h, const tileops_attention_params *p,
                                       cudaStream_t stream)
{
    static const char fn[] = "tileops_flash_attention";
    /* a size from TILEOPS_ATTENTION_PARAMS_SIZE_V1 on is accepted: callers of the first layout
     * keep its behaviour */
    const size_t size = p ? p->size : 0;
    tileops_status st = tileops__check_params16(
        fn, h, p != NULL, size >= TILEOPS_ATTENTION_PARAMS_SIZE_V1 ? sizeof *p : size, sizeof *p,
        "tileops_attention_params", p ? p->dtype : TILEOPS_F16, "attention");
    if (st != TILEOPS_SUCCESS)
        return st;
    const int has_window = size >= offsetof(tileops_attention_params, window_right) +
                                       sizeof p->window_right;
    const int has_softcap = size >= offsetof(tileops_attention_params, softcap) +
                                        sizeof p->softcap;
    const int window = has_window ? p->window : 0;
    const int window_left = window ? p->window_left : -1;
    const int window_right = window ? p->window_right : -1;
    const float softcap = has_softcap ? p->softcap : 0.0f;

    /* ---- sizes --------------------------------------------------------------------------- */
    if ((st = tileops__check_heads(fn, p->batch, p->heads_q, p->heads_kv, p->head_dim)) !=
        TILEOPS_SUCCESS)
        return st;
    if (p->seqlen_q < 0 || p->seqlen_kv < 0)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is %lld (must be >= 0)", fn,
                             p->seqlen_q < 0 ? "seqlen_q" : "seqlen_kv",
                             (long long)(p->seqlen_q < 0 ? p->seqlen_q : p->seqlen_kv));
    if (p->heads_q % p->heads_kv)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: heads_q = %d is not a multiple of "
                             "heads_kv = %d", fn, p->heads_q, p->heads_kv);
    const int variant = head_dim_code(p->head_dim);
    if (variant < 0)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: head_dim %d is not supported (64, "
                             "96, 128 or 256)", fn, p->head_dim);
    if (p->causal != 0 && p->causal != 1)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: causal is %d (must be 0 or 1)", fn,
                             p->causal);
    if (!isfinite(p->scale))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: scale is %g (must be finite; 0 "
                             "for 1/sqrt(head_dim))", fn, (double)p->scale);
    if ((st = tileops__check_window_softcap(fn, window, window_left, window_right, softcap)))
        return st;
    /* The kernels take the running max of the raw scores, which is the max of the scaled ones
     * only for a positive scale. */
    if (p->scale < 0.0f)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: scale is %g: the kernels take "
                             "scales >= 0 (0 for 1/sqrt(head_dim))", fn, (double)p->scale);

    /* ---- variable-length batches: both sides, on the device and on the host --------------- */
    const int varlen = p->cu_seqlens_q || p->cu_seqlens_kv || p->cu_seqlens_q_host ||
                       p->cu_seqlens_kv_host;
    int64_t total_q = 0, total_kv = 0, seqlen_q = p->seqlen_q, seqlen_kv = p->seqlen_kv;
    if (varlen) {
        const char *missing = !p->cu_seqlens_q ? "cu_seqlens_q" : !p->cu_seqlens_kv
                              ? "cu_seqlens_kv" : !p->cu_seqlens_q_host ? "cu_seqlens_q_host"
                              : !p->cu_seqlens_kv_host ? "cu_seqlens_kv_host" : NULL;
        if (missing)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is NULL but other "
                                 "cu_seqlens are given (a variable-length batch needs all four)",
                                 fn, missing);
        if ((uintptr_t)p->cu_seqlens_q % 4 || (uintptr_t)p->cu_seqlens_kv % 4)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is not aligned to its "
                                 "4-byte elements", fn, (uintptr_t)p->cu_seqlens_q % 4
                                 ? "cu_seqlens_q" : "cu_seqlens_kv");
        /* batch + 1 offsets of 4 bytes on the device, each array a range that must fit */
        const uint64_t obytes = (uint64_t)p->batch < (uint64_t)INT64_MAX / 4
                                ? ((uint64_t)p->batch + 1) * 4 : 0;
        if (!obytes || tileops__range_wraps(p->cu_seqlens_q, obytes) ||
            tileops__range_wraps(p->cu_seqlens_kv, obytes))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s (%lld + 1 offsets) "
                                 "overflows the address space", fn,
                                 !obytes || tileops__range_wraps(p->cu_seqlens_q, obytes)
                                 ? "cu_seqlens_q" : "cu_seqlens_kv", (long long)p->batch);
        int64_t longest_q, longest_kv;
        st = check_offsets(fn, "cu_seqlens_q", p->cu_seqlens_q_host, p->batch, &total_q,
                           &longest_q);
        if (st == TILEOPS_SUCCESS)
            st = check_offsets(fn, "cu_seqlens_kv", p->cu_seqlens_kv_host, p->batch, &total_kv,
                               &longest_kv);
        if (st != TILEOPS_SUCCESS)
            return st;
        if (p->seqlen_q < longest_q || p->seqlen_kv < longest_kv)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s = %lld is less than the "
                                 "longest sequence, %lld (with cu_seqlens it is the longest)",
                                 fn, p->seqlen_q < longest_q ? "seqlen_q" : "seqlen_kv",
                                 (long long)(p->seqlen_q < longest_q ? p->seqlen_q
                                                                     : p->seqlen_kv),
                                 (long long)(p->seqlen_q < longest_q ? longest_q : longest_kv));
        seqlen_q = longest_q; /* the grid: an overstated seqlen would only add idle blocks */
        seqlen_kv = longest_kv;
    }

    /* ---- the operands -------------------------------------------------------------------- */
    const int64_t nb = varlen ? 1 : p->batch;
    const int64_t rows_q = varlen ? total_q : p->seqlen_q;
    const int64_t rows_kv = varlen ? total_kv : p->seqlen_kv;
    const struct tileops__view views[4] = {
        {"q", p->q, {nb, rows_q, p->heads_q}, {p->q_batch, p->q_seq, p->q_head}, dim_names},
        {"k", p->k, {nb, rows_kv, p->heads_kv}, {p->k_batch, p->k_seq, p->k_head}, dim_names},
        {"v", p->v, {nb, rows_kv, p->heads_kv}, {p->v_batch, p->v_seq, p->v_head}, dim_names},
        {"o", p->o, {nb, rows_q, p->heads_q}, {p->o_batch, p->o_seq, p->o_head}, dim_names},
    };
    struct tileops__span spans[7];
    if ((st = tileops__check_views(fn, views, 4, p->head_dim, spans)) != TILEOPS_SUCCESS)
        return st;
    /* lse: fp32 [batch, heads_q, seqlen_q], or [heads_q, total_q] with cu_seqlens */
    uint64_t lse_bytes = 0;
    if (p->lse) {
        const int64_t rows = varlen ? total_q : p->seqlen_q;
        if ((uintptr_t)p->lse % 4)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: lse is not aligned to its "
                                 "4-byte elements", fn);
        if (rows && (nb > INT64_MAX / 4 / p->heads_q / rows ||
                     tileops__range_wraps(p->lse, (uint64_t)(nb * p->heads_q * rows * 4))))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: lse (%lld x %d x %lld) "
                                 "overflows the address space", fn, (long long)nb, p->heads_q,
                                 (long long)rows);
        lse_bytes = (uint64_t)(nb * p->heads_q * rows) * 4;
    }
    spans[4] = (struct tileops__span){"lse", lse_bytes ? p->lse : NULL, lse_bytes};
    const uint64_t offsets = varlen ? ((uint64_t)p->batch + 1) * 4 : 0; /* checked above */
    spans[5] = (struct tileops__span){"cu_seqlens_q", p->cu_seqlens_q, offsets};
    spans[6] = (struct tileops__span){"cu_seqlens_kv", p->cu_seqlens_kv, offsets};
    /* The outputs overlap nothing the kernels read (nor each other): blocks write while others
     * still read. */
    const struct tileops__span *over = NULL;
    if (spans[3].ptr) {
        const struct tileops__span others[6] = {spans[0], spans[1], spans[2], spans[4], spans[5],
                                                spans[6]};
        if ((over = tileops__overlap_any(spans[3].ptr, spans[3].bytes, others, 6)))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: o overlaps %s", fn, over->name);
    }
    if (spans[4].ptr) {
        const struct tileops__span others[5] = {spans[0], spans[1], spans[2], spans[5], spans[6]};
        if ((over = tileops__overlap_any(spans[4].ptr, spans[4].bytes, others, 5)))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: lse overlaps %s", fn,
                                 over->name);
    }

    /* ---- what the kernels serve ---------------------------------------------------------- */
    if ((st = check_tier(fn, h, p->dtype, variant, p->head_dim)) != TILEOPS_SUCCESS)
        return st;
    if (seqlen_q > MAX_SEQLEN || seqlen_kv > MAX_SEQLEN)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: %s = %lld: the kernels take "
                             "sequences of at most %lld", fn,
                             seqlen_q > MAX_SEQLEN ? "seqlen_q" : "seqlen_kv",
                             (long long)(seqlen_q > MAX_SEQLEN ? seqlen_q : seqlen_kv),
                             (long long)MAX_SEQLEN);
    /* Strides of dimensions of size 1, and of empty views, are never used: 0, so that they
     * need no alignment. */
    int64_t s[4][3];
    for (int i = 0; i < 4; i++) {
        const int empty = !views[i].size[0] || !views[i].size[1] || !views[i].size[2];
        for (int d = 0; d < 3; d++)
            s[i][d] = views[i].size[d] > 1 && !empty ? views[i].stride[d] : 0;
    }
    if (varlen) /* the batch strides are unused: the offsets place every sequence */
        s[0][0] = s[1][0] = s[2][0] = s[3][0] = 0;
    for (int i = 0; i < 4; i++) {
        if ((uintptr_t)views[i].ptr % 16)
            return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: %s is not 16-byte aligned: the "
                                 "attention kernels need q, k, v and o 16-byte aligned and their "
                                 "strides multiples of 8 elements", fn, views[i].name);
        for (int d = 0; d < 3; d++)
            if (s[i][d] % 8)
                return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: %s_%s = %lld is not a "
                                     "multiple of 8 elements: the attention kernels need q, k, v "
                                     "and o 16-byte aligned and their strides multiples of 8 "
                                     "elements", fn, views[i].name, dim_names[d],
                                     (long long)s[i][d]);
    }

    struct tileops_attention_args args = {
        p->batch, seqlen_q, seqlen_kv, p->heads_q, p->heads_kv, p->head_dim,
        p->q, s[0][0], s[0][1], s[0][2],
        p->k, s[1][0], s[1][1], s[1][2],
        p->v, s[2][0], s[2][1], s[2][2],
        p->o, s[3][0], s[3][1], s[3][2],
        p->lse, p->scale != 0.0f ? p->scale : 1.0f / sqrtf((float)p->head_dim), p->causal,
        varlen ? p->cu_seqlens_q : NULL, varlen ? p->cu_seqlens_kv : NULL, h->dev.sms,
        rows_q, rows_kv,
        window_left, p->causal ? 0 : window_right, /* causal is window_right 0 */
        softcap};
    const void *ptrs[4] = {p->q, p->k, p->v, p->o};
    const struct tileops__call call = {TILEOPS_OP_FLASH_ATTENTION, p->dtype, variant, ptrs, 4,
                                       &args};
    const struct tileops_kernel *k = tileops__find_kernel(h, fn, &call, NULL);
    if (!k)
        return TILEOPS_ERROR_NOT_SUPPORTED;
    return tileops__launch(h, fn, k, &args, stream);
}
