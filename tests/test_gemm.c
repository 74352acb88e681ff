/* test_gemm.c: tileops_gemm on the GPU against an fp64 CPU reference (every row of small
 * problems, a sample of rows of large ones) and against cuBLAS, for f16 and bf16, both B
 * layouts, every epilogue, every tier of this build (forced): shapes from 1x1x1 to
 * 4096^3 and decode rows, leading dimensions wider than the rows, misaligned operands, C
 * aliasing D, beta = 0 over a NaN C; and every instance of the registry pinned
 * (tileops_set_kernel) on small ragged shapes, case `instances` (the gemm_wgmma family in
 * case `wgmma`, also on every epilogue, ragged K and more tiles than SMs; TILEOPS_TEST_INSTANCE
 * narrows them, see util_host.h). D and its padding are
 * poisoned with 0xff bytes (NaN) first. Without a CUDA device it prints "skipped: no CUDA device". */
#include <check.h>
#include <cublas_v2.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"
#include "util_ref.h"
#include "util_host.h"

#define SAMPLE_ROWS 16 /* beyond this many rows, check a sample */

static const tileops_dtype dtypes[] = {TILEOPS_F16, TILEOPS_BF16};


/* One problem as the test builds it: host operands with their strides and the call's knobs. */
struct problem {
    tileops_dtype dt;
    tileops_layout layout;
    int64_t m, n, k, lda, ldb, ldc, ldd;
    float alpha, beta;
    unsigned epilogue;
    int with_c;      /* 0: no C; 1: C separate; 2: C is D (in place) */
    int c_nan;       /* C filled with NaN (with beta = 0 it must not show) */
    int misalign;    /* start a, b, c and d one element past alignment */
    int ws_half;     /* give half the workspace asked for (fewer split-K splits must run) */
    void *a, *b, *c, *bias; /* host */
    uint64_t seed;
};

static size_t rows_b(const struct problem *p)
{
    return (size_t)(p->layout == TILEOPS_B_NK ? p->n : p->k);
}

static void make_host(struct problem *p)
{
    struct rng r = {rng_seed_from_clock() | 1};
    p->seed = r.s;
    const size_t na = (size_t)(p->m * p->lda), nb = rows_b(p) * (size_t)p->ldb;
    const size_t nc = (size_t)(p->m * p->ldc);
    p->a = malloc(na * 2);
    p->b = malloc(nb * 2);
    p->c = malloc(nc * 2);
    p->bias = malloc((size_t)p->n * 2);
    ck_assert(p->a && p->b && p->c && p->bias);
    fill_random(p->a, p->dt, na, &r);
    fill_random(p->b, p->dt, nb, &r);
    fill_random(p->c, p->dt, nc, &r);
    fill_random(p->bias, p->dt, (size_t)p->n, &r);
    if (p->c_nan)
        memset(p->c, 0xff, nc * 2);
}

static void free_host(struct problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
    free(p->bias);
}

/* fp64 reference of one output element, and the sum of |a·b| terms (the accumulation's
 * scale, for the tolerance). */
static double reference(const struct problem *p, int64_t i, int64_t j, double *scale)
{
    double acc = 0, mag = 0;
    for (int64_t kk = 0; kk < p->k; kk++) {
        const double av = get_elem(p->a, p->dt, (size_t)(i * p->lda + kk));
        const size_t bi = p->layout == TILEOPS_B_NK ? (size_t)(j * p->ldb + kk)
                                                    : (size_t)(kk * p->ldb + j);
        const double bv = get_elem(p->b, p->dt, bi);
        acc += av * bv;
        mag += fabs(av * bv);
    }
    double v = p->alpha * acc;
    if (p->with_c && p->beta != 0.0f)
        v += p->beta * get_elem(p->c, p->dt, (size_t)(i * p->ldc + j));
    if (p->epilogue & TILEOPS_EPILOGUE_BIAS)
        v += get_elem(p->bias, p->dt, (size_t)j);
    if (p->epilogue & TILEOPS_EPILOGUE_RELU)
        v = v < 0 ? 0 : v;
    if (p->epilogue & TILEOPS_EPILOGUE_GELU_ERF)
        v = 0.5 * v * (1 + erf(v / sqrt(2.0)));
    if (p->epilogue & TILEOPS_EPILOGUE_GELU_TANH)
        v = 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    *scale = fabs(p->alpha) * mag;
    return v;
}

