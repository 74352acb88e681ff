/* report.h: results output: an aligned plain-text table on stdout and, optionally, the same
 * columns as CSV. Operators describe their columns and pass each row as strings. */
#ifndef TILEOPS_BENCH_REPORT_H
#define TILEOPS_BENCH_REPORT_H

#include <stdio.h>

#define REPORT_MAX_COLS 32

/* A column: its name (table header and CSV header alike), its minimum table width, and
 * whether the table right-aligns it (numbers) or left-aligns it (text). */
struct report_col {
    const char *name;
    int width;
    int right;
};

struct report {
    const struct report_col *cols;
    int ncols;
    FILE *csv;        /* NULL without --csv */
    const char *csv_path;
};

/* Prints the table header and, if csv_path is not NULL, creates that file and writes the CSV
 * header. 1 <= ncols <= REPORT_MAX_COLS. Returns 0, or -1 (message printed, nothing left
 * open). */
int report_open(struct report *r, const struct report_col *cols, int ncols,
                const char *csv_path);

/* Prints one table row and appends one CSV row; vals holds ncols strings.
 * Returns 0, or -1 if the CSV write failed (message printed). */
int report_row(struct report *r, const char *const *vals);

/* Closes the CSV file. Returns 0, or -1 if buffered data could not be written (message
 * printed). Safe to call after a failed open or twice. */
int report_close(struct report *r);

#endif /* TILEOPS_BENCH_REPORT_H */
