/* test_kvcache.c: tileops_attention_kvcache and tileops_kv_cache_append.
 *
 * API (no GPU: a fake sm90 handle in dry-run mode): every bad input named by the header
 * returns its status with a message; a good call picks a decode kernel; the workspace query
 * reports split-KV partials for a long cache and none for one split.
 *
 * GPU, on every tier of the build (sm70 serves f16; bf16 there must answer NOT_SUPPORTED),
 * f16 and bf16, head dims 64, 96, 128, 256: fresh random q and caches of ragged lengths (0, 1,
 * mid-page, full), an fp64 CPU reference of O and LSE with GQA, causal (seqlen_q > 1), sliding
 * windows and softcap; O and LSE poisoned (NaN) before each call. The same problem runs on a
 * contiguous cache and on paged caches (page sizes 1, 8, 16, 64, 256 with the pages in
 * shuffled order, unused rows NaN) with splits forced to 1, 3 and the maximum and
 * chosen by dispatch: every run must match the reference, and a paged run must equal the
 * contiguous one with the same splits bit for bit. The append kernel writes tokens into a
 * paged cache by slot (padding slots -1 skipped) and the cache is compared with the host's.
 * A call captured in a CUDA graph replays with lengths changed on the device.
 * TILEOPS_TEST_SMALL=1 (under racecheck): the contiguous and page-16 caches only, with 3 splits
 * and dispatch's choice.
 * Without a CUDA device the GPU cases print "skipped: no CUDA device". */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"
#include "util_host.h"
#include "util_ref.h"

#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        if (!(cond))                                                                        \
            ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

/* ---- API ------------------------------------------------------------------------------- */

#define FAKE(a) ((void *)(uintptr_t)(a))

static tileops_kvcache_params good_params(void)
{
    tileops_kvcache_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.dtype = TILEOPS_BF16;
    p.batch = 2, p.seqlen_q = 1, p.heads_q = 8, p.heads_kv = 2, p.head_dim = 128;
    p.q = FAKE(0x100000), p.q_batch = 8 * 128, p.q_seq = 8 * 128, p.q_head = 128;
    p.o = FAKE(0x200000), p.o_batch = 8 * 128, p.o_seq = 8 * 128, p.o_head = 128;
    p.k = FAKE(0x10000000), p.k_batch = 16 * 2 * 128, p.k_seq = 2 * 128, p.k_head = 128;
    p.v = FAKE(0x20000000), p.v_batch = 16 * 2 * 128, p.v_seq = 2 * 128, p.v_head = 128;
    p.seqlens_kv = FAKE(0x300000);
    p.max_seqlen_kv = 100000;
    p.block_table = FAKE(0x400000), p.max_pages_per_seq = 100000 / 16 + 1, p.num_pages = 4096;
    p.page_size = 16;
    p.window_left = p.window_right = -1;
    return p;
}

static void expect_status(tileops_handle h, const tileops_kvcache_params *p, void *ws,
                          size_t wsb, tileops_status want, const char *what)
{
    const tileops_status st = tileops_attention_kvcache(h, p, ws, wsb, NULL);
    ck_assert_msg(st == want, "%s: status %d, expected %d (%s)", what, st, want,
                  tileops_last_error());
    if (want != TILEOPS_SUCCESS)
        ck_assert_msg(strstr(tileops_last_error(), "tileops_attention_kvcache") != NULL,
                      "%s: no message", what);
}

