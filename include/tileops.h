/* tileops.h: the public C API of libtileops, an ahead-of-time GPU kernel library.
 *
 * Every entry point validates all of its arguments before any GPU work and returns a status;
 * on failure tileops_last_error() says what was wrong. The library never aborts, prints or
 * exits. Calls launch on the caller's stream, never synchronize and never allocate, so they
 * can be captured in a CUDA graph. Tensors are row-major device buffers owned by the caller.
 * Sizes are checked exactly: a buffer of more than INT64_MAX bytes, or one whose end (one past
 * its last byte) is past the top of the address space, is INVALID_VALUE, whatever the call.
 */
#ifndef TILEOPS_H
#define TILEOPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version (semantic versioning): these macros give the header's, and
 * tileops_version() the linked library's. */
#define TILEOPS_VERSION_MAJOR 0
#define TILEOPS_VERSION_MINOR 1
#define TILEOPS_VERSION_PATCH 0

/* The CUDA runtime's stream type, declared here so that this header needs no CUDA include. */
struct CUstream_st;
typedef struct CUstream_st *cudaStream_t;

/* Status of every call. TILEOPS_SUCCESS is 0; the rest are errors. */
typedef enum tileops_status {
    TILEOPS_SUCCESS = 0,
    TILEOPS_ERROR_INVALID_VALUE = 1, /* a null pointer, a bad size, an unknown enum value */
    TILEOPS_ERROR_NOT_SUPPORTED = 2, /* valid, but this device, tier or build can't serve it */
    TILEOPS_ERROR_NO_DEVICE = 3,     /* no CUDA device, or the device index is out of range */
    TILEOPS_ERROR_CUDA = 4,          /* a CUDA runtime call failed (the message names it) */
    TILEOPS_ERROR_OUT_OF_MEMORY = 5  /* host memory for the handle could not be allocated */
} tileops_status;

/* Element types. Arithmetic is always fp32. */
typedef enum tileops_dtype {
    TILEOPS_F32 = 0,
    TILEOPS_F16 = 1,
    TILEOPS_BF16 = 2
} tileops_dtype;

/* Architecture tiers: each is a set of kernels compiled for one instruction set. */
typedef enum tileops_tier {
    TILEOPS_TIER_AUTO = 0, /* the best tier the build holds at or below the device */
    TILEOPS_TIER_SM70 = 70, /* wmma; Volta and Turing (built as sm_75 by CUDA 13) */
    TILEOPS_TIER_SM80 = 80, /* mma.sync, cp.async; Ampere, Ada and newer non-Hopper GPUs */
    TILEOPS_TIER_SM90 = 90  /* wgmma, TMA; Hopper (compute capability 9.0) */
} tileops_tier;

/* An opaque per-device handle. One handle may be used by one thread at a time; use one
 * handle per thread to call from several threads at once. */
typedef struct tileops_handle_st *tileops_handle;

/* The version of the linked library as "MAJOR.MINOR.PATCH", e.g. "0.1.0". Never NULL; the
 * string is static. */
const char *tileops_version(void);

/* A short fixed description of a status, e.g. "invalid value". Never NULL. */
const char *tileops_status_string(tileops_status status);

/* What went wrong in the last failed call made on this thread (a detail message such as
 * "tileops_vector_add: a is NULL"), or "" if no call on this thread has failed. */
const char *tileops_last_error(void);

/* Creates a handle for CUDA device `device`: queries its properties once and picks its tier
 * (TILEOPS_TIER_AUTO, or the tier named by the environment variable TILEOPS_TIER, e.g.
 * TILEOPS_TIER=sm80). Does not change the calling thread's current device.
 * Returns INVALID_VALUE (handle is NULL), NO_DEVICE, NOT_SUPPORTED (compute capability
 * below 7.0, or no tier built for it), CUDA, OUT_OF_MEMORY. */
tileops_status tileops_create(tileops_handle *handle, int device);

/* Releases a handle. NULL is accepted. Returns SUCCESS. */
tileops_status tileops_destroy(tileops_handle handle);

/* Forces a tier for later calls on this handle (tests, benchmarks), or TILEOPS_TIER_AUTO to
 * go back to the device's own. Returns INVALID_VALUE for an unknown tier, NOT_SUPPORTED for
 * a tier above the device's (sm90 on an Ampere GPU) or one this build does not hold. */
