#!/usr/bin/env bash
# On the lent GPU machine: whether the heap's batch accesses pay for being relaxed
# (.gpu) rather than plain (weak) ones. `gpulin ablate` finds them not needed in the
# TD heap (docs/findings.md, "Which orderings each structure needs": every batch
# access is made under a lock whose acquire and release order it) and needed in BU
# at six stores (its unlocked look at the ancestors, M5). Builds this tree and a copy
# whose execution context makes every batch load and store plain (cuda_context.cuh's
# gather and store_block, the only change), then gpulin_bench_gheap of each,
# alternating (relaxed, weak, relaxed, weak), and prints the rows side by side. The
# bench checks every run (sorted deletes, the same multiset out as in). Results go
# to $OUT (or out/device).
# Usage: bash scripts/device-weak-batches.sh [BENCH_ARGS...]  (default: --only table1,fig15 --max-log2n 24)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--only table1,fig15 --max-log2n 24)
source scripts/device-configure.sh
source scripts/device-tree-copy.sh
echo "== build (relaxed batches, as written)"
cmake --build build-gpu -j"$(nproc)" --target gpulin_bench_gheap >"$out/build.log" 2>&1 ||
  { grep -E "error" "$out/build.log" | head -30; exit 2; }
echo "== build (weak batches)"
weak=/tmp/gpulin-weak-batches
copy_tree "$weak"
python3 - "$weak/cuda/cuda_context.cuh" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
load = "if (i < n) v[u] = device_ref<Key>(*const_cast<Key*>(src_of(i))).load(cuda::memory_order_relaxed);"
store = "device_ref<Key>(dst[i]).store(src[i], cuda::memory_order_relaxed);"
assert load in s and store in s, "cuda_context.cuh's batch accesses are not as this script expects"
s = s.replace(load, "if (i < n) v[u] = *src_of(i);").replace(store, "dst[i] = src[i];")
open(p, "w").write(s)
PY
build_copy "$weak" "$out/weak" gpulin_bench_gheap || exit 2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
echo "== benchmarks: ${args[*]}"
ab_rounds "$out" relaxed build-gpu/bench/gheap/gpulin_bench_gheap weak "$weak/build-gpu/bench/gheap/gpulin_bench_gheap" "${args[@]}"
echo "== rows: total seconds relaxed, weak, weak/relaxed; checks (both rounds)"
python3 scripts/ab_rows.py "$out" relaxed weak total_s section name heap n k --also check
