#!/usr/bin/env bash
# The proof walkthroughs' pages (docs/proofs/) still come out of scripts/proof-pages.sh
# with the verdicts the walkthroughs describe: the runs where the argument holds
# linearizable by their points, the mutants' runs not, each naming the step where the
# rule's replay fails and the result the walkthrough quotes; the merge's text pages
# with the replay's verdict against std::merge; every page with its stepper.
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
# The other structures' walkthroughs: a fact the text quotes, on each page.
fact() {  # PAGE TEXT
  grep -qF -- "$2" "$out/$1" || { echo "FAIL: $1 does not say: $2"; exit 1; }
}
check slab-points-hold.html linearizable
fact slab-points-hold.html '"points":[[0,2,"{0:2}"],[1,4,"{0:1}"],[2,7,"{}"],[3,10,"{}"]]'
check slab-insert-no-reread.html "not linearizable"
fact slab-insert-no-reread.html "op 2 (search [0]) at its point, t 11, after 3 ops in the rule's order: the model answers null, the op returned 1"
check psync-cycles-hold.html linearizable
fact psync-cycles-hold.html '[4,0,"cycle","[]","[8,9]"'
check psync-no-barrier.html "not linearizable"
fact psync-no-barrier.html "op 4 (cycle []) at its point, t 14, after 4 ops in the rule's order: the model answers [8,9], the op returned [8,10]"
check bucket-theorem-1-holds.html linearizable
fact bucket-theorem-1-holds.html '[11,0,"extractmin","[]","[5,881774]"'
check bucket-every-third.html "not linearizable"
fact bucket-every-third.html "op 11 (extractmin []) at its point, t 35, after 11 ops in the rule's order: the model answers [5,881774], the op returned null"
check bucket-b2-precondition.html linearizable
fact bucket-b2-precondition.html "invariant: before RESOLVE(0): |B_i+1| = 4 < d 2^(2(i+1)) + d 2^(2i)"
for p in slab-insert-no-reread psync-no-barrier bucket-every-third; do
  grep -q '"fail_t":[0-9]' "$out/$p.html" || { echo "FAIL: $p.html marks no failing point"; exit 1; }
done
fact merge-partition-holds.txt "run: completed (37 scheduling points); verdict: pass"
fact merge-window-overrun.txt "verdict: violation: wrong result: output[26] is 14 (A[16]), std::merge has 13 (B[10])"
# The merge's replay pages say what its check found, not a linearizability verdict.
fact merge-partition-holds.html '"verdict_text":"output as expected"'
fact merge-window-overrun.html '"verdict_text":"wrong output"'
# Every page steps through its run: the stepper's drawing and states are in it (a page
# without a schedule its row replays says "No stepper" instead).
for h in "$out"/*.html; do
  grep -q '"stepper":{"draw"' "$h" || { echo "FAIL: $(basename "$h") has no stepper"; exit 1; }
done
echo "PASS: thirteen walkthrough pages, each with its stepper, and two merge replays"
