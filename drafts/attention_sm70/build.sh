#!/bin/sh
# Builds harness for the sm70 tier as the Makefile builds it (sm_70 SASS + compute_70 PTX where
# the toolkit still has sm_70, else sm_75 + compute_75: CUDA 13 dropped sm_70), plus sm_80 SASS,
# plus sm_90 SASS compiled from the same tier PTX (what the driver's JIT makes of it on an
# H100/H200), warnings as errors; prints ptxas registers/spills per kernel and arch (the full
# log goes to harness.ptxas.log).
# Usage: drafts/attention_sm70/build.sh [out-binary]   then: ./harness [--host-only] [--no-timing]
#        drafts/attention_sm70/build.sh --emulate [out]  (g++, no GPU)  then: ./harness_emu
set -e
emulate=
[ "$1" = --emulate ] && { emulate=1; shift; }
here=$(cd "$(dirname "$0")" && pwd)
root=${TILEOPS_ROOT:-$(cd "$here/../.." && pwd)} # the repository (TILEOPS_ROOT for a copy elsewhere)
out=${1:-$here/harness}
# The template is the library's (generator/templates), its argument struct libops/op_args.h's.
template=$root/generator/templates/flash_attention_sm70.cu

if [ -n "$emulate" ]; then
    # g++ build of the harness with emu.h for the CUDA subset and a copy of the template whose
    # extern __shared__ array and kernel<<<...>>> line are rewritten for it.
    [ "$out" = "$here/harness" ] && out=$here/harness_emu
    cuda=${CUDA_HOME:-/usr/local/cuda}
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp "$here/harness.cu" "$here/instances.inc" "$here/host_checks.inc" "$here/emu.h" "$tmp/"
    sed -e 's/^\( *\)extern __shared__ __align__(128) unsigned char smem\[\];/\1unsigned char *const smem = emu::smem;/' \
        -e 's/^\( *\)kernel<<<\(.*\)>>>(\(.*\));$/\1emu::launch(kernel, \2, \3);/' \
        "$template" > "$tmp/flash_attention_sm70.cu"
    [ "$(grep -c 'emu::' "$tmp/flash_attention_sm70.cu")" = 2 ] ||
        { echo "build.sh: the template's smem or launch line changed: update the sed" >&2; exit 1; }
    ${CXX:-g++} -std=c++17 -O2 -g -Wall -Wextra -Wno-unknown-pragmas -Werror -DTILEOPS_EMULATE \
        -I"$tmp" -I"$root/libops" -I"$root/libops/device" -I"$root/include" -I"$cuda/include" \
        -o "$out" -x c++ "$tmp/harness.cu"
    echo "built $out (CPU emulation)"
    exit 0
fi

NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
codes=$("$NVCC" --list-gpu-code 2>/dev/null || true)
case " $(echo $codes) " in
*" sm_70 "*) t=70 ;;
*" sm_75 "*) t=75 ;;
*) echo "build.sh: $NVCC builds neither sm_70 nor sm_75" >&2; exit 1 ;;
esac
"$NVCC" -std=c++17 -O3 \
    -gencode "arch=compute_$t,code=[sm_$t,compute_$t]" \
    -gencode arch=compute_80,code=sm_80 \
    -gencode "arch=compute_$t,code=sm_90" \
    -Xcompiler -Wall,-Wextra -Werror all-warnings -Xptxas -v \
    -I"$here" -I"$root/generator/templates" -I"$root/libops" -I"$root/libops/device" -I"$root/include" \
    -o "$out" "$here/harness.cu" 2> "$out.ptxas.log" || { cat "$out.ptxas.log"; exit 1; }
echo "tier SASS sm_$t (+ compute_$t PTX), sm_80, sm_90 from compute_$t PTX"
# ptxas -v: "Compiling entry function '<mangled>' for 'sm_XX'" then "Used N registers, ...".
# The mangled name is _ZN<length><namespace>6kernel...: the length says where the namespace ends.
awk '/Compiling entry function/ { match($0, /_ZN[0-9]+fa70_/); n = substr($0, RSTART + 3, RLENGTH - 8) + 0;
         name = substr($0, RSTART + RLENGTH - 5, n); match($0, /sm_[0-9a]+/); arch = substr($0, RSTART, RLENGTH) }
     /bytes stack frame/ { stack = $0; sub(/^.*ptxas info *: */, "", stack) }
     /Used [0-9]+ registers/ && name != "" { r = $0; sub(/^.*Used /, "", r); sub(/registers.*/, "", r);
         printf "%-28s %-6s regs %-4s %s\n", name, arch, r, stack; name = "" }' "$out.ptxas.log"
