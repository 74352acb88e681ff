/* util.c: see util_host.h. */
#include "util_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

void fill_random(void *buf, tileops_dtype dt, size_t n, struct rng *r)
{
    /* per dtype: mantissa bits, and the biased exponent of 2^-8 */
    const int man = dt == TILEOPS_F32 ? 23 : dt == TILEOPS_F16 ? 10 : 7;
    const uint32_t e_lo = dt == TILEOPS_F32 ? 119 : dt == TILEOPS_F16 ? 7 : 119;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = rng_next(r);
        uint32_t bits = (uint32_t)(x & ((1u << man) - 1)) |
                        (e_lo + (uint32_t)((x >> 32) % 11)) << man |
                        (uint32_t)(x >> 63) << (man + (dt == TILEOPS_F16 ? 5 : 8));
        if (dt == TILEOPS_F32)
            ((uint32_t *)buf)[i] = bits;
        else
            ((uint16_t *)buf)[i] = (uint16_t)bits;
    }
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

float bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* f16 decoded through a table: checking 2^28 elements one ldexpf at a time is slow. */
static float f16_table[65536];
static int f16_table_ready;

double get_elem(const void *buf, tileops_dtype dt, size_t i)
{
    switch (dt) {
    case TILEOPS_F32: return ((const float *)buf)[i];
    case TILEOPS_F16:
        if (!f16_table_ready) {
            for (uint32_t h = 0; h < 65536; h++)
                f16_table[h] = f16_to_f32((uint16_t)h);
            f16_table_ready = 1;
        }
        return f16_table[((const uint16_t *)buf)[i]];
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

int test_instance_selected(const char *name)
{
    const char *only = getenv("TILEOPS_TEST_INSTANCE");
    if (!only || !*only)
        return 1;
    for (const char *part = only; *part;) {
        const size_t len = strcspn(part, ",");
        for (const char *at = name; len && *at; at++)
            if (strncmp(at, part, len) == 0)
                return 1;
        part += len + (part[len] == ',');
    }
    return 0;
}

int test_small_only(void)
{
    const char *e = getenv("TILEOPS_TEST_SMALL");
    return e && e[0] == '1';
}

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p) {
        p[n] = '\0';
        if (len)
            *len = (size_t)n;
    }
    return p;
}

void sibling_path(const char *argv0, const char *name, const char *fallback, char *out,
                  size_t len)
{
    const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
    if (slash)
        snprintf(out, len, "%.*s/../%s", (int)(slash - argv0), argv0, name);
    else
        snprintf(out, len, "%s", fallback);
}
