#!/usr/bin/env bash
# On the lent GPU machine: what the orderings dropped from the generalized heaps'
# claims and the bucket heap's counts cost the GPU when they are there. `gpulin
# ablate` never found them needed (docs/findings.md, "Which orderings each structure
# needs"); the code goes without them. Builds this tree and a copy with the eight put
# back (scripts/put_back_orderings.py), then runs gpulin_bench_gheap (Table 1) and
# gpulin_bench_sssp (PARDIJKSTRA on the bucket heap) of each, alternating (ordered,
# as written, ordered, as written), and prints the rows side by side. Both benches
# check every run (the heap's deletes sorted, its multiset kept; every distance equal
# to BGL's). Results go to $OUT (or out/device).
# Usage: [PARTS="heap sssp"] bash scripts/device-dropped-orderings.sh   (PARTS: which benches; default both)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
source scripts/device-configure.sh
source scripts/device-tree-copy.sh
parts=" ${PARTS:-heap sssp} "
targets=()
[[ $parts == *" heap "* ]] && targets+=(gpulin_bench_gheap)
[[ $parts == *" sssp "* ]] && targets+=(gpulin_bench_sssp)
echo "== build (as written: the orderings dropped)"
cmake --build build-gpu -j"$(nproc)" --target "${targets[@]}" >"$out/build.log" 2>&1 ||
  { grep -E "error" "$out/build.log" | head -30; exit 2; }
echo "== build (the orderings put back)"
ordered=/tmp/gpulin-orderings-back
copy_tree "$ordered"
python3 scripts/put_back_orderings.py "$ordered" || exit 2
build_copy "$ordered" "$out/ordered" "${targets[@]}" || exit 2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
if [[ $parts == *" heap "* ]]; then
  echo "== heap: Table 1 up to 2^24"
  ab_rounds "$out" heap-ordered "$ordered/build-gpu/bench/gheap/gpulin_bench_gheap" heap-dropped \
    build-gpu/bench/gheap/gpulin_bench_gheap --only table1 --max-log2n 24
fi
if [[ $parts == *" sssp "* ]]; then
  echo "== PARDIJKSTRA: n = 30000, m = 10^6 and 10^7"
  ab_rounds "$out" sssp-ordered "$ordered/build-gpu/bench/sssp/gpulin_bench_sssp" sssp-dropped \
    build-gpu/bench/sssp/gpulin_bench_sssp --n 30000 --edges 1000000,10000000 --reps 3
fi
echo "== rows: seconds ordered, dropped (as written), dropped/ordered (both rounds)"
if [[ $parts == *" heap "* ]]; then
  python3 scripts/ab_rows.py "$out" heap-ordered heap-dropped total_s section name heap n k --also check
fi
if [[ $parts == *" sssp "* ]]; then
  python3 scripts/ab_rows.py "$out" sssp-ordered sssp-dropped median_s m method --also wrong
fi