/* The rows to check: all of them, or the first, the last and a spread sample. */
static int checked_row(const struct problem *p, int64_t i)
{
    if (p->m <= SAMPLE_ROWS || i == 0 || i == p->m - 1)
        return 1;
    return i % (p->m / SAMPLE_ROWS + 1) == 0;
}

/* Device copies of a problem's operands (each `misalign` elements into its allocation). */
struct device {
    char *alloc[5];
    void *a, *b, *c, *d, *bias;
    size_t dbytes; /* d's allocation, poisoned */
};

static void to_device(const struct problem *p, struct device *dv, cudaStream_t s)
{
    const size_t off = p->misalign ? 2 : 0;
    const size_t na = (size_t)(p->m * p->lda) * 2, nb = rows_b(p) * (size_t)p->ldb * 2;
    const size_t nc = (size_t)(p->m * p->ldc) * 2, nd = (size_t)(p->m * p->ldd) * 2;
    memset(dv, 0, sizeof *dv);
    const size_t sizes[5] = {na, nb, nc, nd, (size_t)p->n * 2};
    for (int i = 0; i < 5; i++)
        CUDA_OK(cudaMalloc((void **)&dv->alloc[i], sizes[i] + 16));
    dv->a = dv->alloc[0] + off;
    dv->b = dv->alloc[1] + off;
    dv->c = dv->alloc[2] + off;
    dv->d = dv->alloc[3] + off;
    dv->bias = dv->alloc[4] + off;
    dv->dbytes = nd + 16;
    upload(dv->a, p->a, na);
    upload(dv->b, p->b, nb);
    upload(dv->c, p->c, nc);
    upload(dv->bias, p->bias, (size_t)p->n * 2);
    if (p->with_c == 2) /* C is D: D starts as C's values (ldc == ldd) */
        CUDA_OK(cudaMemcpyAsync(dv->d, p->c, nc, cudaMemcpyHostToDevice, s));
    else
        CUDA_OK(cudaMemsetAsync(dv->alloc[3], 0xff, dv->dbytes, s));
    CUDA_OK(cudaStreamSynchronize(s));
}

static void free_device(struct device *dv)
{
    for (int i = 0; i < 5; i++)
        CUDA_OK(cudaFree(dv->alloc[i]));
}

/* Runs the problem on h and checks D against fp64 (and the untouched padding). Returns the
 * kernel chosen. */
