/* spec.c: loads one operator spec in a Lua sandbox, validates it, and expands it into
 * instances (variants × tuning space, pruned by the constraints, narrowed to the defaults).
 *
 * A spec is a sequence of declarations, each a call of a C function below, so that every
 * error names the file and the line of the declaration at fault:
 *
 *   operator "vector_add" { doc = "…", align = function(c) … end }  -- serves = "op": see below
 *   variant "dtype" { "f32", "f16", "bf16" }
 *   variant "mode" { "plain", "log" }              -- any other axis: named choices
 *   variant "head_dim" { "64", "128", tag = "d" }  -- tag: d64 in instance names
 *   tier "sm80" { template = "vector_add", only = { dtype = {…} }, tune = { threads = {…} } }
 *   tune "threads" { 128, 256, 512, tag = "t" }
 *   constraint "why it prunes" (function(c) return c.vec * c.bytes <= 16 end)
 *   default { threads = 256, vec = function(c) return 16 // c.bytes end }
 *   default { head_dim = "128", threads = 128, vec = 8 }  -- only where head_dim is 128
 *   default { mode = { "plain", "log" }, … }        -- (a variant value, or a list of them)
 */
#include "gen.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct gen_tier gen_tiers[GEN_TIERS] = {
    {"sm70", 70, 64 * 1024, "sm_70 (sm_75 with CUDA 13) + its PTX, wmma"},
    {"sm80", 80, 163 * 1024, "sm_80 + compute_80 PTX, mma.sync and cp.async"},
    {"sm90", 90, 227 * 1024, "sm_90a + compute_90a PTX, wgmma and TMA"},
};

const struct gen_dtype gen_dtypes[GEN_DTYPES] = {
    {"f32", "float", "TILEOPS_F32", 4},
    {"f16", "__half", "TILEOPS_F16", 2},
    {"bf16", "__nv_bfloat16", "TILEOPS_BF16", 2},
};

#define MAX_DECLS 32

/* A constraint or a default, kept as a Lua reference until expansion. */
struct decl {
    int line;
    int ref;
    char text[128];
};

/* Everything a spec declares, before expansion. Lives in the Lua registry as a userdata. */
struct builder {
    struct gen_spec *spec;
    const struct gen_options *opt;
    const char *chunk;            /* the path, for deferred messages */
    int op_line, variant_line;
    int dtype_mask;               /* bit per gen_dtypes index, from `variant "dtype"` */
    int tier_line[GEN_TIERS];
    int tier_only[GEN_TIERS];     /* dtype mask per tier, -1 for no narrowing */
    int tier_tune_ref[GEN_TIERS]; /* the tier's `tune = {…}` table, or LUA_NOREF */
    int align_ref, smem_ref;      /* numbers or functions in the registry, or LUA_NOREF */
    int axis_line[GEN_MAX_AXES];
    int var_line[GEN_MAX_VARIANTS];
    int ncons, ndefs;
    struct decl cons[MAX_DECLS];
    struct decl defs[MAX_DECLS];
};

/* ---- small helpers ---------------------------------------------------------------------- */

/* The line of the spec statement being run (level 1: the Lua code that called us). */
static int caller_line(lua_State *L)
{
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar))
        return ar.currentline;
    return 0;
}

/* Raises "file:line: message" for a line recorded earlier (deferred checks). */
static int fail_at(lua_State *L, const struct builder *b, int line, const char *fmt, ...)
{
    char msg[GEN_ERR];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return luaL_error(L, "%s:%d: %s", b->chunk, line, msg);
}

static struct builder *get_builder(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "tileops.builder");
    struct builder *b = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return b;
}

static int tier_index(const char *name)
{
    for (int i = 0; i < GEN_TIERS; i++)
        if (strcmp(gen_tiers[i].name, name) == 0)
            return i;
    return -1;
}

static int dtype_index(const char *name)
{
    for (int i = 0; i < GEN_DTYPES; i++)
        if (strcmp(gen_dtypes[i].name, name) == 0)
            return i;
    return -1;
}

static int variant_index(const struct gen_spec *s, const char *name)
{
    for (int i = 0; i < s->nvars; i++)
        if (strcmp(s->vars[i].name, name) == 0)
            return i;
    return -1;
}

/* Names the context table gives constraints and defaults: no axis may take one. */
static int reserved_name(const char *name)
{
    static const char *const reserved[] = {"tier", "cc", "smem_limit", "dtype", "bytes", NULL};
    for (int r = 0; reserved[r]; r++)
        if (strcmp(reserved[r], name) == 0)
            return 1;
    return 0;
}

/* Is name made of lower-case letters and _, and shorter than len? */
static int word(const char *name, size_t len)
{
    size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz_");
    return name[0] && !name[n] && n < len;
}

static int axis_index(const struct gen_spec *s, const char *name)
{
    for (int i = 0; i < s->naxes; i++)
        if (strcmp(s->axes[i].name, name) == 0)
            return i;
    return -1;
}

/* Rejects string keys of the table at idx that are not in `allowed` (NULL-terminated), and
 * positional entries unless `list_ok`. The first offender in sorted order is reported. */
