/* handle.c: create and destroy handles, and the per-handle options (tier, dry run). */
#include "internal.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

/* Reads TILEOPS_TIER ("sm80", "80" or "auto"); -1 for a value that names no tier. */
static int tier_from_env(void)
{
    const char *s = getenv("TILEOPS_TIER");
    if (!s || !*s || strcmp(s, "auto") == 0)
        return TILEOPS_TIER_AUTO;
    if (strncmp(s, "sm", 2) == 0)
        s += 2;
    if (strcmp(s, "70") == 0 || strcmp(s, "80") == 0 || strcmp(s, "90") == 0)
        return atoi(s);
    return -1;
}

tileops_status tileops__create_from(tileops_handle *handle, const struct tileops_device *dev,
                                    const struct tileops_tier_table *tiers, int ntiers,
                                    int fake)
{
    tileops_status st;
    int requested = tier_from_env();
    if (requested < 0)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "tileops_create: TILEOPS_TIER='%s' "
                             "is not a tier (sm70, sm80, sm90 or auto)", getenv("TILEOPS_TIER"));
    const struct tileops_tier_table *tier =
        tileops__choose_tier(dev->cc, requested, tiers, ntiers, &st);
    if (!tier)
        return st;
    struct tileops_handle_st *h = calloc(1, sizeof *h);
    if (!h)
        return tileops__fail(TILEOPS_ERROR_OUT_OF_MEMORY, "tileops_create: out of host memory");
    h->dev = *dev;
    h->tiers = tiers;
    h->ntiers = ntiers;
    h->tier = tier;
    h->fake = fake;
    h->last_kernel = "";
    h->tuned = tileops__tuned_table_for(dev->cc, dev->sms, tileops_tuned_tables,
                                        tileops_tuned_table_count);
    *handle = h;
    return TILEOPS_SUCCESS;
}

/* Reads the properties dispatch needs; no context is created. */
static tileops_status query_device(int device, struct tileops_device *dev)
{
    int count = 0, major = 0, minor = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0)
        return tileops__fail(TILEOPS_ERROR_NO_DEVICE, "tileops_create: no CUDA device (%s)",
                             e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    if (device < 0 || device >= count)
        return tileops__fail(TILEOPS_ERROR_NO_DEVICE, "tileops_create: device %d does not "
                             "exist (%d device%s)", device, count, count == 1 ? "" : "s");
    memset(dev, 0, sizeof *dev);
    dev->ordinal = device;
    if ((e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) ||
        (e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device)) ||
        (e = cudaDeviceGetAttribute(&dev->sms, cudaDevAttrMultiProcessorCount, device)) ||
        (e = cudaDeviceGetAttribute(&dev->smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                    device)) ||
        (e = cudaDeviceGetAttribute(&dev->coop, cudaDevAttrCooperativeLaunch, device)))
        return tileops__fail(TILEOPS_ERROR_CUDA, "tileops_create: cudaDeviceGetAttribute: %s",
                             cudaGetErrorString(e));
    dev->cc = 10 * major + minor;
    struct cudaDeviceProp prop;
    if ((e = cudaGetDeviceProperties(&prop, device)) != cudaSuccess)
        return tileops__fail(TILEOPS_ERROR_CUDA, "tileops_create: cudaGetDeviceProperties: %s",
                             cudaGetErrorString(e));
    memcpy(dev->name, prop.name, sizeof dev->name);
    dev->name[sizeof dev->name - 1] = 0;
    return TILEOPS_SUCCESS;
}

tileops_status tileops_create(tileops_handle *handle, int device)
{
    struct tileops_device dev;
    if (!handle)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "tileops_create: handle is NULL");
    *handle = NULL;
    tileops_status st = query_device(device, &dev);
    if (st != TILEOPS_SUCCESS)
        return st;
    return tileops__create_from(handle, &dev, tileops_built_tiers, tileops_built_tier_count, 0);
}

tileops_status tileops_destroy(tileops_handle handle)
{
    free(handle);
    return TILEOPS_SUCCESS;
}

tileops_status tileops_set_tier(tileops_handle h, tileops_tier tier)
{
    tileops_status st;
    if (!h)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "tileops_set_tier: handle is NULL");
    if (tier != TILEOPS_TIER_AUTO && tier != TILEOPS_TIER_SM70 && tier != TILEOPS_TIER_SM80 &&
        tier != TILEOPS_TIER_SM90)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "tileops_set_tier: %d is not a tier",
                             (int)tier);
    const struct tileops_tier_table *t =
        tileops__choose_tier(h->dev.cc, tier, h->tiers, h->ntiers, &st);
    if (!t)
        return st;
    h->tier = t;
    return TILEOPS_SUCCESS;
}

tileops_tier tileops_get_tier(tileops_handle h)
{
    return h ? (tileops_tier)h->tier->tier : TILEOPS_TIER_AUTO;
}

tileops_status tileops_set_dry_run(tileops_handle h, int dry_run)
{
    if (!h)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "tileops_set_dry_run: handle is NULL");
    h->dry_run = dry_run != 0;
    return TILEOPS_SUCCESS;
}

tileops_status tileops_set_kernel(tileops_handle h, const char *name)
{
    if (!h)
        return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "tileops_set_kernel: handle is NULL");
    if (!name) {
        h->pinned = NULL;
        return TILEOPS_SUCCESS;
    }
    for (int t = 0; t < h->ntiers; t++)
        for (int i = 0; i < *h->tiers[t].count; i++)
            if (!strcmp(h->tiers[t].kernels[i].name, name)) {
                h->pinned = h->tiers[t].kernels[i].name;
                return TILEOPS_SUCCESS;
            }
    return tileops__fail(TILEOPS_ERROR_INVALID_VALUE, "tileops_set_kernel: no tier of this "
                         "handle holds a kernel named \"%s\"", name);
}

const char *tileops_last_kernel(tileops_handle h)
{
    return h ? h->last_kernel : "";
}

const char *tileops_kernel_name(tileops_handle h, int index)
{
    if (!h || index < 0 || index >= *h->tier->count)
        return NULL;
    return h->tier->kernels[index].name;
}

int tileops_last_kernel_tuned(tileops_handle h)
{
    return h ? h->last_tuned : 0;
}
