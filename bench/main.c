/* main.c: the tileops-bench command line: parses options, checks for a device, sets up the
 * stream and timer that every benchmark shares, and runs the operator named by argv[1].
 *
 * To add an operator: write bench_<op>.c with `int bench_<op>(const struct bench_ctx *)`,
 * declare it in bench.h and add a line to ops[] below. */
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_REPS 100
#define MIN_REPS 50    /* fewer gives a noisy median */
#define MAX_REPS 10000 /* bounds the events and the run time */
/* Bounds n so that byte counts (n * 16 at most) cannot overflow; no GPU holds this much. */
#define MAX_N (INT64_MAX / 16)
#define MAX_TOKENS (INT32_MAX - 256) /* --seqlens: the packed rows a call takes */

/* The "cases" entry of ops[]: main runs the file's cases (run_cases), never this. */
static int bench_cases_marker(const struct bench_ctx *ctx)
{
    (void)ctx;
    return -1;
}

/* An operator the CLI can benchmark. */
struct bench_op {
    const char *name;
    const char *summary;
    int (*run)(const struct bench_ctx *ctx);
    int64_t default_n;
    tileops_dtype default_dtype;
};

static const struct bench_op ops[] = {
    {"vector_add", "c = a + b, against a device-to-device copy of the same bytes",
     bench_vector_add, (int64_t)1 << 28, TILEOPS_F32},
    {"softmax", "row-wise softmax of --shape (default: six shapes), against a device copy of\n"
     "               the same bytes", bench_softmax, 0, TILEOPS_F32},
    {"gemm", "GEMM of --shape MxNxK (default: the issue's shapes) against cuBLAS (cublasGemmEx)\n"
     "               and, with an epilogue, cuBLASLt's fused one and an unfused GEMM + bias\n"
     "               kernel; peak_frac: the fraction of the serving tier's tensor-core peak\n"
     "               (a short run of ceiling's wgmma or mma_sync probe)", bench_gemm, 0,
     TILEOPS_BF16},
    {"attention", "flash attention forward of --shape BxSxHxD (default: FlashAttention's grid,\n"
     "               16k tokens, hidden 2048, seqlen 512..16k, head_dim 64/128/256) in TFLOP/s,\n"
     "               against an unfused cuBLAS Q·Kᵀ + softmax + P·V, with the max error",
     bench_attention, 0, TILEOPS_BF16},
    {"decode", "decode attention over a KV cache (tileops_attention_kvcache), one query a\n"
     "               sequence: cache bytes read per second against a device copy of as many\n"
     "               bytes; batch 1/16/64 x cache 2k/4k/32k/128k x heads 32/8, 32/32 x d 128/64,\n"
     "               contiguous and paged (16, 256); --shape BxC: batch B, cache C only",
     bench_decode, 0, TILEOPS_BF16},
    {"ceiling", "what this GPU allows, with its name: device copy and pure read of --n bytes\n"
     "               (GB/s), mma.sync m16n8k16 and (compute capability 9.0) wgmma m64n256k16,\n"
     "               f16 and bf16 with fp32 accumulate (TFLOP/s), and an empty kernel's time",
     bench_ceiling, (int64_t)1 << 30, TILEOPS_F32},
    {"device", "one line of this GPU's properties, as tuning tables record them (tileops-tune\n"
     "               reads it)", bench_device, 0, TILEOPS_F32},
    {"cases", "cases FILE: each line of FILE (\"OP OPTIONS\", as generated/TUNE_SHAPES) in\n"
     "               turn in one process, after a line \"case N\"; the options given after\n"
     "               FILE apply to every case", bench_cases_marker, 0, TILEOPS_F32},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* Prints the usage text to f. */
static void usage(FILE *f)
{
    fputs("usage: tileops-bench OP [--n N] [--shape ROWSxCOLS|MxNxK|BxSxHxD] [--mode plain|log]\n"
          "                        [--layout kn|nk|all] [--epilogue none|bias_relu|bias_gelu|all]\n"
          "                        [--causal on|off|all] [--window W] [--softcap C] [--splits N]\n"
          "                        [--seqlens L1,L2,...]\n"
          "                        [--dtype f32|f16|bf16|all] [--tier auto|sm70|sm80|sm90|all]\n"
          "                        [--offset E] [--reps R] [--csv FILE] [--kernel NAME[,NAME]...]\n"
          "                        [--untuned] [--list-kernels | --measure [--prune F]]\n"
          "       tileops-bench -h | --help\n"
          "\n"
          "Times a libtileops operator on CUDA device 0: each case runs a few warm-up calls,\n"
          "then R reps, each after an untimed L2 flush and timed with its own CUDA events.\n"
          "Prints one row per (dtype, tier): the kernel used, the median time and bandwidth\n"
          "(ceiling: one row per probe).\n"
          "\n"
          "operators:\n", f);
    for (int i = 0; i < NOPS; i++) {
        fprintf(f, "  %-12s %s\n", ops[i].name, ops[i].summary);
        if (ops[i].default_n)
            fprintf(f, "  %-12s (default --n %" PRId64 ")\n", "", ops[i].default_n);
    }
    fprintf(f, "\n"
            "options:\n"
            "  --n N        elements (vector_add) or bytes (ceiling), >= 1\n"
            "  --shape S    RxC: rows x cols (softmax); MxNxK (gemm); BxSxHxD: batch x seqlen x\n"
            "               heads x head_dim (attention)\n"
            "  --layout L   gemm: B as [K,N] (kn), [N,K] (nk, weights) or all (default nk)\n"
            "  --epilogue E gemm: none, bias_relu, bias_gelu (tanh form, as cuBLASLt's) or\n"
            "               all (default none)\n"
            "  --mode M     plain or log (softmax; default plain)\n"
            "  --causal C   attention: on, off or all (default all)\n"
            "  --window W   attention: a sliding window, keys from W before each query (with\n"
            "               causal: only those); TFLOP/s count the scores inside it; no reference\n"
            "  --softcap C  attention: scores capped at C (softcap), the reference too\n"
            "  --seqlens L1,L2,...  attention: a variable-length batch of these sequences\n"
            "               (packed, cu_seqlens) in place of --shape's batch x seqlen (its\n"
            "               heads and head_dim stay; default 16 x 128), then, for comparison,\n"
            "               the dense batch of as many sequences of the same work (each of the\n"
            "               length whose square is their mean square, rounded to 8)\n"
            "  --splits N   decode: split each sequence's cache N ways, 1..%d (default: dispatch\n"
            "               chooses)\n"
            "  --dtype D    f32, f16, bf16, or all of them (default f32; gemm, attention: bf16)\n"
            "  --tier T     auto, sm70, sm80, sm90, or all = sm70 sm80 sm90 (default auto);\n"
            "               a tier this GPU or build cannot run is skipped with a note\n"
            "  --offset E   start every operand E elements past a 256-byte boundary, 0..7\n"
            "               (vector_add: 0 the vectorized path, 1 the scalar one; softmax: x\n"
            "               and y, each row then starts elsewhere in a vector; default 0)\n"
            "  --reps R     timed reps per case, %d..%d (default %d)\n"
            "  --csv FILE   also write the rows, with a header, to FILE as CSV\n"
            "  --kernel K   use only the kernel instance named K (as the rows name them; see\n"
            "               generated/MANIFEST): cases it cannot serve are skipped with a note;\n"
            "               a comma-separated list runs each in turn, a row each\n"
            "  --untuned    gemm, softmax, attention: also time the cost model's choice (tuning\n"
            "               tables off) in the same run: untuned_us, and gain = untuned_us /\n"
            "               median_us (the tuned column says whether the table chose)\n"
            "  --list-kernels  run nothing: print, per case, \"auto NAME\" (dispatch's choice)\n"
            "               and \"candidate NAME\" for each kernel of the tier that can serve it\n"
            "  --measure    time tileops alone (no reference, no table): print \"measured NAME\n"
            "               MEDIAN_US NOISE_US\" per kernel and case, \"wrong NAME\" for a kernel\n"
            "               whose result disagrees with the reference (tileops-tune reads these)\n"
            "  --prune F    with --measure: stop timing a kernel after %d reps when their median\n"
            "               is over F (> 1) times the case's best so far\n"
            "  -h, --help   show this help\n"
            "\n"
            "exit status: 0 success, 1 a CUDA or tileops failure (or no device), 2 bad usage\n",
            TILEOPS_KVCACHE_MAX_SPLITS, MIN_REPS, MAX_REPS, DEFAULT_REPS, BENCH_PRUNE_REPS);
}

/* Reports a command-line error, with the usage text, on stderr; returns exit status 2. */
static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tileops-bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n\n", stderr);
    usage(stderr);
    return 2;
}

