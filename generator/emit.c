/* emit.c: writes the expanded specs as CUDA sources (one file per tier × operator × dtype),
 * a registry per tier, a manifest and the source lists the Makefile includes.
 *
 * All or nothing: the tree is written to a sibling folder and swapped in by one rename, so
 * the output folder is never half-written. Files whose bytes did not change keep their old
 * inode and mtime, so make recompiles only what a spec change touched. */
#include "gen.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a growable text buffer ------------------------------------------------------------- */

struct buf {
    char *p;
    size_t len, cap;
    int oom;
};

static void bprintf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

/* ---- files ------------------------------------------------------------------------------ */

struct out {
    const char *dir;   /* the final folder, e.g. "generated" */
    char tmp[512];     /* where this run writes, e.g. "generated.tmp" */
    char *err;
    size_t errlen;
};

static int fail(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->err, o->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Does the file at path hold exactly these bytes? */
static int same_bytes(const char *path, const struct buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int same = 1;
    char chunk[8192];
    size_t off = 0, n;
    while (same && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        same = off + n <= b->len && memcmp(chunk, b->p + off, n) == 0;
        off += n;
    }
    fclose(f);
    return same && off == b->len;
}

/* Writes rel (e.g. "sm80/registry.c") into the temporary tree; if the live tree already holds
 * the same bytes, links that file instead so it keeps its mtime. */
static int write_file(struct out *o, const char *rel, struct buf *b)
{
    char path[1024], old[1024];
    if (b->oom)
        return fail(o, "out of memory while formatting %s", rel);
    snprintf(path, sizeof path, "%s/%s", o->tmp, rel);
    snprintf(old, sizeof old, "%s/%s", o->dir, rel);
    char *slash = strrchr(path, '/');
    *slash = 0;
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return fail(o, "cannot create %s: %s", path, strerror(errno));
    *slash = '/';
    if (same_bytes(old, b) && link(old, path) == 0)
        return 0;
    FILE *f = fopen(path, "wb");
    if (!f)
        return fail(o, "cannot write %s: %s", path, strerror(errno));
    size_t n = fwrite(b->p, 1, b->len, f);
    if (fclose(f) != 0 || n != b->len)
        return fail(o, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- the pieces ------------------------------------------------------------------------- */

/* "mode=log threads=256 warps=8": the variant values, then the tuning configuration. */
static void format_config(const struct gen_spec *s, const struct gen_instance *in, char *out,
                          size_t len)
{
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < s->nvars && n < len; i++)
        n += (size_t)snprintf(out + n, len - n, "%s=%s ", s->vars[i].name,
                              s->vars[i].values[in->var[i]]);
    for (int i = 0; i < s->naxes && n < len; i++)
        n += (size_t)snprintf(out + n, len - n, "%s%s=%d", i ? " " : "", s->axes[i].name,
                              in->params[i]);
}

static void upper(const char *in, char *out, size_t len)
{
    size_t i = 0;
    for (; in[i] && i + 1 < len; i++)
        out[i] = (in[i] >= 'a' && in[i] <= 'z') ? (char)(in[i] - 'a' + 'A') : in[i];
    out[i] = 0;
}

/* One .cu file: every instance of one operator for one tier and dtype, each its configuration
 * as constexpr values and an #include of the template inside a namespace of its own, so a
 * template edit changes no generated file (the Makefile adds -I for the template folder). */
static int emit_kernel_file(struct out *o, const struct gen_spec *s, int t, int d)
{
    struct buf b = {0};
    char rel[256], cfg[256], up[64];
    int n = 0, rc;
    for (int i = 0; i < s->ninst; i++)
        n += s->inst[i].tier == t && s->inst[i].dtype == d;
    if (!n)
        return 0;

    bprintf(&b, "// Generated by tileops-gen from %s; template %s.cu.\n", s->path, s->templ[t]);
    bprintf(&b, "// Do not edit: edit those and run `make regen`.\n//\n");
    bprintf(&b, "// operator: %s: %s\n", s->op, s->doc);
    if (strcmp(s->serves, s->op) != 0)
        bprintf(&b, "// serves:   %s (dispatch weighs these beside that spec's kernels)\n",
                s->serves);
    bprintf(&b, "// tier:     %s: %s\n", gen_tiers[t].name, gen_tiers[t].compiled);
    bprintf(&b, "// variant:  dtype=%s", gen_dtypes[d].name);
    for (int v = 0; v < s->nvars; v++) {
        bprintf(&b, ", %s in {", s->vars[v].name);
        for (int c = 0; c < s->vars[v].count; c++)
            bprintf(&b, "%s%s", c ? ", " : "", s->vars[v].values[c]);
        bprintf(&b, "}");
    }
    bprintf(&b, "\n");
    bprintf(&b, "// instances (%d), in dispatch preference order:\n", n);
    for (int i = 0; i < s->ninst; i++) {
        const struct gen_instance *in = &s->inst[i];
        if (in->tier != t || in->dtype != d)
            continue;
        format_config(s, in, cfg, sizeof cfg);
        bprintf(&b, "//   %s: %s; pointers aligned to %d bytes; %d bytes of dynamic smem\n",
                in->name, cfg, in->align, in->smem);
    }
    bprintf(&b, "//\n// Each instance is its configuration as constexpr values and the template,\n"
                "// included in a namespace of its own, with the extern \"C\" <name>_launch and\n"
                "// <name>_fit that the tier's registry.c lists.\n\n");
    bprintf(&b, "#include \"tileops_device.cuh\"\n");

    for (int i = 0; i < s->ninst; i++) {
        const struct gen_instance *in = &s->inst[i];
        if (in->tier != t || in->dtype != d)
            continue;
        format_config(s, in, cfg, sizeof cfg);
        bprintf(&b, "\nnamespace %s {\n// configuration: dtype=%s %s\n", in->name,
                gen_dtypes[d].name, cfg);
        bprintf(&b, "typedef %s elem_t;\n", gen_dtypes[d].ctype);
        for (int v = 0; v < s->nvars; v++) {
            char uv[64];
            upper(s->vars[v].name, up, sizeof up);
            bprintf(&b, "enum { ");
            for (int c = 0; c < s->vars[v].count; c++) {
                upper(s->vars[v].values[c], uv, sizeof uv);
                bprintf(&b, "%s%s_%s = %d", c ? ", " : "", up, uv, c);
            }
            bprintf(&b, " };\n");
            upper(s->vars[v].values[in->var[v]], uv, sizeof uv);
            bprintf(&b, "constexpr int %s = %s_%s;\n", up, up, uv);
        }
        for (int a = 0; a < s->naxes; a++) {
            upper(s->axes[a].name, up, sizeof up);
            bprintf(&b, "constexpr int %s = %d;\n", up, in->params[a]);
        }
        if (s->has_smem)
            bprintf(&b, "constexpr int SMEM_BYTES = %d;\n", in->smem);
        bprintf(&b, "#include \"%s.cu\"\n}  // namespace %s\n", s->templ[t], in->name);
        bprintf(&b, "extern \"C\" int %s_launch(const void *args, cudaStream_t stream)\n{\n"
                    "    return %s::launch(args, stream);\n}\n",
                in->name, in->name);
        bprintf(&b, "extern \"C\" int64_t %s_fit(const void *args, size_t *workspace)\n{\n"
                    "    return %s::fit(args, workspace);\n}\n",
                in->name, in->name);
    }
    snprintf(rel, sizeof rel, "%s/%s_%s.cu", gen_tiers[t].name, s->op, gen_dtypes[d].name);
    rc = write_file(o, rel, &b);
    free(b.p);
    return rc;
}

/* The registry of one tier: every instance of every operator, in preference order. */
static int emit_registry(struct out *o, const struct gen_spec *specs, int nspecs, int t)
{
    struct buf b = {0};
    char rel[64], cfg[256], up[64];
    const char *tn = gen_tiers[t].name;
    int n = 0;
    bprintf(&b, "/* Generated by tileops-gen. Do not edit: edit specs/ and run `make regen`.\n"
                " * The %s tier's kernel registry: one descriptor per instance, in dispatch\n"
                " * preference order within each operator and dtype (libops/registry.h). */\n",
            tn);
    bprintf(&b, "#include \"registry.h\"\n#include \"tileops.h\"\n\n");
    for (int k = 0; k < nspecs; k++)
        for (int i = 0; i < specs[k].ninst; i++)
            if (specs[k].inst[i].tier == t)
                bprintf(&b, "int %s_launch(const void *args, struct CUstream_st *stream);\n"
                            "int64_t %s_fit(const void *args, size_t *workspace);\n",
                        specs[k].inst[i].name, specs[k].inst[i].name);
    bprintf(&b, "\nconst struct tileops_kernel tileops_registry_%s[] = {\n", tn);
    for (int k = 0; k < nspecs; k++) {
        upper(specs[k].serves, up, sizeof up);
        for (int i = 0; i < specs[k].ninst; i++) {
            const struct gen_instance *in = &specs[k].inst[i];
            if (in->tier != t)
                continue;
            format_config(&specs[k], in, cfg, sizeof cfg);
            bprintf(&b, "    {\"%s\", TILEOPS_OP_%s, %d, %s, %d, %d, %d, \"%s\",\n     %s_launch, "
                        "%s_fit},\n",
                    in->name, up, gen_tiers[t].cc, gen_dtypes[in->dtype].enumerator,
                    in->variant, in->align, in->smem, cfg, in->name, in->name);
            n++;
        }
    }
    if (!n)
        bprintf(&b, "    {0}, /* this tier has no kernels: C needs one element */\n");
    bprintf(&b, "};\n\nconst int tileops_registry_%s_count = %d;\n", tn, n);
    snprintf(rel, sizeof rel, "%s/registry.c", tn);
    int rc = write_file(o, rel, &b);
    free(b.p);
    return rc;
}

/* variants.h: the registry's variant code of every value of every variant axis. A call's
 * code is the sum of one value's code per axis of its operator. */
static int emit_variants(struct out *o, const struct gen_spec *specs, int nspecs)
{
    struct buf b = {0};
    char op[64], ax[64], val[64];
    bprintf(&b, "/* Generated by tileops-gen. Do not edit: edit specs/ and run `make regen`.\n"
                " * Variant codes: a registry entry's variant field is the sum of one code per\n"
                " * variant axis of its operator (dtype has its own field). */\n"
                "#ifndef TILEOPS_VARIANTS_H\n#define TILEOPS_VARIANTS_H\n");
    for (int k = 0; k < nspecs; k++) {
        const struct gen_spec *s = &specs[k];
        int first = 1; /* specs serving one operator share its codes: write them once */
        for (int j = 0; j < k; j++)
            first &= strcmp(specs[j].serves, s->serves) != 0;
        if (!first)
            continue;
        upper(s->serves, op, sizeof op);
        for (int v = 0, stride = 1; v < s->nvars; stride *= s->vars[v++].count) {
            upper(s->vars[v].name, ax, sizeof ax);
            bprintf(&b, "\n/* %s: variant '%s' */\n", s->path, s->vars[v].name);
            for (int c = 0; c < s->vars[v].count; c++) {
                upper(s->vars[v].values[c], val, sizeof val);
                bprintf(&b, "#define TILEOPS_%s_%s_%s %d\n", op, ax, val, c * stride);
            }
        }
    }
    bprintf(&b, "\n#endif\n");
    int rc = write_file(o, "variants.h", &b);
    free(b.p);
    return rc;
}

/* MANIFEST (every instance, one per line) and sources.mk (each tier's files for make). */
static int emit_lists(struct out *o, const struct gen_spec *specs, int nspecs)
{
    struct buf m = {0}, mk = {0};
    char cfg[256];
    bprintf(&m, "# Generated by tileops-gen. Do not edit. Every kernel instance, one per line:\n"
                "# name tier dtype align smem file config\n");
    bprintf(&mk, "# Generated by tileops-gen. Do not edit. Each tier's sources, relative to the\n"
                 "# generated folder; the Makefile compiles them for that tier only.\n");
    for (int t = 0; t < GEN_TIERS; t++) {
        bprintf(&mk, "TILEOPS_GEN_%s := %s/registry.c", gen_tiers[t].name, gen_tiers[t].name);
        for (int k = 0; k < nspecs; k++)
            for (int d = 0; d < GEN_DTYPES; d++) {
                int any = 0;
                for (int i = 0; i < specs[k].ninst; i++) {
                    const struct gen_instance *in = &specs[k].inst[i];
                    if (in->tier != t || in->dtype != d)
                        continue;
                    format_config(&specs[k], in, cfg, sizeof cfg);
                    bprintf(&m, "%s %s %s %d %d %s/%s_%s.cu %s\n", in->name, gen_tiers[t].name,
                            gen_dtypes[d].name, in->align, in->smem, gen_tiers[t].name,
                            specs[k].op, gen_dtypes[d].name, cfg);
                    any = 1;
                }
                if (any)
                    bprintf(&mk, " \\\n    %s/%s_%s.cu", gen_tiers[t].name, specs[k].op,
                            gen_dtypes[d].name);
            }
        bprintf(&mk, "\n");
    }
    int rc = write_file(o, "MANIFEST", &m);
    if (rc == 0)
        rc = write_file(o, "sources.mk", &mk);
    free(m.p);
    free(mk.p);
    return rc;
}

/* ---- the swap --------------------------------------------------------------------------- */

/* Puts the finished temporary tree in place of the live one with one atomic exchange. */
static int swap_in(struct out *o)
{
    struct stat st;
    if (stat(o->dir, &st) != 0) {
        if (rename(o->tmp, o->dir) != 0)
            return fail(o, "cannot rename %s to %s: %s", o->tmp, o->dir, strerror(errno));
        return 0;
    }
    if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->dir, RENAME_EXCHANGE) != 0)
        return fail(o, "cannot swap %s into %s: %s", o->tmp, o->dir, strerror(errno));
    remove_tree(o->tmp); /* now the old tree */
    return 0;
}

