// softmax_chunk_regs.cuh: a row chunk held in registers as fp32, NV vectors a thread (team
// thread t holds vectors t, t + TEAM, ...); for softmax_rows.cu and the register instances of
// softmax_split.cu, included after softmax_row.cuh and the family's NV. Converted as loaded:
// keeping f16 / bf16 packed made the compiler keep both forms alive and spill on sm_90.

// Loads the chunk; vector slots past nv read as -inf, so they drop out of both sums with no
// element-wise branch (that cost 30-60 registers). Prefetching loads: all of them first, then
// the conversions (converting each as it landed let ptxas reuse one register quad and wait
// for each load in turn).
static __device__ __forceinline__ void regs_load(float (&r)[NV][VEC], const chunk &k, int t)
{
    if constexpr (PREFETCH != 0) {
        vec_t in[NV];
#pragma unroll
        for (int j = 0; j < NV; j++) {
            const int i = (j * TEAM + t) * VEC;
            if (i < k.nv)
                load_vec(in[j], k.x + i);
            else
                in[j] = vec_t(); // read as -inf below
        }
#pragma unroll
        for (int j = 0; j < NV; j++) {
            const bool live = (j * TEAM + t) * VEC < k.nv;
#pragma unroll
            for (int e = 0; e < VEC; e++)
                r[j][e] = live ? to_f32(in[j].v[e]) : -INFINITY;
        }
    } else {
#pragma unroll
        for (int j = 0; j < NV; j++) {
            const int i = (j * TEAM + t) * VEC;
            if (i < k.nv) {
                const vec_t in = *(const vec_t *)(k.x + i);
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    r[j][e] = to_f32(in.v[e]);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    r[j][e] = -INFINITY;
            }
        }
    }
}

// The team's max first, then each exp taken once against it, and the team's sum (merging
// (max, sum) pairs instead took two exps a step). With m finite, -inf entries (padding too)
// add 0; with m NaN the sum is NaN, as the row must be. red_m, red_s: WARPS floats each.
static __device__ __forceinline__ void regs_reduce(const float (&r)[NV][VEC], float extra,
                                                   bool has_extra, float *red_m, float *red_s,
                                                   float &m, float &s)
{
    m = -INFINITY;
#pragma unroll
    for (int j = 0; j < NV; j++)
        m = max_nan(m, max_nan_of(r[j], VEC));
    m = softmax_team_reduce(max_nan(m, extra), red_m, WARPS, true);
    const float m2 = m * TILEOPS_LOG2E;
    s = 0.0f;
#pragma unroll
    for (int j = 0; j < NV; j++)
#pragma unroll
        for (int e = 0; e < VEC; e++)
            s += sum_term(r[j][e], m, m2);
    s += has_extra ? sum_term(extra, m, m2) : 0.0f;
    s = softmax_team_reduce(s, red_s, WARPS, false);
}

static __device__ __forceinline__ void regs_write(const float (&r)[NV][VEC], const chunk &k,
                                                  int t, float m, float m2, float scale)
{
#pragma unroll
    for (int j = 0; j < NV; j++) {
        const int i = (j * TEAM + t) * VEC;
        if (i < k.nv) {
            vec_t o;
#pragma unroll
            for (int e = 0; e < VEC; e++)
                from_f32(output(r[j][e], m, m2, scale), &o.v[e]);
            store_stream((vec_t *)(k.y + i), o);
        }
    }
}