static void check_fields(lua_State *L, int idx, const char *what, const char *const *allowed,
                         int list_ok)
{
    char bad[64] = "";
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            int ok = 0;
            for (int i = 0; allowed[i]; i++)
                ok |= strcmp(allowed[i], k) == 0;
            if (!ok && (!bad[0] || strcmp(k, bad) < 0))
                snprintf(bad, sizeof bad, "%s", k);
        } else if (!list_ok || !lua_isinteger(L, -1)) {
            luaL_error(L, "%s takes named fields only", what);
        }
    }
    if (bad[0] && !allowed[0])
        luaL_error(L, "%s takes a list of values, not field '%s'", what, bad);
    if (bad[0]) {
        char expected[256] = "";
        for (int i = 0; allowed[i]; i++)
            snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%s%s",
                     i ? ", " : "", allowed[i]);
        luaL_error(L, "unknown field '%s' in %s (expected %s)", bad, what, expected);
    }
}

/* Reads the list part of the table at idx as dtype names into a bit mask. */
static int read_dtypes(lua_State *L, int idx, const char *what)
{
    int mask = 0, n = (int)luaL_len(L, idx);
    if (n == 0)
        luaL_error(L, "%s lists no dtypes", what);
    for (int i = 1; i <= n; i++) {
        lua_geti(L, idx, i);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "%s: entry %d must be a dtype name, got %s", what, i,
                       luaL_typename(L, -1));
        int d = dtype_index(lua_tostring(L, -1));
        if (d < 0)
            luaL_error(L, "unknown dtype '%s' (expected f32, f16, bf16)", lua_tostring(L, -1));
        if (mask & (1 << d))
            luaL_error(L, "%s lists dtype '%s' twice", what, gen_dtypes[d].name);
        mask |= 1 << d;
        lua_pop(L, 1);
    }
    return mask;
}

/* Reads the list part of the table at idx as distinct positive integers. */
static int read_ints(lua_State *L, int idx, const char *what, int *out)
{
    int n = (int)luaL_len(L, idx);
    if (n == 0)
        luaL_error(L, "%s has no values", what);
    if (n > GEN_MAX_VALUES)
        luaL_error(L, "%s has %d values (at most %d)", what, n, GEN_MAX_VALUES);
    for (int i = 1; i <= n; i++) {
        lua_geti(L, idx, i);
        if (!lua_isinteger(L, -1))
            luaL_error(L, "%s: value %d must be an integer, got %s", what, i,
                       lua_isnumber(L, -1) ? "a fraction" : luaL_typename(L, -1));
        lua_Integer v = lua_tointeger(L, -1);
        if (v < 0 || v > 1 << 20)
            luaL_error(L, "%s: value %d is %lld (expected 0 to %d)", what, i, (long long)v,
                       1 << 20);
        for (int j = 0; j < i - 1; j++)
            if (out[j] == v)
                luaL_error(L, "%s lists %lld twice", what, (long long)v);
        out[i - 1] = (int)v;
        lua_pop(L, 1);
    }
    return n;
}

