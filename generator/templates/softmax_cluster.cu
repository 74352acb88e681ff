// Template softmax_cluster (sm90): rows too long for one block's shared memory, split across
// the blocks of a thread-block cluster. Each block stages its chunk of the row in shared
// memory by cp.async (all of it in flight at once), reduces it to (max, sum of exp), and the
// cluster exchanges those pairs through distributed shared memory; then each block writes its
// chunk. Memory is read once and written once, with no workspace, no tickets and no waiting
// on global counters: the hardware schedules a cluster's blocks together.
//
// Reads from the generator: elem_t, MODE, WARPS (the block's warps), VEC (elements per 16-byte
// vector; x, y and both row strides must be 16-byte aligned, which dispatch checks), SMEM_KB
// and SMEM_BYTES (one block's chunk).
//
// NOT YET VERIFIED ON A GPU: fit() declines every call unless TILEOPS_UNVERIFIED=1, so the
// split path of the softmax template serves these rows until this one has been tested.

constexpr int THREADS = 32 * WARPS;
constexpr int64_t CAP = SMEM_BYTES / (int)sizeof(elem_t); // elements of a row per block
constexpr int MAX_CLUSTER = 8;                            // the portable cluster size

static_assert(VEC * sizeof(elem_t) == 16, "16-byte vectors (cp.async moves 16 bytes)");

// VEC elements moved by one load or store.
struct __align__(16) vec_t {
    elem_t v[VEC];
};

// How a row is cut: g chunks (the cluster size) of len elements, a multiple of VEC; the last
// may be shorter, never empty. The same on the host for fit() and launch().
struct plan {
    int64_t g;
    int64_t len;
};

static plan make_plan(const tileops_softmax_args *a)
{
    plan p;
    p.g = (a->cols + CAP - 1) / CAP;
    const int64_t per = (a->cols + p.g - 1) / p.g;
    p.len = (per + VEC - 1) / VEC * VEC;
    p.g = (a->cols + p.len - 1) / p.len;
    return p;
}

// ---- cluster primitives (sm90) ----------------------------------------------------------

static __device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r = 0;
#if __CUDA_ARCH__ >= 900
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#endif
    return r;
}

// Every thread of every block of the cluster arrives, then waits for all: what each wrote to
// its shared memory before is visible to the others after (release / acquire).
static __device__ __forceinline__ void cluster_sync()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#else
    __trap();
#endif
}

// The float2 at `local` in the shared memory of the cluster's block `rank`.
static __device__ __forceinline__ float2 load_remote(const float2 *local, unsigned rank)
{
    float2 v = make_float2(0.0f, 0.0f);
#if __CUDA_ARCH__ >= 900
    const unsigned addr = (unsigned)__cvta_generic_to_shared(local);
    unsigned remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(addr), "r"(rank));
    asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];"
                 : "=f"(v.x), "=f"(v.y) : "r"(remote) : "memory");
#else
    (void)local, (void)rank;
    __trap();
#endif
    return v;
}

// ---- the kernel -------------------------------------------------------------------------

// Block b of the grid is chunk b % g of row b / g; the cluster (g blocks) is the row.
static __global__ void __launch_bounds__(THREADS, 1)
kernel(tileops_softmax_args a, int g, int64_t len)
{
    extern __shared__ __align__(16) unsigned char stage_raw[];
    __shared__ float2 red[WARPS];
    __shared__ float2 chunk_stat; // this chunk's (max, sum): read by the whole cluster
    __shared__ float2 row_stat;   // the row's, from warp 0 to the block
    elem_t *stage = (elem_t *)stage_raw;
    const int t = threadIdx.x;
    const unsigned c = cluster_rank();
    const int64_t row = blockIdx.x / g;
    const int n = (int)((int)c == g - 1 ? a.cols - (int64_t)c * len : len);
    const elem_t *x = (const elem_t *)a.x + row * a.ldx + (int64_t)c * len;
    elem_t *y = (elem_t *)a.y + row * a.ldy + (int64_t)c * len;

    // Load: whole vectors by cp.async; the last n % VEC elements one each in `extra`.
    const int nv = n - n % VEC;
    stage_chunk(stage, x, nv, t * VEC, THREADS * VEC);
    cp_async_commit();
    const bool has_extra = t < n - nv;
    const float extra = has_extra ? to_f32(x[nv + t]) : -INFINITY;
    cp_async_wait<0>();
    __syncthreads();

    // This chunk's (max, sum of exp), as the softmax template computes a chunk's.
    float m = max_nan(staged_max<vec_t>(stage, nv, t * VEC, THREADS * VEC), extra);
    float s = staged_sum<vec_t>(stage, nv, t * VEC, THREADS * VEC, m);
    s += has_extra ? exp_from(extra, m) : 0.0f;
    if (m == -INFINITY)
        s = 0.0f; // no finite element here
    softmax_team_merge(m, s, red, WARPS);
    if (t == 0)
        chunk_stat = make_float2(m, s);

    // The row's: warp 0 reads every chunk's pair from its block and merges them.
    cluster_sync();
    if (t < 32) {
        float pm = -INFINITY, ps = 0.0f;
        if (t < g) {
            const float2 q = load_remote(&chunk_stat, (unsigned)t);
            pm = q.x;
            ps = q.y;
        }
        softmax_team_merge(pm, ps, red, 1); // one warp: shuffles only
        if (t == 0)
            row_stat = make_float2(pm, pm == -INFINITY ? NAN : ps); // only -inf: NaN
    }
    // No block may leave (its shared memory with it) while another still reads its pair;
    // the barrier also hands row_stat to every thread of the block.
    cluster_sync();
    m = row_stat.x;
    s = row_stat.y;

    // Write.
    const bool log_mode = MODE == MODE_LOG;
    const float scale = log_mode ? logf(s) : 1.0f / s;
    const float m2 = m * TILEOPS_LOG2E;
    staged_write<vec_t>(stage, y, nv, t * VEC, THREADS * VEC, m, m2, scale, log_mode);
    if (has_extra)
        from_f32(softmax_output(extra, m, m2, scale, log_mode), &y[nv + t]);
}

// ---- host side --------------------------------------------------------------------------

// Rows of 2 to MAX_CLUSTER chunks, when allowed: cheaper than the ticketed split of the
// softmax template (whose costs start at 2^40), dearer than any row one block holds.
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    *workspace = 0;
    const plan pl = make_plan(a);
    if (pl.g < 2 || pl.g > MAX_CLUSTER || a->rows > 0x7fffffff / pl.g ||
        !tileops__unverified_allowed())
        return -1;
    return ((int64_t)1 << 40) - 64 + SMEM_KB / 16; // larger chunks first
}

// Launches one cluster of g blocks per row on the caller's stream.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    const plan pl = make_plan(a);
    static bool smem_set; // once per process: the attribute belongs to the kernel
    if (!smem_set) {
        cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             SMEM_BYTES);
        if (e != cudaSuccess)
            return (int)e;
        smem_set = true;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)(a->rows * pl.g), 1, 1);
    cfg.blockDim = dim3(THREADS, 1, 1);
    cfg.dynamicSmemBytes = SMEM_BYTES;
    cfg.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)pl.g;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return (int)cudaLaunchKernelEx(&cfg, kernel, *a, (int)pl.g, pl.len);
}
