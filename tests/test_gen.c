/* test_gen.c: tileops-gen: every malformed spec gets its one exact file:line message, output
 * is deterministic and all-or-nothing, and the committed generated/ is what the specs give.
 * Runs from the top folder (make test does). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../generator/gen.h"
#include "util_check.h"

#define WORK "build/tests/gen"

/* A valid spec; each bad case below changes one line of it. Line numbers matter: the
 * expected messages name them. */
static const char *const good_lines[] = {
    /*  1 */ "operator \"vector_add\" { doc = \"c = a + b\", align = function(c) return c.vec * c.bytes end }",
    /*  2 */ "variant \"dtype\" { \"f32\", \"f16\", \"bf16\" }",
    /*  3 */ "tier \"sm70\" { template = \"vector_add\" }",
    /*  4 */ "tier \"sm80\" { template = \"vector_add\" }",
    /*  5 */ "tune \"threads\" { 128, 256, tag = \"t\" }",
    /*  6 */ "tune \"vec\" { 1, 2, 4, 8, tag = \"v\" }",
    /*  7 */ "tune \"unroll\" { 1, 4, tag = \"u\" }",
    /*  8 */ "constraint \"16-byte loads\" (function(c) return c.vec * c.bytes <= 16 end)",
    /*  9 */ "default { threads = 256, vec = function(c) return 16 // c.bytes end, unroll = 4 }",
    /* 10 */ "default { threads = 256, vec = 1, unroll = 4 }",
};
#define NLINES (int)(sizeof good_lines / sizeof good_lines[0])

struct bad_case {
    const char *name;
    int line;          /* the line replaced (1-based), 0 to append */
    const char *text;  /* its new text */
    const char *message; /* expected, after "<path>:" */
};

