// softmax_chunk_stage.cuh: a row chunk staged through shared memory (sm80 and up), for
// softmax_staged.cu and the staged instances of softmax_split.cu; included after
// softmax_row.cuh and the family's SCAP (elements the stage holds), KG (16-byte vectors a
// thread there), TAIL (vectors a thread holds in registers past the stage), TEAM, THREADS
// and SMEM_KB.
//
// The team copies up to SCAP elements into the stage with cp.async, all of it in flight at
// once, so registers no longer bound the bytes in flight; with TAIL > 0 the part past the
// stage goes into registers in the same burst (more bytes in flight a SM than shared memory
// alone holds: long rows need fewer chunks). The stage goes out in FOLDS commit groups of FV
// vectors a thread, each folded into the thread's (max, sum) as soon as its own copies land.

constexpr int FOLDS = KG % 8 == 0 ? 8 : KG % 4 == 0 ? 4 : KG % 2 == 0 ? 2 : 1;
constexpr int FV = KG / FOLDS;
static_assert(SCAP == 0 || (VEC * sizeof(elem_t) == 16 && SCAP == (int64_t)KG * TEAM * VEC),
              "a stage holds whole 16-byte vectors of every thread"); // (0: no stage)

// Blocks a SM for a stage of SMEM_KB KB and THREADS threads (the family's): as many as an
// sm90 SM's shared memory holds (227 KB), to 8, as long as a thread keeps 64 registers or
// more: 8 blocks of 16 KB stages (128 threads), 4 of 32 KB, 3 of 64 KB (80 registers; with a
// bound of 2 a build took 81 and lost the third block), 2 of 96 KB.
constexpr int STAGE_BLOCKS_SMEM = 227 / (SMEM_KB + 1);
constexpr int STAGE_BLOCKS_REGS = 65536 / (THREADS * 64);
constexpr int STAGE_BLOCKS_MIN =
    STAGE_BLOCKS_SMEM < STAGE_BLOCKS_REGS ? STAGE_BLOCKS_SMEM : STAGE_BLOCKS_REGS;
constexpr int STAGE_BLOCKS = STAGE_BLOCKS_MIN < 1 ? 1 : STAGE_BLOCKS_MIN > 8 ? 8 : STAGE_BLOCKS_MIN;

// The staged part of a chunk: every vector up to SCAP.
static __device__ __forceinline__ int stage_part(const chunk &k)
{
    return TAIL > 0 && k.nv > SCAP ? (int)SCAP : k.nv;
}

// Issues the chunk's copies into the stage (FOLDS commit groups) and its register tail q.
static __device__ __forceinline__ void stage_load(elem_t *stage, vec_t (&q)[TAIL > 0 ? TAIL : 1],
                                                  const chunk &k, int t)
{
    const int ns = stage_part(k);
#pragma unroll
    for (int f = 0; f < FOLDS; f++) {
#pragma unroll
        for (int v = 0; v < FV; v++) {
            const int i = t * VEC + (f * FV + v) * TEAM * VEC;
            if (i < ns)
                cp_async_16_full(smem_addr(stage + i), k.x + i);
        }
        cp_async_commit();
    }
#pragma unroll
    for (int j = 0; j < TAIL; j++) {
        const int i = (int)SCAP + (j * TEAM + t) * VEC;
        if (i < k.nv)
            load_vec(q[j], k.x + i);
    }
}

// The thread's (max, sum) over its copies (read back only what it copied: no barrier), its
// register tail and its extra, then the team's through red (WARPS pairs). s is 0 where m is
// -inf.
static __device__ __forceinline__ void stage_reduce(const elem_t *stage,
                                                    const vec_t (&q)[TAIL > 0 ? TAIL : 1],
                                                    const chunk &k, int t, float extra,
                                                    float2 *red, float &m, float &s)
{
    const int ns = stage_part(k);
    float m2 = -INFINITY;
    m = -INFINITY;
    s = 0.0f;
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
                for (int e = 0; e < VEC; e++)
                    s += sum_term(to_f32(in[v].v[e]), m, m2);
    }
    float cm = extra;
#pragma unroll
    for (int j = 0; j < TAIL; j++)
        if ((int)SCAP + (j * TEAM + t) * VEC < k.nv)
            cm = max_nan(cm, max_nan_of(q[j].v, VEC));
    softmax_fold_max(m, s, m2, cm);
#pragma unroll
    for (int j = 0; j < TAIL; j++)
        if ((int)SCAP + (j * TEAM + t) * VEC < k.nv)
#pragma unroll
            for (int e = 0; e < VEC; e++)
                s += sum_term(to_f32(q[j].v[e]), m, m2);
    s += k.has_extra ? sum_term(extra, m, m2) : 0.0f;
    if (m == -INFINITY)
        s = 0.0f; // no finite element here (exp(-inf - -inf) summed NaN)
    softmax_team_merge(m, s, red, WARPS);
}

// Writes the chunk's outputs from the stage and the register tail (the extra is the caller's).
// Unrolled by 4 from one base address: a loop striding over the stage spilled 8 bytes in f32
// w16 s96 rv4 on sm90; unrolled in full, the sm80 build loaded all 16 vectors of s64 at once
// and spilled.
static __device__ __forceinline__ void stage_write(const elem_t *stage,
                                                   const vec_t (&q)[TAIL > 0 ? TAIL : 1],
                                                   const chunk &k, int t, float m, float m2,
                                                   float scale)
{
    const int ns = stage_part(k);
#pragma unroll 4
    for (int j = 0; j < KG; j++) {
        const int i = t * VEC + j * TEAM * VEC;
        if (i < ns) {
            const vec_t in = *(const vec_t *)(stage + i);
            softmax_write_vec(k.y, i, in, m, m2, scale, MODE == MODE_LOG);
        }
    }
#pragma unroll
    for (int j = 0; j < TAIL; j++) {
        const int i = (int)SCAP + (j * TEAM + t) * VEC;
        if (i < k.nv)
            softmax_write_vec(k.y, i, q[j], m, m2, scale, MODE == MODE_LOG);
    }
}
