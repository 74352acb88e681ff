/* test_attention.c: tileops_flash_attention on the GPU against an fp64 CPU reference of O and
 * LSE, for f16 and bf16, every head dim (64, 96, 128, 256), causal and not, on every tier of
 * this build (forced). A tier whose registry holds no kernel for the call (sm70 today; bf16
 * there always) must answer NOT_SUPPORTED with a message and write nothing; the sm80 and sm90
 * tiers must hold kernels for every dtype and head dim, so the suite cannot pass by skipping.
 *
 * Cases: the sequence lengths (1, 17, 128, 1000, 2048); seqlen_q != seqlen_kv both
 * ways (causal is bottom-right aligned: query i sees keys j <= i + seqlen_kv - seqlen_q, so
 * some rows see no key and must give O = 0 and LSE = -inf); GQA ratios 1, 4, 8 and MQA;
 * views of a fused QKV buffer [b, s, hq + 2 hkv, d] and [b, h, s, d] layouts with padded rows
 * and heads; variable-length batches with uneven and empty sequences (cu_seqlens on the device
 * and on the host); no LSE; the default scale (0: 1/sqrt(d)) and an explicit one; sliding
 * windows (left, right, both, with causal, past the keys) and softcap, dense and varlen; a
 * caller of the first struct layout (size TILEOPS_ATTENTION_PARAMS_SIZE_V1, garbage after it)
 * getting the old behaviour; one call captured in a CUDA graph and replayed.
 *
 * Inputs are fresh random values each run (the seed is in every failure message), with NaN in
 * every element of their buffers that lies outside the views (a kernel reading there would
 * show). O, LSE and guards around them are poisoned with 0xff bytes (NaN) before each call;
 * what lies outside the views (row and head padding, the guards) must stay poisoned. Query
 * rows are compared with the reference on every row of sequences up to FULL_ROWS long and on
 * a sample of longer ones (both ends and a stride); every row must still be written, finite
 * and within the range of V, and rows that see no key must be exactly O = 0, LSE = -inf.
 *
 * TILEOPS_TEST_SMALL=1 (test_small_only()) leaves out the sequences of 1000 rows and more
 * (runs under compute-sanitizer); every kernel and path still runs. Without a CUDA device it
 * prints "skipped: no CUDA device". */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"
#include "util_host.h"
#include "util_ref.h"
#include "variants.h"

#define GUARD 64       /* poisoned elements before and after O and LSE (16-byte multiples) */
#define FULL_ROWS 256  /* sequences up to this many query rows are checked on every row */
#define EDGE_ROWS 48   /* longer ones: this many rows at each end ... */
#define ROW_STEP 53    /* ... and every ROW_STEP-th row between */
#define MAX_SEQS 6
#define POISON16 0xffffu
#define BOTH (-1)      /* acase.causal: run the case causal and not */

/* ck_assert_msg records a mark point (a write to Check's pipe) on every success: per-element
 * checks use this instead. */
#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        if (!(cond))                                                                        \
            ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

static const tileops_dtype dtypes[] = {TILEOPS_F16, TILEOPS_BF16};
static const int head_dims[] = {64, 96, 128, 256};
#define NDTYPES 2
#define NDIMS 4

/* ---- the cases ----------------------------------------------------------------------- */

enum layout {
    BSHD, /* [b, s, h, d], dense (varlen: [total, h, d]) */
    BHSD, /* [b, h, s, d + 8]: rows padded by 8 elements, heads 64 elements apart past that */
    QKV   /* q, k, v: views of one [b, s, hq + 2 hkv, d] buffer; O [b, s, hq, d] rows padded by 8 */
};
static const char *const layout_names[] = {"bshd", "bhsd", "qkv"};

/* One case; every one runs for each dtype, head dim and built tier. */
struct acase {
    const char *what;
    int batch;                       /* sequences (varlen: how many of lq/lk are used) */
    int sq, skv;                     /* per sequence; ignored with varlen */
    int hq, hkv;
    int causal;                      /* 0, 1 or BOTH */
    int no_lse;                      /* lse = NULL */
    enum layout layout;
    float scale;                     /* 0: the library's default 1/sqrt(d) */
    int varlen;                      /* cu_seqlens from lq/lk (batch entries each) */
    int lq[MAX_SEQS], lk[MAX_SEQS];
    int big;                         /* left out by test_small_only() */
    int nonfinite_seq;               /* varlen: 1 + the sequence (one without queries) whose K
                                        is NaN and V +inf: its neighbours' tiles read its rows,
                                        which must reach no output (0 x inf is not 0) */
    int window, wl, wr;              /* window 1: sliding window wl, wr (-1: unbounded) */
    float softcap;                   /* > 0: scores capped */
    int size_v1;                     /* size = TILEOPS_ATTENTION_PARAMS_SIZE_V1, the later
                                        fields garbage: the call must ignore them */
};

