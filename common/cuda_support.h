// Host-side CUDA glue for every layer (the structures' device memory, the checks
// that run as kernels, the stress drivers): errors as exceptions, device buffers
// owned by scope, grid sizes, small reads back and uploads. Written once so that
// all read alike. Includes only the CUDA runtime.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpulin::cuda_support {

// `what` names the step, with its layer where the step alone would not say it
// ("slab hash: base slabs").
inline void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw std::runtime_error("CUDA: " + what + ": " + cudaGetErrorString(e));
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
  // A copy of `host` on the device.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    if (!host.empty()) check(cudaMemcpy(p_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), n_(o.n_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      cudaFree(p_);
      p_ = o.p_;
      n_ = o.n_;
      o.p_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
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

// Seconds of GPU time between start() and stop() on one stream, by CUDA events;
// stop() waits for the stream and names the step when it failed.
class GpuTimer {
 public:
  GpuTimer() {
    check(cudaEventCreate(&start_), "event");
    check(cudaEventCreate(&stop_), "event");
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;
  void start(cudaStream_t stream = nullptr) { check(cudaEventRecord(start_, stream), "event"); }
  // The stop event alone, to read later with stop() (several timers in flight).
  void record_stop(cudaStream_t stream = nullptr) {
    check(cudaEventRecord(stop_, stream), "event");
    stopped_ = true;
  }
  double stop(const std::string& what, cudaStream_t stream = nullptr) {
    if (!stopped_) check(cudaEventRecord(stop_, stream), "event");
    stopped_ = false;
    check(cudaEventSynchronize(stop_), what);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "event");
    return ms / 1000.0;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  bool stopped_ = false;
};

// The default stream's work in named phases: each lap waits for the work queued
// so far and appends (name, seconds since the previous lap), timed by CUDA events.
class PhaseTimer {
 public:
  explicit PhaseTimer(std::vector<std::pair<std::string, double>>& out) : out_(out) {
    check(cudaEventCreate(&a_), "event");
    check(cudaEventCreate(&b_), "event");
    check(cudaEventRecord(a_), "event");
  }
  ~PhaseTimer() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  void lap(const char* name) {
    check(cudaEventRecord(b_), name);
    check(cudaEventSynchronize(b_), name);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a_, b_), name);
    out_.emplace_back(name, ms / 1000.0);
    std::swap(a_, b_);
  }

 private:
  std::vector<std::pair<std::string, double>>& out_;
  cudaEvent_t a_{}, b_{};
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