static const struct bad_case bad[] = {
    {"syntax", 3, "tier \"sm70\" { template = \"vector_add\"",
     "4: '}' expected (to close '{' at line 3) near 'tier'"},
    {"unknown_field", 4, "tier \"sm80\" { templte = \"vector_add\" }",
     "4: unknown field 'templte' in tier sm80 (expected only, template, tune)"},
    {"wrong_type", 5, "tune \"threads\" { 128, \"many\" }",
     "5: tune 'threads': value 2 must be an integer, got string"},
    {"fraction", 7, "tune \"unroll\" { 1, 2.5 }",
     "7: tune 'unroll': value 2 must be an integer, got a fraction"},
    {"unknown_dtype", 2, "variant \"dtype\" { \"f32\", \"fp8\" }",
     "2: unknown dtype 'fp8' (expected f32, f16, bf16)"},
    {"unknown_tier", 3, "tier \"sm75\" { template = \"vector_add\" }",
     "3: unknown tier 'sm75' (expected sm70, sm80, sm90)"},
    {"empty_tuning", 7, "tune \"unroll\" { tag = \"u\" }", "7: tune 'unroll' has no values"},
    {"constraint_removes_all", 0, "constraint \"nothing fits\" (function(c) return c.threads > 4096 end)",
     "11: constraint 'nothing fits' removes every configuration of sm70 f32"},
    {"missing_template", 4, "tier \"sm80\" { template = \"no_such\" }",
     "4: tier sm80: template 'no_such' does not exist (generator/templates/no_such.cu)"},
    {"sandbox_io", 0, "local f = io.open(\"/etc/passwd\")",
     "11: attempt to index a nil value (global 'io')"},
    {"sandbox_os", 0, "os.execute(\"true\")", "11: attempt to index a nil value (global 'os')"},
    {"default_outside_space", 10, "default { threads = 256, vec = 3, unroll = 4 }",
     "10: default: vec=3 is not in the tuning space of sm70 f32"},
    {"default_unknown_axis", 10, "default { threads = 256, vec = 1, unrol = 4 }",
     "10: default: 'unrol' is not a declared tuning axis"},
    {"duplicate_tier", 4, "tier \"sm70\" { template = \"vector_add\" }",
     "4: tier sm70 declared twice (first at line 3)"},
    {"constraint_not_boolean", 8, "constraint \"loads\" (function(c) return c.vec end)",
     "8: constraint 'loads' must return a boolean, got number"},
    {"constraint_error", 8, "constraint \"loads\" (function(c) return c.vec * c.nope end)",
     "8: attempt to perform arithmetic on a nil value (field 'nope')"},
    {"no_operator", 1, "-- no operator", "1: no operator declared (operator \"name\" { doc = … })"},
    {"tier_tune_unknown_axis", 4, "tier \"sm80\" { template = \"vector_add\", tune = { thread = { 64 } } }",
     "4: tier sm80: tune 'thread' is not a declared tuning axis"},
    {"align_not_power_of_two", 1, "operator \"vector_add\" { doc = \"c = a + b\", align = function(c) return 3 * c.vec end }",
     "1: operator align must be a power of two from 1 to 4096, got 12 for tileops_vector_add_sm70_f32_t256_v4_u4"},
    {"serves_not_a_name", 1, "operator \"vector_add\" { doc = \"c = a + b\", serves = 3 }",
     "1: operator: field 'serves' must name an operator (lower-case letters, digits and _)"},
    {"variant_field", 2, "variant \"dtype\" { \"f32\", fast = true }",
     "2: variant 'dtype' takes a list of values, not field 'fast'"},
    {"runaway", 0, "while true do end", "11: spec runs too long (more than 200 million instructions)"},
    {"variant_twice", 0, "variant \"mode\" { \"plain\", \"plain\" }",
     "11: variant 'mode' lists 'plain' twice"},
    {"variant_empty", 0, "variant \"mode\" { }", "11: variant 'mode' has no values"},
    {"variant_value", 0, "variant \"mode\" { \"Plain\" }",
     "11: variant 'mode': value 1 must be a short lower-case word or number, got Plain"},
    {"variant_is_tune", 0, "variant \"threads\" { \"a\" }",
     "11: variant 'threads' has the name of a tuning axis"},
    {"variant_reserved", 0, "variant \"bytes\" { \"a\" }", "11: variant name 'bytes' is reserved"},
    {"variant_redeclared", 0, "variant \"mode\" { \"a\" } variant \"mode\" { \"b\" }",
     "11: variant 'mode' declared twice (first at line 11)"},
    {"tune_is_variant", 2, "variant \"dtype\" { \"f32\" } variant \"vec\" { \"x\" }",
     "6: tune 'vec' has the name of a variant axis"},
    {"variant_tag", 0, "variant \"mode\" { \"a\", tag = \"M\" }",
     "11: variant 'mode': tag must be a short lower-case word"},
    {"variant_unknown_field", 0, "variant \"mode\" { \"a\", tga = \"m\" }",
     "11: unknown field 'tga' in variant 'mode' (expected tag)"},
    {"default_variant_value", 10, "default { dtype = \"f64\", threads = 256, vec = 1, unroll = 4 }",
     "10: default: dtype = f64 is not a declared value of that variant"},
    {"default_variant_list", 10, "default { dtype = { \"f16\", 3 }, threads = 256, vec = 1, unroll = 4 }",
     "10: default: dtype = number is not a declared value of that variant"},
    {"default_variant_type", 10, "default { dtype = 3, threads = 256, vec = 1, unroll = 4 }",
     "10: default: dtype must be a value of the variant or a list of them"},
    {"default_variant_empty", 10, "default { dtype = {}, threads = 256, vec = 1, unroll = 4 }",
     "10: default: dtype must be a value of the variant or a list of them"},
    {"default_variant_undeclared", 0,
     "variant \"mode\" { \"a\" } default { mode = \"b\", threads = 256, vec = 1, unroll = 4 }",
     "11: default: mode = b is not a declared value of that variant"},
};

/* Writes the good spec with one line changed to WORK/<name>.lua; returns its path. */
static const char *write_spec(const struct bad_case *c, char *path, size_t len)
{
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    snprintf(path, len, WORK "/%s.lua", c ? c->name : "good");
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    for (int i = 1; i <= NLINES; i++)
        fprintf(f, "%s\n", c && c->line == i ? c->text : good_lines[i - 1]);
    if (c && c->line == 0)
        fprintf(f, "%s\n", c->text);
    fclose(f);
    return path;
}

