/* data.h: benchmark input data on the host: a xorshift RNG, conversions between f32 and
 * the 16-bit formats, and filling device buffers with random values chunk by chunk. */
#ifndef TILEOPS_BENCH_DATA_H
#define TILEOPS_BENCH_DATA_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "tileops.h"

/* xorshift64 (Marsaglia): fast, and deterministic for a given seed so runs are repeatable. */
struct xorshift {
    uint64_t s; /* never 0 */
};

void xorshift_seed(struct xorshift *r, uint64_t seed);
uint64_t xorshift_next(struct xorshift *r);

/* IEEE binary16 and bfloat16 from f32, rounding to nearest even, and back (exact). */
uint16_t f32_to_f16(float f);
float f16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float f);
float bf16_to_f32(uint16_t h);

/* Element i of a host array of dtype, as f32. */
float data_get(tileops_dtype dtype, const void *p, int64_t i);

/* Fills the n elements of device buffer dev with random values of magnitude in [0.5, 1.5)
 * and random sign, rounded to dtype (so never zero, and sums stay normal numbers), staging
 * through a host buffer in chunks so that host memory stays small whatever n is. Copies go
 * on `stream`, which is synchronized before returning. Returns 0, or -1 (message printed). */
int data_fill_random(void *dev, tileops_dtype dtype, int64_t n, uint64_t seed,
                     cudaStream_t stream);

#endif /* TILEOPS_BENCH_DATA_H */
