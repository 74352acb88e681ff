/* test_softmax_api.c: tileops_softmax without a GPU: which kernel each row length gets and
 * the workspace it needs (dry runs on a fake H200), and every bad argument's status and
 * message. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"

#define P1 ((uintptr_t)0x10000000u)
#define P2 ((uintptr_t)0x90000000u)
#define PTR(p) ((void *)(uintptr_t)(p))

static const char *const dt_names[] = {"f32", "f16", "bf16"};

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
    const int vec = dt == TILEOPS_F32 ? 4 : 8; /* elements per 16-byte vector */
    const char *mname = mode == TILEOPS_SOFTMAX_LOG ? "log" : "plain";
    static const struct {
        int64_t cols;
        int warps, elems; /* elems 0: one vector */
        int split;        /* 0: none, 1: fused (counters + partials), 2: two passes */
    } ladder[] = {
        {1, 1, 0, 0},        {128, 1, 0, 0},     {257, 1, 16, 0},   {1024, 1, 32, 0},
        {1025, 4, 32, 0},    {4097, 8, 32, 0},   {32768, 32, 32, 0},
        {32769, 4, 32, 1},   /* 9 chunks of 4096 */
        {1000000, 8, 32, 1}, /* 123 chunks of 8192 */
        {4325376, 32, 32, 1}, /* 132 chunks of 32768 */
        {4325377, 4, 32, 2}, /* more chunks than SMs */
    };
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        tileops_handle h = fake_handle(90);
        const int tier = tileops_built_tiers[ti].tier;
        ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)tier), TILEOPS_SUCCESS);
        ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
        for (size_t k = 0; k < sizeof ladder / sizeof ladder[0]; k++) {
            const int64_t rows = 3, cols = ladder[k].cols;
            const int warps = ladder[k].warps, elems = ladder[k].elems ? ladder[k].elems : vec;
            size_t ws = 0;
            char want[128];
            snprintf(want, sizeof want, "tileops_softmax_sm%d_%s_%s_w%d_r%d_e%d_v%d", tier,
                     dt_names[dt], mname, warps, warps == 1 ? 4 : 1, elems, vec);
            const int64_t ld = (cols + 7) / 8 * 8; /* 16-byte rows */
            const char *got = pick(h, dt, mode, rows, cols, P1, ld, P2, ld, &ws);
            ck_assert_msg(strcmp(got, want) == 0, "cols %lld: %s, expected %s",
                          (long long)cols, got, want);
            /* the workspace: counters (fused) and a (max, sum) pair per chunk */
            const int64_t cap = 32 * warps * elems;
            const int64_t g = ladder[k].split ? (cols + cap - 1) / cap : 1;
            size_t expect = 0;
            if (ladder[k].split == 1)
                expect = (16 + (size_t)rows * 4 + 15) / 16 * 16 + (size_t)(rows * g) * 8;
            if (ladder[k].split == 2)
                expect = (size_t)(rows * g) * 8;
            ck_assert_msg(ws == expect, "cols %lld: workspace %zu, expected %zu",
                          (long long)cols, ws, expect);
            /* a stride that breaks 16-byte rows: the element-wise instances */
            got = pick(h, dt, mode, rows, cols, P1, ld + 1, P2, ld, &ws);
            snprintf(want, sizeof want, "tileops_softmax_sm%d_%s_%s_", tier, dt_names[dt],
                     mname);
            ck_assert_msg(strncmp(got, want, strlen(want)) == 0 && strstr(got, "_v1"),
                          "cols %lld misaligned: %s", (long long)cols, got);
        }
        tileops_destroy(h);
    }
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
    {F32, 0, 4, 8, P1, 8, P1 + 4, 8, 0, 0, 0, "tileops_softmax: y overlaps x without being "
                                               "equal to it"},
    /* the next row of the same buffer: y row r is x row r + 1 */
    {F32, 0, 4, 8, P1, 16, P1 + 64, 16, 0, 0, 0, "tileops_softmax: y overlaps x without being "
                                                 "equal to it"},
    {F32, 0, 4, 8, P1, 16, P1 + 4, 12, 0, 0, 0, "tileops_softmax: y overlaps x without being "
                                                "equal to it"},
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, 0, 0, 0,
     "tileops_softmax: 2 x 40000 needs 192 bytes of workspace (tileops_softmax_workspace_size), "
     "got 0 (NULL)"},
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, 0x7000000000ull, 191, 0,
     "tileops_softmax: 2 x 40000 needs 192 bytes of workspace (tileops_softmax_workspace_size), "
     "got 191"},
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, 0x7000000008ull, 192, 0,
     "tileops_softmax: workspace is not 16-byte aligned"},
    {F32, 0, 2, 40000, P1, 40000, P2, 40000, P1 + 1024, 4096, 0,
     "tileops_softmax: workspace overlaps x or y"},
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
    suite_add_tcase(s, tc);
    return run_suite(s, CK_NORMAL);
}
