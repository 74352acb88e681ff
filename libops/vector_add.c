/* vector_add.c: tileops_vector_add: checks every argument, picks a kernel, launches it. */
#include "internal.h"
#include "op_args.h"

#include <stdint.h>

tileops_status tileops_vector_add(tileops_handle h, tileops_dtype dtype, int64_t n,
                                  const void *a, const void *b, void *c, cudaStream_t stream)
{
    static const char fn[] = "tileops_vector_add";
    if (!h)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: handle is NULL", fn);
    if (!tileops__dtype_valid(dtype))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %d is not a dtype", fn,
                             (int)dtype);
    if (n <= 0)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: n is %lld (must be >= 1)", fn,
                             (long long)n);
    if (!a || !b || !c)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is NULL", fn,
                             !a ? "a" : !b ? "b" : "c");
    const uint64_t elem = (uint64_t)tileops__dtype_bytes(dtype);
    const uint64_t bytes = (uint64_t)n * elem;
    if ((uint64_t)n > (uint64_t)INT64_MAX / elem || tileops__range_wraps(a, bytes) ||
        tileops__range_wraps(b, bytes) || tileops__range_wraps(c, bytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: n = %lld %s elements overflow "
                             "the address space", fn, (long long)n, tileops__dtype_name(dtype));
    const int over_a = c != a && tileops__overlap(c, bytes, a, bytes);
    if (over_a || (c != b && tileops__overlap(c, bytes, b, bytes)))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: c overlaps %s without being "
                             "equal to it", fn, over_a ? "a" : "b");

    const void *ptrs[3] = {a, b, c};
    const struct tileops_vector_add_args args = {n, a, b, c};
    const struct tileops__call call = {TILEOPS_OP_VECTOR_ADD, dtype, 0, ptrs, 3, &args};
    const struct tileops_kernel *k = tileops__find_kernel(h, fn, &call, NULL);
    if (!k)
        return TILEOPS_ERROR_NOT_SUPPORTED;
    return tileops__launch(h, fn, k, &args, stream);
}
