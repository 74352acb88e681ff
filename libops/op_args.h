/* op_args.h: the argument struct each operator's launcher takes. Shared by the C runtime
 * (which fills it after validation) and the generated CUDA (which reads it). Internal. */
#ifndef TILEOPS_OP_ARGS_H
#define TILEOPS_OP_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "tileops.h"

/* vector_add: c[i] = a[i] + b[i], 0 <= i < n; validated: n >= 1, pointers non-null. */
struct tileops_vector_add_args {
    int64_t n;
    const void *a;
    const void *b;
    void *c;
};

/* softmax: y[r,:] = softmax(x[r,:]) (or log_softmax, by variant) for 0 <= r < rows; validated:
 * rows, cols >= 1, ld >= cols, pointers non-null, y == x (same ld) or no overlap, workspace
 * at least what the kernel's fit() asked for and 16-byte aligned. */
struct tileops_softmax_args {
    int64_t rows, cols;
    const void *x;
    int64_t ldx; /* elements between row starts */
    void *y;
    int64_t ldy;
    void *workspace;
    size_t workspace_bytes;
    int sms;     /* the device's multiprocessors: how many row chunks can wait for each other */
};

/* gemm: D[m,n] = epilogue(alpha * A[m,k]·op(B) + beta * C[m,n]), row-major, leading
 * dimensions in elements; op(B) = B for B stored [k,n] (variant layout kn) and Bᵀ for B stored
 * [n,k] (layout nk). Validated (libops/gemm.c): m, n, k >= 1; ld >= the row width; a, b, d
 * non-null; c NULL (no C term), d itself, or not overlapping d; bias non-null when the
 * TILEOPS_EPILOGUE_BIAS flag is set (NULL otherwise); at most one activation flag.
 * beta == 0 means C is not read. workspace: workspace_bytes of device memory, at least what
 * the kernel's fit() reported, or NULL when that is 0. */
struct tileops_gemm_args {
    int64_t m, n, k;
    const void *a;
    int64_t lda;
    const void *b;
    int64_t ldb;
    const void *c; /* NULL: no C term */
    int64_t ldc;
    void *d;
    int64_t ldd;
    const void *bias; /* n elements, or NULL */
    float alpha, beta;
    int epilogue;     /* TILEOPS_EPILOGUE_* flags */
    void *workspace;
    size_t workspace_bytes;
    int sms;          /* the device's multiprocessors: waves and split-K plans */
};

#endif
