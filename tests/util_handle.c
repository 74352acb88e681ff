/* util_handle.c: see util_handle.h. */
#include "util_handle.h"

#include "internal.h"

tileops_handle fake_handle(int cc)
{
    struct tileops_device dev = {0, cc, 132, 227 * 1024, "fake", 1};
    tileops_handle h = NULL;
    ck_assert_int_eq(tileops__create_from(&h, &dev, tileops_built_tiers,
                                          tileops_built_tier_count, 1),
                     TILEOPS_SUCCESS);
    h->tuned = NULL; /* the cost model's choices: test_tuned sets its own tables */
    return h;
}

tileops_handle handle_on_tier(int ti)
{
    tileops_handle h;
    ck_assert_msg(tileops_create(&h, 0) == TILEOPS_SUCCESS, "%s", tileops_last_error());
    CUDA_OK(cudaSetDevice(0));
    tileops_tier t = (tileops_tier)tileops_built_tiers[ti].tier;
    ck_assert_msg(tileops_set_tier(h, t) == TILEOPS_SUCCESS, "%s", tileops_last_error());
    return h;
}

void upload(void *dst, const void *src, size_t bytes)
{
    CUDA_OK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaDeviceSynchronize());
}
