// mma.sync m16n8k16 bf16 (fp32 accumulate) throughput on this GPU: the ceiling the sm80 tier's
// GEMM template runs under on Hopper. Pure register loop (no memory), and the same loop with
// the ldmatrix traffic of a 64x64 warp tile (8 ldmatrix.x4 per 32 mma), as the template issues.
// Build: nvcc -O3 -arch=sm_90a -o mma_peak mma_peak.cu    Run: ./mma_peak
#include <cstdio>
#include <cuda_runtime.h>

constexpr int ITERS = 4096;

__device__ __forceinline__ void mma(float *c, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// A 64x64 warp tile: 4 x 8 fragments, 32 mma per k16 step. MODE 0: mma only; 1: plus the
// template's fragment loads (4 ldmatrix.x4 for A, 4 .trans for B, conflict-free addresses),
// double-buffered as the template does; 2: plus a __syncthreads() every 2 k16 steps (BK = 32).
template <int MODE>
__global__ void loop(float *out, int seed)
{
    __shared__ __align__(128) unsigned short sm[64 * 64 * 4];
    for (int i = threadIdx.x; i < 64 * 64 * 4; i += blockDim.x) sm[i] = (unsigned short)(i * seed);
    __syncthreads();
    unsigned a[2][4][4], b[2][8][2];
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) a[s][i][j] = seed * (i + 3 * j + threadIdx.x + s);
        for (int i = 0; i < 8; i++) b[s][i][0] = b[s][i][1] = seed + i + s;
    }
    float c[4][8][4] = {};
    int lane = threadIdx.x & 31;
    unsigned base = (unsigned)__cvta_generic_to_shared(sm) + lane * 16;
    for (int it = 0; it < ITERS; it += 2) {
#pragma unroll
        for (int s = 0; s < 2; s++) {
            if (MODE >= 1) { // next step's fragments
                unsigned off = ((it + s) & 3) * 2048;
                for (int i = 0; i < 4; i++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                 : "=r"(a[s ^ 1][i][0]), "=r"(a[s ^ 1][i][1]), "=r"(a[s ^ 1][i][2]), "=r"(a[s ^ 1][i][3])
                                 : "r"(base + off + i * 512));
                for (int i = 0; i < 4; i++)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                 : "=r"(b[s ^ 1][2 * i][0]), "=r"(b[s ^ 1][2 * i][1]), "=r"(b[s ^ 1][2 * i + 1][0]), "=r"(b[s ^ 1][2 * i + 1][1])
                                 : "r"(base + 8192 + off + i * 512));
            }
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 8; j++) mma(c[i][j], a[s][i], b[s][i % 2 ? 7 - j : j]);
        }
        if (MODE >= 2)
            __syncthreads();
    }
    float s = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            for (int k = 0; k < 4; k++) s += c[i][j][k];
    if (s == 1234.5f) out[0] = s; // keeps the loop alive
}

int main()
{
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float *out; cudaMalloc(&out, 4);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    const int warps_list[] = {4, 8};
    for (int mode = 0; mode < 3; mode++)
        for (int wi = 0; wi < 2; wi++)
            for (int bps = 1; bps <= 3; bps++) {
                int warps = warps_list[wi];
                if (warps * bps > 8) continue; // ~200 registers a thread
                int blocks = sms * bps;
                for (int rep = 0; rep < 2; rep++) {
                    cudaEventRecord(e0);
                    if (mode == 0) loop<0><<<blocks, warps * 32>>>(out, 3);
                    if (mode == 1) loop<1><<<blocks, warps * 32>>>(out, 3);
                    if (mode == 2) loop<2><<<blocks, warps * 32>>>(out, 3);
                    cudaEventRecord(e1); cudaEventSynchronize(e1);
                    float ms; cudaEventElapsedTime(&ms, e0, e1);
                    double flop = 2.0 * 16 * 8 * 16 * 32 * (double)ITERS * warps * blocks;
                    if (rep) printf("mode=%d warps/block=%2d blocks/SM=%d: %.1f TFLOP/s (%.3f ms)\n",
                                    mode, warps, bps, flop / ms / 1e9, ms);
                }
            }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { printf("error %s\n", cudaGetErrorString(err)); return 1; }
    return 0;
}
