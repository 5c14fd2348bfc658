#!/usr/bin/env bash
# On the lent GPU machine: an A/B comparison of one compile-time switch, both builds
# measured in the same call, alternating. A = the tree as sent (build-gpu); B = the
# same tree with -D$AB_DEFINE (build-gpu-b). Runs $AB_BENCH (a benchmark target) with
# $AB_ARGS, $AB_ROUNDS times each, A then B, and prints the lines matching $AB_GREP.
# The switch is one the tree under test reads (an #ifdef an experiment branch adds
# around the old code); AB_TARGETS names more targets to build in both trees.
# Usage: AB_DEFINE=GPULIN_OLD_QUEUE AB_BENCH=gpulin_bench_slab AB_ARGS="--only fig4" bash scripts/device-ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
source scripts/device-configure.sh
cmake -S . -B build-gpu-b "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_FLAGS="-D$AB_DEFINE" -DCMAKE_PREFIX_PATH="$prefix/usr;$prefix/usr/lib/x86_64-linux-gnu/cmake" \
  >"$out/configure-b.log" 2>&1 || { tail -30 "$out/configure-b.log"; exit 2; }
for b in build-gpu build-gpu-b; do
  cmake --build "$b" -j"$(nproc)" --target "$AB_BENCH" ${AB_TARGETS:-} >"$out/build-$b.log" 2>&1 \
    || { grep -E "error" "$out/build-$b.log" | head -30; exit 2; }
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
exe=$(find build-gpu/bench -name "$AB_BENCH" -type f | head -1)
exe_b=${exe/build-gpu/build-gpu-b}
for r in $(seq "${AB_ROUNDS:-2}"); do
  for side in A B; do
    e=$exe; [ $side = B ] && e=$exe_b
    # shellcheck disable=SC2086
    "$e" $AB_ARGS >"$out/ab-$side-$r.txt" 2>&1
    grep -E "${AB_GREP:-.}" "$out/ab-$side-$r.txt" | sed "s/^/$side$r /"
  done
done
