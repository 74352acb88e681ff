/* tune.c: tileops-tune, the autotuner. Times every candidate kernel of every tuning case on
 * this machine's GPU and writes the winners as a tuning table, specs/tuned/<gpu>.lua, that
 * tileops-gen builds into the library's dispatch.
 *
 * The cases are the specs' tune_shapes (TUNE_SHAPES in the tuning build's generated tree),
 * each a set of tileops-bench options. It asks the release tileops-bench which kernel the cost
 * model picks for every case, and the tuning build's which of its kernels can serve each
 * (`cases FILE --list-kernels`, tables off, one child each), then times them in the tuning
 * build, eight cases a child (--measure: checked against the reference first, median of --reps
 * after L2 flushes, hopeless ones pruned after a few reps). A kernel that faults or hangs takes
 * down only its child: it is recorded as crashed, rejected in every other case of the run too
 * (it must not win a shape beside one it crashes on, and a hang costs a child's whole time
 * limit), and the next child takes what was left. Every
 * measurement goes to a CSV, so a rerun skips what is measured, and --budget stops starting
 * batches after that many seconds.
 *
 * Within a bucket (tune_key.h: op, dtype, variant, class, power-of-two bins of the sizes),
 * the kernel best over all its cases takes the bucket; a case whose own winner beats that
 * kernel by more than the noise gets an exact entry. A winner replaces the cost model's choice
 * only when it beats it by more than max(2%, 3 x noise). */
#include "tune_key.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CASES 2048
#define MAX_ROWS 262144
#define MAX_KERNELS 4096
#define LINE 8192
#define CHILD_SECONDS 40 /* a child running longer than this a case is hung: killed */

static const char usage[] =
    "usage: tileops-tune --bench TUNE_BENCH --release-bench BENCH [--shapes FILE] [--csv FILE]\n"
    "                    [--out DIR] [--reps R] [--budget SECONDS] [--hang SECONDS]\n"
    "                    [--compare TABLE] [OP...]\n"
    "  --bench B          tileops-bench built from the tuning space (make tune builds it)\n"
    "  --release-bench B  tileops-bench of the release library: the cost model's choice\n"
    "  --shapes F         the cases (default: TUNE_SHAPES beside the tuning build's tree)\n"
    "  --csv F            measurements, appended and reused (default build/tune/measurements.csv)\n"
    "  --out DIR          where the table goes (default specs/tuned)\n"
    "  --reps R           timed reps per kernel (default 50)\n"
    "  --budget S         start no case after S seconds (run again to go on)\n"
    "  --hang S           a measuring child silent for S seconds is hung: killed, and the\n"
    "                     kernel it was on rejected (default 40)\n"
    "  --compare T        after tuning, check each entry of table T (an earlier tune of this\n"
    "                     GPU) against this run: same kernel, within noise, or differs\n"
    "  OP                 operators to tune: gemm softmax flash_attention vector_add (default all)\n";

/* A tuning case: one line of TUNE_SHAPES. */
struct tcase {
    char op[32];          /* the API operator: gemm, softmax, flash_attention, vector_add */
    char opts[256];       /* its tileops-bench options */
    /* the table's view of it */
    char dtype[32], variant_axis[32], variant[32], cls[32];
    long long dims[3];
    int bin[3];
    int done;             /* every candidate measured */
    char untuned[160];    /* the cost model's choice */
    char (*cand)[160];    /* the tuning build's kernels that can serve it */
    int ncand;
};

/* One measurement (a CSV row). */
struct row {
    int c;                /* case */
    char kernel[160];
    char status[12];      /* ok, wrong, failed, crashed (took its child down), untuned (names
                           * the cost model's choice) */
    double us, noise;
};

static struct tcase cases[MAX_CASES];
static int ncases;
static struct row *rows;
static int nrows;
static FILE *csv;

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tileops-tune: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static const char *opt_value(const char *opts, const char *name, char *out, size_t len)
{
    char key[32];
    snprintf(key, sizeof key, "--%s ", name);
    const char *p = strstr(opts, key);
    if (!p)
        return NULL;
    p += strlen(key);
    size_t n = strcspn(p, " ");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
    return out;
}

