/* bench_gemm.c: tileops_gemm against cuBLAS in the same process.
 *
 * Each row is one problem (dtype, B layout, epilogue, m x n x k) on one tier: TFLOP/s of
 * tileops_gemm (2·m·n·k flops), of the reference, and their ratio. The reference is
 * cublasGemmEx (fp32 compute) without an epilogue, and cuBLASLt with the same fused epilogue
 * (RELU_BIAS, GELU_BIAS: GELU's tanh form, so tileops runs GELU_TANH) with one. Epilogue rows
 * also time the unfused way: tileops_gemm without an epilogue, then a separate bias +
 * activation kernel (ref_epilogue.cu). The first call of each side is checked against the
 * other on a sample of elements.
 *
 * peak_frac is tileops' TFLOP/s over the dense tensor-core peak of the tier that served the row
 * (whichever of its kernels ran): the wgmma m64n256k16 probe of tileops-bench ceiling for sm90,
 * its mma.sync m16n8k16 probe for sm80 and sm70, for the row's dtype. Each peak a requested tier
 * needs is measured once, at the start, with a short run of that probe (bench_tensor_peak) and
 * printed in a note; "-" where the device or build cannot run the probe. */
#include "bench.h"
#include "data.h"
#include "ref_epilogue.h"
#include "report.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LT_WORKSPACE ((size_t)32 << 20)

static const struct report_col columns[] = {
    {"op", 4, 0},         {"dtype", 5, 0},       {"tier", 4, 0},         {"b", 2, 0},
    {"epilogue", 9, 0},   {"m", 6, 1},           {"n", 6, 1},            {"k", 6, 1},
    {"kernel", 48, 0},    {"median_us", 10, 1},  {"tflops", 7, 1},       {"reference", 9, 0},
    {"ref_tflops", 10, 1}, {"ratio", 6, 1},      {"unfused_tflops", 14, 1}, {"peak_frac", 9, 1},
    BENCH_TUNED_COLUMNS,
};
#define NCOLS ((int)(sizeof columns / sizeof columns[0]))

/* The shapes: squares, and decode to prefill rows against LLM weight matrices. */
static int default_shapes(int64_t (*out)[3])
{
    static const int64_t squares[] = {1024, 2048, 4096, 8192};
    static const int64_t ms[] = {1, 16, 128, 4096};
    static const int64_t nks[][2] = {{4096, 4096}, {11008, 4096}, {4096, 11008},
                                     {14336, 4096}, {128256, 4096}};
    int n = 0;
    for (int i = 0; i < 4; i++, n++)
        out[n][0] = out[n][1] = out[n][2] = squares[i];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++, n++) {
            out[n][0] = ms[i];
            out[n][1] = nks[j][0];
            out[n][2] = nks[j][1];
        }
    return n;
}

/* One problem's device buffers and handles, shared by the timed calls. */
struct gemm_case {
    tileops_handle h;
    cublasHandle_t cb;
    cublasLtHandle_t lt;
    tileops_gemm_params p;
    void *ws;            /* tileops workspace */
    size_t ws_bytes;
    void *ref_d;         /* the reference's output */
    void *lt_ws;         /* cuBLASLt workspace */
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, ld;
    cublasLtMatmulAlgo_t algo;
    int lt_ready;
};

static const char *epilogue_name(unsigned e)
{
    return e == TILEOPS_EPILOGUE_NONE ? "none"
           : (e & TILEOPS_EPILOGUE_RELU) ? "bias_relu" : "bias_gelu";
}

static int run_tileops(void *arg, cudaStream_t stream)
{
    struct gemm_case *c = arg;
    return bench_tileops_ok(tileops_gemm(c->h, &c->p, c->ws, c->ws_bytes, stream),
                            "tileops_gemm") ? 0 : -1;
}

