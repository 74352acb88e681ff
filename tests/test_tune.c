/* test_tune.c: tileops-tune's own logic, on the CPU, with a stand-in for tileops-bench (a
 * shell script that answers cases --list-kernels, --measure and device as the real one does): a
 * kernel with a wrong result is rejected, one that crashes its process is rejected (in every
 * case: it is not run again, also after a resume) and the rest of its case still measured, a
 * winner replaces the cost model's choice only beyond the noise margin, shapes sharing a
 * bucket get one entry (and an exact one where a shape's own winner is clearly better), and a
 * rerun resumes from the measurements instead of re-timing.
 * The real bench's --measure path (reference check, timing) runs on the GPU in make tune; its
 * new options' refusals, and the tuner's, run here. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "util_check.h"
#include "util_host.h"

#define WORK "build/tests/tune"

static char tune_cmd[512] = "build/tileops-tune"; /* B/tileops-tune, from argv[0] */
static char bench_cmd[512] = "build/tileops-bench";

/* The stand-in: times per kernel by M (the first size of --shape). k_fault kills its process,
 * k_wrong disagrees with the reference, k_hang (listed when EXTRA_KERNELS names it) never
 * returns. Each measure run appends a line to runs.log. */
static const char fake_bench[] =
    "#!/bin/sh\n"
    "dir=$(dirname \"$0\")\n"
    "if [ \"$1\" = device ]; then\n"
    "  echo 'gpu cc=90 sms=132 l2_bytes=62914560 memory_clock_khz=3201000 memory_bus_bits=6144 "
    "driver=13000 runtime=13000 name=Fake GPU 9'; exit 0; fi\n"
    "[ \"$1\" = cases ] || exit 2\n"
    "file=$2; mode=list; [ \"$3\" = --measure ] && mode=measure\n"
    "n=0\n"
    "while read -r line; do n=$((n + 1)); echo \"case $n\"\n"
    "  set -- $line; shape=; kernels=\n"
    "  while [ $# -gt 0 ]; do case $1 in --shape) shape=$2; shift;; --kernel) kernels=$2; shift;; "
    "esac; shift; done\n"
    "  m=${shape%%x*}\n"
    "  if [ $mode = list ]; then echo 'auto k_default'\n"
    "    if [ \"$0\" != \"$dir/release-bench\" ]; then\n"
    "      for k in k_default k_fast k_wrong k_fault k_close k_slow $EXTRA_KERNELS; do "
    "echo \"candidate $k\"; done; fi\n"
    "    continue; fi\n"
    "  echo \"$shape $kernels\" >> \"$dir/runs.log\"\n"
    "  for k in $(echo \"$kernels\" | tr , ' '); do\n"
    "    case $k in\n"
    "      k_fault) kill -SEGV $$;;\n"
    "      k_hang) exec sleep 60;;\n"
    "      k_wrong) echo \"wrong $k\";;\n"
    "      k_default) echo \"measured $k 100.0 0.5\";;\n"
    "      k_fast) if [ \"$m\" = 4096 ] || [ \"$m\" = 10000 ]; then echo \"measured $k 80.0 0.5\"; "
    "else echo \"measured $k 120.0 0.5\"; fi;;\n"
    "      k_close) if [ \"$m\" = 6000 ]; then echo \"measured $k 70.0 0.5\"; "
    "elif [ \"$m\" = 12000 ]; then echo \"measured $k 60.0 0.5\"; "
    "else echo \"measured $k 99.0 0.5\"; fi;;\n"
    "      k_slow) echo \"measured $k 150.0 0.5\";;\n"
    "    esac\n"
    "  done\n"
    "done < \"$file\"\n";

static void write_file(const char *path, const char *text, int mode)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    chmod(path, (mode_t)mode);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        n++;
    return n;
}

/* The table's entry that holds `shape_fields`, as one string (up to its closing brace). */
static char *entry_with(const char *table, const char *shape_fields)
{
    const char *at = strstr(table, shape_fields);
    ck_assert_msg(at != NULL, "no entry with %s in:\n%s", shape_fields, table);
    const char *start = at;
    while (start > table && strncmp(start, "entry {", 7) != 0)
        start--;
    const char *end = strchr(at, '}');
    ck_assert_ptr_nonnull(end);
    char *e = calloc(1, (size_t)(end - start) + 2);
    memcpy(e, start, (size_t)(end - start) + 1);
    return e;
}

/* A fresh work folder `dir`: the stand-in as the tuning and the release bench, and the cases
 * `shapes` as the tuning build's TUNE_SHAPES. */