/* Fills the table's view of case c from its options; -1 if they do not make one case. */
static int describe(struct tcase *c)
{
    char shape[64], v[32];
    long long d[4] = {0, 0, 0, 0};
    int nd = 0;
    if (!opt_value(c->opts, "dtype", c->dtype, sizeof c->dtype))
        snprintf(c->dtype, sizeof c->dtype, "%s", strcmp(c->op, "gemm") == 0 ||
                 strcmp(c->op, "flash_attention") == 0 ? "bf16" : "f32");
    if (opt_value(c->opts, "shape", shape, sizeof shape))
        for (char *at = shape; at && nd < 4; at = strchr(at, 'x') ? strchr(at, 'x') + 1 : NULL)
            d[nd++] = atoll(at);
    if (strcmp(c->op, "gemm") == 0) {
        if (nd != 3)
            return -1;
        snprintf(c->variant_axis, sizeof c->variant_axis, "layout");
        snprintf(c->variant, sizeof c->variant, "%s",
                 opt_value(c->opts, "layout", v, sizeof v) ? v : "nk");
        /* class 1 (epilogue) where one is asked for, as tileops__tune_shape counts them */
        snprintf(c->cls, sizeof c->cls, "%s", tileops__tune_op("gemm")->classes[
                 opt_value(c->opts, "epilogue", v, sizeof v) && strcmp(v, "none") != 0]);
        c->dims[0] = d[0], c->dims[1] = d[1], c->dims[2] = d[2];
    } else if (strcmp(c->op, "flash_attention") == 0) {
        if (nd != 4 || !opt_value(c->opts, "causal", v, sizeof v) || strcmp(v, "all") == 0)
            return -1;
        /* causal + 2 x softcap, as tileops__tune_shape counts them */
        const int on = strcmp(v, "on") == 0;
        const int cls = on + 2 * (opt_value(c->opts, "softcap", v, sizeof v) != NULL);
        snprintf(c->cls, sizeof c->cls, "%s", tileops__tune_op("flash_attention")->classes[cls]);
        snprintf(c->variant_axis, sizeof c->variant_axis, "head_dim");
        snprintf(c->variant, sizeof c->variant, "%lld", d[3]);
        c->dims[0] = c->dims[1] = d[1];
        c->dims[2] = d[0] * d[2];
    } else if (strcmp(c->op, "softmax") == 0) {
        if (nd != 2)
            return -1;
        snprintf(c->variant_axis, sizeof c->variant_axis, "mode");
        snprintf(c->variant, sizeof c->variant, "%s",
                 opt_value(c->opts, "mode", v, sizeof v) ? v : "plain");
        snprintf(c->cls, sizeof c->cls, "plain");
        c->dims[0] = d[0], c->dims[1] = d[1];
    } else if (strcmp(c->op, "vector_add") == 0) {
        if (!opt_value(c->opts, "n", v, sizeof v))
            return -1;
        snprintf(c->cls, sizeof c->cls, "plain");
        c->dims[0] = atoll(v);
    } else {
        return -1;
    }
    for (int i = 0; i < 3; i++)
        c->bin[i] = tileops__tune_bin(c->dims[i]);
    return 0;
}

/* ---- child processes ---------------------------------------------------------------------- */

/* Runs argv with stdout to out_path and stderr to err_path, killed after `seconds`, or once
 * its stdout has not grown for `idle` seconds (0: no such watch; the bench flushes a line per
 * kernel, so a hung kernel costs `idle`, not the whole batch's limit). Returns its exit
 * status, 128 + signal if killed by one, or -1 if it could not start. */
