// Template softmax_split: y[r,:] = softmax(x[r,:]) (MODE_PLAIN) or log_softmax(x[r,:])
// (MODE_LOG) for rows longer than one block holds, cut into g chunks of at most CAP elements,
// one block each; fp32 arithmetic, rounded to elem_t.
//
// Reads from the generator: elem_t, MODE, WARPS (the block is one team), ELEMS and VEC, and
// SMEM_KB, SMEM_BYTES, REGV: a chunk staged through shared memory (SMEM_KB > 0, sm80 and up,
// softmax_chunk_stage.cuh) or held in registers (softmax_chunk_regs.cuh). Each chunk's team
// reduces it to (max, sum of exp), publishes that to the workspace, and the row's chunks meet:
//   - g <= sms (fused): where every chunk of the call has a block of its own at once, one
//     cooperative launch gives each block one chunk and the blocks meet at grid.sync (no
//     counters, no memset, no atomics: 4 x 2^20 f32 0.71 of a copy against 0.63 with tickets);
//     GROUPED instances take kernel_grid for it. Otherwise, or where the device refuses the
//     cooperative launch, persistent blocks take chunks in ticket order, so a waiting team
//     only waits for tickets already taken by running blocks.
//   - g > sms (two passes): a first launch writes the chunks' partials, a second combines them
//     and reads each chunk again (the second time often from L2).

constexpr int TEAM = 32 * WARPS;
constexpr int THREADS = TEAM;
constexpr bool STAGED = SMEM_KB > 0;
constexpr int TAIL = STAGED ? REGV : 0;
constexpr int NV = ELEMS / VEC;
constexpr int64_t SCAP = STAGED ? SMEM_BYTES / (int)sizeof(elem_t) : 0;
constexpr int64_t CAP = STAGED ? SCAP + (int64_t)TEAM * TAIL * VEC : (int64_t)TEAM * ELEMS;
constexpr int KG = STAGED ? (int)(SCAP / (TEAM * VEC)) : 1;
constexpr bool NARROW = sizeof(elem_t) == 2;
constexpr int PREFETCH = 0;
// GROUPED: a stage of at most 8 vectors a thread and no register tail, whose cooperative split
// is kernel_grid: the chunk in registers, each vector folded in as it lands.
constexpr bool GROUPED = STAGED && TAIL == 0 && KG <= 8;
constexpr int PARTS = GROUPED ? WARPS : 1; // partials a chunk in the fused layout
static_assert(!GROUPED || WARPS % 2 == 0, "kernel_grid reads its row's partials two at a time");

#include "softmax_row.cuh"
#include "softmax_chunk_regs.cuh"
#include "softmax_chunk_stage.cuh"

enum { PHASE_FUSED = 0, PHASE_PARTIAL = 1, PHASE_FINISH = 2, PHASE_GRID = 3 };

// How a call is cut into chunks; computed on the host, the same way by fit() and launch().
struct plan {
    int64_t g;   // chunks per row
    int64_t len; // elements per chunk (the last what is left), a multiple of VEC
    int phase;   // PHASE_FUSED or PHASE_PARTIAL (two passes)
    size_t ws;   // workspace bytes
};

// Workspace: [ticket (8 bytes) | pad | per-row arrival counts (fused only) | per-chunk partials
// (max, sum) as float2], each part 16-byte aligned. The cooperative launch keeps the fused
// layout (the size fit() reported) and leaves the ticket and counts alone; kernel_grid writes
// one partial a warp there (PARTS a chunk).
constexpr size_t COUNTS_OFFSET = 16;
static __host__ __device__ size_t partials_offset(int64_t rows, int fused)
{
    return fused ? (COUNTS_OFFSET + (size_t)rows * 4 + 15) / 16 * 16 : 0;
}

static plan make_plan(const tileops_softmax_args *a)
{
    plan p;
    // chunks as full as they hold, the last what is left: balanced ones (the same count) ran
    // up to 2.8% slower where they left the register tail short (H200, bench/RESULTS.md)
    p.g = (a->cols + CAP - 1) / CAP;
    p.len = CAP;
    p.phase = p.g <= a->sms ? PHASE_FUSED : PHASE_PARTIAL;
    p.ws = p.g == 1 ? 0
                    : partials_offset(a->rows, p.phase == PHASE_FUSED) +
                          (size_t)a->rows * (size_t)p.g * sizeof(float2) *
                              (p.phase == PHASE_FUSED ? PARTS : 1);
    return p;
}