/* The unfused way: the GEMM without epilogue, then bias + activation as a second kernel. */
static int run_unfused(void *arg, cudaStream_t stream)
{
    struct gemm_case *c = arg;
    tileops_gemm_params plain = c->p;
    plain.epilogue = TILEOPS_EPILOGUE_NONE;
    plain.bias = NULL;
    if (!bench_tileops_ok(tileops_gemm(c->h, &plain, c->ws, c->ws_bytes, stream), "tileops_gemm"))
        return -1;
    return bench_cuda_ok((cudaError_t)ref_bias_act(c->p.d, c->p.dtype == TILEOPS_BF16, c->p.m,
                                                   c->p.n, c->p.ldd, c->p.bias,
                                                   (c->p.epilogue & TILEOPS_EPILOGUE_RELU) == 0,
                                                   stream),
                         "bias + activation kernel") ? 0 : -1;
}

/* cublasGemmEx: row-major D = A·op(B) is column-major Dᵀ = op(B)ᵀ·Aᵀ. */
static int run_cublas(void *arg, cudaStream_t stream)
{
    struct gemm_case *c = arg;
    const tileops_gemm_params *p = &c->p;
    const cudaDataType_t t = p->dtype == TILEOPS_BF16 ? CUDA_R_16BF : CUDA_R_16F;
    const float beta = 0.0f;
    cublasSetStream(c->cb, stream);
    cublasStatus_t st = cublasGemmEx(
        c->cb, p->b_layout == TILEOPS_B_NK ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, (int)p->n,
        (int)p->m, (int)p->k, &p->alpha, p->b, t, (int)p->ldb, p->a, t, (int)p->lda, &beta,
        c->ref_d, t, (int)p->ldd, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) {
        bench_error("cublasGemmEx: status %d", (int)st);
        return -1;
    }
    return 0;
}

static int run_cublaslt(void *arg, cudaStream_t stream)
{
    struct gemm_case *c = arg;
    const float beta = 0.0f;
    cublasStatus_t st = cublasLtMatmul(c->lt, c->desc, &c->p.alpha, c->p.b, c->la, c->p.a, c->lb,
                                       &beta, c->ref_d, c->ld, c->ref_d, c->ld, &c->algo, c->lt_ws,
                                       LT_WORKSPACE, stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
        bench_error("cublasLtMatmul: status %d", (int)st);
        return -1;
    }
    return 0;
}

/* Sets up cuBLASLt for the case's problem and epilogue (transposes as run_cublas). */
static int lt_setup(struct gemm_case *c)
{
    const tileops_gemm_params *p = &c->p;
    const cudaDataType_t t = p->dtype == TILEOPS_BF16 ? CUDA_R_16BF : CUDA_R_16F;
    const int nk = p->b_layout == TILEOPS_B_NK;
    cublasOperation_t ta = nk ? CUBLAS_OP_T : CUBLAS_OP_N, tb = CUBLAS_OP_N;
    cublasLtEpilogue_t epi = (p->epilogue & TILEOPS_EPILOGUE_RELU) ? CUBLASLT_EPILOGUE_RELU_BIAS
                                                                   : CUBLASLT_EPILOGUE_GELU_BIAS;
    if (cublasLtMatmulDescCreate(&c->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F) ||
        cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta) ||
        cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb) ||
        cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi) ||
        cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &p->bias,
                                       sizeof p->bias) ||
        cublasLtMatrixLayoutCreate(&c->la, t, nk ? (uint64_t)p->k : (uint64_t)p->n,
                                   nk ? (uint64_t)p->n : (uint64_t)p->k, p->ldb) ||
        cublasLtMatrixLayoutCreate(&c->lb, t, (uint64_t)p->k, (uint64_t)p->m, p->lda) ||
        cublasLtMatrixLayoutCreate(&c->ld, t, (uint64_t)p->n, (uint64_t)p->m, p->ldd)) {
        bench_error("cuBLASLt: could not describe the problem");
        return -1;
    }
    cublasLtMatmulPreference_t pref;
    size_t wsb = LT_WORKSPACE;
    cublasLtMatmulHeuristicResult_t res;
    int found = 0;
    if (cublasLtMatmulPreferenceCreate(&pref) ||
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb,
                                             sizeof wsb) ||
        cublasLtMatmulAlgoGetHeuristic(c->lt, c->desc, c->la, c->lb, c->ld, c->ld, pref, 1, &res,
                                       &found) || !found) {
        bench_error("cuBLASLt: no algorithm for this problem");
        cublasLtMatmulPreferenceDestroy(pref);
        return -1;
    }
    cublasLtMatmulPreferenceDestroy(pref);
    c->algo = res.algo;
    c->lt_ready = 1;
    return 0;
}

