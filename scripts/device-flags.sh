#!/usr/bin/env bash
# Sourced by build.sh, test.sh and own-structure.sh: sets gpulin_cuda_flags (the CUDA
# flags of a build on this machine), gpulin_cmake_args (build.sh's CMake switches) and
# gpulin_kernels_as_ptx (1: test.sh compiles every kernel to PTX only). Where no GPU is
# visible nothing runs device code (the gpu tests skip), so its optimisation buys
# nothing and costs most of a CUDA file's compile:
#   - device code is built at -O1 in NVVM and ptxas (structures/gheap/gpu/gheap_kernels.cu 49 s
#     against 122 s on the 2-core CI VM);
#   - the kernels of tests and benchmarks are compiled to PTX only
#     (GPULIN_TEST_KERNELS_AS_PTX, CMakeLists.txt); in build/ gpulin's own kernels
#     are still assembled by ptxas, in test.sh's build none is (gpulin_kernels_as_ptx).
# GPULIN_DEVICE_OPT=3 keeps the full build anyway, =1 asks for -O1 (only) on a
# machine with a GPU. Benchmarks are measured from scripts/device.sh's own build,
# which never passes these flags.
gpulin_cuda_flags=""
gpulin_cmake_args="-DGPULIN_TEST_KERNELS_AS_PTX=OFF"
gpulin_kernels_as_ptx=0
case "${GPULIN_DEVICE_OPT:-auto}" in
  1) gpulin_cuda_flags="-Xcicc -O1 -Xptxas -O1" ;;
  3) ;;
  auto)
    if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
      gpulin_cuda_flags="-Xcicc -O1 -Xptxas -O1"
      gpulin_cmake_args="-DGPULIN_TEST_KERNELS_AS_PTX=ON"
      gpulin_kernels_as_ptx=1
      echo "no GPU visible: device code built at -O1, test and benchmark kernels as PTX only" \
        "(test.sh: every kernel; GPULIN_DEVICE_OPT=3 for the full build)"
    fi ;;
  *) echo "GPULIN_DEVICE_OPT: 1, 3 or unset (auto)" >&2; exit 2 ;;
esac
