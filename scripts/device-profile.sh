#!/usr/bin/env bash
# On the lent GPU machine: build one benchmark, dump the SASS of its kernels and
# profile the kernels whose names match a pattern with Nsight Compute (registers,
# occupancy, stall reasons, instructions per operation). Results go to $OUT.
# Usage: bash scripts/device-profile.sh TARGET 'KERNEL_REGEX' [NCU_SET] -- BENCH_ARGS...
#   e.g. bash scripts/device-profile.sh gpulin_bench_slab 'slab_batch_kernel' detailed -- --only fig4 --quick --runs 1
# NCU_COUNT: how many matching launches to profile (default 4).
set -uo pipefail
cd "$(dirname "$0")/.."
target="$1"; regex="$2"; shift 2
set_name=detailed
if [ "${1:-}" != "--" ] && [ $# -gt 0 ]; then set_name="$1"; shift; fi
[ "${1:-}" = "--" ] && shift
out="${OUT:-out/profile}"
mkdir -p "$out"
source scripts/device-configure.sh
cmake --build build-gpu -j"$(nproc)" --target "$target" >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; exit 2; }
bin=$(find build-gpu -name "$target" -type f -perm -u+x | head -1)
cuobjdump -sass "$bin" > "$out/$target.sass" 2>&1 || true
cuobjdump -res-usage "$bin" 2>&1 | grep -B1 -A1 -E "$regex" > "$out/$target.res-usage" || true
ncu_bin=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -z "$ncu_bin" ]; then echo "no ncu on this machine"; exit 2; fi
# NCU_EXTRA: more ncu options (e.g. "--kernel-name-base mangled" to tell template instances apart).
# shellcheck disable=SC2086
timeout 500 "$ncu_bin" --set "$set_name" ${NCU_EXTRA:-} -k "regex:$regex" -c "${NCU_COUNT:-4}" -f -o "$out/profile" \
  "$bin" "$@" > "$out/bench.txt" 2> "$out/ncu.err"
echo "ncu exit $?"; tail -5 "$out/ncu.err"
"$ncu_bin" --import "$out/profile.ncu-rep" --csv --page details > "$out/ncu.csv" 2>>"$out/ncu.err"
# Per-instruction samples (stall reasons) beside the SASS, one file per profiled kernel.
"$ncu_bin" --import "$out/profile.ncu-rep" --csv --page source --print-source sass > "$out/ncu-source.csv" 2>>"$out/ncu.err"
grep -E '"(Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Duration|Executed Instructions|Warp Cycles Per Issued Instruction|Issue Slots Busy|L2 Hit Rate|Memory Throughput|DRAM Throughput|Block Size|Grid Size)"' "$out/ncu.csv" \
  | awk -F'","' '{printf "%-60.60s %-40s %s\n", $5, $(NF-2), $NF}' | head -80
