// sx_common.cuh: file-scope helpers of the softmax sweep's draft template (softmax_x.cu):
// load/store variants, the sm90 bulk copy (TMA, no tensor map) with its mbarrier, and the
// cooperative-groups grid barrier. Included once per source, before any instance namespace.
// sm_90a only (the sweep builds nothing else).
#ifndef SX_COMMON_CUH
#define SX_COMMON_CUH

#include <cooperative_groups.h>

#include "tileops_device.cuh"

// ---- a row chunk staged in shared memory (the library's loop forms before session 11) ------
// `stage` holds the chunk's first nv elements as whole 16-byte vectors V of T; a thread
// visits elements first, first + step, ... (first = its index times the vector length).

// Issues this thread's cp.async of x[0, nv) into the stage (the caller commits).
template <typename T>
static __device__ __forceinline__ void stage_chunk(T *stage, const T *x, int nv, int first,
                                                   int step)
{
    for (int i = first; i < nv; i += step)
        cp_async_16(smem_addr(stage + i), x + i, 16);
}

// NaN-propagating max of this thread's staged elements; -inf if it has none.
template <typename V, typename T>
static __device__ __forceinline__ float staged_max(const T *stage, int nv, int first, int step)
{
    constexpr int VEC = sizeof(V) / sizeof(T);
    float m = -INFINITY;
    for (int i = first; i < nv; i += step)
        m = max_nan(m, max_nan_of(((const V *)(stage + i))->v, VEC));
    return m;
}

// Sum of exp(x - m) over this thread's staged elements (exp_term).
template <typename V, typename T>
static __device__ __forceinline__ float staged_sum(const T *stage, int nv, int first, int step,
                                                   float m, float m2, bool scaled)
{
    constexpr int VEC = sizeof(V) / sizeof(T);
    float s = 0.0f;
    for (int i = first; i < nv; i += step) {
        const V in = *(const V *)(stage + i);
#pragma unroll
        for (int j = 0; j < VEC; j++)
            s += exp_term(to_f32(in.v[j]), m, m2, scaled);
    }
    return s;
}

// Writes this thread's outputs of the staged elements to y (softmax_output of each).
template <typename V, typename T>
static __device__ __forceinline__ void staged_write(const T *stage, T *y, int nv, int first,
                                                    int step, float m, float m2, float scale,
                                                    bool log_mode)
{
    for (int i = first; i < nv; i += step) {
        const V in = *(const V *)(stage + i); // one vector load
        softmax_write_vec(y, i, in, m, m2, scale, log_mode);
    }
}

// ---- 16-byte global -> shared copies -----------------------------------------------------
// kind 0: cp.async.cg (the library today); 1: with a 128-byte L2 prefetch; 2: 256-byte.
template <int KIND> static __device__ __forceinline__ void sx_cp_async_16(uint32_t dst, const void *src)
{
    if (KIND == 1)
        asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
    else if (KIND == 2 || KIND == 4)
        asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}

// ---- 16-byte global loads into registers (read-only path) -------------------------------
// kind 0: a plain vector load (the library today); 1: ld.global.nc.L1::no_allocate with a
// 128-byte L2 prefetch; 2 (and 3): the same with 256 bytes (the library's PREFETCH = 1);
// 4: the coherent ld.global.L1::no_allocate.L2::256B.
template <int KIND> static __device__ __forceinline__ uint4 sx_ld_16(const void *p)
{
    uint4 v;
    if (KIND == 1)
        asm volatile("ld.global.nc.L1::no_allocate.L2::128B.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else if (KIND == 4)
        asm volatile("ld.global.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else if (KIND >= 2)
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else
        v = *(const uint4 *)p;
    return v;
}

// ---- 16-byte stores of the output --------------------------------------------------------
// kind 0: st.global.cs (store_stream, the library today); 1: a plain store; 2:
// st.global.L1::no_allocate with an L2 evict-first cache policy.
template <int KIND> static __device__ __forceinline__ void sx_st_16(void *p, const uint4 &v)
{
    if (KIND == 1) {
        *(uint4 *)p = v;
    } else if (KIND == 2) {
        uint64_t pol;
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("st.global.L1::no_allocate.L2::cache_hint.v4.u32 [%0], {%1,%2,%3,%4}, %5;"
                     ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(pol) : "memory");
    } else {
        __stcs((float4 *)p, *(const float4 *)&v);
    }
}

// ---- sm90 bulk copy global -> shared, completing on an mbarrier --------------------------
static __device__ __forceinline__ void sx_mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// The one arrival of a phase, announcing `bytes` of bulk copies to come.
static __device__ __forceinline__ void sx_mbar_expect(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
                 "r"(bytes) : "memory");
}

// Waits until phase `parity` of the barrier has completed.
static __device__ __forceinline__ void sx_mbar_wait(uint64_t *bar, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "SX_WAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra SX_WAIT_%=;\n"
                 "}\n" ::"r"(smem_addr(bar)), "r"(parity) : "memory");
}

// Orders this thread's earlier generic-proxy shared accesses before later bulk copies.
static __device__ __forceinline__ void sx_fence_proxy_async()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// bytes (a multiple of 16, both addresses 16-byte aligned) from src to dst, on `bar`.
static __device__ __forceinline__ void sx_bulk_load(void *dst, const void *src, unsigned bytes, uint64_t *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)) : "memory");
}

// Release-add to a global counter (replaces __threadfence + atomicAdd).
static __device__ __forceinline__ void sx_red_release_add(unsigned *p, unsigned v)
{
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// ---- staged passes the library's helpers lack ------------------------------------------

// One pass over this thread's staged elements: their max m and sum of exp(x - m), the sum
// rescaled whenever the max grows (online softmax). m = -inf leaves s meaningless (the
// caller zeroes it, as after the two-pass form); a NaN makes both NaN.
template <typename V, typename T>
static __device__ __forceinline__ void sx_staged_online(const T *stage, int nv, int first, int step,
                                                        float &m, float &s)
{
    constexpr int VEC = sizeof(V) / sizeof(T);
    m = -INFINITY;
    s = 0.0f;
    for (int i = first; i < nv; i += step) {
        const V in = *(const V *)(stage + i);
        const float nm = max_nan(m, max_nan_of(in.v, VEC));
        if (nm != m) {
            s = m == -INFINITY ? 0.0f : s * fast_exp2((m - nm) * TILEOPS_LOG2E);
            m = nm;
        }
#pragma unroll
        for (int j = 0; j < VEC; j++)
            s += exp_from(to_f32(in.v[j]), m);
    }
}

// staged_write with the store variant KIND (sx_st_16).
template <int KIND, typename V, typename T>
static __device__ __forceinline__ void sx_staged_write(const T *stage, T *y, int nv, int first,
                                                       int step, float m, float m2, float scale,
                                                       bool log_mode)
{
    constexpr int VEC = sizeof(V) / sizeof(T);
    for (int i = first; i < nv; i += step) {
        const V in = *(const V *)(stage + i);
        V o;
#pragma unroll
        for (int j = 0; j < VEC; j++)
            from_f32(softmax_output(to_f32(in.v[j]), m, m2, scale, log_mode), &o.v[j]);
        sx_st_16<KIND>(y + i, *(const uint4 *)&o);
    }
}

#endif
