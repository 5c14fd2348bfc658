#!/usr/bin/env bash
# On the lent GPU machine (sm_90, no network): unpack the carried Debian packages
# (.debs/, made by scripts/fetch-device-debs.sh), configure for sm_90, build, run the
# `gpu` tests, the stress checks and the benchmarks, and print a short table last.
# Results go to $OUT (or out/device).
# Usage: bash scripts/device.sh [quick|full] [tests] [stress] [bench]   (default: all three parts)
# A lent command runs at most 10 minutes: the full run is two calls, "full tests stress"
# then "full bench". To split further: STRESS="gheap-bu" (structures), STRESS_RECORD="--record"
# (only the recorded runs, or "" for only the unrecorded; an entry NAME:VARIANT picks a variant,
# slab-multimap:fixed), BENCHES="gpulin_bench_gheap",
# BENCH_ARGS="--only table1,record" (passed to each benchmark in full mode), TARGETS="slab_hash_gpu_test
# gpulin_bench_slab" (build only these), TESTS_REGEX="Slab" (run only the gpu tests it matches).
# Finding P1 (docs/findings.md, both heaps in one run, ~2 minutes): GPULIN_COMMIT=<sha>
# BENCHES=gpulin_bench_p1 TARGETS=gpulin_bench_p1 bash scripts/device.sh full bench.
# Bucket heap stress: STRESS=bucket-heap with BUCKET_D, BUCKET_OPS, BUCKET_THREADS.
# The part "sanitize" (not in the default) runs every gpu test executable under
# compute-sanitizer's memcheck, racecheck and synccheck (SANITIZE_TOOLS to choose,
# SANITIZE_FILTER a gtest filter, SANITIZE_TIMEOUT seconds per run, default 240, at
# most SANITIZE_JOBS runs at once, default 4); each run's verdict (clean, errors, or
# out of time) goes in the summary, the log of each run that was not clean to $out/sanitize-TOOL-TEST.log;
# SANITIZE_PAIRS="TOOL:TEST[:FILTER] ..." runs only those pairs. The
# deliberately trapping tests (SpinBound.AWaitNobodyEnds..., SlabMixedBatch.AnOperation...)
# are left out: a trap is an error to every tool.
set -uo pipefail
cd "$(dirname "$0")/.."
mode="${1:-full}"
shift || true
parts="${*:-tests stress bench}"
want() { [[ " $parts " == *" $1 "* ]]; }
out="${OUT:-out/device}"
mkdir -p "$out"
log() { echo "== $*"; }
log "configure"
source scripts/device-configure.sh
log "build"
targets=(gpulin gheap_gpu_test gpu_check_test merge_path_gpu_test gpu_primitives_test
  slab_hash_gpu_test slab_mutant_gpu_test cuckoo_baseline_test psync_gpu_test sssp_gpu_test sssp_frontier_gpu_test knapsack_gpu_test bucket_heap_gpu_test
  watchdog_gpu_test gpulin_bench_gheap)
want bench && for t in gpulin_bench_merge gpulin_bench_check gpulin_bench_slab gpulin_bench_psync gpulin_bench_p1 gpulin_bench_sssp gpulin_bench_sssp_frontier gpulin_bench_knapsack; do
  grep -q "\b$t\b" build-gpu/CMakeFiles/TargetDirectories.txt 2>/dev/null && targets+=("$t")
