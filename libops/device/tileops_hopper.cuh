// tileops_hopper.cuh: the Hopper (sm_90a) primitives the sm90 templates share: mbarriers, TMA
// tile loads, the async-proxy fence, wgmma (fence / commit / wait, the shared-memory matrix
// descriptor, mma_async m64nNk16 with A from shared memory or registers), setmaxnreg and the
// cluster's barrier and distributed shared memory. Used by gemm_sm90.cu, flash_attention_sm90.cu
// and softmax_cluster.cu. Included at file scope from tileops_device.cuh, after tileops_mma.cuh
// (smem_addr).
//
// Every tier's sources include this header, but these instructions exist only on sm_90a: on any
// other device pass the bodies are __trap() (a template that reached one would fail loudly,
// never compute silently); on the host pass they are not compiled. Addresses are 32-bit
// shared-window addresses (smem_addr()) unless a pointer type says otherwise.
#ifndef TILEOPS_HOPPER_CUH
#define TILEOPS_HOPPER_CUH

#include <cuda.h> // CUtensorMap

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILEOPS_SM90A_ONLY(...) __trap()
#else
#define TILEOPS_SM90A_ONLY(...) __VA_ARGS__
#endif

// ---- mbarrier -------------------------------------------------------------------------------

// Initializes the barrier at bar to expect `count` arrivals a phase. Make it visible to the
// other threads and the async proxy (mbarrier_init_fence, then a block barrier) before use.
static __device__ __forceinline__ void mbarrier_init(uint32_t bar, unsigned count)
{
    TILEOPS_SM90A_ONLY(asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count)
                                    : "memory"));
}

// Orders this thread's mbarrier_init before later uses by other threads and by TMA.
static __device__ __forceinline__ void mbarrier_init_fence()
{
    TILEOPS_SM90A_ONLY(asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"));
}

// One arrival on the barrier.
static __device__ __forceinline__ void mbarrier_arrive(uint32_t bar)
{
    TILEOPS_SM90A_ONLY(asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory"));
}

// One arrival that also announces `bytes` of transactions (TMA complete_tx) for this phase.
static __device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, unsigned bytes)
{
    TILEOPS_SM90A_ONLY(asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                                    "r"(bytes)
                                    : "memory"));
}

// Whether the phase of parity `parity` has completed (a bounded hardware wait, then a probe).
static __device__ __forceinline__ bool mbarrier_try_wait(uint32_t bar, unsigned parity)
{
    uint32_t ok = 1;
    TILEOPS_SM90A_ONLY(asm volatile("{\n.reg .pred p;\n"
                                    "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                                    "selp.u32 %0, 1, 0, p;\n}\n"
                                    : "=r"(ok)
                                    : "r"(bar), "r"(parity)
                                    : "memory"));
    return ok != 0;
}

// Spins until the phase of parity `parity` has completed. A freshly initialized barrier is in
// phase 0: waiting for parity 1 returns at once (the "previous" phase counts as done), which is
// how a producer passes its first round of empty slots.
static __device__ __forceinline__ void mbarrier_wait(uint32_t bar, unsigned parity)
{
    while (!mbarrier_try_wait(bar, parity)) {
    }
}

// ---- clusters -------------------------------------------------------------------------------

// This CTA's rank in its cluster.
static __device__ __forceinline__ unsigned cluster_ctarank()
{
    unsigned r = 0;
    TILEOPS_SM90A_ONLY(asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)));
    return r;
}

// Every thread of every CTA of the cluster meets here; shared-memory writes and mbarrier inits
// before it are visible to the cluster after it (release / acquire).
static __device__ __forceinline__ void cluster_sync()
{
    TILEOPS_SM90A_ONLY(asm volatile("barrier.cluster.arrive.release;\n"
                                    "barrier.cluster.wait.acquire;" ::: "memory"));
}

// cluster_sync in two halves: this thread's arrival (relaxed: it orders nothing), and the wait
// for every thread of the cluster's. Distributed shared memory of a CTA may be touched only once
// it runs: arrive at entry, wait before the first access, and do other work between.
static __device__ __forceinline__ void cluster_arrive_relaxed()
{
    TILEOPS_SM90A_ONLY(asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory"));
}
static __device__ __forceinline__ void cluster_wait()
{
    TILEOPS_SM90A_ONLY(asm volatile("barrier.cluster.wait.acquire;" ::: "memory"));
}

// One arrival on the barrier at the same shared-memory offset as bar in CTA `cta` of the
// cluster (this CTA's own included). Release at CTA scope, as a local arrival: at cluster
// scope it adds a fence that stalls the arriving thread for about a microsecond.
static __device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t bar, unsigned cta)
{
    TILEOPS_SM90A_ONLY(asm volatile("{\n.reg .b32 remote;\n"
                                    "mapa.shared::cluster.u32 remote, %0, %1;\n"
                                    "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}"
                                    ::"r"(bar), "r"(cta) : "memory"));
}

