/* enums.c: tileops dtypes and tiers by the names the command line and the reports use. */
#include "bench.h"

#include <string.h>

/* Name and element size of each dtype. */
static const struct {
    tileops_dtype dtype;
    const char *name;
    size_t size;
} dtypes[] = {
    {TILEOPS_F32, "f32", 4},
    {TILEOPS_F16, "f16", 2},
    {TILEOPS_BF16, "bf16", 2},
};

/* Name of each tier. */
static const struct {
    tileops_tier tier;
    const char *name;
} tiers[] = {
    {TILEOPS_TIER_AUTO, "auto"},
    {TILEOPS_TIER_SM70, "sm70"},
    {TILEOPS_TIER_SM80, "sm80"},
    {TILEOPS_TIER_SM90, "sm90"},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *bench_dtype_name(tileops_dtype dtype)
{
    for (int i = 0; i < COUNT(dtypes); i++)
        if (dtypes[i].dtype == dtype)
            return dtypes[i].name;
    return "?";
}

size_t bench_dtype_size(tileops_dtype dtype)
{
    for (int i = 0; i < COUNT(dtypes); i++)
        if (dtypes[i].dtype == dtype)
            return dtypes[i].size;
    return 0;
}

const char *bench_tier_name(tileops_tier tier)
{
    for (int i = 0; i < COUNT(tiers); i++)
        if (tiers[i].tier == tier)
            return tiers[i].name;
    return "?";
}

int bench_parse_dtype(const char *s, tileops_dtype *out)
{
    for (int i = 0; i < COUNT(dtypes); i++)
        if (strcmp(s, dtypes[i].name) == 0) {
            *out = dtypes[i].dtype;
            return 0;
        }
    return -1;
}

int bench_parse_tier(const char *s, tileops_tier *out)
{
    for (int i = 0; i < COUNT(tiers); i++)
        if (strcmp(s, tiers[i].name) == 0) {
            *out = tiers[i].tier;
            return 0;
        }
    return -1;
}
