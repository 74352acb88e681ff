#!/bin/sh
# Checks that softmax_x.cu with every SX_ option at 0 is the library's template: compiles
# library instances (cut out of generated/sm90/softmax_*.cu) and the same configurations
# instantiated from softmax_x.cu to sm_90a PTX, and compares the kernels' PTX.
# Usage: drafts/softmax_sweep/check_default.sh [TMPDIR]   (no GPU needed; ~1 min on 2 cores)
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=${1:-/tmp/sx-check-default}
mkdir -p "$tmp"
cd "$tmp"
inc="-I$here -I$root/include -I$root/libops -I$root/libops/device"
status=0
for cfg in "w4_r1_e8_v8_s16 __half 4 1 8 8 16" "w8_r1_e8_v8_s32 __half 8 1 8 8 32" \
           "w8_r1_e8_v8_s64 __half 8 1 8 8 64" "w1_r4_e32_v8_s0 __half 1 4 32 8 0" \
           "w8_r1_e32_v1_s0 __half 8 1 32 1 0" "w4_r1_e4_v4_s16 float 4 1 4 4 16" \
           "w8_r1_e4_v4_s64 float 8 1 4 4 64"; do
    set -- $cfg
    tag=$1
    dt=f16; [ "$2" = float ] && dt=f32
    name=tileops_softmax_sm90_${dt}_plain_${tag}_rv0_p0 # the library's names since round 2
    awk -v want=$name '/^\/\/ ==== / { cur = $3; started = 1 } !started || cur == want' \
        "$root/generated/sm90/softmax_$dt.cu" | sed "s/$name/INST/g" > lib_$tag.cu
    {
        echo '#include "sx_common.cuh"'
        echo 'namespace INST {'
        echo "typedef $2 elem_t;"
        echo 'enum { MODE_PLAIN = 0, MODE_LOG = 1 };'
        echo 'constexpr int MODE = MODE_PLAIN;'
        echo "constexpr int WARPS = $3; constexpr int ROWS = $4; constexpr int ELEMS = $5;"
        echo "constexpr int VEC = $6; constexpr int SMEM_KB = $7; constexpr int SMEM_BYTES = $(($7 * 1024));"
        echo 'constexpr int SX_LOAD = 0, SX_STORE = 0, SX_ONLINE = 0, SX_REGV = 0, SX_SPLIT = 0;'
        echo 'constexpr int SX_MINB = 0, SX_UNITS = 0;'
        echo '#include "softmax_x.cu"'
        echo '}'
        echo 'extern "C" int INST_launch(const void *a, cudaStream_t s) { return INST::launch(a, s); }'
        echo 'extern "C" int64_t INST_fit(const void *a, size_t *w) { return INST::fit(a, w); }'
    } > sx_$tag.cu
    for v in lib sx; do
        nvcc -O3 -std=c++17 -arch=sm_90a -ptx $inc ${v}_$tag.cu -o ${v}_$tag.ptx &
    done
    wait
    for v in lib sx; do awk '/\.entry/ { p = 1 } p' ${v}_$tag.ptx > ${v}_$tag.kernel.ptx; done
    if cmp -s lib_$tag.kernel.ptx sx_$tag.kernel.ptx; then
        echo "$dt $tag: kernel PTX identical"
    else
        echo "$dt $tag: kernel PTX DIFFERS (diff $tmp/lib_$tag.kernel.ptx $tmp/sx_$tag.kernel.ptx)"
        status=1
    fi
done
exit $status
