#!/usr/bin/env bash
# scripts/device-flags.sh does what the README says: with no GPU visible (a fake
# nvidia-smi that lists none) device code at -O1, the test and benchmark kernels
# as PTX only, and test.sh's every kernel; with one listed, the full build; GPULIN_DEVICE_OPT=3 and =1 override
# the guess; any other value stops the build (exit 2) with a message.
# Usage: device_flags_test.sh SOURCE_DIR SCRATCH
set -uo pipefail
src=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch/gpu" "$scratch/none"
printf '#!/bin/sh\necho "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)"\n' >"$scratch/gpu/nvidia-smi"
printf '#!/bin/sh\necho "No devices found." >&2\nexit 6\n' >"$scratch/none/nvidia-smi"
chmod +x "$scratch/gpu/nvidia-smi" "$scratch/none/nvidia-smi"
fail=0
expect() {  # WHAT FAKE OPT CUDA_FLAGS CMAKE_ARGS KERNELS_AS_PTX
  local got
  got=$(PATH="$scratch/$2:$PATH" GPULIN_DEVICE_OPT=$3 bash -c \
    'source "$0" >/dev/null && printf "%s|%s|%s" "$gpulin_cuda_flags" "$gpulin_cmake_args" "$gpulin_kernels_as_ptx"' \
    "$src/scripts/device-flags.sh")
  if [ "$got" != "$4|$5|$6" ]; then echo "FAIL: $1: got '$got', expected '$4|$5|$6'"; fail=1; else echo "ok: $1"; fi
}
o1="-Xcicc -O1 -Xptxas -O1"
expect "no GPU, auto" none "" "$o1" "-DGPULIN_TEST_KERNELS_AS_PTX=ON" 1
expect "a GPU, auto" gpu "" "" "-DGPULIN_TEST_KERNELS_AS_PTX=OFF" 0
expect "no GPU, GPULIN_DEVICE_OPT=3" none 3 "" "-DGPULIN_TEST_KERNELS_AS_PTX=OFF" 0
expect "a GPU, GPULIN_DEVICE_OPT=1" gpu 1 "$o1" "-DGPULIN_TEST_KERNELS_AS_PTX=OFF" 0
# A bad value: exit 2 and a message naming the variable, from build.sh's own shell.
msg=$(GPULIN_DEVICE_OPT=2 bash -c 'source "$0"; echo "went on"' "$src/scripts/device-flags.sh" 2>&1)
rc=$?
if [ $rc -ne 2 ] || [[ "$msg" != *GPULIN_DEVICE_OPT* ]] || [[ "$msg" == *"went on"* ]]; then
  echo "FAIL: GPULIN_DEVICE_OPT=2 gave exit $rc: $msg"; fail=1
else
  echo "ok: GPULIN_DEVICE_OPT=2 stops with exit 2"
fi
exit $fail
