// Template softmax: y[r,:] = softmax(x[r,:]) (MODE_PLAIN) or log_softmax(x[r,:]) (MODE_LOG)
// over each row of a rows x cols matrix, fp32 arithmetic, rounded to elem_t.
//
// Reads from the generator: elem_t, MODE, WARPS (warps that share one row: a team), ROWS
// (teams per block), ELEMS (elements a thread holds in registers), VEC (elements per vector
// load; VEC > 1 needs x, y and both row strides aligned to VEC * sizeof(elem_t) bytes, which
// dispatch checks), SMEM_KB and SMEM_BYTES (0: the register path; else the staged path),
// REGV (staged: 16-byte vectors a thread also holds in registers, past the stage) and
// PREFETCH (1: loads into registers are ld.global.nc.L1::no_allocate.L2::256B, sm80 and up).
//
// Register path: a team holds up to CAP = 32 * WARPS * ELEMS elements of a row in registers
// (the 2-byte prefetching instances as kernel_rows, one row a block: see PIPE).
// Staged path (sm80 and up): a block's team loads up to SCAP = SMEM_BYTES / sizeof(elem_t)
// elements into shared memory with cp.async, all in flight at once, and reads them from
// there; registers then no longer bound the bytes in flight. With REGV > 0 a chunk holds
// CAP = SCAP + TEAM * REGV * VEC elements: the part past the stage is loaded into registers
// in the same burst (more bytes in flight a SM than shared memory alone holds, so long rows
// need fewer chunks); the stage goes out in FOLDS commit groups, each folded into the
// thread's (max, sum) as it lands. Either way memory is read once and written once. A longer
// row is cut into g chunks of at most CAP, one team each:
//   - g <= sms (fused): each chunk's team publishes its (max, sum of exp) to the workspace,
//     waits for the row's other chunks, combines and writes. Where every chunk of the call
//     has a block of its own at once (rows * g <= blocks resident on the device), a
//     cooperative launch gives each block one chunk and the blocks meet at grid.sync: no
//     counters, so no memset before the kernel and no atomics (4 x 2^20: 0.71 of a copy
//     against 0.63 with tickets, f32 on an H200), and (GROUPED) each vector folds into its
//     thread's (max, sum) as it lands. Otherwise, or where the device refuses the
//     cooperative launch, chunks are taken in ticket order, so a waiting team only waits for
//     tickets already taken by running blocks. (Co-resident persistent blocks walking the
//     chunks in a fixed order instead, no tickets, ran 6% slower at 4096 x 128256 on an
//     H200: each row then waits for its slowest block's earlier chunks. On sm90, one
//     thread-block cluster a row, its chunks' partials swapped through distributed shared
//     memory at a cluster barrier, ran 18% slower there: 12288 clusters launched in turn.)
//   - g > sms (two passes): a first launch writes the chunks' partials, a second combines
//     them and reads each chunk again. Memory is read twice (the second time often from L2).
//
// Numerics: the row max is subtracted; -inf entries give 0 (log: -inf); a row of only -inf
// gives NaN (as PyTorch); a NaN anywhere in a row makes that whole row NaN.

constexpr int TEAM = 32 * WARPS;           // threads that share one row chunk
constexpr int THREADS = TEAM * ROWS;
constexpr int NV = ELEMS / VEC;            // vectors a thread holds (register path)
constexpr bool STAGED = SMEM_KB > 0;
constexpr int TAIL = STAGED ? REGV : 0;    // vectors a thread holds past the stage
constexpr int64_t SCAP = STAGED ? SMEM_BYTES / (int)sizeof(elem_t) : 0; // the stage's part
constexpr int64_t CAP = STAGED ? SCAP + (int64_t)TEAM * TAIL * VEC : (int64_t)TEAM * ELEMS;
static_assert((TAIL == 0 && PREFETCH == 0) || VEC * sizeof(elem_t) == 16,
              "register tails and prefetching loads take 16-byte vectors");
// GROUPED: a stage of at most 8 vectors a thread and no register tail. Its cooperative split
// is kernel_grid (below), a kernel of its own that holds the chunk (KG vectors a thread) in
// registers, not in the stage, and folds each vector into the thread's running (max, sum) as
// soon as it lands, so the arithmetic runs under the load tail instead of after it (4 x 2^20
// on the H200, through tileops-bench: f32 0.673 -> 0.691 of a copy, f16 0.585 -> 0.59-0.60,
// still through the stage then).
constexpr int KG = STAGED ? (int)(SCAP / (TEAM * VEC)) : 0;
constexpr bool GROUPED = STAGED && TAIL == 0 && KG >= 1 && KG <= 8 && SCAP == (int64_t)KG * TEAM * VEC;
constexpr int PARTS = GROUPED ? WARPS : 1; // partials a chunk in the fused layout
// kernel's stage: KG vectors a thread in FOLDS commit groups of FV (see the loads)
constexpr int FOLDS = KG % 8 == 0 ? 8 : KG % 4 == 0 ? 4 : KG % 2 == 0 ? 2 : 1;
constexpr int FV = STAGED ? KG / FOLDS : 0;
static_assert(!STAGED || (VEC * sizeof(elem_t) == 16 && SCAP == (int64_t)KG * TEAM * VEC),
              "a stage holds whole 16-byte vectors of every thread");

