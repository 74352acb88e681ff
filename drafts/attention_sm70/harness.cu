// harness.cu: standalone test and timing of the flash_attention_sm70 template (wmma, fp16),
// instantiated as the generator would (instances.inc). `harness --host-only` runs the checks
// that need no GPU (host_checks.inc, per instance): shared-memory layout (formula, regions, wmma
// fragment alignment, bank groups, the S/P overlay, copy and epilogue mappings), the tile plan
// and masks, a model of the K/V register pipeline and its barriers, fit(), and a host emulation
// of the block's arithmetic against an fp64 reference. Without it, it also runs the kernels
// against the fp64 reference (the cases of drafts/attention/harness.cu) and times seqlen 16k,
// batch 1, 16 heads, d128, causal and not. `--no-timing` skips the timing. Built with
// `build.sh --emulate` (harness_emu), the device tests run the kernels' own code on the CPU
// (emu.h: coroutine threads on an adversarial schedule, random wmma fragment layouts).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TILEOPS_EMULATE // build.sh --emulate: g++, the device code on the CPU (emu.h)
#include "emu.h"
#else
#include "tileops_device.cuh"
#endif

// ---- harness utilities (before the instances: host_checks.inc uses them) --------------------

static int failures = 0;
static int device_sms = 80; // fit()'s SM count: the device's when there is one
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

// fp16 rounding on the host.
static float round_h(float x) { return __half2float(__float2half_rn(x)); }

// The 16-bit pattern of x rounded to fp16 (bf16 == false; the flag keeps drafts/attention's
// test code as it is).
static uint16_t elem_bits(float x, bool bf16)
{
    (void)bf16;
    const __half_raw r = __half(__float2half_rn(x));
    return r.x;
}

