/* test_attention_api.c: tileops_flash_attention without a GPU: every bad argument's status and
 * message, which instance each tier, dtype and head dim gets (dry runs on a fake H200 and a
 * fake 99 KB part), the layouts and empty shapes that are accepted, and NOT_SUPPORTED from a
 * tier without attention kernels. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"
#include "variants.h"

#define Q0 ((uintptr_t)0x100000000ull)
#define K0 ((uintptr_t)0x200000000ull)
#define V0 ((uintptr_t)0x300000000ull)
#define O0 ((uintptr_t)0x400000000ull)
#define L0 ((uintptr_t)0x500000000ull)
#define CUQ ((uintptr_t)0x600000000ull)
#define CUKV ((uintptr_t)0x600001000ull)
#define PTR(p) ((void *)(uintptr_t)(p))

#define FN "tileops_flash_attention: "
#define ALIGN_NEED "the attention kernels need q, k, v and o 16-byte aligned and their strides " \
                   "multiples of 8 elements"

/* Host offsets of the variable-length cases: q sequences of 100 and 300 rows, k/v of 500 and
 * 0 (the second sequence sees no key). */
static const int cu_q_host[3] = {0, 100, 400};
static const int cu_kv_host[3] = {0, 500, 500};
static const int cu_bad_start[3] = {1, 100, 400};
static const int cu_decreasing[3] = {0, 10, 5};

/* A valid problem: bf16, 2 sequences of 300 queries and 500 keys, 8 query heads over 2 kv heads
 * (GQA), head_dim d, dense [b, s, h, d] tensors, LSE, causal. */
static tileops_attention_params good_d(int d)
{
    tileops_attention_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.dtype = TILEOPS_BF16;
    p.batch = 2, p.seqlen_q = 300, p.seqlen_kv = 500;
    p.heads_q = 8, p.heads_kv = 2, p.head_dim = d;
    p.q = PTR(Q0), p.q_head = d, p.q_seq = 8 * d, p.q_batch = 300 * 8 * d;
    p.k = PTR(K0), p.k_head = d, p.k_seq = 2 * d, p.k_batch = 500 * 2 * d;
    p.v = PTR(V0), p.v_head = d, p.v_seq = 2 * d, p.v_batch = 500 * 2 * d;
    p.o = PTR(O0), p.o_head = d, p.o_seq = 8 * d, p.o_batch = 300 * 8 * d;
    p.lse = PTR(L0);
    p.causal = 1;
    return p;
}

static tileops_attention_params good(void) { return good_d(128); }

/* The same problem packed: cu_seqlens on the device (fake) and on the host. */
static void make_varlen(tileops_attention_params *p)
{
    p->cu_seqlens_q = PTR(CUQ), p->cu_seqlens_kv = PTR(CUKV);
    p->cu_seqlens_q_host = cu_q_host, p->cu_seqlens_kv_host = cu_kv_host;
    p->q_batch = p->k_batch = p->v_batch = p->o_batch = 0;
}

enum field {
    F_SIZE, F_DTYPE, F_BATCH, F_HEADS_Q, F_HEADS_KV, F_HEAD_DIM, F_SEQLEN_Q, F_SEQLEN_KV,
    F_CAUSAL, F_SCALE_NAN, F_SCALE_INF, F_SCALE_NEG, F_Q, F_K, F_V, F_O, F_LSE, F_Q_HEAD, F_Q_BATCH, F_K_SEQ,
    F_V_HEAD, F_O_BATCH, F_CU_Q_ONLY, F_NO_HOST, F_HOST_START, F_HOST_DECREASING,
    F_VARLEN_SEQLEN_Q, F_VARLEN_CU_Q, F_LONG_KV, F_WINDOW, F_WINDOW_LEFT, F_WINDOW_RIGHT,
    F_SOFTCAP, F_SOFTCAP_NAN, F_SIZE_V1_LESS
};