static const char *run_and_check(tileops_handle h, const struct problem *p)
{
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    struct device dv;
    to_device(p, &dv, s);
    tileops_gemm_params q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.dtype = p->dt;
    q.b_layout = p->layout;
    q.m = p->m, q.n = p->n, q.k = p->k;
    q.a = dv.a, q.lda = p->lda;
    q.b = dv.b, q.ldb = p->ldb;
    q.c = p->with_c == 0 ? NULL : p->with_c == 2 ? dv.d : dv.c;
    q.ldc = p->with_c == 2 ? p->ldd : p->ldc;
    q.d = dv.d, q.ldd = p->ldd;
    q.bias = (p->epilogue & TILEOPS_EPILOGUE_BIAS) ? dv.bias : NULL;
    q.alpha = p->alpha, q.beta = p->beta;
    q.epilogue = p->epilogue;
    size_t wsb = 0;
    void *ws = NULL;
    ck_assert_msg(tileops_gemm_workspace_size(h, &q, &wsb) == TILEOPS_SUCCESS, "%s",
                  tileops_last_error());
    if (p->ws_half)
        wsb = wsb / 2 / 16 * 16;
    if (wsb) {
        CUDA_OK(cudaMalloc(&ws, wsb));
        CUDA_OK(cudaMemsetAsync(ws, 0xff, wsb, s));
    }
    tileops_status st = tileops_gemm(h, &q, ws, wsb, s);
    ck_assert_msg(st == TILEOPS_SUCCESS, "status %d: %s", st, tileops_last_error());
    CUDA_OK(cudaStreamSynchronize(s));
    CUDA_OK(cudaGetLastError());

    const size_t nd = (size_t)(p->m * p->ldd);
    unsigned short *got = malloc(nd * 2);
    ck_assert_ptr_nonnull(got);
    CUDA_OK(cudaMemcpy(got, dv.d, nd * 2, cudaMemcpyDeviceToHost));
    const char *kn = tileops_last_kernel(h);
    for (int64_t i = 0; i < p->m; i++) {
        if (!checked_row(p, i))
            continue;
        for (int64_t j = 0; j < p->ldd; j++) {
            const size_t at = (size_t)(i * p->ldd + j);
            if (j >= p->n) { /* padding: poisoned, or C's own values in place */
                const unsigned short want =
                    p->with_c == 2 ? ((const unsigned short *)p->c)[(size_t)(i * p->ldc + j)]
                                   : 0xffff;
                ck_assert_msg(got[at] == want, "%s: padding D[%" PRId64 "][%" PRId64 "] written",
                              kn, i, j);
                continue;
            }
            double scale;
            const double ref = reference(p, i, j, &scale);
            const double v = get_elem(got, p->dt, at);
            if (!(fabs(v - ref) <= ref_gemm_tolerance(p->dt, ref, scale)))
                ck_abort_msg("%s %s %s %" PRId64 "x%" PRId64 "x%" PRId64 " epi 0x%x c %d: "
                             "D[%" PRId64 "][%" PRId64 "] = %.6g, reference %.6g (seed %" PRIu64
                             ", kernel %s)", tileops__dtype_name(p->dt),
                             p->layout == TILEOPS_B_NK ? "nk" : "kn",
                             p->misalign ? "misaligned" : "aligned", p->m, p->n, p->k,
                             p->epilogue, p->with_c, i, j, v, ref, p->seed, kn);
        }
    }
    free(got);
    CUDA_OK(cudaFree(ws));
    free_device(&dv);
    CUDA_OK(cudaStreamDestroy(s));
    return kn;
}

static struct problem problem(tileops_dtype dt, tileops_layout layout, int64_t m, int64_t n,
                              int64_t k, int64_t pad)
{
    struct problem p;
    memset(&p, 0, sizeof p);
    p.dt = dt, p.layout = layout;
    p.m = m, p.n = n, p.k = k;
    p.lda = k + pad;
    p.ldb = (layout == TILEOPS_B_NK ? k : n) + pad;
    p.ldc = n + pad;
    p.ldd = n + pad;
    p.alpha = 1.0f;
    return p;
}

/* TILEOPS_TEST_SMALL=1 (test_small_only()) leaves out 1000^3 and 4096^3. */
/* Every tier and layout for one dtype (_i): small and ragged shapes with every epilogue,
 * C separate or in place, padded rows; large ones with two epilogues. */
