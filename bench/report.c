/* report.c: the aligned stdout table and the CSV file (see report.h). */
#include "report.h"

#include "bench.h"

#include <errno.h>
#include <string.h>

/* Prints one table line: cells separated by two spaces, padded to their column widths. */
static void table_line(const struct report *r, const char *const *cells)
{
    for (int i = 0; i < r->ncols; i++) {
        const struct report_col *c = &r->cols[i];
        int last = i == r->ncols - 1;
        if (c->right)
            printf("%*s", c->width, cells[i]);
        else if (last)
            printf("%s", cells[i]); /* no trailing blanks */
        else
            printf("%-*s", c->width, cells[i]);
        fputs(last ? "\n" : "  ", stdout);
    }
    /* Rows appear as they are measured even when stdout is a pipe (| tee). */
    fflush(stdout);
}

/* Writes one CSV field, quoted (RFC 4180) only if it holds a comma, quote or newline. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Writes one CSV record and flushes it, so that a crash later keeps the rows so far. */
static int csv_line(struct report *r, const char *const *cells)
{
    for (int i = 0; i < r->ncols; i++) {
        if (i)
            fputc(',', r->csv);
        csv_field(r->csv, cells[i]);
    }
    fputc('\n', r->csv);
    if (fflush(r->csv) != 0 || ferror(r->csv)) {
        bench_error("writing %s: %s", r->csv_path, strerror(errno));
        return -1;
    }
    return 0;
}

int report_open(struct report *r, const struct report_col *cols, int ncols,
                const char *csv_path)
{
    const char *names[REPORT_MAX_COLS];
    r->cols = cols;
    r->ncols = ncols;
    r->csv = NULL;
    r->csv_path = csv_path;
    if (ncols < 1 || ncols > REPORT_MAX_COLS) {
        bench_error("report_open: %d columns (must be 1..%d)", ncols, REPORT_MAX_COLS);
        return -1;
    }
    for (int i = 0; i < ncols; i++)
        names[i] = cols[i].name;
    if (csv_path) {
        r->csv = fopen(csv_path, "w");
        if (!r->csv) {
            bench_error("cannot create %s: %s", csv_path, strerror(errno));
            return -1;
        }
        if (csv_line(r, names) != 0) {
            report_close(r);
            return -1;
        }
    }
    table_line(r, names);
    return 0;
}

int report_row(struct report *r, const char *const *vals)
{
    table_line(r, vals);
    return r->csv ? csv_line(r, vals) : 0;
}

int report_close(struct report *r)
{
    if (!r->csv)
        return 0;
    int rc = fclose(r->csv);
    r->csv = NULL;
    if (rc != 0) {
        bench_error("closing %s: %s", r->csv_path, strerror(errno));
        return -1;
    }
    return 0;
}
