/* gen.c: one run of the generator: load every spec, then list its instances or emit them. */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

static int by_path(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Do two specs declare the same variant axes besides dtype, with the same values in the
 * same order? Specs serving one operator must: the registry's variant codes are shared. */
static int same_variants(const struct gen_spec *a, const struct gen_spec *b)
{
    if (a->nvars != b->nvars)
        return 0;
    for (int v = 0; v < a->nvars; v++) {
        if (strcmp(a->vars[v].name, b->vars[v].name) != 0 || a->vars[v].count != b->vars[v].count)
            return 0;
        for (int c = 0; c < a->vars[v].count; c++)
            if (strcmp(a->vars[v].values[c], b->vars[v].values[c]) != 0)
                return 0;
    }
    return 1;
}

int gen_run(const char *const *paths, int npaths, const struct gen_options *opt, char *err,
            size_t errlen)
{
    int rc = 0, loaded = 0;
    const char **sorted = malloc((size_t)npaths * sizeof *sorted);
    struct gen_spec *specs = calloc((size_t)npaths, sizeof *specs);
    if (!sorted || !specs) {
        snprintf(err, errlen, "out of memory");
        free(sorted);
        free(specs);
        return -1;
    }
    /* Sorted, so that the output does not depend on the order the shell gave. */
    memcpy(sorted, paths, (size_t)npaths * sizeof *sorted);
    qsort(sorted, (size_t)npaths, sizeof *sorted, by_path);

    for (int i = 0; i < npaths && rc == 0; i++) {
        rc = gen_spec_load(sorted[i], opt, &specs[i], err, errlen);
        if (rc != 0)
            break;
        loaded++;
        for (int j = 0; j < i && rc == 0; j++) {
            if (strcmp(specs[j].op, specs[i].op) == 0) {
                snprintf(err, errlen, "%s:%d: operator '%s' is also declared by %s:%d",
                         sorted[i], specs[i].op_line, specs[i].op, sorted[j], specs[j].op_line);
                rc = -1;
            } else if (strcmp(specs[j].serves, specs[i].serves) == 0 &&
                       !same_variants(&specs[i], &specs[j])) {
                snprintf(err, errlen, "%s:%d: serves '%s' as %s does, but its variant axes "
                         "differ (names, values and order must match)", sorted[i],
                         specs[i].op_line, specs[i].serves, sorted[j]);
                rc = -1;
            }
        }
    }
    /* the tables after every spec: an entry may name any spec serving its operator */
    struct gen_tuned *tables = calloc((size_t)opt->ntuned + 1, sizeof *tables);
    int ntables = 0;
    if (!tables && rc == 0) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (int i = 0; i < opt->ntuned && rc == 0; i++) {
        rc = gen_tuned_load(opt->tuned[i], specs, npaths, opt, &tables[i], err, errlen);
        ntables += rc == 0;
        for (int j = 0; j < i && rc == 0; j++)
            if (tables[j].cc == tables[i].cc && tables[j].sms == tables[i].sms) {
                snprintf(err, errlen, "%s:1: a second table for compute capability %d with %d "
                         "SMs (the first is %s)", tables[i].path, tables[i].cc, tables[i].sms,
                         tables[j].path);
                rc = -1;
            }
    }
    if (rc == 0 && opt->list) {
        for (int i = 0; i < npaths; i++)
            for (int k = 0; k < specs[i].ninst; k++)
                fprintf(opt->log, "%s\n", specs[i].inst[k].name);
    } else if (rc == 0) {
        rc = gen_emit(specs, npaths, tables, ntables, opt, err, errlen);
    }
    for (int i = 0; i < ntables; i++)
        gen_tuned_free(&tables[i]);
    free(tables);
    for (int i = 0; i < loaded; i++)
        gen_spec_free(&specs[i]);
    free(specs);
    free(sorted);
    return rc;
}
