// harness.cu: standalone test and timing program for the draft GEMM templates. It mimics
// tileops-gen: each instance is a namespace holding its configuration as constexpr values, the
// variant enums and the template's text (here through #include), and the table below plays the
// registry. Build with build.sh.
//
//   ./harness               host checks, GPU correctness (fp64 CPU reference), timings
//   ./harness --host-only   host checks only (runs without a GPU)
//   ./harness --no-time     skip timings;   --quick: skip the 4096^3 correctness runs
//   ./harness --only SUBSTR only instances whose name contains SUBSTR
//
// Host checks (no GPU needed): for every sm80 / small-M instance, the copy mapping covers each
// stage exactly once at the swizzled offsets the kernel uses, and an emulation of ldmatrix
// (both orientations) over that shared image yields exactly mma.m16n8k16's A and B fragments,
// with no bank conflicts; fit() refuses misaligned calls for ALIGNED instances.
// GPU checks: shapes 1x1x1, 17x33x65, 127x255x513, 1000^3, 4096^3 (small-M: M <= 64 shapes),
// every epilogue, C aliasing D, leading dimensions beyond the width, misaligned pointers for
// ALIGNED=0 instances, outputs poisoned with NaN and padding checked untouched, compared with
// an fp64 reference (sampled rows on big shapes). Timing: 4096^3 and 8192^3 against cuBLAS,
// median of CUDA-event-timed runs (back to back, L2 not flushed).

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "gemm_args.h"
#include "tileops_mma.cuh"
#include "gemm_common.cuh"

// ---- instances, as tileops-gen would emit them ----------------------------------------------------

#define VARIANTS(T, LAY, AL)                                                                       \
    typedef T elem_t;                                                                              \
    enum { LAYOUT_KN = 0, LAYOUT_NK = 1 };                                                         \
    constexpr int LAYOUT = LAYOUT_##LAY;                                                           \
    constexpr int ALIGNED = AL;

// sm80 template: the large-tile fast path, both layouts and dtypes.
namespace s80_bf16_nk_128x256x32_s4_w2x4 {
VARIANTS(__nv_bfloat16, NK, 1)
constexpr int BM = 128, BN = 256, BK = 32, WARPS_M = 2, WARPS_N = 4, STAGES = 4;
#include "gemm_sm80.cu"
}
namespace s80_bf16_kn_128x256x32_s4_w2x4 {
VARIANTS(__nv_bfloat16, KN, 1)
constexpr int BM = 128, BN = 256, BK = 32, WARPS_M = 2, WARPS_N = 4, STAGES = 4;
#include "gemm_sm80.cu"
}
namespace s80_f16_nk_128x256x32_s4_w2x4 {
VARIANTS(__half, NK, 1)
constexpr int BM = 128, BN = 256, BK = 32, WARPS_M = 2, WARPS_N = 4, STAGES = 4;
#include "gemm_sm80.cu"
}
namespace s80_f16_kn_128x256x32_s4_w2x4 {
VARIANTS(__half, KN, 1)
constexpr int BM = 128, BN = 256, BK = 32, WARPS_M = 2, WARPS_N = 4, STAGES = 4;
#include "gemm_sm80.cu"
}
namespace s80_bf16_nk_256x128x32_s4_w4x2 {
VARIANTS(__nv_bfloat16, NK, 1)
constexpr int BM = 256, BN = 128, BK = 32, WARPS_M = 4, WARPS_N = 2, STAGES = 4;
#include "gemm_sm80.cu"
}
namespace s80_bf16_nk_128x256x64_s3_w2x4 {
VARIANTS(__nv_bfloat16, NK, 1)
constexpr int BM = 128, BN = 256, BK = 64, WARPS_M = 2, WARPS_N = 4, STAGES = 3;
#include "gemm_sm80.cu"
}
namespace s80_bf16_kn_128x256x64_s4_w2x4 {
VARIANTS(__nv_bfloat16, KN, 1)
constexpr int BM = 128, BN = 256, BK = 64, WARPS_M = 2, WARPS_N = 4, STAGES = 4;
#include "gemm_sm80.cu"
}
namespace s80_f16_nk_64x64x32_s4_w2x2 {
VARIANTS(__half, NK, 1)
constexpr int BM = 64, BN = 64, BK = 32, WARPS_M = 2, WARPS_N = 2, STAGES = 4;
#include "gemm_sm80.cu"
}
// ALIGNED=0: any pointer and leading dimension.
namespace s80_bf16_nk_128x128x32_s4_w2x4_u {
VARIANTS(__nv_bfloat16, NK, 0)
constexpr int BM = 128, BN = 128, BK = 32, WARPS_M = 2, WARPS_N = 4, STAGES = 4;
#include "gemm_sm80.cu"
}
namespace s80_f16_kn_128x128x32_s4_w2x4_u {
VARIANTS(__half, KN, 0)
constexpr int BM = 128, BN = 128, BK = 32, WARPS_M = 2, WARPS_N = 4, STAGES = 4;
#include "gemm_sm80.cu"
}
// small-M template (decode).
namespace sm_bf16_nk_m16_n128_k64_s6_w4 {
VARIANTS(__nv_bfloat16, NK, 1)
constexpr int BM = 16, BN = 128, BK = 64, WARPS = 4, STAGES = 6;
#include "gemm_small_m.cu"
}
namespace sm_bf16_kn_m16_n128_k64_s6_w4 {
VARIANTS(__nv_bfloat16, KN, 1)
constexpr int BM = 16, BN = 128, BK = 64, WARPS = 4, STAGES = 6;
#include "gemm_small_m.cu"
}
namespace sm_f16_nk_m64_n128_k64_s4_w4 {
VARIANTS(__half, NK, 1)
constexpr int BM = 64, BN = 128, BK = 64, WARPS = 4, STAGES = 4;
#include "gemm_small_m.cu"
}
namespace sm_bf16_nk_m32_n128_k64_s4_w4_u {
VARIANTS(__nv_bfloat16, NK, 0)
constexpr int BM = 32, BN = 128, BK = 64, WARPS = 4, STAGES = 4;
#include "gemm_small_m.cu"
}
// sm70 template (wmma, fp16), run here on the newer GPU as the sm70 tier would be.
namespace s70_f16_nk_128x128x32_w2x4 {
VARIANTS(__half, NK, 1)
constexpr int BM = 128, BN = 128, BK = 32, WARPS_M = 2, WARPS_N = 4;
#include "gemm_sm70.cu"
}
namespace s70_f16_kn_128x128x32_w2x4 {
VARIANTS(__half, KN, 1)
constexpr int BM = 128, BN = 128, BK = 32, WARPS_M = 2, WARPS_N = 4;
#include "gemm_sm70.cu"
}
namespace s70_f16_nk_64x64x32_w2x2_u {
VARIANTS(__half, NK, 0)
constexpr int BM = 64, BN = 64, BK = 32, WARPS_M = 2, WARPS_N = 2;
#include "gemm_sm70.cu"
}

