#!/usr/bin/env bash
# Configures and builds gpulin into build/ (sm_90 by default; device code at -O1
# where no GPU is visible: scripts/device-flags.sh). Extra arguments are build
# targets.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
bash scripts/setup.sh
source scripts/device-flags.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${GPULIN_CUDA_ARCH:-90}" \
  -DCMAKE_CUDA_FLAGS="$gpulin_cuda_flags" $gpulin_cmake_args >/dev/null
cmake --build build -j"$(nproc)" ${@:+--target "$@"}
