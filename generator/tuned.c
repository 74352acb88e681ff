/* tuned.c: loads a tuning table (specs/tuned/<gpu>.lua, written by tileops-tune) and checks it
 * against the specs. A table is data: it runs in a Lua state with no library at all, only its
 * two constructors, under an instruction and a memory budget.
 *
 *   gpu { name = "NVIDIA H200", cc = 90, sms = 132, aliases = { { cc = 90, sms = 132 } }, … }
 *   entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
 *           m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_…", us = 171.2, … }
 */
#include "gen.h"

#include "tileops.h"
#include "tune_key.h"

#include <lauxlib.h>
#include <lua.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TABLE_BYTES (16 << 20)
#define MAX_ENTRIES 100000
#define MAX_INSNS 100000000L
#define MEM_LIMIT ((size_t)256 << 20)
#define HOOK_STEP 1000

static const int dtype_enum[GEN_DTYPES] = {TILEOPS_F32, TILEOPS_F16, TILEOPS_BF16};

struct loader {
    struct gen_tuned *t;
    struct gen_spec *specs;
    int nspecs;
    const char *path;
    int gpu_line;
    long insns;
    size_t mem;
    int cap;
};

static struct loader *get_loader(lua_State *L)
{
    return *(struct loader **)lua_getextraspace(L);
}

/* The line of the table's statement being run (the Lua caller of a constructor). */
static int caller_line(lua_State *L)
{
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar) && ar.currentline > 0)
        return ar.currentline;
    return 1;
}

static int fail(lua_State *L, const char *fmt, ...)
{
    char msg[GEN_ERR];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* lua_error, not luaL_error: the position is ours, not prefixed twice */
    lua_pushfstring(L, "%s:%d: %s", get_loader(L)->path, caller_line(L), msg);
    return lua_error(L);
}

/* Rejects a field of the table at index 1 that is not in `allowed` (NULL-terminated). */
static void check_fields(lua_State *L, const char *what, const char *const *allowed,
                         const struct tileops_tune_op *op)
{
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            fail(L, "%s: fields are named (key = value); found a %s key", what,
                 luaL_typename(L, -1));
        const char *k = lua_tostring(L, -1);
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = strcmp(k, allowed[i]) == 0;
        for (int i = 0; op && i < op->ndims && !ok; i++)
            ok = strcmp(k, op->dims[i]) == 0;
        if (!ok)
            fail(L, "%s: unknown field '%s'", what, k);
    }
}

/* Field `name` of the table at index 1 as a string; NULL if absent (error if required). */
static const char *str_field(lua_State *L, const char *what, const char *name, int required)
{
    int type = lua_getfield(L, 1, name);
    const char *s = NULL;
    if (type == LUA_TSTRING)
        s = lua_tostring(L, -1);
    else if (type != LUA_TNIL || required)
        fail(L, "%s: %s must be a string, got %s", what, name, lua_typename(L, type));
    lua_pop(L, 1); /* the table still holds the string */
    if (s && !*s)
        fail(L, "%s: %s is empty", what, name);
    return s;
}

/* Field `name` of the table at index idx as an integer in [lo, hi]; `dflt` if absent and not
 * required. */
static long long int_field_at(lua_State *L, int idx, const char *what, const char *name,
                              int required, long long lo, long long hi, long long dflt)
{
    int type = lua_getfield(L, idx, name);
    long long v = dflt;
    if (type == LUA_TNIL && !required) {
        lua_pop(L, 1);
        return v;
    }
    if (!lua_isinteger(L, -1))
        fail(L, "%s: %s must be an integer, got %s", what, name,
             type == LUA_TNUMBER ? "a fraction" : lua_typename(L, type));
    v = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (v < lo || v > hi)
        fail(L, "%s: %s = %lld is not in %lld..%lld", what, name, v, lo, hi);
    return v;
}

static void number_field(lua_State *L, const char *what, const char *name)
{
    int type = lua_getfield(L, 1, name);
    if (type != LUA_TNIL && (type != LUA_TNUMBER || !(lua_tonumber(L, -1) >= 0)))
        fail(L, "%s: %s must be a number >= 0", what, name);
    lua_pop(L, 1);
}