struct bad_call {
    enum field field;
    int64_t value; /* pointers as (int64_t)(uintptr_t) */
    tileops_status want;
    const char *message; /* after "tileops_flash_attention: " */
};

#define INVALID TILEOPS_ERROR_INVALID_VALUE
#define UNSUPPORTED TILEOPS_ERROR_NOT_SUPPORTED
static const struct bad_call bad_calls[] = {
    {F_SIZE, 8, INVALID, "params->size is 8, expected sizeof(tileops_attention_params) = %zu"},
    {F_DTYPE, TILEOPS_F32, UNSUPPORTED, "dtype 0: attention takes f16 or bf16"},
    {F_DTYPE, 9, INVALID, "dtype 9: attention takes f16 or bf16"},
    {F_BATCH, 0, INVALID, "batch is 0 (must be >= 1)"},
    {F_HEADS_Q, 0, INVALID, "heads_q is 0 (must be >= 1)"},
    {F_HEADS_KV, -1, INVALID, "heads_kv is -1 (must be >= 1)"},
    {F_HEAD_DIM, 0, INVALID, "head_dim is 0 (must be >= 1)"},
    {F_SEQLEN_Q, -1, INVALID, "seqlen_q is -1 (must be >= 0)"},
    {F_SEQLEN_KV, -5, INVALID, "seqlen_kv is -5 (must be >= 0)"},
    {F_HEADS_KV, 3, INVALID, "heads_q = 8 is not a multiple of heads_kv = 3"},
    {F_HEADS_KV, 16, INVALID, "heads_q = 8 is not a multiple of heads_kv = 16"},
    {F_HEAD_DIM, 80, UNSUPPORTED, "head_dim 80 is not supported (64, 96, 128 or 256)"},
    {F_HEAD_DIM, 512, UNSUPPORTED, "head_dim 512 is not supported (64, 96, 128 or 256)"},
    {F_CAUSAL, 2, INVALID, "causal is 2 (must be 0 or 1)"},
    {F_CAUSAL, -1, INVALID, "causal is -1 (must be 0 or 1)"},
    {F_SCALE_NAN, 0, INVALID, "scale is nan (must be finite; 0 for 1/sqrt(head_dim))"},
    {F_SCALE_INF, 0, INVALID, "scale is inf (must be finite; 0 for 1/sqrt(head_dim))"},
    {F_SCALE_NEG, 0, UNSUPPORTED, "scale is -0.5: the kernels take scales >= 0 (0 for "
                                  "1/sqrt(head_dim))"},
    {F_Q, 0, INVALID, "q is NULL"},
    {F_K, 0, INVALID, "k is NULL"},
    {F_V, 0, INVALID, "v is NULL"},
    {F_O, 0, INVALID, "o is NULL"},
    {F_Q, (int64_t)(Q0 + 1), INVALID, "q is not aligned to its 2-byte elements"},
    {F_Q_HEAD, 64, INVALID, "q overlaps itself: q_head = 64 is less than the 128 elements of the "
                            "dimensions inside it"},
    {F_K_SEQ, 200, INVALID, "k overlaps itself: k_seq = 200 is less than the 256 elements of the "
                            "dimensions inside it"},
    {F_O_BATCH, 0, INVALID, "o overlaps itself: o_batch = 0 is less than the 128 elements of the "
                            "dimensions inside it"},
    /* a batch stride shorter than a sequence */
    {F_Q_BATCH, 300 * 128, INVALID, "q overlaps itself: q_batch = 38400 is less than the 307200 "
                                    "elements of the dimensions inside it"},
    {F_V_HEAD, -128, INVALID, "v_head = -128 is negative"},
    {F_Q_BATCH, (int64_t)(INT64_MAX / 2), INVALID,
     "q (strides 4611686018427387903, 1024, 128) overflows the address space"},
    {F_K, (int64_t)(UINTPTR_MAX - 1001), INVALID,
     "k (strides 128000, 256, 128) overflows the address space"},
    {F_O, (int64_t)(Q0 + 4096), INVALID, "o overlaps q"},
    {F_O, (int64_t)(V0 - 64), INVALID, "o overlaps v"},
    {F_O, (int64_t)L0, INVALID, "o overlaps lse"},
    {F_LSE, (int64_t)(K0 + 64), INVALID, "lse overlaps k"},
    {F_LSE, (int64_t)(L0 + 2), INVALID, "lse is not aligned to its 4-byte elements"},
    {F_LSE, (int64_t)(UINTPTR_MAX - 1023), INVALID,
     "lse (2 x 8 x 300) overflows the address space"},
    {F_CU_Q_ONLY, 0, INVALID, "cu_seqlens_kv is NULL but other cu_seqlens are given (a "
                              "variable-length batch needs all four)"},
    {F_NO_HOST, 0, INVALID, "cu_seqlens_q_host is NULL but other cu_seqlens are given (a "
                            "variable-length batch needs all four)"},
    {F_HOST_START, 0, INVALID, "cu_seqlens_q_host[0] is 1 (the offsets start at 0)"},
    {F_HOST_DECREASING, 0, INVALID, "cu_seqlens_kv_host[2] = 5 is less than cu_seqlens_kv_host[1] "
                                    "= 10"},
    {F_VARLEN_SEQLEN_Q, 299, INVALID, "seqlen_q = 299 is less than the longest sequence, 300 "
                                      "(with cu_seqlens it is the longest)"},
    {F_VARLEN_CU_Q, (int64_t)(CUQ + 2), INVALID, "cu_seqlens_q is not aligned to its 4-byte "
                                                "elements"},
    {F_VARLEN_CU_Q, (int64_t)(O0 + 64), INVALID, "o overlaps cu_seqlens_q"},
    /* the device offsets' range (3 ints) runs past the top of the address space */
    {F_VARLEN_CU_Q, (int64_t)(UINTPTR_MAX - 7), INVALID, "cu_seqlens_q (2 + 1 offsets) "
                                                         "overflows the address space"},
    {F_Q, (int64_t)(Q0 + 8), UNSUPPORTED, "q is not 16-byte aligned: " ALIGN_NEED},
    {F_O, (int64_t)(O0 + 2), UNSUPPORTED, "o is not 16-byte aligned: " ALIGN_NEED},
    {F_Q_BATCH, 307204, UNSUPPORTED, "q_batch = 307204 is not a multiple of 8 elements: "
                                     ALIGN_NEED},
    {F_LONG_KV, 0, UNSUPPORTED, "seqlen_kv = 2147483648: the kernels take sequences of at most "
                                "2147483391"},
    {F_WINDOW, 2, INVALID, "window is 2 (must be 0 or 1)"},
    {F_WINDOW_LEFT, -2, INVALID, "window_left is -2 (-1 for unbounded, or >= 0)"},
    {F_WINDOW_RIGHT, -7, INVALID, "window_right is -7 (-1 for unbounded, or >= 0)"},
    {F_SOFTCAP, -1, INVALID, "softcap is -1 (0 for none, or positive and finite)"},
    {F_SOFTCAP_NAN, 0, INVALID, "softcap is nan (0 for none, or positive and finite)"},
    /* one byte short of the first layout */
    {F_SIZE_V1_LESS, 0, INVALID, "params->size is %zu, expected sizeof(tileops_attention_params) "
                                 "= %zu"},
};

