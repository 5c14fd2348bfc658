#!/usr/bin/env bash
# scripts/plot-results.py (bench/results/README.md's plots): on a copy of the results,
# it writes every figure as SVG, each naming its GPU and the commit of its numbers;
# a CSV whose commit is named nowhere is refused with the file named.
# Usage: plot_results_test.sh SOURCE_DIR SCRATCH_DIR
set -uo pipefail
src=$1 scratch=$2
if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  echo "python3-matplotlib is not installed (scripts/setup.sh installs it): test skipped"
  exit 77
fi
rm -rf "$scratch" && mkdir -p "$scratch" && cp -r "$src/bench/results" "$scratch/results"
fail=0
/usr/bin/python3 "$src/scripts/plot-results.py" "$scratch/results" >"$scratch/out.txt" 2>&1 || { cat "$scratch/out.txt"; exit 1; }
for f in gheap-table1 gheap-figs13-16 gheap-table1-authors slab-figs4-7 slab-original merge psync-figs8-12 sssp; do
  svg="$scratch/results/plots/$f.svg"
  [ -s "$svg" ] || { echo "FAIL: $f.svg not written"; fail=1; continue; }
  grep -q "NVIDIA" "$svg" || { echo "FAIL: $f.svg names no GPU"; fail=1; }
  grep -Eq "commit [0-9a-f]{7}" "$svg" || { echo "FAIL: $f.svg names no commit"; fail=1; }
done
# The same data, the same drawing: the committed plots are up to date.
for svg in "$scratch"/results/plots/*.svg; do
  cmp -s "$svg" "$src/bench/results/plots/$(basename "$svg")" ||
    { echo "FAIL: bench/results/plots/$(basename "$svg") differs from what the script draws (run scripts/plot-results.py)"; fail=1; }
done
# A CSV whose commit nothing names: refused, the file named.
sed -i 's/^| `sssp-h200.*$//' "$scratch/results/README.md"
printf 'no commit here\n' >"$scratch/results/sssp-h200.txt"
if /usr/bin/python3 "$src/scripts/plot-results.py" "$scratch/results" >"$scratch/bad.txt" 2>&1; then
  echo "FAIL: a CSV with no commit was drawn"; fail=1
elif ! grep -q "sssp-h200.csv: no commit named" "$scratch/bad.txt"; then
  echo "FAIL: the refusal does not name the file:"; cat "$scratch/bad.txt"; fail=1
fi
[ $fail = 0 ] && echo "plots: every figure drawn, each naming its GPU and commit"
exit $fail
