/* test_soak.c: a soak of random legal calls of every operator until the time is up:
 * vector_add (f32, f16, bf16; any n, misaligned operands, in place), softmax (plain and log,
 * f32, f16, bf16; short and split rows with their workspace, odd lengths, strided and
 * misaligned views, in place), gemm (f16, bf16, both B layouts, every epilogue, with and
 * without C, C aliasing D, small M with its split-K workspace, whole or in part, fast and
 * element-wise layouts) and flash attention (f16, bf16, head dims 64/96/128/256, GQA and MQA,
 * causal or not, seqlen_q != seqlen_kv, empty sequences, with and without LSE, BSHD and BHSD
 * views), each launched on one of a few streams (the legacy default stream among them), up
 * to NSLOTS calls in flight.
 *
 * Inputs are views into pools of random values uploaded once (the call's offsets pick fresh
 * data); outputs, workspaces and guards are poisoned (0xff: NaN) before every call. Every call
 * must return SUCCESS (its arguments are legal by construction) with no CUDA error; every
 * output's padding and guard must stay as it was, and gemm and attention outputs must be
 * finite (attention: within the range of V, exactly 0 and LSE -inf where no key is seen).
 * Every vector_add and softmax call, and one gemm and attention call in 8, is compared with an
 * fp64 reference (on a sample of its rows when it is large). Wrong results are reported
 * with the seed and the call's arguments and counted; the case fails if any occurred.
 *
 * TILEOPS_SOAK_SECONDS: how long (default 20); TILEOPS_SOAK_SEED: the seed (default from the
 * clock; the calls, their data and which are checked follow from it alone);
 * TILEOPS_TEST_SMALL=1: calls of a sixteenth of the size (under compute-sanitizer).
 * Without a CUDA device it prints "skipped: no CUDA device". */
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

#define DEFAULT_SECONDS 20.0
#define NSLOTS 3                        /* calls in flight, each with its own outputs */
#define NSTREAMS 4                      /* 0: the legacy default stream */
#define POOL_ELEMS ((int64_t)8 << 20)   /* elements of each input pool */
#define MAX_BYTES ((int64_t)64 << 20)   /* the most data one call reads and writes */
#define GUARD 64                        /* poisoned elements checked after each output */
#define OUT_BYTES ((size_t)MAX_BYTES + 4096)
#define WS_BYTES ((size_t)64 << 20)
#define LSE_ELEMS ((int64_t)1 << 20)
#define MAX_WORK ((int64_t)1 << 31)     /* gemm m·n·k, attention b·hq·sq·skv·d */
#define MAX_WRONG_SHOWN 10

enum op { OP_VECTOR_ADD, OP_SOFTMAX, OP_GEMM, OP_ATTENTION, NOPS };
static const char *const op_names[NOPS] = {"vector_add", "softmax", "gemm", "attention"};


/* Hot-loop CUDA check: no Check mark point on success. */
#define SOAK_CUDA(call)                                                                    \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess)                                                             \
            ck_abort_msg("%s: %s (seed %" PRIu64 ")", #call, cudaGetErrorString(e_), seed);  \
    } while (0)

static uint64_t seed;
static double soak_secs = DEFAULT_SECONDS;
static struct rng R;
static int64_t size_div = 1; /* 16 under TILEOPS_TEST_SMALL */

static uint64_t rnd(uint64_t n)
{
    return rng_next(&R) % n;
}

static int64_t rnd_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)rnd((uint64_t)(hi - lo + 1));
}

/* Log-uniform in [lo, hi] (lo >= 1): small sizes as often as large ones. */
static int64_t rnd_log(int64_t lo, int64_t hi)
{
    const double u = (double)(rng_next(&R) >> 11) * 0x1p-53;
    int64_t v = (int64_t)exp(log((double)lo) + u * (log((double)hi + 1) - log((double)lo)));
    return v < lo ? lo : v > hi ? hi : v;
}

static double rnd_unit(void)
{
    return (double)(rng_next(&R) >> 11) * 0x1p-53;
}

/* ---- input pools: random values on the host and the same on the device -------------------- */

struct pool {
    tileops_dtype dt;
    void *host, *dev;
};

/* wide: fill_random (vector_add, gemm); smx: the same with -inf sprinkled (softmax);
 * unit: uniform in [-1, 1) (attention, f16 and bf16) */
static struct pool wide[3], smx[3], unit[3];

static size_t esize(tileops_dtype dt)
{
    return dt == TILEOPS_F32 ? 4 : 2;
}

/* A random f16 or bf16 value in (-1, 1), as bits: a multiple of 2^-11 (f16) or 2^-8 (bf16),
 * so exactly representable; random sign. */
static uint16_t unit_bits(tileops_dtype dt)
{
    const uint64_t x = rng_next(&R);
    const int bits = dt == TILEOPS_F16 ? 11 : 8;
    const uint32_t u = (uint32_t)(x >> 40) & ((1u << bits) - 1);
    const uint16_t sign = (x & 1) ? 0x8000u : 0;
    if (u == 0)
        return sign;
    const float f = ldexpf((float)u, -bits);
    if (dt == TILEOPS_BF16) {
        uint32_t w;
        memcpy(&w, &f, 4);
        return (uint16_t)(sign | (w >> 16));
    }
    int e;
    const float m = frexpf(f, &e); /* f = m * 2^e, m in [0.5, 1): f16 exponent e - 1 */
    return (uint16_t)(sign | (uint32_t)(e + 14) << 10 | (uint32_t)((m * 2 - 1) * 1024));
}