/* Stores the value at idx (an integer or a function) in the registry; nil gives LUA_NOREF. */
static int ref_number_or_function(lua_State *L, int idx, const char *what)
{
    int t = lua_type(L, idx);
    if (t == LUA_TNIL)
        return LUA_NOREF;
    if (t != LUA_TFUNCTION && !lua_isinteger(L, idx))
        luaL_error(L, "field '%s' must be an integer or a function, got %s", what,
                   luaL_typename(L, idx));
    lua_pushvalue(L, idx);
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/* ---- the declarations -------------------------------------------------------------------- */

/* operator "name" { doc = "…", align = n | function(c), smem = n | function(c),
 *                   serves = "op" } */
static int decl_operator_body(lua_State *L)
{
    struct builder *b = get_builder(L);
    static const char *const fields[] = {"align", "doc", "serves", "smem", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    check_fields(L, 1, "operator", fields, 0);
    lua_getfield(L, 1, "doc");
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "operator: field 'doc' must be a string, got %s", luaL_typename(L, -1));
    snprintf(b->spec->doc, sizeof b->spec->doc, "%s", lua_tostring(L, -1));
    /* serves: a second kernel family (another template, its own tuning space) for the API
     * operator of another spec; dispatch weighs both families' instances */
    lua_getfield(L, 1, "serves");
    if (!lua_isnil(L, -1)) {
        const char *sv = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        size_t n = strspn(sv, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (!sv[0] || sv[n] || n >= sizeof b->spec->serves)
            luaL_error(L, "operator: field 'serves' must name an operator (lower-case letters, "
                       "digits and _)");
        snprintf(b->spec->serves, sizeof b->spec->serves, "%s", sv);
    }
    lua_getfield(L, 1, "align");
    b->align_ref = ref_number_or_function(L, -1, "align");
    lua_getfield(L, 1, "smem");
    b->smem_ref = ref_number_or_function(L, -1, "smem");
    b->spec->has_smem = b->smem_ref != LUA_NOREF;
    return 0;
}

static int decl_operator(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *name = luaL_checkstring(L, 1);
    if (b->op_line)
        luaL_error(L, "operator declared twice (first at line %d)", b->op_line);
    size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (!name[0] || name[n] || n >= sizeof b->spec->op)
        luaL_error(L, "operator name '%s' must be lower-case letters, digits and _", name);
    snprintf(b->spec->op, sizeof b->spec->op, "%s", name);
    snprintf(b->spec->serves, sizeof b->spec->serves, "%s", name);
    b->op_line = caller_line(L);
    lua_pushcfunction(L, decl_operator_body);
    return 1;
}

/* variant "dtype" { "f32", "f16" } */
static int decl_dtypes_body(lua_State *L)
{
    struct builder *b = get_builder(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    check_fields(L, 1, "variant 'dtype'", (const char *const[]){NULL}, 1);
    b->dtype_mask = read_dtypes(L, 1, "variant 'dtype'");
    return 0;
}

/* variant "mode" { "plain", "log" }: named choices, each compiled; `tag = "d"` puts "d" before
 * the value in instance names. */
static int decl_choices_body(lua_State *L)
{
    struct builder *b = get_builder(L);
    struct gen_variant *v = &b->spec->vars[lua_tointeger(L, lua_upvalueindex(1))];
    char what[64];
    snprintf(what, sizeof what, "variant '%s'", v->name);
    luaL_checktype(L, 1, LUA_TTABLE);
    check_fields(L, 1, what, (const char *const[]){"tag", NULL}, 1);
    lua_getfield(L, 1, "tag");
    const char *tag = lua_isnil(L, -1) ? "" : lua_tostring(L, -1);
    if (lua_type(L, -1) != LUA_TNIL &&
        (lua_type(L, -1) != LUA_TSTRING || !tag[0] || strlen(tag) >= sizeof v->tag ||
         tag[strspn(tag, "abcdefghijklmnopqrstuvwxyz")]))
        luaL_error(L, "%s: tag must be a short lower-case word", what);
    snprintf(v->tag, sizeof v->tag, "%s", tag);
    lua_pop(L, 1);
    int n = (int)luaL_len(L, 1);
    if (n == 0)
        luaL_error(L, "%s has no values", what);
    if (n > GEN_MAX_CHOICES)
        luaL_error(L, "%s has %d values (at most %d)", what, n, GEN_MAX_CHOICES);
    for (int i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        const char *val = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!val || !val[0] || val[strspn(val, "abcdefghijklmnopqrstuvwxyz0123456789")] ||
            strlen(val) >= sizeof v->values[0])
            luaL_error(L, "%s: value %d must be a short lower-case word or number, got %s",
                       what, i, val ? val : luaL_typename(L, -1));
        for (int j = 0; j < i - 1; j++)
            if (strcmp(v->values[j], val) == 0)
                luaL_error(L, "%s lists '%s' twice", what, val);
        snprintf(v->values[i - 1], sizeof v->values[0], "%s", val);
        lua_pop(L, 1);
    }
    v->count = n;
    return 0;
}

static int decl_variant(lua_State *L)
{
    struct builder *b = get_builder(L);
    struct gen_spec *s = b->spec;
    const char *name = luaL_checkstring(L, 1);
    if (strcmp(name, "dtype") == 0) {
        if (b->variant_line)
            luaL_error(L, "variant 'dtype' declared twice (first at line %d)", b->variant_line);
        b->variant_line = caller_line(L);
        lua_pushcfunction(L, decl_dtypes_body);
        return 1;
    }
    int i = variant_index(s, name);
    if (i >= 0)
        luaL_error(L, "variant '%s' declared twice (first at line %d)", name, b->var_line[i]);
    if (!word(name, sizeof s->vars[0].name))
        luaL_error(L, "variant name '%s' must be lower-case letters and _", name);
    if (reserved_name(name))
        luaL_error(L, "variant name '%s' is reserved", name);
    if (axis_index(s, name) >= 0)
        luaL_error(L, "variant '%s' has the name of a tuning axis", name);
    if (s->nvars == GEN_MAX_VARIANTS)
        luaL_error(L, "too many variant axes (at most %d besides dtype)", GEN_MAX_VARIANTS);
    i = s->nvars++;
    snprintf(s->vars[i].name, sizeof s->vars[i].name, "%s", name);
    b->var_line[i] = caller_line(L);
    lua_pushinteger(L, i);
    lua_pushcclosure(L, decl_choices_body, 1);
    return 1;
}

/* tier "sm80" { template = "name", only = { dtype = {…} }, tune = { axis = {…} } } */
static int decl_tier_body(lua_State *L)
{
    struct builder *b = get_builder(L);
    int t = (int)lua_tointeger(L, lua_upvalueindex(1));
    const char *tname = gen_tiers[t].name;
    char what[64];
    static const char *const fields[] = {"only", "template", "tune", NULL};
    snprintf(what, sizeof what, "tier %s", tname);
    luaL_checktype(L, 1, LUA_TTABLE);
    check_fields(L, 1, what, fields, 0);

    lua_getfield(L, 1, "template");
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "tier %s: field 'template' must be a string, got %s", tname,
                   luaL_typename(L, -1));
    const char *templ = lua_tostring(L, -1);
    if (!templ[0] || templ[strspn(templ, "abcdefghijklmnopqrstuvwxyz0123456789_")] ||
        strlen(templ) >= sizeof b->spec->templ[t])
        luaL_error(L, "tier %s: template name '%s' must be lower-case letters, digits and _",
                   tname, templ);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.cu", b->opt->templates, templ);
    if (access(path, R_OK) != 0)
        luaL_error(L, "tier %s: template '%s' does not exist (%s)", tname, templ, path);
    snprintf(b->spec->templ[t], sizeof b->spec->templ[t], "%s", templ);

    lua_getfield(L, 1, "only");
    if (!lua_isnil(L, -1)) {
        snprintf(what, sizeof what, "tier %s: only", tname);
        luaL_checktype(L, -1, LUA_TTABLE);
        check_fields(L, -1, what, (const char *const[]){"dtype", NULL}, 0);
        lua_getfield(L, -1, "dtype");
        if (!lua_istable(L, -1))
            luaL_error(L, "tier %s: only.dtype must be a list of dtypes", tname);
        b->tier_only[t] = read_dtypes(L, lua_gettop(L), "only.dtype");
    }
    lua_getfield(L, 1, "tune");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1))
            luaL_error(L, "tier %s: field 'tune' must be a table of axis = {values}", tname);
        lua_pushnil(L);
        while (lua_next(L, -2)) { /* check the values now, while the line is known */
            int tmp[GEN_MAX_VALUES];
            if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
                luaL_error(L, "tier %s: tune must map axis names to lists of integers", tname);
            snprintf(what, sizeof what, "tier %s: tune.%s", tname, lua_tostring(L, -2));
            read_ints(L, lua_gettop(L), what, tmp);
            lua_pop(L, 1);
        }
        lua_pushvalue(L, -1);
        b->tier_tune_ref[t] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

