// Whether a CUDA device is there: gpu-labelled tests skip with a message without one.
#pragma once

#include <cuda_runtime.h>

namespace gpulin::test {

inline bool have_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

}  // namespace gpulin::test
