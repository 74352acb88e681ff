/* bench_attention.c: tileops_flash_attention against an unfused cuBLAS reference in the same
 * process.
 *
 * Each row is one problem (dtype, batch, seqlen, heads, head_dim, causal; seqlen_q = seqlen_kv,
 * heads_q = heads_kv, dense [batch, seq, heads, head_dim] tensors) on one tier: the median
 * time of tileops_flash_attention and its TFLOP/s, counting 4 · batch · heads · seqlen_q ·
 * seqlen_kv · head_dim flops, halved when causal (FlashAttention's benchmark convention);
 * then the same for the unfused reference an engine without a fused kernel runs, per sequence:
 *   S = scale · Q·Kᵀ   cublasGemmStridedBatchedEx over the heads, 16-bit in, fp32 S out
 *   P = softmax(S)     a row-wise kernel with the causal mask and the softcap
 *                      (ref_attention.cu), 16-bit P
 *   O = P·V            cublasGemmStridedBatchedEx over the heads, fp32 accumulation
 * with its own median time and TFLOP/s (same flop count: the reference computes the masked
 * half too), speedup = ref_us / median_us, and max_err = the largest |O - O_ref| over every
 * element of the first (checked) call. A max_err above the dtype's bound is reported and makes
 * the exit status 1; the rows still print.
 *
 * S and P take 6 bytes per score (batch · heads · seqlen² in all: 16 GiB at seqlen 16k,
 * head_dim 128). The reference runs one sequence at a time and, within it, the heads in passes
 * of as many as fit REF_BYTES (or half the free memory, if less); the column `reference` says
 * how many heads a pass took. If not even one head's S fits, the reference is skipped and its
 * columns read "-".
 *
 * The default grid is FlashAttention's benchmark: hidden 2048 = heads · head_dim, 16k tokens
 * per batch (batch = 16384 / seqlen), seqlen 512, 1k, 2k, 4k, 8k and 16k, head_dim 64, 128 and
 * 256, causal off and on (--causal). --shape BxSxHxD runs one problem instead. --seqlens
 * L1,L2,... runs a variable-length batch (the sequences packed along the seq dimension, as
 * cu_seqlens describes them; the reference goes sequence by sequence), then the dense batch of
 * as many sequences of the same work. Inputs are
 * ~N(0, 1); the scale is the default 1/sqrt(head_dim); tileops also writes the LSE (as a
 * training forward does). Times are medians over --reps calls, each after an L2 flush
 * (timing.c). */
#include "bench.h"
#include "ref_attention.h"
#include "report.h"

#include <cublas_v2.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_BYTES ((size_t)8 << 30) /* S and P of the reference, at most */
#define MAX_SHAPES 32

static const struct report_col columns[] = {
    {"op", 9, 0},          {"dtype", 5, 0},       {"tier", 4, 0},      {"batch", 5, 1},
    {"seqlen", 6, 1},      {"heads", 5, 1},       {"head_dim", 8, 1},  {"causal", 6, 0},
    {"kernel", 52, 0},     {"median_us", 10, 1},  {"tflops", 7, 1},    {"ref_us", 10, 1},
    {"ref_tflops", 10, 1}, {"speedup", 7, 1},     {"max_err", 9, 1},   {"reference", 24, 0},
    BENCH_TUNED_COLUMNS,
};
#define NCOLS ((int)(sizeof columns / sizeof columns[0]))

/* FlashAttention's benchmark grid: 16k tokens per batch, hidden 2048. */
static int default_shapes(int64_t (*out)[4])
{
    static const int64_t dims[] = {64, 128, 256};
    static const int64_t seqlens[] = {512, 1024, 2048, 4096, 8192, 16384};
    int n = 0;
    for (int d = 0; d < 3; d++)
        for (int s = 0; s < 6; s++, n++) {
            out[n][0] = 16384 / seqlens[s];
            out[n][1] = seqlens[s];
            out[n][2] = 2048 / dims[d];
            out[n][3] = dims[d];
        }
    return n;
}

