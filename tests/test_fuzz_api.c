/* test_fuzz_api.c: the API fuzzer. Random and near-valid calls of every entry point
 * (tileops_vector_add, tileops_softmax and its workspace query, tileops_gemm and its workspace
 * query, tileops_flash_attention, tileops_attention_kvcache and its workspace query,
 * tileops_kv_cache_append, and the handle calls), in dry run on fake devices of every
 * tier this build holds. An oracle written from the header's contract, not from libops' checks,
 * says whether each call is valid (exact 128-bit arithmetic, no shared helper); the fuzzer
 * checks that no call crashes (the sanitizer build adds: trips ASan or UBSan), no invalid call
 * returns SUCCESS, no valid one INVALID_VALUE, and every failure leaves a message that names
 * its function.
 *
 *   test_fuzz_api [CALLS [SEED]]     (default: 20000 calls from seed 1, the make-test run)
 *
 * Pointers are never dereferenced (dry run), except the varlen host offsets, which are real
 * arrays here. Exit status 1 if any problem was found; the first ones are printed. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tileops.h"

typedef unsigned __int128 u128;

/* ---- random numbers -------------------------------------------------------------------- */
static uint64_t rng_state;
static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static int chance(unsigned one_in) { return below(one_in) == 0; }
/* 1 to 2^bits, log-uniform */
static int64_t logu(int bits) { return 1 + (int64_t)below(1ull << below((uint64_t)bits + 1)); }

/* ---- extreme values -------------------------------------------------------------------- */
/* a + b modulo 2^64: the fuzzer's own arithmetic has no overflow either */
static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

static int64_t mut_i64(int64_t v)
{
    static const int64_t extremes[] = {0, -1, 1, 2, 7, 8, 15, 16, INT64_MAX, INT64_MIN,
                                       INT64_MAX / 2, INT64_MAX / 2 + 1, INT64_MAX / 4,
                                       INT64_MAX / 4 + 1, INT64_MAX / 8, (int64_t)1 << 31,
                                       ((int64_t)1 << 31) - 1, (int64_t)1 << 32, (int64_t)1 << 62,
                                       INT32_MAX - 256, INT32_MAX - 255, INT64_MIN + 1};
    switch (below(6)) {
    case 0: return extremes[below(sizeof extremes / sizeof extremes[0])];
    case 1: return wrap_add(v, 1);
    case 2: return wrap_add(v, -1);
    case 3: return (int64_t)rnd();
    case 4: return (int64_t)((uint64_t)v * 2);
    default: return (int64_t)below(1ull << below(64));
    }
}
static int mut_int(int v)
{
    static const int extremes[] = {0, -1, 1, 2, 3, 63, 64, 65, 96, 100, 128, 256, 512,
                                   INT32_MAX, INT32_MIN};
    switch (below(4)) {
    case 0: return extremes[below(sizeof extremes / sizeof extremes[0])];
    case 1: return v == INT32_MAX ? INT32_MIN : v + 1;
    case 2: return v == INT32_MIN ? INT32_MAX : v - 1;
    default: return (int)rnd();
    }
}

/* The operands' regions: operand i lives around (i + 1) << 40, far from the others. */
static uintptr_t region(int i, unsigned align)
{
    return ((uintptr_t)(i + 1) << 40) + (uintptr_t)below(1u << 20) * align;
}

/* A pointer near p, at another operand, or extreme. */
static uintptr_t mut_ptr(uintptr_t p, const uintptr_t *others, int n)
{
    switch (below(9)) {
    case 0: return 0;
    case 1: return p + 1 + below(16);
    case 2: return p - 1 - below(16);
    case 3: return UINTPTR_MAX - below(1u << 12);
    case 4: return n ? others[below((uint64_t)n)] : p;
    case 5: return n ? others[below((uint64_t)n)] + (uintptr_t)below(1u << 16) * 2 : p;
    case 6: return (uintptr_t)rnd();
    case 7: return ((uintptr_t)1 << 63) + (uintptr_t)below(1u << 20) * 16;
    default: return p + (uintptr_t)below(1u << 12) * 16;
    }
}
#define PTR(p) ((void *)(uintptr_t)(p))
#define UP(p) ((uintptr_t)(p))

/* ---- the oracle's arithmetic: exact, in 128 bits ---------------------------------------- */
/* A byte range the API may take: at most INT64_MAX bytes, its end representable. */
static int range_ok(uintptr_t p, u128 bytes)
{
    return bytes <= (u128)INT64_MAX && (u128)p + bytes <= (u128)UINTPTR_MAX;
}
static int meets(uintptr_t p, u128 pl, uintptr_t q, u128 ql)
{
    return pl && ql && (u128)p < (u128)q + ql && (u128)q < (u128)p + pl;
}
/* ((rows - 1) * ld + cols) * elem; callers have rows, cols >= 1 and ld >= cols */
static u128 view_bytes(int64_t rows, int64_t cols, int64_t ld, int64_t elem)
{
    return ((u128)(rows - 1) * (u128)ld + (u128)cols) * (u128)elem;
}
static int elem_of(int dtype) { return dtype == TILEOPS_F32 ? 4 : 2; }
static int dtype_ok(int dtype) { return dtype == 0 || dtype == 1 || dtype == 2; }

/* What the oracle says of a call: invalid (a contract violation: INVALID_VALUE), unsupported
 * (a valid call the header says is NOT_SUPPORTED), or neither (SUCCESS, or NOT_SUPPORTED when
 * no kernel of the tier fits). */
struct verdict {
    int invalid, unsupported;
    const char *why; /* the first reason found, for the report */
};
#define BAD(v, r) ((v)->invalid ? 0 : ((v)->why = (r)), (v)->invalid = 1)
#define UNSUP(v, r) ((v)->invalid || (v)->unsupported ? 0 : ((v)->why = (r)), (v)->unsupported = 1)

/* ---- the report ------------------------------------------------------------------------ */
/* n_invalid_ns: invalid calls answered NOT_SUPPORTED (a check of what the tier serves, such
 * as head_dim or a kernel for the shape, came before the one that finds the fault) */
static uint64_t calls, problems, n_success, n_invalid, n_unsupported, n_invalid_ns;
static uint64_t op_success[7];
static int cur_op; /* the operator being fuzzed: handle, vector_add, softmax, gemm, attention,
                    kvcache, append */
static char last_call[1024];

static void judge(const char *fn, tileops_status st, const struct verdict *v, tileops_handle h)
{
    const char *err = tileops_last_error();
    const char *problem = NULL;
    calls++;
    if (st == TILEOPS_SUCCESS)
        n_success++, op_success[cur_op]++;
    else if (st == TILEOPS_ERROR_INVALID_VALUE)
        n_invalid++;
    else if (st == TILEOPS_ERROR_NOT_SUPPORTED)
        n_unsupported++, n_invalid_ns += v->invalid;
    if (st != TILEOPS_SUCCESS && st != TILEOPS_ERROR_INVALID_VALUE &&
        st != TILEOPS_ERROR_NOT_SUPPORTED)
        problem = "a status other than SUCCESS, INVALID_VALUE or NOT_SUPPORTED in a dry run";
    else if (st == TILEOPS_SUCCESS && v->invalid)
        problem = "an invalid call returned SUCCESS";
    else if (st == TILEOPS_SUCCESS && v->unsupported)
        problem = "an unsupported call returned SUCCESS";
    else if (st == TILEOPS_ERROR_INVALID_VALUE && !v->invalid)
        problem = "a valid call returned INVALID_VALUE";
    else if (st != TILEOPS_SUCCESS && !*err)
        problem = "a failure left no message";
    else if (st != TILEOPS_SUCCESS && strncmp(err, fn, strlen(fn)) != 0)
        problem = "the message does not name the function";
    else if (st == TILEOPS_SUCCESS && h && !*tileops_last_kernel(h))
        problem = "a successful call chose no kernel";
    if (!problem)
        return;
    if (problems++ < 20)
        fprintf(stderr, "PROBLEM (call %" PRIu64 "): %s\n  %s: status %d, oracle %s%s (%s)\n"
                "  message: \"%s\"\n  %s\n", calls, problem, fn, (int)st,
                v->invalid ? "invalid" : "valid", v->unsupported ? ", unsupported" : "",
                v->why ? v->why : "-", err, last_call);
}

/* Clears the thread's message, so that each call's own is judged. */
static void clear_error(void) { tileops__fail(TILEOPS_SUCCESS, "%s", ""); }

