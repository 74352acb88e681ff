/* test_softmax.c: tileops_softmax and log-softmax on the GPU against an fp64 CPU reference,
 * for every dtype on every tier of this build (forced): row lengths from 1 to 2^24 + 1 (so
 * every kernel of the ladder, split rows and two-pass rows run), 1 to 4096 rows, -inf, all
 * -inf and NaN rows, strided and misaligned views, in place, and graph capture; split rows
 * both launched cooperatively and through tickets (TILEOPS_SOFTMAX_TICKETS=1). Outputs,
 * their row padding and the workspace are poisoned with 0xff bytes (NaN) first.
 * Without a CUDA device it prints "skipped: no CUDA device". */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "util_check.h"
#include "util_handle.h"
#include "util_host.h"
#include "util_ref.h"

#define FULL_CHECK ((int64_t)1 << 24) /* beyond this many elements, sample rows */
#define GUARD 64                      /* poisoned elements around y, checked after a call */

static const tileops_dtype dtypes[] = {TILEOPS_F32, TILEOPS_F16, TILEOPS_BF16};

/* ---- inputs -------------------------------------------------------------------------- */

enum special { NORMAL, HALF_NEG_INF, ALL_NEG_INF, ONE_NAN };

/* Writes -inf or NaN into element i of a host array of dtype. */
static void put_special(void *buf, tileops_dtype dt, size_t i, int nan)
{
    if (dt == TILEOPS_F32)
        ((uint32_t *)buf)[i] = nan ? 0x7fc00000u : 0xff800000u;
    else if (dt == TILEOPS_F16)
        ((uint16_t *)buf)[i] = nan ? 0x7e00u : 0xfc00u;
    else
        ((uint16_t *)buf)[i] = nan ? 0x7fc0u : 0xff80u;
}

/* Rows 1, 2 and 3 get special values: the first half and every 5th entry -inf (so split rows
 * have chunks of only -inf), only -inf, one NaN. The rest are random finite values. */
static enum special row_kind(int64_t r, int specials)
{
    return specials && r >= 1 && r <= 3 ? (enum special)r : NORMAL;
}

/* A host matrix of rows x ld random elements (the padding too, so a kernel that reads it
 * would be caught), with the special rows. */
static void *make_input(tileops_dtype dt, int64_t rows, int64_t cols, int64_t ld, int specials,
                        uint64_t *seed)
{
    struct rng r = {rng_seed_from_clock() | 1};
    *seed = r.s;
    const size_t n = (size_t)(rows * ld), esz = (size_t)tileops__dtype_bytes(dt);
    void *x = malloc(n * esz);
    ck_assert_ptr_nonnull(x);
    fill_random(x, dt, n, &r);
    for (int64_t row = 0; row < rows; row++) {
        const enum special k = row_kind(row, specials);
        for (int64_t j = 0; j < cols && k != NORMAL; j++) {
            const size_t i = (size_t)(row * ld + j);
            if (k == ALL_NEG_INF || (k == HALF_NEG_INF && (j < cols / 2 || j % 5 == 0)))
                put_special(x, dt, i, 0);
        }
        if (k == ONE_NAN)
            put_special(x, dt, (size_t)(row * ld + cols * 2 / 3), 1);
    }
    return x;
}

/* Asserts one output row against the fp64 reference (util_ref.h). */
static void check_row(tileops_dtype dt, tileops_softmax_mode mode, const void *x, const void *y,
                      int64_t cols, int64_t row, const char *what)
{
    char msg[256];
    if (ref_softmax_row(dt, mode, x, y, cols, msg, sizeof msg) != 0)
        ck_abort_msg("%s: row %" PRId64 ": %s", what, row, msg);
}

/* ---- one call ---------------------------------------------------------------------------- */

struct view {
    int64_t rows, cols, ldx, ldy;
    size_t off_x, off_y; /* elements into the allocation (misalignment) */
    int in_place;
};

/* Runs one call on h and checks it: every row (or a sample of rows when the matrix is
 * large), the untouched padding and guards, and NaN where NaN belongs. Returns the kernel. */
