// softmax_x.cu (drafts/softmax_sweep): generator/templates/softmax.cu with the sweep's
// options. NOT the library's template: a copy for measuring, so that generated/ and the
// library stay as they are. Every option at 0 is the library's template (the PTX of such an
// instance matches the library's; see NOTES.md). Besides what the template reads, it reads
// these constexpr ints (the sweep's instance preamble sets all of them):
//   SX_LOAD   staged loads: 0 cp.async.cg (today) | 1 + .L2::128B prefetch | 2 + .L2::256B |
//             3 sm90 bulk copy (cp.async.bulk, 16 KB pieces, one mbarrier); register loads
//             (register path, SX_REGV tail): 0 plain | 1, 2, 3 ld.global.nc.L1::no_allocate
//             with a 128 / 256 / 256-byte L2 prefetch | 4 ld.global.L1::no_allocate.L2::256B
//             (coherent; staged loads as 2). Register path with SX_LOAD > 0: every load
//             first, then the conversions (as the library's PREFETCH = 1 does)
//   SX_STORE  0 st.global.cs (today) | 1 plain st.global | 2 L1::no_allocate + L2 evict_first
//   SX_ONLINE 1: the staged (max, sum) in one pass over shared memory instead of two | 2: the
//             same pass, folded in as the stage lands: a thread's copies go out in KG commit
//             groups (one per vector it copies) and each is folded in once its group is done,
//             so the arithmetic overlaps the load tail (SX_LOAD 0, no SX_REGV) | 3: as 2, and
//             (plain) each element's exp(x - running max) is kept (fp32: in place of x for f32,
//             in a buffer after the stage for f16 / bf16) with the running max per vector, so
//             the output takes one exp a vector, not one an element
//   SX_REGV   staged path: vectors a thread also holds in registers, past the stage (a chunk
//             of SMEM_BYTES + TEAM * SX_REGV * 16 bytes)
//   SX_SPLIT  split rows: 0 tickets, per-row counts, a memset per call (today) | 1 a
//             cooperative launch: static chunks, no memset, no tickets; one chunk per block
//             meets at grid.sync, more than that zero the counts in the kernel (one grid.sync)
//             and meet per row | 2 always two passes
//   SX_MINB   0: today's minimum blocks per SM in __launch_bounds__; else that number
//   SX_UNITS  1: split rows cut into as many chunks as blocks fit on the device at once
//             (rows * g ~ SMs * blocks per SM), instead of as few as the stage allows
//
// Template softmax: y[r,:] = softmax(x[r,:]) (MODE_PLAIN) or log_softmax(x[r,:]) (MODE_LOG)
// over each row of a rows x cols matrix, fp32 arithmetic, rounded to elem_t.
//
// Reads from the generator: elem_t, MODE, WARPS (warps that share one row: a team), ROWS
// (teams per block), ELEMS (elements a thread holds in registers), VEC (elements per vector
// load; VEC > 1 needs x, y and both row strides aligned to VEC * sizeof(elem_t) bytes, which
// dispatch checks), SMEM_KB and SMEM_BYTES (0: the register path; else the staged path).
//
// Register path: a team holds up to CAP = 32 * WARPS * ELEMS elements of a row in registers.
// Staged path (sm80 and up): a block's team loads up to CAP = SMEM_BYTES / sizeof(elem_t)
// elements into shared memory with cp.async, all in flight at once, and reads them from
// there; registers then no longer bound the bytes in flight. Either way memory is read once
// and written once. A longer row is cut into g chunks of at most CAP, one team each:
//   - g <= sms (fused): each chunk's team publishes its (max, sum of exp) to the workspace,
//     waits for the row's other chunks, combines and writes. Chunks are taken in ticket
//     order, so a waiting team only waits for tickets already taken by running blocks.
//   - g > sms (two passes): a first launch writes the chunks' partials, a second combines
//     them and reads each chunk again. Memory is read twice (the second time often from L2).
//
// Numerics: the row max is subtracted; -inf entries give 0 (log: -inf); a row of only -inf
// gives NaN (as PyTorch); a NaN anywhere in a row makes that whole row NaN.

