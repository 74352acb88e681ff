/* test_gen.c: tileops-gen: every malformed spec gets its one exact file:line message, output
 * is deterministic and all-or-nothing, and the committed generated/ is what the specs give.
 * Runs from the top folder (make test does). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../generator/gen.h"
#include "util_check.h"
#include "util_host.h"

#define WORK "build/tests/gen"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree_for_test(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

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
    /* hostile specs (issue 23): each crashed, hung or was accepted wrongly before */
    {"constraint_body_reused", 0,
     "local c = constraint \"x\" for i = 1, 40 do c(function() return true end) end",
     "11: a declaration's body is given once, right after its name"},
    {"tune_without_values", 0, "tune \"zz\"", "11: tune 'zz' is not followed by its body"},
    {"dtype_without_values", 2, "variant \"dtype\"",
     "2: variant 'dtype' is not followed by its body"},
    {"operator_body_twice", 1,
     "local op = operator \"vector_add\" op { doc = \"x\", align = function(c) return c.vec * c.bytes end } "
     "op { doc = \"y\" }",
     "1: a declaration's body is given once, right after its name"},
    {"lying_len", 0, "tune \"zz\" (setmetatable({ 1 }, { __len = function() return -1 end }))",
     "11: attempt to call a nil value (global 'setmetatable')"},
    {"list_hole", 0, "tune \"zz\" { 1, 2, [10] = 3 }",
     "11: tune 'zz': entry [10] is not in its list (1 to 2, no holes)"},
    {"tag_not_string", 5, "tune \"threads\" { 128, 256, tag = true }",
     "5: tune 'threads': tag must be a short lower-case word"},
    {"name_not_string", 0, "tune (5) { 1 }",
     "11: tune name must be a string, got number"},
    {"align_beyond_int", 1,
     "operator \"vector_add\" { doc = \"c = a + b\", align = function(c) return (1 << 32) + c.vec * c.bytes end }",
     "1: operator align gives 4294967312, beyond the range of int"},
    {"default_beyond_int", 10, "default { threads = 256, vec = (1 << 32) + 1, unroll = 4 }",
     "10: default: vec gives 4294967297, beyond the range of int"},
    {"tune_beyond_int", 0, "tune \"zz\" { 4294967296 }",
     "11: tune 'zz': value 1 is 4294967296 (expected 0 to 1048576)"},
    {"doc_two_lines", 1,
     "operator \"vector_add\" { doc = \"c = a + b\\n#error injected\", align = 16 }",
     "1: operator: field 'doc' must be one line of text (no control characters, no trailing backslash)"},
    {"pcall_resets_limit", 0, "while true do pcall(function() while true do end end) end",
     "11: attempt to call a nil value (global 'pcall')"},
    {"finalizer", 0, "setmetatable({}, { __gc = function() while true do end end }) collectgarbage()",
     "11: attempt to call a nil value (global 'setmetatable')"},
    {"pattern_matching", 0,
     "string.find(\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \".-.-.-.-.-.-.-.-.-.-.-.-b\")",
     "11: attempt to call a nil value (field 'find')"},
    {"table_move", 0, "table.move({}, 1, math.maxinteger, 1)",
     "11: attempt to call a nil value (field 'move')"},
    {"memory_bomb", 0, "local s = \"x\" while true do s = s .. s end",
     "11: spec uses too much memory (more than 256 MB)"},
    {"error_table", 0, "error({})", "11: error object is a table value"},
    {"error_no_position", 0, "error(\"boom\", 0)", "11: boom"},
    {"declare_while_expanding", 0,
     "constraint \"z\" (function(c) tune \"qq\" { 1 } return true end)",
     "11: declarations belong to the spec's top level, not to a constraint or default that runs after it"},
    {"space_too_large", 0,
     "for _, n in ipairs({ \"aa\", \"bb\", \"dd\", \"ee\", \"ff\" }) do local t = {} "
     "for v = 1, 32 do t[v] = v end tune(n)(t) end",
     "1: the tuning space is too large: 3221225472 configurations over every tier, dtype and "
     "variant (at most 16777216)"},
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