static struct gen_options options(const char *out)
{
    struct gen_options o = {.out_dir = out, .templates = "generator/templates"};
    return o;
}

START_TEST(bad_spec_message)
{
    const struct bad_case *c = &bad[_i];
    char path[256], err[GEN_ERR], want[GEN_ERR];
    const char *p = write_spec(c, path, sizeof path);
    struct gen_options o = options(WORK "/out_bad");
    int rc = gen_run(&p, 1, &o, err, sizeof err);
    ck_assert_int_ne(rc, 0);
    snprintf(want, sizeof want, "%s:%s", path, c->message);
    ck_assert_str_eq(err, want);
    ck_assert_int_ne(access(WORK "/out_bad", F_OK), 0); /* nothing written */
}
END_TEST

/* A named variant axis: every value is compiled, named after the dtype, coded for the
 * registry, and seen by constraints. */
START_TEST(variant_axis)
{
    static const struct bad_case mode = {
        "variant_axis", 0,
        "variant \"mode\" { \"plain\", \"log\" } "
        "constraint \"log wants 16-byte loads\" (function(c) return c.mode ~= \"log\" or c.vec > 1 end)",
        ""};
    char path[256], err[GEN_ERR] = "";
    const char *p = write_spec(&mode, path, sizeof path);
    struct gen_options o = options(NULL);
    struct gen_spec s;
    ck_assert_msg(gen_spec_load(p, &o, &s, err, sizeof err) == 0, "%s", err);
    /* 2 tiers x 3 dtypes x (plain: 2 defaults, log: the vec = 1 default pruned) */
    ck_assert_int_eq(s.ninst, 2 * 3 * 3);
    ck_assert_str_eq(s.inst[0].name, "tileops_vector_add_sm70_f32_plain_t256_v4_u4");
    ck_assert_int_eq(s.inst[0].variant, 0);
    ck_assert_str_eq(s.inst[2].name, "tileops_vector_add_sm70_f32_log_t256_v4_u4");
    ck_assert_int_eq(s.inst[2].variant, 1);
    ck_assert_str_eq(s.inst[3].name, "tileops_vector_add_sm70_f16_plain_t256_v8_u4");
    gen_spec_free(&s);
}
END_TEST

/* A variant's tag prefixes its values in instance names (not in the emitted enums), and a
 * default that names variant values applies only where the variant takes one of them. */