constexpr int TEAM = 32 * WARPS;           // threads that share one row chunk
constexpr int THREADS = TEAM * ROWS;
constexpr int NV = ELEMS / VEC;            // vectors a thread holds (register path)
constexpr bool STAGED = SMEM_KB > 0;
constexpr int64_t SCAP = STAGED ? SMEM_BYTES / (int)sizeof(elem_t) : 0; // stage capacity
constexpr int REGV = STAGED ? SX_REGV : 0;
constexpr int64_t CAP = STAGED ? SCAP + (int64_t)TEAM * REGV * VEC : (int64_t)TEAM * ELEMS;
constexpr int KG = STAGED ? (int)(SCAP / (TEAM * VEC)) : 1; // SX_ONLINE 2: vectors a thread
static_assert(SX_ONLINE < 2 || (STAGED && SX_LOAD == 0 && REGV == 0 && KG >= 1 && KG <= 8),
              "SX_ONLINE 2, 3: cp.async stage, no register tail, 1 to 8 vectors a thread");
static_assert(SX_ONLINE != 3 || MODE == MODE_PLAIN, "SX_ONLINE 3: plain softmax");
// SX_ONLINE 3: the kept exps, fp32: over x in the stage (f32), or in a buffer after it
constexpr int EXP_BYTES = SX_ONLINE == 3 && sizeof(elem_t) == 2 ? (int)SCAP * 4 : 0;
constexpr int DYN_SMEM = SMEM_BYTES + EXP_BYTES; // the launch's dynamic shared memory

