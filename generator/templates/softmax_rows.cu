// Template softmax_rows: y[r,:] = softmax(x[r,:]) (MODE_PLAIN) or log_softmax(x[r,:])
// (MODE_LOG) for rows that fit a team's registers, fp32 arithmetic, rounded to elem_t.
//
// Reads from the generator: elem_t, MODE, WARPS (warps that share one row: a team), ROWS
// (teams per block; several only for one-warp teams), ELEMS (elements a thread holds), VEC
// (elements per vector load) and PREFETCH (1: 16-byte loads ld.global.nc.L1::no_allocate.
// L2::256B, sm80 and up). A team holds up to CAP = 32 * WARPS * ELEMS elements: one row, read
// once into registers and written once; the row's max over the team first, then each exp
// once against it, then the team's sum.
//
// RAW, the 2-byte prefetching instances (one team a block): the vectors stay as loaded, 16
// registers, converted where used, with no -inf padding; the others convert as they load
// (softmax_chunk_regs.cuh).

constexpr int TEAM = 32 * WARPS;
constexpr int THREADS = TEAM * ROWS;
constexpr int NV = ELEMS / VEC;
constexpr int64_t CAP = (int64_t)TEAM * ELEMS;
constexpr bool RAW = PREFETCH != 0 && sizeof(elem_t) == 2;
// 2-byte exp terms in one FFMA and one MUFU, but not for the prefetching instances: f16
// 32768 x 4096 lost 145.5 -> 146.7 us with them
constexpr bool NARROW = sizeof(elem_t) == 2 && PREFETCH == 0;
static_assert(PREFETCH == 0 || VEC * sizeof(elem_t) == 16, "prefetching loads take 16-byte vectors");
static_assert(WARPS == 1 || ROWS == 1, "teams of several warps have a block each");

#include "softmax_row.cuh"
#include "softmax_chunk_regs.cuh"

// At least 1024 threads a SM (at most 64 registers a thread): enough loads in flight to cover
// memory latency while some teams wait on a reduction.
constexpr int MIN_BLOCKS = THREADS >= 1024 ? 1 : 1024 / THREADS;

// A row a team (a grid stride past gridDim's limit). red_m and red_s need no barrier between
// rows (each is written again only after the barrier that follows the other's reads), but
// teams of several warps meet at one anyway: in step, f32 32768 x 4096 ran 283.7 us against
// 286.2 without it (H200).
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) kernel(tileops_softmax_args a)
{
    __shared__ float red_m[WARPS], red_s[WARPS];
    const int team = threadIdx.x / TEAM;
    const int t = threadIdx.x % TEAM;
    for (int64_t row = (int64_t)blockIdx.x * ROWS + team; row < a.rows;
         row += (int64_t)gridDim.x * ROWS) {
        if (WARPS > 1)
            __syncthreads();
        const chunk k = make_chunk(a, row, 0, CAP, t);
        float m, s, m2, scale;
        if constexpr (RAW) {
            uint4 cur[NV];
#pragma unroll
            for (int j = 0; j < NV; j++)
                if ((j * TEAM + t) * VEC < k.nv)
                    cur[j] = load_prefetch16(k.x + (j * TEAM + t) * VEC);
            const float extra = load_extra(k);
            m = extra;
#pragma unroll
            for (int j = 0; j < NV; j++)
                if ((j * TEAM + t) * VEC < k.nv)
                    m = max_nan(m, max_nan_of(((const vec_t *)&cur[j])->v, VEC));
            m = softmax_team_reduce(m, red_m, WARPS, true);
            m2 = m * TILEOPS_LOG2E;
            s = k.has_extra ? sum_term(extra, m, m2) : 0.0f;
#pragma unroll
            for (int j = 0; j < NV; j++)
                if ((j * TEAM + t) * VEC < k.nv) {
                    const vec_t in = *(const vec_t *)&cur[j];
#pragma unroll
                    for (int e = 0; e < VEC; e++)
                        s += sum_term(to_f32(in.v[e]), m, m2);
                }
            s = softmax_team_reduce(s, red_s, WARPS, false);
            if (m == -INFINITY)
                s = NAN; // the row is only -inf
            output_params(m, s, m2, scale);
#pragma unroll
            for (int j = 0; j < NV; j++) {
                const int i = (j * TEAM + t) * VEC;
                if (i < k.nv)
                    softmax_write_vec(k.y, i, *(const vec_t *)&cur[j], m, m2, scale,
                                      MODE == MODE_LOG);
            }
            write_extra(k, extra, m, m2, scale);
        } else {
            float r[NV][VEC];
            regs_load(r, k, t);
            const float extra = load_extra(k);
            regs_reduce(r, extra, k.has_extra, red_m, red_s, m, s);
            if (m == -INFINITY)
                s = NAN; // the row is only -inf
            output_params(m, s, m2, scale);
            regs_write(r, k, t, m, m2, scale);
            write_extra(k, extra, m, m2, scale);
        }
    }
}

// ---- host side --------------------------------------------------------------------------

// Rows that fit cost their capacity (the tightest instance wins; at equal capacity
// prefetching registers, then a stage (softmax_staged), then plain registers); element-wise
// loads only where no vector instance is aligned for the call.
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    *workspace = 0;
    if (a->cols > CAP)
        return -1;
    const int64_t scalar = VEC == 1 ? (int64_t)1 << 44 : 0;
    return scalar + 4 * CAP + (PREFETCH ? 0 : 2);
}

// Dynamic shared memory (unused) that holds RAW instances to MIN_BLOCKS blocks a SM, as many
// threads as the others (at their natural 10 blocks of 128 they ran f16 32768 x 4096 no faster;
// capped at 8, 3% faster): a share of the SM's shared memory between 1 / (MIN_BLOCKS + 1)
// and 1 / MIN_BLOCKS of it, less the per-block reserve and the static part. Per process, for
// the device current at the first call (a stale value costs speed, never correctness: it
// stays within 48 KB); -1 on error.
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
    const int stat = 2 * WARPS * (int)sizeof(float); // red_m, red_s
    const int share = per_sm / MIN_BLOCKS - reserved - stat - 1024;
    // static + dynamic within the 48 KB a launch takes without opting in (at 48 KB of pad the
    // launch failed: invalid argument, as tileops-tune found for 8 to 32 warps)
    const int cap = 48 * 1024 - stat;
    const int p = share < 0 ? 0 : (share > cap ? cap : share) / 128 * 128;
    pad = p;
    return p;
}

// Launches on the caller's stream; returns the first cudaError_t.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const int pad = RAW ? rows_smem_pad() : 0;
    if (pad < 0)
        return (int)cudaGetLastError();
    kernel<<<grid_for((a->rows + ROWS - 1) / ROWS), THREADS, pad, stream>>>(*a);
    return (int)cudaGetLastError();
}
