/* test_softmax_api.c: tileops_softmax without a GPU: which kernel each row length gets and
 * the workspace it needs (dry runs on a fake H200), and every bad argument's status and
 * message. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"

#define P1 ((uintptr_t)0x10000000u)
#define P2 ((uintptr_t)0x90000000u)
#define PFAR ((uintptr_t)0x100000000000ull) /* past 1000 rows of 4 M f32 from P1 */
#define PTR(p) ((void *)(uintptr_t)(p))

static const char *const dt_names[] = {"f32", "f16", "bf16"};

/* The instance name of family_cfg ("rows_w1_r4_e8_v8_p0": the family, then the
 * configuration) on a tier, dtype and mode. */
static void instance_name(char *out, size_t len, const char *family_cfg, int tier,
                          const char *dt, const char *mode)
{
    const char *cfg = strchr(family_cfg, '_');
    snprintf(out, len, "tileops_softmax_%.*s_sm%d_%s_%s%s", (int)(cfg - family_cfg), family_cfg,
             tier, dt, mode, cfg);
}

/* The kernel a dry run picks and the workspace it asks for. */
static const char *pick(tileops_handle h, tileops_dtype dt, tileops_softmax_mode mode,
                        int64_t rows, int64_t cols, uintptr_t x, int64_t ldx, uintptr_t y,
                        int64_t ldy, size_t *ws)
{
    ck_assert_msg(tileops_softmax_workspace_size(h, dt, mode, rows, cols, PTR(x), ldx, PTR(y),
                                                 ldy, ws) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    ck_assert_msg(tileops_softmax(h, dt, mode, rows, cols, PTR(x), ldx, PTR(y), ldy,
                                  *ws ? PTR(0x7000000000ull) : NULL, *ws ? *ws : 0,
                                  NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    return tileops_last_kernel(h);
}

/* The ladder of capacities: each row length goes to the tightest instance that holds it in
 * registers; longer rows are split, through a workspace. Every tier, dtype and mode. */
START_TEST(kernel_by_row_length)
{
    const tileops_dtype dt = (tileops_dtype)(_i % 3);
    const tileops_softmax_mode mode = (tileops_softmax_mode)(_i / 3);
    const int f32 = dt == TILEOPS_F32;
    const char *mname = mode == TILEOPS_SOFTMAX_LOG ? "log" : "plain";
    /* Each row length and the instance it gets: the configuration part of the name for
     * f32 and for f16/bf16, the elements per chunk (0: not split) and the split kind. */
    struct rung {
        int64_t cols;
        const char *cfg32, *cfg16;
        int64_t chunk32, chunk16;
        int split32, split16; /* 0: none, 1: fused (counters + partials), 2: two passes */
        const char *cl32, *cl16; /* sm90, where a cluster serves instead (no workspace) */
    };
    /* sm70: rows in registers, teams of 1 to 32 warps */
    static const struct rung regs[] = {
        {1, "rows_w1_r4_e4_v4_p0", "rows_w1_r4_e8_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {128, "rows_w1_r4_e4_v4_p0", "rows_w1_r4_e8_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {257, "rows_w1_r4_e16_v4_p0", "rows_w1_r4_e16_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {1024, "rows_w1_r4_e32_v4_p0", "rows_w1_r4_e32_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {1025, "rows_w4_r1_e32_v4_p0", "rows_w4_r1_e32_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {4097, "rows_w8_r1_e32_v4_p0", "rows_w8_r1_e32_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {32768, "rows_w32_r1_e32_v4_p0", "rows_w32_r1_e32_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {32769, "split_w4_e32_v4_s0_rv0", "split_w4_e32_v8_s0_rv0", 4096, 4096, 1, 1, NULL, NULL},
        {1000000, "split_w8_e32_v4_s0_rv0", "split_w8_e32_v8_s0_rv0", 8192, 8192, 1, 1, NULL, NULL},
        {4325376, "split_w32_e32_v4_s0_rv0", "split_w32_e32_v8_s0_rv0", 32768, 32768, 1, 1,
         NULL, NULL},
        {4325377, "split_w4_e32_v4_s0_rv0", "split_w4_e32_v8_s0_rv0", 4096, 4096, 2, 2, NULL, NULL},
    };
    /* sm80, sm90: warps per short row, then rows staged in 16, 32 or 64 KB of shared memory;
     * rows of 1025 to 4096 in prefetching registers (p1: f32 8 warps of 16, ahead of the
     * 16 KB stage of the same capacity; f16 / bf16 4 warps of 32, tighter than the 16 KB
     * stage, which keeps 4097 to 8192); past 64 KB, the 64 KB stage plus 5 vectors a thread
     * in registers (rv5: chunks of 21504 f32 or 43008 f16); f32 rows of 21505 to 32768 whole
     * in a 96 KB stage plus 4 vectors a thread (s96 rv4), which splits no row; split rows take
     * rv5 except where its chunks would not reach past the stage (f32 43009 and f16 43009: as
     * many chunks either way, the plain stage serves). On sm90, rows that no block holds and
     * that a cluster does (to 131072 elements) go to the cluster of least capacity (f16: 4
     * blocks of s32 rv5 to 106496, 2 of s96 rv3 to 110592, 3 of s64 rv5 to 129024, 4 of s64
     * rv0; f32: 4 of s96 rv4) */
    static const struct rung staged[] = {
        {1, "rows_w1_r4_e4_v4_p0", "rows_w1_r4_e8_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {128, "rows_w1_r4_e4_v4_p0", "rows_w1_r4_e8_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {257, "rows_w1_r4_e16_v4_p0", "rows_w1_r4_e16_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {1024, "rows_w1_r4_e32_v4_p0", "rows_w1_r4_e32_v8_p0", 0, 0, 0, 0, NULL, NULL},
        {1025, "rows_w8_r1_e16_v4_p1", "rows_w4_r1_e32_v8_p1", 0, 0, 0, 0, NULL, NULL},
        {4096, "rows_w8_r1_e16_v4_p1", "rows_w4_r1_e32_v8_p1", 0, 0, 0, 0, NULL, NULL},
        {4097, "staged_w8_v4_s32_rv0", "staged_w4_v8_s16_rv0", 0, 0, 0, 0, NULL, NULL},
        {8193, "staged_w8_v4_s64_rv0", "staged_w8_v8_s32_rv0", 0, 0, 0, 0, NULL, NULL},
        {16385, "staged_w8_v4_s64_rv5", "staged_w8_v8_s64_rv0", 0, 0, 0, 0, NULL, NULL},
        {21504, "staged_w8_v4_s64_rv5", "staged_w8_v8_s64_rv0", 0, 0, 0, 0, NULL, NULL},
        {21505, "staged_w16_v4_s96_rv4", "staged_w8_v8_s64_rv0", 0, 0, 0, 0, NULL, NULL},
        {32768, "staged_w16_v4_s96_rv4", "staged_w8_v8_s64_rv0", 0, 0, 0, 0, NULL, NULL},
        {32769, "split_w8_e4_v4_s64_rv5", "staged_w8_v8_s64_rv5", 21504, 0, 1, 0,
         "cluster_c4_w16_v4_s96_rv4", NULL},
        {43009, "split_w8_e4_v4_s64_rv0", "split_w8_e8_v8_s64_rv0", 16384, 32768, 1, 1,
         "cluster_c4_w16_v4_s96_rv4", "cluster_c4_w8_v8_s32_rv5"},
        {70000, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 1, 1,
         "cluster_c4_w16_v4_s96_rv4", "cluster_c4_w8_v8_s32_rv5"},
        {106497, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 1, 1,
         "cluster_c4_w16_v4_s96_rv4", "cluster_c2_w8_v8_s96_rv3"},
        {110593, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 1, 1,
         "cluster_c4_w16_v4_s96_rv4", "cluster_c3_w8_v8_s64_rv5"},
        {131073, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 1, 1,
         NULL, NULL},
        {2162689, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 1, 1,
         NULL, NULL},
        {2838528, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 1, 1,
         NULL, NULL},
        {2838529, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 2, 1,
         NULL, NULL},
        {5677057, "split_w8_e4_v4_s64_rv5", "split_w8_e8_v8_s64_rv5", 21504, 43008, 2, 2,
         NULL, NULL},
    };
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        tileops_handle h = fake_handle(90);
        const int tier = tileops_built_tiers[ti].tier;
        const struct rung *ladder = tier == 70 ? regs : staged;
        const size_t nrungs = tier == 70 ? sizeof regs / sizeof regs[0]
                                         : sizeof staged / sizeof staged[0];
        ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)tier), TILEOPS_SUCCESS);
        ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
        for (size_t k = 0; k < nrungs; k++) {
            const int64_t rows = 1000, cols = ladder[k].cols; /* enough chunks for 132 SMs */
            const int64_t chunk = f32 ? ladder[k].chunk32 : ladder[k].chunk16;
            const char *cl = tier == 90 ? (f32 ? ladder[k].cl32 : ladder[k].cl16) : NULL;
            const int split = cl ? 0 : f32 ? ladder[k].split32 : ladder[k].split16;
            size_t ws = 0;
            char want[128];
            instance_name(want, sizeof want, cl ? cl : f32 ? ladder[k].cfg32 : ladder[k].cfg16,
                          tier, dt_names[dt], mname);
            const int64_t ld = (cols + 7) / 8 * 8; /* 16-byte rows */
            const char *got = pick(h, dt, mode, rows, cols, P1, ld, PFAR, ld, &ws);
            ck_assert_msg(strcmp(got, want) == 0, "cols %lld: %s, expected %s",
                          (long long)cols, got, want);
            /* the workspace: counters (fused) and a (max, sum) pair per chunk */
            const int64_t g = split ? (cols + chunk - 1) / chunk : 1;
            size_t expect = 0;
            if (split == 1)
                expect = (16 + (size_t)rows * 4 + 15) / 16 * 16 + (size_t)(rows * g) * 8;
            if (split == 2)
                expect = (size_t)(rows * g) * 8;
            ck_assert_msg(ws == expect, "cols %lld: workspace %zu, expected %zu",
                          (long long)cols, ws, expect);
            /* a stride that breaks 16-byte rows: the element-wise instances */
            got = pick(h, dt, mode, rows, cols, P1, ld + 1, PFAR, ld, &ws);
            snprintf(want, sizeof want, "_sm%d_%s_%s_", tier, dt_names[dt], mname);
            ck_assert_msg(strncmp(got, "tileops_softmax_", 16) == 0 && strstr(got, want) &&
                              strstr(got, "_v1"),
                          "cols %lld misaligned: %s", (long long)cols, got);
        }
        /* A few long rows: smaller chunks, so that they keep every SM busy (4 rows of 2^20:
         * 512 chunks of 16 KB (f16, 8 warps: all resident, so the cooperative launch) or 32 KB
         * (f32; 16 KB would be more than 132 a row)). */
        if (tier != 70) {
            size_t ws;
            char want[128];
            instance_name(want, sizeof want, f32 ? "split_w8_e4_v4_s32_rv0" : "split_w8_e8_v8_s16_rv0",
                          tier, dt_names[dt], mname);
            ck_assert_str_eq(pick(h, dt, mode, 4, 1 << 20, P1, 1 << 20, P2, 1 << 20, &ws), want);
            /* ticket + 4 counts, then a (max, sum) per warp (8) of the 512 chunks (their
             * cooperative kernel publishes one per warp) */
            ck_assert_uint_eq(ws, 32 + 4 * 128 * 8 * 8);
        }
        tileops_destroy(h);
    }
}
END_TEST

/* A row longer than one staged chunk is split across blocks that exchange (max, sum) through
 * the workspace; beyond 8 chunks of 16 K f32 the widest chunk serves. Of equal chunks, a
 * split whose chunks are all resident at once (cooperative) takes 8 warps a block, not 4. */
START_TEST(long_rows_split)
{
    int has90 = 0;
    for (int ti = 0; ti < tileops_built_tier_count; ti++)
        has90 |= tileops_built_tiers[ti].tier == 90;
    if (!has90)
        return; /* a build without the sm90 tier (TILEOPS_ARCHS) */
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_tier(h, TILEOPS_TIER_SM90), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    size_t ws;
    ck_assert_str_eq(pick(h, TILEOPS_F32, TILEOPS_SOFTMAX_PLAIN, 3, 40000, P1, 40000, P2, 40000,
                          &ws), "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s16_rv0");
    ck_assert_uint_gt(ws, 0);
    ck_assert_str_eq(pick(h, TILEOPS_F32, TILEOPS_SOFTMAX_PLAIN, 1000, 140000, P1, 140000, PFAR,
                          140000, &ws), "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5");
    /* few rows want small chunks, but the prefetching register instances (f16: chunks half
     * the 16 KB stage's) serve only rows they hold whole */
    ck_assert_str_eq(pick(h, TILEOPS_F16, TILEOPS_SOFTMAX_PLAIN, 6, 300000, P1, 300000, P2,
                          300000, &ws), "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0");
    /* a split beyond residency of the 8-warp 16 KB instance (4 blocks an SM, 528 on 132 SMs) */
    ck_assert_str_eq(pick(h, TILEOPS_F16, TILEOPS_SOFTMAX_PLAIN, 8, 1 << 20, P1, 1 << 20, P2,
                          1 << 20, &ws), "tileops_softmax_split_sm90_f16_plain_w4_e8_v8_s16_rv0");
    tileops_destroy(h);
}
END_TEST

/* Vector kernels take rows that start anywhere in a vector, as long as x and y are equally
 * misaligned: odd row lengths, views one element in, in place; element-wise ones the rest. */
START_TEST(equal_misalignment)
{
    int has90 = 0;
    for (int ti = 0; ti < tileops_built_tier_count; ti++)
        has90 |= tileops_built_tiers[ti].tier == 90;
    if (!has90)
        return;
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_tier(h, TILEOPS_TIER_SM90), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    size_t ws;
    const tileops_softmax_mode pl = TILEOPS_SOFTMAX_PLAIN;
    ck_assert_str_eq(pick(h, TILEOPS_F16, pl, 4096, 32001, P1, 32001, P2, 32001, &ws),
                     "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0");
    ck_assert_str_eq(pick(h, TILEOPS_BF16, pl, 2048, 100003, P1, 100003, PFAR, 100003, &ws),
                     "tileops_softmax_cluster_sm90_bf16_plain_c4_w8_v8_s32_rv5");
    ck_assert_str_eq(pick(h, TILEOPS_BF16, pl, 100, 100003, P1, 100003, PFAR, 100003, &ws),
                     "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s32_rv0"); /* < 132 rows */
    ck_assert_str_eq(pick(h, TILEOPS_F16, pl, 4096, 4096, P1 + 2, 4096, P2 + 2, 4096, &ws),
                     "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1");
    ck_assert_str_eq(pick(h, TILEOPS_F32, pl, 5, 1000, P1 + 4, 1003, P1 + 4, 1003, &ws),
                     "tileops_softmax_rows_sm90_f32_plain_w1_r4_e32_v4_p0");
    /* x one element in and y not, or strides that differ by less than a vector */
    ck_assert_str_eq(pick(h, TILEOPS_F16, pl, 4096, 4096, P1 + 2, 4096, P2, 4096, &ws),
                     "tileops_softmax_rows_sm90_f16_plain_w8_r1_e32_v1_p0");
    ck_assert_str_eq(pick(h, TILEOPS_F32, pl, 64, 1000, P1, 1003, P2, 1001, &ws),
                     "tileops_softmax_rows_sm90_f32_plain_w1_r4_e32_v1_p0");
    tileops_destroy(h);
}
END_TEST

struct bad_call {
    tileops_dtype dt;
    int mode;
    int64_t rows, cols;
    uintptr_t x;
    int64_t ldx;
    uintptr_t y;
    int64_t ldy;
    uintptr_t ws;
    size_t ws_bytes;
    int null_handle;
    const char *message; /* every one is INVALID_VALUE */
};

#define F32 TILEOPS_F32
#define F16 TILEOPS_F16
static const struct bad_call bad_calls[] = {
    {F32, 0, 4, 8, P1, 8, P2, 8, 0, 0, 1, "tileops_softmax: handle is NULL"},
    {(tileops_dtype)7, 0, 4, 8, P1, 8, P2, 8, 0, 0, 0, "tileops_softmax: 7 is not a dtype"},
    {F32, 2, 4, 8, P1, 8, P2, 8, 0, 0, 0, "tileops_softmax: 2 is not a softmax mode"},
    {F32, -1, 4, 8, P1, 8, P2, 8, 0, 0, 0, "tileops_softmax: -1 is not a softmax mode"},
    {F32, 0, 0, 8, P1, 8, P2, 8, 0, 0, 0, "tileops_softmax: rows is 0 (must be >= 1)"},
    {F32, 0, 4, -3, P1, 8, P2, 8, 0, 0, 0, "tileops_softmax: cols is -3 (must be >= 1)"},
    {F32, 0, 4, 8, 0, 8, P2, 8, 0, 0, 0, "tileops_softmax: x is NULL"},
    {F16, 0, 4, 8, P1, 8, 0, 8, 0, 0, 0, "tileops_softmax: y is NULL"},
    {F32, 0, 4, 8, P1, 7, P2, 8, 0, 0, 0, "tileops_softmax: ldx = 7 is less than cols = 8"},
    {F32, 0, 4, 8, P1, 8, P2, 0, 0, 0, 0, "tileops_softmax: ldy = 0 is less than cols = 8"},
    {F32, 0, INT64_MAX / 4, 8, P1, 8, P2, 8, 0, 0, 0,
     "tileops_softmax: 2305843009213693951 rows of stride 8 f32 elements overflow the address "
     "space"},
    {F16, 0, 3, 8, UINTPTR_MAX - 40, 8, P2, 8, 0, 0, 0,
     "tileops_softmax: 3 rows of stride 8 f16 elements overflow the address space"},
    {F32, 0, 4, 8, P1, 8, P1, 16, 0, 0, 0,
     "tileops_softmax: in place (y == x) needs ldy == ldx, got 16 and 8"},
    {F16, 0, 4, 8, P1 + 1, 8, P2, 8, 0, 0, 0,
     "tileops_softmax: x is not aligned to its f16 elements (2 bytes)"},
    {F32, 0, 4, 8, P1, 8, P2 + 6, 8, 0, 0, 0,
     "tileops_softmax: y is not aligned to its f32 elements (4 bytes)"},
    {F32, 0, 4, 8, P1, 8, P1 + 4, 8, 0, 0, 0, "tileops_softmax: y overlaps x without being "
                                               "equal to it"},
    /* the next row of the same buffer: y row r is x row r + 1 */
    {F32, 0, 4, 8, P1, 16, P1 + 64, 16, 0, 0, 0, "tileops_softmax: y overlaps x without being "
                                                 "equal to it"},
    {F32, 0, 4, 8, P1, 16, P1 + 4, 12, 0, 0, 0, "tileops_softmax: y overlaps x without being "
                                                "equal to it"},
    /* 10 chunks a row of the 16 KB stage, all resident: the 8-warp instance, whose cooperative
     * kernel publishes a (max, sum) per warp: 32 + 2 rows * 10 chunks * 8 warps * 8 bytes */
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, 0, 0, 0,
     "tileops_softmax: 2 x 40000 needs 1312 bytes of workspace (tileops_softmax_workspace_size), "
     "got 0 (NULL)"},
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, 0x7000000000ull, 1311, 0,
     "tileops_softmax: 2 x 40000 needs 1312 bytes of workspace (tileops_softmax_workspace_size), "
     "got 1311"},
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, 0x7000000008ull, 1312, 0,
     "tileops_softmax: workspace is not 16-byte aligned"},
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, P1 + 1024, 4096, 0,
     "tileops_softmax: workspace overlaps x or y"},
    /* a workspace range past the top of the address space, needed or not */
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, UINTPTR_MAX - 15, 1312, 0,
     "tileops_softmax: workspace (1312 bytes) overflows the address space"},
    {F32, 0, 4, 8, P1, 8, P2, 8, 0x7000000000ull, SIZE_MAX, 0,
     "tileops_softmax: workspace (18446744073709551615 bytes) overflows the address space"},
    /* overlapping views across the middle of the address space (their distance as a signed
     * difference of pointers would overflow) */
    {F32, 0, 4, 8, (uintptr_t)INT64_MAX - 63, 8, (uintptr_t)INT64_MAX + 1 - 32, 8, 0, 0, 0,
     "tileops_softmax: y overlaps x without being equal to it"},
};

