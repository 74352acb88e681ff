// harness.cu: standalone test and timing of the flash_attention_sm80 template, instantiated as the
// generator would (instances.inc). `harness --host-only` runs the checks that need no GPU:
// fragment layouts (S accumulator -> P operand, ldmatrix lane addressing, swizzle), the tile
// plan and masks, and a host emulation of the block algorithm (online softmax, -inf rows, LSE)
// against an fp64 reference. Without it, it also runs the kernels against the fp64 reference
// and times seqlen 16k, batch 1, 16 heads, d128.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tileops_device.cuh"

// The instances: build.sh writes gen_instances.inc (one block per line of its list: elem,
// head-dim index, block_m, block_n, warps, stages, q_regs), gen_checks.inc and gen_table.inc.
#include "gen_instances.inc"

// ---- instance table -------------------------------------------------------------------------

struct instance {
    const char *name;
    bool bf16;
    int d, bm, bn, warps, stages, smem;
    int (*launch)(const void *, cudaStream_t);
    int64_t (*fit)(const void *, size_t *);
    bool (*host_check)(); // layout, plan and emulation checks of this configuration
};

// Host checks, per configuration (they use the instance's own constexpr values and helpers).
#define HOST_CHECKS(NS)                                                                           \
    namespace NS {                                                                                \
    static bool host_check();                                                                     \
    }
#include "gen_hostdecl.inc"

#define ENTRY(NS)                                                                                 \
    {#NS,        elem_is_bf16((const NS::elem_t *)0), NS::D, NS::BLOCK_M, NS::BLOCK_N, NS::WARPS, \
     NS::STAGES, NS::SMEM_TOTAL, NS::launch, NS::fit, NS::host_check}
static const instance instances[] = {
#include "gen_table.inc"
};
static const int n_instances = (int)(sizeof(instances) / sizeof(instances[0]));

static int failures = 0;
#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            printf("  FAIL %s:%d: ", __FILE__, __LINE__);                                         \
            printf(__VA_ARGS__);                                                                  \
            printf("\n");                                                                         \
            failures++;                                                                           \
            return false;                                                                         \
        }                                                                                         \
    } while (0)

// ---- host-side numerics -----------------------------------------------------------------------

static float round_elem(float x, bool bf16)
{
    if (bf16) {
        uint32_t u;
        memcpy(&u, &x, 4);
        u += 0x7fff + ((u >> 16) & 1); // round to nearest even (no NaN inputs here)
        u &= 0xffff0000u;
        memcpy(&x, &u, 4);
        return x;
    }
    return __half2float(__float2half_rn(x));
}

static uint16_t elem_bits(float x, bool bf16)
{
    if (bf16) {
        const float r = round_elem(x, true);
        uint32_t u;
        memcpy(&u, &r, 4);
        return (uint16_t)(u >> 16);
    }
    const __half_raw r = __half(__float2half_rn(x));
    return r.x;
}

static float bits_elem(uint16_t b, bool bf16)
{
    if (bf16) {
        const uint32_t u = (uint32_t)b << 16;
        float x;
        memcpy(&x, &u, 4);
        return x;
    }
    __half_raw r;
    r.x = b;
    return __half2float(__half(r));
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static float frand() // uniform in [-1, 1)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((rng_state >> 40) * (1.0 / 8388608.0)) - 1.0f;
}

