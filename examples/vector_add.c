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

int main(void)
{
    /* Graceful on machines without a GPU: this is a demo, not a test. */
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        puts("no CUDA device");
        return 0;
    }
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

    /* The library launches on the current device and rejects a mismatch, so make the
     * handle's device current first. */
    CUDA_CHECK(cudaSetDevice(0));
    if (tileops_create(&h, 0) != TILEOPS_SUCCESS) {
        fprintf(stderr, "tileops_create: %s\n", tileops_last_error());
        goto out;
    }
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
    tileops_status st = tileops_vector_add(h, TILEOPS_F32, n, a, b, c, stream);
    if (st != TILEOPS_SUCCESS) {
        fprintf(stderr, "tileops_vector_add: %s\n", tileops_last_error());
        goto out;
    }
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
