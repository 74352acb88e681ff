#!/bin/sh
# Builds harness (sm_80 and sm_90a SASS), warnings as errors, and prints ptxas figures per
# kernel. Usage: drafts/attention/build.sh [out-binary]   then: ./harness [--host-only]
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/harness}
nvcc -std=c++17 -O3 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a \
    -Xcompiler -Wall,-Wextra -Werror all-warnings -Xptxas -v \
    -I"$here" -I"$root/generator/templates" -I"$root/libops" -I"$root/libops/device" -I"$root/include" \
    -o "$out" "$here/harness.cu" 2> "$out.ptxas.log" || { cat "$out.ptxas.log"; exit 1; }
# ptxas -v: "Compiling entry function '<mangled>' for 'sm_XX'" then "Used N registers, ...".
awk '/Compiling entry function/ { match($0, /_ZN[0-9]+fa_[a-z0-9_]+/); name = substr($0, RSTART, RLENGTH);
         sub(/_ZN[0-9]+/, "", name); match($0, /sm_[0-9a]+/); arch = substr($0, RSTART, RLENGTH) }
     /bytes stack frame/ { stack = $0; sub(/^.*ptxas info *: */, "", stack) }
     /Used [0-9]+ registers/ && name != "" { r = $0; sub(/^.*Used /, "", r); sub(/registers.*/, "", r);
         printf "%-34s %-6s regs %-4s %s\n", name, arch, r, stack; name = "" }' "$out.ptxas.log"
