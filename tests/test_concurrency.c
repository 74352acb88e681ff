/* test_concurrency.c: every operator the way an engine drives it: captured in a CUDA graph and
 * replayed; several threads at once, each with its own handle, stream and buffers (on every
 * visible GPU in turn, so two GPUs take threads of their own); one thread issuing on several
 * streams without waiting in between; and the several-devices cases (tcase "devices"): one
 * thread a GPU at once (two handles on one GPU when there is one), a call through a handle
 * whose device is not current, handles created and destroyed from threads at once. Every
 * result is compared with an fp64 CPU reference;
 * outputs are poisoned (0xff: NaN) before every launch or replay.
 * Without a CUDA device it prints "skipped: no CUDA device". */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"
#include "util_host.h"
#include "util_ref.h"

#define THREADS 4
#define STREAMS 4
#define REPS 3

/* ---- the operators' problems (host side, shared read-only by every thread) --------------- */

enum op { OP_VECTOR_ADD, OP_SOFTMAX_SHORT, OP_SOFTMAX_SPLIT, OP_GEMM, OP_GEMM_SMALL_M,
          OP_ATTENTION, NOPS };
static const char *const op_names[NOPS] = {"vector_add", "softmax 256x1000", "softmax 6x300001",
                                           "gemm 200x136x96", "gemm 8x512x1024",
                                           "attention b2 s200 d64 causal"};

/* Host operands of one problem: up to three inputs, the output's size, and the reference. */
struct problem {
    enum op op;
    tileops_dtype dt;
    size_t esz;
    void *in[3];
    size_t in_bytes[3];
    int nin;
    size_t out_bytes;
    int64_t rows, cols; /* softmax; gemm m x n; attention rows of o (b * s * h) x head_dim */
    int64_t m, n, k;
    double *ref;        /* gemm, attention: fp64 expected output; gemm: scale beside it */
    double *scale;
};

static struct problem problems[NOPS];
static uint64_t seed;

/* bf16 bits of f, rounded to nearest even. */
static uint16_t to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* n bf16 values uniform in [-1, 1). */
static void *uniform_bf16(size_t n, struct rng *r)
{
    uint16_t *p = malloc(n * 2);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++)
        p[i] = to_bf16((float)((double)(rng_next(r) >> 11) * 0x1p-52 - 1.0));
    return p;
}

static void add_input(struct problem *p, void *buf, size_t bytes)
{
    p->in[p->nin] = buf;
    p->in_bytes[p->nin++] = bytes;
}

/* D = A·Bᵀ + bias (B as [n, k]), fp64, and the sum of |terms| for the tolerance. */
static void gemm_reference(struct problem *p)
{
    p->ref = malloc((size_t)(p->m * p->n) * sizeof(double));
    p->scale = malloc((size_t)(p->m * p->n) * sizeof(double));
    ck_assert(p->ref && p->scale);
    const struct ref_gemm g = {.dt = p->dt, .layout = TILEOPS_B_NK, .k = p->k, .lda = p->k,
                               .ldb = p->k, .a = p->in[0], .b = p->in[1], .bias = p->in[2],
                               .alpha = 1.0f, .epilogue = TILEOPS_EPILOGUE_BIAS};
    for (int64_t i = 0; i < p->m; i++)
        for (int64_t j = 0; j < p->n; j++)
            p->ref[i * p->n + j] = ref_gemm_elem(&g, i, j, &p->scale[i * p->n + j]);
}

/* Attention: batch 2, 200 queries and keys, 4 query heads on 2 kv heads, d64, causal. */
enum { AB = 2, AS = 200, AHQ = 4, AHK = 2, AD = 64 };