int gen_emit(const struct gen_spec *specs, int nspecs, const struct gen_options *opt,
             char *err, size_t errlen)
{
    struct out o = {opt->out_dir, "", err, errlen};
    size_t len = strlen(o.dir);
    while (len > 1 && o.dir[len - 1] == '/')
        len--;
    snprintf(o.tmp, sizeof o.tmp, "%.*s.tmp", (int)len, o.dir);
    remove_tree(o.tmp); /* left by a run that was killed */
    if (mkdir(o.tmp, 0777) != 0)
        return fail(&o, "cannot create %s: %s", o.tmp, strerror(errno));

    int rc = 0;
    for (int t = 0; t < GEN_TIERS && rc == 0; t++) {
        for (int k = 0; k < nspecs && rc == 0; k++)
            for (int d = 0; d < GEN_DTYPES && rc == 0; d++)
                rc = emit_kernel_file(&o, &specs[k], t, d);
        if (rc == 0)
            rc = emit_registry(&o, specs, nspecs, t);
    }
    if (rc == 0)
        rc = emit_lists(&o, specs, nspecs);
    if (rc == 0)
        rc = emit_variants(&o, specs, nspecs);
    if (rc == 0)
        rc = swap_in(&o);
    if (rc != 0)
        remove_tree(o.tmp);
    return rc;
}