/* ---- vector_add ------------------------------------------------------------------------ */
static void fuzz_vector_add(tileops_handle h)
{
    int dtype = (int)below(3);
    int64_t n = logu(below(4) ? 20 : 40);
    const int64_t elem = elem_of(dtype);
    uintptr_t a = region(0, below(2) ? 16 : (unsigned)elem), b = region(1, 16),
              c = region(2, 16);
    if (chance(4))
        c = chance(2) ? a : b;
    for (uint64_t m = below(4); m--;) {
        uintptr_t ps[3] = {a, b, c};
        switch (below(6)) {
        case 0: dtype = chance(2) ? mut_int(dtype) : (int)below(3); break;
        case 1: n = mut_i64(n); break;
        case 2: a = mut_ptr(a, ps, 3); break;
        case 3: b = mut_ptr(b, ps, 3); break;
        default: c = mut_ptr(c, ps, 3); break;
        }
    }
    struct verdict v = {0, 0, NULL};
    if (!h) BAD(&v, "NULL handle");
    if (!dtype_ok(dtype)) BAD(&v, "dtype");
    if (n < 1) BAD(&v, "n < 1");
    if (!a || !b || !c) BAD(&v, "NULL pointer");
    if (dtype_ok(dtype) && n >= 1 && a && b && c) {
        const u128 bytes = (u128)n * (u128)elem_of(dtype);
        if (!range_ok(a, bytes) || !range_ok(b, bytes) || !range_ok(c, bytes))
            BAD(&v, "range overflows");
        else if ((c != a && meets(c, bytes, a, bytes)) || (c != b && meets(c, bytes, b, bytes)))
            BAD(&v, "c partially overlaps an input");
    }
    snprintf(last_call, sizeof last_call, "vector_add(dtype %d, n %" PRId64 ", a %#" PRIxPTR
             ", b %#" PRIxPTR ", c %#" PRIxPTR ")", dtype, n, a, b, c);
    clear_error();
    judge("tileops_vector_add",
          tileops_vector_add(h, (tileops_dtype)dtype, n, PTR(a), PTR(b), PTR(c), NULL), &v, h);
}

/* ---- softmax --------------------------------------------------------------------------- */
static void softmax_oracle(struct verdict *v, tileops_handle h, int dtype, int mode,
                           int64_t rows, int64_t cols, uintptr_t x, int64_t ldx, uintptr_t y,
                           int64_t ldy, int query, u128 *xb, u128 *yb)
{
    *xb = *yb = 0;
    if (!h) BAD(v, "NULL handle");
    if (!dtype_ok(dtype)) BAD(v, "dtype");
    if (mode != 0 && mode != 1) BAD(v, "mode");
    if (!query && (!x || !y)) BAD(v, "NULL pointer");
    if (rows < 1 || cols < 1) BAD(v, "rows or cols < 1");
    if (rows < 1 || cols < 1 || !dtype_ok(dtype))
        return;
    if (ldx < cols || ldy < cols) {
        BAD(v, "ld < cols");
        return;
    }
    const int64_t elem = elem_of(dtype);
    *xb = view_bytes(rows, cols, ldx, elem);
    *yb = view_bytes(rows, cols, ldy, elem);
    if (!range_ok(x, *xb) || !range_ok(y, *yb)) {
        BAD(v, "x or y overflows");
        return;
    }
    if (x % (uintptr_t)elem || y % (uintptr_t)elem) BAD(v, "x or y misaligned");
    if (x && y && x == y && ldx != ldy) BAD(v, "in place with ldx != ldy");
    if (x && y && x != y && meets(x, *xb, y, *yb)) {
        /* views of one buffer: only the same stride and whole elements apart may be disjoint */
        const u128 d = x > y ? (u128)(x - y) : (u128)(y - x);
        if (ldx != ldy || d % (u128)elem) {
            BAD(v, "x and y overlap");
        } else {
            /* y[r][j] is x[r + t][j + c] for d / elem = t * ld + c: some t in [0, rows) with
             * |d / elem - t * ld| < cols */
            const u128 de = d / (u128)elem, ld = (u128)ldx, t0 = de / ld;
            int share = 0;
            if (t0 < (u128)rows && de - t0 * ld < (u128)cols) share = 1;
            if (t0 + 1 < (u128)rows && (t0 + 1) * ld - de < (u128)cols) share = 1;
            if (share) BAD(v, "x and y share an element");
        }
    }
}

static void fuzz_softmax(tileops_handle h)
{
    int dtype = (int)below(3), mode = (int)below(2);
    int64_t rows = logu(below(8) ? 12 : 40), cols = logu(below(8) ? 22 : 40);
    const int64_t elem = elem_of(dtype);
    int64_t ldx = cols + (chance(2) ? 0 : logu(8) - 1), ldy = chance(2) ? ldx : cols + logu(6) - 1;
    uintptr_t x = region(0, below(2) ? 16 : (unsigned)elem), y = region(1, below(2) ? 16 : (unsigned)elem);
    switch (below(6)) {
    case 0: y = x, ldy = ldx; break;                                  /* in place */
    case 1: ldx = ldy = 2 * cols, y = x + (uintptr_t)(cols * elem); break; /* side by side */
    default: break;
    }
    const int query = chance(4);
    uintptr_t ws = region(2, 16);
    uint64_t wsb = 0;
    int mutate_ws = 0;
    for (uint64_t m = below(4); m--;) {
        uintptr_t ps[3] = {x, y, ws};
        switch (below(11)) {
        case 0: dtype = chance(2) ? mut_int(dtype) : (int)below(3); break;
        case 1: mode = mut_int(mode); break;
        case 2: rows = mut_i64(rows); break;
        case 3: cols = mut_i64(cols); break;
        case 4: ldx = mut_i64(ldx); break;
        case 5: ldy = mut_i64(ldy); break;
        case 6: x = mut_ptr(x, ps, 3); break;
        case 7: y = mut_ptr(y, ps, 3); break;
        case 8: ldy = ldx; break;
        default: mutate_ws = 1; break;
        }
    }
    if (query && chance(3))
        x = chance(2) ? 0 : x, y = chance(2) ? 0 : y;

    /* The workspace: what the query asks for, then perhaps a wrong one. */
    size_t need = 0;
    tileops_status qst = tileops_softmax_workspace_size(h, (tileops_dtype)dtype,
                                                        (tileops_softmax_mode)mode, rows, cols,
                                                        PTR(x), ldx, PTR(y), ldy, &need);
    wsb = need;
    if (!need && chance(2))
        ws = 0;
    if (mutate_ws) {
        uintptr_t ps[2] = {x, y};
        switch (below(5)) {
        case 0: ws = mut_ptr(ws, ps, 2); break;
        case 1: wsb = need ? need - 1 : 0; break;
        case 2: wsb = (uint64_t)mut_i64((int64_t)wsb); break;
        case 3: ws = 0; break;
        default: ws = mut_ptr(ws, ps, 2), wsb = (uint64_t)mut_i64((int64_t)wsb); break;
        }
    }
    struct verdict v = {0, 0, NULL};
    u128 xb, yb;
    softmax_oracle(&v, h, dtype, mode, rows, cols, x, ldx, y, ldy, query, &xb, &yb);
    snprintf(last_call, sizeof last_call, "softmax%s(dtype %d, mode %d, rows %" PRId64
             ", cols %" PRId64 ", x %#" PRIxPTR ", ldx %" PRId64 ", y %#" PRIxPTR ", ldy %"
             PRId64 ", ws %#" PRIxPTR ", wsb %" PRIu64 "; need %zu)", query ? "_workspace_size"
             : "", dtype, mode, rows, cols, x, ldx, y, ldy, ws, wsb, need);
    if (query) {
        clear_error();
        qst = tileops_softmax_workspace_size(h, (tileops_dtype)dtype, (tileops_softmax_mode)mode,
                                             rows, cols, PTR(x), ldx, PTR(y), ldy, &need);
        judge("tileops_softmax_workspace_size", qst, &v, NULL);
        return;
    }
    /* The workspace is judged against the query's figure (the kernel's own need); a query
     * that failed means the call must fail too. */
    if (!v.invalid && qst == TILEOPS_SUCCESS) {
        if (ws && (u128)ws + wsb > (u128)UINTPTR_MAX) BAD(&v, "workspace range wraps");
        if (need && (!ws || wsb < need)) BAD(&v, "workspace too small");
        if (need && ws % 16) BAD(&v, "workspace misaligned");
        if (need && ws && (meets(ws, need, x, xb) || meets(ws, need, y, yb)))
            BAD(&v, "workspace overlaps x or y");
    }
    clear_error();
    tileops_status st = tileops_softmax(h, (tileops_dtype)dtype, (tileops_softmax_mode)mode,
                                        rows, cols, PTR(x), ldx, PTR(y), ldy, PTR(ws), wsb, NULL);
    if (!v.invalid && !v.unsupported && qst == TILEOPS_ERROR_NOT_SUPPORTED)
        UNSUP(&v, "the query found no kernel");
    judge("tileops_softmax", st, &v, h);
}

