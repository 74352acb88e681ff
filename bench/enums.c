/* enums.c: tileops dtypes and tiers by the names the command line and the reports use. The
 * dtype names and sizes are the library's own (libops/internal.h). */
#include "bench.h"
#include "internal.h"

#include <stdio.h>
#include <string.h>

static const tileops_dtype all_dtypes[] = {TILEOPS_F32, TILEOPS_F16, TILEOPS_BF16};
/* "all" leaves out auto: it always resolves to one of the three. */
static const tileops_tier all_tiers[] = {TILEOPS_TIER_SM70, TILEOPS_TIER_SM80,
                                         TILEOPS_TIER_SM90};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *bench_dtype_name(tileops_dtype dtype)
{
    return tileops__dtype_name(dtype);
}

size_t bench_dtype_size(tileops_dtype dtype)
{
    return (size_t)tileops__dtype_bytes(dtype);
}

const char *bench_tier_name(tileops_tier tier)
{
    static const char *const names[] = {"sm70", "sm80", "sm90"};
    for (int i = 0; i < COUNT(all_tiers); i++)
        if (all_tiers[i] == tier)
            return names[i];
    return tier == TILEOPS_TIER_AUTO ? "auto" : "?";
}

int bench_parse_dtypes(const char *s, tileops_dtype *out, int *n)
{
    int all = strcmp(s, "all") == 0;
    *n = 0;
    for (int i = 0; i < COUNT(all_dtypes); i++)
        if (all || strcmp(s, bench_dtype_name(all_dtypes[i])) == 0)
            out[(*n)++] = all_dtypes[i];
    return *n ? 0 : -1;
}

int bench_parse_tiers(const char *s, tileops_tier *out, int *n)
{
    int all = strcmp(s, "all") == 0;
    *n = 0;
    if (strcmp(s, "auto") == 0)
        out[(*n)++] = TILEOPS_TIER_AUTO;
    for (int i = 0; i < COUNT(all_tiers); i++)
        if (all || strcmp(s, bench_tier_name(all_tiers[i])) == 0)
            out[(*n)++] = all_tiers[i];
    return *n ? 0 : -1;
}
