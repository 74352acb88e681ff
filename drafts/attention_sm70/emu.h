// emu.h: a CPU emulation of the CUDA subset flash_attention_sm70 uses, so that the template's
// own device code runs without a GPU (`build.sh --emulate`, then `./harness_emu`). It replaces
// tileops_device.cuh for a g++ build of harness.cu; build.sh feeds it a copy of the template
// whose `extern __shared__` array and `kernel<<<...>>>` line are rewritten (two sed lines).
//
// - Threads are coroutines (ucontext) of one OS thread. Each runs until it reaches a barrier
//   (__syncthreads, __syncwarp, or the exchange inside a shuffle or mma_sync) or returns, in a
//   fresh random order every round: a thread runs a whole barrier-to-barrier segment before
//   another lane of its warp moves on (Volta's independent thread scheduling allows that). At
//   random, the code between two __syncthreads runs warp after warp (each warp as far as it
//   gets before the next starts) instead of interleaved: a missing __syncthreads shows. A
//   barrier that cannot be completed (divergence, an exited lane) aborts.
// - wmma fragments have a random element <-> (lane, slot) layout, different for each fragment
//   type and unlike any GPU's (A and B elements held twice, as on sm_70): code that assumed a
//   layout gets wrong answers. load/store/fill touch only the lane's own elements, with no
//   implied synchronization; mma_sync exchanges fragments through two warp barriers. fp16
//   products are exact in fp32 and summed in fp32, as the tensor cores do (in another order).
//   Alignment rules of wmma (32-byte pointers, ldm multiples of 16 bytes) are checked.
// - EMU_SEED=n picks another schedule (the fragment layouts stay).
// - Shared memory is poisoned (0xff: NaN in fp16 and fp32) before each block; global memory
//   is host memory (cudaMalloc and friends are macros for malloc etc.).
#ifndef TILEOPS_EMU_H
#define TILEOPS_EMU_H

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "op_args.h"

#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __launch_bounds__
#undef __grid_constant__
#undef __shared__
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __grid_constant__
#define __shared__

#include "tileops_attention.cuh" // the tile plan, as tileops_device.cuh includes it

// ---- threads, barriers, the launch ------------------------------------------------------------