done
[ -n "${TARGETS:-}" ] && read -r -a targets <<<"$TARGETS"
cmake --build build-gpu -j"$(nproc)" --target "${targets[@]}" >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; tail -20 "$out/build.log"; exit 2; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
summary=()
if want tests; then
log "gpu tests"
ctest --test-dir build-gpu -L gpu ${TESTS_REGEX:+-R "$TESTS_REGEX"} --output-on-failure --timeout 300 >"$out/gpu-tests.log" 2>&1
summary+=("gpu tests: $(grep -E 'tests passed|tests failed' "$out/gpu-tests.log" | tail -1)")
grep -E "Failed|FAIL|\*\*\*" "$out/gpu-tests.log" | head -20
fi
if want stress; then
log "stress"
if [ "$mode" = quick ]; then keys=$((1<<20)); rkeys=$((1<<20)); else keys=$((1<<29)); rkeys=$((1<<29)); fi
if [ -n "${STRESS_RECORD+x}" ]; then recs=("$STRESS_RECORD"); else recs=("" "--record"); fi
for entry in ${STRESS:-gheap-td gheap-bu}; do
  # NAME or NAME:VARIANT (slab-multimap:fixed); without a variant, the row's default.
  s=${entry%%:*}; variant_arg=
  [[ $entry == *:* ]] && variant_arg="--variant ${entry#*:}"
  if [[ $s == psync ]]; then
    # The relaxed hold model after growing to PSYNC_GROW keys; PSYNC_CYCLES cycles of r = PSYNC_R.
    for rec in "${recs[@]}"; do
      line=$(timeout 400 build-gpu/tools/gpulin stress --structure psync --r ${PSYNC_R:-1024} --cycles ${PSYNC_CYCLES:-10000} \
        --grow-to ${PSYNC_GROW:-$((1<<20))} $rec 2>&1 | tee -a "$out/stress.log" | tr '\n' ' ' | sed 's/  */ /g')
      summary+=("stress psync ${rec:-(no record)}: $(echo "$line" | grep -o 'verdict: [A-Za-z]*') | $(echo "$line" | grep -o 'kernels [0-9.]* s ([^)]*)') | $(echo "$line" | grep -o 'witness [^;]*[0-9.]* s')")
    done
    continue
  fi
  if [[ $s == bucket-heap ]]; then
    # A Dijkstra-like program of BUCKET_OPS operations and a drain, d = BUCKET_D.
    for rec in "${recs[@]}"; do
      line=$(timeout 400 build-gpu/tools/gpulin stress --structure bucket-heap --d ${BUCKET_D:-64} --ops ${BUCKET_OPS:-100000} \
        --threads ${BUCKET_THREADS:-256} $rec 2>&1 | tee -a "$out/stress.log" | tr '\n' ' ' | sed 's/  */ /g')
      summary+=("stress bucket-heap d=${BUCKET_D:-64} ${rec:-(no record)}: $(echo "$line" | grep -o 'verdict: [A-Za-z]*') | $(echo "$line" | grep -o 'kernel [0-9.]* s ([^)]*)') | $(echo "$line" | grep -o 'checks: .*[0-9.]* s')")
    done
    continue
  fi
  if [[ $s == slab-* ]]; then
    # The paper's concurrent benchmark shape (§VI-C): Γ1, 2^22 keys built, SLAB_OPS operations.
    for rec in "${recs[@]}"; do
      line=$(timeout 400 build-gpu/tools/gpulin stress --structure $s $variant_arg --buckets $((1<<19)) --initial $((1<<22)) \
        --ops ${SLAB_OPS:-$((10*1000*1000))} --mix 0.2,0.2,0.3,0.3 $rec 2>&1 | tee -a "$out/stress.log" | tr '\n' ' ' | sed 's/  */ /g')
      summary+=("stress $entry ${rec:-(no record)}: $(echo "$line" | grep -o 'verdict: [A-Za-z]*') | $(echo "$line" | grep -o 'mix .*M ops/s') | $(echo "$line" | grep -o 'check [0-9.]* s')")
    done
    continue
  fi
  for kb in ${STRESS_KEY_BITS:-32}; do
    for rec in "${recs[@]}"; do
      if [ -z "$rec" ]; then n=$keys; else n=$rkeys; fi
      line=$(timeout 300 build-gpu/tools/gpulin stress --structure $s --variant fixed --blocks 128 --threads 512 --k 1024 \
        --workload random --keys $n --key-bits $kb $rec 2>&1 | tee -a "$out/stress.log" | tr '\n' ' ' | sed 's/  */ /g')
      summary+=("stress $s keys=$n bits=$kb ${rec:-(no record)}: $(echo "$line" | grep -o 'verdict: [A-Za-z]*') | $(echo "$line" | grep -o 'kernels [0-9.]* s.*end of kernels to verdict [0-9.]* s' )")
    done
  done