static int decl_tier(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *name = luaL_checkstring(L, 1);
    int t = tier_index(name);
    if (t < 0)
        luaL_error(L, "unknown tier '%s' (expected sm70, sm80, sm90)", name);
    if (b->tier_line[t])
        luaL_error(L, "tier %s declared twice (first at line %d)", name, b->tier_line[t]);
    b->tier_line[t] = caller_line(L);
    lua_pushinteger(L, t);
    lua_pushcclosure(L, decl_tier_body, 1);
    return 1;
}

/* tune "threads" { 128, 256, tag = "t" } */
static int decl_tune_body(lua_State *L)
{
    struct builder *b = get_builder(L);
    struct gen_axis *ax = &b->spec->axes[lua_tointeger(L, lua_upvalueindex(1))];
    char what[64];
    snprintf(what, sizeof what, "tune '%s'", ax->name);
    luaL_checktype(L, 1, LUA_TTABLE);
    check_fields(L, 1, what, (const char *const[]){"tag", NULL}, 1);
    ax->count = read_ints(L, 1, what, ax->values);
    lua_getfield(L, 1, "tag");
    const char *tag = lua_isnil(L, -1) ? NULL : lua_tostring(L, -1);
    if (tag && (lua_type(L, -1) != LUA_TSTRING || !tag[0] || strlen(tag) >= sizeof ax->tag ||
                tag[strspn(tag, "abcdefghijklmnopqrstuvwxyz")]))
        luaL_error(L, "%s: tag must be a short lower-case word", what);
    snprintf(ax->tag, sizeof ax->tag, "%.1s%s", tag ? "" : ax->name, tag ? tag : "");
    for (struct gen_axis *o = b->spec->axes; o < ax; o++)
        if (strcmp(o->tag, ax->tag) == 0)
            luaL_error(L, "%s: tag '%s' is already used by tune '%s'", what, ax->tag, o->name);
    return 0;
}

static int decl_tune(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *name = luaL_checkstring(L, 1);
    struct gen_spec *s = b->spec;
    int i = axis_index(s, name);
    if (i >= 0)
        luaL_error(L, "tune '%s' declared twice (first at line %d)", name, b->axis_line[i]);
    if (s->naxes == GEN_MAX_AXES)
        luaL_error(L, "too many tuning axes (at most %d)", GEN_MAX_AXES);
    if (!word(name, sizeof s->axes[0].name))
        luaL_error(L, "tune name '%s' must be lower-case letters and _", name);
    if (reserved_name(name))
        luaL_error(L, "tune name '%s' is reserved", name);
    if (variant_index(s, name) >= 0)
        luaL_error(L, "tune '%s' has the name of a variant axis", name);
    i = s->naxes++;
    snprintf(s->axes[i].name, sizeof s->axes[i].name, "%s", name);
    b->axis_line[i] = caller_line(L);
    lua_pushinteger(L, i);
    lua_pushcclosure(L, decl_tune_body, 1);
    return 1;
}

