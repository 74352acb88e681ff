/* cost_model.c: the kernels' run-time estimates (cost_model.h) and the figures fitted to them.
 * Only ranks candidates: the tuned tables will replace it. */
#include "cost_model.h"

/* Measured on an H200: bf16, L2 flushed, tileops-bench (bench/RESULTS.md, GEMM cost model). */
const struct tileops__cost_table tileops__cost = {
    .sm_flop_ns = 4000.0,
    .dram_bytes_ns = 4000.0,
    .block_start_ns = 2500.0,
    .launch_ns = 6500.0,
    .lat_dram_ns = 3000.0,
    .lat_tiled_ns = 850.0,
    .stream_row_bytes = 512,
    .stream_bw_long = 38.0,
    .stream_bw_short = 32.5,
    .tile_eff_k = 17.0,
    .tile_eff_min = 0.1,
    .cost_dram_bytes_ns = 3300.0,
    .cost_fixed_ns = 3000.0,
};

int64_t tileops__gemm_cost_ns(int sms, int64_t blocks, int per_sm, double block_flops,
                              double tile_eff, double bytes)
{
    const struct tileops__cost_table *t = &tileops__cost;
    const int64_t slots = (int64_t)sms * (per_sm < 1 ? 1 : per_sm);
    const int64_t waves = (blocks + slots - 1) / slots;
    /* Blocks sharing an SM share its rate: a wave of per_sm blocks takes per_sm block-times. */
    const double compute =
        (double)waves * (per_sm < 1 ? 1 : per_sm) * block_flops / (t->sm_flop_ns * tile_eff);
    const double memory = bytes / t->cost_dram_bytes_ns;
    return (int64_t)((compute > memory ? compute : memory) + t->cost_fixed_ns);
}

int64_t tileops__gemm_time_ns(int sms, int64_t blocks, int per_sm, double block_flops,
                              double tile_eff, double block_bytes, double sm_bw,
                              double inflight, double latency_ns, double dram_bytes)
{
    const struct tileops__cost_table *t = &tileops__cost;
    if (sms < 1)
        sms = 1;
    if (per_sm < 1)
        per_sm = 1;
    const int64_t nb = (blocks + sms - 1) / sms;
    const int64_t resident = nb < per_sm ? nb : per_sm;
    const int64_t starts = (nb + per_sm - 1) / per_sm;
    double bw = sm_bw > 0.0 ? sm_bw : 1e30; /* bytes per ns; 0: only Little's law bounds it */
    if (inflight > 0.0 && latency_ns > 0.0 && resident * inflight / latency_ns < bw)
        bw = resident * inflight / latency_ns;
    const double compute = (double)nb * block_flops / (t->sm_flop_ns * tile_eff);
    const double stream = block_bytes > 0.0 ? (double)nb * block_bytes / bw : 0.0;
    const double busiest =
        (compute > stream ? compute : stream) + t->block_start_ns * (double)starts;
    const double dram = dram_bytes / t->dram_bytes_ns;
    return (int64_t)((busiest > dram ? busiest : dram) + t->launch_ns);
}

/* Two rates, by row length: rows of 512 bytes measured 38-40 GB/s an SM, of 128 and 256 bytes
 * 31-35 (a second resident block did not raise it); the kernels also differ in warps, so the
 * row length is the best guess of the cause, not a finding. */
double tileops__gemm_stream_bw(int row_bytes)
{
    return row_bytes >= tileops__cost.stream_row_bytes ? tileops__cost.stream_bw_long
                                                       : tileops__cost.stream_bw_short;
}

/* 1 - k / intensity matches 128x256 (0.80) and 64x64 (0.47) as measured; 128x128 gets 0.73. */
double tileops__gemm_tile_eff(int bm, int bn)
{
    const double inten = (double)bm * bn / (bm + bn);
    const double e = 1.0 - tileops__cost.tile_eff_k / inten;
    return e > tileops__cost.tile_eff_min ? e : tileops__cost.tile_eff_min;
}

/* The smallest of what shared memory, threads and registers (64K an SM on every tier) allow. */
int tileops__gemm_blocks_per_sm(int smem, int smem_sm, int threads, int max_threads, int regs)
{
    int n = smem > 0 ? smem_sm / smem : max_threads / threads;
    if (max_threads / threads < n)
        n = max_threads / threads;
    if (regs > 0 && 65536 / (regs * threads) < n)
        n = 65536 / (regs * threads);
    return n > 0 ? n : 1;
}