/* One problem's buffers and handles, shared by the timed calls of both sides. */
struct attn_case {
    tileops_handle h;
    tileops_attention_params p;   /* tileops' call; the reference reads the same q, k, v */
    cublasHandle_t cb;
    void *o_ref;                  /* the reference's O, laid out as p.o */
    float *s;                     /* the reference's S: heads_per_pass x seqlen x seqlen fp32 */
    void *pm;                     /* its P, the same in 16-bit */
    int heads_per_pass;           /* 0: no reference (S of one head does not fit) */
    float *err;                   /* device scalar for ref_attention_max_diff */
    const int *cu_host;           /* varlen: the batch + 1 offsets in host memory, else NULL */
    int64_t rows;                 /* rows of q and o: batch x seqlen, or the packed total */
};

static int is_bf16(const tileops_attention_params *p)
{
    return p->dtype == TILEOPS_BF16;
}

/* 4 x the (query, key) pairs a head computes x head_dim for one sequence of sq queries and
 * skv keys: all of them, half when causal, those inside the window row by row. */
static double seq_flops(const tileops_attention_params *p, int64_t sq, int64_t skv)
{
    if (p->window) {
        double pairs = 0;
        for (int64_t i = 0; i < sq; i++) {
            const int64_t pos = i + skv - sq;
            int64_t lo = p->window_left >= 0 ? pos - p->window_left : 0;
            int64_t hi = p->causal ? pos + 1 : p->window_right >= 0 ? pos + p->window_right + 1
                                                                    : skv;
            lo = lo < 0 ? 0 : lo;
            hi = hi > skv ? skv : hi;
            pairs += hi > lo ? (double)(hi - lo) : 0.0;
        }
        return 4.0 * pairs * (double)p->head_dim;
    }
    return 4.0 * (double)sq * (double)skv * (double)p->head_dim * (p->causal ? 0.5 : 1.0);
}

/* The call's flops: every sequence's (of its own length, varlen) times the heads. */
static double flops(const struct attn_case *c)
{
    const tileops_attention_params *p = &c->p;
    double f = 0;
    if (!c->cu_host)
        f = (double)p->batch * seq_flops(p, p->seqlen_q, p->seqlen_kv);
    else
        for (int64_t b = 0; b < p->batch; b++) {
            const int64_t len = c->cu_host[b + 1] - c->cu_host[b];
            f += seq_flops(p, len, len);
        }
    return f * (double)p->heads_q;
}

static double tflops(const struct attn_case *c, double us)
{
    return us > 0 ? flops(c) / (us * 1e6) : 0.0;
}

/* bench_op_fn: one tileops_flash_attention. */
static int run_tileops(void *arg, cudaStream_t stream)
{
    struct attn_case *c = arg;
    return bench_tileops_ok(tileops_flash_attention(c->h, &c->p, stream),
                            "tileops_flash_attention") ? 0 : -1;
}

/* bench_op_fn: the unfused reference, per sequence and pass of heads. Row-major X [r, c] with
 * row stride ld is column-major Xᵀ: Sᵀ = K·Qᵀ (K as a transposed d x seqlen_kv operand) and
 * Oᵀ = Vᵀ·Pᵀ. */