// As many blocks a SM as softmax_staged (staged chunks), or 1024 threads (registers).
constexpr int MIN_BLOCKS = STAGED ? STAGE_BLOCKS : THREADS >= 1024 ? 1 : 1024 / THREADS;

// One unit of work is one chunk of one row: by ticket (PHASE_FUSED), by a grid stride (the two
// passes) or chunk blockIdx.x (PHASE_GRID, non-GROUPED instances).
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
kernel(tileops_softmax_args a, int64_t g, int64_t len, int phase)
{
    extern __shared__ __align__(16) unsigned char stage_raw[]; // STAGED: the chunk
    __shared__ float2 red_a[WARPS], red_b[WARPS];
    __shared__ float red_m[WARPS], red_s[WARPS];
    __shared__ unsigned long long ticket;
    elem_t *stage = (elem_t *)stage_raw;
    const int t = threadIdx.x;
    const int64_t units = a.rows * g;
    unsigned char *ws = (unsigned char *)a.workspace;
    unsigned *ws_count = (unsigned *)(ws + COUNTS_OFFSET);
    float2 *ws_part =
        (float2 *)(ws + partials_offset(a.rows, phase == PHASE_FUSED || phase == PHASE_GRID));

    for (int64_t next = blockIdx.x;; next += gridDim.x) {
        int64_t u = next;
        __syncthreads(); // everyone is done with the previous chunk in `stage` and red_a
        if (phase == PHASE_FUSED) {
            __syncthreads(); // everyone has read the previous ticket
            if (t == 0)
                ticket = atomicAdd((unsigned long long *)ws, 1ull);
            __syncthreads();
            u = (int64_t)ticket;
        }
        if (u >= units)
            break;
        const int64_t row = u / g;
        const chunk k = make_chunk(a, row, u % g, len, t);
        float r[NV][VEC]; // unused (and dropped) when STAGED; sized so both branches compile
        vec_t q[TAIL > 0 ? TAIL : 1];
        if constexpr (STAGED)
            stage_load(stage, q, k, t);
        else
            regs_load(r, k, t);
        const float extra = load_extra(k);
        if (STAGED && phase == PHASE_FINISH)
            cp_async_wait<0>();

        float m = -INFINITY, s = 0.0f;
        if (phase != PHASE_FINISH) {
            if constexpr (STAGED)
                stage_reduce(stage, q, k, t, extra, red_a, m, s);
            else
                regs_reduce(r, extra, k.has_extra, red_m, red_s, m, s);
            if (m == -INFINITY)
                s = 0.0f; // a chunk of only -inf adds nothing
            if (t == 0) {
                ws_part[u] = make_float2(m, s);
                if (phase == PHASE_FUSED) { // (PHASE_GRID: grid.sync orders the partial)
                    add_release(&ws_count[row], 1u); // after the partial
                    while (load_acquire(&ws_count[row]) < (unsigned)g)
                        __nanosleep(64);
                }
            }
        }
        if (phase == PHASE_PARTIAL)
            continue;
        if (phase == PHASE_FUSED)
            __syncthreads(); // the team's thread 0 saw every chunk arrive
        if (phase == PHASE_GRID)
            cooperative_groups::this_grid().sync(); // every chunk's partial is written
        // The row's partials: running (max, sum) per thread, then over the team. A NaN sum
        // stays NaN through every step, so a NaN anywhere reaches the whole row.
        m = -INFINITY;
        s = 0.0f;
        for (int64_t i = t; i < g; i += TEAM) {
            const float2 pp = __ldcg(&ws_part[row * g + i]);
            softmax_merge(m, s, pp.x, pp.y);
        }
        softmax_team_merge(m, s, red_b, WARPS);
        if (m == -INFINITY)
            s = NAN; // the row is only -inf

        float m2, scale;
        output_params(m, s, m2, scale);
        if constexpr (STAGED)
            stage_write(stage, q, k, t, m, m2, scale);
        else
            regs_write(r, k, t, m, m2, scale);
        write_extra(k, extra, m, m2, scale);
    }
}

