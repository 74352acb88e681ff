/* fuzz_gen.c: a seeded spec mutator for tileops-gen.
 *
 * Takes the committed specs, mutates them (lines deleted, duplicated, swapped or spliced from
 * another spec; numbers and strings swapped for extreme or ill-typed values; identifiers
 * swapped; truncations; random bytes; unbalanced brackets; hazards inserted: loops, recursion,
 * memory bombs, metatable tricks, sandbox escapes, declarations at the wrong time) and runs the
 * generator on each mutant in a child process (gen_run, in-process after fork, so a sanitized
 * build checks the generator itself), with a fresh output folder and a timeout. Every mutant
 * must end in exit 0 with a consistent tree, or exit 1 with a `file:line: message` error and
 * no output at all; a signal, a hang, a sanitizer report (anything on stderr) or a partial
 * tree is a failure, and the mutant is kept for replay (--only I).
 *
 *   fuzz_gen [--seed S] [--count N] [--jobs J] [--timeout SECONDS] [--only I] [-v]
 *
 * Mutant I of seed S is the same on every machine. Runs from the top folder; mutants are
 * written under B/fuzz (B: the folder above the binary's), failures kept there. */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../generator/gen.h"

/* Where mutants run: B/fuzz beside B/tests/fuzz_gen (so builds do not share it). */
static char work[256] = "build/fuzz";
#define MAX_SPECS 64

/* ---- randomness ------------------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t below(size_t n)
{
    return n ? (size_t)(rnd() % n) : 0;
}

#define PICK(a) (a)[below(sizeof(a) / sizeof((a)[0]))]

/* ---- a growable text -------------------------------------------------------------------- */

struct text {
    char *p;
    size_t len, cap;
};

static void reserve(struct text *t, size_t n)
{
    if (t->len + n + 1 <= t->cap)
        return;
    size_t cap = (t->len + n + 1) * 2;
    char *p = realloc(t->p, cap);
    if (!p) {
        perror("fuzz_gen");
        exit(2);
    }
    t->p = p;
    t->cap = cap;
}

/* Replaces [at, at + del) with ins (n bytes). */
static void edit(struct text *t, size_t at, size_t del, const char *ins, size_t n)
{
    if (at > t->len)
        at = t->len;
    if (del > t->len - at)
        del = t->len - at;
    reserve(t, n);
    memmove(t->p + at + n, t->p + at + del, t->len - at - del);
    memcpy(t->p + at, ins, n);
    t->len = t->len - del + n;
    t->p[t->len] = 0;
}

/* Offsets of the starts of lines (and the end). */
static size_t line_starts(const struct text *t, size_t *out, size_t max)
{
    size_t n = 0;
    out[n++] = 0;
    for (size_t i = 0; i < t->len && n < max; i++)
        if (t->p[i] == '\n')
            out[n++] = i + 1;
    if (out[n - 1] != t->len && n < max)
        out[n++] = t->len;
    return n;
}

/* ---- the mutations ---------------------------------------------------------------------- */

static const char *const extreme_numbers[] = {
    "0", "-1", "1", "3", "7", "2147483647", "2147483648", "-2147483648", "4294967296",
    "4294967312", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "1e308", "-1e308", "1.5", "16.0", "0/0", "1/0", "math.huge", "-math.huge", "0x7fffffff",
    "(1 << 32) + 16", "1048576", "1048577", "nil", "true", "false", "\"16\"", "{}", "{ 16 }",
    "function() end", "function(c) return c end", "math.maxinteger", "math.mininteger",
    "(1 << 62)", "65536", "232448", "4096", "8192",
};