static void pool_make(struct pool *p, tileops_dtype dt, int kind)
{
    const size_t es = esize(dt), n = (size_t)POOL_ELEMS;
    p->dt = dt;
    p->host = malloc(n * es);
    ck_assert_ptr_nonnull(p->host);
    if (kind == 2) {
        uint16_t *h = p->host;
        for (size_t i = 0; i < n; i++)
            h[i] = unit_bits(dt);
    } else {
        fill_random(p->host, dt, n, &R);
    }
    if (kind == 1) /* about one element in 1000 -inf */
        for (size_t i = rnd(1000); i < n; i += 1 + rnd(2000)) {
            if (dt == TILEOPS_F32)
                ((float *)p->host)[i] = -INFINITY;
            else
                ((uint16_t *)p->host)[i] = dt == TILEOPS_F16 ? 0xfc00u : 0xff80u;
        }
    CUDA_OK(cudaMalloc(&p->dev, n * es));
    upload(p->dev, p->host, n * es);
}

static void pool_free(struct pool *p)
{
    free(p->host);
    CUDA_OK(cudaFree(p->dev));
}

static const void *hptr(const struct pool *p, int64_t off)
{
    return (const char *)p->host + (size_t)off * esize(p->dt);
}

static void *dptr(const struct pool *p, int64_t off)
{
    return (char *)p->dev + (size_t)off * esize(p->dt);
}

/* ---- one call ------------------------------------------------------------------------------ */

struct call {
    uint64_t index;
    enum op op;
    tileops_dtype dt;
    size_t esz;
    const struct pool *in;
    int stream, checked;
    /* the output: orows x ocols, row stride old, from element ooff of the slot's buffer;
     * inplace: its elements [ooff, ooff + span) started as pool elements [src, src + span) */
    int64_t orows, ocols, old, ooff, src;
    int inplace; /* vector_add: 1 c is a, 2 c is b; softmax: y is x; gemm: C is D */
    /* vector_add n; gemm m x n x k */
    int64_t n, m, k;
    int64_t a_off, b_off, c_off, bias_off, lda, ldb, ldc;
    /* softmax */
    tileops_softmax_mode mode;
    int64_t rows, cols, x_off, ldx;
    /* gemm */
    tileops_layout layout;
    float alpha, beta;
    unsigned epilogue;
    int with_c;
    size_t ws_asked, ws_given;
    /* attention: strides batch, seq, head */
    int batch, sq, skv, hq, hkv, d, causal, has_lse, bhsd;
    float scale;
    int64_t q_off, k_off, v_off, qs[3], ks[3], vs[3], lse_off;
};

static int64_t out_span(const struct call *c)
{
    return c->orows ? (c->orows - 1) * c->old + c->ocols : 0;
}

static void describe(const struct call *c, char *buf, size_t len)
{
    const char *dt = tileops__dtype_name(c->dt);
    switch (c->op) {
    case OP_VECTOR_ADD:
        snprintf(buf, len, "vector_add %s n=%" PRId64 " a=+%" PRId64 " b=+%" PRId64
                 " c=+%" PRId64 "%s", dt, c->n, c->a_off, c->b_off, c->ooff,
                 c->inplace == 1 ? " (c is a)" : c->inplace == 2 ? " (c is b)" : "");
        break;
    case OP_SOFTMAX:
        snprintf(buf, len, "softmax %s %s %" PRId64 "x%" PRId64 " x=+%" PRId64 " ldx=%" PRId64
                 " y=+%" PRId64 " ldy=%" PRId64 " workspace %zu%s", dt,
                 c->mode == TILEOPS_SOFTMAX_LOG ? "log" : "plain", c->rows, c->cols, c->x_off,
                 c->ldx, c->ooff, c->old, c->ws_given, c->inplace ? " (in place)" : "");
        break;
    case OP_GEMM:
        snprintf(buf, len, "gemm %s %s m=%" PRId64 " n=%" PRId64 " k=%" PRId64 " a=+%" PRId64
                 " lda=%" PRId64 " b=+%" PRId64 " ldb=%" PRId64 " c=%s+%" PRId64 " ldc=%" PRId64
                 " d=+%" PRId64 " ldd=%" PRId64 " bias=+%" PRId64 " alpha=%g beta=%g "
                 "epilogue=%u workspace %zu of %zu", dt,
                 c->layout == TILEOPS_B_NK ? "NK" : "KN", c->m, c->n, c->k, c->a_off, c->lda,
                 c->b_off, c->ldb, c->with_c == 0 ? "none" : c->with_c == 2 ? "d" : "",
                 c->c_off, c->ldc, c->ooff, c->old, c->bias_off, (double)c->alpha,
                 (double)c->beta, c->epilogue, c->ws_given, c->ws_asked);
        break;
    case OP_ATTENTION:
        snprintf(buf, len, "attention %s b=%d sq=%d skv=%d hq=%d hkv=%d d=%d%s%s %s scale=%g "
                 "q=+%" PRId64 " [%" PRId64 ",%" PRId64 ",%" PRId64 "] k=+%" PRId64
                 " [%" PRId64 ",%" PRId64 ",%" PRId64 "] v=+%" PRId64 " o=+%" PRId64
                 " o_head=%" PRId64 " lse=+%" PRId64, dt, c->batch, c->sq, c->skv, c->hq,
                 c->hkv, c->d, c->causal ? " causal" : "", c->has_lse ? " lse" : "",
                 c->bhsd ? "bhsd" : "bshd", (double)c->scale, c->q_off, c->qs[0], c->qs[1],
                 c->qs[2], c->k_off, c->ks[0], c->ks[1], c->ks[2], c->v_off, c->ooff, c->old,
                 c->lse_off);
        break;
    default:
        snprintf(buf, len, "?");
    }
}

