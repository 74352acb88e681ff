/* test_attention_plan.c: the tile plan the three flash attention templates share
 * (libops/device/tileops_attention.cuh), on the host, against the mask's definition written out
 * here: which keys a row sees, which key tiles a block of rows visits, which of them need the
 * mask. No GPU: the GPU suites check the kernels that use the plan. */
#include <check.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/tileops_attention.cuh"
#include "util_check.h"

/* Bottom-right aligned: row i sits at key position i + len_kv - len_q and sees the keys j of
 * the sequence with pos - left <= j <= pos + right (a negative bound: unbounded). */
static bool sees(int64_t i, int64_t j, int64_t len_q, int64_t len_kv, int left, int right)
{
    const int64_t pos = i + len_kv - len_q;
    return j >= 0 && j < len_kv && (right < 0 || j <= pos + right) && (left < 0 || j >= pos - left);
}

/* Key j of sequence row i: inside the row's range [lo, hi) exactly when the row sees it, and
 * the row's span (what a masked tile tests) agrees. */
static void check_key(int i, int j, int lq, int lk, attn_win w, int lo, int hi)
{
    const bool want = sees(i, j, lq, lk, w.left, w.right);
    const bool span = attn_sees(attn_row_span(i, lq, lk, w), j);
    if ((j >= lo && j < hi) != want || span != want)
        ck_abort_msg("lq %d lk %d window %d,%d row %d key %d: range [%d, %d), span %d", lq, lk,
                     w.left, w.right, i, j, lo, hi, span);
}

static const int bounds[] = {-1, 0, 1, 2, 5, 30};
#define NB ((int)(sizeof bounds / sizeof bounds[0]))
#define MAX_LEN 24

/* Per row: attn_kv_range of one row is exactly the keys it sees, attn_visible agrees. */
START_TEST(row_keys)
{
    const int left = bounds[_i / NB], right = bounds[_i % NB];
    const attn_win w = {left, right};
    for (int lq = 1; lq <= MAX_LEN; lq++)
        for (int lk = 0; lk <= MAX_LEN; lk++)
            for (int i = 0; i < lq; i++) {
                int lo, hi;
                attn_kv_range(i, 1, lq, lk, w, &lo, &hi);
                for (int j = 0; j < lk; j++)
                    check_key(i, j, lq, lk, w, lo, hi);
            }
}
END_TEST

/* Per block of rows: the key tiles it visits hold every key its rows see, each holds one at
 * least, and a tile left unmasked is seen whole by every row of the block in the sequence. */
START_TEST(block_tiles)
{
    const int left = bounds[_i / NB], right = bounds[_i % NB];
    const attn_win w = {left, right};
    static const int sizes[] = {1, 3, 4, 8};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            const int bm = sizes[a], bn = sizes[b];
            for (int lq = 1; lq <= MAX_LEN; lq++)
                for (int lk = 0; lk <= MAX_LEN; lk++)
                    for (int m0 = 0; m0 < lq; m0 += bm) {
                        const int m1 = m0 + bm < lq ? m0 + bm : lq; /* rows in the sequence */
                        int t0, count;
                        attn_kv_tiles(m0, bm, bn, lq, lk, w, &t0, &count);
                        bool any = false;
                        for (int i = m0; i < m1; i++)
                            for (int j = 0; j < lk; j++)
                                if (sees(i, j, lq, lk, left, right)) {
                                    any = true;
                                    if (j / bn < t0 || j / bn >= t0 + count)
                                        ck_abort_msg("lq %d lk %d window %d,%d block %d+%d: key "
                                                     "%d outside tiles %d+%d of %d", lq, lk, left,
                                                     right, m0, bm, j, t0, count, bn);
                                }
                        if ((count > 0) != any)
                            ck_abort_msg("lq %d lk %d window %d,%d block %d+%d: %d tiles", lq, lk,
                                         left, right, m0, bm, count);
                        for (int t = t0; t < t0 + count; t++) {
                            bool seen = false, whole = true;
                            for (int j = t * bn; j < (t + 1) * bn; j++)
                                for (int i = m0; i < m1; i++) {
                                    const bool v = sees(i, j, lq, lk, left, right);
                                    seen = seen || v;
                                    whole = whole && v;
                                }
                            if (!seen)
                                ck_abort_msg("lq %d lk %d window %d,%d block %d+%d: tile %d of %d "
                                             "holds no key its rows see", lq, lk, left, right, m0,
                                             bm, t, bn);
                            if (!whole && !attn_tile_masked(t * bn, bn, m0, bm, lq, lk, w))
                                ck_abort_msg("lq %d lk %d window %d,%d block %d+%d: tile %d of %d "
                                             "unmasked but not seen whole", lq, lk, left, right,
                                             m0, bm, t, bn);
                        }
                    }
        }
}
END_TEST

/* Sequences near int's limit: the positions are computed in 64 bits. */
START_TEST(long_sequences)
{
    const int n = INT_MAX - 256;
    for (int k = 0; k < NB * NB; k++) {
        const int left = bounds[k / NB], right = bounds[k % NB];
        const attn_win w = {left, right};
        const int lens[][2] = {{n, n}, {n, 1000}, {1000, n}, {1, n}};
        for (int c = 0; c < 4; c++) {
            const int lq = lens[c][0], lk = lens[c][1];
            const int rows[] = {0, 1, lq / 2, lq - 1};
            for (int r = 0; r < 4; r++) {
                const int i = rows[r];
                int lo, hi;
                attn_kv_range(i, 1, lq, lk, w, &lo, &hi);
                const int keys[] = {0, lo - 1, lo, hi - 1, hi, lk - 1};
                for (int q = 0; q < 6; q++) {
                    const int j = keys[q];
                    if (j >= 0 && j < lk)
                        check_key(i, j, lq, lk, w, lo, hi);
                }
            }
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("attention_plan");
    TCase *tc = tcase_create("plan");
    tcase_add_loop_test(tc, row_keys, 0, NB * NB);
    tcase_add_loop_test(tc, block_tiles, 0, NB * NB);
    tcase_add_test(tc, long_sequences);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return run_suite(s, CK_NORMAL);
}
