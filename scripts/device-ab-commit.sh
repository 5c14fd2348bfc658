#!/usr/bin/env bash
# On the lent GPU machine: one benchmark of this tree against the same benchmark of an
# older commit, in one call, alternating (older, this, older, this), and the rows side
# by side. The device has no git: make the older tree here first, in the ignored .ab/
# folder, and carry it:
#   git archive --format=tar -o .ab/COMMIT.tar COMMIT      (here; then carry [".debs", ".ab"])
#   AB_TAR=.ab/COMMIT.tar AB_BENCH=gpulin_bench_merge AB_ARGS="--n 100000000" \
#     AB_ROWS="median_ms type n_per_array method --also check" bash scripts/device-ab-commit.sh
# AB_ROWS: scripts/ab_rows.py's TIME_COLUMN LABEL_COLUMN... [--also COLUMN] for the bench's CSV.
# Results go to $OUT (or out/device): older-R and this-R, .txt and .csv.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
source scripts/device-configure.sh
source scripts/device-tree-copy.sh
older=/tmp/gpulin-older
rm -rf "$older" && mkdir -p "$older" && tar -xf "$AB_TAR" -C "$older" && ln -s "$PWD/.debs" "$older/.debs"
echo "== build (this tree, and $(basename "$AB_TAR" .tar))"
cmake --build build-gpu -j"$(nproc)" --target "$AB_BENCH" >"$out/build.log" 2>&1 ||
  { grep -E "error" "$out/build.log" | head -30; exit 2; }
build_copy "$older" "$out/older" "$AB_BENCH" || exit 2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
read -r -a args <<<"${AB_ARGS:-}"
ab_rounds "$out" older "$(find "$older/build-gpu/bench" -name "$AB_BENCH" -type f | head -1)" \
  this "$(find build-gpu/bench -name "$AB_BENCH" -type f | head -1)" "${args[@]}"
echo "== rows: older, this, this/older (both rounds)"
read -r -a rows <<<"${AB_ROWS:-median_ms method}"
python3 scripts/ab_rows.py "$out" older this "${rows[@]}"
