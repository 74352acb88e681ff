/* kvcache.c: decode attention over a KV cache (tileops_attention_kvcache, its workspace query)
 * and the cache's append (tileops_kv_cache_append): check every argument, let the kernels'
 * fit() pick one, launch it on the caller's stream. */
#include "internal.h"
#include "op_args.h"
#include "variants.h"

#include <math.h>
#include <stdint.h>

/* The longest cache the kernels index with int, less a tile. */
#define MAX_SEQLEN ((int64_t)INT32_MAX - 256)
#define MAX_SEQLEN_Q 16

static const char *const seq_dims[3] = {"batch", "seq", "head"};

/* The registry's code of a supported head dim, or -1. */
static int head_dim_code(int d)
{
    switch (d) {
    case 64: return TILEOPS_ATTENTION_DECODE_HEAD_DIM_64;
    case 96: return TILEOPS_ATTENTION_DECODE_HEAD_DIM_96;
    case 128: return TILEOPS_ATTENTION_DECODE_HEAD_DIM_128;
    case 256: return TILEOPS_ATTENTION_DECODE_HEAD_DIM_256;
    default: return -1;
    }
}

/* NOT_SUPPORTED, saying so, when the handle's tier has no kernel of operator op and dtype (the
 * sm70 tier's decode kernels are f16 only). */
static tileops_status check_tier(const char *fn, tileops_handle h, int op, tileops_dtype dtype,
                                 const char *what)
{
    const struct tileops_tier_table *t = h->tier;
    for (int i = 0; i < *t->count; i++)
        if (t->kernels[i].op == op && t->kernels[i].dtype == (int)dtype)
            return TILEOPS_SUCCESS;
    return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: the sm%d tier has no %s %s kernel",
                         fn, t->tier, tileops__dtype_name(dtype), what);
}

/* NOT_SUPPORTED unless every pointer is 16-byte aligned and every stride a multiple of 8
 * elements (the kernels move 16-byte chunks). */
static tileops_status check_chunks(const char *fn, const struct tileops__view *v, int n,
                                   const int64_t (*s)[3])
{
    for (int i = 0; i < n; i++) {
        if ((uintptr_t)v[i].ptr % 16)
            return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: %s is not 16-byte aligned "
                                 "(the kernels move 16-byte chunks)", fn, v[i].name);
        for (int d = 0; d < 3; d++)
            if (s[i][d] % 8)
                return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: %s_%s = %lld is not a "
                                     "multiple of 8 elements (the kernels move 16-byte chunks)",
                                     fn, v[i].name, v[i].dims[d], (long long)s[i][d]);
    }
    return TILEOPS_SUCCESS;
}

/* A device array of n elements of `elem` bytes: non-null, aligned, not wrapping. */
static tileops_status check_array(const char *fn, const char *name, const void *ptr, int64_t n,
                                  int elem, uint64_t *bytes)
{
    if (!ptr)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, name);
    if ((uintptr_t)ptr % (uintptr_t)elem)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is not aligned to its %d-byte "
                             "elements", fn, name, elem);
    if (n > INT64_MAX / elem || tileops__range_wraps(ptr, (uint64_t)n * (uint64_t)elem))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s (%lld elements) overflows the "
                             "address space", fn, name, (long long)n);
    *bytes = (uint64_t)n * (uint64_t)elem;
    return TILEOPS_SUCCESS;
}

/* Validates a decode call and picks its kernel: fills *args and *k, and *need with the
 * workspace the kernel's plan wants (forced splits: exactly what they need). ws / ws_bytes:
 * the caller's workspace (query: NULL and 0, not checked). */