static int run_reference(void *arg, cudaStream_t stream)
{
    struct attn_case *c = arg;
    const tileops_attention_params *p = &c->p;
    const cudaDataType_t t = is_bf16(p) ? CUDA_R_16BF : CUDA_R_16F;
    const int d = p->head_dim;
    const float scale = 1.0f / sqrtf((float)d), one = 1.0f, zero = 0.0f;
    cublasSetStream(c->cb, stream);
    for (int64_t b = 0; b < p->batch; b++) {
        /* varlen: the sequence's own length, its rows from its offset (q and kv alike) */
        const int sq = c->cu_host ? c->cu_host[b + 1] - c->cu_host[b] : (int)p->seqlen_q;
        const int skv = c->cu_host ? sq : (int)p->seqlen_kv;
        const int64_t row0 = c->cu_host ? c->cu_host[b] : 0;
        for (int h0 = 0; h0 < p->heads_q; h0 += c->heads_per_pass) {
            const int nh = p->heads_q - h0 < c->heads_per_pass ? p->heads_q - h0
                                                                : c->heads_per_pass;
            const char *q = (const char *)p->q +
                            2 * (b * p->q_batch + row0 * p->q_seq + h0 * p->q_head);
            const char *k = (const char *)p->k +
                            2 * (b * p->k_batch + row0 * p->k_seq + h0 * p->k_head);
            const char *v = (const char *)p->v +
                            2 * (b * p->v_batch + row0 * p->v_seq + h0 * p->v_head);
            char *o = (char *)c->o_ref + 2 * (b * p->o_batch + row0 * p->o_seq + h0 * p->o_head);
            cublasStatus_t st = cublasGemmStridedBatchedEx(
                c->cb, CUBLAS_OP_T, CUBLAS_OP_N, skv, sq, d, &scale, k, t, (int)p->k_seq,
                p->k_head, q, t, (int)p->q_seq, p->q_head, &zero, c->s, CUDA_R_32F, skv,
                (long long)sq * skv, nh, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            if (st != CUBLAS_STATUS_SUCCESS) {
                bench_error("cublasGemmStridedBatchedEx (S = Q·Kᵀ): status %d", (int)st);
                return -1;
            }
            if (!bench_cuda_ok((cudaError_t)ref_attention_softmax(c->s, c->pm, is_bf16(p), nh,
                                                                  sq, skv, p->causal,
                                                                  p->softcap, stream),
                               "reference softmax kernel"))
                return -1;
            st = cublasGemmStridedBatchedEx(
                c->cb, CUBLAS_OP_N, CUBLAS_OP_N, d, sq, skv, &one, v, t, (int)p->v_seq,
                p->v_head, c->pm, t, skv, (long long)sq * skv, &zero, o, t, (int)p->o_seq,
                p->o_head, nh, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            if (st != CUBLAS_STATUS_SUCCESS) {
                bench_error("cublasGemmStridedBatchedEx (O = P·V): status %d", (int)st);
                return -1;
            }
        }
    }
    return 0;
}

/* The largest |O - O_ref| over every element (both dense, as p.o), into *out. */
static int max_error(const struct attn_case *c, cudaStream_t stream, double *out)
{
    const tileops_attention_params *p = &c->p;
    const int64_t n = c->rows * p->heads_q * p->head_dim;
    float err = 0.0f;
    if (!bench_cuda_ok((cudaError_t)ref_attention_max_diff(p->o, c->o_ref, is_bf16(p), n, c->err,
                                                           stream), "max difference kernel") ||
        !bench_cuda_ok(cudaMemcpyAsync(&err, c->err, sizeof err, cudaMemcpyDeviceToHost, stream),
                       "cudaMemcpyAsync (max difference)") ||
        !bench_cuda_ok(cudaStreamSynchronize(stream), "max difference"))
        return -1;
    *out = err;
    return 0;
}

/* The bound on max_err: both sides round P and O to the dtype once (fp32 elsewhere), so they
 * differ by a few units in the last place of |O| (about 1 with N(0, 1) inputs). */
static double error_bound(tileops_dtype dt)
{
    return dt == TILEOPS_BF16 ? 5e-2 : 1e-2;
}

/* One report row: a handle on `tier`, a checked first call, then tileops timed; the
 * reference's time (ref, NULL if skipped) was measured once for all tiers. Returns 0, 1 when
 * the tier does not serve the call (note printed), 2 when the row printed but its result
 * disagrees with the reference, -1 on failure. */
static int bench_row(const struct bench_ctx *ctx, struct report *rep, struct attn_case *c,
                     tileops_tier tier, const struct bench_stats *ref, const char *ref_note,
                     const char *kernel)
{
    const struct bench_opts *o = ctx->opts;
    const tileops_attention_params *p = &c->p;
    char label[96];
    snprintf(label, sizeof label, "%s %s b%" PRId64 " s%" PRId64 "%s h%d d%d%s",
             bench_dtype_name(p->dtype), bench_tier_name(tier), p->batch, p->seqlen_q,
             c->cu_host ? " varlen" : "", p->heads_q, p->head_dim, p->causal ? " causal" : "");
    if (!bench_tileops_ok(tileops_create(&c->h, ctx->device), "tileops_create"))
        return -1;
    int rc = -1;
    tileops_status st = bench_use_tier(c->h, o, tier, kernel);
    if (st == TILEOPS_SUCCESS) {
        /* poisoned first, so that a row the kernel skips cannot match by chance */
        const size_t bytes = (size_t)(c->rows * p->heads_q * p->head_dim) * 2;
        if (!bench_cuda_ok(cudaMemsetAsync(p->o, 0xff, bytes, ctx->stream), "cudaMemsetAsync"))
            goto out;
        st = tileops_flash_attention(c->h, p, ctx->stream);
    }
    if (st == TILEOPS_ERROR_NOT_SUPPORTED) {
        if (!o->list_kernels) /* most of a tier's kernels serve no given case */
            bench_error("note: attention %s skipped: %s", label, tileops_last_error());
        rc = 1;
        goto out;
    }
    if (!bench_tileops_ok(st, "tileops_flash_attention"))
        goto out;
    if (o->list_kernels) {
        rc = bench_print_choice(c->h, kernel);
        goto out;
    }
    if (!bench_cuda_ok(cudaStreamSynchronize(ctx->stream), "tileops_flash_attention (first call)"))
        goto out;
    double err = NAN;
    if (ref && max_error(c, ctx->stream, &err) != 0)
        goto out;
    int wrong = 0;
    if (ref && !(err <= error_bound(p->dtype))) {
        bench_error("attention %s: max |O - O_ref| = %g, above the bound %g (kernel %s)", label,
                    err, error_bound(p->dtype), tileops_last_kernel(c->h));
        wrong = 1;
    }
    if (wrong && o->measure) { /* tileops-tune rejects the kernel and goes on */
        rc = bench_print_wrong(c->h);
        goto out;
    }
    struct bench_stats ours;
    if (bench_timer_run(ctx->timer, o->reps, run_tileops, c, &ours) != 0)
        goto out;
    if (o->measure) {
        rc = bench_print_measured(c->h, &ours);
        goto out;
    }
    char s_tuned[8], s_uus[24], s_gain[24];
    struct bench_stats un_t;
    if (o->untuned &&
        bench_time_untuned(ctx, &c->h, NULL, NULL, NULL, run_tileops, c, &un_t) != 0)
        goto out;
    bench_tuned_columns(c->h, ours.median_us, o->untuned ? &un_t : NULL, s_tuned, s_uus, s_gain);
    const double t_ours = tflops(c, ours.median_us);
    char s_b[24], s_s[24], s_h[24], s_d[24], s_us[24], s_t[24], s_rus[24], s_rt[24], s_x[24],
        s_err[24];
    snprintf(s_b, sizeof s_b, "%" PRId64, p->batch);
    snprintf(s_s, sizeof s_s, "%" PRId64, p->seqlen_q);
    snprintf(s_h, sizeof s_h, "%d", p->heads_q);
    snprintf(s_d, sizeof s_d, "%d", p->head_dim);
    snprintf(s_us, sizeof s_us, "%.2f", ours.median_us);
    snprintf(s_t, sizeof s_t, "%.1f", t_ours);
    if (ref) {
        snprintf(s_rus, sizeof s_rus, "%.2f", ref->median_us);
        snprintf(s_rt, sizeof s_rt, "%.1f", tflops(c, ref->median_us));
        snprintf(s_x, sizeof s_x, "%.2f", ours.median_us > 0 ? ref->median_us / ours.median_us
                                                             : 0.0);
        snprintf(s_err, sizeof s_err, "%.2e", err);
    } else {
        strcpy(s_rus, "-");
        strcpy(s_rt, "-");
        strcpy(s_x, "-");
        strcpy(s_err, "-");
    }
    const char *vals[NCOLS] = {"attention", bench_dtype_name(p->dtype),
                               bench_tier_name(tileops_get_tier(c->h)), s_b, s_s, s_h, s_d,
                               p->causal ? "on" : "off", tileops_last_kernel(c->h), s_us, s_t,
                               s_rus, s_rt, s_x, s_err, ref_note, s_tuned, s_uus, s_gain};
    rc = report_row(rep, vals);
    if (rc == 0 && wrong)
        rc = 2;
out:
    tileops_destroy(c->h);
    c->h = NULL;
    return rc;
}

/* The reference's S and P for one shape: as many heads a pass as fit REF_BYTES and half the
 * free memory. Sets heads_per_pass (0: none fit, or the allocation failed) and the note. */
static void reference_alloc(struct attn_case *c, char *note, size_t len)
{
    const tileops_attention_params *p = &c->p;
    const size_t per_head = (size_t)p->seqlen_q * (size_t)p->seqlen_kv * 6;
    size_t free_b = 0, total_b = 0, budget = REF_BYTES;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && free_b / 2 < budget)
        budget = free_b / 2;
    size_t hp = budget / per_head;
    c->heads_per_pass = hp > (size_t)p->heads_q ? p->heads_q : (int)hp;
    c->s = NULL;
    c->pm = NULL;
    if (c->heads_per_pass > 0 &&
        (cudaMalloc((void **)&c->s, (size_t)c->heads_per_pass * per_head / 6 * 4) != cudaSuccess ||
         cudaMalloc(&c->pm, (size_t)c->heads_per_pass * per_head / 6 * 2) != cudaSuccess)) {
        cudaGetLastError(); /* out of memory is not sticky: clear it and go without */
        if (c->s)
            cudaFree(c->s);
        c->s = NULL;
        c->heads_per_pass = 0;
    }
    if (c->heads_per_pass == 0)
        snprintf(note, len, "skipped: S of a head > %.1f GiB", (double)budget / (1 << 30));
    else
        snprintf(note, len, "S fp32, %d of %d heads/pass", c->heads_per_pass, p->heads_q);
}

static void reference_free(struct attn_case *c)
{
    if (c->s)
        cudaFree(c->s);
    if (c->pm)
        cudaFree(c->pm);
    c->s = NULL;
    c->pm = NULL;
}

/* Every (dtype, shape, causal, tier): inputs filled once per (dtype, shape), the reference run
 * and timed once per (dtype, shape, causal). */
int bench_attention(const struct bench_ctx *ctx)
{
    const struct bench_opts *o = ctx->opts;
    int64_t shapes[MAX_SHAPES][4];
    int nshapes;
    if (o->shape_dims && o->shape_dims != 4) {
        bench_error("attention: --shape takes BATCHxSEQLENxHEADSxHEAD_DIM, e.g. 2x8192x16x128");
        return -1;
    }
    if (o->shape_dims == 4 &&
        (o->shape[1] > INT32_MAX || o->shape[2] > INT32_MAX || o->shape[3] > INT32_MAX)) {
        bench_error("attention: --shape: seqlen, heads and head_dim must fit an int");
        return -1;
    }
    /* --seqlens: the varlen batch (offsets cu[]), then the dense one of the same work */
    int cu[BENCH_MAX_SEQLENS + 1];
    if (o->nseqlens) {
        int64_t longest = 0;
        double squares = 0;
        cu[0] = 0;
        for (int i = 0; i < o->nseqlens; i++) {
            cu[i + 1] = cu[i] + o->seqlens[i];
            longest = o->seqlens[i] > longest ? o->seqlens[i] : longest;
            squares += (double)o->seqlens[i] * o->seqlens[i];
        }
        int64_t same = ((int64_t)(sqrt(squares / o->nseqlens) + 4.0)) / 8 * 8;
        same = same < 8 ? 8 : same;
        const int64_t h = o->shape_dims == 4 ? o->shape[2] : 16;
        const int64_t d = o->shape_dims == 4 ? o->shape[3] : 128;
        const int64_t both[2][4] = {{o->nseqlens, longest, h, d}, {o->nseqlens, same, h, d}};
        memcpy(shapes, both, sizeof both);
        nshapes = 2;
    } else if (o->shape_dims == 4) {
        memcpy(shapes[0], o->shape, sizeof shapes[0]);
        nshapes = 1;
    } else {
        nshapes = default_shapes(shapes);
    }
    struct attn_case c;
    memset(&c, 0, sizeof c);
    if (cublasCreate(&c.cb) != CUBLAS_STATUS_SUCCESS) {
        bench_error("cuBLAS could not be initialized");
        return -1;
    }
    struct report rep;
    int rc = report_open(&rep, columns, NCOLS, o->csv), wrong = 0;
    int *cu_dev = NULL;
    if (rc == 0 && !bench_cuda_ok(cudaMalloc((void **)&c.err, sizeof(float)), "cudaMalloc"))
        rc = -1;
    if (rc == 0 && o->nseqlens &&
        (!bench_cuda_ok(cudaMalloc((void **)&cu_dev, sizeof cu), "cudaMalloc (cu_seqlens)") ||
         !bench_cuda_ok(cudaMemcpy(cu_dev, cu, sizeof cu, cudaMemcpyHostToDevice),
                        "cudaMemcpy (cu_seqlens)")))
        rc = -1;
    for (int di = 0; di < o->ndtypes && rc == 0; di++) {
        const tileops_dtype dt = o->dtypes[di];
        if (dt != TILEOPS_F16 && dt != TILEOPS_BF16) {
            bench_error("note: attention %s skipped: attention takes f16 or bf16 (--dtype "
                        "f16|bf16|all)", bench_dtype_name(dt));
            continue;
        }
        for (int si = 0; si < nshapes && rc == 0; si++) {
            const int64_t b = shapes[si][0], s = shapes[si][1], h = shapes[si][2],
                          d = shapes[si][3];
            const int varlen = o->nseqlens && si == 0;
            c.cu_host = varlen ? cu : NULL;
            c.rows = varlen ? cu[o->nseqlens] : b * s;
            const int64_t n = c.rows * h * d;
            void *q = NULL, *k = NULL, *v = NULL, *out = NULL, *o_ref = NULL;
            float *lse = NULL;
            if (!bench_cuda_ok(cudaMalloc(&q, (size_t)n * 2), "cudaMalloc (q)") ||
                !bench_cuda_ok(cudaMalloc(&k, (size_t)n * 2), "cudaMalloc (k)") ||
                !bench_cuda_ok(cudaMalloc(&v, (size_t)n * 2), "cudaMalloc (v)") ||
                !bench_cuda_ok(cudaMalloc(&out, (size_t)n * 2), "cudaMalloc (o)") ||
                !bench_cuda_ok(cudaMalloc(&o_ref, (size_t)n * 2), "cudaMalloc (reference o)") ||
                !bench_cuda_ok(cudaMalloc((void **)&lse, (size_t)(b * h * s) * 4),
                               "cudaMalloc (lse)") ||
                !bench_cuda_ok((cudaError_t)ref_attention_fill(q, dt == TILEOPS_BF16, n, 1,
                                                               ctx->stream), "fill q") ||
                !bench_cuda_ok((cudaError_t)ref_attention_fill(k, dt == TILEOPS_BF16, n, 2,
                                                               ctx->stream), "fill k") ||
                !bench_cuda_ok((cudaError_t)ref_attention_fill(v, dt == TILEOPS_BF16, n, 3,
                                                               ctx->stream), "fill v") ||
                !bench_cuda_ok(cudaStreamSynchronize(ctx->stream), "fill"))
                rc = -1;
            tileops_attention_params *p = &c.p;
            memset(p, 0, sizeof *p);
            p->size = sizeof *p;
            p->dtype = dt;
            p->batch = b;
            p->seqlen_q = p->seqlen_kv = s;
            p->heads_q = p->heads_kv = (int)h;
            p->head_dim = (int)d;
            p->q = q, p->k = k, p->v = v, p->o = out;
            p->q_head = p->k_head = p->v_head = p->o_head = d;
            p->q_seq = p->k_seq = p->v_seq = p->o_seq = h * d;
            p->q_batch = p->k_batch = p->v_batch = p->o_batch = varlen ? 0 : s * h * d;
            if (varlen) { /* packed [total, heads, head_dim]; LSE [heads, total] */
                p->cu_seqlens_q = p->cu_seqlens_kv = cu_dev;
                p->cu_seqlens_q_host = p->cu_seqlens_kv_host = cu;
            }
            p->lse = lse;
            p->scale = 0.0f; /* 1/sqrt(head_dim), as the reference */
            if (o->window >= 0)
                p->window = 1, p->window_left = o->window, p->window_right = -1;
            p->softcap = (float)o->softcap;
            c.o_ref = o_ref;
            char note[96] = "";
            const int at = varlen ? snprintf(note, sizeof note, "varlen; ") : 0; /* in the row */
            /* the reference has softcap but no window */
            if (o->window >= 0)
                snprintf(note + at, sizeof note - at, "no reference: window %d", o->window);
            else if (rc == 0)
                reference_alloc(&c, note + at, sizeof note - at);
            for (int ci = 0; ci < o->ncausal && rc == 0; ci++) {
                p->causal = o->causal[ci];
                struct bench_stats ref_t = {0};
                /* --measure checks against the reference but does not time it */
                const int have_ref = c.heads_per_pass > 0 && !o->list_kernels;
                if (have_ref &&
                    (run_reference(&c, ctx->stream) != 0 ||
                     !bench_cuda_ok(cudaStreamSynchronize(ctx->stream), "reference (first call)") ||
                     (!o->measure &&
                      bench_timer_run(ctx->timer, o->reps, run_reference, &c, &ref_t) != 0))) {
                    rc = -1;
                    break;
                }
                for (int ti = 0; ti < o->ntiers && rc == 0; ti++) {
                    int nk;
                    const char *const *ks = bench_row_kernels(ctx, o->tiers[ti], &nk);
                    for (int q = 0; q < nk && rc == 0; q++) {
                        const int r = ks ? bench_row(ctx, &rep, &c, o->tiers[ti],
                                                     have_ref ? &ref_t : NULL, note, ks[q])
                                         : -1;
                        if (r < 0)
                            rc = -1;
                        else if (r == 2)
                            wrong = 1;
                    }
                }
            }
            reference_free(&c);
            void *bufs[] = {q, k, v, out, o_ref, lse};
            for (int i = 0; i < 6; i++)
                if (bufs[i])
                    cudaFree(bufs[i]);
        }
    }
    if (c.err)
        cudaFree(c.err);
    if (cu_dev)
        cudaFree(cu_dev);
    cublasDestroy(c.cb);
    if (report_close(&rep) != 0)
        rc = -1;
    if (rc == 0 && wrong) {
        bench_error("attention: some results disagree with the reference (see above)");
        rc = -1;
    }
    return rc;
}