/* ---- gemm ------------------------------------------------------------------------------ */
static void gemm_oracle(struct verdict *v, tileops_handle h, const tileops_gemm_params *p,
                        u128 bytes[5])
{
    memset(bytes, 0, 5 * sizeof bytes[0]);
    if (!h) BAD(v, "NULL handle");
    if (p->size < sizeof *p) { BAD(v, "size"); return; }
    if (p->dtype == TILEOPS_F32) UNSUP(v, "f32 GEMM");
    else if (!dtype_ok(p->dtype)) BAD(v, "dtype");
    if (p->b_layout != TILEOPS_B_KN && p->b_layout != TILEOPS_B_NK) BAD(v, "layout");
    if (p->m < 1 || p->n < 1 || p->k < 1) { BAD(v, "m, n or k < 1"); return; }
    if (p->epilogue & ~15u) BAD(v, "unknown epilogue flag");
    const unsigned act = p->epilogue & 14u;
    if (act != 0 && act != 2 && act != 4 && act != 8) BAD(v, "two activations");
    const int has_bias = (p->epilogue & 1u) != 0;
    if (has_bias != (p->bias != NULL)) BAD(v, "bias and its flag disagree");
    if (!p->a || !p->b || !p->d) { BAD(v, "NULL a, b or d"); return; }
    const int nk = p->b_layout == TILEOPS_B_NK;
    const int64_t brows = nk ? p->n : p->k, bcols = nk ? p->k : p->n;
    if (p->lda < p->k || p->ldb < bcols || p->ldd < p->n || (p->c && p->ldc < p->n)) {
        BAD(v, "leading dimension too small");
        return;
    }
    bytes[0] = view_bytes(p->m, p->k, p->lda, 2);
    bytes[1] = view_bytes(brows, bcols, p->ldb, 2);
    bytes[2] = p->c ? view_bytes(p->m, p->n, p->ldc, 2) : 0;
    bytes[3] = view_bytes(p->m, p->n, p->ldd, 2);
    bytes[4] = has_bias ? (u128)p->n * 2 : 0;
    if (!range_ok(UP(p->a), bytes[0]) || !range_ok(UP(p->b), bytes[1]) ||
        !range_ok(UP(p->c), bytes[2]) || !range_ok(UP(p->d), bytes[3]) ||
        !range_ok(UP(p->bias), bytes[4])) {
        BAD(v, "an operand overflows");
        return;
    }
    if (p->c && p->c != p->d && meets(UP(p->c), bytes[2], UP(p->d), bytes[3]))
        BAD(v, "c overlaps d");
    if (p->c && p->c == p->d && p->ldc != p->ldd) BAD(v, "c == d with ldc != ldd");
    if (meets(UP(p->a), bytes[0], UP(p->d), bytes[3]) || meets(UP(p->b), bytes[1], UP(p->d), bytes[3]))
        BAD(v, "d overlaps a or b");
    if (meets(UP(p->bias), bytes[4], UP(p->d), bytes[3])) BAD(v, "bias overlaps d");
    if (UP(p->a) % 2 || UP(p->b) % 2 || UP(p->d) % 2 || (p->c && p->beta != 0.0f && UP(p->c) % 2) ||
        UP(p->bias) % 2)
        BAD(v, "a pointer is not 2-byte aligned");
}

static void fuzz_gemm(tileops_handle h)
{
    tileops_gemm_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.dtype = below(2) ? TILEOPS_F16 : TILEOPS_BF16;
    p.b_layout = (tileops_layout)below(2);
    p.m = logu(below(8) ? 13 : 40), p.n = logu(below(8) ? 14 : 40), p.k = logu(below(8) ? 14 : 40);
    const int nk = p.b_layout == TILEOPS_B_NK;
    const unsigned al = below(4) ? 16 : 2;
    p.a = PTR(region(0, al)), p.lda = p.k + (below(2) ? 0 : logu(7) - 1);
    p.b = PTR(region(1, al)), p.ldb = (nk ? p.k : p.n) + (below(2) ? 0 : logu(7) - 1);
    p.d = PTR(region(3, al)), p.ldd = p.n + (below(2) ? 0 : logu(7) - 1);
    switch (below(3)) {
    case 0: break;
    case 1: p.c = p.d, p.ldc = p.ldd; break;
    default: p.c = PTR(region(2, al)), p.ldc = p.n + (below(2) ? 0 : logu(7) - 1); break;
    }
    p.alpha = 1.0f, p.beta = below(3) ? 1.0f : 0.0f;
    static const unsigned acts[] = {0, 2, 4, 8};
    p.epilogue = acts[below(4)] | (unsigned)below(2);
    if (p.epilogue & 1u)
        p.bias = PTR(region(4, al));
    const int query = chance(4);
    uintptr_t ws = region(5, 16);
    int mutate_ws = 0;
    for (uint64_t m = below(4); m--;) {
        uintptr_t ps[5] = {UP(p.a), UP(p.b), UP(p.c), UP(p.d), UP(p.bias)};
        switch (below(20)) {
        case 0: p.size = (size_t)mut_i64((int64_t)p.size); break;
        case 1: p.dtype = (tileops_dtype)(chance(2) ? mut_int(p.dtype) : (int)below(3)); break;
        case 2: p.b_layout = (tileops_layout)mut_int(p.b_layout); break;
        case 3: p.m = mut_i64(p.m); break;
        case 4: p.n = mut_i64(p.n); break;
        case 5: p.k = mut_i64(p.k); break;
        case 6: p.lda = mut_i64(p.lda); break;
        case 7: p.ldb = mut_i64(p.ldb); break;
        case 8: p.ldc = mut_i64(p.ldc); break;
        case 9: p.ldd = mut_i64(p.ldd); break;
        case 10: p.a = PTR(mut_ptr(UP(p.a), ps, 5)); break;
        case 11: p.b = PTR(mut_ptr(UP(p.b), ps, 5)); break;
        case 12: p.c = PTR(mut_ptr(UP(p.c), ps, 5)); break;
        case 13: p.d = PTR(mut_ptr(UP(p.d), ps, 5)); break;
        case 14: p.bias = PTR(mut_ptr(UP(p.bias), ps, 5)); break;
        case 15: p.epilogue = chance(2) ? (unsigned)rnd() : (unsigned)below(16); break;
        case 16: p.beta = chance(2) ? 0.0f : NAN; break;
        default: mutate_ws = 1; break;
        }
    }
    size_t need = 0;
    tileops_status qst = tileops_gemm_workspace_size(h, &p, &need);
    uint64_t wsb = need;
    if (!need && chance(2))
        ws = 0;
    if (mutate_ws) {
        uintptr_t ps[5] = {UP(p.a), UP(p.b), UP(p.c), UP(p.d), UP(p.bias)};
        switch (below(4)) {
        case 0: ws = mut_ptr(ws, ps, 5); break;
        case 1: wsb = (uint64_t)mut_i64((int64_t)wsb); break;
        case 2: ws = 0; break;
        default: ws = mut_ptr(ws, ps, 5), wsb = (uint64_t)mut_i64((int64_t)wsb); break;
        }
    }
    struct verdict v = {0, 0, NULL};
    u128 bytes[5];
    gemm_oracle(&v, h, &p, bytes);
    snprintf(last_call, sizeof last_call, "gemm%s(size %zu, dtype %d, layout %d, m %" PRId64
             " n %" PRId64 " k %" PRId64 ", a %p lda %" PRId64 ", b %p ldb %" PRId64 ", c %p ldc %"
             PRId64 ", d %p ldd %" PRId64 ", bias %p, beta %g, epilogue %#x, ws %#" PRIxPTR
             " wsb %" PRIu64 ")", query ? "_workspace_size" : "", p.size, (int)p.dtype,
             (int)p.b_layout, p.m, p.n, p.k, p.a, p.lda, p.b, p.ldb, p.c, p.ldc, p.d, p.ldd,
             p.bias, (double)p.beta, p.epilogue, ws, wsb);
    if (query) {
        clear_error();
        judge("tileops_gemm_workspace_size", tileops_gemm_workspace_size(h, &p, &need), &v, NULL);
        return;
    }
    if (ws % 16) BAD(&v, "workspace misaligned");
    if (ws && (u128)ws + wsb > (u128)UINTPTR_MAX) BAD(&v, "workspace range wraps");
    else if (ws && wsb) {
        const uintptr_t ops[5] = {UP(p.a), UP(p.b), UP(p.c), UP(p.d), UP(p.bias)};
        for (int i = 0; i < 5; i++)
            if (ops[i] && meets(ws, wsb, ops[i], bytes[i]))
                BAD(&v, "workspace overlaps an operand");
    }
    clear_error();
    tileops_status st = tileops_gemm(h, &p, PTR(ws), wsb, NULL);
    if (!v.invalid && !v.unsupported && qst == TILEOPS_ERROR_NOT_SUPPORTED)
        UNSUP(&v, "the query found no kernel");
    judge("tileops_gemm", st, &v, h);
}