namespace emu {

[[noreturn]] static void fail(const char *what)
{
    fprintf(stderr, "emulator: %s\n", what);
    abort();
}

enum state { READY, AT_SYNC, AT_WARP, DONE };
struct thread {
    ucontext_t ctx;
    dim3 tid;
    state st;
    std::vector<char> stack;
};

inline std::vector<thread> threads;
inline thread *cur;
inline dim3 block_idx;
inline ucontext_t sched;
inline std::function<void()> body;
// The schedule's random source (EMU_SEED).
inline std::mt19937 rng(getenv("EMU_SEED") ? (unsigned)atoi(getenv("EMU_SEED")) : 12345u);
constexpr int SMEM_MAX = 96 * 1024, SMEM_GUARD = 4096;
alignas(1024) inline unsigned char smem[SMEM_MAX + SMEM_GUARD];
// Per-warp exchange slots (shuffles, mma_sync's fragment pointers).
inline float shfl_slot[32][32];
inline const void *mma_slot[32][32][3];

static void entry()
{
    body();
    cur->st = DONE; // uc_link returns to the scheduler
}

static void yield(state s)
{
    cur->st = s;
    swapcontext(&cur->ctx, &sched);
}

// Runs the READY threads of `ts` (in a random order) until each blocks or returns, then
// releases the warp barriers whose 32 lanes all arrived; repeats while anything moves.
static void run_until_blocked(const std::vector<int> &ts)
{
    std::vector<int> order;
    for (;;) {
        order.clear();
        for (int t : ts)
            if (threads[t].st == READY)
                order.push_back(t);
        std::shuffle(order.begin(), order.end(), rng);
        for (int t : order) {
            cur = &threads[t];
            swapcontext(&sched, &cur->ctx);
        }
        bool released = false;
        for (size_t w = 0; w < ts.size() / 32; w++) {
            int wd = 0, ww = 0;
            for (int l = 0; l < 32; l++) {
                const state st = threads[ts[w * 32 + l]].st;
                wd += st == DONE;
                ww += st == AT_WARP;
            }
            if (ww && wd)
                fail("__syncwarp (or a warp collective) with an exited lane");
            if (ww == 32) {
                for (int l = 0; l < 32; l++)
                    threads[ts[w * 32 + l]].st = READY;
                released = true;
            }
        }
        if (order.empty() && !released)
            return;
    }
}

// Runs one block of n threads to completion, one barrier epoch (the code between two
// __syncthreads) at a time. An epoch either runs warp after warp, each as far as it gets
// before the next starts (in a random warp order: catches a missing __syncthreads), or all
// threads interleaved (the warps in step). Lanes go in a random order in both.
static void run_block(int n)
{
    if (n % 32 || n > 1024)
        fail("block size");
    if ((int)threads.size() < n)
        threads.resize(n);
    for (int t = 0; t < n; t++) {
        thread &th = threads[t];
        th.stack.resize(256 * 1024);
        getcontext(&th.ctx);
        th.ctx.uc_stack.ss_sp = th.stack.data();
        th.ctx.uc_stack.ss_size = th.stack.size();
        th.ctx.uc_link = &sched;
        makecontext(&th.ctx, entry, 0);
        th.tid = dim3(t, 0, 0);
        th.st = READY;
    }
    std::vector<int> all(n), warps(n / 32), one(32);
    for (int t = 0; t < n; t++)
        all[t] = t;
    for (int w = 0; w < n / 32; w++)
        warps[w] = w;
    for (;;) {
        if (rng() & 1) {
            std::shuffle(warps.begin(), warps.end(), rng);
            for (int w : warps) {
                for (int l = 0; l < 32; l++)
                    one[l] = w * 32 + l;
                run_until_blocked(one);
            }
        } else {
            run_until_blocked(all);
        }
        int done = 0, at_sync = 0;
        for (int t = 0; t < n; t++) {
            done += threads[t].st == DONE;
            at_sync += threads[t].st == AT_SYNC;
        }
        if (done == n)
            return;
        if (at_sync + done != n)
            fail("deadlock: a barrier not reached by every thread (divergent __syncthreads or "
                 "__syncwarp)");
        for (int t = 0; t < n; t++)
            if (threads[t].st == AT_SYNC)
                threads[t].st = READY;
    }
}

// kernel<<<grid, block, smem, stream>>>(args...), blocks one after another.
template <typename... P, typename... A>
static void launch(void (*kernel)(P...), unsigned grid, int block, int smem_bytes, cudaStream_t,
                   A &&...args)
{
    if (smem_bytes > SMEM_MAX)
        fail("more dynamic shared memory than 96 KB");
    for (unsigned b = 0; b < grid; b++) {
        block_idx = dim3(b, 0, 0);
        memset(smem, 0xff, sizeof(smem));
        body = [&] { kernel(args...); };
        run_block(block);
        for (int i = smem_bytes; i < SMEM_MAX + SMEM_GUARD; i++)
            if (smem[i] != 0xff)
                fail("a write past the block's dynamic shared memory");
    }
}

} // namespace emu

#define threadIdx (emu::cur->tid)
#define blockIdx (emu::block_idx)

static inline void __syncthreads() { emu::yield(emu::AT_SYNC); }
static inline void __syncwarp(unsigned mask = 0xffffffffu)
{
    if (mask != 0xffffffffu)
        emu::fail("__syncwarp with a partial mask");
    emu::yield(emu::AT_WARP);
}
static inline float __shfl_xor_sync(unsigned mask, float v, int lane_mask)
{
    const int lane = emu::cur->tid.x % 32, w = emu::cur->tid.x / 32;
    emu::shfl_slot[w][lane] = v;
    __syncwarp(mask);
    const float r = emu::shfl_slot[w][lane ^ lane_mask];
    __syncwarp(mask);
    return r;
}
static inline uint4 __ldg(const uint4 *p) { return *p; }
#define cudaGetLastError() cudaSuccess

// ---- what the template takes from tileops_device.cuh / tileops_mma.cuh / tileops_gemm.cuh ---