static const struct acase cases[] = {
    /* the sequence lengths */
    {.what = "s1", .batch = 2, .sq = 1, .skv = 1, .hq = 4, .hkv = 4, .causal = BOTH},
    {.what = "s17", .batch = 3, .sq = 17, .skv = 17, .hq = 4, .hkv = 4, .causal = BOTH},
    {.what = "s128", .batch = 2, .sq = 128, .skv = 128, .hq = 4, .hkv = 4, .causal = BOTH},
    {.what = "s1000", .batch = 1, .sq = 1000, .skv = 1000, .hq = 2, .hkv = 2, .causal = BOTH,
     .big = 1},
    {.what = "s2048 gqa 2/1", .batch = 1, .sq = 2048, .skv = 2048, .hq = 2, .hkv = 1,
     .causal = BOTH, .big = 1},
    /* seqlen_q != seqlen_kv both ways; causal rows that see no key (300x100: 200 rows,
     * 1000x17: 983 rows) */
    {.what = "77x203 gqa 6/2", .batch = 2, .sq = 77, .skv = 203, .hq = 6, .hkv = 2,
     .causal = BOTH},
    {.what = "300x100", .batch = 1, .sq = 300, .skv = 100, .hq = 2, .hkv = 2, .causal = BOTH},
    {.what = "1x1000 decode", .batch = 2, .sq = 1, .skv = 1000, .hq = 4, .hkv = 4,
     .causal = BOTH},
    {.what = "1000x17", .batch = 1, .sq = 1000, .skv = 17, .hq = 2, .hkv = 2, .causal = BOTH,
     .big = 1},
    {.what = "17x0 (no keys)", .batch = 2, .sq = 17, .skv = 0, .hq = 4, .hkv = 2,
     .causal = BOTH},
    {.what = "0x64 (no queries)", .batch = 2, .sq = 0, .skv = 64, .hq = 4, .hkv = 4,
     .causal = BOTH},
    {.what = "17x2048 mqa 8/1", .batch = 1, .sq = 17, .skv = 2048, .hq = 8, .hkv = 1,
     .causal = BOTH, .big = 1},
    /* many more work items (q tiles x heads) than SMs: 544, so that a persistent grid's CTAs
     * take several items (or causal pairs of them) each, their Q buffers in turn */
    {.what = "many items s130 gqa 136/8", .batch = 2, .sq = 130, .skv = 130, .hq = 136,
     .hkv = 8, .causal = BOTH},
    /* the same with items unlike their neighbours: a window (each q tile its own first key
     * tile) and softcap, non-causal on the persistent grid (288 items); causal with more
     * queries than keys, where the first q tiles of each head see no key at all */
    {.what = "many items window softcap", .batch = 1, .sq = 300, .skv = 300, .hq = 96, .hkv = 8,
     .causal = 0, .window = 1, .wl = 100, .wr = 20, .softcap = 10.0f},
    {.what = "many items causal 400x150", .batch = 1, .sq = 400, .skv = 150, .hq = 96,
     .hkv = 8, .causal = 1},
    /* GQA ratios 1, 4 and 8 (= MQA for 8 query heads), and MQA with an odd ratio */
    {.what = "gqa 8/8", .batch = 1, .sq = 130, .skv = 190, .hq = 8, .hkv = 8, .causal = BOTH},
    {.what = "gqa 8/2", .batch = 1, .sq = 130, .skv = 190, .hq = 8, .hkv = 2, .causal = BOTH},
    {.what = "gqa 8/1 (mqa)", .batch = 1, .sq = 130, .skv = 190, .hq = 8, .hkv = 1,
     .causal = BOTH},
    {.what = "mqa 3/1", .batch = 2, .sq = 65, .skv = 65, .hq = 3, .hkv = 1, .causal = BOTH},
    /* non-contiguous strides */
    {.what = "fused qkv s128", .batch = 2, .sq = 128, .skv = 128, .hq = 4, .hkv = 4,
     .causal = BOTH, .layout = QKV},
    {.what = "fused qkv s203 gqa 8/2", .batch = 2, .sq = 203, .skv = 203, .hq = 8, .hkv = 2,
     .causal = BOTH, .layout = QKV},
    {.what = "bhsd s257 mqa 4/1", .batch = 2, .sq = 257, .skv = 257, .hq = 4, .hkv = 1,
     .causal = BOTH, .layout = BHSD},
    {.what = "bhsd 129x65 gqa 4/2 no lse", .batch = 3, .sq = 129, .skv = 65, .hq = 4,
     .hkv = 2, .causal = BOTH, .layout = BHSD, .no_lse = 1},
    /* options */
    {.what = "no lse", .batch = 2, .sq = 200, .skv = 200, .hq = 4, .hkv = 4, .causal = BOTH,
     .no_lse = 1},
    {.what = "scale 0.25", .batch = 2, .sq = 150, .skv = 170, .hq = 4, .hkv = 2,
     .causal = BOTH, .scale = 0.25f},
    /* scores tens of units apart: row maxima that jump from tile to tile, so that the Hopper
     * softmax both keeps a stale max (P up to 2^8) and rescales O */
    {.what = "scale 2 peaked", .batch = 2, .sq = 200, .skv = 700, .hq = 4, .hkv = 2,
     .causal = BOTH, .scale = 2.0f},
    /* variable-length batches: uneven lengths, empty q and kv sequences */
    {.what = "varlen mqa 3/1", .batch = 4, .hq = 3, .hkv = 1, .causal = BOTH, .varlen = 1,
     .lq = {0, 37, 130, 1}, .lk = {50, 0, 129, 200}},
    {.what = "varlen bhsd gqa 4/2", .batch = 3, .hq = 4, .hkv = 2, .causal = BOTH,
     .layout = BHSD, .varlen = 1, .lq = {200, 64, 5}, .lk = {64, 300, 0}},
    {.what = "varlen fused qkv scale 0.25 no lse", .batch = 4, .hq = 4, .hkv = 4,
     .causal = BOTH, .layout = QKV, .varlen = 1, .scale = 0.25f, .no_lse = 1,
     .lq = {128, 0, 77, 300}, .lk = {128, 0, 77, 300}},
    {.what = "varlen non-finite neighbour", .batch = 3, .hq = 4, .hkv = 2, .causal = BOTH,
     .varlen = 1, .lq = {37, 0, 50}, .lk = {40, 20, 60}, .nonfinite_seq = 2},
    /* 544 items (4 waves of CTAs up to 136 SMs): two consecutive ones a CTA, the second
     * sequence's second q tiles empty */
    {.what = "varlen many items gqa 136/8", .batch = 2, .hq = 136, .hkv = 8, .causal = BOTH,
     .varlen = 1, .lq = {250, 70}, .lk = {250, 100}},
    {.what = "varlen long gqa 4/1", .batch = 5, .hq = 4, .hkv = 1, .causal = BOTH,
     .varlen = 1, .lq = {1000, 17, 0, 513, 1}, .lk = {1000, 300, 5, 513, 2048}, .big = 1},
    /* sliding windows (causal: a window of the past only; both: right bounded by causal),
     * softcap, and a caller of the first struct layout */
    {.what = "window 300 left 50", .batch = 2, .sq = 300, .skv = 300, .hq = 4, .hkv = 2,
     .causal = BOTH, .window = 1, .wl = 50, .wr = -1},
    {.what = "window 77x203 left 20 right 10", .batch = 2, .sq = 77, .skv = 203, .hq = 6,
     .hkv = 2, .causal = BOTH, .window = 1, .wl = 20, .wr = 10},
    {.what = "window 600 left 200 right 0", .batch = 1, .sq = 600, .skv = 600, .hq = 2,
     .hkv = 1, .causal = 0, .window = 1, .wl = 200, .wr = 0},
    {.what = "window 130x300 right 3", .batch = 1, .sq = 130, .skv = 300, .hq = 4, .hkv = 4,
     .causal = 0, .window = 1, .wl = -1, .wr = 3},
    {.what = "softcap 20", .batch = 2, .sq = 150, .skv = 170, .hq = 4, .hkv = 2,
     .causal = BOTH, .softcap = 20.0f},
    {.what = "softcap 5 window 64", .batch = 1, .sq = 257, .skv = 257, .hq = 4, .hkv = 1,
     .causal = BOTH, .softcap = 5.0f, .window = 1, .wl = 64, .wr = 64, .scale = 0.25f},
    /* above 50 (bf16) the Hopper softmax keeps its running max under softcap too */
    {.what = "softcap 80 gqa 4/1", .batch = 1, .sq = 200, .skv = 333, .hq = 4, .hkv = 1,
     .causal = BOTH, .softcap = 80.0f},
    {.what = "varlen window softcap", .batch = 4, .hq = 4, .hkv = 2, .causal = BOTH,
     .varlen = 1, .lq = {0, 37, 130, 1}, .lk = {50, 0, 129, 200}, .window = 1, .wl = 16,
     .wr = 8, .softcap = 10.0f},
    {.what = "size v1", .batch = 2, .sq = 130, .skv = 190, .hq = 4, .hkv = 2, .causal = BOTH,
     .size_v1 = 1},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* ---- a problem on the host: views, inputs, reference ----------------------------------- */

/* Where a tensor's elements lie in its buffer: element (b, i, h, c) at
 * off + b * sb + i * ss + h * sh + c (varlen: off + (cu[b] + i) * ss + h * sh + c). */
struct view {
    int64_t off, sb, ss, sh;
};

/* One case at one dtype, head dim and causal flag. */
struct problem {
    const struct acase *c;
    tileops_dtype dt;
    int d, causal, varlen, nseq;
    double scale;                            /* the reference's */
    double softcap;                          /* the reference's (0: none) */
    int cq[MAX_SEQS + 1], ck[MAX_SEQS + 1];  /* each sequence's first row (also without varlen) */
    int max_q, max_k;
    int64_t total_q, total_k;
    struct view q, k, v, o;
    int64_t n_in[3];                         /* elements of the q, k, v buffers (QKV: one) */
    int64_t n_o, n_lse;
    uint16_t *in[3];                         /* host inputs; QKV: in[0] only */
    double *ref_o, *ref_lse;                 /* [total_q][hq][d], [total_q][hq] */
    unsigned char *checked;                  /* [total_q]: row compared with the reference */
    double v_max;                            /* largest |v| */
    uint64_t seed;
    char what[200];
};

/* A random element of dt: random sign and mantissa bits, magnitude in [2^lo, 2^(lo+7)). */
static uint16_t rand_elem(tileops_dtype dt, int lo, struct rng *r)
{
    const uint64_t x = rng_next(r);
    const uint32_t e = (uint32_t)(lo + (int)((x >> 32) % 7));
    if (dt == TILEOPS_F16)
        return (uint16_t)((uint32_t)(x >> 63) << 15 | (15 + e) << 10 | (uint32_t)(x & 0x3ff));
    return (uint16_t)((uint32_t)(x >> 63) << 15 | (127 + e) << 7 | (uint32_t)(x & 0x7f));
}

/* Keys query row i of a sequence of lq rows sees among lk: [*lo, *hi), bottom-right aligned
 * causal and window (row i at position i + lk - lq); returns how many. */
static int visible(const struct problem *p, int64_t i, int lq, int lk, int *lo, int *hi)
{
    const struct acase *c = p->c;
    const int64_t at = i + lk - lq;
    const int wl = c->window && !c->size_v1 ? c->wl : -1;
    int wr = c->window && !c->size_v1 ? c->wr : -1;
    if (p->causal)
        wr = 0;
    int64_t a = wl >= 0 ? at - wl : 0, e = wr >= 0 ? at + wr + 1 : lk;
    a = a < 0 ? 0 : a > lk ? lk : a;
    e = e < 0 ? 0 : e > lk ? lk : e;
    *lo = (int)a, *hi = (int)(e > a ? e : a);
    return *hi - *lo;
}

/* Is row i of a sequence of lq rows compared with the reference? */
static int row_checked(int64_t i, int lq)
{
    return lq <= FULL_ROWS || i < EDGE_ROWS || i >= lq - EDGE_ROWS || i % ROW_STEP == 0;
}

/* Element (b, i, h, 0) of a view; kv picks the key side's sequence offsets. */
static int64_t pos(const struct problem *p, const struct view *v, int kv, int b, int64_t i,
                   int h)
{
    if (p->varlen)
        return v->off + ((kv ? p->ck : p->cq)[b] + i) * v->ss + (int64_t)h * v->sh;
    return v->off + b * v->sb + i * v->ss + (int64_t)h * v->sh;
}

/* The view of a tensor of `heads` heads over `rows` rows per sequence slot (varlen: the
 * packed total) in the BSHD or BHSD layout; returns its buffer's elements. */
static int64_t layout_view(enum layout l, int heads, int d, int64_t rows, int slots,
                           struct view *v)
{
    memset(v, 0, sizeof *v);
    if (l == BHSD) {
        v->ss = d + 8;
        v->sh = rows * v->ss + 64;
        v->sb = heads * v->sh;
    } else {
        v->sh = d;
        v->ss = (int64_t)heads * d;
        v->sb = rows * v->ss;
    }
    return slots * v->sb;
}

/* The views and buffer sizes of p's case. */
static void make_views(struct problem *p)
{
    const struct acase *c = p->c;
    const int d = p->d, slots = p->varlen ? 1 : p->nseq;
    const int64_t rq = p->varlen ? p->total_q : c->sq, rk = p->varlen ? p->total_k : c->skv;
    if (c->layout == QKV) {
        ck_assert_msg(rq == rk, "%s: a fused QKV case needs seqlen_q == seqlen_kv", c->what);
        const int64_t w = (int64_t)(c->hq + 2 * c->hkv) * d;
        p->q = (struct view){0, rq * w, w, d};
        p->k = (struct view){(int64_t)c->hq * d, rq * w, w, d};
        p->v = (struct view){(int64_t)(c->hq + c->hkv) * d, rq * w, w, d};
        p->n_in[0] = slots * rq * w;
        const int64_t os = (int64_t)c->hq * d + 8;
        p->o = (struct view){0, rq * os, os, d};
        p->n_o = slots * rq * os;
    } else {
        p->n_in[0] = layout_view(c->layout, c->hq, d, rq, slots, &p->q);
        p->n_in[1] = layout_view(c->layout, c->hkv, d, rk, slots, &p->k);
        p->n_in[2] = layout_view(c->layout, c->hkv, d, rk, slots, &p->v);
        p->n_o = layout_view(c->layout, c->hq, d, rq, slots, &p->o);
    }
    for (int t = 0; t < 3; t++) /* 8 spare elements (NaN): an empty tensor still has a buffer */
        p->n_in[t] += 8;
    if (p->varlen) /* the batch strides are unused */
        p->q.sb = p->k.sb = p->v.sb = p->o.sb = 0;
    p->n_lse = (int64_t)c->hq * (p->varlen ? p->total_q : (int64_t)p->nseq * c->sq);
}

/* Host inputs: every element of the buffers NaN, then the views' elements random (q and k
 * in [2^-5, 4), v in [2^-6, 2) in magnitude: softmax rows neither flat nor one-hot). */
static void make_inputs(struct problem *p)
{
    const struct acase *c = p->c;
    struct rng r = {rng_seed_from_clock() | 1};
    p->seed = r.s;
    const int nbuf = c->layout == QKV ? 1 : 3;
    for (int t = 0; t < nbuf; t++) {
        p->in[t] = malloc((size_t)p->n_in[t] * 2);
        ck_assert_ptr_nonnull(p->in[t]);
        memset(p->in[t], 0xff, (size_t)p->n_in[t] * 2);
    }
    uint16_t *qb = p->in[0], *kb = p->in[nbuf == 1 ? 0 : 1], *vb = p->in[nbuf == 1 ? 0 : 2];
    p->v_max = 0;
    for (int b = 0; b < p->nseq; b++) {
        for (int64_t i = 0; i < p->cq[b + 1] - p->cq[b]; i++)
            for (int h = 0; h < c->hq; h++)
                for (int e = 0; e < p->d; e++)
                    qb[pos(p, &p->q, 0, b, i, h) + e] = rand_elem(p->dt, -5, &r);
        for (int64_t j = 0; j < p->ck[b + 1] - p->ck[b]; j++)
            for (int h = 0; h < c->hkv; h++)
                for (int e = 0; e < p->d; e++) {
                    const int64_t at = pos(p, &p->k, 1, b, j, h) + e;
                    const int64_t av = pos(p, &p->v, 1, b, j, h) + e;
                    if (b + 1 == c->nonfinite_seq) {
                        ck_assert(c->varlen && p->cq[b + 1] == p->cq[b]); /* no output reads it */
                        kb[at] = 0xffff; /* NaN in f16 and bf16 */
                        vb[av] = p->dt == TILEOPS_BF16 ? 0x7f80 : 0x7c00; /* +inf */
                        continue;
                    }
                    kb[at] = rand_elem(p->dt, -5, &r);
                    vb[av] = rand_elem(p->dt, -6, &r);
                    const double x = fabs(get_elem(vb, p->dt, (size_t)av));
                    p->v_max = x > p->v_max ? x : p->v_max;
                }
    }
}

/* The dot product of n (a multiple of 4) doubles, in four chains. */
static double dot(const double *a, const double *b, int n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int e = 0; e < n; e += 4) {
        s0 += a[e] * b[e];
        s1 += a[e + 1] * b[e + 1];
        s2 += a[e + 2] * b[e + 2];
        s3 += a[e + 3] * b[e + 3];
    }
    return (s0 + s1) + (s2 + s3);
}