/* ---- attention ------------------------------------------------------------------------- */
#define MAXB 64
static int cu_q_host[MAXB + 2], cu_kv_host[MAXB + 2];

/* Does some order of the dimensions of size > 1 nest (each stride at least the extent of
 * those inside it, head_dim contiguous at the bottom)? Fills the view's extent in elements. */
static int nests(const int64_t size[3], const int64_t stride[3], int64_t head_dim, u128 *extent)
{
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    *extent = (u128)head_dim;
    for (int d = 0; d < 3; d++)
        if (size[d] > 1)
            *extent += (u128)(size[d] - 1) * (u128)stride[d];
    for (int q = 0; q < 6; q++) {
        u128 e = (u128)head_dim;
        int ok = 1;
        for (int j = 0; j < 3 && ok; j++) {
            const int d = perms[q][j];
            if (size[d] <= 1)
                continue;
            if ((u128)stride[d] < e)
                ok = 0;
            e += (u128)(size[d] - 1) * (u128)stride[d];
        }
        if (ok)
            return 1;
    }
    return 0;
}

/* A [s0, s1, s2, head_dim] view of 2-byte elements: NULL, misaligned, negative strides,
 * overlapping itself or overflowing are contract violations; *bytes its extent (0: none). */
static int view_oracle(struct verdict *v, const void *ptr, const int64_t size[3],
                       const int64_t stride[3], int64_t head_dim, u128 *bytes)
{
    *bytes = 0;
    if (!ptr) { BAD(v, "NULL view"); return 0; }
    if (UP(ptr) % 2) BAD(v, "view misaligned");
    if (UP(ptr) % 16) UNSUP(v, "view not 16-byte aligned");
    if (!size[0] || !size[1] || !size[2])
        return 1;
    for (int d = 0; d < 3; d++) {
        if (size[d] > 1 && stride[d] < 0) { BAD(v, "negative stride"); return 0; }
        if (size[d] > 1 && stride[d] % 8) UNSUP(v, "stride not a multiple of 8");
    }
    u128 extent;
    if (!nests(size, stride, head_dim, &extent)) { BAD(v, "a view overlaps itself"); return 0; }
    *bytes = extent * 2;
    if (!range_ok(UP(ptr), *bytes)) { BAD(v, "a view overflows"); return 0; }
    return 1;
}

/* A device array of n elements of elem bytes: non-null, aligned to them, not overflowing. */
static int array_oracle(struct verdict *v, const void *ptr, u128 n, int elem, u128 *bytes)
{
    *bytes = 0;
    if (!ptr) { BAD(v, "NULL array"); return 0; }
    if (UP(ptr) % (uintptr_t)elem) BAD(v, "array misaligned");
    *bytes = n * (u128)elem;
    if (!range_ok(UP(ptr), *bytes)) { BAD(v, "array overflows"); return 0; }
    return 1;
}

/* The attention operators' heads: 0 (stop judging) where a size is below 1. */
static int heads_oracle(struct verdict *v, int64_t batch, int heads_q, int heads_kv, int head_dim)
{
    if (batch < 1 || heads_q < 1 || heads_kv < 1 || head_dim < 1) {
        BAD(v, "batch, heads or head_dim < 1");
        return 0;
    }
    if (head_dim != 64 && head_dim != 96 && head_dim != 128 && head_dim != 256)
        UNSUP(v, "head_dim");
    if (heads_q % heads_kv) BAD(v, "heads_q not a multiple of heads_kv");
    return 1;
}

/* The attention operators' mask and softcap flags. */
static void options_oracle(struct verdict *v, int causal, int window, int window_left,
                           int window_right, float softcap)
{
    if (causal != 0 && causal != 1) BAD(v, "causal");
    if (window != 0 && window != 1) BAD(v, "window");
    if (window == 1 && (window_left < -1 || window_right < -1)) BAD(v, "window side");
    if (!isfinite(softcap) || softcap < 0.0f) BAD(v, "softcap");
}

/* The outputs o and lse overlap none of the n inputs, nor each other. */
static void outputs_oracle(struct verdict *v, const void *o, u128 o_bytes, const float *lse,
                           u128 lse_bytes, const uintptr_t *in, const u128 *inb, int n)
{
    for (int i = 0; i < n; i++) {
        if (meets(UP(o), o_bytes, in[i], inb[i])) BAD(v, "o overlaps an input");
        if (meets(UP(lse), lse_bytes, in[i], inb[i])) BAD(v, "lse overlaps an input");
    }
    if (meets(UP(o), o_bytes, UP(lse), lse_bytes)) BAD(v, "o overlaps lse");
}