static void lt_teardown(struct gemm_case *c)
{
    if (!c->lt_ready)
        return;
    cublasLtMatrixLayoutDestroy(c->la);
    cublasLtMatrixLayoutDestroy(c->lb);
    cublasLtMatrixLayoutDestroy(c->ld);
    cublasLtMatmulDescDestroy(c->desc);
    c->lt_ready = 0;
}

/* Compares 4096 evenly spread elements of tileops' D with the reference's: two roundings to
 * the dtype apart relative to max(|reference|, 1), plus K * 2^-20 for fp32 sums taken in
 * another order (a row of this data that cancels to near 0 over K = 11008 differed by 0.0026
 * in f16: its terms reach 64). The tests compare with an fp64 reference; this catches a
 * broken kernel, not the last bit. */
static int check_against_reference(const struct gemm_case *c, const char *label)
{
    const tileops_gemm_params *p = &c->p;
    const int64_t total = p->m * p->n, step = total / 4096 + 1, count = (total + step - 1) / step;
    unsigned short x[4096], y[4096];
    const double bound = p->dtype == TILEOPS_BF16 ? 0x1p-7 : 0x1p-10;
    /* D is contiguous here (ldd = n): the samples are every step-th element, gathered by one
     * strided copy each (one small copy a sample took most of tileops-tune's time) */
    if (!bench_cuda_ok(cudaMemcpy2D(x, 2, p->d, (size_t)step * 2, 2, (size_t)count,
                                    cudaMemcpyDeviceToHost), "check") ||
        !bench_cuda_ok(cudaMemcpy2D(y, 2, c->ref_d, (size_t)step * 2, 2, (size_t)count,
                                    cudaMemcpyDeviceToHost), "check"))
        return -1;
    for (int64_t s = 0; s < count; s++) {
        const int64_t r = s * step / p->n, col = s * step % p->n;
        const double a = p->dtype == TILEOPS_BF16 ? bf16_to_f32(x[s]) : f16_to_f32(x[s]);
        const double b = p->dtype == TILEOPS_BF16 ? bf16_to_f32(y[s]) : f16_to_f32(y[s]);
        if (!(fabs(a - b) <= bound * (fabs(b) + 1.0) * 2 + (double)p->k * 0x1p-20)) {
            bench_error("gemm %s: D[%" PRId64 "][%" PRId64 "] = %g, reference %g", label, r, col,
                        a, b);
            return -1;
        }
    }
    return 0;
}

static double tflops(const tileops_gemm_params *p, double us)
{
    return us > 0 ? 2.0 * (double)p->m * (double)p->n * (double)p->k / (us * 1e6) : 0.0;
}

/* The peaks rows are read against, tf[wgmma][bf16] in TFLOP/s: wgmma for the sm90 tier,
 * mma.sync below it; < 0 where not measured or not measurable here. */
struct gemm_peaks {
    double tf[2][2];
};

/* Measures each peak that a requested tier (as a handle resolves it on this device) and a
 * requested f16 or bf16 dtype need, once, and prints it in a note. Returns 0, or -1 (message
 * printed). */