// fp64 reference of one (sequence, head): q [len_q][d], k, v [len_kv][d] (row strides given,
// float copies of the rounded inputs), o [len_q][d], lse [len_q].
static void reference(const float *q, int64_t qs, const float *k, int64_t ks, const float *v,
                      int64_t vs, int len_q, int len_kv, int d, double scale, bool causal,
                      double *o, double *lse)
{
    double *sc = (double *)malloc(sizeof(double) * (len_kv > 0 ? len_kv : 1));
    for (int i = 0; i < len_q; i++) {
        double mx = -INFINITY;
        for (int j = 0; j < len_kv; j++) {
            if (causal && (int64_t)j > (int64_t)i + len_kv - len_q) {
                sc[j] = -INFINITY;
                continue;
            }
            double acc = 0;
            for (int c = 0; c < d; c++)
                acc += (double)q[i * qs + c] * k[j * ks + c];
            sc[j] = acc * scale;
            mx = sc[j] > mx ? sc[j] : mx;
        }
        double sum = 0;
        for (int c = 0; c < d; c++)
            o[(int64_t)i * d + c] = 0;
        if (mx == -INFINITY) {
            lse[i] = -INFINITY;
            continue;
        }
        for (int j = 0; j < len_kv; j++) {
            const double e = sc[j] == -INFINITY ? 0.0 : exp(sc[j] - mx);
            sum += e;
            for (int c = 0; c < d; c++)
                o[(int64_t)i * d + c] += e * v[j * vs + c];
        }
        for (int c = 0; c < d; c++)
            o[(int64_t)i * d + c] /= sum;
        lse[i] = mx + log(sum);
    }
    free(sc);
}

