#!/usr/bin/env bash
# Every built-in mutant of every structure under the exploration strategy portfolio:
# the first failing schedule (0-based) of `gpulin explore` on seeds 1..SEEDS, each
# run capped at SCHEDULES, at the structure's default sizes. A mutant whose bug is
# one of memory ordering (the relaxed-locks ones) runs under --memory ptx. "-": not
# caught within the cap. A control (CONTROLS: the TD heap's relaxed-locks-fenced,
# which must pass, findings.md M-section) is marked so. VARIANT_ARGS adds options
# to every run (say "--variant fixed" for the fixed multimap alone, with ONLY).
# Prints one row per mutant and a summary line last.
#
#   GPULIN=build/tools/gpulin SEEDS=10 SCHEDULES=1000 STRATEGY=portfolio scripts/mutant-catch-table.sh
set -euo pipefail
GPULIN=${GPULIN:-build/tools/gpulin}
SEEDS=${SEEDS:-10}
SCHEDULES=${SCHEDULES:-1000}
STRATEGY=${STRATEGY:-portfolio}
JOBS=${JOBS:-$(nproc)}
CONTROLS=${CONTROLS:-"gheap-td:relaxed-locks-fenced"}
ONLY=${ONLY:-}
VARIANT_ARGS=${VARIANT_ARGS:-}

# "structure mutant" pairs, from gpulin list.
pairs=$("$GPULIN" list | awk '/^[a-z]/ {s=$1} /^  mutants:/ {sub(/^  mutants: +/, ""); n=split($0, m, /, /); for (i = 1; i <= n; i++) print s, m[i]}')
if [[ -n "$ONLY" ]]; then pairs=$(awk -v only="$ONLY" '$1 == only' <<<"$pairs"); fi

one() {  # structure mutant seed -> "structure mutant seed first"
  local memory=""
  case "$2" in relaxed-locks*) memory="--memory ptx" ;; esac
  local first
  first=$("$GPULIN" explore --structure "$1" --mutant "$2" --seed "$3" --schedules "$SCHEDULES" --strategy "$STRATEGY" \
            --no-shrink --json $memory $VARIANT_ARGS 2>/dev/null |
          python3 -c 'import json,sys
d = json.load(sys.stdin)
s = [f["schedule"] for f in d["first_failures"] if f["kind"] not in ("undecided",)]
print(min(s) if s else "-")' || echo "error")
  echo "$1 $2 $3 $first"
}
export -f one
export GPULIN SCHEDULES STRATEGY VARIANT_ARGS

results=$(while read -r s m; do for seed in $(seq 1 "$SEEDS"); do echo "$s $m $seed"; done; done <<<"$pairs" |
          xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _)

printf "%-14s %-26s %s\n" structure mutant "first failing schedule, seeds 1..$SEEDS ($STRATEGY, cap $SCHEDULES)"
caught_all=0; total=0; controls=0
while read -r s m; do
  if [[ " $CONTROLS " == *" $s:$m "* ]]; then
    printf "%-14s %-26s  a control that must pass: caught on seeds:" "$s" "$m"
    for seed in $(seq 1 "$SEEDS"); do
      v=$(awk -v s="$s" -v m="$m" -v k="$seed" '$1 == s && $2 == m && $3 == k {print $4}' <<<"$results")
      [[ "$v" == "-" ]] || printf " %s(at %s)" "$seed" "$v"
    done
    echo
    controls=$((controls + 1))
    continue
  fi
  row=""; all=1
  for seed in $(seq 1 "$SEEDS"); do
    v=$(awk -v s="$s" -v m="$m" -v k="$seed" '$1 == s && $2 == m && $3 == k {print $4}' <<<"$results")
    row+=$(printf "%6s" "$v")
    [[ "$v" =~ ^[0-9]+$ ]] || all=0
  done
  printf "%-14s %-26s%s\n" "$s" "$m" "$row"
  total=$((total + 1)); caught_all=$((caught_all + all))
done <<<"$pairs"
echo "caught on every seed: $caught_all of $total mutants (and $controls controls)"