static const char *run_and_check(tileops_handle h, tileops_dtype dt, tileops_softmax_mode mode,
                                 const struct view *v, const void *hx, uint64_t seed)
{
    const size_t esz = (size_t)tileops__dtype_bytes(dt);
    const int64_t ldy = v->in_place ? v->ldx : v->ldy;
    const size_t nx = (size_t)(v->rows * v->ldx), ny = (size_t)(v->rows * ldy);
    const size_t ytotal = ny + v->off_y + 2 * GUARD;
    char *dx, *dy = NULL, *dws = NULL;
    /* every copy and poisoning goes on the call's stream (or is synchronous): a memset on
     * the legacy stream could still be running when the call's kernel starts */
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&dx, (nx + v->off_x) * esz));
    char *x = dx + v->off_x * esz, *y;
    upload(x, hx, nx * esz);
    if (v->in_place) {
        y = x;
    } else {
        CUDA_OK(cudaMalloc((void **)&dy, ytotal * esz));
        CUDA_OK(cudaMemsetAsync(dy, 0xff, ytotal * esz, stream));
        y = dy + (GUARD + v->off_y) * esz;
    }
    size_t ws = 0;
    ck_assert_msg(tileops_softmax_workspace_size(h, dt, mode, v->rows, v->cols, x, v->ldx, y,
                                                 ldy, &ws) == TILEOPS_SUCCESS,
                  "%s", tileops_last_error());
    if (ws) {
        CUDA_OK(cudaMalloc((void **)&dws, ws));
        CUDA_OK(cudaMemsetAsync(dws, 0xff, ws, stream)); /* the call sets what it relies on */
    }
    tileops_status st = tileops_softmax(h, dt, mode, v->rows, v->cols, x, v->ldx, y, ldy, dws,
                                        ws, stream);
    ck_assert_msg(st == TILEOPS_SUCCESS, "status %d: %s", st, tileops_last_error());
    if (getenv("TILEOPS_TEST_TRACE"))
        fprintf(stderr, "test_softmax: %" PRId64 "x%" PRId64 " %s ws %zu...\n", v->rows,
                v->cols, tileops_last_kernel(h), ws);
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaStreamDestroy(stream));

    char what[256];
    snprintf(what, sizeof what, "%s %s %" PRId64 "x%" PRId64 " ldx %" PRId64 " ldy %" PRId64
             "%s (kernel %s, seed %" PRIu64 ")", tileops__dtype_name(dt),
             mode == TILEOPS_SOFTMAX_LOG ? "log" : "plain", v->rows, v->cols, v->ldx, ldy,
             v->in_place ? " in place" : "", tileops_last_kernel(h), seed);
    const int sample = v->rows * v->cols > FULL_CHECK;
    const int64_t step = sample ? v->rows / 32 + 1 : 1;
    char *row = malloc((size_t)ldy * esz);
    ck_assert_ptr_nonnull(row);
    for (int64_t r = 0; r < v->rows; r++) {
        if (sample && r >= 4 && r != v->rows - 1 && r % step)
            continue;
        const size_t rowbytes = (size_t)ldy * esz;
        CUDA_OK(cudaMemcpy(row, y + (size_t)(r * ldy) * esz, rowbytes, cudaMemcpyDeviceToHost));
        check_row(dt, mode, (const char *)hx + (size_t)(r * v->ldx) * esz, row, v->cols, r,
                  what);
        /* the padding between rows: poisoned (or, in place, the input's own values) */
        for (size_t b = (size_t)v->cols * esz; b < rowbytes; b++) {
            const unsigned char want =
                v->in_place ? ((const unsigned char *)hx)[(size_t)(r * v->ldx) * esz + b] : 0xff;
            ck_assert_msg((unsigned char)row[b] == want, "%s: row %" PRId64 " padding byte %zu "
                          "was written", what, r, b);
        }
    }
    if (!v->in_place) { /* the guards around y */
        unsigned char g[(GUARD + 16) * 4];
        const size_t before = (GUARD + v->off_y) * esz;
        CUDA_OK(cudaMemcpy(g, dy, before, cudaMemcpyDeviceToHost));
        for (size_t b = 0; b < before; b++)
            ck_assert_msg(g[b] == 0xff, "%s: byte %zu before y was written", what, b);
        CUDA_OK(cudaMemcpy(g, y + ny * esz, GUARD * esz, cudaMemcpyDeviceToHost));
        for (size_t b = 0; b < GUARD * esz; b++)
            ck_assert_msg(g[b] == 0xff, "%s: byte %zu past y was written", what, b);
    }
    free(row);
    CUDA_OK(cudaFree(dx));
    CUDA_OK(cudaFree(dy));
    CUDA_OK(cudaFree(dws));
    return tileops_last_kernel(h);
}