/* constraint "why" (function(c) return … end) */
static int decl_constraint_body(lua_State *L)
{
    struct builder *b = get_builder(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    struct decl *d = &b->cons[b->ncons++];
    d->line = (int)lua_tointeger(L, lua_upvalueindex(1));
    snprintf(d->text, sizeof d->text, "%s", lua_tostring(L, lua_upvalueindex(2)));
    lua_pushvalue(L, 1);
    d->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static int decl_constraint(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *text = luaL_checkstring(L, 1);
    if (!text[0])
        luaL_error(L, "constraint needs a description of what it prunes");
    if (b->ncons == MAX_DECLS)
        luaL_error(L, "too many constraints (at most %d)", MAX_DECLS);
    lua_pushinteger(L, caller_line(L));
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, decl_constraint_body, 2);
    return 1;
}

/* default { axis = n | function(c), … }: one configuration emitted without a tuning table. */
static int decl_default(lua_State *L)
{
    struct builder *b = get_builder(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    if (b->ndefs == MAX_DECLS)
        luaL_error(L, "too many defaults (at most %d)", MAX_DECLS);
    struct decl *d = &b->defs[b->ndefs++];
    d->line = caller_line(L);
    lua_pushvalue(L, 1);
    d->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* ---- expansion -------------------------------------------------------------------------- */

/* Where expansion is: a tier, a dtype and one value per variant axis. */
struct at {
    int t, d;
    int var[GEN_MAX_VARIANTS];
};

/* "sm80 f16 log": the point, for messages. */
static const char *at_text(const struct gen_spec *s, const struct at *p, char *out, size_t len)
{
    int n = snprintf(out, len, "%s %s", gen_tiers[p->t].name, gen_dtypes[p->d].name);
    for (int i = 0; i < s->nvars && n > 0 && (size_t)n < len; i++)
        n += snprintf(out + n, len - (size_t)n, " %s", s->vars[i].values[p->var[i]]);
    return out;
}

/* Pushes the table a constraint or default sees: tier, cc, smem_limit, dtype, bytes, every
 * variant axis and, when params is given, every tuning axis. */
static void push_context(lua_State *L, const struct gen_spec *s, const struct at *p,
                         const int *params)
{
    const int t = p->t, d = p->d;
    lua_createtable(L, 0, 5 + s->nvars + s->naxes);
    lua_pushstring(L, gen_tiers[t].name);
    lua_setfield(L, -2, "tier");
    lua_pushinteger(L, gen_tiers[t].cc);
    lua_setfield(L, -2, "cc");
    lua_pushinteger(L, gen_tiers[t].smem_limit);
    lua_setfield(L, -2, "smem_limit");
    lua_pushstring(L, gen_dtypes[d].name);
    lua_setfield(L, -2, "dtype");
    lua_pushinteger(L, gen_dtypes[d].bytes);
    lua_setfield(L, -2, "bytes");
    for (int i = 0; i < s->nvars; i++) {
        lua_pushstring(L, s->vars[i].values[p->var[i]]);
        lua_setfield(L, -2, s->vars[i].name);
    }
    for (int i = 0; params && i < s->naxes; i++) {
        lua_pushinteger(L, params[i]);
        lua_setfield(L, -2, s->axes[i].name);
    }
}

/* Evaluates the value on top of the stack, an integer or a function of the context, and
 * pops it. */
static int eval_top(lua_State *L, const struct builder *b, int line, const char *what,
                    const struct at *p, const int *params)
{
    if (lua_isfunction(L, -1)) {
        push_context(L, b->spec, p, params);
        lua_call(L, 1, 1);
    }
    if (!lua_isinteger(L, -1))
        fail_at(L, b, line, "%s must give an integer, got %s", what, luaL_typename(L, -1));
    int v = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return v;
}

/* Evaluates a registry reference holding an integer or a function of the context. */
static int eval_int(lua_State *L, const struct builder *b, int ref, int line, const char *what,
                    const struct at *p, const int *params)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    return eval_top(L, b, line, what, p, params);
}

/* tileops_<op>_<tier>_<dtype>_<variant values…>_<tag><value>… */
static void format_name(const struct gen_spec *s, const struct at *p, const int *params,
                        char *out)
{
    int n = snprintf(out, GEN_NAME, "tileops_%s_%s_%s", s->op, gen_tiers[p->t].name,
                     gen_dtypes[p->d].name);
    for (int i = 0; i < s->nvars; i++)
        n += snprintf(out + n, GEN_NAME - (size_t)n, "_%s%s", s->vars[i].tag,
                      s->vars[i].values[p->var[i]]);
    for (int i = 0; i < s->naxes; i++)
        n += snprintf(out + n, GEN_NAME - (size_t)n, "_%s%d", s->axes[i].tag, params[i]);
}

/* The tuning space of tier t: the spec's axes with the tier's `tune` overrides. */
static void tier_axes(lua_State *L, const struct builder *b, int t, struct gen_axis *axes)
{
    const struct gen_spec *s = b->spec;
    memcpy(axes, s->axes, sizeof s->axes);
    if (b->tier_tune_ref[t] == LUA_NOREF)
        return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->tier_tune_ref[t]);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int i = k ? axis_index(s, k) : -1;
        char what[64];
        if (i < 0)
            fail_at(L, b, b->tier_line[t], "tier %s: tune '%s' is not a declared tuning axis",
                    gen_tiers[t].name, k ? k : "?");
        if (!lua_istable(L, -1))
            fail_at(L, b, b->tier_line[t], "tier %s: tune.%s must be a list of integers",
                    gen_tiers[t].name, k);
        snprintf(what, sizeof what, "tier %s: tune.%s", gen_tiers[t].name, k);
        /* already validated when the tier was declared */
        axes[i].count = read_ints(L, lua_gettop(L), what, axes[i].values);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* Is params in the tuning space `axes`? On failure, names the offending axis. */
static int in_space(const struct gen_spec *s, const struct gen_axis *axes, const int *params,
                    int *bad_axis)
{
    for (int i = 0; i < s->naxes; i++) {
        int found = 0;
        for (int j = 0; j < axes[i].count; j++)
            found |= axes[i].values[j] == params[i];
        if (!found) {
            *bad_axis = i;
            return 0;
        }
    }
    return 1;
}

/* Applies the constraints in order; returns -1 if params survives, else the index of the
 * constraint that drops it. */
static int pruned_by(lua_State *L, const struct builder *b, const struct at *p,
                     const int *params)
{
    for (int k = 0; k < b->ncons; k++) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, b->cons[k].ref);
        push_context(L, b->spec, p, params);
        lua_call(L, 1, 1);
        if (!lua_isboolean(L, -1))
            fail_at(L, b, b->cons[k].line, "constraint '%s' must return a boolean, got %s",
                    b->cons[k].text, luaL_typename(L, -1));
        int keep = lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (!keep)
            return k;
    }
    return -1;
}

