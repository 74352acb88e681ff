// gemm-sweep: times GEMM instances one by one, outside the dispatcher, beside cublasGemmEx.
// A stopgap for choosing the specs' defaults until the autotuner exists; see build.sh.
//   gemm-sweep tiled       4096^3 and 8192^3, bf16, B as [N,K]: every tiled instance
//   gemm-sweep small       M 1 and 16 against the issue's weight shapes: every small-M instance
//   gemm-sweep epilogue N  the named instance at 4096^3 without and with each epilogue
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "tileops.h"
#include "op_args.h"

#define K(name)                                                                                   \
    extern "C" int name##_launch(const void *, cudaStream_t);                                    \
    extern "C" int64_t name##_fit(const void *, size_t *);
#include "names.inc"
#undef K

struct inst {
    const char *name;
    int (*launch)(const void *, cudaStream_t);
    int64_t (*fit)(const void *, size_t *);
};
static const inst insts[] = {
#define K(name) {#name, name##_launch, name##_fit},
#include "names.inc"
#undef K
};
static const int NINST = (int)(sizeof insts / sizeof insts[0]);

#define CK(x)                                                                                     \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));            \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

static void *flush_buf;
static const size_t FLUSH = 256u << 20;

static __global__ void fill(__nv_bfloat16 *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 13;
        x *= 0x5bd1e995u;
        x ^= x >> 15;
        p[i] = __float2bfloat16(((x & 0xffff) / 65536.0f - 0.5f));
    }
}

// median of `reps` event-timed calls, each after an L2 flush
template <typename F> static double time_us(F f, int reps)
{
    for (int i = 0; i < 3; i++)
        f();
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    double t[64];
    for (int r = 0; r < reps; r++) {
        CK(cudaMemsetAsync(flush_buf, r, FLUSH));
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t[r] = ms * 1000.0;
    }
    for (int i = 0; i < reps; i++)
        for (int j = i + 1; j < reps; j++)
            if (t[j] < t[i]) {
                double x = t[i];
                t[i] = t[j];
                t[j] = x;
            }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t[reps / 2];
}

struct problem {
    tileops_gemm_args p;
    cublasHandle_t cb;
    void *ref; // cublas's D
};