static int measure_peaks(const struct bench_ctx *ctx, struct gemm_peaks *peaks)
{
    const struct bench_opts *o = ctx->opts;
    int need[2] = {0, 0};
    tileops_handle h;
    for (int w = 0; w < 2; w++)
        peaks->tf[w][0] = peaks->tf[w][1] = -1.0;
    if (!bench_tileops_ok(tileops_create(&h, ctx->device), "tileops_create"))
        return -1;
    for (int t = 0; t < o->ntiers; t++)
        if (tileops_set_tier(h, o->tiers[t]) == TILEOPS_SUCCESS) /* else bench_row's note */
            need[tileops_get_tier(h) == TILEOPS_TIER_SM90] = 1;
    tileops_destroy(h);
    for (int d = 0; d < o->ndtypes; d++) {
        if (o->dtypes[d] == TILEOPS_F32)
            continue;
        const int bf16 = o->dtypes[d] == TILEOPS_BF16;
        for (int w = 0; w < 2; w++) {
            const char *probe = w ? "wgmma" : "mma_sync", *dt = bench_dtype_name(o->dtypes[d]);
            char config[96];
            double tf = 0;
            if (!need[w])
                continue;
            const int rc = bench_tensor_peak(ctx, w, bf16, &tf, config, sizeof config);
            if (rc < 0)
                return -1;
            if (rc > 0) {
                bench_error("note: gemm peak_frac of %s rows on %s: no %s peak: %s", dt,
                            w ? "sm90" : "sm70 and sm80", probe, config);
                continue;
            }
            peaks->tf[w][bf16] = tf;
            bench_error("note: gemm peak_frac of %s rows on %s: %s peak %.1f TFLOP/s (%s; a "
                        "short run, tileops-bench ceiling times it in full)", dt,
                        w ? "sm90" : "sm70 and sm80", probe, tf, config);
        }
    }
    return 0;
}

/* bench_ws_query_fn: the case's workspace on handle h. */
static tileops_status gemm_ws(tileops_handle h, void *arg, size_t *bytes)
{
    return tileops_gemm_workspace_size(h, &((struct gemm_case *)arg)->p, bytes);
}

/* One report row: a handle on `tier`, a checked first call of each side, then the timings.
 * Returns 0, 1 when the tier or dtype is not served here (note printed), -1 on failure. */