/* ---- the cases --------------------------------------------------------------------------- */

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every row length of the issue (and 2504, 4096, 40000) for 1, 3 and 4096 rows (4096 x 2^20
 * is left out: 4 G elements), plus 4 x 2^20 (the benchmark's) and 1 x (2^24 + 1) (two passes
 * on any GPU with fewer than 257 SMs); both modes, every tier. _i = dtype index.
 * TILEOPS_TEST_SMALL=1 (test_small_only()) leaves out the multi-row shapes above 4 M
 * elements; TILEOPS_TEST_SHAPE=RxC runs only that shape; TILEOPS_TEST_TRACE=1 names each
 * kernel before waiting for it. */
START_TEST(shapes_every_tier)
{
    /* besides the issue's: 2504 and 4096 (the prefetching register instances from sm80 on,
     * partly and wholly filled) and 40000 (one chunk of the 64 KB stage plus registers; f32:
     * two of them); f32 32000 is one chunk of the 96 KB stage plus registers; 32001 and
     * 100003, odd vocabularies: every row starts elsewhere in a vector (head and tail) */
    static const int64_t cols[] = {1,     2,     31,    32,     33,     1000,    1024,
                                   2504,  4096,  4097,  32000,  32001,  40000,   100003,
                                   128256, 1 << 20};
    static const int64_t rows[] = {1, 3, 4096};
    const tileops_dtype dt = dtypes[_i];
    struct view list[64];
    int n = 0;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
            if (rows[r] * cols[c] <= ((int64_t)1 << 30))
                list[n++] = (struct view){rows[r], cols[c], cols[c], cols[c], 0, 0, 0};
    list[n++] = (struct view){4, 1 << 20, 1 << 20, 1 << 20, 0, 0, 0};
    list[n++] = (struct view){1, (1 << 24) + 1, (1 << 24) + 1, (1 << 24) + 1, 0, 0, 0};
    const char *only = getenv("TILEOPS_TEST_SHAPE"); /* e.g. 4096x128256: just that one */
    for (int k = 0; k < n; k++) {
        if (test_small_only() && list[k].rows > 1 && list[k].rows * list[k].cols > (1 << 22))
            continue;
        char name[48];
        snprintf(name, sizeof name, "%" PRId64 "x%" PRId64, list[k].rows, list[k].cols);
        if (only && strcmp(only, name) != 0)
            continue;
        const double t0 = seconds();
        uint64_t seed;
        void *hx = make_input(dt, list[k].rows, list[k].cols, list[k].ldx, 1, &seed);
        for (int ti = 0; ti < tileops_built_tier_count; ti++) {
            tileops_handle h = handle_on_tier(ti);
            run_and_check(h, dt, TILEOPS_SOFTMAX_PLAIN, &list[k], hx, seed);
            run_and_check(h, dt, TILEOPS_SOFTMAX_LOG, &list[k], hx, seed);
            tileops_destroy(h);
        }
        free(hx);
        /* progress, so that a slow case shows where the time goes */
        fprintf(stderr, "test_softmax: %s %" PRId64 "x%" PRId64 ": %.1f s\n",
                tileops__dtype_name(dt), list[k].rows, list[k].cols, seconds() - t0);
    }
}
END_TEST

/* Row strides wider than the row, aligned and not; misaligned pointers; in place. Vector
 * kernels run wherever x and y are equally misaligned (rows start anywhere in a vector: single
 * loads up to the first whole one), element-wise ones elsewhere. _i = dtype index. */
