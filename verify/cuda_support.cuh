// Host-side glue for the checks that run as CUDA kernels (verify/pq_linear/gpu_check.cu,
// tools/stress/device_checks.cu): errors as exceptions, device buffers owned by
// scope, grid sizes, small reads back. Written once so that both read alike.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulin::cuda_support {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("check on the GPU: ") + what + ": " + cudaGetErrorString(e));
}

// Blocks of 256 for n items, at least one (a launch of zero blocks is an error and
// n may be 0, an empty heap), at most 2^18 (kernels loop with GPULIN_GRID_STRIDE).
inline unsigned grid_for(uint64_t n) {
  return static_cast<unsigned>(std::clamp<uint64_t>((n + 255) / 256, 1, uint64_t{1} << 18));
}
#define GPULIN_GRID_STRIDE(i, n) \
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < (n); i += uint64_t(gridDim.x) * blockDim.x)

template <class T>
T read_at(const T* p) {
  T v;
  check(cudaMemcpy(&v, p, sizeof(T), cudaMemcpyDeviceToHost), "read");
  return v;
}

template <class T>
std::vector<T> download(const T* p, uint64_t n) {
  std::vector<T> v(n);
  if (n) check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return v;
}

// Device memory owned by scope (at least one element, so that get() is never null).
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(uint64_t n = 0) { resize(n); }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void resize(uint64_t n) {
    cudaFree(p_);
    p_ = nullptr;
    n_ = n;
    check(cudaMalloc(&p_, sizeof(T) * (n ? n : 1)), "cudaMalloc");
  }
  void fill_bytes(int v) { check(cudaMemset(p_, v, sizeof(T) * (n_ ? n_ : 1)), "memset"); }
  T* get() const { return p_; }
  uint64_t size() const { return n_; }
  T at(uint64_t i) const { return read_at(p_ + i); }

 private:
  T* p_ = nullptr;
  uint64_t n_ = 0;
};

// CUB's temporary storage, grown as calls need it.
class CubTemp {
 public:
  void* get(size_t need) {
    if (need > bytes_) {
      buf_.resize(need);
      bytes_ = need;
    }
    return buf_.get();
  }

 private:
  DeviceBuffer<uint8_t> buf_;
  size_t bytes_ = 0;
};

}  // namespace gpulin::cuda_support
