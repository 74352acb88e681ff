/* copy.c: see copy.h. */
#include "copy.h"

#include <string.h>

#include "bench.h"

int bench_copy_alloc(struct bench_copy *c, size_t bytes, cudaStream_t stream)
{
    memset(c, 0, sizeof *c);
    c->bytes = bytes;
    if (!bench_cuda_ok(cudaMalloc(&c->src, bytes), "cudaMalloc (copy source)") ||
        !bench_cuda_ok(cudaMalloc(&c->dst, bytes), "cudaMalloc (copy destination)") ||
        !bench_cuda_ok(cudaMemsetAsync(c->src, 0x3c, bytes, stream), "cudaMemsetAsync (copy)")) {
        bench_copy_free(c);
        return -1;
    }
    return 0;
}

void bench_copy_free(struct bench_copy *c)
{
    if (c->src)
        cudaFree(c->src);
    if (c->dst)
        cudaFree(c->dst);
    memset(c, 0, sizeof *c);
}

int bench_copy_run(void *arg, cudaStream_t stream)
{
    const struct bench_copy *c = arg;
    return bench_cuda_ok(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice,
                                         stream),
                         "cudaMemcpyAsync (copy reference)") ? 0 : -1;
}

double bench_gbps(double bytes, double us)
{
    return us > 0 ? bytes / (us * 1e3) : 0.0;
}