/* Each bad call returns INVALID_VALUE with its message, and chooses no kernel. */
START_TEST(validation)
{
    const struct bad_call *c = &bad_calls[_i];
    tileops_handle h = c->null_handle ? NULL : fake_handle(90);
    tileops_status st = tileops_softmax(h, c->dt, (tileops_softmax_mode)c->mode, c->rows,
                                        c->cols, PTR(c->x), c->ldx, PTR(c->y), c->ldy,
                                        PTR(c->ws), c->ws_bytes, NULL);
    ck_assert_int_eq(st, TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), c->message);
    if (h)
        ck_assert_str_eq(tileops_last_kernel(h), "");
    tileops_destroy(h);
}
END_TEST

/* Extreme but legal arguments: no undefined behaviour on the way (the sanitizer build
 * checks), and the call is served. */
START_TEST(extreme_layouts)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    /* x just below 2^63 and y just above: a signed difference of the pointers overflows */
    const uintptr_t mid = (uintptr_t)1 << 63;
    ck_assert_msg(tileops_softmax(h, F32, TILEOPS_SOFTMAX_PLAIN, 1, 8, PTR(mid - 4096), 8,
                                  PTR(mid), 8, NULL, 0, NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    ck_assert_msg(tileops_softmax(h, F32, TILEOPS_SOFTMAX_PLAIN, 1, 8, PTR(mid + 64), 8,
                                  PTR(16), 8, NULL, 0, NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    /* side by side column blocks of one buffer that straddles 2^63 */
    ck_assert_msg(tileops_softmax(h, F32, TILEOPS_SOFTMAX_LOG, 4, 8, PTR(mid - 64), 16,
                                  PTR(mid - 32), 16, NULL, 0, NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    /* one row: any stride is legal, (ldy - ldx) * size wraps */
    ck_assert_msg(tileops_softmax(h, F16, TILEOPS_SOFTMAX_PLAIN, 1, 8, PTR(P1), 8, PTR(P2),
                                  INT64_MAX, NULL, 0, NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    /* two rows 2^61 elements apart, y the second half of x's rows: the views' ranges
     * overlap, their elements do not */
    ck_assert_msg(tileops_softmax(h, F32, TILEOPS_SOFTMAX_PLAIN, 2, 8, PTR(P1), INT64_MAX / 8,
                                  PTR(P1 + 32), INT64_MAX / 8, NULL, 0, NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    /* x's 64 bytes end at 2^64 (not representable: INVALID_VALUE), or 4 bytes below it */
    ck_assert_int_eq(tileops_softmax(h, F32, TILEOPS_SOFTMAX_PLAIN, 2, 4, PTR(UINTPTR_MAX - 63),
                                     12, PTR(P1), 4, NULL, 0, NULL), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_msg(tileops_softmax(h, F32, TILEOPS_SOFTMAX_PLAIN, 2, 4, PTR(UINTPTR_MAX - 67), 12,
                                  PTR(P1), 4, NULL, 0, NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    tileops_destroy(h);
}
END_TEST

/* What is allowed: in place, views that share a buffer without sharing an element (side by
 * side column blocks), and the workspace query with NULL pointers. */
START_TEST(valid_layouts)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_softmax(h, F32, TILEOPS_SOFTMAX_PLAIN, 4, 8, PTR(P1), 8, PTR(P1),
                                     8, NULL, 0, NULL), TILEOPS_SUCCESS);
    /* x is columns 0-7 and y columns 8-15 of one 16-wide buffer */
    ck_assert_int_eq(tileops_softmax(h, F32, TILEOPS_SOFTMAX_LOG, 4, 8, PTR(P1), 16,
                                     PTR(P1 + 32), 16, NULL, 0, NULL), TILEOPS_SUCCESS);
    size_t ws = 1;
    ck_assert_int_eq(tileops_softmax_workspace_size(h, F16, TILEOPS_SOFTMAX_PLAIN, 4, 100, NULL,
                                                    100, NULL, 100, &ws), TILEOPS_SUCCESS);
    ck_assert_uint_eq(ws, 0);
    ck_assert_int_eq(tileops_softmax_workspace_size(h, F16, TILEOPS_SOFTMAX_PLAIN, 4, 100, NULL,
                                                    100, NULL, 100, NULL),
                     TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_softmax_workspace_size: bytes is NULL");
    ck_assert_int_eq(tileops_softmax_workspace_size(h, F16, TILEOPS_SOFTMAX_PLAIN, 0, 100, NULL,
                                                    100, NULL, 100, &ws),
                     TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(),
                     "tileops_softmax_workspace_size: rows is 0 (must be >= 1)");
    tileops_destroy(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("softmax_api");
    TCase *tc = tcase_create("api");
    tcase_add_loop_test(tc, kernel_by_row_length, 0, 6);
    tcase_add_loop_test(tc, validation, 0, (int)(sizeof bad_calls / sizeof bad_calls[0]));
    tcase_add_test(tc, valid_layouts);
    tcase_add_test(tc, extreme_layouts);
    tcase_add_test(tc, long_rows_split);
    tcase_add_test(tc, equal_misalignment);
    suite_add_tcase(s, tc);
    return run_suite(s, CK_NORMAL);
}