START_TEST(variant_tag_and_restricted_default)
{
    static const struct bad_case mode = {
        "variant_tag_default", 0,
        "variant \"mode\" { \"plain\", \"log\", tag = \"m\" } "
        "default { mode = \"log\", dtype = { \"f16\" }, threads = 128, vec = 2, unroll = 1 }",
        ""};
    char path[256], err[GEN_ERR] = "";
    const char *p = write_spec(&mode, path, sizeof path);
    struct gen_options o = options(NULL);
    struct gen_spec s;
    ck_assert_msg(gen_spec_load(p, &o, &s, err, sizeof err) == 0, "%s", err);
    /* 2 tiers x 3 dtypes x 2 modes x the 2 general defaults, + the f16 log one on each tier */
    ck_assert_int_eq(s.ninst, 2 * 3 * 2 * 2 + 2);
    ck_assert_str_eq(s.inst[0].name, "tileops_vector_add_sm70_f32_mplain_t256_v4_u4");
    ck_assert_str_eq(s.inst[2].name, "tileops_vector_add_sm70_f32_mlog_t256_v4_u4");
    ck_assert_str_eq(s.inst[7].name, "tileops_vector_add_sm70_f16_mlog_t256_v1_u4");
    ck_assert_str_eq(s.inst[8].name, "tileops_vector_add_sm70_f16_mlog_t128_v2_u1");
    ck_assert_int_eq(s.inst[8].variant, 1);
    ck_assert_str_eq(s.inst[9].name, "tileops_vector_add_sm70_bf16_mplain_t256_v8_u4");
    gen_spec_free(&s);

    /* a point that no default applies to */
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    snprintf(path, sizeof path, WORK "/default_for_none.lua");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 1; i <= 8; i++)
        fprintf(f, "%s\n", good_lines[i - 1]);
    fprintf(f, "default { dtype = \"f32\", threads = 256, vec = 1, unroll = 4 }\n");
    fclose(f);
    ck_assert_int_ne(gen_spec_load(path, &o, &s, err, sizeof err), 0);
    char want[GEN_ERR];
    snprintf(want, sizeof want, "%s:9: no default configuration is declared for sm70 f16", path);
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(good_spec_loads)
{
    char path[256], err[GEN_ERR] = "";
    const char *p = write_spec(NULL, path, sizeof path);
    struct gen_options o = options(NULL);
    struct gen_spec s;
    ck_assert_msg(gen_spec_load(p, &o, &s, err, sizeof err) == 0, "%s", err);
    /* 2 tiers x 3 dtypes x 2 defaults */
    ck_assert_int_eq(s.ninst, 12);
    ck_assert_str_eq(s.inst[0].name, "tileops_vector_add_sm70_f32_t256_v4_u4");
    ck_assert_int_eq(s.inst[0].align, 16);
    ck_assert_str_eq(s.inst[1].name, "tileops_vector_add_sm70_f32_t256_v1_u4");
    ck_assert_int_eq(s.inst[1].align, 4);
    ck_assert_str_eq(s.inst[2].name, "tileops_vector_add_sm70_f16_t256_v8_u4");
    gen_spec_free(&s);

    o.all = 1; /* the whole pruned space: f32 keeps vec 1, 2, 4 of 4; f16 and bf16 all 4 */
    ck_assert_msg(gen_spec_load(p, &o, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(s.ninst, 2 * (2 * 3 * 2 + 2 * (2 * 4 * 2)));
    gen_spec_free(&s);
}
END_TEST

/* ---- comparing trees -------------------------------------------------------------------- */

/* Reads a whole file; NULL if it cannot. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* Asserts that folders a and b hold the same files with the same bytes. */
static void assert_same_tree(const char *a, const char *b)
{
    struct dirent **ents;
    int n = scandir(a, &ents, NULL, alphasort);
    ck_assert_msg(n >= 0, "cannot read %s", a);
    int files = 0;
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char pa[512], pb[512];
        struct stat st;
        if (name[0] != '.') {
            snprintf(pa, sizeof pa, "%s/%s", a, name);
            snprintf(pb, sizeof pb, "%s/%s", b, name);
            ck_assert_int_eq(stat(pa, &st), 0);
            if (S_ISDIR(st.st_mode)) {
                assert_same_tree(pa, pb);
            } else {
                size_t la, lb;
                char *ca = slurp(pa, &la), *cb = slurp(pb, &lb);
                ck_assert_msg(cb != NULL, "%s is missing", pb);
                ck_assert_msg(la == lb && memcmp(ca, cb, la) == 0, "%s and %s differ", pa, pb);
                free(ca);
                free(cb);
            }
            files++;
        }
        free(ents[i]);
    }
    free(ents);
    /* and b has nothing a lacks */
    n = scandir(b, &ents, NULL, alphasort);
    int files_b = 0;
    for (int i = 0; i < n; i++) {
        files_b += ents[i]->d_name[0] != '.';
        free(ents[i]);
    }
    free(ents);
    ck_assert_msg(files == files_b, "%s has %d entries, %s has %d", a, files, b, files_b);
}

/* Every spec under specs/, as make passes them (sorted by gen_run anyway). */
static int real_specs(const char **paths, char store[][256], int max)
{
    struct dirent **ents;
    int n = scandir("specs", &ents, NULL, alphasort), k = 0;
    ck_assert_msg(n > 0, "cannot read specs/");
    for (int i = 0; i < n; i++) {
        size_t len = strlen(ents[i]->d_name);
        if (len > 4 && strcmp(ents[i]->d_name + len - 4, ".lua") == 0 && k < max) {
            snprintf(store[k], 256, "specs/%s", ents[i]->d_name);
            paths[k] = store[k];
            k++;
        }
        free(ents[i]);
    }
    free(ents);
    return k;
}

static void generate(const char *out, const char **paths, int n)
{
    char err[GEN_ERR];
    struct gen_options o = options(out);
    ck_assert_msg(gen_run(paths, n, &o, err, sizeof err) == 0, "%s", err);
}

START_TEST(deterministic_and_committed)
{
    const char *paths[64];
    char store[64][256];
    int n = real_specs(paths, store, 64);
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    generate(WORK "/run1", paths, n);
    /* reversed argument order must not matter */
    for (int i = 0; i < n / 2; i++) {
        const char *t = paths[i];
        paths[i] = paths[n - 1 - i];
        paths[n - 1 - i] = t;
    }
    generate(WORK "/run2", paths, n);
    assert_same_tree(WORK "/run1", WORK "/run2");
    assert_same_tree(WORK "/run1", "generated"); /* generated/ is not stale */
}
END_TEST

START_TEST(all_or_nothing)
{
    const char *paths[2];
    char store[1][256], good[256], err[GEN_ERR];
    struct stat before, after;
    real_specs(paths, store, 1);
    generate(WORK "/keep", paths, 1);
    ck_assert_int_eq(stat(WORK "/keep/MANIFEST", &before), 0);

    /* a second run with the same specs keeps unchanged files as they were (same inode) */
    generate(WORK "/keep", paths, 1);
    ck_assert_int_eq(stat(WORK "/keep/MANIFEST", &after), 0);
    ck_assert(before.st_ino == after.st_ino);

    /* a run that fails on its second spec leaves the tree alone and no temporary folder */
    paths[1] = write_spec(&bad[0], good, sizeof good);
    struct gen_options o = options(WORK "/keep");
    ck_assert_int_ne(gen_run(paths, 2, &o, err, sizeof err), 0);
    generate(WORK "/fresh", paths, 1);
    assert_same_tree(WORK "/keep", WORK "/fresh");
    ck_assert_int_ne(access(WORK "/keep.tmp", F_OK), 0);
}
END_TEST

/* A second kernel family serves vector_add: its instances go into the registry under
 * TILEOPS_OP_VECTOR_ADD, and the generated file says whom it serves; a family whose variant
 * axes differ from the operator's is refused (their registry codes would disagree). */
START_TEST(serves_another_operator)
{
    static const struct bad_case family = {
        "serves_family", 1,
        "operator \"vector_add_wide\" { doc = \"c = a + b, wide\", serves = \"vector_add\", "
        "align = function(c) return c.vec * c.bytes end }",
        ""};
    char p1[256], err[GEN_ERR] = "", want[GEN_ERR];
    const char *paths[2] = {write_spec(&family, p1, sizeof p1), "specs/vector_add.lua"};
    struct gen_options o = options(WORK "/serves");
    ck_assert_msg(gen_run(paths, 2, &o, err, sizeof err) == 0, "%s", err);
    FILE *f = fopen(WORK "/serves/sm80/registry.c", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    int wide = 0;
    while (fgets(line, sizeof line, f))
        wide += strstr(line, "{\"tileops_vector_add_wide_sm80_f16_t256_v8_u4\", "
                             "TILEOPS_OP_VECTOR_ADD,") != NULL;
    fclose(f);
    ck_assert_int_eq(wide, 1);

    static const struct bad_case other = {
        "serves_other_variants", 2,
        "variant \"dtype\" { \"f32\" } variant \"mode\" { \"plain\" }", ""};
    char p2[256];
    const char *base = write_spec(&other, p2, sizeof p2);
    /* and line 1 made to serve vector_add too */
    char text[4096];
    FILE *g = fopen(base, "r");
    ck_assert_ptr_nonnull(g);
    size_t n = fread(text, 1, sizeof text - 1, g);
    fclose(g);
    text[n] = 0;
    g = fopen(base, "w");
    fprintf(g, "operator \"vector_add_modes\" { doc = \"modes\", serves = \"vector_add\" }%s",
            strchr(text, '\n'));
    fclose(g);
    const char *paths2[2] = {base, "specs/vector_add.lua"};
    ck_assert_int_ne(gen_run(paths2, 2, &o, err, sizeof err), 0);
    snprintf(want, sizeof want, "specs/vector_add.lua: serves 'vector_add' as %s does, but its "
             "variant axes differ (names, values and order must match)", base);
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(duplicate_operator)
{
    char p1[256], err[GEN_ERR], want[GEN_ERR];
    const char *paths[2] = {write_spec(NULL, p1, sizeof p1), "specs/vector_add.lua"};
    struct gen_options o = options(WORK "/dup");
    ck_assert_int_ne(gen_run(paths, 2, &o, err, sizeof err), 0);
    snprintf(want, sizeof want, "specs/vector_add.lua: operator 'vector_add' is also declared by %s", p1);
    ck_assert_str_eq(err, want);
}
END_TEST

/* The tileops-gen of this build: B/tileops-gen beside B/tests/test_gen (main sets it from
 * argv[0]; build/tileops-gen when run without a path). */
static char gen_cmd[256] = "build/tileops-gen";

/* Runs a shell command; returns its exit status and its output (stdout + stderr). */
static int shell(const char *cmd, char *out, size_t len)
{
    char full[1024];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The command line: exit status 1 and one line naming file:line for a bad spec (nothing
 * written), 2 for bad usage, and --list / -v print what the generator would do. */
START_TEST(command_line)
{
    char out[1 << 16], path[256], want[GEN_ERR + 32];
    const char *bad_spec = write_spec(&bad[4], path, sizeof path); /* unknown dtype */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -o " WORK "/cli %s", gen_cmd, bad_spec);
    ck_assert_int_eq(shell(cmd, out, sizeof out), 1);
    snprintf(want, sizeof want, "tileops-gen: %s:%s\n", bad_spec, bad[4].message);
    ck_assert_str_eq(out, want);
    ck_assert_int_ne(access(WORK "/cli", F_OK), 0);

    snprintf(cmd, sizeof cmd, "%s --bogus specs/vector_add.lua", gen_cmd);
    ck_assert_int_eq(shell(cmd, out, sizeof out), 2);
    ck_assert_int_eq(shell(gen_cmd, out, sizeof out), 2);

    /* --list: one instance a line, in the manifest's order */
    snprintf(cmd, sizeof cmd, "%s --list specs/*.lua", gen_cmd);
    ck_assert_int_eq(shell(cmd, out, sizeof out), 0);
    char *manifest;
    size_t mlen;
    ck_assert_ptr_nonnull(manifest = slurp("generated/MANIFEST", &mlen));
    int lines = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        char key[GEN_NAME + 2];
        snprintf(key, sizeof key, "\n%s ", line);
        ck_assert_msg(strstr(manifest, key) != NULL, "%s is not in generated/MANIFEST", line);
    }
    ck_assert_int_gt(lines, 0);
    free(manifest);

    /* -v: every pruned configuration says which constraint dropped it, and where */
    write_spec(NULL, path, sizeof path);
    snprintf(cmd, sizeof cmd, "%s -v --list %s", gen_cmd, path);
    ck_assert_int_eq(shell(cmd, out, sizeof out), 0);
    snprintf(want, sizeof want, "pruned tileops_vector_add_sm70_f32_t128_v8_u1: 16-byte loads (%s:8)\n", path);
    ck_assert_msg(strstr(out, want) != NULL, "-v output lacks: %s", want);
}
END_TEST

int main(int argc, char **argv)
{
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    if (slash) /* B/tests/test_gen -> B/tests/../tileops-gen */
        snprintf(gen_cmd, sizeof gen_cmd, "%.*s/../tileops-gen", (int)(slash - argv[0]), argv[0]);
    Suite *s = suite_create("generator");
    TCase *tc = tcase_create("specs");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, bad_spec_message, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, good_spec_loads);
    tcase_add_test(tc, variant_axis);
    tcase_add_test(tc, variant_tag_and_restricted_default);
    tcase_add_test(tc, duplicate_operator);
    tcase_add_test(tc, serves_another_operator);
    suite_add_tcase(s, tc);
    TCase *out = tcase_create("output");
    tcase_set_timeout(out, 60);
    tcase_add_test(out, deterministic_and_committed);
    tcase_add_test(out, all_or_nothing);
    tcase_add_test(out, command_line);
    suite_add_tcase(s, out);
    return run_suite(s, CK_NORMAL);
}
