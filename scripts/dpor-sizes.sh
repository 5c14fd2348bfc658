#!/usr/bin/env bash
# DPOR against bounded DFS on a structure's programs of growing size: for each
# actors x operations, DPOR's traces (runs, sleep-set blocked runs, seconds, complete
# or not within LIMIT seconds) beside DFS's schedules at preemption bound 2 and the
# distinct traces among them. One machine, one run each, the same program (seed).
#
#   GPULIN=build/tools/gpulin STRUCTURE=gheap-td SIZES="2x2 3x1 2x3 3x2 3x3" LIMIT=600 scripts/dpor-sizes.sh
set -uo pipefail
GPULIN=${GPULIN:-build/tools/gpulin}
STRUCTURE=${STRUCTURE:-gheap-td}
SIZES=${SIZES:-"2x2 3x1 2x3 3x2 3x3"}
LIMIT=${LIMIT:-600}
SEED=${SEED:-1}

field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

printf "%-10s %-6s %12s %10s %10s %9s %-9s | %12s %9s %9s\n" structure size "dpor traces" runs blocked seconds \
  complete "dfs(2) runs" traces seconds
for size in $SIZES; do
  a=${size%x*}; o=${size#*x}
  args="--structure $STRUCTURE --actors $a --ops $o --seed $SEED --schedules 1000000000 --no-shrink --json"
  t0=$(date +%s.%N)
  dpor=$(timeout "$LIMIT" "$GPULIN" explore $args --strategy dpor 2>/dev/null)
  rc=$?
  t1=$(date +%s.%N)
  if [[ $rc -le 1 && -n "$dpor" ]]; then
    traces=$(field "d['traces']" <<<"$dpor"); druns=$(field "d['schedules']" <<<"$dpor"); blocked=$(field "d['dpor']['redundant']" <<<"$dpor")
    complete=$(field "'yes' if d['dpor']['complete'] else 'no'" <<<"$dpor")
  else
    traces="-"; druns="-"; blocked="-"; complete="no (>${LIMIT}s)"
  fi
  secs=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  t0=$(date +%s.%N)
  dfs=$(timeout "$LIMIT" "$GPULIN" explore $args --strategy dfs --preemptions 2 2>/dev/null)
  t1=$(date +%s.%N)
  if [[ -n "$dfs" ]]; then
    runs=$(field "d['schedules']" <<<"$dfs"); dtraces=$(field "d['traces']" <<<"$dfs")
  else
    runs="-"; dtraces="-"
  fi
  dsecs=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  printf "%-10s %-6s %12s %10s %10s %9s %-9s | %12s %9s %9s\n" "$STRUCTURE" "$size" "$traces" "$druns" "$blocked" "$secs" "$complete" \
    "$runs" "$dtraces" "$dsecs"
done