static void attention_oracle(struct verdict *v, tileops_handle h, const tileops_attention_params *p)
{
    if (!h) BAD(v, "NULL handle");
    if (p->size < TILEOPS_ATTENTION_PARAMS_SIZE_V1) { BAD(v, "size"); return; }
    /* the fields a caller's size covers; the rest are not read */
    const int window = p->size >= offsetof(tileops_attention_params, window_right) + sizeof(int)
                       ? p->window : 0;
    const float softcap = p->size >= offsetof(tileops_attention_params, softcap) + sizeof(float)
                          ? p->softcap : 0.0f;
    options_oracle(v, p->causal, window, p->window_left, p->window_right, softcap);
    if (p->dtype == TILEOPS_F32) UNSUP(v, "f32 attention");
    else if (!dtype_ok(p->dtype)) BAD(v, "dtype");
    if (!heads_oracle(v, p->batch, p->heads_q, p->heads_kv, p->head_dim))
        return;
    if (p->seqlen_q < 0 || p->seqlen_kv < 0) BAD(v, "seqlen < 0");
    if (!isfinite(p->scale)) BAD(v, "scale not finite");
    const int nvar = !!p->cu_seqlens_q + !!p->cu_seqlens_kv + !!p->cu_seqlens_q_host +
                     !!p->cu_seqlens_kv_host;
    const int varlen = nvar > 0;
    int64_t total_q = 0, total_kv = 0, longest_q = 0, longest_kv = 0;
    if (nvar && nvar < 4) { BAD(v, "some but not all cu_seqlens"); return; }
    if (varlen) {
        const u128 ob = ((u128)p->batch + 1) * 4;
        if (UP(p->cu_seqlens_q) % 4 || UP(p->cu_seqlens_kv) % 4) BAD(v, "offsets misaligned");
        if (!range_ok(UP(p->cu_seqlens_q), ob) || !range_ok(UP(p->cu_seqlens_kv), ob)) {
            BAD(v, "offsets overflow");
            return;
        }
        const int *hq = p->cu_seqlens_q_host, *hk = p->cu_seqlens_kv_host;
        if (hq[0] != 0 || hk[0] != 0) { BAD(v, "offsets do not start at 0"); return; }
        for (int64_t b = 0; b < p->batch; b++) {
            if (hq[b + 1] < hq[b] || hk[b + 1] < hk[b]) { BAD(v, "offsets decrease"); return; }
            if (hq[b + 1] - hq[b] > longest_q) longest_q = hq[b + 1] - hq[b];
            if (hk[b + 1] - hk[b] > longest_kv) longest_kv = hk[b + 1] - hk[b];
        }
        total_q = hq[p->batch], total_kv = hk[p->batch];
        if (p->seqlen_q < longest_q || p->seqlen_kv < longest_kv) BAD(v, "seqlen below the longest");
    } else {
        longest_q = p->seqlen_q, longest_kv = p->seqlen_kv;
    }
    if (p->seqlen_q < 0 || p->seqlen_kv < 0)
        return;
    const int64_t nb = varlen ? 1 : p->batch;
    const int64_t rq = varlen ? total_q : p->seqlen_q, rkv = varlen ? total_kv : p->seqlen_kv;
    const void *ptr[4] = {p->q, p->k, p->v, p->o};
    const int64_t sizes[4][3] = {{nb, rq, p->heads_q}, {nb, rkv, p->heads_kv},
                                 {nb, rkv, p->heads_kv}, {nb, rq, p->heads_q}};
    const int64_t strides[4][3] = {{p->q_batch, p->q_seq, p->q_head}, {p->k_batch, p->k_seq, p->k_head},
                                   {p->v_batch, p->v_seq, p->v_head}, {p->o_batch, p->o_seq, p->o_head}};
    u128 bytes[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
        if (!view_oracle(v, ptr[i], sizes[i], strides[i], p->head_dim, &bytes[i]))
            return;
    u128 lse_bytes = 0;
    if (p->lse && !array_oracle(v, p->lse, (u128)nb * (u128)p->heads_q * (u128)rq, 4, &lse_bytes))
        return;
    const u128 ob = varlen ? ((u128)p->batch + 1) * 4 : 0;
    const uintptr_t in[5] = {UP(p->q), UP(p->k), UP(p->v), UP(p->cu_seqlens_q), UP(p->cu_seqlens_kv)};
    const u128 inb[5] = {bytes[0], bytes[1], bytes[2], ob, ob};
    outputs_oracle(v, p->o, bytes[3], p->lse, lse_bytes, in, inb, 5);
    if (longest_q > INT32_MAX - 256 || longest_kv > INT32_MAX - 256) UNSUP(v, "sequence too long");
}

/* The attention operators' starting point: a dtype, a served head dim, GQA heads. */
static void random_heads(tileops_dtype *dtype, int *head_dim, int *heads_q, int *heads_kv)
{
    *dtype = below(2) ? TILEOPS_F16 : TILEOPS_BF16;
    static const int dims[] = {64, 96, 128, 256};
    *head_dim = dims[below(4)];
    *heads_kv = 1 << below(4);
    *heads_q = *heads_kv << below(3);
}

/* The attention operators' options, drawn in one order: lse, causal, scale, window, softcap. */
static void random_options(float **lse, int *causal, float *scale, int *window, int *window_left,
                           int *window_right, float *softcap)
{
    if (chance(2))
        *lse = PTR(region(4, 16));
    *causal = (int)below(2);
    *scale = chance(2) ? 0.0f : 0.125f;
    if (chance(4))
        *window = 1, *window_left = (int)below(300) - 1, *window_right = (int)below(300) - 1;
    if (chance(4))
        *softcap = 30.0f;
}

static void fuzz_attention(tileops_handle h)
{
    tileops_attention_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    random_heads(&p.dtype, &p.head_dim, &p.heads_q, &p.heads_kv);
    const int varlen = chance(4);
    p.batch = varlen ? 1 + (int64_t)below(MAXB) : logu(3);
    p.seqlen_q = below(8) ? logu(12) - 1 : logu(33) - 1;
    p.seqlen_kv = chance(3) ? p.seqlen_q : (below(8) ? logu(12) - 1 : logu(33) - 1);
    if (varlen) {
        cu_q_host[0] = cu_kv_host[0] = 0;
        int64_t lq = 0, lk = 0;
        for (int64_t b = 0; b < p.batch; b++) {
            const int sq = (int)below(2048), sk = (int)below(2048);
            cu_q_host[b + 1] = cu_q_host[b] + sq, cu_kv_host[b + 1] = cu_kv_host[b] + sk;
            if (sq > lq) lq = sq;
            if (sk > lk) lk = sk;
        }
        p.seqlen_q = lq + (chance(4) ? (int64_t)below(8) : 0);
        p.seqlen_kv = lk + (chance(4) ? (int64_t)below(8) : 0);
        p.cu_seqlens_q = PTR(region(6, 4)), p.cu_seqlens_kv = PTR(region(7, 4));
        p.cu_seqlens_q_host = cu_q_host, p.cu_seqlens_kv_host = cu_kv_host;
    }
    const int64_t nbatch = p.batch; /* the host offsets hold nbatch + 1 */
    const int64_t sq = varlen ? cu_q_host[p.batch] : p.seqlen_q;
    const int64_t skv = varlen ? cu_kv_host[p.batch] : p.seqlen_kv;
    const int64_t d = p.head_dim;
    /* [batch, seq, heads, dim] or [batch, heads, seq, dim] */
    const int bhsd = chance(2);
    int64_t *st[4][3] = {{&p.q_batch, &p.q_seq, &p.q_head}, {&p.k_batch, &p.k_seq, &p.k_head},
                         {&p.v_batch, &p.v_seq, &p.v_head}, {&p.o_batch, &p.o_seq, &p.o_head}};
    for (int i = 0; i < 4; i++) {
        const int64_t s = i == 0 || i == 3 ? sq : skv, hh = i == 0 || i == 3 ? p.heads_q : p.heads_kv;
        const int64_t pad = chance(4) ? 8 * (int64_t)below(4) : 0;
        if (bhsd) {
            *st[i][1] = d + pad, *st[i][2] = s * (d + pad), *st[i][0] = hh * s * (d + pad);
        } else {
            *st[i][2] = d + pad, *st[i][1] = hh * (d + pad), *st[i][0] = s * hh * (d + pad);
        }
    }
    p.q = PTR(region(0, 16)), p.k = PTR(region(1, 16)), p.v = PTR(region(2, 16));
    p.o = PTR(region(3, 16));
    random_options(&p.lse, &p.causal, &p.scale, &p.window, &p.window_left, &p.window_right,
                   &p.softcap);
    for (uint64_t m = below(4); m--;) {
        uintptr_t ps[6] = {UP(p.q), UP(p.k), UP(p.v), UP(p.o), UP(p.lse), UP(p.cu_seqlens_q)};
        switch (below(23)) {
        case 18: p.window = mut_int(p.window); break;
        case 19: *(chance(2) ? &p.window_left : &p.window_right) = mut_int(-1); break;
        case 20: p.softcap = chance(2) ? -1.0f : chance(2) ? NAN : INFINITY; break;
        case 0: p.size = (size_t)mut_i64((int64_t)p.size); break;
        case 1: p.dtype = (tileops_dtype)(chance(2) ? mut_int(p.dtype) : (int)below(3)); break;
        case 2: p.batch = mut_i64(p.batch); break;
        case 3: p.seqlen_q = mut_i64(p.seqlen_q); break;
        case 4: p.seqlen_kv = mut_i64(p.seqlen_kv); break;
        case 5: p.heads_q = mut_int(p.heads_q); break;
        case 6: p.heads_kv = mut_int(p.heads_kv); break;
        case 7: p.head_dim = mut_int(p.head_dim); break;
        case 8: p.causal = mut_int(p.causal); break;
        case 9: p.scale = chance(2) ? INFINITY : NAN; break;
        case 10: *st[below(4)][below(3)] = mut_i64(*st[0][0]); break;
        case 11: { int64_t *s = st[below(4)][below(3)]; *s = mut_i64(*s); } break;
        case 12: p.q = PTR(mut_ptr(UP(p.q), ps, 6)); break;
        case 13: p.k = PTR(mut_ptr(UP(p.k), ps, 6)); break;
        case 14: p.v = PTR(mut_ptr(UP(p.v), ps, 6)); break;
        case 15: p.o = PTR(mut_ptr(UP(p.o), ps, 6)); break;
        case 16: p.lse = (float *)PTR(mut_ptr(UP(p.lse), ps, 6)); break;
        case 17: /* the offsets: one missing, moved, or a host value changed */
            switch (below(4)) {
            case 0: p.cu_seqlens_q = PTR(mut_ptr(UP(p.cu_seqlens_q), ps, 6)); break;
            case 1: p.cu_seqlens_kv = NULL; break;
            case 2: p.cu_seqlens_q_host = chance(2) ? NULL : cu_q_host; break;
            default: if (varlen) cu_kv_host[below((uint64_t)nbatch + 1)] = mut_int(0); break;
            }
            break;
        default: { int64_t *s = st[below(4)][below(3)]; *s = wrap_add(*s, 8 * ((int64_t)below(5) - 2)); } break;
        }
    }
    /* the host offsets are real arrays of MAXB + 1: a batch beyond them drops them */
    if ((p.cu_seqlens_q_host || p.cu_seqlens_kv_host) && (p.batch < 0 || p.batch > MAXB))
        p.cu_seqlens_q_host = p.cu_seqlens_kv_host = NULL;
    struct verdict v = {0, 0, NULL};
    attention_oracle(&v, h, &p);
    snprintf(last_call, sizeof last_call, "flash_attention(size %zu, dtype %d, batch %" PRId64
             ", seqlen %" PRId64 "/%" PRId64 ", heads %d/%d, dim %d, q %p [%" PRId64 " %" PRId64
             " %" PRId64 "], k %p [%" PRId64 " %" PRId64 " %" PRId64 "], v %p [%" PRId64 " %"
             PRId64 " %" PRId64 "], o %p [%" PRId64 " %" PRId64 " %" PRId64 "], lse %p, causal %d,"
             " scale %g, cu %p %p %p %p)", p.size, (int)p.dtype, p.batch, p.seqlen_q, p.seqlen_kv,
             p.heads_q, p.heads_kv, p.head_dim, p.q, p.q_batch, p.q_seq, p.q_head, p.k, p.k_batch,
             p.k_seq, p.k_head, p.v, p.v_batch, p.v_seq, p.v_head, p.o, p.o_batch, p.o_seq,
             p.o_head, (void *)p.lse, p.causal, (double)p.scale, (const void *)p.cu_seqlens_q,
             (const void *)p.cu_seqlens_kv, (const void *)p.cu_seqlens_q_host,
             (const void *)p.cu_seqlens_kv_host);
    clear_error();
    judge("tileops_flash_attention", tileops_flash_attention(h, &p, NULL), &v, h);
}

/* ---- decode attention over a KV cache, and the cache's append ---------------------------- */
#define WS_BIG ((size_t)1 << 30) /* a workspace where dispatch chooses the splits */

/* need: what tileops_attention_kvcache_workspace_size answered for the call (the header's
 * measure of "too small"), or SIZE_MAX where it failed */
static void kvcache_oracle(struct verdict *v, tileops_handle h, const tileops_kvcache_params *p,
                           int query, uintptr_t ws, size_t ws_bytes, size_t need)
{
    if (!h) BAD(v, "NULL handle");
    if (p->size < sizeof *p) { BAD(v, "size"); return; }
    if (p->dtype == TILEOPS_F32) UNSUP(v, "f32 decode");
    else if (!dtype_ok(p->dtype)) BAD(v, "dtype");
    if (!heads_oracle(v, p->batch, p->heads_q, p->heads_kv, p->head_dim))
        return;
    if (p->seqlen_q < 1 || p->seqlen_q > 16) BAD(v, "seqlen_q outside 1..16");
    if (p->max_seqlen_kv < 0) BAD(v, "max_seqlen_kv < 0");
    options_oracle(v, p->causal, p->window, p->window_left, p->window_right, p->softcap);
    if (!isfinite(p->scale) || p->scale < 0.0f) BAD(v, "scale");
    if (p->num_splits < 0 || p->num_splits > TILEOPS_KVCACHE_MAX_SPLITS) BAD(v, "num_splits");
    if (p->seqlen_q < 1 || p->seqlen_q > 16 || p->max_seqlen_kv < 0)
        return;
    const int paged = p->block_table != NULL;
    u128 table_bytes = 0, lens_bytes = 0;
    if (paged) {
        if (p->page_size < 1 || p->page_size > 256 || (p->page_size & (p->page_size - 1))) {
            BAD(v, "page_size");
            return;
        }
        if (p->num_pages < 1) BAD(v, "num_pages < 1");
        if (p->max_pages_per_seq < 1 ||
            (u128)p->max_pages_per_seq * (u128)p->page_size < (u128)p->max_seqlen_kv) {
            BAD(v, "max_pages_per_seq too small");
            return;
        }
        if (!array_oracle(v, p->block_table, (u128)p->batch * (u128)p->max_pages_per_seq, 4,
                          &table_bytes))
            return;
    }
    if (!array_oracle(v, p->seqlens_kv, p->batch, 4, &lens_bytes))
        return;
    const int64_t outer = paged ? p->num_pages : p->batch;
    const int64_t rows = paged ? p->page_size : p->max_seqlen_kv;
    const void *ptr[4] = {p->q, p->o, p->k, p->v};
    const int64_t sizes[4][3] = {{p->batch, p->seqlen_q, p->heads_q}, {p->batch, p->seqlen_q, p->heads_q},
                                 {outer, rows, p->heads_kv}, {outer, rows, p->heads_kv}};
    const int64_t strides[4][3] = {{p->q_batch, p->q_seq, p->q_head}, {p->o_batch, p->o_seq, p->o_head},
                                   {p->k_batch, p->k_seq, p->k_head}, {p->v_batch, p->v_seq, p->v_head}};
    u128 bytes[4];
    for (int i = 0; i < 4; i++)
        if (!view_oracle(v, ptr[i], sizes[i], strides[i], p->head_dim, &bytes[i]))
            return;
    u128 lse_bytes = 0;
    if (p->lse && !array_oracle(v, p->lse, (u128)p->batch * (u128)p->heads_q * (u128)p->seqlen_q,
                                4, &lse_bytes))
        return;
    /* o and lse overlap nothing read, nor each other */
    const uintptr_t in[5] = {UP(p->q), UP(p->k), UP(p->v), UP(p->seqlens_kv), UP(p->block_table)};
    const u128 inb[5] = {bytes[0], bytes[2], bytes[3], lens_bytes, table_bytes};
    outputs_oracle(v, p->o, bytes[1], p->lse, lse_bytes, in, inb, 5);
    if (!query) {
        if (ws_bytes && !ws) BAD(v, "workspace NULL with bytes");
        if (ws % 16) BAD(v, "workspace misaligned");
        if (ws && !range_ok(ws, ws_bytes)) BAD(v, "workspace overflows");
        const uintptr_t all[7] = {UP(p->q), UP(p->o), UP(p->k), UP(p->v), UP(p->lse),
                                  UP(p->seqlens_kv), UP(p->block_table)};
        const u128 allb[7] = {bytes[0], bytes[1], bytes[2], bytes[3], lse_bytes, lens_bytes, table_bytes};
        for (int i = 0; ws && i < 7; i++)
            if (meets(ws, ws_bytes, all[i], allb[i])) BAD(v, "workspace overlaps an operand");
        if (p->num_splits > 1 && need != SIZE_MAX && ws_bytes < need)
            BAD(v, "forced splits without their workspace");
    }
    if (h && tileops_get_tier(h) == 70 && p->dtype == TILEOPS_BF16) UNSUP(v, "bf16 decode on sm70");
    if (p->max_seqlen_kv > INT32_MAX - 256) UNSUP(v, "cache too long");
}

static void fuzz_kvcache(tileops_handle h)
{
    tileops_kvcache_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    random_heads(&p.dtype, &p.head_dim, &p.heads_q, &p.heads_kv);
    p.batch = logu(6);
    p.seqlen_q = 1 + (int)below(chance(2) ? 1 : 16);
    p.max_seqlen_kv = logu(17) - 1;
    const int64_t d = p.head_dim;
    const int64_t pad = chance(4) ? 8 * (int64_t)below(4) : 0;
    p.q_head = d + pad, p.q_seq = p.heads_q * (d + pad), p.q_batch = p.seqlen_q * p.q_seq;
    p.o_head = d, p.o_seq = p.heads_q * d, p.o_batch = p.seqlen_q * p.o_seq;
    int64_t rows = p.max_seqlen_kv;
    if (chance(2)) { /* paged */
        p.page_size = 1 << below(9);
        p.max_pages_per_seq = (p.max_seqlen_kv + p.page_size - 1) / p.page_size + (int64_t)below(3);
        if (p.max_pages_per_seq < 1)
            p.max_pages_per_seq = 1;
        p.num_pages = p.batch * p.max_pages_per_seq + (int64_t)below(4);
        p.block_table = PTR(region(5, 4));
        rows = p.page_size;
    }
    p.k_head = d, p.k_seq = p.heads_kv * d, p.k_batch = rows * p.k_seq;
    p.v_head = d, p.v_seq = p.heads_kv * d, p.v_batch = rows * p.v_seq;
    p.q = PTR(region(0, 16)), p.o = PTR(region(1, 16));
    p.k = PTR(region(2, 16)), p.v = PTR(region(3, 16));
    p.seqlens_kv = PTR(region(6, 4));
    random_options(&p.lse, &p.causal, &p.scale, &p.window, &p.window_left, &p.window_right,
                   &p.softcap);
    p.num_splits = chance(2) ? 0 : (int)below(TILEOPS_KVCACHE_MAX_SPLITS + 1);
    uintptr_t ws = 0;
    size_t ws_bytes = 0;
    if (p.num_splits > 1 || chance(2))
        ws = region(7, 16), ws_bytes = WS_BIG;
    int query = chance(4);
    int null_bytes = 0;
    for (uint64_t m = below(4); m--;) {
        uintptr_t ps[8] = {UP(p.q), UP(p.o), UP(p.k), UP(p.v), UP(p.lse), UP(p.seqlens_kv),
                           UP(p.block_table), ws};
        int64_t *st[4][3] = {{&p.q_batch, &p.q_seq, &p.q_head}, {&p.o_batch, &p.o_seq, &p.o_head},
                             {&p.k_batch, &p.k_seq, &p.k_head}, {&p.v_batch, &p.v_seq, &p.v_head}};
        switch (below(26)) {
        case 0: p.size = (size_t)mut_i64((int64_t)p.size); break;
        case 1: p.dtype = (tileops_dtype)(chance(2) ? mut_int(p.dtype) : (int)below(3)); break;
        case 2: p.batch = mut_i64(p.batch); break;
        case 3: p.seqlen_q = mut_int(p.seqlen_q); break;
        case 4: p.max_seqlen_kv = mut_i64(p.max_seqlen_kv); break;
        case 5: p.heads_q = mut_int(p.heads_q); break;
        case 6: p.heads_kv = mut_int(p.heads_kv); break;
        case 7: p.head_dim = mut_int(p.head_dim); break;
        case 8: p.causal = mut_int(p.causal); break;
        case 9: p.scale = chance(2) ? -0.5f : chance(2) ? INFINITY : NAN; break;
        case 10: p.window = mut_int(p.window); break;
        case 11: *(chance(2) ? &p.window_left : &p.window_right) = mut_int(-1); break;
        case 12: p.softcap = chance(2) ? -1.0f : chance(2) ? NAN : INFINITY; break;
        case 13: p.num_splits = mut_int(p.num_splits); break;
        case 14: p.page_size = mut_int(p.page_size); break;
        case 15: p.max_pages_per_seq = mut_i64(p.max_pages_per_seq); break;
        case 16: p.num_pages = mut_i64(p.num_pages); break;
        case 17: { int64_t *s = st[below(4)][below(3)]; *s = mut_i64(*s); } break;
        case 18: { int64_t *s = st[below(4)][below(3)]; *s = wrap_add(*s, 8 * ((int64_t)below(5) - 2)); } break;
        case 19: p.q = PTR(mut_ptr(UP(p.q), ps, 8)); break;
        case 20: p.o = PTR(mut_ptr(UP(p.o), ps, 8)); break;
        case 21: *(chance(2) ? &p.k : &p.v) = PTR(mut_ptr(UP(p.k), ps, 8)); break;
        case 22: p.lse = (float *)PTR(mut_ptr(UP(p.lse), ps, 8)); break;
        case 23: p.seqlens_kv = PTR(mut_ptr(UP(p.seqlens_kv), ps, 8)); break;
        case 24: p.block_table = chance(4) ? NULL : PTR(mut_ptr(UP(p.block_table), ps, 8)); break;
        default:
            switch (below(4)) {
            case 0: ws = mut_ptr(ws, ps, 8); break;
            case 1: { /* below anything forced splits need, or past it */
                static const size_t sizes[] = {0, 16, 2 * WS_BIG, (size_t)INT64_MAX, SIZE_MAX};
                ws_bytes = sizes[below(5)];
                break;
            }
            case 2: ws = 0; break;
            default: null_bytes = query; break;
            }
            break;
        }
    }
    /* forced splits: the workspace the query asks for, a byte less, or more */
    size_t need = SIZE_MAX;
    if (!query && p.num_splits > 1 && h) {
        size_t b = 0;
        if (tileops_attention_kvcache_workspace_size(h, &p, &b) == TILEOPS_SUCCESS) {
            need = b;
            const size_t pick[4] = {b, b ? b - 1 : 0, 16, b <= SIZE_MAX / 2 ? 2 * b : b};
            ws_bytes = pick[below(4)];
        }
    }
    struct verdict v = {0, 0, NULL};
    if (null_bytes) BAD(&v, "bytes NULL");
    kvcache_oracle(&v, h, &p, query, ws, ws_bytes, need);
    snprintf(last_call, sizeof last_call, "attention_kvcache%s(size %zu, dtype %d, batch %" PRId64
             ", seqlen_q %d, max_seqlen_kv %" PRId64 ", heads %d/%d, dim %d, q %p [%" PRId64 " %"
             PRId64 " %" PRId64 "], o %p [%" PRId64 " %" PRId64 " %" PRId64 "], k %p [%" PRId64
             " %" PRId64 " %" PRId64 "], v %p [%" PRId64 " %" PRId64 " %" PRId64 "], lse %p, "
             "seqlens %p, table %p (%" PRId64 " a seq, %" PRId64 " pages of %d), causal %d, "
             "window %d %d %d, scale %g, softcap %g, splits %d, ws %#" PRIxPTR " %zu)",
             query ? "_workspace_size" : "", p.size, (int)p.dtype, p.batch, p.seqlen_q,
             p.max_seqlen_kv, p.heads_q, p.heads_kv, p.head_dim, p.q, p.q_batch, p.q_seq, p.q_head,
             p.o, p.o_batch, p.o_seq, p.o_head, p.k, p.k_batch, p.k_seq, p.k_head, p.v, p.v_batch,
             p.v_seq, p.v_head, (void *)p.lse, (const void *)p.seqlens_kv,
             (const void *)p.block_table, p.max_pages_per_seq, p.num_pages, p.page_size, p.causal,
             p.window, p.window_left, p.window_right, (double)p.scale, (double)p.softcap,
             p.num_splits, ws, ws_bytes);
    clear_error();
    if (query) {
        size_t bytes = 1;
        judge("tileops_attention_kvcache_workspace_size",
              tileops_attention_kvcache_workspace_size(h, &p, null_bytes ? NULL : &bytes), &v, NULL);
    } else {
        judge("tileops_attention_kvcache",
              tileops_attention_kvcache(h, &p, PTR(ws), ws_bytes, NULL), &v, h);
    }
}

static void append_oracle(struct verdict *v, tileops_handle h, const tileops_kv_append_params *p)
{
    if (!h) BAD(v, "NULL handle");
    if (p->size < sizeof *p) { BAD(v, "size"); return; }
    if (p->dtype == TILEOPS_F32) UNSUP(v, "f32 append");
    else if (!dtype_ok(p->dtype)) BAD(v, "dtype");
    if (p->tokens < 0) { BAD(v, "tokens < 0"); return; }
    if (p->heads_kv < 1 || p->head_dim < 1 || p->blocks < 1 || p->block_rows < 1) {
        BAD(v, "heads_kv, head_dim, blocks or block_rows < 1");
        return;
    }
    const void *ptr[4] = {p->k_new, p->v_new, p->k_cache, p->v_cache};
    const int64_t sizes[4][3] = {{1, p->tokens, p->heads_kv}, {1, p->tokens, p->heads_kv},
                                 {p->blocks, p->block_rows, p->heads_kv},
                                 {p->blocks, p->block_rows, p->heads_kv}};
    const int64_t strides[4][3] = {{0, p->k_new_token, p->k_new_head}, {0, p->v_new_token, p->v_new_head},
                                   {p->k_block, p->k_row, p->k_head}, {p->v_block, p->v_row, p->v_head}};
    u128 bytes[4], slot_bytes;
    for (int i = 0; i < 4; i++)
        if (!view_oracle(v, ptr[i], sizes[i], strides[i], p->head_dim, &bytes[i]))
            return;
    if ((u128)p->blocks * (u128)p->block_rows > (u128)INT64_MAX) { BAD(v, "blocks x block_rows"); return; }
    if (!array_oracle(v, p->slots, p->tokens, 8, &slot_bytes))
        return;
    /* the caches may share a buffer; neither overlaps what is read */
    const uintptr_t in[3] = {UP(p->k_new), UP(p->v_new), UP(p->slots)};
    const u128 inb[3] = {bytes[0], bytes[1], slot_bytes};
    for (int c = 2; c < 4; c++)
        for (int i = 0; i < 3; i++)
            if (meets(UP(ptr[c]), bytes[c], in[i], inb[i])) BAD(v, "the cache overlaps an input");
    if (p->head_dim % 8) UNSUP(v, "head_dim not a multiple of 8");
}

static void fuzz_append(tileops_handle h)
{
    tileops_kv_append_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.dtype = below(2) ? TILEOPS_F16 : TILEOPS_BF16;
    p.tokens = logu(8) - 1;
    p.heads_kv = 1 << below(4);
    p.head_dim = 8 << below(6);
    const int64_t d = p.head_dim;
    p.k_new_head = p.v_new_head = d, p.k_new_token = p.v_new_token = p.heads_kv * d;
    p.blocks = logu(10), p.block_rows = logu(9);
    p.k_head = p.v_head = d, p.k_row = p.v_row = p.heads_kv * d;
    p.k_block = p.v_block = p.block_rows * p.k_row;
    p.k_new = PTR(region(0, 16)), p.v_new = PTR(region(1, 16));
    p.k_cache = PTR(region(2, 16));
    /* K and V of a page side by side in one buffer, now and then */
    p.v_cache = chance(4) ? PTR(UP(p.k_cache) + (uintptr_t)d * 2) : PTR(region(3, 16));
    if (UP(p.v_cache) - UP(p.k_cache) == (uintptr_t)d * 2)
        p.k_head = p.v_head = 2 * d, p.k_row = p.v_row = 2 * p.heads_kv * d,
        p.k_block = p.v_block = p.block_rows * p.k_row;
    p.slots = PTR(region(4, 8));
    for (uint64_t m = below(4); m--;) {
        uintptr_t ps[5] = {UP(p.k_new), UP(p.v_new), UP(p.k_cache), UP(p.v_cache), UP(p.slots)};
        int64_t *st[4][2] = {{&p.k_new_token, &p.k_new_head}, {&p.v_new_token, &p.v_new_head},
                             {&p.k_row, &p.k_head}, {&p.v_row, &p.v_head}};
        switch (below(14)) {
        case 0: p.size = (size_t)mut_i64((int64_t)p.size); break;
        case 1: p.dtype = (tileops_dtype)(chance(2) ? mut_int(p.dtype) : (int)below(3)); break;
        case 2: p.tokens = mut_i64(p.tokens); break;
        case 3: p.heads_kv = mut_int(p.heads_kv); break;
        case 4: p.head_dim = mut_int(p.head_dim); break;
        case 5: p.blocks = mut_i64(p.blocks); break;
        case 6: p.block_rows = mut_i64(p.block_rows); break;
        case 7: { int64_t *s = st[below(4)][below(2)]; *s = mut_i64(*s); } break;
        case 8: *(chance(2) ? &p.k_block : &p.v_block) = mut_i64(p.k_block); break;
        case 9: { int64_t *s = st[below(4)][below(2)]; *s = wrap_add(*s, 8 * ((int64_t)below(5) - 2)); } break;
        case 10: *(chance(2) ? &p.k_new : &p.v_new) = PTR(mut_ptr(UP(p.k_new), ps, 5)); break;
        case 11: p.k_cache = PTR(mut_ptr(UP(p.k_cache), ps, 5)); break;
        case 12: p.v_cache = PTR(mut_ptr(UP(p.v_cache), ps, 5)); break;
        default: p.slots = PTR(mut_ptr(UP(p.slots), ps, 5)); break;
        }
    }
    struct verdict v = {0, 0, NULL};
    append_oracle(&v, h, &p);
    snprintf(last_call, sizeof last_call, "kv_cache_append(size %zu, dtype %d, tokens %" PRId64
             ", heads %d, dim %d, k_new %p [%" PRId64 " %" PRId64 "], v_new %p [%" PRId64 " %"
             PRId64 "], k_cache %p [%" PRId64 " %" PRId64 " %" PRId64 "], v_cache %p [%" PRId64
             " %" PRId64 " %" PRId64 "], blocks %" PRId64 " x %" PRId64 ", slots %p)", p.size,
             (int)p.dtype, p.tokens, p.heads_kv, p.head_dim, p.k_new, p.k_new_token, p.k_new_head,
             p.v_new, p.v_new_token, p.v_new_head, p.k_cache, p.k_block, p.k_row, p.k_head,
             p.v_cache, p.v_block, p.v_row, p.v_head, p.blocks, p.block_rows, (const void *)p.slots);
    clear_error();
    judge("tileops_kv_cache_append", tileops_kv_cache_append(h, &p, NULL), &v, h);
}

/* ---- handles --------------------------------------------------------------------------- */
#define MAXH 32
static tileops_handle handles[MAXH];
static int nhandles;

static void make_handles(void)
{
    static const int ccs[] = {70, 75, 80, 86, 89, 90};
    static const int smems[] = {227 * 1024, 99 * 1024, 48 * 1024};
    int tiers_seen[3] = {0, 0, 0};
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0]; c++)
        for (size_t s = 0; s < sizeof smems / sizeof smems[0]; s++) {
            struct tileops_device dev = {0, ccs[c], (int)(1 + below(200)), smems[s], "fake",
                                         (int)below(2)};
            tileops_handle h = NULL;
            if (tileops__create_from(&h, &dev, tileops_built_tiers, tileops_built_tier_count, 1) !=
                TILEOPS_SUCCESS)
                continue; /* no tier of this build serves that device */
            tileops_set_dry_run(h, 1);
            tiers_seen[tileops_get_tier(h) / 10 - 7] = 1;
            handles[nhandles++] = h;
        }
    for (int t = 0; t < tileops_built_tier_count; t++)
        if (!tiers_seen[tileops_built_tiers[t].tier / 10 - 7]) {
            fprintf(stderr, "PROBLEM: no fake handle got the built tier sm%d\n",
                    tileops_built_tiers[t].tier);
            problems++;
        }
}

