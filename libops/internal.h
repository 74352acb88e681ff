/* internal.h: the handle and the runtime's shared helpers. Not installed. Tests include it
 * to build handles from fake device properties. */
#ifndef TILEOPS_INTERNAL_H
#define TILEOPS_INTERNAL_H

#include "registry.h"
#include "tileops.h"

/* What the runtime needs to know of a device, queried once per handle. */
struct tileops_device {
    int ordinal;     /* CUDA device index */
    int cc;          /* compute capability as 10 * major + minor: 90 for 9.0 */
    int sms;         /* multiprocessors */
    int smem_optin;  /* opt-in shared memory per block, bytes */
    char name[256];  /* "NVIDIA H200": the key of per-GPU tuning tables */
    int coop;        /* takes cooperative launches (cudaDevAttrCooperativeLaunch) */
};

struct tileops_handle_st {
    struct tileops_device dev;
    const struct tileops_tier_table *tiers; /* the tiers this handle may use */
    int ntiers;
    const struct tileops_tier_table *tier;  /* the one calls use now */
    int fake;                               /* built from fake properties: no device */
    int dry_run;
    const char *pinned;                     /* tileops_set_kernel: the only kernel, or NULL */
    const char *last_kernel;
    const struct tileops_tuned_table *tuned; /* the device's tuning table, or NULL */
    int chose_tuned;                        /* find_kernel's last choice came from it */
    int last_tuned;                         /* the last call's kernel came from it */
};

/* status.c: records the detail message of a failure for tileops_last_error() and returns
 * the status, so that a check reads `return tileops__fail(…)`. */