static const char *const extreme_strings[] = {
    "\"\"", "\"x\"", "\"A\"", "\"sm75\"", "\"sm90\"", "\"sm70\"", "\"f64\"", "\"f16\"",
    "\"bf16\"", "\"dtype\"", "\"tier\"", "\"bytes\"", "\"threads\"", "\"vector_add\"",
    "\"gemm\"", "\"softmax\"", "\"no_such_template\"", "\"../../etc/passwd\"",
    "\"a\\0b\"", "\"line\\nbreak\"", "\"trailing\\\\\"", "\"%s%s%s%n\"", "\"*/ #error x /*\"",
    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
    "\"abcdefghijklmnopqrstuvwxyz_abcd\"", "\"abcdefghijklmnopqrstuvwxyz_abcde\"", "\"Plain\"",
    "\"zzzzzzzz\"", "5", "nil", "{}", "true", "{ \"f16\", \"f16\" }", "{ {} }",
    "string.rep and \"x\"",
};

static const char *const identifiers[] = {
    "operator", "variant", "tier", "tune", "constraint", "default", "doc", "align", "smem",
    "serves", "template", "only", "tag", "dtype", "threads", "vec", "bytes", "tier", "cc",
    "smem_limit", "math", "string", "table", "_G", "_ENV", "nil", "true", "c", "local",
    "function", "end", "return", "setmetatable", "pcall", "load", "require", "io", "os",
    "debug", "coroutine", "collectgarbage", "rawset", "rawget", "next", "pairs", "ipairs",
    "error", "assert", "select", "tostring", "tonumber", "type",
};

