#!/usr/bin/env bash
# Sourced by build.sh and sanitize.sh: sets gpulin_cuda_flags, the CUDA flags of a
# build on this machine. Where no GPU is visible nothing runs device code (the gpu
# tests skip), so its optimisation buys nothing and costs most of a CUDA file's
# compile: device code is then built at -O1 in NVVM and ptxas (cuda/gheap_kernels.cu
# 49 s against 122 s on the 2-core CI VM). GPULIN_DEVICE_OPT=3 keeps the full
# optimisation anyway, =1 asks for -O1 on a machine with a GPU. Benchmarks are
# measured from scripts/device.sh's own build, which never passes these flags.
gpulin_cuda_flags=""
case "${GPULIN_DEVICE_OPT:-auto}" in
  1) gpulin_cuda_flags="-Xcicc -O1 -Xptxas -O1" ;;
  3) ;;
  auto)
    if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
      gpulin_cuda_flags="-Xcicc -O1 -Xptxas -O1"
      echo "no GPU visible: device code built at -O1 (GPULIN_DEVICE_OPT=3 for full optimisation)"
    fi ;;
  *) echo "GPULIN_DEVICE_OPT: 1, 3 or unset (auto)" >&2; exit 2 ;;
esac
