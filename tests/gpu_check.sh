#!/bin/sh
# gpu_check.sh: everything the GPU machine has to confirm, in one go, from the top folder with
# a built build/ (it needs neither Lua nor Check installed: the binaries link them
# statically). Logs and CSVs go to the folder given (default build/gpu-check); a summary line
# per step goes to stdout; the exit status is 1 if any step failed.
#
#   [GPU_CHECK_LIMIT=S] tests/gpu_check.sh [OUT] [full|tests|bench]
#
# tests: the test suites and sanitizers only, side by side; bench: the benchmarks only, one at
# a time (each part takes a few minutes: a device session that limits one command to 10
# minutes runs them as two calls).
set -u
OUT=${1:-build/gpu-check}
MODE=${2:-full}
mkdir -p "$OUT"
fail=0

# step NAME TIMEOUT COMMAND...: runs one step with a time limit, logs to $OUT/NAME.log
step() {
    name=$1
    limit=$2
    # GPU_CHECK_LIMIT=S caps every step's time (a device that limits one command's time)
    [ "${GPU_CHECK_LIMIT:-0}" -gt 0 ] && [ "$limit" -gt "$GPU_CHECK_LIMIT" ] && limit=$GPU_CHECK_LIMIT
    shift 2
    start=$(date +%s)
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    rc=$?
    printf '%-28s rc=%-3s %4ss  %s%s\n' "$name" "$rc" "$(( $(date +%s) - start ))" \
        "$(grep -E 'Checks:|ERROR SUMMARY|RACECHECK SUMMARY|skipped' "$OUT/$name.log" | tail -1)" \
        "$(grep -E '^test_soak: [0-9.]+ s,' "$OUT/$name.log" | tail -1 | sed 's/^/; /')"
    [ "$rc" = 0 ] || fail=1
}

# bg NAME TIMEOUT COMMAND...: step in the background (the test suites and sanitizers check
# results, not speed, so they share the GPU; their CPU references use the host's cores).
pids=""
bg() {
    ( step "$@" ) > "$OUT/$1.summary" &
    pids="$pids $!"
}

if [ "$MODE" != bench ]; then
for t in build/tests/test_*; do
    [ "$t" = build/tests/test_soak ] && continue # its long run is below
    bg "$(basename "$t")" 900 "$t"
done
# The soak: five minutes of random legal calls of every operator, a sample checked; and
# memcheck over its first minute (calls of a sixteenth of the size, TILEOPS_TEST_SMALL).
bg test_soak_300s 420 env TILEOPS_SOAK_SECONDS=300 build/tests/test_soak
bg memcheck_soak 900 env TILEOPS_SOAK_SECONDS=60 TILEOPS_TEST_SMALL=1 compute-sanitizer \
    --tool memcheck --leak-check full --error-exitcode 3 build/tests/test_soak
# Under the sanitizers the suites leave out their largest shapes (TILEOPS_TEST_SMALL).
bg memcheck_softmax 900 env TILEOPS_TEST_SMALL=1 compute-sanitizer --tool memcheck \
    --leak-check full --error-exitcode 3 build/tests/test_softmax
bg racecheck_softmax 900 env TILEOPS_TEST_SMALL=1 CK_RUN_CASE=views compute-sanitizer \
    --tool racecheck --error-exitcode 3 build/tests/test_softmax
# the split rows (cooperative launch with grid.sync, and the ticket path) on their own
bg racecheck_softmax_split 900 env TILEOPS_TEST_SMALL=1 CK_RUN_CASE=split compute-sanitizer \
    --tool racecheck --error-exitcode 3 build/tests/test_softmax
bg memcheck_gemm 900 env TILEOPS_TEST_SMALL=1 compute-sanitizer --tool memcheck \
    --leak-check full --error-exitcode 3 build/tests/test_gemm
# (cuBLAS's own kernels, run for the agreement check, report races of their own: left out)
bg racecheck_gemm 900 env TILEOPS_TEST_SMALL=1 CK_RUN_CASE=gpu compute-sanitizer \
    --tool racecheck --error-exitcode 3 build/tests/test_gemm
# every GEMM instance pinned on small shapes, beside it (the two took >390 s as one)
bg racecheck_gemm_instances 900 env TILEOPS_TEST_SMALL=1 CK_RUN_CASE=instances \
    compute-sanitizer --tool racecheck --error-exitcode 3 build/tests/test_gemm
# the Hopper family (TMA, mbarriers, clusters, named barriers) pinned, racecheck and synccheck
bg racecheck_gemm_wgmma 900 env TILEOPS_TEST_SMALL=1 CK_RUN_CASE=wgmma compute-sanitizer \
    --tool racecheck --error-exitcode 3 build/tests/test_gemm
bg synccheck_gemm_wgmma 900 env TILEOPS_TEST_SMALL=1 CK_RUN_CASE=wgmma compute-sanitizer \
    --tool synccheck --error-exitcode 3 build/tests/test_gemm
bg memcheck_attention 900 env TILEOPS_TEST_SMALL=1 compute-sanitizer --tool memcheck \
    --leak-check full --error-exitcode 3 build/tests/test_attention
bg racecheck_attention 900 env CK_RUN_CASE=graph compute-sanitizer --tool racecheck \
    --error-exitcode 3 build/tests/test_attention
bg memcheck_kvcache 900 env compute-sanitizer --tool memcheck --leak-check full \
    --error-exitcode 3 build/tests/test_kvcache
bg racecheck_kvcache 900 env TILEOPS_TEST_SMALL=1 CK_RUN_CASE=gpu compute-sanitizer --tool racecheck \
    --error-exitcode 3 build/tests/test_kvcache
wait $pids # each step's status is in its summary line (rc=...)
cat "$OUT"/*.summary
grep -q "rc=[1-9]" "$OUT"/*.summary && fail=1
rm -f "$OUT"/*.summary
fi

if [ "$MODE" != tests ]; then
    step bench_ceiling 120 build/tileops-bench ceiling --csv "$OUT/ceiling.csv"
    step bench_vector_add 300 build/tileops-bench vector_add --dtype all --csv "$OUT/vector_add.csv"
    step bench_softmax 300 build/tileops-bench softmax --dtype all --csv "$OUT/softmax.csv"
    step bench_gemm 600 build/tileops-bench gemm --dtype all --csv "$OUT/gemm.csv"
    step bench_gemm_epilogue 600 build/tileops-bench gemm --shape 4096x4096x4096 --dtype all \
        --epilogue all --layout all --csv "$OUT/gemm_epilogue.csv"
    step bench_attention 600 build/tileops-bench attention --dtype all --csv "$OUT/attention.csv"
    step bench_decode 300 build/tileops-bench decode --csv "$OUT/decode.csv"
fi
exit $fail