/* Hazards: what a hostile or careless spec might hold. */
static const char *const hazards[] = {
    "while true do end",
    "local function f() return f() end f()",
    "local function f() f() end f()",
    "local function f(n) return f(n + 1) + 1 end f(1)",
    "repeat until false",
    "for i = 1, math.maxinteger do end",
    "local s = \"x\" while true do s = s .. s end",
    "local s = \"x\" for i = 1, 40 do s = s .. s end",
    "local t = {} while true do t[#t + 1] = t end",
    "local t = {} for i = 1, 1e12 do t[i] = i end",
    "local t = {} while true do t = { t } end",
    "local t = {} for i = 1, 1e7 do t[i] = tostring(i) end local s = table.concat(t)",
    "local s = string.rep(\"x\", 1 << 40)",
    "local s = (\"x\"):rep(1e9)",
    "string.find(string.rep(\"a\", 40), \"(a*)*b\")",
    "string.gsub(\"aaaa\", \"a\", function() while true do end end)",
    "for w in string.gmatch(\"a\", \".-.-.-.-.-.-.-b\") do end",
    "string.format(\"%99999d\", 1)",
    "local s = string.format(\"%s%s\", (\"x\"), {})",
    "table.move({}, 1, math.maxinteger, 1)",
    "table.sort({ 3, 2, 1 }, function() while true do end end)",
    "table.unpack({}, 1, 1e8)",
    "table.concat({}, \"\", 1, math.maxinteger)",
    "local t = {} for i = 1, 1e5 do t[i] = \"x\" end while true do local s = table.concat(t) end",
    "setmetatable({}, { __gc = function() while true do end end })",
    "collectgarbage()",
    "collectgarbage(\"stop\")",
    "pcall(function() while true do end end) while true do end",
    "while true do pcall(function() while true do end end) end",
    "xpcall(function() while true do end end, function() end)",
    "local ok = pcall(error, \"x\")",
    "error({})",
    "error()",
    "error(\"boom\", 0)",
    "error(\"boom\", 2)",
    "error(setmetatable({}, { __tostring = function() return \"x\" end }))",
    "assert(false)",
    "assert(nil, {})",
    "local x <close> = setmetatable({}, { __close = function() while true do end end })",
    "local x <close> = 1",
    "getmetatable(\"\").__index = function() while true do end end local y = (\"x\").len",
    "getmetatable(\"\").__gc = function() end",
    "io.open(\"/etc/passwd\")",
    "os.execute(\"touch /tmp/tileops_fuzz_escaped\")",
    "require(\"os\")",
    "load(\"while true do end\")()",
    "loadstring(\"x = 1\")",
    "dofile(\"/etc/passwd\")",
    "loadfile(\"/etc/passwd\")",
    "debug.sethook()",
    "debug.getregistry()",
    "package.loadlib(\"libc.so.6\", \"system\")",
    "string.dump(function() end)",
    "coroutine.wrap(function() while true do end end)()",
    "print(\"hello\")",
    "warn(\"@on\") warn(\"x\")",
    "math.randomseed(1) local r = math.random()",
    "_ENV = nil",
    "_G.tune = nil",
    "operator = nil",
    "rawset(_G, \"default\", function() end)",
    "tune = function() return function() end end",
    "tune \"zz\"",
    "variant \"dtype\"",
    "tier \"sm90\"",
    "operator \"again\"",
    "constraint \"unfinished\"",
    "constraint \"x\" (function(c) tune \"late\" { 1 } return true end)",
    "constraint \"x\" (function(c) default { threads = 1 } return true end)",
    "constraint \"x\" (function(c) return c end)",
    "constraint \"x\" (function(c) return nil end)",
    "constraint \"x\" (function(c) error({}) end)",
    "constraint \"x\" (function(c) while true do end end)",
    "constraint \"x\" (function(c) local t = {} while true do t[#t + 1] = c end end)",
    "constraint \"x\" (function(c) c.tier = nil return true end)",
    "constraint \"x\" (function(c) return false end)",
    "local c = constraint \"x\" for i = 1, 40 do c(function() return true end) end",
    "for i = 1, 40 do constraint (\"c\" .. i) (function() return true end) end",
    "for i = 1, 40 do default { } end",
    "local t = tune \"zz\" t { 1 } t { 2 }",
    "tune \"zz\" (setmetatable({ 1 }, { __len = function() return -1 end }))",
    "tune \"zz\" (setmetatable({ 1 }, { __len = function() return 1 << 40 end }))",
    "tune \"zz\" (setmetatable({}, { __index = function(t, k) return k end }))",
    "default(setmetatable({}, { __index = function() return 16 end }))",
    "tune \"zz\" { 1, 2, [10] = 3 }",
    "tune \"zz\" { 1, 2, [1.5] = 3 }",
    "tune \"zz\" { 4294967296 }",
    "tune \"zz\" { -1 }",
    "tune \"zz\" { 1, tag = true }",
    "tune \"zz\" { 1, tag = 5 }",
    "tune \"zz\" {}",
    "tune (5) { 1 }",
    "tune \"zz\" { 1, 1 }",
    "variant \"mode\" {}",
    "variant \"mode\" { tag = true, \"a\" }",
    "variant \"mode\" { \"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\" }",
    "for i = 1, 5 do variant (\"v\" .. string.char(96 + i)) { \"a\", \"b\" } end",
    "for i = 1, 9 do tune (\"t\" .. string.char(96 + i)) { 1 } end",
    "local t = {} for v = 1, 32 do t[v] = v end for _, n in ipairs({ \"aa\", \"bb\", \"dd\", \"ee\", \"ff\" }) do tune(n)(t) end",
    "local d = { threads = 256 } default(d) constraint \"m\" (function(c) d.dtype = { {} } return true end)",
    "local t = { doc = \"x\" } operator \"y\" (t) t.align = nil",
    "default { dtype = { {} } }",
    "default { dtype = { \"f16\", 3 } }",
    "default { [1] = 2 }",
    "default { [true] = 2 }",
    "default(nil)",
    "tier \"sm90\" { template = \"vector_add\", tune = { [1] = { 1 } } }",
    "tier \"sm90\" { template = \"vector_add\", tune = { nope = { 1 } } }",
    "tier \"sm90\" { template = \"vector_add\", only = { dtype = {} } }",
    "tier \"sm90\" { template = \"../vector_add\" }",
    "goto nowhere",
    "local a = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
    "local s = \"\\xff\\xfe\\x00\\x01\"",
    "return",
    "return 1, 2, 3",
    "do return end",
    "::a:: goto a",
};

