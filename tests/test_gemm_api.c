/* test_gemm_api.c: tileops_gemm without a GPU: every bad argument's status and message, and
 * which kernel family a shape gets (dry runs on a fake H200). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "op_args.h"
#include "variants.h"
#include "util_check.h"
#include "util_handle.h"

#define A0 ((uintptr_t)0x100000000ull)
#define B0 ((uintptr_t)0x200000000ull)
#define C0 ((uintptr_t)0x300000000ull)
#define D0 ((uintptr_t)0x400000000ull)
#define BIAS0 ((uintptr_t)0x500000000ull)
#define PTR(p) ((void *)(uintptr_t)(p))

/* A valid problem: 64 x 128 x 256, bf16, B as [N,K], bias + GELU, C = D. */
static tileops_gemm_params good(void)
{
    tileops_gemm_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.dtype = TILEOPS_BF16;
    p.b_layout = TILEOPS_B_NK;
    p.m = 64, p.n = 128, p.k = 256;
    p.a = PTR(A0), p.lda = 256;
    p.b = PTR(B0), p.ldb = 256;
    p.c = PTR(D0), p.ldc = 128;
    p.d = PTR(D0), p.ldd = 128;
    p.bias = PTR(BIAS0);
    p.alpha = 1.0f, p.beta = 1.0f;
    p.epilogue = TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_ERF;
    return p;
}

enum field { F_NONE, F_SIZE, F_DTYPE, F_LAYOUT, F_M, F_N, F_K, F_EPI, F_BIAS, F_A, F_LDA, F_LDB,
             F_LDD, F_C, F_LDC, F_D, F_WS, F_WS_AT };

struct bad_call {
    enum field field;
    int64_t value;
    tileops_status want;
    const char *message;
};