static void attention_reference(struct problem *p)
{
    const size_t rows = (size_t)AB * AS * AHQ;
    p->ref = malloc(rows * AD * sizeof(double));
    double *w = malloc(AS * sizeof(double));
    ck_assert(p->ref && w);
    for (int b = 0; b < AB; b++)
        for (int h = 0; h < AHQ; h++) {
            const int hk = h / (AHQ / AHK);
            const size_t q0 = ((size_t)b * AS * AHQ + h) * AD, k0 = ((size_t)b * AS * AHK + hk) * AD;
            const struct ref_attention a = {
                .dt = p->dt, .d = AD, .causal = 1, .lq = AS, .lk = AS,
                .scale = 1.0 / sqrt((double)AD), .q = (const char *)p->in[0] + q0 * p->esz,
                .k = (const char *)p->in[1] + k0 * p->esz,
                .v = (const char *)p->in[2] + k0 * p->esz, .q_seq = AHQ * AD,
                .k_seq = AHK * AD, .v_seq = AHK * AD};
            for (int i = 0; i < AS; i++) {
                double lse;
                ref_attention_row(&a, i, p->ref + (((size_t)b * AS + i) * AHQ + h) * AD, &lse,
                                  w);
            }
        }
    free(w);
}

static void make_problems(void)
{
    struct rng r = {rng_seed_from_clock() | 1};
    seed = r.s;
    for (int o = 0; o < NOPS; o++) {
        struct problem *p = &problems[o];
        memset(p, 0, sizeof *p);
        p->op = (enum op)o;
        switch (p->op) {
        case OP_VECTOR_ADD:
            p->dt = TILEOPS_F32, p->esz = 4, p->n = (1 << 20) + 3;
            for (int i = 0; i < 2; i++) {
                void *x = malloc((size_t)p->n * 4);
                ck_assert_ptr_nonnull(x);
                fill_random(x, p->dt, (size_t)p->n, &r);
                add_input(p, x, (size_t)p->n * 4);
            }
            p->out_bytes = (size_t)p->n * 4;
            break;
        case OP_SOFTMAX_SHORT:
        case OP_SOFTMAX_SPLIT: {
            /* 300001 f16 elements: a split row (workspace; cooperative or tickets) */
            p->dt = TILEOPS_F16, p->esz = 2;
            p->rows = p->op == OP_SOFTMAX_SHORT ? 256 : 6;
            p->cols = p->op == OP_SOFTMAX_SHORT ? 1000 : 300001;
            const size_t n = (size_t)(p->rows * p->cols);
            void *x = malloc(n * 2);
            ck_assert_ptr_nonnull(x);
            fill_random(x, p->dt, n, &r);
            add_input(p, x, n * 2);
            p->out_bytes = n * 2;
            break;
        }
        case OP_GEMM:
        case OP_GEMM_SMALL_M:
            /* M = 8: the split-K kernels, partials in the workspace */
            p->dt = TILEOPS_BF16, p->esz = 2;
            p->m = p->op == OP_GEMM ? 200 : 8;
            p->n = p->op == OP_GEMM ? 136 : 512;
            p->k = p->op == OP_GEMM ? 96 : 1024;
            add_input(p, uniform_bf16((size_t)(p->m * p->k), &r), (size_t)(p->m * p->k) * 2);
            add_input(p, uniform_bf16((size_t)(p->n * p->k), &r), (size_t)(p->n * p->k) * 2);
            add_input(p, uniform_bf16((size_t)p->n, &r), (size_t)p->n * 2);
            p->out_bytes = (size_t)(p->m * p->n) * 2;
            gemm_reference(p);
            break;
        case OP_ATTENTION: {
            p->dt = TILEOPS_BF16, p->esz = 2;
            const size_t nq = (size_t)AB * AS * AHQ * AD, nk = (size_t)AB * AS * AHK * AD;
            add_input(p, uniform_bf16(nq, &r), nq * 2);
            add_input(p, uniform_bf16(nk, &r), nk * 2);
            add_input(p, uniform_bf16(nk, &r), nk * 2);
            p->out_bytes = nq * 2;
            attention_reference(p);
            break;
        }
        default:
            break;
        }
    }
}

static void free_problems(void)
{
    for (int o = 0; o < NOPS; o++) {
        for (int i = 0; i < problems[o].nin; i++)
            free(problems[o].in[i]);
        free(problems[o].ref);
        free(problems[o].scale);
    }
}