static float bf(unsigned short u)
{
    unsigned x = (unsigned)u << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

// max |D - D_cublas| / (|D_cublas| + 1) over the whole output
static double max_err(const problem &pr)
{
    const size_t n = (size_t)pr.p.m * pr.p.n;
    unsigned short *a = (unsigned short *)malloc(n * 2), *b = (unsigned short *)malloc(n * 2);
    CK(cudaMemcpy(a, pr.p.d, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b, pr.ref, n * 2, cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t i = 0; i < n; i++) {
        const double x = bf(a[i]), y = bf(b[i]);
        const double r = fabs(x - y) / (fabs(y) + 1.0);
        if (!(r <= e))
            e = r != r ? 1e30 : r;
    }
    free(a);
    free(b);
    return e;
}

static double cublas_us(problem &pr, int reps)
{
    const float alpha = 1, beta = 0;
    tileops_gemm_args &p = pr.p;
    return time_us([&] {
        cublasGemmEx(pr.cb, CUBLAS_OP_T, CUBLAS_OP_N, (int)p.n, (int)p.m, (int)p.k, &alpha, p.b,
                     CUDA_R_16BF, (int)p.ldb, p.a, CUDA_R_16BF, (int)p.lda, &beta, pr.ref, CUDA_R_16BF,
                     (int)p.ldd, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }, reps);
}

static void setup(problem &pr, int64_t m, int64_t n, int64_t k, void *ws, size_t ws_bytes, int sms)
{
    static void *a, *b, *d, *ref;
    static size_t ab, bb, db;
    size_t need_a = m * k * 2, need_b = n * k * 2, need_d = m * n * 2;
    if (need_a > ab) { cudaFree(a); CK(cudaMalloc(&a, need_a)); ab = need_a; }
    if (need_b > bb) { cudaFree(b); CK(cudaMalloc(&b, need_b)); bb = need_b; }
    if (need_d > db) {
        cudaFree(d);
        cudaFree(ref);
        CK(cudaMalloc(&d, need_d));
        CK(cudaMalloc(&ref, need_d));
        db = need_d;
    }
    pr.ref = ref;
    fill<<<1024, 256>>>((__nv_bfloat16 *)a, m * k, 1);
    fill<<<1024, 256>>>((__nv_bfloat16 *)b, n * k, 2);
    CK(cudaDeviceSynchronize());
    memset(&pr.p, 0, sizeof pr.p);
    pr.p.m = m, pr.p.n = n, pr.p.k = k;
    pr.p.a = a, pr.p.lda = k, pr.p.b = b, pr.p.ldb = k, pr.p.d = d, pr.p.ldd = n;
    pr.p.alpha = 1.0f;
    pr.p.workspace = ws, pr.p.workspace_bytes = ws_bytes;
    pr.p.sms = sms;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "tiled";
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&flush_buf, FLUSH));
    void *ws;
    const size_t ws_bytes = 256u << 20;
    CK(cudaMalloc(&ws, ws_bytes));
    void *bias;
    CK(cudaMalloc(&bias, 1 << 20));
    fill<<<64, 256>>>((__nv_bfloat16 *)bias, 1 << 19, 3);
    problem pr;
    cublasCreate(&pr.cb);
    printf("kernel,m,n,k,epilogue,fit_ns,us,tflops,cublas_us,ratio,max_err\n");
    if (!strcmp(mode, "tiled") || !strcmp(mode, "small")) {
        const bool tiled = !strcmp(mode, "tiled");
        static const int64_t big[][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}};
        static const int64_t small[][3] = {{1, 4096, 4096},  {16, 4096, 4096},  {1, 14336, 4096},
                                           {16, 14336, 4096}, {16, 4096, 11008}, {16, 128256, 4096},
                                           {64, 4096, 4096},  {7, 1000, 2056}};
        const int ns = tiled ? 2 : 8;
        for (int s = 0; s < ns; s++) {
            const int64_t *sh = tiled ? big[s] : small[s];
            setup(pr, sh[0], sh[1], sh[2], ws, ws_bytes, sms);
            const int reps = tiled ? 10 : 30;
            const double ref = cublas_us(pr, reps);
            for (int i = 0; i < NINST; i++) {
                if ((strstr(insts[i].name, "small_m") != NULL) == tiled)
                    continue;
                size_t need = 0;
                const int64_t cost = insts[i].fit(&pr.p, &need);
                if (cost < 0 || need > ws_bytes)
                    continue;
                CK(cudaMemset(pr.p.d, 0xff, (size_t)sh[0] * sh[1] * 2));
                const double us = time_us([&] { insts[i].launch(&pr.p, 0); }, reps);
                CK(cudaDeviceSynchronize());
                printf("%s,%lld,%lld,%lld,none,%lld,%.2f,%.1f,%.2f,%.3f,%.2e\n", insts[i].name,
                       (long long)sh[0], (long long)sh[1], (long long)sh[2], (long long)cost, us,
                       2.0 * sh[0] * sh[1] * sh[2] / us * 1e-6, ref, ref / us, max_err(pr));
            }
            fflush(stdout);
        }
    } else if (!strcmp(mode, "epilogue") && argc > 2) {
        setup(pr, 4096, 4096, 4096, ws, ws_bytes, sms);
        const double ref = cublas_us(pr, 20);
        static const int epis[] = {0, TILEOPS_EPILOGUE_BIAS, TILEOPS_EPILOGUE_RELU,
                                   TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_RELU,
                                   TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_TANH,
                                   TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_ERF};
        for (int i = 0; i < NINST; i++) {
            if (strcmp(insts[i].name, argv[2]) != 0)
                continue;
            for (int e = 0; e < 6; e++) {
                pr.p.epilogue = epis[e];
                pr.p.bias = (epis[e] & TILEOPS_EPILOGUE_BIAS) ? bias : NULL;
                const double us = time_us([&] { insts[i].launch(&pr.p, 0); }, 20);
                CK(cudaGetLastError());
                printf("%s,4096,4096,4096,%d,0,%.2f,%.1f,%.2f,%.3f\n", insts[i].name, epis[e], us,
                       2.0 * 4096.0 * 4096 * 4096 / us * 1e-6, ref, ref / us);
            }
        }
    }
    return 0;
}