static int decl_gpu(lua_State *L)
{
    struct loader *ld = get_loader(L);
    struct gen_tuned *t = ld->t;
    static const char *const allowed[] = {"name", "cc", "sms", "aliases", "l2_bytes",
                                          "memory_clock_khz", "memory_bus_bits", "driver",
                                          "runtime", "commit", "date", NULL};
    if (ld->gpu_line)
        fail(L, "gpu declared twice (first at line %d)", ld->gpu_line);
    if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TTABLE)
        fail(L, "gpu takes one table: gpu { name = …, cc = …, sms = … }");
    ld->gpu_line = caller_line(L);
    check_fields(L, "gpu", allowed, NULL);
    const char *name = str_field(L, "gpu", "name", 1);
    if (strlen(name) >= sizeof t->name)
        fail(L, "gpu: name is longer than %d bytes", (int)sizeof t->name - 1);
    for (const char *c = name; *c; c++)
        if (*c < ' ' || *c > '~' || *c == '"' || *c == '\\')
            fail(L, "gpu: name may hold printable ASCII but no quote or backslash");
    snprintf(t->name, sizeof t->name, "%s", name);
    t->cc = (int)int_field_at(L, 1, "gpu", "cc", 1, 10, 199, 0);
    t->sms = (int)int_field_at(L, 1, "gpu", "sms", 1, 1, 100000, 0);
    for (int i = 0; allowed[i]; i++)
        if (strcmp(allowed[i], "commit") == 0 || strcmp(allowed[i], "date") == 0)
            str_field(L, "gpu", allowed[i], 0);
        else if (i >= 4)
            int_field_at(L, 1, "gpu", allowed[i], 0, 0, 1LL << 62, 0);
    int type = lua_getfield(L, 1, "aliases");
    if (type != LUA_TNIL) {
        if (type != LUA_TTABLE)
            fail(L, "gpu: aliases must be a list of { cc = …, sms = … }");
        const int n = (int)luaL_len(L, -1);
        if (n > (int)(sizeof t->aliases / sizeof t->aliases[0]))
            fail(L, "gpu: more than %d aliases", (int)(sizeof t->aliases / sizeof t->aliases[0]));
        for (int i = 1; i <= n; i++) {
            if (lua_geti(L, -1, i) != LUA_TTABLE)
                fail(L, "gpu: alias %d is not a { cc = …, sms = … } table", i);
            const int at = lua_gettop(L);
            t->aliases[t->naliases][0] = (int)int_field_at(L, at, "gpu alias", "cc", 1, 10, 199, 0);
            t->aliases[t->naliases][1] =
                (int)int_field_at(L, at, "gpu alias", "sms", 1, 1, 100000, 0);
            t->naliases++;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    return 0;
}

/* The registry's variant code of the entry's `variant` table, against spec s's axes. */
static int read_variant(lua_State *L, const struct gen_spec *s)
{
    int type = lua_getfield(L, 1, "variant");
    if (type == LUA_TNIL && s->nvars == 0) {
        lua_pop(L, 1);
        return 0;
    }
    if (type != LUA_TTABLE)
        fail(L, "entry: variant must be a table of %s's variant axes ({ %s = \"%s\", … })",
             s->serves, s->nvars ? s->vars[0].name : "axis", s->nvars ? s->vars[0].values[0] : "");
    const int at = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, at)) {
        lua_pop(L, 1);
        int found = 0;
        for (int v = 0; v < s->nvars && !found; v++)
            found = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), s->vars[v].name) == 0;
        if (!found)
            fail(L, "entry: variant: %s has no variant axis '%s'", s->serves,
                 lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
    }
    int code = 0;
    for (int v = 0, stride = 1; v < s->nvars; stride *= s->vars[v++].count) {
        const struct gen_variant *ax = &s->vars[v];
        const int vt = lua_getfield(L, at, ax->name);
        const char *val = vt == LUA_TSTRING || vt == LUA_TNUMBER ? lua_tostring(L, -1) : NULL;
        int idx = -1;
        for (int c = 0; val && c < ax->count; c++)
            if (strcmp(val, ax->values[c]) == 0)
                idx = c;
        if (idx < 0)
            fail(L, "entry: variant: %s = %s is not one of %s's values", ax->name,
                 val ? val : lua_typename(L, vt), ax->name);
        lua_pop(L, 1);
        code += idx * stride;
    }
    lua_pop(L, 1);
    return code;
}

