/* tune_key.h: how a call maps to an entry of a tuning table. Shared by the runtime (a call's
 * key), tileops-gen (a table entry's key) and tileops-tune (which shapes share a bucket), so
 * the three cannot disagree. Internal. */
#ifndef TILEOPS_TUNE_KEY_H
#define TILEOPS_TUNE_KEY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILEOPS_TUNE_DIMS 3

/* What a tuning table keys one operator by, besides dtype and variant: up to three sizes,
 * binned by powers of two (a bucket) or taken exactly, and a class that is matched exactly. */
struct tileops_tune_op {
    int op;                                /* enum tileops_op */
    const char *name;                      /* "gemm": the API operator a table entry names */
    int ndims;
    const char *dims[TILEOPS_TUNE_DIMS];   /* their names in a table: "m", "n", "k" */
    int nclasses;
    const char *classes[4];                /* class names; the first is the default */
};

/* The operator called `name`; NULL if none. */
const struct tileops_tune_op *tileops__tune_op(const char *name);

/* The power-of-two bin of a size: 0 for x <= 0, else floor(log2 x) + 1 (1, 2-3, 4-7, ...). */
int tileops__tune_bin(int64_t x);

/* The bucket key of (op, dtype, variant, class, binned dims); unused dims are 0. Entries and
 * calls with equal keys share a bucket. */
uint64_t tileops__tune_key(int op, int dtype, int variant, int cls,
                           const int64_t dims[TILEOPS_TUNE_DIMS]);

/* A call's dims and class as a table keys them, from its operator's argument struct
 * (op_args.h). Returns 0, or -1 for an operator tables do not cover. */
int tileops__tune_shape(int op, const void *args, int64_t dims[TILEOPS_TUNE_DIMS], int *cls);

#ifdef __cplusplus
}
#endif

#endif