START_TEST(strided_misaligned_in_place)
{
    /* 2051 and 4096: the prefetching register path (.nc loads in place; 2051 with a tail of
     * single elements); 30001: f32 in one chunk of a 96 KB stage and registers */
    static const int64_t cols[] = {33, 2051, 4096, 4097, 30001, 128256};
    const tileops_dtype dt = dtypes[_i];
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
        const int64_t n = cols[c], al = (n + 15) / 16 * 16 + 16;
        const struct view views[] = {
            {5, n, al, al + 8, 0, 0, 0},     /* strided, 16-byte rows */
            {5, n, n + 3, n + 5, 0, 0, 0},   /* strides that break vectors */
            {5, n, al, al, 1, 0, 0},         /* x one element in */
            {5, n, al, al, 0, 3, 0},         /* y three elements in */
            {5, n, al, al, 0, 0, 1},         /* in place */
            {5, n, n + 1, n + 1, 1, 0, 1},   /* in place, misaligned */
            {5, n, al, al, 1, 1, 0},         /* x and y one element in */
            {5, n, n + 3, n + 3, 3, 3, 0},   /* ... and a stride that breaks vectors */
        };
        for (size_t k = 0; k < sizeof views / sizeof views[0]; k++) {
            uint64_t seed;
            void *hx = make_input(dt, views[k].rows, n, views[k].ldx, 1, &seed);
            for (int ti = 0; ti < tileops_built_tier_count; ti++) {
                tileops_handle h = handle_on_tier(ti);
                const char *kn = run_and_check(h, dt, (tileops_softmax_mode)(k % 2), &views[k],
                                               hx, seed);
                const int vector = k == 0 || k >= 4;
                ck_assert_msg(vector == !strstr(kn, "_v1"), "view %zu ran %s", k, kn);
                tileops_destroy(h);
            }
            free(hx);
        }
    }
}
END_TEST

/* Forces split rows through tickets (on) or lets them launch cooperatively where every chunk
 * has a block at once (off). */
static void force_tickets(int on)
{
    if (on)
        ck_assert_int_eq(setenv("TILEOPS_SOFTMAX_TICKETS", "1", 1), 0);
    else
        ck_assert_int_eq(unsetenv("TILEOPS_SOFTMAX_TICKETS"), 0);
}

/* Split rows whose chunks all fit on the device at once (a few rows; 4 x 2^20 is the
 * benchmark's), by both paths: the cooperative launch (grid.sync, no counters) and tickets
 * (counters zeroed by a memset in the call). Rows 1 to 3 hold chunks of only -inf, a row of
 * only -inf and a NaN. Rows of 300005 end 5 elements past a 16-byte vector, so the vector
 * kernels' odd tail elements are in a split row too; rows of 100003 and the last shape's
 * (x and y 5 elements in, an odd stride) start anywhere in a vector, so chunk 0 has a head
 * and the last chunks may be short or empty. Every
 * tier, both modes. _i = dtype index. */
START_TEST(split_both_paths)
{
    static const int64_t shape[][4] = {{4, 1 << 20, 1 << 20, 0},
                                       {6, 300000, 300000, 0},
                                       {5, 128256, 128256, 0},
                                       {5, 70000, 70000, 0},
                                       {4, 300005, 300008, 0},
                                       {5, 100003, 100003, 0},
                                       {3, 300005, 300011, 5}}; /* rows, cols, ld, offset */
    const tileops_dtype dt = dtypes[_i];
    for (size_t k = 0; k < sizeof shape / sizeof shape[0]; k++) {
        const int64_t rows = shape[k][0], cols = shape[k][1], ld = shape[k][2];
        const size_t off = (size_t)shape[k][3];
        const struct view v = {rows, cols, ld, ld, off, off, 0};
        uint64_t seed;
        void *hx = make_input(dt, rows, cols, ld, 1, &seed);
        for (int tickets = 0; tickets < 2; tickets++) {
            force_tickets(tickets);
            for (int ti = 0; ti < tileops_built_tier_count; ti++) {
                tileops_handle h = handle_on_tier(ti);
                run_and_check(h, dt, TILEOPS_SOFTMAX_PLAIN, &v, hx, seed);
                run_and_check(h, dt, TILEOPS_SOFTMAX_LOG, &v, hx, seed);
                tileops_destroy(h);
            }
        }
        force_tickets(0);
        free(hx);
    }
}
END_TEST