/* Start and end of every number token (not inside an identifier). */
static size_t find_tokens(const struct text *t, int strings, size_t *start, size_t *end,
                          size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->len && n < max; i++) {
        char c = t->p[i];
        if (c == '-' && i + 1 < t->len && t->p[i + 1] == '-') { /* a comment */
            while (i < t->len && t->p[i] != '\n')
                i++;
            continue;
        }
        if (c == '"') {
            size_t j = i + 1;
            while (j < t->len && t->p[j] != '"' && t->p[j] != '\n')
                j += t->p[j] == '\\' ? 2 : 1;
            if (strings && j < t->len) {
                start[n] = i;
                end[n++] = j + 1;
            }
            i = j;
            continue;
        }
        if (!strings && c >= '0' && c <= '9' &&
            (i == 0 || !(t->p[i - 1] == '_' || ((t->p[i - 1] | 32) >= 'a' && (t->p[i - 1] | 32) <= 'z')))) {
            size_t j = i;
            while (j < t->len && ((t->p[j] >= '0' && t->p[j] <= '9') || t->p[j] == 'x'))
                j++;
            start[n] = i;
            end[n++] = j;
            i = j;
        }
    }
    return n;
}

static void mutate_once(struct text *t, const struct text *specs, int nspecs)
{
    size_t ls[8192], st[4096], en[4096];
    size_t nl = line_starts(t, ls, 8192), n;
    int op = (int)below(12);
    if (nl < 2 && op <= 2) /* no whole line to delete, duplicate or swap */
        op = 8;
    switch (op) {
    case 0: { /* delete one to three lines */
        size_t a = below(nl - 1), k = 1 + below(3), b = a + k < nl ? a + k : nl - 1;
        edit(t, ls[a], ls[b] - ls[a], "", 0);
        break;
    }
    case 1: { /* duplicate a line */
        size_t a = below(nl - 1);
        char *line = strndup(t->p + ls[a], ls[a + 1] - ls[a]);
        edit(t, ls[a], 0, line, strlen(line));
        free(line);
        break;
    }
    case 2: { /* swap two lines */
        size_t a = below(nl - 1), b = below(nl - 1);
        if (a > b) {
            size_t x = a;
            a = b;
            b = x;
        }
        if (a == b)
            break;
        char *la = strndup(t->p + ls[a], ls[a + 1] - ls[a]);
        char *lb = strndup(t->p + ls[b], ls[b + 1] - ls[b]);
        edit(t, ls[b], ls[b + 1] - ls[b], la, strlen(la));
        edit(t, ls[a], ls[a + 1] - ls[a], lb, strlen(lb));
        free(la);
        free(lb);
        break;
    }
    case 3: /* a number swapped for an extreme or ill-typed value */
        n = find_tokens(t, 0, st, en, 4096);
        if (n) {
            size_t k = below(n);
            const char *v = PICK(extreme_numbers);
            edit(t, st[k], en[k] - st[k], v, strlen(v));
        }
        break;
    case 4: /* a string swapped */
        n = find_tokens(t, 1, st, en, 4096);
        if (n) {
            size_t k = below(n);
            const char *v = PICK(extreme_strings);
            edit(t, st[k], en[k] - st[k], v, strlen(v));
        }
        break;
    case 5: /* truncated */
        if (t->len)
            edit(t, below(t->len), t->len, "", 0);
        break;
    case 6: { /* random bytes, written over or inserted */
        size_t k = 1 + below(8), at = below(t->len + 1);
        char bytes[8];
        for (size_t i = 0; i < k; i++)
            bytes[i] = (char)below(256);
        edit(t, at, below(2) ? k : 0, bytes, k);
        break;
    }
    case 7: { /* a bracket or quote added or removed */
        static const char br[] = "{}()[]\"'";
        size_t at = below(t->len + 1);
        if (below(2) || !t->len) {
            edit(t, at, 0, &br[below(8)], 1);
        } else {
            for (size_t i = 0; i < t->len; i++) {
                size_t j = (at + i) % t->len;
                if (strchr(br, t->p[j]) && t->p[j]) {
                    edit(t, j, 1, "", 0);
                    break;
                }
            }
        }
        break;
    }
    case 8:
    case 9: { /* a hazard, at the end, at a line, or inside a constraint */
        const char *h = PICK(hazards);
        char buf[1024];
        int where = (int)below(3);
        if (where == 2)
            snprintf(buf, sizeof buf, "\nconstraint \"hazard\" (function(c) %s return true end)\n",
                     h);
        else
            snprintf(buf, sizeof buf, "\n%s\n", h);
        edit(t, where == 1 ? ls[below(nl)] : t->len, 0, buf, strlen(buf));
        break;
    }
    case 10: { /* an identifier swapped for another */
        size_t at = below(t->len + 1), i = at;
        while (i < t->len && !((t->p[i] | 32) >= 'a' && (t->p[i] | 32) <= 'z'))
            i++;
        size_t j = i;
        while (j < t->len && (t->p[j] == '_' || ((t->p[j] | 32) >= 'a' && (t->p[j] | 32) <= 'z')))
            j++;
        const char *v = PICK(identifiers);
        if (j > i)
            edit(t, i, j - i, v, strlen(v));
        break;
    }
    default: { /* a line from another spec */
        const struct text *o = &specs[below((size_t)nspecs)];
        size_t ols[8192], onl = line_starts(o, ols, 8192), a = below(onl - 1);
        char *line = strndup(o->p + ols[a], ols[a + 1] - ols[a]);
        edit(t, ls[below(nl)], 0, line, strlen(line));
        free(line);
        break;
    }
    }
}

