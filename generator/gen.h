/* gen.h: tileops-gen's data model, shared by the spec loader, the expander and the emitter.
 *
 * A spec (specs/<op>.lua) declares an operator, its variant axes (dtype and named choices such
 * as mode = plain | log), the template per
 * tier, its tuning axes, constraints and default configurations. Loading and expanding it
 * yields a flat list of instances; emitting writes them as CUDA, a registry and a manifest. */
#ifndef TILEOPS_GEN_H
#define TILEOPS_GEN_H

#include <stddef.h>
#include <stdio.h>

#define GEN_TIERS 3      /* sm70, sm80, sm90 */
#define GEN_DTYPES 3     /* f32, f16, bf16 */
#define GEN_MAX_AXES 8   /* tuning axes per spec */
#define GEN_MAX_VARIANTS 4 /* variant axes besides dtype, per spec */
#define GEN_MAX_CHOICES 8  /* values per variant axis */
#define GEN_MAX_VALUES 32 /* values per tuning axis */
#define GEN_NAME 160     /* longest instance name */
#define GEN_ERR 512      /* longest error message */
#define GEN_MAX_INSTANCES 65536 /* instances per spec (--all included) */
#define GEN_MAX_TUNE 256 /* tune_shapes cases per spec */
#define GEN_TUNE_LEN 160 /* longest case, as tileops-bench options */

/* A spec's run is limited (gen_options can lower or raise each; 0 takes these): */
#define GEN_MAX_INSTRUCTIONS 200000000LL /* Lua instructions, constraints included */
#define GEN_MAX_MEMORY (256u << 20)      /* bytes the spec's Lua state may hold */
#define GEN_MAX_SECONDS 30.0             /* CPU time, for work done inside C functions */

/* An architecture tier as the generator knows it (the constraint functions see these). */
struct gen_tier {
    const char *name;  /* "sm80" */
    int cc;            /* 80 */
    int smem_limit;    /* opt-in shared memory per block on the tier's largest device, bytes */
    const char *compiled; /* how the Makefile compiles it, for the file header */
};

/* An element type. */
struct gen_dtype {
    const char *name;  /* "bf16" */
    const char *ctype; /* "__nv_bfloat16" */
    const char *enumerator; /* "TILEOPS_BF16" */
    int bytes;
};

extern const struct gen_tier gen_tiers[GEN_TIERS];
extern const struct gen_dtype gen_dtypes[GEN_DTYPES];

/* A tuning axis: `tune "threads" { 128, 256, tag = "t" }`. */
struct gen_axis {
    char name[32];
    char tag[8];
    int count;
    int values[GEN_MAX_VALUES];
};

/* A variant axis besides dtype: `variant "mode" { "plain", "log" }`, optionally with a name
 * tag: `variant "head_dim" { "64", "128", tag = "d" }`. Every value is compiled (variants are
 * what a call asks for, not what tuning picks). */
struct gen_variant {
    char name[32];
    char tag[8];       /* prefixes the value in instance names ("d": d128); "" for none */
    int count;
    char values[GEN_MAX_CHOICES][16];
};

/* One kernel to emit. */
struct gen_instance {
    char name[GEN_NAME];
    int tier;                      /* index into gen_tiers */
    int dtype;                     /* index into gen_dtypes */
    int var[GEN_MAX_VARIANTS];     /* value index per variant axis, in declaration order */
    int variant;                   /* the registry's code: sum of var[i] * stride of axis i */
    int params[GEN_MAX_AXES];      /* in the spec's tuning-axis order */
    int align;                     /* bytes every pointer must be aligned to */
    int smem;                      /* dynamic shared memory, bytes */
    int table_only;                /* joined from a tuning table, not a default */
};

