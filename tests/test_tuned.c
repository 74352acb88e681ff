/* test_tuned.c: tuning tables. tileops-gen: each malformed table gets its file:line message
 * and writes nothing, a winner from outside the defaults joins the library, generation from a
 * table is deterministic. Dispatch: the handle's table by (cc, SMs) or alias, the exact shape
 * before its bucket, the cost model when there is no entry or the entry cannot serve, pins and
 * TILEOPS_TUNED=0 switch tables off. Runs from the top folder (make test does). */
#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../generator/gen.h"
#include "internal.h"
#include "op_args.h"
#include "tune_key.h"
#include "util_check.h"
#include "util_handle.h"
#include "util_host.h"

#define WORK "build/tests/tuned"
#define WG "tileops_gemm_wgmma_sm90_bf16_nk_"
#define DEFAULT_WG WG "m128_n256_k64_s4_wg2_c1_g8_ks1"  /* a default instance */
#define ALL_ONLY_WG WG "m128_n128_k64_s3_wg2_c1_g16_ks1" /* only in the whole pruned space */
#define ATTN_WG "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1" /* a default */

static const char *const specs[] = {"specs/gemm.lua", "specs/gemm_small_m.lua",
                                    "specs/gemm_wgmma.lua", "specs/vector_add.lua",
                                    "specs/flash_attention.lua",
                                    "specs/flash_attention_wgmma.lua"};
#define NSPECS ((int)(sizeof specs / sizeof specs[0]))

