/* main.c: the tileops-gen command line. */
#include "gen.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: tileops-gen [-v] [--list] [--all | --near] [-o DIR] [-t TEMPLATES]\n"
    "                   [--tuned TABLE.lua]... SPEC.lua...\n"
    "  -o DIR        write the generated tree to DIR, replacing it whole (default generated);\n"
    "                DIR must be absent, empty or a tree tileops-gen wrote (it has a MANIFEST),\n"
    "                and runs into one DIR take turns through the lock file DIR.lock\n"
    "  -t TEMPLATES  the template folder (default generator/templates)\n"
    "  --list        print the instances that would be emitted; write nothing\n"
    "  --all         emit the whole pruned tuning space, not the defaults\n"
    "  --near        emit the defaults and every configuration one tuning axis away from\n"
    "                one (the space make tune times)\n"
    "  --tuned T     read the tuning table T (specs/tuned/<gpu>.lua): its winners join the\n"
    "                instances, its entries become generated/tuned.c\n"
    "  -v            say why each pruned configuration was dropped\n"
    "  -h, --help    print this and exit\n";

int main(int argc, char **argv)
{
    struct gen_options opt = {.out_dir = "generated", .templates = "generator/templates", .log = stdout};
    const char *specs[256], *tuned[64];
    int nspecs = 0, ntuned = 0;
    char err[GEN_ERR];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0) {
            opt.verbose = 1;
        } else if (strcmp(a, "--list") == 0) {
            opt.list = 1;
        } else if (strcmp(a, "--all") == 0) {
            opt.all = 1;
        } else if (strcmp(a, "--near") == 0) {
            opt.near = 1;
        } else if (strcmp(a, "--tuned") == 0 && i + 1 < argc) {
            if (ntuned == (int)(sizeof tuned / sizeof tuned[0])) {
                fprintf(stderr, "tileops-gen: too many tables (at most %d)\n",
                        (int)(sizeof tuned / sizeof tuned[0]));
                return 2;
            }
            tuned[ntuned++] = argv[++i];
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "-t") == 0) && i + 1 < argc) {
            *(a[1] == 'o' ? &opt.out_dir : &opt.templates) = argv[++i];
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "-t") == 0 || strcmp(a, "--tuned") == 0) {
            fprintf(stderr, "tileops-gen: option %s needs a %s\n%s", a, a[1] == '-' ? "file" :
                    "folder", usage);
            return 2;
        } else if (a[0] == '-') {
            fprintf(stderr, "tileops-gen: unknown option '%s'\n%s", a, usage);
            return 2;
        } else if (nspecs == (int)(sizeof specs / sizeof specs[0])) {
            fprintf(stderr, "tileops-gen: too many specs (at most %d)\n",
                    (int)(sizeof specs / sizeof specs[0]));
            return 2;
        } else {
            specs[nspecs++] = a;
        }
    }
    if (!nspecs) {
        fprintf(stderr, "tileops-gen: no spec given\n%s", usage);
        return 2;
    }
    opt.tuned = tuned;
    opt.ntuned = ntuned;
    if (gen_run(specs, nspecs, &opt, err, sizeof err) != 0) {
        fprintf(stderr, "tileops-gen: %s\n", err);
        return 1;
    }
    return 0;
}