static float bits_elem(uint16_t b, bool bf16)
{
    (void)bf16;
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

// ---- instances --------------------------------------------------------------------------------
// Each: the instance (instances.inc) and, in its namespace, its host checks. All fit the
// generator's 64 KB sm70 limit except d256 m64 n32 (75 KB: V100 only; see NOTES.md).

#define INST_NAME fa70_d64_m128_n64_w8
#define INST_HD 0
#define INST_BM 128
#define INST_BN 64
#define INST_W 8
#include "instances.inc"
namespace fa70_d64_m128_n64_w8 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d64_m64_n64_w4
#define INST_HD 0
#define INST_BM 64
#define INST_BN 64
#define INST_W 4
#include "instances.inc"
namespace fa70_d64_m64_n64_w4 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d96_m128_n64_w8
#define INST_HD 1
#define INST_BM 128
#define INST_BN 64
#define INST_W 8
#include "instances.inc"
namespace fa70_d96_m128_n64_w8 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d96_m64_n64_w4
#define INST_HD 1
#define INST_BM 64
#define INST_BN 64
#define INST_W 4
#include "instances.inc"
namespace fa70_d96_m64_n64_w4 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d128_m64_n64_w4
#define INST_HD 2
#define INST_BM 64
#define INST_BN 64
#define INST_W 4
#include "instances.inc"
namespace fa70_d128_m64_n64_w4 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d128_m128_n32_w8
#define INST_HD 2
#define INST_BM 128
#define INST_BN 32
#define INST_W 8
#include "instances.inc"
namespace fa70_d128_m128_n32_w8 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d128_m64_n32_w4
#define INST_HD 2
#define INST_BM 64
#define INST_BN 32
#define INST_W 4
#include "instances.inc"
namespace fa70_d128_m64_n32_w4 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d256_m64_n16_w4
#define INST_HD 3
#define INST_BM 64
#define INST_BN 16
#define INST_W 4
#include "instances.inc"
namespace fa70_d256_m64_n16_w4 {
#include "host_checks.inc"
}

#define INST_NAME fa70_d256_m64_n32_w4
#define INST_HD 3
#define INST_BM 64
#define INST_BN 32
#define INST_W 4
#include "instances.inc"
namespace fa70_d256_m64_n32_w4 {
#include "host_checks.inc"
}

// ---- instance table -------------------------------------------------------------------------

struct instance {
    const char *name;
    int d, bm, bn, warps, smem;
    bool q_in_regs;
    int (*launch)(const void *, cudaStream_t);
    int64_t (*fit)(const void *, size_t *);
    bool (*host_check)();
};

#define ENTRY(NS)                                                                                 \
    {#NS, NS::D, NS::BLOCK_M, NS::BLOCK_N, NS::WARPS, NS::SMEM_TOTAL, NS::Q_IN_REGS, NS::launch,  \
     NS::fit, NS::host_check}
static const instance instances[] = {
    ENTRY(fa70_d64_m128_n64_w8),  ENTRY(fa70_d64_m64_n64_w4),   ENTRY(fa70_d96_m128_n64_w8),
    ENTRY(fa70_d96_m64_n64_w4),   ENTRY(fa70_d128_m64_n64_w4),  ENTRY(fa70_d128_m128_n32_w8),
    ENTRY(fa70_d128_m64_n32_w4),  ENTRY(fa70_d256_m64_n16_w4),  ENTRY(fa70_d256_m64_n32_w4),
};
static const int n_instances = (int)(sizeof(instances) / sizeof(instances[0]));

// ---- GPU tests (from drafts/attention/harness.cu: fp16 only) -----------------------------------

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
    const bool bf = false; // the sm70 tier is fp16 only
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
    a.sms = device_sms;
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
    const double tol = 5e-3;
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
    const int B = 1, S = 16384, H = 16, d = in.d;
    const int64_t n = (int64_t)B * S * H * d;
    void *dq, *dk, *dv, *dout;
    CUDA_OK(cudaMalloc(&dq, 2 * n));
    CUDA_OK(cudaMalloc(&dk, 2 * n));
    CUDA_OK(cudaMalloc(&dv, 2 * n));
    CUDA_OK(cudaMalloc(&dout, 2 * n));
    uint16_t *h = (uint16_t *)malloc(2 * n);
    for (int64_t i = 0; i < n; i++)
        h[i] = elem_bits(frand(), false);
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
    a.sms = device_sms;
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
    printf("  %-32s seqlen 16k b1 h16 %s: %.3f ms, %.1f TFLOP/s (fit %lld)\n", in.name,
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
        else {
            printf("usage: %s [--host-only] [--no-timing]\n", argv[0]);
            return 2;
        }
    }
    printf("host checks (layout, bank groups, S/P overlay, mappings, tile plan, pipeline model, "
           "fit, block emulation):\n");
    for (int i = 0; i < n_instances; i++) {
        const instance &in = instances[i];
        const bool ok = in.host_check();
        printf("  %s %-26s d%-3d m%d n%d w%d smem %6d%s Q in %s\n", ok ? "ok  " : "FAIL", in.name,
               in.d, in.bm, in.bn, in.warps, in.smem, in.smem > 64 * 1024 ? " (>64 KB)" : "",
               in.q_in_regs ? "registers" : "shared memory");
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
            {"long 1000x2048 causal", 1, 1000, 2048, 2, 2, true, true, false, 0, {0}, {0}},
        };
        int dev_count = 0;
        if (cudaGetDeviceCount(&dev_count) != cudaSuccess || dev_count == 0) {
            printf("no GPU: device tests skipped\n");
        } else {
            cudaDeviceProp prop;
            CUDA_OK(cudaGetDeviceProperties(&prop, 0));
            device_sms = prop.multiProcessorCount;
            int optin = 0;
            CUDA_OK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
            printf("device tests on %s (sm_%d%d, %d SMs, %d KB shared per block):\n", prop.name,
                   prop.major, prop.minor, device_sms, optin / 1024);
            for (int i = 0; i < n_instances; i++) {
                if (instances[i].smem > optin) {
                    printf("  skip %s: %d bytes of shared memory\n", instances[i].name,
                           instances[i].smem);
                    continue;
                }
                for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
                    run_case(instances[i], cases[c]);
            }
#ifdef TILEOPS_EMULATE
            no_timing = true; // nothing to time
#endif
            if (!no_timing) {
                printf("timing:\n");
                for (int i = 0; i < n_instances; i++)
                    if (instances[i].d == 128 && instances[i].smem <= optin) {
                        time_case(instances[i], false);
                        time_case(instances[i], true);
                    }
            }
        }
    }
    printf(failures ? "FAILED: %d\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
