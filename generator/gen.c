/* gen.c: one run of the generator: load every spec, then list its instances or emit them. */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

static int by_path(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
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
        for (int j = 0; j < i && rc == 0; j++)
            if (strcmp(specs[j].op, specs[i].op) == 0) {
                snprintf(err, errlen, "%s: operator '%s' is also declared by %s", sorted[i],
                         specs[i].op, sorted[j]);
                rc = -1;
            }
    }
    if (rc == 0 && opt->list) {
        for (int i = 0; i < npaths; i++)
            for (int k = 0; k < specs[i].ninst; k++)
                fprintf(opt->log, "%s\n", specs[i].inst[k].name);
    } else if (rc == 0) {
        rc = gen_emit(specs, npaths, opt, err, errlen);
    }
    for (int i = 0; i < loaded; i++)
        gen_spec_free(&specs[i]);
    free(specs);
    free(sorted);
    return rc;
}
