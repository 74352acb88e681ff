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
 *   explore { threads = 512, vec = 8, unroll = 8 }  -- as default, for make tune only: it seeds
 *                                                   -- the near space, never the library
 */
#include "gen.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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

#define MAX_DECLS 32   /* constraints, and defaults, per spec */
#define MAX_FIELDS 16  /* fields per default (8 axes + 4 variants + dtype are 13) */
#define MAX_LIST 16    /* values a default lists for one variant */
#define MAX_CONFIGS (1LL << 24) /* configurations expansion may visit, over every point */
#define MAX_SPEC_BYTES (4 << 20) /* a spec file */
#define HOOK_STEP 1000 /* instructions between two looks at the limits */

enum { F_NONE, F_INT, F_FUNC, F_STR, F_LIST, F_OTHER };

/* A value as a spec gave it, copied out of Lua when it was declared: an integer, a function
 * (a registry reference), a string or a list of strings (default variant values), or a value
 * of another type (its type name, for the message). */
struct value {
    int kind;
    long long ival;
    int ref;
    const char *tname;             /* luaL_typename: static strings */
    int n;                         /* F_STR: 1, F_LIST: its entries */
    char vals[MAX_LIST][64];       /* the strings, truncated past 63 bytes */
    const char *vtype[MAX_LIST];   /* NULL for a string entry, else the entry's type name */
};

/* A constraint: its function stays a Lua reference (code, not data). */
struct cons {
    int line;
    int ref;
    char text[128];
};

/* A default, copied field by field when declared (sorted by key), resolved by finish(). */
struct field {
    char key[64];                  /* "" for a key that is not a string */
    int key_ok;                    /* a string key short enough to name an axis */
    struct value v;
};
struct def {
    int line;
    int explore;                   /* declared by explore: a seed of the near space only */
    int nfields;
    struct field f[MAX_FIELDS];
    int vmask[1 + GEN_MAX_VARIANTS]; /* dtype, each variant axis: the values it applies to
                                      * (bit per value index); 0: every value */
    int axis_field[GEN_MAX_AXES];    /* the field giving each tuning axis, -1 for none */
};

/* A tier's `tune = { axis = {…} }`, copied when declared, resolved by finish(). */
struct tier_tune {
    int n;
    struct gen_axis e[GEN_MAX_AXES];   /* name, count and values (tag unused) */
};

/* Everything a spec declares, before expansion. */
struct builder {
    struct gen_spec *spec;
    const struct gen_options *opt;
    const char *chunk;            /* the path, for deferred messages */
    char short_src[LUA_IDSIZE];   /* how Lua names the chunk in its own messages */
    lua_State *L;
    /* limits: the budgets live here, out of the spec's reach */
    size_t mem_used, mem_limit, mem_soft;
    int mem_warned;               /* past mem_soft: the hook raises at the next instruction */
    long long insns_left, insns_max;
    double cpu_start, cpu_max;
    int running;                  /* the hook may be armed from the allocator */
    int tripped;                  /* a limit was hit: every later look raises it again */
    char trip_msg[GEN_ERR];
    int last_line;                /* the latest line seen, for a message Lua gives none */
    /* declarations */
    int frozen;                   /* the chunk has run: declaring is over */
    int open_serial;              /* the declaration awaiting its body (0: none) */
    int open_line;
    char open_what[96];
    int serial;
    int op_line, variant_line;
    int dtype_mask;               /* bit per gen_dtypes index, from `variant "dtype"` */
    int tier_line[GEN_TIERS];
    int tier_only[GEN_TIERS];     /* dtype mask per tier, -1 for no narrowing */
    struct tier_tune tier_tune[GEN_TIERS];
    struct gen_axis tier_axes[GEN_TIERS][GEN_MAX_AXES]; /* resolved by finish() */
    struct value align, smem;     /* F_NONE when not declared */
    int axis_line[GEN_MAX_AXES];
    int var_line[GEN_MAX_VARIANTS];
    int ncons, ndefs;
    struct cons cons[MAX_DECLS];
    struct def defs[MAX_DECLS];
    int inst_cap;
    int point_first;              /* the first instance of the point being expanded */
};

/* ---- small helpers ---------------------------------------------------------------------- */

static struct builder *get_builder(lua_State *L)
{
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return ud;
}

/* The line of the spec statement being run (level 1: the Lua code that called us). */
static int caller_line(lua_State *L)
{
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar) && ar.currentline > 0) {
        get_builder(L)->last_line = ar.currentline;
        return ar.currentline;
    }
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
    lua_pushfstring(L, "%s:%d: %s", b->chunk, line > 0 ? line : 1, msg);
    return lua_error(L);
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

/* The string at idx (a real string, not a number), with no NUL inside. */
static const char *check_string(lua_State *L, int idx, const char *what)
{
    size_t len;
    if (lua_type(L, idx) != LUA_TSTRING)
        luaL_error(L, "%s must be a string, got %s", what, luaL_typename(L, idx));
    const char *s = lua_tolstring(L, idx, &len);
    if (strlen(s) != len)
        luaL_error(L, "%s must not hold a NUL byte", what);
    return s;
}

/* The table at idx, which must be a plain table: no metatable (its reads stay raw, its
 * length true). */
static void check_table(lua_State *L, int idx, const char *what)
{
    if (lua_type(L, idx) != LUA_TTABLE)
        luaL_error(L, "%s must be a table, got %s", what, luaL_typename(L, idx));
    if (lua_getmetatable(L, idx))
        luaL_error(L, "%s must be a plain table (it has a metatable)", what);
}

/* Pushes t[name] for the table at idx, raw. */
static int rawfield(lua_State *L, int idx, const char *name)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, name);
    return lua_rawget(L, idx);
}

/* The length of the list part of the plain table at idx, at most max entries. */
static int list_len(lua_State *L, int idx, const char *what, int max)
{
    lua_Unsigned n = lua_rawlen(L, idx);
    if (n > (lua_Unsigned)max)
        luaL_error(L, "%s has %I values (at most %d)", what,
                   (lua_Integer)(n > LUA_MAXINTEGER ? LUA_MAXINTEGER : n), max);
    return (int)n;
}

/* Rejects string keys of the table at idx that are not in `allowed` (NULL-terminated), and
 * positional entries unless `list_ok` (then only 1 to its length, no holes past it). The
 * first offender in sorted order is reported. */