static void stand_in_tree(const char *dir, const char *shapes)
{
    char path[256];
    mkdir("build/tests", 0777);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/generated", dir);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/tileops-bench", dir);
    write_file(path, fake_bench, 0755);
    snprintf(path, sizeof path, "%s/release-bench", dir);
    write_file(path, fake_bench, 0755);
    snprintf(path, sizeof path, "%s/generated/TUNE_SHAPES", dir);
    write_file(path, shapes, 0644);
}

START_TEST(tune_with_stand_in)
{
    /* 4096^3 alone in its bucket; 5000 and 6000 share one (bins of 4096..8191), 10000 and
     * 12000 another */
    stand_in_tree(WORK,
                  "# cases\n"
                  "gemm --shape 4096x1024x1024 --dtype bf16 --layout nk --epilogue none\n"
                  "gemm --shape 128x4096x4096 --dtype bf16 --layout nk --epilogue none\n"
                  "gemm --shape 5000x4096x4096 --dtype bf16 --layout nk --epilogue none\n"
                  "gemm --shape 6000x4096x4096 --dtype bf16 --layout nk --epilogue none\n"
                  "gemm --shape 10000x4096x4096 --dtype bf16 --layout nk --epilogue none\n"
                  "gemm --shape 12000x4096x4096 --dtype bf16 --layout nk --epilogue none\n"
                  "vector_add --dtype f32 --n 4096\n");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --bench " WORK "/tileops-bench --release-bench " WORK
             "/release-bench --csv " WORK "/m.csv --out " WORK "/tuned gemm 2> " WORK "/tune.err",
             tune_cmd);
    ck_assert_int_eq(system(cmd), 0);
    char *csv = read_file(WORK "/m.csv", NULL);
    char *table = read_file(WORK "/tuned/fake_gpu_9.lua", NULL);
    char *runs = read_file(WORK "/runs.log", NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(table != NULL, "no table; tileops-tune said:\n%s",
                  read_file(WORK "/tune.err", NULL));
    ck_assert_ptr_nonnull(runs);
    /* each case: the wrong and the crashing kernel rejected, the others measured; k_fault
     * crashed once and was not run again */
    ck_assert_int_eq(count(csv, ",k_wrong,wrong,"), 6);
    ck_assert_int_eq(count(csv, ",k_fault,crashed,"), 1);
    ck_assert_int_eq(count(csv, ",k_fault,failed,"), 5);
    ck_assert_int_eq(count(csv, ",k_slow,ok,"), 6);
    ck_assert_int_eq(count(csv, ",k_default,untuned,"), 6);
    /* one child for the six cases, killed by k_fault in the first; the next takes what was
     * left, without k_fault: 7 case runs, k_fault in the first only */
    ck_assert_int_eq(count(runs, "\n"), 7);
    ck_assert_int_eq(count(runs, "k_fault"), 1);
    /* provenance */
    ck_assert_msg(strstr(table, "gpu { name = \"Fake GPU 9\", cc = 90, sms = 132,") != NULL, "%s",
                  table);
    /* 4096 rows: k_fast (80 us) beats the cost model's 100 by more than 2% */
    char *e = entry_with(table, "m = 4096, n = 1024, k = 1024");
    ck_assert_msg(strstr(e, "kernel = \"k_fast\"") && strstr(e, "untuned = \"k_default\"") &&
                  strstr(e, "untuned_us = 100.00") && strstr(e, "runner_up = \"k_close\""), "%s", e);
    free(e);
    /* 128 rows: k_close (99) is within 2% of the cost model's 100: the cost model's stays */
    e = entry_with(table, "m = 128, n = 4096, k = 4096");
    ck_assert_msg(strstr(e, "kernel = \"k_default\"") && strstr(e, "runner_up = \"k_close\""), "%s", e);
    free(e);
    /* 5000 and 6000 share a bucket: k_close is best over both (99 and 70 against 99 and 70)
     * and takes it; 6000 needs no exact entry of its own */
    e = entry_with(table, "m = 5000, n = 4096, k = 4096");
    ck_assert_msg(strstr(e, "kernel = \"k_close\"") && !strstr(e, "exact"), "%s", e);
    free(e);
    ck_assert_msg(!strstr(table, "m = 6000"), "%s", table);
    /* 10000 and 12000: k_close is best over both (99/80 + 60/60 against k_fast's 80/80 +
     * 120/60) and takes the bucket, whose entry carries 10000's shape; 10000's own winner,
     * k_fast, beats k_close there and gets an exact entry */
    e = entry_with(table, "m = 10000, n = 4096, k = 4096");
    ck_assert_msg(strstr(e, "kernel = \"k_close\"") && !strstr(e, "exact"), "%s", e);
    free(e);
    e = entry_with(strstr(table, "exact = true"), "m = 10000, n = 4096, k = 4096");
    ck_assert_msg(strstr(e, "kernel = \"k_fast\""), "%s", e);
    free(e);
    ck_assert_msg(!strstr(table, "m = 12000"), "%s", table);
    ck_assert_int_eq(count(table, "entry {"), 5);

    /* --compare: the same run against an edited copy of its table: one entry kept, one
     * within noise (k_close at 128 rows: 99 us against 100), one that differs (k_slow) */
    char *old_table = strdup(table), *at;
    ck_assert_ptr_nonnull(at = strstr(old_table, "kernel = \"k_fast\""));
    memcpy(at, "kernel = \"k_slow\"", 17);
    ck_assert_ptr_nonnull(at = strstr(strstr(old_table, "m = 128,"), "kernel = \"k_default\""));
    memmove(at + 18, at + 20, strlen(at + 20) + 1);
    memcpy(at, "kernel = \"k_close\"", 18);
    write_file(WORK "/old.lua", old_table, 0644);
    free(old_table);
    char cmp[1200];
    snprintf(cmp, sizeof cmp, "%s --bench " WORK "/tileops-bench --release-bench " WORK
             "/release-bench --csv " WORK "/m.csv --out " WORK "/tuned2 --compare " WORK
             "/old.lua gemm > " WORK "/compare.out 2> " WORK "/tune.err", tune_cmd);
    ck_assert_int_eq(system(cmp), 0);
    char *verdicts = read_file(WORK "/compare.out", NULL);
    ck_assert_ptr_nonnull(verdicts);
    ck_assert_msg(strstr(verdicts, "3 same, 1 within noise, 1 differ, 0 not in"), "%s",
                  verdicts);
    ck_assert_msg(strstr(verdicts, "differs: gemm --shape 4096x1024x1024"), "%s", verdicts);
    free(verdicts);

    /* a rerun measures nothing again and writes the same entries; an operator it measured
     * nothing of (vector_add: not asked for) keeps the earlier table's entries */
    const char *kept = "entry { op = \"vector_add\", dtype = \"f32\", class = \"plain\",\n"
                       "       n = 4096, kernel = \"k_add\",\n       us = 1.00, noise = 0.01,\n"
                       "       untuned = \"k_add\", untuned_us = 1.00 }\n";
    FILE *tf = fopen(WORK "/tuned/fake_gpu_9.lua", "a");
    ck_assert_ptr_nonnull(tf);
    fputs(kept, tf);
    fclose(tf);
    ck_assert_int_eq(system(cmd), 0);
    char *runs2 = read_file(WORK "/runs.log", NULL);
    char *table2 = read_file(WORK "/tuned/fake_gpu_9.lua", NULL);
    ck_assert_str_eq(runs, runs2);
    char *gemm_part = strdup(strstr(table2, "entry {"));
    ck_assert_ptr_nonnull(strstr(gemm_part, kept));
    *strstr(gemm_part, kept) = '\0';
    ck_assert_str_eq(strstr(table, "entry {"), gemm_part);
    free(gemm_part);

    /* a rerun with a new case: the crash the measurements hold keeps k_fault from it */
    FILE *sf = fopen(WORK "/generated/TUNE_SHAPES", "a");
    ck_assert_ptr_nonnull(sf);
    fputs("gemm --shape 256x4096x4096 --dtype bf16 --layout nk --epilogue none\n", sf);
    fclose(sf);
    ck_assert_int_eq(system(cmd), 0);
    char *runs3 = read_file(WORK "/runs.log", NULL), *csv3 = read_file(WORK "/m.csv", NULL);
    ck_assert_ptr_nonnull(runs3);
    ck_assert_ptr_nonnull(csv3);
    ck_assert_int_eq(count(runs3, "\n"), 8);
    ck_assert_msg(strstr(runs3, "256x4096x4096 k_default,") && count(runs3, "k_fault") == 1,
                  "%s", runs3);
    ck_assert_int_eq(count(csv3, ",k_fault,failed,"), 6);
    ck_assert_int_eq(count(csv3, ",k_slow,ok,"), 7);
    free(runs3);
    free(csv3);
    free(csv);
    free(table);
    free(table2);
    free(runs);
    free(runs2);
}
END_TEST

