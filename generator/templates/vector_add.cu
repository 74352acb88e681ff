// Template vector_add: c[i] = a[i] + b[i], fp32 arithmetic, rounded to elem_t.
// Reads from the generator: elem_t, THREADS, VEC (elements per vector load), UNROLL (vector
// loads in flight per thread and input). VEC > 1 needs a, b and c aligned to
// VEC * sizeof(elem_t) bytes; dispatch guarantees it (the registry's align field).
// c may be a or b (in place): each element is read before it is written, by one thread.

// VEC elements moved by one load or store.
struct __align__(VEC * sizeof(elem_t)) vec_t {
    elem_t v[VEC];
};

// One block handles a tile of THREADS * UNROLL vectors: all loads of a tile are issued before
// any add, so each thread keeps 2 * UNROLL loads in flight. Tiles stride by the grid.
static __global__ void __launch_bounds__(THREADS)
kernel(int64_t n, const elem_t *a, const elem_t *b, elem_t *c)
{
    const int64_t nvec = n / VEC;
    const vec_t *av = (const vec_t *)a;
    const vec_t *bv = (const vec_t *)b;
    vec_t *cv = (vec_t *)c;
    const int64_t tile = (int64_t)THREADS * UNROLL;

    for (int64_t base = (int64_t)blockIdx.x * tile; base < nvec; base += (int64_t)gridDim.x * tile) {
        vec_t ra[UNROLL], rb[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            const int64_t i = base + u * THREADS + threadIdx.x;
            if (i < nvec) {
                ra[u] = av[i];
                rb[u] = bv[i];
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            const int64_t i = base + u * THREADS + threadIdx.x;
            if (i < nvec) {
                vec_t rc;
#pragma unroll
                for (int k = 0; k < VEC; k++)
                    from_f32(to_f32(ra[u].v[k]) + to_f32(rb[u].v[k]), &rc.v[k]);
                cv[i] = rc;
            }
        }
    }

    // The n % VEC elements past the last whole vector: block 0 does them one by one.
    const int64_t tail = nvec * VEC;
    if (blockIdx.x == 0 && tail + threadIdx.x < n) {
        const int64_t i = tail + threadIdx.x;
        from_f32(to_f32(a[i]) + to_f32(b[i]), &c[i]);
    }
}

// Launches on the caller's stream; returns the launch's cudaError_t.
static int launch(const void *p, cudaStream_t stream)
{
    const tileops_vector_add_args *args = (const tileops_vector_add_args *)p;
    const int64_t tiles = (args->n / VEC + (int64_t)THREADS * UNROLL - 1) / ((int64_t)THREADS * UNROLL);
    kernel<<<grid_for(tiles), THREADS, 0, stream>>>(args->n, (const elem_t *)args->a,
                                                   (const elem_t *)args->b, (elem_t *)args->c);
    return (int)cudaGetLastError();
}

// Every instance serves every call it is aligned for; dispatch prefers the earlier (wider) one.
static int64_t fit(const void *p, size_t *workspace)
{
    (void)p;
    *workspace = 0;
    return 0;
}