START_TEST(api_statuses)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    tileops_kvcache_params p = good_params();
    size_t need = 0;
    ck_assert_msg(tileops_attention_kvcache_workspace_size(h, &p, &need) == TILEOPS_SUCCESS, "%s",
                  tileops_last_error());
    ck_assert_msg(need > 0, "a long cache over 4 blocks wants split-KV workspace");
    expect_status(h, &p, FAKE(0x40000000), need, TILEOPS_SUCCESS, "good");
    ck_assert_msg(strstr(tileops_last_kernel(h), "attention_decode_sm90_bf16_d128") != NULL,
                  "kernel %s", tileops_last_kernel(h));
    expect_status(h, &p, NULL, 0, TILEOPS_SUCCESS, "no workspace: one split");
    p.num_splits = 1;
    ck_assert_int_eq(tileops_attention_kvcache_workspace_size(h, &p, &need), TILEOPS_SUCCESS);
    ck_assert_msg(need == 0, "one split needs no workspace, got %zu", need);
    p.num_splits = 8;
    expect_status(h, &p, NULL, 0, TILEOPS_ERROR_INVALID_VALUE, "forced splits, no workspace");

    /* each bad input on an otherwise good call */
    static const char *const what[] = {
        "size too small", "seqlen_q 0", "seqlen_q 17", "max_seqlen_kv < 0", "heads not a multiple",
        "causal 2", "window_left -2", "window_right -3", "softcap < 0", "softcap NaN",
        "scale inf", "page_size 3", "page_size 512", "too few pages a sequence", "num_pages 0",
        "num_splits 129", "seqlens_kv NULL", "q NULL", "k overlaps itself", "o overlaps q",
        "workspace NULL with bytes", "workspace misaligned", "head_dim 80", "dtype f32",
        "q misaligned to 16", "window 2", "scale negative"};
    static const tileops_status want[] = {
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE,
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE,
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE,
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE,
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE,
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE,
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE,
        TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_NOT_SUPPORTED, TILEOPS_ERROR_NOT_SUPPORTED,
        TILEOPS_ERROR_NOT_SUPPORTED, TILEOPS_ERROR_INVALID_VALUE, TILEOPS_ERROR_INVALID_VALUE};
    for (int i = 0; i < (int)(sizeof what / sizeof what[0]); i++) {
        tileops_kvcache_params b = good_params();
        void *ws = NULL;
        size_t wsb = 0;
        switch (i) {
        case 0: b.size = sizeof b - 4; break;
        case 1: b.seqlen_q = 0; break;
        case 2: b.seqlen_q = 17; break;
        case 3: b.max_seqlen_kv = -1; break;
        case 4: b.heads_q = 7; break;
        case 5: b.causal = 2; break;
        case 6: b.window = 1, b.window_left = -2; break;
        case 7: b.window = 1, b.window_right = -3; break;
        case 8: b.softcap = -1.0f; break;
        case 9: b.softcap = NAN; break;
        case 10: b.scale = INFINITY; break;
        case 11: b.page_size = 3; break;
        case 12: b.page_size = 512; break;
        case 13: b.max_pages_per_seq = 10; break;
        case 14: b.num_pages = 0; break;
        case 15: b.num_splits = TILEOPS_KVCACHE_MAX_SPLITS + 1; break;
        case 16: b.seqlens_kv = NULL; break;
        case 17: b.q = NULL; break;
        case 18: b.k_seq = 64; break;
        case 19: b.o = (char *)b.q + 256; break;
        case 20: wsb = 1024; break;
        case 21: ws = FAKE(0x40000008), wsb = 1 << 20; break;
        case 22: b.head_dim = 80; break;
        case 23: b.dtype = TILEOPS_F32; break;
        case 24: b.q = FAKE(0x100008); break;
        case 25: b.window = 2; break;
        case 26: b.scale = -1.0f; break;
        }
        expect_status(h, &b, ws, wsb, want[i], what[i]);
    }
    tileops_destroy(h);
}
END_TEST

/* ---- GPU ------------------------------------------------------------------------------- */

struct dcase {
    int batch, sq, hq, hkv, maxlen, causal, wl, wr;
    float softcap;
};