/* ---- random legal calls ---------------------------------------------------------------------- */

static int64_t round_up(int64_t x, int64_t m)
{
    return (x + m - 1) / m * m;
}

/* The extent (elements) of a rows x cols view with stride ld. */
static int64_t extent(int64_t rows, int64_t cols, int64_t ld)
{
    return rows ? (rows - 1) * ld + cols : 0;
}

static void gen_vector_add(struct call *c)
{
    c->dt = (tileops_dtype)rnd(3);
    c->esz = esize(c->dt);
    c->in = &wide[c->dt];
    const int aligned = rnd(2) == 0; /* all three 16-byte aligned: the vector path */
    const int64_t vec = 16 / (int64_t)c->esz;
    int64_t cap = MAX_BYTES / size_div / 3 / (int64_t)c->esz;
    cap = cap < POOL_ELEMS - 64 ? cap : POOL_ELEMS - 64;
    c->n = rnd_log(1, cap);
    c->a_off = aligned ? vec * rnd_range(0, 3) : rnd_range(0, 15);
    c->b_off = aligned ? vec * rnd_range(0, 3) : rnd_range(0, 15);
    c->ooff = aligned ? vec * rnd_range(0, 3) : rnd_range(0, 15);
    c->inplace = rnd(4) == 0 ? 1 + (int)rnd(2) : 0;
    c->src = c->inplace == 1 ? c->a_off : c->b_off;
    c->orows = 1, c->ocols = c->n, c->old = c->n;
    c->checked = 1;
}

static void gen_softmax(struct call *c)
{
    c->dt = (tileops_dtype)rnd(3);
    c->esz = esize(c->dt);
    c->in = &smx[c->dt];
    c->mode = rnd(2) ? TILEOPS_SOFTMAX_LOG : TILEOPS_SOFTMAX_PLAIN;
    if (rnd(4) == 0) { /* long rows: split across blocks beyond 16384 f32 / 32768 f16 */
        c->cols = rnd_range(16385, 300001);
        c->rows = rnd_log(1, 8);
    } else {
        c->cols = rnd_log(1, 16384);
        c->rows = rnd_log(1, 4096);
    }
    const int pad = rnd(3) == 0;
    c->ldx = c->cols + (pad ? rnd_range(1, 16) : 0);
    c->x_off = rnd_range(0, 15);
    c->inplace = rnd(5) == 0;
    c->old = c->inplace ? c->ldx : c->cols + (rnd(3) == 0 ? rnd_range(1, 16) : 0);
    c->ooff = rnd_range(0, 15);
    c->src = c->x_off;
    const int64_t cap = MAX_BYTES / size_div / (int64_t)c->esz - 64;
    while (c->rows > 1 && (extent(c->rows, c->cols, c->ldx) + extent(c->rows, c->cols, c->old) >
                               cap ||
                           c->x_off + extent(c->rows, c->cols, c->ldx) > POOL_ELEMS))
        c->rows /= 2;
    c->orows = c->rows, c->ocols = c->cols;
    c->checked = 1;
}

/* Leading dimension of a row of w elements: fast (a multiple of 8) or any. */
static int64_t gen_ld(int64_t w, int fast)
{
    if (fast)
        return round_up(w, 8) + 8 * rnd_range(0, rnd(3) == 0 ? 2 : 0);
    return w + (rnd(3) == 0 ? rnd_range(1, 9) : 0);
}

static void gen_gemm(struct call *c)
{
    c->dt = rnd(2) ? TILEOPS_BF16 : TILEOPS_F16;
    c->esz = 2;
    c->in = &wide[c->dt];
    c->layout = rnd(2) ? TILEOPS_B_NK : TILEOPS_B_KN;
    c->epilogue = ref_gemm_epilogues[rnd(REF_GEMM_EPILOGUES)];
    c->m = rnd(3) == 0 ? rnd_range(1, 64) : rnd_log(1, 2048); /* small M: split-K */
    c->n = rnd_log(1, 2048);
    c->k = rnd_log(1, 4096);
    const int fast = rnd(2) == 0;
    c->with_c = (int)rnd(3);
    c->inplace = c->with_c == 2;
    for (;;) {
        c->lda = gen_ld(c->k, fast);
        c->ldb = gen_ld(c->layout == TILEOPS_B_NK ? c->k : c->n, fast);
        c->old = gen_ld(c->n, fast);
        c->ldc = c->inplace ? c->old : gen_ld(c->n, fast);
        const int64_t ea = extent(c->m, c->k, c->lda);
        const int64_t eb = c->layout == TILEOPS_B_NK ? extent(c->n, c->k, c->ldb)
                                                     : extent(c->k, c->n, c->ldb);
        const int64_t ec = c->with_c == 1 ? extent(c->m, c->n, c->ldc) : 0;
        const int64_t ed = extent(c->m, c->n, c->old);
        if ((ea + eb + ec + ed + c->n) * 2 <= MAX_BYTES / size_div && ea + 64 <= POOL_ELEMS &&
            eb + 64 <= POOL_ELEMS && ec + 64 <= POOL_ELEMS && ed + 64 <= POOL_ELEMS &&
            c->m * c->n * c->k <= MAX_WORK / size_div)
            break;
        int64_t *big = c->m >= c->n && c->m >= c->k ? &c->m : c->n >= c->k ? &c->n : &c->k;
        *big = (*big + 1) / 2;
    }
    const int64_t al = fast ? 8 : 1;
    c->a_off = al * rnd_range(0, 7);
    c->b_off = al * rnd_range(0, 7);
    c->c_off = al * rnd_range(0, 7);
    c->bias_off = al * rnd_range(0, 7);
    c->ooff = al * rnd_range(0, 7);
    c->src = c->c_off;
    static const float alphas[] = {1.0f, 1.0f, 0.5f, -1.25f};
    static const float betas[] = {0.0f, 1.0f, 0.5f, -1.5f};
    c->alpha = alphas[rnd(4)];
    c->beta = c->with_c ? betas[rnd(4)] : 0.0f;
    c->orows = c->m, c->ocols = c->n;
    c->checked = rnd(8) == 0;
}

