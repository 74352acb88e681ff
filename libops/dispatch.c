/* dispatch.c: picks a kernel from the handle's tier registry and launches it. */
#include "internal.h"

#include <cuda_runtime_api.h>
#include <stdint.h>

/* Can kernel k take call c's pointers on this device? */
static int usable(tileops_handle h, const struct tileops_kernel *k, const struct tileops__call *c)
{
    int aligned = 1;
    for (int p = 0; p < c->nptrs; p++)
        aligned &= (uintptr_t)c->ptrs[p] % (uintptr_t)k->align == 0;
    return aligned && k->smem <= h->dev.smem_optin;
}

/* The tuning table's kernel for c when it can serve c (its fit() accepts it), else NULL. */
static const struct tileops_kernel *tuned_kernel(tileops_handle h, const struct tileops__call *c,
                                                 size_t *workspace)
{
    const struct tileops_tier_table *t = h->tier;
    const struct tileops_tuned_entry *e = h->pinned ? NULL : tileops__tuned_lookup(h->tuned, c);
    if (!e || e->tier != t->tier || e->index < 0 || e->index >= *t->count)
        return NULL;
    const struct tileops_kernel *k = &t->kernels[e->index];
    size_t ws = 0;
    if (k->op != c->op || k->dtype != c->dtype || k->variant != c->variant || !usable(h, k, c) ||
        k->fit(c->args, &ws) < 0)
        return NULL;
    if (workspace)
        *workspace = ws;
    return k;
}

const struct tileops_kernel *tileops__find_kernel(tileops_handle h, const char *fn,
                                                  const struct tileops__call *c,
                                                  size_t *workspace)
{
    const struct tileops_tier_table *t = h->tier;
    const struct tileops_kernel *tk = tuned_kernel(h, c, workspace);
    h->chose_tuned = tk != NULL;
    if (tk)
        return tk;
    const struct tileops_kernel *best = NULL;
    int64_t best_cost = 0;
    size_t best_ws = 0;
    int seen = 0;
    for (int i = 0; i < *t->count; i++) {
        const struct tileops_kernel *k = &t->kernels[i];
        if (k->op != c->op || k->dtype != c->dtype || k->variant != c->variant ||
            (h->pinned ? k->name != h->pinned : k->table_only))
            continue;
        seen = 1;
        if (!usable(h, k, c))
            continue;
        size_t ws = 0;
        int64_t cost = k->fit(c->args, &ws);
        if (cost >= 0 && (!best || cost < best_cost)) {
            best = k;
            best_cost = cost;
            best_ws = ws;
        }
    }
    if (best) {
        if (workspace)
            *workspace = best_ws;
        return best;
    }
    if (h->pinned)
        tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: the handle is pinned to %s (tileops_set_"
                      "kernel), which %s sm%d kernel of this operator, dtype and variant", fn,
                      h->pinned, seen ? "cannot serve this call as the" : "is not an", t->tier);
    else if (!seen)
        tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: the sm%d tier has no %s kernel%s", fn,
                      t->tier, tileops__dtype_name((tileops_dtype)c->dtype),
                      c->variant ? " of this variant" : "");
    else
        tileops__fail(TILEOPS_ERROR_NOT_SUPPORTED, "%s: no sm%d %s kernel fits these pointers' "
                      "alignment, this shape and %d bytes of shared memory", fn, t->tier,
                      tileops__dtype_name((tileops_dtype)c->dtype), h->dev.smem_optin);
    return NULL;
}

tileops_status tileops__launch(tileops_handle h, const char *fn,
                               const struct tileops_kernel *k, const void *args,
                               cudaStream_t stream)
{
    h->last_kernel = k->name;
    h->last_tuned = h->chose_tuned;
    if (h->dry_run)
        return TILEOPS_SUCCESS;
    if (!h->fake) {
        /* The launch goes to the thread's current device: refuse rather than compute on the
         * wrong GPU with pointers that belong to another. */
        int cur = -1;
        cudaError_t e = cudaGetDevice(&cur);
        if (e != cudaSuccess)
            return tileops__fail(TILEOPS_ERROR_CUDA, "%s: cudaGetDevice: %s", fn,
                                 cudaGetErrorString(e));
        if (cur != h->dev.ordinal)
            return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "%s: the handle is for device %d "
                                 "but the current device is %d", fn, h->dev.ordinal, cur);
    }
    int rc = k->launch(args, stream);
    if (rc != 0)
        return tileops__fail(TILEOPS_ERROR_CUDA, "%s: launching %s failed: %s", fn, k->name,
                             cudaGetErrorString((cudaError_t)rc));
    return TILEOPS_SUCCESS;
}