tileops_status tileops_set_tier(tileops_handle handle, tileops_tier tier);

/* The tier calls on this handle use now (never TILEOPS_TIER_AUTO for a handle);
 * TILEOPS_TIER_AUTO for a NULL handle, which records no error. */
tileops_tier tileops_get_tier(tileops_handle handle);

/* With dry_run set, calls validate their arguments and choose their kernel as usual but
 * launch nothing (pointers are then only checked for NULL and alignment): a way to ask which
 * kernel a call would use, through tileops_last_kernel(). */
tileops_status tileops_set_dry_run(tileops_handle handle, int dry_run);

/* Pins the handle's calls to the kernel instance called `name` (as tileops_last_kernel()
 * reports it, or as generated/MANIFEST lists it): dispatch considers no other, and a call
 * that instance cannot serve (another operator, dtype, tier, shape or alignment) returns
 * TILEOPS_ERROR_NOT_SUPPORTED. For benchmarking and testing one instance; NULL unpins.
 * TILEOPS_ERROR_INVALID_VALUE if no tier of this handle holds a kernel of that name. */
tileops_status tileops_set_kernel(tileops_handle handle, const char *name);

/* The name of kernel `index` (0, 1, …) of the handle's tier, in dispatch preference order, or
 * NULL past the last (or for a NULL handle): the names tileops_set_kernel() takes. The string
 * is static. */
const char *tileops_kernel_name(tileops_handle handle, int index);

/* The name of the kernel that the last successful call on this handle chose, e.g.
 * "tileops_vector_add_sm90_f32_t256_v4_u4", or "" if there is none. The string is static. */
const char *tileops_last_kernel(tileops_handle handle);

/* 1 if that kernel came from the handle's tuning table (specs/tuned/: the table measured on
 * this GPU model, chosen once when the handle was created; TILEOPS_TUNED=0 in the environment
 * switches tables off), 0 if the built-in cost model chose it (no table, no entry for the
 * call's shape bucket, or the entry's kernel cannot serve this call), the handle is pinned,
 * or there was no call. */
int tileops_last_kernel_tuned(tileops_handle handle);

/* c[i] = a[i] + b[i] for 0 <= i < n, computed in fp32 and rounded to dtype.
 * a, b and c are device buffers of n elements of dtype; any n >= 1 (beyond 2^31 too).
 * Any pointer alignment works; when a, b and c are all 16-byte aligned a vectorized kernel
 * runs (the fast path), otherwise a scalar one. c may be a or b (in place); any other
 * overlap between c and an input is rejected. Launches on `stream`, no synchronization.
 * Returns INVALID_VALUE (NULL handle or pointer, n <= 0, n * element size overflowing,
 * unknown dtype, c partially overlapping an input, the calling thread's current device not
 * the handle's), NOT_SUPPORTED (no kernel of the tier serves the call), CUDA (launch failed). */
tileops_status tileops_vector_add(tileops_handle handle, tileops_dtype dtype, int64_t n,
                                  const void *a, const void *b, void *c, cudaStream_t stream);

/* Softmax flavours. */
typedef enum tileops_softmax_mode {
    TILEOPS_SOFTMAX_PLAIN = 0, /* y = exp(x - max) / sum(exp(x - max)) */
    TILEOPS_SOFTMAX_LOG = 1    /* y = (x - max) - log(sum(exp(x - max))): log-probabilities */
} tileops_softmax_mode;

/* The workspace tileops_softmax needs for this shape, in bytes: 0 when a row fits one block
 * (on the fast path up to 64 KB of a row on sm80 and sm90: 16384 f32 or 32768 f16/bf16
 * elements; 32768 elements on sm70), else a few bytes per row chunk. The figure depends on
 * the handle's tier and device, and on whether x and y are equally aligned (see
 * tileops_softmax), so pass the same pointers (or NULL, taken as aligned) and strides as the
 * call.
 * Returns INVALID_VALUE (as tileops_softmax), NOT_SUPPORTED. */