static int bench_row(const struct bench_ctx *ctx, struct report *rep, struct gemm_case *c,
                     tileops_tier tier, const struct gemm_peaks *peaks, const char *kernel)
{
    const struct bench_opts *o = ctx->opts;
    char label[96];
    snprintf(label, sizeof label, "%s %s %s %s %" PRId64 "x%" PRId64 "x%" PRId64,
             bench_dtype_name(c->p.dtype), bench_tier_name(tier),
             c->p.b_layout == TILEOPS_B_NK ? "nk" : "kn", epilogue_name(c->p.epilogue), c->p.m,
             c->p.n, c->p.k);
    if (!bench_tileops_ok(tileops_create(&c->h, ctx->device), "tileops_create"))
        return -1;
    int rc = -1;
    c->ws = NULL;
    tileops_status st = bench_use_tier(c->h, o, tier, kernel);
    if (st == TILEOPS_SUCCESS)
        st = tileops_gemm_workspace_size(c->h, &c->p, &c->ws_bytes);
    if (st == TILEOPS_ERROR_NOT_SUPPORTED) {
        if (!o->list_kernels) /* most of a tier's kernels serve no given case */
            bench_error("note: gemm %s skipped: %s", label, tileops_last_error());
        rc = 1;
        goto out;
    }
    const int fused = c->p.epilogue != TILEOPS_EPILOGUE_NONE;
    if (!bench_tileops_ok(st, "tileops_gemm_workspace_size") ||
        (c->ws_bytes && !bench_cuda_ok(cudaMalloc(&c->ws, c->ws_bytes), "cudaMalloc (workspace)")) ||
        /* poisoned (NaN), so that a kernel that skips elements cannot pass on the last one's */
        !bench_cuda_ok(cudaMemsetAsync(c->p.d, 0xff, (size_t)(c->p.m * c->p.ldd) * 2,
                                       ctx->stream), "cudaMemsetAsync (poison d)") ||
        run_tileops(c, ctx->stream) != 0)
        goto out;
    if (o->list_kernels) {
        rc = bench_print_choice(c->h, kernel);
        goto out;
    }
    if ((fused ? run_cublaslt(c, ctx->stream) : run_cublas(c, ctx->stream)) != 0 ||
        !bench_cuda_ok(cudaStreamSynchronize(ctx->stream), "first calls"))
        goto out;
    if (check_against_reference(c, label) != 0) {
        if (o->measure) /* tileops-tune rejects the kernel and goes on */
            rc = bench_print_wrong(c->h);
        goto out;
    }

    struct bench_stats t_ours, t_ref, t_unfused = {0};
    if (bench_timer_run(ctx->timer, o->reps, run_tileops, c, &t_ours) != 0)
        goto out;
    if (o->measure) {
        rc = bench_print_measured(c->h, &t_ours);
        goto out;
    }
    if (bench_timer_run(ctx->timer, o->reps, fused ? run_cublaslt : run_cublas, c, &t_ref) != 0 ||
        (fused && bench_timer_run(ctx->timer, o->reps, run_unfused, c, &t_unfused) != 0))
        goto out;
    char s_tuned[8], s_uus[24], s_gain[24];
    struct bench_stats t_untuned;
    if (o->untuned && bench_time_untuned(ctx, &c->h, &c->ws, &c->ws_bytes, gemm_ws, run_tileops,
                                         c, &t_untuned) != 0)
        goto out;
    bench_tuned_columns(c->h, t_ours.median_us, o->untuned ? &t_untuned : NULL, s_tuned, s_uus,
                        s_gain);
    const double ours = tflops(&c->p, t_ours.median_us), ref = tflops(&c->p, t_ref.median_us);
    const tileops_tier served = tileops_get_tier(c->h);
    const double peak = peaks->tf[served == TILEOPS_TIER_SM90][c->p.dtype == TILEOPS_BF16];
    char s_m[24], s_n[24], s_k[24], s_us[24], s_t[24], s_rt[24], s_ratio[24], s_unf[24];
    char s_frac[24] = "-";
    snprintf(s_m, sizeof s_m, "%" PRId64, c->p.m);
    snprintf(s_n, sizeof s_n, "%" PRId64, c->p.n);
    snprintf(s_k, sizeof s_k, "%" PRId64, c->p.k);
    snprintf(s_us, sizeof s_us, "%.2f", t_ours.median_us);
    snprintf(s_t, sizeof s_t, "%.1f", ours);
    snprintf(s_rt, sizeof s_rt, "%.1f", ref);
    snprintf(s_ratio, sizeof s_ratio, "%.3f", ref > 0 ? ours / ref : 0.0);
    snprintf(s_unf, sizeof s_unf, fused ? "%.1f" : "-", tflops(&c->p, t_unfused.median_us));
    if (peak > 0)
        snprintf(s_frac, sizeof s_frac, "%.3f", ours / peak);
    const char *vals[NCOLS] = {"gemm", bench_dtype_name(c->p.dtype),
                               bench_tier_name(served),
                               c->p.b_layout == TILEOPS_B_NK ? "nk" : "kn",
                               epilogue_name(c->p.epilogue), s_m, s_n, s_k,
                               tileops_last_kernel(c->h), s_us, s_t,
                               fused ? "cublasLt" : "cublas", s_rt, s_ratio, s_unf, s_frac,
                               s_tuned, s_uus, s_gain};
    rc = report_row(rep, vals);
out:
    if (c->ws)
        cudaFree(c->ws);
    tileops_destroy(c->h);
    return rc;
}