/* ---- one problem's device buffers, its call and its check -------------------------------- */

struct dev_problem {
    const struct problem *p;
    void *in[3], *out, *ws;
    size_t ws_bytes;
};

/* The GEMM call's parameters: D = A·Bᵀ + bias. */
static tileops_gemm_params gemm_params(const struct dev_problem *d)
{
    const struct problem *p = d->p;
    tileops_gemm_params g;
    memset(&g, 0, sizeof g);
    g.size = sizeof g;
    g.dtype = p->dt, g.b_layout = TILEOPS_B_NK, g.m = p->m, g.n = p->n, g.k = p->k;
    g.a = d->in[0], g.lda = p->k, g.b = d->in[1], g.ldb = p->k, g.d = d->out, g.ldd = p->n;
    g.bias = d->in[2], g.alpha = 1.0f, g.beta = 0.0f, g.epilogue = TILEOPS_EPILOGUE_BIAS;
    return g;
}

/* The call, on the current device's handle h and stream s. */
static tileops_status launch(tileops_handle h, struct dev_problem *d, cudaStream_t s)
{
    const struct problem *p = d->p;
    switch (p->op) {
    case OP_VECTOR_ADD:
        return tileops_vector_add(h, p->dt, p->n, d->in[0], d->in[1], d->out, s);
    case OP_SOFTMAX_SHORT:
    case OP_SOFTMAX_SPLIT:
        return tileops_softmax(h, p->dt, TILEOPS_SOFTMAX_PLAIN, p->rows, p->cols, d->in[0],
                               p->cols, d->out, p->cols, d->ws, d->ws_bytes, s);
    case OP_GEMM:
    case OP_GEMM_SMALL_M: {
        const tileops_gemm_params g = gemm_params(d);
        return tileops_gemm(h, &g, d->ws, d->ws_bytes, s);
    }
    case OP_ATTENTION: {
        tileops_attention_params a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.dtype = p->dt, a.batch = AB, a.seqlen_q = AS, a.seqlen_kv = AS;
        a.heads_q = AHQ, a.heads_kv = AHK, a.head_dim = AD, a.causal = 1;
        a.q = d->in[0], a.q_batch = AS * AHQ * AD, a.q_seq = AHQ * AD, a.q_head = AD;
        a.k = d->in[1], a.k_batch = AS * AHK * AD, a.k_seq = AHK * AD, a.k_head = AD;
        a.v = d->in[2], a.v_batch = AS * AHK * AD, a.v_seq = AHK * AD, a.v_head = AD;
        a.o = d->out, a.o_batch = AS * AHQ * AD, a.o_seq = AHQ * AD, a.o_head = AD;
        return tileops_flash_attention(h, &a, s);
    }
    default:
        return TILEOPS_ERROR_INVALID_VALUE;
    }
}

/* The workspace the call needs, asked of h, into *ws. */
static tileops_status workspace_of(tileops_handle h, const struct dev_problem *d, size_t *ws)
{
    const struct problem *p = d->p;
    *ws = 0;
    if (p->op == OP_SOFTMAX_SHORT || p->op == OP_SOFTMAX_SPLIT)
        return tileops_softmax_workspace_size(h, p->dt, TILEOPS_SOFTMAX_PLAIN, p->rows, p->cols,
                                              d->in[0], p->cols, d->out, p->cols, ws);
    if (p->op == OP_GEMM || p->op == OP_GEMM_SMALL_M) {
        const tileops_gemm_params g = gemm_params(d);
        return tileops_gemm_workspace_size(h, &g, ws);
    }
    return TILEOPS_SUCCESS;
}

