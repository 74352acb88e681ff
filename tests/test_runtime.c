/* test_runtime.c: the runtime without a GPU: tier choice on fake device properties, kernel
 * choice by alignment (dry run), and argument validation that returns before any GPU work. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"

/* Fake builds: tables with no kernels, as CUDA 12 (sm_70) and CUDA 13 (sm_75) build them. */
static const int zero = 0;
static const struct tileops_tier_table cuda12[] = {
    {70, 70, NULL, &zero}, {80, 80, NULL, &zero}, {90, 90, NULL, &zero}};
static const struct tileops_tier_table cuda13[] = {
    {70, 75, NULL, &zero}, {80, 80, NULL, &zero}, {90, 90, NULL, &zero}};
static const struct tileops_tier_table only80[] = {{80, 80, NULL, &zero}};

struct tier_case {
    int cc;
    int want12, want13; /* tier chosen with each build; 0: NOT_SUPPORTED */
};

static const struct tier_case tier_cases[] = {
    {61, 0, 0},   {70, 70, 0},  {75, 70, 70}, {80, 80, 80}, {86, 80, 80},
    {89, 80, 80}, {90, 90, 90}, {100, 80, 80}, {120, 80, 80},
};

START_TEST(tier_for_compute_capability)
{
    const struct tier_case *c = &tier_cases[_i];
    tileops_status st;
    const struct tileops_tier_table *t = tileops__choose_tier(c->cc, TILEOPS_TIER_AUTO, cuda12, 3, &st);
    ck_assert_int_eq(t ? t->tier : 0, c->want12);
    ck_assert_int_eq(st, c->want12 ? TILEOPS_SUCCESS : TILEOPS_ERROR_NOT_SUPPORTED);
    t = tileops__choose_tier(c->cc, TILEOPS_TIER_AUTO, cuda13, 3, &st);
    ck_assert_int_eq(t ? t->tier : 0, c->want13);
    ck_assert_int_eq(st, c->want13 ? TILEOPS_SUCCESS : TILEOPS_ERROR_NOT_SUPPORTED);
    if (!t)
        ck_assert_str_ne(tileops_last_error(), "");
}
END_TEST

START_TEST(tier_messages)
{
    tileops_status st;
    ck_assert_ptr_null(tileops__choose_tier(61, TILEOPS_TIER_AUTO, cuda13, 3, &st));
    ck_assert_str_eq(tileops_last_error(),
                     "compute capability 6.1 is below 7.0, the oldest tier (sm70)");
    ck_assert_ptr_null(tileops__choose_tier(70, TILEOPS_TIER_AUTO, cuda13, 3, &st));
    ck_assert_str_eq(tileops_last_error(), "compute capability 7.0: the sm70 tier was built as "
                     "sm_75 (CUDA 13 has no sm_70); build with CUDA 12 to serve it");
    ck_assert_ptr_null(tileops__choose_tier(75, TILEOPS_TIER_AUTO, only80, 1, &st));
    ck_assert_str_eq(tileops_last_error(),
                     "no tier in this build serves compute capability 7.5 (see TILEOPS_ARCHS)");
}
END_TEST

START_TEST(forced_tiers)
{
    tileops_status st;
    /* on a 9.0 device every tier can be forced: the older ones run through their PTX */
    for (int t = 70; t <= 90; t += 10) {
        const struct tileops_tier_table *got = tileops__choose_tier(90, t, cuda13, 3, &st);
        ck_assert_ptr_nonnull(got);
        ck_assert_int_eq(got->tier, t);
    }
    /* sm_90a code runs on 9.x only */
    ck_assert_ptr_null(tileops__choose_tier(100, 90, cuda13, 3, &st));
    ck_assert_int_eq(st, TILEOPS_ERROR_NOT_SUPPORTED);
    ck_assert_str_eq(tileops_last_error(),
                     "tier sm90 (built as sm_90a) cannot run on compute capability 10.0");
    ck_assert_ptr_null(tileops__choose_tier(86, 90, cuda13, 3, &st));
    ck_assert_ptr_null(tileops__choose_tier(90, 70, only80, 1, &st));
    ck_assert_str_eq(tileops_last_error(), "tier sm70 is not in this build (see TILEOPS_ARCHS)");
}
END_TEST

