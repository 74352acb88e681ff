/* registry.h: the kernel descriptors tileops-gen writes into generated/<tier>/registry.c,
 * and the tables of the tiers this build holds. Internal: not installed. */
#ifndef TILEOPS_REGISTRY_H
#define TILEOPS_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

struct CUstream_st;

/* Operators. The generator writes TILEOPS_OP_<NAME> for specs/<name>.lua. */
enum tileops_op {
    TILEOPS_OP_VECTOR_ADD = 1,
    TILEOPS_OP_SOFTMAX = 2,
    TILEOPS_OP_GEMM = 3,
    TILEOPS_OP_FLASH_ATTENTION = 4,
    TILEOPS_OP_ATTENTION_DECODE = 5,
    TILEOPS_OP_KV_CACHE_APPEND = 6
};

/* A launcher: takes the operator's argument struct (op_args.h), launches on the stream and
 * returns the cudaError_t of the launch as an int (0 on success). */
typedef int (*tileops_launch_fn)(const void *args, struct CUstream_st *stream);

/* The instance's own view of a call (its template's fit()): -1 if it cannot serve these
 * arguments, else an estimated cost (lower is better; dispatch takes the lowest, the earlier
 * entry on a tie), with the caller workspace it would need in *workspace (0 for none). */
typedef int64_t (*tileops_fit_fn)(const void *args, size_t *workspace);

/* One compiled kernel instance. Tables are in preference order: dispatch takes the first
 * entry whose variant matches the call and whose requirements the call meets. */
struct tileops_kernel {
    const char *name;   /* identity: tileops_<op>_<tier>_<variant…>_<config…> */
    int op;             /* enum tileops_op */
    int tier;           /* 70, 80 or 90 */
    int dtype;          /* tileops_dtype */
    int variant;        /* the other variant axes' values, coded as in generated/variants.h */
    int align;          /* bytes every pointer argument must be aligned to */
    int smem;           /* dynamic shared memory per block, bytes */
    const char *config; /* the tuning configuration, "threads=256 vec=4 unroll=4" */
    tileops_launch_fn launch;
    tileops_fit_fn fit;
    int table_only;     /* a tuning table's winner outside the defaults: reached only through
                         * the table (or a pin), never by the cost model, whose choices stay
                         * those it was calibrated on */
};

/* A tier as this build holds it: its kernels and the machine code it was compiled for. */
struct tileops_tier_table {
    int tier;                           /* 70, 80 or 90 */
    int sass;                           /* the sm_XY compiled, e.g. 75 for the sm70 tier on CUDA 13 */
    const struct tileops_kernel *kernels;
    const int *count;                   /* the generated table's length */
};

/* The tiers this build holds (libops/tiers.c), ascending; count in tileops_built_tier_count. */
extern const struct tileops_tier_table tileops_built_tiers[];
extern const int tileops_built_tier_count;

/* A tuning table's choice (tileops-gen writes generated/tuned.c from specs/tuned/<gpu>.lua): the
 * kernel for one bucket of calls (dims all 0) or for one exact shape. */
struct tileops_tuned_entry {
    uint64_t key;      /* tileops__tune_key() (tune_key.h) */
    int64_t dims[3];   /* the exact shape; all 0 for a bucket */
    int tier;          /* 70, 80 or 90: the registry the index is into */
    int index;
};

/* One GPU's table: entries sorted by (key, dims), so that a bucket's entry precedes its exact
 * shapes. A handle takes the table whose (cc, sms) is its device's, else one that lists the
 * pair among its aliases. */
struct tileops_tuned_table {
    const char *name;  /* provenance: the GPU it was measured on */
    int cc, sms;
    const int (*aliases)[2]; /* other (cc, sms) pairs it serves */
    int naliases;
    const struct tileops_tuned_entry *entries;
    int nentries;
};

/* generated/tuned.c */
extern const struct tileops_tuned_table tileops_tuned_tables[];
extern const int tileops_tuned_table_count;

#endif