static tileops_status prepare(const char *fn, tileops_handle h, const tileops_kvcache_params *p,
                              int query, void *ws, size_t ws_bytes,
                              struct tileops_attention_decode_args *args,
                              const struct tileops_kernel **k, size_t *need)
{
    tileops_status st = tileops__check_params16(fn, h, p != NULL, p ? p->size : 0, sizeof *p,
                                                "tileops_kvcache_params",
                                                p ? p->dtype : TILEOPS_F16, "decode attention");
    if (st != TILEOPS_SUCCESS)
        return st;

    /* ---- sizes and flags ----------------------------------------------------------------- */
    if ((st = tileops__check_heads(fn, p->batch, p->heads_q, p->heads_kv, p->head_dim)) !=
        TILEOPS_SUCCESS)
        return st;
    if (p->seqlen_q < 1 || p->seqlen_q > MAX_SEQLEN_Q)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: seqlen_q is %d (1 to %d new "
                             "queries a sequence; prefill is tileops_flash_attention's)", fn,
                             p->seqlen_q, MAX_SEQLEN_Q);
    if (p->max_seqlen_kv < 0)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: max_seqlen_kv is %lld (must be "
                             ">= 0)", fn, (long long)p->max_seqlen_kv);
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
    if (!isfinite(p->scale) || p->scale < 0.0f)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: scale is %g (must be finite and "
                             ">= 0; 0 for 1/sqrt(head_dim))", fn, (double)p->scale);
    if ((st = tileops__check_window_softcap(fn, p->window, p->window_left, p->window_right,
                                            p->softcap)))
        return st;
    if (p->num_splits < 0 || p->num_splits > TILEOPS_KVCACHE_MAX_SPLITS)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: num_splits is %d (0 to let "
                             "dispatch choose, or 1 to %d)", fn, p->num_splits,
                             TILEOPS_KVCACHE_MAX_SPLITS);

    /* ---- the cache's layout -------------------------------------------------------------- */
    const int paged = p->block_table != NULL;
    int shift = 0;
    uint64_t table_bytes = 0;
    if (paged) {
        if (p->page_size < 1 || p->page_size > 256 || (p->page_size & (p->page_size - 1)))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: page_size is %d (a power of "
                                 "two from 1 to 256)", fn, p->page_size);
        while ((1 << shift) < p->page_size)
            shift++;
        if (p->num_pages < 1)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: num_pages is %lld (a paged "
                                 "cache has at least one page)", fn, (long long)p->num_pages);
        if (p->max_pages_per_seq < 1 ||
            p->max_pages_per_seq < (p->max_seqlen_kv + p->page_size - 1) / p->page_size)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: max_pages_per_seq = %lld "
                                 "pages of %d rows cannot hold max_seqlen_kv = %lld keys", fn,
                                 (long long)p->max_pages_per_seq, p->page_size,
                                 (long long)p->max_seqlen_kv);
        if (p->batch > INT64_MAX / p->max_pages_per_seq)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: block_table (%lld x %lld) "
                                 "overflows the address space", fn, (long long)p->batch,
                                 (long long)p->max_pages_per_seq);
        if ((st = check_array(fn, "block_table", p->block_table,
                              p->batch * p->max_pages_per_seq, 4, &table_bytes)))
            return st;
    }
    uint64_t lens_bytes = 0;
    if ((st = check_array(fn, "seqlens_kv", p->seqlens_kv, p->batch, 4, &lens_bytes)))
        return st;

    /* ---- the tensors --------------------------------------------------------------------- */
    static const char *const page_dims[3] = {"batch", "seq", "head"}; /* k_batch: page stride */
    const int64_t kv_outer = paged ? p->num_pages : p->batch;
    const int64_t kv_rows = paged ? p->page_size : p->max_seqlen_kv;
    const struct tileops__view views[4] = {
        {"q", p->q, {p->batch, p->seqlen_q, p->heads_q}, {p->q_batch, p->q_seq, p->q_head},
         seq_dims},
        {"o", p->o, {p->batch, p->seqlen_q, p->heads_q}, {p->o_batch, p->o_seq, p->o_head},
         seq_dims},
        {"k", p->k, {kv_outer, kv_rows, p->heads_kv}, {p->k_batch, p->k_seq, p->k_head},
         page_dims},
        {"v", p->v, {kv_outer, kv_rows, p->heads_kv}, {p->v_batch, p->v_seq, p->v_head},
         page_dims},
    };
    struct tileops__span spans[7];
    if ((st = tileops__check_views(fn, views, 4, p->head_dim, spans)) != TILEOPS_SUCCESS)
        return st;
    uint64_t lse_bytes = 0;
    const int64_t rows = p->batch * p->heads_q * p->seqlen_q; /* fits: q's view was checked */
    if (p->lse && (st = check_array(fn, "lse", p->lse, rows, 4, &lse_bytes)))
        return st;
    spans[4] = (struct tileops__span){"lse", p->lse, lse_bytes};
    spans[5] = (struct tileops__span){"seqlens_kv", p->seqlens_kv, lens_bytes};
    spans[6] = (struct tileops__span){"block_table", p->block_table, table_bytes};
    const struct tileops__span *over;
    {
        const struct tileops__span others[6] = {spans[0], spans[2], spans[3], spans[4], spans[5],
                                                spans[6]};
        if ((over = tileops__overlap_any(spans[1].ptr, spans[1].bytes, others, 6)))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: o overlaps %s", fn, over->name);
        if (p->lse && (over = tileops__overlap_any(spans[4].ptr, spans[4].bytes, others, 3)))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: lse overlaps %s", fn,
                                 over->name);
        if (p->lse && (over = tileops__overlap_any(spans[4].ptr, spans[4].bytes, others + 4, 2)))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: lse overlaps %s", fn,
                                 over->name);
    }
    if (!query) {
        if (ws_bytes && !ws)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace is NULL with "
                                 "workspace_bytes = %zu", fn, ws_bytes);
        if (ws && (uintptr_t)ws % 16)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace is not 16-byte "
                                 "aligned", fn);
        if (ws && tileops__range_wraps(ws, ws_bytes))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace (%zu bytes) "
                                 "overflows the address space", fn, ws_bytes);
        if (ws && (over = tileops__overlap_any(ws, ws_bytes, spans, 7)))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace overlaps %s", fn,
                                 over->name);
    }

    /* ---- what the kernels serve ---------------------------------------------------------- */
    if ((st = check_tier(fn, h, TILEOPS_OP_ATTENTION_DECODE, p->dtype, "decode attention")))
        return st;
    if (p->max_seqlen_kv > MAX_SEQLEN)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: max_seqlen_kv = %lld: the kernels "
                             "take caches of at most %lld keys", fn, (long long)p->max_seqlen_kv,
                             (long long)MAX_SEQLEN);
    /* strides of dimensions of size 1 are never used: 0, so that they need no alignment */
    int64_t s[4][3];
    for (int i = 0; i < 4; i++)
        for (int d = 0; d < 3; d++)
            s[i][d] = views[i].size[d] > 1 ? views[i].stride[d] : 0;
    if ((st = check_chunks(fn, views, 4, (const int64_t(*)[3])s)))
        return st;

    *args = (struct tileops_attention_decode_args){
        p->batch, p->seqlen_q, p->heads_q, p->heads_kv, p->head_dim,
        p->q, s[0][0], s[0][1], s[0][2],
        p->o, s[1][0], s[1][1], s[1][2],
        p->lse,
        p->k, s[2][0], s[2][1], s[2][2],
        p->v, s[3][0], s[3][1], s[3][2],
        p->seqlens_kv, p->max_seqlen_kv,
        p->block_table, paged ? p->max_pages_per_seq : 0, shift,
        p->scale != 0.0f ? p->scale : 1.0f / sqrtf((float)p->head_dim), p->softcap,
        p->window ? p->window_left : -1,
        p->causal ? 0 : p->window ? p->window_right : -1, /* causal is window_right 0 */
        p->num_splits, ws, ws_bytes, h->dev.sms};
    const void *ptrs[4] = {p->q, p->o, p->k, p->v};
    const struct tileops__call call = {TILEOPS_OP_ATTENTION_DECODE, p->dtype, variant, ptrs, 4,
                                       args};
    *k = tileops__find_kernel(h, fn, &call, need);
    if (!*k)
        return TILEOPS_ERROR_NOT_SUPPORTED;
    return TILEOPS_SUCCESS;
}

