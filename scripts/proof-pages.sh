#!/usr/bin/env bash
# Regenerates the pages of the proof walkthroughs (docs/proofs/): histories the
# simulator records, each drawn by gpulin render (the merge's: the replay's text).
# Every run is replayed from the replay string its walkthrough quotes, so the pages
# come out the same each time. Usage: [SHOTS=1] scripts/proof-pages.sh [OUT] (default
# docs/proofs/pages). Needs build/tools/gpulin (scripts/build.sh gpulin), or the
# binary named by $GPULIN.
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
# ... and a mutant that releases the root before it holds the smallest keys (found by
# gpulin explore --structure gheap-td --variant fixed --mutant early-root-release
# --strategy pct --schedules 200 --seed 1 when the walkthrough was written; replayed
# here, so that the page stays the run the text describes).
s='gheap-td:fixed:k=4:t=2:mutant=early-root-release|d;i46-57-12-29,i31-28-19-33,d|1*2.0*2.1.0*3.1.0*3.1*4.0*5.1'
"$g" replay --schedule "$s" >"$tmp/td-mut.jsonl" 2>/dev/null || true
page "$tmp/td-mut.jsonl" td-early-root-release.html "Theorem 3.2 fails: TD heap with the early-root-release mutant" "$s"
# Theorem 3.4 (BU-INS/TD-DEL, last-lock points: the paper variant's rule) ...
"$g" replay --schedule 'gheap-bu:paper:k=4:t=2|i6-40-33-3,d;i31-46-33-34,d|1.0*40' >"$tmp/bu.jsonl" 2>/dev/null
page "$tmp/bu.jsonl" bu-last-lock-holds.html "Theorem 3.4 holds: BU heap (paper), last-lock points" \
  "gheap-bu:paper:k=4:t=2|i6-40-33-3,d;i31-46-33-34,d|1.0*40"
# ... and a mutant that skips the partial buffer's merge (property 3; found by gpulin
# explore --structure gheap-bu --variant paper --mutant skip-partial-merge --actors 3
# --strategy pct --schedules 3000 --seed 2, replayed here).
s='gheap-bu:paper:k=4:t=2:mutant=skip-partial-merge|i49-53-23-11,i32-15,i47-36-2;i44-61-2-4,d,d|0*2.1.0*5.1*3.0.1.0*2.1*4.0.1*2.0*2.1*2.0*2'
"$g" replay --schedule "$s" >"$tmp/bu-mut.jsonl" 2>/dev/null || true
page "$tmp/bu-mut.jsonl" bu-skip-partial-merge.html "Theorem 3.4 fails: BU heap (paper) with the skip-partial-merge mutant" "$s"
# The slab hash's linearization points (§III-B, Fig. 2), map mode: two REPLACEs of one
# key race for one EMPTY spot; the loser's CAS fails and it reads the slab again ...
"$g" replay --schedule 'slab-map:buckets=1|i0=1,d0,s0;i0=2|0.1*2.0*2.1*5.0*10' >"$tmp/slab.jsonl" 2>/dev/null
page "$tmp/slab.jsonl" slab-points-hold.html "Slab hash (map): the explicit points hold" \
  "slab-map:buckets=1|i0=1,d0,s0;i0=2|0.1*2.0*2.1*5.0*10"
# ... and the same program and picks with a mutant whose insert does not read again.
"$g" replay --schedule 'slab-map:buckets=1:mutant=slab-insert-no-reread|i0=1,d0,s0;i0=2|0.1*2.0*2.1*5.0*10' \
  >"$tmp/slab-mut.jsonl" 2>/dev/null || true
page "$tmp/slab-mut.jsonl" slab-insert-no-reread.html "Slab hash (map) with the slab-insert-no-reread mutant: key 0 twice" \
  "slab-map:buckets=1:mutant=slab-insert-no-reread|i0=1,d0,s0;i0=2|0.1*2.0*2.1*5.0*10"