START_TEST(shapes_every_tier)
{
    const tileops_dtype dt = dtypes[_i];
    static const int64_t small[][3] = {{1, 1, 1}, {17, 33, 65}, {127, 255, 513}, {64, 128, 256}};
    static const int64_t large[][3] = {{1, 4096, 4096}, {16, 4096, 4096}, {1000, 1000, 1000},
                                       {4096, 4096, 4096}};
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        if (tileops_built_tiers[ti].tier == 70 && dt == TILEOPS_BF16)
            continue; /* NOT_SUPPORTED there: checked in test_gemm_api */
        tileops_handle h = handle_on_tier(ti);
        for (int lay = 0; lay < 2; lay++) {
            for (size_t s = 0; s < sizeof small / sizeof small[0]; s++)
                for (int e = 0; e < REF_GEMM_EPILOGUES; e++) {
                    struct problem p = problem(dt, (tileops_layout)lay, small[s][0], small[s][1],
                                               small[s][2], e % 2 ? 8 : 0);
                    p.with_c = e % 3;
                    p.alpha = e % 2 ? 0.5f : 1.0f;
                    p.beta = p.with_c ? 0.75f : 0.0f;
                    p.epilogue = ref_gemm_epilogues[e];
                    make_host(&p);
                    run_and_check(h, &p);
                    free_host(&p);
                }
            for (size_t s = 0; s < sizeof large / sizeof large[0]; s++)
                for (int e = 0; e < 2 && !(test_small_only() && large[s][0] > 16); e++) {
                    struct problem p = problem(dt, (tileops_layout)lay, large[s][0], large[s][1],
                                               large[s][2], 0);
                    p.with_c = e ? 2 : 1;
                    p.beta = e ? 1.0f : 0.5f;
                    p.epilogue = e ? TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_ERF
                                   : TILEOPS_EPILOGUE_NONE;
                    make_host(&p);
                    run_and_check(h, &p);
                    free_host(&p);
                }
        }
        tileops_destroy(h);
    }
}
END_TEST

/* Decode rows with a ragged N and K (split-K partials and their reduction at the edges), with
 * the workspace asked for and with half of it. _i = dtype index. */
START_TEST(split_k_edges)
{
    const tileops_dtype dt = dtypes[_i];
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        if (tileops_built_tiers[ti].tier == 70 && dt == TILEOPS_BF16)
            continue;
        tileops_handle h = handle_on_tier(ti);
        for (int lay = 0; lay < 2; lay++)
            for (int half = 0; half < 2; half++) {
                struct problem p = problem(dt, (tileops_layout)lay, 5, 4099, 3001, 0);
                p.ws_half = half;
                p.with_c = 1, p.beta = 0.5f;
                p.epilogue = TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_TANH;
                /* aligned path needs 8-element rows: pad the leading dimensions */
                p.lda = 3008, p.ldb = lay == TILEOPS_B_NK ? 3008 : 4104, p.ldc = p.ldd = 4104;
                make_host(&p);
                run_and_check(h, &p);
                free_host(&p);
            }
        tileops_destroy(h);
    }
}
END_TEST

/* Runs p with the handle pinned to `name` and checks that this kernel served it. The
 * any-alignment instances (_a0) get pointers one element off. */
static void run_pinned(tileops_handle h, const char *name, struct problem *p)
{
    p->misalign = strstr(name, "_a0") != NULL;
    make_host(p);
    const char *kn = run_and_check(h, p);
    ck_assert_str_eq(kn, name);
    free_host(p);
}

/* Calls check(h, name, dt, layout) for every GEMM instance of dtype dt, of the small-M
 * template (small_m) or the tiled ones (and, with family, only the instances whose name holds
 * it), on every tier, with the handle pinned to it
 * (tileops_set_kernel), so each runs whatever dispatch would pick. */
static void each_instance_of(tileops_dtype dt, int small_m, const char *family,
                             void (*check)(tileops_handle, const char *, tileops_dtype,
                                           tileops_layout))
{
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        tileops_handle h = handle_on_tier(ti);
        const struct tileops_tier_table *t = h->tier;
        for (int lay = 0; lay < 2; lay++)
            for (int i = 0; i < *t->count; i++) {
                const char *name = t->kernels[i].name;
                if (t->kernels[i].op != TILEOPS_OP_GEMM || t->kernels[i].dtype != (int)dt ||
                    (strstr(name, "small_m") != NULL) != small_m ||
                    (family && !strstr(name, family)) ||
                    !strstr(name, lay == TILEOPS_B_NK ? "_nk_" : "_kn_") ||
                    !test_instance_selected(name))
                    continue;
                ck_assert_int_eq(tileops_set_kernel(h, name), TILEOPS_SUCCESS);
                check(h, name, dt, (tileops_layout)lay);
            }
        ck_assert_int_eq(tileops_set_kernel(h, NULL), TILEOPS_SUCCESS);
        tileops_destroy(h);
    }
}