// The 16 bytes at the same shared-memory offset as addr in CTA `cta` of the cluster (distributed
// shared memory; visible after a cluster_sync that follows the owner's writes).
static __device__ __forceinline__ float4 ld_shared_cluster_f32x4(uint32_t addr, unsigned cta)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    TILEOPS_SM90A_ONLY(asm volatile("{\n.reg .b32 remote;\n"
                                    "mapa.shared::cluster.u32 remote, %4, %5;\n"
                                    "ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [remote];\n}"
                                    : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                                    : "r"(addr), "r"(cta)));
    return v;
}

// Stores (x, y) at the same shared-memory offset as addr in CTA `cta` of the cluster (this
// CTA's own included); the owner sees them after a cluster_sync that follows.
static __device__ __forceinline__ void st_shared_cluster_f32x2(uint32_t addr, unsigned cta,
                                                               float x, float y)
{
    TILEOPS_SM90A_ONLY(asm volatile("{\n.reg .b32 remote;\n"
                                    "mapa.shared::cluster.u32 remote, %0, %1;\n"
                                    "st.shared::cluster.v2.f32 [remote], {%2, %3};\n}"
                                    ::"r"(addr), "r"(cta), "f"(x), "f"(y) : "memory"));
}

// ---- TMA --------------------------------------------------------------------------------------

// Prefetches a tensor map (a __grid_constant__ parameter) into the descriptor cache.
static __device__ __forceinline__ void tma_prefetch_map(const CUtensorMap *map)
{
    TILEOPS_SM90A_ONLY(asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)map) : "memory"));
}

// Loads the box of `map` at element coordinates (c0 innermost, c1) into shared memory at dst,
// completing `box bytes` of transactions on the barrier bar. Out-of-bounds elements read as 0.
static __device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map,
                                                   uint32_t bar, int c0, int c1)
{
    TILEOPS_SM90A_ONLY(asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"((uint64_t)map), "r"(bar), "r"(c0), "r"(c1)
        : "memory"));
}

// tma_load_2d into the same offset dst of every CTA in cta_mask (bit r: cluster rank r), each
// completing the box's bytes on its own barrier at offset bar.
static __device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap *map,
                                                             uint32_t bar, int c0, int c1,
                                                             uint16_t cta_mask)
{
    TILEOPS_SM90A_ONLY(asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst),
        "l"((uint64_t)map), "r"(bar), "r"(c0), "r"(c1), "h"(cta_mask)
        : "memory"));
}

// The same for a 3-D map (c0 innermost).
static __device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap *map,
                                                   uint32_t bar, int c0, int c1, int c2)
{
    TILEOPS_SM90A_ONLY(asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(dst),
        "l"((uint64_t)map), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
        : "memory"));
}

// The same for a 4-D map (c0 innermost).
static __device__ __forceinline__ void tma_load_4d(uint32_t dst, const CUtensorMap *map,
                                                   uint32_t bar, int c0, int c1, int c2, int c3)
{
    TILEOPS_SM90A_ONLY(asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5, %6}], [%2];" ::"r"(dst),
        "l"((uint64_t)map), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
        : "memory"));
}

// Stores the box of `map` at element coordinates (c0 innermost, c1) from shared memory at src
// (in the map's swizzle); elements outside the tensor are not written. Completes in a bulk
// group (bulk_commit, bulk_wait_read / bulk_wait).
static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, uint32_t src, int c0,
                                                    int c1)
{
    TILEOPS_SM90A_ONLY(asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
            (uint64_t)map),
        "r"(src), "r"(c0), "r"(c1)
        : "memory"));
}

// Closes the group of bulk stores issued since the last commit.
static __device__ __forceinline__ void bulk_commit()
{
    TILEOPS_SM90A_ONLY(asm volatile("cp.async.bulk.commit_group;" ::: "memory"));
}

