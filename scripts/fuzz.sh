#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, with clang: -fsanitize=fuzzer,address,undefined)
# and runs each for SECONDS (default 60), side by side one a core, from its seed
# corpus: the history examples, the external logs in ../shared/external, fuzz/corpus/.
# A crash, a sanitizer report, a leak or a timeout fails the run; the input that did
# it is kept in build-fuzz/found/ (turn it into a regression test). Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# The long run (10^7 executions a target, the issue's bar):
#   scripts/fuzz.sh 0   # then each target runs -runs=10000000 instead of a time bound
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("${@:-jsonl_reader binary_reader device_assembler published_assembler importers schedule_string litmus_parse}")
read -r -a targets <<<"${targets[*]}"
command -v clang++ >/dev/null || { echo "fuzz: clang++ missing (scripts/setup.sh installs clang)"; exit 2; }
b=build-fuzz
CXX=clang++ cmake -S fuzz -B $b -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
cmake --build $b -j"$(nproc)" >$b/build.log 2>&1 || { tail -30 $b/build.log; exit 2; }
# Seeds: copied into a scratch corpus per target, so the run's finds stay out of git.
seeds() {  # TARGET DIR
  case $1 in
    jsonl_reader) cp histories/examples/*.jsonl histories/examples/malformed/* "$2"/ ;;
    binary_reader) $b/make_binary_seeds "$2" histories/examples/*.jsonl ;;
    importers) cp ../shared/external/porcupine/jepsen/etcd_00[0-4].log ../shared/external/porcupine/kv/c01-*.txt "$2"/ 2>/dev/null ;;
    litmus_parse) cp tests/litmus/ptx/*.litmus "$2"/ ;;
    *) cp fuzz/corpus/$1/* "$2"/ ;;
  esac
}
mkdir -p $b/found
# One target: its run, its verdict line in $b/$t.verdict and a failure mark.
fuzz_one() {  # TARGET
  local t=$1 corpus=$b/corpus/$1 bound rc runs took
  rm -rf "$corpus" && mkdir -p "$corpus" && seeds "$t" "$corpus"
  if [ "$seconds" = 0 ]; then bound=(-runs=10000000); else bound=(-max_total_time="$seconds"); fi
  "$b/fuzz_$t" "${bound[@]}" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 -artifact_prefix="$b/found/$t-" \
    "$corpus" >"$b/$t.log" 2>&1
  rc=$?
  runs=$(grep -oE 'Done [0-9]+ runs in [0-9]+' "$b/$t.log" | grep -oE '[0-9]+' | head -1)
  took=$(grep -oE 'Done [0-9]+ runs in [0-9]+' "$b/$t.log" | grep -oE '[0-9]+$')
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: ${runs:-?} runs in ${took:-?} s, no crash, hang or leak" >"$b/$t.verdict"
  else
    { echo "fuzz $t: FAILED (exit $rc): $(grep -E 'ERROR|SUMMARY|runtime error' "$b/$t.log" | head -2 | tr '\n' ' ')"
      ls "$b/found/$t-"* 2>/dev/null | sed 's/^/  input: /'; } >"$b/$t.verdict"
    touch "$b/$t.failed"
  fi
}
# The targets run side by side, one a core (each is one process), and report in order.
jobs_max=$(nproc)
for t in "${targets[@]}"; do
  rm -f "$b/$t.failed" "$b/$t.verdict"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  fuzz_one "$t" &
done
wait
failed=0
for t in "${targets[@]}"; do
  cat "$b/$t.verdict" 2>/dev/null || { echo "fuzz $t: no verdict (the run did not finish)"; failed=1; }
  [ -e "$b/$t.failed" ] && failed=1
done
exit $failed
