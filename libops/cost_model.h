/* cost_model.h: the run-time estimates the kernels' fit() rank candidates by, until tuned
 * tables exist. Host code (C11, in libtileops.a), called from the generated CUDA's fit(). The
 * figures are a table of data (cost_model.c); the measurements behind them are in
 * bench/RESULTS.md, "GEMM cost model calibration". Internal. */
#ifndef TILEOPS_COST_MODEL_H
#define TILEOPS_COST_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fitted figures (rates per SM unless said). */
struct tileops__cost_table {
    double sm_flop_ns;         /* nominal mma.sync rate of one SM, flop/ns (4 TFLOP/s) */
    double dram_bytes_ns;      /* gemm_time_ns's floor: the call's DRAM bytes at this, bytes/ns */
    double block_start_ns;     /* a round of resident blocks' start: pipeline fill, epilogue */
    double launch_ns;          /* a call's launch and first fill */
    double lat_dram_ns;        /* latency of a stream from DRAM (small-M's B), Little's law */
    double lat_tiled_ns;       /* latency of the tiled kernels' A and B panels (mostly L2) */
    int stream_row_bytes;      /* B rows of a stage at least this long stream at the long rate */
    double stream_bw_long;     /* one SM streaming B from DRAM, rows >= stream_row_bytes, B/ns */
    double stream_bw_short;    /* the same for shorter rows, bytes/ns */
    double tile_eff_k;         /* tile efficiency: 1 - tile_eff_k / (bm*bn/(bm+bn)) */
    double tile_eff_min;       /* its floor */
    double cost_dram_bytes_ns; /* gemm_cost_ns's DRAM rate, bytes/ns (nominal 3.3 TB/s) */
    double cost_fixed_ns;      /* gemm_cost_ns's fixed cost of a call */
};
extern const struct tileops__cost_table tileops__cost;

/* Rough run time in ns of `blocks` blocks of `block_flops` each on `sms` SMs, `per_sm`
 * resident per SM sharing its rate, a block reaching `tile_eff` (0..1) of the nominal mma
 * rate, against `bytes` of compulsory DRAM traffic. The attention templates' fit() use it. It
 * charges per_sm block-times a wave even when there are fewer blocks than SMs. */
int64_t tileops__gemm_cost_ns(int sms, int64_t blocks, int per_sm, double block_flops,
                              double tile_eff, double bytes);

/* The GEMM templates' model (gemm_sm70, gemm_sm80, gemm_small_m): the busiest SM, holding
 * nb = ceil(blocks / sms) blocks (up to per_sm at once, sharing its rate), takes
 *   max(nb * block_flops / (sm_flop_ns * tile_eff), nb * block_bytes / bw)
 *   + ceil(nb / per_sm) * block_start_ns
 * with bw = min(sm_bw, resident blocks * inflight / latency_ns) (Little's law; sm_bw 0: no
 * cap; inflight or latency_ns 0: no Little's law bound; block_bytes 0: no stream term); the
 * call takes the larger of that and dram_bytes at dram_bytes_ns, plus launch_ns. */
int64_t tileops__gemm_time_ns(int sms, int64_t blocks, int per_sm, double block_flops,
                              double tile_eff, double block_bytes, double sm_bw,
                              double inflight, double latency_ns, double dram_bytes);

/* The rate (bytes/ns) at which one SM streams B from DRAM, by the contiguous bytes of a B row
 * one stage copies (BK * 2 as [N,K], BN * 2 as [K,N]). Fitted, not derived. */
double tileops__gemm_stream_bw(int row_bytes);

/* The fraction of the nominal mma.sync rate a bm x bn block tile reaches: its operand bytes
 * per flop fall as 1 / intensity, intensity = bm*bn / (bm+bn). */
double tileops__gemm_tile_eff(int bm, int bn);

/* Blocks of `threads` threads and `smem` bytes of shared memory resident on one SM of
 * `smem_sm` bytes and `max_threads` threads, with about `regs` registers a thread (0: not
 * counted). At least 1. */
int tileops__gemm_blocks_per_sm(int smem, int smem_sm, int threads, int max_threads, int regs);

#ifdef __cplusplus
}
#endif

#endif
