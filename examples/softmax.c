/* softmax.c: log-probabilities over a vocabulary, as an engine computes them before sampling:
 * rows of logits (one per sequence in the batch), the workspace asked for once and kept,
 * the call enqueued on the engine's stream. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tileops.h"

/* On a failed CUDA call: say which and why, then clean up. */
#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                    \
            goto out;                                                                      \
        }                                                                                  \
    } while (0)

/* On a failed library call: print the library's own message (the status, then the detail
 * tileops_last_error() keeps), then clean up. */
#define TILEOPS_CHECK(call)                                                                \
    do {                                                                                   \
        tileops_status st_ = (call);                                                       \
        if (st_ != TILEOPS_SUCCESS) {                                                      \
            fprintf(stderr, "%s: %s\n", tileops_status_string(st_), tileops_last_error()); \
            goto out;                                                                      \
        }                                                                                  \
    } while (0)

int main(void)
{
    const int64_t batch = 8, vocab = 128256; /* Llama 3's vocabulary */
    const size_t bytes = (size_t)(batch * vocab) * sizeof(float);
    int rc = 1;
    tileops_handle h = NULL;
    cudaStream_t stream = NULL;
    float *logits = NULL, *logp = NULL, *host = malloc(bytes);
    void *ws = NULL;
    size_t ws_bytes = 0;
    if (!host) {
        fputs("out of host memory\n", stderr);
        return 1;
    }
    /* Without a GPU this is where the example stops, with the library's message and a
     * non-zero exit. */
    TILEOPS_CHECK(tileops_create(&h, 0));
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaMalloc((void **)&logits, bytes));
    CUDA_CHECK(cudaMalloc((void **)&logp, bytes));

    /* Rows this long may be split across blocks: ask once how much scratch that takes (it
     * depends on the shape, dtype, device and alignment) and keep it for every step. */
    TILEOPS_CHECK(tileops_softmax_workspace_size(h, TILEOPS_F32, TILEOPS_SOFTMAX_LOG, batch,
                                                 vocab, logits, vocab, logp, vocab, &ws_bytes));
    if (ws_bytes)
        CUDA_CHECK(cudaMalloc(&ws, ws_bytes));

    for (int64_t i = 0; i < batch * vocab; i++) /* smooth, distinct logits per row */
        host[i] = (float)sin(0.001 * (double)i) * 10.0f;
    CUDA_CHECK(cudaMemcpyAsync(logits, host, bytes, cudaMemcpyHostToDevice, stream));
    TILEOPS_CHECK(tileops_softmax(h, TILEOPS_F32, TILEOPS_SOFTMAX_LOG, batch, vocab, logits,
                                  vocab, logp, vocab, ws, ws_bytes, stream));
    CUDA_CHECK(cudaMemcpyAsync(host, logp, bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream)); /* also surfaces a failed kernel */

    /* Every row's probabilities sum to 1. */
    for (int64_t r = 0; r < batch; r++) {
        double sum = 0;
        for (int64_t j = 0; j < vocab; j++)
            sum += exp((double)host[r * vocab + j]);
        if (fabs(sum - 1.0) > 1e-4) {
            fprintf(stderr, "row %lld: probabilities sum to %.9g\n", (long long)r, sum);
            goto out;
        }
    }
    printf("log_softmax of %lld x %lld ok (workspace %zu bytes), kernel %s\n", (long long)batch,
           (long long)vocab, ws_bytes, tileops_last_kernel(h));
    rc = 0;
out:
    cudaFree(ws);
    cudaFree(logits);
    cudaFree(logp);
    if (stream)
        cudaStreamDestroy(stream);
    tileops_destroy(h);
    free(host);
    return rc;
}
