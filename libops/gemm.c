/* gemm.c: tileops_gemm and its workspace query: check every argument, let the kernels' fit()
 * pick one (tiled, or split-K for small M), launch it. */
#include "internal.h"
#include "op_args.h"
#include "variants.h"

#include <stdint.h>

#define ACTIVATIONS (TILEOPS_EPILOGUE_RELU | TILEOPS_EPILOGUE_GELU_ERF | TILEOPS_EPILOGUE_GELU_TANH)

/* Checks one matrix operand: rows x cols with leading dimension ld, non-null; fills *bytes
 * with the span it covers. */
static tileops_status check_matrix(const char *fn, const char *name, const void *ptr,
                                   int64_t rows, int64_t cols, int64_t ld, int64_t elem,
                                   uint64_t *bytes)
{
    if (!ptr)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, name);
    if (ld < cols)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: ld%s = %lld is less than its row "
                             "width %lld", fn, name, (long long)ld, (long long)cols);
    *bytes = tileops__matrix_bytes(rows, cols, ld, elem);
    if (!*bytes || tileops__range_wraps(ptr, *bytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %s (%lld x %lld, ld %lld) "
                             "overflows the address space", fn, name, (long long)rows,
                             (long long)cols, (long long)ld);
    return TILEOPS_SUCCESS;
}

/* What both entry points share: every argument, then the kernel; fills *args, *workspace and
 * the operands' spans (for the workspace's overlap check). */