/* Device copies of problem o's inputs, a poisoned output and its workspace, for handle h. */
static void dev_alloc(tileops_handle h, struct dev_problem *d, int o)
{
    memset(d, 0, sizeof *d);
    d->p = &problems[o];
    for (int i = 0; i < d->p->nin; i++) {
        CUDA_OK(cudaMalloc(&d->in[i], d->p->in_bytes[i]));
        upload(d->in[i], d->p->in[i], d->p->in_bytes[i]);
    }
    CUDA_OK(cudaMalloc(&d->out, d->p->out_bytes));
    ck_assert_msg(workspace_of(h, d, &d->ws_bytes) == TILEOPS_SUCCESS, "%s: %s", op_names[o],
                  tileops_last_error());
    if (d->ws_bytes)
        CUDA_OK(cudaMalloc(&d->ws, d->ws_bytes));
    ck_assert_msg(o != OP_SOFTMAX_SPLIT || d->ws_bytes > 0, "a split row takes a workspace");
}

static void dev_free(struct dev_problem *d)
{
    for (int i = 0; i < d->p->nin; i++)
        CUDA_OK(cudaFree(d->in[i]));
    CUDA_OK(cudaFree(d->out));
    CUDA_OK(cudaFree(d->ws));
}

/* Poisons the output (and the workspace: the call must reset what it relies on) on s. */
static void poison(struct dev_problem *d, cudaStream_t s)
{
    CUDA_OK(cudaMemsetAsync(d->out, 0xff, d->p->out_bytes, s));
    if (d->ws)
        CUDA_OK(cudaMemsetAsync(d->ws, 0xff, d->ws_bytes, s));
}

/* Compares the output with the reference; returns 0, or -1 with what was wrong in msg. Runs
 * in any thread (no Check assertion). */
static int check(const struct dev_problem *d, char *msg, size_t len)
{
    const struct problem *p = d->p;
    void *got = malloc(p->out_bytes);
    int rc = 0;
    if (!got || cudaMemcpy(got, d->out, p->out_bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
        snprintf(msg, len, "%s: cannot read the output back", op_names[p->op]);
        free(got);
        return -1;
    }
    if (p->op == OP_VECTOR_ADD) {
        for (size_t i = 0; i < (size_t)p->n && rc == 0; i++) {
            const double ref = get_elem(p->in[0], p->dt, i) + get_elem(p->in[1], p->dt, i);
            const double v = get_elem(got, p->dt, i);
            if (!(fabs(v - ref) <= dtype_rel_bound(p->dt) * fabs(ref) + dtype_abs_bound(p->dt))) {
                snprintf(msg, len, "vector_add: c[%zu] = %.9g, reference %.9g", i, v, ref);
                rc = -1;
            }
        }
    } else if (p->op == OP_SOFTMAX_SHORT || p->op == OP_SOFTMAX_SPLIT) {
        for (int64_t r = 0; r < p->rows && rc == 0; r++) {
            char m[200];
            const size_t off = (size_t)(r * p->cols) * p->esz;
            if (ref_softmax_row(p->dt, TILEOPS_SOFTMAX_PLAIN, (const char *)p->in[0] + off,
                                (const char *)got + off, p->cols, m, sizeof m) != 0) {
                snprintf(msg, len, "%s: row %" PRId64 ": %s", op_names[p->op], r, m);
                rc = -1;
            }
        }
    } else {
        const size_t n = p->out_bytes / p->esz;
        for (size_t i = 0; i < n && rc == 0; i++) {
            const double ref = p->ref[i], v = get_elem(got, p->dt, i);
            /* gemm: two roundings plus the fp32 accumulation's error; attention: P and O
             * each rounded to bf16 */
            const double tol = p->scale ? ref_gemm_tolerance(p->dt, ref, p->scale[i])
                                        : ref_attention_tolerance(p->dt, ref);
            if (!(fabs(v - ref) <= tol)) {
                snprintf(msg, len, "%s: element %zu = %.9g, reference %.9g", op_names[p->op], i,
                         v, ref);
                rc = -1;
            }
        }
    }
    free(got);
    return rc;
}

#define CHECK(d)                                                                           \
    do {                                                                                   \
        char m_[300];                                                                      \
        ck_assert_msg(check((d), m_, sizeof m_) == 0, "%s (seed %" PRIu64 ")", m_, seed);   \
    } while (0)

/* ---- the cases --------------------------------------------------------------------------- */

/* Each operator captured in a graph, the graph replayed twice over poisoned outputs. */
START_TEST(graphs)
{
    make_problems();
    tileops_handle h;
    ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int o = 0; o < NOPS; o++) {
        struct dev_problem d;
        dev_alloc(h, &d, o);
        cudaGraph_t g;
        cudaGraphExec_t x;
        CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        const tileops_status st = launch(h, &d, s);
        CUDA_OK(cudaStreamEndCapture(s, &g));
        ck_assert_msg(st == TILEOPS_SUCCESS, "%s: %s", op_names[o], tileops_last_error());
        CUDA_OK(cudaGraphInstantiate(&x, g, 0));
        for (int rep = 0; rep < 2; rep++) {
            poison(&d, s);
            CUDA_OK(cudaGraphLaunch(x, s));
            CUDA_OK(cudaStreamSynchronize(s));
            CHECK(&d);
        }
        CUDA_OK(cudaGraphExecDestroy(x));
        CUDA_OK(cudaGraphDestroy(g));
        dev_free(&d);
    }
    CUDA_OK(cudaStreamDestroy(s));
    tileops_destroy(h);
    free_problems();
}
END_TEST

