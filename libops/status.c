/* status.c: status strings and the per-thread detail message of the last failure. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[512];

#define TILEOPS_STR_(x) #x
#define TILEOPS_STR(x) TILEOPS_STR_(x)

const char *tileops_version(void)
{
    return TILEOPS_STR(TILEOPS_VERSION_MAJOR) "." TILEOPS_STR(TILEOPS_VERSION_MINOR) "."
        TILEOPS_STR(TILEOPS_VERSION_PATCH);
}

const char *tileops_status_string(tileops_status status)
{
    switch (status) {
    case TILEOPS_SUCCESS: return "success";
    case TILEOPS_ERROR_INVALID_VALUE: return "invalid value";
    case TILEOPS_ERROR_NOT_SUPPORTED: return "not supported";
    case TILEOPS_ERROR_NO_DEVICE: return "no CUDA device";
    case TILEOPS_ERROR_CUDA: return "CUDA error";
    case TILEOPS_ERROR_OUT_OF_MEMORY: return "out of memory";
    }
    return "unknown status";
}

const char *tileops_last_error(void)
{
    return last_error;
}

tileops_status tileops__fail(tileops_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

int tileops__dtype_bytes(tileops_dtype dtype)
{
    return dtype == TILEOPS_F32 ? 4 : 2;
}

const char *tileops__dtype_name(tileops_dtype dtype)
{
    switch (dtype) {
    case TILEOPS_F32: return "f32";
    case TILEOPS_F16: return "f16";
    case TILEOPS_BF16: return "bf16";
    }
    return "?";
}
