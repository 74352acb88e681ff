/* ref_epilogue.h: the unfused epilogue reference of tileops-bench gemm (ref_epilogue.cu). */
#ifndef TILEOPS_BENCH_REF_EPILOGUE_H
#define TILEOPS_BENCH_REF_EPILOGUE_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* D[r][c] = act(D[r][c] + bias[c]) in place for an m x n row-major D (f16, or bf16 when bf16
 * is set); act is GELU (tanh form) when gelu is set, else ReLU. Launches on stream; returns
 * the cudaError_t of the launch. */
int ref_bias_act(void *d, int bf16, int64_t m, int64_t n, int64_t ldd, const void *bias,
                 int gelu, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