/* ---- running one mutant ----------------------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct text t = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        edit(&t, t.len, 0, chunk, n);
    fclose(f);
    if (!t.p)
        edit(&t, 0, 0, "", 0);
    if (len)
        *len = t.len;
    return t.p;
}

struct job {
    pid_t pid;
    long index;
    int all_specs, list;
    char dir[256], spec[320], out[320];
    struct timespec started;
};

static const char *spec_paths[MAX_SPECS];
static char spec_store[MAX_SPECS][256];
static struct text spec_text[MAX_SPECS];
static int nspecs;
static int timeout_s = 30, verbose;

/* The child: run the generator on the mutant (and, for some, beside the other specs). */
static void child(const struct job *j)
{
    char errpath[400], err[GEN_ERR] = "";
    snprintf(errpath, sizeof errpath, "%s/stderr", j->dir);
    if (!freopen(errpath, "w", stderr) || !freopen("/dev/null", "w", stdout))
        _exit(3);
    alarm((unsigned)timeout_s);
    const char *paths[MAX_SPECS + 1];
    int n = 0;
    paths[n++] = j->spec;
    for (int i = 0; j->all_specs && i < nspecs; i++)
        if (strcmp(strrchr(spec_paths[i], '/'), strrchr(j->spec, '/')) != 0)
            paths[n++] = spec_paths[i];
    struct gen_options o = {.out_dir = j->list ? NULL : j->out,
                            .templates = "generator/templates",
                            .all = j->list,
                            .list = j->list,
                            .log = stdout,
                            .max_instructions = 20000000,
                            .max_memory = 64u << 20,
                            .max_seconds = 3};
    int rc = gen_run(paths, n, &o, err, sizeof err);
    char msgpath[400];
    snprintf(msgpath, sizeof msgpath, "%s/message", j->dir);
    FILE *f = fopen(msgpath, "w");
    if (f) {
        fputs(err, f);
        fclose(f);
    }
    fflush(stderr);
    exit(rc == 0 ? 0 : 1); /* exit, not _exit: a leak checker looks at the child too */
}

