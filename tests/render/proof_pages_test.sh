#!/usr/bin/env bash
# The proof walkthroughs' pages (docs/proofs/) still come out of scripts/proof-pages.sh:
# four pages, the fixed runs linearizable by the proofs' points, the mutants' runs
# not, each naming the step where the rule's replay fails.
# Usage: proof_pages_test.sh GPULIN SOURCE_DIR OUT
set -uo pipefail
gpulin=$1 src=$2 out=$3
rm -rf "$out"
GPULIN=$gpulin bash "$src/scripts/proof-pages.sh" "$out" || { echo "FAIL: scripts/proof-pages.sh"; exit 1; }
check() {  # PAGE VERDICT
  [ -s "$out/$1" ] || { echo "FAIL: no $1"; exit 1; }
  grep -q "\"verdict\":\"$2\"" "$out/$1" || { echo "FAIL: $1 does not say $2"; exit 1; }
  grep -q "window.gpulin" "$out/$1" || { echo "FAIL: $1 has no script"; exit 1; }
}
check td-root-release-holds.html linearizable
check bu-last-lock-holds.html linearizable
check td-early-root-release.html "not linearizable"
check bu-skip-partial-merge.html "not linearizable"
grep -q '"fail_t":[0-9]' "$out/td-early-root-release.html" || { echo "FAIL: the TD mutant's page marks no failing point"; exit 1; }
grep -q '"fail_t":[0-9]' "$out/bu-skip-partial-merge.html" || { echo "FAIL: the BU mutant's page marks no failing point"; exit 1; }
echo "PASS: four walkthrough pages"
