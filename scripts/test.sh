#!/usr/bin/env bash
# The test command (README; .ci/run runs it on a clean clone). One build, build-test/,
# serves every suite, so the C++ is compiled once:
#   - clang with AddressSanitizer + UndefinedBehaviorSanitizer (GPULIN_SANITIZE,
#     CMakeLists.txt): every CPU test, the command-line and script tests included, runs
#     under the sanitizers; any report fails its test. The libraries are built at -O1,
#     the test and benchmark files at -O0 (GPULIN_TEST_CXX_FLAGS): the hot loops
#     (simulator, checkers, explorers) live in the libraries, while the test files are
#     half the C++ and compile in half the time at -O0 (the benchmarks only run as
#     smoke tests here);
#   - linked by lld (setup.sh installs it), faster than GNU ld on the large sanitized
#     executables;
#   - where no GPU is visible (scripts/device-flags.sh) every kernel is compiled to PTX
#     only, device code at -O1: nothing runs it there, so ptxas is skipped; the GPU
#     tests (label gpu) report Skipped. With a GPU, kernels are built for it and the GPU
#     tests run (under ASan too: protect_shadow_gap=0 leaves CUDA its address range).
# Then the fuzz targets, each GPULIN_FUZZ_SECONDS (default 10; 0 skips them) from their
# seed corpora (scripts/fuzz.sh). Arguments go to ctest (e.g. -L cpu, -R Findings).
# The main job and the benchmarks use scripts/build.sh's Release build/, not this one.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
bash scripts/setup.sh
source scripts/device-flags.sh
arch=${GPULIN_CUDA_ARCH:-90}
[ "$gpulin_kernels_as_ptx" = 1 ] && arch="$arch-virtual"
b=build-test
cmake -S . -B $b -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CUDA_HOST_COMPILER=g++ \
  -DCMAKE_BUILD_TYPE=Sanitize -DGPULIN_SANITIZE=ON -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -gline-tables-only" \
  -DGPULIN_TEST_CXX_FLAGS=-O0 -DCMAKE_CUDA_FLAGS_SANITIZE=-O0 -DGPULIN_LINKER=lld \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_CUDA_FLAGS="$gpulin_cuda_flags" >/dev/null
cmake --build $b -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0:protect_shadow_gap=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir $b --output-on-failure -j"$(nproc)" "$@"
if [ "${GPULIN_FUZZ_SECONDS:-10}" != 0 ]; then bash scripts/fuzz.sh "${GPULIN_FUZZ_SECONDS:-10}"; fi
