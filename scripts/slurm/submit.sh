#!/usr/bin/env bash
# Submits a sharded exploration to Slurm: an array of SHARDS tasks (one shard each,
# explore-shard.sbatch), then the merge (merge.sbatch) once all of them succeeded.
# Usage: scripts/slurm/submit.sh SHARDS REPORTS_DIR EXPLORE_ARGS...
#   e.g. scripts/slurm/submit.sh 64 reports/dfs-4x3 --actors 4 --ops 3 --strategy dfs \
#        --preemptions 2 --schedules 1000000000
# GPULIN names the gpulin binary (default: gpulin on PATH); SBATCH_ARGS are passed
# to both sbatch calls (partition, account, time limit).
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,9p "$0"; exit 2; }
shards="$1"
reports="$(realpath -m "$2")"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$reports"
export SHARDS="$shards" REPORTS="$reports" GPULIN="${GPULIN:-gpulin}"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --export=ALL --array="1-$shards" "$here/explore-shard.sbatch" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --export=ALL --dependency="afterok:${array%%;*}" "$here/merge.sbatch")
echo "array job $array ($shards shards), merge job $merge; reports in $reports"
