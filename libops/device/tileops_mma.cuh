// tileops_mma.cuh: warp-level matrix primitives for the sm80 instruction set (cp.async,
// ldmatrix, mma.sync m16n8k16) and the shared-memory swizzle they are used with. Shared by the
// GEMM and (later) FlashAttention templates. Included at file scope (from tileops_device.cuh),
// never inside an instance namespace: every function is static and tag-dispatched on the
// element type, so one definition serves every instance of every template in a file.
//
// Element types are 16-bit (__half or __nv_bfloat16). Where a helper depends on which one, it
// takes a null pointer of that type as a tag: `mma_16816(acc, a, b, (const elem_t *)0)`.
#ifndef TILEOPS_MMA_CUH
#define TILEOPS_MMA_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

// On a device pass for an architecture without the instruction the helper traps rather than
// silently doing nothing; on the host pass (no __CUDA_ARCH__) the bodies are empty.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define TILEOPS_SM80_ONLY(ptx_body) __trap()
#else
#define TILEOPS_SM80_ONLY(ptx_body) ptx_body
#endif

// ---- element type tags ------------------------------------------------------------------------

// Whether elem_t is bf16, usable in constant expressions: elem_is_bf16((const elem_t *)0).
static constexpr __host__ __device__ bool elem_is_bf16(const __half *) { return false; }
static constexpr __host__ __device__ bool elem_is_bf16(const __nv_bfloat16 *) { return true; }

// Two fp32 values rounded to a packed pair (lo in the low 16 bits, as mma and memory want it).
static __device__ __forceinline__ uint32_t pack2(float lo, float hi, const __half *)
{
    __half2 h = __floats2half2_rn(lo, hi);
    return *(uint32_t *)&h;
}
static __device__ __forceinline__ uint32_t pack2(float lo, float hi, const __nv_bfloat16 *)
{
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *(uint32_t *)&h;
}

// One 16-bit element's bits widened to fp32.
static __device__ __forceinline__ float bits_to_f32(unsigned short v, const __half *)
{
    return __half2float(__ushort_as_half(v));
}
static __device__ __forceinline__ float bits_to_f32(unsigned short v, const __nv_bfloat16 *)
{
    return __uint_as_float((uint32_t)v << 16); // bf16 is the top half of an fp32
}

// ---- shared memory addressing ---------------------------------------------------------------

// The 32-bit shared-window address PTX shared-memory instructions take.
static __device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

// Byte offset of 16-byte chunk `chunk` of row `row` in a shared tile whose rows are `row_bytes`
// long (a power of two, >= 32), XOR-swizzled within each 128-byte line: bits 4-6 of the offset
// (the chunk's place in the line) are XORed with the line's index among 8 consecutive lines.
// Eight rows read at the same chunk (one ldmatrix 8x8 matrix, either orientation) then land on
// eight different 16-byte bank groups, and so do eight consecutive chunks written by a
// quarter-warp. Rows of 32 or 64 bytes share a 128-byte line with their neighbours; rows of
// 128 bytes or more have lines of their own and the XOR stays within the row. The map is a
// bijection on every aligned 1024-byte block, so the tile must start 1024-byte aligned for
// the conflict-freedom (correctness needs nothing). With row_bytes a compile-time constant
// this is a shift, a mask and a XOR.
static __host__ __device__ __forceinline__ uint32_t swz_off(uint32_t row, uint32_t chunk,
                                                            uint32_t row_bytes)
{
    const uint32_t line = row_bytes >= 128 ? row : row / (128 / row_bytes);
    return (row * row_bytes + chunk * 16) ^ ((line & 7) << 4);
}

// 16-byte shared store as volatile asm, so it keeps its order with the ldmatrix and barrier
// asm around it (a plain C++ store could be moved across an asm the compiler thinks is pure).
static __device__ __forceinline__ void st_shared_16(uint32_t addr, uint4 v)
{
    asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};\n" ::"r"(addr), "r"(v.x), "r"(v.y),
                 "r"(v.z), "r"(v.w)
                 : "memory");
}

// ---- cp.async (sm80+) -------------------------------------------------------------------------

// 16-byte global->shared copy that bypasses L1 (.cg). Copies src_bytes (0..16) and zero-fills
// the rest of the 16 bytes: src_bytes = 0 reads nothing, so out-of-range rows and the K tail
// become zeros. dst and src must be 16-byte aligned; src must still be a valid global address.
static __device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src, int src_bytes)
{
    TILEOPS_SM80_ONLY(asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst),
                                   "l"(src), "r"(src_bytes)
                                   : "memory"));
}

// cp_async_16 of a whole chunk, for callers that know it lies inside the source.
static __device__ __forceinline__ void cp_async_16_full(uint32_t dst, const void *src)
{
    TILEOPS_SM80_ONLY(asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src)
                                   : "memory"));
}

// Closes the group of cp.async issued since the last commit.
static __device__ __forceinline__ void cp_async_commit()
{
    TILEOPS_SM80_ONLY(asm volatile("cp.async.commit_group;\n" ::: "memory"));
}

// Waits until at most N committed groups are still in flight (this thread's copies only:
// follow with __syncthreads() before reading what other threads copied).
template <int N> static __device__ __forceinline__ void cp_async_wait()
{
    TILEOPS_SM80_ONLY(asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"));
}

// cp_async_wait<n> for an n known only after unrolling (a loop over commit groups); n > 7
// waits for at most 7.
static __device__ __forceinline__ void cp_async_wait_n(int n)
{
    switch (n) {
    case 0: cp_async_wait<0>(); break;
    case 1: cp_async_wait<1>(); break;
    case 2: cp_async_wait<2>(); break;
    case 3: cp_async_wait<3>(); break;
    case 4: cp_async_wait<4>(); break;
    case 5: cp_async_wait<5>(); break;
    case 6: cp_async_wait<6>(); break;
    default: cp_async_wait<7>(); break;
    }
}

// ---- ldmatrix (sm75+; used with sm80 mma) -----------------------------------------------------

// Four 8x8 b16 matrices: lanes 8i..8i+7 give the row addresses of matrix i (16 bytes each); r[i]
// receives matrix i, thread t holding row t/4, columns 2(t%4) and 2(t%4)+1.
static __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
    TILEOPS_SM80_ONLY(asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                                   : "r"(addr)));
}

// As ldmatrix_x4, each matrix transposed: thread t holds column t/4, rows 2(t%4) and 2(t%4)+1.
// Turns a tile stored k-major ([k][n]) into mma's "col" B fragment.
static __device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr)
{
    TILEOPS_SM80_ONLY(
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr)));
}

// ---- mma.sync m16n8k16, fp32 accumulate (sm80+) ---------------------------------------------
// Fragments (g = lane/4, t = lane%4), each register two consecutive 16-bit elements:
//   a[0]: A[g][2t..]   a[1]: A[g+8][2t..]   a[2]: A[g][2t+8..]   a[3]: A[g+8][2t+8..]
//   b[0]: B[2t..][g]   b[1]: B[2t+8..][g]              (B is k x n, "col": k pairs in a register)
//   d[0..1]: D[g][2t, 2t+1]   d[2..3]: D[g+8][2t, 2t+1]

// d += A * B with fp16 inputs.
static __device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2], const __half *)
{
    TILEOPS_SM80_ONLY(asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])));
}

// d += A * B with bf16 inputs.
static __device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2], const __nv_bfloat16 *)
{
    TILEOPS_SM80_ONLY(asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])));
}

#undef TILEOPS_SM80_ONLY

#endif