/* fp64 O and LSE of every checked row (rows that see no key: O = 0, LSE = -inf). */
static void reference(struct problem *p)
{
    const struct acase *c = p->c;
    const int d = p->d, ratio = c->hq / c->hkv;
    const int nbuf = c->layout == QKV ? 1 : 3;
    const uint16_t *qb = p->in[0], *kb = p->in[nbuf == 1 ? 0 : 1], *vb = p->in[nbuf == 1 ? 0 : 2];
    p->ref_o = calloc((size_t)(p->total_q * c->hq * d) + 1, sizeof(double));
    p->ref_lse = calloc((size_t)(p->total_q * c->hq) + 1, sizeof(double));
    p->checked = calloc((size_t)p->total_q + 1, 1);
    double *kd = malloc(sizeof(double) * ((size_t)p->max_k * d + 1));
    double *vd = malloc(sizeof(double) * ((size_t)p->max_k * d + 1));
    double *qd = malloc(sizeof(double) * (size_t)d);
    double *sc = malloc(sizeof(double) * ((size_t)p->max_k + 1));
    ck_assert(p->ref_o && p->ref_lse && p->checked && kd && vd && qd && sc);
    for (int b = 0; b < p->nseq; b++) {
        const int lq = p->cq[b + 1] - p->cq[b], lk = p->ck[b + 1] - p->ck[b];
        for (int64_t i = 0; i < lq; i++)
            p->checked[p->cq[b] + i] = (unsigned char)row_checked(i, lq);
        for (int hk = 0; hk < c->hkv; hk++) {
            for (int64_t j = 0; j < lk; j++)
                for (int e = 0; e < d; e++) {
                    kd[j * d + e] = get_elem(kb, p->dt, (size_t)(pos(p, &p->k, 1, b, j, hk) + e));
                    vd[j * d + e] = get_elem(vb, p->dt, (size_t)(pos(p, &p->v, 1, b, j, hk) + e));
                }
            for (int h = hk * ratio; h < (hk + 1) * ratio; h++)
                for (int64_t i = 0; i < lq; i++) {
                    const int64_t row = p->cq[b] + i;
                    int lo, hi;
                    const int n = visible(p, i, lq, lk, &lo, &hi);
                    double *o = p->ref_o + (row * c->hq + h) * d;
                    if (n == 0) {
                        p->ref_lse[row * c->hq + h] = -INFINITY;
                        continue;
                    }
                    if (!p->checked[row])
                        continue;
                    for (int e = 0; e < d; e++)
                        qd[e] = get_elem(qb, p->dt, (size_t)(pos(p, &p->q, 0, b, i, h) + e));
                    double mx = -INFINITY, sum = 0;
                    for (int j = lo; j < hi; j++) {
                        sc[j] = p->scale * dot(qd, kd + (int64_t)j * d, d);
                        if (p->softcap > 0)
                            sc[j] = p->softcap * tanh(sc[j] / p->softcap);
                        mx = sc[j] > mx ? sc[j] : mx;
                    }
                    for (int j = lo; j < hi; j++) {
                        const double w = exp(sc[j] - mx);
                        sum += w;
                        for (int e = 0; e < d; e++)
                            o[e] += w * vd[(int64_t)j * d + e];
                    }
                    for (int e = 0; e < d; e++)
                        o[e] /= sum;
                    p->ref_lse[row * c->hq + h] = mx + log(sum);
                }
        }
    }
    free(kd);
    free(vd);
    free(qd);
    free(sc);
}

