// Template softmax_pipelined (sm80 and up): rows that fit one shared-memory buffer, each block
// walking many rows with two buffers: while it reduces and writes one row, the next row is
// already on its way into the other buffer by cp.async. The staged path of the softmax
// template loads, then computes, then writes, so a block's loads stop while it computes; here
// they do not.
//
// Reads from the generator: elem_t, MODE, WARPS (the block's warps), VEC (elements per 16-byte
// vector; x, y and both row strides must be 16-byte aligned, which dispatch checks), SMEM_KB
// and SMEM_BYTES (both buffers: a row holds at most SMEM_BYTES / 2 bytes).
//
// NOT YET VERIFIED ON A GPU: fit() declines every call unless TILEOPS_UNVERIFIED=1, so the
// softmax template serves these rows until this one has been tested.

constexpr int THREADS = 32 * WARPS;
constexpr int64_t CAP = SMEM_BYTES / 2 / (int)sizeof(elem_t); // elements of a row

static_assert(VEC * sizeof(elem_t) == 16, "16-byte vectors (cp.async moves 16 bytes)");
static_assert(SMEM_BYTES == SMEM_KB * 1024, "the spec's smem is both buffers");

// VEC elements moved by one load or store.
struct __align__(16) vec_t {
    elem_t v[VEC];
};

// Issues this thread's cp.async of row `row` into `buf` (whole vectors; the tail is read at
// compute time) and commits them as one group; an empty group past the last row keeps the
// group count the waits rely on.
static __device__ __forceinline__ void fetch_row(const tileops_softmax_args &a, int64_t row,
                                                 elem_t *buf)
{
    if (row < a.rows) {
        const elem_t *x = (const elem_t *)a.x + row * a.ldx;
        const int nv = (int)(a.cols - a.cols % VEC);
        stage_chunk(buf, x, nv, threadIdx.x * VEC, THREADS * VEC);
    }
    cp_async_commit();
}

// Block b takes rows b, b + grid, b + 2 grid, ...; row i of the block is in buffer i % 2.
static __global__ void __launch_bounds__(THREADS, 1)
kernel(tileops_softmax_args a)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __shared__ float2 red[WARPS];
    elem_t *bufs[2] = {(elem_t *)smem_raw, (elem_t *)smem_raw + CAP};
    const int t = threadIdx.x;
    const int n = (int)a.cols, nv = n - n % VEC;
    const bool log_mode = MODE == MODE_LOG;
    const int64_t stride = gridDim.x;

    fetch_row(a, blockIdx.x, bufs[0]);
    int cur = 0;
    for (int64_t row = blockIdx.x; row < a.rows; row += stride, cur ^= 1) {
        // The next row into the other buffer, which everyone finished with at the end of the
        // previous iteration (the barrier there); then wait for this row's group only.
        fetch_row(a, row + stride, bufs[cur ^ 1]);
        const elem_t *x = (const elem_t *)a.x + row * a.ldx;
        elem_t *y = (elem_t *)a.y + row * a.ldy;
        const bool has_extra = t < n - nv;
        const float extra = has_extra ? to_f32(x[nv + t]) : -INFINITY;
        cp_async_wait<1>();
        __syncthreads();
        const elem_t *stage = bufs[cur];

        // (max, sum of exp) of the row, as the softmax template computes a chunk's.
        float m = max_nan(staged_max<vec_t>(stage, nv, t * VEC, THREADS * VEC), extra);
        float s = staged_sum<vec_t>(stage, nv, t * VEC, THREADS * VEC, m);
        s += has_extra ? exp_from(extra, m) : 0.0f;
        if (m == -INFINITY)
            s = 0.0f;
        softmax_team_merge(m, s, red, WARPS);
        if (m == -INFINITY)
            s = NAN; // the row is only -inf

        const float scale = log_mode ? logf(s) : 1.0f / s;
        const float m2 = m * TILEOPS_LOG2E;
        staged_write<vec_t>(stage, y, nv, t * VEC, THREADS * VEC, m, m2, scale, log_mode);
        if (has_extra)
            from_f32(softmax_output(extra, m, m2, scale, log_mode), &y[nv + t]);
        __syncthreads(); // this buffer and red are free for the next iteration
    }
    cp_async_wait<0>(); // the empty group past the last row
}

// ---- host side --------------------------------------------------------------------------

// Rows that fit one buffer, when allowed: just below the single-buffer instance of the same
// capacity in the softmax template (whose cost is its capacity).
static int64_t fit(const void *p, size_t *workspace)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    *workspace = 0;
    if (a->cols > CAP || !tileops__unverified_allowed())
        return -1;
    return CAP - 1;
}

// Launches as many blocks as fit on the device at once (each walks its rows), or one a row.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_softmax_args *a = (const tileops_softmax_args *)p;
    static bool smem_set; // once per process: the attribute belongs to the kernel
    if (!smem_set) {
        cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             SMEM_BYTES);
        if (e != cudaSuccess)
            return (int)e;
        smem_set = true;
    }
    static int per_sm; // per device model; a stale value costs speed, never correctness
    if (!per_sm &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, SMEM_BYTES) !=
            cudaSuccess)
        return (int)cudaGetLastError();
    const int64_t resident = (int64_t)a->sms * (per_sm > 0 ? per_sm : 1);
    kernel<<<grid_for(a->rows < resident ? a->rows : resident), THREADS, SMEM_BYTES, stream>>>(*a);
    return (int)cudaGetLastError();
}