START_TEST(env_tier)
{
    struct tileops_device dev = {0, 90, 132, 227 * 1024, "fake", 1};
    tileops_handle h = NULL;
    setenv("TILEOPS_TIER", "sm9", 1);
    ck_assert_int_eq(tileops__create_from(&h, &dev, cuda13, 3, 1), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_create: TILEOPS_TIER='sm9' is not a tier "
                     "(sm70, sm80, sm90 or auto)");
    setenv("TILEOPS_TIER", "sm80", 1);
    ck_assert_int_eq(tileops__create_from(&h, &dev, cuda13, 3, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_get_tier(h), TILEOPS_TIER_SM80);
    tileops_destroy(h);
    unsetenv("TILEOPS_TIER");
    ck_assert_int_eq(tileops__create_from(&h, &dev, cuda13, 3, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_get_tier(h), TILEOPS_TIER_SM90);
    ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)85), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_int_eq(tileops_set_tier(h, TILEOPS_TIER_SM70), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_get_tier(h), TILEOPS_TIER_SM70);
    tileops_destroy(h);
}
END_TEST

/* Kernel choice: the vectorized instance when every pointer is 16-byte aligned, the scalar
 * one otherwise; checked on every tier of this build, for every dtype. */
START_TEST(dispatch_by_alignment)
{
    static const char *const dt_names[] = {"f32", "f16", "bf16"};
    static const int vec[] = {4, 8, 8};
    for (int i = 0; i < tileops_built_tier_count; i++) {
        tileops_handle h = fake_handle(90);
        int tier = tileops_built_tiers[i].tier;
        ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)tier), TILEOPS_SUCCESS);
        ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
        for (int d = 0; d < 3; d++) {
            char want[128];
            int esz = d == 0 ? 4 : 2;
            char *base = (char *)(uintptr_t)0x10000000; /* never dereferenced: dry run */
            ck_assert_int_eq(tileops_vector_add(h, (tileops_dtype)d, 100, base, base + 4096,
                                                base + 8192, NULL), TILEOPS_SUCCESS);
            snprintf(want, sizeof want, "tileops_vector_add_sm%d_%s_t256_v%d_u4", tier,
                     dt_names[d], vec[d]);
            ck_assert_str_eq(tileops_last_kernel(h), want);
            /* one pointer off by an element: the scalar path */
            ck_assert_int_eq(tileops_vector_add(h, (tileops_dtype)d, 100, base, base + 4096,
                                                base + 8192 + esz, NULL), TILEOPS_SUCCESS);
            snprintf(want, sizeof want, "tileops_vector_add_sm%d_%s_t256_v1_u4", tier, dt_names[d]);
            ck_assert_str_eq(tileops_last_kernel(h), want);
        }
        tileops_destroy(h);
    }
}
END_TEST

/* tileops_set_kernel: a pinned handle uses that instance even where dispatch would choose
 * another; a call it cannot serve is NOT_SUPPORTED and names it; NULL unpins; an unknown
 * name is refused. */