static int run_child(char *const *argv, const char *out_path, const char *err_path, int seconds,
                     int idle, int tables_off)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr))
            _exit(126);
        if (tables_off)
            setenv("TILEOPS_TUNED", "0", 1);
        alarm((unsigned)seconds); /* survives exec: a hang ends in SIGALRM */
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    off_t seen = -1;
    time_t since = time(NULL);
    for (;;) {
        const pid_t r = waitpid(pid, &st, idle ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return -1;
        if (r == 0) { /* running: has it written since the last look? */
            struct stat sb;
            const off_t size = stat(out_path, &sb) == 0 ? sb.st_size : 0;
            if (size != seen) {
                seen = size;
                since = time(NULL);
            } else if (difftime(time(NULL), since) >= idle) {
                kill(pid, SIGKILL);
            }
            const struct timespec nap = {0, 100 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The last line of a file (a child's stderr: why it failed). */
static void last_line(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[LINE];
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f))
        if (line[0] && line[0] != '\n') {
            line[strcspn(line, "\n")] = '\0';
            const size_t n = strlen(line) < len - 1 ? strlen(line) : len - 1;
            memcpy(out, line, n);
            out[n] = '\0';
        }
    if (f)
        fclose(f);
}

/* ---- the measurement file ---------------------------------------------------------------- */

/* The kernels that took a child down (rows "crashed"), few: a short list beside the rows. */
static char crashed_kernels[256][160];
static int ncrashed;

/* Did the kernel take a child down in any case (this run or one the measurements hold)? */
static int crashed(const char *kernel)
{
    for (int i = 0; i < ncrashed; i++)
        if (strcmp(crashed_kernels[i], kernel) == 0)
            return 1;
    return 0;
}

static void add_row(int c, const char *kernel, const char *status, double us, double noise,
                    int write)
{
    if (strcmp(status, "crashed") == 0 && !crashed(kernel) && ncrashed < 256)
        snprintf(crashed_kernels[ncrashed++], sizeof crashed_kernels[0], "%s", kernel);
    if (nrows == MAX_ROWS)
        die("more than %d measurements", MAX_ROWS);
    struct row *r = &rows[nrows++];
    r->c = c;
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    snprintf(r->status, sizeof r->status, "%s", status);
    r->us = us;
    r->noise = noise;
    if (write) {
        fprintf(csv, "%s,%s,%s,%s,%.3f,%.3f\n", cases[c].op, cases[c].opts, kernel, status, us,
                noise);
        fflush(csv);
    }
}

static const struct row *find_row(int c, const char *kernel, const char *status)
{
    for (int i = 0; i < nrows; i++)
        if (rows[i].c == c && strcmp(rows[i].kernel, kernel) == 0 &&
            (!status || strcmp(rows[i].status, status) == 0))
            return &rows[i];
    return NULL;
}

static int find_case(const char *op, const char *opts)
{
    for (int i = 0; i < ncases; i++)
        if (strcmp(cases[i].op, op) == 0 && strcmp(cases[i].opts, opts) == 0)
            return i;
    return -1;
}

/* Reads the earlier runs' rows of the cases in hand; a case is done when it has its untuned
 * row (written after every candidate). */
static void load_csv(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[LINE];
    while (f && fgets(line, sizeof line, f)) {
        char *field[6];
        int n = 0;
        line[strcspn(line, "\n")] = '\0';
        for (char *at = line; at && n < 6; n++) {
            field[n] = at;
            at = strchr(at, ',');
            if (at)
                *at++ = '\0';
        }
        if (n != 6 || strcmp(field[0], "op") == 0)
            continue;
        const int c = find_case(field[0], field[1]);
        if (c < 0)
            continue;
        add_row(c, field[2], field[3], atof(field[4]), atof(field[5]), 0);
        if (strcmp(field[3], "untuned") == 0) {
            cases[c].done = 1;
            snprintf(cases[c].untuned, sizeof cases[c].untuned, "%s", field[2]);
        }
    }
    if (f)
        fclose(f);
}

/* ---- one case ----------------------------------------------------------------------------- */

struct tools {
    const char *bench, *release, *tmp;
    int reps;
    int hang; /* seconds a measuring child may stay silent */
};

/* Lists, in one child of `bench`, the kernels of each case in todo[0..n): the cost model's
 * choice into untuned[] (release) or every kernel that can serve it into cand (tuning build). */
static void list_all(const struct tools *t, const char *bench, const int *todo, int n,
                     int release)
{
    char file[512], out[512], err[512], why[512], line[LINE];
    snprintf(file, sizeof file, "%s/cases.txt", t->tmp);
    snprintf(out, sizeof out, "%s/list.out", t->tmp);
    snprintf(err, sizeof err, "%s/list.err", t->tmp);
    FILE *f = fopen(file, "w");
    if (!f)
        die("cannot write %s", file);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s %s\n", cases[todo[i]].op, cases[todo[i]].opts);
    fclose(f);
    char *argv[] = {(char *)bench, "cases", file, "--list-kernels", NULL};
    const int rc = run_child(argv, out, err, CHILD_SECONDS * 4, 0, 1);
    if (rc != 0) {
        last_line(err, why, sizeof why);
        die("%s cases --list-kernels: exit %d: %s", bench, rc, why);
    }
    f = fopen(out, "r");
    int at = -1;
    while (f && fgets(line, sizeof line, f)) {
        char kind[16], name[160];
        int k;
        if (sscanf(line, "case %d", &k) == 1) {
            at = k >= 1 && k <= n ? todo[k - 1] : -1;
            continue;
        }
        if (at < 0 || sscanf(line, "%15s %159s", kind, name) != 2)
            continue;
        struct tcase *c = &cases[at];
        if (release && strcmp(kind, "auto") == 0 && !c->untuned[0]) {
            snprintf(c->untuned, sizeof c->untuned, "%s", name);
        } else if (!release && (strcmp(kind, "auto") == 0 || strcmp(kind, "candidate") == 0)) {
            int dup = 0;
            for (int i = 0; i < c->ncand; i++)
                dup |= strcmp(c->cand[i], name) == 0;
            if (dup || c->ncand == MAX_KERNELS)
                continue;
            if (c->ncand % 64 == 0) {
                char (*p)[160] = realloc(c->cand, (size_t)(c->ncand + 64) * sizeof *p);
                if (!p)
                    die("out of memory");
                c->cand = p;
            }
            snprintf(c->cand[c->ncand++], sizeof c->cand[0], "%s", name);
        }
    }
    if (f)
        fclose(f);
}

/* Puts case c's untuned choice first among its candidates: it sets the bar pruning compares
 * with. */
static void order_candidates(int c)
{
    struct tcase *tc = &cases[c];
    if (!tc->untuned[0])
        die("%s: the release library has no kernel for case '%s'", tc->op, tc->opts);
    for (int i = 0; i < tc->ncand; i++)
        if (strcmp(tc->cand[i], tc->untuned) == 0) {
            char keep[160];
            memcpy(keep, tc->cand[i], sizeof keep);
            memmove(tc->cand[1], tc->cand[0], (size_t)i * sizeof tc->cand[0]);
            memcpy(tc->cand[0], keep, sizeof keep);
            return;
        }
    die("%s: the tuning build lacks the release library's choice %s (rebuild: make tune)",
        tc->opts, tc->untuned);
}

/* Measures the cases cs[0..n) in children of the tuning build's bench (one `cases` run each
 * time), each kernel not yet measured; a child that dies leaves its first unmeasured kernel
 * crashed, and the next child takes the rest. A crashed kernel is failed in every later case
 * without running, unless it is the case's cost-model choice (which dispatch runs anyway:
 * timed, so that the case keeps its reference). */
static void measure_batch(const struct tools *t, const int *cs, int n)
{
    static char line[1 << 17];
    char file[512], out[512], err[512], reps[16];
    snprintf(file, sizeof file, "%s/measure.txt", t->tmp);
    snprintf(out, sizeof out, "%s/measure.out", t->tmp);
    snprintf(err, sizeof err, "%s/measure.err", t->tmp);
    snprintf(reps, sizeof reps, "%d", t->reps);
    for (int i = 0; i < n; i++)
        order_candidates(cs[i]);
    for (;;) {
        /* a line a case with kernels left: "OP OPTIONS --kernel K1,K2,…" */
        int lines[MAX_CASES], nl = 0;
        FILE *f = fopen(file, "w");
        if (!f)
            die("cannot write %s", file);
        for (int i = 0; i < n; i++) {
            const struct tcase *tc = &cases[cs[i]];
            int np = 0;
            for (int k = 0; k < tc->ncand; k++) {
                if (find_row(cs[i], tc->cand[k], NULL))
                    continue;
                if (crashed(tc->cand[k]) && strcmp(tc->cand[k], tc->untuned) != 0) {
                    add_row(cs[i], tc->cand[k], "failed", 0, 0, 1);
                    continue;
                }
                if (!np++)
                    fprintf(f, "%s %s --kernel ", tc->op, tc->opts);
                fprintf(f, "%s%s", np > 1 ? "," : "", tc->cand[k]);
            }
            if (np) {
                fputc('\n', f);
                lines[nl++] = cs[i];
            }
        }
        if (fclose(f) != 0)
            die("cannot write %s", file);
        if (!nl)
            break;
        char *argv[] = {(char *)t->bench, "cases", file, "--measure", "--prune", "2", "--reps",
                        reps, NULL};
        const int limit = (t->hang > CHILD_SECONDS ? t->hang : CHILD_SECONDS) * nl;
        const int rc = run_child(argv, out, err, limit, t->hang, 1);
        f = fopen(out, "r");
        int at = -1;
        while (f && fgets(line, sizeof line, f)) {
            char kind[16], name[160];
            double us = 0, noise = 0;
            int k;
            if (sscanf(line, "case %d", &k) == 1) {
                at = k >= 1 && k <= nl ? lines[k - 1] : -1;
                continue;
            }
            if (at < 0)
                continue;
            k = sscanf(line, "%15s %159s %lf %lf", kind, name, &us, &noise);
            if (k == 4 && strcmp(kind, "measured") == 0 && !find_row(at, name, NULL)) {
                add_row(at, name, "ok", us, noise, 1);
            } else if (k >= 2 && strcmp(kind, "wrong") == 0 && !find_row(at, name, NULL)) {
                fprintf(stderr, "tileops-tune: %s: %s gives a wrong result: rejected\n",
                        cases[at].opts, name);
                add_row(at, name, "wrong", 0, 0, 1);
            }
        }
        if (f)
            fclose(f);
        /* Kernels left without a row: the first took the child down (then the next child
         * takes the rest), or, when it exited cleanly, each was refused (all failed). */
        char why[512];
        last_line(err, why, sizeof why);
        int marked = 0;
        for (int i = 0; i < nl && (rc == 0 || !marked); i++) {
            const struct tcase *tc = &cases[lines[i]];
            for (int k = 0; k < tc->ncand && (rc == 0 || !marked); k++)
                if (!find_row(lines[i], tc->cand[k], NULL)) {
                    if (rc == 0) {
                        fprintf(stderr, "tileops-tune: %s: %s refused: rejected\n", tc->opts,
                                tc->cand[k]);
                        add_row(lines[i], tc->cand[k], "failed", 0, 0, 1);
                    } else {
                        fprintf(stderr, "tileops-tune: %s: %s crashed (exit %d: %s): rejected "
                                "in every case\n", tc->opts, tc->cand[k], rc, why);
                        add_row(lines[i], tc->cand[k], "crashed", 0, 0, 1);
                    }
                    marked = 1;
                }
        }
    }
    for (int i = 0; i < n; i++) {
        const int c = cs[i];
        const struct row *u = find_row(c, cases[c].untuned, "ok");
        add_row(c, cases[c].untuned, "untuned", u ? u->us : 0, u ? u->noise : 0, 1);
        cases[c].done = 1;
    }
}

/* ---- the table ---------------------------------------------------------------------------- */

/* Does a (us_a, noise_a) beat b (us_b, noise_b) by more than max(2%, 3 x noise)? */
static int beats(double us_a, double noise_a, double us_b, double noise_b)
{
    const double noise = noise_a > noise_b ? noise_a : noise_b;
    const double margin = 0.02 * us_b > 3 * noise ? 0.02 * us_b : 3 * noise;
    return us_a > 0 && us_b - us_a > margin;
}

static int same_bucket(const struct tcase *a, const struct tcase *b)
{
    return strcmp(a->op, b->op) == 0 && strcmp(a->dtype, b->dtype) == 0 &&
           strcmp(a->variant, b->variant) == 0 && strcmp(a->cls, b->cls) == 0 &&
           memcmp(a->bin, b->bin, sizeof a->bin) == 0;
}

/* The best and second-best ok rows of case c. */
static void best_two(int c, const struct row **w, const struct row **r)
{
    *w = *r = NULL;
    for (int i = 0; i < nrows; i++) {
        const struct row *x = &rows[i];
        if (x->c != c || strcmp(x->status, "ok") != 0)
            continue;
        if (!*w || x->us < (*w)->us) {
            *r = *w;
            *w = x;
        } else if (!*r || x->us < (*r)->us) {
            *r = x;
        }
    }
}

/* The kernel chosen for case c alone: its winner if that beats the untuned choice. */
static const struct row *chosen(int c)
{
    const struct row *w, *r, *u = find_row(c, cases[c].untuned, "ok");
    best_two(c, &w, &r);
    if (!u || (w && beats(w->us, w->noise, u->us, u->noise)))
        return w;
    return u;
}

static void write_entry(FILE *f, int c, const struct row *k, int exact)
{
    const struct tcase *tc = &cases[c];
    const struct tileops_tune_op *op = tileops__tune_op(tc->op);
    const struct row *w, *r, *u = find_row(c, tc->untuned, "ok");
    best_two(c, &w, &r);
    if (r && w && strcmp(k->kernel, w->kernel) != 0)
        r = w; /* the runner-up to the one chosen: the winner itself */
    fprintf(f, "entry { op = \"%s\", dtype = \"%s\", ", tc->op, tc->dtype);
    if (tc->variant_axis[0])
        fprintf(f, "variant = { %s = \"%s\" }, ", tc->variant_axis, tc->variant);
    fprintf(f, "class = \"%s\",%s\n       ", tc->cls, exact ? " exact = true," : "");
    for (int i = 0; i < op->ndims; i++)
        fprintf(f, "%s = %lld, ", op->dims[i], tc->dims[i]);
    fprintf(f, "kernel = \"%s\",\n       us = %.2f, noise = %.2f,", k->kernel, k->us, k->noise);
    if (r)
        fprintf(f, " runner_up = \"%s\", runner_up_us = %.2f,", r->kernel, r->us);
    fprintf(f, "\n       untuned = \"%s\", untuned_us = %.2f }\n", tc->untuned, u ? u->us : 0.0);
}

/* Writes the entries of operator op's measured cases; returns how many. */
static int write_op_entries(FILE *f, const char *op, int *used)
{
    int entries = 0;
    for (int c = 0; c < ncases; c++) {
        if (used[c] || strcmp(cases[c].op, op) != 0 || !cases[c].done || !chosen(c))
            continue;
        int members[MAX_CASES], nm = 0;
        for (int d = c; d < ncases; d++)
            if (!used[d] && cases[d].done && chosen(d) && same_bucket(&cases[c], &cases[d]))
                members[nm++] = d, used[d] = 1;
        /* the bucket's kernel: least total time relative to each case's best, among kernels
         * measured ok in every case; a lone case's own choice */
        const struct row *bk = chosen(c);
        if (nm > 1) {
            double best_score = 0;
            int have = 0;
            for (int i = 0; i < nrows; i++) {
                if (rows[i].c != c || strcmp(rows[i].status, "ok") != 0)
                    continue;
                double score = 0;
                int all = 1;
                for (int m = 0; m < nm && all; m++) {
                    const struct row *x = find_row(members[m], rows[i].kernel, "ok"), *w, *r;
                    best_two(members[m], &w, &r);
                    all = x && w;
                    score += all ? x->us / w->us : 0;
                }
                if (all && (!have || score < best_score)) {
                    best_score = score;
                    bk = &rows[i];
                    have = 1;
                }
            }
        }
        write_entry(f, c, bk, 0);
        entries++;
        /* an exact entry where a case's own winner beats the bucket's kernel, the case whose
         * shape the bucket's entry carries included */
        for (int m = 0; m < nm; m++) {
            const struct row *own = chosen(members[m]);
            const struct row *at = find_row(members[m], bk->kernel, "ok");
            if (strcmp(own->kernel, bk->kernel) != 0 &&
                (!at || beats(own->us, own->noise, at->us, at->noise))) {
                write_entry(f, members[m], own, 1);
                entries++;
            }
        }
    }
    return entries;
}

/* The entries of an earlier table (path) for operator op, copied as they are: an operator this
 * run measured nothing of keeps what the last tune found. Returns how many. */
static int copy_old_entries(FILE *f, const char *path, const char *op)
{
    FILE *old = fopen(path, "r");
    char line[LINE], want[64];
    int keep = 0, n = 0;
    snprintf(want, sizeof want, "entry { op = \"%.40s\",", op);
    while (old && fgets(line, sizeof line, old)) {
        if (strncmp(line, "entry {", 7) == 0) {
            keep = strncmp(line, want, strlen(want)) == 0;
            n += keep;
        } else if (strncmp(line, "gpu {", 5) == 0 || strncmp(line, "--", 2) == 0) {
            keep = 0;
        }
        if (keep)
            fputs(line, f);
    }
    if (old)
        fclose(old);
    return n;
}

/* This GPU as `bench device` describes it: "gpu cc=… sms=… … name=NAME". */
struct gpu {
    int cc, sms, l2, clock, bus, driver, runtime;
    char name[128];
};

static void query_gpu(const struct tools *t, struct gpu *g)
{
    char out[512], err[512], why[512], line[LINE];
    char *argv[] = {(char *)t->bench, "device", NULL};
    snprintf(out, sizeof out, "%s/device.out", t->tmp);
    snprintf(err, sizeof err, "%s/device.err", t->tmp);
    const int rc = run_child(argv, out, err, CHILD_SECONDS, 0, 0);
    FILE *f = fopen(out, "r");
    const char *name = NULL;
    memset(g, 0, sizeof *g);
    if (rc == 0 && f && fgets(line, sizeof line, f) &&
        sscanf(line, "gpu cc=%d sms=%d l2_bytes=%d memory_clock_khz=%d memory_bus_bits=%d "
               "driver=%d runtime=%d", &g->cc, &g->sms, &g->l2, &g->clock, &g->bus, &g->driver,
               &g->runtime) == 7 && (name = strstr(line, " name=")) != NULL) {
        snprintf(g->name, sizeof g->name, "%.*s", (int)strcspn(name + 6, "\n"), name + 6);
    }
    if (f)
        fclose(f);
    if (!g->name[0] || !g->cc || !g->sms) {
        last_line(err, why, sizeof why);
        die("%s device: exit %d: %s", t->bench, rc, why);
    }
}

/* Writes the table; returns its path (static). */
static const char *write_table(const struct tools *t, const char *dir)
{
    struct gpu gp;
    query_gpu(t, &gp);
    static char path[512];
    char file[64] = "", tmp[520], commit[64] = "unknown", date[16];
    for (size_t i = 0; gp.name[i] && i + 1 < sizeof file; i++) {
        const char ch = gp.name[i];
        file[i] = (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a')
                  : ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) ? ch : '_';
    }
    snprintf(path, sizeof path, "%s/%s.lua", dir, file);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    /* TILEOPS_COMMIT names the commit where the tree has no .git (a copied checkout) */
    FILE *g = getenv("TILEOPS_COMMIT") ? NULL : popen("git rev-parse --short HEAD 2>/dev/null", "r");
    if (g && fgets(commit, sizeof commit, g))
        commit[strcspn(commit, "\n")] = '\0';
    if (g)
        pclose(g);
    if (getenv("TILEOPS_COMMIT"))
        snprintf(commit, sizeof commit, "%.60s", getenv("TILEOPS_COMMIT"));
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    mkdir(dir, 0777);
    FILE *f = fopen(tmp, "w");
    if (!f)
        die("cannot write %s: %s", tmp, strerror(errno));
    fprintf(f, "-- The tuning table of the %s, written by tileops-tune (make tune): for each tuned\n"
               "-- bucket of calls (or exact shape), the kernel that was fastest on this GPU.\n"
               "-- us: its median time; noise: half the interquartile range; runner_up and untuned\n"
               "-- (the cost model's choice) with their times. Do not edit: re-tune.\n",
            gp.name);
    fprintf(f, "gpu { name = \"%s\", cc = %d, sms = %d,\n      l2_bytes = %d, "
               "memory_clock_khz = %d, memory_bus_bits = %d, driver = %d, runtime = %d,\n"
               "      commit = \"%s\", date = \"%s\" }\n",
            gp.name, gp.cc, gp.sms, gp.l2, gp.clock, gp.bus, gp.driver, gp.runtime, commit, date);
    int *used = calloc((size_t)ncases, sizeof *used), entries = 0;
    /* by operator, in TUNE_SHAPES' order; one with no case measured keeps the old entries */
    for (int c = 0; c < ncases; c++) {
        int first = 1, measured = 0;
        for (int d = 0; d < c && first; d++)
            first = strcmp(cases[d].op, cases[c].op) != 0;
        if (!first)
            continue;
        for (int d = c; d < ncases && !measured; d++)
            measured = strcmp(cases[d].op, cases[c].op) == 0 && cases[d].done > 0;
        entries += measured ? write_op_entries(f, cases[c].op, used)
                            : copy_old_entries(f, path, cases[c].op);
    }
    free(used);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    fprintf(stderr, "tileops-tune: wrote %s (%d entries)\n", path, entries);
    return path;
}

/* One entry of a table's text, as tileops-tune writes them. */
struct entry_text {
    char op[32], dtype[32], var[32], cls[32], kernel[160];
    long long dims[3];
    int exact;
};

/* Parses the entry at e (an "entry {" of a table's text); returns where the next search
 * starts, or NULL at the end. */
static const char *parse_entry(const char *e, struct entry_text *x)
{
    memset(x, 0, sizeof *x);
    const char *end = strchr(e, '}'), *v = strstr(e, "variant = {");
    if (end && v && v < end)
        end = strchr(end + 1, '}'); /* the variant table closes first */
    if (!end)
        return NULL;
    char buf[2048], vax[32];
    snprintf(buf, sizeof buf, "%.*s", (int)(end - e + 1 < 2047 ? end - e + 1 : 2047), e);
    const char *at;
    if ((at = strstr(buf, "op = \"")))
        sscanf(at, "op = \"%31[^\"]\"", x->op);
    if ((at = strstr(buf, "dtype = \"")))
        sscanf(at, "dtype = \"%31[^\"]\"", x->dtype);
    if ((at = strstr(buf, "variant = { ")))
        sscanf(at, "variant = { %31s = \"%31[^\"]\"", vax, x->var);
    if ((at = strstr(buf, "class = \"")))
        sscanf(at, "class = \"%31[^\"]\"", x->cls);
    x->exact = strstr(buf, "exact = true") != NULL;
    if ((at = strstr(buf, "kernel = \"")))
        sscanf(at, "kernel = \"%159[^\"]\"", x->kernel);
    const struct tileops_tune_op *o = tileops__tune_op(x->op);
    for (int i = 0; o && i < o->ndims; i++) {
        char key[40];
        snprintf(key, sizeof key, " %s = ", o->dims[i]);
        if ((at = strstr(buf, key)))
            x->dims[i] = atoll(at + strlen(key));
    }
    return end;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    if (!p || fread(p, 1, (size_t)(n > 0 ? n : 0), f) != (size_t)(n > 0 ? n : 0))
        die("cannot read %s", path);
    fclose(f);
    return p;
}

/* --compare: each entry of an earlier table (its text, old) against the table this run wrote
 * (new_path): the "same" kernel; "within noise" (this run's kernel does not beat the old one,
 * as measured now, by the margin); or "differs". Returns how many differ. */
static int compare_tables(const char *old_name, const char *old, const char *new_path)
{
    char *now = read_text(new_path);
    int same = 0, noise = 0, differ = 0, unmatched = 0;
    struct entry_text a, b;
    for (const char *e = strstr(old, "entry {"); e; e = strstr(e + 1, "entry {")) {
        if (!parse_entry(e, &a))
            break;
        const char *hit = NULL;
        for (const char *f = strstr(now, "entry {"); f && !hit; f = strstr(f + 1, "entry {"))
            if (parse_entry(f, &b) && strcmp(a.op, b.op) == 0 && strcmp(a.dtype, b.dtype) == 0 &&
                strcmp(a.var, b.var) == 0 && strcmp(a.cls, b.cls) == 0 &&
                a.exact == b.exact && memcmp(a.dims, b.dims, sizeof a.dims) == 0)
                hit = f;
        int c = -1;
        for (int k = 0; k < ncases && c < 0; k++)
            if (cases[k].done > 0 && strcmp(cases[k].op, a.op) == 0 &&
                strcmp(cases[k].dtype, a.dtype) == 0 && strcmp(cases[k].variant, a.var) == 0 &&
                strcmp(cases[k].cls, a.cls) == 0 && memcmp(cases[k].dims, a.dims, sizeof a.dims) == 0)
                c = k;
        if (!hit || c < 0) {
            unmatched++;
            continue;
        }
        const struct row *was = find_row(c, a.kernel, "ok"), *is = find_row(c, b.kernel, "ok");
        const char *verdict = strcmp(a.kernel, b.kernel) == 0 ? "same"
                              : was && is && !beats(is->us, is->noise, was->us, was->noise)
                                  ? "within noise"
                                  : "differs";
        same += verdict[0] == 's';
        noise += verdict[0] == 'w';
        differ += verdict[0] == 'd';
        if (verdict[0] != 's')
            printf("%s: %s %s: was %s (%.2f us now), now %s (%.2f us)\n", verdict, a.op,
                   cases[c].opts, a.kernel, was ? was->us : 0.0, b.kernel, is ? is->us : 0.0);
    }
    printf("compare %s: %d same, %d within noise, %d differ, %d not in this run's table\n",
           old_name, same, noise, differ, unmatched);
    free(now);
    return differ;
}

/* ---- main --------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *bench = NULL, *release = NULL, *shapes = NULL, *csv_path =
        "build/tune/measurements.csv", *out = "specs/tuned";
    int reps = 50, hang = CHILD_SECONDS;
    double budget = 0;
    const char *compare = NULL;
    const char *ops[8];
    int nops = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int has = i + 1 < argc;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--bench") == 0 && has) {
            bench = argv[++i];
        } else if (strcmp(a, "--release-bench") == 0 && has) {
            release = argv[++i];
        } else if (strcmp(a, "--shapes") == 0 && has) {
            shapes = argv[++i];
        } else if (strcmp(a, "--csv") == 0 && has) {
            csv_path = argv[++i];
        } else if (strcmp(a, "--out") == 0 && has) {
            out = argv[++i];
        } else if (strcmp(a, "--reps") == 0 && has) {
            reps = atoi(argv[++i]);
        } else if (strcmp(a, "--compare") == 0 && has) {
            compare = argv[++i];
        } else if (strcmp(a, "--budget") == 0 && has) {
            budget = atof(argv[++i]);
        } else if (strcmp(a, "--hang") == 0 && has) {
            hang = atoi(argv[++i]);
        } else if (a[0] != '-' && tileops__tune_op(a) && nops < 8) {
            ops[nops++] = a;
        } else {
            fprintf(stderr, "tileops-tune: bad argument '%s'\n%s", a, usage);
            return 2;
        }
    }
    if (!bench || !release || reps < 50 || reps > 10000 || budget < 0 || hang < 1 ||
        hang > 3600) {
        fprintf(stderr, "tileops-tune: --bench and --release-bench are needed; --reps is 50 to "
                "10000, --budget >= 0, --hang 1 to 3600\n%s", usage);
        return 2;
    }
    char shapes_buf[512];
    if (!shapes) {
        /* TUNE_BENCH is <build>/tileops-bench; its tree is <build>/generated */
        snprintf(shapes_buf, sizeof shapes_buf, "%.*sgenerated/TUNE_SHAPES",
                 (int)(strrchr(bench, '/') ? strrchr(bench, '/') - bench + 1 : 0), bench);
        shapes = shapes_buf;
    }
    FILE *f = fopen(shapes, "r");
    if (!f)
        die("cannot read %s: %s", shapes, strerror(errno));
    char line[LINE];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        if (ncases == MAX_CASES)
            die("%s: more than %d cases", shapes, MAX_CASES);
        struct tcase *c = &cases[ncases];
        memset(c, 0, sizeof *c);
        const size_t n = strcspn(line, " ");
        snprintf(c->op, sizeof c->op, "%.*s", (int)n, line);
        snprintf(c->opts, sizeof c->opts, "%s", line + n + (line[n] ? 1 : 0));
        if (describe(c) != 0)
            die("%s: '%s' is not one case of %s (a shape, and for attention one causal value)",
                shapes, c->opts, c->op);
        ncases++;
    }
    fclose(f);
    rows = calloc(MAX_ROWS, sizeof *rows);
    if (!rows)
        die("out of memory");
    load_csv(csv_path);
    struct stat st;
    const int fresh = stat(csv_path, &st) != 0 || st.st_size == 0;
    if (!(csv = fopen(csv_path, "a")))
        die("cannot append to %s: %s", csv_path, strerror(errno));
    if (fresh)
        fprintf(csv, "op,case,kernel,status,median_us,noise_us\n");
    char tmp[] = "/tmp/tileops-tune.XXXXXX";
    if (!mkdtemp(tmp))
        die("mkdtemp: %s", strerror(errno));
    const struct tools t = {bench, release, tmp, reps, hang};

    int todo = 0, did = 0;
    for (int c = 0; c < ncases; c++) {
        int want = !nops;
        for (int o = 0; o < nops; o++)
            want |= strcmp(ops[o], cases[c].op) == 0;
        if (!want)
            cases[c].done = cases[c].done ? cases[c].done : -1; /* not asked for: skipped */
        todo += want && !cases[c].done;
    }
    /* every case left, listed in two children (the release build's choice, the tuning
     * build's candidates) rather than two a case */
    int *left = calloc((size_t)ncases + 1, sizeof *left), nleft = 0;
    if (!left)
        die("out of memory");
    for (int c = 0; c < ncases; c++)
        if (!cases[c].done)
            left[nleft++] = c;
    const time_t start = time(NULL);
    if (nleft) {
        fprintf(stderr, "tileops-tune: listing the kernels of %d cases\n", nleft);
        list_all(&t, release, left, nleft, 1);
        list_all(&t, bench, left, nleft, 0);
    }
    free(left);
    /* batches of cases a child each, so that --budget is checked between them */
    enum { BATCH = 8 };
    for (int c = 0; c < ncases;) {
        int batch[BATCH], nb = 0;
        for (; c < ncases && nb < BATCH; c++)
            if (!cases[c].done)
                batch[nb++] = c;
        if (!nb)
            break;
        const double spent = difftime(time(NULL), start);
        if (budget > 0 && spent > budget) {
            fprintf(stderr, "tileops-tune: budget of %.0f s spent; %d cases left: run again to "
                    "go on\n", budget, todo - did);
            break;
        }
        fprintf(stderr, "tileops-tune: cases %d to %d of %d: %s %s …", did + 1, did + nb, todo,
                cases[batch[0]].op, cases[batch[0]].opts);
        if (did)
            fprintf(stderr, " (ETA %.0f s)", spent / did * (todo - did));
        fputc('\n', stderr);
        measure_batch(&t, batch, nb);
        did += nb;
    }
    fclose(csv);
    for (int c = 0; c < ncases; c++)
        if (cases[c].done < 0)
            cases[c].done = 0;
    /* read before the table is written: it may be the one compared with */
    char *old_table = compare ? read_text(compare) : NULL;
    const char *written = write_table(&t, out);
    if (compare)
        compare_tables(compare, old_table, written);
    free(old_table);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "tileops-tune: could not remove %s\n", tmp);
    return did < todo ? 3 : 0;
}