static void check_fields(lua_State *L, int idx, const char *what, const char *const *allowed,
                         int list_ok)
{
    char bad[64] = "";
    idx = lua_absindex(L, idx);
    check_table(L, idx, what);
    lua_Unsigned len = lua_rawlen(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            int ok = 0;
            for (int i = 0; allowed[i]; i++)
                ok |= strcmp(allowed[i], k) == 0;
            if (!ok && (!bad[0] || strcmp(k, bad) < 0))
                snprintf(bad, sizeof bad, "%s", k[0] ? k : "\"\"");
        } else if (!list_ok || !lua_isinteger(L, -1)) {
            luaL_error(L, list_ok ? "%s takes a list and named fields, not a %s key"
                                  : "%s takes named fields only", what, luaL_typename(L, -1));
        } else {
            lua_Integer k = lua_tointeger(L, -1);
            if (k < 1 || (lua_Unsigned)k > len)
                luaL_error(L, "%s: entry [%I] is not in its list (1 to %I, no holes)", what,
                           k, (lua_Integer)len);
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
    int mask = 0;
    idx = lua_absindex(L, idx);
    check_fields(L, idx, what, (const char *const[]){NULL}, 1);
    int n = list_len(L, idx, what, GEN_DTYPES);
    if (n == 0)
        luaL_error(L, "%s lists no dtypes", what);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
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

/* Reads the list part of the table at idx as distinct integers from 0 to 2^20. */
static int read_ints(lua_State *L, int idx, const char *what, int *out)
{
    idx = lua_absindex(L, idx);
    check_table(L, idx, what);
    int n = list_len(L, idx, what, GEN_MAX_VALUES);
    if (n == 0)
        luaL_error(L, "%s has no values", what);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        if (!lua_isinteger(L, -1))
            luaL_error(L, "%s: value %d must be an integer, got %s", what, i,
                       lua_type(L, -1) == LUA_TNUMBER ? "a fraction" : luaL_typename(L, -1));
        lua_Integer v = lua_tointeger(L, -1);
        if (v < 0 || v > 1 << 20)
            luaL_error(L, "%s: value %d is %I (expected 0 to %d)", what, i, v,
                       1 << 20);
        for (int j = 0; j < i - 1; j++)
            if (out[j] == v)
                luaL_error(L, "%s lists %I twice", what, v);
        out[i - 1] = (int)v;
        lua_pop(L, 1);
    }
    return n;
}

/* Copies the value at idx out of Lua: integers and functions (a registry reference) are
 * taken; strings, with `strings`, and lists of strings; anything else keeps its type name. */
static void copy_value(lua_State *L, int idx, const char *what, int strings, struct value *v)
{
    idx = lua_absindex(L, idx);
    memset(v, 0, sizeof *v);
    v->ref = LUA_NOREF;
    v->tname = luaL_typename(L, idx);
    if (lua_isinteger(L, idx)) {
        v->kind = F_INT;
        v->ival = (long long)lua_tointeger(L, idx);
    } else if (lua_type(L, idx) == LUA_TFUNCTION) {
        v->kind = F_FUNC;
        lua_pushvalue(L, idx);
        v->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else if (strings && lua_type(L, idx) == LUA_TSTRING) {
        v->kind = F_STR;
        v->n = 1;
        snprintf(v->vals[0], sizeof v->vals[0], "%s", lua_tostring(L, idx));
    } else if (strings && lua_type(L, idx) == LUA_TTABLE) {
        check_fields(L, idx, what, (const char *const[]){NULL}, 1);
        v->kind = F_LIST;
        v->n = list_len(L, idx, what, MAX_LIST);
        for (int i = 0; i < v->n; i++) {
            lua_rawgeti(L, idx, i + 1);
            if (lua_type(L, -1) == LUA_TSTRING)
                snprintf(v->vals[i], sizeof v->vals[i], "%s", lua_tostring(L, -1));
            else
                v->vtype[i] = luaL_typename(L, -1);
            lua_pop(L, 1);
        }
    } else {
        v->kind = F_OTHER;
    }
}

/* Stores the value at idx (an integer or a function); nil gives F_NONE. */
static void number_or_function(lua_State *L, int idx, const char *what, struct value *v)
{
    int t = lua_type(L, idx);
    memset(v, 0, sizeof *v);
    v->ref = LUA_NOREF;
    if (t == LUA_TNIL)
        return;
    if (t != LUA_TFUNCTION && !lua_isinteger(L, idx))
        luaL_error(L, "field '%s' must be an integer or a function, got %s", what,
                   luaL_typename(L, idx));
    copy_value(L, idx, what, 0, v);
}

/* A declaration's name stage: `tune "x"` opens the declaration, its body `{ … }` closes it.
 * Declaring happens while the chunk runs, one declaration at a time; a body is taken once.
 * Returns the serial its body closure keeps. */
static int open_decl(lua_State *L, struct builder *b, const char *fmt, const char *name)
{
    if (b->frozen)
        luaL_error(L, "declarations belong to the spec's top level, not to a constraint or "
                   "default that runs after it");
    if (b->open_serial)
        fail_at(L, b, b->open_line, "%s is not followed by its body", b->open_what);
    snprintf(b->open_what, sizeof b->open_what, fmt, name);
    b->open_line = caller_line(L);
    b->open_serial = ++b->serial;
    return b->serial;
}

/* The body stage: checks that its declaration is the one open, and closes it. */
static struct builder *body_of(lua_State *L, int serial_upvalue)
{
    struct builder *b = get_builder(L);
    int serial = (int)lua_tointeger(L, lua_upvalueindex(serial_upvalue));
    if (b->frozen)
        luaL_error(L, "declarations belong to the spec's top level, not to a constraint or "
                   "default that runs after it");
    if (serial != b->open_serial)
        luaL_error(L, "a declaration's body is given once, right after its name");
    b->open_serial = 0;
    return b;
}

/* ---- the declarations -------------------------------------------------------------------- */

/* operator "name" { doc = "…", align = n | function(c), smem = n | function(c),
 *                   serves = "op" } */
static int decl_operator_body(lua_State *L)
{
    struct builder *b = body_of(L, 1);
    static const char *const fields[] = {"align", "doc", "serves", "smem", NULL};
    check_fields(L, 1, "operator", fields, 0);
    rawfield(L, 1, "doc");
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "operator: field 'doc' must be a string, got %s", luaL_typename(L, -1));
    size_t dlen;
    const char *doc = lua_tolstring(L, -1, &dlen);
    if (dlen >= sizeof b->spec->doc)
        luaL_error(L, "operator: field 'doc' is %d bytes long (at most %d)", (int)dlen,
                   (int)sizeof b->spec->doc - 1);
    /* the generated files quote it in // comments: one line, no continuation */
    for (size_t i = 0; i < dlen; i++)
        if ((unsigned char)doc[i] < 0x20 || doc[i] == 0x7f || (doc[i] == '\\' && i + 1 == dlen))
            luaL_error(L, "operator: field 'doc' must be one line of text (no control "
                       "characters, no trailing backslash)");
    snprintf(b->spec->doc, sizeof b->spec->doc, "%s", doc);
    /* serves: a second kernel family (another template, its own tuning space) for the API
     * operator of another spec; dispatch weighs both families' instances */
    rawfield(L, 1, "serves");
    if (!lua_isnil(L, -1)) {
        const char *sv = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        size_t n = strspn(sv, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (!sv[0] || sv[n] || n >= sizeof b->spec->serves || lua_rawlen(L, -1) != n)
            luaL_error(L, "operator: field 'serves' must name an operator (lower-case letters, "
                       "digits and _)");
        snprintf(b->spec->serves, sizeof b->spec->serves, "%s", sv);
    }
    rawfield(L, 1, "align");
    number_or_function(L, -1, "align", &b->align);
    rawfield(L, 1, "smem");
    number_or_function(L, -1, "smem", &b->smem);
    b->spec->has_smem = b->smem.kind != F_NONE;
    return 0;
}

static int decl_operator(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *name = check_string(L, 1, "operator name");
    if (b->op_line)
        luaL_error(L, "operator declared twice (first at line %d)", b->op_line);
    size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (!name[0] || name[n] || n >= sizeof b->spec->op)
        luaL_error(L, "operator name '%s' must be lower-case letters, digits and _", name);
    int serial = open_decl(L, b, "operator '%s'", name);
    snprintf(b->spec->op, sizeof b->spec->op, "%s", name);
    snprintf(b->spec->serves, sizeof b->spec->serves, "%s", name);
    b->op_line = b->spec->op_line = b->open_line;
    lua_pushinteger(L, serial);
    lua_pushcclosure(L, decl_operator_body, 1);
    return 1;
}

/* variant "dtype" { "f32", "f16" } */
static int decl_dtypes_body(lua_State *L)
{
    struct builder *b = body_of(L, 1);
    b->dtype_mask = read_dtypes(L, 1, "variant 'dtype'");
    return 0;
}

/* variant "mode" { "plain", "log" }: named choices, each compiled; `tag = "d"` puts "d" before
 * the value in instance names. */
static int decl_choices_body(lua_State *L)
{
    struct builder *b = body_of(L, 2);
    struct gen_variant *v = &b->spec->vars[lua_tointeger(L, lua_upvalueindex(1))];
    char what[64];
    snprintf(what, sizeof what, "variant '%s'", v->name);
    check_fields(L, 1, what, (const char *const[]){"tag", NULL}, 1);
    rawfield(L, 1, "tag");
    const char *tag = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    if (lua_type(L, -1) != LUA_TNIL &&
        (lua_type(L, -1) != LUA_TSTRING || !tag[0] || strlen(tag) >= sizeof v->tag ||
         tag[strspn(tag, "abcdefghijklmnopqrstuvwxyz")]))
        luaL_error(L, "%s: tag must be a short lower-case word", what);
    snprintf(v->tag, sizeof v->tag, "%s", tag);
    lua_pop(L, 1);
    int n = list_len(L, 1, what, GEN_MAX_CHOICES);
    if (n == 0)
        luaL_error(L, "%s has no values", what);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
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
    const char *name = check_string(L, 1, "variant name");
    if (strcmp(name, "dtype") == 0) {
        if (b->variant_line)
            luaL_error(L, "variant 'dtype' declared twice (first at line %d)", b->variant_line);
        lua_pushinteger(L, open_decl(L, b, "variant '%s'", name));
        b->variant_line = b->open_line;
        lua_pushcclosure(L, decl_dtypes_body, 1);
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
    int serial = open_decl(L, b, "variant '%s'", name);
    i = s->nvars++;
    snprintf(s->vars[i].name, sizeof s->vars[i].name, "%s", name);
    b->var_line[i] = b->open_line;
    lua_pushinteger(L, i);
    lua_pushinteger(L, serial);
    lua_pushcclosure(L, decl_choices_body, 2);
    return 1;
}

static int by_axis_name(const void *a, const void *b)
{
    return strcmp(((const struct gen_axis *)a)->name, ((const struct gen_axis *)b)->name);
}

/* tier "sm80" { template = "name", only = { dtype = {…} }, tune = { axis = {…} } } */
static int decl_tier_body(lua_State *L)
{
    struct builder *b = body_of(L, 2);
    int t = (int)lua_tointeger(L, lua_upvalueindex(1));
    const char *tname = gen_tiers[t].name;
    char what[64];
    static const char *const fields[] = {"only", "template", "tune", NULL};
    snprintf(what, sizeof what, "tier %s", tname);
    check_fields(L, 1, what, fields, 0);

    rawfield(L, 1, "template");
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "tier %s: field 'template' must be a string, got %s", tname,
                   luaL_typename(L, -1));
    const char *templ = lua_tostring(L, -1);
    if (!templ[0] || templ[strspn(templ, "abcdefghijklmnopqrstuvwxyz0123456789_")] ||
        strlen(templ) >= sizeof b->spec->templ[t] || strlen(templ) != lua_rawlen(L, -1))
        luaL_error(L, "tier %s: template name '%s' must be lower-case letters, digits and _",
                   tname, templ);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.cu", b->opt->templates, templ);
    if (access(path, R_OK) != 0)
        luaL_error(L, "tier %s: template '%s' does not exist (%s)", tname, templ, path);
    snprintf(b->spec->templ[t], sizeof b->spec->templ[t], "%s", templ);

    rawfield(L, 1, "only");
    if (!lua_isnil(L, -1)) {
        snprintf(what, sizeof what, "tier %s: only", tname);
        check_fields(L, -1, what, (const char *const[]){"dtype", NULL}, 0);
        rawfield(L, -1, "dtype");
        if (!lua_istable(L, -1))
            luaL_error(L, "tier %s: only.dtype must be a list of dtypes", tname);
        b->tier_only[t] = read_dtypes(L, lua_gettop(L), "only.dtype");
    }
    rawfield(L, 1, "tune");
    if (!lua_isnil(L, -1)) {
        struct tier_tune *tt = &b->tier_tune[t];
        if (!lua_istable(L, -1))
            luaL_error(L, "tier %s: field 'tune' must be a table of axis = {values}", tname);
        snprintf(what, sizeof what, "tier %s: tune", tname);
        check_table(L, -1, what);
        lua_pushnil(L);
        while (lua_next(L, -2)) { /* copied now, resolved once every axis is declared */
            if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
                luaL_error(L, "tier %s: tune must map axis names to lists of integers", tname);
            const char *k = lua_tostring(L, -2);
            if (strlen(k) >= sizeof tt->e[0].name || !word(k, sizeof tt->e[0].name))
                luaL_error(L, "tier %s: tune '%s' is not a declared tuning axis", tname, k);
            if (tt->n == GEN_MAX_AXES)
                luaL_error(L, "tier %s: tune names more than %d axes", tname, GEN_MAX_AXES);
            struct gen_axis *e = &tt->e[tt->n++];
            snprintf(e->name, sizeof e->name, "%s", k);
            snprintf(what, sizeof what, "tier %s: tune.%s", tname, k);
            e->count = read_ints(L, lua_gettop(L), what, e->values);
            lua_pop(L, 1);
        }
        qsort(tt->e, (size_t)tt->n, sizeof tt->e[0], by_axis_name);
    }
    return 0;
}

static int decl_tier(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *name = check_string(L, 1, "tier name");
    int t = tier_index(name);
    if (t < 0)
        luaL_error(L, "unknown tier '%s' (expected sm70, sm80, sm90)", name);
    if (b->tier_line[t])
        luaL_error(L, "tier %s declared twice (first at line %d)", name, b->tier_line[t]);
    int serial = open_decl(L, b, "tier %s", name);
    b->tier_line[t] = b->open_line;
    lua_pushinteger(L, t);
    lua_pushinteger(L, serial);
    lua_pushcclosure(L, decl_tier_body, 2);
    return 1;
}

/* tune "threads" { 128, 256, tag = "t" } */
static int decl_tune_body(lua_State *L)
{
    struct builder *b = body_of(L, 2);
    struct gen_axis *ax = &b->spec->axes[lua_tointeger(L, lua_upvalueindex(1))];
    char what[64];
    snprintf(what, sizeof what, "tune '%s'", ax->name);
    check_fields(L, 1, what, (const char *const[]){"tag", NULL}, 1);
    ax->count = read_ints(L, 1, what, ax->values);
    rawfield(L, 1, "tag");
    int has_tag = !lua_isnil(L, -1);
    const char *tag = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    if (has_tag && (lua_type(L, -1) != LUA_TSTRING || !tag[0] || strlen(tag) >= sizeof ax->tag ||
                    tag[strspn(tag, "abcdefghijklmnopqrstuvwxyz")]))
        luaL_error(L, "%s: tag must be a short lower-case word", what);
    snprintf(ax->tag, sizeof ax->tag, "%.1s%s", has_tag ? "" : ax->name, tag);
    for (struct gen_axis *o = b->spec->axes; o < ax; o++)
        if (strcmp(o->tag, ax->tag) == 0)
            luaL_error(L, "%s: tag '%s' is already used by tune '%s'", what, ax->tag, o->name);
    return 0;
}

static int decl_tune(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *name = check_string(L, 1, "tune name");
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
    int serial = open_decl(L, b, "tune '%s'", name);
    i = s->naxes++;
    snprintf(s->axes[i].name, sizeof s->axes[i].name, "%s", name);
    b->axis_line[i] = b->open_line;
    lua_pushinteger(L, i);
    lua_pushinteger(L, serial);
    lua_pushcclosure(L, decl_tune_body, 2);
    return 1;
}

/* constraint "why" (function(c) return … end) */
static int decl_constraint_body(lua_State *L)
{
    struct builder *b = body_of(L, 3);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (b->ncons == MAX_DECLS)
        luaL_error(L, "too many constraints (at most %d)", MAX_DECLS);
    struct cons *d = &b->cons[b->ncons++];
    d->line = (int)lua_tointeger(L, lua_upvalueindex(1));
    snprintf(d->text, sizeof d->text, "%s", lua_tostring(L, lua_upvalueindex(2)));
    lua_pushvalue(L, 1);
    d->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static int decl_constraint(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *text = check_string(L, 1, "constraint description");
    if (!text[0])
        luaL_error(L, "constraint needs a description of what it prunes");
    if (strlen(text) >= sizeof b->cons[0].text)
        luaL_error(L, "constraint description is %d bytes long (at most %d)", (int)strlen(text),
                   (int)sizeof b->cons[0].text - 1);
    if (b->ncons == MAX_DECLS)
        luaL_error(L, "too many constraints (at most %d)", MAX_DECLS);
    int serial = open_decl(L, b, "constraint '%s'", text);
    lua_pushinteger(L, b->open_line);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, serial);
    lua_pushcclosure(L, decl_constraint_body, 3);
    return 1;
}

/* A tune_shapes value: a token tileops-bench takes as an option's value. */
static const char *check_token(lua_State *L, int idx, const char *what)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TNUMBER && lua_isinteger(L, idx)) {
        lua_pushfstring(L, "%I", lua_tointeger(L, idx));
        lua_replace(L, idx);
    }
    const char *v = check_string(L, idx, what);
    if (!v[0] || strlen(v) > 40 || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(v))
        luaL_error(L, "%s: '%s' is not 1 to 40 lower-case letters, digits or _", what, v);
    return v;
}