tileops_status tileops_softmax_workspace_size(tileops_handle handle, tileops_dtype dtype,
                                              tileops_softmax_mode mode, int64_t rows,
                                              int64_t cols, const void *x, int64_t ldx,
                                              const void *y, int64_t ldy, size_t *bytes);

/* Row-wise softmax (or log-softmax) over the last dimension of a rows x cols row-major
 * matrix: y[r, :] = softmax(x[r, :]). x and y are device buffers of dtype; row r starts at
 * element r * ldx (r * ldy); ld >= cols. fp32 arithmetic. The row max is subtracted first:
 * -inf entries give 0 (log: -inf); a row of only -inf gives NaN, as PyTorch does; a NaN in a
 * row makes that row, and no other, NaN.
 * In place is allowed (y == x with ldy == ldx); any other overlap of x and y is rejected.
 * x and y aligned to their elements. Fast path (16-byte vectors, any row length and any row
 * start): y - x and (ldy - ldx) * size multiples of 16 bytes, as when x and y are two
 * 16-byte aligned buffers with one stride, or the same view of two such buffers, or in
 * place; other layouts run element-wise.
 * Rows longer than one block holds are split across blocks, which exchange partial sums
 * through `workspace` (device memory, 16-byte aligned, at least
 * tileops_softmax_workspace_size bytes; NULL with 0 bytes when that size is 0). Launches on
 * `stream`, no allocation, no synchronization.
 * Returns INVALID_VALUE (NULL handle or pointer, rows or cols < 1, ld < cols, sizes that
 * overflow, unknown dtype or mode, x or y not aligned to its elements, partial overlap,
 * workspace too small, misaligned or over x or y, a workspace range past the end of the
 * address space, the calling thread's current device not the handle's), NOT_SUPPORTED, CUDA. */
tileops_status tileops_softmax(tileops_handle handle, tileops_dtype dtype,
                               tileops_softmax_mode mode, int64_t rows, int64_t cols,
                               const void *x, int64_t ldx, void *y, int64_t ldy,
                               void *workspace, size_t workspace_bytes, cudaStream_t stream);

/* How B is stored for tileops_gemm. */
typedef enum tileops_layout {
    TILEOPS_B_KN = 0, /* B is [k, n], row-major: D = A·B */
    TILEOPS_B_NK = 1  /* B is [n, k], row-major (weights as engines store them): D = A·Bᵀ */
} tileops_layout;

/* Epilogue flags for tileops_gemm, combined with |: a per-column bias, then at most one
 * activation. */
enum {
    TILEOPS_EPILOGUE_NONE = 0,
    TILEOPS_EPILOGUE_BIAS = 1,      /* + bias[col], bias a vector of n elements of dtype */
    TILEOPS_EPILOGUE_RELU = 2,      /* max(x, 0) (NaN stays NaN) */
    TILEOPS_EPILOGUE_GELU_ERF = 4,  /* x·Φ(x), the erf form (PyTorch's default GELU) */
    TILEOPS_EPILOGUE_GELU_TANH = 8  /* the tanh approximation (GELU(approximate='tanh')) */
};

/* One GEMM problem: D = act(alpha·A·op(B) + beta·C + bias), fp32 accumulation, one rounding
 * to dtype at the end. Row-major, leading dimensions in elements. Set `size` to
 * sizeof(tileops_gemm_params) (fields may be added at the end in later versions). */
typedef struct tileops_gemm_params {
    size_t size;
    tileops_dtype dtype;       /* TILEOPS_F16 or TILEOPS_BF16: A, B, C, D and bias */
    tileops_layout b_layout;
    int64_t m, n, k;           /* each >= 1 */
    const void *a;             /* [m, k], lda >= k */
    int64_t lda;
    const void *b;             /* [k, n] (ldb >= n) or [n, k] (ldb >= k) */
    int64_t ldb;
    const void *c;             /* [m, n], ldc >= n; may be d itself; NULL: no C term */
    int64_t ldc;
    void *d;                   /* [m, n], ldd >= n */
    int64_t ldd;
    const void *bias;          /* n elements, when epilogue has TILEOPS_EPILOGUE_BIAS; else NULL */
    float alpha, beta;         /* beta == 0: C is not read */
    unsigned epilogue;         /* TILEOPS_EPILOGUE_* flags */
} tileops_gemm_params;

