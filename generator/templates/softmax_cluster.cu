// Template softmax_cluster: y[r,:] = softmax(x[r,:]) (MODE_PLAIN) or log_softmax(x[r,:])
// (MODE_LOG) for rows longer than one block holds, staged across a thread-block cluster (sm90);
// fp32 arithmetic, rounded to elem_t.
//
// Reads from the generator: elem_t, MODE, WARPS (a block is one team), VEC (16-byte vectors),
// SMEM_KB and SMEM_BYTES (a block's stage), REGV (vectors a thread also holds in registers) and
// CLUSTER (blocks a row). A row is cut into CLUSTER balanced chunks of at most CAP elements;
// block r of a cluster stages chunk r as softmax_staged does (softmax_chunk_stage.cuh), pushes
// its (max, sum) into every block of the cluster through distributed shared memory, and after
// one cluster barrier each block merges the row's partials and writes its chunk. Memory is read
// once and written once, with no workspace, atomics or waiting on other blocks through global
// memory (softmax_split's tickets): the hardware schedules a cluster's blocks together.

constexpr int TEAM = 32 * WARPS;
constexpr int THREADS = TEAM;
constexpr int TAIL = REGV;
constexpr int64_t SCAP = SMEM_BYTES / (int)sizeof(elem_t);
constexpr int64_t CAP = SCAP + (int64_t)TEAM * TAIL * VEC;
constexpr int KG = (int)(SCAP / (TEAM * VEC));
constexpr bool NARROW = sizeof(elem_t) == 2;
constexpr int PREFETCH = 0;
static_assert(CLUSTER >= 2 && CLUSTER <= 8, "a portable cluster of 2 to 8 blocks");
static_assert(CLUSTER <= THREADS, "one thread pushes the partial to each block");

#include "softmax_row.cuh"
#include "softmax_chunk_stage.cuh"

constexpr int MIN_BLOCKS = STAGE_BLOCKS;

// Elements a chunk: the row in CLUSTER equal chunks of whole vectors (chunk 0 also takes the
// row's head, the elements before its first whole vector, as single loads).
static __host__ __device__ int64_t chunk_len(int64_t cols)
{
    return ((cols + CLUSTER - 1) / CLUSTER + VEC - 1) / VEC * VEC;
}

// Cluster c takes rows c, c + clusters, ...; block r of it chunk r of each.
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
kernel(tileops_softmax_args a, int64_t len)
{
    extern __shared__ __align__(16) unsigned char stage_raw[];
    __shared__ float2 red[WARPS];
    // the row's partials, one a block, pushed by the cluster's blocks; two sets, row by row in
    // turn: a block a row ahead writes the other set (two rows ahead it would have passed a
    // cluster barrier that this block reaches only after reading)
    __shared__ float2 part[2][CLUSTER];
    elem_t *stage = (elem_t *)stage_raw;
    const int t = threadIdx.x;
    const unsigned rank = cluster_ctarank();
    const int64_t clusters = gridDim.x / CLUSTER;
    const int64_t first = blockIdx.x / CLUSTER; // this cluster's first row
    int set = 0;
    cluster_arrive_relaxed(); // waited for before the first push: every block then runs
    for (int64_t row = first; row < a.rows; row += clusters, set ^= 1) {
        __syncthreads(); // everyone is done with the previous row's stage and red
        const chunk k = make_chunk(a, row, rank, len, t);
        vec_t q[TAIL > 0 ? TAIL : 1];
        stage_load(stage, q, k, t);
        const float extra = load_extra(k);
        float m, s, m2, scale;
        stage_reduce(stage, q, k, t, extra, red, m, s); // s is 0 where m is -inf
        if (row == first) // under the first row's loads
            cluster_wait();
        if (t < CLUSTER)
            st_shared_cluster_f32x2(smem_addr(&part[set][rank]), (unsigned)t, m, s);
        cluster_sync();
        // every block merges the partials in the same order: the same (max, sum) everywhere
        m = -INFINITY;
        s = 0.0f;
#pragma unroll
        for (int r = 0; r < CLUSTER; r++)
            softmax_merge(m, s, part[set][r].x, part[set][r].y);
        if (m == -INFINITY)
            s = NAN; // the row is only -inf
        output_params(m, s, m2, scale);
        stage_write(stage, q, k, t, m, m2, scale);
        write_extra(k, extra, m, m2, scale);
    }
    // (no block leaves while another may push into it: every push precedes a cluster barrier
    // that the receiving block also waits at; a block with no row waits for the others' entry)
    if (first >= a.rows)
        cluster_wait();
}

// ---- host side --------------------------------------------------------------------------

// Rows that no single block holds (the cost past every softmax_staged and softmax_rows
// instance's), the smallest cluster capacity first, and only with a cluster an SM at least:
// fewer rows leave SMs idle that softmax_split's cooperative chunks would fill.
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    *workspace = 0;
    if (chunk_len(a->cols) > CAP || a->rows < a->sms)
        return -1;
    return ((int64_t)1 << 39) + 4 * CLUSTER * CAP;
}

// Launches on the caller's stream; returns the first cudaError_t.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    static unsigned long long smem_done; // devices whose shared-memory limit is raised
    if (SMEM_BYTES > 40 * 1024) {
        const int e = smem_optin((const void *)kernel, SMEM_BYTES, &smem_done);
        if (e)
            return e;
    }
    const int64_t max_clusters = 0x7fffffff / CLUSTER; // gridDim.x's limit; the rest by stride
    const int64_t clusters = a->rows < max_clusters ? a->rows : max_clusters;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    cluster_launch_config(&cfg, &attr, (unsigned)clusters, CLUSTER, THREADS, SMEM_BYTES, stream);
    const int64_t len = chunk_len(a->cols);
    return (int)cudaLaunchKernelEx(&cfg, kernel, *a, len);
}
