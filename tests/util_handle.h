/* util_handle.h: handles for the test suites (fake device properties, or device 0 forced to
 * one tier of this build) and a CUDA call check. Call from inside a Check test. */
#ifndef TILEOPS_TEST_UTIL_HANDLE_H
#define TILEOPS_TEST_UTIL_HANDLE_H

#include <check.h>
#include <cuda_runtime_api.h>

#include "tileops.h"

#define CUDA_OK(call)                                                                      \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        ck_assert_msg(e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(e_));        \
    } while (0)

/* Copies `bytes` from the host to the device and waits until they have landed: a pageable
 * cudaMemcpy may return before its DMA does, and a call on a non-blocking stream does not
 * wait for the legacy stream (under load the kernels read stale inputs). */
void upload(void *dst, const void *src, size_t bytes);

/* A handle on fake properties (compute capability cc, an H200's 132 SMs and 227 KB of
 * shared memory) with this build's tiers and no tuning table (dispatch by the cost model): no
 * device is touched; use it with dry runs. */
tileops_handle fake_handle(int cc);

/* A handle on device 0 forced to the tier of this build at index ti (tileops_built_tiers). */
tileops_handle handle_on_tier(int ti);

#endif