/* The device workspace tileops_gemm needs for this problem on this handle (0 for most; the
 * split-K kernels, small-M ones and, on Hopper, the wgmma ones where few tiles would leave SMs
 * idle (M = 128, 256), keep fp32 partials there). Returns the statuses of tileops_gemm's
 * validation. */
tileops_status tileops_gemm_workspace_size(tileops_handle handle, const tileops_gemm_params *p,
                                           size_t *bytes);

/* GEMM with fused epilogue on tensor cores (see tileops_gemm_params). Any m, n, k >= 1 and any
 * leading dimensions >= the row width. Fast path: a, b, c, d and bias 16-byte aligned and
 * every leading dimension a multiple of 8 elements (on Hopper, from m = 65, TMA + wgmma
 * kernels, which need exactly that); anything else runs slower element-wise copies. workspace: at least tileops_gemm_workspace_size bytes, 16-byte aligned (NULL when
 * that is 0); with less, a kernel that needs none (or fewer splits) runs. Launches on
 * `stream`, no allocation, no synchronization.
 * bf16 on the sm70 tier is NOT_SUPPORTED (wmma there is fp16 only).
 * Returns INVALID_VALUE (NULL handle, params or pointer; size too small; m, n or k < 1; a
 * leading dimension too small; sizes that overflow; unknown dtype, layout or flag; two
 * activations; bias flag without a bias or a bias without the flag; c overlapping d without
 * being d; workspace misaligned, overlapping an operand or past the end of the address
 * space), NOT_SUPPORTED, CUDA. */
tileops_status tileops_gemm(tileops_handle handle, const tileops_gemm_params *p,
                            void *workspace, size_t workspace_bytes, cudaStream_t stream);

/* One attention problem for tileops_flash_attention. Tensors are [batch, seq, heads,
 * head_dim] views of device memory with element strides (head_dim contiguous): element
 * (b, s, h, d) of q is q[b * q_batch + s * q_seq + h * q_head + d]. Any order of the three
 * strided dimensions works ([batch, heads, seq, dim] too, or views of a fused QKV buffer) as
 * long as no two elements share an address; the stride of a dimension of size 1 is ignored.
 * Set `size` to sizeof(tileops_attention_params) (fields may be added at the end later). */
typedef struct tileops_attention_params {
    size_t size;
    tileops_dtype dtype;       /* TILEOPS_F16 or TILEOPS_BF16: q, k, v and o */
    int64_t batch;             /* sequences, >= 1 */
    int64_t seqlen_q, seqlen_kv; /* per sequence, >= 0; with cu_seqlens: at least the longest */
    int heads_q, heads_kv;     /* >= 1, heads_q a multiple of heads_kv (GQA; MQA: heads_kv 1) */
    int head_dim;              /* 64, 96, 128 or 256 */
    const void *q; int64_t q_batch, q_seq, q_head; /* [batch, seqlen_q, heads_q, head_dim] */
    const void *k; int64_t k_batch, k_seq, k_head; /* [batch, seqlen_kv, heads_kv, head_dim] */
    const void *v; int64_t v_batch, v_seq, v_head; /* as k */
    void *o;       int64_t o_batch, o_seq, o_head; /* as q: the output */
    float *lse;                /* NULL, or fp32 [batch, heads_q, seqlen_q] (with cu_seqlens:
                                  [heads_q, total_q]): log(sum(exp(scale * q·k))) per query */
    float scale;               /* applied to q·k, >= 0; 0 means 1/sqrt(head_dim) */
    int causal;                /* 1: row i sees keys j <= i + seqlen_kv - seqlen_q (bottom-right
                                  aligned, as FlashAttention >= 2.1); 0: every key */
    const int *cu_seqlens_q;   /* NULL, or (device) batch + 1 offsets: sequence b is rows
                                  cu_seqlens_q[b] to cu_seqlens_q[b + 1] of the packed seq dim */
    const int *cu_seqlens_kv;  /* the same for k and v; given with cu_seqlens_q */
    const int *cu_seqlens_q_host;  /* the same offsets in host memory, read by the call to check */
    const int *cu_seqlens_kv_host; /* them and size the grid (no device-to-host copy) */
    /* Added later (a caller whose `size` ends before them keeps the old behaviour); all zero:
     * no window, no softcap. */
    int window;                /* 1: the sliding window below applies; 0: none (both ignored) */
    int window_left, window_right; /* -1: unbounded on that side; else query row i, at position
                                      pos = i + seqlen_kv - seqlen_q, sees keys j with
                                      pos - window_left <= j <= pos + window_right (causal is
                                      window_right 0 and wins over a larger one) */
    float softcap;             /* > 0: scores become softcap * tanh(score / softcap) before the
                                  softmax (score = scale · q·k); 0: none */
} tileops_attention_params;