int bench_gemm(const struct bench_ctx *ctx)
{
    const struct bench_opts *o = ctx->opts;
    int64_t shapes[32][3];
    int nshapes;
    if (o->shape_dims == 2) {
        bench_error("gemm: --shape takes MxNxK");
        return -1;
    }
    if (o->shape_dims == 3) {
        memcpy(shapes[0], o->shape, sizeof shapes[0]);
        nshapes = 1;
    } else {
        nshapes = default_shapes(shapes);
    }
    struct gemm_case c;
    memset(&c, 0, sizeof c);
    if (cublasCreate(&c.cb) != CUBLAS_STATUS_SUCCESS || cublasLtCreate(&c.lt) != CUBLAS_STATUS_SUCCESS) {
        bench_error("cuBLAS could not be initialized");
        return -1;
    }
    struct gemm_peaks peaks = {{{-1.0, -1.0}, {-1.0, -1.0}}};
    if (!o->list_kernels && !o->measure && measure_peaks(ctx, &peaks) != 0) {
        cublasLtDestroy(c.lt);
        cublasDestroy(c.cb);
        return -1;
    }
    struct report rep;
    int rc = report_open(&rep, columns, NCOLS, o->csv);
    if (!bench_cuda_ok(cudaMalloc(&c.lt_ws, LT_WORKSPACE), "cudaMalloc (cuBLASLt workspace)"))
        rc = -1;
    for (int d = 0; d < o->ndtypes && rc == 0; d++) {
        if (o->dtypes[d] == TILEOPS_F32) {
            bench_error("note: gemm f32 skipped: GEMM takes f16 or bf16 (--dtype f16|bf16|all)");
            continue;
        }
        for (int s = 0; s < nshapes && rc == 0; s++) {
            const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            void *a = NULL, *b = NULL, *dd = NULL, *refd = NULL, *bias = NULL;
            if (!bench_cuda_ok(cudaMalloc(&a, (size_t)(m * k) * 2), "cudaMalloc (a)") ||
                !bench_cuda_ok(cudaMalloc(&b, (size_t)(n * k) * 2), "cudaMalloc (b)") ||
                !bench_cuda_ok(cudaMalloc(&dd, (size_t)(m * n) * 2), "cudaMalloc (d)") ||
                !bench_cuda_ok(cudaMalloc(&refd, (size_t)(m * n) * 2), "cudaMalloc (ref d)") ||
                !bench_cuda_ok(cudaMalloc(&bias, (size_t)n * 2), "cudaMalloc (bias)") ||
                data_fill_random(a, o->dtypes[d], m * k, 1, ctx->stream) != 0 ||
                data_fill_random(b, o->dtypes[d], n * k, 2, ctx->stream) != 0 ||
                data_fill_random(bias, o->dtypes[d], n, 3, ctx->stream) != 0)
                rc = -1;
            for (int l = 0; l < o->nlayouts && rc == 0; l++)
                for (int e = 0; e < o->nepilogues && rc == 0; e++) {
                    tileops_gemm_params *p = &c.p;
                    memset(p, 0, sizeof *p);
                    p->size = sizeof *p;
                    p->dtype = o->dtypes[d];
                    p->b_layout = o->layouts[l];
                    p->m = m, p->n = n, p->k = k;
                    p->a = a, p->lda = k;
                    p->b = b, p->ldb = p->b_layout == TILEOPS_B_NK ? k : n;
                    p->d = dd, p->ldd = n;
                    p->alpha = 1.0f;
                    p->epilogue = o->epilogues[e];
                    p->bias = o->epilogues[e] ? bias : NULL;
                    c.ref_d = refd;
                    if (p->epilogue && lt_setup(&c) != 0) {
                        rc = -1;
                        break;
                    }
                    for (int t = 0; t < o->ntiers && rc == 0; t++) {
                        int nk;
                        const char *const *ks = bench_row_kernels(ctx, o->tiers[t], &nk);
                        for (int q = 0; q < nk && rc == 0; q++)
                            if (!ks || bench_row(ctx, &rep, &c, o->tiers[t], &peaks, ks[q]) < 0)
                                rc = -1;
                    }
                    lt_teardown(&c);
                }
            void *bufs[] = {a, b, dd, refd, bias};
            for (int i = 0; i < 5; i++)
                if (bufs[i])
                    cudaFree(bufs[i]);
        }
    }
    if (c.lt_ws)
        cudaFree(c.lt_ws);
    cublasLtDestroy(c.lt);
    cublasDestroy(c.cb);
    if (report_close(&rep) != 0)
        rc = -1;
    return rc;
}
