/* softmax.c: tileops_softmax and its workspace query: check every argument, pick a kernel by
 * the row length (the kernels' fit()), launch it. */
#include "internal.h"
#include "op_args.h"
#include "variants.h"

#include <stdint.h>

/* Do two row-major views with the same row stride, of rows x cols elements each and starting
 * d >= 0 elements apart, share an element? Only rows q apart can meet: q = floor(d / ld) or the
 * next one, since cols <= ld. No product is formed, so no argument overflows: the first
 * candidate's column offset is d % ld, in [0, ld), the second's d % ld - ld, in [-ld, 0). */
static int strided_views_meet(int64_t d, int64_t rows, int64_t cols, int64_t ld)
{
    const int64_t q = d / ld, r = d % ld;
    if (q < rows && r < cols)
        return 1;
    return q < rows - 1 && r - ld > -cols;
}

/* Checks what both entry points share and chooses the kernel; fills *args, *workspace and
 * the spans of x and y (for the workspace's overlap check). */
static tileops_status prepare(const char *fn, tileops_handle h, tileops_dtype dtype,
                              tileops_softmax_mode mode, int64_t rows, int64_t cols,
                              const void *x, int64_t ldx, const void *y, int64_t ldy,
                              struct tileops_softmax_args *args,
                              const struct tileops_kernel **kernel, size_t *workspace,
                              struct tileops__span spans[2])
{
    if (!h)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: handle is NULL", fn);
    if (!tileops__dtype_valid(dtype))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %d is not a dtype", fn,
                             (int)dtype);
    if (mode != TILEOPS_SOFTMAX_PLAIN && mode != TILEOPS_SOFTMAX_LOG)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %d is not a softmax mode", fn,
                             (int)mode);
    tileops_status st = tileops__check_sizes(fn, 2, (const char *const[]){"rows", "cols"},
                                             (const int64_t[]){rows, cols});
    if (st != TILEOPS_SUCCESS)
        return st;
    if (ldx < cols || ldy < cols)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s = %lld is less than cols = "
                             "%lld", fn, ldx < cols ? "ldx" : "ldy",
                             (long long)(ldx < cols ? ldx : ldy), (long long)cols);
    const int64_t elem = tileops__dtype_bytes(dtype);
    const uint64_t xbytes = tileops__matrix_bytes(rows, cols, ldx, elem);
    const uint64_t ybytes = tileops__matrix_bytes(rows, cols, ldy, elem);
    spans[0] = (struct tileops__span){"x", x, xbytes};
    spans[1] = (struct tileops__span){"y", y, ybytes};
    if (!xbytes || !ybytes || tileops__range_wraps(x, xbytes) || tileops__range_wraps(y, ybytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %lld rows of stride %lld %s "
                             "elements overflow the address space", fn, (long long)rows,
                             (long long)(ldx > ldy ? ldx : ldy), tileops__dtype_name(dtype));
    if (x && y) {
        if (x == y && ldx != ldy)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: in place (y == x) needs "
                                 "ldy == ldx, got %lld and %lld", fn, (long long)ldy,
                                 (long long)ldx);
        /* Ranges that overlap start less than the longer one's bytes (<= INT64_MAX) apart:
         * the distance is taken in uintptr_t, between unrelated pointers too, and only then
         * converted. Views are symmetric, so its sign does not matter. */
        if (x != y && tileops__overlap(x, xbytes, y, ybytes)) {
            const uint64_t d = (uintptr_t)y > (uintptr_t)x ? (uint64_t)((uintptr_t)y - (uintptr_t)x)
                                                           : (uint64_t)((uintptr_t)x - (uintptr_t)y);
            if (ldx != ldy || d % (uint64_t)elem != 0 ||
                strided_views_meet((int64_t)(d / (uint64_t)elem), rows, cols, ldx))
                return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: y overlaps x without "
                                     "being equal to it", fn);
        }
    }

    if ((uintptr_t)x % (uintptr_t)elem || (uintptr_t)y % (uintptr_t)elem)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is not aligned to its %s "
                             "elements (%lld bytes)", fn, (uintptr_t)x % (uintptr_t)elem ? "x" : "y",
                             tileops__dtype_name(dtype), (long long)elem);
    /* Vector instances take rows in any alignment (single loads up to each row's first vector
     * and past its last) as long as x and y are equally misaligned in every row: their
     * `align` is of y - x and (ldy - ldx) * size, passed as the pointers to check (NULL counts
     * as aligned, as the workspace query documents). */
    const void *ptrs[2] = {(const void *)((uintptr_t)y - (uintptr_t)x),
                           (const void *)(uintptr_t)(((uint64_t)ldy - (uint64_t)ldx) *
                                                     (uint64_t)elem)};
    *args = (struct tileops_softmax_args){rows, cols, x, ldx, (void *)y, ldy, NULL, 0,
                                          h->dev.sms, h->dev.coop};
    const int variant = mode == TILEOPS_SOFTMAX_LOG ? TILEOPS_SOFTMAX_MODE_LOG
                                                    : TILEOPS_SOFTMAX_MODE_PLAIN;
    const struct tileops__call call = {TILEOPS_OP_SOFTMAX, dtype, variant, ptrs, 2, args};
    *kernel = tileops__find_kernel(h, fn, &call, workspace);
    return *kernel ? TILEOPS_SUCCESS : TILEOPS_ERROR_NOT_SUPPORTED;
}

tileops_status tileops_softmax_workspace_size(tileops_handle h, tileops_dtype dtype,
                                              tileops_softmax_mode mode, int64_t rows,
                                              int64_t cols, const void *x, int64_t ldx,
                                              const void *y, int64_t ldy, size_t *bytes)
{
    static const char fn[] = "tileops_softmax_workspace_size";
    if (!bytes)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: bytes is NULL", fn);
    *bytes = 0;
    struct tileops_softmax_args args;
    const struct tileops_kernel *k;
    struct tileops__span spans[2];
    return prepare(fn, h, dtype, mode, rows, cols, x, ldx, y, ldy, &args, &k, bytes, spans);
}

tileops_status tileops_softmax(tileops_handle h, tileops_dtype dtype, tileops_softmax_mode mode,
                               int64_t rows, int64_t cols, const void *x, int64_t ldx, void *y,
                               int64_t ldy, void *workspace, size_t workspace_bytes,
                               cudaStream_t stream)
{
    static const char fn[] = "tileops_softmax";
    if (h && (!x || !y))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !x ? "x" : "y");
    struct tileops_softmax_args args;
    const struct tileops_kernel *k;
    size_t need = 0;
    struct tileops__span spans[2];
    tileops_status st =
        prepare(fn, h, dtype, mode, rows, cols, x, ldx, y, ldy, &args, &k, &need, spans);
    if (st != TILEOPS_SUCCESS)
        return st;
    if (workspace && tileops__range_wraps(workspace, workspace_bytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace (%zu bytes) overflows "
                             "the address space", fn, workspace_bytes);
    if (need) {
        if (!workspace || workspace_bytes < need)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %lld x %lld needs %zu bytes "
                                 "of workspace (tileops_softmax_workspace_size), got %zu%s", fn,
                                 (long long)rows, (long long)cols, need,
                                 workspace ? workspace_bytes : 0, workspace ? "" : " (NULL)");
        if ((uintptr_t)workspace % 16)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace is not 16-byte "
                                 "aligned", fn);
        if (tileops__overlap_any(workspace, need, spans, 2))
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace overlaps x or y",
                                 fn);
        args.workspace = workspace;
        args.workspace_bytes = workspace_bytes;
    }
    return tileops__launch(h, fn, k, &args, stream);
}