/* The size of tileops_attention_params before the window and softcap fields. */
#define TILEOPS_ATTENTION_PARAMS_SIZE_V1 offsetof(tileops_attention_params, window)

/* Attention, forward (FlashAttention-3 on the sm90 tier, -2 below it): for every sequence b
 * and query head h,
 *   O[b, :, h, :] = softmax(softcap(scale · Q[b, :, h, :] · K[b, :, hk, :]ᵀ) + mask) · V[b, :, hk, :]
 * with key/value head hk = h / (heads_q / heads_kv) (GQA, MQA), fp32 softmax and accumulation,
 * O rounded to dtype once. seqlen_q and seqlen_kv may differ; the causal mask and the sliding
 * window are bottom-right aligned. A query that sees no key (seqlen_kv = 0, an empty sequence
 * of a batch, causal rows above the first key when seqlen_q > seqlen_kv, a window past the
 * keys) gets O = 0 and LSE = -inf; seqlen_q = 0 is a call that does nothing. When lse is
 * given, it receives each query's log-sum-exp (natural log, of the scores after softcap), fp32.
 * Variable-length batches: with cu_seqlens the sequences are packed along the seq dimension
 * (q is [total_q, heads_q, head_dim] with total_q = cu_seqlens_q[batch], k and v
 * [total_kv, heads_kv, head_dim]), the batch strides are unused, empty sequences are allowed,
 * and all four offset arrays are given: the device ones, read by the kernels, and host copies
 * of the same values, which the call checks (starting at 0, non-decreasing) and sizes the grid
 * from. The device copy must hold the same values; it is not read back.
 * Alignment: q, k, v and o 16-byte aligned and every stride in use a multiple of 8 elements
 * (the kernels move 16-byte chunks with cp.async; there is no slower path for other
 * layouts); lse 4-byte aligned. o and lse must not overlap q, k, v, the offsets or each other.
 * Launches on `stream`, no allocation, no workspace, no synchronization.
 * bf16 on the sm70 tier (wmma there is fp16 only) is NOT_SUPPORTED; sm80 and sm90 serve both
 * dtypes and every head dim.
 * Returns INVALID_VALUE (NULL handle, params, q, k, v or o; size too small; unknown dtype;
 * batch, heads or head_dim < 1; a seqlen < 0; heads_q not a multiple of heads_kv; causal not
 * 0 or 1; scale not finite; window not 0 or 1, or a window side below -1; softcap negative
 * or not finite; a negative stride or strides that make a view overlap itself;
 * sizes that overflow; o or lse overlapping an input or each other; a pointer not aligned to
 * its element; some but not all of the four cu_seqlens; offsets not starting at 0 or
 * decreasing; seqlen_q or seqlen_kv below the longest sequence under cu_seqlens; the calling
 * thread's current device not the handle's), NOT_SUPPORTED (dtype f32; head_dim other than
 * 64, 96, 128, 256; a negative scale; q, k, v or o not 16-byte aligned or a stride not a
 * multiple of 8 elements; a sequence longer than 2^31 - 257; a tier without attention kernels, or no kernel
 * that fits the device), CUDA (the launch failed). */
tileops_status tileops_flash_attention(tileops_handle handle, const tileops_attention_params *p,
                                       cudaStream_t stream);

/* One decode-attention problem for tileops_attention_kvcache: a few new queries per sequence
 * against that sequence's KV cache. Views are [.., .., heads, head_dim] with element strides
 * (head_dim contiguous), as in tileops_attention_params. Set `size` to
 * sizeof(tileops_kvcache_params) (fields may be added at the end later). */