/* tune_shapes { { shape = "4096x4096x4096", dtype = { "f16", "bf16" }, layout = "nk" }, … }:
 * the cases tileops-tune times, as tileops-bench options; a field that lists values expands to
 * one case per value (every combination of the lists). */
static int decl_tune_shapes(lua_State *L)
{
    static const char *const fields[] = {"shape", "dtype", "layout", "epilogue", "causal",
                                         "mode", "n", "softcap", NULL};
    enum { NF = 8, MAXV = 32 };
    struct builder *b = get_builder(L);
    struct gen_spec *s = b->spec;
    if (b->frozen)
        luaL_error(L, "declarations belong to the spec's top level, not to a constraint or "
                   "default that runs after it");
    if (b->open_serial)
        fail_at(L, b, b->open_line, "%s is not followed by its body", b->open_what);
    if (s->ntune)
        luaL_error(L, "tune_shapes declared twice");
    check_fields(L, 1, "tune_shapes", (const char *const[]){NULL}, 1);
    const int n = list_len(L, 1, "tune_shapes", GEN_MAX_TUNE);
    for (int i = 1; i <= n; i++) {
        char what[48], vals[NF][MAXV][48];
        int count[NF] = {0}, idx[NF] = {0};
        snprintf(what, sizeof what, "tune_shapes[%d]", i);
        lua_rawgeti(L, 1, i);
        const int at = lua_gettop(L);
        check_fields(L, at, what, fields, 0);
        for (int f = 0; f < NF; f++) {
            const int type = rawfield(L, at, fields[f]);
            if (type == LUA_TTABLE) {
                check_fields(L, -1, what, (const char *const[]){NULL}, 1);
                count[f] = list_len(L, -1, what, MAXV);
                for (int v = 0; v < count[f]; v++) {
                    lua_rawgeti(L, -1, v + 1);
                    snprintf(vals[f][v], sizeof vals[f][v], "%s", check_token(L, -1, what));
                    lua_pop(L, 1);
                }
                if (!count[f])
                    luaL_error(L, "%s: %s lists no value", what, fields[f]);
            } else if (type != LUA_TNIL) {
                snprintf(vals[f][0], sizeof vals[f][0], "%s", check_token(L, -1, what));
                count[f] = 1;
            }
            lua_pop(L, 1);
        }
        if (!count[0] && !count[6])
            luaL_error(L, "%s needs a shape (or n, for vector_add)", what);
        for (;;) { /* every combination, first field slowest */
            if (s->ntune == GEN_MAX_TUNE)
                luaL_error(L, "tune_shapes: more than %d cases", GEN_MAX_TUNE);
            char *c = s->tune[s->ntune++];
            c[0] = '\0';
            for (int f = 0; f < NF; f++)
                if (count[f])
                    snprintf(c + strlen(c), GEN_TUNE_LEN - strlen(c), "%s--%s %s", c[0] ? " " : "",
                             fields[f], vals[f][idx[f]]);
            int f = NF - 1;
            while (f >= 0 && (!count[f] || ++idx[f] == count[f]))
                idx[f--] = 0;
            if (f < 0)
                break;
        }
        lua_pop(L, 1);
    }
    return 0;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct field *)a)->key, ((const struct field *)b)->key);
}