/* One thread's work: its own handle, stream and buffers on device `dev`, every operator REPS
 * times, each result checked. */
struct worker {
    int dev;
    int failed;
    char msg[300];
};

static void *work(void *arg)
{
    struct worker *w = arg;
    tileops_handle h = NULL;
    cudaStream_t s = NULL;
    struct dev_problem d[NOPS];
    int nd = 0;
    if (cudaSetDevice(w->dev) != cudaSuccess || tileops_create(&h, w->dev) != TILEOPS_SUCCESS ||
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
        snprintf(w->msg, sizeof w->msg, "device %d: setup failed: %s", w->dev,
                 tileops_last_error());
        w->failed = 1;
        goto out;
    }
    for (; nd < NOPS; nd++) { /* (dev_alloc asserts: Check runs it in the main thread only) */
        struct dev_problem *p = &d[nd];
        memset(p, 0, sizeof *p);
        p->p = &problems[nd];
        for (int i = 0; i < p->p->nin; i++)
            if (cudaMalloc(&p->in[i], p->p->in_bytes[i]) != cudaSuccess ||
                cudaMemcpy(p->in[i], p->p->in[i], p->p->in_bytes[i], cudaMemcpyHostToDevice) !=
                    cudaSuccess)
                w->failed = 1;
        if (cudaMalloc(&p->out, p->p->out_bytes) != cudaSuccess)
            w->failed = 1;
        if (w->failed) {
            snprintf(w->msg, sizeof w->msg, "device %d: allocation failed", w->dev);
            nd++;
            goto out;
        }
    }
    for (int rep = 0; rep < REPS && !w->failed; rep++)
        for (int o = 0; o < NOPS && !w->failed; o++) {
            struct dev_problem *p = &d[o];
            if (rep == 0) {
                size_t ws = 0;
                if (workspace_of(h, p, &ws) != TILEOPS_SUCCESS ||
                    (ws && cudaMalloc(&p->ws, ws) != cudaSuccess)) {
                    snprintf(w->msg, sizeof w->msg, "%s: workspace: %s", op_names[o],
                             tileops_last_error());
                    w->failed = 1;
                    break;
                }
                p->ws_bytes = ws;
            }
            if (cudaMemsetAsync(p->out, 0xff, p->p->out_bytes, s) != cudaSuccess ||
                (p->ws && cudaMemsetAsync(p->ws, 0xff, p->ws_bytes, s) != cudaSuccess)) {
                snprintf(w->msg, sizeof w->msg, "%s: memset failed", op_names[o]);
                w->failed = 1;
            } else if (launch(h, p, s) != TILEOPS_SUCCESS) {
                snprintf(w->msg, sizeof w->msg, "%s on device %d: %s", op_names[o], w->dev,
                         tileops_last_error());
                w->failed = 1;
            } else if (cudaStreamSynchronize(s) != cudaSuccess) {
                snprintf(w->msg, sizeof w->msg, "%s on device %d: %s", op_names[o], w->dev,
                         cudaGetErrorString(cudaGetLastError()));
                w->failed = 1;
            } else if (check(p, w->msg, sizeof w->msg) != 0) {
                w->failed = 1;
            }
        }
out:
    for (int o = 0; o < nd; o++) {
        for (int i = 0; i < d[o].p->nin; i++)
            cudaFree(d[o].in[i]);
        cudaFree(d[o].out);
        cudaFree(d[o].ws);
    }
    if (s)
        cudaStreamDestroy(s);
    tileops_destroy(h);
    return NULL;
}