typedef struct tileops_kvcache_params {
    size_t size;
    tileops_dtype dtype;       /* TILEOPS_F16 or TILEOPS_BF16: q, the cache and o */
    int64_t batch;             /* sequences, >= 1 */
    int seqlen_q;              /* new queries per sequence, 1 to 16 (decode, speculative steps) */
    int heads_q, heads_kv;     /* >= 1, heads_q a multiple of heads_kv (GQA; MQA: heads_kv 1) */
    int head_dim;              /* 64, 96, 128 or 256 */
    const void *q; int64_t q_batch, q_seq, q_head; /* [batch, seqlen_q, heads_q, head_dim] */
    void *o;       int64_t o_batch, o_seq, o_head; /* as q: the output */
    float *lse;                /* NULL, or fp32 [batch, heads_q, seqlen_q]: log-sum-exp per query */
    /* The cache. Contiguous (block_table NULL): k is [batch, max_seqlen_kv, heads_kv, head_dim]
     * with strides k_batch, k_seq, k_head. Paged: k is a pool [num_pages, page_size, heads_kv,
     * head_dim], k_batch the stride between pages, k_seq between a page's rows; sequence b's
     * key j lives in page block_table[b * max_pages_per_seq + j / page_size], row
     * j % page_size. v likewise, in the same pages. */
    const void *k; int64_t k_batch, k_seq, k_head;
    const void *v; int64_t v_batch, v_seq, v_head;
    const int *seqlens_kv;     /* device, [batch]: keys in each sequence's cache (the new tokens
                                  included); read by the kernels, graph capturable */
    int64_t max_seqlen_kv;     /* host: at least every seqlens_kv[b] (sizes the grid; a larger
                                  length is cut to it); contiguous: the cache's rows a sequence */
    const int *block_table;    /* device, [batch, max_pages_per_seq] page indices, or NULL */
    int64_t max_pages_per_seq; /* paged: the table's row length, >= max_seqlen_kv / page_size */
    int64_t num_pages;         /* paged: pages in the pools (every table entry below it) */
    int page_size;             /* paged: rows a page, a power of two from 1 to 256 */
    float scale;               /* applied to q·k, >= 0; 0 means 1/sqrt(head_dim) */
    int causal;                /* 1: query t (of seqlen_q) sits at position seqlen_kv - seqlen_q + t
                                  and sees keys up to it (window_right = 0); 0: every key */
    int window;                /* 1: the sliding window below applies; 0: none (both ignored) */
    int window_left, window_right; /* -1: unbounded on that side; else query at position i sees
                                      keys j with i - window_left <= j <= i + window_right */
    float softcap;             /* > 0: scores become softcap * tanh(score / softcap); 0: none */
    int num_splits;            /* 0: dispatch chooses; 1 to TILEOPS_KVCACHE_MAX_SPLITS: forced */
} tileops_kvcache_params;

#define TILEOPS_KVCACHE_MAX_SPLITS 128

/* The device workspace tileops_attention_kvcache needs for this problem (the split-KV
 * partials: 0 when one block covers each sequence, or num_splits is 1). Returns the statuses
 * of tileops_attention_kvcache's validation. */
tileops_status tileops_attention_kvcache_workspace_size(tileops_handle handle,
                                                        const tileops_kvcache_params *p,
                                                        size_t *bytes);

