/* op_args.h: the argument struct each operator's launcher takes. Shared by the C runtime
 * (which fills it after validation) and the generated CUDA (which reads it). Internal. */
#ifndef TILEOPS_OP_ARGS_H
#define TILEOPS_OP_ARGS_H

#include <stdint.h>

/* vector_add: c[i] = a[i] + b[i], 0 <= i < n; validated: n >= 1, pointers non-null. */
struct tileops_vector_add_args {
    int64_t n;
    const void *a;
    const void *b;
    void *c;
};

#endif