/* default { axis = n | function(c), … }: one configuration emitted without a tuning table;
 * explore { … }: one that only seeds the near space (make tune times it and its neighbours;
 * the library holds it only where a tuning table names it). Copied field by field now: what
 * the table holds later does not matter. Both count against MAX_DECLS and share messages. */
static int declare_config(lua_State *L, int explore)
{
    struct builder *b = get_builder(L);
    if (b->frozen)
        luaL_error(L, "declarations belong to the spec's top level, not to a constraint or "
                   "default that runs after it");
    if (b->open_serial)
        fail_at(L, b, b->open_line, "%s is not followed by its body", b->open_what);
    const char *kind = explore ? "explore" : "default";
    check_table(L, 1, kind);
    if (b->ndefs == MAX_DECLS)
        luaL_error(L, "too many defaults and explores (at most %d)", MAX_DECLS);
    struct def *d = &b->defs[b->ndefs];
    memset(d, 0, sizeof *d);
    d->line = caller_line(L);
    d->explore = explore;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (d->nfields == MAX_FIELDS)
            luaL_error(L, "%s has more than %d fields", kind, MAX_FIELDS);
        struct field *f = &d->f[d->nfields++];
        char what[96];
        if (lua_type(L, -2) == LUA_TSTRING) {
            size_t klen;
            const char *k = lua_tolstring(L, -2, &klen);
            snprintf(f->key, sizeof f->key, "%s", k);
            f->key_ok = klen < 32 && strlen(k) == klen;
        }
        snprintf(what, sizeof what, "%s: %s", kind, f->key[0] ? f->key : "?");
        copy_value(L, -1, what, 1, &f->v);
        lua_pop(L, 1);
    }
    qsort(d->f, (size_t)d->nfields, sizeof d->f[0], by_key);
    b->ndefs++;
    return 0;
}
static int decl_default(lua_State *L)
{
    return declare_config(L, 0);
}
static int decl_explore(lua_State *L)
{
    return declare_config(L, 1);
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

/* Evaluates a copied value, an integer or a function of the context, into an int: anything
 * else, or an integer beyond int, is an error at `line`. */
static int eval_value(lua_State *L, struct builder *b, const struct value *v, int line,
                      const char *what, const struct at *p, const int *params)
{
    long long x;
    if (v->kind == F_FUNC) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, v->ref);
        push_context(L, b->spec, p, params);
        b->last_line = line;
        lua_call(L, 1, 1);
        if (!lua_isinteger(L, -1))
            fail_at(L, b, line, "%s must give an integer, got %s", what, luaL_typename(L, -1));
        x = (long long)lua_tointeger(L, -1);
        lua_pop(L, 1);
    } else if (v->kind == F_INT) {
        x = v->ival;
    } else {
        fail_at(L, b, line, "%s must give an integer, got %s",
                what, v->kind == F_LIST ? "table" : v->tname);
        return 0;
    }
    if (x < INT_MIN || x > INT_MAX)
        fail_at(L, b, line, "%s gives %lld, beyond the range of int", what, x);
    return (int)x;
}