/* Writes case c (NULL: the good spec) and loads it with the default options: it must load. */
static void load_ok(const struct bad_case *c, struct gen_spec *s)
{
    char path[256], err[GEN_ERR] = "";
    const char *p = write_spec(c, path, sizeof path);
    struct gen_options o = options(NULL);
    ck_assert_msg(gen_spec_load(p, &o, s, err, sizeof err) == 0, "%s", err);
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
    struct gen_spec s;
    load_ok(&mode, &s);
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
    struct gen_spec s;
    load_ok(&mode, &s);
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
    char path[256], err[GEN_ERR] = "";
    struct gen_options o = options(NULL);
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

/* The near space: the defaults and every surviving configuration one axis from one; an explore
 * seeds it as a default does, while the library (no --near) leaves it out; a bad explore fails
 * in either mode. Counts per tier (threads x vec x unroll, vec * bytes <= 16): f32 keeps
 * 256/4/4, 256/1/4 and 128/4/4, 256/2/4, 128/1/4, 256/4/1, 256/1/1 (7), and explore 128/1/1
 * adds it and 128/2/1, 128/4/1 (10); f16 and bf16 keep 256/8/4, 256/1/4, 256/2/4, 256/4/4,
 * 128/8/4, 256/8/1, 128/1/4, 256/1/1 (8) and gain 128/{1,2,4,8}/1 (12). */
START_TEST(explore_seeds_near_only)
{
    static const struct bad_case ex = {"explore", 0,
                                       "explore { threads = 128, vec = 1, unroll = 1 }", ""};
    static const struct bad_case bad_ex = {"explore_bad", 0,
                                           "explore { threads = 128, vec = 3, unroll = 1 }", ""};
    char path[256], err[GEN_ERR] = "";
    struct gen_spec s;
    struct gen_options o = options(NULL);
    const char *p = write_spec(NULL, path, sizeof path);
    o.near = 1;
    ck_assert_msg(gen_spec_load(p, &o, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(s.ninst, 2 * (7 + 8 + 8));
    gen_spec_free(&s);

    p = write_spec(&ex, path, sizeof path);
    ck_assert_msg(gen_spec_load(p, &o, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(s.ninst, 2 * (10 + 12 + 12));
    int found = 0;
    for (int i = 0; i < s.ninst; i++)
        found += strcmp(s.inst[i].name, "tileops_vector_add_sm80_bf16_t128_v8_u1") == 0;
    ck_assert_int_eq(found, 1);
    gen_spec_free(&s);

    o.near = 0; /* the library: the two defaults only */
    ck_assert_msg(gen_spec_load(p, &o, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(s.ninst, 12);
    for (int i = 0; i < s.ninst; i++)
        ck_assert_ptr_null(strstr(s.inst[i].name, "_u1"));
    gen_spec_free(&s);

    p = write_spec(&bad_ex, path, sizeof path);
    ck_assert_int_ne(gen_spec_load(p, &o, &s, err, sizeof err), 0);
    char want[GEN_ERR];
    snprintf(want, sizeof want, "%s:11: explore: vec=3 is not in the tuning space of sm70 f32",
             path);
    ck_assert_str_eq(err, want);
}
END_TEST

/* An instance name past GEN_NAME is an error naming the operator's line (it underflowed a
 * size and wrote past the name before). */
START_TEST(long_instance_name)
{
    /* tileops_ + a 31-letter operator + _sm70_f32 + 4 variants of 23 + _t256_v4 + the unroll
     * axis: a 7-letter tag gives 157 characters (fits); 7-letter threads and vec tags and
     * threads = 1048576 go past 160 before the last axis */
    const char *vars = "variant \"dtype\" { \"f32\", \"f16\", \"bf16\" }\n"
                       "variant \"aaaa\" { \"aaaaaaaaaaaaaaa\", tag = \"aaaaaaa\" }\n"
                       "variant \"bbbb\" { \"bbbbbbbbbbbbbbb\", tag = \"bbbbbbb\" }\n"
                       "variant \"cccc\" { \"ccccccccccccccc\", tag = \"ccccccc\" }\n"
                       "variant \"dddd\" { \"ddddddddddddddd\", tag = \"ddddddd\" }\n";
    char path[2][256], err[GEN_ERR] = "", want[GEN_ERR];
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    for (int k = 0; k < 2; k++) {
        snprintf(path[k], sizeof path[k], WORK "/long_name%d.lua", k);
        FILE *f = fopen(path[k], "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "operator \"vector_add_with_a_long_name_abc\" { doc = \"long\" }\n%s", vars);
        /* the second one overflows in the middle of the name (at vec, before unroll): the
         * size left for the next piece underflowed there */
        for (int i = 3; i <= NLINES; i++)
            fprintf(f, "%s\n",
                    k == 1 && i == 5   ? "tune \"threads\" { 128, 256, 1048576, tag = \"ttttttt\" }"
                    : k == 1 && i == 6 ? "tune \"vec\" { 1, 2, 4, 8, tag = \"vvvvvvv\" }"
                    : k == 1 && i == 9 ? "default { threads = 1048576, vec = 4, unroll = 4 }"
                    : i == 7           ? "tune \"unroll\" { 1, 4, tag = \"uuuuuuu\" }"
                                       : good_lines[i - 1]);
        fclose(f);
    }
    struct gen_options o = options(NULL);
    struct gen_spec s;
    ck_assert_msg(gen_spec_load(path[0], &o, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq((int)strlen(s.inst[0].name), 157);
    gen_spec_free(&s);
    ck_assert_int_ne(gen_spec_load(path[1], &o, &s, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s:1: instance name tileops_vector_add_with_a_long_name_abc_sm70_f32_aaaaaaa", path[1]);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
    ck_assert_msg(strstr(err, "is too long (at most 158 characters)") != NULL, "%s", err);
}
END_TEST

/* A default is copied when declared: a constraint that rewrites the table afterwards (with
 * values that would not validate) changes nothing. It handed NULL to strcmp before. */
START_TEST(default_frozen)
{
    static const struct bad_case mutate = {
        "default_mutated", 10,
        "local d = { threads = 256, vec = 1, unroll = 4, dtype = { \"f16\" } } default(d) "
        "constraint \"m\" (function(c) d.dtype = { {} } d.vec = \"x\" d.threads = nil return true end)",
        ""};
    struct gen_spec s;
    load_ok(&mutate, &s);
    /* 2 tiers x (f32, f16, bf16: the 16-byte default; f16: the mutated one) */
    ck_assert_int_eq(s.ninst, 2 * 4);
    ck_assert_str_eq(s.inst[2].name, "tileops_vector_add_sm70_f16_t256_v1_u4");
    gen_spec_free(&s);
}
END_TEST

/* The operator's table is copied when registered: detaching or rewriting it afterwards
 * does not change the vectorized instance's alignment (16 bytes, not the element's 4). */
START_TEST(operator_table_detached)
{
    static const struct bad_case detach = {
        "operator_detached", 1,
        "local t = { doc = \"c = a + b\", align = function(c) return c.vec * c.bytes end } "
        "operator \"vector_add\" (t) t.align = nil t.doc = {} t = nil",
        ""};
    struct gen_spec s;
    load_ok(&detach, &s);
    ck_assert_str_eq(s.inst[0].name, "tileops_vector_add_sm70_f32_t256_v4_u4");
    ck_assert_int_eq(s.inst[0].align, 16);
    ck_assert_str_eq(s.doc, "c = a + b");
    gen_spec_free(&s);
}
END_TEST

/* The limits, lowered through gen_options: each ends the run with file:line, whatever the
 * spec does to escape (loops in constraints, growth, work inside C functions). */
START_TEST(limits)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"while true do end", "11: spec runs too long (more than 1 million instructions)"},
        {"constraint \"spin\" (function(c)\n  while true do end\nend)",
         "12: spec runs too long (more than 1 million instructions)"},
        {"local t = {} while true do t[#t + 1] = {} end", "11: spec uses too much memory (more than 8 MB)"},
        {"local t = {} for i = 1, 100000 do t[i] = \"x\" end\n"
         "local n = 0 for i = 1, 1000 do n = n + #table.concat(t) end",
         "12: spec runs too long (more than 0.2 seconds of CPU time)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct bad_case c = {"limit", 0, cases[i].text, ""};
        char path[256], err[GEN_ERR] = "", want[GEN_ERR];
        const char *p = write_spec(&c, path, sizeof path);
        struct gen_options o = options(NULL);
        o.max_instructions = 1000000;
        o.max_memory = 8u << 20;
        o.max_seconds = 0.2;
        if (i == 3)
            o.max_instructions = 1000000000; /* the CPU limit first */
        struct gen_spec s;
        ck_assert_int_ne(gen_spec_load(p, &o, &s, err, sizeof err), 0);
        snprintf(want, sizeof want, "%s:%s", p, cases[i].message);
        ck_assert_str_eq(err, want);
    }
}
END_TEST

/* A spec path that is not a regular file (a FIFO hung the generator, /dev/zero filled its
 * memory) is refused at line 1. */
START_TEST(spec_not_regular)
{
    char err[GEN_ERR];
    struct gen_options o = options(NULL);
    struct gen_spec s;
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    unlink(WORK "/fifo.lua");
    ck_assert_int_eq(mkfifo(WORK "/fifo.lua", 0666), 0);
    ck_assert_int_ne(gen_spec_load(WORK "/fifo.lua", &o, &s, err, sizeof err), 0);
    ck_assert_str_eq(err, WORK "/fifo.lua:1: the spec is not a regular file");
    ck_assert_int_ne(gen_spec_load("/dev/zero", &o, &s, err, sizeof err), 0);
    ck_assert_str_eq(err, "/dev/zero:1: the spec is not a regular file");
}
END_TEST

/* ---- comparing trees -------------------------------------------------------------------- */

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
                char *ca = read_file(pa, &la), *cb = read_file(pb, &lb);
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

/* Every .lua file in dir, as make passes them (sorted by gen_run anyway); dir may be absent
 * when optional. */
static int lua_files(const char *dir, int optional, const char **paths, char store[][256], int max)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort), k = 0;
    if (n < 0 && optional)
        return 0;
    ck_assert_msg(n > 0, "cannot read %s/", dir);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(ents[i]->d_name);
        if (len > 4 && strcmp(ents[i]->d_name + len - 4, ".lua") == 0 && k < max) {
            snprintf(store[k], 256, "%s/%.200s", dir, ents[i]->d_name);
            paths[k] = store[k];
            k++;
        }
        free(ents[i]);
    }
    free(ents);
    return k;
}

static int real_specs(const char **paths, char store[][256], int max)
{
    return lua_files("specs", 0, paths, store, max);
}

/* Generates from these specs, with the committed tuning tables (as make does) when tuned. */
static void generate_with(const char *out, const char **paths, int n, int tuned)
{
    char err[GEN_ERR], store[16][256];
    const char *tables[16];
    struct gen_options o = options(out);
    o.ntuned = tuned ? lua_files("specs/tuned", 1, tables, store, 16) : 0;
    o.tuned = tables;
    ck_assert_msg(gen_run(paths, n, &o, err, sizeof err) == 0, "%s", err);
}

static void generate(const char *out, const char **paths, int n)
{
    generate_with(out, paths, n, 0);
}

START_TEST(deterministic_and_committed)
{
    const char *paths[64];
    char store[64][256];
    int n = real_specs(paths, store, 64);
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    generate_with(WORK "/run1", paths, n, 1);
    /* reversed argument order must not matter */
    for (int i = 0; i < n / 2; i++) {
        const char *t = paths[i];
        paths[i] = paths[n - 1 - i];
        paths[n - 1 - i] = t;
    }
    generate_with(WORK "/run2", paths, n, 1);
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


/* -o replaces only a tree tileops-gen wrote (or an empty folder), and removes only a
 * temporary folder a run of its own left. */
START_TEST(output_folder_refused)
{
    const char *paths[1];
    char store[1][256], err[GEN_ERR];
    real_specs(paths, store, 1);
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    struct gen_options o = options(WORK "/users");
    remove_tree_for_test(WORK "/users");
    ck_assert_int_eq(mkdir(WORK "/users", 0777), 0);
    FILE *f = fopen(WORK "/users/precious.txt", "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_ne(gen_run(paths, 1, &o, err, sizeof err), 0);
    ck_assert_str_eq(err, WORK "/users is not a tree tileops-gen wrote (no MANIFEST of ours): "
                     "refusing to replace it");
    ck_assert_int_eq(access(WORK "/users/precious.txt", F_OK), 0);

    o = options(WORK "/a_file");
    f = fopen(WORK "/a_file", "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_ne(gen_run(paths, 1, &o, err, sizeof err), 0);
    ck_assert_str_eq(err, WORK "/a_file exists and is not a folder: refusing to replace it");

    /* someone's own <dir>.tmp stays */
    remove_tree_for_test(WORK "/t2");
    remove_tree_for_test(WORK "/t2.tmp");
    ck_assert_int_eq(mkdir(WORK "/t2.tmp", 0777), 0);
    f = fopen(WORK "/t2.tmp/notes", "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    o = options(WORK "/t2");
    ck_assert_int_ne(gen_run(paths, 1, &o, err, sizeof err), 0);
    ck_assert_str_eq(err, WORK "/t2.tmp exists and was not left by tileops-gen: refusing to "
                     "remove it");
    ck_assert_int_eq(access(WORK "/t2.tmp/notes", F_OK), 0);

    /* a killed run's temporary tree is cleared; an empty folder is written into */
    remove_tree_for_test(WORK "/t2.tmp");
    ck_assert_int_eq(mkdir(WORK "/t2.tmp", 0777), 0);
    f = fopen(WORK "/t2.tmp/.tileops-gen-partial", "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(mkdir(WORK "/t2", 0777), 0);
    generate(WORK "/t2", paths, 1);
    ck_assert_int_eq(access(WORK "/t2/MANIFEST", F_OK), 0);
    ck_assert_int_ne(access(WORK "/t2.tmp", F_OK), 0);
    ck_assert_int_ne(access(WORK "/t2/.tileops-gen-partial", F_OK), 0);
}
END_TEST

/* Runs into one folder take turns: every run exits 0 and the tree is one run's whole tree. */
START_TEST(concurrent_writers)
{
    const char *all[64], *one[1];
    char store[64][256];
    int n = real_specs(all, store, 64);
    one[0] = all[n - 1];
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    remove_tree_for_test(WORK "/conc");
    generate(WORK "/ref_all", all, n);
    generate(WORK "/ref_one", one, 1);
    for (int round = 0; round < 4; round++) {
        pid_t pids[6];
        for (int k = 0; k < 6; k++) {
            pids[k] = fork();
            ck_assert_int_ge(pids[k], 0);
            if (pids[k] == 0) {
                char err[GEN_ERR];
                struct gen_options o = options(WORK "/conc");
                int rc = k % 2 ? gen_run(all, n, &o, err, sizeof err)
                               : gen_run(one, 1, &o, err, sizeof err);
                if (rc != 0)
                    fprintf(stderr, "concurrent run %d: %s\n", k, err);
                _exit(rc != 0);
            }
        }
        for (int k = 0; k < 6; k++) {
            int st;
            ck_assert_int_eq(waitpid(pids[k], &st, 0), pids[k]);
            ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run %d of round %d failed", k,
                          round);
        }
        ck_assert_int_ne(access(WORK "/conc.tmp", F_OK), 0);
        size_t lm, la;
        char *m = read_file(WORK "/conc/MANIFEST", &lm), *ra = read_file(WORK "/ref_all/MANIFEST", &la);
        ck_assert_ptr_nonnull(m);
        if (lm == la && memcmp(m, ra, la) == 0)
            assert_same_tree(WORK "/conc", WORK "/ref_all");
        else
            assert_same_tree(WORK "/conc", WORK "/ref_one");
        free(m);
        free(ra);
    }
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
    snprintf(want, sizeof want, "specs/vector_add.lua:8: serves 'vector_add' as %s does, but its "
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
    snprintf(want, sizeof want, "specs/vector_add.lua:8: operator 'vector_add' is also declared by %s:1", p1);
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
    ck_assert_ptr_nonnull(manifest = read_file("generated/MANIFEST", &mlen));
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
    sibling_path(argc > 0 ? argv[0] : NULL, "tileops-gen", "build/tileops-gen", gen_cmd,
                 sizeof gen_cmd);
    Suite *s = suite_create("generator");
    TCase *tc = tcase_create("specs");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, bad_spec_message, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, good_spec_loads);
    tcase_add_test(tc, explore_seeds_near_only);
    tcase_add_test(tc, variant_axis);
    tcase_add_test(tc, variant_tag_and_restricted_default);
    tcase_add_test(tc, duplicate_operator);
    tcase_add_test(tc, serves_another_operator);
    tcase_add_test(tc, long_instance_name);
    tcase_add_test(tc, default_frozen);
    tcase_add_test(tc, operator_table_detached);
    tcase_add_test(tc, limits);
    tcase_add_test(tc, spec_not_regular);
    suite_add_tcase(s, tc);
    TCase *out = tcase_create("output");
    tcase_set_timeout(out, 60);
    tcase_add_test(out, deterministic_and_committed);
    tcase_add_test(out, all_or_nothing);
    tcase_add_test(out, command_line);
    tcase_add_test(out, output_folder_refused);
    tcase_add_test(out, concurrent_writers);
    suite_add_tcase(s, out);
    return run_suite(s, CK_NORMAL);
}
