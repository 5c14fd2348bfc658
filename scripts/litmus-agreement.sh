#!/usr/bin/env bash
# gpulin litmus against a public PTX litmus suite with known verdicts: Dartagnan's
# (github.com/hernanponcedeleon/Dat3M: litmus/PTX/ and the PTX model's expected
# results, dartagnan/src/test/resources/PTXv7_5-expected.csv, where 1 means the
# test's condition holds and 0 that it does not, as `gpulin litmus` says them).
# Prints a line per disagreement and refusal, then the three numbers:
#   agreed;
#   forbidden produced: we reach an outcome the model forbids (an `exists` we say
#     holds, or a `~exists` / `forall` we break, where the model says otherwise): must be 0;
#   allowed missed: an outcome the model allows that the simulator cannot produce
#     (docs/memory-model.md says why for each shape);
# and the tests refused (what the simulator does not model), malformed (for our
# parser), out of budget, or hanging in every execution (barriers that never meet).
# Usage: scripts/litmus-agreement.sh DAT3M_CHECKOUT [GPULIN] [CSV]
set -uo pipefail
dat3m=${1:?usage: $0 DAT3M_CHECKOUT [GPULIN] [CSV]}
gpulin=${2:-build/tools/gpulin}
csv=${3:-$dat3m/dartagnan/src/test/resources/PTXv7_5-expected.csv}
[ -f "$csv" ] || { echo "no expected results at $csv" >&2; exit 2; }
[ -x "$gpulin" ] || { echo "no gpulin at $gpulin (scripts/build.sh builds it)" >&2; exit 2; }
agreed=0 forbidden=0 missed=0 refused=0 malformed=0 budget=0 hangs=0
while IFS=, read -r file want; do
  [ -n "$file" ] || continue
  path="$dat3m/$file"
  [ -f "$path" ] || { echo "missing: $file"; malformed=$((malformed + 1)); continue; }
  out=$("$gpulin" litmus --json --max-executions 2000000 "$path" 2>&1)
  case $out in
    *'"refused":'*) refused=$((refused + 1)); echo "refused: $file: $(echo "$out" | sed 's/.*"refused":"//; s/"}$//')"; continue ;;
    *'"error":'*) malformed=$((malformed + 1)); echo "malformed: $file: $(echo "$out" | sed 's/.*"error":"//; s/"}$//')"; continue ;;
  esac
  case $out in *'"complete":false'*) budget=$((budget + 1)); echo "budget: $file"; continue ;; esac
  # Every execution blocked at a barrier (ids that never meet): we run barriers as the
  # hardware does, Dartagnan's safety check does not block on them.
  case $out in *'"hangs":true'*) hangs=$((hangs + 1)); echo "hangs: $file (model: $want)"; continue ;; esac
  holds=0
  case $out in *'"holds":true'*) holds=1 ;; esac
  want=${want//[[:space:]]/}
  if [ "$holds" = "$want" ]; then
    agreed=$((agreed + 1))
    continue
  fi
  # Which way we differ depends on the quantifier: for exists, holding means the
  # outcome was reached; for ~exists and forall, not holding means an execution
  # broke the condition (an outcome reached).
  quantifier=$(grep -m1 -oE '^[[:space:]]*(~[[:space:]]*exists|exists|forall)' "$path" | tr -d '[:space:]')
  reached=$holds
  [ "$quantifier" != exists ] && reached=$((1 - holds))
  if [ "$reached" = 1 ]; then
    forbidden=$((forbidden + 1)); echo "FORBIDDEN PRODUCED: $file (model: $want, gpulin: $holds)"
  else
    missed=$((missed + 1)); echo "allowed missed: $file (model: $want, gpulin: $holds)"
  fi
done < <(grep -v '^#' "$csv")
echo "agreed $agreed, forbidden produced $forbidden, allowed missed $missed; refused $refused, malformed or missing $malformed, out of budget $budget, hang in every execution $hangs"
[ "$forbidden" = 0 ]
