/* util_ref.h: fp64 CPU references that the test suites and tileops-bench share: softmax rows,
 * GEMM elements and attention rows, with their error bounds. */
#ifndef TILEOPS_TEST_UTIL_REF_H
#define TILEOPS_TEST_UTIL_REF_H

#include <stddef.h>
#include <stdint.h>

#include "tileops.h"

/* Checks one row y = softmax(x) (log: log_softmax) of `cols` elements of dtype against fp64.
 * Plain: relative error within one rounding to dtype plus 2e-5 (fp32 arithmetic); log:
 * absolute error within 1e-5 times the magnitudes involved. -inf entries must give exactly
 * 0 (log: -inf); a row with a NaN or of only -inf must be all NaN. Returns 0, or -1 with
 * the first wrong element described in msg. */
int ref_softmax_row(tileops_dtype dt, tileops_softmax_mode mode, const void *x, const void *y,
                    int64_t cols, char *msg, size_t len);

/* One GEMM on the host: D = act(alpha·A·op(B) + beta·C + bias), operands of dtype dt,
 * row-major with their leading dimensions in elements (b: [k, n] for TILEOPS_B_KN, [n, k] for
 * TILEOPS_B_NK). c NULL or beta 0: no C term; bias is read only with TILEOPS_EPILOGUE_BIAS. */
struct ref_gemm {
    tileops_dtype dt;
    tileops_layout layout;
    int64_t k, lda, ldb, ldc;
    const void *a, *b, *c, *bias;
    float alpha, beta;
    unsigned epilogue;
};

/* fp64 D[i, j]; *scale receives the sum of the magnitudes of its terms (every |alpha·a·b|,
 * |beta·c|, |bias|), the scale of the fp32 arithmetic's error. */
double ref_gemm_elem(const struct ref_gemm *g, int64_t i, int64_t j, double *scale);

/* The error bound of a GEMM output of dtype dt: two roundings to dt (the fp32 epilogue, then
 * the store) relative to ref, plus the fp32 accumulation's error, within 2^-16 of scale (K up
 * to 4096). */
double ref_gemm_tolerance(tileops_dtype dt, double ref, double scale);

/* One (sequence, head) of attention on the host: query row i at q + i * q_seq elements, key
 * and value row j at k + j * k_seq and v + j * v_seq (the kv head already chosen), head_dim
 * d contiguous elements each, lq queries over lk keys; causal is bottom-right aligned (row i
 * sees keys j <= i + lk - lq); scale multiplies q·k. */
struct ref_attention {
    tileops_dtype dt;
    int d, causal;
    int64_t lq, lk;
    double scale;
    const void *q, *k, *v;
    int64_t q_seq, k_seq, v_seq;
};

/* The keys query row i of a sees. */
int64_t ref_attention_visible(const struct ref_attention *a, int64_t i);

/* fp64 O row i (d values into o) and its log-sum-exp of the scaled scores (into *lse);
 * a row that sees no key gets O = 0 and LSE = -inf. w: scratch of lk doubles. Returns the
 * keys the row sees. */
int64_t ref_attention_row(const struct ref_attention *a, int64_t i, double *o, double *lse,
                          double *w);

/* The error bound of an attention output element of dtype dt: P and O are each rounded to
 * dt once (an absolute bound for |v| <= 2), plus one rounding of the value itself. LSE:
 * within REF_LSE_TOL, absolute. */
double ref_attention_tolerance(tileops_dtype dt, double ref);
#define REF_LSE_TOL 2e-3

/* Every valid GEMM epilogue combination: none or bias, then no activation, ReLU, GELU erf or
 * GELU tanh. */
#define REF_GEMM_EPILOGUES 8
extern const unsigned ref_gemm_epilogues[REF_GEMM_EPILOGUES];

#endif
