/* check.c: argument checks the operators share. */
#include "internal.h"

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
