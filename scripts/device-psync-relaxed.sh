#!/usr/bin/env bash
# On the lent GPU machine: whether the P-Sync heap's delete-table orderings pay for
# themselves. `gpulin ablate --structure psync` showed none of its ordering sites
# needed (bench/results/ablate/psync-vm-2c.txt): each update step is a kernel of its
# own and a kernel boundary orders everything, so within a step no two blocks share a
# word one writes. The code reads and writes the delete table relaxed; this builds it
# and a copy whose delete-table accesses are ordered again (the load acquire, the
# stores release: structures/psync's `exec::relaxed` dropped, the only change), runs
# each bench alternating (as written, ordered, as written, ordered) and prints the rows
# side by side. The bench checks every run (each cycle's keys sorted and no smaller
# than the last, the heap at rest after). Results go to $OUT (or out/device).
# Usage: bash scripts/device-psync-relaxed.sh [BENCH_ARGS...]   (default: --only table1 --runs 3)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--only table1 --runs 3)
source scripts/device-configure.sh
source scripts/device-tree-copy.sh
echo "== build (as written: the delete table relaxed)"
cmake --build build-gpu -j"$(nproc)" --target gpulin_bench_psync >"$out/build.log" 2>&1 ||
  { grep -E "error" "$out/build.log" | head -30; exit 2; }
echo "== build (delete table ordered)"
ordered=/tmp/gpulin-psync-ordered
copy_tree "$ordered"
python3 - "$ordered/structures/psync" <<'PY'
import glob, sys
n = 0
for p in glob.glob(sys.argv[1] + "/*.h"):
    s = open(p).read()
    lines = s.split("\n")
    for i, l in enumerate(lines):
        if "h.delete_table" in l and ", exec::relaxed)" in l:
            lines[i] = l.replace(", exec::relaxed)", ")")
            n += 1
    open(p, "w").write("\n".join(lines))
assert n == 5, f"expected P-Sync's five relaxed delete-table accesses, found {n}"
print("ordered again: 5 delete-table accesses")
PY
build_copy "$ordered" "$out/ordered" gpulin_bench_psync || exit 2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
echo "== benchmarks: ${args[*]}"
ab_rounds "$out" ordered "$ordered/build-gpu/bench/psync/gpulin_bench_psync" relaxed build-gpu/bench/psync/gpulin_bench_psync "${args[@]}"
echo "== rows: median seconds ordered, relaxed (as written), relaxed/ordered (both rounds)"
python3 scripts/ab_rows.py "$out" ordered relaxed median_s section r n s t method
