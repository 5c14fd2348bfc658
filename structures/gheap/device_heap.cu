#include "structures/gheap/device_heap.h"

#include <cuda_runtime.h>

#include <algorithm>
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
  if (v == 0) return check(cudaMemset(p, 0, n * sizeof(uint32_t)), "fill");
  fill_kernel<<<static_cast<unsigned>(std::min<uint64_t>(1024, (n + 255) / 256)), 256>>>(p, n, v);
  check(cudaGetLastError(), "fill");
}
}  // namespace

DeviceHeap::DeviceHeap(uint32_t k, uint64_t max_full_nodes) : k_(k) {
  capacity_ = heap_capacity_for(max_full_nodes);
  if (capacity_ == 0) throw std::runtime_error("DeviceHeap: too many nodes");
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

HeapMemory<uint32_t> DeviceHeap::memory() const {
  return {k_, capacity_, state_, keys_, scalars_, scalars_ + 1, pbuffer_};
}

void DeviceHeap::reset() {
  reset_heap(memory(), [](uint32_t* p, uint64_t n, uint32_t v) { fill(p, n, v); });
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
