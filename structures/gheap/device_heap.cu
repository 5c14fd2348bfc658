#include "structures/gheap/device_heap.h"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "structures/gheap/bit_reversal.h"

namespace gpulin::gheap {

namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
__global__ void fill_kernel(uint32_t* p, uint64_t n, uint32_t v) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    p[i] = v;
}
void fill(uint32_t* p, uint64_t n, uint32_t v) {
  fill_kernel<<<1024, 256>>>(p, n, v);
  check(cudaGetLastError(), "fill");
}
}  // namespace

DeviceHeap::DeviceHeap(uint32_t k, uint64_t max_full_nodes) : k_(k) {
  const uint32_t levels = floor_log2(static_cast<uint32_t>(max_full_nodes < 1 ? 1 : max_full_nodes)) + 1;
  if (levels >= 32) throw std::runtime_error("DeviceHeap: too many nodes");
  capacity_ = (1u << levels) - 1;
  check(cudaMalloc(&state_, (capacity_ + 1ull) * sizeof(uint32_t)), "cudaMalloc state");
  check(cudaMalloc(&keys_, (capacity_ + 1ull) * k * sizeof(uint32_t)), "cudaMalloc keys");
  check(cudaMalloc(&scalars_, 2 * sizeof(uint32_t)), "cudaMalloc scalars");
  check(cudaMalloc(&pbuffer_, k * sizeof(uint32_t)), "cudaMalloc pbuffer");
  reset();
}

DeviceHeap::~DeviceHeap() {
  cudaFree(state_);
  cudaFree(keys_);
  cudaFree(scalars_);
  cudaFree(pbuffer_);
}

size_t DeviceHeap::bytes() const { return (capacity_ + 1ull) * (k_ + 1) * sizeof(uint32_t) + (k_ + 2) * sizeof(uint32_t); }

HeapView<uint32_t> DeviceHeap::view(Variant v, Mutant m) const {
  HeapView<uint32_t> h;
  h.k = k_;
  h.capacity = capacity_;
  h.state = state_;
  h.keys = keys_;
  h.lastelem = scalars_;
  h.psize = scalars_ + 1;
  h.pbuffer = pbuffer_;
  h.variant = v;
  h.mutant = m;
  return h;
}

void DeviceHeap::reset() {
  check(cudaMemset(state_, 0, (capacity_ + 1ull) * sizeof(uint32_t)), "reset state");  // AVAIL == 0
  fill(keys_, (capacity_ + 1ull) * k_, KeyLimits<uint32_t>::max_value);
  fill(pbuffer_, k_, KeyLimits<uint32_t>::max_value);
  check(cudaMemset(scalars_, 0, 2 * sizeof(uint32_t)), "reset scalars");
  check(cudaDeviceSynchronize(), "reset");
}

uint32_t DeviceHeap::lastelem() const {
  uint32_t v = 0;
  check(cudaMemcpy(&v, scalars_, sizeof v, cudaMemcpyDeviceToHost), "lastelem");
  return v;
}

HeapImage DeviceHeap::download() const {
  HeapImage img;
  img.k = k_;
  img.capacity = capacity_;
  uint32_t sc[2];
  check(cudaMemcpy(sc, scalars_, sizeof sc, cudaMemcpyDeviceToHost), "download scalars");
  img.lastelem = sc[0];
  img.psize = sc[1];
  img.state.resize(capacity_ + 1ull);
  img.keys.resize((capacity_ + 1ull) * k_);
  img.pbuffer.resize(k_);
  check(cudaMemcpy(img.state.data(), state_, img.state.size() * 4, cudaMemcpyDeviceToHost), "download state");
  check(cudaMemcpy(img.keys.data(), keys_, img.keys.size() * 4, cudaMemcpyDeviceToHost), "download keys");
  check(cudaMemcpy(img.pbuffer.data(), pbuffer_, img.pbuffer.size() * 4, cudaMemcpyDeviceToHost), "download pbuffer");
  return img;
}

}  // namespace gpulin::gheap