/* Builds the problem of case c at dtype dt, head dim d, causal or not: inputs and reference. */
static void make_problem(struct problem *p, const struct acase *c, tileops_dtype dt, int d,
                         int causal)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->dt = dt;
    p->d = d;
    p->causal = causal;
    p->varlen = c->varlen;
    p->nseq = c->batch;
    ck_assert(p->nseq >= 1 && p->nseq <= MAX_SEQS && c->hq % c->hkv == 0);
    for (int b = 0; b < p->nseq; b++) {
        const int lq = c->varlen ? c->lq[b] : c->sq, lk = c->varlen ? c->lk[b] : c->skv;
        p->cq[b + 1] = p->cq[b] + lq;
        p->ck[b + 1] = p->ck[b] + lk;
        p->max_q = lq > p->max_q ? lq : p->max_q;
        p->max_k = lk > p->max_k ? lk : p->max_k;
    }
    p->total_q = p->cq[p->nseq];
    p->total_k = p->ck[p->nseq];
    p->scale = c->scale != 0.0f ? (double)c->scale : 1.0 / sqrt((double)d);
    p->softcap = c->size_v1 ? 0.0 : (double)c->softcap;
    make_views(p);
    make_inputs(p);
    reference(p);
    snprintf(p->what, sizeof p->what, "%s %s d%d %s%s (seed %" PRIu64 ")", c->what,
             tileops__dtype_name(dt), d, layout_names[c->layout], causal ? " causal" : "",
             p->seed);
}