/* Each bad call returns its status and message and chooses no kernel, dry run or not. */
START_TEST(validation)
{
    const struct bad_call *c = &bad_calls[_i];
    tileops_handle h = fake_handle(90);
    tileops_attention_params p = good();
    const int64_t iv = c->value;
    const uintptr_t pv = (uintptr_t)c->value;
    switch (c->field) {
    case F_SIZE: p.size = (size_t)iv; break;
    case F_DTYPE: p.dtype = (tileops_dtype)iv; break;
    case F_BATCH: p.batch = iv; break;
    case F_HEADS_Q: p.heads_q = (int)iv; break;
    case F_HEADS_KV: p.heads_kv = (int)iv; break;
    case F_HEAD_DIM: p.head_dim = (int)iv; break;
    case F_SEQLEN_Q: p.seqlen_q = iv; break;
    case F_SEQLEN_KV: p.seqlen_kv = iv; break;
    case F_CAUSAL: p.causal = (int)iv; break;
    case F_SCALE_NAN: p.scale = NAN; break;
    case F_SCALE_INF: p.scale = INFINITY; break;
    case F_SCALE_NEG: p.scale = -0.5f; break;
    case F_Q: p.q = PTR(pv); break;
    case F_K: p.k = PTR(pv); break;
    case F_V: p.v = PTR(pv); break;
    case F_O: p.o = PTR(pv); break;
    case F_LSE: p.lse = PTR(pv); break;
    case F_Q_HEAD: p.q_head = iv; break;
    case F_Q_BATCH: p.q_batch = iv; break;
    case F_K_SEQ: p.k_seq = iv; break;
    case F_V_HEAD: p.v_head = iv; break;
    case F_O_BATCH: p.o_batch = iv; break;
    case F_CU_Q_ONLY: p.cu_seqlens_q = PTR(CUQ); break;
    case F_NO_HOST: make_varlen(&p), p.cu_seqlens_q_host = NULL; break;
    case F_HOST_START: make_varlen(&p), p.cu_seqlens_q_host = cu_bad_start; break;
    case F_HOST_DECREASING: make_varlen(&p), p.cu_seqlens_kv_host = cu_decreasing; break;
    case F_VARLEN_SEQLEN_Q: make_varlen(&p), p.seqlen_q = iv; break;
    case F_VARLEN_CU_Q: make_varlen(&p), p.cu_seqlens_q = PTR(pv); break;
    case F_WINDOW: p.window = (int)iv; break;
    case F_WINDOW_LEFT: p.window = 1, p.window_left = (int)iv, p.window_right = -1; break;
    case F_WINDOW_RIGHT: p.window = 1, p.window_left = 5, p.window_right = (int)iv; break;
    case F_SOFTCAP: p.softcap = (float)iv; break;
    case F_SOFTCAP_NAN: p.softcap = NAN; break;
    case F_SIZE_V1_LESS: p.size = TILEOPS_ATTENTION_PARAMS_SIZE_V1 - 1; break;
    case F_LONG_KV:
        p.seqlen_kv = (int64_t)1 << 31;
        p.k_batch = p.v_batch = p.seqlen_kv * p.k_seq;
        p.k = PTR(0x100000000000ull), p.v = PTR(0x200000000000ull); /* 2 TB each */
        break;
    }
    char want[512];
    snprintf(want, sizeof want, FN "%s", c->message);
    if (c->field == F_SIZE)
        snprintf(want, sizeof want, FN "params->size is 8, expected "
                 "sizeof(tileops_attention_params) = %zu", sizeof(tileops_attention_params));
    if (c->field == F_SIZE_V1_LESS)
        snprintf(want, sizeof want, FN "params->size is %zu, expected "
                 "sizeof(tileops_attention_params) = %zu",
                 (size_t)TILEOPS_ATTENTION_PARAMS_SIZE_V1 - 1, sizeof(tileops_attention_params));
    for (int dry = 0; dry < 2; dry++) {
        ck_assert_int_eq(tileops_set_dry_run(h, dry), TILEOPS_SUCCESS);
        ck_assert_int_eq(tileops_flash_attention(h, &p, NULL), c->want);
        ck_assert_str_eq(tileops_last_error(), want);
        ck_assert_str_eq(tileops_last_kernel(h), "");
    }
    tileops_destroy(h);
}
END_TEST

