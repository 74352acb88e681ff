#!/bin/sh
# build.sh: builds the GEMM draft harness for sm_80 and for sm_90a (the two ways the sm80
# template ships), plus the sm70 template alone for sm_75 (the sm70 tier on CUDA 13), and prints
# ptxas's resource figures per kernel: registers, spills, stack, static shared memory. Dynamic
# shared memory per instance is printed by `./harness --host-only`.
#   drafts/gemm/build.sh            -> build/harness_sm80, build/harness_sm90a
#   NVCC=/path/nvcc OUT=dir build.sh
# Warnings are errors (the library builds with -Wall -Wextra, WERROR=1 in CI).
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
OUT=${OUT:-build}
mkdir -p "$OUT"
FLAGS="-std=c++17 -O3 -lineinfo -Xcompiler -Wall,-Wextra,-Werror -Werror all-warnings"

# ptxas -v log -> one line per kernel: name, arch, registers, spill stores/loads, stack, smem.
summarize() {
    awk '
    /Compiling entry function/ { fn = $0; sub(/.*function .\047?/, "", fn); sub(/\047 for .*/, "", fn);
                                 arch = $0; sub(/.*for \047/, "", arch); sub(/\047.*/, "", arch) }
    /bytes stack frame/        { stack = $1; st = $5; ld = $9 }
    /Used [0-9]+ registers/    { regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs);
                                 smem = "0"; if (match($0, /[0-9]+ bytes smem/)) { smem = substr($0, RSTART); sub(/ bytes smem/, "", smem) }
                                 printf "%s|%s|%s|%s|%s|%s|%s\n", fn, arch, regs, st, ld, stack, smem }
    ' "$1" | sort -u | while IFS='|' read -r fn arch regs st ld stack smem; do
        name=$(echo "$fn" | c++filt | sed 's/(.*//')
        flag=""
        [ "$st" != "0" ] || [ "$ld" != "0" ] && flag="  <-- SPILLS"
        printf "  %-52s %-7s regs %3s  spill st/ld %4s/%-4s  stack %4s  static smem %s%s\n" \
            "$name" "$arch" "$regs" "$st" "$ld" "$stack" "$smem" "$flag"
    done
}

build() { # $1 output, $2.. arch flags
    out=$1
    shift
    echo "== $out ($*)"
    if ! "$NVCC" $FLAGS "$@" -Xptxas -v -o "$OUT/$out" harness.cu -lcublas 2> "$OUT/$out.log"; then
        grep -v "^ptxas info\|^    [0-9]* bytes stack" "$OUT/$out.log" | head -40
        exit 1
    fi
    summarize "$OUT/$out.log"
}

build harness_sm80 -arch=sm_80
build harness_sm90a -gencode arch=compute_90a,code=sm_90a

# The sm70 tier: sm_75 machine code (CUDA 13 has no sm_70), the wmma template only.
tu="$OUT/sm70_only.cu"
{
    echo '#include <cuda_runtime.h>'
    echo "#include \"gemm_args.h\""
    echo "#include \"tileops_mma.cuh\""
    echo "#include \"gemm_common.cuh\""
    for lay in KN NK; do for al in 1 0; do
        echo "namespace s70_f16_${lay}_128x128x32_w2x4_a${al} {"
        echo "typedef __half elem_t; enum { LAYOUT_KN = 0, LAYOUT_NK = 1 }; constexpr int LAYOUT = LAYOUT_${lay}; constexpr int ALIGNED = ${al};"
        echo "constexpr int BM = 128, BN = 128, BK = 32, WARPS_M = 2, WARPS_N = 4;"
        echo "#include \"gemm_sm70.cu\""
        echo '}'
        echo "extern \"C\" int s70_${lay}_${al}_launch(const void *a, cudaStream_t s) { return s70_f16_${lay}_128x128x32_w2x4_a${al}::launch(a, s); }"
        echo "extern \"C\" int64_t s70_${lay}_${al}_fit(const void *a, size_t *w) { return s70_f16_${lay}_128x128x32_w2x4_a${al}::fit(a, w); }"
    done; done
} > "$tu"
echo "== sm70_only.o (-gencode arch=compute_75,code=[sm_75,compute_75])"
if ! "$NVCC" $FLAGS -gencode 'arch=compute_75,code=[sm_75,compute_75]' -I. -Xptxas -v -c -o "$OUT/sm70_only.o" "$tu" 2> "$OUT/sm70_only.log"; then
    grep -v "^ptxas info\|^    [0-9]* bytes stack" "$OUT/sm70_only.log" | head -40
    exit 1
fi
summarize "$OUT/sm70_only.log"
echo "built: $OUT/harness_sm80 $OUT/harness_sm90a $OUT/sm70_only.o"