// Waits until at most N bulk groups still read their shared-memory source (it may be reused).
template <int N> static __device__ __forceinline__ void bulk_wait_read()
{
    TILEOPS_SM90A_ONLY(asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory"));
}

// Waits until at most N bulk groups are pending at all (their global writes done).
template <int N> static __device__ __forceinline__ void bulk_wait()
{
    TILEOPS_SM90A_ONLY(asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory"));
}

// A 4-byte store to shared memory at a shared-window address.
static __device__ __forceinline__ void st_shared_u32(uint32_t addr, uint32_t v)
{
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

// A 16-byte store of four floats to shared memory at a shared-window address (16-byte aligned).
static __device__ __forceinline__ void st_shared_f32x4(uint32_t addr, float a, float b, float c,
                                                       float d)
{
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "f"(a), "f"(b), "f"(c),
                 "f"(d)
                 : "memory");
}

// A 4-byte load from shared memory at a shared-window address.
static __device__ __forceinline__ uint32_t ld_shared_u32(uint32_t addr)
{
    uint32_t v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

// A barrier of `count` threads (a multiple of 32) on hardware barrier `id` (1..15; 0 is
// __syncthreads'): a warpgroup's own.
static __device__ __forceinline__ void named_barrier_sync(unsigned id, unsigned count)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

// An arrival on hardware barrier `id` without waiting: the producer's side of a barrier that
// `count` threads meet at, the others through named_barrier_sync.
static __device__ __forceinline__ void named_barrier_arrive(unsigned id, unsigned count)
{
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}

// Orders this thread's ordinary shared-memory writes before later async-proxy accesses (TMA
// stores, wgmma operands written by st.shared/stmatrix); each writing thread, before the barrier.
static __device__ __forceinline__ void fence_proxy_async()
{
    TILEOPS_SM90A_ONLY(asm volatile("fence.proxy.async.shared::cta;" ::: "memory"));
}

// ---- registers ----------------------------------------------------------------------------

// setmaxnreg: the warpgroup's register budget a thread, to N (a multiple of 8 in 24..256). The
// kernel needs a register cap at entry (__launch_bounds__(threads, 1)) and each role one branch.
template <int N> static __device__ __forceinline__ void setmaxnreg_dec()
{
    TILEOPS_SM90A_ONLY(asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N)));
}
template <int N> static __device__ __forceinline__ void setmaxnreg_inc()
{
    TILEOPS_SM90A_ONLY(asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N)));
}

// ---- wgmma ------------------------------------------------------------------------------------

// Orders prior register and shared-memory accesses before the wgmma.mma_async that follow.
static __device__ __forceinline__ void wgmma_fence()
{
    TILEOPS_SM90A_ONLY(asm volatile("wgmma.fence.sync.aligned;" ::: "memory"));
}

// Closes the group of wgmma.mma_async issued since the last commit.
static __device__ __forceinline__ void wgmma_commit()
{
    TILEOPS_SM90A_ONLY(asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"));
}

// Waits until at most N committed groups are pending.
template <int N> static __device__ __forceinline__ void wgmma_wait()
{
    TILEOPS_SM90A_ONLY(asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"));
}

// Keeps the compiler from moving accesses of the accumulators across this point (they are
// written asynchronously between an mma_async and its wait).
template <int N> static __device__ __forceinline__ void wgmma_fence_operands(float (&d)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

// The same for register operands of a wgmma (A fragments, accumulators it will read): computed
// before this point, so not sunk past a wgmma_fence that must follow their last write.
template <int N> static __device__ __forceinline__ void wgmma_fence_operands(uint32_t (&r)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++)
        asm volatile("" : "+r"(r[i])::"memory");
}

// The 64-bit shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format") of an operand
// in the 128-byte swizzle layout: start address >> 4 (bits 0-13), leading byte offset >> 4
// (16-29), stride byte offset >> 4 (32-45), base offset 0 (the tile is 1024-byte aligned, or
// offset from such a tile by less than a 128-byte row inside a swizzle atom, as the k16 steps
// are), swizzle mode 1 = 128B (62-63).
//   K-major (rows of 64 elements = 128 bytes, k contiguous): lbo unused (16), sbo = 1024 (8
//   rows); a k16 step adds 32 bytes to the start.
//   MN-major (transposed; rows of 64 elements along M or N, one row per k): lbo = bytes from one
//   64-wide block of M/N to the next, sbo = 1024 (8 k rows); a k16 step adds 16 rows.
static __device__ __forceinline__ uint64_t wgmma_desc_sw128(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)((lbo & 0x3ffff) >> 4) << 16 |
           (uint64_t)((sbo & 0x3ffff) >> 4) << 32 | 1ull << 62;
}

// A descriptor's start moved on by `bytes` (a multiple of 16; the new start still inside the
// 256 KB the field spans): one 32-bit add of its low word, where building the descriptor anew
// costs the issue slots of a mask, a shift and an or per wgmma.
static __device__ __forceinline__ uint64_t wgmma_desc_add(uint64_t desc, uint32_t bytes)
{
    return (desc & ~0xffffffffull) | (uint32_t)((uint32_t)desc + (bytes >> 4));
}

// wgmma.mma_async, fp32 accumulators in registers in the m64nN fragment layout: thread t of the
// warpgroup (warp w = t / 32, lane l) holds, for each n8 block j, d[4j], d[4j+1] at row
// 16w + l/4, columns 8j + 2(l%4) and +1, and d[4j+2], d[4j+3] eight rows below. B comes from
// shared memory (a descriptor): TRANS_B 0, K-major; 1, N-major (transposed). A comes from
// shared memory (K-major, wgmma_m64nNk16) or from registers (wgmma_rs_m64nNk16: a[0..3] hold
// rows 16w + l/4 and +8, columns 2(l%4), +1 and +8, +9 of the warp's 16 x 16 piece, as
// mma.sync's A fragment; the C fragment of two n8 blocks packed to pairs is exactly that). The
// element type is chosen by a null pointer tag, as in tileops_mma.cuh. scale_d 0: d = A x B,
// else d += A x B. Each shape is stamped from the operand lists below (R = N / 2 registers).
#define TILEOPS_WG_ACC8(d, i)                                                                   \
    "+f"(d[(i)]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3]), "+f"(d[(i) + 4]),       \
        "+f"(d[(i) + 5]), "+f"(d[(i) + 6]), "+f"(d[(i) + 7])