// The cooperative split of a GROUPED instance: block b takes chunk b % g of row b / g, every
// block of the call resident at once (the launch checks). A kernel of its own, so that little
// stands between the launch and the loads (kernel spends ~270 instructions a warp there: loop,
// tickets, 64-bit unit arithmetic) or between the loads landing and the grid barrier. The
// chunk stays in registers, raw (KG <= 8 vectors a thread); each warp publishes its own (max,
// sum) with no team barrier first (grid.sync orders those writes before every block's reads).
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
kernel_grid(tileops_softmax_args a, int g, int len)
{
    if constexpr (GROUPED) {
        __shared__ float red_m[WARPS], red_s[WARPS];
        const int t = threadIdx.x;
        const int row = (int)blockIdx.x / g;
        const chunk k = make_chunk(a, row, (int)blockIdx.x - row * g, len, t);
        uint4 raw[KG];
#pragma unroll
        for (int j = 0; j < KG; j++)
            if (t * VEC + j * TEAM * VEC < k.nv)
                raw[j] = load_prefetch16(k.x + t * VEC + j * TEAM * VEC);
        const float extra = load_extra(k);

        float m = -INFINITY, s = 0.0f, m2 = -INFINITY;
#pragma unroll
        for (int j = 0; j < KG; j++) {
            if (t * VEC + j * TEAM * VEC < k.nv) {
                const vec_t in = *(const vec_t *)&raw[j];
                softmax_fold_max(m, s, m2, max_nan_of(in.v, VEC));
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    s += sum_term(to_f32(in.v[e]), m, m2);
            }
        }
        if (m == -INFINITY)
            s = 0.0f; // no finite element yet (exp(-inf - -inf) summed NaN)
        softmax_merge(m, s, extra, extra == -INFINITY ? 0.0f : 1.0f);
        softmax_warp_merge(m, s); // (-inf, 0) for a warp of only -inf
        float2 *part = (float2 *)((unsigned char *)a.workspace + partials_offset(a.rows, 1));
        if (t % 32 == 0)
            part[(int64_t)blockIdx.x * WARPS + t / 32] = make_float2(m, s);
        cooperative_groups::this_grid().sync();

        // The row's g * WARPS partials, max first (softmax_partials_fold), then the team's
        // max, each thread's sum rescaled to it (one exp), the team's sum: the phase after the
        // barrier waits on the MUFU unit, so no exps in a chain.
        softmax_partials_fold(part + (int64_t)row * g * WARPS, g * WARPS, t, TEAM, m, s);
        const float rm = softmax_team_reduce(m, red_m, WARPS, true);
        s = m == -INFINITY ? 0.0f : s * fast_exp2((m - rm) * TILEOPS_LOG2E);
        s = softmax_team_reduce(s, red_s, WARPS, false);
        m = rm;
        if (m == -INFINITY)
            s = NAN; // the row is only -inf

        float scale;
        output_params(m, s, m2, scale);
#pragma unroll
        for (int j = 0; j < KG; j++) {
            const int i = t * VEC + j * TEAM * VEC;
            if (i < k.nv) {
                // convert again from the raw words: kept converted across the barrier (bf16:
                // a shift each, 64 floats instead of 32 words) the kernel spilled
                asm volatile("" : "+r"(raw[j].x), "+r"(raw[j].y), "+r"(raw[j].z), "+r"(raw[j].w));
                softmax_write_vec(k.y, i, *(const vec_t *)&raw[j], m, m2, scale,
                                  MODE == MODE_LOG);
            }
        }
        write_extra(k, extra, m, m2, scale);
    }
}

// ---- host side --------------------------------------------------------------------------

