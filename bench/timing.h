/* timing.h: CUDA-event timing of a GPU operation, with the L2 cache flushed before each
 * repetition so that every rep reads its inputs from DRAM, as a cold inference step would. */
#ifndef TILEOPS_BENCH_TIMING_H
#define TILEOPS_BENCH_TIMING_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/* Bytes memset before each rep: several times the L2 of any current GPU (H100/H200: 50 MiB,
 * B200: 126 MiB), so nothing of the previous rep survives in it. */
#define BENCH_FLUSH_BYTES ((size_t)256 << 20)

/* Untimed calls before the timed ones: first-launch costs (module loading, PTX JIT,
 * clock ramp-up) must not land in the statistics. */
#define BENCH_WARMUP_REPS 3

/* The operation being timed: enqueues its GPU work on `stream` and returns 0, or prints
 * why it failed to stderr and returns -1. It must not synchronize. */
typedef int (*bench_op_fn)(void *arg, cudaStream_t stream);

/* Owns the flush buffer and one start/stop event pair per rep. */
struct bench_timer {
    cudaStream_t stream;
    void *flush;            /* BENCH_FLUSH_BYTES of device scratch */
    unsigned flush_count;   /* source of the changing memset byte */
    int max_reps;
    cudaEvent_t *start, *stop;
    float *ms;              /* per-rep times, sorted to find the median */
    double prune;           /* > 0: a run whose first PRUNE_REPS reps' median is over prune ×
                             * best_us stops there (tileops-tune's hopeless candidates) */
    double best_us;         /* the best median since it was last reset to 0 */
};

#define BENCH_PRUNE_REPS 5

struct bench_stats {
    double median_us;
    double min_us;
    double noise_us;        /* half the interquartile range */
    int reps;               /* reps timed (fewer than asked when pruned) */
};

/* Allocates the flush buffer and events for up to max_reps reps on `stream`.
 * Returns 0, or -1 (message printed, nothing left allocated). */
int bench_timer_init(struct bench_timer *t, cudaStream_t stream, int max_reps);

/* Frees what init allocated; safe on a zeroed or partly initialised timer. */
void bench_timer_destroy(struct bench_timer *t);

/* Runs op BENCH_WARMUP_REPS times untimed, then `reps` times (1 <= reps <= max_reps), each
 * preceded by an untimed L2 flush and bracketed by its own event pair (with t->prune set,
 * stopping after BENCH_PRUNE_REPS when hopeless). Fills *out with the median, minimum and
 * noise of the rep times in microseconds. Returns 0, or -1 (message printed). */
int bench_timer_run(struct bench_timer *t, int reps, bench_op_fn op, void *arg,
                    struct bench_stats *out);

#endif /* TILEOPS_BENCH_TIMING_H */
