/* bench_decode.c: tileops_attention_kvcache (decode: one new query a sequence) against a
 * device copy of the same bytes.
 *
 * Decode is memory-bound: every call reads each sequence's whole K and V cache once. Each row
 * reports the cache bytes read per second and the rate of a device copy that moves as many
 * bytes (reads and writes half each), timed in the same run under the same L2 flushing, and
 * their ratio. The grid: batch {1, 16, 64} x cache {2k, 4k, 32k, 128k} x heads {32/8, 32/32} x
 * head_dim {128, 64}, contiguous and paged (pages of 16 and 256 tokens), or one batch and
 * cache length (--shape BxC) over the other axes; --splits forces the split count; cases whose
 * cache passes 16 GiB are left out. One handle and one set of buffers, sized for the largest row,
 * serve every row. Every sequence is full; q and the cache hold small constants
 * (the time does not depend on values: the tests check them), and O is checked finite. */
#include "bench.h"
#include "copy.h"
#include "data.h"
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CACHE_BYTES ((int64_t)16 << 30)

static const struct report_col columns[] = {
    {"op", 6, 0},          {"dtype", 5, 0},        {"batch", 5, 1},     {"cache", 6, 1},
    {"heads", 5, 0},       {"d", 3, 1},            {"page", 4, 1},      {"kernel", 44, 0},
    {"median_us", 10, 1},  {"kv_gbps", 8, 1},      {"copy_gbps", 9, 1}, {"ratio", 6, 1},
};
#define NCOLS ((int)(sizeof columns / sizeof columns[0]))

struct decode_call {
    tileops_handle h;
    const tileops_kvcache_params *p;
    void *ws;
    size_t ws_bytes;
};

static int run_decode(void *arg, cudaStream_t stream)
{
    const struct decode_call *c = (const struct decode_call *)arg;
    return bench_tileops_ok(tileops_attention_kvcache(c->h, c->p, c->ws, c->ws_bytes, stream),
                            "tileops_attention_kvcache") ? 0 : -1;
}

/* What every row shares: the handle and buffers sized for the largest row, filled once (a
 * row uses a prefix of each). */
struct decode_bufs {
    tileops_handle h;
    void *q, *out, *k, *v, *lens;
    struct bench_copy copy; /* sized for the largest row; a row copies a prefix */
    size_t copy_bytes;
};

