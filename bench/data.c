/* data.c: random benchmark inputs and dtype conversions on the host (see data.h). */
#include "data.h"

#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Elements staged per host-to-device copy: 4 MiB of f32, large enough that the copies run
 * near PCIe speed, small enough to never matter for host memory. */
#define FILL_CHUNK ((int64_t)1 << 20)

void xorshift_seed(struct xorshift *r, uint64_t seed)
{
    /* A zero state would stay zero forever; mix the seed so that 1, 2, 3 diverge at once. */
    r->s = seed * 0x9E3779B97F4A7C15ull ^ 0xD1B54A32D192ED03ull;
    if (r->s == 0)
        r->s = 1;
}

uint64_t xorshift_next(struct xorshift *r)
{
    uint64_t x = r->s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return r->s = x;
}

/* The bits of a float. */
static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The float with these bits. */
static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t f32_to_f16(float f)
{
    uint32_t x = f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)                 /* NaN: keep it a (quiet) NaN */
        return (uint16_t)(sign | 0x7e00u);
    if (ax >= 0x477ff000u)                /* >= 65520 rounds to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax < 0x38800000u) {               /* below 2^-14: subnormal or zero in f16 */
        /* Scaling by 2^24 is exact; lrintf rounds to nearest even (the default mode). */
        return (uint16_t)(sign | (uint16_t)lrintf(bits_f32(ax) * 16777216.0f));
    }
    /* Round the 23-bit mantissa to 10 bits (nearest even), then rebias 127 -> 15; a carry
     * out of the mantissa correctly bumps the exponent. */
    uint32_t r = ax + 0x0fffu + ((ax >> 13) & 1u);
    return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
}

float f16_to_f32(uint16_t h)
{
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 0x400u), (int)e - 25);
    return (h & 0x8000u) ? -v : v;
}

uint16_t f32_to_bf16(float f)
{
    uint32_t x = f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)  /* NaN: rounding could carry it to infinity */
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float bf16_to_f32(uint16_t h)
{
    return bits_f32((uint32_t)h << 16);
}

float data_get(tileops_dtype dtype, const void *p, int64_t i)
{
    switch (dtype) {
    case TILEOPS_F16:
        return f16_to_f32(((const uint16_t *)p)[i]);
    case TILEOPS_BF16:
        return bf16_to_f32(((const uint16_t *)p)[i]);
    default:
        return ((const float *)p)[i];
    }
}

/* A random value of magnitude in [0.5, 1.5) with a random sign: never zero, and a sum of
 * two never overflows or goes subnormal in any dtype. */
static float random_value(struct xorshift *r)
{
    uint64_t x = xorshift_next(r);
    float u = (float)(x >> 40) * (1.0f / 16777216.0f); /* 24 bits: [0, 1) exactly */
    /* The sign bit from the low bit, without a branch: a random branch mispredicts half the
     * time, which would triple the cost of filling 2^28 elements. */
    return bits_f32(f32_bits(0.5f + u) | (uint32_t)(x & 1u) << 31);
}

/* Writes len random elements of dtype to host buffer p. */
static void random_chunk(struct xorshift *r, tileops_dtype dtype, void *p, int64_t len)
{
    for (int64_t i = 0; i < len; i++) {
        float v = random_value(r);
        if (dtype == TILEOPS_F16)
            ((uint16_t *)p)[i] = f32_to_f16(v);
        else if (dtype == TILEOPS_BF16)
            ((uint16_t *)p)[i] = f32_to_bf16(v);
        else
            ((float *)p)[i] = v;
    }
}

int data_fill_random(void *dev, tileops_dtype dtype, int64_t n, uint64_t seed,
                     cudaStream_t stream)
{
    size_t elem = bench_dtype_size(dtype);
    void *host = malloc((size_t)FILL_CHUNK * elem);
    if (!host) {
        bench_error("data_fill_random: out of host memory");
        return -1;
    }
    struct xorshift r;
    xorshift_seed(&r, seed);
    int rc = 0;
    for (int64_t off = 0; off < n && rc == 0; off += FILL_CHUNK) {
        int64_t len = n - off < FILL_CHUNK ? n - off : FILL_CHUNK;
        random_chunk(&r, dtype, host, len);
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