static void add_instance(lua_State *L, const struct builder *b, const struct at *p,
                         const int *params)
{
    struct gen_spec *s = b->spec;
    struct gen_instance *in;
    const int t = p->t, d = p->d;
    for (int i = 0; i < s->ninst; i++)
        if (s->inst[i].tier == t && s->inst[i].dtype == d &&
            memcmp(s->inst[i].var, p->var, sizeof p->var) == 0 &&
            memcmp(s->inst[i].params, params, sizeof s->inst[i].params) == 0)
            return; /* two defaults gave the same configuration */
    in = realloc(s->inst, (size_t)(s->ninst + 1) * sizeof *in);
    if (!in)
        luaL_error(L, "out of memory");
    s->inst = in;
    in = &s->inst[s->ninst++];
    memset(in, 0, sizeof *in);
    in->tier = t;
    in->dtype = d;
    memcpy(in->var, p->var, sizeof in->var);
    for (int i = 0, stride = 1; i < s->nvars; stride *= s->vars[i++].count)
        in->variant += p->var[i] * stride;
    memcpy(in->params, params, sizeof in->params);
    format_name(s, p, params, in->name);
    if (strlen(in->name) >= GEN_NAME - 1)
        fail_at(L, b, b->op_line, "instance name %s… is too long (at most %d characters)",
                in->name, GEN_NAME - 2);
    in->align = b->align_ref == LUA_NOREF
                    ? gen_dtypes[d].bytes
                    : eval_int(L, b, b->align_ref, b->op_line, "operator align", p, params);
    in->smem = b->smem_ref == LUA_NOREF
                   ? 0
                   : eval_int(L, b, b->smem_ref, b->op_line, "operator smem", p, params);
    /* dispatch divides addresses by align and compares smem with the device's limit */
    if (in->align < 1 || (in->align & (in->align - 1)) || in->align > 4096)
        fail_at(L, b, b->op_line, "operator align must be a power of two from 1 to 4096, got "
                "%d for %s", in->align, in->name);
    if (in->smem < 0 || in->smem > gen_tiers[t].smem_limit)
        fail_at(L, b, b->op_line, "operator smem must be 0 to %d bytes on %s, got %d for %s",
                gen_tiers[t].smem_limit, gen_tiers[t].name, in->smem, in->name);
}

/* Does the value on top of the stack (a value name, or a list of them) name `value`? */
static int names_value(lua_State *L, const char *value)
{
    if (lua_type(L, -1) == LUA_TSTRING)
        return strcmp(lua_tostring(L, -1), value) == 0;
    int found = 0;
    for (int i = 1; i <= (int)luaL_len(L, -1) && !found; i++) {
        lua_geti(L, -1, i);
        found = strcmp(lua_tostring(L, -1), value) == 0;
        lua_pop(L, 1);
    }
    return found;
}

/* Does a default apply at point p? One that names a variant (dtype or another axis) applies
 * only where that variant takes one of the values it lists (finish() checked them). */
static int default_applies(lua_State *L, const struct builder *b, const struct decl *def,
                           const struct at *p)
{
    const struct gen_spec *s = b->spec;
    int applies = 1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, def->ref);
    for (int i = -1; i < s->nvars && applies; i++) {
        lua_getfield(L, -1, i < 0 ? "dtype" : s->vars[i].name);
        if (!lua_isnil(L, -1))
            applies = names_value(L, i < 0 ? gen_dtypes[p->d].name
                                           : s->vars[i].values[p->var[i]]);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return applies;
}

/* Expands one point (tier, dtype, variant values): the whole pruned space (opt->all) or the
 * defaults. */
