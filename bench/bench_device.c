/* bench_device.c: tileops-bench device: this GPU's properties as a tuning table records them
 * (tileops-tune reads the line; its provenance header and file name come from it). */
#include "bench.h"

#include <stdio.h>

int bench_device(const struct bench_ctx *ctx)
{
    struct cudaDeviceProp p;
    int clock = 0, bus = 0, drv = 0, rt = 0;
    if (!bench_cuda_ok(cudaGetDeviceProperties(&p, ctx->device), "cudaGetDeviceProperties") ||
        !bench_cuda_ok(cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, ctx->device),
                       "cudaDeviceGetAttribute") ||
        !bench_cuda_ok(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, ctx->device),
                       "cudaDeviceGetAttribute") ||
        !bench_cuda_ok(cudaDriverGetVersion(&drv), "cudaDriverGetVersion") ||
        !bench_cuda_ok(cudaRuntimeGetVersion(&rt), "cudaRuntimeGetVersion"))
        return -1;
    /* the name last: it has spaces */
    printf("gpu cc=%d sms=%d l2_bytes=%d memory_clock_khz=%d memory_bus_bits=%d driver=%d "
           "runtime=%d name=%s\n", p.major * 10 + p.minor, p.multiProcessorCount, p.l2CacheSize,
           clock, bus, drv, rt, p.name);
    return 0;
}
