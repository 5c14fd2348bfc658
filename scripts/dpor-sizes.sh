#!/usr/bin/env bash
# DPOR against bounded DFS on a structure's programs of growing size: for each
# actors x operations, DPOR's traces (runs, sleep-set blocked runs, seconds, complete
# or not within LIMIT seconds: the traces run by then are counted) beside DFS's
# schedules at preemption bound 2 and the distinct traces among them (DFS=0: not run).
# One machine, one run each, the same program (seed).
#
#   GPULIN=build/tools/gpulin STRUCTURE=gheap-td SIZES="2x2 3x1 2x3 3x2 3x3" LIMIT=600 scripts/dpor-sizes.sh
#   STRUCTURE=slab-set ACTORS=--warps SIZES="2x1 2x2 3x1" EXTRA="--keys 4" DFS=0 scripts/dpor-sizes.sh
set -uo pipefail
GPULIN=${GPULIN:-build/tools/gpulin}
STRUCTURE=${STRUCTURE:-gheap-td}
SIZES=${SIZES:-"2x2 3x1 2x3 3x2 3x3"}
LIMIT=${LIMIT:-600}
SEED=${SEED:-1}
ACTORS=${ACTORS:---actors}  # the flag of the first number (slab: --warps; merge: --blocks)
OPS=${OPS:---ops}           # the flag of the second (merge: --len)
EXTRA=${EXTRA:-}
DFS=${DFS:-1}

field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

printf "%-13s %-6s %12s %10s %10s %9s %-11s | %12s %9s %9s\n" structure size "dpor traces" runs blocked seconds \
  complete "dfs(2) runs" traces seconds
for size in $SIZES; do
  a=${size%x*}; o=${size#*x}
  args="--structure $STRUCTURE $ACTORS $a $OPS $o $EXTRA --seed $SEED --schedules 100000000000 --no-shrink --json"
  t0=$(date +%s.%N)
  dpor=$("$GPULIN" explore $args --strategy dpor --time-limit "$LIMIT" 2>/dev/null)
  t1=$(date +%s.%N)
  if [[ -n "$dpor" ]]; then
    traces=$(field "d['traces']" <<<"$dpor"); druns=$(field "d['schedules']" <<<"$dpor")
    blocked=$(field "d['dpor']['redundant']" <<<"$dpor")
    complete=$(field "'yes' if d['dpor']['complete'] else ('no (>${LIMIT}s)' if d['timed_out'] else 'no')" <<<"$dpor")
  else
    traces="-"; druns="-"; blocked="-"; complete="error"
  fi
  secs=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  runs="-"; dtraces="-"; dsecs="-"
  if [[ $DFS == 1 ]]; then
    t0=$(date +%s.%N)
    dfs=$("$GPULIN" explore $args --strategy dfs --preemptions 2 --time-limit "$LIMIT" 2>/dev/null)
    t1=$(date +%s.%N)
    if [[ -n "$dfs" ]]; then
      runs=$(field "d['schedules']" <<<"$dfs"); dtraces=$(field "d['traces']" <<<"$dfs")
    fi
    dsecs=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  fi
  printf "%-13s %-6s %12s %10s %10s %9s %-11s | %12s %9s %9s\n" "$STRUCTURE" "$size" "$traces" "$druns" "$blocked" \
    "$secs" "$complete" "$runs" "$dtraces" "$dsecs"
done
