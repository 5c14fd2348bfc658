#!/usr/bin/env bash
# The main job: explore both heaps in both variants in the simulator, one table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh gpulin
mkdir -p out
set +e
./build/tools/gpulin survey --schedules "${GPULIN_SCHEDULES:-10000}" --out out/survey "$@"
rc=$?
echo "minimal failing histories and schedules: out/survey/ (exit $rc: 0 when the fixed heaps pass)"
exit $rc
