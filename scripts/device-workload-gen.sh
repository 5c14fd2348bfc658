#!/usr/bin/env bash
# On the lent GPU machine: how long `gpulin stress` takes to make the heap's workload
# at 2^29 keys, this tree (operations planned on the host, keys drawn on the GPU:
# structures/gheap/gpu/device_workload.h) against an older commit's (keys drawn on
# the host), in one run: the older tree from AB_TAR (git archive, carried in .ab/).
#   PART=build AB_TAR=.ab/COMMIT.tar bash scripts/device-workload-gen.sh   (both builds)
#   PART=run   AB_TAR=.ab/COMMIT.tar bash scripts/device-workload-gen.sh   (tests, rounds, table)
# Results go to $OUT (or out/device).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
source scripts/device-configure.sh
source scripts/device-tree-copy.sh
older=/tmp/gpulin-older
KEYS=${KEYS:-$((1<<29))}
if [[ ${PART:-build} == build ]]; then
  rm -rf "$older" && mkdir -p "$older" && tar -xf "$AB_TAR" -C "$older" && ln -s "$PWD/.debs" "$older/.debs"
  cmake --build build-gpu -j"$(nproc)" --target gpulin gheap_gpu_test >"$out/build.log" 2>&1 ||
    { grep -E "error" "$out/build.log" | head -30; exit 2; }
  build_copy "$older" "$out/older" gpulin || exit 2
  echo "built both"
  exit 0
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
build-gpu/tests/gpu/gheap_gpu_test --gtest_filter='HeapWorkloadOnGpu.*:HeapOnGpu*' >"$out/gheap-gpu-test.log" 2>&1
echo "gheap_gpu_test: $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/gheap-gpu-test.log" | tr '\n' ' ')"
args=(stress --structure gheap-td --variant fixed --blocks 128 --threads 512 --k 1024 --workload random --keys "$KEYS")
for round in 1 2; do
  for who in older this; do
    bin=build-gpu/tools/gpulin
    [[ $who == older ]] && bin="$older/build-gpu/tools/gpulin"
    t0=$(date +%s.%N)
    "$bin" "${args[@]}" >"$out/$who-$round.txt" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "$who round $round: exit $rc, wall $(python3 -c "print(f'{$t1 - $t0:.2f}')") s"
  done
done
echo "== workload generation at $KEYS keys (k = 1024, random; s)"
for who in older this; do
  for round in 1 2; do
    f="$out/$who-$round.txt"
    # older: the stage line "workload generated"; this: its own line.
    gen=$(grep -oE '\[stress +[0-9.]+ s\] workload generated' "$f" | grep -oE '[0-9.]+ s' | head -1)
    [[ -z $gen ]] && gen=$(grep -oE 'workload \(operations planned, keys drawn on the GPU\) [0-9.]+ s' "$f" | grep -oE '[0-9.]+ s$')
    kern=$(grep -oE 'kernels [0-9.]+ s' "$f" | head -1)
    verdict=$(grep -oE 'verdict: [A-Za-z]+|FAIL.*' "$f" | head -1)
    echo "$who round $round: workload $gen | $kern | ${verdict:-no verdict line}"
  done
done
