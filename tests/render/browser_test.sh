#!/usr/bin/env bash
# gpulin render's pages in a real browser (headless Chromium): the failing `paper`
# heap's page, a racing run's page under the ptx memory model (the race drawn), and
# two 10^5-operation pages whose load times are measured and printed:
# a GPU history (data/bucket-heap-gpu-1e5.jsonl.gz: `gpulin stress --structure
# bucket-heap --d 1 --ops 100000 --record` on an H100, 100 011 operations) and a
# generated one of the heap's shape (128 actors, lock holds).
# Each page runs its own check (page.html#selftest: a click on an operation must show
# its details) and writes it into the DOM, read back with --dump-dom. Screenshots
# are kept in OUT. The stepper (docs/architecture.md, "The stepper"): each structure's
# page, opened as page.html#selftest-stepper, presses its own keys and writes the
# states it lands on, each compared with a fresh replay stopped there (gpulin replay
# --state-at); a 10 000-point page's size and step time are printed.
# Exit 77 (ctest: skipped) with a message where Chromium is missing.
# Usage: browser_test.sh GPULIN RENDER_BIG_HISTORY OUT
set -uo pipefail
gpulin=$1 big=$2 out=$3
data=$(cd "$(dirname "$0")" && pwd)/data
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "SKIP: no Chromium (scripts/setup.sh installs Debian's chromium)"
  exit 77