START_TEST(pinned_kernel)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_tier(h, (tileops_tier)tileops_built_tiers[0].tier),
                     TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    char *base = (char *)(uintptr_t)0x10000000; /* never dereferenced: dry run */
    char scalar[128], vector[128];
    const int tier = tileops_built_tiers[0].tier;
    snprintf(scalar, sizeof scalar, "tileops_vector_add_sm%d_f32_t256_v1_u4", tier);
    snprintf(vector, sizeof vector, "tileops_vector_add_sm%d_f32_t256_v4_u4", tier);
    /* aligned pointers: dispatch takes the vector kernel, the pinned handle the scalar one */
    ck_assert_int_eq(tileops_set_kernel(h, scalar), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 100, base, base + 4096, base + 8192,
                                        NULL), TILEOPS_SUCCESS);
    ck_assert_str_eq(tileops_last_kernel(h), scalar);
    /* pinned to the vector kernel, a misaligned call has no kernel; f16 neither */
    ck_assert_int_eq(tileops_set_kernel(h, vector), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 100, base, base + 4096, base + 8196,
                                        NULL), TILEOPS_ERROR_NOT_SUPPORTED);
    ck_assert_msg(strstr(tileops_last_error(), vector) && strstr(tileops_last_error(),
                  "cannot serve this call"), "%s", tileops_last_error());
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F16, 100, base, base + 4096, base + 8192,
                                        NULL), TILEOPS_ERROR_NOT_SUPPORTED);
    ck_assert_msg(strstr(tileops_last_error(), "is not an sm"), "%s", tileops_last_error());
    /* unpinned: dispatch again */
    ck_assert_int_eq(tileops_set_kernel(h, NULL), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 100, base, base + 4096, base + 8196,
                                        NULL), TILEOPS_SUCCESS);
    ck_assert_str_eq(tileops_last_kernel(h), scalar);
    ck_assert_int_eq(tileops_set_kernel(h, "tileops_vector_add_sm99_f32"),
                     TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_set_kernel: no tier of this handle holds a "
                     "kernel named \"tileops_vector_add_sm99_f32\"");
    ck_assert_int_eq(tileops_set_kernel(NULL, NULL), TILEOPS_ERROR_INVALID_VALUE);
    tileops_destroy(h);
}
END_TEST

struct bad_call {
    tileops_dtype dt;
    int64_t n;
    uintptr_t a, b, c;
    int null_handle;
    tileops_status want;
    const char *message;
};

