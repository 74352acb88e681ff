/* ref_attention.h: the device kernels tileops-bench attention needs beside cuBLAS
 * (ref_attention.cu): random inputs, the softmax of the unfused reference, and the largest
 * difference between two outputs. */
#ifndef TILEOPS_BENCH_REF_ATTENTION_H
#define TILEOPS_BENCH_REF_ATTENTION_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills n elements of x (f16, or bf16 when bf16 is set) with roughly standard normal values
 * (a sum of four uniforms, scaled to variance 1), deterministic for a seed. Returns the
 * cudaError_t of the launch. */
int ref_attention_fill(void *x, int bf16, int64_t n, uint64_t seed, cudaStream_t stream);

/* Row-wise softmax of `heads` row-major [seqlen_q, seqlen_kv] fp32 score matrices s (already
 * scaled), written to p (f16, or bf16) with the same layout. Causal: row i sees only columns
 * j <= i + seqlen_kv - seqlen_q (bottom-right aligned); a row that sees nothing gets zeros.
 * softcap > 0: each score x becomes softcap · tanh(x / softcap) first. Returns the
 * cudaError_t of the launch. */
int ref_attention_softmax(const float *s, void *p, int bf16, int64_t heads, int64_t seqlen_q,
                          int64_t seqlen_kv, int causal, float softcap, cudaStream_t stream);

/* *out (device, one float) = the largest |a[i] - b[i]| over n elements of two f16 (or bf16)
 * arrays, +inf if either holds a NaN. Zeroes *out first. Returns the cudaError_t of the
 * launches. */
int ref_attention_max_diff(const void *a, const void *b, int bf16, int64_t n, float *out,
                           cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