/* strides (batch, seq, head) of a [b, s, h, d] tensor: BSHD or BHSD, padded by multiples of 8 */
static void att_strides(int64_t st[3], int bhsd, int s, int h, int d, int64_t pad_row,
                        int64_t pad_head)
{
    if (bhsd) {
        st[1] = d + pad_row;
        st[2] = s * st[1] + pad_head;
        st[0] = h * st[2];
    } else {
        st[2] = d + pad_row;
        st[1] = h * st[2] + pad_head;
        st[0] = s * st[1];
    }
}

static int64_t att_extent(const int64_t st[3], int b, int s, int h, int d)
{
    return s ? (b - 1) * st[0] + (s - 1) * st[1] + (h - 1) * st[2] + d : 0;
}

static void gen_attention(struct call *c)
{
    static const int dims[] = {64, 96, 128, 256}, kvs[] = {1, 2, 4}, ratios[] = {1, 2, 3, 4, 8};
    c->dt = rnd(2) ? TILEOPS_BF16 : TILEOPS_F16;
    c->esz = 2;
    c->in = &unit[c->dt];
    c->d = dims[rnd(4)];
    c->hkv = kvs[rnd(3)];
    c->hq = c->hkv * ratios[rnd(5)];
    c->batch = (int)rnd_range(1, 4);
    c->sq = rnd(16) == 0 ? 0 : (int)rnd_log(1, 2048);
    c->skv = rnd(16) == 0 ? 0 : rnd(4) == 0 ? c->sq : (int)rnd_log(1, 2048);
    c->causal = (int)rnd(2);
    c->has_lse = (int)rnd(2);
    c->scale = rnd(2) ? 0.0f : (float)(0.05 + 0.45 * rnd_unit());
    c->bhsd = (int)rnd(2);
    const int64_t pr = 8 * rnd_range(0, 1), ph = 8 * rnd_range(0, 1);
    c->old = c->d + 8 * rnd_range(0, 1);
    for (;;) {
        att_strides(c->qs, c->bhsd, c->sq, c->hq, c->d, pr, ph);
        att_strides(c->ks, c->bhsd, c->skv, c->hkv, c->d, pr, ph);
        att_strides(c->vs, c->bhsd, c->skv, c->hkv, c->d, pr, ph);
        const int64_t eq = att_extent(c->qs, c->batch, c->sq, c->hq, c->d);
        const int64_t ek = att_extent(c->ks, c->batch, c->skv, c->hkv, c->d);
        const int64_t eo = extent((int64_t)c->batch * c->sq * c->hq, c->d, c->old);
        const int64_t work = (int64_t)c->batch * c->hq * c->sq * c->skv * c->d;
        if ((eq + 2 * ek + eo) * 2 <= MAX_BYTES / size_div && eq + 64 <= POOL_ELEMS &&
            ek + 64 <= POOL_ELEMS && work <= MAX_WORK / size_div &&
            (int64_t)c->batch * c->hq * c->sq + 64 <= LSE_ELEMS)
            break;
        if (c->batch > 1)
            c->batch--;
        else if (c->sq >= c->skv)
            c->sq = (c->sq + 1) / 2;
        else
            c->skv = (c->skv + 1) / 2;
    }
    c->q_off = 8 * rnd_range(0, 7);
    c->k_off = 8 * rnd_range(0, 7);
    c->v_off = 8 * rnd_range(0, 7);
    c->ooff = 8 * rnd_range(0, 3);
    c->lse_off = rnd_range(0, 3);
    c->orows = (int64_t)c->batch * c->sq * c->hq, c->ocols = c->d;
    c->checked = rnd(8) == 0;
}

static void gen_call(struct call *c, uint64_t index)
{
    memset(c, 0, sizeof *c);
    c->index = index;
    c->op = (enum op)rnd(NOPS);
    switch (c->op) {
    case OP_VECTOR_ADD: gen_vector_add(c); break;
    case OP_SOFTMAX: gen_softmax(c); break;
    case OP_GEMM: gen_gemm(c); break;
    default: gen_attention(c); break;
    }
    c->stream = (int)rnd(NSTREAMS);
}

/* ---- a slot: one call in flight, its device outputs and their host copies ----------------- */

struct slot {
    int busy;
    struct call c;
    void *out, *ws;
    float *lse;
    unsigned char *out_host;
    float *lse_host;
    size_t out_bytes; /* copied back */
};

static tileops_handle handle;
static cudaStream_t streams[NSTREAMS];

