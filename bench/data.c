/* data.c: random benchmark inputs on the device (see data.h). */
#include "data.h"

#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Elements staged per host-to-device copy: 4 MiB of f32, large enough that the copies run
 * near PCIe speed, small enough to never matter for host memory. */
#define FILL_CHUNK ((int64_t)1 << 20)

int data_fill_random(void *dev, tileops_dtype dtype, int64_t n, uint64_t seed,
                     cudaStream_t stream)
{
    size_t elem = bench_dtype_size(dtype);
    void *host = malloc((size_t)FILL_CHUNK * elem);
    if (!host) {
        bench_error("data_fill_random: out of host memory");
        return -1;
    }
    struct rng r = {seed * 0x9E3779B97F4A7C15ull | 1}; /* xorshift needs a non-zero state */
    int rc = 0;
    for (int64_t off = 0; off < n && rc == 0; off += FILL_CHUNK) {
        int64_t len = n - off < FILL_CHUNK ? n - off : FILL_CHUNK;
        fill_random(host, dtype, (size_t)len, &r);
        /* On the benchmark's stream, so the data is in place before any later work on it;
         * the sync is needed anyway before the host buffer is reused. */
        if (!bench_cuda_ok(cudaMemcpyAsync((char *)dev + (size_t)off * elem, host,
                                           (size_t)len * elem, cudaMemcpyHostToDevice, stream),
                           "cudaMemcpyAsync (fill)") ||
            !bench_cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize (fill)"))
            rc = -1;
    }
    free(host);
    return rc;
}