/* One row. Returns 0, or -1 on failure. */
static int bench_row(const struct bench_ctx *ctx, struct report *rep, const struct decode_bufs *d0,
                     tileops_dtype dt, int batch, int cache, int hq, int hkv, int d, int page)
{
    const struct bench_opts *o = ctx->opts;
    const int64_t kv_el = (int64_t)batch * cache * hkv * d; /* per K or V */
    const int64_t q_el = (int64_t)batch * hq * d;
    const int64_t pps = page ? (cache + page - 1) / page : 0;
    void *tab = NULL, *ws = NULL;
    int *hlens = NULL, *htab = NULL;
    int rc = -1;
    /* every sequence full; host copies are async on the bench's (non-blocking) stream, and
     * waited for before their host buffers go */
    hlens = malloc(sizeof(int) * (size_t)batch);
    if (!hlens)
        goto out;
    for (int b = 0; b < batch; b++)
        hlens[b] = cache;
    if (!bench_cuda_ok(cudaMemcpyAsync(d0->lens, hlens, 4 * (size_t)batch,
                                       cudaMemcpyHostToDevice, ctx->stream), "cudaMemcpyAsync"))
        goto out;
    tileops_kvcache_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p, p.dtype = dt, p.batch = batch, p.seqlen_q = 1;
    p.heads_q = hq, p.heads_kv = hkv, p.head_dim = d;
    p.q = d0->q, p.q_head = d, p.q_seq = (int64_t)hq * d, p.q_batch = p.q_seq;
    p.o = d0->out, p.o_head = d, p.o_seq = p.q_seq, p.o_batch = p.q_batch;
    p.k = d0->k, p.v = d0->v, p.k_head = p.v_head = d, p.k_seq = p.v_seq = (int64_t)hkv * d;
    p.seqlens_kv = d0->lens, p.max_seqlen_kv = cache;
    p.num_splits = o->splits;
    if (page) {
        /* each sequence's pages in reverse order, so that a sequence is not one span */
        htab = malloc(sizeof(int) * (size_t)(pps * batch));
        if (!htab)
            goto out;
        for (int64_t i = 0; i < pps * batch; i++)
            htab[i] = (int)((i / pps) * pps + (pps - 1 - i % pps));
        if (!bench_cuda_ok(cudaMalloc(&tab, sizeof(int) * (size_t)(pps * batch)), "cudaMalloc") ||
            !bench_cuda_ok(cudaMemcpyAsync(tab, htab, sizeof(int) * (size_t)(pps * batch),
                                           cudaMemcpyHostToDevice, ctx->stream),
                           "cudaMemcpyAsync"))
            goto out;
        p.block_table = tab, p.page_size = page, p.max_pages_per_seq = pps;
        p.num_pages = pps * batch;
        p.k_batch = p.v_batch = (int64_t)page * hkv * d;
    } else {
        p.k_batch = p.v_batch = (int64_t)cache * hkv * d;
    }
    size_t wsb = 0;
    if (!bench_tileops_ok(tileops_attention_kvcache_workspace_size(d0->h, &p, &wsb),
                          "tileops_attention_kvcache_workspace_size"))
        goto out;
    if (wsb && !bench_cuda_ok(cudaMalloc(&ws, wsb), "cudaMalloc"))
        goto out;
    struct decode_call call = {d0->h, &p, ws, wsb};
    if (!bench_cuda_ok(cudaMemsetAsync(d0->out, 0xff, q_el * 2, ctx->stream), "cudaMemsetAsync") ||
        run_decode(&call, ctx->stream) != 0 ||
        !bench_cuda_ok(cudaStreamSynchronize(ctx->stream), "decode (first call)"))
        goto out;
    {
        uint16_t *ho = malloc(q_el * 2);
        int bad = !ho || !bench_cuda_ok(cudaMemcpy(ho, d0->out, q_el * 2, cudaMemcpyDeviceToHost),
                                         "cudaMemcpy");
        for (int64_t i = 0; !bad && i < q_el; i++) /* NaN and inf: exponent all ones */
            bad = ((ho[i] & (dt == TILEOPS_BF16 ? 0x7f80 : 0x7c00)) ==
                   (dt == TILEOPS_BF16 ? 0x7f80 : 0x7c00));
        free(ho);
        if (bad) {
            bench_error("decode: O not finite (b %d cache %d d %d page %d)", batch, cache, d,
                        page);
            goto out;
        }
    }
    const double bytes = 4.0 * (double)kv_el; /* K and V, 2 bytes an element */
    struct bench_copy copy = d0->copy;
    copy.bytes = (size_t)(bytes / 2);
    struct bench_stats t_dec, t_copy;
    if (bench_timer_run(ctx->timer, o->reps, run_decode, &call, &t_dec) != 0 ||
        bench_timer_run(ctx->timer, o->reps, bench_copy_run, &copy, &t_copy) != 0)
        goto out;
    const double kv_bw = bench_gbps(bytes, t_dec.median_us), cp_bw = bench_gbps(bytes, t_copy.median_us);
    char s_b[16], s_c[16], s_h[16], s_d[16], s_p[16], s_med[24], s_kv[24], s_cp[24], s_r[24];
    snprintf(s_b, sizeof s_b, "%d", batch);
    snprintf(s_c, sizeof s_c, "%d", cache);
    snprintf(s_h, sizeof s_h, "%d/%d", hq, hkv);
    snprintf(s_d, sizeof s_d, "%d", d);
    snprintf(s_p, sizeof s_p, "%d", page);
    snprintf(s_med, sizeof s_med, "%.2f", t_dec.median_us);
    snprintf(s_kv, sizeof s_kv, "%.1f", kv_bw);
    snprintf(s_cp, sizeof s_cp, "%.1f", cp_bw);
    snprintf(s_r, sizeof s_r, "%.3f", cp_bw > 0 ? kv_bw / cp_bw : 0.0);
    const char *vals[NCOLS] = {"decode", bench_dtype_name(dt), s_b, s_c, s_h, s_d, s_p,
                               tileops_last_kernel(d0->h), s_med, s_kv, s_cp, s_r};
    rc = report_row(rep, vals);
out:
    cudaStreamSynchronize(ctx->stream); /* the async uploads are done with htab and hlens */
    cudaFree(tab), cudaFree(ws);
    free(hlens), free(htab);
    return rc;
}