/* Now and then: force a tier, pin or unpin a kernel, or ask the handle something. */
static void fuzz_handle(tileops_handle h)
{
    static const int tiers[] = {0, 70, 80, 90, 60, 100, -1};
    tileops_status st;
    struct verdict v = {0, 0, NULL};
    switch (below(4)) {
    case 0: {
        const int t = chance(8) ? (int)rnd() : tiers[below(7)];
        if (t != 0 && t != 70 && t != 80 && t != 90) BAD(&v, "not a tier");
        if (!h) BAD(&v, "NULL handle");
        snprintf(last_call, sizeof last_call, "set_tier(%d)", t);
        clear_error();
        st = tileops_set_tier(h, (tileops_tier)t);
        if (st == TILEOPS_ERROR_NOT_SUPPORTED && !v.invalid)
            UNSUP(&v, "tier not usable here");
        judge("", st, &v, NULL); /* tier.c's messages name the tier, not the function */
        break;
    }
    case 1: {
        const struct tileops_tier_table *t = &tileops_built_tiers[below((uint64_t)tileops_built_tier_count)];
        const char *name = !chance(4) ? NULL : chance(8) ? "no_such_kernel"
                           : t->kernels[below((uint64_t)*t->count)].name;
        if (!h) BAD(&v, "NULL handle");
        if (name && !strcmp(name, "no_such_kernel")) BAD(&v, "unknown kernel");
        snprintf(last_call, sizeof last_call, "set_kernel(%s)", name ? name : "NULL");
        clear_error();
        judge("tileops_set_kernel", tileops_set_kernel(h, name), &v, NULL);
        break;
    }
    case 2: {
        const int dr = chance(2) ? 1 : (int)rnd() | 1; /* dry run stays on: nothing launches */
        if (!h) BAD(&v, "NULL handle");
        snprintf(last_call, sizeof last_call, "set_dry_run(%d)", dr);
        clear_error();
        judge("tileops_set_dry_run", tileops_set_dry_run(h, dr), &v, NULL);
        break;
    }
    default: {
        const int t = tileops_get_tier(h);
        const char *k = tileops_last_kernel(h);
        if ((h ? t != 70 && t != 80 && t != 90 : t != TILEOPS_TIER_AUTO) || !k ||
            !tileops_status_string((tileops_status)(int)rnd()) || strcmp(tileops_version(), "") == 0) {
            fprintf(stderr, "PROBLEM: get_tier %d or last_kernel %p wrong\n", t, (const void *)k);
            problems++;
        }
        break;
    }
    }
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
    const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    rng_state = seed;
    make_handles();
    if (!nhandles) {
        fprintf(stderr, "test_fuzz_api: no fake handle could be made\n");
        return 1;
    }
    uint64_t per_op[7] = {0};
    while (calls < n) {
        tileops_handle h = chance(64) ? NULL : handles[below((uint64_t)nhandles)];
        const uint64_t before = calls;
        const unsigned op = (unsigned)below(80);
        cur_op = op == 0 ? 0 : op < 10 ? 1 : op < 28 ? 2 : op < 46 ? 3 : op < 64 ? 4
                 : op < 76 ? 5 : 6;
        if (op == 0)
            fuzz_handle(h);
        else if (op < 10)
            fuzz_vector_add(h);
        else if (op < 28)
            fuzz_softmax(h);
        else if (op < 46)
            fuzz_gemm(h);
        else if (op < 64)
            fuzz_attention(h);
        else if (op < 76)
            fuzz_kvcache(h);
        else
            fuzz_append(h);
        per_op[cur_op] += calls - before;
        if (problems >= 1000)
            break;
    }
    printf("test_fuzz_api: %" PRIu64 " calls from seed %" PRIu64 " on %d fake handles "
           "(calls/SUCCESS: handle %" PRIu64 "/%" PRIu64 ", vector_add %" PRIu64 "/%" PRIu64
           ", softmax %" PRIu64 "/%" PRIu64 ", gemm %" PRIu64 "/%" PRIu64 ", attention %" PRIu64
           "/%" PRIu64 ", kvcache %" PRIu64 "/%" PRIu64 ", append %" PRIu64 "/%" PRIu64
           "): %" PRIu64 " SUCCESS, %" PRIu64 " INVALID_VALUE, %" PRIu64
           " NOT_SUPPORTED (%" PRIu64 " of them invalid); %" PRIu64 " problems\n", calls, seed,
           nhandles, per_op[0], op_success[0], per_op[1], op_success[1], per_op[2], op_success[2],
           per_op[3], op_success[3], per_op[4], op_success[4], per_op[5], op_success[5],
           per_op[6], op_success[6], n_success, n_invalid,
           n_unsupported, n_invalid_ns, problems);
    for (int i = 0; i < nhandles; i++)
        tileops_destroy(handles[i]);
    return problems ? 1 : 0;
}