/* m x n x k (rows padded by 8) on the pinned instance, once with each of the count epilogues
 * in epis: C absent, separate or in place (e % 3), alpha 1 or 0.5 (e % 2). */
static void check_epilogues(tileops_handle h, const char *name, tileops_dtype dt,
                            tileops_layout lay, int m, int n, int k, const unsigned *epis,
                            int count)
{
    for (int e = 0; e < count; e++) {
        struct problem p = problem(dt, lay, m, n, k, 8);
        p.with_c = e % 3;
        p.alpha = e % 2 ? 0.5f : 1.0f;
        p.beta = p.with_c ? 0.75f : 0.0f;
        p.epilogue = epis[e];
        run_pinned(h, name, &p);
    }
}

/* A small-M instance: ragged M, N and K with every epilogue, C separate or in place, padded
 * rows; M = 128 (past 64 rows: two or more m tiles, split-K over a taller partial slice) with
 * half the workspace (fewer splits) and C = D. */
static void check_small_m(tileops_handle h, const char *name, tileops_dtype dt, tileops_layout lay)
{
    check_epilogues(h, name, dt, lay, 100, 264, 1000, ref_gemm_epilogues, REF_GEMM_EPILOGUES);
    for (int half = 0; half < 2; half++) {
        struct problem p = problem(dt, lay, 128, 1032, 2056, 0);
        p.ws_half = half;
        p.with_c = 2, p.beta = 1.0f;
        p.epilogue = TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_ERF;
        run_pinned(h, name, &p);
    }
}

/* A tiled instance: edge blocks in M and N and a K tail (200 x 296 x 200, padded rows) with
 * each activation, C separate or in place; then interior blocks over many k tiles, where
 * every tile but the last copies without bounds work (256 x 512 x 1048: a K tail of 24). */
static void check_tiled(tileops_handle h, const char *name, tileops_dtype dt, tileops_layout lay)
{
    static const unsigned epi[] = {
        TILEOPS_EPILOGUE_NONE, TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_RELU,
        TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_ERF, TILEOPS_EPILOGUE_GELU_TANH};
    check_epilogues(h, name, dt, lay, 200, 296, 200, epi, 4);
    struct problem p = problem(dt, lay, 256, 512, 1048, 0);
    p.with_c = 2, p.beta = 1.0f;
    p.epilogue = TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_TANH;
    run_pinned(h, name, &p);
}

/* Leading dimensions for the gemm_wgmma cases: the row width rounded up to 8 elements (what
 * TMA needs) plus 8, so every ld is wider than its row. */
static int64_t ld_tma(int64_t width)
{
    return (width + 7) / 8 * 8 + 8;
}

/* A gemm_wgmma (TMA + wgmma) instance: ragged M, N and K (TMA's zero fill; K = 1001 ends in a
 * partial 16-element step; few tiles, so K is split, once with half the workspace) with every
 * epilogue, C absent, separate or in place, alpha 1 or 0.5; K shorter than one k tile (not
 * split: every epilogue again without C, the epilogue's short path, stage_block); 65 rows
 * (the fewest the family takes); more tiles than a CTA an SM (the persistent loop takes two or
 * more tiles a CTA on the H200's 132 SMs), N not a multiple of 8, with C = D and beta = 1; and
 * one k tile with several tiles a CTA (a 64 x 64 tile's single staged block is stored by TMA
 * while the next tile's, after a k loop of one tile, is staged: they must not share a buffer). */
