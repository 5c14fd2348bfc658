#!/usr/bin/env bash
# Every test that needs something a machine may lack (a GPU: label gpu; Chromium;
# Open MPI) can report Skipped rather than Passed: ctest lists it with a
# SKIP_REGULAR_EXPRESSION or a SKIP_RETURN_CODE. Prints each one that cannot and
# exits 1; exits 0 naming how many were checked.
# Usage: skips_test.sh BUILD      (a configured build folder)
#        skips_test.sh --self-test SCRATCH   (a build with one gpu test lacking the
#                                             property must fail the check)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

check() {  # BUILD
  ctest --test-dir "$1" --show-only=json-v1 2>/dev/null | python3 -c '
import json, sys
tests = json.load(sys.stdin)["tests"]
def props(t):
    return {p["name"]: p["value"] for p in t.get("properties", [])}
needs = lambda t, p: "gpu" in (p.get("LABELS") or []) or "browser" in t["name"] or "mpi" in t["name"].lower()
bad = checked = 0
for t in tests:
    p = props(t)
    # The stand-in GoogleTest lists for an executable this build did not build (the
    # sanitizer build builds only its suite; ctest -E _NOT_BUILT$ leaves them out).
    if t["name"].endswith("_NOT_BUILT") or not needs(t, p):
        continue
    checked += 1
    if "SKIP_REGULAR_EXPRESSION" not in p and "SKIP_RETURN_CODE" not in p:
        print(t["name"] + ": needs a GPU, Chromium or MPI and cannot report Skipped "
              "(no SKIP_REGULAR_EXPRESSION or SKIP_RETURN_CODE)")
        bad += 1
if not tests:
    print("ctest lists no test: is this a configured build?")
    sys.exit(1)
if bad == 0:
    print(f"skips: {checked} tests that need a GPU, Chromium or MPI, each can report Skipped")
sys.exit(1 if bad else 0)
'
}

if [ "${1:-}" = --self-test ]; then
  scratch=$2
  rm -rf "$scratch" && mkdir -p "$scratch"
  printf 'add_test(planted_gpu_test true)\nset_tests_properties(planted_gpu_test PROPERTIES LABELS gpu)\n' >"$scratch/CTestTestfile.cmake"
  if out=$(check "$scratch"); then echo "FAIL: a gpu test without a skip property passed the check: $out"; exit 1; fi
  echo "ok: caught $out"
  printf 'add_test(planted_gpu_test true)\nset_tests_properties(planted_gpu_test PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)\n' >"$scratch/CTestTestfile.cmake"
  if ! out=$(check "$scratch"); then echo "FAIL: a gpu test with SKIP_RETURN_CODE was refused: $out"; exit 1; fi
  echo "ok: allowed $out"
  exit 0
fi
[ $# -eq 1 ] || { echo "usage: $0 BUILD | --self-test SCRATCH" >&2; exit 2; }
[ -f "$1/CTestTestfile.cmake" ] || { echo "$1: not a configured build (no CTestTestfile.cmake)" >&2; exit 2; }
check "$1"