done
fi
if want sanitize; then
log "compute-sanitizer"
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
bins=$(find build-gpu/tests/gpu build-gpu/tests/merge_path -maxdepth 1 -name '*_test' -type f -perm -u+x | sort)
filter="${SANITIZE_FILTER:--SpinBound.AWaitNobodyEndsTrapsInsteadOfHanging:SlabMixedBatch.AnOperationTheModeDoesNotHaveTraps:SlabMixedBatchOnGpu.AGridThatDoesNotCoverTheBatchTraps}"
sanitize_one() {  # TOOL BIN [FILTER]
  local name log rc
  name=$(basename "$2"); log="$out/sanitize-$1-$name.log"
  timeout "${SANITIZE_TIMEOUT:-240}" "$cs" --tool "$1" --error-exitcode 99 "$2" --gtest_filter="${3:-$filter}" >"$log" 2>&1
  rc=$?
  case $rc in
    0) echo "$1 $name${3:+ ($3)}: clean ($(grep -oE 'ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard[^)]*' "$log" | tail -1))"
       rm -f "$log" ;;  # only the logs worth reading come back
    124) echo "$1 $name${3:+ ($3)}: OUT OF TIME (${SANITIZE_TIMEOUT:-240} s)" ;;
    99) echo "$1 $name${3:+ ($3)}: ERRORS ($(grep -oE '(ERROR|RACECHECK) SUMMARY: .*' "$log" | tail -1))" ;;
    *) echo "$1 $name: FAILED (exit $rc; tests failed under the tool: $(grep -c '\[  FAILED  \]' "$log"))" ;;
  esac
}
export -f sanitize_one; export cs out filter
# SANITIZE_PAIRS="racecheck:gheap_gpu_test[:FILTER] ..." runs only those (a rerun of the ones
# out of time, on smaller tests).
pairs() {
  set -f  # filters hold * and must not glob
  if [ -n "${SANITIZE_PAIRS:-}" ]; then
    for p in $SANITIZE_PAIRS; do
      IFS=: read -r tool bin pfilter <<<"$p"
      # No trailing blank without a filter: xargs -L would join the next pair to this line.
      echo "$tool $(echo "$bins" | grep "/$bin\$")${pfilter:+ $pfilter}"
    done
  else
    for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do for b in $bins; do echo "$tool $b"; done; done
  fi
}
results=$(pairs |
  xargs -P "${SANITIZE_JOBS:-4}" -L 1 bash -c 'sanitize_one "$0" "$1" "${2:-}"' | sort)
echo "$results" | tee "$out/sanitize.txt"
while read -r line; do summary+=("sanitize $line"); done <<<"$results"
fi
want bench && for b in ${BENCHES:-gpulin_bench_gheap gpulin_bench_merge gpulin_bench_check}; do
  bin=$(find build-gpu -name $b -type f -perm -u+x | head -1)
  [ -n "$bin" ] || continue
  log "$b"
  if [ "$mode" = quick ]; then timeout 300 "$bin" --quick --csv "$out/$b.csv" >"$out/$b.txt" 2>&1
  else timeout 540 "$bin" ${BENCH_ARGS:-} --csv "$out/$b.csv" >"$out/$b.txt" 2>&1; fi
  summary+=("$b: exit $? (table in $b.txt)")
done
echo
echo "================ device summary ================"
cat "$out/gpu.txt"
printf '%s\n' "${summary[@]}"
for b in gpulin_bench_gheap gpulin_bench_merge gpulin_bench_check gpulin_bench_slab gpulin_bench_psync gpulin_bench_p1 gpulin_bench_sssp; do [ -f "$out/$b.txt" ] && tail -25 "$out/$b.txt"; done
