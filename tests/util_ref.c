/* util_ref.c: see util_ref.h. */
#include "util_ref.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "util_host.h"

int ref_softmax_row(tileops_dtype dt, tileops_softmax_mode mode, const void *x, const void *y,
                    int64_t cols, char *msg, size_t len)
{
    double m = -INFINITY, s = 0;
    int nan = 0;
    for (int64_t j = 0; j < cols; j++) {
        const double v = get_elem(x, dt, (size_t)j);
        nan |= isnan(v);
        m = v > m ? v : m;
    }
    for (int64_t j = 0; j < cols && m > -INFINITY; j++)
        s += exp(get_elem(x, dt, (size_t)j) - m);
    const double logs = log(s);
    const double rel = dtype_rel_bound(dt) + 2e-5, tiny = dtype_abs_bound(dt);
    for (int64_t j = 0; j < cols; j++) {
        const double v = get_elem(x, dt, (size_t)j), got = get_elem(y, dt, (size_t)j);
        if (nan || m == -INFINITY) {
            if (isnan(got))
                continue;
            snprintf(msg, len, "y[%" PRId64 "] = %g, expected NaN (the row %s)", j, got,
                     nan ? "has a NaN" : "is all -inf");
            return -1;
        }
        double ref, tol;
        if (mode == TILEOPS_SOFTMAX_PLAIN) {
            ref = exp(v - m) / s;
            tol = rel * ref + tiny;
        } else {
            ref = (v - m) - logs;
            tol = dtype_rel_bound(dt) * fabs(ref) + 1e-5 * (1 + fabs(v - m) + fabs(logs));
        }
        const int ok = v == -INFINITY ? got == (mode == TILEOPS_SOFTMAX_PLAIN ? 0 : -INFINITY)
                                      : fabs(got - ref) <= tol;
        if (!ok) {
            snprintf(msg, len, "y[%" PRId64 "] = %.9g, reference %.9g (x %.9g, row max %.9g)",
                     j, got, ref, v, m);
            return -1;
        }
    }
    return 0;
}

double ref_gemm_elem(const struct ref_gemm *g, int64_t i, int64_t j, double *scale)
{
    double acc = 0, mag = 0;
    for (int64_t kk = 0; kk < g->k; kk++) {
        const double av = get_elem(g->a, g->dt, (size_t)(i * g->lda + kk));
        const size_t bi = g->layout == TILEOPS_B_NK ? (size_t)(j * g->ldb + kk)
                                                    : (size_t)(kk * g->ldb + j);
        const double t = av * get_elem(g->b, g->dt, bi);
        acc += t;
        mag += fabs(t);
    }
    double v = g->alpha * acc;
    mag *= fabs(g->alpha);
    if (g->c && g->beta != 0.0f) {
        const double cv = g->beta * get_elem(g->c, g->dt, (size_t)(i * g->ldc + j));
        v += cv;
        mag += fabs(cv);
    }
    if (g->epilogue & TILEOPS_EPILOGUE_BIAS) {
        const double bv = get_elem(g->bias, g->dt, (size_t)j);
        v += bv;
        mag += fabs(bv);
    }
    if (g->epilogue & TILEOPS_EPILOGUE_RELU)
        v = v < 0 ? 0 : v;
    if (g->epilogue & TILEOPS_EPILOGUE_GELU_ERF)
        v = 0.5 * v * (1 + erf(v / sqrt(2.0)));
    if (g->epilogue & TILEOPS_EPILOGUE_GELU_TANH)
        v = 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    *scale = mag;
    return v;
}

double ref_gemm_tolerance(tileops_dtype dt, double ref, double scale)
{
    return 2 * dtype_rel_bound(dt) * fabs(ref) + scale * 0x1p-16 + dtype_abs_bound(dt);
}

int64_t ref_attention_visible(const struct ref_attention *a, int64_t i)
{
    if (!a->causal)
        return a->lk;
    const int64_t n = i + a->lk - a->lq + 1;
    return n < 0 ? 0 : n > a->lk ? a->lk : n;
}

int64_t ref_attention_row(const struct ref_attention *a, int64_t i, double *o, double *lse,
                          double *w)
{
    const int64_t n = ref_attention_visible(a, i);
    for (int e = 0; e < a->d; e++)
        o[e] = 0;
    if (n == 0) {
        *lse = -INFINITY;
        return 0;
    }
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int e = 0; e < a->d; e++)
            s += get_elem(a->q, a->dt, (size_t)(i * a->q_seq + e)) *
                 get_elem(a->k, a->dt, (size_t)(j * a->k_seq + e));
        w[j] = s * a->scale;
        mx = w[j] > mx ? w[j] : mx;
    }
    for (int64_t j = 0; j < n; j++) {
        const double p = exp(w[j] - mx);
        sum += p;
        for (int e = 0; e < a->d; e++)
            o[e] += p * get_elem(a->v, a->dt, (size_t)(j * a->v_seq + e));
    }
    for (int e = 0; e < a->d; e++)
        o[e] /= sum;
    *lse = mx + log(sum);
    return n;
}

double ref_attention_tolerance(tileops_dtype dt, double ref)
{
    return (dt == TILEOPS_BF16 ? 2e-2 : 5e-3) + dtype_rel_bound(dt) * fabs(ref);
}

const unsigned ref_gemm_epilogues[REF_GEMM_EPILOGUES] = {
    TILEOPS_EPILOGUE_NONE,
    TILEOPS_EPILOGUE_BIAS,
    TILEOPS_EPILOGUE_RELU,
    TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_RELU,
    TILEOPS_EPILOGUE_GELU_ERF,
    TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_ERF,
    TILEOPS_EPILOGUE_GELU_TANH,
    TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_TANH,
};