// ---- host checks (per instance) -----------------------------------------------------------
// The body is written once, for whatever instance namespace it is pasted into.
#define HOST_CHECK_BODY                                                                           \
    /* SMEM formula. */                                                                           \
    CHECK(SMEM_BYTES == SMEM_TOTAL, "smem formula");                                              \
    /* 1. S's C fragment packed by pairs is P's A fragment. Lane (g, t) holds C of n8 tile ni */  \
    /* at (g + 8*(e/2), 8ni + 2t + e%2); A of k16 step kk: reg r, half h at row g + 8*(r%2),  */  \
    /* column 16kk + 8*(r/2) + 2t + h. The kernel packs reg r from tile 2kk + r/2, entries   */  \
    /* 2*(r%2) + h. */                                                                            \
    for (int lane = 0; lane < 32; lane++) {                                                       \
        const int g = lane >> 2, t = lane & 3;                                                    \
        for (int kk = 0; kk < NK; kk++)                                                           \
            for (int r = 0; r < 4; r++)                                                           \
                for (int hh = 0; hh < 2; hh++) {                                                  \
                    const int ni = 2 * kk + r / 2, e = 2 * (r % 2) + hh;                          \
                    const int c_row = g + 8 * (e / 2), c_col = ni * 8 + 2 * t + e % 2;            \
                    const int a_row = g + 8 * (r % 2), a_col = 16 * kk + 8 * (r / 2) + 2 * t + hh; \
                    CHECK(c_row == a_row && c_col == a_col, "P fragment lane %d kk %d r %d", lane, \
                          kk, r);                                                                 \
                }                                                                                 \
    }                                                                                             \
    /* 2. ldmatrix lane addresses: frag_off == swz_off of the intended (row, chunk); the 8    */  \
    /* rows of each matrix hit 8 distinct 16-byte bank groups; swz_off is a bijection.        */  \
    for (int lane = 0; lane < 32; lane++) {                                                       \
        const int qrow = lane & 15, krow = (lane & 7) + (lane >> 4) * 8;                          \
        const int vrow = (lane & 7) + ((lane >> 3) & 1) * 8;                                      \
        const lane_row qr = make_lane_row(qrow), kr = make_lane_row(krow), vr = make_lane_row(vrow); \
        for (int c0 = 0; c0 < CPR; c0 += 2)                                                       \
            for (int rows = 0; rows < 256; rows += 8) {                                           \
                CHECK(frag_off(qr, c0 + (lane >> 4), rows) ==                                     \
                          swz_off(qrow + rows, c0 + (lane >> 4), ROW_BYTES),                      \
                      "q frag_off");                                                              \
                CHECK(frag_off(kr, c0 + ((lane >> 3) & 1), rows) ==                               \
                          swz_off(krow + rows, c0 + ((lane >> 3) & 1), ROW_BYTES),                \
                      "k frag_off");                                                              \
                CHECK(frag_off(vr, c0 + (lane >> 4), rows) ==                                     \
                          swz_off(vrow + rows, c0 + (lane >> 4), ROW_BYTES),                      \
                      "v frag_off");                                                              \
            }                                                                                     \
    }                                                                                             \
    for (int c = 0; c < CPR; c++)                                                                 \
        for (int r0 = 0; r0 < 64; r0 += 8) {                                                      \
            unsigned seen = 0;                                                                    \
            for (int r = r0; r < r0 + 8; r++)                                                     \
                seen |= 1u << ((swz_off(r, c, ROW_BYTES) / 16) % 8);                              \
            CHECK(seen == 0xff, "ldmatrix bank conflict chunk %d rows %d", c, r0);                \
        }                                                                                         \
    {                                                                                             \
        const int rows = BLOCK_M > BLOCK_N ? BLOCK_M : BLOCK_N;                                   \
        unsigned char *hit = (unsigned char *)calloc(rows * CPR, 1);                              \
        bool ok = true;                                                                           \
        for (int r = 0; r < rows; r++)                                                            \
            for (int c = 0; c < CPR; c++) {                                                       \
                const uint32_t off = swz_off(r, c, ROW_BYTES);                                    \
                if (off % 16 || off / 16 >= (uint32_t)(rows * CPR) || hit[off / 16]++)            \
                    ok = false;                                                                   \
            }                                                                                     \
        free(hit);                                                                                \
        CHECK(ok, "swizzle is not a bijection on the tile");                                      \
    }                                                                                             \
    /* 3. Tile plan and masks: every visible pair lies in a processed tile; tiles skipped by */  \
    /* the mask test hold only visible pairs; the last processed tile holds a visible pair.  */  \
    {                                                                                             \
        static const int lens[] = {0, 1, 2, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200, 257, 300}; \
        const int nl = (int)(sizeof(lens) / sizeof(lens[0]));                                     \
        for (int a = 0; a < nl; a++)                                                              \
            for (int bb = 0; bb < nl; bb++)                                                       \
                for (int cz = 0; cz < 2; cz++) {                                                  \
                    const int lq = lens[a], lk = lens[bb];                                        \
                    const bool causal = cz;                                                       \
                    for (int m0 = 0; m0 < lq; m0 += BLOCK_M) {                                    \
                        const int ne = attn_kv_end(m0, BLOCK_M, lq, lk, causal);                                \
                        const int nt = ne > 0 ? (ne + BLOCK_N - 1) / BLOCK_N : 0;                 \
                        const int mend = m0 + BLOCK_M < lq ? m0 + BLOCK_M : lq;                   \
                        int max_vis = -1;                                                         \
                        for (int i = m0; i < mend; i++)                                           \
                            for (int jj = 0; jj < lk; jj++)                                       \
                                if (attn_visible(i, jj, lq, lk, causal) && jj > max_vis)               \
                                    max_vis = jj;                                                 \
                        CHECK(ne == max_vis + 1, "kv_end lq %d lk %d m0 %d causal %d: %d vs %d",  \
                              lq, lk, m0, causal, ne, max_vis + 1);                               \
                        for (int tj = 0; tj < nt; tj++) {                                         \
                            const int n0 = tj * BLOCK_N;                                          \
                            if (attn_tile_masked(n0, BLOCK_N, m0, lq, lk, causal))                              \
                                continue;                                                         \
                            for (int i = m0; i < mend; i++)                                       \
                                for (int jj = n0; jj < n0 + BLOCK_N; jj++)                        \
                                    CHECK(attn_visible(i, jj, lq, lk, causal),                         \
                                          "unmasked tile hides a masked pair lq %d lk %d", lq, lk); \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
    }                                                                                             \
    return emulate_checks();

// 4. Host emulation of one block's algorithm, as the kernel orders it (tiles, mask, online
// softmax with the -inf guard, rounding of P and of the inputs, LSE), against fp64.
#define EMULATE_BODY                                                                              \
    static bool emulate_case(int lq, int lk, bool causal, float scale)                           \
    {                                                                                             \
        const bool bf = elem_is_bf16((const elem_t *)0);                                          \
        float *q = (float *)calloc((lq + 1) * D, sizeof(float));                                 \
        float *k = (float *)calloc((lk + 1) * D, sizeof(float));                                 \
        float *v = (float *)calloc((lk + 1) * D, sizeof(float));                                 \
        for (int i = 0; i < lq * D; i++)                                                          \
            q[i] = round_elem(frand() * 2.0f, bf);                                                \
        for (int i = 0; i < lk * D; i++) {                                                        \
            k[i] = round_elem(frand() * 2.0f, bf);                                                \
            v[i] = round_elem(frand(), bf);                                                       \
        }                                                                                         \
        double *ro = (double *)malloc(sizeof(double) * (lq + 1) * D);                             \
        double *rl = (double *)malloc(sizeof(double) * (lq + 1));                                 \
        reference(q, D, k, D, v, D, lq, lk, D, scale, causal, ro, rl);                            \
        const float sl2 = scale * 1.4426950408889634f;                                            \
        double worst = 0, worst_lse = 0;                                                          \
        bool ok = true;                                                                           \
        float *acc = (float *)malloc(sizeof(float) * D);                                          \
        float *sv = (float *)malloc(sizeof(float) * BLOCK_N);                                     \
        for (int m0 = 0; m0 < lq; m0 += BLOCK_M) {                                                \
            const int ne = attn_kv_end(m0, BLOCK_M, lq, lk, causal);                                            \
            const int nt = ne > 0 ? (ne + BLOCK_N - 1) / BLOCK_N : 0;                             \
            for (int i = m0; i < m0 + BLOCK_M && i < lq; i++) {                                   \
                float mx = -INFINITY, sum = 0;                                                    \
                for (int c = 0; c < D; c++)                                                       \
                    acc[c] = 0;                                                                   \
                for (int tj = 0; tj < nt; tj++) {                                                 \
                    const int n0 = tj * BLOCK_N;                                                  \
                    const bool msk = attn_tile_masked(n0, BLOCK_N, m0, lq, lk, causal);                         \
                    float tmax = mx;                                                              \
                    for (int jj = 0; jj < BLOCK_N; jj++) {                                        \
                        float s = 0;                                                              \
                        if (n0 + jj < lk)                                                         \
                            for (int c = 0; c < D; c++)                                           \
                                s += q[i * D + c] * k[(n0 + jj) * D + c];                         \
                        if (msk && !attn_visible(i, n0 + jj, lq, lk, causal))                          \
                            s = -INFINITY;                                                        \
                        sv[jj] = s;                                                               \
                        tmax = s > tmax ? s : tmax;                                               \
                    }                                                                             \
                    const float ms = tmax == -INFINITY ? 0.0f : tmax * sl2;                       \
                    const float corr = exp2f(mx * sl2 - ms);                                      \
                    mx = tmax;                                                                    \
                    float ts = 0;                                                                 \
                    for (int jj = 0; jj < BLOCK_N; jj++) {                                        \
                        sv[jj] = exp2f(fmaf(sv[jj], sl2, -ms));                                   \
                        ts += sv[jj];                                                             \
                    }                                                                             \
                    sum = sum * corr + ts;                                                        \
                    for (int c = 0; c < D; c++) {                                                 \
                        float a = acc[c] * corr;                                                  \
                        for (int jj = 0; jj < BLOCK_N; jj++)                                      \
                            a += round_elem(sv[jj], bf) * (n0 + jj < lk ? v[(n0 + jj) * D + c] : 0.0f); \
                        acc[c] = a;                                                               \
                    }                                                                             \
                }                                                                                 \
                const float inv = sum > 0 ? 1.0f / sum : 0.0f;                                    \
                for (int c = 0; c < D; c++) {                                                     \
                    const double e = fabs((double)round_elem(acc[c] * inv, bf) - ro[i * D + c]);  \
                    worst = e > worst ? e : worst;                                                \
                }                                                                                 \
                const float lse = sum > 0 ? mx * scale + logf(sum) : -INFINITY;                   \
                if (rl[i] == -INFINITY ? lse != -INFINITY : !(fabs(lse - rl[i]) < 1e-3))          \
                    worst_lse = 1;                                                                \
            }                                                                                     \
        }                                                                                         \
        const double tol = bf ? 1.5e-2 : 4e-3;                                                    \
        if (!(worst <= tol) || worst_lse != 0) {                                                  \
            printf("  FAIL emulation lq %d lk %d causal %d: max err %.3g (tol %.3g), lse %s\n",   \
                   lq, lk, causal, worst, tol, worst_lse != 0 ? "wrong" : "ok");                  \
            failures++;                                                                           \
            ok = false;                                                                           \
        }                                                                                         \
        free(q); free(k); free(v); free(ro); free(rl); free(acc); free(sv);                       \
        return ok;                                                                                \
    }                                                                                             \
    static bool emulate_checks()                                                                  \
    {                                                                                             \
        bool ok = true;                                                                           \
        ok &= emulate_case(77, 203, false, 0.125f);                                               \
        ok &= emulate_case(77, 203, true, 0.125f);                                                \
        ok &= emulate_case(300, 100, true, 0.09f);  /* rows 0..199 see nothing */                 \
        ok &= emulate_case(130, 130, true, 0.1f);                                                 \
        ok &= emulate_case(1, 1, true, 1.0f);                                                     \
        ok &= emulate_case(5, 0, false, 1.0f);      /* no keys at all */                          \
        return ok;                                                                                \
    }

#define DEFINE_HOST_CHECK(NS)                                                                     \
    namespace NS {                                                                                \
    EMULATE_BODY                                                                                  \
    static bool host_check() { HOST_CHECK_BODY }                                                  \
    }
#include "gen_checks.inc"

// ---- GPU tests ----------------------------------------------------------------------------------

#define CUDA_OK(x)                                                                                \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);       \
            exit(2);                                                                              \
        }                                                                                         \
    } while (0)

// A test case. Layout: "bshd" (the standard [b, s, h, d]) or "bhsd" (heads outside seq, padded
// head stride) to exercise the strides; varlen: per-sequence lengths.
struct test_case {
    const char *what;
    int batch, sq, skv, hq, hkv;
    bool causal, with_lse, bhsd;
    int varlen;               // 0, or number of sequences with the lengths below
    int lq[4], lk[4];
};

static bool run_case(const instance &in, const test_case &tc)
{
    const bool bf = in.bf16;
    const int d = in.d, B = tc.varlen ? tc.varlen : tc.batch;
    int cq[5] = {0}, ck[5] = {0};
    for (int b = 0; b < B; b++) {
        cq[b + 1] = cq[b] + (tc.varlen ? tc.lq[b] : tc.sq);
        ck[b + 1] = ck[b] + (tc.varlen ? tc.lk[b] : tc.skv);
    }
    int max_q = 0, max_k = 0;
    for (int b = 0; b < B; b++) {
        max_q = cq[b + 1] - cq[b] > max_q ? cq[b + 1] - cq[b] : max_q;
        max_k = ck[b + 1] - ck[b] > max_k ? ck[b + 1] - ck[b] : max_k;
    }
    // Element strides. bshd: dense [b][s][h][d]. bhsd: heads outside the sequence, rows padded
    // by 8 elements and heads by 64 (strides that are not the dense ones).
    const int64_t tq = cq[B], tk = ck[B]; // packed rows (varlen), or batch * seq
    auto strides = [&](int h, int64_t rows_per_b, int64_t total_rows, int64_t &sb, int64_t &ss,
                       int64_t &sh) -> int64_t {
        if (!tc.bhsd) {
            ss = (int64_t)h * d;
            sh = d;
            sb = rows_per_b * ss;
            return total_rows * h * d;
        }
        ss = d + 8;
        sh = total_rows * ss + 64;
        sb = rows_per_b * ss;
        return h * sh;
    };
    tileops_attention_args a;
    memset(&a, 0, sizeof(a));
    const int64_t rq = tc.varlen ? 0 : tc.sq, rk = tc.varlen ? 0 : tc.skv;
    const int64_t nq = strides(tc.hq, rq, tq, a.q_batch, a.q_seq, a.q_head);
    const int64_t nk = strides(tc.hkv, rk, tk, a.k_batch, a.k_seq, a.k_head);
    strides(tc.hkv, rk, tk, a.v_batch, a.v_seq, a.v_head);
    const int64_t no = strides(tc.hq, rq, tq, a.o_batch, a.o_seq, a.o_head);
    const int64_t guard = 4096;
    uint16_t *hq = (uint16_t *)malloc(2 * (nq + 1)), *hk = (uint16_t *)malloc(2 * (nk + 1));
    uint16_t *hv = (uint16_t *)malloc(2 * (nk + 1)), *ho = (uint16_t *)malloc(2 * (no + guard));
    float *fq = (float *)malloc(4 * (nq + 1)), *fk = (float *)malloc(4 * (nk + 1));
    float *fv = (float *)malloc(4 * (nk + 1));
    for (int64_t i = 0; i < nq; i++) {
        hq[i] = elem_bits(frand() * 2, bf);
        fq[i] = bits_elem(hq[i], bf);
    }
    for (int64_t i = 0; i < nk; i++) {
        hk[i] = elem_bits(frand() * 2, bf);
        fk[i] = bits_elem(hk[i], bf);
        hv[i] = elem_bits(frand(), bf);
        fv[i] = bits_elem(hv[i], bf);
    }
    const int64_t nlse = (int64_t)tc.hq * (tc.varlen ? tq : (int64_t)B * tc.sq);
    void *dq, *dk, *dv, *dout;
    float *dlse = NULL;
    int *dcq = NULL, *dck = NULL;
    CUDA_OK(cudaMalloc(&dq, 2 * (nq + 1)));
    CUDA_OK(cudaMalloc(&dk, 2 * (nk + 1)));
    CUDA_OK(cudaMalloc(&dv, 2 * (nk + 1)));
    CUDA_OK(cudaMalloc(&dout, 2 * (no + guard)));
    CUDA_OK(cudaMemcpy(dq, hq, 2 * nq, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dk, hk, 2 * nk, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dv, hv, 2 * nk, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dout, 0xff, 2 * (no + guard))); // poison: NaN in both types
    if (tc.with_lse) {
        CUDA_OK(cudaMalloc(&dlse, 4 * (nlse + guard)));
        CUDA_OK(cudaMemset(dlse, 0xff, 4 * (nlse + guard)));
    }
    if (tc.varlen) {
        CUDA_OK(cudaMalloc(&dcq, sizeof(cq)));
        CUDA_OK(cudaMalloc(&dck, sizeof(ck)));
        CUDA_OK(cudaMemcpy(dcq, cq, sizeof(cq), cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(dck, ck, sizeof(ck), cudaMemcpyHostToDevice));
    }
    a.batch = B;
    a.seqlen_q = tc.varlen ? max_q : tc.sq;
    a.seqlen_kv = tc.varlen ? max_k : tc.skv;
    a.heads_q = tc.hq;
    a.heads_kv = tc.hkv;
    a.head_dim = d;
    a.q = dq;
    a.k = dk;
    a.v = dv;
    a.o = dout;
    a.lse = dlse;
    a.scale = 1.0f / sqrtf((float)d);
    a.causal = tc.causal;
    a.cu_seqlens_q = dcq;
    a.cu_seqlens_kv = dck;
    a.sms = 132;
    bool ok = true;
    size_t ws = 1;
    if (in.fit(&a, &ws) < 0 || ws != 0) {
        printf("  FAIL %s: fit refused %s\n", in.name, tc.what);
        failures++;
        ok = false;
    } else {
        CUDA_OK((cudaError_t)in.launch(&a, 0));
        CUDA_OK(cudaDeviceSynchronize());
    }
    CUDA_OK(cudaMemcpy(ho, dout, 2 * (no + guard), cudaMemcpyDeviceToHost));
    float *hl = (float *)malloc(4 * (nlse + guard));
    if (tc.with_lse)
        CUDA_OK(cudaMemcpy(hl, dlse, 4 * (nlse + guard), cudaMemcpyDeviceToHost));
    double worst = 0, worst_lse = 0;
    int64_t bad = 0;
    double *ro = (double *)malloc(sizeof(double) * ((int64_t)max_q + 1) * d);
    double *rl = (double *)malloc(sizeof(double) * (max_q + 1));
    for (int b = 0; ok && b < B; b++) {
        const int lq = cq[b + 1] - cq[b], lk = ck[b + 1] - ck[b];
        const int64_t q0 = tc.varlen ? (int64_t)cq[b] * a.q_seq : b * a.q_batch;
        const int64_t k0 = tc.varlen ? (int64_t)ck[b] * a.k_seq : b * a.k_batch;
        const int64_t o0 = tc.varlen ? (int64_t)cq[b] * a.o_seq : b * a.o_batch;
        for (int h = 0; h < tc.hq; h++) {
            const int hk = h / (tc.hq / tc.hkv);
            reference(fq + q0 + h * a.q_head, a.q_seq, fk + k0 + hk * a.k_head, a.k_seq,
                      fv + k0 + hk * a.v_head, a.v_seq, lq, lk, d, a.scale, tc.causal, ro, rl);
            for (int i = 0; i < lq; i++) {
                for (int c = 0; c < d; c++) {
                    const float got = bits_elem(ho[o0 + h * a.o_head + i * a.o_seq + c], bf);
                    const double e = fabs((double)got - ro[(int64_t)i * d + c]);
                    if (!(e <= worst))
                        worst = e != e ? INFINITY : e;
                }
                if (tc.with_lse) {
                    const int64_t li = tc.varlen ? (int64_t)h * tq + cq[b] + i
                                                 : ((int64_t)b * tc.hq + h) * tc.sq + i;
                    const float got = hl[li];
                    if (rl[i] == -INFINITY ? got != -INFINITY : !(fabs(got - rl[i]) < 2e-3))
                        bad++, worst_lse = fabs(got - rl[i]);
                }
            }
        }
    }
    // bhsd rows are padded by 8 elements: the padding stays poisoned.
    if (tc.bhsd)
        for (int64_t hh = 0; hh < tc.hq; hh++)
            for (int64_t r = 0; r < tq; r++)
                for (int c = d; c < d + 8; c++)
                    if (ho[hh * a.o_head + r * a.o_seq + c] != 0xffff)
                        bad++;
    // Guards past the outputs stay poisoned.
    for (int64_t i = no; i < no + guard; i++)
        if (ho[i] != 0xffff)
            bad++;
    if (tc.with_lse)
        for (int64_t i = nlse; i < nlse + guard; i++) {
            uint32_t u;
            memcpy(&u, &hl[i], 4);
            if (u != 0xffffffffu)
                bad++;
        }
    const double tol = bf ? 2e-2 : 5e-3;
    if (ok && (!(worst <= tol) || bad)) {
        printf("  FAIL %s %s: max err %.3g (tol %.3g), %lld bad lse/guard (lse err %.3g)\n",
               in.name, tc.what, worst, tol, (long long)bad, worst_lse);
        failures++;
        ok = false;
    } else if (ok) {
        printf("  ok   %-32s %-40s max err %.2e\n", in.name, tc.what, worst);
    }
    cudaFree(dq);
    cudaFree(dk);
    cudaFree(dv);
    cudaFree(dout);
    cudaFree(dlse);
    cudaFree(dcq);
    cudaFree(dck);
    free(hq); free(hk); free(hv); free(ho); free(fq); free(fk); free(fv); free(hl); free(ro); free(rl);
    return ok;
}

static void time_case(const instance &in, bool causal)
{
    const int B = 1, S = 16384, H = 2048 / in.d, d = in.d;
    const int64_t n = (int64_t)B * S * H * d;
    void *dq, *dk, *dv, *dout;
    CUDA_OK(cudaMalloc(&dq, 2 * n));
    CUDA_OK(cudaMalloc(&dk, 2 * n));
    CUDA_OK(cudaMalloc(&dv, 2 * n));
    CUDA_OK(cudaMalloc(&dout, 2 * n));
    uint16_t *h = (uint16_t *)malloc(2 * n);
    for (int64_t i = 0; i < n; i++)
        h[i] = elem_bits(frand(), in.bf16);
    CUDA_OK(cudaMemcpy(dq, h, 2 * n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dk, h, 2 * n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dv, h, 2 * n, cudaMemcpyHostToDevice));
    free(h);
    tileops_attention_args a;
    memset(&a, 0, sizeof(a));
    a.batch = B;
    a.seqlen_q = a.seqlen_kv = S;
    a.heads_q = a.heads_kv = H;
    a.head_dim = d;
    a.q = dq;
    a.k = dk;
    a.v = dv;
    a.o = dout;
    a.q_seq = a.k_seq = a.v_seq = a.o_seq = (int64_t)H * d;
    a.q_head = a.k_head = a.v_head = a.o_head = d;
    a.q_batch = a.k_batch = a.v_batch = a.o_batch = (int64_t)S * H * d;
    a.scale = 1.0f / sqrtf((float)d);
    a.causal = causal;
    a.sms = 132;
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; i++)
        CUDA_OK((cudaError_t)in.launch(&a, 0));
    const int reps = 20;
    CUDA_OK(cudaEventRecord(e0));
    for (int i = 0; i < reps; i++)
        CUDA_OK((cudaError_t)in.launch(&a, 0));
    CUDA_OK(cudaEventRecord(e1));
    CUDA_OK(cudaEventSynchronize(e1));
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
    ms /= reps;
    const double flops = 4.0 * B * H * (double)S * S * d * (causal ? 0.5 : 1.0);
    printf("  %-36s seqlen 16k b1 h%d %s: %.3f ms, %.1f TFLOP/s (fit %lld)\n", in.name, H,
           causal ? "causal    " : "non-causal", ms, flops / (ms * 1e-3) / 1e12,
           (long long)in.fit(&a, NULL));
    cudaFree(dq);
    cudaFree(dk);
    cudaFree(dv);
    cudaFree(dout);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
}

int main(int argc, char **argv)
{
    bool host_only = false, no_timing = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--host-only"))
            host_only = true;
        else if (!strcmp(argv[i], "--no-timing"))
            no_timing = true;
    }
    printf("host checks (fragment layouts, swizzle, tile plan and masks, block emulation):\n");
    for (int i = 0; i < n_instances; i++) {
        const instance &in = instances[i];
        const bool ok = in.host_check();
        printf("  %s %-32s d%-3d %dx%d w%d s%d smem %d\n", ok ? "ok  " : "FAIL", in.name, in.d,
               in.bm, in.bn, in.warps, in.stages, in.smem);
    }
    if (!host_only) {
        static const test_case cases[] = {
            {"b2 s128 h4 dense", 2, 128, 128, 4, 4, false, true, false, 0, {0}, {0}},
            {"b2 s128 h4 dense causal", 2, 128, 128, 4, 4, true, true, false, 0, {0}, {0}},
            {"ragged 77x203 gqa 6/2", 2, 77, 203, 6, 2, false, true, false, 0, {0}, {0}},
            {"ragged 77x203 gqa 6/2 causal", 2, 77, 203, 6, 2, true, true, false, 0, {0}, {0}},
            {"300x100 causal (rows see none)", 1, 300, 100, 2, 2, true, true, false, 0, {0}, {0}},
            {"257x257 causal bhsd strides", 2, 257, 257, 4, 1, true, true, true, 0, {0}, {0}},
            {"129x65 mqa bhsd no lse", 3, 129, 65, 4, 1, false, false, true, 0, {0}, {0}},
            {"1x1 causal", 1, 1, 1, 1, 1, true, true, false, 0, {0}, {0}},
            {"varlen mqa", 0, 0, 0, 3, 1, false, true, false, 4, {0, 37, 130, 1}, {50, 0, 129, 200}},
            {"varlen mqa causal", 0, 0, 0, 3, 1, true, true, false, 4, {0, 37, 130, 1}, {50, 0, 129, 200}},
            {"varlen gqa causal bhsd", 0, 0, 0, 4, 2, true, true, true, 3, {200, 64, 5}, {64, 300, 0}},
        };
        int dev_count = 0;
        if (cudaGetDeviceCount(&dev_count) != cudaSuccess || dev_count == 0) {
            printf("no GPU: device tests skipped\n");
        } else {
            printf("device tests:\n");
            for (int i = 0; i < n_instances; i++)
                for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
                    run_case(instances[i], cases[c]);
            if (!no_timing) {
                printf("timing:\n");
                for (int i = 0; i < n_instances; i++) {
                    time_case(instances[i], false);
                    time_case(instances[i], true);
                }
            }
        }
    }
    printf(failures ? "FAILED: %d\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