static const struct dcase dcases[] = {
    {3, 1, 8, 2, 300, 0, -1, -1, 0.0f},     /* decode, GQA 4 */
    {2, 4, 8, 1, 200, 1, -1, -1, 0.0f},     /* speculative, MQA, causal */
    {2, 16, 4, 4, 130, 1, -1, -1, 0.0f},    /* 16 new queries, no GQA */
    {2, 2, 16, 2, 260, 0, 40, -1, 30.0f},   /* sliding window, softcap, GQA 8 */
    {1, 3, 4, 2, 1000, 1, 100, 0, 0.0f},    /* window with causal, a long cache */
};

/* host element i of a 16-bit buffer */
static double el(const uint16_t *b, tileops_dtype dt, int64_t i)
{
    return get_elem(b, dt, (size_t)i);
}

/* fp64 reference of one (b, t, h) row: o[d], *lse; logical caches [b][j][hk][d]. */
static void ref_row(const struct dcase *c, tileops_dtype dt, int d, const uint16_t *q,
                    const uint16_t *k, const uint16_t *v, int len, int b, int t, int h,
                    double scale, double *o, double *lse, double *w)
{
    const int hk = h / (c->hq / c->hkv);
    const int64_t pos = (int64_t)len - c->sq + t;
    const int wr = c->causal ? 0 : c->wr;
    int64_t lo = c->wl >= 0 ? pos - c->wl : 0, hi = wr >= 0 ? pos + wr + 1 : len;
    lo = lo < 0 ? 0 : lo;
    hi = hi > len ? len : hi;
    for (int e = 0; e < d; e++)
        o[e] = 0;
    *lse = -INFINITY;
    if (hi <= lo)
        return;
    const int64_t qo = (((int64_t)b * c->sq + t) * c->hq + h) * d;
    double mx = -INFINITY, sum = 0;
    for (int64_t j = lo; j < hi; j++) {
        const int64_t ko = (((int64_t)b * c->maxlen + j) * c->hkv + hk) * d;
        double s = 0;
        for (int e = 0; e < d; e++)
            s += el(q, dt, qo + e) * el(k, dt, ko + e);
        s *= scale;
        if (c->softcap > 0)
            s = c->softcap * tanh(s / c->softcap);
        w[j - lo] = s;
        mx = s > mx ? s : mx;
    }
    for (int64_t j = lo; j < hi; j++) {
        const double pj = exp(w[j - lo] - mx);
        sum += pj;
        const int64_t vo = (((int64_t)b * c->maxlen + j) * c->hkv + hk) * d;
        for (int e = 0; e < d; e++)
            o[e] += pj * el(v, dt, vo + e);
    }
    for (int e = 0; e < d; e++)
        o[e] /= sum;
    *lse = mx + log(sum);
}

static const tileops_dtype dts[] = {TILEOPS_F16, TILEOPS_BF16};
static const int dims[] = {64, 96, 128, 256};

