/* tiers.c: the tiers this build holds. The Makefile compiles this file with
 * -DTILEOPS_SM<tier>_SASS=<sm> for each tier it built (e.g. TILEOPS_SM70_SASS=75 on CUDA 13),
 * so a build of fewer tiers links no missing registry. */
#include "registry.h"

#include "tileops.h"

#define TIER(t)                                                            \
    extern const struct tileops_kernel tileops_registry_sm##t[];           \
    extern const int tileops_registry_sm##t##_count;

#ifdef TILEOPS_SM70_SASS
TIER(70)
#endif
#ifdef TILEOPS_SM80_SASS
TIER(80)
#endif
#ifdef TILEOPS_SM90_SASS
TIER(90)
#endif

/* Ascending, ended by a zero sentinel (C has no empty arrays). */
const struct tileops_tier_table tileops_built_tiers[] = {
#ifdef TILEOPS_SM70_SASS
    {TILEOPS_TIER_SM70, TILEOPS_SM70_SASS, tileops_registry_sm70, &tileops_registry_sm70_count},
#endif
#ifdef TILEOPS_SM80_SASS
    {TILEOPS_TIER_SM80, TILEOPS_SM80_SASS, tileops_registry_sm80, &tileops_registry_sm80_count},
#endif
#ifdef TILEOPS_SM90_SASS
    {TILEOPS_TIER_SM90, TILEOPS_SM90_SASS, tileops_registry_sm90, &tileops_registry_sm90_count},
#endif
    {0, 0, 0, 0},
};

const int tileops_built_tier_count =
    (int)(sizeof tileops_built_tiers / sizeof tileops_built_tiers[0]) - 1;