// ---- the registry --------------------------------------------------------------------------------

// What the host layout check needs to know of an sm80-style instance.
struct layout_info {
    int bm, bn, bk, warps_m, warps_n, b_kn, nthreads;
    int a_row_bytes, b_row_bytes, a_cpr, a_rs, a_iters, b_cpr, b_rs, b_iters, rows_step;
    int a_stage_bytes, stage_bytes;
    void (*bases)(int, int, int, uint32_t &, uint32_t &);
    uint32_t (*aoff)(uint32_t, int, int);
    uint32_t (*boff)(uint32_t, int, int);
};

enum { T_SM80, T_SMALL_M, T_SM70 };

struct instance {
    const char *name;
    int tmpl, bf16, b_kn, aligned, smem;
    int (*launch)(const void *, cudaStream_t);
    int64_t (*fit)(const void *, size_t *);
    layout_info li;
};

#define LAYOUT_INFO(ns)                                                                             \
    {ns::BM, ns::BN, ns::BK, ns::WARPS_M, ns::WARPS_N, ns::B_KN, ns::NTHREADS, ns::A_ROW_BYTES,     \
     ns::B_ROW_BYTES, ns::A_CPR, ns::A_RS, ns::A_ITERS, ns::B_CPR, ns::B_RS, ns::B_ITERS,           \
     ns::ROWS_STEP_BYTES, ns::A_STAGE_BYTES, ns::STAGE_BYTES, ns::frag_bases, ns::a_frag_off,        \
     ns::b_frag_off}
#define INST(ns, tmpl)                                                                             \
    {#ns, tmpl, elem_is_bf16((const ns::elem_t *)0), ns::B_KN, ns::ALIGNED, ns::SMEM_TOTAL,         \
     ns::launch, ns::fit, LAYOUT_INFO(ns)}