constexpr float TILEOPS_LOG2E = 1.4426950408889634f;
static constexpr bool elem_is_bf16(const __half *) { return false; }
static inline float max_nan(float a, float b) { return a != a ? a : b != b ? b : fmaxf(a, b); }
static inline float fast_exp2(float x) { return exp2f(x); }
static inline uint32_t pack2(float lo, float hi, const __half *)
{
    const __half l = __float2half_rn(lo), h = __float2half_rn(hi);
    uint16_t a, b;
    memcpy(&a, &l, 2);
    memcpy(&b, &h, 2);
    return (uint32_t)a | (uint32_t)b << 16;
}
template <typename V> static inline void store_stream(V *p, const V &v) { *p = v; }
static inline int smem_optin(const void *, int bytes, unsigned long long *)
{
    return bytes <= emu::SMEM_MAX ? 0 : (int)cudaErrorInvalidValue;
}
// The cost model of tileops_gemm.cuh (fit()'s ranking only).
static inline int64_t gemm_cost_ns(int sms, int64_t blocks, int per_sm, double block_flops,
                                   double tile_eff, double bytes)
{
    const int64_t slots = (int64_t)sms * (per_sm < 1 ? 1 : per_sm);
    const int64_t waves = (blocks + slots - 1) / slots;
    const double compute =
        (double)waves * (per_sm < 1 ? 1 : per_sm) * block_flops / (4000.0 * tile_eff);
    const double memory = bytes / 3300.0;
    return (int64_t)((compute > memory ? compute : memory) + 3000.0);
}

// ---- wmma -------------------------------------------------------------------------------------

namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

template <typename T, int S, int KIND> struct frag_base {
    enum { num_elements = S };
    T x[S];
};
template <typename Use, int M, int N, int K, typename T, typename L = void> struct fragment;
// KIND: 0 A row_major, 1 B col_major, 2 B row_major, 3 accumulator.
template <> struct fragment<matrix_a, 16, 16, 16, __half, row_major> : frag_base<__half, 16, 0> {};
template <> struct fragment<matrix_b, 16, 16, 16, __half, col_major> : frag_base<__half, 16, 1> {};
template <> struct fragment<matrix_b, 16, 16, 16, __half, row_major> : frag_base<__half, 16, 2> {};
template <> struct fragment<accumulator, 16, 16, 16, float> : frag_base<float, 8, 3> {};

// Layouts: element (r, c) = e / 16, e % 16 of slot i of lane l is map[kind][l][i]; holder[kind][e]
// = one (lane, slot) holding it. A and B: 512 slots for 256 elements, each held twice.
struct layouts {
    int map[4][32][16];
    int holder[4][256][2];
    layouts()
    {
        std::mt19937 g(987654321u);
        for (int k = 0; k < 4; k++) {
            const int per = k == 3 ? 8 : 16;
            std::vector<int> slots(32 * per);
            for (int s = 0; s < 32 * per; s++)
                slots[s] = s % 256;
            std::shuffle(slots.begin(), slots.end(), g);
            for (int l = 0; l < 32; l++)
                for (int i = 0; i < per; i++) {
                    const int e = slots[l * per + i];
                    map[k][l][i] = e;
                    holder[k][e][0] = l;
                    holder[k][e][1] = i;
                }
        }
    }
};
inline layouts lay;

static inline int lane_id() { return emu::cur->tid.x % 32; }
static inline void check_ptr(const void *p, unsigned ldm, int elem_bytes)
{
    if ((uintptr_t)p % 32 || (ldm * elem_bytes) % 16)
        emu::fail("wmma: pointer not 32-byte aligned or ldm not a multiple of 16 bytes");
}

// Memory offset of element (r, c) of a fragment of `kind` (A: r = m, c = k; B: r = k, c = n).
static inline size_t mem_off(int kind, int r, int c, unsigned ldm)
{
    return kind == 1 ? (size_t)c * ldm + r : (size_t)r * ldm + c;
}