static tileops_gemm_params gemm_params(const struct slot *s)
{
    const struct call *c = &s->c;
    const struct pool *p = c->in;
    tileops_gemm_params g;
    memset(&g, 0, sizeof g);
    g.size = sizeof g;
    g.dtype = c->dt, g.b_layout = c->layout, g.m = c->m, g.n = c->n, g.k = c->k;
    g.a = dptr(p, c->a_off), g.lda = c->lda;
    g.b = dptr(p, c->b_off), g.ldb = c->ldb;
    g.d = (char *)s->out + c->ooff * 2, g.ldd = c->old;
    g.c = c->with_c == 2 ? g.d : c->with_c == 1 ? dptr(p, c->c_off) : NULL;
    g.ldc = c->with_c ? c->ldc : 0;
    g.bias = (c->epilogue & TILEOPS_EPILOGUE_BIAS) ? dptr(p, c->bias_off) : NULL;
    g.alpha = c->alpha, g.beta = c->beta, g.epilogue = c->epilogue;
    return g;
}

static tileops_attention_params attention_params(const struct slot *s)
{
    const struct call *c = &s->c;
    const struct pool *p = c->in;
    tileops_attention_params a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.dtype = c->dt, a.batch = c->batch, a.seqlen_q = c->sq, a.seqlen_kv = c->skv;
    a.heads_q = c->hq, a.heads_kv = c->hkv, a.head_dim = c->d;
    a.q = dptr(p, c->q_off), a.q_batch = c->qs[0], a.q_seq = c->qs[1], a.q_head = c->qs[2];
    a.k = dptr(p, c->k_off), a.k_batch = c->ks[0], a.k_seq = c->ks[1], a.k_head = c->ks[2];
    a.v = dptr(p, c->v_off), a.v_batch = c->vs[0], a.v_seq = c->vs[1], a.v_head = c->vs[2];
    a.o = (char *)s->out + c->ooff * 2;
    a.o_head = c->old, a.o_seq = c->hq * c->old, a.o_batch = (int64_t)c->sq * a.o_seq;
    a.lse = c->has_lse ? s->lse + c->lse_off : NULL;
    a.scale = c->scale, a.causal = c->causal;
    return a;
}

/* Poisons the slot, prepares in-place operands, launches the call and the copies back, all on
 * the call's stream. Returns the call's status (the message is tileops_last_error()). */
static tileops_status issue(struct slot *s)
{
    struct call *c = &s->c;
    cudaStream_t st = streams[c->stream];
    const int64_t span = out_span(c);
    s->out_bytes = (size_t)(c->ooff + span + GUARD) * c->esz;
    ck_assert_msg(s->out_bytes <= OUT_BYTES, "call %" PRIu64 ": output too large", c->index);
    SOAK_CUDA(cudaMemsetAsync(s->out, 0xff, s->out_bytes, st));
    if (c->inplace && span)
        SOAK_CUDA(cudaMemcpyAsync((char *)s->out + c->ooff * c->esz, dptr(c->in, c->src),
                                  (size_t)span * c->esz, cudaMemcpyDeviceToDevice, st));
    void *y = (char *)s->out + c->ooff * c->esz;
    tileops_status r = TILEOPS_ERROR_INVALID_VALUE;
    switch (c->op) {
    case OP_VECTOR_ADD: {
        const void *a = c->inplace == 1 ? y : dptr(c->in, c->a_off);
        const void *b = c->inplace == 2 ? y : dptr(c->in, c->b_off);
        r = tileops_vector_add(handle, c->dt, c->n, a, b, y, st);
        break;
    }
    case OP_SOFTMAX: {
        const void *x = c->inplace ? y : dptr(c->in, c->x_off);
        size_t ws = 0;
        r = tileops_softmax_workspace_size(handle, c->dt, c->mode, c->rows, c->cols, x, c->ldx,
                                           y, c->old, &ws);
        if (r != TILEOPS_SUCCESS)
            break;
        ck_assert_msg(ws <= WS_BYTES, "softmax asks %zu bytes of workspace", ws);
        c->ws_asked = c->ws_given = ws;
        if (ws)
            SOAK_CUDA(cudaMemsetAsync(s->ws, 0xff, ws, st));
        r = tileops_softmax(handle, c->dt, c->mode, c->rows, c->cols, x, c->ldx, y, c->old,
                            ws ? s->ws : NULL, ws, st);
        break;
    }
    case OP_GEMM: {
        const tileops_gemm_params g = gemm_params(s);
        size_t ws = 0;
        r = tileops_gemm_workspace_size(handle, &g, &ws);
        if (r != TILEOPS_SUCCESS)
            break;
        c->ws_asked = ws;
        if (rnd(4) == 0) /* less than asked: fewer splits, or none */
            ws = ws / 2 / 16 * 16;
        c->ws_given = ws = ws > WS_BYTES ? WS_BYTES : ws;
        if (ws)
            SOAK_CUDA(cudaMemsetAsync(s->ws, 0xff, ws, st));
        r = tileops_gemm(handle, &g, ws ? s->ws : NULL, ws, st);
        break;
    }
    case OP_ATTENTION: {
        if (c->has_lse)
            SOAK_CUDA(cudaMemsetAsync(s->lse, 0xff, (size_t)LSE_ELEMS * 4, st));
        const tileops_attention_params a = attention_params(s);
        r = tileops_flash_attention(handle, &a, st);
        break;
    }
    default:
        break;
    }
    SOAK_CUDA(cudaGetLastError());
    SOAK_CUDA(cudaMemcpyAsync(s->out_host, s->out, s->out_bytes, cudaMemcpyDeviceToHost, st));
    if (c->op == OP_ATTENTION && c->has_lse)
        SOAK_CUDA(cudaMemcpyAsync(s->lse_host, s->lse, (size_t)LSE_ELEMS * 4,
                                  cudaMemcpyDeviceToHost, st));
    return r;
}