int bench_decode(const struct bench_ctx *ctx)
{
    const struct bench_opts *o = ctx->opts;
    static const int grid_batches[] = {1, 16, 64}, grid_caches[] = {2048, 4096, 32768, 131072};
    static const int heads_kv[] = {8, 32}, dims[] = {128, 64}, pages[] = {0, 16, 256};
    const int one = o->shape_dims == 2;
    if (one && (o->shape[0] > INT32_MAX || o->shape[1] > INT32_MAX)) {
        bench_error("decode: --shape %" PRId64 "x%" PRId64 " is too large", o->shape[0],
                    o->shape[1]);
        return -1;
    }
    const int shape_b[] = {(int)o->shape[0]}, shape_c[] = {(int)o->shape[1]};
    const int *batches = one ? shape_b : grid_batches, *caches = one ? shape_c : grid_caches;
    const int NB = one ? 1 : 3, NC = one ? 1 : 4, NP = 3;
    /* the largest row's K (or V) elements and q elements */
    int64_t max_kv = 0, max_q = 0;
    for (int d = 0; d < 2; d++)
        for (int hk = 0; hk < 2; hk++)
            for (int b = 0; b < NB; b++)
                for (int c = 0; c < NC; c++) {
                    const int64_t kv = (int64_t)batches[b] * caches[c] * heads_kv[hk] * dims[d];
                    if (4 * kv <= MAX_CACHE_BYTES && kv > max_kv)
                        max_kv = kv;
                    if ((int64_t)batches[b] * 32 * dims[d] > max_q)
                        max_q = (int64_t)batches[b] * 32 * dims[d];
                }
    if (max_kv == 0) {
        bench_error("decode: every case's cache passes %d GiB", (int)(MAX_CACHE_BYTES >> 30));
        return -1;
    }
    struct decode_bufs d0;
    memset(&d0, 0, sizeof d0);
    struct report rep;
    int rep_open = 0, rc = -1;
    /* q and the cache hold 0x3c bytes: about 1 in f16, 0.0115 in bf16; finite scores */
    if (!bench_tileops_ok(tileops_create(&d0.h, ctx->device), "tileops_create") ||
        (o->ntiers && o->tiers[0] != TILEOPS_TIER_AUTO &&
         !bench_tileops_ok(tileops_set_tier(d0.h, o->tiers[0]), "tileops_set_tier")) ||
        !bench_cuda_ok(cudaMalloc(&d0.q, max_q * 2), "cudaMalloc") ||
        !bench_cuda_ok(cudaMalloc(&d0.out, max_q * 2), "cudaMalloc") ||
        !bench_cuda_ok(cudaMalloc(&d0.k, max_kv * 2), "cudaMalloc") ||
        !bench_cuda_ok(cudaMalloc(&d0.v, max_kv * 2), "cudaMalloc") ||
        !bench_cuda_ok(cudaMalloc(&d0.lens, 4 * (size_t)batches[NB - 1]), "cudaMalloc") ||
        !bench_cuda_ok(cudaMemsetAsync(d0.q, 0x3c, max_q * 2, ctx->stream), "cudaMemsetAsync") ||
        !bench_cuda_ok(cudaMemsetAsync(d0.k, 0x3c, max_kv * 2, ctx->stream), "cudaMemsetAsync") ||
        !bench_cuda_ok(cudaMemsetAsync(d0.v, 0x3c, max_kv * 2, ctx->stream), "cudaMemsetAsync") ||
        bench_copy_alloc(&d0.copy, (size_t)max_kv * 2, ctx->stream) != 0)
        goto out;
    if (report_open(&rep, columns, NCOLS, o->csv) != 0)
        goto out;
    rep_open = 1, rc = 0;
    for (int di = 0; di < o->ndtypes && rc == 0; di++)
        for (int d = 0; d < 2 && rc == 0; d++)
            for (int hk = 0; hk < 2 && rc == 0; hk++)
                for (int b = 0; b < NB && rc == 0; b++)
                    for (int c = 0; c < NC && rc == 0; c++)
                        for (int pg = 0; pg < NP && rc == 0; pg++) {
                            const int64_t bytes = 4LL * batches[b] * caches[c] * heads_kv[hk] *
                                                  dims[d];
                            if (bytes > MAX_CACHE_BYTES)
                                continue;
                            rc = bench_row(ctx, &rep, &d0, o->dtypes[di], batches[b], caches[c],
                                           32, heads_kv[hk], dims[d], pages[pg]);
                        }
out:
    if (rep_open && report_close(&rep) != 0)
        rc = -1;
    bench_copy_free(&d0.copy);
    cudaFree(d0.q), cudaFree(d0.out), cudaFree(d0.k), cudaFree(d0.v), cudaFree(d0.lens);
    tileops_destroy(d0.h);
    return rc;
}