/* Is msg "<path>:<line>: <text>" for one of the specs given? */
static int file_line_message(const struct job *j, const char *msg)
{
    const char *colon = NULL;
    size_t n = strlen(j->spec);
    if (strncmp(msg, j->spec, n) == 0 && msg[n] == ':')
        colon = msg + n;
    for (int i = 0; !colon && j->all_specs && i < nspecs; i++) {
        n = strlen(spec_paths[i]);
        if (strncmp(msg, spec_paths[i], n) == 0 && msg[n] == ':')
            colon = msg + n;
    }
    if (!colon)
        return 0;
    size_t d = strspn(colon + 1, "0123456789");
    return d > 0 && colon[1] != '0' && colon[1 + d] == ':' && colon[2 + d] == ' ' &&
           colon[3 + d] != 0;
}

/* An exit-0 tree: the manifest is ours, every instance it lists is in its file and its
 * tier's registry, the registries' counts agree, sources.mk names files that exist, and no
 * temporary folder is left. Returns NULL or what is wrong. */
static const char *check_tree(const struct job *j, char *why, size_t len)
{
    char path[700];
    size_t mlen;
    char *m;
    snprintf(path, sizeof path, "%s.tmp", j->out);
    if (access(path, F_OK) == 0)
        return "a temporary folder is left";
    snprintf(path, sizeof path, "%s/MANIFEST", j->out);
    if (!(m = slurp(path, &mlen)))
        return "exit 0 without a MANIFEST";
    if (strncmp(m, "# Generated by tileops-gen.", 27) != 0) {
        free(m);
        return "the MANIFEST is not ours";
    }
    int per_tier[3] = {0}, lines = 0;
    const char *bad = NULL;
    for (char *line = strtok(m, "\n"); line && !bad; line = strtok(NULL, "\n")) {
        char name[GEN_NAME + 1], tier[8], dtype[8], file[256];
        int align, smem;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%160s %7s %7s %d %d %255s", name, tier, dtype, &align, &smem, file) != 6) {
            snprintf(why, len, "a MANIFEST line does not parse: %.200s", line);
            bad = why;
            break;
        }
        lines++;
        int t = strcmp(tier, "sm70") == 0 ? 0 : strcmp(tier, "sm80") == 0 ? 1 : strcmp(tier, "sm90") == 0 ? 2 : -1;
        if (t < 0 || align < 1 || (align & (align - 1)) || align > 4096 || smem < 0 ||
            smem > 227 * 1024 || strncmp(name, "tileops_", 8) != 0) {
            snprintf(why, len, "a MANIFEST line is out of range: %.200s", line);
            bad = why;
            break;
        }
        per_tier[t]++;
        char fp[700], *src;
        snprintf(fp, sizeof fp, "%s/%s", j->out, file);
        if (!(src = slurp(fp, NULL))) {
            snprintf(why, len, "%s is listed but missing", file);
            bad = why;
            break;
        }
        char key[GEN_NAME + 64];
        snprintf(key, sizeof key, "namespace %s {", name);
        if (!strstr(src, key)) {
            snprintf(why, len, "%s lacks instance %s", file, name);
            bad = why;
        }
        free(src);
        snprintf(fp, sizeof fp, "%s/%s/registry.c", j->out, tier);
        if (!bad && (src = slurp(fp, NULL)) != NULL) {
            snprintf(key, sizeof key, "{\"%s\", TILEOPS_OP_", name);
            if (!strstr(src, key)) {
                snprintf(why, len, "%s/registry.c lacks %s", tier, name);
                bad = why;
            }
            free(src);
        }
    }
    free(m);
    for (int t = 0; t < 3 && !bad; t++) {
        static const char *const tn[] = {"sm70", "sm80", "sm90"};
        char fp[700], key[64], *src;
        snprintf(fp, sizeof fp, "%s/%s/registry.c", j->out, tn[t]);
        if (!(src = slurp(fp, NULL))) {
            snprintf(why, len, "%s/registry.c is missing", tn[t]);
            bad = why;
            break;
        }
        snprintf(key, sizeof key, "_count = %d;\n", per_tier[t]);
        if (!strstr(src, key)) {
            snprintf(why, len, "%s/registry.c does not count %d instances", tn[t], per_tier[t]);
            bad = why;
        }
        free(src);
    }
    if (!bad && !lines)
        bad = "exit 0 with no instances";
    snprintf(path, sizeof path, "%s/sources.mk", j->out);
    char *mk = bad ? NULL : slurp(path, NULL);
    if (!bad && !mk)
        bad = "sources.mk is missing";
    for (char *w = mk ? strtok(mk, " \\\n") : NULL; w && !bad; w = strtok(NULL, " \\\n")) {
        size_t wl = strlen(w);
        if (wl > 3 && (strcmp(w + wl - 3, ".cu") == 0 || strcmp(w + wl - 2, ".c") == 0)) {
            char fp[700];
            snprintf(fp, sizeof fp, "%s/%s", j->out, w);
            if (access(fp, R_OK) != 0) {
                snprintf(why, len, "sources.mk names %s, which is missing", w);
                bad = why;
            }
        }
    }
    free(mk);
    snprintf(path, sizeof path, "%s/variants.h", j->out);
    if (!bad && access(path, R_OK) != 0)
        bad = "variants.h is missing";
    return bad;
}

