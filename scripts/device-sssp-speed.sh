#!/usr/bin/env bash
# On the lent GPU machine: PARDIJKSTRA's speed against an older commit in one call
# (issue 40's "2x faster than today, the same GPU"). Builds this tree's SSSP GPU tests
# and runs them, then device-ab-commit.sh's alternating rounds of gpulin_bench_sssp
# (older, this, older, this), then this tree's profiled run and its runs at level
# blocks of 512 and 1024 threads. Results go to $OUT.
# Make the older tree here first: git archive --format=tar -o .ab/COMMIT.tar COMMIT
# The part "levelops" (not in the default) builds and runs gpulin_bench_level_ops: one
# block's passes over a level, step by step, without a whole SSSP run.
# Usage (carry [".debs", ".ab"]): AB_TAR=.ab/COMMIT.tar SSSP_EDGES=1000000,10000000 \
#   [SSSP_REPS=2] [SSSP_PARTS="tests ab profile threads levelops"] bash scripts/device-sssp-speed.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
parts=" ${SSSP_PARTS:-tests ab profile threads} "
edges="${SSSP_EDGES:-1000000,3000000,10000000,80000000}"
reps="${SSSP_REPS:-2}"
if [[ $parts == *" tests "* ]]; then
  OUT="$out/tests" TARGETS="gpulin_bench_sssp sssp_gpu_test gpu_primitives_test bucket_heap_gpu_test" \
    TESTS_REGEX="BlockCollectives|BlockTileMerge|Pardijkstra|NearFar|BucketHeap" bash scripts/device.sh quick tests | tail -5
fi
if [[ $parts == *" ab "* ]]; then
  OUT="$out/ab" AB_BENCH=gpulin_bench_sssp AB_ARGS="--edges $edges --reps $reps --skip-after 0" \
    AB_ROWS="median_s m method" bash scripts/device-ab-commit.sh | grep -iE "pardijkstra|round|FAIL|error" | head -40
fi
bin=build-gpu/bench/sssp/gpulin_bench_sssp
if [[ $parts == *" profile "* ]]; then
  "$bin" --edges "$edges" --reps 1 --profile >"$out/profile.txt" 2>&1
  grep -E "hand-off|m +[0-9]+:|profile:" "$out/profile.txt"
fi
if [[ $parts == *" threads "* ]]; then
  for t in 512 1024; do
    "$bin" --edges "$edges" --reps "$reps" --threads "$t" >"$out/threads-$t.txt" 2>&1
    grep -E "m +[0-9]+:" "$out/threads-$t.txt"
  done
fi
if [[ $parts == *" levelops "* ]]; then
  source scripts/device-configure.sh >/dev/null  # the environment, and build-gpu configured
  cmake --build build-gpu -j16 --target gpulin_bench_level_ops >"$out/levelops-build.log" 2>&1 ||
    { tail -20 "$out/levelops-build.log"; exit 1; }
  build-gpu/bench/sssp/gpulin_bench_level_ops | tee "$out/levelops.txt"
fi
