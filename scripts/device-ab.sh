#!/usr/bin/env bash
# On the lent GPU machine: an A/B comparison of compile-time switches, every build
# measured in the same call, alternating. A = the tree as sent (build-gpu); each
# switch S in $AB_DEFINE (one or several, space-separated) = the same tree with -DS
# (build-gpu-S). Runs $AB_BENCH (a benchmark target) with $AB_ARGS, $AB_ROUNDS times
# each, A then every switch in turn, and prints the lines matching $AB_GREP, each led
# by its side (A, or the switch) and round. The switches are ones the tree under test
# reads (an #ifdef an experiment branch adds around the old code, or a variant that
# leaves one part out to price it); AB_TARGETS names more targets to build in every tree.
# Usage: AB_DEFINE=GPULIN_OLD_QUEUE AB_BENCH=gpulin_bench_slab AB_ARGS="--only fig4" bash scripts/device-ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
source scripts/device-configure.sh
read -r -a switches <<<"$AB_DEFINE"
for s in "${switches[@]}"; do
  cmake -S . -B "build-gpu-$s" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_FLAGS="-D$s" -DCMAKE_PREFIX_PATH="$prefix/usr;$prefix/usr/lib/x86_64-linux-gnu/cmake" \
    >"$out/configure-$s.log" 2>&1 || { tail -30 "$out/configure-$s.log"; exit 2; }
done
# The builds side by side (each one's nvcc jobs are few and long), in the
# foreground, so that a failed build ends the script.
trees=(build-gpu)
for s in "${switches[@]}"; do trees+=("build-gpu-$s"); done
jobs_each=$(( $(nproc) / ${#trees[@]} )); [ "$jobs_each" -lt 2 ] && jobs_each=2
pids=()
for b in "${trees[@]}"; do
  cmake --build "$b" -j"$jobs_each" --target "$AB_BENCH" ${AB_TARGETS:-} >"$out/build-$b.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "build ${trees[$i]} failed:"; grep -E "error" "$out/build-${trees[$i]}.log" | head -30; failed=1; }
done
[ "$failed" = 0 ] || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
exe=$(find build-gpu/bench -name "$AB_BENCH" -type f | head -1)
for r in $(seq "${AB_ROUNDS:-2}"); do
  for side in A "${switches[@]}"; do
    e=$exe; [ "$side" = A ] || e=${exe/build-gpu/build-gpu-$side}
    # shellcheck disable=SC2086
    "$e" $AB_ARGS >"$out/ab-$side-$r.txt" 2>&1
    grep -E "${AB_GREP:-.}" "$out/ab-$side-$r.txt" | sed "s/^/$side$r /"
  done
done