/* Every softmax_cluster instance (rows that no block holds, staged across a thread-block
 * cluster, sm90), pinned, in both modes' instances: as many rows as the GPU has SMs and 3 more
 * (fit() wants a cluster an SM at least), lengths that fill the chunks or leave the last one
 * short (rows start anywhere in a vector: a head in chunk 0 and a tail), rows 1 to 3 special;
 * then, at the first length it serves, x and y 3 elements in with an odd stride, and in place
 * with padded rows. An instance must serve some length. _i = dtype index. */
START_TEST(cluster_every_instance)
{
    static const int64_t lengths[] = {60001, 100003, 131072};
    const tileops_dtype dt = dtypes[_i];
    int instances = 0;
    for (int ti = 0; ti < tileops_built_tier_count; ti++) {
        const struct tileops_tier_table *t = &tileops_built_tiers[ti];
        tileops_handle h = handle_on_tier(ti);
        const int64_t rows = h->dev.sms + 3;
        for (int ki = 0; ki < *t->count; ki++) {
            const struct tileops_kernel *k = &t->kernels[ki];
            if (k->op != TILEOPS_OP_SOFTMAX || k->dtype != (int)dt ||
                !strstr(k->name, "softmax_cluster") || k->smem > h->dev.smem_optin)
                continue;
            const tileops_softmax_mode mode =
                strstr(k->name, "_log_") ? TILEOPS_SOFTMAX_LOG : TILEOPS_SOFTMAX_PLAIN;
            ck_assert_int_eq(tileops_set_kernel(h, k->name), TILEOPS_SUCCESS);
            instances++;
            int64_t first = 0;
            for (size_t c = 0; c < sizeof lengths / sizeof *lengths; c++) {
                const int64_t n = lengths[c], al = (n + 15) / 16 * 16;
                size_t ws = 0;
                /* (the pointers are only checked for alignment here) */
                if (tileops_softmax_workspace_size(h, dt, mode, rows, n, (void *)256, n,
                                                   (void *)(256 + 16 * al * rows), n,
                                                   &ws) != TILEOPS_SUCCESS)
                    continue; /* a length past the instance's capacity */
                ck_assert_uint_eq(ws, 0);
                const struct view views[] = {
                    {rows, n, n, n, 0, 0, 0},
                    {rows, n, n + 3, n + 3, 3, 3, 0},
                    {rows, n, al + 8, al + 8, 0, 0, 1},
                };
                for (size_t vi = 0; vi < (first ? 1u : 3u); vi++) {
                    uint64_t seed;
                    void *hx = make_input(dt, rows, n, views[vi].ldx, 1, &seed);
                    const char *kn = run_and_check(h, dt, mode, &views[vi], hx, seed);
                    ck_assert_str_eq(kn, k->name);
                    free(hx);
                }
                if (!first)
                    first = n;
            }
            ck_assert_msg(first > 0, "%s serves none of the lengths", k->name);
            ck_assert_int_eq(tileops_set_kernel(h, NULL), TILEOPS_SUCCESS);
        }
        tileops_destroy(h);
    }
    fprintf(stderr, "test_softmax: %s: %d softmax_cluster instances pinned and checked\n",
            tileops__dtype_name(dt), instances);
}
END_TEST

/* A split row captured in a CUDA graph and replayed twice, by both paths: cooperative (the
 * graph holds the one kernel) and tickets (a memset of the counters, then the kernel: the
 * second replay must not see the first one's counters). Then a row that needs no workspace:
 * the one kernel. _i = dtype index. */