static_assert(!GROUPED || WARPS % 2 == 0, "kernel_grid reads its row's partials two at a time");

// A timeline of kernel_grid for drafts/softmax_sweep/grid_timeline.c: built with
// TILEOPS_SOFTMAX_TIMELINE defined (make NVDEFS=-DTILEOPS_SOFTMAX_TIMELINE), each block's thread
// 0 writes %globaltimer at seven points (i = 0..6) and its SM id (7) to the workspace 1 MB
// on, past what the library asks for: only that harness, which passes 2 MB, may call such a
// build. Nothing otherwise.
#ifdef TILEOPS_SOFTMAX_TIMELINE
static __device__ __forceinline__ void grid_stamp(const tileops_softmax_args &a, int i)
{
    unsigned long long v;
    unsigned sm;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    unsigned long long *st = (unsigned long long *)((unsigned char *)a.workspace + (1 << 20));
    if (threadIdx.x == 0) {
        st[blockIdx.x * 8 + i] = v;
        st[blockIdx.x * 8 + 7] = sm;
    }
}
#define GRID_STAMP(i) grid_stamp(a, (i))
#else
#define GRID_STAMP(i)
#endif

// PHASE_GRID: the fused split launched cooperatively, one chunk a block (see the top).
enum { PHASE_FUSED = 0, PHASE_PARTIAL = 1, PHASE_FINISH = 2, PHASE_GRID = 3 };

// VEC elements moved by one load or store.
struct __align__(VEC * sizeof(elem_t)) vec_t {
    elem_t v[VEC];
};

// How a call is cut into chunks; computed on the host, the same way by fit() and launch().
struct plan {
    int64_t g;      // chunks per row
    int64_t len;    // elements per chunk (the last may be shorter), a multiple of VEC
    int phase;      // PHASE_FUSED (also for g == 1) or PHASE_PARTIAL (two passes)
    size_t ws;      // workspace bytes
};

// Workspace layout for g > 1: [ticket (8 bytes) | pad | per-row arrival counts (fused only)
// | per-chunk partials (max, sum) as float2], each part 16-byte aligned. PHASE_GRID keeps the
// fused layout (the size fit() reported) and leaves the ticket and counts alone; kernel_grid
// writes one partial per warp there (PARTS a chunk).
constexpr size_t COUNTS_OFFSET = 16;
static __host__ __device__ size_t partials_offset(int64_t rows, int fused)
{
    return fused ? (COUNTS_OFFSET + (size_t)rows * 4 + 15) / 16 * 16 : 0;
}

static plan make_plan(const tileops_softmax_args *a)
{
    plan p;
    p.g = (a->cols + CAP - 1) / CAP;
    const int64_t per = (a->cols + p.g - 1) / p.g;
    p.len = (per + VEC - 1) / VEC * VEC;
    p.g = (a->cols + p.len - 1) / p.len;
    p.phase = p.g <= a->sms ? PHASE_FUSED : PHASE_PARTIAL;
    p.ws = p.g == 1 ? 0
                    : partials_offset(a->rows, p.phase == PHASE_FUSED) +
                          (size_t)a->rows * (size_t)p.g * sizeof(float2) *
                              (p.phase == PHASE_FUSED ? PARTS : 1);
    return p;
}

// ---- reductions and outputs: the shared softmax helpers of tileops_device.cuh -----------

static __device__ __forceinline__ void team_merge(float &m, float &s, float2 *red)
{
    softmax_team_merge(m, s, red, WARPS, PREFETCH == 0); // see the helper
}

static __device__ __forceinline__ float output(float v, float m, float m2, float scale)
{
    return softmax_output(v, m, m2, scale, MODE == MODE_LOG);
}

// 2-byte elements: every exp of a sum is one FFMA and one MUFU (exp_term). Plain f16: 1 / s
// also goes into the exponent, exp2(x * log2 e - (m * log2 e + log2 s)), one FFMA and one MUFU
// an output with no multiply (the MUFU's flush below 2^-126 is below f16's subnormals).
// H200, tileops-bench, three runs each: f16 4096 x 128256 569.4 -> 564.7 us, 4 x 2^20 13.0 ->
// 12.7 us, bf16 4096 x 128256 573.7 -> 569.0. Not for the prefetching register instances: f16
// 32768 x 4096 lost 145.5 -> 146.7 us with it.
constexpr bool NARROW = sizeof(elem_t) == 2 && !(PREFETCH && !STAGED);
constexpr bool FOLD =
    NARROW && MODE == MODE_PLAIN && ftz_invisible((const elem_t *)nullptr);