static long fail_count, ok_count, err_count;

/* Judges a finished child; keeps the mutant of a failure. */
static void judge(struct job *j, int status)
{
    char why[512] = "", path[400];
    const char *bad = NULL;
    snprintf(path, sizeof path, "%s/stderr", j->dir);
    size_t elen = 0;
    char *errout = slurp(path, &elen);
    snprintf(path, sizeof path, "%s/message", j->dir);
    char *msg = slurp(path, NULL);
    if (WIFSIGNALED(status)) {
        snprintf(why, sizeof why, WTERMSIG(status) == SIGALRM ? "hang (no end in %d s)"
                                                               : "killed by signal %d",
                 WTERMSIG(status) == SIGALRM ? timeout_s : WTERMSIG(status));
        bad = why;
    } else if (elen) {
        snprintf(why, sizeof why, "wrote to stderr (a sanitizer?): %.300s", errout);
        bad = why;
    } else if (WEXITSTATUS(status) == 0) {
        if (j->list) {
            if (access(j->out, F_OK) == 0)
                bad = "--list wrote a tree";
        } else {
            bad = check_tree(j, why, sizeof why);
        }
        ok_count += !bad;
    } else if (WEXITSTATUS(status) == 1) {
        char tmp[400];
        snprintf(tmp, sizeof tmp, "%s.tmp", j->out);
        if (!msg || !file_line_message(j, msg)) {
            snprintf(why, sizeof why, "the error is not file:line: %.300s", msg ? msg : "(none)");
            bad = why;
        } else if (access(j->out, F_OK) == 0 || access(tmp, F_OK) == 0) {
            bad = "an error left output behind";
        }
        err_count += !bad;
        if (verbose && !bad)
            printf("  #%ld: %s\n", j->index, msg);
    } else {
        snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(status));
        bad = why;
    }
    if (bad) {
        char keep[400], cmd[1200];
        fail_count++;
        snprintf(keep, sizeof keep, "%s/failed-%ld.lua", work, j->index);
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", j->spec, keep);
        if (system(cmd) != 0)
            keep[0] = 0;
        printf("FAIL mutant %ld%s%s: %s (kept as %s)\n", j->index, j->all_specs ? " (with every spec)" : "",
               j->list ? " (--all --list)" : "", bad, keep);
    }
    free(errout);
    free(msg);
    remove_tree(j->dir);
}