// Only rows that need more than one chunk. One pass over two; then enough chunks to keep
// every SM busy; then staged chunks, the largest stage first (fewest waits), a register tail
// first where the chunks reach past the stage (where they don't, the same stage without one),
// over chunks in registers, the smallest teams first. Stages past 64 KB serve no split (2
// blocks a SM: split rows ran faster in 3 smaller chunks a SM).
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const plan pl = make_plan(a);
    const int64_t scalar = VEC == 1 ? (int64_t)1 << 44 : 0;
    *workspace = pl.ws;
    if (pl.g == 1 || WARPS == 1 || SMEM_KB > 64)
        return -1;
    // fewer than 4 chunks per SM in all leaves SMs idle or compute-bound: smaller chunks
    const int64_t units = a->rows * pl.g, want = 4 * (int64_t)a->sms;
    // Of equal chunks, a cooperative split (every chunk resident) takes the instance with more
    // warps (8 against 4 of the same 16 KB chunk: f16 4 x 2^20 12.7 -> 12.5 us); elsewhere the
    // first of equals stays (8 warps lost 15-45% through tickets).
    const bool coop = GROUPED && a->coop && units <= (int64_t)MIN_BLOCKS * a->sms;
    // would chunks of this count, balanced, reach past the stage (else a plain stage serves)?
    const bool reach = (a->cols + pl.g - 1) / pl.g > SCAP;
    return scalar + ((int64_t)1 << (pl.phase == PHASE_FUSED ? 40 : 41)) +
           (units < want ? (want - units) * 256 : 0) + (coop ? 32 - WARPS : 32) +
           (STAGED ? 4 * (64 - SMEM_KB) + (TAIL == 0 ? 1 : reach ? 0 : 2) : 256 + WARPS);
}

// May a split launch cooperatively? Not where the handle's device cannot (queried once, at
// tileops_create), nor with TILEOPS_SOFTMAX_TICKETS set (not to "0"): the ticket path then,
// which tests run too.
static bool cooperative_ok(const tileops_softmax_args *a)
{
    const char *tickets = getenv("TILEOPS_SOFTMAX_TICKETS");
    return a->coop && !(tickets && *tickets && *tickets != '0');
}

// Launches on the caller's stream; returns the first cudaError_t.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const plan pl = make_plan(a);
    const int64_t units = a->rows * pl.g;
    const void *coop = GROUPED ? (const void *)kernel_grid : (const void *)kernel;
    const size_t coop_smem = GROUPED ? 0 : SMEM_BYTES; // kernel_grid keeps its chunk in registers
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    if (SMEM_BYTES > 40 * 1024) {
        const int e = smem_optin((const void *)kernel, SMEM_BYTES, &smem_done);
        if (e)
            return e;
    }
    if (pl.phase == PHASE_FUSED) {
        // per device model; a stale value costs speed, never correctness
        static int per_sm, per_sm_grid; // per_sm_grid: kernel_grid's (GROUPED only)
        if ((!per_sm && cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                            &per_sm, (const void *)kernel, THREADS, SMEM_BYTES) != cudaSuccess) ||
            (GROUPED && !per_sm_grid &&
             cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_grid, coop, THREADS,
                                                           coop_smem) != cudaSuccess))
            return (int)cudaGetLastError();
        const int per_sm_coop = GROUPED ? per_sm_grid : per_sm;
        const int64_t resident = (int64_t)a->sms * (per_sm > 0 ? per_sm : 1);
        if (units <= (int64_t)a->sms * per_sm_coop && cooperative_ok(a)) {
            tileops_softmax_args ka = *a;
            int64_t kg = pl.g, klen = pl.len;
            int kphase = PHASE_GRID, ig = (int)pl.g, ilen = (int)pl.len;
            void *kargs[] = {&ka, &kg, &klen, &kphase};
            void *gargs[] = {&ka, &ig, &ilen}; // kernel_grid
            const cudaError_t e =
                cudaLaunchCooperativeKernel(coop, dim3(grid_for(units)), dim3(THREADS),
                                            GROUPED ? gargs : kargs, coop_smem, stream);
            if (e != cudaErrorCooperativeLaunchTooLarge)
                return (int)e;
            // fewer blocks fit than the occupancy query said (MPS, another context's
            // partition): clear the error and take tickets
            (void)cudaGetLastError();
        }
        cudaError_t e = cudaMemsetAsync(a->workspace, 0, partials_offset(a->rows, 1), stream);
        if (e != cudaSuccess)
            return (int)e;
        kernel<<<grid_for(units < resident ? units : resident), THREADS, SMEM_BYTES, stream>>>(
            *a, pl.g, pl.len, PHASE_FUSED);
        return (int)cudaGetLastError();
    }
    kernel<<<grid_for(units), THREADS, SMEM_BYTES, stream>>>(*a, pl.g, pl.len, PHASE_PARTIAL);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return (int)e;
    kernel<<<grid_for(units), THREADS, SMEM_BYTES, stream>>>(*a, pl.g, pl.len, PHASE_FINISH);
    return (int)cudaGetLastError();
}
