/* tuned.c: a handle's tuning table and the lookup of a call's entry in it. */
#include "internal.h"
#include "tune_key.h"

#include <stdlib.h>
#include <string.h>

const struct tileops_tuned_table *tileops__tuned_table_for(int cc, int sms,
                                                           const struct tileops_tuned_table *tables,
                                                           int n)
{
    const char *env = getenv("TILEOPS_TUNED");
    if (env && strcmp(env, "0") == 0)
        return NULL;
    for (int i = 0; i < n; i++)
        if (tables[i].cc == cc && tables[i].sms == sms)
            return &tables[i];
    for (int i = 0; i < n; i++)
        for (int a = 0; a < tables[i].naliases; a++)
            if (tables[i].aliases[a][0] == cc && tables[i].aliases[a][1] == sms)
                return &tables[i];
    return NULL;
}

static int cmp_entry(uint64_t key, const int64_t *dims, const struct tileops_tuned_entry *e)
{
    if (key != e->key)
        return key < e->key ? -1 : 1;
    for (int i = 0; i < 3; i++)
        if (dims[i] != e->dims[i])
            return dims[i] < e->dims[i] ? -1 : 1;
    return 0;
}

static const struct tileops_tuned_entry *find(const struct tileops_tuned_table *t, uint64_t key,
                                              const int64_t *dims)
{
    int lo = 0, hi = t->nentries - 1;
    while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        const int c = cmp_entry(key, dims, &t->entries[mid]);
        if (c == 0)
            return &t->entries[mid];
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return NULL;
}

const struct tileops_tuned_entry *tileops__tuned_lookup(const struct tileops_tuned_table *t,
                                                        const struct tileops__call *c)
{
    int64_t dims[3];
    int cls;
    if (!t || tileops__tune_shape(c->op, c->args, dims, &cls) != 0)
        return NULL;
    const uint64_t key = tileops__tune_key(c->op, c->dtype, c->variant, cls, dims);
    const struct tileops_tuned_entry *e = find(t, key, dims); /* this exact shape */
    if (!e) {
        const int64_t bucket[3] = {0, 0, 0};
        e = find(t, key, bucket);
    }
    return e;
}