#define P1 0x10000000u
#define P2 0x20000000u
#define P3 0x30000000u
static const struct bad_call bad_calls[] = {
    {TILEOPS_F32, 10, P1, P2, P3, 1, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: handle is NULL"},
    {(tileops_dtype)3, 10, P1, P2, P3, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: 3 is not a dtype"},
    {(tileops_dtype)-1, 10, P1, P2, P3, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: -1 is not a dtype"},
    {TILEOPS_F32, 0, P1, P2, P3, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: n is 0 (must be >= 1)"},
    {TILEOPS_F16, -5, P1, P2, P3, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: n is -5 (must be >= 1)"},
    {TILEOPS_F32, 10, 0, P2, P3, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: a is NULL"},
    {TILEOPS_F32, 10, P1, 0, P3, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: b is NULL"},
    {TILEOPS_BF16, 10, P1, P2, 0, 0, TILEOPS_ERROR_INVALID_VALUE, "tileops_vector_add: c is NULL"},
    {TILEOPS_F32, INT64_MAX / 2, P1, P2, P3, 0, TILEOPS_ERROR_INVALID_VALUE,
     "tileops_vector_add: n = 4611686018427387903 f32 elements overflow the address space"},
    {TILEOPS_F16, (int64_t)1 << 62, UINTPTR_MAX - 64, P2, P3, 0, TILEOPS_ERROR_INVALID_VALUE,
     "tileops_vector_add: n = 4611686018427387904 f16 elements overflow the address space"},
    {TILEOPS_F32, 1000, P1, P2, P1 + 4, 0, TILEOPS_ERROR_INVALID_VALUE,
     "tileops_vector_add: c overlaps a without being equal to it"},
    {TILEOPS_F32, 1000, P1, P2, P2 - 3996, 0, TILEOPS_ERROR_INVALID_VALUE,
     "tileops_vector_add: c overlaps b without being equal to it"},
};

/* Each bad call returns its status and message. The fake handle has no device, so a call
 * that got past validation would fail to launch instead: these tests see that too. */
START_TEST(validation)
{
    const struct bad_call *c = &bad_calls[_i];
    tileops_handle h = c->null_handle ? NULL : fake_handle(90);
    tileops_status st = tileops_vector_add(h, c->dt, c->n, (const void *)c->a,
                                           (const void *)c->b, (void *)c->c, NULL);
    ck_assert_int_eq(st, c->want);
    ck_assert_str_eq(tileops_last_error(), c->message);
    if (h)
        ck_assert_str_eq(tileops_last_kernel(h), ""); /* nothing was chosen */
    tileops_destroy(h);
}
END_TEST

START_TEST(in_place_is_valid)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 1000, (void *)(uintptr_t)P1,
                                        (void *)(uintptr_t)P2, (void *)(uintptr_t)P1, NULL),
                     TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 1000, (void *)(uintptr_t)P1,
                                        (void *)(uintptr_t)P1, (void *)(uintptr_t)P1, NULL),
                     TILEOPS_SUCCESS);
    tileops_destroy(h);
}
END_TEST

START_TEST(handle_arguments)
{
    ck_assert_int_eq(tileops_create(NULL, 0), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_create: handle is NULL");
    ck_assert_int_eq(tileops_set_tier(NULL, TILEOPS_TIER_AUTO), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_int_eq(tileops_set_dry_run(NULL, 1), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_kernel(NULL), "");
    ck_assert_int_eq(tileops_destroy(NULL), TILEOPS_SUCCESS);
    ck_assert_str_eq(tileops_status_string(TILEOPS_SUCCESS), "success");
    ck_assert_str_eq(tileops_status_string(TILEOPS_ERROR_NOT_SUPPORTED), "not supported");
    ck_assert_str_eq(tileops_status_string((tileops_status)99), "unknown status");
    /* no device, or a device index that does not exist */
    tileops_handle h = NULL;
    tileops_status st = tileops_create(&h, 1000);
    ck_assert_int_eq(st, TILEOPS_ERROR_NO_DEVICE);
    ck_assert_ptr_null(h);
    st = tileops_create(&h, -1);
    ck_assert_int_eq(st, TILEOPS_ERROR_NO_DEVICE);
}
END_TEST

START_TEST(pre_volta_device)
{
    struct tileops_device dev = {0, 61, 28, 48 * 1024, "fake", 1};
    tileops_handle h = NULL;
    ck_assert_int_eq(tileops__create_from(&h, &dev, tileops_built_tiers, tileops_built_tier_count, 1),
                     TILEOPS_ERROR_NOT_SUPPORTED);
    ck_assert_ptr_null(h);
}
END_TEST

/* The range helpers every entry point uses: no sum wraps, whatever the arguments. */
START_TEST(range_arithmetic)
{
    const uintptr_t top = UINTPTR_MAX;
    ck_assert(!tileops__range_wraps((void *)(top - 15), 15)); /* ends at the last byte */
    ck_assert(tileops__range_wraps((void *)(top - 15), 16));  /* ends at 2^64 */
    ck_assert(tileops__range_wraps((void *)16, UINT64_MAX));
    ck_assert(!tileops__range_wraps(NULL, (uint64_t)INT64_MAX));
    /* ranges near the top, near 0, across 2^63 */
    ck_assert(tileops__overlap((void *)(top - 31), 16, (void *)(top - 23), 8));
    ck_assert(!tileops__overlap((void *)(top - 31), 8, (void *)(top - 23), 8));
    ck_assert(tileops__overlap((void *)(((uintptr_t)1 << 63) - 8), 16,
                               (void *)((uintptr_t)1 << 63), 1));
    ck_assert(!tileops__overlap((void *)16, 16, (void *)(top - 7), 8));
    ck_assert(!tileops__overlap((void *)(top - 7), 8, (void *)16, 16));
    /* a range that would wrap past 0 does not meet low addresses */
    ck_assert(!tileops__overlap((void *)(top - 7), UINT64_MAX, (void *)16, 16));
    /* empty ranges meet nothing */
    ck_assert(!tileops__overlap((void *)64, 0, (void *)0, 128));
    ck_assert(!tileops__overlap((void *)0, 128, (void *)64, 0));
    /* matrix_bytes: 0 for anything that overflows int64 */
    ck_assert_uint_eq(tileops__matrix_bytes(2, 4, 12, 4), 64);
    ck_assert_uint_eq(tileops__matrix_bytes(1, 1, INT64_MAX, 8), 8);
    ck_assert_uint_eq(tileops__matrix_bytes(2, 1, INT64_MAX, 1), 0);
    ck_assert_uint_eq(tileops__matrix_bytes(INT64_MAX, 1, 1, 2), 0);
    ck_assert_uint_eq(tileops__matrix_bytes(1, INT64_MAX / 4 + 1, INT64_MAX / 4 + 1, 4), 0);
}
END_TEST

/* A vector at the top of the address space: its end (one past its last byte) must be an
 * address, so the last byte it may hold is the one below UINTPTR_MAX. */
START_TEST(vector_add_at_the_top)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    const uintptr_t top = UINTPTR_MAX - 4111; /* 4096 bytes end 16 below 2^64 */
    ck_assert_msg(tileops_vector_add(h, TILEOPS_F32, 1024, (void *)top, (void *)(uintptr_t)P1,
                                     (void *)(uintptr_t)P2, NULL) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 1024, (void *)(uintptr_t)P1,
                                        (void *)(uintptr_t)P2, (void *)(top + 16), NULL),
                     TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_str_eq(tileops_last_error(), "tileops_vector_add: n = 1024 f32 elements overflow "
                                           "the address space");
    tileops_destroy(h);
}
END_TEST

/* tileops_get_tier(NULL) is TILEOPS_TIER_AUTO, as the header says, and records no error;
 * the version macros and tileops_version() agree. */
START_TEST(get_tier_null_and_version)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 0, (void *)16, (void *)32, (void *)64,
                                        NULL), TILEOPS_ERROR_INVALID_VALUE);
    ck_assert_int_eq(tileops_get_tier(NULL), TILEOPS_TIER_AUTO);
    ck_assert_str_eq(tileops_last_error(), "tileops_vector_add: n is 0 (must be >= 1)");
    ck_assert_int_ne(tileops_get_tier(h), TILEOPS_TIER_AUTO);
    tileops_destroy(h);
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", TILEOPS_VERSION_MAJOR, TILEOPS_VERSION_MINOR,
             TILEOPS_VERSION_PATCH);
    ck_assert_str_eq(tileops_version(), want);
}
END_TEST