/* n threads at once (at most 16), thread i on device i % (visible GPUs), each with its own
 * handle (created and destroyed in the thread), stream and buffers; every result checked. */
static void run_workers(int n)
{
    make_problems();
    int ndev = 0;
    CUDA_OK(cudaGetDeviceCount(&ndev));
    pthread_t t[16];
    struct worker w[16];
    ck_assert(n <= 16);
    for (int i = 0; i < n; i++) {
        w[i] = (struct worker){i % ndev, 0, ""};
        ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < n; i++)
        ck_assert_msg(!w[i].failed, "thread %d (device %d): %s (seed %" PRIu64 ")", i, w[i].dev,
                      w[i].msg, seed);
    free_problems();
}

/* THREADS threads at once on the visible GPUs in turn. */
START_TEST(threads_own_handles)
{
    run_workers(THREADS);
}
END_TEST

/* Several devices, as a tensor-parallel engine drives them: one thread a GPU, all at once
 * (with one GPU, two threads and two handles on it). */
START_TEST(one_thread_per_device)
{
    int ndev = 0;
    CUDA_OK(cudaGetDeviceCount(&ndev));
    run_workers(ndev < 2 ? 2 : ndev > 16 ? 16 : ndev);
}
END_TEST

/* Every operator through device 1's handle while device 0 is current: INVALID_VALUE with a
 * message naming both, and nothing written (the launch would go to the wrong GPU). With one
 * GPU there is no other device to make current: said, not checked. */
START_TEST(wrong_current_device)
{
    int ndev = 0;
    CUDA_OK(cudaGetDeviceCount(&ndev));
    if (ndev < 2) {
        printf("test_concurrency: wrong_current_device: one GPU, not checked\n");
        return;
    }
    make_problems();
    tileops_handle h;
    CUDA_OK(cudaSetDevice(1));
    ck_assert_int_eq(tileops_create(&h, 1), TILEOPS_SUCCESS);
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    static struct dev_problem d[NOPS];
    for (int o = 0; o < NOPS; o++) {
        dev_alloc(h, &d[o], o);
        poison(&d[o], s);
    }
    CUDA_OK(cudaStreamSynchronize(s));
    CUDA_OK(cudaSetDevice(0));
    for (int o = 0; o < NOPS; o++) {
        ck_assert_int_eq(launch(h, &d[o], s), TILEOPS_ERROR_INVALID_VALUE);
        ck_assert_msg(strstr(tileops_last_error(), "device 1") &&
                          strstr(tileops_last_error(), "current device is 0"),
                      "%s: %s", op_names[o], tileops_last_error());
    }
    CUDA_OK(cudaSetDevice(1));
    CUDA_OK(cudaStreamSynchronize(s));
    for (int o = 0; o < NOPS; o++) {
        unsigned char *out = malloc(d[o].p->out_bytes);
        ck_assert_ptr_nonnull(out);
        CUDA_OK(cudaMemcpy(out, d[o].out, d[o].p->out_bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < d[o].p->out_bytes; i++)
            ck_assert_msg(out[i] == 0xff, "%s: output byte %zu written", op_names[o], i);
        free(out);
        dev_free(&d[o]);
    }
    CUDA_OK(cudaStreamDestroy(s));
    tileops_destroy(h);
    CUDA_OK(cudaSetDevice(0));
    free_problems();
}
END_TEST

/* Handles created and destroyed from several threads at once, on the GPUs in turn, each used
 * for a dry-run call in between (which must name a kernel). */
struct churn {
    int dev, failed;
    char msg[200];
};

static void *churn_handles(void *arg)
{
    struct churn *c = arg;
    for (int i = 0; i < 50 && !c->failed; i++) {
        tileops_handle h = NULL;
        if (cudaSetDevice(c->dev) != cudaSuccess || tileops_create(&h, c->dev) != TILEOPS_SUCCESS ||
            tileops_set_dry_run(h, 1) != TILEOPS_SUCCESS ||
            tileops_vector_add(h, TILEOPS_F32, 1024, (void *)0x100000, (void *)0x200000,
                               (void *)0x300000, NULL) != TILEOPS_SUCCESS ||
            strncmp(tileops_last_kernel(h), "tileops_vector_add_", 19) != 0) {
            snprintf(c->msg, sizeof c->msg, "device %d, round %d: %s", c->dev, i,
                     tileops_last_error());
            c->failed = 1;
        }
        if (tileops_destroy(h) != TILEOPS_SUCCESS && h) {
            snprintf(c->msg, sizeof c->msg, "device %d: destroy: %s", c->dev, tileops_last_error());
            c->failed = 1;
        }
    }
    return NULL;
}

START_TEST(handles_from_threads)
{
    int ndev = 0;
    CUDA_OK(cudaGetDeviceCount(&ndev));
    pthread_t t[8];
    struct churn c[8];
    for (int i = 0; i < 8; i++) {
        c[i] = (struct churn){i % ndev, 0, ""};
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn_handles, &c[i]), 0);
    }
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < 8; i++)
        ck_assert_msg(!c[i].failed, "thread %d: %s", i, c[i].msg);
}
END_TEST