START_TEST(decode_every_tier)
{
    const tileops_dtype dt = dts[_i / 4];
    const int d = dims[_i % 4];
    struct rng r = {rng_seed_from_clock()};
    const uint64_t seed = r.s;
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        tileops_handle h = handle_on_tier(ti);
        for (int ci = 0; ci < (int)(sizeof dcases / sizeof dcases[0]); ci++) {
            const struct dcase *c = &dcases[ci];
            const int64_t nq = (int64_t)c->batch * c->sq * c->hq * d;
            const int64_t nkv = (int64_t)c->batch * c->maxlen * c->hkv * d;
            uint16_t *q = malloc(nq * 2), *k = malloc(nkv * 2), *v = malloc(nkv * 2);
            fill_random(q, dt, (size_t)nq, &r);
            fill_random(k, dt, (size_t)nkv, &r);
            fill_random(v, dt, (size_t)nkv, &r);
            int lens[8];
            for (int b = 0; b < c->batch; b++) /* ragged: full, mid-page, 0 and 1 among them */
                lens[b] = b == 0 ? c->maxlen : b == 1 ? (c->maxlen * 5) / 7 : b == 2 ? 0 : 1;
            if (c->batch == 1)
                lens[0] = c->maxlen - 3;
            const int64_t rows = (int64_t)c->batch * c->hq * c->sq;
            double *ro = malloc(rows * d * sizeof(double)), *rl = malloc(rows * sizeof(double));
            double *w = malloc((size_t)c->maxlen * sizeof(double));
            const double scale = 1.0 / sqrt((double)d);
            for (int b = 0; b < c->batch; b++)
                for (int h = 0; h < c->hq; h++)
                    for (int t = 0; t < c->sq; t++) {
                        const int64_t row = ((int64_t)b * c->hq + h) * c->sq + t;
                        ref_row(c, dt, d, q, k, v, lens[b], b, t, h, scale, ro + row * d,
                                rl + row, w);
                    }
            void *dq, *dk, *dv, *dout, *dws, *dlens, *dtab, *dpk, *dpv;
            float *dlse;
            CUDA_OK(cudaMalloc(&dq, nq * 2));
            CUDA_OK(cudaMalloc(&dk, nkv * 2));
            CUDA_OK(cudaMalloc(&dv, nkv * 2));
            CUDA_OK(cudaMalloc(&dout, nq * 2));
            CUDA_OK(cudaMalloc((void **)&dlse, rows * 4));
            const size_t wsb = (size_t)TILEOPS_KVCACHE_MAX_SPLITS * rows * (d + 1) * 4;
            CUDA_OK(cudaMalloc(&dws, wsb));
            CUDA_OK(cudaMalloc(&dlens, 4 * c->batch));
            upload(dq, q, nq * 2);
            upload(dk, k, nkv * 2);
            upload(dv, v, nkv * 2);
            upload(dlens, lens, 4 * c->batch);
            /* paged pools: pages of every sequence in shuffled order, unused rows NaN */
            const int page_sizes[5] = {1, 8, 16, 64, 256};
            uint16_t *out = malloc(nq * 2), *base = malloc(nq * 2);
            float *lse = malloc(rows * 4), *base_lse = malloc(rows * 4);
            const int splits[4] = {1, 3, TILEOPS_KVCACHE_MAX_SPLITS, 0};
            for (int layout = 0; layout < 6; layout++) {
                if (test_small_only() && layout != 0 && layout != 3)
                    continue;
                const int ps = layout ? page_sizes[layout - 1] : 0;
                const int64_t pps = ps ? (c->maxlen + ps - 1) / ps : 0;
                const int64_t npages = pps * c->batch + 2;
                const int64_t page_el = (int64_t)(ps ? ps : 1) * c->hkv * d;
                int *tab = NULL;
                if (ps) {
                    tab = malloc(sizeof(int) * (size_t)(pps * c->batch));
                    int64_t *perm = malloc(sizeof(int64_t) * (size_t)npages);
                    for (int64_t i = 0; i < npages; i++)
                        perm[i] = i;
                    for (int64_t i = npages - 1; i > 0; i--) {
                        const int64_t j = (int64_t)(rng_next(&r) % (uint64_t)(i + 1));
                        const int64_t x = perm[i];
                        perm[i] = perm[j], perm[j] = x;
                    }
                    uint16_t *pk = malloc(npages * page_el * 2), *pv = malloc(npages * page_el * 2);
                    memset(pk, 0xff, npages * page_el * 2);
                    memset(pv, 0xff, npages * page_el * 2);
                    for (int b = 0; b < c->batch; b++)
                        for (int64_t pg = 0; pg < pps; pg++) {
                            tab[b * pps + pg] = (int)perm[b * pps + pg];
                            for (int rr = 0; rr < ps; rr++) {
                                const int64_t j = pg * ps + rr;
                                if (j >= lens[b])
                                    continue;
                                const int64_t src = ((int64_t)b * c->maxlen + j) * c->hkv * d;
                                const int64_t dst = perm[b * pps + pg] * page_el + (int64_t)rr * c->hkv * d;
                                memcpy(pk + dst, k + src, (size_t)c->hkv * d * 2);
                                memcpy(pv + dst, v + src, (size_t)c->hkv * d * 2);
                            }
                        }
                    CUDA_OK(cudaMalloc(&dpk, npages * page_el * 2));
                    CUDA_OK(cudaMalloc(&dpv, npages * page_el * 2));
                    CUDA_OK(cudaMalloc(&dtab, sizeof(int) * (size_t)(pps * c->batch)));
                    upload(dpk, pk, npages * page_el * 2);
                    upload(dpv, pv, npages * page_el * 2);
                    upload(dtab, tab, sizeof(int) * (size_t)(pps * c->batch));
                    free(pk), free(pv), free(perm);
                }
                for (int si = 0; si < 4; si++) {
                    if (test_small_only() && si != 1 && si != 3)
                        continue;
                    tileops_kvcache_params p;
                    memset(&p, 0, sizeof p);
                    p.size = sizeof p, p.dtype = dt, p.batch = c->batch, p.seqlen_q = c->sq;
                    p.heads_q = c->hq, p.heads_kv = c->hkv, p.head_dim = d;
                    p.q = dq, p.q_head = d, p.q_seq = (int64_t)c->hq * d, p.q_batch = p.q_seq * c->sq;
                    p.o = dout, p.o_head = p.q_head, p.o_seq = p.q_seq, p.o_batch = p.q_batch;
                    p.lse = dlse;
                    p.seqlens_kv = dlens, p.max_seqlen_kv = c->maxlen;
                    p.causal = c->causal, p.window = 1, p.window_left = c->wl, p.window_right = c->wr;
                    p.softcap = c->softcap, p.num_splits = splits[si];
                    if (ps) {
                        p.k = dpk, p.v = dpv, p.block_table = dtab, p.page_size = ps;
                        p.max_pages_per_seq = pps, p.num_pages = npages;
                        p.k_head = p.v_head = d, p.k_seq = p.v_seq = (int64_t)c->hkv * d;
                        p.k_batch = p.v_batch = page_el;
                    } else {
                        p.k = dk, p.v = dv;
                        p.k_head = p.v_head = d, p.k_seq = p.v_seq = (int64_t)c->hkv * d;
                        p.k_batch = p.v_batch = p.k_seq * c->maxlen;
                    }
                    CUDA_OK(cudaMemset(dout, 0xff, nq * 2));
                    CUDA_OK(cudaMemset(dlse, 0xff, rows * 4));
                    const tileops_status st = tileops_attention_kvcache(h, &p, dws, wsb, NULL);
                    if (tileops_built_tiers[ti].tier == 70 && dt == TILEOPS_BF16) {
                        EXPECT(st == TILEOPS_ERROR_NOT_SUPPORTED, "sm70 bf16: status %d", st);
                        continue;
                    }
                    EXPECT(st == TILEOPS_SUCCESS, "seed %llu: %s", (unsigned long long)seed,
                           tileops_last_error());
                    CUDA_OK(cudaDeviceSynchronize());
                    CUDA_OK(cudaMemcpy(out, dout, nq * 2, cudaMemcpyDeviceToHost));
                    CUDA_OK(cudaMemcpy(lse, dlse, rows * 4, cudaMemcpyDeviceToHost));
                    for (int b = 0; b < c->batch; b++)
                        for (int t = 0; t < c->sq; t++)
                            for (int hh = 0; hh < c->hq; hh++) {
                                const int64_t row = ((int64_t)b * c->hq + hh) * c->sq + t;
                                const int64_t oo = (((int64_t)b * c->sq + t) * c->hq + hh) * d;
                                const double rlse = rl[row];
                                EXPECT(isinf(rlse) ? isinf(lse[row]) && lse[row] < 0
                                                   : fabs(lse[row] - rlse) <= REF_LSE_TOL,
                                       "seed %llu sm%d %s d%d case %d page %d splits %d: lse "
                                       "(b %d t %d h %d) %g, expected %g",
                                       (unsigned long long)seed, tileops_built_tiers[ti].tier,
                                       tileops__dtype_name(dt), d, ci, ps, splits[si], b, t, hh,
                                       lse[row], rlse);
                                for (int e = 0; e < d; e++) {
                                    const double got = el(out, dt, oo + e), want = ro[row * d + e];
                                    EXPECT(fabs(got - want) <= ref_attention_tolerance(dt, want),
                                           "seed %llu sm%d %s d%d case %d page %d splits %d: o "
                                           "(b %d t %d h %d e %d) %g, expected %g",
                                           (unsigned long long)seed, tileops_built_tiers[ti].tier,
                                           tileops__dtype_name(dt), d, ci, ps, splits[si], b, t,
                                           hh, e, got, want);
                                }
                            }
                    if (si == 1) { /* 3 splits: paged equals contiguous bit for bit */
                        if (!ps) {
                            memcpy(base, out, nq * 2);
                            memcpy(base_lse, lse, rows * 4);
                        } else {
                            EXPECT(memcmp(base, out, nq * 2) == 0 &&
                                       memcmp(base_lse, lse, rows * 4) == 0,
                                   "seed %llu %s d%d case %d: page %d differs from contiguous",
                                   (unsigned long long)seed, tileops__dtype_name(dt), d, ci, ps);
                        }
                    }
                }
                if (ps) {
                    CUDA_OK(cudaFree(dpk));
                    CUDA_OK(cudaFree(dpv));
                    CUDA_OK(cudaFree(dtab));
                    free(tab);
                }
            }
            cudaFree(dq), cudaFree(dk), cudaFree(dv), cudaFree(dout), cudaFree(dlse);
            cudaFree(dws), cudaFree(dlens);
            free(q), free(k), free(v), free(ro), free(rl), free(w), free(out), free(base);
            free(lse), free(base_lse);
        }
        tileops_destroy(h);
    }
}
END_TEST

