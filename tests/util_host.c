/* util.c: see util_host.h. */
#include "util_host.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

uint64_t rng_seed_from_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
}

uint64_t rng_next(struct rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

double rng_uniform(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint16_t f32_to_f16(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    uint32_t sign = (u >> 16) & 0x8000u, exp = (u >> 23) & 0xffu, man = u & 0x7fffffu;
    if (exp == 0xff) /* inf or NaN */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) { /* subnormal or zero: shift the full significand */
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        int shift = 14 - e;
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++; /* may carry into the exponent, which is right (up to inf) */
    return (uint16_t)(sign | h);
}

float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    float f;
    if (exp == 0)
        f = ldexpf((float)man, -24);
    else if (exp == 31)
        f = man ? NAN : INFINITY;
    else
        f = ldexpf((float)(man | 0x400u), (int)exp - 25);
    uint32_t u;
    memcpy(&u, &f, 4);
    u |= sign;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t f32_to_bf16(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

float bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

void put_elem(void *buf, tileops_dtype dt, size_t i, double v)
{
    switch (dt) {
    case TILEOPS_F32: ((float *)buf)[i] = (float)v; break;
    case TILEOPS_F16: ((uint16_t *)buf)[i] = f32_to_f16((float)v); break;
    case TILEOPS_BF16: ((uint16_t *)buf)[i] = f32_to_bf16((float)v); break;
    }
}

double get_elem(const void *buf, tileops_dtype dt, size_t i)
{
    switch (dt) {
    case TILEOPS_F32: return ((const float *)buf)[i];
    case TILEOPS_F16: return f16_to_f32(((const uint16_t *)buf)[i]);
    case TILEOPS_BF16: return bf16_to_f32(((const uint16_t *)buf)[i]);
    }
    return NAN;
}

/* Unit roundoff (half an ulp, relative) with 1% slack for a double rounding through fp32. */
double dtype_rel_bound(tileops_dtype dt)
{
    return 1.01 * (dt == TILEOPS_F32 ? 0x1p-24 : dt == TILEOPS_F16 ? 0x1p-11 : 0x1p-8);
}

double dtype_abs_bound(tileops_dtype dt)
{
    return dt == TILEOPS_F32 ? 0x1p-149 : dt == TILEOPS_F16 ? 0x1p-24 : 0x1p-133;
}

int have_cuda_device(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        int n = 0;
        _exit(cudaGetDeviceCount(&n) == cudaSuccess && n > 0 ? 0 : 1);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
