/* check.c: argument checks the operators share. */
#include "internal.h"

#include <math.h>

int tileops__dtype_valid(tileops_dtype dtype)
{
    return dtype == TILEOPS_F32 || dtype == TILEOPS_F16 || dtype == TILEOPS_BF16;
}

tileops_status tileops__check_params16(const char *fn, tileops_handle h, int has_params,
                                       size_t size, size_t expected, const char *type,
                                       tileops_dtype dtype, const char *what)
{
    if (!h)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: handle is NULL", fn);
    if (!has_params)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: params is NULL", fn);
    if (size < expected)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: params->size is %zu, expected "
                             "sizeof(%s) = %zu", fn, size, type, expected);
    if (dtype != TILEOPS_F16 && dtype != TILEOPS_BF16)
        return tileops__fail(tileops__dtype_valid(dtype) ? TILEOPS_ERROR_NOT_SUPPORTED
                                                         : TILEOPS_ERROR_INVALID_VALUE,
                             "%s: dtype %d: %s takes f16 or bf16", fn, (int)dtype, what);
    return TILEOPS_SUCCESS;
}

tileops_status tileops__check_window_softcap(const char *fn, int window, int window_left,
                                             int window_right, float softcap)
{
    if (window != 0 && window != 1)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: window is %d (must be 0 or 1)", fn,
                             window);
    if (window && (window_left < -1 || window_right < -1))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is %d (-1 for unbounded, or "
                             ">= 0)", fn, window_left < -1 ? "window_left" : "window_right",
                             window_left < -1 ? window_left : window_right);
    if (!isfinite(softcap) || softcap < 0.0f)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: softcap is %g (0 for none, or "
                             "positive and finite)", fn, (double)softcap);
    return TILEOPS_SUCCESS;
}

uint64_t tileops__matrix_bytes(int64_t rows, int64_t cols, int64_t ld, int64_t elem)
{
    /* ((rows - 1) * ld + cols) * elem, each step checked against INT64_MAX */
    if (rows < 1 || cols < 1 || ld < cols || elem < 1 || rows - 1 > (INT64_MAX - cols) / ld)
        return 0;
    const int64_t n = (rows - 1) * ld + cols;
    if (n > INT64_MAX / elem)
        return 0;
    return (uint64_t)(n * elem);
}

int tileops__overlap(const void *p, uint64_t plen, const void *q, uint64_t qlen)
{
    /* Distances in uintptr_t, so that no sum wraps: [a, a + plen) and [b, b + qlen) meet
     * iff the later start lies inside the earlier range. Empty ranges meet nothing. */
    const uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    if (!plen || !qlen)
        return 0;
    return a >= b ? (uint64_t)(a - b) < qlen : (uint64_t)(b - a) < plen;
}

int tileops__range_wraps(const void *p, uint64_t bytes)
{
    return bytes > (uint64_t)(UINTPTR_MAX - (uintptr_t)p);
}

const struct tileops__span *tileops__overlap_any(const void *p, uint64_t bytes,
                                                 const struct tileops__span *spans, int n)
{
    for (int i = 0; i < n; i++)
        if (spans[i].ptr && tileops__overlap(p, bytes, spans[i].ptr, spans[i].bytes))
            return &spans[i];
    return NULL;
}

static tileops_status check_view(const char *fn, const struct tileops__view *t, int64_t head_dim,
                                 uint64_t *bytes)
{
    *bytes = 0;
    if (!t->ptr)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, t->name);
    if ((uintptr_t)t->ptr % 2)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is not aligned to its 2-byte "
                             "elements", fn, t->name);
    if (!t->size[0] || !t->size[1] || !t->size[2])
        return TILEOPS_SUCCESS; /* no element: nothing read or written */
    int order[3], n = 0;
    for (int i = 0; i < 3; i++) {
        if (t->size[i] == 1)
            continue;
        if (t->stride[i] < 0)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s_%s = %lld is negative", fn,
                                 t->name, t->dims[i], (long long)t->stride[i]);
        int j = n++; /* insertion by stride, ascending */
        for (; j > 0 && t->stride[order[j - 1]] > t->stride[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    int64_t extent = head_dim; /* elements from the first to one past the last */
    for (int k = 0; k < n; k++) {
        const int i = order[k];
        if (t->stride[i] < extent)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s overlaps itself: %s_%s = "
                                 "%lld is less than the %lld elements of the dimensions inside "
                                 "it", fn, t->name, t->name, t->dims[i],
                                 (long long)t->stride[i], (long long)extent);
        if (t->size[i] - 1 > (INT64_MAX / 2 - extent) / t->stride[i])
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s (strides %lld, %lld, %lld) "
                                 "overflows the address space", fn, t->name,
                                 (long long)t->stride[0], (long long)t->stride[1],
                                 (long long)t->stride[2]);
        extent += (t->size[i] - 1) * t->stride[i];
    }
    *bytes = (uint64_t)extent * 2;
    if (tileops__range_wraps(t->ptr, *bytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s (strides %lld, %lld, %lld) "
                             "overflows the address space", fn, t->name,
                             (long long)t->stride[0], (long long)t->stride[1],
                             (long long)t->stride[2]);
    return TILEOPS_SUCCESS;
}

tileops_status tileops__check_views(const char *fn, const struct tileops__view *v, int n,
                                    int64_t head_dim, struct tileops__span *spans)
{
    for (int i = 0; i < n; i++) {
        uint64_t bytes;
        const tileops_status st = check_view(fn, &v[i], head_dim, &bytes);
        if (st != TILEOPS_SUCCESS)
            return st;
        spans[i] = (struct tileops__span){v[i].name, bytes ? v[i].ptr : NULL, bytes};
    }
    return TILEOPS_SUCCESS;
}

tileops_status tileops__check_sizes(const char *fn, int n, const char *const *names,
                                    const int64_t *values)
{
    for (int i = 0; i < n; i++)
        if (values[i] < 1)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is %lld (must be >= 1)", fn,
                                 names[i], (long long)values[i]);
    return TILEOPS_SUCCESS;
}

tileops_status tileops__check_heads(const char *fn, int64_t batch, int heads_q, int heads_kv,
                                    int head_dim)
{
    static const char *const names[4] = {"batch", "heads_q", "heads_kv", "head_dim"};
    const int64_t values[4] = {batch, heads_q, heads_kv, head_dim};
    return tileops__check_sizes(fn, 4, names, values);
}
