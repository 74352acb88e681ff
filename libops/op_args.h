/* op_args.h: the argument struct each operator's launcher takes. Shared by the C runtime
 * (which fills it after validation) and the generated CUDA (which reads it). Internal. */
#ifndef TILEOPS_OP_ARGS_H
#define TILEOPS_OP_ARGS_H

#include <stddef.h>
#include <stdint.h>

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

#endif