#define TILEOPS_WG_ACC32(d, i)                                                                  \
    TILEOPS_WG_ACC8(d, (i)), TILEOPS_WG_ACC8(d, (i) + 8), TILEOPS_WG_ACC8(d, (i) + 16),         \
        TILEOPS_WG_ACC8(d, (i) + 24)
#define TILEOPS_WG_ACC_32(d) TILEOPS_WG_ACC32(d, 0)
#define TILEOPS_WG_ACC_64(d) TILEOPS_WG_ACC32(d, 0), TILEOPS_WG_ACC32(d, 32)
#define TILEOPS_WG_ACC_96(d) TILEOPS_WG_ACC_64(d), TILEOPS_WG_ACC32(d, 64)
#define TILEOPS_WG_ACC_128(d) TILEOPS_WG_ACC_96(d), TILEOPS_WG_ACC32(d, 96)
#define TILEOPS_WG_ACC_40(d) TILEOPS_WG_ACC32(d, 0), TILEOPS_WG_ACC8(d, 32)
#define TILEOPS_WG_ACC_88(d)                                                                    \
    TILEOPS_WG_ACC_64(d), TILEOPS_WG_ACC8(d, 64), TILEOPS_WG_ACC8(d, 72), TILEOPS_WG_ACC8(d, 80)
#define TILEOPS_WG_R0 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TILEOPS_WG_R32 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TILEOPS_WG_R64 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define TILEOPS_WG_R96 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define TILEOPS_WG_REGS_32 TILEOPS_WG_R0
#define TILEOPS_WG_REGS_64 TILEOPS_WG_R0 ", " TILEOPS_WG_R32
#define TILEOPS_WG_REGS_96 TILEOPS_WG_REGS_64 ", " TILEOPS_WG_R64
#define TILEOPS_WG_REGS_128 TILEOPS_WG_REGS_96 ", " TILEOPS_WG_R96
#define TILEOPS_WG_REGS_40 TILEOPS_WG_R0 ", %32, %33, %34, %35, %36, %37, %38, %39"
#define TILEOPS_WG_REGS_88 TILEOPS_WG_REGS_64 ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87"
// The operands after R accumulators: shared A (descriptor), B, scale_d, TRANS_B; or register A
// (four), B, scale_d, TRANS_B.
#define TILEOPS_WG_SS_32 "%34", "%32, %33, p, 1, 1, 0, %35"
#define TILEOPS_WG_SS_64 "%66", "%64, %65, p, 1, 1, 0, %67"
#define TILEOPS_WG_SS_96 "%98", "%96, %97, p, 1, 1, 0, %99"
#define TILEOPS_WG_SS_128 "%130", "%128, %129, p, 1, 1, 0, %131"
#define TILEOPS_WG_SS_40 "%42", "%40, %41, p, 1, 1, 0, %43"
#define TILEOPS_WG_SS_88 "%90", "%88, %89, p, 1, 1, 0, %91"
#define TILEOPS_WG_RS_32 "%37", "{%32, %33, %34, %35}, %36, p, 1, 1, %38"
#define TILEOPS_WG_RS_64 "%69", "{%64, %65, %66, %67}, %68, p, 1, 1, %70"
#define TILEOPS_WG_RS_128 "%133", "{%128, %129, %130, %131}, %132, p, 1, 1, %134"
#define TILEOPS_WG_ASM(SHAPE, PTX_T, SCALE, TAIL, R)                                            \
    "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\n"                                          \
    "wgmma.mma_async.sync.aligned." SHAPE ".f32." PTX_T "." PTX_T "\n{" TILEOPS_WG_REGS_##R     \
    "}, " TAIL ";\n}\n"