/* One thread, one handle, STREAMS streams: every operator issued on every stream, one after
 * another with no wait in between (each stream its own buffers), then every result checked. */
START_TEST(one_thread_many_streams)
{
    make_problems();
    tileops_handle h;
    ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);
    cudaStream_t s[STREAMS];
    static struct dev_problem d[STREAMS][NOPS];
    for (int k = 0; k < STREAMS; k++) {
        CUDA_OK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        for (int o = 0; o < NOPS; o++)
            dev_alloc(h, &d[k][o], o);
    }
    for (int rep = 0; rep < REPS; rep++) {
        for (int o = 0; o < NOPS; o++)
            for (int k = 0; k < STREAMS; k++) {
                poison(&d[k][o], s[k]);
                ck_assert_msg(launch(h, &d[k][o], s[k]) == TILEOPS_SUCCESS, "%s: %s",
                              op_names[o], tileops_last_error());
            }
        CUDA_OK(cudaDeviceSynchronize());
        for (int k = 0; k < STREAMS; k++)
            for (int o = 0; o < NOPS; o++)
                CHECK(&d[k][o]);
    }
    for (int k = 0; k < STREAMS; k++) {
        for (int o = 0; o < NOPS; o++)
            dev_free(&d[k][o]);
        CUDA_OK(cudaStreamDestroy(s[k]));
    }
    tileops_destroy(h);
    free_problems();
}
END_TEST

int main(void)
{
    if (!have_cuda_device()) {
        printf("test_concurrency: skipped: no CUDA device\n");
        return EXIT_SUCCESS;
    }
    Suite *s = suite_create("concurrency");
    TCase *tc = tcase_create("gpu");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, graphs);
    tcase_add_test(tc, threads_own_handles);
    tcase_add_test(tc, one_thread_many_streams);
    suite_add_tcase(s, tc);
    TCase *devs = tcase_create("devices"); /* several GPUs (or two handles on one) */
    tcase_set_timeout(devs, 300);
    tcase_add_test(devs, one_thread_per_device);
    tcase_add_test(devs, wrong_current_device);
    tcase_add_test(devs, handles_from_threads);
    suite_add_tcase(s, devs);
    return run_suite(s, CK_VERBOSE);
}