fi
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$out/profile")
# The page's self-check, as JSON (the line after "SELFTEST "). The check runs while
# the page loads, so --dump-dom (which waits for the load) reads its outcome.
selftest() {
  local dom
  dom=$(timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$1#selftest" 2>/dev/null)
  echo "$dom" | grep -o 'SELFTEST {[^<]*}' | sed 's/^SELFTEST //; s/&quot;/"/g'
}
field() { echo "$1" | grep -o "\"$2\":[^,}]*" | head -1 | cut -d: -f2- | tr -d '"'; }

# 1. A failing paper heap (TD, k = 4, three actors): its page shows the failure.
"$gpulin" explore --structure gheap-td --variant paper --actors 3 --ops 3 --k 4 --strategy pct --schedules 2000 \
  --seed 1 --out "$out/explore" >"$out/explore.log" 2>&1
hist=$(ls "$out"/explore/*-violation.jsonl 2>/dev/null | head -1)
[ -n "$hist" ] || fail "explore found no violation of the paper heap (see $out/explore.log)"
"$gpulin" render "$hist" -o "$out/paper.html" || fail "render $hist"
r=$(selftest "$out/paper.html")
echo "paper heap page: $r"
[ -n "$r" ] || fail "the page wrote no self-check (did its script run?)"
[ "$(field "$r" verdict)" = "not linearizable" ] || fail "verdict shown: $(field "$r" verdict)"
[ "$(field "$r" details_shown)" = "true" ] || fail "a click on op $(field "$r" clicked_op) did not show its details"
[ "$(field "$r" canvas)" = "true" ] || fail "no canvas drawn"
[ "$(field "$r" elements)" = "true" ] || fail "an element of the page is missing or shows another verdict"
[ "$(field "$r" window)" -gt 0 ] || fail "no failing window marked"
timeout 120 "$browser" "${flags[@]}" --window-size=1400,700 --screenshot="$out/paper.png" "file://$out/paper.html" >/dev/null 2>&1
[ -s "$out/paper.png" ] || fail "no screenshot"

# 2. A run under the ptx memory model: the heap authors' ordering racing on a batch
# (docs/findings.md M1): the page draws the race between the insert and the delete.
"$gpulin" replay --render "$out/race.html" \
  --schedule 'gheap-td:fixed:k=4:t=2:mutant=relaxed-locks:memory=ptx|d;i31-28-19-33|1*8.0*2.r1*2' \
  >"$out/race.log" 2>&1
grep -q 'verdict: race' "$out/race.log" || fail "the replay did not race (see $out/race.log)"
r=$(selftest "$out/race.html")
echo "race page: $r"
[ "$(field "$r" marks)" = "1" ] || fail "the race page drew $(field "$r" marks) marks, not the race"
[ "$(field "$r" details_shown)" = "true" ] || fail "a click on the race page showed no details"
timeout 120 "$browser" "${flags[@]}" --window-size=1400,400 --screenshot="$out/race.png" "file://$out/race.html" >/dev/null 2>&1

# 3. 10^5 operations: each page loads (parsed, drawn, clicked), and the times are
# printed. The load bound is a guard against a regression to per-operation DOM work
# (tens of seconds), not a speed target: a load time depends on the browser and the
# machine's load, which a test does not control.
large() {  # NAME OPS
  "$gpulin" render "$out/$1.jsonl" -o "$out/$1.html" || fail "render $1"
  r=$(selftest "$out/$1.html")
  ms=$(field "$r" load_ms)
  echo "$1: a page of $2 operations ($(du -h "$out/$1.html" | cut -f1)) loaded in $ms ms, slowest redraw $(field "$r" redraw_ms) ms; $r"
  [ "$(field "$r" ops)" = "$2" ] || fail "the $1 page shows $(field "$r" ops) operations"
  [ "$(field "$r" details_shown)" = "true" ] || fail "a click on the $1 page showed no details"
  [ -n "$ms" ] && [ "$ms" -lt 10000 ] || fail "the $1 page took $ms ms to load (guard 10000)"
  # Redraws (fit, zoom, pan) are printed; the bound is a guard against drawing more
  # than the view needs (a regression to quadratic or per-op DOM work takes seconds
  # to minutes), not a frame rate, which depends on the machine's load.
  [ "$(field "$r" redraw_ms)" -lt 3000 ] || fail "the $1 page took $(field "$r" redraw_ms) ms to redraw (guard 3000)"
}
gunzip -c "$data/bucket-heap-gpu-1e5.jsonl.gz" >"$out/gpu.jsonl" || fail "unpacking the GPU history"
large gpu 100011
"$big" "$out/big.jsonl" 100000 || fail "generating the large history"
large big 100000
timeout 120 "$browser" "${flags[@]}" --window-size=1400,4200 --screenshot="$out/big.png" "file://$out/big.html" >/dev/null 2>&1
# 4. The stepper. stepper_check NAME SCHEDULE PAGE [POINT]: the page steps by its
# own keys (forward, back, by operation, by linearization point, to the failure and
# the end, a jump then a step back) and each state it lands on must have the digest
# of a fresh replay stopped there: a stepper that drew a wrong state going back (or
# forward) fails here. Opened at POINT (#point=N) it must open there.
stepper_check() {
  local name=$1 schedule=$2 page=$3 at=${4:-} dom head landed want n=0
  dom=$(timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page#selftest-stepper${at:+&point=$at}" 2>/dev/null)
  head=$(echo "$dom" | grep -o 'SELFTEST-STEPPER {[^<]*}' | head -1 | sed 's/^SELFTEST-STEPPER //; s/&quot;/"/g')
  landed=$(echo "$dom" | grep -oE 'LANDED [a-z-]+ [0-9]+ [0-9a-f]{8}')
  [ -n "$landed" ] || fail "$name: the stepper wrote no states ($head)"
  [ "$(field "$head" drawn)" = "true" ] || fail "$name: the stepper drew nothing ($head)"
  if [ -n "$at" ]; then
    [ "$(field "$head" opened_at)" = "$at" ] || fail "$name: #point=$at opened at $(field "$head" opened_at)"
  fi
  while read -r _ label p digest; do
    want=$("$gpulin" replay --schedule "$schedule" --state-at "$p" 2>&1 | sed -n 's/^state [0-9]*: digest \([0-9a-f]*\),.*/\1/p')
    [ "$want" = "$digest" ] || fail "$name: stepping ($label) landed on point $p drawing digest $digest; a fresh replay stopped there has '$want'"
    n=$((n + 1))
  done <<<"$landed"
  echo "$name stepper: $n states landed on match fresh replays; $head"
}
schedule_of() { grep -v '^#' "$1" | head -1; }
# The failing paper heap's page, from its history file (the header's schedule).
stepper_check gheap-td "$(schedule_of "${hist%.jsonl}.schedule")" "$out/paper.html"
timeout 120 "$browser" "${flags[@]}" --window-size=1400,1000 --screenshot="$out/stepper.png" \
  "file://$out/paper.html#point=40" >/dev/null 2>&1
# Every other structure: a replay's page (a planted bug's failure as explore found it,
# unshrunk: a longer run to step through; the merge's page has no history, its
# stepper all the same).
explored_schedule() {  # NAME ARGS...: the schedule of explore's first failure
  local name=$1; shift
  rm -rf "$out/step-$name"
  "$gpulin" explore --structure "$name" "$@" --seed 1 --no-shrink --out "$out/step-$name" >"$out/step-$name.log" 2>&1
  local f
  f=$(ls "$out/step-$name"/*.schedule 2>/dev/null | head -1)
  [ -n "$f" ] || fail "explore found no failure of $name $* (see $out/step-$name.log)"
  schedule_of "$f"
}
for spec in "gheap-bu --mutant maxima-in-merged --k 2" "slab-map --mutant slab-insert-no-reread" \
    "slab-multimap --variant paper" "psync --mutant psync-no-barrier" "bucket-heap --variant paper" \
    "merge --mutant merge-window-overrun" "counter-array --mutant lost-update"; do
  name=${spec%% *}
  # shellcheck disable=SC2086
  s=$(explored_schedule $spec) || exit 1
  "$gpulin" replay --schedule "$s" --render "$out/step-$name.html" >/dev/null 2>"$out/step-$name-replay.log"
  [ -s "$out/step-$name.html" ] || fail "no page for $name (see $out/step-$name-replay.log)"
  stepper_check "$name" "$s" "$out/step-$name.html" 3
done
# A GPU history has no stepper, and says so in one line.
dom=$(timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$out/gpu.html#selftest-stepper" 2>/dev/null)
echo "$dom" | grep -q 'SELFTEST-STEPPER {[^<]*no_stepper' || fail "the GPU history's page does not say it has no stepper"

# 5. 10 000 scheduling points: the lost-update counters, unshrunk (6 actors of 800
# calls: the whole run). The page's size and a step's time are printed; the bound is
# a guard against per-step work growing with the run (decoding from the start, a
# whole copy per step), not a frame rate.
"$gpulin" explore --structure counter-array --mutant lost-update --actors 6 --ops 800 --no-shrink --seed 1 \
  --out "$out/step-big" >"$out/step-big.log" 2>&1
s=$(schedule_of "$(ls "$out"/step-big/*.schedule | head -1)")
"$gpulin" replay --schedule "$s" --render "$out/step-big.html" >/dev/null 2>"$out/step-big-replay.log"
points=$(grep -o 'a stepper of [0-9]* scheduling points' "$out/step-big-replay.log" | grep -o '[0-9]*')
[ -n "$points" ] && [ "$points" -ge 10000 ] || fail "the large stepper page has ${points:-no} points, not 10 000 (see $out/step-big-replay.log)"
dom=$(timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$out/step-big.html#selftest-stepper&steps=2000" 2>/dev/null)
head=$(echo "$dom" | grep -o 'SELFTEST-STEPPER {[^<]*}' | head -1 | sed 's/^SELFTEST-STEPPER //; s/&quot;/"/g')
ms=$(field "$head" step_ms)
echo "10 000 points: a page of $points scheduling points ($(du -k "$out/step-big.html" | cut -f1) KB, $(wc -c <"$out/step-big.html") bytes) steps in $ms ms a step (forward $(field "$head" forward_step_ms), back $(field "$head" back_step_ms)); $head"
[ -n "$ms" ] && awk "BEGIN { exit !($ms < 50) }" || fail "a step of the large page took $ms ms (guard 50)"
stepper_check counter-array-10k "$s" "$out/step-big.html" 7777
echo "PASS (screenshots: $out/paper.png, $out/race.png, $out/big.png, $out/stepper.png)"