static tileops_status prepare(const char *fn, tileops_handle h, const tileops_gemm_params *p,
                              struct tileops_gemm_args *args,
                              const struct tileops_kernel **kernel, size_t *workspace,
                              struct tileops__span spans[5])
{
    tileops_status st = tileops__check_params16(fn, h, p != NULL, p ? p->size : 0, sizeof *p,
                                                "tileops_gemm_params",
                                                p ? p->dtype : TILEOPS_F16, "GEMM");
    if (st != TILEOPS_SUCCESS)
        return st;
    if (p->b_layout != TILEOPS_B_KN && p->b_layout != TILEOPS_B_NK)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: %d is not a layout", fn,
                             (int)p->b_layout);
    if ((st = tileops__check_sizes(fn, 3, (const char *const[]){"m", "n", "k"},
                                   (const int64_t[]){p->m, p->n, p->k})) != TILEOPS_SUCCESS)
        return st;
    if (p->epilogue & ~(unsigned)(TILEOPS_EPILOGUE_BIAS | ACTIVATIONS))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: epilogue 0x%x has unknown flags",
                             fn, p->epilogue);
    const unsigned act = p->epilogue & ACTIVATIONS;
    if (act & (act - 1))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: epilogue 0x%x asks for more than "
                             "one activation", fn, p->epilogue);
    const int has_bias = (p->epilogue & TILEOPS_EPILOGUE_BIAS) != 0;
    if (has_bias != (p->bias != NULL))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, has_bias
                                 ? "%s: the bias flag is set but bias is NULL"
                                 : "%s: bias is given without TILEOPS_EPILOGUE_BIAS", fn);

    const int64_t elem = 2;
    const int nk = p->b_layout == TILEOPS_B_NK;
    uint64_t abytes, bbytes, cbytes = 0, dbytes;
    st = check_matrix(fn, "a", p->a, p->m, p->k, p->lda, elem, &abytes);
    if (st == TILEOPS_SUCCESS)
        st = check_matrix(fn, "b", p->b, nk ? p->n : p->k, nk ? p->k : p->n, p->ldb, elem,
                          &bbytes);
    if (st == TILEOPS_SUCCESS)
        st = check_matrix(fn, "d", p->d, p->m, p->n, p->ldd, elem, &dbytes);
    if (st == TILEOPS_SUCCESS && p->c)
        st = check_matrix(fn, "c", p->c, p->m, p->n, p->ldc, elem, &cbytes);
    if (st != TILEOPS_SUCCESS)
        return st;
    spans[0] = (struct tileops__span){"a", p->a, abytes};
    spans[1] = (struct tileops__span){"b", p->b, bbytes};
    spans[2] = (struct tileops__span){"c", p->c, cbytes};
    spans[3] = (struct tileops__span){"d", p->d, dbytes};
    /* bias: n elements, fewer bytes than d's row (checked above), so no product overflows */
    const uint64_t bias_bytes = has_bias ? (uint64_t)p->n * (uint64_t)elem : 0;
    if (has_bias && tileops__range_wraps(p->bias, bias_bytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: bias (%lld elements) overflows "
                             "the address space", fn, (long long)p->n);
    spans[4] = (struct tileops__span){"bias", p->bias, bias_bytes};
    if (p->c && p->c != p->d && tileops__overlap(p->c, cbytes, p->d, dbytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: c overlaps d without being d", fn);
    if (p->c == p->d && p->c && p->ldc != p->ldd)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: c == d needs ldc == ldd, got %lld "
                             "and %lld", fn, (long long)p->ldc, (long long)p->ldd);
    if (tileops__overlap(p->a, abytes, p->d, dbytes) || tileops__overlap(p->b, bbytes, p->d, dbytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: d overlaps %s", fn,
                             tileops__overlap(p->a, abytes, p->d, dbytes) ? "a" : "b");
    if (has_bias && tileops__overlap(p->bias, spans[4].bytes, p->d, dbytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: bias overlaps d", fn);
    /* Elements are 2 bytes: the any-alignment kernels still load whole elements. */
    const int c_read = p->c && p->beta != 0.0f;
    const uintptr_t odd = ((uintptr_t)p->a | (uintptr_t)p->b | (uintptr_t)p->d |
                           (c_read ? (uintptr_t)p->c : 0) | (has_bias ? (uintptr_t)p->bias : 0)) & 1;
    if (odd)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: a pointer is not aligned to its "
                             "2-byte elements", fn);

    *args = (struct tileops_gemm_args){p->m, p->n, p->k, p->a, p->lda, p->b, p->ldb, p->c,
                                       p->ldc, p->d, p->ldd, p->bias, p->alpha, p->beta,
                                       (int)p->epilogue, NULL, 0, h->dev.sms};
    const int variant = nk ? TILEOPS_GEMM_LAYOUT_NK : TILEOPS_GEMM_LAYOUT_KN;
    /* alignment is each instance's own fit() to judge (pointers and leading dimensions) */
    const struct tileops__call call = {TILEOPS_OP_GEMM, p->dtype, variant, NULL, 0, args};
    *kernel = tileops__find_kernel(h, fn, &call, workspace);
    return *kernel ? TILEOPS_SUCCESS : TILEOPS_ERROR_NOT_SUPPORTED;
}

tileops_status tileops_gemm_workspace_size(tileops_handle h, const tileops_gemm_params *p,
                                           size_t *bytes)
{
    static const char fn[] = "tileops_gemm_workspace_size";
    if (!bytes)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: bytes is NULL", fn);
    *bytes = 0;
    struct tileops_gemm_args args;
    const struct tileops_kernel *k;
    struct tileops__span spans[5];
    return prepare(fn, h, p, &args, &k, bytes, spans);
}

tileops_status tileops_gemm(tileops_handle h, const tileops_gemm_params *p, void *workspace,
                            size_t workspace_bytes, cudaStream_t stream)
{
    static const char fn[] = "tileops_gemm";
    struct tileops_gemm_args args;
    const struct tileops_kernel *k;
    struct tileops__span spans[5];
    tileops_status st = prepare(fn, h, p, &args, &k, NULL, spans);
    if (st != TILEOPS_SUCCESS)
        return st;
    if (workspace && (uintptr_t)workspace % 16)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace is not 16-byte aligned",
                             fn);
    if (workspace && tileops__range_wraps(workspace, workspace_bytes))
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace (%zu bytes) overflows "
                             "the address space", fn, workspace_bytes);
    /* the split-K partials would overwrite an operand */
    const struct tileops__span *over =
        workspace && workspace_bytes ? tileops__overlap_any(workspace, workspace_bytes, spans, 5)
                                     : NULL;
    if (over)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: workspace overlaps %s", fn,
                             over->name);
    /* Less workspace than the chosen kernel planned for: it runs with fewer splits (its
     * launch() plans within what it is given), never past the end. */
    args.workspace = workspace;
    args.workspace_bytes = workspace ? workspace_bytes : 0;
    return tileops__launch(h, fn, k, &args, stream);
}
