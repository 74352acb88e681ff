// Template softmax_staged: y[r,:] = softmax(x[r,:]) (MODE_PLAIN) or log_softmax(x[r,:])
// (MODE_LOG) for rows longer than registers hold, staged through shared memory (sm80 and up);
// fp32 arithmetic, rounded to elem_t.
//
// Reads from the generator: elem_t, MODE, WARPS (the block is one team), VEC (16-byte vectors),
// SMEM_KB and SMEM_BYTES (the stage), REGV (vectors a thread also holds in registers, past the
// stage). A block holds a row of up to CAP = SCAP + TEAM * REGV * VEC elements
// (softmax_chunk_stage.cuh); memory is read once and written once. Longer rows:
// softmax_split.cu.

constexpr int TEAM = 32 * WARPS;
constexpr int THREADS = TEAM;
constexpr int TAIL = REGV;
constexpr int64_t SCAP = SMEM_BYTES / (int)sizeof(elem_t);
constexpr int64_t CAP = SCAP + (int64_t)TEAM * TAIL * VEC;
constexpr int KG = (int)(SCAP / (TEAM * VEC));
constexpr bool NARROW = sizeof(elem_t) == 2;
constexpr int PREFETCH = 0;

#include "softmax_row.cuh"
#include "softmax_chunk_stage.cuh"

constexpr int MIN_BLOCKS = STAGE_BLOCKS;

// A row a block (a grid stride past gridDim's limit).
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) kernel(tileops_softmax_args a)
{
    extern __shared__ __align__(16) unsigned char stage_raw[];
    __shared__ float2 red[WARPS];
    elem_t *stage = (elem_t *)stage_raw;
    const int t = threadIdx.x;
    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        __syncthreads(); // everyone is done with the previous row's stage and red
        const chunk k = make_chunk(a, row, 0, CAP, t);
        vec_t q[TAIL > 0 ? TAIL : 1];
        stage_load(stage, q, k, t);
        const float extra = load_extra(k);
        float m, s, m2, scale;
        stage_reduce(stage, q, k, t, extra, red, m, s);
        if (m == -INFINITY)
            s = NAN; // the row is only -inf
        output_params(m, s, m2, scale);
        stage_write(stage, q, k, t, m, m2, scale);
        write_extra(k, extra, m, m2, scale);
    }
}

// ---- host side --------------------------------------------------------------------------

// A row that fits costs its capacity, as softmax_rows' instances (between prefetching and
// plain registers at equal capacity).
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    *workspace = 0;
    return a->cols > CAP ? -1 : 4 * CAP + 1;
}

// Launches on the caller's stream; returns the first cudaError_t.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    // past 48 KB with the static part: a 48 KB stage needs it too
    if (SMEM_BYTES > 40 * 1024) {
        const int e = smem_optin((const void *)kernel, SMEM_BYTES, &smem_done);
        if (e)
            return e;
    }
    kernel<<<grid_for(a->rows), THREADS, SMEM_BYTES, stream>>>(*a);
    return (int)cudaGetLastError();
}
