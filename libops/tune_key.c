/* tune_key.c: tuning-table keys (tune_key.h). */
#include "tune_key.h"

#include <string.h>

#include "op_args.h"
#include "registry.h"

static const struct tileops_tune_op ops[] = {
    {TILEOPS_OP_VECTOR_ADD, "vector_add", 1, {"n"}, 1, {"plain"}},
    {TILEOPS_OP_SOFTMAX, "softmax", 2, {"rows", "cols"}, 1, {"plain"}},
    /* the epilogue's work and beta's C read change which tile pays */
    {TILEOPS_OP_GEMM, "gemm", 3, {"m", "n", "k"}, 4, {"none", "epilogue", "beta", "epilogue+beta"}},
    /* softcap's tanh changes which instance pays (the fixed max needs two Q buffers): entries
     * measured without it do not speak for it */
    {TILEOPS_OP_FLASH_ATTENTION, "flash_attention", 3, {"seqlen_q", "seqlen_kv", "batch_heads"}, 4,
     {"full", "causal", "softcap", "causal+softcap"}},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

const struct tileops_tune_op *tileops__tune_op(const char *name)
{
    for (int i = 0; i < NOPS; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

int tileops__tune_bin(int64_t x)
{
    int b = 0;
    while (x > 0) {
        b++;
        x >>= 1;
    }
    return b;
}

/* op 4 bits | dtype 4 | variant 8 | class 4 | three 6-bit bins */
uint64_t tileops__tune_key(int op, int dtype, int variant, int cls,
                           const int64_t dims[TILEOPS_TUNE_DIMS])
{
    uint64_t k = ((uint64_t)(op & 15) << 34) | ((uint64_t)(dtype & 15) << 30) |
                 ((uint64_t)(variant & 255) << 22) | ((uint64_t)(cls & 15) << 18);
    for (int i = 0; i < TILEOPS_TUNE_DIMS; i++)
        k |= (uint64_t)tileops__tune_bin(dims[i]) << (12 - 6 * i);
    return k;
}

int tileops__tune_shape(int op, const void *args, int64_t dims[TILEOPS_TUNE_DIMS], int *cls)
{
    dims[0] = dims[1] = dims[2] = 0;
    *cls = 0;
    switch (op) {
    case TILEOPS_OP_VECTOR_ADD: {
        const struct tileops_vector_add_args *a = args;
        dims[0] = a->n;
        return 0;
    }
    case TILEOPS_OP_SOFTMAX: {
        const struct tileops_softmax_args *a = args;
        dims[0] = a->rows;
        dims[1] = a->cols;
        return 0;
    }
    case TILEOPS_OP_GEMM: {
        const struct tileops_gemm_args *a = args;
        dims[0] = a->m;
        dims[1] = a->n;
        dims[2] = a->k;
        *cls = (a->epilogue != 0) + 2 * (a->c != NULL && a->beta != 0.0f);
        return 0;
    }
    case TILEOPS_OP_FLASH_ATTENTION: {
        const struct tileops_attention_args *a = args;
        dims[0] = a->seqlen_q;
        dims[1] = a->seqlen_kv;
        dims[2] = a->batch * a->heads_q;
        *cls = (a->causal != 0) + 2 * (a->softcap > 0.0f);
        return 0;
    }
    }
    return -1;
}
