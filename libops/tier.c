/* tier.c: which architecture tier serves a device. The rule: the best tier the build holds
 * at or below the device. The sm90 tier is built as sm_90a, whose code runs on 9.x only;
 * the sm70 and sm80 tiers carry PTX, so the driver can run them on any newer GPU. */
#include "internal.h"

#include <stddef.h>

/* Can tier t's code run on compute capability cc? */
static int usable(const struct tileops_tier_table *t, int cc)
{
    if (cc < t->sass)
        return 0;
    return t->tier != TILEOPS_TIER_SM90 || cc / 10 == 9;
}

const struct tileops_tier_table *tileops__choose_tier(int cc, int requested,
                                                      const struct tileops_tier_table *tiers,
                                                      int ntiers, tileops_status *status)
{
    *status = TILEOPS_ERROR_NOT_SUPPORTED;
    if (cc < 70) {
        tileops__fail(*status, "compute capability %d.%d is below 7.0, the oldest tier (sm70)",
                      cc / 10, cc % 10);
        return NULL;
    }
    if (requested != TILEOPS_TIER_AUTO) {
        for (int i = 0; i < ntiers; i++) {
            if (tiers[i].tier != requested)
                continue;
            if (usable(&tiers[i], cc)) {
                *status = TILEOPS_SUCCESS;
                return &tiers[i];
            }
            tileops__fail(*status, "tier sm%d (built as sm_%d%s) cannot run on compute "
                          "capability %d.%d", requested, tiers[i].sass,
                          requested == TILEOPS_TIER_SM90 ? "a" : "", cc / 10, cc % 10);
            return NULL;
        }
        tileops__fail(*status, "tier sm%d is not in this build (see TILEOPS_ARCHS)", requested);
        return NULL;
    }
    const struct tileops_tier_table *best = NULL;
    for (int i = 0; i < ntiers; i++)
        if (usable(&tiers[i], cc) && (!best || tiers[i].tier > best->tier))
            best = &tiers[i];
    if (best) {
        *status = TILEOPS_SUCCESS;
        return best;
    }
    if (ntiers > 0 && tiers[0].tier == TILEOPS_TIER_SM70 && tiers[0].sass > cc)
        tileops__fail(*status, "compute capability %d.%d: the sm70 tier was built as sm_%d "
                      "(CUDA 13 has no sm_70); build with CUDA 12 to serve it",
                      cc / 10, cc % 10, tiers[0].sass);
    else
        tileops__fail(*status, "no tier in this build serves compute capability %d.%d "
                      "(see TILEOPS_ARCHS)", cc / 10, cc % 10);
    return NULL;
}