static void free_problem(struct problem *p)
{
    for (int t = 0; t < 3; t++)
        free(p->in[t]);
    free(p->ref_o);
    free(p->ref_lse);
    free(p->checked);
}

/* ---- the device side ----------------------------------------------------------------------- */

struct device {
    uint16_t *in[3];     /* q, k, v buffers (QKV: in[0] only) */
    uint16_t *o_alloc;   /* GUARD + n_o + GUARD elements */
    float *lse_alloc;    /* GUARD + n_lse + GUARD, or NULL */
    int *cq, *ck;        /* cu_seqlens (varlen) */
};

static void to_device(const struct problem *p, struct device *dv)
{
    memset(dv, 0, sizeof *dv);
    const int nbuf = p->c->layout == QKV ? 1 : 3;
    for (int t = 0; t < nbuf; t++) {
        CUDA_OK(cudaMalloc((void **)&dv->in[t], (size_t)p->n_in[t] * 2));
        upload(dv->in[t], p->in[t], (size_t)p->n_in[t] * 2);
    }
    CUDA_OK(cudaMalloc((void **)&dv->o_alloc, (size_t)(p->n_o + 2 * GUARD) * 2));
    if (!p->c->no_lse)
        CUDA_OK(cudaMalloc((void **)&dv->lse_alloc, (size_t)(p->n_lse + 2 * GUARD) * 4));
    if (p->varlen) {
        const size_t bytes = sizeof(int) * (size_t)(p->nseq + 1);
        CUDA_OK(cudaMalloc((void **)&dv->cq, bytes));
        CUDA_OK(cudaMalloc((void **)&dv->ck, bytes));
        upload(dv->cq, p->cq, bytes);
        upload(dv->ck, p->ck, bytes);
    }
}

static void free_device(struct device *dv)
{
    for (int t = 0; t < 3; t++)
        CUDA_OK(cudaFree(dv->in[t]));
    CUDA_OK(cudaFree(dv->o_alloc));
    CUDA_OK(cudaFree(dv->lse_alloc));
    CUDA_OK(cudaFree(dv->cq));
    CUDA_OK(cudaFree(dv->ck));
}

/* Poisons O, LSE and their guards (0xff bytes: NaN) on the stream. */
static void poison(const struct problem *p, const struct device *dv, cudaStream_t s)
{
    CUDA_OK(cudaMemsetAsync(dv->o_alloc, 0xff, (size_t)(p->n_o + 2 * GUARD) * 2, s));
    if (dv->lse_alloc)
        CUDA_OK(cudaMemsetAsync(dv->lse_alloc, 0xff, (size_t)(p->n_lse + 2 * GUARD) * 4, s));
}

/* The call's parameters for p on dv. */
static tileops_attention_params params(const struct problem *p, const struct device *dv)
{
    const struct acase *c = p->c;
    const int qkv = c->layout == QKV;
    tileops_attention_params a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.dtype = p->dt;
    a.batch = p->nseq;
    a.seqlen_q = p->varlen ? p->max_q : c->sq;
    a.seqlen_kv = p->varlen ? p->max_k : c->skv;
    a.heads_q = c->hq;
    a.heads_kv = c->hkv;
    a.head_dim = p->d;
    a.q = dv->in[0] + p->q.off;
    a.q_batch = p->q.sb, a.q_seq = p->q.ss, a.q_head = p->q.sh;
    a.k = dv->in[qkv ? 0 : 1] + p->k.off;
    a.k_batch = p->k.sb, a.k_seq = p->k.ss, a.k_head = p->k.sh;
    a.v = dv->in[qkv ? 0 : 2] + p->v.off;
    a.v_batch = p->v.sb, a.v_seq = p->v.ss, a.v_head = p->v.sh;
    a.o = dv->o_alloc + GUARD + p->o.off;
    a.o_batch = p->o.sb, a.o_seq = p->o.ss, a.o_head = p->o.sh;
    a.lse = dv->lse_alloc ? dv->lse_alloc + GUARD : NULL;
    a.scale = c->scale;
    a.causal = p->causal;
    a.window = c->window, a.window_left = c->wl, a.window_right = c->wr;
    a.softcap = c->softcap;
    if (c->size_v1) { /* past the first layout: garbage the call must not read */
        a.size = TILEOPS_ATTENTION_PARAMS_SIZE_V1;
        a.window = 1, a.window_left = 0, a.window_right = 0, a.softcap = 1.0f;
    }
    if (p->varlen) {
        a.cu_seqlens_q = dv->cq;
        a.cu_seqlens_kv = dv->ck;
        a.cu_seqlens_q_host = p->cq;
        a.cu_seqlens_kv_host = p->ck;
    }
    return a;
}