/* A caller of the first layout (size TILEOPS_ATTENTION_PARAMS_SIZE_V1) keeps its behaviour:
 * whatever lies past its struct (here: a bad window and softcap) is not read. The GPU suite
 * proves the results equal (test_attention, "size v1"). */
START_TEST(size_v1_accepted)
{
    tileops_handle h = fake_handle(90);
    tileops_attention_params p = good();
    p.window = 7, p.window_left = -9, p.softcap = -1.0f;
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_flash_attention(h, &p, NULL), TILEOPS_ERROR_INVALID_VALUE);
    p.size = TILEOPS_ATTENTION_PARAMS_SIZE_V1;
    ck_assert_msg(tileops_flash_attention(h, &p, NULL) == TILEOPS_SUCCESS, "%s",
                  tileops_last_error());
    tileops_destroy(h);
}
END_TEST

START_TEST(null_arguments)
{
    tileops_attention_params p = good();
    ck_assert_int_eq(tileops_flash_attention(NULL, &p, NULL), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), FN "handle is NULL");
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_flash_attention(h, NULL, NULL), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), FN "params is NULL");
    tileops_destroy(h);
}
END_TEST

/* The kernel a dry run picks. */
static const char *pick(tileops_handle h, const tileops_attention_params *p)
{
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_msg(tileops_flash_attention(h, p, NULL) == TILEOPS_SUCCESS, "%s",
                  tileops_last_error());
    return tileops_last_kernel(h);
}