static __device__ __forceinline__ float sum_term(float x, float m, float m2)
{
    return exp_term(x, m, m2, NARROW);
}

// What output() takes from the row's (max, sum): m2 = m * log2(e) (FOLD: + log2 s) and
// scale (1 / s, FOLD: 1; log: log s). A row of only -inf has s NaN, so NaN outputs.
static __device__ __forceinline__ void output_params(float m, float s, float &m2, float &scale)
{
    m2 = FOLD ? m * TILEOPS_LOG2E + __log2f(s) : m * TILEOPS_LOG2E; // (x + 0.0f stays an add)
    scale = MODE == MODE_LOG ? logf(s) : FOLD ? 1.0f : 1.0f / s;
}

static __device__ __forceinline__ unsigned load_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// *p += v, ordered after this thread's earlier writes for whoever acquires *p (a release
// reduction: no MEMBAR.SC.GPU of a __threadfence first)
static __device__ __forceinline__ void add_release(unsigned *p, unsigned v)
{
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// A vector of x into registers: prefetching (PREFETCH, 16-byte vectors) or plain.
static __device__ __forceinline__ void load_vec(vec_t &dst, const elem_t *p)
{
    if constexpr (PREFETCH != 0)
        *(uint4 *)&dst = load_prefetch16(p);
    else
        dst = *(const vec_t *)p;
}

// ---- the kernel -------------------------------------------------------------------------

// At least 1024 threads per SM (at most 64 registers a thread) for the register path: enough
// loads in flight to cover memory latency while some teams sit at a barrier. The staged path
// keeps its bytes in flight in shared memory instead and needs few registers: as many blocks
// as an sm90 SM's shared memory holds (227 KB), to 8, as long as a thread keeps 64 registers
// or more: 8 blocks of 16 KB stages (128 threads), 4 of 32 KB, 3 of 64 KB (80 registers; with
// a bound of 2 a build took 81 and lost the third block), 2 of 96 KB (512 threads, 64).
constexpr int STAGE_BLOCKS_SMEM = 227 / (SMEM_KB + 1);
constexpr int STAGE_BLOCKS_REGS = 65536 / (THREADS * 64);
constexpr int STAGE_BLOCKS = STAGE_BLOCKS_SMEM < STAGE_BLOCKS_REGS ? STAGE_BLOCKS_SMEM
                                                                   : STAGE_BLOCKS_REGS;
constexpr int MIN_BLOCKS = STAGED ? (STAGE_BLOCKS < 1 ? 1 : STAGE_BLOCKS > 8 ? 8 : STAGE_BLOCKS)
                                  : THREADS >= 1024 ? 1 : 1024 / THREADS;

// PIPE: the 2-byte prefetching register instances, for rows that fit one team (fit() gives
// them no other), as a kernel of its own: one row a block with nothing of kernel's chunk
// plan (64-bit unit division, split bookkeeping, per-vector -inf padding: about 200 integer
// instructions a thread a row in f16 w4 e32 p1); the vectors stay as loaded, 16 registers,
// converted where used. Run at kernel's 1024 threads a SM (see launch): at its natural 10
// blocks of 128 (47 registers) it ran f16 32768 x 4096 no faster than kernel (147.3 against
// 147.1 us on the H200); capped at 8, 143.0-143.3 (0.91 of a copy). (Persistent blocks that
// load the next row while reducing this one ran 162 us; f32's w8 e16 p1, at 5 blocks, lost
// 1%: it stays in kernel.)
constexpr bool PIPE = !STAGED && PREFETCH != 0 && sizeof(elem_t) == 2;
constexpr int PIPE_BLOCKS = THREADS >= 1024 ? 1 : 1024 / THREADS; // blocks a SM

// One unit of work is one chunk of one row, done by one team. PHASE_FUSED with g == 1 walks
// the rows with a grid stride; with g > 1 it takes chunks by ticket; PHASE_GRID takes chunk
// blockIdx.x (see the top).
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
kernel(tileops_softmax_args a, int64_t g, int64_t len, int phase)
{
    if (PIPE)
        return; // kernel_rows serves these instances (launch)
    extern __shared__ __align__(16) unsigned char stage_raw[]; // STAGED: the chunk
    __shared__ float2 red_a[WARPS], red_b[WARPS];
    __shared__ float red_m[WARPS], red_s[WARPS]; // the register path's team max and sum
    __shared__ unsigned long long ticket;
    elem_t *stage = (elem_t *)stage_raw;
    const int team = threadIdx.x / TEAM;
    const int t = threadIdx.x % TEAM;
    const int64_t units = a.rows * g;
    const bool fused_split = phase == PHASE_FUSED && g > 1;
    unsigned char *ws = (unsigned char *)a.workspace;
    unsigned long long *ws_ticket = (unsigned long long *)ws;
    unsigned *ws_count = (unsigned *)(ws + COUNTS_OFFSET);
    float2 *ws_part =
        (float2 *)(ws + partials_offset(a.rows, phase == PHASE_FUSED || phase == PHASE_GRID));

    for (int64_t next = (int64_t)blockIdx.x * ROWS + team;; next += (int64_t)gridDim.x * ROWS) {
        int64_t u = next;
        if (STAGED || WARPS > 1)
            __syncthreads(); // everyone is done with the previous chunk in `stage` and red_a
        if (fused_split) { // ROWS == 1 here: one team per block
            __syncthreads(); // everyone has read the previous ticket
            if (threadIdx.x == 0)
                ticket = atomicAdd(ws_ticket, 1ull);
            __syncthreads();
            u = (int64_t)ticket;
        }
        if (u >= units)
            break;
        const int64_t row = u / g, c = u % g;
        const int n = (int)(c == g - 1 ? a.cols - c * len : len);
        const elem_t *x = (const elem_t *)a.x + row * a.ldx + c * len;
        elem_t *y = (elem_t *)a.y + row * a.ldy + c * len;

        // Load the chunk: whole vectors up to nv, and the last n % VEC elements one each in
        // `extra` of the team's first threads (kept apart so that the vector path needs no
        // element-wise branch, which cost 30-60 registers). Register path: vector slots past
        // nv read as -inf so they drop out of both sums; held as fp32 from the start (keeping
        // f16 / bf16 packed made the compiler keep both forms alive and spill on sm_90).
        // Staged path: cp.async straight into shared memory, all of it in flight at once; the
        // chunk past SCAP (TAIL > 0) into registers q, raw. Prefetching register path: every
        // load first, then the conversions (converting each vector as it landed let ptxas
        // reuse one register quad for f16 and wait for each load in turn: 4 round trips).
        const int nv = n - n % VEC;
        const int ns = TAIL > 0 && nv > SCAP ? (int)SCAP : nv; // the staged part
        float r[STAGED ? 1 : NV][VEC];
        vec_t q[TAIL > 0 ? TAIL : 1];
        if (STAGED) {
#pragma unroll
            for (int f = 0; f < FOLDS; f++) {
#pragma unroll
                for (int v = 0; v < FV; v++) {
                    const int i = t * VEC + (f * FV + v) * TEAM * VEC;
                    if (i < ns)
                        cp_async_16_full(smem_addr(stage + i), x + i);
                }
                cp_async_commit();
            }
#pragma unroll
            for (int k = 0; k < TAIL; k++) {
                const int i = (int)SCAP + (k * TEAM + t) * VEC;
                if (i < nv)
                    load_vec(q[k], x + i);
            }
        } else if (PREFETCH) {
            vec_t in[NV];
#pragma unroll
            for (int k = 0; k < NV; k++) {
                const int i = (k * TEAM + t) * VEC;
                if (i < nv)
                    load_vec(in[k], x + i);
                else
                    in[k] = vec_t(); // read as -inf below
            }
#pragma unroll
            for (int k = 0; k < NV; k++) {
                const bool live = (k * TEAM + t) * VEC < nv;
#pragma unroll
                for (int j = 0; j < VEC; j++)
                    r[k][j] = live ? to_f32(in[k].v[j]) : -INFINITY;
            }
        } else {
#pragma unroll
            for (int k = 0; k < NV; k++) {
                const int i = (k * TEAM + t) * VEC;
                if (i < nv) {
                    const vec_t in = *(const vec_t *)(x + i);
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        r[k][j] = to_f32(in.v[j]);
                } else {
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        r[k][j] = -INFINITY;
                }
            }
        }
        const bool has_extra = VEC > 1 && t < n - nv;
        const float extra = has_extra ? to_f32(x[nv + t]) : -INFINITY;
        if (STAGED && phase == PHASE_FINISH)
            cp_async_wait<0>();

        // This thread's (max, sum of exp), then the team's. With m finite, -inf entries
        // (padding too) add exp(-inf) = 0; with m NaN the sum is NaN, as the row must be.
        float m = -INFINITY, s = 0.0f;
        if (phase != PHASE_FINISH) {
            float m2 = -INFINITY;
            if (STAGED) {
                // Each commit group folds into the running (max, sum) as soon as this thread's
                // own copies of it have landed (it reads back only what it copied: no
                // barrier), so the sums run under the load tail; then the register tail, one
                // max for all of it.
#pragma unroll
                for (int f = 0; f < FOLDS; f++) {
                    cp_async_wait_n(FOLDS - 1 - f);
                    vec_t in[FV > 0 ? FV : 1];
                    float cm = -INFINITY;
#pragma unroll
                    for (int v = 0; v < FV; v++) {
                        const int i = t * VEC + (f * FV + v) * TEAM * VEC;
                        if (i < ns) {
                            in[v] = *(const vec_t *)(stage + i);
                            cm = max_nan(cm, max_nan_of(in[v].v, VEC));
                        }
                    }
                    softmax_fold_max(m, s, m2, cm);
#pragma unroll
                    for (int v = 0; v < FV; v++)
                        if (t * VEC + (f * FV + v) * TEAM * VEC < ns)
#pragma unroll
                            for (int j = 0; j < VEC; j++)
                                s += sum_term(to_f32(in[v].v[j]), m, m2);
                }
                float cm = extra;
#pragma unroll
                for (int k = 0; k < TAIL; k++)
                    if ((int)SCAP + (k * TEAM + t) * VEC < nv)
                        cm = max_nan(cm, max_nan_of(q[k].v, VEC));
                softmax_fold_max(m, s, m2, cm);
#pragma unroll
                for (int k = 0; k < TAIL; k++)
                    if ((int)SCAP + (k * TEAM + t) * VEC < nv)
#pragma unroll
                        for (int j = 0; j < VEC; j++)
                            s += sum_term(to_f32(q[k].v[j]), m, m2);
            } else {
                // Registers: the team's max first, then each exp taken once against it, and
                // the team's sum (merging (max, sum) pairs instead took two exps a step).
#pragma unroll
                for (int k = 0; k < NV; k++)
                    m = max_nan(m, max_nan_of(r[k], VEC));
                m = softmax_team_reduce(max_nan(m, extra), red_m, WARPS, true);
                m2 = m * TILEOPS_LOG2E;
#pragma unroll
                for (int k = 0; k < NV; k++)
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        s += sum_term(r[k][j], m, m2);
            }
            s += has_extra ? sum_term(extra, m, m2) : 0.0f;
            if (!STAGED) {
                s = softmax_team_reduce(s, red_s, WARPS, false);
            } else {
                if (m == -INFINITY)
                    s = 0.0f; // no finite element here (exp(-inf - -inf) summed NaN)
                team_merge(m, s, red_a);
            }
            if (m == -INFINITY) // only -inf: a row of it is NaN, a chunk of it adds nothing
                s = g == 1 ? NAN : 0.0f;
        }

        if (g > 1) {
            if (phase != PHASE_FINISH && t == 0) {
                ws_part[u] = make_float2(m, s); // (-inf, 0) for a chunk of only -inf
                if (phase == PHASE_FUSED) { // (PHASE_GRID: grid.sync orders the partial)
                    add_release(&ws_count[row], 1u); // after the partial
                    while (load_acquire(&ws_count[row]) < (unsigned)g)
                        __nanosleep(64);
                }
            }
            if (phase == PHASE_PARTIAL)
                continue;
            if (phase == PHASE_FUSED)
                __syncthreads(); // the team's thread 0 saw every chunk arrive
            if (phase == PHASE_GRID)
                cooperative_groups::this_grid().sync(); // every chunk's partial is written
            // Combine the row's partials: running (max, sum) per thread, then over the team.
            // A NaN sum stays NaN through every step, so a NaN anywhere reaches the whole row.
            m = -INFINITY;
            s = 0.0f;
            for (int64_t i = t; i < g; i += TEAM) {
                const float2 q = __ldcg(&ws_part[row * g + i]);
                softmax_merge(m, s, q.x, q.y);
            }
            team_merge(m, s, red_b);
            if (m == -INFINITY)
                s = NAN; // the row is only -inf
        }

        // Write.
        float m2, scale;
        output_params(m, s, m2, scale);
        if (STAGED) {
            // (unrolled by 4 from one base address, as the loads: a loop striding over the
            // stage spilled 8 bytes in f32 w16 s96 rv4 on sm90; unrolled in full, the sm80
            // build loaded all 16 vectors of s64 at once and spilled)
#pragma unroll 4
            for (int k = 0; k < KG; k++) {
                const int i = t * VEC + k * TEAM * VEC;
                if (i < ns) {
                    const vec_t in = *(const vec_t *)(stage + i);
                    softmax_write_vec(y, i, in, m, m2, scale, MODE == MODE_LOG);
                }
            }
#pragma unroll
            for (int k = 0; k < TAIL; k++) {
                const int i = (int)SCAP + (k * TEAM + t) * VEC;
                if (i < nv)
                    softmax_write_vec(y, i, q[k], m, m2, scale, MODE == MODE_LOG);
            }
        } else {
#pragma unroll
            for (int k = 0; k < NV; k++) {
                const int i = (k * TEAM + t) * VEC;
                if (i < nv) {
                    vec_t o;
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        from_f32(output(r[k][j], m, m2, scale), &o.v[j]);
                    store_stream((vec_t *)(y + i), o);
                }
            }
        }
        if (has_extra)
            from_f32(output(extra, m, m2, scale), &y[nv + t]);
    }
}

// ---- the cooperative split of a GROUPED instance ----------------------------------------

// PHASE_GRID for GROUPED instances: block b takes chunk b % g of row b / g, and every block of
// the call is resident at once (the launch checks). A kernel of its own, so that little stands
// between the launch and the copies (the shared kernel spent ~270 instructions a warp there:
// loop, tickets, 64-bit unit arithmetic) or between the copies landing and the grid barrier:
// each warp publishes its own (max, sum), with no team barrier first, and grid.sync orders
// those writes before every block's reads (cooperative groups' guarantee), with no fence of
// ours. After the barrier a team merges its row's g * WARPS partials and writes the chunk.
// (One partial a block instead, merged by warp 0 before the barrier, was 0.2-0.4 us slower
// at 1 to 4 x 2^20 although each block then reads 8 times fewer partials: the path to the
// barrier is what counts. So were chunk counts that put the same number of blocks on every
// SM: 528 chunks at 4 x 2^20 against 512.)
// 4 x 2^20 on the H200 (tileops-bench): f32 0.69 -> 0.74-0.76 of a copy, f16 0.60 -> 0.65-0.67
// with the chunk still in the stage; in registers, f32 17.8 -> 16.9 us (0.79), f16 13.1-13.4 ->
// 12.9-13.1 us (0.66-0.67).
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
kernel_grid(tileops_softmax_args a, int g, int len)
{
    if constexpr (GROUPED) {
        GRID_STAMP(0); // start
        __shared__ float red_m[WARPS], red_s[WARPS];
        const int t = threadIdx.x;
        const int row = (int)blockIdx.x / g, c = (int)blockIdx.x - row * g;
        const int n = c == g - 1 ? (int)(a.cols - (int64_t)c * len) : len;
        const elem_t *x = (const elem_t *)a.x + row * a.ldx + (int64_t)c * len;
        elem_t *y = (elem_t *)a.y + row * a.ldy + (int64_t)c * len;
        const int nv = n - n % VEC;
        // The chunk in registers, raw (KG <= 8 vectors a thread, 32 registers at most), every
        // load issued before the first is used; each vector is folded in as it lands. Through
        // a cp.async stage instead, the bare read-barrier-write skeleton took 9.8 us against
        // 9.0 through registers (drafts/softmax_sweep/coop_cost.cu, 8 MB, H200).
        const elem_t *src = x + t * VEC;
        uint4 raw[GROUPED ? KG : 1];
#pragma unroll
        for (int k = 0; k < KG; k++)
            if (t * VEC + k * TEAM * VEC < nv)
                raw[k] = load_prefetch16(src + k * TEAM * VEC);
        // the last n % VEC elements, one each in the first threads (as in kernel)
        const bool has_extra = VEC > 1 && t < n - nv;
        const float extra = has_extra ? to_f32(x[nv + t]) : -INFINITY;
        GRID_STAMP(1); // loads issued

        float m = -INFINITY, s = 0.0f, m2 = -INFINITY;
#pragma unroll
        for (int k = 0; k < KG; k++) {
            if (t * VEC + k * TEAM * VEC < nv) {
                const vec_t in = *(const vec_t *)&raw[k];
                softmax_fold_max(m, s, m2, max_nan_of(in.v, VEC));
#pragma unroll
                for (int j = 0; j < VEC; j++)
                    s += sum_term(to_f32(in.v[j]), m, m2);
            }
        }
        GRID_STAMP(2); // the thread's loads landed and folded
        if (m == -INFINITY)
            s = 0.0f; // no finite element yet (exp(-inf - -inf) summed NaN)
        softmax_merge(m, s, extra, extra == -INFINITY ? 0.0f : 1.0f);
        softmax_warp_merge(m, s); // (-inf, 0) for a warp of only -inf
        float2 *part = (float2 *)((unsigned char *)a.workspace + partials_offset(a.rows, 1));
        if (t % 32 == 0)
            part[(int64_t)blockIdx.x * WARPS + t / 32] = make_float2(m, s);
        GRID_STAMP(3); // partial written
        cooperative_groups::this_grid().sync();
        GRID_STAMP(4); // past the barrier

        // The row's g * WARPS partials, max first at each step: the thread's (see
        // softmax_partials_fold), then the team's max, each thread's sum rescaled to it (one
        // exp), the team's sum. (A merge a partial, two exps each in a chain, and the team's the
        // same way, took 0.3 us more at 4 x 2^20 on the H200; every thread merging the WARPS
        // warp pairs after one barrier, 8 exps each, 0.2 us more: the phase after the barrier
        // waits on the MUFU unit.)
        softmax_partials_fold(part + (int64_t)row * g * WARPS, g * WARPS, t, TEAM, m, s);
        const float rm = softmax_team_reduce(m, red_m, WARPS, true);
        s = m == -INFINITY ? 0.0f : s * fast_exp2((m - rm) * TILEOPS_LOG2E);
        s = softmax_team_reduce(s, red_s, WARPS, false);
        m = rm;
        GRID_STAMP(5); // the row's (max, sum)
        if (m == -INFINITY)
            s = NAN; // the row is only -inf

        float scale;
        output_params(m, s, m2, scale);
#pragma unroll
        for (int k = 0; k < KG; k++) {
            const int i = t * VEC + k * TEAM * VEC;
            if (i < nv) {
                // convert again from the raw words: kept converted across the barrier (bf16:
                // a shift each, 64 floats instead of 32 words) the kernel spilled
                asm volatile("" : "+r"(raw[k].x), "+r"(raw[k].y), "+r"(raw[k].z), "+r"(raw[k].w));
                const vec_t in = *(const vec_t *)&raw[k];
                softmax_write_vec(y, i, in, m, m2, scale, MODE == MODE_LOG);
            }
        }
        if (has_extra)
            from_f32(output(extra, m, m2, scale), &y[nv + t]);
        GRID_STAMP(6); // stores issued
    }
}

// ---- rows that fit one team, one row a block (PIPE, see above kernel) --------------------

// One row a block (a grid stride past gridDim's limit): every load, then the team's max, each
// exp once against it, the team's sum, and the outputs converted again from the raw words.
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
kernel_rows(tileops_softmax_args a)
{
    if constexpr (PIPE) {
        __shared__ float red_m[WARPS], red_s[WARPS];
        const int t = threadIdx.x; // ROWS == 1: one team a block
        const int cols = (int)a.cols, nv = cols - cols % VEC; // cols <= CAP
        const bool has_extra = VEC > 1 && t < cols - nv;
        for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
            const elem_t *x = (const elem_t *)a.x + row * a.ldx;
            uint4 cur[NV];
#pragma unroll
            for (int k = 0; k < NV; k++)
                if (t * VEC + k * TEAM * VEC < nv)
                    cur[k] = load_prefetch16(x + t * VEC + k * TEAM * VEC);
            const float extra = has_extra ? to_f32(x[nv + t]) : -INFINITY;

            // The team's max, each exp once against it, the team's sum (as in kernel). With m
            // finite, -inf entries add 0; a NaN makes m, s and the whole row NaN.
            float m = extra;
#pragma unroll
            for (int k = 0; k < NV; k++)
                if (t * VEC + k * TEAM * VEC < nv)
                    m = max_nan(m, max_nan_of(((const vec_t *)&cur[k])->v, VEC));
            m = softmax_team_reduce(m, red_m, WARPS, true);
            float m2 = m * TILEOPS_LOG2E, s = has_extra ? sum_term(extra, m, m2) : 0.0f;
#pragma unroll
            for (int k = 0; k < NV; k++)
                if (t * VEC + k * TEAM * VEC < nv) {
                    const vec_t in = *(const vec_t *)&cur[k];
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        s += sum_term(to_f32(in.v[j]), m, m2);
                }
            s = softmax_team_reduce(s, red_s, WARPS, false);
            if (m == -INFINITY)
                s = NAN; // the row is only -inf

            float scale;
            output_params(m, s, m2, scale);
            elem_t *y = (elem_t *)a.y + row * a.ldy;
#pragma unroll
            for (int k = 0; k < NV; k++) {
                const int i = t * VEC + k * TEAM * VEC;
                if (i < nv)
                    softmax_write_vec(y, i, *(const vec_t *)&cur[k], m, m2, scale,
                                      MODE == MODE_LOG);
            }
            if (has_extra)
                from_f32(output(extra, m, m2, scale), &y[nv + t]);
        }
    }
}