/* Index of row i of sequence b, head h in the LSE output. */
static int64_t lse_index(const struct problem *p, int b, int64_t i, int h)
{
    if (p->varlen)
        return (int64_t)h * p->total_q + p->cq[b] + i;
    return ((int64_t)b * p->c->hq + h) * p->c->sq + i;
}


/* Copies O and LSE (with their guards) back into fresh host buffers. */
static void fetch_outputs(const struct problem *p, const struct device *dv, uint16_t **o,
                          float **lse)
{
    const size_t no = (size_t)(p->n_o + 2 * GUARD), nl = (size_t)(p->n_lse + 2 * GUARD);
    *o = malloc(no * 2);
    *lse = malloc(nl * 4);
    ck_assert(*o && *lse);
    CUDA_OK(cudaMemcpy(*o, dv->o_alloc, no * 2, cudaMemcpyDeviceToHost));
    if (dv->lse_alloc)
        CUDA_OK(cudaMemcpy(*lse, dv->lse_alloc, nl * 4, cudaMemcpyDeviceToHost));
}

/* After a call that failed: O, LSE and their guards all still poisoned. */
static void check_untouched(const struct problem *p, const struct device *dv, const char *who)
{
    uint16_t *o;
    float *lse;
    fetch_outputs(p, dv, &o, &lse);
    for (int64_t e = 0; e < p->n_o + 2 * GUARD; e++)
        EXPECT(o[e] == POISON16, "%s, %s: O written by a call that failed", p->what, who);
    for (int64_t e = 0; dv->lse_alloc && e < p->n_lse + 2 * GUARD; e++) {
        uint32_t u;
        memcpy(&u, &lse[e], 4);
        EXPECT(u == 0xffffffffu, "%s, %s: LSE written by a call that failed", p->what, who);
    }
    free(o);
    free(lse);
}

/* Copies O and LSE back and checks them: the checked rows against the reference, every row
 * written and within the range of V, rows that see no key exactly 0 / -inf, everything
 * outside the views (row and head padding, guards) still poisoned. */
static void check_outputs(const struct problem *p, const struct device *dv, const char *who)
{
    const struct acase *c = p->c;
    const int d = p->d;
    const size_t no = (size_t)(p->n_o + 2 * GUARD), nl = (size_t)(p->n_lse + 2 * GUARD);
    uint16_t *o;
    float *lse;
    fetch_outputs(p, dv, &o, &lse);
    unsigned char *mine = calloc(no, 1); /* elements of O's view */
    ck_assert_ptr_nonnull(mine);
    const double o_max = p->v_max * (1 + 2 * dtype_rel_bound(p->dt)) + 1e-6;
    /* softcap's tanh.approx moves a score by up to softcap * 2^-10.99: the softmax weights by a
     * factor within exp(±2 of that), O by up to 4 of it times max |V|, LSE by 1 */
    const double cap_slack = p->softcap * 4.9e-4;
    for (int b = 0; b < p->nseq; b++) {
        const int lq = p->cq[b + 1] - p->cq[b], lk = p->ck[b + 1] - p->ck[b];
        for (int64_t i = 0; i < lq; i++) {
            const int64_t row = p->cq[b] + i;
            int lo, hi;
            const int none = visible(p, i, lq, lk, &lo, &hi) == 0;
            for (int h = 0; h < c->hq; h++) {
                const int64_t at = GUARD + pos(p, &p->o, 0, b, i, h);
                const double *ref = p->ref_o + (row * c->hq + h) * d;
                for (int e = 0; e < d; e++) {
                    mine[at + e] = 1;
                    const double got = get_elem(o, p->dt, (size_t)(at + e));
                    if (none)
                        EXPECT(got == 0.0, "%s, %s: sequence %d row %" PRId64 " head %d sees "
                               "no key: O[%d] = %g, not 0", p->what, who, b, i, h, e, got);
                    else if (p->checked[row])
                        EXPECT(fabs(got - ref[e]) <= ref_attention_tolerance(p->dt, ref[e]) +
                                                         cap_slack * 4.0 * p->v_max,
                               "%s, %s: sequence %d row %" PRId64 " head %d: O[%d] = %.6g, "
                               "reference %.6g",
                               p->what, who, b, i, h, e, got, ref[e]);
                    else
                        EXPECT(fabs(got) <= o_max, "%s, %s: sequence %d row %" PRId64 " head "
                               "%d: O[%d] = %g, outside the range of V (%g)", p->what, who, b,
                               i, h, e, got, p->v_max);
                }
                if (!dv->lse_alloc)
                    continue;
                const double got = lse[GUARD + lse_index(p, b, i, h)];
                const double want = p->ref_lse[row * c->hq + h];
                if (none)
                    EXPECT(got == -INFINITY, "%s, %s: sequence %d row %" PRId64 " head %d sees "
                           "no key: LSE = %g, not -inf", p->what, who, b, i, h, got);
                else if (p->checked[row])
                    EXPECT(fabs(got - want) <= REF_LSE_TOL + cap_slack, "%s, %s: sequence %d row %" PRId64
                           " head %d: LSE = %.7g, reference %.7g", p->what, who, b, i, h, got,
                           want);
                else
                    EXPECT(isfinite(got), "%s, %s: sequence %d row %" PRId64 " head %d: LSE = "
                           "%g", p->what, who, b, i, h, got);
            }
        }
    }
    /* the padding inside the view's span and the guards around it */
    for (size_t e = 0; e < no; e++)
        EXPECT(mine[e] || o[e] == POISON16, "%s, %s: O element %" PRId64 " (outside the view) "
               "written", p->what, who, (int64_t)e - GUARD);
    for (size_t e = 0; dv->lse_alloc && e < nl; e++) {
        if (e >= GUARD && e < (size_t)p->n_lse + GUARD)
            continue;
        uint32_t u;
        memcpy(&u, &lse[e], 4);
        EXPECT(u == 0xffffffffu, "%s, %s: LSE guard element %" PRId64 " written", p->what, who,
               (int64_t)e - GUARD);
    }
    free(o);
    free(lse);
    free(mine);
}