/* tileops_<op>_<tier>_<dtype>_<variant values…>_<tag><value>…; returns 0 if it fits in
 * GEN_NAME (with a byte to spare), -1 if it was cut. */
static int format_name(const struct gen_spec *s, const struct at *p, const int *params,
                       char *out)
{
    size_t n = 0;
    int cut = 0;
#define APPEND(...)                                                                          \
    do {                                                                                     \
        int w_ = n < GEN_NAME ? snprintf(out + n, GEN_NAME - n, __VA_ARGS__) : 0;            \
        if (w_ < 0 || n + (size_t)w_ >= GEN_NAME)                                            \
            cut = 1, n = GEN_NAME;                                                           \
        else                                                                                 \
            n += (size_t)w_;                                                                 \
    } while (0)
    out[0] = 0;
    APPEND("tileops_%s_%s_%s", s->op, gen_tiers[p->t].name, gen_dtypes[p->d].name);
    for (int i = 0; i < s->nvars; i++)
        APPEND("_%s%s", s->vars[i].tag, s->vars[i].values[p->var[i]]);
    for (int i = 0; i < s->naxes; i++)
        APPEND("_%s%d", s->axes[i].tag, params[i]);
#undef APPEND
    return cut || strlen(out) >= GEN_NAME - 1 ? -1 : 0;
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
static int pruned_by(lua_State *L, struct builder *b, const struct at *p, const int *params)
{
    for (int k = 0; k < b->ncons; k++) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, b->cons[k].ref);
        push_context(L, b->spec, p, params);
        b->last_line = b->cons[k].line;
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

static void add_instance(lua_State *L, struct builder *b, const struct at *p, const int *params)
{
    struct gen_spec *s = b->spec;
    struct gen_instance *in;
    const int t = p->t, d = p->d;
    /* two defaults may give the same configuration; instances of other points differ */
    for (int i = b->point_first; i < s->ninst; i++)
        if (memcmp(s->inst[i].params, params, sizeof s->inst[i].params) == 0)
            return;
    if (s->ninst == GEN_MAX_INSTANCES)
        fail_at(L, b, b->op_line, "more than %d instances", GEN_MAX_INSTANCES);
    if (s->ninst == b->inst_cap) {
        int cap = b->inst_cap ? 2 * b->inst_cap : 64;
        in = realloc(s->inst, (size_t)cap * sizeof *in);
        if (!in)
            fail_at(L, b, b->op_line, "out of memory");
        s->inst = in;
        b->inst_cap = cap;
    }
    in = &s->inst[s->ninst++];
    memset(in, 0, sizeof *in);
    in->tier = t;
    in->dtype = d;
    memcpy(in->var, p->var, sizeof in->var);
    for (int i = 0, stride = 1; i < s->nvars; stride *= s->vars[i++].count)
        in->variant += p->var[i] * stride;
    memcpy(in->params, params, sizeof in->params);
    if (format_name(s, p, params, in->name) != 0)
        fail_at(L, b, b->op_line, "instance name %s… is too long (at most %d characters)",
                in->name, GEN_NAME - 2);
    in->align = b->align.kind == F_NONE
                    ? gen_dtypes[d].bytes
                    : eval_value(L, b, &b->align, b->op_line, "operator align", p, params);
    in->smem = b->smem.kind == F_NONE
                   ? 0
                   : eval_value(L, b, &b->smem, b->op_line, "operator smem", p, params);
    /* dispatch divides addresses by align and compares smem with the device's limit */
    if (in->align < 1 || (in->align & (in->align - 1)) || in->align > 4096)
        fail_at(L, b, b->op_line, "operator align must be a power of two from 1 to 4096, got "
                "%d for %s", in->align, in->name);
    if (in->smem < 0 || in->smem > gen_tiers[t].smem_limit)
        fail_at(L, b, b->op_line, "operator smem must be 0 to %d bytes on %s, got %d for %s",
                gen_tiers[t].smem_limit, gen_tiers[t].name, in->smem, in->name);
}

/* Does a default apply at point p? One that names a variant (dtype or another axis) applies
 * only where that variant takes one of the values it lists (finish() resolved them). */
static int default_applies(const struct builder *b, const struct def *def, const struct at *p)
{
    if (def->vmask[0] && !(def->vmask[0] & (1 << p->d)))
        return 0;
    for (int i = 0; i < b->spec->nvars; i++)
        if (def->vmask[1 + i] && !(def->vmask[1 + i] & (1 << p->var[i])))
            return 0;
    return 1;
}

/* The near space of one point: every surviving configuration that differs from one of the n
 * defaults `defs` in at most one tuning axis, in odometer order. */
static void expand_near(lua_State *L, struct builder *b, const struct at *p,
                        int (*defs)[GEN_MAX_AXES], int n)
{
    const struct gen_spec *s = b->spec;
    const struct gen_axis *axes = b->tier_axes[p->t];
    int idx[GEN_MAX_AXES] = {0}, params[GEN_MAX_AXES] = {0};
    for (;;) {
        for (int i = 0; i < s->naxes; i++)
            params[i] = axes[i].values[idx[i]];
        int near = 0;
        for (int d = 0; d < n && !near; d++) {
            int diff = 0;
            for (int i = 0; i < s->naxes; i++)
                diff += params[i] != defs[d][i];
            near = diff <= 1;
        }
        if (near && pruned_by(L, b, p, params) < 0)
            add_instance(L, b, p, params);
        int i = s->naxes - 1;
        while (i >= 0 && ++idx[i] == axes[i].count)
            idx[i--] = 0;
        if (i < 0)
            break;
    }
}

/* Expands one point (tier, dtype, variant values): the whole pruned space (opt->all), the
 * defaults and their neighbours (opt->near), or the defaults. */
static void expand_variant(lua_State *L, struct builder *b, const struct at *p)
{
    const struct gen_spec *s = b->spec;
    const struct gen_options *opt = b->opt;
    const struct gen_axis *axes = b->tier_axes[p->t];
    int idx[GEN_MAX_AXES] = {0}, params[GEN_MAX_AXES] = {0}, survivors = 0, last_cons = -1;
    char name[GEN_NAME], where[128];

    b->point_first = s->ninst;
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

    int emitted = 0, applicable = 0, seeds = 0, near[MAX_DECLS][GEN_MAX_AXES];
    for (int k = 0; k < b->ndefs; k++) {
        const struct def *def = &b->defs[k];
        const char *kind = def->explore ? "explore" : "default";
        if (!default_applies(b, def, p))
            continue;
        applicable += !def->explore;
        for (int i = 0; i < s->naxes; i++) {
            char what[64];
            if (def->axis_field[i] < 0)
                fail_at(L, b, def->line, "%s: no value for tune '%s'", kind, s->axes[i].name);
            snprintf(what, sizeof what, "%s: %s", kind, s->axes[i].name);
            params[i] = eval_value(L, b, &def->f[def->axis_field[i]].v, def->line, what, p,
                                   NULL);
        }
        int bad;
        if (!in_space(s, s->axes, params, &bad))
            fail_at(L, b, def->line, "%s: %s=%d is not in the tuning space of %s", kind,
                    s->axes[bad].name, params[bad], where);
        if (!in_space(s, axes, params, &bad)) { /* outside the tier's own `tune` narrowing */
            if (opt->verbose && opt->log) {
                format_name(s, p, params, name);
                fprintf(opt->log, "%s %s (%s:%d) skipped: %s=%d is not in tier %s's tune\n",
                        kind, name, b->chunk, def->line, s->axes[bad].name, params[bad],
                        gen_tiers[p->t].name);
            }
            continue;
        }
        int k2 = pruned_by(L, b, p, params);
        if (k2 >= 0) {
            if (opt->verbose && opt->log) {
                format_name(s, p, params, name);
                fprintf(opt->log, "%s %s (%s:%d) pruned: %s\n", kind, name, b->chunk,
                        def->line, b->cons[k2].text);
            }
            continue;
        }
        if (opt->near)
            memcpy(near[seeds++], params, sizeof near[0]);
        else if (!def->explore)
            add_instance(L, b, p, params);
        emitted += !def->explore;
    }
    if (!applicable)
        fail_at(L, b, b->defs[0].line, "no default configuration is declared for %s", where);
    if (!emitted)
        fail_at(L, b, b->defs[0].line, "no default configuration survives the constraints for %s",
                where);
    if (opt->near)
        expand_near(L, b, p, near, seeds);
}

/* Resolves a default's field named after variant `axis` (dtype or a declared axis): a value
 * of that variant, or a non-empty list of them, into the mask of value indexes. */
static int default_values_mask(lua_State *L, const struct builder *b, int line,
                               const char *axis, const struct value *val)
{
    const int v = variant_index(b->spec, axis); /* -1: dtype */
    const int list = val->kind == F_LIST, n = list ? val->n : 1;
    int mask = 0;
    if ((!list && val->kind != F_STR) || n < 1)
        fail_at(L, b, line, "default: %s must be a value of the variant or a list of them", axis);
    for (int i = 0; i < n; i++) {
        const char *s = val->vtype[i] ? NULL : val->vals[i];
        int found = -1;
        if (s && v < 0 && dtype_index(s) >= 0 && (b->dtype_mask & (1 << dtype_index(s))))
            found = dtype_index(s);
        for (int c = 0; s && v >= 0 && c < b->spec->vars[v].count; c++)
            if (strcmp(b->spec->vars[v].values[c], s) == 0)
                found = c;
        if (found < 0)
            fail_at(L, b, line, "default: %s = %s is not a declared value of that variant", axis,
                    s ? s : val->vtype[i]);
        mask |= 1 << found;
    }
    return mask;
}

/* Checks what only the whole spec can tell, then expands every declared tier × dtype. */
static void finish(lua_State *L, struct builder *b)
{
    struct gen_spec *s = b->spec;
    if (b->open_serial)
        fail_at(L, b, b->open_line, "%s is not followed by its body", b->open_what);
    if (!b->op_line)
        fail_at(L, b, 1, "no operator declared (operator \"name\" { doc = … })");
    if (!b->variant_line)
        fail_at(L, b, b->op_line, "no dtypes declared (variant \"dtype\" { … })");
    if (!s->naxes)
        fail_at(L, b, b->op_line, "no tuning axes declared (tune \"name\" { … })");
    if (!b->ndefs)
        fail_at(L, b, b->op_line, "no default configuration declared (default { … })");
    int any = 0;
    for (int t = 0; t < GEN_TIERS; t++)
        any |= b->tier_line[t] != 0;
    if (!any)
        fail_at(L, b, b->op_line, "no tier declared (tier \"sm80\" { template = … })");
    if (!b->dtype_mask)
        fail_at(L, b, b->variant_line, "variant 'dtype' has no values (variant \"dtype\" { … })");
    for (int i = 0; i < s->nvars; i++)
        if (!s->vars[i].count)
            fail_at(L, b, b->var_line[i], "variant '%s' has no values (variant \"%s\" { … })",
                    s->vars[i].name, s->vars[i].name);
    for (int i = 0; i < s->naxes; i++)
        if (!s->axes[i].count)
            fail_at(L, b, b->axis_line[i], "tune '%s' has no values", s->axes[i].name);
    for (int k = 0; k < b->ndefs; k++) { /* every field of a default names a tuning axis */
        struct def *d = &b->defs[k];      /* or a variant, with its values */
        for (int i = 0; i < GEN_MAX_AXES; i++)
            d->axis_field[i] = -1;
        for (int j = 0; j < d->nfields; j++) {
            const struct field *f = &d->f[j];
            const char *key = f->key_ok ? f->key : NULL;
            int v = key ? variant_index(s, key) : -1, a = key ? axis_index(s, key) : -1;
            if (key && strcmp(key, "dtype") == 0)
                d->vmask[0] = default_values_mask(L, b, d->line, key, &f->v);
            else if (v >= 0)
                d->vmask[1 + v] = default_values_mask(L, b, d->line, key, &f->v);
            else if (a >= 0)
                d->axis_field[a] = j;
            else
                fail_at(L, b, d->line, "%s: '%s' is not a declared tuning axis",
                        d->explore ? "explore" : "default", f->key[0] ? f->key : "?");
        }
    }
    long long configs = 0;
    for (int t = 0; t < GEN_TIERS; t++) {
        if (!b->tier_line[t])
            continue;
        /* the tier's tuning space: the spec's axes with the tier's `tune` overrides */
        memcpy(b->tier_axes[t], s->axes, sizeof s->axes);
        for (int j = 0; j < b->tier_tune[t].n; j++) {
            const struct gen_axis *e = &b->tier_tune[t].e[j];
            int i = axis_index(s, e->name);
            if (i < 0)
                fail_at(L, b, b->tier_line[t], "tier %s: tune '%s' is not a declared tuning axis",
                        gen_tiers[t].name, e->name);
            b->tier_axes[t][i].count = e->count;
            memcpy(b->tier_axes[t][i].values, e->values, sizeof e->values);
        }
        if (b->tier_only[t] >= 0 && (b->tier_only[t] & ~b->dtype_mask))
            fail_at(L, b, b->tier_line[t], "tier %s: only.dtype names a dtype the variant "
                    "does not declare", gen_tiers[t].name);
        long long n = 0;
        for (int d = 0; d < GEN_DTYPES; d++)
            n += ((b->tier_only[t] >= 0 ? b->tier_only[t] : b->dtype_mask) >> d) & 1;
        for (int i = 0; i < s->nvars; i++)
            n *= s->vars[i].count;
        for (int i = 0; i < s->naxes; i++)
            n *= b->tier_axes[t][i].count;
        configs += n; /* at most 3 x 3 x 8^4 x 32^8: no overflow */
    }
    if (configs > MAX_CONFIGS)
        fail_at(L, b, b->op_line, "the tuning space is too large: %lld configurations over "
                "every tier, dtype and variant (at most %lld)", configs, MAX_CONFIGS);
    for (int t = 0; t < GEN_TIERS; t++) {
        if (!b->tier_line[t])
            continue;
        int mask = b->tier_only[t] >= 0 ? b->tier_only[t] : b->dtype_mask;
        for (int d = 0; d < GEN_DTYPES; d++) {
            if (!(mask & (1 << d)))
                continue;
            struct at p = {t, d, {0}};
            for (;;) { /* odometer over the variant axes, first axis slowest */
                expand_variant(L, b, &p);
                int i = s->nvars - 1;
                while (i >= 0 && ++p.var[i] == s->vars[i].count)
                    p.var[i--] = 0;
                if (i < 0)
                    break;
            }
        }
    }
}

/* ---- the sandbox ------------------------------------------------------------------------ */

/* The limits. Lua code runs only under a count hook whose budget lives in the builder: spec
 * code cannot reach it (no debug library), cannot catch the error it raises (no pcall,
 * xpcall or coroutines; no metatables, so no __close or __gc), and once a limit is hit every
 * later look raises it again. Memory comes from an allocator with a byte budget. What runs
 * inside C functions is bounded by that memory and by a CPU-time limit checked at each look;
 * pattern matching, string.rep and the like are not in the sandbox at all. */

static double cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void limit_hook(lua_State *L, lua_Debug *ar);

/* Raises a limit at `line`; sticky: the hook fires again at the next instruction. */
static void trip(lua_State *L, struct builder *b, int line, const char *fmt, ...)
{
    if (!b->tripped) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(b->trip_msg, sizeof b->trip_msg, "%s:%d: %s", b->chunk, line > 0 ? line : 1,
                 msg);
        b->tripped = 1;
        b->mem_limit += 1 << 20; /* room to raise the error */
    }
    lua_sethook(L, limit_hook, LUA_MASKCOUNT, 1);
    lua_pushstring(L, b->trip_msg);
    lua_error(L);
}