static void check_wgmma(tileops_handle h, const char *name, tileops_dtype dt, tileops_layout lay)
{
    static const int64_t shapes[][3] = {{333, 520, 1001}, {130, 136, 40}, {65, 264, 72},
                                        {1100, 4100, 136}, {1024, 2048, 64}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const int64_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
        const int rounds = si == 0 ? REF_GEMM_EPILOGUES : si == 1 ? 2 + REF_GEMM_EPILOGUES : 2;
        for (int e = 0; e < rounds; e++) {
            const int again = si == 1 && e >= 2; /* every epilogue, no C */
            struct problem p = problem(dt, lay, m, n, k, 0);
            p.lda = ld_tma(k);
            p.ldb = ld_tma(lay == TILEOPS_B_NK ? k : n);
            p.ldc = p.ldd = ld_tma(n);
            p.with_c = si == 3 ? 2 : again ? 0 : e % 3;
            p.ws_half = si == 0 && e == 1; /* a smaller workspace: fewer splits of K */
            p.alpha = e % 2 ? 0.5f : 1.0f;
            p.beta = p.with_c ? (si == 3 ? 1.0f : 0.75f) : 0.0f;
            p.epilogue = si == 0  ? ref_gemm_epilogues[e]
                         : again ? ref_gemm_epilogues[e - 2]
                         : e     ? TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_TANH
                                 : TILEOPS_EPILOGUE_NONE;
            run_pinned(h, name, &p);
        }
    }
}

/* Every gemm_wgmma instance pinned (the sm90 tier only: the family has no other). _i = dtype
 * index. */
START_TEST(wgmma_instances)
{
    each_instance_of(dtypes[_i], 0, "_gemm_wgmma_sm90_", check_wgmma);
}
END_TEST

/* Every small-M instance pinned (MAX_M 128). _i = dtype index. */
START_TEST(small_m_up_to_128)
{
    each_instance_of(dtypes[_i], 1, NULL, check_small_m);
}
END_TEST

/* Every tiled instance pinned, on every tier (sm70's wmma ones too). _i = dtype index. */
START_TEST(tiled_instances)
{
    each_instance_of(dtypes[_i], 0, "tileops_gemm_sm", check_tiled); /* not gemm_wgmma */
}
END_TEST

/* Misaligned operands and odd leading dimensions (the any-alignment instances); beta = 0
 * over a C full of NaN (C must not be read). _i = dtype index. */
START_TEST(alignment_and_beta_zero)
{
    const tileops_dtype dt = dtypes[_i];
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        if (tileops_built_tiers[ti].tier == 70 && dt == TILEOPS_BF16)
            continue;
        tileops_handle h = handle_on_tier(ti);
        for (int lay = 0; lay < 2; lay++) {
            struct problem p = problem(dt, (tileops_layout)lay, 130, 250, 300, 3);
            p.misalign = 1;
            p.with_c = 1, p.beta = 0.25f;
            p.epilogue = TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_RELU;
            make_host(&p);
            const char *kn = run_and_check(h, &p);
            ck_assert_msg(strstr(kn, "_a0"), "misaligned operands ran %s", kn);
            free_host(&p);

            struct problem z = problem(dt, (tileops_layout)lay, 64, 64, 64, 0);
            z.with_c = 1, z.c_nan = 1, z.beta = 0.0f;
            make_host(&z);
            run_and_check(h, &z);
            free_host(&z);
        }
        tileops_destroy(h);
    }
}
END_TEST

/* Agreement with cuBLAS (cublasGemmEx, fp32 compute) on a plain GEMM, both layouts: the two
 * may differ by their roundings only. _i = dtype index. */