/* ---- the checks (on the host copies; 0, or -1 with what was wrong in msg) ------------------- */

static double out_elem(const struct slot *s, int64_t e)
{
    return get_elem(s->out_host, s->c.dt, (size_t)e);
}

/* Everything the call must not have written (row padding, the guard, what precedes the
 * view) is still as it was: poison, or the in-place operand's original elements. */
static int check_untouched(const struct slot *s, char *msg, size_t len)
{
    const struct call *c = &s->c;
    static const unsigned char poison[4] = {0xff, 0xff, 0xff, 0xff};
    const int64_t span = out_span(c), end = c->ooff + span + GUARD;
    for (int64_t e = 0; e < end; e++) {
        const int64_t rel = e - c->ooff;
        const int inside = rel >= 0 && rel < span;
        if (inside && rel % c->old < c->ocols)
            continue;
        const unsigned char *want =
            c->inplace && inside ? (const unsigned char *)hptr(c->in, c->src + rel) : poison;
        if (memcmp(s->out_host + (size_t)e * c->esz, want, c->esz) != 0) {
            snprintf(msg, len, "output element %" PRId64 " (%s) outside the view was written",
                     rel, rel < 0 ? "before it" : inside ? "row padding" : "the guard");
            return -1;
        }
    }
    return 0;
}

static int check_vector_add(const struct slot *s, char *msg, size_t len)
{
    const struct call *c = &s->c;
    for (int64_t i = 0; i < c->n; i++) {
        const double ref = get_elem(hptr(c->in, c->a_off), c->dt, (size_t)i) +
                           get_elem(hptr(c->in, c->b_off), c->dt, (size_t)i);
        const double v = out_elem(s, c->ooff + i);
        if (!(fabs(v - ref) <= dtype_rel_bound(c->dt) * fabs(ref) + dtype_abs_bound(c->dt))) {
            snprintf(msg, len, "c[%" PRId64 "] = %.9g, reference %.9g", i, v, ref);
            return -1;
        }
    }
    return 0;
}

static int check_softmax(const struct slot *s, char *msg, size_t len)
{
    const struct call *c = &s->c;
    const int all = c->rows * c->cols <= ((int64_t)4 << 20); /* else a sample of rows */
    for (int64_t r = 0; r < c->rows; r++) {
        if (!all && r != 0 && r != c->rows - 1 && rnd(c->rows / 32 + 1) != 0)
            continue;
        char m[200];
        if (ref_softmax_row(c->dt, c->mode, hptr(c->in, c->x_off + r * c->ldx),
                            s->out_host + (size_t)(c->ooff + r * c->old) * c->esz, c->cols, m,
                            sizeof m) != 0) {
            snprintf(msg, len, "row %" PRId64 ": %s", r, m);
            return -1;
        }
    }
    return 0;
}

static int check_gemm(const struct slot *s, char *msg, size_t len)
{
    const struct call *c = &s->c;
    for (int64_t i = 0; i < c->m; i++) /* written and finite everywhere */
        for (int64_t j = 0; j < c->n; j++) {
            const double v = out_elem(s, c->ooff + i * c->old + j);
            if (!isfinite(v)) {
                snprintf(msg, len, "d[%" PRId64 ", %" PRId64 "] = %g", i, j, v);
                return -1;
            }
        }
    if (!c->checked)
        return 0;
    const struct ref_gemm g = {
        .dt = c->dt, .layout = c->layout, .k = c->k, .lda = c->lda, .ldb = c->ldb,
        .ldc = c->ldc, .a = hptr(c->in, c->a_off), .b = hptr(c->in, c->b_off),
        .c = c->with_c == 2 ? hptr(c->in, c->src) : c->with_c ? hptr(c->in, c->c_off) : NULL,
        .bias = hptr(c->in, c->bias_off), .alpha = c->alpha, .beta = c->beta,
        .epilogue = c->epilogue};
    for (int64_t i = 0; i < c->m; i++) { /* every row of 16, else both ends and 14 more */
        if (c->m > 16 && i != 0 && i != c->m - 1 && rnd((uint64_t)c->m / 14 + 1) != 0)
            continue;
        for (int64_t j = 0; j < c->n; j++) {
            double scale;
            const double ref = ref_gemm_elem(&g, i, j, &scale);
            const double v = out_elem(s, c->ooff + i * c->old + j);
            if (!(fabs(v - ref) <= ref_gemm_tolerance(c->dt, ref, scale))) {
                snprintf(msg, len, "d[%" PRId64 ", %" PRId64 "] = %.9g, reference %.9g", i, j,
                         v, ref);
                return -1;
            }
        }
    }
    return 0;
}

static int lse_bits_poison(const float *f)
{
    uint32_t u;
    memcpy(&u, f, 4);
    return u == 0xffffffffu;
}