static void trip_memory(lua_State *L, struct builder *b, int line)
{
    trip(L, b, line, "spec uses too much memory (more than %lu MB)",
         (unsigned long)((b->mem_limit - (b->tripped ? 1u << 20 : 0)) >> 20));
}

static void limit_hook(lua_State *L, lua_Debug *ar)
{
    struct builder *b = get_builder(L);
    if (lua_getinfo(L, "l", ar) && ar->currentline > 0)
        b->last_line = ar->currentline;
    if (b->tripped)
        trip(L, b, b->last_line, "%s", "");
    if (b->mem_warned)
        trip_memory(L, b, b->last_line);
    b->insns_left -= HOOK_STEP;
    if (b->insns_left <= 0) {
        if (b->insns_max % 1000000 == 0)
            trip(L, b, b->last_line, "spec runs too long (more than %lld million instructions)",
                 b->insns_max / 1000000);
        trip(L, b, b->last_line, "spec runs too long (more than %lld instructions)",
             b->insns_max);
    }
    if (cpu_seconds() - b->cpu_start > b->cpu_max)
        trip(L, b, b->last_line, "spec runs too long (more than %g seconds of CPU time)",
             b->cpu_max);
}

/* lua_Alloc with a budget. Past three quarters of it, the hook is armed to raise the limit
 * at the next instruction (naming the line); an allocation beyond it fails. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct builder *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        b->mem_used -= old;
        return NULL;
    }
    if (nsize > old && nsize - old > b->mem_limit - b->mem_used)
        return NULL;
    void *p = realloc(ptr, nsize);
    if (!p)
        return NULL;
    b->mem_used = b->mem_used - old + nsize;
    if (b->mem_used > b->mem_soft && !b->mem_warned && b->running && b->L) {
        b->mem_warned = 1;
        lua_sethook(b->L, limit_hook, LUA_MASKCOUNT, 1); /* may be called from anywhere */
    }
    return p;
}

