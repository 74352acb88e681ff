#!/bin/sh
# Builds gemm-sweep: every sm90 bf16 NK aligned instance of the pruned tuning space with tiles
# of 128x128 and up, and every small-M one, timed one by one (a stopgap until the autotuner).
# Usage: drafts/gemm_sweep/build.sh OUTDIR [TILED_REGEX [SMALL_REGEX]]
#   (needs build/tileops-gen; ~2 min on 16 cores for the default sets)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out"
rm -rf "$out/gen"
"$root/build/tileops-gen" --all -o "$out/gen" "$root/specs/gemm.lua" "$root/specs/gemm_small_m.lua" >/dev/null
pick() { # file regex -> names
    grep -o "^// ==== [a-z0-9_]* ====" "$1" | awk '{print $3}' | grep "_nk_" | grep -E "_a1(_e[01])?$" | grep -E "$2"; }
rm -f "$out"/part.*
pick "$out/gen/sm90/gemm_bf16.cu" "${2:-m128_n256|m256_n128|m128_n128}" > "$out/tiled.txt"
pick "$out/gen/sm90/gemm_small_m_bf16.cu" "${3:-.}" > "$out/small.txt"
cat "$out/tiled.txt" "$out/small.txt" > "$out/names.txt"
# one source per 8 instances, each: the generated preamble + those instances' blocks
split -l 8 -d "$out/tiled.txt" "$out/part.t"
split -l 8 -d "$out/small.txt" "$out/part.s"
for part in "$out"/part.*; do
    case $part in *.s*) src=gemm_small_m_bf16.cu ;; *) src=gemm_bf16.cu ;; esac
    awk -v list="$part" 'BEGIN { while ((getline n < list) > 0) want[n] = 1 }
        /^\/\/ ==== / { cur = $3; started = 1 }
        !started || want[cur]' "$out/gen/sm90/$src" > "$part.cu"
done
# the list as X-macro lines for the driver
sed 's/.*/K(&)/' "$out/names.txt" > "$out/names.inc"
cd "$out"
for f in part.*.cu; do
    nvcc -O3 -std=c++17 -I"$root/include" -I"$root/libops" -I"$root/libops/device" \
        -gencode arch=compute_90a,code=sm_90a -c "$f" -o "${f%.cu}.o" &
done
wait
nvcc -O3 -std=c++17 -I"$root/include" -I"$root/libops" -I"$root/libops/device" -I"$out" \
    -gencode arch=compute_90a,code=sm_90a -o gemm-sweep "$root/drafts/gemm_sweep/sweep.cu" part.*.o -lcublas
echo "built $out/gemm-sweep with $(wc -l < names.txt) instances"