START_TEST(graph_capture)
{
    const tileops_dtype dt = dtypes[_i];
    static const int64_t cols[] = {300000, 300000, 1000};
    int dev = 0, coop = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    for (int c = 0; c < 3; c++) {
        const int tickets = c == 1 || !coop; /* 6 rows of 300000: every chunk fits at once */
        force_tickets(c == 1);
        const struct view v = {6, cols[c], cols[c], cols[c], 0, 0, 0};
        const size_t esz = (size_t)tileops__dtype_bytes(dt), bytes = (size_t)(6 * cols[c]) * esz;
        uint64_t seed;
        void *hx = make_input(dt, v.rows, v.cols, v.ldx, 1, &seed);
        void *x, *y, *ws = NULL, *got = malloc(bytes);
        ck_assert_ptr_nonnull(got);
        CUDA_OK(cudaMalloc(&x, bytes));
        CUDA_OK(cudaMalloc(&y, bytes));
        upload(x, hx, bytes);
        tileops_handle h;
        ck_assert_int_eq(tileops_create(&h, 0), TILEOPS_SUCCESS);
        size_t wsb = 0;
        ck_assert_int_eq(tileops_softmax_workspace_size(h, dt, TILEOPS_SOFTMAX_PLAIN, v.rows,
                                                        v.cols, x, v.ldx, y, v.ldy, &wsb),
                         TILEOPS_SUCCESS);
        ck_assert_msg((wsb > 0) == (c < 2), "workspace %zu for %lld columns", wsb,
                      (long long)cols[c]);
        if (wsb)
            CUDA_OK(cudaMalloc(&ws, wsb));

        cudaStream_t stream;
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        size_t nodes = 0;
        CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
        tileops_status st = tileops_softmax(h, dt, TILEOPS_SOFTMAX_PLAIN, v.rows, v.cols, x,
                                            v.ldx, y, v.ldy, ws, wsb, stream);
        CUDA_OK(cudaStreamEndCapture(stream, &graph));
        ck_assert_msg(st == TILEOPS_SUCCESS, "%s", tileops_last_error());
        CUDA_OK(cudaGraphGetNodes(graph, NULL, &nodes));
        /* tickets: the counters' memset + the kernel; else the kernel alone */
        ck_assert_msg((int)nodes == (c < 2 && tickets ? 2 : 1), "%zu graph nodes (%s, %s)",
                      nodes, c < 2 ? (tickets ? "tickets" : "cooperative") : "one pass",
                      tileops_last_kernel(h));
        CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
        for (int rep = 0; rep < 2; rep++) {
            CUDA_OK(cudaMemsetAsync(y, 0xff, bytes, stream));
            if (ws) /* the graph resets what it needs */
                CUDA_OK(cudaMemsetAsync(ws, 0xff, wsb, stream));
            CUDA_OK(cudaGraphLaunch(exec, stream));
            CUDA_OK(cudaStreamSynchronize(stream));
            CUDA_OK(cudaMemcpy(got, y, bytes, cudaMemcpyDeviceToHost));
            for (int64_t r = 0; r < v.rows; r++)
                check_row(dt, TILEOPS_SOFTMAX_PLAIN, (char *)hx + (size_t)(r * v.ldx) * esz,
                          (char *)got + (size_t)(r * v.ldy) * esz, v.cols, r,
                          tileops_last_kernel(h));
        }
        CUDA_OK(cudaGraphExecDestroy(exec));
        CUDA_OK(cudaGraphDestroy(graph));
        CUDA_OK(cudaStreamDestroy(stream));
        CUDA_OK(cudaFree(x));
        CUDA_OK(cudaFree(y));
        CUDA_OK(cudaFree(ws));
        tileops_destroy(h);
        free(hx);
        free(got);
    }
    force_tickets(0);
}
END_TEST

int main(void)
{
    if (!have_cuda_device()) {
        printf("test_softmax: skipped: no CUDA device\n");
        return EXIT_SUCCESS;
    }
    Suite *s = suite_create("softmax");
    TCase *shapes = tcase_create("shapes");
    tcase_set_timeout(shapes, 1200);
    tcase_add_loop_test(shapes, shapes_every_tier, 0, 3);
    suite_add_tcase(s, shapes);
    TCase *tc = tcase_create("views");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, strided_misaligned_in_place, 0, 3);
    suite_add_tcase(s, tc);
    TCase *split = tcase_create("split");
    tcase_set_timeout(split, 600);
    tcase_add_loop_test(split, split_both_paths, 0, 3);
    suite_add_tcase(s, split);
    TCase *cluster = tcase_create("cluster");
    tcase_set_timeout(cluster, 600);
    tcase_add_loop_test(cluster, cluster_every_instance, 0, 3);
    suite_add_tcase(s, cluster);
    TCase *graph = tcase_create("graph");
    tcase_set_timeout(graph, 120);
    tcase_add_loop_test(graph, graph_capture, 0, 3);
    suite_add_tcase(s, graph);
    return run_suite(s, CK_VERBOSE);
}