static int decl_entry(lua_State *L)
{
    struct loader *ld = get_loader(L);
    struct gen_tuned *t = ld->t;
    static const char *const allowed[] = {"op", "dtype", "variant", "class", "exact", "kernel",
                                          "us", "noise", "runner_up", "runner_up_us",
                                          "untuned", "untuned_us", NULL};
    if (!ld->gpu_line)
        fail(L, "entry before gpu { … }: a table starts with the GPU it was measured on");
    if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TTABLE)
        fail(L, "entry takes one table: entry { op = …, dtype = …, kernel = …, … }");
    if (t->n == MAX_ENTRIES)
        fail(L, "more than %d entries", MAX_ENTRIES);
    const char *opname = str_field(L, "entry", "op", 1);
    const struct tileops_tune_op *op = tileops__tune_op(opname);
    if (!op)
        fail(L, "entry: op '%s' is not an operator tables cover (vector_add, softmax, gemm, "
             "flash_attention)", opname);
    check_fields(L, "entry", allowed, op);
    struct gen_tuned_entry e;
    memset(&e, 0, sizeof e);
    e.line = caller_line(L);
    e.op = op->op;
    e.spec = -1;
    for (int k = 0; k < ld->nspecs && e.spec < 0; k++)
        if (strcmp(ld->specs[k].serves, opname) == 0)
            e.spec = k;
    if (e.spec < 0)
        fail(L, "entry: no spec given to tileops-gen serves '%s'", opname);
    const char *dt = str_field(L, "entry", "dtype", 1);
    e.dtype = -1;
    for (int d = 0; d < GEN_DTYPES; d++)
        if (strcmp(dt, gen_dtypes[d].name) == 0)
            e.dtype = d;
    if (e.dtype < 0)
        fail(L, "entry: dtype '%s' is not f32, f16 or bf16", dt);
    e.variant = read_variant(L, &ld->specs[e.spec]);
    const char *cls = str_field(L, "entry", "class", 0);
    for (int c = 0; cls && c < op->nclasses && !e.cls; c++)
        e.cls = strcmp(cls, op->classes[c]) == 0 ? c : 0;
    if (cls && strcmp(cls, op->classes[e.cls]) != 0)
        fail(L, "entry: class '%s' is not one of %s's (%s%s%s%s%s%s%s)", cls, opname,
             op->classes[0], op->nclasses > 1 ? ", " : "", op->nclasses > 1 ? op->classes[1] : "",
             op->nclasses > 2 ? ", " : "", op->nclasses > 2 ? op->classes[2] : "",
             op->nclasses > 3 ? ", " : "", op->nclasses > 3 ? op->classes[3] : "");
    for (int i = 0; i < op->ndims; i++)
        e.dims[i] = int_field_at(L, 1, "entry", op->dims[i], 1, 1, 1LL << 50, 0);
    int type = lua_getfield(L, 1, "exact");
    if (type != LUA_TNIL && type != LUA_TBOOLEAN)
        fail(L, "entry: exact must be true or false");
    e.exact = lua_toboolean(L, -1);
    lua_pop(L, 1);
    const char *kernel = str_field(L, "entry", "kernel", 1);
    if (strlen(kernel) >= sizeof e.kernel)
        fail(L, "entry: kernel name is longer than %d bytes", (int)sizeof e.kernel - 1);
    snprintf(e.kernel, sizeof e.kernel, "%s", kernel);
    str_field(L, "entry", "runner_up", 0);
    str_field(L, "entry", "untuned", 0);
    number_field(L, "entry", "us");
    number_field(L, "entry", "noise");
    number_field(L, "entry", "runner_up_us");
    number_field(L, "entry", "untuned_us");
    const int64_t dims[3] = {e.dims[0], e.dims[1], e.dims[2]};
    e.key = tileops__tune_key(op->op, dtype_enum[e.dtype], e.variant, e.cls, dims);
    if (t->n == ld->cap) {
        int cap = ld->cap ? 2 * ld->cap : 64;
        struct gen_tuned_entry *p = realloc(t->e, (size_t)cap * sizeof *p);
        if (!p)
            fail(L, "out of memory");
        t->e = p;
        ld->cap = cap;
    }
    t->e[t->n++] = e;
    return 0;
}

