/* tensor_map.h: TMA tensor maps for the sm90 templates' launch(), encoded on the host per call
 * through the driver's cuTensorMapEncodeTiled. The library does not link -lcuda: the function's
 * address comes once per process from cudaGetDriverEntryPointByVersion (thread-safe, lazily).
 * Host code (C11, in libtileops.a), called from the generated CUDA. Internal. */
#ifndef TILEOPS_TENSOR_MAP_H
#define TILEOPS_TENSOR_MAP_H

#include <cuda.h> /* CUtensorMap */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Encodes a 2-D tiled map of 2-byte elements (bf16 nonzero: bfloat16, else float16) over a
 * row-major matrix at base: `cols` elements a row (the inner dimension), `rows` rows,
 * `row_bytes` between row starts; the box is box_cols x box_rows elements; swizzle128: the
 * 128-byte swizzle (box_cols * 2 must be at most 128), else none. Elements outside the matrix
 * read as zero. Returns 0 or a cudaError_t as an int: cudaErrorNotSupported when the driver has
 * no cuTensorMapEncodeTiled, cudaErrorInvalidValue when it refuses the arguments (base not
 * 16-byte aligned, row_bytes not a multiple of 16, a box dimension over 256, ...). */
int tileops__tensor_map_2d(CUtensorMap *map, int bf16, const void *base, uint64_t cols,
                           uint64_t rows, uint64_t row_bytes, uint32_t box_cols,
                           uint32_t box_rows, int swizzle128);

/* The same for `rank` (1..5) dimensions, dims[0] innermost (contiguous): strides[i] is the
 * byte step of dimension i + 1 (rank - 1 of them), box[i] the box's extent in dimension i.
 * Strides need not grow with the dimension (any order of the outer ones). */
int tileops__tensor_map(CUtensorMap *map, int bf16, const void *base, int rank,
                        const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
                        int swizzle128);

#ifdef __cplusplus
}
#endif

#endif
