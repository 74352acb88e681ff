/* grid_timeline.c: where the cooperative split's time goes, block by block. Links a
 * libtileops.a built with TILEOPS_SOFTMAX_TIMELINE defined: kernel_grid's thread 0 then writes
 * %globaltimer at seven points (start, loads issued, loads folded, partial written, past
 * grid.sync, the row's (max, sum) merged, stores issued) and its SM id into the workspace 1 MB
 * on (GRID_STAMP in generator/templates/softmax.cu). Each rep: a 256 MB memset (the bench's L2
 * flush), events around one tileops_softmax call (f16, 4 x 2^20 unless given rows and cols),
 * then the stamps. Prints, per stamp, the median over reps of the min / p10 / p50 / p90 / max
 * over blocks, in ns from the earliest start, and the mean over blocks on SMs holding 4 blocks
 * and on the others.
 * Build: make clean && make TILEOPS_ARCHS=90 NVDEFS=-DTILEOPS_SOFTMAX_TIMELINE, then
 *   cc -O2 -std=c11 -Iinclude -I$CUDA_HOME/include drafts/softmax_sweep/grid_timeline.c \
 *      build/libtileops.a -L$CUDA_HOME/lib64 -lcudart -lstdc++ -lm -o grid_timeline
 * Run: ./grid_timeline [rows cols] (on a GPU; the split must be the cooperative one) */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tileops.h"

#define REPS 25
#define NST 7
#define MAXB 4096

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const int64_t rows = argc > 1 ? atoll(argv[1]) : 4, cols = argc > 2 ? atoll(argv[2]) : 1 << 20;
    tileops_handle h;
    if (tileops_create(&h, 0) != TILEOPS_SUCCESS)
        return 1;
    size_t bytes = (size_t)rows * cols * 2, need = 0; /* need: a check that 1 MB of stamps fits past it */
    tileops_softmax_workspace_size(h, TILEOPS_F16, TILEOPS_SOFTMAX_PLAIN, rows, cols, NULL, cols, NULL, cols, &need);
    if (need > (1u << 20)) {
        fprintf(stderr, "workspace of %zu bytes overlaps the stamps\n", need);
        return 1;
    }
    void *x, *y, *ws, *flush;
    const size_t wsb = (2u << 20);
    cudaMalloc(&x, bytes);
    cudaMalloc(&y, bytes);
    cudaMalloc(&ws, wsb);
    cudaMalloc(&flush, 256u << 20);
    cudaMemset(x, 0x3c, bytes);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    static uint64_t st[MAXB * 8];
    static double stat[REPS][NST][5], sm4[REPS][NST], sm3[REPS][NST], evt[REPS];
    int nb = 0;
    for (int r = -3; r < REPS; r++) {
        cudaMemset(ws, 0, wsb);
        cudaMemsetAsync(flush, r & 0xff, 256u << 20, 0);
        cudaEventRecord(e0, 0);
        tileops_status s = tileops_softmax(h, TILEOPS_F16, TILEOPS_SOFTMAX_PLAIN, rows, cols, x,
                                           cols, y, cols, ws, wsb, 0);
        cudaEventRecord(e1, 0);
        if (s != TILEOPS_SUCCESS || cudaDeviceSynchronize() != cudaSuccess) {
            fprintf(stderr, "call failed: %d %s\n", (int)s, tileops_last_error());
            return 1;
        }
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        cudaMemcpy(st, (char *)ws + (1 << 20), sizeof st, cudaMemcpyDeviceToHost);
        nb = 0;
        while (nb < MAXB && st[nb * 8] != 0)
            nb++;
        if (r < 0)
            continue;
        evt[r] = ms * 1e3;
        uint64_t t0 = st[0];
        for (int b = 0; b < nb; b++)
            if (st[b * 8] < t0)
                t0 = st[b * 8];
        int per_sm[1024] = {0};
        for (int b = 0; b < nb; b++)
            per_sm[st[b * 8 + 7] & 1023]++;
        for (int i = 0; i < NST; i++) {
            static uint64_t v[MAXB];
            double a4 = 0, a3 = 0;
            int n4 = 0, n3 = 0;
            for (int b = 0; b < nb; b++) {
                v[b] = st[b * 8 + i] - t0;
                if (per_sm[st[b * 8 + 7] & 1023] >= 4) {
                    a4 += (double)v[b];
                    n4++;
                } else {
                    a3 += (double)v[b];
                    n3++;
                }
            }
            qsort(v, nb, sizeof v[0], cmp_u64);
            stat[r][i][0] = (double)v[0];
            stat[r][i][1] = (double)v[nb / 10];
            stat[r][i][2] = (double)v[nb / 2];
            stat[r][i][3] = (double)v[nb * 9 / 10];
            stat[r][i][4] = (double)v[nb - 1];
            sm4[r][i] = n4 ? a4 / n4 : 0;
            sm3[r][i] = n3 ? a3 / n3 : 0;
        }
    }
    static const char *name[NST] = {"start", "issued", "folded", "partial", "barrier", "merged", "stored"};
    double col[REPS];
    for (int r = 0; r < REPS; r++)
        col[r] = evt[r];
    qsort(col, REPS, sizeof col[0], cmp_d);
    printf("%lld x %lld f16: %d blocks, %s; events median %.2f us (min %.2f)\n", (long long)rows,
           (long long)cols, nb, tileops_last_kernel(h), col[REPS / 2], col[0]);
    printf("%-8s %7s %7s %7s %7s %7s   %8s %8s (ns from the first start; median of %d reps)\n",
           "stamp", "min", "p10", "p50", "p90", "max", "4/SM avg", "<4 avg", REPS);
    for (int i = 0; i < NST; i++) {
        double out[7];
        for (int k = 0; k < 7; k++) {
            for (int r = 0; r < REPS; r++)
                col[r] = k < 5 ? stat[r][i][k] : k == 5 ? sm4[r][i] : sm3[r][i];
            qsort(col, REPS, sizeof col[0], cmp_d);
            out[k] = col[REPS / 2];
        }
        printf("%-8s %7.0f %7.0f %7.0f %7.0f %7.0f   %8.0f %8.0f\n", name[i], out[0], out[1], out[2],
               out[3], out[4], out[5], out[6]);
    }
    tileops_destroy(h);
    return 0;
}