// ---- host side --------------------------------------------------------------------------

// Rows that fit in one team cost their capacity (the tightest instance wins; at equal
// capacity prefetching registers, then a stage, then plain registers). Split rows prefer one
// pass over two; then enough chunks to keep every SM busy; then staged chunks, the largest
// stage first (fewest waits), a register tail first where the chunks reach past the stage
// (it cut the chunks; where they don't, the same stage without one), over chunks in
// registers, the smallest teams first.
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const plan pl = make_plan(a);
    // element-wise loads only where no vector instance is aligned for the call
    const int64_t scalar = VEC == 1 ? (int64_t)1 << 44 : 0;
    *workspace = pl.ws;
    if (pl.g == 1)
        return scalar + 4 * CAP + (STAGED ? 1 : PREFETCH ? 0 : 2);
    // A single warp per row only serves rows that fit; so do prefetching registers (measured
    // only there; f16's would double the chunks) and stages past 64 KB (2 blocks a SM: split
    // rows ran faster in 3 smaller chunks a SM)
    if (WARPS == 1 || (PREFETCH && !STAGED) || SMEM_KB > 64)
        return -1;
    // fewer than 4 chunks per SM in all leaves SMs idle or compute-bound: smaller chunks
    const int64_t units = a->rows * pl.g, want = 4 * (int64_t)a->sms;
    // Of equal chunks, a cooperative split (every chunk resident, see launch) takes the
    // instance with more warps: H200, tileops-bench, 8 warps against 4 of the same 16 KB
    // chunk: f16 4 x 2^20 12.66-12.77 -> 12.46-12.53 us, 5 x 128256 8.53 -> 8.10. Elsewhere
    // the first of equals stays (8 warps lost 15-45% through tickets).
    const bool coop = GROUPED && a->coop && units <= (int64_t)MIN_BLOCKS * a->sms;
    return scalar + ((int64_t)1 << (pl.phase == PHASE_FUSED ? 40 : 41)) +
           (units < want ? (want - units) * 256 : 0) + (coop ? 32 - WARPS : 32) +
           (STAGED ? 4 * (64 - SMEM_KB) + (TAIL == 0 ? 1 : pl.len > SCAP ? 0 : 2) : 256 + WARPS);
}

