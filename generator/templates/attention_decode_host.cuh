// attention_decode_host.cuh: the host side the decode-attention templates (attention_decode,
// attention_decode_sm70) share: the split plan, the workspace it needs, the launch of the split
// kernel and the merge, and fit(). Included inside an instance's namespace at the end of the
// template, after its `kernel` (blocks of NTHREADS threads, SMEM_TOTAL bytes of dynamic shared
// memory, arguments (args, m_tiles, splits)).

static inline int64_t m_tiles_of(const tileops_attention_decode_args *p)
{
    return ((int64_t)(p->heads_q / p->heads_kv) * p->seqlen_q + BLOCK_M - 1) / BLOCK_M;
}

// Workspace bytes per split: fp32 O and the log-sum-exp of every row.
static inline size_t split_bytes(const tileops_attention_decode_args *p)
{
    return (size_t)(p->batch * p->heads_q * p->seqlen_q) * (D + 1) * 4;
}

// Splits: forced, or enough to fill the GPU's block slots in whole waves (the fewest splits
// within 95% of the best wave efficiency; FlashAttention-2's 85% leaves an eighth of the slots
// idle at batch 1 with 8 kv heads), no more than the longest sequence has tiles, and no more
// than `ws_bytes` of workspace holds.
static int plan_splits(const tileops_attention_decode_args *p, size_t ws_bytes)
{
    if (p->num_splits > 0)
        return p->num_splits;
    const int64_t ctas = p->batch * p->heads_kv * m_tiles_of(p);
    const int64_t tiles = (p->max_seqlen_kv + BLOCK_N - 1) / BLOCK_N;
    const int per_sm = tileops__gemm_blocks_per_sm(SMEM_TOTAL, 227 * 1024, NTHREADS, 2048, 128);
    const int64_t slots = (int64_t)p->sms * (per_sm > 0 ? per_sm : 1);
    if (ctas * 5 >= slots * 4 || tiles < 2)
        return 1;
    int64_t max_ns = tiles < TILEOPS_KVCACHE_MAX_SPLITS ? tiles : TILEOPS_KVCACHE_MAX_SPLITS;
    const size_t per = split_bytes(p);
    if ((size_t)max_ns * per > ws_bytes)
        max_ns = (int64_t)(ws_bytes / per);
    if (max_ns < 2)
        return 1;
    double eff[TILEOPS_KVCACHE_MAX_SPLITS + 1], best = 0.0;
    for (int64_t n = 1; n <= max_ns; n++) {
        const double waves = (double)(ctas * n) / (double)slots;
        eff[n] = waves / ceil(waves);
        best = eff[n] > best ? eff[n] : best;
    }
    for (int64_t n = 1; n <= max_ns; n++) {
        // a count that gives no split fewer tiles than one less does is no use
        if (n > 1 && (tiles + n - 1) / n == (tiles + n - 2) / (n - 1))
            continue;
        if (eff[n] >= 0.95 * best)
            return (int)n;
    }
    return 1;
}

static int launch(const void *args, cudaStream_t stream)
{
    const tileops_attention_decode_args *p = (const tileops_attention_decode_args *)args;
    const int64_t m_tiles = m_tiles_of(p);
    const int ns = plan_splits(p, p->workspace ? p->workspace_bytes : 0);
    const int64_t blocks = p->batch * p->heads_kv * ns * m_tiles;
    static unsigned long long smem_done;
    const int err = smem_optin((const void *)kernel, SMEM_TOTAL, &smem_done);
    if (err)
        return err;
    kernel<<<(unsigned)blocks, NTHREADS, SMEM_TOTAL, stream>>>(*p, (int)m_tiles, ns);
    if (ns > 1) {
        const int64_t rows = p->batch * p->heads_q * p->seqlen_q;
        merge<<<(unsigned)((rows + 3) / 4), 128, 0, stream>>>(*p, ns);
    }
    return (int)cudaGetLastError();
}

// -1 if this instance cannot serve the call; else the time of reading the cache (each row tile
// reads it again, mostly from L2) with the workspace its split plan needs.
static int64_t fit(const void *args, size_t *workspace_bytes)
{
    const tileops_attention_decode_args *p = (const tileops_attention_decode_args *)args;
    if (workspace_bytes)
        *workspace_bytes = 0;
    if (p->head_dim != D || p->heads_q < 1 || p->heads_kv < 1 || p->heads_q % p->heads_kv ||
        p->seqlen_q < 1 || p->batch < 1)
        return -1;
    const uintptr_t ptrs = (uintptr_t)p->q | (uintptr_t)p->k | (uintptr_t)p->v | (uintptr_t)p->o;
    const int64_t strides = p->q_batch | p->q_seq | p->q_head | p->o_batch | p->o_seq | p->o_head |
                            p->k_batch | p->k_seq | p->k_head | p->v_batch | p->v_seq | p->v_head;
    if ((ptrs & 15) || (strides & 7))
        return -1;
    const int64_t m_tiles = m_tiles_of(p);
    if (p->max_seqlen_kv > 0x7fffffff - BLOCK_N ||
        p->batch * p->heads_kv * m_tiles * TILEOPS_KVCACHE_MAX_SPLITS > 0x7fffffff ||
        (p->batch * p->heads_q * p->seqlen_q + 3) / 4 > 0x7fffffff)
        return -1;
    const int ns = plan_splits(p, (size_t)-1);
    if (workspace_bytes && ns > 1)
        *workspace_bytes = (size_t)ns * split_bytes(p);
    const double kv = 4.0 * D * (double)p->max_seqlen_kv * (double)p->batch * p->heads_kv;
    return (int64_t)(kv * (1.0 + 0.25 * (double)(m_tiles - 1)) / 3000.0) + BLOCK_M;
}