/* Appends tokens to a paged cache by slot (two padding slots skip) and compares the whole
 * pool with the host's copy. */
START_TEST(append_paged)
{
    const tileops_dtype dt = dts[_i];
    struct rng r = {rng_seed_from_clock()};
    const int tokens = 37, heads = 4, d = 128, pages = 9, ps = 16;
    const int64_t pool = (int64_t)pages * ps * heads * d, nnew = (int64_t)tokens * heads * d;
    uint16_t *kc = malloc(pool * 2), *vc = malloc(pool * 2), *kn = malloc(nnew * 2),
             *vn = malloc(nnew * 2), *got = malloc(pool * 2);
    fill_random(kc, dt, (size_t)pool, &r);
    fill_random(vc, dt, (size_t)pool, &r);
    fill_random(kn, dt, (size_t)nnew, &r);
    fill_random(vn, dt, (size_t)nnew, &r);
    int64_t slots[37];
    for (int i = 0; i < tokens; i++)
        slots[i] = (int64_t)((i * 53 + 7) % (pages * ps));
    slots[5] = -1, slots[20] = -1;
    void *dkc, *dvc, *dkn, *dvn, *ds;
    CUDA_OK(cudaMalloc(&dkc, pool * 2));
    CUDA_OK(cudaMalloc(&dvc, pool * 2));
    CUDA_OK(cudaMalloc(&dkn, nnew * 2));
    CUDA_OK(cudaMalloc(&dvn, nnew * 2));
    CUDA_OK(cudaMalloc(&ds, sizeof slots));
    upload(dkc, kc, pool * 2), upload(dvc, vc, pool * 2);
    upload(dkn, kn, nnew * 2), upload(dvn, vn, nnew * 2), upload(ds, slots, sizeof slots);
    tileops_handle h;
    ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);
    tileops_kv_append_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p, p.dtype = dt, p.tokens = tokens, p.heads_kv = heads, p.head_dim = d;
    p.k_new = dkn, p.k_new_token = heads * d, p.k_new_head = d;
    p.v_new = dvn, p.v_new_token = heads * d, p.v_new_head = d;
    p.k_cache = dkc, p.k_block = (int64_t)ps * heads * d, p.k_row = heads * d, p.k_head = d;
    p.v_cache = dvc, p.v_block = p.k_block, p.v_row = p.k_row, p.v_head = d;
    p.blocks = pages, p.block_rows = ps, p.slots = ds;
    ck_assert_msg(tileops_kv_cache_append(h, &p, NULL) == TILEOPS_SUCCESS, "%s",
                  tileops_last_error());
    CUDA_OK(cudaDeviceSynchronize());
    for (int i = 0; i < tokens; i++)
        if (slots[i] >= 0) {
            memcpy(kc + slots[i] * heads * d, kn + (int64_t)i * heads * d, (size_t)heads * d * 2);
            memcpy(vc + slots[i] * heads * d, vn + (int64_t)i * heads * d, (size_t)heads * d * 2);
        }
    CUDA_OK(cudaMemcpy(got, dkc, pool * 2, cudaMemcpyDeviceToHost));
    ck_assert_msg(memcmp(got, kc, pool * 2) == 0, "k cache differs after the append");
    CUDA_OK(cudaMemcpy(got, dvc, pool * 2, cudaMemcpyDeviceToHost));
    ck_assert_msg(memcmp(got, vc, pool * 2) == 0, "v cache differs after the append");
    tileops_destroy(h);
    cudaFree(dkc), cudaFree(dvc), cudaFree(dkn), cudaFree(dvn), cudaFree(ds);
    free(kc), free(vc), free(kn), free(vn), free(got);
}
END_TEST