tileops_status tileops_attention_kvcache_workspace_size(tileops_handle h,
                                                        const tileops_kvcache_params *p,
                                                        size_t *bytes)
{
    static const char fn[] = "tileops_attention_kvcache_workspace_size";
    if (!bytes)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: bytes is NULL", fn);
    *bytes = 0;
    struct tileops_attention_decode_args args;
    const struct tileops_kernel *k;
    size_t need = 0;
    const tileops_status st = prepare(fn, h, p, 1, NULL, 0, &args, &k, &need);
    if (st == TILEOPS_SUCCESS)
        *bytes = need;
    return st;
}

tileops_status tileops_attention_kvcache(tileops_handle h, const tileops_kvcache_params *p,
                                         void *workspace, size_t workspace_bytes,
                                         cudaStream_t stream)
{
    static const char fn[] = "tileops_attention_kvcache";
    struct tileops_attention_decode_args args;
    const struct tileops_kernel *k;
    size_t need = 0;
    tileops_status st = prepare(fn, h, p, 0, workspace, workspace_bytes, &args, &k, &need);
    if (st != TILEOPS_SUCCESS)
        return st;
    if (p->num_splits > 1 && workspace_bytes < need)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: num_splits = %d needs %zu bytes "
                             "of workspace, %zu given", fn, p->num_splits, need, workspace_bytes);
    return tileops__launch(h, fn, k, &args, stream);
}