/* Parses a whole decimal integer in [lo, hi]; 0 on success, -1 for junk or out of range. */
static int parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Parses the options after the operator name into *o. Returns 0, -1 for -h (usage printed
 * to stdout), or 2 for bad usage (reported). */
static int parse_options(int argc, char **argv, int first, struct bench_opts *o)
{
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return -1;
        }
        if (strncmp(arg, "--", 2) != 0)
            return bad_usage("unexpected argument '%s'", arg);
        if (strcmp(arg, "--untuned") == 0) {
            o->untuned = 1;
            continue;
        }
        if (strcmp(arg, "--list-kernels") == 0 || strcmp(arg, "--measure") == 0) {
            *(arg[2] == 'l' ? &o->list_kernels : &o->measure) = 1;
            if (o->list_kernels && o->measure)
                return bad_usage("--list-kernels and --measure exclude each other");
            continue;
        }
        /* Both "--name value" and "--name=value". */
        char name[16];
        const char *val = strchr(arg, '=');
        size_t len = val ? (size_t)(val - arg) : strlen(arg);
        if (len >= sizeof name)
            return bad_usage("unknown option '%s'", arg);
        memcpy(name, arg, len);
        name[len] = '\0';
        if (strcmp(name, "--n") && strcmp(name, "--dtype") && strcmp(name, "--tier") &&
            strcmp(name, "--reps") && strcmp(name, "--csv") && strcmp(name, "--offset") &&
            strcmp(name, "--shape") && strcmp(name, "--mode") && strcmp(name, "--layout") &&
            strcmp(name, "--epilogue") && strcmp(name, "--causal") && strcmp(name, "--kernel") &&
            strcmp(name, "--prune") && strcmp(name, "--window") && strcmp(name, "--softcap") &&
            strcmp(name, "--splits") && strcmp(name, "--seqlens"))
            return bad_usage("unknown option '%s'", arg);
        if (val)
            val++;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return bad_usage("option '%s' needs a value", arg);

        int64_t v;
        if (strcmp(name, "--n") == 0) {
            if (parse_int(val, 1, MAX_N, &v) != 0)
                return bad_usage("--n: '%s' is not an integer in 1..%" PRId64, val,
                                 (int64_t)MAX_N);
            o->n = v;
        } else if (strcmp(name, "--shape") == 0) {
            /* ROWSxCOLS, MxNxK or BxSxHxD, each >= 1, their product bounded */
            const char *at = val;
            int64_t prod = 1;
            o->shape_dims = 0;
            while (o->shape_dims < 4) {
                char part[32];
                const char *x = strchr(at, 'x');
                size_t len = x ? (size_t)(x - at) : strlen(at);
                int64_t v;
                if (len == 0 || len >= sizeof part)
                    break;
                memcpy(part, at, len);
                part[len] = '\0';
                if (parse_int(part, 1, MAX_N, &v) != 0 || v > MAX_N / prod)
                    break;
                prod *= v;
                o->shape[o->shape_dims++] = v;
                if (!x) {
                    at = NULL;
                    break;
                }
                at = x + 1;
            }
            if (at || o->shape_dims < 2)
                return bad_usage("--shape: '%s' is not ROWSxCOLS, MxNxK or BxSxHxD (each >= 1, "
                                 "product at most %" PRId64 ")", val, (int64_t)MAX_N);
        } else if (strcmp(name, "--layout") == 0) {
            const int all = strcmp(val, "all") == 0;
            o->nlayouts = 0;
            if (all || strcmp(val, "kn") == 0)
                o->layouts[o->nlayouts++] = TILEOPS_B_KN;
            if (all || strcmp(val, "nk") == 0)
                o->layouts[o->nlayouts++] = TILEOPS_B_NK;
            if (!o->nlayouts)
                return bad_usage("--layout: '%s' is not kn, nk or all", val);
        } else if (strcmp(name, "--epilogue") == 0) {
            static const char *const names[] = {"none", "bias_relu", "bias_gelu"};
            static const unsigned flags[] = {
                TILEOPS_EPILOGUE_NONE, TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_RELU,
                TILEOPS_EPILOGUE_BIAS | TILEOPS_EPILOGUE_GELU_TANH};
            const int all = strcmp(val, "all") == 0;
            o->nepilogues = 0;
            for (int e = 0; e < 3; e++)
                if (all || strcmp(val, names[e]) == 0)
                    o->epilogues[o->nepilogues++] = flags[e];
            if (!o->nepilogues)
                return bad_usage("--epilogue: '%s' is not none, bias_relu, bias_gelu or all", val);
        } else if (strcmp(name, "--causal") == 0) {
            const int all = strcmp(val, "all") == 0;
            o->ncausal = 0;
            if (all || strcmp(val, "off") == 0)
                o->causal[o->ncausal++] = 0;
            if (all || strcmp(val, "on") == 0)
                o->causal[o->ncausal++] = 1;
            if (!o->ncausal)
                return bad_usage("--causal: '%s' is not on, off or all", val);
        } else if (strcmp(name, "--mode") == 0) {
            if (strcmp(val, "plain") && strcmp(val, "log"))
                return bad_usage("--mode: '%s' is not plain or log", val);
            o->log = strcmp(val, "log") == 0;
        } else if (strcmp(name, "--window") == 0) {
            if (parse_int(val, 0, INT32_MAX, &v) != 0)
                return bad_usage("--window: '%s' is not an integer in 0..%d", val, INT32_MAX);
            o->window = (int)v;
        } else if (strcmp(name, "--seqlens") == 0) {
            /* L1,L2,...: each >= 1, at most BENCH_MAX_SEQLENS of them, their sum within the
             * call's int offsets */
            const char *at = val;
            int64_t total = 0;
            o->nseqlens = 0;
            while (at && o->nseqlens < BENCH_MAX_SEQLENS) {
                char part[32];
                const char *comma = strchr(at, ',');
                const size_t len = comma ? (size_t)(comma - at) : strlen(at);
                if (len == 0 || len >= sizeof part)
                    break;
                memcpy(part, at, len);
                part[len] = '\0';
                if (parse_int(part, 1, MAX_TOKENS - total, &v) != 0)
                    break;
                total += v;
                o->seqlens[o->nseqlens++] = (int)v;
                at = comma ? comma + 1 : NULL;
            }
            if (at || o->nseqlens == 0)
                return bad_usage("--seqlens: '%s' is not a list of 1 to %d lengths L1,L2,... "
                                 "(each >= 1, at most %d in all)", val, BENCH_MAX_SEQLENS,
                                 MAX_TOKENS);
        } else if (strcmp(name, "--softcap") == 0) {
            char *end;
            const double x = strtod(val, &end);
            if (*end || !(x > 0.0) || x > 1e30)
                return bad_usage("--softcap: '%s' is not a positive number", val);
            o->softcap = x;
        } else if (strcmp(name, "--splits") == 0) {
            if (parse_int(val, 1, TILEOPS_KVCACHE_MAX_SPLITS, &v) != 0)
                return bad_usage("--splits: '%s' is not an integer in 1..%d", val,
                                 TILEOPS_KVCACHE_MAX_SPLITS);
            o->splits = (int)v;
        } else if (strcmp(name, "--offset") == 0) {
            if (parse_int(val, 0, 7, &v) != 0)
                return bad_usage("--offset: '%s' is not an integer in 0..7", val);
            o->offset = (int)v;
        } else if (strcmp(name, "--reps") == 0) {
            if (parse_int(val, MIN_REPS, MAX_REPS, &v) != 0)
                return bad_usage("--reps: '%s' is not an integer in %d..%d", val, MIN_REPS,
                                 MAX_REPS);
            o->reps = (int)v;
        } else if (strcmp(name, "--dtype") == 0) {
            if (bench_parse_dtypes(val, o->dtypes, &o->ndtypes) != 0)
                return bad_usage("--dtype: '%s' is not f32, f16, bf16 or all", val);
        } else if (strcmp(name, "--tier") == 0) {
            if (bench_parse_tiers(val, o->tiers, &o->ntiers) != 0)
                return bad_usage("--tier: '%s' is not auto, sm70, sm80, sm90 or all", val);
        } else if (strcmp(name, "--kernel") == 0) {
            /* names point into the argument, split in place at the commas */
            char *list = (char *)val;
            o->nkernels = 0;
            for (char *at = list, *next; at; at = next) {
                next = strchr(at, ',');
                if (next)
                    *next++ = '\0';
                if (!*at)
                    return bad_usage("--kernel: an empty kernel name");
                if (o->nkernels == BENCH_MAX_KERNELS)
                    return bad_usage("--kernel: more than %d kernels", BENCH_MAX_KERNELS);
                o->kernels[o->nkernels++] = at;
            }
        } else if (strcmp(name, "--prune") == 0) {
            char *end;
            const double f = strtod(val, &end);
            if (end == val || *end || !(f > 1.0 && f < 1e6))
                return bad_usage("--prune: '%s' is not a factor above 1", val);
            o->prune = f;
        } else {
            if (!*val)
                return bad_usage("--csv: '%s' is not a file name", val);
            o->csv = val;
        }
    }
    return 0;
}

