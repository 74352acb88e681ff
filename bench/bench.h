/* bench.h: what the parts of tileops-bench share: the parsed options, the per-run context
 * that main.c sets up, the operators' entry points, enum names and call checking. */
#ifndef TILEOPS_BENCH_H
#define TILEOPS_BENCH_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "tileops.h"
#include "timing.h"

#define BENCH_MAX_DTYPES 3
#define BENCH_MAX_TIERS 4
#define BENCH_MAX_KERNELS 4096 /* --kernel's list, and a tier's kernels for --list-kernels */
#define BENCH_MAX_SEQLENS 64   /* --seqlens' list */

/* The command line, validated. Lists hold one value, or every value for "all". */
struct bench_opts {
    int64_t n;                                /* elements (vector_add), bytes (ceiling) */
    int64_t shape[4];                         /* --shape: rows x cols (softmax), m x n x k */
    int shape_dims;                           /* (gemm) or batch x seqlen x heads x head_dim
                                                 (attention); 0: the operator's default list */
    int log;                                  /* softmax: log-softmax */
    int nlayouts;                             /* gemm: B as [K,N], [N,K] or both */
    tileops_layout layouts[2];
    int nepilogues;                           /* gemm: none, bias+relu, bias+gelu */
    unsigned epilogues[3];
    int ncausal;                              /* attention: causal off, on or both */
    int causal[2];
    int window;                               /* attention: --window W: window_left W, or -1 */
    double softcap;                           /* attention: --softcap C (0: none) */
    int nseqlens;                             /* attention: --seqlens, a varlen batch (0: */
    int seqlens[BENCH_MAX_SEQLENS];           /* none): its sequences' lengths */
    int splits;                               /* decode: --splits N (0: dispatch chooses) */
    int reps;                                 /* timed repetitions per case */
    int offset;                               /* elements past alignment, every operand */
    int ndtypes;
    tileops_dtype dtypes[BENCH_MAX_DTYPES];
    int ntiers;
    tileops_tier tiers[BENCH_MAX_TIERS];
    const char *csv;                          /* CSV output path, or NULL */
    const char *kernels[BENCH_MAX_KERNELS];  /* --kernel: the instances to use, in turn */
    int nkernels;                             /* 0: dispatch chooses */
    int list_kernels;                         /* --list-kernels: name, don't run */
    int measure;                              /* --measure: time tileops alone, print lines */
    double prune;                             /* --prune: give up past this × the best */
    int untuned;                              /* --untuned: also time the cost model's pick */
};

/* What main.c hands to an operator's benchmark: options, the device, one stream and a
 * timer (with its L2 flush buffer) built on that stream. */
struct bench_ctx {
    const struct bench_opts *opts;
    const char *op_prefix;      /* the API operator's name: "gemm", "flash_attention" */
    int device;
    cudaStream_t stream;
    struct bench_timer *timer;
};

/* One benchmark per operator, each in bench_<op>.c. Returns 0, or -1 after printing why to
 * stderr; either way everything it allocated is freed. */
int bench_vector_add(const struct bench_ctx *ctx);
int bench_softmax(const struct bench_ctx *ctx);
int bench_gemm(const struct bench_ctx *ctx);
int bench_attention(const struct bench_ctx *ctx);
int bench_decode(const struct bench_ctx *ctx);
int bench_ceiling(const struct bench_ctx *ctx);
int bench_device(const struct bench_ctx *ctx);

/* bench_ceiling.c: the dense tensor-core peak of this device in TFLOP/s, f16 or bf16 inputs
 * (bf16 set) with fp32 accumulate, from a short run (a few ms) of a ceiling probe: wgmma
 * m64n256k16 (the sm90 tier's rate) when wgmma is set, else mma.sync m16n8k16 (the sm70 and
 * sm80 tiers'). Writes the probe's launch shape to config[len] (tileops-bench ceiling's config
 * column). Returns 0; 1 when this device or build cannot run the probe (why in config); -1 on a
 * failure (message printed). */