/* Writes mutant `index` of `seed` and starts its child. */
static void start(struct job *j, uint64_t seed, long index, int slot)
{
    rng_state = seed * 0x100000001b3ull ^ (uint64_t)index * 0x9e3779b97f4a7c15ull;
    rnd();
    int base = (int)below((size_t)nspecs);
    struct text t = {0};
    edit(&t, 0, 0, spec_text[base].p, spec_text[base].len);
    int k = 1 + (int)below(3);
    for (int i = 0; i < k; i++)
        mutate_once(&t, spec_text, nspecs);
    j->index = index;
    j->all_specs = below(8) == 0;
    j->list = !j->all_specs && below(16) == 0;
    snprintf(j->dir, sizeof j->dir, "%.200s/slot%d", work, slot);
    remove_tree(j->dir);
    mkdir(j->dir, 0777);
    snprintf(j->spec, sizeof j->spec, "%s/%s", j->dir, strrchr(spec_paths[base], '/') + 1);
    snprintf(j->out, sizeof j->out, "%s/out", j->dir);
    FILE *f = fopen(j->spec, "wb");
    if (!f || fwrite(t.p, 1, t.len, f) != t.len || fclose(f) != 0) {
        perror(j->spec);
        exit(2);
    }
    free(t.p);
    fflush(stdout);
    j->pid = fork();
    if (j->pid < 0) {
        perror("fork");
        exit(2);
    }
    if (j->pid == 0)
        child(j);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    long count = 300, only = -1;
    int jobs = 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc)
            count = strtol(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc)
            jobs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            timeout_s = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = strtol(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else {
            fprintf(stderr, "usage: fuzz_gen [--seed S] [--count N] [--jobs J] [--timeout SECONDS] "
                            "[--only I] [-v]\n");
            return 2;
        }
    }
    if (jobs < 1 || jobs > 64 || timeout_s < 1 || count < 0) {
        fprintf(stderr, "fuzz_gen: bad --jobs, --timeout or --count\n");
        return 2;
    }
    struct dirent **ents;
    int n = scandir("specs", &ents, NULL, alphasort);
    if (n < 0) {
        perror("fuzz_gen: specs/ (run from the top folder)");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        size_t l = strlen(ents[i]->d_name);
        if (l > 4 && strcmp(ents[i]->d_name + l - 4, ".lua") == 0 && nspecs < MAX_SPECS) {
            snprintf(spec_store[nspecs], sizeof spec_store[0], "specs/%.240s", ents[i]->d_name);
            spec_paths[nspecs] = spec_store[nspecs];
            spec_text[nspecs].p = slurp(spec_store[nspecs], &spec_text[nspecs].len);
            spec_text[nspecs].cap = spec_text[nspecs].len + 1;
            nspecs++;
        }
        free(ents[i]);
    }
    free(ents);
    if (!nspecs) {
        fprintf(stderr, "fuzz_gen: no specs/*.lua\n");
        return 2;
    }
    const char *slash = strrchr(argv[0], '/');
    if (slash) /* B/tests/fuzz_gen -> B/tests/../fuzz */
        snprintf(work, sizeof work, "%.*s/../fuzz", (int)(slash - argv[0]), argv[0]);
    mkdir("build", 0777);
    if (mkdir(work, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fuzz_gen: cannot create %s: %s\n", work, strerror(errno));
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct job *slots = calloc((size_t)jobs, sizeof *slots);
    long next = only >= 0 ? only : 0, end = only >= 0 ? only + 1 : count, running = 0;
    while (next < end || running) {
        for (int s = 0; s < jobs && next < end; s++)
            if (!slots[s].pid) {
                start(&slots[s], seed, next++, s);
                running++;
            }
        int status;
        pid_t pid = wait(&status);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            perror("wait");
            return 2;
        }
        for (int s = 0; s < jobs; s++)
            if (slots[s].pid == pid) {
                judge(&slots[s], status);
                slots[s].pid = 0;
                running--;
            }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    long total = end - (only >= 0 ? only : 0);
    printf("fuzz_gen: %ld mutants of seed %llu in %.1f s: %ld trees checked, %ld file:line "
           "errors, %ld failures\n",
           total, (unsigned long long)seed, secs, ok_count, err_count, fail_count);
    free(slots);
    for (int i = 0; i < nspecs; i++)
        free(spec_text[i].p);
    return fail_count ? 1 : 0;
}
