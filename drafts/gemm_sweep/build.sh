#!/bin/sh
# Builds gemm-sweep: every sm90 bf16 NK aligned instance of the pruned tuning space with tiles
# of 128x128 and up, and every small-M one, timed one by one (a stopgap until the autotuner).
# Usage: drafts/gemm_sweep/build.sh OUTDIR   (needs build/tileops-gen; ~2 min on 16 cores)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out"
rm -rf "$out/gen"
"$root/build/tileops-gen" --all -o "$out/gen" "$root/specs/gemm.lua" "$root/specs/gemm_small_m.lua" >/dev/null
pick() { # file regex -> names
    grep -o "^// ==== [a-z0-9_]* ====" "$1" | awk '{print $3}' | grep "_nk_" | grep "_a1$" | grep -E "$2"; }
{ pick "$out/gen/sm90/gemm_bf16.cu" "m128_n256|m256_n128|m128_n128"
  pick "$out/gen/sm90/gemm_small_m_bf16.cu" "."; } > "$out/names.txt"
# one source per 8 instances, each: the generated preamble + those instances' blocks
split -l 8 -d "$out/names.txt" "$out/part."
for part in "$out"/part.*; do
    src=$(grep -q small_m "$part" && echo gemm_small_m_bf16.cu || echo gemm_bf16.cu)
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
