// softmax_row.cuh: what the softmax families (softmax_rows.cu, softmax_staged.cu,
// softmax_split.cu) share, included inside each instance's namespace after the family's own
// constants: elem_t, MODE and VEC from the generator; TEAM (threads that share a row chunk),
// CAP (elements a team holds at once) and NARROW (2-byte exp terms, see sum_term).
//
// A row is cut into chunks of at most CAP elements, one team each. Vector loads need a chunk
// that starts on a VEC-element boundary: a row that does not (a stride or a view that is not a
// multiple of the vector) leaves its first h < VEC elements, the head, to single loads in
// chunk 0, and the last n % VEC elements of its last chunk, the tail, the same way; a thread
// holds at most one of them (`extra`). That takes only x and y equally misaligned (every
// instance's `align` is of y - x and ldy - ldx, see libops/softmax.c); each element aligned.
//
// Numerics: the row max is subtracted; -inf entries give 0 (log: -inf); a row of only -inf
// gives NaN (as PyTorch); a NaN anywhere in a row makes that whole row NaN.

// VEC elements moved by one load or store.
struct __align__(VEC * sizeof(elem_t)) vec_t {
    elem_t v[VEC];
};

// 2-byte elements: every exp of a sum is one FFMA and one MUFU (exp_term). Plain f16 also
// folds 1 / s into the exponent, exp2(x * log2 e - (m * log2 e + log2 s)): no multiply an
// output (the MUFU's flush below 2^-126 is below f16's subnormals).
constexpr bool FOLD = NARROW && MODE == MODE_PLAIN && ftz_invisible((const elem_t *)nullptr);

static __device__ __forceinline__ float sum_term(float x, float m, float m2)
{
    return exp_term(x, m, m2, NARROW);
}

static __device__ __forceinline__ float output(float v, float m, float m2, float scale)
{
    return softmax_output(v, m, m2, scale, MODE == MODE_LOG);
}

// What output() takes from the row's (max, sum): m2 = m * log2(e) (FOLD: + log2 s) and
// scale (1 / s, FOLD: 1; log: log s). A row of only -inf has s NaN, so NaN outputs.
static __device__ __forceinline__ void output_params(float m, float s, float &m2, float &scale)
{
    m2 = FOLD ? m * TILEOPS_LOG2E + __log2f(s) : m * TILEOPS_LOG2E; // (x + 0.0f stays an add)
    scale = MODE == MODE_LOG ? logf(s) : FOLD ? 1.0f : 1.0f / s;
}

// One chunk of one row: x and y at its first vector (VEC-aligned), n elements from there, nv
// of them in whole vectors; hh head elements before x (chunk 0 only). Thread t's extra
// element, if any, is x[extra_off] (a head element when t < hh, else a tail one).
struct chunk {
    const elem_t *x;
    elem_t *y;
    int n, nv, hh;
    bool has_extra;
    int extra_off;
};

// The head of row `row`: elements before its first VEC-aligned one (0 where VEC is 1).
static __device__ __forceinline__ int row_head(const tileops_softmax_args &a, int64_t row)
{
    constexpr unsigned VB = VEC * sizeof(elem_t);
    const unsigned mis = (unsigned)(uintptr_t)((const elem_t *)a.x + row * a.ldx) % VB;
    const int h = VEC == 1 || mis == 0 ? 0 : (int)((VB - mis) / sizeof(elem_t));
    return (int64_t)h < a.cols ? h : (int)a.cols;
}

// Chunk c (len elements, a multiple of VEC, or what is left of the row) of row `row` for team
// thread t. Chunks tile the row past its head; chunk 0 takes the head too. A head can leave
// the last chunk (or the last two) short or empty.
static __device__ __forceinline__ chunk make_chunk(const tileops_softmax_args &a, int64_t row,
                                                   int64_t c, int64_t len, int t)
{
    chunk k;
    const int h = row_head(a, row);
    const int64_t start = h + c * len;
    const int64_t left = a.cols - start;
    k.n = (int)(left < len ? (left > 0 ? left : 0) : len);
    k.nv = k.n - k.n % VEC;
    k.hh = c == 0 ? h : 0;
    k.x = (const elem_t *)a.x + row * a.ldx + start;
    k.y = (elem_t *)a.y + row * a.ldy + start;
    k.has_extra = VEC > 1 && t < k.hh + k.n - k.nv;
    k.extra_off = t < k.hh ? t - k.hh : k.nv + t - k.hh;
    return k;
}

// The thread's extra element as fp32, -inf where it has none.
static __device__ __forceinline__ float load_extra(const chunk &k)
{
    return k.has_extra ? to_f32(k.x[k.extra_off]) : -INFINITY;
}

static __device__ __forceinline__ void write_extra(const chunk &k, float v, float m, float m2,
                                                   float scale)
{
    if (k.has_extra)
        from_f32(output(v, m, m2, scale), &k.y[k.extra_off]);
}

// A vector of x into registers: prefetching (PREFETCH, 16-byte vectors) or plain.
static __device__ __forceinline__ void load_vec(vec_t &dst, const elem_t *p)
{
    if constexpr (PREFETCH != 0)
        *(uint4 *)&dst = load_prefetch16(p);
    else
        dst = *(const vec_t *)p;
}
