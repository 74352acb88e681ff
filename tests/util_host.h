/* util_host.h: helpers the test suites share: a fast RNG, random fills, host decoding of f16
 * and bf16, per-dtype error bounds, and whether a CUDA device is there. */
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

/* Fills n elements of dtype with random finite values of random sign and magnitude in
 * [2^-8, 8): exponent and mantissa bits drawn directly, so every rounding case shows up and
 * billions of elements take seconds. */
void fill_random(void *buf, tileops_dtype dt, size_t n, struct rng *r);

/* IEEE binary16 and bfloat16 bits as a float (exact). */
float f16_to_f32(uint16_t h);
float bf16_to_f32(uint16_t h);

/* Element i of a host array of dtype, as a double. */
double get_elem(const void *buf, tileops_dtype dt, size_t i);

/* The relative error bound of one rounding to dtype, and its smallest subnormal (the
 * absolute slack near zero). */
double dtype_rel_bound(tileops_dtype dt);
double dtype_abs_bound(tileops_dtype dt);

/* Is TILEOPS_TEST_SMALL=1 set? GPU suites then leave out their largest shapes (for runs under
 * compute-sanitizer); every kernel and path still runs. */
int test_small_only(void);

/* Does TILEOPS_TEST_INSTANCE select kernel `name`? Unset: every kernel; else a comma-separated
 * list of name parts, one of which the name must contain (the every-instance cases of the GPU
 * suites run only those, e.g. on a tuning build). */
int test_instance_selected(const char *name);

/* Is there a usable CUDA device? Asked in a child process, so the caller's process never
 * initializes CUDA (a CUDA context does not survive Check's fork). */
int have_cuda_device(void);

/* A whole file, NUL-terminated (free it); its length in *len when len is not NULL. NULL if it
 * cannot be read. */
char *read_file(const char *path, size_t *len);

/* The path of build program `name` beside the test binary: argv0 B/tests/test_x gives
 * B/tests/../name (B/name); without a slash in argv0, `fallback`. */
void sibling_path(const char *argv0, const char *name, const char *fallback, char *out,
                  size_t len);

#endif
