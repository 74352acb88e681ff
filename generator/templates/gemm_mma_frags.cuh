// gemm_mma_frags.cuh: what the mma.sync GEMM templates (gemm_sm80, gemm_small_m) share on the
// device: the ALIGNED=0 path's chunk loads and packing, the ldmatrix fragment offsets and loads
// of a k16 step, and its mma. Included inside an instance's namespace, after the template's
// constants: WM, WN, MI, NI, A_ROW_BYTES, B_ROW_BYTES, B_KN and elem_t.

// Loads element i < n of a chunk at q (else 0), any alignment.
static __device__ __forceinline__ void load_chunk(unsigned short (&r)[8], const elem_t *q, int n)
{
    const unsigned short *u = (const unsigned short *)q;
#pragma unroll
    for (int i = 0; i < 8; i++)
        r[i] = i < n ? __ldg(u + i) : (unsigned short)0;
}

// Packs 8 elements into 16 bytes.
static __device__ __forceinline__ uint4 pack_chunk(const unsigned short (&r)[8])
{
    return make_uint4(r[0] | (uint32_t)r[1] << 16, r[2] | (uint32_t)r[3] << 16,
                      r[4] | (uint32_t)r[5] << 16, r[6] | (uint32_t)r[7] << 16);
}

// ---- fragments --------------------------------------------------------------------------------
// ldmatrix x4 lane addresses. A (rows m, k-contiguous): lane l gives row l%16 at k chunk l/16,
// so the four matrices are a0..a3 of mma's A fragment. B NK (rows n, k-contiguous): lane l
// gives row n = l%8 + 8*(l/16) at k chunk (l/8)%2: b0, b1 of the n8 tile, then of the next.
// B KN (rows k, n-contiguous, transposed load): row k = l%8 + 8*((l/8)%2) at n chunk l/16:
// the same order. The offset of step kk, tile i is then base ^ const + const, because a
// swizzle XOR commutes with adding whole 128-byte lines and the chunk bits added are
// disjoint from the base's (the drafting harness checked all of it on the host; docs/GEMM.md).

// Shared-tile byte offsets of this lane's ldmatrix rows for m16 tile 0 / n16 tile 0, step 0.
static __host__ __device__ __forceinline__ void frag_bases(int lane, int wm, int wn,
                                                           uint32_t &a_base, uint32_t &b_base)
{
    a_base = swz_off(wm * WM + (lane & 15), lane >> 4, A_ROW_BYTES);
    if (B_KN)
        b_base = swz_off((lane & 7) + ((lane >> 3) & 1) * 8, wn * (WN / 8) + (lane >> 4), B_ROW_BYTES);
    else
        b_base = swz_off(wn * WN + (lane & 7) + (lane >> 4) * 8, (lane >> 3) & 1, B_ROW_BYTES);
}

// Offset of A's m16 tile mi at k16 step kk.
static __host__ __device__ __forceinline__ uint32_t a_frag_off(uint32_t a_base, int mi, int kk)
{
    return (a_base ^ (uint32_t)(kk * 32)) + (uint32_t)(mi * 16 * A_ROW_BYTES);
}

// Offset of B's n16 tile nj (two n8 tiles) at k16 step kk.
static __host__ __device__ __forceinline__ uint32_t b_frag_off(uint32_t b_base, int nj, int kk)
{
    return B_KN ? (b_base ^ (uint32_t)(nj * 32)) + (uint32_t)(kk * 16 * B_ROW_BYTES)
                : (b_base ^ (uint32_t)(kk * 32)) + (uint32_t)(nj * 16 * B_ROW_BYTES);
}

// Loads the A and B fragments of k16 step kk of the stage at sA / sB.
static __device__ __forceinline__ void load_frags(uint32_t (&af)[MI][4], uint32_t (&bf)[NI][2],
                                                  uint32_t sA, uint32_t sB, uint32_t a_base,
                                                  uint32_t b_base, int kk)
{
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
        ldmatrix_x4(af[mi], sA + a_frag_off(a_base, mi, kk));
#pragma unroll
    for (int nj = 0; nj < NI / 2; nj++) {
        uint32_t r[4];
        if (B_KN)
            ldmatrix_x4_trans(r, sB + b_frag_off(b_base, nj, kk));
        else
            ldmatrix_x4(r, sB + b_frag_off(b_base, nj, kk));
        bf[2 * nj][0] = r[0];
        bf[2 * nj][1] = r[1];
        bf[2 * nj + 1][0] = r[2];
        bf[2 * nj + 1][1] = r[3];
    }
}

// acc += A fragments x B fragments, one k16 step. Odd rows walk n backwards so consecutive
// mma share a B fragment.
static __device__ __forceinline__ void mma_step(float (&acc)[MI][NI][4], const uint32_t (&af)[MI][4],
                                                const uint32_t (&bf)[NI][2])
{
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int n = 0; n < NI; n++) {
            const int ni = mi % 2 ? NI - 1 - n : n;
            mma_16816(acc[mi][ni], af[mi], bf[ni], (const elem_t *)0);
        }
}