static int panic(lua_State *L)
{
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "tileops-gen: unprotected Lua error: %s\n", msg ? msg : "?");
    abort();
}

/* Does msg start with "<prefix>:<digits>:"? Returns the length of "<prefix>:", or 0. */
static size_t position_prefix(const char *msg, const char *prefix)
{
    size_t n = strlen(prefix);
    if (!n || strncmp(msg, prefix, n) != 0 || msg[n] != ':')
        return 0;
    size_t d = strspn(msg + n + 1, "0123456789");
    return d && msg[n + 1 + d] == ':' ? n + 1 : 0;
}

/* The message handler: an error with no position (error("x", 0), error({}), assert(false))
 * gets the line of the innermost spec function running. */
static int on_error(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *msg = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : NULL;
    if (msg && (position_prefix(msg, b->chunk) || position_prefix(msg, b->short_src)))
        return 1;
    int line = 0;
    lua_Debug ar;
    for (int level = 0; !line && lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.source + 1, b->chunk) == 0)
            line = ar.currentline;
    if (!line)
        line = b->last_line > 0 ? b->last_line : 1;
    if (msg)
        lua_pushfstring(L, "%s:%d: %s", b->chunk, line, msg);
    else
        lua_pushfstring(L, "%s:%d: error object is a %s value", b->chunk, line,
                        luaL_typename(L, 1));
    return 1;
}

