// What the split softmax's cooperative launch costs before it moves a byte, timed as
// tileops-bench times (an L2 flush, then CUDA events around one launch; median of 21):
//   - an empty kernel, 512 blocks of 128 threads, launched plainly and cooperatively;
//   - the same with cooperative_groups' grid.sync(), and with a hand-written barrier (one
//     atomicAdd a block on a counter that the launch before zeroed, then spinning);
//   - a copy of 8 MB and of 16 MB (the f16 and f32 4 x 2^20 inputs), and a kernel that reads 8
//     MB into registers, meets at grid.sync and then writes 8 MB (the split's bare skeleton).
//   - the skeleton with 16 KB of dynamic shared memory a block (unused), through a cp.async
//     stage, and without the barrier.
// Build: nvcc -O3 -arch=sm_90a -o coop_cost coop_cost.cu    Run: ./coop_cost
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void empty_kernel() {}

__global__ void grid_sync_kernel() { cooperative_groups::this_grid().sync(); }

__global__ void counter_kernel(unsigned *count)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(count, 1u);
        while (*(volatile unsigned *)count < gridDim.x)
            ;
    }
    __syncthreads();
}

// each thread: 8 16-byte loads, grid.sync, 8 16-byte stores (n16 = blocks * threads * 8)
__global__ void skeleton_kernel(const uint4 *x, uint4 *y)
{
    const long base = (long)blockIdx.x * blockDim.x * 8 + threadIdx.x;
    uint4 v[8];
#pragma unroll
    for (int u = 0; u < 8; u++)
        v[u] = __ldcs(x + base + u * blockDim.x);
    cooperative_groups::this_grid().sync();
#pragma unroll
    for (int u = 0; u < 8; u++)
        __stcs(y + base + u * blockDim.x, v[u]);
}

// the skeleton through shared memory: each thread cp.asyncs its 8 vectors into a 16 KB stage,
// waits, meets at grid.sync, then writes from the stage (the library split's data path
// without its arithmetic)
__global__ void skeleton_smem_kernel(const uint4 *x, uint4 *y)
{
    extern __shared__ uint4 stage[];
    const long base = (long)blockIdx.x * blockDim.x * 8 + threadIdx.x;
#pragma unroll
    for (int u = 0; u < 8; u++) {
        const unsigned s = (unsigned)__cvta_generic_to_shared(stage + threadIdx.x + u * blockDim.x);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(x + base + u * blockDim.x));
    }
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    cooperative_groups::this_grid().sync();
#pragma unroll
    for (int u = 0; u < 8; u++)
        __stcs(y + base + u * blockDim.x, stage[threadIdx.x + u * blockDim.x]);
}

// the register skeleton without the barrier: a copy kernel of the same shape
__global__ void copy_kernel(const uint4 *x, uint4 *y)
{
    const long base = (long)blockIdx.x * blockDim.x * 8 + threadIdx.x;
    uint4 v[8];
#pragma unroll
    for (int u = 0; u < 8; u++)
        v[u] = __ldcs(x + base + u * blockDim.x);
#pragma unroll
    for (int u = 0; u < 8; u++)
        __stcs(y + base + u * blockDim.x, v[u]);
}

int main()
{
    const size_t flush_bytes = 256u << 20;
    void *flush, *x, *y;
    unsigned *count;
    cudaMalloc(&flush, flush_bytes);
    cudaMalloc(&x, 16 << 20);
    cudaMalloc(&y, 16 << 20);
    cudaMalloc(&count, 4);
    cudaMemset(x, 0, 16 << 20);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const int blocks = 512, threads = 128;
    auto timed = [&](int which) {
        float t[23];
        int n = 0;
        for (int rep = 0; rep < 23; rep++) {
            cudaMemsetAsync(flush, rep, flush_bytes);
            if (which == 4)
                cudaMemsetAsync(count, 0, 4);
            cudaEventRecord(e0);
            void *none[] = {nullptr};
            void *skel[] = {&x, &y};
            switch (which) {
            case 0: empty_kernel<<<blocks, threads>>>(); break;
            case 1: cudaLaunchCooperativeKernel((void *)empty_kernel, blocks, threads, none); break;
            case 2: cudaLaunchCooperativeKernel((void *)grid_sync_kernel, blocks, threads, none); break;
            case 3: cudaLaunchCooperativeKernel((void *)grid_sync_kernel, 132, threads, none); break;
            case 4: counter_kernel<<<blocks, threads>>>(count); break;
            case 5: cudaMemcpyAsync(y, x, 8 << 20, cudaMemcpyDeviceToDevice); break;
            case 6: cudaMemcpyAsync(y, x, 16 << 20, cudaMemcpyDeviceToDevice); break;
            case 7: cudaLaunchCooperativeKernel((void *)skeleton_kernel, blocks, threads, skel); break;
            case 8: cudaLaunchCooperativeKernel((void *)skeleton_kernel, blocks, threads, skel, 16384); break;
            case 9: cudaLaunchCooperativeKernel((void *)skeleton_smem_kernel, blocks, threads, skel, 16384); break;
            case 10: copy_kernel<<<blocks, threads>>>((const uint4 *)x, (uint4 *)y); break;
            }
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms;
            cudaEventElapsedTime(&ms, e0, e1);
            if (rep >= 2)
                t[n++] = ms;
        }
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (t[j] < t[i]) {
                    float s = t[i];
                    t[i] = t[j];
                    t[j] = s;
                }
        return t[n / 2] * 1000.0f;
    };
    const char *what[] = {"empty, 512 x 128, plain launch", "empty, 512 x 128, cooperative",
                          "grid.sync, 512 x 128, cooperative", "grid.sync, 132 x 128, cooperative",
                          "atomic counter barrier, 512 x 128, plain", "copy 8 MB (cudaMemcpyAsync)",
                          "copy 16 MB (cudaMemcpyAsync)",
                          "read 8 MB, grid.sync, write 8 MB (512 x 128, coop)",
                          "  the same with 16 KB of dynamic smem a block, unused",
                          "  the same through a 16 KB cp.async stage",
                          "  the register skeleton without grid.sync (a copy kernel)"};
    for (int w = 0; w < 11; w++)
        printf("%-52s %7.2f us\n", what[w], timed(w));
    cudaError_t e = cudaGetLastError();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