static int check_attention(const struct slot *s, char *msg, size_t len)
{
    const struct call *c = &s->c;
    const int ratio = c->hq / c->hkv;
    const int64_t nlse = (int64_t)c->batch * c->hq * c->sq;
    for (int64_t e = 0; c->has_lse && e < LSE_ELEMS; e++) /* LSE's surroundings untouched */
        if ((e < c->lse_off || e >= c->lse_off + nlse) && !lse_bits_poison(&s->lse_host[e])) {
            snprintf(msg, len, "lse element %" PRId64 " outside [%" PRId64 ", +%" PRId64
                     ") written", e, c->lse_off, nlse);
            return -1;
        }
    struct ref_attention a = {.dt = c->dt, .d = c->d, .causal = c->causal, .lq = c->sq,
                              .lk = c->skv,
                              .scale = c->scale != 0.0f ? (double)c->scale
                                                        : 1.0 / sqrt((double)c->d),
                              .q_seq = c->qs[1], .k_seq = c->ks[1], .v_seq = c->vs[1]};
    /* every row: no key seen gives exactly O = 0 and LSE = -inf; else finite, within the
     * range of V (|v| < 1), LSE finite */
    for (int b = 0; b < c->batch; b++)
        for (int64_t i = 0; i < c->sq; i++) {
            const int none = ref_attention_visible(&a, i) == 0;
            for (int h = 0; h < c->hq; h++) {
                const int64_t row = ((int64_t)b * c->sq + i) * c->hq + h;
                for (int e = 0; e < c->d; e++) {
                    const double v = out_elem(s, c->ooff + row * c->old + e);
                    if (none ? v != 0 : !(fabs(v) <= 1 + ref_attention_tolerance(c->dt, 1))) {
                        snprintf(msg, len, "o[%d, %" PRId64 ", %d, %d] = %g%s", b, i, h, e, v,
                                 none ? " (a row that sees no key)" : " (beyond the range of v)");
                        return -1;
                    }
                }
                if (c->has_lse) {
                    const float l = s->lse_host[c->lse_off + ((int64_t)b * c->hq + h) * c->sq + i];
                    if (none ? !(isinf(l) && l < 0) : !isfinite(l)) {
                        snprintf(msg, len, "lse[%d, %d, %" PRId64 "] = %g", b, h, i, (double)l);
                        return -1;
                    }
                }
            }
        }
    if (!c->checked || c->sq == 0)
        return 0;
    double o[256];
    double *w = malloc(sizeof(double) * ((size_t)c->skv + 1));
    ck_assert_ptr_nonnull(w);
    int rc = 0;
    for (int t = 0; t < 48 && rc == 0; t++) { /* 48 (sequence, head, row), the last row first */
        const int b = (int)rnd((uint64_t)c->batch), h = (int)rnd((uint64_t)c->hq);
        const int64_t i = t == 0 ? c->sq - 1 : (int64_t)rnd((uint64_t)c->sq);
        const int hk = h / ratio;
        a.q = hptr(c->in, c->q_off + b * c->qs[0] + h * c->qs[2]);
        a.k = hptr(c->in, c->k_off + b * c->ks[0] + hk * c->ks[2]);
        a.v = hptr(c->in, c->v_off + b * c->vs[0] + hk * c->vs[2]);
        double lse;
        ref_attention_row(&a, i, o, &lse, w);
        const int64_t row = ((int64_t)b * c->sq + i) * c->hq + h;
        for (int e = 0; e < c->d && rc == 0; e++) {
            const double v = out_elem(s, c->ooff + row * c->old + e);
            if (!(fabs(v - o[e]) <= ref_attention_tolerance(c->dt, o[e]))) {
                snprintf(msg, len, "o[%d, %" PRId64 ", %d, %d] = %.9g, reference %.9g", b, i,
                         h, e, v, o[e]);
                rc = -1;
            }
        }
        if (rc == 0 && c->has_lse) {
            const double l = s->lse_host[c->lse_off + ((int64_t)b * c->hq + h) * c->sq + i];
            if (!(l == lse || fabs(l - lse) <= REF_LSE_TOL)) {
                snprintf(msg, len, "lse[%d, %d, %" PRId64 "] = %.9g, reference %.9g", b, h, i,
                         l, lse);
                rc = -1;
            }
        }
    }
    free(w);
    return rc;
}

/* ---- the soak ------------------------------------------------------------------------------ */

struct tally {
    uint64_t calls[NOPS], checked, wrong, errors;
};

static void report(const struct call *c, const char *what, const char *detail)
{
    char d[600];
    describe(c, d, sizeof d);
    printf("test_soak: call %" PRIu64 ": %s: %s: %s (seed %" PRIu64 ", stream %d)\n", c->index,
           what, d, detail, seed, c->stream);
    fflush(stdout);
}