tileops_status tileops_kv_cache_append(tileops_handle h, const tileops_kv_append_params *p,
                                       cudaStream_t stream)
{
    static const char fn[] = "tileops_kv_cache_append";
    tileops_status st = tileops__check_params16(fn, h, p != NULL, p ? p->size : 0, sizeof *p,
                                                "tileops_kv_append_params",
                                                p ? p->dtype : TILEOPS_F16, "the KV cache");
    if (st != TILEOPS_SUCCESS)
        return st;
    if (p->tokens < 0)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: tokens is %lld (must be >= 0)", fn,
                             (long long)p->tokens);
    if ((st = tileops__check_sizes(fn, 4, (const char *const[]){"heads_kv", "head_dim", "blocks",
                                                                 "block_rows"},
                                   (const int64_t[]){p->heads_kv, p->head_dim, p->blocks,
                                                     p->block_rows})) != TILEOPS_SUCCESS)
        return st;
    static const char *const new_dims[3] = {"batch", "token", "head"};
    static const char *const cache_dims[3] = {"block", "row", "head"};
    const struct tileops__view views[4] = {
        {"k_new", p->k_new, {1, p->tokens, p->heads_kv}, {0, p->k_new_token, p->k_new_head},
         new_dims},
        {"v_new", p->v_new, {1, p->tokens, p->heads_kv}, {0, p->v_new_token, p->v_new_head},
         new_dims},
        {"k_cache", p->k_cache, {p->blocks, p->block_rows, p->heads_kv},
         {p->k_block, p->k_row, p->k_head}, cache_dims},
        {"v_cache", p->v_cache, {p->blocks, p->block_rows, p->heads_kv},
         {p->v_block, p->v_row, p->v_head}, cache_dims},
    };
    struct tileops__span spans[5];
    if ((st = tileops__check_views(fn, views, 4, p->head_dim, spans)) != TILEOPS_SUCCESS)
        return st;
    if (p->blocks > INT64_MAX / p->block_rows)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: blocks x block_rows overflows", fn);
    uint64_t slot_bytes = 0;
    if ((st = check_array(fn, "slots", p->slots, p->tokens, 8, &slot_bytes)))
        return st;
    spans[4] = (struct tileops__span){"slots", p->slots, slot_bytes};
    /* The caches may share one buffer (K and V of a page side by side); neither may overlap
     * what is read. */
    const struct tileops__span reads[3] = {spans[0], spans[1], spans[4]};
    for (int i = 2; i < 4; i++) {
        const struct tileops__span *over = tileops__overlap_any(spans[i].ptr, spans[i].bytes,
                                                                reads, 3);
        if (over)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s overlaps %s", fn,
                                 spans[i].name, over->name);
    }
    if ((st = check_tier(fn, h, TILEOPS_OP_KV_CACHE_APPEND, p->dtype, "KV-cache append")))
        return st;
    if (p->head_dim % 8)
        return tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: head_dim %d is not a multiple of "
                             "8 (the kernel moves 16-byte chunks)", fn, p->head_dim);
    int64_t s[4][3];
    for (int i = 0; i < 4; i++)
        for (int d = 0; d < 3; d++)
            s[i][d] = views[i].size[d] > 1 ? views[i].stride[d] : 0;
    if ((st = check_chunks(fn, views, 4, (const int64_t(*)[3])s)))
        return st;
    const struct tileops_kv_append_args args = {
        p->tokens, p->heads_kv, p->head_dim,
        p->k_new, s[0][1], s[0][2],
        p->v_new, s[1][1], s[1][2],
        p->k_cache, s[2][0], s[2][1], s[2][2],
        p->v_cache, s[3][0], s[3][1], s[3][2],
        p->blocks, p->block_rows, p->slots};
    const void *ptrs[4] = {p->k_new, p->v_new, p->k_cache, p->v_cache};
    const struct tileops__call call = {TILEOPS_OP_KV_CACHE_APPEND, p->dtype, 0, ptrs, 4, &args};
    const struct tileops_kernel *k = tileops__find_kernel(h, fn, &call, NULL);
    if (!k)
        return TILEOPS_ERROR_NOT_SUPPORTED;
    return tileops__launch(h, fn, k, &args, stream);
}