/* Removes the named fields of the table on top of the stack. */
static void remove_fields(lua_State *L, const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        lua_pushnil(L);
        lua_setfield(L, -2, names[i]);
    }
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
    /* base functions that reach the file system, load code, catch errors (the limits'
     * included), set metatables (finalizers, __close, lying __len) or drive the collector */
    static const char *const unsafe[] = {"dofile", "loadfile", "load", "require",
                                         "collectgarbage", "print", "pcall", "xpcall",
                                         "setmetatable", "getmetatable", "warn", NULL};
    lua_pushglobaltable(L);
    remove_fields(L, unsafe);
    lua_pop(L, 1);
    /* work in C that no instruction count sees: pattern matching, repetition, moves and
     * sorts and shifts of any length; random numbers would make the output differ run to run */
    static const char *const string_unsafe[] = {"dump", "find", "gmatch", "gsub", "match",
                                                "rep", "pack", "packsize", "unpack", NULL};
    static const char *const table_unsafe[] = {"insert", "move", "remove", "sort", NULL};
    static const char *const math_unsafe[] = {"random", "randomseed", NULL};
    lua_getglobal(L, LUA_STRLIBNAME);
    remove_fields(L, string_unsafe);
    lua_getglobal(L, LUA_TABLIBNAME);
    remove_fields(L, table_unsafe);
    lua_getglobal(L, LUA_MATHLIBNAME);
    remove_fields(L, math_unsafe);
    lua_pop(L, 3);
    static const luaL_Reg decls[] = {{"operator", decl_operator}, {"variant", decl_variant},
                                     {"tier", decl_tier},         {"tune", decl_tune},
                                     {"constraint", decl_constraint},
                                     {"default", decl_default},
                                     {"explore", decl_explore},
                                     {"tune_shapes", decl_tune_shapes}, {NULL, NULL}};
    lua_pushglobaltable(L);
    luaL_setfuncs(L, decls, 0);
    lua_pop(L, 1);

    struct stat st; /* opened without blocking: a FIFO must not hang the build */
    int fd = open(b->chunk, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return luaL_error(L, "%s:1: cannot open the spec", b->chunk);
    }
    close(fd);
    if (!S_ISREG(st.st_mode))
        return luaL_error(L, "%s:1: the spec is not a regular file", b->chunk);
    if (st.st_size > MAX_SPEC_BYTES)
        return luaL_error(L, "%s:1: the spec is larger than %d MB", b->chunk,
                          MAX_SPEC_BYTES >> 20);
    b->running = 1;
    lua_sethook(L, limit_hook, LUA_MASKCOUNT, HOOK_STEP);
    if (luaL_loadfilex(L, b->chunk, "t") != LUA_OK)
        return lua_error(L);
    lua_Debug ar;
    lua_pushvalue(L, -1);
    if (lua_getinfo(L, ">S", &ar))
        snprintf(b->short_src, sizeof b->short_src, "%s", ar.short_src);
    lua_call(L, 0, 0);
    b->frozen = 1;
    finish(L, b);
    return 0;
}

int gen_spec_load(const char *path, const struct gen_options *opt, struct gen_spec *spec,
                  char *err, size_t errlen)
{
    memset(spec, 0, sizeof *spec);
    if (strlen(path) >= sizeof spec->path) {
        snprintf(err, errlen, "%.64s…: the spec's path is longer than %d bytes", path,
                 (int)sizeof spec->path - 1);
        return -1;
    }
    snprintf(spec->path, sizeof spec->path, "%s", path);
    struct builder *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "%s:1: out of memory", path);
        return -1;
    }
    b->spec = spec;
    b->opt = opt;
    b->chunk = spec->path;
    b->align.kind = b->smem.kind = F_NONE;
    b->insns_max = opt->max_instructions > 0 ? opt->max_instructions : GEN_MAX_INSTRUCTIONS;
    b->insns_left = b->insns_max;
    b->mem_limit = opt->max_memory > 0 ? opt->max_memory : GEN_MAX_MEMORY;
    b->mem_soft = b->mem_limit / 4 * 3;
    b->cpu_max = opt->max_seconds > 0 ? opt->max_seconds : GEN_MAX_SECONDS;
    b->cpu_start = cpu_seconds();
    for (int t = 0; t < GEN_TIERS; t++)
        b->tier_only[t] = -1;
    lua_State *L = lua_newstate(limited_alloc, b);
    if (!L) {
        snprintf(err, errlen, "%s:1: cannot create a Lua state (out of memory)", path);
        free(b);
        return -1;
    }
    b->L = L;
    lua_atpanic(L, panic);
    lua_pushcfunction(L, on_error);
    lua_pushcfunction(L, load_protected);
    lua_pushlightuserdata(L, b);
    int rc = lua_pcall(L, 1, 0, 1);
    b->running = 0;
    if (rc != LUA_OK) {
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        size_t n;
        if (b->tripped) /* the limit's own message, whatever ran while it unwound */
            snprintf(err, errlen, "%s", b->trip_msg);
        else if (rc == LUA_ERRMEM || b->mem_warned)
            snprintf(err, errlen, "%s:%d: spec uses too much memory (more than %lu MB)", path,
                     b->last_line > 0 ? b->last_line : 1, (unsigned long)(b->mem_limit >> 20));
        else if (msg && position_prefix(msg, path))
            snprintf(err, errlen, "%s", msg);
        else if (msg && (n = position_prefix(msg, b->short_src)) != 0)
            snprintf(err, errlen, "%s:%s", path, msg + n);
        else
            snprintf(err, errlen, "%s:%d: %s", path, b->last_line > 0 ? b->last_line : 1,
                     msg ? msg : "error object is not a string");
        gen_spec_free(spec);
    }
    lua_close(L);
    free(b);
    return rc == LUA_OK ? 0 : -1;
}

void gen_spec_free(struct gen_spec *spec)
{
    free(spec->inst);
    spec->inst = NULL;
    spec->ninst = 0;
}