static const char gpu_line[] = "gpu { name = \"Fake GPU\", cc = 90, sms = 132, aliases = { { cc = 90, sms = 114 } } }\n";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Writes text to WORK/<name>.lua and returns the path (static storage per call site). */
static const char *write_table(const char *name, const char *text, char *path, size_t len)
{
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    snprintf(path, len, WORK "/%s.lua", name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Runs the generator on the gemm and vector_add specs with one table into out; returns its
 * status with the message in err. */
static int generate(const char *table, const char *out, char *err, size_t len)
{
    const char *tables[1] = {table};
    struct gen_options o = {.out_dir = out, .templates = "generator/templates", .tuned = tables,
                            .ntuned = table ? 1 : 0};
    return gen_run(specs, NSPECS, &o, err, len);
}

/* An entry line for gemm bf16 nk, class none, at m x 4096 x 4096 naming kernel. */
static void entry(char *out, size_t len, int m, const char *extra, const char *kernel)
{
    snprintf(out, len, "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, "
             "class = \"none\", m = %d, n = 4096, k = 4096,%s kernel = \"%s\", us = 10, "
             "noise = 0.1, untuned = \"x\", untuned_us = 12 }\n", m, extra, kernel);
}

struct bad_table {
    const char *name;
    const char *body;   /* after the gpu line (line 1), unless it starts with '!' (whole) */
    const char *want;   /* the message after "<path>:" */
};

static const struct bad_table bad[] = {
    {"syntax", "entry { op = \"gemm\" \n", "3: '}' expected (to close '{' at line 2) near <eof>"},
    {"no_gpu", "!entry { op = \"gemm\" }\n",
     "1: entry before gpu { … }: a table starts with the GPU it was measured on"},
    {"gpu_missing", "!-- nothing\n", "1: no gpu { name = …, cc = …, sms = … } declared"},
    {"gpu_twice", "gpu { name = \"x\", cc = 90, sms = 1 }\n", "2: gpu declared twice (first at line 1)"},
    {"gpu_field", "!gpu { name = \"x\", cc = 90, sms = 1, color = 3 }\n", "1: gpu: unknown field 'color'"},
    {"gpu_cc", "!gpu { name = \"x\", cc = 9.5, sms = 1 }\n", "1: gpu: cc must be an integer, got a fraction"},
    {"op", "entry { op = \"conv\" }\n",
     "2: entry: op 'conv' is not an operator tables cover (vector_add, softmax, gemm, flash_attention)"},
    {"no_spec", "entry { op = \"softmax\", dtype = \"f32\", rows = 1, cols = 1, kernel = \"k\" }\n",
     "2: entry: no spec given to tileops-gen serves 'softmax'"},
    {"field", "entry { op = \"gemm\", dtype = \"bf16\", m = 1, n = 1, k = 1, kernel = \"k\", rows = 3 }\n",
     "2: entry: unknown field 'rows'"},
    {"dtype", "entry { op = \"gemm\", dtype = \"fp8\", m = 1, n = 1, k = 1, kernel = \"k\" }\n",
     "2: entry: dtype 'fp8' is not f32, f16 or bf16"},
    {"variant", "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"mn\" }, m = 1, n = 1, k = 1, kernel = \"k\" }\n",
     "2: entry: variant: layout = mn is not one of layout's values"},
    {"class", "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, class = \"relu\", m = 1, n = 1, k = 1, kernel = \"k\" }\n",
     "2: entry: class 'relu' is not one of gemm's (none, epilogue, beta, epilogue+beta)"},
    {"dims", "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, m = 0, n = 1, k = 1, kernel = \"k\" }\n",
     "2: entry: m = 0 is not in 1..1125899906842624"},
    {"missing_dim", "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, m = 1, n = 1, kernel = \"k\" }\n",
     "2: entry: k must be an integer, got nil"},
    {"unknown_kernel", "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, m = 1, n = 1, k = 1, kernel = \"tileops_gemm_gone\" }\n",
     "2: kernel 'tileops_gemm_gone' is not an instance of any spec serving gemm (renamed or pruned "
     "since the table was tuned: re-tune)"},
    {"wrong_dtype", "entry { op = \"gemm\", dtype = \"f16\", variant = { layout = \"nk\" }, m = 1, n = 1, k = 1, kernel = \"" DEFAULT_WG "\" }\n",
     "2: kernel '" DEFAULT_WG "' does not serve this entry's dtype and variant"},
    {"duplicate", "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, m = 4096, n = 4096, k = 4096, kernel = \"" DEFAULT_WG "\" }\n"
                  "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, m = 5000, n = 6000, k = 7000, kernel = \"" DEFAULT_WG "\" }\n",
     "3: the same bucket (op, dtype, variant, class and each size's power-of-two bin) as the entry at line 2"},
    {"duplicate_exact", "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, exact = true, m = 5, n = 6, k = 7, kernel = \"" DEFAULT_WG "\" }\n"
                        "entry { op = \"gemm\", dtype = \"bf16\", variant = { layout = \"nk\" }, exact = true, m = 5, n = 6, k = 7, kernel = \"" DEFAULT_WG "\" }\n",
     "3: the same exact shape as the entry at line 2"},
    {"code", "print(1)\n", "2: attempt to call a nil value (global 'print')"},
    {"loop", "while true do end\n", "2: the table runs too long (more than 100000000 instructions)"},
};

START_TEST(bad_table_message)
{
    const struct bad_table *c = &bad[_i];
    char path[256], text[2048], err[GEN_ERR], want[GEN_ERR];
    if (c->body[0] == '!')
        snprintf(text, sizeof text, "%s", c->body + 1);
    else
        snprintf(text, sizeof text, "%s%s", gpu_line, c->body);
    write_table(c->name, text, path, sizeof path);
    /* nothing half-written: the output folder keeps what an earlier run wrote */
    char out[256];
    snprintf(out, sizeof out, WORK "/out_%s", c->name);
    nftw(out, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    ck_assert_msg(generate(NULL, out, err, sizeof err) == 0, "%s", err);
    char p[300];
    snprintf(p, sizeof p, "%s/tuned.c", out);
    char *tuned_before = read_file(p, NULL);
    ck_assert_int_ne(generate(path, out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s:%s", path, c->want);
    ck_assert_str_eq(err, want);
    char *tuned_after = read_file(p, NULL);
    ck_assert_ptr_nonnull(tuned_before);
    ck_assert_ptr_nonnull(tuned_after);
    ck_assert_str_eq(tuned_before, tuned_after);
    free(tuned_before);
    free(tuned_after);
}
END_TEST

/* A good table: its winner from outside the defaults joins the registry, its entries become
 * tuned.c with the right registry slots, and two runs write the same bytes. */
START_TEST(good_table)
{
    char path[256], text[4096], line[512], err[GEN_ERR];
    snprintf(text, sizeof text, "-- a comment\n%s", gpu_line);
    entry(line, sizeof line, 4096, "", ALL_ONLY_WG);
    strcat(text, line);
    entry(line, sizeof line, 4000, " exact = true,", DEFAULT_WG);
    strcat(text, line);
    strcat(text, "entry { op = \"vector_add\", dtype = \"f16\", n = 1000, kernel = "
                 "\"tileops_vector_add_sm90_f16_t256_v8_u4\" }\n");
    /* attention's fourth class */
    strcat(text, "entry { op = \"flash_attention\", dtype = \"bf16\", variant = { head_dim = "
                 "\"128\" }, class = \"causal+softcap\", seqlen_q = 2048, seqlen_kv = 2048, "
                 "batch_heads = 128, kernel = \"" ATTN_WG "\" }\n");
    write_table("good", text, path, sizeof path);
    ck_assert_msg(generate(path, WORK "/good1", err, sizeof err) == 0, "%s", err);
    ck_assert_msg(generate(path, WORK "/good2", err, sizeof err) == 0, "%s", err);
    char *a = read_file(WORK "/good1/tuned.c", NULL);
    char *b = read_file(WORK "/good2/tuned.c", NULL);
    char *reg = read_file(WORK "/good1/sm90/registry.c", NULL);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(reg);
    ck_assert_str_eq(a, b);
    ck_assert_msg(strstr(reg, "\"" ALL_ONLY_WG "\"") != NULL, "the winner is not in the registry");
    /* marked table-only (the cost model never picks it); the defaults are not */
    ck_assert_msg(strstr(reg, ALL_ONLY_WG "_fit, 1}") != NULL, "the winner is not table-only");
    ck_assert_msg(strstr(reg, DEFAULT_WG "_fit, 0}") != NULL, "a default is table-only");
    ck_assert_msg(strstr(a, "{\"Fake GPU\", 90, 132, aliases_0, 1, entries_0, 4}") != NULL, "%s", a);
    /* each entry's slot is its kernel's position in the tier's registry */
    const char *names[] = {ALL_ONLY_WG, DEFAULT_WG, "tileops_vector_add_sm90_f16_t256_v8_u4",
                           ATTN_WG};
    for (int i = 0; i < 4; i++) {
        int index = -1, n = 0;
        for (const char *at = strstr(reg, "    {\""); at; at = strstr(at + 1, "    {\""), n++)
            if (strncmp(at + 6, names[i], strlen(names[i])) == 0 && at[6 + strlen(names[i])] == '"')
                index = n;
        ck_assert_int_ge(index, 0);
        char want[256];
        snprintf(want, sizeof want, "}, 90, %d}, /* line ", index);
        const char *e = strstr(a, names[i]);
        ck_assert_ptr_nonnull(e);
        /* the entry line ends with the kernel's name; its slot precedes it on that line */
        const char *start = e;
        while (start > a && start[-1] != '\n')
            start--;
        ck_assert_msg(strstr(start, want) != NULL && strstr(start, want) < e, "%.*s", (int)(e - start), start);
    }
    free(a);
    free(b);
    free(reg);
}
END_TEST

/* ---- dispatch ---------------------------------------------------------------------------- */

/* The sm90 registry index of the kernel called name, or -1. */
static int slot_of(tileops_handle h, const char *name)
{
    for (int i = 0; tileops_kernel_name(h, i); i++)
        if (strcmp(tileops_kernel_name(h, i), name) == 0)
            return i;
    return -1;
}

static tileops_gemm_params gemm_call(int64_t m, int64_t n, int64_t k)
{
    tileops_gemm_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.dtype = TILEOPS_BF16;
    p.b_layout = TILEOPS_B_NK;
    p.m = m, p.n = n, p.k = k;
    p.a = (const void *)(uintptr_t)0x100000000ull, p.lda = k;
    p.b = (const void *)(uintptr_t)0x200000000ull, p.ldb = k;
    p.d = (void *)(uintptr_t)0x400000000ull, p.ldd = n;
    p.alpha = 1.0f;
    return p;
}

static uint64_t key_of(int64_t m, int64_t n, int64_t k)
{
    const int64_t dims[3] = {m, n, k};
    return tileops__tune_key(TILEOPS_OP_GEMM, TILEOPS_BF16, 1 /* nk */, 0, dims);
}

/* Dispatches p on h (dry run); returns the chosen kernel's name, *tuned whether from a table. */
static const char *choose(tileops_handle h, tileops_gemm_params p, int *tuned)
{
    ck_assert_msg(tileops_gemm(h, &p, NULL, 0, NULL) == TILEOPS_SUCCESS, "%s", tileops_last_error());
    *tuned = tileops_last_kernel_tuned(h);
    return tileops_last_kernel(h);
}

START_TEST(table_dispatch)
{
    tileops_handle h = fake_handle(90);
    ck_assert_int_eq(tileops_set_dry_run(h, 1), TILEOPS_SUCCESS);
    ck_assert_int_eq(tileops_set_tier(h, TILEOPS_TIER_SM90), TILEOPS_SUCCESS);
    int tuned;
    /* the cost model's choices, for comparison */
    char model_4096[160], model_64[160];
    snprintf(model_4096, sizeof model_4096, "%s", choose(h, gemm_call(4096, 4096, 4096), &tuned));
    ck_assert_int_eq(tuned, 0);
    snprintf(model_64, sizeof model_64, "%s", choose(h, gemm_call(64, 4096, 4096), &tuned));
    const int wg = slot_of(h, DEFAULT_WG), other = slot_of(h, WG "m128_n128_k64_s6_wg2_c1_g8_ks1");
    const int vadd = slot_of(h, "tileops_vector_add_sm90_f32_t256_v4_u4");
    ck_assert_int_ge(wg, 0);
    ck_assert_int_ge(other, 0);
    ck_assert_int_ge(vadd, 0);
    ck_assert_str_ne(model_4096, WG "m128_n128_k64_s6_wg2_c1_g8_ks1");
    /* sorted below by (key, dims): 4096^3's bucket, one exact shape in it, M = 64's bucket
     * naming another operator's kernel (stale: the cost model decides), and M = 1's bucket
     * naming a kernel of another tier */
    struct tileops_tuned_entry e[4] = {
        {key_of(4096, 4096, 4096), {0, 0, 0}, 90, other},
        {key_of(4096, 4096, 4096), {5000, 4096, 4096}, 90, wg},
        {key_of(64, 4096, 4096), {0, 0, 0}, 90, vadd},
        {key_of(1, 4096, 4096), {0, 0, 0}, 80, 0},
    };
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (e[j].key < e[i].key || (e[j].key == e[i].key && e[j].dims[0] < e[i].dims[0])) {
                struct tileops_tuned_entry t = e[i];
                e[i] = e[j];
                e[j] = t;
            }
    const int aliases[1][2] = {{90, 114}};
    const struct tileops_tuned_table tables[2] = {
        {"other", 80, 132, NULL, 0, e, 4},
        {"Fake H200", 90, 132, aliases, 1, e, 4},
    };
    /* the table by (cc, SMs), then by alias; none for an unknown GPU */
    ck_assert_ptr_eq(tileops__tuned_table_for(90, 132, tables, 2), &tables[1]);
    ck_assert_ptr_eq(tileops__tuned_table_for(90, 114, tables, 2), &tables[1]);
    ck_assert_ptr_eq(tileops__tuned_table_for(80, 132, tables, 2), &tables[0]);
    ck_assert_ptr_null(tileops__tuned_table_for(90, 78, tables, 2));
    setenv("TILEOPS_TUNED", "0", 1);
    ck_assert_ptr_null(tileops__tuned_table_for(90, 132, tables, 2));
    unsetenv("TILEOPS_TUNED");

    h->tuned = &tables[1];
    /* the bucket's kernel, for the tuned shape and for another in its bucket */
    ck_assert_str_eq(choose(h, gemm_call(4096, 4096, 4096), &tuned), WG "m128_n128_k64_s6_wg2_c1_g8_ks1");
    ck_assert_int_eq(tuned, 1);
    ck_assert_str_eq(choose(h, gemm_call(6000, 7000, 5000), &tuned), WG "m128_n128_k64_s6_wg2_c1_g8_ks1");
    ck_assert_int_eq(tuned, 1);
    /* the exact shape before its bucket */
    ck_assert_str_eq(choose(h, gemm_call(5000, 4096, 4096), &tuned), DEFAULT_WG);
    ck_assert_int_eq(tuned, 1);
    /* an entry whose kernel cannot serve the call: the cost model */
    ck_assert_str_eq(choose(h, gemm_call(64, 4096, 4096), &tuned), model_64);
    ck_assert_int_eq(tuned, 0);
    /* an entry for another tier: the cost model */
    choose(h, gemm_call(1, 4096, 4096), &tuned);
    ck_assert_int_eq(tuned, 0);
    /* no entry: the cost model */
    choose(h, gemm_call(4096, 1024, 4096), &tuned);
    ck_assert_int_eq(tuned, 0);
    /* another class (an epilogue) is another bucket */
    tileops_gemm_params bias = gemm_call(4096, 4096, 4096);
    bias.epilogue = TILEOPS_EPILOGUE_BIAS;
    bias.bias = (const void *)(uintptr_t)0x500000000ull;
    ck_assert_str_eq(choose(h, bias, &tuned), model_4096);
    ck_assert_int_eq(tuned, 0);
    /* the kernel list ends; a NULL handle names nothing and chose nothing */
    ck_assert_ptr_null(tileops_kernel_name(h, -1));
    ck_assert_ptr_null(tileops_kernel_name(h, *h->tier->count));
    ck_assert_ptr_null(tileops_kernel_name(NULL, 0));
    ck_assert_int_eq(tileops_last_kernel_tuned(NULL), 0);
    /* a pin overrides the table */
    ck_assert_int_eq(tileops_set_kernel(h, DEFAULT_WG), TILEOPS_SUCCESS);
    ck_assert_str_eq(choose(h, gemm_call(4096, 4096, 4096), &tuned), DEFAULT_WG);
    ck_assert_int_eq(tuned, 0);
    tileops_destroy(h);
}
END_TEST

/* Bins and keys: powers of two share a bin up to the next; every field separates keys. */
START_TEST(keys)
{
    ck_assert_int_eq(tileops__tune_bin(0), 0);
    ck_assert_int_eq(tileops__tune_bin(1), 1);
    ck_assert_int_eq(tileops__tune_bin(2), 2);
    ck_assert_int_eq(tileops__tune_bin(3), 2);
    ck_assert_int_eq(tileops__tune_bin(4096), 13);
    ck_assert_int_eq(tileops__tune_bin(8191), 13);
    ck_assert_int_eq(tileops__tune_bin((int64_t)1 << 50), 51);
    const int64_t a[3] = {4096, 4096, 4096}, b[3] = {8191, 5000, 4097}, c[3] = {8192, 4096, 4096};
    ck_assert(tileops__tune_key(3, 2, 1, 0, a) == tileops__tune_key(3, 2, 1, 0, b));
    ck_assert(tileops__tune_key(3, 2, 1, 0, a) != tileops__tune_key(3, 2, 1, 0, c));
    ck_assert(tileops__tune_key(3, 2, 1, 0, a) != tileops__tune_key(3, 1, 1, 0, a));
    ck_assert(tileops__tune_key(3, 2, 1, 0, a) != tileops__tune_key(3, 2, 0, 0, a));
    ck_assert(tileops__tune_key(3, 2, 1, 0, a) != tileops__tune_key(3, 2, 1, 1, a));
    ck_assert(tileops__tune_key(3, 2, 1, 0, a) != tileops__tune_key(4, 2, 1, 0, a));
    /* the call's dims and class as dispatch reads them */
    struct tileops_attention_args at;
    memset(&at, 0, sizeof at);
    at.batch = 8, at.heads_q = 16, at.seqlen_q = 2048, at.seqlen_kv = 1024, at.causal = 1;
    int64_t d[3];
    int cls;
    ck_assert_int_eq(tileops__tune_shape(TILEOPS_OP_FLASH_ATTENTION, &at, d, &cls), 0);
    ck_assert(d[0] == 2048 && d[1] == 1024 && d[2] == 128 && cls == 1);
    at.softcap = 30.0f; /* softcapped calls are buckets of their own */
    ck_assert_int_eq(tileops__tune_shape(TILEOPS_OP_FLASH_ATTENTION, &at, d, &cls), 0);
    ck_assert_int_eq(cls, 3);
    at.causal = 0;
    ck_assert_int_eq(tileops__tune_shape(TILEOPS_OP_FLASH_ATTENTION, &at, d, &cls), 0);
    ck_assert_int_eq(cls, 2);
    ck_assert_int_eq(tileops__tune_shape(99, &at, d, &cls), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tuned");
    TCase *tc = tcase_create("tables");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, bad_table_message, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, good_table);
    suite_add_tcase(s, tc);
    TCase *d = tcase_create("dispatch");
    tcase_add_test(d, table_dispatch);
    tcase_add_test(d, keys);
    suite_add_tcase(s, d);
    return run_suite(s, CK_NORMAL);
}