# P-Sync's pipelined delete-insert cycles (§III-B): five cycles, r = 2, the levels'
# update processes between the controller's cycles ...
ps='psync:r=2|10,4,7,8;3,0,9,13;2,5,1;11,14,12,6;|1*2.0*8.4.2.4.3*4.4*2.0*2.1.2*3.4*2.0.3*2.0*9.4.1.0.2*2.4*2.1*5.4.2*2.0*2.1*3.4*2.0*2.2*5.0*4.2.4.2.1*2.3.0*5.3.1*8.0*2.2*2.3.0.2*3.0.2*2.4.1.3*4.0*2.2*2.0*8.1*2.4.2*2.0*2.3.1*9.3*3.0*2.1.2*2.4.2*8.1*2.0*4.3.0.4.0*8.1.4*2.1*8.2.1.3.4*2.0*2.2.3*2.1.0*2.2*2.3*3.2.1'
"$g" replay --schedule "$ps" >"$tmp/psync.jsonl" 2>/dev/null
page "$tmp/psync.jsonl" psync-cycles-hold.html "P-Sync heap: five pipelined cycles answer as a priority queue" "$ps"
# ... and the same program with the even/odd barrier removed (psync-no-barrier).
ps='psync:r=2:mutant=psync-no-barrier|10,4,7,8;3,0,9,13;2,5,1;11,14,12,6;|3.0*3.1.3.1.2.0.2.4*2.3*2.1.0.1.4.2*2.3.2.0.1*2.4.3.0*2.2.3.4.2.4.3.0.2.1.2*3.1.2.4.3.4.3.2.1*2.0.3*2.2*2.4.1.4.1.2.1*3.2*2.3.4.1.0.2.0.4.2.0.3.2*3.3*2.2.4.0.1.2.1.2*2.4.2.1*2.2.1.2.1*2.2*2.1.2.1*3.2*2.3.4.3.4.0.2*2.1.2.0.1*2.2.3.4*2.1.3*2.0.4.1.0.3.4*2.0.3'
"$g" replay --schedule "$ps" >"$tmp/psync-mut.jsonl" 2>/dev/null || true
page "$tmp/psync-mut.jsonl" psync-no-barrier.html "P-Sync heap with the psync-no-barrier mutant: cycle 4 skips a key" "$ps"
# The bucket heap's Theorem 1 (§2.2.1): twelve operations, d = 2, RESOLVE(1) after
# every fourth RESOLVE(0); Algorithm 1's conditions checked around every RESOLVE ...
bh='bucket-heap:d=2:variant=fixed|d2,d1,u3=623616,u5=881774,u4=95937,u6=318016,u8=239015,x,x,x,x,x|0.1.0*5.1*5.0*2.1*3.0*2.1.0*2.1*4.0.1*3.0*3.1*2.0.1*2.0.1*2.0*2.1*4.0.1.0.1*3.0*2.1.0*3.1.0*3.1*4.0*5.1*2.0*4.1*3.0.1.0.1*2.0*2.1.0.1.0*3.1.0*4.1*3.0*2.1.0.1*2.0.1.0*4.1*2'
"$g" replay --schedule "$bh" >"$tmp/bucket.jsonl" 2>/dev/null
page "$tmp/bucket.jsonl" bucket-theorem-1-holds.html "Bucket heap (fixed): Theorem 1's schedule, every condition holds" "$bh"
# ... the same program and picks with RESOLVE(1) after every third RESOLVE(0) ...
bh='bucket-heap:d=2:variant=fixed:mutant=bucket-every-third|d2,d1,u3=623616,u5=881774,u4=95937,u6=318016,u8=239015,x,x,x,x,x|0.1.0*5.1*5.0*2.1*3.0*2.1.0*2.1*4.0.1*3.0*3.1*2.0.1*2.0.1*2.0*2.1*4.0.1.0.1*3.0*2.1.0*3.1.0*3.1*4.0*5.1*2.0*4.1*3.0.1.0.1*2.0*2.1.0.1.0*3.1.0*4.1*3.0*2.1.0.1*2.0.1.0*4.1*2'
"$g" replay --schedule "$bh" >"$tmp/bucket-mut.jsonl" 2>/dev/null || true
page "$tmp/bucket-mut.jsonl" bucket-every-third.html "Bucket heap with the bucket-every-third mutant: a value never comes out" "$bh"
# ... and, with no mutant and d = 1, a run that breaks a precondition Theorem 1
# promises (docs/findings.md B2); the page carries the simulator's check in its note.
bh='bucket-heap:d=1:variant=fixed|u0=892657,u1=31521,u2=325056,u3=342781,u4=195753,x,u5=900817,u6=162702,u7=468126,u8=73736,u9=423639,u6=6268,u2=61771,x,u10=222920,u11=696280,x,x,x,u12=118206|0*41.1*2.2*2.1*19.2*2.1*33.2*2.1*24.2*2.1*24.2*12.1*6'
"$g" replay --schedule "$bh" >"$tmp/bucket-b2.jsonl" 2>"$tmp/bucket-b2.err" || true
page "$tmp/bucket-b2.jsonl" bucket-b2-precondition.html "Bucket heap (fixed, d = 1): a precondition of Theorem 1 fails, the results stay right" \
  "$bh -- $(grep -o 'invariant: .*' "$tmp/bucket-b2.err")"
# Merge path's partition (§2.1-2.3): the merge records no history (each run is
# checked against std::merge), so its pages are the replay's text (the replay string,
# the verdict, then each output (key, tag) with std::merge's beside it) and the
# replay's page, whose timeline is empty and whose stepper draws the partition.
merge_page() {  # SCHEDULE PAGE
  "$g" replay --schedule "$1" >"$tmp/merge.out" 2>"$tmp/merge.err" || true
  { echo "$1"; cat "$tmp/merge.err" "$tmp/merge.out"; } >"$out/$2"
  echo "page: $out/$2: $(grep -o 'verdict: .*' "$out/$2")"
  "$g" replay --schedule "$1" --render "$out/${2%.txt}.html" >/dev/null 2>&1 || true
  echo "page: $out/${2%.txt}.html"
}
merge_page 'merge:blocks=1|a=0:9,9,10,10,10,10,10,11,11,11,11,11,12,12,12,13,14,14,14,15,15,15;b=0:0,2,5,6,7,7,9,11,11,12,13;c=0|0*6.1.2*2.1*2.0*2.1*2.0*6.2*3' merge-partition-holds.txt
merge_page 'merge:blocks=1:mutant=merge-window-overrun|a=0:9,9,10,10,10,10,10,11,11,11,11,11,12,12,12,13,14,14,14,15,15,15;b=0:0,2,5,6,7,7,9,11,11,12,13;c=0|0*6.1.2*2.1*2.0*2.1*2.0*6.2*3' merge-window-overrun.txt
# With SHOTS=1, each page's screenshot beside it (headless Chromium, as the .png files
# in docs/proofs/pages were made): SHOTS=1 scripts/proof-pages.sh
if [ -n "${SHOTS:-}" ]; then
  browser=$(command -v chromium || command -v chromium-browser)
  for h in "$out"/*.html; do
    # The merge's pages have no timeline: their shot is the stepper at the run's end.
    at= height=${SHOT_HEIGHT:-400}
    case $(basename "$h") in merge-*) at='#point=1000000' height=420 ;; esac
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
      --user-data-dir="$tmp/profile" --window-size=1400,"$height" --screenshot="${h%.html}.png" \
      "file://$(realpath "$h")$at" >/dev/null 2>&1
    echo "screenshot: ${h%.html}.png"
  done
fi