/* Makes device 0 current (the library refuses calls whose current device is not the
 * handle's) and describes it on stderr. Returns 0, or -1 (message printed). */
static int open_device(int device)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        fputs("tileops-bench: no CUDA device\n", stderr);
        if (e != cudaSuccess && e != cudaErrorNoDevice)
            bench_error("cudaGetDeviceCount: %s", cudaGetErrorString(e));
        return -1;
    }
    struct cudaDeviceProp prop;
    if (!bench_cuda_ok(cudaSetDevice(device), "cudaSetDevice") ||
        !bench_cuda_ok(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties"))
        return -1;
    bench_error("device %d: %s, compute capability %d.%d, %.1f GiB", device, prop.name,
                prop.major, prop.minor, (double)prop.totalGlobalMem / (1 << 30));
    return 0;
}

/* The operator called name (flash_attention: attention, as tuning cases name it), or NULL. */
static const struct bench_op *find_op(const char *name)
{
    if (strcmp(name, "flash_attention") == 0)
        name = "attention";
    for (int i = 0; i < NOPS; i++)
        if (strcmp(name, ops[i].name) == 0)
            return &ops[i];
    return NULL;
}

/* The API operator op measures, as tuning cases and kernel names spell it. */
static const char *api_name(const struct bench_op *op)
{
    return op->run == bench_attention ? "flash_attention" : op->name;
}

/* op's defaults, then the options argv[first..] give; checked as a whole. 0, -1 (-h: usage
 * printed) or 2 (bad usage, reported). */
static int make_opts(const struct bench_op *op, int argc, char **argv, int first,
                     struct bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->n = op->default_n;
    o->reps = DEFAULT_REPS;
    o->ndtypes = 1;
    o->dtypes[0] = op->default_dtype;
    o->ntiers = 1;
    o->tiers[0] = TILEOPS_TIER_AUTO;
    o->nlayouts = 1;
    o->layouts[0] = TILEOPS_B_NK;
    o->nepilogues = 1;
    o->epilogues[0] = TILEOPS_EPILOGUE_NONE;
    o->window = -1;
    o->ncausal = 2;
    o->causal[0] = 0, o->causal[1] = 1;
    int prc = parse_options(argc, argv, first, o);
    if (prc != 0)
        return prc;
    if (o->shape_dims && op->run == bench_decode && o->shape_dims != 2)
        return bad_usage("--shape: decode takes BxC (batch x cache length)");
    if (o->splits && op->run != bench_decode)
        return bad_usage("--splits is for decode");
    if (o->shape_dims && op->run != bench_decode &&
        (o->shape_dims == 4) != (op->run == bench_attention))
        return bad_usage(op->run == bench_attention
                             ? "--shape: %s takes BxSxHxD (batch x seqlen x heads x head_dim)"
                             : "--shape: BxSxHxD is for attention; %s takes ROWSxCOLS or MxNxK",
                         op->name);
    if (o->nseqlens && op->run != bench_attention)
        return bad_usage("--seqlens is for attention");
    if (o->prune > 0 && !o->measure)
        return bad_usage("--prune goes with --measure");
    return 0;
}

/* tileops-bench cases FILE [OPTIONS]: each line of FILE ("OP OPTIONS", as TUNE_SHAPES holds
 * them; # comments) run in turn in this one process, after a line "case N" (N: the line's
 * number among the cases, from 1), with OPTIONS added to its own. */
static int run_cases(int argc, char **argv, const struct bench_ctx *base_ctx)
{
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        bench_error("cannot read %s", argv[2]);
        return -1;
    }
    static char line[1 << 17]; /* a case may list hundreds of kernels */
    int n = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        char *targv[128];
        int targc = 0;
        targv[targc++] = argv[0];
        for (char *t = strtok(line, " "); t && targc < 96; t = strtok(NULL, " "))
            targv[targc++] = t;
        for (int i = 3; i < argc && targc < 127; i++)
            targv[targc++] = argv[i];
        targv[targc] = NULL;
        const struct bench_op *op = targc > 1 ? find_op(targv[1]) : NULL;
        struct bench_opts o;
        printf("case %d\n", ++n);
        fflush(stdout);
        if (!op || op->run == bench_cases_marker || make_opts(op, targc, targv, 2, &o) != 0) {
            bench_error("%s: case %d: not an operator with valid options", argv[2], n);
            rc = -1;
            continue;
        }
        struct bench_ctx ctx = *base_ctx;
        ctx.opts = &o;
        ctx.op_prefix = api_name(op);
        ctx.timer->prune = o.prune;
        if (op->run(&ctx) != 0)
            rc = -1;
    }
    fclose(f);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return bad_usage("no operator given");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    const struct bench_op *op = find_op(argv[1]);
    if (!op)
        return bad_usage("unknown operator '%s'", argv[1]);
    const int cases = op->run == bench_cases_marker;
    if (cases && argc < 3)
        return bad_usage("cases needs a file of cases");

    /* cases: the options after FILE are checked against a case-less vector_add */
    struct bench_opts opts;
    int prc = make_opts(cases ? find_op("vector_add") : op, argc, argv, cases ? 3 : 2, &opts);
    if (prc != 0)
        return prc < 0 ? 0 : prc;
    const int device = 0;
    if (open_device(device) != 0)
        return 1;
    cudaStream_t stream = NULL;
    struct bench_timer timer;
    memset(&timer, 0, sizeof timer);
    int rc = 1;
    /* Non-blocking: nothing on the legacy default stream can slip in between timed reps. */
    if (!bench_cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                       "cudaStreamCreateWithFlags"))
        return 1;
    if (bench_timer_init(&timer, stream, opts.reps) != 0)
        goto out;
    timer.prune = opts.prune;
    struct bench_ctx ctx = {&opts, api_name(op), device, stream, &timer};
    if ((cases ? run_cases(argc, argv, &ctx) : op->run(&ctx)) == 0)
        rc = 0;
out:
    bench_timer_destroy(&timer);
    if (!bench_cuda_ok(cudaStreamDestroy(stream), "cudaStreamDestroy"))
        rc = 1;
    return rc;
}