/* Every tier serves both dtypes and every head dim, with an instance of that dtype and head
 * dim, except bf16 on the sm70 tier (wmma there is fp16 only): NOT_SUPPORTED, saying so. */
START_TEST(dispatch_per_tier)
{
    static const int dims[4] = {64, 96, 128, 256};
    static const char *const dt_names[3] = {"f32", "f16", "bf16"};
    tileops_handle h = fake_handle(90);
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        const int tier = tileops_built_tiers[ti].tier;
        ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)tier), TILEOPS_SUCCESS);
        for (int dt = TILEOPS_F16; dt <= TILEOPS_BF16; dt++)
            for (int i = 0; i < 4; i++) {
                tileops_attention_params p = good_d(dims[i]);
                p.dtype = (tileops_dtype)dt;
                ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
                const tileops_status st = tileops_flash_attention(h, &p, NULL);
                if (tier == 70 && dt == TILEOPS_BF16) {
                    ck_assert_int_eq(st, TILEOPS_ERROR_NOT_SUPPORTED);
                    ck_assert_msg(strstr(tileops_last_error(), "bf16") != NULL, "%s",
                                  tileops_last_error());
                    continue;
                }
                ck_assert_msg(st == TILEOPS_SUCCESS, "%s", tileops_last_error());
                char want[96]; /* sm90: the wgmma family's */
                snprintf(want, sizeof want, "tileops_flash_attention_%ssm%d_%s_d%d_m",
                         tier == 90 ? "wgmma_" : "", tier, dt_names[dt], dims[i]);
                ck_assert_msg(strncmp(tileops_last_kernel(h), want, strlen(want)) == 0,
                              "%s, expected %s…", tileops_last_kernel(h), want);
            }
    }
    tileops_destroy(h);
}
END_TEST

/* Which instance a shape gets: on an H200 (227 KB) the sm90 tier takes the wgmma family's
 * 128 x 128 tile at d128 and its 128 x 64 one at d256; the sm80 tier at d128 takes 4 warps of
 * 32 rows, Q in shared memory (the fastest measured), at d256 the 128 x 64 tile with one K and
 * one V buffer (128 KB); on a 99 KB part (sm86) only the instances that fit its shared memory. */