START_TEST(agrees_with_cublas)
{
    const tileops_dtype dt = dtypes[_i];
    const int64_t m = 512, n = 768, k = 1024;
    cublasHandle_t cb;
    ck_assert_int_eq(cublasCreate(&cb), CUBLAS_STATUS_SUCCESS);
    tileops_handle h;
    ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);
    const cudaDataType_t ct = dt == TILEOPS_F16 ? CUDA_R_16F : CUDA_R_16BF;
    for (int lay = 0; lay < 2; lay++) {
        struct problem p = problem(dt, (tileops_layout)lay, m, n, k, 0);
        make_host(&p);
        struct device dv;
        to_device(&p, &dv, NULL);
        void *ref;
        CUDA_OK(cudaMalloc(&ref, (size_t)(m * n) * 2));
        const float one = 1.0f, zero = 0.0f;
        /* Row-major D = A·op(B) is column-major Dᵀ = op(B)ᵀ·Aᵀ. */
        ck_assert_int_eq(cublasGemmEx(cb, lay == TILEOPS_B_NK ? CUBLAS_OP_T : CUBLAS_OP_N,
                                      CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, dv.b, ct,
                                      (int)p.ldb, dv.a, ct, (int)p.lda, &zero, ref, ct, (int)n,
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                         CUBLAS_STATUS_SUCCESS);
        tileops_gemm_params q;
        memset(&q, 0, sizeof q);
        q.size = sizeof q, q.dtype = dt, q.b_layout = (tileops_layout)lay;
        q.m = m, q.n = n, q.k = k;
        q.a = dv.a, q.lda = p.lda, q.b = dv.b, q.ldb = p.ldb, q.d = dv.d, q.ldd = p.ldd;
        q.alpha = 1.0f;
        ck_assert_msg(tileops_gemm(h, &q, NULL, 0, NULL) == TILEOPS_SUCCESS, "%s",
                      tileops_last_error());
        CUDA_OK(cudaDeviceSynchronize());
        unsigned short *x = malloc((size_t)(m * n) * 2), *y = malloc((size_t)(m * n) * 2);
        ck_assert(x && y);
        CUDA_OK(cudaMemcpy(x, dv.d, (size_t)(m * n) * 2, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(y, ref, (size_t)(m * n) * 2, cudaMemcpyDeviceToHost));
        for (int64_t i = 0; i < m * n; i++) {
            const double a = get_elem(x, dt, (size_t)i), b = get_elem(y, dt, (size_t)i);
            double scale;
            reference(&p, i / n, i % n, &scale);
            ck_assert_msg(fabs(a - b) <= 2 * ref_gemm_tolerance(p.dt, b, scale),
                          "%s layout %d: D[%" PRId64 "] = %g, cuBLAS %g (kernel %s)",
                          tileops__dtype_name(dt), lay, i, a, b, tileops_last_kernel(h));
        }
        free(x);
        free(y);
        CUDA_OK(cudaFree(ref));
        free_device(&dv);
        free_host(&p);
    }
    tileops_destroy(h);
    cublasDestroy(cb);
}
END_TEST

int main(void)
{
    if (!have_cuda_device()) {
        printf("test_gemm: skipped: no CUDA device\n");
        return EXIT_SUCCESS;
    }
    Suite *s = suite_create("gemm");
    TCase *tc = tcase_create("gpu");
    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, shapes_every_tier, 0, 2);
    tcase_add_loop_test(tc, alignment_and_beta_zero, 0, 2);
    tcase_add_loop_test(tc, split_k_edges, 0, 2);
    suite_add_tcase(s, tc);
    /* every instance pinned, small shapes: the case racecheck runs beside `gpu` */
    TCase *inst = tcase_create("instances");
    tcase_set_timeout(inst, 1200);
    tcase_add_loop_test(inst, small_m_up_to_128, 0, 2);
    tcase_add_loop_test(inst, tiled_instances, 0, 2);
    suite_add_tcase(s, inst);
    /* the TMA + wgmma family pinned (sm90 only), a case of its own so it can run alone */
    TCase *wg = tcase_create("wgmma");
    tcase_set_timeout(wg, 1200);
    tcase_add_loop_test(wg, wgmma_instances, 0, 2);
    suite_add_tcase(s, wg);
    /* its own case, so that racecheck can leave out cuBLAS's kernels (CK_RUN_CASE=gpu): they
     * report races of their own, and excluding them by name crashed the sanitizer */
    TCase *ref = tcase_create("cublas");
    tcase_set_timeout(ref, 600);
    tcase_add_loop_test(ref, agrees_with_cublas, 0, 2);
    suite_add_tcase(s, ref);
    return run_suite(s, CK_VERBOSE);
}