int bench_tensor_peak(const struct bench_ctx *ctx, int wgmma, int bf16, double *tflops,
                      char *config, size_t len);

/* enums.c: names of dtypes and tiers as the command line spells them. */
const char *bench_dtype_name(tileops_dtype dtype);
const char *bench_tier_name(tileops_tier tier);
size_t bench_dtype_size(tileops_dtype dtype);
/* Parse one name, or "all" (for tiers: sm70 sm80 sm90), into out[0..*n); 0 on success, -1
 * for an unknown name. out holds BENCH_MAX_DTYPES or BENCH_MAX_TIERS entries. */
int bench_parse_dtypes(const char *s, tileops_dtype *out, int *n);
int bench_parse_tiers(const char *s, tileops_tier *out, int *n);

/* check.c: 1 if the call succeeded; otherwise print "tileops-bench: what: reason" (for
 * tileops, the library's own message, which names the function) to stderr and return 0,
 * so that callers read `if (!bench_cuda_ok(...)) goto out;`. */
int bench_cuda_ok(cudaError_t err, const char *what);
int bench_tileops_ok(tileops_status st, const char *what);
/* check.c: sets the handle's tier, pins it to `kernel` (NULL: dispatch chooses) and, for
 * --list-kernels, sets dry run. */
tileops_status bench_use_tier(tileops_handle h, const struct bench_opts *o, tileops_tier tier,
                              const char *kernel);
/* check.c: the kernels each row of a case runs, in turn (NULL: dispatch's choice): --kernel's
 * list, else dispatch's choice alone; with --list-kernels, dispatch's choice and then every
 * kernel of the tier. Starts a new case for --prune. Returns the list and its length in *n
 * (at least 1), or NULL (message printed). */
const char *const *bench_row_kernels(const struct bench_ctx *ctx, tileops_tier tier, int *n);
/* An operator's workspace query for its call in arg, on handle h. */
typedef tileops_status (*bench_ws_query_fn)(tileops_handle h, void *arg, size_t *bytes);
/* check.c: --untuned: times run(arg), the row's call, again with *h (the row's handle) swapped
 * for a handle on the same tier created with TILEOPS_TUNED=0 (the cost model's choice) and, for
 * an operator with a workspace (query not NULL), *ws and *ws_bytes for one that handle's kernel
 * needs; restores them. Returns 0, or -1 (message printed). */
int bench_time_untuned(const struct bench_ctx *ctx, tileops_handle *h, void **ws,
                       size_t *ws_bytes, bench_ws_query_fn query, bench_op_fn run, void *arg,
                       struct bench_stats *st);
/* check.c: the columns every tuned operator's row ends with, from the row's handle h after its
 * calls: tuned ("yes" when h's tuning table chose the kernel, else "no"), untuned_us and gain
 * (untuned_us / median_us), "-" where untuned is NULL (no --untuned). */
#define BENCH_TUNED_COLUMNS {"tuned", 5, 0}, {"untuned_us", 10, 1}, {"gain", 5, 1}
void bench_tuned_columns(tileops_handle h, double median_us, const struct bench_stats *untuned,
                         char tuned[8], char us[24], char gain[24]);
/* check.c: the lines tileops-tune reads, on stdout, for the handle's last kernel:
 * "auto NAME" (dispatch's choice) or "candidate NAME" (--list-kernels), "measured NAME
 * MEDIAN_US NOISE_US" (--measure), "wrong NAME" (its result disagreed with the reference).
 * Return 0. */
int bench_print_choice(tileops_handle h, const char *kernel);
int bench_print_measured(tileops_handle h, const struct bench_stats *s);
int bench_print_wrong(tileops_handle h);
/* Print "tileops-bench: " and a printf-style message to stderr. */
void bench_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* TILEOPS_BENCH_H */