/* A kernel that hangs: its child is killed once silent for --hang seconds (not after the
 * batch's whole limit), the kernel is rejected in both cases and run in the first only, and the
 * rest of each case is measured. */
START_TEST(hung_kernel_killed)
{
    stand_in_tree(WORK "h",
                  "gemm --shape 4096x1024x1024 --dtype bf16 --layout nk --epilogue none\n"
                  "gemm --shape 128x4096x4096 --dtype bf16 --layout nk --epilogue none\n");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "EXTRA_KERNELS=k_hang %s --bench " WORK "h/tileops-bench "
             "--release-bench " WORK "h/release-bench --csv " WORK "h/m.csv --out " WORK
             "h/tuned --hang 2 gemm 2> " WORK "h/tune.err", tune_cmd);
    const time_t start = time(NULL);
    ck_assert_int_eq(system(cmd), 0);
    const double took = difftime(time(NULL), start);
    ck_assert_msg(took < 20, "%.0f s: the hung child was not killed when silent (the batch's "
                  "limit is 80 s)", took);
    char *csv = read_file(WORK "h/m.csv", NULL), *runs = read_file(WORK "h/runs.log", NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_ptr_nonnull(runs);
    ck_assert_int_eq(count(csv, ",k_hang,crashed,"), 1);
    ck_assert_int_eq(count(csv, ",k_hang,failed,"), 1);
    ck_assert_int_eq(count(csv, ",k_slow,ok,"), 2);
    ck_assert_int_eq(count(csv, ",k_default,untuned,"), 2);
    /* two children ran case 1 (k_fault took the first down, k_hang the second after k_close
     * and k_slow), a third case 2 without either */
    ck_assert_int_eq(count(runs, "4096x1024x1024 "), 2);
    ck_assert_int_eq(count(runs, "\n"), 3);
    const char *second = strstr(runs, "128x4096x4096 ");
    ck_assert_msg(second && !strstr(second, "k_hang") && !strstr(second, "k_fault"), "%s", runs);
    free(csv);
    free(runs);
}
END_TEST

