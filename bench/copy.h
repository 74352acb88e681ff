/* copy.h: the memory-bandwidth reference of the memory-bound benchmarks: a device-to-device
 * copy, timed in the same run as the operator, under the same L2 flushing. */
#ifndef TILEOPS_BENCH_COPY_H
#define TILEOPS_BENCH_COPY_H

#include <cuda_runtime_api.h>
#include <stddef.h>

struct bench_copy {
    void *src, *dst;
    size_t bytes; /* copied; the copy moves twice as many (read + write) */
};

/* Allocates src and dst of `bytes` each (src defined, so sanitizers stay quiet). Returns 0,
 * or -1 (message printed, nothing left allocated). */
int bench_copy_alloc(struct bench_copy *c, size_t bytes, cudaStream_t stream);
void bench_copy_free(struct bench_copy *c);

/* bench_op_fn: one cudaMemcpyAsync of c->bytes. */
int bench_copy_run(void *c, cudaStream_t stream);

/* GB/s for `bytes` moved in `us` microseconds. */
double bench_gbps(double bytes, double us);

#endif /* TILEOPS_BENCH_COPY_H */
