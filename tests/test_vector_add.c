/* test_vector_add.c: tileops_vector_add on the GPU against an fp64 CPU reference, for every
 * dtype on every tier this build holds (forced), ragged and tiny sizes, misaligned pointers,
 * in place, and n beyond 2^31. Outputs and guard zones are poisoned with NaN bytes first.
 * Without a CUDA device it prints "skipped: no CUDA device". */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"
#include "util_host.h"

#define GUARD 64 /* poisoned elements before and after the output, checked after the call */

static const tileops_dtype dtypes[] = {TILEOPS_F32, TILEOPS_F16, TILEOPS_BF16};

/* Host inputs a and b of n elements, random (fill_random). */
struct inputs {
    tileops_dtype dt;
    size_t n, esz;
    void *a, *b;
    uint64_t seed;
};

static void make_inputs(struct inputs *in, tileops_dtype dt, size_t n)
{
    struct rng r = {rng_seed_from_clock() | 1};
    in->dt = dt;
    in->n = n;
    in->esz = (size_t)tileops__dtype_bytes(dt);
    in->seed = r.s;
    in->a = malloc(n * in->esz);
    in->b = malloc(n * in->esz);
    ck_assert(in->a && in->b);
    fill_random(in->a, dt, n, &r);
    fill_random(in->b, dt, n, &r);
}

static void free_inputs(struct inputs *in)
{
    free(in->a);
    free(in->b);
}

/* Asserts got[i] = a[i] + b[i] for every i, against the fp64 sum, within one rounding. */
static void check_sum(const struct inputs *in, const void *got, const char *kernel)
{
    const double rel = dtype_rel_bound(in->dt), abs_ = dtype_abs_bound(in->dt);
    for (size_t i = 0; i < in->n; i++) {
        double ref = get_elem(in->a, in->dt, i) + get_elem(in->b, in->dt, i);
        double v = get_elem(got, in->dt, i);
        double err = v > ref ? v - ref : ref - v;
        if (!(err <= rel * (ref < 0 ? -ref : ref) + abs_))
            ck_abort_msg("%s n=%zu: c[%zu] = %.9g, reference %.9g (seed %" PRIu64 ", kernel %s)",
                         tileops__dtype_name(in->dt), in->n, i, v, ref, in->seed, kernel);
    }
}

/* Runs one call on the handle's tier and checks every element and the guards. Each input
 * and the output sit `off_*` elements into their allocation, and the output has GUARD
 * poisoned elements on each side. Returns the kernel name chosen. */
static const char *run_and_check(tileops_handle h, const struct inputs *in, size_t off_a,
                                 size_t off_b, size_t off_c, int in_place)
{
    const size_t n = in->n, esz = in->esz, total = n + 2 * GUARD + 16;
    char *da, *db, *dc;
    CUDA_OK(cudaMalloc((void **)&da, total * esz));
    CUDA_OK(cudaMalloc((void **)&db, total * esz));
    CUDA_OK(cudaMalloc((void **)&dc, total * esz));
    void *a = da + off_a * esz, *b = db + off_b * esz;
    void *c = in_place ? a : dc + (GUARD + off_c) * esz;
    CUDA_OK(cudaMemcpy(a, in->a, n * esz, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b, in->b, n * esz, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dc, 0xff, total * esz)); /* NaN in every dtype */
    CUDA_OK(cudaDeviceSynchronize()); /* the call's stream does not wait for the legacy one */

    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    tileops_status st = tileops_vector_add(h, in->dt, (int64_t)n, a, b, c, stream);
    ck_assert_msg(st == TILEOPS_SUCCESS, "status %d: %s", st, tileops_last_error());
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaStreamDestroy(stream));

    /* the output with its guards (or, in place, a itself) */
    char *out = malloc(total * esz);
    ck_assert_ptr_nonnull(out);
    const char *got;
    if (in_place) {
        CUDA_OK(cudaMemcpy(out, a, n * esz, cudaMemcpyDeviceToHost));
        got = out;
    } else {
        CUDA_OK(cudaMemcpy(out, dc, total * esz, cudaMemcpyDeviceToHost));
        got = out + (GUARD + off_c) * esz;
        for (size_t i = 0; i < (GUARD + off_c) * esz; i++)
            ck_assert_msg((unsigned char)out[i] == 0xff, "byte %zu before c was written", i);
        for (size_t i = (GUARD + off_c + n) * esz; i < total * esz; i++)
            ck_assert_msg((unsigned char)out[i] == 0xff, "byte %zu past c was written", i);
    }
    check_sum(in, got, tileops_last_kernel(h));
    free(out);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dc));
    return tileops_last_kernel(h);
}

static int vectorized(const char *kernel)
{
    return strstr(kernel, "_v1_") == NULL;
}

/* Every size for one dtype, on every tier of the build. _i = dtype index. */
START_TEST(sizes_every_tier)
{
    static const size_t sizes[] = {1, 7, 1000003, (size_t)1 << 22, ((size_t)1 << 28) + 3};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        struct inputs in;
        make_inputs(&in, dtypes[_i], sizes[s]);
        for (int ti = 0; ti < tileops_built_tier_count; ti++) {
            tileops_handle h = handle_on_tier(ti);
            const char *k = run_and_check(h, &in, 0, 0, 0, 0);
            ck_assert_msg(vectorized(k), "aligned buffers ran %s", k);
            tileops_destroy(h);
        }
        free_inputs(&in);
    }
}
END_TEST