#define TILEOPS_WG_ASM_(SHAPE, PTX_T, ST, R) TILEOPS_WG_ASM(SHAPE, PTX_T, ST, R)

// d[N/2] (+)= A[64][16] (a_desc) x B[16][N] (b_desc), fp32 += T.
#define TILEOPS_WGMMA_SS(N, R, T, PTX_T)                                                        \
    template <int TRANS_B>                                                                      \
    static __device__ __forceinline__ void wgmma_m64n##N##k16(float (&d)[R], uint64_t a_desc,   \
                                                              uint64_t b_desc, int scale_d,     \
                                                              const T *)                        \
    {                                                                                           \
        TILEOPS_SM90A_ONLY(asm volatile(                                                        \
            TILEOPS_WG_ASM_("m64n" #N "k16", PTX_T, TILEOPS_WG_SS_##R, R)                       \
            : TILEOPS_WG_ACC_##R(d)                                                             \
            : "l"(a_desc), "l"(b_desc), "r"(scale_d), "n"(TRANS_B)));                           \
    }
// d[N/2] (+)= A[64][16] (registers a, the warp's 16 rows) x B[16][N] (b_desc), fp32 += T.
#define TILEOPS_WGMMA_RS(N, R, T, PTX_T)                                                        \
    template <int TRANS_B>                                                                      \
    static __device__ __forceinline__ void wgmma_rs_m64n##N##k16(                               \
        float (&d)[R], const uint32_t (&a)[4], uint64_t b_desc, int scale_d, const T *)         \
    {                                                                                           \
        TILEOPS_SM90A_ONLY(asm volatile(                                                        \
            TILEOPS_WG_ASM_("m64n" #N "k16", PTX_T, TILEOPS_WG_RS_##R, R)                       \
            : TILEOPS_WG_ACC_##R(d)                                                             \
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc), "r"(scale_d),            \
              "n"(TRANS_B)));                                                                   \
    }
#define TILEOPS_WGMMA_SHAPES(T, PTX_T)                                                          \
    TILEOPS_WGMMA_SS(64, 32, T, PTX_T)                                                          \
    TILEOPS_WGMMA_SS(80, 40, T, PTX_T)                                                          \
    TILEOPS_WGMMA_SS(128, 64, T, PTX_T)                                                         \
    TILEOPS_WGMMA_SS(176, 88, T, PTX_T)                                                         \
    TILEOPS_WGMMA_SS(192, 96, T, PTX_T)                                                         \
    TILEOPS_WGMMA_SS(256, 128, T, PTX_T)                                                        \
    TILEOPS_WGMMA_RS(64, 32, T, PTX_T)                                                          \
    TILEOPS_WGMMA_RS(128, 64, T, PTX_T)                                                         \
    TILEOPS_WGMMA_RS(256, 128, T, PTX_T)
TILEOPS_WGMMA_SHAPES(__half, "f16")
TILEOPS_WGMMA_SHAPES(__nv_bfloat16, "bf16")

// d (+)= A x B, both from shared memory, with the m64nNk16 shape of d's size (N = 2 x R): the
// one place a template's accumulator array picks its wgmma. T: the element type's null tag.
template <int TRANS_B, int R, typename T>
static __device__ __forceinline__ void wgmma_ss(float (&d)[R], uint64_t a_desc, uint64_t b_desc,
                                                int scale_d, const T *tag)
{
    if constexpr (R == 128)
        wgmma_m64n256k16<TRANS_B>(d, a_desc, b_desc, scale_d, tag);
    else if constexpr (R == 96)
        wgmma_m64n192k16<TRANS_B>(d, a_desc, b_desc, scale_d, tag);
    else if constexpr (R == 88)
        wgmma_m64n176k16<TRANS_B>(d, a_desc, b_desc, scale_d, tag);
    else if constexpr (R == 64)
        wgmma_m64n128k16<TRANS_B>(d, a_desc, b_desc, scale_d, tag);
    else if constexpr (R == 40)
        wgmma_m64n80k16<TRANS_B>(d, a_desc, b_desc, scale_d, tag);
    else
        wgmma_m64n64k16<TRANS_B>(d, a_desc, b_desc, scale_d, tag);
}

#endif