tileops_status tileops__fail(tileops_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* tier.c: the tier for compute capability cc among `tiers` (the best usable one when
 * requested is TILEOPS_TIER_AUTO, else that one). NULL, with the message recorded and
 * *status set, when none can serve. */
const struct tileops_tier_table *tileops__choose_tier(int cc, int requested,
                                                      const struct tileops_tier_table *tiers,
                                                      int ntiers, tileops_status *status);

/* handle.c: a handle for the given device properties and tier tables; no CUDA call is made.
 * Tests use it with fake properties; tileops_create uses it with the real ones. */
tileops_status tileops__create_from(tileops_handle *handle, const struct tileops_device *dev,
                                    const struct tileops_tier_table *tiers, int ntiers,
                                    int fake);

/* tuned.c: the table for a device of compute capability cc with sms multiprocessors among
 * `tables` (its own (cc, sms), else an alias); NULL if none or TILEOPS_TUNED=0. */
const struct tileops_tuned_table *tileops__tuned_table_for(int cc, int sms,
                                                           const struct tileops_tuned_table *tables,
                                                           int n);

struct tileops__call;
/* tuned.c: the entry of table t for call c: its exact shape's, else its bucket's; NULL if
 * neither (or t is NULL). */
const struct tileops_tuned_entry *tileops__tuned_lookup(const struct tileops_tuned_table *t,
                                                        const struct tileops__call *c);

/* A call as dispatch sees it. */
struct tileops__call {
    int op;                 /* enum tileops_op */
    int dtype;
    int variant;            /* sum of the call's codes from generated/variants.h; 0 if none */
    const void *const *ptrs; /* every pointer argument, for the alignment check */
    int nptrs;
    const void *args;       /* the operator's argument struct, for the kernels' fit() */
};

/* dispatch.c: among the handle's tier's kernels for the call's op, dtype and variant whose
 * alignment every pointer meets and whose shared memory the device has, the one whose fit()
 * gives the lowest cost (the earliest on a tie), with the workspace it needs in *workspace
 * (may be NULL); NULL (message recorded) if none. */
const struct tileops_kernel *tileops__find_kernel(tileops_handle h, const char *fn,
                                                  const struct tileops__call *c,
                                                  size_t *workspace);

/* dispatch.c: the last steps of every call: remembers the kernel, honours dry-run, checks
 * the current device and launches. */
tileops_status tileops__launch(tileops_handle h, const char *fn,
                               const struct tileops_kernel *k, const void *args,
                               cudaStream_t stream);

/* check.c: is dtype one of the enum's values? */
int tileops__dtype_valid(tileops_dtype dtype);

/* check.c: the start of every call that takes a size-prefixed params struct (`type`, of
 * `expected` bytes) with a 16-bit dtype: a handle, params (has_params), a size of at least
 * `expected`, and dtype f16 or bf16 for operator `what` (another valid dtype is NOT_SUPPORTED).
 * size and dtype are read only when has_params. */
tileops_status tileops__check_params16(const char *fn, tileops_handle h, int has_params,
                                       size_t size, size_t expected, const char *type,
                                       tileops_dtype dtype, const char *what);

/* check.c: the attention mask options both attention entry points take: window 0 or 1, with
 * window 1 each side -1 (unbounded) or >= 0; softcap 0 (none) or positive and finite. */
tileops_status tileops__check_window_softcap(const char *fn, int window, int window_left,
                                             int window_right, float softcap);

/* check.c: the bytes a rows x cols view with row stride ld spans, ((rows - 1) * ld + cols) *
 * elem; 0 if an argument is out of range or the product overflows int64. */
uint64_t tileops__matrix_bytes(int64_t rows, int64_t cols, int64_t ld, int64_t elem);

/* check.c: do the byte ranges [p, p + plen) and [q, q + qlen) overlap? Computed without
 * wrapping for any arguments; an empty range overlaps nothing. */
int tileops__overlap(const void *p, uint64_t plen, const void *q, uint64_t qlen);

/* check.c: does [p, p + bytes) run past the top of the address space (its one-past-the-end
 * address not representable)? Such a range is INVALID_VALUE at every entry point. */
int tileops__range_wraps(const void *p, uint64_t bytes);

/* An operand's bytes, as an entry point's validation measured them. */
struct tileops__span {
    const char *name;
    const void *ptr; /* NULL: an operand the call does not have */
    uint64_t bytes;
};

/* check.c: the first of n spans that [p, p + bytes) overlaps, or NULL. */
const struct tileops__span *tileops__overlap_any(const void *p, uint64_t bytes,
                                                 const struct tileops__span *spans, int n);

/* One [outer, rows, heads, head_dim] operand of 2-byte elements as a call gives it (attention's
 * [batch, seq, heads, head_dim] views, a KV cache's pages). */
struct tileops__view {
    const char *name;       /* "q" */
    const void *ptr;
    int64_t size[3];        /* the three strided dimensions' sizes */
    int64_t stride[3];      /* their element strides, as given */
    const char *const *dims; /* their names for messages: "batch", "seq", "head" */
};

/* check.c: checks n views in order, each: non-null, aligned to its elements, strides >= 0 that
 * nest (sorted by stride, each at least the extent of the dimensions inside it, head_dim
 * contiguous at the bottom), so that no two elements share an address; dimensions of size 1
 * take any stride. Fills spans[i] with what view i covers (a NULL pointer if no element). */
tileops_status tileops__check_views(const char *fn, const struct tileops__view *v, int n,
                                    int64_t head_dim, struct tileops__span *spans);

/* check.c: INVALID_VALUE naming the first of n sizes below 1 (values[i] is names[i]'s), else
 * SUCCESS. */
tileops_status tileops__check_sizes(const char *fn, int n, const char *const *names,
                                    const int64_t *values);

/* check.c: the attention operators' sizes (batch, heads_q, heads_kv, head_dim) as above. */
tileops_status tileops__check_heads(const char *fn, int64_t batch, int heads_q, int heads_kv,
                                    int head_dim);

/* Bytes per element of a valid dtype. */
int tileops__dtype_bytes(tileops_dtype dtype);
const char *tileops__dtype_name(tileops_dtype dtype);

#endif
