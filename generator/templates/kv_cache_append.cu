// Template kv_cache_append (specs/kv_cache_append.lua): writes new tokens' keys and values into
// a paged or contiguous KV cache by slot, one thread per 16-byte chunk (the bits are copied;
// elem_t only names the instance). Reads from the generator: THREADS. Takes
// tileops_kv_append_args (libops/op_args.h), validated by libops/kvcache.c: 16-byte aligned
// tensors, strides multiples of 8 elements, head_dim a multiple of 8.

static __global__ void __launch_bounds__(THREADS)
kernel(const __grid_constant__ tileops_kv_append_args p)
{
    const int cpr = p.head_dim / 8;
    const int64_t per_token = (int64_t)p.heads_kv * cpr;
    const int64_t total = p.tokens * per_token, cap = p.blocks * p.block_rows;
    for (int64_t id = (int64_t)blockIdx.x * THREADS + threadIdx.x; id < total;
         id += (int64_t)gridDim.x * THREADS) {
        const int64_t tok = id / per_token;
        const int rest = (int)(id - tok * per_token), h = rest / cpr, c = rest % cpr;
        const int64_t slot = p.slots[tok];
        if (slot < 0 || slot >= cap) // padding, or past the cache: skipped
            continue;
        const int64_t blk = slot / p.block_rows, row = slot - blk * p.block_rows;
        const elem_t *ks = (const elem_t *)p.k_new + tok * p.k_new_token + h * p.k_new_head + c * 8;
        const elem_t *vs = (const elem_t *)p.v_new + tok * p.v_new_token + h * p.v_new_head + c * 8;
        elem_t *kd = (elem_t *)p.k_cache + blk * p.k_block + row * p.k_row + h * p.k_head + c * 8;
        elem_t *vd = (elem_t *)p.v_cache + blk * p.v_block + row * p.v_row + h * p.v_head + c * 8;
        *(uint4 *)kd = *(const uint4 *)ks;
        *(uint4 *)vd = *(const uint4 *)vs;
    }
}

static int launch(const void *args, cudaStream_t stream)
{
    const tileops_kv_append_args *p = (const tileops_kv_append_args *)args;
    const int64_t chunks = p->tokens * p->heads_kv * (p->head_dim / 8);
    kernel<<<grid_for((chunks + THREADS - 1) / THREADS), THREADS, 0, stream>>>(*p);
    return (int)cudaGetLastError();
}

// Every instance serves every validated call.
static int64_t fit(const void *args, size_t *workspace)
{
    (void)args;
    *workspace = 0;
    return 0;
}