START_TEST(dispatch_by_shape)
{
    tileops_attention_params p = good();
    p.batch = 1, p.seqlen_q = p.seqlen_kv = 16384, p.heads_q = p.heads_kv = 16, p.causal = 0;
    p.q_seq = p.k_seq = p.v_seq = p.o_seq = 16 * 128;
    p.q_batch = p.k_batch = p.v_batch = p.o_batch = 0;
    p.lse = NULL;
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        const int tier = tileops_built_tiers[ti].tier;
        if (tier == 70)
            continue;
        tileops_handle h = fake_handle(90);
        ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)tier), TILEOPS_SUCCESS);
        char want[96];
        tileops_attention_params p256 = good_d(256);
        if (tier == 90) {
            ck_assert_str_eq(pick(h, &p), "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1");
            ck_assert_str_eq(pick(h, &p256), "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1");
            tileops_destroy(h);
            continue;
        }
        snprintf(want, sizeof want, "tileops_flash_attention_sm%d_bf16_d128_m128_n64_w4_s2_q0", tier);
        ck_assert_str_eq(pick(h, &p), want);
        snprintf(want, sizeof want, "tileops_flash_attention_sm%d_bf16_d256_m128_n64_w8_s1_q0",
                 tier);
        ck_assert_str_eq(pick(h, &p256), want);
        tileops_destroy(h);
        if (tier != 80)
            continue;
        /* an sm86 with 99 KB a block: the d128 tile (96 KB) still, not d256's m128 ones */
        struct tileops_device dev = {0, 86, 84, 99 * 1024, "fake sm86", 1};
        ck_assert_int_eq(tileops__create_from(&h, &dev, tileops_built_tiers,
                                              tileops_built_tier_count, 1), TILEOPS_SUCCESS);
        ck_assert_str_eq(pick(h, &p), "tileops_flash_attention_sm80_bf16_d128_m128_n64_w4_s2_q0");
        ck_assert_str_eq(pick(h, &p256), "tileops_flash_attention_sm80_bf16_d256_m64_n32_w4_s2_q0");
        tileops_destroy(h);
    }
}
END_TEST

/* What is accepted: empty shapes (seqlen_q = 0: nothing to do; seqlen_kv = 0: O = 0, LSE =
 * -inf), [b, h, s, d] strides, views of a fused QKV buffer, any stride on a dimension of size
 * 1, strides on the batch under varlen (unused), varlen with empty sequences, causal off,
 * an explicit scale, no lse. */
START_TEST(valid_calls)
{
    tileops_handle h = fake_handle(90);
    tileops_attention_params p = good();
    p.seqlen_q = 0;
    pick(h, &p);
    p = good();
    p.seqlen_kv = 0;
    pick(h, &p);
    p.k_batch = -3, p.v_head = 5; /* an empty view's strides are never used */
    pick(h, &p);
    p.seqlen_q = 0;
    pick(h, &p);

    /* [b, h, s, d]: heads outside the sequence, rows padded to 136 elements */
    p = good();
    p.q_seq = p.o_seq = 136, p.q_head = p.o_head = 300 * 136, p.q_batch = p.o_batch = 8 * 300 * 136;
    p.k_seq = p.v_seq = 136, p.k_head = p.v_head = 500 * 136, p.k_batch = p.v_batch = 2 * 500 * 136;
    pick(h, &p);

    /* q, k and v interleaved in one [b, s, 12, d] buffer (8 q heads, 2 k, 2 v); MHA-style
     * seqlens equal */
    p = good();
    p.seqlen_kv = 300;
    p.q_seq = p.k_seq = p.v_seq = 12 * 128, p.q_batch = p.k_batch = p.v_batch = 300 * 12 * 128;
    p.k = PTR(Q0 + 8 * 128 * 2), p.v = PTR(Q0 + 10 * 128 * 2);
    pick(h, &p);

    /* dimensions of size 1 take any stride, even an odd or negative one */
    p = good();
    p.batch = 1, p.q_batch = 3, p.k_batch = -1, p.v_batch = 5, p.o_batch = 7;
    p.heads_q = 2, p.heads_kv = 1, p.k_head = p.v_head = 1;
    pick(h, &p);
    p.seqlen_q = 1, p.q_seq = p.o_seq = 1;
    pick(h, &p);

    /* varlen: batch strides ignored, the second sequence has no key */
    p = good();
    make_varlen(&p);
    p.q_batch = 12345, p.k_batch = -3;
    pick(h, &p);
    p.causal = 0, p.scale = 0.5f, p.lse = NULL, p.seqlen_q = 1000; /* overstated: allowed */
    pick(h, &p);
    /* every sequence empty */
    static const int zeros[3] = {0, 0, 0};
    p.cu_seqlens_q_host = p.cu_seqlens_kv_host = zeros;
    pick(h, &p);
    tileops_destroy(h);
}
END_TEST