/* Captured in a CUDA graph (paged cache, splits chosen by dispatch for the host bound): the
 * graph reads the lengths from the device at each replay, so after the lengths change on the
 * device the replay must equal a direct call with the new lengths, bit for bit. */
START_TEST(graph_capture)
{
    const tileops_dtype dt = TILEOPS_BF16;
    struct rng r = {rng_seed_from_clock()};
    const int batch = 4, hq = 8, hkv = 2, d = 128, ps = 16, maxlen = 2000;
    const int pps = (maxlen + ps - 1) / ps, npages = pps * batch;
    const int64_t nq = (int64_t)batch * hq * d, pool = (int64_t)npages * ps * hkv * d;
    uint16_t *q = malloc(nq * 2), *kv = malloc(pool * 2), *a = malloc(nq * 2), *b = malloc(nq * 2);
    int *tab = malloc(sizeof(int) * (size_t)npages);
    fill_random(q, dt, (size_t)nq, &r);
    fill_random(kv, dt, (size_t)pool, &r);
    for (int i = 0; i < npages; i++)
        tab[i] = npages - 1 - i;
    void *dq, *dk, *dv, *dout, *dtab, *dlens, *dws;
    CUDA_OK(cudaMalloc(&dq, nq * 2));
    CUDA_OK(cudaMalloc(&dk, pool * 2));
    CUDA_OK(cudaMalloc(&dv, pool * 2));
    CUDA_OK(cudaMalloc(&dout, nq * 2));
    CUDA_OK(cudaMalloc(&dtab, sizeof(int) * (size_t)npages));
    CUDA_OK(cudaMalloc(&dlens, sizeof(int) * batch));
    upload(dq, q, nq * 2), upload(dk, kv, pool * 2), upload(dtab, tab, sizeof(int) * (size_t)npages);
    fill_random(kv, dt, (size_t)pool, &r);
    upload(dv, kv, pool * 2);
    tileops_handle h;
    ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);
    tileops_kvcache_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p, p.dtype = dt, p.batch = batch, p.seqlen_q = 1;
    p.heads_q = hq, p.heads_kv = hkv, p.head_dim = d;
    p.q = dq, p.q_head = d, p.q_seq = (int64_t)hq * d, p.q_batch = p.q_seq;
    p.o = dout, p.o_head = d, p.o_seq = p.q_seq, p.o_batch = p.q_batch;
    p.k = dk, p.v = dv, p.block_table = dtab, p.page_size = ps;
    p.max_pages_per_seq = pps, p.num_pages = npages;
    p.k_head = p.v_head = d, p.k_seq = p.v_seq = (int64_t)hkv * d;
    p.k_batch = p.v_batch = (int64_t)ps * hkv * d;
    p.seqlens_kv = dlens, p.max_seqlen_kv = maxlen;
    size_t wsb = 0;
    ck_assert_int_eq(tileops_attention_kvcache_workspace_size(h, &p, &wsb), TILEOPS_SUCCESS);
    ck_assert_msg(wsb > 0, "a 2000-token cache of 4 sequences should split");
    CUDA_OK(cudaMalloc(&dws, wsb));
    cudaStream_t s;
    CUDA_OK(cudaStreamCreate(&s));
    int lens[4] = {maxlen, 1500, 17, 0};
    upload(dlens, lens, sizeof lens);
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    const tileops_status st = tileops_attention_kvcache(h, &p, dws, wsb, s);
    CUDA_OK(cudaStreamEndCapture(s, &g));
    ck_assert_msg(st == TILEOPS_SUCCESS, "captured call: %s", tileops_last_error());
    CUDA_OK(cudaGraphInstantiate(&ge, g, 0));
    for (int round = 0; round < 2; round++) {
        if (round) { /* new lengths on the device, the same graph */
            lens[0] = 5, lens[1] = maxlen, lens[2] = 999, lens[3] = 1;
            upload(dlens, lens, sizeof lens);
        }
        CUDA_OK(cudaMemset(dout, 0xff, nq * 2));
        CUDA_OK(cudaGraphLaunch(ge, s));
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaMemcpy(a, dout, nq * 2, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemset(dout, 0xff, nq * 2));
        ck_assert_int_eq(tileops_attention_kvcache(h, &p, dws, wsb, s), TILEOPS_SUCCESS);
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaMemcpy(b, dout, nq * 2, cudaMemcpyDeviceToHost));
        ck_assert_msg(memcmp(a, b, nq * 2) == 0, "round %d: graph replay differs from a call",
                      round);
        for (int64_t i = 0; i < nq; i++)
            ck_assert_msg(isfinite(get_elem(a, dt, (size_t)i)), "round %d: o[%lld] not finite",
                          round, (long long)i);
    }
    CUDA_OK(cudaGraphExecDestroy(ge));
    CUDA_OK(cudaGraphDestroy(g));
    CUDA_OK(cudaStreamDestroy(s));
    tileops_destroy(h);
    cudaFree(dq), cudaFree(dk), cudaFree(dv), cudaFree(dout), cudaFree(dtab), cudaFree(dlens);
    cudaFree(dws);
    free(q), free(kv), free(a), free(b), free(tab);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kvcache");
    TCase *api = tcase_create("api");
    tcase_add_test(api, api_statuses);
    suite_add_tcase(s, api);
    if (!have_cuda_device()) {
        printf("test_kvcache: GPU cases skipped: no CUDA device\n");
        return run_suite(s, CK_VERBOSE);
    }
    TCase *gpu = tcase_create("gpu");
    tcase_set_timeout(gpu, 600);
    tcase_add_loop_test(gpu, decode_every_tier, 0, 8);
    tcase_add_loop_test(gpu, append_paged, 0, 2);
    tcase_add_test(gpu, graph_capture);
    suite_add_tcase(s, gpu);
    return run_suite(s, CK_VERBOSE);
}