#define INST70(ns)                                                                                 \
    {#ns, T_SM70, 0, ns::B_KN, ns::ALIGNED, ns::SMEM_TOTAL, ns::launch, ns::fit, {}}

static const instance instances[] = {
    INST(s80_bf16_nk_128x256x32_s4_w2x4, T_SM80),
    INST(s80_bf16_kn_128x256x32_s4_w2x4, T_SM80),
    INST(s80_f16_nk_128x256x32_s4_w2x4, T_SM80),
    INST(s80_f16_kn_128x256x32_s4_w2x4, T_SM80),
    INST(s80_bf16_nk_256x128x32_s4_w4x2, T_SM80),
    INST(s80_bf16_nk_128x256x64_s3_w2x4, T_SM80),
    INST(s80_bf16_kn_128x256x64_s4_w2x4, T_SM80),
    INST(s80_f16_nk_64x64x32_s4_w2x2, T_SM80),
    INST(s80_bf16_nk_128x128x32_s4_w2x4_u, T_SM80),
    INST(s80_f16_kn_128x128x32_s4_w2x4_u, T_SM80),
    INST(sm_bf16_nk_m16_n128_k64_s6_w4, T_SMALL_M),
    INST(sm_bf16_kn_m16_n128_k64_s6_w4, T_SMALL_M),
    INST(sm_f16_nk_m64_n128_k64_s4_w4, T_SMALL_M),
    INST(sm_bf16_nk_m32_n128_k64_s4_w4_u, T_SMALL_M),
    INST70(s70_f16_nk_128x128x32_w2x4),
    INST70(s70_f16_kn_128x128x32_w2x4),
    INST70(s70_f16_nk_64x64x32_w2x2_u),
};
static const int ninstances = sizeof instances / sizeof instances[0];

// ---- host checks of the shared-memory layout --------------------------------------------------

static int layout_errors;
#define LCHECK(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (layout_errors++ < 20) {                                                            \
                printf("  layout: ");                                                              \
                printf(__VA_ARGS__);                                                               \
                printf("\n");                                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

// 8 addresses of one ldmatrix matrix (or one quarter-warp's 16-byte accesses) hit 8 different
// 16-byte bank groups.
static bool conflict_free(const uint32_t *addr8)
{
    int seen = 0;
    for (int i = 0; i < 8; i++)
        seen |= 1 << ((addr8[i] >> 4) & 7);
    return seen == 0xff;
}

// The copies of one operand: rows x cpr chunks, thread t / j -> swizzled offset; checks that
// the kernel's offset (row 0's plus j * rows_step) is swz_off's, that each chunk is written
// exactly once, inside the stage, and that each quarter-warp writes conflict-free.
static void check_copies(const char *what, int rows, int cpr, int rs, int iters, int row_bytes,
                         int rows_step, int nthreads, int stage_bytes)
{
    std::vector<int> seen((size_t)rows * cpr, 0);
    for (int j = 0; j < iters; j++)
        for (int w = 0; w < nthreads / 32; w++)
            for (int q = 0; q < 4; q++) {
                uint32_t addr[8];
                int n = 0;
                for (int l = 0; l < 8; l++) {
                    const int tid = w * 32 + q * 8 + l;
                    const int row = tid / cpr + j * rs, col = tid % cpr;
                    if (row >= rows)
                        continue; // small-M: A has fewer chunks than threads
                    const uint32_t mine = swz_off(tid / cpr, col, row_bytes) + j * rows_step;
                    const uint32_t ref = swz_off(row, col, row_bytes);
                    LCHECK(mine == ref, "%s: tid %d j %d offset %u != %u", what, tid, j, mine, ref);
                    LCHECK(ref + 16 <= (uint32_t)stage_bytes, "%s: offset %u outside", what, ref);
                    seen[(size_t)row * cpr + col]++;
                    addr[n++] = ref;
                }
                if (n == 8)
                    LCHECK(conflict_free(addr), "%s: copy bank conflict (warp %d j %d q %d)", what, w, j, q);
            }
    for (size_t i = 0; i < seen.size(); i++)
        LCHECK(seen[i] == 1, "%s: chunk %zu written %d times", what, i, seen[i]);
}

// Emulates ldmatrix.x4 (trans or not) at the 32 lane addresses over a shared image of labels
// (one per 16-bit element); out[T][i] = the two labels thread T receives in register i.
static void emulate_ldmatrix(const std::vector<uint32_t> &img, const uint32_t *addr, bool trans,
                             uint32_t out[32][4][2])
{
    for (int T = 0; T < 32; T++)
        for (int i = 0; i < 4; i++)
            for (int h = 0; h < 2; h++) {
                uint32_t byte;
                if (!trans) // row T/4, column 2(T%4)+h of matrix i
                    byte = addr[8 * i + T / 4] + 2 * (2 * (T % 4) + h);
                else // row 2(T%4)+h, column T/4
                    byte = addr[8 * i + 2 * (T % 4) + h] + 2 * (T / 4);
                out[T][i][h] = byte / 2 < img.size() ? img[byte / 2] : 0xffffffffu;
            }
}

static uint32_t label(int r, int c) { return (uint32_t)r << 16 | (uint32_t)c; }

static void check_layout(const instance &in)
{
    const layout_info &L = in.li;
    const int b_rows = L.b_kn ? L.bk : L.bn;
    check_copies("A", L.bm, L.a_cpr, L.a_rs, L.a_iters, L.a_row_bytes, L.rows_step, L.nthreads,
                 L.a_stage_bytes);
    check_copies("B", b_rows, L.b_cpr, L.b_rs, L.b_iters, L.b_row_bytes, L.rows_step, L.nthreads,
                 L.stage_bytes - L.a_stage_bytes);

    // Shared images: A labelled (m, k); B labelled (n, k) for NK, (k, n) for KN.
    std::vector<uint32_t> ia(L.a_stage_bytes / 2, 0xeeeeeeeeu), ib((L.stage_bytes - L.a_stage_bytes) / 2, 0xeeeeeeeeu);
    for (int r = 0; r < L.bm; r++)
        for (int c = 0; c < L.a_cpr; c++)
            for (int e = 0; e < 8; e++)
                ia[swz_off(r, c, L.a_row_bytes) / 2 + e] = label(r, c * 8 + e);
    for (int r = 0; r < b_rows; r++)
        for (int c = 0; c < L.b_cpr; c++)
            for (int e = 0; e < 8; e++)
                ib[swz_off(r, c, L.b_row_bytes) / 2 + e] = label(r, c * 8 + e);

    const int wm_ = L.bm / L.warps_m, wn_ = L.bn / L.warps_n;
    for (int wm = 0; wm < L.warps_m; wm++)
        for (int wn = 0; wn < L.warps_n; wn++) {
            uint32_t ab[32], bb[32];
            for (int l = 0; l < 32; l++)
                L.bases(l, wm, wn, ab[l], bb[l]);
            for (int kk = 0; kk < L.bk / 16; kk++) {
                uint32_t addr[32], got[32][4][2];
                for (int mi = 0; mi < wm_ / 16; mi++) {
                    for (int l = 0; l < 32; l++)
                        addr[l] = L.aoff(ab[l], mi, kk);
                    for (int i = 0; i < 4; i++)
                        LCHECK(conflict_free(addr + 8 * i), "A ldmatrix conflict wm %d mi %d kk %d", wm, mi, kk);
                    emulate_ldmatrix(ia, addr, false, got);
                    for (int T = 0; T < 32; T++)
                        for (int i = 0; i < 4; i++)
                            for (int h = 0; h < 2; h++) {
                                const int r = wm * wm_ + mi * 16 + T / 4 + (i & 1) * 8;
                                const int k = kk * 16 + 2 * (T % 4) + (i >> 1) * 8 + h;
                                LCHECK(got[T][i][h] == label(r, k),
                                       "A frag wm %d mi %d kk %d T %d a%d.%d: got %x want %x", wm, mi,
                                       kk, T, i, h, got[T][i][h], label(r, k));
                            }
                }
                for (int nj = 0; nj < wn_ / 16; nj++) {
                    for (int l = 0; l < 32; l++)
                        addr[l] = L.boff(bb[l], nj, kk);
                    for (int i = 0; i < 4; i++)
                        LCHECK(conflict_free(addr + 8 * i), "B ldmatrix conflict wn %d nj %d kk %d", wn, nj, kk);
                    emulate_ldmatrix(ib, addr, L.b_kn, got);
                    for (int T = 0; T < 32; T++)
                        for (int i = 0; i < 4; i++)
                            for (int h = 0; h < 2; h++) {
                                // register i: n8 tile 2nj + i/2, b[i%2]
                                const int n = wn * wn_ + (2 * nj + i / 2) * 8 + T / 4;
                                const int k = kk * 16 + 2 * (T % 4) + (i % 2) * 8 + h;
                                const uint32_t want = L.b_kn ? label(k, n) : label(n, k);
                                LCHECK(got[T][i][h] == want,
                                       "B frag wn %d nj %d kk %d T %d r%d.%d: got %x want %x", wn, nj,
                                       kk, T, i, h, got[T][i][h], want);
                            }
                }
            }
        }
}

// fit() must refuse what an ALIGNED instance cannot take, and accept the aligned call.
static void check_fit(const instance &in)
{
    static __nv_bfloat16 dummy[64] __attribute__((aligned(16)));
    tileops_gemm_args a = {};
    a.m = in.tmpl == T_SMALL_M ? 16 : 256;
    a.n = a.k = 256;
    a.a = a.b = a.c = a.bias = dummy;
    a.d = dummy;
    a.lda = a.ldb = a.ldc = a.ldd = 256;
    a.alpha = 1;
    a.beta = 1;
    a.epilogue = TILEOPS_EPI_BIAS;
    size_t ws = 1;
    LCHECK(in.fit(&a, &ws) >= 0, "%s: fit refuses an aligned call", in.name);
    const void *saved = a.b;
    a.b = (const char *)dummy + 2;
    LCHECK((in.fit(&a, &ws) < 0) == (bool)in.aligned, "%s: fit and a misaligned b", in.name);
    a.b = saved;
    a.ldc = 257;
    LCHECK((in.fit(&a, &ws) < 0) == (bool)in.aligned, "%s: fit and an odd ldc", in.name);
    a.beta = 0; // C unread: its ld does not matter
    LCHECK(in.fit(&a, &ws) >= 0, "%s: fit and an odd ldc with beta = 0", in.name);
}

// The small-M split plan covers K exactly, without empty splits, reports the workspace it
// uses and falls back to one split without workspace. Prints the plans of decode shapes
// (assuming this machine's SM count, 132 without a GPU).
template <typename F> static void check_plans(const char *name, F make_plan, int bk, bool verbose)
{
    const int64_t ms[] = {1, 16, 64}, ns[] = {1, 4096, 11008}, ks[] = {1, 64, 65, 4096, 4097, 14336};
    for (int64_t m : ms)
        for (int64_t n : ns)
            for (int64_t k : ks) {
                tileops_gemm_args a = {};
                a.m = m, a.n = n, a.k = k;
                const auto pl = make_plan(&a, (size_t)-1);
                const int64_t kt = (k + bk - 1) / bk;
                LCHECK(pl.splits >= 1 && (int64_t)(pl.splits - 1) * pl.per < kt &&
                           (int64_t)pl.splits * pl.per >= kt,
                       "%s: plan %lldx%lldx%lld: %d splits of %d k tiles", name, (long long)m,
                       (long long)n, (long long)k, pl.splits, pl.per);
                LCHECK(pl.ws == (pl.splits > 1 ? (size_t)pl.splits * m * pl.ldw * 4 : 0),
                       "%s: plan workspace", name);
                LCHECK(make_plan(&a, 0).splits == 1, "%s: plan without workspace", name);
                if (verbose && n > 1 && k >= 4096 && k % 64 == 0)
                    printf("    plan %-4lld x %-5lld x %-5lld: %3d x %d tiles, %3d splits of %3d k tiles, ws %zu B\n",
                           (long long)m, (long long)n, (long long)k, pl.tiles_m, pl.tiles_n, pl.splits,
                           pl.per, pl.ws);
            }
}

// ---- host element conversions ------------------------------------------------------------------

static float bits_to_float(uint16_t v, bool bf16)
{
    if (bf16) {
        const uint32_t u = (uint32_t)v << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    return __half2float(__ushort_as_half(v));
}

static uint16_t float_to_bits(float f, bool bf16)
{
    if (bf16) {
        uint32_t u;
        memcpy(&u, &f, 4);
        if ((u & 0x7fffffffu) > 0x7f800000u)
            return 0x7fff;
        u += 0x7fffu + ((u >> 16) & 1); // round to nearest even
        return (uint16_t)(u >> 16);
    }
    return __half_as_ushort(__float2half_rn(f));
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static float frand() // uniform in [-1, 1)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((rng_state >> 40) * (1.0 / (1 << 23))) - 1.0f;
}

// ---- GPU correctness --------------------------------------------------------------------------

#define CUDA_OK(x)                                                                                 \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, #x);  \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

struct gcase {
    const char *name;
    float alpha, beta;
    int has_c, alias, epi, pad;
};

static const gcase cases[] = {
    {"plain", 1.0f, 0.0f, 0, 0, 0, 0},
    {"alpha,beta*C,bias,ld>w", 0.5f, 0.75f, 1, 0, TILEOPS_EPI_BIAS, 1},
    {"C=D,bias,relu", 1.25f, -1.0f, 1, 1, TILEOPS_EPI_BIAS | TILEOPS_EPI_RELU, 0},
    {"bias,gelu_erf,ld>w", 1.0f, 0.0f, 0, 0, TILEOPS_EPI_BIAS | TILEOPS_EPI_GELU_ERF, 1},
    {"beta*C,gelu_tanh", 1.0f, 0.5f, 1, 0, TILEOPS_EPI_GELU_TANH, 0},
};
static const int ncases = sizeof cases / sizeof cases[0];

static double activate(double x, int epi)
{
    if (epi & TILEOPS_EPI_GELU_ERF)
        return 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
    if (epi & TILEOPS_EPI_GELU_TANH)
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    if (epi & TILEOPS_EPI_RELU)
        return x < 0 ? 0 : x;
    return x;
}

// A device matrix of rows x ld elements starting `off` elements into its allocation.
struct dmat {
    uint16_t *base = nullptr, *p = nullptr;
    int64_t rows = 0, ld = 0;
    std::vector<uint16_t> h; // host copy of rows x ld
};

static void dmat_init(dmat &m, int64_t rows, int64_t ld, int off, bool random, bool bf16)
{
    m.rows = rows;
    m.ld = ld;
    m.h.resize((size_t)(rows * ld));
    for (auto &v : m.h)
        v = random ? float_to_bits(frand(), bf16) : (uint16_t)0x7fff; // 0x7fff: NaN in both types
    CUDA_OK(cudaMalloc(&m.base, (size_t)(rows * ld + 16) * 2));
    m.p = m.base + off;
    CUDA_OK(cudaMemcpy(m.p, m.h.data(), m.h.size() * 2, cudaMemcpyHostToDevice));
}

static void dmat_free(dmat &m)
{
    if (m.base)
        cudaFree(m.base);
    m.base = m.p = nullptr;
}

static int64_t round8(int64_t x) { return (x + 7) / 8 * 8; }

static int failures, runs, skips;

// Runs one instance on one shape and case; returns 0 on success.
static int run_case(const instance &in, int64_t M, int64_t N, int64_t K, const gcase &c,
                    bool no_ws = false)
{
    const bool bf16 = in.bf16;
    // Leading dimensions: ALIGNED instances need multiples of 8; ALIGNED=0 instances get odd
    // ones and pointers one element off 16-byte alignment.
    const int off = in.aligned ? 0 : 1;
    auto ld_for = [&](int64_t w) { return in.aligned ? round8(w) + (c.pad ? 8 : 0) : w + (c.pad ? 3 : 0); };
    const int64_t lda = ld_for(K), ldb = ld_for(in.b_kn ? N : K), ldd = ld_for(N);
    dmat A, B, C, D, bias;
    dmat_init(A, M, lda, off, true, bf16);
    dmat_init(B, in.b_kn ? K : N, ldb, off, true, bf16);
    dmat_init(bias, 1, round8(N), off, true, bf16);
    if (c.has_c && !c.alias)
        dmat_init(C, M, ldd, off, true, bf16);
    dmat_init(D, M, ldd, off, c.alias != 0, bf16); // poisoned unless it is C too
    const dmat &Cm = c.alias ? D : C;

    tileops_gemm_args a = {};
    a.m = M, a.n = N, a.k = K;
    a.a = A.p, a.lda = lda;
    a.b = B.p, a.ldb = ldb;
    a.c = c.has_c ? Cm.p : nullptr, a.ldc = ldd;
    a.d = D.p, a.ldd = ldd;
    a.bias = (c.epi & TILEOPS_EPI_BIAS) ? bias.p : nullptr;
    a.alpha = c.alpha, a.beta = c.beta;
    a.epilogue = c.epi;
    size_t ws = 0;
    const int64_t cost = in.fit(&a, &ws);
    if (cost < 0) {
        skips++;
        dmat_free(A), dmat_free(B), dmat_free(C), dmat_free(D), dmat_free(bias);
        return 0;
    }
    if (no_ws)
        ws = 0; // the caller gives none: launch must manage (small-M: one split)
    void *wsp = nullptr;
    if (ws)
        CUDA_OK(cudaMalloc(&wsp, ws));
    a.workspace = wsp, a.workspace_bytes = ws;
    const int err = in.launch(&a, 0);
    const cudaError_t sync = cudaDeviceSynchronize();
    runs++;
    if (err || sync != cudaSuccess) {
        printf("  FAIL %-36s %5lldx%5lldx%5lld %-24s launch %d sync %s\n", in.name, (long long)M,
               (long long)N, (long long)K, c.name, err, cudaGetErrorName(sync));
        failures++;
        exit(1); // the context may be gone
    }
    std::vector<uint16_t> out((size_t)(M * ldd));
    CUDA_OK(cudaMemcpy(out.data(), D.p, out.size() * 2, cudaMemcpyDeviceToHost));

    // Rows to check: all on small shapes, a spread sample on big ones.
    std::vector<int64_t> rows;
    if (M * N * K <= ((int64_t)1 << 28)) {
        for (int64_t r = 0; r < M; r++)
            rows.push_back(r);
    } else {
        const int64_t pick[] = {0, 1, 63, 64, 127, 128, M / 3, M / 2, M - 129, M - 2, M - 1};
        for (int64_t r : pick)
            if (r >= 0 && r < M)
                rows.push_back(r);
        for (int i = 0; i < 8; i++)
            rows.push_back((int64_t)((frand() + 1.0f) * 0.5f * (M - 1)));
    }
    std::vector<float> fa((size_t)K), fb((size_t)(in.b_kn ? K * N : N * K));
    for (int64_t r = 0; r < (in.b_kn ? K : N); r++)
        for (int64_t q = 0; q < (in.b_kn ? N : K); q++)
            fb[(size_t)(r * (in.b_kn ? N : K) + q)] = bits_to_float(B.h[(size_t)(r * ldb + q)], bf16);
    const double rtol = bf16 ? 1.0 / 128 : 1.0 / 1024; // two units of the output's last place
    double max_rel = 0;
    int64_t bad = 0, bad_pad = 0;
    std::vector<double> acc((size_t)N);
    for (int64_t r : rows) {
        for (int64_t k = 0; k < K; k++)
            fa[(size_t)k] = bits_to_float(A.h[(size_t)(r * lda + k)], bf16);
        std::fill(acc.begin(), acc.end(), 0.0);
        if (in.b_kn) {
            for (int64_t k = 0; k < K; k++) {
                const double av = fa[(size_t)k];
                const float *brow = &fb[(size_t)(k * N)];
                for (int64_t n = 0; n < N; n++)
                    acc[(size_t)n] += av * brow[n];
            }
        } else {
            for (int64_t n = 0; n < N; n++) {
                const float *brow = &fb[(size_t)(n * K)];
                double s = 0;
                for (int64_t k = 0; k < K; k++)
                    s += (double)fa[(size_t)k] * brow[k];
                acc[(size_t)n] = s;
            }
        }
        double rms = 0;
        for (int64_t n = 0; n < N; n++) {
            double v = c.alpha * acc[(size_t)n];
            if (c.has_c && c.beta != 0)
                v += c.beta * bits_to_float(Cm.h[(size_t)(r * ldd + n)], bf16);
            if (c.epi & TILEOPS_EPI_BIAS)
                v += bits_to_float(bias.h[(size_t)n], bf16);
            acc[(size_t)n] = activate(v, c.epi);
            rms += acc[(size_t)n] * acc[(size_t)n];
        }
        rms = sqrt(rms / N);
        // Absolute floor for outputs near zero: fp32 accumulation over K (tensor-core order and
        // rounding) errs by ~sqrt(K) ulps of the running sum; 5% of an output ulp at the row's
        // rms covers it, and a real bug is off by O(rms).
        const double atol = 0.05 * rtol * rms + 1e-6;
        for (int64_t n = 0; n < N; n++) {
            const double ref = acc[(size_t)n];
            const double got = bits_to_float(out[(size_t)(r * ldd + n)], bf16);
            const double diff = fabs(got - ref);
            const double rel = diff / (fabs(ref) + 0.01 * rms + 1e-6);
            if (!(diff <= rtol * fabs(ref) + atol)) // NaN fails too
                bad++;
            if (!(rel <= max_rel))
                max_rel = rel != rel ? INFINITY : rel;
        }
        // Padding past N must be untouched (poison, or C's own values when aliased).
        for (int64_t n = N; n < ldd; n++)
            if (out[(size_t)(r * ldd + n)] != D.h[(size_t)(r * ldd + n)])
                bad_pad++;
    }
    const bool ok = bad == 0 && bad_pad == 0;
    if (!ok)
        failures++;
    printf("  %s %-36s %5lldx%5lldx%5lld %-24s ws %9zu  max_rel %.2e%s", ok ? "ok  " : "FAIL", in.name,
           (long long)M, (long long)N, (long long)K, c.name, ws, max_rel, rows.size() < (size_t)M ? " (sampled)" : "");
    if (!ok)
        printf("  bad %lld, padding touched %lld", (long long)bad, (long long)bad_pad);
    printf("\n");
    if (wsp)
        cudaFree(wsp);
    dmat_free(A), dmat_free(B), dmat_free(C), dmat_free(D), dmat_free(bias);
    return ok ? 0 : 1;
}

// ---- timing ----------------------------------------------------------------------------------------

// Median time in ms of `reps` back-to-back launches of fn, each timed with events.
template <typename F> static double median_ms(F fn, int reps)
{
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; i++)
        fn();
    std::vector<float> t;
    for (int i = 0; i < reps; i++) {
        CUDA_OK(cudaEventRecord(e0));
        fn();
        CUDA_OK(cudaEventRecord(e1));
        CUDA_OK(cudaEventSynchronize(e1));
        float ms;
        CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Times an instance against cuBLAS on M x N x K (plain epilogue, beta 0).
static void time_case(cublasHandle_t h, const instance &in, int64_t M, int64_t N, int64_t K)
{
    const bool bf16 = in.bf16;
    uint16_t *A, *B, *D;
    CUDA_OK(cudaMalloc(&A, (size_t)(M * K) * 2));
    CUDA_OK(cudaMalloc(&B, (size_t)(N * K) * 2));
    CUDA_OK(cudaMalloc(&D, (size_t)(M * N) * 2));
    CUDA_OK(cudaMemset(A, 0x3c, (size_t)(M * K) * 2)); // small finite values in both types
    CUDA_OK(cudaMemset(B, 0x3c, (size_t)(N * K) * 2));
    tileops_gemm_args a = {};
    a.m = M, a.n = N, a.k = K;
    a.a = A, a.lda = K;
    a.b = B, a.ldb = in.b_kn ? N : K;
    a.d = D, a.ldd = N;
    a.alpha = 1.0f;
    size_t ws = 0;
    if (in.fit(&a, &ws) < 0) {
        printf("  %-36s %5lldx%5lldx%5lld: fit refuses\n", in.name, (long long)M, (long long)N, (long long)K);
        cudaFree(A), cudaFree(B), cudaFree(D);
        return;
    }
    void *wsp = nullptr;
    if (ws)
        CUDA_OK(cudaMalloc(&wsp, ws));
    a.workspace = wsp, a.workspace_bytes = ws;
    const double ms = median_ms([&] { in.launch(&a, 0); }, 20);
    CUDA_OK(cudaGetLastError());
    const float one = 1.0f, zero = 0.0f;
    const cudaDataType_t dt = bf16 ? CUDA_R_16BF : CUDA_R_16F;
    // Row-major D = A op(B) is column-major D^T = op(B)^T A^T.
    const double ms_ref = median_ms(
        [&] {
            cublasGemmEx(h, in.b_kn ? CUBLAS_OP_N : CUBLAS_OP_T, CUBLAS_OP_N, (int)N, (int)M, (int)K,
                         &one, B, dt, (int)a.ldb, A, dt, (int)K, &zero, D, dt, (int)N,
                         CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        },
        20);
    const double flop = 2.0 * M * N * K;
    const double bytes = 2.0 * (M * K + N * K + M * N);
    printf("  %-36s %5lldx%5lldx%5lld  %8.1f us  %7.1f TFLOP/s  %6.2f TB/s  | cuBLAS %8.1f us %7.1f TFLOP/s  ratio %.2f\n",
           in.name, (long long)M, (long long)N, (long long)K, ms * 1e3, flop / ms * 1e-9,
           bytes / ms * 1e-9, ms_ref * 1e3, flop / ms_ref * 1e-9, ms_ref / ms);
    if (wsp)
        cudaFree(wsp);
    cudaFree(A), cudaFree(B), cudaFree(D);
}

// ---- main ------------------------------------------------------------------------------------------

int main(int argc, char **argv)
{
    bool host_only = false, no_time = false, quick = false;
    const char *only = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--host-only"))
            host_only = true;
        else if (!strcmp(argv[i], "--no-time"))
            no_time = true;
        else if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            printf("usage: %s [--host-only] [--no-time] [--quick] [--only SUBSTR]\n", argv[0]);
            return 2;
        }
    }

    printf("== host checks: copy maps, swizzle, ldmatrix fragments, bank conflicts, fit()\n");
    for (int i = 0; i < ninstances; i++) {
        const instance &in = instances[i];
        if (only && !strstr(in.name, only))
            continue;
        const int before = layout_errors;
        if (in.tmpl != T_SM70)
            check_layout(in);
        check_fit(in);
        printf("  %s %-36s smem %6d B\n", layout_errors == before ? "ok  " : "FAIL", in.name, in.smem);
    }
    check_plans("sm_bf16_nk_m16_n128_k64_s6_w4", sm_bf16_nk_m16_n128_k64_s6_w4::make_plan, 64, true);
    check_plans("sm_f16_nk_m64_n128_k64_s4_w4", sm_f16_nk_m64_n128_k64_s4_w4::make_plan, 64, false);
    if (layout_errors) {
        printf("host checks: %d errors\n", layout_errors);
        return 1;
    }
    int ndev = 0;
    if (host_only || cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("host checks passed; %s\n", host_only ? "--host-only" : "no CUDA device: GPU checks skipped");
        return 0;
    }
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    printf("== device: %s, cc %d.%d, %d SMs, %zu KB opt-in smem\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount, prop.sharedMemPerBlockOptin / 1024);

    printf("== correctness\n");
    struct shape { int64_t m, n, k; };
    const shape big[] = {{1, 1, 1}, {17, 33, 65}, {127, 255, 513}, {1000, 1000, 1000}, {4096, 4096, 4096}};
    const shape small[] = {{1, 1, 1}, {17, 33, 65}, {1, 4096, 4096}, {16, 11008, 4096},
                           {33, 255, 513}, {64, 1000, 1000}, {64, 4096, 4096}};
    for (int i = 0; i < ninstances; i++) {
        const instance &in = instances[i];
        if (only && !strstr(in.name, only))
            continue;
        if ((size_t)in.smem > prop.sharedMemPerBlockOptin) {
            printf("  skip %s: %d B of shared memory\n", in.name, in.smem);
            continue;
        }
        const shape *sh = in.tmpl == T_SMALL_M ? small : big;
        const int nsh = in.tmpl == T_SMALL_M ? (int)(sizeof small / sizeof *small) : (int)(sizeof big / sizeof *big);
        for (int s = 0; s < nsh; s++) {
            const bool huge = sh[s].m * sh[s].n * sh[s].k > ((int64_t)1 << 33);
            if (huge && quick)
                continue;
            for (int c = 0; c < ncases; c++) {
                if (huge && c != 0 && c != 2)
                    continue; // big shapes: the plain case and C=D with bias+relu
                run_case(in, sh[s].m, sh[s].n, sh[s].k, cases[c]);
            }
        }
        // Small-M given no workspace: launch falls back to one split.
        if (in.tmpl == T_SMALL_M)
            run_case(in, 16, 4096, 4096, cases[1], true);
    }
    printf("correctness: %d runs, %d failures, %d skipped by fit()\n", runs, failures, skips);

    if (!no_time) {
        printf("== timing (median of 20, back to back)\n");
        cublasHandle_t h;
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
            printf("cublasCreate failed\n");
            return 1;
        }
        for (int i = 0; i < ninstances; i++) {
            const instance &in = instances[i];
            if (only && !strstr(in.name, only))
                continue;
            if (!in.aligned || (size_t)in.smem > prop.sharedMemPerBlockOptin)
                continue;
            if (in.tmpl == T_SMALL_M) {
                time_case(h, in, 1, 11008, 4096);
                time_case(h, in, 16, 4096, 4096);
                time_case(h, in, 64, 4096, 4096);
            } else {
                time_case(h, in, 4096, 4096, 4096);
                if (in.tmpl == T_SM80)
                    time_case(h, in, 8192, 8192, 8192);
                if (in.tmpl == T_SM80)
                    time_case(h, in, 128, 4096, 4096);
            }
        }
        cublasDestroy(h);
    }
    return failures ? 1 : 0;
}
