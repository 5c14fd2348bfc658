#!/usr/bin/env bash
# A structure of one's own against an installed gpulin (docs/own-structure.md; its
# commands are these): installs gpulin's build into a prefix, builds
# examples/own-structure out of tree against it, and runs the example's program,
# own-stack, through every subcommand the walkthrough shows. One line a step; exits
# 1 when any step does not end as expected (a log of each step is kept), 0 otherwise.
#
# Usage: scripts/own-structure.sh [BUILD [PREFIX]]
#   BUILD   gpulin's build folder (default build/): configured here when it has no
#           CMakeCache.txt (as scripts/build.sh does, without tests and benchmarks),
#           then its gpulin target built and installed
#   PREFIX  the install prefix (default build-own/prefix); the example is built in
#           PREFIX/../example, the steps' logs and outputs go to PREFIX/../work
# The stress step runs where nvidia-smi lists a GPU, and is skipped (said so) elsewhere.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
build=${1:-build}
prefix=${2:-build-own/prefix}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
own_dir=$(dirname "$prefix")
example="$own_dir/example"
work="$own_dir/work"
rm -rf "$work"
mkdir -p "$work"
jobs=$(nproc)
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
# The device flags of a build on this machine (gpulin_cuda_flags, gpulin_cmake_args).
source scripts/device-flags.sh

failed=0
# step NAME WANT COMMAND...: runs COMMAND, its output in $work/NAME.log; ok when it
# exits WANT.
step() {
  local name=$1 want=$2 rc
  shift 2
  "$@" >"$work/$name.log" 2>&1
  rc=$?
  if [ "$rc" = "$want" ]; then
    echo "ok    $name (exit $rc)"
  else
    echo "FAIL  $name: exit $rc, want $want; $work/$name.log ends:"
    tail -n 15 "$work/$name.log" | sed 's/^/      /'
    failed=1
  fi
  return 0
}
# A step the later ones cannot do without: stop at its failure.
must() {
  step "$@"
  if [ "$failed" != 0 ]; then
    echo "own-structure: stopped after $1"
    exit 1
  fi
}

# 1. gpulin's install.
if [ ! -f "$build/CMakeCache.txt" ]; then
  must configure-gpulin 0 cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${GPULIN_CUDA_ARCH:-90}" -DCMAKE_CUDA_FLAGS="$gpulin_cuda_flags" $gpulin_cmake_args \
    -DGPULIN_BUILD_TESTS=OFF -DGPULIN_BUILD_BENCH=OFF
fi
must build-gpulin 0 cmake --build "$build" -j"$jobs" --target gpulin
must install-gpulin 0 cmake --install "$build" --prefix "$prefix"

# 2. The example, out of tree, for the architectures gpulin was built for and with its
# compilers (a sanitized gpulin, test.sh's, links only with the compiler that built it).
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
arch=$(cached CMAKE_CUDA_ARCHITECTURES)
compilers=()
[ -n "$(cached CMAKE_CXX_COMPILER)" ] && compilers+=(-DCMAKE_CXX_COMPILER="$(cached CMAKE_CXX_COMPILER)")
[ -n "$(cached CMAKE_CUDA_HOST_COMPILER)" ] && compilers+=(-DCMAKE_CUDA_HOST_COMPILER="$(cached CMAKE_CUDA_HOST_COMPILER)")
must configure-example 0 cmake -S examples/own-structure -B "$example" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES="${arch:-90}" -DCMAKE_CUDA_FLAGS="$gpulin_cuda_flags" \
  "${compilers[@]}"
must build-example 0 cmake --build "$example" -j"$jobs"
own="$example/own-stack"

# 3. Every subcommand on the new structure.
step list 0 "$own" list
if ! grep -q '^lock-stack' "$work/list.log" || ! grep -q '^  stack ' "$work/list.log"; then
  echo "FAIL  list: lock-stack or its model stack is not listed ($work/list.log)"
  failed=1
fi
step explore 0 "$own" explore --structure lock-stack --schedules 2000 --out "$work/explore"
step explore-mutant 1 "$own" explore --structure lock-stack --mutant unlocked-pop --schedules 2000 \
  --out "$work/explore-mutant"
# The shrunk violation's replay string, as explore printed it.
schedule=$(sed -n '/^first violation/,/replay:/s/^  replay: .* --schedule '"'"'\(.*\)'"'"'$/\1/p' \
  "$work/explore-mutant.log" | head -n 1)
if [ -z "$schedule" ]; then
  echo "FAIL  replay-mutant: explore printed no violation to replay ($work/explore-mutant.log)"
  failed=1
else
  step replay-mutant 1 "$own" replay --schedule "$schedule"
fi
step survey 0 "$own" survey --only lock-stack --out "$work/survey"

# 4. On a GPU: the stack run and recorded there, its history checked.
if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  step stress 0 "$own" stress --structure lock-stack --record --out "$work/stress"
else
  echo "skip  stress: no GPU visible (nvidia-smi lists none)"
fi

if [ "$failed" != 0 ]; then
  echo "own-structure: FAIL (logs in $work)"
  exit 1
fi
echo "own-structure: pass (logs in $work)"