/* NOT_SUPPORTED from a tier that lacks attention kernels: none at all (the sm70 tier today),
 * none of the dtype, none of the head dim. The tier tables are fakes. */
static int64_t fake_fit(const void *args, size_t *ws)
{
    (void)args;
    *ws = 0;
    return 1;
}

static int fake_launch(const void *args, struct CUstream_st *stream)
{
    (void)args, (void)stream;
    return 0;
}

START_TEST(tier_without_kernels)
{
    static const int none_count = 0, one_count = 1;
    static const struct tileops_kernel none[1] = {{0}};
    static const struct tileops_kernel f16_d64[1] = {
        {"fake_flash_attention_sm70_f16_d64", TILEOPS_OP_FLASH_ATTENTION, 70, TILEOPS_F16,
         TILEOPS_FLASH_ATTENTION_HEAD_DIM_64, 16, 0, "", fake_launch, fake_fit, 0}};
    const struct tileops_tier_table empty70[1] = {{70, 75, none, &none_count}};
    const struct tileops_tier_table f16only70[1] = {{70, 75, f16_d64, &one_count}};
    struct tileops_device dev = {0, 75, 40, 64 * 1024, "fake sm75", 1};
    tileops_handle h;
    tileops_attention_params p = good();

    ck_assert_int_eq(tileops__create_from(&h, &dev, empty70, 1, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_flash_attention(h, &p, NULL), TILEOPS_ERROR_NOT_SUPPORTED);
    ck_assert_str_eq(tileops_last_error(), FN "the sm70 tier has no attention kernel yet");
    tileops_destroy(h);

    ck_assert_int_eq(tileops__create_from(&h, &dev, f16only70, 1, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_flash_attention(h, &p, NULL), TILEOPS_ERROR_NOT_SUPPORTED);
    ck_assert_str_eq(tileops_last_error(), FN "the sm70 tier has no bf16 attention kernel");
    p.dtype = TILEOPS_F16;
    ck_assert_int_eq(tileops_flash_attention(h, &p, NULL), TILEOPS_ERROR_NOT_SUPPORTED);
    ck_assert_str_eq(tileops_last_error(),
                     FN "the sm70 tier has no f16 attention kernel for head_dim 128");
    p = good_d(64);
    p.dtype = TILEOPS_F16;
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_flash_attention(h, &p, NULL), TILEOPS_SUCCESS);
    ck_assert_str_eq(tileops_last_kernel(h), "fake_flash_attention_sm70_f16_d64");
    /* invalid arguments are INVALID_VALUE there too, before the tier is asked */
    p.heads_kv = 3;
    ck_assert_int_eq(tileops_flash_attention(h, &p, NULL), TILEOPS_ERROR_INVALID_VALUE);
    tileops_destroy(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("attention_api");
    TCase *tc = tcase_create("api");
    tcase_add_loop_test(tc, validation, 0, (int)(sizeof bad_calls / sizeof bad_calls[0]));
    tcase_add_test(tc, null_arguments);
    tcase_add_test(tc, size_v1_accepted);
    tcase_add_test(tc, dispatch_per_tier);
    tcase_add_test(tc, dispatch_by_shape);
    tcase_add_test(tc, valid_calls);
    tcase_add_test(tc, tier_without_kernels);
    suite_add_tcase(s, tc);
    return run_suite(s, CK_NORMAL);
}
