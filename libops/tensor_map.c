/* tensor_map.c: cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda). */
#include "tensor_map.h"

#include <cudaTypedefs.h> /* PFN_cuTensorMapEncodeTiled_v12000 */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stddef.h>

static pthread_once_t encode_once = PTHREAD_ONCE_INIT;
static PFN_cuTensorMapEncodeTiled_v12000 encode_fn; /* NULL: the driver has none */

/* Looks the driver function up, once per process (pthread_once orders it for every caller). */
static void find_encode(void)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess)
        encode_fn = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    else
        (void)cudaGetLastError(); /* a failed lookup must not stick to the caller's next check */
}

int tileops__tensor_map(CUtensorMap *map, int bf16, const void *base, int rank,
                        const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
                        int swizzle128)
{
    if (pthread_once(&encode_once, find_encode) != 0 || !encode_fn)
        return (int)cudaErrorNotSupported;
    if (rank < 1 || rank > 5)
        return (int)cudaErrorInvalidValue;
    cuuint64_t d[5], st[4];
    cuuint32_t bx[5], elem_strides[5];
    for (int i = 0; i < rank; i++) {
        d[i] = dims[i];
        bx[i] = box[i];
        elem_strides[i] = 1;
        if (i + 1 < rank)
            st[i] = strides[i];
    }
    const CUresult r = encode_fn(
        map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        (cuuint32_t)rank, (void *)base, d, st, bx, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
        swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? 0 : (int)cudaErrorInvalidValue;
}

int tileops__tensor_map_2d(CUtensorMap *map, int bf16, const void *base, uint64_t cols,
                           uint64_t rows, uint64_t row_bytes, uint32_t box_cols,
                           uint32_t box_rows, int swizzle128)
{
    const uint64_t dims[2] = {cols, rows};
    const uint32_t box[2] = {box_cols, box_rows};
    return tileops__tensor_map(map, bf16, base, 2, dims, &row_bytes, box, swizzle128);
}
