#!/usr/bin/env bash
# The CPU suite under AddressSanitizer + UndefinedBehaviorSanitizer (and ASan's leak
# check): builds build-asan with GPULIN_SANITIZE=ON (CMakeLists.txt: the simulator's
# fibers on Boost.Context's ucontext backend, which annotates each stack switch for
# ASan) and runs every CPU test whose executable needs no CUDA kernels (target
# gpulin_sanitize_suite; the command-line tests run in the ordinary suite). Any
# report fails the run: UBSan does not recover, ASan stops at the first error.
# Usage: scripts/sanitize.sh [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
b=build-asan
source scripts/device-flags.sh
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g1" -DCMAKE_CUDA_FLAGS_SANITIZE="-O1" \
  -DCMAKE_CUDA_FLAGS="$gpulin_cuda_flags" $gpulin_cmake_args -DGPULIN_SANITIZE=ON -DGPULIN_BUILD_BENCH=OFF \
  -DCMAKE_CUDA_ARCHITECTURES="${GPULIN_CUDA_ARCH:-90}" >/dev/null
cmake --build $b -j"$(nproc)" --target gpulin_sanitize_suite
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir $b -L cpu -E '_NOT_BUILT$' --output-on-failure -j"$(nproc)" "$@"