/* Misaligned and unequally aligned pointers, and in place; every tier. */
START_TEST(alignment_and_in_place)
{
    struct inputs in;
    make_inputs(&in, dtypes[_i], 1000003);
    static const size_t offs[][3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}, {1, 1, 1}, {3, 5, 7}};
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        tileops_handle h = handle_on_tier(ti);
        for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
            const char *kn = run_and_check(h, &in, offs[k][0], offs[k][1], offs[k][2], 0);
            ck_assert_msg(!vectorized(kn), "misaligned buffers ran %s", kn);
        }
        ck_assert(vectorized(run_and_check(h, &in, 0, 0, 0, 1)));
        ck_assert(!vectorized(run_and_check(h, &in, 1, 1, 0, 1)));
        tileops_destroy(h);
    }
    free_inputs(&in);
}
END_TEST

/* n = 2^31 + 5 f16 elements (4 GiB a buffer): 64-bit indexing, on the device's own tier. */
START_TEST(beyond_2_pow_31)
{
    struct inputs in;
    make_inputs(&in, TILEOPS_F16, ((size_t)1 << 31) + 5);
    tileops_handle h;
    ck_assert_msg(tileops_create(&h, 0) == TILEOPS_SUCCESS, "%s", tileops_last_error());
    run_and_check(h, &in, 0, 0, 0, 0);
    tileops_destroy(h);
    free_inputs(&in);
}
END_TEST

/* A launch on a stream of another device's context is not tested here (one GPU); the wrong
 * current device is: the call must refuse rather than launch elsewhere. */
START_TEST(handle_device_checked)
{
    int count = 0;
    CUDA_OK(cudaGetDeviceCount(&count));
    tileops_handle h;
    ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);
    if (count > 1) {
        CUDA_OK(cudaSetDevice(1));
        ck_assert_int_eq(tileops_vector_add(h, TILEOPS_F32, 4, (void *)16, (void *)32,
                                            (void *)64, NULL), TILEOPS_ERROR_INVALID_VALUE);
    }
    /* creating the handle did not change the current device */
    int cur = -1;
    CUDA_OK(cudaGetDevice(&cur));
    ck_assert_int_eq(cur, count > 1 ? 1 : 0);
    tileops_destroy(h);
}
END_TEST

/* The call captured in a CUDA graph (global mode: any hidden synchronization or allocation
 * would break the capture), replayed, and checked; the graph holds the one kernel. */
START_TEST(graph_capture)
{
    struct inputs in;
    make_inputs(&in, dtypes[_i], ((size_t)1 << 20) + 3);
    const size_t bytes = in.n * in.esz;
    void *a, *b, *c;
    CUDA_OK(cudaMalloc(&a, bytes));
    CUDA_OK(cudaMalloc(&b, bytes));
    CUDA_OK(cudaMalloc(&c, bytes));
    CUDA_OK(cudaMemcpy(a, in.a, bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b, in.b, bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(c, 0xff, bytes));
    CUDA_OK(cudaDeviceSynchronize()); /* the call's stream does not wait for the legacy one */
    tileops_handle h;
    ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);

    cudaStream_t stream;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    size_t nodes = 0;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    tileops_status st = tileops_vector_add(h, in.dt, (int64_t)in.n, a, b, c, stream);
    CUDA_OK(cudaStreamEndCapture(stream, &graph));
    ck_assert_msg(st == TILEOPS_SUCCESS, "%s", tileops_last_error());
    CUDA_OK(cudaGraphGetNodes(graph, NULL, &nodes));
    ck_assert_int_eq((int)nodes, 1);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaStreamSynchronize(stream));

    void *got = malloc(bytes);
    ck_assert_ptr_nonnull(got);
    CUDA_OK(cudaMemcpy(got, c, bytes, cudaMemcpyDeviceToHost));
    check_sum(&in, got, tileops_last_kernel(h));
    free(got);
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    CUDA_OK(cudaStreamDestroy(stream));
    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
    CUDA_OK(cudaFree(c));
    tileops_destroy(h);
    free_inputs(&in);
}
END_TEST

int main(void)
{
    if (!have_cuda_device()) {
        printf("test_vector_add: skipped: no CUDA device\n");
        return EXIT_SUCCESS;
    }
    Suite *s = suite_create("vector_add");
    TCase *tc = tcase_create("gpu");
    tcase_set_timeout(tc, 900);
    tcase_add_loop_test(tc, sizes_every_tier, 0, 3);
    tcase_add_loop_test(tc, alignment_and_in_place, 0, 3);
    tcase_add_test(tc, beyond_2_pow_31);
    tcase_add_test(tc, handle_device_checked);
    suite_add_tcase(s, tc);
    TCase *graph = tcase_create("graph");
    tcase_set_timeout(graph, 120);
    tcase_add_loop_test(graph, graph_capture, 0, 3);
    suite_add_tcase(s, graph);
    return run_suite(s, CK_VERBOSE);
}