/* ---- tiers ----------------------------------------------------------------------------- */

/* The registry's variant code of head dim d. */
static int head_dim_variant(int d)
{
    return d == 64    ? TILEOPS_FLASH_ATTENTION_HEAD_DIM_64
           : d == 96  ? TILEOPS_FLASH_ATTENTION_HEAD_DIM_96
           : d == 128 ? TILEOPS_FLASH_ATTENTION_HEAD_DIM_128
                      : TILEOPS_FLASH_ATTENTION_HEAD_DIM_256;
}

/* Does built tier ti hold a flash-attention kernel for dt and head dim d? */
static int tier_serves(int ti, tileops_dtype dt, int d)
{
    const struct tileops_tier_table *t = &tileops_built_tiers[ti];
    for (int i = 0; t->count && i < *t->count; i++) {
        const struct tileops_kernel *k = &t->kernels[i];
        if (k->op == TILEOPS_OP_FLASH_ATTENTION && k->dtype == (int)dt &&
            k->variant == head_dim_variant(d))
            return 1;
    }
    return 0;
}

/* Handles on device 0 forced to each built tier; NULL for a tier above the device's (such a
 * tier is not tested here). Asserts the registry's promises: sm80 and sm90 serve every
 * dtype and head dim; sm70 (wmma: fp16 only) never serves bf16. */
static void open_tiers(tileops_handle *hs)
{
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        const int tier = tileops_built_tiers[ti].tier;
        for (int di = 0; di < NDTYPES; di++)
            for (int k = 0; k < NDIMS; k++) {
                const int s = tier_serves(ti, dtypes[di], head_dims[k]);
                if (tier >= 80)
                    ck_assert_msg(s, "the sm%d tier has no flash-attention kernel for %s d%d",
                                  tier, tileops__dtype_name(dtypes[di]), head_dims[k]);
                else if (dtypes[di] == TILEOPS_BF16)
                    ck_assert_msg(!s, "the sm%d tier holds a bf16 flash-attention kernel", tier);
            }
        ck_assert_msg(tileops_create(&hs[ti], 0) == TILEOPS_SUCCESS, "%s", tileops_last_error());
        const tileops_status st = tileops_set_tier(hs[ti], (tileops_tier)tier);
        if (st == TILEOPS_ERROR_NOT_SUPPORTED) { /* above this device */
            tileops_destroy(hs[ti]);
            hs[ti] = NULL;
            continue;
        }
        ck_assert_msg(st == TILEOPS_SUCCESS, "%s", tileops_last_error());
    }
    CUDA_OK(cudaSetDevice(0));
}

static void close_tiers(tileops_handle *hs)
{
    for (int ti = 0; ti < tileops_built_tier_count; ti++)
        tileops_destroy(hs[ti]);
}

/* One call of p on tier ti through h, checked: a tier that serves the call must succeed and
 * be right; one that does not must say NOT_SUPPORTED, with a message, and write nothing.
 * Returns 1 if the call ran. */
static int run_on_tier(const struct problem *p, const struct device *dv, tileops_handle h,
                       int ti, cudaStream_t s)
{
    const int tier = tileops_built_tiers[ti].tier;
    const int serves = tier_serves(ti, p->dt, p->d);
    poison(p, dv, s);
    const tileops_attention_params a = params(p, dv);
    const tileops_status st = tileops_flash_attention(h, &a, s);
    char who[160];
    if (!serves) {
        snprintf(who, sizeof who, "tier sm%d (no kernel)", tier);
        ck_assert_msg(st == TILEOPS_ERROR_NOT_SUPPORTED, "%s, %s: status %d (%s), not "
                      "NOT_SUPPORTED", p->what, who, st, tileops_last_error());
        ck_assert_msg(tileops_last_error()[0] != '\0', "%s, %s: NOT_SUPPORTED without a message",
                      p->what, who);
        CUDA_OK(cudaStreamSynchronize(s));
        check_untouched(p, dv, who);
        return 0;
    }
    ck_assert_msg(st == TILEOPS_SUCCESS, "%s, tier sm%d: status %d: %s", p->what, tier, st,
                  tileops_last_error());
    snprintf(who, sizeof who, "tier sm%d, kernel %s", tier, tileops_last_kernel(h));
    if (getenv("TILEOPS_TEST_TRACE"))
        fprintf(stderr, "test_attention: %s, %s...\n", p->what, who);
    CUDA_OK(cudaStreamSynchronize(s));
    CUDA_OK(cudaGetLastError());
    check_outputs(p, dv, who);
    return 1;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the tests ----------------------------------------------------------------------------- */

/* Every case, causal and not, on every built tier, for one dtype and head dim
 * (_i = dtype index * NDIMS + head dim index). TILEOPS_TEST_CASE=name runs only that case;
 * TILEOPS_TEST_TRACE=1 names each kernel before waiting for it. */
START_TEST(cases_every_tier)
{
    const tileops_dtype dt = dtypes[_i / NDIMS];
    const int d = head_dims[_i % NDIMS];
    const char *only = getenv("TILEOPS_TEST_CASE");
    const double t0 = seconds();
    tileops_handle hs[8] = {0};
    ck_assert(tileops_built_tier_count <= 8);
    open_tiers(hs);
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int calls = 0;
    for (int ci = 0; ci < NCASES; ci++) {
        const struct acase *c = &cases[ci];
        if ((c->big && test_small_only()) || (only && strcmp(only, c->what) != 0))
            continue;
        for (int causal = c->causal == BOTH ? 0 : c->causal;
             causal <= (c->causal == BOTH ? 1 : c->causal); causal++) {
            struct problem p;
            make_problem(&p, c, dt, d, causal);
            struct device dv;
            to_device(&p, &dv);
            int ran = 0;
            for (int ti = 0; ti < tileops_built_tier_count; ti++)
                if (hs[ti])
                    ran += run_on_tier(&p, &dv, hs[ti], ti, s);
            ck_assert_msg(ran > 0, "%s: no tier of this build ran it", p.what);
            calls += ran;
            free_device(&dv);
            free_problem(&p);
        }
    }
    CUDA_OK(cudaStreamDestroy(s));
    close_tiers(hs);
    fprintf(stderr, "test_attention: %s d%d: %d checked calls, %.1f s\n",
            tileops__dtype_name(dt), d, calls, seconds() - t0);
}
END_TEST

/* Every instance of the registry, not only those dispatch picks on this GPU (others are
 * picked on other GPUs, shapes or alignments): each one pinned (tileops_set_kernel) on a few
 * ragged, causal, GQA, strided and varlen cases, causal and not. _i as for cases_every_tier;
 * TILEOPS_TEST_INSTANCE (test_instance_selected) narrows them. */
static const char *const instance_cases[] = {"s17", "77x203 gqa 6/2", "300x100",
                                             "1x1000 decode", "bhsd 129x65 gqa 4/2 no lse",
                                             "varlen mqa 3/1", "17x0 (no keys)",
                                             "varlen non-finite neighbour",
                                             "window 77x203 left 20 right 10",
                                             "many items s130 gqa 136/8",
                                             "many items window softcap",
                                             "many items causal 400x150",
                                             "varlen many items gqa 136/8",
                                             "softcap 5 window 64", "softcap 80 gqa 4/1",
                                             "varlen window softcap", "scale 2 peaked"};

START_TEST(every_instance)
{
    const tileops_dtype dt = dtypes[_i / NDIMS];
    const int d = head_dims[_i % NDIMS];
    tileops_handle hs[8] = {0};
    open_tiers(hs);
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int instances = 0;
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        const struct tileops_tier_table *t = &tileops_built_tiers[ti];
        for (int ki = 0; hs[ti] && ki < *t->count; ki++) {
            const struct tileops_kernel *k = &t->kernels[ki];
            if (k->op != TILEOPS_OP_FLASH_ATTENTION || k->dtype != (int)dt ||
                k->variant != head_dim_variant(d) || k->smem > hs[ti]->dev.smem_optin)
                continue; /* (an instance for GPUs with more shared memory than this one) */
            if (!test_instance_selected(k->name))
                continue;
            ck_assert_int_eq(tileops_set_kernel(hs[ti], k->name), TILEOPS_SUCCESS);
            instances++;
            for (int ci = 0; ci < NCASES; ci++) {
                const struct acase *c = &cases[ci];
                int listed = 0;
                for (size_t j = 0; j < sizeof instance_cases / sizeof *instance_cases; j++)
                    listed |= !strcmp(c->what, instance_cases[j]);
                for (int causal = 0; listed && causal <= 1; causal++) {
                    struct problem p;
                    make_problem(&p, c, dt, d, causal);
                    struct device dv;
                    to_device(&p, &dv);
                    ck_assert_msg(run_on_tier(&p, &dv, hs[ti], ti, s), "%s: %s did not run",
                                  p.what, k->name);
                    ck_assert_str_eq(tileops_last_kernel(hs[ti]), k->name);
                    free_device(&dv);
                    free_problem(&p);
                }
            }
            ck_assert_int_eq(tileops_set_kernel(hs[ti], NULL), TILEOPS_SUCCESS);
        }
    }
    CUDA_OK(cudaStreamDestroy(s));
    close_tiers(hs);
    fprintf(stderr, "test_attention: %s d%d: %d instances pinned and checked\n",
            tileops__dtype_name(dt), d, instances);
}
END_TEST

