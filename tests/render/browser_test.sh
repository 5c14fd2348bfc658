#!/usr/bin/env bash
# gpulin render's pages in a real browser (headless Chromium): the failing `paper`
# heap's page, a racing run's page under the ptx memory model (the race drawn), and
# two 10^5-operation pages whose load times are measured and printed:
# a GPU history (data/bucket-heap-gpu-1e5.jsonl.gz: `gpulin stress --structure
# bucket-heap --d 1 --ops 100000 --record` on an H100, 100 011 operations) and a
# generated one of the heap's shape (128 actors, lock holds).
# Each page runs its own check (page.html#selftest: a click on an operation must show
# its details) and writes it into the DOM, read back with --dump-dom. Screenshots
# are kept in OUT. Exit 77 (ctest: skipped) with a message where Chromium is missing.
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
echo "PASS (screenshots: $out/paper.png, $out/race.png, $out/big.png)"