/* Waits for the slot's call and checks it. */
static void finish(struct slot *s, struct tally *t)
{
    if (!s->busy)
        return;
    s->busy = 0;
    SOAK_CUDA(cudaStreamSynchronize(streams[s->c.stream]));
    SOAK_CUDA(cudaGetLastError());
    char m[400] = "";
    int rc = check_untouched(s, m, sizeof m);
    if (rc == 0) {
        switch (s->c.op) {
        case OP_VECTOR_ADD: rc = check_vector_add(s, m, sizeof m); break;
        case OP_SOFTMAX: rc = check_softmax(s, m, sizeof m); break;
        case OP_GEMM: rc = check_gemm(s, m, sizeof m); break;
        default: rc = check_attention(s, m, sizeof m); break;
        }
    }
    t->checked += (uint64_t)s->c.checked;
    if (rc != 0 && t->wrong++ < MAX_WRONG_SHOWN)
        report(&s->c, "WRONG", m);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

START_TEST(soak)
{
    const double seconds = soak_secs;
    R.s = seed | 1; /* xorshift's state must not be 0 */
    if (test_small_only())
        size_div = 16;
    printf("test_soak: seed %" PRIu64 " (TILEOPS_SOAK_SEED), %g s%s\n", seed, seconds,
           size_div > 1 ? ", small calls" : "");
    fflush(stdout);

    CUDA_OK(cudaSetDevice(0));
    ck_assert_msg(tileops_create(&handle, 0) == TILEOPS_SUCCESS, "%s", tileops_last_error());
    for (int d = 0; d < 3; d++) {
        pool_make(&wide[d], (tileops_dtype)d, 0);
        pool_make(&smx[d], (tileops_dtype)d, 1);
        if (d != TILEOPS_F32)
            pool_make(&unit[d], (tileops_dtype)d, 2);
    }
    streams[0] = NULL; /* the legacy default stream */
    CUDA_OK(cudaStreamCreate(&streams[1]));
    for (int k = 2; k < NSTREAMS; k++)
        CUDA_OK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
    static struct slot slots[NSLOTS];
    for (int k = 0; k < NSLOTS; k++) {
        memset(&slots[k], 0, sizeof slots[k]);
        CUDA_OK(cudaMalloc(&slots[k].out, OUT_BYTES));
        CUDA_OK(cudaMalloc(&slots[k].ws, WS_BYTES));
        CUDA_OK(cudaMalloc((void **)&slots[k].lse, (size_t)LSE_ELEMS * 4));
        CUDA_OK(cudaMallocHost((void **)&slots[k].out_host, OUT_BYTES));
        CUDA_OK(cudaMallocHost((void **)&slots[k].lse_host, (size_t)LSE_ELEMS * 4));
    }
    CUDA_OK(cudaDeviceSynchronize());

    struct tally t;
    memset(&t, 0, sizeof t);
    const double start = now();
    uint64_t index = 0;
    for (int k = 0; now() - start < seconds; k = (k + 1) % NSLOTS, index++) {
        struct slot *s = &slots[k];
        finish(s, &t);
        gen_call(&s->c, index);
        const tileops_status st = issue(s);
        t.calls[s->c.op]++;
        if (st != TILEOPS_SUCCESS) {
            if (t.errors++ < MAX_WRONG_SHOWN)
                report(&s->c, tileops_status_string(st), tileops_last_error());
            SOAK_CUDA(cudaStreamSynchronize(streams[s->c.stream]));
            continue;
        }
        s->busy = 1;
    }
    for (int k = 0; k < NSLOTS; k++)
        finish(&slots[k], &t);
    SOAK_CUDA(cudaDeviceSynchronize());
    const double took = now() - start;

    uint64_t all = 0;
    char per_op[200] = "";
    for (int o = 0; o < NOPS; o++) {
        all += t.calls[o];
        const size_t at = strlen(per_op);
        snprintf(per_op + at, sizeof per_op - at, "%s%s %" PRIu64, o ? ", " : "", op_names[o],
                 t.calls[o]);
    }
    printf("test_soak: %.0f s, seed %" PRIu64 ": %" PRIu64 " calls (%s), %" PRIu64
           " checked against the references, %" PRIu64 " wrong, %" PRIu64 " errors\n",
           took, seed, all, per_op, t.checked, t.wrong, t.errors);
    fflush(stdout);

    for (int k = 0; k < NSLOTS; k++) {
        CUDA_OK(cudaFree(slots[k].out));
        CUDA_OK(cudaFree(slots[k].ws));
        CUDA_OK(cudaFree(slots[k].lse));
        CUDA_OK(cudaFreeHost(slots[k].out_host));
        CUDA_OK(cudaFreeHost(slots[k].lse_host));
    }
    for (int k = 1; k < NSTREAMS; k++)
        CUDA_OK(cudaStreamDestroy(streams[k]));
    for (int d = 0; d < 3; d++) {
        pool_free(&wide[d]);
        pool_free(&smx[d]);
        if (d != TILEOPS_F32)
            pool_free(&unit[d]);
    }
    tileops_destroy(handle);
    ck_assert_msg(t.wrong == 0 && t.errors == 0,
                  "%" PRIu64 " wrong results and %" PRIu64 " errors in %" PRIu64
                  " calls (seed %" PRIu64 "; the first are printed above)",
                  t.wrong, t.errors, all, seed);
}
END_TEST

int main(void)
{
    if (!have_cuda_device()) {
        printf("test_soak: skipped: no CUDA device\n");
        return EXIT_SUCCESS;
    }
    const char *e = getenv("TILEOPS_SOAK_SECONDS");
    char *end = NULL;
    if (e && *e) {
        soak_secs = strtod(e, &end);
        if (*end || !(soak_secs >= 0 && soak_secs < 1e7)) {
            fprintf(stderr, "test_soak: TILEOPS_SOAK_SECONDS=%s: not a number of seconds\n", e);
            return EXIT_FAILURE;
        }
    }
    e = getenv("TILEOPS_SOAK_SEED");
    seed = rng_seed_from_clock();
    if (e && *e) {
        seed = strtoull(e, &end, 0);
        if (*end) {
            fprintf(stderr, "test_soak: TILEOPS_SOAK_SEED=%s: not a number\n", e);
            return EXIT_FAILURE;
        }
    }
    Suite *s = suite_create("soak");
    TCase *tc = tcase_create("gpu");
    /* the soak's own length, plus setup, the last calls' checks, and a sanitizer's pace */
    tcase_set_timeout(tc, soak_secs + 600);
    tcase_add_test(tc, soak);
    suite_add_tcase(s, tc);
    return run_suite(s, CK_VERBOSE);
}