/* One call captured in a CUDA graph on a fresh handle (GQA, causal, LSE): the capture must
 * hold kernels only (no allocation, copy or memset), and two replays (outputs re-poisoned
 * between them) must both be right. _i = dtype index. */
START_TEST(graph_capture)
{
    static const struct acase gc = {.what = "graph 300x300 gqa 4/2", .batch = 2, .sq = 300,
                                    .skv = 300, .hq = 4, .hkv = 2, .causal = 1};
    const tileops_dtype dt = dtypes[_i];
    struct problem p;
    make_problem(&p, &gc, dt, 128, 1);
    struct device dv;
    to_device(&p, &dv);
    tileops_handle h;
    ck_assert_msg(tileops_create(&h, 0) == TILEOPS_SUCCESS, "%s", tileops_last_error());
    CUDA_OK(cudaSetDevice(0));
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const tileops_attention_params a = params(&p, &dv);
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    const tileops_status st = tileops_flash_attention(h, &a, s);
    CUDA_OK(cudaStreamEndCapture(s, &graph));
    ck_assert_msg(st == TILEOPS_SUCCESS, "%s: captured call: status %d: %s", p.what, st,
                  tileops_last_error());
    size_t n = 0;
    CUDA_OK(cudaGraphGetNodes(graph, NULL, &n));
    ck_assert_msg(n >= 1 && n <= 8, "%s: the capture holds %zu nodes", p.what, n);
    cudaGraphNode_t nodes[8];
    CUDA_OK(cudaGraphGetNodes(graph, nodes, &n));
    for (size_t i = 0; i < n; i++) {
        enum cudaGraphNodeType type;
        CUDA_OK(cudaGraphNodeGetType(nodes[i], &type));
        ck_assert_msg(type == cudaGraphNodeTypeKernel, "%s: captured node %zu is of type %d, "
                      "not a kernel", p.what, i, (int)type);
    }
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    char who[160];
    snprintf(who, sizeof who, "graph replay, kernel %s", tileops_last_kernel(h));
    for (int rep = 0; rep < 2; rep++) {
        poison(&p, &dv, s);
        CUDA_OK(cudaGraphLaunch(exec, s));
        CUDA_OK(cudaStreamSynchronize(s));
        check_outputs(&p, &dv, who);
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    CUDA_OK(cudaStreamDestroy(s));
    tileops_destroy(h);
    free_device(&dv);
    free_problem(&p);
}
END_TEST

int main(void)
{
    if (!have_cuda_device()) {
        printf("test_attention: skipped: no CUDA device\n");
        return EXIT_SUCCESS;
    }
    Suite *s = suite_create("attention");
    TCase *tc = tcase_create("cases");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, cases_every_tier, 0, NDTYPES * NDIMS);
    suite_add_tcase(s, tc);
    TCase *inst = tcase_create("instances");
    tcase_set_timeout(inst, 600);
    tcase_add_loop_test(inst, every_instance, 0, NDTYPES * NDIMS);
    suite_add_tcase(s, inst);
    TCase *graph = tcase_create("graph");
    tcase_set_timeout(graph, 120);
    tcase_add_loop_test(graph, graph_capture, 0, NDTYPES);
    suite_add_tcase(s, graph);
    return run_suite(s, CK_VERBOSE);
}
