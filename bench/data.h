/* data.h: benchmark input data: device buffers filled with random values. The RNG and the
 * dtype conversions are the tests' own (tests/util_host.h), shared so they exist once. */
#ifndef TILEOPS_BENCH_DATA_H
#define TILEOPS_BENCH_DATA_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "tileops.h"
#include "../tests/util_host.h"

/* Fills the n elements of device buffer dev with random finite values (fill_random: random
 * sign, magnitude in [2^-8, 8)), staging through a host buffer in chunks so that host memory
 * stays small whatever n is. Copies go on `stream`, which is synchronized before returning.
 * Deterministic for a seed. Returns 0, or -1 (message printed). */
int data_fill_random(void *dev, tileops_dtype dtype, int64_t n, uint64_t seed,
                     cudaStream_t stream);

#endif /* TILEOPS_BENCH_DATA_H */
