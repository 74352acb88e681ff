/* util_host.h: helpers the test suites share: a fast RNG, host conversions to and from f16 and
 * bf16, per-dtype error bounds, and whether a CUDA device is there. */
#ifndef TILEOPS_TEST_UTIL_H
#define TILEOPS_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "tileops.h"

/* xorshift64*: fresh inputs every run come from a seed printed on failure. */
struct rng {
    uint64_t s;
};
uint64_t rng_seed_from_clock(void);
uint64_t rng_next(struct rng *r);
double rng_uniform(struct rng *r, double lo, double hi);

/* IEEE binary16 and bfloat16 bits from a float (round to nearest even), and back. */
uint16_t f32_to_f16(float x);
float f16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float x);
float bf16_to_f32(uint16_t h);

/* Writes value v as dtype at element i of buf; reads element i as a double. */
void put_elem(void *buf, tileops_dtype dt, size_t i, double v);
double get_elem(const void *buf, tileops_dtype dt, size_t i);

/* The relative error bound of one rounding to dtype, and its smallest subnormal (the
 * absolute slack near zero). */
double dtype_rel_bound(tileops_dtype dt);
double dtype_abs_bound(tileops_dtype dt);

/* Is there a usable CUDA device? Asked in a child process, so the caller's process never
 * initializes CUDA (a CUDA context does not survive Check's fork). */
int have_cuda_device(void);

#endif