/* The options of tileops-bench the tuner, decode and varlen added, and tileops-tune's own,
 * refuse bad input with exit status 2 and a message before touching a GPU. */
START_TEST(command_lines_refused)
{
    static const struct {
        int bench;          /* tileops-bench, else tileops-tune */
        const char *args;
        const char *message;
    } bad[] = {
        {1, "gemm --prune 2", "--prune goes with --measure"},
        {1, "gemm --measure --prune 1", "--prune: '1' is not a factor above 1"},
        {1, "gemm --measure --list-kernels", "--list-kernels and --measure exclude each other"},
        {1, "gemm --kernel a,,b", "--kernel: an empty kernel name"},
        {1, "cases", "cases needs a file of cases"},
        {1, "cases FILE --prune x", "--prune: 'x' is not a factor above 1"},
        {1, "decode --splits 0", "--splits: '0' is not an integer in 1..128"},
        {1, "decode --splits 129", "--splits: '129' is not an integer in 1..128"},
        {1, "gemm --splits 4", "--splits is for decode"},
        {1, "decode --shape 1x2x3", "--shape: decode takes BxC (batch x cache length)"},
        {1, "gemm --seqlens 8", "--seqlens is for attention"},
        {1, "attention --seqlens 8,,9", "--seqlens: '8,,9' is not a list"},
        {1, "attention --seqlens 0", "--seqlens: '0' is not a list"},
        {1, "attention --seqlens 2000000000,200000000", "at most 2147483391 in all"},
        {0, "", "--bench and --release-bench are needed"},
        {0, "--bench b --release-bench r --reps 10", "--reps is 50 to 10000"},
        {0, "--bench b --release-bench r conv", "bad argument 'conv'"},
        {0, "--bench b --release-bench r --hang 0", "--hang 1 to 3600"},
    };
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "%s %s > /dev/null 2> " WORK "/cli.err",
                 bad[i].bench ? bench_cmd : tune_cmd, bad[i].args);
        const int st = system(cmd);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: status %d", cmd, st);
        char *err = read_file(WORK "/cli.err", NULL);
        ck_assert_ptr_nonnull(err);
        ck_assert_msg(strstr(err, bad[i].message) != NULL, "%s said:\n%s", cmd, err);
        free(err);
    }
}
END_TEST

int main(int argc, char **argv)
{
    sibling_path(argc > 0 ? argv[0] : NULL, "tileops-tune", "build/tileops-tune", tune_cmd,
                 sizeof tune_cmd);
    sibling_path(argc > 0 ? argv[0] : NULL, "tileops-bench", "build/tileops-bench", bench_cmd,
                 sizeof bench_cmd);
    Suite *s = suite_create("tune");
    TCase *tc = tcase_create("tuner");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, tune_with_stand_in);
    tcase_add_test(tc, command_lines_refused);
    tcase_add_test(tc, hung_kernel_killed);
    suite_add_tcase(s, tc);
    return run_suite(s, CK_NORMAL);
}