/* Decode attention over a KV cache: for every sequence b, new query t and query head h,
 *   O[b, t, h, :] = softmax(softcap(scale · Q[b, t, h, :] · Kᵀ) + mask) · V
 * over the keys j < seqlens_kv[b] of the cache's kv head h / (heads_q / heads_kv), fp32
 * softmax and accumulation. The queries are the last seqlen_q positions of the sequence
 * (query t at i = seqlens_kv[b] - seqlen_q + t), which causal and the window use; a query that
 * sees no key (an empty cache, say) gets O = 0 and LSE = -inf. The query heads that share a kv
 * head are computed together, so the cache is read once per kv head; long caches are split
 * across blocks (split-KV) whose partial results are merged by log-sum-exp through
 * `workspace` (at least tileops_attention_kvcache_workspace_size bytes, 16-byte aligned; with
 * less, fewer splits run, unless num_splits forces them).
 * Alignment: q, o, k and v 16-byte aligned and every stride in use a multiple of 8 elements;
 * lse, seqlens_kv and block_table 4-byte aligned. Block-table entries must be below num_pages
 * (not checked: the table is device memory). A seqlens_kv[b] below 0 is taken as 0, above
 * max_seqlen_kv as max_seqlen_kv. Launches on `stream`; no allocation, no synchronization.
 * Returns INVALID_VALUE (NULL handle, params, q, o, k, v or seqlens_kv; size too small;
 * unknown dtype; batch, heads or head_dim < 1; seqlen_q outside 1..16; max_seqlen_kv < 0;
 * heads_q not a multiple of heads_kv; causal or window not 0 or 1; a window side below -1;
 * scale not finite or negative; softcap negative or not finite; page_size not a power of two
 * from 1 to 256; max_pages_per_seq or num_pages too small for the cache; num_splits outside
 * 0..TILEOPS_KVCACHE_MAX_SPLITS; a pointer not aligned to its elements (2 bytes for q, o, k,
 * v; 4 for lse, seqlens_kv, block_table); a negative stride; a view overlapping itself; sizes
 * that overflow; o or lse overlapping an input or each other; num_splits forced above 1 with
 * less workspace than the query asks; a workspace NULL with workspace_bytes > 0, not 16-byte
 * aligned, overflowing or overlapping an operand; the current device not the handle's),
 * NOT_SUPPORTED (dtype f32; head_dim other than 64, 96, 128, 256; q, o, k or v not 16-byte
 * aligned or a stride in use not a multiple of 8 elements; max_seqlen_kv above 2^31 - 257; a
 * tier without decode kernels of the dtype: bf16 on sm70), CUDA (the launch failed). */
tileops_status tileops_attention_kvcache(tileops_handle handle, const tileops_kvcache_params *p,
                                         void *workspace, size_t workspace_bytes,
                                         cudaStream_t stream);

/* One append for tileops_kv_cache_append. Set `size` to sizeof(tileops_kv_append_params). */
typedef struct tileops_kv_append_params {
    size_t size;
    tileops_dtype dtype;       /* TILEOPS_F16 or TILEOPS_BF16 */
    int64_t tokens;            /* new tokens, >= 0 (0: nothing to do) */
    int heads_kv, head_dim;    /* >= 1; head_dim a multiple of 8 */
    const void *k_new; int64_t k_new_token, k_new_head; /* [tokens, heads_kv, head_dim] */
    const void *v_new; int64_t v_new_token, v_new_head;
    /* The cache as [blocks, block_rows, heads_kv, head_dim]: a paged pool (blocks = num_pages,
     * block_rows = page_size) or a contiguous cache (blocks = batch, block_rows = its rows a
     * sequence), with element strides. */
    void *k_cache; int64_t k_block, k_row, k_head;
    void *v_cache; int64_t v_block, v_row, v_head;
    int64_t blocks, block_rows;
    const int64_t *slots;      /* device, [tokens]: token i goes to row slots[i] % block_rows of
                                  block slots[i] / block_rows; a negative slot (padding) or one
                                  past the cache skips the token */
} tileops_kv_append_params;

/* Writes this step's keys and values into a paged or contiguous KV cache by slot (vLLM's
 * slot mapping: page * page_size + row, or sequence * rows + position), copying the bits.
 * Alignment: the four tensors 16-byte aligned and their strides multiples of 8 elements;
 * slots 8-byte aligned. Two tokens with one slot: one of them lands, unspecified which.
 * Returns INVALID_VALUE (NULL handle, params or pointer; size too small; unknown dtype;
 * tokens < 0; heads_kv, head_dim, blocks or block_rows < 1; a pointer not aligned to its
 * elements (2 bytes for the tensors, 8 for slots); a negative stride; a view overlapping
 * itself; sizes that overflow; the cache overlapping the new tokens or the slots; the current
 * device not the handle's), NOT_SUPPORTED (dtype f32; head_dim not a multiple of 8; a tensor
 * not 16-byte aligned or a stride in use not a multiple of 8 elements), CUDA. */
tileops_status tileops_kv_cache_append(tileops_handle handle, const tileops_kv_append_params *p,
                                       cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* TILEOPS_H */
