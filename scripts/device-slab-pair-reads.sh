#!/usr/bin/env bash
# On the lent GPU machine: the slab hash's pair reads (x.load_lane_pairs, one 64-bit
# load per pair) against the word reads they replaced (x.load_lanes, one 32-bit load
# per lane), in one run: builds this tree and a copy of it whose read_slab uses word
# reads (the one line the change made), runs the slab and heap gpu tests on this
# tree, then gpulin_bench_slab of each, alternating (before, after, before, after),
# and prints the rows side by side. Results go to $OUT (or out/device).
# Usage: bash scripts/device-slab-pair-reads.sh [BENCH_ARGS...]  (default: --only fig4,fig7a --runs 5)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--only fig4,fig7a --runs 5)
source scripts/device-configure.sh
source scripts/device-tree-copy.sh
echo "== build (pair reads)"
cmake --build build-gpu -j"$(nproc)" --target gpulin_bench_slab slab_hash_gpu_test slab_mutant_gpu_test gheap_gpu_test \
  >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; exit 2; }
echo "== build (word reads)"
before=/tmp/gpulin-word-reads
copy_tree "$before"
# read_slab with the word reads: load_lanes for every mode.
python3 - "$before/structures/slab_hash/slab_list.h" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
old = "  if constexpr (ModeTraits<P::mode>::kPairs)\n    x.load_lane_pairs(r, [slab](uint32_t l) { return slab + l; });\n  else\n    x.load_lanes"
assert old in s, "read_slab is not as this script expects"
s = s.replace(old, "  x.load_lanes")
open(p, "w").write(s)
EOF
build_copy "$before" "$out/before" gpulin_bench_slab || exit 2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
echo "== gpu tests (slab, heap)"
ctest --test-dir build-gpu -L gpu -R "Slab|slab|Heap|heap" --output-on-failure --timeout 300 >"$out/gpu-tests.log" 2>&1
grep -E "tests passed|tests failed" "$out/gpu-tests.log" | tail -1
grep -E "Failed|\*\*\*" "$out/gpu-tests.log" | head -20
echo "== benchmarks: ${args[*]}"
for round in 1 2; do
  "$before/build-gpu/bench/slab_hash/gpulin_bench_slab" "${args[@]}" --csv "$out/word-reads-$round.csv" >"$out/word-reads-$round.txt" 2>&1
  build-gpu/bench/slab_hash/gpulin_bench_slab "${args[@]}" --csv "$out/pair-reads-$round.csv" >"$out/pair-reads-$round.txt" 2>&1
done
echo "== rows (median ms per timed run; word reads, pair reads, pair/word), both rounds"
python3 - "$out" <<'EOF'
import csv, sys, os
out = sys.argv[1]
def rows(name):
    with open(os.path.join(out, name)) as f:
        return {(r["section"], r["n"], r["param"], r["method"]): r for r in csv.DictReader(f)}
for rnd in (1, 2):
    w, p = rows(f"word-reads-{rnd}.csv"), rows(f"pair-reads-{rnd}.csv")
    for k in w:
        if k in p and w[k]["method"].startswith("slab"):
            try:
                a, b = float(w[k]["median"]), float(p[k]["median"])
            except ValueError:
                print(rnd, *k, w[k]["rate"], p[k]["rate"]); continue
            print(f"round {rnd} {k[0]:6} n={k[1]:>9} {k[2]:>14} {k[3]:28} {a:9.4f} {b:9.4f} {b / a:6.3f}")
EOF