// May a split launch cooperatively? Not where the handle's device cannot (queried once, at
// tileops_create), nor with TILEOPS_SOFTMAX_TICKETS set (not to "0"): the ticket path then,
// which tests run too.
static bool cooperative_ok(const tileops_softmax_args *a)
{
    const char *tickets = getenv("TILEOPS_SOFTMAX_TICKETS");
    return a->coop && !(tickets && *tickets && *tickets != '0');
}

// Dynamic shared memory (unused) that holds kernel_rows to PIPE_BLOCKS blocks a SM: a share
// of the SM's shared memory between 1 / (PIPE_BLOCKS + 1) and 1 / PIPE_BLOCKS of it, less the
// per-block reserve and the static part. Per process, for the device current at the first
// call (a stale value costs speed, never correctness: it stays within 48 KB); -1 on error.
static int rows_smem_pad()
{
    static int pad = -1;
    if (pad >= 0)
        return pad;
    int dev = 0, per_sm = 0, reserved = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev) !=
            cudaSuccess)
        return -1;
    const int share = per_sm / PIPE_BLOCKS - reserved - 2 * WARPS * (int)sizeof(float) - 1024;
    const int p = share < 0 ? 0 : share > 48 * 1024 ? 48 * 1024 : share / 128 * 128;
    pad = p;
    return p;
}