template <typename T, int S, int K>
static inline void load_matrix_sync(frag_base<T, S, K> &f, const __half *p, unsigned ldm)
{
    static_assert(K != 3, "accumulator loads take a layout");
    check_ptr(p, ldm, 2);
    const int l = lane_id();
    for (int i = 0; i < S; i++) {
        const int e = lay.map[K][l][i];
        f.x[i] = p[mem_off(K, e / 16, e % 16, ldm)];
    }
}
static inline void load_matrix_sync(frag_base<float, 8, 3> &f, const float *p, unsigned ldm,
                                    layout_t layout)
{
    check_ptr(p, ldm, 4);
    const int l = lane_id();
    for (int i = 0; i < 8; i++) {
        const int e = lay.map[3][l][i], r = e / 16, c = e % 16;
        f.x[i] = layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r];
    }
}
static inline void store_matrix_sync(float *p, const frag_base<float, 8, 3> &f, unsigned ldm,
                                     layout_t layout)
{
    check_ptr(p, ldm, 4);
    const int l = lane_id();
    for (int i = 0; i < 8; i++) {
        const int e = lay.map[3][l][i], r = e / 16, c = e % 16;
        (layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r]) = f.x[i];
    }
}
template <typename T, int S, int K> static inline void fill_fragment(frag_base<T, S, K> &f, float v)
{
    for (int i = 0; i < S; i++)
        f.x[i] = (T)v;
}
// d = a·b + c. The lanes publish their fragments, then each computes its own elements of d.
template <int KB>
static inline void mma_sync(frag_base<float, 8, 3> &d, const frag_base<__half, 16, 0> &a,
                            const frag_base<__half, 16, KB> &b, const frag_base<float, 8, 3> &c)
{
    const int l = lane_id(), w = emu::cur->tid.x / 32;
    emu::mma_slot[w][l][0] = &a;
    emu::mma_slot[w][l][1] = &b;
    emu::mma_slot[w][l][2] = &c;
    __syncwarp();
    typedef frag_base<__half, 16, 0> a_t;
    typedef frag_base<__half, 16, KB> b_t;
    typedef frag_base<float, 8, 3> c_t;
    float out[8];
    for (int i = 0; i < 8; i++) {
        const int e = lay.map[3][l][i], m = e / 16, n = e % 16;
        const int *hc = lay.holder[3][e];
        float acc = ((const c_t *)emu::mma_slot[w][hc[0]][2])->x[hc[1]];
        for (int k = 0; k < 16; k++) {
            const int *ha = lay.holder[0][m * 16 + k], *hb = lay.holder[KB][k * 16 + n];
            const float av = __half2float(((const a_t *)emu::mma_slot[w][ha[0]][0])->x[ha[1]]);
            const float bv = __half2float(((const b_t *)emu::mma_slot[w][hb[0]][1])->x[hb[1]]);
            acc += av * bv;
        }
        out[i] = acc;
    }
    __syncwarp(); // every lane has read the others' fragments
    for (int i = 0; i < 8; i++)
        d.x[i] = out[i];
}
} // namespace wmma
} // namespace nvcuda

// ---- the runtime calls of the harness, on host memory ---------------------------------------

static inline cudaError_t emu_malloc(void **p, size_t n)
{
    *p = malloc(n ? n : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t emu_get_device_properties(cudaDeviceProp *p, int)
{
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "CPU emulator (random wmma layouts, adversarial schedule)");
    p->major = 7;
    p->multiProcessorCount = 80;
    return cudaSuccess;
}
static inline cudaError_t emu_device_attribute(int *v, cudaDeviceAttr, int)
{
    *v = emu::SMEM_MAX;
    return cudaSuccess;
}
#define cudaGetErrorString(e) ((void)(e), "emulated CUDA error")
#define cudaMalloc(p, n) emu_malloc((void **)(p), (n))
#define cudaFree(p) (free(p), cudaSuccess)
#define cudaMemcpy(d, s, n, kind) (memcpy((d), (s), (n)), cudaSuccess)
#define cudaMemset(p, v, n) (memset((p), (v), (n)), cudaSuccess)
#define cudaDeviceSynchronize() cudaSuccess
#define cudaGetDeviceCount(n) (*(n) = 1, cudaSuccess)
#define cudaGetDeviceProperties(p, d) emu_get_device_properties((p), (d))
#define cudaDeviceGetAttribute(v, a, d) emu_device_attribute((v), (a), (d))
#define cudaEventCreate(e) (*(e) = 0, cudaSuccess)
#define cudaEventRecord(e) ((void)(e), cudaSuccess)
#define cudaEventSynchronize(e) ((void)(e), cudaSuccess)
#define cudaEventElapsedTime(ms, a, b) (*(ms) = 1.0f, cudaSuccess)
#define cudaEventDestroy(e) ((void)(e), cudaSuccess)

#endif