static void expand_variant(lua_State *L, const struct builder *b, const struct at *p)
{
    const struct gen_spec *s = b->spec;
    const struct gen_options *opt = b->opt;
    struct gen_axis axes[GEN_MAX_AXES];
    int idx[GEN_MAX_AXES] = {0}, params[GEN_MAX_AXES] = {0}, survivors = 0, last_cons = -1;
    char name[GEN_NAME], where[128];

    tier_axes(L, b, p->t, axes);
    at_text(s, p, where, sizeof where);
    for (;;) { /* odometer over the cross product, first axis slowest */
        for (int i = 0; i < s->naxes; i++)
            params[i] = axes[i].values[idx[i]];
        int k = pruned_by(L, b, p, params);
        if (k < 0) {
            survivors++;
            if (opt->all)
                add_instance(L, b, p, params);
        } else {
            /* if nothing survives, blame the latest constraint that had something left */
            last_cons = k > last_cons ? k : last_cons;
            if (opt->verbose && opt->log) {
                format_name(s, p, params, name);
                fprintf(opt->log, "pruned %s: %s (%s:%d)\n", name, b->cons[k].text, b->chunk,
                        b->cons[k].line);
            }
        }
        int i = s->naxes - 1;
        while (i >= 0 && ++idx[i] == axes[i].count)
            idx[i--] = 0;
        if (i < 0)
            break;
    }
    if (!survivors)
        fail_at(L, b, b->cons[last_cons].line,
                "constraint '%s' removes every configuration of %s", b->cons[last_cons].text,
                where);
    if (opt->all)
        return;

    int emitted = 0, applicable = 0;
    for (int k = 0; k < b->ndefs; k++) {
        const struct decl *def = &b->defs[k];
        if (!default_applies(L, b, def, p))
            continue;
        applicable++;
        for (int i = 0; i < s->naxes; i++) {
            char what[64];
            lua_rawgeti(L, LUA_REGISTRYINDEX, def->ref);
            lua_getfield(L, -1, s->axes[i].name);
            if (lua_isnil(L, -1))
                fail_at(L, b, def->line, "default: no value for tune '%s'", s->axes[i].name);
            snprintf(what, sizeof what, "default: %s", s->axes[i].name);
            params[i] = eval_top(L, b, def->line, what, p, NULL);
            lua_pop(L, 1); /* the default's table */
        }
        int bad;
        if (!in_space(s, s->axes, params, &bad))
            fail_at(L, b, def->line, "default: %s=%d is not in the tuning space of %s",
                    s->axes[bad].name, params[bad], where);
        if (!in_space(s, axes, params, &bad)) { /* outside the tier's own `tune` narrowing */
            if (opt->verbose && opt->log) {
                format_name(s, p, params, name);
                fprintf(opt->log, "default %s (%s:%d) skipped: %s=%d is not in tier %s's tune\n",
                        name, b->chunk, def->line, s->axes[bad].name, params[bad],
                        gen_tiers[p->t].name);
            }
            continue;
        }
        int k2 = pruned_by(L, b, p, params);
        if (k2 >= 0) {
            if (opt->verbose && opt->log) {
                format_name(s, p, params, name);
                fprintf(opt->log, "default %s (%s:%d) pruned: %s\n", name, b->chunk, def->line,
                        b->cons[k2].text);
            }
            continue;
        }
        add_instance(L, b, p, params);
        emitted++;
    }
    if (!applicable)
        fail_at(L, b, b->defs[0].line, "no default configuration is declared for %s", where);
    if (!emitted)
        fail_at(L, b, b->defs[0].line, "no default configuration survives the constraints for %s",
                where);
}

/* Checks the value on top of the stack, a default's field named after variant `axis` (dtype or
 * a declared axis): a value of that variant, or a non-empty list of them. */
static void check_default_values(lua_State *L, const struct builder *b, int line,
                                 const char *axis)
{
    const int v = variant_index(b->spec, axis); /* -1: dtype */
    const int list = lua_istable(L, -1), n = list ? (int)luaL_len(L, -1) : 1;
    if ((!list && lua_type(L, -1) != LUA_TSTRING) || n < 1)
        fail_at(L, b, line, "default: %s must be a value of the variant or a list of them", axis);
    for (int i = 1; i <= n; i++) {
        if (list)
            lua_geti(L, -1, i);
        const char *val = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int ok = 0;
        if (val && v < 0)
            ok = dtype_index(val) >= 0 && (b->dtype_mask & (1 << dtype_index(val)));
        for (int c = 0; val && v >= 0 && c < b->spec->vars[v].count; c++)
            ok |= strcmp(b->spec->vars[v].values[c], val) == 0;
        if (!ok)
            fail_at(L, b, line, "default: %s = %s is not a declared value of that variant", axis,
                    val ? val : luaL_typename(L, -1));
        if (list)
            lua_pop(L, 1);
    }
}

