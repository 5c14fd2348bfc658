#!/usr/bin/env bash
# The main job: explore both heaps in both variants in the simulator, one table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh gpulin
mkdir -p out
set +e
./build/tools/gpulin survey --schedules "${GPULIN_SCHEDULES:-10000}" --out out/survey "$@"
rc=$?
echo "minimal failing histories and schedules: out/survey/"
# One timeline page per failing heap (gpulin render): its violation where it has one,
# else its first failure file; open them in a browser.
mkdir -p out/survey/pages
declare -A page_of
for f in out/survey/*.jsonl; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .jsonl)
  heap=${name%-*}
  if [ -z "${page_of[$heap]:-}" ] || [[ $name == *-violation ]]; then page_of[$heap]=$f; fi
done
for heap in $(printf '%s\n' "${!page_of[@]}" | sort); do
  schedule=${page_of[$heap]%.jsonl}.schedule
  ./build/tools/gpulin render "${page_of[$heap]}" -o "out/survey/pages/$heap.html" --title "$heap: $(basename "${page_of[$heap]}")" \
    --note "$(grep -m1 '^# ' "$schedule" 2>/dev/null | sed 's/^# //')" \
    | sed 's/^/page: /'
done
# The job is the table: a failing heap is a result, reported in it (gpulin survey
# exits 1 then); only a broken run (2, bad input or usage) fails the job.
if [ $rc -eq 1 ]; then echo "survey: a fixed heap failed (see the table and docs/findings.md)"; exit 0; fi
if [ $rc -eq 3 ]; then echo "survey: a fixed heap left histories undecided (the undecided column): not clean"; exit 0; fi
exit $rc
