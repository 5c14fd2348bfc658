#!/usr/bin/env bash
# Regenerates the pages of the proof walkthroughs (docs/proofs/): histories the
# simulator records, each drawn by gpulin render. Usage: scripts/proof-pages.sh [OUT]
# (default docs/proofs/pages). Needs build/tools/gpulin (scripts/build.sh gpulin), or
# the binary named by $GPULIN.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/proofs/pages}
g=${GPULIN:-build/tools/gpulin}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
page() {  # HISTORY PAGE TITLE NOTE
  "$g" render "$1" -o "$out/$2" --title "$3" --note "$4" | sed 's/^/page: /'
}
# Theorem 3.2 (TD-INS/TD-DEL, root-release points): a run of the fixed heap, two
# actors, five operations, where the points work ...
"$g" replay --schedule 'gheap-td:fixed:k=4:t=2|i60-62-10-40,d,d;i36-23-4-18,i2-1-19-20|1*17.0*34.1*3' >"$tmp/td.jsonl" 2>/dev/null
page "$tmp/td.jsonl" td-root-release-holds.html "Theorem 3.2 holds: TD heap (fixed), root-release points" \
  "gheap-td:fixed:k=4:t=2|i60-62-10-40,d,d;i36-23-4-18,i2-1-19-20|1*17.0*34.1*3"
# ... and a mutant that releases the root before it holds the smallest keys.
"$g" explore --structure gheap-td --variant fixed --mutant early-root-release --strategy pct --schedules 200 --seed 1 \
  --out "$tmp/td-mut" >/dev/null 2>&1 || true
page "$tmp/td-mut/gheap-td-fixed-early-root-release-violation.jsonl" td-early-root-release.html \
  "Theorem 3.2 fails: TD heap with the early-root-release mutant" \
  "$(grep -m1 '^gheap' "$tmp/td-mut/gheap-td-fixed-early-root-release-violation.schedule")"
# Theorem 3.4 (BU-INS/TD-DEL, last-lock points: the paper variant's rule) ...
"$g" replay --schedule 'gheap-bu:paper:k=4:t=2|i6-40-33-3,d;i31-46-33-34,d|1.0*40' >"$tmp/bu.jsonl" 2>/dev/null
page "$tmp/bu.jsonl" bu-last-lock-holds.html "Theorem 3.4 holds: BU heap (paper), last-lock points" \
  "gheap-bu:paper:k=4:t=2|i6-40-33-3,d;i31-46-33-34,d|1.0*40"
# ... and a mutant that skips the partial buffer's merge (property 3).
"$g" explore --structure gheap-bu --variant paper --mutant skip-partial-merge --actors 3 --strategy pct --schedules 3000 \
  --seed 2 --out "$tmp/bu-mut" >/dev/null 2>&1 || true
page "$tmp/bu-mut/gheap-bu-paper-skip-partial-merge-violation.jsonl" bu-skip-partial-merge.html \
  "Theorem 3.4 fails: BU heap (paper) with the skip-partial-merge mutant" \
  "$(grep -m1 '^gheap' "$tmp/bu-mut/gheap-bu-paper-skip-partial-merge-violation.schedule")"