static void hook(lua_State *L, lua_Debug *ar)
{
    struct loader *ld = get_loader(L);
    ld->insns += HOOK_STEP;
    if (ld->insns > MAX_INSNS) {
        lua_getinfo(L, "l", ar);
        lua_pushfstring(L, "%s:%d: the table runs too long (more than %d instructions)", ld->path,
                        ar->currentline > 0 ? ar->currentline : 1, (int)MAX_INSNS);
        lua_error(L);
    }
}

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct loader *ld = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        ld->mem -= old;
        return NULL;
    }
    if (nsize > old && nsize - old > MEM_LIMIT - ld->mem)
        return NULL;
    void *p = realloc(ptr, nsize);
    if (p)
        ld->mem = ld->mem - old + nsize;
    return p;
}

static int run_table(lua_State *L)
{
    struct loader *ld = get_loader(L);
    lua_register(L, "gpu", decl_gpu);
    lua_register(L, "entry", decl_entry);
    struct stat st;
    int fd = open(ld->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return luaL_error(L, "%s:1: cannot open the table", ld->path);
    }
    close(fd);
    if (!S_ISREG(st.st_mode) || st.st_size > MAX_TABLE_BYTES)
        return luaL_error(L, "%s:1: the table is not a regular file of at most %d MB", ld->path,
                          MAX_TABLE_BYTES >> 20);
    lua_sethook(L, hook, LUA_MASKCOUNT, HOOK_STEP);
    if (luaL_loadfilex(L, ld->path, "t") != LUA_OK)
        return lua_error(L);
    lua_call(L, 0, 0);
    if (!ld->gpu_line)
        return luaL_error(L, "%s:1: no gpu { name = …, cc = …, sms = … } declared", ld->path);
    return 0;
}

/* Orders entries by key, a bucket's entry (dims not compared) before exact shapes. */
static int by_key(const void *pa, const void *pb)
{
    const struct gen_tuned_entry *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->exact != b->exact)
        return a->exact - b->exact;
    for (int i = 0; a->exact && i < 3; i++)
        if (a->dims[i] != b->dims[i])
            return a->dims[i] < b->dims[i] ? -1 : 1;
    return a->line - b->line;
}

/* Finds instance `name` among spec s's instances; -1 if none. */
static int find_instance(const struct gen_spec *s, const char *name)
{
    for (int i = 0; i < s->ninst; i++)
        if (strcmp(s->inst[i].name, name) == 0)
            return i;
    return -1;
}

/* Resolves every entry's kernel (appending winners from the whole space to their spec) and
 * checks that it serves the entry. all[k] caches spec k's whole space, loaded on demand. */
