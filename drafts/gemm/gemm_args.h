/* gemm_args.h: the GEMM argument struct, as it will go into libops/op_args.h (draft: until then
 * the harness includes this file). Shared by the C runtime, which fills it after validation,
 * and the generated CUDA, which reads it. */
#ifndef TILEOPS_GEMM_ARGS_H
#define TILEOPS_GEMM_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* Epilogue flags, combinable: D = act(alpha * A·op(B) + beta * C + bias). At most one
 * activation (RELU, GELU_ERF, GELU_TANH) is set; the runtime validates that. */
enum { TILEOPS_EPI_BIAS = 1, TILEOPS_EPI_RELU = 2, TILEOPS_EPI_GELU_ERF = 4, TILEOPS_EPI_GELU_TANH = 8 };

/* gemm: D[m,n] = epilogue(alpha * A[m,k]·op(B) + beta * C[m,n]), row-major, leading dimensions
 * in elements. op(B) = B for B stored [k,n] (layout kn) and Bᵀ for B stored [n,k] (layout nk,
 * weights as y = x·Wᵀ). Validated: m, n, k >= 1; ld >= the row width; a, b, d non-null; c NULL
 * (no C term; beta ignored) or exactly d or not overlapping d; bias NULL or n elements when
 * TILEOPS_EPI_BIAS is set. beta == 0 means C is not read (NaNs in C do not propagate), as in
 * BLAS. workspace: workspace_bytes bytes of device memory for the kernel chosen (split-K
 * partials), at least what its fit() reported; may be NULL when that is 0. */
struct tileops_gemm_args {
    int64_t m, n, k;
    const void *a; int64_t lda;
    const void *b; int64_t ldb;
    const void *c; int64_t ldc;   /* NULL: no C term */
    void *d;       int64_t ldd;
    const void *bias;              /* N elements, or NULL */
    float alpha, beta;
    int epilogue;                  /* TILEOPS_EPI_* flags, already validated */
    void *workspace; size_t workspace_bytes;
};

#endif