/* Thread body: a bad call on its own handle, then read back this thread's message. */
static void *bad_call_thread(void *arg)
{
    char *msg = arg;
    tileops_handle h = fake_handle(90);
    tileops_vector_add(h, TILEOPS_F32, -7, (void *)16, (void *)32, (void *)64, NULL);
    snprintf(msg, 128, "%s", tileops_last_error());
    tileops_destroy(h);
    return NULL;
}

/* The detail message is per thread: another thread's failure does not overwrite it. */
START_TEST(error_message_per_thread)
{
    char theirs[128];
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F16, 0, (void *)16, (void *)32, (void *)64,
                                        NULL), TILEOPS_ERROR_INVALID_VALUE);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, bad_call_thread, theirs), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_str_eq(theirs, "tileops_vector_add: n is -7 (must be >= 1)");
    ck_assert_str_eq(tileops_last_error(), "tileops_vector_add: n is 0 (must be >= 1)");
    tileops_destroy(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("runtime");
    TCase *tier = tcase_create("tier");
    tcase_add_loop_test(tier, tier_for_compute_capability, 0,
                        (int)(sizeof tier_cases / sizeof tier_cases[0]));
    tcase_add_test(tier, tier_messages);
    tcase_add_test(tier, forced_tiers);
    tcase_add_test(tier, env_tier);
    tcase_add_test(tier, pre_volta_device);
    suite_add_tcase(s, tier);
    TCase *api = tcase_create("api");
    tcase_add_test(api, dispatch_by_alignment);
    tcase_add_test(api, pinned_kernel);
    tcase_add_loop_test(api, validation, 0, (int)(sizeof bad_calls / sizeof bad_calls[0]));
    tcase_add_test(api, in_place_is_valid);
    tcase_add_test(api, handle_arguments);
    tcase_add_test(api, error_message_per_thread);
    tcase_add_test(api, range_arithmetic);
    tcase_add_test(api, vector_add_at_the_top);
    tcase_add_test(api, get_tier_null_and_version);
    suite_add_tcase(s, api);
    return run_suite(s, CK_NORMAL);
}