/* A loaded and expanded spec. */
struct gen_spec {
    char path[256];                 /* as given, e.g. "specs/vector_add.lua" */
    int op_line;                    /* the line of `operator "…"`, for messages */
    char op[32];
    char serves[32];                /* the API operator its kernels serve; op unless declared */
    char doc[256];
    char templ[GEN_TIERS][64];      /* template per tier, "" where the tier is not declared */
    int has_smem;                   /* the operator declares smem: emit SMEM_BYTES */
    int nvars;
    struct gen_variant vars[GEN_MAX_VARIANTS];
    int naxes;
    struct gen_axis axes[GEN_MAX_AXES];
    int ninst;
    struct gen_instance *inst;
    int ntune;                      /* tune_shapes: the cases tileops-tune times */
    char tune[GEN_MAX_TUNE][GEN_TUNE_LEN];
};

/* One entry of a tuning table (specs/tuned/<gpu>.lua): the kernel for the bucket of calls
 * that (op, dtype, variant, class, dims) falls in, or (exact) for that shape alone. */
struct gen_tuned_entry {
    int line;
    int op;                 /* enum tileops_op of the API operator */
    int spec;               /* a spec serving it (its variant axes name the variant) */
    int dtype;              /* index into gen_dtypes */
    int variant;            /* the registry's variant code */
    int cls;                /* the class's index (tune_key.h) */
    long long dims[3];      /* unused ones 0 */
    int exact;
    char kernel[GEN_NAME];
    unsigned long long key; /* tileops__tune_key */
};

/* A loaded tuning table. */
struct gen_tuned {
    char path[256];
    char name[128];         /* the GPU's name */
    int cc, sms;
    int naliases;
    int aliases[16][2];
    int n;
    struct gen_tuned_entry *e; /* sorted by (key, dims): a bucket's entry before its shapes */
};

struct gen_options {
    const char *out_dir;   /* where to write: absent, empty, or a tree tileops-gen wrote (it
                            * has a MANIFEST), replaced whole; NULL with list */
    const char *templates; /* template folder, e.g. "generator/templates" */
    int all;               /* emit the whole pruned tuning space, not the defaults */
    int near;              /* emit the defaults and each surviving configuration one tuning
                            * axis away from one (the space make tune times) */
    int list;              /* print the instances, write nothing */
    int verbose;           /* say why each pruned configuration was dropped */
    FILE *log;             /* where -v and --list write */
    long long max_instructions; /* per spec; 0: GEN_MAX_INSTRUCTIONS */
    size_t max_memory;          /* per spec, bytes; 0: GEN_MAX_MEMORY */
    double max_seconds;         /* per spec, CPU seconds; 0: GEN_MAX_SECONDS */
    const char *const *tuned;   /* tuning tables to read (specs/tuned/<gpu>.lua) */
    int ntuned;
};

/* spec.c: loads, validates and expands one spec. Returns 0, or -1 with the message in err
 * ("specs/x.lua:12: unknown dtype 'fp8' …"). */
int gen_spec_load(const char *path, const struct gen_options *opt, struct gen_spec *spec,
                  char *err, size_t errlen);
void gen_spec_free(struct gen_spec *spec);

/* tuned.c: loads one tuning table and checks it against the loaded specs: every field, no two
 * entries for one bucket or shape, each kernel an instance of a spec serving the entry's
 * operator with its dtype and variant. A kernel outside specs' instances (the defaults) but in
 * the spec's whole pruned space is appended to that spec's instances: the release library
 * holds every committed winner. Returns 0, or -1 with "path:line: why" in err. */
int gen_tuned_load(const char *path, struct gen_spec *specs, int nspecs,
                   const struct gen_options *opt, struct gen_tuned *t, char *err, size_t errlen);
void gen_tuned_free(struct gen_tuned *t);

/* emit.c: writes every spec's instances under opt->out_dir, all or nothing, one run at a
 * time (runs into one folder take turns through the lock file <out_dir>.lock). */
int gen_emit(const struct gen_spec *specs, int nspecs, const struct gen_tuned *tables,
             int ntables, const struct gen_options *opt, char *err, size_t errlen);

/* gen.c: the whole run: load every spec (in sorted order), then list or emit. */
int gen_run(const char *const *paths, int npaths, const struct gen_options *opt, char *err,
            size_t errlen);

#endif