/* Checks what only the whole spec can tell, then expands every declared tier × dtype. */
static void finish(lua_State *L, struct builder *b)
{
    if (!b->op_line)
        fail_at(L, b, 1, "no operator declared (operator \"name\" { doc = … })");
    if (!b->variant_line)
        fail_at(L, b, b->op_line, "no dtypes declared (variant \"dtype\" { … })");
    if (!b->spec->naxes)
        fail_at(L, b, b->op_line, "no tuning axes declared (tune \"name\" { … })");
    if (!b->ndefs)
        fail_at(L, b, b->op_line, "no default configuration declared (default { … })");
    int any = 0;
    for (int t = 0; t < GEN_TIERS; t++)
        any |= b->tier_line[t] != 0;
    if (!any)
        fail_at(L, b, b->op_line, "no tier declared (tier \"sm80\" { template = … })");
    for (int i = 0; i < b->spec->nvars; i++)
        if (!b->spec->vars[i].count)
            fail_at(L, b, b->var_line[i], "variant '%s' has no values (variant \"%s\" { … })",
                    b->spec->vars[i].name, b->spec->vars[i].name);
    for (int k = 0; k < b->ndefs; k++) { /* every field of a default names a tuning axis */
        lua_rawgeti(L, LUA_REGISTRYINDEX, b->defs[k].ref); /* or a variant, with its values */
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
            if (key && (strcmp(key, "dtype") == 0 || variant_index(b->spec, key) >= 0))
                check_default_values(L, b, b->defs[k].line, key);
            else if (!key || axis_index(b->spec, key) < 0)
                fail_at(L, b, b->defs[k].line, "default: '%s' is not a declared tuning axis",
                        key ? key : "?");
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    for (int t = 0; t < GEN_TIERS; t++) {
        if (!b->tier_line[t])
            continue;
        int mask = b->dtype_mask;
        if (b->tier_only[t] >= 0) {
            if (b->tier_only[t] & ~b->dtype_mask)
                fail_at(L, b, b->tier_line[t], "tier %s: only.dtype names a dtype the variant "
                        "does not declare", gen_tiers[t].name);
            mask = b->tier_only[t];
        }
        for (int d = 0; d < GEN_DTYPES; d++) {
            if (!(mask & (1 << d)))
                continue;
            struct at p = {t, d, {0}};
            for (;;) { /* odometer over the variant axes, first axis slowest */
                expand_variant(L, b, &p);
                int i = b->spec->nvars - 1;
                while (i >= 0 && ++p.var[i] == b->spec->vars[i].count)
                    p.var[i--] = 0;
                if (i < 0)
                    break;
            }
        }
    }
}

/* ---- the sandbox ------------------------------------------------------------------------ */

/* Stops a spec that runs away (a loop that never ends) instead of hanging the build. */
static void count_hook(lua_State *L, lua_Debug *ar)
{
    lua_getinfo(L, "l", ar);
    luaL_error(L, "%s:%d: spec runs too long (more than 200 million instructions)",
               get_builder(L)->chunk, ar->currentline);
}

/* Runs inside lua_pcall: opens the safe libraries, declares the constructors, runs the
 * spec, then finishes it. */
static int load_protected(lua_State *L)
{
    struct builder *b = lua_touserdata(L, 1);
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                                    {LUA_STRLIBNAME, luaopen_string},
                                    {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_MATHLIBNAME, luaopen_math},
                                    {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    /* base functions that reach the file system or load code */
    static const char *const unsafe[] = {"dofile", "loadfile", "load", "require",
                                         "collectgarbage", "print", NULL};
    for (int i = 0; unsafe[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, unsafe[i]);
    }
    static const luaL_Reg decls[] = {{"operator", decl_operator}, {"variant", decl_variant},
                                     {"tier", decl_tier},         {"tune", decl_tune},
                                     {"constraint", decl_constraint},
                                     {"default", decl_default},   {NULL, NULL}};
    lua_pushglobaltable(L);
    luaL_setfuncs(L, decls, 0);
    lua_pop(L, 1);
    lua_pushlightuserdata(L, b);
    lua_setfield(L, LUA_REGISTRYINDEX, "tileops.builder");

    char chunk[300];
    snprintf(chunk, sizeof chunk, "@%s", b->chunk);
    FILE *f = fopen(b->chunk, "r");
    if (!f)
        return luaL_error(L, "%s: cannot open the spec", b->chunk);
    fclose(f);
    if (luaL_loadfilex(L, b->chunk, "t") != LUA_OK)
        return lua_error(L);
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 200000000);
    lua_call(L, 0, 0);
    finish(L, b);
    return 0;
}

int gen_spec_load(const char *path, const struct gen_options *opt, struct gen_spec *spec,
                  char *err, size_t errlen)
{
    struct builder b;
    memset(spec, 0, sizeof *spec);
    memset(&b, 0, sizeof b);
    snprintf(spec->path, sizeof spec->path, "%s", path);
    b.spec = spec;
    b.opt = opt;
    b.chunk = spec->path;
    b.align_ref = b.smem_ref = LUA_NOREF;
    for (int t = 0; t < GEN_TIERS; t++) {
        b.tier_only[t] = -1;
        b.tier_tune_ref[t] = LUA_NOREF;
    }
    lua_State *L = luaL_newstate();
    if (!L) {
        snprintf(err, errlen, "%s: cannot create a Lua state (out of memory)", path);
        return -1;
    }
    lua_pushcfunction(L, load_protected);
    lua_pushlightuserdata(L, &b);
    int rc = lua_pcall(L, 1, 0, 0);
    if (rc != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        snprintf(err, errlen, "%s", msg ? msg : "error object is not a string");
        gen_spec_free(spec);
    }
    lua_close(L);
    return rc == LUA_OK ? 0 : -1;
}

void gen_spec_free(struct gen_spec *spec)
{
    free(spec->inst);
    spec->inst = NULL;
    spec->ninst = 0;
}
