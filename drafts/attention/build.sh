#!/bin/sh
# Builds harness from a list of instances (LIST, default instances.list: the draft's test set;
# sweep.list: the q_regs sweep), for ARCHS (default "80 90a"), warnings as errors, and prints
# ptxas figures per kernel.
# Usage: [LIST=file] [ARCHS="90a"] drafts/attention/build.sh [out-binary]
#   then: ./harness [--host-only] [--no-timing]
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/harness}
list=${LIST:-$here/instances.list}
gen=$(dirname "$out")/gen.$$
mkdir -p "$gen"
# One name per line: fa_<elem>_d<D>_m<BM>_n<BN>_w<W>_s<S>_q<Q>.
grep -v '^#' "$list" | awk -v gen="$gen" '
    NF == 7 { split("64 96 128 256", dims, " "); d = dims[$2 + 1]
        name = sprintf("fa_%s_d%d_m%d_n%d_w%d_s%d_q%d", $1, d, $3, $4, $5, $6, $7)
        elem = $1 == "bf16" ? "__nv_bfloat16" : "__half"
        printf "#define INST_NAME %s\n#define INST_ELEM %s\n#define INST_HD %d\n#define INST_BM %d\n#define INST_BN %d\n#define INST_W %d\n#define INST_S %d\n#define INST_QR %d\n#include \"instances.inc\"\n\n", name, elem, $2, $3, $4, $5, $6, $7 > (gen "/gen_instances.inc")
        printf "HOST_CHECKS(%s)\n", name > (gen "/gen_hostdecl.inc")
        printf "DEFINE_HOST_CHECK(%s)\n", name > (gen "/gen_checks.inc")
        printf "ENTRY(%s),\n", name > (gen "/gen_table.inc") }'
codes=
for a in ${ARCHS:-80 90a}; do codes="$codes -gencode arch=compute_$a,code=sm_$a"; done
nvcc -std=c++17 -O3 $codes \
    -Xcompiler -Wall,-Wextra -Werror all-warnings -Xptxas -v \
    -I"$gen" -I"$here" -I"$root/generator/templates" -I"$root/libops" -I"$root/libops/device" -I"$root/include" \
    -o "$out" "$here/harness.cu" 2> "$out.ptxas.log" || { cat "$out.ptxas.log"; rm -rf "$gen"; exit 1; }
rm -rf "$gen"
# ptxas -v: "Compiling entry function '<mangled>' for 'sm_XX'" then "Used N registers, ...".
awk '/Compiling entry function/ { match($0, /_ZN[0-9]+fa_[a-z0-9_]+/); name = substr($0, RSTART, RLENGTH);
         sub(/_ZN[0-9]+/, "", name); sub(/6kernel$/, "", name); match($0, /sm_[0-9a]+/); arch = substr($0, RSTART, RLENGTH) }
     /bytes stack frame/ { stack = $0; sub(/^.*ptxas info *: */, "", stack) }
     /Used [0-9]+ registers/ && name != "" { r = $0; sub(/^.*Used /, "", r); sub(/registers.*/, "", r);
         printf "%-38s %-6s regs %-4s %s\n", name, arch, r, stack; name = "" }' "$out.ptxas.log"