// cp.async.wait_group n, n a constant after unrolling (0..7)
static __device__ __forceinline__ void sx_wait_groups(int n)
{
    switch (n) {
    case 0: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
    case 1: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
    case 2: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
    case 3: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
    case 4: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
    case 5: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
    case 6: asm volatile("cp.async.wait_group 6;" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 7;" ::: "memory"); break;
    }
}
static_assert(VEC * sizeof(elem_t) == 16 || (SX_LOAD == 0 && SX_STORE == 0 && SX_REGV == 0),
              "the sweep's load, store and register-tail options take 16-byte vectors");
static_assert(SX_SPLIT != 1 || ROWS == 1, "cooperative split: one team per block");

enum { PHASE_FUSED = 0, PHASE_PARTIAL = 1, PHASE_FINISH = 2 };

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
// | per-chunk partials (max, sum) as float2], each part 16-byte aligned.
constexpr size_t COUNTS_OFFSET = 16;
static __host__ __device__ size_t partials_offset(int64_t rows, int fused)
{
    return fused ? (COUNTS_OFFSET + (size_t)rows * 4 + 15) / 16 * 16 : 0;
}

static int per_sm_of();

static plan make_plan(const tileops_softmax_args *a)
{
    plan p;
    p.g = (a->cols + CAP - 1) / CAP;
    int64_t limit = a->sms; // chunks of a row that may wait for each other
    if (SX_UNITS && p.g > 1) {
        const int64_t resident = (int64_t)a->sms * per_sm_of();
        if (resident / a->rows > p.g)
            p.g = resident / a->rows;
        limit = resident;
    }
    const int64_t per = (a->cols + p.g - 1) / p.g;
    p.len = (per + VEC - 1) / VEC * VEC;
    p.g = (a->cols + p.len - 1) / p.len;
    p.phase = p.g <= limit ? PHASE_FUSED : PHASE_PARTIAL;
    if (SX_SPLIT == 2 && p.g > 1)
        p.phase = PHASE_PARTIAL;
    p.ws = p.g == 1 ? 0
                    : partials_offset(a->rows, p.phase == PHASE_FUSED) +
                          (size_t)a->rows * (size_t)p.g * sizeof(float2);
    return p;
}

// ---- reductions and outputs: the shared softmax helpers of tileops_device.cuh -----------

static __device__ __forceinline__ void team_merge(float &m, float &s, float2 *red)
{
    softmax_team_merge(m, s, red, WARPS, false);
}

static __device__ __forceinline__ float output(float v, float m, float m2, float scale)
{
    return softmax_output(v, m, m2, scale, MODE == MODE_LOG);
}

static __device__ __forceinline__ unsigned load_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// ---- the kernel -------------------------------------------------------------------------

// At least 1024 threads per SM (at most 64 registers a thread) for the register path: enough
// loads in flight to cover memory latency while some teams sit at a barrier. The staged path
// keeps its bytes in flight in shared memory instead and needs few registers.
// Staged: as many blocks as shared memory allows, to 8 (64 registers) for 16 KB stages.
constexpr int MIN_BLOCKS = SX_MINB ? SX_MINB
                         : STAGED ? (SMEM_KB <= 16 ? 8 : SMEM_KB <= 32 ? 4 : 2)
                                  : THREADS >= 1024 ? 1 : 1024 / THREADS;

// One unit of work is one chunk of one row, done by one team. PHASE_FUSED with g == 1 walks
// the rows with a grid stride; with g > 1 it takes chunks by ticket (see the top).
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
kernel(tileops_softmax_args a, int64_t g, int64_t len, int phase)
{
    extern __shared__ __align__(16) unsigned char stage_raw[]; // STAGED: the chunk
    __shared__ float2 red_a[WARPS], red_b[WARPS];
    __shared__ unsigned long long ticket;
    __shared__ __align__(8) uint64_t bar; // SX_LOAD == 3: the stage's bulk copies
    __shared__ float sx_mk[SX_ONLINE == 3 ? KG * TEAM : 1]; // SX_ONLINE 3: each vector's max
    elem_t *stage = (elem_t *)stage_raw;
    float *exps = EXP_BYTES ? (float *)(stage_raw + SMEM_BYTES) : (float *)stage_raw;
    const int team = threadIdx.x / TEAM;
    const int t = threadIdx.x % TEAM;
    const int64_t units = a.rows * g;
    const bool fused_split = phase == PHASE_FUSED && g > 1;
    unsigned char *ws = (unsigned char *)a.workspace;
    unsigned long long *ws_ticket = (unsigned long long *)ws;
    unsigned *ws_count = (unsigned *)(ws + COUNTS_OFFSET);
    float2 *ws_part = (float2 *)(ws + partials_offset(a.rows, phase == PHASE_FUSED));
    // SX_SPLIT == 1: launched cooperatively, units assigned statically (grid stride).
    const bool coop = SX_SPLIT == 1 && fused_split;
    const bool coop_one = coop && units <= (int64_t)gridDim.x; // one unit a block: grid.sync
    if (coop && !coop_one) {
        for (int64_t r = (int64_t)blockIdx.x * THREADS + threadIdx.x; r < a.rows;
             r += (int64_t)gridDim.x * THREADS)
            ws_count[r] = 0;
        __threadfence();
        cooperative_groups::this_grid().sync();
    }
    unsigned parity = 0;
    if (SX_LOAD == 3 && STAGED) {
        if (threadIdx.x == 0)
            sx_mbar_init(&bar, 1);
        __syncthreads();
    }

    for (int64_t next = (int64_t)blockIdx.x * ROWS + team;; next += (int64_t)gridDim.x * ROWS) {
        int64_t u = next;
        if (STAGED || WARPS > 1)
            __syncthreads(); // everyone is done with the previous chunk in `stage` and red_a
        if (fused_split && !coop) { // ROWS == 1 here: one team per block
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
        // Staged path: cp.async straight into shared memory, all of it in flight at once.
        const int nv = n - n % VEC;
        // the staged part (the rest, SX_REGV > 0 only, in q); without a tail nv <= SCAP
        const int ns = REGV > 0 && nv > SCAP ? (int)SCAP : nv;
        float r[STAGED ? 1 : NV][VEC];
        uint4 q[REGV > 0 ? REGV : 1]; // SX_REGV: the chunk past the stage, raw
        if (STAGED) {
            if (SX_LOAD == 3) {
                constexpr int PIECE = 16384 / (int)sizeof(elem_t); // elements a bulk copy
                if (ns > 0 && threadIdx.x < 32) {
                    if (threadIdx.x == 0) {
                        sx_fence_proxy_async();
                        sx_mbar_expect(&bar, (unsigned)ns * (unsigned)sizeof(elem_t));
                    }
                    __syncwarp();
                    for (int i = threadIdx.x * PIECE; i < ns; i += 32 * PIECE)
                        sx_bulk_load(stage + i, x + i,
                                     (unsigned)(ns - i < PIECE ? ns - i : PIECE) * sizeof(elem_t),
                                     &bar);
                }
            } else if (SX_ONLINE >= 2) {
#pragma unroll
                for (int k = 0; k < KG; k++) {
                    const int i = t * VEC + k * TEAM * VEC;
                    if (i < ns)
                        cp_async_16(smem_addr(stage + i), x + i, 16);
                    cp_async_commit(); // always: group k is vector k, landed or empty
                }
            } else if (SX_LOAD == 0) {
                stage_chunk(stage, x, ns, t * VEC, TEAM * VEC);
                cp_async_commit();
            } else {
                for (int i = t * VEC; i < ns; i += TEAM * VEC)
                    sx_cp_async_16<SX_LOAD>(smem_addr(stage + i), x + i);
                cp_async_commit();
            }
#pragma unroll
            for (int k = 0; k < REGV; k++) {
                const int i = (int)SCAP + (k * TEAM + t) * VEC;
                if (i < nv)
                    q[k] = sx_ld_16<SX_LOAD>(x + i);
            }
        } else if (SX_LOAD) {
            // every load first, raw, then the conversions (the library's PREFETCH path)
            vec_t in[NV];
#pragma unroll
            for (int k = 0; k < NV; k++) {
                const int i = (k * TEAM + t) * VEC;
                if (i < nv)
                    *(uint4 *)&in[k] = sx_ld_16<SX_LOAD>(x + i);
                else
                    in[k] = vec_t();
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
                    vec_t in;
                    in = *(const vec_t *)(x + i);
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
        if (STAGED) {
            if (SX_LOAD == 3) {
                if (ns > 0) {
                    sx_mbar_wait(&bar, parity);
                    parity ^= 1;
                }
            } else if (SX_ONLINE < 2 || phase == PHASE_FINISH) { // 2, 3: each thread waits
                                                                   // for its own groups below
                cp_async_wait<0>();
                __syncthreads();
            }
        }

        // This thread's (max, sum of exp), then the team's. With m finite, -inf entries
        // (padding too) add exp(-inf) = 0; with m NaN the sum is NaN, as the row must be.
        float m = -INFINITY, s = 0.0f;
        if (phase != PHASE_FINISH) {
            // the register tail's max (with `extra`): -inf without one
            float mt = extra;
#pragma unroll
            for (int k = 0; k < REGV; k++)
                if ((int)SCAP + (k * TEAM + t) * VEC < nv)
                    mt = max_nan(mt, max_nan_of(((const vec_t *)&q[k])->v, VEC));
            if (STAGED && SX_ONLINE >= 2) {
                // a thread reads back only what it copied: its own groups' completion is enough
#pragma unroll
                for (int k = 0; k < KG; k++) {
                    sx_wait_groups(KG - 1 - k);
                    const int i = t * VEC + k * TEAM * VEC;
                    if (i < ns) {
                        const vec_t in = *(const vec_t *)(stage + i);
                        const float nm = max_nan(m, max_nan_of(in.v, VEC));
                        if (nm != m) {
                            s = m == -INFINITY ? 0.0f : s * fast_exp2((m - nm) * TILEOPS_LOG2E);
                            m = nm;
                        }
                        if (SX_ONLINE == 3) { // keep exp(x - m), and m
                            float e[VEC];
#pragma unroll
                            for (int j = 0; j < VEC; j++) {
                                const float xv = to_f32(in.v[j]);
                                e[j] = xv == -INFINITY ? 0.0f : exp_from(xv, m);
                                s += e[j];
                            }
#pragma unroll
                            for (int j = 0; j < VEC; j += 4)
                                *(float4 *)(exps + i + j) = make_float4(e[j], e[j + 1], e[j + 2], e[j + 3]);
                            sx_mk[k * TEAM + t] = m;
                        } else {
#pragma unroll
                            for (int j = 0; j < VEC; j++)
                                s += exp_from(to_f32(in.v[j]), m);
                        }
                    }
                }
            } else if (STAGED && SX_ONLINE) {
                sx_staged_online<vec_t>(stage, ns, t * VEC, TEAM * VEC, m, s);
            }
            if (STAGED && SX_ONLINE) {
                if (m == -INFINITY)
                    s = 0.0f;
                float st = 0.0f;
#pragma unroll
                for (int k = 0; k < REGV; k++)
                    if ((int)SCAP + (k * TEAM + t) * VEC < nv)
#pragma unroll
                        for (int j = 0; j < VEC; j++)
                            st += exp_from(to_f32(((const vec_t *)&q[k])->v[j]), mt);
                st += has_extra ? exp_from(extra, mt) : 0.0f;
                if (mt == -INFINITY)
                    st = 0.0f;
                softmax_merge(m, s, mt, st);
            } else {
            if (STAGED) {
                m = staged_max<vec_t>(stage, ns, t * VEC, TEAM * VEC);
            } else {
#pragma unroll
                for (int k = 0; k < NV; k++)
                    m = max_nan(m, max_nan_of(r[k], VEC));
            }
            m = max_nan(m, mt);
            if (STAGED) {
                s = staged_sum<vec_t>(stage, ns, t * VEC, TEAM * VEC, m, m * TILEOPS_LOG2E, false);
            } else {
#pragma unroll
                for (int k = 0; k < NV; k++)
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        s += exp_from(r[k][j], m);
            }
#pragma unroll
            for (int k = 0; k < REGV; k++)
                if ((int)SCAP + (k * TEAM + t) * VEC < nv)
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        s += exp_from(to_f32(((const vec_t *)&q[k])->v[j]), m);
            s += has_extra ? exp_from(extra, m) : 0.0f;
            }
            if (m == -INFINITY)
                s = 0.0f; // no finite element here (exp(-inf - -inf) summed NaN)
            team_merge(m, s, red_a);
            if (m == -INFINITY) // only -inf: a row of it is NaN, a chunk of it adds nothing
                s = g == 1 ? NAN : 0.0f;
        }

        if (g > 1) {
            if (coop_one) {
                if (t == 0) {
                    ws_part[u] = make_float2(m, s);
                    __threadfence();
                }
                cooperative_groups::this_grid().sync();
            } else {
            if (phase != PHASE_FINISH && t == 0) {
                ws_part[u] = make_float2(m, s); // (-inf, 0) for a chunk of only -inf
                if (phase == PHASE_FUSED) {
                    __threadfence();
                    atomicAdd(&ws_count[row], 1u);
                    while (load_acquire(&ws_count[row]) < (unsigned)g)
                        __nanosleep(64);
                }
            }
            if (phase == PHASE_PARTIAL)
                continue;
            if (phase == PHASE_FUSED)
                __syncthreads(); // the team's thread 0 saw every chunk arrive
            }
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
        const float scale = MODE == MODE_LOG ? logf(s) : 1.0f / s;
        const float m2 = m * TILEOPS_LOG2E;
        if (STAGED && SX_ONLINE == 3 && phase != PHASE_FINISH) {
            // y = exp(x - m_k) * exp(m_k - m) / s: one exp a vector
#pragma unroll
            for (int k = 0; k < KG; k++) {
                const int i = t * VEC + k * TEAM * VEC;
                if (i < ns) {
                    const float c = exp_from(sx_mk[k * TEAM + t], m) * scale;
                    vec_t o;
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        from_f32(exps[i + j] * c, &o.v[j]);
                    store_stream((vec_t *)(y + i), o);
                }
            }
        } else if (STAGED) {
            if (SX_STORE == 0)
                staged_write<vec_t>(stage, y, ns, t * VEC, TEAM * VEC, m, m2, scale,
                                    MODE == MODE_LOG);
            else
                sx_staged_write<SX_STORE, vec_t>(stage, y, ns, t * VEC, TEAM * VEC, m, m2, scale,
                                                 MODE == MODE_LOG);
#pragma unroll
            for (int k = 0; k < REGV; k++) {
                const int i = (int)SCAP + (k * TEAM + t) * VEC;
                if (i < nv) {
                    vec_t o;
#pragma unroll
                    for (int j = 0; j < VEC; j++)
                        from_f32(output(to_f32(((const vec_t *)&q[k])->v[j]), m, m2, scale),
                                 &o.v[j]);
                    sx_st_16<SX_STORE>(y + i, *(const uint4 *)&o);
                }
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
                    if (SX_STORE)
                        sx_st_16<SX_STORE>(y + i, *(const uint4 *)&o);
                    else
                        store_stream((vec_t *)(y + i), o);
                }
            }
        }
        if (has_extra)
            from_f32(output(extra, m, m2, scale), &y[nv + t]);
    }
}

// ---- host side --------------------------------------------------------------------------

// Rows that fit in one team cost their capacity (the tightest instance wins). Split rows
// prefer one pass over two; then enough chunks to keep every SM busy; then staged chunks,
// the largest first (fewest waits), over chunks in registers, the smallest teams first.
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const plan pl = make_plan(a);
    // element-wise loads only where no vector instance is aligned for the call
    const int64_t scalar = VEC == 1 ? (int64_t)1 << 44 : 0;
    *workspace = pl.ws;
    if (pl.g == 1)
        return scalar + CAP;
    if (WARPS == 1)
        return -1; // a single warp per row only serves rows that fit
    // fewer than 4 chunks per SM in all leaves SMs idle or compute-bound: smaller chunks
    const int64_t units = a->rows * pl.g, want = 4 * (int64_t)a->sms;
    return scalar + ((int64_t)1 << (pl.phase == PHASE_FUSED ? 40 : 41)) +
           (units < want ? (want - units) * 256 : 0) + (STAGED ? 64 - SMEM_KB : 64 + WARPS);
}

// Blocks of this kernel that fit on one SM (after the shared-memory opt-in); cached.
static int per_sm_of()
{
    static int per_sm;
    static unsigned long long smem_done;
    if (!per_sm) {
        if (DYN_SMEM > 40 * 1024 && smem_optin((const void *)kernel, DYN_SMEM, &smem_done))
            return 1;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, DYN_SMEM) !=
                cudaSuccess || per_sm < 1)
            per_sm = 1;
    }
    return per_sm;
}

// Launches on the caller's stream; returns the first cudaError_t.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const plan pl = make_plan(a);
    const int64_t units = a->rows * pl.g;
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    if (DYN_SMEM > 40 * 1024) { // with the static part: 48 KB stages need it too (b03)
        const int e = smem_optin((const void *)kernel, DYN_SMEM, &smem_done);
        if (e)
            return e;
    }
    if (pl.g == 1) {
        kernel<<<grid_for((a->rows + ROWS - 1) / ROWS), THREADS, DYN_SMEM, stream>>>(
            *a, 1, pl.len, PHASE_FUSED);
        return (int)cudaGetLastError();
    }
    if (pl.phase == PHASE_FUSED) {
        // Persistent blocks take tickets: as many as fit on the device at once.
        static int per_sm; // per device model; a stale value costs speed, never correctness
        if (!per_sm && cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS,
                                                                     DYN_SMEM) != cudaSuccess)
            return (int)cudaGetLastError();
        const int64_t resident = (int64_t)a->sms * (per_sm > 0 ? per_sm : 1);
        if (SX_SPLIT == 1) {
            const int64_t grid = units <= resident ? units : resident / pl.g * pl.g;
            tileops_softmax_args ca = *a;
            int64_t cg = pl.g, cl = pl.len;
            int cp = PHASE_FUSED;
            void *kargs[] = {&ca, &cg, &cl, &cp};
            return (int)cudaLaunchCooperativeKernel((const void *)kernel, dim3(grid_for(grid)),
                                                    dim3(THREADS), kargs, DYN_SMEM, stream);
        }
        cudaError_t e = cudaMemsetAsync(a->workspace, 0, partials_offset(a->rows, 1), stream);
        if (e != cudaSuccess)
            return (int)e;
        kernel<<<grid_for(units < resident ? units : resident), THREADS, DYN_SMEM, stream>>>(
            *a, pl.g, pl.len, PHASE_FUSED);
        return (int)cudaGetLastError();
    }
    kernel<<<grid_for(units), THREADS, DYN_SMEM, stream>>>(*a, pl.g, pl.len, PHASE_PARTIAL);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return (int)e;
    kernel<<<grid_for(units), THREADS, DYN_SMEM, stream>>>(*a, pl.g, pl.len, PHASE_FINISH);
    return (int)cudaGetLastError();
}