static int resolve(struct gen_tuned *t, struct gen_spec *specs, int nspecs,
                   const struct gen_options *opt, char *err, size_t errlen)
{
    struct gen_spec *all = calloc((size_t)nspecs, sizeof *all);
    int *loaded = calloc((size_t)nspecs, sizeof *loaded), rc = 0;
    if (!all || !loaded) {
        free(all);
        free(loaded);
        snprintf(err, errlen, "%s:1: out of memory", t->path);
        return -1;
    }
    struct gen_options aopt = *opt;
    aopt.all = 1;
    aopt.near = 0;
    aopt.verbose = 0;
    for (int i = 0; i < t->n && rc == 0; i++) {
        struct gen_tuned_entry *e = &t->e[i];
        int sk = -1, at = -1;
        for (int k = 0; k < nspecs && at < 0; k++)
            if (strcmp(specs[k].serves, specs[e->spec].serves) == 0 &&
                (at = find_instance(&specs[k], e->kernel)) >= 0)
                sk = k;
        for (int k = 0; k < nspecs && at < 0 && rc == 0; k++) {
            if (strcmp(specs[k].serves, specs[e->spec].serves) != 0)
                continue;
            if (!loaded[k]) {
                rc = gen_spec_load(specs[k].path, &aopt, &all[k], err, errlen);
                loaded[k] = rc == 0;
            }
            int a = rc == 0 ? find_instance(&all[k], e->kernel) : -1;
            if (a >= 0) {
                struct gen_instance *p =
                    realloc(specs[k].inst, (size_t)(specs[k].ninst + 1) * sizeof *p);
                if (!p) {
                    snprintf(err, errlen, "%s:%d: out of memory", t->path, e->line);
                    rc = -1;
                    break;
                }
                specs[k].inst = p;
                specs[k].inst[specs[k].ninst] = all[k].inst[a];
                specs[k].inst[specs[k].ninst].table_only = 1;
                at = specs[k].ninst++;
                sk = k;
            }
        }
        if (rc != 0)
            break;
        if (at < 0) {
            snprintf(err, errlen, "%s:%d: kernel '%s' is not an instance of any spec serving %s "
                     "(renamed or pruned since the table was tuned: re-tune)", t->path, e->line,
                     e->kernel, specs[e->spec].serves);
            rc = -1;
            break;
        }
        const struct gen_instance *in = &specs[sk].inst[at];
        if (in->dtype != e->dtype || in->variant != e->variant) {
            snprintf(err, errlen, "%s:%d: kernel '%s' does not serve this entry's dtype and "
                     "variant", t->path, e->line, e->kernel);
            rc = -1;
        }
    }
    for (int k = 0; k < nspecs; k++)
        if (loaded[k])
            gen_spec_free(&all[k]);
    free(all);
    free(loaded);
    if (rc != 0)
        return rc;
    qsort(t->e, (size_t)t->n, sizeof *t->e, by_key);
    for (int i = 1; i < t->n; i++) {
        const struct gen_tuned_entry *a = &t->e[i - 1], *b = &t->e[i];
        if (a->key == b->key && a->exact == b->exact &&
            (!a->exact || memcmp(a->dims, b->dims, sizeof a->dims) == 0)) {
            const int first = a->line < b->line ? a->line : b->line;
            snprintf(err, errlen, "%s:%d: %s as the entry at line %d", t->path,
                     a->line < b->line ? b->line : a->line,
                     a->exact ? "the same exact shape" : "the same bucket (op, dtype, variant, "
                     "class and each size's power-of-two bin)", first);
            return -1;
        }
    }
    return 0;
}

int gen_tuned_load(const char *path, struct gen_spec *specs, int nspecs,
                   const struct gen_options *opt, struct gen_tuned *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (strlen(path) >= sizeof t->path) {
        snprintf(err, errlen, "%.64s…: the table's path is longer than %d bytes", path,
                 (int)sizeof t->path - 1);
        return -1;
    }
    snprintf(t->path, sizeof t->path, "%s", path);
    struct loader ld = {t, specs, nspecs, t->path, 0, 0, 0, 0};
    lua_State *L = lua_newstate(limited_alloc, &ld);
    if (!L) {
        snprintf(err, errlen, "%s:1: cannot create a Lua state", path);
        return -1;
    }
    *(struct loader **)lua_getextraspace(L) = &ld;
    lua_pushcfunction(L, run_table);
    int rc = lua_pcall(L, 0, 0, 0);
    if (rc != LUA_OK) {
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (rc == LUA_ERRMEM)
            snprintf(err, errlen, "%s:1: the table uses too much memory", path);
        else
            snprintf(err, errlen, "%s", msg ? msg : "error object is not a string");
    }
    lua_close(L);
    if (rc == LUA_OK && resolve(t, specs, nspecs, opt, err, errlen) == 0)
        return 0;
    gen_tuned_free(t);
    return -1;
}

void gen_tuned_free(struct gen_tuned *t)
{
    free(t->e);
    t->e = NULL;
    t->n = 0;
}
