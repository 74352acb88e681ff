/* vector_add.c: libtileops as an inference engine uses it: one handle per device, buffers
 * the caller owns, calls enqueued on the caller's stream, status checked on every call. */
#include <cuda_runtime_api.h>
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
    const int64_t n = 4096 * 257 + 3; /* a hidden size times tokens, plus an odd tail */
    const size_t bytes = (size_t)n * sizeof(float);
    int rc = 1;
    tileops_handle h = NULL;
    cudaStream_t stream = NULL;
    float *a = NULL, *b = NULL, *c = NULL, *host = malloc(bytes);
    if (!host) {
        fputs("out of host memory\n", stderr);
        return 1;
    }

    /* Without a GPU this is where the example stops, with the library's message and a
     * non-zero exit. The library launches on the current device and rejects a mismatch, so
     * make the handle's device current before the first call. */
    TILEOPS_CHECK(tileops_create(&h, 0));
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaMalloc((void **)&a, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b, bytes));
    CUDA_CHECK(cudaMalloc((void **)&c, bytes));

    /* a[i] = i and b[i] = 0.5 give sums that are exact in f32 and easy to check. */
    for (int64_t i = 0; i < n; i++)
        host[i] = (float)i;
    CUDA_CHECK(cudaMemcpyAsync(a, host, bytes, cudaMemcpyHostToDevice, stream));
    for (int64_t i = 0; i < n; i++)
        host[i] = 0.5f;
    CUDA_CHECK(cudaMemcpyAsync(b, host, bytes, cudaMemcpyHostToDevice, stream));

    /* The call only enqueues work; errors in its arguments come back as a status at once. */
    TILEOPS_CHECK(tileops_vector_add(h, TILEOPS_F32, n, a, b, c, stream));
    CUDA_CHECK(cudaMemcpyAsync(host, c, bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream)); /* also surfaces a failed kernel */

    const int64_t probe[] = {0, 1, n / 2, n - 2, n - 1}; /* both ends: vector body and tail */
    for (size_t k = 0; k < sizeof probe / sizeof probe[0]; k++) {
        int64_t i = probe[k];
        if (host[i] != (float)i + 0.5f) {
            fprintf(stderr, "c[%lld] = %g, expected %g\n", (long long)i, host[i], i + 0.5);
            goto out;
        }
    }
    printf("vector_add of %lld floats ok, kernel %s\n", (long long)n, tileops_last_kernel(h));
    rc = 0;
out:
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    if (stream)
        cudaStreamDestroy(stream);
    tileops_destroy(h);
    free(host);
    return rc;
}