static const struct bad_call bad_calls[] = {
    {F_SIZE, 8, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: params->size is 8, expected "
                                             "sizeof(tileops_gemm_params) = %zu"},
    {F_DTYPE, TILEOPS_F32, TILEOPS_ERROR_NOT_SUPPORTED, "tileops_gemm: dtype 0: GEMM takes f16 or bf16"},
    {F_DTYPE, 9, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: dtype 9: GEMM takes f16 or bf16"},
    {F_LAYOUT, 2, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: 2 is not a layout"},
    {F_M, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: m is 0 (must be >= 1)"},
    {F_N, -4, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: n is -4 (must be >= 1)"},
    {F_K, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: k is 0 (must be >= 1)"},
    {F_EPI, 16, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: epilogue 0x10 has unknown flags"},
    {F_EPI, TILEOPS_EPILOGUE_RELU | TILEOPS_EPILOGUE_GELU_TANH | TILEOPS_EPILOGUE_BIAS,
     TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: epilogue 0xb asks for more than one activation"},
    {F_BIAS, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: the bias flag is set but bias is NULL"},
    {F_EPI, TILEOPS_EPILOGUE_RELU, TILEOPS_ERROR_INVALID_VALUE,
     "tileops_gemm: bias is given without TILEOPS_EPILOGUE_BIAS"},
    {F_A, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: a is NULL"},
    {F_LDA, 255, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: lda = 255 is less than its row width 256"},
    {F_LDB, 100, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: ldb = 100 is less than its row width 256"},
    {F_LDD, 127, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: ldd = 127 is less than its row width 128"},
    {F_LDA, INT64_MAX / 2, TILEOPS_ERROR_INVALID_VALUE,
     "tileops_gemm: a (64 x 256, ld 4611686018427387903) overflows the address space"},
    {F_C, (int64_t)(D0 + 64), TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: c overlaps d without being d"},
    {F_LDC, 256, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: c == d needs ldc == ldd, got 256 and 128"},
    {F_D, (int64_t)(A0 + 1024), TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: d overlaps a"},
    {F_WS, 8, TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: workspace is not 16-byte aligned"},
    {F_WS_AT, (int64_t)(B0 + 4096), TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: workspace overlaps b"},
    {F_A, (int64_t)(A0 + 1), TILEOPS_ERROR_INVALID_VALUE,
     "tileops_gemm: a pointer is not aligned to its 2-byte elements"},
    {F_BIAS, (int64_t)(D0 + 64), TILEOPS_ERROR_INVALID_VALUE, "tileops_gemm: bias overlaps d"},
    /* ranges that run past the top of the address space (they used to wrap and pass) */
    {F_BIAS, (int64_t)(UINTPTR_MAX - 63), TILEOPS_ERROR_INVALID_VALUE,
     "tileops_gemm: bias (128 elements) overflows the address space"},
    {F_WS_AT, (int64_t)(UINTPTR_MAX - 0xffff), TILEOPS_ERROR_INVALID_VALUE,
     "tileops_gemm: workspace (1048576 bytes) overflows the address space"},
};

/* Each bad call returns its status and message and chooses no kernel. */
START_TEST(validation)
{
    const struct bad_call *c = &bad_calls[_i];
    tileops_handle h = fake_handle(90);
    tileops_gemm_params p = good();
    uintptr_t ws = 0;
    switch (c->field) {
    case F_SIZE: p.size = (size_t)c->value; break;
    case F_DTYPE: p.dtype = (tileops_dtype)c->value; break;
    case F_LAYOUT: p.b_layout = (tileops_layout)c->value; break;
    case F_M: p.m = c->value; break;
    case F_N: p.n = c->value; break;
    case F_K: p.k = c->value; break;
    case F_EPI: p.epilogue = (unsigned)c->value; break;
    case F_BIAS: p.bias = PTR(c->value); break;
    case F_A: p.a = PTR(c->value); break;
    case F_LDA: p.lda = c->value; break;
    case F_LDB: p.ldb = c->value; break;
    case F_LDD: p.ldd = c->value; break;
    case F_C: p.c = PTR(c->value); break;
    case F_LDC: p.ldc = c->value; break;
    case F_D: p.d = PTR(c->value), p.c = NULL; break;
    case F_WS: ws = (uintptr_t)0x7000000000ull + (uintptr_t)c->value; break;
    case F_WS_AT: ws = (uintptr_t)c->value; break;
    case F_NONE: break;
    }
    char want[256];
    snprintf(want, sizeof want, c->message, sizeof(tileops_gemm_params));
    ck_assert_int_eq(tileops_gemm(h, &p, PTR(ws), ws ? 1 << 20 : 0, NULL), c->want);
    ck_assert_str_eq(tileops_last_error(), want);
    ck_assert_str_eq(tileops_last_kernel(h), "");
    tileops_destroy(h);
}
END_TEST

START_TEST(null_arguments)
{
    tileops_gemm_params p = good();
    size_t ws;
    ck_assert_int_eq(tileops_gemm(NULL, &p, NULL, 0, NULL), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_gemm: handle is NULL");
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_gemm(h, NULL, NULL, 0, NULL), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_gemm: params is NULL");
    ck_assert_int_eq(tileops_gemm_workspace_size(h, &p, NULL), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_gemm_workspace_size: bytes is NULL");
    ck_assert_int_eq(tileops_gemm_workspace_size(h, &p, &ws), TILEOPS_SUCCESS);
    tileops_destroy(h);
}
END_TEST

/* The family each shape gets, on every tier that has GEMM kernels (a dry run chooses without
 * launching). */
START_TEST(dispatch)
{
    tileops_handle h = fake_handle(90);
    tileops_gemm_params p = good();
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        const int tier = tileops_built_tiers[ti].tier;
        ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)tier), TILEOPS_SUCCESS);
        char want[64];
        /* a large square: the tiled family, 16-byte path */
        p = good();
        p.m = p.n = p.k = 4096;
        p.lda = p.ldb = p.ldc = p.ldd = 4096;
        p.c = NULL;
        if (tier == 70) {
            ck_assert_int_eq(tileops_gemm(h, &p, NULL, 0, NULL), TILEOPS_ERROR_NOT_SUPPORTED);
            ck_assert_str_eq(tileops_last_error(), "tileops_gemm: the sm70 tier has no bf16 kernel"
                             " of this variant");
            p.dtype = TILEOPS_F16;
        }
        ck_assert_msg(tileops_gemm(h, &p, NULL, 0, NULL) == TILEOPS_SUCCESS, "%s",
                      tileops_last_error());
        /* sm90: the TMA + wgmma family (gemm_wgmma, aligned operands only: no _a axis) */
        if (tier == 90)
            snprintf(want, sizeof want, "tileops_gemm_wgmma_sm90_bf16_nk_");
        else
            snprintf(want, sizeof want, "tileops_gemm_sm%d_%s_nk_", tier, tier == 70 ? "f16" : "bf16");
        ck_assert_msg(strncmp(tileops_last_kernel(h), want, strlen(want)) == 0 &&
                          (tier == 90 || strstr(tileops_last_kernel(h), "_a1")), "%s",
                      tileops_last_kernel(h));
        /* an odd leading dimension: an any-alignment instance */
        p.lda = 4097;
        ck_assert_int_eq(tileops_gemm(h, &p, NULL, 0, NULL), TILEOPS_SUCCESS);
        ck_assert_msg(strstr(tileops_last_kernel(h), "_a0"), "%s", tileops_last_kernel(h));
        /* decode: one row, the small-M family from sm80 on; on sm90, N = 4096 gives enough
         * narrow tiles to fill the GPU (no workspace); N = 1024 over K = 16384 splits K */
        p.lda = 4096;
        p.m = 1;
        size_t ws = 1;
        ck_assert_int_eq(tileops_gemm_workspace_size(h, &p, &ws), TILEOPS_SUCCESS);
        ck_assert_int_eq(tileops_gemm(h, &p, NULL, 0, NULL), TILEOPS_SUCCESS);
        if (tier != 70) {
            snprintf(want, sizeof want, "tileops_gemm_small_m_sm%d_", tier);
            ck_assert_msg(strncmp(tileops_last_kernel(h), want, strlen(want)) == 0, "%s",
                          tileops_last_kernel(h));
            ck_assert_msg(tier != 90 || ws == 0, "%zu bytes of workspace for 1 x 4096 x 4096 (%s)", ws,
                          tileops_last_kernel(h));
            p.n = 1024, p.k = 16384;
            p.lda = p.ldb = 16384, p.ldc = p.ldd = 1024;
            ck_assert_int_eq(tileops_gemm_workspace_size(h, &p, &ws), TILEOPS_SUCCESS);
            ck_assert_msg(ws > 0, "no workspace for 1 x 1024 x 16384");
        }
    }
    tileops_destroy(h);
}
END_TEST

/* A gemm_wgmma instance pinned on a fake H200 serves what TMA can describe from M = 65 on,
 * asks for a workspace where it splits K (and runs with less), and refuses the rest with
 * NOT_SUPPORTED and a message naming it. */
START_TEST(wgmma_pinned_limits)
{
    static const char name[] = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1";
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_set_tier(h, TILEOPS_TIER_SM90), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_set_kernel(h, name), TILEOPS_SUCCESS);
    tileops_gemm_params p = good();
    p.m = 128, p.n = 4096, p.k = 4096;
    p.lda = p.ldb = 4096, p.ldc = p.ldd = 4096;
    p.c = NULL, p.beta = 0.0f;
    size_t ws = 0;
    ck_assert_int_eq(tileops_gemm_workspace_size(h, &p, &ws), TILEOPS_SUCCESS);
    ck_assert_msg(ws > 0, "no workspace for split-K at 128 x 4096 x 4096");
    ck_assert_msg(tileops_gemm(h, &p, NULL, 0, NULL) == TILEOPS_SUCCESS, "%s",
                  tileops_last_error());
    ck_assert_str_eq(tileops_last_kernel(h), name);
    tileops_gemm_params bad[3] = {p, p, p};
    bad[0].m = 64;                      /* decode rows: the small-M family's */
    bad[1].lda = 4100;                  /* not a multiple of 8 elements: TMA cannot stride it */
    bad[2].b = PTR(B0 + 8);             /* not 16-byte aligned */
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(tileops_gemm(h, &bad[i], NULL, 0, NULL), TILEOPS_ERROR_NOT_SUPPORTED);
        ck_assert_msg(strstr(tileops_last_error(), name) && strstr(tileops_last_error(), "cannot serve"),
                      "%d: %s", i, tileops_last_error());
    }
    /* the same tiles split along K inside a cluster: no workspace, whatever the shape */
    static const char ks[] = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks2";
    ck_assert_int_eq(tileops_set_kernel(h, ks), TILEOPS_SUCCESS);
    ws = 1;
    ck_assert_int_eq(tileops_gemm_workspace_size(h, &p, &ws), TILEOPS_SUCCESS);
    ck_assert_msg(ws == 0, "%zu bytes of workspace for a K split in the cluster", ws);
    ck_assert_msg(tileops_gemm(h, &p, NULL, 0, NULL) == TILEOPS_SUCCESS, "%s",
                  tileops_last_error());
    ck_assert_str_eq(tileops_last_kernel(h), ks);
    tileops_destroy(h);
}
END_TEST

/* The benchmark shapes (bench_gemm.c's default list), B as [N,K]. */
static int bench_shapes(int64_t (*out)[3])
{
    static const int64_t squares[] = {1024, 2048, 4096, 8192};
    static const int64_t ms[] = {1, 16, 128, 4096};
    static const int64_t nks[][2] = {{4096, 4096}, {11008, 4096}, {4096, 11008},
                                     {14336, 4096}, {128256, 4096}};
    int n = 0;
    for (int i = 0; i < 4; i++)
        out[n][0] = out[n][1] = out[n][2] = squares[i], n++;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            out[n][0] = ms[i], out[n][1] = nks[j][0], out[n][2] = nks[j][1], n++;
    return n;
}

/* The instance name without its operator, tier, dtype and layout. */
static const char *short_name(const char *name)
{
    const char *s = strstr(name, "_nk_");
    return s ? s + 4 : name;
}

/* Dispatch's choice for each bench shape on a fake H200 (sm90 tier, 132 SMs), bf16 and f16,
 * with the runner-up and both fit() costs (ns) read from the registry the same way dispatch
 * reads it. GEMM_CHOICES=1 prints the table (the kernel, then "small" for the small-M
 * family, "wgmma" for gemm_wgmma, "tiled" for gemm_sm80); the asserts pin the families the
 * recorded sweeps (bench/RESULTS.md) favour, and gemm_wgmma where it is meant to win. */
START_TEST(bench_choices)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_set_tier(h, TILEOPS_TIER_SM90), TILEOPS_SUCCESS);
    const int print = getenv("GEMM_CHOICES") != NULL;
    int64_t shapes[32][3];
    const int ns = bench_shapes(shapes);
    static const tileops_dtype dts[] = {TILEOPS_BF16, TILEOPS_F16};
    if (print)
        printf("%-5s %-20s %-8s %-40s %9s  %-40s %9s\n", "dtype", "m x n x k", "family",
               "chosen", "fit us", "runner-up", "fit us");
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < ns; s++) {
            const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            tileops_gemm_params p;
            memset(&p, 0, sizeof p);
            p.size = sizeof p;
            p.dtype = dts[d];
            p.b_layout = TILEOPS_B_NK;
            p.m = m, p.n = n, p.k = k;
            p.a = PTR(A0), p.lda = k;
            p.b = PTR(B0), p.ldb = k;
            p.d = PTR(D0), p.ldd = n;
            p.alpha = 1.0f;
            ck_assert_msg(tileops_gemm(h, &p, NULL, 0, NULL) == TILEOPS_SUCCESS, "%s",
                          tileops_last_error());
            const char *chosen = tileops_last_kernel(h);
            /* every candidate's cost, as dispatch sees them */
            const struct tileops_gemm_args args = {m, n, k, p.a, p.lda, p.b, p.ldb, NULL, 0,
                                                   p.d, p.ldd, NULL, 1.0f, 0.0f, 0, NULL, 0,
                                                   132};
            const struct tileops_tier_table *t = h->tier;
            const char *best = NULL, *second = NULL;
            int64_t best_c = 0, second_c = 0;
            for (int i = 0; i < *t->count; i++) {
                const struct tileops_kernel *kk = &t->kernels[i];
                if (kk->op != TILEOPS_OP_GEMM || kk->dtype != (int)dts[d] ||
                    kk->variant != TILEOPS_GEMM_LAYOUT_NK || kk->smem > 227 * 1024 ||
                    kk->table_only)
                    continue;
                size_t ws = 0;
                const int64_t c = kk->fit(&args, &ws);
                if (c < 0)
                    continue;
                if (!best || c < best_c) {
                    second = best, second_c = best_c;
                    best = kk->name, best_c = c;
                } else if (!second || c < second_c) {
                    second = kk->name, second_c = c;
                }
            }
            ck_assert_msg(best && strcmp(best, chosen) == 0, "%s vs %s", best, chosen);
            /* what the H200 measured fastest (bench/RESULTS.md): n32 k256
             * with warps along K and 8 stages at N = 4096 and 11008 (M <= 16; n128 k64 with 3
             * splits ran 37.9 us at 1x11008x4096, n32 35.3), n128 k128 with one split at N =
             * 14336 (112 blocks: 39.3-40.2 us, n32's 4 rounds 44.9, n128 k64 with 2 splits
             * 45.4), an n128 small-M tile at 128256 (not tiled 64x64); at M = 128 the
             * gemm_wgmma 64x64 tiles where N = 4096 (the H100: 128x4096x4096 22.6 us against
             * 28.2-29.6 for 128x128 split along K; 128x4096x11008 48.5 against 51.5-53.9),
             * else 128x128 (128x11008x4096 38.6 against small-M's 52.8-54.5, 47.1 against
             * 64x64's 50.3 on the H100; 128x14336x4096 43.8 against 57.3-59.8), and 128x256
             * for M = 4096 and squares from 2048 (4096^3 188-200 us; the sm80 template's best
             * 288.6); the sm80 64x64 tiles at 1024^3 (15.5 us against wgmma's 21.7) */
            const char *want = NULL;
            if (m <= 16 && (n == 4096 || n == 11008))
                want = "small_m_sm90_%s_nk_m16_n32_k256_w2_kw4_s8_";
            else if (m <= 16 && n == 14336)
                want = "small_m_sm90_%s_nk_m16_n128_k128_";
            else if (m <= 16 && n == 128256)
                want = "small_m_sm90_%s_nk_m16_n128_";
            else if (m == 128 && n == 4096)
                want = "gemm_wgmma_sm90_%s_nk_m64_n64_k64_s12_wg1_";
            else if (m == 128 && n != 128256)
                want = "gemm_wgmma_sm90_%s_nk_m128_n128_k64_s6_wg2_c1_";
            else if (m == 4096 || (m == n && n == k && m >= 2048))
                want = "gemm_wgmma_sm90_%s_nk_m128_n256_k64_s4_";
            else if (m == n && n == k && m == 1024)
                want = "gemm_sm90_%s_nk_m64_n64_k32_";
            if (print) {
                char shape[32];
                snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)m, (long long)n,
                         (long long)k);
                printf("%-5s %-20s %-8s %-40s %9.1f  %-40s %9.1f\n", tileops__dtype_name(dts[d]),
                       shape, strstr(chosen, "small_m")      ? "small"
                              : strstr(chosen, "gemm_wgmma_") ? "wgmma"
                                                              : "tiled",
                       short_name(chosen),
                       best_c / 1000.0, second ? short_name(second) : "-",
                       second ? second_c / 1000.0 : 0.0);
            }
            if (want) {
                char w[64];
                snprintf(w, sizeof w, want, tileops__dtype_name(dts[d]));
                ck_assert_msg(strstr(chosen, w) != NULL, "%lldx%lldx%lld: %s, expected *%s*",
                              (long long)m, (long long)n, (long long)k, chosen, w);
            }
        }
    tileops_destroy(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gemm_api");
    TCase *tc = tcase_create("api");
    tcase_add_loop_test(tc, validation, 0, (int)(sizeof bad_calls / sizeof bad_calls[0]));
    tcase_add_test(tc, null_arguments);
    tcase_add_test(tc, dispatch);
    tcase_add_test(tc, wgmma_pinned_limits);
    tcase_add_test(tc, bench_choices);
    suite_add_tcase(s, tc);
    return run_suite(s, CK_NORMAL);
}