// Launches on the caller's stream; returns the first cudaError_t.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const plan pl = make_plan(a);
    const int64_t units = a->rows * pl.g;
    // the cooperative split's kernel (see the top)
    const void *coop = GROUPED ? (const void *)kernel_grid : (const void *)kernel;
    const size_t coop_smem = GROUPED ? 0 : SMEM_BYTES; // kernel_grid keeps its chunk in registers
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    // past 48 KB with the static part (reductions, ticket): a 48 KB stage needs it too
    if (SMEM_BYTES > 40 * 1024) {
        const int e = smem_optin((const void *)kernel, SMEM_BYTES, &smem_done);
        if (e)
            return e;
    }
    if (PIPE && pl.g == 1) {
        const int pad = rows_smem_pad();
        if (pad < 0)
            return (int)cudaGetLastError();
        kernel_rows<<<grid_for(a->rows), THREADS, pad, stream>>>(*a);
        return (int)cudaGetLastError();
    }
    if (pl.g == 1) {
        kernel<<<grid_for((a->rows + ROWS - 1) / ROWS), THREADS, SMEM_BYTES, stream>>>(
            *a, 1, pl.len, PHASE_FUSED);
        return (int)cudaGetLastError();
    }
    if (pl.phase == PHASE_FUSED) {
        // Persistent blocks take tickets: as many as fit on the device at once.
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
        // Every chunk a block of its own at once: one cooperative launch (see the top).
        if (ROWS == 1 && units <= (int64_t)a->sms * per_sm_coop && cooperative_ok(a)) {
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
